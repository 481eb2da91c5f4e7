"""What kind of file a path holds, told from its bytes (not its name): Parquet or CSV.

Used by every reader (the CLI's in-memory reader, the out-of-core DuckDB reader) so that a
file handed to the wrong tool fails the same way everywhere, saying what it really is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from ..exceptions import IsometricsError

__all__ = ["file_format"]

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
        raise IsometricsError(f"cannot read {name}: {exc.strerror or exc}; check the path and the file's "
                              "permissions.") from exc
    if size == 0:
        raise IsometricsError(f"{name} is empty; pass a file with a header row and data.")
    if head.startswith(_MAGIC):
        if size < 12 or tail != _MAGIC:
            raise IsometricsError(f"{name} starts like a Parquet file but does not end with its magic bytes "
                                  "PAR1: it is truncated or damaged; write it again.")
        return "parquet"
    for magic, what in _OTHER_FORMATS:
        if head.startswith(magic):
            raise IsometricsError(f"{name} is not CSV or Parquet: it is {what}.")
    if b"\x00" in head:
        raise IsometricsError(f"{name} is neither CSV text nor Parquet (it holds binary data, starting "
                              f"{head[:8]!r}); pass a CSV or Parquet file.")
    return "csv"
