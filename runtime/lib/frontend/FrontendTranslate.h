//===- FrontendTranslate.h - description -> cudnn-frontend ops --*- C++ -*-===//
//
// Turns a validated graph description into cudnn-frontend graph nodes: one
// frontend tensor per described tensor (UIDs, dims, strides, types and
// alignment carried over) and one frontend node per op. Included only by
// files compiled with -fexceptions -frtti.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_FRONTENDTRANSLATE_H
#define CUDNN_MLIR_RUNTIME_FRONTENDTRANSLATE_H

#include "cudnn-mlir-runtime/Graph.h"

#include <cudnn_frontend.h>

#include <string>

namespace cmrt {

/// Thrown by translateToFrontend for a description the runtime cannot
/// express (an op kind, mode or by-value type not supported yet); the
/// message names the op or tensor.
struct UnsupportedGraph {
  std::string message;
};

/// Adds `desc` (already validated) to the empty graph `g`.
void translateToFrontend(const graph::GraphDescription &desc,
                         cudnn_frontend::graph::Graph &g);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_FRONTENDTRANSLATE_H
