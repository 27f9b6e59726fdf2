"""The source positions behind the gather lowerings (F.pad's reflect,
replicate and circular modes, nearest interpolation to any size) agree with
PyTorch: each is checked against PyTorch run on a tensor of positions."""

import unittest

import torch
import torch.nn.functional as F

from cudnn_mlir.frontend.lowerings import (_nearest_positions,
                                           _padded_positions)


class PaddedPositions(unittest.TestCase):
    def test_each_mode_picks_what_pad_does(self):
        for mode in ("reflect", "replicate", "circular"):
            for size in (1, 2, 5, 8):
                limit = size - 1 if mode == "reflect" else size
                for before in range(limit + 1):
                    for after in range(limit + 1):
                        ramp = torch.arange(size, dtype=torch.float32)
                        want = F.pad(ramp.view(1, 1, size), (before, after),
                                     mode=mode).view(-1)
                        with self.subTest(mode=mode, size=size,
                                          pad=(before, after)):
                            self.assertEqual(
                                _padded_positions(mode, size, before, after),
                                [int(v) for v in want.tolist()])


class NearestPositions(unittest.TestCase):
    def test_sizes_and_scales_pick_what_interpolate_does(self):
        for mode in ("nearest", "nearest-exact"):
            for have, want, scale in ((3, 7, None), (7, 3, None),
                                      (5, 5, None), (6, 9, 1.5),
                                      (10, 3, 0.33), (4, 8, None),
                                      (13, 20, None)):
                image = torch.arange(have * have, dtype=torch.float32).view(
                    1, 1, have, have)
                args = ({"size": (want, want)} if scale is None else
                        {"scale_factor": scale})
                out = F.interpolate(image, mode=mode, **args)[0, 0]
                rows = [int(v) // have for v in out[:, 0].tolist()]
                cols = [int(v) % have for v in out[0, :].tolist()]
                with self.subTest(mode=mode, have=have, want=want,
                                  scale=scale):
                    self.assertEqual(out.shape[0], want)
                    self.assertEqual(
                        _nearest_positions(have, want, scale, mode), rows)
                    self.assertEqual(
                        _nearest_positions(have, want, scale, mode), cols)


if __name__ == "__main__":
    unittest.main()
