//===- Manifest.cpp - a compiled module's manifest, parsed ----------------===//
//
// Its messages are what cudnn-run prints and what the Python loader's
// ManifestError says (test/Tools, python/tests/test_manifest.py).
//
//===----------------------------------------------------------------------===//

#include "module/Manifest.h"

namespace cmrt::module {

// Sizes stay below 2^62 so that every sum and product here fits an int64_t.
static constexpr int64_t kMaxValue = int64_t(1) << 62;

namespace {

struct DTypeInfo {
  cmrtManifestDType dtype;
  const char *name;
  int64_t bytes;
};

constexpr DTypeInfo kDTypes[] = {
    {CMRT_MANIFEST_F16, "f16", 2}, {CMRT_MANIFEST_BF16, "bf16", 2},
    {CMRT_MANIFEST_F32, "f32", 4}, {CMRT_MANIFEST_F64, "f64", 8},
    {CMRT_MANIFEST_I1, "i1", 1},   {CMRT_MANIFEST_I8, "i8", 1},
    {CMRT_MANIFEST_I32, "i32", 4}, {CMRT_MANIFEST_I64, "i64", 8}};

/// Parses a manifest spelling; false if it is none.
bool parseDType(std::string_view name, cmrtManifestDType &dtype) {
  for (const DTypeInfo &info : kDTypes) {
    if (name == info.name) {
      dtype = info.dtype;
      return true;
    }
  }
  return false;
}

} // namespace

const char *dtypeName(cmrtManifestDType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return info.name;
  return "?";
}

int64_t dtypeSize(cmrtManifestDType dtype) {
  for (const DTypeInfo &info : kDTypes)
    if (info.dtype == dtype)
      return info.bytes;
  return 1;
}

const Entry *Manifest::find(std::string_view name) const {
  for (const Entry &entry : entries)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

namespace {

/// Formats `[1,64,56,56]`.
std::string formatList(const std::vector<int64_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += ',';
    s += std::to_string(values[i]);
  }
  return s + "]";
}

std::vector<std::string_view> splitWords(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t')
      ++i;
    if (i > start)
      words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::string_view trim(std::string_view s) {
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  };
  while (!s.empty() && isSpace(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back()))
    s.remove_suffix(1);
  return s;
}

/// A non-negative decimal integer below 2^62.
bool parseCount(std::string_view s, int64_t &value) {
  if (s.empty())
    return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + (c - '0');
    if (value >= kMaxValue)
      return false;
  }
  return true;
}

/// `[1,2,3]` or `[]`.
bool parseList(std::string_view s, std::vector<int64_t> &values) {
  values.clear();
  if (s.size() < 2 || s.front() != '[' || s.back() != ']')
    return false;
  s = s.substr(1, s.size() - 2);
  if (s.empty())
    return true;
  while (true) {
    size_t comma = s.find(',');
    int64_t v;
    if (!parseCount(s.substr(0, comma), v))
      return false;
    values.push_back(v);
    if (comma == std::string_view::npos)
      return true;
    s.remove_prefix(comma + 1);
  }
}

/// ASCII letters, digits and '_', not starting with a digit. Not
/// std::isalnum: its answer for bytes above 127 depends on the locale, and
/// Python sets LC_CTYPE from the environment.
bool isName(std::string_view s) {
  auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  auto isWordChar = [&](char c) {
    return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_';
  };
  if (s.empty() || isDigit(s.front()))
    return false;
  for (char c : s)
    if (!isWordChar(c))
      return false;
  return true;
}

/// False if the tensor's elements or its buffer's span reach 2^59.
bool sizeFits(const ArgSpec &arg) {
  constexpr int64_t kMaxElements = int64_t(1) << 59;
  for (int64_t d : arg.dims)
    if (d == 0)
      return true;
  int64_t elements = 1;
  int64_t last = 0;
  for (size_t i = 0; i < arg.dims.size(); ++i) {
    int64_t d = arg.dims[i];
    int64_t s = arg.strides[i];
    if (elements > (kMaxElements - 1) / d)
      return false;
    elements *= d;
    if (s != 0 && d - 1 > (kMaxElements - 2 - last) / s)
      return false;
    last += (d - 1) * s;
  }
  return true;
}

class Parser {
public:
  Parser(std::string_view text, std::string &error)
      : text(text), error(error) {}

  bool run(Manifest &manifest);

private:
  /// The next non-blank line, trimmed; false at the end.
  bool nextLine(std::string_view &line);
  bool fail(std::string message) {
    error = std::move(message);
    return false;
  }
  std::string at() const {
    return "line " + std::to_string(lineNumber) + " of the manifest";
  }
  bool parseEntry(std::string_view header, Manifest &manifest);
  bool parseArg(const std::vector<std::string_view> &words, Entry &entry,
                bool &seenOutput);

  std::string_view text;
  std::string &error;
  size_t pos = 0;
  int64_t lineNumber = 0;
};

bool Parser::nextLine(std::string_view &line) {
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos)
      end = text.size();
    line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++lineNumber;
    if (!line.empty())
      return true;
  }
  return false;
}

bool Parser::run(Manifest &manifest) {
  manifest = Manifest();
  const std::string magic = "cudnn-mlir-module";
  std::string_view line;
  if (!nextLine(line))
    return fail("expects the manifest to start with '" + magic + " " +
                std::to_string(kManifestVersion) +
                "', but got an empty manifest");
  std::vector<std::string_view> words = splitWords(line);
  int64_t version;
  if (lineNumber != 1 || words.size() != 2 || words[0] != magic ||
      !parseCount(words[1], version))
    return fail("expects " + at() + " to be '" + magic +
                " <version>', but got '" + std::string(line) + "'");
  if (version != kManifestVersion)
    return fail("expects manifest format version " +
                std::to_string(kManifestVersion) + ", but got version " +
                std::to_string(version) +
                " (the module was compiled by another cudnn-mlir; recompile "
                "it or use a matching loader)");
  manifest.version = static_cast<int>(version);

  while (nextLine(line))
    if (!parseEntry(line, manifest))
      return false;
  if (manifest.entries.empty())
    return fail("expects at least one entry in the manifest, but got none");
  return true;
}

bool Parser::parseEntry(std::string_view header, Manifest &manifest) {
  std::vector<std::string_view> words = splitWords(header);
  if (words.size() != 2 || words[0] != "entry")
    return fail("expects " + at() + " to be 'entry <name>', but got '" +
                std::string(header) + "'");
  if (!isName(words[1]))
    return fail("expects " + at() +
                " to name the entry with letters, digits and '_' (not "
                "starting with a digit), but got '" +
                std::string(words[1]) + "'");
  if (manifest.find(words[1]))
    return fail("expects entry names to be unique, but got '" +
                std::string(words[1]) + "' twice (" + at() + ")");
  Entry entry;
  entry.name = std::string(words[1]);
  int64_t entryLine = lineNumber;
  bool seenOutput = false;
  std::string_view line;
  while (nextLine(line)) {
    words = splitWords(line);
    if (words.size() == 1 && words[0] == "end") {
      manifest.entries.push_back(std::move(entry));
      return true;
    }
    if (words.empty() || words[0] != "arg" || words.size() != 6)
      return fail("expects " + at() +
                  " to be 'arg <index> in|out <dtype> [dims] [strides]' or "
                  "'end', but got '" +
                  std::string(line) + "'");
    if (!parseArg(words, entry, seenOutput))
      return false;
  }
  return fail("expects 'end' to close entry '" + entry.name + "' (line " +
              std::to_string(entryLine) +
              "), but got the end of the manifest");
}

bool Parser::parseArg(const std::vector<std::string_view> &words, Entry &entry,
                      bool &seenOutput) {
  ArgSpec arg;
  int64_t expected = static_cast<int64_t>(entry.args.size());
  if (!parseCount(words[1], arg.index) || arg.index != expected)
    return fail("expects " + at() + " to have arg index " +
                std::to_string(expected) + ", but got '" +
                std::string(words[1]) + "'");
  if (words[2] == "out") {
    arg.isOutput = true;
    seenOutput = true;
  } else if (words[2] == "in") {
    if (seenOutput)
      return fail("expects the ins of entry '" + entry.name +
                  "' before its outs, but got an in after an out (" + at() +
                  ")");
  } else {
    return fail("expects " + at() + " to say 'in' or 'out', but got '" +
                std::string(words[2]) + "'");
  }
  if (!parseDType(words[3], arg.dtype))
    return fail("expects " + at() +
                " to have a dtype of f16, bf16, f32, f64, i1, i8, i32 or "
                "i64, but got '" +
                std::string(words[3]) + "'");
  if (!parseList(words[4], arg.dims))
    return fail("expects " + at() +
                " to have dims as [d0,d1,...] of non-negative integers, but "
                "got '" +
                std::string(words[4]) + "'");
  if (!parseList(words[5], arg.strides))
    return fail("expects " + at() +
                " to have strides as [s0,s1,...] of non-negative integers, "
                "but got '" +
                std::string(words[5]) + "'");
  if (arg.strides.size() != arg.dims.size())
    return fail("expects " + at() + " to have one stride per dim (" +
                std::to_string(arg.dims.size()) + "), but got " +
                std::to_string(arg.strides.size()));
  if (!sizeFits(arg))
    return fail("expects " + at() +
                " to describe a buffer of fewer than 2^59 elements, but got " +
                formatList(arg.dims) + " " + formatList(arg.strides));
  entry.args.push_back(std::move(arg));
  return true;
}

} // namespace

bool parseManifest(std::string_view text, Manifest &manifest,
                   std::string &error) {
  return Parser(text, error).run(manifest);
}

} // namespace cmrt::module
