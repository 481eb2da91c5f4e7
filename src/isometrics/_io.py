"""Files for the command line: reading columns from CSV or Parquet, and writing outputs safely.

Reading: the format is taken from the content (Parquet files start and end with the magic
bytes ``PAR1``; anything else must be UTF-8 text, read as CSV, tab-separated when the name
ends in ``.tsv``), never from the name alone, and every failure is one line.

Writing: :func:`check_destination` is the one check of an output path (``-`` is standard
output; a directory, a missing or unwritable directory, an input file are refused before
anything is computed), and :func:`staged_outputs` writes all of a command's outputs or
none: each regular file is staged in a temporary file beside it, and the temporary files
are renamed over their destinations only once every output is complete. Character
devices, FIFOs and sockets (``/dev/stdout``, ``/dev/fd/3``) are written directly, never
replaced.
"""

from __future__ import annotations

import csv
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from .exceptions import IsometricsError

__all__ = [
    "Destination",
    "Outputs",
    "check_destination",
    "check_output_dir",
    "coerce_label",
    "describe_input",
    "json_text",
    "read_columns",
    "staged_outputs",
    "write_json_atomic",
    "write_text_atomic",
]

_MAGIC = b"PAR1"
# Binary formats people hand to a CSV reader by mistake, named so the message can say which.
_OTHER_FORMATS = (
    (b"\x1f\x8b", "a gzip archive; decompress it first"),
    (b"PK\x03\x04", "a ZIP archive (an .xlsx workbook?); export it as CSV or Parquet"),
    (b"ARROW1", "an Arrow IPC (Feather) file; convert it to Parquet"),
    (b"\x89HDF", "an HDF5 file; export it as CSV or Parquet"),
    (b"SQLite format 3\x00", "an SQLite database; export the table as CSV or Parquet"),
)


def _file_format(path: Path) -> Literal["parquet", "csv"]:
    """``"parquet"`` or ``"csv"`` from the file's bytes; raise for anything else."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(size - 4, 0))
            tail = fh.read(4)
    except OSError as exc:
        raise IsometricsError(f"cannot read {path.name!r}: {exc.strerror or exc}; check the file's permissions.") from exc
    if size == 0:
        raise IsometricsError(f"{path.name!r} is empty; pass a file with a header row and data.")
    if head.startswith(_MAGIC):
        if size < 12 or tail != _MAGIC:
            raise IsometricsError(f"{path.name!r} starts like a Parquet file but does not end with its magic bytes "
                                  "PAR1: it is truncated or damaged; write it again.")
        return "parquet"
    for magic, what in _OTHER_FORMATS:
        if head.startswith(magic):
            raise IsometricsError(f"{path.name!r} is not CSV or Parquet: it is {what}.")
    if b"\x00" in head:
        raise IsometricsError(f"{path.name!r} is neither CSV text nor Parquet (it holds binary data, "
                              f"starting {head[:8]!r}); pass a CSV or Parquet file.")
    return "csv"


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
            raise IsometricsError(f"cannot read {path.name!r} as CSV: its header is not UTF-8 text (byte "
                                  f"0x{ord(bad[0]) - 0xDC00:02x} in a column name); save the file as UTF-8.")
    return header


def _scan(path: Path) -> tuple[Any, str]:
    """A lazy frame of the file and the format's name (``"Parquet"`` or ``"CSV"``)."""
    import polars as pl

    if _file_format(path) == "parquet":
        return pl.scan_parquet(path, glob=False), "Parquet"
    separator = "\t" if path.suffix.lower() == ".tsv" else ","
    header = _csv_header(path, separator)
    try:
        names = pl.scan_csv(path, separator=separator, quote_char='"', n_rows=0, glob=False).collect_schema().names()
    except pl.exceptions.PolarsError as exc:
        raise IsometricsError(f"cannot read {path.name!r} as CSV: {_first_line(exc)}") from exc
    # Polars keeps a doubled quote in a quoted header ("a""b" stays a""b): name the columns
    # from the standard reading when the two agree on the number of fields.
    new_columns = _dedupe(header) if len(header) == len(names) else None
    return pl.scan_csv(path, separator=separator, quote_char='"', infer_schema_length=10_000,
                       new_columns=new_columns, glob=False), "CSV"


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


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    if "utf-8" in line.lower() or "utf8" in line.lower():
        line += "; save the file as UTF-8."
    return line


def read_columns(path: str | os.PathLike[str], columns: list[str]) -> dict[str, np.ndarray]:
    """Read the named columns of a CSV or Parquet file as NumPy arrays.

    Only the requested columns are read. The format comes from the content (see the
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

    lazy, kind = _scan(p)
    try:
        names = lazy.collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise IsometricsError(f"cannot read {p.name!r} as {kind}: {_first_line(exc)}") from exc
    unique = list(dict.fromkeys(columns))
    missing = [c for c in unique if c not in names]
    if missing:
        shown = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
        raise IsometricsError(
            f"column {missing[0]!r} is not in {p.name!r} (columns: {shown}); pass one of those names."
        )
    try:
        frame = lazy.select(unique).collect()
    except pl.exceptions.PolarsError as exc:
        raise IsometricsError(f"cannot read {p.name!r} as {kind}: {_first_line(exc)}") from exc
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
    """Convert a ``--pos-label`` string to the label column's type; it must be one of its values."""
    from ._validation import label_set

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


@dataclass
class Destination:
    """A checked output: where it goes and how it will be written.

    ``kind`` is ``"stdout"`` (``-``, or a path to what this process's standard output is),
    ``"direct"`` (a character device, FIFO, socket or a path under ``/dev`` or ``/proc``:
    written in place, never replaced) or ``"file"`` (a regular file, staged in ``temp``
    beside ``target`` and renamed over it on commit).
    """

    option: str
    given: str
    kind: Literal["stdout", "direct", "file"]
    target: Path | None = None
    temp: Path | None = None
    mode: int | None = None
    text: str | None = None

    def discard(self) -> None:
        """Remove the temporary file, if any."""
        if self.temp is not None:
            self.temp.unlink(missing_ok=True)
            self.temp = None


def _is_stdout(st: os.stat_result) -> bool:
    try:
        return os.path.samestat(st, os.fstat(sys.stdout.fileno()))
    except (OSError, ValueError, AttributeError):
        return False


def _blocking_component(path: Path) -> Path | None:
    """The first ancestor of ``path`` that exists but is not a directory, if any."""
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            return parent
    return None


def check_destination(
    path: str | os.PathLike[str], option: str, *, inputs: Sequence[str | os.PathLike[str]] = ()
) -> Destination:
    """Check that an output can be written, before anything is computed, and reserve it.

    The one check of every output path of the command line. ``-`` means standard output.
    For a regular file, a temporary file is created beside the destination (beside the
    file a symbolic link points to): that is the proof that the directory is writable,
    whatever the permission bits say (root ignores them, a read-only file system does
    not). The caller owns the temporary file: commit it with :class:`Outputs` or remove
    it with :meth:`Destination.discard`.

    Parameters
    ----------
    path : str or path-like
        The destination as the user gave it.
    option : str
        The option that named it (``"--json"``), for messages.
    inputs : sequence of str or path-like, default=()
        Input files that must not be overwritten.

    Returns
    -------
    Destination

    Raises
    ------
    IsometricsError
        If the path is a directory, its directory is missing, is not a directory or is
        not writable, or the path is one of ``inputs``.
    """
    given = os.fspath(path)
    shown = f"{option} {given!r}"
    if given == "-":
        return Destination(option, given, "stdout")
    if given == "" or given.endswith(("/", os.sep)):
        raise IsometricsError(f"{shown} names a directory; give a file path such as "
                              f"{os.path.join(given or '.', 'results' + _suffix(option))!r}.")
    try:
        st = os.stat(given)  # follows symbolic links
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        blocking = _blocking_component(Path(given))
        raise IsometricsError(f"{shown}: {str(blocking)!r} is a file, not a directory; choose another path.") from None
    except OSError as exc:
        raise IsometricsError(f"{shown} cannot be checked ({exc.strerror}); choose another path.") from exc
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise IsometricsError(f"{shown} is a directory; give a file path such as "
                              f"{os.path.join(given, 'results' + _suffix(option))!r}.")
    if st is not None and _is_stdout(st):  # /dev/stdout, /dev/fd/1, or the file stdout is redirected to
        return Destination(option, given, "stdout")
    real = Path(os.path.realpath(given))
    if st is not None and (not stat.S_ISREG(st.st_mode) or str(real).startswith(("/dev/", "/proc/"))):
        if not os.access(given, os.W_OK):
            raise IsometricsError(f"{shown} is not writable; choose another path.")
        return Destination(option, given, "direct", target=Path(given))
    for source in inputs:
        try:
            if st is not None and os.path.samestat(st, os.stat(source)):
                raise IsometricsError(f"{shown} is the input file; writing there would overwrite the data. "
                                      "Choose another path.")
        except OSError:
            pass
    directory = real.parent
    shown_dir = str(directory) if os.path.islink(given) else (os.path.dirname(given) or ".")
    if not directory.exists():
        blocking = _blocking_component(directory)
        if blocking is not None:
            raise IsometricsError(f"{shown}: {str(blocking)!r} is a file, not a directory; choose another path.")
        raise IsometricsError(f"{shown}: directory {shown_dir!r} does not exist; create it first or "
                              "choose another path.")
    if not directory.is_dir():
        raise IsometricsError(f"{shown}: {shown_dir!r} is a file, not a directory; choose another path.")
    if st is not None and not os.access(real, os.W_OK):
        raise IsometricsError(f"{shown} is a read-only file; make it writable or choose another path.")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{real.name}.", suffix=".tmp")
    except OSError as exc:
        raise IsometricsError(f"{shown}: cannot write in directory {shown_dir!r} "
                              f"({exc.strerror or exc}); choose a writable directory.") from exc
    os.close(fd)
    if st is not None:
        mode = stat.S_IMODE(st.st_mode)
    else:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    return Destination(option, given, "file", target=real, temp=Path(tmp), mode=mode)


def _suffix(option: str) -> str:
    return ".html" if option in {"--report", "-o", "--output"} else ".json"


def check_output_dir(path: str | os.PathLike[str], option: str) -> Path:
    """Check that a directory can be created (or exists) and is writable; return it.

    Parameters
    ----------
    path : str or path-like
        The directory as the user gave it; missing parents will be created.
    option : str
        The option that named it, for messages.

    Returns
    -------
    Path

    Raises
    ------
    IsometricsError
        If the path or one of its ancestors is a file, or the nearest existing ancestor
        is not writable.
    """
    target = Path(path)
    shown = f"{option} {os.fspath(path)!r}"
    if target.exists() and not target.is_dir():
        raise IsometricsError(f"{shown} is a file, not a directory; choose another path.")
    blocking = _blocking_component(target)
    if blocking is not None:
        raise IsometricsError(f"{shown}: {str(blocking)!r} is a file, not a directory; choose another path.")
    existing = next(p for p in (target, *target.parents) if p.exists())
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as exc:
        raise IsometricsError(f"{shown}: cannot write in directory {str(existing)!r} "
                              f"({exc.strerror or exc}); choose a writable directory.") from exc
    return target


class Outputs:
    """A command's checked outputs, written all together by :meth:`commit` (see :func:`staged_outputs`)."""

    def __init__(self) -> None:
        self.destinations: dict[str, Destination] = {}

    @property
    def to_stdout(self) -> bool:
        """Whether one of the outputs is standard output (print tables to stderr then)."""
        return any(d.kind == "stdout" for d in self.destinations.values())

    def _add(self, destination: Destination) -> None:
        for other in self.destinations.values():
            same = (destination.kind == other.kind == "stdout"
                    or (destination.target is not None and destination.target == other.target))
            if same:
                where = "standard output" if destination.kind == "stdout" else repr(destination.given)
                destination.discard()
                raise IsometricsError(f"{other.option} and {destination.option} both write to {where}; "
                                      "give each output its own path.")
        self.destinations[destination.option] = destination

    def stage(self, option: str, text: str) -> None:
        """Hold the full text of one output until :meth:`commit`."""
        self.destinations[option].text = text

    def commit(self) -> None:
        """Write every output: fill the temporary files, rename them all, then write devices and stdout.

        Raises
        ------
        IsometricsError
            If a temporary file cannot be written (a full disk): then no destination has
            been touched.
        """
        staged = [d for d in self.destinations.values() if d.kind == "file"]
        for d in staged:
            assert d.text is not None and d.temp is not None, d.option
            try:
                with open(d.temp, "w", encoding="utf-8") as fh:
                    fh.write(d.text)
                if d.mode is not None:
                    os.chmod(d.temp, d.mode)
            except OSError as exc:
                raise IsometricsError(f"cannot write {d.option} {d.given!r} ({exc.strerror or exc}); "
                                      "nothing was written.") from exc
        for d in staged:
            assert d.temp is not None and d.target is not None
            os.replace(d.temp, d.target)
            d.temp = None
        for d in self.destinations.values():
            if d.kind == "direct":
                assert d.text is not None and d.target is not None
                with open(d.target, "a", encoding="utf-8") as fh:
                    fh.write(d.text)
            elif d.kind == "stdout":
                assert d.text is not None
                sys.stdout.flush()
                sys.stdout.write(d.text)
                sys.stdout.flush()

    def discard(self) -> None:
        """Remove every temporary file not yet renamed."""
        for d in self.destinations.values():
            d.discard()


@contextmanager
def staged_outputs(
    named: Mapping[str, str | os.PathLike[str] | None], *, inputs: Sequence[str | os.PathLike[str]] = ()
) -> Iterator[Outputs]:
    """Check every named output with :func:`check_destination`; remove the temporary files on any exit.

    Parameters
    ----------
    named : mapping of str to path-like or None
        Option name to destination; ``None`` entries are skipped.
    inputs : sequence of path-like, default=()
        Input files that no output may overwrite.

    Yields
    ------
    Outputs
        Stage each output's text with :meth:`Outputs.stage`, then call :meth:`Outputs.commit`.
        Leaving the block in any other way (an error, SIGINT, SIGTERM turned into an
        exception) removes the temporary files and leaves every destination untouched.

    Raises
    ------
    IsometricsError
        If a destination fails its check, or two outputs name the same place.
    """
    outputs = Outputs()
    try:
        for option, path in named.items():
            if path is not None:
                outputs._add(check_destination(path, option, inputs=inputs))
        yield outputs
    finally:
        outputs.discard()


def write_text_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write text to ``path`` through a temporary file, so a failure leaves nothing half-written."""
    with staged_outputs({"path": path}) as outputs:
        outputs.stage("path", text)
        outputs.commit()
    return Path(path)


def write_json_atomic(path: str | os.PathLike[str], payload: Any) -> None:
    """Write JSON to ``path`` atomically (see :func:`write_text_atomic`)."""
    write_text_atomic(path, json_text(payload))


def json_text(payload: Any) -> str:
    """The JSON the command line writes: indented, strict (no NaN), newline-terminated."""
    return json.dumps(payload, indent=2, allow_nan=False) + "\n"
