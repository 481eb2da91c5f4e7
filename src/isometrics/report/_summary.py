"""The report's opening: the decision under the chosen metric, and the glossary.

The summary renders :meth:`Recommendation.to_dict` (the very block the JSON carries), so the
page and the JSON show the same numbers; only their formatting happens here. The glossary
is :func:`~isometrics.report.glossary.glossary`, the demo's source too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from .._core.caller import current_caller
from ..evaluation import BinaryEvaluation
from ..exceptions import IsometricsError
from ..model_selection.recommendation import Recommendation
from ..uncertainty import formatting
from .glossary import glossary

#: The four outcomes, in the order a reader asks about them: (count key, words, what it is).
_OUTCOMES = (
    ("tp", "caught", "per 1,000 cases: positive cases flagged (true positives)"),
    ("fn", "missed", "per 1,000 cases: positive cases not flagged (false negatives)"),
    ("fp", "falsely flagged", "per 1,000 cases: negative cases flagged (false positives)"),
    ("tn", "correctly passed", "per 1,000 cases: negative cases not flagged (true negatives)"),
)


def _cell(value: Any, interval: dict[str, Any] | None, digits: int, scale: float = 1.0) -> dict[str, str]:
    """A shown value and its interval (``""`` without one); ``None`` (undefined) as "undefined"."""

    def one(x: Any) -> str:
        return formatting.number(None if x is None else scale * x, digits)

    shown = "" if interval is None else f"[{one(interval['low'])}, {one(interval['high'])}]"
    return {"value": one(value), "interval": shown}


def _column(d: dict[str, Any] | None, spec: str) -> dict[str, dict[str, str]]:
    """One estimate's cells, keyed as the page's rows; empty when there is no such estimate."""
    if d is None:
        return {}
    iv = d["intervals"]
    cells = {key: _cell(d["per_1000"][key], iv.get(f"{key}_per_1000"), 1) for key, _, _ in _OUTCOMES}
    cells["alert_rate"] = _cell(d["alert_rate"], iv.get("alert_rate"), 2, 100.0)
    cells["precision"] = _cell(d["precision"], iv.get("precision"), 1, 100.0)
    cells["recall"] = _cell(d["recall"], iv.get("recall"), 1, 100.0)
    cells["metric"] = _cell(d["metrics"][spec], iv.get(spec), 4)
    return cells


def _summary(summary: Recommendation | None, results: Sequence[BinaryEvaluation]) -> dict[str, Any] | None:
    """The template's view of ``summary`` (checked against ``results``), or None without one."""
    if summary is None:
        return None
    if not isinstance(summary, Recommendation):
        raise TypeError(
            f"{current_caller()}: `summary` must be a Recommendation (isometrics.model_selection.recommend); got "
            f"{type(summary).__name__}."
        )
    by_name = {r.name: r for r in results}
    spec = summary.metric.spec
    for name, value in summary.values.items():
        r = by_name.get(name)
        best = None if r is None else next((b for b in r.best if b.metric.spec == spec), None)
        if best is not None and not math.isclose(best.value, value, rel_tol=1e-9, abs_tol=1e-12):
            raise IsometricsError(
                f"{current_caller()}: `summary` gives {name!r} a best {spec} of {value!r}, the results "
                f"{best.value!r}; were they computed on other data? Recommend on the labels and "
                "scores that were evaluated."
            )
    if summary.model not in by_name:
        raise IsometricsError(
            f"{current_caller()}: `summary` recommends {summary.model!r}, which is not among the results "
            f"({', '.join(map(repr, by_name))}); recommend among the scorers evaluated."
        )
    d = summary.to_dict()  # the JSON's block: the page shows these numbers
    inside, cross = _column(d["in_sample"], spec), _column(d["cross_fitted"], spec)
    rows = [dict(key=key, words=words, what=what) for key, words, what in _OUTCOMES]
    rows += [
        dict(key="alert_rate", words="share of cases flagged (%)", what="of all cases"),
        dict(key="precision", words="precision (%)", what="of the flagged cases, the share that are positive"),
        dict(key="recall", words="recall (%)", what="of the positive cases, the share caught"),
        dict(key="metric", words=d["metric_label"], what="the metric the choice is made under"),
    ]
    cross_label = None if d["cross_fitted"] is None else d["cross_fitted"]["label"]
    return dict(
        model=d["model"],
        metric_label=d["metric_label"],
        metric_spec=spec,
        threshold=d["threshold"] if isinstance(d["threshold"], str) else formatting.threshold(d["threshold"]),
        rows=rows,
        in_sample=inside,
        cross=cross,
        in_sample_label=d["in_sample"]["label"],
        cross_label=cross_label,
        choice=d["choice"],
        verdicts=d["verdicts"],
        caveat=d["caveat"],
        intervals_note=d["intervals_note"],
    )


def _glossary() -> list[tuple[str, str]]:
    """The glossary's entries for the page, in reading order."""
    return list(glossary().items())
