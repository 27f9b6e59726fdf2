//===- TransposeKernel.cpp - transposes through shared-memory tiles -------===//
//
// An elementwise op that reads one input through a permutation whose
// innermost dimension is not the output's: read directly, either its reads
// or its writes would be strided. A block of 32x8 threads stages a 32x32
// tile of that input in shared memory (one padding column against bank
// conflicts): it reads the tile along the input's innermost dimension and
// writes the result along the output's, both coalesced.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {
constexpr int64_t kTile = 32;
constexpr int64_t kRows = 8; // threads along the tile's second dimension

/// The loop that indexes the innermost dimension of `operand`.
std::optional<unsigned> innermostLoop(linalg::GenericOp op,
                                      OpOperand &operand) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  if (map.getNumResults() == 0)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(map.getResults().back());
  if (!dim)
    return std::nullopt;
  return dim.getPosition();
}
} // namespace

OpOperand *findTransposedInput(linalg::GenericOp op) {
  if (op.getNumReductionLoops() != 0 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2)
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isPermutation())
    return nullptr;
  std::optional<unsigned> outInner = innermostLoop(op, *init);
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || !type.getLayout().isIdentity() ||
        !op.getMatchingIndexingMap(input).isPermutation())
      continue;
    std::optional<unsigned> inInner = innermostLoop(op, *input);
    if (inInner && outInner && *inInner != *outInner)
      return input;
  }
  return nullptr;
}

KernelSummary emitTransposeKernel(linalg::GenericOp op, OpOperand &transposed,
                                  StringRef name) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  unsigned outInner = *innermostLoop(op, *op.getDpsInitOperand(0));
  unsigned inInner = *innermostLoop(op, transposed);
  SmallVector<unsigned> others;
  SmallVector<int64_t> gridShape;
  for (unsigned dim = 0; dim < ranges.size(); ++dim)
    if (dim != outInner && dim != inInner) {
      others.push_back(dim);
      gridShape.push_back(ranges[dim]);
    }
  int64_t tilesIn = (ranges[inInner] + kTile - 1) / kTile;
  int64_t tilesOut = (ranges[outInner] + kTile - 1) / kTile;
  gridShape.push_back(tilesIn);
  gridShape.push_back(tilesOut);
  int64_t gridSize = 1;
  for (int64_t size : gridShape)
    gridSize *= size;

  Type elementType = getElementTypeOrSelf(transposed.get());
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto tileType = MemRefType::get({kTile, kTile + 1}, elementType,
                                  MemRefLayoutAttrInterface{}, workgroup);
  gpu::LaunchOp launch =
      createLaunch(b, gridSize, {kTile, kRows}, {tileType}, name);
  Value tile = launch.getWorkgroupAttributions().front();
  Value tx = launch.getThreadIds().x;
  Value ty = launch.getThreadIds().y;
  SmallVector<Value> blockCoords =
      delinearize(b, launch.getBlockIds().x, gridShape);
  Value inBase = arith::MulIOp::create(b, blockCoords[others.size()],
                                       indexConstant(b, kTile));
  Value outBase = arith::MulIOp::create(b, blockCoords[others.size() + 1],
                                        indexConstant(b, kTile));
  Value inSize = indexConstant(b, ranges[inInner]);
  Value outSize = indexConstant(b, ranges[outInner]);

  // Loop coordinates with the two tiled loops at (inIndex, outIndex).
  auto loopsAt = [&](Value inIndex, Value outIndex) {
    SmallVector<Value> loops(ranges.size());
    for (auto [i, dim] : llvm::enumerate(others))
      loops[dim] = blockCoords[i];
    loops[inInner] = inIndex;
    loops[outInner] = outIndex;
    return loops;
  };
  auto inBounds = [&](Value inIndex, Value outIndex) {
    return arith::AndIOp::create(
        b, arith::CmpIOp::create(b, arith::CmpIPredicate::ult, inIndex, inSize),
        arith::CmpIOp::create(b, arith::CmpIPredicate::ult, outIndex, outSize));
  };

  // Stage the tile: threads along x read along the input's innermost loop.
  for (int64_t row = 0; row < kTile; row += kRows) {
    Value tileRow = arith::AddIOp::create(b, ty, indexConstant(b, row));
    Value inIndex = arith::AddIOp::create(b, inBase, tx);
    Value outIndex = arith::AddIOp::create(b, outBase, tileRow);
    auto guard = scf::IfOp::create(b, inBounds(inIndex, outIndex), false);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    Value value = loadOperand(b, op, transposed, loopsAt(inIndex, outIndex));
    memref::StoreOp::create(b, value, tile, ValueRange{tileRow, tx});
  }
  gpu::BarrierOp::create(b);
  // Compute and write: threads along x write along the output's innermost.
  for (int64_t row = 0; row < kTile; row += kRows) {
    Value tileRow = arith::AddIOp::create(b, ty, indexConstant(b, row));
    Value inIndex = arith::AddIOp::create(b, inBase, tileRow);
    Value outIndex = arith::AddIOp::create(b, outBase, tx);
    auto guard = scf::IfOp::create(b, inBounds(inIndex, outIndex), false);
    OpBuilder::InsertionGuard insertion(b);
    b.setInsertionPointToStart(&guard.getThenRegion().front());
    SmallVector<Value> loops = loopsAt(inIndex, outIndex);
    SmallVector<Value> arguments;
    for (OpOperand *input : op.getDpsInputOperands()) {
      if (input == &transposed)
        arguments.push_back(
            memref::LoadOp::create(b, tile, ValueRange{tx, tileRow}));
      else
        arguments.push_back(loadOperand(b, op, *input, loops));
    }
    OpOperand *init = op.getDpsInitOperand(0);
    arguments.push_back(initArgument(b, op, *init, loops));
    Value result = emitBody(b, op, arguments, loops).front();
    storeOperand(b, op, *init, result, loops);
  }
  return {name.str(), "transpose (32x32 shared-memory tiles)"};
}

} // namespace mlir::cudnn_mlir::codegen
