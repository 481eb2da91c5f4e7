"""Out-of-core evaluation (issue 14, section 2): the engine's choice, and evaluate in and out of core.

Generates a Parquet file of ``--rows`` rows (a binary label ``y`` with 10 % positives and one
continuous score column ``s0``: about one distinct score per row, the hardest case for the
group-by) in ``benchmarks/.scratch``, then runs each case in its own process under
``/usr/bin/time -v`` and prints wall time and peak resident set size:

1. DuckDB: ``GROUP BY score ORDER BY score DESC`` with the positives and negatives of each
   score, within ``--memory-limit`` (spilling to ``benchmarks/.scratch``), streamed back as
   Arrow batches and dropped (what ``evaluate_out_of_core`` consumes);
2. Polars' streaming engine: the same group-by and sort, ``sink_parquet`` to disk (Polars
   takes no memory limit) and ``collect(engine="streaming")``;
3. ``isometrics evaluate --out-of-core --memory-limit ...`` (exact areas and thresholds);
4. the in-memory evaluation of the same quantities: the command line's in-memory path
   (its reader and ``evaluate_scores`` with ``keep_operating_points=False``, the JSON written)
   without the cross-fitted decision tables, which ``isometrics evaluate`` prints in memory
   since 2026-11-26 but not out of core; ``out of core / in memory`` is the ratio of 3 to 4;
5. ``isometrics evaluate`` in memory, decision tables included (for reference).

Every case must give the same areas and best threshold, compared with ``==``. Each case's
wall time is printed beside its CPU time (user + system, all threads), its peak resident
set and the load average: on a shared machine the wall times stretch, the CPU times less.

``--huge`` runs 10^9 rows instead, out of core only (about 9 GB of Parquet and up to 46 GB
spilled; the in-memory path would need about 60 GB). The data are removed afterwards.
Run it under the machine's lock for heavy jobs:

    flock /tmp/heavy.lock python benchmarks/bench_out_of_core.py [--rows 1e8] [--memory-limit 4GB] [--huge]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

SCRATCH = Path(__file__).resolve().parent / ".scratch" / "out_of_core"

DUCKDB = """
import sys, duckdb
path, limit, spill = sys.argv[1:4]
con = duckdb.connect()
con.execute(f"SET memory_limit = '{limit}'")
con.execute(f"SET temp_directory = '{spill}'")
con.execute("SET preserve_insertion_order = false")
rel = con.sql(f"SELECT s0 AS t, count(*) FILTER (WHERE y = 1) AS p, count(*) FILTER (WHERE y <> 1) AS n "
              f"FROM read_parquet('{path}') GROUP BY t ORDER BY t DESC")
reader = rel.to_arrow_reader(1_000_000) if hasattr(rel, "to_arrow_reader") else rel.fetch_record_batch(1_000_000)
groups = 0
for batch in reader:
    groups += batch.num_rows
print(groups)
"""

IN_MEMORY = """
import sys
from isometrics import evaluate_scores
from isometrics._core.outputs import json_text
from isometrics.cli._io import FileColumns, read_columns
from isometrics.evaluation import results_json
path, out = sys.argv[1:3]
y = read_columns(path, ["y"])["y"]
results = list(evaluate_scores(y, FileColumns(path, ["s0"]), metrics=["f1"], keep_operating_points=False))
with open(out, "w") as fh:
    fh.write(json_text(results_json(results, file=path, label="y")))
"""

POLARS_SINK = """
import sys, polars as pl
path, out = sys.argv[1:3]
(pl.scan_parquet(path).group_by("s0").agg(p=(pl.col("y") == 1).sum(), n=(pl.col("y") != 1).sum())
 .sort("s0", descending=True).sink_parquet(out))
print(pl.scan_parquet(out).select(pl.len()).collect().item())
"""

POLARS_COLLECT = """
import sys, polars as pl
path = sys.argv[1]
table = (pl.scan_parquet(path).group_by("s0").agg(p=(pl.col("y") == 1).sum(), n=(pl.col("y") != 1).sum())
         .sort("s0", descending=True).collect(engine="streaming"))
print(table.height)
"""


def write_parquet(path: Path, rows: int, chunk: int = 10_000_000) -> None:
    """``y`` (int8, 10 % ones) and ``s0`` (float64, normal + 1.2 y), written chunk by chunk."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    schema = pa.schema([("y", pa.int8()), ("s0", pa.float64())])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            y = (rng.random(n) < 0.1).astype(np.int8)
            writer.write_table(
                pa.Table.from_arrays([pa.array(y), pa.array(rng.normal(size=n) + 1.2 * y)], schema=schema),
                row_group_size=1_000_000,
            )


def timed(name: str, command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in bytes, stdout) of one process under /usr/bin/time -v; prints them with
    the process's CPU time (user + system, all threads) and the load average when it ended."""
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"{name} failed ({run.returncode}):\n{run.stderr[-3000:]}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    rss = int(found.group(1)) * 1024.0 if found else float("nan")
    cpu = sum(float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([0-9.]+)", run.stderr))
    print(
        f"{name:<44} {wall:>8.1f} s {cpu:>8.1f} s {rss / 2**30:>8.2f} GiB   load {os.getloadavg()[0]:.1f}", flush=True
    )
    return wall, rss, run.stdout


def _same(a: dict, b: dict) -> bool:
    """The areas and best thresholds of two JSON results equal, with ``==``."""
    keys = ("auroc", "average_precision", "auprg")
    return all(a[k] == b[k] for k in keys) and [x["threshold"] for x in a["best_thresholds"]] == [
        x["threshold"] for x in b["best_thresholds"]
    ]


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # through the finally below: the data are removed


def main() -> None:
    signal.signal(signal.SIGTERM, _terminated)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--memory-limit", default="4GB", help="DuckDB's limit, and evaluate --memory-limit")
    parser.add_argument(
        "--duckdb-limits",
        nargs="+",
        default=["4GB", "8GB"],
        help="memory limits of the bare DuckDB group-by + sort runs",
    )
    parser.add_argument(
        "--huge", action="store_true", help="10^9 rows, out of core only (~9 GB + ~46 GB spill: 55 GB of disk)"
    )
    parser.add_argument("--skip", nargs="*", default=[], choices=["duckdb", "polars", "ooc", "evaluation", "memory"])
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run the out-of-core and in-memory cases this many times, alternating (ratios under load)",
    )
    parser.add_argument(
        "--baseline-src",
        default=None,
        help="a source tree (PYTHONPATH) whose out-of-core run alternates with this one's",
    )
    parser.add_argument(
        "--data",
        default=None,
        help="an existing Parquet file of columns y and s0 to read instead of writing one (it is kept)",
    )
    args = parser.parse_args()
    rows = 10**9 if args.huge else int(args.rows)
    skip = set(args.skip) | ({"duckdb", "polars", "evaluation", "memory"} if args.huge else set())
    if not Path("/usr/bin/time").exists():
        raise SystemExit("needs GNU time at /usr/bin/time (apt-get install time)")
    SCRATCH.mkdir(parents=True, exist_ok=True)
    path, spill = SCRATCH / f"scores-{rows}.parquet", SCRATCH / "spill"
    spill.mkdir(exist_ok=True)
    py = sys.executable
    cli = [py, "-m", "isometrics.cli", "evaluate", str(path), "--label", "y", "--score", "s0", "--metric", "f1"]
    try:
        start = time.perf_counter()
        if args.data:
            path = Path(args.data)
            rows = pq.ParquetFile(path).metadata.num_rows
            cli[cli.index("evaluate") + 1] = str(path)
        else:
            write_parquet(path, rows)
        print(
            f"{rows:,} rows x (label, score), Parquet {path.stat().st_size / 1e9:.1f} GB, {'found' if args.data else 'written'} in "
            f"{time.perf_counter() - start:.0f} s; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.1f}"
        )
        print(f"{'case':<44} {'wall':>10} {'CPU':>10} {'peak RSS':>12}")
        if "duckdb" not in skip:
            for limit in args.duckdb_limits:
                timed(f"DuckDB group-by + sort ({limit})", [py, "-c", DUCKDB, str(path), limit, str(spill)])
        if "polars" not in skip:
            timed(
                "Polars streaming group-by + sort, sink",
                [py, "-c", POLARS_SINK, str(path), str(SCRATCH / "polars.parquet")],
            )
            (SCRATCH / "polars.parquet").unlink(missing_ok=True)
            timed("Polars streaming group-by + sort, collect", [py, "-c", POLARS_COLLECT, str(path)])
        results = {}
        walls: dict[str, list[float]] = {"ooc": [], "evaluation": [], "memory": []}
        for _ in range(args.repeat):
            if "ooc" not in skip:
                out = SCRATCH / "ooc.json"
                walls["ooc"].append(
                    timed(
                        f"isometrics evaluate --out-of-core ({args.memory_limit})",
                        [
                            *cli,
                            "--out-of-core",
                            "--memory-limit",
                            args.memory_limit,
                            "--temp-directory",
                            str(spill),
                            "--json",
                            str(out),
                        ],
                    )[0]
                )
                results["ooc"] = json.loads(out.read_text())["results"][0]
            if args.baseline_src and "ooc" not in skip:
                out = SCRATCH / "baseline.json"
                env = {**os.environ, "PYTHONPATH": args.baseline_src}
                timed(
                    f"  the same, source {args.baseline_src}",
                    [
                        *cli,
                        "--out-of-core",
                        "--memory-limit",
                        args.memory_limit,
                        "--temp-directory",
                        str(spill),
                        "--json",
                        str(out),
                    ],
                    env=env,
                )
                baseline = json.loads(out.read_text())["results"][0]
                print(f"  areas and best threshold identical to that source's: {_same(baseline, results['ooc'])}")
            if "evaluation" not in skip:
                out = SCRATCH / "evaluation.json"
                walls["evaluation"].append(
                    timed("in-memory evaluation (no decision tables)", [py, "-c", IN_MEMORY, str(path), str(out)])[0]
                )
                results["evaluation"] = json.loads(out.read_text())["results"][0]
            if "memory" not in skip:
                out = SCRATCH / "memory.json"
                walls["memory"].append(
                    timed("isometrics evaluate (in memory, with decisions)", [*cli, "--json", str(out)])[0]
                )
                written = json.loads(out.read_text())
                if "out_of_core" in written:
                    print("  (the in-memory run switched out of core by itself: too little memory available now)")
                results["memory"] = written["results"][0]
        for case, what in (("evaluation", "in memory"), ("memory", "isometrics evaluate in memory (decisions)")):
            if walls["ooc"] and walls[case]:
                ratios = [a / b for a, b in zip(walls["ooc"], walls[case])]
                print(f"out of core / {what}, wall: {', '.join(f'{r:.2f}' for r in ratios)}")
        if "ooc" in results and len(results) >= 2:
            same = all(_same(results["ooc"], other) for other in results.values())
            print(f"areas and best threshold identical in and out of core: {same}")
        if results:
            r = next(iter(results.values()))
            print("AUROC {auroc!r}, AP {average_precision!r}, AUPRG {auprg!r}".format(**r))
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)


if __name__ == "__main__":
    main()
