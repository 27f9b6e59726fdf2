"""F.rms_norm as torch.export records it on a CUDA device,
aten._fused_rms_norm (the CPU records aten.rms_norm): the module calls the
op itself, so the CPU exports the GPU's graph. Prints the imported TCP."""

import torch

from cudnn_mlir.frontend import import_exported


class FusedRmsNorm(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(64))

    def forward(self, x):
        return torch.ops.aten._fused_rms_norm(x, [64], self.weight, 1e-6)[0]


model = FusedRmsNorm().eval()
exported = torch.export.export(model, (torch.randn(2, 8, 64),))
print(import_exported(exported).text)
