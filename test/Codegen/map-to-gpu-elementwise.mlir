// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s
// RUN: cudnn-opt %s --codegen-map-to-gpu=report-kernels --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// An elementwise op over contiguous buffers: one thread per 16 bytes of
// output (4 x f32), vector loads and stores when the buffers are 16-byte
// aligned at run time, scalar code for the same elements otherwise. The
// broadcast row vector (indexed by the innermost loop) is read as a vector
// too; the launch covers 256x1024/4 threads in blocks of 256.

// REPORT: remark: @bias_tanh: 1 GPU kernel
// REPORT-NEXT: bias_tanh_kernel0: elementwise (vector 4)
// CHECK-LABEL: func.func @bias_tanh
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C256]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]], {{.*}}) function(@bias_tanh_kernel0)
// CHECK:           %[[THREAD:.*]] = arith.addi
// CHECK:           %[[IN_RANGE:.*]] = arith.cmpi ult, %[[THREAD]], %c65536
// CHECK:           scf.if %[[IN_RANGE]]
// CHECK:             memref.extract_aligned_pointer_as_index %arg0
// CHECK:             memref.extract_aligned_pointer_as_index %arg1
// CHECK:             memref.extract_aligned_pointer_as_index %arg2
// CHECK:             scf.if %{{.*}} {
// CHECK:               vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<256x1024xf32>, vector<4xf32>
// CHECK:               vector.load %arg1[{{.*}}] {alignment = 16 : i64} : memref<1024xf32>, vector<4xf32>
// CHECK-COUNT-4:       math.tanh
// CHECK:               vector.store {{.*}}, %arg2[{{.*}}] {alignment = 16 : i64} : memref<256x1024xf32>, vector<4xf32>
// CHECK:             } else {
// CHECK:               scf.for
// CHECK:                 memref.load %arg0
// CHECK:                 math.tanh
// CHECK:                 memref.store
// CHECK-NOT:   linalg.generic
func.func @bias_tanh(%x: memref<256x1024xf32>, %b: memref<1024xf32>, %y: memref<256x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<256x1024xf32>, memref<1024xf32>) outs(%y : memref<256x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  }
  return
}

// Buffers that are views of aligned allocations (device allocations are
// 256-byte aligned) need no run-time check: the slice of an allocation
// written here (a concat's piece) and the allocation read have only vector
// code. The argument %x is still checked.
// REPORT: remark: @aligned_by_construction: 1 GPU kernel
// CHECK-LABEL: func.func @aligned_by_construction
// CHECK:         %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x64xf16>
// CHECK:         %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x96xf16>
// CHECK:         %[[PIECE:.*]] = memref.subview %[[OUT]][0, 32] [8, 64] [1, 1]
// CHECK:         gpu.launch
// CHECK-NOT:       memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NOT:       memref.extract_aligned_pointer_as_index %[[PIECE]]
// CHECK:           vector.load %[[A]]
// CHECK:           vector.store {{.*}}, %[[PIECE]]
// CHECK-NOT:       scf.for
// CHECK:         gpu.terminator
// CHECK-LABEL: func.func @aligned_by_construction_argument
// CHECK:         gpu.launch
// CHECK:           memref.extract_aligned_pointer_as_index %arg0
// CHECK:           } else {
// CHECK:             scf.for
func.func @aligned_by_construction(%x: memref<8x64xf16>) -> memref<8x96xf16> {
  %a = memref.alloc() {alignment = 64 : i64} : memref<8x64xf16>
  %out = memref.alloc() {alignment = 64 : i64} : memref<8x96xf16>
  %piece = memref.subview %out[0, 32] [8, 64] [1, 1] : memref<8x96xf16> to memref<8x64xf16, strided<[96, 1], offset: 32>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<8x64xf16>) outs(%piece : memref<8x64xf16, strided<[96, 1], offset: 32>>) {
  ^bb0(%v: f16, %o: f16):
    %m = arith.addf %v, %v : f16
    linalg.yield %m : f16
  }
  return %out : memref<8x96xf16>
}

func.func @aligned_by_construction_argument(%x: memref<8x64xf16>) -> memref<8x64xf16> {
  %out = memref.alloc() {alignment = 64 : i64} : memref<8x64xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x64xf16>) outs(%out : memref<8x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %m = arith.addf %v, %v : f16
    linalg.yield %m : f16
  }
  return %out : memref<8x64xf16>
}

// f16 in, f16 out: 8 elements per thread. A column vector (not indexed by
// the innermost loop) is one scalar load shared by the 8 lanes.
// REPORT: remark: @scale_rows_f16: 1 GPU kernel
// REPORT-NEXT: scale_rows_f16_kernel0: elementwise (vector 8)
// CHECK-LABEL: func.func @scale_rows_f16
// CHECK:         vector.load %arg0[{{.*}}] {alignment = 16 : i64} : memref<64x512xf16>, vector<8xf16>
// CHECK:         memref.load %arg1[{{.*}}] : memref<64x1xf16>
// CHECK-COUNT-8: arith.mulf
// CHECK:         vector.store {{.*}} : memref<64x512xf16>, vector<8xf16>
func.func @scale_rows_f16(%x: memref<64x512xf16>, %s: memref<64x1xf16>, %y: memref<64x512xf16>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x512xf16>, memref<64x1xf16>) outs(%y : memref<64x512xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %m = arith.mulf %a, %c : f16
    linalg.yield %m : f16
  }
  return
}

// An innermost size that 4 does not divide: scalar code, one element per
// thread, ceil(37*1001/256) blocks with a bounds check.
// REPORT: remark: @odd_shape: 1 GPU kernel
// REPORT-NEXT: odd_shape_kernel0: elementwise{{$}}
// CHECK-LABEL: func.func @odd_shape
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c145,
// CHECK-NOT:     vector.load
// CHECK:         arith.cmpi ult, %{{.*}}, %c37037
// CHECK:         arith.negf
func.func @odd_shape(%x: memref<37x1001xf32>, %y: memref<37x1001xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<37x1001xf32>) outs(%y : memref<37x1001xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  return
}

// linalg.fill (a named op) is generalized and becomes an elementwise kernel
// with no inputs. On a channels-last buffer the threads walk memory order
// (the channel fastest) and store 4 channels at a time through a transposed
// view whose last dimension is the channel.
// REPORT: remark: @fill_strided: 1 GPU kernel
// REPORT-NEXT: fill_strided_kernel0: elementwise (vector 4)
// CHECK-LABEL: func.func @fill_strided
// CHECK:         gpu.launch
// CHECK:           %[[VIEW:.*]] = memref.transpose %arg0 (d0, d1, d2, d3) -> (d0, d2, d3, d1) : memref<2x8x4x4xf32, strided<[128, 1, 32, 8]>> to memref<2x4x4x8xf32, strided<[128, 32, 8, 1]>>
// CHECK:           vector.store %{{.*}}, %[[VIEW]][{{.*}}] {alignment = 16 : i64} : memref<2x4x4x8xf32, strided<[128, 32, 8, 1]>>, vector<4xf32>
// CHECK:         } else {
// CHECK:           memref.store %{{.*}}, %arg0[{{.*}}] : memref<2x8x4x4xf32, strided<[128, 1, 32, 8]>>
func.func @fill_strided(%y: memref<2x8x4x4xf32, strided<[128, 1, 32, 8]>>) {
  %c = arith.constant 1.5 : f32
  linalg.fill ins(%c : f32) outs(%y : memref<2x8x4x4xf32, strided<[128, 1, 32, 8]>>)
  return
}

// NCHW planes of 7x7 (batch norm's normalisation at ResNet's last stage):
// neither w's 7 points nor h x w's 49 split into vectors of 4, but
// c x h x w's 4 x 49 = 196 do, so a vector runs across the innermost 3
// loops through a view that collapses them in x and y: 2 x 196 / 4 = 98
// threads. The per-channel scale moves with c inside a vector, so each lane
// reads its own (its point delinearized on its own); the scalar bias is one
// value for all lanes.
// REPORT: remark: @planes_7x7: 1 GPU kernel
// REPORT-NEXT: planes_7x7_kernel0: elementwise (vector 4 across the innermost 3 loops)
// CHECK-LABEL: func.func @planes_7x7
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %c1, {{.*}} threads({{.*}}) in ({{.*}} = %c128,
// CHECK:           scf.if
// CHECK:             %[[X:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<2x4x7x7xf32> into memref<2x196xf32>
// CHECK:             vector.load %[[X]][{{.*}}] {alignment = 16 : i64} : memref<2x196xf32>, vector<4xf32>
// CHECK-COUNT-4:     memref.load %arg1[{{.*}}] : memref<4xf32>
// CHECK:             %[[Y:.*]] = memref.collapse_shape %arg3 {{\[}}[0], [1, 2, 3]] : memref<2x4x7x7xf32> into memref<2x196xf32>
// CHECK:             vector.store %{{.*}}, %[[Y]][{{.*}}] {alignment = 16 : i64} : memref<2x196xf32>, vector<4xf32>
// CHECK:           } else {
func.func @planes_7x7(%x: memref<2x4x7x7xf32>, %scale: memref<4xf32>, %bias: f32, %y: memref<2x4x7x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> ()>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %scale, %bias : memref<2x4x7x7xf32>, memref<4xf32>, f32) outs(%y : memref<2x4x7x7xf32>) {
  ^bb0(%a: f32, %s: f32, %t: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    %r = arith.addf %m, %t : f32
    linalg.yield %r : f32
  }
  return
}
