// ResNet-18 (examples/resnet18.mlir, written by examples/gen_resnet18_tcp.py)
// through the whole TCP -> cuDNN pipeline: every conv and the classifier's
// matmul end up in a cuDNN graph (20 convs + 1 matmul = 21 graphs), the max
// pool is a resample graph of its own (22 in all), the global average pool
// (the spatial reduce_mean, on the channels-last bytes) stays a TCP op for a
// generated reduction kernel (global-pool=codegen, the default), and bias
// broadcasts are absorbed. The
// first conv (3 input channels, 8x64x112x112 outputs) runs alone: cuDNN's
// fused engines are slow for it, so its bias and ReLU are the only TCP ops
// left (a generated kernel), and they run after the max pool, on a quarter
// of the bytes (the pool commutes with a per-channel bias and a ReLU).
//
// RUN: %python %src_root/examples/gen_resnet18_tcp.py | diff - %src_root/examples/resnet18.mlir
// The fused graphs alone (split-fallback=false); then, by default, each of
// the 20 graphs with an epilogue (all but the lone first conv, the max pool
// and the classifier's matmul) also carries its compiled split form.
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline=split-fallback=false | FileCheck %s
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline | FileCheck %s --check-prefix=SPLIT
// RUN: cudnn-opt %src_root/examples/resnet18.mlir -tcp-to-cudnn-pipeline=report 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @resnet18
// CHECK:           cudnn.build_and_exec_graph
// CHECK-NEXT:      ^bb0
// CHECK-NEXT:        cudnn.convolution
// CHECK-NEXT:        cudnn.build_graph
// CHECK:           cudnn.resample({{.*}}) mode = max type = f32 window = [3, 3] spatial_stride = [2, 2] pre_padding = [1, 1] post_padding = [1, 1]
// CHECK:         tcp.broadcast {{.*}} -> tensor<8x56x56x64xf16>
// CHECK-NEXT:    tcp.add
// CHECK-NEXT:    tcp.clamp
// CHECK-COUNT-19: cudnn.build_and_exec_graph
// CHECK:         tcp.reduce_mean %{{.*}} {axes = array<i64: 1, 2>, keep_dims} : tensor<8x7x7x512xf16> -> tensor<8x1x1x512xf16>
// CHECK:         cudnn.build_and_exec_graph
// CHECK-NOT:     cudnn.build_and_exec_graph
// CHECK-NOT:     tcp.
// CHECK:         return

// SPLIT-COUNT-20: tries i1
// SPLIT-NOT:      tries i1

// REPORT: remark: left out of cuDNN graphs: feeds no grouped pointwise op
// REPORT: remark: left out of cuDNN graphs, 2 ops (the first here): the conv it would join has 3 input channels per group (at most 4) and 6422528 output elements, which cuDNN's fused engines run slowly (cuDNN 9.14, H100); the conv runs alone
// REPORT: remark: left out of cuDNN graphs: no cuDNN engine runs a reduction epilogue writing f16 (cuDNN 9.14, H100); it is a generated kernel
// REPORT-NOT: remark
