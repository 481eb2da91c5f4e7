"""The result: the elicited metric usable everywhere, the decision on the user's model, the reprs."""

import math
import re

import numpy as np
import pytest

import isometrics as im


@pytest.fixture(scope="module")
def model():
    rng = np.random.default_rng(8)
    y = (rng.random(500) < 0.25).astype(int)
    return y, rng.normal(size=500) + 1.3 * y


@pytest.fixture(scope="module")
def result(model):
    y, s = model
    session = im.elicitation.Elicitation.from_scores(y, s, local_budget=4, pairwise_budget=6)
    return session.run(im.elicitation.SimulatedStakeholder(1.8, -2.5))


def test_metric_round_trips_through_its_spec(result):
    m = result.metric
    assert re.fullmatch(r"g\(beta=[0-9.e+-]+, rho=[0-9.e+-]+\)", m.spec)
    assert im.parse_metric(m.spec) == m
    assert m.spec == im.parse_metric(f"g(beta={result.beta:.4g}, rho={result.rho:.4g})").spec


def test_decision_is_the_best_threshold_of_the_metric_on_the_model(result, model):
    y, s = model
    best = im.best_threshold(y, s, metric=result.metric)
    assert result.decision.threshold == best.threshold
    assert result.decision.precision == pytest.approx(best.precision, rel=1e-12)
    assert result.decision.recall == pytest.approx(best.recall, rel=1e-12)
    assert 0 <= result.decision.max_loss <= 1
    assert im.OperatingPoints.from_scores(y, s).best_threshold(result.metric).threshold == best.threshold


def test_estimate_within_the_plausible_region(result):
    assert result.beta_range[0] <= result.beta <= result.beta_range[1] or result.beta_sd_log > 0
    assert result.rho_range[0] <= result.mode_rho <= result.rho_range[1]
    assert 0 < result.feasible_fraction <= 1
    assert len(result.region_log_beta) == len(result.region_rho) > 0


def test_repr_is_compact_and_html_shows_estimate_and_level_curves(result):
    text = repr(result)
    assert text.startswith("ElicitationResult(metric='g(") and "\n" not in text and len(text) < 300
    page = result._repr_html_()
    assert "<svg" in page and "<polyline" in page and result.metric.spec in page
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")  # no network


def test_to_dict_is_json_ready(result):
    import json

    data = json.loads(json.dumps(result.to_dict()))
    assert data["metric"] == result.metric.spec and data["transcript"]["version"] == 1


def test_from_scores_keeps_only_pareto_points_with_their_thresholds(model):
    y, s = model
    session = im.elicitation.Elicitation.from_scores(y, s)
    p, r, t = session.curve
    assert len(p) == len(r) == len(t) > 2
    assert all(r[k] > r[k + 1] and p[k] < p[k + 1] for k in range(len(p) - 1))
    assert math.inf not in t


def test_bad_settings_and_curves_name_the_parameter():
    for kwargs, field in [
        ({"rho_sign": "neg"}, "rho_sign"),
        ({"local_budget": -1}, "local_budget"),
        ({"tolerance": 0}, "tolerance"),
        ({"pairwise_lambda": 0}, "pairwise_lambda"),
        ({"local_lambda": -1.0}, "local_lambda"),
    ]:
        with pytest.raises(im.InvalidParameterError, match=rf"^Elicitation: `{field}`"):
            im.elicitation.Elicitation(**kwargs)
    with pytest.raises(im.InvalidParameterError, match=r"^Elicitation: `recall` must lie in \[0, 1\]"):
        im.elicitation.Elicitation([0.5, 0.6], [0.5, 1.5])
    with pytest.raises(im.InvalidParameterError, match="pass both `precision` and `recall`"):
        im.elicitation.Elicitation([0.5, 0.6])
    with pytest.raises(im.InvalidParameterError, match="no operating point has precision and recall > 0"):
        im.elicitation.Elicitation([0.0, 0.5], [0.5, 0.0])


def test_a_large_model_is_cut_to_256_spread_points():
    rng = np.random.default_rng(1)
    y = (rng.random(20000) < 0.3).astype(int)
    s = rng.normal(size=20000) + 0.8 * y
    session = im.elicitation.Elicitation.from_scores(y, s)
    p, r, t = session.curve
    assert len(p) == 256
    curve = im.OperatingPoints.from_scores(y, s).precision_recall_curve()
    assert r[0] == max(curve.recall[curve.precision > 0])  # the ends are kept
