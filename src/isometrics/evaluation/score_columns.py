"""The full binary evaluation of one or more score columns in memory (:func:`evaluate_scores`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import (
    ARRAY,
    POS_LABEL,
    Boolean,
    Checked,
    InBody,
    RandomState,
    String,
    user_stacklevel,
    validate_params,
)
from .._core.docstrings import fill_doc
from .._core.parallel import check_n_jobs, ordered_map
from .._core.sorting import choose_sort
from .._core.validation import (
    as_1d,
    as_sample_weight,
    check_binary_target,
    check_both_classes,
    check_consistent_length,
    check_rng,
    check_sample_weight,
    frame_columns,
)
from .._typing import WEIGHT_KINDS, ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from ..spaces._column_summary import ColumnSummary, summarise_column
from ..spaces.operating_points import OperatingPoints
from ..uncertainty._inputs import check_confidence_level, check_n_resamples, check_score_column, resolve_weight_kind
from ..uncertainty.groups import check_groups, evaluate_groups
from ..uncertainty.intervals import bootstrap_statistics, resolve_statistic
from ..uncertainty.model_comparison import check_adjustment
from ..uncertainty.resampling import Resampler
from .results import BinaryEvaluation, Evaluations

__all__ = ["evaluate_scores"]


@validate_params(
    {
        "y_true": ARRAY,
        "scores": InBody("a mapping of name to score column, or a data frame of score columns", invalid=[[0.1, 0.2]]),
        "metrics": InBody("a sequence of metric names or Metrics", invalid=[["no-such-metric"]]),
        "sample_weight": [ARRAY, None],
        "weight_kind": InBody("'sampling', 'frequency' or None"),
        "pos_label": POS_LABEL,
        "n_resamples": [Checked(check_n_resamples, "an integer from 2", invalid=[1, 2.5]), None],
        "confidence_level": Checked(check_confidence_level, "a real number in (0, 1)", invalid=[1.0, 0]),
        "rng": RandomState(),
        "progress": Boolean(),
        "keep_operating_points": Boolean(),
        "groups": [ARRAY, None],
        "group_name": String(),
        "adjustment": Checked(check_adjustment, "'holm', 'bonferroni' or 'none'", invalid=["sidak"]),
        "n_jobs": [Checked(check_n_jobs, "a positive integer or -1", invalid=[0, -2]), None],
    }
)
@fill_doc
def evaluate_scores(
    y_true: ArrayLike,
    scores: Mapping[str, ArrayLike] | Any,
    *,
    metrics: Sequence[str | Metric] = ("f1",),
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
    progress: bool = False,
    keep_operating_points: bool = True,
    groups: ArrayLike | None = None,
    group_name: str = "group",
    adjustment: str = "holm",
    n_jobs: int | None = -1,
) -> Evaluations:
    """Evaluate several score columns against one label column.

    For each scorer: prevalence, AUROC, average precision, AUPRG and, for each metric,
    the threshold that maximises it with the metric's value, precision and recall. Each
    scorer's operating points are built once and everything is derived from them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    scores : data frame or mapping of str to array-like of shape (n_samples,)
        Score columns by name; higher means more likely positive. A data frame
        (pandas, Polars, pyarrow Table) gives its columns, named as in the frame.
    metrics : sequence of str or Metric, default=("f1",)
        Metrics whose best thresholds to report; see :func:`isometrics.parse_metric`.
    %(binary_weight)s
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means to the resampling. ``"frequency"``: each row
        stands for ``w`` identical samples (whole-number weights), and those
        ``sum(w)`` samples are resampled, exactly as if the data were expanded to one
        row per sample. ``"sampling"``: sampling or importance weights; the rows are
        resampled, each carrying its weight. ``None``: as ``"sampling"``, with a
        ``WeightKindWarning`` when the weights are whole numbers that are not all
        equal. Point estimates are the same for both kinds; the intervals differ.
    %(binary_pos_label)s
    n_resamples : int, default=None
        When given (an integer >= 2), add percentile bootstrap intervals (this many
        replicates) of the areas and of each metric at its re-optimised best
        threshold. ``None``: no intervals.
    confidence_level : float, default=0.95
        Of those intervals, in (0, 1).
    rng : numpy.random.Generator or int, default=None
        Randomness of the bootstrap.
    progress : bool, default=False
        Show progress bars during the bootstrap.
    keep_operating_points : bool, default=True
        ``True``: each result keeps its scorer's full :class:`OperatingPoints`. ``False``
        (bounded memory, what ``isometrics evaluate`` uses): the columns are read,
        validated and evaluated one at a time, and each result keeps only a display
        subset of its operating points (every ROC and PRG hull vertex, each best
        point, and up to 10,000 points evenly spaced in threshold order), so that
        peak memory does not grow with the number of columns (it grows with ``n_jobs``:
        one column per thread). The reported numbers
        are the same; the subset's curves are exact at the points kept, its areas
        are not the data's (read the result's ``auroc``...). ``scores`` may then be
        a mapping that loads a column when it is looked up.
    groups : array-like of shape (n_samples,), default=None
        Each sample's group (region, site, sex...). When given, each result's ``groups``
        is a :class:`GroupEvaluation`: per group every area, the precision, recall and
        alert rate at the first metric's global best threshold, the threshold best within
        the group, and (with ``n_resamples``) intervals and each group's difference from
        the rest, tested under ``adjustment``. Groups with fewer than 10 rows of a class
        get estimates and a note instead of intervals. At most 1,000 distinct groups.
    group_name : str, default="group"
        The groups' name in the results (the column they came from).
    adjustment : {"holm", "bonferroni", "none"}, default="holm"
        With ``groups``: how the p-values of one statistic are adjusted over the groups
        tested against the rest, the policy of :func:`compare_scores`.
    n_jobs : int or None, default=-1
        Threads that evaluate score columns at the same time, scikit-learn's convention:
        ``-1`` one per CPU this process may use, ``None`` or ``1`` one column at a time,
        at most one per column in any case. The sort, the count table, the areas and the
        best points of each column run in its thread (NumPy and Polars release the GIL
        there); with ``n_resamples`` or ``groups`` the bootstrap and the groups run in the
        calling thread, column after column, while the threads build the next columns'
        tables. Results and errors are those of one column at a time, in column order,
        bit for bit, and so are the warnings (given in the calling thread); only the time
        changes. Memory: up to ``n_jobs`` columns (with their sorted copies) are in memory
        at once, also with ``keep_operating_points=False`` (one more with ``n_resamples``
        or ``groups``: the one being resampled). Other negative values
        (scikit-learn's "all CPUs but some") are refused. Source: the GIL-free steps are
        measured in ``docs/performance.md``; ``benchmarks/bench_columns.py`` times them.

    Returns
    -------
    Evaluations
        A sequence of :class:`BinaryEvaluation`, one per score column in the given
        order, also looked up by name, with ``to_pandas()``, ``to_polars()`` and
        ``to_dict()``.

    Raises
    ------
    TypeError
        If ``keep_operating_points`` is not a bool.
    InvalidParameterError
        If ``n_jobs`` is not a positive integer, -1 or None; if ``n_resamples`` is
        neither None nor an integer >= 2, ``confidence_level`` is not in (0, 1),
        ``weight_kind`` is unknown, or ``"frequency"`` with weights that are not whole
        numbers; if ``groups`` is a string (a column name, not its
        values), not 1-D or of another length, or ``adjustment`` is unknown.
    IsometricsError
        If ``groups`` has missing values (NaN or None) or more than 1,000 distinct values.
    ValueError
        If ``scores`` is neither a mapping nor a data frame, or is empty; if ``metrics`` is not a sequence
        (a lone string) or one of its metrics cannot be parsed; if ``y_true`` has one
        class; if a score column is not 1-D (for ``predict_proba`` output pass
        ``proba[:, 1]``); and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores` (the message names the offending score
        column). Everything is validated before anything is computed (with
        ``keep_operating_points=False``, each score column just before it is evaluated).

    Warns
    -----
    WeightKindWarning
        With ``n_resamples``, as :func:`bootstrap`.
    UndefinedMetricWarning
        If a group holds one class only (its areas are ``None``; it is not tested).

    Examples
    --------
    >>> from isometrics import evaluate_scores
    >>> results = evaluate_scores([0, 0, 1, 1], {"model": [0.1, 0.4, 0.35, 0.8]}, metrics=["f1"])
    >>> r = results["model"]
    >>> r.auroc, round(r.average_precision, 4), r.best[0].threshold
    (0.75, 0.8333, 0.35)
    """
    columns = frame_columns(scores)
    if columns is not None:
        scores = columns
    if not isinstance(scores, Mapping):
        raise InvalidParameterError(
            f"{current_caller()}: `scores` must be a mapping of name to score column (e.g. "
            f"{{'model': y_score}}) or a data frame of score columns; got a "
            f"{type(scores).__name__}."
        )
    if not scores:
        raise IsometricsError(f"{current_caller()}: `scores` is empty: no score columns given; pass at least one.")
    if not isinstance(keep_operating_points, (bool, np.bool_)):
        raise TypeError(
            f"{current_caller()}: `keep_operating_points` must be True or False; got {keep_operating_points!r}."
        )
    jobs = check_n_jobs(n_jobs)
    parsed = parse_metric_arguments(metrics)
    y = as_1d(y_true, name="y_true")
    w = as_sample_weight(sample_weight)
    checked: dict[str, Any] = {name: None for name in scores}  # None: validated when evaluated
    if keep_operating_points:  # every column validated before anything is computed

        def check(name: str) -> FloatArray:
            return check_score_column(scores[name], name=f"score column {name!r}")

        checked = dict(zip(scores, ordered_map(check, list(scores), min(jobs, len(scores)), ahead=None)))
        check_consistent_length(**{"y_true": y, "sample_weight": w, **{f"score {k!r}": v for k, v in checked.items()}})
    else:
        check_consistent_length(y_true=y, sample_weight=w)
    is_pos, pos_label = check_binary_target(y, pos_label=pos_label)
    weights = check_sample_weight(w, len(y))
    del y_true, sample_weight, w, y  # only the validated labels and weights stay alive
    kind = None
    if n_resamples is not None:
        n_resamples = check_n_resamples(n_resamples)
        confidence_level = check_confidence_level(confidence_level)
        kind = resolve_weight_kind(weight_kind, weights, stacklevel=3)
    else:  # no resampling: nothing to warn about, but the kind is checked and reported
        kind = resolve_weight_kind("sampling" if weight_kind is None else weight_kind, weights, stacklevel=3)
    check_both_classes(
        is_pos,
        weights,
        pos_label=pos_label,
        needs="ROC, PR and PRG analysis needs both classes: check the label column and --pos-label.",
    )
    by = None if groups is None else check_groups(groups, len(is_pos))
    if by is not None:
        check_adjustment(adjustment)
        if not parsed:
            raise InvalidParameterError(
                f"{current_caller()}: `groups` compares each group at the threshold best for the first "
                "metric, and `metrics` is empty; pass at least one metric, e.g. "
                "metrics=['f1']."
            )
    deferred = n_resamples is not None or by is not None  # what needs the column and the rng: this thread, in order
    lean = not keep_operating_points

    def engine(name: str) -> tuple[str, OperatingPoints, Any, ColumnSummary | None]:
        """One column's sort and count table and, unless deferred, its areas and best points (any thread)."""
        s = checked.pop(name)  # the result keeps no reference to the column
        if s is None:  # one column at a time: read (when scores loads lazily), checked, evaluated, released
            s = check_score_column(scores[name], name=f"score column {name!r}")
            check_consistent_length(None, **{"y_true": is_pos, f"score {name!r}": s})
        # Unless needed below, the column is handed over (a list): freed once its sort keys exist.
        handed, s = ([s], None) if lean and not deferred else (s, s)
        op = OperatingPoints.from_validated(is_pos, handed, weights, pos_label)
        del handed
        if deferred:
            return name, op, s, None
        done = summarise_column(op, parsed, lean, weights)
        return name, done.operating_points, None, done  # lean: the display subset (degenerate points are kept whole)

    results = []
    workers = min(jobs, len(checked))
    if workers > 1 and len(is_pos) >= _TIMED_SORT_SAMPLES:
        choose_sort()  # timed here, once per process, while the other cores are idle (not beside a running column)
    # Unless deferred, a thread that finishes a column starts the next one at once, even before the caller takes
    # the columns ahead of it: a finished result is small (lean) or kept anyway. Deferred, a finished result holds
    # the column and its full table until the calling thread resamples it: one per thread at most.
    ahead = 0 if deferred else None
    for name, op, s, done in ordered_map(engine, list(checked), workers, on_error=_name_column, ahead=ahead):
        op.warn_if_degenerate(f"score column {name!r}", stacklevel=user_stacklevel(2) + 1)
        intervals: dict[str, Any] = {}
        by_group = None
        if done is None:  # the bootstrap and the groups draw from `rng` column after column, as in a loop
            intervals = _intervals(op, is_pos, s, weights, parsed, n_resamples, confidence_level, rng, progress, kind)
            done = summarise_column(op, parsed, lean, weights)
            by_group = (
                None
                if by is None
                else evaluate_groups(
                    op,
                    is_pos,
                    np.asarray(s, dtype=np.float64),
                    weights,
                    *by,
                    score=name,
                    column=group_name,
                    metrics=parsed,
                    threshold=done.best[0].threshold,
                    n_resamples=n_resamples,
                    level=confidence_level,
                    rng=check_rng(rng),
                    weight_kind=kind if n_resamples is not None else None,
                    adjustment=adjustment,
                )
            )
        del s, op  # not needed below: the summary holds what the result keeps
        results.append(
            BinaryEvaluation(
                name=name,
                n_samples=len(is_pos),
                n_positives=done.n_positives,
                n_negatives=done.n_negatives,
                prevalence=done.prevalence,
                auroc=done.auroc,
                average_precision=done.average_precision,
                auprg=done.auprg,
                best=done.best,
                operating_points=done.operating_points,
                intervals=intervals,
                weight_kind=kind,
                groups=by_group,
            )
        )
        del done  # the full operating points (lean) freed before the next column is read
    return Evaluations(tuple(results))


def _name_column(name: str, exc: BaseException) -> None:
    """Name the score column an exception was raised for (a note, Python >= 3.11), unless its message does."""
    if f"{name!r}" not in str(exc) and hasattr(exc, "add_note"):
        exc.add_note(f"(raised while evaluating score column {name!r})")


#: Rows from which the engine sorts packed keys with the sort :func:`choose_sort` times (its first call).
_TIMED_SORT_SAMPLES = 50_000


def _intervals(
    op: OperatingPoints,
    is_pos: Any,
    s: Any,
    weights: Any,
    metrics: list[Metric],
    n_resamples: int | None,
    level: float,
    rng: Any,
    progress: bool,
    weight_kind: str | None,
) -> dict[str, Any]:
    """Bootstrap intervals of the areas and of each metric at its best threshold, from one set
    of replicates drawn on the operating points already built (no second sort). The
    parameters were checked by the caller."""
    if n_resamples is None:
        return {}
    named = [resolve_statistic(a, None, None) for a in ("auroc", "average_precision", "auprg")]
    named += [(m.spec, resolve_statistic("metric", m, None)[1], False) for m in metrics]
    resampler = Resampler(is_pos, s, weights, False, op=op, frequency=weight_kind == "frequency")
    return dict(
        bootstrap_statistics(
            resampler,
            is_pos,
            s,
            weights,
            named,
            n_resamples,
            level,
            "percentile",
            check_rng(rng),
            progress,
            weight_kind=weight_kind,
            stacklevel=5,
        )
    )
