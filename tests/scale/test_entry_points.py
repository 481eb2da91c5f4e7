"""The evaluation entry points name the same things alike (issue 20, item 2).

``evaluate_scores`` (arrays in memory), ``evaluate_out_of_core`` (files) and
``evaluate_dask`` (a Dask DataFrame) play the same role; a parameter they share must have
one name, so that moving from one to another changes the data argument, not the keywords.
"""

import inspect

import isometrics as im
from isometrics.dask import evaluate_dask
from isometrics.scale import evaluate_out_of_core

#: Parameters of the same role in all three.
SHARED = {"scores", "metrics", "sample_weight", "pos_label"}
#: Parameters of the same role in the two that read columns by name.
SHARED_COLUMNS = SHARED | {"label"}


def _names(func):
    return set(inspect.signature(func).parameters)


def test_shared_parameters_have_the_same_names():
    for func in (im.evaluate_scores, evaluate_out_of_core, evaluate_dask):
        assert SHARED <= _names(func), func.__name__
    for func in (evaluate_out_of_core, evaluate_dask):
        assert SHARED_COLUMNS <= _names(func), func.__name__
        # the same meanings are spelt alike: no singular alias of a shared name
        assert not {"score", "weight", "weights", "metric"} & _names(func), func.__name__
