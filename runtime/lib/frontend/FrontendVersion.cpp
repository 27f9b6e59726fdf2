//===- FrontendVersion.cpp - the cudnn-frontend the runtime builds on -----===//
//
// The one translation unit so far that includes cudnn-frontend, compiled
// with exceptions and RTTI (the frontend throws, e.g. in graph_interface.h);
// everything that crosses the C ABI must catch. The compiler side never
// includes frontend headers.
//
//===----------------------------------------------------------------------===//

#include "frontend/FrontendVersion.h"

#include <cudnn_frontend.h>

static_assert(CUDNN_FRONTEND_VERSION == CMRT_FRONTEND_PIN_VERSION,
              "cudnn-frontend headers differ from the version CMake pinned");

int cmrt::frontendVersion() { return CUDNN_FRONTEND_VERSION; }
