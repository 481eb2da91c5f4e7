"""Input checks shared by the uncertainty entry points: confidence levels, score columns,
the binary target and weights, resample counts, the weight kind, and the progress bar.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, Boolean, Checked, InBody, Options, RandomState, user_stacklevel
from .._core.validation import (
    as_1d,
    as_array,
    as_sample_weight,
    check_binary_target,
    check_both_classes,
    check_consistent_length,
    check_integer,
    check_option,
    check_real,
    check_sample_weight,
    check_scores,
    frame_columns,
)
from .._typing import WEIGHT_KIND_OPTIONS, ArrayLike, FloatArray
from ..exceptions import (
    InvalidParameterError,
    IsometricsError,
    WeightKindWarning,
)
from ..spaces.operating_points import OperatingPoints
from ._adjustment import check_adjustment

_NORMAL = NormalDist()


def check_confidence_level(confidence_level: Any, caller: str | None = None) -> float:
    """Check a ``confidence_level`` argument: a real number strictly between 0 and 1.

    Parameters
    ----------
    confidence_level : Any
        The argument as given.
    caller : str or None, default=None
        The name messages start with (``Checked`` passes one); the declared function's by default.

    Returns
    -------
    float
        The level, in (0, 1).

    Raises
    ------
    InvalidParameterError
        If it is not a real number, or not strictly between 0 and 1.
    """
    return check_real(
        confidence_level,
        "confidence_level",
        caller=caller,
        low=0.0,
        high=1.0,
        low_inclusive=False,
        high_inclusive=False,
    )


def _group_of(op: OperatingPoints, scores: FloatArray) -> np.ndarray:
    """0-based tie-group index (in decreasing score order) of each sample's score."""
    ascending = op.thresholds[:0:-1]  # distinct scores, increasing
    position = np.searchsorted(ascending, scores)
    return len(ascending) - 1 - np.minimum(position, len(ascending) - 1)


_PROBA_HINT = "for predict_proba output pass proba[:, 1], the positive class's column"


def check_score_column(values: Any, *, name: str = "y_score") -> FloatArray:
    """Check one column of scores: 1-D, numeric and finite, as :func:`check_scores` checks it.

    Parameters
    ----------
    values : array-like of shape (n_samples,)
        The scores as given.
    name : str, default="y_score"
        The parameter named in any message.

    Returns
    -------
    ndarray of float64 of shape (n_samples,)
        The scores.

    Raises
    ------
    IsometricsError
        As :func:`check_scores` raises; for a 2-D array of two or more columns the message
        also says to pass ``predict_proba``'s positive column.
    """
    try:
        return check_scores(values, name=name)
    except IsometricsError as exc:
        shape: tuple[int, ...] | None = getattr(values, "shape", None)
        if shape is None:
            try:
                shape = np.shape(values)
            except ValueError:  # ragged nesting: no shape
                shape = ()
        if len(shape) == 2 and shape[1] >= 2 and "predict_proba" not in str(exc):
            raise IsometricsError(f"{str(exc).rstrip('.')}; {_PROBA_HINT}.") from None
        raise


def _score_columns(y_score: Any) -> dict[str, FloatArray]:
    """The validated score columns of a multi-scorer function, by name.

    A mapping of name to column; a data frame (pandas, Polars, pyarrow Table), its column
    names kept; a 2-D array, one column per scorer (named ``score_0``, ``score_1``, ...);
    or one 1-D column (named ``score``). Every column goes through
    :func:`check_score_column`. Two columns that sum to 1 in every row are one model's
    ``predict_proba`` output, not two scorers, and are refused.
    """
    columns = frame_columns(y_score)
    if columns is not None:
        if not columns:
            raise IsometricsError(
                f"{current_caller()}: `y_score` is a data frame with no columns; pass one score column per scorer."
            )
        y_score = columns
    if isinstance(y_score, Mapping):
        if not y_score:
            raise IsometricsError(
                f"{current_caller()}: `y_score` is an empty mapping; pass one score column per scorer."
            )
        return {str(k): check_score_column(v, name=f"score column {k!r}") for k, v in y_score.items()}
    if y_score is None:
        return {"score": check_score_column(y_score)}
    arr = as_array(y_score, name="y_score", shape="(n_samples,) or (n_samples, n_scorers)")
    if arr.ndim == 1:
        return {"score": check_score_column(arr)}
    if arr.ndim == 2:
        if arr.shape[1] == 2 and _is_probability_pair(arr):
            raise IsometricsError(
                f"{current_caller()}: the 2 columns of `y_score` sum to 1 in every row, as predict_proba output does: they "
                f"are one model's class probabilities, not two scorers; {_PROBA_HINT}, and stack the positive "
                "columns of the models to compare (or pass a mapping of name to column)."
            )
        return {
            f"score_{j}": check_score_column(arr[:, j], name=f"score column 'score_{j}'") for j in range(arr.shape[1])
        }
    raise IsometricsError(
        f"{current_caller()}: `y_score` must be 1-D, 2-D (one column per scorer) or a mapping of name to "
        f"column; got an array of shape {arr.shape}."
    )


def _is_probability_pair(arr: np.ndarray) -> bool:
    if not np.issubdtype(arr.dtype, np.floating) or arr.shape[0] == 0:
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.all((arr >= 0) & (arr <= 1)) and np.all(np.abs(arr.sum(axis=1) - 1.0) <= 1e-9))


class BinaryInputs(NamedTuple):
    """Validated inputs of a binary uncertainty function."""

    is_pos: np.ndarray
    scores: dict[str, FloatArray]
    weights: FloatArray | None


def check_binary_inputs(
    y_true: ArrayLike, scores: dict[str, FloatArray], sample_weight: ArrayLike | None, pos_label: Any
) -> BinaryInputs:
    """Check the labels and weights of a binary uncertainty function together with its score columns.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The labels, binary.
    scores : dict of str to ndarray of float64
        Score columns already checked (:func:`check_score_column`); a single column is
        keyed ``"score"`` and named ``y_score`` in messages.
    sample_weight : array-like of shape (n_samples,) or None
        Non-negative sample weights, or ``None``.
    pos_label : Any
        The positive class, or ``None`` to infer it from {0, 1}, {-1, 1} or {False, True}.

    Returns
    -------
    BinaryInputs
        ``is_pos`` (bool, one per sample), the ``scores`` as given and the checked
        ``weights`` (``None`` when none were given).

    Raises
    ------
    IsometricsError
        If the lengths differ, the labels are not binary (or ``pos_label`` is not among
        them), the weights are invalid, or either class is missing or weighs nothing.
    """
    y = as_1d(y_true, name="y_true")
    w = as_sample_weight(sample_weight)
    lengths = {"y_score" if list(scores) == ["score"] else f"score column {k!r}": v for k, v in scores.items()}
    check_consistent_length(None, **{"y_true": y, "sample_weight": w, **lengths})
    is_pos, pos_label = check_binary_target(y, pos_label=pos_label)
    weights = check_sample_weight(w, len(y))
    check_both_classes(is_pos, weights, pos_label=pos_label, needs="the statistics need both classes.")
    return BinaryInputs(is_pos, scores, weights)


MAX_RESAMPLES = 10_000_000
"""The most resamples any interval or test takes: beyond it the Monte Carlo error is far below every
other error, and the replicate table would not fit in memory."""


def check_n_resamples(n_resamples: Any, caller: str | None = None) -> int:
    """Check an ``n_resamples`` argument: an integer from 2 to :data:`MAX_RESAMPLES`.

    Parameters
    ----------
    n_resamples : Any
        The argument as given.
    caller : str or None, default=None
        The name messages start with (``Checked`` passes one); the declared function's by default.

    Returns
    -------
    int
        The number of resamples.

    Raises
    ------
    InvalidParameterError
        If it is not an integer, or out of [2, MAX_RESAMPLES].
    """
    return check_integer(n_resamples, "n_resamples", caller=caller, low=2, high=MAX_RESAMPLES)


_EXACT_COUNTS = 2.0**53  # float64 holds every integer up to here


def check_weight_kind(weight_kind: Any, caller: str | None = None) -> str | None:
    """Check a ``weight_kind`` argument: ``"sampling"``, ``"frequency"`` or ``None`` (as :func:`resolve_weight_kind`).

    Parameters
    ----------
    weight_kind : Any
        The argument as given.
    caller : str or None, default=None
        The name messages start with (``Checked`` passes one); the declared function's by default.

    Returns
    -------
    str or None
        The weight kind.

    Raises
    ------
    InvalidParameterError
        If it is not one of them.
    """
    return check_option(weight_kind, "weight_kind", (*WEIGHT_KIND_OPTIONS, None), caller=caller)  # type: ignore[no-any-return]


def resolve_weight_kind(weight_kind: Any, weights: FloatArray | None, stacklevel: int) -> str | None:
    """Resolve the kind of weights a bootstrap resamples, checked against the weights.

    Parameters
    ----------
    weight_kind : {"sampling", "frequency"} or None
        The argument as given. ``None`` resamples as ``"sampling"`` and warns
        (:class:`WeightKindWarning`) when the positive weights are whole numbers that are
        not all equal: they may be frequencies.
    weights : ndarray of float64 of shape (n_samples,) or None
        The checked sample weights, or ``None``.
    stacklevel : int
        The warning's stack level, pointing at the user's call.

    Returns
    -------
    str or None
        ``"sampling"`` or ``"frequency"``; ``None`` when there are no weights.

    Raises
    ------
    InvalidParameterError
        If ``weight_kind`` is not an option, or is ``"frequency"`` with weights that are
        not whole numbers or that add up beyond 2**53.
    """
    check_option(weight_kind, "weight_kind", (*WEIGHT_KIND_OPTIONS, None))
    if weights is None:
        return None
    whole = weights == np.floor(weights)
    if weight_kind == "frequency":
        if not whole.all():
            first = int(np.flatnonzero(~whole)[0])
            raise InvalidParameterError(
                f"{current_caller()}: weight_kind='frequency' needs whole-number sample_weight (each row stands for that many "
                f"identical samples); got {float(weights[first])!r} at index {first} ({int((~whole).sum())} non-integer "
                "values). Pass weight_kind='sampling' for sampling or importance weights."
            )
        total = float(weights.sum())
        if total > _EXACT_COUNTS:
            raise InvalidParameterError(
                f"{current_caller()}: the frequencies in sample_weight add up to {total:.6g} samples, beyond 2**53 where "
                "counts stop being exact; frequencies this large are not counts of rows: pass "
                "weight_kind='sampling'."
            )
        return "frequency"
    if weight_kind is None:
        positive = weights[weights > 0]
        if positive.min() != positive.max() and whole.all() and positive.max() <= _EXACT_COUNTS:
            warnings.warn(
                f"{current_caller()}: sample_weight holds whole numbers that are not all equal; they are taken as sampling "
                "weights (weight_kind='sampling': the rows are the units of the interval, each carrying its "
                "weight). If each row stands for that many identical samples, pass weight_kind='frequency' (the "
                "intervals differ greatly); pass weight_kind='sampling' to silence this warning.",
                WeightKindWarning,
                stacklevel=user_stacklevel(stacklevel),
            )
    return "sampling"


class _Bootstrap(NamedTuple):
    """Validated inputs of a bootstrap: the data, and the checked parameters."""

    data: BinaryInputs
    level: float
    n_resamples: int
    weight_kind: str | None


def _bootstrap_iv(
    y_true: ArrayLike,
    scores: dict[str, FloatArray],
    sample_weight: ArrayLike | None,
    pos_label: Any,
    n_resamples: Any,
    confidence_level: Any,
    method: Any,
    weight_kind: Any,
    stacklevel: int = 4,
) -> _Bootstrap:
    """Every input of a bootstrap checked before anything is computed (``scores`` already validated).

    ``stacklevel`` (here and in the helpers below) is that of the warnings, counted from the
    helper that warns: 4 points at the caller of a public function calling this directly.
    """
    data = check_binary_inputs(y_true, scores, sample_weight, pos_label)
    n = check_n_resamples(n_resamples)
    level = check_confidence_level(confidence_level)
    check_option(method, "method", ("percentile", "basic", "bca"))
    kind = resolve_weight_kind(weight_kind, data.weights, stacklevel)
    return _Bootstrap(data, level, n, kind)


def _progress(total: int, description: str) -> Any:
    """A Rich progress bar when Rich is installed and the output is a terminal, else nothing."""
    try:
        from rich.progress import Progress
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    import sys

    if not sys.stderr.isatty():
        return None
    from rich.console import Console

    progress = Progress(console=Console(stderr=True), transient=True)
    progress.start()
    progress.add_task(description, total=total)
    return progress


#: The parameters of the resampling functions (bootstrap, bootstrap_compare, compare_scores...), declared once.
RESAMPLING = {
    "n_resamples": Checked(check_n_resamples, "an integer from 2", invalid=[1, 2.5]),
    "confidence_level": Checked(check_confidence_level, "a real number in (0, 1)", invalid=[1.0, 0]),
    "sample_weight": [ARRAY, None],
    "weight_kind": InBody("'sampling', 'frequency' or None", invalid=["weights"]),
    "pos_label": POS_LABEL,
    "rng": RandomState(),
    "progress": Boolean(),
}

#: ``weight_kind`` checked before the call, for the functions that use it only with some arguments (decide, recommend).
WEIGHT_KIND = Checked(check_weight_kind, "'sampling', 'frequency' or None", invalid=["weights"])

#: The parameters bootstrap_compare and compare_scores share, and those of each.
COMPARED = {
    "y_true": ARRAY,
    "y_score": InBody("score columns: a mapping, a data frame or a 2-D array"),
    "baseline": InBody("the name of a score column, or None"),
    "adjustment": Checked(check_adjustment, "'holm', 'bonferroni' or 'none'", invalid=["sidak"]),
}
COMPARED_BOOTSTRAP = {
    "statistics": InBody("a statistic or a sequence of them", invalid=[["no-such-metric"]]),
    "threshold": InBody("a threshold or None"),
    "method": Options("percentile", "basic", "bca"),
    "stratified": Boolean(),
}
COMPARED_SCORES = {
    "score_b": [ARRAY, None],
    "names": InBody("two names, or None"),
    "metrics": InBody("a sequence of metric names or Metrics", invalid=[["no-such-metric"]]),
}
