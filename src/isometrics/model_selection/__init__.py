"""Thresholds and metrics chosen out of sample, and scikit-learn's model selection.

Cross-validated threshold selection for any isometrics metric, and scorers that carry any
isometrics metric or area into scikit-learn's ``cross_validate``, ``GridSearchCV`` and
``TunedThresholdClassifierCV``. Sits beside :mod:`isometrics.evaluation`; scikit-learn is
imported lazily, only when a scorer or an estimator is used.
"""
