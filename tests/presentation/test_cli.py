"""The command line as a user runs it, on CSV and Parquet files: the entry point in-process (`run_in_process`) for
what it prints and writes, a subprocess (`run`) for the demo end to end and for real file descriptors and signals."""

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from _cli import run, run_in_process
from sklearn import metrics as skm

from isometrics.report.glossary import glossary


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(7)
    n = 2000
    y = (rng.random(n) < 0.1).astype(int)
    frame = pl.DataFrame(
        {
            "y": y,
            "label_text": np.where(y == 1, "fraud", "ok"),
            "model_a": rng.normal(size=n) + 1.5 * y,
            "model_b": np.round(rng.normal(size=n) + y, 1),
            "w": rng.random(n) + 0.5,
            "bad": np.where(np.arange(n) == 5, np.nan, rng.random(n)),
            "<script>alert(1)</script>": rng.random(n),
            "freq": rng.integers(1, 5, n),  # frequency weights: whole numbers
        }
    )
    d = tmp_path_factory.mktemp("cli")
    frame.write_parquet(d / "scores.parquet")
    frame.drop("label_text").write_csv(d / "scores.csv")
    return d, frame


@pytest.mark.parametrize("name", ["scores.parquet", "scores.csv"])
def test_evaluate_prints_and_writes_json_that_matches_sklearn(data, name):
    d, frame = data
    out = d / f"{name}.json"
    res = run_in_process(
        "evaluate",
        d / name,
        "--label",
        "y",
        "--score",
        "model_a",
        "--score",
        "model_b",
        "--weight",
        "w",
        "--metric",
        "f1",
        "--metric",
        "g(beta=2, rho=-3)",
        "--json",
        out,
    )
    assert res.returncode == 0, res.stderr
    assert "AUROC" in res.stdout and "model_b" in res.stdout and "Best threshold for F1" in res.stdout
    payload = json.loads(out.read_text())
    y, w = frame["y"].to_numpy(), frame["w"].to_numpy()
    for result in payload["results"]:
        s = frame[result["score"]].to_numpy()
        assert result["auroc"] == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
        assert result["average_precision"] == pytest.approx(
            skm.average_precision_score(y, s, sample_weight=w), rel=1e-12
        )
        f1 = result["best_thresholds"][0]
        pred = (s >= f1["threshold"]).astype(int)
        assert f1["value"] == pytest.approx(skm.f1_score(y, pred, sample_weight=w), rel=1e-12)
        assert result["best_thresholds"][1]["metric"] == "g(beta=2, rho=-3)"


def test_string_labels_with_pos_label(data):
    d, frame = data
    res = run_in_process(
        "evaluate", d / "scores.parquet", "--label", "label_text", "--score", "model_a", "--pos-label", "fraud"
    )
    assert res.returncode == 0, res.stderr
    expected = skm.roc_auc_score(frame["y"].to_numpy(), frame["model_a"].to_numpy())
    assert f"{expected:.4f}" in res.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["evaluate", "missing.parquet", "--label", "y", "--score", "a"], "file not found: 'missing.parquet'"),
        (
            ["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "nope"],
            "column 'nope' is not in 'scores.parquet'",
        ),
        (["evaluate", "{d}/scores.parquet", "--label", "nope", "--score", "model_a"], "column 'nope' is not in"),
        (
            ["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "bad"],
            "score column 'bad' contains 1 NaN value (first at index 5)",
        ),
        (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "label_text"], "must be numeric scores"),
        (
            ["evaluate", "{d}/scores.parquet", "--label", "label_text", "--score", "model_a"],
            "cannot infer the positive class",
        ),
        (
            ["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "model_a", "--pos-label", "3"],
            "--pos-label '3' is not a value of label column 'y' (values: 0, 1)",
        ),
        (
            ["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "model_a", "--metric", "g(beta=2)"],
            "metric 'g' needs rho",
        ),
        (
            ["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "model_a", "--weight", "bad"],
            "sample_weight contains 1 NaN value",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(data, args, message):
    d, _ = data
    out = d / "never.json"
    res = run_in_process(*[a.format(d=d) for a in args], "--json", out)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], res.stderr
    assert "Traceback" not in res.stderr
    assert not out.exists()


def test_one_class_is_an_error(tmp_path):
    pl.DataFrame({"y": [1, 1, 1], "s": [0.1, 0.2, 0.3]}).write_csv(tmp_path / "one.csv")
    res = run_in_process("evaluate", tmp_path / "one.csv", "--label", "y", "--score", "s")
    assert res.returncode == 2 and "y_true has one class (no negative samples" in res.stderr


def test_demo_runs_end_to_end(tmp_path):
    res = run_in_process("demo", "--output-dir", tmp_path / "out")  # what the demo prints and writes, not the process
    assert res.returncode == 0, res.stderr
    assert "logistic_regression" in res.stdout and "How to read this" in res.stdout
    payload = json.loads((tmp_path / "out" / "evaluation.json").read_text())
    scores = pl.read_parquet(tmp_path / "out" / "default_scores.parquet")
    y = scores["default"].to_numpy()
    assert 0 < y.mean() <= 0.10  # imbalanced, as the demo promises
    for result in payload["results"]:
        assert result["auroc"] == pytest.approx(skm.roc_auc_score(y, scores[result["score"]].to_numpy()), rel=1e-12)
    # issue 25: the demo's "How to read this" is the report's glossary (one source), and its report opens with the
    # decision, intervals included, that the JSON carries
    printed = " ".join(res.stdout.split())
    for term in ("AUROC", "AUPRG", "F1, F2, F0.5"):
        assert f"{term}: {glossary('defaulter', 'non-defaulter')[term]}" in printed
    assert payload["summary"]["in_sample"]["intervals"]["fn_per_1000"]["n_resamples"] == 1000
    assert 'id="decision-counts"' in (tmp_path / "out" / "report.html").read_text(encoding="utf-8")


def test_evaluate_with_confidence_intervals(data):
    d, frame = data
    out = d / "ci.json"
    res = run_in_process(
        "evaluate",
        d / "scores.parquet",
        "--label",
        "y",
        "--score",
        "model_a",
        "--metric",
        "f2",
        "--ci",
        "--n-resamples",
        "50",
        "--seed",
        "3",
        "--json",
        out,
    )
    assert res.returncode == 0, res.stderr
    assert "percentile bootstrap intervals (50 replicates)" in res.stdout
    intervals = json.loads(out.read_text())["results"][0]["confidence_intervals"]
    assert set(intervals) == {"auroc", "average_precision", "auprg", "fbeta(beta=2)"}
    auroc = json.loads(out.read_text())["results"][0]["auroc"]
    assert intervals["auroc"]["low"] <= auroc <= intervals["auroc"]["high"]


def test_compare_two_columns(data):
    d, frame = data
    out = d / "compare.json"
    res = run_in_process(
        "compare",
        d / "scores.parquet",
        "--label",
        "y",
        "--score",
        "model_a",
        "--score",
        "model_b",
        "--n-resamples",
        "60",
        "--seed",
        "1",
        "--json",
        out,
    )
    assert res.returncode == 0, res.stderr
    payload = json.loads(out.read_text())
    y = frame["y"].to_numpy()
    expected = skm.roc_auc_score(y, frame["model_a"].to_numpy()) - skm.roc_auc_score(y, frame["model_b"].to_numpy())
    rows = {row["statistic"]: row for row in payload["comparisons"]}
    assert list(rows) == ["auroc", "average_precision", "auprg", "f1"]
    assert {(row["a"], row["b"]) for row in rows.values()} == {("model_a", "model_b")}
    assert rows["auroc"]["difference"] == pytest.approx(expected, rel=1e-12)
    [delong] = payload["delong"]
    assert delong["difference"] == pytest.approx(expected, rel=1e-12)
    assert 0 < rows["f1"]["p_value"] <= 1
    assert rows["f1"]["adjusted_p_value"] == rows["f1"]["p_value"]  # one pair: unchanged
    bad = run_in_process("compare", d / "scores.parquet", "--label", "y", "--score", "model_a")
    assert bad.returncode == 2 and "at least two different --score columns" in bad.stderr


# ---------------------------------------------------------------------------------------------
# In-process runs (typer's CliRunner) for the registry-driven checks; subprocesses where the
# behaviour needs real file descriptors or signals.

import errno
import os
import re
import signal
import stat
import tempfile
import threading
import time
import typing
from pathlib import Path

import pyarrow as pa
import typer.main
from hypothesis import assume, given
from hypothesis import strategies as st
from rich.text import Text
from typer.testing import CliRunner

import isometrics
import isometrics._core.outputs as outputs_module
import isometrics.cli._io as io_module
import isometrics.cli.app as cli_module
import isometrics.cli.compare as compare_module
import isometrics.cli.demo as demo_module
import isometrics.cli.evaluate as evaluate_module
import isometrics.cli.in_memory as in_memory_module
import isometrics.cli.report as report_module
from isometrics.cli._console import markup, printable
from isometrics.cli.app import app

#: The modules whose commands look up the functions these tests replace (cli/app.py only registers them).
COMMAND_MODULES = (cli_module, compare_module, demo_module, evaluate_module, in_memory_module, report_module)


def patch_commands(monkeypatch, name, value):
    """Replace ``name`` wherever a command looks it up (each command module that imports it)."""
    patched = [m for m in COMMAND_MODULES if hasattr(m, name)]
    assert patched, name
    for module in patched:
        monkeypatch.setattr(module, name, value)


# Control characters that must never reach the terminal from user data (newline is ours).
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def invoke(*args, **kwargs):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"}, **kwargs)


def one_line_error(result, code=2):
    """The run failed with ``code``, one inert line on stderr and no traceback; return that line."""
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("isometrics: error: "), result.stderr
    assert not UNSAFE.search(result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    return lines[0]


def tree(root):
    """Every path under root with its bytes (files) or None (directories), to compare before and after."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            out[os.path.join(dirpath, name)] = None
        for name in filenames:
            path = os.path.join(dirpath, name)
            out[path] = Path(path).read_bytes() if os.path.isfile(path) else "special"
    return out


# Every output option of every command: (command, option, arguments before it, file suffix).
BASE = {
    "evaluate": ["--label", "y", "--score", "model_a"],
    "compare": ["--label", "y", "--score", "model_a", "--score", "model_b", "--n-resamples", "20", "--seed", "0"],
    "report": ["--label", "y", "--score", "model_a"],
    "elicit": ["--label", "y", "--score", "model_a"],
}
OUTPUTS = [
    ("evaluate", "--json", ".json"),
    ("evaluate", "--report", ".html"),
    ("compare", "--json", ".json"),
    ("report", "-o", ".html"),
    ("report", "--json", ".json"),
    ("elicit", "-o", ".html"),
]
DIRECTORY_OUTPUTS = [
    ("demo", "--output-dir"),
    ("evaluate", "--curve-dir"),
]  # --curve-dir: tests/presentation/test_cli_dask.py


def test_the_output_registry_names_every_output_option():
    """A new output option (a Path, or metavar PATH) fails this test until it is added to OUTPUTS or DIRECTORY_OUTPUTS."""
    group = typer.main.get_command(app)
    found = set()
    for command in app.registered_commands:
        name = command.name or command.callback.__name__
        hints = typing.get_type_hints(command.callback, include_extras=True)
        click_params = {p.name: p for p in group.commands[name].params}
        for param, hint in hints.items():
            if param == "return":
                continue
            base = typing.get_args(hint)[0] if typing.get_origin(hint) is typing.Annotated else hint
            option = click_params[param]
            is_path = Path in (typing.get_args(base) or (base,)) or option.metavar == "PATH"
            if is_path and option.param_type_name == "option":
                found.add((name, click_params[param].opts[0]))
    assert found == {(c, o) for c, o, _ in OUTPUTS} | set(DIRECTORY_OUTPUTS)


@pytest.fixture
def workdir(tmp_path, data, monkeypatch):
    """A directory holding a copy of the scores, a file, and a read-only directory.

    Root ignores permission bits, but not a read-only file system: as root, creating a file
    in ``ro`` fails the way a read-only mount does (EROFS), through the only two calls that
    create files for the command line.
    """
    d, _ = data
    (tmp_path / "scores.csv").write_bytes((d / "scores.csv").read_bytes())
    (tmp_path / "afile").write_text("not a directory\n")
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    if os.geteuid() == 0:
        real_mkstemp, real_temporary = tempfile.mkstemp, tempfile.TemporaryFile

        def refuse(directory):
            if directory is not None and Path(directory).resolve() == ro.resolve():
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(directory))

        def mkstemp(*args, dir=None, **kwargs):
            refuse(dir)
            return real_mkstemp(*args, dir=dir, **kwargs)

        def temporary(*args, dir=None, **kwargs):
            refuse(dir)
            return real_temporary(*args, dir=dir, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
        monkeypatch.setattr(tempfile, "TemporaryFile", temporary)
    yield tmp_path
    ro.chmod(0o755)


BAD_DESTINATIONS = {
    "existing directory": (lambda d, sfx: (d / "adir").mkdir() or d / "adir", "is a directory"),
    "directory name": (lambda d, sfx: str(d / "new") + "/", "names a directory"),
    "missing directory": (lambda d, sfx: d / "missing" / f"out{sfx}", "does not exist"),
    "under a file": (lambda d, sfx: d / "afile" / f"out{sfx}", "afile' is a file, not a directory"),
    "read-only directory": (lambda d, sfx: d / "ro" / f"out{sfx}", "cannot write in directory"),
    "the input file": (lambda d, sfx: d / "scores.csv", "is the input file"),
}


@pytest.mark.parametrize("case", BAD_DESTINATIONS)
@pytest.mark.parametrize("command, option, suffix", OUTPUTS)
def test_bad_destination_is_refused_before_reading_and_nothing_is_written(
    workdir, monkeypatch, command, option, suffix, case
):
    make, message = BAD_DESTINATIONS[case]
    bad = make(workdir, suffix)
    # Any other output of the same command gets a good path: it must not be written either.
    others = [o for c, o, s in OUTPUTS if c == command and o != option]
    extra = [
        x for o in others for x in (o, workdir / f"good{dict((o2, s) for c2, o2, s in OUTPUTS if c2 == command)[o]}")
    ]

    def never(*args, **kwargs):
        raise AssertionError("the input was read before the destinations were checked")

    patch_commands(monkeypatch, "read_columns", never)
    before = tree(workdir)
    line = one_line_error(invoke(command, workdir / "scores.csv", *BASE[command], option, bad, *extra))
    assert option in line and message in line, line
    assert tree(workdir) == before  # no output, no temporary file, the input untouched


@pytest.mark.parametrize(
    "case, message",
    [
        ("file", "is a file, not a directory"),
        ("under a file", "afile' is a file, not a directory"),
        ("read-only directory", "cannot write in directory"),
    ],
)
def test_bad_output_directory_is_refused_before_training(workdir, monkeypatch, case, message):
    target = {
        "file": workdir / "afile",
        "under a file": workdir / "afile" / "demo",
        "read-only directory": workdir / "ro" / "demo",
    }[case]

    def never(*args, **kwargs):
        raise AssertionError("the demo trained before its output directory was checked")

    patch_commands(monkeypatch, "make_demo_scores", never)
    before = tree(workdir)
    line = one_line_error(invoke("demo", "--output-dir", target))
    assert "--output-dir" in line and message in line, line
    assert tree(workdir) == before


#: An output a command cannot run without: given a file (outside the watched directory) when another output is tested.
REQUIRED = {"report": ("-o", ".html")}


@pytest.mark.parametrize("command, option, suffix", OUTPUTS)
def test_dash_writes_the_output_alone_on_stdout(workdir, tmp_path_factory, command, option, suffix):
    before = tree(workdir)
    required, sfx = REQUIRED.get(command, (option, ""))
    extra = [] if required == option else [required, tmp_path_factory.mktemp("required") / f"out{sfx}"]
    result = invoke(command, workdir / "scores.csv", *BASE[command], option, "-", *extra)
    assert result.exit_code == 0, (result.stderr, result.exception)
    if suffix == ".json":
        payload = json.loads(result.stdout)  # nothing but the JSON on stdout
        assert payload["label"] == "y"
    else:
        assert result.stdout.lstrip().lower().startswith("<!doctype html") and result.stdout.rstrip().endswith(
            "</html>"
        )
    assert "AUROC" in result.stderr or "difference" in result.stderr  # the tables moved to stderr
    assert tree(workdir) == before  # no file named '-'


def test_two_outputs_on_stdout_or_one_path_are_refused(workdir):
    f = workdir / "scores.csv"
    line = one_line_error(invoke("evaluate", f, *BASE["evaluate"], "--json", "-", "--report", "-"))
    assert "--json and --report both write to standard output" in line
    line = one_line_error(invoke("evaluate", f, *BASE["evaluate"], "--json", workdir / "x", "--report", workdir / "x"))
    assert "both write to" in line
    assert not (workdir / "x").exists()


def test_a_failed_write_leaves_every_destination_as_it_was(workdir, monkeypatch):
    """Both outputs are complete in temporary files before any is renamed: a full disk touches neither."""
    (workdir / "old.json").write_text("old\n")
    calls = []
    real_chmod = os.chmod

    def chmod(path, mode, *args, **kwargs):
        calls.append(path)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real_chmod(path, mode, *args, **kwargs)

    monkeypatch.setattr(outputs_module.os, "chmod", chmod)
    before = tree(workdir)
    line = one_line_error(
        invoke(
            "evaluate",
            workdir / "scores.csv",
            *BASE["evaluate"],
            "--json",
            workdir / "old.json",
            "--report",
            workdir / "new.html",
        )
    )
    assert "No space left on device" in line and "nothing was written" in line
    assert tree(workdir) == before


def test_a_failure_after_reading_writes_nothing(workdir, monkeypatch):
    def broken(*args, **kwargs):
        raise isometrics.IsometricsError("build_report: broken on purpose.")

    patch_commands(monkeypatch, "build_report", broken)
    before = tree(workdir)
    one_line_error(
        invoke(
            "evaluate",
            workdir / "scores.csv",
            *BASE["evaluate"],
            "--json",
            workdir / "ok.json",
            "--report",
            workdir / "r.html",
        )
    )
    assert tree(workdir) == before


def test_existing_file_keeps_its_permissions(workdir):
    out = workdir / "out.json"
    out.write_text("{}")
    out.chmod(0o640)
    result = invoke("evaluate", workdir / "scores.csv", *BASE["evaluate"], "--json", out)
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o640 and json.loads(out.read_text())["label"] == "y"


@pytest.fixture
def stdout_link(tmp_path):
    """A private twin of /dev/stdout (a symbolic link to /proc/self/fd/1).

    The test never names /dev/stdout itself: run as root against a regressed command line,
    it would replace the machine's /dev/stdout with a regular file.
    """
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    return link


def test_stdout_symlink_is_written_through_not_replaced(data, stdout_link):
    d, _ = data
    res = run("evaluate", d / "scores.csv", *BASE["evaluate"], "--json", stdout_link)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["label"] == "y"  # the JSON alone on stdout, the tables on stderr
    assert "AUROC" in res.stderr
    assert stdout_link.is_symlink()  # as root, an atomic rename used to replace it with a regular file


def test_stdout_symlink_when_stdout_is_a_file(data, tmp_path, stdout_link):
    d, _ = data
    with open(tmp_path / "captured", "w") as fh:
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "isometrics.cli",
                "evaluate",
                str(d / "scores.csv"),
                *BASE["evaluate"],
                "--json",
                str(stdout_link),
            ],
            stdout=fh,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert res.returncode == 0, res.stderr
    assert json.loads((tmp_path / "captured").read_text())["label"] == "y" and stdout_link.is_symlink()


def test_fifo_and_symlink_destinations(data, tmp_path):
    d, _ = data
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    target = tmp_path / "real.json"
    target.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    # what the command does with the paths, not the process: in this process (the FIFO's reader is a thread)
    res = run_in_process("evaluate", d / "scores.csv", *BASE["evaluate"], "--json", fifo, "--report", link)
    reader.join(timeout=60)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and json.loads(received[0])["label"] == "y"
    assert link.is_symlink() and target.read_text().lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGINT, 130)])
def test_a_signal_removes_the_temporary_files(data, tmp_path, signum, code):
    d, _ = data
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "isometrics.cli",
            "evaluate",
            str(d / "scores.csv"),
            *BASE["evaluate"],
            "--ci",
            "--n-resamples",
            str(10**6),
            "--json",
            str(tmp_path / "o.json"),
            "--report",
            str(tmp_path / "r.html"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 30
        while len(os.listdir(tmp_path)) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert sorted(n.split(".")[1] for n in os.listdir(tmp_path)) == ["o", "r"]  # both staged, run under way
        time.sleep(0.5)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, err
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("isometrics: error: ")
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------------------------
# Item 21: user text is printed inertly.

HOSTILE = {  # column name -> how it must appear (written by hand: controls shown as \xNN)
    "a[/b]": "a[/b]",
    "[link=https://example.com]click[/link]": "[link=https://example.com]click[/link]",
    "\x1b[31mred\x1b[0m": "\\x1b[31mred\\x1b[0m",
    "\x1b]8;;https://example.com\x1b\\osc\x1b]8;;\x1b\\": "\\x1b]8;;https://example.com\\x1b\\osc\\x1b]8;;\\x1b\\",
    "bidi\u202eevil": "bidi\\u202eevil",
    ":thumbs_up:": ":thumbs_up:",
    "tail\\": "tail\\",
    "bell\x07csi\x9bnl\nx": "bell\\x07csi\\x9bnl\\x0ax",
}
HOSTILE_LABEL = "[bold]y\x1b[2J"
HOSTILE_FILE = "[red]in\x1b[1m.parquet"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    rng = np.random.default_rng(3)
    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    d = tmp_path_factory.mktemp("hostile")
    with open(d / HOSTILE_FILE, "wb") as fh:  # (Polars would take the brackets of the name for a glob)
        pl.DataFrame({HOSTILE_LABEL: y, **{name: rng.random(n) + y for name in HOSTILE}}).write_parquet(fh)
    return d / HOSTILE_FILE


def assert_inert(result, shows_label=True):
    text = result.stdout + result.stderr
    assert result.exit_code == 0, (result.stderr, result.exception)
    assert not UNSAFE.search(text), [m.group() for m in UNSAFE.finditer(text)][:5]
    assert "[red]in\\x1b[1m.parquet" in text and (not shows_label or "[bold]y\\x1b[2J" in text)
    return text


def test_hostile_names_evaluate(hostile, tmp_path):
    text = assert_inert(
        invoke(
            "evaluate",
            hostile,
            "--label",
            HOSTILE_LABEL,
            *[x for name in HOSTILE for x in ("--score", name)],
            "--json",
            tmp_path / "out.json",
        )
    )
    for shown in HOSTILE.values():
        assert text.count(shown) >= 2, shown  # in both tables, as the characters it is made of
    assert set(r["score"] for r in json.loads((tmp_path / "out.json").read_text())["results"]) == set(HOSTILE)


@pytest.mark.parametrize("pair", [(0, 1), (2, 3), (4, 5), (6, 7)])
def test_hostile_names_compare(hostile, pair):
    names = [list(HOSTILE)[k] for k in pair]
    text = assert_inert(
        invoke(
            "compare",
            hostile,
            "--label",
            HOSTILE_LABEL,
            "--score",
            names[0],
            "--score",
            names[1],
            "--n-resamples",
            20,
            "--seed",
            0,
        ),
        shows_label=False,
    )
    assert all(HOSTILE[name] in text for name in names)


def test_hostile_names_report(hostile, tmp_path):
    out = tmp_path / "[red]r\x1b[1m.html"
    text = assert_inert(invoke("report", hostile, "--label", HOSTILE_LABEL, "--score", list(HOSTILE)[1], "-o", out))
    assert "Report: " in text and "[red]r\\x1b[1m.html" in text and out.exists()


@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
def test_hostile_names_in_error_lines(hostile, tmp_path, command):
    extra = {"compare": ["--score", "tail\\"], "report": ["-o", tmp_path / "r.html"]}.get(command, [])
    for missing in ["[/b]missing", "\x1b]8;;https://x\x1b\\m", "x\u202ey"]:
        line = one_line_error(invoke(command, hostile, "--label", HOSTILE_LABEL, "--score", missing, *extra))
        assert "is not in" in line and "'[link=https://example.com]click[/link]'" in line
    line = one_line_error(
        invoke(command, hostile, "--label", HOSTILE_LABEL, "--score", "a[/b]", *extra, "--pos-label", "\x1b[5mX[/b]")
    )
    assert "--pos-label '\\x1b[5mX[/b]'" in line


def test_warnings_are_one_inert_line(tmp_path):
    name = "const[/b]\x1b[1m"
    pl.DataFrame({"y": [0, 1] * 50, name: [0.5] * 100}).write_parquet(tmp_path / "c.parquet")
    result = invoke("evaluate", tmp_path / "c.parquet", "--label", "y", "--score", name)
    assert result.exit_code == 0
    warning_lines = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warning_lines and all(line.startswith("isometrics: warning: ") for line in warning_lines)
    assert "single distinct value" in warning_lines[0] and not UNSAFE.search(result.stderr)
    assert "warnings.warn(" not in result.stderr  # no source line


@given(st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("[]/\\:=\x1b\x9b\u202e\n"), max_size=30))
def test_printable_and_markup_are_inert(s):
    shown = printable(s)
    assert not UNSAFE.search(shown) and "\n" not in shown
    # Rich renders the escaped text as exactly the printable characters: no tag, link or style consumed.
    # Embedded between tags, as the CLI prints it: Rich's escape doubles a trailing backslash so that
    # it cannot escape the tag that follows, and that tag's parse turns it back into one.
    assert Text.from_markup(f"[bold]{markup(s)}[/bold]", emoji=False).plain == shown
    if not UNSAFE.search(s) and "\n" not in s:
        assert shown == s


# ---------------------------------------------------------------------------------------------
# Item 22: the format comes from the content; undecodable input is one line.


def test_parquet_named_csv_is_read_as_parquet(data, tmp_path):
    d, frame = data
    for name in ("scores.csv", "scores.txt", "scores"):
        (tmp_path / name).write_bytes((d / "scores.parquet").read_bytes())
        result = invoke("evaluate", tmp_path / name, *BASE["evaluate"], "--json", "-")
        assert result.exit_code == 0, result.stderr
        expected = skm.roc_auc_score(frame["y"].to_numpy(), frame["model_a"].to_numpy())
        assert json.loads(result.stdout)["results"][0]["auroc"] == pytest.approx(expected, rel=1e-12)
    (tmp_path / "text.parquet").write_bytes((d / "scores.csv").read_bytes())  # and CSV named .parquet
    assert invoke("evaluate", tmp_path / "text.parquet", *BASE["evaluate"]).exit_code == 0


@pytest.mark.parametrize(
    "content, message",
    [
        (lambda pq: pq[: len(pq) // 2], "does not end with its magic bytes PAR1"),
        (lambda pq: b"\x1f\x8b\x08\x00" + pq, "gzip archive"),
        (lambda pq: b"PK\x03\x04" + pq, "ZIP archive"),
        (lambda pq: b"y,s\n" + bytes(range(256)), "binary data"),
        (lambda pq: b"y,s\xe9\n1,0.5\n", "header is not UTF-8"),
        (lambda pq: b"y,s\n1,0.5\n0,\xe9\n", "invalid utf-8"),
        (lambda pq: b"", "is empty"),
    ],
)
def test_undecodable_input_is_one_line(data, tmp_path, content, message):
    d, _ = data
    (tmp_path / "in.csv").write_bytes(content((d / "scores.parquet").read_bytes()))
    line = one_line_error(invoke("evaluate", tmp_path / "in.csv", "--label", "y", "--score", "s"))
    assert message in line


def test_quoted_csv_header_names_are_selectable(tmp_path):
    rows = [
        'y,"a""b","c,d","e\nf",g',
        "1,0.9,0.8,0.7,0.6",
        "0,0.1,0.2,0.3,0.4",
        "1,0.8,0.6,0.9,0.1",
        "0,0.3,0.1,0.2,0.5",
    ]
    (tmp_path / "q.csv").write_text("\n".join(rows) + "\n")
    out = tmp_path / "q.json"
    result = invoke(
        "evaluate",
        tmp_path / "q.csv",
        "--label",
        "y",
        "--score",
        'a"b',
        "--score",
        "c,d",
        "--score",
        "e\nf",
        "--json",
        out,
    )
    assert result.exit_code == 0, result.stderr
    auroc = {r["score"]: r["auroc"] for r in json.loads(out.read_text())["results"]}
    y = [1, 0, 1, 0]
    assert auroc == {
        'a"b': skm.roc_auc_score(y, [0.9, 0.1, 0.8, 0.3]),
        "c,d": skm.roc_auc_score(y, [0.8, 0.2, 0.6, 0.1]),
        "e\nf": skm.roc_auc_score(y, [0.7, 0.3, 0.9, 0.2]),
    }


@given(
    st.lists(
        st.text(alphabet=st.sampled_from("ab ,;\"'\n\t[]é"), min_size=1, max_size=6),
        min_size=1,
        max_size=4,
        unique=True,
    ),
    st.sampled_from([csv_quote for csv_quote in (0, 1)]),
    st.sampled_from([",", "\t"]),
)
def test_csv_header_round_trip(names, quote_all, separator):
    """Python's csv module (RFC 4180 quoting) writes the header; every name must be readable as written.

    Names are read stripped of surrounding whitespace on every path (issue 23, item 4): a name
    that is blank, or that equals another once stripped, cannot be told apart and is left out."""
    import csv

    stripped = [n.strip() for n in names]
    assume(all(stripped) and len(set(stripped)) == len(stripped))

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("h.tsv" if separator == "\t" else "h.csv")
        with open(path, "w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh, delimiter=separator, quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
            writer.writerow(names)
            writer.writerow(range(len(names)))
            writer.writerow(range(10, 10 + len(names)))
        columns = io_module.read_columns(path, names)
    assert {name: list(col) for name, col in columns.items()} == {name: [k, 10 + k] for k, name in enumerate(names)}


# ---------------------------------------------------------------------------------------------
# Item 23: out of memory says how large the input was and what to do.


def _numpy_out_of_memory(*args, **kwargs):
    return np.empty(2**50)  # NumPy's own MemoryError (_ArrayMemoryError), raised without allocating


@pytest.mark.parametrize(
    "command, target, n_columns",
    [("evaluate", "evaluate_scores", 2), ("report", "evaluate_scores", 2), ("compare", "compare_scores", 3)],
)
def test_out_of_memory_is_one_line_with_the_input_size(workdir, monkeypatch, command, target, n_columns):
    patch_commands(monkeypatch, target, _numpy_out_of_memory)
    f = workdir / "scores.csv"
    extra = ["-o", workdir / "r.html"] if command == "report" else []
    line = one_line_error(invoke(command, f, *BASE[command], *extra), code=1)
    assert "out of memory" in line and f"{2000:,} rows x {n_columns} columns" in line
    assert f"{os.path.getsize(f):,} bytes" in line and "fewer score columns" in line and "sample" in line
    assert not (workdir / "r.html").exists()


def test_arrow_out_of_memory_while_reading(workdir, monkeypatch):
    def arrow_oom(*args, **kwargs):
        raise pa.ArrowMemoryError("malloc of size 1073741824 failed")

    patch_commands(monkeypatch, "read_columns", arrow_oom)
    line = one_line_error(invoke("evaluate", workdir / "scores.csv", *BASE["evaluate"]), code=1)
    assert "out of memory" in line and "rows x 2 columns" in line


# ---------------------------------------------------------------------------------------------
# Item 8 (command line): --weight-kind.


@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
def test_weight_kind_needs_weight(workdir, command):
    extra = ["-o", workdir / "r.html"] if command == "report" else []
    line = one_line_error(invoke(command, workdir / "scores.csv", *BASE[command], *extra, "--weight-kind", "frequency"))
    assert "--weight-kind" in line and "--weight" in line


@pytest.mark.parametrize(
    "command, target", [("evaluate", "evaluate_scores"), ("compare", "compare_scores"), ("report", "evaluate_scores")]
)
@pytest.mark.parametrize("kind", ["sampling", "frequency", None])
def test_weight_kind_is_passed_to_the_library(workdir, monkeypatch, command, target, kind):
    seen = {}

    def capture(*args, **kwargs):
        seen.update(kwargs)
        raise isometrics.IsometricsError("stop here.")

    patch_commands(monkeypatch, target, capture)
    extra = ["-o", workdir / "r.html"] if command == "report" else []
    kind_args = [] if kind is None else ["--weight-kind", kind]
    one_line_error(invoke(command, workdir / "scores.csv", *BASE[command], *extra, "--weight", "w", *kind_args))
    assert seen.get("weight_kind") == kind and seen["sample_weight"] is not None


@pytest.mark.parametrize("command", ["evaluate", "compare"])
@pytest.mark.parametrize("kind", ["sampling", "frequency"])
def test_weight_kind_is_in_the_json(workdir, data, command, kind):
    _, frame = data
    result = invoke(
        command, workdir / "scores.csv", *BASE[command], "--weight", "freq", "--weight-kind", kind, "--json", "-"
    )
    assert result.exit_code == 0, result.stderr
    payload = json.loads(result.stdout)
    assert payload["weight_kind"] == kind and payload["weight"] == "freq"
    if command == "evaluate":  # point estimates do not depend on the kind: the expanded data's AUROC
        y, s, w = (frame[c].to_numpy() for c in ("y", "model_a", "freq"))
        expected = skm.roc_auc_score(np.repeat(y, w), np.repeat(s, w))
        assert payload["results"][0]["auroc"] == pytest.approx(expected, rel=1e-12)
