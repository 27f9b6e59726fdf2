//===- CudnnBlasOps.cpp - verifiers of the ops that run on cuBLAS ---------===//
//
// cudnn.gemm and cudnn.execute_gemm share their rules (CudnnBlasOps.td):
//   C1 a, b and c are f32;
//   C2 they have one rank, at least 2, and static shapes;
//   C3 tensors carry no layout encoding, buffers have the identity layout
//      (row-major, what cuBLAS's leading dimensions describe);
//   C4 a's and b's batch dims equal c's;
//   C5 a's k (after transpose_a) equals b's k (after transpose_b);
//   C6 c is m x n.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir/Dialect/Cudnn/IR/CudnnOps.h"
#include "cudnn-mlir/Support/ShapeUtils.h"

using namespace mlir;
using namespace mlir::cudnn;
using mlir::cudnn_mlir::formatShape;

namespace {

/// The (rows, cols) of `shape`'s matrix as the product reads it.
std::pair<int64_t, int64_t> matrixOf(ArrayRef<int64_t> shape, bool transposed) {
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  return transposed ? std::make_pair(cols, rows) : std::make_pair(rows, cols);
}

/// C3: a packed tensor or a row-major buffer.
LogicalResult checkRowMajor(Operation *op, StringRef name, ShapedType type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (tensor.getEncoding())
      return op->emitOpError("expects ")
             << name << " without a layout encoding (packed), but got " << type;
    return success();
  }
  if (!cast<MemRefType>(type).getLayout().isIdentity())
    return op->emitOpError("expects ")
           << name << " with the identity layout (row-major), but got " << type;
  return success();
}

LogicalResult verifyGemm(Operation *op, ShapedType a, ShapedType b,
                         ShapedType c, bool transposeA, bool transposeB) {
  if (!a.getElementType().isF32() || !b.getElementType().isF32() ||
      !c.getElementType().isF32())
    return op->emitOpError("expects f32 a, b and c, but got ")
           << a.getElementType() << ", " << b.getElementType() << " and "
           << c.getElementType();
  if (a.getRank() < 2 || a.getRank() != b.getRank() ||
      a.getRank() != c.getRank())
    return op->emitOpError("expects a, b and c of one rank >= 2, but got ")
           << a.getRank() << ", " << b.getRank() << " and " << c.getRank();
  for (auto [name, type] :
       {std::pair<StringRef, ShapedType>{"a", a}, {"b", b}, {"c", c}}) {
    if (!type.hasStaticShape())
      return op->emitOpError("expects static shapes, but got ")
             << name << " of shape " << formatShape(type.getShape());
    if (failed(checkRowMajor(op, name, type)))
      return failure();
  }
  ArrayRef<int64_t> batch = c.getShape().drop_back(2);
  for (auto [name, type] : {std::pair<StringRef, ShapedType>{"a", a}, {"b", b}})
    if (type.getShape().drop_back(2) != batch)
      return op->emitOpError("expects ")
             << name << "'s batch dims to be c's " << formatShape(batch)
             << ", but got " << formatShape(type.getShape().drop_back(2));
  auto [m, kA] = matrixOf(a.getShape(), transposeA);
  auto [kB, n] = matrixOf(b.getShape(), transposeB);
  if (kA != kB)
    return op->emitOpError("expects a's k (its ")
           << (transposeA ? "second-to-last" : "last")
           << " dim) to equal b's k (its "
           << (transposeB ? "last" : "second-to-last") << " dim), but got "
           << kA << " and " << kB;
  if (c.getShape().take_back(2) != ArrayRef<int64_t>{m, n})
    return op->emitOpError("expects c's matrix to be m x n = ")
           << formatShape({m, n}) << ", but got "
           << formatShape(c.getShape().take_back(2));
  return success();
}

} // namespace

LogicalResult GemmOp::verify() {
  return verifyGemm(*this, getA().getType(), getB().getType(), getC().getType(),
                    getTransposeA(), getTransposeB());
}

LogicalResult ExecuteGemmOp::verify() {
  return verifyGemm(*this, getA().getType(), getB().getType(), getC().getType(),
                    getTransposeA(), getTransposeB());
}

void ExecuteGemmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getAMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getBMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getCMutable(),
                       SideEffects::DefaultResource::get());
}
