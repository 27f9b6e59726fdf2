#!/usr/bin/env python3
"""Writes a ResNet-18 forward pass (inference, batch norm folded into conv
bias, as deployed models are) in TCP, as torch-mlir's TorchToTcp would write
it: NCHW activations, KCRS weights, parameters as function arguments, biases
broadcast with tcp.broadcast, ReLU as tcp.clamp.

    python3 examples/gen_resnet18_tcp.py > examples/resnet18.mlir
"""
import argparse


CHANNELS_LAST = ' {cudnn.layout = "channels_last"}'


class Writer:
    def __init__(self, batch, dtype, channels_last=False):
        self.batch, self.dtype = batch, dtype
        # Image and conv weights stored channels-last at the boundary, as
        # PyTorch's channels_last tensors are.
        self.channels_last = channels_last
        self.args, self.body, self.n = [], [], 0
        self.sizes = {batch}  # index constants the broadcasts need

    def t(self, *dims):
        return "tensor<%sx%s>" % ("x".join(map(str, dims)), self.dtype)

    def value(self):
        self.n += 1
        return "%%%d" % (self.n - 1)

    def arg(self, name, *dims):
        marked = self.channels_last and len(dims) == 4 and dims[2] * dims[3] > 1
        self.args.append("%%%s: %s%s" % (name, self.t(*dims),
                                         CHANNELS_LAST if marked else ""))
        return "%" + name

    def emit(self, text):
        self.body.append("  " + text)

    def conv(self, x, cin, hw, cout, k, stride, pad, name):
        w = self.arg(name + "_w", cout, cin, k, k)
        b = self.arg(name + "_b", 1, cout, 1, 1)
        out = (hw + 2 * pad - k) // stride + 1
        y = self.value()
        self.emit("%s = tcp.conv2d %s, %s {dilation = array<i64: 1, 1>, "
                  "pad = array<i64: %d, %d, %d, %d>, stride = array<i64: %d, %d>}"
                  " : %s, %s -> %s" % (y, x, w, pad, pad, pad, pad, stride,
                                       stride, self.t(self.batch, cin, hw, hw),
                                       self.t(cout, cin, k, k),
                                       self.t(self.batch, cout, out, out)))
        full = self.t(self.batch, cout, out, out)
        bb = self.value()
        self.emit("%s = tcp.broadcast %s, %%c%d, %%c%d, %%c%d {axes = [0, 2, 3]} "
                  ": %s, index, index, index -> %s"
                  % (bb, b, self.batch, out, out, self.t(1, cout, 1, 1), full))
        self.sizes.update({self.batch, out})
        z = self.value()
        self.emit("%s = tcp.add %s, %s : %s, %s -> %s" % (z, y, bb, full, full, full))
        return z, out

    def relu(self, x, shape):
        y = self.value()
        t = self.t(*shape)
        self.emit("%s = tcp.clamp %s {min_float = 0.000000e+00 : f32} : %s -> %s"
                  % (y, x, t, t))
        return y

    def add(self, a, b, shape):
        y = self.value()
        t = self.t(*shape)
        self.emit("%s = tcp.add %s, %s : %s, %s -> %s" % (y, a, b, t, t, t))
        return y


def resnet18(batch, dtype, classes, channels_last=False):
    w = Writer(batch, dtype, channels_last)
    x = w.arg("x", batch, 3, 224, 224)
    h, hw = w.conv(x, 3, 224, 64, 7, 2, 3, "conv1")
    h = w.relu(h, (batch, 64, hw, hw))
    p = w.value()
    out = (hw + 2 - 3) // 2 + 1
    w.emit("%s = tcp.max_pool2d %s {kernel_size = array<i64: 3, 3>, pad = "
           "array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : %s -> %s"
           % (p, h, w.t(batch, 64, hw, hw), w.t(batch, 64, out, out)))
    h, hw, cin = p, out, 64
    for layer, cout in enumerate([64, 128, 256, 512], start=1):
        for block in range(2):
            stride = 2 if (layer > 1 and block == 0) else 1
            name = "layer%d_%d" % (layer, block)
            y, ohw = w.conv(h, cin, hw, cout, 3, stride, 1, name + "_conv1")
            y = w.relu(y, (batch, cout, ohw, ohw))
            y, ohw = w.conv(y, cout, ohw, cout, 3, 1, 1, name + "_conv2")
            if stride != 1 or cin != cout:
                skip, _ = w.conv(h, cin, hw, cout, 1, stride, 0, name + "_down")
            else:
                skip = h
            y = w.add(y, skip, (batch, cout, ohw, ohw))
            h = w.relu(y, (batch, cout, ohw, ohw))
            hw, cin = ohw, cout
    pooled = w.value()
    w.emit("%s = tcp.reduce_mean %s {axes = array<i64: 2, 3>, keep_dims} : %s -> %s"
           % (pooled, h, w.t(batch, 512, hw, hw), w.t(batch, 512, 1, 1)))
    flat = w.value()
    w.emit("%s = tensor.collapse_shape %s [[0], [1, 2, 3]] : %s into %s"
           % (flat, pooled, w.t(batch, 512, 1, 1), w.t(batch, 512)))
    fc_w = w.arg("fc_w", 512, classes)
    fc_b = w.arg("fc_b", 1, classes)
    logits = w.value()
    w.emit("%s = tcp.matmul %s, %s : %s, %s -> %s"
           % (logits, flat, fc_w, w.t(batch, 512), w.t(512, classes),
              w.t(batch, classes)))
    bias = w.value()
    w.emit("%s = tcp.broadcast %s, %%c%d {axes = [0]} : %s, index -> %s"
           % (bias, fc_b, batch, w.t(1, classes), w.t(batch, classes)))
    out = w.add(logits, bias, (batch, classes))
    w.emit("return %s : %s" % (out, w.t(batch, classes)))

    lines = ["// ResNet-18 forward, inference, batch %d, %s, batch norm folded into"
             % (batch, dtype),
             "// conv biases. Generated by examples/gen_resnet18_tcp.py; do not edit.",
             "func.func @resnet18(%s) -> %s {" % (",\n    ".join(w.args),
                                                 w.t(batch, classes))]
    lines += ["  %%c%d = arith.constant %d : index" % (s, s) for s in sorted(w.sizes)]
    lines += w.body + ["}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--dtype", default="f16", choices=["f16", "bf16", "f32"])
    ap.add_argument("--classes", type=int, default=1000)
    ap.add_argument("--channels-last", action="store_true",
                    help="the image and conv weights arrive channels-last")
    args = ap.parse_args()
    print(resnet18(args.batch, args.dtype, args.classes, args.channels_last),
          end="")


if __name__ == "__main__":
    main()
