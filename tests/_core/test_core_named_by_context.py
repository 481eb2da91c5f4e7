"""The checkers of ``_core`` take the public function's name from the context, not from one another
(issue 24, item 5): no ``caller`` is threaded between them, an explicit one (layers that still
pass it) names every nested check, and the constructors whose messages name them are declared.

Reference messages are written out by hand from the house template; the expected warning lines
are those of this file.
"""

import inspect
import sys
import warnings

import numpy as np
import pytest

from isometrics import OperatingPoints
from isometrics._core.arrays import as_1d, check_sample_weight, check_scores
from isometrics._core.caller import current_caller, takes_caller
from isometrics._core.confusion import check_label_pair
from isometrics._core.constraints import ARRAY, Checked, declared_params, user_stacklevel, validate_params
from isometrics._core.count_table import CountTable, table_from_scores
from isometrics._core.counting import counts_from_statistics, counts_from_validated
from isometrics.exceptions import DegenerateDataWarning, InvalidParameterError, IsometricsError


@validate_params({"y_score": ARRAY})
def declared_scores(y_score):
    """A declared public function that validates scores through the nested checkers."""
    return check_scores(y_score)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None]})
def declared_table(y_true, y_score, sample_weight=None):
    """A declared public function building a table the way every binary function does, naming nobody."""
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=None, table=CountTable)


def test_nested_checkers_name_the_declared_function():
    # check_scores -> as_1d -> as_array: the ragged message comes from the innermost one.
    with pytest.raises(IsometricsError, match=r"^declared_scores: `y_score` is a ragged nested sequence"):
        declared_scores([[0.1], [0.2, 0.3]])
    with pytest.raises(IsometricsError, match=r"^declared_scores: y_score contains 1 NaN value \(first at index 1\)"):
        declared_scores([0.1, np.nan])


def test_an_explicit_caller_names_every_nested_check_and_wins_over_the_context():
    @validate_params({"values": ARRAY})
    def outer(values):
        return as_1d(values, name="values", caller="Explicit.method")

    # the ragged message is raised by as_array, two calls below the explicit name
    with pytest.raises(IsometricsError, match=r"^Explicit\.method: `values` is a ragged nested sequence"):
        outer([[1], [2, 3]])
    # positionally, as check_label_pair's fourth parameter
    with pytest.raises(IsometricsError, match=r"^by_position: y_true holds continuous values"):
        check_label_pair([0.5, 1.0], [0, 1], None, "by_position")
    assert current_caller() == "isometrics"  # the name is reset after the call
    with pytest.raises(IsometricsError, match=r"^isometrics: sample_weight has 1 entries but there are 2 samples"):
        check_sample_weight([1.0], 2)


def test_takes_caller_keeps_the_signature_and_resets_on_error():
    def checker(x, caller=None):
        """Doc."""
        raise InvalidParameterError(f"{current_caller(caller)}: bad {x}")

    wrapped = takes_caller(checker)
    assert inspect.signature(wrapped) == inspect.signature(checker) and wrapped.__doc__ == "Doc."
    with pytest.raises(InvalidParameterError, match="^given: bad 1$"):
        wrapped(1, "given")
    assert current_caller() == "isometrics"


def test_the_internal_interfaces_take_caller_optionally_or_not_at_all():
    """from_validated and table_from_scores needed ``caller`` (a TypeError without it); counting has none."""
    for func in (CountTable.from_validated, table_from_scores):
        assert inspect.signature(func).parameters["caller"].default is None
    for func in (counts_from_validated, counts_from_statistics):
        assert "caller" not in inspect.signature(func).parameters
    table = CountTable.from_validated(np.array([True, False]), np.array([0.9, 0.1]), None, 1)
    assert table.tp.tolist() == [0.0, 1.0, 1.0] and table.fp.tolist() == [0.0, 0.0, 1.0]


def test_the_overflow_of_validated_weights_names_the_declared_function():
    @validate_params({"w": ARRAY})
    def pooled(w):
        return CountTable.from_validated(np.array([True, True]), np.array([0.9, 0.1]), np.asarray(w), 1)

    with pytest.raises(IsometricsError, match=r"^pooled: `sample_weight` sums to more than the largest float64"):
        pooled([1e308, 1e308])


def test_table_from_scores_names_the_declared_function_and_warns_at_the_users_line():
    with pytest.raises(IsometricsError, match=r"^declared_table: inputs have different numbers of samples"):
        declared_table([0, 1], [0.1, 0.2, 0.3])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        declared_table([0, 1], [0.5, 0.5])
    [warning] = [w for w in caught if issubclass(w.category, DegenerateDataWarning)]
    assert (warning.filename, warning.lineno) == (__file__, line)


def test_user_stacklevel_skips_the_takes_caller_frames():
    @takes_caller
    def inner(caller=None):
        warnings.warn("here", UserWarning, stacklevel=user_stacklevel(3))

    @validate_params({})
    def public():
        inner(caller="named")  # a takes_caller frame, then this one, then the user's

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        public()
    assert (caught[0].filename, caught[0].lineno) == (__file__, line)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        (OperatingPoints.from_scores, ["y_true", "y_score", "sample_weight", "pos_label"]),
        (OperatingPoints.from_counts, ["scores", "positives", "negatives", "pos_label"]),
        (OperatingPoints.at_prevalence, ["prevalence"]),
    ],
)
def test_the_constructors_named_in_messages_are_declared(method, params):
    assert list(declared_params(method)) == params


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: OperatingPoints.from_counts([0.1, 0.2], [1, 0], [-1, 1]),
            "OperatingPoints.from_counts: positives and negatives must be >= 0 (they are weights).",
        ),
        (
            lambda: OperatingPoints.from_counts([0.1, 0.2], [1e308, 1e308], [0, 1]),
            "OperatingPoints.from_counts: `positives` or `negatives` sums to more than the largest float64 "
            "(about 1.8e308) within one class; divide every weight by the same constant (no result depends on the "
            "scale of the weights).",
        ),
        (
            lambda: OperatingPoints.from_scores([0, 1], [0.1, 0.2]).at_prevalence(1.5),
            "OperatingPoints.at_prevalence: `prevalence` must be a real number > 0 and < 1; got 1.5.",
        ),
        (
            lambda: OperatingPoints.from_scores([0, 1], [0.1, 0.2], pos_label=[1]),
            "OperatingPoints.from_scores: `pos_label` must be one label (an int, float, bool or str); got [1] "
            "(type list).",
        ),
    ],
)
def test_the_constructors_messages_are_unchanged(call, message):
    with pytest.raises(IsometricsError) as info:
        call()
    assert str(info.value) == message


def test_from_counts_keeps_any_pos_label():
    """``pos_label`` of from_counts is kept for reporting (any object), as before its declaration."""
    assert OperatingPoints.from_counts([0.1, 0.2], [1, 1], [0, 1], pos_label=("a", 1)).pos_label == ("a", 1)


def _required(value, caller):
    if value != 1:
        raise InvalidParameterError(f"{caller}: `x` must be 1; got {value!r}.")


def _context_only(value):
    if value != 1:
        raise InvalidParameterError(f"{current_caller()}: `x` must be 1; got {value!r}.")


@pytest.mark.parametrize("checker", [_required, _context_only])
def test_a_checked_constraint_names_the_declared_function_whatever_its_checkers_signature(checker):
    """Checked passed ``caller=`` to every checker; a checker without the parameter raised TypeError."""

    @validate_params({"x": Checked(checker, "1", invalid=[2])})
    def one(x):
        return x

    assert one(1) == 1
    with pytest.raises(InvalidParameterError) as info:
        one(2)
    assert str(info.value) == "one: `x` must be 1; got 2."
