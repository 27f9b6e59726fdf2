"""PyTorch's fp32 precision flags reach the pipeline options and the
artifact key (python/cudnn_mlir/driver/compiler.py, with_precision), with
torch 2.x and the real cudnn-compile ($CUDNN_MLIR_COMPILE); no GPU needed.
Each test restores the flags it sets."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import torch

from cudnn_mlir.driver import compiler
from test_compiler import imported


class PrecisionTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp()
        self.conv = torch.backends.cudnn.allow_tf32
        self.matmul = torch.get_float32_matmul_precision()

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)
        torch.backends.cudnn.allow_tf32 = self.conv
        torch.set_float32_matmul_precision(self.matmul)

    def test_defaults_are_pytorchs(self):
        self.assertEqual(compiler.with_precision(""),
                         "allow-tf32-conv=true allow-tf32-matmul=false")

    def test_each_flag_changes_the_options(self):
        try:
            torch.backends.cudnn.allow_tf32 = False
            self.assertEqual(compiler.with_precision(""),
                             "allow-tf32-conv=false allow-tf32-matmul=false")
            torch.set_float32_matmul_precision("high")
            self.assertEqual(compiler.with_precision(""),
                             "allow-tf32-conv=false allow-tf32-matmul=true")
            torch.set_float32_matmul_precision("medium")
            self.assertIn("allow-tf32-matmul=true",
                          compiler.default_options(imported()))
            torch.set_float32_matmul_precision("highest")
            torch.backends.cuda.matmul.allow_tf32 = True
            self.assertIn("allow-tf32-matmul=true",
                          compiler.with_precision(""))
        finally:
            torch.backends.cudnn.allow_tf32 = self.conv
            torch.set_float32_matmul_precision(self.matmul)

    def test_the_caller_wins(self):
        try:
            torch.backends.cudnn.allow_tf32 = False
            self.assertEqual(
                compiler.with_precision("allow-tf32-conv=true"),
                "allow-tf32-conv=true allow-tf32-matmul=false")
        finally:
            torch.backends.cudnn.allow_tf32 = self.conv

    def test_a_flag_makes_another_artifact(self):
        folders = set()
        try:
            for conv, matmul in ((True, "highest"), (False, "highest"),
                                 (True, "high")):
                torch.backends.cudnn.allow_tf32 = conv
                torch.set_float32_matmul_precision(matmul)
                folders.add(compiler.compile_artifact(imported(), None,
                                                      self.cache))
                folders.add(compiler.compile_artifact(imported(),
                                                      "autotune=true",
                                                      self.cache))
        finally:
            torch.backends.cudnn.allow_tf32 = self.conv
            torch.set_float32_matmul_precision(self.matmul)
        self.assertEqual(len(folders), 6)

    def test_the_newer_fp32_precision_api(self):
        # torch >= 2.9 refuses to read the legacy flags once a program set
        # the fp32_precision ones; a fresh interpreter keeps this process's
        # flags untouched.
        if not hasattr(torch.backends.cuda.matmul, "fp32_precision"):
            self.skipTest("torch %s has no fp32_precision" % torch.__version__)
        program = (
            "import torch\n"
            "from cudnn_mlir.driver import compiler\n"
            "torch.backends.cuda.matmul.fp32_precision = 'tf32'\n"
            "torch.backends.cudnn.conv.fp32_precision = 'ieee'\n"
            "print(compiler.with_precision(''))\n")
        done = subprocess.run([sys.executable, "-c", program],
                              capture_output=True, text=True,
                              env=dict(os.environ))
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.strip(),
                         "allow-tf32-conv=false allow-tf32-matmul=true")


if __name__ == "__main__":
    unittest.main()
