"""Streaming in constant memory (issue 14, section 3; issue 26, item 6): isometrics' BinnedCountTable
against torchmetrics' binned metrics, in the same run, on the same batches.

For each size (default 10^6 and 10^7 samples; run 10^7 only under ``flock /tmp/heavy.lock``), the
data are a label (10 % positives) and a probability score ``sigmoid(N(0, 1) + 1.5 y)``, fed in
10 batches. Timed: ``update`` on every batch and ``compute`` (isometrics: all three areas with
their intervals; torchmetrics: BinaryAUROC and BinaryAveragePrecision with ``thresholds=1000``,
each fed separately, as it needs one metric object per area, after a warm-up call). The two
take turns (``--rounds`` rounds: isometrics uniform, isometrics default, torchmetrics), so that
other work on the machine slows them alike; the best wall time of each is kept, with the CPU
time of that run beside it (torch's threads add up theirs). Every value is compared with the
exact engine on all the data (``isometrics.auroc``, ``average_precision``, ``auprg``), at equal
memory: 1000 bins against 1000 thresholds. Printed: the CPU, the sort of 64-bit keys chosen on
it, the load average, seconds, CPU seconds and time ratios for uniform bins and for the default
(quantile) bins, the AUROC-alone ratio, the error of each estimate, and the width of isometrics'
guaranteed interval (the largest error it allows).

The goals: at least 100x faster than torchmetrics with the default bins, and a smaller error at
equal memory.

Set-up of the peer (once): ``bash benchmarks/peers/setup_torch.sh`` (benchmarks/.venv-torch).

Usage: python benchmarks/bench_streaming.py [--sizes 1e6 1e7] [--bins 1000] [--batches 10] [--rounds 2]
       [--peer-threads N] [--no-peer]
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
from isometrics._core.sorting import choose_sort, machine_report
from isometrics.scale import BinnedCountTable

HERE = Path(__file__).resolve().parent
PEER = HERE / ".venv-torch" / "bin" / "python"


def make_data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(np.int8)
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + 1.5 * y)))
    return y, s


def run_isometrics(
    y: np.ndarray, s: np.ndarray, bins: int, batches: int, strategy: str | None
) -> tuple[float, float, object]:
    """One run: wall seconds, CPU seconds and the result."""
    parts = np.array_split(np.arange(len(y)), batches)
    acc = BinnedCountTable(bins, strategy=strategy)
    start, cpu = time.perf_counter(), time.process_time()
    for part in parts:
        acc.update(y[part[0] : part[-1] + 1], s[part[0] : part[-1] + 1])
    result = acc.compute()
    return time.perf_counter() - start, time.process_time() - cpu, result


def run_peer(folder: Path, bins: int, batches: int, threads: int | None) -> dict:
    """One run of the peer on the data saved in ``folder`` (``threads``: torch's threads, None: its default)."""
    command = [
        str(PEER),
        str(HERE / "peers" / "torchmetrics_binned.py"),
        str(folder / "y.npy"),
        str(folder / "s.npy"),
        str(bins),
        str(batches),
    ] + ([str(threads)] if threads else [])
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"torchmetrics peer failed:\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def peer_seconds(peer: dict) -> float:
    return peer["auroc"]["seconds"] + peer["average_precision"]["seconds"]


def best(runs: list) -> tuple:
    return min(runs, key=lambda run: run[0])


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=float, nargs="+", default=[1e6, 1e7])
    parser.add_argument("--bins", type=int, default=1000)
    parser.add_argument("--batches", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2, help="turns of isometrics and torchmetrics (best kept)")
    parser.add_argument(
        "--peer-threads",
        type=int,
        default=None,
        help="torch's threads (default: torch's own choice; 1 on a machine shared with other work, "
        "where a waiting OpenMP thread spins)",
    )
    parser.add_argument("--no-peer", action="store_true", help="isometrics only (torchmetrics not run)")
    args = parser.parse_args()
    peer_ready = PEER.exists() and not args.no_peer
    choose_sort()  # timed once per process, before any timed run
    for line in machine_report():
        print(line)
    if not peer_ready and not args.no_peer:
        print(f"(torchmetrics skipped: run `bash benchmarks/peers/setup_torch.sh` to make {PEER.parent.parent})")
    print(load(), flush=True)
    strategies = {"uniform": "uniform", "default": None}  # default: quantile bins
    for size in args.sizes:
        n = int(size)
        y, s = make_data(n)
        start = time.perf_counter()
        exact = {"auroc": im.auroc(y, s), "average_precision": im.average_precision(y, s), "auprg": im.auprg(y, s)}
        exact_seconds = time.perf_counter() - start
        print(
            f"\nn = {n:.0e} ({args.batches} batches), {args.bins} bins / thresholds; exact engine (all in memory): "
            f"{exact_seconds:.2f} s; AUROC {exact['auroc']:.6f}, AP {exact['average_precision']:.6f}, "
            f"AUPRG {exact['auprg']:.6f}; {load()}"
        )
        run_isometrics(y[:100_000], s[:100_000], args.bins, args.batches, None)  # warm-up (first calls)
        ours: dict[str, list] = {name: [] for name in strategies}
        peers: list[dict] = []
        scratch = HERE / ".scratch"
        scratch.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(dir=scratch) as tmp:
            np.save(Path(tmp) / "y.npy", y)
            np.save(Path(tmp) / "s.npy", s)
            for _ in range(args.rounds):
                for name, strategy in strategies.items():
                    ours[name].append(run_isometrics(y, s, args.bins, args.batches, strategy))
                if peer_ready:
                    peers.append(run_peer(Path(tmp), args.bins, args.batches, args.peer_threads))
        state_bytes = 4 * 8 * args.bins + 8 * (args.bins - 1)
        peer = min(peers, key=peer_seconds) if peers else None
        print(
            f"  memory: isometrics {state_bytes / 1024:.0f} KiB (per bin: 2 class weights, 2 score sums, 1 edge)"
            + (f", torchmetrics {peer['auroc']['state_bytes'] / 1024:.0f} KiB per metric" if peer else "")
        )
        print(
            f"  {'':30s} {'seconds':>8s} {'CPU s':>7s} {'AUROC error':>12s} {'AP error':>12s} {'AUPRG error':>12s}"
            f"   guaranteed widths (AUROC, AP, AUPRG)"
        )
        for name, runs in ours.items():
            seconds, cpu, result = best(runs)
            errors = [abs(getattr(result, k).estimate - exact[k]) for k in exact]
            widths = [getattr(result, k).width for k in exact]
            inside = all(getattr(result, k).contains(exact[k]) for k in exact)
            label = "isometrics " + ("default (quantile)" if name == "default" else name)
            print(
                f"  {label:30s} {seconds:8.3f} {cpu:7.3f} {errors[0]:12.2e} {errors[1]:12.2e} {errors[2]:12.2e}   "
                f"{widths[0]:.2e}, {widths[1]:.2e}, {widths[2]:.2e} (exact inside: {inside}; "
                f"all runs {', '.join(f'{r[0]:.3f}' for r in runs)} s)"
            )
            grid = result.operating_points  # each bin one tie group: what a threshold grid gives
            print(
                f"    same bins, bin = tie group {'':16s} {abs(grid.auroc() - exact['auroc']):12.2e} "
                f"{abs(grid.average_precision() - exact['average_precision']):12.2e} "
                f"{abs(grid.auprg() - exact['auprg']):12.2e}"
            )
        if peer:
            tm_seconds = peer_seconds(peer)
            tm_cpu = peer["auroc"].get("cpu_seconds", np.nan) + peer["average_precision"].get("cpu_seconds", np.nan)
            tm_errors = [abs(peer[k]["value"] - exact[k]) for k in ("auroc", "average_precision")]
            print(
                f"  {'torchmetrics (AUROC + AP)':30s} {tm_seconds:8.3f} {tm_cpu:7.3f} {tm_errors[0]:12.2e} "
                f"{tm_errors[1]:12.2e} {'-':>12s}   (AUROC {peer['auroc']['seconds']:.2f} s, "
                f"AP {peer['average_precision']['seconds']:.2f} s; torch {peer['torch']}, {peer['threads']} threads; "
                f"all runs {', '.join(f'{peer_seconds(p):.2f}' for p in peers)} s)"
            )
            for name, runs in ours.items():
                seconds, cpu, result = best(runs)
                errors = [abs(getattr(result, k).estimate - exact[k]) for k in ("auroc", "average_precision")]
                print(
                    f"  ratio torchmetrics / isometrics {name:8s}: time {tm_seconds / seconds:.0f}x "
                    f"(CPU {tm_cpu / cpu:.0f}x); AUROC alone {peer['auroc']['seconds'] / seconds:.0f}x "
                    f"(CPU {peer['auroc'].get('cpu_seconds', np.nan) / cpu:.0f}x); "
                    f"error AUROC {tm_errors[0] / max(errors[0], 1e-17):.0f}x, "
                    f"AP {tm_errors[1] / max(errors[1], 1e-17):.0f}x smaller"
                )
        print(f"  after n = {n:.0e}: {load()}")
        del y, s
        sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
