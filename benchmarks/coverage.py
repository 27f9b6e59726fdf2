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

GPU columns (runs and matches eager) are not measured by this script yet:
the table says so.
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

DTYPES = ("f32", "f16")
STACKS = ["nn.TransformerEncoder", "nn.TransformerDecoder", "nn.Transformer"]
# Input size and builder arguments of the zoo's models (no auxiliary heads;
# Inception v3 at 299); every other model takes 224 and its defaults.
ZOO = {name: (size, kwargs) for name, size, kwargs in model_zoo.MODELS}


class RowTimeout(Exception):
    pass


def model_names(torchvision):
    """(family, name) of every model this table covers."""
    rows = [("classification", n) for n in
            torchvision.models.list_models(module=torchvision.models)]
    rows += [("segmentation", n) for n in torchvision.models.list_models(
        module=torchvision.models.segmentation)]
    rows += [("transformer stack", n) for n in STACKS]
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
    else:
        size, kwargs = ZOO.get(name, (224, {}))
        kwargs = dict(kwargs)
        if family == "segmentation":  # no pretrained backbone download
            kwargs["weights_backbone"] = None
        model = torchvision.models.get_model(name, weights=None, **kwargs)
        inputs = [torch.randn(1, 3, size, size)]
    dt = torch.float16 if dtype == "f16" else torch.float32
    model = model.eval().to(dtype=dt)
    return model, [x.to(dt) for x in inputs]


def cover(torch, torchvision, family, name, dtype, compile_cache):
    """One row's record (without model, dtype, date)."""
    from cudnn_mlir.frontend import TorchImportError, import_graph, trace
    from cudnn_mlir.partition import compile_partitioned, first_line
    model, inputs = build(torch, torchvision, family, name, dtype)
    record = {"family": family}
    try:
        gm = trace(model)
    except TorchImportError as error:
        record.update(imports=False, ops=None, compiled_ops=0,
                      reason=first_line(error))
        return record
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
            compile_artifact(imported[gm], cache_dir=compile_cache)
            record["compiles"] = True
        except Exception as error:  # noqa: BLE001 (reported as the row's)
            record["compiles"] = False
            record["compile_error"] = first_line(error)
        record["compile_s"] = round(time.time() - start, 1)
    return record


def run(args):
    import torch
    import torchvision
    rows = model_names(torchvision)
    if args.models != "all":
        wanted = args.models.split(",")
        rows = [r for r in rows if r[1] in wanted]
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
                    record = cover(torch, torchvision, family, name, dtype,
                                   args.cache if args.compile else None)
                except RowTimeout:
                    record = {"family": family, "imports": None,
                              "reason": "timed out after %d s"
                                        % args.budget_s}
                except Exception as error:  # noqa: BLE001 (the row's result)
                    record = {"family": family, "imports": False,
                              "reason": "%s: %s" % (type(error).__name__,
                                                    str(error).split("\n")[0])}
                finally:
                    signal.alarm(0)
                record.update(model=name, dtype=dtype,
                              seconds=round(time.time() - begin, 1),
                              date=datetime.date.today().isoformat(),
                              torch=torch.__version__)
                out.write(json.dumps(record) + "\n")
                out.flush()
                done += 1
                print("%s %s: %s" % (name, dtype, _cell(record)), flush=True)
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


def report(args):
    latest = {}
    for path in args.report:
        with open(path) as f:
            for line in f:
                r = json.loads(line)
                latest[(r["model"], r["dtype"])] = r
    models = []
    for (model, _), r in latest.items():
        if (r["family"], model) not in models:
            models.append((r["family"], model))
    families = ["classification", "segmentation", "transformer stack"]
    models.sort(key=lambda fm: (families.index(fm[0])
                                if fm[0] in families else 9, fm[1]))
    lines = ["| model | family | fp32 | fp16 | why not whole (fp32) |",
             "|---|---|---|---|---|"]
    whole = {d: 0 for d in DTYPES}
    for family, model in models:
        cells = []
        for dtype in DTYPES:
            r = latest.get((model, dtype))
            cells.append(_cell(r) if r else "not run")
            whole[dtype] += bool(r and r.get("imports"))
        r = latest.get((model, "f32")) or {}
        reason = (r.get("reason") or r.get("compile_error") or "")
        reason = reason.replace("|", "/")
        if len(reason) > 160:
            reason = reason[:157] + "..."
        lines.append("| %s | %s | %s | %s | %s |" % (model, family, cells[0],
                                                    cells[1], reason))
    dates = sorted({r["date"] for r in latest.values()})
    head = ("Imports whole: %d of %d models in fp32, %d in fp16 (CPU, torch "
            "%s, %s). A percentage is the share of a model's ops that "
            "partitioned compilation compiles, the rest running in PyTorch. "
            "GPU columns (runs, matches eager): not measured yet."
            % (whole["f32"], len(models), whole["f16"],
               ", ".join(sorted({r["torch"] for r in latest.values()})),
               " to ".join([dates[0], dates[-1]] if len(dates) > 1
                           else dates)))
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
                        help="comma-separated names, or all")
    parser.add_argument("--dtypes", default=",".join(DTYPES))
    parser.add_argument("--compile", action="store_true",
                        help="also compile each whole import")
    parser.add_argument("--cache", default="build/coverage-cache")
    parser.add_argument("--budget-s", type=int, default=300,
                        help="per model and dtype")
    parser.add_argument("--total-s", type=int, default=10 ** 9)
    parser.add_argument("--results")
    parser.add_argument("--report", nargs="*")
    parser.add_argument("--out", help="with --report: the markdown file "
                        "whose coverage-table markers get the table")
    args = parser.parse_args()
    if args.report:
        return report(args)
    if not args.results:
        parser.error("expects --results (or --report)")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
