"""Hands every serialized cuDNN graph of an LLVM-dialect module (the
@__cmrt_graph<N>_words constants convert-cudnn-to-llvm writes) to the
runtime, as a compiled model would, and prints its verdict and its dump:
what the runtime will build, checked without a GPU.

    python3 dump_graph_words.py RUNTIME_LIB MODULE.mlir
"""

import ctypes
import re
import struct
import sys

WORDS = re.compile(
    r'@(__cmrt_graph\d+)_words\(dense<(?:"0x([0-9A-Fa-f]+)"|\[([^\]]*)\])>')


def words_of(hex_bytes, listed):
    if hex_bytes:  # the little-endian bytes of the i64 array
        raw = bytes.fromhex(hex_bytes)
        return list(struct.unpack("<%dq" % (len(raw) // 8), raw))
    return [int(w) for w in listed.split(",")]


def main(lib_path, module_path):
    lib = ctypes.CDLL(lib_path)
    lib.cmrtGetLastErrorMessage.restype = ctypes.c_char_p
    with open(module_path) as f:
        text = f.read()
    graphs = WORDS.findall(text)
    print("%d graph(s)" % len(graphs))
    for name, hex_bytes, listed in graphs:
        words = words_of(hex_bytes, listed)
        array = (ctypes.c_int64 * len(words))(*words)
        status = lib.cmrtValidateGraphDescription(array, len(words))
        if status != 0:
            print("%s: invalid (status %d): %s" % (
                name, status, lib.cmrtGetLastErrorMessage().decode()))
            continue
        buffer = ctypes.create_string_buffer(1 << 16)
        lib.cmrtDumpGraphDescription(array, len(words), buffer,
                                     len(buffer), None)
        print("%s: valid\n%s" % (name, buffer.value.decode()))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
