//===- CudnnToLLVM.cpp - convert-cudnn-to-llvm ----------------------------===//
//
// Lowers a bufferized module (cudnn-bufferize, buffer-results-to-out-params,
// deallocation) to the LLVM dialect:
//   1. checks that host code only touches device buffers through the runtime;
//   2. serializes every cudnn.execute_graph into module constants (the graph
//      description, the UIDs its pointers bind to, a plan slot);
//   3. converts everything to LLVM in one full conversion: cudnn ops and
//      device-memory memref ops to runtime calls, the rest with upstream's
//      func/memref/arith/cf/index patterns;
//   4. exports each public function as cmrt_entry_<name> plus the manifest.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Conversion/CudnnToLLVM/CudnnToLLVM.h"
#include "EntryPoints.h"
#include "SplitByCostReport.h"
#include "cudnn-mlir-runtime/Runtime.h"
#include "cudnn-mlir/Conversion/CudnnToLLVM/GraphSerialization.h"
#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstring>

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CONVERTCUDNNTOLLVMPASS
#include "cudnn-mlir/Conversion/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;
using namespace mlir::cudnn_mlir;

namespace {

/// The names the lowering itself declares or defines: the runtime's entries
/// (cmrt*, and MLIR's mgpu* ABI) and the lowering's own globals.
LogicalResult checkReservedNames(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations()) {
    auto symbol =
        op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!symbol)
      continue;
    StringRef name = symbol.getValue();
    if (name.starts_with("cmrt") || name.starts_with("__cmrt_") ||
        name.starts_with("mgpu"))
      return op.emitError("expects no symbol named like the runtime's "
                          "entries or the lowering's globals (cmrt*, "
                          "__cmrt_*, mgpu*), but got @")
             << name;
  }
  return success();
}

/// A copy between device buffers is a memcpy (one dense layout on both
/// sides) or a layout transform (two dense layouts of one shape, rank 3 to
/// 8, a data type cudnnTransformTensor takes).
LogicalResult checkCopy(memref::CopyOp copy) {
  auto source = cast<MemRefType>(copy.getSource().getType());
  auto target = cast<MemRefType>(copy.getTarget().getType());
  auto dense = [](MemRefType type) {
    std::optional<StaticLayout> layout = getStaticLayout(type);
    if (!layout)
      return false;
    // Dense: the strides, sorted, are the running products of the dims.
    SmallVector<std::pair<int64_t, int64_t>> order;
    for (auto [dim, stride] : llvm::zip(type.getShape(), layout->strides))
      order.push_back({stride, dim});
    llvm::sort(order);
    int64_t expected = 1;
    for (auto [stride, dim] : order) {
      if (dim != 1 && stride != expected)
        return false;
      expected *= dim;
    }
    return true;
  };
  if (source.getShape() != target.getShape() ||
      source.getElementType() != target.getElementType() || !dense(source) ||
      !dense(target))
    return copy.emitError("expects copies between dense buffers of one shape "
                          "and element type, but got ")
           << source << " to " << target;
  if (source.getLayout() == target.getLayout())
    return success();
  Type element = source.getElementType();
  if (source.getRank() < 3 || source.getRank() > 8 ||
      !(element.isF16() || element.isBF16() || element.isF32() ||
        element.isF64() || element.isSignlessInteger(8)))
    return copy.emitError("expects a layout conversion of rank 3 to 8 in "
                          "f16, bf16, f32, f64 or i8 (cudnnTransformTensor), "
                          "but got ")
           << source << " to " << target;
  return success();
}

/// Host code may create, free, copy and view device buffers and call
/// functions; reading or writing their elements from the host would touch
/// device memory from the CPU.
LogicalResult checkHostCode(ModuleOp module) {
  // Besides static buffers, byte buffers of a size known at run time (an
  // RNN's reserve space) may be allocated.
  WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op)
                                                           -> WalkResult {
    if (isa<cudnn::ExecuteGraphOp>(op))
      return WalkResult::skip(); // the graph body is a description
    // Generated kernels, and their launches through the runtime's mgpu*
    // entry points on the invocation's stream.
    if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return WalkResult::skip();
    if (isa<gpu::LaunchFuncOp>(op))
      return WalkResult::advance();
    if (isa<ModuleOp, func::FuncOp, func::ReturnOp, func::CallOp,
            memref::ExtractStridedMetadataOp, cudnn::GetCurrentHandleOp,
            cudnn::RnnExecuteOp, cudnn::RnnReserveSizeOp,
            cudnn::ExecuteGemmOp,
            cudnn::RnnWeightSpaceOp, memref::DeallocOp, memref::CastOp,
            memref::ExpandShapeOp,
            memref::CollapseShapeOp, memref::ReinterpretCastOp, memref::ViewOp,
            LLVM::GlobalOp,
            LLVM::LLVMFuncOp>(op) ||
        isa<arith::ArithDialect, cf::ControlFlowDialect>(op->getDialect()))
      return WalkResult::advance();
    if (auto global = dyn_cast<memref::GlobalOp>(op)) {
      if (!global.getConstant() && !global.isExternal())
        return op->emitError("expects constant memref globals (device "
                             "copies are made once), but got a mutable one"),
               WalkResult::interrupt();
      return WalkResult::skip();
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (!getStaticLayout(alloc.getType()) &&
          !isDynamicByteBuffer(alloc.getType()))
        return op->emitError("expects device buffers of static shape and "
                             "strides, but got ")
                   << alloc.getType(),
               WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          op, get.getNameAttr());
      if (!global || !global.getConstant() || !global.getInitialValue())
        return op->emitError("expects a constant memref.global with a value, "
                             "but @")
                   << get.getName() << " is not one",
               WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(op)) {
      if (failed(checkCopy(copy)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    return op->emitError("expects host code to touch device buffers only "
                         "through runtime calls (graphs, allocation, copies, "
                         "views), but got '")
               << op->getName() << "'",
           WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// "file:line:col" of `loc`, or `fallback`.
std::string describeLocation(Location loc, const std::string &fallback) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().str() + ":" +
            std::to_string(fileLoc.getLine()) + ":" +
            std::to_string(fileLoc.getColumn()));
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return describeLocation(nameLoc.getChildLoc(), fallback);
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string s = describeLocation(inner, ""); !s.empty())
        return s;
  return fallback;
}

/// The single value of a one-element constant buffer, which a graph takes
/// by value instead of through a pointer.
std::optional<TypedAttr> scalarConstant(Value buffer) {
  auto get = buffer.getDefiningOp<memref::GetGlobalOp>();
  if (!get || get.getType().getNumElements() != 1)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant())
    return std::nullopt;
  auto value = dyn_cast_or_null<DenseElementsAttr>(
      global.getInitialValue().value_or(Attribute()));
  if (!value || !value.isSplat())
    return std::nullopt;
  return value.getSplatValue<TypedAttr>();
}

class GlobalBuilder {
public:
  explicit GlobalBuilder(ModuleOp module)
      : module(module), builder(module.getContext()) {
    builder.setInsertionPointToStart(module.getBody());
  }

  FlatSymbolRefAttr i64Array(StringRef name, ArrayRef<int64_t> values) {
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      builder.getI64Type());
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(),
        LLVM::LLVMArrayType::get(builder.getI64Type(), values.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, unique(name),
        DenseElementsAttr::get(type, values));
    return FlatSymbolRefAttr::get(global.getSymNameAttr());
  }

  FlatSymbolRefAttr string(StringRef name, StringRef text) {
    std::string value = text.str();
    value.push_back('\0');
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(),
        LLVM::LLVMArrayType::get(builder.getI8Type(), value.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, unique(name),
        builder.getStringAttr(value));
    return FlatSymbolRefAttr::get(global.getSymNameAttr());
  }

  /// A null-initialised pointer the runtime fills on first use.
  FlatSymbolRefAttr slot(StringRef name) {
    auto ptr = LLVM::LLVMPointerType::get(builder.getContext());
    auto global = LLVM::GlobalOp::create(
        builder, module.getLoc(), ptr, /*isConstant=*/false,
        LLVM::Linkage::Internal, unique(name), Attribute());
    OpBuilder::InsertionGuard guard(builder);
    Block *init = builder.createBlock(&global.getInitializerRegion());
    builder.setInsertionPointToStart(init);
    Value zero = LLVM::ZeroOp::create(builder, module.getLoc(), ptr);
    LLVM::ReturnOp::create(builder, module.getLoc(), zero);
    return FlatSymbolRefAttr::get(global.getSymNameAttr());
  }

private:
  std::string unique(StringRef name) {
    std::string candidate = name.str();
    for (int k = 1; module.lookupSymbol(candidate); ++k)
      candidate = (name + "_" + std::to_string(k)).str();
    return candidate;
  }

  ModuleOp module;
  OpBuilder builder;
};

/// Where fp32 may compute in TF32 (the pass's allow-tf32-conv and
/// allow-tf32-matmul, PyTorch's two flags).
struct Tf32Allowed {
  bool conv = false;
  bool matmul = false;
};

/// Whether `node` reads fp32 data.
bool readsFp32(Operation &node) {
  return llvm::any_of(node.getOperandTypes(), [](Type type) {
    return cast<cudnn::TensorDescType>(type).getElementType().isF32();
  });
}

/// Whether `op`'s graph must run on engines that keep fp32 exact
/// (CMRT_GRAPH_EXACT_FP32): it has an fp32 convolution (any kind) and conv
/// TF32 is off, or an fp32 matmul and matmul TF32 is off. Convolutions and
/// matmuls are the only place an engine could trade fp32 exactness for TF32
/// tensor cores; fp16/bf16 anchors are meant to run on tensor cores.
bool needsExactFp32(cudnn::ExecuteGraphOp op, Tf32Allowed tf32) {
  return llvm::any_of(op.getBody().front(), [&](Operation &node) {
    if (isa<cudnn::ConvolutionOp, cudnn::ConvolutionBackwardDataOp,
            cudnn::ConvolutionBackwardFilterOp>(node))
      return !tf32.conv && readsFp32(node);
    if (isa<cudnn::MatmulOp>(node))
      return !tf32.matmul && readsFp32(node);
    return false;
  });
}

/// Resample (pooling) graphs are always autotuned: on an H100 with cuDNN 9.14
/// the heuristics' engine for ResNet-50's fp16 channels-last max pool at
/// batch 128 takes 0.42 ms and the fastest 0.17 ms
/// (benchmarks/profile_frontend.py), and a resample graph has few candidates
/// to time.
bool hasResample(cudnn::ExecuteGraphOp op) {
  return llvm::any_of(op.getBody().front(), [](Operation &node) {
    return isa<cudnn::ResampleOp>(node);
  });
}

LogicalResult prepareGraphCallSites(ModuleOp module, CudnnToLLVMState &state,
                                    uint64_t options, Tf32Allowed tf32,
                                    cudnn::SplitByCostReport *report) {
  GlobalBuilder globals(module);
  // Constants read by value in every graph that uses them need no upload.
  llvm::DenseMap<Operation *, bool> scalarOnly;
  int index = 0;
  WalkResult result = module.walk([&](cudnn::ExecuteGraphOp op) {
    SmallVector<bool> passed;
    FailureOr<cudnn::SerializedGraph> graph = cudnn::serializeGraph(
        op, [&](unsigned i) { return scalarConstant(op.getIns()[i]); });
    if (failed(graph))
      return WalkResult::interrupt();
    if (report)
      report->note(op, graph->words);
    std::string prefix = "__cmrt_graph" + std::to_string(index++);
    SmallVector<int64_t> uids;
    GraphCallSite site;
    for (auto [i, uid] : llvm::enumerate(graph->inputUids)) {
      site.inputPassed.push_back(uid != 0);
      if (uid != 0)
        uids.push_back(uid);
      if (Operation *def = op.getIns()[i].getDefiningOp();
          isa_and_nonnull<memref::GetGlobalOp>(def)) {
        auto [it, inserted] = scalarOnly.try_emplace(def, uid == 0);
        if (!inserted)
          it->second = it->second && uid == 0;
      }
    }
    uids.append(graph->outputUids.begin(), graph->outputUids.end());
    site.words = globals.i64Array(prefix + "_words", graph->words);
    site.wordCount = static_cast<int64_t>(graph->words.size());
    site.options =
        options | (needsExactFp32(op, tf32) ? CMRT_GRAPH_EXACT_FP32 : 0) |
        (hasResample(op) ? CMRT_GRAPH_AUTOTUNE : 0) |
        (op.getRan() ? CMRT_GRAPH_NO_SPLIT : 0);
    site.uids = globals.i64Array(prefix + "_uids", uids);
    site.slot = globals.slot(prefix + "_plan");
    site.where = globals.string(prefix + "_where",
                                describeLocation(op.getLoc(), prefix));
    state.graphs[op] = std::move(site);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();

  for (auto [op, onlyScalar] : scalarOnly)
    if (onlyScalar && llvm::all_of(op->getUsers(), [](Operation *user) {
          return isa<cudnn::ExecuteGraphOp>(user);
        }))
      state.scalarOnlyGlobals.insert(op);
  module.walk([&](memref::GetGlobalOp get) {
    if (state.scalarOnlyGlobals.contains(get))
      return;
    StringAttr name = get.getNameAttr().getAttr();
    if (!state.constantSlots.count(name))
      state.constantSlots[name] =
          globals.slot((name.getValue() + "__cmrt_device").str());
  });
  return success();
}

/// cudnnDataType_t of an RNN's element type (the verifiers allow only
/// these).
int64_t rnnDataType(Type element) {
  if (element.isF64())
    return 1;
  if (element.isF16())
    return 2;
  if (element.isBF16())
    return 9;
  return 0; // f32
}

/// The cmrtRnnConfig of an RNN call, word by word (every field is 8 bytes;
/// the dropout double by its bits): the dialect's config plus what the
/// buffers say: the data type, the sequence length and batch from `seq` (x,
/// or dx; weight copies depend on neither and use 1 and 1), variable
/// lengths. Every call of one RNN that takes part in a backward pass is
/// `trainable`, so that all of them get the same config words, hence the
/// same cached cuDNN RNN and algorithm.
SmallVector<int64_t> rnnConfigWords(cudnn::RnnConfigAttr c, Type element,
                                    Value seq, bool lengths, bool trainable,
                                    bool autotune) {
  int64_t steps = 1, batch = 1;
  if (seq) {
    ArrayRef<int64_t> x = cast<MemRefType>(seq.getType()).getShape();
    bool batchMajor =
        c.getLayout() == cudnn::RnnDataLayout::batch_major_unpacked;
    steps = x[batchMajor ? 1 : 0];
    batch = x[batchMajor ? 0 : 1];
  }
  int64_t flags = (lengths ? CMRT_RNN_VARIABLE_LENGTHS : 0) |
                  (trainable ? CMRT_RNN_TRAINABLE : 0) |
                  (autotune && seq ? CMRT_RNN_AUTOTUNE : 0);
  double dropout = c.getDropout().getValueAsDouble();
  int64_t dropoutBits = 0;
  static_assert(sizeof(dropout) == sizeof(dropoutBits));
  std::memcpy(&dropoutBits, &dropout, sizeof(dropout));
  SmallVector<int64_t> words = {
      CMRT_RNN_CONFIG_VERSION,
      static_cast<int64_t>(c.getCell()),
      static_cast<int64_t>(c.getDirection()),
      static_cast<int64_t>(c.getBias()),
      static_cast<int64_t>(c.getLayout()),
      static_cast<int64_t>(c.getMath()),
      /*algo=*/-1,
      rnnDataType(element),
      c.getInputSize(),
      c.getHiddenSize(),
      c.getProjSize(),
      c.getNumLayers(),
      steps,
      batch,
      flags,
      dropoutBits,
      /*dropoutSeed=*/0};
  static_assert(sizeof(cmrtRnnConfig) == 17 * sizeof(int64_t),
                "rnnConfigWords spells out every field of cmrtRnnConfig");
  return words;
}

SmallVector<int64_t> rnnConfigWords(cudnn::RnnExecuteOp op, bool autotune) {
  cudnn::RnnCall call = op.getCall();
  bool copy = call == cudnn::RnnCall::pack_weights ||
              call == cudnn::RnnCall::unpack_weights;
  Value seq = copy ? Value() : (op.getX() ? op.getX() : op.getDx());
  Type element = getElementTypeOrSelf(
      copy ? op.getParams().front().getType() : seq.getType());
  bool trainable = op.getReserve() != nullptr;
  return rnnConfigWords(op.getConfig(), element, seq,
                        op.getSeqLengths() != nullptr, trainable, autotune);
}

/// As for the pack_weights call it replaces: no sequence, not trainable.
SmallVector<int64_t> rnnConfigWords(cudnn::RnnWeightSpaceOp op,
                                    bool autotune) {
  return rnnConfigWords(op.getConfig(),
                        getElementTypeOrSelf(op.getWeights().getType()),
                        Value(), /*lengths=*/false, /*trainable=*/false,
                        autotune);
}

SmallVector<int64_t> rnnConfigWords(cudnn::RnnReserveSizeOp op,
                                    bool autotune) {
  return rnnConfigWords(op.getConfig(), getElementTypeOrSelf(op.getX()),
                        op.getX(), op.getSeqLengths() != nullptr,
                        /*trainable=*/true, autotune);
}

void prepareRnnCallSites(ModuleOp module, CudnnToLLVMState &state,
                         bool autotune) {
  GlobalBuilder globals(module);
  int index = 0;
  module.walk([&](Operation *op) {
    SmallVector<int64_t> words;
    if (auto execute = dyn_cast<cudnn::RnnExecuteOp>(op))
      words = rnnConfigWords(execute, autotune);
    else if (auto size = dyn_cast<cudnn::RnnReserveSizeOp>(op))
      words = rnnConfigWords(size, autotune);
    else if (auto space = dyn_cast<cudnn::RnnWeightSpaceOp>(op))
      words = rnnConfigWords(space, autotune);
    else
      return;
    std::string prefix = "__cmrt_rnn" + std::to_string(index++);
    RnnCallSite site;
    site.config = globals.i64Array(prefix + "_config", words);
    site.slot = globals.slot(prefix + "_rnn");
    site.where = globals.string(prefix + "_where",
                                describeLocation(op->getLoc(), prefix));
    state.rnns[op] = site;
  });
}

/// The "where" string of each cuBLAS GEMM (its source location).
void prepareGemmCallSites(ModuleOp module, CudnnToLLVMState &state) {
  GlobalBuilder globals(module);
  int index = 0;
  module.walk([&](cudnn::ExecuteGemmOp op) {
    std::string prefix = "__cmrt_gemm" + std::to_string(index++);
    state.gemms[op] = globals.string(prefix + "_where",
                                     describeLocation(op.getLoc(), prefix));
  });
}

struct ConvertCudnnToLLVMPass
    : public cudnn_mlir::impl::ConvertCudnnToLLVMPassBase<
          ConvertCudnnToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(checkReservedNames(module)) || failed(checkHostCode(module)))
      return signalPassFailure();
    FailureOr<SmallVector<EntrySignature>> entries =
        collectEntrySignatures(module);
    if (failed(entries))
      return signalPassFailure();

    CudnnToLLVMState state;
    uint64_t options = (deterministic ? CMRT_GRAPH_DETERMINISTIC : 0) |
                       (autotune ? CMRT_GRAPH_AUTOTUNE : 0);
    cudnn::SplitByCostReport splitByCost;
    if (failed(prepareGraphCallSites(module, state, options,
                                     {allowTf32Conv, allowTf32Matmul},
                                     report ? &splitByCost : nullptr)))
      return signalPassFailure();
    splitByCost.emit();
    prepareRnnCallSites(module, state, autotune);
    prepareGemmCallSites(module, state);

    LLVMTypeConverter converter(ctx);
    converter.addConversion([](cudnn::HandleType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext());
    });
    RewritePatternSet patterns(ctx);
    populateCudnnToLLVMPatterns(converter, patterns, state);
    populateFuncToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    populateGpuToLLVMConversionPatterns(converter, patterns,
                                        /*kernelBarePtrCallConv=*/true);

    LLVMConversionTarget target(*ctx);
    target.addLegalOp<ModuleOp>();
    // Kernels are already binaries; a launch is translated to mgpu* calls
    // with LLVM IR once its operands are LLVM values.
    target.addLegalOp<gpu::GPUModuleOp, gpu::BinaryOp>();
    target.addDynamicallyLegalOp<gpu::LaunchFuncOp>(
        [&](gpu::LaunchFuncOp op) { return converter.isLegal(op); });
    // Graph nodes go away with their cudnn.execute_graph.
    target.addDynamicallyLegalDialect<cudnn::CudnnDialect>([](Operation *op) {
      return op->getParentOfType<cudnn::ExecuteGraphOp>() != nullptr;
    });
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    if (failed(emitEntryPoints(module, *entries)))
      return signalPassFailure();
  }
};

} // namespace
