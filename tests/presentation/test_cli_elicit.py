"""``isometrics elicit``: the terminal session (answers fed on stdin) and the replay of saved answers."""

import json

import numpy as np
import polars as pl
import pytest
from _cli import run_in_process
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
    session = im.elicitation.Elicitation(local_budget=3, pairwise_budget=3)
    out = []
    while (q := session.next_question()) is not None and len(out) < n:
        a = stakeholder(q)
        out.append({"recall": "r", "precision": "p"}.get(a, a))
        session.answer(a)
    return out, session.result()


def test_interactive_session_asks_the_engines_questions_and_saves_answers(tmp_path):
    answers, expected = _answers(im.elicitation.SimulatedStakeholder(2.0, -2.0), 10)
    path = tmp_path / "answers.json"
    res = runner.invoke(
        app,
        ["elicit", "--interactive", "--local-budget", "3", "--pairwise-budget", "3", "--save-answers", str(path)],
        input="\n".join(answers) + "\n",
    )
    assert res.exit_code == 0, res.output
    assert "of 1,000 cases flagged" in res.output and "Elicited metric" in res.output
    assert expected.metric.spec in res.output
    assert im.elicitation.replay(path).metric == expected.metric
    replayed = runner.invoke(app, ["elicit", "--answers", str(path)])
    assert replayed.exit_code == 0 and expected.metric.spec in replayed.output


def test_replay_with_a_file_names_the_threshold_on_the_model(data, tmp_path):
    d, frame = data
    session = im.elicitation.Elicitation.from_scores(
        frame["y"].to_numpy(), frame["s"].to_numpy(), local_budget=2, pairwise_budget=3
    )
    result = session.run(im.elicitation.SimulatedStakeholder(1.5, -3.0))
    result.save(tmp_path / "a.json")
    res = runner.invoke(
        app, ["elicit", str(d / "scores.csv"), "--label", "y", "--score", "s", "--answers", str(tmp_path / "a.json")]
    )
    assert res.exit_code == 0, res.output
    best = im.best_threshold(frame["y"].to_numpy(), frame["s"].to_numpy(), metric=result.metric)
    assert f"{best.threshold:.6g}" in res.output and "threshold on your model" in res.output


def test_save_answers_to_stdout_carries_only_the_json(tmp_path):
    answers, expected = _answers(im.elicitation.SimulatedStakeholder(0.5, -4.0), 10)
    res = CliRunner().invoke(
        app,
        ["elicit", "--interactive", "--local-budget", "3", "--pairwise-budget", "3", "--save-answers", "-"],
        input="\n".join(answers) + "\n",
    )
    assert res.exit_code == 0, res.output
    echo, brace, payload = res.stdout.partition("{")  # CliRunner echoes the typed answers, as a terminal would
    assert set(echo.split()) <= {"r", "p", "a", "b"}
    assert im.elicitation.replay(json.loads(brace + payload)).metric == expected.metric
    assert "Elicited metric" in res.stderr


def test_wrong_answer_is_asked_again_and_q_stops(tmp_path):
    res = runner.invoke(app, ["elicit", "--interactive"], input="x\nr\nq\n")
    assert res.exit_code == 0, res.output
    assert "please answer 'r' or 'p'" in res.output
    assert "No pairwise question answered yet" in res.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["elicit"], "exactly one of --interactive"),
        (["elicit", "--interactive", "--pairwise-budget", "0"], "`pairwise_budget` must be an integer >= 1; got 0"),
        (["elicit", "--answers", "a.json", "--save-answers", "b.json"], "--save-answers writes the answers of an"),
        (["elicit", "--interactive", "--label", "y"], "give the file"),
    ],
)
def test_bad_usage_is_one_line(args, message):
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert message in res.output


def test_bad_answers_file_names_the_field(tmp_path):
    path = tmp_path / "bad.json"
    good = im.elicitation.Elicitation(local_budget=1, pairwise_budget=1)
    good.answer("recall")
    data = good.transcript.to_dict()
    data["steps"][0]["answer"] = "maybe"
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["elicit", "--answers", str(path)])
    assert res.exit_code == 2
    assert "`steps[0].answer` must be one of 'recall', 'precision'; got 'maybe'" in res.output


def test_the_elicited_spec_works_as_metric_option(data, tmp_path):
    d, frame = data
    result = im.elicitation.Elicitation(local_budget=2, pairwise_budget=2).run(
        im.elicitation.SimulatedStakeholder(0.6, -1.5)
    )
    res = runner.invoke(
        app, ["evaluate", str(d / "scores.csv"), "--label", "y", "--score", "s", "--metric", result.metric.spec]
    )
    assert res.exit_code == 0, res.output
    best = im.best_threshold(frame["y"].to_numpy(), frame["s"].to_numpy(), metric=result.metric)
    assert result.metric.spec in res.output and f"{best.threshold:.6g}" in res.output


# ---------------------------------------------------------------------------- issue 21 items 7 and 8
def _always_recall(question):
    """A stakeholder who always prefers recall: the local answer "recall", the model with the higher recall."""
    if question.kind == "local":
        return "recall"
    return "a" if question.a[1] > question.b[1] else "b"


def test_end_of_input_keeps_and_saves_what_was_answered(tmp_path):
    path = tmp_path / "answers.json"
    # in this process, standard input a stream that ends (as a pipe does) after two answers
    res = run_in_process("elicit", "--interactive", "--save-answers", path, input="r\nr\n")
    assert res.returncode == 0, res.stderr
    assert "Aborted" not in res.stdout + res.stderr and "Traceback" not in res.stderr
    assert "end of input: stopping after 2 answers" in res.stdout
    saved = im.elicitation.load_transcript(path)
    assert [s.answer for s in saved.steps] == ["recall", "recall"]
    # quitting early: the metric is provisional, never "use it anywhere"
    assert "Provisional: only 2 answers (2 local, 0 pairwise)" in res.stdout
    assert "Use it anywhere" not in res.stdout


def test_end_of_input_before_any_answer_saves_an_empty_transcript(tmp_path):
    path = tmp_path / "answers.json"
    res = run_in_process("elicit", "--interactive", "--save-answers", path, input="")  # as /dev/null: at its end
    assert res.returncode == 0, res.stderr
    assert "Aborted" not in res.stdout + res.stderr
    assert im.elicitation.load_transcript(path).steps == () and "Provisional: only 0 answers" in res.stdout


def test_the_results_table_speaks_the_stakeholders_words(tmp_path):
    result = im.elicitation.Elicitation(local_budget=3, pairwise_budget=3).run(
        im.elicitation.SimulatedStakeholder(2.0, -2.0)
    )
    result.save(tmp_path / "a.json")
    res = runner.invoke(app, ["elicit", "--answers", str(tmp_path / "a.json")])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.replace("│", " ").split())
    for gone in ("taken as exact", "loses at most", "weight of recall"):
        assert gone not in out
    assert "at which a point of either is worth the same" in out and "your answers" in out
    assert "whichever plausible metric is yours, this point scores at most" in out


def test_a_decision_that_flags_everyone_is_warned_about(tmp_path):
    with pytest.warns(im.exceptions.DegenerateDataWarning):
        result = im.elicitation.Elicitation().run(_always_recall)
    assert result.trivial_decision == "everyone"
    result.save(tmp_path / "a.json")
    res = runner.invoke(app, ["elicit", "--answers", str(tmp_path / "a.json")])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.replace("│", " ").split())
    assert (
        "warning: the metric picks the top-recall end of the curve (recall 100.0%, its lowest precision 20.0%)" in out
        and "flags (nearly) every case" in out
    )
    assert "isometrics: warning: ElicitationResult" not in out  # said once, in the user's words
    assert "you preferred a gain in recall" in out


def test_on_the_model_a_threshold_that_flags_everyone_is_warned_about(data, tmp_path):
    d, frame = data
    session = im.elicitation.Elicitation.from_scores(frame["y"].to_numpy(), frame["s"].to_numpy())
    with pytest.warns(im.exceptions.DegenerateDataWarning):
        result = session.run(_always_recall)
    result.save(tmp_path / "a.json")
    best = im.best_threshold(frame["y"].to_numpy(), frame["s"].to_numpy(), metric=result.metric)
    assert best.fn == 0 and best.tn == 12  # recall 1: the model's best threshold flags all but 12 cases
    res = runner.invoke(
        app, ["elicit", str(d / "scores.csv"), "--label", "y", "--score", "s", "--answers", str(tmp_path / "a.json")]
    )
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.replace("│", " ").split())
    assert "warning: the metric picks the threshold on your model (recall 100.0%" in out
    prevalence = frame["y"].to_numpy().mean()
    assert (
        f"On your model it flags 588 of 600 cases (precision {best.precision:.1%}; flagging every case gives "
        f"{prevalence:.1%})" in out
    )
