#!/usr/bin/env python3
"""The first call in a fresh process (issue 29): how long from a model in
hand to its first result, ours against eager and torch.compile, each
scenario in a process of its own (GPU machine; the artifact compiled here
with model_zoo.py --compile-only and carried in its pack):

    python3 benchmarks/first_call.py --cache build/zoo-piece \\
        --row resnet50@32 --results first-call.jsonl

Scenarios, in this order (the plan folder and the Inductor cache start
empty, so the ones after a "cold" see what it stored):
  ours, artifact only       no re-import record, CUDNN_MLIR_PLAN_CACHE=0:
                            the import runs, every plan is built
  ours, plan cache cold     the record (written by the one before), a
                            fresh plan folder (the default is on)
  ours, all caches warm     the same folder, the next process
  eager
  torch.compile, cold       a fresh Inductor/Triton cache
  torch.compile, warm       the same cache, the next process

Each child times, on the host with a synchronise after each call: building
the model (not counted: every scenario pays it), `cudnn_mlir.compile` split
into trace, import (the run on the CPU that records shapes and constants),
the artifact lookup (0 where the re-import record found it) and the load;
the first call, of which the plans'
build or load (summed from CUDNN_MLIR_LOG's "built graph" lines) is part;
and the second call. "to first result" is compile + first call. The output
of the first call is checked against eager's (fp16: relative error 2e-2).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

SCENARIOS = [
    ("ours, artifact only", "ours", "artifact only"),
    ("ours, plan cache cold", "ours", "plans"),
    ("ours, all caches warm", "ours", "plans"),
    ("eager", "eager", None),
    ("torch.compile, cold", "compile", "inductor"),
    ("torch.compile, warm", "compile", "inductor"),
]
TOLERANCE = 2e-2
BUILT = re.compile(r"built graph on device \d+ in ([0-9.]+) ms \(([^)]*)\)")


def plan_log_summary(path):
    """(ms building or loading plans, {origin: graphs}) from a
    CUDNN_MLIR_LOG file."""
    total, origins = 0.0, {}
    if os.path.exists(path):
        with open(path) as f:
            for match in BUILT.finditer(f.read()):
                total += float(match.group(1))
                origins[match.group(2)] = origins.get(match.group(2), 0) + 1
    return round(total, 1), origins


def timed(steps, name, fn):
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            steps[name] = steps.get(name, 0.0) + time.perf_counter() - start
    return wrapper


def child(args):
    """One scenario in this process: prints one JSON line."""
    began = time.perf_counter()
    steps = {}
    if args.kind == "ours":
        import cudnn_mlir
        cudnn_mlir.load_runtime_before_torch()  # docs/abi.md, "Loading"
    import torch
    import model_zoo
    if args.kind == "ours":
        from cudnn_mlir import frontend
        from cudnn_mlir.driver import compiler
        frontend.trace = timed(steps, "trace", frontend.trace)
        frontend.import_graph = timed(steps, "import", frontend.import_graph)
        compiler.compile_artifact = timed(steps, "artifact lookup",
                                          compiler.compile_artifact)
        compiler.load = timed(steps, "load", compiler.load)
    imported_s = time.perf_counter() - began
    row = model_zoo.parse_rows(args.row, [32])[0]
    with torch.no_grad():
        model, inputs = model_zoo.build(torch, row, "cuda")
        torch.cuda.synchronize()
        start = time.perf_counter()
        if args.kind == "ours":
            fn = cudnn_mlir.compile(model, inputs, cache_dir=args.cache)
        elif args.kind == "compile":
            fn = torch.compile(model)
        else:
            fn = model
        compile_s = time.perf_counter() - start
        start = time.perf_counter()
        out = fn(*inputs)
        torch.cuda.synchronize()
        first_s = time.perf_counter() - start
        start = time.perf_counter()
        fn(*inputs)
        torch.cuda.synchronize()
        second_s = time.perf_counter() - start
        expected = model(*inputs).float()
        rel_err = ((out.float() - expected).abs().max()
                   / expected.abs().max()).item()
    print(json.dumps({
        "python_imports_s": round(imported_s, 3),
        "compile_s": round(compile_s, 3),
        "steps_s": {k: round(v, 3) for k, v in steps.items()},
        "first_call_s": round(first_s, 3),
        "second_call_ms": round(second_s * 1e3, 2),
        "to_first_result_s": round(compile_s + first_s, 3),
        "rel_err": rel_err,
        "device": torch.cuda.get_device_name(),
    }), flush=True)


def run_scenarios(args):
    work = tempfile.mkdtemp(prefix="first-call.")
    rows = []
    for label, kind, cache in SCENARIOS:
        env = dict(os.environ)
        log = os.path.join(work, "%d.log" % len(rows))
        env["CUDNN_MLIR_LOG"] = log
        if cache == "artifact only":
            env["CUDNN_MLIR_PLAN_CACHE"] = "0"
            shutil.rmtree(os.path.join(args.cache, "reimport"),
                          ignore_errors=True)
        elif cache == "plans":
            env["CUDNN_MLIR_CACHE_DIR"] = os.path.join(work, "cudnn_mlir")
            env.pop("CUDNN_MLIR_PLAN_CACHE", None)
        elif cache == "inductor":
            env["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(work, "inductor")
            env["TRITON_CACHE_DIR"] = os.path.join(work, "triton")
        command = [sys.executable, os.path.abspath(__file__), "--child",
                   kind, "--cache", args.cache, "--row", args.row]
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True,
                              text=True, timeout=args.timeout_s)
        process_s = time.perf_counter() - start
        lines = [line for line in done.stdout.splitlines()
                 if line.startswith("{")]
        if done.returncode or not lines:
            result = {"error": (done.stderr or done.stdout).strip()
                      .splitlines()[-1:] or ["exit %d" % done.returncode]}
        else:
            result = json.loads(lines[-1])
            plans_ms, origins = plan_log_summary(log)
            result["plans_ms"], result["plan_origins"] = plans_ms, origins
            result["ok"] = result["rel_err"] <= TOLERANCE
        result.update({"scenario": label, "row": args.row,
                       "process_s": round(process_s, 2)})
        rows.append(result)
        print(json.dumps(result), flush=True)
        if args.results:
            with open(args.results, "a") as f:
                f.write(json.dumps(result) + "\n")
    return rows


def table(rows):
    """The markdown table of docs/benchmarks.md, "The first call"."""
    lines = ["| scenario | Python imports | compile (trace / import / "
             "lookup / load) | first call (plans) | to first result | "
             "second call | process |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            lines.append("| %s | fails: %s | | | | | |"
                         % (r["scenario"], r["error"][0]))
            continue
        steps = r.get("steps_s", {})
        compile_text = "—" if r["scenario"] == "eager" else "%.2f s" % (
            r["compile_s"])
        if steps:
            compile_text += " (%s)" % " / ".join(
                "%.2f" % steps.get(k, 0.0) for k in
                ("trace", "import", "artifact lookup", "load"))
        plans = ""
        if r.get("plan_origins"):
            plans = " (%.2f s: %s)" % (r["plans_ms"] / 1e3, ", ".join(
                "%d %s" % (n, o) for o, n in sorted(r["plan_origins"].items())))
        lines.append("| %s | %.2f s | %s | %.2f s%s | **%.2f s** | %.1f ms "
                     "| %.1f s |%s"
                     % (r["scenario"], r["python_imports_s"], compile_text, r["first_call_s"], plans,
                        r["to_first_result_s"], r["second_call_ms"],
                        r["process_s"], "" if r["ok"] else " WRONG"))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", required=False,
                        help="artifact cache holding the row (a zoo pack)")
    parser.add_argument("--row", default="resnet50@32")
    parser.add_argument("--results", help="append JSON lines here")
    parser.add_argument("--report", nargs="+",
                        help="print the table of these JSON-line files")
    parser.add_argument("--timeout-s", type=float, default=240)
    parser.add_argument("--child", choices=["ours", "eager", "compile"],
                        dest="kind", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.report:
        rows = []
        for path in args.report:
            with open(path) as f:
                rows += [json.loads(line) for line in f if line.strip()]
        print(table(rows))
    elif args.kind:
        child(args)
    else:
        if not args.cache:
            parser.error("expects --cache (the artifact cache of the row)")
        print(table(run_scenarios(args)))


if __name__ == "__main__":
    main()
