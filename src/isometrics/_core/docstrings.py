"""Parameter descriptions shared by families of public functions: one source of text.

Docstrings hold ``%(name)s`` placeholders that :func:`fill_doc` replaces, so that a
parameter shared across a family reads the same everywhere (a test checks it too).
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any, TypeVar

from .bounds import BOUND_NOTE, BUDGET_NOTE

F = TypeVar("F", bound=Callable[..., Any])

SHARED_DOC = {
    # binary scorers
    "binary_data": """y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite.""",
    "binary_weight": """sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.""",
    "weight_kind": """weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means to the resampling. ``"frequency"``: each row
        stands for ``w`` identical samples (whole-number weights), and those
        ``sum(w)`` samples are resampled, exactly as if the data were expanded to one
        row per sample. ``"sampling"``: sampling or importance weights; the rows are
        resampled, each carrying its weight. ``None``: as ``"sampling"``, with a
        ``WeightKindWarning`` when the weights are whole numbers that are not all
        equal. Point estimates are the same for both kinds; the intervals differ.""",
    "binary_pos_label": """pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).""",
    # constrained operating points (filled below)
    "binary_raises": """ValueError
        If ``y_true`` has one class, and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores`.""",
    # hard predictions
    "data": """y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix of 0 and 1 (one column per
        label; SciPy sparse matrices accepted). A column vector (n, 1) is raveled.
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted labels, in the format of ``y_true``.""",
    "data_1d": """y_true : array-like of shape (n_samples,)
        True labels (a column vector (n, 1) is raveled).
    y_pred : array-like of shape (n_samples,)
        Predicted labels.""",
    "labels": """labels : array-like of shape (n_labels,), default=None
        Classes to include when ``average != "binary"``, in this order (absent classes
        allowed, not empty); for multilabel data, column indices. ``None``: the sorted
        union of the labels in ``y_true`` and ``y_pred`` (every column).""",
    "pos_label": """pos_label : int, float, bool or str, default=1
        The positive class when ``average="binary"`` (scikit-learn's default of 1, kept
        for compatibility); ignored otherwise.""",
    "average": """average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        ``"binary"``: the value for ``pos_label`` only (two classes at most).
        ``"micro"``: pool the counts of all selected classes, then take the ratio.
        ``"macro"``: unweighted mean of the per-class values. ``"weighted"``: mean
        weighted by each class's support. ``"samples"`` (multilabel data only): the
        value of each sample over its labels, averaged with the sample weights.
        ``None``: the per-class values.""",
    "sample_weight": """sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.""",
    "zero_division": """zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a 0/0 ratio. ``"warn"`` gives 0.0 and an ``UndefinedMetricWarning``.
        With ``np.nan``, macro and weighted averages leave undefined classes out.""",
    "raises": """ValueError
        If the inputs are empty or differ in length, mix label types, or hold what is
        not a class label: continuous values (floats that are not whole numbers, such
        as probabilities: threshold them first, see :func:`isometrics.best_threshold`),
        NaN, bytes, complex numbers, missing values or one sequence per sample; if the
        weights are negative, non-finite, complex or all zero; if ``labels`` is empty;
        if ``average="binary"`` with more than two classes or multilabel data, or
        ``pos_label`` is not a label or is bytes; if ``average="samples"`` without
        multilabel data; if ``average`` or ``zero_division`` is not an accepted value;
        for multilabel data, if a matrix holds values other than 0 and 1, the matrices
        differ in their number of columns, only one of them is 2-D, or ``labels`` holds
        what is not a column index.""",
    "returns": """float or ndarray of shape (n_labels,), float64
        In [0, 1], higher is better; per class (in ``labels`` order) when
        ``average=None``, else a float.""",
}


_CONSTRAINED = """
    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite.
    {param}
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {{0, 1}}, {{-1, 1}} or {{False, True}} (positive: 1 or True).

    Returns
    -------
    OperatingPoint
        The chosen observed threshold with its precision, recall, FPR, specificity and
        counts.

    Raises
    ------
    InvalidParameterError
        If the constraint is not a number in [0, 1].
    ValueError
        {raises}If ``y_true`` has one class, and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores`.

    See Also
    --------
    RocHull.max_precision_at_recall : randomised optima over the ROC convex hull, which
        can beat every observed threshold (also ``max_recall_at_precision``,
        ``min_fpr_at_tpr``).

    Notes
    -----
    {note}
"""
SHARED_DOC["bound_note"] = "\n    ".join(textwrap.wrap(BOUND_NOTE, 84))
SHARED_DOC["budget_note"] = "\n    ".join(textwrap.wrap(BUDGET_NOTE, 84))
#: The same notes for methods (indented one level more).
SHARED_DOC["bound_note_method"] = "\n        ".join(textwrap.wrap(BOUND_NOTE, 80))
SHARED_DOC["budget_note_method"] = "\n        ".join(textwrap.wrap(BUDGET_NOTE, 80))
SHARED_DOC["constrained"] = _CONSTRAINED.format(
    note=SHARED_DOC["bound_note"], param="min_recall : float\n        Lowest acceptable recall, in [0, 1].", raises=""
)
SHARED_DOC["constrained_rp"] = _CONSTRAINED.format(
    note=SHARED_DOC["bound_note"],
    param="min_precision : float\n        Lowest acceptable precision, in [0, 1].",
    raises="If no threshold reaches ``min_precision`` (the message gives the highest). ",
)
SHARED_DOC["constrained_ss"] = _CONSTRAINED.format(
    note=SHARED_DOC["bound_note"],
    param="min_sensitivity : float\n        Lowest acceptable sensitivity (recall, TPR), in [0, 1].",
    raises="",
)


def fill_doc(func: F) -> F:
    """Replace the ``%(name)s`` placeholders of ``func``'s docstring with the shared text."""
    if func.__doc__:
        func.__doc__ = func.__doc__ % SHARED_DOC
    return func
