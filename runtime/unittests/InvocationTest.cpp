//===- InvocationTest.cpp - the cmrtInvocation* entries of compiled code --===//
//
// Runs with or without a GPU: without one, the invocation's first failure is
// the missing device; with one, it is the malformed graph the test passes.
// Either way the failure must be sticky, later calls must do nothing, and
// cmrtInvocationEnd must report the first failure.
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(InvocationTest, FirstFailureIsStickyAndReportedAtEnd) {
  void *inv = cmrtInvocationBegin(nullptr);
  ASSERT_NE(inv, nullptr);
  EXPECT_EQ(cmrtInvocationCurrent(), inv);
  bool hasGpu = cmrtCheckDevice(0) == CMRT_SUCCESS;

  const int64_t garbage[3] = {1, 2, 3};
  void *slot = nullptr;
  int64_t uid = 1;
  void *pointer = nullptr;
  cmrtStatus graph = cmrtInvocationGraph(inv, &slot, garbage, 3, 0, &uid,
                                         &pointer, 1, "model.mlir:7:3");
  EXPECT_NE(graph, CMRT_SUCCESS);
  // After a failure, allocation does nothing.
  EXPECT_EQ(cmrtInvocationAlloc(inv, 1024), nullptr);

  cmrtStatus end = cmrtInvocationEnd(inv);
  std::string message = cmrtGetLastErrorMessage();
  if (hasGpu) {
    EXPECT_EQ(end, CMRT_ERROR_INVALID_GRAPH);
    EXPECT_NE(message.find("graph at model.mlir:7:3"), std::string::npos)
        << message;
  } else {
    EXPECT_EQ(end, CMRT_ERROR_NO_DEVICE);
    EXPECT_NE(message.find("expects a CUDA GPU"), std::string::npos) << message;
  }
  EXPECT_EQ(cmrtInvocationCurrent(), nullptr);
}

TEST(InvocationTest, InvocationsNestAndEndInnermostFirst) {
  void *outer = cmrtInvocationBegin(nullptr);
  void *inner = cmrtInvocationBegin(nullptr);
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(inner, nullptr);
  EXPECT_NE(outer, inner);
  EXPECT_EQ(cmrtInvocationCurrent(), inner);
  EXPECT_EQ(cmrtInvocationEnd(outer), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage()).find("innermost"),
            std::string::npos);
  cmrtInvocationEnd(inner);
  EXPECT_EQ(cmrtInvocationCurrent(), outer);
  cmrtInvocationEnd(outer);
  EXPECT_EQ(cmrtInvocationCurrent(), nullptr);
}

TEST(InvocationTest, EndWithoutInvocationIsAnError) {
  EXPECT_EQ(cmrtInvocationEnd(nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage())
                .find("expects an invocation from cmrtInvocationBegin"),
            std::string::npos);
}

TEST(InvocationTest, CallsOutsideAnInvocationDoNothing) {
  EXPECT_EQ(cmrtInvocationAlloc(nullptr, 64), nullptr);
  EXPECT_EQ(cmrtInvocationFree(nullptr, nullptr), CMRT_SUCCESS);
  EXPECT_EQ(cmrtInvocationCopy(nullptr, nullptr, nullptr, 8),
            CMRT_ERROR_INVALID_ARGUMENT);
  int64_t dims[3] = {1, 2, 3};
  EXPECT_EQ(cmrtInvocationTransform(nullptr, 0, 3, dims, nullptr, dims, nullptr,
                                    dims),
            CMRT_ERROR_INVALID_ARGUMENT);
}

} // namespace
