"""How far from the fp64 model a folded batch norm leaves fp16 models
(docs/fusion.md, "Batch norm after a conv"): each model compiled with
cudnn_mlir.compile under each way of folding its batch norms, its output
against the same model in fp64, beside eager's. Random weights, batch norm
statistics calibrated as coverage.py does, batch 1.

    batch_norm_fold.py --compile-only --cache DIR    (CPU: the artifacts)
    batch_norm_fold.py --cache DIR [--results F]     (GPU: the errors)
"""
import argparse
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import coverage  # noqa: E402
import model_zoo  # noqa: E402

# Pipeline options per way of folding ("" is the default: scaled).
VARIANTS = {"scaled": "", "centered": "batch-norm-fold=centered",
            "unfolded": "fold-batch-norm=false"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="mobilenet_v2,resnet50")
    parser.add_argument("--dtype", default="f16")
    parser.add_argument("--cache", required=True)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--results")
    args = parser.parse_args()

    import torch
    import torchvision
    import cudnn_mlir

    for name in args.models.split(","):
        model, inputs = coverage.build(torch, torchvision, "classification",
                                       name, args.dtype)
        record = {"model": name, "dtype": args.dtype}
        if not args.compile_only:
            model, inputs = model.cuda(), [x.cuda() for x in inputs]
            coverage.calibrate(torch, model, inputs)
            with torch.no_grad():
                reference = copy.deepcopy(model).double()(
                    *[x.double() for x in inputs])
                record["eager"] = model_zoo.relative_error(model(*inputs),
                                                           reference)
            record["device"] = torch.cuda.get_device_name()
        for variant, options in VARIANTS.items():
            with torch.no_grad():
                compiled = cudnn_mlir.compile(model, inputs,
                                              options=options or None,
                                              cache_dir=args.cache)
                if args.compile_only:
                    print("%s %s: compiled" % (name, variant), flush=True)
                    continue
                out = compiled(*inputs)
                torch.cuda.synchronize()
            record[variant] = model_zoo.relative_error(out, reference)
        if args.compile_only:
            continue
        print("%s %s: eager %.3g, %s" % (
            name, args.dtype, record["eager"],
            ", ".join("%s %.3g" % (v, record[v]) for v in VARIANTS)),
            flush=True)
        if args.results:
            with open(args.results, "a") as f:
                f.write(json.dumps(record) + "\n")


if __name__ == "__main__":
    main()
