"""The words of the report and of the demo, explained for a reader who never met them.

One source for the report's "How to read this report" section and the demo's "How to read
this" text (``isometrics demo``): :func:`glossary` gives each term's explanation, worded for
the cases at hand ("defaulter" in the demo, "positive case" in a report). Plain text: each
renderer escapes it for its medium. A new term goes in ``_ENTRIES``.
"""

from __future__ import annotations

__all__ = ["glossary"]

#: (term, explanation) with ``{pos}``, ``{poss}``, ``{neg}`` and ``{negs}`` for the cases' names.
_ENTRIES = (
    (
        "prevalence",
        "the share of {poss} among all cases. A score that ranks cases at random has an average "
        "precision about equal to it.",
    ),
    ("precision", "of the cases flagged, the share that really are {poss}."),
    ("recall", "of the {poss}, the share that are flagged (caught)."),
    (
        "AUROC",
        "area under the ROC curve: the chance that a random {pos} scores above a random {neg}. 0.5 is "
        "random, 1 is perfect. It weighs every threshold alike, so it says little about the top of the "
        "ranking, where the flagged cases are.",
    ),
    (
        "AP (average precision)",
        "the precision averaged over the recall levels at which each {pos} is found. It "
        "punishes false alarms among the top scores, which is what matters when {poss} "
        "are rare; a random score gets about the prevalence.",
    ),
    (
        "precision gain and recall gain",
        "precision and recall rescaled so that flagging every case scores 0 and a "
        "perfect result scores 1: gain = (value - prevalence) / ((1 - prevalence) "
        "x value). A negative gain is worse than flagging everyone. Gains measure "
        "a model against the trivial rule 'flag everyone' (Flach and Kull, 2015).",
    ),
    (
        "AUPRG",
        "area under the precision-recall-gain curve (recall gain across, precision gain up): 0 is no "
        "better than flagging everyone, 1 is perfect. When {poss} are rare, any precision well above the "
        "prevalence has a gain close to 1, so every useful model sits near 1: compare models by their "
        "differences, not by how close to 1 they are.",
    ),
    (
        "best threshold",
        "flag a case when its score is at or above the threshold. A metric's best threshold is "
        "the one where the metric is highest on these data. Chosen on the same data it is "
        "reported on, its value flatters the model; a cross-fitted estimate, which chooses on "
        "part of the rows and counts on the rest, does not.",
    ),
    (
        "F1, F2, F0.5",
        "F-scores combine precision and recall into one number. F1 weighs them equally; F2 counts "
        "recall more (a missed {pos} costs more than a false alarm); F0.5 counts precision more "
        "(false alarms cost more): their best thresholds differ accordingly. Fβ's β is the ratio "
        "of recall to precision at which a point of either is worth the same.",
    ),
    (
        "per 1,000 cases",
        "the rule's four outcomes scaled to 1,000 cases: caught ({poss} flagged: true "
        "positives), missed ({poss} not flagged: false negatives), falsely flagged ({negs} "
        "flagged: false positives) and correctly passed ({negs} not flagged: true negatives). "
        "They add up to 1,000 and show who lives with which error.",
    ),
    (
        "in sample and cross-fitted",
        "in sample: the threshold is chosen and counted on the same rows, which "
        "flatters it. Cross-fitted: the threshold is chosen on part of the rows and "
        "counted on the rest, each part in turn, as it would fare on new cases.",
    ),
    (
        "interval",
        "a bootstrap interval: the range a number takes over resamples of the cases (95 % of them, "
        "unless stated); a difference between two models whose interval covers 0 is not detected.",
    ),
)


def glossary(positive: str = "positive case", negative: str = "negative case") -> dict[str, str]:
    """Each term of the report with its plain-words explanation.

    Parameters
    ----------
    positive, negative : str, default="positive case", "negative case"
        What a case of each class is called, in the singular (the plural adds an "s").

    Returns
    -------
    dict of str to str
        Term to explanation (plain text, one or more sentences), in reading order:
        prevalence, precision, recall, AUROC, AP, precision and recall gain, AUPRG, best
        threshold, F1/F2/F0.5, per 1,000 cases, in sample and cross-fitted, interval.

    Examples
    --------
    >>> from isometrics.report.glossary import glossary
    >>> glossary("defaulter", "non-defaulter")["AUROC"].split(":")[1][:60]
    ' the chance that a random defaulter scores above a random no'
    """
    names = {"pos": positive, "poss": positive + "s", "neg": negative, "negs": negative + "s"}
    return {term: text.format(**names) for term, text in _ENTRIES}
