//===- GpuTestEnvironment.cpp - the GPU tests' process-wide teardown ------===//
//
// After the last GPU test, cmrtShutdown frees everything the runtime caches
// (plans, cuDNN and cuBLAS handles, kernel modules, pooled device memory),
// so that compute-sanitizer's leak check over this binary reports only
// memory a test or the runtime really lost (docs/testing.md,
// "compute-sanitizer").
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Runtime.h"

#include <gtest/gtest.h>

namespace {

struct RuntimeShutdown : ::testing::Environment {
  void TearDown() override {
    EXPECT_EQ(cmrtShutdown(), CMRT_SUCCESS) << cmrtGetLastErrorMessage();
  }
};

[[maybe_unused]] const ::testing::Environment *const kShutdown =
    ::testing::AddGlobalTestEnvironment(new RuntimeShutdown);

} // namespace
