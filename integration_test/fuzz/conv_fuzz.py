#!/usr/bin/env python3
"""The convolution fuzzer (docs/testing.md, "Convolution fuzzer"): each seed
is a small nn.Module around one nn.Conv2d (conv_configs.py draws its shapes,
dtype, layout, prologue and epilogue), compiled through the front end's
default path and run against a float64 reference: the same module and
tensors upcast and run by PyTorch on the GPU (cuDNN's and PyTorch's float64
kernels: no TF32, errors far below any tolerance here; `--reference cpu`
for PyTorch's CPU kernels, about 25 M multiply-adds a second for a grouped
fp64 conv on a busy 2-core machine, too slow for 500 cases).

Two halves, because the GPU machine has no compiler:

    # here: the case table, and every case imported and compiled
    build/torch2/python integration_test/fuzz/conv_fuzz.py --list --seeds 0:20
    build/torch2/python integration_test/fuzz/conv_fuzz.py --compile-only \\
        --cache build/fuzz-cache --seeds 0:500 --jobs 2
    # on the GPU machine (scripts/gpu-conv-fuzz.sh sets the runtime up)
    python3 integration_test/fuzz/conv_fuzz.py --cache build/fuzz-cache \\
        --seeds 0:500
    # one case alone, as every failure line prints it
    bash scripts/gpu-conv-fuzz.sh --seed 17

A GPU run executes the cases in a child process and starts a new child
after a case that crashed it, hung, or left the CUDA context unusable, so
one bad case costs only itself. Each line is PASS or FAIL (CRASH and
TIMEOUT are failures); the last line is the summary, and the exit status
is 1 if any case failed.
"""

import argparse
import copy
import json
import math
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "python"))

from conv_configs import make_config, parse_seeds  # noqa: E402

# The normalized error max|ours - ref| / max|ref| a case may have against the
# float64 reference, per precision (docs/testing.md says why these):
# exact fp32 accumulates with a relative error of about 2^-24 * sqrt(K)
# (K = C/g * kh * kw <= 25088, so ~1e-5); TF32 rounds both operands to
# 10 mantissa bits (~3e-4 after the sums, so 5e-3 leaves 15x); fp16 and
# bf16 round the output once (2^-11, 2^-8) and each unfused intermediate
# once more: 1e-2 and 2e-2 are ~20 and ~5 output roundings.
TOLERANCE = {"f32": 1e-4, "tf32": 5e-3, "f16": 1e-2, "bf16": 2e-2}
# A case passes when its error is within the tolerance or within this many
# times eager PyTorch's own error on the same GPU (where the dtype's
# rounding, not the compiler, sets the error).
EAGER_FACTOR = 2.0
# Seconds a GPU case may take before the parent gives up on it.
CASE_TIMEOUT = 180
CHILD_RESULT = "@@case "
# Children in a row that die before their first case: then the rest is not
# run (the runtime or torch cannot start, not one case crashing).
MAX_BARREN_CHILDREN = 3
DEFAULT_CACHE = os.path.join(ROOT, "build", "fuzz-cache")


def repro_command(seed, compile_only=False):
    if compile_only:
        return ("build/torch2/python integration_test/fuzz/conv_fuzz.py "
                "--compile-only --cache build/fuzz-cache --seed %d" % seed)
    return "bash scripts/gpu-conv-fuzz.sh --seed %d" % seed


# -- the module of a case ----------------------------------------------------

def _activation(torch_nn, name):
    return {"none": None, "relu": torch_nn.ReLU(),
            "gelu": torch_nn.GELU(), "gelu_tanh": torch_nn.GELU("tanh"),
            "silu": torch_nn.SiLU()}[name]


def build_model_classes():
    """The case modules (defined once torch is imported): FX traces each
    forward with the config's choices as Python constants."""
    import torch.nn as nn
    import torch.nn.functional as F

    class ConvCase(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.f_pad = list(c.f_pad) if c.padding_mode == "f_pad" else None
            self.pro_bn = (nn.BatchNorm2d(c.in_channels, eps=c.bn_eps)
                           if c.prologue.startswith("bn") else None)
            self.pro_act = _activation(nn, {"bn": "none",
                                            "bn_relu": "relu"}.get(
                                                c.prologue, c.prologue))
            self.conv = nn.Conv2d(
                c.in_channels, c.out_channels, c.kernel, c.stride,
                "same" if c.padding_mode == "same" else c.padding,
                c.dilation, c.groups, c.bias)
            self.bn = nn.BatchNorm2d(c.out_channels, eps=c.bn_eps) \
                if c.bn else None
            self.act = _activation(nn, c.activation)
            self.residual = c.residual

        def body(self, x, r):
            if self.pro_bn is not None:
                x = self.pro_bn(x)
            if self.pro_act is not None:
                x = self.pro_act(x)
            if self.f_pad is not None:
                x = F.pad(x, self.f_pad)
            y = self.conv(x)
            if self.bn is not None:
                y = self.bn(y)
            if self.residual == "before_act":
                y = y + r
            if self.act is not None:
                y = self.act(y)
            if self.residual == "after_act":
                y = y + r
            return y

        def forward(self, x):
            return self.body(x, None)

    class ConvCaseResidual(ConvCase):
        def forward(self, x, r):
            return self.body(x, r)

    return ConvCase, ConvCaseResidual


_CLASSES = []


def build_case(config):
    """(model, inputs) on the CPU in the case's dtype and layout, from
    torch's generator seeded with the case's seed: the same tensors on
    every machine. Batch norms get running statistics away from 0 and 1."""
    import torch
    if not _CLASSES:
        _CLASSES.extend(build_model_classes())
    plain, residual = _CLASSES
    torch.manual_seed(config.seed)
    model = (residual if config.residual != "none" else plain)(config)
    with torch.no_grad():
        for bn in (model.pro_bn, model.bn):
            if bn is not None:
                bn.running_mean.uniform_(-0.5, 0.5)
                bn.running_var.uniform_(0.5, 2.0)
                bn.weight.uniform_(0.5, 1.5)
                bn.bias.uniform_(-0.5, 0.5)
    model.eval()
    dtype = {"f32": torch.float32, "f16": torch.float16,
             "bf16": torch.bfloat16}[config.dtype]
    x = torch.rand(config.batch, config.in_channels, config.height,
                   config.width) * 2 - 1
    inputs = [x]
    if config.residual != "none":
        oh, ow = config.output_size()
        inputs.append(torch.rand(config.batch, config.out_channels, oh,
                                 ow) * 2 - 1)
    model = model.to(dtype)
    inputs = [i.to(dtype) for i in inputs]
    if config.layout == "nhwc":
        model = model.to(memory_format=torch.channels_last)
        inputs = [i.contiguous(memory_format=torch.channels_last)
                  for i in inputs]
    return model, inputs


def set_precision_flags(config):
    """PyTorch's switch for fp32 convolutions, as the case says (the front
    end reads it at import; the same value on both machines gives the same
    artifact). f16/bf16 cases keep PyTorch's default (on)."""
    import torch
    torch.backends.cudnn.allow_tf32 = config.tf32


# -- compiling (here) ---------------------------------------------------------

def _folder_size(folder):
    return sum(os.path.getsize(os.path.join(folder, f))
               for f in os.listdir(folder))


def compile_case(seed, cache):
    """(seed, ok, seconds, artifact bytes, detail)."""
    import cudnn_mlir
    from cudnn_mlir.frontend import import_model
    config = make_config(seed)
    start = time.time()
    try:
        set_precision_flags(config)
        model, inputs = build_case(config)
        imported = import_model(model, inputs)
        folder = cudnn_mlir.compile_artifact(imported, cache_dir=cache)
        return (seed, True, time.time() - start, _folder_size(folder),
                os.path.basename(folder))
    except Exception as error:  # reported with its repro line, never hidden
        first = str(error).strip().splitlines() or [""]
        return (seed, False, time.time() - start, 0,
                "%s: %s" % (type(error).__name__, " | ".join(first[:6])))


def print_ir(seeds):
    """Each seed's case, its module and its imported TCP: what a compiler
    bug's reproducer starts from."""
    from cudnn_mlir.frontend import import_model
    for seed in seeds:
        config = make_config(seed)
        set_precision_flags(config)
        model, inputs = build_case(config)
        print("// " + config.describe())
        print("\n".join("// " + line for line in str(model).splitlines()))
        print(import_model(model, inputs).text)
        print("// -----")
    return 0


def compile_all(seeds, cache, jobs):
    results = []
    if jobs > 1:
        import multiprocessing
        # fork: the workers inherit torch and the package, imported once.
        pool = multiprocessing.get_context("fork").Pool(jobs)
        stream = pool.imap(_compile_star, [(s, cache) for s in seeds])
    else:
        pool, stream = None, (compile_case(s, cache) for s in seeds)
    for seed, ok, seconds, size, detail in stream:
        config = make_config(seed)
        if ok:
            print("COMPILED %s %.1fs %.0fKiB %s" % (
                config.describe(), seconds, size / 1024, detail), flush=True)
        else:
            print("FAIL %s %.1fs (compile) %s\n  repro: %s" % (
                config.describe(), seconds, detail,
                repro_command(seed, True)), flush=True)
        results.append({"seed": seed, "status": "PASS" if ok else "FAIL",
                        "seconds": seconds, "bytes": size})
    if pool:
        pool.close()
        pool.join()
    return results


def _compile_star(args):
    return compile_case(*args)


# -- running (GPU machine) ----------------------------------------------------

def _normalized_error(got, reference):
    """max |got - reference| / max |reference| (an all-zero reference
    divides by 1); inf when `got` has a non-finite value the reference
    lacks."""
    import torch
    got = got.detach().to(reference.device, torch.float64)
    if got.shape != reference.shape:
        raise AssertionError("expects an output of shape %s, but got %s"
                             % (list(reference.shape), list(got.shape)))
    if not torch.isfinite(got).all():
        return float("inf")
    scale = reference.abs().max().item() or 1.0
    return (got - reference).abs().max().item() / scale


def _poison_allocator(like):
    """Leaves NaNs in the caching allocator's free block of the output's
    size, so that an output element the compiled module never writes shows
    up as NaN instead of eager's value from a reused block."""
    import torch
    junk = torch.full_like(like, float("nan"))
    del junk


class RuntimeLog:
    """The runtime's log lines since the last call (CUDNN_MLIR_LOG must be
    set before the runtime first logs)."""

    def __init__(self, path):
        self.path, self.offset = path, 0

    def since(self):
        if not os.path.exists(self.path):
            return ""
        with open(self.path) as f:
            f.seek(self.offset)
            text = f.read()
            self.offset = f.tell()
        return text


def _path_of(log_text):
    """How the case's convolution ran, from the runtime's log: "fused" (one
    or more cuDNN graphs, none split), "split-form" (cuDNN had no engine
    for the fused graph and the module ran its compiled split form),
    "split" (the runtime's split fallback ran) or "no-graph" (no cuDNN
    graph: generated kernels only)."""
    executed = [line for line in log_text.splitlines()
                if "executed graph (" in line]
    if not executed:
        return "no-graph"
    if "runs its compiled split form" in log_text:
        return "split-form"
    return "split" if any("(split" in line for line in executed) else "fused"


def _load_compiled(model, inputs, cpu_model, cpu_inputs, cache):
    """The compiled model through cudnn_mlir.compile (the user's path: the
    GPU machine imports again and finds the artifact by key). If the GPU
    import's key has no artifact, the CPU import's artifact runs instead
    and the note says so (the front end imported differently on the GPU)."""
    import cudnn_mlir
    from cudnn_mlir.frontend import import_model
    try:
        return cudnn_mlir.compile(model, inputs, cache_dir=cache), ""
    except cudnn_mlir.CompilerNotFoundError:
        imported = import_model(cpu_model, cpu_inputs)
        folder = cudnn_mlir.compile_artifact(imported, cache_dir=cache)
        return (cudnn_mlir.load(folder, model),
                " import-differs(GPU import has no artifact; ran the CPU "
                "import's %s)" % os.path.basename(folder))


class StandIn:
    """In place of the compiled module, on the CPU (`--stand-in KIND`, the
    harness's own test without a GPU): "eager" is the model itself,
    "wrong" moves one output element by 10x the tolerance of an f32 case,
    "nan" makes one NaN, "crash-odd" aborts the process on odd seeds."""

    KINDS = ("eager", "wrong", "nan", "crash-odd")

    def __init__(self, kind, model, seed):
        self.kind, self.model, self.seed = kind, model, seed

    def __call__(self, *inputs):
        if self.kind == "crash-odd" and self.seed % 2:
            os.abort()
        y = self.model(*inputs).clone()
        if self.kind == "wrong":
            y[0, 0, 0, 0] += 10 * TOLERANCE["f32"] * y.abs().max() + 1e-3
        elif self.kind == "nan":
            y[0, 0, 0, 0] = float("nan")
        return y


def run_case(seed, cache, log, reference_device="cuda", stand_in=None):
    """(status, detail, record): compiles (finds) the case, runs it twice,
    compares both calls and eager PyTorch with the float64 reference (the
    same module and tensors, upcast, run by PyTorch on `reference_device`).
    With `stand_in` (a StandIn kind) everything runs on the CPU and the
    stand-in takes the compiled module's place."""
    import torch
    config = make_config(seed)
    set_precision_flags(config)
    cpu_model, cpu_inputs = build_case(config)
    with torch.no_grad():
        reference = copy.deepcopy(cpu_model).double().to(reference_device)(
            *[i.double().to(reference_device) for i in cpu_inputs])
    device = "cpu" if stand_in else "cuda"
    model = copy.deepcopy(cpu_model).to(device)
    inputs = [i.to(device) for i in cpu_inputs]
    with torch.no_grad():
        eager = model(*inputs)
    eager_err = _normalized_error(eager, reference)
    log.since()
    if stand_in:
        compiled, note = StandIn(stand_in, model, seed), ""
    else:
        compiled, note = _load_compiled(model, inputs, cpu_model, cpu_inputs,
                                        cache)
    errors = []
    for _ in range(2):
        if device == "cuda":
            _poison_allocator(eager)
        with torch.no_grad():
            got = compiled(*inputs)
        if device == "cuda":
            torch.cuda.synchronize()
        if got.dtype != eager.dtype:
            raise AssertionError("expects an output of %s, but got %s"
                                 % (eager.dtype, got.dtype))
        errors.append(_normalized_error(got, reference))
    path = _path_of(log.since())
    err = max(errors)
    tolerance = TOLERANCE[config.precision]
    allowed = max(tolerance, EAGER_FACTOR * eager_err) \
        if math.isfinite(eager_err) else tolerance
    ok = err <= allowed  # a NaN error fails too
    detail = ("err=%.3g (%.2f of allowed %.3g) eager_err=%.3g calls=%s "
              "path=%s%s" % (err, err / allowed, allowed, eager_err,
                             ",".join("%.3g" % e for e in errors), path,
                             note))
    if not ok and errors[0] != errors[1]:
        detail += " (the two calls differ)"
    return ("PASS" if ok else "FAIL"), detail, {
        "path": path, "import_differs": bool(note)}


def _cuda_usable():
    import torch
    try:
        torch.cuda.synchronize()
        torch.zeros(1, device="cuda").add_(1).item()
        return True
    except Exception:
        return False


def run_child(seeds, cache, reference_device, stand_in):
    """Runs `seeds` in this process, one CHILD_RESULT line each; exits 3
    after a case that left CUDA unusable (the parent starts a new child)."""
    log = RuntimeLog(os.environ["CUDNN_MLIR_LOG"])
    for seed in seeds:
        start = time.time()
        record = {}
        try:
            status, detail, record = run_case(seed, cache, log,
                                              reference_device, stand_in)
        except Exception as error:  # reported with its repro line
            first = str(error).strip().splitlines() or [""]
            status, detail = "FAIL", "%s: %s" % (
                type(error).__name__, " | ".join(first[:6]))
        record.update(seed=seed, status=status, detail=detail,
                      seconds=time.time() - start)
        print(CHILD_RESULT + json.dumps(record), flush=True)
        if status != "PASS" and not stand_in and not _cuda_usable():
            return 3
    return 0


def _read_lines(stream, lines):
    for line in stream:
        lines.put(line)
    lines.put(None)


def run_isolated(seeds, cache, timeout, reference_device, stand_in):
    """Runs the seeds in child processes (this script with --child); a case
    whose child died or hung is a CRASH or TIMEOUT, and the next child
    starts after it."""
    import queue
    import threading
    results, pending = [], list(seeds)
    log_dir = tempfile.mkdtemp(prefix="conv-fuzz-")
    barren = 0  # children in a row that died before their first result
    while pending:
        if barren == MAX_BARREN_CHILDREN:
            for seed in pending:
                record = {"seed": seed, "status": "FAIL", "seconds": 0.0,
                          "crash": "NOT RUN", "detail": (
                              "NOT RUN: the last %d children died before "
                              "their first case" % barren)}
                report(record)
                results.append(record)
            break
        env = dict(os.environ,
                   CUDNN_MLIR_LOG=os.path.join(log_dir, "runtime.log"))
        command = [sys.executable, os.path.abspath(__file__), "--child",
                   "--cache", cache, "--reference", reference_device,
                   ] + (["--stand-in", stand_in] if stand_in else []) + [
                   "--seeds",
                   ",".join(str(s) for s in pending)]
        child = subprocess.Popen(command, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True,
                                 env=env)
        lines = queue.Queue()
        threading.Thread(target=_read_lines, args=(child.stdout, lines),
                         daemon=True).start()
        tail, hung, reported = [], False, 0
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                hung = True
                child.kill()
                break
            if line is None:
                break
            if line.startswith(CHILD_RESULT):
                record = json.loads(line[len(CHILD_RESULT):])
                pending.remove(record["seed"])
                report(record)
                results.append(record)
                tail, reported = [], reported + 1
            else:
                tail = (tail + [line.rstrip()])[-8:]
        rc = child.wait()
        barren = 0 if reported else barren + 1
        if not pending or rc == 3:  # done, or CUDA unusable after a FAIL
            continue
        if not hung and rc == 0:
            raise RuntimeError("expects a result for every seed, but the "
                               "child stopped before seed %d" % pending[0])
        seed = pending.pop(0)
        record = {"seed": seed, "status": "FAIL", "seconds": 0.0,
                  "crash": "TIMEOUT" if hung else "CRASH",
                  "detail": "%s: %s" % (
                      "TIMEOUT: no result in %ds" % timeout if hung else
                      "CRASH: the process died (exit %d)" % rc,
                      " | ".join(tail[-4:]))}
        report(record)
        results.append(record)
    return results


def report(record):
    config = make_config(record["seed"])
    line = "%s %s %.1fs %s" % (record["status"], config.describe(),
                               record["seconds"], record["detail"])
    if record["status"] != "PASS":
        line += "\n  repro: " + repro_command(record["seed"])
    print(line, flush=True)


def summary(results, compile_only):
    """One line: counts by precision, layout, groups, prologue and
    epilogue part (passed/total; a case counts under each part of its
    epilogue), the paths the runtime took, and the failing seeds."""
    def tally(key):
        counts = {}
        for r in results:
            values = key(make_config(r["seed"]))
            for value in [values] if isinstance(values, str) else values:
                ok, total = counts.get(value, (0, 0))
                counts[value] = (ok + (r["status"] == "PASS"), total + 1)
        return " ".join("%s %d/%d" % (v, ok, total)
                        for v, (ok, total) in sorted(counts.items()))
    failed = [r["seed"] for r in results if r["status"] != "PASS"]
    parts = ["%d cases, %d PASS, %d FAIL" % (len(results),
                                             len(results) - len(failed),
                                             len(failed))]
    crashes = [r for r in results if r.get("crash")]
    if crashes:
        parts[0] += " (%d crashed or hung)" % len(crashes)
    parts += ["precision: " + tally(lambda c: c.precision),
              "layout: " + tally(lambda c: c.layout),
              "groups: " + tally(lambda c: "depthwise" if c.depthwise else
                                 "grouped" if c.groups > 1 else "1"),
              "prologue: " + tally(lambda c: c.prologue),
              "epilogue: " + tally(lambda c: c.epilogue().split("+"))]
    if compile_only:
        total = sum(r["seconds"] for r in results)
        size = sum(r["bytes"] for r in results)
        parts.append("compile: %.0fs total, %.1fs per case; artifacts "
                     "%.1f MiB" % (total, total / max(1, len(results)),
                                   size / 2 ** 20))
    else:
        paths = {}
        for r in results:
            if "path" in r:
                paths[r["path"]] = paths.get(r["path"], 0) + 1
        parts.append("path: " + " ".join("%s %d" % kv
                                         for kv in sorted(paths.items())))
        differs = sum(1 for r in results if r.get("import_differs"))
        if differs:
            parts.append("GPU import differs from CPU import: %d" % differs)
    parts.append("failing seeds: " + (" ".join(map(str, failed)) or "none"))
    return "summary: " + "; ".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="0:500",
                        help="A:B (B excluded), N, or a comma list of those")
    parser.add_argument("--seed", type=int,
                        help="one seed alone (overrides --seeds)")
    parser.add_argument("--cache", default=DEFAULT_CACHE)
    parser.add_argument("--compile-only", action="store_true",
                        help="import and compile into --cache (no GPU)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="compile processes (--compile-only)")
    parser.add_argument("--list", action="store_true",
                        help="print each seed's case and exit")
    parser.add_argument("--coverage", action="store_true",
                        help="print how many cases have each value of each "
                        "axis; exit 1 if a required value is missing")
    parser.add_argument("--print-ir", action="store_true",
                        help="print each seed's module and imported TCP "
                        "(as --compile-only imports it) and exit")
    parser.add_argument("--timeout", type=int, default=CASE_TIMEOUT,
                        help="seconds a GPU case may take")
    parser.add_argument("--reference", choices=["cuda", "cpu"],
                        default="cuda",
                        help="where PyTorch computes the float64 reference")
    parser.add_argument("--stand-in", choices=StandIn.KINDS,
                        help="test the harness without a GPU: run on the "
                        "CPU with this stand-in for the compiled module")
    parser.add_argument("--child", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    seeds = [args.seed] if args.seed is not None else parse_seeds(args.seeds)
    if args.list:
        for seed in seeds:
            print(make_config(seed).describe())
        return 0
    if args.coverage:
        from conv_configs import coverage, missing
        table = coverage([make_config(s) for s in seeds])
        for axis in sorted(table):
            print("%s: %s" % (axis, " ".join(
                "%s=%d" % kv for kv in sorted(table[axis].items()))))
        gaps = missing(table)
        print("missing: " + (" ".join(gaps) or "none"))
        return 1 if gaps else 0
    if args.print_ir:
        return print_ir(seeds)
    if args.compile_only or args.child:
        import cudnn_mlir
        # The runtime (and its cuDNN) before torch: docs/abi.md, "Loading".
        cudnn_mlir.load_runtime_before_torch()
        import torch  # noqa: F401
    if args.child:
        return run_child(seeds, args.cache, args.reference, args.stand_in)
    if args.compile_only:
        results = compile_all(seeds, args.cache, args.jobs)
    else:  # the parent: no torch here, the children run the cases
        results = run_isolated(seeds, args.cache, args.timeout,
                               "cpu" if args.stand_in else args.reference,
                               args.stand_in)
    print(summary(results, args.compile_only), flush=True)
    return 1 if any(r["status"] != "PASS" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
