"""Expected failures of the e2e suite: (test, dtype, mode) -> why, mode
being "fx" (cudnn_mlir.compile), "aten" (torch.export / make_fx) or
"dynamo" (torch.compile). A listed test that passes is reported as XPASS
and fails the run, so this table stays true."""

# PyTorch itself cannot trace these (torch 2.11), whatever the backend.
_PACKED_EXPORT = ("torch.export cannot export pack_padded_sequence: its "
                  "sizes depend on the lengths' values "
                  "(GuardOnDataDependentSymNode); packed sequences come in "
                  "through cudnn_mlir.compile")
_PACKED_DYNAMO = ("with allow_rnn (which cudnn_mlir.dynamo sets so that RNNs "
                  "reach the backend) TorchDynamo traces the RNN on the "
                  "packed sequence and fails in _pad_packed_sequence on fake "
                  "tensors; packed sequences come in through "
                  "cudnn_mlir.compile")

XFAIL = {}
for _dtype in ("f32", "f16", "bf16"):
    for _test in ("lstm_packed_model", "gru_packed_model"):
        XFAIL[(_test, _dtype, "aten")] = _PACKED_EXPORT
        XFAIL[(_test, _dtype, "dynamo")] = _PACKED_DYNAMO

# The torch.nn attention modules import through torch.fx, traced as the ops
# they compute (frontend/attention_modules.py); TorchDynamo hands the backend
# the functions their forwards call, which frontend/attention_functions.py
# decomposes the same way. With a mask, TorchDynamo breaks these graphs in
# the modules' fast-path checks before anything reaches the backend.
_ATTENTION_DYNAMO = {
    "transformer_seq2seq": "TorchDynamo compiles no subgraph of "
    "nn.Transformer with a mask (its fast-path checks break the graph); "
    "nothing reaches the backend",
    "transformer_encoder_causal": "TorchDynamo compiles no subgraph of the "
    "encoder with a mask (its fast-path checks break the graph); nothing "
    "reaches the backend",
}
for _dtype in ("f32", "f16", "bf16"):
    for _test, _why in _ATTENTION_DYNAMO.items():
        XFAIL[(_test, _dtype, "dynamo")] = _why

# Partitioning (cudnn_mlir/partition.py) serves cudnn_mlir.compile and the
# TorchDynamo backend; an ExportedProgram's graph is imported whole.
for _dtype in ("f32", "f16", "bf16"):
    for _test in ("partitioned_bessel", "partitioned_cumprod"):
        XFAIL[(_test, _dtype, "aten")] = (
            "the torch.export road does not partition: torch.special.i0e "
            "and torch.cumprod have no TCP lowering")

# PyTorch itself cannot export it (torch 2.11).
for _dtype in ("f32", "f16", "bf16"):
    XFAIL[("transformer_encoder_causal", _dtype, "aten")] = (
        "torch.export cannot export nn.TransformerEncoder with a mask: "
        "GuardOnDataDependentSymNode in its fast-path checks; it comes in "
        "through cudnn_mlir.compile")
    XFAIL[("torchvision_swin_t", _dtype, "aten")] = (
        "torch.export's core ATen decomposes Swin's AdaptiveAvgPool2d over "
        "a permuted tensor into aten.as_strided, which has no TCP lowering; "
        "Swin comes in through cudnn_mlir.compile (TorchDynamo capture)")
    XFAIL[("torchvision_swin_v2_t", _dtype, "aten")] = \
        XFAIL[("torchvision_swin_t", _dtype, "aten")]
    XFAIL[("graph_break_fallback", _dtype, "aten")] = (
        "torch.export cannot export a branch on a tensor's value "
        "(GuardOnDataDependentSymNode); cudnn_mlir.compile runs it through "
        "torch.compile")
    XFAIL[("transformer_seq2seq", _dtype, "aten")] = (
        "torch.export cannot export nn.Transformer with a target mask: "
        "GuardOnDataDependentSymNode in its decoder; nn.Transformer comes in "
        "through cudnn_mlir.compile")

# torch.export and make_fx record nn.EmbeddingBag as aten._embedding_bag of
# flattened indices and an offsets tensor: bags by run-time values, which
# the importer refuses; the fx and dynamo roads see the 2-D input.
for _dtype in ("f32", "f16", "bf16"):
    XFAIL[("embedding_bags", _dtype, "aten")] = (
        "aten._embedding_bag takes flattened indices and offsets (bags of "
        "run-time sizes); nn.EmbeddingBag imports through cudnn_mlir.compile "
        "and torch.compile")
