"""Reading label, score and weight columns from CSV or Parquet files (via Polars)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from ..exceptions import IsometricsError

__all__ = ["read_columns", "coerce_label", "write_json_atomic", "write_text_atomic"]

_PARQUET = {".parquet", ".pq", ".parq"}
_CSV = {".csv", ".tsv", ".txt"}


def _scan(path: Path) -> Any:
    import polars as pl

    suffix = path.suffix.lower()
    if suffix in _PARQUET:
        return pl.scan_parquet(path)
    if suffix in _CSV:
        return pl.scan_csv(path, separator="\t" if suffix == ".tsv" else ",", infer_schema_length=10_000)
    raise IsometricsError(f"cannot read {path.name!r}: the file must be .csv, .tsv or .parquet (got {suffix or 'no suffix'!r}).")


def read_columns(path: str | os.PathLike[str], columns: list[str]) -> dict[str, np.ndarray]:
    """Read the named columns of a CSV or Parquet file as NumPy arrays.

    Only the requested columns are read. Raises ``IsometricsError`` naming the problem
    when the file is missing or unreadable, a column is absent (listing those present),
    or a column has missing values.
    """
    p = Path(path)
    if not p.exists():
        raise IsometricsError(f"file not found: {str(p)!r}; check the path.")
    if p.is_dir():
        raise IsometricsError(f"{str(p)!r} is a directory; pass a .csv or .parquet file.")
    import polars as pl

    lazy = _scan(p)
    try:
        names = lazy.collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise IsometricsError(f"cannot read {p.name!r} as {p.suffix.lstrip('.')}: {str(exc).splitlines()[0]}") from exc
    unique = list(dict.fromkeys(columns))
    missing = [c for c in unique if c not in names]
    if missing:
        shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
        raise IsometricsError(
            f"column {missing[0]!r} is not in {p.name!r} (columns: {shown}); pass one of those names."
        )
    try:
        frame = lazy.select(unique).collect()
    except pl.exceptions.PolarsError as exc:
        raise IsometricsError(f"cannot read {p.name!r}: {str(exc).splitlines()[0]}") from exc
    out = {}
    for name in unique:
        col = frame.get_column(name)
        nulls = col.null_count()
        if nulls:
            first = int(col.is_null().arg_max() or 0)
            raise IsometricsError(
                f"column {name!r} has {nulls} missing value{'s' if nulls != 1 else ''} (first at row {first}); "
                "drop or fill them before evaluating."
            )
        out[name] = col.to_numpy()
    return out


def coerce_label(value: str, labels: np.ndarray, column: str) -> Any:
    """Convert a ``--pos-label`` string to the label column's type; it must be one of its values."""
    from .._core.validation import label_set

    present = label_set(labels)
    kind = labels.dtype.kind
    try:
        if kind == "b":
            low = value.strip().lower()
            if low not in {"true", "false", "1", "0"}:
                raise ValueError(value)
            coerced: Any = low in {"true", "1"}
        elif kind in "iu":
            coerced = int(value)
        elif kind == "f":
            coerced = float(value)
        else:
            coerced = value
    except ValueError:
        coerced = None
    if coerced is None or not np.any(present == coerced):
        shown = ", ".join(str(v) for v in present[:10].tolist())
        raise IsometricsError(
            f"--pos-label {value!r} is not a value of label column {column!r} (values: {shown}); pass one of them."
        )
    return coerced


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write text to ``path`` through a temporary file, so a failure leaves nothing half-written."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise IsometricsError(f"cannot write {str(target)!r}: directory {str(directory)!r} does not exist.")
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual permissions
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def write_json_atomic(path: str | os.PathLike[str], payload: Any) -> None:
    """Write JSON to ``path`` atomically (see :func:`write_text_atomic`)."""
    write_text_atomic(path, json.dumps(payload, indent=2, allow_nan=False) + "\n")
