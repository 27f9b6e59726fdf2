"""The artifact cache of cudnn_mlir.compile
(python/cudnn_mlir/driver/compiler.py), with the real cudnn-compile ($CUDNN_MLIR_COMPILE) on a small TCP module; no
GPU needed (nothing is run)."""

import json
import os
import shutil
import tempfile
import unittest

from cudnn_mlir.artifact import ArgSpec, ImportedModule
from cudnn_mlir.driver import compiler

TEXT = """module {
  func.func @forward(%arg0: tensor<4x8xf32> {cudnn_mlir.input = "x"}) -> (tensor<4x8xf32>) {
    %0 = tcp.tanh %arg0 : tensor<4x8xf32> -> tensor<4x8xf32> loc("tanh"("MODEL_PY":3:0))
    return %0 : tensor<4x8xf32>
  }
}
"""


def imported(path="model.py"):
    return ImportedModule(TEXT.replace("MODEL_PY", path), "forward",
                          [ArgSpec("input", "x", (4, 8), "f32")],
                          [ArgSpec("output", "output 0", (4, 8), "f32")],
                          {"value": 0}, [])


class CacheTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp()
        self.saved = os.environ.get(compiler.COMPILER_ENV)

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)
        if self.saved is None:
            os.environ.pop(compiler.COMPILER_ENV, None)
        else:
            os.environ[compiler.COMPILER_ENV] = self.saved
        os.environ.pop(compiler.EXPORT_ENV, None)

    def test_key_ignores_locations_not_options(self):
        a, b = imported("/here/model.py"), imported("/there/model.py")
        self.assertEqual(compiler.artifact_key(a.text),
                         compiler.artifact_key(b.text))
        self.assertNotEqual(compiler.artifact_key(a.text),
                            compiler.artifact_key(a.text, "layout=nchw"))

    def test_compiles_once_then_hits(self):
        folder = compiler.compile_artifact(imported(), "", self.cache)
        for name in ("model.mlir", "model.json", "model.so", "compiler.txt"):
            self.assertTrue(os.path.isfile(os.path.join(folder, name)), name)
        with open(os.path.join(folder, "model.json")) as f:
            self.assertEqual(json.load(f)["args"][0]["name"], "x")
        stamp = os.stat(os.path.join(folder, "model.so")).st_mtime_ns
        again = compiler.compile_artifact(imported("elsewhere.py"), "",
                                          self.cache)
        self.assertEqual(again, folder)
        self.assertEqual(
            os.stat(os.path.join(folder, "model.so")).st_mtime_ns, stamp)

    def test_another_compiler_build_recompiles(self):
        folder = compiler.compile_artifact(imported(), "", self.cache)
        with open(os.path.join(folder, "compiler.txt"), "w") as f:
            f.write("an older cudnn-compile")
        compiler.compile_artifact(imported(), "", self.cache)
        with open(os.path.join(folder, "compiler.txt")) as f:
            self.assertNotEqual(f.read(), "an older cudnn-compile")

    def test_without_compiler_uses_any_artifact_or_exports(self):
        folder = compiler.compile_artifact(imported(), "", self.cache)
        with open(os.path.join(folder, "compiler.txt"), "w") as f:
            f.write("made elsewhere")
        os.environ[compiler.COMPILER_ENV] = "none"
        self.assertEqual(compiler.compile_artifact(imported(), "",
                                                   self.cache), folder)
        export = os.path.join(self.cache, "export")
        os.environ[compiler.EXPORT_ENV] = export
        with self.assertRaisesRegex(compiler.CompilerNotFoundError,
                                    "expects cudnn-compile .* or a compiled "
                                    "artifact '[0-9a-f]{32}'"):
            compiler.compile_artifact(imported(), "fuse-fp32=false",
                                      self.cache)
        (written,) = os.listdir(export)
        for name in ("model.mlir", "model.json", "options.txt"):
            self.assertTrue(os.path.isfile(os.path.join(export, written,
                                                        name)), name)
        # What a machine with the compiler then does with the export.
        if self.saved is None:
            del os.environ[compiler.COMPILER_ENV]  # PATH or build/bin
        else:
            os.environ[compiler.COMPILER_ENV] = self.saved
        (made,) = compiler.compile_exported(export, self.cache)
        self.assertEqual(os.path.basename(made), written)

    def test_a_failed_compile_names_the_ir(self):
        broken = imported()
        broken.text = broken.text.replace("tcp.tanh", "tcp.no_such_op")
        with self.assertRaisesRegex(RuntimeError,
                                    "(?s)custom op 'tcp.no_such_op' is "
                                    "unknown.*the IR is in"):
            compiler.compile_artifact(broken, "", self.cache)

    def test_fp32_models_keep_cudnn_graphs(self):
        # No fuse-fp32=false: fp32 convs go to cuDNN, with compiled split
        # forms where a fused graph has no engine.
        self.assertNotIn("fuse-fp32", compiler.default_options(imported()))


    def test_options_carry_the_precision_flags(self):
        # Without torch imported: PyTorch's defaults (conv TF32 on, matmul
        # exact); an option the caller sets is kept as given.
        self.assertEqual(compiler.with_precision("autotune=true"),
                         "autotune=true allow-tf32-conv=true "
                         "allow-tf32-matmul=false")
        self.assertEqual(compiler.with_precision("allow-tf32-matmul=true"),
                         "allow-tf32-matmul=true allow-tf32-conv=true")
        self.assertTrue(compiler.default_options(imported()).endswith(
            "allow-tf32-conv=true allow-tf32-matmul=false"))
        folder = compiler.compile_artifact(imported(), "", self.cache)
        self.assertEqual(os.path.basename(folder), compiler.artifact_key(
            imported().text, compiler.with_precision("")))

    def test_environment_options_fill_in_what_nothing_else_sets(self):
        # $CUDNN_MLIR_PIPELINE_OPTIONS adds its words to every compile's
        # options (and so to the key), below the caller's and the
        # precision flags.
        saved = os.environ.get(compiler.OPTIONS_ENV)
        os.environ[compiler.OPTIONS_ENV] = (
            "kernel-binary=isa autotune=true allow-tf32-conv=false")
        try:
            self.assertEqual(compiler.resolved_options("autotune=false"),
                             "autotune=false allow-tf32-conv=true "
                             "allow-tf32-matmul=false kernel-binary=isa")
            self.assertEqual(compiler.resolved_options(None, imported()),
                             "allow-tf32-conv=true allow-tf32-matmul=false "
                             "kernel-binary=isa autotune=true")
            folder = compiler.compile_artifact(imported(), None, self.cache)
            self.assertEqual(os.path.basename(folder), compiler.artifact_key(
                imported().text, compiler.resolved_options(None)))
        finally:
            if saved is None:
                del os.environ[compiler.OPTIONS_ENV]
            else:
                os.environ[compiler.OPTIONS_ENV] = saved
        self.assertNotIn("kernel-binary", compiler.resolved_options(None))

    def test_the_default_cache_folder(self):
        # $CUDNN_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/cudnn_mlir, else
        # ~/.cache/cudnn_mlir; the runtime's plans go to its folder `plans`.
        saved = {name: os.environ.pop(name, None)
                 for name in (compiler.CACHE_ENV, "XDG_CACHE_HOME", "HOME")}
        try:
            os.environ["HOME"] = "/h"
            self.assertEqual(compiler.default_cache_dir(),
                             "/h/.cache/cudnn_mlir")
            os.environ["XDG_CACHE_HOME"] = "/x"
            self.assertEqual(compiler.default_cache_dir(), "/x/cudnn_mlir")
            os.environ[compiler.CACHE_ENV] = "/c"
            self.assertEqual(compiler.default_cache_dir(), "/c")
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None)
                if value is not None:
                    os.environ[name] = value

if __name__ == "__main__":
    unittest.main()
