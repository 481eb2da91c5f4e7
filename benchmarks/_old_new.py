"""The harness of the ``check_*_identical.py`` scripts: the same calls with two source trees, compared bit for bit.

A script lists its cases and how to compute their outputs (one dict of named values a case). It
calls :func:`main` with them: run as ``python SCRIPT OLD_SRC [NEW_SRC]``, it starts the script
once under each tree (a subprocess with that tree first on ``PYTHONPATH``, ``NEW_SRC``
defaulting to ``src``, and one BLAS and OpenMP thread, as the test suite runs: a threaded dot
product sums in another order), each writes every case's outputs to a pickle, and the two are compared
with :func:`same`: arrays of the same dtype and shape with ``np.array_equal`` (NaN equal to NaN),
floats with ``==`` (NaN equal to NaN), containers element by element, anything else with ``==``
and the same type. It prints each value that differs, then a count, and exits with 1 if any does.
"""

from __future__ import annotations

import dataclasses
import math
import os
import pickle
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

__all__ = ["same", "leaves", "main"]


def same(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are the same values bit for bit (NaN is the same as NaN)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b)


def leaves(x: Any) -> int:
    """How many values ``x`` holds: an array or a number is one, a container the sum of its items'."""
    if isinstance(x, dict):
        return sum(leaves(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return sum(leaves(v) for v in x)
    return 1


def main(cases: Sequence[Any], outputs: Callable[[], list[dict[str, Any]]], script: str) -> None:
    """Dump ``outputs()``, one dict a case (``SCRIPT --dump PATH``), or run both trees and compare them."""
    if len(sys.argv) == 3 and sys.argv[1] == "--dump":
        warnings.simplefilter("ignore")
        with open(sys.argv[2], "wb") as f:
            pickle.dump(outputs(), f)
        return
    if len(sys.argv) not in (2, 3):
        sys.exit(f"usage: python {script} OLD_SRC [NEW_SRC]  (NEW_SRC defaults to src)")
    trees = [os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2] if len(sys.argv) == 3 else "src")]
    dumps = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, tree in enumerate(trees):
            path = os.path.join(tmp, f"{i}.pkl")
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, os.environ.get("PYTHONPATH", "")]))
            env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
            subprocess.run([sys.executable, os.path.abspath(script), "--dump", path], env=env, check=True)
            with open(path, "rb") as f:
                dumps.append(pickle.load(f))
    old, new = dumps
    differ = 0
    for case, a, b in zip(cases, old, new, strict=True):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b or not same(a[key], b[key]):
                differ += 1
                print(f"DIFFERENT {case} {key}")
    compared = sum(leaves(a) for a in old)
    print(
        f"{len(cases)} cases, {compared} values compared: {'all bit-identical' if not differ else f'{differ} differ'}"
    )
    sys.exit(1 if differ else 0)
