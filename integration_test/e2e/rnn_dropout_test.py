"""Dropout between RNN layers in training mode (docs/rnn.md, "Phase"), on
the GPU. cuDNN draws the masks, so no output can equal PyTorch's; the test
builds a model whose second layer shows the mask instead:

    nn.RNN(32, 32, num_layers=2, nonlinearity="relu", dropout=0.5), train()
    layer 1: weight_ih = I, weight_hh = 0, biases 0

so its output is relu(dropout(y0)) = y0 * mask / (1 - p) where y0 > 0, y0
being layer 0's output (computed by eager PyTorch). Checked: every such
element is 0 or y0 / (1 - p) (PyTorch's inverted-dropout scale); the
dropped fraction is p within 0.08 (about 640 outputs where y0 > 0: 4
standard deviations);
layer 0's final state is unaffected; a second call draws another mask.

    python3 integration_test/e2e/rnn_dropout_test.py --cache CACHE
    python3 integration_test/e2e/rnn_dropout_test.py --compile-only --cache CACHE
    python3 integration_test/e2e/rnn_dropout_test.py --print-ir
"""

import argparse
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

import cudnn_mlir  # noqa: E402
from cudnn_mlir.frontend import import_model  # noqa: E402

P = 0.5
SHAPE = (10, 4, 32)  # [seq, batch, features]


def build(device):
    torch.manual_seed(0)
    rnn = nn.RNN(32, 32, num_layers=2, nonlinearity="relu", dropout=P)
    with torch.no_grad():
        rnn.weight_ih_l1.copy_(torch.eye(32))
        rnn.weight_hh_l1.zero_()
        rnn.bias_ih_l1.zero_()
        rnn.bias_hh_l1.zero_()
    x = torch.rand(*SHAPE) * 2 - 1
    return rnn.train().to(device), x.to(device)


def first_layer(rnn, x):
    """Layer 0 alone, in eager PyTorch: (output, final state)."""
    single = nn.RNN(32, 32, nonlinearity="relu").to(x.device)
    with torch.no_grad():
        for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"):
            getattr(single, name + "_l0").copy_(getattr(rnn, name + "_l0"))
        return single(x)


def check(rnn, x, cache):
    fast = cudnn_mlir.compile(rnn, [x], cache_dir=cache)
    y0, h0 = first_layer(rnn, x)
    scale = 1.0 / (1.0 - P)
    masks = []
    for call in range(2):
        with torch.no_grad():
            out, h = fast(x)
        torch.cuda.synchronize()
        if (h[0] - h0[0]).abs().max().item() > 1e-4:
            raise AssertionError("call %d: layer 0's final state differs from "
                                 "eager by %.3g" % (call, (h[0] - h0[0])
                                                    .abs().max().item()))
        live = y0 > 1e-3
        kept = (out - y0 * scale).abs() <= 2e-3 * y0 * scale + 1e-5
        dropped = out.abs() <= 1e-6
        if not bool((kept | dropped)[live].all()):
            bad = (~(kept | dropped) & live).sum().item()
            raise AssertionError("call %d: %d outputs are neither 0 nor "
                                 "y0 / (1 - p)" % (call, bad))
        if bool((out[y0 <= 0].abs() > 1e-6).any()):
            raise AssertionError("call %d: outputs where y0 = 0 are not 0"
                                 % call)
        fraction = dropped[live].float().mean().item()
        if abs(fraction - P) > 0.08:
            raise AssertionError("call %d: dropped %.3f of the outputs, "
                                 "expects %.2f +- 0.08" % (call, fraction, P))
        masks.append(dropped & live)
        print("call %d: %d live outputs, dropped fraction %.3f"
              % (call, live.sum().item(), fraction), flush=True)
    if bool((masks[0] == masks[1]).all()):
        raise AssertionError("expects a new mask per call, but both calls "
                             "dropped the same outputs")
    print("PASS  rnn dropout p=%.1f: masks differ between calls "
          "(%d of %d outputs)" % (P, (masks[0] != masks[1]).sum().item(),
                                  masks[0].numel()))


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", default=None)
    parser.add_argument("--compile-only", action="store_true")
    parser.add_argument("--print-ir", action="store_true")
    args = parser.parse_args(argv)
    # Exact fp32 on both sides; the flags are part of the artifact key, so
    # --compile-only sets them as the run does.
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    if args.print_ir or args.compile_only:
        rnn, x = build("cpu")
        imported = import_model(rnn, [x])
        if args.print_ir:
            print(imported.text)
        else:
            print(cudnn_mlir.compile_artifact(imported, cache_dir=args.cache))
        return 0
    rnn, x = build("cuda")
    try:
        check(rnn, x, args.cache)
    except AssertionError as error:
        print("FAIL  rnn dropout: %s" % error)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
