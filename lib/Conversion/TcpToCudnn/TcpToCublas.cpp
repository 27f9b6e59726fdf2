//===- TcpToCublas.cpp - fp32 tcp matmuls to cuBLAS GEMMs -----------------===//
//
// convert-tcp-to-cublas: an fp32 matmul that no cuDNN graph took (exact
// fp32, which cuDNN cannot do, or fuse-fp32=false) runs on cuBLAS in exact
// fp32, as PyTorch eager runs it, instead of as a naive generated kernel.
// With `report`, what is still left for naive generated kernels (a
// convolution or matmul: f64, dynamic shapes, or left out of graphs) is
// one warning per function, one line per op kind and reason.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Conversion/Passes.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnDialect.h"
#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Dialect/Tcp/IR/TcpOps.h"
#include "cudnn-mlir/Dialect/Tcp/Transforms/CudnnSupportTable.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::cudnn_mlir {
#define GEN_PASS_DEF_CONVERTTCPTOCUBLASPASS
#include "cudnn-mlir/Conversion/Passes.h.inc"
} // namespace mlir::cudnn_mlir

using namespace mlir;

namespace {

bool insideGroup(Operation *op) {
  return op->getParentOfType<tcp::GroupOp>() ||
         op->getParentOfType<tcp::IsolatedGroupOp>();
}

std::string typeName(Type type) {
  std::string text;
  llvm::raw_string_ostream(text) << type;
  return text;
}

/// What keeps `op` (a matmul) off cuBLAS; empty when it can go there.
std::string whyNotCublas(Operation *op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto tensor = cast<RankedTensorType>(type);
    if (!tensor.getElementType().isF32())
      return "element type '" + typeName(tensor.getElementType()) +
             "' (cuBLAS GEMMs here take f32; cuDNN graphs f16, bf16, f32)";
    if (!tensor.hasStaticShape())
      return "dynamic shapes (cuBLAS GEMMs here take static ones)";
    if (tensor.getEncoding())
      return "a layout encoding on an operand";
  }
  return "";
}

/// Replaces `op` (a tcp.matmul or tcp.batch_matmul that whyNotCublas
/// accepts) with a cudnn.gemm.
void rewriteToGemm(RewriterBase &rewriter, Operation *op) {
  Value a = op->getOperand(0), b = op->getOperand(1);
  Value aSource = tcp::getLastDimsTransposeSource(a),
        bSource = tcp::getLastDimsTransposeSource(b);
  rewriter.setInsertionPoint(op);
  Value handle = cudnn::GetCurrentHandleOp::create(
      rewriter, op->getLoc(), cudnn::HandleType::get(op->getContext()));
  auto gemm = cudnn::GemmOp::create(
      rewriter, op->getLoc(), op->getResult(0).getType(), handle,
      aSource ? aSource : a, bSource ? bSource : b,
      /*transpose_a=*/aSource != nullptr, /*transpose_b=*/bSource != nullptr);
  rewriter.replaceOp(op, gemm.getResult());
}

template <typename OpT> struct ContractionToGemm : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    if (insideGroup(op))
      return rewriter.notifyMatchFailure(op, "inside a group");
    if (!whyNotCublas(op).empty())
      return rewriter.notifyMatchFailure(op, "not an f32 static matmul");
    rewriteToGemm(rewriter, op);
    return success();
  }
};

/// Why a convolution or matmul left for a generated kernel is there.
std::string whyGenerated(Operation *op) {
  if (isa<tcp::MatmulOp, tcp::BatchMatmulOp>(op))
    if (std::string why = whyNotCublas(op); !why.empty())
      return why;
  Type element =
      cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
  if (!element.isF16() && !element.isBF16() && !element.isF32())
    return "element type '" + typeName(element) +
           "' (cuDNN graphs take f16, bf16, f32)";
  if (element.isF32() && tcp::isConvolution(op))
    return "fp32 convolution left out of cuDNN graphs (fuse-fp32=false, or "
           "tcp-fuse-for-cudnn's report says why)";
  return "left out of cuDNN graphs (tcp-fuse-for-cudnn's report says why)";
}

/// One warning on `func` listing each (op kind, reason) still left for a
/// naive generated kernel, with its count.
void warnAboutGenerated(func::FuncOp func) {
  // ("<op name>: <reason>", how many), in the order first seen.
  SmallVector<std::pair<std::string, int>> counts;
  func.walk([&](Operation *op) {
    if (!tcp::isCudnnAnchor(op) || insideGroup(op))
      return;
    std::string what =
        (op->getName().getStringRef() + ": " + whyGenerated(op)).str();
    auto *it =
        llvm::find_if(counts, [&](const auto &c) { return c.first == what; });
    if (it == counts.end())
      counts.push_back({what, 1});
    else
      ++it->second;
  });
  if (counts.empty())
    return;
  InFlightDiagnostic warning = func.emitWarning()
                               << "convolutions and matmuls left for naive "
                                  "generated kernels (a slow last resort):";
  for (const auto &[what, count] : counts)
    warning << "\n  " << count << " x " << what;
}

struct ConvertTcpToCublasPass
    : public cudnn_mlir::impl::ConvertTcpToCublasPassBase<
          ConvertTcpToCublasPass> {
  using Base::Base;

  // Walk + rewriter, as convert-tcp-to-cudnn: each op is rewritten once.
  void runOnOperation() override {
    SmallVector<Operation *> matmuls;
    getOperation().walk([&](Operation *op) {
      if (isa<tcp::MatmulOp, tcp::BatchMatmulOp>(op) && !insideGroup(op) &&
          whyNotCublas(op).empty())
        matmuls.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : matmuls)
      rewriteToGemm(rewriter, op);
    if (report)
      warnAboutGenerated(getOperation());
  }
};

} // namespace

void mlir::cudnn_mlir::populateTcpToCublasPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ContractionToGemm<tcp::MatmulOp>,
               ContractionToGemm<tcp::BatchMatmulOp>>(patterns.getContext());
}
