"""The decision a report opens with: which model to deploy under the chosen metric, at which
threshold, and what it does to every 1,000 cases, in sample and cross-fitted.

:func:`recommend` picks the model best under the metric (the report's policy), states its
rule through :func:`decide` (one :class:`~isometrics.model_selection.decisions.Decision` for
the in-sample estimate, with bootstrap intervals at the chosen threshold when resamples are
asked for, and one for the cross-fitted estimate), and reads the paired comparison of the
metric, when given, through :meth:`ComparisonRow.sentence` only. :class:`Recommendation`
holds the result; its ``to_dict`` is what the report's summary and the JSON both render.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .._core.caller import current_caller
from .._core.constraints import ARRAY, InBody, validate_params
from .._core.validation import check_rng
from .._typing import WEIGHT_KINDS, ArrayLike
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric
from ..uncertainty._inputs import RESAMPLING, WEIGHT_KIND
from ..uncertainty.formatting import interval_note
from ..uncertainty.model_comparison import ComparisonRow, ModelComparison
from .decisions import Decision, _paired_intervals, decide

__all__ = ["Recommendation", "recommend"]


@dataclass(frozen=True, repr=False)
class Recommendation:
    """The model and rule recommended under one metric, with what it does and how sure we are.

    Attributes
    ----------
    metric : Metric
        The metric the choice is made under.
    model : str
        The recommended model: the best value of ``metric`` at its best threshold (ties:
        the first given).
    values : dict of str to float
        Each model's value of ``metric`` at its own best threshold, on these data.
    in_sample : Decision
        Flagging at the recommended model's best threshold, counted on the data it was
        chosen on (``optimistic=True``); its ``intervals`` are percentile bootstrap
        intervals at that fixed threshold (empty without resamples).
    cross_fitted : Decision or None
        The same rule, the threshold chosen on k - 1 folds and counted on the held-out
        fold (pooled); None when the data are too small to split.
    comparisons : tuple of ComparisonRow
        The paired comparison of ``metric`` between the recommended model and each other
        model (empty when no comparison was given or it does not hold the metric).
    tested : bool
        Whether a paired comparison of ``metric`` was given.
    shared_replicates : bool
        Whether ``in_sample``'s intervals were read on the comparison's paired replicates (the
        rows every comparison and model interval was computed on) rather than drawn anew.
    """

    metric: Metric
    model: str
    values: dict[str, float]
    in_sample: Decision
    cross_fitted: Decision | None
    comparisons: tuple[ComparisonRow, ...] = ()
    tested: bool = False
    shared_replicates: bool = False

    @property
    def threshold(self) -> float:
        """The threshold to deploy: flag a case when the model's score is >= it."""
        return self.in_sample.threshold

    def choice(self) -> str:
        """Why this model, in one plain sentence (the point estimates).

        Returns
        -------
        str
            Plain text.
        """
        label = self.metric.label
        if len(self.values) == 1:
            return (
                f"{self.model} is the only model evaluated; its best {label} on these data is "
                f"{self.values[self.model]:.4f}."
            )
        most = "highest" if self.metric.greater_is_better else "lowest"
        others = ", ".join(f"{n} {v:.4f}" for n, v in self.values.items() if n != self.model)
        return (
            f"{self.model} has the {most} {label} at its best threshold on these data "
            f"({self.values[self.model]:.4f}; {others})."
        )

    def verdicts(self) -> list[str]:
        """What the paired comparison says of the choice: each row's own sentence, and its consequence.

        Returns
        -------
        list of str
            Plain text. The test's verdicts are :meth:`ComparisonRow.sentence` as they are.
        """
        others = [n for n in self.values if n != self.model]
        if not others:
            return []
        if not self.tested:
            return [
                f"Not tested: no paired comparison of {self.metric.label} was made, so the point estimates alone "
                f"put {self.model} first; they do not show it better than {', '.join(others)}."
            ]
        out = [row.sentence() for row in self.comparisons]
        level = [r for r in self.comparisons if r.winner != self.model]
        if level:
            names = [r.b if r.a == self.model else r.a for r in level]
            out.append(
                f"So the data do not single out {self.model} under {self.metric.label}: "
                f"{', '.join(names)} {'does' if len(names) == 1 else 'do'} as well within the noise; choose "
                "between them on other grounds (cost of running, simplicity, how errors fall on people)."
            )
        return out

    def caveat(self) -> str:
        """The difference between the two estimates, in plain words.

        Returns
        -------
        str
            Plain text.
        """
        first = (
            f"The threshold {self.threshold:.6g} is the best for {self.metric.label} on these same rows, so the "
            "in-sample counts flatter it: it was fitted to their noise."
        )
        if self.cross_fitted is None:
            return first + (
                " There are too few positives or negatives to split the rows into folds, so there is "
                "no honest estimate: check the threshold on new data before relying on it."
            )
        k = self.cross_fitted.n_splits or 0
        return first + (
            f" The cross-fitted counts choose the threshold on {k - 1} of {k} parts of the rows and count "
            "the part left out, each part in turn: that is how the rule fares on cases it has not seen, "
            "so expect those. Neither estimate corrects for the model having been trained on these "
            "rows: score held-out rows for that."
        )

    def intervals_note(self) -> str:
        """What the brackets are, or that there are none.

        Returns
        -------
        str
            Plain text.
        """
        if not self.in_sample.intervals:
            return (
                "No intervals: no bootstrap resamples were drawn (isometrics report --ci, or recommend(..., "
                "n_resamples=1000), draws them)."
            )
        r = next(iter(self.in_sample.intervals.values()))
        shared = ": those of the paired comparisons" if self.shared_replicates else ""
        return interval_note(
            r,
            extra=shared,
            after=" at this fixed threshold: how much the counts would move on another sample of cases, "
            "not the optimism of choosing the threshold.",
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of everything the report's summary shows (numbers and sentences).

        Returns
        -------
        dict
            ``metric`` (spec), ``metric_label``, ``greater_is_better``, ``model``,
            ``threshold``, ``values``, ``in_sample`` and ``cross_fitted``
            (:meth:`Decision.to_dict`, or None), ``comparisons``
            (:meth:`ComparisonRow.to_dict` each), ``tested``, ``shared_replicates``, ``choice``,
            ``verdicts``, ``caveat`` and ``intervals_note``.
        """
        return {
            "metric": self.metric.spec,
            "metric_label": self.metric.label,
            "greater_is_better": self.metric.greater_is_better,
            "model": self.model,
            "threshold": self.in_sample.to_dict()["threshold"],
            "values": {n: (None if math.isnan(v) else v) for n, v in self.values.items()},
            "in_sample": self.in_sample.to_dict(),
            "cross_fitted": None if self.cross_fitted is None else self.cross_fitted.to_dict(),
            "comparisons": [r.to_dict() for r in self.comparisons],
            "tested": self.tested,
            "shared_replicates": self.shared_replicates,
            "choice": self.choice(),
            "verdicts": self.verdicts(),
            "caveat": self.caveat(),
            "intervals_note": self.intervals_note(),
        }

    def __repr__(self) -> str:
        return (
            f"Recommendation(metric={self.metric.spec!r}, model={self.model!r}, "
            f"threshold={self.threshold:.6g}, tested={self.tested})"
        )


@validate_params(
    {p: RESAMPLING[p] for p in ("sample_weight", "pos_label", "confidence_level", "rng")}
    | {
        "y_true": ARRAY,
        "scores": InBody("a non-empty mapping of model name to score column", invalid=[[0.1, 0.9]]),
        "metric": InBody("a metric name or a Metric", invalid=["no-such-metric"]),
        "comparison": [InBody("a ModelComparison", invalid=[12345]), None],
        "cv": InBody("a number of folds, a scikit-learn splitter, fold ids or None"),
        "n_resamples": [RESAMPLING["n_resamples"], None],
        "weight_kind": WEIGHT_KIND,
    }
)
def recommend(
    y_true: ArrayLike,
    scores: Mapping[str, ArrayLike],
    *,
    metric: str | Metric,
    comparison: ModelComparison | None = None,
    cv: Any = 5,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
) -> Recommendation:
    """Recommend a model and a threshold under one metric, and say what the rule does.

    The model is the one whose best threshold gives the best value of ``metric`` on these
    data (the first given, on a tie). Its rule, "flag at that threshold", is described by
    :func:`decide`: in sample (optimistic) with percentile bootstrap intervals at the
    fixed threshold when ``n_resamples`` is given, and cross-fitted over ``cv`` folds.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    scores : mapping of str to array-like of shape (n_samples,)
        Each model's scores on the same rows (higher: more likely positive).
    metric : str or Metric
        The metric the choice is made under; see :func:`isometrics.parse_metric`.
    comparison : ModelComparison, default=None
        A paired comparison of the models (:func:`isometrics.uncertainty.compare_scores`); its rows of
        ``metric`` between the recommended model and the others are read as they are.
    cv : int, array-like, splitter or None, default=5
        The folds of the cross-fitted estimate, as in :func:`decide`; None: none.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    weight_kind : {"sampling", "frequency"}, default=None
        What the weights mean to the bootstrap, as in :func:`decide`.
    pos_label : int, float, bool or str, default=None
        The positive class, as in :func:`decide`.
    n_resamples : int, default=None
        Bootstrap replicates (>= 2) of the intervals at the chosen threshold; None: none. When
        ``comparison`` holds ``metric`` and drew this many replicates at ``confidence_level``
        (and the same ``weight_kind``), the intervals are read on its paired replicates, the
        rows its comparisons were computed on, instead of replicates of their own
        (``shared_replicates``); ``rng`` then draws the folds only.
    confidence_level : float, default=0.95
        In (0, 1).
    rng : numpy.random.Generator or int, default=None
        Randomness of the folds and of the bootstrap (SPEC 7).

    Returns
    -------
    Recommendation
        The model, its two estimates and the comparison's verdicts.

    Raises
    ------
    InvalidParameterError
        If ``scores`` is not a non-empty mapping, or ``comparison`` is not a
        ModelComparison; and as :func:`decide` for the other arguments.
    ValueError
        If the comparison's difference of ``metric`` disagrees with these data, and as
        :func:`decide`.

    See Also
    --------
    decide, compare_scores

    Examples
    --------
    >>> from isometrics.model_selection import recommend
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1, 0, 0]
    >>> r = recommend(y, {"a": [.1, .2, .9, .6, .3, .8, .7, .4, .2, .1],
    ...                   "b": [.5, .2, .6, .4, .3, .7, .1, .8, .9, .2]}, metric="f1", cv=None)
    >>> r.model, r.threshold, r.in_sample.per_1000["tp"]
    ('a', 0.4, 400.0)
    """
    if not isinstance(scores, Mapping) or not scores:
        raise InvalidParameterError(
            f"{current_caller()}: `scores` must be a non-empty mapping of model name to score "
            f"column; got {type(scores).__name__}{' (empty)' if isinstance(scores, Mapping) else ''}."
        )
    if comparison is not None and not isinstance(comparison, ModelComparison):
        raise InvalidParameterError(
            f"{current_caller()}: `comparison` must be a ModelComparison (compare_scores); got {type(comparison).__name__}."
        )
    m = parse_metric_argument(metric)
    gen = check_rng(rng)
    common = dict(sample_weight=sample_weight, pos_label=pos_label)
    firsts = {name: decide(y_true, s, metric=m, cv=None, **common)[0] for name, s in scores.items()}
    values = {name: d.values[m.spec] for name, d in firsts.items()}
    sign = 1.0 if m.greater_is_better else -1.0
    model = max(values, key=lambda n: sign * values[n] if values[n] == values[n] else -math.inf)
    in_sample = firsts[model]
    # the folds first, from the caller's seed: the same cross-fitted decision as decide(..., rng=seed)
    # gives (the CLI's decision table), with or without the intervals drawn after it
    cross = None if cv is None else decide(y_true, scores[model], metric=m, cv=cv, rng=gen, **common)[1]
    rows: list[ComparisonRow] = []
    tested = comparison is not None and m.spec in comparison.statistics
    if tested:
        assert comparison is not None
        for other in (n for n in values if n != model):
            row = next((r for r in comparison.rows if r.statistic == m.spec and {r.a, r.b} == {model, other}), None)
            if row is None:
                raise InvalidParameterError(
                    f"{current_caller()}: `comparison` has no row of {m.spec} for {model!r} and "
                    f"{other!r}; compare every pair (compare_scores without baseline)."
                )
            expected = values[row.a] - values[row.b]
            if not math.isclose(row.estimate, expected, rel_tol=1e-9, abs_tol=1e-12):
                raise IsometricsError(
                    f"{current_caller()}: `comparison` gives the {m.spec} difference of {row.a!r} and "
                    f"{row.b!r} as {row.estimate!r}, these data {expected!r}; compare the same "
                    "labels, scores and weights."
                )
            rows.append(row)
    # intervals at the fixed, chosen threshold: on the comparison's paired replicates when it is of these data
    # (checked above) and drew as many, at the same level and weights; else on replicates of their own
    paired = (
        n_resamples is not None
        and tested
        and comparison is not None
        and comparison.replicate_state is not None
        and n_resamples == comparison.n_resamples
        and confidence_level == comparison.confidence_level
        and (sample_weight is None or weight_kind == comparison.weight_kind)
    )
    if paired:
        assert comparison is not None
        in_sample = replace(
            in_sample,
            intervals=_paired_intervals(y_true, scores[model], in_sample.threshold, m, comparison, **common),
        )
    elif n_resamples is not None:
        (fixed,) = decide(
            y_true,
            scores[model],
            threshold=in_sample.threshold,
            metrics=[m],
            weight_kind=weight_kind,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            rng=gen,
            **common,
        )
        in_sample = replace(in_sample, intervals=fixed.intervals)
    return Recommendation(m, model, values, in_sample, cross, tuple(rows), tested, paired)
