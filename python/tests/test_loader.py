"""The loader, on the stand-in model of the cudnn-run tests
(test/Tools/Inputs/cudnn-run-model.c), which test/Python/loader.test builds.

Environment: CUDNN_MLIR_RUNTIME_LIB (the runtime library), CUDNN_MLIR_TEST_MODEL
(the stand-in built without CUDA: loading and manifest checks, no torch
needed) and, on a GPU machine with torch, CUDNN_MLIR_TEST_CUDA_MODEL (built
with -DWITH_CUDA: calls on CUDA tensors). Tests whose inputs are missing are
skipped with the reason.
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import cudnn_mlir  # noqa: E402

MODEL = os.environ.get("CUDNN_MLIR_TEST_MODEL")
CUDA_MODEL = os.environ.get("CUDNN_MLIR_TEST_CUDA_MODEL")
RUNTIME = os.environ.get("CUDNN_MLIR_RUNTIME_LIB")

try:
    import torch
    HAVE_CUDA = torch.cuda.is_available()
except ImportError:
    torch = None
    HAVE_CUDA = False


@unittest.skipUnless(MODEL and RUNTIME, "CUDNN_MLIR_TEST_MODEL and "
                     "CUDNN_MLIR_RUNTIME_LIB are not set")
class LoaderTest(unittest.TestCase):
    def test_reads_the_manifest(self):
        m = cudnn_mlir.load_module(MODEL)
        self.assertEqual(list(m.entries), ["forward", "fails", "missing"])
        sig = [a.signature() for a in m.entries["forward"].args]
        self.assertEqual(sig, ["in f32 [1,3,2,2] [12,1,6,3]",
                               "in bf16 [3] [1]",
                               "out f32 [1,3,2,2] [12,4,2,1]",
                               "out bf16 [3] [1]"])
        self.assertIn("forward", repr(m))

    def test_refuses_a_library_without_manifest(self):
        with self.assertRaises(ValueError) as ctx:
            cudnn_mlir.load_module(RUNTIME)
        self.assertEqual(
            str(ctx.exception),
            "expects a cudnn-mlir compiled module exporting "
            "'cmrt_module_manifest', but got '%s', which has none" % RUNTIME)

    def test_refuses_a_missing_file(self):
        with self.assertRaises(FileNotFoundError) as ctx:
            cudnn_mlir.load_module("/nonexistent/model.so")
        self.assertIn("expects a compiled model file", str(ctx.exception))

    def test_refuses_a_file_that_is_no_library(self):
        with self.assertRaises(OSError) as ctx:
            cudnn_mlir.load_module(__file__)
        self.assertIn("expects a loadable shared library", str(ctx.exception))

    def test_call_errors_before_torch(self):
        m = cudnn_mlir.load_module(MODEL)
        with self.assertRaises(TypeError) as ctx:
            m()
        self.assertIn("has 3 (forward, fails, missing)", str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            m.run("nope")
        self.assertIn("but got 'nope'", str(ctx.exception))
        with self.assertRaises(TypeError) as ctx:
            m.run("forward", 1)
        self.assertEqual(str(ctx.exception),
                         "expects 2 inputs for entry 'forward', but got 1")
        with self.assertRaises(ValueError) as ctx:
            m.missing()
        self.assertEqual(
            str(ctx.exception),
            "expects '%s' to export 'cmrt_entry_missing' (its manifest lists "
            "entry 'missing'), but got none" % os.path.abspath(MODEL))

    def test_runtime_env_must_exist(self):
        old = os.environ["CUDNN_MLIR_RUNTIME_LIB"]
        os.environ["CUDNN_MLIR_RUNTIME_LIB"] = "/nonexistent/libx.so"
        try:
            with self.assertRaises(FileNotFoundError) as ctx:
                cudnn_mlir.load_module(MODEL)
            self.assertIn("expects CUDNN_MLIR_RUNTIME_LIB to name",
                          str(ctx.exception))
        finally:
            os.environ["CUDNN_MLIR_RUNTIME_LIB"] = old


@unittest.skipUnless(CUDA_MODEL and RUNTIME and HAVE_CUDA,
                     "needs torch with CUDA and CUDNN_MLIR_TEST_CUDA_MODEL")
class LoaderGpuTest(unittest.TestCase):
    def setUp(self):
        self.m = cudnn_mlir.load_module(CUDA_MODEL)
        self.x = torch.arange(12, dtype=torch.float32,
                              device="cuda").reshape(1, 3, 2, 2)
        self.v = torch.tensor([1.0, 2.0, -3.0], dtype=torch.bfloat16,
                              device="cuda")

    def test_runs_with_the_manifest_strides(self):
        # The entry copies the channels-last input's bytes into the row-major
        # output: the output shows the NHWC order the loader made.
        y, w = self.m.forward(self.x, self.v)
        torch.cuda.synchronize()
        self.assertEqual(y.stride(), (12, 4, 2, 1))
        want = self.x.permute(0, 2, 3, 1).reshape(-1)
        self.assertTrue(torch.equal(y.reshape(-1), want))
        self.assertTrue(torch.equal(w, self.v))
        # Already channels-last: no copy needed, same result.
        y2, _ = self.m.run("forward",
                           self.x.contiguous(memory_format=torch.channels_last),
                           self.v)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(y, y2))

    def test_checks_inputs(self):
        with self.assertRaises(ValueError) as ctx:
            self.m.forward(self.x.cpu(), self.v)
        self.assertIn("expects arg 0 of entry 'forward' (in f32 [1,3,2,2] "
                      "[12,1,6,3]) on a CUDA device, but got cpu",
                      str(ctx.exception))
        with self.assertRaises(TypeError) as ctx:
            self.m.forward(self.x.half(), self.v)
        self.assertIn("to have dtype torch.float32, but got torch.float16",
                      str(ctx.exception))
        with self.assertRaises(ValueError) as ctx:
            self.m.forward(self.x.reshape(1, 3, 4), self.v)
        self.assertIn("to have shape [1, 3, 2, 2], but got [1, 3, 4]",
                      str(ctx.exception))
        with self.assertRaises(TypeError) as ctx:
            self.m.forward([1.0], self.v)
        self.assertIn("to be a torch.Tensor, but got list", str(ctx.exception))

    def test_failure_carries_the_runtime_message(self):
        with self.assertRaises(RuntimeError) as ctx:
            self.m.fails()
        self.assertRegex(str(ctx.exception),
                         r"^expects entry 'fails' to succeed, but it returned "
                         r"status 1: .+")


if __name__ == "__main__":
    unittest.main()
