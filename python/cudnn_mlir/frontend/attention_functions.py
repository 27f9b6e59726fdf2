"""The attention functions TorchDynamo keeps whole, as the ops they compute.

torch.fx never sees these: its tracer decomposes nn.MultiheadAttention and
the transformer modules themselves (attention_modules.py). TorchDynamo
inlines the modules' forwards instead and hands the backend a call of the
function they end in: `F.multi_head_attention_forward` (the module's
reference path, in (L, N, E) form) or, in eval mode, the fused fast path
`torch._transformer_encoder_layer_fwd`. `decompose_attention_functions`
replaces each such call in a graph by the torch ops attention_modules.py
writes for the module, built on the graph itself through proxies, so that
the importer and the partitioner see ordinary nodes. A call with an option
the decomposition lacks (a key-padding mask, add_bias_kv, ...) is left as
it is: the importer then reports it as an op without a lowering, and
partitioning leaves it to PyTorch.
"""

import operator
from types import SimpleNamespace

import torch
import torch.fx
import torch.nn.functional as F

from . import attention_modules


def _linear_like(weight, bias):
    return SimpleNamespace(weight=weight, bias=bias)


def _attention_module(embed_dim, num_heads, in_proj_weight, in_proj_bias,
                      out_proj_weight, out_proj_bias, batch_first,
                      separate=None, bias_k=None, bias_v=None,
                      add_zero_attn=False, dropout=0.0, training=False):
    """What attention_modules.multihead_attention reads of an
    nn.MultiheadAttention, from a function call's arguments. `separate`:
    the q, k and v projection weights of use_separate_proj_weight."""
    q_w, k_w, v_w = separate or (None, None, None)
    return SimpleNamespace(
        embed_dim=embed_dim, num_heads=num_heads,
        head_dim=embed_dim // num_heads, batch_first=batch_first,
        _qkv_same_embed_dim=separate is None, in_proj_weight=in_proj_weight,
        in_proj_bias=in_proj_bias, q_proj_weight=q_w, k_proj_weight=k_w,
        v_proj_weight=v_w, bias_k=bias_k, bias_v=bias_v,
        add_zero_attn=add_zero_attn, dropout=dropout, training=training,
        out_proj=_linear_like(out_proj_weight, out_proj_bias))


def multi_head_attention_forward(
        query, key, value, embed_dim_to_check, num_heads, in_proj_weight,
        in_proj_bias, bias_k, bias_v, add_zero_attn, dropout_p,
        out_proj_weight, out_proj_bias, training=True, key_padding_mask=None,
        need_weights=True, attn_mask=None, use_separate_proj_weight=False,
        q_proj_weight=None, k_proj_weight=None, v_proj_weight=None,
        static_k=None, static_v=None, average_attn_weights=True,
        is_causal=False):
    """F.multi_head_attention_forward, (L, N, E) inputs."""
    if static_k is not None or static_v is not None:
        raise attention_modules.UnsupportedAttention(
            "cudnn_mlir imports F.multi_head_attention_forward without "
            "static_k/static_v")
    m = _attention_module(
        embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
        out_proj_weight, out_proj_bias, batch_first=False,
        separate=((q_proj_weight, k_proj_weight, v_proj_weight)
                  if use_separate_proj_weight else None),
        bias_k=bias_k, bias_v=bias_v, add_zero_attn=add_zero_attn,
        dropout=dropout_p, training=training)
    return attention_modules.multihead_attention(
        m, query, key, value, key_padding_mask=key_padding_mask,
        need_weights=need_weights, attn_mask=attn_mask,
        average_attn_weights=average_attn_weights, is_causal=is_causal)


def transformer_encoder_layer_fwd(
        src, embed_dim, num_heads, qkv_weight, qkv_bias, proj_weight,
        proj_bias, use_gelu, norm_first, eps, norm_weight_1, norm_bias_1,
        norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1, ffn_weight_2,
        ffn_bias_2, mask=None, mask_type=None):
    """torch._transformer_encoder_layer_fwd: nn.TransformerEncoderLayer's
    eval-mode fast path (batch-first input), as the layer's reference path
    computes it."""
    if mask is not None:
        raise attention_modules.UnsupportedAttention(
            "cudnn_mlir imports torch._transformer_encoder_layer_fwd "
            "without a mask")
    attention = _attention_module(embed_dim, num_heads, qkv_weight, qkv_bias,
                                  proj_weight, proj_bias, batch_first=True)

    def norm(weight, bias):
        return lambda x: F.layer_norm(x, (embed_dim,), weight, bias, eps)

    def linear(weight, bias):
        return lambda x: F.linear(x, weight, bias)

    layer = SimpleNamespace(
        training=False, norm_first=norm_first,
        self_attn=lambda *args, **kwargs: attention_modules.multihead_attention(
            attention, *args, **kwargs),
        norm1=norm(norm_weight_1, norm_bias_1),
        norm2=norm(norm_weight_2, norm_bias_2),
        linear1=linear(ffn_weight_1, ffn_bias_1),
        linear2=linear(ffn_weight_2, ffn_bias_2),
        activation=F.gelu if use_gelu else F.relu)
    return attention_modules.transformer_encoder_layer(layer, src)


DECOMPOSED_FUNCTIONS = {
    F.multi_head_attention_forward: multi_head_attention_forward,
    torch._transformer_encoder_layer_fwd: transformer_encoder_layer_fwd,
}


def _as_proxies(value, tracer, proxies):
    """`value` with each node as its Proxy, one per node (`proxies`), so
    that self-attention's `key is query` holds as it did for the tensors."""
    return torch.fx.node.map_arg(
        value, lambda node: proxies.setdefault(node,
                                               torch.fx.Proxy(node, tracer)))


def _erase_unused(graph, nodes):
    """Erases those of `nodes` (new ones, in graph order) that nothing
    reads, last first, so that a chain nothing reads goes whole."""
    for node in reversed(nodes):
        if not node.users:
            graph.erase_node(node)


def _items_read(node):
    """{index: getitem node} of a tuple-valued node's users, or None when
    something other than a constant index reads it."""
    items = {}
    for user in node.users:
        if user.op != "call_function" or user.target is not operator.getitem \
                or not isinstance(user.args[1], int):
            return None
        items[user.args[1]] = user
    return items


def decompose_attention_functions(gm: torch.fx.GraphModule) -> int:
    """Replaces every call of a DECOMPOSED_FUNCTIONS function in `gm` by
    its decomposition, in place; returns how many were replaced. A call
    the decomposition refuses, or whose attention weights are read where
    the decomposition has none, stays."""
    graph = gm.graph
    replaced = 0
    for node in list(graph.nodes):
        if node.op != "call_function" or \
                node.target not in DECOMPOSED_FUNCTIONS:
            continue
        before = set(graph.nodes)
        tracer = torch.fx.proxy.GraphAppendingTracer(graph)
        with graph.inserting_before(node):
            try:
                proxies = {}
                result = DECOMPOSED_FUNCTIONS[node.target](
                    *_as_proxies(node.args, tracer, proxies),
                    **_as_proxies(node.kwargs, tracer, proxies))
            except attention_modules.UnsupportedAttention:
                result = None
        created = [n for n in graph.nodes if n not in before]
        if isinstance(result, tuple):  # (output, weights), read by index
            items = _items_read(node)
            if items is None or any(
                    result[i] is None and user.users
                    for i, user in items.items()):
                result = None
            else:
                for i, user in items.items():
                    if result[i] is not None:
                        user.replace_all_uses_with(result[i].node)
                    graph.erase_node(user)
        elif result is not None:
            node.replace_all_uses_with(result.node)
        if result is None:
            _erase_unused(graph, created)
            continue
        graph.erase_node(node)
        _erase_unused(graph, created)
        replaced += 1
    if replaced:
        gm.recompile()
    return replaced
