//===- AttentionPattern.cpp - softmax(scale q k^T) v as tcp ops -----------===//

#include "cudnn-mlir/Dialect/Tcp/Transforms/AttentionPattern.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tcp;

namespace {

/// The largest head dim cuDNN's flash attention takes on every
/// architecture it runs on (sm_80 and later).
constexpr int64_t kMaxHeadDim = 128;

bool keepsLastTwoDims(ArrayRef<ReassociationIndices> groups, int64_t rank) {
  return groups.size() >= 2 &&
         groups[groups.size() - 1] == ReassociationIndices{rank - 1} &&
         groups[groups.size() - 2] == ReassociationIndices{rank - 2};
}

/// A reshape that only splits or merges batch dims: the last two dims (the
/// matrices) pass through unchanged.
Operation *batchReshape(Value value) {
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>()) {
    if (keepsLastTwoDims(collapse.getReassociationIndices(),
                         collapse.getSrcType().getRank()))
      return collapse;
  } else if (auto expand = value.getDefiningOp<tensor::ExpandShapeOp>()) {
    if (keepsLastTwoDims(expand.getReassociationIndices(),
                         expand.getResultType().getRank()))
      return expand;
  }
  return nullptr;
}

/// Follows batch reshapes up from `value`, recording them.
Value throughReshapes(Value value, SmallVectorImpl<Operation *> &ops) {
  while (Operation *reshape = batchReshape(value)) {
    ops.push_back(reshape);
    value = reshape->getOperand(0);
  }
  return value;
}

/// The splat value of a constant, or of a broadcast of one.
std::optional<double> splatValue(Value value) {
  if (auto broadcast = value.getDefiningOp<BroadcastOp>())
    value = broadcast.getIn();
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<FloatType>(attr.getElementType()))
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}

/// `reduce` over the last dim, keeping it: what a softmax's max and sum
/// are.
template <typename ReduceOp> ReduceOp lastDimReduction(Value value) {
  auto reduce = value.getDefiningOp<ReduceOp>();
  if (!reduce || !reduce.getKeepDims())
    return nullptr;
  int64_t rank = cast<RankedTensorType>(reduce.getIn().getType()).getRank();
  if (reduce.getAxes() != ArrayRef<int64_t>{rank - 1})
    return nullptr;
  return reduce;
}

/// A broadcast of `reduced` (its last dim 1) back over the last dim.
BroadcastOp lastDimBroadcast(Value value) {
  auto broadcast = value.getDefiningOp<BroadcastOp>();
  if (!broadcast)
    return nullptr;
  int64_t rank = cast<RankedTensorType>(broadcast.getIn().getType()).getRank();
  auto axes = broadcast.getAxes().getAsValueRange<IntegerAttr>();
  if (std::distance(axes.begin(), axes.end()) != 1 ||
      (*axes.begin()).getSExtValue() != rank - 1)
    return nullptr;
  return broadcast;
}

/// scores * scale, scale * scores, scores / c or the scores alone, the
/// scores (through batch reshapes) a batch matmul's result; records the ops
/// in `chain` and the scale's broadcast in `broadcasts`.
BatchMatmulOp matchScaledScores(Value value,
                                SmallVectorImpl<Operation *> &chain,
                                double &scale,
                                SmallVectorImpl<Operation *> &broadcasts) {
  auto note = [&](Value operand) {
    if (auto broadcast = operand.getDefiningOp<BroadcastOp>())
      broadcasts.push_back(broadcast);
  };
  if (auto mul = value.getDefiningOp<MulOp>()) {
    std::optional<double> lhs = splatValue(mul.getIn1()),
                          rhs = splatValue(mul.getIn2());
    if (!lhs == !rhs)
      return nullptr;
    scale = lhs ? *lhs : *rhs;
    note(lhs ? mul.getIn1() : mul.getIn2());
    value = lhs ? mul.getIn2() : mul.getIn1();
    chain.push_back(mul);
  } else if (auto quotient = value.getDefiningOp<DivFOp>()) {
    std::optional<double> divisor = splatValue(quotient.getIn2());
    if (!divisor || *divisor == 0.0)
      return nullptr;
    scale = 1.0 / *divisor;
    note(quotient.getIn2());
    value = quotient.getIn1();
    chain.push_back(quotient);
  }
  auto matmul = throughReshapes(value, chain).getDefiningOp<BatchMatmulOp>();
  if (matmul)
    chain.push_back(matmul);
  return matmul;
}

} // namespace

Value mlir::tcp::getAbsorbedBias(Value bias) {
  auto broadcast = bias.getDefiningOp<BroadcastOp>();
  if (!broadcast)
    return bias;
  // cuDNN's attention broadcasts a bias over batch and heads only.
  auto source = cast<RankedTensorType>(broadcast.getIn().getType());
  auto result = cast<RankedTensorType>(bias.getType());
  int64_t rank = result.getRank();
  for (int64_t d = rank - 2; d < rank; ++d)
    if (source.getDimSize(d) != result.getDimSize(d))
      return bias;
  return broadcast.getIn();
}

Value mlir::tcp::getSplitHeadsSource(Value value) {
  auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>();
  if (!collapse || collapse.getResultType().getRank() != 3 ||
      !collapse.getSrcType().hasStaticShape())
    return Value();
  // [1.., B, H, S, D] -> [B*H, S, D]: canonicalization composes unbind's
  // collapse of the unit dim with the one that merges B and H.
  int64_t rank = collapse.getSrcType().getRank();
  ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
  ReassociationIndices lead;
  for (int64_t d = 0; d < rank - 2; ++d)
    lead.push_back(d);
  if (rank < 4 ||
      collapse.getReassociationIndices() !=
          SmallVector<ReassociationIndices>{lead, {rank - 2}, {rank - 1}} ||
      llvm::any_of(shape.drop_back(4), [](int64_t d) { return d != 1; }))
    return Value();
  return collapse.getSrc();
}

SmallVector<int64_t> mlir::tcp::getSplitHeadsShape(Value source) {
  return SmallVector<int64_t>(
      cast<RankedTensorType>(source.getType()).getShape().take_back(4));
}

Value mlir::tcp::getPackedKey(Value keyTransposed) {
  if (Value source = getLastDimsTransposeSource(keyTransposed))
    return source;
  // [B*H, D, Skv] collapsed from a transposed [B, H, D, Skv].
  if (Value split = getSplitHeadsSource(keyTransposed))
    return getLastDimsTransposeSource(split);
  return Value();
}

/// Whether q, k and v all have a [B, H, S, D] split form of one B and H.
static bool haveSplitForms(const AttentionMatch &m) {
  Value key = getPackedKey(m.keyTransposed);
  Value q = getSplitHeadsSource(m.query), v = getSplitHeadsSource(m.value);
  if (!key || !q || !v || cast<RankedTensorType>(key.getType()).getRank() != 4)
    return false;
  SmallVector<int64_t> qs = getSplitHeadsShape(q);
  for (Value other : {key, v}) {
    SmallVector<int64_t> os = getSplitHeadsShape(other);
    if (os[0] != qs[0] || os[1] != qs[1])
      return false;
  }
  return true;
}

std::optional<AttentionMatch> mlir::tcp::matchAttention(Operation *op) {
  auto output = dyn_cast<BatchMatmulOp>(op);
  if (!output)
    return std::nullopt;
  AttentionMatch m;
  m.output = output;
  m.value = output.getRhs();
  SmallVector<Operation *> chain;

  // probabilities = e / broadcast(reduce_sum(e)), e = exp(x - max(x)).
  Value probabilities = throughReshapes(output.getLhs(), chain);
  auto div = probabilities.getDefiningOp<DivFOp>();
  if (!div)
    return std::nullopt;
  BroadcastOp sumBroadcast = lastDimBroadcast(div.getIn2());
  if (!sumBroadcast)
    return std::nullopt;
  auto sum = lastDimReduction<ReduceSumOp>(sumBroadcast.getIn());
  auto exp = div.getIn1().getDefiningOp<ExpOp>();
  if (!sum || !exp || sum.getIn() != exp.getOut())
    return std::nullopt;
  auto sub = exp.getIn().getDefiningOp<SubOp>();
  if (!sub)
    return std::nullopt;
  BroadcastOp maxBroadcast = lastDimBroadcast(sub.getIn2());
  if (!maxBroadcast)
    return std::nullopt;
  auto max = lastDimReduction<ReduceMaxOp>(maxBroadcast.getIn());
  if (!max || max.getIn() != sub.getIn1())
    return std::nullopt;
  chain.append({div, sumBroadcast, sum, exp, sub, maxBroadcast, max});

  // x = scores [+ bias], bias on either side of the add.
  Value x = throughReshapes(sub.getIn1(), chain);
  BatchMatmulOp scoreMatmul;
  if (auto add = x.getDefiningOp<AddOp>()) {
    for (auto [scaled, bias] : {std::pair{add.getIn1(), add.getIn2()},
                                {add.getIn2(), add.getIn1()}}) {
      size_t chainMark = chain.size(), broadcastMark = m.broadcasts.size();
      m.scale = 1.0;
      scoreMatmul = matchScaledScores(scaled, chain, m.scale, m.broadcasts);
      if (scoreMatmul) {
        m.bias = bias;
        break;
      }
      chain.resize(chainMark);
      m.broadcasts.resize(broadcastMark);
    }
    chain.push_back(add);
  } else {
    scoreMatmul = matchScaledScores(x, chain, m.scale, m.broadcasts);
  }
  if (!scoreMatmul)
    return std::nullopt;
  if (m.bias) {
    auto biasType = cast<RankedTensorType>(m.bias.getType());
    if (Operation *def = m.bias.getDefiningOp();
        def && def->getBlock() == output->getBlock() &&
        getAbsorbedBias(m.bias) != m.bias)
      m.broadcasts.push_back(def);
    if (biasType != x.getType())
      return std::nullopt;
  }
  m.scores = scoreMatmul;
  m.query = scoreMatmul.getLhs();
  m.keyTransposed = scoreMatmul.getRhs();
  chain.push_back(scoreMatmul);

  // Every intermediate stays inside the chain (the attention weights of
  // need_weights=True, for one, do not).
  llvm::SmallPtrSet<Operation *, 16> members(chain.begin(), chain.end());
  members.insert(output);
  for (Operation *broadcast : m.broadcasts)
    members.insert(broadcast);
  for (Operation *member : chain)
    for (Operation *user : member->getUsers())
      if (!members.contains(user))
        return std::nullopt;
  for (Operation *member : members)
    if (member->getBlock() != output->getBlock())
      return std::nullopt;

  m.ops.assign(chain.rbegin(), chain.rend());
  m.ops.push_back(output);
  llvm::sort(m.ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return m;
}

AttentionHeads mlir::tcp::getAttentionHeads(const AttentionMatch &m) {
  bool split = haveSplitForms(m);
  if (!m.bias)
    return {split, 1};
  auto bias = cast<RankedTensorType>(getAbsorbedBias(m.bias).getType());
  if (bias.getRank() != 4)
    return {false, 1};
  if (split) {
    SmallVector<int64_t> qs = getSplitHeadsShape(getSplitHeadsSource(m.query));
    if ((bias.getDimSize(0) == 1 || bias.getDimSize(0) == qs[0]) &&
        (bias.getDimSize(1) == 1 || bias.getDimSize(1) == qs[1]))
      return {true, qs[1]};
  }
  return {false, bias.getDimSize(1)};
}

std::string mlir::tcp::whyCudnnCannotRunAttention(const AttentionMatch &m) {
  auto q = cast<RankedTensorType>(m.query.getType());
  auto v = cast<RankedTensorType>(m.value.getType());
  Value outputValue = m.output->getResult(0);
  auto o = cast<RankedTensorType>(outputValue.getType());
  Type element = q.getElementType();
  if (!element.isF16() && !element.isBF16())
    return llvm::formatv("cuDNN's attention takes f16 or bf16, but the "
                         "chain is {0}",
                         element)
        .str();
  for (Type t :
       {m.keyTransposed.getType(), m.value.getType(), outputValue.getType()})
    if (cast<RankedTensorType>(t).getElementType() != element)
      return "cuDNN's attention takes q, k, v and its output of one type";
  if (!q.hasStaticShape() || !v.hasStaticShape() || !o.hasStaticShape() ||
      !cast<RankedTensorType>(m.keyTransposed.getType()).hasStaticShape())
    return "cuDNN graphs take static shapes";
  // The graph takes [B, H, S, D]: a longer chain only with leading unit
  // dims ([1, B, H, S, D], unbound from a packed projection).
  for (Type t :
       {m.query.getType(), m.keyTransposed.getType(), m.value.getType()}) {
    ArrayRef<int64_t> shape = cast<RankedTensorType>(t).getShape();
    if (shape.size() > 4 &&
        llvm::any_of(shape.drop_back(4), [](int64_t d) { return d != 1; }))
      return llvm::formatv("cuDNN's attention takes [B, H, S, D] (with "
                           "leading unit dims at most), but an operand is "
                           "{0}",
                           t)
          .str();
  }
  for (auto [name, dim] :
       {std::pair<const char *, int64_t>{"q/k", q.getShape().back()},
        {"v", v.getShape().back()}})
    if (dim % 8 != 0 || dim > kMaxHeadDim)
      return llvm::formatv("cuDNN's attention takes head dims that are "
                           "multiples of 8 up to {0}, but {1}'s is {2}",
                           kMaxHeadDim, name, dim)
          .str();
  if (!getPackedKey(m.keyTransposed))
    return "cuDNN's attention reads k with a unit-stride head dim, and k^T "
           "is not a transpose of such a k";
  if (m.bias) {
    auto bias = cast<RankedTensorType>(getAbsorbedBias(m.bias).getType());
    if (!bias.hasStaticShape())
      return "cuDNN graphs take static shapes";
    if (bias.getRank() != 3 && bias.getRank() != 4)
      return llvm::formatv("cuDNN's attention takes a bias of rank 3 or 4, "
                           "but this one has rank {0}",
                           bias.getRank())
          .str();
    AttentionHeads heads = getAttentionHeads(m);
    if (!heads.split) {
      // q, k, v regrouped as [B*H / heads, heads, S, D]; the bias must be
      // [1 or B*H / heads, heads, S, Skv].
      int64_t total = q.getDimSize(0);
      int64_t batch = total / heads.heads;
      if (total % heads.heads != 0 ||
          (bias.getDimSize(0) != 1 && bias.getDimSize(0) != batch))
        return llvm::formatv("the bias's batch dims ({0}x{1}) do not divide "
                             "the {2} attention matrices",
                             bias.getDimSize(0), heads.heads, total)
            .str();
    }
  }
  return "";
}

namespace {

/// `value` broadcast over the dims where it has 1 and `to` does not.
Value broadcastTo(OpBuilder &b, Location loc, Value value,
                  RankedTensorType to) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<Value> sizes;
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < to.getRank(); ++d)
    if (type.getDimSize(d) == 1 && to.getDimSize(d) != 1) {
      axes.push_back(d);
      sizes.push_back(arith::ConstantIndexOp::create(b, loc, to.getDimSize(d)));
    }
  if (axes.empty())
    return value;
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d : axes)
    shape[d] = to.getDimSize(d);
  return BroadcastOp::create(
             b, loc, RankedTensorType::get(shape, type.getElementType()), value,
             sizes, b.getI64ArrayAttr(axes))
      .getResult();
}

/// The source of the broadcast defining `value` when it only broadcasts
/// dims of size 1 (any), else `value`.
Value broadcastSource(Value value) {
  if (auto broadcast = value.getDefiningOp<BroadcastOp>())
    return broadcast.getIn();
  return value;
}

/// Rewrites one window-biased add (see mergeWindowAttentionBiases).
bool mergeWindowBias(AddOp outer) {
  auto type5 = cast<RankedTensorType>(outer.getType());
  if (type5.getRank() != 5 || !type5.hasStaticShape() ||
      !outer.getResult().hasOneUse())
    return false;
  auto back = dyn_cast<tensor::CollapseShapeOp>(*outer->user_begin());
  SmallVector<ReassociationIndices> batchPairs{{0, 1}, {2}, {3}, {4}};
  if (!back || back.getReassociationIndices() != batchPairs)
    return false;
  for (auto [viewed, maskValue] : {std::pair{outer.getIn1(), outer.getIn2()},
                                   {outer.getIn2(), outer.getIn1()}}) {
    auto view = viewed.getDefiningOp<tensor::ExpandShapeOp>();
    if (!view || view.getReassociationIndices() != batchPairs ||
        !view.getResult().hasOneUse())
      continue;
    auto inner = view.getSrc().getDefiningOp<AddOp>();
    if (!inner || !inner.getResult().hasOneUse())
      continue;
    Value mask = broadcastSource(maskValue);
    auto maskType = cast<RankedTensorType>(mask.getType());
    int64_t windows = type5.getDimSize(1), heads = type5.getDimSize(2);
    if (maskType.getRank() != 5 || maskType.getDimSize(0) != 1 ||
        (maskType.getDimSize(2) != 1 && maskType.getDimSize(2) != heads) ||
        !maskType.hasStaticShape())
      continue;
    for (auto [scores, biasValue] : {std::pair{inner.getIn1(), inner.getIn2()},
                                     {inner.getIn2(), inner.getIn1()}}) {
      Value bias = broadcastSource(biasValue);
      auto biasType = cast<RankedTensorType>(bias.getType());
      if (biasType.getRank() != 4 || biasType.getDimSize(0) != 1 ||
          !biasType.hasStaticShape() || !scores.hasOneUse() ||
          !batchReshape(scores))
        continue;
      // The two biases as one [1, W, H, S, S], then [1, W*H, S, S].
      OpBuilder b(outer);
      Location loc = outer.getLoc();
      Type element = type5.getElementType();
      auto small = RankedTensorType::get(
          {1, windows, heads, type5.getDimSize(3), type5.getDimSize(4)},
          element);
      Value bias5 = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({1, 1, biasType.getDimSize(1),
                                 biasType.getDimSize(2),
                                 biasType.getDimSize(3)},
                                element),
          bias, SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}, {4}});
      Value sum =
          AddOp::create(b, loc, small, broadcastTo(b, loc, bias5, small),
                        broadcastTo(b, loc, mask, small));
      auto grouped = RankedTensorType::get(
          {1, windows * heads, small.getDimSize(3), small.getDimSize(4)},
          element);
      Value merged = tensor::CollapseShapeOp::create(
          b, loc, grouped, sum,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
      // The scores as [B, W*H, S, S], plus the merged bias.
      auto scoresType = cast<RankedTensorType>(scores.getType());
      auto flat = RankedTensorType::get(
          {scoresType.getDimSize(0) * scoresType.getDimSize(1),
           scoresType.getDimSize(2), scoresType.getDimSize(3)},
          element);
      auto viewType = RankedTensorType::get(
          {type5.getDimSize(0), windows * heads, scoresType.getDimSize(2),
           scoresType.getDimSize(3)},
          element);
      SmallVector<ReassociationIndices> lead{{0, 1}, {2}, {3}};
      Value scoresFlat =
          tensor::CollapseShapeOp::create(b, loc, flat, scores, lead);
      Value scoresView =
          tensor::ExpandShapeOp::create(b, loc, viewType, scoresFlat, lead);
      Value added = AddOp::create(b, loc, viewType, scoresView,
                                  broadcastTo(b, loc, merged, viewType));
      Value addedFlat =
          tensor::CollapseShapeOp::create(b, loc, flat, added, lead);
      Value result = tensor::ExpandShapeOp::create(b, loc, back.getType(),
                                                   addedFlat, lead);
      back.getResult().replaceAllUsesWith(result);
      back->erase();
      outer->erase();
      view->erase();
      Operation *innerBias = biasValue.getDefiningOp();
      inner->erase();
      if (innerBias && innerBias->use_empty())
        innerBias->erase();
      if (Operation *maskDef = maskValue.getDefiningOp();
          maskDef && maskDef->use_empty())
        maskDef->erase();
      return true;
    }
  }
  return false;
}

} // namespace

int mlir::tcp::mergeWindowAttentionBiases(Block &block) {
  SmallVector<AddOp> adds;
  for (Operation &op : block)
    if (auto add = dyn_cast<AddOp>(op))
      adds.push_back(add);
  int merged = 0;
  for (AddOp add : adds)
    merged += mergeWindowBias(add);
  return merged;
}
