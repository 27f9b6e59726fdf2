"""A compiled model replayed from a CUDA graph:
`cudnn_mlir.compile(model, inputs, cuda_graph=True)` (docs/frontend.md,
"CUDA graphs").

A call of a compiled module enqueues one cuDNN execute or kernel launch per
graph and generated kernel, each a few microseconds of host time; at small
batches the GPU waits for them. Captured once into a CUDA graph, a call is
one `cudaGraphLaunch`, as torch.compile's `mode="reduce-overhead"` and
`"max-autotune"` do.

- **Capture.** Two warm-up calls on a stream of this object's own build the
  cuDNN plans, grow that stream's workspace pool to what the module needs
  and load the kernels; then the third call is captured. The stream is
  private so that other models' larger graphs do not grow its workspace
  pool (a growth keeps the buffer a capture used, but that memory then
  stays allocated beside the larger one until cmrtShutdown).
- **Inputs** are copied into the captured call's input buffers (any strides
  and devices: `copy_`), so they need only the compiled shapes and dtypes.
- **Outputs** are copies of the captured call's outputs, which every replay
  overwrites.
- **Parameters** are read at replay, so in-place updates are seen. A
  parameter that moved (`model.cuda()`, a new `.data`) makes the next call
  capture again. RNN weights are packed inside the graph (every replay
  repacks from the parameters), so their updates are seen too.
- **Refused:** models that update running statistics (training-mode batch
  norm): the warm-up calls would update them too.
"""

import torch

# Calls before the captured one: the first builds the plans and grows the
# workspace pool; the second runs with everything built, as the replays do.
_WARMUP_CALLS = 2


def _map_tensors(value, fn):
    if isinstance(value, torch.Tensor):
        return fn(value)
    if isinstance(value, tuple):
        return tuple(_map_tensors(v, fn) for v in value)
    if isinstance(value, list):
        return [_map_tensors(v, fn) for v in value]
    return value


class CudaGraphModel:
    """`compiled` (a runner.CompiledModel) captured into a CUDA graph for
    inputs like `example_inputs`."""

    def __init__(self, compiled, example_inputs):
        imported = compiled.imported
        updates = [r.name for r in imported.results if r.kind == "update"]
        if updates or imported.counters:
            raise ValueError(
                "expects a model that updates no buffers for cuda_graph=True "
                "(its warm-up calls would update them too), but it updates "
                "%s (call model.eval(), or compile without cuda_graph)"
                % ", ".join(repr(n) for n in (updates or imported.counters)))
        for i, x in enumerate(example_inputs):
            if not isinstance(x, torch.Tensor) or not x.is_cuda:
                raise ValueError(
                    "expects input %d to be a CUDA tensor for cuda_graph=True, "
                    "but got %s" % (i, x.device if isinstance(
                        x, torch.Tensor) else type(x).__name__))
        self.compiled = compiled
        self.device = example_inputs[0].device
        self._stream = torch.cuda.Stream(device=self.device)
        self._static = [x.clone() for x in example_inputs]
        self._graph = None
        self._outputs = None
        self._pointers = None
        self.captures = 0
        self._capture()

    def _bound_pointers(self):
        return [t.data_ptr() for t in self.compiled._bound]

    def _capture(self):
        compiled = self.compiled
        current = torch.cuda.current_stream(self.device)
        self._stream.wait_stream(current)
        with torch.cuda.stream(self._stream):
            for _ in range(_WARMUP_CALLS):
                compiled(*self._static)
        current.wait_stream(self._stream)
        # The graph packs RNN weights itself, so every replay sees the
        # parameters' values as they are then.
        compiled.invalidate_packed_weights()
        graph = torch.cuda.CUDAGraph()
        try:
            with torch.cuda.graph(graph, stream=self._stream):
                outputs = compiled(*self._static)
        except RuntimeError as error:
            raise RuntimeError(
                "expects the compiled model to be capturable into a CUDA "
                "graph, but capturing it failed: %s" % error) from error
        self._graph, self._outputs = graph, outputs
        self._pointers = self._bound_pointers()
        self.captures += 1

    def __call__(self, *inputs):
        if len(inputs) != len(self._static):
            raise TypeError("expects %d input%s, but got %d"
                            % (len(self._static),
                               "" if len(self._static) == 1 else "s",
                               len(inputs)))
        for i, (static, x) in enumerate(zip(self._static, inputs)):
            if not isinstance(x, torch.Tensor) or x.shape != static.shape \
                    or x.dtype != static.dtype:
                raise ValueError(
                    "expects input %d to be %s %s as captured, but got %s "
                    "(cudnn_mlir.compile(..., dynamic=True) captures one "
                    "graph per input shape)"
                    % (i, list(static.shape), static.dtype,
                       "%s %s" % (list(x.shape), x.dtype)
                       if isinstance(x, torch.Tensor) else type(x).__name__))
        if self._bound_pointers() != self._pointers:
            self._capture()  # a parameter moved: its old address is baked in
        for static, x in zip(self._static, inputs):
            static.copy_(x)
        self._graph.replay()
        return _map_tensors(self._outputs, torch.Tensor.clone)
