// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// The remark sits at the function's location, so it does not print the
// function even where ops are printed with diagnostics (the default).
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-OP-DUMP
// NO-OP-DUMP: remark: @planes: 2 GPU kernels
// NO-OP-DUMP-NOT: see current operation

#xstat = affine_map<(c, n, h, w) -> (n, c, h, w)>
#chan = affine_map<(c, n, h, w) -> (c)>

// NCHW: the innermost memory dimension (w) is reduced, so threads run along
// each channel's planes: 512 per block, 64 channels x 9 blocks each (the
// 100352 values per channel split 9 ways), 4 loads per loop trip. Each
// block merges its threads' (count, mean, M2) states with Chan's formula
// through warp shuffles and shared memory, and stores a partial state; a
// second kernel, a warp per channel (8 per block), merges the 9 partial
// states, starting
// from the fills' values (the fills disappear). Where x is 16-byte aligned
// each load reads 8 consecutive values of a row (f16) into 8 lanes, each
// its own (mean, M2); the count only depends on itself, so the lanes share
// it: one count, conversion and reciprocal per vector (17 loop-carried
// values: the count and 8 x 2). Otherwise one value per load. The loop's 4
// loads per trip do not wait on the state: a unit past the end reads the
// last one and its steps are discarded by a select.
// REPORT: remark: @planes: 2 GPU kernels
// REPORT-NEXT: planes_kernel0_planes: Welford over planes (512 threads per output, vector 8, shared count, split over 9 blocks)
// REPORT-NEXT: planes_kernel0_combine: merge of 9 partial states per output (a warp each)
// CHECK-LABEL: func.func @planes
// CHECK-NOT:     linalg.
// CHECK-DAG:     %[[PC:.*]] = memref.alloc() : memref<9x64xi64>
// CHECK-DAG:     %[[PM:.*]] = memref.alloc() : memref<9x64xf32>
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c576, {{.*}} threads({{.*}}) in ({{.*}} = %c512, {{.*}} function(@planes_kernel0_planes) workgroup(%{{.*}} : memref<32xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           scf.if
// CHECK:             %{{.*}}:17 = scf.for {{.*}} step %c2048 iter_args({{.*}}) -> (i64, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// The trip's 4 loads come first, then the 4 units fold in.
// CHECK-COUNT-4:       vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<32x64x56x56xf16>, vector<8xf16>
// CHECK-NOT:           vector.load
// CHECK:               arith.sitofp
// CHECK-NEXT:          arith.divf
// CHECK-NOT:           arith.divf
// CHECK:               arith.sitofp
// CHECK-NOT:           scf.if
// CHECK:               arith.select
// CHECK:               scf.yield
// The 8 lanes merge into one state (Chan's formula) before the warp's.
// CHECK:             arith.sitofp
// CHECK:           } else {
// CHECK:             scf.for {{.*}} step %c2048 iter_args
// CHECK-COUNT-4:       memref.load %arg0
// CHECK:           gpu.shuffle  xor %{{.*}} : i64
// CHECK:           gpu.shuffle  xor %{{.*}} : f32
// CHECK:           gpu.shuffle  xor %{{.*}} : f32
// CHECK:           gpu.barrier
// CHECK:           memref.store %{{.*}}, %[[PC]]
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} function(@planes_kernel0_combine)
// CHECK:           memref.load %[[PC]]
// CHECK:           gpu.shuffle  xor %{{.*}} : i64
// CHECK-NOT:       gpu.barrier
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
  return
}

// NHWC (channels-last strides): the innermost memory dimension is the
// channel, so consecutive channels per block along x (coalesced); 4 per
// thread read as one vector (one load per channel if x is misaligned), 4
// lanes sharing one count. The rows n, h, w are row-major in memory (each
// stride the next one's times its size), so a row's vector sits at the
// column's offset plus the row times 1024, read through a flat view with
// no coordinates divided out; 16 rows of
// threads split the 2x5x5 = 50 rows and merge in a shared-memory tree (the
// count once per thread: 16x32, the means and M2s per lane: 16x128); few
// rows, so no split and no second kernel: thread row 0 stores the final
// states.
// REPORT: remark: @columns: 1 GPU kernel
// REPORT-NEXT: columns_kernel0_columns: Welford over columns (32 x 4 columns x 16 rows per block, vector 4, shared count)
// CHECK-LABEL: func.func @columns
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c8, {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c16, {{.*}} function(@columns_kernel0_columns) workgroup(%{{.*}} : memref<16x32xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x128xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x128xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[FLAT:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [51200], strides: [1]
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           scf.for %[[ROW:.*]] = {{.*}} iter_args
// CHECK-NOT:         arith.divui
// CHECK:             %[[ROWOFFSET:.*]] = arith.muli %{{.*}}, %c1024 : index
// CHECK:             %[[AT:.*]] = arith.addi %{{.*}}, %[[ROWOFFSET]] : index
// CHECK:             vector.load %[[FLAT]][%[[AT]]] {alignment = 16 : i64} : memref<51200xf32, strided<[1]>>, vector<4xf32>
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
  return
}

// The same columns in memory order (h, w, n, c): the rows' strides (n 1024,
// h 10240, w 2048) are not row-major, so no single stride steps the rows;
// the vectors are read through the transposed view at each row's (n, h, w),
// divided out of the row.
// REPORT: remark: @columns_rows_not_row_major: 1 GPU kernel
// CHECK-LABEL: func.func @columns_rows_not_row_major
// CHECK-NOT:       memref.reinterpret_cast
// CHECK:           scf.for
// CHECK:             arith.divui
// CHECK:             memref.transpose %arg0 (d0, d1, d2, d3) -> (d0, d2, d3, d1)
// CHECK:             vector.load {{.*}} : memref<2x5x5x1024xf32, strided<[1024, 10240, 2048, 1]>>, vector<4xf32>
func.func @columns_rows_not_row_major(%x: memref<2x1024x5x5xf32, strided<[1024, 1, 10240, 2048]>>, %count: memref<1024xi64>, %mean: memref<1024xf32>, %m2: memref<1024xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%count : memref<1024xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<1024xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<1024xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<2x1024x5x5xf32, strided<[1024, 1, 10240, 2048]>>) outs(%count, %mean, %m2 : memref<1024xi64>, memref<1024xf32>, memref<1024xf32>)
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
  return
}

// Two outputs, each an addition (batch-norm backward's sums): the same
// mappings, the partial states merged value by value; NHWC, so columns; 39
// channels split into no whole vectors, so one channel per thread.
// REPORT: remark: @two_sums: 1 GPU kernel
// REPORT-NEXT: two_sums_kernel0_columns: reduction of 2 values over columns (32 columns x 16 rows per block)
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

// Planes of 7x7 do not split into vectors, but the 4x7x7 = 196 values per
// channel split into units of 4 consecutive positions: each thread folds a
// unit into 4 lanes (each value read on its own, wherever its plane ends)
// that share one count: 9 loop-carried values, one reciprocal per unit; a
// trip reads its 4 units (16 values) before folding them in. With so few
// values per channel, blocks of 128 threads rather than 512.
// Only a unit's first position is delinearized (divisions by the plane's 7
// and 7); each next one steps w and carries into h and n.
// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s --check-prefix=CARRY
// CARRY-LABEL: func.func @planes_scalar_lanes
// CARRY:         scf.for
// CARRY:           arith.divui %{{.*}}, %c7_i32 : i32
// CARRY:           memref.load %arg0
// CARRY-NOT:       arith.divui
// CARRY:           arith.cmpi eq, %{{.*}}, %c7_i32 : i32
// CARRY:           memref.load %arg0
// CARRY-NOT:       arith.divui
// CARRY:           memref.load %arg0
// CARRY-NOT:       arith.divui
// CARRY:           memref.load %arg0
// CARRY:           arith.divui %{{.*}}, %c7_i32 : i32
// CARRY:           memref.load %arg0
// REPORT: remark: @planes_scalar_lanes: 1 GPU kernel
// REPORT-NEXT: planes_scalar_lanes_kernel0_planes: Welford over planes (128 threads per output, 4 lanes, shared count)
// CHECK-LABEL: func.func @planes_scalar_lanes
// CHECK:         gpu.launch
// CHECK-NOT:       vector.load
// CHECK:           %{{.*}}:9 = scf.for {{.*}} iter_args({{.*}}) -> (i64, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK-COUNT-16:    memref.load %arg0
// CHECK-NOT:         memref.load %arg0
// CHECK:             arith.sitofp
// CHECK-NEXT:        arith.divf
// CHECK-NOT:         arith.divf
// CHECK:             arith.sitofp
func.func @planes_scalar_lanes(%x: memref<4x8x7x7xf32>, %count: memref<8xi64>, %mean: memref<8xf32>, %m2: memref<8xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%count : memref<8xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<8xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<8xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<4x8x7x7xf32>) outs(%count, %mean, %m2 : memref<8xi64>, memref<8xf32>, memref<8xf32>)
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
  return
}

// Few channels in columns (64, f16 channels-last): 8 per thread as one
// 16-byte vector, so 8 threads cover a row and the block's other 64 rows of
// threads split the rows (8 x 64 = 512 threads). Their states fold into 16
// slots of shared memory, 16 rows at a time (4 barriers), then a 4-level
// tree merges the slots.
// The column kernel must keep two blocks per multiprocessor (nvvm.minctasm,
// which codegen-outline-kernels hands to the kernel); the merge kernel is
// not marked.
// REPORT: remark: @narrow_columns: 2 GPU kernels
// REPORT-NEXT: narrow_columns_kernel0_columns: Welford over columns (8 x 8 columns x 64 rows per block, vector 8, shared count, split over {{[0-9]+}} blocks)
// REPORT-NEXT: narrow_columns_kernel0_combine: merge of {{[0-9]+}} partial states per output (a warp each){{$}}
// CHECK-LABEL: func.func @narrow_columns
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c8, {{.*}} = %c64, {{.*}} function(@narrow_columns_kernel0_columns) workgroup(%{{.*}} : memref<16x8xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>)
// CHECK-COUNT-8:   gpu.barrier
// CHECK:         } {nvvm.minctasm = 2 : i32}
// CHECK-NEXT:    gpu.launch {{.*}} function(@narrow_columns_kernel0_combine)
// CHECK-NOT:     nvvm.minctasm
// CHECK:         return
func.func @narrow_columns(%x: memref<64x64x16x16xf16, strided<[16384, 1, 1024, 64]>>, %count: memref<64xi64>, %mean: memref<64xf32>, %m2: memref<64xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%count : memref<64xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<64xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<64xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<64x64x16x16xf16, strided<[16384, 1, 1024, 64]>>) outs(%count, %mean, %m2 : memref<64xi64>, memref<64xf32>, memref<64xf32>)
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
  return
}

// An elementwise generic right after the reduction, over its outputs with
// identity maps (batch norm's per-channel finalisation): the thread that
// stores an output's final state runs it for that element, in the same
// kernel, so it is not a kernel of its own. Its output buffer, allocated
// between the two, moves before the kernel.
// REPORT: remark: @with_epilogue: 1 GPU kernel
// REPORT-NEXT: with_epilogue_kernel0_planes: Welford over planes (128 threads per output, vector 4, shared count), with the elementwise op after it
// CHECK-LABEL: func.func @with_epilogue
// CHECK:         %[[INV:.*]] = memref.alloc() : memref<8xf32>
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %arg3
// CHECK:           memref.load %arg3
// CHECK:           math.rsqrt
// CHECK:           memref.store %{{.*}}, %[[INV]]
// CHECK-NOT:     gpu.launch
func.func @with_epilogue(%x: memref<4x8x4x4xf32>, %count: memref<8xi64>, %mean: memref<8xf32>, %m2: memref<8xf32>) -> memref<8xf32> {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%count : memref<8xi64>)
  linalg.fill ins(%zf : f32) outs(%mean : memref<8xf32>)
  linalg.fill ins(%zf : f32) outs(%m2 : memref<8xf32>)
  linalg.generic {indexing_maps = [#xstat, #chan, #chan, #chan], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<4x8x4x4xf32>) outs(%count, %mean, %m2 : memref<8xi64>, memref<8xf32>, memref<8xf32>)
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
  %inv = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%m2 : memref<8xf32>) outs(%inv : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = math.rsqrt %a : f32
    linalg.yield %i : f32
  }
  return %inv : memref<8xf32>
}

// An elementwise op that writes one of the reduction's inputs (here the
// per-channel %m the two sums read) stays a kernel of its own: other blocks
// may still be reading that input.
// REPORT: remark: @epilogue_writes_input: 2 GPU kernels
// REPORT-NEXT: epilogue_writes_input_kernel0_planes: reduction of 2 values over planes (128 threads per output, vector 4){{$}}
// REPORT-NEXT: epilogue_writes_input_kernel1: elementwise
// CHECK-LABEL: func.func @epilogue_writes_input
// CHECK-COUNT-2: gpu.launch
func.func @epilogue_writes_input(%dy: memref<3x64xf32>, %m: memref<3xf32>, %s0: memref<3xf32>, %s1: memref<3xf32>) {
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%zf : f32) outs(%s0 : memref<3xf32>)
  linalg.fill ins(%zf : f32) outs(%s1 : memref<3xf32>)
  linalg.generic {indexing_maps = [affine_map<(c, n) -> (c, n)>, affine_map<(c, n) -> (c)>, affine_map<(c, n) -> (c)>, affine_map<(c, n) -> (c)>], iterator_types = ["parallel", "reduction"]}
      ins(%dy, %m : memref<3x64xf32>, memref<3xf32>) outs(%s0, %s1 : memref<3xf32>, memref<3xf32>) {
  ^bb0(%d: f32, %mm: f32, %a: f32, %b: f32):
    %c = arith.subf %d, %mm : f32
    %a1 = arith.addf %a, %d : f32
    %p = arith.mulf %d, %c : f32
    %b1 = arith.addf %b, %p : f32
    linalg.yield %a1, %b1 : f32, f32
  }
  linalg.generic {indexing_maps = [affine_map<(c) -> (c)>, affine_map<(c) -> (c)>], iterator_types = ["parallel"]}
      ins(%s0 : memref<3xf32>) outs(%m : memref<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
