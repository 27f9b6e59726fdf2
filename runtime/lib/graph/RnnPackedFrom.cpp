//===- RnnPackedFrom.cpp - what a kept weight space holds -----------------===//

#include "graph/RnnPackedFrom.h"

#include <algorithm>

using namespace cmrt::rnn;

bool PackedFrom::holds(uint64_t version, const void *const *params,
                       int64_t count) const {
  if (version == 0 || version != version_ || count < 0 ||
      static_cast<size_t>(count) != params_.size())
    return false;
  return std::equal(params_.begin(), params_.end(), params);
}

void PackedFrom::record(uint64_t version, const void *const *params,
                        int64_t count) {
  version_ = version;
  params_.assign(params, params + std::max<int64_t>(count, 0));
}

void PackedFrom::forget() {
  version_ = 0;
  params_.clear();
}
