"""Decoder models for the model zoo (benchmarks/model_zoo.py): networks
built around transposed convolutions, which torchvision's classifiers do
not use. Written out here as their papers and the PyTorch examples define
them (random weights):

- dcgan: the DCGAN generator (Radford et al. 2016; pytorch/examples'
  dcgan): a 100-dim noise vector to a 64x64 RGB image through
  ConvTranspose2d k4 s2 p1 layers with batch norm and ReLU, tanh last.
- unet: the U-Net of Ronneberger et al. 2015 with padded convolutions
  (as most PyTorch ports): four 2x2 stride-2 up-convolutions, skip
  concatenations, batch norms.

Imports no torch until a model is built (model_zoo.py's --list and
--report run without it).
"""

NOISE = 100  # dcgan's latent size


def _up(nn, cin, cout, first=False):
    """One DCGAN generator stage: 4x4 transposed conv (stride 1 from the
    1x1 noise, else stride 2), batch norm, ReLU."""
    return [nn.ConvTranspose2d(cin, cout, 4, 1 if first else 2,
                               0 if first else 1, bias=False),
            nn.BatchNorm2d(cout), nn.ReLU(True)]


def dcgan(width=64):
    from torch import nn
    return nn.Sequential(
        *_up(nn, NOISE, width * 8, first=True), *_up(nn, width * 8, width * 4),
        *_up(nn, width * 4, width * 2), *_up(nn, width * 2, width),
        nn.ConvTranspose2d(width, 3, 4, 2, 1, bias=False), nn.Tanh())


def _double_conv(nn, cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
        nn.ReLU(True),
        nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout),
        nn.ReLU(True))


def unet(channels=3, classes=2, width=64):
    import torch
    from torch import nn

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            widths = [width * 2 ** i for i in range(5)]  # 64 .. 1024
            self.down = nn.ModuleList(
                [_double_conv(nn, channels, widths[0])] +
                [_double_conv(nn, a, b) for a, b in zip(widths, widths[1:])])
            self.up = nn.ModuleList(
                nn.ConvTranspose2d(b, a, 2, stride=2)
                for a, b in zip(widths, widths[1:]))
            self.merge = nn.ModuleList(
                _double_conv(nn, 2 * a, a) for a in widths[:-1])
            self.head = nn.Conv2d(widths[0], classes, 1)

        def forward(self, x):
            skips = []
            for i, block in enumerate(self.down):
                x = block(x if i == 0 else nn.functional.max_pool2d(x, 2))
                skips.append(x)
            skips.pop()
            for up, merge in zip(reversed(self.up), reversed(self.merge)):
                x = merge(torch.cat([skips.pop(), up(x)], dim=1))
            return self.head(x)

    return UNet()


BUILDERS = {"dcgan": dcgan, "unet": unet}


def input_shape(name, size, batch):
    """dcgan reads noise [batch, NOISE, 1, 1]; unet an image."""
    if name == "dcgan":
        return (batch, NOISE, 1, 1)
    return (batch, 3, size, size)
