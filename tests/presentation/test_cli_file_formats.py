"""A file format is declared once (``scale/formats.py``'s ``FORMATS``, beside its signature in
``_core/files.py``): the in-memory command and out of core both read a format added there, and the
command line's readers name no format themselves (issue 24, "to add an input format, touch two files")."""

import ast
import json
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm
from typer.testing import CliRunner

import isometrics
import isometrics.cli._io as io_module
import isometrics.scale._sources as sources_module
from isometrics._core import files as files_module
from isometrics.cli.app import app
from isometrics.scale import formats

pytest.importorskip("duckdb")

CLI = Path(isometrics.__file__).parent / "cli"


def _ndjson_scan(files, separator, trim, located):
    listed = ", ".join("'" + str(p).replace("'", "''") + "'" for p in files)
    return f"read_ndjson([{listed}]{', filename = true' if located else ''})"


def _ndjson_rows(path):
    return path.read_bytes().count(b"\n")


def _ndjson_frame(path, separator):
    import polars as pl

    return pl.scan_ndjson(path)


#: A toy format: JSON lines, one object per row (DuckDB's read_ndjson, Polars' scan_ndjson).
NDJSON = formats.FileFormat(
    "JSON lines", _ndjson_scan, _ndjson_rows, lambda path, column: (None, []), _ndjson_frame, lambda col: col
)


@pytest.fixture
def ndjson(monkeypatch):
    """JSON lines registered as a format: its signature (a first byte ``{``) and its entry in FORMATS."""
    told = files_module.file_format

    def file_format(path, *, shown=None):
        with open(path, "rb") as fh:
            return "ndjson" if fh.read(1) == b"{" else told(path, shown=shown)

    monkeypatch.setitem(formats.FORMATS, "ndjson", NDJSON)
    for module in (io_module, sources_module):  # where the signature is asked
        monkeypatch.setattr(module, "file_format", file_format)


def test_a_format_in_the_table_is_read_in_memory_and_out_of_core(ndjson, tmp_path):
    rng = np.random.default_rng(24)
    n = 400
    y = np.where(rng.random(n) < 0.3, "spam", "ham")
    a = np.round(rng.normal(size=n) + (y == "spam"), 3)
    path = tmp_path / "scores.jsonl"
    path.write_text("".join(json.dumps({"y": str(t), "a": float(s)}) + "\n" for t, s in zip(y, a, strict=True)))
    expected = skm.roc_auc_score(y == "spam", a)
    got = {}
    for mode in ([], ["--out-of-core", "--memory-limit", "64MB"]):
        out = tmp_path / f"out{len(mode)}.json"
        args = ["evaluate", path, "--label", "y", "--score", "a", "--pos-label", "spam", "--json", out, *mode]
        result = CliRunner().invoke(app, [str(x) for x in args], env={"COLUMNS": "400"})
        assert result.exit_code == 0, result.output
        got[bool(mode)] = json.loads(out.read_text())["results"][0]
    assert got[False]["auroc"] == pytest.approx(expected, abs=1e-12)
    assert got[True]["auroc"] == pytest.approx(expected, abs=1e-12)
    assert got[False]["n_samples"] == got[True]["n_samples"] == n
    assert got[False]["n_positives"] == got[True]["n_positives"] == int((y == "spam").sum())


def test_the_table_gives_the_row_estimate_and_the_scan(ndjson, tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"y": 1, "a": 0.5}\n{"y": 0, "a": 0.25}\n')
    assert formats.estimated_rows([path, path], "ndjson") == 4
    assert formats.scan_expression("ndjson", [path]) == f"read_ndjson(['{path}'])"
    assert formats.column_type(path, "ndjson", "y") == (None, [])


def _names_a_format(path: Path) -> list[str]:
    """Where a module branches on a format: a comparison with a format's name, a subscript of the
    table by a name, or a reader of one format (``scan_csv``, ``read_parquet``, ...) called."""
    names = {key.lower() for key in formats.FORMATS} | {f.name.lower() for f in formats.FORMATS.values()}
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        constants = []
        if isinstance(node, ast.Compare):
            constants = [n for n in [node.left, *node.comparators] if isinstance(n, ast.Constant)]
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            constants = [node.slice]
        found += [f"{path.name}:{c.lineno} {c.value!r}" for c in constants if str(c.value).lower() in names]
        if isinstance(node, ast.Attribute) and any(node.attr.endswith(f"_{n}") for n in names):
            if node.attr.startswith(("scan_", "read_")):
                found.append(f"{path.name}:{node.lineno} {node.attr}")
    return found


def test_the_command_lines_readers_name_no_format():
    """The in-memory reader and the out-of-core command dispatch through FORMATS."""
    assert _names_a_format(CLI / "_io.py") == []
    assert _names_a_format(CLI / "out_of_core.py") == []
