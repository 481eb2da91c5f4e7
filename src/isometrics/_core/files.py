"""What kind of file a path holds, told from its bytes (not its name): Parquet or CSV, and
which character separates a CSV file's fields.

Used by every reader (the CLI's in-memory reader, the out-of-core DuckDB reader) so that a
file handed to the wrong tool fails the same way everywhere, saying what it really is, and a
semicolon-separated file is read alike by both.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from ..exceptions import IsometricsError

__all__ = ["SEPARATORS", "csv_separator", "file_format"]

_MAGIC = b"PAR1"

# Binary formats people hand to a CSV reader by mistake, named so the message can say which.
_OTHER_FORMATS = (
    (b"\x1f\x8b", "a gzip archive; decompress it first"),
    (b"PK\x03\x04", "a ZIP archive (an .xlsx workbook?); export it as CSV or Parquet"),
    (b"ARROW1", "an Arrow IPC (Feather) file; convert it to Parquet"),
    (b"\x89HDF", "an HDF5 file; export it as CSV or Parquet"),
    (b"SQLite format 3\x00", "an SQLite database; export the table as CSV or Parquet"),
)


def file_format(path: Path, *, shown: str | None = None) -> Literal["parquet", "csv"]:
    """``"parquet"`` (starts and ends with ``PAR1``) or ``"csv"`` (text) from the file's bytes.

    Parameters
    ----------
    path : Path
        The file.
    shown : str, optional
        How messages name the file (default: its full path).

    Returns
    -------
    {"parquet", "csv"}

    Raises
    ------
    IsometricsError
        The file cannot be read, is empty, is a truncated Parquet file, or is another binary
        format (gzip, ZIP/xlsx, Arrow IPC, HDF5, SQLite, or any bytes that are not text).
    """
    name = repr(str(path)) if shown is None else repr(shown)
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(size - 4, 0))
            tail = fh.read(4)
    except OSError as exc:
        raise IsometricsError(
            f"cannot read {name}: {exc.strerror or exc}; check the path and the file's permissions."
        ) from exc
    if size == 0:
        raise IsometricsError(f"{name} is empty; pass a file with a header row and data.")
    if head.startswith(_MAGIC):
        if size < 12 or tail != _MAGIC:
            raise IsometricsError(
                f"{name} starts like a Parquet file but does not end with its magic bytes "
                "PAR1: it is truncated or damaged; write it again."
            )
        return "parquet"
    for magic, what in _OTHER_FORMATS:
        if head.startswith(magic):
            raise IsometricsError(f"{name} is not CSV or Parquet: it is {what}.")
    if b"\x00" in head:
        raise IsometricsError(
            f"{name} is neither CSV text nor Parquet (it holds binary data, starting "
            f"{head[:8]!r}); pass a CSV or Parquet file."
        )
    return "csv"


#: Field separators recognised in a header that was read as one column, most common first.
SEPARATORS = (";", "\t", "|", ",")


def _shown_separator(separator: str) -> str:
    return {"\t": "tab", " ": "space"}.get(separator, repr(separator))


def csv_separator(
    path: Path,
    separator: str | None = None,
    *,
    shown: str | None = None,
    option: str = "--separator",
    wanted: Sequence[str] = (),
) -> tuple[str, str | None]:
    """The field separator of a CSV file, and a note when it was detected rather than expected.

    The expected separator is ``separator`` if given, else a tab for a ``.tsv`` name and a comma
    otherwise. When nothing was given and the header read with the expected separator is a
    single column whose name holds ``;``, a tab, ``|`` or ``,`` (a file saved by a spreadsheet
    in a locale with decimal commas, say), and that column is not one of ``wanted``, the most
    frequent of them is the separator. A file of one column named ``a;b`` that is asked for
    by that name is read as it is.

    Parameters
    ----------
    path : Path
        A CSV file (see :func:`file_format`).
    separator : str, optional
        The separator the user chose (``--separator``): one character, not a quote or a line
        break; used as given, with no detection.
    shown : str, optional
        How messages name the file (default: its full path).
    option : str, default="--separator"
        How the error names ``separator`` (the library passes ``"caller: `separator`"``).
    wanted : sequence of str, default=()
        The columns the caller will read: a one-column header that is one of them is kept.

    Returns
    -------
    separator : str
        One character.
    note : str or None
        ``None`` when the separator is the expected one, else one sentence saying which
        separator was detected and why (the command line prints it).

    Raises
    ------
    IsometricsError
        If ``separator`` is not one character, or is a quote or a line break.
    """
    if separator is not None:
        if len(separator) != 1 or separator in '"\r\n':
            raise IsometricsError(
                f"{option} must be one character other than a quote or a line break; got "
                f"{separator!r}. For a tab, pass $'\\t' in bash (or the tab character itself)."
            )
        return separator, None
    expected = "\t" if path.suffix.lower() == ".tsv" else ","
    try:
        with open(path, encoding="utf-8-sig", errors="surrogateescape", newline="") as fh:
            header = next(csv.reader(fh, delimiter=expected, quotechar='"', strict=False), [])
    except (OSError, csv.Error):
        return expected, None  # the reader says what is wrong with the file
    if len(header) != 1 or header[0] in wanted:
        return expected, None
    counts = {c: header[0].count(c) for c in SEPARATORS if c != expected}
    found = max(counts, key=lambda c: counts[c])
    if counts[found] == 0:
        return expected, None
    name = repr(str(path)) if shown is None else repr(shown)
    note = (
        f"the header of {name} is one column {header[0]!r} that holds {_shown_separator(found)}: reading the "
        f"file as {_shown_separator(found)}-separated (pass --separator to choose the separator)"
    )
    return found, note
