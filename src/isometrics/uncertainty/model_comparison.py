"""The result of comparing models, and the one policy that reads it: which p-values are adjusted
together, how, the intervals compatible with the adjustment, the decision and its sentence.

Python (:class:`ModelComparison`), ``isometrics compare`` (its table and ``--json``) and the
HTML report all render these rows; none words or decides a comparison itself.

The adjustment arithmetic (p-values, compatible levels, decisions) is in ``_adjustment.py``.

References
----------
.. [1] S. Holm, "A Simple Sequentially Rejective Multiple Test Procedure", Scandinavian
   Journal of Statistics 6(2), 65-70, 1979.
.. [2] F. Bretz, T. Hothorn and P. Westfall, *Multiple Comparisons Using R*, CRC Press,
   2010, sections 2.1.3 (compatible simultaneous confidence intervals) and 4.1 (Holm).
.. [3] A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application*,
   Cambridge University Press, 1997, section 5.2 (the percentile interval as order
   statistics ``(B + 1) alpha``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .._core.html import html_table, summarised
from .._typing import FloatArray
from ._adjustment import (
    _ADJUSTED_NAME,
    A_BETTER,
    ADJUSTMENTS,
    B_BETTER,
    _adjust,
    _adjusted_alpha,
    _decision,
    _order_interval,
    _p_value,
)
from ._adjustment import check_adjustment as check_adjustment
from ._inputs import _NORMAL
from .intervals import BootstrapResult, _defined, _interval, _standard_error

__all__ = ["ComparisonRow", "ModelComparison", "ADJUSTMENTS"]


@summarised()
@dataclass(frozen=True)
class ComparisonRow:
    """One statistic of one pair of models: the difference ``a - b``, its test and its reading.

    Attributes
    ----------
    statistic : str
        The statistic's key: an area (``"auroc"``...), a metric's spec (its value at each
        model's re-optimised best threshold) or ``"<spec> at threshold <t>"``.
    label : str
        Its readable name, e.g. ``"AUROC"`` or ``"F1"``.
    test : {"paired bootstrap", "DeLong"}
        The test behind the row.
    a, b : str
        The two models; the difference is ``a - b``.
    estimate : float
        The difference on the data.
    confidence_interval : tuple of float
        ``(low, high)``: the unadjusted interval at ``confidence_level``.
    adjusted_interval : tuple of float
        The interval compatible with the adjusted p-value (at ``adjusted_level``): it
        excludes 0 exactly when ``adjusted_p_value <= 1 - confidence_level`` (for the
        percentile bootstrap and DeLong's Wald interval). May be infinite when the
        replicates are too few to reach that level.
    confidence_level : float
        The family's level, in (0, 1); ``alpha = 1 - confidence_level``.
    adjusted_level : float
        ``1 - alpha * p_value / adjusted_p_value``, in [confidence_level, 1).
    p_value, adjusted_p_value : float
        Two-sided p-value of "no difference", unadjusted and adjusted over the family.
    decision : {"a better", "b better", "no detectable difference"}
        ``adjusted_p_value <= alpha`` decides; the side is that of the interval
        (a metric where lower is better, e.g. a cost, counts a negative difference for ``a``).
    greater_is_better : bool
        ``False`` for costs.
    adjustment : {"holm", "bonferroni", "none"}
        How ``adjusted_p_value`` was made.
    n_tests : int
        The size of the family the p-value was adjusted in (the pairs of this statistic).
    bootstrap : BootstrapResult or None
        The paired bootstrap of the difference (``None`` for DeLong's test).
    """

    statistic: str
    label: str
    test: str
    a: str
    b: str
    estimate: float
    confidence_interval: tuple[float, float]
    adjusted_interval: tuple[float, float]
    confidence_level: float
    adjusted_level: float
    p_value: float
    adjusted_p_value: float
    decision: str
    greater_is_better: bool = True
    adjustment: str = "holm"
    n_tests: int = 1
    bootstrap: BootstrapResult | None = None

    @property
    def winner(self) -> str | None:
        """The better model, or ``None`` when no difference is detected."""
        return {A_BETTER: self.a, B_BETTER: self.b}.get(self.decision)

    @property
    def adjusted(self) -> bool:
        """Whether the adjustment changed anything (an adjustment over more than one test)."""
        return self.adjustment != "none" and self.n_tests > 1

    def sentence(self) -> str:
        """The row in one plain-text sentence, which every rendering shows as is.

        Returns
        -------
        str
            "``w`` beats ``l`` on ``label`` by ``x`` (interval, p-values)" when a
            difference is detected (after adjustment), else "no detectable difference
            between ``a`` and ``b`` on ``label`` (...)". Numbers: differences and
            intervals to 4 decimals, p-values to 2 significant digits; the interval shown is
            the adjusted one. Plain text: escape it for the medium (markup, HTML).
        """
        level = f"{100 * self.confidence_level:g} %"
        name = _ADJUSTED_NAME.get(self.adjustment, "")
        ci = f"{name}-adjusted {level} CI" if self.adjusted else f"{level} CI"
        p = f"p = {self.p_value:.2g}" + (f", {name}-adjusted p = {self.adjusted_p_value:.2g}" if self.adjusted else "")
        on = self.label + ("" if self.greater_is_better else " (lower is better)")
        on += " (DeLong's test)" if self.test == "DeLong" else ""
        low, high = self.adjusted_interval
        winner = self.winner
        if winner is None:
            return (
                f"no detectable difference between {self.a} and {self.b} on {on} (difference {self.a} - "
                f"{self.b} {self.estimate:+.4f}; {ci} {low:.4f} to {high:.4f} covers 0; {p})"
            )
        # the advantage of the winner: its difference to the loser, signed so that positive is better
        sign = (1.0 if winner == self.a else -1.0) * (1.0 if self.greater_is_better else -1.0)
        lo, hi = sorted((sign * low, sign * high))
        loser = self.b if winner == self.a else self.a
        return f"{winner} beats {loser} on {on} by {sign * self.estimate:.4f} ({ci} {lo:.4f} to {hi:.4f}; {p})"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the row (infinite interval ends as ``None``), with its sentence.

        Returns
        -------
        dict
            ``statistic``, ``label``, ``test``, ``a``, ``b``, ``difference``, ``low``,
            ``high``, ``adjusted_low``, ``adjusted_high``, ``confidence_level``,
            ``adjusted_level``, ``p_value``, ``adjusted_p_value``, ``adjustment``,
            ``n_tests``, ``decision``, ``winner``, ``greater_is_better``, ``sentence``,
            and for a bootstrap row ``n_resamples`` (replicates used), ``n_dropped``,
            ``n_undefined``.
        """
        out: dict[str, Any] = {
            "statistic": self.statistic,
            "label": self.label,
            "test": self.test,
            "a": self.a,
            "b": self.b,
            "difference": self.estimate,
            "low": _finite(self.confidence_interval[0]),
            "high": _finite(self.confidence_interval[1]),
            "adjusted_low": _finite(self.adjusted_interval[0]),
            "adjusted_high": _finite(self.adjusted_interval[1]),
            "confidence_level": self.confidence_level,
            "adjusted_level": self.adjusted_level,
            "p_value": self.p_value,
            "adjusted_p_value": self.adjusted_p_value,
            "adjustment": self.adjustment,
            "n_tests": self.n_tests,
            "decision": self.decision,
            "winner": self.winner,
            "greater_is_better": self.greater_is_better,
            "sentence": self.sentence(),
        }
        if self.bootstrap is not None:
            out.update(
                n_resamples=len(self.bootstrap.bootstrap_distribution),
                n_dropped=self.bootstrap.n_dropped,
                n_undefined=self.bootstrap.n_undefined,
            )
        return out


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


@summarised("names", "statistics", "confidence_level", "adjustment", "baseline", "n_resamples")
@dataclass(frozen=True)
class ModelComparison:
    """Paired comparisons of k models on the same samples, read under one policy.

    For each statistic and each pair (every two models in the order given, or each model
    against a baseline) a :class:`ComparisonRow`; the p-values of one statistic are
    adjusted over its pairs (the family), and the decision is ``adjusted p <= alpha``
    with ``alpha = 1 - confidence_level``.

    Attributes
    ----------
    names : tuple of str
        The models, in the order given.
    statistics : tuple of str
        The statistics' keys, in the order given.
    estimates : dict of str to dict of str to float
        ``estimates[statistic][model]``: each model's value on the data.
    rows : tuple of ComparisonRow
        The paired bootstrap rows, statistic by statistic, pairs in order.
    delong : tuple of ComparisonRow
        DeLong's test of the AUROCs of each pair (its own family over the pairs), when
        ``"auroc"`` is compared on unweighted data; empty otherwise.
    confidence_level : float
        In (0, 1).
    adjustment : {"holm", "bonferroni", "none"}
        How the p-values of a statistic were adjusted over its pairs.
    baseline : str or None
        The model every other was compared with (differences ``model - baseline``), or
        ``None`` for every pair.
    method : str
        The bootstrap interval method.
    n_resamples : int
        Bootstrap replicates drawn.
    weight_kind : {"sampling", "frequency"} or None
        How the sample weights were resampled; ``None`` for unweighted data.
    distributions : dict of str to ndarray of shape (n_valid, len(names))
        ``distributions[statistic][:, j]``: model ``names[j]``'s value of the statistic on
        each paired replicate (NaN where undefined; replicates that drew one class only
        left out). Every model is drawn on the same rows in a replicate, so each column is
        a bootstrap of that model alone: :meth:`intervals` reads them.
    n_dropped : int
        Replicates left out because they drew a single class.
    stratified : bool
        Whether the replicates were drawn within each class.
    replicate_state : dict or None
        The state of the random generator (``bit_generator.state``) the paired replicates
        were drawn from, or None (built by hand): :meth:`replicate_generator` draws the same
        replicates again, so that a statistic the comparison did not compute (the counts at
        a chosen threshold) can be read on the same rows.
    """

    names: tuple[str, ...]
    statistics: tuple[str, ...]
    estimates: dict[str, dict[str, float]]
    rows: tuple[ComparisonRow, ...]
    delong: tuple[ComparisonRow, ...]
    confidence_level: float
    adjustment: str
    baseline: str | None
    method: str
    n_resamples: int
    weight_kind: str | None = None
    distributions: dict[str, FloatArray] = field(default_factory=dict, repr=False, compare=False)
    n_dropped: int = 0
    stratified: bool = False
    replicate_state: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    def replicate_generator(self) -> np.random.Generator | None:
        """A random generator in the state the paired replicates were drawn from.

        Drawing ``n_resamples`` replicates per sample from it (as the comparison did, with
        :attr:`stratified`, through the one per-row draw ``Resampler.row_counts``) draws the
        same rows, replicate by replicate. That draw changed after 0.1.0 (block draws, the
        same multinomial distribution): a state recorded by 0.1.0 replays other rows on data
        of 4,096 rows or more.

        Returns
        -------
        numpy.random.Generator or None
            A new generator (the comparison's own state is not touched), or None when the
            state was not recorded.
        """
        if self.replicate_state is None:
            return None
        bit_generator = getattr(np.random, self.replicate_state["bit_generator"])()
        bit_generator.state = self.replicate_state
        return np.random.Generator(bit_generator)

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        """The pairs compared, ``(a, b)`` with differences ``a - b``, in order."""
        return tuple(dict.fromkeys((r.a, r.b) for r in self.rows))

    def row(self, statistic: str, a: str, b: str, *, test: str = "paired bootstrap") -> ComparisonRow:
        """The row of one statistic and one pair (in either order: the row keeps its own).

        Parameters
        ----------
        statistic : str
            A key of :attr:`statistics`.
        a, b : str
            The two models.
        test : {"paired bootstrap", "DeLong"}, default="paired bootstrap"
            Which test's row.

        Returns
        -------
        ComparisonRow
            The row, whose ``a`` and ``b`` are as compared.

        Raises
        ------
        KeyError
            If that statistic and pair were not compared.
        """
        for r in self.rows if test == "paired bootstrap" else self.delong:
            if r.statistic == statistic and {r.a, r.b} == {a, b} and a != b:
                return r
        raise KeyError(
            f"ModelComparison: no {test} row of {statistic!r} for {a!r} and {b!r}; the statistics are "
            f"{list(self.statistics)} and the pairs {list(self.pairs)}."
        )

    def intervals(self, model: str) -> dict[str, BootstrapResult]:
        """One model's percentile bootstrap intervals of every statistic, from the paired replicates.

        The same intervals :func:`isometrics.evaluate_scores` attaches with ``n_resamples``
        (percentile, at :attr:`confidence_level`; the areas and each metric at its
        re-optimised best threshold), read from the replicates the comparison drew instead
        of a bootstrap of their own: in a paired replicate every model is evaluated on the
        same resampled rows, so one model's values are a bootstrap of that model. The
        models' intervals and the comparisons then come from one set of replicates.

        Parameters
        ----------
        model : str
            One of :attr:`names`.

        Returns
        -------
        dict of str to BootstrapResult
            Keyed by statistic, in :attr:`statistics` order; each with the model's
            estimate, its percentile interval, its replicate values (where defined),
            ``n_dropped`` and ``n_undefined``. Empty when the comparison kept no
            replicates (built by hand).

        Raises
        ------
        KeyError
            If ``model`` is not one of :attr:`names`.
        IsometricsError
            If a statistic is defined on fewer than 2 replicates.

        Warns
        -----
        UndefinedMetricWarning
            If a statistic is undefined on some replicates (they are left out of its interval).
        """
        if model not in self.names:
            raise KeyError(f"ModelComparison.intervals: no model named {model!r}; the models are {list(self.names)}.")
        j = self.names.index(model)
        out = {}
        for statistic in self.statistics:
            if statistic not in self.distributions:
                continue
            column = self.distributions[statistic][:, j]
            # a method, called by the user or by a report: its messages name it, not the function running it
            values, n_undefined = _defined(
                column, statistic, len(column) + self.n_dropped, 4, caller="ModelComparison.intervals"
            )
            estimate = float(self.estimates[statistic][model])
            ci = _interval(
                estimate,
                values,
                self.confidence_level,
                "percentile",
                None,
                statistic,
                caller="ModelComparison.intervals",
            )
            out[statistic] = BootstrapResult(
                statistic,
                estimate,
                ci,
                self.confidence_level,
                "percentile",
                values,
                _standard_error(values),
                self.n_dropped,
                n_undefined,
                self.weight_kind,
            )
        return out

    def sentences(self) -> list[str]:
        """Every row's :meth:`ComparisonRow.sentence`, bootstrap rows then DeLong's.

        Returns
        -------
        list of str
            Plain text, one sentence per row.
        """
        return [r.sentence() for r in (*self.rows, *self.delong)]

    def family(self) -> str:
        """The multiple-testing policy in words: the family, the adjustment, the decision rule.

        Returns
        -------
        str
            One plain-text sentence.
        """
        alpha = f"{1 - self.confidence_level:.2g}"
        pairs = len(self.pairs)
        if self.adjustment == "none" or pairs <= 1:
            what = "no adjustment" if self.adjustment == "none" else "one pair, nothing to adjust"
            return (
                f"p-values unadjusted ({what}); a difference is detected when p <= {alpha}, exactly when its "
                f"{100 * self.confidence_level:g} % interval excludes 0."
            )
        name = _ADJUSTED_NAME[self.adjustment]
        return (
            f"{name}: the p-values of each statistic are adjusted over its {pairs} pairs (DeLong's tests form a "
            f"family of their own); a difference is detected when the adjusted p <= {alpha}, exactly when its "
            f"{name}-adjusted interval excludes 0."
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the whole comparison (what ``isometrics compare --json`` writes).

        Returns
        -------
        dict
            ``names``, ``statistics``, ``estimates``, ``confidence_level``, ``alpha``,
            ``adjustment``, ``family`` (the policy in words), ``baseline``, ``method``,
            ``n_resamples``, ``weight_kind``, ``comparisons`` (each row's
            :meth:`ComparisonRow.to_dict`) and ``delong`` (likewise).
        """
        return {
            "names": list(self.names),
            "statistics": list(self.statistics),
            "estimates": {k: {n: float(v) for n, v in e.items()} for k, e in self.estimates.items()},
            "confidence_level": self.confidence_level,
            "alpha": 1 - self.confidence_level,
            "adjustment": self.adjustment,
            "family": self.family(),
            "baseline": self.baseline,
            "method": self.method,
            "n_resamples": self.n_resamples,
            "weight_kind": self.weight_kind,
            "comparisons": [r.to_dict() for r in self.rows],
            "delong": [r.to_dict() for r in self.delong],
        }

    def _repr_html_(self) -> str:
        level = f"{100 * self.confidence_level:g} %"
        rows = [
            (
                r.statistic + (" (DeLong)" if r.test == "DeLong" else ""),
                r.a,
                r.b,
                r.estimate,
                *r.confidence_interval,
                *r.adjusted_interval,
                r.p_value,
                r.adjusted_p_value,
                r.decision,
            )
            for r in (*self.rows, *self.delong)
        ]
        return html_table(
            (
                "statistic",
                "a",
                "b",
                "a - b",
                f"{level} low",
                "high",
                "adjusted low",
                "adjusted high",
                "p-value",
                f"{self.adjustment} p",
                "decision",
            ),
            rows,
            caption=f"comparison of {', '.join(self.names)}; {self.family()}",
        )


# ---------------------------------------------------------------------------- the policy
def _bootstrap_rows(
    statistic: str,
    label: str,
    greater_is_better: bool,
    results: list[BootstrapResult],
    pairs: list[tuple[str, str]],
    level: float,
    adjustment: str,
    interval: Any,
) -> list[ComparisonRow]:
    """The rows of one statistic: its pairs' p-values adjusted together, each pair's intervals and decision.

    ``interval(result, alpha)`` gives a result's interval at level ``1 - alpha`` (None: the
    order-statistic percentile interval, compatible with the p-value)."""
    alpha = 1 - level
    tests = [_p_value(r.bootstrap_distribution) for r in results]
    adjusted = _adjust([p for p, _ in tests], adjustment)
    rows = []
    for (a, b), r, (p, side), p_adj in zip(pairs, results, tests, adjusted):
        alpha_adj = _adjusted_alpha(alpha, p, p_adj)
        if interval is None:
            ordered = np.sort(r.bootstrap_distribution)
            raw, adj = _order_interval(ordered, alpha), _order_interval(ordered, alpha_adj)
            r = replace(r, confidence_interval=raw)  # one interval, the row's and its bootstrap's
        else:
            raw, adj = r.confidence_interval, interval(r, alpha_adj)
        rows.append(
            ComparisonRow(
                statistic,
                label,
                "paired bootstrap",
                a,
                b,
                float(r.estimate),
                raw,
                adj,
                level,
                1 - alpha_adj,
                p,
                p_adj,
                _decision(p_adj, alpha, side, greater_is_better),
                greater_is_better,
                adjustment,
                len(pairs),
                r,
            )
        )
    return rows


def _delong_rows(tests: list[Any], pairs: list[tuple[str, str]], level: float, adjustment: str) -> list[ComparisonRow]:
    """DeLong's tests of the pairs' AUROCs as rows: adjusted over the pairs, with Wald intervals at the
    compatible levels (they exclude 0 exactly when the adjusted p <= alpha)."""
    alpha = 1 - level
    adjusted = _adjust([t.p_value for t in tests], adjustment)
    z_level = _NORMAL.inv_cdf(1 - alpha / 2)
    rows = []
    for (a, b), t, p_adj in zip(pairs, tests, adjusted):
        low, high = (float(x) for x in t.confidence_interval)
        se = (high - low) / (2 * z_level)
        alpha_adj = _adjusted_alpha(alpha, t.p_value, p_adj)
        half = _NORMAL.inv_cdf(1 - alpha_adj / 2) * se if alpha_adj > 0 else math.inf
        adj = (low, high) if alpha_adj == alpha else (t.difference - half, t.difference + half)
        side = float(np.sign(t.difference))
        rows.append(
            ComparisonRow(
                "auroc",
                "AUROC",
                "DeLong",
                a,
                b,
                float(t.difference),
                (low, high),
                adj,
                level,
                1 - alpha_adj,
                float(t.p_value),
                p_adj,
                _decision(p_adj, alpha, side, True),
                True,
                adjustment,
                len(pairs),
            )
        )
    return rows
