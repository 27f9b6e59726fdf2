"""Writes through views made functional (frontend/view_writes.py and the
importer's write-back): `y[:, 0] = v`, `y[2:4].zero_()`, narrow/select
views. write_box is checked against torch's own setitem by running it on a
writer that computes with CPU tensors; the importer's refusals (a stale
alias, a transposed view, the model's own tensor) by their messages. The
e2e models in_place_on_views and swin_v2 check the compiled numbers on the
GPU."""
import operator
import os
import random
import sys
import unittest

import torch
import torch.fx

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from cudnn_mlir.frontend import TorchImportError, import_graph  # noqa: E402
from cudnn_mlir.frontend.tcp_writer import Value  # noqa: E402
from cudnn_mlir.frontend.view_writes import (ViewWriteError,  # noqa: E402
                                             basic_box, write_box)


class _Held(Value):
    """A Value that carries the tensor it stands for."""

    def __init__(self, tensor):
        super().__init__("%held", tuple(tensor.shape), "f32")
        self.tensor = tensor


class _TensorWriter:
    """The TcpWriter methods write_box calls, computed on CPU tensors."""

    def __init__(self):
        self.ops = []

    def _note(self, op, tensor):
        self.ops.append(op)
        return _Held(tensor)

    def cast(self, x, dtype, loc=None):
        return x

    def reshape(self, x, shape, loc=None):
        return self._note("reshape", x.tensor.reshape(shape))

    def broadcast_to(self, x, shape, loc=None):
        return self._note("broadcast", x.tensor.expand(tuple(shape)).clone())

    def splat(self, value, shape, dtype, loc=None):
        return self._note("splat", torch.full(tuple(shape), value))

    def slice(self, x, starts, sizes, strides, loc=None):
        index = tuple(slice(s, s + n * st, st)
                      for s, n, st in zip(starts, sizes, strides))
        return self._note("slice", x.tensor[index])

    def concat(self, values, axis, loc=None):
        return self._note("concat",
                          torch.cat([v.tensor for v in values], axis))


def _random_index(rng, shape):
    index = []
    for size in shape:
        kind = rng.choice(["int", "slice", "full", "none"])
        if kind == "int":
            index.append(rng.randrange(-size, size))
        elif kind == "slice":
            start = rng.randrange(0, size)
            index.append(slice(start, rng.randrange(start, size + 1)))
        elif kind == "none":
            index.append(None)
            index.append(slice(None))
        else:
            index.append(slice(None))
    if rng.random() < 0.3:
        index = [Ellipsis] + index[len(index) // 2:]
    return tuple(index)


class WriteBoxTest(unittest.TestCase):
    def test_matches_torch_setitem(self):
        rng = random.Random(7)
        for _ in range(300):
            shape = tuple(rng.randrange(1, 5) for _ in range(rng.randrange(
                1, 5)))
            index = _random_index(rng, shape)
            base = torch.rand(shape)
            want = base.clone()
            view_shape = want[index].shape
            if rng.random() < 0.5:
                value = rng.random()
                held = value
            else:  # a value that broadcasts to the view
                value = torch.rand(tuple(
                    d if rng.random() < 0.7 else 1 for d in view_shape))
                held = _Held(value)
            want[index] = value
            got = write_box(_TensorWriter(), _Held(base), index, held)
            self.assertTrue(torch.equal(got.tensor, want),
                            "%s[%s] = %s" % (shape, index, value))

    def test_a_full_box_is_the_value_alone(self):
        writer = _TensorWriter()
        write_box(writer, _Held(torch.rand(2, 3)), (slice(None),), 1.0)
        self.assertNotIn("concat", writer.ops)

    def test_a_box_in_one_dim_is_one_concat_of_three(self):
        writer = _TensorWriter()
        write_box(writer, _Held(torch.rand(6, 4)), slice(2, 4), 0.0)
        self.assertEqual(writer.ops.count("concat"), 1)
        self.assertEqual(writer.ops.count("slice"), 2)  # before, after

    def test_the_box_of_basic_indexing(self):
        self.assertEqual(basic_box((4, 5, 6), (1, None, slice(1, 5, 2))),
                         ([1, 1, 0], [1, 2, 6], [1, 2, 1], [1, 2, 6]))

    def test_refusals_name_what_was_expected(self):
        with self.assertRaisesRegex(ViewWriteError, "step 1"):
            write_box(_TensorWriter(), _Held(torch.rand(6)),
                      slice(0, 6, 2), 0.0)
        with self.assertRaisesRegex(ViewWriteError, "broadcasts to \\[2\\]"):
            write_box(_TensorWriter(), _Held(torch.rand(6)), slice(0, 2),
                      _Held(torch.rand(3)))
        with self.assertRaisesRegex(ViewWriteError, "index in \\[-6, 6\\)"):
            basic_box((6,), 6)


def _graph(build):
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    graph.output(build(graph, x))
    return torch.fx.GraphModule(torch.nn.Module(), graph)


class ImporterWriteBackTest(unittest.TestCase):
    def _import(self, build, shape=(4, 6)):
        return import_graph(_graph(build), (torch.rand(*shape),)).text

    def test_setitem_on_a_computed_tensor(self):
        def build(g, x):
            y = g.call_function(operator.mul, (x, 2.0))
            g.call_function(operator.setitem, (y, (slice(None), 0), 0.0))
            return g.call_function(operator.add, (y, 1.0))
        text = self._import(build)
        self.assertEqual(text.count("tcp.concat"), 1)

    def test_an_in_place_op_on_a_view_updates_its_base(self):
        # torchvision's Swin V2: qkv_bias[n:2n].zero_() on a clone.
        def build(g, x):
            y = g.call_function(operator.mul, (x, 2.0))
            v = g.call_function(operator.getitem, (y, slice(1, 3)))
            g.call_method("zero_", (v,))
            return g.call_function(operator.add, (y, 1.0))
        text = self._import(build)
        self.assertEqual(text.count("tcp.concat"), 1)

    def test_a_view_of_a_view_writes_through_both(self):
        def build(g, x):
            y = g.call_function(operator.mul, (x, 2.0))
            v = g.call_method("narrow", (y, 1, 2, 3))
            u = g.call_method("select", (v, 0, 1))
            g.call_method("add_", (u, 1.0))
            return g.call_function(operator.add, (y, 1.0))
        text = self._import(build)
        self.assertEqual(text.count("tcp.concat"), 2)

    def test_another_view_read_afterwards_is_refused(self):
        def build(g, x):
            y = g.call_function(operator.mul, (x, 2.0))
            other = g.call_function(operator.getitem, (y, slice(0, 2)))
            v = g.call_function(operator.getitem, (y, slice(1, 3)))
            g.call_method("zero_", (v,))
            return g.call_function(operator.add, (other, 1.0))
        with self.assertRaisesRegex(TorchImportError, "'getitem' is another "
                                    "view of 'mul'"):
            self._import(build)

    def test_a_transposed_view_read_afterwards_is_refused(self):
        def build(g, x):
            y = g.call_function(operator.mul, (x, 2.0))
            v = g.call_method("transpose", (y, 0, 1))
            g.call_method("add_", (v, 1.0))
            return g.call_function(operator.add, (y, 1.0))
        with self.assertRaisesRegex(TorchImportError, "is a transpose view "
                                    "of 'mul', which the graph reads"):
            self._import(build)

    def test_a_view_of_an_input_is_refused(self):
        def build(g, x):
            v = g.call_function(operator.getitem, (x, 0))
            g.call_method("zero_", (v,))
            return g.call_function(operator.add, (x, 1.0))
        with self.assertRaisesRegex(TorchImportError, "which is the model's "
                                    "own tensor"):
            self._import(build)

    def test_a_tensor_index_is_refused(self):
        def build(g, x):
            y = g.call_function(operator.mul, (x, 2.0))
            mask = g.call_function(torch.zeros, ((2,),),
                                   {"dtype": torch.long})
            g.call_function(operator.setitem, (y, mask, 0.0))
            return g.call_function(operator.add, (y, 1.0))
        with self.assertRaisesRegex(TorchImportError, "node 'setitem'.*"
                                    "basic indexing"):
            self._import(build)


if __name__ == "__main__":
    unittest.main()
