"""attention_modules.py's decompositions against the torch.nn modules they
stand for, run eagerly on the CPU (float32, max abs difference 1e-5): every
nn.MultiheadAttention option they take, nn.TransformerEncoderLayer in both
norm orders with ReLU and GELU, and nn.TransformerEncoder with a causal
mask; and the options they refuse."""

import unittest
import warnings

import torch

from cudnn_mlir.frontend import attention_modules as A


def _inputs(batch_first, n, length, width, gen):
    shape = (n, length, width) if batch_first else (length, n, width)
    return torch.randn(shape, generator=gen)


class MultiheadAttentionTest(unittest.TestCase):
    def test_matches_the_module(self):
        gen = torch.Generator().manual_seed(0)
        torch.manual_seed(0)
        for batch_first in (True, False):
            for kdim in (None, 24):
                for need_weights in (False, True):
                    for average in (True, False):
                        for mask in (None, "2d", "3d", "bool"):
                            for padding in (False, True):
                                self._check(batch_first, kdim, need_weights,
                                            average, mask, gen, padding)

    def _check(self, batch_first, kdim, need_weights, average, mask, gen,
               padding=False):
        m = torch.nn.MultiheadAttention(32, 4, batch_first=batch_first,
                                        kdim=kdim, vdim=kdim).eval()
        n, length, source = 3, 5, 7
        q = _inputs(batch_first, n, length, 32, gen)
        if kdim is None and mask is None:
            k = v = q  # self-attention: one projection
        else:
            k = _inputs(batch_first, n, source, kdim or 32, gen)
            v = _inputs(batch_first, n, source, kdim or 32, gen)
        s = k.shape[1] if batch_first else k.shape[0]
        am = (None if mask is None else torch.randn(length, s, generator=gen)
              if mask == "2d" else torch.randn(n * 4, length, s,
                                               generator=gen)
              if mask == "3d" else torch.rand(length, s, generator=gen) > 0.6)
        if mask == "bool":  # True: do not attend; key 0 stays for each query
            am[:, 0] = False
        kwargs = dict(need_weights=need_weights, attn_mask=am,
                      average_attn_weights=average)
        if padding:  # (N, S), True: padding; the last key of batch 0
            kpm = torch.zeros(n, s, dtype=torch.bool)
            kpm[0, -1] = True
            kwargs["key_padding_mask"] = kpm if mask in (None, "bool") \
                else kpm.float().masked_fill(kpm, float("-inf"))
        with torch.no_grad():
            expected = m(q, k, v, **kwargs)
            got = A.multihead_attention(m, q, k, v, **kwargs)
        for e, g in zip(expected, got):
            if e is None:
                self.assertIsNone(g)
                continue
            self.assertEqual(e.shape, g.shape)
            self.assertLess((e - g).abs().max().item(), 1e-5)

    def test_refuses_what_it_does_not_express(self):
        x = torch.randn(2, 3, 8)
        for kwargs, call, what in (
                (dict(add_bias_kv=True), {}, "add_bias_kv"),
                (dict(add_zero_attn=True), {}, "add_zero_attn"),
                ({}, dict(is_causal=True,
                          attn_mask=torch.zeros(3, 3)), "is_causal")):
            m = torch.nn.MultiheadAttention(8, 2, batch_first=True,
                                            **kwargs).eval()
            with self.assertRaisesRegex(A.UnsupportedAttention,
                                        "without " + what):
                A.multihead_attention(m, x, x, x, **call)


class TransformerEncoderTest(unittest.TestCase):
    def test_matches_the_modules(self):
        torch.manual_seed(0)
        for norm_first in (False, True):
            for activation in ("relu", "gelu"):
                for batch_first in (True, False):
                    for causal in (False, True):
                        layer = torch.nn.TransformerEncoderLayer(
                            32, 4, 64, activation=activation,
                            batch_first=batch_first, norm_first=norm_first)
                        encoder = torch.nn.TransformerEncoder(
                            layer, 2, norm=torch.nn.LayerNorm(32),
                            enable_nested_tensor=False).eval()
                        x = torch.randn((3, 6, 32) if batch_first
                                        else (6, 3, 32))
                        mask = (torch.nn.Transformer
                                .generate_square_subsequent_mask(6)
                                if causal else None)
                        with torch.no_grad():
                            pairs = (
                                (encoder(x, mask=mask),
                                 A.transformer_encoder(encoder, x,
                                                       mask=mask)),
                                (encoder.layers[0](x, src_mask=mask),
                                 A.transformer_encoder_layer(
                                     encoder.layers[0], x, src_mask=mask)))
                        for e, g in pairs:
                            self.assertLess((e - g).abs().max().item(), 1e-5)

    def test_refuses_training(self):
        layer = torch.nn.TransformerEncoderLayer(8, 2, 16).train()
        with self.assertRaisesRegex(A.UnsupportedAttention, "training"):
            A.transformer_encoder_layer(layer, torch.randn(3, 2, 8))


class TransformerDecoderTest(unittest.TestCase):
    def test_matches_the_modules(self):
        torch.manual_seed(0)
        for norm_first in (False, True):
            for activation in ("relu", "gelu"):
                for batch_first in (True, False):
                    with warnings.catch_warnings():  # nested tensors
                        warnings.simplefilter("ignore")
                        model = torch.nn.Transformer(
                            32, 4, num_encoder_layers=2,
                            num_decoder_layers=2, dim_feedforward=64,
                            activation=activation, batch_first=batch_first,
                            norm_first=norm_first).eval()
                    src = torch.randn((3, 7, 32) if batch_first
                                      else (7, 3, 32))
                    tgt = torch.randn((3, 5, 32) if batch_first
                                      else (5, 3, 32))
                    mask = torch.nn.Transformer \
                        .generate_square_subsequent_mask(5)
                    memory = model.encoder(src)
                    layer = model.decoder.layers[0]
                    with torch.no_grad():
                        pairs = (
                            (model(src, tgt, tgt_mask=mask),
                             A.transformer(model, src, tgt, tgt_mask=mask)),
                            (model.decoder(tgt, memory, tgt_mask=mask),
                             A.transformer_decoder(model.decoder, tgt,
                                                   memory, tgt_mask=mask)),
                            (layer(tgt, memory),
                             A.transformer_decoder_layer(layer, tgt,
                                                         memory)))
                    for e, g in pairs:
                        self.assertLess((e - g).abs().max().item(), 1e-5)

    def test_refuses_training(self):
        layer = torch.nn.TransformerDecoderLayer(8, 2, 16).train()
        with self.assertRaisesRegex(A.UnsupportedAttention, "training"):
            A.transformer_decoder_layer(layer, torch.randn(3, 2, 8),
                                        torch.randn(4, 2, 8))


if __name__ == "__main__":
    unittest.main()
