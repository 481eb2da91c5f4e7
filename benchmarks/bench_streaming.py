"""Streaming in constant memory (issue 14, section 3): isometrics' BinnedCountTable against
torchmetrics' binned metrics, in the same run, on the same batches.

For each size (default 10^6 and 10^7 samples; 10^7 only under ``flock /tmp/heavy.lock``), the
data are a label (10 % positives) and a probability score ``sigmoid(N(0, 1) + 1.5 y)``, fed in
10 batches. Timed: ``update`` on every batch and ``compute`` (isometrics: all three areas with
their intervals, best of 3 runs; torchmetrics, one run after a warm-up call: BinaryAUROC and
BinaryAveragePrecision with ``thresholds=1000``, each fed separately, as it needs one metric
object per area). Every value is compared with the
exact engine on all the data (``isometrics.auroc``, ``average_precision``, ``auprg``), at equal
memory: 1000 bins against 1000 thresholds. Printed: seconds and time ratios, the error of each
estimate, and the width of isometrics' guaranteed interval (the largest error it allows).

The goals: at least 100x faster than torchmetrics, and a smaller error at equal memory.

Set-up of the peer (once): ``bash benchmarks/peers/setup_torch.sh`` (benchmarks/.venv-torch).

Usage: python benchmarks/bench_streaming.py [--sizes 1e6 1e7] [--bins 1000] [--batches 10]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import isometrics as im
from isometrics.scale import BinnedCountTable

HERE = Path(__file__).resolve().parent
PEER = HERE / ".venv-torch" / "bin" / "python"


def make_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int8)
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.5 * y)))
    return y, s


def run_isometrics(y: np.ndarray, s: np.ndarray, bins: int, batches: int, strategy: str,
                   repeats: int = 3) -> tuple[float, object]:
    """Best of ``repeats`` runs (seconds) and the result."""
    parts = np.array_split(np.arange(len(y)), batches)
    best = np.inf
    for _ in range(repeats):
        acc = BinnedCountTable(bins, strategy=strategy)
        start = time.perf_counter()
        for part in parts:
            acc.update(y[part[0]:part[-1] + 1], s[part[0]:part[-1] + 1])
        result = acc.compute()
        best = min(best, time.perf_counter() - start)
    return best, result


def run_peer(y: np.ndarray, s: np.ndarray, bins: int, batches: int) -> dict | None:
    if not PEER.exists():
        print(f"  (torchmetrics skipped: run `bash benchmarks/peers/setup_torch.sh` to make {PEER.parent.parent})")
        return None
    scratch = HERE / ".scratch"
    scratch.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        np.save(Path(tmp) / "y.npy", y)
        np.save(Path(tmp) / "s.npy", s)
        run = subprocess.run([str(PEER), str(HERE / "peers" / "torchmetrics_binned.py"), str(Path(tmp) / "y.npy"),
                              str(Path(tmp) / "s.npy"), str(bins), str(batches)], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"torchmetrics peer failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e6, 1e7])
    parser.add_argument("--bins", type=int, default=1000)
    parser.add_argument("--batches", type=int, default=10)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    for size in args.sizes:
        n = int(size)
        y, s = make_data(n)
        start = time.perf_counter()
        exact = {"auroc": im.auroc(y, s), "average_precision": im.average_precision(y, s), "auprg": im.auprg(y, s)}
        exact_seconds = time.perf_counter() - start
        print(f"\nn = {n:.0e} ({args.batches} batches), {args.bins} bins / thresholds; exact engine (all in memory): "
              f"{exact_seconds:.2f} s; AUROC {exact['auroc']:.6f}, AP {exact['average_precision']:.6f}, "
              f"AUPRG {exact['auprg']:.6f}")
        ours = {strategy: run_isometrics(y, s, args.bins, args.batches, strategy)
                for strategy in ("uniform", "quantile")}
        peer = run_peer(y, s, args.bins, args.batches)
        state_bytes = 4 * 8 * args.bins + 8 * (args.bins - 1)
        print(f"  memory: isometrics {state_bytes / 1024:.0f} KiB (per bin: 2 class weights, 2 score sums, 1 edge)"
              + (f", torchmetrics {peer['auroc']['state_bytes'] / 1024:.0f} KiB per metric" if peer else ""))
        print(f"  {'':28s} {'seconds':>8s} {'AUROC error':>12s} {'AP error':>12s} {'AUPRG error':>12s}   "
              f"guaranteed widths (AUROC, AP, AUPRG)")
        for strategy, (seconds, result) in ours.items():
            errors = [abs(getattr(result, k).estimate - exact[k]) for k in exact]
            widths = [getattr(result, k).width for k in exact]
            inside = all(getattr(result, k).contains(exact[k]) for k in exact)
            print(f"  isometrics {strategy:17s} {seconds:8.3f} {errors[0]:12.2e} {errors[1]:12.2e} {errors[2]:12.2e}   "
                  f"{widths[0]:.2e}, {widths[1]:.2e}, {widths[2]:.2e} (exact inside: {inside})")
            grid = result.operating_points  # each bin one tie group: what a threshold grid gives
            print(f"    same bins, bin = tie group {'':6s} {abs(grid.auroc() - exact['auroc']):12.2e} "
                  f"{abs(grid.average_precision() - exact['average_precision']):12.2e} "
                  f"{abs(grid.auprg() - exact['auprg']):12.2e}")
        if peer:
            tm_seconds = peer["auroc"]["seconds"] + peer["average_precision"]["seconds"]
            tm_errors = [abs(peer[k]["value"] - exact[k]) for k in ("auroc", "average_precision")]
            print(f"  torchmetrics (AUROC + AP)    {tm_seconds:8.3f} {tm_errors[0]:12.2e} {tm_errors[1]:12.2e} "
                  f"{'-':>12s}   (AUROC {peer['auroc']['seconds']:.2f} s, "
                  f"AP {peer['average_precision']['seconds']:.2f} s; "
                  f"torch {peer['torch']}, {peer['threads']} threads)")
            for strategy, (seconds, result) in ours.items():
                errors = [abs(getattr(result, k).estimate - exact[k]) for k in ("auroc", "average_precision")]
                print(f"  ratio torchmetrics / isometrics {strategy}: time {tm_seconds / seconds:.0f}x "
                      f"(AUROC alone {peer['auroc']['seconds'] / seconds:.0f}x); "
                      f"error AUROC {tm_errors[0] / max(errors[0], 1e-17):.0f}x, "
                      f"AP {tm_errors[1] / max(errors[1], 1e-17):.0f}x smaller")
        del y, s
        sys.stdout.flush()
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    sys.exit(main())
