"""Writes and prints small .npy files without numpy (for the cudnn-run tests).

  npy.py write PATH DESCR SHAPE [iota|zeros|V,V,...] [--version N] [--fortran]
  npy.py print PATH

SHAPE is comma-separated ('' for rank 0). `print` shows the descr, the shape
and the values in logical order.
"""
import argparse
import ast
import struct

CODES = {"f2": "e", "f4": "f", "f8": "d", "b1": "?", "i1": "b", "i4": "i",
         "i8": "q"}


def write(args):
    shape = tuple(int(d) for d in args.shape.split(",") if d)
    count = 1
    for d in shape:
        count *= d
    code = CODES[args.descr[1:]]
    if args.values == "iota":
        data = list(range(count))
    elif args.values == "zeros":
        data = [0] * count
    else:
        data = [float(v) for v in args.values.split(",")]
    if code in "?biq":
        data = [int(v) for v in data]
    order = ">" if args.descr[0] == ">" else "<"
    payload = struct.pack("%s%d%s" % (order, len(data), code), *data)
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %r, }" % (
        args.descr, args.fortran, shape)
    prefix = 10 if args.version == 1 else 12
    header += " " * ((64 - (prefix + len(header) + 1) % 64) % 64) + "\n"
    length = struct.pack("<H" if args.version == 1 else "<I", len(header))
    with open(args.path, "wb") as f:
        f.write(b"\x93NUMPY" + bytes([args.version, 0]) + length +
                header.encode("latin1") + payload)


def show(args):
    with open(args.path, "rb") as f:
        raw = f.read()
    width = 2 if raw[6] == 1 else 4
    length = int.from_bytes(raw[8:8 + width], "little")
    start = 8 + width
    header = ast.literal_eval(raw[start:start + length].decode("latin1"))
    code = CODES[header["descr"][1:]]
    count = 1
    for d in header["shape"]:
        count *= d
    values = struct.unpack("<%d%s" % (count, code), raw[start + length:])
    print("descr=%s shape=%s" % (header["descr"], list(header["shape"])))
    print("values=" + ",".join(
        ("%g" % v) if isinstance(v, float) else str(int(v)) for v in values))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write")
    w.add_argument("path")
    w.add_argument("descr")
    w.add_argument("shape")
    w.add_argument("values", nargs="?", default="iota")
    w.add_argument("--version", type=int, default=1)
    w.add_argument("--fortran", action="store_true")
    w.set_defaults(run=write)
    p = sub.add_parser("print")
    p.add_argument("path")
    p.set_defaults(run=show)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
