// RUN: cudnn-opt %s --codegen-gpu-modules-to-binary="format=cubin" --verify-diagnostics
//
// The kernel format is fatbin or isa (kernel-binary of the pipelines).

// expected-error @below {{expects the kernel format (kernel-binary) to be 'fatbin' or 'isa', but got 'cubin'}}
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    llvm.func @k() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
