"""The level-curve bisections call the metric's kernel directly (issue 25, item 5): the curves are
bit for bit those of the validated ``Metric.from_precision_recall`` path, on a grid of metrics,
levels and spaces."""

import numpy as np
import pytest

from isometrics.metrics.registry import parse_metric
from isometrics.spaces import level_curves
from isometrics.spaces.level_curves import level_curve

METRICS = [
    "f1",
    "f2",
    "f0.5",
    "fbeta(beta=1e200)",
    "g(beta=2, rho=-3)",
    "g(beta=2, rho=-inf)",
    "g(beta=2, rho=0)",
    "g(beta=0.5, rho=1)",
    "g(beta=3, rho=-6)",
    "arithmetic(gamma=3)",
    "geometric(beta=2)",
    "power(gamma=0.5, phi=2.5)",
    "power(gamma=2, phi=4)",
    "min",
    "max",
]


def _validated(metric):
    return lambda p, r: metric.from_precision_recall(p, r)


@pytest.mark.parametrize("spec", METRICS)
def test_level_curves_are_bit_identical_to_the_validated_path(spec, monkeypatch):
    metric = parse_metric(spec)
    cases = [
        (v, space, pi)
        for v in (0.05, 0.3, 0.5, 0.8, 0.97, 1.0)
        for space, pi in (("pr", None), ("roc", 0.045), ("roc", 0.5), ("prg", 0.045), ("prg", 0.3))
    ]
    fast = [level_curve(metric, v, space=space, prevalence=pi, n_points=50) for v, space, pi in cases]
    monkeypatch.setattr(level_curves, "_kernel", _validated)
    slow = [level_curve(metric, v, space=space, prevalence=pi, n_points=50) for v, space, pi in cases]
    for a, b in zip(fast, slow):
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y, strict=True)


def test_the_kernel_gives_from_precision_recalls_values():
    for spec in METRICS:
        metric = parse_metric(spec)
        p, r = np.linspace(0, 1, 41), np.linspace(1, 0, 41)
        np.testing.assert_array_equal(level_curves._kernel(metric)(p, r), metric.from_precision_recall(p, r))
        assert float(level_curves._kernel(metric)(0.3, 0.7)) == float(metric.from_precision_recall(0.3, 0.7))
