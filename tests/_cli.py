"""Running the command line as users do: a fresh ``python -m isometrics.cli`` process."""

from __future__ import annotations

import subprocess
import sys


def run(*args, cwd=None):
    """Run ``isometrics ARGS...`` in a subprocess; the CompletedProcess, output captured as text."""
    return subprocess.run([sys.executable, "-m", "isometrics.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)
