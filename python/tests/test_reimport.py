"""The cheap re-import (python/cudnn_mlir/driver/reimport.py) through
cudnn_mlir.compile with the real cudnn-compile ($CUDNN_MLIR_COMPILE): the
second compile of a model finds its artifact without importing it again,
and each change that alters the IR (an op, a shape, a dtype, an option, a
module's attribute, a buffer's value, the training flag, the importer's
version) misses; a record that does not fit the model, or whose artifact is
gone, is a miss too. CPU only: the load is a stand-in that records what it
was given."""

import json
import os
import shutil
import tempfile
import unittest

import torch

import cudnn_mlir
from cudnn_mlir import frontend
from cudnn_mlir.driver import compiler, reimport


class Small(torch.nn.Module):
    def __init__(self, slope=0.1, sigmoid=False):
        super().__init__()
        self.linear = torch.nn.Linear(8, 8)
        self.act = torch.nn.LeakyReLU(slope)
        self.sigmoid = sigmoid
        self.register_buffer("scale", torch.full((8,), 2.0))

    def forward(self, x):
        y = self.act(self.linear(x))
        return (torch.sigmoid(y) if self.sigmoid else torch.tanh(y)) \
            * self.scale


class ReimportTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)
        self.cache = tempfile.mkdtemp()
        self.imports = 0
        self.loaded = []
        self.saved = (frontend.import_graph, compiler.load)

        def counting_import(*args, **kwargs):
            self.imports += 1
            return self.saved[0](*args, **kwargs)

        def recording_load(folder, model, imported=None):
            self.loaded.append((folder, imported))
            return ("loaded", folder)

        frontend.import_graph = counting_import
        compiler.load = recording_load

    def tearDown(self):
        frontend.import_graph, compiler.load = self.saved
        shutil.rmtree(self.cache, ignore_errors=True)

    def compile(self, model, x, options=None):
        return cudnn_mlir.compile(model.eval(), [x], options=options,
                                  cache_dir=self.cache)

    def records(self):
        folder = os.path.join(self.cache, reimport.RECORDS)
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []

    def test_the_second_compile_does_not_import(self):
        model, x = Small(), torch.randn(4, 8)
        first = self.compile(model, x)
        self.assertEqual(self.imports, 1)
        self.assertEqual(len(self.records()), 1)
        again = self.compile(model, x)
        self.assertEqual(self.imports, 1)
        self.assertEqual(first, again)
        # The record's metadata is the import's.
        self.assertEqual(self.loaded[1][1].to_json(),
                         self.loaded[0][1].to_json())
        # Another instance of the same model, same weights' shapes: a hit.
        self.compile(Small(), x)
        self.assertEqual(self.imports, 1)

    def test_each_change_misses(self):
        x = torch.randn(4, 8)
        self.compile(Small(), x)
        changes = [
            ("an op", lambda: self.compile(Small(sigmoid=True), x)),
            ("a shape", lambda: self.compile(Small(), torch.randn(2, 8))),
            ("a dtype", lambda: self.compile(Small().half(), x.half())),
            ("an option", lambda: self.compile(Small(), x,
                                               "autotune=true")),
            ("an attribute", lambda: self.compile(Small(slope=0.2), x)),
            ("a buffer's value",
             lambda: self.compile(_with_scale(Small(), 3.0), x)),
            ("the training flag",
             lambda: cudnn_mlir.compile(Small().train(), [x],
                                        cache_dir=self.cache)),
        ]
        for count, (what, compile_again) in enumerate(changes, start=2):
            compile_again()
            self.assertEqual(self.imports, count, what)
        self.assertEqual(len(self.records()), len(changes) + 1)

    def test_another_importer_version_misses(self):
        model, x = Small(), torch.randn(4, 8)
        self.compile(model, x)
        saved = list(reimport._PACKAGE_HASH)
        try:
            reimport._PACKAGE_HASH[:] = ["another importer"]
            self.compile(model, x)
        finally:
            reimport._PACKAGE_HASH[:] = saved
        self.assertEqual(self.imports, 2)

    def test_a_record_that_does_not_fit_is_a_miss(self):
        model, x = Small(), torch.randn(4, 8)
        self.compile(model, x)
        path = os.path.join(self.cache, reimport.RECORDS, self.records()[0])
        with open(path) as f:
            record = json.load(f)
        record["imported"]["args"][0]["shape"] = [4, 9]
        with open(path, "w") as f:
            json.dump(record, f)
        self.compile(model, x)
        self.assertEqual(self.imports, 2)
        # The import wrote the record anew: the next compile hits.
        self.compile(model, x)
        self.assertEqual(self.imports, 2)
        # A record that is not JSON is a miss, not an error.
        with open(path, "w") as f:
            f.write("{not json")
        self.compile(model, x)
        self.assertEqual(self.imports, 3)

    def test_a_record_whose_artifact_is_gone_is_a_miss(self):
        model, x = Small(), torch.randn(4, 8)
        folder = self.compile(model, x)[1]
        shutil.rmtree(folder)
        self.assertEqual(self.compile(model, x)[1], folder)
        self.assertEqual(self.imports, 2)
        self.assertTrue(os.path.isdir(folder))


def _with_scale(model, value):
    with torch.no_grad():
        model.scale.fill_(value)
    return model


if __name__ == "__main__":
    unittest.main()
