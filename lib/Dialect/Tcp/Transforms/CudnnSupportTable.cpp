//===- CudnnSupportTable.cpp - what cuDNN 9 graphs can run ----------------===//
//
// Source: cuDNN 9's runtime-fusion engines on sm_80/sm_90 run a prologue of
// pointwise ops on the conv/matmul input, one conv fprop or matmul, and an
// epilogue of pointwise ops with at most one reduction; fp16/bf16 I/O with
// fp32 compute is their home ground, fp32 I/O works on fewer engines.
// Normalisations are separate norm graphs, pooling (resample) graphs too.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tcp;

static constexpr CudnnOpSupport kTable[] = {
    // op                    role                   prologue epilogue
    {"tcp.conv2d", CudnnRole::Anchor, false, false},
    {"tcp.conv3d", CudnnRole::Anchor, false, false},
    {"tcp.conv_transpose2d", CudnnRole::Anchor, false, false},
    {"tcp.conv_transpose3d", CudnnRole::Anchor, false, false},
    {"tcp.matmul", CudnnRole::Anchor, false, false},
    {"tcp.batch_matmul", CudnnRole::Anchor, false, false},
    // ReLU / ReLU6 / clip, and scale-bias on the input.
    {"tcp.clamp", CudnnRole::Pointwise, true, true},
    {"tcp.add", CudnnRole::Pointwise, true, true},
    {"tcp.sub", CudnnRole::Pointwise, false, true},
    {"tcp.mul", CudnnRole::Pointwise, true, true},
    {"tcp.divf", CudnnRole::Pointwise, false, true},
    {"tcp.sigmoid", CudnnRole::Pointwise, false, true},
    {"tcp.tanh", CudnnRole::Pointwise, false, true},
    // Both forms: GELU_FWD (erf) and GELU_APPROX_TANH_FWD.
    {"tcp.gelu", CudnnRole::Pointwise, false, true},
    {"tcp.exp", CudnnRole::Pointwise, false, true},
    {"tcp.neg", CudnnRole::Pointwise, false, true},
    {"tcp.abs", CudnnRole::Pointwise, false, true},
    {"tcp.sqrt", CudnnRole::Pointwise, false, true},
    {"tcp.log", CudnnRole::Pointwise, false, true},
    {"tcp.ceil", CudnnRole::Pointwise, false, true},
    {"tcp.floor", CudnnRole::Pointwise, false, true},
    {"tcp.sin", CudnnRole::Pointwise, false, true},
    {"tcp.cos", CudnnRole::Pointwise, false, true},
    {"tcp.broadcast", CudnnRole::Broadcast, true, true},
    {"tcp.reduce_sum", CudnnRole::Reduction, false, true},
    {"tcp.reduce_mean", CudnnRole::Reduction, false, true},
    {"tcp.reduce_max", CudnnRole::Reduction, false, true},
    {"tcp.reduce_min", CudnnRole::Reduction, false, true},
    {"tcp.batch_norm", CudnnRole::Norm, false, false},
    {"tcp.batch_norm_training", CudnnRole::Norm, false, false},
    {"tcp.batch_norm_backward", CudnnRole::Norm, false, false},
    {"tcp.layer_norm", CudnnRole::Norm, false, false},
    {"tcp.max_pool2d", CudnnRole::Pooling, false, false},
    {"tcp.avg_pool2d", CudnnRole::Pooling, false, false},
};

ArrayRef<CudnnOpSupport> mlir::tcp::getCudnnSupportTable() { return kTable; }

std::optional<CudnnOpSupport> mlir::tcp::lookupCudnnSupport(Operation *op) {
  StringRef name = op->getName().getStringRef();
  const auto *row = llvm::find_if(
      kTable, [&](const CudnnOpSupport &r) { return r.opName == name; });
  if (row == std::end(kTable))
    return std::nullopt;
  return *row;
}

bool mlir::tcp::isCudnnAnchor(Operation *op) {
  std::optional<CudnnOpSupport> row = lookupCudnnSupport(op);
  return row && row->role == CudnnRole::Anchor;
}

bool mlir::tcp::absorbsBroadcasts(Operation *op) {
  std::optional<CudnnOpSupport> row = lookupCudnnSupport(op);
  return row && row->role == CudnnRole::Pointwise;
}

std::optional<BatchNormPolicy>
mlir::tcp::parseBatchNormPolicy(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<BatchNormPolicy>>(text)
      .Case("auto", BatchNormPolicy::Auto)
      .Case("cudnn", BatchNormPolicy::Cudnn)
      .Case("codegen", BatchNormPolicy::Codegen)
      .Default(std::nullopt);
}

FailureOr<CudnnFusionPolicy> mlir::tcp::makeCudnnFusionPolicy(
    Operation *at, StringRef pass, unsigned targetSm, bool fuseFp32,
    unsigned maxOps, StringRef batchNorm, bool allowTf32Matmul) {
  if (targetSm < kMinCudnnFusionSm)
    return at->emitError() << pass
                           << " expects target-sm >= " << kMinCudnnFusionSm
                           << " (the support table describes sm_80 and sm_90 "
                              "engines), but got "
                           << static_cast<uint64_t>(targetSm);
  if (maxOps < 1)
    return at->emitError() << pass << " expects max-ops >= 1, but got 0";
  std::optional<BatchNormPolicy> batchNormPolicy =
      parseBatchNormPolicy(batchNorm);
  if (!batchNormPolicy)
    return at->emitError() << pass
                           << " expects batch-norm=auto|cudnn|codegen, but "
                              "got '"
                           << batchNorm << "'";
  return CudnnFusionPolicy{targetSm, fuseFp32, maxOps, *batchNormPolicy,
                           allowTf32Matmul};
}

/// Whether `pool`'s ceil_mode gives it windows floor's formula would not
/// (an overhang at the bottom or right). Where the windows tile the padded
/// input exactly (timm's ResNet-D shortcut: 2x2, stride 2 over 56x56) the
/// two modes are the same pooling.
static bool ceilModeAddsWindows(tcp::AvgPool2DOp pool) {
  if (!pool.getCeilMode())
    return false;
  RankedTensorType in = pool.getIn().getType(), out = pool.getOut().getType();
  if (!in.hasStaticShape() || !out.hasStaticShape())
    return true;
  ArrayRef<int64_t> pad = pool.getPad(), window = pool.getKernelSize(),
                    stride = pool.getStride();
  for (int i = 0; i < 2; ++i) {
    int64_t padded = in.getDimSize(2 + i) + pad[2 * i] + pad[2 * i + 1];
    if (out.getDimSize(2 + i) != (padded - window[i]) / stride[i] + 1)
      return true;
  }
  return false;
}

static bool isInferenceBackward(Operation *op) {
  auto backward = dyn_cast<tcp::BatchNormBackwardOp>(op);
  return backward && !backward.getTraining();
}

static constexpr llvm::StringLiteral kNoInferenceBackward =
    "cuDNN's norm backward has no inference form, but this op has "
    "training = false (the backward of an eval-mode batch norm)";

/// Why cuDNN's batch norm (norm forward in training, norm backward) cannot
/// take a training or backward batch norm; empty when it can.
static std::string whyCudnnBatchNormCannotTake(Operation *op) {
  if (isInferenceBackward(op))
    return kNoInferenceBackward.str();
  std::string reason;
  llvm::raw_string_ostream os(reason);
  auto backward = dyn_cast<tcp::BatchNormBackwardOp>(op);
  auto training = dyn_cast<tcp::BatchNormTrainingOp>(op);
  auto xType = cast<RankedTensorType>(
      (backward ? backward.getX() : training.getX()).getType());
  Type element = xType.getElementType();
  // The verifiers give every per-channel tensor scale's type.
  Type param =
      cast<RankedTensorType>(
          (backward ? backward.getScale() : training.getScale()).getType())
          .getElementType();
  if ((!element.isF16() && !element.isBF16() && !element.isF32()) ||
      !param.isF32()) {
    os << "cuDNN's batch norm expects x of f16, bf16 or f32 with f32 "
          "per-channel tensors, but got x of '"
       << element << "' with per-channel tensors of '" << param << "'";
    return reason;
  }
  if (training && xType.hasStaticShape() &&
      xType.getNumElements() == xType.getDimSize(1))
    os << "cuDNN updates the running variance with the unbiased variance, "
          "which expects more than one value per channel, but '"
       << xType << "' has N x spatial size 1";
  return reason;
}

/// The batch-norm policy's answer for a batch norm (none for other ops).
static std::optional<std::string>
whyBatchNormIsNotCudnn(Operation *op, const CudnnFusionPolicy &policy) {
  // Inference batch norms left after folding.
  if (isa<tcp::BatchNormOp>(op)) {
    if (policy.batchNorm == BatchNormPolicy::Codegen)
      return std::string("batch-norm=codegen: a generated kernel");
    if (policy.batchNorm == BatchNormPolicy::Auto && policy.targetSm >= 90)
      return std::string("no cuDNN engine runs a batch norm alone on sm_90 "
                         "(it is a generated kernel; after a conv it is "
                         "folded)");
    return std::nullopt;
  }
  if (!isa<tcp::BatchNormTrainingOp, tcp::BatchNormBackwardOp>(op))
    return std::nullopt;
  switch (policy.batchNorm) {
  case BatchNormPolicy::Codegen:
    return std::string("batch-norm=codegen: a generated kernel");
  case BatchNormPolicy::Auto:
    if (isInferenceBackward(op))
      return kNoInferenceBackward.str();
    return std::string("batch-norm=auto: training and backward batch norms "
                       "are generated kernels (batch-norm=cudnn makes them "
                       "cuDNN norm graphs)");
  case BatchNormPolicy::Cudnn:
    return whyCudnnBatchNormCannotTake(op);
  }
  llvm_unreachable("unknown batch-norm policy");
}

bool mlir::tcp::isCudnnRequired(Operation *op,
                                const CudnnFusionPolicy &policy) {
  return policy.batchNorm == BatchNormPolicy::Cudnn &&
         isa<tcp::BatchNormTrainingOp, tcp::BatchNormBackwardOp>(op);
}

std::string mlir::tcp::whyAnchorRunsAlone(Operation *op) {
  // Measured on an H100 with cuDNN 9.14 (benchmarks/profile_frontend.py,
  // docs/benchmarks.md): ResNet-50's first layer (7x7 stride 2, 3 input
  // channels, fp16 channels-last, batch 128) with its folded batch norm and
  // ReLU fused takes 1.6 ms on the heuristics' engine and 1.5 ms on the
  // fastest (autotuned), 0.9-2.1 ms with the input padded to 4 or 8
  // channels; cuDNN's conv-only engines have kernels for few input channels
  // that torch's conv runs in 0.2 ms.
  // A data-gradient convolution joins no pointwise op: its cuDNN graph
  // is the one PyTorch's ConvTranspose2d runs, and its bias, batch norm
  // and activation are generated kernels.
  if (isTransposedConvolution(op))
    return "a transposed convolution runs as cuDNN's data-gradient "
           "convolution alone, with no pointwise op fused";
  if (!isConvolution(op))
    return "";
  int64_t groups = getConvolutionGroupCount(op);
  auto input = cast<RankedTensorType>(op->getOperand(0).getType());
  Type element = input.getElementType();
  // Measured on an H100 with cuDNN 9.14 (cudnn-level graphs through
  // cudnn-run, docs/fusion.md): a bf16 grouped or depthwise conv alone runs
  // (eng5 depthwise, eng62 with 4 groups; NCHW and NHWC), but no engine
  // fuses a pointwise op with it (MobileNetV2 in bf16 found none).
  if (element.isBF16() && groups != 1)
    return "cuDNN runs a bf16 grouped conv (groups = " +
           std::to_string(groups) +
           ") only alone, with no pointwise op fused (cuDNN 9.14, H100); "
           "the conv runs alone";
  if (!element.isF16() && !element.isBF16())
    return "";
  int64_t channels = input.getDimSize(1);
  auto output = cast<RankedTensorType>(op->getResult(0).getType());
  if (ShapedType::isDynamic(channels) || !output.hasStaticShape())
    return "";
  int64_t perGroup = channels / groups;
  if (perGroup > kFewInputChannels ||
      output.getNumElements() < kAloneMinOutputElements)
    return "";
  std::string reason;
  llvm::raw_string_ostream os(reason);
  os << "the conv it would join has " << perGroup
     << " input channels per group (at most " << kFewInputChannels
     << ") and " << output.getNumElements()
     << " output elements, which cuDNN's fused engines run slowly (cuDNN "
        "9.14, H100); the conv runs alone";
  return reason;
}

std::string mlir::tcp::whyCudnnCannotRun(Operation *op, CudnnRole role,
                                         const CudnnFusionPolicy &policy) {
  // Where batch norms go is the batch-norm policy's alone (training and
  // backward ones under batch-norm=cudnn: what cuDNN's batch norm takes).
  if (std::optional<std::string> reason = whyBatchNormIsNotCudnn(op, policy))
    return *reason;
  std::string reason;
  llvm::raw_string_ostream os(reason);
  for (Type type : llvm::concat<Type>(op->getOperandTypes(),
                                      op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      continue; // index operands of tcp.broadcast
    Type element = tensor.getElementType();
    if (!element.isF16() && !element.isBF16() && !element.isF32()) {
      os << "unsupported element type '" << element
         << "' (cuDNN graphs here take f16, bf16, f32)";
      return reason;
    }
    if (role == CudnnRole::Anchor && element.isF32() && !policy.fuseFp32) {
      os << "fp32 anchor and fuse-fp32=false";
      return reason;
    }
  }
  // Seen on an H100 with cuDNN 9.14 (runtime/lib/graph/ExactFp32.h): every engine
  // cuDNN offers for an fp32 matmul computes in TF32, none saying so in its
  // numerical notes, so the runtime refuses fp32 matmul graphs that must be
  // exact. Such matmuls run on cuBLAS in exact fp32 (convert-tcp-to-cublas).
  if (!policy.allowTf32Matmul && isa<tcp::MatmulOp, tcp::BatchMatmulOp>(op) &&
      cast<RankedTensorType>(op->getOperand(0).getType())
          .getElementType()
          .isF32()) {
    os << "fp32 matmul and allow-tf32-matmul=false: cuDNN's fp32 matmul "
          "engines compute in TF32 (cuDNN 9.14, H100); it runs on cuBLAS";
    return reason;
  }
  // Seen on an H100 with cuDNN 9.14 (matmul_row_sum_f16 in the GPU suite):
  // no engine runs a conv/matmul whose reduction epilogue writes fp16 or
  // bf16; fp32 runs. Such reductions are generated kernels instead.
  if (role == CudnnRole::Reduction) {
    Type element =
        cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    if (element.isF16() || element.isBF16()) {
      os << "no cuDNN engine runs a reduction epilogue writing " << element
         << " (cuDNN 9.14, H100); it is a generated kernel";
      return reason;
    }
  }
  // cuDNN's layer norm normalises every dimension but the first.
  if (auto layerNorm = dyn_cast<tcp::LayerNormOp>(op)) {
    int64_t rank = layerNorm.getX().getType().getRank();
    int64_t normalized = layerNorm.getNormalizedRankAttr().getInt();
    if (normalized != rank - 1)
      os << "cuDNN's layer norm covers all dims but the first "
         << "(normalized_rank = " << rank - 1 << "), but this one has "
         << "normalized_rank = " << normalized;
  }
  // cuDNN's resample has no dilation, and ceil-mode windows are emulated
  // with more bottom/right padding, which only max pooling ignores.
  if (auto maxPool = dyn_cast<tcp::MaxPool2DOp>(op)) {
    if (llvm::any_of(maxPool.getDilationOrDefault(),
                     [](int64_t d) { return d != 1; }))
      os << "cuDNN's resample has no dilation, but this max pool has "
         << "dilation [" << maxPool.getDilationOrDefault()[0] << ", "
         << maxPool.getDilationOrDefault()[1] << "]";
  }
  if (auto avgPool = dyn_cast<tcp::AvgPool2DOp>(op);
      avgPool && ceilModeAddsWindows(avgPool))
    os << "ceil_mode average pooling counts its window like no cuDNN "
          "resample mode";
  // Seen on an H100 with cuDNN 9.14: bf16 resample graphs finalize and run
  // but return wrong maxima, NaN averages, and different results from call
  // to call (integration case codegen_pool_bf16, which now checks the
  // generated kernels instead). f16 and f32 are right.
  if (isa<tcp::MaxPool2DOp, tcp::AvgPool2DOp>(op) && reason.empty() &&
      cast<RankedTensorType>(op->getResult(0).getType())
          .getElementType()
          .isBF16())
    os << "cuDNN's bf16 resample returns wrong results (cuDNN 9.14, H100); "
          "bf16 pools are generated kernels";
  return reason;
}
