"""The counts every label metric of ``classification`` starts from, and its zero division and averaging.

``y_true, y_pred -> ClassCounts`` per class, per label (multilabel) or per sample (``average="samples"``),
validated once (``_prepare``); a ratio of counts made a score with its zero division and average
(``_ratio_score``, ``_finish``). The public functions and their documentation are in ``classification``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.confusion import ClassCounts, check_label_pair, class_counts_of_pair, multilabel_sample_counts
from .._core.constraints import ARRAY, POS_LABEL, ZERO_DIVISION, Interval, Options, Real, user_stacklevel
from .._core.validation import check_option, check_pos_label, check_zero_division
from .._typing import AVERAGE_OPTIONS, ArrayLike, FloatArray
from ..exceptions import IsometricsError
from .averaging import average as _average
from .averaging import resolve

__all__: list[str] = []


#: The parameters every label metric of ``classification`` takes, declared once.
LABEL_METRIC = {
    "y_true": ARRAY,
    "y_pred": ARRAY,
    "labels": [ARRAY, None],
    "pos_label": POS_LABEL,
    "average": [Options(*AVERAGE_OPTIONS), None],
    "sample_weight": [ARRAY, None],
    "zero_division": ZERO_DIVISION,
}
#: F-beta's ``beta``: in [0, inf].
BETA = Interval(Real, 0, None, allow_inf=True)


def _prepare(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None,
    pos_label: Any,
    average: str | None,
    sample_weight: ArrayLike | None,
    zero_division: Any,
) -> tuple[ClassCounts, str | None, FloatArray | None]:
    """Validated counts for ``average``: per class, per label (multilabel) or per sample ("samples").

    Returns the counts, the average and the sample weights (used by ``"samples"`` only).
    """
    if average is not None:
        check_option(average, "average", AVERAGE_OPTIONS)
    check_zero_division(zero_division)
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight, multilabel=True)
    if average != "binary" and pos_label not in (None, 1):
        warnings.warn(
            f"{current_caller()}: pos_label={pos_label!r} is ignored when average != 'binary' (got {average!r}); "
            "pass labels=[pos_label] to score that class alone.",
            UserWarning,
            stacklevel=user_stacklevel(3),
        )
    if yt.ndim == 2:
        if average == "binary":
            raise IsometricsError(
                f"{current_caller()}: y_true and y_pred are multilabel indicator matrices (shape {yt.shape}), for which "
                "average='binary' is undefined; pass average='micro', 'macro', 'weighted', 'samples' or None."
            )
        if average == "samples":
            return multilabel_sample_counts(yt, yp, labels), average, w
        return class_counts_of_pair(yt, yp, w, labels), average, None
    if average == "samples":
        raise IsometricsError(
            f"{current_caller()}: average='samples' averages over the labels of each sample, which needs multilabel data "
            "(2-D indicator matrices); with one label per sample use 'micro' (it equals accuracy), 'macro', "
            "'weighted' or None."
        )
    if average == "binary":  # ``labels`` is ignored, as in scikit-learn
        return _binary_counts(yt, yp, w, pos_label), average, None
    return class_counts_of_pair(yt, yp, w, labels), average, None


def _binary_counts(yt: np.ndarray, yp: np.ndarray, w: FloatArray | None, pos_label: Any) -> ClassCounts:
    check_pos_label(pos_label)
    counts_all = class_counts_of_pair(yt, yp, w, None)
    present = counts_all.labels
    if len(present) > 2:
        raise IsometricsError(
            f"{current_caller()}: the labels have {len(present)} classes but average='binary' takes two; "
            "pass average='micro', 'macro', 'weighted' or None."
        )
    found = np.flatnonzero(present == pos_label)
    if len(found):
        k = slice(found[0], found[0] + 1)
        return ClassCounts(present[k], counts_all.tp[k], counts_all.fp[k], counts_all.fn[k], counts_all.tn[k])
    if len(present) >= 2:
        raise IsometricsError(
            f"{current_caller()}: pos_label={pos_label!r} is not a label (labels: {list(present.tolist())}); "
            "pass one of them as pos_label."
        )
    # one class, and it is not pos_label: the positive class is absent, so all samples are negatives
    total = counts_all.tp[:1] + counts_all.fp[:1] + counts_all.fn[:1] + counts_all.tn[:1]
    zero = np.zeros(1)
    return ClassCounts(np.asarray([pos_label]), zero, zero.copy(), zero.copy(), total)


def _why(why: str, average: str | None) -> str:
    """The warning's condition, per label ("labels with no predicted samples") or per sample."""
    if average != "samples":
        return why
    return why.replace("samples", "@").replace("labels", "samples").replace("@", "labels")


def _finish(
    values: FloatArray, counts: ClassCounts, average: str | None, zero_division: Any, sample_weight: FloatArray | None
) -> Any:
    if average == "binary":
        return float(values[0])
    return _average(values, counts, average, zero_division=zero_division, sample_weight=sample_weight)


def _pooled(counts: ClassCounts) -> ClassCounts:
    return ClassCounts(
        labels=counts.labels[:0],
        tp=np.atleast_1d(counts.tp.sum()),
        fp=np.atleast_1d(counts.fp.sum()),
        fn=np.atleast_1d(counts.fn.sum()),
        tn=np.atleast_1d(counts.tn.sum()),
    )


def _silent(zero_division: Any) -> Any:
    return 0.0 if isinstance(zero_division, str) else zero_division


def _ratio_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    labels: ArrayLike | None,
    pos_label: Any,
    average: str | None,
    sample_weight: ArrayLike | None,
    zero_division: Any,
    kernel: Callable[..., FloatArray],
    what: str,
    why: str,
) -> Any:
    counts, average, sw = _prepare(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    if average == "micro":
        p = _pooled(counts)
        return float(resolve(kernel(p.tp, p.fp, p.fn, p.tn), zero_division=zero_division, what=what, why=why)[0])
    values = resolve(
        kernel(counts.tp, counts.fp, counts.fn, counts.tn),
        zero_division=zero_division,
        what=what,
        why=_why(why, average),
    )
    return _finish(values, counts, average, zero_division, sw)
