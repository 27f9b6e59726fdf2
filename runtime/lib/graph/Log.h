//===- Log.h - CUDNN_MLIR_LOG: the runtime's optional log -------*- C++ -*-===//
//
// Off unless the environment variable CUDNN_MLIR_LOG is set when the runtime
// first logs: "1" or "stderr" logs to standard error, "0" or "" leaves it
// off, anything else is a file the log is appended to. Each line starts with
// "[cudnn-mlir] ". What is logged: graph dumps and the engine chosen for each
// build, where a plan came from (built, autotuned, disk cache), build times,
// the enqueue time of each execute, and why a graph was split.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_LOG_H
#define CUDNN_MLIR_RUNTIME_LOG_H

#include <string>

namespace cmrt {

/// Whether CUDNN_MLIR_LOG turned logging on (read once per process).
bool logEnabled();

/// Writes `text` (one or more lines) to the log if it is on. Thread-safe.
void logText(const std::string &text);

/// logText(), but only the first time `key` is seen in this process.
void logOnce(const std::string &key, const std::string &text);

/// Like logOnce, but a warning: with logging off it goes to standard error.
void warnOnce(const std::string &key, const std::string &text);

/// Adds the "[cudnn-mlir] " prefix to every line of `text`.
std::string prefixLogLines(const std::string &text);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_LOG_H
