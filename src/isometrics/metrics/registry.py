"""The members of the precision-recall family as :class:`Metric` objects, and the parser of their names.

The object itself (evaluated on confusion counts and on precision and recall) is in
``metric``; this module builds the family's members, names them and parses their
specifications, and pickles a metric as its specification (``copyreg``).

Metric specifications are short strings used by the API and the command line::

    f1   f0.5   f2   fbeta(beta=2)   harmonic(gamma=4)   g(beta=2, rho=-3)
    arithmetic(gamma=4)   geometric(beta=2)   power(gamma=1, phi=3)
    min   max   precision   recall   youden   top_left   cost(fp=1, fn=5)
    mcc   accuracy   balanced_accuracy   kappa   npv   specificity   markedness
    informedness   net_benefit(pt=0.2)   net_benefit@0.2

The functions behind the objects (the power-mean kernels, F-beta from counts, the exact
keys that decide ties) are in ``kernels``; this module holds the builders of the family's
members, the registry of names and the parser.
"""

from __future__ import annotations

import copyreg
import difflib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.constraints import InBody, validate_params
from .._typing import FloatArray
from ..exceptions import InvalidParameterError
from ._log_means import (
    _LIMIT_EXPONENT,  # from this |phi| (|rho| for G) on, a mean is its min/max limit
    _log_g_fixed,
)
from .kernels import (
    ExactKey,
    _accuracy,
    _cross_key,
    _exp_inplace,
    _fbeta_key,
    _fmt,
    _g_key,
    _kappa,
    _kappa_key,
    _markedness,
    _markedness_key,
    _mcc_key,
    _net_benefit,
    _net_benefit_key,
    _pm,
    _power_key,
    _power_pr,
    _ratio,
    _top_left,
    _youden,
    balanced_accuracy_from_counts,
    mcc_from_counts,
    npv_from_counts,
    specificity_from_counts,
)
from .metric import Metric

__all__ = ["Metric", "parse_metric", "METRIC_NAMES"]


# ---------------------------------------------------------------------------- builders
def _fbeta_metric(beta: float) -> Metric:
    label = "F" + _fmt(beta)
    spec = "f1" if beta == 1 else f"fbeta(beta={_fmt(beta)})"
    with np.errstate(divide="ignore"):
        log_gamma = -2.0 * math.log(beta) if beta > 0 else math.inf
    return Metric(
        spec=spec,
        label=label,
        log_gamma=log_gamma,
        phi=-1.0,
        _pr=lambda p, r: _pm(p, r, log_gamma, -1.0),
        _count_beta=beta,
        _exact=_fbeta_key(beta),
    )


def _power_metric(spec: str, label: str, gamma: float, phi: float) -> Metric:
    with np.errstate(divide="ignore"):
        log_gamma = math.log(gamma) if gamma > 0 else -math.inf
    finite = 0 < gamma < math.inf and abs(phi) < _LIMIT_EXPONENT
    corner = 1.0 if 0 < gamma < math.inf and abs(phi) >= _LIMIT_EXPONENT else None  # min or max of P and R
    return Metric(
        spec=spec,
        label=label,
        log_gamma=log_gamma,
        phi=phi,
        _pr=_power_pr(gamma, phi),
        _gamma_phi=(gamma, phi) if finite else None,
        _exact=_power_key(gamma, phi),
        _corner=corner,
    )


def _g_metric(beta: float, rho: float) -> Metric:
    spec = f"g(beta={_fmt(beta)}, rho={_fmt(rho)})"
    label = f"G(β={_fmt(beta)}, ρ={_fmt(rho)})"
    kernel_rho = math.copysign(math.inf, rho) if abs(rho) >= _LIMIT_EXPONENT else rho
    if rho == 0:
        # Stipulated (beta P + R)/(1 + beta): a weighted arithmetic mean with gamma = beta.
        log_gamma, phi = math.log(beta), 1.0
    elif math.isinf(kernel_rho):
        log_gamma, phi = 0.0, kernel_rho  # only phi's sign matters for definedness
    else:
        log_gamma, phi = rho * math.log(beta), rho + 1.0
    count_beta = beta if rho == -2 else None
    gamma_phi = None if math.isinf(kernel_rho) or abs(log_gamma) > 200 else (math.exp(log_gamma), phi)
    exact = None if math.isfinite(rho) and math.isinf(kernel_rho) else _g_key(beta, rho)
    return Metric(
        spec=spec,
        label=label,
        log_gamma=log_gamma,
        phi=phi,
        _pr=lambda p, r: _exp_inplace(_log_g_fixed(p, r, beta, kernel_rho)),
        _count_beta=count_beta,
        _gamma_phi=gamma_phi,
        _exact=exact,
        _corner=beta if math.isinf(kernel_rho) else None,
    )


def _build_cost(fp: float = 1.0, fn: float = 1.0, prevalence: float | None = None) -> Metric:
    c_fp, c_fn = _pos("fp", fp, allow_inf=False), _pos("fn", fn, allow_inf=False)
    if c_fp == 0 and c_fn == 0:
        raise InvalidParameterError("cost(...) needs a positive cost for fp or fn.")
    if prevalence is not None and not 0 < prevalence < 1:
        raise InvalidParameterError(f"metric parameter `prevalence` must be in (0, 1); got {_fmt(prevalence)}.")
    spec = f"cost(fp={_fmt(c_fp)}, fn={_fmt(c_fn)}" + (f", prevalence={_fmt(prevalence)})" if prevalence else ")")

    def cost(tp: FloatArray, fp_: FloatArray, fn_: FloatArray, tn: FloatArray) -> FloatArray:
        # Each term from its own count (no 1 - TPR): accurate to a few ulps, never above max(fp, fn).
        if prevalence is None:
            total = tp + fp_ + fn_ + tn
            return (fn_ / total) * c_fn + (fp_ / total) * c_fp
        return (prevalence * c_fn) * (fn_ / (tp + fn_)) + ((1.0 - prevalence) * c_fp) * (fp_ / (fp_ + tn))

    # Exact key: minus the cost times a positive constant, FN = P - TP.
    if prevalence is None:  # (FN c_fn + FP c_fp) / (P + N)
        (fn_a, fn_b), (fp_a, fp_b) = _ratio(c_fn), _ratio(c_fp)

        def exact(tp: Any, fp_: Any, pos: Any, neg: Any) -> tuple[Any, Any]:
            return -((pos - tp) * (fn_a * fp_b) + fp_ * (fp_a * fn_b)), 1
    else:  # A FN / P + B FP / N
        (a_a, a_b), (b_a, b_b) = (
            _ratio(Fraction(prevalence) * Fraction(c_fn)),
            _ratio((1 - Fraction(prevalence)) * Fraction(c_fp)),
        )

        def exact(tp: Any, fp_: Any, pos: Any, neg: Any) -> tuple[Any, Any]:
            return -((pos - tp) * neg * (a_a * b_b) + fp_ * pos * (b_a * a_b)), 1

    label = f"cost(FP={_fmt(c_fp)}, FN={_fmt(c_fn)})"
    return Metric(spec=spec, label=label, greater_is_better=False, _counts=cost, _exact=exact)


def _youden_metric() -> Metric:
    return Metric(
        spec="youden",
        label="Youden's J",
        _counts=_youden,
        _abs_scale=1.0,
        _exact=lambda tp, fp, pos, neg: (tp * neg - fp * pos, 1),
    )  # J P N = TP N - FP P


def _top_left_metric() -> Metric:
    # The distance to (0, 1) squared, times (P N)**2: (FP P)**2 + (FN N)**2.
    return Metric(
        spec="top_left",
        label="closeness to (0, 1)",
        _counts=_top_left,
        _abs_scale=1.0,
        _exact=lambda tp, fp, pos, neg: (-((fp * pos) ** 2 + ((pos - tp) * neg) ** 2), 1),
    )


def _matrix_metric(
    spec: str, label: str, counts: Callable[..., FloatArray], exact: ExactKey, abs_scale: float = 0.0
) -> Callable[[], Metric]:
    """A metric of the whole confusion matrix (it needs the true negatives): NaN where 0/0."""
    return lambda: Metric(spec=spec, label=label, _counts=counts, _exact=exact, _abs_scale=abs_scale)


def _build_net_benefit(pt: float | None = None) -> Metric:
    assert pt is not None
    if not 0 < pt < 1:
        raise InvalidParameterError(
            f"metric parameter `pt` of net_benefit (the threshold probability) must be in "
            f"(0, 1); got {_fmt(pt)}, e.g. net_benefit(pt=0.2)."
        )
    odds = pt / (1.0 - pt)
    return Metric(
        spec=f"net_benefit(pt={_fmt(pt)})",
        label=f"net benefit (pt={_fmt(pt)})",
        _counts=_net_benefit(odds),
        _exact=_net_benefit_key(pt),
        _abs_scale=max(1.0, odds),
    )


# ---------------------------------------------------------------------------- registry
@dataclass(frozen=True)
class _Entry:
    params: tuple[str, ...]  # accepted keyword names
    build: Callable[..., Metric]
    summary: str
    required: tuple[str, ...] = ()
    at: str | None = None  # the parameter of the shorthand name@value


def _pos(name: str, value: float, *, allow_zero: bool = True, allow_inf: bool = True) -> float:
    ok = (value >= 0 if allow_zero else value > 0) and (allow_inf or math.isfinite(value))
    if not ok or math.isnan(value):
        bound = ">= 0" if allow_zero else "> 0"
        fin = " and finite" if not allow_inf else ""
        raise InvalidParameterError(f"metric parameter `{name}` must be a number {bound}{fin}; got {_fmt(value)}.")
    return value


def _build_fbeta(beta: float = 1.0) -> Metric:
    return _fbeta_metric(_pos("beta", beta))


def _build_harmonic(beta: float | None = None, gamma: float | None = None) -> Metric:
    if beta is not None and gamma is not None:
        raise InvalidParameterError("harmonic(...) takes beta or gamma, not both (gamma = 1/beta**2).")
    if gamma is not None:
        _pos("gamma", gamma)
        beta = math.inf if gamma == 0 else 1.0 / math.sqrt(gamma)
    return _fbeta_metric(_pos("beta", 1.0 if beta is None else beta))


def _build_g(beta: float = 1.0, rho: float | None = None) -> Metric:
    assert rho is not None
    if math.isnan(rho):
        raise InvalidParameterError("metric parameter `rho` must be a number or +-inf; got nan.")
    return _g_metric(_pos("beta", beta, allow_zero=False, allow_inf=False), rho)


def _build_power(gamma: float = 1.0, phi: float | None = None) -> Metric:
    assert phi is not None
    if math.isnan(phi):
        raise InvalidParameterError("metric parameter `phi` must be a number or +-inf; got nan.")
    gamma = _pos("gamma", gamma)
    return _power_metric(
        f"power(gamma={_fmt(gamma)}, phi={_fmt(phi)})", f"W(γ={_fmt(gamma)}, φ={_fmt(phi)})", gamma, phi
    )


def _build_arithmetic(gamma: float = 1.0) -> Metric:
    gamma = _pos("gamma", gamma)
    return _power_metric(f"arithmetic(gamma={_fmt(gamma)})", f"A(γ={_fmt(gamma)})", gamma, 1.0)


#: The smallest beta of geometric(beta=...) whose gamma = 1/beta is a finite double.
_MIN_GEOMETRIC_BETA = math.nextafter(1.0 / 1.7976931348623157e308, 1.0)


def _build_geometric(beta: float | None = None, gamma: float | None = None) -> Metric:
    if beta is not None and gamma is not None:
        raise InvalidParameterError("geometric(...) takes beta or gamma, not both (gamma = 1/beta).")
    if beta is not None:
        _pos("beta", beta, allow_zero=False)
        gamma = 1.0 / beta
        if math.isinf(gamma) and math.isfinite(beta):  # gamma = 1/beta beyond double range
            raise InvalidParameterError(
                f"metric parameter `beta` of geometric(...) must be at least {_MIN_GEOMETRIC_BETA:.3g} "
                f"(gamma = 1/beta must be finite); got {beta!r}. Use geometric(gamma=inf) for precision."
            )
    gamma = _pos("gamma", 1.0 if gamma is None else gamma)
    spec = f"geometric(gamma={_fmt(gamma)})"
    return _power_metric(spec, f"Geo(γ={_fmt(gamma)})", gamma, 0.0)


def _fixed(
    spec: str, label: str, fn: Callable[[FloatArray, FloatArray], FloatArray], log_gamma: float, phi: float
) -> Callable[[], Metric]:
    exact = _power_key(math.exp(log_gamma), phi)
    corner = 1.0 if math.isinf(phi) else None
    return lambda: Metric(spec=spec, label=label, log_gamma=log_gamma, phi=phi, _pr=fn, _exact=exact, _corner=corner)


_REGISTRY: dict[str, _Entry] = {
    "fbeta": _Entry(("beta",), _build_fbeta, "F-beta, the weighted harmonic mean; beta > 1 favours recall", ("beta",)),
    "harmonic": _Entry(("beta", "gamma"), _build_harmonic, "weighted harmonic mean (= F-beta, gamma = 1/beta^2)"),
    "g": _Entry(
        ("beta", "rho"), _build_g, "G(beta, rho): beta = break-even R/P, rho = curvature (-2 is F-beta)", ("rho",)
    ),
    "power": _Entry(("gamma", "phi"), _build_power, "weighted power mean W(gamma, phi)", ("phi",)),
    "arithmetic": _Entry(("gamma",), _build_arithmetic, "weighted arithmetic mean (gamma P + R)/(1 + gamma)"),
    "geometric": _Entry(("beta", "gamma"), _build_geometric, "weighted geometric mean (P R^beta)^(1/(1+beta))"),
    "min": _Entry(
        (), _fixed("min", "min(P, R)", lambda p, r: np.minimum(p, r), 0.0, -math.inf), "min(precision, recall)"
    ),
    "max": _Entry(
        (), _fixed("max", "max(P, R)", lambda p, r: np.maximum(p, r), 0.0, math.inf), "max(precision, recall)"
    ),
    "precision": _Entry(
        (),
        _fixed("precision", "precision", lambda p, r: np.broadcast_arrays(p, r)[0] * 1.0, math.inf, 1.0),
        "precision",
    ),
    "recall": _Entry(
        (), _fixed("recall", "recall", lambda p, r: np.broadcast_arrays(r, p)[0] * 1.0, -math.inf, 1.0), "recall"
    ),
    "youden": _Entry((), _youden_metric, "Youden's J = informedness = TPR - FPR"),
    "informedness": _Entry((), _youden_metric, "alias of youden"),
    "top_left": _Entry((), _top_left_metric, "1 - distance to the ROC corner (0, 1) / sqrt(2)"),
    "cost": _Entry(
        ("fp", "fn", "prevalence"),
        _build_cost,
        "expected cost per sample, pi (1 - TPR) fn + (1 - pi) FPR fp (minimised)",
    ),
    "mcc": _Entry((), _matrix_metric("mcc", "MCC", mcc_from_counts, _mcc_key, 1.0), "Matthews correlation coefficient"),
    "accuracy": _Entry(
        (),
        _matrix_metric("accuracy", "accuracy", _accuracy, lambda tp, fp, pos, neg: (tp + neg - fp, 1)),
        "(TP + TN) / n",
    ),
    "balanced_accuracy": _Entry(
        (),
        _matrix_metric(
            "balanced_accuracy",
            "balanced accuracy",
            balanced_accuracy_from_counts,
            lambda tp, fp, pos, neg: (_cross_key(tp, fp, pos, neg), 1),
        ),
        "(TPR + TNR) / 2",
    ),
    "kappa": _Entry((), _matrix_metric("kappa", "Cohen's kappa", _kappa, _kappa_key, 1.0), "Cohen's kappa"),
    "npv": _Entry(
        (),
        _matrix_metric("npv", "NPV", npv_from_counts, lambda tp, fp, pos, neg: (neg - fp, neg - fp + pos - tp)),
        "negative predictive value TN / (TN + FN)",
    ),
    "specificity": _Entry(
        (),
        _matrix_metric("specificity", "specificity", specificity_from_counts, lambda tp, fp, pos, neg: (neg - fp, 1)),
        "TN / N = 1 - FPR",
    ),
    "markedness": _Entry(
        (), _matrix_metric("markedness", "markedness", _markedness, _markedness_key, 1.0), "PPV + NPV - 1"
    ),
    "net_benefit": _Entry(
        ("pt",), _build_net_benefit, "net benefit TP/n - FP/n pt/(1 - pt) (decision curves)", ("pt",), at="pt"
    ),
}

#: Names accepted by :func:`parse_metric` (besides the shorthands ``f1``, ``f0.5``, ``f2``, ...).
METRIC_NAMES: tuple[str, ...] = tuple(_REGISTRY)

_NUMBER = r"[-+]?(?:inf|(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)"

_SHORT_F = re.compile(rf"^f\s*({_NUMBER})$", re.IGNORECASE)

_AT = re.compile(rf"^([a-z_][a-z0-9_]*)\s*@\s*({_NUMBER})$", re.IGNORECASE)

_CALL = re.compile(r"^([a-z_][a-z0-9_]*)\s*(?:\((.*)\))?$", re.IGNORECASE | re.DOTALL)

_ARG = re.compile(rf"^\s*([a-z_][a-z0-9_]*)\s*=\s*({_NUMBER})\s*$", re.IGNORECASE)


def _metric_help() -> str:
    return "known metrics: f1, f0.5, f2, " + ", ".join(
        f"{name}({', '.join(e.params)})" if e.params else name for name, e in _REGISTRY.items()
    )


@validate_params({"spec": InBody("a metric name such as 'f1' or 'fbeta(beta=2)', or a Metric")})
def parse_metric(spec: str | Metric) -> Metric:
    r"""Parse a metric specification such as ``"f2"``, ``"g(beta=2, rho=-3)"`` or ``"cost(fp=1, fn=5)"``.

    Parameters
    ----------
    spec : str or Metric
        ``f<beta>`` (``f1``, ``f0.5``, ``f2``), or ``name`` or ``name(key=value, ...)``
        with ``name`` one of :data:`METRIC_NAMES`: ``fbeta(beta)``,
        ``harmonic(beta | gamma)``, ``g(beta=1, rho)``, ``power(gamma=1, phi)``,
        ``arithmetic(gamma=1)``, ``geometric(beta | gamma)``, ``min``, ``max``,
        ``precision``, ``recall``; and the ROC-space criteria ``youden`` (alias
        ``informedness``), ``top_left`` and ``cost(fp=1, fn=1, prevalence=None)``
        (expected misclassification cost per sample, at the data's prevalence unless
        given; lower is better); the whole-matrix metrics ``mcc``, ``accuracy``,
        ``balanced_accuracy``, ``kappa`` (Cohen's), ``npv``, ``specificity``,
        ``markedness`` and ``net_benefit(pt)`` (alias ``net_benefit@pt``: net benefit
        at the threshold probability ``pt`` in (0, 1), see Notes). Values may be
        ``inf``; every finite value in double range is evaluated without overflow (see
        Notes). A :class:`Metric` is returned unchanged.

    Returns
    -------
    Metric
        The parsed metric, with a canonical ``spec`` and a short ``label``.

    Raises
    ------
    InvalidParameterError
        If the specification cannot be parsed: unknown name (the message suggests the
        closest known one), unknown or missing parameter, a value that is not a number
        or out of range. The message says what was wrong and lists what is accepted.

    Notes
    -----
    F-beta is computed as :math:`TP / (w (TP + FP) + (1 - w)(TP + FN))` with
    :math:`w = 1/(1 + \beta^2)` taken through logarithms for extreme beta, so no beta
    overflows. From :math:`|\varphi| = 10^{20}` (:math:`|\rho| = 10^{20}` for G) on, a
    mean is evaluated as its limit (min or max of precision and recall, scaled by beta
    for G), which it equals to double precision (relative difference below 2e-17).

    The whole-matrix metrics are those of the predictions at a threshold, with
    :math:`n = TP + FP + FN + TN`: MCC
    :math:`(TP\,TN - FP\,FN)/\sqrt{(TP+FP)(TP+FN)(TN+FP)(TN+FN)}`, Cohen's kappa
    :math:`2(TP\,TN - FP\,FN)/((TP+FP)(FP+TN) + (TP+FN)(FN+TN))`, markedness
    :math:`TP/(TP+FP) + TN/(TN+FN) - 1`, and the net benefit of decision-curve
    analysis [1]_, :math:`TP/n - (FP/n)\, p_t/(1 - p_t)`, the benefit of treating the
    flagged patients in units of true positives per patient when a false positive
    costs :math:`p_t/(1-p_t)` true positives. Where a metric is 0/0 (MCC and
    markedness with no or every sample predicted positive, NPV with every sample
    predicted positive) its value on counts is NaN, the ``zero_division=np.nan``
    convention: :func:`isometrics.best_threshold` never picks such a point, and
    :func:`isometrics.matthews_corrcoef` takes ``zero_division`` for a substitute.

    References
    ----------
    .. [1] A. J. Vickers and E. B. Elkin, "Decision curve analysis: a novel method for
       evaluating prediction models", Medical Decision Making 26(6):565-574, 2006.

    Examples
    --------
    >>> from isometrics import parse_metric
    >>> parse_metric("f0.5").label
    'F0.5'
    >>> parse_metric("g(beta=2, rho=-2)").from_precision_recall(0.5, 1.0).round(12)
    np.float64(0.833333333333)
    """
    if isinstance(spec, Metric):
        return spec
    if not isinstance(spec, str):
        raise InvalidParameterError(f"metric must be a string such as 'f1' or a Metric; got {spec!r}.")
    text = spec.strip()
    short = _SHORT_F.match(text)
    if short:
        return _build_fbeta(float(short.group(1)))
    at = _AT.match(text)
    at_entry = _REGISTRY.get(at.group(1).lower()) if at else None
    if at and at_entry is not None and at_entry.at:
        return at_entry.build(**{at_entry.at: float(at.group(2))})
    call = _CALL.match(text)
    if not call:
        raise InvalidParameterError(
            f"cannot parse metric {spec!r}: write name or name(key=value, ...), e.g. 'g(beta=2, rho=-3)'; {_metric_help()}."
        )
    name, args = call.group(1).lower(), call.group(2)
    entry = _REGISTRY.get(name)
    if entry is None:
        close = difflib.get_close_matches(name, [*_REGISTRY, "f1", "f2"], n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise InvalidParameterError(f"unknown metric {name!r}.{hint} {_metric_help()}.")
    kwargs: dict[str, float] = {}
    if args is not None and args.strip():
        for part in args.split(","):
            m = _ARG.match(part)
            if not m:
                raise InvalidParameterError(
                    f"cannot parse {part.strip()!r} in metric {spec!r}: arguments are key=number, e.g. "
                    f"{name}({', '.join(f'{p}=0.2' if p == 'pt' else f'{p}=2' for p in entry.params) or ''})."
                )
            key, value = m.group(1).lower(), float(m.group(2))
            if key not in entry.params:
                accepted = ", ".join(entry.params) or "no parameters"
                raise InvalidParameterError(f"metric {name!r} has no parameter {key!r}; it accepts: {accepted}.")
            if key in kwargs:
                raise InvalidParameterError(f"parameter {key!r} given twice in metric {spec!r}.")
            kwargs[key] = value
    missing = [p for p in entry.required if p not in kwargs]
    if missing:
        raise InvalidParameterError(
            f"metric {name!r} needs {', '.join(missing)}: e.g. "
            f"{name}({', '.join({'rho': 'rho=-2', 'pt': 'pt=0.2'}.get(p, f'{p}=2') for p in entry.params)})."
        )
    return entry.build(**kwargs)


def _reduce_metric(metric: Metric) -> tuple[Any, ...]:
    """Pickle a :class:`Metric` as its specification: ``parse_metric(spec)`` rebuilds an equal metric.

    The evaluation functions are closures, which pickle cannot store; every metric
    built by :func:`parse_metric` is determined by its canonical ``spec``. Registered with
    :func:`copyreg.pickle` below (the object lives in ``metric``, which cannot name the parser).
    """
    if parse_metric(metric.spec) != metric:
        raise TypeError(
            f"Metric {metric.spec!r} was not built by parse_metric and cannot be pickled; "
            "pickle its specification string instead."
        )
    return (parse_metric, (metric.spec,))


copyreg.pickle(Metric, _reduce_metric)
