"""Models the importer must refuse, each with the one error it gives:
`import_errors.py CASE` prints "error: <message>" (or the IR, if the import
unexpectedly succeeds)."""

import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

from cudnn_mlir.frontend import TorchImportError, import_model


class Cumprod(nn.Module):
    def forward(self, x):
        y = x.relu()
        return torch.cumprod(y, dim=1)


class DropoutTraining(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.25)

    def forward(self, x):
        return self.drop(x)


class DataDependent(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x


class AdaptivePoolNotDivisor(nn.Module):
    def forward(self, x):
        return F.adaptive_avg_pool2d(x, (3, 3))


class ReflectPad(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1, padding_mode="reflect")

    def forward(self, x):
        return self.conv(x)


class MaxPoolIndices(nn.Module):
    def forward(self, x):
        return F.max_pool2d(x, 2, return_indices=True)[1].float()


class IntegerDivision(nn.Module):
    def forward(self, x):
        return torch.div(x.to(torch.uint8), 3, rounding_mode="floor")


class WrongInputs(nn.Module):
    def forward(self, x, y):
        return x + y


class PackedGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 8)


class PackedNoTotalLength(PackedGRU):
    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
        return nn.utils.rnn.pad_packed_sequence(self.gru(packed)[0])[0]


class PackedOtherLayout(PackedGRU):
    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
        return nn.utils.rnn.pad_packed_sequence(
            self.gru(packed)[0], batch_first=True, total_length=5)[0]


class PackedPaddingValue(PackedGRU):
    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
        return nn.utils.rnn.pad_packed_sequence(
            self.gru(packed)[0], padding_value=-1.0, total_length=5)[0]


class PackedWithoutRnn(nn.Module):
    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths)
        return nn.utils.rnn.pad_packed_sequence(packed, total_length=5)[0]


class TrilinearResize(nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=2, mode="trilinear")


class RepeatsTensor(nn.Module):
    def forward(self, x, repeats):
        return x.repeat_interleave(repeats, dim=0)


class PowerOfATensor(nn.Module):
    def forward(self, x):
        return x ** x


class CausalAndMaskAttention(nn.Module):  # torch 2.x
    def forward(self, q, mask):
        return F.scaled_dot_product_attention(q, q, q, attn_mask=mask,
                                              is_causal=True)


class DropoutAttention(nn.Module):  # torch 2.x
    def forward(self, q):
        return F.scaled_dot_product_attention(q, q, q, dropout_p=0.1)


class ReflectPadFunctional(nn.Module):
    def forward(self, x):
        return F.pad(x, (-1, 1))


class UpsampleTooManyWeights(nn.Module):
    # Its two interpolation matrices (constants) would hold 1024^2 + 600^2
    # weights.
    def forward(self, x):
        return F.interpolate(x, size=(1024, 600), mode="bilinear")


class UpsamplingModuleInexactScale(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="trilinear")

    def forward(self, x):
        return self.up(x)


class AttentionBiasKV(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.MultiheadAttention(8, 2, add_bias_kv=True)

    def forward(self, x):
        return self.attn(x, x, x, need_weights=False)[0]


class SetitemOnInput(nn.Module):
    # A tensor computed from the input, changed with setitem: TorchDynamo
    # captures it (torch.fx cannot), and the importer writes the column in.
    def forward(self, x):
        y = x * 2
        y[:, 0] = 0
        return y + 1


class ChangedAfterUse(nn.Module):
    # A tensor made inside the model, read, then changed in place and read
    # again: no one literal is its value.
    def forward(self, x):
        m = x.new_zeros(8)
        y = x + m
        m[0] = 1
        return y + m


class LongCumsum(nn.Module):
    # cumsum sums n^2 masked terms per row: a 5000-long row is refused.
    def forward(self, x):
        return torch.cumsum(x, dim=0)


class TransposingAsStrided(nn.Module):
    # A view that reorders elements: not a restated layout.
    def forward(self, x):
        return torch.as_strided(x.relu(), (4, 2), (1, 4))


class RandomNoise(nn.Module):
    """Draws noise at every call (ViTMAE's random masking draws torch.rand):
    never folded to the one draw the recording made."""

    def forward(self, x):
        return x + torch.rand_like(x)


def _packed_inputs():
    return (torch.rand(5, 2, 4), torch.tensor([5, 3]))


CASES = {
    "cumprod": (Cumprod, lambda: (torch.rand(2, 8),)),
    "long_cumsum": (LongCumsum, lambda: (torch.rand(5000),)),
    "dropout_training": (lambda: DropoutTraining().train(),
                         lambda: (torch.rand(2, 8),)),
    "data_dependent": (DataDependent, lambda: (torch.rand(2, 8),)),
    "adaptive_pool": (AdaptivePoolNotDivisor,
                      lambda: (torch.rand(4, 7, 7),)),
    "reflect_pad": (ReflectPad, lambda: (torch.rand(1, 4, 8, 8),)),
    "max_pool_indices": (MaxPoolIndices, lambda: (torch.rand(1, 4, 8, 8),)),
    "floor_division": (IntegerDivision, lambda: (torch.rand(2, 8),)),
    "wrong_inputs": (WrongInputs, lambda: (torch.rand(2, 8),
                                           torch.rand(3, 8))),
    "packed_no_total_length": (PackedNoTotalLength, _packed_inputs),
    "packed_other_layout": (PackedOtherLayout, _packed_inputs),
    "packed_padding_value": (PackedPaddingValue, _packed_inputs),
    "packed_without_rnn": (PackedWithoutRnn, _packed_inputs),
    "trilinear": (TrilinearResize, lambda: (torch.rand(1, 4, 3, 6, 6),)),
    "repeats_tensor": (RepeatsTensor, lambda: (torch.rand(3, 4),
                                               torch.tensor([1, 2, 0]))),
    "power": (PowerOfATensor, lambda: (torch.rand(2, 8),)),
    "pad_reflect": (ReflectPadFunctional, lambda: (torch.rand(1, 2, 5),)),
    "upsample_too_many_weights": (UpsampleTooManyWeights,
                                  lambda: (torch.rand(1, 1, 1024, 600),)),
    "upsampling_module_inexact_scale": (UpsamplingModuleInexactScale,
                                        lambda: (torch.rand(1, 4, 3, 6, 6),)),
    "causal_and_mask_attention": (CausalAndMaskAttention, lambda: (
        torch.rand(2, 4, 6, 8), torch.zeros(6, 6))),
    "attention_bias_kv": (lambda: AttentionBiasKV().eval(),
                          lambda: (torch.rand(4, 2, 8),)),
    "setitem_on_input": (SetitemOnInput, lambda: (torch.rand(2, 8),)),
    "changed_after_use": (ChangedAfterUse, lambda: (torch.rand(2, 8),)),
    "dropout_attention": (DropoutAttention, lambda: (torch.rand(2, 4, 6, 8),)),
    # Through torch.export (the ATen road): cases named aten_*.
    "aten_as_strided": (TransposingAsStrided, lambda: (torch.rand(2, 4),)),
    "random_noise": (RandomNoise, lambda: (torch.rand(2, 8),)),
}

if __name__ == "__main__":
    factory, inputs = CASES[sys.argv[1]]
    try:
        if sys.argv[1].startswith("aten_"):
            # As run_e2e.py's --aten: torch.export on torch 2, make_fx on 1.
            from cudnn_mlir.frontend import decompose_exported, import_graph
            example = inputs()
            if hasattr(torch, "export"):
                graph = decompose_exported(
                    torch.export.export(factory(), example)).module()
            else:
                from torch.fx.experimental.proxy_tensor import make_fx
                graph = make_fx(factory())(*example)
            print(import_graph(graph, example).text)
        else:
            print(import_model(factory(), inputs()).text)
    except TorchImportError as error:
        print("error: %s" % error)
