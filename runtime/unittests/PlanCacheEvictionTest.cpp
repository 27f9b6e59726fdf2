//===- PlanCacheEvictionTest.cpp - the plan disk cache's size cap ---------===//

#include "graph/PlanCacheEviction.h"
#include "graph/PlanFile.h"

#include "DirectoryListing.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace cmrt;
using namespace cmrt::plan;
using cmrt::test_util::filesIn;

namespace {

constexpr int64_t kKiB = 1024;

/// A fresh, existing directory under the test's temporary directory.
std::string freshDirectory(const char *name) {
  const char *base = std::getenv("TMPDIR");
  std::string dir = std::string(base ? base : "/tmp") + "/cmrt-eviction-" +
                    name + "-" + std::to_string(::getpid());
  std::string cmd = "rm -rf '" + dir + "' && mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  return dir;
}

/// A file of `bytes` zeros at `dir`/`name`, last used `secondsAgo` ago.
void writeFile(const std::string &dir, const std::string &name, int64_t bytes,
               int secondsAgo) {
  std::string path = dir + "/" + name;
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    std::vector<char> zeros(static_cast<size_t>(bytes), 0);
    out.write(zeros.data(), static_cast<std::streamsize>(zeros.size()));
  }
  struct timespec now;
  ::clock_gettime(CLOCK_REALTIME, &now);
  struct timespec times[2] = {now, now};
  times[0].tv_sec -= secondsAgo;
  times[1].tv_sec -= secondsAgo;
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0) << path;
}

TEST(PlanCacheEviction, RemovesTheLeastRecentlyUsedUntilUnderTheCap) {
  std::string dir = freshDirectory("lru");
  writeFile(dir, "a.cmrtplan", 64 * kKiB, 400);
  writeFile(dir, "b.cmrtplan", 64 * kKiB, 300);
  writeFile(dir, "c.cmrtplan", 64 * kKiB, 200);
  writeFile(dir, "d.cmrtplan", 64 * kKiB, 100);
  Eviction e = evictLeastRecentlyUsed(dir, 150 * kKiB);
  EXPECT_EQ(e.bytesBefore, 256 * kKiB);
  EXPECT_EQ(e.bytesAfter, 128 * kKiB);
  EXPECT_EQ(e.filesRemoved, 2);
  EXPECT_EQ(filesIn(dir), (std::set<std::string>{"c.cmrtplan", "d.cmrtplan"}));
}

TEST(PlanCacheEviction, AReadMakesAFileTheLastToGo) {
  std::string dir = freshDirectory("touch");
  writeFile(dir, "old.cmrtplan", 64 * kKiB, 300);
  writeFile(dir, "newer.cmrtplan", 64 * kKiB, 100);
  touchPlanFile(dir + "/old.cmrtplan");
  evictLeastRecentlyUsed(dir, 100 * kKiB);
  EXPECT_EQ(filesIn(dir), std::set<std::string>{"old.cmrtplan"});
}

TEST(PlanCacheEviction, ADecodedReadTouchesItsFile) {
  std::string dir = freshDirectory("read");
  graph::CacheKey key = graph::makeCacheKey(0x42, 90, 91400);
  std::string path = planFilePath(dir, key);
  ASSERT_TRUE(writePlanFile(path, key, 13200, {1, 2, 3}).ok());
  struct timespec old[2];
  ::clock_gettime(CLOCK_REALTIME, &old[0]);
  old[0].tv_sec -= 1000;
  old[1] = old[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), old, 0), 0);
  std::vector<uint8_t> payload;
  std::string why;
  ASSERT_TRUE(readPlanFile(path, key, 13200, payload, why)) << why;
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_GT(st.st_mtim.tv_sec, old[0].tv_sec + 900);
}

TEST(PlanCacheEviction, OnlyPlanFilesCountAndGo) {
  std::string dir = freshDirectory("others");
  writeFile(dir, "a.cmrtplan", 64 * kKiB, 300);
  writeFile(dir, "notes.txt", 512 * kKiB, 400);
  writeFile(dir, "b.cmrtplan.tmp123.0", 512 * kKiB, 400);
  Eviction e = evictLeastRecentlyUsed(dir, 100 * kKiB);
  EXPECT_EQ(e.bytesBefore, 64 * kKiB);
  EXPECT_EQ(e.filesRemoved, 0);
  EXPECT_EQ(filesIn(dir).size(), 3u);
}

TEST(PlanCacheEviction, NoCapAndNoFolderRemoveNothing) {
  std::string dir = freshDirectory("nocap");
  writeFile(dir, "a.cmrtplan", 64 * kKiB, 300);
  EXPECT_EQ(evictLeastRecentlyUsed(dir, 0).filesRemoved, 0);
  EXPECT_EQ(filesIn(dir).size(), 1u);
  Eviction missing = evictLeastRecentlyUsed(dir + "/absent", 1);
  EXPECT_EQ(missing.filesRemoved, 0);
  EXPECT_EQ(missing.bytesBefore, 0);
}

TEST(PlanCacheEviction, TheCapFromTheEnvironment) {
  std::string why;
  EXPECT_EQ(planCacheMaxBytes(nullptr, why), kDefaultPlanCacheMaxBytes);
  EXPECT_TRUE(why.empty());
  EXPECT_EQ(planCacheMaxBytes("", why), kDefaultPlanCacheMaxBytes);
  EXPECT_EQ(planCacheMaxBytes("0", why), 0);
  EXPECT_EQ(planCacheMaxBytes("64", why), 64 * 1024 * kKiB);
  EXPECT_TRUE(why.empty());
  for (const char *bad : {"1.5", "-3", "lots", "12MB"}) {
    EXPECT_EQ(planCacheMaxBytes(bad, why), kDefaultPlanCacheMaxBytes) << bad;
    EXPECT_NE(why.find("CUDNN_MLIR_PLAN_CACHE_MAX_MB expects a whole number"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find(bad), std::string::npos) << why;
  }
}

} // namespace
