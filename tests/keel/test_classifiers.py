"""The classifier pool and the model-spec parser: nothing is evaluated, unknown specs are named."""

import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline

from isometrics import IsometricsError
from isometrics.irt.classifiers import CLASSIFIER_FAMILIES, DEFAULT_POOL, parse_classifier_spec


def test_the_pool_has_at_least_8_families_with_several_settings():
    families = {spec.split(":")[0] for spec in DEFAULT_POOL}
    assert len(families) >= 8 and len(DEFAULT_POOL) >= 2 * 8
    assert len({parse_classifier_spec(s).spec for s in DEFAULT_POOL}) == len(DEFAULT_POOL)
    for spec in DEFAULT_POOL:  # canonical as written, and buildable
        assert parse_classifier_spec(spec).spec == spec
        assert hasattr(parse_classifier_spec(spec).build(), "fit")


def test_short_spec_builds_the_family_with_the_arguments():
    spec = parse_classifier_spec(" logreg :  C = 0.1 ")
    assert spec.spec == "logreg:C=0.1" and spec.params == (("C", 0.1),)
    model = spec.build()
    assert isinstance(model, Pipeline)  # standardised first
    clf = model[-1]
    assert isinstance(clf, LogisticRegression) and clf.C == 0.1 and clf.max_iter == 1000
    knn = parse_classifier_spec("mlp:hidden_layer_sizes=[8, 4], activation=tanh").build()[-1]
    assert knn.hidden_layer_sizes == (8, 4) and knn.activation == "tanh"


def test_class_path_spec():
    spec = parse_classifier_spec("sklearn.ensemble.RandomForestClassifier(n_estimators=5, max_depth=None)")
    assert spec.spec == "sklearn.ensemble.RandomForestClassifier(max_depth=None, n_estimators=5)"
    model = spec.build()
    assert isinstance(model, RandomForestClassifier) and model.n_estimators == 5 and model.random_state == 0
    assert parse_classifier_spec("sklearn.naive_bayes.GaussianNB").params == ()


@pytest.mark.parametrize(
    "text, match",
    [
        ("foo:x=1", "unknown model 'foo' in spec 'foo:x=1'"),
        ("forrest", "did you mean 'forest'"),
        ("logreg:Cx=1", "'Cx' is not a parameter of LogisticRegression"),
        ("logreg:C=__import__('os').getcwd()", "must be a literal"),
        ("logreg:1", "key=value"),
        ("logreg:C=(", "cannot read the arguments"),
        ("sklearn.linear_model.NoSuchClass()", "unknown model .*no class 'sklearn.linear_model.NoSuchClass'"),
        ("sklearn.linear_model.LinearRegression()", "is not a scikit-learn classifier"),
        ("sklearn.base.BaseEstimator", "is not a scikit-learn classifier"),
        ("sklearn.tree.DecisionTreeClassifier(max_depth=2", "must end with"),
        ("os.system('true')", "unknown model .os\\.system"),
        # values scikit-learn would refuse only at fit time are refused when parsing (issue 22, item 7)
        ("logreg:C=-1", "model 'logreg:C=-1' has an invalid parameter value: The 'C' parameter"),
        ("knn:n_neighbors=0", "invalid parameter value: The 'n_neighbors' parameter"),
        ("sklearn.tree.DecisionTreeClassifier(criterion=bogus)", "invalid parameter value: The 'criterion'"),
    ],
)
def test_unknown_or_unsafe_specs_are_clear_errors(text, match):
    with pytest.raises(IsometricsError, match=match):
        parse_classifier_spec(text)


def test_a_spec_must_be_a_string():
    with pytest.raises(TypeError, match="must be a string"):
        parse_classifier_spec(3)


def test_every_family_is_a_classifier():
    for name in CLASSIFIER_FAMILIES:
        assert hasattr(parse_classifier_spec(name).build(), "predict")
