"""frontend/bilinear.py against F.interpolate(mode="bilinear"), bicubic
and F.adaptive_avg_pool2d in float64 on the CPU: the interpolation matrices reproduce PyTorch's weights for
upsampling and downsampling, odd and even sizes, both align_corners, a size
or a scale factor (given, or recomputed), to 1e-12."""

import unittest

import torch
import torch.nn.functional as F

from cudnn_mlir.frontend import bilinear


class BicubicTest(unittest.TestCase):
    """Bicubic matrices (PyTorch's kernel on unit vectors) resize random
    images as F.interpolate(mode="bicubic") does, up and down, both
    align_corners, by size and by scale factor, in float64."""

    def test_antialiased_resizes(self):
        # The 2-D antialiased resize is the two 1-D ones (separable), down
        # (the filter widens) and up, by size and by scale factor.
        torch.manual_seed(3)
        for mode in ("bilinear", "bicubic"):
            for align in (False, True):
                for shape, size, scale in (((2, 3, 16, 12), (5, 7), None),
                                           ((1, 2, 9, 9), (20, 4), None),
                                           ((1, 1, 12, 15), None,
                                            (0.5, 0.25))):
                    x = torch.randn(*shape, dtype=torch.float64)
                    want = F.interpolate(x, size=size, scale_factor=scale,
                                         mode=mode, align_corners=align,
                                         antialias=True)
                    got = bilinear.resize(
                        x, want.shape[-2], want.shape[-1], align,
                        bilinear.scale_factors(scale, None, 2),
                        matrix=bilinear.antialiased_matrix(mode))
                    self.assertLess((got - want).abs().max().item(), 1e-12,
                                    (mode, shape, align, size, scale))

    def test_bicubic_resizes(self):
        torch.manual_seed(2)
        for align in (False, True):
            for shape, size, scale in (((2, 3, 8, 8), (20, 12), None),
                                       ((1, 2, 14, 14), (7, 7), None),
                                       ((1, 1, 5, 9), None, (1.5, 0.5)),
                                       ((1, 2, 3, 3), (7, 7), None)):
                x = torch.randn(*shape, dtype=torch.float64)
                want = F.interpolate(x, size=size, scale_factor=scale,
                                     mode="bicubic", align_corners=align)
                scales = bilinear.scale_factors(scale, None, 2)
                got = bilinear.resize(x, want.shape[-2], want.shape[-1],
                                      align, scales,
                                      matrix=bilinear.bicubic_matrix)
                self.assertLess((got - want).abs().max().item(), 1e-12,
                                (shape, align, size, scale))


class BilinearTest(unittest.TestCase):
    def check(self, shape, align_corners, size=None, scale_factor=None,
              recompute=None):
        x = torch.randn(*shape, dtype=torch.float64)
        want = F.interpolate(x, size=size, scale_factor=scale_factor,
                             mode="bilinear", align_corners=align_corners,
                             recompute_scale_factor=recompute)
        scales = bilinear.scale_factors(scale_factor, recompute, 2)
        got = bilinear.resize(x, want.shape[-2], want.shape[-1],
                              align_corners, scales)
        self.assertLess((got - want).abs().max().item(), 1e-12,
                        (shape, align_corners, size, scale_factor, recompute))

    def test_sizes(self):
        torch.manual_seed(0)
        for align in (False, True):
            for shape, size in (((2, 3, 8, 8), (64, 64)),
                                ((1, 2, 65, 65), (520, 520)),
                                ((1, 2, 7, 5), (13, 9)),
                                ((2, 1, 16, 12), (5, 7)),
                                ((1, 3, 1, 1), (9, 4)),
                                ((1, 1, 6, 6), (1, 1))):
                self.check(shape, align, size=size)

    def test_scale_factors(self):
        torch.manual_seed(1)
        for align in (False, True):
            for factor in (2, 0.5, 1.7, (3, 2.5)):
                for recompute in (None, True):
                    self.check((1, 2, 9, 10), align, scale_factor=factor,
                               recompute=recompute)

    def test_rows_sum_to_one(self):
        m = bilinear.interpolation_matrix(7, 23, False)
        self.assertTrue(torch.allclose(m.sum(1), torch.ones(23,
                                                            dtype=m.dtype)))


class AdaptiveAverageTest(unittest.TestCase):
    """Averaging matrices pool as F.adaptive_avg_pool2d does (and
    F.interpolate(mode="area")) to sizes that do not divide the input,
    smaller and larger, in float64."""

    def test_adaptive_average_pools(self):
        torch.manual_seed(3)
        for shape, size in (((2, 3, 7, 10), (3, 4)), ((1, 2, 7, 7), (5, 3)),
                            ((1, 1, 13, 6), (4, 6)), ((1, 2, 3, 5), (7, 8)),
                            ((1, 1, 9, 9), (1, 2))):
            x = torch.randn(*shape, dtype=torch.float64)
            for want in (F.adaptive_avg_pool2d(x, size),
                         F.interpolate(x, size=size, mode="area")):
                got = bilinear.resize(
                    x, size[0], size[1], False,
                    matrix=bilinear.adaptive_average_matrix)
                self.assertLess((got - want).abs().max().item(), 1e-12,
                                (shape, size))


if __name__ == "__main__":
    unittest.main()
