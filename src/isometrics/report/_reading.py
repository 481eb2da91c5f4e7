"""The comparisons of the report and their reading: the rows of
:class:`~isometrics.uncertainty.ModelComparison` (from ``compare_scores`` or ``bootstrap_compare``), whose
decisions and sentences (:meth:`ComparisonRow.sentence`) the page shows as they are, and the
summary of each measure built around them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from .._core.caller import current_caller
from ..evaluation import BinaryEvaluation
from ..exceptions import IsometricsError
from ..metrics.registry import Metric
from ..uncertainty import formatting
from ..uncertainty.model_comparison import ComparisonRow, ModelComparison
from ._text import _AREAS, _bests


# ---------------------------------------------------------------------------- comparisons
def _comparisons(
    comparisons: Any, values: dict[str, dict[str, float]]
) -> tuple[list[ComparisonRow], list[ComparisonRow], list[str]]:
    """The bootstrap rows and DeLong rows of ``comparisons`` (checked against the results), and each
    comparison's policy in words."""
    if comparisons is None:
        return [], [], []
    items = [comparisons] if isinstance(comparisons, ModelComparison) else comparisons
    if not isinstance(items, Sequence) or isinstance(items, str):
        raise TypeError(
            f"{current_caller()}: `comparisons` must be a ModelComparison (compare_scores, bootstrap_compare) or "
            f"a list of them; got {type(comparisons).__name__}."
        )
    rows: list[ComparisonRow] = []
    delong: list[ComparisonRow] = []
    policies: list[str] = []
    for item in items:
        if not isinstance(item, ModelComparison):
            raise TypeError(
                f"{current_caller()}: every item of `comparisons` must be a ModelComparison (compare_scores, "
                f"bootstrap_compare); got {type(item).__name__}."
            )
        rows += item.rows
        delong += item.delong
        policies.append(item.family())
    for d in rows:
        for name in (d.a, d.b):
            if name not in values:
                raise IsometricsError(
                    f"{current_caller()}: `comparisons` compare {name!r}, which is not among the results "
                    f"({', '.join(map(repr, values))}); compare the scorers that were evaluated."
                )
        va, vb = values[d.a].get(d.statistic), values[d.b].get(d.statistic)
        if va is None or vb is None or not (va == va and vb == vb):
            continue
        if not math.isclose(d.estimate, va - vb, rel_tol=1e-9, abs_tol=1e-12):
            raise IsometricsError(
                f"{current_caller()}: the comparison of {d.a!r} and {d.b!r} gives {d.statistic} difference {d.estimate!r}, but "
                f"the results give {va!r} - {vb!r} = {va - vb!r}; were they computed on other data? Compare the same "
                "labels, scores and weights that were evaluated."
            )
    return rows, delong, list(dict.fromkeys(policies))


def _table_rows(rows: list[ComparisonRow], labels: dict[str, str]) -> list[dict[str, str]]:
    """The cells of the page's table of comparisons, one row per :class:`ComparisonRow`."""
    out = []
    for r in rows:
        statistic = labels.get(r.statistic, r.label) + (" (DeLong's test)" if r.test == "DeLong" else "")
        n = "" if r.bootstrap is None else f"{len(r.bootstrap.bootstrap_distribution):,}"
        cells = formatting.comparison_cells(r)
        out.append(
            dict(
                a=r.a,
                b=r.b,
                statistic=statistic,
                difference=cells["difference"],
                interval=f"{cells['low']} to {cells['high']}",
                level=formatting.level(r.confidence_level),
                adjusted=f"{cells['adjusted_low']} to {cells['adjusted_high']}",
                p=cells["p_value"],
                adjusted_p=cells["adjusted_p_value"],
                decision=cells["decision"],
                replicates=n,
            )
        )
    return out


# ---------------------------------------------------------------------------- reading
def _where(d: ComparisonRow | None, first: str) -> str:
    """What the row decided about ``first``: "ahead", "behind" or "tie" (no detectable difference)."""
    if d is None or d.winner is None:
        return "tie"
    return "ahead" if d.winner == first else "behind"


def _measure_sentence(
    what: str,
    key: str,
    sign: float,
    values: dict[str, dict[str, float]],
    lookup: dict[tuple[str, str, str], ComparisonRow],
) -> str:
    """One measure: the values, and for the leader against each other model the comparison's own sentence."""
    names = [n for n in values if values[n].get(key, math.nan) == values[n].get(key, math.nan)]
    order = sorted(names, key=lambda n: -sign * values[n][key])
    if len(order) < 2:
        return f"By {what}: " + ", ".join(f"{n} {formatting.number(values[n][key])}" for n in values) + "."
    listing = ", ".join(f"{n} {formatting.number(values[n][key])}" for n in order)
    leader = order[0]
    parts, untested = [], []
    for other in order[1:]:
        d = lookup.get((key, leader, other))
        if d is None:
            untested.append(other)
            continue
        parts.append(
            d.sentence()
            + (
                ": the paired bootstrap does not support the order of the point estimates"
                if _where(d, leader) == "behind"
                else ""
            )
        )
    if untested:
        parts.append(
            f"{leader} against {', '.join(untested)} was not tested (no paired comparison given), "
            "so no winner is declared there"
        )
    return f"By {what}: {listing}; " + "; ".join(parts) + "."


def _reading(
    results: list[BinaryEvaluation],
    metrics: list[Metric],
    values: dict[str, dict[str, float]],
    diffs: list[ComparisonRow],
) -> list[str]:
    """Plain-language sentences: every comparison rests on a paired interval, or is not made."""
    note = (
        "The best thresholds were chosen on the same data their values are reported on, so those values are "
        "optimistic: validate a chosen threshold on held-out data before relying on it."
    )
    if len(results) == 1:
        r = results[0]
        sentences = [
            f"{r.name} ranks a random positive above a random negative {100 * r.auroc:.1f} % of the time "
            f"(AUROC); its average precision is {r.average_precision:.3f} against {r.prevalence:.3f} for "
            "a random ranking."
        ]
        for m, b in zip(metrics, _bests(r, metrics)):
            sentences.append(
                f"At its best threshold for {m.label} ({b.threshold:.4g}) it flags {formatting.count(b.tp + b.fp)} of "
                f"{formatting.count(r.n_positives + r.n_negatives)}, catching {100 * b.recall:.1f} % of the positives with "
                f"precision {100 * b.precision:.1f} %."
            )
        return sentences + [note]
    lookup = {(d.statistic, d.a, d.b): d for d in diffs} | {(d.statistic, d.b, d.a): d for d in diffs}
    measures = [(f"{label}", key, 1.0) for key, label in _AREAS.items()]
    measures += [
        (f"{m.label} at each model's best threshold", m.spec, 1.0 if m.greater_is_better else -1.0) for m in metrics
    ]
    sentences = [_measure_sentence(what, key, sign, values, lookup) for what, key, sign in measures]
    if not diffs:
        sentences.append(
            "No paired comparison was computed, so no difference above was tested and no model is "
            "declared better (isometrics compare, or isometrics report, computes them)."
        )
    # the measures disagree only where detected differences of one pair point in opposite directions
    for a, b in itertools.combinations(list(values), 2):
        ahead: list[str] = []
        behind: list[str] = []
        for what, key, _sign in measures:
            d = lookup.get((key, a, b))
            where = _where(d, a)
            if where == "ahead":
                ahead.append(what)
            elif where == "behind":
                behind.append(what)
        if ahead and behind:
            sentences.append(
                f"The measures disagree: {a} is ahead of {b} by {', '.join(ahead)} but behind it by "
                f"{', '.join(behind)} (each of these differences is detected). AUROC weighs every threshold "
                "alike, while average precision and the threshold metrics care about the top of the ranking; "
                "choose by the measure that matches the cost of errors in your setting."
            )
    return sentences + [note]
