// RUN: cudnn-opt %src_root/examples/resnet-basic-block.mlir | cudnn-opt | FileCheck %s
//
// The demo's example stays valid TCP.

// CHECK-LABEL: func.func @basic_block
// CHECK-COUNT-2: tcp.conv2d
// CHECK:         return
