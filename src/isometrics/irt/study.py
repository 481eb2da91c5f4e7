"""A benchmark study: beta^3-IRT fitted to a KEEL benchmark, with an adaptive test.

:func:`fit_benchmark` fits the item bank (data sets as items, models as respondents) to one
response of a :class:`~isometrics.irt.keel.KeelBenchmark` and, optionally, leaves one cached
model out of the bank and tests it adaptively, so that its trajectory can be set against
its full-benchmark estimate. :func:`run_adaptive_test` tests a new classifier on a bank
fitted to every cached model. Both return a :class:`BenchmarkStudy`: plain numbers, ready
for the report page and for JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..exceptions import IsometricsError
from .adaptive import adaptive_test
from .keel import KeelBenchmark
from .model import fit_beta3

__all__ = ["AdaptiveRecord", "BenchmarkStudy", "administer", "fit_bank", "fit_benchmark", "full_benchmark_ability",
           "run_adaptive_test"]

#: Points of the ability grid on which the item characteristic curves are drawn.
_GRID = np.linspace(0.005, 0.995, 199)


@dataclass(frozen=True)
class AdaptiveRecord:
    """One adaptive test: the data sets in the order given, the responses and the trajectory.

    Attributes
    ----------
    model : str
        The model tested.
    selection : str
        ``"fisher"``, ``"kl"`` or ``"random"``.
    datasets : tuple of str
        The data sets administered, in order.
    responses, ability, ability_se : ndarray of shape (n_steps,)
        The response to each, and the ability estimate and its standard error after it.
    full_ability, full_se : float
        The estimate from every data set of the benchmark with the same bank (NaN when
        the model was not run on them all, e.g. a new model).
    """

    model: str
    selection: str
    datasets: tuple[str, ...]
    responses: np.ndarray = field(repr=False)
    ability: np.ndarray = field(repr=False)
    ability_se: np.ndarray = field(repr=False)
    full_ability: float = float("nan")
    full_se: float = float("nan")


@dataclass(frozen=True)
class BenchmarkStudy:
    """An item bank fitted to a benchmark, and optionally one adaptive test.

    Attributes
    ----------
    metric : str
        The response the bank was fitted to.
    models : tuple of str
        The respondents of the bank.
    datasets : tuple of str
        The items.
    ability, ability_se : ndarray of shape (n_models,)
        beta^3-IRT abilities in (0, 1) and their standard errors.
    difficulty, discrimination : ndarray of shape (n_datasets,)
        The data sets' parameters; a negative discrimination flags a data set on which
        better models do worse (noisy or mislabelled).
    mean_responses : dict of str to ndarray of shape (n_models,)
        Mean over the data sets of each computed response (``"auroc"``, ``"auprg"``...),
        for the rankings the abilities are compared with.
    icc_grid : ndarray of shape (n_grid,)
        Abilities at which the item characteristic curves are drawn.
    icc : ndarray of shape (n_datasets, n_grid)
        Expected response of each data set along the grid.
    test : AdaptiveRecord or None
        The adaptive test, if one was run.
    n_splits, seed : int
        The benchmark's cross-validation.
    """

    metric: str
    models: tuple[str, ...]
    datasets: tuple[str, ...]
    ability: np.ndarray = field(repr=False)
    ability_se: np.ndarray = field(repr=False)
    difficulty: np.ndarray = field(repr=False)
    discrimination: np.ndarray = field(repr=False)
    mean_responses: dict[str, np.ndarray] = field(repr=False)
    icc_grid: np.ndarray = field(repr=False)
    icc: np.ndarray = field(repr=False)
    test: AdaptiveRecord | None = None
    n_splits: int = 3
    seed: int = 0

    @property
    def test_model(self) -> str:
        """The model of the adaptive test ("" without one)."""
        return "" if self.test is None else self.test.model

    def ability_rows(self) -> list[dict[str, Any]]:
        """One row per model, by decreasing ability: model, ability, se, mean (of the fitted response)."""
        mean = self.mean_responses.get(self.metric, np.full(len(self.models), np.nan))
        return [{"model": self.models[i], "ability": float(self.ability[i]), "se": float(self.ability_se[i]),
                 "mean": float(mean[i])} for i in np.argsort(-self.ability, kind="stable")]

    def trajectory_rows(self) -> list[dict[str, Any]]:
        """One row per step of the adaptive test: step, dataset, response, ability, se."""
        if self.test is None:
            return []
        t = self.test
        return [{"step": k + 1, "dataset": d, "response": float(t.responses[k]), "ability": float(t.ability[k]),
                 "se": float(t.ability_se[k])} for k, d in enumerate(t.datasets)]

    def to_dict(self) -> dict[str, Any]:
        """The study as JSON-ready data (NaN written as None).

        Returns
        -------
        dict
            ``metric``, ``models`` (name, ability, se, mean responses), ``datasets`` (name,
            difficulty, discrimination), and ``adaptive_test`` (or None).
        """
        def num(x: Any) -> float | None:
            x = float(x)
            return x if np.isfinite(x) else None

        out: dict[str, Any] = {
            "metric": self.metric, "n_splits": self.n_splits, "seed": self.seed,
            "models": [{"model": m, "ability": num(self.ability[i]), "ability_se": num(self.ability_se[i]),
                        **{f"mean_{k}": num(v[i]) for k, v in self.mean_responses.items()}}
                       for i, m in enumerate(self.models)],
            "datasets": [{"dataset": d, "difficulty": num(self.difficulty[j]),
                          "discrimination": num(self.discrimination[j])} for j, d in enumerate(self.datasets)],
            "adaptive_test": None,
        }
        if self.test is not None:
            out["adaptive_test"] = {"model": self.test.model, "selection": self.test.selection,
                                    "full_ability": num(self.test.full_ability),
                                    "full_ability_se": num(self.test.full_se),
                                    "steps": [{**r, "response": num(r["response"]), "ability": num(r["ability"]),
                                               "se": num(r["se"])} for r in self.trajectory_rows()]}
        return out


# ---------------------------------------------------------------------------- building
def fit_bank(bench: KeelBenchmark, metric: str, keep: np.ndarray) -> Any:
    """beta^3-IRT fitted to the responses of the models ``keep`` selects (the one call of :func:`fit_beta3`)."""
    matrix = bench.matrix(metric)[keep]
    names = [m for m, k in zip(bench.models, keep) if k]
    return fit_beta3(matrix, respondents=names, items=list(bench.datasets))


def administer(bank: Any, model: str, respond: Callable[[str], float], *, selection: str, max_items: int,
               se_target: float | None = None, seed: int = 0, available: list[str] | None = None,
               full: tuple[float, float] = (float("nan"), float("nan"))) -> AdaptiveRecord:
    """Run one adaptive test on ``bank`` (the one call of :func:`adaptive_test` here) as a record.

    Parameters
    ----------
    bank : Beta3IRT
        The fitted item bank.
    model : str
        The name of the model tested.
    respond : callable
        ``respond(dataset) -> float``.
    selection : {"fisher", "kl", "random"}
        How the next data set is chosen.
    max_items : int
        Most data sets administered.
    se_target : float, default=None
        Stop once the ability's standard error is below it.
    seed : int, default=0
        Seed of random selection.
    available : list of str, default=None
        The data sets that may be administered (default: every item of the bank).
    full : tuple of float, default=(nan, nan)
        The full-benchmark ability and its standard error, kept for comparison.

    Returns
    -------
    AdaptiveRecord
    """
    items = list(bank.items) if available is None else available
    result = adaptive_test(bank, respond, selection=selection, max_items=min(max_items, len(items)),
                           se_target=se_target, rng=seed, available=items)
    return AdaptiveRecord(model=model, selection=selection, datasets=tuple(result.items),
                          responses=np.asarray(result.responses, dtype=float),
                          ability=np.asarray(result.trajectory, dtype=float),
                          ability_se=np.asarray(result.trajectory_se, dtype=float),
                          full_ability=full[0], full_se=full[1])


def full_benchmark_ability(bank: Any, responses: np.ndarray) -> tuple[float, float]:
    """The ability (and its standard error) of a respondent from all its responses, the bank fixed.

    Parameters
    ----------
    bank : Beta3IRT
        The fitted item bank.
    responses : ndarray of shape (n_items,)
        One response per item of the bank (NaN = not observed).

    Returns
    -------
    tuple of float
        (ability, standard error).
    """
    items = list(bank.items)
    observed = [items[j] for j in np.flatnonzero(~np.isnan(responses))]
    record = administer(bank, "", lambda name: float(responses[items.index(name)]), selection="random",
                        max_items=len(observed), available=observed)
    return float(record.ability[-1]), float(record.ability_se[-1])


def _study(bench: KeelBenchmark, metric: str, bank: Any, test: AdaptiveRecord | None) -> BenchmarkStudy:
    ability = np.asarray(bank.ability, dtype=float)
    keep = [bench.models.index(m) for m in bank.respondents]
    icc = np.array([[float(v) for v in bank.expected_response(_GRID, j)] for j in range(len(bench.datasets))])
    return BenchmarkStudy(
        metric=metric, models=tuple(bank.respondents), datasets=tuple(bench.datasets), ability=ability,
        ability_se=np.asarray(bank.ability_se, dtype=float), difficulty=np.asarray(bank.difficulty, dtype=float),
        discrimination=np.asarray(bank.discrimination, dtype=float),
        mean_responses={m: np.nanmean(bench.responses[m][keep], axis=1) for m in bench.metrics},
        icc_grid=_GRID.copy(), icc=icc, test=test, n_splits=bench.n_splits, seed=bench.seed)


def fit_benchmark(bench: KeelBenchmark, *, metric: str = "auroc", held_out: str | None = None,
                  max_items: int = 20, selection: str = "fisher") -> BenchmarkStudy:
    """Fit beta^3-IRT to a benchmark and test one cached model adaptively against the rest.

    Parameters
    ----------
    bench : KeelBenchmark
        From :func:`~isometrics.irt.keel.read_keel_benchmark`.
    metric : str, default="auroc"
        The response fitted (one of ``bench.metrics``).
    held_out : str, default=None
        A model of ``bench`` to leave out of the bank and test adaptively against it,
        with its full-benchmark ability for comparison; default: the model of median
        ability in the bank of all models. The study's bank is the one without it.
    max_items : int, default=20
        Length of the adaptive test.
    selection : str, default="fisher"
        The adaptive test's item selection.

    Returns
    -------
    BenchmarkStudy

    Raises
    ------
    ValueError
        If ``metric`` was not computed or ``held_out`` is not a model of ``bench``.
    """
    caller = "fit_benchmark"
    if len(bench.models) < 3:
        raise IsometricsError(f"{caller}: the benchmark has {len(bench.models)} model(s); fitting abilities and "
                              "leaving one out needs at least 3.")
    matrix = bench.matrix(metric)
    if held_out is None:
        full = fit_bank(bench, metric, np.ones(len(bench.models), dtype=bool))
        held_out = full.respondents[int(np.argsort(full.ability)[len(full.ability) // 2])]
    if held_out not in bench.models:
        raise IsometricsError(f"{caller}: `held_out` {held_out!r} is not a model of the benchmark; give one of "
                              f"{', '.join(bench.models)}.")
    i = bench.models.index(held_out)
    keep = np.arange(len(bench.models)) != i
    bank = fit_bank(bench, metric, keep)
    row = matrix[i]
    available = [d for d, v in zip(bench.datasets, row) if not np.isnan(v)]

    def respond(name: str) -> float:
        return float(row[bench.datasets.index(name)])

    test = administer(bank, held_out, respond, selection=selection, max_items=max_items, seed=bench.seed,
                      available=available, full=full_benchmark_ability(bank, row))
    return _study(bench, metric, bank, test)


def run_adaptive_test(bench: KeelBenchmark, model: str, respond: Callable[[str], float], *, metric: str = "auroc",
                      selection: str = "fisher", max_items: int = 20, se_target: float | None = None,
                      seed: int = 0) -> BenchmarkStudy:
    """Test a new model adaptively on the bank fitted to every model of a benchmark.

    Parameters
    ----------
    bench : KeelBenchmark
        The benchmark the bank is fitted to.
    model : str
        The new model's name (its spec).
    respond : callable
        ``respond(dataset) -> float``: trains and scores the model on that data set.
    metric : str, default="auroc"
        The response.
    selection : {"fisher", "kl", "random"}, default="fisher"
        How the next data set is chosen.
    max_items : int, default=20
        Most data sets administered.
    se_target : float, default=None
        Stop once the ability's standard error is below it.
    seed : int, default=0
        Seed of random selection.

    Returns
    -------
    BenchmarkStudy
        The bank of every model, and the test (its full-benchmark ability NaN unless the
        model is one of the benchmark's).
    """
    bank = fit_bank(bench, metric, np.ones(len(bench.models), dtype=bool))
    test = administer(bank, model, respond, selection=selection, max_items=max_items, se_target=se_target,
                      seed=seed)
    return _study(bench, metric, bank, test)
