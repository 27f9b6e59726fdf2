//===- ReproCommandTest.cpp - the cudnn-run line of a failing call --------===//

#include "module/ReproCommand.h"

#include <gtest/gtest.h>

using namespace cmrt;

namespace {

TEST(ReproCommandTest, NamesTheModuleAndTheEntry) {
  EXPECT_EQ(formatReproCommand("/cache/0a1b/model.so", "forward"),
            "to reproduce: cudnn-run /cache/0a1b/model.so --entry forward");
}

TEST(ReproCommandTest, QuotesPathsTheShellWouldSplit) {
  EXPECT_EQ(formatReproCommand("/my models/it's.so", "forward"),
            "to reproduce: cudnn-run '/my models/it'\\''s.so' --entry "
            "forward");
}

TEST(ReproCommandTest, WithoutAnEntryPointsAtList) {
  EXPECT_EQ(formatReproCommand("m.so", ""),
            "to reproduce: cudnn-run m.so --entry NAME (cudnn-run m.so "
            "--list names the entries)");
}

TEST(ReproCommandTest, CallersOutsideACompiledModuleGetNoLine) {
  // This test program has no module manifest.
  EXPECT_EQ(reproCommandForCaller(__builtin_return_address(0)), "");
  EXPECT_EQ(reproCommandForCaller(nullptr), "");
}

} // namespace
