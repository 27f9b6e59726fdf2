//===- CudnnToLLVMPatterns.cpp - cudnn and device memrefs to calls --------===//
//
// Every buffer of a compiled module is device memory, so the memref ops that
// create, free, fill or copy buffers become runtime calls ordered on the
// invocation's stream, a cuDNN graph becomes one cmrtInvocationGraph
// call with its constant description and the buffers' pointers, and a
// cuBLAS GEMM one cmrtInvocationGemm call.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Conversion/CudnnToLLVM/CudnnToLLVM.h"
#include "cudnn-mlir-runtime/Runtime.h"
#include "cudnn-mlir/Conversion/CudnnToLLVM/GraphSerialization.h"
#include "cudnn-mlir/Conversion/CudnnToLLVM/RuntimeFunctions.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::cudnn_mlir;

namespace {

} // namespace

bool mlir::cudnn_mlir::isDynamicByteBuffer(MemRefType type) {
  return type.getRank() == 1 && type.isDynamicDim(0) &&
         type.getElementType().isSignlessInteger(8) &&
         type.getLayout().isIdentity();
}

namespace {

/// Beats upstream's memref-to-LLVM patterns, which would use host memory.
constexpr unsigned kDeviceBenefit = 10;

Type ptrType(MLIRContext *ctx) { return LLVM::LLVMPointerType::get(ctx); }

Value i64Constant(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                  b.getI64IntegerAttr(value));
}

/// Calls runtime entry `name` (declared from EntryPoints.def).
FailureOr<Value> callRuntime(ConversionPatternRewriter &rewriter, Operation *op,
                             StringRef name, ValueRange args) {
  auto module = op->getParentOfType<ModuleOp>();
  FailureOr<LLVM::LLVMFuncOp> fn;
  {
    OpBuilder::InsertionGuard guard(rewriter);
    fn = cudnn::getOrDeclareRuntimeFunction(rewriter, module, name);
  }
  // Unreachable from textual IR: reserved names are refused up front, and
  // every name used here is in EntryPoints.def.
  if (failed(fn))
    return op->emitOpError("needs runtime entry ")
           << name << ", which EntryPoints.def does not declare";
  auto call = LLVM::CallOp::create(rewriter, op->getLoc(), *fn, args);
  return call.getNumResults() ? call.getResult() : Value();
}

/// Bytes a buffer of `type` (a static layout: convert-cudnn-to-llvm checks)
/// spans: (1 + sum((d - 1) * stride)) elements.
int64_t bufferBytes(MemRefType type) {
  SmallVector<int64_t> strides = getStaticLayout(type)->strides;
  int64_t span = 1;
  for (auto [dim, stride] : llvm::zip(type.getShape(), strides)) {
    if (dim == 0)
      return 0;
    span += (dim - 1) * stride;
  }
  return span * getElementStorageBytes(type.getElementType());
}

/// The address of element [0...] of a converted buffer.
Value dataPointer(OpBuilder &b, Location loc,
                  const LLVMTypeConverter &converter, MemRefType type,
                  Value descriptor) {
  MemRefDescriptor desc(descriptor);
  Value aligned = desc.alignedPtr(b, loc);
  Value offset = desc.offset(b, loc);
  Type element = converter.convertType(type.getElementType());
  return LLVM::GEPOp::create(b, loc, ptrType(b.getContext()), element, aligned,
                             ValueRange{offset});
}

/// A memref pattern that wins over upstream's host-memory lowering.
template <typename OpT>
struct DeviceMemoryPattern : public ConvertOpToLLVMPattern<OpT> {
  explicit DeviceMemoryPattern(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<OpT>(converter, kDeviceBenefit) {}
};

Value addressOf(OpBuilder &b, Location loc, FlatSymbolRefAttr symbol) {
  return LLVM::AddressOfOp::create(b, loc, ptrType(b.getContext()),
                                   symbol.getValue());
}

/// Stores `values` into a fresh stack array of pointers; returns it.
/// `count` is the i64 constant of values.size() if the caller has one.
Value pointerArray(OpBuilder &b, Location loc, ArrayRef<Value> values,
                   Value count = Value()) {
  MLIRContext *ctx = b.getContext();
  if (!count)
    count = i64Constant(b, loc, values.size());
  Value array =
      LLVM::AllocaOp::create(b, loc, ptrType(ctx), ptrType(ctx), count);
  for (auto [k, value] : llvm::enumerate(values)) {
    Value slot =
        LLVM::GEPOp::create(b, loc, ptrType(ctx), ptrType(ctx), array,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k)});
    LLVM::StoreOp::create(b, loc, value, slot);
  }
  return array;
}

struct GetCurrentHandleLowering
    : public ConvertOpToLLVMPattern<cudnn::GetCurrentHandleOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(cudnn::GetCurrentHandleOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> invocation =
        callRuntime(rewriter, op, "cmrtInvocationCurrent", {});
    if (failed(invocation))
      return failure();
    rewriter.replaceOp(op, *invocation);
    return success();
  }
};

struct ExecuteGraphLowering
    : public ConvertOpToLLVMPattern<cudnn::ExecuteGraphOp> {
  ExecuteGraphLowering(const LLVMTypeConverter &converter,
                       const CudnnToLLVMState &state)
      : ConvertOpToLLVMPattern(converter), state(state) {}

  LogicalResult
  matchAndRewrite(cudnn::ExecuteGraphOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = state.graphs.find(op);
    if (it == state.graphs.end())
      return rewriter.notifyMatchFailure(op, "graph was not prepared");
    const GraphCallSite &site = it->second;
    Location loc = op.getLoc();

    SmallVector<Value> pointers;
    Block &body = op.getBody().front();
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(op.getIns(), adaptor.getIns()))) {
      if (!site.inputPassed[i])
        continue;
      auto type = cast<MemRefType>(std::get<0>(pair).getType());
      Value pointer = dataPointer(rewriter, loc, *getTypeConverter(), type,
                                  std::get<1>(pair));
      // A window of its buffer (the verifier checked it lies inside).
      if (int64_t offset =
              cast<cudnn::TensorDescType>(body.getArgument(i).getType())
                  .getOffset())
        pointer = LLVM::GEPOp::create(
            rewriter, loc, ptrType(rewriter.getContext()),
            getTypeConverter()->convertType(type.getElementType()), pointer,
            ArrayRef<LLVM::GEPArg>{offset});
      pointers.push_back(pointer);
    }
    for (auto [original, converted] :
         llvm::zip(op.getOuts(), adaptor.getOuts()))
      pointers.push_back(dataPointer(rewriter, loc, *getTypeConverter(),
                                     cast<MemRefType>(original.getType()),
                                     converted));

    Value count = i64Constant(rewriter, loc, pointers.size());
    Value array = pointerArray(rewriter, loc, pointers, count);
    // A graph with a split form only tries: it says whether it ran.
    FailureOr<Value> status = callRuntime(
        rewriter, op,
        op.getRan() ? "cmrtInvocationGraphTry" : "cmrtInvocationGraph",
        {adaptor.getHandle(), addressOf(rewriter, loc, site.slot),
         addressOf(rewriter, loc, site.words),
         i64Constant(rewriter, loc, site.wordCount),
         i64Constant(rewriter, loc, static_cast<int64_t>(site.options)),
         addressOf(rewriter, loc, site.uids), array, count,
         addressOf(rewriter, loc, site.where)});
    if (failed(status))
      return failure();
    if (!op.getRan()) {
      rewriter.eraseOp(op);
      return success();
    }
    Value ran = LLVM::ICmpOp::create(
        rewriter, loc, LLVM::ICmpPredicate::ne, *status,
        LLVM::ConstantOp::create(rewriter, loc, status->getType(),
                                 rewriter.getIntegerAttr(status->getType(), 0)));
    rewriter.replaceOp(op, ran);
    return success();
  }

  const CudnnToLLVMState &state;
};

/// One RNN call: cmrtInvocationRnnWeights for pack_weights (a pointer per
/// parameter), cmrtInvocationRnn otherwise (a cmrtRnnBuffers on the stack).
/// What the RNN patterns share: the call site prepared for their op (its
/// config, slot and location as addresses).
template <typename OpT>
struct RnnCallPattern : public ConvertOpToLLVMPattern<OpT> {
  RnnCallPattern(const LLVMTypeConverter &converter,
                 const CudnnToLLVMState &state)
      : ConvertOpToLLVMPattern<OpT>(converter), state(state) {}

  struct Site {
    Value slot, config, where;
  };

  FailureOr<Site> siteOf(OpT op, ConversionPatternRewriter &rewriter) const {
    auto it = state.rnns.find(op);
    if (it == state.rnns.end())
      return rewriter.notifyMatchFailure(op, "RNN call was not prepared");
    Location loc = op.getLoc();
    return Site{addressOf(rewriter, loc, it->second.slot),
                addressOf(rewriter, loc, it->second.config),
                addressOf(rewriter, loc, it->second.where)};
  }

  /// A stack array of the parameters' data pointers, and their count: what
  /// the weight-copy entries take.
  std::pair<Value, Value> paramArray(ValueRange originals,
                                     ValueRange converted,
                                     ConversionPatternRewriter &rewriter,
                                     Location loc) const {
    SmallVector<Value> pointers;
    for (auto [original, value] : llvm::zip(originals, converted))
      pointers.push_back(dataPointer(rewriter, loc, *this->getTypeConverter(),
                                     cast<MemRefType>(original.getType()),
                                     value));
    return {pointerArray(rewriter, loc, pointers),
            i64Constant(rewriter, loc, pointers.size())};
  }

  const CudnnToLLVMState &state;
};

struct RnnExecuteLowering : public RnnCallPattern<cudnn::RnnExecuteOp> {
  using RnnCallPattern::RnnCallPattern;

  LogicalResult
  matchAndRewrite(cudnn::RnnExecuteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Site> site = siteOf(op, rewriter);
    if (failed(site))
      return failure();
    Location loc = op.getLoc();
    auto pointerOf = [&](Value original, Value converted) -> Value {
      if (!original)
        return LLVM::ZeroOp::create(rewriter, loc, ptrType(getContext()));
      return dataPointer(rewriter, loc, *getTypeConverter(),
                         cast<MemRefType>(original.getType()), converted);
    };
    auto [slot, config, where] = *site;
    FailureOr<Value> status;
    cudnn::RnnCall call = op.getCall();
    if (call == cudnn::RnnCall::pack_weights ||
        call == cudnn::RnnCall::unpack_weights) {
      auto [params, count] =
          paramArray(op.getParams(), adaptor.getParams(), rewriter, loc);
      bool unpack = call == cudnn::RnnCall::unpack_weights;
      status = callRuntime(
          rewriter, op, "cmrtInvocationRnnWeights",
          {adaptor.getHandle(), slot, config,
           i64Constant(rewriter, loc, unpack ? 1 : 0), params, count,
           pointerOf(op.getWeights(), adaptor.getWeights()), where});
    } else {
      // cmrtRnnBuffers, field by field (Runtime.h); absent ones are null.
      SmallVector<Value> fields = {
          pointerOf(op.getSeqLengths(), adaptor.getSeqLengths()),
          pointerOf(Value(), Value()), // hostSeqLengths
          pointerOf(op.getX(), adaptor.getX()),
          pointerOf(op.getY(), adaptor.getY()),
          pointerOf(op.getHx(), adaptor.getHx()),
          pointerOf(op.getHy(), adaptor.getHy()),
          pointerOf(op.getCx(), adaptor.getCx()),
          pointerOf(op.getCy(), adaptor.getCy()),
          pointerOf(op.getDy(), adaptor.getDy()),
          pointerOf(op.getDx(), adaptor.getDx()),
          pointerOf(op.getDhy(), adaptor.getDhy()),
          pointerOf(op.getDhx(), adaptor.getDhx()),
          pointerOf(op.getDcy(), adaptor.getDcy()),
          pointerOf(op.getDcx(), adaptor.getDcx()),
          pointerOf(op.getWeights(), adaptor.getWeights()),
          pointerOf(op.getDweights(), adaptor.getDweights()),
          pointerOf(op.getReserve(), adaptor.getReserve())};
      static_assert(sizeof(cmrtRnnBuffers) == 17 * sizeof(void *),
                    "every field of cmrtRnnBuffers is listed");
      int64_t kind = 0;
      switch (call) {
      case cudnn::RnnCall::forward_training:
        kind = CMRT_RNN_FORWARD_TRAINING;
        break;
      case cudnn::RnnCall::backward_data:
        kind = CMRT_RNN_BACKWARD_DATA;
        break;
      case cudnn::RnnCall::backward_weights:
        kind = CMRT_RNN_BACKWARD_WEIGHTS;
        break;
      default:
        kind = CMRT_RNN_FORWARD_INFERENCE;
      }
      status = callRuntime(rewriter, op, "cmrtInvocationRnn",
                           {adaptor.getHandle(), slot, config,
                            i64Constant(rewriter, loc, kind),
                            pointerArray(rewriter, loc, fields), where});
    }
    if (failed(status))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// A weight space the runtime keeps: cmrtInvocationRnnPackedWeights (a
/// pointer per parameter) returns its device pointer, which becomes the
/// result's descriptor (a static 1-D buffer: the op's verifier checks).
struct RnnWeightSpaceLowering
    : public RnnCallPattern<cudnn::RnnWeightSpaceOp> {
  using RnnCallPattern::RnnCallPattern;

  LogicalResult
  matchAndRewrite(cudnn::RnnWeightSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Site> site = siteOf(op, rewriter);
    if (failed(site))
      return failure();
    Location loc = op.getLoc();
    auto [params, count] =
        paramArray(op.getParams(), adaptor.getParams(), rewriter, loc);
    auto [slot, config, where] = *site;
    FailureOr<Value> weights =
        callRuntime(rewriter, op, "cmrtInvocationRnnPackedWeights",
                    {adaptor.getHandle(), slot, config, params, count, where});
    if (failed(weights))
      return failure();
    rewriter.replaceOp(op, Value(MemRefDescriptor::fromStaticShape(
                               rewriter, loc, *getTypeConverter(),
                               cast<MemRefType>(op.getWeights().getType()),
                               *weights)));
    return success();
  }
};

/// The reserve-space bytes of an RNN, asked of the runtime.
struct RnnReserveSizeLowering
    : public RnnCallPattern<cudnn::RnnReserveSizeOp> {
  using RnnCallPattern::RnnCallPattern;

  LogicalResult
  matchAndRewrite(cudnn::RnnReserveSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Site> site = siteOf(op, rewriter);
    if (failed(site))
      return failure();
    FailureOr<Value> bytes =
        callRuntime(rewriter, op, "cmrtInvocationRnnReserveBytes",
                    {adaptor.getHandle(), site->slot, site->config,
                     site->where});
    if (failed(bytes))
      return failure();
    rewriter.replaceOp(op, *bytes);
    return success();
  }
};

/// A cuBLAS GEMM on row-major buffers: one cmrtInvocationGemm call. The
/// batch dims flatten into cuBLAS's batch; each buffer's row length is its
/// leading dimension and its matrix size its batch stride.
struct ExecuteGemmLowering
    : public ConvertOpToLLVMPattern<cudnn::ExecuteGemmOp> {
  ExecuteGemmLowering(const LLVMTypeConverter &converter,
                      const CudnnToLLVMState &state)
      : ConvertOpToLLVMPattern(converter), state(state) {}

  LogicalResult
  matchAndRewrite(cudnn::ExecuteGemmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto typeOf = [](Value v) { return cast<MemRefType>(v.getType()); };
    ArrayRef<int64_t> a = typeOf(op.getA()).getShape();
    ArrayRef<int64_t> c = typeOf(op.getC()).getShape();
    int64_t batch = 1;
    for (int64_t d : c.drop_back(2))
      batch *= d;
    int64_t m = c[c.size() - 2], n = c.back();
    int64_t k = op.getTransposeA() ? a[a.size() - 2] : a.back();
    auto pointer = [&](Value memref, Value converted) {
      return dataPointer(rewriter, loc, *getTypeConverter(), typeOf(memref),
                         converted);
    };
    // A stored row, and a stored matrix, of each buffer.
    auto row = [&](Value memref) { return typeOf(memref).getShape().back(); };
    auto matrix = [&](Value memref) {
      ArrayRef<int64_t> shape = typeOf(memref).getShape();
      return shape[shape.size() - 2] * shape.back();
    };
    auto i64 = [&](int64_t value) { return i64Constant(rewriter, loc, value); };
    FlatSymbolRefAttr whereSymbol = state.gemms.lookup(op);
    if (!whereSymbol)
      return rewriter.notifyMatchFailure(op, "GEMM was not prepared");
    Value where = addressOf(rewriter, loc, whereSymbol);
    if (failed(callRuntime(
            rewriter, op, "cmrtInvocationGemm",
            {adaptor.getHandle(), i64(op.getTransposeA()),
             i64(op.getTransposeB()), i64(m), i64(n), i64(k), i64(batch),
             pointer(op.getA(), adaptor.getA()), i64(row(op.getA())),
             i64(matrix(op.getA())), pointer(op.getB(), adaptor.getB()),
             i64(row(op.getB())), i64(matrix(op.getB())),
             pointer(op.getC(), adaptor.getC()), i64(row(op.getC())),
             i64(matrix(op.getC())), where})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }

  const CudnnToLLVMState &state;
};

struct AllocLowering : public DeviceMemoryPattern<memref::AllocOp> {
  using DeviceMemoryPattern::DeviceMemoryPattern;
  LogicalResult
  matchAndRewrite(memref::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    bool dynamic = isDynamicByteBuffer(type);
    if (!dynamic && !getStaticLayout(type)) // refused before the conversion
      return rewriter.notifyMatchFailure(op, "expects a static buffer");
    Location loc = op.getLoc();
    FailureOr<Value> invocation =
        callRuntime(rewriter, op, "cmrtInvocationCurrent", {});
    if (failed(invocation))
      return failure();
    Value bytes = dynamic ? adaptor.getDynamicSizes().front()
                          : i64Constant(rewriter, loc, bufferBytes(type));
    FailureOr<Value> memory =
        callRuntime(rewriter, op, "cmrtInvocationAlloc", {*invocation, bytes});
    if (failed(memory))
      return failure();
    if (!dynamic) {
      rewriter.replaceOp(op, Value(MemRefDescriptor::fromStaticShape(
                                 rewriter, loc, *getTypeConverter(), type,
                                 *memory)));
      return success();
    }
    auto desc = MemRefDescriptor::poison(
        rewriter, loc, getTypeConverter()->convertType(type));
    desc.setAllocatedPtr(rewriter, loc, *memory);
    desc.setAlignedPtr(rewriter, loc, *memory);
    desc.setConstantOffset(rewriter, loc, 0);
    desc.setSize(rewriter, loc, 0, bytes);
    desc.setConstantStride(rewriter, loc, 0, 1);
    rewriter.replaceOp(op, Value(desc));
    return success();
  }
};

struct DeallocLowering : public DeviceMemoryPattern<memref::DeallocOp> {
  using DeviceMemoryPattern::DeviceMemoryPattern;
  LogicalResult
  matchAndRewrite(memref::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> invocation =
        callRuntime(rewriter, op, "cmrtInvocationCurrent", {});
    if (failed(invocation))
      return failure();
    Value memory = MemRefDescriptor(adaptor.getMemref())
                       .allocatedPtr(rewriter, op.getLoc());
    if (failed(callRuntime(rewriter, op, "cmrtInvocationFree",
                           {*invocation, memory})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// A constant global's device copy, uploaded once per device.
struct GetGlobalLowering : public DeviceMemoryPattern<memref::GetGlobalOp> {
  GetGlobalLowering(const LLVMTypeConverter &converter,
                    const CudnnToLLVMState &state)
      : DeviceMemoryPattern(converter), state(state) {}
  LogicalResult
  matchAndRewrite(memref::GetGlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    Location loc = op.getLoc();
    if (state.scalarOnlyGlobals.contains(op)) {
      // Only read as by-value graph scalars: nothing to upload.
      rewriter.replaceOp(
          op, Value(MemRefDescriptor::poison(
                  rewriter, loc, getTypeConverter()->convertType(type))));
      return success();
    }
    auto slot = state.constantSlots.find(op.getNameAttr().getAttr());
    if (slot == state.constantSlots.end())
      return rewriter.notifyMatchFailure(op, "global has no slot");
    FailureOr<Value> invocation =
        callRuntime(rewriter, op, "cmrtInvocationCurrent", {});
    if (failed(invocation))
      return failure();
    Value host = LLVM::AddressOfOp::create(
        rewriter, loc, ptrType(op.getContext()), op.getName());
    FailureOr<Value> device =
        callRuntime(rewriter, op, "cmrtInvocationConstant",
                    {*invocation, addressOf(rewriter, loc, slot->second), host,
                     i64Constant(rewriter, loc, bufferBytes(type))});
    if (failed(device))
      return failure();
    rewriter.replaceOp(op,
                       Value(MemRefDescriptor::fromStaticShape(
                           rewriter, loc, *getTypeConverter(), type, *device)));
    return success();
  }
  const CudnnToLLVMState &state;
};

/// An i64 array on the stack holding `values`.
Value stackArray(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  Type i64 = b.getI64Type();
  Value array = LLVM::AllocaOp::create(b, loc, ptrType(b.getContext()), i64,
                                       i64Constant(b, loc, values.size()));
  for (auto [k, v] : llvm::enumerate(values)) {
    Value slot =
        LLVM::GEPOp::create(b, loc, ptrType(b.getContext()), i64, array,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k)});
    LLVM::StoreOp::create(b, loc, i64Constant(b, loc, v), slot);
  }
  return array;
}

/// A copy between device buffers: a memcpy when both share one dense layout,
/// else a layout transform (what cudnn.convert_layout bufferizes to). The
/// pass rejects other copies before converting.
struct CopyLowering : public DeviceMemoryPattern<memref::CopyOp> {
  using DeviceMemoryPattern::DeviceMemoryPattern;
  LogicalResult
  matchAndRewrite(memref::CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto source = cast<MemRefType>(op.getSource().getType());
    auto target = cast<MemRefType>(op.getTarget().getType());
    Location loc = op.getLoc();
    FailureOr<Value> invocation =
        callRuntime(rewriter, op, "cmrtInvocationCurrent", {});
    if (failed(invocation))
      return failure();
    Value dst = dataPointer(rewriter, loc, *getTypeConverter(), target,
                            adaptor.getTarget());
    Value src = dataPointer(rewriter, loc, *getTypeConverter(), source,
                            adaptor.getSource());
    SmallVector<int64_t> srcStrides = getStaticLayout(source)->strides,
                         dstStrides = getStaticLayout(target)->strides;
    if (srcStrides == dstStrides) {
      if (failed(
              callRuntime(rewriter, op, "cmrtInvocationCopy",
                          {*invocation, dst, src,
                           i64Constant(rewriter, loc, bufferBytes(source))})))
        return failure();
      rewriter.eraseOp(op);
      return success();
    }
    std::optional<int64_t> dataType =
        cudnn::cudnnDataTypeOf(source.getElementType());
    if (!dataType)
      return rewriter.notifyMatchFailure(op, "no cuDNN data type");
    if (failed(callRuntime(rewriter, op, "cmrtInvocationTransform",
                           {*invocation, i64Constant(rewriter, loc, *dataType),
                            i64Constant(rewriter, loc, source.getRank()),
                            stackArray(rewriter, loc, source.getShape()), dst,
                            stackArray(rewriter, loc, dstStrides), src,
                            stackArray(rewriter, loc, srcStrides)})))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::cudnn_mlir::populateCudnnToLLVMPatterns(
    const LLVMTypeConverter &converter, RewritePatternSet &patterns,
    const CudnnToLLVMState &state) {
  patterns.add<GetCurrentHandleLowering, AllocLowering, DeallocLowering,
               CopyLowering>(converter);
  patterns.add<ExecuteGraphLowering, GetGlobalLowering, RnnExecuteLowering,
               RnnReserveSizeLowering, RnnWeightSpaceLowering,
               ExecuteGemmLowering>(converter, state);
}
