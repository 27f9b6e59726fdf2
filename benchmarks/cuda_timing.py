"""GPU time per call of a function, measured with CUDA events, shared by the
benchmark scripts: `warmup` calls, then the median over `repeats` runs of
(the time of `calls` back-to-back calls) / `calls`. `torch` is passed in
because the scripts import it only after loading the runtime (docs/abi.md,
"Loading")."""
import statistics


def median_ms_per_call(torch, fn, warmup, calls, repeats):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / calls)
    return statistics.median(times)
