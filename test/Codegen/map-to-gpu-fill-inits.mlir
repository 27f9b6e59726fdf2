// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// Fills far from the reductions they initialise, as bufferization leaves
// them when CSE merged identical fills and cloned them back per user (each
// clone where the shared fill was): every fill is folded into its
// reduction's kernel as the starting value, including those of the
// reductions after the first kernel, which then must not read the buffer's
// (never written) old contents. One fill moves to its reduction, so
// nothing stands between the reductions of the first row group (both join
// it).

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#col = affine_map<(d0, d1) -> (d1)>

// Two column sums (a generated matmul's shape), both fills at the top.
// REPORT: remark: @column_sums: 2 GPU kernels
// CHECK-LABEL: func.func @column_sums
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch {{.*}} function(@column_sums_kernel0_columns)
// CHECK-NOT:       memref.load %arg2
// CHECK:           memref.store {{.*}}, %arg2
// CHECK:         gpu.launch {{.*}} function(@column_sums_kernel1_columns)
// CHECK-NOT:       memref.load %arg3
// CHECK:           memref.store {{.*}}, %arg3
func.func @column_sums(%x: memref<64x256xf32>, %y: memref<64x256xf32>,
                       %sx: memref<256xf32>, %sy: memref<256xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%sy : memref<256xf32>)
  linalg.fill ins(%zero : f32) outs(%sx : memref<256xf32>)
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x256xf32>) outs(%sx : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%y : memref<64x256xf32>) outs(%sy : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// Two row groups over different rows (two layer norms' row sums and sums
// of squares, reduced to their reductions): the second group's fills sit
// before and between the first group's reductions.
// REPORT: remark: @row_groups: 2 GPU kernels
// REPORT-NEXT: row_groups_kernel0: row reduction ({{.*}}2 ops fused)
// REPORT-NEXT: row_groups_kernel1: row reduction ({{.*}}2 ops fused)
// CHECK-LABEL: func.func @row_groups
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch {{.*}} function(@row_groups_kernel0)
// CHECK-NOT:       memref.load %arg2
// CHECK-NOT:       memref.load %arg3
// CHECK:         gpu.launch {{.*}} function(@row_groups_kernel1)
// CHECK-NOT:       memref.load %arg4
// CHECK-NOT:       memref.load %arg5
// CHECK:         return
func.func @row_groups(%x: memref<32x64xf32>, %y: memref<16x64xf32>,
                      %sx: memref<32x1xf32>, %qx: memref<32x1xf32>,
                      %sy: memref<16x1xf32>, %qy: memref<16x1xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%sy : memref<16x1xf32>)
  linalg.fill ins(%zero : f32) outs(%sx : memref<32x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<32x64xf32>) outs(%sx : memref<32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%qy : memref<16x1xf32>)
  linalg.fill ins(%zero : f32) outs(%qx : memref<32x1xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<32x64xf32>) outs(%qx : memref<32x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<16x64xf32>) outs(%sy : memref<16x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<16x64xf32>) outs(%qy : memref<16x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.mulf %a, %a : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// Two batch-norm statistics (Welford states); the second's count and M2
// fills at the top, its mean's just before it.
// REPORT: remark: @welfords: 2 GPU kernels
// CHECK-LABEL: func.func @welfords
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch {{.*}} function(@welfords_kernel0_planes)
// CHECK:         gpu.launch {{.*}} function(@welfords_kernel1_planes)
// CHECK-NOT:       memref.load %arg5
// CHECK-NOT:       memref.load %arg6
// CHECK-NOT:       memref.load %arg7
// CHECK:         return
func.func @welfords(%x: memref<4x128x8x8xf32>, %cx: memref<128xi64>,
                    %mx: memref<128xf32>, %sx: memref<128xf32>,
                    %y: memref<4x128x8x8xf32>, %cy: memref<128xi64>,
                    %my: memref<128xf32>, %sy: memref<128xf32>) {
  %z = arith.constant 0 : i64
  %zf = arith.constant 0.0 : f32
  linalg.fill ins(%z : i64) outs(%cy : memref<128xi64>)
  linalg.fill ins(%zf : f32) outs(%sy : memref<128xf32>)
  linalg.fill ins(%z : i64) outs(%cx : memref<128xi64>)
  linalg.fill ins(%zf : f32) outs(%mx : memref<128xf32>)
  linalg.fill ins(%zf : f32) outs(%sx : memref<128xf32>)
  linalg.generic {indexing_maps = [affine_map<(c, n, h, w) -> (n, c, h, w)>, affine_map<(c, n, h, w) -> (c)>, affine_map<(c, n, h, w) -> (c)>, affine_map<(c, n, h, w) -> (c)>], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%x : memref<4x128x8x8xf32>) outs(%cx, %mx, %sx : memref<128xi64>, memref<128xf32>, memref<128xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%in: f32, %n: i64, %mu: f32, %s: f32):
    %one = arith.constant 1 : i64
    %onef = arith.constant 1.0 : f32
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %r = arith.divf %onef, %nf : f32
    %d = arith.subf %in, %mu : f32
    %q = arith.mulf %d, %r : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %in, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  linalg.fill ins(%zf : f32) outs(%my : memref<128xf32>)
  linalg.generic {indexing_maps = [affine_map<(c, n, h, w) -> (n, c, h, w)>, affine_map<(c, n, h, w) -> (c)>, affine_map<(c, n, h, w) -> (c)>, affine_map<(c, n, h, w) -> (c)>], iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%y : memref<4x128x8x8xf32>) outs(%cy, %my, %sy : memref<128xi64>, memref<128xf32>, memref<128xf32>)
      attrs = {codegen.combiner = "welford"} {
  ^bb0(%in: f32, %n: i64, %mu: f32, %s: f32):
    %one = arith.constant 1 : i64
    %onef = arith.constant 1.0 : f32
    %n1 = arith.addi %n, %one : i64
    %nf = arith.sitofp %n1 : i64 to f32
    %r = arith.divf %onef, %nf : f32
    %d = arith.subf %in, %mu : f32
    %q = arith.mulf %d, %r : f32
    %mu1 = arith.addf %mu, %q : f32
    %d2 = arith.subf %in, %mu1 : f32
    %p = arith.mulf %d, %d2 : f32
    %s1 = arith.addf %s, %p : f32
    linalg.yield %n1, %mu1, %s1 : i64, f32, f32
  }
  return
}
