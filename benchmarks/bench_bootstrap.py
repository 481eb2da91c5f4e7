"""Bootstrap of AUROC and AP: isometrics' reweighting vs the loop a user writes today.

The user's loop: resample row indices, call scikit-learn's roc_auc_score and
average_precision_score on the resampled rows (for two models: both models on the same rows).
isometrics, per replicate and without sorting again:

- ``bootstrap_areas(areas=("auroc", "average_precision"))``: the two areas of the issue's goal;
- ``bootstrap_areas()``: the default three areas (AUPRG too, which scikit-learn has not);
- ``bootstrap(statistic="auroc")``: one area;
- ``bootstrap_compare`` of two models on AUROC and AP (paired draws), against the two-model loop.

Every figure is a whole call's time divided by its replicates (the sort and the setup
included). One run interleaves the loops and our calls round by round, so that a shared
machine's load weighs on both alike; the ratios use CPU time (``time.process_time``, this
process), wall time beside it, and the medians over the rounds. The CPU model and the load
average are printed with the figures.

Usage: python benchmarks/bench_bootstrap.py [--n 1000000] [--replicates 200] [--sklearn-replicates 3] [--rounds 3]
       [--only-compare]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

import numpy as np

import isometrics as im


def sklearn_loop(y: np.ndarray, columns: list[np.ndarray], replicates: int, rng: np.random.Generator) -> list:
    from sklearn.metrics import average_precision_score, roc_auc_score

    n = len(y)
    out = []
    for _ in range(replicates):
        idx = rng.integers(0, n, n)
        yy = y[idx]
        out.append([(roc_auc_score(yy, s[idx]), average_precision_score(yy, s[idx])) for s in columns])
    return out


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def timed(fn: Callable[[], object], replicates: int) -> tuple[float, float]:
    """(wall, cpu) milliseconds per replicate of one call."""
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return ((time.perf_counter() - w0) / replicates * 1e3, (time.process_time() - c0) / replicates * 1e3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--replicates", type=int, default=1000, help="replicates of each isometrics call")
    parser.add_argument(
        "--sklearn-replicates",
        type=int,
        default=3,
        help="replicates of the scikit-learn loop per round (its per-replicate time is extrapolated)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; medians are reported")
    parser.add_argument(
        "--only-compare",
        action="store_true",
        help="time only bootstrap_compare and the two-model loop, on continuous scores (a shared machine's CPU)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    y = rng.random(args.n) < 0.1
    s = rng.normal(size=args.n) + y
    other = s + rng.normal(size=args.n)
    B, k = args.replicates, args.sklearn_replicates
    print(
        f"CPU: {cpu_model()} ({os.cpu_count()} logical cores); numpy {np.__version__}; n = {args.n:,}, "
        f"{B} replicates per isometrics call, {k} per scikit-learn loop, {args.rounds} interleaved rounds"
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    header = (
        f"{'scores':>10} {'what':<44} | {'cpu ms/rep':>10} {'wall ms/rep':>11} | {'x sklearn (cpu)':>15} {'(wall)':>8}"
    )
    print(header)
    print("-" * len(header))
    cases = [("continuous", s, other), ("ties", np.round(s, 2), np.round(other, 2))]
    for label, a, b in cases[:1] if args.only_compare else cases:
        runs: dict[str, Callable[[], object]] = {
            "sklearn loop, 1 model (AUROC + AP)": lambda: sklearn_loop(y, [a], k, np.random.default_rng(1)),
            "bootstrap_areas(auroc, average_precision)": lambda: im.uncertainty.bootstrap_areas(
                y, a, areas=("auroc", "average_precision"), n_resamples=B, rng=1
            ),
            "bootstrap_areas() (AUROC, AP, AUPRG)": lambda: im.uncertainty.bootstrap_areas(y, a, n_resamples=B, rng=1),
            "bootstrap(statistic='auroc')": lambda: im.uncertainty.bootstrap(y, a, n_resamples=B, rng=1),
            "sklearn loop, 2 models (AUROC + AP)": lambda: sklearn_loop(y, [a, b], k, np.random.default_rng(1)),
            "bootstrap_compare(2 models, auroc + AP)": lambda: im.uncertainty.bootstrap_compare(
                y, {"a": a, "b": b}, statistics=["auroc", "average_precision"], n_resamples=B, rng=1
            ),
        }
        if args.only_compare:
            runs = {name: fn for name, fn in runs.items() if "2 models" in name}
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
        for _ in range(args.rounds):  # interleaved: every run once per round
            for name, fn in runs.items():
                times[name].append(timed(fn, k if name.startswith("sklearn") else B))
        med = {
            name: (float(np.median([w for w, _ in t])), float(np.median([c for _, c in t])))
            for name, t in times.items()
        }
        for name, (wall, cpu) in med.items():
            peer = "sklearn loop, 2 models (AUROC + AP)" if "compare" in name else "sklearn loop, 1 model (AUROC + AP)"
            ratio = "" if name.startswith("sklearn") else (f"{med[peer][1] / cpu:14.1f}x {med[peer][0] / wall:7.1f}x")
            print(f"{label:>10} {name:<44} | {cpu:10.2f} {wall:11.2f} | {ratio}", flush=True)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        "Milliseconds per replicate (a call's time over its replicates, the sort included); ratios against "
        "the scikit-learn loop doing the same work (AUROC + AP, on one or two models), medians of the rounds."
    )


if __name__ == "__main__":
    main()
