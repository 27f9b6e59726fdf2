// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>

// Softmax over rows of 1000 (as linalg leaves it after fusion: the max, the
// sum of exp(x - max), the division): ONE kernel, one block per row. Rows
// are read as 4 x f32 vectors (250 per row, 64 threads) when both buffers
// are 16-byte aligned, as scalars otherwise. Both reductions are combined by
// warp shuffles and one shared-memory step; their fills become the
// kernels' starting values; the per-row max and sum stay in registers and
// their buffers disappear. 250 vectors on 64 threads is 3 or 4 each: every
// thread loads 4, the last at min(thread + 192, 249), once, and keeps them
// for all three members; past the row's end (thread + 192 >= 250) the last
// changes neither reduction (a select) and is not stored (an scf.if).
// REPORT: remark: @softmax: 1 GPU kernel
// REPORT-NEXT: softmax_kernel0: row reduction (block of 64 per row, vector 4, row held in registers, 3 ops fused)
// CHECK-LABEL: func.func @softmax
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c64, {{.*}}) threads({{.*}}) in ({{.*}} = %c64, {{.*}}) function(@softmax_kernel0) workgroup(%[[SCRATCH:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           memref.extract_aligned_pointer_as_index %arg1
// CHECK:           scf.if
// CHECK-NOT:         scf.for
// CHECK-COUNT-3:     vector.load %arg0{{.*}} vector<4xf32>
// CHECK:             %[[LAST:.*]] = arith.addi %arg5, %c192
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %[[LAST]], %c250
// CHECK:             arith.minui %[[LAST]], %c249
// CHECK:             vector.load %arg0{{.*}} vector<4xf32>
// CHECK:             arith.select %[[IN]]
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             memref.store {{.*}}, %[[SCRATCH]]
// CHECK:             gpu.barrier
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             gpu.barrier
// CHECK:             %[[MAX:.*]] = arith.maximumf %cst, %{{.*}} : f32
// CHECK-NOT:         vector.load
// CHECK:             arith.subf %{{.*}}, %[[MAX]]
// CHECK:             math.exp
// CHECK:             arith.select %[[IN]]
// CHECK:             gpu.barrier
// CHECK:             gpu.barrier
// CHECK:             %[[SUM:.*]] = arith.addf %{{.*}}, %cst_0 : f32
// CHECK-NOT:         vector.load
// CHECK-COUNT-4:     arith.divf %{{.*}}, %[[SUM]]
// CHECK:             vector.store {{.*}}, %arg1{{.*}} vector<4xf32>
// CHECK-COUNT-2:     vector.store {{.*}}, %arg1{{.*}} vector<4xf32>
// CHECK:             scf.if %[[IN]] {
// CHECK:               vector.store {{.*}}, %arg1{{.*}} vector<4xf32>
// CHECK:           } else {
// CHECK-NOT:         scf.for
// CHECK:             arith.cmpi ult, %{{.*}}, %c1000
// CHECK:             arith.minui %{{.*}}, %c999
// CHECK:             memref.store {{.*}}, %arg1
// CHECK-NOT:     gpu.launch
func.func @softmax(%x: memref<64x1000xf32>, %y: memref<64x1000xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<64x1xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x1000xf32>) outs(%m : memref<64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %s = memref.alloc() : memref<64x1xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<64x1xf32>)
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<64x1000xf32>, memref<64x1xf32>) outs(%s : memref<64x1xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : memref<64x1000xf32>, memref<64x1xf32>, memref<64x1xf32>) outs(%y : memref<64x1000xf32>) {
  ^bb0(%a: f32, %mx: f32, %sum: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %sum : f32
    linalg.yield %r : f32
  }
  return
}

// Rows of 1024 on 64 threads: each thread's 4 vectors (16 elements) are
// loaded once, unrolled, and kept in registers for the sum and the division
// (4 vector loads of x, not 12), and the row loops disappear; the scalar
// code for unaligned buffers holds its 16 elements the same way.
// REPORT: remark: @softmax_1024: 1 GPU kernel
// REPORT-NEXT: softmax_1024_kernel0: row reduction (block of 64 per row, vector 4, row held in registers, 3 ops fused)
// CHECK-LABEL: func.func @softmax_1024
// CHECK-NOT:     scf.for
// CHECK-COUNT-4: vector.load %arg0
// CHECK-NOT:     vector.load %arg0
// CHECK-COUNT-4: vector.store
// CHECK:         } else {
// CHECK-COUNT-16: memref.load %arg0
// CHECK-NOT:     memref.load %arg0
// CHECK:         gpu.terminator
func.func @softmax_1024(%x: memref<32x1024xf32>, %y: memref<32x1024xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = memref.alloc() : memref<32x1xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<32x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<32x1024xf32>) outs(%m : memref<32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  }
  %s = memref.alloc() : memref<32x1xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<32x1xf32>)
  linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<32x1024xf32>, memref<32x1xf32>) outs(%s : memref<32x1xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m, %s : memref<32x1024xf32>, memref<32x1xf32>, memref<32x1xf32>) outs(%y : memref<32x1024xf32>) {
  ^bb0(%a: f32, %mx: f32, %sum: f32, %o: f32):
    %d = arith.subf %a, %mx : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %sum : f32
    linalg.yield %r : f32
  }
  return
}

// Short rows share blocks: an f16 mean over rows of 96 (12 vectors of 8)
// goes to 4 lanes a row, 64 rows a block of 256 threads (128 rows: 2
// blocks); the lanes of a row combine their partials with 2 shuffles and no
// shared memory, and each row's first lane stores its mean.
// REPORT: remark: @mean_short_rows: 1 GPU kernel
// REPORT-NEXT: mean_short_rows_kernel0: row reduction (4 threads per row, 64 rows per block, vector 8, row held in registers, 2 ops fused)
// CHECK-LABEL: func.func @mean_short_rows
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c2, {{.*}} threads({{.*}}) in ({{.*}} = %c256,
// CHECK:           arith.divui %{{.*}}, %c4
// CHECK:           %[[LANE:.*]] = arith.remui %{{.*}}, %c4
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:           vector.load
// CHECK-COUNT-2:   gpu.shuffle  xor
// CHECK-NOT:       gpu.shuffle
// CHECK-NOT:       gpu.barrier
// CHECK:           arith.divf
// CHECK:           scf.if %[[FIRST]]
// CHECK-NEXT:        memref.store {{.*}} : memref<128xf16>
func.func @mean_short_rows(%x: memref<128x96xf16>, %y: memref<128xf16>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 96.0 : f32
  %sum = memref.alloc() : memref<128xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<128xf32>)
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<128x96xf16>) outs(%sum : memref<128xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : memref<128xf32>) outs(%y : memref<128xf16>) {
  ^bb0(%s: f32, %o: f16):
    %d = arith.divf %s, %n : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// A max over rows of 197 (attention scores: 197 tokens), which no power of
// two splits evenly: a warp a row still, 8 rows a block of 256 threads (64
// rows: 8 blocks), each lane reading its 6 or 7 elements with a stride of
// 32, unrolled: the seventh at min(lane + 192, 196), kept only where
// lane + 192 < 197; 5 shuffles and no block barrier combine the lanes.
// REPORT: remark: @max_uneven_rows: 1 GPU kernel
// REPORT-NEXT: max_uneven_rows_kernel0: row reduction (32 threads per row, 8 rows per block, row held in registers)
// CHECK-LABEL: func.func @max_uneven_rows
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c8, {{.*}} threads({{.*}}) in ({{.*}} = %c256,
// CHECK:           %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK-NOT:       scf.for
// CHECK-COUNT-6:   memref.load %arg0
// CHECK:           %[[LAST:.*]] = arith.addi %[[LANE]], %c192
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %[[LAST]], %c197
// CHECK:           %[[CLAMPED:.*]] = arith.minui %[[LAST]], %c196
// CHECK:           memref.load %arg0[%{{.*}}, %[[CLAMPED]]]
// CHECK:           arith.select %[[IN]]
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK-NOT:       gpu.barrier
// CHECK:           memref.store {{.*}} : memref<64xf32>
func.func @max_uneven_rows(%x: memref<64x197xf32>, %y: memref<64xf32>) {
  %low = arith.constant 0xFF800000 : f32
  linalg.fill ins(%low : f32) outs(%y : memref<64xf32>)
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x197xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// An f16 mean over rows of 77, accumulated in f32, with its division and
// rounding (a per-row epilogue) in the same kernel; the f32 sum is a
// temporary and never stored; the result is stored by thread 0. Rows of 77
// get blocks of 32 threads: one warp, no shared memory step; 2 or 3
// elements a thread, unrolled.
// REPORT: remark: @mean_f16: 1 GPU kernel
// REPORT-NEXT: mean_f16_kernel0: row reduction (block of 32 per row, row held in registers, 2 ops fused)
// CHECK-LABEL: func.func @mean_f16
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c513, {{.*}} threads({{.*}}) in ({{.*}} = %c32,
// CHECK-NOT:       scf.for
// CHECK-COUNT-3:   arith.extf
// CHECK-COUNT-5:   gpu.shuffle  xor
// CHECK-NOT:       gpu.barrier
// CHECK:           arith.divf
// CHECK:           arith.truncf
// CHECK:           scf.if
// CHECK-NEXT:        memref.store {{.*}}, %arg1[{{.*}}] : memref<513xf16>
func.func @mean_f16(%x: memref<513x77xf16>, %y: memref<513xf16>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 77.0 : f32
  %sum = memref.alloc() : memref<513xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<513xf32>)
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<513x77xf16>) outs(%sum : memref<513xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : memref<513xf32>) outs(%y : memref<513xf16>) {
  ^bb0(%s: f32, %o: f16):
    %d = arith.divf %s, %n : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// A column sum of a 4096x999 matrix (999 columns split into no vectors, so
// one element per thread and row): threads along the 999 columns
// (coalesced), 16 warps per block splitting the rows, and with only 32
// column blocks the rows are also split over 8 blocks (each thread still
// adds 32 rows, in an 8x unrolled loop: 8 loads in flight): a second kernel
// adds the 8 partial sums (a temporary) to the fill value.
// REPORT: remark: @column_sum: 2 GPU kernels
// REPORT-NEXT: column_sum_kernel0_columns: column reduction (32 columns x 16 warps per block, split over 8 blocks, unrolled 8x)
// REPORT-NEXT: column_sum_kernel0_combine: column reduction, combining 8 partial results
// CHECK-LABEL: func.func @column_sum
// CHECK:         %[[PARTIALS:.*]] = memref.alloc() : memref<8x999xf32>
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c256, {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c16, {{.*}} function(@column_sum_kernel0_columns) workgroup(%{{.*}} : memref<16x32xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c32 step %c8 iter_args
// CHECK-COUNT-8:     memref.load %arg0
// CHECK:           gpu.barrier
// CHECK:           memref.store {{.*}}, %[[PARTIALS]]
// CHECK:         gpu.launch {{.*}} function(@column_sum_kernel0_combine)
// CHECK:           memref.load %[[PARTIALS]]
// CHECK:           memref.store {{.*}}, %arg1
func.func @column_sum(%x: memref<4096x999xf32>, %y: memref<999xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<999xf32>)
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<4096x999xf32>) outs(%y : memref<999xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// The same sum over 1000 columns, which split into vectors of 4 f32: the
// columns mapping of multi-value reductions (map-to-gpu-multi-value.mlir)
// reads a 16-byte vector per thread and row, 4 sums per thread.
// REPORT: remark: @column_sum_vectors: 2 GPU kernels
// REPORT-NEXT: column_sum_vectors_kernel0_columns: reduction over columns (32 x 4 columns x 16 rows per block, vector 4, split over 32 blocks)
// REPORT-NEXT: column_sum_vectors_kernel0_combine: merge of 32 partial states per output (a warp each)
// CHECK-LABEL: func.func @column_sum_vectors
// CHECK:         gpu.launch {{.*}} function(@column_sum_vectors_kernel0_columns)
// CHECK:           vector.load {{.*}} : memref<4096000xf32, strided<[1]>>, vector<4xf32>
// CHECK:         gpu.launch {{.*}} function(@column_sum_vectors_kernel0_combine)
// CHECK:           memref.store {{.*}}, %arg1
func.func @column_sum_vectors(%x: memref<4096x1000xf32>, %y: memref<1000xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<1000xf32>)
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<4096x1000xf32>) outs(%y : memref<1000xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// A global average pool on [N, H, W, C] bytes (a squeeze-excite block's,
// f16, sums in f32): the outputs are [N, C], two parallel loops; a thread's
// 8 lanes are 8 channels of one sample (C = 32 splits into whole vectors),
// each read as one 16-byte vector per row (h, w) at the sample's offset plus
// the row times C. The division after it (over [N, 1, 1, C], the keep_dims
// shape: its unit dims leave the outputs' order as it is) runs in the merge
// kernel, for each output once its sum is final.
// REPORT: remark: @global_pool_nhwc: 2 GPU kernels
// REPORT-NEXT: global_pool_nhwc_kernel0_columns: reduction over columns (16 x 8 columns x 32 rows per block, vector 8, split over 12 blocks)
// REPORT-NEXT: global_pool_nhwc_kernel0_combine: merge of 12 partial states per output (a warp each), with the elementwise op after it
// CHECK-LABEL: func.func @global_pool_nhwc
// CHECK:         gpu.launch {{.*}} function(@global_pool_nhwc_kernel0_columns)
// CHECK:           vector.load {{.*}} : memref<{{[0-9]+}}xf16, strided<[1]>>, vector<8xf16>
// CHECK:         gpu.launch {{.*}} function(@global_pool_nhwc_kernel0_combine)
// CHECK:           arith.divf
// CHECK:           memref.store {{.*}}, %arg1
// CHECK-NOT:     gpu.launch
func.func @global_pool_nhwc(%x: memref<4x56x56x32xf16>, %y: memref<4x1x1x32xf16>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 3136.0 : f32
  %sum = memref.alloc() : memref<4x1x1x32xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<4x1x1x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>], iterator_types = ["parallel", "reduction", "reduction", "parallel"]}
      ins(%x : memref<4x56x56x32xf16>) outs(%sum : memref<4x1x1x32xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : memref<4x1x1x32xf32>) outs(%y : memref<4x1x1x32xf16>) {
  ^bb0(%s: f32, %o: f16):
    %d = arith.divf %s, %n : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// A reduction whose body is no `acc = combiner(acc, f(x))` (here the
// accumulator is used twice): one thread per output looping over the window
// serially, starting from what the buffer holds.
// REPORT: remark: @serial: 1 GPU kernel
// REPORT-NEXT: serial_kernel0: pointwise (serial reduction)
// CHECK-LABEL: func.func @serial
// CHECK:         gpu.launch
// CHECK:           %[[INIT:.*]] = memref.load %arg1
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[INIT]])
func.func @serial(%x: memref<8x9xf32>, %y: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x9xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %p = arith.mulf %acc, %acc : f32
    %r = arith.addf %a, %p : f32
    linalg.yield %r : f32
  }
  return
}

// A group norm with one group (PoolFormer's) on [N, H, W, C] bytes: the
// mean and the variance over each sample, the per-sample scale and shift as
// ops over [N, 1, 1, 1] (keep_dims values: the same rank as the rows, their
// other loops run once), and the normalisation: one kernel, the per-sample
// values kept in registers, none of them stored.
// REPORT: remark: @sample_norm: 1 GPU kernel
// REPORT-NEXT: sample_norm_kernel0: row reduction (block of 64 per row, vector 4, row held in registers, 4 ops fused)
// CHECK-LABEL: func.func @sample_norm
// CHECK:         gpu.launch
// CHECK:           math.sqrt
// CHECK-NOT:       memref.store {{.*}} : memref<4x1x1x1xf32>
// CHECK:           vector.store {{.*}}, %arg1
// CHECK-NOT:     gpu.launch
#rows4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#sample = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, 0)>
func.func @sample_norm(%x: memref<4x4x4x64xf32>, %y: memref<4x4x4x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 1024.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %one = arith.constant 1.0 : f32
  %sum = memref.alloc() : memref<4x1x1x1xf32>
  linalg.fill ins(%zero : f32) outs(%sum : memref<4x1x1x1xf32>)
  linalg.generic {indexing_maps = [#rows4, #sample], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<4x4x4x64xf32>) outs(%sum : memref<4x1x1x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  %sq = memref.alloc() : memref<4x1x1x1xf32>
  linalg.fill ins(%zero : f32) outs(%sq : memref<4x1x1x1xf32>)
  linalg.generic {indexing_maps = [#rows4, #sample, #sample], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %sum : memref<4x4x4x64xf32>, memref<4x1x1x1xf32>) outs(%sq : memref<4x1x1x1xf32>) {
  ^bb0(%a: f32, %s: f32, %acc: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %a, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %r = arith.addf %d2, %acc : f32
    linalg.yield %r : f32
  }
  %scale = memref.alloc() : memref<4x1x1x1xf32>
  linalg.generic {indexing_maps = [#rows4, #rows4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sq : memref<4x1x1x1xf32>) outs(%scale : memref<4x1x1x1xf32>) {
  ^bb0(%v: f32, %o: f32):
    %var = arith.divf %v, %n : f32
    %ve = arith.addf %var, %eps : f32
    %st = math.sqrt %ve : f32
    %r = arith.divf %one, %st : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#rows4, #sample, #sample, #rows4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %sum, %scale : memref<4x4x4x64xf32>, memref<4x1x1x1xf32>, memref<4x1x1x1xf32>) outs(%y : memref<4x4x4x64xf32>) {
  ^bb0(%a: f32, %s: f32, %k: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %d = arith.subf %a, %m : f32
    %r = arith.mulf %d, %k : f32
    linalg.yield %r : f32
  }
  return
}
