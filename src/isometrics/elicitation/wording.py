"""The words a stakeholder reads: an operating point as precision and recall and as counts per 1,000.

Shared by the terminal session and the interactive page, so that both say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


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
    return (
        f"of 1,000 cases flagged, {hit:,} are real positives and {1000 - hit:,} false alarms; "
        f"of 1,000 real positives, {found:,} are found and {1000 - found:,} missed"
    )


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


#: What beta is, for every rho != 0 (never "weight of recall": what a larger beta favours flips with rho's sign).
BETA_WORDS = "the recall/precision ratio R/P at which a point of either is worth the same"
#: What rho is, in words.
RHO_WORDS = (
    "how precision and recall combine: below 0 a weak one drags the score down (as in F-beta), "
    "above 0 a strong one makes up for a weak one"
)


def _at(question: Any) -> str:
    return f"R/P = {question.ratio:.3g} (precision {question.precision:.1%}, recall {question.recall:.1%})"


def answers_summary(steps: Sequence[Any]) -> tuple[str, ...]:
    """What the answers established, in plain words (no beta or rho).

    Parameters
    ----------
    steps : sequence of Step
        The answered questions (``Transcript.steps``).

    Returns
    -------
    tuple of str
        One sentence on the local answers (which gain was preferred, and up to which
        recall/precision ratio), one on the pairwise answers (how often the model with the
        higher recall was chosen); ``("No answers yet.",)`` without answers.

    Examples
    --------
    >>> from isometrics.elicitation import LocalQuestion, Step
    >>> from isometrics.elicitation.wording import answers_summary
    >>> answers_summary([Step(LocalQuestion(0.5, 0.8), "recall")])[0]
    'In the one local question you preferred a gain in recall, even at R/P = 1.6 (precision 50.0%, recall 80.0%): recall matters more to you than precision by at least R/P = 1.6.'

    """
    local = [s for s in steps if s.question.kind == "local"]
    pairwise = [s for s in steps if s.question.kind == "pairwise"]
    lines = []
    if local:
        rec = sorted((s.question for s in local if s.answer == "recall"), key=lambda q: q.ratio)
        pre = sorted((s.question for s in local if s.answer == "precision"), key=lambda q: q.ratio)
        n = len(local)
        every = {1: "the one local question", 2: "both local questions"}.get(n, f"all {n} local questions")
        if not pre:
            q = rec[-1]
            lines.append(
                f"In {every} you preferred a gain in recall, even at {_at(q)}: recall matters more to you "
                f"than precision by at least R/P = {q.ratio:.3g}."
            )
        elif not rec:
            q = pre[0]
            lines.append(
                f"In {every} you preferred a gain in precision, even at {_at(q)}: precision matters more to "
                f"you than recall by at least P/R = {1 / q.ratio:.3g}."
            )
        elif rec[-1].ratio < pre[0].ratio:
            lines.append(
                f"You preferred a gain in recall up to R/P = {rec[-1].ratio:.3g} and in precision from R/P = "
                f"{pre[0].ratio:.3g}: a point of either is worth the same to you between those ratios."
            )
        elif pre[-1].ratio < rec[0].ratio:
            lines.append(
                f"You preferred a gain in precision up to R/P = {pre[-1].ratio:.3g} and in recall from R/P = "
                f"{rec[0].ratio:.3g}: a point of either is worth the same to you between those ratios, and "
                "beyond them you favour whichever is already ahead."
            )
        else:
            lines.append(
                f"Your local answers cross (recall at {_at(rec[-1])}, precision at {_at(pre[0])}): "
                "see the contradictions."
            )
    if pairwise:
        n = len(pairwise)
        higher = sum(1 for s in pairwise if _chosen(s)[1] > _other(s)[1])
        lines.append(
            f"In {n} comparison{'s' if n > 1 else ''} you chose the model with the higher recall "
            f"{_times(higher)} and the one with the higher precision {_times(n - higher)}."
        )
    return tuple(lines) or ("No answers yet.",)


def _times(k: int) -> str:
    return "once" if k == 1 else f"{k} times"


def _chosen(step: Any) -> tuple[float, float]:
    return step.question.a if step.answer == "a" else step.question.b


def _other(step: Any) -> tuple[float, float]:
    return step.question.b if step.answer == "a" else step.question.a


def trivial_warning(precision: float, recall: float, flags: str) -> str:
    """The warning for a decision that flags everyone (``flags="everyone"``) or no one (``"no one"``).

    Parameters
    ----------
    precision, recall : float
        The decision's point (precision NaN when nothing is flagged).
    flags : {"everyone", "no one"}
        Which trivial decision.

    Returns
    -------
    str
        What the decision does, and what to do before deploying it.
    """
    if flags == "no one":
        return (
            "the metric picks a threshold that flags no case (recall 0 %): it decides nothing; check the answers "
            "and ask more questions before deploying it."
        )
    return (
        f"the metric picks the top-recall end of the curve (recall {recall:.1%}, its lowest precision "
        f"{precision:.1%}): that flags (nearly) every case, and your answers set no limit on the precision you "
        "would give up for recall; check this choice (ask more pairwise questions, or set a floor on "
        "precision) before deploying it."
    )


def regret_words(max_loss: float) -> str:
    """The decision's worst loss over the plausible metrics, in words.

    Parameters
    ----------
    max_loss : float
        ``Decision.max_loss``, in units of G (0 to 1).

    Returns
    -------
    str
        E.g. "whichever plausible metric is yours, this point scores at most 0.0227 below
        that metric's best point (on its 0-1 scale)".
    """
    return (
        f"whichever plausible metric is yours, this point scores at most {max_loss:.4f} below that metric's "
        "best point (on its 0-1 scale)"
    )
