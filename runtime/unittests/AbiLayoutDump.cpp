//===- AbiLayoutDump.cpp - the layout of the C structs Python binds -------===//
//
// Prints, for every struct of Runtime.h that the Python package mirrors
// with a ctypes class, its size and alignment, then each field's name,
// offset, size and alignment, in declaration order:
//
//   struct cmrtRnnInfo 72 8
//   field weightSpaceBytes 0 8 8
//   ...
//
// python/tests/test_abi_layout.py (lit: test/Python/abi-layout.test) reads
// this and fails when a ctypes class differs, since ctypes cannot see the
// header and a mismatch would only show as garbage at run time. A struct
// added to the Python package must be added here too (the test checks that
// both list the same structs).
//
//===----------------------------------------------------------------------===//

#include "cudnn-mlir-runtime/Runtime.h"

#include <cstddef>
#include <cstdio>
#include <initializer_list>

namespace {

struct Field {
  const char *name;
  size_t offset;
  size_t size;
  size_t align;
};

#define CMRT_FIELD(type, field)                                                \
  (Field{#field, offsetof(type, field), sizeof(type::field),                   \
         alignof(decltype(type::field))})

template <typename T>
void dump(const char *name, std::initializer_list<Field> fields) {
  std::printf("struct %s %zu %zu\n", name, sizeof(T), alignof(T));
  for (const Field &f : fields)
    std::printf("field %s %zu %zu %zu\n", f.name, f.offset, f.size, f.align);
}

void dumpRnnConfig() {
  using T = cmrtRnnConfig;
  dump<T>("cmrtRnnConfig",
          {CMRT_FIELD(T, version), CMRT_FIELD(T, cell),
           CMRT_FIELD(T, direction), CMRT_FIELD(T, bias), CMRT_FIELD(T, layout),
           CMRT_FIELD(T, math), CMRT_FIELD(T, algo), CMRT_FIELD(T, dataType),
           CMRT_FIELD(T, inputSize), CMRT_FIELD(T, hiddenSize),
           CMRT_FIELD(T, projSize), CMRT_FIELD(T, numLayers),
           CMRT_FIELD(T, maxSeqLength), CMRT_FIELD(T, batch),
           CMRT_FIELD(T, flags), CMRT_FIELD(T, dropout),
           CMRT_FIELD(T, dropoutSeed)});
}

void dumpRnnInfo() {
  using T = cmrtRnnInfo;
  dump<T>(
      "cmrtRnnInfo",
      {CMRT_FIELD(T, weightSpaceBytes), CMRT_FIELD(T, workspaceInferenceBytes),
       CMRT_FIELD(T, workspaceTrainingBytes), CMRT_FIELD(T, reserveBytes),
       CMRT_FIELD(T, paramCount), CMRT_FIELD(T, algo), CMRT_FIELD(T, mathType),
       CMRT_FIELD(T, autotuned), CMRT_FIELD(T, paramBytes)});
}

void dumpRnnBuffers() {
  using T = cmrtRnnBuffers;
  dump<T>("cmrtRnnBuffers",
          {CMRT_FIELD(T, seqLengths), CMRT_FIELD(T, hostSeqLengths),
           CMRT_FIELD(T, x), CMRT_FIELD(T, y), CMRT_FIELD(T, hx),
           CMRT_FIELD(T, hy), CMRT_FIELD(T, cx), CMRT_FIELD(T, cy),
           CMRT_FIELD(T, dy), CMRT_FIELD(T, dx), CMRT_FIELD(T, dhy),
           CMRT_FIELD(T, dhx), CMRT_FIELD(T, dcy), CMRT_FIELD(T, dcx),
           CMRT_FIELD(T, weights), CMRT_FIELD(T, dweights),
           CMRT_FIELD(T, reserve)});
}

void dumpManifestArg() {
  using T = cmrtManifestArg;
  dump<T>("cmrtManifestArg",
          {CMRT_FIELD(T, index), CMRT_FIELD(T, isOutput), CMRT_FIELD(T, dtype),
           CMRT_FIELD(T, dtypeName), CMRT_FIELD(T, elementBytes),
           CMRT_FIELD(T, rank), CMRT_FIELD(T, dims), CMRT_FIELD(T, strides)});
}

} // namespace

int main() {
  dumpRnnConfig();
  dumpRnnInfo();
  dumpRnnBuffers();
  dumpManifestArg();
  return 0;
}
