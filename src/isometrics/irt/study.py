"""A benchmark study: beta^3-IRT fitted to a KEEL benchmark, with an adaptive test.

:func:`fit_benchmark` fits the item bank (data sets as items, models as respondents) to one
response of a :class:`~isometrics.irt.keel.KeelBenchmark`: every model is a respondent of
the bank and is shown. Only when asked (``held_out``) does it also refit the bank without
one cached model and test that model adaptively, so that its trajectory can be set against
its full-benchmark estimate. :func:`run_adaptive_test` tests a classifier on the bank of
every cached model (a model that is itself cached is held out of the bank its test uses,
and the record says so); a data set on which the tested model fails is left out of the test
and reported. Both return a :class:`BenchmarkStudy`: plain numbers, ready for the report
page and for JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.special import expit

from ..exceptions import IsometricsError
from ._laplace import wald_interval
from .adaptive import adaptive_test
from .keel import KeelBenchmark
from .model import fit_beta3

__all__ = ["AdaptiveRecord", "BenchmarkStudy", "NEAR_CEILING", "administer", "decimals_to_rank", "fit_bank",
           "fit_benchmark", "full_benchmark_ability", "run_adaptive_test"]

#: Points of the ability grid on which the item characteristic curves are drawn: uniform on
#: the logit scale, so that abilities crowded near 0 or 1 (on KEEL all lie in 0.03-0.08) are
#: drawn as finely as those near 0.5.
_GRID = expit(np.linspace(-7.0, 7.0, 281))

#: A data set whose mean response is at least this is near the ceiling: every model scores
#: nearly perfectly on it, and its discrimination says little about ability.
NEAR_CEILING = 0.95


def decimals_to_rank(values: Any, *, least: int = 3, most: int = 8) -> int:
    """How many decimals tell every two distinct values apart when printed.

    Parameters
    ----------
    values : array-like of float
        The numbers of a column (NaN and infinities ignored).
    least, most : int, default=3, 8
        Bounds of the answer.

    Returns
    -------
    int
        The smallest number of decimals in ``[least, most]`` at which the distinct values'
        printed forms are all distinct (``most`` when even that is not enough).
    """
    x = np.asarray(values, dtype=float).ravel()
    distinct = np.unique(x[np.isfinite(x)])
    for digits in range(least, most + 1):
        if len({f"{v:.{digits}f}" for v in distinct}) == len(distinct):
            return digits
    return most


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
    held_out : bool
        Whether the model is one of the benchmark's, left out of the bank this test used
        (a bank refitted to the other models).
    bank_size : int
        The number of models of the bank this test used (0 when not recorded).
    failed : tuple of (str, str)
        (data set, error) for each data set on which the model failed: left out of the
        test, which went on with the others.
    """

    model: str
    selection: str
    datasets: tuple[str, ...]
    responses: np.ndarray = field(repr=False)
    ability: np.ndarray = field(repr=False)
    ability_se: np.ndarray = field(repr=False)
    full_ability: float = float("nan")
    full_se: float = float("nan")
    held_out: bool = False
    bank_size: int = 0
    failed: tuple[tuple[str, str], ...] = ()

    def interval(self, level: float = 0.95) -> np.ndarray:
        """The interval of the ability after each step (see :func:`wald_interval`).

        Parameters
        ----------
        level : float in (0, 1), default=0.95
            Coverage.

        Returns
        -------
        ndarray of shape (n_steps, 2)
            Lower and upper bounds in (0, 1).
        """
        return wald_interval(self.ability, self.ability_se, level)

    def full_interval(self, level: float = 0.95) -> np.ndarray:
        """The interval of the full-benchmark ability (NaN without one).

        Parameters
        ----------
        level : float in (0, 1), default=0.95
            Coverage.

        Returns
        -------
        ndarray of shape (2,)
            Lower and upper bounds.
        """
        return wald_interval(np.array([self.full_ability]), np.array([self.full_se]), level)[0]


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
        The data sets' parameters. A difficulty ranks data sets only where the
        discrimination is positive; with a negative one the better models do not score
        higher there: near the ceiling (mean response at least :data:`NEAR_CEILING`) every
        model scores nearly perfectly and the small differences are not ordered by
        ability; lower down, the better models score lower there, so no difficulty rank is given.
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
    dataset_mean : ndarray of shape (n_datasets,) or None
        Mean observed response of each data set over the models (the fitted metric).
    ability_interval : ndarray of shape (n_models, 2) or None
        95 % intervals of the abilities (None: the page builds them from ``ability_se``
        with :func:`wald_interval`).
    dropped : tuple of str
        Models of the benchmark left out of the bank on request.
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
    dataset_mean: np.ndarray | None = field(default=None, repr=False)
    ability_interval: np.ndarray | None = field(default=None, repr=False)
    dropped: tuple[str, ...] = ()

    def intervals(self) -> np.ndarray:
        """The abilities' 95 % intervals: ``ability_interval``, or built from the standard errors.

        Returns
        -------
        ndarray of shape (n_models, 2)
            Lower and upper bounds in (0, 1).
        """
        if self.ability_interval is not None:
            return np.asarray(self.ability_interval, dtype=float)
        return wald_interval(self.ability, self.ability_se)

    @property
    def test_model(self) -> str:
        """The model of the adaptive test ("" without one)."""
        return "" if self.test is None else self.test.model

    def ability_rows(self) -> list[dict[str, Any]]:
        """One row per model, by decreasing ability: model, ability, se, low, high (95 % interval),
        mean (of the fitted response)."""
        mean = self.mean_responses.get(self.metric, np.full(len(self.models), np.nan))
        band = self.intervals()
        return [{"model": self.models[i], "ability": float(self.ability[i]), "se": float(self.ability_se[i]),
                 "low": float(band[i, 0]), "high": float(band[i, 1]), "mean": float(mean[i])}
                for i in np.argsort(-self.ability, kind="stable")]

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
            ``metric``, ``models`` (name, ability, se, 95 % interval, mean responses), ``dropped``,
            ``datasets`` (name, difficulty, discrimination, mean response), and ``adaptive_test``
            (or None; ``held_out`` says whether its model was left out of the bank it used,
            ``failed`` lists the data sets it failed on).
        """
        def num(x: Any) -> float | None:
            x = float(x)
            return x if np.isfinite(x) else None

        band = self.intervals()
        means = np.full(len(self.datasets), np.nan) if self.dataset_mean is None else self.dataset_mean
        out: dict[str, Any] = {
            "metric": self.metric, "n_splits": self.n_splits, "seed": self.seed,
            "models": [{"model": m, "ability": num(self.ability[i]), "ability_se": num(self.ability_se[i]),
                        "ability_interval_95": [num(band[i, 0]), num(band[i, 1])],
                        **{f"mean_{k}": num(v[i]) for k, v in self.mean_responses.items()}}
                       for i, m in enumerate(self.models)],
            "dropped": list(self.dropped),
            "datasets": [{"dataset": d, "difficulty": num(self.difficulty[j]),
                          "discrimination": num(self.discrimination[j]), "mean_response": num(means[j])}
                         for j, d in enumerate(self.datasets)],
            "adaptive_test": None,
        }
        if self.test is not None:
            out["adaptive_test"] = {"model": self.test.model, "selection": self.test.selection,
                                    "held_out": self.test.held_out, "bank_size": self.test.bank_size,
                                    "failed": [{"dataset": d, "error": e} for d, e in self.test.failed],
                                    "full_ability": num(self.test.full_ability),
                                    "full_ability_se": num(self.test.full_se),
                                    "steps": [{**r, "response": num(r["response"]), "ability": num(r["ability"]),
                                               "se": num(r["se"])} for r in self.trajectory_rows()]}
        return out


# ---------------------------------------------------------------------------- building
class _Failed(Exception):
    """Raised through :func:`adaptive_test` when the tested model fails on a data set."""

    def __init__(self, dataset: str, error: str) -> None:
        super().__init__(dataset)
        self.dataset, self.error = dataset, error


def _keep(bench: KeelBenchmark, metric: str, drop: Any, caller: str) -> np.ndarray:
    """The models of the bank: all but ``drop``, each with at least one observed response."""
    dropped = [drop] if isinstance(drop, str) else list(drop or [])
    for name in dropped:
        if name not in bench.models:
            raise IsometricsError(f"{caller}: cannot drop {name!r}: it is not a model of the benchmark; give one of "
                                  f"{', '.join(bench.models)}.")
    keep = np.array([m not in dropped for m in bench.models])
    observed = np.count_nonzero(~np.isnan(bench.matrix(metric)), axis=1)
    empty = [bench.models[i] for i in np.flatnonzero(keep & (observed == 0))]
    if empty:
        first = next((f for f in bench.failures if f[0] == empty[0]), None)
        why = (f"it failed on every data set (first, {first[1]}: {' '.join(first[2].split())[:160]})"
               if first else "it was not run on any of these data sets")
        raise IsometricsError(f"{caller}: model {empty[0]!r} has no observed {metric}: {why}; leave it out with "
                              f"drop=[{empty[0]!r}] (on the command line: --drop-model {empty[0]!r}).")
    if np.count_nonzero(keep) < 2:
        raise IsometricsError(f"{caller}: the bank would have {np.count_nonzero(keep)} model(s); fitting abilities "
                              "needs at least 2: drop fewer models.")
    return keep


def fit_bank(bench: KeelBenchmark, metric: str, keep: np.ndarray) -> Any:
    """beta^3-IRT fitted to the responses of the models ``keep`` selects (the one call of :func:`fit_beta3`)."""
    matrix = bench.matrix(metric)[keep]
    names = [m for m, k in zip(bench.models, keep) if k]
    return fit_beta3(matrix, respondents=names, items=list(bench.datasets))


def administer(bank: Any, model: str, respond: Callable[[str], float], *, selection: str, max_items: int,
               se_target: float | None = None, seed: int = 0, available: list[str] | None = None,
               full: tuple[float, float] = (float("nan"), float("nan")), held_out: bool = False) -> AdaptiveRecord:
    """Run one adaptive test on ``bank`` (the one call of :func:`adaptive_test` here) as a record.

    A data set on which ``respond`` raises :class:`~isometrics.exceptions.IsometricsError`
    (the model failed there) is recorded in ``failed`` and the test is run again without it,
    the responses already given reused: the result is the test in which that data set was
    never available.

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
    held_out : bool, default=False
        Whether ``model`` is a model of the benchmark left out of ``bank``.

    Returns
    -------
    AdaptiveRecord

    Raises
    ------
    IsometricsError
        If the model fails on every data set it is given.
    """
    items = list(bank.items) if available is None else list(available)
    answers: dict[str, float] = {}
    failed: list[tuple[str, str]] = []

    def ask(name: str) -> float:
        if name not in answers:
            try:
                answers[name] = respond(name)
            except IsometricsError as exc:
                raise _Failed(name, " ".join(str(exc).split())) from None
        return answers[name]

    while True:
        if not items:
            raise IsometricsError(f"administer: model {model!r} failed on every data set it was given "
                                  f"({len(failed)}); first, {failed[0][0]}: {failed[0][1][:200]}")
        try:
            result = adaptive_test(bank, ask, selection=selection, max_items=min(max_items, len(items)),
                                   se_target=se_target, rng=seed, available=items)
            break
        except _Failed as exc:
            failed.append((exc.dataset, exc.error))
            items.remove(exc.dataset)
    return AdaptiveRecord(model=model, selection=selection, datasets=tuple(result.items),
                          responses=np.asarray(result.responses, dtype=float),
                          ability=np.asarray(result.trajectory, dtype=float),
                          ability_se=np.asarray(result.trajectory_se, dtype=float),
                          full_ability=full[0], full_se=full[1], held_out=held_out,
                          bank_size=len(bank.respondents), failed=tuple(failed))


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


def _held_out_test(bench: KeelBenchmark, metric: str, keep: np.ndarray, name: str, respond: Callable[[str], float],
                   **test: Any) -> AdaptiveRecord:
    """Test model ``name`` of the benchmark on a bank refitted without it, with its full-benchmark ability."""
    i = bench.models.index(name)
    others = keep.copy()
    others[i] = False
    if np.count_nonzero(others) < 2:
        raise IsometricsError(f"{test.get('caller', 'fit_benchmark')}: holding {name!r} out leaves "
                              f"{np.count_nonzero(others)} model(s) in the bank; it needs at least 2.")
    test.pop("caller", None)
    bank = fit_bank(bench, metric, others)
    row = bench.matrix(metric)[i]
    available = [d for d, v in zip(bench.datasets, row) if not np.isnan(v)]
    return administer(bank, name, respond, available=available, full=full_benchmark_ability(bank, row),
                      held_out=True, **test)


def _study(bench: KeelBenchmark, metric: str, bank: Any, keep: np.ndarray,
           test: AdaptiveRecord | None) -> BenchmarkStudy:
    ability = np.asarray(bank.ability, dtype=float)
    icc = np.array([[float(v) for v in bank.expected_response(_GRID, j)] for j in range(len(bench.datasets))])
    matrix = bench.matrix(metric)[keep]
    observed = np.count_nonzero(~np.isnan(matrix), axis=0)
    dataset_mean = np.where(observed > 0, np.nansum(matrix, axis=0) / np.maximum(observed, 1), np.nan)
    return BenchmarkStudy(
        metric=metric, models=tuple(bank.respondents), datasets=tuple(bench.datasets), ability=ability,
        ability_se=np.asarray(bank.ability_se, dtype=float), difficulty=np.asarray(bank.difficulty, dtype=float),
        discrimination=np.asarray(bank.discrimination, dtype=float),
        mean_responses={m: _row_means(bench.responses[m][keep]) for m in bench.metrics},
        icc_grid=_GRID.copy(), icc=icc, test=test, n_splits=bench.n_splits, seed=bench.seed,
        dataset_mean=dataset_mean,
        ability_interval=bank.ability_interval(0.95),
        dropped=tuple(m for m, k in zip(bench.models, keep) if not k))


def _row_means(matrix: np.ndarray) -> np.ndarray:
    """Mean of each row over its observed cells (NaN for a row with none)."""
    observed = np.count_nonzero(~np.isnan(matrix), axis=1)
    return np.where(observed > 0, np.nansum(matrix, axis=1) / np.maximum(observed, 1), np.nan)


def fit_benchmark(bench: KeelBenchmark, *, metric: str = "auroc", held_out: str | None = None,
                  max_items: int = 20, selection: str = "fisher", drop: Any = None) -> BenchmarkStudy:
    """Fit beta^3-IRT to a benchmark; optionally test one cached model adaptively against the rest.

    Parameters
    ----------
    bench : KeelBenchmark
        From :func:`~isometrics.irt.keel.read_keel_benchmark`.
    metric : str, default="auroc"
        The response fitted (one of ``bench.metrics``).
    held_out : str, default=None
        A model of ``bench`` to test adaptively on a bank refitted without it, with its
        full-benchmark ability on that bank for comparison. The study's bank, abilities and
        tables still hold every model; the record says which was held out. None: no test.
    max_items : int, default=20
        Length of the adaptive test.
    selection : str, default="fisher"
        The adaptive test's item selection.
    drop : str or sequence of str, default=None
        Models of ``bench`` to leave out of the bank (e.g. one that failed everywhere).

    Returns
    -------
    BenchmarkStudy
        Every model of ``bench`` but those dropped.

    Raises
    ------
    ValueError
        If ``metric`` was not computed, ``held_out`` or a dropped name is not a model of
        ``bench``, a model has no observed response (the message says to drop it), or
        fewer than 2 models remain (3 with ``held_out``).
    """
    caller = "fit_benchmark"
    keep = _keep(bench, metric, drop, caller)
    bank = fit_bank(bench, metric, keep)
    test = None
    if held_out is not None:
        if held_out not in bench.models or not keep[bench.models.index(held_out)]:
            raise IsometricsError(f"{caller}: `held_out` {held_out!r} is not a model of the bank; give one of "
                                  f"{', '.join(m for m, k in zip(bench.models, keep) if k)}.")
        row = bench.matrix(metric)[bench.models.index(held_out)]
        test = _held_out_test(bench, metric, keep, held_out, lambda name: float(row[bench.datasets.index(name)]),
                              selection=selection, max_items=max_items, seed=bench.seed, caller=caller)
    return _study(bench, metric, bank, keep, test)


def run_adaptive_test(bench: KeelBenchmark, model: str, respond: Callable[[str], float], *, metric: str = "auroc",
                      selection: str = "fisher", max_items: int = 20, se_target: float | None = None,
                      seed: int = 0, drop: Any = None) -> BenchmarkStudy:
    """Test a model adaptively on the bank fitted to the models of a benchmark.

    Parameters
    ----------
    bench : KeelBenchmark
        The benchmark the bank is fitted to.
    model : str
        The model's name (its spec). A model of ``bench`` is held out: tested on a bank
        refitted without it, with its full-benchmark ability on that bank for comparison.
    respond : callable
        ``respond(dataset) -> float``: trains and scores the model on that data set; an
        :class:`~isometrics.exceptions.IsometricsError` from it marks the data set failed
        (recorded in ``study.test.failed``) and the test goes on without it.
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
    drop : str or sequence of str, default=None
        Models of ``bench`` to leave out of the bank.

    Returns
    -------
    BenchmarkStudy
        The bank of every model (but those dropped), and the test (its full-benchmark
        ability NaN unless the model is one of the benchmark's).

    Raises
    ------
    ValueError
        As :func:`fit_benchmark`, or if the model fails on every data set it is given.
    """
    caller = "run_adaptive_test"
    keep = _keep(bench, metric, drop, caller)
    bank = fit_bank(bench, metric, keep)
    options: dict[str, Any] = dict(selection=selection, max_items=max_items, se_target=se_target, seed=seed)
    if model in bench.models and keep[bench.models.index(model)]:
        test = _held_out_test(bench, metric, keep, model, respond, caller=caller, **options)
    else:
        test = administer(bank, model, respond, **options)
    return _study(bench, metric, bank, keep, test)
