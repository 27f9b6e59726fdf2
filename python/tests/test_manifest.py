"""parse_manifest, the runtime's parser (cmrtManifestParse) through ctypes:
the same cases and messages as runtime/unittests/ManifestTest.cpp. Needs the
runtime library (CUDNN_MLIR_RUNTIME_LIB, or this checkout's build), no torch
and no GPU."""

import ctypes
import os
import subprocess
import sys
import unittest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, PYTHON_DIR)

from cudnn_mlir.runtime import library, manifest  # noqa: E402
from cudnn_mlir.runtime.manifest import (  # noqa: E402
    DTYPE_SIZES, ManifestError, parse_manifest)

GOOD = ("cudnn-mlir-module 1\n"
        "entry forward\n"
        "arg 0 in f32 [1,64,56,56] [200704,3136,56,1]\n"
        "arg 1 in bf16 [64,64,3,3] [576,1,192,64]\n"
        "arg 2 in i64 [] []\n"
        "arg 3 out f16 [1,64,56,56] [200704,1,3584,64]\n"
        "end\n"
        "entry other_2\n"
        "arg 0 out i1 [0,5] [5,1]\n"
        "end\n")

ARG_LINE = ("expects line %d of the manifest to be 'arg <index> in|out <dtype> "
            "[dims] [strides]' or 'end', but got '%s'")
DIMS = ("expects line 3 of the manifest to have dims as [d0,d1,...] of "
        "non-negative integers, but got '%s'")


def with_body(body):
    return "cudnn-mlir-module 1\nentry f\n" + body + "end\n"


class ManifestTest(unittest.TestCase):
    def error_of(self, text):
        with self.assertRaises(ManifestError) as ctx:
            parse_manifest(text)
        self.assertIsInstance(ctx.exception, ValueError)
        return str(ctx.exception)

    def test_parses_entries_and_args(self):
        m = parse_manifest(GOOD)
        self.assertEqual(m.version, 1)
        self.assertEqual(list(m.entries), ["forward", "other_2"])
        f = m.entries["forward"]
        self.assertEqual(len(f.args), 4)
        self.assertEqual(len(f.inputs), 3)
        self.assertEqual(len(f.outputs), 1)
        a0 = f.args[0]
        self.assertEqual((a0.dtype, a0.dims, a0.strides),
                         ("f32", (1, 64, 56, 56), (200704, 3136, 56, 1)))
        self.assertEqual(a0.storage_elements, 200704)
        self.assertEqual(f.args[1].storage_bytes, 64 * 576 * 2)
        self.assertEqual(f.args[2].dims, ())
        self.assertEqual(f.args[2].num_elements, 1)
        self.assertEqual(f.args[2].storage_elements, 1)
        self.assertTrue(f.args[3].is_output)
        self.assertEqual(f.args[3].signature(),
                         "out f16 [1,64,56,56] [200704,1,3584,64]")
        o = m.entries["other_2"].args[0]
        self.assertEqual((o.dtype, o.storage_elements), ("i1", 0))

    def test_bytes_blank_lines_crlf_and_spaces(self):
        m = parse_manifest(b"cudnn-mlir-module 1\r\n\r\nentry  f\r\n"
                           b"  arg 0\tin f64 [2] [1]  \r\nend")
        self.assertEqual(m.entries["f"].args[0].dtype, "f64")

    def test_every_dtype(self):
        sizes = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1,
                 "i32": 4, "i64": 8}
        for name, size in sizes.items():
            arg = parse_manifest(with_body("arg 0 in %s [3] [1]\n" % name)) \
                .entries["f"].args[0]
            self.assertEqual(arg.dtype, name)
            self.assertEqual(arg.storage_bytes, 3 * size)

    def test_dtype_sizes_are_the_runtimes(self):
        # DTYPE_SIZES is a constant (importing this module loads nothing);
        # the runtime's cmrtManifestArg.elementBytes must agree with it.
        lib = manifest._bind(library.find_runtime())
        for name, size in DTYPE_SIZES.items():
            text = with_body("arg 0 in %s [3] [1]\n" % name).encode()
            handle = ctypes.c_void_p()
            self.assertEqual(lib.cmrtManifestParse(text, len(text),
                                                   ctypes.byref(handle)), 0)
            raw = manifest.ManifestArg()
            self.assertEqual(lib.cmrtManifestGetArg(handle, 0, 0,
                                                    ctypes.byref(raw)), 0)
            lib.cmrtManifestDestroy(handle)
            self.assertEqual((raw.dtypeName, raw.elementBytes),
                             (name.encode(), size))

    def test_rejects_empty(self):
        want = ("expects the manifest to start with 'cudnn-mlir-module 1', "
                "but got an empty manifest")
        self.assertEqual(self.error_of(""), want)
        self.assertEqual(self.error_of("\n\n"), want)

    def test_rejects_bad_magic(self):
        for line in ["cudnn-mlir-modul 1", "cudnn-mlir-module",
                     "cudnn-mlir-module x"]:
            self.assertEqual(
                self.error_of(line + "\n"),
                "expects line 1 of the manifest to be 'cudnn-mlir-module "
                "<version>', but got '%s'" % line)
        self.assertEqual(
            self.error_of("\ncudnn-mlir-module 1\n"),
            "expects line 2 of the manifest to be 'cudnn-mlir-module "
            "<version>', but got 'cudnn-mlir-module 1'")

    def test_rejects_other_versions(self):
        self.assertEqual(
            self.error_of("cudnn-mlir-module 2\nentry f\nend\n"),
            "expects manifest format version 1, but got version 2 (the module "
            "was compiled by another cudnn-mlir; recompile it or use a "
            "matching loader)")
        self.assertIn("but got version 0", self.error_of("cudnn-mlir-module 0"))

    def test_rejects_no_entries(self):
        self.assertEqual(
            self.error_of("cudnn-mlir-module 1\n"),
            "expects at least one entry in the manifest, but got none")

    def test_rejects_bad_entry_lines(self):
        head = "cudnn-mlir-module 1\n"
        for line in ["arg 0 in f32 [1] [1]", "entry", "entry a b"]:
            self.assertEqual(
                self.error_of(head + line + "\n"),
                "expects line 2 of the manifest to be 'entry <name>', but got "
                "'%s'" % line)
        self.assertEqual(
            self.error_of(head + "entry for-ward\nend\n"),
            "expects line 2 of the manifest to name the entry with letters, "
            "digits and '_' (not starting with a digit), but got 'for-ward'")
        self.assertIn("'1f'", self.error_of(head + "entry 1f\nend\n"))
        self.assertEqual(
            self.error_of(head + "entry f\nend\nentry f\nend\n"),
            "expects entry names to be unique, but got 'f' twice (line 4 of "
            "the manifest)")
        self.assertEqual(
            self.error_of(head + "entry f\nend\nend\n"),
            "expects line 4 of the manifest to be 'entry <name>', but got "
            "'end'")

    def test_rejects_missing_end(self):
        self.assertEqual(
            self.error_of("cudnn-mlir-module 1\nentry f\narg 0 in f32 [1] [1]"),
            "expects 'end' to close entry 'f' (line 2), but got the end of "
            "the manifest")
        self.assertEqual(
            self.error_of("cudnn-mlir-module 1\nentry f\nentry g\nend\n"),
            ARG_LINE % (3, "entry g"))

    def test_rejects_bad_arg_lines(self):
        for line in ["arg 0 in f32 [1]", "arg 0 in f32 [1, 2] [2,1]",
                     "argument 0 in f32 [1] [1] x"]:
            self.assertEqual(self.error_of(with_body(line + "\n")),
                             ARG_LINE % (3, line))

    def test_rejects_bad_index(self):
        self.assertEqual(
            self.error_of(with_body("arg 1 in f32 [1] [1]\n")),
            "expects line 3 of the manifest to have arg index 0, but got '1'")
        self.assertEqual(
            self.error_of(with_body("arg 0 in f32 [1] [1]\n"
                                    "arg 0 in f32 [1] [1]\n")),
            "expects line 4 of the manifest to have arg index 1, but got '0'")
        self.assertEqual(
            self.error_of(with_body("arg -0 in f32 [1] [1]\n")),
            "expects line 3 of the manifest to have arg index 0, but got "
            "'-0'")

    def test_rejects_bad_direction(self):
        self.assertEqual(
            self.error_of(with_body("arg 0 inout f32 [1] [1]\n")),
            "expects line 3 of the manifest to say 'in' or 'out', but got "
            "'inout'")
        self.assertEqual(
            self.error_of(with_body("arg 0 out f32 [1] [1]\n"
                                    "arg 1 in f32 [1] [1]\n")),
            "expects the ins of entry 'f' before its outs, but got an in "
            "after an out (line 4 of the manifest)")

    def test_rejects_bad_dtype(self):
        self.assertEqual(
            self.error_of(with_body("arg 0 in f8 [1] [1]\n")),
            "expects line 3 of the manifest to have a dtype of f16, bf16, "
            "f32, f64, i1, i8, i32 or i64, but got 'f8'")
        self.assertIn("'F32'", self.error_of(with_body("arg 0 in F32 [1] [1]")))

    def test_rejects_bad_dims(self):
        for dims, strides in [("[1,-2]", "[2,1]"), ("1,2", "[2,1]"),
                              ("[1,,2]", "[2,1]"), ("[1,2,]", "[2,1]"),
                              ("[x]", "[1]"), ("[1", "[1]"),
                              ("[4611686018427387904]", "[1]"),
                              ("[\u0661]", "[1]")]:
            self.assertEqual(
                self.error_of(with_body("arg 0 in f32 %s %s\n"
                                        % (dims, strides))),
                DIMS % dims)

    def test_rejects_bad_strides(self):
        self.assertEqual(
            self.error_of(with_body("arg 0 in f32 [2,3] [3,-1]\n")),
            "expects line 3 of the manifest to have strides as [s0,s1,...] "
            "of non-negative integers, but got '[3,-1]'")
        self.assertEqual(
            self.error_of(with_body("arg 0 in f32 [2,3] [3]\n")),
            "expects line 3 of the manifest to have one stride per dim (2), "
            "but got 1")
        self.assertEqual(
            self.error_of(with_body("arg 0 in f32 [] [1]\n")),
            "expects line 3 of the manifest to have one stride per dim (0), "
            "but got 1")

    def test_rejects_huge_buffers(self):
        self.assertEqual(
            self.error_of(with_body(
                "arg 0 in f32 [1073741824,1073741824] [1,1]\n")),
            "expects line 3 of the manifest to describe a buffer of fewer "
            "than 2^59 elements, but got [1073741824,1073741824] [1,1]")
        self.assertIn("2^59", self.error_of(
            with_body("arg 0 in f32 [2] [576460752303423488]\n")))
        parse_manifest(with_body(
            "arg 0 in f32 [0,1073741824,1073741824] [1,1,1]\n"))


def run_fresh(code, env):
    """Runs `code` in a fresh Python with the package importable."""
    env = dict(env, PYTHONPATH=PYTHON_DIR)
    return subprocess.run([sys.executable, "-c", code], env=env,
                          capture_output=True, text=True, timeout=120)


class RuntimeLookupTest(unittest.TestCase):
    def test_parsing_imports_no_torch(self):
        out = run_fresh(
            "import sys\n"
            "from cudnn_mlir.runtime.manifest import parse_manifest\n"
            "parse_manifest('cudnn-mlir-module 1\\nentry f\\nend\\n')\n"
            "print('imports torch:', 'torch' in sys.modules)\n",
            os.environ)
        self.assertEqual(out.stdout, "imports torch: False\n", out.stderr)

    def test_no_runtime_is_an_error_naming_where_it_looked(self):
        env = {k: v for k, v in os.environ.items()
               if k != library.RUNTIME_ENV}
        out = run_fresh(
            "from cudnn_mlir.runtime import library\n"
            "from cudnn_mlir.runtime.manifest import parse_manifest\n"
            "library.CHECKOUT_RUNTIME = '/nonexistent/build/lib.so'\n"
            "try:\n"
            "    parse_manifest('')\n"
            "except FileNotFoundError as e:\n"
            "    print(e)\n", env)
        self.assertEqual(
            out.stdout,
            "expects the cudnn-mlir runtime library "
            "(libcudnn-mlir-runtime.so), but found none: "
            "CUDNN_MLIR_RUNTIME_LIB is not set, no copy is loaded, and this "
            "checkout has no /nonexistent/build/lib.so (build it with "
            "scripts/setup.sh, or set CUDNN_MLIR_RUNTIME_LIB)\n", out.stderr)

    def test_a_runtime_already_loaded_is_used(self):
        # As after loading a model that found the runtime by its rpath.
        env = {k: v for k, v in os.environ.items()
               if k != library.RUNTIME_ENV}
        out = run_fresh(
            "import ctypes, os\n"
            "ctypes.CDLL(%r, mode=os.RTLD_NOW)\n"
            "from cudnn_mlir.runtime import library\n"
            "from cudnn_mlir.runtime.manifest import parse_manifest\n"
            "library.CHECKOUT_RUNTIME = '/nonexistent/build/lib.so'\n"
            "print(list(parse_manifest('cudnn-mlir-module 1\\nentry f\\n"
            "end\\n').entries))\n" % os.path.abspath(library.find_runtime()._name), env)
        self.assertEqual(out.stdout, "['f']\n", out.stderr)

    def test_a_runtime_env_that_names_nothing_is_an_error(self):
        out = run_fresh(
            "from cudnn_mlir.runtime.manifest import parse_manifest\n"
            "try:\n"
            "    parse_manifest('')\n"
            "except FileNotFoundError as e:\n"
            "    print(e)\n",
            dict(os.environ, CUDNN_MLIR_RUNTIME_LIB="/nonexistent/libx.so"))
        self.assertEqual(
            out.stdout,
            "expects CUDNN_MLIR_RUNTIME_LIB to name the cudnn-mlir runtime "
            "library, but got '/nonexistent/libx.so', which does not exist\n",
            out.stderr)


if __name__ == "__main__":
    unittest.main()
