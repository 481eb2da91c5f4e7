"""What an elicitation found: :class:`ElicitationResult` (estimate, region, decision, transcript)."""

from __future__ import annotations

import html
import math
import os
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.constraints import InBody, user_stacklevel, validate_params
from .._typing import FloatArray
from ..exceptions import DegenerateDataWarning
from ..metrics.registry import Metric, parse_metric
from .local import Contradiction
from .transcript import Transcript, write_transcript
from .wording import BETA_WORDS, answers_summary, regret_words, trivial_warning


@dataclass(frozen=True)
class Decision:
    """The operating point the elicited metric picks on the user's curve.

    Attributes
    ----------
    precision, recall : float
        The point chosen, in (0, 1].
    threshold : float or None
        Its threshold (predict positive when ``y_score >= threshold``); ``None`` when the
        curve came without thresholds.
    index : int
        Its index in the decision curve (Pareto points by decreasing recall).
    max_loss : float
        The most this point loses, over the plausible region, against each plausible
        metric's best point of the curve (in units of G, in [0, 1]).
    """

    precision: float
    recall: float
    threshold: float | None
    index: int
    max_loss: float

    def to_dict(self) -> dict[str, Any]:
        """The decision as JSON-ready data."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "threshold": self.threshold,
            "index": self.index,
            "max_loss": self.max_loss,
        }


def _sig(x: float, digits: int = 4) -> float:
    """``x`` rounded to ``digits`` significant digits (the elicited metric's parameters)."""
    return float(f"{x:.{digits}g}")


def elicited_metric(beta: float, rho: float) -> Metric:
    """``G(beta, rho)`` with both parameters rounded to 4 significant digits, as a :class:`Metric`."""
    return parse_metric(f"g(beta={_sig(beta)!r}, rho={_sig(rho)!r})")


@dataclass(frozen=True, eq=False)
class ElicitationResult:
    """The metric elicited from a stakeholder's answers, its uncertainty and the decision it implies.

    Attributes
    ----------
    beta, rho : float
        Point estimate: the posterior means of log beta (``beta = exp`` of it) and of rho.
    beta_sd_log, rho_sd : float
        Posterior standard deviations of log beta and of rho.
    mode_beta, mode_rho : float
        The grid hypothesis of largest posterior weight.
    beta_range, rho_range : tuple of float
        Smallest and largest beta and rho in the plausible region (95 % highest posterior).
    region_log_beta, region_rho : ndarray of float64
        The grid hypotheses of that region (for plots).
    feasible_fraction : float
        Share of the starting grid consistent with every answer taken as noiseless (the
        feasible region's area relative to the start), in [0, 1].
    local_beta : float or None
        The median of the local questions' posterior of beta (``None`` without local answers).
    local_interval : tuple of float or None
        Its central 95 % interval (read with the assumed sign of rho).
    metric : Metric
        ``G(beta, rho)`` at the estimate (4 significant digits), usable by
        :func:`isometrics.best_threshold`, the report and the CLI's ``--metric``.
    decision : Decision
        The point the metric picks on the decision curve, with its worst loss.
    stop_reason : str
        Why the questions stopped.
    contradictions : tuple of Contradiction
        Answers that contradict earlier ones (reported, never silently absorbed).
    notes : tuple of str
        What the answers can and cannot tell (e.g. at rho = 0).
    transcript : Transcript
        Settings, decision curve, questions and answers (replayable).
    beta_bounds : tuple of float
        The exact bounds ``(low, high)`` on beta that the local answers imply, taken as
        noiseless, for every rho of the assumed sign (``(0, inf)`` without local answers;
        e.g. *recall* at (P, R) = (0.90, 0.36) with rho < 0 gives ``(0.4, inf)``).
    beta_interval : tuple of float
        The central 95 % credible interval of beta from the posterior over (log beta, rho)
        (every answer, local and pairwise, under one likelihood).
    trivial_decision : str
        ``"everyone"`` when the decision is the curve's top-recall end at recall 1 (its
        lowest precision: the threshold flags every case, or all but those scored below
        every real case), else ``""``; such a result also warns
        (:class:`~isometrics.exceptions.DegenerateDataWarning`).

    Warns
    -----
    DegenerateDataWarning
        When the decision flags everyone (see ``trivial_decision``).
    """

    beta: float
    rho: float
    beta_sd_log: float
    rho_sd: float
    mode_beta: float
    mode_rho: float
    beta_range: tuple[float, float]
    rho_range: tuple[float, float]
    region_log_beta: FloatArray = field(repr=False)
    region_rho: FloatArray = field(repr=False)
    feasible_fraction: float
    local_beta: float | None
    local_interval: tuple[float, float] | None
    metric: Metric
    decision: Decision
    stop_reason: str
    contradictions: tuple[Contradiction, ...]
    notes: tuple[str, ...]
    transcript: Transcript = field(repr=False)
    beta_bounds: tuple[float, float] = (0.0, math.inf)
    beta_interval: tuple[float, float] = (0.0, math.inf)
    trivial_decision: str = field(default="", init=False)

    def __post_init__(self) -> None:
        d = self.decision
        if d.index == 0 and d.recall >= 1.0 - 1e-12:
            object.__setattr__(self, "trivial_decision", "everyone")
            warnings.warn(
                f"ElicitationResult: {trivial_warning(d.precision, d.recall, 'everyone')}",
                DegenerateDataWarning,
                stacklevel=user_stacklevel(4),
            )

    @property
    def summary(self) -> tuple[str, ...]:
        """What the answers established, in plain words (``wording.answers_summary``)."""
        return answers_summary(self.transcript.steps)

    def __repr__(self) -> str:
        n = len(self.transcript.steps)
        return (
            f"ElicitationResult(metric={self.metric.spec!r}, beta in [{self.beta_range[0]:.3g}, "
            f"{self.beta_range[1]:.3g}], rho in [{self.rho_range[0]:.3g}, {self.rho_range[1]:.3g}], "
            f"decision=(P={self.decision.precision:.3f}, R={self.decision.recall:.3f}), questions={n}, "
            f"contradictions={len(self.contradictions)}, stop={self.stop_reason!r})"
        )

    @validate_params({"path": InBody("a path")}, name="ElicitationResult.save")
    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the transcript (the answers file) as JSON to ``path``; :func:`replay` reads it back.

        Raises
        ------
        InvalidParameterError
            If ``path`` is not a str or path-like.
        IsometricsError
            If the file cannot be written (a folder, a missing folder, no permission).
        """
        write_transcript(self.transcript, path)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data (the transcript included)."""
        return {
            "beta": self.beta,
            "rho": self.rho,
            "beta_sd_log": self.beta_sd_log,
            "rho_sd": self.rho_sd,
            "mode_beta": self.mode_beta,
            "mode_rho": self.mode_rho,
            "beta_range": list(self.beta_range),
            "rho_range": list(self.rho_range),
            "feasible_fraction": self.feasible_fraction,
            "local_beta": self.local_beta,
            "local_interval": None if self.local_interval is None else list(self.local_interval),
            "metric": self.metric.spec,
            "decision": self.decision.to_dict(),
            "stop_reason": self.stop_reason,
            "contradictions": [c.to_dict() for c in self.contradictions],
            "notes": list(self.notes),
            "trivial_decision": self.trivial_decision,
            "transcript": self.transcript.to_dict(),
            "beta_bounds": [self.beta_bounds[0], None if math.isinf(self.beta_bounds[1]) else self.beta_bounds[1]],
            "beta_interval": list(self.beta_interval),
        }

    def _repr_html_(self) -> str:
        rows = [
            ("metric", self.metric.spec),
            ("your answers", " ".join(self.summary)),
            (
                f"beta ({BETA_WORDS})",
                f"{self.beta:.4g} (plausible {self.beta_range[0]:.3g} to {self.beta_range[1]:.3g})",
            ),
            ("rho", f"{self.rho:.3g} (plausible {self.rho_range[0]:.3g} to {self.rho_range[1]:.3g})"),
            (
                "decision",
                f"precision {self.decision.precision:.3f}, recall {self.decision.recall:.3f}"
                + (f", threshold {self.decision.threshold:.6g}" if self.decision.threshold is not None else "")
                + f"; {regret_words(self.decision.max_loss)}",
            ),
            ("questions", f"{len(self.transcript.steps)} ({self.stop_reason})"),
            ("contradictions", str(len(self.contradictions))),
        ]
        if self.trivial_decision:
            rows.append(("warning", trivial_warning(self.decision.precision, self.decision.recall, "everyone")))
        table = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows
        )
        return f"<div><table>{table}</table>{_level_curves_svg(self)}</div>"


def _level_curves_svg(result: ElicitationResult, size: int = 240) -> str:
    """Inline SVG of the PR square: level curves of the estimate, the break-even line R/P = beta,
    the decision curve and the chosen point (no script, no network)."""
    pad = 24

    def xy(r: float, p: float) -> str:
        return f"{pad + r * size:.1f},{pad + (1 - p) * size:.1f}"

    parts = [f"<rect x='{pad}' y='{pad}' width='{size}' height='{size}' fill='none' stroke='#999'/>"]

    def points(coords: list[str]) -> str:  # consecutive points on the same pixel tenth drawn once
        kept = [c for i, c in enumerate(coords) if i == 0 or c != coords[i - 1]]
        return " ".join(kept)

    grid = np.linspace(1e-3, 1.0, 120)
    for level in (0.2, 0.4, 0.6, 0.8):
        pts = _level_points(result.metric, level, grid)
        if len(pts) > 1:
            parts.append("<polyline fill='none' stroke='#bbb' points='" + points([xy(r, p) for r, p in pts]) + "'/>")
    beta = result.beta
    r_end, p_end = (beta, 1.0) if beta < 1 else (1.0, 1.0 / beta)
    parts.append(
        f"<line x1='{pad}' y1='{pad + size}' x2='{pad + r_end * size:.1f}' y2='{pad + (1 - p_end) * size:.1f}' "
        "stroke='#c60' stroke-dasharray='4 3'/>"
    )
    p, r, _ = result.transcript.curve
    if p:
        step = max(1, len(p) // 150)  # the decision curve, thinned to at most ~150 vertices (ends kept)
        keep = sorted(set(range(0, len(p), step)) | {len(p) - 1})
        parts.append("<polyline fill='none' stroke='#36c' points='" + points([xy(r[i], p[i]) for i in keep]) + "'/>")
    d = result.decision
    parts.append(
        f"<circle cx='{pad + d.recall * size:.1f}' cy='{pad + (1 - d.precision) * size:.1f}' r='4' fill='#c00'/>"
    )
    parts.append(
        f"<text x='{pad}' y='{pad + size + 18}' font-size='11'>recall</text>"
        f"<text x='2' y='{pad - 8}' font-size='11'>precision</text>"
    )
    title = html.escape(f"Level curves of {result.metric.label}; dashed: R/P = beta; red: the decision")
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{size + 2 * pad}' height='{size + 2 * pad}' "
        f"role='img'><title>{title}</title>{''.join(parts)}</svg>"
    )


def _level_points(metric: Metric, level: float, recall: FloatArray) -> list[tuple[float, float]]:
    """Points (R, P) of the level curve ``metric = level`` by bisection on P for each recall."""
    lo, hi = np.zeros_like(recall), np.ones_like(recall)
    top = metric.from_precision_recall(np.ones_like(recall), recall)
    for _ in range(50):
        mid = (lo + hi) / 2
        below = metric.from_precision_recall(mid, recall) < level
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    ok = (top >= level) & (hi > 1e-6)
    return [(float(r), float(p)) for r, p in zip(recall[ok], hi[ok]) if math.isfinite(p)]
