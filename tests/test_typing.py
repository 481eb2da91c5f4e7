"""The package type-checks (mypy; annotations are part of the public contract, py.typed ships)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "isometrics"


@pytest.mark.skipif(
    shutil.which("mypy") is None and not (Path(sys.executable).parent / "mypy").exists(),
    reason="mypy is not installed (it is in the test extra)",
)
def test_mypy_finds_no_errors():
    # No incremental cache: the check always starts afresh here, and writing the cache cost 10-15 % of it.
    res = subprocess.run(
        [sys.executable, "-m", "mypy", str(SRC), "--ignore-missing-imports", "--cache-dir", os.devnull],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
