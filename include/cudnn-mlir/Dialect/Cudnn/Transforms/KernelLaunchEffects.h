//===- KernelLaunchEffects.h - what a kernel launch touches -----*- C++ -*-===//
//
// Upstream's gpu.launch_func declares no memory effects, so buffer
// deallocation refuses functions that launch kernels. A launch may read and
// write every buffer it is given: this external model says exactly that.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_KERNELLAUNCHEFFECTS_H
#define CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_KERNELLAUNCHEFFECTS_H

namespace mlir {
class DialectRegistry;

namespace cudnn {

/// Attaches MemoryEffectOpInterface to gpu.launch_func: read and write on
/// each memref operand, and a write to memory in general (so that a launch
/// on LLVM pointers is not dead code either).
void registerKernelLaunchEffectsExternalModel(DialectRegistry &registry);

} // namespace cudnn
} // namespace mlir

#endif // CUDNN_MLIR_DIALECT_CUDNN_TRANSFORMS_KERNELLAUNCHEFFECTS_H
