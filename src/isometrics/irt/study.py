"""A benchmark study: beta^3-IRT fitted to a KEEL benchmark, with an adaptive test.

:func:`fit_benchmark` fits the item bank (data sets as items, models as respondents) to one
response of a :class:`~isometrics.irt.keel.KeelBenchmark`: every model is a respondent of
the bank and is shown. Only when asked (``held_out``) does it also refit the bank without
one cached model and test that model adaptively, so that its trajectory can be set against
its full-benchmark estimate. :func:`run_adaptive_test` tests a classifier on the bank of
every cached model (a model that is itself cached is held out of the bank its test uses,
and the record says so); a data set on which the tested model fails is left out of the test
and reported. Both return a :class:`BenchmarkStudy`: plain numbers, ready for the report
page and for JSON (the result classes are in ``study_results``; they are re-exported here, so
their import path and old pickles keep working).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.special import expit

from ..exceptions import IsometricsError
from .adaptive import adaptive_test
from .keel import KeelBenchmark
from .model import fit_beta3
from .study_results import NEAR_CEILING, AdaptiveRecord, BenchmarkStudy, decimals_to_rank

__all__ = [
    "AdaptiveRecord",
    "BenchmarkStudy",
    "NEAR_CEILING",
    "administer",
    "decimals_to_rank",
    "fit_bank",
    "fit_benchmark",
    "full_benchmark_ability",
    "run_adaptive_test",
]

#: Points of the ability grid on which the item characteristic curves are drawn: uniform on
#: the logit scale, so that abilities crowded near 0 or 1 (on KEEL all lie in 0.03-0.08) are
#: drawn as finely as those near 0.5.
_GRID = expit(np.linspace(-7.0, 7.0, 281))


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
            raise IsometricsError(
                f"{caller}: cannot drop {name!r}: it is not a model of the benchmark; give one of "
                f"{', '.join(bench.models)}."
            )
    keep = np.array([m not in dropped for m in bench.models])
    observed = np.count_nonzero(~np.isnan(bench.matrix(metric)), axis=1)
    empty = [bench.models[i] for i in np.flatnonzero(keep & (observed == 0))]
    if empty:
        first = next((f for f in bench.failures if f[0] == empty[0]), None)
        why = (
            f"it failed on every data set (first, {first[1]}: {' '.join(first[2].split())[:160]})"
            if first
            else "it was not run on any of these data sets"
        )
        raise IsometricsError(
            f"{caller}: model {empty[0]!r} has no observed {metric}: {why}; leave it out with "
            f"drop=[{empty[0]!r}] (on the command line: --drop-model {empty[0]!r})."
        )
    if np.count_nonzero(keep) < 2:
        raise IsometricsError(
            f"{caller}: the bank would have {np.count_nonzero(keep)} model(s); fitting abilities "
            "needs at least 2: drop fewer models."
        )
    return keep


def fit_bank(bench: KeelBenchmark, metric: str, keep: np.ndarray) -> Any:
    """beta^3-IRT fitted to the responses of the models ``keep`` selects (the one call of :func:`fit_beta3`)."""
    matrix = bench.matrix(metric)[keep]
    names = [m for m, k in zip(bench.models, keep) if k]
    return fit_beta3(matrix, respondents=names, items=list(bench.datasets))


def administer(
    bank: Any,
    model: str,
    respond: Callable[[str], float],
    *,
    selection: str,
    max_items: int,
    se_target: float | None = None,
    seed: int = 0,
    available: list[str] | None = None,
    full: tuple[float, float] = (float("nan"), float("nan")),
    held_out: bool = False,
) -> AdaptiveRecord:
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
            raise IsometricsError(
                f"administer: model {model!r} failed on every data set it was given "
                f"({len(failed)}); first, {failed[0][0]}: {failed[0][1][:200]}"
            )
        try:
            result = adaptive_test(
                bank,
                ask,
                selection=selection,
                max_items=min(max_items, len(items)),
                se_target=se_target,
                rng=seed,
                available=items,
            )
            break
        except _Failed as exc:
            failed.append((exc.dataset, exc.error))
            items.remove(exc.dataset)
    return AdaptiveRecord(
        model=model,
        selection=selection,
        datasets=tuple(result.items),
        responses=np.asarray(result.responses, dtype=float),
        ability=np.asarray(result.trajectory, dtype=float),
        ability_se=np.asarray(result.trajectory_se, dtype=float),
        full_ability=full[0],
        full_se=full[1],
        held_out=held_out,
        bank_size=len(bank.respondents),
        failed=tuple(failed),
    )


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
    record = administer(
        bank,
        "",
        lambda name: float(responses[items.index(name)]),
        selection="random",
        max_items=len(observed),
        available=observed,
    )
    return float(record.ability[-1]), float(record.ability_se[-1])


def _held_out_test(
    bench: KeelBenchmark, metric: str, keep: np.ndarray, name: str, respond: Callable[[str], float], **test: Any
) -> AdaptiveRecord:
    """Test model ``name`` of the benchmark on a bank refitted without it, with its full-benchmark ability."""
    i = bench.models.index(name)
    others = keep.copy()
    others[i] = False
    if np.count_nonzero(others) < 2:
        raise IsometricsError(
            f"{test.get('caller', 'fit_benchmark')}: holding {name!r} out leaves "
            f"{np.count_nonzero(others)} model(s) in the bank; it needs at least 2."
        )
    test.pop("caller", None)
    bank = fit_bank(bench, metric, others)
    row = bench.matrix(metric)[i]
    available = [d for d, v in zip(bench.datasets, row) if not np.isnan(v)]
    return administer(
        bank, name, respond, available=available, full=full_benchmark_ability(bank, row), held_out=True, **test
    )


def _study(
    bench: KeelBenchmark, metric: str, bank: Any, keep: np.ndarray, test: AdaptiveRecord | None
) -> BenchmarkStudy:
    ability = np.asarray(bank.ability, dtype=float)
    icc = np.array([[float(v) for v in bank.expected_response(_GRID, j)] for j in range(len(bench.datasets))])
    matrix = bench.matrix(metric)[keep]
    observed = np.count_nonzero(~np.isnan(matrix), axis=0)
    dataset_mean = np.where(observed > 0, np.nansum(matrix, axis=0) / np.maximum(observed, 1), np.nan)
    return BenchmarkStudy(
        metric=metric,
        models=tuple(bank.respondents),
        datasets=tuple(bench.datasets),
        ability=ability,
        ability_se=np.asarray(bank.ability_se, dtype=float),
        difficulty=np.asarray(bank.difficulty, dtype=float),
        discrimination=np.asarray(bank.discrimination, dtype=float),
        mean_responses={m: _row_means(bench.responses[m][keep]) for m in bench.metrics},
        icc_grid=_GRID.copy(),
        icc=icc,
        test=test,
        n_splits=bench.n_splits,
        seed=bench.seed,
        dataset_mean=dataset_mean,
        ability_interval=bank.ability_interval(0.95),
        dropped=tuple(m for m, k in zip(bench.models, keep) if not k),
    )


def _row_means(matrix: np.ndarray) -> np.ndarray:
    """Mean of each row over its observed cells (NaN for a row with none)."""
    observed = np.count_nonzero(~np.isnan(matrix), axis=1)
    return np.where(observed > 0, np.nansum(matrix, axis=1) / np.maximum(observed, 1), np.nan)


def fit_benchmark(
    bench: KeelBenchmark,
    *,
    metric: str = "auroc",
    held_out: str | None = None,
    max_items: int = 20,
    selection: str = "fisher",
    drop: Any = None,
) -> BenchmarkStudy:
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
            raise IsometricsError(
                f"{caller}: `held_out` {held_out!r} is not a model of the bank; give one of "
                f"{', '.join(m for m, k in zip(bench.models, keep) if k)}."
            )
        row = bench.matrix(metric)[bench.models.index(held_out)]
        test = _held_out_test(
            bench,
            metric,
            keep,
            held_out,
            lambda name: float(row[bench.datasets.index(name)]),
            selection=selection,
            max_items=max_items,
            seed=bench.seed,
            caller=caller,
        )
    return _study(bench, metric, bank, keep, test)


def run_adaptive_test(
    bench: KeelBenchmark,
    model: str,
    respond: Callable[[str], float],
    *,
    metric: str = "auroc",
    selection: str = "fisher",
    max_items: int = 20,
    se_target: float | None = None,
    seed: int = 0,
    drop: Any = None,
) -> BenchmarkStudy:
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
