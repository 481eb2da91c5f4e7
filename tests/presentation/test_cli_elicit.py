"""``isometrics elicit``: the terminal session (answers fed on stdin) and the replay of saved answers."""

import json

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import isometrics as im
from isometrics.cli.app import app

runner = CliRunner()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(3)
    y = (rng.random(600) < 0.3).astype(int)
    frame = pl.DataFrame({"y": y, "s": rng.normal(size=600) + 1.2 * y})
    d = tmp_path_factory.mktemp("elicit")
    frame.write_csv(d / "scores.csv")
    return d, frame


def _answers(stakeholder, n):
    """The answers the stakeholder gives to the session's first n questions (the CLI asks the same)."""
    session = im.Elicitation(local_budget=3, pairwise_budget=3)
    out = []
    while (q := session.next_question()) is not None and len(out) < n:
        a = stakeholder(q)
        out.append({"recall": "r", "precision": "p"}.get(a, a))
        session.answer(a)
    return out, session.result()


def test_interactive_session_asks_the_engines_questions_and_saves_answers(tmp_path):
    answers, expected = _answers(im.SimulatedStakeholder(2.0, -2.0), 10)
    path = tmp_path / "answers.json"
    res = runner.invoke(app, ["elicit", "--interactive", "--local-budget", "3", "--pairwise-budget", "3",
                              "--save-answers", str(path)], input="\n".join(answers) + "\n")
    assert res.exit_code == 0, res.output
    assert "of 1,000 cases flagged" in res.output and "Elicited metric" in res.output
    assert expected.metric.spec in res.output
    assert im.replay(path).metric == expected.metric
    replayed = runner.invoke(app, ["elicit", "--answers", str(path)])
    assert replayed.exit_code == 0 and expected.metric.spec in replayed.output


def test_replay_with_a_file_names_the_threshold_on_the_model(data, tmp_path):
    d, frame = data
    session = im.Elicitation.from_scores(frame["y"].to_numpy(), frame["s"].to_numpy(), local_budget=2,
                                         pairwise_budget=3)
    result = session.run(im.SimulatedStakeholder(1.5, -3.0))
    result.save(tmp_path / "a.json")
    res = runner.invoke(app, ["elicit", str(d / "scores.csv"), "--label", "y", "--score", "s",
                              "--answers", str(tmp_path / "a.json")])
    assert res.exit_code == 0, res.output
    best = im.best_threshold(frame["y"].to_numpy(), frame["s"].to_numpy(), metric=result.metric)
    assert f"{best.threshold:.6g}" in res.output and "threshold on your model" in res.output


def test_save_answers_to_stdout_carries_only_the_json(tmp_path):
    answers, expected = _answers(im.SimulatedStakeholder(0.5, -4.0), 10)
    res = CliRunner().invoke(app, ["elicit", "--interactive", "--local-budget", "3", "--pairwise-budget", "3",
                                   "--save-answers", "-"], input="\n".join(answers) + "\n")
    assert res.exit_code == 0, res.output
    echo, brace, payload = res.stdout.partition("{")  # CliRunner echoes the typed answers, as a terminal would
    assert set(echo.split()) <= {"r", "p", "a", "b"}
    assert im.replay(json.loads(brace + payload)).metric == expected.metric
    assert "Elicited metric" in res.stderr


def test_wrong_answer_is_asked_again_and_q_stops(tmp_path):
    res = runner.invoke(app, ["elicit", "--interactive"], input="x\nr\nq\n")
    assert res.exit_code == 0, res.output
    assert "please answer 'r' or 'p'" in res.output
    assert "No pairwise question answered yet" in res.output


@pytest.mark.parametrize("args, message", [
    (["elicit"], "exactly one of --interactive"),
    (["elicit", "--interactive", "--pairwise-budget", "0"], "`pairwise_budget` must be an integer >= 1; got 0"),
    (["elicit", "--answers", "a.json", "--save-answers", "b.json"], "--save-answers writes the answers of an"),
    (["elicit", "--interactive", "--label", "y"], "give the file"),
])
def test_bad_usage_is_one_line(args, message):
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert message in res.output


def test_bad_answers_file_names_the_field(tmp_path):
    path = tmp_path / "bad.json"
    good = im.Elicitation(local_budget=1, pairwise_budget=1)
    good.answer("recall")
    data = good.transcript.to_dict()
    data["steps"][0]["answer"] = "maybe"
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["elicit", "--answers", str(path)])
    assert res.exit_code == 2
    assert "`steps[0].answer` must be one of 'recall', 'precision'; got 'maybe'" in res.output


def test_the_elicited_spec_works_as_metric_option(data, tmp_path):
    d, frame = data
    result = im.Elicitation(local_budget=2, pairwise_budget=2).run(im.SimulatedStakeholder(0.6, -1.5))
    res = runner.invoke(app, ["evaluate", str(d / "scores.csv"), "--label", "y", "--score", "s",
                              "--metric", result.metric.spec])
    assert res.exit_code == 0, res.output
    best = im.best_threshold(frame["y"].to_numpy(), frame["s"].to_numpy(), metric=result.metric)
    assert result.metric.spec in res.output and f"{best.threshold:.6g}" in res.output
