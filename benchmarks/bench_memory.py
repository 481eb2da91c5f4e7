"""Peak memory of ``isometrics evaluate`` against the number of score columns (issue 14, section 1).

Generates Parquet files of ``--rows`` rows (a binary label, 10 % positives, and 1, 2 and 4
continuous score columns) in a temporary folder, runs the command line on each under
``/usr/bin/time -v``, prints the peak resident set size and the wall time per case, and
removes the files. The goal: peak RSS independent of the number of score columns, and at
most 4 GB for 10^8 rows x 2 columns (``--rows 1e8 --columns 2``).

Usage: python benchmarks/bench_memory.py [--rows 1e7] [--columns 1 2 4] [--metric f1]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def write_parquet(path: Path, rows: int, columns: int, chunk: int = 5_000_000) -> None:
    """The label ``y`` and score columns ``s0``, ``s1``... written chunk by chunk (bounded memory)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    schema = pa.schema([("y", pa.int8())] + [(f"s{k}", pa.float64()) for k in range(columns)])
    with pq.ParquetWriter(path, schema) as writer:
        for start in range(0, rows, chunk):
            n = min(chunk, rows - start)
            y = (rng.random(n) < 0.1).astype(np.int8)
            arrays = [pa.array(y)] + [pa.array(rng.normal(size=n) + (k + 1) * 0.5 * y) for k in range(columns)]
            writer.write_table(pa.Table.from_arrays(arrays, schema=schema))


def peak_rss(path: Path, columns: int, metric: str, out: Path) -> tuple[float, float]:
    """(peak RSS in bytes, wall seconds) of one ``isometrics evaluate`` run."""
    command = [
        "/usr/bin/time",
        "-v",
        sys.executable,
        "-m",
        "isometrics.cli",
        "evaluate",
        str(path),
        "--label",
        "y",
        *[a for k in range(columns) for a in ("--score", f"s{k}")],
        "--metric",
        metric,
        "--json",
        str(out),
    ]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
    wall = time.perf_counter() - start
    if run.returncode != 0:
        raise SystemExit(f"evaluate failed ({run.returncode}):\n{run.stderr[-2000:]}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"no peak RSS in /usr/bin/time's output:\n{run.stderr[-2000:]}")
    return int(found.group(1)) * 1024.0, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, default=1e7, help="rows per file (1e8: the issue's goal, <= 4 GB)")
    parser.add_argument(
        "--columns",
        type=int,
        nargs="+",
        default=None,
        help="numbers of score columns (default: 1 2 4; with --rows 1e8 or more: 2)",
    )
    parser.add_argument("--metric", default="f1")
    args = parser.parse_args()
    rows = int(args.rows)
    cases = args.columns or ([2] if rows >= 10**8 else [1, 2, 4])
    if not Path("/usr/bin/time").exists():
        raise SystemExit("needs GNU time at /usr/bin/time (apt-get install time)")
    print(f"isometrics evaluate, {rows:,} rows, Parquet, continuous scores; peak RSS from /usr/bin/time -v")
    print(f"{'score columns':>14} {'peak RSS':>10} {'per row':>9} {'wall':>8}")
    with tempfile.TemporaryDirectory(prefix="isometrics-bench-memory-") as folder:
        first = None
        for columns in cases:
            path = Path(folder) / f"scores-{columns}.parquet"
            write_parquet(path, rows, columns)
            rss, wall = peak_rss(path, columns, args.metric, Path(folder) / "out.json")
            path.unlink()
            first = first or rss
            print(
                f"{columns:>14} {rss / 2**30:>8.2f} GiB {rss / rows:>7.1f} B {wall:>7.1f} s"
                f"   (x{rss / first:.2f} the first case)"
            )


if __name__ == "__main__":
    main()
