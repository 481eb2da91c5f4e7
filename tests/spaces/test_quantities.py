"""Every declared quantity agrees with its public function, its method, the sweep and the test registry.

A quantity is declared once (``isometrics._core.quantity.Quantity``, collected by
``isometrics.spaces.quantities``); everything users and the other layers call is checked against
that declaration here, so a function, a method or a registry entry that drifts from it fails.
"""

import dataclasses
import importlib

import numpy as np
import pytest
from registry import PUBLIC_PATH, REGISTRY

from isometrics import IsometricsError, OperatingPoints
from isometrics._core.quantity import COUNTS, KINDS, Quantity
from isometrics.spaces import _terms
from isometrics.spaces.quantities import MODULES, QUANTITIES, by_name
from isometrics.spaces.sweep import sweep_table

#: Public functions whose result has scikit-learn's shape (increasing thresholds, the (1, 0) point
#: last), not the engine's: their values are checked in tests/test_against_sklearn.py.
SCIKIT_LEARN_SHAPED = {"precision_recall_curve"}
#: Keyword arguments that make a public function return the declared quantity unchanged.
AS_DECLARED = {"roc_curve": {"drop_intermediate": False}}

PUBLIC = [q for q in QUANTITIES.values() if q.public]
METHODS = [q for q in QUANTITIES.values() if q.method]


def _data(seed, weighted, tied):
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    if tied:
        s = np.round(s, 1)
    w = rng.uniform(0.1, 3.0, n) if weighted else None
    return y, s, w


DATA = [(0, False, False), (1, True, False), (2, False, True), (3, True, True)]


def _same(a, b):
    """Bit-identical values: floats, arrays, and result objects field by field (NaN equal to NaN)."""
    if dataclasses.is_dataclass(a) or isinstance(a, tuple):
        fields = dataclasses.astuple(a) if dataclasses.is_dataclass(a) else tuple(a)
        other = dataclasses.astuple(b) if dataclasses.is_dataclass(b) else tuple(b)
        return type(a) is type(b) and len(fields) == len(other) and all(map(_same, fields, other))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (np.isnan(a) and np.isnan(b))
    return a == b


def _public_function(q):
    found = [getattr(m, q.name) for m in MODULES if callable(getattr(m, q.name, None))]
    return found[0] if found else None


def test_declarations_are_well_formed_and_unique():
    assert QUANTITIES, "no quantity declared"
    for name, q in QUANTITIES.items():
        assert isinstance(q, Quantity) and q.name == name
        assert q.counts in COUNTS and q.kind in KINDS
        assert by_name(name) is q
        if q.kind == "part":  # shared parts have no function or method of their own
            assert not q.public and not q.method
    with pytest.raises(ValueError, match="counts must be one of"):
        Quantity("x", len, counts="scaled")


def test_the_declaration_is_the_cache_key():
    y, s, w = _data(0, True, False)
    op = OperatingPoints.from_scores(y, s, sample_weight=w)
    for q in QUANTITIES.values():
        assert op.peek(q) is None
        value = op.get(q)
        assert op.peek(q) is value and op.get(q) is value  # computed once
    op.clear_cache()
    assert all(op.peek(q) is None for q in QUANTITIES.values())


@pytest.mark.parametrize("q", PUBLIC, ids=lambda q: q.name)
def test_each_public_quantity_has_its_public_function(q):
    f = _public_function(q)
    assert f is not None, f"{q.name} is declared public but no module of spaces.quantities.MODULES defines it"
    if q.name in SCIKIT_LEARN_SHAPED:
        return
    for seed, weighted, tied in DATA:
        y, s, w = _data(seed, weighted, tied)
        op = OperatingPoints.from_scores(y, s, sample_weight=w)
        assert _same(f(y, s, sample_weight=w, **AS_DECLARED.get(q.name, {})), op.get(q)), (q.name, seed)


@pytest.mark.parametrize("q", METHODS, ids=lambda q: q.name)
def test_each_method_reads_its_declaration(q):
    for seed, weighted, tied in DATA:
        y, s, w = _data(seed, weighted, tied)
        op = OperatingPoints.from_scores(y, s, sample_weight=w)
        value = getattr(op, q.name)()
        assert op.get(q) is value, f"OperatingPoints.{q.name} does not read op.get({q.name})"
        fresh = OperatingPoints.from_scores(y, s, sample_weight=w)
        assert _same(fresh.get(q), value)


def test_every_quantity_method_is_declared():
    """A method of OperatingPoints named like a public quantity function reads that quantity."""
    declared = {q.name for q in METHODS}
    for q in PUBLIC:
        if hasattr(OperatingPoints, q.name):
            assert q.name in declared, f"OperatingPoints.{q.name} exists but {q.name} declares method=False"


@pytest.mark.parametrize("q", [q for q in QUANTITIES.values() if q.needs_both_classes], ids=lambda q: q.name)
def test_needs_both_classes_as_declared(q):
    op = OperatingPoints.from_scores([1, 1, 1], [0.2, 0.5, 0.9])
    with pytest.raises(IsometricsError, match="one class"):
        getattr(op, q.name)() if q.method else op.get(q)


def test_streaming_terms_are_the_sweeps_areas():
    """Each declared streaming quantity names terms the sweep sums, and the sweep gives its very value."""
    streamed = {q.terms: q for q in QUANTITIES.values() if q.terms is not None}
    assert set(streamed) == set(_terms.AREAS)
    for seed, weighted, tied in DATA:
        y, s, w = _data(seed, weighted, tied)
        op = OperatingPoints.from_scores(y, s, sample_weight=w)
        swept = sweep_table(op, chunk=7)
        for name, q in streamed.items():
            assert getattr(swept, name) == op.get(q), (name, seed)


@pytest.mark.parametrize("q", [q for q in PUBLIC if q.name in REGISTRY], ids=lambda q: q.name)
def test_registry_entry_checks_the_declared_value(q, monkeypatch):
    """The common checks of tests/registry.py exercise the declared quantity: with the public function
    replaced by ``OperatingPoints.from_scores(...).get(QUANTITY)``, each registered variant gives the same."""
    entry = REGISTRY[q.name]
    variants = {
        **{f"binary {k}": (lambda f: lambda y, s, w: f(y, s, w, None))(f) for k, f in entry.binary.items()},
        **{f"weighted {k}": f for k, f in entry.weighted.items()},
    }
    assert variants, f"{q.name} is registered without value checks (binary or weighted)"
    if q.name in SCIKIT_LEARN_SHAPED:
        return
    y, s, w = _data(1, True, True)
    expected = {label: f(y, s, w) for label, f in variants.items()}

    def from_declaration(y_true, y_score, *, sample_weight=None, pos_label=None, **kwargs):
        op = OperatingPoints.from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
        return op.get(q)

    # where the registry's calls resolve the name: the top level or its namespace (issue 24, item 4)
    owner = importlib.import_module(PUBLIC_PATH[q.name].rsplit(".", 1)[0])
    monkeypatch.setattr(owner, q.name, from_declaration)
    for label, f in variants.items():
        assert _same(f(y, s, w), expected[label]), (q.name, label)


def test_public_quantities_are_registered():
    """Every public quantity of the top-level namespace is in the test registry (the common checks apply)."""
    missing = [q.name for q in PUBLIC if q.name in PUBLIC_PATH and q.name not in REGISTRY]
    assert missing == []
