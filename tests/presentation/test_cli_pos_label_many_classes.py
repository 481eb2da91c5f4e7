"""``--pos-label CLASS`` means one thing in every command (its help is declared once, cli/_options.py): on a
label column of more than two classes, that class against the rest. ``evaluate`` and ``report`` did so;
``compare`` and ``elicit`` refused the column. Their results must equal those on the column binarised by hand.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("typer")

from typer.testing import CliRunner  # noqa: E402

import isometrics as im  # noqa: E402
from isometrics.cli.app import app  # noqa: E402


@pytest.fixture(scope="module")
def three_classes(tmp_path_factory):
    rng = np.random.default_rng(11)
    n = 240
    y = rng.choice(["a", "b", "c"], n)
    s1 = (y == "b") + rng.normal(0, 0.9, n)
    s2 = (y == "b") + rng.normal(0, 1.3, n)
    path = tmp_path_factory.mktemp("classes") / "three.csv"
    lines = ["y,is_b,s1,s2"] + [f"{y[i]},{int(y[i] == 'b')},{float(s1[i])!r},{float(s2[i])!r}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path, y, s1


def _run(*args):
    res = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    return res


def test_compare_takes_one_class_against_the_rest(three_classes, tmp_path):
    path, _, _ = three_classes
    base = ["compare", path, "--score", "s1", "--score", "s2", "--n-resamples", 30, "--seed", 4]
    _run(*base, "--label", "y", "--pos-label", "b", "--json", tmp_path / "classes.json")
    _run(*base, "--label", "is_b", "--json", tmp_path / "binary.json")
    classes, binary = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("classes", "binary"))
    assert classes.pop("label") == "y" and binary.pop("label") == "is_b"
    assert classes == binary  # the same comparison, bit for bit (same replicates)


def test_elicit_takes_one_class_against_the_rest(three_classes, tmp_path):
    path, y, s1 = three_classes
    session = im.elicitation.Elicitation.from_scores(y == "b", s1, local_budget=2, pairwise_budget=3)
    result = session.run(im.elicitation.SimulatedStakeholder(1.5, -3.0))
    result.save(tmp_path / "a.json")
    res = _run("elicit", path, "--label", "y", "--pos-label", "b", "--score", "s1", "--answers", tmp_path / "a.json")
    best = im.best_threshold(y == "b", s1, metric=result.metric)  # the threshold on that class against the rest
    assert f"{best.threshold:.6g}" in res.output and "threshold on your model" in res.output
