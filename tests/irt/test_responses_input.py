"""What `fit_beta3` accepts as responses: real numbers only, refused with the cell or column named
(issue 22 item 7: complex numbers passed with NumPy's ComplexWarning; numeric strings, booleans and
None passed silently; a frame with a string column said "got a ndarray")."""

import warnings

import numpy as np
import pandas as pd
import pytest

from isometrics.irt import fit_beta3

GOOD = [[0.5, 0.6, 0.7, 0.2], [0.7, 0.8, 0.9, 0.4], [0.3, 0.4, 0.6, 0.1]]


@pytest.mark.parametrize(
    "responses, match",
    [
        (
            np.array(GOOD) + np.where(np.eye(3, 4) == 1, 0.1j, 0),
            r"complex numbers \(first at cell \[0, 0\]: \(0\.5\+0\.1j\)\)",
        ),
        (np.array(GOOD).astype(str), r"cell \[0, 0\] holds '0\.5' \(a str\)"),
        ([[0.5, "0.6", 0.7, 0.2], *GOOD[1:]], r"cell \[0, 1\] holds '0\.6' \(a str\)"),
        (np.array(GOOD) > 0.5, r"holds booleans"),
        ([[0.5, True, 0.7, 0.2], *GOOD[1:]], r"cell \[0, 1\] holds True \(a bool\)"),
        (np.array([[0.5, None, 0.7, 0.2], *GOOD[1:]], dtype=object), r"cell \[0, 1\] holds None"),
        (
            pd.DataFrame(
                {"a": [0.5, 0.6, 0.7], "b": ["x", "0.3", "0.2"], "c": [0.1, 0.2, 0.3]}, index=["m1", "m2", "m3"]
            ),
            r"column 'b' \(row 'm1'\) holds 'x' \(a str\)",
        ),
        (pd.DataFrame({"a": [0.5, 0.6, 0.7], "flag": [True, False, True]}), r"column 'flag' holds bool values"),
    ],
)
def test_non_real_responses_are_refused_naming_the_cell(responses, match):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning on the way
        with pytest.raises(TypeError, match=match) as info:
            fit_beta3(responses)
    assert "ndarray" not in str(info.value) and "real numbers in [0, 1]" in str(info.value)


def test_real_responses_of_any_numeric_kind_are_accepted():
    expected = fit_beta3(np.array(GOOD)).ability
    objects = np.array(GOOD, dtype=object)
    np.testing.assert_allclose(fit_beta3(objects).ability, expected)
    frame = pd.DataFrame(np.array(GOOD), columns=list("abcd")).astype({"a": "Float64"})
    np.testing.assert_allclose(fit_beta3(frame).ability, expected)
    with_na = frame.copy()
    with_na.loc[0, "a"] = pd.NA  # a pandas null is a missing cell
    assert fit_beta3(with_na).n_observed == 11


def test_a_long_form_response_column_names_the_row():
    rows = {"model": ["m1", "m1", "m2", "m2"], "dataset": ["d1", "d2", "d1", "d2"], "auroc": [0.5, "0.6", 0.7, 0.8]}
    with pytest.raises(TypeError, match=r"response column 'auroc' holds '0\.6' \(a str\) at row 1"):
        fit_beta3(rows, long_form=("model", "dataset", "auroc"))
