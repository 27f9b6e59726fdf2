#!/usr/bin/env python3
"""Prints a function: one tcp.conv2d followed by a chain of N tcp.tanh ops."""
import sys

n = int(sys.argv[1])
t = "tensor<1x4x8x8xf16>"
print(f"func.func @chain(%x: {t}, %w: tensor<4x4x3x3xf16>) -> {t} {{")
print(f"  %v0 = tcp.conv2d %x, %w {{dilation = array<i64: 1, 1>, "
      f"pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}} "
      f": {t}, tensor<4x4x3x3xf16> -> {t}")
for i in range(1, n + 1):
    print(f"  %v{i} = tcp.tanh %v{i - 1} : {t} -> {t}")
print(f"  return %v{n} : {t}")
print("}")
