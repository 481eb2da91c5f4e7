"""Sources of labelled score columns read in batches: one interface for the three scale paths.

A :class:`BatchSource` names its columns and hands out :class:`RawBatch` es: the label, score and
weight columns of some rows as NumPy arrays, their missing values marked, with a locator that
names a row in messages. Three kinds implement it: :class:`ColumnsSource` (columns in memory:
arrays, a mapping, a data frame), :class:`ArrowSource` (Arrow record batches: a pyarrow Table or
reader, or rows of Parquet or CSV files read by DuckDB, :meth:`ArrowSource.from_files`) and
``isometrics.dask._partitions.PartitionSource`` (one partition of a Dask DataFrame or of a Parquet
data set). :func:`checked_batches` checks any of them, and :func:`check_batch` one batch, in one
place: a missing column, a missing value, a non-numeric, NaN or infinite score, a negative or
non-finite weight, a label of a third class. What they yield, :class:`Batch` es of validated
arrays, is what the counting code consumes (:meth:`BinnedCountTable.update_from
<isometrics.scale.BinnedCountTable.update_from>`, each Dask partition's count table).

Rows become count tables, and count tables have one consumer too: the score-ordered table
DuckDB builds out of core and each Dask score range's table stream into
:class:`isometrics.spaces.sweep.Sweep` (``update(thresholds, tp, fp)``), as the in-memory
engine's per-step terms. The out-of-core evaluation is the one path whose rows are not checked
here: it checks its files in SQL inside DuckDB (one scan, no row brought into Python;
``_sources.first_pass``), with the same rules, and names the file and row of the first bad value.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import InBody, validate_params
from .._core.files import csv_separator
from .._core.validation import check_labels, check_scores, frame_columns, label_set
from .._typing import FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from ._memory import default_memory_limit
from ._sources import Source, connect, duckdb_error, expand_paths, prepare, spill_directory

__all__ = [
    "ArrowSource",
    "Batch",
    "BatchSource",
    "ColumnsSource",
    "Locator",
    "RawBatch",
    "Rows",
    "check_batch",
    "check_columns",
    "checked_batches",
]


def plain(value: Any) -> Any:
    """A NumPy scalar as the Python scalar it holds; anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value


@runtime_checkable
class Where(Protocol):
    """Names a batch, and a row of it, in messages."""

    def where(self) -> str:
        """Words naming the batch."""
        ...

    def row(self, position: int, index: Any = None) -> str:
        """Words naming row ``position`` of the batch (``index``: its index label, if any)."""
        ...


@dataclass(frozen=True)
class Locator:
    """Where a partition comes from, to name the row of a bad value.

    ``number`` is the partition's position (0-based) among ``n_partitions``; for a
    Parquet input, ``file`` and the file row of the partition's first row.
    """

    number: int
    n_partitions: int
    file: str | None = None
    first_row: int = 0
    unit: ClassVar[str] = "partition"

    def where(self) -> str:
        """Words naming the partition."""
        if self.file is not None:
            return f"in file {self.file!r} (partition {self.number} of {self.n_partitions}, from file row {self.first_row})"
        return f"in partition {self.number} of {self.n_partitions}"

    def row(self, position: int, index: Any = None) -> str:
        """Words naming row ``position`` of the partition (``index``: its index label, if any)."""
        if self.file is not None:
            return (
                f"in file {self.file!r}, row {self.first_row + position} "
                f"(partition {self.number} of {self.n_partitions})"
            )
        label = "" if index is None else f", index {plain(index)!r}"
        return f"in partition {self.number} of {self.n_partitions}, row {position} of that partition{label}"


@dataclass(frozen=True)
class Rows:
    """A batch of an in-memory or Arrow source: ``what`` it is part of and the source row of its first row."""

    what: str
    first_row: int = 0
    unit: ClassVar[str] = "batch"

    def where(self) -> str:
        """Words naming the batch."""
        return f"in {self.what} (from row {self.first_row})"

    def row(self, position: int, index: Any = None) -> str:
        """Words naming row ``position`` of the batch, counted in the whole source from 0."""
        label = "" if index is None else f", index {plain(index)!r}"
        return f"in {self.what}, row {self.first_row + position}{label}"


@dataclass(frozen=True)
class RawBatch:
    """Some rows of a source, unchecked: each column read (``columns``, by name, in the order asked),
    its missing values (``missing``: a boolean mask, or ``None`` when it has none), the rows' index
    labels (``index``, or ``None``) and the ``locator`` that names them."""

    columns: dict[str, np.ndarray]
    missing: dict[str, np.ndarray | None]
    index: Any
    locator: Where


@runtime_checkable
class BatchSource(Protocol):
    """A source of (label, score columns, weights) rows, read in batches.

    ``column_names()`` lists the columns it holds and ``described`` names it in messages (both
    before any row is read); ``raw_batches(columns)`` reads those columns, batch after batch, in
    row order.
    """

    described: str

    def column_names(self) -> list[str]:
        """The columns the source holds."""
        ...

    def raw_batches(self, columns: list[str]) -> Iterator[RawBatch]:
        """The rows of ``columns``, batch after batch."""
        ...


@dataclass(frozen=True)
class Batch:
    """Validated rows of a source.

    ``y_true`` the labels (a checked 1-D array), ``scores`` each score column as finite float64,
    ``sample_weight`` finite float64 weights >= 0 (or ``None``); ``labels`` the batch's distinct
    labels (at most two, sorted), ``first_rows`` the batch row where each first appears and
    ``first_index`` its index label; ``locator`` names the batch.
    """

    y_true: np.ndarray
    scores: dict[str, FloatArray]
    sample_weight: FloatArray | None
    labels: tuple[Any, ...]
    first_rows: tuple[int, ...]
    first_index: tuple[Any, ...]
    locator: Where

    @property
    def n_rows(self) -> int:
        """Rows in the batch."""
        return len(self.y_true)


def check_columns(columns: Sequence[str], present: Sequence[str], where: str) -> None:
    """Raise naming the columns of ``columns`` that are not in ``present`` (the columns of ``where``)."""
    missing = [c for c in dict.fromkeys(columns) if c not in present]
    if missing:
        shown = ", ".join(repr(c) for c in present[:20]) + (", ..." if len(present) > 20 else "")
        raise IsometricsError(
            f"{current_caller()}: column(s) {', '.join(repr(c) for c in missing)} not in {where} "
            f"(columns: {shown}); check the names."
        )


def _index_at(index: Any, position: int) -> Any:
    return None if index is None else index[position]


def _located(exc: IsometricsError, loc: Where) -> IsometricsError:
    """A core checker's message, told which batch it is about (its indices count the batch's rows)."""
    unit = getattr(loc, "unit", "batch")
    return IsometricsError(f"{str(exc).rstrip('.')} ({loc.where()}; an index counts the rows of that {unit}).")


def check_batch(raw: RawBatch, *, label: str, scores: Sequence[str], weight: str | None) -> Batch:
    """Check one batch of a source: the one place every scale path's rows are checked.

    Raises
    ------
    IsometricsError
        For columns of different lengths, a missing label, score or weight, a NaN or
        infinite score, a non-numeric score or weight, a negative or non-finite weight, or a third label in the batch;
        the message names the column and where the first bad row is.
    """
    loc, index = raw.locator, raw.index
    named = [(label, "label"), *((s, "score") for s in scores), *([(weight, "weight")] if weight is not None else [])]
    lengths = {name: len(raw.columns[name]) for name, _ in named}
    if len(set(lengths.values())) > 1:
        raise IsometricsError(
            f"{current_caller()}: the columns have different lengths ({lengths}) {loc.where()}; pass columns of one length."
        )
    for name, what in named:
        mask = raw.missing.get(name)
        if mask is not None:
            first = int(np.flatnonzero(mask)[0])
            raise IsometricsError(
                f"{current_caller()}: {what} column {name!r} has {int(mask.sum())} missing value(s), the first "
                f"{loc.row(first, _index_at(index, first))}; drop or fill those rows before evaluating."
            )
    checked: dict[str, FloatArray] = {}
    for score in scores:
        s = raw.columns[score]
        if s.dtype.kind == "f":
            bad = ~np.isfinite(s)
            if bad.any():
                first = int(np.flatnonzero(bad)[0])
                kind = "NaN" if np.isnan(s[first]) else "infinite"
                raise IsometricsError(
                    f"{current_caller()}: score column {score!r} has {int(bad.sum())} NaN or infinite value(s), the first "
                    f"({kind}) {loc.row(first, _index_at(index, first))}; drop or impute them before evaluating."
                )
        try:
            checked[score] = check_scores(s, name=f"score column {score!r}")
        except IsometricsError as exc:
            raise _located(exc, loc) from None
    try:
        y = check_labels(np.asarray(raw.columns[label]), name=f"label column {label!r}")
    except IsometricsError as exc:
        raise _located(exc, loc) from None
    w = None
    if weight is not None:
        w = np.asarray(raw.columns[weight])
        if w.dtype.kind not in "biuf":
            raise IsometricsError(
                f"{current_caller()}: weight column {weight!r} must be numeric; got {w.dtype} ({loc.where()})."
            )
        w = w.astype(np.float64, copy=False)
        bad = ~np.isfinite(w) | (w < 0)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise IsometricsError(
                f"{current_caller()}: weight column {weight!r} has {int(bad.sum())} negative or non-finite value(s), the "
                f"first ({float(w[first])!r}) {loc.row(first, _index_at(index, first))}; weights must be finite "
                "numbers >= 0."
            )
    try:
        labels = label_set(y) if len(y) else np.array([])
    except IsometricsError as exc:
        raise _located(exc, loc) from None
    firsts = [int(np.argmax(y == v)) for v in labels]
    if len(labels) > 2:
        order = np.argsort(firsts, kind="stable")
        third = int(order[2])
        row = firsts[third]
        seen = ", ".join(repr(plain(labels[k])) for k in order[:2])
        raise IsometricsError(
            f"{current_caller()}: label column {label!r} has a third class {plain(labels[third])!r} (besides {seen}) "
            f"{loc.row(row, _index_at(index, row))}; this is a binary evaluation: binarise the labels "
            "(one class against the rest) or drop the rows of other classes."
        )
    return Batch(
        y,
        checked,
        w,
        tuple(plain(v) for v in labels),
        tuple(firsts),
        tuple(plain(_index_at(index, r)) for r in firsts),
        loc,
    )


def checked_batches(
    source: BatchSource, *, label: str, scores: Sequence[str], weight: str | None = None
) -> Iterator[Batch]:
    """The batches of ``source``, each checked by :func:`check_batch`, after its columns are checked.

    Raises
    ------
    InvalidParameterError
        If ``source`` is not a :class:`BatchSource`.
    IsometricsError
        If a column is missing (before any row is read), or as :func:`check_batch`.
    """
    if not isinstance(source, BatchSource):
        raise InvalidParameterError(
            f"{current_caller()}: `source` must be a batch source (ColumnsSource, ArrowSource, ...); got a "
            f"{type(source).__name__}; wrap the data, e.g. ColumnsSource({{'y': y, 'score': s}})."
        )
    columns = list(dict.fromkeys([label, *scores, *([weight] if weight is not None else [])]))
    check_columns(columns, source.column_names(), source.described)
    for raw in source.raw_batches(columns):
        yield check_batch(raw, label=label, scores=scores, weight=weight)


def _missing(values: np.ndarray, is_label: bool) -> np.ndarray | None:
    """The missing values of an in-memory column: ``None`` objects; NaN too in a label column (a
    NaN score or weight is a bad value, said as such)."""
    mask = None
    if values.dtype == object:
        mask = np.fromiter((v is None or (is_label and v != v) for v in values), dtype=bool, count=len(values))
    elif is_label and values.dtype.kind == "f":
        mask = np.isnan(values)
    return mask if mask is not None and mask.any() else None


class ColumnsSource:
    """Columns in memory as a :class:`BatchSource`: a mapping of name to 1-D array-like, or a data frame.

    ``batch_size`` rows per batch (``None``: one batch); ``described`` names the columns in messages.
    """

    def __init__(self, columns: Mapping[str, Any] | Any, batch_size: int | None = None) -> None:
        frame = frame_columns(columns)
        if frame is not None:
            columns = frame
        if not isinstance(columns, Mapping):
            raise InvalidParameterError(
                f"ColumnsSource: `columns` must be a mapping of name to column or a data frame; "
                f"got a {type(columns).__name__}."
            )
        self._columns = {str(k): v for k, v in columns.items()}
        self._batch_size = batch_size
        self.described = "the columns given"

    def column_names(self) -> list[str]:
        """The columns held."""
        return list(self._columns)

    def raw_batches(self, columns: list[str]) -> Iterator[RawBatch]:
        """The rows of ``columns``, ``batch_size`` at a time (one batch when ``None``)."""
        arrays = [np.asarray(self._columns[c]) for c in columns]
        n = len(arrays[0]) if arrays else 0
        step = self._batch_size or max(n, 1)
        for start in range(0, max(n, 1), step):
            chunk = {c: a[start : start + step] for c, a in zip(columns, arrays)}
            missing = {c: _missing(a, k == 0) for k, (c, a) in enumerate(chunk.items())}
            yield RawBatch(chunk, missing, None, Rows(self.described, start))


def arrow_arrays(table: Any, columns: list[str]) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray | None]]:
    """The ``columns`` of an Arrow table or record batch as NumPy arrays, and their null masks."""
    arrays: dict[str, np.ndarray] = {}
    missing: dict[str, np.ndarray | None] = {}
    for name in columns:
        column = table.column(name)
        missing[name] = column.is_null().to_numpy(zero_copy_only=False) if column.null_count else None
        arrays[name] = column.to_numpy(zero_copy_only=False)
    return arrays, missing


class ArrowSource:
    """Arrow record batches as a :class:`BatchSource`: a pyarrow Table, RecordBatch or
    RecordBatchReader (read once), or rows of files through DuckDB (:meth:`from_files`)."""

    def __init__(self, data: Any, described: str = "the Arrow data") -> None:
        if not hasattr(data, "schema"):
            raise InvalidParameterError(
                f"ArrowSource: `data` must be a pyarrow Table, RecordBatch or RecordBatchReader; "
                f"got a {type(data).__name__}."
            )
        self._data = data
        self._reader = None
        self.described = described

    def column_names(self) -> list[str]:
        """The columns held (from the schema: no row read)."""
        return list(self._data.schema.names)

    def _batches(self) -> Iterator[Any]:
        data = self._data
        if hasattr(data, "to_batches"):  # a Table
            yield from data.to_batches()
        elif hasattr(data, "read_next_batch"):  # a reader
            yield from data
        else:  # a RecordBatch
            yield data

    def raw_batches(self, columns: list[str]) -> Iterator[RawBatch]:
        """The rows of ``columns``, one Arrow record batch at a time."""
        start = 0
        for batch in self._batches():
            arrays, missing = arrow_arrays(batch, columns)
            yield RawBatch(arrays, missing, None, Rows(self.described, start))
            start += batch.num_rows

    @classmethod
    @validate_params(
        {
            "path": InBody("a path, a glob or a list of them"),
            "columns": InBody("column names"),
            "batch_size": InBody("rows per batch (an int >= 1)"),
            "memory_limit": InBody("bytes (an int) or None"),
        },
        name="ArrowSource.from_files",
    )
    def from_files(
        cls,
        path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
        columns: Sequence[str],
        *,
        batch_size: int = 1_000_000,
        memory_limit: int | None = None,
    ) -> ArrowSource:
        """The rows of ``columns`` of Parquet or CSV files (a path, a glob, a list), read by DuckDB
        in Arrow record batches of at most ``batch_size`` rows, as the out-of-core evaluation reads them.

        The files are read lazily, as the batches are consumed, in the context of this call: a
        read error names ``ArrowSource.from_files`` (or the public function that called it).

        Raises
        ------
        IsometricsError
            If no file matches, a file is unreadable or lacks one of ``columns``.
        ImportError
            If duckdb is not installed.
        """
        files, kind = expand_paths(path)
        wanted = list(dict.fromkeys(columns))
        separator = "," if kind != "csv" else csv_separator(files[0], None, option=current_caller(), wanted=wanted)[0]
        source = Source(tuple(files), kind, separator)
        shown = repr(str(files[0])) if len(files) == 1 else f"{len(files)} files ({str(files[0])!r}, ...)"
        limit = default_memory_limit() if memory_limit is None else memory_limit

        def rows() -> Iterator[Any]:
            with spill_directory(None) as spill:
                con = connect(limit, spill)
                try:
                    prepared = prepare(con, source, wanted)
                    listed = ", ".join('"' + c.replace('"', '""') + '"' for c in wanted)
                    sql = f"SELECT {listed} FROM {prepared.scan()}"
                    try:
                        relation = con.sql(sql)
                        reader = (
                            relation.to_arrow_reader(batch_size)
                            if hasattr(relation, "to_arrow_reader")
                            else relation.fetch_record_batch(batch_size)
                        )
                        for batch in reader:
                            if batch.num_rows:
                                yield batch
                    except Exception as exc:  # duckdb.Error: one clear line
                        raise duckdb_error(exc, f"{current_caller()}: reading {shown}") from exc
                finally:
                    con.close()

        # the rows are read later, under whichever function consumes them: in this call's context
        reader = _Rows(rows(), wanted, contextvars.copy_context())
        return cls(reader, described=f"file(s) {shown}")


class _Rows:
    """Record batches produced lazily, with the names of their columns (a reader's ``schema.names``).

    Each batch is produced in ``context`` (the call that named the files: its messages name it).
    """

    def __init__(self, batches: Iterator[Any], names: list[str], context: contextvars.Context) -> None:
        self._batches = batches
        self._context = context
        self.schema = SimpleNamespace(names=names)

    def read_next_batch(self) -> Any:
        return self._context.run(next, self._batches)

    def __iter__(self) -> Iterator[Any]:
        return self

    def __next__(self) -> Any:
        return self.read_next_batch()
