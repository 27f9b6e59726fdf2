//===- Manifest.h - a module's manifest, read by the runtime ----*- C++ -*-===//
//
// cudnn-run reads a model's `cmrt_module_manifest` (docs/abi.md, "The
// manifest") with the runtime's parser, cmrtManifestParse, the one the
// Python loader calls too, and copies what it returns into these structs,
// which add what the tool needs on top: sizes and the signature it prints.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_RUN_MANIFEST_H
#define CUDNN_RUN_MANIFEST_H

#include "cudnn-mlir-runtime/Runtime.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_run {

struct ArgSpec {
  int64_t index = 0;
  bool isOutput = false;
  cmrtManifestDType dtype = CMRT_MANIFEST_F32;
  const char *dtypeName = "f32"; // the manifest's spelling (static)
  int64_t elementBytes = 4;      // in device memory (i1: one byte)
  std::vector<int64_t> dims;     // logical shape
  std::vector<int64_t> strides;  // in elements, one per dim

  int64_t numElements() const;
  /// Elements the buffer spans: the largest offset + 1 (0 if empty).
  int64_t storageElements() const;
  int64_t storageBytes() const { return storageElements() * elementBytes; }
  /// "in f32 [1,64,56,56] [200704,3136,56,1]"
  std::string signature() const;
};

struct Entry {
  std::string name;
  std::vector<ArgSpec> args; // ins first, then outs, in call order

  int64_t numInputs() const;
  int64_t numOutputs() const;
};

struct Manifest {
  int64_t version = 0;
  std::vector<Entry> entries;

  /// The entry named `name`, or null.
  const Entry *find(std::string_view name) const;
};

/// Parses manifest text with the runtime. On failure returns false and sets
/// `error` to the runtime's message ("expects ..., but got ...", naming the
/// line).
bool readManifest(std::string_view text, Manifest &manifest,
                  std::string &error);

/// Formats `[1,64,56,56]`.
std::string formatList(const std::vector<int64_t> &values);

} // namespace cudnn_run

#endif // CUDNN_RUN_MANIFEST_H
