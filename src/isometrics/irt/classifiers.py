"""The respondents of a classifier benchmark: a pool of scikit-learn classifiers and a safe
parser of model specifications.

A specification is either a short name from :data:`CLASSIFIER_FAMILIES` with optional
keyword arguments, ``"logreg"``, ``"logreg:C=0.1"``, ``"mlp:hidden_layer_sizes=(8, 8)"``,
or the path of a scikit-learn classifier class with keyword arguments,
``"sklearn.ensemble.RandomForestClassifier(n_estimators=50)"``. Nothing is evaluated: the
text is parsed with :mod:`ast`, every argument value must be a literal (number, string,
``True``/``False``/``None``, tuple or list of them; a bare word is read as a string), the
class must live under ``sklearn.`` and be a classifier, every keyword must be one of its
parameters, and every value must pass the class's declared parameter constraints (checked
by building the estimator, without fitting, so ``"logreg:C=-1"`` is refused before any
benchmark runs). scikit-learn is imported only when a spec is parsed or built.
"""

from __future__ import annotations

import ast
import difflib
import importlib
import re
from dataclasses import dataclass
from typing import Any

from .._core.constraints import InBody, validate_params
from .._core.html import summarised
from .._core.optional import needs
from ..exceptions import InvalidParameterError, IsometricsError

__all__ = ["CLASSIFIER_FAMILIES", "DEFAULT_POOL", "ClassifierSpec", "parse_classifier_spec"]

#: Short name -> (scikit-learn class path, fixed defaults, standardise the features first).
CLASSIFIER_FAMILIES: dict[str, tuple[str, dict[str, Any], bool]] = {
    "logreg": ("sklearn.linear_model.LogisticRegression", {"max_iter": 1000}, True),
    "nb": ("sklearn.naive_bayes.GaussianNB", {}, False),
    "knn": ("sklearn.neighbors.KNeighborsClassifier", {}, True),
    "tree": ("sklearn.tree.DecisionTreeClassifier", {"random_state": 0}, False),
    "forest": ("sklearn.ensemble.RandomForestClassifier", {"n_estimators": 50, "random_state": 0}, False),
    "extra": ("sklearn.ensemble.ExtraTreesClassifier", {"n_estimators": 50, "random_state": 0}, False),
    "gb": ("sklearn.ensemble.GradientBoostingClassifier", {"n_estimators": 50, "random_state": 0}, False),
    "hgb": ("sklearn.ensemble.HistGradientBoostingClassifier", {"max_iter": 50, "random_state": 0}, False),
    "linsvm": ("sklearn.svm.LinearSVC", {"random_state": 0}, True),
    "mlp": (
        "sklearn.neural_network.MLPClassifier",
        {"hidden_layer_sizes": (16,), "solver": "lbfgs", "max_iter": 50, "random_state": 0},
        True,
    ),
    "lda": ("sklearn.discriminant_analysis.LinearDiscriminantAnalysis", {}, False),
    "qda": (
        "sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis",
        {"solver": "eigen", "shrinkage": "auto"},
        False,
    ),
    "adaboost": ("sklearn.ensemble.AdaBoostClassifier", {"n_estimators": 50, "random_state": 0}, False),
}

#: The benchmark's pool: 12 families, 1 to 3 settings each, 26 models, chosen so that the 100
#: KEEL data sets build in a few minutes on two cores (see ``benchmarks/bench_keel.py``;
#: HistGradientBoosting is left out of it: its OpenMP threads make it the slowest by far on a
#: small shared machine, and gradient boosting stands for its family).
DEFAULT_POOL: tuple[str, ...] = (
    "logreg:C=0.01",
    "logreg:C=1",
    "logreg:C=100",
    "nb",
    "nb:var_smoothing=0.01",
    "knn:n_neighbors=1",
    "knn:n_neighbors=5",
    "knn:n_neighbors=25",
    "tree:max_depth=2",
    "tree:max_depth=5",
    "tree:max_depth=None",
    "forest:max_depth=3",
    "forest:max_depth=None",
    "extra:min_samples_leaf=1",
    "extra:min_samples_leaf=5",
    "gb:max_depth=2",
    "gb:max_depth=3",
    "linsvm:C=0.01",
    "linsvm:C=1",
    "mlp:alpha=0.0001",
    "mlp:alpha=1.0",
    "lda",
    "lda:shrinkage='auto', solver='lsqr'",
    "qda",
    "qda:shrinkage=0.5",
    "adaboost",
)

# The parser names itself, also under build_keel_benchmark or keel_response: a bad spec is its finding.
_CALLER = "parse_classifier_spec"
_PATH = re.compile(r"^sklearn(\.[A-Za-z_][A-Za-z0-9_]*)+$")
_SHORT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@summarised()
@dataclass(frozen=True)
class ClassifierSpec:
    """A parsed model specification: the class to build and its keyword arguments.

    Attributes
    ----------
    spec : str
        The canonical text: ``family`` or ``family:key=value, ...`` for a short name,
        ``sklearn.path.Class(key=value, ...)`` for a class path, keys sorted.
    class_path : str
        The scikit-learn class, e.g. ``"sklearn.linear_model.LogisticRegression"``.
    params : tuple of (str, object)
        The keyword arguments given in the specification, sorted by name (the family's
        fixed defaults are not listed; they are applied by :meth:`build`).
    standardise : bool
        Whether the features are standardised (``StandardScaler``) before the classifier.
    """

    spec: str
    class_path: str
    params: tuple[tuple[str, Any], ...]
    standardise: bool

    def arguments(self) -> dict[str, Any]:
        """Every keyword argument the classifier is built with: the family's fixed defaults,
        ``random_state=0`` where the class takes one, then the spec's own arguments.

        Returns
        -------
        dict
            Keyword arguments of the class.
        """
        family = self.spec.split(":", 1)[0]
        defaults = dict(CLASSIFIER_FAMILIES[family][1]) if family in CLASSIFIER_FAMILIES else {}
        if "random_state" in _resolve(self.class_path, self.spec)().get_params():
            defaults.setdefault("random_state", 0)
        return {**defaults, **dict(self.params)}

    @property
    def fingerprint(self) -> str:
        """Everything that defines the model, for cache keys: class, every argument, standardising."""
        args = ", ".join(f"{k}={v!r}" for k, v in sorted(self.arguments().items()))
        return f"{self.class_path}({args}){' standardised' if self.standardise else ''}"

    def build(self) -> Any:
        """A fresh unfitted scikit-learn estimator (a pipeline when the features are standardised).

        Returns
        -------
        estimator
            A scikit-learn classifier or ``Pipeline(StandardScaler(), classifier)``.

        Raises
        ------
        ValueError
            If scikit-learn refuses the parameters' values (checked when parsing already).
        """
        with needs("the KEEL benchmark's models"):
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

        cls = _resolve(self.class_path, self.spec)
        try:
            estimator = cls(**self.arguments())
        except (TypeError, ValueError) as exc:  # pragma: no cover - parameters are checked when parsing
            raise IsometricsError(f"{_CALLER}: model {self.spec!r} could not be built: {exc}") from None
        return make_pipeline(StandardScaler(), estimator) if self.standardise else estimator


def _resolve(path: str, spec: str) -> Any:
    """The class at ``path`` (under ``sklearn.``), checked to be a classifier."""
    with needs(_CALLER):
        from sklearn.base import BaseEstimator, ClassifierMixin

    module_name, _, name = path.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError):
        raise IsometricsError(
            f"{_CALLER}: unknown model {spec!r}: there is no class {path!r}; give a "
            "scikit-learn classifier path such as "
            "'sklearn.ensemble.RandomForestClassifier(n_estimators=50)'."
        ) from None
    if not (isinstance(cls, type) and issubclass(cls, ClassifierMixin) and issubclass(cls, BaseEstimator)):
        raise IsometricsError(
            f"{_CALLER}: model {spec!r}: {path!r} is not a scikit-learn classifier; give a "
            "classifier class such as 'sklearn.linear_model.LogisticRegression'."
        )
    return cls


def _literal(node: ast.expr, key: str, spec: str) -> Any:
    """A keyword's value: a Python literal, or a bare word read as a string."""
    if isinstance(node, ast.Name):
        return node.id
    try:
        value = ast.literal_eval(node)
    except ValueError:
        raise IsometricsError(
            f"{_CALLER}: model {spec!r}: the value of {key!r} must be a literal (a number, a "
            "string, True, False, None, or a tuple or list of them)."
        ) from None
    return tuple(value) if isinstance(value, list) else value


def _arguments(text: str, spec: str) -> dict[str, Any]:
    """Parse ``key=value, ...`` (possibly empty) with :mod:`ast`, never evaluating it."""
    if not text.strip():
        return {}
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError:
        raise IsometricsError(
            f"{_CALLER}: model {spec!r}: cannot read the arguments {text!r}; write them as "
            "key=value pairs separated by commas, e.g. 'logreg:C=0.1'."
        ) from None
    assert isinstance(call, ast.Call)
    if call.args or any(k.arg is None for k in call.keywords):
        raise IsometricsError(f"{_CALLER}: model {spec!r}: arguments must be key=value pairs; got {text!r}.")
    return {str(k.arg): _literal(k.value, str(k.arg), spec) for k in call.keywords}


@validate_params({"spec": InBody("a model spec such as 'logreg:C=0.1'")})
def parse_classifier_spec(spec: str) -> ClassifierSpec:
    """Parse a model specification such as ``"logreg:C=0.1"`` without evaluating any code.

    Parameters
    ----------
    spec : str
        A short name of :data:`CLASSIFIER_FAMILIES` optionally followed by ``:`` and
        keyword arguments (``"knn:n_neighbors=5"``), or a scikit-learn classifier class
        path optionally followed by keyword arguments in parentheses
        (``"sklearn.ensemble.RandomForestClassifier(n_estimators=50)"``). Values are
        literals; a bare word (``kernel=rbf``) is a string.

    Returns
    -------
    ClassifierSpec
        The class path, the keyword arguments and the canonical text.

    Raises
    ------
    ValueError
        If the family or class is unknown (the message names it and lists the families),
        if the class is not a scikit-learn classifier, if an argument is not a literal, if
        a keyword is not a parameter of the class, or if scikit-learn refuses a value
        (``"logreg:C=-1"``; the estimator is built and its declared parameter constraints
        checked, without fitting).
    TypeError
        If ``spec`` is not a string.

    Examples
    --------
    >>> from isometrics.irt import parse_classifier_spec
    >>> parse_classifier_spec("logreg: C = 0.1").spec
    'logreg:C=0.1'
    >>> parse_classifier_spec("sklearn.tree.DecisionTreeClassifier(max_depth=3)").params
    (('max_depth', 3),)
    """
    if not isinstance(spec, str):
        raise InvalidParameterError(
            f"{_CALLER}: a model spec must be a string such as 'logreg:C=0.1'; got {type(spec).__name__}."
        )
    text = spec.strip()
    if text.startswith("sklearn."):
        head, paren, rest = text.partition("(")
        head = head.strip()
        if paren and not rest.rstrip().endswith(")"):
            raise IsometricsError(f"{_CALLER}: model {spec!r}: the arguments must end with ')'.")
        if not _PATH.match(head):
            raise IsometricsError(f"{_CALLER}: unknown model {spec!r}: {head!r} is not a class path.")
        params = _arguments(rest.rstrip()[:-1] if paren else "", spec)
        class_path, standardise, family = head, False, None
    else:
        family, _, rest = text.partition(":")
        family = family.strip()
        if family not in CLASSIFIER_FAMILIES:
            close = difflib.get_close_matches(family, list(CLASSIFIER_FAMILIES), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise IsometricsError(
                f"{_CALLER}: unknown model {family!r} in spec {spec!r}{hint}; use one of "
                f"{', '.join(CLASSIFIER_FAMILIES)}, or a scikit-learn classifier path such as "
                "'sklearn.ensemble.RandomForestClassifier(n_estimators=50)'."
            )
        class_path, _, standardise = CLASSIFIER_FAMILIES[family]
        params = _arguments(rest, spec)
    known = _resolve(class_path, spec)().get_params()
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise IsometricsError(
            f"{_CALLER}: model {spec!r}: {', '.join(map(repr, unknown))} is not a parameter of "
            f"{class_path.rpartition('.')[2]}; its parameters: {', '.join(sorted(known))}."
        )
    ordered = tuple(sorted(params.items()))
    args = ", ".join(f"{k}={v!r}" for k, v in ordered)
    canonical = f"{class_path}({args})" if family is None else (f"{family}:{args}" if args else family)
    parsed = ClassifierSpec(spec=canonical, class_path=class_path, params=ordered, standardise=standardise)
    _check_values(parsed, spec)
    return parsed


def _check_values(parsed: ClassifierSpec, spec: str) -> None:
    """Build the estimator and let scikit-learn check the parameters' values now, not at fit time.

    scikit-learn checks ``C=-1`` only when ``fit`` is called; a benchmark would then fail the
    model on every data set. ``_validate_params`` runs the checks of the class's declared
    constraints without fitting (a combination of values that only ``fit`` can judge still
    fails there, and is reported as a failed cell).
    """
    cls = _resolve(parsed.class_path, spec)
    try:
        estimator = cls(**parsed.arguments())
        validate = getattr(estimator, "_validate_params", None)
        if validate is not None:
            validate()
    except (TypeError, ValueError) as exc:
        detail = " ".join(str(exc).split())
        raise IsometricsError(
            f"{_CALLER}: model {spec!r} has an invalid parameter value: {detail} Fix the value in the spec."
        ) from None
