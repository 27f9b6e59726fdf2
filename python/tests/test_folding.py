"""Folding (recording._Recorder): nodes whose tensor arguments are all
constants become one literal where a node that is not folded first reads
them, after the in-place ops before that read (in-place ops on computed
tensors: test_view_writes.py). The graphs are written by hand (torch.fx cannot trace setitem),
so this runs on torch 1.13 too."""
import operator
import os
import re
import sys
import unittest

import torch
import torch.fx

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from cudnn_mlir.frontend import TorchImportError, import_graph  # noqa: E402


def _graph(build):
    """A GraphModule of the graph `build(graph, x)` writes (x: its input)."""
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.output(build(graph, x))
    return torch.fx.GraphModule(torch.nn.Module(), graph)


def _literals(text):
    return re.findall(r"tcp\.const \{value = dense<([^>]*)> : tensor<([^>]*)>",
                      text)


class FoldingTest(unittest.TestCase):
    def test_setitem_before_the_read_is_in_the_literal(self):
        def build(g, x):
            m = g.call_method("new_zeros", (x, (4,)))
            g.call_function(operator.setitem, (m, slice(0, 2), 1.0))
            return g.call_function(operator.add, (x, m))
        text = import_graph(_graph(build), (torch.rand(2, 4),)).text
        # [1, 1, 0, 0] as f32 bytes, one literal, no zeros splat.
        self.assertEqual(_literals(text), [
            ('"0x0000803F0000803F0000000000000000"', "4xf32")])

    def test_ops_on_constants_fold_into_one_literal(self):
        def build(g, x):
            m = g.call_function(torch.arange, (6.0,))
            m = g.call_method("view", (m, 2, 3))
            m = g.call_method("masked_fill", (
                m, g.call_function(operator.gt, (m, 2.0)), -100.0))
            return g.call_function(operator.add, (x, m))
        text = import_graph(_graph(build), (torch.rand(2, 3),)).text
        self.assertEqual(len(_literals(text)), 1)
        self.assertEqual(_literals(text)[0][1], "2x3xf32")
        self.assertEqual(text.count(" = tcp."), 2)  # the literal, the add

    def test_repeated_dims_are_written_once_and_broadcast(self):
        # A causal mask expanded over a batch of 3 (GPT-2's [B, 1, S, S]):
        # one [1, 1, 4, 4] literal, broadcast along the batch.
        def build(g, x):
            m = g.call_function(torch.ones, (4, 4))
            m = g.call_method("tril", (m,))
            m = g.call_method("expand", (m, 3, 1, 4, 4))
            return g.call_function(operator.add, (x, m))
        text = import_graph(_graph(build), (torch.rand(3, 1, 4, 4),)).text
        self.assertEqual([shape for _, shape in _literals(text)],
                         ["1x1x4x4xf32"])
        self.assertRegex(text, r"tcp\.broadcast %\S+, %c3 \{axes = \[0\]\} "
                         r": tensor<1x1x4x4xf32>, index -> tensor<3x1x4x4xf32>")

    def test_a_constant_changed_after_a_read_is_an_error(self):
        def build(g, x):
            m = g.call_method("new_zeros", (x, (4,)))
            y = g.call_function(operator.add, (x, m))
            g.call_function(operator.setitem, (m, 0, 1.0))
            return g.call_function(operator.add, (y, m))
        with self.assertRaisesRegex(TorchImportError, "changes it in place "
                                    "afterwards"):
            import_graph(_graph(build), (torch.rand(2, 4),))


class ReducedFloatTest(unittest.TestCase):
    def test_a_cast_to_the_reduced_type_runs_in_f32(self):
        # An f16 graph is recorded in f32 on the CPU; a cast the graph writes
        # as a method (Hugging Face's `mask.to(dtype=self.dtype)`) went to
        # f16 and met f32 operands (a RuntimeError in the recording).
        def build(g, x):
            m = g.call_method("to", (g.call_function(operator.add, (
                x, 1.0)),), {"dtype": torch.float16})
            h = g.call_method("half", (m,))
            return g.call_function(torch.matmul, (
                x, g.call_method("t", (h,))))
        text = import_graph(_graph(build), (
            torch.rand(2, 4).half(),)).text
        self.assertIn("tensor<2x2xf16>", text)


if __name__ == "__main__":
    unittest.main()
