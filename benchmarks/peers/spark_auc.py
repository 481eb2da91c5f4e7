"""Spark MLlib's areas of a Parquet data set: exact mode and binned mode, timed (run by bench_dask.py).

Runs in benchmarks/.venv-spark (benchmarks/peers/setup_spark.sh), on ``local[2]``. Prints one
JSON line: the session start-up time (and a warm-up on 20,000 rows, not timed), then for each mode its areas and wall time (from reading
the Parquet to the last area, the session already started).

* exact: ``pyspark.ml.evaluation.BinaryClassificationEvaluator`` with ``numBins=0`` (MLlib's
  ``BinaryClassificationMetrics`` with every distinct score a point): areaUnderROC, then
  areaUnderPR (one pass each; ``auroc_s`` is the first alone);
* binned: the same with the default ``numBins=1000`` (curves down-sampled to about 1000 points);
* mllib (on request): ``org.apache.spark.mllib.evaluation.BinaryClassificationMetrics`` built from
  a DataFrame, which is what ``pyspark.mllib.evaluation.BinaryClassificationMetrics`` does with
  its RDD; in Spark 4.3 that constructor down-samples too (its AUROC equals the binned one).

Usage: python spark_auc.py PARQUET_PATH [--label y] [--score s] [--memory 8g]
"""

from __future__ import annotations

import argparse
import json
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--label", default="y")
    parser.add_argument("--score", default="s")
    parser.add_argument("--memory", default="8g")
    parser.add_argument("--modes", nargs="+", default=["exact", "binned"], help="exact, binned, mllib")
    parser.add_argument("--auroc-only", action="store_true", help="skip the PR area (one pass less)")
    args = parser.parse_args()

    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    start = time.perf_counter()
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("isometrics-bench")
        .config("spark.driver.memory", args.memory)
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    out: dict = {"startup_s": time.perf_counter() - start, "spark": spark.version}

    def frame():
        return spark.read.parquet(args.path).select(
            F.col(args.score).cast("double").alias("score"), F.col(args.label).cast("double").alias("label")
        )

    warm = frame().limit(20_000).cache()  # JIT and first-job costs paid before the timings
    for bins in (0, 1000):
        BinaryClassificationEvaluator(rawPredictionCol="score", labelCol="label", numBins=bins).evaluate(warm)
    warm.unpersist()
    for mode, bins in (("exact", 0), ("binned", 1000)):
        if mode not in args.modes:
            continue
        t = time.perf_counter()
        df = frame()
        roc = BinaryClassificationEvaluator(
            rawPredictionCol="score", labelCol="label", metricName="areaUnderROC", numBins=bins
        )
        pr = BinaryClassificationEvaluator(
            rawPredictionCol="score", labelCol="label", metricName="areaUnderPR", numBins=bins
        )
        auroc = roc.evaluate(df)
        t_auroc = time.perf_counter() - t
        aupr = pr.evaluate(df) if not args.auroc_only else float("nan")
        out[mode] = {
            "auroc": auroc,
            "aupr": aupr,
            "auroc_s": t_auroc,
            "wall_s": time.perf_counter() - t,
            "num_bins": bins,
        }
    if "mllib" in args.modes:  # pyspark.mllib's class, as its Python wrapper builds it (from a DataFrame)
        t = time.perf_counter()
        jvm = spark.sparkContext._jvm
        metrics = jvm.org.apache.spark.mllib.evaluation.BinaryClassificationMetrics(frame()._jdf)
        auroc = metrics.areaUnderROC()
        out["mllib"] = {"auroc": auroc, "aupr": metrics.areaUnderPR(), "auroc_s": time.perf_counter() - t}
        metrics.unpersist()
    spark.stop()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
