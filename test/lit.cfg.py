# -*- Python -*-
# The cudnn-mlir lit suite. Nothing here needs a GPU unless a test says
# `REQUIRES: gpu`; that feature is set only when a CUDA device is visible.

import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "CUDNN_MLIR"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.cudnn_mlir_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%src_root", config.cudnn_mlir_src_root))
config.substitutions.append(("%obj_root", config.cudnn_mlir_obj_root))
config.substitutions.append(("%python", config.python_executable))
# torch 2.x's Python (scripts/setup-torch2.sh, which scripts/test.sh runs):
# the front end's torch.export and TorchDynamo tests need it.
torch2_python = os.path.join(config.cudnn_mlir_obj_root, "torch2", "python")
config.substitutions.append(("%torch2_python", torch2_python))
if os.access(torch2_python, os.X_OK):
    config.available_features.add("torch2")

# Stand-in compiled models for cudnn-run: `%host_cc -shared ... %cmrt_flags`
# links the runtime, `%cudart_flags` the CUDA runtime.
config.substitutions.append(("%host_cc", config.host_cc))
config.substitutions.append(("%cmrt_lib", config.cudnn_mlir_runtime_library))
# Prints the layout of the Runtime.h structs Python binds
# (runtime/unittests/AbiLayoutDump.cpp; test/Python/abi-layout.test).
config.substitutions.append(("%abi_layout_dump",
                             config.cudnn_mlir_abi_layout_dump))
config.substitutions.append((
    "%cmrt_flags",
    "-I{0}/runtime/include {1} -Wl,-rpath,{2}".format(
        config.cudnn_mlir_src_root, config.cudnn_mlir_runtime_library,
        os.path.dirname(config.cudnn_mlir_runtime_library))))
config.substitutions.append((
    "%cudart_flags",
    "-I{0} {1} -Wl,-rpath,{2}".format(
        config.cuda_include_dir, config.cudart_library,
        os.path.dirname(os.path.realpath(config.cudart_library)))))

# The example built against the installed package, once
# `ninja cudnn-mlir-package-example` has built it (scripts/test.sh does).
if os.path.exists(config.cudnn_mlir_package_example):
    config.available_features.add("cudnn-mlir-package")
config.substitutions.append(("%package_example",
                             config.cudnn_mlir_package_example))
config.substitutions.append(("%install_prefix",
                             config.cudnn_mlir_install_prefix))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Every FileCheck variable is scoped to its CHECK-LABEL block.
config.environment["FILECHECK_OPTS"] = "-enable-var-scope"

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# mlir-runner's support libraries (printMemrefF32), for tests that run
# lowered code on the CPU.
for name in ("mlir_runner_utils", "mlir_c_runner_utils"):
    config.substitutions.append(("%" + name, os.path.join(
        config.llvm_tools_dir, "..", "lib", "lib%s.so" % name)))
tool_dirs = [config.cudnn_mlir_tools_dir, config.llvm_tools_dir]
tools = [ToolSubst("cudnn-opt", unresolved="fatal"),
         ToolSubst("cudnn-run", unresolved="fatal"),
         ToolSubst("cudnn-compile", unresolved="fatal")]
llvm_config.add_tool_substitutions(tools, tool_dirs)


def _have_cuda_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True,
                             timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


if _have_cuda_gpu():
    config.available_features.add("gpu")
