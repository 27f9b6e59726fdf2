//===- ManifestTest.cpp - cudnn-run's copy of the runtime's manifest ------===//
//
// The parser and its messages are the runtime's (runtime/unittests/
// ManifestTest.cpp); this checks what cudnn-run copies from it and adds.
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

TEST(CudnnRunManifest, CopiesEntriesAndArgs) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(readManifest(kGood, m, error)) << error;
  EXPECT_EQ(m.version, 1);
  ASSERT_EQ(m.entries.size(), 2u);
  const Entry &f = m.entries[0];
  EXPECT_EQ(f.name, "forward");
  ASSERT_EQ(f.args.size(), 4u);
  EXPECT_EQ(f.numInputs(), 3);
  EXPECT_EQ(f.numOutputs(), 1);
  EXPECT_EQ(f.args[0].dtype, CMRT_MANIFEST_F32);
  EXPECT_EQ(f.args[0].dims, (std::vector<int64_t>{1, 64, 56, 56}));
  EXPECT_EQ(f.args[0].strides, (std::vector<int64_t>{200704, 3136, 56, 1}));
  EXPECT_EQ(f.args[0].storageElements(), 200704);
  EXPECT_EQ(f.args[1].dtype, CMRT_MANIFEST_BF16);
  EXPECT_EQ(f.args[1].storageBytes(), 64 * 576 * 2);
  EXPECT_TRUE(f.args[2].dims.empty());
  EXPECT_EQ(f.args[2].numElements(), 1);
  EXPECT_EQ(f.args[2].storageElements(), 1);
  EXPECT_EQ(f.args[2].storageBytes(), 8);
  EXPECT_TRUE(f.args[3].isOutput);
  EXPECT_EQ(f.args[3].index, 3);
  EXPECT_EQ(f.args[3].signature(), "out f16 [1,64,56,56] [200704,1,3584,64]");
  const Entry &o = m.entries[1];
  EXPECT_EQ(o.name, "other_2");
  EXPECT_STREQ(o.args[0].dtypeName, "i1");
  EXPECT_EQ(o.args[0].elementBytes, 1);
  EXPECT_EQ(o.args[0].storageElements(), 0);
  EXPECT_EQ(m.find("other_2"), &o);
  EXPECT_EQ(m.find("nope"), nullptr);
}

TEST(CudnnRunManifest, PassesOnTheRuntimesMessage) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(readManifest("cudnn-mlir-module 2\nentry f\nend\n", m, error));
  EXPECT_EQ(error, "expects manifest format version 1, but got version 2 (the "
                   "module was compiled by another cudnn-mlir; recompile it "
                   "or use a matching loader)");
  EXPECT_TRUE(m.entries.empty());
}

TEST(CudnnRunManifest, FormatsLists) {
  EXPECT_EQ(formatList({}), "[]");
  EXPECT_EQ(formatList({1, 64, 56, 56}), "[1,64,56,56]");
}

} // namespace
