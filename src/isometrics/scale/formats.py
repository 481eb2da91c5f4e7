"""Each file format the scale paths read, in one place: what they know of it before reading a row.

For Parquet and CSV: the table expression DuckDB scans (:func:`scan_expression`, for the
out-of-core evaluation and :meth:`ArrowSource.from_files <isometrics.scale.batches.ArrowSource.from_files>`),
the rows a file holds (:func:`estimated_rows`: its metadata, or an estimate from its size, for
the command line's choice of path and threads) and a column's type (:func:`column_type`: for
``--pos-label`` out of core and on a cluster). A file's format is told from its bytes by
``_core/files.py`` (``file_format``); a new format adds its branch here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["column_type", "estimated_rows", "scan_expression"]


def _quote(text: str) -> str:
    """A SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def scan_expression(
    kind: str, files: Sequence[Path], *, separator: str = ",", trim: str = "", located: bool = False
) -> str:
    """``read_parquet(...)`` or ``read_csv(...)`` of ``files`` (``located``: with each row's file name;
    ``trim``: the CSV text columns trimmed and typed, as ``_csv.retyped`` writes them)."""
    listed = "[" + ", ".join(_quote(str(p)) for p in files) + "]"
    if kind == "parquet":
        extra = ", filename = true, file_row_number = true" if located else ""
        return f"read_parquet({listed}{extra})"
    extra = ", filename = true" if located else ""
    read = f"read_csv({listed}, header = true, delim = {_quote(separator)}, quote = '\"', union_by_name = true{extra})"
    return f"(SELECT * REPLACE ({trim}) FROM {read})" if trim else read


def estimated_rows(files: Sequence[Path], kind: str) -> int:
    """Rows of ``files``: Parquet metadata, or CSV size over the mean length of the first lines."""
    total = 0
    for path in files:
        if kind == "parquet":
            import pyarrow.parquet as pq

            total += pq.ParquetFile(path).metadata.num_rows
        else:
            with open(path, "rb") as fh:
                head = fh.read(1 << 20)
            lines = max(head.count(b"\n") - 1, 1)
            total += int(path.stat().st_size / (len(head) / lines))
    return total


def column_type(file: Path, kind: str, column: str) -> tuple[Any, list[str]]:
    """``(type, names)``: the Arrow type of ``column`` in ``file`` (``None`` when the format does not
    say before reading, as CSV, whose types DuckDB infers, or when the file lacks the column) and
    the file's column names (empty for CSV)."""
    if kind != "parquet":
        return None, []
    import pyarrow.parquet as pq

    schema = pq.read_schema(file)
    return (schema.field(column).type if column in schema.names else None), list(schema.names)
