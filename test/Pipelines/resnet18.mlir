// ResNet-18 (examples/resnet18.mlir, written by examples/gen_resnet18_tcp.py)
// through the whole TCP -> cuDNN pipeline: every conv and the classifier's
// matmul end up in a cuDNN graph (20 convs + 1 matmul = 21 graphs), bias
// broadcasts are absorbed, and only the max pool stays TCP.
//
// RUN: %python %src_root/examples/gen_resnet18_tcp.py | diff - %src_root/examples/resnet18.mlir
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline | FileCheck %s
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline=report 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @resnet18
// CHECK-COUNT-21: cudnn.build_and_exec_graph
// CHECK-NOT:     cudnn.build_and_exec_graph
// CHECK-NOT:     tcp.conv2d
// CHECK-NOT:     tcp.matmul
// CHECK-NOT:     tcp.broadcast
// CHECK:         return

// REPORT:       remark: left out of cuDNN graphs: not an op cuDNN graphs run
// REPORT-NEXT:  tcp.max_pool2d
// REPORT-NOT:   remark
