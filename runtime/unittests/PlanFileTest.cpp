//===- PlanFileTest.cpp - the disk plan cache's files, without a GPU ------===//

#include "graph/Log.h"
#include "graph/PlanFile.h"

#include "DirectoryListing.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace cmrt;
using namespace cmrt::graph;
using namespace cmrt::plan;
using cmrt::test_util::filesIn;

namespace {

constexpr int64_t kFrontend = 13200;

CacheKey key() { return makeCacheKey(0x0123456789abcdefull, 90, 91400); }

std::vector<uint8_t> payload() {
  std::vector<uint8_t> p(1000);
  for (size_t i = 0; i < p.size(); ++i)
    p[i] = static_cast<uint8_t>(i * 7 + 3);
  return p;
}

/// A fresh directory under the test's temporary directory.
std::string freshDirectory(const char *name) {
  const char *base = std::getenv("TMPDIR");
  std::string dir = std::string(base ? base : "/tmp") + "/cmrt-planfile-" +
                    name + "-" + std::to_string(::getpid());
  std::string cmd = "rm -rf '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

std::vector<uint8_t> readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

TEST(PlanFile, PathNamesTheKey) {
  EXPECT_EQ(planFilePath("/c", key()),
            "/c/sm90-cudnn91400-0123456789abcdef.cmrtplan");
  EXPECT_EQ(planFilePath("/c/", key()),
            "/c/sm90-cudnn91400-0123456789abcdef.cmrtplan");
}

CacheEnvironment environment(const char *cacheDir, const char *planCache,
                             const char *xdg, const char *home) {
  CacheEnvironment env;
  env.cacheDir = cacheDir;
  env.planCache = planCache;
  env.xdgCacheHome = xdg;
  env.home = home;
  return env;
}

TEST(PlanFile, TheCacheIsOnByDefaultUnderTheUsersCacheFolder) {
  std::string why;
  EXPECT_EQ(
      planCacheDirectory(environment(nullptr, nullptr, nullptr, "/h"), why),
      "/h/.cache/cudnn_mlir/plans");
  EXPECT_EQ(why, "");
  EXPECT_EQ(planCacheDirectory(environment(nullptr, nullptr, "/x", "/h"), why),
            "/x/cudnn_mlir/plans");
  EXPECT_EQ(planCacheDirectory(environment("/c/", nullptr, "/x", "/h"), why),
            "/c/plans");
  // Empty variables count as unset.
  EXPECT_EQ(planCacheDirectory(environment("", "", "", "/h"), why),
            "/h/.cache/cudnn_mlir/plans");
  // Nowhere to put it: off, quietly.
  EXPECT_EQ(
      planCacheDirectory(environment(nullptr, nullptr, nullptr, nullptr), why),
      "");
  EXPECT_EQ(why, "");
}

TEST(PlanFile, TheSwitchTurnsTheCacheOff) {
  std::string why;
  for (const char *off : {"0", "off", "OFF", "no", "false"}) {
    EXPECT_EQ(planCacheDirectory(environment("/c", off, nullptr, "/h"), why),
              "")
        << off;
    EXPECT_EQ(why, "") << off;
  }
  for (const char *on : {"1", "on", "yes", "True"}) {
    EXPECT_EQ(planCacheDirectory(environment("/c", on, nullptr, "/h"), why),
              "/c/plans")
        << on;
    EXPECT_EQ(why, "") << on;
  }
  EXPECT_EQ(planCacheDirectory(environment("/c", "maybe", nullptr, "/h"), why),
            "/c/plans");
  EXPECT_NE(why.find("CUDNN_MLIR_PLAN_CACHE expects 1/on/yes/true or "
                     "0/off/no/false, but found 'maybe'"),
            std::string::npos)
      << why;
}

TEST(PlanFile, EncodeDecodeRoundTrip) {
  std::vector<uint8_t> bytes = encodePlanFile(key(), kFrontend, payload());
  std::vector<uint8_t> out;
  std::string why;
  ASSERT_TRUE(decodePlanFile(bytes, key(), kFrontend, out, why)) << why;
  EXPECT_EQ(out, payload());
}

TEST(PlanFile, EveryMismatchIsAMissWithAReason) {
  std::vector<uint8_t> good = encodePlanFile(key(), kFrontend, payload());
  std::vector<uint8_t> out;
  std::string why;

  CacheKey other = key();
  other.cudnnVersion = 91900;
  EXPECT_FALSE(decodePlanFile(good, other, kFrontend, out, why));
  EXPECT_NE(why.find("expects cuDNN version"), std::string::npos) << why;
  other = key();
  other.computeCapability = 100;
  EXPECT_FALSE(decodePlanFile(good, other, kFrontend, out, why));
  EXPECT_NE(why.find("compute capability"), std::string::npos) << why;
  other = key();
  other.graphHash ^= 1;
  EXPECT_FALSE(decodePlanFile(good, other, kFrontend, out, why));
  EXPECT_NE(why.find("graph hash"), std::string::npos) << why;
  EXPECT_FALSE(decodePlanFile(good, key(), kFrontend + 1, out, why));
  EXPECT_NE(why.find("cudnn-frontend version"), std::string::npos) << why;

  std::vector<uint8_t> flipped = good;
  flipped.back() ^= 0x40; // one payload bit
  EXPECT_FALSE(decodePlanFile(flipped, key(), kFrontend, out, why));
  EXPECT_NE(why.find("corrupt"), std::string::npos) << why;
  EXPECT_TRUE(out.empty());

  std::vector<uint8_t> truncated(good.begin(), good.end() - 10);
  EXPECT_FALSE(decodePlanFile(truncated, key(), kFrontend, out, why));
  EXPECT_NE(why.find("payload of 1000 bytes, but the file holds 990"),
            std::string::npos)
      << why;

  std::vector<uint8_t> shortHeader(good.begin(), good.begin() + 20);
  EXPECT_FALSE(decodePlanFile(shortHeader, key(), kFrontend, out, why));
  EXPECT_NE(why.find("bytes of header"), std::string::npos) << why;

  std::vector<uint8_t> magic = good;
  magic[0] = 'X';
  EXPECT_FALSE(decodePlanFile(magic, key(), kFrontend, out, why));
  EXPECT_NE(why.find("magic"), std::string::npos) << why;
}

TEST(PlanFile, WriteCreatesDirectoriesAndReadsBack) {
  std::string dir = freshDirectory("write") + "/nested/deeper";
  std::string path = planFilePath(dir, key());
  Status s = writePlanFile(path, key(), kFrontend, payload());
  ASSERT_TRUE(s.ok()) << s.message;
  std::vector<uint8_t> out;
  std::string why;
  ASSERT_TRUE(readPlanFile(path, key(), kFrontend, out, why)) << why;
  EXPECT_EQ(out, payload());
  // No temporary file is left behind.
  EXPECT_EQ(filesIn(dir), std::set<std::string>{path.substr(dir.size() + 1)});
}

/// 64 KiB (several write calls) that start with `writer`.
std::vector<uint8_t> payloadOf(uint8_t writer) {
  std::vector<uint8_t> p(64 * 1024, static_cast<uint8_t>(writer * 3 + 1));
  p[0] = writer;
  return p;
}

// Writers of one plan file in several threads at once each succeed, and
// readers in between always find a whole file, one writer's: every write
// has a temporary file of its own. (The runtime's build lock serializes its
// own writes today; this holds without it.)
TEST(PlanFile, ConcurrentWritersAndReadersOfOneFile) {
  constexpr int kWriters = 4, kReaders = 4;
  std::string dir = freshDirectory("concurrent");
  std::string path = planFilePath(dir, key());
  ASSERT_TRUE(writePlanFile(path, key(), kFrontend, payloadOf(0)).ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        Status s = writePlanFile(path, key(), kFrontend,
                                 payloadOf(static_cast<uint8_t>(t)));
        EXPECT_TRUE(s.ok()) << s.message;
      }
    });
  for (int t = 0; t < kReaders; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) {
        std::vector<uint8_t> out;
        std::string why;
        ASSERT_TRUE(readPlanFile(path, key(), kFrontend, out, why)) << why;
        ASSERT_LT(out[0], kWriters);
        EXPECT_EQ(out, payloadOf(out[0]));
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(filesIn(dir), std::set<std::string>{path.substr(dir.size() + 1)});
}

TEST(PlanFile, CorruptFileOnDiskIsAMissThenOverwritten) {
  std::string dir = freshDirectory("corrupt");
  std::string path = planFilePath(dir, key());
  ASSERT_TRUE(writePlanFile(path, key(), kFrontend, payload()).ok());
  std::vector<uint8_t> bytes = readAll(path);
  bytes[bytes.size() / 2] ^= 0xff;
  writeAll(path, bytes);
  std::vector<uint8_t> out;
  std::string why;
  EXPECT_FALSE(readPlanFile(path, key(), kFrontend, out, why));
  EXPECT_NE(why.find(path), std::string::npos) << why;
  // What the runtime does next: rebuild and store again.
  ASSERT_TRUE(writePlanFile(path, key(), kFrontend, payload()).ok());
  EXPECT_TRUE(readPlanFile(path, key(), kFrontend, out, why)) << why;
}

TEST(PlanFile, MissingFileIsAMiss) {
  std::vector<uint8_t> out;
  std::string why;
  EXPECT_FALSE(readPlanFile(freshDirectory("missing") + "/x.cmrtplan", key(),
                            kFrontend, out, why));
  EXPECT_NE(why.find("no file"), std::string::npos) << why;
}

TEST(PlanFile, UnwritableDirectoryIsAStatusNotACrash) {
  std::string dir = freshDirectory("blocked");
  ASSERT_EQ(::mkdir(dir.c_str(), 0777), 0);
  std::string file = dir + "/plain-file";
  writeAll(file, {1, 2, 3});
  // A path whose "directory" is a regular file.
  Status s = writePlanFile(planFilePath(file, key()), key(), kFrontend,
                           payload());
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message.find("plan cache"), std::string::npos) << s.message;
}

TEST(RuntimeLog, EveryLineIsPrefixed) {
  EXPECT_EQ(prefixLogLines("one\ntwo"),
            "[cudnn-mlir] one\n[cudnn-mlir] two\n");
  EXPECT_EQ(prefixLogLines("one\n"), "[cudnn-mlir] one\n");
  EXPECT_EQ(prefixLogLines(""), "");
}

// Eight threads warn with one key at once: the warning is written once.
TEST(RuntimeLog, WarnOnceFromManyThreadsWritesOnce) {
  if (logEnabled())
    GTEST_SKIP() << "CUDNN_MLIR_LOG is set; this test reads standard error";
  std::string key = "warn-once-test-" + std::to_string(::getpid());
  testing::internal::CaptureStderr();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i)
        warnOnce(key, "warned once\nsecond line");
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "[cudnn-mlir] warned once\n[cudnn-mlir] second line\n");
}

} // namespace
