"""Output files, checked before anything is computed and written all or none.

:func:`check_destination` is the one check of an output path (``-`` is standard output; a
directory, a missing or unwritable directory, an input file are refused), and
:func:`staged_outputs` writes all of a command's outputs or none: each regular file is
staged in a temporary file beside it, and the temporary files are renamed over their
destinations only once every output is complete. Character devices, FIFOs and sockets
(``/dev/stdout``, ``/dev/fd/3``) are written directly, never replaced. Used by the command
line and by :func:`isometrics.report.write_report`.
"""

from __future__ import annotations

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

from ..exceptions import IsometricsError

__all__ = [
    "Destination",
    "check_destination",
    "check_output_dir",
    "Outputs",
    "staged_outputs",
    "write_text_atomic",
    "write_json_atomic",
    "json_text",
]


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
        raise IsometricsError(
            f"{shown} names a directory; give a file path such as "
            f"{os.path.join(given or '.', 'results' + _suffix(option))!r}."
        )
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
        raise IsometricsError(
            f"{shown} is a directory; give a file path such as {os.path.join(given, 'results' + _suffix(option))!r}."
        )
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
                raise IsometricsError(
                    f"{shown} is the input file; writing there would overwrite the data. Choose another path."
                )
        except OSError:
            pass
    directory = real.parent
    shown_dir = str(directory) if os.path.islink(given) else (os.path.dirname(given) or ".")
    if not directory.exists():
        blocking = _blocking_component(directory)
        if blocking is not None:
            raise IsometricsError(f"{shown}: {str(blocking)!r} is a file, not a directory; choose another path.")
        raise IsometricsError(
            f"{shown}: directory {shown_dir!r} does not exist; create it first or choose another path."
        )
    if not directory.is_dir():
        raise IsometricsError(f"{shown}: {shown_dir!r} is a file, not a directory; choose another path.")
    if st is not None and not os.access(real, os.W_OK):
        raise IsometricsError(f"{shown} is a read-only file; make it writable or choose another path.")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{real.name}.", suffix=".tmp")
    except OSError as exc:
        raise IsometricsError(
            f"{shown}: cannot write in directory {shown_dir!r} ({exc.strerror or exc}); choose a writable directory."
        ) from exc
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
        raise IsometricsError(
            f"{shown}: cannot write in directory {str(existing)!r} "
            f"({exc.strerror or exc}); choose a writable directory."
        ) from exc
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
            same = destination.kind == other.kind == "stdout" or (
                destination.target is not None and destination.target == other.target
            )
            if same:
                where = "standard output" if destination.kind == "stdout" else repr(destination.given)
                destination.discard()
                raise IsometricsError(
                    f"{other.option} and {destination.option} both write to {where}; give each output its own path."
                )
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
                raise IsometricsError(
                    f"cannot write {d.option} {d.given!r} ({exc.strerror or exc}); nothing was written."
                ) from exc
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
