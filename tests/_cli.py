"""Running the command line as users do.

``run`` starts a fresh ``python -m isometrics.cli`` process: for the tests about the process
(start-up, exit status of an uncaught error, signals, file descriptors, missing extras).
``run_in_process`` runs the same entry point (:func:`isometrics.cli.main`) inside the test's
process, as the process would (its arguments, working folder, standard streams, exit status, a
fresh process's warning filters and context variables), without the two seconds of interpreter and import start-up
each subprocess costs: for the tests of what a command prints, writes and refuses.
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import os
import subprocess
import sys
import traceback
import warnings

import isometrics.cli


def run(*args, cwd=None):
    """Run ``isometrics ARGS...`` in a subprocess; the CompletedProcess, output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "isometrics.cli", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def _stream() -> io.TextIOWrapper:
    # a text stream with a binary .buffer, as a pipe's sys.stdout has (``--json -`` may write bytes)
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="", write_through=True)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8").replace("\r\n", "\n")


def run_in_process(*args, cwd=None, input=""):
    """Run ``isometrics ARGS...`` in this process, ``input`` on its standard input; a CompletedProcess as
    :func:`run` returns."""
    argv = ["isometrics", *map(str, args)]
    out, err = _stream(), _stream()
    saved_argv, saved_cwd, saved_stdin = sys.argv, os.getcwd(), sys.stdin
    code = 0
    try:
        sys.argv = argv
        sys.stdin = io.StringIO(input)
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.resetwarnings()  # a fresh interpreter's filters: warnings shown once, these hidden
            warnings.simplefilter("default")
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            try:  # in a context of its own: what one command sets (its --separator) does not reach the next
                contextvars.copy_context().run(isometrics.cli.main)
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:  # sys.exit("message"): the message on stderr, status 1
                    print(exc.code, file=sys.stderr)
                    code = 1
            except Exception:  # an uncaught error: the traceback on stderr, status 1
                traceback.print_exc()
                code = 1
    finally:
        sys.argv, sys.stdin = saved_argv, saved_stdin
        os.chdir(saved_cwd)
    return subprocess.CompletedProcess(argv, code, _text(out), _text(err))
