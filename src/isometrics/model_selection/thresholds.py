"""Thresholds chosen out of sample: each fold is predicted with a threshold chosen on the other folds.

A threshold chosen on the data it is then reported on is optimistic: it is fitted to
those rows' noise. :func:`cross_validated_threshold` chooses the threshold of each fold
on the training part only (the other folds' out-of-fold scores), applies it to the held
-out fold, and reports the metric of the pooled held-out predictions beside the
in-sample optimum. :meth:`CrossValidatedThreshold.from_estimator` does the same from an
estimator and a scikit-learn splitter (nested: the training part's scores are themselves
out of fold).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, ZERO_DIVISION, InBody, RandomState, user_stacklevel, validate_params
from .._core.docstrings import fill_doc
from .._core.html import html_table
from .._core.optional import needs
from .._core.validation import (
    as_1d,
    as_sample_weight,
    check_binary_target,
    check_consistent_length,
    check_integer,
    check_rng,
    check_sample_weight,
    check_scores,
    check_zero_division,
)
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError, UndefinedMetricWarning
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints

__all__ = ["CrossValidatedThreshold", "cross_validated_threshold"]


def _require_sklearn(what: str) -> Any:
    with needs(what):
        import sklearn
    return sklearn


@dataclass(frozen=True, repr=False)
class CrossValidatedThreshold:
    """A threshold chosen out of sample, with its out-of-fold value and the in-sample optimum.

    Attributes
    ----------
    metric : Metric
        The metric optimised (maximised; minimised for a cost).
    threshold : float
        The threshold to deploy: the best on all the scores given (predict positive
        iff ``y_score >= threshold``; ``inf`` predicts nothing positive).
    in_sample_value : float
        The metric at ``threshold`` on those same scores: optimistic, since the
        threshold was chosen on them.
    value : float
        The out-of-fold value: every held-out fold predicted with the threshold chosen
        on its training part, the confusion counts pooled over the folds, the metric of
        the pooled counts. An estimate of what ``threshold`` gives on new data.
    fold_thresholds : ndarray of shape (n_splits,), float64
        The threshold chosen on each split's training part.
    fold_values : ndarray of shape (n_splits,), float64
        The metric on each held-out fold at its threshold.
    counts : tuple of float
        The pooled held-out ``(tp, fp, fn, tn)`` (weighted).
    pos_label : int, float, bool or str
        The positive class.
    response_method : str
        What the scores are: ``"scores"`` when they were given, else the estimator's
        method (``"predict_proba"`` or ``"decision_function"``).
    """

    metric: Metric
    threshold: float
    in_sample_value: float
    value: float
    fold_thresholds: FloatArray
    fold_values: FloatArray
    counts: tuple[float, float, float, float]
    pos_label: Any
    response_method: str = "scores"

    @property
    def n_splits(self) -> int:
        """Number of train/test splits."""
        return len(self.fold_thresholds)

    @property
    def threshold_spread(self) -> float:
        """Standard deviation (ddof=1) of the per-fold thresholds; 0.0 for one split.

        Thresholds of ``inf`` (nothing predicted positive) are left out; NaN when
        fewer than two are finite.
        """
        finite = self.fold_thresholds[np.isfinite(self.fold_thresholds)]
        if self.n_splits == 1:
            return 0.0
        return float(np.std(finite, ddof=1)) if len(finite) >= 2 else float("nan")

    @property
    def optimism(self) -> float:
        """How much better the in-sample value looks than the out-of-fold one (positive: optimistic).

        ``in_sample_value - value``, or ``value - in_sample_value`` for a cost.
        """
        diff = self.in_sample_value - self.value
        return float(diff if self.metric.greater_is_better else -diff)

    def __repr__(self) -> str:
        low, high = np.min(self.fold_thresholds), np.max(self.fold_thresholds)
        return (
            f"CrossValidatedThreshold(metric={self.metric.spec!r}, threshold={self.threshold:.6g}, "
            f"value={self.value:.4f} (out of fold), in_sample_value={self.in_sample_value:.4f}, "
            f"n_splits={self.n_splits}, fold thresholds {low:.4g} to {high:.4g})"
        )

    def _repr_html_(self) -> str:
        rows = [
            ("metric", self.metric.label),
            ("threshold (chosen on all the data)", self.threshold),
            (f"{self.metric.label} out of fold", self.value),
            (f"{self.metric.label} in sample (optimistic)", self.in_sample_value),
            ("splits", self.n_splits),
            ("fold thresholds: spread (sd)", self.threshold_spread),
            ("fold thresholds: min", float(np.min(self.fold_thresholds))),
            ("fold thresholds: max", float(np.max(self.fold_thresholds))),
        ]
        return html_table(("", "value"), rows, caption="isometrics cross-validated threshold")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (an infinite threshold becomes the string ``"inf"``)."""

        def clean(v: float) -> Any:
            return "inf" if np.isinf(v) else float(v)

        pos = self.pos_label.item() if isinstance(self.pos_label, np.generic) else self.pos_label
        return {
            "metric": self.metric.spec,
            "label": self.metric.label,
            "threshold": clean(self.threshold),
            "value": self.value,
            "in_sample_value": self.in_sample_value,
            "optimism": self.optimism,
            "n_splits": self.n_splits,
            "fold_thresholds": [clean(t) for t in self.fold_thresholds],
            "fold_values": [float(v) for v in self.fold_values],
            "threshold_spread": self.threshold_spread,
            "counts": dict(zip(("tp", "fp", "fn", "tn"), map(float, self.counts))),
            "pos_label": pos,
            "response_method": self.response_method,
        }

    def to_classifier(self, estimator: Any) -> Any:
        """``estimator`` wrapped in scikit-learn's ``FixedThresholdClassifier`` at :attr:`threshold`.

        Parameters
        ----------
        estimator : scikit-learn classifier
            The classifier whose scores the threshold was chosen on (fitted or not:
            ``FixedThresholdClassifier`` fits a clone when it is fitted).

        Returns
        -------
        sklearn.model_selection.FixedThresholdClassifier
            Predicts ``pos_label`` iff the estimator's score (``response_method``)
            is ``>= threshold``, as this object's threshold means.

        Raises
        ------
        ImportError
            If scikit-learn is missing.
        ValueError
            If the threshold was chosen on scores given directly (``response_method``
            is ``"scores"``) and is infinite.
        """
        _require_sklearn("CrossValidatedThreshold.to_classifier")
        from sklearn.model_selection import FixedThresholdClassifier

        if np.isinf(self.threshold):
            raise IsometricsError(
                "CrossValidatedThreshold.to_classifier: the chosen threshold is inf (nothing is "
                "predicted positive); choose another metric."
            )
        method = "auto" if self.response_method == "scores" else self.response_method
        return FixedThresholdClassifier(
            estimator, threshold=float(self.threshold), pos_label=self.pos_label, response_method=method
        )

    @classmethod
    @validate_params(
        {
            "estimator": InBody("a scikit-learn classifier"),
            "X": ARRAY,
            "y": ARRAY,
            "metric": InBody("a metric name or a Metric"),
            "cv": InBody("a number of folds or a scikit-learn splitter"),
            "inner_cv": InBody("a number of folds or a scikit-learn splitter"),
            "response_method": InBody("'auto', 'predict_proba' or 'decision_function'"),
            "pos_label": InBody("a label of y, or None"),
            "zero_division": ZERO_DIVISION,
        },
        name="CrossValidatedThreshold.from_estimator",
    )
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: ArrayLike,
        *,
        metric: str | Metric = "f1",
        cv: Any = 5,
        inner_cv: Any = 5,
        response_method: str = "auto",
        pos_label: Any = None,
        zero_division: Any = "warn",
    ) -> CrossValidatedThreshold:
        """Cross-validated threshold of a scikit-learn classifier (nested cross-validation).

        For each outer split: out-of-fold scores of the training part (``inner_cv``)
        choose the threshold; the estimator is fitted on the whole training part and
        its held-out scores are predicted with that threshold. The threshold to deploy
        is chosen on out-of-fold scores of all the data (``cv``).

        Parameters
        ----------
        estimator : scikit-learn classifier
            Not fitted (clones are fitted).
        X : array-like of shape (n_samples, n_features)
            Features.
        y : array-like of shape (n_samples,)
            Binary labels.
        metric : str or Metric, default="f1"
            What the threshold optimises; see :func:`isometrics.parse_metric`.
        cv : int or scikit-learn splitter, default=5
            The outer splits (an int: stratified k-fold, as scikit-learn's ``cv``).
        inner_cv : int or scikit-learn splitter, default=5
            The splits of each training part that give its out-of-fold scores.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            The score; ``"auto"`` tries ``predict_proba`` then ``decision_function``.
        pos_label : int, float, bool or str, default=None
            The positive class; ``None``: the estimator's ``classes_[1]`` (the greater
            label), as scikit-learn's scorers do.
        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            The value of a metric that is undefined on the held-out counts (e.g.
            precision with no predicted positive); ``"warn"`` gives 0.0 and warns.

        Returns
        -------
        CrossValidatedThreshold
            With ``response_method`` set to the method used.

        Raises
        ------
        ImportError
            If scikit-learn is missing.
        ValueError
            If ``y`` is not binary, ``response_method`` is unknown, the estimator has
            none of the methods, or as :func:`cross_validated_threshold`.
        """
        _require_sklearn(current_caller())
        from sklearn.base import clone
        from sklearn.model_selection import check_cv, cross_val_predict

        methods = {
            "auto": ("predict_proba", "decision_function"),
            "predict_proba": ("predict_proba",),
            "decision_function": ("decision_function",),
        }
        if response_method not in methods:
            raise InvalidParameterError(
                f"{current_caller()}: `response_method` must be one of {', '.join(map(repr, methods))}; got {response_method!r}."
            )
        labels = np.unique(np.asarray(y))
        if len(labels) != 2:
            raise IsometricsError(
                f"{current_caller()}: y must have two classes; got {len(labels)} ({labels.tolist()})."
            )
        pos = labels[-1].item() if pos_label is None else pos_label
        if pos not in labels.tolist():
            raise IsometricsError(
                f"{current_caller()}: pos_label={pos!r} is not a label of y (labels: {labels.tolist()})."
            )
        method = next((m for m in methods[response_method] if hasattr(estimator, m)), None)
        if method is None:
            raise IsometricsError(
                f"{current_caller()}: the estimator has no {' or '.join(methods[response_method])}; "
                "pass a classifier that scores its predictions."
            )
        y_arr = np.asarray(y)

        def score(values: np.ndarray, classes: np.ndarray) -> np.ndarray:
            # as scikit-learn's FixedThresholdClassifier reads them: higher means pos_label
            if values.ndim == 2:
                return values[:, int(np.flatnonzero(classes == pos)[0])]
            return values if pos == classes[1] else -values

        def out_of_fold(rows: np.ndarray, splits: Any) -> np.ndarray:
            values = cross_val_predict(clone(estimator), _rows(X, rows), y_arr[rows], cv=splits, method=method)
            return score(np.asarray(values), labels)

        outer = check_cv(cv, y_arr, classifier=True)
        fold_ids = np.full(len(y_arr), -1)
        held_out = np.empty(len(y_arr))
        chosen = []
        for k, (train, test) in enumerate(outer.split(_rows(X, np.arange(len(y_arr))), y_arr)):
            inner = check_cv(inner_cv, y_arr[train], classifier=True)
            chosen.append(
                _best(y_arr[train], out_of_fold(train, inner), None, pos, metric, f"training part of split {k}")
            )
            fitted = clone(estimator).fit(_rows(X, train), y_arr[train])
            held_out[test] = score(np.asarray(getattr(fitted, method)(_rows(X, test))), fitted.classes_)
            fold_ids[test] = k
        if (fold_ids < 0).any():
            raise IsometricsError(
                f"{current_caller()}: the splits of `cv` leave {int((fold_ids < 0).sum())} samples out of "
                "every test part; use a splitter whose test parts cover every sample (k-fold)."
            )
        deploy = out_of_fold(np.arange(len(y_arr)), outer)
        result = _cross_validated(
            y_arr, deploy, None, pos, metric, _given_splits(fold_ids, chosen, held_out), zero_division
        )
        return dataclasses.replace(result, response_method=method)


def _rows(X: Any, rows: np.ndarray) -> Any:
    """Rows of a feature matrix, a data frame (by position) or a list."""
    if hasattr(X, "iloc"):
        return X.iloc[rows]
    if hasattr(X, "shape") and hasattr(X, "__getitem__") and not isinstance(X, list):
        try:
            return X[rows]
        except (TypeError, KeyError, IndexError):
            pass
    return np.asarray(X)[rows]


def _given_splits(
    fold_ids: np.ndarray, thresholds: list[float], held_out: np.ndarray
) -> list[tuple[np.ndarray, np.ndarray, float, np.ndarray]]:
    """Splits whose thresholds were already chosen: (train, test, threshold, held-out scores)."""
    return [
        (np.flatnonzero(fold_ids != k), np.flatnonzero(fold_ids == k), t, held_out[fold_ids == k])
        for k, t in enumerate(thresholds)
    ]


def _best(y: np.ndarray, s: np.ndarray, w: FloatArray | None, pos: Any, metric: str | Metric, where: str) -> float:
    op = _operating_points(np.asarray(y == pos), np.asarray(s, dtype=np.float64), w, pos, where)
    return float(op.best_threshold(metric).threshold)


def _operating_points(is_pos: np.ndarray, s: FloatArray, w: FloatArray | None, pos: Any, where: str) -> OperatingPoints:
    weights = np.ones(len(is_pos)) if w is None else w
    if not (weights[is_pos] > 0).any() or not (weights[~is_pos] > 0).any():
        raise IsometricsError(
            f"{current_caller()}: the {where} has one class (pos_label={pos!r}); a threshold needs both. "
            "Use fewer folds or stratified ones."
        )
    return OperatingPoints.from_validated(is_pos, np.asarray(s, dtype=np.float64), w, pos)


def _splits(cv: Any, y: np.ndarray, is_pos: np.ndarray, rng: Any) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(train, test) index pairs from an int (stratified folds), fold ids, or a splitter with ``split``."""
    n = len(y)
    if hasattr(cv, "split"):
        yield from ((np.asarray(tr), np.asarray(te)) for tr, te in cv.split(np.zeros((n, 1)), y))
        return
    if isinstance(cv, (int, np.integer)) and not isinstance(cv, (bool, np.bool_)):
        k = check_integer(cv, "cv", low=2)
        smallest = min(int(is_pos.sum()), int((~is_pos).sum()))
        if k > smallest:
            raise IsometricsError(
                f"{current_caller()}: `cv`={k} folds, but the smaller class has {smallest} samples; use at most {smallest} folds."
            )
        gen = check_rng(rng)
        ids = np.empty(n, dtype=np.int64)
        for members in (np.flatnonzero(is_pos), np.flatnonzero(~is_pos)):  # stratified: each class dealt out
            order = gen.permutation(members)
            ids[order] = (np.arange(len(order)) + gen.integers(k)) % k
    else:
        ids = as_1d(cv, name="cv")
        if len(ids) != n:
            raise IsometricsError(
                f"{current_caller()}: `cv` as fold ids must have one id per sample ({n}); got {len(ids)}."
            )
        if len(np.unique(ids)) < 2:
            raise IsometricsError(f"{current_caller()}: `cv` as fold ids names one fold; give at least two.")
    for fold in np.unique(ids):
        yield np.flatnonzero(ids != fold), np.flatnonzero(ids == fold)


def _cross_validated(
    y: np.ndarray,
    s: FloatArray,
    w: FloatArray | None,
    pos: Any,
    metric: str | Metric,
    splits: Any,
    zero_division: Any,
    op: OperatingPoints | None = None,
) -> CrossValidatedThreshold:
    """Choose per split on the training part, predict the test part, pool the counts.

    ``op``: the operating points of ``(y == pos, s, w)`` when the caller has them (no sort here).
    """
    m = parse_metric_argument(metric)
    is_pos = np.asarray(y == pos)
    weights = np.ones(len(is_pos)) if w is None else w
    full = _operating_points(is_pos, s, w, pos, "data") if op is None else op
    deploy = float(full.best_threshold(m).threshold)
    thresholds, values, pooled = [], [], np.zeros(4)
    for k, split in enumerate(splits):
        if len(split) == 2:  # choose on the training part (its own sort: measured faster than
            train, test = split  # mapping every sample to the full table's tie group, 0.69 s vs 1.08 s at 10^6)
            t = _best(y[train], s[train], None if w is None else w[train], pos, m, f"training part of split {k}")
            scores = s[test]
        else:  # chosen already (nested): the held-out scores come with it
            train, test, t, scores = split
        flagged = scores >= t
        wt, pt = weights[test], is_pos[test]
        counts = np.array(
            [wt[pt & flagged].sum(), wt[~pt & flagged].sum(), wt[pt & ~flagged].sum(), wt[~pt & ~flagged].sum()]
        )
        pooled += counts
        thresholds.append(t)
        values.append(float(m.from_counts(*counts)))
    if not thresholds:
        raise IsometricsError(f"{current_caller()}: `cv` gave no split; give at least two folds.")
    flagged_all = s >= deploy
    in_sample = float(
        m.from_counts(
            *(
                weights[a & b].sum()
                for a, b in (
                    (is_pos, flagged_all),
                    (~is_pos, flagged_all),
                    (is_pos, ~flagged_all),
                    (~is_pos, ~flagged_all),
                )
            )
        )
    )
    value = float(m.from_counts(*pooled))
    fold_values = np.array(values)
    if np.isnan(value) or np.isnan(fold_values).any():
        fill = 0.0 if isinstance(zero_division, str) else float(zero_division)
        if isinstance(zero_division, str):
            warnings.warn(
                f"{current_caller()}: {m.spec} is undefined on {int(np.isnan(fold_values).sum())} held-out "
                f"fold(s){' and on the pooled counts' if np.isnan(value) else ''} (no predicted positive) "
                f"and set to 0.0; use the `zero_division` parameter to control this behavior.",
                UndefinedMetricWarning,
                stacklevel=user_stacklevel(3),
            )
        value = fill if np.isnan(value) else value
        fold_values = np.where(np.isnan(fold_values), fill, fold_values)
    return CrossValidatedThreshold(
        m,
        deploy,
        in_sample,
        value,
        np.array(thresholds, dtype=np.float64),
        fold_values,
        (float(pooled[0]), float(pooled[1]), float(pooled[2]), float(pooled[3])),
        pos,
    )


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "metric": InBody("a metric name or a Metric", invalid=["no-such-metric"]),
        "cv": InBody("a number of folds or a scikit-learn splitter"),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
        "zero_division": ZERO_DIVISION,
        "rng": RandomState(),
    }
)
@fill_doc
def cross_validated_threshold(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    metric: str | Metric = "f1",
    cv: Any = 5,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    zero_division: Any = "warn",
    rng: Any = None,
) -> CrossValidatedThreshold:
    r"""Choose a threshold out of sample: per fold on the training part, reported on the held-out part.

    For each split, the threshold that optimises ``metric`` on the training part's
    scores is applied to the held-out part; the held-out confusion counts are pooled
    over the splits and the metric of the pooled counts is the out-of-fold value. The
    threshold to deploy is the best on all the scores, reported with its in-sample
    value, which is optimistic.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Out-of-fold scores (e.g. scikit-learn's ``cross_val_predict(...,
        method="predict_proba")[:, 1]``), higher meaning more likely positive; finite.
    metric : str or Metric, default="f1"
        What the threshold optimises, e.g. ``"f2"``, ``"g(beta=2, rho=-3)"``,
        ``"cost(fp=1, fn=5)"``; see :func:`isometrics.parse_metric`.
    cv : int, array-like of shape (n_samples,) or splitter, default=5
        The splits: an int ``k >= 2`` (stratified folds drawn with ``rng``), one fold
        id per sample, or an object with a scikit-learn ``split(X, y)`` method.
    %(binary_weight)s
    %(binary_pos_label)s
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a metric that is undefined on held-out counts (e.g. precision
        with no predicted positive); ``"warn"`` gives 0.0 and an
        ``UndefinedMetricWarning``.
    rng : numpy.random.Generator or int, default=None
        Randomness of the folds when ``cv`` is an int.

    Returns
    -------
    CrossValidatedThreshold
        The threshold to deploy, its in-sample value, the out-of-fold value, and the
        per-fold thresholds and values with their spread.

    Raises
    ------
    ValueError
        If ``y_true`` is not binary or has one class, ``cv`` asks for more folds than
        the smaller class has samples or is not one of its forms, a training part has
        one class, ``metric`` cannot be parsed, and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores`.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division="warn"``, when the metric is undefined on a held-out fold.

    See Also
    --------
    best_threshold, CrossValidatedThreshold.from_estimator, get_scorer

    Notes
    -----
    Out-of-fold scores of different fold models are compared with one threshold, which
    assumes that the models score on a common scale (true of calibrated
    probabilities; check it for margins). The difference ``in_sample_value - value``
    estimates the optimism of reporting the in-sample optimum; it is positive on
    average, though any one data set can show the reverse.

    References
    ----------
    .. [1] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of Statistical
       Learning*, 2nd ed., Springer 2009, section 7.10 (cross-validation, and choosing
       every tuning parameter inside the folds).

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics import cross_validated_threshold
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> s = rng.normal(size=400) + 1.5 * y
    >>> cv = cross_validated_threshold(y, s, metric="f1", cv=5, rng=0)
    >>> cv.n_splits, bool(cv.in_sample_value >= cv.value)
    (5, True)
    """
    check_zero_division(zero_division)
    y = as_1d(y_true, name="y_true")
    s = check_scores(y_score)
    w = as_sample_weight(sample_weight)
    check_consistent_length(y_true=y, y_score=s, sample_weight=w)
    is_pos, pos = check_binary_target(y, pos_label=pos_label)
    weights = check_sample_weight(w, len(y))
    result = _cross_validated(is_pos, s, weights, True, metric, _splits(cv, is_pos, is_pos, rng), zero_division)
    return dataclasses.replace(result, pos_label=pos)
