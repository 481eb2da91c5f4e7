"""Every public result type pickles (multiprocessing, joblib, caching): registry-driven round trips.

Each public class (``isometrics.__all__`` and every namespace's ``__all__``) has a builder in the registry (tests/registry.py, tag
``pickling``; a new public class without one fails ``test_every_public_class_has_a_pickling_case``).
A round trip must give back an object equal in content, with arrays read-only exactly where they
were, that still works: the same calls on the original and on the copy give the same results.
"""

import dataclasses
import inspect
import math
import pickle
import warnings

import numpy as np
import pytest
from registry import PUBLIC, variants
from registry import pickling_op as _op

import isometrics as im

pytestmark = pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")

# name -> (builder, what to call on the original and on the copy: same results expected), from the
# registry's ``pickling`` tag (errors and warnings get one generic case each there)
CASES = variants("pickling")
#: Public classes not pickled here (issue 24, item 4: the namespaces' own), with the reason.
NOT_PICKLED = {
    **{
        name: "a matplotlib Display: it holds a live figure and axes (tests/plotting)"
        for name, obj in PUBLIC.items()
        if name.endswith("Display") or name == "DisplayGroup"
    },
    **{
        name: "a record of the elicitation engine or a simulated answerer (tests/elicitation)"
        for name in ("Contradiction", "elicitation.Decision", "LinearStakeholder", "Step")
    },
    "Recommendation": "the recommendation a report opens with (tests/model_selection/test_recommend.py)",
}
PUBLIC_CLASSES = sorted(name for name, obj in PUBLIC.items() if inspect.isclass(obj) and name not in NOT_PICKLED)


def _same(a, b, path="x"):
    """Equal in content: same types, arrays equal (NaN = NaN) with the same dtype and writeability."""
    assert type(a) is type(b), f"{path}: {type(a)} != {type(b)}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, path
        assert a.flags.writeable == b.flags.writeable, f"{path}: writeable {a.flags.writeable} -> {b.flags.writeable}"
        if a.dtype.kind in "fc":
            np.testing.assert_array_equal(a, b, err_msg=path)
        else:
            assert np.array_equal(a, b), path
    elif isinstance(a, im.Metric):
        assert a == b and a.spec == b.spec, path
    elif isinstance(a, im.OperatingPoints):
        for field in ("thresholds", "tp", "fp", "pos_label"):
            _same(getattr(a, field), getattr(b, field), f"{path}.{field}")
    elif dataclasses.is_dataclass(a):
        for field in dataclasses.fields(a):
            if not field.name.startswith("_"):  # caches are derived, not content
                _same(getattr(a, field.name), getattr(b, field.name), f"{path}.{field.name}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), path
        for i, (u, v) in enumerate(zip(a, b)):
            _same(u, v, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for key in a:
            _same(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, BaseException):
        assert a.args == b.args, path
    elif isinstance(a, float):
        assert a == b or (math.isnan(a) and math.isnan(b)), f"{path}: {a} != {b}"
    elif isinstance(a, (np.generic, int, str, bool, type(None))):
        assert a == b or (a != a and b != b), f"{path}: {a!r} != {b!r}"
    else:
        assert vars(a).keys() == vars(b).keys(), path
        for key in vars(a):
            if not key.startswith("_"):
                _same(vars(a)[key], vars(b)[key], f"{path}.{key}")


def test_every_public_class_has_a_pickling_case():
    assert sorted(CASES) == PUBLIC_CLASSES


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
@pytest.mark.parametrize("protocol", [pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL])
def test_round_trip_keeps_content_read_only_arrays_and_behaviour(name, protocol):
    build, use = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = build()
        assert isinstance(original, PUBLIC[name])
        copy = pickle.loads(pickle.dumps(original, protocol=protocol))
        _same(original, copy)
        _same(use(original), use(copy))
        _same(original, copy)  # using them (caches filled) changed neither


def test_read_only_arrays_come_back_read_only():
    op = _op()
    curve = op.roc_curve()
    copy_op, copy_curve = pickle.loads(pickle.dumps((op, curve)))
    for array in (copy_op.thresholds, copy_op.tp, copy_op.fp, *copy_curve):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1.0
    # a curve of the caller's own writable arrays stays writable
    mine = im.RocCurve(np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([np.inf, 0.5]))
    assert pickle.loads(pickle.dumps(mine)).fpr.flags.writeable


def test_every_metric_of_the_registry_pickles_as_its_spec():
    for name in im.METRIC_NAMES:
        spec = {
            "fbeta": "fbeta(beta=2)",
            "g": "g(beta=2, rho=-3)",
            "power": "power(gamma=2, phi=3)",
            "net_benefit": "net_benefit@0.2",
        }.get(name, name)
        metric = im.parse_metric(spec)
        copy = pickle.loads(pickle.dumps(metric))
        assert copy == metric
        np.testing.assert_array_equal(
            copy.from_counts([3.0, 0.0], [1.0, 2.0], [1.0, 4.0], [5.0, 3.0]),
            metric.from_counts([3.0, 0.0], [1.0, 2.0], [1.0, 4.0], [5.0, 3.0]),
        )


def test_a_metric_not_built_by_the_parser_says_how_to_pickle_it():
    custom = im.Metric(spec="f1", label="my own F1", _pr=lambda p, r: p * r)
    with pytest.raises(TypeError, match="was not built by parse_metric"):
        pickle.dumps(custom)
