"""isometrics on a Dask cluster against Spark MLlib's exact and binned modes, on the same Parquet data (issue 14 §4).

Generates a Parquet data set of ``--rows`` rows (a binary label ``y`` with 10 % positives and a
continuous score ``s``: every score distinct) under ``benchmarks/.scratch/``, then times, in
the same run:

* isometrics: :func:`isometrics.dask.evaluate_dask` on a local Dask cluster of ``--workers``
  worker processes of one thread each (AUROC, average precision, AUPRG and the best F1
  threshold, exact), the cluster started beforehand (its start-up reported apart);
* Spark MLlib (``benchmarks/.venv-spark``, made by ``benchmarks/peers/setup_spark.sh``), on
  ``local[2]``: ``BinaryClassificationEvaluator`` with ``numBins=0`` (exact) and with its default
  ``numBins=1000`` (binned), AUROC then the PR area (``benchmarks/peers/spark_auc.py``), the
  session started and warmed up beforehand.

Both read the Parquet files in the timed part. Prints the times, the ratios (Spark's exact
AUROC alone, and AUROC plus PR area, against isometrics' whole evaluation), the error of
Spark's binned areas against its exact ones, and checks isometrics against the in-memory engine
(``==``) up to ``--check-rows`` rows and against Spark's exact AUROC beyond. The goal: at least
10x faster than Spark's exact mode at 10^7 and 10^8 rows. The data are removed at the end.

Usage: flock /tmp/heavy.lock python benchmarks/bench_dask.py [--rows 1e7 1e8] [--workers 2]
       [--spark-modes exact binned] [--spark-auroc-only] [--spark-timeout 3600] [--skip-spark]

Measured (2026-11-26, 2 cores shared with other work, load about 3): 10^7 rows: isometrics.dask
2.35 s, Spark exact AUROC 81.3 s (34.6x), AUROC + PR area 156.2 s (66.5x); binned AUROC error
-9.6e-07, PR area -3.9e-04. 10^8 rows: isometrics.dask 24.5 s, Spark exact AUROC 873.8 s (35.7x).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SPARK_PYTHON = HERE / ".venv-spark" / "bin" / "python"


def write_data(directory: Path, rows: int, file_rows: int) -> None:
    """Files of ``file_rows`` rows: ``y`` (int8, 10 % ones) and ``s`` = normal noise + y (float64)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    directory.mkdir(parents=True)
    rng = np.random.default_rng(14)
    for k, start in enumerate(range(0, rows, file_rows)):
        n = min(file_rows, rows - start)
        y = (rng.random(n) < 0.1).astype(np.int8)
        s = rng.normal(size=n) + y
        pq.write_table(pa.table({"y": y, "s": s}), directory / f"part-{k:04d}.parquet", row_group_size=n)


def run_isometrics(path: Path, workers: int, check_rows: int, rows: int) -> dict:
    from distributed import Client, LocalCluster

    from isometrics.dask import evaluate_dask

    out: dict = {}
    t = time.perf_counter()
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster) as client,
    ):
        out["startup_s"] = time.perf_counter() - t
        warm = sorted(path.glob("*.parquet"))[0]
        evaluate_dask(warm, label="y", scores="s", client=client)  # imports on the workers, not timed
        t = time.perf_counter()
        result = evaluate_dask(path, label="y", scores="s", metrics=["f1"], client=client)["s"]
        out["wall_s"] = time.perf_counter() - t
    out.update(
        auroc=result.auroc,
        average_precision=result.average_precision,
        auprg=result.auprg,
        f1_threshold=result.best[0].threshold,
    )
    if rows <= check_rows:  # the in-memory engine on the same data: equal, exactly
        import pyarrow.parquet as pq

        import isometrics as im

        table = pq.read_table(path)
        t = time.perf_counter()
        ref = im.evaluate_scores(table["y"].to_numpy(), {"s": table["s"].to_numpy()}, metrics=["f1"])["s"]
        out["in_memory_s"] = time.perf_counter() - t
        out["equal_to_in_memory"] = bool(
            (ref.auroc, ref.average_precision, ref.auprg, ref.best[0].threshold)
            == (result.auroc, result.average_precision, result.auprg, result.best[0].threshold)
        )
    return out


def run_spark(path: Path, memory: str, modes: list[str], timeout: float, auroc_only: bool) -> dict | None:
    if not SPARK_PYTHON.exists():
        print(f"  Spark: {SPARK_PYTHON} missing; run benchmarks/peers/setup_spark.sh first", file=sys.stderr)
        return None
    # its own process group, so that a timeout stops the JVM that pyspark starts too
    process = subprocess.Popen(
        [
            str(SPARK_PYTHON),
            str(HERE / "peers" / "spark_auc.py"),
            str(path),
            "--memory",
            memory,
            "--modes",
            *modes,
            *(["--auroc-only"] if auroc_only else []),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return {"timeout_s": timeout}
    run = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    if run.returncode != 0:
        print(f"  Spark failed ({run.returncode}):\n{run.stderr[-3000:]}", file=sys.stderr)
        return None
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, nargs="+", default=[1e7])
    parser.add_argument("--workers", type=int, default=2, help="Dask worker processes (Spark runs local[2])")
    parser.add_argument("--file-rows", type=int, default=2_500_000, help="rows per Parquet file (one partition)")
    parser.add_argument("--check-rows", type=float, default=2e7, help="compare with the in-memory engine up to here")
    parser.add_argument("--spark-memory", default="10g", help="Spark driver memory")
    parser.add_argument("--skip-spark", action="store_true")
    parser.add_argument("--spark-modes", nargs="+", default=["exact", "binned"], choices=["exact", "binned"])
    parser.add_argument("--spark-auroc-only", action="store_true", help="Spark computes AUROC alone")
    parser.add_argument("--spark-timeout", type=float, default=3600.0, help="seconds before Spark is stopped")
    parser.add_argument("--keep", action="store_true", help="keep the generated data")
    args = parser.parse_args()

    scratch = HERE / ".scratch"
    for rows in (int(r) for r in args.rows):
        path = scratch / f"bench_dask_{rows}"
        if path.exists():
            shutil.rmtree(path)
        print(f"\n== {rows:,} rows, continuous scores (10 % positives), {args.workers} Dask workers vs Spark local[2]")
        t = time.perf_counter()
        write_data(path, rows, args.file_rows)
        print(
            f"  data written in {time.perf_counter() - t:.1f} s ({sum(f.stat().st_size for f in path.iterdir()) / 1e9:.2f} GB)"
        )
        try:
            iso = run_isometrics(path, args.workers, int(args.check_rows), rows)
            print(
                f"  isometrics.dask: {iso['wall_s']:.2f} s (AUROC, AP, AUPRG, best F1; cluster start-up "
                f"{iso['startup_s']:.1f} s apart); AUROC {iso['auroc']:.12f}"
            )
            if "in_memory_s" in iso:
                print(
                    f"  in-memory evaluate_scores: {iso['in_memory_s']:.2f} s; results equal (==): "
                    f"{iso['equal_to_in_memory']}"
                )
            spark = (
                None
                if args.skip_spark
                else run_spark(path, args.spark_memory, args.spark_modes, args.spark_timeout, args.spark_auroc_only)
            )
            if spark is not None and "timeout_s" in spark:
                print(
                    f"  Spark did not finish within {spark['timeout_s']:.0f} s (stopped): ratio Spark exact / "
                    f"isometrics.dask > {spark['timeout_s'] / iso['wall_s']:.0f}x"
                )
            elif spark is not None:
                ex, bi = spark.get("exact"), spark.get("binned")
                if ex is not None:
                    both = "" if args.spark_auroc_only else f", AUROC + PR area {ex['wall_s']:.2f} s"
                    print(
                        f"  Spark {spark['spark']} exact (numBins=0): AUROC {ex['auroc_s']:.2f} s{both}; AUROC "
                        f"{ex['auroc']:.12f} (|diff| to isometrics {abs(ex['auroc'] - iso['auroc']):.1e})"
                    )
                    both = "" if args.spark_auroc_only else f", AUROC + PR area {ex['wall_s'] / iso['wall_s']:.1f}x"
                    print(
                        f"  ratio Spark exact / isometrics.dask: AUROC alone {ex['auroc_s'] / iso['wall_s']:.1f}x"
                        f"{both} (goal >= 10x)"
                    )
                if bi is not None:
                    print(
                        f"  Spark binned (numBins=1000): AUROC {bi['auroc_s']:.2f} s, AUROC + PR area "
                        f"{bi['wall_s']:.2f} s; AUROC error against isometrics' exact value "
                        f"{bi['auroc'] - iso['auroc']:+.2e}"
                        + (
                            ""
                            if ex is None
                            else f", PR area error against Spark's exact PR area {bi['aupr'] - ex['aupr']:+.2e}"
                        )
                    )
                    print(
                        f"  ratio Spark binned / isometrics.dask: AUROC alone {bi['auroc_s'] / iso['wall_s']:.1f}x, "
                        f"AUROC + PR area {bi['wall_s'] / iso['wall_s']:.1f}x"
                    )
        finally:
            if not args.keep:
                shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
