"""What the command line prints: user text made inert, one-line errors and warnings, signals.

Everything the CLI prints that came from the user (column names, labels, file names,
values quoted in messages) passes through :func:`printable` (control characters made
visible) and, where Rich parses markup, :func:`markup` (markup escaped as well). A column
named ``[link=https://x]click[/link]`` or one holding an ANSI or OSC escape sequence is
then shown as the characters it is made of: it can neither crash Rich, nor become a link,
nor drive the terminal.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import signal
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn, TextIO

from .._core.optional import is_optional, missing_dependency, needs
from ..exceptions import IsometricsError

__all__ = [
    "command_guard",
    "command_line",
    "EXIT_BAD_INPUT",
    "EXIT_FAILED",
    "fail",
    "leaked",
    "make_console",
    "markup",
    "one_line_warnings",
    "printable",
    "signals_raise",
]

EXIT_BAD_INPUT = 2  # bad input or a bad destination: nothing was computed or written
EXIT_FAILED = 1  # valid input, but the run could not finish (out of memory, a failed write)

# C0 and C1 controls (ESC among them, so no escape sequence survives), DEL, the line and
# paragraph separators, the bidirectional overrides and isolates (they reorder what the
# terminal shows), and lone surrogates (undecodable bytes of a file name).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(value: object) -> str:
    """``str(value)`` with every control character shown as its escape (``\\x1b``), so it prints inertly.

    Parameters
    ----------
    value : object
        Anything; it is converted with ``str``.

    Returns
    -------
    str
        One line without control characters: ESC, BEL, CR, LF, tab, C1 controls, DEL,
        bidirectional overrides and lone surrogates appear as ``\\xNN`` or ``\\uNNNN``.

    Examples
    --------
    >>> printable("a\\x1b[31mb\\nc")
    'a\\\\x1b[31mb\\\\x0ac'
    """
    return _UNSAFE.sub(_visible, str(value))


def markup(value: object) -> str:
    """:func:`printable` text with Rich markup escaped, to embed in a string that Rich parses.

    Parameters
    ----------
    value : object
        Anything; it is converted with ``str``.

    Returns
    -------
    str
        Text that Rich renders as exactly ``printable(value)``.

    Examples
    --------
    >>> markup("a[/b]")
    'a\\\\[/b]'
    """
    with needs("the command line"):
        from rich.markup import escape

    return escape(printable(value))


def command_line(*words: object) -> str:
    """A command for the user to copy and run: ``isometrics`` and ``words``, each quoted for a POSIX shell.

    Every command the CLI prints for the user to run is built here (and run by the tests).

    Parameters
    ----------
    *words : object
        The arguments after ``isometrics`` (converted with ``str``).

    Returns
    -------
    str
        E.g. ``isometrics elicit --answers answers.json 'my scores.csv' --pos-label M``.

    Examples
    --------
    >>> command_line("evaluate", "my scores.csv", "--metric", "g(beta=2, rho=-3)")
    "isometrics evaluate 'my scores.csv' --metric 'g(beta=2, rho=-3)'"
    """
    return " ".join(["isometrics", *(shlex.quote(str(w)) for w in words)])


def make_console(*, stderr: bool = False) -> Any:
    """A Rich console for the CLI: no emoji codes (``:smile:`` in a column name stays text).

    Parameters
    ----------
    stderr : bool, default=False
        Print to standard error (used when standard output carries a written file).

    Returns
    -------
    rich.console.Console
    """
    with needs("the command line"):
        from rich.console import Console

    return Console(stderr=stderr, emoji=False)


def fail(message: str, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``isometrics: error: <message>`` as one inert line on stderr and exit with ``code``.

    Parameters
    ----------
    message : str
        What went wrong and how to fix it.
    code : int, default=2
        Exit status.

    Raises
    ------
    SystemExit
        Always, with ``code``.
    """
    sys.stderr.write(f"isometrics: error: {printable(message)}\n")
    sys.stderr.flush()
    raise SystemExit(code)


@contextmanager
def one_line_warnings(stream: TextIO | None = None) -> Iterator[None]:
    """Show each warning as one inert line ``isometrics: warning: <message>`` (no source line).

    Parameters
    ----------
    stream : file-like, optional
        Where to write; standard error (looked up when a warning is shown) by default.

    Yields
    ------
    None
    """

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        out = stream if stream is not None else sys.stderr
        out.write(f"isometrics: warning: {printable(message)}\n")

    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = show
        yield


class Terminated(SystemExit):
    """Raised in the main thread when the process receives SIGTERM (or SIGHUP)."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(128 + signum)


@contextmanager
def signals_raise() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into an exception for the duration, so ``finally`` clauses run.

    SIGINT already raises :class:`KeyboardInterrupt`. Temporary files are removed by the
    ``finally`` clauses that own them; the caller turns the exception into an exit status.

    Yields
    ------
    None
    """
    wanted = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]
    previous = {}
    try:
        for s in wanted:
            previous[s] = signal.signal(s, _raise_terminated)
    except ValueError:  # not the main thread: leave the handlers alone
        previous.clear()
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextmanager
def command_guard(
    *, interrupted: str = "interrupted; no output was written.", input_size: Callable[[], str] | None = None
) -> Iterator[None]:
    """The boundary of every command: one line and an exit status instead of a traceback.

    Warnings become one line each; SIGTERM and SIGHUP raise (so temporary files are removed
    on the way out), as SIGINT does.

    Parameters
    ----------
    interrupted : str
        What to say on Ctrl-C (exit status 130).
    input_size : callable, optional
        Describes the input (rows and columns) for the out-of-memory message.

    Yields
    ------
    None
    """
    with signals_raise(), one_line_warnings():
        try:
            yield
        except Terminated as exc:
            fail("terminated by a signal; no output was written.", int(exc.code or EXIT_FAILED))
        except KeyboardInterrupt:
            fail(interrupted, 130)
        except IsometricsError as exc:  # a MissingDependencyError among them: one line naming the extra
            fail(str(exc))
        except ImportError as exc:  # an optional package imported without needs(): the same line
            if not is_optional(exc):
                raise
            fail(str(missing_dependency(exc.name or "", "this command")))
        except MemoryError:
            size = f" with {input_size()}" if input_size is not None else ""
            fail(
                f"out of memory{size}; evaluate fewer score columns at a time, evaluate a sample of the rows, "
                "or use a machine with more memory.",
                EXIT_FAILED,
            )
        except BrokenPipeError:  # the reader of stdout went away (``| head``): stop quietly
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            raise SystemExit(EXIT_FAILED) from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            fail(*leaked(exc))  # what no check before it named: one line all the same


#: Errors of the system that say the run could not finish, not that the input was wrong (exit 1).
_NOT_FINISHED = {
    getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EIO", "ENOMEM", "EFBIG") if hasattr(errno, name)
}
_OS_FIX = {
    errno.ENOENT: "check the path",
    errno.ENOTDIR: "a file stands where a directory is needed: pass a directory, or move the file",
    errno.EEXIST: "a file stands where a directory is needed: pass a directory, or move the file",
    errno.EISDIR: "a directory stands where a file is needed: pass a file",
    errno.EACCES: "check its permissions, or choose another path",
    errno.EPERM: "check its permissions, or choose another path",
    errno.EROFS: "the file system is read-only: choose another path",
    errno.ENAMETOOLONG: "choose a shorter path",
}


def leaked(exc: BaseException) -> tuple[str, int]:
    """The one-line message and exit status of a plain Python error that reached the command's boundary.

    The library and the command line name bad input where it enters; this is the net under them,
    so that a file error, an undecodable or malformed file, or input nested past Python's
    recursion limit is still one line and not a traceback.

    Parameters
    ----------
    exc : OSError, UnicodeDecodeError, json.JSONDecodeError or RecursionError
        The error.

    Returns
    -------
    message : str
        What was wrong, where, and the fix.
    status : int
        2 (bad input or destination), or 1 when the system could not finish (a full disk).
    """
    if isinstance(exc, RecursionError):
        return (
            "the input nests too deeply to be read (past Python's recursion limit); pass the file the command expects.",
            EXIT_BAD_INPUT,
        )
    if isinstance(exc, UnicodeDecodeError):
        byte = exc.object[exc.start] if exc.start < len(exc.object) else None
        shown = "" if byte is None else f"byte 0x{byte:02x} "
        return (f"an input file is not UTF-8 text ({shown}at offset {exc.start}); save it as UTF-8.", EXIT_BAD_INPUT)
    if isinstance(exc, json.JSONDecodeError):
        return (
            f"an input file is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); pass the "
            "file the command expects.",
            EXIT_BAD_INPUT,
        )
    assert isinstance(exc, OSError)
    where = " and ".join(repr(str(p)) for p in (exc.filename, exc.filename2) if p is not None) or "a path"
    what = exc.strerror or type(exc).__name__
    if exc.errno in _NOT_FINISHED:
        return (
            f"could not finish: {what} ({where}); free some space or choose another place, then run the command again.",
            EXIT_FAILED,
        )
    return f"cannot use {where}: {what}; {_OS_FIX.get(exc.errno or 0, 'check the path')}.", EXIT_BAD_INPUT
