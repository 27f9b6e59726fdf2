//===- ManifestTest.cpp - the manifest parser, through its C ABI ----------===//
//
// cmrtManifestParse and its accessors, as cudnn-run and the Python loader
// call them. python/tests/test_manifest.py runs the same cases through the
// Python package (ctypes), expecting the same messages.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

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

std::string lastError() { return cmrtGetLastErrorMessage(); }

/// A parsed manifest, destroyed with the test's scope.
struct Parsed {
  cmrtManifest manifest = nullptr;
  cmrtStatus status;

  explicit Parsed(const std::string &text)
      : status(cmrtManifestParse(text.data(), static_cast<int64_t>(text.size()),
                                 &manifest)) {}
  ~Parsed() { cmrtManifestDestroy(manifest); }
};

/// The error of parsing `text`, which must fail.
std::string errorOf(const std::string &text) {
  Parsed parsed(text);
  EXPECT_EQ(parsed.status, CMRT_ERROR_INVALID_ARGUMENT) << text;
  EXPECT_EQ(parsed.manifest, nullptr);
  return lastError();
}

/// Arg `arg` of entry `entry`, which must exist.
cmrtManifestArg argOf(cmrtManifest m, int64_t entry, int64_t arg) {
  cmrtManifestArg out;
  std::memset(&out, 0, sizeof(out));
  EXPECT_EQ(cmrtManifestGetArg(m, entry, arg, &out), CMRT_SUCCESS)
      << lastError();
  return out;
}

std::vector<int64_t> dimsOf(const cmrtManifestArg &arg) {
  return std::vector<int64_t>(arg.dims, arg.dims + arg.rank);
}

std::vector<int64_t> stridesOf(const cmrtManifestArg &arg) {
  return std::vector<int64_t>(arg.strides, arg.strides + arg.rank);
}

std::string entryName(cmrtManifest m, int64_t entry) {
  const char *name = nullptr;
  EXPECT_EQ(cmrtManifestGetEntryName(m, entry, &name), CMRT_SUCCESS)
      << lastError();
  return name ? name : "";
}

int64_t argCount(cmrtManifest m, int64_t entry) {
  int64_t count = -1;
  EXPECT_EQ(cmrtManifestGetArgCount(m, entry, &count), CMRT_SUCCESS)
      << lastError();
  return count;
}

/// A manifest with one entry holding `body` (arg lines).
std::string withBody(const std::string &body) {
  return "cudnn-mlir-module 1\nentry f\n" + body + "end\n";
}

TEST(Manifest, ParsesEntriesAndArgs) {
  Parsed parsed(kGood);
  ASSERT_EQ(parsed.status, CMRT_SUCCESS) << lastError();
  EXPECT_EQ(lastError(), "");
  cmrtManifest m = parsed.manifest;
  int64_t version = 0, entries = 0;
  ASSERT_EQ(cmrtManifestGetVersion(m, &version), CMRT_SUCCESS);
  EXPECT_EQ(version, 1);
  ASSERT_EQ(cmrtManifestGetEntryCount(m, &entries), CMRT_SUCCESS);
  ASSERT_EQ(entries, 2);
  EXPECT_EQ(entryName(m, 0), "forward");
  ASSERT_EQ(argCount(m, 0), 4);
  cmrtManifestArg a0 = argOf(m, 0, 0);
  EXPECT_EQ(a0.index, 0);
  EXPECT_EQ(a0.isOutput, 0);
  EXPECT_EQ(a0.dtype, CMRT_MANIFEST_F32);
  EXPECT_STREQ(a0.dtypeName, "f32");
  EXPECT_EQ(a0.elementBytes, 4);
  EXPECT_EQ(dimsOf(a0), (std::vector<int64_t>{1, 64, 56, 56}));
  EXPECT_EQ(stridesOf(a0), (std::vector<int64_t>{200704, 3136, 56, 1}));
  cmrtManifestArg a1 = argOf(m, 0, 1);
  EXPECT_EQ(a1.dtype, CMRT_MANIFEST_BF16);
  EXPECT_EQ(a1.elementBytes, 2);
  EXPECT_EQ(stridesOf(a1), (std::vector<int64_t>{576, 1, 192, 64}));
  EXPECT_EQ(argOf(m, 0, 2).rank, 0);
  cmrtManifestArg a3 = argOf(m, 0, 3);
  EXPECT_EQ(a3.index, 3);
  EXPECT_EQ(a3.isOutput, 1);
  EXPECT_STREQ(a3.dtypeName, "f16");
  EXPECT_EQ(entryName(m, 1), "other_2");
  ASSERT_EQ(argCount(m, 1), 1);
  cmrtManifestArg o = argOf(m, 1, 0);
  EXPECT_EQ(o.dtype, CMRT_MANIFEST_I1);
  EXPECT_EQ(o.elementBytes, 1);
  EXPECT_EQ(dimsOf(o), (std::vector<int64_t>{0, 5}));
}

TEST(Manifest, ReadsLengthBytesWithoutANul) {
  // The text ends at `length`: what follows is not read.
  std::string text = std::string(kGood) + "garbage";
  cmrtManifest m = nullptr;
  ASSERT_EQ(cmrtManifestParse(text.data(),
                              static_cast<int64_t>(std::strlen(kGood)), &m),
            CMRT_SUCCESS)
      << lastError();
  cmrtManifestDestroy(m);
}

TEST(Manifest, ToleratesBlankLinesCrLfAndExtraSpaces) {
  Parsed parsed("cudnn-mlir-module 1\r\n\r\nentry  f\r\n"
                "  arg 0\tin f64 [2] [1]  \r\nend");
  ASSERT_EQ(parsed.status, CMRT_SUCCESS) << lastError();
  EXPECT_EQ(entryName(parsed.manifest, 0), "f");
  EXPECT_EQ(argOf(parsed.manifest, 0, 0).dtype, CMRT_MANIFEST_F64);
}

TEST(Manifest, EveryDType) {
  const char *names[] = {"f16", "bf16", "f32", "f64", "i1", "i8", "i32", "i64"};
  int64_t sizes[] = {2, 2, 4, 8, 1, 1, 4, 8};
  for (int i = 0; i < 8; ++i) {
    Parsed parsed(withBody(std::string("arg 0 in ") + names[i] + " [3] [1]\n"));
    ASSERT_EQ(parsed.status, CMRT_SUCCESS) << lastError();
    cmrtManifestArg arg = argOf(parsed.manifest, 0, 0);
    EXPECT_EQ(arg.dtype, i); // the enum follows the manifest's order
    EXPECT_STREQ(arg.dtypeName, names[i]);
    EXPECT_EQ(arg.elementBytes, sizes[i]);
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
  Parsed empty(withBody("arg 0 in f32 [0,1073741824,1073741824] [1,1,1]\n"));
  EXPECT_EQ(empty.status, CMRT_SUCCESS) << lastError();
}

TEST(Manifest, NamesAreAsciiWhateverTheLocale) {
  EXPECT_EQ(errorOf("cudnn-mlir-module 1\nentry caf\xe9\nend\n"),
            "expects line 2 of the manifest to name the entry with letters, "
            "digits and '_' (not starting with a digit), but got 'caf\xe9'");
}

TEST(Manifest, CAbiRefusesBadArguments) {
  cmrtManifest m = reinterpret_cast<cmrtManifest>(0x1);
  EXPECT_EQ(cmrtManifestParse("x", -1, &m), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(lastError(), "cmrtManifestParse expects text of length >= 0, but "
                         "got length -1");
  EXPECT_EQ(cmrtManifestParse(nullptr, 3, &m), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "cmrtManifestParse expects text of length >= 0, but "
                         "got null text of length 3");
  EXPECT_EQ(cmrtManifestParse(kGood, 5, nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(),
            "cmrtManifestParse expects a non-null out pointer, but got null");
  EXPECT_EQ(cmrtManifestDestroy(nullptr), CMRT_SUCCESS);

  Parsed parsed(kGood);
  ASSERT_EQ(parsed.status, CMRT_SUCCESS) << lastError();
  int64_t value;
  const char *name;
  cmrtManifestArg arg;
  EXPECT_EQ(cmrtManifestGetVersion(nullptr, &value),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "cmrtManifestGetVersion expects a manifest, but got "
                         "null");
  EXPECT_EQ(cmrtManifestGetEntryCount(parsed.manifest, nullptr),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "cmrtManifestGetEntryCount expects a non-null count "
                         "pointer, but got null");
  EXPECT_EQ(cmrtManifestGetEntryName(parsed.manifest, 2, &name),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "cmrtManifestGetEntryName expects an entry index in "
                         "[0, 2), but got 2");
  EXPECT_EQ(cmrtManifestGetArgCount(parsed.manifest, -1, &value),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(cmrtManifestGetArg(parsed.manifest, 1, 1, &arg),
            CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(lastError(), "cmrtManifestGetArg expects an arg index in [0, 1), "
                         "but got 1");
  EXPECT_EQ(cmrtManifestGetArg(parsed.manifest, 0, 0, nullptr),
            CMRT_ERROR_INVALID_ARGUMENT);
}

} // namespace
