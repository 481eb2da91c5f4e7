"""Frequency and sampling weights in the bootstrap (issue 9 item 8).

Frequency weights (each row stands for w identical samples) must be resampled as the
samples they stand for: the interval must be that of the data expanded to one row per
sample. Sampling weights resample the rows, each carrying its weight.
"""

import inspect
import warnings

import numpy as np
import pytest
from numpydoc.docscrape import FunctionDoc
from sklearn import metrics as skm

import isometrics as im
from isometrics.uncertainty.resampling import Resampler

# The Titanic passengers and crew by class, sex, age and survival: R's datasets::Titanic
# (Dawson, "The 'Unusual Episode' Data Revisited", Journal of Statistics Education 3(3), 1995),
# 2201 people in 24 non-empty cells. Counts for classes 1st, 2nd, 3rd, Crew.
_CLASSES = ("1st", "2nd", "3rd", "Crew")
_DIED = {
    ("Male", "Child"): (0, 0, 35, 0),
    ("Female", "Child"): (0, 0, 17, 0),
    ("Male", "Adult"): (118, 154, 387, 670),
    ("Female", "Adult"): (4, 13, 89, 3),
}
_SURVIVED = {
    ("Male", "Child"): (5, 11, 13, 0),
    ("Female", "Child"): (1, 13, 14, 0),
    ("Male", "Adult"): (57, 14, 75, 192),
    ("Female", "Adult"): (140, 80, 76, 20),
}


def _titanic():
    """(survived, score, frequency) per non-empty cell; the score is a hand-made risk score."""
    rows = []
    for survived, table in ((0, _DIED), (1, _SURVIVED)):
        for (sex, age), counts in table.items():
            for cls, count in zip(_CLASSES, counts):
                if count:
                    score = (
                        2.0 * (sex == "Female")
                        + 1.0 * (age == "Child")
                        + {"1st": 1.0, "2nd": 0.5, "3rd": 0.0, "Crew": 0.2}[cls]
                    )
                    rows.append((survived, score, count))
    y, s, w = (np.array(v) for v in zip(*rows))
    return y, s, w.astype(float)


def test_titanic_table():
    y, s, w = _titanic()
    assert len(y) == 24 and w.sum() == 2201 and w[y == 1].sum() == 711


@pytest.mark.parametrize("stratified", [False, True])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_frequency_weights_give_the_interval_of_the_expanded_data(stratified, method):
    # The 24 aggregated rows with weight_kind="frequency" against the 2201 expanded rows,
    # unweighted: the same bootstrap distribution, so equal intervals up to Monte Carlo error
    # (2000 replicates: the standard error to ~2 %, the 2.5 % quantiles to ~0.003).
    y, s, w = _titanic()
    expanded_y, expanded_s = np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int))
    kwargs = dict(n_resamples=2000, stratified=stratified, method=method)
    freq = im.uncertainty.bootstrap(y, s, sample_weight=w, weight_kind="frequency", rng=1, **kwargs)
    expanded = im.uncertainty.bootstrap(expanded_y, expanded_s, rng=2, **kwargs)
    assert freq.estimate == pytest.approx(skm.roc_auc_score(expanded_y, expanded_s), rel=1e-12)
    assert freq.standard_error == pytest.approx(expanded.standard_error, rel=0.1)
    width = expanded.confidence_interval[1] - expanded.confidence_interval[0]
    assert freq.confidence_interval == pytest.approx(expanded.confidence_interval, abs=0.15 * width)
    assert freq.weight_kind == "frequency" and expanded.weight_kind is None
    # the rows resampled as units carrying their counts: the 24 rows give an interval many times wider
    with pytest.warns(im.WeightKindWarning):
        rows = im.uncertainty.bootstrap(y, s, sample_weight=w, rng=1, **kwargs)
    assert rows.weight_kind == "sampling"
    assert rows.confidence_interval[1] - rows.confidence_interval[0] > 4 * width


def test_frequency_draws_are_the_multinomial_of_the_expanded_samples(rng):
    # A replicate of the expanded data drawn by rows: counts ~ Multinomial(W, w / W), so mean w
    # and variance W p (1 - p); stratified, the class totals are fixed and each class is its own
    # multinomial.
    y, s, w = _titanic()
    W = w.sum()
    for stratified in (False, True):
        resampler = Resampler(y == 1, s, w, stratified, per_sample=True, frequency=True)
        counts = np.array([resampler.counts(rng)[0] for _ in range(3000)], dtype=float)
        np.testing.assert_allclose(counts.mean(axis=0), w, rtol=0.05, atol=0.5)
        if stratified:
            assert np.all(counts[:, y == 1].sum(axis=1) == w[y == 1].sum())
            assert np.all(counts[:, y == 0].sum(axis=1) == w[y == 0].sum())
            total = np.where(y == 1, w[y == 1].sum(), w[y == 0].sum())
        else:
            assert np.all(counts.sum(axis=1) == W)
            total = np.full(len(w), W)
        p = w / total
        np.testing.assert_allclose(counts.var(axis=0), total * p * (1 - p), rtol=0.15, atol=0.5)


def test_a_frequency_replicate_is_the_expanded_data_with_those_counts(rng):
    # each drawn sample weighs 1: the replicate's operating points are those of the data
    # holding count_i copies of row i, unweighted (scikit-learn on the explicit rows)
    y = (rng.random(60) < 0.4).astype(int)
    s = np.round(rng.normal(size=60) + y, 1)
    w = rng.integers(0, 6, size=60).astype(float)
    w[:2] = [3, 2]
    y[:2] = [1, 0]
    keep = w > 0
    for per_sample in (False, True):
        resampler = Resampler(y == 1, s, w, False, per_sample=per_sample, frequency=True)
        draws = resampler.counts(rng)
        op = resampler.build(draws, compact=True)
        if per_sample:
            counts = draws[0]
            yy, ss = np.repeat(y[keep], counts), np.repeat(s[keep], counts)
        else:  # (group, class) cells
            groups = resampler.op.thresholds[1:]
            yy = np.r_[np.ones(int(draws[0].sum())), np.zeros(int(draws[1].sum()))]
            ss = np.r_[np.repeat(groups, draws[0]), np.repeat(groups, draws[1])]
        assert op.auroc() == pytest.approx(skm.roc_auc_score(yy, ss), rel=1e-12)
        assert op.average_precision() == pytest.approx(skm.average_precision_score(yy, ss), rel=1e-12)


def _other(s):
    """A second scorer of the Titanic rows (per row, so that it expands with them)."""
    return s + np.where(np.arange(len(s)) % 2 == 0, 0.5, -0.5)


def _entry_points(y, s, w, kind, n=400, other=None):
    """Every resampling entry point on one data set: name -> (interval, result)."""
    other = _other(s) if other is None else other
    out = {}
    r = im.uncertainty.bootstrap(y, s, sample_weight=w, weight_kind=kind, n_resamples=n, rng=0)
    out["bootstrap"] = (r.confidence_interval, r)
    r = im.uncertainty.bootstrap_areas(y, s, sample_weight=w, weight_kind=kind, n_resamples=n, rng=0)["auroc"]
    out["bootstrap_areas"] = (r.confidence_interval, r)
    band = im.uncertainty.bootstrap_curve_band(
        y, s, sample_weight=w, weight_kind=kind, grid=[0.3], n_resamples=n, rng=0
    )
    out["bootstrap_curve_band"] = ((band.lower[0], band.upper[0]), band)
    paired = im.uncertainty.bootstrap_compare(
        y, {"a": s, "b": other}, sample_weight=w, weight_kind=kind, n_resamples=n, rng=0
    )
    out["bootstrap_compare"] = (paired.row("auroc", "a", "b").confidence_interval, paired)
    comparison = im.uncertainty.compare_scores(y, s, other, sample_weight=w, weight_kind=kind, n_resamples=n, rng=0)
    out["compare_scores"] = (comparison.row("auroc", "a", "b").confidence_interval, comparison)
    [evaluation] = im.evaluate_scores(y, {"a": s}, sample_weight=w, weight_kind=kind, n_resamples=n, rng=0)
    out["evaluate_scores"] = (evaluation.intervals["auroc"].confidence_interval, evaluation)
    return out


def test_every_entry_point_resamples_frequencies_as_samples():
    y, s, w = _titanic()
    reps = w.astype(int)
    expanded = _entry_points(np.repeat(y, reps), np.repeat(s, reps), None, None, other=np.repeat(_other(s), reps))
    freq = _entry_points(y, s, w, "frequency")
    rows = _entry_points(y, s, w, "sampling")
    for name, ((low, high), result) in freq.items():
        e_low, e_high = expanded[name][0]
        r_low, r_high = rows[name][0]
        assert high - low == pytest.approx(e_high - e_low, rel=0.25), name
        assert r_high - r_low > 2.5 * (high - low), name
        assert result.weight_kind == "frequency", name
        assert rows[name][1].weight_kind == "sampling" and expanded[name][1].weight_kind is None, name


def test_results_state_the_weight_kind_in_to_dict():
    y, s, w = _titanic()
    results = _entry_points(y, s, w, "frequency", n=20)
    assert results["bootstrap"][1].to_dict()["weight_kind"] == "frequency"
    paired = results["bootstrap_compare"][1].to_dict()
    assert paired["weight_kind"] == "frequency"
    assert results["bootstrap_compare"][1].rows[0].bootstrap.weight_kind == "frequency"
    assert results["compare_scores"][1].to_dict()["weight_kind"] == "frequency"
    evaluation = results["evaluate_scores"][1].to_dict()
    assert evaluation["weight_kind"] == "frequency"
    assert {v["weight_kind"] for v in evaluation["confidence_intervals"].values()} == {"frequency"}
    assert results["bootstrap_curve_band"][1]._asdict()["weight_kind"] == "frequency"
    unweighted = _entry_points(y, s, None, None, n=20)
    assert all(result.weight_kind is None for _, result in unweighted.values())
    assert unweighted["evaluate_scores"][1].to_dict()["weight_kind"] is None


def test_frequency_weights_must_be_whole_numbers():
    y, s, w = _titanic()
    w[3] = 2.5
    for call in (
        lambda: im.uncertainty.bootstrap(y, s, sample_weight=w, weight_kind="frequency"),
        lambda: im.evaluate_scores(y, {"a": s}, sample_weight=w, weight_kind="frequency"),
        lambda: im.uncertainty.compare_scores(y, s, -s, sample_weight=w, weight_kind="frequency"),
    ):
        with pytest.raises(
            im.InvalidParameterError,
            match=r"weight_kind='frequency' needs whole-number "
            r"sample_weight .* got 2.5 at index 3 \(1 non-integer",
        ):
            call()
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^bootstrap: `weight_kind` must be one of 'sampling', "
        r"'frequency', None; got 'freq'",
    ):
        im.uncertainty.bootstrap(y, s, sample_weight=w, weight_kind="freq")
    with pytest.raises(im.InvalidParameterError, match=r"beyond 2\*\*53"):
        im.uncertainty.bootstrap(y, s, sample_weight=_titanic()[2] * 2.0**52, weight_kind="frequency")


def _warnings_of(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w for w in caught if issubclass(w.category, im.WeightKindWarning)]


@pytest.mark.parametrize(
    "call",
    [
        lambda y, s, w, **k: im.uncertainty.bootstrap(y, s, sample_weight=w, n_resamples=20, rng=0, **k),
        lambda y, s, w, **k: im.uncertainty.bootstrap_areas(y, s, sample_weight=w, n_resamples=20, rng=0, **k),
        lambda y, s, w, **k: im.uncertainty.bootstrap_curve_band(y, s, sample_weight=w, n_resamples=20, rng=0, **k),
        lambda y, s, w, **k: im.uncertainty.bootstrap_compare(
            y, {"a": s, "b": -s + 0.1 * y, "c": s * y}, sample_weight=w, n_resamples=20, rng=0, **k
        ),
        lambda y, s, w, **k: im.uncertainty.compare_scores(
            y, s, -s + 0.1 * y, sample_weight=w, n_resamples=20, rng=0, **k
        ),
        lambda y, s, w, **k: im.evaluate_scores(
            y, {"a": s, "b": -s + 0.1 * y}, sample_weight=w, n_resamples=20, rng=0, **k
        ),
    ],
)
def test_integer_weights_of_unknown_kind_warn_once(call):
    y, s, w = _titanic()
    [warning] = _warnings_of(lambda: call(y, s, w))  # once per call, however many scorers
    assert "pass weight_kind='frequency'" in str(warning.message)
    assert warning.filename == __file__  # points at the caller
    assert _warnings_of(lambda: call(y, s, w, weight_kind="sampling")) == []
    assert _warnings_of(lambda: call(y, s, w, weight_kind="frequency")) == []
    assert _warnings_of(lambda: call(y, s, w / 3)) == []  # not whole numbers: not counts
    assert _warnings_of(lambda: call(y, s, np.where(np.arange(len(w)) % 3 == 0, 0.0, 1.0))) == []  # a 0/1 mask
    assert _warnings_of(lambda: call(y, s, None)) == []


def test_no_warning_without_resampling():
    y, s, w = _titanic()
    assert _warnings_of(lambda: im.evaluate_scores(y, {"a": s}, sample_weight=w)) == []


RESAMPLING = [
    im.uncertainty.bootstrap,
    im.uncertainty.bootstrap_areas,
    im.uncertainty.bootstrap_curve_band,
    im.uncertainty.bootstrap_compare,
    im.uncertainty.compare_scores,
    im.evaluate_scores,
]


def test_weight_kind_is_one_keyword_with_one_description():
    texts = set()
    for f in RESAMPLING:
        parameter = inspect.signature(f).parameters["weight_kind"]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is None
        [doc] = [p for p in FunctionDoc(f)["Parameters"] if p.name == "weight_kind"]
        texts.add((doc.type, tuple(doc.desc)))
    assert len(texts) == 1


def _warning_line(category, call):
    """The line a warning of ``category`` points at (the caller's, for a correct stacklevel)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    [warning] = [w for w in caught if issubclass(w.category, category)]
    return warning.filename, warning.lineno


def test_warnings_point_at_the_callers_line():
    y, s, w = _titanic()
    here = __file__
    calls = {
        "bootstrap": lambda: im.uncertainty.bootstrap(y, s, sample_weight=w, n_resamples=20, rng=0),
        "bootstrap_areas": lambda: im.uncertainty.bootstrap_areas(y, s, sample_weight=w, n_resamples=20, rng=0),
        "bootstrap_curve_band": lambda: im.uncertainty.bootstrap_curve_band(
            y, s, sample_weight=w, n_resamples=20, rng=0
        ),
        "bootstrap_compare": lambda: im.uncertainty.bootstrap_compare(
            y, {"a": s, "b": -s}, sample_weight=w, n_resamples=20, rng=0
        ),
        "compare_scores": lambda: im.uncertainty.compare_scores(
            y, s, _other(s), sample_weight=w, n_resamples=20, rng=0
        ),
        "evaluate_scores": lambda: im.evaluate_scores(y, {"a": s}, sample_weight=w, n_resamples=20, rng=0),
    }
    for name, call in calls.items():  # the lambda's own line: where the public function is called
        assert _warning_line(im.WeightKindWarning, call) == (here, call.__code__.co_firstlineno), name
    z = np.linspace(0, 1, len(y))
    undefined = {
        "bootstrap": lambda: im.uncertainty.bootstrap(
            y, z, statistic="metric", metric="precision", threshold=1.0, n_resamples=50, rng=0
        ),
        "bootstrap_compare": lambda: im.uncertainty.bootstrap_compare(
            y, {"a": z, "b": z[::-1].copy()}, statistics="precision", threshold=1.0, n_resamples=50, rng=0
        ),
    }
    for name, call in undefined.items():
        assert _warning_line(im.UndefinedMetricWarning, call) == (here, call.__code__.co_firstlineno), name
    degenerate = {
        "delong_test": lambda: im.uncertainty.delong_test(y, s, 2 * s),
        "compare_scores": lambda: im.uncertainty.compare_scores(y, s, 2 * s, n_resamples=20, rng=0),
    }
    for name, call in degenerate.items():
        assert _warning_line(im.DegenerateDataWarning, call) == (here, call.__code__.co_firstlineno), name


def test_boyd_interval_counts_frequencies_and_is_scale_free_for_sampling_weights(rng):
    # Boyd et al.'s n is the number of positives: the frequency total for frequency weights
    # (so the aggregated table gives the expanded data's interval, exactly), and Kish's
    # effective number (sum w)^2 / sum w^2 for sampling weights, unchanged by any scale.
    y, s, w = _titanic()
    reps = w.astype(int)
    expanded = im.uncertainty.average_precision_ci(np.repeat(y, reps), np.repeat(s, reps))
    assert im.uncertainty.average_precision_ci(y, s, sample_weight=w, weight_kind="frequency") == pytest.approx(
        expanded, rel=1e-12
    )
    ap = im.average_precision(y, s, sample_weight=w)
    pos = w[y == 1]
    kish = pos.sum() ** 2 / (pos**2).sum()
    z = 1.959963984540054
    half = z * np.sqrt(ap * (1 - ap) / kish)
    sampling = im.uncertainty.average_precision_ci(y, s, sample_weight=w, weight_kind="sampling", method="binomial")
    assert sampling == pytest.approx((ap - half, ap + half), rel=1e-12)
    for scale in (1e-300, 1e-170, 3.5, 1e160, 1e300):
        assert im.uncertainty.average_precision_ci(
            y, s, sample_weight=w * scale, weight_kind="sampling", method="binomial"
        ) == pytest.approx(sampling, rel=1e-9)
    ones = np.ones(len(y))
    assert im.uncertainty.average_precision_ci(y, s, sample_weight=ones, weight_kind="sampling") == pytest.approx(
        im.uncertainty.average_precision_ci(y, s), rel=1e-12
    )
    with pytest.warns(im.WeightKindWarning):
        im.uncertainty.average_precision_ci(y, s, sample_weight=w)
