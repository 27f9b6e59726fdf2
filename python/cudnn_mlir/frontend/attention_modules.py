"""nn.MultiheadAttention and the transformer modules (encoder, decoder and
nn.Transformer) as the torch ops they compute, for torch.fx.

torch.fx keeps a torch.nn module as one call_module node, and
nn.MultiheadAttention's forward (F.multi_head_attention_forward) branches on
its inputs' ranks, so it cannot be traced through; nn.TransformerEncoder and
its layers branch on their inputs for a fused fast path. The tracer calls
the functions here instead (DECOMPOSED_MODULES). `multihead_attention`: the
input projections as F.linear (one for self-attention, three otherwise), the
heads split by reshapes, attention as F.scaled_dot_product_attention (or,
when the weights are returned, its matmuls and softmax written out), and the
output projection. `transformer_encoder_layer`: the layer's reference path
(attention and feed-forward blocks around its two layer norms, in either
order), in eval mode. `transformer_encoder`: its layers in turn, then its
norm. `transformer_decoder_layer` / `transformer_decoder`: the same with
attention to the memory between, and `transformer`: encoder then decoder.
Each op has a TCP lowering, and parameters are read from the modules,
so they keep the model's names.

Masks are PyTorch's modules' masks: a boolean attn_mask or
key_padding_mask is True where a query must not attend (the opposite of
F.scaled_dot_product_attention's boolean mask), a float one is added to
the scores; both are made additive first (`additive_mask`, as PyTorch's own
forward does), and a key-padding mask is added per batch and key.

What they do not express is refused when the model is traced, naming the
option: key/value bias rows (add_bias_kv), add_zero_attn, dropout in
training, is_causal. Inputs must be batched (3-D).
"""

import torch
import torch.fx
import torch.nn.functional as F


class UnsupportedAttention(Exception):
    """An attention module used with an option its decomposition lacks."""


def _refuse(m, what):
    raise UnsupportedAttention("cudnn_mlir imports nn.%s without %s"
                               % (type(m).__name__, what))


def additive_mask(mask, like):
    """An attention mask as the torch.nn modules take it, made additive in
    `like`'s type: a boolean one -inf where True (do not attend) and 0
    elsewhere, a float one as it is. Traced (a Proxy), it is one call, which
    the importer lowers by the mask's recorded type (lowerings.py)."""
    traced = next((x for x in (mask, like)
                   if isinstance(x, torch.fx.Proxy)), None)
    if traced is not None:  # a mask made from constants is a tensor here
        return traced.tracer.create_proxy("call_function", additive_mask,
                                          (mask, like), {})
    if mask.dtype == torch.bool:
        return torch.zeros(mask.shape, dtype=like.dtype,
                           device=mask.device).masked_fill(mask,
                                                           float("-inf"))
    return mask.to(like.dtype)


def _projections(m, query, key, value):
    """q, k, v after the input projections."""
    # Proxies cannot be unpacked while tracing: thirds by index and slice.
    e = m.embed_dim
    if m._qkv_same_embed_dim:
        if key is query and value is query:
            qkv = F.linear(query, m.in_proj_weight,
                           m.in_proj_bias).chunk(3, dim=-1)
            return qkv[0], qkv[1], qkv[2]
        w = m.in_proj_weight
        weights = (w[:e], w[e:2 * e], w[2 * e:])
    else:
        weights = (m.q_proj_weight, m.k_proj_weight, m.v_proj_weight)
    b = m.in_proj_bias
    biases = ((b[:e], b[e:2 * e], b[2 * e:]) if b is not None
              else (None, None, None))
    return tuple(F.linear(x, w, b) for x, w, b in
                 zip((query, key, value), weights, biases))


def multihead_attention(m, query, key, value, key_padding_mask=None,
                        need_weights=True, attn_mask=None,
                        average_attn_weights=True, is_causal=False):
    """What `m(query, key, value, ...)` returns, in traceable torch ops."""
    if m.bias_k is not None or m.bias_v is not None:
        _refuse(m, "add_bias_kv")
    if m.add_zero_attn:
        _refuse(m, "add_zero_attn")
    if m.training and m.dropout > 0:
        _refuse(m, "dropout in training (call model.eval())")
    if is_causal:
        _refuse(m, "is_causal (pass the causal mask as a float attn_mask)")
    if m.batch_first:
        if key is query and value is query:  # one transpose, one projection
            query = key = value = query.transpose(0, 1)
        else:
            query, key, value = (x.transpose(0, 1)
                                 for x in (query, key, value))
    # (L, N, E) from here, as PyTorch's own forward.
    q, k, v = _projections(m, query, key, value)  # a tuple of proxies
    heads, head_dim = m.num_heads, m.head_dim

    def split_heads(x):  # (L, N, E) -> (N, heads, L, head_dim)
        return x.reshape(x.shape[0], x.shape[1], heads,
                         head_dim).permute(1, 2, 0, 3)

    q, k, v = split_heads(q), split_heads(k), split_heads(v)
    n, length, source = q.shape[0], q.shape[2], k.shape[2]
    if attn_mask is not None:
        # (L, S) or (N * heads, L, S) to (N, heads, L, S), with no branch on
        # its rank (a proxy's).
        attn_mask = additive_mask(attn_mask, q).expand(
            n * heads, length, source).reshape(n, heads, length, source)
    if key_padding_mask is not None:  # (N, S): per batch and key
        padding = additive_mask(key_padding_mask, q).reshape(n, 1, 1, source)
        attn_mask = padding.expand(n, heads, length, source) \
            if attn_mask is None else attn_mask + padding
    # torch 1.x has no F.scaled_dot_product_attention: written out there.
    if need_weights or not hasattr(F, "scaled_dot_product_attention"):
        scores = q @ k.transpose(-2, -1) * (1.0 / head_dim ** 0.5)
        if attn_mask is not None:
            scores = scores + attn_mask
        weights = torch.softmax(scores, dim=-1)
        out = weights @ v
        if not need_weights:
            weights = None
        elif average_attn_weights:
            weights = weights.mean(dim=1)
    else:
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        weights = None
    # (N, heads, L, head_dim) -> (L, N, E)
    out = out.permute(2, 0, 1, 3).reshape(q.shape[2], q.shape[0],
                                          m.embed_dim)
    out = F.linear(out, m.out_proj.weight, m.out_proj.bias)
    if m.batch_first:
        out = out.transpose(0, 1)
    return out, weights


def _attend(attn, x, source, mask, key_padding_mask, is_causal):
    """A transformer layer's attention block: `attn` from x to source."""
    return attn(x, source, source, attn_mask=mask,
                key_padding_mask=key_padding_mask, need_weights=False,
                is_causal=is_causal)[0]


def _feed_forward(m, x):
    return m.linear2(m.activation(m.linear1(x)))


def _residual_blocks(m, x, blocks):
    """x through a transformer layer's (norm, block) pairs in turn, each
    with its residual: x + block(norm(x)) when m.norm_first, else
    norm(x + block(x))."""
    for norm, block in blocks:
        x = x + block(norm(x)) if m.norm_first else norm(x + block(x))
    return x


def transformer_encoder_layer(m, src, src_mask=None,
                              src_key_padding_mask=None, is_causal=False):
    """nn.TransformerEncoderLayer in eval mode, both norm orders, as its
    reference path computes it (the fused fast path computes the same)."""
    if m.training:
        _refuse(m, "training mode (call model.eval())")

    def attention(x):
        return _attend(m.self_attn, x, x, src_mask, src_key_padding_mask,
                       is_causal)

    return _residual_blocks(m, src, [
        (m.norm1, attention), (m.norm2, lambda x: _feed_forward(m, x))])


def transformer_encoder(m, src, mask=None, src_key_padding_mask=None,
                        is_causal=None):
    """nn.TransformerEncoder: its layers in turn, then its norm. A mask is
    passed on as given (the layers' attention adds it), so a causal one
    needs no detection."""
    output = src
    for layer in m.layers:
        output = layer(output, src_mask=mask,
                       src_key_padding_mask=src_key_padding_mask)
    if m.norm is not None:
        output = m.norm(output)
    return output


def transformer_decoder_layer(m, tgt, memory, tgt_mask=None,
                              memory_mask=None, tgt_key_padding_mask=None,
                              memory_key_padding_mask=None, tgt_is_causal=False,
                              memory_is_causal=False):
    """nn.TransformerDecoderLayer in eval mode, both norm orders: self
    attention over the target, attention from it to the memory, the
    feed-forward block."""
    if m.training:
        _refuse(m, "training mode (call model.eval())")

    def self_attention(x):
        return _attend(m.self_attn, x, x, tgt_mask, tgt_key_padding_mask,
                       tgt_is_causal)

    def cross_attention(x):
        return _attend(m.multihead_attn, x, memory, memory_mask,
                       memory_key_padding_mask, memory_is_causal)

    return _residual_blocks(m, tgt, [
        (m.norm1, self_attention), (m.norm2, cross_attention),
        (m.norm3, lambda x: _feed_forward(m, x))])


def transformer_decoder(m, tgt, memory, tgt_mask=None, memory_mask=None,
                        tgt_key_padding_mask=None,
                        memory_key_padding_mask=None, tgt_is_causal=None,
                        memory_is_causal=False):
    """nn.TransformerDecoder: its layers in turn, then its norm."""
    output = tgt
    for layer in m.layers:
        output = layer(output, memory, tgt_mask=tgt_mask,
                       memory_mask=memory_mask,
                       tgt_key_padding_mask=tgt_key_padding_mask,
                       memory_key_padding_mask=memory_key_padding_mask,
                       memory_is_causal=memory_is_causal)
    if m.norm is not None:
        output = m.norm(output)
    return output


def transformer(m, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal=None,
                tgt_is_causal=None, memory_is_causal=False):
    """nn.Transformer: its encoder over the source, its decoder over the
    target and the encoder's output."""
    memory = m.encoder(src, mask=src_mask,
                       src_key_padding_mask=src_key_padding_mask)
    return m.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                     tgt_key_padding_mask=tgt_key_padding_mask,
                     memory_key_padding_mask=memory_key_padding_mask,
                     memory_is_causal=memory_is_causal)


# Modules the tracer replaces by their decomposition.
DECOMPOSED_MODULES = {
    torch.nn.MultiheadAttention: multihead_attention,
    torch.nn.TransformerEncoderLayer: transformer_encoder_layer,
    torch.nn.TransformerEncoder: transformer_encoder,
    torch.nn.TransformerDecoderLayer: transformer_decoder_layer,
    torch.nn.TransformerDecoder: transformer_decoder,
    torch.nn.Transformer: transformer,
}
