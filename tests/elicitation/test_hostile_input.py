"""Nothing half-read: every bad input to the elicitation API raises the library's own error, naming the
function, the parameter or field, the value and the fix (issue 21 item 7, issue 23 items 1-2)."""

import inspect
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
    session = im.elicitation.Elicitation(local_budget=1, pairwise_budget=1)
    session.answer("recall")
    return session.transcript.to_dict()


@pytest.mark.parametrize(
    "p, r, name, shown",
    [
        (1.5, 0.3, "precision", "1.5"),
        (math.nan, 0.3, "precision", "nan"),
        (0, 0.3, "precision", "got 0"),
        ("0.5", 0.3, "precision", "'0.5'"),
        (0.5, 0.0, "recall", "got 0.0"),
        (0.5, True, "recall", "True"),
    ],
)
def test_local_question_refuses_points_outside_the_unit_interval(p, r, name, shown):
    with pytest.raises(InvalidParameterError, match=rf"LocalQuestion: `{name}` must be a real number in \(0, 1\]") as e:
        LocalQuestion(p, r)
    assert shown in str(e.value) and "pass a share" in str(e.value)


def test_record_refuses_the_bad_questions_before_weighing_them():
    session = im.elicitation.Elicitation(local_budget=1, pairwise_budget=1)
    for bad in ((1.5, 0.3), (math.nan, 0.3), (0, 0.3)):
        with pytest.raises(IsometricsError):
            session.record(LocalQuestion(*bad), "recall")
    assert session.n_local == 0  # nothing recorded, the transcript still replays
    session.record(LocalQuestion(0.6, 0.5), "recall")
    assert im.elicitation.replay(session.transcript).transcript == session.transcript


@pytest.mark.parametrize(
    "a, b, field",
    [
        ((0.5,), (0.3, 0.5), "`a` must be a point"),
        ((0.5, 0.3), "ab", "`b` must be a point"),
        ((0.5, 1.3), (0.3, 0.5), "`a.recall` must be a real number in (0, 1]"),
        ((0.5, 0.3), (math.nan, 0.5), "`b.precision` must be a real number in (0, 1]"),
    ],
)
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
        im.elicitation.load_transcript(latin)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(IsometricsError, match=r"load_transcript: .*deep\.json' nests its JSON too deeply"):
        im.elicitation.load_transcript(deep)
    with pytest.raises(IsometricsError, match=r"replay: .*deep\.json' nests"):
        im.elicitation.replay(deep)


@pytest.mark.parametrize("value, shown", [([1, 2], "list"), (42, "int"), (None, "NoneType"), (b"{}", "bytes")])
def test_replay_of_something_that_is_no_transcript(value, shown):
    with pytest.raises(InvalidParameterError, match=rf"replay: `transcript` must be a Transcript.*got {shown}; pass"):
        im.elicitation.replay(value)


def test_load_transcript_of_none():
    with pytest.raises(InvalidParameterError, match=r"load_transcript: `path` must be the path .*got NoneType"):
        im.elicitation.load_transcript(None)


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d.update(version=True), "`version` must be 1"),
        (lambda d: d["curve"].update(precision=[], recall=[], thresholds=None), "`curve` must hold at least one point"),
        (lambda d: d["curve"].update(precision=[0.0], recall=[0.5], thresholds=None), "`curve` must hold at least one"),
        (lambda d: d["curve"]["precision"].__setitem__(3, 1.5), "`curve.precision[3]` must be a number in [0, 1]"),
        (lambda d: d["curve"]["recall"].__setitem__(0, "inf"), "`curve.recall[0]` must be a finite number; got 'inf'"),
        (lambda d: d["settings"].update(rho_sign="minus"), "`settings.rho_sign` must be one of 'negative'"),
    ],
)
def test_bad_transcripts_name_their_field_not_settings(good, edit, field):
    edit(good)
    with pytest.raises(IsometricsError) as e:
        im.elicitation.replay(good)
    assert field in str(e.value) and "field `settings`" not in str(e.value)


def test_an_empty_curve_is_never_replaced_by_the_default(good, tmp_path):
    good["curve"] = {"precision": [], "recall": [], "thresholds": None}
    (tmp_path / "a.json").write_text(json.dumps(good))
    with pytest.raises(IsometricsError, match="never replaced by the default"):
        im.elicitation.replay(tmp_path / "a.json")


def test_nan_thresholds_are_refused():
    with pytest.raises(InvalidParameterError, match=r"Elicitation: `thresholds` contains NaN \(first at index 0\)"):
        im.elicitation.Elicitation([0.5, 0.6], [0.6, 0.5], thresholds=[math.nan, 1.0])


@pytest.mark.parametrize("y, missing", [([0, 0, 0], "positive"), ([1, 1, 1], "negative")])
def test_from_scores_on_one_class(y, missing):
    with pytest.raises(IsometricsError, match=rf"Elicitation.from_scores: y_true has one class \(no {missing}"):
        im.elicitation.Elicitation.from_scores(np.array(y), np.array([0.1, 0.2, 0.3]), pos_label=1)


def test_lpm_compare_must_answer_true_or_false():
    with pytest.raises(InvalidParameterError, match=r"elicit_linear_metric: `compare` must return True .*got 'B'"):
        im.elicitation.elicit_linear_metric(lambda first, second: "B", synthetic_boundary(5.0))
    # numpy booleans are booleans
    res = im.elicitation.elicit_linear_metric(
        lambda c1, c2: np.bool_(LinearStakeholder(0.6)(c1, c2)), synthetic_boundary(5.0)
    )
    assert abs(res.theta - 0.6) <= 0.01


@pytest.mark.parametrize("point", [(math.nan, 0.5), (0.5,), (0.5, 1.5), "ab", None])
def test_lpm_boundary_must_give_two_shares(point):
    with pytest.raises(InvalidParameterError, match=r"elicit_linear_metric: `boundary` must return \(TP, TN\)"):
        im.elicitation.elicit_linear_metric(LinearStakeholder(0.6), lambda theta: point)


# ---------------------------------------------------------------------------- every public callable (issue 23)
# One hostile input or more for each public callable of isometrics.elicitation (functions, constructors and
# public methods that take arguments), with the start of the library's error it must raise: the function,
# then the parameter. ``test_every_public_callable_of_elicitation_is_registered`` fails for a new one.
def _session():
    return im.elicitation.Elicitation(local_budget=1, pairwise_budget=1)


def _hull():
    return im.roc_convex_hull([1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0], range(12, 0, -1))


_EL = im.elicitation
HOSTILE = {
    "Elicitation": [
        (lambda: im.elicitation.Elicitation(rho_sign="minus"), "Elicitation: `rho_sign`"),
        (
            lambda: im.elicitation.Elicitation([0.5, 0.6], [0.6, 0.5], thresholds=[math.nan, 1.0]),
            "Elicitation: `thresholds`",
        ),
    ],
    "Elicitation.from_scores": [
        (lambda: im.elicitation.Elicitation.from_scores(None, [0.1, 0.2]), "Elicitation.from_scores: `y_true`"),
        (
            lambda: im.elicitation.Elicitation.from_scores(np.array([1, 1]), np.array([0.1, 0.2])),
            "Elicitation.from_scores: y_true has one class",
        ),
    ],
    "Elicitation.answer": [(lambda: _session().answer(None), "Elicitation.answer: `answer`")],
    "Elicitation.record": [
        (lambda: _session().record("q", "recall"), "Elicitation.record: `question`"),
        (lambda: _session().record(LocalQuestion(0.6, 0.5), "a"), "Elicitation.record: `answer`"),
    ],
    "Elicitation.run": [
        (lambda: _session().run(42), "Elicitation.run: `stakeholder` must be a callable"),
        (lambda: _session().run(lambda q: 7), "Elicitation.answer: `answer`"),
    ],
    "Elicitation.contains": [
        (lambda: _session().contains("a", 1.0), "Elicitation.contains: `beta` must be a real"),
        (lambda: _session().contains(math.nan, 1.0), "Elicitation.contains: `beta` must be a finite"),
        (lambda: _session().contains(2.0, None), "Elicitation.contains: `rho`"),
    ],
    "LocalQuestion": [
        (lambda: LocalQuestion(1.5, 0.3), "LocalQuestion: `precision`"),
        (lambda: LocalQuestion(0.5, 0.3, options=("x",)), "LocalQuestion: `options`"),
    ],
    "LocalQuestion.meaning": [
        (lambda: LocalQuestion(0.5, 0.5).meaning("maybe"), "LocalQuestion.meaning: `answer`"),
        (lambda: LocalQuestion(0.5, 0.5).meaning("recall", "minus"), "LocalQuestion.meaning: `rho_sign`"),
    ],
    "LocalQuestion.bounds": [(lambda: LocalQuestion(0.5, 0.5).bounds(None), "LocalQuestion.bounds: `answer`")],
    "PairwiseQuestion": [
        (lambda: PairwiseQuestion((0.5,), (0.3, 0.5)), "PairwiseQuestion: `a`"),
        (lambda: PairwiseQuestion((0.5, 0.3), (0.3, 0.5), options=5), "PairwiseQuestion: `options`"),
    ],
    "SimulatedStakeholder": [
        (lambda: im.elicitation.SimulatedStakeholder(math.nan, -1.0), "SimulatedStakeholder: `beta`"),
        (lambda: im.elicitation.SimulatedStakeholder(2.0, -1.0)("recall"), "SimulatedStakeholder: `question`"),
    ],
    "SimulatedStakeholder.local_margin": [
        (
            lambda: im.elicitation.SimulatedStakeholder(2.0, -1.0).local_margin(None),
            "SimulatedStakeholder.local_margin: `question`",
        )
    ],
    "SimulatedStakeholder.value": [
        (lambda: im.elicitation.SimulatedStakeholder(2.0, -1.0).value("a", 0.5), "g_beta_rho: `precision`")
    ],
    "SimulatedStakeholder.best_on": [
        (lambda: im.elicitation.SimulatedStakeholder(2.0, -1.0).best_on([math.nan], [0.5]), "g_beta_rho: `precision`")
    ],
    "LinearStakeholder": [
        (lambda: _EL.LinearStakeholder(math.nan), "LinearStakeholder: `theta`"),
        (lambda: _EL.LinearStakeholder(0.5)((1,), (0.3, 0.4)), "LinearStakeholder: `first`"),
        (lambda: _EL.LinearStakeholder(0.5)((0.3, 0.4), "ab"), "LinearStakeholder: `second`"),
    ],
    "Transcript.from_dict": [
        (lambda: _EL.Transcript.from_dict(5), "load_transcript: field `(top level)`"),
        (
            lambda: _EL.Transcript.from_dict({"format": "isometrics-elicitation", "version": True}),
            "load_transcript: field `version`",
        ),
    ],
    "Transcript.load": [(lambda: _EL.Transcript.load(None), "load_transcript: `path`")],
    "Transcript.save": [
        (lambda: _session().transcript.save(None), "Transcript.save: `path` must be the path"),
        (lambda: _session().transcript.save("."), "Transcript.save: cannot write"),
    ],
    "ElicitationResult.save": [
        (
            lambda: _session().run(im.elicitation.SimulatedStakeholder(2.0, -2.0)).save("."),
            "ElicitationResult.save: cannot write",
        )
    ],
    "load_transcript": [
        (lambda: im.elicitation.load_transcript(None), "load_transcript: `path`"),
        (lambda: im.elicitation.load_transcript(42), "load_transcript: `path`"),
    ],
    "replay": [
        (lambda: im.elicitation.replay(b"{}"), "replay: `transcript`"),
        (lambda: im.elicitation.replay(None), "replay: `transcript`"),
    ],
    "engine_trace": [
        (lambda: _EL.engine_trace(5), "engine_trace: `transcript` must be a Transcript"),
        (lambda: _EL.engine_trace({"format": "x"}), "load_transcript: field `format`"),
    ],
    "hull_slope": [
        (lambda: _EL.hull_slope(5, 1), "hull_slope: `hull` must be a RocHull"),
        (lambda: _EL.hull_slope(_hull(), 99), "hull_slope: `index`"),
    ],
    "synthetic_boundary": [(lambda: _EL.synthetic_boundary(-1), "synthetic_boundary: `a`")],
    "tangency_estimate": [(lambda: im.elicitation.tangency_estimate(None, None), "tangency_estimate: `points`")],
    "elicit_linear_metric": [
        (
            lambda: im.elicitation.elicit_linear_metric(5, _EL.synthetic_boundary(5.0)),
            "elicit_linear_metric: `compare` and `boundary`",
        ),
        (
            lambda: im.elicitation.elicit_linear_metric(_EL.LinearStakeholder(0.6), lambda t: (math.nan, 0.5)),
            "elicit_linear_metric: `boundary` must return",
        ),
    ],
}
# Records the engine builds and hands back (results, steps): not built from user input. A transcript read
# from data is checked by Transcript.from_dict and load_transcript (registered above).
EXEMPT = {
    name: "a record the engine builds; user data reaches it through Transcript.from_dict or load_transcript"
    for name in (
        "Contradiction",
        "Decision",
        "ElicitationResult",
        "LinearMetricResult",
        "Step",
        "TangencyResult",
        "Transcript",
    )
}


def _public_callables():
    names = set()
    for name in _EL.__all__:
        obj = getattr(_EL, name)
        if not callable(obj):
            continue
        names.add(name)
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                function = value.__func__ if isinstance(value, (classmethod, staticmethod)) else value
                if attr.startswith("_") or not inspect.isfunction(function):
                    continue
                parameters = [p for p in inspect.signature(function).parameters if p not in ("self", "cls")]
                if parameters:  # a method that takes an argument can be handed a hostile one
                    names.add(f"{name}.{attr}")
    return names


def test_every_public_callable_of_elicitation_is_registered():
    public = _public_callables()
    assert public - set(HOSTILE) - set(EXEMPT) == set(), "register its hostile inputs in HOSTILE"
    assert set(HOSTILE) | set(EXEMPT) <= public  # no stale entry


@pytest.mark.parametrize("name, k", [(name, k) for name, cases in HOSTILE.items() for k in range(len(cases))])
def test_hostile_input_is_the_librarys_error_naming_function_and_parameter(name, k, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "." is a folder: nothing is written anywhere else
    call, start = HOSTILE[name][k]
    with pytest.raises(IsometricsError) as e:
        call()
    assert str(e.value).startswith(start), str(e.value)


# ---------------------------------------------------------------------------- the command line (issue 23, item 4)
@pytest.mark.parametrize(
    "content, message",
    [
        ('{"format": "caf\xe9"}'.encode("latin-1"), "is not UTF-8 text"),
        (b"[" * 100_000 + b"]" * 100_000, "nests its JSON too deeply"),
    ],
)
def test_elicit_answers_that_cannot_be_read_is_one_line_exit_2(tmp_path, content, message):
    from _cli import run_in_process  # what the command prints and its exit status, not the process

    (tmp_path / "answers.json").write_bytes(content)
    done = run_in_process("elicit", "--answers", tmp_path / "answers.json")
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stdout + done.stderr
    assert "Traceback" not in lines[0] and message in lines[0]
