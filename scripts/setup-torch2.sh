#!/usr/bin/env bash
# PyTorch 2.x on this CPU-only machine, for the tests of the front end's
# torch 2 paths (torch.export, TorchDynamo; test/Frontend/torch2-*.test):
# PyPI's torch 2.11 wheel (the GPU machine's version) in a virtual
# environment, without the gigabytes of CUDA wheels it depends on: it runs on
# the CPU with the CUDA 13 and cuDNN libraries of $CUDA_ROOT, plus the three
# small NVIDIA wheels that toolkit lacks. Writes <build>/torch2/python, a
# wrapper that runs the environment's Python with those libraries found.
# Idempotent; the environment is shared by every checkout
# ($CUDNN_MLIR_TORCH2_VENV, default ~/.cache/cudnn-mlir/torch-2.11-venv).
#
#   scripts/setup-torch2.sh [BUILD_DIR]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${1:-${BUILD_DIR:-$ROOT/build}}"
CUDA_ROOT="${CUDA_ROOT:-/usr/local/cuda}"
TORCH_VERSION=2.11.0
TORCHVISION_VERSION=0.26.0
VENV="${CUDNN_MLIR_TORCH2_VENV:-$HOME/.cache/cudnn-mlir/torch-$TORCH_VERSION-venv}"

if ! "$VENV/bin/python" -c "import torch, torchvision" >/dev/null 2>&1; then
  echo "setup: installing torch==$TORCH_VERSION (CPU use) into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  log="$(mktemp)"
  # Quiet unless it fails (pip also reports the CUDA wheels left out).
  pip() {
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
      "$@" >>"$log" 2>&1 || { cat "$log" >&2; exit 1; }
  }
  pip --no-deps "torch==$TORCH_VERSION" "torchvision==$TORCHVISION_VERSION"
  # torch's own pins where it has them (cuFile comes with CUDA 13.0's
  # toolkit wheels, which it pins as a whole).
  pip numpy sympy networkx filelock jinja2 fsspec typing_extensions mpmath \
    pillow "setuptools<82" "nvidia-cufile==1.15.*" \
    "nvidia-cusparselt-cu13==0.8.0" "nvidia-nvshmem-cu13==3.4.5"
  rm -f "$log"
fi
# benchmarks/model_zoo.py's bar chart (test/Benchmarks/model-zoo-chart.test);
# also into an environment made before it was asked for.
if ! "$VENV/bin/python" -c "import matplotlib" >/dev/null 2>&1; then
  echo "setup: installing matplotlib into $VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    matplotlib >&2
fi

# Hugging Face transformers and timm, for the coverage table's families
# (benchmarks/coverage.py; test/Benchmarks/coverage.test imports and
# compiles a sample of each). timm without its dependencies: they are torch
# and torchvision (installed above, without their CUDA wheels) and what
# transformers brings.
if ! "$VENV/bin/python" -c "import transformers, timm" >/dev/null 2>&1; then
  echo "setup: installing transformers and timm into $VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    "transformers==4.57.1" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-deps "timm==1.0.31" >&2
fi

site="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
mkdir -p "$BUILD_DIR/torch2"
cat > "$BUILD_DIR/torch2/python.new" <<EOF
#!/usr/bin/env bash
# Written by scripts/setup-torch2.sh: torch $TORCH_VERSION's Python.
export LD_LIBRARY_PATH="$site/nvidia/cu13/lib:$site/nvidia/nvshmem/lib:$CUDA_ROOT/lib64\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
exec "$VENV/bin/python" "\$@"
EOF
chmod +x "$BUILD_DIR/torch2/python.new"
mv "$BUILD_DIR/torch2/python.new" "$BUILD_DIR/torch2/python"
"$BUILD_DIR/torch2/python" -c "import torch, torchvision; assert torch.__version__.startswith('$TORCH_VERSION'), torch.__version__" \
  2>/dev/null || {
  echo "setup: expects torch $TORCH_VERSION to import from $VENV, but it does not:" >&2
  "$BUILD_DIR/torch2/python" -c "import torch, torchvision" >&2
  exit 1
}
