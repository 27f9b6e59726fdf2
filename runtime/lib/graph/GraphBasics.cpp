//===- GraphBasics.cpp - facts every graph file shares --------------------===//
//
// Element sizes, tensor spans and how a diagnostic names an op: the leaves
// that parsing (GraphParse.cpp), validation and the dump all use, kept apart
// so that none of those files calls into another one's.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Graph.h"

using namespace cmrt::graph;

std::string cmrt::graph::describeOp(size_t index, OpKind kind) {
  return "op #" + std::to_string(index) + " (" + opKindName(kind) + ")";
}

int64_t cmrt::graph::dataTypeBytes(int64_t dataType) {
  switch (static_cast<DataType>(dataType)) {
  case DataType::Double:
  case DataType::Int64:
    return 8;
  case DataType::Float:
  case DataType::Int32:
    return 4;
  case DataType::Half:
  case DataType::BFloat16:
    return 2;
  case DataType::Int8:
  case DataType::Uint8:
  case DataType::Boolean:
  case DataType::Fp8E4M3:
  case DataType::Fp8E5M2:
    return 1;
  }
  return 0;
}

int64_t cmrt::graph::tensorSpanBytes(const Tensor &tensor) {
  int64_t lastOffset = 0;
  for (size_t i = 0; i < tensor.dims.size() && i < tensor.strides.size(); ++i)
    lastOffset += (tensor.dims[i] - 1) * tensor.strides[i];
  return (lastOffset + 1) * dataTypeBytes(tensor.dataType);
}
