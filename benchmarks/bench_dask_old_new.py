"""Old against new ``evaluate_dask``: wall and CPU time of the same evaluations, interleaved.

Writes a Parquet data set of ``--rows`` rows in ``--partitions`` files (a label ``y`` with 10 %
positives, a continuous score ``s`` and a score ``t`` of 1,000 tied values) under
``benchmarks/.scratch/``, then, ``--rounds`` times, runs each source tree in turn (a subprocess
with its own ``PYTHONPATH``): a local cluster of ``--workers`` worker processes of one thread
(started apart, then warmed up by one evaluation), and ``--repeat`` timed evaluations of ``s``
alone and of ``s`` and ``t`` together. Prints, per tree and case, the median wall time, the
client's CPU time and the workers' CPU time (each worker's ``time.process_time``), with the
load average; checks that both trees give the same areas (``==``).

Usage: python benchmarks/bench_dask_old_new.py OLD_SRC [NEW_SRC] [--rows 1e6] [--partitions 8]
e.g.   git archive <commit> src | tar -x -C /tmp/old && python benchmarks/bench_dask_old_new.py /tmp/old/src
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
CASES = {"s": ["s"], "s+t": ["s", "t"]}


def write_data(directory: Path, rows: int, partitions: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    directory.mkdir(parents=True)
    rng = np.random.default_rng(14)
    for k, chunk in enumerate(np.array_split(np.arange(rows), partitions)):
        n = len(chunk)
        y = (rng.random(n) < 0.1).astype(np.int8)
        s = rng.normal(size=n) + y
        t = np.round(rng.random(n) + 0.2 * y, 3)
        pq.write_table(pa.table({"y": y, "s": s, "t": t}), directory / f"part-{k:04d}.parquet", row_group_size=n)


def measure(path: str, workers: int, repeat: int) -> dict:
    import logging

    from distributed import Client, LocalCluster

    from isometrics.dask import evaluate_dask

    out: dict = {}
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster) as client,
    ):
        evaluate_dask(path, label="y", scores=["s", "t"], client=client)  # imports on the workers, not timed
        for case, scores in CASES.items():
            walls, cpus, worker_cpus = [], [], []
            for _ in range(repeat):
                before = sum(client.run(time.process_time).values())
                t, c = time.perf_counter(), time.process_time()
                results = evaluate_dask(path, label="y", scores=scores, metrics=["f1"], client=client)
                walls.append(time.perf_counter() - t)
                cpus.append(time.process_time() - c)
                worker_cpus.append(sum(client.run(time.process_time).values()) - before)
            out[case] = {
                "wall_s": statistics.median(walls),
                "client_cpu_s": statistics.median(cpus),
                "workers_cpu_s": statistics.median(worker_cpus),
                "areas": [(r.auroc, r.average_precision, r.auprg, r.best[0].threshold) for r in results],
            }
    return out


def main() -> None:
    if sys.argv[1] == "--measure":
        print(json.dumps(measure(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old_src")
    parser.add_argument("new_src", nargs="?", default="src")
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = HERE / ".scratch" / f"bench_dask_old_new_{int(args.rows)}_{args.partitions}"
    if path.exists():
        shutil.rmtree(path)
    write_data(path, int(args.rows), args.partitions)
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    try:
        for r in range(args.rounds):
            for side, src in (("old", args.old_src), ("new", args.new_src)):
                env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
                load = os.getloadavg()[0]
                done = subprocess.run(
                    [sys.executable, __file__, "--measure", str(path), str(args.workers), str(args.repeat)],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                result = json.loads(done.stdout.strip().splitlines()[-1])
                runs[side].append(result)
                print(
                    f"round {r} {side}: load {load:.1f}; "
                    + "; ".join(
                        f"{case} wall {v['wall_s']:.3f} s, client CPU {v['client_cpu_s']:.3f} s, "
                        f"workers CPU {v['workers_cpu_s']:.3f} s"
                        for case, v in result.items()
                    ),
                    flush=True,
                )
    finally:
        shutil.rmtree(path, ignore_errors=True)
    print(f"\n{int(args.rows):,} rows in {args.partitions} Parquet files, {args.workers} worker processes; medians:")
    for case in CASES:
        line = []
        for side in ("old", "new"):
            values = [run[case] for run in runs[side]]
            line.append(
                f"{side} wall {statistics.median(v['wall_s'] for v in values):.3f} s "
                f"(client CPU {statistics.median(v['client_cpu_s'] for v in values):.3f} s, "
                f"workers CPU {statistics.median(v['workers_cpu_s'] for v in values):.3f} s)"
            )
        ratio = statistics.median(v[case]["wall_s"] for v in runs["old"]) / statistics.median(
            v[case]["wall_s"] for v in runs["new"]
        )
        print(f"  {case}: {'; '.join(line)}; old/new wall {ratio:.2f}x")
    same = all(a[c]["areas"] == b[c]["areas"] for a, b in zip(runs["old"], runs["new"]) for c in CASES)
    print(f"  areas and best thresholds equal (==) old and new: {same}")


if __name__ == "__main__":
    main()
