//===- VersionsTest.cpp - version and device checks of the runtime --------===//

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <cudnn_version.h>
#include <gtest/gtest.h>

#include <string>

TEST(Versions, ReportsBuildAndLoadedCudnn) {
  cmrtVersionInfo info{};
  ASSERT_EQ(cmrtGetVersionInfo(&info), CMRT_SUCCESS)
      << cmrtGetLastErrorMessage();
  EXPECT_EQ(info.cudnnBuild, CUDNN_VERSION);
  EXPECT_EQ(info.cudnnLoaded / 10000, 9);
  EXPECT_GT(info.cudaRuntime, 12000);
  EXPECT_EQ(info.cudnnFrontend, 13200); // the pin: 1.32.0
  EXPECT_STREQ(cmrtGetLastErrorMessage(), "");
}

TEST(Versions, NullInfoIsAnError) {
  EXPECT_EQ(cmrtGetVersionInfo(nullptr), CMRT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(cmrtGetLastErrorMessage()).find("non-null"),
            std::string::npos);
}

// Written to hold on both kinds of machine: without a GPU the check must say
// so clearly; with one, device 0 must pass.
TEST(Device, CheckMatchesWhatCudaSees) {
  int count = 0;
  bool haveGpu = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  (void)cudaGetLastError();
  cmrtStatus status = cmrtCheckDevice(0);
  if (haveGpu) {
    EXPECT_EQ(status, CMRT_SUCCESS) << cmrtGetLastErrorMessage();
  } else {
    EXPECT_EQ(status, CMRT_ERROR_NO_DEVICE);
    EXPECT_NE(std::string(cmrtGetLastErrorMessage()).find("expects a CUDA GPU"),
              std::string::npos)
        << cmrtGetLastErrorMessage();
  }
}

TEST(Device, OutOfRangeOrdinalIsRejected) {
  cmrtStatus status = cmrtCheckDevice(1 << 20);
  EXPECT_NE(status, CMRT_SUCCESS);
  EXPECT_STRNE(cmrtGetLastErrorMessage(), "");
}
