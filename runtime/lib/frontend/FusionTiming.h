//===- FusionTiming.h - fused plan against its split form, timed -*- C++
//-*-===//
//
// Fusion by timing: a fused graph that has a compiled split form to fall
// back on (CMRT_GRAPH_NO_SPLIT) and got a runtime-compiled plan is timed on
// the device against a model of its split form (graph/SplitFormModel.h):
// its anchors alone on cuDNN plans of their own, its generated kernels as
// a device-to-device copy of the bytes they move. Runs at build time, off
// capture, on zero-filled scratch tensors. No frontend headers here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_FUSIONTIMING_H
#define CUDNN_MLIR_RUNTIME_FUSIONTIMING_H

#include "frontend/FrontendGraph.h"

#include <string>

namespace cmrt {

/// Whether `fused` (built from `request`) is judged by timing: it has a
/// split form, more than one op, a runtime-compiled plan, and fusion by
/// cost is on.
bool judgedByTiming(const BuildRequest &request, const BuiltGraph &fused);

/// Times `fused` against its split form's model. `why` is set (with the
/// numbers) when the split form wins, left empty when the fused plan stays.
/// A failure to time (scratch memory, an anchor cuDNN cannot build alone)
/// keeps the fused plan: it is logged, not returned.
void judgeFusionByTiming(const BuildRequest &request, BuiltGraph &fused,
                         std::string &why);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_FUSIONTIMING_H
