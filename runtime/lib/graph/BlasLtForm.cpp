//===- BlasLtForm.cpp - a matmul graph as one cuBLASLt call ---------------===//

#include "graph/BlasLtForm.h"
#include "cudnn-mlir-runtime/Graph.h"

#include <cstdio>

using namespace cmrt::graph;

namespace {

const Tensor *findTensor(const GraphDescription &g, int64_t uid) {
  for (const Tensor &t : g.tensors)
    if (t.uid == uid)
      return &t;
  return nullptr;
}

/// The one op that reads `uid`, or null (none, or more than one).
const Op *soleConsumer(const GraphDescription &g, int64_t uid) {
  const Op *found = nullptr;
  for (const Op &op : g.ops)
    for (int64_t in : op.inputs)
      if (in == uid) {
        if (found)
          return nullptr;
        found = &op;
      }
  return found;
}

bool isHalfLike(int64_t type) {
  return type == static_cast<int64_t>(DataType::Half) ||
         type == static_cast<int64_t>(DataType::BFloat16);
}

int64_t product(const std::vector<int64_t> &v, size_t end) {
  int64_t p = 1;
  for (size_t i = 0; i < end; ++i)
    p *= v[i];
  return p;
}

/// The matrix of `t` over its last two dims, with the batch dims (all but
/// those two) flattened into one batch of `batch` (the output's), or false
/// with `whyNot`. A tensor whose batch dims are all 1 is one matrix for the
/// whole batch (batch stride 0); otherwise its batch dims must equal the
/// output's and lie at one stride from each other.
bool matrixOf(const Tensor &t, const char *name,
              const std::vector<int64_t> &outDims, LtMatrix &out,
              std::string &whyNot) {
  size_t rank = t.dims.size();
  size_t rows = rank - 2, cols = rank - 1;
  out.uid = t.uid;
  out.dataType = t.dataType;
  out.alignment = t.alignment;
  out.rows = t.dims[rows];
  out.cols = t.dims[cols];
  if (t.strides[cols] == 1 && (t.strides[rows] >= out.cols || out.rows == 1)) {
    out.columnMajor = false;
    out.ld = std::max(t.strides[rows], out.cols);
  } else if (t.strides[rows] == 1 &&
             (t.strides[cols] >= out.rows || out.cols == 1)) {
    out.columnMajor = true;
    out.ld = std::max(t.strides[cols], out.rows);
  } else {
    whyNot = std::string(name) + " has neither its rows nor its columns "
                                 "contiguous";
    return false;
  }
  if (product(t.dims, rows) == 1) {
    out.batchStride = 0;
    return true;
  }
  for (size_t i = 0; i < rows; ++i)
    if (t.dims[i] != outDims[i]) {
      whyNot = std::string(name) + " broadcasts some batch dims only";
      return false;
    }
  // The innermost batch dim of size > 1 gives the stride; every outer one
  // must sit at that stride times the sizes in between.
  int64_t stride = 0, span = 1;
  for (size_t i = rows; i-- > 0;) {
    if (t.dims[i] == 1)
      continue;
    if (stride == 0)
      stride = t.strides[i];
    else if (t.strides[i] != stride * span) {
      whyNot = std::string(name) + "'s batch dims are not evenly strided";
      return false;
    }
    span *= t.dims[i];
  }
  out.batchStride = stride;
  return true;
}

bool isScalar(const Tensor *t) {
  return t && t->isByValue &&
         (t->dataType == static_cast<int64_t>(DataType::Float) ||
          t->dataType == static_cast<int64_t>(DataType::Double) ||
          isHalfLike(t->dataType));
}

bool plainRelu(const PointwiseAttrs &p) {
  for (const auto &[key, word] : p.params) {
    if (key == static_cast<int64_t>(PointwiseParam::ReluLowerClip) &&
        wordToDouble(word) == 0.0)
      continue;
    return false;
  }
  return true;
}

} // namespace

bool cmrt::graph::blasLtFormOf(const GraphDescription &g, BlasLtForm &form,
                               std::string &whyNot) {
  form = BlasLtForm();
  const Op *matmul = nullptr;
  for (const Op &op : g.ops) {
    if (op.kind == OpKind::Matmul) {
      if (matmul) {
        whyNot = "more than one matmul";
        return false;
      }
      matmul = &op;
    } else if (op.kind != OpKind::Pointwise) {
      whyNot = std::string("a ") + opKindName(op.kind) + " op";
      return false;
    }
  }
  if (!matmul) {
    whyNot = "no matmul";
    return false;
  }
  if (std::get<MatmulAttrs>(matmul->attrs).computeType !=
      static_cast<int64_t>(DataType::Float)) {
    whyNot = "a matmul whose compute type is not float";
    return false;
  }
  const Tensor *a = findTensor(g, matmul->inputs[0]);
  const Tensor *b = findTensor(g, matmul->inputs[1]);
  if (!a || !b || a->isVirtual || b->isVirtual) {
    whyNot = "a matmul operand computed in the graph";
    return false;
  }
  if (!isHalfLike(a->dataType) || a->dataType != b->dataType) {
    whyNot = "matmul operands not both f16 or both bf16";
    return false;
  }

  // Walk the chain after the matmul, in the order the epilogue applies.
  enum Stage { Scale, Bias, Activation, Cast, Done };
  Stage stage = Scale;
  int64_t current = matmul->outputs[0];
  const Tensor *bias = nullptr;
  size_t used = 1;
  while (true) {
    const Tensor *t = findTensor(g, current);
    if (!t->isVirtual)
      break;
    const Op *next = soleConsumer(g, current);
    if (!next || next->kind != OpKind::Pointwise) {
      whyNot = "an intermediate value used other than by one pointwise op";
      return false;
    }
    const auto &p = std::get<PointwiseAttrs>(next->attrs);
    auto mode = static_cast<PointwiseMode>(p.mode);
    int64_t other = 0;
    if (next->inputs.size() == 2)
      other = next->inputs[0] == current ? next->inputs[1] : next->inputs[0];
    const Tensor *o = other ? findTensor(g, other) : nullptr;
    ++used;
    if ((mode == PointwiseMode::Mul ||
         (mode == PointwiseMode::Div && next->inputs[0] == current)) &&
        stage <= Scale && isScalar(o)) {
      double s = wordToDouble(o->scalar); // floating-point: a double's bits
      form.alpha = mode == PointwiseMode::Mul ? form.alpha * s : form.alpha / s;
      stage = Bias;
    } else if (mode == PointwiseMode::Add && stage <= Bias && o &&
               !o->isVirtual && !o->isByValue) {
      bias = o;
      stage = Activation;
    } else if (mode == PointwiseMode::ReluFwd && stage <= Activation &&
               plainRelu(p)) {
      form.activation = LtActivation::Relu;
      stage = Cast;
    } else if (mode == PointwiseMode::GeluApproxTanhFwd &&
               stage <= Activation && p.params.empty()) {
      form.activation = LtActivation::GeluTanh;
      stage = Cast;
    } else if (mode == PointwiseMode::Identity && stage <= Cast) {
      stage = Done;
    } else {
      whyNot = "a " + pointwiseModeName(p.mode) +
               " cuBLASLt's epilogue does not have";
      return false;
    }
    current = next->outputs[0];
  }
  if (used != g.ops.size()) {
    whyNot = "ops outside the matmul's chain";
    return false;
  }
  const Tensor *d = findTensor(g, current);
  if (soleConsumer(g, current)) {
    whyNot = "an output that the graph reads again";
    return false;
  }
  if (d->dataType != a->dataType &&
      d->dataType != static_cast<int64_t>(DataType::Float)) {
    whyNot = "an output of type " + dataTypeName(d->dataType);
    return false;
  }

  size_t rank = d->dims.size();
  if (d->dims != findTensor(g, matmul->outputs[0])->dims) {
    whyNot = "an epilogue that broadcasts the product";
    return false;
  }
  if (!matrixOf(*a, "a", d->dims, form.a, whyNot) ||
      !matrixOf(*b, "b", d->dims, form.b, whyNot) ||
      !matrixOf(*d, "the output", d->dims, form.d, whyNot))
    return false;
  // cuBLASLt writes the output row-major; a single column is row-major at
  // any row stride, and a row-major output already has its ld.
  if (form.d.columnMajor) {
    if (form.d.cols > 1) {
      whyNot = "an output whose rows are not contiguous";
      return false;
    }
    form.d.columnMajor = false;
    form.d.ld = std::max<int64_t>(d->strides[rank - 2], 1);
  }
  if (form.d.batchStride == 0 && product(d->dims, rank - 2) > 1) {
    whyNot = "an output that repeats over the batch";
    return false;
  }
  form.m = a->dims[rank - 2];
  form.k = a->dims[rank - 1];
  form.n = b->dims[rank - 1];
  form.batch = product(d->dims, rank - 2);

  if (bias) {
    for (size_t i = 0; i + 1 < rank; ++i)
      if (bias->dims[i] != 1) {
        whyNot = "an add whose operand is not one value per column";
        return false;
      }
    if (bias->dataType != d->dataType) {
      whyNot = "a bias of type " + dataTypeName(bias->dataType) +
               " for an output of type " + dataTypeName(d->dataType);
      return false;
    }
    if (bias->dims[rank - 1] != form.n || bias->strides[rank - 1] != 1) {
      whyNot = "a bias that is not contiguous along the columns";
      return false;
    }
    form.biasUid = bias->uid;
    form.biasAlignment = bias->alignment;
  }

  // One GEMM for a batch of row-major matrices lying end to end against a
  // shared B: the rows of every batch are rows of one larger A and D.
  if (form.batch > 1 && form.b.batchStride == 0 && !form.a.columnMajor &&
      form.a.batchStride == form.m * form.a.ld &&
      form.d.batchStride == form.m * form.d.ld) {
    form.m *= form.batch;
    form.batch = 1;
    form.a.rows = form.d.rows = form.m;
    form.a.batchStride = form.d.batchStride = 0;
  }
  return true;
}

std::string cmrt::graph::describeBlasLtForm(const BlasLtForm &f) {
  char head[160];
  std::snprintf(head, sizeof(head), "matmul %lldx%lldx%lld (x%lld) %s",
                static_cast<long long>(f.m), static_cast<long long>(f.n),
                static_cast<long long>(f.k), static_cast<long long>(f.batch),
                dataTypeName(f.a.dataType).c_str());
  std::string text = head;
  if (f.alpha != 1.0)
    text += " * " + std::to_string(f.alpha);
  if (f.biasUid)
    text += " + bias";
  if (f.activation == LtActivation::Relu)
    text += " + relu";
  else if (f.activation == LtActivation::GeluTanh)
    text += " + gelu_tanh";
  if (f.d.dataType != f.a.dataType)
    text += " -> " + dataTypeName(f.d.dataType);
  return text;
}
