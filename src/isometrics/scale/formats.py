"""Each file format the readers know, in one table: what every path needs of it.

:data:`FORMATS` maps a format's name, as ``_core/files.py``'s ``file_format`` tells it from a
file's bytes, to its :class:`FileFormat`: the table expression DuckDB scans (out of core and
:meth:`ArrowSource.from_files <isometrics.scale.batches.ArrowSource.from_files>`), the rows a
file holds (its metadata, or an estimate from its size, for the command line's choice of path
and threads), a column's type before reading (for ``--pos-label`` out of core and on a
cluster), and the Polars lazy frame the in-memory command reads (``cli/_io.py`` dispatches
through the table and names no format). A new format is its signature in ``file_format`` and
one entry here.

The in-memory CSV reader reads as out of core does: names and text values stripped of the
whitespace around them (a text column then typed as its trimmed values read, as
:mod:`isometrics.scale._csv` types them), a quoted header read as the CSV standard reads it.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..exceptions import IsometricsError

__all__ = ["FORMATS", "FileFormat", "column_type", "estimated_rows", "first_line", "scan_expression"]


@dataclass(frozen=True)
class FileFormat:
    """One file format: how each reader reads it.

    Attributes
    ----------
    name : str
        How messages name the format (``"Parquet"``, ``"CSV"``).
    scan : callable
        ``scan(files, separator, trim, located) -> str``: the table expression DuckDB scans
        (``located``: with each row's file name; ``trim``: the text columns trimmed and typed).
    rows : callable
        ``rows(path) -> int``: the rows of one file, from its metadata or estimated.
    column_type : callable
        ``column_type(path, column) -> (type, names)``: the Arrow type of ``column`` and the
        file's column names, when the format says them before reading (else ``(None, [])``).
    frame : callable
        ``frame(path, separator) -> polars.LazyFrame``: the in-memory reader's lazy frame
        (``separator``: the field separator, None unless ``separated``).
    column : callable
        ``column(series) -> series``: a column as the in-memory reader hands it on.
    separated : bool
        Fields split by a separator (``--separator`` applies, detected otherwise).
    stripped : bool
        Names read stripped of the whitespace around them (a name asked for as written in the
        file is its stripped column).
    typed : bool
        ``column_type`` knows the types before reading (a column it lacks is missing).
    """

    name: str
    scan: Callable[[Sequence[Path], str, str, bool], str]
    rows: Callable[[Path], int]
    column_type: Callable[[Path, str], tuple[Any, list[str]]]
    frame: Callable[[Path, str | None], Any]
    column: Callable[[Any], Any]
    separated: bool = False
    stripped: bool = False
    typed: bool = False


def _quote(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def _listed(files: Sequence[Path]) -> str:
    return "[" + ", ".join(_quote(str(p)) for p in files) + "]"


def first_line(exc: BaseException) -> str:
    """The first line of a reader's error (its type's name when it has no text), with the fix for text
    that is not UTF-8."""
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    if "utf-8" in line.lower() or "utf8" in line.lower():
        line += "; save the file as UTF-8."
    return line


# Parquet ------------------------------------------------------------------------------------------


def _parquet_scan(files: Sequence[Path], separator: str, trim: str, located: bool) -> str:
    extra = ", filename = true, file_row_number = true" if located else ""
    return f"read_parquet({_listed(files)}{extra})"


def _parquet_rows(path: Path) -> int:
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).metadata.num_rows


def _parquet_column_type(path: Path, column: str) -> tuple[Any, list[str]]:
    import pyarrow.parquet as pq

    schema = pq.read_schema(path)
    return (schema.field(column).type if column in schema.names else None), list(schema.names)


def _parquet_frame(path: Path, separator: str | None) -> Any:
    import polars as pl

    return pl.scan_parquet(path, glob=False)


def _as_read(col: Any) -> Any:
    return col


# CSV ----------------------------------------------------------------------------------------------


def _csv_scan(files: Sequence[Path], separator: str, trim: str, located: bool) -> str:
    extra = ", filename = true" if located else ""
    read = (
        f"read_csv({_listed(files)}, header = true, delim = {_quote(separator)}, quote = '\"', "
        f"union_by_name = true{extra})"
    )
    return f"(SELECT * REPLACE ({trim}) FROM {read})" if trim else read


def _csv_rows(path: Path) -> int:
    with open(path, "rb") as fh:
        head = fh.read(1 << 20)
    lines = max(head.count(b"\n") - 1, 1)
    return int(path.stat().st_size / (len(head) / lines))


def _csv_column_type(path: Path, column: str) -> tuple[Any, list[str]]:
    return None, []  # DuckDB infers a CSV file's types as it reads


def _csv_header(path: Path, separator: str) -> list[str]:
    """The header row as the CSV standard (RFC 4180) reads it: quotes removed, ``\"\"`` read as ``\"``."""
    try:
        with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as fh:
            header = next(csv.reader(fh, delimiter=separator, quotechar='"', strict=False), [])
    except csv.Error as exc:
        raise IsometricsError(f"cannot read {path.name!r} as CSV: the header is malformed ({exc}).") from exc
    for name in header:
        bad = [c for c in name if "\udc80" <= c <= "\udcff"]
        if bad:
            raise IsometricsError(
                f"cannot read {path.name!r} as CSV: its header is not UTF-8 text (byte "
                f"0x{ord(bad[0]) - 0xDC00:02x} in a column name); save the file as UTF-8."
            )
    return header


def _dedupe(names: list[str]) -> list[str]:
    """Rename repeated header names as Polars does (``a``, ``a_duplicated_0``, ...)."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        if name in seen:
            out.append(f"{name}_duplicated_{seen[name]}")
            seen[name] += 1
        else:
            seen[name] = 0
            out.append(name)
    return out


def _csv_frame(path: Path, separator: str | None) -> Any:
    import polars as pl

    separator = "," if separator is None else separator
    header = _csv_header(path, separator)
    try:
        names = pl.scan_csv(path, separator=separator, quote_char='"', n_rows=0, glob=False).collect_schema().names()
    except pl.exceptions.PolarsError as exc:
        raise IsometricsError(f"cannot read {path.name!r} as CSV: {first_line(exc)}") from exc
    # Polars keeps a doubled quote in a quoted header ("a""b" stays a""b): name the columns
    # from the standard reading when the two agree on the number of fields. Names are stripped
    # of surrounding whitespace, as out of core (DuckDB) reads them.
    new_columns = _dedupe([n.strip() for n in (header if len(header) == len(names) else names)])
    return pl.scan_csv(
        path, separator=separator, quote_char='"', infer_schema_length=10_000, new_columns=new_columns, glob=False
    )


def _trimmed(col: Any) -> Any:
    """A CSV text column with the whitespace around its values stripped (an empty value missing),
    typed as its values then read (integer, floating point, true/false, else text), as out of core
    reads the same file (:mod:`isometrics.scale._csv`); any other column as it is."""
    import polars as pl

    if col.dtype != pl.String:
        return col
    stripped = col.str.strip_chars()
    stripped = stripped.zip_with(stripped != "", pl.Series(col.name, [None] * len(col), dtype=pl.String))
    if stripped.equals(col):
        return col
    for kind in (pl.Int64, pl.Float64):
        try:
            return stripped.cast(kind, strict=True)
        except pl.exceptions.PolarsError:
            continue
    lower = stripped.str.to_lowercase()
    if lower.drop_nulls().is_in(["true", "false"]).all():
        return lower == "true"
    return stripped


#: Each format by the name ``_core.files.file_format`` gives it.
FORMATS: dict[str, FileFormat] = {
    "parquet": FileFormat(
        "Parquet", _parquet_scan, _parquet_rows, _parquet_column_type, _parquet_frame, _as_read, typed=True
    ),
    "csv": FileFormat(
        "CSV", _csv_scan, _csv_rows, _csv_column_type, _csv_frame, _trimmed, separated=True, stripped=True
    ),
}


def scan_expression(
    kind: str, files: Sequence[Path], *, separator: str = ",", trim: str = "", located: bool = False
) -> str:
    """``read_parquet(...)``, ``read_csv(...)``, ... of ``files`` (``located``: with each row's file name;
    ``trim``: the CSV text columns trimmed and typed, as ``_csv.retyped`` writes them)."""
    return FORMATS[kind].scan(files, separator, trim, located)


def estimated_rows(files: Sequence[Path], kind: str) -> int:
    """Rows of ``files``: Parquet metadata, or CSV size over the mean length of the first lines."""
    return sum(FORMATS[kind].rows(path) for path in files)


def column_type(file: Path, kind: str, column: str) -> tuple[Any, list[str]]:
    """``(type, names)``: the Arrow type of ``column`` in ``file`` (``None`` when the format does not
    say before reading, as CSV, whose types DuckDB infers, or when the file lacks the column) and
    the file's column names (empty for CSV)."""
    return FORMATS[kind].column_type(file, column)
