"""``isometrics evaluate ... --scheduler ADDRESS | --local-cluster N``: the evaluation on a Dask cluster.

The body of the command when a cluster is asked for: connect to the scheduler (or start a
local cluster of N worker processes), run :func:`isometrics.dask.evaluate_dask` on the
Parquet file or directory, print the same tables as the in-memory evaluation and write
the same JSON, all or nothing.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .._core.label_text import label_from_text
from .._core.optional import needs
from .._core.outputs import json_text, staged_outputs
from ..dask import evaluate_dask
from ..evaluation import results_json
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..scale.formats import column_type
from ._console import make_console, markup
from .results import print_results

__all__ = ["evaluate_on_cluster", "refuse_with_cluster"]


def refuse_with_cluster(**given: bool) -> None:
    """Raise for the options the cluster evaluation does not take (``given``: option name -> was it given)."""
    refused = [name for name, was in given.items() if was]
    if refused:
        raise IsometricsError(
            f"--scheduler and --local-cluster evaluate one binary label exactly on a Dask cluster "
            f"and do not take {', '.join(refused)}; drop them, or evaluate in memory (without "
            "--scheduler and --local-cluster)."
        )


@contextmanager
def _client(scheduler: str | None, n_workers: int | None, console: Any) -> Iterator[Any]:
    """A client of the scheduler at ``scheduler``, or of a local cluster of ``n_workers`` processes started here."""
    with needs("evaluate --scheduler and --local-cluster"):
        import dask  # noqa: F401
        from distributed import Client, LocalCluster
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s", set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise IsometricsError(
                f"--scheduler {scheduler!r}: cannot connect ({exc}); check the address "
                "(e.g. tcp://host:8786) and that the scheduler is running."
            ) from None
        with client:
            workers = len(client.scheduler_info().get("workers", {}))
            console.print(f"[dim]On the Dask scheduler at {markup(scheduler)} ({workers} workers).[/dim]")
            yield client
        return
    assert n_workers is not None
    # CRITICAL: a task's failure is the library's error, said once as one line by the command's
    # boundary; the worker's own "Compute Failed ... Traceback" log would repeat it as a block.
    with (
        LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        console.print(
            f"[dim]On a local Dask cluster of {n_workers} worker process{'es' if n_workers != 1 else ''}.[/dim]"
        )
        yield client


def _pos_label(value: str | None, file: Path, label: str) -> Any:
    """``--pos-label`` in the type of the label column, read from the Parquet schema (no data read)."""
    if value is None:
        return None
    first = file if file.is_file() else next(iter(sorted(file.rglob("*.parquet"))), None)
    if first is None:
        return value  # evaluate_dask names the problem
    try:
        kind, _ = column_type(first, "parquet", label)
    except (OSError, ValueError):
        return value  # evaluate_dask names the problem
    if kind is None:
        return value  # evaluate_dask names the problem
    return label_from_text(value, kind, column=label)


def evaluate_on_cluster(
    file: Path,
    label: str,
    scores: list[str],
    pos_label: str | None,
    weight: str | None,
    metrics: list[str],
    json_out: str | os.PathLike[str] | None,
    console: Any,
    *,
    scheduler: str | None,
    local_cluster: int | None,
    curve_dir: str | None,
) -> list[Any]:
    """Evaluate ``scores`` of the Parquet ``file`` (or directory) on a cluster, print, and write JSON (all or none)."""
    if scheduler is not None and local_cluster is not None:
        raise IsometricsError(
            "give --scheduler ADDRESS (an existing cluster) or --local-cluster N (start one), not both."
        )
    if not (file.is_dir() or file.suffix.lower() in {".parquet", ".pq"}):
        raise IsometricsError(
            f"--scheduler and --local-cluster read Parquet (a file or a directory of files); "
            f"{str(file)!r} is not one: convert it first (e.g. with polars or duckdb)."
        )
    parsed = [parse_metric(m) for m in metrics]
    with staged_outputs({"--json": json_out}, inputs=[file]) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        pos = _pos_label(pos_label, file, label)
        with _client(scheduler, local_cluster, console) as client:
            results = list(
                evaluate_dask(
                    file,
                    label=label,
                    scores=scores,
                    sample_weight=weight,
                    pos_label=pos,
                    metrics=parsed,
                    client=client,
                    curve_path=curve_dir,
                )
            )
        print_results(console, file, label, results)
        if curve_dir is not None:
            console.print(f"Curves: {markup(curve_dir)} (one Parquet directory per score column)")
        if json_out is not None:
            where = {"cluster": scheduler if scheduler is not None else f"local:{local_cluster}"}
            json_doc = results_json(results, file=str(file), label=label, weight=weight, path=where)
            outputs.stage("--json", json_text(json_doc))
        outputs.commit()
    return results
