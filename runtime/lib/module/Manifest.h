//===- Manifest.h - a compiled module's manifest, parsed ---------*- C++ -*-===//
//
// A compiled model (model.so) exports `const char cmrt_module_manifest[]`:
//
//   cudnn-mlir-module 1
//   entry forward
//   arg 0 in f32 [1,64,56,56] [200704,3136,56,1]
//   arg 1 out f32 [1,64,56,56] [200704,3136,56,1]
//   end
//
// and one `int32_t cmrt_entry_<NAME>(void *stream, void *const *buffers)` per
// entry. docs/abi.md ("The manifest") is the specification. This is the one
// parser of it: cudnn-run and the Python loader call it through
// cmrtManifestParse (abi/ManifestAbi.cpp). No CUDA: part of the CPU-only
// static library.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_MODULE_MANIFEST_H
#define CUDNN_MLIR_RUNTIME_MODULE_MANIFEST_H

#include "cudnn-mlir-runtime/Runtime.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cmrt::module {

/// The manifest format version this build reads.
constexpr int kManifestVersion = 1;

/// The manifest's spelling of `dtype` (`f16`, `bf16`, ...).
const char *dtypeName(cmrtManifestDType dtype);
/// Bytes per element in device memory (i1 is one byte per element).
int64_t dtypeSize(cmrtManifestDType dtype);

struct ArgSpec {
  int64_t index = 0;
  bool isOutput = false;
  cmrtManifestDType dtype = CMRT_MANIFEST_F32;
  std::vector<int64_t> dims;    // logical shape
  std::vector<int64_t> strides; // in elements, one per dim
};

struct Entry {
  std::string name;
  std::vector<ArgSpec> args; // ins first, then outs, in call order
};

struct Manifest {
  int version = 0;
  std::vector<Entry> entries;

  /// The entry named `name`, or null.
  const Entry *find(std::string_view name) const;
};

/// Parses a manifest. On failure returns false and sets `error` to one
/// sentence, "expects ..., but got ...", naming the line.
bool parseManifest(std::string_view text, Manifest &manifest,
                   std::string &error);

} // namespace cmrt::module

#endif // CUDNN_MLIR_RUNTIME_MODULE_MANIFEST_H
