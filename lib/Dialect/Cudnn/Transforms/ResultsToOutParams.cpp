//===- ResultsToOutParams.cpp - cudnn-results-to-out-params ---------------===//
//
// Destination passing at function boundaries: each memref result becomes an
// argument the caller provides (marked `bufferize.result`), and the buffer
// that held the result is replaced by that argument when the function
// allocated it itself (a graph then writes straight into the caller's
// buffer), or copied into it otherwise. Unlike upstream's
// buffer-results-to-out-params it keeps static strided layouts, so a
// channels-last result stays a channels-last output.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::cudnn {
#define GEN_PASS_DEF_CUDNNRESULTSTOOUTPARAMSPASS
#include "cudnn-mlir/Dialect/Cudnn/Transforms/Passes.h.inc"
} // namespace mlir::cudnn

using namespace mlir;

namespace {

constexpr StringLiteral kResultAttr = "bufferize.result";

bool isStaticBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && cudnn_mlir::getStaticLayout(memref);
}

/// The alloc `value` comes from, if the function may hand it to the caller
/// instead: allocated in this function and returned only at `index`.
memref::AllocOp ownAllocation(Value value, func::ReturnOp ret, unsigned index) {
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return {};
  for (OpOperand &use : alloc->getUses())
    if (use.getOwner() == ret.getOperation() && use.getOperandNumber() != index)
      return {};
  return alloc;
}

LogicalResult convertFunction(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() == 0)
    return success();
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    if (!isStaticBuffer(result))
      return func.emitError("expects results to be memrefs of static shape "
                            "and strides, but result #")
             << i << " is " << result;
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  if (!func.isExternal() && returns.size() != 1)
    return func.emitError("expects one return, but got ") << returns.size();

  unsigned firstOut = type.getNumInputs();
  SmallVector<Type> inputs(type.getInputs());
  inputs.append(type.getResults().begin(), type.getResults().end());
  func.setType(FunctionType::get(func.getContext(), inputs, {}));
  func.setAllResultAttrs(ArrayRef<DictionaryAttr>{});
  for (unsigned i = 0; i < type.getNumResults(); ++i)
    func.setArgAttr(firstOut + i, kResultAttr,
                    UnitAttr::get(func.getContext()));
  if (func.isExternal())
    return success();

  Block &entry = func.getBody().front();
  func::ReturnOp ret = returns.front();
  OpBuilder b(ret);
  for (auto [i, resultType] : llvm::enumerate(type.getResults())) {
    BlockArgument out = entry.addArgument(resultType, func.getLoc());
    Value value = ret.getOperand(i);
    if (memref::AllocOp alloc = ownAllocation(value, ret, i);
        alloc && alloc.getType() == resultType) {
      alloc.getResult().replaceAllUsesWith(out);
      alloc.erase();
    } else {
      memref::CopyOp::create(b, ret.getLoc(), value, out);
    }
  }
  func::ReturnOp::create(b, ret.getLoc());
  ret.erase();
  return success();
}

LogicalResult convertCall(func::CallOp call) {
  OpBuilder b(call);
  SmallVector<Value> operands(call.getOperands());
  SmallVector<Value> outs;
  for (Type type : call.getResultTypes()) {
    Value alloc =
        memref::AllocOp::create(b, call.getLoc(), cast<MemRefType>(type));
    outs.push_back(alloc);
    operands.push_back(alloc);
  }
  func::CallOp::create(b, call.getLoc(), call.getCallee(), TypeRange{},
                       operands);
  call.replaceAllUsesWith(outs);
  call.erase();
  return success();
}

struct CudnnResultsToOutParamsPass
    : public cudnn::impl::CudnnResultsToOutParamsPassBase<
          CudnnResultsToOutParamsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringSet<> converted;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.getNumResults() == 0)
        continue;
      if (failed(convertFunction(func)))
        return signalPassFailure();
      converted.insert(func.getSymName());
    }
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (converted.contains(call.getCallee()))
        calls.push_back(call);
    });
    for (func::CallOp call : calls)
      if (failed(convertCall(call)))
        return signalPassFailure();
  }
};

} // namespace
