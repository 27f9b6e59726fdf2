//===- AttentionPattern.h - softmax(scale q k^T) v as tcp ops ---*- C++ -*-===//
//
// Attention reaches TCP written out: a batch matmul of q and k^T, a scale, a
// softmax over the last dim (reduce_max, sub, exp, reduce_sum, divf) and a
// batch matmul with v, with reshapes of the batch dims in between (how the
// front end lowers F.scaled_dot_product_attention, nn.MultiheadAttention
// and a hand-written `(q @ k.transpose(-2, -1)) * scale).softmax(-1) @ v`).
// tcp-fuse-for-cudnn groups such a chain as one cuDNN graph and
// convert-tcp-to-cudnn turns the group into one `cudnn.sdpa` (cuDNN's flash
// attention); this matcher is what both recognise, so they agree.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_ATTENTIONPATTERN_H
#define CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_ATTENTIONPATTERN_H

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::tcp {

/// One attention chain. Values are those the chain reads; `ops` are the
/// chain's ops, each used only inside the chain but the last (`output`);
/// `broadcasts` are the broadcasts of the scale and the bias it reads (a
/// graph absorbs them; they may have other users).
struct AttentionMatch {
  BatchMatmulOp scores; // q x k^T
  BatchMatmulOp output; // probabilities x v
  Value query, keyTransposed, value;
  /// Added to the scaled scores (an attention mask, a position bias), of
  /// the scores' type; null when none.
  Value bias;
  double scale = 1.0;
  llvm::SmallVector<Operation *> ops;
  llvm::SmallVector<Operation *> broadcasts;
};

/// The attention chain that ends at `output` (a tcp.batch_matmul whose lhs
/// is the softmax), or nullopt.
std::optional<AttentionMatch> matchAttention(Operation *output);

/// The key as a packed [..., Skv, D] tensor: the source of the
/// last-two-dims transpose `keyTransposed` is (possibly through a
/// collapse of its batch dims into one), or null when it is none. cuDNN's
/// attention reads k with a unit-stride head dim.
Value getPackedKey(Value keyTransposed);

/// What the graph reads for `bias`: the source of the broadcast defining
/// it when that broadcast only adds batch or head dims (cuDNN broadcasts a
/// bias over those), else `bias` itself.
Value getAbsorbedBias(Value bias);

/// The static [B, H, S, D] tensor whose collapse to [B*H, S, D] `value`
/// is, or null. It may have leading unit dims ([1, B, H, S, D]: one of q,
/// k, v unbound from a packed projection).
Value getSplitHeadsSource(Value value);

/// The [B, H, S, D] shape of a getSplitHeadsSource result (its last four
/// dims).
SmallVector<int64_t> getSplitHeadsShape(Value source);

/// How the graph reads q, k and v. `split`: as the [B, H, S, D] tensors
/// their [B*H, S, D] forms are collapses of. Otherwise those [B*H, S, D]
/// forms regrouped as [B*H / heads, heads, S, D]: `heads` is the bias's
/// head dim when the bias has one the split form does not fit (a bias
/// grouped differently: Swin's window masks, or a split form canonicalize
/// folded away), else 1.
struct AttentionHeads {
  bool split = false;
  int64_t heads = 1;
};
AttentionHeads getAttentionHeads(const AttentionMatch &match);

/// Why cuDNN's attention engines cannot run `match` (element types, head
/// dims, a key that is not a transpose); empty when they can.
std::string whyCudnnCannotRunAttention(const AttentionMatch &match);

/// Rewrites, in `block`, attention scores that get two biases at two batch
/// groupings, as Swin's shifted windows do:
///   s [B*W, H, S, S] + b1 (from [1, H, S, S]), viewed as [B, W, H, S, S],
///   + b2 (from [1, W, 1, S, S]), viewed back as [B*W, H, S, S]
/// into the scores viewed as [B, W*H, S, S] plus one small bias [1, W*H, S,
/// S] (b1 + b2, computed once per call by ordinary ops), viewed back: one
/// additive bias cuDNN's attention reads (getAttentionHeads then regroups
/// q, k and v as [B, W*H, S, D]). Returns how many it rewrote.
int mergeWindowAttentionBiases(Block &block);

} // namespace mlir::tcp

#endif // CUDNN_MLIR_DIALECT_TCP_TRANSFORMS_ATTENTIONPATTERN_H
