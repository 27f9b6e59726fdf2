"""The compiled-artifact schema: what an artifact folder holds and what its
metadata (model.json) says, written by the compile driver and read back by
whatever loads the artifact. Imports no torch and nothing of the frontend,
so that loading a cached artifact needs neither.

    <artifact>/model.mlir    the TCP the importer wrote
    <artifact>/model.json    ImportedModule.to_json(): how the compiled
                             function's arguments and results map to the
                             model (its tensors by qualified name, its
                             output structure)
    <artifact>/model.so      the compiled module (docs/abi.md)
    <artifact>/compiler.txt  which cudnn-compile made it (driver/compiler.py)
    <artifact>/options.txt   the pipeline options, in an exported folder
                             that is not compiled yet
"""

import json
import os
from typing import List, Optional

# Bumped when the artifact layout or the meaning of model.json changes (it
# is part of every artifact's key, so old artifacts are not read).
ARTIFACT_VERSION = 1

IR_FILE = "model.mlir"
METADATA_FILE = "model.json"
MODULE_FILE = "model.so"
COMPILER_FILE = "compiler.txt"
OPTIONS_FILE = "options.txt"


class ArgSpec:
    """One function argument: kind is "input" (the caller's), "parameter",
    "buffer" or "constant" (a tensor attribute of the module). Also used for
    results: kind "output", or "update" for the new value of argument
    `arg` (a running statistic), which the caller writes back into it."""

    def __init__(self, kind: str, name: str, shape, dtype: str, arg=None):
        self.kind, self.name = kind, name
        self.shape, self.dtype = tuple(shape), dtype
        self.arg = arg

    def to_json(self):
        d = {"kind": self.kind, "name": self.name,
             "shape": list(self.shape), "dtype": self.dtype}
        if self.arg is not None:
            d["arg"] = self.arg
        return d

    @classmethod
    def from_json(cls, d):
        return cls(d["kind"], d["name"], d["shape"], d["dtype"], d.get("arg"))

    def __repr__(self):
        dims = "".join("%dx" % d for d in self.shape)
        return "ArgSpec(%s %r tensor<%s%s>)" % (self.kind, self.name, dims,
                                               self.dtype)


class ImportedModule:
    """The TCP text and how its arguments and results map to the model."""

    def __init__(self, text, func_name, args, results, outputs, counters,
                 rnn_weight_args=None):
        self.text = text
        self.func_name = func_name
        self.args: List[ArgSpec] = args
        # results: ArgSpec-like records, kind "output" or "update".
        self.results: List[ArgSpec] = results
        # The model's output structure: {"value": i} (result i),
        # {"tuple": [...]}, {"list": [...]}, {"dict": [[key, ...], ...]}
        # (an OrderedDict) or {"const": x}.
        self.outputs = outputs
        # Buffers the model increments by one per call (num_batches_tracked).
        self.counters: List[str] = counters
        # The arguments the RNNs pack their weights from, or None when the
        # module has no RNN or one whose weights are computed in the graph
        # (then the runtime packs on every call): what the runner derives
        # the parameter version from (cmrtSetParameterVersion).
        self.rnn_weight_args: Optional[List[int]] = rnn_weight_args
        # Tensors the import read that the model does not hold under their
        # names (torch.fx's _tensor_constantN, which tracing takes off the
        # model again): the runner binds these. Not in model.json.
        self.tensors = {}

    def __str__(self):
        return self.text

    def to_json(self):
        return {"func_name": self.func_name,
                "args": [a.to_json() for a in self.args],
                "results": [r.to_json() for r in self.results],
                "outputs": self.outputs, "counters": self.counters,
                "rnn_weight_args": self.rnn_weight_args}

    @classmethod
    def from_json(cls, d, text=""):
        return cls(text, d["func_name"],
                   [ArgSpec.from_json(a) for a in d["args"]],
                   [ArgSpec.from_json(r) for r in d["results"]],
                   d["outputs"], d["counters"], d.get("rnn_weight_args"))

    def dumps(self):
        return json.dumps(self.to_json(), indent=1, sort_keys=True)


def write_imported(folder, imported: ImportedModule):
    """Writes `imported`'s IR (model.mlir) and metadata (model.json)."""
    with open(os.path.join(folder, IR_FILE), "w") as f:
        f.write(imported.text)
    with open(os.path.join(folder, METADATA_FILE), "w") as f:
        f.write(imported.dumps())


def read_imported(folder, with_ir: bool = False) -> ImportedModule:
    """The ImportedModule an artifact's model.json describes; its text is
    model.mlir's with `with_ir`, else empty (loading needs only the
    metadata)."""
    text = ""
    if with_ir:
        with open(os.path.join(folder, IR_FILE)) as f:
            text = f.read()
    with open(os.path.join(folder, METADATA_FILE)) as f:
        return ImportedModule.from_json(json.load(f), text)


def get_attribute(module, qualified):
    """module.a.b.c for qualified = "a.b.c": the model's tensor a metadata
    name (ArgSpec.name, a counter) refers to."""
    obj = module
    for part in qualified.split("."):
        obj = getattr(obj, part)
    return obj
