"""Transcripts: saved as JSON, loaded with checks that name the field, replayed to the same result."""

import json
import math

import numpy as np
import pytest

import isometrics as im
from isometrics.elicitation import LocalQuestion, PairwiseQuestion


@pytest.fixture(scope="module")
def finished():
    session = im.elicitation.Elicitation(local_budget=4, pairwise_budget=4)
    return session.run(im.elicitation.SimulatedStakeholder(0.8, -2.5, pairwise_lambda=50.0, local_lambda=20.0, rng=4))


def test_save_load_replay_reproduces_the_result(finished, tmp_path):
    path = tmp_path / "answers.json"
    finished.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "isometrics-elicitation" and data["version"] == 1
    again = im.elicitation.replay(path)
    assert again.beta == finished.beta and again.rho == finished.rho
    assert again.metric == finished.metric
    assert again.decision == finished.decision
    assert again.stop_reason == finished.stop_reason
    assert im.elicitation.replay(data).beta == finished.beta
    assert im.elicitation.load_transcript(path) == finished.transcript


def test_infinite_lambda_round_trips(tmp_path):
    s = im.elicitation.Elicitation(local_lambda=math.inf, pairwise_lambda=math.inf, local_budget=1, pairwise_budget=1)
    s.answer("precision")
    s.transcript.save(tmp_path / "t.json")
    assert json.loads((tmp_path / "t.json").read_text())["settings"]["pairwise_lambda"] == "inf"
    assert im.elicitation.load_transcript(tmp_path / "t.json").settings["pairwise_lambda"] == math.inf


def test_questions_of_the_users_choice_replay_too(finished):
    s = im.elicitation.Elicitation(local_budget=0)
    s.record(PairwiseQuestion((0.9, 0.4), (0.6, 0.7)), "b")
    s.record(LocalQuestion(0.5, 0.5), "recall")
    assert im.elicitation.replay(s.transcript).beta == s.result().beta


def _data(finished):
    return json.loads(finished.transcript.to_json())


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d.update(version=2), "`version` must be 1"),
        (lambda d: d.update(format="other"), "`format` must be 'isometrics-elicitation'"),
        (lambda d: d.pop("steps"), "`steps` must be a list"),
        (lambda d: d["steps"].append("recall"), "`steps[8]` must be an object"),
        (lambda d: d["steps"][0].update(answer="a"), "`steps[0].answer` must be one of 'recall', 'precision'"),
        (lambda d: d["steps"][5].update(answer="c"), "`steps[5].answer` must be one of 'a', 'b'; got 'c'"),
        (lambda d: d["steps"][5].update(a=[0.5]), "`steps[5].a` must be a list [precision, recall]"),
        (lambda d: d["steps"][0].update(kind="global"), "`steps[0].kind` must be 'local' or 'pairwise'"),
        (lambda d: d["settings"].update(colour=1), "`settings.colour` is not a setting"),
        (lambda d: d["settings"].update(pairwise_budget="3"), "`settings.pairwise_budget` must be an integer"),
        (lambda d: d["curve"].update(recall=[0.5]), "`curve` must have as many"),
    ],
)
def test_bad_answers_files_name_the_field(finished, edit, field):
    data = _data(finished)
    assert len(data["steps"]) == 8
    edit(data)
    with pytest.raises(
        im.IsometricsError,
        match=r"load_transcript: field "
        + field.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(").replace(")", r"\)"),
    ):
        im.elicitation.Transcript.from_dict(data)


def test_budget_below_one_names_the_field(finished):
    data = _data(finished)
    data["settings"]["pairwise_budget"] = 0
    with pytest.raises(im.IsometricsError, match=r"field `settings.pairwise_budget` must be an integer >= 1; got 0"):
        im.elicitation.replay(data)
    data["settings"]["pairwise_budget"] = 3
    data["settings"]["tolerance"] = 2.0
    with pytest.raises(
        im.IsometricsError,
        match=r"replay: transcript field `settings`: Elicitation: "
        r"`tolerance` must be a real number > 0 and < 1; got 2.0",
    ):
        im.elicitation.replay(data)
    with pytest.raises(im.InvalidParameterError, match=r"^Elicitation: `pairwise_budget` must be an integer >= 1"):
        im.elicitation.Elicitation(pairwise_budget=0)


def test_answer_outside_the_options():
    s = im.elicitation.Elicitation()
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^Elicitation.answer: `answer` must be one of 'recall', "
        r"'precision'; got 'a'",
    ):
        s.answer("a")
    assert not s.transcript.steps  # nothing recorded


def test_unreadable_files(tmp_path):
    with pytest.raises(im.IsometricsError, match="cannot read"):
        im.elicitation.load_transcript(tmp_path / "missing.json")
    (tmp_path / "x.json").write_text("{not json")
    with pytest.raises(im.IsometricsError, match="is not JSON"):
        im.elicitation.load_transcript(tmp_path / "x.json")
    (tmp_path / "y.json").write_text("[1, 2]")
    with pytest.raises(im.IsometricsError, match=r"field `\(top level\)` must be an object"):
        im.elicitation.load_transcript(tmp_path / "y.json")


def test_replay_keeps_recorded_questions_even_if_the_engine_would_ask_others(finished):
    data = _data(finished)
    data["steps"][5]["a"], data["steps"][5]["b"] = [0.9, 0.2], [0.2, 0.9]
    result = im.elicitation.replay(data)
    assert result.transcript.steps[5].question.a == (0.9, 0.2)
    assert np.isfinite(result.beta)


def test_engine_trace_follows_the_session(finished):
    trace = im.elicitation.engine_trace(finished.transcript)
    assert len(trace) == len(finished.transcript.steps) + 1
    for entry, step in zip(trace, finished.transcript.steps):
        assert entry["asked"] == step.question.to_dict()  # the session asked what the engine asks
    assert trace[-1]["asked"] is None and trace[-1]["stop_reason"] == finished.stop_reason
    assert math.exp(trace[-1]["log_beta"]) == finished.beta and trace[-1]["rho"] == finished.rho
