"""Checks an installed cudnn_mlir (test/Python/package-install.test): run
with no PYTHONPATH, outside the tree; argv[1] is the checkout it must come
from. Prints one line per fact, for FileCheck."""

import os
import sys

import cudnn_mlir
from cudnn_mlir.driver import compiler


def same(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


root = sys.argv[1]
print("package from checkout:",
      same(os.path.dirname(cudnn_mlir.__file__),
           os.path.join(root, "python", "cudnn_mlir")))
# Where find_compiler looks last: <checkout>/build/bin/cudnn-compile.
print("compiler looked for in checkout:", same(compiler.SOURCE_ROOT, root))
print("imports torch:", "torch" in sys.modules)
print("public names:", all(hasattr(cudnn_mlir, name)
                           for name in cudnn_mlir.__all__))
