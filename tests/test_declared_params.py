"""Declared parameters (issue 24, item 5): every public function states what each parameter accepts.

A public function is decorated with ``validate_params`` (``isometrics._core.constraints``): the
declaration is recorded on it (``parameter_constraints``), its scalar parameters are checked before
the call and the function is named in every message. These checks introspect the declarations
instead of listing parameters by hand: each public function of ``PUBLIC`` (tests/registry.py) has
one, naming exactly its signature's parameters; each default satisfies its declaration; and every
invalid value a constraint generates (``Constraint.invalid_values``) is refused with an
``InvalidParameterError`` whose message names the function and the parameter.
"""

import inspect

import numpy as np
import pytest
from registry import PUBLIC, REGISTRY

import isometrics as im
from isometrics._core.caller import CALLER, current_caller
from isometrics._core.constraints import (
    ARRAY,
    Boolean,
    InBody,
    Integral,
    Interval,
    Options,
    Real,
    declared_params,
    user_stacklevel,
    validate_params,
)
from isometrics.exceptions import InvalidParameterError

# Public functions without a declaration yet, with the reason. Shrink it; never grow it.
UNDECLARED = {
    # declared; `caller` stays in its signature while cli/out_of_core.py passes caller="--memory-limit"
    "parse_memory": "cli/out_of_core.py still passes `caller` (issue 24, item 5): drop it there, then here",
}

#: Valid keyword arguments of the functions the registry has none for (the body-checked constraints need a valid call).
Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.6, 0.8, 0.2, 0.4, 0.5])
BASELINE = {
    "level_curve": dict(metric="f1", value=0.5),
    "get_scorer": dict(metric="f1"),
    "average_precision_ci": dict(y_true=Y, y_score=S),
    "bootstrap_compare": dict(y_true=Y, y_score={"a": S, "b": S[::-1]}, n_resamples=20, rng=0),
    "compare_scores": dict(y_true=Y, y_score={"a": S, "b": S[::-1]}, n_resamples=20, rng=0),
    "build_multiclass_report": dict(y_true=[0, 1, 2, 2, 1, 0], y_score=np.eye(3)[[0, 1, 2, 1, 1, 0]] * 0.8 + 0.1),
    "elicitation_page": {},
    "recommend": dict(y_true=Y, scores={"a": S, "b": S[::-1]}, metric="f1", cv=None),
}


def _report_baseline():
    """build_report's valid call needs results (evaluated here, not at import)."""
    return dict(results=im.evaluate_scores(Y, {"a": S}, metrics=["f1"]))


def _functions():
    return {
        label: obj
        for label, obj in PUBLIC.items()
        if inspect.isfunction(obj) or (callable(obj) and hasattr(obj, "parameter_constraints"))
    }


FUNCTIONS = _functions()
DECLARED = {label: f for label, f in FUNCTIONS.items() if label not in UNDECLARED}


def _baseline(label, func):
    """(callable, valid keyword arguments) of a public function, from the registry or BASELINE, or None."""
    entry = REGISTRY.get(label)
    for tag in ("messages", "outside"):
        value = getattr(entry, tag, None) if entry is not None else None
        if value and getattr(value[0], "__wrapped__", value[0]) is getattr(func, "__wrapped__", func):
            return dict(value[1])
    if label == "build_report":
        return _report_baseline()
    return dict(BASELINE[label]) if label in BASELINE else None


def signature_problems(func):
    """What is wrong with a function's declaration against its signature (an empty list: nothing)."""
    declared = declared_params(func)
    if declared is None:
        return ["no declaration (decorate it with validate_params)"]
    params = [p for p in inspect.signature(func).parameters if p not in ("self", "cls")]
    problems = [f"`{p}` is not declared" for p in params if p not in declared]
    problems += [f"`{p}` is declared but not a parameter" for p in declared if p not in params]
    if "caller" in params:
        problems.append("`caller` in a public signature: the name comes from the declaration")
    for p, constraints in declared.items():
        if p in params and inspect.signature(func).parameters[p].default is not inspect.Parameter.empty:
            default = inspect.signature(func).parameters[p].default
            if not any(c is None and default is None or c is not None and c.accepts(default) for c in constraints):
                problems.append(f"the default of `{p}` ({default!r}) does not satisfy its declaration")
    return problems


def invalid_cases(label, func):
    """(parameter, value) for every value a declared constraint generates that the whole declaration refuses."""
    cases = []
    for param, constraints in (declared_params(func) or {}).items():
        for constraint in constraints:
            for value in constraint.invalid_values() if constraint is not None else ():
                accepted = any(
                    (c is None and value is None) or (c is not None and c.checked and c.accepts(value))
                    for c in constraints
                )
                if not accepted:
                    cases.append((param, value, constraint.checked))
    return cases


def refusal_problem(label, func, param, value, checked):
    """Call ``func`` with ``param=value``; the problem (a string), or None when it is refused as it should be."""
    kwargs = _baseline(label, func)
    if kwargs is None:
        if not checked:
            return None  # the body checks it and no valid call is known: nothing to call (listed in test_coverage)
        kwargs = {}
    kwargs[param] = value
    name = func.__name__
    try:
        func(**kwargs)
    except InvalidParameterError as exc:
        message = str(exc)
        if not message.startswith(f"{name}:") or param not in message:
            return f"{name}({param}={value!r}) raised a message that names another function or parameter: {message}"
        return None
    except Exception as exc:  # noqa: BLE001 - reported below
        return f"{name}({param}={value!r}) raised {type(exc).__name__}, not InvalidParameterError: {exc}"
    return f"{name}({param}={value!r}) was accepted"


@pytest.mark.parametrize("label", sorted(FUNCTIONS))
def test_every_public_function_declares_its_parameters(label):
    if label in UNDECLARED:
        pytest.skip(UNDECLARED[label])
    assert signature_problems(FUNCTIONS[label]) == [], label


CASES = [
    (label, param, value, checked)
    for label, func in sorted(DECLARED.items())
    for param, value, checked in invalid_cases(label, func)
]


@pytest.mark.parametrize(
    ("label", "param", "value", "checked"), CASES, ids=[f"{c[0]}-{c[1]}-{c[2]!r}"[:80] for c in CASES]
)
def test_declared_constraints_refuse_their_invalid_values(label, param, value, checked):
    with np.errstate(all="ignore"):
        assert refusal_problem(label, DECLARED[label], param, value, checked) is None


def test_body_checked_parameters_have_a_valid_call():
    """A parameter the body checks is tested with a valid call: every function declaring one has one."""
    missing = [
        f"{label} ({param})"
        for label, func in DECLARED.items()
        for param, value, checked in invalid_cases(label, func)
        if not checked and _baseline(label, func) is None
    ]
    assert missing == [], "add a valid call to BASELINE (or a messages entry to tests/registry.py)"


def test_the_checks_fail_on_a_broken_declaration():
    """The checks above catch an undeclared function, a missing or misspelt parameter, a default outside
    its declaration, and an invalid value the function does not refuse."""
    original = im.roc_auc_score.__wrapped__
    declared = {p: list(c) for p, c in declared_params(im.roc_auc_score).items()}
    assert signature_problems(original) == ["no declaration (decorate it with validate_params)"]
    missing = validate_params({p: c for p, c in declared.items() if p != "labels"})(original)
    assert signature_problems(missing) == ["`labels` is not declared"]
    misspelt = validate_params({**{p: c for p, c in declared.items() if p != "labels"}, "label": ARRAY})(original)
    assert signature_problems(misspelt) == ["`labels` is not declared", "`label` is declared but not a parameter"]
    strict = validate_params({**declared, "multi_class": Options("ovr", "ovo")})(original)
    assert signature_problems(strict) == ["the default of `multi_class` ('raise') does not satisfy its declaration"]
    # a declared invalid value the function accepts: average="macro" is valid, so declaring it invalid fails
    wrong = validate_params({**declared, "average": [InBody("an average", invalid=["macro"])]})(original)
    [case] = [c for c in invalid_cases("roc_auc_score", wrong) if c[0] == "average"]
    assert refusal_problem("roc_auc_score", wrong, *case) == "roc_auc_score(average='macro') was accepted"
    # a checked constraint the declaration gets wrong: max_fpr declared as a whole number is refused for 0.5 too
    assert declared_params(im.roc_auc_score)["max_fpr"][0].accepts(0.5)


def test_the_outermost_declared_function_names_the_messages():
    seen = []

    @validate_params({"x": Interval(Real, 0, 1)})
    def inner(x):
        seen.append(current_caller())
        return x

    @validate_params({"x": Interval(Real, 0, 1)})
    def outer(x):
        seen.append(current_caller())
        return inner(2 * x)

    assert outer(0.25) == 0.5 and seen == ["outer", "outer"]
    with pytest.raises(InvalidParameterError, match=r"^outer: `x` must be a real number >= 0 and <= 1; got 1.5"):
        outer(0.75)  # inner refuses its x, and names the function the user called
    assert CALLER.get() is None and current_caller() == "isometrics"
    with pytest.raises(InvalidParameterError, match=r"^inner: `x`"):
        inner(3)


def test_worker_threads_see_the_callers_name():
    from isometrics._core.parallel import ordered_map

    @validate_params({"n": Interval(Real, 0, None)})
    def public(n):
        return list(ordered_map(lambda _: current_caller(), range(4), workers=int(n)))

    assert public(2) == ["public"] * 4
    assert public(1) == ["public"] * 4


def test_the_wrapper_keeps_the_function_introspectable_and_picklable():
    import pickle

    f = im.roc_auc_score
    assert f.__name__ == "roc_auc_score" and f.__module__ == "isometrics.spaces.roc_auc"
    assert "Area under the ROC curve" in f.__doc__
    assert list(inspect.signature(f).parameters)[:2] == ["y_true", "y_score"]
    assert pickle.loads(pickle.dumps(f)) is f


def test_warnings_skip_the_wrappers():
    import warnings

    @validate_params({"x": Boolean()})
    def inner(x):
        warnings.warn("here", UserWarning, stacklevel=user_stacklevel(3))  # inner, outer, the user's line

    @validate_params({"x": Boolean()})
    def outer(x):
        inner(x)

    with pytest.warns(UserWarning) as record:
        line = inspect.currentframe().f_lineno + 1
        outer(True)
    assert (record[0].filename, record[0].lineno) == (__file__, line)


@pytest.mark.parametrize(
    "interval",
    [
        Interval(Real, 0, 1),
        Interval(Real, 0, 1, closed="neither"),
        Interval(Real, 0, None, allow_inf=True),
        Interval(Real, None, None),
        Interval(Integral, 2, None),
        Interval(Integral, 1, 5),
    ],
    ids=repr,
)
def test_an_intervals_shortcut_agrees_with_its_checker(interval):
    """Interval.accepts decides Python ints and floats itself (speed); check_real/check_integer decide the rest."""
    for value in (
        0,
        1,
        0.5,
        -1,
        2,
        1.0,
        2.5,
        np.inf,
        -np.inf,
        np.nan,
        3,
        5,
        6,
        7.0,
        1e300,
        -0.0,
        np.float64(0.5),
        True,
    ):
        try:
            interval._check(value, "x")
            expected = True
        except InvalidParameterError:
            expected = False
        assert interval.accepts(value) is expected, value
