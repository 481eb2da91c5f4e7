"""``isometrics compare``: paired comparisons of any number of score columns, Holm-adjusted.

Every pair (or each model against ``--baseline``) is compared by
:func:`isometrics.compare_scores` (paired bootstrap of every statistic, DeLong's test of the
AUROCs); the p-values of each statistic are adjusted over the pairs by
:func:`isometrics.holm_adjust`.
"""

from __future__ import annotations

import os
from itertools import combinations
from pathlib import Path
from typing import Any

from .._core.outputs import json_text, staged_outputs
from ..evaluation import compare_scores
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..uncertainty.multiple_testing import holm_adjust
from ._console import make_console, markup
from ._format import IN_SAMPLE, fmt, new_table
from ._io import coerce_label, read_columns

__all__ = ["compare_file", "pairs_of"]


def pairs_of(scores: list[str], baseline: str | None) -> list[tuple[str, str]]:
    """The pairs compared: every two columns in the order given, or each column against ``baseline``.

    Against a baseline the difference is ``column - baseline``, so a positive difference
    favours the column.
    """
    if len(scores) < 2 or len(set(scores)) != len(scores):
        raise IsometricsError(f"compare needs at least two different --score columns; got {scores}.")
    if baseline is None:
        return list(combinations(scores, 2))
    if baseline not in scores:
        raise IsometricsError(f"--baseline {baseline!r} is not one of the --score columns ({', '.join(scores)}); "
                              "name one of them.")
    return [(name, baseline) for name in scores if name != baseline]


def _holm(results: list[Any]) -> tuple[dict[str, list[float]], list[float | None]]:
    """Holm-adjusted p-values of each statistic over the pairs, and of DeLong's tests (where run)."""
    keys = list(results[0].p_values)
    adjusted = {key: holm_adjust([r.p_values[key] for r in results]).tolist() for key in keys}
    ran = [k for k, r in enumerate(results) if r.delong is not None]
    delong: list[float | None] = [None] * len(results)
    for k, p in zip(ran, holm_adjust([results[k].delong.p_value for k in ran]).tolist()):
        delong[k] = p
    return adjusted, delong


_AREA_LABELS = {"auroc": "AUROC", "average_precision": "average precision", "auprg": "AUPRG"}


def _sentence(a: str, b: str, key: str, r: Any, p: float) -> str:
    """One plain sentence per statistic: who is ahead and by how much, or that the interval covers 0."""
    label, higher_is_better = _AREA_LABELS.get(key), True
    if label is None:
        try:
            metric = parse_metric(key)
            label, higher_is_better = metric.label, metric.greater_is_better
        except (ValueError, TypeError):
            label = key
    low, high = r.confidence_interval
    level = f"{100 * r.confidence_level:g} % CI"
    if low <= 0.0 <= high:
        return (f"no detectable difference between {markup(a)} and {markup(b)} on {markup(label)} "
                f"(difference {r.estimate:+.3f}, {level} {low:.3f} to {high:.3f} covers 0; p = {p:.2g})")
    first_ahead = (r.estimate > 0) == higher_is_better
    winner, loser = (a, b) if first_ahead else (b, a)
    size, lo, hi = (r.estimate, low, high) if r.estimate > 0 else (-r.estimate, -high, -low)
    return (f"{markup(winner)} beats {markup(loser)} on {markup(label)} by {size:.3f}, {level} {lo:.3f} to "
            f"{hi:.3f} (p = {p:.2g})")


def _print_one_pair(console: Any, file: Path, result: Any, n_resamples: int) -> None:
    a, b = result.names
    table = new_table(console, f"{markup(file.name)}: {markup(a)} - {markup(b)} "
                               f"(paired bootstrap, {n_resamples} replicates)")
    for header in ("statistic", "difference", "CI low", "CI high", "p-value"):
        table.add_column(header, justify="right" if header != "statistic" else "left")
    for key, r in result.differences.items():
        table.add_row(markup(key), fmt(r.estimate), fmt(r.confidence_interval[0]),
                      fmt(r.confidence_interval[1]), f"{result.p_values[key]:.4f}")
    if result.delong is not None:
        d = result.delong
        table.add_row("auroc (DeLong)", fmt(d.difference), fmt(d.confidence_interval[0]),
                      fmt(d.confidence_interval[1]), f"{d.p_value:.4g}")
    console.print(table)
    for key, r in result.differences.items():
        console.print("- " + _sentence(a, b, key, r, result.p_values[key]))


def _print_many(console: Any, file: Path, results: list[Any], adjusted: dict[str, list[float]],
                delong: list[float | None], n_resamples: int) -> None:
    console.print(f"[bold]{markup(file.name)}[/bold]: {len(results)} paired comparisons "
                  f"(paired bootstrap, {n_resamples} replicates)")
    for key in results[0].differences:
        table = new_table(console, f"{markup(key)}: differences")
        for header in ("pair", "difference", "CI low", "CI high", "p-value", "Holm p"):
            table.add_column(header, justify="right" if header != "pair" else "left")
        for k, r in enumerate(results):
            d = r.differences[key]
            table.add_row(f"{markup(r.names[0])} - {markup(r.names[1])}", fmt(d.estimate),
                          fmt(d.confidence_interval[0]), fmt(d.confidence_interval[1]), f"{r.p_values[key]:.4f}",
                          f"{adjusted[key][k]:.4f}")
        console.print(table)
        for k, r in enumerate(results):
            console.print("- " + _sentence(r.names[0], r.names[1], key, r.differences[key], adjusted[key][k])
                          + (" (Holm-adjusted p)" if len(results) > 1 else ""))
    if any(p is not None for p in delong):
        table = new_table(console, "auroc: DeLong's test")
        for header in ("pair", "difference", "CI low", "CI high", "p-value", "Holm p"):
            table.add_column(header, justify="right" if header != "pair" else "left")
        for r, p in zip(results, delong):
            if r.delong is not None and p is not None:
                d = r.delong
                table.add_row(f"{markup(r.names[0])} - {markup(r.names[1])}", fmt(d.difference),
                              fmt(d.confidence_interval[0]), fmt(d.confidence_interval[1]), f"{d.p_value:.4g}",
                              f"{p:.4g}")
        console.print(table)


def _pair_dict(result: Any, adjusted: dict[str, list[float]], delong: float | None, k: int) -> dict[str, Any]:
    out = result.to_dict()
    for key, stat in out["statistics"].items():
        stat["holm_p_value"] = adjusted[key][k]
    if "delong" in out:
        out["delong"]["holm_p_value"] = delong
    out.pop("weight_kind", None)
    return out


def compare_file(file: Path, label: str, scores: list[str], pos_label: str | None, weight: str | None,
                 metrics: list[str], n_resamples: int, seed: int | None, json_out: str | os.PathLike[str] | None,
                 console: Any, weight_options: dict[str, Any], baseline: str | None = None,
                 compare: Any = compare_scores, read: Any = read_columns) -> list[Any]:
    """Read, compare every pair (or each column against ``baseline``), print and (optionally) write JSON.

    ``compare`` and ``read`` are the library calls (replaceable in tests).
    """
    pairs = pairs_of(scores, baseline)
    parsed = [parse_metric(m) for m in metrics]
    with staged_outputs({"--json": json_out}, inputs=[file]) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        columns = read(file, [label, *scores] + ([weight] if weight else []))
        y = columns[label]
        pos = None if pos_label is None else coerce_label(pos_label, y, label)
        results = [compare(y, columns[a], columns[b], names=(a, b), metrics=parsed,
                           sample_weight=columns[weight] if weight else None, pos_label=pos,
                           n_resamples=n_resamples, rng=seed, progress=True, **weight_options)
                   for a, b in pairs]
        adjusted, delong = _holm(results)
        if len(results) == 1:
            _print_one_pair(console, file, results[0], n_resamples)
        else:
            _print_many(console, file, results, adjusted, delong, n_resamples)
        level = next(iter(results[0].differences.values())).confidence_level
        holm = (f" Holm: p-values adjusted over the {len(results)} pairs of each statistic."
                if len(results) > 1 else "")
        console.print(f"[dim]Metrics are compared at each model's own best threshold ({IN_SAMPLE}), found "
                      "again in every replicate; "
                      f"{100 * level:g} % intervals; a positive difference favours the first model of a pair."
                      f"{holm}[/dim]")
        if json_out is not None:
            outputs.stage("--json", json_text({
                "file": str(file), "label": label, "weight": weight,
                "weight_kind": getattr(results[0], "weight_kind", weight_options.get("weight_kind")),
                "baseline": baseline, "n_resamples": n_resamples,
                "p_value_adjustment": "holm over the pairs of each statistic",
                "comparisons": [_pair_dict(r, adjusted, delong[k], k) for k, r in enumerate(results)],
            }))
        outputs.commit()
    return results
