"""Files on disk seen through DuckDB: the plumbing of out-of-core evaluation.

DuckDB is the embedded engine that groups and sorts data larger than memory: given a
``memory_limit`` and a ``temp_directory``, its hash aggregation and its sort spill to disk.
This module finds the files (a path or a glob; Parquet or CSV, told apart by their bytes),
opens a connection with those limits, runs the validation and class-totals pass (one scan),
finds the first offending row of a bad file (only when there is one), and streams the
score-ordered count table of one score column as NumPy batches.

Nothing here computes a metric; :mod:`isometrics.scale.out_of_core` does.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np

from .._core.caller import current_caller
from .._core.files import file_format
from .._core.optional import needs
from .._core.validation import check_binary_target
from ..exceptions import InvalidParameterError, IsometricsError
from ._csv import not_utf8, ragged_row, retyped, settle_types
from .formats import scan_expression

__all__: list[str] = []


def system_memory() -> int:
    """Physical memory of this machine in bytes (0 when the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):  # pragma: no cover - non-POSIX systems
        return 0


def available_memory() -> int:
    """Memory available to a new process in bytes (``MemAvailable``; else physical memory)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return system_memory()


def _quote(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _ident(name: str) -> str:
    """A SQL identifier (any column name, quoted)."""
    return '"' + name.replace('"', '""') + '"'


def expand_paths(
    path: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], caller: str | None = None
) -> tuple[list[Path], Literal["parquet", "csv"]]:
    """The files named by ``path`` (a file, a glob such as ``logs/*.parquet``, or a list of either),
    sorted within each glob, and their common format.

    ``caller`` names the messages' source where no declared function runs (the command line
    passes ``"isometrics evaluate"``); by default the public function being called.
    """
    caller = current_caller(caller)
    fix = "pass a path, a glob such as 'data/*.parquet', or a list of them"
    if isinstance(path, (str, os.PathLike)):
        items = [path]
    elif isinstance(path, Sequence) and not isinstance(path, (bytes, bytearray)):
        items = list(path)
    else:
        raise InvalidParameterError(
            f"{caller}: `path` must be a path, a glob or a list of them; got {type(path).__name__}; {fix}."
        )
    if not items:
        raise IsometricsError(f"{caller}: no file given; pass a path or a glob such as 'data/*.parquet'.")
    files: list[Path] = []
    for item in items:
        if not isinstance(item, (str, os.PathLike)):
            raise InvalidParameterError(
                f"{caller}: `path` must be a path, a glob or a list of them; got a list "
                f"holding a {type(item).__name__}; {fix}."
            )
        text = os.fspath(item)
        if glob.has_magic(text):
            matched = sorted(p for p in glob.glob(text) if os.path.isfile(p))
            if not matched:
                raise IsometricsError(f"{caller}: no file matches {text!r}; check the pattern.")
            files.extend(Path(p) for p in matched)
        else:
            p = Path(text)
            if not p.exists():
                raise IsometricsError(f"{caller}: file not found: {text!r}; check the path.")
            if p.is_dir():
                raise IsometricsError(
                    f"{caller}: {text!r} is a directory; pass its files, e.g. {os.path.join(text, '*.parquet')!r}."
                )
            files.append(p)
    formats = {file_format(p) for p in files}
    if len(formats) > 1:
        raise IsometricsError(f"{caller}: the files mix Parquet and CSV; pass files of one format.")
    return files, formats.pop()


@dataclass(frozen=True)
class Source:
    """The files to read and how: the SQL table expression DuckDB scans."""

    files: tuple[Path, ...]
    kind: Literal["parquet", "csv"]
    #: The CSV field separator (``_core.files.csv_separator``); unused for Parquet.
    separator: str = ","
    #: The CSV text columns trimmed and typed (``_csv.retyped``); empty when none is.
    trim: str = ""

    def scan(self, *, located: bool = False, files: Sequence[Path] | None = None) -> str:
        """``read_parquet(...)`` or ``read_csv(...)`` of the files (``located``: with each row's file name)."""
        return scan_expression(
            self.kind, files or self.files, separator=self.separator, trim=self.trim, located=located
        )


def connect(memory_limit: int, temp_directory: str, threads: int | None = None) -> Any:
    """A DuckDB connection that spills to ``temp_directory`` past ``memory_limit`` bytes."""
    with needs("out-of-core evaluation"):
        import duckdb
    con = duckdb.connect(":memory:")
    con.execute(f"SET memory_limit = '{int(memory_limit)}B'")
    con.execute(f"SET temp_directory = {_quote(temp_directory)}")
    con.execute("SET preserve_insertion_order = false")  # lets the sort and the scans stream
    if threads is not None:
        con.execute(f"SET threads = {int(threads)}")
    return con


def check_temp_directory(temp_directory: Any) -> str | None:
    """``temp_directory`` as a str (None: the system's temporary directory); refused when it is not a
    path, or names something other than a directory."""
    if temp_directory is None:
        return None
    fix = "pass a directory (created when missing) on a disk with free space, or None for the system's one"
    if isinstance(temp_directory, bytes) or not isinstance(temp_directory, (str, os.PathLike)):
        raise InvalidParameterError(
            f"{current_caller()}: `temp_directory` must be a path or None; got {type(temp_directory).__name__}; {fix}."
        )
    parent = os.fspath(temp_directory)
    if not parent.strip():
        raise InvalidParameterError(
            f"{current_caller()}: `temp_directory` must be a path or None; got {parent!r}; {fix}."
        )
    existing = Path(parent)
    while not existing.exists() and existing != existing.parent:  # the nearest part that exists
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        what = "is a file" if str(existing) == parent else f"lies under the file {str(existing)!r}"
        raise InvalidParameterError(f"{current_caller()}: `temp_directory` {parent!r} {what}, not a directory; {fix}.")
    return parent


@contextmanager
def spill_directory(temp_directory: str | None) -> Iterator[str]:
    """The directory DuckDB spills into: a fresh one inside ``temp_directory`` (or the system's
    temporary directory), removed afterwards with everything spilled into it."""
    try:
        if temp_directory is not None:
            os.makedirs(temp_directory, exist_ok=True)
        path = tempfile.mkdtemp(prefix="isometrics-spill-", dir=temp_directory)
    except OSError as exc:  # no permission, a read-only or full disk
        shown = "the system's temporary directory" if temp_directory is None else repr(temp_directory)
        raise IsometricsError(
            f"{current_caller()}: cannot make a spill directory in `temp_directory` {shown} "
            f"({exc.strerror or exc}); pass a directory you can write to (--temp-directory)."
        ) from None
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def duckdb_error(exc: BaseException, what: str) -> IsometricsError:
    """One clear line from a DuckDB error raised while ``what`` (an interrupted query is re-raised as
    ``KeyboardInterrupt``, which the command line turns into exit status 130)."""
    if "Interrupt" in type(exc).__name__:
        raise KeyboardInterrupt from exc
    full = str(exc)
    text = full.strip().splitlines()
    line = text[0] if text else type(exc).__name__
    converting = re.search(
        r'Error when converting column "(.*?)"\. Could not convert string "(.*?)" to \'(\w+)\'', full
    )
    where = re.search(r"CSV Error on Line: (\d+)", full)
    if converting and where:
        name = re.search(r"^\s*file = (.*)$", full, flags=re.MULTILINE)
        shown = f" of {name.group(1).strip()!r}" if name else ""
        number = int(where.group(1))
        return IsometricsError(
            f"{what}: column {converting.group(1)!r} holds {converting.group(2)!r} at row "
            f"{number - 2} (line {number}{shown}, rows counted from 0 after the header), "
            f"which is not a {converting.group(3).lower()} like the values before it; fix or "
            "drop that row. Nothing was computed or written."
        )
    if "Out of Memory" in line or "out of memory" in line.lower():
        return IsometricsError(
            f"{what}: DuckDB ran out of memory ({line}); raise memory_limit (--memory-limit) or "
            "give a temp_directory (--temp-directory) with more free disk."
        )
    if "No space left" in line:
        return IsometricsError(
            f"{what}: the disk of the temporary directory is full ({line}); pass a "
            "temp_directory (--temp-directory) on a disk with more free space."
        )
    return IsometricsError(f"{what}: {line}")


@dataclass(frozen=True)
class Totals:
    """What the first pass learned: rows, the positive class and the weighted class totals."""

    n_rows: int
    pos_label: Any
    n_positives: float
    n_negatives: float
    labels: tuple[Any, ...]
    #: Whether every weight is a whole number and the totals are below 2**53: then every
    #: per-score and cumulative sum is exact, whatever the order of the additions.
    exact: bool = True
    #: Per score column, an estimate of its distinct scores (HyperLogLog, summed over the two
    #: classes: it may count a score twice); it only chooses how the count table is built.
    distinct: tuple[int, ...] = ()


def _to_python(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def prepare(con: Any, source: Source, columns: Sequence[str]) -> Source:
    """Check that every file holds ``columns`` and is well formed; for CSV, the source that reads the
    text columns among them trimmed and typed as the in-memory reader reads them (``_csv``)."""
    _check_columns(con, source, columns)
    if source.kind != "csv":
        return source
    try:
        settled = settle_types(con, source.scan(), list(columns))
    except Exception as exc:  # duckdb.Error
        raise _read_error(exc, source, source.files, f"{current_caller()}: cannot read {_shown(source)}") from exc
    return replace(source, trim=retyped(settled)) if settled else source


def _read_error(exc: BaseException, source: Source, files: Sequence[Path], what: str) -> IsometricsError:
    """The error of a failed read: for CSV, the first row of the wrong length when there is one."""
    if source.kind == "csv" and "Interrupt" not in type(exc).__name__:
        for path in files:
            ragged = not_utf8(path) or ragged_row(path, source.separator)
            if ragged is not None:
                return ragged
    return duckdb_error(exc, what)


def first_pass(
    con: Any, source: Source, label: str, scores: Sequence[str], weight: str | None, pos_label: Any
) -> Totals:
    """Check every value and count the classes, in one scan; raise naming the file and row of the
    first offending value (a missing label, score or weight; a NaN or infinite score; a negative or
    non-finite weight; a third class)."""
    w = _ident(weight) if weight else None
    bad_terms = [f"count(*) FILTER (WHERE {_bad_score(s)}) AS {_ident('bad score ' + s)}" for s in scores]
    if w is not None:
        bad_terms.append(f'count(*) FILTER (WHERE {_bad_weight(w)}) AS "bad weight"')
        real = f"CAST({w} AS DOUBLE)"
        bad_terms.append(f'count(*) FILTER (WHERE isfinite({real}) AND {real} <> floor({real})) AS "fractional"')
        total = f"sum(CASE WHEN {w} > 0 AND isfinite({w}) THEN CAST({w} AS DOUBLE) ELSE 0 END)"
    else:
        total = "CAST(count(*) AS DOUBLE)"
    bad_terms += [f"approx_count_distinct(CAST({_ident(s)} AS DOUBLE)) AS {_ident('distinct ' + s)}" for s in scores]
    sql = (
        f"SELECT {_ident(label)} AS label, count(*) AS n, {total} AS w, {', '.join(bad_terms)} "
        f"FROM {source.scan()} GROUP BY ALL"
    )
    try:
        rows = con.execute(sql).fetchall()
    except Exception as exc:  # duckdb.Error: a file that does not parse, a value of the wrong type
        raise _read_error(exc, source, source.files, f"{current_caller()}: cannot read {_shown(source)}") from exc
    n_rows = sum(int(r[1]) for r in rows)
    if n_rows == 0:
        raise IsometricsError(f"{current_caller()}: {_shown(source)} holds no rows; pass files with data.")
    # Problems, in the order of the columns: the first one found is reported with its row.
    if any(r[0] is None for r in rows):
        _raise_at(
            con,
            source,
            f"{_ident(label)} IS NULL",
            f"label column {label!r} has a missing value",
            "drop or fill the rows without a label",
        )
    for k, s in enumerate(scores):
        if any(int(r[3 + k]) > 0 for r in rows):
            _raise_at(
                con,
                source,
                _bad_score(s),
                f"score column {s!r} has a missing, NaN or infinite value",
                "drop or impute those rows (scores must be finite numbers)",
                value_of=s,
            )
    for s in scores:
        _check_exact_integers(con, source, s)
    if w is not None and any(int(r[3 + len(scores)]) > 0 for r in rows):
        _raise_at(
            con,
            source,
            _bad_weight(w),
            f"weight column {weight!r} has a missing, negative or non-finite value",
            "weights must be finite and >= 0",
            value_of=weight,
        )
    labels = np.array([r[0] for r in rows], dtype=object)
    typed = np.array(labels.tolist())  # the labels' own dtype (integers, booleans, strings)
    if len(rows) > 2:
        expected = _expected_pair(typed, [r[1] for r in rows], pos_label)
        condition = f"{_ident(label)} NOT IN ({', '.join('?' for _ in expected)})"
        _raise_at(
            con,
            source,
            condition,
            f"label column {label!r} has {len(rows)} classes "
            f"({', '.join(repr(_to_python(v)) for v in sorted(typed.tolist(), key=repr)[:6])}), but a binary "
            f"evaluation takes two ({', '.join(repr(v) for v in expected)} here)",
            "keep the rows of the two classes, or binarise the label column",
            params=list(expected),
            value_of=label,
        )
    _, pos = check_binary_target(typed, pos_label=pos_label)
    pos = _to_python(pos)
    positives = sum(float(r[2]) for r in rows if _to_python(r[0]) == pos)
    negatives = sum(float(r[2]) for r in rows if _to_python(r[0]) != pos)
    fractional = w is not None and sum(int(r[4 + len(scores)]) for r in rows) > 0
    exact = not fractional and positives + negatives < 2.0**53
    first = len(bad_terms) - len(scores) + 3  # the distinct counts come last
    distinct = tuple(sum(int(r[first + k] or 0) for r in rows) for k in range(len(scores)))
    return Totals(n_rows, pos, positives, negatives, tuple(_to_python(v) for v in typed.tolist()), exact, distinct)


def _bad_score(column: str) -> str:
    c = _ident(column)
    return f"({c} IS NULL OR NOT isfinite(CAST({c} AS DOUBLE)))"


#: Integer column types whose values may lie beyond 2**53, where float64 is no longer exact.
_WIDE_INTEGERS = ("BIGINT", "UBIGINT", "HUGEINT", "UHUGEINT")


def _check_exact_integers(con: Any, source: Source, score: str) -> None:
    """Refuse an integer score column holding values that float64 cannot represent exactly
    (beyond 2**53 in magnitude, not a multiple of the spacing there): cast to float64 they would
    merge or swap, silently changing every area. As the in-memory engine does."""
    c = _ident(score)
    kind = con.execute(f"DESCRIBE SELECT {c} FROM {source.scan()}").fetchall()[0][1]
    if str(kind).upper() not in _WIDE_INTEGERS:
        return
    # Exact comparison in 128-bit integers (a float64 of an int64 can reach 2**64: no overflow).
    inexact = (
        f"({c} IS NOT NULL AND abs(CAST({c} AS DOUBLE)) >= 9007199254740992 AND "
        f"CAST(CAST({c} AS DOUBLE) AS HUGEINT) <> CAST({c} AS HUGEINT))"
    )
    if con.execute(f"SELECT count(*) FROM {source.scan()} WHERE {inexact}").fetchall()[0][0]:
        _raise_at(
            con,
            source,
            inexact,
            f"score column {score!r} holds integers that float64 cannot represent "
            "exactly (magnitudes beyond 2**53 need not be), so scores would merge or lose their order",
            "subtract a reference value first (e.g. score - min(score)), rank the scores, or "
            "convert them to floating point yourself if rounding is acceptable",
            value_of=score,
        )


def _bad_weight(w: str) -> str:
    return f"({w} IS NULL OR NOT isfinite(CAST({w} AS DOUBLE)) OR {w} < 0)"


def _expected_pair(labels: np.ndarray, counts: list[int], pos_label: Any) -> list[Any]:
    """The two classes a binary evaluation of these labels expects: an inferable pair ({0, 1},
    {-1, 1}, {False, True}) when present, else ``pos_label`` and the most frequent other class,
    else the two most frequent classes."""
    present = {_to_python(v) for v in labels.tolist()}
    for pair in ((0, 1), (-1, 1), (False, True)):
        if all(p in present and type(p) is type(next(q for q in present if q == p)) for p in pair):
            return list(pair)
    order = [_to_python(labels[i]) for i in np.argsort(counts)[::-1]]
    if pos_label is not None and pos_label in present:
        return [pos_label, next(v for v in order if v != pos_label)]
    return order[:2]


def _shown(source: Source) -> str:
    if len(source.files) == 1:
        return repr(str(source.files[0]))
    return f"{len(source.files)} files ({str(source.files[0])!r}, ...)"


def _check_columns(con: Any, source: Source, columns: Sequence[str]) -> None:
    """Every column must be in every file (named as in the first file otherwise)."""
    for path in source.files:
        try:
            names = [r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {source.scan(files=[path])}").fetchall()]
        except Exception as exc:  # duckdb.Error
            raise _read_error(
                exc, source, [path], f"{current_caller()}: cannot read {str(path)!r} as {source.kind.upper()}"
            ) from exc
        missing = [c for c in dict.fromkeys(columns) if c not in names]
        if missing:
            ragged = ragged_row(path, source.separator) if source.kind == "csv" else None
            if ragged is not None:  # the sniffer read another header
                raise ragged
            shown = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
            raise IsometricsError(
                f"{current_caller()}: column {missing[0]!r} is not in {str(path)!r} (columns: {shown}); pass one of those names."
            )


def _raise_at(
    con: Any,
    source: Source,
    condition: str,
    what: str,
    fix: str,
    params: Sequence[Any] = (),
    value_of: str | None = None,
) -> None:
    """Raise ``what`` naming the first file (in order) and the first row (0-based, header not
    counted) where ``condition`` holds, and the offending value."""
    path, row, value = _first_offending_row(con, source, condition, params, value_of)
    shown = "" if value_of is None else f" (value {value!r})"
    raise IsometricsError(
        f"{current_caller()}: {what}: first in {str(path)!r} at row {row}{shown} (rows counted from 0, "
        f"header not counted); {fix}. Nothing was computed or written."
    )


def _first_offending_row(
    con: Any, source: Source, condition: str, params: Sequence[Any], value_of: str | None
) -> tuple[Path, int, Any]:
    value = "NULL" if value_of is None else _ident(value_of)
    if source.kind == "parquet":  # the reader numbers the rows of each file
        sql = (
            f"SELECT filename, file_row_number, {value} FROM {source.scan(located=True)} WHERE {condition} "
            "ORDER BY file_index, file_row_number LIMIT 1"
        )
        row = con.execute(sql, list(params)).fetchone()
        if row is not None:
            return Path(row[0]), int(row[1]), _to_python(row[2])
    else:  # CSV: find the file, then number its rows in file order (one thread keeps the order)
        for path in source.files:
            if con.execute(
                f"SELECT count(*) FROM {source.scan(files=[path])} WHERE {condition}", list(params)
            ).fetchone()[0]:
                con.execute("SET threads = 1")
                con.execute("SET preserve_insertion_order = true")
                sql = (
                    f"SELECT r, v FROM (SELECT row_number() OVER () - 1 AS r, {value} AS v, * "
                    f"FROM {source.scan(files=[path])}) WHERE {condition} ORDER BY r LIMIT 1"
                )
                row = con.execute(sql, list(params)).fetchone()
                return path, int(row[0]), _to_python(row[1])
    raise AssertionError("the offending row vanished between two scans")  # pragma: no cover


#: Above this share of distinct scores among the rows, sorting the rows (and grouping ties while
#: streaming them back) is cheaper than DuckDB's hash grouping followed by a sort of the groups.
SORT_ROWS_ABOVE = 0.5


def count_table_batches(
    con: Any,
    source: Source,
    label: str,
    score: str,
    weight: str | None,
    pos_label: Any,
    batch_size: int,
    *,
    sort_rows: bool = False,
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The count table of one score column in decreasing score order, in batches of at most
    ``batch_size`` distinct scores: ``(thresholds, positives, negatives)`` (float64 arrays; the
    weighted counts of the samples having each score, zero-weight samples left out as the
    in-memory engine does).

    DuckDB either groups the rows by score and sorts the groups (``sort_rows=False``: fewest
    rows to sort when scores repeat), or sorts the rows, whose ties are grouped here as they
    stream back (``sort_rows=True``: no hash table when nearly every score is distinct). Both
    give the same table, to the bit, when every per-score sum is exact (integer weights).
    """
    s, y = _ident(score), _ident(label)
    if sort_rows:
        w = "" if weight is None else f", CAST({_ident(weight)} AS DOUBLE) AS w"
        where = "" if weight is None else f"WHERE {_ident(weight)} <> 0"
        sql = (
            f"SELECT CAST({s} AS DOUBLE) + 0.0 AS t, CAST({y} = $pos AS UTINYINT) AS p{w} FROM {source.scan()} {where} "
            "ORDER BY t DESC"
        )
        yield from _grouped(
            _record_batches(con, sql, pos_label, batch_size, f"{current_caller()}: sorting score column {score!r}"),
            weight is not None,
        )
        return
    if weight is None:
        p = f"CAST(count(*) FILTER (WHERE {y} = $pos) AS DOUBLE)"
        n = f"CAST(count(*) FILTER (WHERE {y} <> $pos) AS DOUBLE)"
        where = ""
    else:
        w = f"CAST({_ident(weight)} AS DOUBLE)"
        p = f"coalesce(sum({w}) FILTER (WHERE {y} = $pos), 0)"
        n = f"coalesce(sum({w}) FILTER (WHERE {y} <> $pos), 0)"
        where = f"WHERE {_ident(weight)} <> 0"
    # + 0.0 turns a negative zero into zero, so that the threshold reads as NumPy's sort would give it
    sql = (
        f"SELECT CAST({s} AS DOUBLE) + 0.0 AS t, {p} AS p, {n} AS n FROM {source.scan()} {where} "
        "GROUP BY t ORDER BY t DESC"
    )
    for batch in _record_batches(
        con, sql, pos_label, batch_size, f"{current_caller()}: grouping and sorting score column {score!r}"
    ):
        yield tuple(np.asarray(batch.column(k).to_numpy(zero_copy_only=False), dtype=np.float64) for k in range(3))  # type: ignore[misc]


def _record_batches(con: Any, sql: str, pos_label: Any, batch_size: int, what: str) -> Iterator[Any]:
    """The Arrow record batches of a query (DuckDB's errors turned into one clear line)."""
    try:
        relation = con.sql(sql, params={"pos": pos_label})
        # DuckDB >= 1.4 names it to_arrow_reader; earlier versions fetch_record_batch
        reader = (
            relation.to_arrow_reader(batch_size)
            if hasattr(relation, "to_arrow_reader")
            else relation.fetch_record_batch(batch_size)
        )
    except Exception as exc:  # duckdb.Error
        raise duckdb_error(exc, what) from exc
    while True:
        try:
            batch = reader.read_next_batch()
        except StopIteration:
            return
        except Exception as exc:  # duckdb.Error while streaming (out of memory, disk full)
            raise duckdb_error(exc, what) from exc
        if batch.num_rows:
            yield batch


def _grouped(batches: Iterator[Any], weighted: bool) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Rows sorted by decreasing score (``t``, ``p`` whether positive, ``w`` the weight) grouped into
    the count table: one entry per distinct score. A score's rows may straddle two batches, so each
    batch's last score waits for the next batch."""
    carry: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    for batch in batches:
        t = np.asarray(batch.column(0).to_numpy(zero_copy_only=False), dtype=np.float64)
        positive = np.asarray(batch.column(1).to_numpy(zero_copy_only=False), dtype=np.uint8)  # 0 or 1
        tied = t[1:] == t[:-1]
        distinct = not tied.any()  # the usual batch on this path: each row its own score, no sum to take
        starts = None if distinct else np.flatnonzero(np.concatenate(([True], ~tied)))
        if weighted:  # exact: w * 1, w * 0 and w - w are exact, as are the sums of whole weights
            w = np.asarray(batch.column(2).to_numpy(zero_copy_only=False), dtype=np.float64)
            pos_w = w * positive
            if starts is None:
                p, n = pos_w, w - pos_w
            else:
                p, n = np.add.reduceat(pos_w, starts), np.add.reduceat(w - pos_w, starts)
        elif starts is None:  # one row per score: its class is its count (what the sums below give)
            p = positive.astype(np.float64)
            n = np.subtract(1.0, p)
        else:
            counted = np.add.reduceat(positive, starts, dtype=np.int64)
            n = (np.diff(np.append(starts, len(t))) - counted).astype(np.float64)
            p = counted.astype(np.float64)
        table = (t if starts is None else t[starts], p, n)
        if carry is not None:
            if carry[0][0] == table[0][0]:  # the score goes on from the previous batch
                table[1][0] += carry[1][0]
                table[2][0] += carry[2][0]
            else:
                table = tuple(np.concatenate((c, v)) for c, v in zip(carry, table))  # type: ignore[assignment]
        if len(table[0]) > 1:
            yield tuple(v[:-1] for v in table)  # type: ignore[misc]
        carry = tuple(v[-1:] for v in table)  # type: ignore[assignment]
    if carry is not None:
        yield carry
