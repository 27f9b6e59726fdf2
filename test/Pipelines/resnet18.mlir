// ResNet-18 (examples/resnet18.mlir, written by examples/gen_resnet18_tcp.py)
// through the whole TCP -> cuDNN pipeline: every conv and the classifier's
// matmul end up in a cuDNN graph (20 convs + 1 matmul = 21 graphs), the max
// pool and the global average pool (the spatial reduce_mean) are resample
// graphs of their own (23 in all), bias broadcasts are absorbed, and no TCP
// op is left.
//
// RUN: %python %src_root/examples/gen_resnet18_tcp.py | diff - %src_root/examples/resnet18.mlir
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline | FileCheck %s
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline=report 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT --allow-empty

// CHECK-LABEL: func.func @resnet18
// CHECK-COUNT-2:  cudnn.build_and_exec_graph
// CHECK:           cudnn.resample({{.*}}) mode = max type = f32 window = [3, 3] spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1]
// CHECK-COUNT-19: cudnn.build_and_exec_graph
// CHECK:           cudnn.resample({{.*}}) mode = avg_include_padding type = f32 window = [7, 7] spatial_stride = [1, 1] pre_padding = [0, 0] post_padding = [0, 0]
// CHECK:         cudnn.build_and_exec_graph
// CHECK-NOT:     cudnn.build_and_exec_graph
// CHECK-NOT:     tcp.conv2d
// CHECK-NOT:     tcp.matmul
// CHECK-NOT:     tcp.broadcast
// CHECK-NOT:     tcp.
// CHECK:         return

// REPORT-NOT:   remark
