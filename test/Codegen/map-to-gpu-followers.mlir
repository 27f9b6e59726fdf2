// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: cudnn-opt %s --codegen-map-to-gpu="report-kernels grid-sync=false" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// Batch-norm training forward, channels-last (f16 x and y, 64 channels,
// 64x16x16 rows): Welford statistics over columns, the per-channel epilogue
// (mean, invstd), and the normalisation reading x element by element.
// With grid-sync (the default) the three are one kernel, named
// ..._grid_sync so that the runtime launches it cooperatively:
// - a 2-D grid: 1 block of 64 columns along x, the split along y (the
//   runtime may lower it: the kernel reads gridDim.y);
// - dynamic shared memory (gpu.dynamic_shared_memory, as f16) keeps the
//   first trips of x, stored once per trip after the trip's loads;
// - the blocks store partial states, meet at a grid barrier (the driver's
//   workspace in %envreg1:%envreg2, an atom.add.release and acquire loads),
//   merge each channel's states (a warp per channel: at most 64 of them)
//   and run the epilogue, meet again, and normalise their rows newest trip
//   first, from the cache or global memory, one 16-byte vector each way.
// REPORT: remark: @bn_nhwc: 1 GPU kernel
// REPORT-NEXT: bn_nhwc_kernel0_columns_grid_sync: Welford over columns (8 x 8 columns x 64 rows per block, vector 8, shared count, up to 32 blocks per column), then after grid barriers the merge (a warp per output) and the elementwise op after it (2 trips of x kept in shared memory)
// OFF: remark: @bn_nhwc: 3 GPU kernels
// OFF-NEXT: bn_nhwc_kernel0_columns: Welford over columns
// OFF-NEXT: bn_nhwc_kernel0_combine: merge of 32 partial states per output (a warp each), with the elementwise op after it
// OFF-NEXT: bn_nhwc_kernel1: elementwise
// CHECK-LABEL: func.func @bn_nhwc
// CHECK:         %[[PARTIAL:.*]] = memref.alloc() : memref<32x64xi64>
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} = %c32, {{.*}}) threads({{.*}}) in ({{.*}} = %c8, {{.*}} = %c64, {{.*}}) dynamic_shared_memory_size %{{.*}} function(@bn_nhwc_kernel0_columns_grid_sync)
// CHECK:           gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK:           memref.view {{.*}} to memref<[[CACHE:[0-9]+]]xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK-COUNT-4:     vector.load {{.*}} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK:             scf.if
// CHECK-COUNT-4:       vector.store {{.*}} : memref<[[CACHE]]xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:           memref.store {{.*}}, %[[PARTIAL]]
// CHECK:           llvm.inline_asm has_side_effects {{.*}}"mov.u32 $0, %envreg1;"
// CHECK:           llvm.inline_asm has_side_effects {{.*}}"atom.add.release.gpu.u32 $0, [$1], $2;"
// CHECK:           scf.while
// CHECK:             llvm.inline_asm has_side_effects {{.*}}"ld.acquire.gpu.u32 $0, [$1];"
// CHECK:           memref.load %[[PARTIAL]]
// CHECK:           gpu.shuffle xor
// CHECK:           math.rsqrt
// CHECK:           llvm.inline_asm has_side_effects {{.*}}"atom.add.release.gpu.u32 $0, [$1], $2;"
// CHECK:           vector.load {{.*}} : memref<[[CACHE]]xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:           vector.store {{.*}} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK:         } {nvvm.minctasm = 2 : i32}
// CHECK-NOT:     gpu.launch
// CHECK:         return
#xstat = affine_map<(c, n, h, w) -> (n, c, h, w)>
#chan = affine_map<(c, n, h, w) -> (c)>
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#c4 = affine_map<(n, c, h, w) -> (c)>
!xt = memref<64x64x16x16xf16, strided<[16384, 1, 1024, 64]>>
func.func @bn_nhwc(%x: !xt, %gamma: memref<64xf32>, %beta: memref<64xf32>, %y: !xt) -> (memref<64xf32>, memref<64xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %count = memref.alloc() : memref<64xi64>
  %mean = memref.alloc() : memref<64xf32>
  %m2 = memref.alloc() : memref<64xf32>
  linalg.fill ins(%z : i64) outs(%count : memref<64xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<64xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<64xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : !xt) outs(%count, %mean, %m2 : memref<64xi64>, memref<64xf32>, memref<64xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%in: f16, %n: i64, %mu: f32, %s: f32):
    %v = arith.extf %in : f16 to f32
    %one = arith.constant 1 : i64
    %onef = arith.constant 1.0 : f32
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %r = arith.divf %onef, %nf : f32
    %d = arith.subf %v, %mu : f32
    %q = arith.mulf %d, %r : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  %inv = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%count, %m2 : memref<64xi64>, memref<64xf32>) outs(%inv : memref<64xf32>) {
  ^bb0(%cnt: i64, %a: f32, %o: f32):
    %cf = arith.sitofp %cnt : i64 to f32
    %var = arith.divf %a, %cf : f32
    %ve = arith.addf %var, %eps : f32
    %i = math.rsqrt %ve : f32
    linalg.yield %i : f32
  }
  linalg.generic {indexing_maps = [#id4, #c4, #c4, #c4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %inv, %gamma, %beta : !xt, memref<64xf32>, memref<64xf32>, memref<64xf32>, memref<64xf32>) outs(%y : !xt) {
  ^bb0(%in: f16, %mu: f32, %is: f32, %g: f32, %bb: f32, %o: f16):
    %v = arith.extf %in : f16 to f32
    %c = arith.subf %v, %mu : f32
    %n = arith.mulf %c, %is : f32
    %sg = arith.mulf %n, %g : f32
    %r = arith.addf %sg, %bb : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  return %mean, %inv : memref<64xf32>, memref<64xf32>
}

// The elementwise op reads a second tensor element by element (dy of a
// backward pass): it does not move with the channels only, so it is no
// follower, and the statistics keep their two kernels.
// REPORT: remark: @reads_another_tensor: 3 GPU kernels
// REPORT-NEXT: reads_another_tensor_kernel0_columns: Welford over columns
// CHECK-LABEL: func.func @reads_another_tensor
// CHECK-NOT:     _grid_sync
// CHECK:         return
func.func @reads_another_tensor(%x: !xt, %dy: !xt, %y: !xt) -> memref<64xf32> {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  %count = memref.alloc() : memref<64xi64>
  %mean = memref.alloc() : memref<64xf32>
  %m2 = memref.alloc() : memref<64xf32>
  linalg.fill ins(%z : i64) outs(%count : memref<64xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<64xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<64xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : !xt) outs(%count, %mean, %m2 : memref<64xi64>, memref<64xf32>, memref<64xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%in: f16, %n: i64, %mu: f32, %s: f32):
    %v = arith.extf %in : f16 to f32
    %one = arith.constant 1 : i64
    %onef = arith.constant 1.0 : f32
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %r = arith.divf %onef, %nf : f32
    %d = arith.subf %v, %mu : f32
    %q = arith.mulf %d, %r : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  %inv = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%m2 : memref<64xf32>) outs(%inv : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = math.rsqrt %a : f32
    linalg.yield %i : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %dy, %inv : !xt, !xt, memref<64xf32>) outs(%y : !xt) {
  ^bb0(%in: f16, %g: f16, %is: f32, %o: f16):
    %v = arith.extf %in : f16 to f32
    %w = arith.extf %g : f16 to f32
    %c = arith.mulf %v, %w : f32
    %n = arith.mulf %c, %is : f32
    %t = arith.truncf %n : f32 to f16
    linalg.yield %t : f16
  }
  return %inv : memref<64xf32>
}

// NCHW with enough channels (192 >= 132) for a block each: no split, so
// the block that reduced a channel's planes also normalises them, in the
// same kernel, after a block barrier that publishes the epilogue's results:
// the per-channel inputs are loaded once, x is read as vectors of 4 again
// (newest trip first) and y written as vectors. No grid barrier, no
// cooperative launch.
// REPORT: remark: @bn_nchw_planes: 1 GPU kernel
// REPORT-NEXT: bn_nchw_planes_kernel0_planes: Welford over planes (128 threads per output, vector 4, shared count), then per output the elementwise op after it
// OFF: remark: @bn_nchw_planes: 2 GPU kernels
// OFF-NEXT: bn_nchw_planes_kernel0_planes: Welford over planes (128 threads per output, vector 4, shared count), with the elementwise op after it
// OFF-NEXT: bn_nchw_planes_kernel1: elementwise
// CHECK-LABEL: func.func @bn_nchw_planes
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c192, {{.*}}) threads({{.*}}) in ({{.*}} = %c128, {{.*}}) function(@bn_nchw_planes_kernel0_planes)
// CHECK-NOT:       llvm.inline_asm
// CHECK:           vector.load %arg0{{.*}} : memref<8x192x12x20xf32>, vector<4xf32>
// CHECK:           math.rsqrt
// CHECK:           gpu.barrier
// CHECK:           scf.if
// CHECK:             scf.for
// CHECK:               vector.load %arg0{{.*}} : memref<8x192x12x20xf32>, vector<4xf32>
// CHECK:               vector.store {{.*}}, %arg3{{.*}} : memref<8x192x12x20xf32>, vector<4xf32>
// CHECK-NOT:     gpu.launch
// CHECK:         return
#pxstat = affine_map<(c, n, h, w) -> (n, c, h, w)>
!pt = memref<8x192x12x20xf32>
func.func @bn_nchw_planes(%x: !pt, %gamma: memref<192xf32>, %beta: memref<192xf32>, %y: !pt) -> (memref<192xf32>, memref<192xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  %count = memref.alloc() : memref<192xi64>
  %mean = memref.alloc() : memref<192xf32>
  %m2 = memref.alloc() : memref<192xf32>
  linalg.fill ins(%z : i64) outs(%count : memref<192xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<192xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<192xf32>)
  linalg.generic {indexing_maps = [#pxstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : !pt) outs(%count, %mean, %m2 : memref<192xi64>, memref<192xf32>, memref<192xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%v: f32, %n: i64, %mu: f32, %s: f32):
    %one = arith.constant 1 : i64
    %onef = arith.constant 1.0 : f32
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %r = arith.divf %onef, %nf : f32
    %d = arith.subf %v, %mu : f32
    %q = arith.mulf %d, %r : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  %inv = memref.alloc() : memref<192xf32>
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%m2 : memref<192xf32>) outs(%inv : memref<192xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = math.rsqrt %a : f32
    linalg.yield %i : f32
  }
  linalg.generic {indexing_maps = [#id4, #c4, #c4, #c4, #c4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %mean, %inv, %gamma, %beta : !pt, memref<192xf32>, memref<192xf32>, memref<192xf32>, memref<192xf32>) outs(%y : !pt) {
  ^bb0(%v: f32, %mu: f32, %is: f32, %g: f32, %bb: f32, %o: f32):
    %c = arith.subf %v, %mu : f32
    %n = arith.mulf %c, %is : f32
    %sg = arith.mulf %n, %g : f32
    %r = arith.addf %sg, %bb : f32
    linalg.yield %r : f32
  }
  return %mean, %inv : memref<192xf32>, memref<192xf32>
}

// [N, C] with 8448 f16 channels: 33 column blocks of 256 channels, more
// than the 32 a grid-sync kernel may need resident at once on any GPU it
// runs on (the runtime lowers only grid.y), so the statistics keep their
// merge kernel and the normalisation its own kernel.
// REPORT: remark: @too_wide_for_one_kernel: 3 GPU kernels
// REPORT-NEXT: too_wide_for_one_kernel_kernel0_columns: Welford over columns (32 x 8 columns x 16 rows per block, vector 8, shared count, split over 8 blocks)
// CHECK-LABEL: func.func @too_wide_for_one_kernel
// CHECK-NOT:     _grid_sync
// CHECK:         return
!wt = memref<1024x8448xf16>
func.func @too_wide_for_one_kernel(%x: !wt, %gamma: memref<8448xf32>, %y: !wt) -> memref<8448xf32> {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  %count = memref.alloc() : memref<8448xi64>
  %mean = memref.alloc() : memref<8448xf32>
  %m2 = memref.alloc() : memref<8448xf32>
  linalg.fill ins(%z : i64) outs(%count : memref<8448xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<8448xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<8448xf32>)
  linalg.generic {indexing_maps = [affine_map<(c, n) -> (n, c)>, affine_map<(c, n) -> (c)>, affine_map<(c, n) -> (c)>, affine_map<(c, n) -> (c)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : !wt) outs(%count, %mean, %m2 : memref<8448xi64>, memref<8448xf32>, memref<8448xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%in: f16, %n: i64, %mu: f32, %s: f32):
    %v = arith.extf %in : f16 to f32
    %one = arith.constant 1 : i64
    %onef = arith.constant 1.0 : f32
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %r = arith.divf %onef, %nf : f32
    %d = arith.subf %v, %mu : f32
    %q = arith.mulf %d, %r : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  %inv = memref.alloc() : memref<8448xf32>
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%m2 : memref<8448xf32>) outs(%inv : memref<8448xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = math.rsqrt %a : f32
    linalg.yield %i : f32
  }
  linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (c)>, affine_map<(n, c) -> (c)>, affine_map<(n, c) -> (n, c)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %inv, %gamma : !wt, memref<8448xf32>, memref<8448xf32>) outs(%y : !wt) {
  ^bb0(%in: f16, %is: f32, %g: f32, %o: f16):
    %v = arith.extf %in : f16 to f32
    %n = arith.mulf %v, %is : f32
    %sg = arith.mulf %n, %g : f32
    %t = arith.truncf %sg : f32 to f16
    linalg.yield %t : f16
  }
  return %inv : memref<8448xf32>
}
