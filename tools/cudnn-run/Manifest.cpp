//===- Manifest.cpp - a compiled module's manifest, read by the runtime ---===//

#include "Manifest.h"
#include "Layout.h"

namespace cudnn_run {

int64_t ArgSpec::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

int64_t ArgSpec::storageElements() const {
  return stridedStorageElements(dims, strides);
}

std::string formatList(const std::vector<int64_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += ',';
    s += std::to_string(values[i]);
  }
  return s + "]";
}

std::string ArgSpec::signature() const {
  return std::string(isOutput ? "out " : "in ") + dtypeName + " " +
         formatList(dims) + " " + formatList(strides);
}

int64_t Entry::numInputs() const {
  int64_t n = 0;
  for (const ArgSpec &arg : args)
    n += arg.isOutput ? 0 : 1;
  return n;
}

int64_t Entry::numOutputs() const {
  return static_cast<int64_t>(args.size()) - numInputs();
}

const Entry *Manifest::find(std::string_view name) const {
  for (const Entry &entry : entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

namespace {

/// Frees a parsed manifest however the copy ends.
struct ManifestHandle {
  cmrtManifest handle = nullptr;
  ~ManifestHandle() { cmrtManifestDestroy(handle); }
};

ArgSpec argSpecOf(const cmrtManifestArg &arg) {
  ArgSpec spec;
  spec.index = arg.index;
  spec.isOutput = arg.isOutput != 0;
  spec.dtype = static_cast<cmrtManifestDType>(arg.dtype);
  spec.dtypeName = arg.dtypeName;
  spec.elementBytes = arg.elementBytes;
  if (arg.rank > 0) {
    spec.dims.assign(arg.dims, arg.dims + arg.rank);
    spec.strides.assign(arg.strides, arg.strides + arg.rank);
  }
  return spec;
}

/// Copies a parsed manifest; false (the runtime's message in `error`) if an
/// accessor fails, which only a runtime bug would make happen.
bool copyManifest(cmrtManifest handle, Manifest &manifest, std::string &error) {
  auto failed = [&](cmrtStatus status) {
    if (status != CMRT_SUCCESS)
      error = cmrtGetLastErrorMessage();
    return status != CMRT_SUCCESS;
  };
  int64_t entries = 0;
  if (failed(cmrtManifestGetVersion(handle, &manifest.version)) ||
      failed(cmrtManifestGetEntryCount(handle, &entries)))
    return false;
  for (int64_t e = 0; e < entries; ++e) {
    Entry entry;
    const char *name = nullptr;
    int64_t args = 0;
    if (failed(cmrtManifestGetEntryName(handle, e, &name)) ||
        failed(cmrtManifestGetArgCount(handle, e, &args)))
      return false;
    entry.name = name;
    for (int64_t a = 0; a < args; ++a) {
      cmrtManifestArg arg;
      if (failed(cmrtManifestGetArg(handle, e, a, &arg)))
        return false;
      entry.args.push_back(argSpecOf(arg));
    }
    manifest.entries.push_back(std::move(entry));
  }
  return true;
}

} // namespace

bool readManifest(std::string_view text, Manifest &manifest,
                  std::string &error) {
  manifest = Manifest();
  ManifestHandle parsed;
  if (cmrtManifestParse(text.data(), static_cast<int64_t>(text.size()),
                        &parsed.handle) != CMRT_SUCCESS) {
    error = cmrtGetLastErrorMessage();
    return false;
  }
  return copyManifest(parsed.handle, manifest, error);
}

} // namespace cudnn_run
