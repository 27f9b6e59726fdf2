"""The artifact schema (python/cudnn_mlir/artifact.py): model.json round
trips, and loading a cached artifact imports neither torch nor the frontend
(each checked in a fresh interpreter's sys.modules).

Environment for the full load (test/Python/artifact.test sets it):
CUDNN_MLIR_TEST_MODEL (cudnn-run's stand-in model, as in test_loader.py) and
CUDNN_MLIR_RUNTIME_LIB; without them that test is skipped with the reason.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, PYTHON_DIR)

from cudnn_mlir.artifact import (ArgSpec, ImportedModule,  # noqa: E402
                                 get_attribute, read_imported, write_imported)

MODEL = os.environ.get("CUDNN_MLIR_TEST_MODEL")
RUNTIME = os.environ.get("CUDNN_MLIR_RUNTIME_LIB")

# What loading must not import: torch (the loader imports it at the first
# call), torch.fx and the importer.
_FORBIDDEN = ("torch", "cudnn_mlir.frontend")


def _stand_in_metadata(text=""):
    """The metadata of a module like cudnn-run's stand-in: entry forward,
    two inputs and two outputs, no parameters (so binding needs no torch)."""
    return ImportedModule(
        text, "forward",
        [ArgSpec("input", "x", [1, 3, 2, 2], "f32"),
         ArgSpec("input", "y", [3], "bf16")],
        [ArgSpec("output", "output", [1, 3, 2, 2], "f32"),
         ArgSpec("output", "output_1", [3], "bf16")],
        {"tuple": [{"value": 0}, {"value": 1}, {"const": None}]}, [])


def _imported_after(code):
    """The forbidden modules a fresh interpreter has imported after `code`."""
    probe = code + (
        "\nimport sys\n"
        "print(sorted(m for m in sys.modules if any(\n"
        "    m == f or m.startswith(f + '.') for f in %r)))\n" % (_FORBIDDEN,))
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    done = subprocess.run([sys.executable, "-c", probe], env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise AssertionError("the probe failed:\n" + done.stderr)
    return done.stdout.strip().splitlines()


class ArtifactTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="cudnn-mlir-artifact-")
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)

    def test_metadata_round_trips(self):
        imported = _stand_in_metadata("func.func @forward() { return }")
        imported.args.append(ArgSpec("buffer", "bn.running_mean", [3], "f32"))
        imported.results.append(ArgSpec("update", "bn.running_mean", [3],
                                        "f32", arg=2))
        imported.counters = ["bn.num_batches_tracked"]
        imported.rnn_weight_args = [2]
        write_imported(self.folder, imported)
        back = read_imported(self.folder, with_ir=True)
        self.assertEqual(back.dumps(), imported.dumps())
        self.assertEqual(back.text, imported.text)
        self.assertEqual(read_imported(self.folder).text, "")
        self.assertEqual(repr(back.results[-1]),
                         "ArgSpec(update 'bn.running_mean' tensor<3xf32>)")

    def test_get_attribute_follows_qualified_names(self):
        class Leaf:
            weight = 7

        class Root:
            layer = Leaf()
        self.assertEqual(get_attribute(Root(), "layer.weight"), 7)

    def test_the_load_path_imports_no_frontend(self):
        write_imported(self.folder, _stand_in_metadata())
        self.assertEqual(_imported_after(
            "import cudnn_mlir\n"
            "from cudnn_mlir import artifact\n"
            "from cudnn_mlir.driver import compiler, runner\n"
            "artifact.read_imported(%r)\n" % self.folder), ["[]"])

    @unittest.skipUnless(MODEL and RUNTIME, "CUDNN_MLIR_TEST_MODEL and "
                         "CUDNN_MLIR_RUNTIME_LIB are not set")
    def test_loading_an_artifact_imports_no_frontend(self):
        write_imported(self.folder, _stand_in_metadata())
        shutil.copy(MODEL, os.path.join(self.folder, "model.so"))
        self.assertEqual(_imported_after(
            "import cudnn_mlir\n"
            "compiled = cudnn_mlir.load(%r, None)\n"
            "assert compiled.entry == 'forward', compiled.entry\n"
            % self.folder), ["[]"])


if __name__ == "__main__":
    unittest.main()
