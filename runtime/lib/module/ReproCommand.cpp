//===- ReproCommand.cpp - the cudnn-run line that reruns a failing call ---===//

#include "module/ReproCommand.h"

#include <dlfcn.h>

#include <cctype>
#include <cstring>

using namespace cmrt;

namespace {

/// `text` as one shell word: as it is when it has only safe characters,
/// else in single quotes.
std::string shellWord(const std::string &text) {
  bool safe = !text.empty();
  for (char c : text)
    safe = safe && (std::isalnum(static_cast<unsigned char>(c)) ||
                    std::strchr("/._-+=:,@%", c));
  if (safe)
    return text;
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Closes a dlopen handle when it goes out of scope.
struct Library {
  void *handle;
  ~Library() {
    if (handle)
      dlclose(handle);
  }
};

} // namespace

std::string cmrt::formatReproCommand(const std::string &modulePath,
                                     const std::string &entry) {
  std::string line = "to reproduce: cudnn-run " + shellWord(modulePath);
  if (entry.empty())
    return line + " --entry NAME (cudnn-run " + shellWord(modulePath) +
           " --list names the entries)";
  return line + " --entry " + shellWord(entry);
}

std::string cmrt::reproCommandForCaller(const void *returnAddress) {
  Dl_info info{};
  if (!returnAddress || !dladdr(returnAddress, &info) || !info.dli_fname ||
      !*info.dli_fname)
    return "";
  // Already loaded: RTLD_NOLOAD only takes another reference.
  Library library{dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD)};
  if (!library.handle || !dlsym(library.handle, "cmrt_module_manifest"))
    return "";
  std::string entry;
  if (info.dli_sname) {
    std::string symbol = info.dli_sname;
    const std::string prefix = "cmrt_entry_";
    if (symbol.rfind(prefix, 0) == 0)
      entry = symbol.substr(prefix.size());
    else if (dlsym(library.handle, (prefix + symbol).c_str()))
      entry = symbol;
  }
  return formatReproCommand(info.dli_fname, entry);
}
