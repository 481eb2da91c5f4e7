"""Every command the product prints for the user to run is run here, as printed (issue 20, item 9).

The elicitation page's replay command used to omit ``--pos-label`` (and ``--weight``), so
copying it failed with "cannot infer the positive class"; the demo's "by hand" command did
not quote its path. The commands are collected from what the CLI prints and from the pages
it writes, split as a POSIX shell splits them, and run; each must succeed. Paths here hold a
space, and labels are strings, so quoting and the positive class matter. What is at stake is
the words of each command, not the process: the commands run in this process, as a fresh one
would run them (``_cli.run_in_process``), without the second of start-up each subprocess costs.
"""

from __future__ import annotations

import dataclasses
import html
import re
import shlex

import numpy as np
import polars as pl
import pytest
from _cli import run_in_process
from typer.testing import CliRunner

ENV_WIDE = {"COLUMNS": "400"}  # the commands are printed with soft wrap; a wide terminal keeps them whole


def _run_printed(command: str, cwd):
    """Run ``command`` (``isometrics ...`` as printed) with the words a shell would pass it."""
    words = shlex.split(command)
    assert words[0] == "isometrics", command
    return run_in_process(*words[1:], cwd=cwd)


def _commands(text: str) -> list[str]:
    """The ``isometrics ...`` commands in printed text: from ``isometrics`` to the end of the line."""
    return [m.rstrip(").") for m in re.findall(r"(isometrics (?:elicit|evaluate|report|compare) [^\n]*)", text)]


def _page_commands(page: str) -> list[str]:
    """The ``isometrics ...`` commands a page shows, each in a ``<code>`` element."""
    return [html.unescape(m) for m in re.findall(r"<code>(isometrics [^<]*)</code>", page)]


@pytest.fixture
def labelled(tmp_path):
    folder = tmp_path / "my data"
    folder.mkdir()
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    frame = pl.DataFrame(
        {
            "diagnosis": np.where(y, "malignant", "benign"),
            "model": np.round(rng.normal(size=300) + 1.5 * y, 4),
            "w": rng.integers(1, 4, size=300),
        }
    )
    path = folder / "scores.csv"
    frame.write_csv(path)
    return path


def test_the_elicitation_page_replay_command_runs(labelled, tmp_path, monkeypatch):
    for name, value in ENV_WIDE.items():
        monkeypatch.setenv(name, value)
    page = tmp_path / "page.html"
    res = run_in_process(
        "elicit",
        labelled,
        "--label",
        "diagnosis",
        "--score",
        "model",
        "--pos-label",
        "malignant",
        "--weight",
        "w",
        "-o",
        page,
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    printed = _commands(res.stdout)
    shown = _page_commands(page.read_text())
    assert len(printed) == 1 and len(shown) == 1, (res.stdout, shown)
    assert "--pos-label malignant" in shown[0] and "--weight w" in shown[0]
    assert printed[0] == shown[0]
    # the answers the page downloads: a transcript of the same session, answered here
    answers = run_in_process(
        "elicit",
        labelled,
        "--label",
        "diagnosis",
        "--score",
        "model",
        "--pos-label",
        "malignant",
        "--weight",
        "w",
        "--interactive",
        "--save-answers",
        "answers.json",
        cwd=tmp_path,
        input="r\na\nq\n",
    )
    assert answers.returncode == 0, answers.stderr
    saved = _commands(answers.stdout)
    assert len(saved) == 1
    # a few answers, then "q": the metric is offered as a provisional first guess, still a working option
    assert "Provisional: only " in answers.stdout
    metric = re.search(r"first guess: (--metric (?:'[^']*'|\S+))\.", answers.stdout).group(1)
    for command in [
        shown[0],
        saved[0],
        f"isometrics evaluate {shlex.quote(str(labelled))} --label diagnosis "
        f"--score model --pos-label malignant {metric}",
    ]:
        out = _run_printed(command, tmp_path)
        assert out.returncode == 0, (command, out.stderr)
        assert "threshold on your model" in out.stdout or "Best threshold" in out.stdout


def test_the_demo_by_hand_command_runs(tmp_path, monkeypatch):
    """The demo's data are replaced by a small file of the same shape and its bootstrap by fewer replicates (the
    demo itself runs in test_cli.py)."""
    import isometrics.cli.app as cli_module
    import isometrics.cli.demo as demo_module
    from isometrics.cli.demo import LABEL, SCORES, DemoData

    def small_demo(output_dir, random_state=0):
        rng = np.random.default_rng(random_state)
        y = (rng.random(200) < 0.2).astype(np.int8)
        output_dir.mkdir(parents=True, exist_ok=True)
        path = output_dir / "default_scores.parquet"
        pl.DataFrame({LABEL: y, **{s: rng.normal(size=200) + y for s in SCORES}}).write_parquet(path)
        return DemoData(path=path, label=LABEL, scores=SCORES, n_train=200, n_test=200)

    def fewer_resamples(request, console, report):
        # the bootstrap's 1000 replicates make no word of the printed command (test_cli.py runs them all)
        return evaluate_file(dataclasses.replace(request, n_resamples=50), console, report=report)

    evaluate_file = demo_module._evaluate_file
    monkeypatch.setattr(demo_module, "make_demo_scores", small_demo)  # the demo command looks it up there
    monkeypatch.setattr(demo_module, "_evaluate_file", fewer_resamples)
    res = CliRunner().invoke(cli_module.app, ["demo", "--output-dir", str(tmp_path / "demo out")], env=ENV_WIDE)
    assert res.exit_code == 0, res.output
    printed = [c for c in _commands(res.output) if c.startswith("isometrics evaluate")]
    assert len(printed) == 1, res.output
    out = _run_printed(printed[0], tmp_path)
    assert out.returncode == 0, (printed[0], out.stderr)
    assert all(s in out.stdout for s in SCORES)


def test_the_separator_hint_runs(tmp_path):
    path = tmp_path / "semi colon.csv"
    path.write_text("y;s\n1;0.9\n0;0.2\n1;0.6\n0;0.7\n")
    res = run_in_process("evaluate", path, "--label", "y", "--score", "s", "--separator", ",", cwd=tmp_path)
    hint = re.search(r"pass (--separator \S+)\.$", res.stderr.strip()).group(1)
    out = _run_printed(f"isometrics evaluate {shlex.quote(str(path))} --label y --score s {hint}", tmp_path)
    assert out.returncode == 0, out.stderr
