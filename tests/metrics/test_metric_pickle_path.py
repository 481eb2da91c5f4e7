"""A Metric pickles as its specification through the parser (``registry.parse_metric``), wherever the
class itself is defined: pickles written before ``Metric`` moved to ``metrics/metric.py`` still load,
and new ones name the same function, so the stream is the same bytes."""

import copy
import pickle

import pytest

import isometrics as im
from isometrics.metrics import metric, registry

#: ``pickle.dumps(parse_metric("f2"), protocol=5)`` as written when ``Metric`` lived in ``registry``.
OLD_F2 = (
    b"\x80\x05\x95D\x00\x00\x00\x00\x00\x00\x00\x8c\x1bisometrics.metrics.registry\x94\x8c\x0cparse_metric"
    b"\x94\x93\x94\x8c\rfbeta(beta=2)\x94\x85\x94R\x94."
)


def test_an_old_pickle_loads_as_the_same_metric():
    assert pickle.loads(OLD_F2) == im.parse_metric("f2")


def test_a_new_pickle_is_the_same_stream():
    assert pickle.dumps(im.parse_metric("f2"), protocol=5) == OLD_F2


def test_the_class_is_one_object_under_both_paths_and_copies_through_the_parser():
    assert registry.Metric is metric.Metric is im.Metric
    m = im.parse_metric("g(beta=2, rho=-3)")
    assert type(m) is metric.Metric
    for c in (copy.copy(m), copy.deepcopy(m)):
        assert c == m and c._pr is not None
    hand_made = metric.Metric(spec="f1", label="mine", _pr=lambda p, r: p)
    with pytest.raises(TypeError, match="was not built by parse_metric"):
        copy.deepcopy(hand_made)
