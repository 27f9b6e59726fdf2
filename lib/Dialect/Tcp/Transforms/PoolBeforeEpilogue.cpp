//===- PoolBeforeEpilogue.cpp - max pools before a lone conv's epilogue ---===//

#include "PoolBeforeEpilogue.h"

#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace {

/// The per-channel value `add` adds to `data`: its other operand, a
/// `tcp.broadcast` of a tensor whose only non-unit dim is the channel dim
/// (1 of NCHW). Null otherwise.
tcp::BroadcastOp channelBias(tcp::AddOp add, Value data) {
  Value other = add.getIn1() == data ? add.getIn2() : add.getIn1();
  if (other == data)
    return {};
  auto broadcast = other.getDefiningOp<tcp::BroadcastOp>();
  if (!broadcast)
    return {};
  auto source = cast<RankedTensorType>(broadcast.getIn().getType());
  for (auto [d, size] : llvm::enumerate(source.getShape()))
    if (d != 1 && size != 1)
      return {};
  return broadcast;
}

/// Which operand of a chain op is the data: the clamp's input, or the
/// add's operand that is not the per-channel bias.
unsigned dataOperandIndex(Operation *op) {
  auto add = dyn_cast<tcp::AddOp>(op);
  return add && !channelBias(add, add.getIn1()) ? 1 : 0;
}

/// Whether `op` is non-decreasing in its data operand and the same function
/// within a channel: a float clamp, or an add of a per-channel bias.
bool isChannelMonotone(Operation *op) {
  if (auto clamp = dyn_cast<tcp::ClampOp>(op))
    return clamp.getMinFloat() || clamp.getMaxFloat();
  if (auto add = dyn_cast<tcp::AddOp>(op))
    return static_cast<bool>(
        channelBias(add, op->getOperand(dataOperandIndex(op))));
  return false;
}

/// The chain from a lone conv's result to `pool`'s input, first op first;
/// empty when `pool` does not read such a chain.
SmallVector<Operation *> loneConvEpilogue(tcp::MaxPool2DOp pool) {
  SmallVector<Operation *> chain;
  Value value = pool.getIn();
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<tcp::ClampOp, tcp::AddOp>(def)) {
      if (chain.empty() || tcp::whyAnchorRunsAlone(def).empty())
        return {};
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    if (!value.hasOneUse() || !isChannelMonotone(def))
      return {};
    chain.push_back(def);
    value = def->getOperand(dataOperandIndex(def));
  }
  return {};
}

} // namespace

void tcp::movePoolsBeforeLoneConvEpilogues(Operation *root) {
  SmallVector<MaxPool2DOp> pools;
  root->walk([&](MaxPool2DOp pool) { pools.push_back(pool); });
  for (MaxPool2DOp pool : pools) {
    auto pooledType = cast<RankedTensorType>(pool.getResult().getType());
    if (!pooledType.hasStaticShape())
      continue;
    SmallVector<Operation *> chain = loneConvEpilogue(pool);
    if (chain.empty())
      continue;
    OpBuilder b(pool);
    Value conv = chain.front()->getOperand(dataOperandIndex(chain.front()));
    Operation *pooled = b.clone(*pool);
    pooled->setOperand(0, conv);
    Value value = pooled->getResult(0);
    for (Operation *op : chain) {
      unsigned data = dataOperandIndex(op);
      // The bias broadcast to the pooled shape, before the add that reads it.
      Value resizedBias;
      if (auto add = dyn_cast<AddOp>(op)) {
        BroadcastOp bias = channelBias(add, op->getOperand(data));
        SmallVector<Value> sizes;
        for (Attribute axis : bias.getAxes())
          sizes.push_back(arith::ConstantIndexOp::create(
              b, op->getLoc(),
              pooledType.getDimSize(cast<IntegerAttr>(axis).getInt())));
        resizedBias = BroadcastOp::create(
            b, bias.getLoc(),
            RankedTensorType::get(pooledType.getShape(),
                                  pooledType.getElementType()),
            bias.getIn(), sizes, bias.getAxes());
      }
      Operation *moved = b.clone(*op);
      moved->setOperand(data, value);
      if (resizedBias)
        moved->setOperand(1 - data, resizedBias);
      moved->getResult(0).setType(pooledType);
      value = moved->getResult(0);
    }
    pool.getResult().replaceAllUsesWith(value);
    pool->erase();
    for (Operation *op : llvm::reverse(chain)) {
      Operation *bias = nullptr;
      if (isa<AddOp>(op))
        bias = op->getOperand(1 - dataOperandIndex(op)).getDefiningOp();
      op->erase();
      if (bias && bias->use_empty())
        bias->erase();
    }
  }
}
