//===- GraphParse.cpp - decoding the graph description -------------------===//
//
// Structure only: every read is bounds-checked so that a truncated or
// corrupted buffer yields a message, never a crash. Meaning is checked in
// GraphValidation.cpp.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "graph/GraphValidation.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

using namespace cmrt::graph;

namespace {

std::string hex(int64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%016llx",
                static_cast<unsigned long long>(value));
  return buf;
}

/// Reads words from [pos, end); `what` names the record for messages.
class Reader {
public:
  Reader(const int64_t *words, int64_t pos, int64_t end)
      : words(words), pos(pos), end(end) {}

  int64_t position() const { return pos; }
  bool atEnd() const { return pos == end; }

  Status read(int64_t &out, const std::string &what) {
    if (pos >= end)
      return truncated(what);
    out = words[pos++];
    return Status::success();
  }

  /// A count word followed by that many words.
  Status readList(std::vector<int64_t> &out, const std::string &what,
                  const char *listName) {
    int64_t n = 0;
    if (Status s = read(n, what); !s.ok())
      return s;
    if (n < 0)
      return Status::invalid(what + " expects a non-negative " + listName +
                             " count, but got " + std::to_string(n));
    if (n > end - pos)
      return truncated(what);
    out.assign(words + pos, words + pos + n);
    pos += n;
    return Status::success();
  }

private:
  Status truncated(const std::string &what) const {
    return Status::invalid("graph description is truncated: " + what +
                           " expects more words, but got only " +
                           std::to_string(end) + " in all");
  }

  const int64_t *words;
  int64_t pos;
  int64_t end;
};

Status parseHeader(const int64_t *words, int64_t count, int64_t &numTensors,
                   int64_t &numOps) {
  if (!words)
    return Status::invalid(
        "graph description expects a non-null word array, but got null");
  if (count < kHeaderWords)
    return Status::invalid("graph description expects at least " +
                           std::to_string(kHeaderWords) +
                           " words (the header), but got " +
                           std::to_string(count));
  if (words[0] != kMagic)
    return Status::invalid("graph description expects magic " + hex(kMagic) +
                           " (\"CMRTGRPH\"), but got " + hex(words[0]));
  if (words[1] != kFormatVersion)
    return Status::invalid("graph description expects format version " +
                           std::to_string(kFormatVersion) + ", but got " +
                           std::to_string(words[1]));
  if (words[2] != count)
    return Status::invalid("graph description expects " +
                           std::to_string(words[2]) +
                           " words (its header's word count), but got " +
                           std::to_string(count));
  numTensors = words[3];
  numOps = words[4];
  if (numTensors < 0 || numOps < 0)
    return Status::invalid(
        "graph description expects non-negative tensor and op counts, but "
        "got " + std::to_string(numTensors) + " and " +
        std::to_string(numOps));
  return Status::success();
}

Status parseTensor(Reader &r, int64_t index, Tensor &t) {
  std::string what = "tensor #" + std::to_string(index);
  int64_t flags = 0;
  CMRT_TRY(r.read(t.uid, what));
  CMRT_TRY(r.read(t.dataType, what));
  CMRT_TRY(r.read(flags, what));
  CMRT_TRY(r.read(t.alignment, what));
  if (flags & ~kKnownFlags)
    return Status::invalid("tensor UID " + std::to_string(t.uid) +
                           " expects flags within " + hex(kKnownFlags) +
                           ", but got " + hex(flags));
  t.isVirtual = flags & kFlagVirtual;
  t.isByValue = flags & kFlagByValue;
  CMRT_TRY(r.readList(t.dims, what, "dims"));
  CMRT_TRY(r.readList(t.strides, what, "strides"));
  t.scalar = 0;
  if (t.isByValue)
    CMRT_TRY(r.read(t.scalar, what));
  return Status::success();
}

//===----------------------------------------------------------------------===//
// Op attributes, one decoder per attribute struct
//===----------------------------------------------------------------------===//

Status readDouble(Reader &r, double &out, const std::string &what) {
  int64_t word = 0;
  CMRT_TRY(r.read(word, what));
  out = wordToDouble(word);
  return Status::success();
}

Status decode(Reader &r, const std::string &what, ConvAttrs &a) {
  CMRT_TRY(r.read(a.computeType, what));
  CMRT_TRY(r.read(a.mode, what));
  CMRT_TRY(readDouble(r, a.alpha, what));
  CMRT_TRY(readDouble(r, a.beta, what));
  CMRT_TRY(r.read(a.spatialDims, what));
  CMRT_TRY(r.readList(a.stride, what, "stride"));
  CMRT_TRY(r.readList(a.prePadding, what, "pre_padding"));
  CMRT_TRY(r.readList(a.postPadding, what, "post_padding"));
  return r.readList(a.dilation, what, "dilation");
}

Status decode(Reader &r, const std::string &what, MatmulAttrs &a) {
  return r.read(a.computeType, what);
}

Status decode(Reader &r, const std::string &what, PointwiseAttrs &a) {
  int64_t n = 0;
  CMRT_TRY(r.read(a.mode, what));
  CMRT_TRY(r.read(a.computeType, what));
  CMRT_TRY(r.read(n, what));
  if (n < 0)
    return Status::invalid(what + " expects a non-negative parameter count, "
                                  "but got " + std::to_string(n));
  a.params.clear();
  for (int64_t i = 0; i < n; ++i) {
    int64_t key = 0, value = 0;
    CMRT_TRY(r.read(key, what));
    CMRT_TRY(r.read(value, what));
    a.params.emplace_back(key, value);
  }
  return Status::success();
}

Status decode(Reader &r, const std::string &what, ReductionAttrs &a) {
  CMRT_TRY(r.read(a.mode, what));
  return r.read(a.computeType, what);
}

Status decode(Reader &r, const std::string &what, NormForwardAttrs &a) {
  int64_t hasMomentum = 0, momentum = 0;
  CMRT_TRY(r.read(a.mode, what));
  CMRT_TRY(r.read(a.phase, what));
  CMRT_TRY(r.read(a.computeType, what));
  CMRT_TRY(readDouble(r, a.epsilon, what));
  CMRT_TRY(r.read(hasMomentum, what));
  CMRT_TRY(r.read(momentum, what));
  // One encoding per graph, so that equal graphs hash equal.
  if (hasMomentum != 0 && hasMomentum != 1)
    return Status::invalid(what + " expects a has-momentum word of 0 or 1, "
                                  "but got " + std::to_string(hasMomentum));
  if (!hasMomentum && momentum != 0)
    return Status::invalid(what + " expects a momentum word of 0 when "
                                  "momentum is absent, but got " +
                           hex(momentum));
  a.momentum.reset();
  if (hasMomentum)
    a.momentum = wordToDouble(momentum);
  return Status::success();
}

Status decode(Reader &r, const std::string &what, NormBackwardAttrs &a) {
  CMRT_TRY(r.read(a.mode, what));
  return r.read(a.computeType, what);
}

Status decode(Reader &r, const std::string &what, GenStatsAttrs &a) {
  return r.read(a.computeType, what);
}

Status decode(Reader &r, const std::string &what, BnFinalizeAttrs &a) {
  CMRT_TRY(r.read(a.computeType, what));
  CMRT_TRY(readDouble(r, a.epsilon, what));
  CMRT_TRY(readDouble(r, a.momentum, what));
  return r.read(a.accumulationCount, what);
}

Status decode(Reader &r, const std::string &what, SdpaAttrs &a) {
  CMRT_TRY(r.read(a.computeType, what));
  return readDouble(r, a.scale, what);
}

Status decode(Reader &r, const std::string &what, ResampleAttrs &a) {
  CMRT_TRY(r.read(a.mode, what));
  CMRT_TRY(r.read(a.computeType, what));
  CMRT_TRY(r.read(a.spatialDims, what));
  CMRT_TRY(r.readList(a.window, what, "window"));
  CMRT_TRY(r.readList(a.stride, what, "stride"));
  CMRT_TRY(r.readList(a.prePadding, what, "pre_padding"));
  return r.readList(a.postPadding, what, "post_padding");
}

Status parseAttrs(const std::vector<int64_t> &words, const std::string &what,
                  OpAttrs &attrs) {
  Reader r(words.data(), 0, static_cast<int64_t>(words.size()));
  CMRT_TRY(std::visit([&](auto &a) { return decode(r, what, a); }, attrs));
  if (!r.atEnd())
    return Status::invalid(what + " expects " +
                           std::to_string(r.position()) +
                           " attribute words, but got " +
                           std::to_string(words.size()));
  return Status::success();
}

Status parseOp(Reader &r, int64_t index, Op &op) {
  std::string what = "op #" + std::to_string(index);
  int64_t kind = 0;
  CMRT_TRY(r.read(kind, what));
  if (!detail::defaultAttrsFor(kind, op.attrs)) {
    auto [first, last] = std::minmax_element(std::begin(kOpKindValues),
                                             std::end(kOpKindValues));
    return Status::invalid(what + " expects a kind in [" +
                           std::to_string(*first) + ", " +
                           std::to_string(*last) + "], but got " +
                           std::to_string(kind));
  }
  op.kind = static_cast<OpKind>(kind);
  what = describeOp(index, op.kind);
  std::vector<int64_t> attrWords;
  CMRT_TRY(r.readList(attrWords, what, "attribute"));
  CMRT_TRY(parseAttrs(attrWords, what, op.attrs));
  CMRT_TRY(r.readList(op.inputs, what, "input"));
  return r.readList(op.outputs, what, "output");
}

} // namespace

Status cmrt::graph::parse(const int64_t *words, int64_t count,
                          GraphDescription &out) {
  int64_t numTensors = 0, numOps = 0;
  CMRT_TRY(parseHeader(words, count, numTensors, numOps));
  Reader r(words, kHeaderWords, count);
  out = GraphDescription{};
  // Each record takes several words, so a count beyond the buffer is a
  // truncation, caught before it can drive a huge allocation.
  if (numTensors > count || numOps > count)
    return Status::invalid("graph description is truncated: its header "
                           "expects " + std::to_string(numTensors) +
                           " tensors and " + std::to_string(numOps) +
                           " ops, but got only " + std::to_string(count) +
                           " words in all");
  out.tensors.resize(numTensors);
  for (int64_t i = 0; i < numTensors; ++i)
    CMRT_TRY(parseTensor(r, i, out.tensors[i]));
  out.ops.resize(numOps);
  for (int64_t i = 0; i < numOps; ++i)
    CMRT_TRY(parseOp(r, i, out.ops[i]));
  if (!r.atEnd())
    return Status::invalid("graph description expects its records to end at "
                           "word " + std::to_string(count) +
                           " (the header's word count), but they end at "
                           "word " + std::to_string(r.position()));
  return Status::success();
}
