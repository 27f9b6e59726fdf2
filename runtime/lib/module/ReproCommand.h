//===- ReproCommand.h - the cudnn-run line that reruns a failing call -*- C++ -*-===//
//
// A compiled module's call that fails in the runtime (a graph without an
// engine, even for an anchor alone) ends its error with the command that
// reruns it: `cudnn-run <model.so> --entry <name>` ([tools.md]). The module
// is found from the call's return address (dladdr), the entry from the
// nearest exported symbol that has a `cmrt_entry_` twin.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_RUNTIME_REPROCOMMAND_H
#define CUDNN_MLIR_RUNTIME_REPROCOMMAND_H

#include <string>

namespace cmrt {

/// "to reproduce: cudnn-run <path> --entry <entry>" (the path shell-quoted
/// when it needs it; no --entry when `entry` is empty, with the hint that
/// --list names them).
std::string formatReproCommand(const std::string &modulePath,
                               const std::string &entry);

/// formatReproCommand for the compiled module that holds `returnAddress`,
/// or "" when it lies in no shared library with a module manifest (a
/// program calling the runtime itself, a JIT).
std::string reproCommandForCaller(const void *returnAddress);

} // namespace cmrt

#endif // CUDNN_MLIR_RUNTIME_REPROCOMMAND_H
