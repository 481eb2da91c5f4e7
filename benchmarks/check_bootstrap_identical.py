"""Old against new bootstrap, bit for bit: the replicates, intervals and p-values for a seed.

Runs the same calls with two source trees (each in a subprocess with its own ``PYTHONPATH``) and
compares every array with ``np.array_equal`` (NaN equal to NaN): ``bootstrap_compare`` of two and
three models (AUROC and AP, AUROC and AUPRG, AUROC and F1: the steps of the positives and the
general path), continuous, tied and mixed scores, unweighted, sampling and frequency weights,
stratified or not, three seeds; ``bootstrap_areas`` and ``bootstrap`` of one model likewise.

Usage: python benchmarks/check_bootstrap_identical.py OLD_SRC [NEW_SRC]   (NEW_SRC defaults to ./src)
e.g.   git archive <commit> src | tar -x -C /tmp/old && python benchmarks/check_bootstrap_identical.py /tmp/old/src
"""

from __future__ import annotations

import warnings

import _old_new
import numpy as np

N = 30_000
SEEDS = (0, 1, 2)


def _compare_cases(seed: int) -> tuple[np.ndarray, dict]:
    rng = np.random.default_rng(100 + seed)
    y = rng.random(N) < 0.15
    s = rng.normal(size=N) + y
    o = s + rng.normal(size=N)
    w = rng.integers(1, 4, N).astype(float)
    return y, {
        "continuous": ({"a": s, "b": o}, None, None),
        "ties": ({"a": np.round(s, 1), "b": np.round(o, 2)}, None, None),
        "mixed3": ({"a": s, "b": np.round(o, 1), "c": np.round(s, 0)}, None, None),
        "sampling": ({"a": s, "b": o}, w, "sampling"),
        "frequency": ({"a": s, "b": np.round(o, 1)}, w, "frequency"),
    }


def outputs() -> list[dict[str, np.ndarray]]:
    """Every array of the calls, by name: one case (the package is the tree on ``sys.path``)."""
    import isometrics as im

    warnings.simplefilter("ignore")
    out: dict[str, np.ndarray] = {}
    for seed in SEEDS:
        y, cases = _compare_cases(seed)
        for name, (scores, weights, kind) in cases.items():
            for stratified in (False, True):
                for stats in (["auroc", "average_precision"], ["auroc", "auprg"], ["auroc", "f1"]):
                    key = f"compare-{seed}-{name}-{stratified}-{'+'.join(stats)}"
                    c = im.uncertainty.bootstrap_compare(
                        y, scores, statistics=stats, n_resamples=40, rng=seed, stratified=stratified,
                        sample_weight=weights, weight_kind=kind,
                    )  # fmt: skip
                    for statistic, values in c.distributions.items():
                        out[f"{key}-replicates-{statistic}"] = np.asarray(values)
                    for i, row in enumerate(c.rows):
                        out[f"{key}-row{i}"] = np.array(
                            [row.estimate, *row.confidence_interval, *row.adjusted_interval, row.p_value,
                             row.adjusted_p_value]
                        )  # fmt: skip
                        if row.bootstrap is not None:
                            out[f"{key}-row{i}-difference"] = np.asarray(row.bootstrap.bootstrap_distribution)
        column = cases["continuous"][0]["a"]
        for label, values in (("continuous", column), ("ties", np.round(column, 1))):
            for stratified in (False, True):
                key = f"one-{seed}-{label}-{stratified}"
                for areas in (("auroc", "average_precision"), ("auroc", "average_precision", "auprg")):
                    results = im.uncertainty.bootstrap_areas(
                        y, values, areas=areas, n_resamples=40, rng=seed, stratified=stratified
                    )
                    for area, r in results.items():
                        out[f"{key}-areas{len(areas)}-{area}"] = np.r_[
                            r.estimate, r.confidence_interval, r.bootstrap_distribution
                        ]
                r = im.uncertainty.bootstrap(y, values, n_resamples=40, rng=seed, stratified=stratified)
                out[f"{key}-bootstrap"] = np.r_[r.estimate, r.confidence_interval, r.bootstrap_distribution]
    return [out]


def main() -> None:
    _old_new.main(["every call"], outputs, __file__)


if __name__ == "__main__":
    main()
