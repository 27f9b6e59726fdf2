"""CompiledModel's parameter versions (python/cudnn_mlir/driver/runner.py):
when RNN weights come straight from arguments, each call declares a version to
the runtime that changes exactly when one of those tensors moved or was
written in place, so the runtime repacks the weights only then; and the
error for an input of another shape. CPU only:
the compiled module is a stand-in that records what it is told."""

import unittest

import torch

from cudnn_mlir.artifact import ArgSpec, ImportedModule
from cudnn_mlir.driver.runner import (CompiledModel, _is_plain_attribute,
                                      increment, write_back)


class RecordingModule:
    """What CompiledModel calls of a CompiledModule, recorded."""

    def __init__(self):
        self.entries = {"forward": None}
        self.versions = []  # every set_parameter_version, in order
        self.declared = []  # the version in force at each run

    def check_bound(self, entry, first, tensors):
        return [t.data_ptr() for t in tensors]

    def set_parameter_version(self, version):
        self.versions.append(version)

    def run_with_bound(self, entry, inputs, bound, pointers):
        if tuple(inputs[0].shape) != (2,):  # as the loader checks
            raise ValueError("expects arg 0 of entry 'forward' to have shape "
                             "[2], but got %s" % list(inputs[0].shape))
        self.declared.append(self.versions[-1] if self.versions else 0)
        return torch.zeros(1)


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w_ih = torch.nn.Parameter(torch.zeros(8, 2))
        self.w_hh = torch.nn.Parameter(torch.zeros(8, 2))


def compiled(model, rnn_weight_args, inputs=("x",)):
    args = [ArgSpec("input", name, (2,), "f32") for name in inputs] + [
        ArgSpec("parameter", "w_ih", (8, 2), "f32"),
        ArgSpec("parameter", "w_hh", (8, 2), "f32")]
    imported = ImportedModule("", "forward", args,
                              [ArgSpec("output", "output 0", (1,), "f32")],
                              {"value": 0}, [], rnn_weight_args)
    module = RecordingModule()
    return CompiledModel(module, imported, model), module


class ParameterVersionTest(unittest.TestCase):
    def test_unchanged_weights_keep_their_version(self):
        run, module = compiled(Model(), [1, 2])
        run(torch.zeros(2))
        run(torch.ones(2))  # a new input is not a new parameter set
        self.assertEqual(module.declared[0], module.declared[1])
        self.assertNotEqual(module.declared[0], 0)
        # Reset after every call: other callers on the thread declare their own.
        self.assertEqual(module.versions[1::2], [0, 0])

    def test_an_in_place_update_is_a_new_version(self):
        model = Model()
        run, module = compiled(model, [1, 2])
        run(torch.zeros(2))
        with torch.no_grad():
            model.w_hh.add_(1.0)  # what an optimizer step does
        run(torch.zeros(2))
        self.assertNotEqual(module.declared[0], module.declared[1])

    def test_a_moved_parameter_is_a_new_version(self):
        model = Model()
        run, module = compiled(model, [1, 2])
        run(torch.zeros(2))
        model.w_ih.data = torch.ones(8, 2)  # new storage, new pointer
        run(torch.zeros(2))
        self.assertNotEqual(module.declared[0], module.declared[1])

    def test_writes_past_the_version_counter_need_invalidating(self):
        model = Model()
        run, module = compiled(model, [1, 2])
        run(torch.zeros(2))
        model.w_ih.data.add_(1.0)  # `.data` has a counter of its own
        run(torch.zeros(2))
        self.assertEqual(module.declared[0], module.declared[1])
        run.invalidate_packed_weights()
        run(torch.zeros(2))
        self.assertNotEqual(module.declared[1], module.declared[2])

    def test_two_models_never_share_a_version(self):
        first, a = compiled(Model(), [1, 2])
        second, b = compiled(Model(), [1, 2])
        first(torch.zeros(2))
        second(torch.zeros(2))
        self.assertNotEqual(a.declared[0], b.declared[0])

    def test_weights_passed_as_inputs_count_too(self):
        # TorchDynamo's form: the weights are inputs of the graph.
        run, module = compiled(Model(), [0], inputs=("w",))
        w = torch.zeros(2)
        run(w)
        run(w)
        run(torch.zeros(2))
        self.assertEqual(module.declared[0], module.declared[1])
        self.assertNotEqual(module.declared[1], module.declared[2])

    def test_no_rnn_declares_nothing(self):
        run, module = compiled(Model(), None)
        run(torch.zeros(2))
        self.assertEqual(module.versions, [])
        self.assertEqual(module.declared, [0])


class PlainAttributeTest(unittest.TestCase):
    def test_only_unregistered_tensor_attributes_are_plain(self):
        # What CompiledModel copies to the inputs' GPU per call (model.cuda()
        # leaves a plain tensor attribute on the CPU, as Hugging Face
        # CodeGen's rotary table): neither parameters, buffers, other
        # attributes, nor names the model lacks.
        model = Model()
        model.register_buffer("stats", torch.zeros(2))
        model.inner = torch.nn.Linear(2, 2)
        model.inner.table = torch.zeros(3)
        model.table = torch.zeros(4)
        model.scale = 2.0
        self.assertTrue(_is_plain_attribute(model, "table"))
        self.assertTrue(_is_plain_attribute(model, "inner.table"))
        for name in ("w_ih", "stats", "inner.weight", "scale", "missing",
                     "nowhere.table"):
            self.assertFalse(_is_plain_attribute(model, name), name)
        self.assertFalse(_is_plain_attribute(lambda x: x, "table"))


class InputShapeTest(unittest.TestCase):
    def test_another_input_shape_names_dynamic(self):
        run, _ = compiled(Model(), None)
        with self.assertRaises(ValueError) as caught:
            run(torch.zeros(3))
        self.assertEqual(
            str(caught.exception),
            "expects input 0 ('x') to be [2] torch.float32 as compiled, but "
            "got [3] torch.float32 (cudnn_mlir.compile(..., dynamic=True) "
            "compiles one module per input shape)")


class BatchNormStatistics(torch.nn.Module):
    """Two batch norms' running statistics and counters, as the importer
    binds them (buffers), for the write-back test."""

    def __init__(self):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm1d(3)
        self.bn2 = torch.nn.BatchNorm1d(3)


class UpdatingModule(RecordingModule):
    """Returns an output, then the new running statistics."""

    def run_with_bound(self, entry, inputs, bound, pointers):
        return (torch.zeros(1),) + tuple(
            torch.full((3,), float(i + 1)) for i in range(4))


class WriteBackTest(unittest.TestCase):
    def test_new_statistics_land_in_the_buffers_and_counters_step(self):
        model = BatchNormStatistics()
        names = ["bn1.running_mean", "bn1.running_var", "bn2.running_mean",
                 "bn2.running_var"]
        args = [ArgSpec("input", "x", (2,), "f32")] + [
            ArgSpec("buffer", name, (3,), "f32") for name in names]
        results = [ArgSpec("output", "output 0", (1,), "f32")] + [
            ArgSpec("update", name, (3,), "f32", arg=1 + i)
            for i, name in enumerate(names)]
        imported = ImportedModule("", "forward", args, results, {"value": 0},
                                  ["bn1.num_batches_tracked",
                                   "bn2.num_batches_tracked"])
        run = CompiledModel(UpdatingModule(), imported, model)
        mean1 = model.bn1.running_mean  # the buffers are updated in place
        run(torch.zeros(2))
        run(torch.zeros(2))
        self.assertIs(model.bn1.running_mean, mean1)
        for i, name in enumerate(names):
            buffer = model.get_buffer(name)
            self.assertTrue(torch.equal(buffer, torch.full((3,), i + 1.0)),
                            "%s = %s" % (name, buffer))
        self.assertEqual(model.bn1.num_batches_tracked.item(), 2)
        self.assertEqual(model.bn2.num_batches_tracked.item(), 2)

    def test_one_buffer_and_mixed_dtypes(self):
        # One update takes the plain copy_; a foreach copy converts dtypes
        # as copy_ does.
        one = [torch.zeros(2)]
        write_back(one, [torch.ones(2)])
        self.assertTrue(torch.equal(one[0], torch.ones(2)))
        targets = [torch.zeros(2, dtype=torch.float16), torch.zeros(3)]
        write_back(targets, [torch.full((2,), 0.5), torch.full((3,), 2.0)])
        self.assertEqual(targets[0].dtype, torch.float16)
        self.assertTrue(torch.equal(targets[0],
                                    torch.full((2,), 0.5).half()))
        self.assertTrue(torch.equal(targets[1], torch.full((3,), 2.0)))
        counters = [torch.zeros((), dtype=torch.long)]
        increment(counters)
        increment(counters)
        self.assertEqual(counters[0].item(), 2)


if __name__ == "__main__":
    unittest.main()
