"""torch.compile(backend="cudnn_mlir", options={...}) on the CPU (torch
2.x): the pipeline options and the cache folder reach the compile; an
unknown option is an error naming the known ones. Prints what happened."""

import os
import sys
import tempfile

import torch

import cudnn_mlir.dynamo
from cudnn_mlir import artifact_key
from cudnn_mlir.driver.compiler import with_precision


def model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU()).half()


def main(case):
    cache = tempfile.mkdtemp()
    options = {"pipeline_options": "autotune=true", "cache_dir": cache}
    if case == "unknown":
        options = {"cuda_graph": True}
    fast = torch.compile(model(), backend="cudnn_mlir", options=options)
    try:
        fast(torch.randn(2, 4).half())
    except Exception as error:  # the call needs a GPU; the compile ran
        lines = [line for line in str(error).splitlines() if line.strip()]
        print("call: %s" % " ".join(lines[:2]))
    for entry in cudnn_mlir.dynamo.REPORT:
        folder = entry.get("artifact", "")
        print("subgraph %d: %s in the cache: %s" % (
            entry["index"], entry.get("status", "not compiled"),
            os.path.dirname(folder) == cache))
        if folder:
            with open(os.path.join(folder, "model.mlir")) as f:
                # The options plus PyTorch's precision flags of now.
                key = artifact_key(f.read(), with_precision("autotune=true"))
            print("keyed with the options: %s"
                  % (os.path.basename(folder) == key))


if __name__ == "__main__":
    main(sys.argv[1])
