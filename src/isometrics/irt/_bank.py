"""Checking an item bank where it enters: one check for every entry point that takes a bank.

:class:`~isometrics.irt.model.Beta3IRT` runs :func:`bank_fields` when it is built (by
:func:`~isometrics.irt.model.fit_beta3` or by hand, from published item parameters), and
:func:`~isometrics.irt.adaptive.adaptive_test` runs it again on the bank it is given (one
unpickled or changed behind the constructor's back), naming the fields ``bank.<field>``.
:func:`check_ability` checks the abilities the bank's methods are asked about.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.arrays import check_real_array
from .._core.caller import CALLER, current_caller
from .._core.parameters import check_real
from ..exceptions import InvalidParameterError, IsometricsError

_FIX = "pass the bank fit_beta3 returned, or parameters of the same kind"


def check_ability(ability: Any) -> np.ndarray:
    """``ability`` (a number or an array of them) as floats, each in the open interval (0, 1)."""
    t = check_real_array(ability, "ability")
    if not np.all((t > 0.0) & (t < 1.0)):
        raise IsometricsError(
            f"{current_caller()}: `ability` must lie in the open interval (0, 1); got {ability!r}; pass "
            "abilities on the probability scale, as the bank's `ability`."
        )
    return t


def _names(value: Any, field: str, what: str) -> tuple[str, ...]:
    if (
        isinstance(value, (str, bytes))
        or not isinstance(value, (tuple, list, np.ndarray))
        or not all(type(v) is str or isinstance(v, str) for v in value)
    ):
        raise InvalidParameterError(
            f"{current_caller()}: `{field}` must be a tuple of names (str), one per {what}; got {value!r:.80}."
        )
    names = tuple(value)
    if len(set(names)) < len(names):
        seen: set[str] = set()
        twice = next(name for name in names if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise IsometricsError(f"{current_caller()}: `{field}` names must be unique; {twice!r} is given twice.")
    return names


def _vector(value: Any, field: str, names: tuple[str, ...], what: str) -> np.ndarray:
    v = check_real_array(value, field)
    if v.shape != (len(names),):
        count = v.size if v.ndim == 1 else f"shape {v.shape} of"
        raise IsometricsError(
            f"{current_caller()}: `{field}` has {count} values for {len(names)} {what}s; give one per {what}."
        )
    return v


def _first(bad: np.ndarray, values: np.ndarray, names: tuple[str, ...], what: str) -> str:
    k = int(np.flatnonzero(bad)[0])
    return f"{what} {names[k]!r} has {float(values[k])!r}"


def bank_fields(bank: Any, prefix: str = "", *, name: str | None = None) -> dict[str, Any]:
    """The fields of a bank that computations read, checked and normalised (tuples of names, float arrays).

    ``prefix`` is written before each field's name in the messages (``"bank."`` where the bank
    is a parameter). The messages name the public function being called, or ``name`` when
    given: the constructor of :class:`~isometrics.irt.beta3.Beta3IRT` names itself, whichever
    function builds the bank. Raises :class:`InvalidParameterError` for a field of the wrong
    type and :class:`IsometricsError` for one of the wrong length or with a value no fit can give.
    """
    token = None if name is None else CALLER.set(name)
    try:
        return _bank_fields(bank, prefix)
    finally:
        if token is not None:
            CALLER.reset(token)


def _bank_fields(bank: Any, prefix: str) -> dict[str, Any]:
    items = _names(bank.items, f"{prefix}items", "item")
    respondents = _names(bank.respondents, f"{prefix}respondents", "respondent")
    if not items:
        raise IsometricsError(f"{current_caller()}: `{prefix}items` is empty; a bank holds at least one item.")
    out: dict[str, Any] = {"items": items, "respondents": respondents}
    for field, names, what in (
        ("ability", respondents, "respondent"),
        ("ability_se", respondents, "respondent"),
        ("difficulty", items, "item"),
        ("difficulty_se", items, "item"),
        ("discrimination", items, "item"),
        ("discrimination_se", items, "item"),
    ):
        v = _vector(getattr(bank, field), f"{prefix}{field}", names, what)
        if field in ("ability", "difficulty"):
            bad = ~((v > 0.0) & (v < 1.0))
            rule = "must lie in (0, 1)"
        elif field == "discrimination":
            bad, rule = ~np.isfinite(v), "must be finite"
        else:
            bad, rule = v < 0.0, "must be >= 0 (or NaN)"  # standard errors: NaN where a fit could not take one
        if bad.any():
            raise IsometricsError(
                f"{current_caller()}: `{prefix}{field}` {rule}; {_first(bad, v, names, what)}; {_FIX}."
            )
        out[field] = v
    out["eps"] = check_real(bank.eps, f"{prefix}eps", low=0.0, high=0.5, low_inclusive=False, high_inclusive=False)
    try:
        r = np.asarray(bank.resolution, dtype=float)
    except (TypeError, ValueError):
        r = np.array([-1.0])
    nan = np.isnan(r)
    if r.shape not in ((), (len(items),)) or np.any(~nan & ~((r >= 0.0) & (r < 1.0))) or (nan.any() and not nan.all()):
        raise InvalidParameterError(
            f"{current_caller()}: `{prefix}resolution` must be NaN, a number in [0, 1) or one per item "
            f"({len(items)}); got {bank.resolution!r:.80}; NaN for a bank fitted with "
            "`eps`, else the resolution fit_beta3 reported."
        )
    out["resolution"] = float(r) if r.ndim == 0 else r
    return out
