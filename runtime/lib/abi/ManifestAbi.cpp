//===- ManifestAbi.cpp - the C entry points for compiled-module manifests -===//

#include "core/Errors.h"
#include "module/Manifest.h"

#include <memory>
#include <string>

struct cmrtManifestImpl {
  cmrt::module::Manifest manifest;
};

namespace {

/// CMRT_SUCCESS, or the error saying which argument of `function` is null.
cmrtStatus checkHandle(const char *function, cmrtManifest manifest,
                       const void *out, const char *outName) {
  if (!manifest)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      std::string(function) +
                          " expects a manifest, but got null");
  if (!out)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      std::string(function) + " expects a non-null " + outName +
                          " pointer, but got null");
  return CMRT_SUCCESS;
}

/// CMRT_SUCCESS if 0 <= index < count, else the error naming `what`.
cmrtStatus checkIndex(const char *function, const char *what, int64_t index,
                      size_t count) {
  if (index >= 0 && static_cast<uint64_t>(index) < count)
    return CMRT_SUCCESS;
  return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                    std::string(function) + " expects " + what +
                        " index in [0, " + std::to_string(count) +
                        "), but got " + std::to_string(index));
}

/// The entry `entry` of `manifest`, or null after reporting why not.
const cmrt::module::Entry *entryAt(const char *function, cmrtManifest manifest,
                                   int64_t entry, const void *out,
                                   const char *outName) {
  if (checkHandle(function, manifest, out, outName) != CMRT_SUCCESS ||
      checkIndex(function, "an entry", entry,
                 manifest->manifest.entries.size()) != CMRT_SUCCESS)
    return nullptr;
  return &manifest->manifest.entries[static_cast<size_t>(entry)];
}

} // namespace

extern "C" CMRT_EXPORT cmrtStatus cmrtManifestParse(const char *text,
                                                    int64_t length,
                                                    cmrtManifest *out) {
  if (!out)
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtManifestParse expects a non-null out pointer, but "
                      "got null");
  *out = nullptr;
  if (length < 0 || (!text && length != 0))
    return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT,
                      "cmrtManifestParse expects text of length >= 0, but "
                      "got " +
                          std::string(text ? "" : "null text of ") + "length " +
                          std::to_string(length));
  return cmrt::guarded("cmrtManifestParse", [&] {
    auto impl = std::make_unique<cmrtManifestImpl>();
    std::string error;
    if (!cmrt::module::parseManifest(
            std::string_view(text ? text : "", static_cast<size_t>(length)),
            impl->manifest, error))
      return cmrt::fail(CMRT_ERROR_INVALID_ARGUMENT, std::move(error));
    *out = impl.release();
    return cmrt::succeed();
  });
}

extern "C" CMRT_EXPORT cmrtStatus cmrtManifestDestroy(cmrtManifest manifest) {
  delete manifest;
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtManifestGetVersion(cmrtManifest manifest,
                                                         int64_t *version) {
  if (cmrtStatus s =
          checkHandle("cmrtManifestGetVersion", manifest, version, "version");
      s != CMRT_SUCCESS)
    return s;
  *version = manifest->manifest.version;
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus
cmrtManifestGetEntryCount(cmrtManifest manifest, int64_t *count) {
  if (cmrtStatus s =
          checkHandle("cmrtManifestGetEntryCount", manifest, count, "count");
      s != CMRT_SUCCESS)
    return s;
  *count = static_cast<int64_t>(manifest->manifest.entries.size());
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtManifestGetEntryName(
    cmrtManifest manifest, int64_t entry, const char **name) {
  const cmrt::module::Entry *e =
      entryAt("cmrtManifestGetEntryName", manifest, entry, name, "name");
  if (!e)
    return CMRT_ERROR_INVALID_ARGUMENT;
  *name = e->name.c_str();
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtManifestGetArgCount(cmrtManifest manifest,
                                                          int64_t entry,
                                                          int64_t *count) {
  const cmrt::module::Entry *e =
      entryAt("cmrtManifestGetArgCount", manifest, entry, count, "count");
  if (!e)
    return CMRT_ERROR_INVALID_ARGUMENT;
  *count = static_cast<int64_t>(e->args.size());
  return cmrt::succeed();
}

extern "C" CMRT_EXPORT cmrtStatus cmrtManifestGetArg(cmrtManifest manifest,
                                                     int64_t entry, int64_t arg,
                                                     cmrtManifestArg *out) {
  const cmrt::module::Entry *e =
      entryAt("cmrtManifestGetArg", manifest, entry, out, "out");
  if (!e)
    return CMRT_ERROR_INVALID_ARGUMENT;
  if (cmrtStatus s =
          checkIndex("cmrtManifestGetArg", "an arg", arg, e->args.size());
      s != CMRT_SUCCESS)
    return s;
  const cmrt::module::ArgSpec &spec = e->args[static_cast<size_t>(arg)];
  out->index = spec.index;
  out->isOutput = spec.isOutput ? 1 : 0;
  out->dtype = spec.dtype;
  out->dtypeName = cmrt::module::dtypeName(spec.dtype);
  out->elementBytes = cmrt::module::dtypeSize(spec.dtype);
  out->rank = static_cast<int64_t>(spec.dims.size());
  out->dims = spec.dims.data();
  out->strides = spec.strides.data();
  return cmrt::succeed();
}
