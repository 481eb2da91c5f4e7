"""CSV files out of core, read as the in-memory path reads them.

Two things DuckDB's CSV reader does its own way, brought in line with the command line's
in-memory reader (:mod:`isometrics.cli._io`):

* **Whitespace around names and values.** DuckDB strips it from the header's names and
  tolerates it around integers, but reads ``" 0.1 "`` or ``" pos "`` as text, spaces
  included. Every path strips it: a text column of the columns read is trimmed (an empty
  field after trimming is missing), and typed as the first 10,000 rows read then (integer,
  then floating point, then ``true``/``false``, else text), as the in-memory reader types
  the same values once trimmed.
* **Rows of the wrong length.** A row with fewer (or more) fields than the header makes
  DuckDB's sniffer fail without saying where ("Error when sniffing file") or read another
  header. The file is then read with Python's :mod:`csv` to name the row, its line and the
  columns it has no value for.
"""

from __future__ import annotations

import codecs
import csv
from pathlib import Path
from typing import Any

from .._core.caller import current_caller
from ..exceptions import IsometricsError

__all__: list[str] = []

#: Rows whose trimmed values settle a text column's type (the in-memory reader infers from as many).
SAMPLE_ROWS = 10_000


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def trimmed(column: str) -> str:
    """The SQL of a text column's values, surrounding whitespace stripped, an empty one missing."""
    return f"NULLIF(trim({_ident(column)}), '')"


def settle_types(con: Any, scan: str, columns: list[str]) -> dict[str, str]:
    """The type each text column of ``columns`` takes once trimmed (``"VARCHAR"`` when it stays text),
    settled on its first rows; columns DuckDB typed already are left out."""
    kinds = {r[0]: str(r[1]).upper() for r in con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()}
    text = [c for c in dict.fromkeys(columns) if kinds.get(c) == "VARCHAR"]
    if not text:
        return {}
    terms = []
    for k in range(len(text)):
        t = f"t{k}"
        # an integer is digits alone: DuckDB's cast of '1.5' to BIGINT rounds where the in-memory reader refuses
        terms.append(f"count(*) FILTER (WHERE {t} IS NOT NULL AND NOT regexp_full_match({t}, '[+-]?[0-9]+'))")
        terms.append(f"count(*) FILTER (WHERE {t} IS NOT NULL AND TRY_CAST({t} AS DOUBLE) IS NULL)")
        terms.append(f"count(*) FILTER (WHERE {t} IS NOT NULL AND lower({t}) NOT IN ('true', 'false'))")
    inner = ", ".join(f"{trimmed(c)} AS t{k}" for k, c in enumerate(text))
    row = con.execute(f"SELECT {', '.join(terms)} FROM (SELECT {inner} FROM {scan} LIMIT {SAMPLE_ROWS})").fetchone()
    settled = {}
    for k, c in enumerate(text):
        failures = row[3 * k : 3 * k + 3]
        settled[c] = next((kind for kind, n in zip(("BIGINT", "DOUBLE", "BOOLEAN"), failures) if n == 0), "VARCHAR")
    return settled


def retyped(settled: dict[str, str]) -> str:
    """The ``REPLACE`` list that trims and types the settled columns."""
    return ", ".join(
        (trimmed(c) if kind == "VARCHAR" else f"CAST({trimmed(c)} AS {kind})") + f" AS {_ident(c)}"
        for c, kind in settled.items()
    )


def ragged_row(path: Path, separator: str) -> IsometricsError | None:
    """The error naming the first row of ``path`` whose fields are not one per column of the header
    (blank lines are skipped, as the readers skip them), or None when every row has as many."""
    try:
        with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
            reader = csv.reader(fh, delimiter=separator, quotechar='"', strict=False)
            header = [name.strip() for name in next(reader, [])]
            row_number = -1
            for row in reader:
                if not row:
                    continue
                row_number += 1
                if len(row) != len(header):
                    return _ragged_error(path, header, row, row_number, reader.line_num)
    except (OSError, csv.Error):  # the reader's own error says what is wrong with the file
        return None
    return None


def not_utf8(path: Path) -> IsometricsError | None:
    """The error naming the first byte of ``path`` that is not UTF-8 text (line and byte), or None when
    the file decodes; read in blocks with an incremental decoder, on the error path only."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset, line = 0, 1
    try:
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                try:
                    decoder.decode(block)
                except UnicodeDecodeError as exc:
                    at = offset + max(exc.start, 0)
                    line += block[: max(exc.start, 0)].count(b"\n")
                    return IsometricsError(
                        f"{current_caller()}: {str(path)!r} is not UTF-8 text (byte 0x{block[max(exc.start, 0)]:02x} at byte "
                        f"{at}, line {line}); save the file as UTF-8. Nothing was computed or written."
                    )
                offset += len(block)
                line += block.count(b"\n")
    except OSError:
        return None
    return None


def _ragged_error(path: Path, header: list[str], row: list[str], number: int, line: int) -> IsometricsError:
    where = f"row {number} (line {line} of {str(path)!r}, rows counted from 0 after the header)"
    fields = f"{len(row)} field{'s' if len(row) != 1 else ''}"
    if len(row) < len(header):
        missing = ", ".join(repr(n) for n in header[len(row) :][:5]) + (", ..." if len(header) - len(row) > 5 else "")
        what = f"has {fields} where the header names {len(header)} columns: no value for {missing}"
    else:
        what = f"has {fields} where the header names {len(header)} columns: {len(row) - len(header)} more than it"
    return IsometricsError(
        f"{current_caller()}: {where} {what}; give every row one value per column (an empty field is a "
        "missing value) or drop that row. Nothing was computed or written."
    )
