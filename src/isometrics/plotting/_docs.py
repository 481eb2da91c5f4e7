"""Parameter text shared by the Displays' methods: one source, put in with :func:`_fill`."""

from __future__ import annotations

from typing import Any

from .._core.constraints import ARRAY, POS_LABEL, InBody, validate_params

#: The parameters every Display's ``from_predictions`` shares, declared once (see :func:`_declared`).
_PREDICTIONS = {
    "y_true": ARRAY,
    "y_score": ARRAY,
    "sample_weight": [ARRAY, None],
    "pos_label": POS_LABEL,
    "name": [InBody("a legend label"), None],
}
#: The parameters of the curve Displays and MetricCurveDisplay besides those (checked in the body).
_CURVE = {"metric": [InBody("a metric name or a Metric"), None], "levels": [InBody("metric values in (0, 1]"), None]}


def _declared(name: str, **extra: Any) -> Any:
    """Declare a Display's ``from_predictions`` (``name``: ``"RocDisplay.from_predictions"``), which
    its messages name: the shared parameters and ``extra``."""
    return validate_params({**_PREDICTIONS, **extra}, name=name)


#: Parameter text shared by the Displays' methods (indented for a method's docstring).
_DOC = {
    "data": """y_true : array-like of shape (n_samples,)
            True binary labels.
        y_score : array-like of shape (n_samples,), or data frame of shape (n_samples, n_models)
            Scores, higher meaning more likely positive; finite. A data frame (pandas,
            Polars, pyarrow) of score columns gives a :class:`DisplayGroup` instead: one
            Display per column, named after it (so ``name`` must be None), drawn on one
            axes by its ``plot``.""",
    "weight_pos": """sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights. ``None`` weighs every sample 1.
        pos_label : int, float, bool or str, default=None
            The label of the positive class. ``None`` infers it when the labels are
            {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).""",
    "name_metric": """name : str, default=None
            The model's name, shown in the legend as "name (AREA = 0.912)".
        metric : str or Metric, default=None
            A threshold metric (``"f1"``, ``"g(beta=2, rho=-3)"``...): its best point and
            its level curves (isometrics) at the data's prevalence are drawn.
        levels : sequence of float, default=None
            The metric values of the level curves; default (0.2, 0.4, 0.6, 0.8).""",
    "kwargs": """**kwargs
            Matplotlib keyword arguments for the curve's line (``color``, ``linestyle``,
            ``linewidth``, ``alpha``, ``label``...), used by :meth:`plot` (where keywords
            given again win); ``label`` replaces the default legend text.""",
    "estimator": """estimator : fitted classifier
            A binary classifier with ``predict_proba`` or ``decision_function`` (scikit-learn's
            API); the positive class is ``pos_label``, default ``estimator.classes_[1]``.
        X : array-like of shape (n_samples, n_features)
            The inputs to score.
        y : array-like of shape (n_samples,)
            Their true labels (any two labels, strings included).
        pos_label : int, float, bool or str, default=None
            The positive class, one of ``estimator.classes_``; default ``classes_[1]``
            (scikit-learn's convention): its ``predict_proba`` column is the score, or
            ``decision_function`` (negated for ``classes_[0]``).
        **kwargs
            Keyword arguments of :meth:`from_predictions` (``sample_weight``, ``name``,
            ``metric``...) and matplotlib keyword arguments for the curve's line.""",
    "estimator_raises": """Raises
        ------
        InvalidParameterError
            If the estimator is not a binary classifier (``classes_`` of another length,
            ``predict_proba`` of another shape, neither method), or ``pos_label`` is not
            one of its ``classes_``.""",
    "fields": """name : str or None
        The model's name, shown in the legend.
    best : BestThreshold or None
        The best operating point for ``metric``.
    metric : Metric or None
        The threshold metric whose best point and level curves are drawn.
    prevalence : float
        The data's (weighted) share of positives, where the level curves are drawn.
    level_values : tuple of float
        The metric values of the level curves.
    line_kwargs : dict
        Matplotlib keyword arguments for the curve's line, from ``from_predictions``.""",
    "plot_kwargs": """**kwargs
            Matplotlib keyword arguments for the curve's line, over those given to
            :meth:`from_predictions` (``color``, ``linestyle``, ``label``...).""",
}


def _fill(func: Any) -> Any:
    """Put the shared parameter text into a Display method's docstring."""
    func.__doc__ = func.__doc__ % _DOC
    return func
