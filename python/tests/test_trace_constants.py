"""Tracing leaves the user's model as it was and is repeatable: torch.fx
stores the tensor constants a forward reads (tensors under no attribute
name, such as those in a list) on the traced module as `_tensor_constantN`, numbering
a second trace's after the first's; the importer takes them off again and
names them in the order the graph reads them, so that importing one model
twice gives the same module (and the same artifact key: MaxViT-T's
relative-position indices once gave its replayed contender another)."""
import os
import sys
import unittest

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from cudnn_mlir.frontend import import_model  # noqa: E402
from cudnn_mlir.frontend.importer import trace  # noqa: E402


class WithConstants(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)
        # Tensors in a list: torch.fx finds them under no attribute name
        # and stores them on the module as constants.
        self.constants = [torch.full((4,), 2.0), torch.arange(4.0)]

    def forward(self, x):
        return self.linear(x) * self.constants[0] + self.constants[1]


class TraceConstantsTest(unittest.TestCase):
    def test_tracing_twice_gives_the_same_module(self):
        model = WithConstants().eval()
        x = torch.randn(2, 4)
        first = import_model(model, [x]).text
        second = import_model(model, [x]).text
        self.assertEqual(first, second)
        self.assertIn('"_tensor_constant0"', first)
        self.assertIn('"_tensor_constant1"', first)

    def test_the_model_keeps_its_attributes(self):
        model = WithConstants().eval()
        before = set(vars(model))
        gm = trace(model)
        self.assertEqual(set(vars(model)), before)
        self.assertFalse(gm.training)
        x = torch.randn(3, 4)
        torch.testing.assert_close(gm(x), model(x))

    def test_the_compiled_model_binds_the_constants(self):
        # The model no longer holds them (above): the runner binds the
        # tensors the import read (MaxViT-T once failed here with "expects
        # the model to have the buffer '_tensor_constant0'").
        from cudnn_mlir.driver.runner import CompiledModel

        class Module:
            entries = {"forward": None}
        model = WithConstants().eval()
        imported = import_model(model, [torch.randn(2, 4)])
        compiled = CompiledModel(Module(), imported, model)
        bound = dict(zip([s.name for s in compiled._bound_specs],
                         compiled._bound))
        torch.testing.assert_close(bound["_tensor_constant0"],
                                   model.constants[0])
        torch.testing.assert_close(bound["_tensor_constant1"],
                                   model.constants[1])

    def test_a_constant_view_is_bound_packed(self):
        # EVA-02's rotary sin/cos are the two halves of one table: views
        # whose rows skip the other half. The module reads its arguments
        # packed; the runner binds packed copies (on the GPU the view
        # failed check_bound: "expects arg 11 ... with strides [64, 1] ...
        # but got strides [128, 1]").
        from cudnn_mlir.driver.runner import CompiledModel

        class Halves(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.halves = torch.randn(8, 32).tensor_split(2, -1)

            def forward(self, x):
                return x * self.halves[0] + self.halves[1]

        class Module:
            entries = {"forward": None}
        model = Halves().eval()
        self.assertFalse(model.halves[0].is_contiguous())
        imported = import_model(model, [torch.randn(8, 16)])
        compiled = CompiledModel(Module(), imported, model)
        for tensor, half in zip(compiled._bound, model.halves):
            self.assertTrue(tensor.is_contiguous())
            torch.testing.assert_close(tensor, half)


if __name__ == "__main__":
    unittest.main()
