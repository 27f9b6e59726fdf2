//===- ColumnReductionKernel.cpp - reductions over outer dimensions -------===//
//
// The reduced loops are not innermost, so the kept innermost loop runs along
// contiguous memory: threads along x take consecutive outputs (coalesced
// reads), the 16 warps of a block split the reduced loops, and shared memory
// combines them. When there are too few outputs to fill the GPU, the reduced
// loops are also split across blocks: each block writes a partial result and
// a second, small kernel combines the partials with the output's initial
// value.
//
//===----------------------------------------------------------------------===//

#include "Strategies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace mlir::cudnn_mlir::codegen {

namespace {
constexpr int64_t kColumns = 32;   // outputs per block (threads along x)
constexpr int64_t kSplit = 16;     // threads along y sharing a column
constexpr int64_t kTargetBlocks = 132 * 4; // a few blocks per H100 SM
constexpr int64_t kMinStepsPerThread = 32;
} // namespace

bool isColumnReduction(linalg::GenericOp op) {
  if (op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 ||
      !matchCombiner(op))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.back() != utils::IteratorType::parallel)
    return false;
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  for (unsigned dim = 0; dim < iterators.size(); ++dim)
    if (iterators[dim] == utils::IteratorType::reduction &&
        out.isFunctionOfDim(dim))
      return false;
  return true;
}

SmallVector<KernelSummary> emitColumnReductionKernels(linalg::GenericOp op,
                                                      StringRef name) {
  ImplicitLocOpBuilder b(op.getLoc(), op);
  ReductionSpace space(op);
  int64_t numOutputs = space.numOutputs, numReduced = space.numReduced;
  int64_t columnBlocks = (numOutputs + kColumns - 1) / kColumns;
  int64_t split = std::max<int64_t>(
      1, std::min((kTargetBlocks + columnBlocks - 1) / columnBlocks,
                  numReduced / (kSplit * kMinStepsPerThread)));
  // Prefer a split that gives every thread the same static number of rows:
  // its loop is then unrolled, with several loads in flight.
  int64_t steps = 0, unroll = 1;
  if (numReduced % kSplit == 0) {
    for (int64_t candidate = split; candidate >= 1; --candidate)
      if ((numReduced / kSplit) % candidate == 0) {
        split = candidate;
        steps = numReduced / (kSplit * split);
        break;
      }
    for (int64_t candidate : {8, 4, 2})
      if (steps % candidate == 0) {
        unroll = candidate;
        break;
      }
  }

  Combiner combiner = *matchCombiner(op);
  ReductionInit init = findFillInit(op);
  OpOperand &out = *op.getDpsInitOperand(0);
  Type accType = combiner.neutral.getType();
  Type stagedType = shuffleType(accType);
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto scratchType = MemRefType::get({kSplit, kColumns}, stagedType,
                                     MemRefLayoutAttrInterface{}, workgroup);
  Value partials;
  if (split > 1)
    partials = memref::AllocOp::create(
        b, MemRefType::get({split, numOutputs}, accType));

  auto loopsAt = [&](Value output, Value reduced) {
    return space.loopsAt(b, output, reduced);
  };
  auto finish = [&](Value output, Value total) {
    SmallVector<Value> loops = loopsAt(output, Value());
    Value start = init.value ? init.value : loadOperand(b, op, out, loops);
    storeOperand(b, op, out, combine(b, combiner, start, total), loops);
  };

  SmallVector<KernelSummary> summaries;
  {
    OpBuilder::InsertionGuard insertion(b);
    gpu::LaunchOp launch = createLaunch(b, columnBlocks * split,
                                        {kColumns, kSplit}, {scratchType},
                                        (name + "_columns").str());
    Value scratch = launch.getWorkgroupAttributions().front();
    Value tx = launch.getThreadIds().x;
    Value ty = launch.getThreadIds().y;
    Value blockColumn = arith::RemUIOp::create(b, launch.getBlockIds().x,
                                               indexConstant(b, columnBlocks));
    Value part = arith::DivUIOp::create(b, launch.getBlockIds().x,
                                        indexConstant(b, columnBlocks));
    Value output = arith::AddIOp::create(
        b, arith::MulIOp::create(b, blockColumn, indexConstant(b, kColumns)),
        tx);
    Value valid = arith::CmpIOp::create(b, arith::CmpIPredicate::ult, output,
                                        indexConstant(b, numOutputs));
    Value neutral = arith::ConstantOp::create(b, combiner.neutral);
    auto accumulate = scf::IfOp::create(
        b, valid,
        [&](OpBuilder &, Location) {
          Value first = arith::AddIOp::create(
              b, arith::MulIOp::create(b, part, indexConstant(b, kSplit)), ty);
          Value stride = indexConstant(b, kSplit * split);
          auto step = [&](Value reduced, Value acc) {
            SmallVector<Value> loops = loopsAt(output, reduced);
            SmallVector<Value> arguments;
            for (OpOperand *input : op.getDpsInputOperands())
              arguments.push_back(loadOperand(b, op, *input, loops));
            arguments.push_back(acc);
            return emitBody(b, op, arguments, loops).front();
          };
          // Rows first, first + stride, ...: a static count per thread
          // (unrolled) when the split divides them evenly.
          auto loop =
              steps ? scf::ForOp::create(b, indexConstant(b, 0),
                                         indexConstant(b, steps),
                                         indexConstant(b, unroll),
                                         ValueRange{neutral})
                    : scf::ForOp::create(b, first,
                                         indexConstant(b, numReduced), stride,
                                         ValueRange{neutral});
          {
            OpBuilder::InsertionGuard inner(b);
            b.setInsertionPointToStart(loop.getBody());
            Value acc = loop.getRegionIterArgs().front();
            if (!steps) {
              acc = step(loop.getInductionVar(), acc);
            } else {
              Value base = arith::AddIOp::create(
                  b, first,
                  arith::MulIOp::create(b, loop.getInductionVar(), stride));
              for (int64_t k = 0; k < unroll; ++k)
                acc = step(arith::AddIOp::create(
                               b, base,
                               arith::MulIOp::create(b, indexConstant(b, k),
                                                     stride)),
                           acc);
            }
            scf::YieldOp::create(b, acc);
          }
          scf::YieldOp::create(b, loop.getResult(0));
        },
        [&](OpBuilder &, Location) { scf::YieldOp::create(b, neutral); });
    // The accumulate region was built with `b`: move the builder back.
    b.setInsertionPointAfter(accumulate);
    memref::StoreOp::create(b, widenForShuffle(b, accumulate.getResult(0)), scratch,
                            ValueRange{ty, tx});
    gpu::BarrierOp::create(b);
    Value firstRow = arith::CmpIOp::create(b, arith::CmpIPredicate::eq, ty,
                                           indexConstant(b, 0));
    auto combineRows = scf::IfOp::create(
        b, arith::AndIOp::create(b, firstRow, valid), false);
    b.setInsertionPointToStart(&combineRows.getThenRegion().front());
    Value total = neutral;
    for (int64_t row = 0; row < kSplit; ++row)
      total = combine(b, combiner, total,
                      narrowFromShuffle(b,
                                        memref::LoadOp::create(
                                            b, scratch,
                                            ValueRange{indexConstant(b, row),
                                                       tx}),
                                        accType));
    if (split == 1)
      finish(output, total);
    else
      memref::StoreOp::create(b, total, partials, ValueRange{part, output});
    summaries.push_back(
        {(name + "_columns").str(),
         "column reduction (32 columns x 16 warps per block" +
             (split > 1 ? ", split over " + std::to_string(split) + " blocks"
                        : std::string()) +
             (unroll > 1 ? ", unrolled " + std::to_string(unroll) + "x"
                         : std::string()) +
             ")"});
  }
  if (split == 1)
    return summaries;

  Value output = createElementLaunch(b, numOutputs, (name + "_combine").str());
  Value total = arith::ConstantOp::create(b, combiner.neutral);
  for (int64_t p = 0; p < split; ++p)
    total = combine(b, combiner, total,
                    memref::LoadOp::create(
                        b, partials, ValueRange{indexConstant(b, p), output}));
  finish(output, total);
  summaries.push_back({(name + "_combine").str(),
                       "column reduction, combining " +
                           std::to_string(split) + " partial results"});
  return summaries;
}

} // namespace mlir::cudnn_mlir::codegen
