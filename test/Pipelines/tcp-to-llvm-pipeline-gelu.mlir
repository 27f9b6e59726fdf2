// RUN: cudnn-opt %s --tcp-to-llvm-pipeline="report-kernels split-fallback=false" --mlir-print-op-on-diagnostic=false -o %t.mlir 2>&1 | FileCheck %s --check-prefix=KERNELS
// RUN: FileCheck %s < %t.mlir
// RUN: %python %S/../Integration/Inputs/dump_graph_words.py %cmrt_lib %t.mlir | FileCheck %s --check-prefix=GRAPH
// RUN: not grep -E '^ *(%[^=]* = )?"?(tcp|linalg|math)\.' %t.mlir
// math.erf becomes libdevice's __nv_erff (__nv_erf in f64) in
// convert-gpu-to-nvvm; gpu-module-to-binary links libdevice from the CUDA
// toolkit it finds through CUDA_ROOT / CUDA_HOME / CUDA_PATH, which lit does
// not pass on, so the check stops at the calls.
// RUN: cudnn-opt %s --tcp-to-llvm-pipeline=split-fallback=false --mlir-disable-threading --mlir-print-ir-after=convert-gpu-to-nvvm -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM

// tcp.gelu all the way to LLVM, both roads. Alone it is a generated kernel
// (math.erf through convert-gpu-to-nvvm to libdevice, or the tanh formula);
// after a matmul and its bias it joins the matmul's cuDNN graph as
// GELU_FWD / GELU_APPROX_TANH_FWD, in a graph description the runtime's own
// validator accepts (no GPU needed). The GPU suite runs both roads:
// integration_test/cases/{codegen,matmul_bias}_gelu_*.mlir.

// KERNELS:      remark: @gelu: 2 GPU kernels
// KERNELS-NEXT:   gelu_kernel0: elementwise (vector 8)
// KERNELS-NEXT:   gelu_kernel1: elementwise (vector 8)
// KERNELS:      remark: @gelu_f64: 1 GPU kernel
// KERNELS:      remark: @matmul_bias_gelu: 0 GPU kernels

// NVVM-LABEL: gpu.module @gelu_kernel0
// NVVM:          llvm.call @__nv_erff(
// NVVM-LABEL: gpu.module @gelu_kernel1
// NVVM-NOT:      __nv_erf
// NVVM:          llvm.call @__nv_tanhf(
// NVVM-LABEL: gpu.module @gelu_f64_kernel0
// NVVM:          llvm.call @__nv_erf(

// CHECK-LABEL: llvm.func @gelu(
// CHECK-NOT:     llvm.call @cmrtInvocationGraph
// CHECK:         gpu.launch_func @gelu_kernel0::@gelu_kernel0
// CHECK-NEXT:    gpu.launch_func @gelu_kernel1::@gelu_kernel1
// CHECK-NOT:     llvm.call @cmrtInvocationGraph
// CHECK:       gpu.binary @gelu_kernel0
// CHECK:       gpu.binary @gelu_kernel1
func.func @gelu(%x: tensor<64x256xf16>) -> (tensor<64x256xf16>, tensor<64x256xf16>) {
  %0 = tcp.gelu %x : tensor<64x256xf16> -> tensor<64x256xf16>
  %1 = tcp.gelu %x {approximate = "tanh"} : tensor<64x256xf16> -> tensor<64x256xf16>
  return %0, %1 : tensor<64x256xf16>, tensor<64x256xf16>
}

// f64 never enters a cuDNN graph; erf is computed in f64.
// CHECK-LABEL: llvm.func @gelu_f64(
// CHECK:         gpu.launch_func @gelu_f64_kernel0::@gelu_f64_kernel0
// CHECK:       gpu.binary @gelu_f64_kernel0
func.func @gelu_f64(%x: tensor<8x100xf64>) -> tensor<8x100xf64> {
  %0 = tcp.gelu %x : tensor<8x100xf64> -> tensor<8x100xf64>
  return %0 : tensor<8x100xf64>
}

// CHECK-LABEL: llvm.func @matmul_bias_gelu(
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @cmrtInvocationGraph(
// CHECK-NOT:     {{llvm.call @cmrtInvocationGraph|gpu.launch_func}}
// CHECK-LABEL: llvm.func @cmrt_entry_gelu(
// CHECK-LABEL: llvm.func @cmrt_entry_gelu_f64(
// CHECK-LABEL: llvm.func @cmrt_entry_matmul_bias_gelu(
// GRAPH:      1 graph(s)
// GRAPH-NEXT: __cmrt_graph0: valid
// GRAPH:        op #0 (matmul) compute float: a=[[A:[0-9]+]] b=[[B:[0-9]+]] -> c=[[C:[0-9]+]]
// GRAPH-NEXT:   op #1 (pointwise) add compute float: x=[[C]] b={{[0-9]+}} -> y=[[Z:[0-9]+]]
// GRAPH-NEXT:   op #2 (pointwise) gelu_approx_tanh_fwd compute float: x=[[Z]] -> y=[[T:[0-9]+]]
// GRAPH-NEXT:   op #3 (pointwise) gelu_fwd compute float: x=[[T]] -> y={{[0-9]+}}
func.func @matmul_bias_gelu(%a: tensor<16x32xf16>, %b: tensor<32x8xf16>, %bias: tensor<1x8xf16>) -> tensor<16x8xf16> {
  %c16 = arith.constant 16 : index
  %0 = tcp.matmul %a, %b : tensor<16x32xf16>, tensor<32x8xf16> -> tensor<16x8xf16>
  %1 = tcp.broadcast %bias, %c16 {axes = [0]} : tensor<1x8xf16>, index -> tensor<16x8xf16>
  %2 = tcp.add %0, %1 : tensor<16x8xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
  %3 = tcp.gelu %2 {approximate = "tanh"} : tensor<16x8xf16> -> tensor<16x8xf16>
  %4 = tcp.gelu %3 : tensor<16x8xf16> -> tensor<16x8xf16>
  return %4 : tensor<16x8xf16>
}
