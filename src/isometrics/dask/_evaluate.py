"""``evaluate_dask``: the exact evaluation of a Dask DataFrame or a Parquet data set, on a Dask cluster.

The graph, every score column at once, in two submissions (``docs/user_guide/dask.md`` draws it):

1. each partition is read, validated and counted in one task (a count table per score
   column: distinct scores, weighted counts of each of its labels), and sends the client its
   labels and a sample of each column's distinct scores;
2. the client settles the two classes and cuts each column's score axis into ranges of
   about equal numbers of distinct scores (weighted quantiles of the samples): by default
   one range per :data:`~._plan.RANGE_POINTS` distinct scores, at most one per partition;
3. each partition's tables are cut by those ranges (one task per partition, every column),
   and each range merges its pieces into one count table: a contiguous stretch of the
   whole curve, no score value in two ranges;
4. each range's size and class totals go to one small task whose prefix sums give every
   range its offsets (the points and the weighted positives and negatives above it);
5. each range sweeps its stretch of the curve (:mod:`._reduce`: its share of the areas,
   its best-threshold candidates, its display points) and can write it as one Parquet
   file, in order; the sweeps are merged in range order on the workers (a tree, eight per task) and the
   client receives the result. A column of one range skips 3 to 5: one task merges the
   partitions' tables, sweeps and writes.

Steps 3 to 5 are one graph: the client waits for the workers twice, whatever the number
of columns and ranges. Every task is a pure function of its inputs, so a task lost with a
worker is run again by the scheduler and the result does not change.
"""

from __future__ import annotations

import functools
import os
import shutil
import uuid
from collections.abc import Sequence
from operator import getitem
from pathlib import Path
from typing import Any

import numpy as np

from .._core.arrays import whole_total
from .._core.caller import current_caller
from .._core.constraints import POS_LABEL, in_body, user_stacklevel, validate_params
from .._core.docstrings import fill_doc
from .._core.html import clip
from .._core.optional import needs
from .._core.outputs import check_output_dir
from .._typing import FloatArray
from ..evaluation import BinaryEvaluation, Evaluations
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from ..scale.batches import check_columns
from ..spaces.sweep import SweepResult
from ._graph import Graph, Key
from ._partitions import Locator, ParquetPiece, PartitionTable, merge_ranges, partition_table, split_by_range
from ._plan import (
    Classes,
    check_both_totals,
    class_totals,
    column_offsets,
    default_ranges,
    range_cuts,
    resolve_classes,
)
from ._reduce import display_points, finish_all, merge_all, range_sizes, reduce_ranges, tree, whole_column

__all__ = ["evaluate_dask"]

#: Rows per partition when a Parquet data set is split by row groups.
ROWS_PER_PARTITION = 1 << 22


def _dask() -> Any:
    with needs("isometrics.dask"):
        import dask
    return dask


@validate_params(
    in_body("data", "label", "scores", "sample_weight", "metrics", "client", "n_ranges", "curve_path")
    | {"pos_label": [POS_LABEL, None]}
)
@fill_doc
def evaluate_dask(
    data: Any,
    *,
    label: str,
    scores: str | Sequence[str],
    sample_weight: str | None = None,
    pos_label: Any = None,
    metrics: Sequence[str | Metric] = ("f1",),
    client: Any = None,
    n_ranges: int | None = None,
    curve_path: str | os.PathLike[str] | None = None,
) -> Evaluations:
    r"""Evaluate score columns of a Dask DataFrame or a Parquet data set exactly, on a Dask cluster.

    The same numbers as :func:`isometrics.evaluate_scores` on the whole data in memory
    (AUROC, average precision, AUPRG and the best threshold of each metric), computed
    by the workers: each partition counts its distinct scores, the counts are regrouped
    by score range (each range a contiguous stretch of the curve), the client adds the
    ranges' offsets (a prefix sum) and reduces the areas and best thresholds.

    .. math::

        TP(t) = \sum_{r < k} P_r + TP_k(t), \qquad FP(t) = \sum_{r < k} N_r + FP_k(t)

    for a threshold ``t`` in score range ``k`` whose ranges above hold ``P_r``
    positives and ``N_r`` negatives.

    Parameters
    ----------
    data : dask.dataframe.DataFrame, str or path-like
        A Dask DataFrame, or the path of a Parquet file or of a directory of Parquet
        files (read by the workers, a few row groups per partition).
    label : str
        The column of true labels (two classes).
    scores : str or sequence of str
        The score column(s) to evaluate, each on its own; higher means more likely positive.
    sample_weight : str, default=None
        The column of non-negative sample weights; ``None`` weighs every row 1.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` infers it from {0, 1}, {-1, 1} or {False, True}.
    metrics : sequence of str or Metric, default=("f1",)
        Metrics whose best thresholds to report; see :func:`isometrics.parse_metric`.
    client : distributed.Client, default=None
        The cluster to run on; ``None``: Dask's default scheduler (the default
        ``distributed`` client when one exists).
    n_ranges : int, default=None
        Score ranges to regroup each column's counts into (at least 1); ``None``: one
        per 262,144 distinct scores (summed over the partitions), at most as many as the
        input has partitions.
    curve_path : str or path-like, default=None
        When given, a directory (created; it must not exist or be empty) that receives
        each score column's full curve as ``<score>/part-00000.parquet``, ... one file
        per score range in decreasing threshold order, columns ``threshold`` (the first
        row ``inf``), ``tp`` and ``fp`` (cumulative weighted counts). Written by the
        workers (a path they can reach), staged and moved in place only once complete.

    Returns
    -------
    Evaluations
        One :class:`~isometrics.BinaryEvaluation` per score column, as
        :func:`isometrics.evaluate_scores` with ``keep_operating_points=False`` returns:
        its ``operating_points`` are a display subset of the curve.

    Raises
    ------
    InvalidParameterError
        If ``data`` is neither a Dask DataFrame nor a path, a column name is not a
        string, ``client`` is neither None nor a ``distributed.Client``, ``n_ranges`` is
        not an integer >= 1, or a metric cannot be parsed.
    ValueError
        If a column is missing; if a row has a missing label, score or weight, a NaN or
        infinite score, a negative or non-finite weight (the message names the
        partition and its row, or the file and its row); if the labels hold more or
        fewer than two classes, or ``pos_label`` is not one of them; if ``curve_path``
        is a file or a non-empty directory. Nothing is written then.
    ImportError
        If Dask is not installed (``pip install 'isometrics[scale]'``).

    See Also
    --------
    isometrics.evaluate_scores : the same evaluation in memory.

    Notes
    -----
    With integer weights (or none) the results are those of the in-memory engine on the
    same data exactly: every count is an integer, so every partial sum is exact, and the
    areas are summed in the same order. With fractional weights the counts are added in
    another order and may differ in the last bits.

    Examples
    --------
    >>> import dask.dataframe as dd, pandas as pd
    >>> from isometrics.dask import evaluate_dask
    >>> frame = pd.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> r = evaluate_dask(dd.from_pandas(frame, npartitions=2), label="y", scores="s")["s"]
    >>> r.auroc, r.best[0].threshold
    (0.75, 0.35)
    """
    names, parsed, n_ranges, target = _evaluate_dask_iv(label, scores, sample_weight, metrics, n_ranges, curve_path)
    _check_client(client)
    dask = _dask()
    run: dict[str, Any] = {} if client is None else {"scheduler": client}
    sources = _sources(data, [label, *names] + ([sample_weight] if sample_weight else []))
    staging = None if target is None else target.with_name(f".{target.name}.partial-{uuid.uuid4().hex[:8]}")
    try:
        results = _evaluate(
            dask,
            run,
            sources,
            label=label,
            scores=names,
            weight=sample_weight,
            pos_label=pos_label,
            metrics=parsed,
            n_ranges=n_ranges,
            curve_dir=staging,
        )
        if staging is not None and target is not None:
            _commit(staging, target)
    finally:
        if staging is not None and staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return Evaluations(tuple(results))


def _evaluate_dask_iv(
    label: Any, scores: Any, sample_weight: Any, metrics: Any, n_ranges: Any, curve_path: Any
) -> tuple[list[str], list[Metric], int | None, Path | None]:
    """Check the parameters that are not the data; return the score names, parsed metrics, ranges and curve path."""
    names = [scores] if isinstance(scores, str) else scores
    if not isinstance(names, Sequence) or not names:
        raise InvalidParameterError(
            f"{current_caller()}: `scores` must be a column name or a non-empty sequence of them; got {scores!r}."
        )
    for what, value in [("label", label), ("sample_weight", sample_weight), *(("scores", n) for n in names)]:
        if value is not None and not isinstance(value, str) or (value is None and what != "sample_weight"):
            raise InvalidParameterError(f"{current_caller()}: `{what}` must name a column (a str); got {value!r}.")
    if len(set(names)) != len(names):
        raise InvalidParameterError(
            f"{current_caller()}: `scores` names a column twice ({list(names)!r}); name each once."
        )
    parsed = parse_metric_arguments(metrics)
    if n_ranges is not None and (
        isinstance(n_ranges, bool) or not isinstance(n_ranges, (int, np.integer)) or n_ranges < 1
    ):
        raise InvalidParameterError(
            f"{current_caller()}: `n_ranges` must be an integer >= 1 or None; got {n_ranges!r}."
        )
    target = None
    if curve_path is not None:
        target = check_output_dir(curve_path, f"{current_caller()}: `curve_path`")  # a file in the way, unwritable
        if target.exists() and (not target.is_dir() or any(target.iterdir())):
            raise IsometricsError(
                f"{current_caller()}: `curve_path` {str(target)!r} is a file or a non-empty directory; "
                "choose a new directory (the curve files are written there)."
            )
        for name in names:
            if name in ("", ".", "..") or "/" in name or os.sep in name:
                raise IsometricsError(
                    f"{current_caller()}: score column {name!r} cannot name a directory of `curve_path`; "
                    "rename the column or leave curve_path=None."
                )
    return list(names), parsed, None if n_ranges is None else int(n_ranges), target


def _check_client(client: Any) -> None:
    """``client`` must be None or a ``distributed.Client`` (told by what the schedulers call on it)."""
    if client is None or all(callable(getattr(client, m, None)) for m in ("get", "submit", "gather")):
        return
    shown = repr(client) if isinstance(client, (str, bytes, int, float)) else f"a {type(client).__name__}"
    raise InvalidParameterError(
        f"{current_caller()}: `client` must be a distributed.Client or None; got {clip(shown, 80)}; "
        "pass the Client of the cluster to run on (e.g. Client('tcp://host:8786')), or None "
        "for Dask's default scheduler."
    )


def _sources(data: Any, columns: list[str]) -> list[tuple[Any, Locator]]:
    """One ``(partition, locator)`` per partition: delayed pandas frames, or Parquet row-group pieces."""
    if isinstance(data, (str, os.PathLike)):
        return _parquet_pieces(Path(data), columns)
    if not (hasattr(data, "to_delayed") and hasattr(data, "npartitions") and hasattr(data, "columns")):
        raise InvalidParameterError(
            f"{current_caller()}: `data` must be a Dask DataFrame or the path of a Parquet data set; got a {type(data).__name__}."
        )
    check_columns(columns, [str(c) for c in data.columns], "the data frame")
    parts = data[list(dict.fromkeys(columns))].to_delayed()
    return [(p, Locator(k, len(parts))) for k, p in enumerate(parts)]


def _parquet_pieces(path: Path, columns: list[str]) -> list[tuple[Any, Locator]]:
    """The Parquet files of ``path`` (a file, or a directory searched recursively), cut into pieces of row groups."""
    import pyarrow.parquet as pq

    if path.is_dir():
        files = sorted(p for p in path.rglob("*.parquet") if p.is_file() and not p.name.startswith((".", "_")))
    elif path.is_file():
        files = [path]
    else:
        raise IsometricsError(
            f"{current_caller()}: {str(path)!r} does not exist; pass a Parquet file or a directory of them."
        )
    if not files:
        raise IsometricsError(f"{current_caller()}: no .parquet file under {str(path)!r}.")
    pieces: list[tuple[ParquetPiece, int]] = []
    for file in files:
        try:
            meta = pq.ParquetFile(file).metadata
        except Exception as exc:  # pyarrow raises several types for a file that is not Parquet
            raise IsometricsError(f"{current_caller()}: cannot read {str(file)!r} as Parquet ({exc}).") from None
        check_columns(columns, list(meta.schema.names), f"file {str(file)!r}")
        groups: list[int] = []
        rows, first = 0, 0
        for g in range(meta.num_row_groups):
            groups.append(g)
            rows += meta.row_group(g).num_rows
            if rows >= ROWS_PER_PARTITION or g == meta.num_row_groups - 1:
                pieces.append((ParquetPiece(str(file), tuple(groups)), first))
                first += rows
                groups, rows = [], 0
    return [(piece, Locator(k, len(pieces), piece.file, first)) for k, (piece, first) in enumerate(pieces)]


def _summary(part: PartitionTable) -> PartitionTable:
    return part.summary()


def _evaluate(
    dask: Any,
    run: dict[str, Any],
    sources: list[tuple[Any, Locator]],
    *,
    label: str,
    scores: list[str],
    weight: str | None,
    pos_label: Any,
    metrics: list[Metric],
    n_ranges: int | None,
    curve_dir: Path | None,
) -> list[BinaryEvaluation]:
    """Every score column evaluated: the partitions' tables (one graph), then the ranges and the reduction (another)."""
    graph = Graph([part for part, _ in sources if dask.is_dask_collection(part)])
    read = functools.partial(partition_table, label=label, scores=tuple(scores), weight=weight, caller=current_caller())
    keys = [
        # a worker does not see this context: the public function's name goes with the task
        graph.add(read, part.key, loc=loc) if dask.is_dask_collection(part) else graph.add(read, part=part, loc=loc)
        for part, loc in sources
    ]
    tables = dask.persist(*graph.collections(keys), **run)
    graph = Graph(tables)
    summaries: list[PartitionTable] = list(
        dask.compute(*graph.collections([graph.add(_summary, t.key) for t in tables]), **run)
    )
    classes = resolve_classes(summaries, pos_label, label=label)
    check_both_totals(*class_totals(summaries, classes), classes)
    cuts = []
    for c in range(len(scores)):
        columns = [s.columns[c] for s in summaries]
        cuts.append(range_cuts(columns, n_ranges or default_ranges(columns)))
    directories: list[str | None] = []
    for name in scores:
        directories.append(None if curve_dir is None else str(curve_dir / name))
        if curve_dir is not None:
            (curve_dir / name).mkdir(parents=True, exist_ok=False)
    graph = Graph(tables)
    places = _reduction(graph, [t.key for t in tables], cuts, classes, metrics, directories)
    keys = list(dict.fromkeys(key for key, _ in places))
    # submitted at once; the partitions' tables are released on the workers as soon as the ranges hold them
    outputs = dask.persist(*graph.collections(keys), **run)
    del tables, graph
    done = dict(zip(keys, dask.compute(*outputs, **run)))
    evaluations = []
    for name, (key, j) in zip(scores, places):  # not a comprehension: its frame would shift the warnings'
        result, parts = done[key] if j is None else done[key][j]
        evaluations.append(_evaluation(name, result, parts, summaries, classes, weighted=weight is not None))
    return evaluations


def _reduction(
    graph: Graph,
    tables: list[Key],
    cuts: list[FloatArray],
    classes: Classes,
    metrics: list[Metric],
    directories: list[str | None],
) -> list[tuple[Key, int | None]]:
    """The tasks from the partitions' tables to each column's ``(SweepResult, display parts)``: for each
    column, the key of a task that returns it, or that returns a tuple of them and its place there.

    A column of one range is one task (:func:`~._reduce.whole_column`). The columns of several
    ranges go together: one task per partition cuts all of them, and range ``r`` of every one of
    them is merged, sized, swept and written by the same tasks (one each); one task gives every
    column its offsets, and the ranges' states are merged in range order, a tree of few tasks.
    """
    several = [c for c, cut in enumerate(cuts) if len(cut)]
    shared: Key | None = None
    if several:
        counts = [len(cuts[c]) + 1 for c in several]
        layout = [(c, cuts[c]) for c in several]
        split = [graph.add(split_by_range, t, cuts=layout, flip=flip) for t, flip in zip(tables, classes.flips)]
        ranges = [
            graph.add(merge_ranges, [graph.add(getitem, s, r) for s in split], pos_label=classes.pos_label)
            for r in range(max(counts))
        ]
        offs = graph.add(column_offsets, [graph.add(range_sizes, t) for t in ranges], counts=counts)
        where = [directories[c] for c in several]
        states = [
            graph.add(reduce_ranges, t, offs, number=r, counts=counts, metrics=metrics, directories=where)
            for r, t in enumerate(ranges)
        ]
        shared = tree(graph.add, states, merge_all, finish_all)
    outputs: list[tuple[Key, int | None]] = []
    for c in range(len(cuts)):
        if shared is not None and c in several:
            outputs.append((shared, several.index(c)))
        else:
            outputs.append(
                (
                    graph.add(
                        whole_column,
                        tables,
                        column=c,
                        flips=classes.flips,
                        pos_label=classes.pos_label,
                        metrics=metrics,
                        directory=directories[c],
                    ),
                    None,
                )
            )
    return outputs


def _evaluation(
    name: str,
    result: SweepResult,
    parts: Sequence[tuple[np.ndarray, ...]],
    summaries: list[PartitionTable],
    classes: Classes,
    *,
    weighted: bool,
) -> BinaryEvaluation:
    """One column's evaluation from its reduction: the display subset, the totals as the in-memory engine gives them."""
    shown = display_points(parts, result, classes.pos_label)  # every point when there are few
    # warn_if_degenerate, here, _evaluate, evaluate_dask (its wrapper skipped), the user's line
    shown.warn_if_degenerate(f"score column {name!r}", stacklevel=user_stacklevel(4) + 1)
    return BinaryEvaluation(
        name=name,
        n_samples=sum(s.n_rows for s in summaries),
        n_positives=result.n_positives if weighted else whole_total(result.n_positives, None),
        n_negatives=result.n_negatives if weighted else whole_total(result.n_negatives, None),
        prevalence=shown.prevalence,
        auroc=result.auroc,
        average_precision=result.average_precision,
        auprg=result.auprg,
        best=result.best,
        operating_points=shown,
        weight_kind="sampling" if weighted else None,
    )


def _commit(staging: Path, target: Path) -> None:
    """Move the complete curve directories in place (``target`` is absent or empty)."""
    if target.exists():
        target.rmdir()
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staging, target)
