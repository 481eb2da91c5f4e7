"""Thresholds and metrics chosen out of sample, and scikit-learn's model selection.

Cross-validated threshold selection for any isometrics metric (``thresholds``:
:func:`cross_validated_threshold` from out-of-fold scores,
:meth:`CrossValidatedThreshold.from_estimator` from an estimator and a splitter, and
:meth:`CrossValidatedThreshold.to_classifier` for scikit-learn's
``FixedThresholdClassifier``), and scorers that carry any isometrics metric or area into
scikit-learn's ``cross_validate``, ``GridSearchCV`` and ``TunedThresholdClassifierCV``
(``scorers``: :func:`get_scorer`), and a decision rule stated with its expected
performance, in sample and cross-fitted on the scores (``decisions``: :func:`decide`), and the recommendation a report opens with: the
model best under a metric, its rule in sample and cross-fitted, and the paired comparison's
verdicts (``recommendation``: :func:`recommend`).
Sits beside :mod:`isometrics.evaluation` and may import it and every layer below; scikit-learn is imported lazily, only when a scorer or an
estimator is used. A new way of choosing or scoring out of sample goes here.
"""

from .decisions import Decision, decide
from .recommendation import Recommendation, recommend
from .scorers import get_scorer
from .thresholds import CrossValidatedThreshold, cross_validated_threshold

__all__ = [
    "CrossValidatedThreshold",
    "Decision",
    "Recommendation",
    "cross_validated_threshold",
    "decide",
    "get_scorer",
    "recommend",
]
