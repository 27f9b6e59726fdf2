//===- GemmShape.cpp - a row-major GEMM as cuBLAS's column-major call -----===//

#include "blas/GemmShape.h"

#include <climits>
#include <string>

using namespace cmrt;
using namespace cmrt::blas;

namespace {

graph::Status invalid(const std::string &what, int64_t wanted,
                      const char *relation, int64_t got) {
  return {CMRT_ERROR_INVALID_ARGUMENT,
          "cmrtInvocationGemm expects " + what + " " + relation + " " +
              std::to_string(wanted) + ", but got " + std::to_string(got)};
}

/// The first size, leading dimension or stride of `g` out of range.
graph::Status checkArguments(const RowMajorGemm &g) {
  const struct {
    const char *name;
    int64_t value;
  } sizes[] = {{"m", g.m}, {"n", g.n}, {"k", g.k}, {"batch", g.batch}};
  for (const auto &size : sizes) {
    if (size.value < 1)
      return invalid(size.name, 1, ">=", size.value);
    if (size.value > INT_MAX)
      return invalid(size.name, INT_MAX, "<=", size.value);
  }
  // A stored row: op(A)'s k columns, or with transA A's transpose's m.
  const struct {
    const char *name;
    int64_t value, row;
  } lds[] = {{"lda (a stored row of A)", g.lda, g.transA ? g.m : g.k},
             {"ldb (a stored row of B)", g.ldb, g.transB ? g.k : g.n},
             {"ldc (a row of C)", g.ldc, g.n}};
  for (const auto &ld : lds) {
    if (ld.value < ld.row)
      return invalid(ld.name, ld.row, ">=", ld.value);
    if (ld.value > INT_MAX)
      return invalid(ld.name, INT_MAX, "<=", ld.value);
  }
  const struct {
    const char *name;
    int64_t value;
  } strides[] = {
      {"strideA", g.strideA}, {"strideB", g.strideB}, {"strideC", g.strideC}};
  for (const auto &stride : strides)
    if (stride.value < 0)
      return invalid(stride.name, 0, ">=", stride.value);
  // Every C of the batch must be its own memory.
  if (g.batch > 1 && g.strideC < g.m * g.ldc)
    return invalid("strideC (one C apart)", g.m * g.ldc, ">=", g.strideC);
  return graph::Status::success();
}

} // namespace

graph::Status cmrt::blas::toColumnMajor(const RowMajorGemm &g,
                                        ColumnMajorGemm &out) {
  if (graph::Status s = checkArguments(g); !s.ok())
    return s;
  out.transFirst = g.transB;
  out.transSecond = g.transA;
  out.m = static_cast<int>(g.n);
  out.n = static_cast<int>(g.m);
  out.k = static_cast<int>(g.k);
  out.ldFirst = static_cast<int>(g.ldb);
  out.strideFirst = g.strideB;
  out.ldSecond = static_cast<int>(g.lda);
  out.strideSecond = g.strideA;
  out.ldc = static_cast<int>(g.ldc);
  out.strideC = g.strideC;
  out.batch = static_cast<int>(g.batch);
  return graph::Status::success();
}
