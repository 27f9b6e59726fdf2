//===- Npy.h - numpy .npy files, read and written ----------------*- C++ -*-===//
//
// The subset cudnn-run needs: format versions 1.0, 2.0 and 3.0, C order,
// little-endian, dtypes <f2 <f4 <f8 |b1 |i1 <i4 <i8. Data is in logical
// (row-major) order.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_RUN_NPY_H
#define CUDNN_RUN_NPY_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_run {

enum class NpyType { F16, F32, F64, Bool, I8, I32, I64 };

/// The descr numpy writes: "<f4", "|b1", ...
const char *npyDescr(NpyType type);
int64_t npyItemSize(NpyType type);

struct NpyArray {
  NpyType type = NpyType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; // numElements() * itemsize bytes, C order

  int64_t numElements() const;
};

/// Parses the bytes of a .npy file. On failure returns false and sets `error`
/// to "expects ..., but got ..." (without the file name).
bool parseNpy(const uint8_t *bytes, size_t size, NpyArray &array,
              std::string &error);
/// Reads and parses `path`; errors name the file.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// The bytes of a .npy file holding `array`: version 1.0, or 2.0 when the
/// header does not fit 1.0's 16-bit length.
std::vector<uint8_t> serializeNpy(const NpyArray &array);
/// The bytes of a .npy file with an explicit format version (1, 2 or 3).
std::vector<uint8_t> serializeNpy(const NpyArray &array, int majorVersion);
bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error);

} // namespace cudnn_run

#endif // CUDNN_RUN_NPY_H
