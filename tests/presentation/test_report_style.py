"""The report's look: one colour per model in every figure, distinct for many models, and the
ROC hover's false positive rate and number flagged, checked against counts made here."""

import base64

import numpy as np
import pytest
from _report_data import figures as resolved_figures

import isometrics as im
from isometrics.report import build_report


def _array(value):
    if isinstance(value, dict):
        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return out.reshape([int(k) for k in str(shape).split(",")]) if shape else out
    return np.array([np.nan if v is None else v for v in value], dtype=np.float64)


def _figures(page):
    return {name: body["figure"] for name, body in resolved_figures(page).items()}


def _colours_by_model(figure):
    """legendgroup -> the set of colours of that model's traces (lines and markers)."""
    seen = {}
    for trace in figure["data"]:
        group = trace.get("legendgroup")
        if not group:
            continue
        mode = trace.get("mode", "lines")
        colour = trace.get("marker", {}).get("color") if mode == "markers" else trace.get("line", {}).get("color")
        seen.setdefault(group, set()).add(colour)
    return seen


def test_a_model_has_one_colour_in_every_figure_and_models_differ():
    """Twelve models (more than a ten-colour palette): every trace of a model, in the panels
    and in each metric figure, has the model's one colour, and no two models share one."""
    rng = np.random.default_rng(1)
    n = 300
    y = rng.random(n) < 0.3
    scores = {f"m{k}": rng.normal(size=n) + (0.2 + 0.1 * k) * y for k in range(12)}
    figures = _figures(build_report(im.evaluate_scores(y, scores, metrics=["f1", "f2"])))
    assert set(figures) == {"panels", "metric-figure-0", "metric-figure-1", "gains"}
    per_figure = [_colours_by_model(f) for f in figures.values()]
    for colours in per_figure:
        assert len(colours) == 12 and all(len(c) == 1 for c in colours.values())
    reference = {g: next(iter(c)) for g, c in per_figure[0].items()}
    for colours in per_figure[1:]:
        assert {g: next(iter(c)) for g, c in colours.items()} == reference
    assert len(set(reference.values())) == 12
    assert "#999" not in reference.values()  # the baselines' grey belongs to no model


@pytest.mark.parametrize("weighted", [False, True])
def test_roc_hover_shows_false_positive_rate_and_number_flagged(weighted):
    """The ROC trace's hover names the false positive rate and the number flagged, and the
    values behind them are, at each drawn point, the counts of the threshold (brute force)."""
    rng = np.random.default_rng(7)
    n = 120
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(size=n) + y, 1)  # ties
    w = rng.integers(1, 4, n).astype(float) if weighted else np.ones(n)
    [r] = im.evaluate_scores(y, {"m": s}, metrics=["f1"], sample_weight=w if weighted else None)
    roc = next(
        t
        for t in _figures(build_report([r]))["panels"]["data"]
        if t.get("xaxis", "x") == "x"
        and t.get("legendgroup") == "model-0"
        and t.get("mode") == "lines"
        and "customdata" in t
    )
    template = roc["hovertemplate"]
    assert "false positive rate %{customdata[3]" in template and "flags %{customdata[1]" in template
    custom = _array(roc["customdata"])
    # float64 (the hover's are float32); every operating point, as the report draws them
    thresholds = im.OperatingPoints.from_scores(y, s, sample_weight=w).roc_curve().thresholds
    fpr = _array(roc["x"])
    assert len(thresholds) == len(fpr) == len(custom)
    np.testing.assert_allclose(custom[:, 0], thresholds, rtol=1e-6)
    for t, flagged, share, rate, x in zip(thresholds, custom[:, 1], custom[:, 2], custom[:, 3], fpr):
        hit = s >= t  # the first point (threshold +inf) flags nothing
        expected = w[hit].sum()
        assert flagged == pytest.approx(expected, rel=1e-6)
        assert share == pytest.approx(expected / w.sum(), rel=1e-6, abs=1e-7)
        assert rate == pytest.approx(w[hit & ~y].sum() / w[~y].sum(), rel=1e-6, abs=1e-7)
        assert x == pytest.approx(rate, rel=1e-6, abs=1e-7)
