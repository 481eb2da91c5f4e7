"""Nothing half-read: every bad input to the elicitation API raises the library's own error, naming the
function, the parameter or field, the value and the fix (issue 21 item 7, issue 23 items 1-2)."""

import json
import math

import numpy as np
import pytest

import isometrics as im
from isometrics.elicitation import LocalQuestion, PairwiseQuestion
from isometrics.elicitation.linear import LinearStakeholder, synthetic_boundary
from isometrics.exceptions import InvalidParameterError, IsometricsError


@pytest.fixture()
def good():
    session = im.Elicitation(local_budget=1, pairwise_budget=1)
    session.answer("recall")
    return session.transcript.to_dict()


@pytest.mark.parametrize("p, r, name, shown", [
    (1.5, 0.3, "precision", "1.5"),
    (math.nan, 0.3, "precision", "nan"),
    (0, 0.3, "precision", "got 0"),
    ("0.5", 0.3, "precision", "'0.5'"),
    (0.5, 0.0, "recall", "got 0.0"),
    (0.5, True, "recall", "True"),
])
def test_local_question_refuses_points_outside_the_unit_interval(p, r, name, shown):
    with pytest.raises(InvalidParameterError, match=rf"LocalQuestion: `{name}` must be a real number in \(0, 1\]") as e:
        LocalQuestion(p, r)
    assert shown in str(e.value) and "pass a share" in str(e.value)


def test_record_refuses_the_bad_questions_before_weighing_them():
    session = im.Elicitation(local_budget=1, pairwise_budget=1)
    for bad in ((1.5, 0.3), (math.nan, 0.3), (0, 0.3)):
        with pytest.raises(IsometricsError):
            session.record(LocalQuestion(*bad), "recall")
    assert session.n_local == 0  # nothing recorded, the transcript still replays
    session.record(LocalQuestion(0.6, 0.5), "recall")
    assert im.replay(session.transcript).transcript == session.transcript


@pytest.mark.parametrize("a, b, field", [
    ((0.5,), (0.3, 0.5), "`a` must be a point"),
    ((0.5, 0.3), "ab", "`b` must be a point"),
    ((0.5, 1.3), (0.3, 0.5), "`a.recall` must be a real number in (0, 1]"),
    ((0.5, 0.3), (math.nan, 0.5), "`b.precision` must be a real number in (0, 1]"),
])
def test_pairwise_question_names_the_bad_point(a, b, field):
    with pytest.raises(InvalidParameterError) as e:
        PairwiseQuestion(a, b)
    assert str(e.value).startswith("PairwiseQuestion: ") and field in str(e.value)


def test_questions_keep_their_values_as_floats():
    q = LocalQuestion(np.float64(0.5), 1)
    assert (q.precision, q.recall) == (0.5, 1.0) and type(q.recall) is float
    assert PairwiseQuestion((1, 0.5), (0.5, 1)).a == (1.0, 0.5)


def test_latin1_and_deeply_nested_files_are_the_librarys_errors(tmp_path):
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"format": "caf\xe9"}'.encode("latin-1"))
    with pytest.raises(IsometricsError, match=r"load_transcript: .*latin\.json' is not UTF-8 text.*pass the answers"):
        im.load_transcript(latin)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(IsometricsError, match=r"load_transcript: .*deep\.json' nests its JSON too deeply"):
        im.load_transcript(deep)
    with pytest.raises(IsometricsError, match=r"replay: .*deep\.json' nests"):
        im.replay(deep)


@pytest.mark.parametrize("value, shown", [([1, 2], "list"), (42, "int"), (None, "NoneType"), (b"{}", "bytes")])
def test_replay_of_something_that_is_no_transcript(value, shown):
    with pytest.raises(InvalidParameterError, match=rf"replay: `transcript` must be a Transcript.*got {shown}; pass"):
        im.replay(value)


def test_load_transcript_of_none():
    with pytest.raises(InvalidParameterError, match=r"load_transcript: `path` must be the path .*got NoneType"):
        im.load_transcript(None)


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.update(version=True), "`version` must be 1"),
    (lambda d: d["curve"].update(precision=[], recall=[], thresholds=None), "`curve` must hold at least one point"),
    (lambda d: d["curve"].update(precision=[0.0], recall=[0.5], thresholds=None), "`curve` must hold at least one"),
    (lambda d: d["curve"]["precision"].__setitem__(3, 1.5), "`curve.precision[3]` must be a number in [0, 1]"),
    (lambda d: d["curve"]["recall"].__setitem__(0, "inf"), "`curve.recall[0]` must be a finite number; got 'inf'"),
    (lambda d: d["settings"].update(rho_sign="minus"), "`settings.rho_sign` must be one of 'negative'"),
])
def test_bad_transcripts_name_their_field_not_settings(good, edit, field):
    edit(good)
    with pytest.raises(IsometricsError) as e:
        im.replay(good)
    assert field in str(e.value) and "field `settings`" not in str(e.value)


def test_an_empty_curve_is_never_replaced_by_the_default(good, tmp_path):
    good["curve"] = {"precision": [], "recall": [], "thresholds": None}
    (tmp_path / "a.json").write_text(json.dumps(good))
    with pytest.raises(IsometricsError, match="never replaced by the default"):
        im.replay(tmp_path / "a.json")


def test_nan_thresholds_are_refused():
    with pytest.raises(InvalidParameterError, match=r"Elicitation: `thresholds` contains NaN \(first at index 0\)"):
        im.Elicitation([0.5, 0.6], [0.6, 0.5], thresholds=[math.nan, 1.0])


@pytest.mark.parametrize("y, missing", [([0, 0, 0], "positive"), ([1, 1, 1], "negative")])
def test_from_scores_on_one_class(y, missing):
    with pytest.raises(IsometricsError, match=rf"Elicitation.from_scores: y_true has one class \(no {missing}"):
        im.Elicitation.from_scores(np.array(y), np.array([0.1, 0.2, 0.3]), pos_label=1)


def test_lpm_compare_must_answer_true_or_false():
    with pytest.raises(InvalidParameterError, match=r"elicit_linear_metric: `compare` must return True .*got 'B'"):
        im.elicit_linear_metric(lambda first, second: "B", synthetic_boundary(5.0))
    # numpy booleans are booleans
    res = im.elicit_linear_metric(lambda c1, c2: np.bool_(LinearStakeholder(0.6)(c1, c2)), synthetic_boundary(5.0))
    assert abs(res.theta - 0.6) <= 0.01


@pytest.mark.parametrize("point", [(math.nan, 0.5), (0.5,), (0.5, 1.5), "ab", None])
def test_lpm_boundary_must_give_two_shares(point):
    with pytest.raises(InvalidParameterError, match=r"elicit_linear_metric: `boundary` must return \(TP, TN\)"):
        im.elicit_linear_metric(LinearStakeholder(0.6), lambda theta: point)
