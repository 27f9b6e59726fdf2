"""Finding and loading the cudnn-mlir runtime (libcudnn-mlir-runtime.so).

The loader needs it to run a compiled module and the manifest parser to
read one (the parser is the runtime's, cmrtManifestParse). It is loaded
with RTLD_GLOBAL, so that a model loaded afterwards binds to this copy.
Loading it loads no torch.
"""

import ctypes
import os

RUNTIME_LIBRARY = "libcudnn-mlir-runtime.so"
RUNTIME_ENV = "CUDNN_MLIR_RUNTIME_LIB"
# The checkout this package runs from (python/cudnn_mlir/runtime/../../..):
# its build/runtime/lib is where scripts/setup.sh builds the runtime. That
# holds for PYTHONPATH=python and `pip install -e .`.
SOURCE_ROOT = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
CHECKOUT_RUNTIME = os.path.join(SOURCE_ROOT, "build", "runtime", "lib",
                                RUNTIME_LIBRARY)

_MODE = os.RTLD_NOW | os.RTLD_GLOBAL


class RuntimeNotFoundError(FileNotFoundError):
    """No runtime library where the package looks for one."""


def open_runtime(path):
    """The runtime library at `path`, loaded RTLD_GLOBAL."""
    return ctypes.CDLL(path, mode=_MODE)


def explicit_runtime():
    """The library CUDNN_MLIR_RUNTIME_LIB names, loaded; None if unset."""
    path = os.environ.get(RUNTIME_ENV)
    if not path:
        return None
    if not os.path.isfile(path):
        raise RuntimeNotFoundError(
            "expects %s to name the cudnn-mlir runtime library, but got "
            "'%s', which does not exist" % (RUNTIME_ENV, path))
    return open_runtime(path)


def loaded_runtime():
    """The runtime if this process has loaded it already (by a model's
    rpath, say), made global; None otherwise."""
    try:
        return ctypes.CDLL(RUNTIME_LIBRARY, mode=_MODE | os.RTLD_NOLOAD)
    except OSError:
        return None


_RUNTIME = None


def find_runtime():
    """The runtime library, loaded once per process: the one
    CUDNN_MLIR_RUNTIME_LIB names, else one already loaded, else this
    checkout's build/runtime/lib/libcudnn-mlir-runtime.so. Raises
    RuntimeNotFoundError naming where it looked."""
    global _RUNTIME
    if _RUNTIME is None:
        _RUNTIME = explicit_runtime() or loaded_runtime()
        if _RUNTIME is None and os.path.isfile(CHECKOUT_RUNTIME):
            _RUNTIME = open_runtime(CHECKOUT_RUNTIME)
        if _RUNTIME is None:
            raise RuntimeNotFoundError(
                "expects the cudnn-mlir runtime library (%s), but found none: "
                "%s is not set, no copy is loaded, and this checkout has no "
                "%s (build it with scripts/setup.sh, or set %s)"
                % (RUNTIME_LIBRARY, RUNTIME_ENV, CHECKOUT_RUNTIME,
                   RUNTIME_ENV))
    return _RUNTIME
