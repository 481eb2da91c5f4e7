"""The benchmark page: a beta^3-IRT study of many models on many data sets, as one
self-contained HTML file (the same standards as the evaluation report: inline Plotly and
script allowed by hash under a strict Content Security Policy, no network, every name
escaped for the context it lands in).

It shows the item characteristic curves of the data sets, the models' abilities against
their mean AUROC and AUPRG (and rankings), the data sets sorted by difficulty and
discrimination, and the adaptive test's trajectory against the full-benchmark estimate.
Everything comes from a :class:`~isometrics.irt.study.BenchmarkStudy`; nothing is fitted here.
"""

from __future__ import annotations

from importlib.resources import files

import numpy as np
from scipy.stats import rankdata, spearmanr

from .._version import __version__
from ..irt.study import BenchmarkStudy
from ._bundle import _plotly_bundle
from ._figures import _figure_json
from ._page import _CSP, _csp_hash, _require, _script_source
from ._style import _model_color
from ._text import _plotly_text

__all__ = ["build_benchmark_page"]

_RESPONSE_LABELS = {"auroc": "AUROC", "auprg": "AUPRG rescaled, (1 + AUPRG) / 2",
                    "average_precision": "average precision"}


def _label(metric: str) -> str:
    return _RESPONSE_LABELS.get(metric, f"best {metric}")


def _ranks(x: np.ndarray) -> np.ndarray:
    """Ranks 1 = highest (average ranks for ties), NaN kept as NaN."""
    out = np.full(len(x), np.nan)
    ok = ~np.isnan(x)
    out[ok] = rankdata(-x[ok])
    return out


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    ok = ~(np.isnan(a) | np.isnan(b))
    return float(spearmanr(a[ok], b[ok]).statistic) if ok.sum() > 2 else float("nan")


# ---------------------------------------------------------------------------- figures
def _icc_figure(study: BenchmarkStudy) -> str:
    import plotly.graph_objects as go

    fig = go.Figure()
    for j, name in enumerate(study.datasets):
        negative = study.discrimination[j] < 0
        fig.add_trace(go.Scatter(
            x=study.icc_grid, y=study.icc[j], mode="lines", name=_plotly_text(name), showlegend=False,
            line=dict(width=1, color="#d62728" if negative else "rgba(31, 119, 180, 0.45)"),
            hovertemplate=(f"{_plotly_text(name)}<br>difficulty {study.difficulty[j]:.3f}, discrimination "
                           f"{study.discrimination[j]:.3f}<br>ability %{{x:.3f}}: expected %{{y:.3f}}<extra></extra>")))
    fig.add_trace(go.Scatter(
        x=study.ability, y=np.full(len(study.models), -0.03), mode="markers", name="models' abilities",
        marker=dict(symbol="line-ns-open", size=12, color="#222"), text=[_plotly_text(m) for m in study.models],
        hovertemplate="%{text}: ability %{x:.3f}<extra></extra>"))
    fig.update_layout(height=460, margin=dict(l=60, r=20, t=30, b=50), xaxis_title="ability θ",
                      yaxis_title=f"expected {_plotly_text(_label(study.metric))}", yaxis_range=[-0.06, 1.02],
                      xaxis_range=[0, 1], legend=dict(orientation="h", y=1.06))
    return _figure_json(fig)


def _ability_figure(study: BenchmarkStudy, metrics: list[str]) -> str:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=len(metrics), subplot_titles=[_plotly_text(f"mean {_label(m)}")
                                                                   for m in metrics], horizontal_spacing=0.08)
    names = [_plotly_text(m) for m in study.models]
    for k, m in enumerate(metrics):
        fig.add_trace(go.Scatter(
            x=study.ability, y=study.mean_responses[m], mode="markers", text=names, showlegend=False,
            marker=dict(color=_model_color(k), size=8),
            error_x=dict(type="data", array=study.ability_se, thickness=1, width=0),
            hovertemplate="%{text}<br>ability %{x:.3f}<br>mean %{y:.4f}<extra></extra>"), 1, k + 1)
        fig.update_xaxes(title_text="ability θ", row=1, col=k + 1)
    fig.update_layout(height=420, margin=dict(l=60, r=20, t=40, b=50))
    return _figure_json(fig)


def _dataset_figure(study: BenchmarkStudy, order: np.ndarray) -> str:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.05,
                        subplot_titles=("difficulty δ", "discrimination a"))
    names = [_plotly_text(study.datasets[j]) for j in order]
    fig.add_trace(go.Bar(x=names, y=study.difficulty[order], marker_color="#1f77b4", showlegend=False,
                         hovertemplate="%{x}: difficulty %{y:.3f}<extra></extra>"), 1, 1)
    colors = ["#d62728" if study.discrimination[j] < 0 else "#2ca02c" for j in order]
    fig.add_trace(go.Bar(x=names, y=study.discrimination[order], marker_color=colors, showlegend=False,
                         hovertemplate="%{x}: discrimination %{y:.3f}<extra></extra>"), 2, 1)
    fig.update_layout(height=560, margin=dict(l=60, r=20, t=40, b=170))
    fig.update_xaxes(tickangle=-60, tickfont=dict(size=9), row=2, col=1)
    return _figure_json(fig)


def _trajectory_figure(study: BenchmarkStudy) -> str:
    import plotly.graph_objects as go

    t = study.test
    assert t is not None
    steps = np.arange(1, len(t.datasets) + 1)
    fig = go.Figure()
    if np.isfinite(t.full_ability):
        band = [t.full_ability - t.full_se, t.full_ability + t.full_se] if np.isfinite(t.full_se) else None
        if band is not None:
            fig.add_trace(go.Scatter(x=[0.5, steps[-1] + 0.5, steps[-1] + 0.5, 0.5], y=[band[0], band[0], band[1],
                                     band[1]], fill="toself", mode="lines", line=dict(width=0),
                                     fillcolor="rgba(255, 127, 14, 0.15)", name="± 1 SE", hoverinfo="skip"))
        fig.add_trace(go.Scatter(x=[0.5, steps[-1] + 0.5], y=[t.full_ability] * 2, mode="lines",
                                 line=dict(color="#ff7f0e", dash="dash"),
                                 name=f"full benchmark ({len(study.datasets)} data sets)",
                                 hovertemplate=f"full-benchmark ability {t.full_ability:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=steps, y=t.ability, mode="lines+markers", name=f"adaptive test ({_plotly_text(t.selection)})",
        line=dict(color="#1f77b4"), error_y=dict(type="data", array=t.ability_se, thickness=1),
        text=[_plotly_text(d) for d in t.datasets], customdata=t.responses,
        hovertemplate="step %{x}: %{text}<br>response %{customdata:.4f}<br>ability %{y:.3f}<extra></extra>"))
    fig.update_layout(height=420, margin=dict(l=60, r=20, t=30, b=50), xaxis_title="data sets administered",
                      yaxis_title="ability θ", legend=dict(orientation="h", y=1.08))
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
    model_rows = []
    for i in np.argsort(-study.ability, kind="stable"):
        model_rows.append(dict(name=study.models[i], ability=f"{study.ability[i]:.3f}",
                               se=f"{study.ability_se[i]:.3f}", rank=f"{ability_rank[i]:g}",
                               others=[(f"{study.mean_responses[m][i]:.4f}", f"{rank_of[m][i]:g}")
                                       for m in compared]))
    correlations = [(_label(m), f"{_spearman(study.ability, study.mean_responses[m]):.3f}") for m in compared]
    order = np.lexsort((-np.abs(study.discrimination), study.difficulty))[::-1]
    dataset_rows = [dict(name=study.datasets[j], difficulty=f"{study.difficulty[j]:.3f}",
                         discrimination=f"{study.discrimination[j]:.3f}",
                         flag="negative: better models do worse (noisy or mislabelled?)"
                         if study.discrimination[j] < 0 else "") for j in order]
    test = None
    if study.test is not None:
        t = study.test
        diff = t.ability[-1] - t.full_ability if len(t.ability) and np.isfinite(t.full_ability) else float("nan")
        test = dict(model=t.model, selection=t.selection, n=len(t.datasets), n_total=len(study.datasets),
                    final=f"{t.ability[-1]:.3f} ± {t.ability_se[-1]:.3f}" if len(t.ability) else "-",
                    full=f"{t.full_ability:.3f} ± {t.full_se:.3f}" if np.isfinite(t.full_ability) else "",
                    difference=f"{diff:+.3f}" if np.isfinite(diff) else "",
                    rows=[dict(step=r["step"], dataset=r["dataset"], response=f"{r['response']:.4f}",
                               ability=f"{r['ability']:.3f}", se=f"{r['se']:.3f}") for r in study.trajectory_rows()],
                    figure=_trajectory_figure(study))
    page_js = _script_source((files("isometrics.report") / "static" / "figures.js").read_text(encoding="utf-8")
                             + "\nwindow.isometricsFigures();\n", "the page's script")
    plotly_js = _script_source(_plotly_bundle(), "the Plotly bundle")
    csp = _CSP.format(scripts=" ".join(_csp_hash(code) for code in (plotly_js, page_js)))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(files("isometrics.report") / "templates")),
                             autoescape=True)
    return env.get_template("benchmark.html.j2").render(
        csp=csp, title=title, metric=_label(study.metric), n_models=len(study.models),
        n_datasets=len(study.datasets), n_splits=study.n_splits, seed=study.seed,
        n_negative=int(np.count_nonzero(study.discrimination < 0)),
        compared=[_label(m) for m in compared], correlations=correlations, model_rows=model_rows,
        dataset_rows=dataset_rows, test=test, icc_figure=_icc_figure(study),
        ability_figure=_ability_figure(study, compared), dataset_figure=_dataset_figure(study, order),
        plotly_js=plotly_js, page_js=page_js, version=__version__)
