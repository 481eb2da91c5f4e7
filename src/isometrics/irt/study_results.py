"""What a benchmark study returns: :class:`BenchmarkStudy` (an item bank fitted to a benchmark, and optionally one
adaptive test) and :class:`AdaptiveRecord` (one adaptive test), plain numbers ready for the report page and for
JSON, with :func:`decimals_to_rank` and :data:`NEAR_CEILING`, which the page and the CLI share.

They are built by ``study`` (:func:`~isometrics.irt.study.fit_benchmark`,
:func:`~isometrics.irt.study.run_adaptive_test`), which re-exports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._laplace import wald_interval

__all__ = ["AdaptiveRecord", "BenchmarkStudy", "NEAR_CEILING", "decimals_to_rank"]

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
        return [
            {
                "model": self.models[i],
                "ability": float(self.ability[i]),
                "se": float(self.ability_se[i]),
                "low": float(band[i, 0]),
                "high": float(band[i, 1]),
                "mean": float(mean[i]),
            }
            for i in np.argsort(-self.ability, kind="stable")
        ]

    def trajectory_rows(self) -> list[dict[str, Any]]:
        """One row per step of the adaptive test: step, dataset, response, ability, se."""
        if self.test is None:
            return []
        t = self.test
        return [
            {
                "step": k + 1,
                "dataset": d,
                "response": float(t.responses[k]),
                "ability": float(t.ability[k]),
                "se": float(t.ability_se[k]),
            }
            for k, d in enumerate(t.datasets)
        ]

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
            "metric": self.metric,
            "n_splits": self.n_splits,
            "seed": self.seed,
            "models": [
                {
                    "model": m,
                    "ability": num(self.ability[i]),
                    "ability_se": num(self.ability_se[i]),
                    "ability_interval_95": [num(band[i, 0]), num(band[i, 1])],
                    **{f"mean_{k}": num(v[i]) for k, v in self.mean_responses.items()},
                }
                for i, m in enumerate(self.models)
            ],
            "dropped": list(self.dropped),
            "datasets": [
                {
                    "dataset": d,
                    "difficulty": num(self.difficulty[j]),
                    "discrimination": num(self.discrimination[j]),
                    "mean_response": num(means[j]),
                }
                for j, d in enumerate(self.datasets)
            ],
            "adaptive_test": None,
        }
        if self.test is not None:
            out["adaptive_test"] = {
                "model": self.test.model,
                "selection": self.test.selection,
                "held_out": self.test.held_out,
                "bank_size": self.test.bank_size,
                "failed": [{"dataset": d, "error": e} for d, e in self.test.failed],
                "full_ability": num(self.test.full_ability),
                "full_ability_se": num(self.test.full_se),
                "steps": [
                    {**r, "response": num(r["response"]), "ability": num(r["ability"]), "se": num(r["se"])}
                    for r in self.trajectory_rows()
                ],
            }
        return out
