"""Start-up (issue 20, item 11): ``import isometrics`` and ``isometrics --version`` load no subsystem.

Structural, not timed (benchmarks/bench_import.py times them): each check runs a fresh
interpreter and reads ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _cli import run_in_process

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


#: What only ``isometrics benchmark`` needs: 1.1 of the 2 CPU seconds every command used to spend starting up.
BENCHMARK_ONLY = ["isometrics.irt", "isometrics.cli.benchmark", "isometrics.report.benchmark_page", "scipy.optimize"]


@pytest.fixture(scope="module")
def loaded_by_evaluate_help():
    """The modules a fresh ``isometrics evaluate --help`` loads (one interpreter for the two tests that read them)."""
    code = (
        "import sys\nfrom isometrics.cli import main\nsys.argv = ['isometrics', 'evaluate', '--help']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code"
    )
    return frozenset(_loaded_after(code))


def test_evaluate_does_not_load_the_benchmark_command(loaded_by_evaluate_help):
    """``isometrics evaluate`` (and its ``--help``) imports neither the IRT package nor scipy.optimize:
    the benchmark group is listed at start-up and imported when it is invoked (cli/_lazy.py)."""
    loaded = loaded_by_evaluate_help
    assert "isometrics.cli.app" in loaded
    assert sorted(loaded & set(BENCHMARK_ONLY)) == []


def test_the_benchmark_group_is_listed_and_loaded_when_invoked():
    """Lazy is not absent: the root's help lists ``benchmark``, and ``isometrics benchmark --help`` shows its commands."""
    root = run_in_process("--help")  # the help only: in this process (the start-up is checked above)
    assert root.returncode == 0 and "benchmark" in root.stdout and "Benchmark classifiers" in root.stdout
    group = run_in_process("benchmark", "--help")
    assert group.returncode == 0
    assert all(name in group.stdout for name in ("build", "fit", "test", "datasets"))
    code = (
        "import sys\nfrom isometrics.cli import main\nsys.argv = ['isometrics', 'benchmark', 'datasets']\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    assert exc.code in (0, None), exc.code"
    )
    assert "isometrics.irt" in _loaded_after(code)


def test_commands_do_not_load_scipy_sparse(loaded_by_evaluate_help):
    """scipy.sparse (0.2 s to import) is loaded by a paired comparison's replicates only, not by the start
    of every command (uncertainty/_replicates.py imports it where it builds the matrix)."""
    loaded = loaded_by_evaluate_help
    assert "isometrics.uncertainty" in loaded and "scipy.sparse" not in loaded
