"""Hostile input to every public callable of ``isometrics.irt`` (issue 23, items 1, 2 and 4).

``CASES`` maps each public callable of :mod:`isometrics.irt` (its ``__all__``, and the public
methods of its classes that take an argument) to bad inputs and the message expected: the
library's own error (:class:`IsometricsError`), one line, naming the function and the parameter.
``test_every_public_irt_callable_is_registered`` fails for a new public callable that is neither
in ``CASES`` nor in ``EXEMPT`` (with the reason). The item-by-item tests below them are the
regressions of issue 23: each failed on the code before it.
"""

import dataclasses
import inspect
import math
import tempfile

import numpy as np
import pandas as pd
import pytest
from _cli import run_in_process as cli_in_process

import isometrics as im
from isometrics import irt
from isometrics.exceptions import InvalidParameterError, IsometricsError

GOOD = np.random.default_rng(23).uniform(0.1, 0.9, (6, 12))


@pytest.fixture(scope="module")
def bank():
    return im.irt.fit_beta3(GOOD, items=[f"d{j}" for j in range(12)])


def _bank():
    return im.irt.fit_beta3(GOOD, items=[f"d{j}" for j in range(12)])


def _replace(**fields):
    """A bank built with some fields replaced: the constructor is where the bank is checked."""
    return lambda: dataclasses.replace(_bank(), **fields)


def _tampered(**fields):
    """A bank whose fields were changed behind the constructor's back (as an old pickle could hold)."""
    bank = _bank()
    for name, value in fields.items():
        object.__setattr__(bank, name, value)
    return bank


def _shifted(name, index, value):
    array = getattr(_bank(), name).copy()
    array[index] = value
    return array


def _file():
    """A scratch file (not a folder) for the cache checks."""
    handle = tempfile.NamedTemporaryFile(suffix=".txt", delete=False)
    handle.write(b"not a folder")
    handle.close()
    return handle.name


_A_FILE = _file()
_RESPOND = lambda item: 0.6

# name -> [(id, call, regular expression the message must match)]
CASES = {
    "fit_beta3": [
        ("words", lambda: im.irt.fit_beta3("hello world"), r"^fit_beta3: `responses` must be a 2-D array .*got a str"),
        (
            "word cells",
            lambda: im.irt.fit_beta3([["a", "b"], ["c", "d"]]),
            r"^fit_beta3: `responses` cell \[0, 0\] holds 'a'",
        ),
        (
            "a dict",
            lambda: im.irt.fit_beta3({"a": [0.1, 0.2], "b": [0.3, 0.4]}),
            r"^fit_beta3: `responses` must be a 2-D array .*got a dict.*data frame",
        ),
        (
            "ragged",
            lambda: im.irt.fit_beta3([[0.1, 0.2], [0.3]]),
            r"^fit_beta3: `responses` rows have different lengths \(row 0 has 2 cells, row 1 has 1\)",
        ),
        (
            "numeric strings",
            lambda: im.irt.fit_beta3([["0.1", "0.2"], ["0.3", "0.4"], ["0.5", "0.6"]]),
            r"^fit_beta3: `responses` cell \[0, 0\] holds '0.1' \(a str\)",
        ),
        (
            "numeric strings array",
            lambda: im.irt.fit_beta3(np.array([["0.1", "0.2"], ["0.3", "0.4"]])),
            r"^fit_beta3: `responses` cell \[0, 0\] holds '0.1' \(a str\)",
        ),
        ("a set", lambda: im.irt.fit_beta3({0.1, 0.2}), r"^fit_beta3: `responses` must be a 2-D array .*got a set"),
        ("None", lambda: im.irt.fit_beta3(None), r"^fit_beta3: `responses` must be .*got "),
        ("1-D", lambda: im.irt.fit_beta3([0.1, 0.2]), r"^fit_beta3: `responses` must be 2-D"),
        (
            "above 1",
            lambda: im.irt.fit_beta3(np.where(np.eye(6, 12) == 1, 1.5, GOOD)),
            r"^fit_beta3: responses must lie in \[0, 1\]",
        ),
        (
            "inf",
            lambda: im.irt.fit_beta3(np.where(np.eye(6, 12) == 1, np.inf, GOOD)),
            r"^fit_beta3: `responses` must be finite",
        ),
        ("booleans", lambda: im.irt.fit_beta3(GOOD > 0.5), r"^fit_beta3: `responses` holds booleans"),
        ("eps 0.7", lambda: im.irt.fit_beta3(GOOD, eps=0.7), r"^fit_beta3: `eps` must be a real number > 0 and < 0.5"),
        ("eps word", lambda: im.irt.fit_beta3(GOOD, eps="a"), r"^fit_beta3: `eps` must be a real number"),
        ("max_iter", lambda: im.irt.fit_beta3(GOOD, max_iter=0), r"^fit_beta3: `max_iter` must be an integer >= 1"),
        ("missing", lambda: im.irt.fit_beta3(GOOD, missing="drop"), r"^fit_beta3: `missing` must be one of"),
        ("resolution", lambda: im.irt.fit_beta3(GOOD, resolution=2.0), r"^fit_beta3: `resolution` must be a number"),
        ("items", lambda: im.irt.fit_beta3(GOOD, items=["a"]), r"^fit_beta3: `items` has 1 names for 12 items"),
        (
            "respondents",
            lambda: im.irt.fit_beta3(GOOD, respondents=["a"] * 6),
            r"^fit_beta3: `respondents` names must be",
        ),
        ("long_form", lambda: im.irt.fit_beta3(GOOD, long_form="abc"), r"^fit_beta3: `long_form` must name 3 columns"),
        ("random_state", lambda: im.irt.fit_beta3(GOOD, random_state=-1), r"^fit_beta3: `random_state` must be None"),
    ],
    "adaptive_test": [
        (
            "bank None",
            lambda: im.irt.adaptive_test(None, _RESPOND),
            r"^adaptive_test: `bank` must be a Beta3IRT.*got NoneType",
        ),
        ("respond 42", lambda: im.irt.adaptive_test(_bank(), 42), r"^adaptive_test: `respond` must be a callable"),
        (
            "respond a str",
            lambda: im.irt.adaptive_test(_bank(), lambda item: "0.5"),
            r"^adaptive_test: `respond` returned '0.5' \(a str\) for item 'd\d+'; .*real number in \[0, 1\]",
        ),
        (
            "respond True",
            lambda: im.irt.adaptive_test(_bank(), lambda item: True),
            r"^adaptive_test: `respond` returned True \(a bool\) for item",
        ),
        (
            "respond NaN",
            lambda: im.irt.adaptive_test(_bank(), lambda item: math.nan),
            r"^adaptive_test: `respond` returned nan for item 'd\d+'; .*in \[0, 1\]",
        ),
        (
            "respond 1.5",
            lambda: im.irt.adaptive_test(_bank(), {f"d{j}": 1.5 for j in range(12)}),
            r"^adaptive_test: `respond` returned 1.5 for item",
        ),
        (
            "respond missing",
            lambda: im.irt.adaptive_test(_bank(), {"d0": 0.5}),
            r"^adaptive_test: `respond` has no response",
        ),
        (
            "available '0'",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, available="0"),
            r"^adaptive_test: `available` must be a list of item names or indices; got '0'",
        ),
        (
            "available a set",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, available={0, 1}),
            r"^adaptive_test: `available` must be a list .*got a set",
        ),
        (
            "available empty",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, available=[]),
            r"^adaptive_test: `available` is empty",
        ),
        (
            "available unknown",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, available=["x"]),
            r"^adaptive_test: unknown item 'x'",
        ),
        (
            "selection",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, selection="best"),
            r"^adaptive_test: `selection` must be one",
        ),
        (
            "max_items",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, max_items=0),
            r"^adaptive_test: `max_items` must be an integer",
        ),
        (
            "se_target",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, se_target=-1),
            r"^adaptive_test: `se_target` must be",
        ),
        ("rng", lambda: im.irt.adaptive_test(_bank(), _RESPOND, rng="x"), r"^adaptive_test: "),
        (
            "start_ability",
            lambda: im.irt.adaptive_test(_bank(), _RESPOND, start_ability=1.0),
            r"^adaptive_test: `start_ability`",
        ),
        (
            "3 difficulties, 12 items",
            lambda: im.irt.adaptive_test(_tampered(difficulty=_bank().difficulty[:3]), _RESPOND),
            r"^adaptive_test: `bank.difficulty` has 3 values for 12 items",
        ),
        (
            "NaN difficulty",
            lambda: im.irt.adaptive_test(_tampered(difficulty=_shifted("difficulty", 4, math.nan)), _RESPOND),
            r"^adaptive_test: `bank.difficulty` must lie in \(0, 1\); item 'd4' has nan",
        ),
        (
            "difficulty 1.5",
            lambda: im.irt.adaptive_test(_tampered(difficulty=_shifted("difficulty", 0, 1.5)), _RESPOND),
            r"^adaptive_test: `bank.difficulty` must lie in \(0, 1\); item 'd0' has 1.5",
        ),
        (
            "NaN discrimination",
            lambda: im.irt.adaptive_test(_tampered(discrimination=_shifted("discrimination", 2, math.nan)), _RESPOND),
            r"^adaptive_test: `bank.discrimination` must be finite; item 'd2' has nan",
        ),
        (
            "eps 0.7",
            lambda: im.irt.adaptive_test(_tampered(eps=0.7), _RESPOND),
            r"^adaptive_test: `bank.eps` must be a real number > 0 and < 0.5; got 0.7",
        ),
        (
            "no respondents",
            lambda: im.irt.adaptive_test(
                _tampered(respondents=(), ability=np.zeros(0), ability_se=np.zeros(0)), _RESPOND
            ),
            r"^adaptive_test: `start_ability` is needed: the bank has no respondents",
        ),
    ],
    "Beta3IRT": [
        ("3 difficulties", _replace(difficulty=np.full(3, 0.5)), r"^Beta3IRT: `difficulty` has 3 values for 12 items"),
        ("NaN difficulty", _replace(difficulty=np.full(12, math.nan)), r"^Beta3IRT: `difficulty` must lie in \(0, 1\)"),
        (
            "words",
            _replace(discrimination=["a"] * 12),
            r"^Beta3IRT: `discrimination` must be a real number or an array",
        ),
        (
            "ability 0",
            _replace(ability=np.zeros(6)),
            r"^Beta3IRT: `ability` must lie in \(0, 1\); respondent '0' has 0.0",
        ),
        ("negative se", _replace(ability_se=np.full(6, -1.0)), r"^Beta3IRT: `ability_se` must be >= 0 \(or NaN\)"),
        ("eps", _replace(eps=0.7), r"^Beta3IRT: `eps` must be a real number > 0 and < 0.5"),
        ("items a str", _replace(items="abcdefghijkl"), r"^Beta3IRT: `items` must be a tuple of names"),
        (
            "duplicate items",
            _replace(items=("d0",) * 12),
            r"^Beta3IRT: `items` names must be unique; 'd0' is given twice",
        ),
        (
            "resolution",
            _replace(resolution=np.full(3, 0.1)),
            r"^Beta3IRT: `resolution` must be NaN, a number in \[0, 1\)",
        ),
    ],
    "Beta3IRT.expected_response": [
        (
            "ability 'a'",
            lambda: _bank().expected_response("a", 0),
            r"^Beta3IRT.expected_response: `ability` must be a real number or an array .*got 'a'",
        ),
        ("ability None", lambda: _bank().expected_response(None, 0), r"^Beta3IRT.expected_response: `ability` is None"),
        ("ability 1", lambda: _bank().expected_response(1.0, 0), r"^Beta3IRT.expected_response: `ability` must lie in"),
        ("item", lambda: _bank().expected_response(0.5, "x"), r"^Beta3IRT.expected_response: unknown item 'x'"),
        (
            "item out of range",
            lambda: _bank().expected_response(0.5, 99),
            r"^Beta3IRT.expected_response: item index 99",
        ),
    ],
    "Beta3IRT.information": [
        ("ability 'a'", lambda: _bank().information("a", 0), r"^Beta3IRT.information: `ability` must be a real number"),
        ("ragged", lambda: _bank().information([[0.5], [0.5, 0.6]], 0), r"^Beta3IRT.information: `ability`"),
        ("kind", lambda: _bank().information(0.5, 0, kind="x"), r"^Beta3IRT.information: `kind` must be one of"),
        ("item", lambda: _bank().information(0.5, None), r"^Beta3IRT.information: unknown item None"),
    ],
    "Beta3IRT.item_index": [
        ("unknown", lambda: _bank().item_index("x"), r"^Beta3IRT: unknown item 'x'"),
        ("out of range", lambda: _bank().item_index(12), r"^Beta3IRT: item index 12 is out of range"),
    ],
    **{
        f"Beta3IRT.{kind}_interval": [
            (
                "level word",
                lambda kind=kind: getattr(_bank(), f"{kind}_interval")("a"),
                rf"^Beta3IRT.{kind}_interval: `level` must be a real number",
            ),
            (
                "level 1",
                lambda kind=kind: getattr(_bank(), f"{kind}_interval")(1.0),
                rf"^Beta3IRT.{kind}_interval: `level` must be a real number > 0 and < 1",
            ),
        ]
        for kind in ("ability", "difficulty", "discrimination")
    },
    "build_keel_benchmark": [
        (
            "cache a file",
            lambda: irt.build_keel_benchmark(_A_FILE, datasets=["glass1"], models=["logreg"]),
            r"^build_keel_benchmark: `cache` must be a folder; .* is a file",
        ),
        (
            "cache under a file",
            lambda: irt.build_keel_benchmark(_A_FILE + "/sub", datasets=["glass1"], models=["nb"]),
            r"^build_keel_benchmark: `cache` '.*/sub' cannot hold the benchmark \(Not a directory",
        ),
        ("cache 42", lambda: irt.build_keel_benchmark(42), r"^build_keel_benchmark: `cache` must be a folder path"),
        (
            "datasets 42",
            lambda: irt.build_keel_benchmark("x", datasets=42, models=["logreg"]),
            r"^build_keel_benchmark: `datasets` must be a name or a list of names; got 42",
        ),
        (
            "datasets [42]",
            lambda: irt.build_keel_benchmark("x", datasets=[42], models=["logreg"]),
            r"^build_keel_benchmark: `datasets` holds 42",
        ),
        (
            "datasets empty",
            lambda: irt.build_keel_benchmark("x", datasets=[], models=["logreg"]),
            r"^build_keel_benchmark: `datasets` is empty",
        ),
        (
            "models 42",
            lambda: irt.build_keel_benchmark("x", datasets=["glass1"], models=42),
            r"^build_keel_benchmark: `models` must be a name or a list of names; got 42",
        ),
        (
            "metrics 42",
            lambda: irt.build_keel_benchmark("x", datasets=["glass1"], models=["logreg"], metrics=42),
            r"^build_keel_benchmark: `metrics` must be a name or a list of names; got 42",
        ),
        ("n_jobs", lambda: irt.build_keel_benchmark("x", n_jobs=0), r"^build_keel_benchmark: `n_jobs` must be"),
        ("n_splits", lambda: irt.build_keel_benchmark("x", n_splits="3"), r"^build_keel_benchmark: `n_splits` must be"),
        ("seed", lambda: irt.build_keel_benchmark("x", seed=-1), r"^build_keel_benchmark: `seed` must be"),
    ],
    "read_keel_benchmark": [
        ("cache a file", lambda: irt.read_keel_benchmark(_A_FILE), r"^read_keel_benchmark: `cache` must be a folder; "),
        ("cache None", lambda: irt.read_keel_benchmark(None), r"^read_keel_benchmark: `cache` must be a folder path"),
        (
            "metrics 42",
            lambda: irt.read_keel_benchmark("x", metrics=42),
            r"^read_keel_benchmark: `metrics` must be a name",
        ),
        (
            "metrics unknown",
            lambda: irt.read_keel_benchmark("x", metrics=["nope"]),
            r"^read_keel_benchmark: `metrics` holds",
        ),
        ("empty", lambda: irt.read_keel_benchmark("no-such-folder"), r"^read_keel_benchmark: nothing is cached"),
    ],
    "load_keel_dataset": [
        ("unknown", lambda: irt.load_keel_dataset("nope"), r"^load_keel_dataset: unknown KEEL data set 'nope'"),
        ("None", lambda: irt.load_keel_dataset(None), r"^load_keel_dataset: `name` must be a KEEL data set name"),
        (
            "a list",
            lambda: irt.load_keel_dataset(["glass1"]),
            r"^load_keel_dataset: `name` must be a KEEL data set name",
        ),
    ],
    "keel_response": [
        ("model None", lambda: irt.keel_response(None, "glass1"), r"^keel_response: `model` must be a model spec"),
        (
            "dataset None",
            lambda: irt.keel_response("logreg", None),
            r"^keel_response: `dataset` must be a KEEL data set",
        ),
        ("metric 42", lambda: irt.keel_response("logreg", "glass1", metric=42), r"^keel_response: `metric` must be"),
        (
            "cache a file",
            lambda: irt.keel_response("logreg", "glass1", cache=_A_FILE),
            r"^keel_response: `cache` must be a folder; ",
        ),
        (
            "cache 42",
            lambda: irt.keel_response("logreg", "glass1", cache=42),
            r"^keel_response: `cache` must be a folder path",
        ),
        ("n_splits", lambda: irt.keel_response("logreg", "glass1", n_splits=1), r"^keel_response: `n_splits` must be"),
    ],
    "parse_classifier_spec": [
        ("None", lambda: irt.parse_classifier_spec(None), r"^parse_classifier_spec: a model spec must be a string"),
        ("empty", lambda: irt.parse_classifier_spec(""), r"^parse_classifier_spec: unknown model ''"),
        ("code", lambda: irt.parse_classifier_spec("sklearn.os.system('ls')"), r"^parse_classifier_spec: model "),
        ("bad value", lambda: irt.parse_classifier_spec("logreg:C=-1"), r"^parse_classifier_spec: model 'logreg:C=-1'"),
        ("unknown key", lambda: irt.parse_classifier_spec("logreg:Q=1"), r"^parse_classifier_spec: model 'logreg:Q=1'"),
    ],
    "KeelBenchmark.matrix": [
        ("not computed", lambda: _keel_bench().matrix("f1"), r"^KeelBenchmark.matrix: metric 'f1' was not computed"),
        ("metric 42", lambda: _keel_bench().matrix(42), r"^KeelBenchmark.matrix: `metric` must be"),
    ],
}


def _keel_bench():
    return irt.KeelBenchmark(
        models=("a", "b"),
        datasets=("x", "y"),
        metrics=("auroc",),
        responses={"auroc": np.full((2, 2), 0.7)},
        seconds=np.ones((2, 2)),
        cpu_seconds=np.ones((2, 2)),
    )


EXEMPT = {
    "keel_datasets": "takes no argument",
    "AdaptiveTest": "a record that adaptive_test builds from checked input; nothing reads one back as input",
    "KeelBenchmark": "a record that read_keel_benchmark builds from the cache; its matrix() is registered",
    "ClassifierSpec": "built by parse_classifier_spec (registered), which checks the class and every argument",
}


def public_callables():
    """Every public callable of isometrics.irt, and Class.method for each public method that takes an argument."""
    names = set()
    for name in irt.__all__:
        obj = getattr(irt, name)
        if not callable(obj):
            continue  # CLASSIFIER_FAMILIES, DEFAULT_POOL: data
        names.add(name)
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or not inspect.isfunction(member):
                    continue
                if len(inspect.signature(member).parameters) > 1:  # more than self
                    names.add(f"{name}.{attr}")
    return names


def test_every_public_irt_callable_is_registered():
    missing = public_callables() - CASES.keys() - EXEMPT.keys()
    assert not missing, f"register hostile inputs for {sorted(missing)} in CASES, or exempt them with a reason"
    assert not (CASES.keys() | EXEMPT.keys()) - public_callables(), "stale entries"
    assert all(EXEMPT.values())


@pytest.mark.parametrize(
    "name, call, pattern",
    [
        pytest.param(name, call, pattern, id=f"{name}-{label}")
        for name, cases in CASES.items()
        for label, call, pattern in cases
    ],
)
def test_hostile_input_is_the_librarys_error_naming_function_and_parameter(name, call, pattern):
    with pytest.raises(IsometricsError, match=pattern) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and message.startswith(name.split(".")[0])


# ---------------------------------------------------------------------------- issue 23, item by item
def test_item1_fit_beta3_on_words_a_dict_and_ragged_lists_is_the_librarys_error():
    for bad in ("hello world", {"a": [0.1, 0.2], "b": [0.3, 0.4]}, [[0.1, 0.2], [0.3]], [["x", "y"], ["z", "w"]]):
        with pytest.raises(IsometricsError, match=r"^fit_beta3: `responses`"):
            im.irt.fit_beta3(bad)


def test_item1_adaptive_test_on_no_bank_a_short_bank_and_bad_available(bank):
    with pytest.raises(InvalidParameterError, match=r"`bank` must be a Beta3IRT"):
        im.irt.adaptive_test(None, _RESPOND)
    with pytest.raises(IsometricsError, match=r"`bank.difficulty` has 3 values for 12 items"):
        im.irt.adaptive_test(_tampered(difficulty=bank.difficulty[:3]), _RESPOND)
    for available in ("0", {0, 1}):
        with pytest.raises(IsometricsError, match=r"`available` must be a list"):
            im.irt.adaptive_test(bank, _RESPOND, available=available)


def test_item1_expected_response_of_a_word(bank):
    with pytest.raises(IsometricsError, match=r"^Beta3IRT.expected_response: `ability` must be a real number"):
        bank.expected_response("a", 0)
    assert 0 < bank.expected_response(0.5, 0) < 1
    assert bank.expected_response([0.2, 0.8], "d1").shape == (2,)


@pytest.mark.parametrize(
    "field, index, value",
    [("difficulty", 0, math.nan), ("discrimination", 0, math.nan), ("difficulty", 1, 1.5), ("difficulty", 2, 0.0)],
)
def test_item2_a_bank_with_impossible_parameters_is_refused(bank, field, index, value):
    array = getattr(bank, field).copy()
    array[index] = value
    with pytest.raises(IsometricsError, match=rf"^Beta3IRT: `{field}` must .*item 'd{index}'"):
        dataclasses.replace(bank, **{field: array})  # a bank is checked when built ...
    with pytest.raises(IsometricsError, match=rf"^adaptive_test: `bank.{field}` must .*item 'd{index}'"):
        im.irt.adaptive_test(_tampered(**{field: array}), _RESPOND)  # ... and where a test reads it


def test_item2_eps_and_no_respondents(bank):
    with pytest.raises(IsometricsError, match=r"`eps` must be a real number > 0 and < 0.5; got 0.7"):
        dataclasses.replace(bank, eps=0.7)
    with pytest.raises(IsometricsError, match=r"`bank.eps` must"):
        im.irt.adaptive_test(_tampered(eps=0.7), _RESPOND)
    empty = dataclasses.replace(bank, respondents=(), ability=np.zeros(0), ability_se=np.zeros(0))
    with pytest.raises(IsometricsError, match=r"`start_ability` is needed: the bank has no respondents"):
        im.irt.adaptive_test(empty, _RESPOND)
    # a bank of item parameters alone (no respondents) tests from a start the caller gives
    assert im.irt.adaptive_test(empty, _RESPOND, max_items=2, start_ability=0.5).stop_reason == "max_items"


@pytest.mark.parametrize("value", ["0.5", b"0.5", True, np.bool_(False), None, [0.5], 0.5 + 0j])
def test_item2_respond_must_return_a_real_number(bank, value):
    with pytest.raises(IsometricsError, match=r"^adaptive_test: `respond` returned .* for item 'd\d+'"):
        im.irt.adaptive_test(bank, lambda item: value)


def test_item2_respond_may_return_any_real_number_type(bank):
    for value in (0.6, np.float32(0.6), np.float64(0.6), np.array(0.6), 1, np.int64(0)):
        test = im.irt.adaptive_test(bank, lambda item, v=value: v, max_items=2)
        assert test.responses.dtype == float and test.responses[0] == float(value)


def test_item2_numeric_strings_are_refused_naming_the_cell():
    with pytest.raises(IsometricsError, match=r"^fit_beta3: `responses` cell \[1, 0\] holds '0.3' \(a str\)"):
        im.irt.fit_beta3([[0.1, 0.2], ["0.3", 0.4], [0.5, 0.6]])
    frame = pd.DataFrame({"a": [0.1, 0.3, 0.5], "b": ["0.2", "0.4", "0.6"]}, index=["m1", "m2", "m3"])
    with pytest.raises(IsometricsError, match=r"^fit_beta3: `responses` column 'b' \(row 'm1'\) holds '0.2'"):
        im.irt.fit_beta3(frame)


def test_item2_a_pandas_null_is_a_missing_cell_in_every_frame():
    expected = im.irt.fit_beta3(np.where(np.eye(6, 12) == 1, np.nan, GOOD)).ability
    frame = pd.DataFrame(GOOD, columns=[f"d{j}" for j in range(12)]).astype("Float64")
    for i in range(6):
        frame.iloc[i, i] = pd.NA
    mixed = frame.astype({"d7": object})  # one object column among Float64 ones
    objects = frame.astype(object)
    for given in (frame, mixed, objects, frame.to_numpy()):
        fit = im.irt.fit_beta3(given)
        assert fit.n_observed == 6 * 12 - 6
        np.testing.assert_allclose(fit.ability, expected, rtol=1e-6)


def test_item4_benchmark_build_with_a_file_as_cache_is_one_line_exit_2(tmp_path):
    cache = tmp_path / "cache.txt"
    cache.write_text("a file, not a folder")
    result = cli_in_process("benchmark", "build", "--cache", cache, "--datasets", "glass1", "--models", "logreg")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "`cache` must be a folder" in result.stderr and "cache.txt" in result.stderr
    assert cache.read_text() == "a file, not a folder"
