//===- NpyTest.cpp - cudnn-run's .npy reader and writer -------------------===//

#include "Npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace cudnn_run;

namespace {

NpyArray sample(NpyType type, std::vector<int64_t> shape) {
  NpyArray a;
  a.type = type;
  a.shape = std::move(shape);
  a.data.resize(static_cast<size_t>(a.numElements() * npyItemSize(type)));
  for (size_t i = 0; i < a.data.size(); ++i)
    a.data[i] = static_cast<uint8_t>(i * 31 + 7);
  return a;
}

std::string headerOf(const std::vector<uint8_t> &bytes) {
  size_t length = bytes[8] | (bytes[9] << 8);
  return std::string(bytes.begin() + 10, bytes.begin() + 10 + length);
}

/// A .npy file with a hand-written header (version 1.0).
std::vector<uint8_t> withHeader(const std::string &header,
                                size_t dataBytes = 0) {
  std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  b.push_back(static_cast<uint8_t>(header.size() & 0xff));
  b.push_back(static_cast<uint8_t>(header.size() >> 8));
  b.insert(b.end(), header.begin(), header.end());
  b.resize(b.size() + dataBytes, 0);
  return b;
}

std::string errorOf(const std::vector<uint8_t> &bytes) {
  NpyArray a;
  std::string error;
  EXPECT_FALSE(parseNpy(bytes.data(), bytes.size(), a, error));
  return error;
}

TEST(Npy, RoundTripsEveryDTypeAndVersion) {
  const NpyType types[] = {NpyType::F16,  NpyType::F32, NpyType::F64,
                           NpyType::Bool, NpyType::I8,  NpyType::I32,
                           NpyType::I64};
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {5}, {2, 3}, {1, 4, 3, 2}, {0, 3}};
  for (NpyType type : types) {
    for (const auto &shape : shapes) {
      for (int version = 1; version <= 3; ++version) {
        NpyArray a = sample(type, shape);
        std::vector<uint8_t> bytes = serializeNpy(a, version);
        EXPECT_EQ(bytes[6], version);
        NpyArray b;
        std::string error;
        ASSERT_TRUE(parseNpy(bytes.data(), bytes.size(), b, error)) << error;
        EXPECT_EQ(b.type, type);
        EXPECT_EQ(b.shape, shape);
        EXPECT_EQ(b.data, a.data);
      }
    }
  }
}

TEST(Npy, WritesNumpysHeader) {
  std::vector<uint8_t> bytes = serializeNpy(sample(NpyType::F32, {2, 3}));
  EXPECT_EQ(bytes[6], 1); // version 1.0 when the header fits
  EXPECT_EQ(bytes[7], 0);
  std::string header = headerOf(bytes);
  EXPECT_EQ(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': "
                         "(2, 3), }",
                         0),
            0u);
  EXPECT_EQ(header.back(), '\n');
  EXPECT_EQ((10 + header.size()) % 64, 0u); // data is 64-aligned
  EXPECT_NE(headerOf(serializeNpy(sample(NpyType::Bool, {5})))
                .find("'descr': '|b1'"),
            std::string::npos);
  EXPECT_NE(headerOf(serializeNpy(sample(NpyType::I8, {5}))).find("(5,)"),
            std::string::npos);
  EXPECT_NE(headerOf(serializeNpy(sample(NpyType::I64, {}))).find("()"),
            std::string::npos);
}

TEST(Npy, ReadsHeadersNumpyMightWrite) {
  // Double quotes, no trailing comma, keys in another order, no padding.
  NpyArray a;
  std::string error;
  std::vector<uint8_t> b = withHeader(
      "{\"shape\": (3,), \"fortran_order\": False, \"descr\": \"<i4\"}\n", 12);
  ASSERT_TRUE(parseNpy(b.data(), b.size(), a, error)) << error;
  EXPECT_EQ(a.type, NpyType::I32);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{3}));
}

TEST(Npy, ReadsAndWritesFiles) {
  std::string path = ::testing::TempDir() + "cudnn-run-npy-" +
                     std::to_string(::getpid()) + ".npy";
  NpyArray a = sample(NpyType::F64, {3, 2});
  std::string error;
  ASSERT_TRUE(writeNpy(path, a, error)) << error;
  NpyArray b;
  ASSERT_TRUE(readNpy(path, b, error)) << error;
  EXPECT_EQ(b.data, a.data);
  std::remove(path.c_str());
  EXPECT_FALSE(readNpy(path, b, error));
  EXPECT_EQ(error.rfind("expects a readable .npy file, but got '" + path +
                            "': No such file",
                        0),
            0u)
      << error;
  EXPECT_FALSE(writeNpy("/nonexistent-dir/x.npy", a, error));
  EXPECT_EQ(error.rfind("expects a writable output path", 0), 0u) << error;
}

TEST(Npy, RefusesFortranOrder) {
  EXPECT_EQ(errorOf(withHeader("{'descr': '<f4', 'fortran_order': True, "
                               "'shape': (2, 2), }\n",
                               16)),
            "expects a C-order .npy file, but got fortran_order True (save a "
            "C-contiguous array, e.g. numpy.ascontiguousarray)");
}

TEST(Npy, RefusesTruncatedAndOversizedData) {
  std::vector<uint8_t> bytes = serializeNpy(sample(NpyType::F32, {2, 3}));
  bytes.pop_back();
  EXPECT_EQ(errorOf(bytes), "expects 24 bytes of data for shape (2, 3) and "
                            "dtype <f4, but got 23 (the file is truncated)");
  bytes.push_back(0);
  bytes.push_back(0);
  EXPECT_EQ(errorOf(bytes), "expects 24 bytes of data for shape (2, 3) and "
                            "dtype <f4, but got 25");
  // Cut inside the header.
  bytes.resize(40);
  EXPECT_EQ(errorOf(bytes).rfind("expects a .npy header of ", 0), 0u);
  bytes.resize(9);
  EXPECT_EQ(errorOf(bytes), "expects a .npy file (starting with \\x93NUMPY), "
                            "but got 9 bytes");
}

TEST(Npy, RefusesOtherFiles) {
  std::vector<uint8_t> elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0};
  EXPECT_EQ(errorOf(elf), "expects a .npy file (starting with \\x93NUMPY), "
                          "but got other bytes");
  std::vector<uint8_t> v4 = serializeNpy(sample(NpyType::F32, {2}));
  v4[6] = 4;
  EXPECT_EQ(errorOf(v4),
            "expects .npy format version 1.0, 2.0 or 3.0, but got 4.0");
}

TEST(Npy, RefusesOtherDTypes) {
  const std::string want = "expects a .npy dtype of <f2, <f4, <f8, |b1, |i1, "
                           "<i4 or <i8 (little-endian), but got ";
  EXPECT_EQ(errorOf(withHeader("{'descr': '>f4', 'fortran_order': False, "
                               "'shape': (1,), }\n",
                               4)),
            want + "'>f4'");
  EXPECT_EQ(errorOf(withHeader("{'descr': '<u2', 'fortran_order': False, "
                               "'shape': (1,), }\n",
                               2)),
            want + "'<u2'");
  // Structured dtypes are lists.
  EXPECT_NE(errorOf(withHeader("{'descr': [('a', '<f4')], 'fortran_order': "
                               "False, 'shape': (1,), }\n"))
                .find("has a simple value"),
            std::string::npos);
}

TEST(Npy, RefusesMalformedHeaders) {
  EXPECT_EQ(errorOf(withHeader("['descr']\n"))
                .rfind("expects a .npy header that is a Python dict", 0),
            0u);
  EXPECT_EQ(errorOf(withHeader("{'descr': '<f4', 'shape': (1,), }\n"))
                .rfind("expects a .npy header with the keys descr, "
                       "fortran_order and shape",
                       0),
            0u);
  EXPECT_EQ(errorOf(withHeader("{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (1,), 'x': 1}\n")),
            "expects a .npy header with the keys descr, fortran_order and "
            "shape, but got the key 'x'");
  EXPECT_NE(errorOf(withHeader("{'descr': '<f4', 'fortran_order': False, "
                               "'shape': (-1,), }\n"))
                .find("'shape' has a simple value"),
            std::string::npos);
  EXPECT_NE(errorOf(withHeader("{'descr': '<f4', 'fortran_order': Maybe, "
                               "'shape': (1,), }\n"))
                .find("'fortran_order' has a simple value"),
            std::string::npos);
}

} // namespace
