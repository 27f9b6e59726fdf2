//===- OpsByReason.h - ops grouped by a reason, for reports -----*- C++ -*-===//
//
// A report is a line per reason, not a line per op: the ops that share a
// reason are gathered, in the order each reason was first met, and the
// report remarks once on the first op of each group with the group's size.
//
//===----------------------------------------------------------------------===//

#ifndef CUDNN_MLIR_SUPPORT_OPSBYREASON_H
#define CUDNN_MLIR_SUPPORT_OPSBYREASON_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <utility>

namespace mlir::cudnn_mlir {

class OpsByReason {
public:
  using Group = std::pair<std::string, SmallVector<Operation *>>;

  void add(StringRef reason, Operation *op) {
    auto [it, added] = index.try_emplace(reason, groups.size());
    if (added)
      groups.push_back({reason.str(), {}});
    groups[it->second].second.push_back(op);
  }

  /// The groups, in the order their reasons were first added.
  ArrayRef<Group> getGroups() const { return groups; }

private:
  SmallVector<Group> groups;
  llvm::StringMap<size_t> index;
};

} // namespace mlir::cudnn_mlir

#endif // CUDNN_MLIR_SUPPORT_OPSBYREASON_H
