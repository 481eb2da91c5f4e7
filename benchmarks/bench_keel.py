"""The KEEL benchmark, end to end: the full build's time, and adaptive testing leaving one model out.

1. Build: the default pool (26 scikit-learn classifiers of 12 families) on the 100 imbalanced
   KEEL data sets, stratified 3-fold cross-validation, into a fresh cache; wall-clock and CPU
   time (this process and its workers) are printed. The response matrix (long form: model,
   data set, AUROC, rescaled AUPRG, best F1) is saved to benchmarks/data/keel_responses.csv.
2. Adaptive testing, leave one model out: for each model, beta^3-IRT is fitted to the others'
   AUROC responses; the held-out model's full-benchmark ability is estimated from all its
   responses with that bank; then it is tested adaptively for at most 20 data sets (20 %)
   by Fisher and KL selection and, repeated with several seeds, at random. Printed: the
   Spearman correlation between the abilities after at most 20 data sets and the
   full-benchmark abilities, and the mean absolute error |ability_k - full| at each test
   length k for each selection rule.

Usage: python benchmarks/bench_keel.py [--cache DIR] [--jobs 1] [--max-items 20] [--random-repeats 10]
       [--skip-build] [--metric auroc]
"""

from __future__ import annotations

import argparse
import csv
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

from isometrics.irt.keel import build_keel_benchmark, read_keel_benchmark

DATA = Path(__file__).parent / "data"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(cache: Path, jobs: int, skip: bool):
    wall, cpu, child = time.perf_counter(), time.process_time(), children_cpu()
    if skip:
        bench = read_keel_benchmark(cache, metrics=["auroc", "auprg", "f1"])
    else:
        bench = build_keel_benchmark(cache, metrics=["auroc", "auprg", "f1"], n_jobs=jobs, progress=True)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu + children_cpu() - child
    print(
        f"{'read' if skip else 'build'}: {len(bench.models)} models x {len(bench.datasets)} data sets, {bench.n_splits} folds, "
        f"n_jobs={jobs}: {wall:.1f} s wall, {cpu:.1f} s CPU (process and workers); "
        f"sum over cells: {np.nansum(bench.seconds):.1f} s wall, {np.nansum(bench.cpu_seconds):.1f} s CPU; "
        f"{len(bench.failures)} failed cells; {bench.n_clipped} AUPRG fold values clipped at 0"
    )
    load = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else ["?"]
    print(f"  load average at the end: {' '.join(load)} (other processes share the 2 cores)")
    return bench


def save_csv(bench) -> None:
    DATA.mkdir(exist_ok=True)
    path = DATA / "keel_responses.csv"
    rows = bench.to_long()
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["model", "dataset", *bench.metrics])
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{v:.6f}" if isinstance(v, float) else v) for k, v in row.items()})
    size = path.stat().st_size
    if size > 1_000_000:
        path.unlink()
        print(f"response matrix: {size:,} bytes, over 1 MB: not kept")
    else:
        print(f"response matrix: {len(rows)} rows, {size:,} bytes -> {path}")


def leave_one_out(bench, metric: str, max_items: int, repeats: int) -> None:
    from isometrics.irt.study import administer, fit_bank, full_benchmark_ability

    matrix = bench.matrix(metric)
    n_models, n_items = matrix.shape
    rules = {"fisher": [0], "kl": [0], "random": list(range(repeats))}
    final = {rule: np.full(n_models, np.nan) for rule in rules}
    errors = {rule: np.full((n_models, len(seeds), max_items), np.nan) for rule, seeds in rules.items()}
    full = np.full(n_models, np.nan)
    start = time.perf_counter()
    for i in range(n_models):
        bank = fit_bank(bench, metric, np.arange(n_models) != i)
        row = matrix[i]
        available = [d for d, v in zip(bench.datasets, row) if not np.isnan(v)]
        full[i] = full_benchmark_ability(bank, row)[0]

        def respond(name: str, row=row) -> float:
            return float(row[bench.datasets.index(name)])

        for rule, seeds in rules.items():
            for r, seed in enumerate(seeds):
                path = administer(
                    bank, bench.models[i], respond, selection=rule, max_items=max_items, seed=seed, available=available
                ).ability
                errors[rule][i, r, : len(path)] = np.abs(path - full[i])
                if r == 0:
                    final[rule][i] = path[-1]
    print(
        f"leave one model out ({n_models} models, {metric}, at most {max_items} of {n_items} data sets = "
        f"{100 * max_items / n_items:.0f} %, random x{repeats}): {time.perf_counter() - start:.1f} s"
    )
    for rule in rules:
        rho = spearmanr(final[rule], full).statistic
        print(f"  Spearman(ability after {max_items}, full-benchmark ability), {rule:6s}: {rho:.3f}")
    mae = {rule: np.nanmean(e, axis=(0, 1)) for rule, e in errors.items()}
    print("  mean absolute error |ability_k - full| by test length k:")
    print("     k  " + "  ".join(f"{rule:>7s}" for rule in rules))
    for k in range(max_items):
        if k + 1 in (1, 2, 3, 5, 8, 10, 15, 20) or k + 1 == max_items:
            print(f"    {k + 1:2d}  " + "  ".join(f"{mae[rule][k]:7.4f}" for rule in rules))
    wins = np.mean(mae["fisher"] < mae["random"])
    print(
        f"  Fisher below random at {100 * wins:.0f} % of the lengths 1..{max_items}; mean over lengths: "
        f"fisher {np.mean(mae['fisher']):.4f}, kl {np.mean(mae['kl']):.4f}, random {np.mean(mae['random']):.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, default=None, help="benchmark cache (default: a fresh temporary one)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--skip-build", action="store_true", help="read an existing --cache instead of building")
    parser.add_argument("--metric", default="auroc")
    parser.add_argument("--max-items", type=int, default=20)
    parser.add_argument("--random-repeats", type=int, default=10)
    parser.add_argument("--no-adaptive", action="store_true", help="stop after the build")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cache = args.cache or Path(scratch)
        bench = build(cache, args.jobs, args.skip_build)
        save_csv(bench)
        if not args.no_adaptive:
            leave_one_out(bench, args.metric, args.max_items, args.random_repeats)


if __name__ == "__main__":
    main()
