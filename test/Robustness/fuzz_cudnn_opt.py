#!/usr/bin/env python3
"""Feeds cudnn-opt many mutated and truncated versions of the lit test inputs
and fails on any crash, assertion, fatal LLVM error or hang.

Rejecting malformed input with a diagnostic (exit code 1) is the expected
outcome; anything else is a bug. Mutants are run in batches through
`-split-input-file`; a batch that crashes is re-run one mutant at a time so
the report names the exact input, which is written to --out for reproduction
as soon as it is found.

A long campaign (docs/testing.md, "Robustness fuzzing") passes several
--seed options: each seed mutates the same corpus with its own random stream,
the count it prints is the sum over the seeds, and the CI run's single seed
gives exactly the inputs it always did.
"""

import argparse
import concurrent.futures
import os
import pathlib
import random
import re
import subprocess
import sys
import time

SPLIT = "// -----"
# The last three are ASan's, LeakSanitizer's and UBSan's reports, for a
# cudnn-opt built with them (scripts/sanitize-compiler.sh) whatever exit code
# its options give a report.
CRASH_MARKERS = ("PLEASE submit a bug report", "Assertion", "LLVM ERROR",
                 "Stack dump", "UNREACHABLE", "Segmentation fault",
                 "ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                 ": runtime error: ")
TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "index",
         "tensor<?xf32>", "tensor<f32>", "!cudnn.handle", "none", "f8E4M3FN"]
NUMBERS = ["0", "-1", "1", "3", "-9223372036854775808", "9223372036854775807",
           "18446744073709551616", "4294967296", "1e400", "nan", "0x7fc00000"]
PUNCT = list("(){}[]<>,:=%^!#@\"?x-") + ["->", "// -----"]
# Element types LLVM IR translation has no type for (the LLVM dialect
# verifies only the outer type of !llvm.array / !llvm.struct), some nested.
UNTRANSLATABLE = ["none", "index", "tf32", "f8E4M3FN", "complex<f32>",
                  "tensor<2xf32>", "vector<2x2xf32>", "si32",
                  "struct<(i32, none)>", "array<2 x index>"]
# An element of an LLVM array or the first member of an LLVM struct.
LLVM_ELEMENT = re.compile(r"(?:array<\d+ x |struct<(?:packed)?\()"
                          r"(!?[\w.]+(?:<[^<>]*>)?)")


def chunks_of(path):
    text = path.read_text(errors="replace")
    # Drop RUN lines and expectations: they are comments to cudnn-opt anyway,
    # but removing them makes mutations land on IR.
    lines = [l for l in text.splitlines()
             if not l.lstrip().startswith("// RUN") and "expected-" not in l]
    return [c for c in "\n".join(lines).split(SPLIT) if c.strip()]


def mutate(chunk, rng):
    lines = chunk.splitlines() or [""]
    kind = rng.randrange(11)
    if kind == 0:  # truncate anywhere
        return chunk[: rng.randrange(len(chunk) + 1)]
    if kind == 1:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 2:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
    elif kind == 3:  # swap two lines (breaks dominance, terminators)
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 4:  # replace a number
        spots = list(re.finditer(r"-?\d+(\.\d+)?(e[+-]?\d+)?", chunk))
        if spots:
            m = rng.choice(spots)
            return chunk[: m.start()] + rng.choice(NUMBERS) + chunk[m.end():]
    elif kind == 5:  # replace an element or whole type
        spots = list(re.finditer(r"\b(f16|bf16|f32|f64|i1|i8|i32|i64|index)\b",
                                 chunk))
        if spots:
            m = rng.choice(spots)
            return chunk[: m.start()] + rng.choice(TYPES) + chunk[m.end():]
    elif kind == 6:  # make a static dimension dynamic or zero
        spots = list(re.finditer(r"(?<=[<x])\d+(?=x)", chunk))
        if spots:
            m = rng.choice(spots)
            return chunk[: m.start()] + rng.choice(["?", "0", "1", "7"]) + chunk[m.end():]
    elif kind == 7:  # delete a character range
        if chunk:
            i = rng.randrange(len(chunk))
            return chunk[:i] + chunk[i + rng.randrange(1, 12):]
    elif kind == 8:  # insert punctuation
        i = rng.randrange(len(chunk) + 1)
        return chunk[:i] + rng.choice(PUNCT) + chunk[i:]
    elif kind == 9:  # swap two SSA names
        names = re.findall(r"%[\w#]+", chunk)
        if len(names) >= 2:
            a, b = rng.sample(names, 2)
            return chunk.replace(a, "\0").replace(b, a).replace("\0", b)
    else:  # an LLVM aggregate's element that LLVM IR has no type for
        spots = list(LLVM_ELEMENT.finditer(chunk))
        if spots:
            m = rng.choice(spots)
            return (chunk[: m.start(1)] + rng.choice(UNTRANSLATABLE) +
                    chunk[m.end(1):])
    return "\n".join(lines)


def run(opt, text, timeout, extra):
    try:
        proc = subprocess.run([opt, "-split-input-file", "-", *extra],
                              input=text, capture_output=True, text=True,
                              errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang (no answer in %ds)" % timeout
    if proc.returncode < 0:
        return "killed by signal %d" % -proc.returncode
    if proc.returncode not in (0, 1):
        return "exit code %d" % proc.returncode
    for marker in CRASH_MARKERS:
        if marker in proc.stderr:
            return "stderr contains %r" % marker
    return None


def check_batch(opt, batch, timeout, extra):
    """Returns the (mutant, reason) pairs of a batch that crash on their own."""
    if run(opt, ("\n" + SPLIT + "\n").join(batch), timeout * len(batch),
           extra) is None:
        return []
    found = []
    for mutant in batch:
        reason = run(opt, mutant, timeout, extra)
        if reason:
            found.append((mutant, reason))
    return found


def corpus_files(dirs):
    """The .mlir files to mutate: the fuzz test's own folder is left out but
    for corpus/, the inputs that once crashed cudnn-opt."""
    files = set()
    for d in dirs:
        for p in pathlib.Path(d).rglob("*.mlir"):
            # Relative to the corpus folder: where the checkout lives does
            # not count.
            parts = p.relative_to(d).parts
            if "Robustness" in parts:
                i = parts.index("Robustness")
                if parts[i + 1:i + 2] != ("corpus",):
                    continue
            files.add(p)
    return sorted(files)


def mutants_for(files, seed, per_chunk, with_originals):
    rng = random.Random(seed)
    mutants = []
    for path in files:
        for chunk in chunks_of(path):
            if with_originals:
                mutants.append(chunk)  # the original must not crash either
            mutants += [mutate(chunk, rng) for _ in range(per_chunk)]
    return mutants


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cudnn-opt", required=True)
    ap.add_argument("--corpus", action="append", required=True,
                    help="directory of .mlir files to mutate (repeatable)")
    ap.add_argument("--out", required=True, help="where crashing inputs go")
    ap.add_argument("--seed", type=int, action="append",
                    help="random seed (repeatable: a campaign over several "
                         "seeds; default 1)")
    ap.add_argument("--mutants-per-chunk", type=int, default=40)
    ap.add_argument("--batch", type=int, default=60)
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    seeds = args.seed or [1]

    start = time.monotonic()
    files = corpus_files(args.corpus)
    # Printing the IR back (generic form too) exercises the printers on
    # whatever the parser and verifier let through; the pipeline runs every
    # pass on it.
    modes = [[], ["--mlir-print-op-generic"],
             ["--tcp-to-cudnn-pipeline=report"],
             ["--tcp-to-llvm-pipeline=kernel-binary=isa"]]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    total = crashed = 0
    for n, seed in enumerate(seeds):
        # The unmutated pieces are the same for every seed: run them once.
        mutants = mutants_for(files, seed, args.mutants_per_chunk, n == 0)
        batches = [mutants[i:i + args.batch]
                   for i in range(0, len(mutants), args.batch)]
        found = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(check_batch, args.cudnn_opt, b,
                                   args.timeout, m)
                       for b in batches for m in modes]
            # Written as found, so a campaign cut short keeps its crashes.
            for f in concurrent.futures.as_completed(futures):
                for mutant, reason in f.result():
                    path = out / ("crash-%d-%d.mlir" % (seed, found))
                    path.write_text(mutant)
                    print("CRASH (%s): %s" % (reason, path), flush=True)
                    found += 1
        total += len(mutants)
        crashed += found
        if len(seeds) > 1:
            print("seed %d: %d inputs, %d crashed (%.0f s so far)" %
                  (seed, len(mutants), found, time.monotonic() - start),
                  flush=True)
    print("fuzzed %d inputs from %d files: %d crashed" %
          (total, len(files), crashed))
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
