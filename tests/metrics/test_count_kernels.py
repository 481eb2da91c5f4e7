"""One count kernel per quantity: the label metrics and the threshold metrics agree bit for bit.

A quantity of a confusion table (F-beta, precision, recall, specificity, NPV, fall-out,
balanced accuracy, MCC) is computed by one function of ``isometrics.metrics.kernels``; the
scikit-learn-named label metrics and the :class:`~isometrics.Metric` objects behind curves and
best thresholds both call it. These tests feed the same counts to both sides (the label side
as four weighted samples), check the values against exact rational arithmetic (hand
derivation of each formula, counts up to 1e300), and check that no second formula exists.
"""

from __future__ import annotations

import ast
import math
from decimal import Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import isometrics as im
from isometrics.metrics import kernels

SRC = Path(im.__file__).parent


def _samples(tp, fp, fn, tn):
    """Four samples whose weights are the counts: (1, 1), (0, 1), (1, 0), (0, 0)."""
    return np.array([1, 0, 1, 0]), np.array([1, 1, 0, 0]), np.array([tp, fp, fn, tn], dtype=np.float64)


def _random_counts(rng, n):
    """Counts whose sums are exact in float64 (small integers times a power of two shared by the
    four), so that the label side's counts (sums and differences of the weights) are the counts
    given; zeros are frequent and the scale reaches about 1e300 and 1e-300."""
    for _ in range(n):
        scale = math.ldexp(1.0, int(rng.choice([0, -30, 40, 996, -996])))
        counts = rng.integers(0, 40, size=4) * (rng.random(4) < 0.75)
        if counts.sum() == 0:
            counts[rng.integers(4)] = 1
        yield tuple(float(c) * scale for c in counts)


def _label(fn, tp, fp, fn_, tn, **kw):
    y, p, w = _samples(tp, fp, fn_, tn)
    with np.errstate(all="ignore"):
        return fn(y, p, sample_weight=w, **kw)


def _threshold(spec, tp, fp, fn, tn):
    return float(im.parse_metric(spec).from_counts(tp, fp, fn, tn))


#: (label metric and its arguments, Metric spec, value where 0/0 on the threshold side)
PAIRS = [
    ((im.f1_score, {"zero_division": 0.0}), "f1"),
    ((im.fbeta_score, {"beta": 2.0, "zero_division": 0.0}), "f2"),
    ((im.fbeta_score, {"beta": 0.5, "zero_division": 0.0}), "f0.5"),
    ((im.fbeta_score, {"beta": 3.7, "zero_division": 0.0}), "fbeta(beta=3.7)"),
    ((im.fbeta_score, {"beta": 1e200, "zero_division": 0.0}), "fbeta(beta=1e200)"),
    ((im.precision_score, {"zero_division": np.nan}), "precision"),
    ((im.recall_score, {"zero_division": np.nan}), "recall"),
    ((im.specificity_score, {"zero_division": np.nan}), "specificity"),
    ((im.negative_predictive_value_score, {"zero_division": np.nan}), "npv"),
    ((im.matthews_corrcoef, {"zero_division": np.nan}), "mcc"),
]


@pytest.mark.parametrize("label, spec", PAIRS, ids=[p[1] for p in PAIRS])
def test_label_and_threshold_metric_agree_bit_for_bit(label, spec):
    func, kw = label
    rng = np.random.default_rng(24)
    for tp, fp, fn, tn in _random_counts(rng, 150):
        ours = _label(func, tp, fp, fn, tn, **kw)
        theirs = _threshold(spec, tp, fp, fn, tn)
        if spec.startswith(("precision", "recall")) and math.isnan(theirs):
            continue  # the precision-recall family's Metric is NaN there; the label metric's zero_division
        assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), (spec, (tp, fp, fn, tn), ours, theirs)


def test_balanced_accuracy_label_and_threshold_agree():
    rng = np.random.default_rng(7)
    for tp, fp, fn, tn in _random_counts(rng, 150):
        if tp + fn == 0 or fp + tn == 0:
            continue  # a class absent: the label metric averages the present one, the Metric is NaN
        assert _label(im.balanced_accuracy_score, tp, fp, fn, tn) == _threshold("balanced_accuracy", tp, fp, fn, tn)


def test_best_threshold_value_is_the_label_metric_at_that_threshold():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = rng.random(300) + 0.3 * y
    w = rng.random(300) * 1e300
    for metric, label in (
        ("f2", lambda yt, yp, sw: im.fbeta_score(yt, yp, beta=2, sample_weight=sw)),
        ("mcc", lambda yt, yp, sw: im.matthews_corrcoef(yt, yp, sample_weight=sw)),
    ):
        best = im.best_threshold(y, s, metric=metric, sample_weight=w)
        assert math.isfinite(best.value)
        assert label(y, (s >= best.threshold).astype(int), w) == pytest.approx(best.value, rel=1e-12)


# ------------------------------------------------------------------ exact reference (hand derivation)
def _exact(name, tp, fp, fn, tn, beta=None):
    """The quantity in rational arithmetic, from its textbook definition; None where 0/0."""
    tp, fp, fn, tn = (Fraction(x) for x in (tp, fp, fn, tn))

    def div(a, b):
        return None if b == 0 else a / b

    if name == "fbeta":
        b2 = Fraction(beta) ** 2
        return div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    if name == "mcc":
        den2 = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        if den2 == 0:
            return None
        num = tp * tn - fp * fn
        with localcontext() as ctx:  # 40 digits and exponents far beyond double range
            ctx.prec = 40
            dec = [Decimal(q.numerator) / Decimal(q.denominator) for q in (num, den2)]
            return float(dec[0] / dec[1].sqrt())
    return {
        "precision": lambda: div(tp, tp + fp),
        "recall": lambda: div(tp, tp + fn),
        "specificity": lambda: div(tn, tn + fp),
        "fall_out": lambda: div(fp, fp + tn),
        "npv": lambda: div(tn, tn + fn),
    }[name]()


def _hostile_counts(rng, n):
    """Counts with zeros and huge values (1e300 beside 1), or a table of tiny counts (1e-300)."""
    for k in range(n):
        table = [float(rng.choice([0.0, 1.0, 3.0, 1e300, 7e299, rng.random() * 1e5])) for _ in range(4)]
        yield tuple(x * 1e-305 for x in table) if k % 5 == 0 else tuple(table)


@pytest.mark.parametrize("name", ["precision", "recall", "specificity", "fall_out", "npv", "mcc", "fbeta"])
def test_kernels_against_exact_arithmetic_overflow_free(name):
    rng = np.random.default_rng(11)
    kernel = getattr(kernels, f"{name}_from_counts")
    for tp, fp, fn, tn in _hostile_counts(rng, 400):
        for beta in (0.5, 1.0, 2.0, 1e-100, 1e100) if name == "fbeta" else (None,):
            got = float(kernel(tp, fp, fn, beta) if name == "fbeta" else kernel(tp, fp, fn, tn))
            want = _exact(name, tp, fp, fn, tn, beta)
            if want is None:
                assert math.isnan(got), (name, (tp, fp, fn, tn), got)
            else:
                assert got == pytest.approx(float(want), rel=1e-14, abs=1e-300), (name, (tp, fp, fn, tn), beta)


def test_kernels_vectorise_like_scalars():
    rng = np.random.default_rng(5)
    counts = np.array(list(_hostile_counts(rng, 200))).T
    for name in ("precision", "recall", "specificity", "fall_out", "npv", "mcc", "balanced_accuracy"):
        kernel = getattr(kernels, f"{name}_from_counts")
        one_by_one = [float(kernel(*c)) for c in counts.T]
        np.testing.assert_array_equal(kernel(*counts), one_by_one)
    np.testing.assert_array_equal(
        kernels.fbeta_from_counts(counts[0], counts[1], counts[2], 2.0),
        [float(kernels.fbeta_from_counts(*c[:3], 2.0)) for c in counts.T],
    )


def test_fill_undefined_is_the_one_zero_division():
    values = np.array([0.5, np.nan, 1.0])
    with pytest.warns(im.UndefinedMetricWarning, match="why"):
        np.testing.assert_array_equal(
            kernels.fill_undefined(values, zero_division="warn", message="why"), [0.5, 0.0, 1.0]
        )
    np.testing.assert_array_equal(kernels.fill_undefined(values, zero_division=1.0, message="x"), [0.5, 1.0, 1.0])
    assert np.isnan(kernels.fill_undefined(values, zero_division=np.nan, message="x")[1])


# ------------------------------------------------------------------ no second implementation
def test_metric_objects_hold_the_kernels_themselves():
    for spec, kernel in (
        ("mcc", kernels.mcc_from_counts),
        ("specificity", kernels.specificity_from_counts),
        ("npv", kernels.npv_from_counts),
        ("balanced_accuracy", kernels.balanced_accuracy_from_counts),
    ):
        assert im.parse_metric(spec)._counts is kernel


def _modules():
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def test_each_count_kernel_is_defined_once():
    names = {}
    for module, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                low = node.name.lower()
                if ("fbeta" in low or "fscore" in low or "mcc" in low) and "count" in low or low in ("_mcc", "_fscore"):
                    names.setdefault(node.name, []).append(module)
    assert names == {
        "fbeta_from_counts": ["metrics/kernels.py"],
        "mcc_from_counts": ["metrics/kernels.py"],
        "_fscore": ["metrics/classification.py"],
    }, names


def _uses(tree, func_name):
    """The names called and the attributes/names read inside the function ``func_name``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == func_name:
            return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)} | {
                n.id for n in ast.walk(node) if isinstance(n, ast.Name)
            }
    raise AssertionError(f"no function {func_name}")


def test_label_metrics_delegate_to_the_kernels():
    trees = dict(_modules())
    # F-beta: the label path, the Metric object and the threshold sweep all call the one kernel.
    assert "fbeta_from_counts" in _uses(trees["metrics/classification.py"], "_fscore")
    assert "fbeta_from_counts" in _uses(trees["metrics/metric.py"], "from_counts")
    assert "fbeta_from_counts" in _uses(trees["spaces/_terms.py"], "metric_values")
    # MCC and balanced accuracy: no formula of their own in the label functions.
    mcc = _uses(trees["metrics/accuracy.py"], "matthews_corrcoef")
    assert "mcc_from_counts" in mcc and "sqrt" not in mcc
    assert "recall_from_counts" in _uses(trees["metrics/accuracy.py"], "balanced_accuracy_score")
    # Nobody but the kernel module squares beta or takes F-beta's weights.
    for module, tree in trees.items():
        if module == "metrics/kernels.py":
            continue
        used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert "_fbeta_weights" not in used, module
        if module.startswith("metrics/"):  # no np.sqrt: MCC's square roots are the kernel's
            assert not [
                n
                for n in ast.walk(tree)
                if isinstance(n, ast.Attribute)
                and n.attr == "sqrt"
                and isinstance(n.value, ast.Name)
                and n.value.id == "np"
            ], module
