//===- PackTemporaries.cpp - small temporaries share one allocation -------===//
//
// Each memref.alloc of a compiled entry is a stream-ordered allocation per
// call (and each dealloc a free); small temporaries become views into one
// allocation that lives for the call.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::cudnn {
#define GEN_PASS_DEF_CUDNNPACKTEMPORARIESPASS
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"
} // namespace mlir::cudnn

using namespace mlir;

namespace {

constexpr int64_t kViewAlignment = 256;

/// The bytes of `alloc` if it may be packed: static identity-layout shape
/// of whole-byte elements, not returned, freed only by memref.dealloc in
/// `block`.
std::optional<int64_t> packableBytes(memref::AllocOp alloc, Block &block,
                                     int64_t maxBytes) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (bits % 8 != 0)
    return std::nullopt;
  int64_t bytes = type.getNumElements() * (bits / 8);
  if (bytes == 0 || bytes > maxBytes)
    return std::nullopt;
  for (Operation *user : alloc->getUsers()) {
    if (isa<func::ReturnOp>(user))
      return std::nullopt;
    if (isa<memref::DeallocOp>(user) && user->getBlock() != &block)
      return std::nullopt;
  }
  return bytes;
}

struct CudnnPackTemporariesPass
    : public cudnn::impl::CudnnPackTemporariesPassBase<
          CudnnPackTemporariesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &block = func.getBody().front();
    SmallVector<std::pair<memref::AllocOp, int64_t>> packed;
    int64_t total = 0;
    for (auto alloc : block.getOps<memref::AllocOp>()) {
      std::optional<int64_t> bytes = packableBytes(alloc, block, maxBytes);
      if (!bytes)
        continue;
      int64_t size = llvm::alignTo(*bytes, kViewAlignment);
      if (total + size > maxTotalBytes)
        continue;
      packed.push_back({alloc, total});
      total += size;
    }
    if (packed.size() < 2)
      return;

    OpBuilder b(&getContext());
    b.setInsertionPointToStart(&block);
    Location loc = func.getLoc();
    auto arenaType = MemRefType::get({total}, b.getI8Type());
    Value arena = memref::AllocOp::create(b, loc, arenaType, ValueRange{},
                                          b.getI64IntegerAttr(kViewAlignment));
    // Views first, erasures after: the insertion point may sit at one of
    // the allocations.
    for (auto [alloc, offset] : packed) {
      Value start = arith::ConstantIndexOp::create(b, loc, offset);
      Value view = memref::ViewOp::create(b, alloc.getLoc(), alloc.getType(),
                                          arena, start, ValueRange{});
      for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
        if (isa<memref::DeallocOp>(user))
          user->erase();
      alloc.replaceAllUsesWith(view);
    }
    for (auto [alloc, offset] : packed)
      alloc.erase();
    b.setInsertionPoint(block.getTerminator());
    memref::DeallocOp::create(b, loc, arena);
  }
};

} // namespace
