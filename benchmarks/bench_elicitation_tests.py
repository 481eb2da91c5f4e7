"""CPU time of the elicitation tests with two source trees, interleaved (issue 24, item 6).

Runs ``pytest tests/elicitation/<file>`` (this checkout's tests) against OLD_SRC and NEW_SRC in turn,
``rounds`` times, each run in its own process with one BLAS thread (as the suite runs), and prints each
run's CPU time (user + system of the process and its children, node included) beside its wall time,
the load average before each run, and per file the median ratio new / old of the CPU times.

Usage: python benchmarks/bench_elicitation_tests.py OLD_SRC [NEW_SRC] [--rounds N] [--files a.py,b.py]
e.g.   mkdir -p /tmp/old && git archive <commit> src | tar -x -C /tmp/old
       python benchmarks/bench_elicitation_tests.py /tmp/old/src --rounds 3
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = (
    "test_pairwise.py",
    "test_engine_parity.py",
    "test_engine_issue21.py",
    "test_local.py",
    "test_transcript.py",
)  # not test_engine_speed.py: its tests of the new engine fail on the old one


def run(src: str, target: str) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", target],
        cwd=ROOT,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", default=str(ROOT / "src"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--files", default=",".join(FILES))
    args = parser.parse_args()
    files = [f"tests/elicitation/{f}" for f in args.files.split(",")]
    cpu: dict[tuple[str, str], list[float]] = {}
    for k in range(args.rounds):
        for target in files:
            for name, src in (
                (("old", args.old), ("new", args.new)) if k % 2 == 0 else (("new", args.new), ("old", args.old))
            ):
                load = os.getloadavg()[0]
                c, w = run(src, target)
                cpu.setdefault((target, name), []).append(c)
                print(f"round {k} {name} {target:42s} cpu {c:6.2f} s  wall {w:6.2f} s  load {load:.2f}", flush=True)
    total_old = total_new = 0.0
    for target in files:
        old, new = statistics.median(cpu[(target, "old")]), statistics.median(cpu[(target, "new")])
        total_old, total_new = total_old + old, total_new + new
        print(f"{target:42s} median cpu old {old:6.2f} s  new {new:6.2f} s  new/old {new / old:.2f}")
    print(f"{'all':42s} median cpu old {total_old:6.2f} s  new {total_new:6.2f} s  new/old {total_new / total_old:.2f}")


if __name__ == "__main__":
    main()
