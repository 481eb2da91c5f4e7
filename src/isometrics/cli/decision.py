"""``evaluate --threshold T`` / ``--top-k K``: the decision handed over, per score column.

With a rule, each score column gets the operating point of that rule (counts per 1,000
cases, alert rate, precision, recall, specificity, F1 and each --metric), with paired
bootstrap intervals under --ci. Without one, each --metric's best threshold is described
twice: in sample (chosen on these data: optimistic) and cross-fitted on the scores
(chosen on k - 1 folds, counted on the held-out fold). The library does the work
(:func:`isometrics.decide`); this module checks the options, prints and shapes the JSON.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..exceptions import IsometricsError
from ..metrics.registry import Metric
from ..model_selection.decisions import Decision, decide
from ..model_selection.recommendation import Recommendation, recommend
from ..uncertainty import formatting
from ._console import markup
from ._format import new_table

__all__ = ["N_SPLITS", "check_rule", "decisions", "decision_json", "print_decisions", "summary_of"]

#: Folds of the cross-fitted estimate of a best threshold.
N_SPLITS = 5


def check_rule(threshold: float | None, top_k: float | None) -> dict[str, Any] | None:
    """The rule of ``--threshold``/``--top-k`` as ``decide`` keywords, or None; one-line errors for bad values."""
    if threshold is not None and top_k is not None:
        raise IsometricsError(
            f"give --threshold or --top-k, not both (got --threshold {threshold:g} and --top-k "
            f"{top_k:g}): a decision is one rule."
        )
    if threshold is not None:
        if math.isnan(threshold):
            raise IsometricsError("--threshold must be a number (rows with score >= it are flagged); got nan.")
        return {"threshold": threshold}
    if top_k is not None:
        if math.isnan(top_k) or math.isinf(top_k) or top_k <= 0:
            raise IsometricsError(
                f"--top-k must be a number of rows > 0 (the K highest-scored rows are flagged); got {top_k:g}."
            )
        return {"top_k": top_k}
    return None


def decisions(
    y: Any,
    scores: Mapping[str, Any],
    names: Sequence[str],
    weights: Any,
    pos: Any,
    metrics: Sequence[Metric],
    rule: dict[str, Any] | None,
    n_resamples: int | None,
    seed: int | None,
    weight_options: dict[str, Any],
) -> list[tuple[str, Decision]]:
    """``(score column, decision)`` pairs: the rule's, or each metric's in-sample and cross-fitted estimates.

    The folds and the bootstrap are seeded by ``seed`` (0 when None: the same folds every run).
    """
    rng = 0 if seed is None else seed
    smallest = int(min(np.unique(np.asarray(y), return_counts=True)[1]))
    out: list[tuple[str, Decision]] = []
    for name in names:
        s = scores[name]
        if rule is not None:
            if "top_k" in rule:
                total = len(s) if weights is None else float(sum(weights))
                if rule["top_k"] > total:
                    raise IsometricsError(
                        f"--top-k {rule['top_k']:g} exceeds the {total:g} rows"
                        f"{' (total weight)' if weights is not None else ''} scored; give at most "
                        f"{total:g}."
                    )
            options = weight_options if n_resamples is not None else {}
            out += [
                (name, d)
                for d in decide(
                    y,
                    s,
                    **rule,
                    metrics=metrics,
                    sample_weight=weights,
                    pos_label=pos,
                    n_resamples=n_resamples,
                    rng=rng,
                    **options,
                )
            ]
        else:
            folds = min(N_SPLITS, smallest)  # tiny data: fewer folds; under 2 in a class: in sample only
            for m in metrics:
                out += [
                    (name, d)
                    for d in decide(
                        y, s, metric=m, cv=folds if folds >= 2 else None, sample_weight=weights, pos_label=pos, rng=rng
                    )
                ]
    return out


def summary_of(
    y: Any,
    scores: Mapping[str, Any],
    weights: Any,
    pos: Any,
    metric: Metric,
    comparison: Any,
    n_resamples: int | None,
    seed: int | None,
    weight_options: dict[str, Any],
) -> Recommendation:
    """The report's summary: the model best under ``metric``, its rule in sample (intervals with
    ``n_resamples``) and cross-fitted on the folds ``decisions`` uses, and the comparison's verdicts."""
    smallest = int(min(np.unique(np.asarray(y), return_counts=True)[1]))
    folds = min(N_SPLITS, smallest)
    options = weight_options if n_resamples is not None else {}
    return recommend(
        y,
        scores,
        metric=metric,
        comparison=comparison,
        cv=folds if folds >= 2 else None,
        sample_weight=weights,
        pos_label=pos,
        n_resamples=n_resamples,
        rng=0 if seed is None else seed,
        **options,
    )


def print_decisions(console: Any, entries: list[tuple[str, Decision]]) -> None:
    """Per rule, two tables: the rates (with intervals when computed), then the counts per 1,000 cases."""
    rules = list(dict.fromkeys(d.rule for _, d in entries))
    for rule in rules:
        rows = [(name, d) for name, d in entries if d.rule == rule]
        cross = any(d.estimate == "cross-fitted" for _, d in rows)
        how = "in sample vs cross-fitted" if cross else rows[0][1].label
        rates = new_table(console, f"Decision: {markup(rule)} ({markup(how)})")
        counts = new_table(console, f"Decision: {markup(rule)}, per 1,000 cases")
        for table in (rates, counts):
            table.add_column("score", style="bold")
            if cross:
                table.add_column("estimate")
        for header in ("threshold", "alert rate", "precision", "recall", "F1"):
            rates.add_column(header, justify="right")
        for header in ("TP", "FP", "FN", "TN", "specificity"):
            counts.add_column(header, justify="right")
        for name, d in rows:
            first = [markup(name)] + ([d.estimate] if cross else [])
            rates.add_row(
                *first,
                formatting.threshold(d.threshold),
                *(
                    formatting.with_interval(getattr(d, r), d.intervals.get(r))
                    for r in ("alert_rate", "precision", "recall", "f1")
                ),
            )
            per = d.per_1000
            counts.add_row(
                *first,
                *(f"{per[c]:,.1f}" for c in ("tp", "fp", "fn", "tn")),
                formatting.with_interval(d.specificity, d.intervals.get("specificity")),
            )
        console.print(rates)
        console.print(counts)
        extra = [spec for spec in dict.fromkeys(s for _, d in rows for s in d.values) if spec != "f1"]
        for spec in extra:
            values = "; ".join(
                f"{markup(name)}{f' ({d.estimate})' if cross else ''}: "
                f"{formatting.with_interval(d.values[spec], d.intervals.get(spec))}"
                for name, d in rows
            )
            console.print(f"[dim]{markup(spec)} at this rule: {values}[/dim]")
        if cross:
            n_splits = next(d.n_splits for _, d in rows if d.n_splits)
            console.print(
                "[dim]in-sample: the threshold was chosen on these data (optimistic); cross-fitted: "
                f"chosen on {n_splits - 1} of {n_splits} folds and counted on the held-out fold (pooled), "
                "as it would do on new data.[/dim]"
            )
        elif any(d.intervals for _, d in rows):
            interval = next(iter(next(d for _, d in rows if d.intervals).intervals.values()))
            note = formatting.interval_note(interval, extra=", paired over the models", after=" at this fixed rule.")
            console.print(f"[dim]{markup(note)}[/dim]")


def decision_json(entries: list[tuple[str, Decision]]) -> list[dict[str, Any]]:
    """The JSON ``decision`` block: one entry per score column and estimate."""
    return [{"score": name, **d.to_dict()} for name, d in entries]
