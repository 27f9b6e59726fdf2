// RUN: cudnn-opt %s --codegen-gpu-modules-to-binary="format=isa" | FileCheck %s --check-prefix=PTX
// RUN: cudnn-opt %s --codegen-gpu-modules-to-binary | FileCheck %s --check-prefix=FATBIN
// RUN: cudnn-opt %s --codegen-gpu-modules-to-binary --mlir-disable-threading | FileCheck %s --check-prefix=FATBIN
//
// Every gpu.module becomes a gpu.binary of its name, in place, compiled on
// MLIR's thread pool: PTX alone (format=isa) or a fatbin of the chip's
// machine code and the PTX (magic 0xBA55ED50), also one at a time
// (--mlir-disable-threading).

// PTX-LABEL: module attributes {gpu.container_module}
// PTX:         gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "{{.*}}.entry first
// PTX:         gpu.binary @second [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {{.*}}, assembly = "{{.*}}.entry second
// PTX-NOT:     gpu.module
// FATBIN:      gpu.binary @first [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {ISAToBinaryTimeInMs{{.*}}"P\EDU\BA
// FATBIN:      gpu.binary @second [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {ISAToBinaryTimeInMs{{.*}}"P\EDU\BA
module attributes {gpu.container_module} {
  gpu.module @first [#nvvm.target<chip = "sm_90">] {
    llvm.func @first() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
  gpu.module @second [#nvvm.target<chip = "sm_90">] {
    llvm.func @second() attributes {gpu.kernel, nvvm.kernel} {
      llvm.return
    }
  }
}
