"""Patch-embedding convs (stride equal to the window, no padding, an RGB
input) in PyTorch on the GPU: cuDNN's conv against the same product as a
permute and one matmul, f16 channels-last, the two outputs compared. Why
tcp-fuse-for-cudnn's patch-conv-as-matmul exists (docs/fusion.md,
"Patch-embedding convs as one matmul").

    python3 benchmarks/patch_conv.py        (GPU machine)
"""
import torch
import torch.nn.functional as F

# (batch, channels, side, out channels, window): ViT-B/16, Swin-T's and
# ConvNeXt's 4x4 stems, ViT-B/16 at batch 1.
SHAPES = [(32, 3, 224, 768, 16), (32, 3, 224, 96, 4), (1, 3, 224, 768, 16),
          (32, 3, 224, 128, 4)]


def time_us(fn, calls=50):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(True), torch.cuda.Event(True)
    start.record()
    for _ in range(calls):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / calls * 1000


def main():
    torch.backends.cudnn.benchmark = True
    for n, c, side, k, p in SHAPES:
        def make(*shape):
            return torch.randn(*shape, device="cuda", dtype=torch.half).to(
                memory_format=torch.channels_last)
        x, w = make(n, c, side, side), make(k, c, p, p) * 0.05
        b = torch.randn(k, device="cuda", dtype=torch.half)
        g = side // p
        w_rows = w.permute(0, 2, 3, 1).reshape(k, p * p * c)  # [K, (R, S, C)]

        def conv():
            return F.conv2d(x, w, b, stride=p)

        def matmul():
            rows = x.permute(0, 2, 3, 1).reshape(n, g, p, g, p, c).permute(
                0, 1, 3, 2, 4, 5).reshape(n * g * g, p * p * c)
            return torch.addmm(b, rows, w_rows.t()).reshape(
                n, g, g, k).permute(0, 3, 1, 2)
        diff = (conv() - matmul()).abs().max().item()
        print("n%d c%d %dx%d -> %d k%d: conv %.1f us, permute+matmul %.1f us "
              "(max diff %.3g)" % (n, c, side, side, k, p, time_us(conv),
                                   time_us(matmul), diff), flush=True)


if __name__ == "__main__":
    main()
