"""Old against new ``evaluate_dask``, bit for bit: areas, totals, best thresholds, display points and curve files.

Runs the same evaluations with two source trees (each in a subprocess with its own
``PYTHONPATH``, on an in-process ``LocalCluster`` of 2 workers) and compares every array with
``np.array_equal`` and every number with ``==``: one to 40 partitions, the default number of
score ranges and explicit ones (1, fewer and more than the partitions), several score columns,
tied and continuous scores, no weights, integer and real weights, partitions of one class,
a Parquet data set by path.

With real (fractional) weights the counts' sums depend on where the score axis is cut, so
those cases are compared with explicit ``n_ranges`` only (the default number of ranges may
differ between the trees); integer weights and none give the same doubles however it is cut.

Usage: python benchmarks/check_dask_identical.py OLD_SRC [NEW_SRC]   (NEW_SRC defaults to ./src)
e.g.   git archive <commit> src | tar -x -C /tmp/old && python benchmarks/check_dask_identical.py /tmp/old/src
"""

from __future__ import annotations

import os
import tempfile

import _old_new
import numpy as np

METRICS = ["f1", "f0.5", "mcc", "g(beta=2, rho=-3)", "cost(fp=1, fn=5)", "youden"]

# (rows, partitions, n_ranges, weights, ties, sorted by label, parquet)
CASES = [
    (3000, 1, None, "int", True, False, False),
    (3000, 17, None, "int", True, False, False),
    (3000, 17, 1, "int", True, False, False),
    (3000, 9, 40, "int", True, False, False),
    (3000, 40, 7, "int", True, False, False),
    (3000, 11, None, "int", True, True, False),
    (3000, 5, None, "none", False, False, False),
    (3000, 8, 5, "real", True, False, False),
    (3000, 8, 1, "real", False, False, False),
    (50_000, 5, None, "none", False, False, False),
    (300_000, 6, 7, "int", False, False, False),
    (300_000, 6, None, "int", False, False, False),
    (300_000, 6, 6, "real", False, False, False),
    (20_000, 4, None, "int", True, False, True),
]


def frame(n: int, weights: str, ties: bool, by_label: bool, seed: int = 7):
    import pandas as pd

    rng = np.random.default_rng(seed + n)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    data = pd.DataFrame({"y": y.astype(np.int64), "s": np.round(s, 1) if ties else s, "t": rng.random(n)})
    if weights == "int":
        data["w"] = rng.integers(0, 4, size=n)
    elif weights == "real":
        data["w"] = rng.random(n) * 3
    if by_label:
        data = data.sort_values("y", kind="stable").reset_index(drop=True)
    return data


def evaluate(case, client, tmp: str) -> dict:
    import dask.dataframe as dd

    from isometrics.dask import evaluate_dask

    n, parts, n_ranges, weights, ties, by_label, parquet = case
    data = frame(n, weights, ties, by_label)
    source = dd.from_pandas(data, npartitions=parts)
    if parquet:
        source = os.path.join(tmp, f"data-{n}-{parts}")
        os.mkdir(source)
        for k, chunk in enumerate(np.array_split(np.arange(n), parts)):
            data.iloc[chunk].to_parquet(os.path.join(source, f"part-{k}.parquet"), row_group_size=1000)
    curves = os.path.join(tmp, f"curves-{CASES.index(case)}")
    results = evaluate_dask(
        source,
        label="y",
        scores=["s", "t"],
        sample_weight=None if weights == "none" else "w",
        metrics=METRICS,
        client=client,
        n_ranges=n_ranges,
        curve_path=curves,
    )
    out: dict = {}
    for r in results:
        out[f"{r.name}_numbers"] = (r.n_samples, r.n_positives, r.n_negatives, r.prevalence)
        out[f"{r.name}_areas"] = (r.auroc, r.average_precision, r.auprg)
        out[f"{r.name}_best"] = tuple(
            (b.threshold, b.value, b.tp, b.fp, b.n_ties, tuple(b.tied_thresholds)) for b in r.best
        )
        op = r.operating_points
        out[f"{r.name}_shown"] = (op.thresholds, op.tp, op.fp)
        import pyarrow as pa
        import pyarrow.parquet as pq

        files = sorted(os.listdir(os.path.join(curves, r.name)))
        curve = pa.concat_tables([pq.read_table(os.path.join(curves, r.name, f)) for f in files])
        out[f"{r.name}_curve"] = tuple(curve[c].to_numpy() for c in ("threshold", "tp", "fp"))
    return out


def outputs() -> list[dict]:
    import logging
    import warnings

    import distributed

    warnings.simplefilter("ignore")
    with (
        tempfile.TemporaryDirectory() as tmp,
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0", silence_logs=logging.ERROR
        ) as cluster,
        distributed.Client(cluster, set_as_default=False) as client,
    ):
        return [evaluate(c, client, tmp) for c in CASES]


def main() -> None:
    _old_new.main(CASES, outputs, __file__)


if __name__ == "__main__":
    main()
