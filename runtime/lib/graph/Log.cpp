//===- Log.cpp - CUDNN_MLIR_LOG: the runtime's optional log ---------------===//

#include "graph/Log.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <unordered_set>

using namespace cmrt;

namespace {

struct LogSink {
  std::mutex mutex;
  FILE *file = nullptr; // null: off
  std::unordered_set<std::string> onceKeys;

  LogSink() {
    const char *value = std::getenv("CUDNN_MLIR_LOG");
    if (!value)
      return;
    std::string v = value;
    if (v.empty() || v == "0")
      return;
    if (v == "1" || v == "stderr") {
      file = stderr;
      return;
    }
    file = std::fopen(value, "a");
    if (!file)
      std::fprintf(stderr,
                   "[cudnn-mlir] CUDNN_MLIR_LOG names '%s', which cannot be "
                   "opened for appending; logging to stderr instead\n",
                   value);
    if (!file)
      file = stderr;
  }
};

LogSink &sink() {
  // Leaked on purpose: logging may happen from other static destructors.
  static LogSink *s = new LogSink;
  return *s;
}

} // namespace

bool cmrt::logEnabled() { return sink().file != nullptr; }

std::string cmrt::prefixLogLines(const std::string &text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    out += "[cudnn-mlir] ";
    out.append(text, start, end - start);
    out += '\n';
    start = end + 1;
  }
  return out;
}

void cmrt::logText(const std::string &text) {
  LogSink &s = sink();
  if (!s.file)
    return;
  std::string lines = prefixLogLines(text);
  std::lock_guard<std::mutex> lock(s.mutex);
  std::fwrite(lines.data(), 1, lines.size(), s.file);
  std::fflush(s.file);
}

namespace {

/// Whether `key` is new to this process (and now recorded).
bool firstTime(LogSink &s, const std::string &key) {
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.onceKeys.insert(key).second;
}

} // namespace

void cmrt::logOnce(const std::string &key, const std::string &text) {
  LogSink &s = sink();
  if (s.file && firstTime(s, key))
    logText(text);
}

void cmrt::warnOnce(const std::string &key, const std::string &text) {
  LogSink &s = sink();
  if (!firstTime(s, key))
    return;
  if (s.file) {
    logText(text);
    return;
  }
  std::string lines = prefixLogLines(text);
  std::lock_guard<std::mutex> lock(s.mutex);
  std::fwrite(lines.data(), 1, lines.size(), stderr);
}
