"""The words a stakeholder reads: an operating point as precision and recall and as counts per 1,000.

Shared by the terminal session and the interactive page, so that both say the same thing.
"""

from __future__ import annotations


def per_thousand(precision: float, recall: float) -> str:
    """An operating point as counts per 1,000 cases.

    Parameters
    ----------
    precision, recall : float
        The point, each in [0, 1].

    Returns
    -------
    str
        E.g. "of 1,000 cases flagged, 620 are real positives and 380 false alarms; of 1,000
        real positives, 360 are found and 640 missed".

    Examples
    --------
    >>> from isometrics.elicitation.wording import per_thousand
    >>> per_thousand(0.90, 0.36)
    'of 1,000 cases flagged, 900 are real positives and 100 false alarms; of 1,000 real positives, 360 are found and 640 missed'
    """
    hit, found = round(1000 * precision), round(1000 * recall)
    return (f"of 1,000 cases flagged, {hit:,} are real positives and {1000 - hit:,} false alarms; "
            f"of 1,000 real positives, {found:,} are found and {1000 - found:,} missed")


def describe(precision: float, recall: float) -> str:
    """``"precision 90.0 %, recall 36.0 % (of 1,000 cases flagged, ...)"``.

    Parameters
    ----------
    precision, recall : float
        The point, each in [0, 1].

    Returns
    -------
    str
        The point as percentages and as counts per 1,000.
    """
    return f"precision {100 * precision:.1f} %, recall {100 * recall:.1f} % ({per_thousand(precision, recall)})"
