"""Exact evaluation of files larger than memory, on one machine.

DuckDB, held to ``memory_limit`` and spilling into ``temp_directory``, builds the count
table of each score column in decreasing score order (the weighted positives and negatives
of each distinct score) in one of two ways, chosen from the first scan's estimate of the
column's distinct scores: where scores repeat, it groups the rows by score and sorts the
groups (``GROUP BY score ORDER BY score DESC``); where most scores are distinct (and every
sum is exact: integer weights), it sorts the rows (``ORDER BY score DESC``, no hash table)
and the ties are grouped here as the rows stream back. Either way the table comes back as
Arrow record batches and is swept, batch after batch, into exact accumulators
(:class:`isometrics.spaces.sweep.Sweep`: the in-memory engine's per-step terms, summed by
blocks aligned to each point's global position), while a second thread fetches the next
batches and a third thins the display points. A first scan checks every value, counts the
classes and estimates each column's distinct scores. The results are those of the
in-memory engine (:func:`isometrics.evaluate_scores`), bit for bit with integer weights,
whichever way the table was built and however it was cut into batches.
"""

from __future__ import annotations

import contextvars
import os
import queue
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._core.arrays import whole_total
from .._core.caller import current_caller
from .._core.constraints import POS_LABEL, Integral, Interval, in_body, validate_params
from .._core.files import csv_separator
from .._core.html import LIMIT, clip, summarised
from .._core.validation import check_integer
from .._typing import FloatArray
from ..evaluation import BinaryEvaluation, Evaluations
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints
from ..spaces.sweep import Sweep
from ._display import StreamingDisplay
from ._memory import default_memory_limit, parse_memory
from ._sources import (
    SORT_ROWS_ABOVE,
    Source,
    Totals,
    check_temp_directory,
    connect,
    count_table_batches,
    expand_paths,
    first_pass,
    prepare,
    spill_directory,
)

__all__ = ["OutOfCoreResult", "OutOfCoreEvaluation", "evaluate_out_of_core", "parse_memory", "default_memory_limit"]

#: From this ``batch_size`` on, batches are fetched and thinned in threads beside the sweep (smaller
#: batches cost more in hand-overs between threads than they gain).
PIPELINE_BATCH = 4096

#: The areas swept (the achievable PR area is not reported by the evaluation).
_AREAS = ("auroc", "average_precision", "auprg", "auc_pr_interpolated")


@summarised()
@dataclass(frozen=True)
class OutOfCoreResult(BinaryEvaluation):
    """The evaluation of one score column of a file, computed out of core.

    The fields of :class:`isometrics.BinaryEvaluation` (the same numbers the in-memory
    engine gives on the same data), and:

    Attributes
    ----------
    auc_pr_interpolated : float
        Area under the count-interpolated PR curve (Davis & Goadrich), in [0, 1]; see
        :func:`isometrics.spaces.auc_pr_interpolated`.
    n_points : int
        Operating points of the full curve (distinct scores of samples of non-zero weight,
        plus the point at threshold +inf).
    resolution : int
        Display resolution of ``operating_points``: the curves drawn from them are within
        ``1 / resolution`` of the exact curves in each coordinate of ROC, PR and PRG space
        (see :func:`evaluate_out_of_core`).
    """

    auc_pr_interpolated: float = float("nan")
    n_points: int = 0
    resolution: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every number (without the operating points)."""
        out = super().to_dict()
        out.update(
            auc_pr_interpolated=self.auc_pr_interpolated, n_points=self.n_points, display_resolution=self.resolution
        )
        return out


@dataclass(frozen=True)
class OutOfCoreEvaluation(Evaluations):
    """The out-of-core evaluations of several score columns of one data set, in column order.

    A sequence of :class:`OutOfCoreResult` (index it, iterate it, look results up by score
    name), tabulated like :class:`isometrics.Evaluations`, with how it was computed.

    Attributes
    ----------
    results : tuple of OutOfCoreResult
        One per score column, in the order given.
    files : tuple of str
        The files read, in order.
    memory_limit : int
        Bytes DuckDB was allowed (past them it spilled to disk).
    """

    files: tuple[str, ...] = ()
    memory_limit: int = 0

    def _columns(self) -> dict[str, list[Any]]:
        columns = super()._columns()
        columns["auc_pr_interpolated"] = [r.auc_pr_interpolated for r in self.results]  # type: ignore[attr-defined]
        return columns

    def __repr__(self) -> str:
        inner = super().__repr__()[len("Evaluations(") :]
        return clip(f"OutOfCoreEvaluation(files={len(self.files)}, {inner}", LIMIT)


def _evaluate_out_of_core_iv(
    label: Any,
    scores: Any,
    sample_weight: Any,
    metrics: Any,
    memory_limit: Any,
    resolution: Any,
    batch_size: Any,
    temp_directory: Any,
) -> tuple[list[str], list[Metric], int, int, int, str | None]:
    """Check the parameters (the files are checked as they are read)."""
    if not isinstance(label, str):
        raise InvalidParameterError(
            f"{current_caller()}: `label` must be the name of the label column (a str); got {type(label).__name__}."
        )
    names = [scores] if isinstance(scores, str) else scores
    if not isinstance(names, Sequence) or not names or not all(isinstance(s, str) for s in names):
        raise InvalidParameterError(
            f"{current_caller()}: `scores` must be a score column's name or a non-empty list of names; got {scores!r}."
        )
    if len(set(names)) != len(names):
        raise InvalidParameterError(
            f"{current_caller()}: `scores` names a column twice ({list(names)!r}); name each once."
        )
    if sample_weight is not None and not isinstance(sample_weight, str):
        raise InvalidParameterError(
            f"{current_caller()}: `sample_weight` must be the name of the weight column (a str) or "
            f"None; got {type(sample_weight).__name__}."
        )
    parsed = parse_metric_arguments(metrics)
    limit = default_memory_limit() if memory_limit is None else parse_memory(memory_limit)
    resolution = check_integer(resolution, "resolution", low=2)  # declared too; here as an int
    batch_size = check_integer(batch_size, "batch_size", low=1)
    return list(names), parsed, limit, resolution, batch_size, check_temp_directory(temp_directory)


@validate_params(
    # a dict union, not ** unpacking inside the braces: Sphinx's source parser fails on the latter
    in_body("path", "label", "scores", "sample_weight", "metrics", "memory_limit", "temp_directory", "separator")
    | {
        "pos_label": [POS_LABEL, None],
        "resolution": Interval(Integral, 2, None),
        "batch_size": Interval(Integral, 1, None),
    }
)
def evaluate_out_of_core(
    path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    label: str,
    scores: str | Sequence[str],
    sample_weight: str | None = None,
    metrics: Sequence[str | Metric] = ("f1",),
    pos_label: Any = None,
    memory_limit: int | str | None = None,
    temp_directory: str | os.PathLike[str] | None = None,
    resolution: int = 1000,
    batch_size: int = 1_000_000,
    separator: str | None = None,
) -> OutOfCoreEvaluation:
    r"""Evaluate score columns of Parquet or CSV files larger than memory, exactly.

    For each score column: the class totals and prevalence, AUROC, average precision,
    AUPRG, the area under the count-interpolated PR curve, the best threshold of every
    metric asked for, and the operating points thinned to a display resolution. DuckDB
    groups and sorts the column within ``memory_limit`` (spilling to ``temp_directory``;
    a column of mostly distinct scores is sorted without grouping, its ties grouped as the
    rows stream back); the score-ordered count table streams back in batches into exact
    accumulators.

    .. math::

        TP(t) = \sum_{s_i \ge t,\, y_i = 1} w_i, \qquad FP(t) = \sum_{s_i \ge t,\, y_i = 0} w_i

    at every distinct score ``t``, from which every area and best threshold follows as in
    :class:`isometrics.OperatingPoints`.

    Parameters
    ----------
    path : str, path-like, or sequence of them
        A Parquet or CSV file (told apart by their bytes; tab-separated when every name ends
        in ``.tsv``), a glob such as ``"logs/*.parquet"`` (its files in sorted order), or a
        list of either. All files hold the same columns. In a CSV file, whitespace around
        names and values is stripped (a text column of the columns read is then typed as
        its first 10,000 values read), as the command line reads the file in memory.
    label : str
        The label column (binary).
    scores : str or sequence of str
        The score column(s); higher means more likely positive. Each is evaluated in turn.
        (Named as in :func:`isometrics.evaluate_scores` and
        :func:`isometrics.dask.evaluate_dask`; it was ``score`` before.)
    sample_weight : str, default=None
        A column of non-negative sample weights; ``None`` weighs every row 1.
    metrics : sequence of str or Metric, default=("f1",)
        Metrics whose best thresholds to report; see :func:`isometrics.parse_metric`.
    pos_label : int, float, bool or str, default=None
        The positive class; ``None`` infers it from {0, 1}, {-1, 1} or {False, True}.
    memory_limit : int or str, default=None
        The memory DuckDB may use, in bytes or as ``"4GB"``, ``"512MiB"``, ``"25%"``;
        at least 32 MiB. ``None``: a quarter of physical memory. The Python process adds
        the batches in flight (up to four: fetched ahead, swept, thinned; about 100 bytes
        per row of ``batch_size`` each) and the display points to it.
    temp_directory : str or path-like, default=None
        Where DuckDB spills (a fresh directory is made inside it and removed afterwards,
        with what was spilled); ``None``: the system's temporary directory. Spilling a
        column of ``n`` rows takes up to about ``50 n`` bytes of disk (46 GB for 10^9
        rows of one continuous score).
    resolution : int, default=1000
        Display resolution (>= 2) of each result's ``operating_points``; see Notes.
    batch_size : int, default=1_000_000
        Rows (at most as many distinct scores) per batch streamed from DuckDB (>= 1; DuckDB
        may send fewer). The results, display points included, do not depend on it.
    separator : str, optional
        The field separator of CSV files (one character). By default a comma (a tab for
        ``.tsv`` names), or the character a header read as one column holds (``;``, a tab,
        ``|``), as the command line reads the same file in memory. Ignored for Parquet.

    Returns
    -------
    OutOfCoreEvaluation
        One :class:`OutOfCoreResult` per score column, in order.

    Raises
    ------
    InvalidParameterError
        If ``path`` is not a path, a glob or a list of them; if ``label``, ``scores`` or
        ``sample_weight`` is not a column name (or ``scores`` names
        a column twice), ``memory_limit`` is not a size of at least 32 MiB, or
        ``resolution`` or ``batch_size`` is not an integer in range, or ``temp_directory`` is
        not a path or names a file (or a path under one).
    IsometricsError
        If no file matches ``path``, a file is missing, empty, of another format or mixes
        formats with the others, or lacks a column; if a row of a CSV file has more or
        fewer fields than its header (the message names the row and its line, and the
        columns it has no value for); if a value anywhere is bad: a missing
        label, a missing, NaN or infinite score, a missing, negative or non-finite weight,
        or a label of a third class (the message names the file and the row, counted from 0,
        of the first one); if ``pos_label`` is not a label of the data or cannot be inferred;
        if a class has no weight; if no spill directory can be made in ``temp_directory``;
        and if DuckDB runs out of memory or disk. Everything is
        checked before anything is computed, and nothing is returned half-done.
    ImportError
        If duckdb is not installed (``pip install 'isometrics[scale]'``).

    See Also
    --------
    isometrics.evaluate_scores : the same evaluation of data in memory.

    Notes
    -----
    *Exactness.* Per-score sums of integer weights (or counts) are exact in float64 below
    2**53, and the areas are summed over the operating points by blocks aligned to their
    global position (:mod:`isometrics._core.summation`), so however the table is cut into
    batches, every area and best threshold equals the in-memory engine's bit for bit. With
    fractional weights the per-score sums may round differently (a few ulps).

    *Display resolution.* ``operating_points`` keeps, of the full curve, the first and last
    point of every run of consecutive points that share a cell of side ``1 / resolution``
    in ROC (FPR, TPR), PR (recall, precision) and PRG space, every ROC (hence PRG) convex
    hull vertex and each best point. The polylines through the kept points are within
    ``1 / resolution`` of the exact ones, in each coordinate, in all three spaces (inside
    the unit square for PRG); the kept points themselves are exact. Areas computed from
    this subset are not the data's: read the result's fields.

    *Speed.* Each batch allocates and frees arrays of about 1 MB, which glibc's allocator
    maps as fresh pages: their page faults can take a third of the Python side's time.
    ``isometrics evaluate --out-of-core`` keeps freed memory for reuse in its own process; in
    a program of yours, start Python with ``MALLOC_MMAP_THRESHOLD_=33554432`` and
    ``MALLOC_TRIM_THRESHOLD_=268435456`` in the environment for the same effect.

    References
    ----------
    .. [1] M. Raasveldt and H. Muehleisen, "DuckDB: an Embeddable Analytical Database",
       SIGMOD 2019 (the engine that groups and sorts beyond memory).
    .. [2] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006 (the interpolated PR area).

    Examples
    --------
    >>> import os, tempfile
    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> from isometrics.scale import evaluate_out_of_core
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.parquet")
    >>> pq.write_table(pa.table({"y": [0, 0, 1, 1], "model": [0.1, 0.4, 0.35, 0.8]}), path)
    >>> result = evaluate_out_of_core(path, label="y", scores="model", memory_limit="256MB")
    >>> r = result["model"]
    >>> r.auroc, round(r.average_precision, 4), r.best[0].threshold
    (0.75, 0.8333, 0.35)
    """
    names, parsed, limit, resolution, batch_size, spill_parent = _evaluate_out_of_core_iv(
        label, scores, sample_weight, metrics, memory_limit, resolution, batch_size, temp_directory
    )
    files, kind = expand_paths(path)
    wanted = [label, *names, *([sample_weight] if sample_weight else [])]
    delimiter = (
        ","
        if kind != "csv"
        else csv_separator(files[0], separator, option=f"{current_caller()}: `separator`", wanted=wanted)[0]
    )
    source = Source(tuple(files), kind, delimiter)
    results = []
    with spill_directory(spill_parent) as spill:
        con = connect(limit, spill)
        try:
            source = prepare(con, source, wanted)
            totals = first_pass(con, source, label, names, sample_weight, pos_label)
            _check_both_classes(totals, label)
            for name, distinct in zip(names, totals.distinct):
                # mostly distinct scores: DuckDB sorts the rows and ties are grouped as they stream back
                # (exact sums only, so that the table is the grouped one to the bit)
                sort_rows = totals.exact and distinct > SORT_ROWS_ABOVE * totals.n_rows
                batches = count_table_batches(
                    con, source, label, name, sample_weight, totals.pos_label, batch_size, sort_rows=sort_rows
                )
                result = _sweep(
                    name,
                    batches,
                    totals,
                    parsed,
                    resolution,
                    spill,
                    threaded=batch_size >= PIPELINE_BATCH,
                    stop=con.interrupt,
                )
                # Weights are read as sampling weights, as evaluate_scores reads them without resampling;
                # without weights the class totals are counts, ints as evaluate_scores reports them.
                results.append(
                    replace(
                        result,
                        n_positives=whole_total(result.n_positives, None),
                        n_negatives=whole_total(result.n_negatives, None),
                    )
                    if sample_weight is None
                    else replace(result, weight_kind="sampling")
                )
        finally:
            con.close()
    return OutOfCoreEvaluation(tuple(results), files=tuple(str(p) for p in files), memory_limit=limit)


def _check_both_classes(totals: Totals, label: str) -> None:
    for total, which in ((totals.n_positives, "positive"), (totals.n_negatives, "negative")):
        if not total > 0:
            raise IsometricsError(
                f"{current_caller()}: the {which} class has no weight in label column {label!r} "
                f"(positive = {totals.pos_label!r}); ROC, PR and PRG analysis needs both classes: "
                "check the label column and pos_label."
            )


def _running(increments: FloatArray, before: float) -> FloatArray:
    """Cumulative sums continuing from ``before``: the same additions, in the same order, as one
    running sum over the whole table (so the last one is the total, to the bit); ``increments``
    are left as they are (:func:`_running_into` on a copy)."""
    return _running_into(np.array(increments, dtype=np.float64), before)


def _spooled(
    batches: Iterator[tuple[FloatArray, FloatArray, FloatArray]], spill: str, name: str
) -> tuple[Iterator[tuple[FloatArray, FloatArray, FloatArray]], float, float]:
    """With fractional weights the totals of the first pass (summed in DuckDB's order) may differ
    from the running sums in score order in the last bits: the batches are written to the spill
    folder (an Arrow file, 24 bytes per distinct score) while the running sums are taken, and
    read back from there for the sweep, whose totals are those running sums."""
    import pyarrow as pa

    handle, path = tempfile.mkstemp(prefix="table-", suffix=".arrow", dir=spill)
    os.close(handle)
    schema = pa.schema([("t", pa.float64()), ("p", pa.float64()), ("n", pa.float64())])
    tp = fp = 0.0
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, schema) as writer:
        for t, p, n in batches:
            tp, fp = float(_running(p, tp)[-1]), float(_running(n, fp)[-1])
            writer.write_batch(pa.record_batch([t, p, n], schema=schema))

    def read() -> Iterator[tuple[FloatArray, FloatArray, FloatArray]]:
        with pa.memory_map(path) as source:
            reader = pa.ipc.open_file(source)
            for k in range(reader.num_record_batches):
                batch = reader.get_batch(k)
                yield tuple(batch.column(j).to_numpy() for j in range(3))  # type: ignore[misc]
        os.unlink(path)

    return read(), tp, fp


def _ahead(items: Iterator[Any], stop: Callable[[], None], depth: int = 2) -> Iterator[Any]:
    """``items`` produced in a thread of their own, up to ``depth`` ahead of the consumer: DuckDB's
    fetches and NumPy's grouping (both release the GIL) overlap the sweep. The producer's errors
    are raised here; when the consumer stops early, ``stop`` (DuckDB's interrupt) ends the
    producer, which is waited for, so that nothing runs on the connection afterwards."""
    handoff: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=depth)
    done = threading.Event()

    def put(item: tuple[str, Any]) -> bool:
        while not done.is_set():
            try:
                handoff.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(("item", item)):
                    return
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, raised there
            put(("error", exc))
            return
        put(("end", None))

    # the producer runs in a copy of this context: its messages name the public function being called
    context = contextvars.copy_context()
    producer = threading.Thread(target=context.run, args=(produce,), name="isometrics-out-of-core", daemon=True)
    producer.start()
    finished = False  # the producer said its last word: it is ending by itself, with no query running
    try:
        while True:
            kind, value = handoff.get()
            if kind != "item":
                finished = True
                if kind == "error":
                    raise value
                return
            yield value
    finally:
        if not finished:
            done.set()
            stop()
        producer.join()


def _cumulated(
    batches: Iterator[tuple[FloatArray, FloatArray, FloatArray]],
) -> Iterator[tuple[FloatArray, FloatArray, FloatArray]]:
    """Thresholds and the running sums of the positives and negatives, batch after batch."""
    tp_prev = fp_prev = 0.0
    for t, p, n in batches:
        tp, fp = _running_into(p, tp_prev), _running_into(n, fp_prev)
        tp_prev, fp_prev = float(tp[-1]), float(fp[-1])
        yield t, tp, fp


def _running_into(increments: FloatArray, before: float) -> FloatArray:
    """:func:`_running`, written over ``increments`` when they may be (a batch's own array, which
    nothing reads afterwards): ``before`` added to the first one, then the running sum in place:
    the additions of one running sum from ``before``, in their order, with no new array."""
    out = (
        increments
        if increments.flags.writeable and increments.dtype == np.float64
        else np.array(increments, dtype=np.float64)
    )
    if len(out):
        out[0] += before
    return np.cumsum(out, out=out)


def _sweep(
    name: str,
    batches: Iterator[tuple[FloatArray, FloatArray, FloatArray]],
    totals: Totals,
    metrics: list[Metric],
    resolution: int,
    spill: str,
    *,
    threaded: bool = True,
    stop: Callable[[], None] = lambda: None,
) -> OutOfCoreResult:
    """Stream one column's count table into the sweep and the display, and read the results.

    ``threaded``: three threads (DuckDB and NumPy release the GIL): the batches are fetched,
    grouped and summed ahead, the display of batch ``k`` is thinned while the sweep takes batch
    ``k``; each one sees the batches in order, so the results do not depend on the threads."""
    P, N = totals.n_positives, totals.n_negatives
    if not totals.exact:
        batches, P, N = _spooled(batches, spill, name)
    sweep = Sweep(P, N, metrics=metrics, areas=_AREAS)
    display = StreamingDisplay(P, N, resolution, exact=totals.exact)
    start = 1
    if not threaded:
        for t, tp, fp in _cumulated(batches):
            sweep.update(t, tp, fp)
            display.update(start, t, tp, fp)
            start += len(t)
        return _result(name, sweep, display, totals, resolution)
    pending: Future[None] | None = None
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="isometrics-display") as thinning:
        try:
            for t, tp, fp in _ahead(_cumulated(batches), stop):
                if pending is not None:
                    pending.result()
                pending = thinning.submit(display.update, start, t, tp, fp)
                sweep.update(t, tp, fp)
                start += len(t)
            if pending is not None:
                pending.result()
        finally:
            if pending is not None:
                pending.cancel()
    return _result(name, sweep, display, totals, resolution)


def _result(name: str, sweep: Sweep, display: StreamingDisplay, totals: Totals, resolution: int) -> OutOfCoreResult:
    """The evaluation of one column whose whole count table the sweep and the display have seen."""
    result = sweep.result()
    kept = display.points([(b.index, b.threshold, b.tp, b.fp) for b in result.best])
    points = OperatingPoints.from_arrays(*kept, totals.pos_label)
    return OutOfCoreResult(
        name=name,
        n_samples=totals.n_rows,
        n_positives=result.n_positives,
        n_negatives=result.n_negatives,
        prevalence=points.prevalence,  # the display keeps the last point: the same totals
        auroc=result.auroc,
        average_precision=result.average_precision,
        auprg=result.auprg,
        best=result.best,
        operating_points=points,
        auc_pr_interpolated=result.auc_pr_interpolated,
        n_points=result.n_points,
        resolution=resolution,
    )
