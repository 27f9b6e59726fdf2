// RUN: cudnn-opt %src_root/examples/resnet-basic-block.mlir | cudnn-opt | FileCheck %s --check-prefix=TCP
// RUN: cudnn-opt %src_root/examples/resnet-basic-block.mlir --tcp-to-cudnn-pipeline=split-fallback=false | FileCheck %s
//
// The demo's example stays valid TCP, and the demo's pipeline turns the basic
// block into two cuDNN graphs: conv+bias+ReLU, and conv+bias+residual+ReLU.

// TCP-LABEL: func.func @basic_block
// TCP-COUNT-2: tcp.conv2d

// CHECK-LABEL: func.func @basic_block
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x64x56x56xf16>, %[[W1:[^:]*]]: tensor<64x64x3x3xf16>, %[[B1:[^:]*]]: tensor<1x64x1x1xf16>, %[[W2:[^:]*]]: tensor<64x64x3x3xf16>, %[[B2:[^:]*]]: tensor<1x64x1x1xf16>)
// CHECK:         %[[H:.*]] = cudnn.get_current_handle !cudnn.handle
// Function arguments are contiguous NCHW: converted once each (x is shared
// by both graphs); biases are the same bytes in both layouts.
// CHECK:         %[[XC:.*]] = cudnn.convert_layout %[[X]] : tensor<8x64x56x56xf16> -> tensor<8x64x56x56xf16, #cudnn.channels_last>
// CHECK:         %[[W1C:.*]] = cudnn.convert_layout %[[W1]]
// CHECK:         %[[G1:.*]] = cudnn.build_and_exec_graph %[[H]] %[[B1]], %[[XC]], %[[W1C]] {
// CHECK:           cudnn.convolution
// CHECK-NEXT:      cudnn.pointwise_add
// CHECK-NEXT:      cudnn.pointwise_relu
// CHECK-NEXT:      cudnn.build_graph
// CHECK:         } : {{.*}} -> tensor<8x64x56x56xf16, #cudnn.channels_last>
// CHECK:         %[[W2C:.*]] = cudnn.convert_layout %[[W2]]
// No conversion between the two graphs.
// CHECK-NOT:     cudnn.convert_layout %[[G1]]
// CHECK:         %[[G2:.*]] = cudnn.build_and_exec_graph %[[H]] %[[B2]], %[[G1]], %[[W2C]], %[[XC]] {
// CHECK:           cudnn.convolution
// CHECK-NEXT:      cudnn.pointwise_add
// CHECK-NEXT:      cudnn.pointwise_add
// CHECK-NEXT:      cudnn.pointwise_relu
// CHECK-NEXT:      cudnn.build_graph
// CHECK:         %[[R:.*]] = cudnn.convert_layout %[[G2]] : tensor<8x64x56x56xf16, #cudnn.channels_last> -> tensor<8x64x56x56xf16>
// CHECK:         return %[[R]]
// CHECK-NOT:     tcp.
