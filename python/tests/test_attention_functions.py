"""attention_functions.py on the graphs TorchDynamo captures (torch 2): the
calls of F.multi_head_attention_forward and of eval mode's
torch._transformer_encoder_layer_fwd are replaced by the ops they compute,
and the rewritten graph, run eagerly on the CPU, gives the modules' outputs
(float32, max abs difference 1e-5), boolean and key-padding masks
included; a call with an option the decomposition lacks (add_bias_kv)
stays as it is."""

import unittest

import torch

from cudnn_mlir.frontend.attention_functions import (
    DECOMPOSED_FUNCTIONS, decompose_attention_functions)


def _captured(fn, *inputs):
    """The one graph TorchDynamo captures of fn(*inputs), rewritten, its
    output, and how many calls were replaced."""
    seen = []

    def backend(gm, example_inputs):
        replaced = decompose_attention_functions(gm)
        seen.append((gm, replaced))
        return gm.forward

    torch._dynamo.reset()
    with torch.no_grad():
        out = torch.compile(fn, backend=backend, fullgraph=True)(*inputs)
    assert len(seen) == 1, "expects one graph, got %d" % len(seen)
    return seen[0][0], out, seen[0][1]


def _targets(gm):
    return {n.target for n in gm.graph.nodes if n.op == "call_function"}


class DecomposeAttentionFunctionsTest(unittest.TestCase):
    def setUp(self):
        torch.manual_seed(0)

    def _check(self, module, fn, *inputs, replaced=1):
        gm, out, count = _captured(fn, *inputs)
        self.assertEqual(count, replaced)
        if replaced:
            self.assertFalse(_targets(gm) & set(DECOMPOSED_FUNCTIONS))
        with torch.no_grad():
            expected = fn(*inputs)
        for got, want in zip(out if isinstance(out, tuple) else (out,),
                             expected if isinstance(expected, tuple)
                             else (expected,)):
            torch.testing.assert_close(got, want, rtol=0, atol=1e-5)
        return gm

    def test_multihead_attention_forward(self):
        for batch_first in (True, False):
            for cross in (False, True):
                m = torch.nn.MultiheadAttention(
                    32, 4, batch_first=batch_first,
                    kdim=24 if cross else None,
                    vdim=24 if cross else None).eval()
                # (N, L, E) batch first, else (L, N, E); 7 keys
                q = torch.randn((3, 5, 32) if batch_first else (5, 3, 32))
                kv = torch.randn((3, 7, 24) if batch_first else (7, 3, 24)) \
                    if cross else q
                gm = self._check(m, lambda q, kv: m(
                    q, kv, kv, need_weights=False)[0], q, kv)
                if not cross:  # one projection for self-attention
                    linears = [n for n in gm.graph.nodes
                               if n.target is torch.nn.functional.linear]
                    self.assertEqual(len(linears), 2)

    def test_attention_weights_and_masks(self):
        m = torch.nn.MultiheadAttention(32, 4).eval()
        q = torch.randn(5, 3, 32)
        mask = torch.randn(5, 5)
        for average in (True, False):
            self._check(m, lambda q, mask: m(
                q, q, q, attn_mask=mask, need_weights=True,
                average_attn_weights=average), q, mask)

    def test_encoder_layer_fast_path(self):
        for norm_first in (False, True):
            for activation in ("relu", "gelu"):
                layer = torch.nn.TransformerEncoderLayer(
                    32, 4, 64, batch_first=True, norm_first=norm_first,
                    activation=activation).eval()
                x = torch.randn(2, 6, 32)
                gm, _, _ = _captured(layer, x)
                self.assertFalse(_targets(gm) & set(DECOMPOSED_FUNCTIONS))
                self._check(layer, layer, x)

    def test_masks(self):
        # Boolean masks are True where a query must not attend (made
        # additive as PyTorch's forward does), and a key-padding mask is
        # added per batch and key.
        m = torch.nn.MultiheadAttention(32, 4, batch_first=True).eval()
        q = torch.randn(3, 5, 32)
        causal = torch.triu(torch.ones(5, 5, dtype=torch.bool), 1)
        padding = torch.zeros(3, 5, dtype=torch.bool)
        padding[1:, -1] = True
        self._check(m, lambda q, causal, padding: m(
            q, q, q, attn_mask=causal, key_padding_mask=padding,
            need_weights=False)[0], q, causal, padding)

    def test_keeps_what_it_does_not_express(self):
        m = torch.nn.MultiheadAttention(32, 4, batch_first=True,
                                        add_bias_kv=True).eval()
        q = torch.randn(3, 5, 32)
        gm = self._check(m, lambda q: m(q, q, q, need_weights=False)[0],
                         q, replaced=0)
        self.assertIn(torch.nn.functional.multi_head_attention_forward,
                      _targets(gm))


if __name__ == "__main__":
    unittest.main()
