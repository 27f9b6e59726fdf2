//===- cudnn-run.cpp - run an entry of a compiled model on a GPU ----------===//
//
//   cudnn-run model.so [--entry NAME] [--input a.npy ...] [--output o.npy ...]
//             [--seed S] [--benchmark N] [--list]
//
// Loads a compiled module (docs/abi.md, "Calling a compiled module"), feeds
// one entry .npy inputs (or seeded random ones), runs it on a stream of its
// own and writes the outputs as .npy. Links only the cudnn-mlir runtime and
// the CUDA runtime, so it builds wherever the runtime does. Everything that
// can be checked on the host (arguments, model, manifest, inputs) is checked
// before the GPU is touched, so those errors show on a machine without one.
//
//===----------------------------------------------------------------------===//

#include "Layout.h"
#include "Manifest.h"
#include "Npy.h"

#include "cudnn-mlir-runtime/Runtime.h"

#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

using namespace cudnn_run;

namespace {

using EntryFn = int32_t (*)(void *stream, void *const *buffers);

const char kUsage[] =
    "usage: cudnn-run model.so [--entry NAME] [--input a.npy ...]\n"
    "                 [--output out.npy ...] [--seed S] [--benchmark N] "
    "[--list]\n"
    "\n"
    "Runs one entry of a cudnn-mlir compiled module on GPU 0.\n"
    "\n"
    "  --entry NAME     the entry to run (optional when the module has one)\n"
    "  --input F ...    .npy inputs in logical order, one per `in` arg in\n"
    "                   order; missing ones are seeded uniform [-1, 1)\n"
    "                   (integers: -1, 0, 1; i1: 0, 1). bf16 args take float32\n"
    "                   files (rounded to nearest even)\n"
    "  --output F ...   where to write the `out` args, in order (bf16 outputs\n"
    "                   are written as float32); fewer than the outs is fine\n"
    "  --seed S         seed of the random inputs (default 0)\n"
    "  --benchmark N    after a warm-up call, time N calls with CUDA events\n"
    "                   and print `median_ms=... min_ms=... calls=N`\n"
    "  --list           print the entries and their args, then exit\n"
    "  --help           print this text\n";

struct Options {
  std::string model;
  std::string entry;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  uint64_t seed = 0;
  int64_t benchmark = 0;
  bool list = false;
  bool help = false;
};

/// Every failure ends here: one line on stderr, exit code 1.
[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "cudnn-run: %s\n", message.c_str());
  std::exit(1);
}

bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text.size() > 19)
    return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  return true;
}

Options parseOptions(int argc, char **argv) {
  Options opts;
  // The list a bare argument after --input / --output goes to.
  std::vector<std::string> *list = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool hasValue = false;
    if (arg.rfind("--", 0) == 0) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        hasValue = true;
      }
    }
    auto takeValue = [&](const char *what) {
      if (hasValue)
        return value;
      if (i + 1 >= argc)
        fail("expects " + arg + " to be followed by " + what +
             ", but got the end of the arguments");
      return std::string(argv[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      opts.help = true;
    } else if (arg == "--list") {
      opts.list = true;
      list = nullptr;
    } else if (arg == "--entry") {
      opts.entry = takeValue("an entry name");
      list = nullptr;
    } else if (arg == "--input" || arg == "--output") {
      list = arg == "--input" ? &opts.inputs : &opts.outputs;
      list->push_back(takeValue("a .npy file"));
    } else if (arg == "--seed") {
      std::string text = takeValue("a seed");
      if (!parseUnsigned(text, opts.seed))
        fail("expects --seed to be a non-negative integer, but got '" + text +
             "'");
      list = nullptr;
    } else if (arg == "--benchmark") {
      std::string text = takeValue("a call count");
      uint64_t n;
      if (!parseUnsigned(text, n) || n < 1 || n > 1000000)
        fail("expects --benchmark to be a call count from 1 to 1000000, but "
             "got '" +
             text + "'");
      opts.benchmark = static_cast<int64_t>(n);
      list = nullptr;
    } else if (arg.size() > 1 && arg[0] == '-') {
      fail("expects an option of --entry, --input, --output, --seed, "
           "--benchmark, --list or --help, but got '" +
           arg + "' (see --help)");
    } else if (list) {
      list->push_back(arg);
    } else if (opts.model.empty()) {
      opts.model = arg;
    } else {
      fail("expects one model file, but got '" + opts.model + "' and '" +
           arg + "' (put .npy files after --input or --output)");
    }
  }
  return opts;
}

/// Loads the model and reads its manifest.
void *loadModel(const std::string &path, Manifest &manifest) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    fail("expects a compiled model file, but got '" + path +
         "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    fail("expects a compiled model file, but got '" + path +
         "', which is not a regular file");
  // dlopen searches the library path for names without a slash.
  std::string openPath = path.find('/') == std::string::npos ? "./" + path : path;
  void *handle = ::dlopen(openPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = ::dlerror();
    fail("expects a loadable shared library, but dlopen('" + path +
         "') failed: " + (why ? why : "unknown error"));
  }
  const char *text =
      static_cast<const char *>(::dlsym(handle, "cmrt_module_manifest"));
  if (!text)
    fail("expects a cudnn-mlir compiled module exporting "
         "'cmrt_module_manifest', but got '" +
         path + "', which has none");
  std::string error;
  if (!readManifest(text, manifest, error))
    fail(error + " (in the manifest of '" + path + "')");
  return handle;
}

void printList(const Manifest &manifest) {
  for (const Entry &entry : manifest.entries) {
    std::printf("entry %s\n", entry.name.c_str());
    for (const ArgSpec &arg : entry.args)
      std::printf("  arg %" PRId64 " %s\n", arg.index,
                  arg.signature().c_str());
  }
}

const Entry &chooseEntry(const Manifest &manifest, const std::string &name,
                         const std::string &path) {
  std::string names;
  for (const Entry &entry : manifest.entries)
    names += (names.empty() ? "" : ", ") + entry.name;
  if (name.empty()) {
    if (manifest.entries.size() == 1)
      return manifest.entries.front();
    fail("expects --entry NAME for a module with " +
         std::to_string(manifest.entries.size()) + " entries (" + names +
         "), but got none");
  }
  const Entry *entry = manifest.find(name);
  if (!entry)
    fail("expects --entry to name an entry of '" + path + "' (" + names +
         "), but got '" + name + "'");
  return *entry;
}

/// "1 in arg", "2 in args".
std::string count(int64_t n, const std::string &noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string argLabel(const ArgSpec &arg) {
  return "arg " + std::to_string(arg.index) + " (" + arg.signature() + ")";
}

/// The npy type an arg travels as.
NpyType npyTypeFor(cmrtManifestDType dtype) {
  switch (dtype) {
  case CMRT_MANIFEST_F16:
    return NpyType::F16;
  case CMRT_MANIFEST_BF16:
  case CMRT_MANIFEST_F32:
    return NpyType::F32;
  case CMRT_MANIFEST_F64:
    return NpyType::F64;
  case CMRT_MANIFEST_I1:
    return NpyType::Bool;
  case CMRT_MANIFEST_I8:
    return NpyType::I8;
  case CMRT_MANIFEST_I32:
    return NpyType::I32;
  case CMRT_MANIFEST_I64:
    return NpyType::I64;
  }
  return NpyType::F32;
}

/// Logical-order data of `arg` in its device element type, from a file.
std::vector<uint8_t> loadInput(const ArgSpec &arg, const std::string &file,
                               size_t position) {
  NpyArray array;
  std::string error;
  if (!readNpy(file, array, error))
    fail(error);
  std::string what = "--input " + std::to_string(position) + " ('" + file +
                     "') for " + argLabel(arg);
  NpyType want = npyTypeFor(arg.dtype);
  if (array.type != want)
    fail("expects " + what + " to have dtype " + npyDescr(want) +
         (arg.dtype == CMRT_MANIFEST_BF16 ? " (float32, rounded to bf16)"
                                          : "") +
         ", but got " + npyDescr(array.type));
  if (array.shape != arg.dims)
    fail("expects " + what + " to have shape " + formatList(arg.dims) +
         ", but got " + formatList(array.shape));
  if (arg.dtype != CMRT_MANIFEST_BF16)
    return std::move(array.data);
  std::vector<uint8_t> out(array.data.size() / 2);
  for (size_t i = 0; i < out.size() / 2; ++i) {
    float f;
    std::memcpy(&f, array.data.data() + 4 * i, 4);
    uint16_t b = floatToBf16(f);
    std::memcpy(out.data() + 2 * i, &b, 2);
  }
  return out;
}

/// Seeded logical-order data of `arg` in its device element type.
std::vector<uint8_t> randomInput(const ArgSpec &arg, uint64_t seed) {
  UniformSource source(seed ^ (static_cast<uint64_t>(arg.index) + 1) *
                                  0xd1b54a32d192ed03ull);
  int64_t n = arg.numElements();
  int64_t size = arg.elementBytes;
  std::vector<uint8_t> out(static_cast<size_t>(n * size));
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *p = out.data() + i * size;
    switch (arg.dtype) {
    case CMRT_MANIFEST_F16: {
      uint16_t h = floatToHalf(source.nextFloat());
      std::memcpy(p, &h, 2);
      break;
    }
    case CMRT_MANIFEST_BF16: {
      uint16_t b = floatToBf16(source.nextFloat());
      std::memcpy(p, &b, 2);
      break;
    }
    case CMRT_MANIFEST_F32: {
      float f = source.nextFloat();
      std::memcpy(p, &f, 4);
      break;
    }
    case CMRT_MANIFEST_F64: {
      double d = source.nextFloat();
      std::memcpy(p, &d, 8);
      break;
    }
    case CMRT_MANIFEST_I1:
      *p = static_cast<uint8_t>(source.nextBits() & 1);
      break;
    case CMRT_MANIFEST_I8:
    case CMRT_MANIFEST_I32:
    case CMRT_MANIFEST_I64: {
      int64_t v = static_cast<int64_t>(source.nextBits() % 3) - 1;
      // Little-endian: the low bytes of the int64 are the narrower int.
      std::memcpy(p, &v, static_cast<size_t>(size));
      break;
    }
    }
  }
  return out;
}

/// The npy array of an output, from its logical-order device-typed data.
NpyArray outputArray(const ArgSpec &arg, std::vector<uint8_t> logical) {
  NpyArray array;
  array.type = npyTypeFor(arg.dtype);
  array.shape = arg.dims;
  if (arg.dtype != CMRT_MANIFEST_BF16) {
    array.data = std::move(logical);
    return array;
  }
  array.data.resize(logical.size() * 2);
  for (size_t i = 0; i < logical.size() / 2; ++i) {
    uint16_t b;
    std::memcpy(&b, logical.data() + 2 * i, 2);
    float f = bf16ToFloat(b);
    std::memcpy(array.data.data() + 4 * i, &f, 4);
  }
  return array;
}

double elementAsDouble(const ArgSpec &arg, const uint8_t *p) {
  switch (arg.dtype) {
  case CMRT_MANIFEST_F16: {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  case CMRT_MANIFEST_BF16: {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return bf16ToFloat(b);
  }
  case CMRT_MANIFEST_F32: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  case CMRT_MANIFEST_F64: {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  case CMRT_MANIFEST_I1:
  case CMRT_MANIFEST_I8:
    return static_cast<int8_t>(*p);
  case CMRT_MANIFEST_I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case CMRT_MANIFEST_I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  }
  return 0;
}

/// One line per output: what it is and a few numbers to eyeball.
void printSummary(const ArgSpec &arg, const std::vector<uint8_t> &logical,
                  const std::string &file) {
  int64_t n = arg.numElements();
  int64_t size = arg.elementBytes;
  double sum = 0, absMax = 0;
  int64_t nonFinite = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = elementAsDouble(arg, logical.data() + i * size);
    if (!std::isfinite(v)) {
      ++nonFinite;
      continue;
    }
    sum += v;
    absMax = std::max(absMax, std::fabs(v));
  }
  std::printf("out %" PRId64 " %s %s: mean=%.6g absmax=%.6g nonfinite=%" PRId64
              "%s%s\n",
              arg.index, arg.dtypeName, formatList(arg.dims).c_str(),
              n - nonFinite > 0 ? sum / static_cast<double>(n - nonFinite)
                                : 0.0,
              absMax, nonFinite, file.empty() ? "" : " -> ",
              file.c_str());
}

void checkCuda(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    fail(std::string("expects ") + what + " to succeed, but CUDA reported " +
         cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}

/// Device buffers of one call, freed at exit.
struct DeviceBuffers {
  std::vector<void *> pointers;
  ~DeviceBuffers() {
    for (void *p : pointers)
      if (p)
        cudaFree(p);
  }
};

void runEntry(const Options &opts, const Entry &entry, EntryFn fn,
              const std::vector<std::vector<uint8_t>> &hostStrided) {
  if (cmrtCheckDevice(0) != CMRT_SUCCESS)
    fail(cmrtGetLastErrorMessage());
  checkCuda(cudaSetDevice(0), "cudaSetDevice(0)");

  DeviceBuffers buffers;
  for (const ArgSpec &arg : entry.args) {
    void *p = nullptr;
    size_t bytes = static_cast<size_t>(std::max<int64_t>(arg.storageBytes(), 1));
    checkCuda(cudaMalloc(&p, bytes),
              ("cudaMalloc of " + std::to_string(bytes) + " bytes for " +
               argLabel(arg))
                  .c_str());
    buffers.pointers.push_back(p);
    if (arg.isOutput) {
      // All ones: NaN for floats, so an output the entry never writes shows.
      checkCuda(cudaMemset(p, 0xff, bytes), "cudaMemset");
    } else {
      const std::vector<uint8_t> &host = hostStrided[arg.index];
      checkCuda(cudaMemcpy(p, host.data(), host.size(), cudaMemcpyHostToDevice),
                "cudaMemcpy of an input");
    }
  }

  cudaStream_t stream;
  checkCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking),
            "cudaStreamCreateWithFlags");
  auto call = [&](const char *when) {
    int32_t status = fn(stream, buffers.pointers.data());
    if (status != 0) {
      const char *message = cmrtGetLastErrorMessage();
      fail("expects entry '" + entry.name + "' to succeed (" + when +
           "), but it returned status " + std::to_string(status) + ": " +
           (message && *message ? message : "(no message)"));
    }
  };
  call("first call");
  checkCuda(cudaStreamSynchronize(stream), "the entry's first call");

  if (opts.benchmark > 0) {
    std::vector<cudaEvent_t> events(2 * static_cast<size_t>(opts.benchmark));
    for (cudaEvent_t &e : events)
      checkCuda(cudaEventCreate(&e), "cudaEventCreate");
    for (int64_t i = 0; i < opts.benchmark; ++i) {
      checkCuda(cudaEventRecord(events[2 * i], stream), "cudaEventRecord");
      call("benchmark call");
      checkCuda(cudaEventRecord(events[2 * i + 1], stream), "cudaEventRecord");
    }
    checkCuda(cudaStreamSynchronize(stream), "the benchmark calls");
    std::vector<float> ms(static_cast<size_t>(opts.benchmark));
    for (int64_t i = 0; i < opts.benchmark; ++i)
      checkCuda(cudaEventElapsedTime(&ms[i], events[2 * i], events[2 * i + 1]),
                "cudaEventElapsedTime");
    for (cudaEvent_t e : events)
      cudaEventDestroy(e);
    std::sort(ms.begin(), ms.end());
    size_t n = ms.size();
    double median = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2.0;
    std::printf("median_ms=%.4f min_ms=%.4f calls=%" PRId64 "\n", median,
                static_cast<double>(ms.front()), opts.benchmark);
  }

  size_t written = 0;
  for (const ArgSpec &arg : entry.args) {
    if (!arg.isOutput)
      continue;
    std::vector<uint8_t> strided(static_cast<size_t>(arg.storageBytes()));
    checkCuda(cudaMemcpy(strided.data(), buffers.pointers[arg.index],
                         strided.size(), cudaMemcpyDeviceToHost),
              "cudaMemcpy of an output");
    std::vector<uint8_t> logical(
        static_cast<size_t>(arg.numElements() * arg.elementBytes));
    stridedToLogical(strided.data(), logical.data(), arg.dims, arg.strides,
                     arg.elementBytes);
    std::string file = written < opts.outputs.size() ? opts.outputs[written] : "";
    ++written;
    printSummary(arg, logical, file);
    if (!file.empty()) {
      std::string error;
      if (!writeNpy(file, outputArray(arg, std::move(logical)), error))
        fail(error);
    }
  }
  checkCuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
}

int run(int argc, char **argv) {
  Options opts = parseOptions(argc, argv);
  if (opts.help) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (opts.model.empty())
    fail("expects a compiled model (model.so) as the first argument, but got "
         "none (see --help)");

  Manifest manifest;
  void *handle = loadModel(opts.model, manifest);
  if (opts.list) {
    printList(manifest);
    return 0;
  }
  const Entry &entry = chooseEntry(manifest, opts.entry, opts.model);
  std::string symbol = "cmrt_entry_" + entry.name;
  auto fn = reinterpret_cast<EntryFn>(::dlsym(handle, symbol.c_str()));
  if (!fn)
    fail("expects '" + opts.model + "' to export '" + symbol +
         "' (its manifest lists entry '" + entry.name + "'), but got none");

  int64_t ins = entry.numInputs(), outs = entry.numOutputs();
  if (static_cast<int64_t>(opts.inputs.size()) > ins)
    fail("expects at most " + count(ins, "--input file") + " (entry '" +
         entry.name + "' has " + count(ins, "in arg") + "), but got " +
         std::to_string(opts.inputs.size()));
  if (static_cast<int64_t>(opts.outputs.size()) > outs)
    fail("expects at most " + count(outs, "--output file") + " (entry '" +
         entry.name + "' has " + count(outs, "out arg") + "), but got " +
         std::to_string(opts.outputs.size()));

  // Inputs in the manifest's layout, ready to upload.
  std::vector<std::vector<uint8_t>> hostStrided(entry.args.size());
  for (const ArgSpec &arg : entry.args) {
    if (arg.isOutput)
      continue;
    size_t position = static_cast<size_t>(arg.index);
    std::vector<uint8_t> logical =
        position < opts.inputs.size()
            ? loadInput(arg, opts.inputs[position], position)
            : randomInput(arg, opts.seed);
    std::vector<uint8_t> &strided = hostStrided[position];
    strided.assign(static_cast<size_t>(arg.storageBytes()), 0);
    logicalToStrided(logical.data(), strided.data(), arg.dims, arg.strides,
                     arg.elementBytes);
  }

  runEntry(opts, entry, fn, hostStrided);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    fail("expects enough host memory for the tensors, but an allocation "
         "failed");
  } catch (const std::exception &e) {
    fail(std::string("expects no internal error, but got: ") + e.what());
  }
}
