//===- CudnnSupportTable.h - what cuDNN 9 graphs can run --------*- C++ -*-===//
//
// The one description of which tcp ops can go into a cuDNN graph and in
// which role. The fusion pass reads nothing else; docs/fusion.md documents
// the same table.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_CUDNNSUPPORTTABLE_H
#define CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_CUDNNSUPPORTTABLE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::tcp {

/// The part an op plays in a cuDNN runtime-fusion graph.
enum class CudnnRole {
  /// Conv fprop or matmul: the one op a fused graph is built around.
  Anchor,
  /// A pointwise op (cuDNN's pointwise modes).
  Pointwise,
  /// A reduction; at most one per graph, ending its epilogue.
  Reduction,
  /// A normalisation, run as a norm graph of its own.
  Norm,
  /// Pooling (cuDNN's resample), run as a graph of its own.
  Pooling,
  /// A broadcast that cuDNN does itself: it disappears into the descriptor of
  /// the smaller operand when it feeds a pointwise op.
  Broadcast,
};

/// Whether a graph is built around an op of `role`: a conv or matmul with
/// its prologue and epilogue, or a norm or pool alone. Every graph has
/// exactly one such op; cuDNN runs no graph of pointwise ops alone.
inline bool buildsGraph(CudnnRole role) {
  return role == CudnnRole::Anchor || role == CudnnRole::Norm ||
         role == CudnnRole::Pooling;
}

/// One row of the table.
struct CudnnOpSupport {
  llvm::StringLiteral opName;
  CudnnRole role;
  /// May stand before the anchor, on its input (scale, bias, ReLU).
  bool inPrologue;
  /// May stand after the anchor.
  bool inEpilogue;
};

/// Whether `op` is an anchor of the table: a convolution (forward,
/// transposed) or a matmul.
bool isCudnnAnchor(Operation *op);

/// What the fusion pass may group for one target.
/// Where batch norms run (tcp-fuse-for-cudnn's `batch-norm` option).
enum class BatchNormPolicy { Auto, Cudnn, Codegen };

/// Parses "auto", "cudnn" or "codegen".
std::optional<BatchNormPolicy> parseBatchNormPolicy(llvm::StringRef text);

struct CudnnFusionPolicy {
  unsigned targetSm = 90;
  bool fuseFp32 = true;
  unsigned maxOps = 50;
  BatchNormPolicy batchNorm = BatchNormPolicy::Auto;
  /// fp32 matmuls may compute in TF32 (allow-tf32-matmul); off, they stay
  /// out of graphs.
  bool allowTf32Matmul = false;
  /// Pointwise ops before an anchor may join its graph as a prologue
  /// (tcp-fuse-for-cudnn's `prologues`).
  bool prologues = true;
  /// Attention chains with fewer keys stay unfused (tcp-fuse-for-cudnn's
  /// `attention-min-keys`): cuDNN's flash attention is slower there.
  int64_t attentionMinKeys = 64;
};

/// The policy of the options tcp-fuse-for-cudnn and convert-tcp-to-cudnn
/// share (`batchNorm` as text); emits an error at `at` naming `pass` and
/// fails when one is out of range.
FailureOr<CudnnFusionPolicy>
makeCudnnFusionPolicy(Operation *at, llvm::StringRef pass, unsigned targetSm,
                      bool fuseFp32, unsigned maxOps, llvm::StringRef batchNorm,
                      bool allowTf32Matmul);

/// The table row of `op`, or nullopt when cuDNN graphs cannot run it.
std::optional<CudnnOpSupport> lookupCudnnSupport(Operation *op);

/// Whether `op` is a pointwise op of the table: cuDNN's pointwise ops
/// broadcast size-1 dims themselves, so a `tcp.broadcast` feeding one is its
/// input's descriptor. Every other op (conv, matmul, reduction, norm) needs
/// the broadcast tensor itself.
bool absorbsBroadcasts(Operation *op);

/// Why `op`, whose table row has `role`, cannot go into a cuDNN graph under
/// `policy` even so: its element types ("unsupported element type 'i32'",
/// "fp32 anchor and fuse-fp32=false"), an op-specific limit (a layer norm
/// over fewer than all non-batch dims) or the batch-norm policy. Empty when
/// it can.
std::string whyCudnnCannotRun(Operation *op, CudnnRole role,
                              const CudnnFusionPolicy &policy);

/// Why the anchor `op` runs in a graph of its own, with no prologue or
/// epilogue (which then become generated kernels); empty when it may fuse.
/// Today: a bf16 grouped conv (cuDNN fuses nothing with it), and an
/// f16/bf16 conv with at most kFewInputChannels input channels per group
/// (an image's first layer) and at least kAloneMinOutputElements output
/// elements (smaller ones keep their epilogue: launches dominate).
std::string whyAnchorRunsAlone(Operation *op);

/// The input channel count per group up to which an f16/bf16 conv runs
/// alone (whyAnchorRunsAlone).
inline constexpr int64_t kFewInputChannels = 4;
/// The output size (elements) from which such a conv runs alone.
inline constexpr int64_t kAloneMinOutputElements = int64_t(1) << 18;

/// True when `policy` asks for `op` on cuDNN and nothing else
/// (batch-norm=cudnn for training and backward batch norms): a reason from
/// whyCudnnCannotRun is then an error, not a road to generated kernels.
bool isCudnnRequired(Operation *op, const CudnnFusionPolicy &policy);

/// The smallest compute capability the table is written for.
inline constexpr unsigned kMinCudnnFusionSm = 80;

/// All rows, in table order (for documentation and tests).
llvm::ArrayRef<CudnnOpSupport> getCudnnSupportTable();

} // namespace mlir::tcp

#endif // CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_CUDNNSUPPORTTABLE_H
