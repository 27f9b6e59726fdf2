// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

#xstat = affine_map<(c, n, h, w) -> (n, c, h, w)>
#chan = affine_map<(c, n, h, w) -> (c)>

// NCHW: the innermost memory dimension (w) is reduced, so threads run along
// each channel's planes: 512 per block, 64 channels x 9 blocks each (the
// 100352 values per channel split 9 ways), 4 loads per loop trip. Each
// block merges its threads' (count, mean, M2) states with Chan's formula
// through warp shuffles and shared memory, and stores a partial state; a
// second kernel merges the 9 partial states per channel in order, starting
// from the fills' values (the fills disappear). Where x is 16-byte aligned
// each load reads 8 consecutive values of a row (f16), folded one after the
// other; otherwise one value per load. The loop's 4 loads per trip do not
// wait on the state: a unit past the end reads the last one and its steps
// are discarded by a select.
// REPORT: remark: @planes: 2 GPU kernels
// REPORT-NEXT: planes_kernel0_planes: Welford over planes (512 threads per output, vector 8, split over 9 blocks)
// REPORT-NEXT: planes_kernel0_combine: merge of 9 partial states per output
// CHECK-LABEL: func.func @planes
// CHECK-NOT:     linalg.
// CHECK-DAG:     %[[PC:.*]] = memref.alloc() : memref<9x64xi64>
// CHECK-DAG:     %[[PM:.*]] = memref.alloc() : memref<9x64xf32>
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c576, {{.*}} threads({{.*}}) in ({{.*}} = %c512, {{.*}} function(@planes_kernel0_planes) workgroup(%{{.*}} : memref<32xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           scf.if
// CHECK:             scf.for {{.*}} step %c2048 iter_args
// CHECK-COUNT-4:       vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<32x64x56x56xf16>, vector<8xf16>
// CHECK-NOT:           scf.if
// CHECK:               arith.select
// CHECK:               scf.yield
// CHECK:           } else {
// CHECK:             scf.for {{.*}} step %c2048 iter_args
// CHECK-COUNT-4:       memref.load %arg0
// CHECK:           gpu.shuffle  xor %{{.*}} : i64
// CHECK:           gpu.shuffle  xor %{{.*}} : f32
// CHECK:           gpu.shuffle  xor %{{.*}} : f32
// CHECK:           gpu.barrier
// CHECK:           memref.store %{{.*}}, %[[PC]]
// CHECK:         gpu.launch {{.*}} function(@planes_kernel0_combine)
// CHECK:           memref.load %[[PC]]
// CHECK:           memref.store %{{.*}}, %arg1
// CHECK:           memref.store %{{.*}}, %arg2
// CHECK:           memref.store %{{.*}}, %arg3
func.func @planes(%x: memref<32x64x56x56xf16>, %count: memref<64xi64>, %mean: memref<64xf32>, %m2: memref<64xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%count : memref<64xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<64xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<64xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<32x64x56x56xf16>) outs(%count, %mean, %m2 : memref<64xi64>, memref<64xf32>, memref<64xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%in: f16, %n: i64, %mu: f32, %s: f32):
    %v = arith.extf %in : f16 to f32
    %one = arith.constant 1 : i64
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %d = arith.subf %v, %mu : f32
    %q = arith.divf %d, %nf : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  return
}

// NHWC (channels-last strides): the innermost memory dimension is the
// channel, so consecutive channels per block along x (coalesced); with
// 1024 channels, 4 per thread read as one vector through a transposed view
// (one load per channel if x is misaligned); 16 warps split the 2x5x5 = 50
// rows and merge in a shared-memory tree; few rows, so no split and no
// second kernel: thread row 0 stores the final states. (With fewer than
// 8 x 128 channels each thread takes one channel: see @two_sums.)
// REPORT: remark: @columns: 1 GPU kernel
// REPORT-NEXT: columns_kernel0_columns: Welford over columns (32 x 4 columns x 16 warps per block, vector 4)
// CHECK-LABEL: func.func @columns
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c8, {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c16, {{.*}} function(@columns_kernel0_columns) workgroup(%{{.*}} : memref<16x128xi64, #gpu.address_space<workgroup>>
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           memref.transpose %arg0 (d0, d1, d2, d3) -> (d0, d2, d3, d1)
// CHECK:           vector.load {{.*}} : memref<2x5x5x1024xf32, strided<[25600, 5120, 1024, 1]>>, vector<4xf32>
// CHECK:           gpu.barrier
// CHECK:           memref.store %{{.*}}, %arg1
// CHECK-NOT:     gpu.launch
func.func @columns(%x: memref<2x1024x5x5xf32, strided<[25600, 1, 5120, 1024]>>, %count: memref<1024xi64>, %mean: memref<1024xf32>, %m2: memref<1024xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%count : memref<1024xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<1024xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<1024xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<2x1024x5x5xf32, strided<[25600, 1, 5120, 1024]>>) outs(%count, %mean, %m2 : memref<1024xi64>, memref<1024xf32>, memref<1024xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%v: f32, %n: i64, %mu: f32, %s: f32):
    %one = arith.constant 1 : i64
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %d = arith.subf %v, %mu : f32
    %q = arith.divf %d, %nf : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %v, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  return
}

// Two outputs, each an addition (batch-norm backward's sums): the same
// mappings, the partial states merged value by value; NHWC, so columns; 39
// channels split into no whole vectors, so one channel per thread.
// REPORT: remark: @two_sums: 1 GPU kernel
// REPORT-NEXT: two_sums_kernel0_columns: reduction of 2 values over columns (32 columns x 16 warps per block)
// CHECK-LABEL: func.func @two_sums
// CHECK:         gpu.launch {{.*}} workgroup(%[[A:.*]] : memref<16x32xf32, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<16x32xf32, #gpu.address_space<workgroup>>)
// The 16 rows' partial sums merge in a shared-memory tree: 8, 4, 2, 1
// rows active, a barrier after each level.
// CHECK-COUNT-5:   gpu.barrier
func.func @two_sums(%dy: memref<2x39x5x5xf32, strided<[975, 1, 195, 39]>>, %mean: memref<39xf32>, %s0: memref<39xf32>, %s1: memref<39xf32>) {
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%zf : f32) outs(%s0 : memref<39xf32>)
  linalg.fill ins(%zf : f32) outs(%s1 : memref<39xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%dy, %mean : memref<2x39x5x5xf32, strided<[975, 1, 195, 39]>>, memref<39xf32>) outs(%s0, %s1 : memref<39xf32>, memref<39xf32>) {
  ^bb0(%d: f32, %m: f32, %a: f32, %b: f32):
    %c = arith.subf %d, %m : f32
    %a1 = arith.addf %a, %d : f32
    %p = arith.mulf %d, %c : f32
    %b1 = arith.addf %b, %p : f32
    linalg.yield %a1, %b1 : f32, f32
  }
  return
}
