"""Expected failures of the e2e suite: (test, dtype, mode) -> why, mode
being "fx" (cudnn_mlir.compile), "aten" (torch.export / make_fx) or
"dynamo" (torch.compile). A listed test that passes is reported as XPASS
and fails the run, so this table stays true. Empty today."""

XFAIL = {}
