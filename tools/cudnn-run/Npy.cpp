//===- Npy.cpp - numpy .npy files, read and written -----------------------===//
//
// Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// "\x93NUMPY", major, minor, header length (u16 in 1.0, u32 in 2.0/3.0),
// then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape':
// (...), } padded with spaces and a newline so the data starts 64-aligned.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace cudnn_run {

namespace {

constexpr const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

struct TypeInfo {
  NpyType type;
  const char *descr;
  int64_t size;
};
constexpr TypeInfo kTypes[] = {
    {NpyType::F16, "<f2", 2},  {NpyType::F32, "<f4", 4},
    {NpyType::F64, "<f8", 8},  {NpyType::Bool, "|b1", 1},
    {NpyType::I8, "|i1", 1},   {NpyType::I32, "<i4", 4},
    {NpyType::I64, "<i8", 8},
};

/// A cursor over the header's Python dict literal.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  bool parse(NpyArray &array, std::string &error);

private:
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  bool eat(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool parseString(std::string &out);
  bool parseShape(std::vector<int64_t> &shape);
  bool parseWord(std::string &out);

  std::string_view text;
  size_t pos = 0;
};

bool HeaderParser::parseString(std::string &out) {
  skipSpace();
  if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
    return false;
  char quote = text[pos++];
  size_t end = text.find(quote, pos);
  if (end == std::string_view::npos)
    return false;
  out = std::string(text.substr(pos, end - pos));
  pos = end + 1;
  return true;
}

bool HeaderParser::parseWord(std::string &out) {
  skipSpace();
  size_t start = pos;
  while (pos < text.size() &&
         ((text[pos] >= 'a' && text[pos] <= 'z') ||
          (text[pos] >= 'A' && text[pos] <= 'Z')))
    ++pos;
  out = std::string(text.substr(start, pos - start));
  return !out.empty();
}

bool HeaderParser::parseShape(std::vector<int64_t> &shape) {
  shape.clear();
  if (!eat('('))
    return false;
  while (true) {
    if (eat(')'))
      return true;
    skipSpace();
    int64_t value = 0;
    size_t start = pos;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      value = value * 10 + (text[pos++] - '0');
      if (value >= (int64_t(1) << 59))
        return false;
    }
    if (pos == start)
      return false;
    shape.push_back(value);
    if (eat(')'))
      return true;
    if (!eat(','))
      return false;
  }
}

bool HeaderParser::parse(NpyArray &array, std::string &error) {
  bool haveDescr = false, haveOrder = false, haveShape = false;
  std::string descr;
  bool fortran = false;
  if (!eat('{')) {
    error = "expects a .npy header that is a Python dict, but got '" +
            std::string(text) + "'";
    return false;
  }
  while (!eat('}')) {
    std::string key;
    if (!parseString(key) || !eat(':')) {
      error = "expects a .npy header of 'key': value pairs, but got '" +
              std::string(text) + "'";
      return false;
    }
    bool ok = true;
    if (key == "descr") {
      ok = parseString(descr);
      haveDescr = true;
    } else if (key == "fortran_order") {
      std::string word;
      ok = parseWord(word) && (word == "True" || word == "False");
      fortran = word == "True";
      haveOrder = true;
    } else if (key == "shape") {
      ok = parseShape(array.shape);
      haveShape = true;
    } else {
      error = "expects a .npy header with the keys descr, fortran_order and "
              "shape, but got the key '" +
              key + "'";
      return false;
    }
    if (!ok) {
      error = "expects a .npy header whose '" + key +
              "' has a simple value (a dtype string, True/False, a tuple of "
              "non-negative integers), but got '" +
              std::string(text) + "'";
      return false;
    }
    if (!eat(',')) {
      if (eat('}'))
        break;
      error = "expects a .npy header of comma-separated pairs, but got '" +
              std::string(text) + "'";
      return false;
    }
  }
  if (!haveDescr || !haveOrder || !haveShape) {
    error = "expects a .npy header with the keys descr, fortran_order and "
            "shape, but got '" +
            std::string(text) + "'";
    return false;
  }
  if (fortran) {
    error = "expects a C-order .npy file, but got fortran_order True (save a "
            "C-contiguous array, e.g. numpy.ascontiguousarray)";
    return false;
  }
  for (const TypeInfo &info : kTypes) {
    if (descr == info.descr) {
      array.type = info.type;
      return true;
    }
  }
  error = "expects a .npy dtype of <f2, <f4, <f8, |b1, |i1, <i4 or <i8 "
          "(little-endian), but got '" +
          descr + "'";
  return false;
}

uint32_t readLittle(const uint8_t *p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    s += std::to_string(shape[i]);
    s += (shape.size() == 1 || i + 1 < shape.size()) ? "," : "";
    if (i + 1 < shape.size())
      s += ' ';
  }
  return s + ")";
}

} // namespace

const char *npyDescr(NpyType type) {
  for (const TypeInfo &info : kTypes)
    if (info.type == type)
      return info.descr;
  return "?";
}

int64_t npyItemSize(NpyType type) {
  for (const TypeInfo &info : kTypes)
    if (info.type == type)
      return info.size;
  return 1;
}

int64_t NpyArray::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool parseNpy(const uint8_t *bytes, size_t size, NpyArray &array,
              std::string &error) {
  array = NpyArray();
  if (size < kMagicSize + 4 || std::memcmp(bytes, kMagic, kMagicSize) != 0) {
    error = "expects a .npy file (starting with \\x93NUMPY), but got " +
            (size < kMagicSize + 4 ? std::to_string(size) + " bytes"
                                   : std::string("other bytes"));
    return false;
  }
  int major = bytes[6], minor = bytes[7];
  if (major < 1 || major > 3 || minor != 0) {
    error = "expects .npy format version 1.0, 2.0 or 3.0, but got " +
            std::to_string(major) + "." + std::to_string(minor);
    return false;
  }
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t start = kMagicSize + 2 + lengthBytes;
  if (size < start) {
    error = "expects a complete .npy header, but got a file of " +
            std::to_string(size) + " bytes";
    return false;
  }
  size_t headerLength = readLittle(bytes + 8, static_cast<int>(lengthBytes));
  if (size - start < headerLength) {
    error = "expects a .npy header of " + std::to_string(headerLength) +
            " bytes, but got a file of " + std::to_string(size) + " bytes";
    return false;
  }
  std::string_view header(reinterpret_cast<const char *>(bytes + start),
                          headerLength);
  while (!header.empty() && (header.back() == '\n' || header.back() == ' ' ||
                             header.back() == '\0'))
    header.remove_suffix(1);
  if (!HeaderParser(header).parse(array, error))
    return false;

  // Sizes are below 2^59 each; guard the product.
  int64_t elements = 1;
  for (int64_t d : array.shape) {
    if (d != 0 && elements > (int64_t(1) << 59) / d) {
      error = "expects a .npy shape of fewer than 2^59 elements, but got " +
              shapeText(array.shape);
      return false;
    }
    elements *= d;
  }
  size_t dataOffset = start + headerLength;
  uint64_t want =
      static_cast<uint64_t>(elements) * static_cast<uint64_t>(npyItemSize(array.type));
  uint64_t have = size - dataOffset;
  if (have != want) {
    error = "expects " + std::to_string(want) + " bytes of data for shape " +
            shapeText(array.shape) + " and dtype " + npyDescr(array.type) +
            ", but got " + std::to_string(have) +
            (have < want ? " (the file is truncated)" : "");
    return false;
  }
  array.data.assign(bytes + dataOffset, bytes + size);
  return true;
}

bool readNpy(const std::string &path, NpyArray &array, std::string &error) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = "expects a readable .npy file, but got '" + path +
            "': " + std::strerror(errno);
    return false;
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof chunk, f)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + n);
  bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) {
    error = "expects a readable .npy file, but reading '" + path + "' failed";
    return false;
  }
  if (!parseNpy(bytes.data(), bytes.size(), array, error)) {
    error += " (in '" + path + "')";
    return false;
  }
  return true;
}

std::vector<uint8_t> serializeNpy(const NpyArray &array, int majorVersion) {
  std::string header = std::string("{'descr': '") + npyDescr(array.type) +
                       "', 'fortran_order': False, 'shape': " +
                       shapeText(array.shape) + ", }";
  size_t prefix = kMagicSize + 2 + (majorVersion == 1 ? 2 : 4);
  // Pad with spaces so magic + length + header + '\n' is a multiple of 64.
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::vector<uint8_t> out(kMagic, kMagic + kMagicSize);
  out.push_back(static_cast<uint8_t>(majorVersion));
  out.push_back(0);
  uint32_t length = static_cast<uint32_t>(header.size());
  for (size_t i = 0; i < prefix - kMagicSize - 2; ++i)
    out.push_back(static_cast<uint8_t>(length >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), array.data.begin(), array.data.end());
  return out;
}

std::vector<uint8_t> serializeNpy(const NpyArray &array) {
  // A 1.0 header is at most 65535 bytes; ours exceed it only for huge ranks.
  std::vector<uint8_t> v1 = serializeNpy(array, 1);
  size_t headerLength = readLittle(v1.data() + 8, 2);
  size_t headerNeeded = v1.size() - 10 - array.data.size();
  return headerLength == headerNeeded && headerNeeded <= 65535
             ? v1
             : serializeNpy(array, 2);
}

bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error) {
  std::vector<uint8_t> bytes = serializeNpy(array);
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = "expects a writable output path, but got '" + path +
            "': " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) {
    error = "expects to write " + std::to_string(bytes.size()) +
            " bytes to '" + path + "', but the write failed";
    return false;
  }
  return true;
}

} // namespace cudnn_run
