"""Start-up (issue 20, item 11): ``import isometrics`` and ``isometrics --version`` load no subsystem.

Structural, not timed (benchmarks/bench_import.py times them): each check runs a fresh
interpreter and reads ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import isometrics

#: Modules that ``import isometrics`` used to load eagerly (0.41 s of its 0.70 s was IRT and scipy.optimize).
HEAVY = [
    "isometrics.irt",
    "isometrics.elicitation",
    "isometrics.scale",
    "isometrics.dask",
    "isometrics.model_selection",
    "isometrics.plotting",
    "isometrics.report",
    "isometrics.cli.app",
    "scipy.optimize",
    "scipy.stats",
    "typer",
    "rich",
    "dask",
    "duckdb",
    "sklearn",
    "matplotlib",
    "plotly",
]


def _loaded_after(code: str, *argv: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    res = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, check=True)
    return set(json.loads(res.stdout.splitlines()[-1]))


def test_import_isometrics_loads_no_subsystem():
    loaded = _loaded_after("import isometrics")
    assert sorted(loaded & set(HEAVY)) == []


def test_the_core_does_not_load_irt_or_optimisers():
    loaded = _loaded_after("from isometrics import auroc, OperatingPoints")
    assert (
        sorted(
            loaded
            & {
                "isometrics.irt",
                "isometrics.elicitation",
                "scipy.optimize",
                "isometrics.scale",
                "isometrics.dask",
                "typer",
            }
        )
        == []
    )


def test_version_does_not_load_the_application():
    code = "import sys\nfrom isometrics.cli import main\nsys.argv = ['isometrics', '--version']\nmain()"
    loaded = _loaded_after(code)
    assert sorted(loaded & set(HEAVY)) == []
    res = subprocess.run([sys.executable, "-m", "isometrics.cli", "--version"], capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout == f"isometrics {isometrics.__version__}\n"


def test_lazy_names_are_public_and_listed():
    assert set(isometrics._LAZY) | {
        "__version__",
        "IsometricsError",
        "InvalidParameterError",
        "UndefinedMetricWarning",
        "DegenerateDataWarning",
        "WeightKindWarning",
    } == set(isometrics.__all__)
    assert set(isometrics.__all__) <= set(dir(isometrics))
    try:
        isometrics.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an unknown name must raise AttributeError")
