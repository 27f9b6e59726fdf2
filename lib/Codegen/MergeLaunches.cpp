//===- MergeLaunches.cpp - independent small launches as one kernel -------===//
//
// A model's batch norms each leave a few tiny kernels on their C-element
// parameters (the folded scale and shift a conv graph reads): one block
// each, about 2 us of launch and tail on an H100 for a microsecond of work,
// two per batch norm, 106 in ResNet-50. codegen-hoist-parameter-kernels
// puts them at the top of the function; this pass joins each run of
// consecutive, independent one-dimensional launches into one launch whose
// blocks are the runs' blocks end to end: a block finds its launch by a
// binary search over the block offsets and runs that body with its block
// index shifted, threads past that launch's block size idle.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "cudnn-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CODEGENMERGELAUNCHESPASS
#include "cudnn-mlir/Codegen/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

/// The buffer a memref value is a view of.
Value rootOf(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// The part of a buffer a write may touch: a box of static offsets and
/// sizes, or (empty) all of it.
struct WrittenPart {
  SmallVector<int64_t> offsets, sizes;
};

/// The box of `memref`'s root it stays inside: known when the view next to
/// the root is a static unit-stride subview and the views after it are
/// subviews and reshapes, which stay inside their source.
WrittenPart writtenPart(Value memref) {
  Operation *nextToRoot = nullptr;
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>()) {
    if (!isa<memref::SubViewOp, memref::CollapseShapeOp, memref::ExpandShapeOp>(
            view.getOperation()))
      return {};
    nextToRoot = view;
    memref = view.getViewSource();
  }
  auto subview = dyn_cast_or_null<memref::SubViewOp>(nextToRoot);
  if (!subview || !subview.hasUnitStride() || !subview.getOffsets().empty() ||
      !subview.getSizes().empty())
    return {};
  WrittenPart part;
  part.offsets.assign(subview.getStaticOffsets().begin(),
                      subview.getStaticOffsets().end());
  part.sizes.assign(subview.getStaticSizes().begin(),
                    subview.getStaticSizes().end());
  return part;
}

/// Whether two written parts of one buffer may share an element.
bool mayOverlap(const WrittenPart &a, const WrittenPart &b) {
  if (a.offsets.empty() || b.offsets.empty() ||
      a.offsets.size() != b.offsets.size())
    return true;
  for (size_t d = 0; d < a.offsets.size(); ++d)
    if (a.offsets[d] + a.sizes[d] <= b.offsets[d] ||
        b.offsets[d] + b.sizes[d] <= a.offsets[d])
      return false;
  return true;
}

/// A launch that may join others, with the buffers it reads and writes (and
/// the parts of them it writes) and the values its body takes from outside
/// (the outlined kernel's parameters).
struct Mergeable {
  gpu::LaunchOp launch;
  int64_t blocks = 0, threads = 0;
  llvm::SetVector<Value> reads, writes, captured;
  llvm::DenseMap<Value, SmallVector<WrittenPart>> writtenParts;
};

/// Bytes a captured value takes as a kernel parameter: kernels take memrefs
/// as bare pointers (the pipelines' calling convention), scalars as 8 bytes
/// at most.
constexpr int64_t kParameterBytes = 8;

/// `launch` as a Mergeable, or nullopt when it must stay alone: more than
/// one dimension, sizes not constant, shared memory, barriers, block index
/// or size ops, async tokens, a cooperative (grid-sync) kernel, a mark for
/// the outliner, or a memory access whose buffer is unknown or that writes
/// a buffer the function did not allocate (arguments may alias each
/// other).
std::optional<Mergeable> asMergeable(gpu::LaunchOp launch) {
  Mergeable m{launch};
  auto blocks = getConstantIntValue(launch.getGridSizeX());
  auto threads = getConstantIntValue(launch.getBlockSizeX());
  if (!blocks || !threads || getConstantIntValue(launch.getGridSizeY()) != 1 ||
      getConstantIntValue(launch.getGridSizeZ()) != 1 ||
      getConstantIntValue(launch.getBlockSizeY()) != 1 ||
      getConstantIntValue(launch.getBlockSizeZ()) != 1)
    return std::nullopt;
  m.blocks = *blocks;
  m.threads = *threads;
  if (launch.getDynamicSharedMemorySize() || launch.getAsyncToken() ||
      !launch.getAsyncDependencies().empty() ||
      launch.getNumWorkgroupAttributions() != 0 ||
      launch.getNumPrivateAttributions() != 0 || launch.hasClusterSize() ||
      !launch.getBody().hasOneBlock())
    return std::nullopt;
  // The count of workgroup buffers (0 here) is kept as an attribute; any
  // other (nvvm.minctasm) is a mark for one kernel.
  for (NamedAttribute attr : launch->getDiscardableAttrs())
    if (attr.getName() != launch.getNumWorkgroupAttributionsAttrName())
      return std::nullopt;
  if (auto name = launch.getFunctionAttr();
      name && name.getValue().ends_with(cudnn_mlir::codegen::kGridSyncSuffix))
    return std::nullopt;
  bool known = true;
  launch.getBody().walk([&](Operation *op) {
    // Index and size ops would see the merged launch's values, not the
    // shifted block index and the launch's own sizes its arguments give.
    if (isa<gpu::BarrierOp, gpu::LaunchOp, gpu::BlockIdOp, gpu::GridDimOp,
            gpu::BlockDimOp, gpu::GlobalIdOp>(op) ||
        op->getDialect()->getNamespace() == "nvvm") {
      known = false;
      return WalkResult::interrupt();
    }
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        op->hasTrait<OpTrait::IsTerminator>() || isMemoryEffectFree(op))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      known = false;
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      if (!value || !isa<BaseMemRefType>(value.getType())) {
        known = false;
        return WalkResult::interrupt();
      }
      Value root = rootOf(value);
      if (isa<MemoryEffects::Read>(effect.getEffect())) {
        m.reads.insert(root);
      } else if (isa<MemoryEffects::Write>(effect.getEffect())) {
        if (!root.getDefiningOp<memref::AllocOp>()) {
          known = false;
          return WalkResult::interrupt();
        }
        m.writes.insert(root);
        m.writtenParts[root].push_back(writtenPart(value));
      } else {
        known = false;
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (!known)
    return std::nullopt;
  getUsedValuesDefinedAbove(launch.getBody(), m.captured);
  return m;
}

/// Whether `a` and `b` may run in either order, or at once.
bool independent(const Mergeable &a, const Mergeable &b) {
  for (Value written : a.writes) {
    if (b.reads.contains(written))
      return false;
    if (!b.writes.contains(written))
      continue;
    // Both write the buffer: independent only in disjoint parts (the
    // pieces of codegen-split-concat-reads).
    for (const WrittenPart &partA : a.writtenParts.lookup(written))
      for (const WrittenPart &partB : b.writtenParts.lookup(written))
        if (mayOverlap(partA, partB))
          return false;
  }
  for (Value written : b.writes)
    if (a.reads.contains(written))
      return false;
  return true;
}

/// Whether `op`, between two launches, lets the first move down to the
/// second: it neither reads nor writes memory (an allocation, a constant,
/// a view).
bool letsLaunchesMeet(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Allocate>(effect.getEffect());
  });
}

class Merger {
public:
  Merger(MutableArrayRef<Mergeable> run, gpu::LaunchOp merged, int64_t threads)
      : run(run), merged(merged), threads(threads) {
    int64_t offset = 0;
    for (const Mergeable &m : run) {
      offsets.push_back(offset);
      offset += m.blocks;
    }
    offsets.push_back(offset);
  }

  /// Emits at `b`'s point the bodies of run[lo, hi) for block `blockId`.
  void emit(OpBuilder &b, Location loc, size_t lo, size_t hi) {
    if (hi - lo == 1)
      return emitBody(b, loc, lo);
    size_t mid = (lo + hi) / 2;
    Value inLow = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, merged.getBlockIds().x,
        arith::ConstantIndexOp::create(b, loc, offsets[mid]));
    auto branch = scf::IfOp::create(b, loc, inLow, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    emit(b, loc, lo, mid);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    emit(b, loc, mid, hi);
  }

private:
  void emitBody(OpBuilder &b, Location loc, size_t index) {
    Mergeable &m = run[index];
    OpBuilder::InsertionGuard guard(b);
    if (m.threads < threads) {
      Value active = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, merged.getThreadIds().x,
          arith::ConstantIndexOp::create(b, loc, m.threads));
      auto guardIf = scf::IfOp::create(b, loc, active, false);
      b.setInsertionPointToStart(&guardIf.getThenRegion().front());
    }
    gpu::LaunchOp launch = m.launch;
    IRMapping mapping;
    Value blockId = merged.getBlockIds().x;
    if (offsets[index] != 0)
      blockId = arith::SubIOp::create(
          b, loc, blockId,
          arith::ConstantIndexOp::create(b, loc, offsets[index]));
    mapping.map(launch.getBlockIds().x, blockId);
    mapping.map(launch.getBlockIds().y, merged.getBlockIds().y);
    mapping.map(launch.getBlockIds().z, merged.getBlockIds().z);
    mapping.map(launch.getThreadIds().x, merged.getThreadIds().x);
    mapping.map(launch.getThreadIds().y, merged.getThreadIds().y);
    mapping.map(launch.getThreadIds().z, merged.getThreadIds().z);
    mapping.map(launch.getGridSize().x,
                arith::ConstantIndexOp::create(b, loc, m.blocks));
    mapping.map(launch.getGridSize().y, merged.getGridSize().y);
    mapping.map(launch.getGridSize().z, merged.getGridSize().z);
    mapping.map(launch.getBlockSize().x,
                arith::ConstantIndexOp::create(b, loc, m.threads));
    mapping.map(launch.getBlockSize().y, merged.getBlockSize().y);
    mapping.map(launch.getBlockSize().z, merged.getBlockSize().z);
    for (Operation &op : launch.getBody().front().without_terminator())
      b.clone(op, mapping);
  }

  MutableArrayRef<Mergeable> run;
  gpu::LaunchOp merged;
  /// The merged launch's block size, the largest of the run's.
  int64_t threads;
  SmallVector<int64_t> offsets;
};

/// Replaces the launches of `run` (two or more, in order) by one launch at
/// the last one's place.
void mergeRun(MutableArrayRef<Mergeable> run) {
  gpu::LaunchOp first = run.front().launch, last = run.back().launch;
  OpBuilder b(last);
  Location loc = first.getLoc();
  int64_t blocks = 0, threads = 0;
  for (const Mergeable &m : run) {
    blocks += m.blocks;
    threads = std::max(threads, m.threads);
  }
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto merged = gpu::LaunchOp::create(
      b, loc, arith::ConstantIndexOp::create(b, loc, blocks), one, one,
      arith::ConstantIndexOp::create(b, loc, threads), one, one,
      /*dynamicSharedMemorySize=*/Value(), /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
      /*privateAttributions=*/{}, nullptr, nullptr, nullptr,
      /*module=*/nullptr, first.getFunctionAttr());
  Block &body = merged.getBody().front();
  b.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(b, loc);
  b.setInsertionPoint(terminator);
  Merger(run, merged, threads).emit(b, loc, 0, run.size());
  for (Mergeable &m : run)
    m.launch.erase();
}

struct CodegenMergeLaunchesPass
    : cudnn_mlir::impl::CodegenMergeLaunchesPassBase<CodegenMergeLaunchesPass> {
  using CodegenMergeLaunchesPassBase::CodegenMergeLaunchesPassBase;
  void runOnOperation() override {
    SmallVector<SmallVector<Mergeable>> runs;
    getOperation().walk([&](Block *block) {
      SmallVector<Mergeable> run;
      llvm::DenseSet<Value> parameters;
      int64_t parameterTotal = 0;
      auto close = [&] {
        if (run.size() > 1)
          runs.push_back(std::move(run));
        run.clear();
        parameters.clear();
        parameterTotal = 0;
      };
      auto newParameterBytes = [&](const Mergeable &m) {
        int64_t bytes = 0;
        for (Value value : m.captured)
          if (!parameters.contains(value))
            bytes += kParameterBytes;
        return bytes;
      };
      for (Operation &op : *block) {
        auto launch = dyn_cast<gpu::LaunchOp>(op);
        if (!launch) {
          if (!letsLaunchesMeet(&op))
            close();
          continue;
        }
        std::optional<Mergeable> m = asMergeable(launch);
        if (!m) {
          close();
          continue;
        }
        int64_t added = newParameterBytes(*m);
        // PTX before ISA 8.1 allows 4352 bytes of kernel parameters (ptxas
        // refused DenseNet-121's 120 merged parameter kernels: 14168
        // bytes), 8.1 on sm_70 and later 32764; the option stays short of
        // either, with room for alignment.
        if (!llvm::all_of(run,
                          [&](const Mergeable &earlier) {
                            return independent(earlier, *m);
                          }) ||
            parameterTotal + added > maxParameterBytes) {
          close();
          added = newParameterBytes(*m); // alone in a new run: all its own
        }
        parameterTotal += added;
        parameters.insert(m->captured.begin(), m->captured.end());
        run.push_back(std::move(*m));
      }
      close();
    });
    for (SmallVector<Mergeable> &run : runs) {
      numMerged += run.size();
      mergeRun(run);
    }
  }
};

} // namespace
