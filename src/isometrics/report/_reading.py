"""The comparisons of the report and their reading: the paired differences taken from
:class:`~isometrics.ScoreComparison` or :class:`~isometrics.PairedBootstrapResult`, and the
sentences that say which model is better on which measure, and how surely.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..evaluation import BinaryEvaluation, ScoreComparison
from ..exceptions import IsometricsError
from ..metrics.registry import Metric
from ..uncertainty.comparison import PairedBootstrapResult
from ..uncertainty.intervals import BootstrapResult
from ._text import _AREAS, _bests, _count, _fmt, _pct


# ---------------------------------------------------------------------------- comparisons
@dataclass(frozen=True)
class _Diff:
    """One paired difference ``a - b`` of a statistic, with its interval and p-value."""

    key: str
    a: str
    b: str
    estimate: float
    low: float
    high: float
    level: float
    p_value: float
    n_replicates: int

    def flipped(self) -> _Diff:
        return _Diff(self.key, self.b, self.a, -self.estimate, -self.high, -self.low, self.level, self.p_value,
                     self.n_replicates)


def _key_of(statistic: str) -> str:
    """The report's key of a compared statistic: an area's name or a metric's spec."""
    suffix = " at its best threshold"
    return statistic[: -len(suffix)] if statistic.endswith(suffix) else statistic


def _diff(key: str, a: str, b: str, r: BootstrapResult, p: float) -> _Diff:
    low, high = r.confidence_interval
    return _Diff(key, a, b, float(r.estimate), float(low), float(high), float(r.confidence_level), float(p),
                 len(r.bootstrap_distribution))


def _comparisons(comparisons: Any, values: dict[str, dict[str, float]]) -> tuple[list[_Diff], list[Any]]:
    """The paired differences of ``comparisons`` (checked against the results), and DeLong tests."""
    caller = "build_report"
    if comparisons is None:
        return [], []
    items = [comparisons] if isinstance(comparisons, (ScoreComparison, PairedBootstrapResult)) else comparisons
    if not isinstance(items, Sequence) or isinstance(items, str):
        raise TypeError(f"{caller}: `comparisons` must be a ScoreComparison (compare_scores), a "
                        "PairedBootstrapResult (bootstrap_compare) or a list of them; got "
                        f"{type(comparisons).__name__}.")
    diffs: list[_Diff] = []
    delong: list[Any] = []
    for item in items:
        if isinstance(item, ScoreComparison):
            a, b = item.names
            diffs += [_diff(_key_of(k), a, b, r, item.p_values[k]) for k, r in item.differences.items()]
            if item.delong is not None:  # a Wald interval at the comparison's level
                level = next((r.confidence_level for r in item.differences.values()), math.nan)
                delong.append((a, b, item.delong, level))
        elif isinstance(item, PairedBootstrapResult):
            diffs += [_diff(_key_of(item.statistic), a, b, r, item.p_values[(a, b)])
                      for (a, b), r in item.differences.items()]
        else:
            raise TypeError(f"{caller}: every item of `comparisons` must be a ScoreComparison (compare_scores) or a "
                            f"PairedBootstrapResult (bootstrap_compare); got {type(item).__name__}.")
    for d in diffs:
        for name in (d.a, d.b):
            if name not in values:
                raise IsometricsError(f"{caller}: `comparisons` compare {name!r}, which is not among the results "
                                      f"({', '.join(map(repr, values))}); compare the scorers that were evaluated.")
        va, vb = values[d.a].get(d.key), values[d.b].get(d.key)
        if va is None or vb is None or not (va == va and vb == vb):
            continue
        if not math.isclose(d.estimate, va - vb, rel_tol=1e-9, abs_tol=1e-12):
            raise IsometricsError(
                f"{caller}: the comparison of {d.a!r} and {d.b!r} gives {d.key} difference {d.estimate!r}, but the "
                f"results give {va!r} - {vb!r} = {va - vb!r}; were they computed on other data? Compare the same "
                "labels, scores and weights that were evaluated."
            )
    return diffs, delong


# ---------------------------------------------------------------------------- reading
def _better(d: _Diff, sign: float) -> str:
    """Where the interval of ``a - b`` lies: "ahead", "behind" or "tie" (covers 0)."""
    low, high = sign * d.low, sign * d.high
    low, high = min(low, high), max(low, high)
    if low > 0:
        return "ahead"
    if high < 0:
        return "behind"
    return "tie"


def _measure_sentence(what: str, key: str, sign: float, values: dict[str, dict[str, float]],
                      lookup: dict[tuple[str, str, str], _Diff]) -> str:
    """One measure: the values, and what the paired intervals say about the leader."""
    names = [n for n in values if values[n].get(key, math.nan) == values[n].get(key, math.nan)]
    order = sorted(names, key=lambda n: -sign * values[n][key])
    if len(order) < 2:
        return f"By {what}: " + ", ".join(f"{n} {_fmt(values[n][key])}" for n in values) + "."
    listing = ", ".join(f"{n} {_fmt(values[n][key])}" for n in order)
    leader = order[0]
    parts, untested = [], []
    for other in order[1:]:
        d = lookup.get((key, leader, other))
        if d is None:
            untested.append(other)
            continue
        interval = f"{_pct(d.level)} CI {_fmt(d.low)} to {_fmt(d.high)}, p = {d.p_value:.2g}"
        where = _better(d, sign)
        if where == "tie":
            parts.append(f"no detectable difference between {leader} and {other} (difference "
                         f"{_fmt(d.estimate)}; the {_pct(d.level)} CI, {_fmt(d.low)} to {_fmt(d.high)}, covers 0; "
                         f"p = {d.p_value:.2g})")
        elif where == "ahead":
            parts.append(f"{leader} is ahead of {other} by {_fmt(abs(d.estimate))} ({interval})")
        else:
            parts.append(f"the interval of {leader} - {other} lies on {other}'s side ({interval}): the paired "
                         "bootstrap does not support the order of the point estimates")
    if untested:
        parts.append(f"{leader} against {', '.join(untested)} was not tested (no paired comparison given), "
                     "so no winner is declared there")
    return f"By {what}: {listing}; " + "; ".join(parts) + "."


def _reading(results: list[BinaryEvaluation], metrics: list[Metric], values: dict[str, dict[str, float]],
             diffs: list[_Diff]) -> list[str]:
    """Plain-language sentences: every comparison rests on a paired interval, or is not made."""
    note = ("The best thresholds were chosen on the same data their values are reported on, so those values are "
            "optimistic: validate a chosen threshold on held-out data before relying on it.")
    if len(results) == 1:
        r = results[0]
        sentences = [f"{r.name} ranks a random positive above a random negative {100 * r.auroc:.1f} % of the time "
                     f"(AUROC); its average precision is {r.average_precision:.3f} against {r.prevalence:.3f} for "
                     "a random ranking."]
        for m, b in zip(metrics, _bests(r, metrics)):
            sentences.append(
                f"At its best threshold for {m.label} ({b.threshold:.4g}) it flags {_count(b.tp + b.fp)} of "
                f"{_count(r.n_positives + r.n_negatives)}, catching {100 * b.recall:.1f} % of the positives with "
                f"precision {100 * b.precision:.1f} %."
            )
        return sentences + [note]
    lookup = {(d.key, d.a, d.b): d for d in diffs} | {(d.key, d.b, d.a): d.flipped() for d in diffs}
    measures = [(f"{label}", key, 1.0) for key, label in _AREAS.items()]
    measures += [(f"{m.label} at each model's best threshold", m.spec, 1.0 if m.greater_is_better else -1.0)
                 for m in metrics]
    sentences = [_measure_sentence(what, key, sign, values, lookup) for what, key, sign in measures]
    if not diffs:
        sentences.append("No paired comparison was computed, so no difference above was tested and no model is "
                         "declared better (isometrics compare, or isometrics report, computes them).")
    # the measures disagree only where detected differences of one pair point in opposite directions
    for a, b in itertools.combinations(list(values), 2):
        ahead: list[str] = []
        behind: list[str] = []
        for what, key, sign in measures:
            d = lookup.get((key, a, b))
            where = "tie" if d is None else _better(d, sign)
            if where == "ahead":
                ahead.append(what)
            elif where == "behind":
                behind.append(what)
        if ahead and behind:
            sentences.append(
                f"The measures disagree: {a} is ahead of {b} by {', '.join(ahead)} but behind it by "
                f"{', '.join(behind)} (each of these paired intervals excludes 0). AUROC weighs every threshold "
                "alike, while average precision and the threshold metrics care about the top of the ranking; "
                "choose by the measure that matches the cost of errors in your setting."
            )
    return sentences + [note]
