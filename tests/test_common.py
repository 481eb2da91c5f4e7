"""Registry-driven checks: every binary function of the library obeys the same invariances.

The functions and what applies to each come from the one registry (tests/registry.py): each
``binary`` variant maps (y_true, y_score, sample_weight, pos_label) to a flat float array, so one
set of tests covers curves, areas, hulls, thresholds and calibration alike.
"""

import dataclasses
import html.parser
import inspect
import re
import warnings

import numpy as np
import pytest
from registry import EXEMPT, PUBLIC, REGISTRY, having, variants

import isometrics as im

BINARY = variants("binary")
# no entry returns thresholds, so every one must be unchanged by a monotone map of the scores
NO_SCORES = having("no_scores")  # takes no y_score: the score checks do not apply


@pytest.fixture
def data(rng):
    y = (rng.random(120) < 0.35).astype(int)
    y[:2] = [1, 0]
    s = np.round(rng.normal(size=120) + y, 1)
    w = rng.integers(1, 4, size=120).astype(float)
    return y, s, w


@pytest.mark.parametrize("name", BINARY)
def test_order_invariance(name, data, rng):
    y, s, w = data
    perm = rng.permutation(len(y))
    np.testing.assert_allclose(
        BINARY[name](y[perm], s[perm], w[perm], None), BINARY[name](y, s, w, None), rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("name", BINARY)
def test_sample_weight_invariances(name, data):
    y, s, w = data
    f = BINARY[name]
    np.testing.assert_allclose(f(y, s, np.ones(len(y)), None), f(y, s, None, None), rtol=1e-12, atol=1e-12)
    repeated = np.repeat(np.arange(len(y)), w.astype(int))
    np.testing.assert_allclose(f(y, s, w, None), f(y[repeated], s[repeated], None, None), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(f(y, s, 3.5 * w, None), f(y, s, w, None), rtol=1e-9, atol=1e-12)
    zeroed = w.copy()
    zeroed[5:15] = 0.0
    keep = zeroed > 0
    np.testing.assert_allclose(f(y, s, zeroed, None), f(y[keep], s[keep], zeroed[keep], None), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", BINARY)
def test_string_labels_and_monotone_maps(name, data):
    y, s, w = data
    f = BINARY[name]
    names = np.where(y == 1, "yes", "no")
    np.testing.assert_allclose(f(names, s, w, "yes"), f(y, s, w, None), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f(y, np.exp(s) * 3 - 1, w, None), f(y, s, w, None), rtol=1e-9, atol=1e-12)


#: scikit-learn's names: one class is not an error (NaN rates with a warning, as scikit-learn's)
AS_SKLEARN_ONE_CLASS = {"roc_curve", "precision_recall_curve"}


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize(
    "bad, match",
    [
        (lambda y, s, w: (y, np.where(np.arange(len(s)) == 3, np.nan, s), w), "contains 1 NaN value"),
        (lambda y, s, w: (y[:-1], s, w), "different numbers of samples"),
        (lambda y, s, w: (np.ones_like(y), s, w), "one class"),
        (lambda y, s, w: (y, s, -w), "negative values"),
    ],
)
def test_bad_input_errors(name, data, bad, match):
    if name in NO_SCORES and match in ("contains 1 NaN value", "different numbers of samples"):
        pytest.skip("takes no scores")
    y, s, w = data
    yb, sb, wb = bad(y, s, w)
    if name in AS_SKLEARN_ONE_CLASS and match == "one class":  # scikit-learn's NaN and warning: test_against_sklearn
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", im.UndefinedMetricWarning)
            BINARY[name](yb, sb, wb, None)
        return
    with pytest.raises(im.IsometricsError, match=match):
        BINARY[name](yb, sb, wb, None)


@pytest.mark.parametrize("name", BINARY)
def test_inputs_are_not_mutated(name, data):
    y, s, w = data
    copies = (y.copy(), s.copy(), w.copy())
    BINARY[name](y, s, w, None)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- uncertainty
# The uncertainty functions on the same inputs (registry tag ``uncertainty``): point estimates,
# so that the score validation, the errors, non-mutation and order invariance are checked for
# every function that takes y_score.
UNCERTAINTY = variants("uncertainty")
UNWEIGHTED = having("unweighted")  # DeLong's U-statistic takes no sample weights


@pytest.mark.parametrize("name", UNCERTAINTY)
def test_uncertainty_point_estimates_are_order_invariant(name, data, rng):
    y, s, w = data
    perm = rng.permutation(len(y))
    np.testing.assert_allclose(
        UNCERTAINTY[name](y[perm], s[perm], w[perm], None), UNCERTAINTY[name](y, s, w, None), rtol=1e-10, atol=1e-12
    )


@pytest.mark.parametrize("name", UNCERTAINTY)
def test_uncertainty_string_labels(name, data):
    y, s, w = data
    f = UNCERTAINTY[name]
    np.testing.assert_allclose(f(np.where(y == 1, "yes", "no"), s, w, "yes"), f(y, s, w, None), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", UNCERTAINTY)
@pytest.mark.parametrize(
    "bad, match",
    [
        # predict_proba output where one score column belongs: refused, with what to pass instead
        (
            lambda y, s, w: (y, np.c_[1 - s, s], w),
            r"must be 1-D .* got an array of shape \(120, 2\); for predict_proba "
            r"output pass proba\[:, 1\]",
        ),
        (lambda y, s, w: (y, np.where(np.arange(len(s)) == 3, np.nan, s), w), "contains 1 NaN value"),
        (lambda y, s, w: (y, np.where(np.arange(len(s)) == 3, np.inf, s), w), "contains 1 infinite value"),
        (lambda y, s, w: (y, s.astype(str), w), "must be numeric scores"),
        (lambda y, s, w: (y[:-1], s, w), "different numbers of samples"),
        (lambda y, s, w: (np.ones_like(y), s, w), "one class"),
        (lambda y, s, w: (y, s, -w), "negative values"),
    ],
)
def test_uncertainty_bad_input_errors(name, data, bad, match):
    if name in UNWEIGHTED and match == "negative values":
        pytest.skip("takes no sample weights")
    y, s, w = data
    yb, sb, wb = bad(y, s, w)
    with pytest.raises(im.IsometricsError, match=match):
        UNCERTAINTY[name](yb, sb, wb, None)


@pytest.mark.parametrize("name", UNCERTAINTY)
def test_uncertainty_inputs_are_not_mutated(name, data):
    y, s, w = data
    copies = (y.copy(), s.copy(), w.copy())
    UNCERTAINTY[name](y, s, w, None)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- weight scale
# Every other public function that takes sample_weight (registry tag ``weighted``), as
# (y, s, w) -> flat floats, each entry unchanged by scaling the weights. Functions whose weights
# count samples are tagged ``scale_dependent`` instead.
WEIGHTED = variants("weighted")
SCALE_DEPENDENT = having("scale_dependent")
_SCALES = [1e-300, 1e-170, 1e-100, 1e100, 1e160, 1e300]


#: Functions of the namespaces that take sample_weight but are not checked here (issue 24, item 4: they
#: became public through their namespace's ``__all__``), with the reason. To do: register them.
_WEIGHTS_CHECKED_ELSEWHERE = {
    "recommend": "the recommendation of a report: its weights pass to decide, checked here",
    "build_multiclass_report": "a page: its weights pass to one_vs_rest and evaluate_scores, both checked here",
    "evaluate_dask": "takes the name of the weight column of its partitions, not an array (tests/scale)",
}


def _public_weighted_functions():
    return {
        name
        for name, obj in PUBLIC.items()
        if inspect.isfunction(obj) and "sample_weight" in inspect.signature(obj).parameters
    } - _WEIGHTS_CHECKED_ELSEWHERE.keys()


def test_every_weighted_function_is_checked_for_weight_scale():
    covered = {name for name, entry in REGISTRY.items() if entry.tags & {"binary", "weighted", "scale_dependent"}}
    assert _public_weighted_functions() - covered == set()


def _assert_scale_invariant(f, scale):
    base, scaled = f(1.0), f(scale)
    assert np.isfinite(scaled[np.isfinite(base)]).all(), f"non-finite results at weights x {scale:g}"
    np.testing.assert_allclose(scaled, base, rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("scale", _SCALES)
@pytest.mark.parametrize("name", [n for n in BINARY])
def test_weight_scale_invariance(name, scale, data):
    """Multiplying every weight by a constant changes nothing, from 1e-300 to 1e300 (issue 9, item 3)."""
    y, s, w = data
    _assert_scale_invariant(lambda c: BINARY[name](y, s, w * c, None), scale)


@pytest.mark.parametrize("scale", _SCALES)
@pytest.mark.parametrize("name", WEIGHTED)
def test_weight_scale_invariance_of_other_weighted_functions(name, scale, data):
    y, s, w = data
    _assert_scale_invariant(lambda c: WEIGHTED[name](y, s, w * c), scale)


# ---------------------------------------------------------------------------- sample_weight of shape (n, 1) (issue 23, item 3)
# Weights are 1-D, as scikit-learn's ``_check_sample_weight`` requires: a column vector (n, 1) is refused
# by every function that takes sample_weight, with one message (the function, the shape, the fix
# ``.ravel()``) from the one shared check (``_core.arrays.as_sample_weight``), never raveled silently.
_COLUMN_NAME_WEIGHTS = {"evaluate_out_of_core": "takes the name of the weight column of its files, not an array"}
_FUNCTION_OF = {
    label: entry.name
    for entry in REGISTRY.values()
    for tag in ("binary", "uncertainty", "weighted")
    for label in getattr(entry, tag)
    if entry.name not in UNWEIGHTED | _COLUMN_NAME_WEIGHTS.keys()
}
_WEIGHT_TAKERS = {
    **{k: (lambda f: lambda y, s, w: f(y, s, w, None))(f) for k, f in BINARY.items()},
    **{k: (lambda f: lambda y, s, w: f(y, s, w, None))(f) for k, f in UNCERTAINTY.items()},
    **WEIGHTED,
}


def test_every_weighted_function_is_checked_for_column_weights():
    covered = set(_FUNCTION_OF.values()) | _COLUMN_NAME_WEIGHTS.keys()
    assert _public_weighted_functions() - covered == set()


@pytest.mark.parametrize("name", sorted(_FUNCTION_OF))
def test_column_vector_weights_are_refused_alike(name, data):
    y, s, w = data
    function = {"at_prevalence": "OperatingPoints.from_scores"}.get(name, _FUNCTION_OF[name])  # weights given there
    with pytest.raises(
        im.IsometricsError,
        match=(
            rf"^{re.escape(function)}(\.\w+)?: `sample_weight` must be 1-D of shape \(n_samples,\), got an array of "
            r"shape \(\d+, 1\); pass sample_weight\.ravel\(\)"
        ),
    ):  # a class: its method, on a chunk
        _WEIGHT_TAKERS[name](y, s, w[:, None])


# ---------------------------------------------------------------------------- the registry itself
def _is_error(obj):
    return inspect.isclass(obj) and issubclass(obj, BaseException)


def test_every_public_callable_is_registered():
    """A public function or class of ``isometrics.__all__`` or of a namespace's ``__all__`` is covered by the common
    checks by being registered (errors and warnings automatically); the few that none applies to are exempt, with
    the reason."""
    public = {name for name, obj in PUBLIC.items() if callable(obj)}
    registered = {name for name, entry in REGISTRY.items() if entry.tags}
    assert public - registered - set(EXEMPT) == set()
    assert set(EXEMPT) <= public - registered  # an exemption names a public callable that is not registered
    assert all(REGISTRY[name].pickling for name in public if _is_error(PUBLIC[name]))


# ---------------------------------------------------------------------------- data frames (issue 13, item 1)
# Every registered function that takes arrays takes the columns of pandas, Polars and pyarrow
# (Series, Array, ChunkedArray) and gives the NumPy result exactly; the functions that take several
# score columns take a data frame of them and keep its column names (registry tag ``frames``).
pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

COLUMNS = {
    "pandas": pd.Series,
    "polars": pl.Series,
    "pyarrow": pa.array,
    "pyarrow chunked": lambda a: pa.chunked_array([a[: len(a) // 2], a[len(a) // 2 :]]),
}
FRAMES = {
    "pandas": pd.DataFrame,
    "polars": pl.DataFrame,
    "pyarrow": pa.table,
}
_ARRAY_TAKERS = {
    **{f"binary {k}": (lambda f: lambda y, s, w, p: f(y, s, w, p))(f) for k, f in BINARY.items()},
    **{f"uncertainty {k}": f for k, f in UNCERTAINTY.items()},
    **{f"weighted {k}": (lambda f: lambda y, s, w, p: f(y, s, w))(f) for k, f in WEIGHTED.items()},
}


@pytest.mark.parametrize("library", COLUMNS)
@pytest.mark.parametrize("name", _ARRAY_TAKERS)
def test_columns_of_every_library_give_the_numpy_result(name, library, data):
    y, s, w = data
    f, column = _ARRAY_TAKERS[name], COLUMNS[library]
    pos = None
    if not name.startswith("weighted"):  # string labels too
        y, pos = np.where(y == 1, "yes", "no"), "yes"
    copies = (y.copy(), s.copy(), w.copy())
    expected = f(y, s, w, pos)
    columns = (column(y), column(s), column(w))
    np.testing.assert_array_equal(f(*columns, pos), expected)
    for a, b in zip(columns, copies):  # the caller's columns are left as they were
        np.testing.assert_array_equal(np.asarray(a), b)


def _flatten(obj):
    """Every number and string of a result, in order (to compare the results of two calls)."""
    if isinstance(obj, np.ndarray):
        return [v for x in obj.tolist() for v in _flatten(x)] if obj.ndim else [obj.item()]
    if isinstance(obj, im.OperatingPoints):
        return _flatten((obj.thresholds, obj.tp, obj.fp, obj.pos_label))
    if isinstance(obj, im.Metric):
        return [obj.spec]
    if isinstance(
        obj, im.elicitation.Elicitation
    ):  # a session: compared by its user's curve, settings and first question
        return _flatten((obj.curve, obj.settings, obj.next_question()))
    if dataclasses.is_dataclass(obj):
        return _flatten([getattr(obj, f.name) for f in dataclasses.fields(obj) if not f.name.startswith("_")])
    if isinstance(obj, dict):
        return [v for k, x in obj.items() for v in (*_flatten(k), *_flatten(x))]
    if isinstance(obj, (list, tuple)):
        return [v for x in obj for v in _flatten(x)]
    if isinstance(obj, np.generic):
        return [obj.item()]
    if callable(obj):  # a calibrator or classifier: compared by what it does
        return []
    return [obj]


def _as_column(value, library):
    """An array argument (a NumPy array, or a list of numbers) as a column (1-D) or a frame (2-D) of
    ``library``; anything else as is."""
    if isinstance(value, list) and value and all(isinstance(v, (int, float)) for v in value):
        value = np.asarray(value)
    if not isinstance(value, np.ndarray) or value.ndim not in (1, 2) or value.size == 0:
        return value
    if value.ndim == 2:
        # named as the columns of a 2-D array are (bootstrap_compare: score_j), so that the names agree too
        return FRAMES[library.split()[0]]({f"score_{j}": value[:, j] for j in range(value.shape[1])})
    return COLUMNS[library](value)


_KEYWORD_CALLS = {
    label: call
    for label, call in {
        **{f"messages {k}": v[:2] for k, v in variants("messages").items()},
        **{f"outside {k}": v[:2] for k, v in variants("outside").items()},
    }.items()
    if any(_as_column(v, "pandas") is not v for v in call[1].values())
}  # those with an array argument


@pytest.mark.parametrize("library", COLUMNS)
@pytest.mark.parametrize("name", _KEYWORD_CALLS)
def test_every_array_argument_takes_columns_and_frames(name, library):
    """The registered calls with valid arguments (test_messages, the ``outside`` table): each NumPy array
    argument given as a column (1-D) or a data frame (2-D) of the library gives the same result."""
    f, kwargs = _KEYWORD_CALLS[name]
    converted = {k: _as_column(v, library) for k, v in kwargs.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected, got = f(**kwargs), f(**converted)
    np.testing.assert_equal(_flatten(got), _flatten(expected))


MULTI = variants("frames")


@pytest.mark.parametrize("library", FRAMES)
@pytest.mark.parametrize("name", MULTI)
def test_a_data_frame_of_score_columns_keeps_its_names(name, library, data):
    """bootstrap_compare(y, df[[...]]) used to name the columns score_0, score_1, and evaluate_scores
    failed on a DataFrame (pandas' ambiguous truth value)."""
    y, s, w = data
    scores = {"logreg": s, "forest <b>": np.round(np.sin(3 * s), 1)}
    names, expected = MULTI[name](y, scores, None if name == "delong" else w)
    frame = FRAMES[library](scores)
    got_names, got = MULTI[name](COLUMNS[library](y), frame, None if name == "delong" else COLUMNS[library](w))
    assert tuple(got_names) == tuple(names) == ("logreg", "forest <b>")
    np.testing.assert_array_equal(got, expected)


def test_evaluate_scores_on_a_data_frame_with_string_labels():
    """The call of issue 13: evaluate_scores(y, df[["logreg", "forest"]], pos_label="Yes")."""
    rng = np.random.default_rng(3)
    y = np.where(rng.random(200) < 0.3, "Yes", "No")
    df = pd.DataFrame({"y": y, "logreg": rng.normal(size=200) + (y == "Yes"), "forest": rng.normal(size=200)})
    for frame in (df, pl.from_pandas(df), pa.Table.from_pandas(df, preserve_index=False)):
        ev = im.evaluate_scores(
            frame["y"],
            frame[["logreg", "forest"]] if frame is df else frame.select(["logreg", "forest"]),
            pos_label="Yes",
        )
        assert ev.names == ("logreg", "forest")
        assert ev["forest"].auroc == im.auroc(y == "Yes", df["forest"].to_numpy())
        assert ev.to_pandas()["score"].tolist() == ["logreg", "forest"]
        assert ev.to_polars()["auroc"].to_list() == [ev[0].auroc, ev[1].auroc]


# ---------------------------------------------------------------------------- results in notebooks (issue 13, item 2)
# Every public result type (registry tag ``result``) prints a compact repr (key numbers and shapes, never
# whole arrays) and has an HTML table for Jupyter in which every string is escaped.
RESULTS = variants("result")
_HTML_TAGS = {
    "table",
    "caption",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    # inline SVG figures (the elicited level curves): drawing elements only, never a script
    "div",
    "p",
    "span",
    "b",
    "svg",
    "g",
    "line",
    "polyline",
    "path",
    "circle",
    "rect",
    "text",
    "title",
}


class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)


@pytest.fixture(scope="module")
def big():
    # 10**4 rows: ten times NumPy's summarising threshold (1000 elements), so any array a result printed
    # would show as "..., " or push the repr past 1 KB; 10**5 checked the same for ten times the bootstrap cost.
    rng = np.random.default_rng(11)
    n = 10**4
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    return np.where(y, "<b>yes</b>", "no"), s, rng.integers(1, 4, size=n).astype(float), "<b>yes</b>"


#: Public classes that are not results of an evaluation (issue 24, item 4: the namespaces' own), with the reason.
NOT_RESULTS = {
    **{
        name: "a record of the elicitation engine or a simulated answerer (tests/elicitation)"
        for name in ("Contradiction", "elicitation.Decision", "LinearStakeholder", "Step")
    },
    "Recommendation": "the recommendation a report opens with (tests/model_selection/test_recommend.py)",
}


def test_every_public_result_type_is_registered():
    pytest.importorskip("matplotlib")
    public = {name for name, obj in PUBLIC.items() if inspect.isclass(obj) and not _is_error(obj)}
    assert public - set(RESULTS) - set(NOT_RESULTS) == set()


@pytest.mark.parametrize("name", RESULTS)
def test_results_have_a_compact_repr_and_escaped_html(name, big):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = RESULTS[name](*big)
    text = repr(result)
    assert len(text.encode()) < 1024, text  # under 1 KB
    assert "..., " not in text.replace("... (", "")  # NumPy's summarised arrays: an array printed whole
    page = result._repr_html_()
    parser = _Tags()
    parser.feed(page)
    assert parser.tags <= _HTML_TAGS, parser.tags
    assert len(page) < 10_000


def test_bootstrap_results_do_not_print_their_distribution(big):
    y, s, w, p = big
    result = im.uncertainty.bootstrap(y, s, pos_label=p, n_resamples=200, rng=0)
    assert "bootstrap_distribution=array(shape=(200,)" in repr(result)
    assert f"{result.bootstrap_distribution[0]!r}" not in repr(result)


def test_evaluations_repr_names_each_score_and_its_numbers(big):
    y, s, w, p = big
    ev = im.evaluate_scores(y, {"logreg": s, "forest": np.round(s, 1)}, pos_label=p)
    text = repr(ev)
    assert "'logreg': auroc=" in text and "'forest': auroc=" in text
    assert f"{ev['forest'].auroc:.4g}" in text
    assert "<td>logreg</td>" in ev._repr_html_()


@pytest.mark.parametrize("library", ["pandas", "polars"])
def test_displays_take_their_name_from_a_named_column(library, data):
    pytest.importorskip("matplotlib")
    from isometrics.plotting import PrecisionRecallDisplay, RocDisplay

    y, s, w = data
    column = COLUMNS[library]
    named = pd.Series(s, name="logreg") if library == "pandas" else pl.Series("logreg", s)
    assert RocDisplay.from_predictions(column(y), named).name == "logreg"
    assert PrecisionRecallDisplay.from_predictions(y, named, name="mine").name == "mine"
    assert RocDisplay.from_predictions(y, s).name is None


def test_numpy_inputs_import_no_data_frame_library():
    """narwhals looks for the data-frame libraries among the imported modules: NumPy inputs import none."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np, isometrics as im\n"
        "y, s = np.array([0, 1, 0, 1]), np.array([0.1, 0.8, 0.3, 0.6])\n"
        "im.auroc(list(y), list(s)); e = im.evaluate_scores(y, {'a': s}); repr(e); e._repr_html_()\n"
        "im.uncertainty.bootstrap_compare(y, np.c_[s, s ** 3], n_resamples=5, rng=0)\n"
        "print(sorted(m for m in ('pandas', 'polars', 'pyarrow') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("library", FRAMES)
@pytest.mark.parametrize(
    "display",
    ["RocDisplay", "PrecisionRecallDisplay", "PrgDisplay", "MetricCurveDisplay", "GainsDisplay", "LiftDisplay"],
)
def test_displays_take_a_data_frame_of_score_columns(display, library, data):
    """Issue 13 item 1: a Display from a frame is one Display per column, named after it, equal to the
    Display of that column alone, and drawn on one axes with each model once in the legend."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import isometrics.plotting as plotting

    y, s, w = data
    scores = {"logreg": s, "forest": np.round(np.sin(3 * s), 1)}
    cls = getattr(plotting, display)
    group = cls.from_predictions(COLUMNS[library](y), FRAMES[library](scores), sample_weight=w)
    assert isinstance(group, plotting.DisplayGroup) and group.names == ("logreg", "forest")
    for name, values in scores.items():
        alone = cls.from_predictions(y, values, sample_weight=w, name=name)
        for field in ("fpr", "tpr", "precision", "recall", "recall_gain", "thresholds", "values", "gain", "lift"):
            if hasattr(alone, field):
                np.testing.assert_array_equal(getattr(group[name], field), getattr(alone, field))
    group.plot()
    assert group.ax_ is group["logreg"].ax_ is group["forest"].ax_
    legend = [t.get_text() for t in group.ax_.get_legend().get_texts()] if group.ax_.get_legend() else []
    labels = [line.get_label() for line in group.ax_.get_lines()]
    for name in scores:  # each model drawn once, under its column's name
        assert sum(label.startswith(name) for label in labels) == 1, labels
        if legend:
            assert sum(text.startswith(name) for text in legend) == 1, legend
    plt.close("all")
    with pytest.raises(im.InvalidParameterError, match="`name` names one model"):
        cls.from_predictions(y, FRAMES[library](scores), name="mine")


@pytest.mark.parametrize("library", FRAMES)
def test_metric_report_takes_a_data_frame_of_predictions(library, data):
    """Issue 13 item 1: one report per model column, each equal to the report of that column alone."""
    y, s, w = data
    predictions = {"logreg": (s > 0.5).astype(int), "forest": (np.sin(3 * s) > 0.2).astype(int)}
    reports = im.metric_report(
        COLUMNS[library](y), FRAMES[library](predictions), metrics=["precision", "mcc"], sample_weight=w
    )
    assert list(reports) == ["logreg", "forest"]
    for name, y_pred in predictions.items():
        alone = im.metric_report(y, y_pred, metrics=["precision", "mcc"], sample_weight=w)
        np.testing.assert_array_equal(reports[name].values, alone.values)
        # and against scikit-learn's precision of each class, where the two compute the same quantity
        from sklearn.metrics import precision_score

        np.testing.assert_allclose(
            reports[name].values[:, 0], precision_score(y, y_pred, average=None, sample_weight=w, zero_division=0)
        )
    multilabel = np.c_[y, 1 - y]  # a frame of labels beside a frame of predictions stays multilabel
    report = im.metric_report(
        FRAMES[library]({"a": multilabel[:, 0], "b": multilabel[:, 1]}),
        FRAMES[library]({"a": predictions["logreg"], "b": 1 - predictions["logreg"]}),
    )
    assert isinstance(report, im.MetricReport)
