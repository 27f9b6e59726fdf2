"""Expected failures of the e2e suite: (test, dtype, mode) -> why, mode
being "fx" (cudnn_mlir.compile), "aten" (torch.export / make_fx) or
"dynamo" (torch.compile). A listed test that passes is reported as XPASS
and fails the run, so this table stays true."""

_RNN_EXPORT = ("torch.export decomposes nn.LSTM/GRU into per-step ops "
               "(split_with_sizes, unbind, ...) the importer does not lower; "
               "RNNs come in through torch.fx and torch.compile")

XFAIL = {}
for _dtype in ("f32", "f16", "bf16"):
    XFAIL[("lstm_model", _dtype, "aten")] = _RNN_EXPORT
    XFAIL[("gru_model", _dtype, "aten")] = _RNN_EXPORT
