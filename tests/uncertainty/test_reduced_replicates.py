"""Paired replicates read from the points where positives step in (``Resampler.build(reduced=True)``):
the points left out lie inside runs of tie groups without positives, on a horizontal stretch of the
ROC curve, so every area and every metric that grows with precision at its best threshold is that of
the full replicate table (issue 25, item 5)."""

import zlib

import numpy as np
import pytest

from isometrics.metrics.registry import parse_metric
from isometrics.uncertainty import compare_scores
from isometrics.uncertainty.resampling import Resampler

METRICS = [
    "f1",
    "f2",
    "f0.5",
    "g(beta=2, rho=-3)",
    "g(beta=0.5, rho=1)",
    "power(gamma=2, phi=4)",
    "geometric(beta=2)",
    "arithmetic(gamma=3)",
    "precision",
    "recall",
    "min",
    "max",
]


def _stats(op):
    values = [op.auroc(), op.average_precision(), op.auprg()]
    return np.array(values + [op.best_threshold(parse_metric(m)).value for m in METRICS])


@pytest.mark.parametrize("case", ["untied", "tied", "weighted", "frequency", "rare"])
def test_reduced_replicates_give_the_full_tables_statistics(case):
    rng = np.random.default_rng(zlib.crc32(case.encode()))  # not hash(): it varies per process
    n = 3000
    y = rng.random(n) < (0.02 if case == "rare" else 0.3)
    s = rng.normal(size=n) + y
    if case == "tied":
        s = np.round(s, 1)
    w = None
    if case == "weighted":
        w = rng.uniform(0.2, 3.0, size=n) * (rng.random(n) > 0.05)  # some rows weigh nothing
    if case == "frequency":
        w = rng.integers(1, 4, size=n).astype(float)
    r = Resampler(y, s, w, False, per_sample=True, frequency=case == "frequency")
    kept, _ = r._steps()
    assert len(kept) < r.op.n_points  # something is left out
    for _ in range(25):
        draws = r.counts(rng)
        full, reduced = r.build(draws), r.build(draws, reduced=True)
        assert (full is None) == (reduced is None)
        if full is None:
            continue
        assert reduced.n_points <= full.n_points
        np.testing.assert_allclose(_stats(reduced), _stats(full), rtol=1e-12, atol=1e-15)
        totals = (full.n_positives, full.n_negatives)
        assert (reduced.n_positives, reduced.n_negatives) == pytest.approx(totals, rel=1e-13)


def test_a_threshold_statistic_or_a_whole_matrix_metric_reads_the_full_table(monkeypatch):
    rng = np.random.default_rng(1)
    y = rng.random(500) < 0.3
    scores = {"a": rng.normal(size=500) + y, "b": rng.normal(size=500) + 0.5 * y}
    seen = []
    original = Resampler.build

    def spy(self, draws, *, compact=False, reduced=False):
        seen.append(reduced)
        return original(self, draws, compact=compact, reduced=reduced)

    monkeypatch.setattr(Resampler, "build", spy)
    compare_scores(y, scores, metrics=["f2"], n_resamples=5, rng=0)
    assert seen and all(seen)
    seen.clear()
    compare_scores(y, scores, metrics=["mcc"], n_resamples=5, rng=0)
    assert seen and not any(seen)
