"""GPU test of the runtime's RNNs (cmrtRnn*) against torch.nn.LSTM/GRU/RNN.

Every case builds a torch module, runs our RNN on the same parameters
(packed into cuDNN's weight space by the runtime) and compares with a
float64 reference: the same module in float64 on the GPU, fed the same
(rounded) inputs and parameters. Outputs, h_n and c_n are compared in
inference and training; in training, dx, dh0, dc0 and every parameter's
gradient (unpacked back to PyTorch's layout) are compared with autograd.

Matrix: cell (lstm, gru, rnn_tanh, rnn_relu) x layers (1, 2) x direction
(uni, bi) x layout (seq-major, batch-first) x dtype (f32 with exact FMA
math, f16), LSTM with and without projections, and variable-length
sequences (padded with per-sequence lengths, and packed), each with the
runtime's algorithm choice and with the standard algorithm forced; and
autotuned builds (CMRT_RNN_AUTOTUNE).

Tolerances (max abs error, values are O(1)): f32 2e-5 forward and 1e-4
gradients; f16 1e-2 forward and 3e-2 gradients.

Run on the GPU machine with CUDNN_MLIR_RUNTIME_LIB set:
    python3 integration_test/rnn_runtime_test.py [--filter SUBSTRING]
Exit status 1 if any case fails.
"""

import argparse
import itertools
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

from cudnn_mlir.runtime import loader  # noqa: E402

RUNTIME = loader.load_runtime_before_torch()

import torch  # noqa: E402
from cudnn_mlir.runtime import rnn_runtime  # noqa: E402

TOLERANCES = {"f32": (2e-5, 1e-4), "f16": (1e-2, 3e-2)}
MODULES = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU,
           "rnn_tanh": torch.nn.RNN, "rnn_relu": torch.nn.RNN}
SEQ, BATCH, INPUT, HIDDEN, PROJ = 7, 3, 10, 16, 6


def make_module(cell, layers, bidirectional, batch_first, proj):
    kwargs = dict(num_layers=layers, bidirectional=bidirectional,
                  batch_first=batch_first)
    if cell.startswith("rnn_"):
        kwargs["nonlinearity"] = cell[4:]
    if proj:
        kwargs["proj_size"] = proj
    return MODULES[cell](INPUT, HIDDEN, **kwargs)


def max_error(ours, reference, mask=None):
    diff = (ours.double() - reference.double()).abs()
    if mask is not None:
        diff = diff * mask
    return diff.max().item()


def run_case(name, cell, layers, bidirectional, batch_first, proj, dtype,
             lengths_kind, algo, autotune=False):
    dev = torch.device("cuda")
    torch_dtype = {"f32": torch.float32, "f16": torch.float16}[dtype]
    gen = torch.Generator().manual_seed(zlib.crc32(name.encode()))
    module = make_module(cell, layers, bidirectional, batch_first, proj)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.rand(p.shape, generator=gen) * 0.6 - 0.3)
    module = module.to(dev, torch_dtype)
    reference = make_module(cell, layers, bidirectional, batch_first,
                            proj).to(dev, torch.float64)
    with torch.no_grad():
        for mine, ref in zip(module.parameters(), reference.parameters()):
            ref.copy_(mine.double())
    params = list(module._flat_weights)
    dirs = 2 if bidirectional else 1
    out = proj or HIDDEN
    lstm = cell == "lstm"

    x_shape = (BATCH, SEQ, INPUT) if batch_first else (SEQ, BATCH, INPUT)
    y_shape = x_shape[:2] + (dirs * out,)
    x = (torch.rand(x_shape, generator=gen) * 2 - 1).to(dev, torch_dtype)
    h0 = (torch.rand(layers * dirs, BATCH, out, generator=gen) - 0.5).to(
        dev, torch_dtype)
    c0 = ((torch.rand(layers * dirs, BATCH, HIDDEN, generator=gen) - 0.5).to(
        dev, torch_dtype) if lstm else None)
    gy = (torch.rand(y_shape, generator=gen) - 0.5).to(dev, torch_dtype)
    ghn = (torch.rand(h0.shape, generator=gen) - 0.5).to(dev, torch_dtype)
    gcn = ((torch.rand(c0.shape, generator=gen) - 0.5).to(dev, torch_dtype)
           if lstm else None)

    lengths = None
    if lengths_kind:
        lengths_list = [SEQ, 4, 1] if lengths_kind == "packed" else [5, SEQ, 2]
        lengths = torch.tensor(lengths_list, dtype=torch.int32, device=dev)

    layout = (rnn_runtime.PACKED if lengths_kind == "packed" else
              rnn_runtime.BATCH_MAJOR if batch_first else
              rnn_runtime.SEQ_MAJOR)
    ours = rnn_runtime.RuntimeRnn(
        RUNTIME, cell, INPUT, HIDDEN, SEQ, BATCH, num_layers=layers,
        bidirectional=bidirectional, proj_size=proj, layout=layout,
        dtype=dtype, trainable=True, variable_lengths=lengths is not None,
        algo=algo, autotune=autotune)
    if autotune and not ours.info["autotuned"]:
        return ["CMRT_RNN_AUTOTUNE did not autotune"], ours.info, 0.0
    # Compiled modules size the weight space as the parameters together.
    param_bytes = sum(p.numel() * p.element_size() for p in params)
    if not ours.info["weightSpaceBytes"] == ours.info["paramBytes"] == \
            param_bytes:
        return ["weight space %d bytes, parameters %d (runtime) / %d "
                "(torch)" % (ours.info["weightSpaceBytes"],
                             ours.info["paramBytes"], param_bytes)], \
            ours.info, 0.0
    weights = ours.pack(params)

    # The reference, in float64 through autograd.
    xr = x.double().requires_grad_()
    h0r = h0.double().requires_grad_()
    c0r = c0.double().requires_grad_() if lstm else None
    state = (h0r, c0r) if lstm else h0r
    mask = None
    if lengths is None:
        yr, staten = reference(xr, state)
        gyr = gy.double()
    else:
        packed_in = torch.nn.utils.rnn.pack_padded_sequence(
            xr, lengths.cpu(), batch_first=batch_first,
            enforce_sorted=False)
        packed_out, staten = reference(packed_in, state)
        if lengths_kind == "packed":
            yr = packed_out.data
        else:
            yr, _ = torch.nn.utils.rnn.pad_packed_sequence(
                packed_out, batch_first=batch_first, total_length=SEQ)
            steps = torch.arange(SEQ, device=dev)
            valid = steps[:, None] < lengths[None, :].long()  # [T, N]
            mask = (valid.t() if batch_first else valid)[..., None].double()
        gyr = gy.double()
    hnr, cnr = staten if lstm else (staten, None)

    if lengths_kind == "packed":
        # Our input is the packed data itself ([sum of lengths, V]).
        order = torch.nn.utils.rnn.pack_padded_sequence(
            x, lengths.cpu(), enforce_sorted=True)
        x_in = order.data.contiguous()
        y_shape = (x_in.shape[0], dirs * out)
        gy = (torch.rand(y_shape, generator=gen) - 0.5).to(dev, torch_dtype)
        gyr = gy.double()
        x_shape = tuple(x_in.shape)
    else:
        x_in = x

    failures = []

    def check(what, ours_value, ref_value, tol, m=None):
        err = max_error(ours_value, ref_value, m)
        if not err <= tol:
            failures.append("%s max err %.3g > %.3g" % (what, err, tol))
        return err

    fwd_tol, grad_tol = TOLERANCES[dtype]
    # Inference.
    y, hy, cy, _ = ours.forward(x_in, h0, c0, weights, y_shape, False,
                                lengths)
    torch.cuda.synchronize()
    errors = [check("inference y", y, yr, fwd_tol, mask),
              check("inference h_n", hy, hnr, fwd_tol)]
    if lstm:
        errors.append(check("inference c_n", cy, cnr, fwd_tol))

    # Training forward, then both backward passes.
    y, hy, cy, reserve = ours.forward(x_in, h0, c0, weights, y_shape, True,
                                      lengths)
    check("training y", y, yr, fwd_tol, mask)
    check("training h_n", hy, hnr, fwd_tol)
    if lstm:
        check("training c_n", cy, cnr, fwd_tol)
    loss = (yr * gyr * (mask if mask is not None else 1)).sum() + \
        (hnr * ghn.double()).sum()
    if lstm:
        loss = loss + (cnr * gcn.double()).sum()
    grads = torch.autograd.grad(
        loss, [xr, h0r] + ([c0r] if lstm else []) +
        list(reference.parameters()))
    dxr, dh0r = grads[0], grads[1]
    dc0r = grads[2] if lstm else None
    dparamsr = grads[3 if lstm else 2:]

    dx, dhx, dcx = ours.backward_data(x_shape, y, gy, h0, ghn, c0, gcn,
                                      weights, reserve, lengths)
    dweights = ours.backward_weights(x_in, h0, y, reserve, lengths)
    dparams = ours.unpack(dweights, params)
    torch.cuda.synchronize()
    if lengths_kind == "packed":
        # The reference's dx is padded [T, N, V]; ours is packed like x.
        dxr = torch.nn.utils.rnn.pack_padded_sequence(
            dxr, lengths.cpu(), enforce_sorted=True).data
        check("dx", dx, dxr, grad_tol)
    else:
        check("dx", dx, dxr, grad_tol, mask)
    errors.append(check("dh0", dhx, dh0r, grad_tol))
    if lstm:
        check("dc0", dcx, dc0r, grad_tol)
    names = module._flat_weights_names
    worst = 0.0
    for pname, mine, ref in zip(names, dparams, dparamsr):
        worst = max(worst, check("d" + pname, mine, ref, grad_tol))
    errors.append(worst)
    return failures, ours.info, max(errors)


def cases():
    for (cell, layers, bi, batch_first, dtype) in itertools.product(
            ["lstm", "gru", "rnn_tanh", "rnn_relu"], [1, 2], [False, True],
            [False, True], ["f32", "f16"]):
        projs = [0, PROJ] if cell == "lstm" else [0]
        for proj in projs:
            for algo in (-1, 0):
                name = "%s_l%d_%s_%s_%s%s_%s" % (
                    cell, layers, "bi" if bi else "uni",
                    "bf" if batch_first else "sf", dtype,
                    "_proj" if proj else "", "auto" if algo < 0 else "std")
                yield name, (cell, layers, bi, batch_first, proj, dtype,
                             None, algo)
    for cell, kind, batch_first, dtype in itertools.product(
            ["lstm", "gru", "rnn_tanh"], ["lengths"], [False, True],
            ["f32", "f16"]):
        name = "%s_l2_bi_%s_%s_lengths" % (cell, "bf" if batch_first else
                                           "sf", dtype)
        yield name, (cell, 2, True, batch_first, 0, dtype, kind, -1)
    for cell in ["lstm", "gru"]:
        yield "%s_l2_bi_packed_f32" % cell, (cell, 2, True, False, 0, "f32",
                                             "packed", -1)
    yield "lstm_l2_uni_sf_f32_proj_lengths", ("lstm", 2, False, False, PROJ,
                                              "f32", "lengths", -1)
    # Autotuned: whichever algorithm wins must still be right.
    for cell, dtype in itertools.product(["lstm", "gru", "rnn_tanh"],
                                         ["f32", "f16"]):
        yield "%s_l2_bi_sf_%s_autotuned" % (cell, dtype), (
            cell, 2, True, False, 0, dtype, None, -1, True)


def expect_error(what, fn, needle):
    """Runs fn, which must raise the runtime's error containing needle."""
    try:
        fn()
    except rnn_runtime.RnnRuntimeError as e:
        if needle in str(e):
            return None
        return "%s: wrong message: %s" % (what, e)
    return "%s: expected an error, got none" % what


def error_cases():
    """Misuse gets a clear error, not a crash or a wrong answer."""
    dev = torch.device("cuda")
    problems = []
    gru = rnn_runtime.RuntimeRnn(RUNTIME, "gru", INPUT, HIDDEN, SEQ, BATCH,
                                 variable_lengths=True)
    module = torch.nn.GRU(INPUT, HIDDEN).to(dev)
    weights = gru.pack(list(module._flat_weights))
    x = torch.zeros(SEQ, BATCH, INPUT, device=dev)
    h = torch.zeros(1, BATCH, HIDDEN, device=dev)
    zero = torch.tensor([3, 0, 2], dtype=torch.int32, device=dev)
    problems.append(expect_error(
        "zero length", lambda: gru.forward(x, h, None, weights,
                                           (SEQ, BATCH, HIDDEN), False, zero),
        "expects sequence lengths in 1..7, but sequence 1 has 0"))
    problems.append(expect_error(
        "cx for a gru", lambda: gru.forward(x, h, h, weights,
                                            (SEQ, BATCH, HIDDEN)),
        "expects no buffers->cx for a gru cell"))
    problems.append(expect_error(
        "missing lengths", lambda: gru.forward(x, h, None, weights,
                                               (SEQ, BATCH, HIDDEN)),
        "expects buffers->seqLengths, but got null"))
    problems.append(expect_error(
        "parameter count", lambda: gru.pack(list(module._flat_weights)[:3]),
        "expects 4 parameter pointers (weight_ih_l0, ...), but got 3"))
    problems.append(expect_error(
        "persistent with lengths",
        lambda: rnn_runtime.RuntimeRnn(RUNTIME, "lstm", INPUT, HIDDEN, SEQ,
                                       BATCH, variable_lengths=True, algo=3),
        "expects algo 0 (standard) with variable-length or packed"))
    return [p for p in problems if p]


def invocation_cases():
    """The entries compiled code calls (cmrtInvocationRnn*): an LSTM's
    training forward and both backward passes through a module slot give
    what the direct entries give (forward bit for bit, gradients within
    1e-6); a bad op fails the
    invocation with a message naming the call site."""
    import ctypes
    lib = RUNTIME
    p = ctypes.c_void_p
    lib.cmrtInvocationBegin.restype = p
    lib.cmrtInvocationBegin.argtypes = [p]
    lib.cmrtInvocationEnd.restype = ctypes.c_int
    lib.cmrtInvocationEnd.argtypes = [p]
    lib.cmrtInvocationRnnReserveBytes.restype = ctypes.c_int64
    lib.cmrtInvocationRnnReserveBytes.argtypes = [
        p, ctypes.POINTER(p), ctypes.POINTER(rnn_runtime.Config),
        ctypes.c_char_p]
    lib.cmrtInvocationRnnWeights.restype = ctypes.c_int
    lib.cmrtInvocationRnnWeights.argtypes = [
        p, ctypes.POINTER(p), ctypes.POINTER(rnn_runtime.Config),
        ctypes.c_int64, ctypes.POINTER(p), ctypes.c_int64, p, ctypes.c_char_p]
    lib.cmrtInvocationRnn.restype = ctypes.c_int
    lib.cmrtInvocationRnn.argtypes = [
        p, ctypes.POINTER(p), ctypes.POINTER(rnn_runtime.Config),
        ctypes.c_int64, ctypes.POINTER(rnn_runtime.Buffers), ctypes.c_char_p]
    dev = torch.device("cuda")
    problems = []
    module = torch.nn.LSTM(INPUT, HIDDEN, num_layers=2).to(dev)
    params = [w.detach() for w in module._flat_weights]
    direct = rnn_runtime.RuntimeRnn(RUNTIME, "lstm", INPUT, HIDDEN, SEQ,
                                    BATCH, num_layers=2, trainable=True)
    x = torch.rand(SEQ, BATCH, INPUT, device=dev)
    h0 = torch.rand(2, BATCH, HIDDEN, device=dev)
    c0 = torch.rand(2, BATCH, HIDDEN, device=dev)
    gy = torch.rand(SEQ, BATCH, HIDDEN, device=dev)
    weights = direct.pack(params)
    y, hy, cy, reserve = direct.forward(x, h0, c0, weights,
                                        (SEQ, BATCH, HIDDEN), True)
    dx, dhx, dcx = direct.backward_data((SEQ, BATCH, INPUT), y, gy, h0, None,
                                        c0, None, weights, reserve)
    dw = direct.backward_weights(x, h0, y, reserve)

    slot = p()
    config = ctypes.byref(direct.config)
    where = b"model.mlir:3:5"
    stream = torch.cuda.current_stream().cuda_stream
    inv = lib.cmrtInvocationBegin(stream)
    nbytes = lib.cmrtInvocationRnnReserveBytes(inv, ctypes.byref(slot),
                                               config, where)
    w2 = torch.empty_like(weights)
    pointers = (p * len(params))(*[t.data_ptr() for t in params])
    lib.cmrtInvocationRnnWeights(inv, ctypes.byref(slot), config, 0,
                                 pointers, len(params), w2.data_ptr(), where)
    y2, hy2, cy2 = (torch.empty_like(t) for t in (y, hy, cy))
    dx2, dhx2, dcx2 = (torch.empty_like(t) for t in (dx, dhx, dcx))
    dw2 = torch.empty_like(dw)
    r2 = torch.empty(max(nbytes, 1), dtype=torch.uint8, device=dev)
    ptr = rnn_runtime._pointer
    buffers = rnn_runtime.Buffers(
        x=ptr(x), y=ptr(y2), hx=ptr(h0), hy=ptr(hy2), cx=ptr(c0),
        cy=ptr(cy2), dy=ptr(gy), dx=ptr(dx2), dhx=ptr(dhx2), dcx=ptr(dcx2),
        weights=ptr(w2), dweights=ptr(dw2), reserve=ptr(r2))
    for op in (1, 2, 3):
        lib.cmrtInvocationRnn(inv, ctypes.byref(slot), config, op,
                              ctypes.byref(buffers), where)
    status = lib.cmrtInvocationEnd(inv)
    torch.cuda.synchronize()
    if status != 0:
        problems.append("invocation path failed: %s" %
                        lib.cmrtGetLastErrorMessage().decode())
    elif nbytes != direct.info["reserveBytes"]:
        problems.append("invocation reserve bytes %d != %d" % (
            nbytes, direct.info["reserveBytes"]))
    else:
        for name, a, b in (("weights", w2, weights), ("y", y2, y),
                           ("hy", hy2, hy), ("cy", cy2, cy), ("dx", dx2, dx),
                           ("dhx", dhx2, dhx), ("dcx", dcx2, dcx),
                           ("dweights", dw2, dw)):
            # Forward results must be identical; gradients may differ in
            # the last bits if cuDNN accumulates them in another order.
            tol = 0 if name in ("weights", "y", "hy", "cy") else 1e-6
            if a.dtype == torch.uint8:
                a, b = a.view(torch.float32), b.view(torch.float32)
            if not max_error(a, b) <= tol:
                problems.append("invocation %s differs from the direct "
                                "call by %.3g" % (name, max_error(a, b)))
    inv = lib.cmrtInvocationBegin(stream)
    lib.cmrtInvocationRnn(inv, ctypes.byref(slot), config, 7,
                          ctypes.byref(buffers), where)
    status = lib.cmrtInvocationEnd(inv)
    message = lib.cmrtGetLastErrorMessage().decode()
    if status == 0 or not message.startswith(
            "RNN at model.mlir:3:5: cmrtInvocationRnn expects op 0..3"):
        problems.append("bad op: status %d, message %r" % (status, message))
    return problems


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--filter", default="")
    args = parser.parse_args(argv)
    if RUNTIME is None:
        print("expects CUDNN_MLIR_RUNTIME_LIB to name "
              "libcudnn-mlir-runtime.so, but it is not set")
        return 2
    torch.backends.cudnn.allow_tf32 = False
    print("device: %s, torch %s, cuDNN %s" % (
        torch.cuda.get_device_name(), torch.__version__,
        torch.backends.cudnn.version()))
    failed = passed = 0
    for name, spec in cases():
        if args.filter not in name:
            continue
        try:
            failures, info, worst = run_case(name, *spec)
        except Exception as e:  # report and go on: one line per case
            failures, info, worst = ["%s: %s" % (type(e).__name__, e)], {}, 0
        if failures:
            failed += 1
            print("FAIL %s: %s" % (name, "; ".join(failures)))
        else:
            passed += 1
            print("PASS %s (algo %s, max err %.2g)" % (
                name, info.get("algo"), worst))
    if not args.filter:
        problems = error_cases() + invocation_cases()
        for problem in problems:
            print("FAIL %s" % problem)
        failed += len(problems)
        print("error and invocation cases: %d failed" % len(problems))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
