"""The argmax prediction of a multiclass scorer and what it scores: the confusion matrix,
accuracy, balanced accuracy, macro and weighted F1.

One-vs-rest curves (:mod:`isometrics.spaces.multiclass`) rate each score column alone; a
multiclass model is used by predicting, for every row, the class of its highest score.
:func:`_argmax_predictions` forms that prediction (a tie goes to the first of the tied
columns, as ``numpy.argmax`` does) and :func:`argmax_summary` scores it with the library's
own :func:`isometrics.confusion_matrix`, :func:`isometrics.accuracy_score`,
:func:`isometrics.balanced_accuracy_score` and :func:`isometrics.f1_score`. Used by the
command line (``evaluate --multiclass``) and the multiclass report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.arrays import python_scalar
from .._core.confusion import confusion_matrix
from .._typing import ArrayLike, FloatArray
from ..metrics.accuracy import accuracy_score, balanced_accuracy_score
from ..metrics.classification import f1_score, precision_recall_fscore_support

#: How a tie between score columns is broken (said in the CLI's JSON and the report).
TIE_BREAK = "first column"


def _argmax_predictions(score_matrix: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The class of each row's highest score; among tied columns, the first (``np.argmax``)."""
    return np.asarray(classes)[np.argmax(np.asarray(score_matrix), axis=1)]


@dataclass(frozen=True)
class ArgmaxSummary:
    """The argmax prediction scored: ``confusion[i, j]`` is the (weighted) count of rows of true
    class ``classes[i]`` predicted ``classes[j]``; per-class precision, recall and F1 of that
    prediction; accuracy, balanced accuracy, macro and weighted F1."""

    classes: np.ndarray
    confusion: FloatArray
    precision: FloatArray
    recall: FloatArray
    f1: FloatArray
    accuracy: float
    balanced_accuracy: float
    f1_macro: float
    f1_weighted: float

    def to_dict(self) -> dict[str, Any]:
        counts = [[int(v) if v == int(v) else v for v in row] for row in self.confusion.tolist()]
        return {
            "prediction": "argmax",
            "tie_break": TIE_BREAK,
            "labels": [python_scalar(c) for c in self.classes],
            "confusion_matrix": counts,
            "accuracy": self.accuracy,
            "balanced_accuracy": self.balanced_accuracy,
            "f1_macro": self.f1_macro,
            "f1_weighted": self.f1_weighted,
            "per_class": [
                {"class": python_scalar(c), "precision": float(p), "recall": float(r), "f1": float(f)}
                for c, p, r, f in zip(self.classes, self.precision, self.recall, self.f1)
            ],
        }


def argmax_summary(
    y_true: ArrayLike, score_matrix: np.ndarray, classes: np.ndarray, sample_weight: ArrayLike | None = None
) -> ArgmaxSummary:
    """Score the argmax prediction of ``score_matrix`` (column ``k`` scores ``classes[k]``) against ``y_true``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The true classes, values of ``classes``.
    score_matrix : ndarray of shape (n_samples, n_classes)
        One score column per class; a row predicts the class of its highest score (the
        first of tied columns).
    classes : ndarray of shape (n_classes,)
        The class of each column.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; ``None`` weighs every row 1.

    Returns
    -------
    ArgmaxSummary
        The confusion matrix of the prediction, per-class precision, recall and F1, and
        accuracy, balanced accuracy, macro and weighted F1. A class never predicted has
        precision and F1 0 (``zero_division=0.0``, no warning), as scikit-learn's
        ``f1_score(..., zero_division=0)``.

    Raises
    ------
    IsometricsError
        As the label metrics raise for invalid labels or weights (the callers have
        checked them before).
    """
    classes = np.asarray(classes)
    predicted = _argmax_predictions(score_matrix, classes)
    precision, recall, f1, _ = precision_recall_fscore_support(
        y_true, predicted, labels=classes, average=None, zero_division=0.0, sample_weight=sample_weight
    )
    return ArgmaxSummary(
        classes=classes,
        confusion=confusion_matrix(y_true, predicted, labels=classes, sample_weight=sample_weight),
        precision=np.asarray(precision, dtype=np.float64),
        recall=np.asarray(recall, dtype=np.float64),
        f1=np.asarray(f1, dtype=np.float64),
        accuracy=float(accuracy_score(y_true, predicted, sample_weight=sample_weight)),
        balanced_accuracy=float(balanced_accuracy_score(y_true, predicted, sample_weight=sample_weight)),
        f1_macro=float(
            f1_score(y_true, predicted, labels=classes, average="macro", zero_division=0.0, sample_weight=sample_weight)
        ),
        f1_weighted=float(
            f1_score(
                y_true, predicted, labels=classes, average="weighted", zero_division=0.0, sample_weight=sample_weight
            )
        ),
    )
