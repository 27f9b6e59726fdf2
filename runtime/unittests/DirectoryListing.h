//===- DirectoryListing.h - the names in a folder, for tests ----*- C++ -*-===//

#ifndef CUDNN_MLIR_RUNTIME_UNITTESTS_DIRECTORYLISTING_H
#define CUDNN_MLIR_RUNTIME_UNITTESTS_DIRECTORYLISTING_H

#include <dirent.h>
#include <set>
#include <string>

namespace cmrt::test_util {

/// The names in `dir`, but . and ..; empty when it cannot be read.
inline std::set<std::string> filesIn(const std::string &dir) {
  std::set<std::string> names;
  DIR *d = ::opendir(dir.c_str());
  if (!d)
    return names;
  while (dirent *e = ::readdir(d))
    if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
      names.insert(e->d_name);
  ::closedir(d);
  return names;
}

} // namespace cmrt::test_util

#endif // CUDNN_MLIR_RUNTIME_UNITTESTS_DIRECTORYLISTING_H
