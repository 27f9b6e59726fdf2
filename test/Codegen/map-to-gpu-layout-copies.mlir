// RUN: cudnn-opt %s --codegen-map-to-gpu --cse | FileCheck %s

// Channels-last buffers at the boundary, copied by bufferization to and
// from packed temporaries around an elementwise op: the op reads the input
// and writes the output directly (no copy, no temporary), and its threads
// walk the output in memory order, the channel (stride 1) fastest: 4
// channels per thread through transposed views whose last dimension is the
// channel, scalar code (still in memory order) if a buffer is misaligned.
// CHECK-LABEL: func.func @nhwc_boundary
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         gpu.launch
// CHECK:           %[[IN:.*]] = memref.transpose %arg0 (d0, d1, d2, d3) -> (d0, d2, d3, d1)
// CHECK:           vector.load %[[IN]][{{.*}}] {alignment = 16 : i64} : memref<2x3x5x16xf32, strided<[240, 80, 16, 1]>>, vector<4xf32>
// CHECK-COUNT-4:   math.tanh
// CHECK:           %[[OUT:.*]] = memref.transpose %arg1 (d0, d1, d2, d3) -> (d0, d2, d3, d1)
// CHECK:           vector.store %{{.*}}, %[[OUT]][{{.*}}] {alignment = 16 : i64}
// CHECK:         } else {
// CHECK:           %[[T32:.*]] = arith.index_castui %{{.*}} : index to i32
// CHECK:           %[[C:.*]] = arith.remui %[[T32]], %c16_i32 : i32
// CHECK:           memref.load %arg0[{{.*}}] : memref<2x16x3x5xf32, strided<[240, 1, 80, 16]>>
// CHECK:           math.tanh
// CHECK:           memref.store %{{.*}}, %arg1[{{.*}}] : memref<2x16x3x5xf32, strided<[240, 1, 80, 16]>>
// CHECK-NOT:     memref.copy
func.func @nhwc_boundary(%x: memref<2x16x3x5xf32, strided<[240, 1, 80, 16]>>,
                         %y: memref<2x16x3x5xf32, strided<[240, 1, 80, 16]>> {bufferize.result}) {
  %in = memref.alloc() : memref<2x16x3x5xf32>
  memref.copy %x, %in : memref<2x16x3x5xf32, strided<[240, 1, 80, 16]>> to memref<2x16x3x5xf32>
  %out = memref.alloc() : memref<2x16x3x5xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<2x16x3x5xf32>) outs(%out : memref<2x16x3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  }
  memref.copy %out, %y : memref<2x16x3x5xf32> to memref<2x16x3x5xf32, strided<[240, 1, 80, 16]>>
  return
}

// A copy into a temporary that is also written is kept.
// CHECK-LABEL: func.func @temporary_written
// CHECK:         memref.copy %arg0
func.func @temporary_written(%x: memref<4xf32, strided<[2]>>, %y: memref<4xf32> {bufferize.result}) {
  %in = memref.alloc() : memref<4xf32>
  memref.copy %x, %in : memref<4xf32, strided<[2]>> to memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%in : memref<4xf32>) {
  ^bb0(%o: f32):
    %n = arith.negf %o : f32
    linalg.yield %n : f32
  }
  memref.copy %in, %y : memref<4xf32> to memref<4xf32>
  return
}

// A split form's kernel on channels-last bytes (its result viewed back to
// channels-last by a reinterpret_cast) copied into the fused graph's result
// buffer: the kernel writes that buffer, seen in storage order, directly.
// CHECK-LABEL: func.func @split_form_through_view
// CHECK:         %[[DEST:.*]] = memref.alloc() : memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>>
// CHECK:         scf.if
// CHECK:         } else {
// CHECK-NOT:       memref.alloc
// CHECK:           %[[W:.*]] = memref.reinterpret_cast %[[DEST]] to offset: [0], sizes: [2, 4, 6, 16], strides: [384, 96, 16, 1]
// CHECK:           gpu.launch
// CHECK:             vector.store %{{.*}}, %[[W]]
// CHECK-NOT:       memref.copy
// CHECK:         }
func.func @split_form_through_view(%x: memref<2x4x6x16xf32>, %ran: i1) -> memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>> {
  %dest = memref.alloc() : memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>>
  scf.if %ran {
  } else {
    %t = memref.alloc() : memref<2x4x6x16xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                    iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%x : memref<2x4x6x16xf32>) outs(%t : memref<2x4x6x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = math.tanh %a : f32
      linalg.yield %n : f32
    }
    %v = memref.reinterpret_cast %t to offset: [0], sizes: [2, 16, 4, 6], strides: [384, 1, 96, 16] : memref<2x4x6x16xf32> to memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>>
    memref.copy %v, %dest : memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>> to memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>>
  }
  return %dest : memref<2x16x4x6xf32, strided<[384, 1, 96, 16]>>
}

// The buffer is read between the kernel and the copy: the copy stays.
// CHECK-LABEL: func.func @target_read_between
// CHECK:         memref.copy %arg1, %arg2
// CHECK:         memref.copy %alloc, %arg1
func.func @target_read_between(%x: memref<4xf32>, %y: memref<4xf32> {bufferize.result}, %z: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  }
  memref.copy %y, %z : memref<4xf32> to memref<4xf32>
  memref.copy %t, %y : memref<4xf32> to memref<4xf32>
  return
}
