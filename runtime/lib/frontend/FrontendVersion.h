//===- FrontendVersion.h - the cudnn-frontend the runtime builds on -*- C++ -*-===//

#ifndef CUDNN_MLIR_RUNTIME_FRONTENDVERSION_H
#define CUDNN_MLIR_RUNTIME_FRONTENDVERSION_H

namespace cmrt {
/// CUDNN_FRONTEND_VERSION of the headers compiled in (1.32.0 is 13200).
int frontendVersion();
} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_FRONTENDVERSION_H
