"""Start-up time (issue 20, item 11): ``import isometrics`` and ``isometrics --version``.

Each is timed as a fresh interpreter (``python -c "import isometrics"`` and
``python -m isometrics.cli --version``), wall clock, median of ``--runs`` runs, next to the
interpreter's own start-up (``python -c pass``) measured the same way and interleaved with
them, so a loaded machine slows all three alike. Printed: the medians, the targets (0.25 s
and 0.5 s) and the ratio of each to a bare interpreter. Also printed, for information: the
first use of the core (``from isometrics import auroc``), which loads NumPy and the counting
engine but not item response theory or SciPy's optimisers.

Usage: python benchmarks/bench_import.py [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

CASES = {
    "python -c pass": ([sys.executable, "-c", "pass"], None),
    "import isometrics": ([sys.executable, "-c", "import isometrics"], 0.25),
    "isometrics --version": ([sys.executable, "-m", "isometrics.cli", "--version"], 0.5),
    "from isometrics import auroc": ([sys.executable, "-c", "from isometrics import auroc"], None),
}


def _once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")])))
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.runs):  # interleaved: load on the machine affects every case alike
        for name, (argv, _target) in CASES.items():
            times[name].append(_once(argv, env))
    bare = statistics.median(times["python -c pass"])
    print(f"median of {args.runs} fresh processes ({sys.executable})")
    print(f"{'':32} {'seconds':>8} {'target':>8} {'x bare python':>14}")
    for name, (_argv, target) in CASES.items():
        med = statistics.median(times[name])
        goal = "" if target is None else f"<= {target:g}"
        verdict = "" if target is None else ("  ok" if med <= target else "  OVER")
        print(f"{name:32} {med:8.3f} {goal:>8} {med / bare:14.1f}{verdict}")


if __name__ == "__main__":
    main()
