#!/usr/bin/env bash
# Make benchmarks/.venv-torch: CPU PyTorch and torchmetrics, the peer of benchmarks/bench_streaming.py.
#
# The peer lives in its own virtual environment (gitignored), never in the project's: torch is
# no dependency of isometrics. pip reads its index and wheel locations from the machine's pip
# configuration (a local mirror here); the CPU build of torch is asked for explicitly so that no
# CUDA libraries are pulled in. Run from the repository root:
#     bash benchmarks/peers/setup_torch.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv-torch"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
# The CPU build of torch (no CUDA libraries, a tenth of the size): a local CPU wheel where the
# machine's pip configuration offers one (find-links), else PyTorch's CPU index, else PyPI's
# default build (it runs on the CPU as well, only larger).
cpu_wheel="$("$venv/bin/python" -m pip download --quiet --no-deps --only-binary=:all: -d "$here/.scratch/wheels" \
    "torch==2.13.0+cpu" 2>/dev/null && ls "$here"/.scratch/wheels/torch-*+cpu-*.whl 2>/dev/null | head -1 || true)"
if [ -n "$cpu_wheel" ]; then
    "$venv/bin/python" -m pip install --quiet "$cpu_wheel" numpy
elif ! "$venv/bin/python" -m pip install --quiet --index-url https://download.pytorch.org/whl/cpu torch; then
    "$venv/bin/python" -m pip install --quiet torch numpy
fi
rm -rf "$here/.scratch/wheels"
"$venv/bin/python" -m pip install --quiet torchmetrics
"$venv/bin/python" - <<'PY'
import torch, torchmetrics
print(f"torch {torch.__version__} (CUDA: {torch.version.cuda}), torchmetrics {torchmetrics.__version__}")
PY
