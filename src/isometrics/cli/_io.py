"""Files for the command line: reading columns from CSV or Parquet.

Reading: the format is taken from the content (Parquet files start and end with the magic
bytes ``PAR1``; anything else must be UTF-8 text, read as CSV, tab-separated when the name
ends in ``.tsv``), never from the name alone, and every failure is one line. Each format's
Polars reader is declared beside its DuckDB scan, in :data:`isometrics.scale.formats.FORMATS`:
this module names no format. The separator
is ``--separator`` when given (:func:`use_separator`, the option's callback), else detected
when the header reads as one column that holds ``;``, a tab or ``|``; a detected separator
is said once per file on stderr. Whitespace around a CSV file's names and values is stripped
(a text column then typed as its trimmed values read), as out of core reads the same file.

Writing outputs all or none: :mod:`isometrics._core.outputs`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import numpy as np

from .._core.files import SEPARATORS, csv_separator, file_format
from .._core.label_text import label_from_text
from .._core.validation import label_set
from ..exceptions import IsometricsError
from ..scale.formats import FORMATS, FileFormat, first_line

__all__ = [
    "binary_target",
    "read_columns",
    "column_names",
    "describe_input",
    "coerce_label",
    "separator_of",
    "use_separator",
]

#: This command's ``--separator`` (None: detect) and the files whose detected separator was said.
_SEPARATOR: ContextVar[tuple[str | None, set[str]]] = ContextVar("separator", default=(None, set()))


def use_separator(value: str | None) -> str | None:
    """The ``--separator`` option's callback: every CSV file this command reads uses ``value`` (None: detect)."""
    _SEPARATOR.set((value, set()))
    return value


def separator_of(path: Path, wanted: Sequence[str] = ()) -> str:
    """The separator of the CSV file ``path``: ``--separator``, or detected (said once on stderr) unless
    the header as read holds the ``wanted`` columns."""
    chosen, noted = _SEPARATOR.get()
    separator, note = csv_separator(path, chosen, shown=path.name, wanted=wanted)
    if note is not None and str(path) not in noted:
        noted.add(str(path))
        print(f"isometrics: {note}.", file=sys.stderr)
    return separator


def _scan(path: Path, wanted: Sequence[str] = ()) -> tuple[Any, FileFormat]:
    """A lazy frame of the file and its format (:data:`~isometrics.scale.formats.FORMATS`, told from its bytes)."""
    kind = FORMATS[file_format(path, shown=path.name)]
    separator = separator_of(path, wanted) if kind.separated else None
    return kind.frame(path, separator), kind


def column_names(path: str | os.PathLike[str]) -> list[str]:
    """The column names of a CSV or Parquet file, in file order, as :func:`read_columns` names them.

    Cheap: a Parquet file's footer, or a CSV file's header (and the rows Polars reads to infer
    the types). Raises ``IsometricsError`` as :func:`read_columns` does on a missing or
    unreadable file.
    """
    p = Path(path)
    if not p.exists():
        raise IsometricsError(f"file not found: {str(p)!r}; check the path.")
    if p.is_dir():
        raise IsometricsError(f"{str(p)!r} is a directory; pass a .csv or .parquet file.")
    import polars as pl

    lazy, kind = _scan(p)
    try:
        return list(lazy.collect_schema().names())
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise IsometricsError(f"cannot read {p.name!r} as {kind.name}: {first_line(exc)}") from exc


def read_columns(
    path: str | os.PathLike[str], columns: list[str], *, also_check: Sequence[str] = ()
) -> dict[str, np.ndarray]:
    """Read the named columns of a CSV or Parquet file as NumPy arrays.

    Only the requested columns are read; those of ``also_check`` must exist but are not read. The format comes from the content (see the
    module's docstring). Raises ``IsometricsError`` naming the problem when the file is
    missing, unreadable or of another format, a column is absent (listing those present),
    or a column has missing values.
    """
    p = Path(path)
    if not p.exists():
        raise IsometricsError(f"file not found: {str(p)!r}; check the path.")
    if p.is_dir():
        raise IsometricsError(f"{str(p)!r} is a directory; pass a .csv or .parquet file.")
    import polars as pl

    lazy, kind = _scan(p, [*columns, *also_check])
    try:
        names = lazy.collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise IsometricsError(f"cannot read {p.name!r} as {kind.name}: {first_line(exc)}") from exc
    unique = list(dict.fromkeys(columns))
    # A CSV's names are read stripped of surrounding whitespace (as out of core): a name asked
    # for as written in the header (' a') is the stripped column ('a').
    held_names = set(names)
    source = {
        c: c if c in held_names or not kind.stripped or c.strip() not in held_names else c.strip()
        for c in [*unique, *also_check]
    }
    missing = [c for c in [*unique, *also_check] if source[c] not in held_names]
    if missing:
        shown = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
        held = [c for c in SEPARATORS if len(names) == 1 and c in names[0]]
        fix = (
            f"the header is one column that holds {held[0]!r}: pass --separator {held[0]!r}"
            if held
            else "pass one of those names"
        )
        raise IsometricsError(f"column {missing[0]!r} is not in {p.name!r} (columns: {shown}); {fix}.")
    try:
        frame = lazy.select(list(dict.fromkeys(source[c] for c in unique))).collect()
    except pl.exceptions.PolarsError as exc:
        raise IsometricsError(f"cannot read {p.name!r} as {kind.name}: {first_line(exc)}") from exc
    out = {}
    for name in unique:
        col = kind.column(frame.get_column(source[name]))
        nulls = col.null_count()
        if nulls:
            first = int(col.is_null().arg_max() or 0)
            raise IsometricsError(
                f"column {name!r} has {nulls} missing value{'s' if nulls != 1 else ''} (first at row {first}); "
                "drop or fill them before evaluating."
            )
        out[name] = col.to_numpy()
    return out


class FileColumns(Mapping[str, np.ndarray]):
    """Columns of a file, each read when looked up and kept by nobody here: iterated by
    ``evaluate_scores(..., keep_operating_points=False)``, one column per thread is in memory at a time."""

    def __init__(self, path: str | os.PathLike[str], names: Sequence[str]) -> None:
        self.path, self.names = Path(path), list(dict.fromkeys(names))

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.names:
            raise KeyError(name)
        return read_columns(self.path, [name])[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


def _human_bytes(n: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def describe_input(path: str | os.PathLike[str], n_columns: int) -> str:
    """How large an input is, for an out-of-memory message: rows x columns and the file's size.

    The row count is read cheaply (Parquet metadata, or a streaming count for CSV); when
    even that fails, it is left out.
    """
    p = Path(path)
    parts = []
    try:
        import polars as pl

        rows = int(_scan(p)[0].select(pl.len()).collect().item())
        parts.append(f"{rows:,} rows x {n_columns} column{'s' if n_columns != 1 else ''}")
    except BaseException as exc:  # noqa: BLE001 - a size is a courtesy; never fail while failing
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        parts.append(f"{n_columns} column{'s' if n_columns != 1 else ''}")
    try:
        size = p.stat().st_size
        parts.append(f"file size {_human_bytes(size)} ({size:,} bytes)")
    except OSError:
        pass
    return f"{p.name!r}: " + ", ".join(parts)


def coerce_label(value: str, labels: np.ndarray, column: str) -> Any:
    """Convert a ``--pos-label`` string to the label column's type; it must be one of its values
    (the rule: :func:`isometrics._core.label_text.label_from_text`)."""
    return label_from_text(value, labels=labels, column=column)


def binary_target(y: Any, pos_label: str | None, label: str) -> tuple[Any, Any, Any]:
    """``(y, pos_label, versus)`` for a binary evaluation: a label column of more than two classes
    becomes one class (``--pos-label``) against the rest, and ``versus`` is that class (else None)."""
    if pos_label is None:
        classes = label_set(y)
        if len(classes) > 2:
            shown = ", ".join(str(v) for v in classes[:6].tolist()) + (", ..." if len(classes) > 6 else "")
            raise IsometricsError(
                f"label column {label!r} has {len(classes)} classes ({shown}); give --multiclass with one --score "
                "column per class (named after it, or --class), or --pos-label CLASS to evaluate one class against "
                "the rest."
            )
        return y, None, None
    pos = coerce_label(pos_label, y, label)
    if len(label_set(y)) > 2:
        return np.asarray(y == pos), True, pos
    return y, pos, None
