"""partition.py on the CPU: a graph with ops the importer does not take
(torch.special.i0e, torch.cumprod) is split into partitions that import and
compile for real (cudnn-compile from the build; skipped where there is
none), the ops left to PyTorch are reported by op and reason, a lone view
is not a partition, and the split graph, each partition run in PyTorch in
place of its compiled module, still computes the model's output."""

import os
import unittest

import torch

from cudnn_mlir import partition
from cudnn_mlir.driver.compiler import (CompilerNotFoundError,
                                        compile_artifact, find_compiler)
from cudnn_mlir.frontend import TorchImportError, import_graph, trace


class FlipInTheMiddle(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1)

    def forward(self, x):
        y = torch.relu(self.conv1(x))
        y = torch.special.i0e(y)
        y = y.reshape(y.shape)  # a view between two unsupported ops
        y = torch.cumprod(y, dim=2)
        return torch.relu(self.conv2(y)) + 1


def _have_compiler():
    try:
        find_compiler()
        return True
    except CompilerNotFoundError:
        return False


@unittest.skipUnless(_have_compiler(), "needs cudnn-compile (a build)")
class PartitionTest(unittest.TestCase):
    def setUp(self):
        self.cache = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                  "cudnn-mlir-partition-test")
        self.compiled = []

    def compile_fn(self, gm, inputs):
        # A real import and compile; the partition then runs in PyTorch
        # (no GPU here), which checks the split graph's wiring.
        folder = compile_artifact(import_graph(gm, inputs),
                                  cache_dir=self.cache)
        self.compiled.append(gm)
        return gm.forward, folder

    def test_splits_around_unsupported_ops(self):
        torch.manual_seed(0)
        model = FlipInTheMiddle().eval()
        x = torch.randn(2, 8, 6, 6)
        gm = trace(model)
        run, report = partition.compile_partitioned(
            gm, [x], self.compile_fn, (TorchImportError, RuntimeError))
        self.assertFalse(report.whole)
        self.assertEqual([p["status"] for p in report.partitions],
                         ["compiled", "compiled"])
        self.assertEqual(len({p["artifact"] for p in report.partitions}), 2)
        self.assertEqual(sorted(op for op, _ in report.left),
                         ["cumprod", "special_i0e"])
        for _, reason in report.left:
            self.assertIn("no TCP lowering", reason)
        summary = report.summarize()
        self.assertTrue(summary.startswith("2 partitions compiled ("),
                        summary)
        self.assertIn("left to PyTorch: ", summary)
        self.assertIn("special_i0e x1 (no TCP lowering for this operation)",
                      summary)
        with torch.no_grad():
            torch.testing.assert_close(run(x), model(x), rtol=0, atol=0)

    def test_a_known_first_failure_is_not_imported_again(self):
        torch.manual_seed(0)
        model = FlipInTheMiddle().eval()
        x = torch.randn(2, 8, 6, 6)
        gm = trace(model)
        with self.assertRaises(TorchImportError) as caught:
            import_graph(gm, [x])
        seen = []

        def compile_fn(graph_module, inputs):
            seen.append(graph_module)
            return self.compile_fn(graph_module, inputs)
        run, report = partition.compile_partitioned(
            gm, [x], compile_fn, (TorchImportError, RuntimeError),
            first_failure=caught.exception)
        self.assertNotIn(gm, seen)
        self.assertEqual([p["status"] for p in report.partitions],
                         ["compiled", "compiled"])
        with torch.no_grad():
            torch.testing.assert_close(run(x), model(x), rtol=0, atol=0)

    def test_an_f16_partition_casting_to_f16_records_its_inputs(self):
        # Mamba: the model in f16, a partition with its own
        # .to(torch.float16) before a matmul. The partitions' example inputs
        # are recorded on the CPU by running the graph as its f32 copy,
        # where that cast (inside a fused submodule) must mean f32 too: it
        # once raised "expected m1 and m2 to have the same dtype".
        class CastBeforeMatmul(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(8, 8)

            def forward(self, x):
                h = torch.special.i0e(self.lin(x))  # left to PyTorch
                a = self.lin(h).to(torch.float16)
                return torch.matmul(a, h.t())

        torch.manual_seed(0)
        model = CastBeforeMatmul().half().eval()
        x = torch.randn(4, 8).half()
        seen = []

        def compile_fn(graph_module, inputs):
            seen.append([i.dtype for i in inputs])
            return self.compile_fn(graph_module, inputs)
        run, report = partition.compile_partitioned(
            trace(model), [x], compile_fn, (TorchImportError,))
        self.assertEqual([p["status"] for p in report.partitions],
                         ["compiled", "compiled"])
        self.assertEqual([op for op, _ in report.left], ["special_i0e"])
        # The whole graph's (refused) import, then each partition's, with
        # inputs as the real run gives them: f16.
        self.assertEqual(seen, [[torch.float16]] * 3)

    def test_a_graph_it_takes_compiles_whole(self):
        model = torch.nn.Sequential(torch.nn.Conv2d(8, 8, 1),
                                    torch.nn.ReLU()).eval()
        x = torch.randn(1, 8, 4, 4)
        run, report = partition.compile_partitioned(
            trace(model), [x], self.compile_fn, (TorchImportError,))
        self.assertTrue(report.whole)
        self.assertEqual(report.summarize(), "compiled whole")

    def test_a_failure_naming_no_op_leaves_the_graph_to_pytorch(self):
        model = torch.nn.Sequential(torch.nn.ReLU()).eval()
        gm = trace(model)

        def refuse(graph_module, inputs):
            raise RuntimeError("cudnn-compile failed: out of disk")
        run, report = partition.compile_partitioned(
            gm, [torch.randn(3)], refuse, (RuntimeError,))
        self.assertEqual(run, gm.forward)
        self.assertEqual(report.partitions[0]["status"], "eager")
        self.assertEqual(report.partitions[0]["reason"],
                         "cudnn-compile failed: out of disk")

    def test_every_failing_node_is_found_in_one_import(self):
        # Six blocks, each with an in-place op through a transposed view the
        # block reads afterwards: six distinct refusals (not "no lowering",
        # which leaves a target's nodes out together). One import finds
        # them all, so each partition compiles once, and no compile fails.
        # The write must reach `y + 1`: the view runs in PyTorch too (a view
        # computed in a partition is a copy), and the add reads y through a
        # `written` node that depends on the write, so it is not fused with
        # the conv, where it read y from before the write (a silent wrong
        # answer until 2026-11-27).
        class Blocks(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.convs = torch.nn.ModuleList(
                    torch.nn.Conv2d(4, 4, 1) for _ in range(6))

            def forward(self, x):
                for conv in self.convs:
                    y = conv(x)
                    y.transpose(2, 3).mul_(2.0)
                    x = y + 1
                return x
        torch.manual_seed(0)
        model = Blocks().eval()
        x = torch.randn(1, 4, 3, 3)
        attempts = []

        def compile_fn(graph_module, inputs):
            attempts.append(graph_module)
            return self.compile_fn(graph_module, inputs)
        run, report = partition.compile_partitioned(
            trace(model), [x], compile_fn, (TorchImportError, RuntimeError))
        self.assertEqual(sorted(op for op, _ in report.left),
                         ["mul_"] * 6 + ["transpose"] * 6)
        # The whole graph, then each partition once: conv, (add, conv) x5,
        # add.
        self.assertEqual(len(attempts), 1 + 7)
        self.assertEqual(len(self.compiled), 7)
        summary = report.summarize()
        self.assertIn("transpose x6 (a view that an op left to PyTorch "
                      "writes through)", summary)
        # Six refusals that differ only in the names they quote: one line.
        self.assertIn("mul_ x6 (expects an in-place op", summary)
        self.assertIn("'transpose' is a transpose view of 'convs_0'",
                      summary)
        with torch.no_grad():
            torch.testing.assert_close(run(x), model(x), rtol=0, atol=0)

    @unittest.skipUnless(hasattr(torch, "_dynamo"), "TorchDynamo: torch 2")
    def test_a_constant_built_under_vmap_is_one_tensor(self):
        # Hugging Face builds its causal masks under torch.vmap; TorchDynamo
        # writes that as _vmap_increment_nesting ... _vmap_decrement_nesting
        # calls, global state that partitions split and reorder
        # ("escaped from inside a function being vmapped"). The importer
        # folds the mask; partitioning now sees it as one tensor.
        class VmapMask(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(6, 6)

            def forward(self, x):
                n = x.shape[-1]
                if n > 1:  # control flow on a size: TorchDynamo captures it
                    n = n + 0
                idx = torch.arange(n)
                mask = torch.vmap(lambda i: (idx <= i).float())(idx)
                y = torch.special.i0e(self.lin(x))
                return torch.relu(y @ mask) + 1
        torch.manual_seed(0)
        model = VmapMask().eval()
        x = torch.randn(2, 4, 6)
        gm = trace(model, (x,))
        self.assertTrue(any("vmap" in str(n.target) for n in gm.graph.nodes))
        run, report = partition.compile_partitioned(
            gm, [x], self.compile_fn, (TorchImportError, RuntimeError))
        self.assertEqual([op for op, _ in report.left], ["special_i0e"])
        self.assertEqual([p["status"] for p in report.partitions],
                         ["compiled", "compiled"])
        with torch.no_grad():
            torch.testing.assert_close(run(x), model(x), rtol=0, atol=0)

    def test_hugging_face_swin_partitions(self):
        # torch 2.11's partitioner looped forever on Hugging Face Swin's
        # graph (TorchDynamo's capture) once its pooler was left out:
        # `relative_position_bias_table[index]`, a parameter read only by
        # getitems (partition._copy_before_getitems).
        try:
            import transformers
        except ImportError:
            self.skipTest("needs transformers (scripts/setup-torch2.sh)")
        config = transformers.SwinConfig(
            image_size=32, patch_size=4, embed_dim=16, depths=[1, 1],
            num_heads=[2, 2], window_size=4)
        gm = trace(transformers.SwinModel(config).eval(),
                   [torch.randn(2, 3, 32, 32)])
        pooler = [n.name for n in gm.graph.nodes
                  if n.target is torch.adaptive_avg_pool1d]
        self.assertEqual(len(pooler), 1)
        fused, names = partition._partition(gm, {pooler[0]: "left out"})
        self.assertEqual(len(names), 1)

    def test_views_alone_are_not_a_partition(self):
        class ViewBetween(torch.nn.Module):
            def forward(self, x):
                y = torch.special.i0e(x)
                y = y.reshape(-1)
                return torch.cumprod(y, 0)
        gm = trace(ViewBetween())
        run, report = partition.compile_partitioned(
            gm, [torch.randn(4, 3)], self.compile_fn,
            (TorchImportError, RuntimeError))
        self.assertEqual(report.partitions, [])
        self.assertEqual(self.compiled, [])
        x = torch.randn(4, 3)
        torch.testing.assert_close(run(x), ViewBetween()(x))


if __name__ == "__main__":
    unittest.main()
