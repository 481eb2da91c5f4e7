"""The one registry of public names from which the common tests are generated (issue 10, item 4).

``REGISTRY`` maps a public name (``im.<name>``, or ``Class.method`` for a public method, or
``build_report`` for the report) to an :class:`Entry`; each field of an entry that is set is a
capability tag saying which common checks apply, and holds what those checks need:

============================  ==========================================  ======================
tag                           holds                                       checks (test file)
============================  ==========================================  ======================
``binary``                    label -> f(y, s, w, pos_label) -> floats    order, sample-weight
                                                                          invariances, string
                                                                          labels, monotone maps,
                                                                          bad inputs, no
                                                                          mutation, weight scale
                                                                          (test_common)
``no_scores``                 True: takes no y_score                      skips the score checks
``uncertainty``               label -> f(y, s, w, pos_label) -> floats    order, string labels,
                                                                          bad inputs, no mutation
                                                                          (test_common)
``unweighted``                True: takes no sample weights               skips the weight check
``weighted``                  label -> f(y, s, w) -> floats               weight scale
                                                                          (test_common)
``scale_dependent``           True: weights count samples                 exempt from weight scale
``messages``                  (callable, valid kwargs, {param: kind})     hostile inputs, valid
                                                                          call, pos_label
                                                                          (test_messages)
``via_engine``                True: validates through the engine          names itself
``outside``                   (callable, valid kwargs, [params])          raw errors never leak
``integers``                  param -> call(value)                        integer checks
``metric_arguments``          param -> call(value)                        metric spec messages
``overflow``                  call() with overflowing weights             names the caller
``pickling``                  (builder, use)                              round trips
                                                                          (test_pickling)
``frames``                    label -> f(y, scores, w) -> (names, floats) a data frame of score
                                                                          columns: names kept,
                                                                          numbers as a mapping's
                                                                          (test_common)
``result``                    label -> build(y, s, w) -> result object    compact repr, escaped
                                                                          HTML (test_common)
============================  ==========================================  ======================

A new public function is covered by registering it here; ``test_every_public_callable_is_registered``
fails for a public callable of ``PUBLIC`` (``isometrics.__all__`` and every namespace's ``__all__``:
``isometrics.uncertainty``, ``.elicitation``, ``.irt``, ...) that is neither registered nor in ``EXEMPT``.
Errors and warnings are registered automatically (one generic pickling case each). The tables
below are written by capability (the way the checks read them) and folded into ``REGISTRY``.
"""

import dataclasses
import importlib
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import isometrics as im


def _public() -> tuple[dict[str, Any], dict[str, str]]:
    """Every public name, the core's and each namespace's (issue 24, item 4): label -> object, label -> path.

    The label is the bare name; a namespace's name that is another object than the same name met
    before is labelled ``namespace.name`` (``elicitation.Decision``). A namespace whose optional
    dependency is missing (matplotlib, plotly) is left out.
    """
    objects = {name: getattr(im, name) for name in im.__all__}
    paths = {name: f"isometrics.{name}" for name in im.__all__}
    for namespace in im._NAMESPACES:
        try:
            module = importlib.import_module(f"isometrics.{namespace}")
            members = {name: getattr(module, name) for name in module.__all__}
        except ImportError:
            continue
        for name, obj in members.items():
            label = name if objects.get(name, obj) is obj else f"{namespace}.{name}"
            objects.setdefault(label, obj)
            paths.setdefault(label, f"isometrics.{namespace}.{name}")
    return objects, paths


#: Every public name (label -> object), and where it is documented (label -> ``isometrics[.namespace].name``).
PUBLIC, PUBLIC_PATH = _public()


@dataclasses.dataclass
class Entry:
    """One public name and the common checks that apply to it (the fields that are set)."""

    name: str
    binary: dict[str, Callable] = dataclasses.field(default_factory=dict)
    no_scores: bool = False
    uncertainty: dict[str, Callable] = dataclasses.field(default_factory=dict)
    unweighted: bool = False
    weighted: dict[str, Callable] = dataclasses.field(default_factory=dict)
    scale_dependent: bool = False
    messages: tuple | None = None
    via_engine: bool = False
    outside: tuple | None = None
    integers: dict[str, Callable] = dataclasses.field(default_factory=dict)
    metric_arguments: dict[str, Callable] = dataclasses.field(default_factory=dict)
    overflow: Callable | None = None
    pickling: tuple | None = None
    frames: dict[str, Callable] = dataclasses.field(default_factory=dict)
    result: dict[str, Callable] = dataclasses.field(default_factory=dict)

    @property
    def tags(self) -> set[str]:
        return {f.name for f in dataclasses.fields(self) if f.name != "name" and getattr(self, f.name)}


REGISTRY: dict[str, Entry] = {}
TAGS = tuple(f.name for f in dataclasses.fields(Entry) if f.name != "name")


def register(name: str, **capabilities: Any) -> Entry:
    """Add capabilities to the entry of ``name`` (created on first use); a capability is never given twice."""
    entry = REGISTRY.setdefault(name, Entry(name))
    for tag, value in capabilities.items():
        current = getattr(entry, tag)
        if isinstance(current, dict):
            assert not current.keys() & value.keys(), f"{name}: {tag} {sorted(current.keys() & value.keys())} twice"
            current.update(value)
        else:
            assert not current, f"{name}: {tag} registered twice"
            setattr(entry, tag, value)
    return entry


def variants(tag: str) -> dict[str, Any]:
    """What the entries tagged ``tag`` hold, as one table: label -> value (the label is the public name
    where an entry holds one value, the variant's label where it holds several)."""
    assert tag not in ("integers", "metric_arguments"), "keyed by parameter: use per_parameter"
    table: dict[str, Any] = {}
    for entry in REGISTRY.values():
        value = getattr(entry, tag)
        if isinstance(value, dict):
            assert not table.keys() & value.keys(), f"{tag}: labels {sorted(table.keys() & value.keys())} twice"
            table.update(value)
        elif value:
            table[entry.name] = value
    return table


def having(tag: str) -> set[str]:
    """The labels of the variants tagged ``tag`` (for the flags: the public names)."""
    return set(variants(tag))


def per_parameter(tag: str) -> list[tuple[str, str, Callable]]:
    """(public name, parameter, call) for the tags that hold param -> call(value)."""
    return [(entry.name, param, call) for entry in REGISTRY.values() for param, call in getattr(entry, tag).items()]


# Public callables that no common check applies to, with the reason.
EXEMPT = {
    **{
        name: "the KEEL benchmark takes a cache folder and data set and model names, not arrays: its bad-input "
        "errors (unknown data set, model spec, metric; empty lists; n_splits) are tested in tests/keel"
        for name in (
            "build_keel_benchmark",
            "read_keel_benchmark",
            "keel_datasets",
            "load_keel_dataset",
            "keel_response",
            "parse_classifier_spec",
        )
    },
    # the namespaces' own names (issue 24, item 4): each namespace has its own hostile-input suite over its __all__
    **{
        name: "an elicitation helper: its bad inputs are tested over isometrics.elicitation.__all__ in "
        "tests/elicitation/test_hostile_input.py"
        for name in (
            "Contradiction",
            "elicitation.Decision",
            "LinearStakeholder",
            "Step",
            "engine_trace",
            "hull_slope",
            "synthetic_boundary",
        )
    },
    **{
        name: "a size or memory setting of out-of-core evaluation, or the Dask entry point: tested over "
        "isometrics.scale.__all__ and isometrics.dask.__all__ in tests/scale/test_scale_hostile_input.py"
        for name in ("default_memory_limit", "parse_memory", "evaluate_dask")
    },
    **{
        name: "a page writer: it takes result objects, not arrays (tests/presentation: the report, the multiclass "
        "page and the elicitation page, their escaping and their bad inputs)"
        for name in ("build_multiclass_report", "write_report", "elicitation_page", "write_elicitation_page")
    },
    **{
        name: "the recommendation a report opens with: built from an Evaluations (tests/model_selection/test_recommend.py)"
        for name in ("recommend", "Recommendation")
    },
    "parse_metric": "the metric parser itself: its messages name the caller's function and parameter only when "
    "called through a public function, and every one that takes a metric spec is registered "
    "with metric_arguments; the Metric it builds is registered for pickling",
}


# ---------------------------------------------------------------------------- binary (test_common)
# Each entry maps (y_true, y_score, sample_weight, pos_label) to a flat float array, so one
# set of tests covers curves, areas, hulls, thresholds and calibration alike.


def _flat(*arrays):
    return np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in arrays])


def _budget(y, w):
    return 0.37 * (len(y) if w is None else float(np.asarray(w, dtype=float).sum()))


_BINARY = {
    # every point: scikit-learn's default thinning tests float second differences, which rounding moves
    "roc_curve": lambda y, s, w, p: _flat(
        *im.roc_curve(y, s, sample_weight=w, pos_label=p, drop_intermediate=False)[:2]
    ),
    "precision_recall_curve": lambda y, s, w, p: _flat(
        *im.precision_recall_curve(y, s, sample_weight=w, pos_label=p)[:2]
    ),
    "prg_curve": lambda y, s, w, p: _flat(
        *[a[np.isfinite(a)] for a in im.prg_curve(y, s, sample_weight=w, pos_label=p)[:2]]
    ),
    "auroc": lambda y, s, w, p: _flat(im.auroc(y, s, sample_weight=w, pos_label=p)),
    "average_precision": lambda y, s, w, p: _flat(im.average_precision(y, s, sample_weight=w, pos_label=p)),
    "auprg": lambda y, s, w, p: _flat(im.auprg(y, s, sample_weight=w, pos_label=p)),
    "auc_pr_interpolated": lambda y, s, w, p: _flat(im.spaces.auc_pr_interpolated(y, s, sample_weight=w, pos_label=p)),
    "auc_pr_achievable": lambda y, s, w, p: _flat(im.spaces.auc_pr_achievable(y, s, sample_weight=w, pos_label=p)),
    "h_measure": lambda y, s, w, p: _flat(im.spaces.h_measure(y, s, sample_weight=w, pos_label=p)),
    "roc_convex_hull": lambda y, s, w, p: _flat(
        *(lambda h: (h.fpr, h.tpr))(im.roc_convex_hull(y, s, sample_weight=w, pos_label=p))
    ),
    "prg_convex_hull": lambda y, s, w, p: _flat(
        im.prg_convex_hull(y, s, sample_weight=w, pos_label=p).f_calibrated_scores
    ),
    "best f1": lambda y, s, w, p: _flat(im.best_threshold(y, s, metric="f1", sample_weight=w, pos_label=p).value),
    "best g": lambda y, s, w, p: _flat(
        im.best_threshold(y, s, metric="g(beta=2, rho=-3)", sample_weight=w, pos_label=p).value
    ),
    "best cost": lambda y, s, w, p: _flat(
        im.best_threshold(y, s, metric="cost(fp=1, fn=4)", sample_weight=w, pos_label=p).value
    ),
    "metric_curve": lambda y, s, w, p: _flat(
        im.metric_curve(y, s, metric="f2", sample_weight=w, pos_label=p).values[1:]
    ),
    "precision_at_recall": lambda y, s, w, p: _flat(
        im.precision_at_recall(y, s, min_recall=0.5, sample_weight=w, pos_label=p).precision
    ),
    "always_positive": lambda y, s, w, p: _flat(im.spaces.always_positive(y, sample_weight=w, pos_label=p).precision),
    # k a share of the total weight, so that scaling or repeating the weights keeps the budget
    "precision_at_k": lambda y, s, w, p: _flat(
        im.spaces.precision_at_k(y, s, k=_budget(y, w), sample_weight=w, pos_label=p)
    ),
    "recall_at_k": lambda y, s, w, p: _flat(im.spaces.recall_at_k(y, s, k=_budget(y, w), sample_weight=w, pos_label=p)),
    "gains_curve": lambda y, s, w, p: _flat(*im.spaces.gains_curve(y, s, sample_weight=w, pos_label=p)[:2]),
    "lift_curve": lambda y, s, w, p: _flat(*im.spaces.lift_curve(y, s, sample_weight=w, pos_label=p)[:2]),
}
# no entry returns thresholds, so every one must be unchanged by a monotone map of the scores
_NO_SCORES = {"always_positive"}  # takes no y_score: the score checks do not apply


# ---------------------------------------------------------------------------- uncertainty (test_common)
# The uncertainty functions on the same inputs. Each entry maps (y_true, y_score, sample_weight,
# pos_label) to its point estimates (deterministic: the replicates are not compared), so that
# the score validation, the errors, non-mutation and order invariance are checked for every
# function that takes y_score. Multi-scorer functions get a second scorer made elementwise from
# y_score, so a bad y_score (2-D, NaN, wrong length) reaches them as a bad column.
def like(template, values):
    """``values`` (NumPy) as a column (1-D) or frame (2-D) of ``template``'s data-frame library, so that
    the columns a test passes (pandas, Polars, pyarrow) reach the public function as such."""
    library = type(template).__module__.partition(".")[0]
    values = np.asarray(values)
    if library not in ("pandas", "polars", "pyarrow"):
        return values
    module = __import__(library)
    if values.ndim == 2:
        columns = {f"c{j}": values[:, j] for j in range(values.shape[1])}
        return module.table(columns) if library == "pyarrow" else module.DataFrame(columns)
    if library == "pyarrow":
        return module.chunked_array([values]) if isinstance(template, module.ChunkedArray) else module.array(values)
    return module.Series(values)


def _second(s):
    with np.errstate(invalid="ignore"):  # sin(inf) is NaN: the first column's error is the one expected
        return like(s, np.sin(3 * np.asarray(s, dtype=float)))


_B = dict(n_resamples=20, rng=0)
_UNCERTAINTY = {
    "bootstrap": lambda y, s, w, p: _flat(
        im.uncertainty.bootstrap(y, s, sample_weight=w, weight_kind="sampling", pos_label=p, **_B).estimate
    ),
    "bootstrap metric": lambda y, s, w, p: _flat(
        im.uncertainty.bootstrap(
            y,
            s,
            statistic="metric",
            metric="f2",
            threshold=0.4,
            sample_weight=w,
            weight_kind="sampling",
            pos_label=p,
            **_B,
        ).estimate
    ),
    "bootstrap_areas": lambda y, s, w, p: _flat(
        *[
            r.estimate
            for r in im.uncertainty.bootstrap_areas(
                y, s, sample_weight=w, weight_kind="sampling", pos_label=p, **_B
            ).values()
        ]
    ),
    "bootstrap_curve_band": lambda y, s, w, p: _flat(
        im.uncertainty.bootstrap_curve_band(
            y, s, curve="prg", sample_weight=w, weight_kind="sampling", pos_label=p, **_B
        ).estimate
    ),
    "bootstrap_compare": lambda y, s, w, p: _flat(
        list(
            im.uncertainty.bootstrap_compare(
                y, {"a": s, "b": _second(s)}, sample_weight=w, weight_kind="sampling", pos_label=p, **_B
            )
            .estimates["auroc"]
            .values()
        )
    ),
    "compare_scores": lambda y, s, w, p: _flat(
        *[
            r.estimate
            for r in im.uncertainty.compare_scores(
                y, s, _second(s), sample_weight=w, weight_kind="sampling", pos_label=p, **_B
            ).rows
        ]
    ),
    "evaluate_scores": lambda y, s, w, p: _flat(
        *[
            [e.auroc, e.average_precision, e.auprg, *[r.estimate for r in e.intervals.values()]]
            for e in im.evaluate_scores(
                y,
                {"a": s, "b": _second(s)},
                metrics=["f1", "youden"],
                sample_weight=w,
                weight_kind="sampling",
                pos_label=p,
                **_B,
            )
        ]
    ),
    "average_precision_ci": lambda y, s, w, p: _flat(
        im.uncertainty.average_precision_ci(y, s, sample_weight=w, weight_kind="sampling", pos_label=p)
    ),
    "delong": lambda y, s, w, p: _flat(
        *(lambda r: (r.auroc, r.covariance))(im.uncertainty.delong(y, {"a": s, "b": _second(s)}, pos_label=p))
    ),
    "delong_test": lambda y, s, w, p: _flat(
        *(lambda t: (t.difference, t.z, t.p_value, t.confidence_interval))(
            im.uncertainty.delong_test(y, s, _second(s), pos_label=p)
        )
    ),
}
_UNWEIGHTED = {"delong", "delong_test"}  # DeLong's U-statistic takes no sample weights


# ---------------------------------------------------------------------------- weight scale (test_common)
# Every other public function that takes sample_weight, as (y, s, w) -> flat floats. Outputs
# that are counts in the weights' unit (confusion matrices, supports, bin weights) are divided
# by their total, so that every entry must be unchanged by scaling the weights.
def _share(a):
    a = np.asarray(a, dtype=float)
    return a / a.sum()


def _labels(s, shift=False):
    s = np.asarray(s)
    return (s > 0.5).astype(int) + (s > 1.5) if shift else (s > 0.5).astype(int)


def _proba(s):
    return like(s, 1.0 / (1.0 + np.exp(-np.asarray(s))))


def _three_classes(y, s):
    y, s, template = np.asarray(y), np.asarray(s), s
    classes = y + (s > 1.5)  # 0, 1, 2; every class present in the fixture
    logits = np.column_stack([-s, s, 2 * s - 2])
    return like(template, classes), like(template, np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True))


_SCORES_FROM_LABELS = {
    name: (lambda f: lambda y, s, w: _flat(f(y, like(s, _labels(s)), sample_weight=w)))(getattr(im, name))
    for name in (
        "precision_score",
        "recall_score",
        "f1_score",
        "specificity_score",
        "negative_predictive_value_score",
        "false_positive_rate_score",
        "accuracy_score",
        "balanced_accuracy_score",
        "matthews_corrcoef",
    )
}
_WEIGHTED = {
    "decision_curve": lambda y, s, w: _flat(*im.spaces.decision_curve(y, _proba(s), sample_weight=w)[1:3]),
    **_SCORES_FROM_LABELS,
    "fbeta_score": lambda y, s, w: _flat(im.fbeta_score(y, like(s, _labels(s)), beta=2, sample_weight=w)),
    "precision_recall_fscore_support": lambda y, s, w: (lambda r: _flat(*r[:3], _share(r[3])))(
        im.precision_recall_fscore_support(y, like(s, _labels(s)), sample_weight=w)
    ),
    "confusion_matrix": lambda y, s, w: _share(im.confusion_matrix(y, like(s, _labels(s)), sample_weight=w)),
    "roc_auc_score": lambda y, s, w: _flat(
        im.roc_auc_score(y, s, sample_weight=w),
        im.roc_auc_score(y, s, sample_weight=w, max_fpr=0.5),
        *[
            im.roc_auc_score(*_three_classes(y, s), sample_weight=w, multi_class=mc, average=a)
            for mc in ("ovr", "ovo")
            for a in ("macro", "weighted")
        ],
    ),
    "class_counts": lambda y, s, w: (lambda c: _share(_flat(c.tp, c.fp, c.fn, c.tn)))(
        im.class_counts(y, like(s, _labels(s)), sample_weight=w)
    ),
    "metric_report": lambda y, s, w: (lambda r: _flat(r.values, _share(r.support), *r.averages.values()))(
        im.metric_report(
            *_three_classes(y, s)[:1],
            like(s, _labels(s, shift=True)),
            sample_weight=w,
            metrics=["f1", "g(beta=2, rho=-3)", "youden", "cost(fp=1, fn=4)"],
        )
    ),
    "expected_cost": lambda y, s, w: _flat(
        im.spaces.expected_cost(y, like(s, _labels(s)), cost_matrix=[[0, 1], [1e10, 0]], sample_weight=w)
    ),
    "reliability_curve": lambda y, s, w: (lambda c: _flat(c.mean_predicted, c.fraction_positive, _share(c.weight)))(
        im.spaces.reliability_curve(y, _proba(s), n_bins=5, sample_weight=w)
    ),
    "expected_calibration_error": lambda y, s, w: _flat(
        im.spaces.expected_calibration_error(y, _proba(s), sample_weight=w)
    ),
    "isotonic_calibrator": lambda y, s, w: _flat(im.spaces.isotonic_calibrator(y, s, sample_weight=w)(s)),
    "f_calibrator": lambda y, s, w: _flat(im.spaces.f_calibrator(y, s, sample_weight=w)(s)),
    "achievable_pr_curve": lambda y, s, w: _flat(*im.spaces.achievable_pr_curve(y, s, sample_weight=w)[:2]),
    "recall_at_precision": lambda y, s, w: (lambda p: _flat(p.precision, p.recall, p.fpr))(
        im.recall_at_precision(y, s, min_precision=0.6, sample_weight=w)
    ),
    "specificity_at_sensitivity": lambda y, s, w: (lambda p: _flat(p.precision, p.recall, p.fpr))(
        im.specificity_at_sensitivity(y, s, min_sensitivity=0.6, sample_weight=w)
    ),
    "roc_convex_hull optima": lambda y, s, w: (
        lambda h: _flat(
            h.max_recall_at_precision(0.6).tpr,
            h.max_precision_at_recall(0.5).precision,
            h.min_fpr_at_tpr(0.7).fpr,
            h.best_mixture("g(beta=2, rho=-3)").value,
        )
    )(im.roc_convex_hull(y, s, sample_weight=w)),
    "at_prevalence": lambda y, s, w: (lambda op: _flat(op.auprg(), op.best_threshold("f1").value))(
        im.OperatingPoints.from_scores(y, s, sample_weight=w).at_prevalence(0.1)
    ),
    "evaluate_scores": lambda y, s, w: _flat(
        *[
            [e.prevalence, e.auroc, e.average_precision, e.auprg, *[b.value for b in e.best]]
            for e in im.evaluate_scores(y, {"a": s}, metrics=["f1", "g(beta=2, rho=-3)", "youden"], sample_weight=w)
        ]
    ),
    "one_vs_rest": lambda y, s, w: (
        lambda o: _flat(
            o.auroc(average=None),
            o.average_precision(average=None),
            o.auprg(average=None),
            o.auroc(average="micro"),
            o.auroc(average="weighted"),
            _share(o.support),
            [b.value for b in o.best_thresholds("f2")],
        )
    )(im.one_vs_rest(*_three_classes(y, s), sample_weight=w)),
}
# Functions whose weights are not only a relative weighting, checked elsewhere: their
# frequency weights count samples (an interval narrows as they grow) and their point
# estimates are covered by the uncertainty registry.
_SCALE_DEPENDENT = {
    "bootstrap",
    "bootstrap_areas",
    "bootstrap_compare",
    "bootstrap_curve_band",
    "average_precision_ci",
    "compare_scores",
}


# ---------------------------------------------------------------------------- frames (test_common)
# The functions that take several score columns, given a data frame of them (pandas, Polars,
# pyarrow Table) or a mapping of name to NumPy column: each maps (y_true, scores, sample_weight)
# to (the scorers' names, flat floats); the names must be the frame's columns and the numbers
# those of the mapping.
_FRAMES = {
    "evaluate_scores": lambda y, sc, w: (
        lambda e: (e.names, _flat(*[[r.auroc, r.average_precision, r.auprg, *[b.value for b in r.best]] for r in e]))
    )(im.evaluate_scores(y, sc, metrics=["f1", "youden"], sample_weight=w)),
    "compare_scores": lambda y, sc, w: (lambda c: (c.names, _flat(*[r.estimate for r in c.rows])))(
        im.uncertainty.compare_scores(y, sc, sample_weight=w, weight_kind="sampling", **_B)
    ),
    "bootstrap_compare": lambda y, sc, w: (lambda r: (r.names, _flat(*[[x.estimate, x.p_value] for x in r.rows])))(
        im.uncertainty.bootstrap_compare(y, sc, sample_weight=w, weight_kind="sampling", **_B)
    ),
    "delong": lambda y, sc, w: (lambda r: (r.names, _flat(r.auroc, r.covariance)))(im.uncertainty.delong(y, sc)),
}


# ---------------------------------------------------------------------------- result (test_common)
# Every public result type, built from (y_true, y_score, sample_weight, pos_label) of many samples
# (the test uses 10**5): its repr must stay compact and its HTML escaped. The labels and names
# hold markup, so that an unescaped string shows up as a tag.
HOSTILE_NAME = "<i>model</i> & co"


def _pandas():
    import pandas

    return pandas


def _plotting_display(name):
    return getattr(_plotting(), name)


_RB = dict(n_resamples=200, rng=0)
_RESULT = {
    "OperatingPoints": lambda y, s, w, p: im.OperatingPoints.from_scores(y, s, sample_weight=w, pos_label=p),
    "RocCurve": lambda y, s, w, p: im.roc_curve(y, s, sample_weight=w, pos_label=p),
    "PrecisionRecallCurve": lambda y, s, w, p: im.OperatingPoints.from_scores(
        y, s, sample_weight=w, pos_label=p
    ).precision_recall_curve(),
    "PrgCurve": lambda y, s, w, p: im.prg_curve(y, s, sample_weight=w, pos_label=p),
    "AlwaysPositive": lambda y, s, w, p: im.spaces.always_positive(y, sample_weight=w, pos_label=p),
    "BaselineCurve": lambda y, s, w, p: im.spaces.iso_fbeta_baseline(0.3, beta=2.0, n_points=10**5),
    "LevelCurve": lambda y, s, w, p: im.level_curve(
        "g(beta=2, rho=-3)", 0.5, space="roc", prevalence=0.3, n_points=10**5
    ),
    "InterpolatedPoints": lambda y, s, w, p: im.spaces.interpolate_pr_points(2, 1, 60002, 50001, n_positives=10**5),
    "RocHull": lambda y, s, w, p: im.roc_convex_hull(y, s, sample_weight=w, pos_label=p),
    "PrgHull": lambda y, s, w, p: im.prg_convex_hull(y, s, sample_weight=w, pos_label=p),
    "RandomizedClassifier": lambda y, s, w, p: im.roc_convex_hull(y, s, pos_label=p).randomized(fpr=0.3),
    "HullOptimum": lambda y, s, w, p: im.roc_convex_hull(y, s, pos_label=p).best_mixture("f1"),
    "CrossValidatedThreshold": lambda y, s, w, p: im.cross_validated_threshold(
        y, s, metric="f1", cv=3, sample_weight=w, pos_label=p, rng=0
    ),
    "BestThreshold": lambda y, s, w, p: im.best_threshold(y, np.round(s), metric="f1", sample_weight=w, pos_label=p),
    "MetricCurve": lambda y, s, w, p: im.metric_curve(y, s, metric="f2", sample_weight=w, pos_label=p),
    "OperatingPoint": lambda y, s, w, p: im.precision_at_recall(y, s, min_recall=0.5, pos_label=p),
    "BinaryEvaluation": lambda y, s, w, p: im.evaluate_scores(
        y, {HOSTILE_NAME: s}, metrics=["f1", "youden"], pos_label=p, **_RB
    )[0],
    "Evaluations": lambda y, s, w, p: im.evaluate_scores(
        y,
        {HOSTILE_NAME: s, "b": -s, **{f"m{k}": s + k for k in range(12)}},
        metrics=["f1", "g(beta=2, rho=-3)"],
        pos_label=p,
    ),
    "GroupEvaluation": lambda y, s, w, p: (
        im.evaluate_scores(
            y,
            {HOSTILE_NAME: s},
            groups=np.array([HOSTILE_NAME, "b"] * (len(y) // 2) + ["b"] * (len(y) % 2)),
            pos_label=p,
            **_RB,
        )[0].groups
    ),
    "ModelComparison": lambda y, s, w, p: im.uncertainty.compare_scores(
        y, s, np.round(s, 1), names=(HOSTILE_NAME, "b"), metrics=["f1", "youden"], pos_label=p, **_RB
    ),
    "ComparisonRow": lambda y, s, w, p: im.uncertainty.bootstrap_compare(
        y, {HOSTILE_NAME: s, "b": np.round(s, 1), "c": -s}, pos_label=p, **_RB
    ).rows[0],
    "Metric": lambda y, s, w, p: im.parse_metric("cost(fp=1, fn=4, prevalence=0.2)"),
    "OneVsRest": lambda y, s, w, p: (
        lambda c, proba: im.one_vs_rest(np.array(["<b>a</b>", "b", "c"])[c], proba, sample_weight=w)
    )(*_three_classes((y == p).astype(int), s)),
    "MetricReport": lambda y, s, w, p: im.metric_report(
        y, np.where(s > 0.5, p, "no"), metrics=["f1", "youden"], sample_weight=w
    ),
    "ClassCounts": lambda y, s, w, p: im.class_counts(y, np.where(s > 0.5, p, "no"), sample_weight=w),
    "StepCalibrator": lambda y, s, w, p: im.spaces.isotonic_calibrator(y, s, sample_weight=w, pos_label=p),
    "ReliabilityCurve": lambda y, s, w, p: im.spaces.reliability_curve(
        y, _proba(s), n_bins=1000, sample_weight=w, pos_label=p
    ),
    "BootstrapResult": lambda y, s, w, p: im.uncertainty.bootstrap(
        y, s, sample_weight=w, weight_kind="sampling", pos_label=p, **_RB
    ),
    "CurveBand": lambda y, s, w, p: im.uncertainty.bootstrap_curve_band(y, s, pos_label=p, **_RB),
    "DelongResult": lambda y, s, w, p: im.uncertainty.delong(y, {HOSTILE_NAME: s, "b": np.round(s, 1)}, pos_label=p),
    "DelongTest": lambda y, s, w, p: im.uncertainty.delong_test(y, s, np.round(s, 1), pos_label=p),
    **{
        name: (
            lambda name: (
                lambda y, s, w, p: _plotting_display(name).from_predictions(
                    y, s, sample_weight=w, pos_label=p, name=HOSTILE_NAME, metric="f1"
                )
            )
        )(name)
        for name in ("RocDisplay", "PrecisionRecallDisplay", "PrgDisplay", "MetricCurveDisplay")
    },
    "LevelCurveDisplay": lambda y, s, w, p: _plotting_display("LevelCurveDisplay").from_metric("f1"),
    "ClassifierSpec": lambda y, s, w, p: im.irt.parse_classifier_spec("knn:n_neighbors=3"),
    "KeelBenchmark": lambda y, s, w, p: _keel_benchmark(),
    "DisplayGroup": lambda y, s, w, p: _plotting_display("RocDisplay").from_predictions(
        y, _pandas().DataFrame({HOSTILE_NAME: s, "b": np.round(s, 1)}), sample_weight=w, pos_label=p, metric="f1"
    ),
    **{
        name: (
            lambda name: (
                lambda y, s, w, p: _plotting_display(name).from_predictions(
                    y, s, sample_weight=w, pos_label=p, name=HOSTILE_NAME
                )
            )
        )(name)
        for name in ("GainsDisplay", "LiftDisplay")
    },
    "Cutoff": lambda y, s, w, p: im.OperatingPoints.from_scores(y, s, sample_weight=w, pos_label=p).at_top_k(500),
    "GainsCurve": lambda y, s, w, p: im.spaces.gains_curve(y, s, sample_weight=w, pos_label=p),
    "LiftCurve": lambda y, s, w, p: im.spaces.lift_curve(y, s, sample_weight=w, pos_label=p),
    "DecisionCurve": lambda y, s, w, p: im.spaces.decision_curve(y, s, sample_weight=w, pos_label=p),
    "Elicitation": lambda y, s, w, p: im.elicitation.Elicitation.from_scores(y, s, sample_weight=w, pos_label=p),
    "ElicitationResult": lambda y, s, w, p: im.elicitation.Elicitation.from_scores(
        y, s, pos_label=p, local_budget=2, pairwise_budget=2
    ).run(im.elicitation.SimulatedStakeholder(2.0, -2.0)),
    "Transcript": lambda y, s, w, p: (
        im.elicitation.Elicitation.from_scores(y, s, pos_label=p, local_budget=2, pairwise_budget=3)
        .run(im.elicitation.SimulatedStakeholder(0.5, -3.0))
        .transcript
    ),
    "LocalQuestion": lambda y, s, w, p: im.elicitation.LocalQuestion(0.9, 0.36),
    "PairwiseQuestion": lambda y, s, w, p: im.elicitation.PairwiseQuestion((0.9, 0.3), (0.4, 0.8)),
    "SimulatedStakeholder": lambda y, s, w, p: im.elicitation.SimulatedStakeholder(2.0, -3.0),
    "TangencyResult": lambda y, s, w, p: im.elicitation.tangency_estimate(
        points=[(0.5, 0.5), (0.8, 0.4)], slopes=[-8.0, -1.0]
    ),
    "LinearMetricResult": lambda y, s, w, p: im.elicitation.elicit_linear_metric(
        im.elicitation.LinearStakeholder(0.5), im.elicitation.synthetic_boundary(5.0)
    ),
}


# ---------------------------------------------------------------------------- pickling (test_pickling)
# Each public class has a builder here; a round trip must give back an object equal in content
# that still works (the same calls on the original and on the copy give the same results).
_prng = np.random.default_rng(7)
PY = np.r_[1, 0, (_prng.random(58) < 0.4).astype(int)]
PS = np.round(_prng.normal(size=60) + PY, 1)
PW = _prng.integers(1, 4, size=60).astype(float)
PMULTI_Y = np.r_[PY, 2, 2, 2]
PMULTI_S = np.c_[np.r_[PS, 0, 0, 1], -np.r_[PS, 0, 0, 1], np.r_[np.zeros(60), 2, 2, 2]]


def pickling_op():
    return im.OperatingPoints.from_scores(PY, PS, sample_weight=PW)


def _pickling_hull():
    return pickling_op().roc_convex_hull()


# name -> (builder, what to call on the original and on the copy: same results expected)
def _keel_benchmark():
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        return im.irt.build_keel_benchmark(cache, datasets=["zoo-3"], models=["nb"])


_PICKLING = {
    "KeelBenchmark": (_keel_benchmark, lambda b: (b.matrix("auroc"), b.to_long(), b.models)),
    "ClassifierSpec": (
        lambda: im.irt.parse_classifier_spec("knn:n_neighbors=3"),
        lambda s: (s.spec, s.fingerprint, s.build().get_params()["kneighborsclassifier__n_neighbors"]),
    ),
    "OperatingPoints": (
        pickling_op,
        lambda o: (o.auroc(), o.best_threshold("f2").value, o.roc_curve(), o.precision_at_recall(0.5), o.n_positives),
    ),
    "RocCurve": (lambda: pickling_op().roc_curve(), lambda c: np.trapezoid(c.tpr, c.fpr)),
    "PrecisionRecallCurve": (lambda: pickling_op().precision_recall_curve(), lambda c: c.precision.max()),
    "PrgCurve": (lambda: pickling_op().prg_curve(), lambda c: c.in_unit_square),
    "AlwaysPositive": (lambda: im.spaces.always_positive(PY, sample_weight=PW), lambda a: tuple(a)),
    "BaselineCurve": (lambda: im.spaces.iso_fbeta_baseline(0.3, beta=2.0), lambda b: tuple(b)),
    "LevelCurve": (lambda: im.level_curve("g(beta=2, rho=-3)", 0.5, space="roc", prevalence=0.3), lambda c: c.x.sum()),
    "InterpolatedPoints": (lambda: im.spaces.interpolate_pr_points(2, 1, 6, 5, n_positives=10), lambda p: tuple(p)),
    "RocHull": (
        _pickling_hull,
        lambda h: (h.max_precision_at_recall(0.5), h.best_mixture("g(beta=2, rho=-3)"), h.tpr_at([0.1, 0.5])),
    ),
    "PrgHull": (lambda: pickling_op().prg_convex_hull(), lambda h: h.f_calibrated_scores.sum()),
    "RandomizedClassifier": (lambda: _pickling_hull().randomized(fpr=0.3), lambda c: c.predict(PS, rng=0)),
    "HullOptimum": (lambda: _pickling_hull().best_mixture("f1"), lambda o: o.metric.from_counts(3, 1, 2)),
    "BestThreshold": (
        lambda: im.best_threshold(PY, PS, metric="g(beta=2, rho=-3)", sample_weight=PW),
        lambda b: (b.to_dict(), b._repr_html_()),
    ),
    "MetricCurve": (lambda: im.metric_curve(PY, PS, metric="f1"), lambda c: np.nanmax(c.values)),
    "OperatingPoint": (lambda: im.precision_at_recall(PY, PS, min_recall=0.5), lambda p: p.precision),
    "BinaryEvaluation": (
        lambda: im.evaluate_scores(PY, {"a": PS}, metrics=["f1", "youden", "cost(fp=1, fn=3)"])[0],
        lambda e: (e.to_dict(), e.operating_points.auprg()),
    ),
    "Evaluations": (
        lambda: im.evaluate_scores(PY, {"a": PS, "b": -PS}, metrics=["f1", "youden"]),
        lambda e: (e.to_dict(), e["b"].auroc, e.names, repr(e)),
    ),
    "GroupEvaluation": (
        lambda: im.evaluate_scores(PY, {"a": PS}, groups=np.arange(60) % 2, n_resamples=20, rng=0)[0].groups,
        lambda g: (g.to_dict(), repr(g)),
    ),
    "ModelComparison": (
        lambda: im.uncertainty.compare_scores(PY, PS, -PS, n_resamples=20, rng=0),
        lambda c: c.to_dict(),
    ),
    "ComparisonRow": (
        lambda: im.uncertainty.bootstrap_compare(PY, {"a": PS, "b": -PS}, n_resamples=20, rng=0).rows[0],
        lambda r: r.to_dict(),
    ),
    "Metric": (
        lambda: im.parse_metric("cost(fp=1, fn=4, prevalence=0.2)"),
        lambda m: m.from_counts([1.0, 2.0], [0.0, 1.0], [2.0, 1.0], [3.0, 2.0]),
    ),
    "OneVsRest": (
        lambda: im.one_vs_rest(PMULTI_Y, PMULTI_S),
        lambda o: (o.auroc(average="macro"), o.best_thresholds("f1")),
    ),
    "MetricReport": (
        lambda: im.metric_report(PMULTI_Y, PMULTI_S.argmax(axis=1), metrics=["precision", "f2"]),
        lambda r: (r.to_dict(), r.to_text()),
    ),
    "ClassCounts": (lambda: im.class_counts(PMULTI_Y, PMULTI_S.argmax(axis=1)), lambda c: c.support),
    "StepCalibrator": (lambda: im.spaces.isotonic_calibrator(PY, PS), lambda c: c(PS)),
    "ReliabilityCurve": (lambda: im.spaces.reliability_curve(PY, 1 / (1 + np.exp(-PS))), lambda c: tuple(c)),
    "BootstrapResult": (
        lambda: im.uncertainty.bootstrap(PY, PS, n_resamples=20, rng=0),
        lambda r: r.confidence_interval,
    ),
    "CurveBand": (lambda: im.uncertainty.bootstrap_curve_band(PY, PS, n_resamples=20, rng=0), lambda b: tuple(b)),
    "DelongResult": (lambda: im.uncertainty.delong(PY, PS), lambda r: r.confidence_interval()),
    "DelongTest": (lambda: im.uncertainty.delong_test(PY, PS, PS + _prng.normal(size=60)), lambda t: t.p_value),
    "Cutoff": (lambda: pickling_op().at_top_k(13.5), lambda c: (c.tp, c.value("mcc"), c.to_dict())),
    "GainsCurve": (lambda: im.spaces.gains_curve(PY, PS), lambda c: tuple(c)),
    "LiftCurve": (lambda: im.spaces.lift_curve(PY, PS), lambda c: tuple(c)),
    "DecisionCurve": (lambda: im.spaces.decision_curve(PY, 1 / (1 + np.exp(-PS))), lambda c: tuple(c)),
}


# ---------------------------------------------------------------------------- messages (test_messages)
Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.6, 0.8, 0.2, 0.4, 0.5])
P = (S > 0.45).astype(int)
W = np.array([1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0])
Y3 = np.array([0, 1, 2, 2, 1, 0, 2, 1])
PROBA3 = np.array(
    [
        [0.7, 0.2, 0.1],
        [0.2, 0.6, 0.2],
        [0.1, 0.2, 0.7],
        [0.3, 0.3, 0.4],
        [0.2, 0.5, 0.3],
        [0.6, 0.3, 0.1],
        [0.1, 0.1, 0.8],
        [0.3, 0.4, 0.3],
    ]
)


def _hull():
    return im.roc_convex_hull(Y, S)


# name (as it must appear in messages) -> (callable, valid keyword arguments, {parameter: kind})
# kinds: "labels" and "array" are per-sample arrays, "number" a scalar, "numbers" a value that
# broadcasts (scalar or array), "metrics" a sequence of metric specs.
BINARY = {"y_true": "labels", "y_score": "array", "sample_weight": "array"}
LABELS = {"y_true": "labels", "y_pred": "labels", "sample_weight": "array"}
_MESSAGES = {
    **{
        f.__name__: (f, dict(y_true=Y, y_score=S, sample_weight=W), BINARY)
        for f in (
            im.roc_curve,
            im.precision_recall_curve,
            im.prg_curve,
            im.auroc,
            im.average_precision,
            im.auprg,
            im.spaces.auc_pr_interpolated,
            im.spaces.achievable_pr_curve,
            im.spaces.auc_pr_achievable,
            im.spaces.h_measure,
            im.roc_convex_hull,
            im.prg_convex_hull,
            im.spaces.isotonic_calibrator,
            im.spaces.f_calibrator,
        )
    },
    "best_threshold": (im.best_threshold, dict(y_true=Y, y_score=S, metric="f1", sample_weight=W), BINARY),
    "metric_curve": (im.metric_curve, dict(y_true=Y, y_score=S, metric="f1", sample_weight=W), BINARY),
    "precision_at_recall": (
        im.precision_at_recall,
        dict(y_true=Y, y_score=S, min_recall=0.5, sample_weight=W),
        {**BINARY, "min_recall": "number"},
    ),
    "recall_at_precision": (
        im.recall_at_precision,
        dict(y_true=Y, y_score=S, min_precision=0.5, sample_weight=W),
        {**BINARY, "min_precision": "number"},
    ),
    "specificity_at_sensitivity": (
        im.specificity_at_sensitivity,
        dict(y_true=Y, y_score=S, min_sensitivity=0.5, sample_weight=W),
        {**BINARY, "min_sensitivity": "number"},
    ),
    **{
        f.__name__: (f, dict(y_true=Y, y_score=S, k=3, sample_weight=W), {**BINARY, "k": "number"})
        for f in (im.spaces.precision_at_k, im.spaces.recall_at_k)
    },
    **{
        f.__name__: (f, dict(y_true=Y, y_score=S, sample_weight=W), BINARY)
        for f in (im.spaces.gains_curve, im.spaces.lift_curve)
    },
    "decision_curve": (
        im.spaces.decision_curve,
        dict(y_true=Y, y_score=S, threshold_probability=[0.2, 0.5], sample_weight=W),
        {**BINARY, "threshold_probability": "array"},
    ),
    "reliability_curve": (
        im.spaces.reliability_curve,
        dict(y_true=Y, y_prob=S, n_bins=2, sample_weight=W),
        {"y_true": "labels", "y_prob": "array", "sample_weight": "array", "n_bins": "count"},
    ),
    "expected_calibration_error": (
        im.spaces.expected_calibration_error,
        dict(y_true=Y, y_prob=S, n_bins=2, sample_weight=W),
        {"y_true": "labels", "y_prob": "array", "sample_weight": "array", "n_bins": "count"},
    ),
    "always_positive": (
        im.spaces.always_positive,
        dict(y_true=Y, sample_weight=W),
        {"y_true": "labels", "sample_weight": "array"},
    ),
    **{
        f.__name__: (f, dict(y_true=Y, y_pred=P, sample_weight=W), LABELS)
        for f in (
            im.accuracy_score,
            im.balanced_accuracy_score,
            im.matthews_corrcoef,
            im.class_counts,
            im.confusion_matrix,
            im.precision_recall_fscore_support,
            im.precision_score,
            im.recall_score,
            im.f1_score,
            im.specificity_score,
            im.negative_predictive_value_score,
            im.false_positive_rate_score,
        )
    },
    "fbeta_score": (im.fbeta_score, dict(y_true=Y, y_pred=P, beta=2.0, sample_weight=W), {**LABELS, "beta": "number"}),
    "metric_report": (
        im.metric_report,
        dict(y_true=Y, y_pred=P, metrics=["f1"], sample_weight=W),
        {**LABELS, "metrics": "metrics"},
    ),
    "expected_cost": (
        im.spaces.expected_cost,
        dict(y_true=Y, y_pred=P, cost_matrix=[[0, 1], [5, 0]], sample_weight=W),
        LABELS,
    ),
    "roc_auc_score": (im.roc_auc_score, dict(y_true=Y, y_score=S, sample_weight=W), BINARY),
    "one_vs_rest": (
        im.one_vs_rest,
        dict(y_true=Y3, y_score=PROBA3, sample_weight=W),
        {"y_true": "labels", "sample_weight": "array"},
    ),
    **{
        f.__name__: (
            f,
            dict(precision=0.5, recall=[0.2, 0.8], gamma=2.0),
            {"precision": "numbers", "recall": "numbers", "gamma": "numbers"},
        )
        for f in (im.weighted_arithmetic_mean, im.weighted_geometric_mean, im.weighted_harmonic_mean)
    },
    "power_mean": (
        im.power_mean,
        dict(precision=0.5, recall=[0.2, 0.8], gamma=2.0, phi=-2.0),
        {"precision": "numbers", "recall": "numbers", "gamma": "numbers", "phi": "numbers"},
    ),
    "fbeta": (
        im.fbeta,
        dict(precision=0.5, recall=[0.2, 0.8], beta=2.0),
        {"precision": "numbers", "recall": "numbers", "beta": "numbers"},
    ),
    "g_beta_rho": (
        im.g_beta_rho,
        dict(precision=0.5, recall=[0.2, 0.8], beta=2.0, rho=-3.0),
        {"precision": "numbers", "recall": "numbers", "beta": "numbers", "rho": "numbers"},
    ),
    "level_curve": (im.level_curve, dict(metric="f1", value=0.5, n_points=5), {"value": "number", "n_points": "count"}),
    "break_even_line": (im.spaces.break_even_line, dict(beta=2.0, n_points=3), {"beta": "number", "n_points": "count"}),
    "iso_fbeta_baseline": (
        im.spaces.iso_fbeta_baseline,
        dict(prevalence=0.3, beta=1.0, n_points=5),
        {"prevalence": "number", "beta": "number", "n_points": "count"},
    ),
    "repeated_test_precision": (
        im.spaces.repeated_test_precision,
        dict(tpr=0.9, fpr=0.1, prevalence=0.1, n_tests=2),
        {"tpr": "number", "fpr": "number", "prevalence": "number", "n_tests": "count"},
    ),
    "always_positive_fbeta": (
        im.spaces.always_positive_fbeta,
        dict(prevalence=0.3, beta=1.0),
        {"prevalence": "number", "beta": "number"},
    ),
    "bayes_threshold": (
        im.spaces.bayes_threshold,
        dict(cost_fp=1.0, cost_fn=4.0),
        {"cost_fp": "number", "cost_fn": "number"},
    ),
    "prg_fbeta_baseline": (im.spaces.prg_fbeta_baseline, dict(beta=1.0), {"beta": "number"}),
    "interpolate_pr_points": (
        im.spaces.interpolate_pr_points,
        dict(tp_a=2, fp_a=1, tp_b=6, fp_b=5, n_positives=10, step=1.0),
        {p: "number" for p in ("tp_a", "fp_a", "tp_b", "fp_b", "n_positives", "step")},
    ),
    "RocHull.best_mixture": (
        lambda **k: _hull().best_mixture(**k),
        dict(metric="f1", resolution=4),
        {"resolution": "count"},
    ),
    "OneVsRest.macro_precision_recall_curve": (
        lambda **k: im.one_vs_rest(Y3, PROBA3).macro_precision_recall_curve(**k),
        dict(n_points=5),
        {"n_points": "count"},
    ),
    "MetricReport.to_text": (
        lambda **k: im.metric_report(Y3, Y3[::-1]).to_text(**k),
        dict(digits=3),
        {"digits": "count"},
    ),
    # issue 26, item 4: the threads that evaluate score columns at once
    "evaluate_scores": (
        im.evaluate_scores,
        dict(y_true=Y, scores={"a": S, "b": S[::-1]}, n_jobs=2),
        {"n_jobs": "count"},
    ),
}

RAGGED = [[0, 1], [1], 0, 1, 1, 0, 1, 0]
HOSTILE = {
    "labels": {"ragged list": RAGGED, "string": "abc", "empty list": []},
    "array": {"ragged list": RAGGED, "string": "abc", "empty list": []},
    "numbers": {"ragged list": RAGGED, "string": "abc"},  # an empty array broadcasts: valid for the means
    "number": {"ragged list": RAGGED, "string": "abc", "empty list": []},
    "count": {"ragged list": RAGGED, "string": "abc", "empty list": [], "fraction": 2.5},
    "metrics": {"ragged list": RAGGED, "string": 5, "empty list": []},
}


# Binary functions that validate through the engine's one construction path
# (_core.count_table.table_from_scores): each passes its own name, never the engine's.
_VIA_ENGINE = {
    "roc_curve",
    "precision_recall_curve",
    "prg_curve",
    "auroc",
    "average_precision",
    "auprg",
    "auc_pr_interpolated",
    "achievable_pr_curve",
    "auc_pr_achievable",
    "h_measure",
    "roc_convex_hull",
    "prg_convex_hull",
    "isotonic_calibrator",
    "f_calibrator",
    "best_threshold",
    "metric_curve",
    "precision_at_recall",
    "recall_at_precision",
    "specificity_at_sensitivity",
    "precision_at_k",
    "recall_at_k",
    "gains_curve",
    "lift_curve",
    "decision_curve",
}


BIG = np.array([1.0, 1e308, 1.0, 1e308, 1e308, 1.0, 1e308, 1.0])  # each class's total overflows float64
_OVERFLOW = {
    "auroc": lambda: im.auroc(Y, S, sample_weight=BIG),
    "OperatingPoints.from_scores": lambda: im.OperatingPoints.from_scores(Y, S, sample_weight=BIG),
    "one_vs_rest": lambda: im.one_vs_rest(Y3, PROBA3, sample_weight=BIG),
    "evaluate_scores": lambda: im.evaluate_scores(Y, {"a": S}, sample_weight=BIG),
    "average_precision_ci": lambda: im.uncertainty.average_precision_ci(
        Y, S, sample_weight=BIG, weight_kind="sampling"
    ),
    "bootstrap": lambda: im.uncertainty.bootstrap(
        Y, S, sample_weight=BIG, n_resamples=5, rng=0, weight_kind="sampling"
    ),
    "bootstrap_compare": lambda: im.uncertainty.bootstrap_compare(
        Y, {"a": S, "b": S[::-1]}, sample_weight=BIG, n_resamples=5, rng=0, weight_kind="sampling"
    ),
}


def _report(**kwargs):
    pytest.importorskip("jinja2")
    pytest.importorskip("plotly")
    from isometrics.report import build_report

    return build_report(im.evaluate_scores(Y, {"a": S}, metrics=["f1"]), **kwargs)


def _plotting():
    pytest.importorskip("matplotlib")
    import isometrics.plotting

    return isometrics.plotting


# Every public function (or method) that takes a metric spec: (name in messages, parameter, call with the value).
# Sequences of specs name the position (`metrics[0]`).
_METRIC_ARGUMENTS = [
    ("best_threshold", "metric", lambda v: im.best_threshold(Y, S, metric=v)),
    ("metric_curve", "metric", lambda v: im.metric_curve(Y, S, metric=v)),
    ("OperatingPoints.best_threshold", "metric", lambda v: im.OperatingPoints.from_scores(Y, S).best_threshold(v)),
    ("OperatingPoints.metric_curve", "metric", lambda v: im.OperatingPoints.from_scores(Y, S).metric_curve(v)),
    ("OperatingPoints.compute", "best[0]", lambda v: im.OperatingPoints.from_scores(Y, S).compute(best=[v])),
    ("Cutoff.value", "metric", lambda v: im.OperatingPoints.from_scores(Y, S).at_threshold(0.5).value(v)),
    ("level_curve", "metric", lambda v: im.level_curve(v, 0.5)),
    ("level_curve_slope", "metric", lambda v: im.spaces.level_curve_slope(v, 0.5, 0.5)),
    ("RocHull.best_mixture", "metric", lambda v: _hull().best_mixture(v)),
    ("OneVsRest.best_thresholds", "metric", lambda v: im.one_vs_rest(Y3, PROBA3).best_thresholds(v)),
    (
        "bootstrap",
        "metric",
        lambda v: im.uncertainty.bootstrap(Y, S, statistic="metric", metric=v, threshold=0.5, n_resamples=5, rng=0),
    ),
    (
        "bootstrap",
        "statistic",
        lambda v: im.uncertainty.bootstrap(Y, S, statistic=v, threshold=0.5, n_resamples=5, rng=0),
    ),
    (
        "bootstrap_compare",
        "statistics[1]",
        lambda v: im.uncertainty.bootstrap_compare(
            Y, {"a": S, "b": S[::-1]}, statistics=["auroc", v], n_resamples=5, rng=0
        ),
    ),
    ("evaluate_scores", "metrics[0]", lambda v: im.evaluate_scores(Y, {"a": S}, metrics=[v])),
    (
        "compare_scores",
        "metrics[1]",
        lambda v: im.uncertainty.compare_scores(Y, S, S[::-1], metrics=["f1", v], n_resamples=5, rng=0),
    ),
    ("metric_report", "metrics[0]", lambda v: im.metric_report(Y, P, metrics=[v])),
    ("build_report", "metrics[0]", lambda v: _report(metrics=[v])),
    ("RocDisplay.from_predictions", "metric", lambda v: _plotting().RocDisplay.from_predictions(Y, S, metric=v)),
    (
        "MetricCurveDisplay.from_predictions",
        "metric",
        lambda v: _plotting().MetricCurveDisplay.from_predictions(Y, S, metric=v),
    ),
    ("LevelCurveDisplay.from_metric", "metric", lambda v: _plotting().LevelCurveDisplay.from_metric(v)),
]


# Array (and seed) arguments of the functions outside the messages capability: each once went straight to np.asarray,
# np.random.default_rng or a Python method, so NumPy's or Python's messages reached the user. They
# now go through the shared checkers of _validation (as_array, as_1d, check_real_array,
# check_unit_interval, check_scores, check_rng). name -> (callable, valid keyword arguments, parameters).
def _op():
    return im.OperatingPoints.from_scores(Y, S)


_OUTSIDE = {
    "unachievable_precision": (im.spaces.unachievable_precision, dict(recall=[0.2, 0.5], prevalence=0.3), ["recall"]),
    "precision_at_prevalence": (
        im.spaces.precision_at_prevalence,
        dict(tpr=[0.9], fpr=[0.1], prevalence=0.3),
        ["tpr", "fpr"],
    ),
    "level_curve_slope": (
        im.spaces.level_curve_slope,
        dict(metric="f1", precision=[0.5], recall=[0.5]),
        ["precision", "recall"],
    ),
    "cost_sensitive_predict": (
        im.spaces.cost_sensitive_predict,
        dict(y_proba=[[0.9, 0.1]], cost_matrix=[[0, 1], [5, 0]], classes=["a", "b"]),
        ["y_proba", "cost_matrix", "classes"],
    ),
    "expected_cost": (
        im.spaces.expected_cost,
        dict(y_true=[0, 1], y_pred=[0, 1], cost_matrix=[[0, 1], [5, 0]], labels=[0, 1]),
        ["cost_matrix", "labels"],
    ),
    "Metric.from_precision_recall": (
        lambda **k: im.parse_metric("f1").from_precision_recall(**k),
        dict(precision=[0.5], recall=[0.5]),
        ["precision", "recall"],
    ),
    "Metric.from_counts": (
        lambda **k: im.parse_metric("youden").from_counts(**k),
        dict(tp=[1], fp=[1], fn=[1], tn=[1]),
        ["tp", "fp", "fn", "tn"],
    ),
    "RandomizedClassifier.predict": (
        lambda **k: _hull().randomized(fpr=0.3).predict(**k),
        dict(y_score=S, rng=0),
        ["y_score", "rng"],
    ),
    "RocHull.tpr_at": (lambda **k: _hull().tpr_at(**k), dict(fpr=[0.3]), ["fpr"]),
    "OperatingPoints.merge": (lambda **k: _op().merge(*k["others"]), dict(others=[_op()]), ["others"]),
    "OperatingPoints.at_threshold": (lambda **k: _op().at_threshold(**k), dict(threshold=0.5), ["threshold"]),
    "OperatingPoints.at_top_k": (lambda **k: _op().at_top_k(**k), dict(k=3, ties="raise"), ["k", "ties"]),
    "OperatingPoints.at_rate": (lambda **k: _op().at_rate(**k), dict(rate=0.5, ties="raise"), ["rate", "ties"]),
    "OperatingPoints.decision_curve": (
        lambda **k: _op().decision_curve(**k),
        dict(threshold_probability=[0.3]),
        ["threshold_probability"],
    ),
    "OperatingPoints.precision_at_recall": (
        lambda **k: _op().precision_at_recall(**k),
        dict(min_recall=0.5),
        ["min_recall"],
    ),
    "OperatingPoints.recall_at_precision": (
        lambda **k: _op().recall_at_precision(**k),
        dict(min_precision=0.5),
        ["min_precision"],
    ),
    "OperatingPoints.specificity_at_sensitivity": (
        lambda **k: _op().specificity_at_sensitivity(**k),
        dict(min_sensitivity=0.5),
        ["min_sensitivity"],
    ),
    "delong": (im.uncertainty.delong, dict(y_true=Y, y_score=S), ["y_true", "y_score"]),
    "delong_test": (
        im.uncertainty.delong_test,
        dict(y_true=Y, y_score_a=S, y_score_b=S[::-1]),
        ["y_true", "y_score_a", "y_score_b"],
    ),
    "bootstrap": (im.uncertainty.bootstrap, dict(y_true=Y, y_score=S, n_resamples=5, rng=0), ["rng"]),
    "bootstrap_areas": (
        im.uncertainty.bootstrap_areas,
        dict(y_true=Y, y_score=S, areas=("auroc",), n_resamples=5, rng=0),
        ["areas", "rng"],
    ),
    "bootstrap_curve_band": (
        im.uncertainty.bootstrap_curve_band,
        dict(y_true=Y, y_score=S, grid=[0.1, 0.5], n_resamples=5, rng=0),
        ["grid", "rng"],
    ),
    "bootstrap_compare": (
        im.uncertainty.bootstrap_compare,
        dict(y_true=Y, y_score=np.column_stack([S, S[::-1]]), n_resamples=5, rng=0),
        ["y_score", "rng"],
    ),
    "compare_scores": (
        im.uncertainty.compare_scores,
        dict(y_true=Y, y_score=S, score_b=S[::-1], names=("a", "b"), n_resamples=5, rng=0),
        ["names", "rng"],
    ),
    "evaluate_scores": (im.evaluate_scores, dict(y_true=Y, scores={"a": S}, n_resamples=5, rng=0), ["scores", "rng"]),
    "LevelCurveDisplay.from_metric": (
        lambda **k: _plotting().LevelCurveDisplay.from_metric("f1", **k),
        dict(levels=[0.5]),
        ["levels"],
    ),
}


# Every integer parameter of the package: (name in messages, parameter, call with the value).
# (The uncertainty and evaluation functions check theirs with the same check_integer.)
_INTEGERS = [
    ("level_curve", "n_points", lambda v: im.level_curve("f1", 0.5, n_points=v)),
    ("break_even_line", "n_points", lambda v: im.spaces.break_even_line(2.0, n_points=v)),
    ("iso_fbeta_baseline", "n_points", lambda v: im.spaces.iso_fbeta_baseline(0.3, n_points=v)),
    (
        "repeated_test_precision",
        "n_tests",
        lambda v: im.spaces.repeated_test_precision(0.9, 0.1, prevalence=0.1, n_tests=v),
    ),
    ("reliability_curve", "n_bins", lambda v: im.spaces.reliability_curve(Y, S, n_bins=v)),
    ("expected_calibration_error", "n_bins", lambda v: im.spaces.expected_calibration_error(Y, S, n_bins=v)),
    ("RocHull.best_mixture", "resolution", lambda v: _hull().best_mixture("f1", resolution=v)),
    (
        "OneVsRest.macro_precision_recall_curve",
        "n_points",
        lambda v: im.one_vs_rest(Y3, PROBA3).macro_precision_recall_curve(n_points=v),
    ),
    ("MetricReport.to_text", "digits", lambda v: im.metric_report(Y3, Y3[::-1]).to_text(v)),
]


# ---------------------------------------------------------------------------- folded into REGISTRY
# Variant labels that are not the public name they check.
_VARIANT_OF = {
    "best f1": "best_threshold",
    "best g": "best_threshold",
    "best cost": "best_threshold",
    "bootstrap metric": "bootstrap",
    "roc_convex_hull optima": "roc_convex_hull",
    "at_prevalence": "OperatingPoints.at_prevalence",
}

for _tag, _table in (
    ("binary", _BINARY),
    ("uncertainty", _UNCERTAINTY),
    ("weighted", _WEIGHTED),
    ("frames", _FRAMES),
    ("result", _RESULT),
):
    for _label, _f in _table.items():
        register(_VARIANT_OF.get(_label, _label), **{_tag: {_label: _f}})
for _tag, _names in (
    ("no_scores", _NO_SCORES),
    ("unweighted", _UNWEIGHTED),
    ("scale_dependent", _SCALE_DEPENDENT),
    ("via_engine", _VIA_ENGINE),
):
    for _name in _names:
        register(_name, **{_tag: True})
for _tag, _table in (("pickling", _PICKLING), ("messages", _MESSAGES), ("outside", _OUTSIDE), ("overflow", _OVERFLOW)):
    for _name, _value in _table.items():
        register(_name, **{_tag: _value})
for _tag, _rows in (("integers", _INTEGERS), ("metric_arguments", _METRIC_ARGUMENTS)):
    for _name, _param, _call in _rows:
        register(_name, **{_tag: {_param: _call}})

# errors and warnings: one generic pickling case each (a message naming the function and the parameter)
for _name, _obj in PUBLIC.items():
    if inspect.isclass(_obj) and issubclass(_obj, BaseException) and not REGISTRY.get(_name, Entry(_name)).pickling:
        register(_name, pickling=(lambda cls=_obj: cls("auroc: `y_true` has one class."), str))

# ---------------------------------------------------------------------------- issue 13, item 5: model selection
register(
    "cross_validated_threshold",
    messages=(im.cross_validated_threshold, dict(y_true=Y, y_score=S, sample_weight=W, cv=2, rng=0), BINARY),
    metric_arguments={"metric": lambda v: im.cross_validated_threshold(Y, S, metric=v, cv=2, rng=0)},
    outside=(im.cross_validated_threshold, dict(y_true=Y, y_score=S, cv=2, rng=0), ["rng"]),
)
register(
    "cross_validated_threshold",
    weighted={
        "cross_validated_threshold": lambda y, s, w: (
            lambda r: _flat(r.threshold, r.value, r.in_sample_value, r.fold_thresholds, r.fold_values)
        )(im.cross_validated_threshold(y, s, metric="f2", sample_weight=w, cv=np.arange(len(y)) % 3))
    },
)
register(
    "CrossValidatedThreshold",
    pickling=(
        lambda: im.cross_validated_threshold(PY, PS, metric="f2", sample_weight=PW, cv=3, rng=0),
        lambda r: (r.to_dict(), r._repr_html_(), repr(r)),
    ),
)
register("get_scorer", metric_arguments={"metric": lambda v: im.get_scorer(v)})
# issue 20, item 6: a decision handed over
register(
    "decide",
    binary={
        "decide threshold": lambda y, s, w, p: (lambda d: _flat(d.precision, d.recall, d.alert_rate))(
            im.decide(y, s, threshold=float(np.median(s)), sample_weight=w, pos_label=p)[0]
        ),
        "decide top k": lambda y, s, w, p: (lambda d: _flat(d.precision, d.recall, d.alert_rate))(
            im.decide(y, s, top_k=_budget(y, w), sample_weight=w, pos_label=p)[0]
        ),
    },
    messages=(im.decide, dict(y_true=Y, y_score=S, sample_weight=W, threshold=0.5), BINARY),
    metric_arguments={"metric": lambda v: im.decide(Y, S, metric=v, cv=2, rng=0)},
    outside=(im.decide, dict(y_true=Y, y_score=S, metric="f1", cv=2, rng=0), ["rng"]),
    result={"Decision": lambda y, s, w, p: im.decide(y, s, threshold=0.0, sample_weight=w, pos_label=p)[0]},
)
register(
    "Decision",
    pickling=(
        lambda: im.decide(PY, PS, metric="f2", sample_weight=PW, cv=3, rng=0)[1],
        lambda d: (d.to_dict(), d._repr_html_(), repr(d)),
    ),
)
register("holm_adjust", outside=(im.uncertainty.holm_adjust, dict(p_values=[0.01, 0.5]), ["p_values"]))


# ---------------------------------------------------------------------------- elicitation (issue 11)
def _elicited():
    session = im.elicitation.Elicitation(local_budget=2, pairwise_budget=2)
    return session.run(im.elicitation.SimulatedStakeholder(2.0, -2.0))


_TANGENCY = dict(points=[(0.5, 0.5), (0.8, 0.4)], slopes=[-8.0, -1.0])
register(
    "Elicitation",
    pickling=(
        lambda: im.elicitation.Elicitation(local_budget=1, pairwise_budget=2),
        lambda s: (s.next_question(), s.result().beta),
    ),
    messages=(
        im.elicitation.Elicitation,
        dict(precision=[0.5, 0.8], recall=[0.9, 0.4]),
        {"precision": "array", "recall": "array", "tolerance": "number"},
    ),
    integers={
        "pairwise_budget": lambda v: im.elicitation.Elicitation(pairwise_budget=v).settings["pairwise_budget"],
        "local_budget": lambda v: im.elicitation.Elicitation(local_budget=v).settings["local_budget"],
    },
)
register("ElicitationResult", pickling=(_elicited, lambda r: (r.metric, r.decision, r.to_dict()["beta"])))
register("LocalQuestion", pickling=(lambda: im.elicitation.LocalQuestion(0.9, 0.36), lambda q: q.meaning("recall")))
register(
    "PairwiseQuestion", pickling=(lambda: im.elicitation.PairwiseQuestion((0.9, 0.3), (0.4, 0.8)), lambda q: q.text)
)
register("Transcript", pickling=(lambda: _elicited().transcript, lambda t: t.to_json()))
register(
    "SimulatedStakeholder",
    pickling=(
        lambda: im.elicitation.SimulatedStakeholder(2.0, -3.0),
        lambda s: s(im.elicitation.LocalQuestion(0.5, 0.9)),
    ),
    messages=(im.elicitation.SimulatedStakeholder, dict(beta=2.0, rho=-3.0), {"beta": "number", "rho": "number"}),
)
EXEMPT["replay"] = (
    "reads a transcript (object, dict or path), not arrays or numbers; its bad-input errors "
    "(shape, version, answers, settings) are tested in tests/elicitation/test_transcript.py"
)
EXEMPT["load_transcript"] = "reads a JSON file; its errors naming the field are tested in test_transcript.py"
register(
    "tangency_estimate", messages=(im.elicitation.tangency_estimate, _TANGENCY, {"points": "array", "slopes": "array"})
)
register("TangencyResult", pickling=(lambda: im.elicitation.tangency_estimate(**_TANGENCY), lambda r: (r.beta, r.rho)))
register(
    "elicit_linear_metric",
    messages=(
        lambda epsilon: im.elicitation.elicit_linear_metric(
            im.elicitation.LinearStakeholder(0.5), im.elicitation.synthetic_boundary(5.0), epsilon=epsilon
        ),
        dict(epsilon=0.1),
        {"epsilon": "number"},
    ),
)
register(
    "LinearMetricResult",
    pickling=(
        lambda: im.elicitation.elicit_linear_metric(
            im.elicitation.LinearStakeholder(0.5), im.elicitation.synthetic_boundary(5.0)
        ),
        lambda r: (r.theta, r.metric),
    ),
)

# ---------------------------------------------------------------------------- item response theory (issue 12)
_IRT = np.random.default_rng(12).uniform(0.05, 0.95, (6, 9))
_IRT_ITEMS = [f"score_{j}" for j in range(9)]  # as the frames of test_common name the columns


def _irt_fit(y=None, s=None, w=None, p=None):
    return im.irt.fit_beta3(_IRT, respondents=[f"{HOSTILE_NAME} {i}" for i in range(6)])


register(
    "fit_beta3",
    messages=(
        im.irt.fit_beta3,
        dict(responses=_IRT, eps=1e-3, max_iter=50, items=_IRT_ITEMS),
        {"responses": "array", "eps": "number", "max_iter": "count"},
    ),
    outside=(im.irt.fit_beta3, dict(responses=_IRT, items=_IRT_ITEMS), ["random_state"]),
)
register(
    "Beta3IRT", pickling=(_irt_fit, lambda r: (r.to_dict(), repr(r), r._repr_html_())), result={"Beta3IRT": _irt_fit}
)


def _irt_test(y=None, s=None, w=None, p=None):
    bank = _irt_fit()
    return im.irt.adaptive_test(bank, {i: 0.6 for i in bank.items}, max_items=4)


register(
    "adaptive_test",
    messages=(
        lambda **k: im.irt.adaptive_test(_irt_fit(), lambda item: 0.6, **k),
        dict(max_items=3, se_target=0.1, start_ability=0.5),
        {"max_items": "count", "se_target": "number", "start_ability": "number"},
    ),
    outside=(
        lambda **k: im.irt.adaptive_test(_irt_fit(), lambda item: 0.6, max_items=2, **k),
        dict(selection="random"),
        ["rng"],
    ),
)
register("AdaptiveTest", pickling=(_irt_test, lambda r: (r.to_dict(), repr(r))), result={"AdaptiveTest": _irt_test})


# ---------------------------------------------------------------------------- streaming (issue 14, section 3)
def _streamed(y, s, w, p, bins=1000):
    """An accumulator fed two halves, one of them through a second accumulator merged in (uniform bins:
    data-adapted bins of two accumulators differ once both are binned)."""
    if bins < 1000:
        return im.scale.BinnedCountTable(bins, strategy="uniform", score_range=(-3.0, 4.0), pos_label=p).update(y, s, w)
    half = len(y) // 2
    first = im.scale.BinnedCountTable(bins, pos_label=p).update(y[:half], s[:half], None if w is None else w[:half])
    second = im.scale.BinnedCountTable(bins, pos_label=p).update(y[half:], s[half:], None if w is None else w[half:])
    return first.merge(second)


def _streamed_areas(y, s, w, p):
    # the estimates: exact (the engine's values) while the scores fit the bins, as in these checks
    r = _streamed(y, s, w, p).compute()
    return _flat(r.auroc.estimate, r.average_precision.estimate, r.auprg.estimate, r.best_threshold("f1").value)


register(
    "BinnedCountTable",
    binary={"BinnedCountTable": _streamed_areas},
    result={"BinnedCountTable": lambda y, s, w, p: _streamed(y, s, w, p, bins=50)},
    pickling=(
        lambda: im.scale.BinnedCountTable(8).update(PY, PS, PW),
        lambda a: (a.compute().to_dict(), a.edges, repr(a), a._repr_html_()),
    ),
)
# bins takes an int or an array of edges, so it is not in the integer checks: tests/scale/test_streaming.py
register(
    "BinnedCountTable.update",
    messages=(
        lambda **k: (lambda r: [r.auroc.estimate, r.average_precision.estimate, r.auprg.estimate])(
            im.scale.BinnedCountTable().update(**k).compute()
        ),
        dict(y_true=Y, y_score=S, sample_weight=W),
        BINARY,
    ),
)
register(
    "BinnedEvaluation",
    result={"BinnedEvaluation": lambda y, s, w, p: _streamed(y, s, w, p, bins=50).compute()},
    pickling=(
        lambda: im.scale.BinnedCountTable(8).update(PY, PS, PW).compute(),
        lambda r: (r.to_dict(), r.best_threshold("f2").value, repr(r)),
    ),
)
register(
    "AreaBounds",
    result={"AreaBounds": lambda y, s, w, p: _streamed(y, s, w, p, bins=50).compute().average_precision},
    pickling=(
        lambda: im.scale.BinnedCountTable(8).update(PY, PS, PW).compute().auprg,
        lambda b: (b.to_dict(), b.width, b.contains(0.5)),
    ),
)


# ---------------------------------------------------------------------------- out of core (issue 14, section 2)
def _out_of_core(y, s, w, p):
    """The out-of-core evaluation of a Parquet file written from the arrays (a hostile column name included)."""
    import tempfile

    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    pytest.importorskip("duckdb")
    columns = {"y": np.asarray(y), HOSTILE_NAME: np.asarray(s, dtype=float), "other": -np.asarray(s, dtype=float)}
    if w is not None:
        columns["w"] = np.asarray(w, dtype=float)
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/scores.parquet"
        pq.write_table(pa.table(columns), path)
        return im.scale.evaluate_out_of_core(
            path,
            label="y",
            scores=[HOSTILE_NAME, "other"],
            pos_label=p,
            sample_weight=None if w is None else "w",
            metrics=["f1", "youden"],
        )


# evaluate_out_of_core reads files by path and column names, not arrays: its bad inputs (files, globs,
# formats, columns, and bad values named by file and row) are tested in tests/scale/test_out_of_core.py.
register(
    "OutOfCoreEvaluation",
    result={"OutOfCoreEvaluation": _out_of_core},
    pickling=(lambda: _out_of_core(PY, PS, PW, None), lambda r: [(e.auroc, e.auprg) for e in r]),
)
register(
    "OutOfCoreResult",
    result={"OutOfCoreResult": lambda y, s, w, p: _out_of_core(y, s, w, p)[0]},
    pickling=(lambda: _out_of_core(PY, PS, PW, None)[0], lambda r: (r.auroc, r.best[0].threshold)),
)
# Weights given as a column of the file: scaling them changes no area and no best threshold.
register(
    "evaluate_out_of_core",
    weighted={
        "evaluate_out_of_core": lambda y, s, w: _flat(
            *[
                (
                    e.auroc,
                    e.average_precision,
                    e.auprg,
                    e.auc_pr_interpolated,
                    *(b.value for b in e.best),
                    *(b.threshold for b in e.best),
                )
                for e in _out_of_core(y, s, w, None)
            ]
        )
    },
)
