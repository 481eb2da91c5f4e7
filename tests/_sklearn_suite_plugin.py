"""pytest plugin: scikit-learn's own metric tests, run against isometrics' functions of the same names.

Loaded by ``tests/test_sklearn_suite.py`` in a child pytest run over the test files that
ship inside the installed scikit-learn (``sklearn/metrics/tests/test_classification.py``
and ``test_ranking.py``); nothing of scikit-learn's test code is copied here. The plugin

1. selects the cases that concern the shared names: the test function, or a module-level
   helper it calls, names a function that both ``sklearn.metrics`` and ``isometrics``
   export, or one of its parameters is such a function (or a ``functools.partial`` of one);
2. substitutes isometrics' functions for scikit-learn's in the test module's namespace and
   in the parameters of each case, and isometrics' ``UndefinedMetricWarning`` for
   scikit-learn's (a warning expected of scikit-learn's class is accepted of either);
3. turns ``pytest.raises(E, match=...)`` and ``pytest.warns(W, match=...)`` inside those
   modules into checks of the type only, recording where the message would not have
   matched: such a case raised (warned) what scikit-learn raises (warns), where it does,
   in other words;
4. fits the models of the modules' ``make_prediction`` helper once per kind of call (``_made_once``);
5. writes every selected case's outcome to the JSON file named by ``ISOMETRICS_SKLEARN_RESULTS``:
   ``{node id: {"outcome": ..., "error": first line of the failure, "wording": [...]}}``.

``ISOMETRICS_SKLEARN_STRICT=1`` keeps the messages strict (to count wording failures).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect
import json
import os
import re
import types
from collections.abc import Iterator
from typing import Any

import pytest
import sklearn.exceptions
import sklearn.metrics

import isometrics
import isometrics.exceptions

SHARED = sorted(
    name
    for name in isometrics.__all__
    if inspect.isfunction(getattr(isometrics, name)) and inspect.isfunction(getattr(sklearn.metrics, name, None))
)
_SK_TO_IM = {getattr(sklearn.metrics, name): getattr(isometrics, name) for name in SHARED}
_SK_UMW = sklearn.exceptions.UndefinedMetricWarning
_IM_UMW = isometrics.exceptions.UndefinedMetricWarning
_STRICT = os.environ.get("ISOMETRICS_SKLEARN_STRICT") == "1"

_current: list[str] = [""]  # node id of the running case
_wording: dict[str, list[str]] = {}
_results: dict[str, dict[str, Any]] = {}


def _note_wording(kind: str, expected: Any, match: Any, got: str) -> None:
    name = getattr(expected, "__name__", repr(expected))
    _wording.setdefault(_current[0], []).append(f"{kind} {name}: {got[:200]!r} does not match {str(match)[:200]!r}")


def _both_warnings(expected: Any) -> Any:
    """A warning expected of scikit-learn's or isometrics' UndefinedMetricWarning is accepted of either."""
    items = expected if isinstance(expected, tuple) else (expected,)
    if _IM_UMW in items or _SK_UMW in items:
        items = tuple(dict.fromkeys((*items, _IM_UMW, _SK_UMW)))
    return items if len(items) > 1 else items[0]


@contextlib.contextmanager
def _raises_type(expected: Any, match: Any, **kwargs: Any) -> Iterator[Any]:
    with pytest.raises(expected, **kwargs) as info:
        yield info
    if not re.search(match, str(info.value)):
        _note_wording("raises", expected, match, str(info.value))


@contextlib.contextmanager
def _warns_type(expected: Any, match: Any, **kwargs: Any) -> Iterator[Any]:
    with pytest.warns(expected, **kwargs) as record:
        yield record
    messages = [str(w.message) for w in record if issubclass(w.category, expected)]
    if not any(re.search(match, m) for m in messages):
        _note_wording("warns", expected, match, " | ".join(messages))


class _PytestInTests(types.ModuleType):
    """``pytest`` as the substituted test modules see it: raises and warns check types only."""

    def __getattr__(self, name: str) -> Any:
        return getattr(pytest, name)

    def raises(self, expected: Any, *args: Any, match: Any = None, **kwargs: Any) -> Any:
        if args or match is None or _STRICT:
            return pytest.raises(expected, *args, match=match, **kwargs)
        return _raises_type(expected, match, **kwargs)

    def warns(self, expected: Any = Warning, *args: Any, match: Any = None, **kwargs: Any) -> Any:
        expected = _both_warnings(expected)
        if args or match is None or _STRICT:
            return pytest.warns(expected, *args, match=match, **kwargs)
        return _warns_type(expected, match, **kwargs)


_PYTEST = _PytestInTests("pytest")


def _substitute(value: Any) -> Any:
    """isometrics' function for scikit-learn's, also inside a partial, list, tuple or dict."""
    try:
        if value in _SK_TO_IM:
            return _SK_TO_IM[value]
    except TypeError:  # unhashable
        pass
    if isinstance(value, functools.partial) and value.func in _SK_TO_IM:
        return functools.partial(_SK_TO_IM[value.func], *value.args, **value.keywords)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_substitute(v) for v in value)
    if isinstance(value, dict):
        return {k: _substitute(v) for k, v in value.items()}
    return value


def _mentions_shared(value: Any) -> bool:
    return _substitute(value) is not value


def _made_once(make_prediction: Any) -> Any:
    """scikit-learn's ``make_prediction(dataset=None, binary=False)`` helper (a calibrated SVC or a logistic
    regression fitted on iris with 800 noise features, seeded: the same arrays every call), fitted once per
    ``binary`` and handed out as fresh copies; a call with a data set of its own runs as it was. The test
    modules call it two dozen times, about 0.3 CPU seconds each, for three distinct results."""
    made: dict[bool, Any] = {}

    @functools.wraps(make_prediction)
    def once(dataset: Any = None, binary: bool = False) -> Any:
        if dataset is not None:
            return make_prediction(dataset, binary)
        if bool(binary) not in made:
            made[bool(binary)] = make_prediction(None, binary)
        return copy.deepcopy(made[bool(binary)])

    return once


def _patch_module(module: types.ModuleType) -> None:
    if getattr(module, "_isometrics_substituted", False):
        return
    space = vars(module)
    helper = space.get("make_prediction")
    if inspect.isfunction(helper) and helper.__module__ == module.__name__:
        space["make_prediction"] = _made_once(helper)
    for name, value in list(space.items()):
        if name.startswith("__"):
            continue
        if value is pytest:
            space[name] = _PYTEST
        elif value is _SK_UMW:
            space[name] = _IM_UMW
        elif not inspect.isfunction(value) or value.__module__ != module.__name__:
            substituted = _substitute(value)
            if substituted is not value:
                space[name] = substituted
    module._isometrics_substituted = True  # type: ignore[attr-defined]


def _names(code: types.CodeType) -> set[str]:
    out = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out |= _names(const)
    return out


def _concerns_shared(func: Any, space: dict[str, Any], seen: set[str]) -> bool:
    """Whether ``func`` (or a module-level helper it calls) names a shared function."""
    func = inspect.unwrap(func)
    code = getattr(func, "__code__", None)
    if code is None:
        return False
    for name in _names(code):
        value = space.get(name)
        if (name in SHARED or isinstance(value, (list, tuple, dict))) and _mentions_shared(value):
            return True  # a shared function, or a module-level collection holding one
        helper = value
        if name not in seen and inspect.isfunction(helper) and helper.__module__ == space.get("__name__"):
            seen.add(name)
            if _concerns_shared(helper, space, seen):
                return True
    return False


def _selected(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    if module is None or not hasattr(item, "obj"):
        return False
    callspec = getattr(item, "callspec", None)
    if callspec is not None and any(_mentions_shared(v) for v in callspec.params.values()):
        return True
    return _concerns_shared(item.obj, vars(module), set())


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    # decide before substituting (afterwards the names point at isometrics' functions)
    chosen = {id(item): _selected(item) for item in items}
    keep = [item for item in items if chosen[id(item)]]
    drop = [item for item in items if not chosen[id(item)]]
    for item in keep:
        _patch_module(item.module)
        if any("sklearn.exceptions.UndefinedMetricWarning" in str(m.args) for m in item.iter_markers("filterwarnings")):
            item.add_marker(pytest.mark.filterwarnings("ignore::isometrics.exceptions.UndefinedMetricWarning"))
    if drop:
        config.hook.pytest_deselected(items=drop)
    items[:] = keep


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    _current[0] = _key(item.nodeid)
    yield


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> None:
    for name, value in list(pyfuncitem.funcargs.items()):
        pyfuncitem.funcargs[name] = _substitute(value)


def _key(nodeid: str) -> str:
    return nodeid.rsplit("/", 1)[-1]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    key = _key(report.nodeid)
    entry = _results.setdefault(key, {"outcome": "passed", "error": "", "wording": []})
    if report.failed:
        entry["outcome"] = "failed"
        crash = getattr(report.longrepr, "reprcrash", None)
        entry["error"] = (
            (crash.message if crash is not None else str(report.longrepr)).splitlines()[0][:300]
            if (crash is not None and crash.message) or report.longrepr
            else ""
        )
    elif report.skipped and entry["outcome"] != "failed":
        entry["outcome"] = "skipped"
    entry["wording"] = _wording.get(key, [])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    path = os.environ.get("ISOMETRICS_SKLEARN_RESULTS")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"shared": SHARED, "results": _results}, f, indent=1, sort_keys=True)
