// RUN: cudnn-opt %s --split-input-file --codegen-gpu-modules-to-binary --verify-diagnostics
//
// A gpu.module nvvm-attach-target gave no target, and one ptxas refuses (a
// call of a function defined nowhere), are errors on that module, and the
// pass fails.

module attributes {gpu.container_module} {
  // expected-error @below {{expects a target attribute (nvvm-attach-target), but the module has none}}
  gpu.module @untargeted {
    llvm.func @untargeted() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{`ptxas` invocation failed}}
  // expected-error @below {{could not be compiled for #nvvm.target<chip = "sm_90">}}
  gpu.module @unresolved [#nvvm.target<chip = "sm_90">] {
    llvm.func @nowhere()
    llvm.func @unresolved() attributes {gpu.kernel, nvvm.kernel} {
      llvm.call @nowhere() : () -> ()
      llvm.return
    }
  }
}
