"""PyTorch's time for the graphs RuntimeBench plans, in the same run.

Same shapes, dtypes and layouts (fp16, channels-last convs), timed the same
way (CUDA events, median of 9 rounds of 20 runs after 5 warm-up runs), once
with torch.backends.cudnn.benchmark off (cuDNN heuristics, like the
runtime's default) and once on (PyTorch's autotuning). Prints
"torch <case> default_us <t> benchmark_us <t>" lines.
"""
import statistics

import torch
import torch.nn.functional as F


def gpu_us(fn):
    for _ in range(5):
        fn()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    rounds = []
    for _ in range(9):
        start.record()
        for _ in range(20):
            fn()
        stop.record()
        stop.synchronize()
        rounds.append(start.elapsed_time(stop) * 1000.0 / 20)
    return statistics.median(rounds)


def conv_case(n, c, hw):
    x = torch.ones(n, c, hw, hw, device="cuda", dtype=torch.half)
    x = x.to(memory_format=torch.channels_last)
    w = torch.ones(c, c, 3, 3, device="cuda", dtype=torch.half)
    w = w.to(memory_format=torch.channels_last)
    b = torch.ones(c, device="cuda", dtype=torch.half)
    return lambda: F.relu(F.conv2d(x, w, b, padding=1))


def matmul_case(m, k, n):
    a = torch.ones(m, k, device="cuda", dtype=torch.half)
    b = torch.ones(k, n, device="cuda", dtype=torch.half)
    bias = torch.ones(n, device="cuda", dtype=torch.half)
    return lambda: torch.addmm(bias, a, b)


CASES = {
    "conv3x3_bias_relu_fp16_n32_c64_56x56": lambda: conv_case(32, 64, 56),
    "conv3x3_bias_relu_fp16_n32_c256_14x14": lambda: conv_case(32, 256, 14),
    "matmul_bias_fp16_4096x4096x4096": lambda: matmul_case(4096, 4096, 4096),
    "matmul_bias_fp16_8192x1024x1024": lambda: matmul_case(8192, 1024, 1024),
}


def main():
    print(f"torch_version {torch.__version__} cudnn {torch.backends.cudnn.version()}")
    with torch.no_grad():
        for name, make in CASES.items():
            times = {}
            for benchmark in (False, True):
                torch.backends.cudnn.benchmark = benchmark
                times[benchmark] = gpu_us(make())
            print(f"torch {name} default_us {times[False]:.2f} "
                  f"benchmark_us {times[True]:.2f}")


if __name__ == "__main__":
    main()
