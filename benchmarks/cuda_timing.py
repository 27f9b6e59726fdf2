"""GPU time per call of a function, measured with CUDA events, shared by the
benchmark scripts: `warmup` calls, then the median over `repeats` runs of
(the time of `calls` back-to-back calls) / `calls`. `torch` is passed in
because the scripts import it only after loading the runtime (docs/abi.md,
"Loading")."""
import statistics


def ms_per_call(torch, fn, calls):
    """One measurement: (the time of `calls` back-to-back calls) / `calls`."""
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / calls


def median_ms_per_call(torch, fn, warmup, calls, repeats):
    for _ in range(warmup):
        fn()
    return statistics.median(ms_per_call(torch, fn, calls)
                             for _ in range(repeats))


def ms_per_call_in_turns(torch, fns, rounds, calls):
    """The median over `rounds` of each function's ms_per_call, the
    functions taking turns round by round (so that a slow stretch of the
    machine hits every contender alike)."""
    times = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            times[i].append(ms_per_call(torch, fn, calls))
    return [statistics.median(t) for t in times]


def kernel_times(torch, fn, calls=20):
    """The GPU activities `fn` launches (torch.profiler over `calls` calls
    after one): (name, mean us per activity, activities per call) each."""
    fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    times = []
    for event in prof.key_averages():
        total = getattr(event, "device_time_total", None)
        if total is None:
            total = event.cuda_time_total
        if total > 0:
            times.append((event.key, total / event.count,
                          event.count / calls))
    return times


def kernel_sequence(torch, fn, before_call=None):
    """The GPU activities of one call of `fn` (after one untimed call), in
    the order they started: (name, us) each. `before_call`, if given, runs
    just before the profiled call."""
    fn()
    torch.cuda.synchronize()
    if before_call:
        before_call()
    with torch.profiler.profile(
            activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    kernels = [(event.time_range.start, event.name,
                event.time_range.elapsed_us())
               for event in prof.events()
               if event.device_type == torch.autograd.DeviceType.CUDA]
    return [(name, us) for _, name, us in sorted(kernels)]
