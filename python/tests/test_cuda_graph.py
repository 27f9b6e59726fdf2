"""CudaGraphModel's refusals (python/cudnn_mlir/runtime/cuda_graph.py), which
come before anything touches a GPU: a model that updates buffers, and inputs
that are not CUDA tensors. Capture and replay are GPU tests
(integration_test/e2e/cuda_graph_test.py)."""

import unittest

import torch

from cudnn_mlir.artifact import ArgSpec, ImportedModule
from cudnn_mlir.runtime.cuda_graph import CudaGraphModel


class Compiled:
    """The parts of a CompiledModel that CudaGraphModel reads first."""

    def __init__(self, results, counters=()):
        args = [ArgSpec("input", "x", (2,), "f32"),
                ArgSpec("buffer", "bn.running_mean", (2,), "f32")]
        self.imported = ImportedModule("", "forward", args, results,
                                       {"value": 0}, list(counters), None)


class CudaGraphRefusalTest(unittest.TestCase):
    def test_refuses_a_model_that_updates_buffers(self):
        compiled = Compiled(
            [ArgSpec("output", "output 0", (2,), "f32"),
             ArgSpec("update", "bn.running_mean", (2,), "f32", arg=1)],
            counters=["bn.num_batches_tracked"])
        with self.assertRaises(ValueError) as caught:
            CudaGraphModel(compiled, [torch.zeros(2)])
        self.assertEqual(
            str(caught.exception),
            "expects a model that updates no buffers for cuda_graph=True "
            "(its warm-up calls would update them too), but it updates "
            "'bn.running_mean' (call model.eval(), or compile without "
            "cuda_graph)")

    def test_refuses_inputs_off_the_gpu(self):
        compiled = Compiled([ArgSpec("output", "output 0", (2,), "f32")])
        with self.assertRaisesRegex(
                ValueError, "expects input 0 to be a CUDA tensor for "
                "cuda_graph=True, but got cpu"):
            CudaGraphModel(compiled, [torch.zeros(2)])


if __name__ == "__main__":
    unittest.main()
