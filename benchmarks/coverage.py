#!/usr/bin/env python3
"""Which models cudnn-mlir takes (issue 28): every torchvision
classification and segmentation model and nn.Transformer stacks, each in
fp32 and fp16, imported through cudnn_mlir's torch.fx road on the CPU.

Per model and dtype: whether it imports whole; if not, the fraction of its
ops that partitioned compilation would compile (python/cudnn_mlir/
partition.py, here with import as the compile step) and the first reason;
with --compile, whether the whole import compiles (cudnn-compile, into
--cache). Each row is a JSON line in --results; --report makes the table
(docs/coverage.md) from every results file given, the latest row of a
model and dtype winning. Rows time out per model (--budget-s) and the run
stops once --total-s is spent, so CI can sample.

    build/torch2/python benchmarks/coverage.py --models all \\
        --results benchmarks/results/coverage-cpu-DATE.jsonl
    build/torch2/python benchmarks/coverage.py --report \\
        benchmarks/results/coverage-*.jsonl --out docs/coverage.md

A model torch.fx cannot trace whole (control flow on sizes, functions
wrapped with torch.fx.wrap such as torchvision's Swin attention) is captured
by TorchDynamo instead, as cudnn_mlir.compile does; the row says so.

The GPU columns come from the GPU machine, which has no compiler: --compile
records each artifact, --pack puts the artifacts of the rows in --report's
files into one tar.xz to carry there, and --gpu runs each model there with
cudnn_mlir.compile from that cache, next to eager, both against an fp64
copy of the model:

    build/torch2/python benchmarks/coverage.py --compile --cache CACHE \
        --results cpu.jsonl
    build/torch2/python benchmarks/coverage.py --report cpu.jsonl \
        --cache CACHE --pack build/coverage-pack.tar.xz
    # on the GPU machine, after unpacking into CACHE:
    python benchmarks/coverage.py --gpu --cache CACHE --results gpu.jsonl
"""

import argparse
import datetime
import json
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

sys.path.insert(0, HERE)
import model_zoo  # noqa: E402 (the zoo's builder arguments and input sizes)

# The table's types; --dtypes defaults to the first two (bf16 rows are run
# on request: --dtypes bf16).
DTYPES = ("f32", "f16", "bf16")
DEFAULT_DTYPES = "f32,f16"
TYPE_NAMES = {"f32": "fp32", "f16": "fp16", "bf16": "bf16"}
STACKS = ["nn.TransformerEncoder", "nn.TransformerDecoder", "nn.Transformer"]
# Input size and builder arguments of the zoo's models (no auxiliary heads;
# Inception v3 at 299); every other model takes 224 and its defaults.
ZOO = {name: (size, kwargs) for name, size, kwargs in model_zoo.MODELS}


class RowTimeout(BaseException):
    """A row past --budget-s (a BaseException, so that the rows' own
    `except Exception` does not record it as the model failing)."""


def _hugging_face():
    """name -> (config class, model class, config arguments, input kind) of
    the Hugging Face models the table covers (small random configurations,
    no cache: use_cache's DynamicCache output is not a tensor), when the
    transformers package is installed."""
    text = {"vocab_size": 1000}
    small = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=128)
    return {
        "hf-bert": ("BertConfig", "BertModel", dict(
            text, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=128), "text"),
        "hf-distilbert": ("DistilBertConfig", "DistilBertModel", dict(
            text, dim=64, n_layers=2, n_heads=4, hidden_dim=128), "text"),
        "hf-roberta": ("RobertaConfig", "RobertaModel", dict(
            text, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=128), "text"),
        "hf-gpt2": ("GPT2Config", "GPT2Model", dict(
            text, n_embd=64, n_layer=2, n_head=4, n_positions=64,
            use_cache=False), "text"),
        "hf-llama": ("LlamaConfig", "LlamaModel", dict(
            text, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
            num_attention_heads=4, num_key_value_heads=2, use_cache=False),
            "text"),
        "hf-t5-encoder": ("T5Config", "T5EncoderModel", dict(
            text, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4),
            "text"),
        "hf-vit": ("ViTConfig", "ViTModel", dict(
            hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=128, image_size=32, patch_size=8), "image"),
        "hf-clip-vision": ("CLIPVisionConfig", "CLIPVisionModel", dict(
            hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            intermediate_size=128, image_size=32, patch_size=8), "image"),
        # Session 16's survey: more architectures that import whole.
        "hf-albert": ("AlbertConfig", "AlbertModel", dict(
            text, embedding_size=32, **small), "text"),
        "hf-electra": ("ElectraConfig", "ElectraModel", dict(
            text, embedding_size=32, **small), "text"),
        "hf-deberta-v2": ("DebertaV2Config", "DebertaV2Model", dict(
            text, **small), "text"),
        "hf-bart": ("BartConfig", "BartModel", dict(
            text, d_model=64, encoder_layers=2, decoder_layers=2,
            encoder_attention_heads=4, decoder_attention_heads=4,
            encoder_ffn_dim=128, decoder_ffn_dim=128, use_cache=False),
            "text"),
        "hf-mistral": ("MistralConfig", "MistralModel", dict(
            text, num_key_value_heads=2, use_cache=False, **small), "text"),
        "hf-qwen2": ("Qwen2Config", "Qwen2Model", dict(
            text, num_key_value_heads=2, use_cache=False, **small), "text"),
        "hf-phi": ("PhiConfig", "PhiModel", dict(
            text, use_cache=False, **small), "text"),
        "hf-gemma": ("GemmaConfig", "GemmaModel", dict(
            text, num_key_value_heads=2, head_dim=16, use_cache=False,
            **small), "text"),
        "hf-opt": ("OPTConfig", "OPTModel", dict(
            text, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            ffn_dim=128, word_embed_proj_dim=64, use_cache=False), "text"),
        "hf-bloom": ("BloomConfig", "BloomModel", dict(
            text, hidden_size=64, n_layer=2, n_head=4, use_cache=False),
            "text"),
        "hf-falcon": ("FalconConfig", "FalconModel", dict(
            text, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
            use_cache=False), "text"),
        "hf-dinov2": ("Dinov2Config", "Dinov2Model", dict(
            image_size=32, patch_size=8, **small), "image"),
        "hf-segformer": ("SegformerConfig", "SegformerModel", dict(
            num_encoder_blocks=2, depths=[1, 1], sr_ratios=[2, 1],
            hidden_sizes=[16, 32], patch_sizes=[7, 3], strides=[4, 2],
            num_attention_heads=[1, 2], mlp_ratios=[2, 2]), "image"),
    }


# timm models (pretrained=False), one or two per architecture family, at
# their default input size, when the timm package is installed (issue 32).
TIMM = ("resnet50d", "seresnext26d_32x4d", "ecaresnet50d", "res2net50_26w_4s",
        "resnest14d", "dla34", "dpn68", "cspdarknet53", "densenet121",
        "efficientnet_b0", "mixnet_s", "ghostnet_100", "rexnet_100",
        "mobilenetv3_large_100", "lcnet_100", "regnety_016",
        "hrnet_w18_small", "ese_vovnet19b_dw", "selecsls42b",
        "convnext_tiny", "edgenext_small", "poolformer_s12", "fastvit_t8",
        "mobilevit_s", "vit_small_patch16_224", "deit_small_patch16_224",
        "swin_tiny_patch4_window7_224", "levit_128", "pit_ti_224",
        "xcit_nano_12_p16_224", "resmlp_12_224", "efficientvit_b0",
        # Session 16's survey (70 more families, import only): those that
        # import whole, one per family.
        "inception_v4", "xception41", "repvgg_a2", "mobileone_s0",
        "efficientformerv2_s0", "coatnet_0_rw_224", "maxvit_tiny_rw_224",
        "cait_xxs24_224", "eva02_tiny_patch14_224", "pvt_v2_b0",
        "gcvit_xxtiny", "nfnet_l0", "tresnet_m", "ghostnetv2_100",
        "convnextv2_atto", "mobilenetv4_conv_small", "nextvit_small",
        "crossvit_tiny_240", "davit_tiny", "focalnet_tiny_srf",
        "hgnetv2_b0")


def model_names(torchvision):
    """(family, name) of every model this table covers."""
    rows = [("classification", n) for n in
            torchvision.models.list_models(module=torchvision.models)]
    rows += [("segmentation", n) for n in torchvision.models.list_models(
        module=torchvision.models.segmentation)]
    rows += [("transformer stack", n) for n in STACKS]
    try:
        import transformers  # noqa: F401 (optional)
        rows += [("hugging face", n) for n in _hugging_face()]
    except ImportError:
        pass
    try:
        import timm  # noqa: F401 (optional)
        # Named apart from torchvision's models of the same name.
        rows += [("timm", "timm-" + n) for n in TIMM]
    except ImportError:
        pass
    return rows


def build(torch, torchvision, family, name, dtype):
    """The model (random weights, eval, `dtype`) and its example inputs."""
    torch.manual_seed(0)
    if family == "transformer stack":
        d, heads, layers = 64, 4, 2
        if name == "nn.TransformerEncoder":
            model = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(
                d, heads, 128, batch_first=True), layers)
            inputs = [torch.randn(2, 16, d)]
        elif name == "nn.TransformerDecoder":
            model = torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer(
                d, heads, 128, batch_first=True), layers)
            inputs = [torch.randn(2, 16, d), torch.randn(2, 12, d)]
        else:
            model = torch.nn.Transformer(d, heads, layers, layers, 128,
                                         batch_first=True)
            inputs = [torch.randn(2, 12, d), torch.randn(2, 16, d)]
    elif family == "hugging face":
        import transformers
        config, builder, arguments, kind = _hugging_face()[name]
        model = getattr(transformers, builder)(
            getattr(transformers, config)(**arguments))
        inputs = [torch.randint(0, 1000, (2, 16))] if kind == "text" else \
            [torch.randn(2, 3, 32, 32)]
    elif family == "timm":
        import timm
        model = timm.create_model(name[len("timm-"):], pretrained=False)
        size = model.pretrained_cfg.get("input_size", (3, 224, 224))
        inputs = [torch.randn(1, *size)]
    else:
        size, kwargs = ZOO.get(name, (224, {}))
        kwargs = dict(kwargs)
        if family == "segmentation":  # no pretrained backbone download
            kwargs["weights_backbone"] = None
        model = torchvision.models.get_model(name, weights=None, **kwargs)
        inputs = [torch.randn(1, 3, size, size)]
    dt = {"f16": torch.float16, "bf16": torch.bfloat16}.get(dtype,
                                                            torch.float32)
    model = model.eval().to(dtype=dt)
    return model, [x.to(dt) if x.is_floating_point() else x for x in inputs]


def cover(torch, torchvision, family, name, dtype, compile_cache):
    """One row's record (without model, dtype, date)."""
    from cudnn_mlir.frontend import TorchImportError, import_graph, trace
    from cudnn_mlir.partition import compile_partitioned, first_line
    model, inputs = build(torch, torchvision, family, name, dtype)
    record = {"family": family}
    try:
        gm = trace(model, inputs)
    except TorchImportError as error:
        record.update(imports=False, ops=None, compiled_ops=0,
                      reason=first_line(error))
        return record
    if "captured_by" in gm.meta:
        record["captured_by"] = gm.meta["captured_by"]
    ops = sum(1 for n in gm.graph.nodes
              if n.op in ("call_function", "call_method", "call_module"))
    imported = {}

    def import_only(graph_module, example_inputs):
        imported[graph_module] = import_graph(graph_module,
                                              tuple(example_inputs))
        return (lambda *args: None), None

    _, report = compile_partitioned(gm, inputs, import_only,
                                    (TorchImportError,))
    record.update(imports=report.whole, ops=ops,
                  compiled_ops=report.compiled_ops,
                  reason="" if report.whole else report.summarize())
    if compile_cache and report.whole:
        from cudnn_mlir.driver.compiler import compile_artifact
        start = time.time()
        try:
            folder = compile_artifact(imported[gm], cache_dir=compile_cache)
            record["compiles"] = True
            record["artifact"] = os.path.basename(folder)
        except Exception as error:  # noqa: BLE001 (reported as the row's)
            record["compiles"] = False
            record["compile_error"] = first_line(error)
        record["compile_s"] = round(time.time() - start, 1)
    return record


# An output matches when it is no farther from the fp64 model's than this
# or than twice eager's own output is (eager in fp32 rounds through TF32
# convolutions; fp16 through fp16; bf16 rounds 8x coarser than fp16).
MATCH_FLOOR = {"f32": 1e-3, "f16": 2e-2, "bf16": 1.6e-1}
# Eager farther than this from fp64 (random weights that overflow fp16, or
# outputs all zero): the row checks nothing.
UNCHECKED_ABOVE = 0.1


def verdict(ours_err, eager_err, dtype):
    """"matches", "WRONG" or "unchecked ..." for errors against fp64."""
    if eager_err is None or eager_err > UNCHECKED_ABOVE:
        return "unchecked (eager itself is off)"  # random weights in fp16
    if ours_err is not None and ours_err <= max(MATCH_FLOOR[dtype],
                                                2 * eager_err):
        return "matches"
    return "WRONG"


def calibrate(torch, model, inputs):
    """Gives each batch norm the statistics of the activations it sees, as
    training would: with random weights and the initial statistics (mean
    0, variance 1) a deep network's activations grow layer by layer until
    fp16 overflows, and the row would check nothing. Two training-mode
    passes over 4 random inputs in fp32, cumulative averages; the
    artifact is the same (statistics are arguments, not constants)."""
    norms = [m for m in model.modules()
             if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
    if not norms:
        return
    dtype = next(model.parameters()).dtype
    model.float()
    for norm in norms:
        norm.reset_running_stats()
        norm.momentum = None
    model.train()
    with torch.no_grad():
        for _ in range(2):
            model(*[torch.randn((4,) + tuple(x.shape[1:]), device=x.device)
                    for x in inputs])
    model.eval().to(dtype)


def check_on_gpu(torch, torchvision, family, name, dtype, cache):
    """One row's GPU record: cudnn_mlir.compile (partitioned where the
    CPU rows were) from `cache`, its output and eager's against the same
    model in fp64."""
    import copy

    import cudnn_mlir
    from cudnn_mlir.driver.compiler import PartitionedModel
    from torch.utils._pytree import tree_leaves
    model, inputs = build(torch, torchvision, family, name, dtype)
    with torch.no_grad():
        # torchvision zero-initialises some heads (ViT's): all-zero logits
        # would check nothing.
        for p in model.parameters():
            if p.dim() >= 2 and not p.any():
                p.normal_(0.0, 0.02)
    model, inputs = model.cuda(), [x.cuda() for x in inputs]
    calibrate(torch, model, inputs)

    def outputs(out):
        return [t for t in tree_leaves(out) if isinstance(t, torch.Tensor)]

    def error(out, reference):
        errors = [model_zoo.relative_error(o, r)
                  for o, r in zip(outputs(out), reference)]
        return None if None in errors else max(errors)

    with torch.no_grad():
        # Token ids stay integers.
        reference = outputs(copy.deepcopy(model).double()(
            *[x.double() if x.is_floating_point() else x for x in inputs]))
        eager_err = error(model(*inputs), reference)
        try:
            compiled = cudnn_mlir.compile(model, inputs, cache_dir=cache)
            ours = compiled(*inputs)
            torch.cuda.synchronize()
        except Exception as failure:  # noqa: BLE001 (the row's result)
            return {"gpu": "fails: %s" % model_zoo.first_line(failure),
                    "eager_err": eager_err}
    ours_err = error(ours, reference)
    return {"gpu": verdict(ours_err, eager_err, dtype), "ours_err": ours_err,
            "eager_err": eager_err,
            "partitioned": isinstance(compiled, PartitionedModel),
            "device": torch.cuda.get_device_name()}


def pack(args):
    """The artifacts of the rows in --report's files, as one tar.xz."""
    import tarfile
    folders = sorted({r["artifact"] for r in _rows(args.report).values()
                      if r.get("artifact")})
    with tarfile.open(args.pack, "w:xz") as tar:
        for folder in folders:
            for part in ("model.so", "model.json", "compiler.txt"):
                path = os.path.join(args.cache, folder, part)
                if os.path.exists(path):
                    tar.add(path, arcname=os.path.join(folder, part))
    print("pack: %d artifacts in %s, %.1f MiB" % (
        len(folders), args.pack, os.path.getsize(args.pack) / 2**20))
    return 0


def run(args):
    import torch
    import torchvision
    rows = model_names(torchvision)
    if args.models != "all":
        # Names or whole families ("timm"), in the order given.
        wanted = args.models.split(",")
        rows = [r for name in wanted for r in rows if name in r]
    dtypes = args.dtypes.split(",")
    started = time.time()

    def on_alarm(signum, frame):
        raise RowTimeout()

    signal.signal(signal.SIGALRM, on_alarm)
    done = 0
    with open(args.results, "a") as out:
        for family, name in rows:
            for dtype in dtypes:
                if time.time() - started > args.total_s:
                    print("stopped: --total-s spent after %d rows" % done)
                    return 0
                begin = time.time()
                signal.alarm(args.budget_s)
                try:
                    record = check_on_gpu(
                        torch, torchvision, family, name, dtype,
                        args.cache) if args.gpu else cover(
                        torch, torchvision, family, name, dtype,
                        args.cache if args.compile else None)
                except RowTimeout:
                    record = {"imports": None, "reason": "timed out after "
                              "%d s" % args.budget_s}
                except Exception as error:  # noqa: BLE001 (the row's result)
                    record = {"imports": False,
                              "reason": "%s: %s" % (type(error).__name__,
                                                    str(error).split("\n")[0])}
                finally:
                    signal.alarm(0)
                if args.gpu and "gpu" not in record:
                    record = {"gpu": "%s: %s" % (
                        "not checked" if record["imports"] is None
                        else "fails", record["reason"])}
                record.update(model=name, dtype=dtype, family=family,
                              seconds=round(time.time() - begin, 1),
                              date=datetime.date.today().isoformat(),
                              torch=torch.__version__)
                out.write(json.dumps(record) + "\n")
                out.flush()
                done += 1
                print("%s %s: %s" % (name, dtype, _gpu_cell(record)
                                     if args.gpu else _cell(record)),
                      flush=True)
    return 0


def _cell(record):
    if record.get("imports") is None:
        return "- (%s)" % record.get("reason", "not run")
    if record["imports"]:
        text = "yes"
        if "compiles" in record:
            text += ", compiles" if record["compiles"] else \
                ", does not compile"
        return text
    if record.get("ops"):
        return "%d%% of %d ops" % (100 * record["compiled_ops"]
                                   // record["ops"], record["ops"])
    return "no"


def _rows(paths, gpu=False):
    """(model, dtype) -> the latest CPU row (GPU row with `gpu`) in the
    files."""
    latest = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                if ("gpu" in r) == gpu:
                    latest[(r["model"], r["dtype"])] = r
    return latest


def _gpu_cell(record):
    if record is None:
        return "not run"
    text = record["gpu"]
    if text == "fails: RowTimeout":  # rows of 2026-11-28, before the fix
        text = "not checked: timed out"
    if "ours_err" in record:  # judged again: rows of earlier rules too
        text = verdict(record["ours_err"], record["eager_err"],
                       record["dtype"])
    if record.get("ours_err") is not None:
        text += " (%.1e; eager %.1e)" % (record["ours_err"],
                                         record["eager_err"] or 0)
    if record.get("partitioned"):
        # Parts of it ran in PyTorch (HF BART in fp16: graph breaks).
        text += ", partitioned"
    return text


def report(args):
    latest = _rows(args.report)
    on_gpu = _rows(args.report, gpu=True)
    models = []
    for (model, _), r in latest.items():
        if (r["family"], model) not in models:
            models.append((r["family"], model))
    families = ["classification", "segmentation", "transformer stack",
                "hugging face", "timm"]
    models.sort(key=lambda fm: (families.index(fm[0])
                                if fm[0] in families else 9, fm[1]))
    names = [TYPE_NAMES[d] for d in DTYPES]
    lines = ["| model | family | %s | %s | notes (fp32) |" % (
        " | ".join(names), " | ".join("GPU %s vs fp64" % n for n in names)),
        "|---|---|%s|" % ("---|" * (2 * len(DTYPES)))]
    matched = {d: 0 for d in DTYPES}
    whole = {d: 0 for d in DTYPES}
    for family, model in models:
        cells = []
        for dtype in DTYPES:
            r = latest.get((model, dtype))
            cells.append(_cell(r) if r else "not run")
            whole[dtype] += bool(r and r.get("imports"))
        for dtype in DTYPES:
            g = on_gpu.get((model, dtype))
            cells.append(_gpu_cell(g))
            matched[dtype] += _gpu_cell(g).startswith("matches")
        r = latest.get((model, "f32")) or {}
        reason = (r.get("reason") or r.get("compile_error") or "")
        if not reason and r.get("captured_by"):
            reason = "captured by " + r["captured_by"]
        reason = reason.replace("|", "/")
        if len(reason) > 160:
            reason = reason[:157] + "..."
        lines.append("| %s | %s |" % (model, " | ".join(
            [family] + cells + [reason])))
    dates = sorted({r["date"] for r in latest.values()})
    devices = sorted({r["device"] for r in on_gpu.values()
                      if r.get("device")})
    gpu_dates = sorted({r["date"] for r in on_gpu.values()})
    head = ("Imports whole: %d of %d models in fp32, %s (CPU, torch "
            "%s, %s). A percentage is the share of a model's ops that "
            "partitioned compilation compiles, the rest running in PyTorch. "
            % (whole["f32"], len(models), ", ".join(
                "%d in %s" % (whole[d], TYPE_NAMES[d]) for d in DTYPES[1:]),
               ", ".join(sorted({r["torch"] for r in latest.values()})),
               " to ".join([dates[0], dates[-1]] if len(dates) > 1
                           else dates)))
    if on_gpu:
        head += ("On the GPU (%s, %s, batch 1): %s; each cell is the "
                 "relative error of cudnn_mlir's output against the model "
                 "in fp64, with eager's."
                 % (", ".join(devices), " to ".join(
                     sorted({gpu_dates[0], gpu_dates[-1]})),
                    "%d match in fp32, %s" % (matched["f32"], ", ".join(
                        "%d in %s" % (matched[d], TYPE_NAMES[d])
                        for d in DTYPES[1:]))))
    else:
        head += "GPU columns: not measured yet."
    text = "\n".join([head, ""] + lines) + "\n"
    if args.out:
        with open(args.out) as f:
            doc = f.read()
        begin, end = "<!-- coverage-table-begin -->", \
            "<!-- coverage-table-end -->"
        a, b = doc.index(begin) + len(begin), doc.index(end)
        with open(args.out, "w") as f:
            f.write(doc[:a] + "\n" + text + doc[b:])
    else:
        sys.stdout.write(text)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="all",
                        help="comma-separated names or families (timm, "
                        "hugging face, ...), or all")
    parser.add_argument("--dtypes", default=DEFAULT_DTYPES,
                        help="of %s" % ", ".join(DTYPES))
    parser.add_argument("--compile", action="store_true",
                        help="also compile each whole import")
    parser.add_argument("--cache", default="build/coverage-cache")
    parser.add_argument("--budget-s", type=int, default=300,
                        help="per model and dtype")
    parser.add_argument("--total-s", type=int, default=10 ** 9)
    parser.add_argument("--results")
    parser.add_argument("--report", nargs="*")
    parser.add_argument("--gpu", action="store_true",
                        help="run each model on the GPU from --cache")
    parser.add_argument("--pack", metavar="TAR_XZ",
                        help="with --report: the rows' artifacts, packed")
    parser.add_argument("--out", help="with --report: the markdown file "
                        "whose coverage-table markers get the table")
    args = parser.parse_args()
    if args.report and args.pack:
        return pack(args)
    if args.report:
        return report(args)
    if not args.results:
        parser.error("expects --results (or --report)")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
