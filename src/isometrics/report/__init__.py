"""A self-contained interactive HTML report of an evaluation (Jinja2 + Plotly, offline).

The report consumes result objects only (:class:`~isometrics.BinaryEvaluation`, and
:class:`~isometrics.ScoreComparison` or :class:`~isometrics.PairedBootstrapResult` for
the paired comparisons); every number comes from them, nothing is computed here but
their display. Scripts and styles are inlined. Everything that came from the user's
file (column names, labels, file names) is escaped once for the context it lands in:
HTML text by Jinja2's autoescaping, the figures' JSON for a ``<script>`` data block
(``<``, ``>`` and ``&`` as ``\\u`` escapes), and Plotly's pseudo-HTML labels (``&``,
``<`` and ``>`` as the entities Plotly decodes). A Content Security Policy forbids the
page any network request, form submission or ``<base>``, and runs only the page's own
two scripts, allowed by their SHA-256 hashes: markup that escaped the escaping could
not run. Needs ``pip install 'isometrics[report]'`` (plotly, jinja2).
"""

from __future__ import annotations

import base64
import hashlib
import html
import itertools
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from ..cli._io import write_text_atomic
from ..evaluation import BinaryEvaluation, ScoreComparison
from ..exceptions import IsometricsError
from ..metrics.gain import _gain
from ..metrics.registry import Metric, _parse_metric, _parse_metrics
from ..spaces.level_curves import level_curve
from ..uncertainty.comparison import PairedBootstrapResult
from ..uncertainty.intervals import BootstrapResult

__all__ = ["build_report", "write_report"]

#: Points per curve in the ROC/PR/PRG panels before thinning (hull vertices and best points kept).
_MAX_POINTS = 2000
#: Steps per model in the metric figures drawn exactly; above, each stretch keeps its extremes.
_MAX_STEPS = 10_000
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
_AREAS = {"auroc": "AUROC", "average_precision": "average precision", "auprg": "AUPRG"}
#: The Content Security Policy, less the script hashes: nothing loads, posts or rebases.
_CSP = ("default-src 'none'; script-src {scripts}; style-src 'unsafe-inline'; img-src data:; font-src data:; "
        "base-uri 'none'; form-action 'none'")


def _require() -> tuple[Any, Any]:
    try:
        import jinja2
        import plotly
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("the HTML report needs plotly and jinja2: pip install 'isometrics[report]'") from exc
    return jinja2, plotly


# ---------------------------------------------------------------------------- escaping
def _plotly_text(value: Any) -> str:
    """User text for a Plotly label (legend, hover, title): shown literally.

    Plotly reads labels as pseudo-HTML: it splits tags (``<b>``, ``<br>``, ``<a>``...) and
    decodes the entities ``&amp;``, ``&lt;``, ``&gt;`` (not ``&quot;``) into text nodes.
    Escaping exactly those three characters makes it show the text as given, once.
    """
    return html.escape(str(value), quote=False)


def _script_json(text: str) -> str:
    """JSON text made safe inside ``<script type="application/json">``: no ``</script``,
    no ``<!--``, whatever the strings hold (``<``, ``>``, ``&`` occur only in strings)."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _script_source(code: str, what: str) -> str:
    """Inline JavaScript checked for sequences that would end or bend the script element."""
    code = code.replace("\r\n", "\n")
    lowered = code.lower()
    if "</script" in lowered or "<!--" in lowered or "\r" in code:
        raise IsometricsError(f"build_report: {what} holds '</script', '<!--' or a carriage return, which cannot "
                              "be inlined; please report this.")
    return code


def _csp_hash(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii") + "'"


# ---------------------------------------------------------------------------- formatting
def _fmt(x: float) -> str:
    return "undefined" if x != x else f"{x:.4f}"


def _with_ci(value: float, interval: BootstrapResult | None) -> str:
    if interval is None:
        return _fmt(value)
    low, high = interval.confidence_interval
    return f"{_fmt(value)} [{_fmt(low)}, {_fmt(high)}]"


def _pct(level: float) -> str:
    return f"{100 * level:g} %"


def _count(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.2f}"


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


def _bests(r: BinaryEvaluation, metrics: list[Metric]) -> list[Any]:
    return [next(b for b in r.best if b.metric.spec == m.spec) for m in metrics]


# ---------------------------------------------------------------------------- figures
def _thin(n: int, keep: Sequence[int]) -> np.ndarray:
    """At most ~_MAX_POINTS evenly spaced indices of n, plus the ones to keep."""
    if n <= _MAX_POINTS:
        return np.arange(n)
    return np.union1d(np.linspace(0, n - 1, _MAX_POINTS).astype(int), np.asarray(keep, dtype=int))


def _thin_steps(values: np.ndarray, keep: int) -> np.ndarray:
    """Indices of a step function to draw: all of them up to _MAX_STEPS, else for each of
    _MAX_STEPS / 3 stretches its first, lowest and highest point (and ``keep`` and the last)."""
    n = len(values)
    if n <= _MAX_STEPS:
        return np.arange(n)
    edges = np.linspace(0, n, _MAX_STEPS // 3 + 1).astype(int)
    finite = np.where(np.isnan(values), -np.inf, values)
    lowest = np.where(np.isnan(values), np.inf, values)
    picks = [edges[:-1], [keep, n - 1]]
    for start, stop in zip(edges[:-1], edges[1:]):
        picks.append([start + int(np.argmax(finite[start:stop])), start + int(np.argmin(lowest[start:stop]))])
    return np.unique(np.concatenate([np.asarray(p, dtype=int) for p in picks]))


def _figure_json(fig: Any, **extra: Any) -> str:
    """``{"figure": ..., **extra}`` as JSON safe inside a script data block."""
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in extra.items())
    return _script_json('{"figure": ' + fig.to_json() + (", " + body if body else "") + "}")


def _panels(results: list[BinaryEvaluation], metrics: list[Metric]) -> str:
    """ROC, PR and PRG panels; the level curves and best points of each metric form a group
    that the page shows one at a time."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=3, subplot_titles=("ROC", "Precision-recall", "Precision-recall-gain"),
                        horizontal_spacing=0.07)
    groups: list[list[int]] = [[] for _ in metrics]
    pi = results[0].prevalence

    def add(trace: Any, col: int, group: int | None = None) -> None:
        if group is not None:
            groups[group].append(len(fig.data))
            trace.visible = group == 0
        fig.add_trace(trace, 1, col)

    lines = "".join(f"<br>{_plotly_text(m.label)} %{{customdata[{5 + j}]:.4f}}" for j, m in enumerate(metrics))
    hover = ("threshold %{customdata[0]:.4~g}<br>precision %{customdata[1]:.4f}<br>recall %{customdata[2]:.4f}"
             "<br>precision gain %{customdata[3]:.4f}<br>recall gain %{customdata[4]:.4f}" + lines
             + "<extra>%{fullData.name}</extra>")
    for k, r in enumerate(results):
        op = r.operating_points
        color = _PALETTE[k % len(_PALETTE)]
        name, group_id = _plotly_text(r.name), f"model-{k}"
        bests = _bests(r, metrics)
        fpr, tpr, thr = op.roc_curve()
        precision, recall, _ = op.precision_recall_curve()
        pg, rg, _ = op.prg_curve()
        hull = op.roc_convex_hull()
        idx = _thin(op.n_points, list(hull.indices) + [b.index for b in bests])
        custom = np.column_stack([thr[idx], precision[idx], recall[idx], pg[idx], rg[idx]]
                                 + [op.metric_curve(m).values[idx] for m in metrics]).astype(np.float32)  # hover only
        common = dict(mode="lines", line=dict(color=color), customdata=custom, hovertemplate=hover,
                      legendgroup=group_id, name=name)
        add(go.Scatter(x=fpr[idx], y=tpr[idx], **common), 1)
        add(go.Scatter(x=recall[idx][1:], y=precision[idx][1:], showlegend=False, line_shape="vh",
                       **{**common, "customdata": custom[1:]}), 2)
        ok = rg[idx] > -0.05
        add(go.Scatter(x=rg[idx][ok], y=pg[idx][ok], showlegend=False, **{**common, "customdata": custom[ok]}), 3)
        dash = dict(mode="lines", line=dict(color=color, dash="dash", width=1), showlegend=False,
                    hoverinfo="skip", legendgroup=group_id, name=name)
        add(go.Scatter(x=hull.fpr, y=hull.tpr, **dash), 1)
        achievable = op.achievable_pr_curve()
        add(go.Scatter(x=achievable.recall[1:], y=achievable.precision[1:], **dash), 2)
        prg_hull = op.prg_convex_hull()
        add(go.Scatter(x=prg_hull.recall_gain, y=prg_hull.precision_gain, **dash), 3)
        for j, (m, best) in enumerate(zip(metrics, bests)):
            marker = dict(mode="markers", marker=dict(color=color, size=9), showlegend=False, legendgroup=group_id,
                          name=name, hovertemplate=f"best {_plotly_text(m.label)} {best.value:.4f} at threshold "
                                                   f"{best.threshold:.4g}<extra>%{{fullData.name}}</extra>")
            add(go.Scatter(x=[best.fp / op.n_negatives], y=[best.recall], **marker), 1, j)
            add(go.Scatter(x=[best.recall], y=[best.precision], **marker), 2, j)
            if best.tp > 0:
                gains = _gain(np.array([best.recall, best.precision]), pi)
                add(go.Scatter(x=gains[:1], y=gains[1:], **marker), 3, j)
    grey = dict(mode="lines", line=dict(color="#999", width=1), hoverinfo="name", showlegend=False)
    add(go.Scatter(x=[0, 1], y=[0, 1], name="chance", **grey), 1)
    add(go.Scatter(x=[0, 1], y=[pi, pi], name=f"prevalence {pi:.3g}", **grey), 2)
    add(go.Scatter(x=[0, 1], y=[1, 0], name="F1 of always-positive", **grey), 3)
    dotted = dict(mode="lines", line=dict(color="#bbb", width=1, dash="dot"), hoverinfo="name", showlegend=False)
    for j, m in enumerate(metrics):
        if m._pr is None:
            continue
        for value in (0.2, 0.4, 0.6, 0.8):
            for col, space in ((1, "roc"), (2, "pr"), (3, "prg")):
                curve = level_curve(m, value, space=space, prevalence=pi)
                add(go.Scatter(x=curve.x, y=curve.y, name=f"{_plotly_text(m.label)} = {value}", **dotted), col, j)
    for col, (xt, yt) in enumerate((("false positive rate", "true positive rate"), ("recall", "precision"),
                                    ("recall gain", "precision gain")), start=1):
        fig.update_xaxes(title_text=xt, range=[-0.02, 1.02], row=1, col=col)
        fig.update_yaxes(title_text=yt, range=[-0.02, 1.02], row=1, col=col)
    fig.update_layout(height=480, margin=dict(t=40, b=40, l=50, r=10), legend=dict(orientation="h", y=-0.2))
    return _figure_json(fig, groups=groups)


def _metric_figure(results: list[BinaryEvaluation], metric: Metric, weighted: bool) -> tuple[str, bool]:
    """The metric against the share of samples flagged positive, as the step function it is.

    Operating point ``i`` flags the share ``q_i`` (thresholds decreasing, shares
    increasing). The trace joins ``(q_i, value_i)`` with ``line_shape="hv"``: the value
    holds from ``q_i`` until the next threshold flags more, i.e. at share ``x`` the drawn
    value is that of the last operating point flagging at most ``x`` (flagging the top
    ``x``, a tie group at the cut left out). No sloped segment: nothing is drawn that no
    threshold achieves. Returns the JSON and whether any model was thinned.
    """
    import plotly.graph_objects as go

    fig = go.Figure()
    thinned = False
    label = _plotly_text(metric.label)
    for k, r in enumerate(results):
        op = r.operating_points
        color = _PALETTE[k % len(_PALETTE)]
        total = op.n_positives + op.n_negatives
        flagged = op.tp + op.fp
        share = flagged / total
        values = np.asarray(op.metric_curve(metric).values, dtype=np.float64)
        best = _bests(r, [metric])[0]
        idx = _thin_steps(values, best.index)
        thinned |= len(idx) < len(values)
        precision, recall, _ = op.precision_recall_curve()
        custom = np.column_stack([op.thresholds[idx], flagged[idx], precision[idx], recall[idx]])
        fig.add_trace(go.Scatter(
            x=share[idx], y=values[idx], mode="lines", line=dict(color=color, shape="hv"), name=_plotly_text(r.name),
            legendgroup=f"model-{k}", customdata=custom, meta=dict(model=k, role="steps"),
            hovertemplate="predict positive when score ≥ %{customdata[0]:.6~g}<br>flags %{x:.2%} "
                          "(%{customdata[1]:,.6~g})<br>precision %{customdata[2]:.4f}<br>recall %{customdata[3]:.4f}"
                          "<br>" + label + " %{y:.4f}<extra>%{fullData.name}</extra>",
        ))
        fig.add_trace(go.Scatter(
            x=[share[best.index]], y=[best.value], mode="markers", marker=dict(color=color, size=9),
            name=_plotly_text(r.name), legendgroup=f"model-{k}", showlegend=False, meta=dict(model=k, role="best"),
            hovertemplate=f"best {label} {best.value:.4f} at threshold {best.threshold:.6g}<br>"
                          "flags %{x:.2%}<extra>%{fullData.name}</extra>",
        ))
    flagged_title = "share of " + ("weight" if weighted else "samples") + " flagged positive"
    fig.update_layout(height=380, margin=dict(t=20, b=40, l=50, r=10), hovermode="closest",
                      xaxis=dict(title=dict(text=flagged_title + " (lowering the threshold moves right)"),
                                 range=[-0.01, 1.01], tickformat=".0%"),
                      yaxis=dict(title=dict(text=label)))
    return _figure_json(fig), thinned


# ---------------------------------------------------------------------------- page
def _weights_text(results: list[BinaryEvaluation], comparisons: Any) -> str:
    """How the weights were read, from the results' (or comparisons') ``weight_kind``."""
    first = results[0]
    kinds = {getattr(r, "weight_kind", None) for r in results}
    items = [] if comparisons is None else ([comparisons] if not isinstance(comparisons, Sequence) else comparisons)
    kinds |= {getattr(c, "weight_kind", None) for c in items}
    kinds.discard(None)
    weighted = first.n_positives + first.n_negatives != first.n_samples
    if not kinds:
        return "weighted (weight kind not stated)" if weighted else ""
    described = {"frequency": "frequency weights (a row counts as that many identical samples; the bootstrap "
                              "resamples those samples)",
                 "sampling": "sampling weights (the bootstrap resamples rows, each carrying its weight)"}
    return "weighted: " + "; ".join(described.get(k, k) for k in sorted(str(k) for k in kinds))


def build_report(
    results: list[BinaryEvaluation],
    *,
    comparisons: ScoreComparison | PairedBootstrapResult | Sequence[ScoreComparison | PairedBootstrapResult]
    | None = None,
    metrics: Sequence[str | Metric] | None = None,
    title: str = "isometrics report",
    file_name: str = "",
    label: str = "",
) -> str:
    """Render evaluation results as one self-contained HTML page.

    Parameters
    ----------
    results : list of BinaryEvaluation
        From :func:`isometrics.evaluate_scores` (every scorer on the same labels). Their
        bootstrap intervals, when computed, are shown next to the values.
    comparisons : ScoreComparison, PairedBootstrapResult or list of them, default=None
        Paired comparisons of the scorers on the same rows, from
        :func:`isometrics.compare_scores` or :func:`isometrics.bootstrap_compare`. The
        "Reading" section compares two models under a measure only through the paired
        interval of their difference ("no detectable difference" when it covers 0);
        without one, it lists the values and says the difference was not tested.
    metrics : sequence of str or Metric, default=None
        The threshold metrics shown, each among those the results were evaluated with;
        default: every one of them, in evaluation order.
    title : str, default="isometrics report"
        Page title.
    file_name, label : str, default=""
        Shown in the header (escaped).

    Returns
    -------
    str
        The HTML page: inline scripts (Plotly, the page's own) allowed by hash, inline
        styles, no external resource.

    Raises
    ------
    ValueError
        If ``results`` is empty or has no threshold metric, if a metric was not
        evaluated, if ``comparisons`` name a scorer that is not in ``results`` or
        disagree with them (computed on other data).
    TypeError
        If ``comparisons`` holds anything but ScoreComparison or PairedBootstrapResult.
    ImportError
        If plotly or jinja2 is missing.
    """
    jinja2, plotly = _require()
    caller = "build_report"
    if not results:
        raise IsometricsError(f"{caller}: no results to report; pass the list evaluate_scores returned.")
    specs = [b.metric.spec for b in results[0].best]
    if not specs:
        raise IsometricsError(f"{caller}: the results have no threshold metric; evaluate with metrics=[...].")
    if metrics is None:
        chosen = [b.metric for b in results[0].best]
    else:
        chosen = ([_parse_metric(metrics, caller=caller, name="metrics")] if isinstance(metrics, (str, Metric))
                  else _parse_metrics(metrics, caller=caller))
        if not chosen:
            raise IsometricsError(f"{caller}: `metrics` is empty; give at least one of {', '.join(specs)}.")
    for m in chosen:
        for r in results:
            if m.spec not in [b.metric.spec for b in r.best]:
                raise IsometricsError(f"{caller}: metric {m.spec!r} was not evaluated for {r.name!r} (evaluated: "
                                      f"{', '.join(b.metric.spec for b in r.best)}); evaluate it or leave it out.")
    values = {r.name: {"auroc": r.auroc, "average_precision": r.average_precision, "auprg": r.auprg,
                       **{m.spec: b.value for m, b in zip(chosen, _bests(r, chosen))}} for r in results}
    diffs, delong = _comparisons(comparisons, values)
    first = results[0]
    weighted = first.n_positives + first.n_negatives != first.n_samples

    rows = [dict(name=r.name, auroc=_with_ci(r.auroc, r.intervals.get("auroc")),
                 ap=_with_ci(r.average_precision, r.intervals.get("average_precision")),
                 auprg=_with_ci(r.auprg, r.intervals.get("auprg"))) for r in results]
    any_interval = next((iv for r in results for iv in r.intervals.values()), None)
    intervals_note = ""
    if any_interval is not None:
        intervals_note = (f"Brackets: {_pct(any_interval.confidence_level)} {any_interval.method} bootstrap "
                          f"intervals ({len(any_interval.bootstrap_distribution):,} replicates).")
    metric_sections = []
    for j, m in enumerate(chosen):
        figure, thinned = _metric_figure(results, m, weighted)
        best_rows = []
        for r in results:
            b = _bests(r, [m])[0]
            total = r.n_positives + r.n_negatives
            best_rows.append(dict(name=r.name, threshold=f"{b.threshold:.6g}",
                                  value=_with_ci(b.value, r.intervals.get(m.spec)), precision=_fmt(b.precision),
                                  recall=_fmt(b.recall),
                                  flagged=f"{_count(b.tp + b.fp)} ({100 * (b.tp + b.fp) / total:.2f} %)",
                                  ties="" if b.n_ties <= 1 else f"{b.n_ties} tied"))
        metric_sections.append(dict(index=j, label=m.label, spec=m.spec, rows=best_rows, figure=figure,
                                    thinned=thinned))
    comparison_rows = []
    stat_labels = {**_AREAS, **{m.spec: f"{m.label} at each model's best threshold" for m in chosen}}
    for d in diffs:
        comparison_rows.append(dict(a=d.a, b=d.b, statistic=stat_labels.get(d.key, d.key), difference=_fmt(d.estimate),
                                    interval=f"{_fmt(d.low)} to {_fmt(d.high)}", level=_pct(d.level),
                                    p=f"{d.p_value:.2g}", covers="yes" if d.low <= 0 <= d.high else "no",
                                    replicates=f"{d.n_replicates:,}"))
    for a, b, test, level in delong:
        low, high = (float(x) for x in np.ravel(test.confidence_interval))
        comparison_rows.append(dict(a=a, b=b, statistic="AUROC (DeLong's test)", difference=_fmt(test.difference),
                                    interval=f"{_fmt(low)} to {_fmt(high)}", level=_pct(level),
                                    p=f"{test.p_value:.2g}", covers="yes" if low <= 0 <= high else "no",
                                    replicates=""))

    page_js = _script_source("\n".join((files("isometrics.report") / "static" / name).read_text(encoding="utf-8")
                                       for name in ("figures.js", "explorer.js", "start.js")), "the page's script")
    plotly_js = _script_source(plotly.offline.get_plotlyjs(), "the Plotly bundle")
    csp = _CSP.format(scripts=" ".join(_csp_hash(code) for code in (plotly_js, page_js)))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(files("isometrics.report") / "templates")),
                             autoescape=True)
    return env.get_template("report.html.j2").render(
        csp=csp,
        title=title,
        file_name=file_name,
        label=label,
        pos_label=first.operating_points.pos_label,
        n_samples=f"{first.n_samples:,}",
        weights=_weights_text(results, comparisons),
        total_weight=_count(first.n_positives + first.n_negatives) if weighted else "",
        prevalence=first.prevalence,
        metrics=metric_sections,
        rows=rows,
        intervals_note=intervals_note,
        comparison_rows=comparison_rows,
        reading=_reading(results, chosen, values, diffs),
        panels=_panels(results, chosen),
        plotly_js=plotly_js,
        page_js=page_js,
        version=__version__,
    )


def write_report(path: str | os.PathLike[str], html_text: str) -> Path:
    """Write the page through a temporary file (nothing half-written on failure).

    Parameters
    ----------
    path : str or os.PathLike
        Where to write it.
    html_text : str
        The page, from :func:`build_report`.

    Returns
    -------
    Path
        The path written.
    """
    return write_text_atomic(path, html_text)
