// Generated kernels calling math functions get libdevice linked in, even
// where no CUDA_ROOT / CUDA_HOME / CUDA_PATH is set (lit drops them): the
// PTX defines or inlines __nv_erff instead of declaring it extern, which
// the driver could not resolve when loading the module.
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH cudnn-compile %s --emit=mlir --pipeline-options=kernel-binary=isa -o - | FileCheck %s
// The default fatbin links the same libdevice, then ptxas (found the same
// way) compiles it.
// RUN: env -u CUDA_ROOT -u CUDA_HOME -u CUDA_PATH cudnn-compile %s --emit=mlir -o - | FileCheck %s --check-prefix=FATBIN
// FATBIN: gpu.binary @gelu_kernel0 {{.*}}ISAToBinaryTimeInMs
// CHECK: gpu.binary @gelu_kernel
// CHECK-NOT: .extern .func
// CHECK-NOT: extern .func {{.*}}__nv_
func.func @gelu(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = tcp.gelu %x : tensor<64xf32> -> tensor<64xf32>
  return %0 : tensor<64xf32>
}
