#!/usr/bin/env python3
"""The model zoo (issue 27): torchvision's classification models in fp16
channels-last at batch 1 and 32 (224x224, Inception v3 299x299; random
weights, eval, torch.manual_seed(0)), eager / torch.compile default /
mode="reduce-overhead" / ours / ours replayed from a CUDA graph, taking
turns round by round in one process; every output checked against eager.

Three modes, as the GPU machine has no compiler:

    # here (CPU): import and compile every row into the artifact cache; a
    # model already compiled by this compiler and front end is skipped at
    # once, a failing one recorded and passed over; --pack copies the
    # piece's artifacts into a cache small enough to carry
    build/torch2/python benchmarks/model_zoo.py --compile-only \\
        --cache build/bench-cache --rows 0:6 --pack build/zoo-piece
    # GPU machine (carry build/zoo-piece): time rows, a JSON line per row
    python3 benchmarks/model_zoo.py --cache build/zoo-piece \\
        --rows 0:6 --batch 1,32 --inductor-cache build/inductor-cache \\
        --budget-s 500 --results zoo.jsonl
    # anywhere: the markdown table and the bar chart from the JSON lines
    python3 benchmarks/model_zoo.py --report zoo.jsonl [more.jsonl] \\
        --chart zoo.png

`--rows` picks models by index (`3`, `0:8`, `30:`), by name (`resnet50`)
or a single row (`resnet50@32`); `--list` prints the zoo. Times are ms per
call, CUDA events around `--calls` back-to-back calls, the median of
`--rounds` rounds (benchmarks/cuda_timing.py). The relative error of a
contender is max |out - eager| / max |eager| on the last call's output.
docs/benchmarks.md, "Model zoo", has how to run it in pieces.
"""

import argparse
import copy
import datetime
import gc
import glob
import hashlib
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.join(HERE, "..", "python")
sys.path.insert(0, PYTHON_DIR)

from cuda_timing import ms_per_call_in_turns  # noqa: E402 (imports no torch)
from inductor_cache import use_inductor_cache  # noqa: E402 (nor this)
import zoo_decoders  # noqa: E402 (nor this)

# Above this relative error (fp16 logits) a contender's output is WRONG.
DEFAULT_TOLERANCE = 2e-2
# Calls before timing: TorchInductor compiles on the first, its CUDA-graph
# mode records on a later one; ours builds plans, then captures.
WARMUP_CALLS = 3
CONTENDERS = ["eager", "compile", "reduce-overhead", "ours", "ours graph"]
# Where --compile-only records each row (inside the artifact cache, so it
# travels with it): whether it compiled, its artifact, and with what.
RECORDS = "model-zoo"


def _model(name, size=224, **kwargs):
    return (name, size, kwargs)


# The zoo: torchvision builders (torchvision.models.get_model) in families.
# The transformers are candidates too: what does not compile is a row.
NO_AUX = {"aux_logits": False, "init_weights": False}
MODELS = [
    _model("resnet18"), _model("resnet34"), _model("resnet50"),
    _model("resnet101"), _model("resnet152"),
    _model("resnext50_32x4d"), _model("resnext101_32x8d"),
    _model("wide_resnet50_2"), _model("wide_resnet101_2"),
    _model("vgg11_bn"), _model("vgg16"), _model("vgg16_bn"),
    _model("vgg19_bn"),
    _model("alexnet"),
    _model("densenet121"), _model("densenet169"), _model("densenet201"),
    _model("mobilenet_v2"), _model("mobilenet_v3_large"),
    _model("mobilenet_v3_small"),
    _model("efficientnet_b0"), _model("efficientnet_b1"),
    _model("efficientnet_v2_s"),
    _model("regnet_x_400mf"), _model("regnet_y_400mf"),
    _model("regnet_y_800mf"), _model("regnet_x_1_6gf"),
    _model("regnet_y_1_6gf"), _model("regnet_x_3_2gf"),
    _model("regnet_y_8gf"),
    _model("shufflenet_v2_x0_5"), _model("shufflenet_v2_x1_0"),
    _model("squeezenet1_0"), _model("squeezenet1_1"),
    _model("googlenet", **NO_AUX), _model("inception_v3", 299, **NO_AUX),
    _model("mnasnet0_5"), _model("mnasnet1_0"), _model("mnasnet1_3"),
    _model("convnext_tiny"), _model("convnext_small"),
    _model("vit_b_16"), _model("swin_t"), _model("swin_v2_t", 256),
    _model("maxvit_t"),
    # Hugging Face transformers at full size (issue 32's speed rows), fp16;
    # their size is the sequence length: BERT-base at batch 32 x 128
    # tokens, GPT-2 small at batch 8 x 512.
    _model("hf-bert-base", 128), _model("hf-gpt2", 512),
    # timm (pretrained=False) at its default input size, one per family
    # torchvision lacks or builds otherwise (issue 32's timm speed target).
    _model("timm-resnet50d"), _model("timm-seresnext26d_32x4d"),
    _model("timm-ecaresnet50d"), _model("timm-cspdarknet53", 256),
    _model("timm-dla34"), _model("timm-mixnet_s"), _model("timm-rexnet_100"),
    _model("timm-regnety_016"), _model("timm-hrnet_w18_small"),
    _model("timm-ese_vovnet19b_dw"), _model("timm-convnext_tiny"),
    _model("timm-edgenext_small", 256), _model("timm-poolformer_s12"),
    _model("timm-fastvit_t8", 256), _model("timm-mobilevit_s", 256),
    _model("timm-vit_small_patch16_224"),
    _model("timm-deit_small_patch16_224"),
    _model("timm-swin_tiny_patch4_window7_224"), _model("timm-levit_128"),
    # torchvision's video classifiers (Kinetics-400) on clips of
    # VIDEO_FRAMES frames, channels-last 3-D: native 3-D convolutions.
    _model("video-r3d_18", 112), _model("video-mc3_18", 112),
    _model("video-r2plus1d_18", 112), _model("video-s3d", 224),
    # Decoders built on transposed convolutions (benchmarks/zoo_decoders.py):
    # the DCGAN generator (noise to 64x64) and U-Net at 256x256.
    _model("decoder-dcgan", 64), _model("decoder-unet", 256),
]
NAMES = [name for name, _, _ in MODELS]
VIDEO_FRAMES = 16

# name -> (config class, model class, config arguments): default configs
# are BERT-base and GPT-2 small. No KV cache (its DynamicCache output is
# not a tensor).
HUGGING_FACE = {
    "hf-bert-base": ("BertConfig", "BertModel", {}),
    "hf-gpt2": ("GPT2Config", "GPT2Model", {"use_cache": False}),
}


# ---------------------------------------------------------------- rows


def parse_rows(spec, batches):
    """(model index, batch) pairs, in zoo order, of a `--rows` spec:
    comma-separated indices, `a:b` ranges (either end may be left out),
    model names, or `name@batch` rows; empty means the whole zoo."""
    chosen = {}  # model index -> batches (None: every one of `batches`)
    for token in filter(None, (t.strip() for t in spec.split(","))):
        if "@" in token:
            name, batch = token.split("@", 1)
            found = chosen.setdefault(_index(name), set())
            if found is not None:
                found.add(int(batch))
        elif ":" in token:
            low, high = token.split(":", 1)
            for i in range(len(MODELS))[slice(int(low) if low else None,
                                              int(high) if high else None)]:
                chosen[i] = None
        else:
            chosen[_index(token)] = None
    if not spec.strip():
        chosen = dict.fromkeys(range(len(MODELS)))
    return [(i, b) for i in sorted(chosen)
            for b in (batches if chosen[i] is None else sorted(chosen[i]))]


def _index(token):
    if token.isdigit():
        if int(token) >= len(MODELS):
            raise ValueError("expects a model index below %d, but got %s"
                             % (len(MODELS), token))
        return int(token)
    if token not in NAMES:
        raise ValueError("expects a zoo model (--list), but got '%s'" % token)
    return NAMES.index(token)


def row_name(row):
    return "%s@%d" % (NAMES[row[0]], row[1])


def build(torch, row, device, calibrated=False):
    """The row's model (random weights, eval, fp16, channels-last) and its
    input; `calibrated`: with batch-norm statistics (calibrate)."""
    import torchvision
    name, size, kwargs = MODELS[row[0]]
    torch.manual_seed(0)
    if name in HUGGING_FACE:
        return _hugging_face_model(torch, name, row[1], size, device)
    if name.startswith("timm-"):
        import timm
        model = timm.create_model(name[len("timm-"):], pretrained=False)
    elif name.startswith("video-"):
        model = torchvision.models.get_model(name[len("video-"):],
                                             weights=None, **kwargs)
    elif name.startswith("decoder-"):
        model = zoo_decoders.BUILDERS[name[len("decoder-"):]](**kwargs)
    else:
        model = torchvision.models.get_model(name, weights=None, **kwargs)
    # Weights torchvision initialises to zero (ViT's classifier head) would
    # make every output 0, which checks nothing: random ones instead.
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.dim() >= 2 and not parameter.any():
                torch.nn.init.normal_(parameter, std=0.02)
    model = model.to(device=device)
    shape = input_shape(name, size, row[1])
    layout = (torch.channels_last_3d if len(shape) == 5
              else torch.channels_last)
    if calibrated:
        calibrate(torch, model, shape, device)
    model = model.eval().to(dtype=torch.float16, memory_format=layout)
    x = torch.randn(*shape, device=device,
                    dtype=torch.float16).to(memory_format=layout)
    return model, [x]


def input_shape(name, size, batch):
    """An image model's [batch, 3, size, size], a video model's clip
    [batch, 3, VIDEO_FRAMES, size, size], a decoder's input
    (zoo_decoders.input_shape)."""
    if name.startswith("video-"):
        return (batch, 3, VIDEO_FRAMES, size, size)
    if name.startswith("decoder-"):
        return zoo_decoders.input_shape(name[len("decoder-"):], size, batch)
    return (batch, 3, size, size)


def _hugging_face_model(torch, name, batch, length, device):
    """A transformers model (random weights, eval, fp16) returning its last
    hidden state, and `batch` x `length` random token ids."""
    import transformers
    config, builder, arguments = HUGGING_FACE[name]
    net = getattr(transformers, builder)(
        getattr(transformers, config)(**arguments))

    class LastHiddenState(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.net = net

        def forward(self, input_ids):
            return self.net(input_ids=input_ids).last_hidden_state

    model = LastHiddenState().to(device=device).eval().to(
        dtype=torch.float16)
    ids = torch.randint(0, net.config.vocab_size, (batch, length),
                        device=device)
    return model, [ids]


def calibrate(torch, model, shape, device, batch=16):
    """Sets the batch norms' running statistics to those of one fp32
    training-mode pass over random input. With torchvision's initial ones
    (mean 0, variance 1) activations shrink layer by layer in some models
    (MobileNetV3-Small's logits are 2e-9 in fp32 and 0 in fp16), and the
    check against eager would compare zeros. Only the timing half needs
    it: the statistics are arguments of the compiled module, not in its
    IR."""
    norms = [m for m in model.modules()
             if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    momenta = [m.momentum for m in norms]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a plain average: this one pass's statistics
    model.train()
    with torch.no_grad():
        model(torch.randn(batch, *shape[1:], device=device))
    for m, momentum in zip(norms, momenta):
        m.momentum = momentum
    model.eval()


def first_line(error):
    """The line of an exception that says what went wrong: cudnn-compile's
    first `error:` line where the compiler failed, else the first line."""
    lines = [l.strip() for l in str(error).splitlines() if l.strip()]
    for line in lines[1:]:
        if "error:" in line:
            return line
    return lines[0] if lines else type(error).__name__


def run_rows(rows, budget_s, one_row):
    """Calls one_row on each row; with a budget, starts no row once the
    time spent plus the longest row so far would pass it, and prints the
    rows left as a --rows spec for the next piece."""
    start = time.time()
    longest = 0.0
    for n, row in enumerate(rows):
        spent = time.time() - start
        if budget_s and spent + longest > budget_s:
            print("budget: %.0f s spent of %.0f; rows left (%d): --rows %s"
                  % (spent, budget_s, len(rows) - n,
                     ",".join(row_name(r) for r in rows[n:])), flush=True)
            return
        began = time.time()
        one_row(row)
        longest = max(longest, time.time() - began)
    print("done: %d rows in %.0f s" % (len(rows), time.time() - start),
          flush=True)


# ---------------------------------------------------------- compile-only


def stamp(options):
    """What an artifact depends on besides the model: the compiler, the
    front end's code, torch's and torchvision's versions and the options.
    A record with the same stamp needs no import (seconds per model)."""
    import torch
    import torchvision
    from cudnn_mlir.driver.compiler import (_fingerprint, find_compiler,
                                            with_precision)
    digest = hashlib.sha256()
    for path in sorted(glob.glob(os.path.join(PYTHON_DIR, "cudnn_mlir", "**",
                                              "*.py"), recursive=True)):
        with open(path, "rb") as f:
            digest.update(f.read())
    compiler = find_compiler()
    return {"compiler": _fingerprint(compiler) if compiler else None,
            "frontend": digest.hexdigest()[:32], "torch": torch.__version__,
            "torchvision": torchvision.__version__,
            "options": with_precision(options or "")}


def record_path(cache, row):
    return os.path.join(cache, RECORDS, "%s-b%d.json" % (NAMES[row[0]],
                                                         row[1]))


def read_record(cache, row):
    try:
        with open(record_path(cache, row)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_record(cache, row, record):
    path = record_path(cache, row)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".new", "w") as f:
        json.dump(record, f, indent=1)
    os.replace(path + ".new", path)


def is_current(cache, record, now):
    """Whether a record still holds: same stamp, and its artifact (if it
    compiled) still in the cache."""
    if not record or record.get("stamp") != now:
        return False
    key = record.get("artifact")
    return key is None or os.path.isfile(os.path.join(cache, key, "model.so"))


def compile_row(cache, options, now, row):
    """Imports and compiles one row into the cache, unless its record is
    current; a failure is recorded, not raised."""
    import torch
    import cudnn_mlir
    from cudnn_mlir.driver.compiler import compile_partition_artifacts
    from cudnn_mlir.frontend import TorchImportError, import_model
    record = read_record(cache, row)
    if is_current(cache, record, now):
        print("%s: cached (%s)" % (row_name(row), record["status"]),
              flush=True)
        return
    record = {"model": NAMES[row[0]], "batch": row[1], "stamp": now,
              "artifact": None, "import_s": None, "compile_s": None}
    began = time.time()
    try:
        with torch.no_grad():
            model, inputs = build(torch, row, "cpu")
            try:
                imported = import_model(model, inputs)
            except TorchImportError as error:
                if error.node is None:
                    raise
                # What cudnn_mlir.compile will run in partitions.
                report = compile_partition_artifacts(
                    model, inputs, options, cache, first_failure=error)
                if not report.compiled_ops:
                    raise
                record["partitioned"] = report.summarize()
                record["artifacts"] = [
                    os.path.basename(p["artifact"])
                    for p in report.partitions if p["artifact"]]
                imported = None
            record["import_s"] = round(time.time() - began, 1)
            if imported is not None:
                folder = cudnn_mlir.compile_artifact(
                    imported, options=options, cache_dir=cache)
                record["artifact"] = os.path.basename(folder)
        record["compile_s"] = round(time.time() - began - record["import_s"],
                                    1)
        record["status"] = "ok"
    except Exception as error:  # noqa: BLE001 - every failure is a row
        record["status"] = "does not compile: " + first_line(error)
    write_record(cache, row, record)
    parts = ", ".join("%s %.1f s" % (k[:-2], record[k]) for k in (
        "import_s", "compile_s") if record[k] is not None)
    parts = " (%s)" % parts if parts else ""
    print("%s: %.1f s%s: %s" % (row_name(row), time.time() - began, parts,
                                record["status"]), flush=True)


def pack(cache, rows, folder):
    """Copies the rows' artifacts and records from `cache` into `folder`
    (replacing an earlier pack there): a cache of just these rows, small
    enough to carry to the GPU machine for one piece."""
    import shutil
    if os.path.isdir(folder):
        if not os.path.isdir(os.path.join(folder, RECORDS)):
            raise ValueError("expects --pack to name a new folder or an "
                             "earlier pack, but '%s' holds no %s/"
                             % (folder, RECORDS))
        shutil.rmtree(folder)
    os.makedirs(os.path.join(folder, RECORDS))
    size = 0
    for row in rows:
        record = read_record(cache, row)
        if record is None:
            print("%s: not compiled, left out of the pack" % row_name(row))
            continue
        shutil.copy(record_path(cache, row), os.path.join(folder, RECORDS))
        artifacts = record.get("artifacts") or [record.get("artifact")]
        for artifact in filter(None, artifacts):
            target = os.path.join(folder, artifact)
            if not os.path.isdir(target):
                shutil.copytree(os.path.join(cache, artifact), target)
                size += sum(os.path.getsize(os.path.join(target, f))
                            for f in os.listdir(target))
    print("pack: %d rows in %s, %.1f MiB" % (len(rows), folder,
                                            size / 2**20), flush=True)


# ---------------------------------------------------------------- timing


def relative_error(out, expected):
    """max |out - expected| / max |expected|; None where not finite."""
    err = ((out.float() - expected.float()).abs().max()
           / expected.float().abs().max()).item()
    return err if math.isfinite(err) else None


def contenders(torch, cudnn_mlir, model, inputs, args, row):
    """(name, callable) of each contender that builds, and
    {name: first line of its error} of those that do not."""
    fns, errors = [("eager", lambda: model(*inputs))], {}
    record = read_record(args.cache, row)
    ours_error = (record or {}).get("status", "ok")
    if ours_error != "ok":
        errors["ours"] = errors["ours graph"] = ours_error
    for name, build_fn in [
            ("compile", lambda: torch.compile(model)),
            ("reduce-overhead",
             lambda: torch.compile(model, mode="reduce-overhead")),
            ("ours", lambda: cudnn_mlir.compile(
                model, inputs, options=args.options, cache_dir=args.cache)),
            ("ours graph", lambda: cudnn_mlir.compile(
                model, inputs, options=args.options, cache_dir=args.cache,
                cuda_graph=True))]:
        if name in errors:
            continue
        try:
            fn = build_fn()
            fns.append((name, lambda f=fn: f(*inputs)))
        except Exception as error:  # noqa: BLE001 - every failure is a row
            # torch.compile fails on its first call; ours here: import,
            # compile (not in the cache) or load.
            errors[name] = "does not compile: " + first_line(error)
    return fns, errors


def time_row(torch, cudnn_mlir, args, row):
    """Times one row and appends its JSON line to --results."""
    began = time.time()
    torch._dynamo.reset()  # else the second batch compiles dynamic shapes
    result = {"model": NAMES[row[0]], "batch": row[1],
              "size": MODELS[row[0]][1],
              "device": torch.cuda.get_device_name(),
              "torch": torch.__version__, "options": args.options,
              "date": datetime.datetime.now(datetime.timezone.utc)
              .strftime("%Y-%m-%d %H:%M"),
              "ms": {}, "rel_err": {}, "warmup_s": {}, "errors": {},
              "partitioned": (read_record(args.cache, row) or {}).get(
                  "partitioned")}
    with torch.no_grad():
        model, inputs = build(torch, row, "cuda", calibrated=True)
        fns, result["errors"] = contenders(torch, cudnn_mlir, model, inputs,
                                           args, row)
        expected = model(*inputs).float()
        scale = expected.abs().max().item()
        result["eager_max"] = scale if math.isfinite(scale) else None
        # The same model and input in fp32: tells a contender's fp16
        # rounding from a wrong answer (fp16 eager is off by up to 2e-2).
        reference = copy.deepcopy(model).float()(*[
            x.float() if x.is_floating_point() else x  # token ids stay
            for x in inputs]).float()
        result["rel_err_fp32"] = {"eager": relative_error(expected,
                                                          reference)}
        working = []
        for name, fn in fns:  # warm-up: compiles, plans, captures
            start = time.time()
            try:
                for _ in range(WARMUP_CALLS - 1):
                    fn()
                out = fn()
                if name != "eager":
                    result["rel_err"][name] = relative_error(out, expected)
                    result["rel_err_fp32"][name] = relative_error(out,
                                                                  reference)
                working.append((name, fn))
            except Exception as error:  # noqa: BLE001
                result["errors"][name] = "fails: " + first_line(error)
            result["warmup_s"][name] = round(time.time() - start, 1)
        times = ms_per_call_in_turns(torch, [fn for _, fn in working],
                                     args.rounds, args.calls)
    result["ms"] = {name: round(t, 4) for (name, _), t in zip(working, times)}
    result["wall_s"] = round(time.time() - began, 1)
    with open(args.results, "a") as f:
        f.write(json.dumps(result) + "\n")
    print("%s: %.0f s, %s" % (row_name(row), result["wall_s"], " ".join(
        "%s %.3f" % (n, result["ms"][n]) for n in CONTENDERS
        if n in result["ms"])), flush=True)
    for name, error in result["errors"].items():
        print("  %s: %s" % (name, error), flush=True)
    del model, inputs, fns, working
    gc.collect()  # the compiled contenders hold device memory in cycles
    torch.cuda.empty_cache()


def time_rows(rows, args):
    if args.inductor_cache:  # before torch reads them
        use_inductor_cache(args.inductor_cache)
    import cudnn_mlir
    cudnn_mlir.load_runtime_before_torch()
    import torch
    print("device: %s, torch %s, options %r, results to %s" % (
        torch.cuda.get_device_name(), torch.__version__, args.options,
        args.results), flush=True)
    run_rows(rows, args.budget_s,
             lambda row: time_row_or_record(torch, cudnn_mlir, args, row))


def time_row_or_record(torch, cudnn_mlir, args, row):
    """time_row, where a failure of eager itself (or out of memory) is a
    row of its own rather than the end of the run."""
    try:
        time_row(torch, cudnn_mlir, args, row)
    except Exception as error:  # noqa: BLE001 - every failure is a row
        print("%s: fails: %s" % (row_name(row), first_line(error)),
              flush=True)
        with open(args.results, "a") as f:
            f.write(json.dumps({
                "model": NAMES[row[0]], "batch": row[1], "ms": {},
                "rel_err": {}, "errors": {
                    "eager": "fails: " + first_line(error)}}) + "\n")
        torch.cuda.empty_cache()


# ---------------------------------------------------------------- report


def read_results(paths):
    """The rows of JSON-lines files, the latest run of a (model, batch)
    winning, in zoo order, then batch. Latest by the rows' dates when both
    have one (so the files may come in any order, a shell glob's included),
    else the later line."""
    rows = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    key = (row["model"], row["batch"])
                    old = rows.get(key)
                    if old and old.get("date") and row.get("date") and \
                            row["date"] < old["date"]:
                        continue
                    rows[key] = row
    order = {name: i for i, name in enumerate(NAMES)}
    return [rows[k] for k in sorted(
        rows, key=lambda k: (order.get(k[0], len(NAMES)), k[0], k[1]))]


def speedup(row):
    """ours replayed over reduce-overhead (> 1: ours faster), or None."""
    ms = row.get("ms", {})
    if ms.get("ours graph") and ms.get("reduce-overhead"):
        return ms["reduce-overhead"] / ms["ours graph"]
    return None


def unchecked(row):
    """Whether eager's output was all zeros or not finite (nothing to
    compare with); rows from before eager_max was kept count as checked."""
    return "eager_max" in row and not row["eager_max"]


def wrong(row, tolerance):
    """The contenders whose output is not within `tolerance` of eager's;
    with an fp32 reference (rel_err_fp32), those farther from it than
    `tolerance` and than twice fp16 eager is."""
    if unchecked(row):
        return []
    fp32 = row.get("rel_err_fp32") or {}
    if fp32.get("eager") is not None:
        bar = max(tolerance, 2 * fp32["eager"])
        return [name for name in CONTENDERS if name in fp32
                and name != "eager"
                and (fp32[name] is None or fp32[name] > bar)]
    return [name for name in CONTENDERS if name in row.get("rel_err", {})
            and (row["rel_err"][name] is None
                 or row["rel_err"][name] > tolerance)]


def status(row, tolerance):
    """The last column: the worst relative error, or what went wrong."""
    errors = row.get("errors", {})
    words = []
    if "ours" in errors:
        words.append(errors["ours"])
    elif "ours graph" in errors:
        words.append("ours graph " + errors["ours graph"])
    bad = wrong(row, tolerance)
    if unchecked(row):
        words.append("not checked: eager's output is all 0 or not finite")
    elif bad:
        errs = row.get("rel_err_fp32") or row["rel_err"]
        words.append("WRONG: " + ", ".join(
            "%s %s" % (n, "not finite" if errs[n] is None
                       else "%.2g" % errs[n]) for n in bad))
    elif row.get("rel_err"):
        words.append("%.2g" % max(row["rel_err"].values()))
    fp32 = row.get("rel_err_fp32") or {}
    if not unchecked(row) and fp32.get("eager") is not None:
        words.append("vs fp32: eager %.2g, ours graph %s" % (
            fp32["eager"], "%.2g" % fp32["ours graph"]
            if fp32.get("ours graph") is not None else "-"))
    words += ["%s %s" % (n, errors[n]) for n in ("compile", "reduce-overhead",
                                                 "eager") if n in errors]
    if row.get("partitioned"):
        words.append("partitioned: " + row["partitioned"])
    text = "; ".join(words)
    return text if len(text) <= 160 else text[:157] + "..."


def family(model):
    """Which zoo a row belongs to: its geometric mean is its own."""
    if model.startswith("timm-"):
        return "timm"
    if model.startswith("hf-"):
        return "Hugging Face"
    if model.startswith("video-"):
        return "torchvision video"
    if model.startswith("decoder-"):
        return "decoders"
    return "torchvision"


def mean_label(family_name, batch):
    return ("Batch %d" % batch if family_name == "torchvision"
            else "%s, batch %d" % (family_name, batch))


def geomeans(rows, tolerance):
    """{(family, batch): (geometric mean of speedup, its count, count >=
    1.0)} over the rows with both times and no WRONG output; torchvision's
    rows first."""
    groups = {}
    for row in rows:
        ratio = speedup(row)
        if ratio is not None and not wrong(row, tolerance):
            groups.setdefault((family(row["model"]), row["batch"]),
                              []).append(ratio)
    order = ("torchvision", "timm", "Hugging Face")
    return {key: (math.exp(sum(map(math.log, r)) / len(r)), len(r),
                  sum(x >= 1.0 for x in r))
            for key, r in sorted(groups.items(),
                                 key=lambda kv: (order.index(kv[0][0]),
                                                 kv[0][1]))}


def table(rows, tolerance):
    """The markdown table and the geometric means under it."""
    def ms(row, name):
        value = row.get("ms", {}).get(name)
        return "%.3f" % value if value else ""
    lines = ["| model | batch | eager ms | compile ms | reduce-overhead ms | "
             "ours ms | ours graph ms | ours graph vs reduce-overhead | "
             "max rel err / status |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        ratio = speedup(row)
        lines.append("| %s | %d | %s | %s | %s |" % (
            row["model"], row["batch"],
            " | ".join(ms(row, n) for n in CONTENDERS),
            "" if ratio is None else "%.2fx" % ratio, status(row, tolerance)))
    lines.append("")
    for (name, batch), (mean, count, won) in geomeans(rows,
                                                      tolerance).items():
        lines.append("%s: ours graph vs reduce-overhead, geometric mean "
                     "**%.2fx** over %d models (%d at 1.0x or more; WRONG "
                     "rows left out)." % (mean_label(name, batch), mean,
                                          count, won))
    return "\n".join(lines) + "\n"


def chart(rows, tolerance, path):
    """Bars of ours replayed over reduce-overhead per model, one group per
    batch, a line at 1.0, each batch's geometric mean in the legend."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    means = geomeans(rows, tolerance)
    plotted = [r for r in rows
               if speedup(r) is not None and not wrong(r, tolerance)]
    batches = sorted({r["batch"] for r in plotted})
    models = []
    for row in plotted:
        if row["model"] not in models:
            models.append(row["model"])
    width = 0.8 / max(len(batches), 1)
    figure, axes = plt.subplots(figsize=(max(8, 0.45 * len(models) + 2), 5))
    bars = 0
    for n, batch in enumerate(batches):
        ratios = {r["model"]: speedup(r) for r in plotted
                  if r["batch"] == batch}
        xs = [i + (n - (len(batches) - 1) / 2) * width
              for i, m in enumerate(models) if m in ratios]
        axes.bar(xs, [ratios[m] for m in models if m in ratios], width,
                 label="batch %d" % batch)
        bars += len(xs)
    axes.axhline(1.0, color="black", linewidth=0.8)
    # Headroom above the tallest bar for the legend.
    axes.set_ylim(0, 1.3 * max([speedup(r) for r in plotted] + [1.0]))
    axes.set_xticks(range(len(models)))
    axes.set_xticklabels(models, rotation=70, ha="right", fontsize=8)
    axes.set_ylabel("reduce-overhead ms / ours graph ms")
    devices = sorted({r.get("device", "") for r in rows} - {""})
    axes.set_title("ours replayed vs torch.compile reduce-overhead "
                   "(fp16 channels-last; higher is faster)\n"
                   + ", ".join(devices) + "; geometric means: " + ", ".join(
                       "%s %.2fx" % (mean_label(*key).lower(), m[0])
                       for key, m in means.items()))
    axes.legend(loc="upper center", ncol=len(batches))
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print("chart: %s (%d bars, %d models)" % (path, bars, len(models)))


# ------------------------------------------------------------------ main


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--compile-only", action="store_true",
                        help="import and compile the rows into --cache "
                        "(the machine with the compiler)")
    parser.add_argument("--pack", metavar="DIR",
                        help="with --compile-only: then copy the rows' "
                        "artifacts into DIR, a cache of this piece only "
                        "to carry to the GPU machine")
    parser.add_argument("--report", nargs="+", metavar="FILE.jsonl",
                        help="print the markdown table of these results "
                        "(no GPU, no torch)")
    parser.add_argument("--chart", metavar="FILE.png",
                        help="with --report: the bar chart (matplotlib)")
    parser.add_argument("--table", metavar="FILE.md",
                        help="with --report: also write the table here")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE,
                        help="relative error above which an output is WRONG "
                        "(default %g)" % DEFAULT_TOLERANCE)
    parser.add_argument("--list", action="store_true",
                        help="print the zoo's models with their indices")
    parser.add_argument("--rows", default="",
                        help="models by index, a:b range, name, or one row "
                        "name@batch, comma-separated (default: all)")
    parser.add_argument("--dry-run", action="store_true",
                        help="print the rows --rows and --batch select")
    parser.add_argument("--batch", default="1,32",
                        help="comma-separated batch sizes (default 1,32)")
    parser.add_argument("--cache", default=os.path.join(
        HERE, "..", "build", "bench-cache"), help="the artifact cache")
    parser.add_argument("--results", default="model-zoo.jsonl",
                        help="timing: append a JSON line per row here")
    parser.add_argument("--budget-s", type=float, default=0,
                        help="start no row that the longest row so far "
                        "would take past this many seconds; print the "
                        "rows left")
    parser.add_argument("--inductor-cache", default=None,
                        help="TorchInductor's and Triton's caches in this "
                        "folder, kept between pieces")
    parser.add_argument("--options", default=None,
                        help="pipeline options of ours (both halves)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20)
    return parser.parse_args()


def main():
    args = parse_args()
    if args.report:
        rows = read_results(args.report)
        text = table(rows, args.tolerance)
        sys.stdout.write(text)
        if args.table:
            with open(args.table, "w") as f:
                f.write(text)
        if args.chart:
            chart(rows, args.tolerance, args.chart)
        return 0
    if args.list:
        for i, (name, size, _) in enumerate(MODELS):
            print("%2d %s (%s)" % (i, name, "%d tokens" % size
                                   if name in HUGGING_FACE else "x".join(
                                       map(str, input_shape(name, size,
                                                            1)[2:]))))
        return 0
    try:
        rows = parse_rows(args.rows, [int(b) for b in args.batch.split(",")])
    except ValueError as error:
        print("model_zoo.py: %s" % error, file=sys.stderr)
        return 2
    if args.dry_run:
        print("%d rows: --rows %s" % (len(rows), ",".join(map(row_name,
                                                              rows))))
        return 0
    if args.compile_only:
        now = stamp(args.options)
        cache = os.path.abspath(args.cache)
        print("compile-only: %d rows into %s" % (len(rows), cache),
              flush=True)
        run_rows(rows, args.budget_s,
                 lambda row: compile_row(cache, args.options, now, row))
        if args.pack:
            pack(cache, rows, args.pack)
        return 0
    time_rows(rows, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
