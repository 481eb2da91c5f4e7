"""Public docstrings are complete numpydoc, and shared parameters are described identically."""

import inspect

import pytest
from numpydoc.docscrape import FunctionDoc
from numpydoc.validate import validate
from registry import PUBLIC as ALL_PUBLIC
from registry import PUBLIC_PATH

import isometrics as im

# every public function and class, the core's and the namespaces' (issue 24, item 4), by the path it is documented at
PUBLIC = [PUBLIC_PATH[name] for name, obj in ALL_PUBLIC.items() if inspect.isfunction(obj) or inspect.isclass(obj)]
FUNCTIONS = [PUBLIC_PATH[name] for name, obj in ALL_PUBLIC.items() if inspect.isfunction(obj)]
# GL08 no docstring; SS summary; PR parameters documented and existing; RT returns; EX examples.
REQUIRED = {"GL08", "SS01", "SS02", "SS03", "PR01", "PR02", "RT01", "RT03", "EX01"}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_docstrings_are_complete(name):
    errors = [(code, msg) for code, msg in validate(name)["errors"] if code in REQUIRED]
    assert not errors, errors


@pytest.mark.parametrize("name", [n for n in PUBLIC if n not in FUNCTIONS])
def test_class_docstrings_exist(name):
    errors = [(code, msg) for code, msg in validate(name)["errors"] if code in {"GL08", "SS01", "SS02", "SS03"}]
    assert not errors, errors


def _param_text(func, param):
    for p in FunctionDoc(func)["Parameters"]:
        if p.name == param or param in [n.strip() for n in p.name.split(",")]:
            return (p.type, tuple(p.desc))
    return None


FAMILIES = {
    "binary curves": [
        im.roc_curve,
        im.precision_recall_curve,
        im.prg_curve,
        im.auroc,
        im.average_precision,
        im.auprg,
        im.best_threshold,
    ],
    "label scores": [
        im.precision_score,
        im.recall_score,
        im.fbeta_score,
        im.f1_score,
        im.specificity_score,
        im.negative_predictive_value_score,
        im.false_positive_rate_score,
    ],
}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("param", ["y_true", "sample_weight", "pos_label", "average", "zero_division", "labels"])
def test_shared_parameters_have_one_description(family, param):
    texts = {f.__name__: _param_text(f, param) for f in FAMILIES[family] if param in inspect.signature(f).parameters}
    assert len(set(texts.values())) <= 1, texts
