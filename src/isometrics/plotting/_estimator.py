"""Scores of a fitted binary classifier for the positive class, as scikit-learn's Displays
take them: the positive class is ``pos_label`` if given, else ``classes_[1]``; its column of
``predict_proba``, else ``decision_function`` (negated when the positive class is
``classes_[0]``, since it scores ``classes_[1]``)."""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from ._docs import _fill

_D = TypeVar("_D")


def _classes(estimator: Any, caller: str) -> list[Any] | None:
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        return None
    classes = list(np.asarray(classes).tolist())
    if len(classes) != 2:
        raise InvalidParameterError(
            f"{caller}: the estimator must be a binary classifier (classes_ has "
            f"{len(classes)} classes: {classes!r}); score one class against the rest "
            "and use from_predictions."
        )
    return classes


def _positive_class(estimator: Any, pos_label: Any, caller: str) -> Any:
    """``pos_label`` checked against ``classes_``, or ``classes_[1]`` when None (None when the
    estimator has no ``classes_``)."""
    classes = _classes(estimator, caller)
    if classes is None or pos_label is None:
        return None if classes is None else classes[1]
    if pos_label not in classes:
        raise InvalidParameterError(
            f"{caller}: `pos_label` must be one of the estimator's classes_ {classes!r}; got {pos_label!r}."
        )
    return pos_label


def _scores_of(estimator: Any, X: Any, *, pos_label: Any = None, caller: str = "from_estimator") -> FloatArray:
    """Scores for ``pos_label`` (default ``classes_[1]``): higher means more likely positive."""
    classes = _classes(estimator, caller)
    positive = 1 if classes is None or pos_label is None else classes.index(pos_label)
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
        if proba.ndim != 2 or proba.shape[1] != 2:
            raise InvalidParameterError(
                f"{caller}: the estimator must be a binary classifier (predict_proba gave shape {proba.shape})."
            )
        return proba[:, positive]
    if hasattr(estimator, "decision_function"):
        scores = np.asarray(estimator.decision_function(X), dtype=np.float64)
        return scores if positive == 1 else -scores
    raise InvalidParameterError(f"{caller}: the estimator has neither predict_proba nor decision_function.")


def _estimator_inputs(estimator: Any, X: Any, pos_label: Any, caller: str) -> tuple[FloatArray, Any]:
    """The positive class and its scores, for ``from_predictions(y, scores, pos_label=...)``."""
    positive = _positive_class(estimator, pos_label, caller)
    return _scores_of(estimator, X, pos_label=positive, caller=caller), positive if positive is not None else pos_label


class _FromEstimator:
    """``from_estimator`` for a Display with a ``from_predictions(y_true, y_score, *, pos_label, ...)``:
    written once, inherited by every Display that scores an estimator."""

    @classmethod
    @_fill
    def from_estimator(
        cls: type[_D], estimator: Any, X: Any, y: ArrayLike, *, pos_label: Any = None, **kwargs: Any
    ) -> _D:
        """Score ``X`` with a fitted binary classifier, then :meth:`from_predictions`.

        Parameters
        ----------
        %(estimator)s

        Returns
        -------
        Display
            An instance of the class it is called on, not drawn yet: call :meth:`plot`.

        %(estimator_raises)s
        """
        # one body inherited by every Display, whose name depends on the class: a declaration names one
        # function, so the estimator's checks get the name here; from_predictions (declared) names itself
        scores, positive = _estimator_inputs(estimator, X, pos_label, f"{cls.__name__}.from_estimator")
        return cls.from_predictions(y, scores, pos_label=positive, **kwargs)  # type: ignore[attr-defined, no-any-return]
