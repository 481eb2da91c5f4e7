"""The package type-checks (mypy; annotations are part of the public contract, py.typed ships)."""

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "isometrics"


@pytest.mark.skipif(
    shutil.which("mypy") is None and not (Path(sys.executable).parent / "mypy").exists(),
    reason="mypy is not installed (it is in the test extra)",
)
def test_mypy_finds_no_errors():
    # The configuration is pyproject.toml's [tool.mypy]. No incremental cache: the check always starts afresh
    # here, and writing the cache cost 10-15 % of it. The native parser (mypy >= 2.4) reads the sources
    # straight into mypy's tree: a fifth less time, and the same 110 errors as the default parser under
    # --strict on this package (checked when it was adopted).
    res = subprocess.run(
        [sys.executable, "-m", "mypy", str(SRC), "--native-parser", "--cache-dir", os.devnull],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stdout + res.stderr


def _skipped_packages() -> set[str]:
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    skipped = set()
    for override in config.get("overrides", []):
        if override.get("follow_imports") == "skip":
            skipped |= {module.removesuffix(".*") for module in override["module"]}
    return skipped


def test_mypy_skips_only_packages_the_package_never_imports():
    """pyproject.toml tells mypy to skip packages only our dependencies import (so it need not check them);
    a package the source imports itself must be checked, or its types would silently become Any."""
    skipped = _skipped_packages()
    assert "numpy" not in skipped and skipped  # the list exists and is of the right kind
    imported = set()
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert not imported & skipped, f"imported by the package but skipped by mypy: {sorted(imported & skipped)}"
