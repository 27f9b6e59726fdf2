"""ShapeSpecialized (python/cudnn_mlir/driver/specialize.py): one build per
input signature (shapes, dtypes, channels-last layout, size values), reuse on a
repeated signature, the limit, and compile()'s arguments. CPU only: the
builds are stand-ins that record what they were asked for."""

import unittest

import torch

import cudnn_mlir
from cudnn_mlir.driver.specialize import ShapeSpecialized, describe, signature


class Builds:
    """A build function that records its inputs' shapes and returns a
    callable naming which build it was."""

    def __init__(self, fail_first=False):
        self.built = []
        self.fail_first = fail_first

    def __call__(self, inputs):
        if self.fail_first:
            self.fail_first = False
            raise RuntimeError("the compiler failed")
        index = len(self.built)
        self.built.append([tuple(i.shape) if isinstance(i, torch.Tensor)
                           else i for i in inputs])
        return lambda *args: index


class ShapeSpecializedTest(unittest.TestCase):
    def test_one_build_per_signature(self):
        builds = Builds()
        run = ShapeSpecialized(builds)
        a, b = torch.zeros(2, 3), torch.zeros(4, 3)
        self.assertEqual([run(a), run(b), run(torch.ones(2, 3)), run(b)],
                         [0, 1, 0, 1])
        self.assertEqual(builds.built, [[(2, 3)], [(4, 3)]])
        self.assertEqual(len(run.compiled), 2)

    def test_dtype_and_layout_are_part_of_the_signature(self):
        builds = Builds()
        run = ShapeSpecialized(builds)
        x = torch.zeros(2, 3, 4, 5)
        run(x)
        run(x.half())
        run(x.to(memory_format=torch.channels_last))
        run(x.clone())
        self.assertEqual(len(builds.built), 3)

    def test_size_values_are_part_of_the_signature(self):
        # TorchDynamo passes symbolic sizes as ints; the IR has their values.
        builds = Builds()
        run = ShapeSpecialized(builds)
        x = torch.zeros(3)
        self.assertEqual([run(3, x), run(4, x), run(3, x)], [0, 1, 0])

    def test_cpu_scalars_are_values(self):
        # TorchDynamo's float attributes under dynamic shapes: 0-d CPU
        # tensors, written into the IR as their value.
        builds = Builds()
        run = ShapeSpecialized(builds, scalars_as_values=True)
        eps = torch.tensor(1e-5, dtype=torch.float64)
        x = torch.zeros(3)
        self.assertEqual([run(x, eps), run(x, eps * 10), run(x, eps.clone())],
                         [0, 1, 0])
        self.assertEqual(describe(signature([eps], scalars_as_values=True)),
                         "(1e-05)")
        # Otherwise (cudnn_mlir.compile: they are arguments) by shape.
        plain = ShapeSpecialized(Builds())
        self.assertEqual([plain(x, eps), plain(x, eps * 10)], [0, 0])
        self.assertEqual(describe(signature([eps])), "([] float64)")

    def test_past_the_limit_is_an_error_naming_the_signatures(self):
        run = ShapeSpecialized(Builds(), limit=2, what="the model")
        run(torch.zeros(1))
        run(torch.zeros(2))
        with self.assertRaises(RuntimeError) as caught:
            run(torch.zeros(3).half())
        self.assertEqual(
            str(caught.exception),
            "expects the model to be called with at most 2 input signatures "
            "(the limit), but got a new one, ([3] float16), after ([1] "
            "float32), ([2] float32); pad the inputs to fewer shapes or raise "
            "the limit")
        self.assertEqual(run(torch.zeros(2)), 1)  # known ones still run

    def test_past_limit_runs_the_fallback_without_keeping_it(self):
        fallbacks = []

        def past_limit(inputs):
            fallbacks.append(tuple(inputs[0].shape))
            return lambda *args: "eager"
        run = ShapeSpecialized(Builds(), limit=1, past_limit=past_limit)
        run(torch.zeros(1))
        self.assertEqual(run(torch.zeros(2)), "eager")
        self.assertEqual(run(torch.zeros(2)), "eager")
        self.assertEqual(fallbacks, [(2,), (2,)])
        self.assertEqual(len(run.compiled), 1)

    def test_a_failed_build_is_not_kept(self):
        builds = Builds(fail_first=True)
        run = ShapeSpecialized(builds)
        with self.assertRaisesRegex(RuntimeError, "the compiler failed"):
            run(torch.zeros(2))
        self.assertEqual(run(torch.zeros(2)), 0)

    def test_limit_must_be_positive(self):
        with self.assertRaisesRegex(ValueError, "at least 1 signature, but "
                                    "got 0"):
            ShapeSpecialized(Builds(), limit=0)

    def test_describe(self):
        x = torch.zeros(1, 8, 2, 2).to(memory_format=torch.channels_last)
        self.assertEqual(describe(signature([x, 7])),
                         "([1, 8, 2, 2] float32 channels-last, 7)")


class CompileArgumentsTest(unittest.TestCase):
    def test_max_signatures_needs_dynamic(self):
        with self.assertRaisesRegex(ValueError, "expects max_signatures only "
                                    "with dynamic=True, but got "
                                    "max_signatures=4"):
            cudnn_mlir.compile(torch.nn.ReLU(), [torch.zeros(2)],
                               max_signatures=4)


if __name__ == "__main__":
    unittest.main()
