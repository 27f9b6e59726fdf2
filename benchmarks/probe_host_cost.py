#!/usr/bin/env python3
"""Host cost of calling a compiled module, split into its parts.

On a module whose GPU work is small (the GPU suite's small cases), so that
the host never waits for the GPU's launch queue, times per call:
- `call`: module(*inputs), the whole Python entry (checks, output
  allocation, the C entry);
- `entry`: the compiled C entry alone (cmrt_entry_<name> through ctypes
  with prepared pointers and reused outputs): runtime calls, allocations,
  kernel launches, graph executions;
- `alloc`: torch.empty_strided of the module's outputs;
then lists the CUDA runtime calls the entry makes with their mean host
time (torch.profiler). Usage, on the GPU machine with CUDNN_MLIR_RUNTIME_LIB
set:
  python3 benchmarks/probe_host_cost.py build/gpu-suite/<case>.so ...
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import cudnn_mlir  # noqa: E402

cudnn_mlir.load_runtime_before_torch()
import torch  # noqa: E402

CALLS = 2000


def per_call_us(fn, calls=CALLS):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / calls * 1e6


def probe(path):
    module = cudnn_mlir.load_module(path)
    entry = next(iter(module.entries))
    spec = module.entries[entry]
    function, ins, outs, array_type = module._plan(entry)
    inputs = [torch.empty_strided(dims, strides, dtype=dtype, device="cuda")
              .uniform_(0.5, 1.5) for dtype, dims, strides, _ in ins]
    outputs = [torch.empty_strided(dims, strides, dtype=dtype, device="cuda")
               for dtype, dims, strides in outs]
    pointers = array_type(*[t.data_ptr() for t in inputs + outputs])
    stream = torch.cuda.current_stream().cuda_stream

    def raw():
        status = function(stream, pointers)
        if status:
            raise RuntimeError("entry failed with status %d" % status)

    t_call = per_call_us(lambda: module(*inputs))
    t_entry = per_call_us(raw)
    t_alloc = per_call_us(lambda: [
        torch.empty_strided(dims, strides, dtype=dtype, device="cuda")
        for dtype, dims, strides in outs])
    print("%s: call %.1f us, entry %.1f us, output allocation %.1f us "
          "(%d inputs, %d outputs)" % (os.path.basename(path), t_call,
                                       t_entry, t_alloc, len(spec.inputs),
                                       len(spec.outputs)))
    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CPU,
                        torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(100):
            raw()
        torch.cuda.synchronize()
    rows = sorted(prof.key_averages(), key=lambda e: -e.cpu_time_total)
    for event in rows[:12]:
        if event.cpu_time_total <= 0:
            continue
        print("    %-36s %7.2f us x %.2f per call (host)" % (
            event.key[:36], event.cpu_time_total / event.count,
            event.count / 100))


def main(argv):
    for path in argv[1:]:
        probe(path)


if __name__ == "__main__":
    main(sys.argv)
