"""Exceptions and warnings raised by isometrics.

Every error that bad input can cause is one of these (or a plain ``ValueError`` /
``TypeError`` subclass of them), so callers can catch ``IsometricsError`` to handle
any input problem the library detects.
"""

from __future__ import annotations

__all__ = [
    "IsometricsError",
    "InvalidParameterError",
    "UndefinedMetricWarning",
    "DegenerateDataWarning",
    "WeightKindWarning",
]


class IsometricsError(ValueError):
    """Base class of the errors isometrics raises for bad input.

    Subclasses ``ValueError`` so that code written for scikit-learn's metrics, which
    raise ``ValueError`` for the same conditions, keeps working.
    """


class InvalidParameterError(IsometricsError, TypeError):
    """A parameter (not the data) has an invalid value or type.

    Subclasses both ``ValueError`` and ``TypeError``, like scikit-learn's exception of
    the same name.
    """


class UndefinedMetricWarning(UserWarning):
    """A metric is undefined for the input (e.g. precision with no predicted positives).

    The documented substitute value (``zero_division``) was returned instead.
    """


class DegenerateDataWarning(UserWarning):
    """The data are valid but degenerate (e.g. a single distinct score)."""


class WeightKindWarning(UserWarning):
    """Sample weights were resampled without being told what they mean.

    Integer weights that are not all equal may be frequencies (each row stands for that
    many identical samples), which the bootstrap must resample as samples, not as rows;
    pass ``weight_kind="frequency"`` for those, or ``weight_kind="sampling"`` to silence
    this warning.
    """
