"""scikit-learn scorers for any isometrics metric or area.

:func:`get_scorer` turns a metric specification (``"f2"``, ``"g(beta=2, rho=-3)"``,
``"cost(fp=1, fn=5)"``) into a scorer of predicted labels, and an area (``"auroc"``,
``"average_precision"``, ``"auprg"``) into a scorer of scores, built with scikit-learn's
own ``make_scorer``: they work in ``cross_validate``, ``GridSearchCV`` and
``TunedThresholdClassifierCV(scoring=...)``. scikit-learn is imported when a scorer is
built, never on ``import isometrics``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import POS_LABEL, ZERO_DIVISION, InBody, in_body, user_stacklevel, validate_params
from .._core.validation import as_1d, as_sample_weight, check_sample_weight, check_scores, check_zero_division
from .._typing import ArrayLike
from ..exceptions import InvalidParameterError, IsometricsError, UndefinedMetricWarning
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric
from ..spaces.multiclass import one_vs_rest
from ..spaces.operating_points import OperatingPoints
from .thresholds import _require_sklearn

__all__ = ["get_scorer"]

#: Area names (and scikit-learn's aliases) to the OperatingPoints method that computes them.
_AREAS = {"auroc": "auroc", "roc_auc": "auroc", "average_precision": "average_precision", "auprg": "auprg"}


def _positive(y_true: np.ndarray, pos_label: Any) -> Any:
    """``pos_label``, or scikit-learn's default: the greater of the two labels (``classes_[1]``)."""
    labels = np.unique(y_true)
    if pos_label is None:
        if len(labels) > 2:
            raise IsometricsError(
                f"{current_caller()}: y_true has {len(labels)} classes; this scorer is binary, pass "
                "pos_label= to score one class against the rest."
            )
        return labels[-1]
    return pos_label


# scikit-learn calls the two score functions when it scores, outside get_scorer: the declaration
# (its parameters are checked in the body) names get_scorer, which built the scorer, in their messages
@validate_params(
    in_body("y_true", "y_pred", "metric", "pos_label", "sample_weight", "zero_division"), name="get_scorer"
)
def _label_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    metric: str,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> float:
    """The metric of predicted labels against true labels, one class (``pos_label``) against the rest."""
    m = parse_metric_argument(metric)
    yt = as_1d(y_true, name="y_true")
    yp = as_1d(y_pred, name="y_pred")
    if len(yt) != len(yp):
        raise IsometricsError(f"{current_caller()}: y_true has {len(yt)} samples but y_pred has {len(yp)}.")
    pos = _positive(np.concatenate([yt, yp]) if pos_label is None else yt, pos_label)
    w = check_sample_weight(as_sample_weight(sample_weight), len(yt))
    weights = np.ones(len(yt)) if w is None else w
    actual, predicted = yt == pos, yp == pos
    value = float(
        m.from_counts(
            weights[actual & predicted].sum(),
            weights[~actual & predicted].sum(),
            weights[actual & ~predicted].sum(),
            weights[~actual & ~predicted].sum(),
        )
    )
    if np.isnan(value):
        if isinstance(zero_division, str):
            warnings.warn(
                f"{m.spec} is ill-defined (no predicted positive, or no sample of a class) and set "
                "to 0.0; use the `zero_division` parameter to control this behavior.",
                UndefinedMetricWarning,
                stacklevel=user_stacklevel(2),
            )
            return 0.0
        return float(zero_division)
    return value


@validate_params(in_body("y_true", "y_score", "area", "pos_label", "sample_weight", "average"), name="get_scorer")
def _area_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    area: str,
    pos_label: Any = None,
    sample_weight: ArrayLike | None = None,
    average: str = "macro",
) -> float:
    """An area of binary scores, or of one-vs-rest multiclass scores (2-D) averaged by ``average``."""
    scores = np.asarray(y_score)
    if scores.ndim == 2 and scores.shape[1] > 1:  # multiclass predict_proba: columns in sorted label order
        ovr = one_vs_rest(y_true, scores, sample_weight=sample_weight)
        return float(getattr(ovr, area)(average=average))
    yt = as_1d(y_true, name="y_true")
    s = check_scores(scores.ravel())
    pos = _positive(yt, pos_label)
    w = as_sample_weight(sample_weight)
    op = OperatingPoints.from_scores(yt == pos, s, sample_weight=w, pos_label=True)
    return float(getattr(op, area)())


@validate_params(
    {
        "metric": InBody("a metric name or a Metric, or an area such as 'auroc'"),
        "pos_label": POS_LABEL,
        "zero_division": ZERO_DIVISION,
        "average": InBody("'macro', 'weighted' or 'micro'", invalid=["median"]),
        "response_method": InBody("a method name, a tuple of them, or None"),
    }
)
def get_scorer(
    metric: str | Metric,
    *,
    pos_label: Any = None,
    zero_division: Any = "warn",
    average: str = "macro",
    response_method: str | tuple[str, ...] | None = None,
) -> Any:
    """A scikit-learn scorer for any isometrics metric or area.

    Parameters
    ----------
    metric : str or Metric
        An area, ``"auroc"`` (alias ``"roc_auc"``), ``"average_precision"`` or
        ``"auprg"``, scored on the estimator's ``decision_function`` or
        ``predict_proba``; or a metric of :func:`isometrics.parse_metric` (``"f1"``,
        ``"f2"``, ``"g(beta=2, rho=-3)"``, ``"youden"``, ``"cost(fp=1, fn=5)"``),
        scored on ``predict``. A cost is minimised: the scorer returns minus the cost,
        as scikit-learn's ``greater_is_better=False`` does.
    pos_label : int, float, bool or str, default=None
        The positive class. ``None``: the greater of the two labels (scikit-learn's
        ``classes_[1]``), as scikit-learn's own scorers; it differs from the rest of
        isometrics, which infers it only from {0, 1}, {-1, 1} or {False, True}.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        The value of a label metric that is undefined (no predicted positive);
        ``"warn"`` gives 0.0 and an ``UndefinedMetricWarning``.
    average : {"macro", "weighted", "micro"}, default="macro"
        How an area of multiclass scores (a 2-D ``predict_proba``) averages its
        classes, one against the rest; see :func:`isometrics.one_vs_rest`.
    response_method : str or tuple of str, default=None
        The estimator's method that gives what the scorer reads, as scikit-learn's
        ``make_scorer`` takes it. ``None``: ``("decision_function", "predict_proba")``
        for an area (the first the estimator has, as scikit-learn's ``"roc_auc"``) and
        ``"predict"`` for a metric. For multiclass areas pass ``"predict_proba"``, as
        scikit-learn's ``"roc_auc_ovr"`` does.

    Returns
    -------
    sklearn.metrics._scorer._Scorer
        Built with :func:`sklearn.metrics.make_scorer`; callable as
        ``scorer(estimator, X, y)``, and accepted as ``scoring=`` by
        ``cross_validate``, ``GridSearchCV`` and ``TunedThresholdClassifierCV`` (which
        reads a label metric at every candidate threshold).

    Raises
    ------
    ImportError
        If scikit-learn is missing.
    ValueError
        If ``metric`` is neither an area nor a metric (:class:`InvalidParameterError`),
        or ``zero_division`` or ``average`` is not one of its values.

    See Also
    --------
    cross_validated_threshold, CrossValidatedThreshold.to_classifier

    Notes
    -----
    Where the metric is one scikit-learn has (``"f1"``, ``"fbeta(beta=2)"``,
    ``"precision"``, ``"recall"``, ``"auroc"``, ``"average_precision"``), the scorer
    gives scikit-learn's value. The scorers take ``sample_weight`` through
    scikit-learn's metadata routing (``scorer.set_score_request(sample_weight=True)``).

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from isometrics.model_selection import get_scorer
    >>> X, y = make_classification(n_samples=300, weights=[0.8], random_state=0)
    >>> scores = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=get_scorer("f2"))
    >>> scores.shape
    (3,)
    """
    check_zero_division(zero_division)
    if average not in ("macro", "weighted", "micro"):
        raise InvalidParameterError(
            f"{current_caller()}: `average` must be 'macro', 'weighted' or 'micro'; got {average!r}."
        )
    _require_sklearn(current_caller())
    from sklearn.metrics import make_scorer

    kwargs: dict[str, Any] = {} if pos_label is None else {"pos_label": pos_label}
    if isinstance(metric, str) and metric.strip().lower() in _AREAS:
        return make_scorer(
            _area_score,
            response_method=response_method or ("decision_function", "predict_proba"),
            area=_AREAS[metric.strip().lower()],
            average=average,
            **kwargs,
        )
    m = parse_metric_argument(metric)
    return make_scorer(
        _label_score,
        response_method=response_method or "predict",
        greater_is_better=m.greater_is_better,
        metric=m.spec,
        zero_division=zero_division,
        **kwargs,
    )
