// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn | FileCheck %s
// RUN: cudnn-opt %s -split-input-file -tcp-fuse-for-cudnn=report 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// REPORT: remark: left out of cuDNN graphs, 2 ops (the first here): the conv it would join has 3 input channels per group (at most 4)

// A stem conv with 3 input channels and a large output runs alone, so its
// bias and ReLU would be a generated kernel over its whole output, which the
// max pool reads again. The pool commutes with a per-channel bias and a
// clamp: it moves to the conv, and the bias and ReLU run on the pooled
// tensor, still a generated kernel: not the next conv's prologue, which
// cuDNN's prologue engines run slowly (docs/fusion.md). The bias may come
// first.
// CHECK-LABEL: func.func @stem
// CHECK:         %[[CONV:.*]] = tcp.group attributes {group_type = "cudnn"}
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.yield
// CHECK:         %[[POOL:.*]] = tcp.group attributes {group_type = "cudnn"}
// CHECK-NEXT:      tcp.max_pool2d %[[CONV]] {{.*}} -> tensor<8x64x27x27xf16>
// CHECK:         tcp.broadcast {{.*}} -> tensor<8x64x27x27xf16>
// CHECK-NEXT:    %[[ADD:.*]] = tcp.add %{{.*}}, %[[POOL]] : tensor<8x64x27x27xf16>
// CHECK-NEXT:    %[[RELU:.*]] = tcp.clamp %[[ADD]] {min_float = 0.000000e+00 : f32} : tensor<8x64x27x27xf16>
// CHECK-NEXT:    tcp.group attributes {group_type = "cudnn"}
// CHECK-NEXT:      tcp.conv2d %[[RELU]]
// CHECK-NOT:     tcp.max_pool2d
func.func @stem(%x: tensor<8x3x224x224xf16>, %w: tensor<64x3x11x11xf16>, %b: tensor<1x64x1x1xf16>, %w2: tensor<32x64x3x3xf16>) -> tensor<8x32x27x27xf16> {
  %c8 = arith.constant 8 : index
  %c55 = arith.constant 55 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 4, 4>} : tensor<8x3x224x224xf16>, tensor<64x3x11x11xf16> -> tensor<8x64x55x55xf16>
  %1 = tcp.broadcast %b, %c8, %c55, %c55 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x55x55xf16>
  %2 = tcp.add %1, %0 : tensor<8x64x55x55xf16>, tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %4 = tcp.max_pool2d %3 {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<8x64x55x55xf16> -> tensor<8x64x27x27xf16>
  %5 = tcp.conv2d %4, %w2 {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<8x64x27x27xf16>, tensor<32x64x3x3xf16> -> tensor<8x32x27x27xf16>
  return %5 : tensor<8x32x27x27xf16>
}

// -----

// A conv that fuses its epilogue (16 input channels) keeps the pool after
// its graph: the bias and ReLU cost nothing there.
// CHECK-LABEL: func.func @fused_conv_keeps_its_pool
// CHECK:         %[[G:.*]] = tcp.group attributes {group_type = "cudnn"}
// CHECK-NEXT:      tcp.broadcast
// CHECK-NEXT:      tcp.conv2d
// CHECK-NEXT:      tcp.add
// CHECK-NEXT:      tcp.clamp
// CHECK:         tcp.max_pool2d %[[G]] {{.*}} : tensor<8x64x55x55xf16> -> tensor<8x64x27x27xf16>
func.func @fused_conv_keeps_its_pool(%x: tensor<8x16x224x224xf16>, %w: tensor<64x16x11x11xf16>, %b: tensor<1x64x1x1xf16>) -> tensor<8x64x27x27xf16> {
  %c8 = arith.constant 8 : index
  %c55 = arith.constant 55 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 4, 4>} : tensor<8x16x224x224xf16>, tensor<64x16x11x11xf16> -> tensor<8x64x55x55xf16>
  %1 = tcp.broadcast %b, %c8, %c55, %c55 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x55x55xf16>
  %2 = tcp.add %0, %1 : tensor<8x64x55x55xf16>, tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %4 = tcp.max_pool2d %3 {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<8x64x55x55xf16> -> tensor<8x64x27x27xf16>
  return %4 : tensor<8x64x27x27xf16>
}

// -----

// A per-channel scale may be negative (a folded batch norm's), and max does
// not commute with it: the pool stays after the epilogue.
// CHECK-LABEL: func.func @scale_keeps_the_pool_after
// CHECK:         tcp.mul {{.*}} : tensor<8x64x55x55xf16>
// CHECK:         tcp.max_pool2d {{.*}} : tensor<8x64x55x55xf16> -> tensor<8x64x27x27xf16>
func.func @scale_keeps_the_pool_after(%x: tensor<8x3x224x224xf16>, %w: tensor<64x3x11x11xf16>, %s: tensor<1x64x1x1xf16>) -> tensor<8x64x27x27xf16> {
  %c8 = arith.constant 8 : index
  %c55 = arith.constant 55 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 4, 4>} : tensor<8x3x224x224xf16>, tensor<64x3x11x11xf16> -> tensor<8x64x55x55xf16>
  %1 = tcp.broadcast %s, %c8, %c55, %c55 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x55x55xf16>
  %2 = tcp.mul %0, %1 : tensor<8x64x55x55xf16>, tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %4 = tcp.max_pool2d %3 {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<8x64x55x55xf16> -> tensor<8x64x27x27xf16>
  return %4 : tensor<8x64x27x27xf16>
}

// -----

// The ReLU's result is also returned: it is computed over the whole output
// anyway, so the pool reads it as before.
// CHECK-LABEL: func.func @relu_with_another_user
// CHECK:         %[[R:.*]] = tcp.clamp {{.*}} : tensor<8x64x55x55xf16>
// CHECK:         tcp.max_pool2d %[[R]]
func.func @relu_with_another_user(%x: tensor<8x3x224x224xf16>, %w: tensor<64x3x11x11xf16>, %b: tensor<1x64x1x1xf16>) -> (tensor<8x64x27x27xf16>, tensor<8x64x55x55xf16>) {
  %c8 = arith.constant 8 : index
  %c55 = arith.constant 55 : index
  %0 = tcp.conv2d %x, %w {dilation = array<i64: 1, 1>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 4, 4>} : tensor<8x3x224x224xf16>, tensor<64x3x11x11xf16> -> tensor<8x64x55x55xf16>
  %1 = tcp.broadcast %b, %c8, %c55, %c55 {axes = [0, 2, 3]} : tensor<1x64x1x1xf16>, index, index, index -> tensor<8x64x55x55xf16>
  %2 = tcp.add %1, %0 : tensor<8x64x55x55xf16>, tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %3 = tcp.clamp %2 {min_float = 0.0 : f32} : tensor<8x64x55x55xf16> -> tensor<8x64x55x55xf16>
  %4 = tcp.max_pool2d %3 {kernel_size = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : tensor<8x64x55x55xf16> -> tensor<8x64x27x27xf16>
  return %4, %3 : tensor<8x64x27x27xf16>, tensor<8x64x55x55xf16>
}
