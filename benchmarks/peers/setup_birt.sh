#!/usr/bin/env bash
# Make benchmarks/.venv-birt: a virtual environment holding birt-gd (GPL-3, the beta^3-IRT peer
# of benchmarks/bench_irt.py) and its dependencies (TensorFlow among them, about 1 GB).
# birt-gd is never installed into the project's environment, never imported by the package or
# its tests: bench_irt.py runs it in a subprocess with this environment's python.
# Usage: bash benchmarks/peers/setup_birt.sh [PYTHON]   (PYTHON defaults to python3)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv-birt"
python="${1:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q "birt-gd==0.1.50"
"$venv/bin/python" - <<'PY'
import importlib.metadata as md
print("birt-gd", md.version("birt-gd"), "tensorflow", md.version("tensorflow"), "numpy", md.version("numpy"))
PY
echo "ready: $venv/bin/python"
