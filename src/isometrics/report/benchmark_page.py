"""The benchmark page: a beta^3-IRT study of many models on many data sets, as one
self-contained HTML file (the same standards as the evaluation report: inline Plotly and
script allowed by hash under a strict Content Security Policy, no network, every name
escaped for the context it lands in).

It shows the item characteristic curves of the data sets, the models' abilities (with 95 %
intervals) against their mean AUROC and AUPRG (and rankings), the data sets ranked by
difficulty where their discrimination is positive (a data set with a negative one is
described instead: near the ceiling, where the better models do not score higher), each beside
its mean response, and the adaptive test's trajectory against the full-benchmark estimate. The ability axes span
the abilities found, and numbers carry as many decimals as rank them. Everything comes
from a :class:`~isometrics.irt.study.BenchmarkStudy`; nothing is fitted here.
"""

from __future__ import annotations

from importlib.resources import files

import numpy as np
from scipy.stats import rankdata, spearmanr

from .._version import __version__
from ..irt.study import NEAR_CEILING, BenchmarkStudy, decimals_to_rank
from ._bundle import _plotly_bundle
from ._figures import _figure_json
from ._margins import BOTTOM
from ._page import _CSP, _csp_hash, _environment, _require, _script_source
from ._style import _model_color
from ._text import _plotly_text

__all__ = ["build_benchmark_page"]

_RESPONSE_LABELS = {
    "auroc": "AUROC",
    "auprg": "AUPRG rescaled, (1 + AUPRG) / 2",
    "average_precision": "average precision",
}


def _label(metric: str) -> str:
    return _RESPONSE_LABELS.get(metric, f"best {metric}")


def _ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1 = highest (average ranks for ties), NaN kept as NaN."""
    out = np.full(len(x), np.nan)
    ok = ~np.isnan(x)
    out[ok] = rankdata(-x[ok])
    return out


def _ability_range(values: np.ndarray) -> list[float]:
    """The axis of abilities: the values' range padded by a quarter of it on each side, within [0, 1]."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    if not len(x):
        return [0.0, 1.0]
    lo, hi = float(x.min()), float(x.max())
    pad = max(0.25 * (hi - lo), 0.01)
    return [max(0.0, lo - pad), min(1.0, hi + pad)]


def _reading(discrimination: float, mean: float) -> str:
    """What a data set's parameters mean: nothing to add where a > 0; a negative a explained."""
    if not discrimination < 0:
        return ""
    if np.isfinite(mean) and mean >= NEAR_CEILING:
        return (
            f"near the ceiling (mean {mean:.4f}): every model scores nearly perfectly, and the small "
            "differences are not ordered by ability"
        )
    if np.isfinite(mean):
        return (
            f"the better models score lower here (mean {mean:.4f}): the data set does not order the models "
            "by ability, so it has no difficulty rank"
        )
    return "the better models do not score higher here"


def _dataset_order(study: BenchmarkStudy) -> np.ndarray:
    """Data sets with a > 0 from the hardest to the easiest, then those with a <= 0 by mean response."""
    a = study.discrimination
    means = _dataset_means(study)
    ranked = np.flatnonzero(a > 0)
    ranked = ranked[np.lexsort((-np.abs(a[ranked]), -study.difficulty[ranked]))]
    rest = np.flatnonzero(~(a > 0))
    rest = rest[np.argsort(np.nan_to_num(means[rest], nan=np.inf), kind="stable")]
    return np.concatenate([ranked, rest]).astype(int)


def _dataset_means(study: BenchmarkStudy) -> np.ndarray:
    return (
        np.full(len(study.datasets), np.nan)
        if study.dataset_mean is None
        else np.asarray(study.dataset_mean, dtype=float)
    )


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    ok = ~(np.isnan(a) | np.isnan(b))
    return float(spearmanr(a[ok], b[ok]).statistic) if ok.sum() > 2 else float("nan")


# ---------------------------------------------------------------------------- figures
def _icc_figure(study: BenchmarkStudy) -> str:
    import plotly.graph_objects as go

    fig = go.Figure()
    means = _dataset_means(study)
    for j, name in enumerate(study.datasets):
        if study.discrimination[j] < 0:
            color = "#ff7f0e" if np.isfinite(means[j]) and means[j] >= NEAR_CEILING else "#d62728"
        else:
            color = "rgba(31, 119, 180, 0.45)"
        fig.add_trace(
            go.Scatter(
                x=study.icc_grid,
                y=study.icc[j],
                mode="lines",
                name=_plotly_text(name),
                showlegend=False,
                line=dict(width=1, color=color),
                hovertemplate=(
                    f"{_plotly_text(name)}<br>difficulty {study.difficulty[j]:.3f}, discrimination "
                    f"{study.discrimination[j]:.3f}<br>ability %{{x:.3f}}: expected %{{y:.3f}}<extra></extra>"
                ),
            )
        )
    fig.add_trace(
        go.Scatter(
            x=study.ability,
            y=np.full(len(study.models), -0.03),
            mode="markers",
            name="models' abilities",
            marker=dict(symbol="line-ns-open", size=12, color="#222"),
            text=[_plotly_text(m) for m in study.models],
            hovertemplate=f"%{{text}}: ability %{{x:.{decimals_to_rank(study.ability)}f}}<extra></extra>",
        )
    )
    fig.update_layout(
        height=460,
        margin=dict(l=60, r=20, t=30, b=BOTTOM),
        xaxis_title="ability θ",
        yaxis_title=f"expected {_plotly_text(_label(study.metric))}",
        yaxis_range=[-0.06, 1.02],
        xaxis_range=_ability_range(study.ability),
        legend=dict(orientation="h", y=1.06),
    )
    return _figure_json(fig)


def _ability_figure(study: BenchmarkStudy, metrics: list[str]) -> str:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(
        rows=1,
        cols=len(metrics),
        subplot_titles=[_plotly_text(f"mean {_label(m)}") for m in metrics],
        horizontal_spacing=0.08,
    )
    names = [_plotly_text(m) for m in study.models]
    band = study.intervals()
    digits = decimals_to_rank(study.ability)
    for k, m in enumerate(metrics):
        fig.add_trace(
            go.Scatter(
                x=study.ability,
                y=study.mean_responses[m],
                mode="markers",
                text=names,
                showlegend=False,
                name="95 % interval",
                marker=dict(color=_model_color(k), size=8),
                customdata=band,
                error_x=dict(
                    type="data",
                    symmetric=False,
                    array=band[:, 1] - study.ability,
                    arrayminus=study.ability - band[:, 0],
                    thickness=1,
                    width=0,
                ),
                hovertemplate=(
                    f"%{{text}}<br>ability %{{x:.{digits}f}} (95 % interval %{{customdata[0]:.{digits}f}} - "
                    f"%{{customdata[1]:.{digits}f}})<br>mean %{{y:.4f}}<extra></extra>"
                ),
            ),
            1,
            k + 1,
        )
        fig.update_xaxes(
            title_text="ability θ (bars: 95 % interval)", row=1, col=k + 1, range=_ability_range(band.ravel())
        )
    fig.update_layout(height=420, margin=dict(l=60, r=20, t=40, b=BOTTOM))
    return _figure_json(fig)


def _dataset_figure(study: BenchmarkStudy, order: np.ndarray) -> str:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(
        rows=3,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.05,
        subplot_titles=(
            "difficulty δ (ranked only where a > 0)",
            "discrimination a",
            f"mean {_plotly_text(_label(study.metric))} over the models",
        ),
    )
    names = [_plotly_text(study.datasets[j]) for j in order]
    positive = study.discrimination[order] > 0
    difficulty = [float(d) if p else None for d, p in zip(study.difficulty[order], positive)]
    digits = decimals_to_rank(study.difficulty[study.discrimination > 0])
    fig.add_trace(
        go.Bar(
            x=names,
            y=difficulty,
            marker_color="#1f77b4",
            showlegend=False,
            hovertemplate=f"%{{x}}: difficulty %{{y:.{digits}f}}<extra></extra>",
        ),
        1,
        1,
    )
    colors = ["#d62728" if study.discrimination[j] < 0 else "#2ca02c" for j in order]
    fig.add_trace(
        go.Bar(
            x=names,
            y=study.discrimination[order],
            marker_color=colors,
            showlegend=False,
            hovertemplate="%{x}: discrimination %{y:.3f}<extra></extra>",
        ),
        2,
        1,
    )
    means = _dataset_means(study)[order]
    fig.add_trace(
        go.Scatter(
            x=names,
            y=[float(v) if np.isfinite(v) else None for v in means],
            mode="markers",
            marker=dict(color=colors, size=6),
            showlegend=False,
            hovertemplate="%{x}: mean response %{y:.4f}<extra></extra>",
        ),
        3,
        1,
    )
    fig.update_layout(height=700, margin=dict(l=60, r=20, t=40, b=170))
    fig.update_xaxes(tickangle=-60, tickfont=dict(size=9), row=3, col=1)
    return _figure_json(fig)


def _trajectory_figure(study: BenchmarkStudy) -> str:
    import plotly.graph_objects as go

    t = study.test
    assert t is not None
    steps = np.arange(1, len(t.datasets) + 1)
    fig = go.Figure()
    if np.isfinite(t.full_ability):
        band = t.full_interval(0.95) if np.isfinite(t.full_se) else None
        if band is not None:
            fig.add_trace(
                go.Scatter(
                    x=[0.5, steps[-1] + 0.5, steps[-1] + 0.5, 0.5],
                    y=[band[0], band[0], band[1], band[1]],
                    fill="toself",
                    mode="lines",
                    line=dict(width=0),
                    fillcolor="rgba(255, 127, 14, 0.15)",
                    name="95 % interval (full benchmark)",
                    hoverinfo="skip",
                )
            )
        fig.add_trace(
            go.Scatter(
                x=[0.5, steps[-1] + 0.5],
                y=[t.full_ability] * 2,
                mode="lines",
                line=dict(color="#ff7f0e", dash="dash"),
                name=f"full benchmark ({len(study.datasets)} data sets)",
                hovertemplate=f"full-benchmark ability {t.full_ability:.3f}<extra></extra>",
            )
        )
    step_band = t.interval(0.95)
    fig.add_trace(
        go.Scatter(
            x=steps,
            y=t.ability,
            mode="lines+markers",
            name=f"adaptive test ({_plotly_text(t.selection)}; bars: 95 % interval)",
            line=dict(color="#1f77b4"),
            error_y=dict(
                type="data",
                symmetric=False,
                array=step_band[:, 1] - t.ability,
                arrayminus=t.ability - step_band[:, 0],
                thickness=1,
            ),
            text=[_plotly_text(d) for d in t.datasets],
            customdata=t.responses,
            hovertemplate="step %{x}: %{text}<br>response %{customdata:.4f}<br>ability %{y:.3f}<extra></extra>",
        )
    )
    fig.update_layout(
        height=420,
        margin=dict(l=60, r=20, t=30, b=BOTTOM),
        xaxis_title="data sets administered",
        yaxis_title="ability θ",
        legend=dict(orientation="h", y=1.08),
    )
    return _figure_json(fig)


# ---------------------------------------------------------------------------- page
def build_benchmark_page(study: BenchmarkStudy, *, title: str = "isometrics benchmark") -> str:
    """Render a benchmark study as one self-contained HTML page.

    Parameters
    ----------
    study : BenchmarkStudy
        From :func:`isometrics.irt.study.fit_benchmark` or
        :func:`~isometrics.irt.study.run_adaptive_test`.
    title : str, default="isometrics benchmark"
        Page title (escaped).

    Returns
    -------
    str
        The HTML page: inline scripts (Plotly, the page's own) allowed by hash, inline
        styles, no external resource.

    Raises
    ------
    TypeError
        If ``study`` is not a BenchmarkStudy.
    ImportError
        If plotly or jinja2 is missing.
    """
    if not isinstance(study, BenchmarkStudy):
        raise TypeError(f"build_benchmark_page: `study` must be a BenchmarkStudy; got {type(study).__name__}.")
    jinja2, plotly = _require()
    compared: list[str] = [m for m in ("auroc", "auprg") if m in study.mean_responses] or list(study.mean_responses)[:2]
    ability_rank = _ranks(study.ability)
    rank_of = {m: _ranks(study.mean_responses[m]) for m in compared}
    band = study.intervals()
    digits = decimals_to_rank(study.ability)
    model_rows = []
    for i in np.argsort(-study.ability, kind="stable"):
        model_rows.append(
            dict(
                name=study.models[i],
                ability=f"{study.ability[i]:.{digits}f}",
                interval=f"{band[i, 0]:.{digits}f} - {band[i, 1]:.{digits}f}",
                se=f"{study.ability_se[i]:.{digits}f}",
                rank=f"{ability_rank[i]:g}",
                others=[(f"{study.mean_responses[m][i]:.4f}", f"{rank_of[m][i]:g}") for m in compared],
            )
        )
    correlations = [(_label(m), f"{_spearman(study.ability, study.mean_responses[m]):.3f}") for m in compared]
    order = _dataset_order(study)
    means = _dataset_means(study)
    n_ranked = int(np.count_nonzero(study.discrimination > 0))
    d_digits = decimals_to_rank(study.difficulty[study.discrimination > 0])
    dataset_rows = [
        dict(
            name=study.datasets[j],
            mean="-" if not np.isfinite(means[j]) else f"{means[j]:.4f}",
            difficulty=f"{study.difficulty[j]:.{d_digits}f}",
            rank=str(k + 1) if k < n_ranked else "-",
            discrimination=f"{study.discrimination[j]:.3f}",
            flag=_reading(float(study.discrimination[j]), float(means[j])),
        )
        for k, j in enumerate(order)
    ]
    negative = study.discrimination < 0
    n_ceiling = int(np.count_nonzero(negative & (means >= NEAR_CEILING)))
    test = None
    if study.test is not None:
        t = study.test
        diff = t.ability[-1] - t.full_ability if len(t.ability) and np.isfinite(t.full_ability) else float("nan")
        tdig = decimals_to_rank(np.r_[t.ability, t.full_ability])
        final_band = t.interval(0.95)[-1] if len(t.ability) else None
        full_band = t.full_interval(0.95)
        test = dict(
            model=t.model,
            selection=t.selection,
            n=len(t.datasets),
            n_total=len(study.datasets),
            held_out=t.held_out,
            bank_size=t.bank_size,
            failed=[dict(dataset=d, error=e) for d, e in t.failed],
            final=(f"{t.ability[-1]:.{tdig}f} (95 % interval {final_band[0]:.{tdig}f} - {final_band[1]:.{tdig}f})")
            if final_band is not None
            else "-",
            full=(f"{t.full_ability:.{tdig}f} (95 % interval {full_band[0]:.{tdig}f} - {full_band[1]:.{tdig}f})")
            if np.isfinite(t.full_ability)
            else "",
            difference=f"{diff:+.{tdig}f}" if np.isfinite(diff) else "",
            rows=[
                dict(
                    step=r["step"],
                    dataset=r["dataset"],
                    response=f"{r['response']:.4f}",
                    ability=f"{r['ability']:.{tdig}f}",
                    se=f"{r['se']:.{tdig}f}",
                )
                for r in study.trajectory_rows()
            ],
            figure=_trajectory_figure(study),
        )
    page_js = _script_source(
        (files("isometrics.report") / "static" / "figures.js").read_text(encoding="utf-8")
        + "\nwindow.isometricsFigures();\n",
        "the page's script",
    )
    plotly_js = _script_source(_plotly_bundle(), "the Plotly bundle")
    csp = _CSP.format(scripts=" ".join(_csp_hash(code) for code in (plotly_js, page_js)))
    return (
        _environment(jinja2)
        .get_template("benchmark.html.j2")
        .render(
            csp=csp,
            title=title,
            metric=_label(study.metric),
            n_models=len(study.models),
            n_datasets=len(study.datasets),
            n_splits=study.n_splits,
            seed=study.seed,
            n_negative=int(np.count_nonzero(negative)),
            n_ceiling=n_ceiling,
            n_ranked=n_ranked,
            near_ceiling=f"{NEAR_CEILING:g}",
            dropped=list(study.dropped),
            compared=[_label(m) for m in compared],
            correlations=correlations,
            model_rows=model_rows,
            dataset_rows=dataset_rows,
            test=test,
            icc_figure=_icc_figure(study),
            ability_figure=_ability_figure(study, compared),
            dataset_figure=_dataset_figure(study, order),
            plotly_js=plotly_js,
            page_js=page_js,
            version=__version__,
        )
    )
