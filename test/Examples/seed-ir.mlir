// RUN: cudnn-opt %s | cudnn-opt | FileCheck %s
// RUN: cudnn-opt %s --mlir-print-op-generic | cudnn-opt | FileCheck %s
//
// The seed IR (shared/examples/seed-ir.mlir) must keep parsing, verifying and
// printing back to itself.

// The IR examples of seed 004_9fadccb0242e4eb9.txt (ops from resnet18), as one file per
// stage. The only change from the seed: spatial_dim_count is 2 (the seed wrote 4, which
// is wrong for a 2-D convolution). Types are completed where the seed elided the
// producers of %38/%39/%15.

// ---- Stage 1: TCP, as produced from torch.aten.relu + torch.aten.convolution
func.func @stage1_tcp(%138: tensor<1x64x56x56xf32>, %110: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %139 = tcp.clamp %138 {min_float = 0.000000e+00 : f32}
          : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
  %140 = tcp.conv2d %139, %110
          {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
          : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %140 : tensor<1x64x56x56xf32>
}

// ---- Stage 2: after fusion grouping + isolation
func.func @stage2_group(%39: tensor<1x64x56x56xf32>, %15: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %40 = tcp.isolated_group %39, %15 {
  ^bb0(%arg1: tensor<1x64x56x56xf32>, %arg2: tensor<64x64x3x3xf32>):
      %171 = tcp.clamp %arg1 {min_float = 0.000000e+00 : f32}
              : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
      %172 = tcp.conv2d %171, %arg2
              {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
              : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
      tcp.yield %172 : tensor<1x64x56x56xf32>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %40 : tensor<1x64x56x56xf32>
}

// ---- Stage 3: the group lowered to the cudnn dialect
func.func @stage3_cudnn(%39: tensor<1x64x56x56xf32>, %15: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %40 = cudnn.get_current_handle !cudnn.handle
  %41 = cudnn.build_and_exec_graph %40 %39, %15 {
  ^bb0(%arg1: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>,
       %arg2: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []>):
      %179 = cudnn.pointwise_relu(%arg1) type = f32 lower_clip = 0.000000e+00
              : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
              -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
      %180 = cudnn.convolution(%179, %arg2)
              type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2
              spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1]
              dilation = [1, 1]
              : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>,
                !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []>
              -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
      cudnn.build_graph(%180) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
  } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
  return %41 : tensor<1x64x56x56xf32>
}

// CHECK-LABEL: func.func @stage1_tcp
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64x56x56xf32>, %[[W:.*]]: tensor<64x64x3x3xf32>)
// CHECK:         %[[R:.*]] = tcp.clamp %[[X]] {min_float = 0.000000e+00 : f32} : tensor<1x64x56x56xf32> -> tensor<1x64x56x56xf32>
// CHECK:         %[[C:.*]] = tcp.conv2d %[[R]], %[[W]] {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
// CHECK:         return %[[C]]

// CHECK-LABEL: func.func @stage2_group
// CHECK:         %[[G:.*]] = tcp.isolated_group %{{.*}}, %{{.*}} {
// CHECK:         ^bb0(%[[A1:.*]]: tensor<1x64x56x56xf32>, %[[A2:.*]]: tensor<64x64x3x3xf32>):
// CHECK:           %[[R:.*]] = tcp.clamp %[[A1]]
// CHECK:           %[[C:.*]] = tcp.conv2d %[[R]], %[[A2]]
// CHECK:           tcp.yield %[[C]] : tensor<1x64x56x56xf32>
// CHECK:         } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
// CHECK:         return %[[G]]

// CHECK-LABEL: func.func @stage3_cudnn
// CHECK:         %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// CHECK:         %[[G:.*]] = cudnn.build_and_exec_graph %[[H]] %{{.*}}, %{{.*}} {
// CHECK:         ^bb0(%[[A1:.*]]: !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>, %[[A2:.*]]: !cudnn.tensor_desc<64x64x3x3xf32, alignment = 1, stride = []>):
// CHECK:           %[[R:.*]] = cudnn.pointwise_relu(%[[A1]]) type = f32 lower_clip = 0.000000e+00 : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []> -> !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
// CHECK:           %[[C:.*]] = cudnn.convolution(%[[R]], %[[A2]]) type = f32 alpha = 1.000000e+00 beta = 0.000000e+00 spatial_dim_count = 2 spatial_stride = [1, 1] pre_padding = [1, 1] post_padding = [1, 1] dilation = [1, 1]
// CHECK:           cudnn.build_graph(%[[C]]) : !cudnn.tensor_desc<1x64x56x56xf32, alignment = 1, stride = []>
// CHECK:         } : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<1x64x56x56xf32>
// CHECK:         return %[[G]]
