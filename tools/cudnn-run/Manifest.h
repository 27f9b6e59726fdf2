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
// entry. docs/abi.md ("Calling a compiled module") is the specification; the
// Python loader (python/cudnn_mlir/runtime/manifest.py) parses the same text
// with the same messages.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_RUN_MANIFEST_H
#define CUDNN_RUN_MANIFEST_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_run {

/// The manifest format version this build reads.
constexpr int kManifestVersion = 1;

enum class DType { F16, BF16, F32, F64, I1, I8, I32, I64 };

/// The manifest's spelling (`f16`, `bf16`, ...).
const char *dtypeName(DType dtype);
/// Parses a manifest spelling; false if it is none.
bool parseDType(std::string_view name, DType &dtype);
/// Bytes per element in device memory (i1 is one byte per element).
int64_t dtypeSize(DType dtype);
bool isFloat(DType dtype);

struct ArgSpec {
  int64_t index = 0;
  bool isOutput = false;
  DType dtype = DType::F32;
  std::vector<int64_t> dims;    // logical shape
  std::vector<int64_t> strides; // in elements, one per dim

  int64_t numElements() const;
  /// Elements the buffer spans: the largest offset + 1 (0 if empty).
  int64_t storageElements() const;
  int64_t storageBytes() const { return storageElements() * dtypeSize(dtype); }
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
  int version = 0;
  std::vector<Entry> entries;

  /// The entry named `name`, or null.
  const Entry *find(std::string_view name) const;
};

/// Parses a manifest. On failure returns false and sets `error` to one
/// sentence, "expects ..., but got ...", naming the line.
bool parseManifest(std::string_view text, Manifest &manifest,
                   std::string &error);

/// Formats `[1,64,56,56]`.
std::string formatList(const std::vector<int64_t> &values);

} // namespace cudnn_run

#endif // CUDNN_RUN_MANIFEST_H
