"""``OperatingPoints``: the count table with the verbs of the spaces as methods.

The engine (:class:`~isometrics._core.count_table.CountTable`: one sort, ties grouped, exact
merge) is data and lives in the core, which imports nothing above it. Users want verbs on
the object (``op.auroc()``, ``op.best_threshold("f2")``, ``op.roc_convex_hull()``), so this
module subclasses the table one layer up, where every verb's module can be imported at the
top: no cycle, no deferred import. Each method of a declared quantity reads it with
``CountTable.get(<its Quantity>)`` (cached, in the declared units), exactly as the public
function of the same name does, so ``op.auroc()`` and ``auroc(y_true, y_score)`` share code
and cache (:mod:`.quantities` lists the declarations).

A new verb is a method here calling the function that owns the computation; a declared
quantity without a method is read with ``op.get(QUANTITY)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from .._core.caller import current_caller
from .._core.constraints import in_body, validate_params
from .._core.count_table import CountTable, Quantity
from .._core.docstrings import fill_doc
from .._typing import ArrayLike
from ..exceptions import InvalidParameterError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from .areas import AUPRG, AUROC, AVERAGE_PRECISION
from .calibration import F_CALIBRATOR, ISOTONIC, StepCalibrator
from .constraints import _precision_at_recall, _recall_at_precision, _specificity_at_sensitivity
from .curves import PR, PRG, ROC, PrecisionRecallCurve, PrgCurve, RocCurve
from .cutoffs import Cutoff, cut_at_rate, cut_at_threshold, cut_at_top_k
from .gains import GAINS, LIFT, DecisionCurve, GainsCurve, LiftCurve, _decision_curve
from .hull import PRG_HULL, ROC_HULL, PrgHull, RocHull
from .interpolation import ACHIEVABLE_PR, AUC_PR_ACHIEVABLE, AUC_PR_INTERPOLATED
from .one_pass import compute_together
from .thresholds import BestThreshold, MetricCurve, OperatingPoint, _best_threshold, _metric_curve

__all__ = ["OperatingPoints"]


class OperatingPoints(CountTable):
    """Weighted confusion counts at every distinct threshold of a binary scorer.

    Operating point ``i`` predicts positive every sample with ``y_score >= thresholds[i]``.
    Point 0 has ``thresholds[0] = +inf`` and predicts nothing positive; the last point
    predicts everything positive. Tied scores form one operating point.

    Parameters
    ----------
    thresholds : ndarray of shape (n_points,), float64
        Distinct scores in strictly decreasing order, preceded by ``+inf``.
    tp : ndarray of shape (n_points,), float64
        Cumulative weighted true positives at each threshold; ``tp[0] == 0``, non-decreasing.
    fp : ndarray of shape (n_points,), float64
        Cumulative weighted false positives at each threshold; ``fp[0] == 0``, non-decreasing.
    pos_label : object, default=1
        The label of the positive class the counts refer to.

    Attributes
    ----------
    n_positives, n_negatives : float
        Total weight of positives (``tp[-1]``) and negatives (``fp[-1]``).
    prevalence : float
        ``n_positives / (n_positives + n_negatives)``, in [0, 1].

    Notes
    -----
    Samples of zero weight are removed before thresholds are formed, as scikit-learn
    does: a score carried only by zero-weight samples is not a threshold. The bootstrap
    applies the same rule, so a replicate's thresholds are those of its resampled data.

    Counts are accumulated in float64 by a cumulative sum in score order. With integer
    weights (or none) every count is an exact integer. The results are bit-reproducible:
    the same inputs give the same bits on every run.

    Only the ratios of the weights matter: multiplying every weight by a constant scales
    the counts and leaves every curve, area, threshold and metric unchanged, for weights
    anywhere in float64's range (derived quantities are computed from counts divided by
    a power of two near the class totals, which is exact).

    The counts and their construction and merge come from the core's
    :class:`~isometrics._core.count_table.CountTable`; the methods below are the verbs of
    the spaces, each the same computation (and the same cache) as the public function
    it names.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters
       27(8):861-874, 2006 (Algorithm 2: one sort, ties grouped).
    """

    @validate_params(in_body("quantities", "best"), name="OperatingPoints.compute")
    def compute(self, *quantities: Quantity, best: Sequence[str | Metric] = ()) -> tuple[Any, ...]:
        """Several quantities at once, in one pass over the operating points where they allow it.

        Asked one at a time (``op.roc_curve()``, ``op.auroc()``...), each quantity walks every
        operating point again. Named together here, the curves, areas and best thresholds
        computed from the points one by one (the ROC, PR and PRG curves, AUROC, average
        precision, AUPRG, the count-interpolated PR area, any metric's best threshold) share
        one walk: each run of points is read once, and what several of them use (recall,
        precision, the gains) is computed once. The values are the very doubles the methods
        return, and are kept: a later ``op.roc_curve()`` or ``op.best_threshold("f1")``
        returns them at no cost. Other quantities (hulls, calibrators...) are computed after
        the pass, as by their methods. The pass runs when the counts need no rescaling (class
        totals within ``2**±64``, every unweighted table) and both classes are present;
        otherwise each quantity is computed on its own, with the same values and errors.

        Parameters
        ----------
        *quantities : Quantity
            The declared quantities wanted (``isometrics.spaces.quantities.QUANTITIES`` lists
            them by name: ``ROC``, ``PR``, ``PRG`` in :mod:`isometrics.spaces.curves`, ``AUROC``,
            ``AVERAGE_PRECISION``, ``AUPRG`` in :mod:`isometrics.spaces.areas`...).
        best : sequence of str or Metric, default=()
            Metrics whose best threshold is wanted (see :meth:`best_threshold`).

        Returns
        -------
        tuple
            The value of each quantity, in the order given (what ``op.get(quantity)`` and the
            quantity's method return), then the :class:`BestThreshold` of each metric of ``best``.

        Raises
        ------
        InvalidParameterError
            If a quantity is not a ``Quantity`` or a metric cannot be parsed.
        ValueError
            What the quantities and best thresholds raise when computed alone (one class; a
            metric undefined at every threshold).

        Examples
        --------
        >>> from isometrics import OperatingPoints
        >>> from isometrics.spaces.areas import AUROC, AVERAGE_PRECISION
        >>> from isometrics.spaces.curves import ROC
        >>> op = OperatingPoints.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> roc, auroc, ap, f1 = op.compute(ROC, AUROC, AVERAGE_PRECISION, best=["f1"])
        >>> auroc, round(ap, 4), f1.threshold, op.roc_curve() is roc
        (0.75, 0.8333, 0.35, True)
        """
        for k, quantity in enumerate(quantities):
            if not isinstance(quantity, Quantity):
                raise InvalidParameterError(
                    f"{current_caller()}: `quantities[{k}]` is a {type(quantity).__name__}, not a Quantity; pass declared "
                    "quantities such as isometrics.spaces.curves.ROC or isometrics.spaces.areas.AUROC "
                    "(isometrics.spaces.quantities.QUANTITIES lists them), and metrics as best=[...]."
                )
        metrics = parse_metric_arguments(best, name="best")
        values, bests = compute_together(self, quantities, metrics)
        return (*values, *bests)

    def roc_curve(self) -> RocCurve:
        """ROC curve at every operating point; see :func:`isometrics.roc_curve`."""
        return self.get(ROC)

    def precision_recall_curve(self) -> PrecisionRecallCurve:
        """PR curve at every operating point; see :func:`isometrics.precision_recall_curve`."""
        return self.get(PR)

    def prg_curve(self) -> PrgCurve:
        """Precision-Recall-Gain curve; see :func:`isometrics.prg_curve`."""
        return self.get(PRG)

    def auroc(self) -> float:
        """Area under the ROC curve; see :func:`isometrics.auroc`."""
        return self.get(AUROC)

    def average_precision(self) -> float:
        """Step-wise average precision; see :func:`isometrics.average_precision`."""
        return self.get(AVERAGE_PRECISION)

    def auprg(self) -> float:
        """Area under the Precision-Recall-Gain curve; see :func:`isometrics.auprg`."""
        return self.get(AUPRG)

    def auc_pr_interpolated(self) -> float:
        """Count-interpolated PR area; see :func:`isometrics.spaces.auc_pr_interpolated`."""
        return self.get(AUC_PR_INTERPOLATED)

    def achievable_pr_curve(self) -> PrecisionRecallCurve:
        """PR curve at the ROC hull's vertices; see :func:`isometrics.spaces.achievable_pr_curve`."""
        return self.get(ACHIEVABLE_PR)

    def auc_pr_achievable(self) -> float:
        """Area under the achievable PR curve; see :func:`isometrics.spaces.auc_pr_achievable`."""
        return self.get(AUC_PR_ACHIEVABLE)

    def isotonic_calibrator(self) -> StepCalibrator:
        """Isotonic calibration through the ROC hull; see :func:`isometrics.spaces.isotonic_calibrator`."""
        return self.get(ISOTONIC)

    def f_calibrator(self) -> StepCalibrator:
        """F-calibration through the PRG hull; see :func:`isometrics.spaces.f_calibrator`."""
        return self.get(F_CALIBRATOR)

    def roc_convex_hull(self) -> RocHull:
        """ROC convex hull; see :func:`isometrics.roc_convex_hull`."""
        return self.get(ROC_HULL)

    def prg_convex_hull(self) -> PrgHull:
        """PRG convex hull; see :func:`isometrics.prg_convex_hull`."""
        return self.get(PRG_HULL)

    @validate_params(in_body("metric"), name="OperatingPoints.metric_curve")
    def metric_curve(self, metric: str | Metric) -> MetricCurve:
        """A metric at every operating point; see :func:`isometrics.metric_curve`."""
        return _metric_curve(self, metric)

    @validate_params(in_body("min_recall"), name="OperatingPoints.precision_at_recall")
    def precision_at_recall(self, min_recall: float) -> OperatingPoint:
        """Best precision at recall >= ``min_recall``; see :func:`isometrics.precision_at_recall`."""
        return _precision_at_recall(self, min_recall)

    @validate_params(in_body("min_precision"), name="OperatingPoints.recall_at_precision")
    def recall_at_precision(self, min_precision: float) -> OperatingPoint:
        """Best recall at precision >= ``min_precision``; see :func:`isometrics.recall_at_precision`."""
        return _recall_at_precision(self, min_precision)

    @validate_params(in_body("min_sensitivity"), name="OperatingPoints.specificity_at_sensitivity")
    def specificity_at_sensitivity(self, min_sensitivity: float) -> OperatingPoint:
        """Best specificity at sensitivity >= ``min_sensitivity``; see :func:`isometrics.specificity_at_sensitivity`."""
        return _specificity_at_sensitivity(self, min_sensitivity)

    @validate_params(in_body("metric"), name="OperatingPoints.best_threshold")
    def best_threshold(self, metric: str | Metric = "f1") -> BestThreshold:
        """The operating point maximising ``metric``; see :func:`isometrics.best_threshold`."""
        return _best_threshold(self, metric)

    @validate_params(in_body("threshold"), name="OperatingPoints.at_threshold")
    def at_threshold(self, threshold: float) -> Cutoff:
        """Counts and every metric when predicting positive at ``y_score >= threshold``.

        Parameters
        ----------
        threshold : float
            Any real number or ``+-inf``; between two observed scores the counts are those
            of the next higher one.

        Returns
        -------
        Cutoff
            Counts, precision, recall, rate; ``.value(metric)`` for any metric.

        Raises
        ------
        InvalidParameterError
            If ``threshold`` is not a real number (NaN included).
        ValueError
            If the operating points have one class.

        Examples
        --------
        >>> from isometrics import OperatingPoints
        >>> op = OperatingPoints.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
        >>> cut = op.at_threshold(0.35)
        >>> cut.tp, cut.fp, cut.precision, round(cut.value("mcc"), 4)
        (3.0, 1.0, 0.75, 0.7071)
        """
        return cut_at_threshold(self, threshold)

    @validate_params(in_body("k", "ties"), name="OperatingPoints.at_top_k")
    @fill_doc
    def at_top_k(self, k: float, *, ties: Literal["interpolate", "raise"] = "interpolate") -> Cutoff:
        """Counts and every metric when flagging the ``k`` highest-scored samples.

        Parameters
        ----------
        k : int or float
            The budget, > 0 and at most the total weight (the number of samples when
            unweighted; a row of weight 3 counts as 3 samples).
        ties : {"interpolate", "raise"}, default="interpolate"
            When the budget ends inside a group of tied scores: ``"interpolate"`` flags
            the needed share of the group (``tie_fraction``) and gives the expected
            counts under a random order of the tied samples; ``"raise"`` refuses.

        Returns
        -------
        Cutoff
            ``precision`` is precision@k, ``recall`` recall@k.

        Raises
        ------
        ValueError
            If ``k`` is not in (0, total weight], ``ties`` is not an option, ``ties="raise"``
            and the budget splits a tie, or the operating points have one class.

        See Also
        --------
        isometrics.spaces.precision_at_k, isometrics.spaces.recall_at_k

        Notes
        -----
        %(budget_note_method)s

        Examples
        --------
        >>> from isometrics import OperatingPoints
        >>> op = OperatingPoints.from_scores([0, 1, 1, 0, 1], [0.9, 0.5, 0.5, 0.5, 0.2])
        >>> cut = op.at_top_k(3)  # 0.9, then 2 of the 3 tied at 0.5 (2/3 of them positive)
        >>> cut.tp, cut.tie_fraction, round(cut.precision, 4)
        (1.3333333333333333, 0.6666666666666666, 0.4444)
        """
        return cut_at_top_k(self, k, ties)

    @validate_params(in_body("rate", "ties"), name="OperatingPoints.at_rate")
    @fill_doc
    def at_rate(self, rate: float, *, ties: Literal["interpolate", "raise"] = "interpolate") -> Cutoff:
        """Counts and every metric when flagging the top share ``rate`` of the samples.

        Parameters
        ----------
        rate : float
            Share of the total weight predicted positive, in [0, 1].
        ties : {"interpolate", "raise"}, default="interpolate"
            As in :meth:`at_top_k`.

        Returns
        -------
        Cutoff

        Raises
        ------
        ValueError
            If ``rate`` is not in [0, 1], ``ties`` is not an option, ``ties="raise"`` and
            the cut splits a tie, or the operating points have one class.

        Notes
        -----
        %(budget_note_method)s

        Examples
        --------
        >>> from isometrics import OperatingPoints
        >>> op = OperatingPoints.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> op.at_rate(0.5).recall
        0.5
        """
        return cut_at_rate(self, rate, ties)

    def gains_curve(self) -> GainsCurve:
        """Cumulative gains; see :func:`isometrics.spaces.gains_curve`."""
        self.require_both_classes("OperatingPoints.gains_curve")
        return self.get(GAINS)

    def lift_curve(self) -> LiftCurve:
        """Lift; see :func:`isometrics.spaces.lift_curve`."""
        self.require_both_classes("OperatingPoints.lift_curve")
        return self.get(LIFT)

    @validate_params(in_body("threshold_probability"), name="OperatingPoints.decision_curve")
    def decision_curve(self, threshold_probability: ArrayLike | None = None) -> DecisionCurve:
        """Net benefit against the threshold probability; see :func:`isometrics.spaces.decision_curve`."""
        return _decision_curve(self, threshold_probability)
