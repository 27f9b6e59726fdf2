//===- SplitForm.h - a fused group's split form, for groups cuDNN refuses -===//
//
// When cuDNN has no engine for a fused graph on the device it runs on, the
// module runs the group's split form instead: each op that cuDNN runs alone
// (conv, matmul, norm, pooling) in a graph of its own, everything else
// (pointwise ops, reductions, broadcasts) as tcp ops that become generated
// kernels. Both forms are compiled; the fused graph says whether it ran.
// A group of one transposed convolution (cuDNN's data-gradient
// convolution, whose engines are fewer than a forward one's) has a
// generated form instead: the op itself as a generated kernel.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_LIB_CONVERSION_TCPTOCUDNN_SPLITFORM_H
#define CUDNN_MLIR_LIB_CONVERSION_TCPTOCUDNN_SPLITFORM_H

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::cudnn_mlir {

/// Whether `group` has a split form: an op cuDNN runs alone beside at least
/// one op it does not (a graph of one anchor has nothing to split off).
bool hasSplitForm(tcp::IsolatedGroupOp group);

/// Whether `group` is one transposed convolution (with constants), whose
/// fallback is the op itself as a generated kernel.
bool hasGeneratedForm(tcp::IsolatedGroupOp group);

/// Converts a one-op group the split form made (a `tcp.isolated_group`
/// holding a clone of an anchor) into its cuDNN graph.
using ConvertAnchorGroup =
    function_ref<LogicalResult(tcp::IsolatedGroupOp anchorGroup)>;

/// Builds, at the rewriter's insertion point, `scf.if %ran` yielding `fused`
/// (the fused graph's results) and else the split form of `group`, whose
/// anchors `convert` turns into graphs, or with `generated` its body as tcp
/// ops left to code generation (hasGeneratedForm); returns the scf.if. On
/// failure (an anchor that did not convert) has emitted an error and erased
/// what it built.
FailureOr<scf::IfOp> buildSplitForm(RewriterBase &rewriter,
                                    tcp::IsolatedGroupOp group, Value ran,
                                    ValueRange fused,
                                    ConvertAnchorGroup convert,
                                    bool generated = false);

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_LIB_CONVERSION_TCPTOCUDNN_SPLITFORM_H
