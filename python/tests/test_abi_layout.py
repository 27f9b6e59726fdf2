"""The package's ctypes structs against Runtime.h: each class must have the
size, alignment, field names, offsets and field sizes of its C struct, as
the compiler reports them (runtime/unittests/AbiLayoutDump.cpp, whose path
CUDNN_MLIR_ABI_LAYOUT_DUMP gives; lit: test/Python/abi-layout.test). ctypes
cannot read the header, and a struct that drifted would only show as wrong
values at run time. Needs no torch, no GPU and no runtime library."""

import ast
import ctypes
import os
import subprocess
import sys
import unittest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, PYTHON_DIR)

from cudnn_mlir.runtime import manifest, rnn_runtime  # noqa: E402

DUMP = os.environ.get("CUDNN_MLIR_ABI_LAYOUT_DUMP")
PACKAGE_DIR = os.path.join(PYTHON_DIR, "cudnn_mlir")

# Each ctypes class of the package and the Runtime.h struct it binds.
BINDINGS = {
    "cmrtRnnConfig": rnn_runtime.Config,
    "cmrtRnnInfo": rnn_runtime.Info,
    "cmrtRnnBuffers": rnn_runtime.Buffers,
    "cmrtManifestArg": manifest.ManifestArg,
}


def read_dump():
    """{struct: (size, align, [(field, offset, size, align), ...])}."""
    out = subprocess.run([DUMP], capture_output=True, text=True, check=True)
    structs = {}
    fields = None
    for line in out.stdout.splitlines():
        words = line.split()
        if words[0] == "struct":
            fields = []
            structs[words[1]] = (int(words[2]), int(words[3]), fields)
        else:
            fields.append((words[1],) + tuple(int(w) for w in words[2:]))
    return structs


def ctypes_layout(cls):
    """(size, align, [(field, offset, size), ...]) of a ctypes class."""
    return (ctypes.sizeof(cls), ctypes.alignment(cls),
            [(name, getattr(cls, name).offset, getattr(cls, name).size)
             for name, _ in cls._fields_])


def structure_classes():
    """'module.Class' of every ctypes.Structure/Union subclass defined in
    the package, found in its source (importing every module would import
    torch)."""
    found = set()
    for folder, _, files in os.walk(PACKAGE_DIR):
        for file in files:
            if not file.endswith(".py"):
                continue
            path = os.path.join(folder, file)
            module = os.path.relpath(path, PYTHON_DIR)[:-3].replace(os.sep,
                                                                    ".")
            with open(path) as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and any(
                        ast.unparse(base).split(".")[-1]
                        in ("Structure", "Union", "LittleEndianStructure")
                        for base in node.bases):
                    found.add("%s.%s" % (module, node.name))
    return found


@unittest.skipUnless(DUMP, "CUDNN_MLIR_ABI_LAYOUT_DUMP is not set")
class AbiLayoutTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dump = read_dump()

    def test_the_dump_and_the_package_list_the_same_structs(self):
        self.assertEqual(sorted(self.dump), sorted(BINDINGS))

    def test_every_ctypes_struct_of_the_package_is_checked(self):
        checked = {"%s.%s" % (cls.__module__, cls.__name__)
                   for cls in BINDINGS.values()}
        self.assertEqual(sorted(structure_classes() - checked), [],
                         "add these to BINDINGS and their C structs to "
                         "runtime/unittests/AbiLayoutDump.cpp")

    def test_the_dump_lists_every_field(self):
        # Fields laid out one after the other with only alignment padding
        # between them: a field the dump left out would leave a gap.
        for struct, (size, align, fields) in self.dump.items():
            end = 0
            for name, offset, field_size, field_align in fields:
                padded = -(-end // field_align) * field_align
                self.assertEqual(offset, padded, "%s.%s" % (struct, name))
                end = offset + field_size
            self.assertEqual(size, -(-end // align) * align, struct)

    def test_ctypes_layouts_are_the_headers(self):
        problems = []
        for struct, cls in sorted(BINDINGS.items()):
            size, align, fields = self.dump[struct]
            want = (size, align, [f[:3] for f in fields])
            have = ctypes_layout(cls)
            if have != want:
                problems.append(describe(struct, cls, want, have))
        if problems:
            self.fail("\n" + "\n".join(problems))


def describe(struct, cls, want, have):
    """What differs between the C struct and its ctypes class."""
    lines = ["%s (Runtime.h) and %s.%s differ:"
             % (struct, cls.__module__, cls.__name__)]
    if want[:2] != have[:2]:
        lines.append("  size, alignment: C %d, %d; ctypes %d, %d"
                     % (want[0], want[1], have[0], have[1]))
    for i in range(max(len(want[2]), len(have[2]))):
        c = want[2][i] if i < len(want[2]) else None
        p = have[2][i] if i < len(have[2]) else None
        if c != p:
            lines.append("  field %d: C %s; ctypes %s" % (
                i, "%s at %d (%d bytes)" % c if c else "none",
                "%s at %d (%d bytes)" % p if p else "none"))
    return "\n".join(lines)


if __name__ == "__main__":
    unittest.main()
