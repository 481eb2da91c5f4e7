"""Cross-validated scoring of one classifier on one data set, cached on disk, and the
responses computed from the cached scores.

One ``.npz`` file per (data set, model) holds the out-of-fold scores, each row's fold and a
JSON record (settings, time, error); it is written through a temporary file and renamed, so
an interrupted build leaves whole files only. Private to :mod:`isometrics.irt.keel`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from .._core.optional import needs
from ..exceptions import DegenerateDataWarning, IsometricsError
from ..spaces.operating_points import OperatingPoints
from .classifiers import ClassifierSpec

_SAFE = re.compile(r"[^A-Za-z0-9._=-]+")


def fold_metrics(y: np.ndarray, scores: np.ndarray, metrics: Sequence[str]) -> tuple[list[float], bool]:
    """The metrics on one fold (AUPRG rescaled to (1 + AUPRG) / 2, clipped at 0), and whether
    that clipping happened."""
    with warnings.catch_warnings():  # a constant score is a valid response (AUROC 0.5)
        warnings.simplefilter("ignore", DegenerateDataWarning)
        op = OperatingPoints.from_scores(y, scores, pos_label=1)
    out, clipped = [], False
    for m in metrics:
        if m == "auroc":
            out.append(op.auroc())
        elif m == "auprg":
            rescaled = (1.0 + op.auprg()) / 2.0
            clipped = rescaled < 0.0
            out.append(max(0.0, rescaled))
        elif m == "average_precision":
            out.append(op.average_precision())
        else:
            out.append(op.best_threshold(m).value)
    return out, clipped


def responses(y: np.ndarray, scores: np.ndarray, fold: np.ndarray, metrics: Sequence[str]) -> tuple[np.ndarray, int]:
    """Each metric's mean over the test folds, and the number of folds whose AUPRG was clipped."""
    per_fold = [fold_metrics(y[fold == k], scores[fold == k], metrics) for k in np.unique(fold)]
    return np.array([values for values, _ in per_fold]).mean(axis=0), sum(clipped for _, clipped in per_fold)


# ---------------------------------------------------------------------------- training
def _n_splits_for(y: np.ndarray, n_splits: int) -> int:
    """The folds used on a data set: ``n_splits``, fewer if the minority class is smaller."""
    return max(2, min(n_splits, int(np.bincount(y, minlength=2).min())))


def _cross_validated_scores(
    spec: ClassifierSpec, X: np.ndarray, y: np.ndarray, n_splits: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-fold scores (probability of class 1, else the decision function) and fold index."""
    with needs("the KEEL benchmark"):
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.model_selection import StratifiedKFold

    scores = np.empty(len(y))
    fold = np.empty(len(y), dtype=np.int8)
    splitter = StratifiedKFold(n_splits=_n_splits_for(y, n_splits), shuffle=True, random_state=seed)
    for k, (train, test) in enumerate(splitter.split(X, y)):
        model = spec.build()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            warnings.filterwarnings("ignore", message=".*[Cc]ollinear.*")
            warnings.filterwarnings("ignore", category=RuntimeWarning)
            model.fit(X[train], y[train])
            if hasattr(model, "predict_proba"):
                column = list(model.classes_).index(1)
                scores[test] = model.predict_proba(X[test])[:, column]
            else:
                scores[test] = model.decision_function(X[test])
        fold[test] = k
    return scores, fold


def cache_file(cache: Path, dataset: str, spec: ClassifierSpec, n_splits: int, seed: int) -> Path:
    """One file per (data set, model): named after the spec, keyed by everything that defines the
    model (a family whose defaults change gets new files, never stale ones)."""
    digest = hashlib.sha1(spec.fingerprint.encode("utf-8")).hexdigest()[:10]
    return cache / f"cv{n_splits}-seed{seed}" / dataset / f"{_SAFE.sub('_', spec.spec)[:80]}-{digest}.npz"


def _write_npz(path: Path, **arrays: Any) -> None:
    """Write through a temporary file in the same folder and rename: never half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npz")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, **arrays)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run_one(
    cache: Path, dataset: str, X: np.ndarray, y: np.ndarray, spec: ClassifierSpec, n_splits: int, seed: int
) -> dict[str, Any]:
    """Train and score one model on one data set, single-threaded, and cache the out-of-fold scores."""
    wall, cpu = time.perf_counter(), time.process_time()
    error = ""
    try:
        # one thread per fit (BLAS and OpenMP): parallelism is across pairs (n_jobs), and threads
        # inside a fit of these small data sets cost more in start-up and contention than they save
        with threadpool_limits(limits=1):
            scores, fold = _cross_validated_scores(spec, X, y, n_splits, seed)
        if not np.all(np.isfinite(scores)):
            raise IsometricsError(f"{np.count_nonzero(~np.isfinite(scores))} non-finite scores")
    except Exception as exc:  # a model that fails on a data set is a missing cell, recorded with its reason
        scores, fold, error = np.zeros(0), np.zeros(0, dtype=np.int8), f"{type(exc).__name__}: {exc}"[:500]
    meta = {
        "dataset": dataset,
        "model": spec.spec,
        "fingerprint": spec.fingerprint,
        "n_splits": n_splits,
        "seed": seed,
        "error": error,
        "seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
    }
    _write_npz(
        cache_file(cache, dataset, spec, n_splits, seed), scores=scores, fold=fold, meta=np.array(json.dumps(meta))
    )
    return meta
