"""The code style CI holds: ``ruff check`` and ``ruff format --check`` on src/, tests/ and benchmarks/.

The rules live in pyproject.toml (``[tool.ruff]``); ruff comes with the ``test`` extra. Fix a
finding with ``ruff check --fix`` (safe fixes) or by hand, and the layout with ``ruff format``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["src", "tests", "benchmarks"]

#: Whether the code base has been through ``ruff format``: the reformatting is one commit of its
#: own (it touches most files), applied by whoever merges; until then the format check is
#: expected to fail and does not fail the suite. Flip to True in that commit.
FORMAT_APPLIED = True

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("ruff") is None, reason="ruff is not installed (it comes with the `test` extra)"
)


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, *PATHS], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff_check_finds_nothing():
    done = _ruff("check", "--no-cache", "--output-format", "concise")
    assert done.returncode == 0, (
        f"ruff check found (fix with `ruff check --fix`, or by hand):\n{done.stdout}{done.stderr}"
    )


@pytest.mark.xfail(not FORMAT_APPLIED, strict=False, reason="`ruff format` is applied by the lead at merge")
def test_ruff_format_leaves_every_file_as_it_is():
    done = _ruff("format", "--check", "--no-cache")
    assert done.returncode == 0, f"ruff format would reformat (run `ruff format`):\n{done.stdout}{done.stderr}"
