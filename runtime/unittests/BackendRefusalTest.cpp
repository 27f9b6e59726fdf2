//===- BackendRefusalTest.cpp - cuDNN refusals told from failures ---------===//

#include "graph/BackendRefusal.h"

#include <gtest/gtest.h>

using cmrt::graph::isBackendRefusal;

TEST(BackendRefusal, NotSupportedIsARefusal) {
  // What cudnn-frontend 1.x said for ShuffleNetV2's fp32 reduction graph at
  // batch 1 (cuDNN 9.14, H100).
  EXPECT_TRUE(isBackendRefusal(
      "detail::finalize(reduction_descriptor.get_raw_desc()) failed with "
      "message: , and code: CUDNN_STATUS_NOT_SUPPORTED"));
  EXPECT_TRUE(isBackendRefusal("code: CUDNN_STATUS_NOT_SUPPORTED_SHAPE"));
}

TEST(BackendRefusal, OtherFailuresAreNot) {
  EXPECT_FALSE(isBackendRefusal("code: CUDNN_STATUS_BAD_PARAM"));
  EXPECT_FALSE(isBackendRefusal("code: CUDNN_STATUS_ALLOC_FAILED"));
  EXPECT_FALSE(isBackendRefusal("code: CUDNN_STATUS_INTERNAL_ERROR"));
  EXPECT_FALSE(isBackendRefusal(""));
}
