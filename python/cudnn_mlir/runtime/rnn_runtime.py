"""The runtime's RNN entry points (cmrtRnn*, docs/runtime.md "RNNs") on
torch tensors.

A thin binding of the C ABI: ``RuntimeRnn`` builds (or finds in the
runtime's cache) the cuDNN RNN for one configuration, packs PyTorch's flat
parameters into cuDNN's weight space, and runs the forward pass and both
backward passes on the current CUDA stream. The GPU tests and the RNN
benchmark compare it with torch.nn.LSTM/GRU/RNN.

Load the runtime before torch (``loader.load_runtime_before_torch``) so that
both use one cuDNN.
"""

import ctypes

CONFIG_VERSION = 1
TRAINABLE = 1
VARIABLE_LENGTHS = 2
AUTOTUNE = 4

CELLS = {"rnn_relu": 0, "rnn_tanh": 1, "lstm": 2, "gru": 3}
# cudnnDataType_t
DATA_TYPES = {"f32": 0, "f64": 1, "f16": 2, "bf16": 9}
# cudnnRNNDataLayout_t
SEQ_MAJOR, PACKED, BATCH_MAJOR = 0, 1, 2


# The ctypes twins of Runtime.h's structs: test/Python/abi-layout.test fails
# when one's size, a field's name or its offset differs from the header's.
class Config(ctypes.Structure):
    """cmrtRnnConfig."""
    _fields_ = [(name, ctypes.c_int64) for name in (
        "version", "cell", "direction", "bias", "layout", "math", "algo",
        "dataType", "inputSize", "hiddenSize", "projSize", "numLayers",
        "maxSeqLength", "batch", "flags")] + [
        ("dropout", ctypes.c_double), ("dropoutSeed", ctypes.c_int64)]


class Info(ctypes.Structure):
    """cmrtRnnInfo."""
    _fields_ = [(name, ctypes.c_int64) for name in (
        "weightSpaceBytes", "workspaceInferenceBytes",
        "workspaceTrainingBytes", "reserveBytes", "paramCount", "algo",
        "mathType", "autotuned", "paramBytes")]


BUFFER_NAMES = ("seqLengths", "hostSeqLengths", "x", "y", "hx", "hy", "cx",
                "cy", "dy", "dx", "dhy", "dhx", "dcy", "dcx", "weights",
                "dweights", "reserve")


class Buffers(ctypes.Structure):
    """cmrtRnnBuffers."""
    _fields_ = [(name, ctypes.c_void_p) for name in BUFFER_NAMES]


class RnnRuntimeError(RuntimeError):
    pass


def _bind(lib):
    if getattr(lib, "_cmrt_rnn_bound", False):
        return lib
    p = ctypes.c_void_p
    lib.cmrtGetLastErrorMessage.restype = ctypes.c_char_p
    lib.cmrtGetLastErrorMessage.argtypes = []
    signatures = {
        "cmrtRnnGetOrBuild": [ctypes.POINTER(Config), p, ctypes.POINTER(p)],
        "cmrtRnnRelease": [p],
        "cmrtRnnGetInfo": [p, ctypes.POINTER(Info)],
        "cmrtRnnPackWeights": [p, p, ctypes.POINTER(p), ctypes.c_int64, p],
        "cmrtRnnUnpackWeights": [p, p, p, ctypes.POINTER(p), ctypes.c_int64],
        "cmrtRnnForward": [p, p, ctypes.c_int64, ctypes.POINTER(Buffers)],
        "cmrtRnnBackwardData": [p, p, ctypes.POINTER(Buffers)],
        "cmrtRnnBackwardWeights": [p, p, ctypes.POINTER(Buffers)],
    }
    for name, args in signatures.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_int
    lib._cmrt_rnn_bound = True
    return lib


def _pointer(tensor):
    return None if tensor is None else tensor.data_ptr()


class RuntimeRnn:
    """One cmrtRnn. Sizes follow torch.nn.RNNBase; ``layout`` is SEQ_MAJOR
    ([T, N, V]), BATCH_MAJOR ([N, T, V]) or PACKED (PackedSequence.data)."""

    def __init__(self, lib, cell, input_size, hidden_size, max_seq_length,
                 batch, num_layers=1, bidirectional=False, bias=True,
                 proj_size=0, layout=SEQ_MAJOR, dtype="f32",
                 trainable=False, variable_lengths=False, dropout=0.0,
                 seed=0, algo=-1, math=0, autotune=False):
        import torch
        self.torch = torch
        self.lib = _bind(lib)
        self.cell = cell
        self.dtype = {"f32": torch.float32, "f64": torch.float64,
                      "f16": torch.float16, "bf16": torch.bfloat16}[dtype]
        self.config = Config(
            version=CONFIG_VERSION, cell=CELLS[cell],
            direction=1 if bidirectional else 0, bias=2 if bias else 0,
            layout=layout, math=math, algo=algo, dataType=DATA_TYPES[dtype],
            inputSize=input_size, hiddenSize=hidden_size, projSize=proj_size,
            numLayers=num_layers, maxSeqLength=max_seq_length, batch=batch,
            flags=(TRAINABLE if trainable else 0)
            | (VARIABLE_LENGTHS if variable_lengths else 0)
            | (AUTOTUNE if autotune else 0),
            dropout=dropout, dropoutSeed=seed)
        self.handle = ctypes.c_void_p()
        self._check(self.lib.cmrtRnnGetOrBuild(
            ctypes.byref(self.config), self._stream(),
            ctypes.byref(self.handle)))
        info = Info()
        self._check(self.lib.cmrtRnnGetInfo(self.handle, ctypes.byref(info)))
        self.info = {name: getattr(info, name) for name, _ in Info._fields_}
        self.states = num_layers * (2 if bidirectional else 1)
        self.out_size = proj_size or hidden_size

    def __del__(self):
        if getattr(self, "handle", None):
            self.lib.cmrtRnnRelease(self.handle)
            self.handle = None

    def _check(self, status):
        if status != 0:
            raise RnnRuntimeError("cmrt status %d: %s" % (
                status, self.lib.cmrtGetLastErrorMessage().decode()))

    def _stream(self):
        return ctypes.c_void_p(self.torch.cuda.current_stream().cuda_stream)

    def _empty_bytes(self, nbytes, device):
        return self.torch.empty(max(nbytes, 1), dtype=self.torch.uint8,
                                device=device)

    def _copy_weights(self, params, weights, unpack):
        pointers = (ctypes.c_void_p * len(params))(
            *[p.data_ptr() for p in params])
        entry = (self.lib.cmrtRnnUnpackWeights if unpack
                 else self.lib.cmrtRnnPackWeights)
        if unpack:
            self._check(entry(self.handle, self._stream(),
                              weights.data_ptr(), pointers, len(params)))
        else:
            self._check(entry(self.handle, self._stream(), pointers,
                              len(params), weights.data_ptr()))

    def pack(self, params):
        """The weight space (a uint8 tensor) from PyTorch's parameters."""
        params = [p.detach().contiguous() for p in params]
        weights = self._empty_bytes(self.info["weightSpaceBytes"],
                                    params[0].device)
        self._copy_weights(params, weights, unpack=False)
        return weights

    def unpack(self, weights, like):
        """Tensors shaped like `like` (the parameters) from a weight space."""
        params = [self.torch.empty_like(p) for p in like]
        self._copy_weights(params, weights, unpack=True)
        return params

    def _run(self, entry, *args, **buffers):
        b = Buffers(**{k: _pointer(v) for k, v in buffers.items()})
        self._check(entry(self.handle, self._stream(), *args,
                          ctypes.byref(b)))

    def forward(self, x, hx, cx, weights, y_shape, training=False,
                lengths=None):
        """(y, hy, cy, reserve); cy is None for cells other than LSTM."""
        t = self.torch
        y = t.empty(y_shape, dtype=self.dtype, device=x.device)
        batch = self.config.batch
        hy = t.empty(self.states, batch, self.out_size, dtype=self.dtype,
                     device=x.device)
        cy = (t.empty(self.states, batch, self.config.hiddenSize,
                      dtype=self.dtype, device=x.device)
              if self.cell == "lstm" else None)
        reserve = (self._empty_bytes(self.info["reserveBytes"], x.device)
                   if training else None)
        self._run(self.lib.cmrtRnnForward, 1 if training else 0,
                  seqLengths=lengths, x=x, y=y, hx=hx, hy=hy, cx=cx, cy=cy,
                  weights=weights, reserve=reserve)
        return y, hy, cy, reserve

    def backward_data(self, x_shape, y, dy, hx, dhy, cx, dcy, weights,
                      reserve, lengths=None):
        """(dx, dhx, dcx)."""
        t = self.torch
        dx = t.empty(x_shape, dtype=self.dtype, device=y.device)
        dhx = t.empty_like(hx) if hx is not None else None
        dcx = t.empty_like(cx) if cx is not None else None
        self._run(self.lib.cmrtRnnBackwardData, seqLengths=lengths, y=y,
                  dy=dy, dx=dx, hx=hx, dhy=dhy, dhx=dhx, cx=cx, dcy=dcy,
                  dcx=dcx, weights=weights, reserve=reserve)
        return dx, dhx, dcx

    def backward_weights(self, x, hx, y, reserve, lengths=None):
        """The weight-space gradient (uint8 bytes; unpack() it)."""
        dweights = self._empty_bytes(self.info["weightSpaceBytes"], x.device)
        self._run(self.lib.cmrtRnnBackwardWeights, seqLengths=lengths, x=x,
                  hx=hx, y=y, dweights=dweights, reserve=reserve)
        return dweights
