// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// NCHW -> NHWC: the input's innermost loop (w) is not the output's (c), so
// a 32x8 block stages a 32x33 tile in shared memory: it reads along w and
// writes along c. The grid covers n*h (8*100) times 4 tiles of w times 2
// of c: 6400 blocks.
// REPORT: remark: @nchw_to_nhwc: 1 GPU kernel
// REPORT-NEXT: nchw_to_nhwc_kernel0: transpose (32x32 shared-memory tiles)
// CHECK-LABEL: func.func @nchw_to_nhwc
// CHECK:         gpu.launch {{.*}} in ({{.*}} = %c6400, {{.*}} threads({{.*}}) in ({{.*}} = %c32, {{.*}} = %c8, {{.*}} function(@nchw_to_nhwc_kernel0) workgroup(%[[TILE:.*]] : memref<32x33xf16, #gpu.address_space<workgroup>>)
// CHECK-COUNT-4:   memref.store {{.*}}, %[[TILE]]
// CHECK:           gpu.barrier
// CHECK:           memref.load %[[TILE]]
// CHECK:           arith.addf
// CHECK:           memref.store {{.*}}, %arg2
func.func @nchw_to_nhwc(%x: memref<8x64x100x100xf16>, %bias: memref<64xf16>, %y: memref<8x100x100x64xf16>) {
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %bias : memref<8x64x100x100xf16>, memref<64xf16>) outs(%y : memref<8x100x100x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  }
  return
}

// NHWC -> NCHW, with sizes the tiles do not divide (bounds checks).
// (Written as linalg.generic: upstream's linalg.transpose parser crashes on
// some malformed permutations, which the robustness fuzzer would find.)
// REPORT: remark: @nhwc_to_nchw: 1 GPU kernel
// REPORT-NEXT: nhwc_to_nchw_kernel0: transpose (32x32 shared-memory tiles)
func.func @nhwc_to_nchw(%x: memref<2x7x9x3xf32>, %y: memref<2x3x7x9xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<2x7x9x3xf32>) outs(%y : memref<2x3x7x9xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// A permutation that keeps the innermost dimension is no transpose for
// memory: plain elementwise code with vector accesses.
// REPORT: remark: @swap_outer: 1 GPU kernel
// REPORT-NEXT: swap_outer_kernel0: elementwise (vector 4)
func.func @swap_outer(%x: memref<4x8x16xf32>, %y: memref<8x4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<4x8x16xf32>) outs(%y : memref<8x4x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}
