"""Several score columns at once (issue 26, item 4): 4 columns against 1, one at a time and threaded.

``evaluate_scores`` (AUROC, AP, AUPRG, the best F1 threshold) of one column, then of four columns
with ``n_jobs=None`` (a loop) and with the default ``n_jobs=-1`` (one thread per CPU, at most one
per column), taking turns ``--repeat`` times so that a busy machine slows them alike. Goal: four
columns threaded in <= 2.5x the time of one column on 2 cores (the ideal is 2x: two columns per
core). Printed beside each figure: wall and CPU time, the CPU model, the load average, the sort
the engine chose; and whether the threaded results equal the loop's bit for bit.

``--cores 2`` runs on the first two CPUs of a larger machine (its affinity mask, set before
NumPy and Polars start their thread pools). On a machine shared with other work the wall times
stretch; the CPU times and the ratio of the best times are the steadier figures.

Usage: python benchmarks/bench_columns.py [--sizes 1000000 10000000] [--columns 4] [--repeat 3]
       [--cores 2] [--sort numpy|polars] [--lean]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def _run(call):
    """Wall and CPU seconds of ``call()`` (CPU: every thread of the process), and its result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def _same(a, b) -> bool:
    import numpy as np

    return all(
        x.name == z.name
        and x.auroc == z.auroc
        and x.average_precision == z.average_precision
        and x.auprg == z.auprg
        and x.best[0].threshold == z.best[0].threshold
        and np.array_equal(x.operating_points.tp, z.operating_points.tp)
        and np.array_equal(x.operating_points.thresholds, z.operating_points.thresholds)
        for x, z in zip(a, b)
    ) and len(a) == len(b)


def _measure(n, args, im, np, cores):
    """Time the three cases at ``n`` rows, print them; return (n, ratio, holds, identical)."""
    header = f"{'n':>11} {'case':>18} | {'best wall':>9} {'median':>8} {'CPU':>7} | {'x one col':>9}"
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    scores = {f"model_{k}": rng.random(n) + 0.1 * (k + 1) * y for k in range(args.columns)}
    first = {"model_0": scores["model_0"]}
    kwargs = dict(metrics=["f1"], keep_operating_points=not args.lean)
    cases = {
        "1 column": lambda: im.evaluate_scores(y, first, **kwargs),
        f"{args.columns} cols, loop": lambda: im.evaluate_scores(y, scores, n_jobs=None, **kwargs),
        f"{args.columns} cols, threads": lambda: im.evaluate_scores(y, scores, n_jobs=-1, **kwargs),
    }
    im.evaluate_scores(y[:100_000], {"warm": first["model_0"][:100_000]})  # the sort is chosen once, here
    walls: dict[str, list[float]] = {k: [] for k in cases}
    cpus: dict[str, list[float]] = {k: [] for k in cases}
    results = {}
    for _ in range(args.repeat):
        for name, call in cases.items():
            wall, cpu, results[name] = _run(call)
            walls[name].append(wall)
            cpus[name].append(cpu)
    loop, threads = list(cases)[1:]
    identical = _same(results[loop], results[threads])
    print(header)
    print("-" * len(header))
    one = min(walls["1 column"])
    for name in cases:
        print(
            f"{n:>11,} {name:>18} | {min(walls[name]):8.3f}s {statistics.median(walls[name]):7.3f}s "
            f"{statistics.median(cpus[name]):6.2f}s | {min(walls[name]) / one:8.2f}x",
            flush=True,
        )
    ratio = min(walls[threads]) / one
    per_round = [t / o for t, o in zip(walls[threads], walls["1 column"])]
    holds = ratio <= 2.5
    workers = min(args.columns, cores)
    bound = statistics.median(cpus[threads]) / (workers * statistics.median(cpus["1 column"]))
    print(
        f"  threads / one column: {ratio:.2f}x by the best times (per round: "
        f"{', '.join(f'{r:.2f}x' for r in per_round)}, median {statistics.median(per_round):.2f}x); "
        f"goal <= 2.5x: {'holds' if holds else 'does NOT hold'}\n"
        f"  CPU time threaded / ({workers} x one column's): {bound:.2f}x, the ratio on {workers} idle cores if the "
        f"threads never waited for one another (a floor for the wall ratio)\n"
        f"  threaded results equal the loop's bit for bit: {identical}; "
        f"load average now: {os.getloadavg()[0]:.2f}\n",
        flush=True,
    )
    return n, ratio, holds, identical


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--columns", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each round times the three cases in turn")
    parser.add_argument("--cores", type=int, default=None, help="run on the first CORES CPUs (affinity mask)")
    parser.add_argument("--sort", choices=["numpy", "polars"], default=None, help="force the sort (ISOMETRICS_SORT)")
    parser.add_argument("--lean", action="store_true", help="keep_operating_points=False (what the CLI uses)")
    args = parser.parse_args()
    if args.cores is not None:
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[: args.cores])
    if args.sort is not None:
        os.environ["ISOMETRICS_SORT"] = args.sort
    # imported after the affinity mask is set: NumPy's and Polars' pools size themselves at import
    import numpy as np
    import polars as pl

    import isometrics as im
    from isometrics._core.parallel import available_cpus
    from isometrics._core.sorting import machine_report

    for line in machine_report():
        print(line)
    cores = available_cpus()
    print(
        f"CPUs available to this process: {cores}; Polars' pool: {pl.thread_pool_size()} threads; "
        f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"n_jobs=-1 runs {min(args.columns, cores)} threads for {args.columns} columns; keep_operating_points="
        f"{not args.lean}\n"
    )
    verdicts = [_measure(n, args, im, np, cores) for n in args.sizes]
    print("Summary (goal: 4 columns threaded <= 2.5x one column, on 2 cores):")
    for n, ratio, holds, identical in verdicts:
        print(
            f"  n={n:,}: {ratio:.2f}x -> {'holds' if holds else 'does NOT hold'}"
            f"{'' if identical else ' (RESULTS DIFFER)'}"
        )
    if cores != 2:
        print(f"  (measured on {cores} CPUs; pass --cores 2 for the goal's setting)")


if __name__ == "__main__":
    main()
