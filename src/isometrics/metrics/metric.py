"""The metric object: :class:`Metric`, a metric of precision and recall evaluable on counts.

A :class:`Metric` evaluates on confusion counts (``tp, fp, fn, tn``, vectorised over
operating points) as well as on precision and recall. Counts come first because some
metrics are defined where precision is not: F-beta with no predicted positive is 0.
The members of the family are built, named and parsed in ``registry`` (which also says how a
metric pickles: as its specification, through ``copyreg``); the functions behind them are in
``kernels``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._core.constraints import NUMBERS, validate_params
from .._core.html import summarised
from .._core.validation import check_broadcast, check_real_array
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from .kernels import ExactKey, fbeta_from_counts, fill_undefined, precision_from_counts, recall_from_counts

__all__ = ["Metric"]


@summarised()
@dataclass(frozen=True)
class Metric:
    """A metric of precision and recall, evaluable on counts.

    Build one with :func:`~isometrics.metrics.registry.parse_metric` (``parse_metric("f2")``)
    rather than directly; it pickles as its ``spec``.

    Parameters
    ----------
    spec : str
        Canonical specification, e.g. ``"fbeta(beta=2)"``; ``parse_metric(spec)``
        gives back an equal metric.
    label : str
        Short human-readable name, e.g. ``"F2"``.
    log_gamma, phi : float or None
        The metric as a weighted power mean ``W(gamma, phi)`` of precision and recall
        (``gamma = exp(log_gamma)``), which decides where it is defined; ``None`` for
        precision and recall alone and for metrics of ROC space.
    greater_is_better : bool
        ``False`` for costs, which :func:`isometrics.best_threshold` minimises.
    """

    spec: str
    label: str
    log_gamma: float | None = None
    phi: float | None = None
    greater_is_better: bool = True
    _pr: Callable[[FloatArray, FloatArray], FloatArray] | None = field(default=None, repr=False, compare=False)
    _count_beta: float | None = field(default=None, repr=False, compare=False)
    _counts: Callable[..., FloatArray] | None = field(default=None, repr=False, compare=False)
    _gamma_phi: tuple[float, float] | None = field(default=None, repr=False, compare=False)
    _exact: ExactKey | None = field(default=None, repr=False, compare=False)
    _abs_scale: float = field(default=0.0, repr=False, compare=False)
    _corner: float | None = field(default=None, repr=False, compare=False)  # R/P at a corner of the level curves

    @property
    def needs_precision(self) -> bool:
        """Whether the value depends on precision when recall is 0.

        Metrics with ``phi <= 0`` (geometric, harmonic, F-beta, min) are 0 at recall 0
        whatever the precision, so they are defined with no predicted positive.
        """
        if self.spec == "recall" or self._counts is not None:
            return False
        if self.spec == "precision":
            return True
        assert self.phi is not None and self.log_gamma is not None
        return not (self.phi <= 0 and self.log_gamma < math.inf)

    @validate_params({"precision": NUMBERS, "recall": NUMBERS}, name="Metric.from_precision_recall")
    def from_precision_recall(self, precision: ArrayLike, recall: ArrayLike) -> FloatArray:
        """Evaluate on precision and recall arrays (broadcast), each in [0, 1].

        Returns
        -------
        ndarray of float64
            The metric's values, in [0, 1]; higher is better.

        Raises
        ------
        InvalidParameterError
            If ``precision`` or ``recall`` is not a number or an array of numbers, the
            two do not broadcast together, or the metric is one of ROC space. Values are
            not range-checked here (this is the inner loop of the threshold search).
        """
        if self._pr is None:
            raise InvalidParameterError(
                f"{self.spec} is a metric of ROC space or of the whole confusion matrix (it needs the true "
                "negatives, not only precision and recall); evaluate it with from_counts."
            )
        # Named explicitly, not by the declaration: the public functions of every layer call this
        # method on arrays they built, and a message names the method the arrays were given to.
        caller = "Metric.from_precision_recall"
        p = check_real_array(precision, "precision", caller=caller)
        r = check_real_array(recall, "recall", caller=caller)
        check_broadcast(caller, precision=p, recall=r)
        return np.asarray(self._pr(p, r), dtype=np.float64)

    @validate_params({"tp": NUMBERS, "fp": NUMBERS, "fn": NUMBERS, "tn": [NUMBERS, None]}, name="Metric.from_counts")
    def from_counts(self, tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike | None = None) -> FloatArray:
        """Evaluate on (weighted) confusion counts, vectorised.

        Parameters
        ----------
        tp, fp, fn, tn : array-like of float
            True positives, false positives, false negatives and true negatives,
            broadcast together; ``tn`` is needed by the metrics of ROC space and the
            whole-matrix metrics (``youden``, ``mcc``, ``net_benefit``...) and unused by
            the precision-recall family.

        Returns
        -------
        ndarray of float64
            The metric's values (in [0, 1] for the precision-recall family, accuracy,
            balanced accuracy, NPV and specificity; a cost for ``cost``; in [-1, 1] for
            ``youden``, ``mcc``, ``kappa`` and ``markedness``; at most the prevalence for
            ``net_benefit``). NaN marks a point where the metric is undefined (0/0):
            precision-dependent metrics with no predicted positive, MCC and markedness
            with no or every sample predicted positive, NPV with every sample predicted
            positive, or no sample of a class at all. Callers turn NaN into an error or
            skip it.

        Raises
        ------
        InvalidParameterError
            If a count is not a number or an array of numbers, the counts do not
            broadcast together, or the metric needs ``tn`` and it is not given.
        """
        # Named explicitly, as in from_precision_recall: the message is about this method's
        # parameters (``pass `tn```), whichever public function called it.
        caller = "Metric.from_counts"
        counts = {name: check_real_array(a, name, caller=caller) for name, a in (("tp", tp), ("fp", fp), ("fn", fn))}
        if tn is not None:
            counts["tn"] = check_real_array(tn, "tn", caller=caller)
        check_broadcast(caller, **counts)
        tp, fp, fn = counts["tp"], counts["fp"], counts["fn"]
        if self._counts is not None:
            if tn is None:
                raise InvalidParameterError(f"{caller}: {self.spec} needs the true negatives: pass `tn`.")
            tn_arr = counts["tn"]
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.asarray(self._counts(tp, fp, fn, tn_arr), dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            if self._count_beta is not None and self._count_beta > 0:
                # F-beta is 0 (not undefined) with no true positive, at every threshold.
                return fill_undefined(fbeta_from_counts(tp, fp, fn, self._count_beta), zero_division=0.0, message="")
            precision = precision_from_counts(tp, fp, fn, None)
            recall = recall_from_counts(tp, fp, fn, None)
            undefined_p = ~np.isfinite(precision)
            undefined_r = ~np.isfinite(recall)
            p = np.where(undefined_p, 1.0, precision)
            r = np.where(undefined_r, 0.0, recall)
            value = self.from_precision_recall(p, r)
            if self.needs_precision:
                value = np.where(undefined_p, np.nan, value)
            return np.where(undefined_r, np.nan, value)

    def _headline(self) -> str:
        return repr(self.spec)

    def __str__(self) -> str:
        return self.spec
