//===- ManifestTest.cpp - cudnn-run's manifest parser ---------------------===//
//
// python/tests/test_manifest.py checks the Python twin with the same cases.
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"

#include <gtest/gtest.h>

using namespace cudnn_run;

namespace {

const char kGood[] = "cudnn-mlir-module 1\n"
                     "entry forward\n"
                     "arg 0 in f32 [1,64,56,56] [200704,3136,56,1]\n"
                     "arg 1 in bf16 [64,64,3,3] [576,1,192,64]\n"
                     "arg 2 in i64 [] []\n"
                     "arg 3 out f16 [1,64,56,56] [200704,1,3584,64]\n"
                     "end\n"
                     "entry other_2\n"
                     "arg 0 out i1 [0,5] [5,1]\n"
                     "end\n";

/// The error of parsing `text`, which must fail.
std::string errorOf(const std::string &text) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(text, m, error)) << text;
  return error;
}

/// A manifest with one entry holding `body` (arg lines).
std::string withBody(const std::string &body) {
  return "cudnn-mlir-module 1\nentry f\n" + body + "end\n";
}

TEST(Manifest, ParsesEntriesAndArgs) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(kGood, m, error)) << error;
  EXPECT_EQ(m.version, 1);
  ASSERT_EQ(m.entries.size(), 2u);
  const Entry &f = m.entries[0];
  EXPECT_EQ(f.name, "forward");
  ASSERT_EQ(f.args.size(), 4u);
  EXPECT_EQ(f.numInputs(), 3);
  EXPECT_EQ(f.numOutputs(), 1);
  EXPECT_EQ(f.args[0].dtype, DType::F32);
  EXPECT_EQ(f.args[0].dims, (std::vector<int64_t>{1, 64, 56, 56}));
  EXPECT_EQ(f.args[0].strides, (std::vector<int64_t>{200704, 3136, 56, 1}));
  EXPECT_EQ(f.args[0].storageElements(), 200704);
  EXPECT_EQ(f.args[1].dtype, DType::BF16);
  EXPECT_EQ(f.args[1].storageBytes(), 64 * 576 * 2);
  EXPECT_TRUE(f.args[2].dims.empty());
  EXPECT_EQ(f.args[2].numElements(), 1);
  EXPECT_EQ(f.args[2].storageElements(), 1);
  EXPECT_TRUE(f.args[3].isOutput);
  EXPECT_EQ(f.args[3].signature(),
            "out f16 [1,64,56,56] [200704,1,3584,64]");
  const Entry &o = m.entries[1];
  EXPECT_EQ(o.name, "other_2");
  EXPECT_EQ(o.args[0].dtype, DType::I1);
  EXPECT_EQ(o.args[0].storageElements(), 0);
  EXPECT_EQ(m.find("other_2"), &o);
  EXPECT_EQ(m.find("nope"), nullptr);
}

TEST(Manifest, ToleratesBlankLinesCrLfAndExtraSpaces) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest("cudnn-mlir-module 1\r\n\r\nentry  f\r\n"
                            "  arg 0\tin f64 [2] [1]  \r\nend",
                            m, error))
      << error;
  EXPECT_EQ(m.entries[0].args[0].dtype, DType::F64);
}

TEST(Manifest, EveryDType) {
  const char *names[] = {"f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64"};
  int64_t sizes[] = {2, 2, 4, 8, 1, 1, 4, 8};
  for (int i = 0; i < 8; ++i) {
    Manifest m;
    std::string error;
    ASSERT_TRUE(parseManifest(
        withBody(std::string("arg 0 in ") + names[i] + " [3] [1]\n"), m,
        error))
        << error;
    EXPECT_STREQ(dtypeName(m.entries[0].args[0].dtype), names[i]);
    EXPECT_EQ(dtypeSize(m.entries[0].args[0].dtype), sizes[i]);
  }
}

TEST(Manifest, RejectsEmpty) {
  EXPECT_EQ(errorOf(""), "expects the manifest to start with "
                         "'cudnn-mlir-module 1', but got an empty manifest");
  EXPECT_EQ(errorOf("\n\n"), errorOf(""));
}

TEST(Manifest, RejectsBadMagic) {
  EXPECT_EQ(errorOf("cudnn-mlir-modul 1\n"),
            "expects line 1 of the manifest to be 'cudnn-mlir-module "
            "<version>', but got 'cudnn-mlir-modul 1'");
  EXPECT_EQ(errorOf("cudnn-mlir-module\n"),
            "expects line 1 of the manifest to be 'cudnn-mlir-module "
            "<version>', but got 'cudnn-mlir-module'");
  EXPECT_EQ(errorOf("cudnn-mlir-module x\n"),
            "expects line 1 of the manifest to be 'cudnn-mlir-module "
            "<version>', but got 'cudnn-mlir-module x'");
  // The magic must be the first line, not after blank lines.
  EXPECT_EQ(errorOf("\ncudnn-mlir-module 1\n"),
            "expects line 2 of the manifest to be 'cudnn-mlir-module "
            "<version>', but got 'cudnn-mlir-module 1'");
}

TEST(Manifest, RejectsOtherVersions) {
  EXPECT_EQ(errorOf("cudnn-mlir-module 2\nentry f\nend\n"),
            "expects manifest format version 1, but got version 2 (the "
            "module was compiled by another cudnn-mlir; recompile it or use "
            "a matching loader)");
  EXPECT_NE(errorOf("cudnn-mlir-module 0\n").find("but got version 0"),
            std::string::npos);
}

TEST(Manifest, RejectsNoEntries) {
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\n"),
            "expects at least one entry in the manifest, but got none");
}

TEST(Manifest, RejectsBadEntryLines) {
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\narg 0 in f32 [1] [1]\n"),
            "expects line 2 of the manifest to be 'entry <name>', but got "
            "'arg 0 in f32 [1] [1]'");
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry\n"),
            "expects line 2 of the manifest to be 'entry <name>', but got "
            "'entry'");
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry a b\n"),
            "expects line 2 of the manifest to be 'entry <name>', but got "
            "'entry a b'");
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry for-ward\nend\n"),
            "expects line 2 of the manifest to name the entry with letters, "
            "digits and '_' (not starting with a digit), but got 'for-ward'");
  EXPECT_NE(errorOf("cudnn-mlir-module 1\nentry 1f\nend\n").find("'1f'"),
            std::string::npos);
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry f\nend\nentry f\nend\n"),
            "expects entry names to be unique, but got 'f' twice (line 4 of "
            "the manifest)");
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry f\nend\nend\n"),
            "expects line 4 of the manifest to be 'entry <name>', but got "
            "'end'");
}

TEST(Manifest, RejectsMissingEnd) {
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry f\narg 0 in f32 [1] [1]\n"),
            "expects 'end' to close entry 'f' (line 2), but got the end of "
            "the manifest");
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry f\nentry g\nend\n"),
            "expects line 3 of the manifest to be 'arg <index> in|out <dtype> "
            "[dims] [strides]' or 'end', but got 'entry g'");
}

TEST(Manifest, RejectsBadArgLines) {
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1]\n")),
            "expects line 3 of the manifest to be 'arg <index> in|out <dtype> "
            "[dims] [strides]' or 'end', but got 'arg 0 in f32 [1]'");
  // Lists hold no spaces.
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1, 2] [2,1]\n")),
            "expects line 3 of the manifest to be 'arg <index> in|out <dtype> "
            "[dims] [strides]' or 'end', but got 'arg 0 in f32 [1, 2] [2,1]'");
  EXPECT_EQ(errorOf(withBody("argument 0 in f32 [1] [1] x\n")),
            "expects line 3 of the manifest to be 'arg <index> in|out <dtype> "
            "[dims] [strides]' or 'end', but got 'argument 0 in f32 [1] [1] "
            "x'");
}

TEST(Manifest, RejectsBadIndex) {
  EXPECT_EQ(errorOf(withBody("arg 1 in f32 [1] [1]\n")),
            "expects line 3 of the manifest to have arg index 0, but got '1'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1] [1]\narg 0 in f32 [1] [1]\n")),
            "expects line 4 of the manifest to have arg index 1, but got '0'");
  EXPECT_EQ(errorOf(withBody("arg -0 in f32 [1] [1]\n")),
            "expects line 3 of the manifest to have arg index 0, but got "
            "'-0'");
}

TEST(Manifest, RejectsBadDirection) {
  EXPECT_EQ(errorOf(withBody("arg 0 inout f32 [1] [1]\n")),
            "expects line 3 of the manifest to say 'in' or 'out', but got "
            "'inout'");
  EXPECT_EQ(errorOf(withBody("arg 0 out f32 [1] [1]\narg 1 in f32 [1] [1]\n")),
            "expects the ins of entry 'f' before its outs, but got an in after "
            "an out (line 4 of the manifest)");
}

TEST(Manifest, RejectsBadDType) {
  EXPECT_EQ(errorOf(withBody("arg 0 in f8 [1] [1]\n")),
            "expects line 3 of the manifest to have a dtype of f16, bf16, "
            "f32, f64, i1, i8, i32 or i64, but got 'f8'");
  EXPECT_NE(errorOf(withBody("arg 0 in F32 [1] [1]\n")).find("'F32'"),
            std::string::npos);
}

TEST(Manifest, RejectsBadDims) {
  const std::string dimsError =
      "expects line 3 of the manifest to have dims as [d0,d1,...] of "
      "non-negative integers, but got ";
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1,-2] [2,1]\n")),
            dimsError + "'[1,-2]'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 1,2 [2,1]\n")), dimsError + "'1,2'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1,,2] [2,1]\n")),
            dimsError + "'[1,,2]'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1,2,] [2,1]\n")),
            dimsError + "'[1,2,]'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [x] [1]\n")), dimsError + "'[x]'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1 [1]\n")), dimsError + "'[1'");
  // 2^62 does not fit.
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [4611686018427387904] [1]\n")),
            dimsError + "'[4611686018427387904]'");
}

TEST(Manifest, RejectsBadStrides) {
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [2,3] [3,-1]\n")),
            "expects line 3 of the manifest to have strides as [s0,s1,...] of "
            "non-negative integers, but got '[3,-1]'");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [2,3] [3]\n")),
            "expects line 3 of the manifest to have one stride per dim (2), "
            "but got 1");
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [] [1]\n")),
            "expects line 3 of the manifest to have one stride per dim (0), "
            "but got 1");
}

TEST(Manifest, RejectsHugeBuffers) {
  EXPECT_EQ(errorOf(withBody("arg 0 in f32 [1073741824,1073741824] [1,1]\n")),
            "expects line 3 of the manifest to describe a buffer of fewer "
            "than 2^59 elements, but got [1073741824,1073741824] [1,1]");
  EXPECT_NE(
      errorOf(withBody("arg 0 in f32 [2] [576460752303423488]\n")).find("2^59"),
      std::string::npos);
  // Empty tensors are fine whatever the other dims.
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifest(
      withBody("arg 0 in f32 [0,1073741824,1073741824] [1,1,1]\n"), m, error))
      << error;
}

} // namespace
