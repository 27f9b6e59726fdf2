//===- GraphDescriptionTest.cpp - writer -> parser, and parse errors ------===//

#include "cudnn-mlir-runtime/Graph.h"
#include "GraphTestUtil.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

using namespace cmrt::graph;
using namespace cmrt::graph::test;

namespace {

GraphDescription roundTrip(const GraphDescription &g) {
  std::vector<int64_t> words = serialize(g);
  GraphDescription parsed;
  Status s = parse(words.data(), static_cast<int64_t>(words.size()), parsed);
  EXPECT_TRUE(s.ok()) << s.message;
  return parsed;
}

TEST(GraphDescription, HeaderLayout) {
  std::vector<int64_t> words = serialize(convBiasRelu());
  ASSERT_GE(words.size(), 5u);
  EXPECT_EQ(words[0], kMagic);
  EXPECT_EQ(words[1], kFormatVersion);
  EXPECT_EQ(words[2], static_cast<int64_t>(words.size()));
  EXPECT_EQ(words[3], 6);
  EXPECT_EQ(words[4], 3);
  // "CMRTGRPH" in memory order on a little-endian host.
  EXPECT_EQ(std::string(reinterpret_cast<const char *>(&words[0]), 8),
            "CMRTGRPH");
}

TEST(GraphDescription, RoundTripsEveryOpKind) {
  for (OpKind kind : allKinds()) {
    GraphDescription g = singleOp(kind);
    EXPECT_EQ(roundTrip(g), g) << opKindName(kind);
    Status s = validate(g);
    EXPECT_TRUE(s.ok()) << opKindName(kind) << ": " << s.message;
  }
}

TEST(GraphDescription, RoundTripsByValueScalarsAndParams) {
  GraphDescription g = convBiasRelu();
  Tensor alpha = tensor(7, {1, 1, 1, 1});
  alpha.isByValue = true;
  alpha.scalar = doubleToWord(0.5);
  g.tensors.push_back(alpha);
  g.ops.push_back(op(OpKind::Pointwise, pointwise(PointwiseMode::Mul),
                     {6, 7}, {8}));
  g.tensors[5].isVirtual = true;
  g.tensors.push_back(tensor(8, {1, 16, 16, 16}));
  auto &relu = std::get<PointwiseAttrs>(g.ops[2].attrs);
  relu.set(PointwiseParam::ReluUpperClip, 6.0)
      .set(PointwiseParam::ReluLowerClipSlope, 0.01);
  GraphDescription parsed = roundTrip(g);
  EXPECT_EQ(parsed, g);
  EXPECT_EQ(wordToDouble(parsed.tensors[6].scalar), 0.5);
  EXPECT_EQ(wordToDouble(*std::get<PointwiseAttrs>(parsed.ops[2].attrs)
                              .get(PointwiseParam::ReluUpperClip)),
            6.0);
  Status s = validate(parsed);
  EXPECT_TRUE(s.ok()) << s.message;
}

TEST(GraphDescription, ParamsStayInCanonicalOrder) {
  PointwiseAttrs a = pointwise(PointwiseMode::ReluFwd);
  a.set(PointwiseParam::ReluUpperClip, 6.0)
      .set(PointwiseParam::ReluLowerClip, 0.0)
      .set(PointwiseParam::ReluUpperClip, 4.0);
  ASSERT_EQ(a.params.size(), 2u);
  EXPECT_EQ(a.params[0].first, 3);
  EXPECT_EQ(a.params[1].first, 4);
  EXPECT_EQ(wordToDouble(a.params[1].second), 4.0);
}

TEST(GraphDescription, CAbiAcceptsAValidDescription) {
  std::vector<int64_t> words = serialize(convBiasRelu());
  EXPECT_EQ(cmrtValidateGraphDescription(words.data(),
                                         static_cast<int64_t>(words.size())),
            CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  EXPECT_STREQ(cmrtGetLastErrorMessage(), "");
}

//===----------------------------------------------------------------------===//
// Structural errors: one case per message of the parser
//===----------------------------------------------------------------------===//

struct ParseCase {
  const char *name;
  void (*mutate)(std::vector<int64_t> &words);
  const char *expected;
};

/// Word offsets in serialize(convBiasRelu()): tensor #0 starts after the
/// header; its dims count is at +4.
constexpr size_t kT0 = kHeaderWords;

/// The first op record's offset.
size_t firstOpOffset(const std::vector<int64_t> &words) {
  size_t pos = kHeaderWords;
  for (int64_t t = 0; t < words[3]; ++t) {
    int64_t flags = words[pos + 2];
    pos += 4;
    pos += 1 + words[pos];
    pos += 1 + words[pos];
    if (flags & kFlagByValue)
      ++pos;
  }
  return pos;
}

void resize(std::vector<int64_t> &words, size_t n) {
  words.resize(n);
  words[2] = static_cast<int64_t>(n);
}

void PrintTo(const ParseCase &c, std::ostream *os) { *os << c.name; }

class ParseError : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseError, IsReportedWithItsMessage) {
  std::vector<int64_t> words = serialize(convBiasRelu());
  GetParam().mutate(words);
  GraphDescription g;
  const int64_t *data = words.empty() ? nullptr : words.data();
  Status s = parseAndValidate(data, static_cast<int64_t>(words.size()), g);
  EXPECT_EQ(s.code, CMRT_ERROR_INVALID_GRAPH);
  EXPECT_NE(s.message.find(GetParam().expected), std::string::npos)
      << s.message;
  // The C ABI reports the same message through the error path.
  EXPECT_EQ(cmrtValidateGraphDescription(data,
                                         static_cast<int64_t>(words.size())),
            CMRT_ERROR_INVALID_GRAPH);
  EXPECT_EQ(std::string(cmrtGetLastErrorMessage()), s.message);
}

const ParseCase kParseCases[] = {
    {"NullWords", [](std::vector<int64_t> &w) { w.clear(); },
     "expects a non-null word array, but got null"},
    {"ShorterThanHeader", [](std::vector<int64_t> &w) { w.resize(3); },
     "expects at least 5 words (the header), but got 3"},
    {"BadMagic", [](std::vector<int64_t> &w) { w[0] = 42; },
     "expects magic 0x4850524754524d43 (\"CMRTGRPH\"), but got "
     "0x000000000000002a"},
    {"BadVersion", [](std::vector<int64_t> &w) { w[1] = 2; },
     "expects format version 1, but got 2"},
    {"TruncatedBuffer", [](std::vector<int64_t> &w) { w.pop_back(); },
     "words (its header's word count), but got"},
    {"NegativeCounts", [](std::vector<int64_t> &w) { w[4] = -1; },
     "expects non-negative tensor and op counts, but got 6 and -1"},
    {"HugeTensorCount", [](std::vector<int64_t> &w) { w[3] = 1 << 30; },
     "is truncated: its header expects 1073741824 tensors"},
    {"TruncatedRecord",
     [](std::vector<int64_t> &w) { resize(w, firstOpOffset(w) + 3); },
     "is truncated: op #0 (conv_fprop) expects more words"},
    {"NegativeDimsCount", [](std::vector<int64_t> &w) { w[kT0 + 4] = -2; },
     "tensor #0 expects a non-negative dims count, but got -2"},
    {"UnknownFlags", [](std::vector<int64_t> &w) { w[kT0 + 2] = 4; },
     "tensor UID 1 expects flags within 0x0000000000000003, but got "
     "0x0000000000000004"},
    {"UnknownOpKind", [](std::vector<int64_t> &w) { w[firstOpOffset(w)] = 99; },
     "op #0 expects a kind in [1, 12], but got 99"},
    {"AttributeCount",
     [](std::vector<int64_t> &w) {
       // Matmul (one attribute word) given the conv's attribute list.
       w[firstOpOffset(w)] = static_cast<int64_t>(OpKind::Matmul);
     },
     "op #0 (matmul) expects 1 attribute words, but got"},
    {"TrailingWords",
     [](std::vector<int64_t> &w) {
       w.push_back(0);
       w[2] += 1;
     },
     "expects its records to end at word"},
};

INSTANTIATE_TEST_SUITE_P(
    Graph, ParseError, ::testing::ValuesIn(kParseCases),
    [](const ::testing::TestParamInfo<ParseCase> &info) {
      return std::string(info.param.name);
    });

//===----------------------------------------------------------------------===//
// Attribute encodings that only the parser can see
//===----------------------------------------------------------------------===//

std::vector<int64_t> withOneOp(OpKind kind, std::vector<int64_t> attrs) {
  std::vector<int64_t> w = {kMagic, kFormatVersion, 0, 0, 1,
                            static_cast<int64_t>(kind)};
  w.push_back(static_cast<int64_t>(attrs.size()));
  w.insert(w.end(), attrs.begin(), attrs.end());
  w.insert(w.end(), {0, 0});
  w[2] = static_cast<int64_t>(w.size());
  return w;
}

std::string parseMessage(const std::vector<int64_t> &w) {
  GraphDescription g;
  return parse(w.data(), static_cast<int64_t>(w.size()), g).message;
}

TEST(GraphDescription, NegativePointwiseParamCount) {
  EXPECT_NE(parseMessage(withOneOp(OpKind::Pointwise, {21, 0, -1}))
                .find("op #0 (pointwise) expects a non-negative parameter "
                      "count, but got -1"),
            std::string::npos);
}

TEST(GraphDescription, HasMomentumMustBeABool) {
  EXPECT_NE(parseMessage(withOneOp(OpKind::NormForward,
                                   {2, 0, 0, doubleToWord(1e-5), 7, 0}))
                .find("expects a has-momentum word of 0 or 1, but got 7"),
            std::string::npos);
}

TEST(GraphDescription, AbsentMomentumMustBeZero) {
  EXPECT_NE(parseMessage(withOneOp(OpKind::NormForward,
                                   {2, 0, 0, doubleToWord(1e-5), 0, 5}))
                .find("expects a momentum word of 0 when momentum is absent"),
            std::string::npos);
}

} // namespace
