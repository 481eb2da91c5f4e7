"""Parameters declared per public function: constraints, and the decorator that checks them.

A public function states what each of its parameters accepts once, beside its signature::

    @validate_params({"y_true": ARRAY, "max_fpr": [Interval(Real, 0, 1, closed="right"), None], ...})
    def roc_auc_score(y_true, ..., max_fpr=None): ...

:func:`validate_params` records the declaration on the function (``parameter_constraints``, which
the common tests introspect: every parameter declared, and an invalid value of each constraint
refused), checks the scalar and option parameters given before the call (the arrays are the
data checkers' work in the body: ``ARRAY`` declares them), and sets
:data:`~isometrics._core.caller.CALLER` to the function's name for the call, so that every
checker names it in its messages without a ``caller`` argument. A parameter accepts a value
when one of its constraints does (``None`` stands for the constraint "is None"); otherwise
the first constraint that is not ``None`` writes the message, in the house template *what,
where, value, fix*, through the same checkers the bodies call (:func:`check_real`,
:func:`check_integer`, :func:`check_option`, :func:`check_rng`), so a message is the same
whether the declaration or the body refuses the value.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import numpy as np

from ..exceptions import InvalidParameterError
from .caller import CALLER, NAMED_CODE, current_caller
from .labels import check_pos_label
from .parameters import check_integer, check_option, check_real, check_rng, check_zero_division

__all__ = [
    "Constraint",
    "Interval",
    "Options",
    "Boolean",
    "String",
    "Instance",
    "Callable_",
    "RandomState",
    "Checked",
    "InBody",
    "in_body",
    "ARRAY",
    "POS_LABEL",
    "ZERO_DIVISION",
    "NUMBERS",
    "Real",
    "Integral",
    "validate_params",
    "declared_params",
    "user_stacklevel",
]

Real = numbers.Real
Integral = numbers.Integral

_F = TypeVar("_F", bound=Callable[..., Any])

#: A value no constraint of the package accepts (the common tests' last resort).
_ODD = object()


class Constraint:
    """One kind of value a parameter accepts; a parameter accepts a value when one of its constraints does."""

    #: Whether :func:`validate_params` checks it before the call (``False``: the body checks it).
    checked = True

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` satisfies the constraint."""
        raise NotImplementedError

    def describe(self) -> str:
        """The constraint as a message writes it (``"a real number in (0, 1]"``)."""
        raise NotImplementedError

    def raise_for(self, value: Any, name: str) -> None:
        """Raise :class:`InvalidParameterError` for a value no constraint of the parameter accepted.

        The message names the declared function being called (:func:`current_caller`).
        """
        raise InvalidParameterError(f"{current_caller()}: `{name}` must be {self.describe()}; got {value!r}.")

    def invalid_values(self) -> list[Any]:
        """Values the constraint refuses (the common tests call the function with them)."""
        return []

    def __repr__(self) -> str:
        return f"<{self.describe()}>"


class Interval(Constraint):
    """A real number (``kind=Real``) or an integer (``kind=Integral``) between ``low`` and ``high``.

    ``closed`` says which ends belong to it: ``"both"``, ``"left"``, ``"right"`` or ``"neither"``;
    ``None`` for an end is no bound. ``allow_inf`` admits ±infinity for a real number (within the
    bounds). Integers accept integral floats (``1000.0``), as :func:`check_integer` does.
    """

    def __init__(
        self,
        kind: type,
        low: float | None,
        high: float | None,
        *,
        closed: str = "both",
        allow_inf: bool = False,
    ) -> None:
        if kind not in (Real, Integral):
            raise TypeError(f"Interval: kind must be numbers.Real or numbers.Integral; got {kind!r}.")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"Interval: closed must be 'both', 'left', 'right' or 'neither'; got {closed!r}.")
        if kind is Integral and closed != "both":
            raise ValueError("Interval: an integer interval is closed on both ends (write the bounds as integers).")
        self.kind, self.low, self.high, self.closed, self.allow_inf = kind, low, high, closed, allow_inf

    def _check(self, value: Any, name: str) -> Any:
        if self.kind is Integral:
            return check_integer(
                value,
                name,
                low=None if self.low is None else int(self.low),
                high=None if self.high is None else int(self.high),
            )
        return check_real(
            value,
            name,
            low=-math.inf if self.low is None else self.low,
            high=math.inf if self.high is None else self.high,
            low_inclusive=self.closed in ("both", "left"),
            high_inclusive=self.closed in ("both", "right"),
            allow_inf=self.allow_inf,
        )

    def accepts(self, value: Any) -> bool:
        kind = type(value)
        if kind is float or kind is int:  # the common case, without the checker's conversions
            if kind is float and (
                value != value or (not self.allow_inf or self.kind is Integral) and abs(value) == math.inf
            ):
                return False
            if self.kind is Integral and kind is float and not value.is_integer():
                return False
            low, high, closed = self.low, self.high, self.closed
            if low is not None and (value < low if closed in ("both", "left") else value <= low):
                return False
            return high is None or (value <= high if closed in ("both", "right") else value < high)
        try:
            self._check(value, "")
        except InvalidParameterError:
            return False
        return True

    def raise_for(self, value: Any, name: str) -> None:
        self._check(value, name)
        super().raise_for(value, name)  # accepted by the checker yet not by accepts(): never

    def describe(self) -> str:
        what = "an integer" if self.kind is Integral else "a real number"
        if self.low is None and self.high is None:
            return what
        left = "[" if self.closed in ("both", "left") and self.low is not None else "("
        right = "]" if self.closed in ("both", "right") and self.high is not None else ")"
        low = "-inf" if self.low is None else f"{self.low:g}"
        high = "inf" if self.high is None else f"{self.high:g}"
        return f"{what} in {left}{low}, {high}{right}"

    def invalid_values(self) -> list[Any]:
        values: list[Any] = ["1", math.nan]
        if self.kind is Integral:
            values.append(1.5)
        if self.low is not None:
            values.append(self.low - 1 if self.closed in ("both", "left") else self.low)
        if self.high is not None:
            values.append(self.high + 1 if self.closed in ("both", "right") else self.high)
        return values


class Options(Constraint):
    """One of the given values (strings, numbers; ``None`` is declared apart)."""

    def __init__(self, *options: Any) -> None:
        self.options = tuple(options)

    def accepts(self, value: Any) -> bool:
        try:
            return bool(value in self.options)
        except (TypeError, ValueError):  # an array compared element-wise
            return False

    def raise_for(self, value: Any, name: str) -> None:
        if not isinstance(value, np.ndarray):  # an array: check_option cannot compare it
            check_option(value, name, self.options)
        raise InvalidParameterError(
            f"{current_caller()}: `{name}` must be one of {', '.join(repr(o) for o in self.options)}; got {value!r}."
        )

    def describe(self) -> str:
        return "one of " + ", ".join(repr(o) for o in self.options)

    def invalid_values(self) -> list[Any]:
        return ["not-an-option", 12345]


class Boolean(Constraint):
    """``True`` or ``False`` (NumPy booleans too)."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, (bool, np.bool_))

    def describe(self) -> str:
        return "True or False"

    def invalid_values(self) -> list[Any]:
        return ["yes", 2]


class String(Constraint):
    """Any string (its content is checked in the body)."""

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def describe(self) -> str:
        return "a string"

    def invalid_values(self) -> list[Any]:
        return [12345]


class Instance(Constraint):
    """An instance of one of the given types."""

    def __init__(self, *types: type, what: str | None = None) -> None:
        self.types = types
        self.what = what

    def accepts(self, value: Any) -> bool:
        return isinstance(value, self.types)

    def describe(self) -> str:
        return self.what or " or ".join(f"a {t.__name__}" for t in self.types)

    def invalid_values(self) -> list[Any]:
        return [_ODD]


class Callable_(Constraint):
    """A callable (a function, a class, an object with ``__call__``)."""

    def accepts(self, value: Any) -> bool:
        return callable(value)

    def describe(self) -> str:
        return "a callable"

    def invalid_values(self) -> list[Any]:
        return [12345]


class RandomState(Constraint):
    """What :func:`numpy.random.default_rng` takes: ``None``, a seed, a SeedSequence, a BitGenerator, a Generator."""

    def accepts(self, value: Any) -> bool:
        if value is None or isinstance(value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)):
            return True
        if isinstance(value, (bool, np.bool_)):
            return False
        if isinstance(value, (numbers.Integral, np.integer)):
            return bool(int(value) >= 0)
        try:
            check_rng(value)
        except InvalidParameterError:
            return False
        return True

    def raise_for(self, value: Any, name: str) -> None:
        check_rng(value, name=name)
        super().raise_for(value, name)

    def describe(self) -> str:
        return "None, an integer seed or a numpy.random.Generator"

    def invalid_values(self) -> list[Any]:
        return [-1, "seed"]


class Checked(Constraint):
    """A value one of the package's checkers accepts: ``checker(value)`` raises
    :class:`InvalidParameterError` otherwise (``check_zero_division``, ``check_n_jobs``...),
    naming the declared function being called.

    ``what`` says what it takes; ``invalid`` lists values the checker refuses, for the common tests.
    """

    def __init__(self, checker: Callable[..., Any], what: str, *, invalid: Iterable[Any] = ()) -> None:
        self.checker = checker
        self.what = what
        self.invalid = list(invalid)
        # A checker of another layer that still requires ``caller`` is given the current name
        # (the one the declaration has set); one whose ``caller`` is optional or gone reads it.
        parameter = inspect.signature(checker).parameters.get("caller")
        self._requires_caller = parameter is not None and parameter.default is inspect.Parameter.empty

    def _call(self, value: Any) -> None:
        if self._requires_caller:
            self.checker(value, caller=current_caller())
        else:
            self.checker(value)

    def accepts(self, value: Any) -> bool:
        try:
            self._call(value)
        except InvalidParameterError:
            return False
        return True

    def raise_for(self, value: Any, name: str) -> None:
        self._call(value)
        super().raise_for(value, name)

    def describe(self) -> str:
        return self.what

    def invalid_values(self) -> list[Any]:
        return list(self.invalid)


class InBody(Constraint):
    """A parameter the body checks (a metric spec, a table, an object of the package): declared, not checked here.

    ``what`` says what it takes; ``invalid`` lists values the body refuses with an
    :class:`InvalidParameterError` naming the function and the parameter, for the common tests.
    """

    checked = False

    def __init__(self, what: str, *, invalid: Iterable[Any] = ()) -> None:
        self.what = what
        self.invalid = list(invalid)

    def accepts(self, value: Any) -> bool:
        return True

    def describe(self) -> str:
        return self.what

    def invalid_values(self) -> list[Any]:
        return list(self.invalid)


#: An array-like of data (labels, scores, weights...): converted and checked by the data checkers in the body.
ARRAY = InBody("an array-like")

#: The positive class: one label, not a sequence or bytes (whether it is a label of ``y_true`` is the body's check).
POS_LABEL = Checked(check_pos_label, "one label (an int, float, bool or str)", invalid=[[0, 1], b"1"])

#: ``zero_division``: "warn", 0.0, 1.0 or NaN.
ZERO_DIVISION = Checked(check_zero_division, "'warn', 0.0, 1.0 or np.nan", invalid=["never", 0.5])

#: Real numbers or arrays of them that broadcast (precision, recall, ``beta``...): checked in the body.
NUMBERS = InBody("a real number or an array of real numbers", invalid=["a"])


def in_body(*params: str) -> dict[str, InBody]:
    """Parameters the body checks, declared together (their own tests cover their values).

    Parameters
    ----------
    *params : str
        The parameters' names.

    Returns
    -------
    dict
        Each name -> an :class:`InBody` constraint.
    """
    return {param: InBody("checked in the body") for param in params}


def _constraints(declared: Any) -> tuple[Constraint | None, ...]:
    """A declaration's entry as a tuple of constraints (``None``: the value ``None``)."""
    items = declared if isinstance(declared, (list, tuple)) else [declared]
    for item in items:
        if item is not None and not isinstance(item, Constraint):
            raise TypeError(f"validate_params: {item!r} is not a Constraint or None.")
    return tuple(items)


def _checker(constraints: tuple[Constraint | None, ...]) -> Callable[[Any, str], None] | None:
    """A check of one parameter's value, or ``None`` when every constraint is left to the body."""
    checked = [c for c in constraints if c is not None and c.checked]
    if not checked or any(c is not None and not c.checked for c in constraints):
        return None
    allow_none = None in constraints
    first = checked[0]

    def check(value: Any, name: str) -> None:
        if value is None and allow_none:
            return
        for constraint in checked:
            if constraint.accepts(value):
                return
        first.raise_for(value, name)

    return check


def _wrapper(func: Callable[..., Any], public: str, checks: tuple) -> Callable[..., Any]:
    """The function a declaration returns: checks, then ``func`` with :data:`CALLER` set (outermost wins)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = CALLER.set(public) if CALLER.get() is None else None
        try:  # the checks name the function through CALLER, as the checkers in the body do
            for param, position, check in checks:
                if param in kwargs:
                    check(kwargs[param], param)
                elif 0 <= position < len(args):
                    check(args[position], param)
            return func(*args, **kwargs)
        finally:
            if token is not None:
                CALLER.reset(token)

    return wrapper


#: The code of every declared function's wrapper, and of every ``takes_caller`` one: the frames :func:`user_stacklevel` skips.
_WRAPPER_CODES = (_wrapper(print, "", ()).__code__, NAMED_CODE)


def user_stacklevel(stacklevel: int) -> int:
    """The ``stacklevel`` to give :func:`warnings.warn`, at the warning's site, so that it skips the wrappers.

    ``stacklevel`` counts frames from the site (1) up to the line the warning should point at, as
    if no function were declared; each :func:`validate_params` wrapper between adds a frame, which
    this skips, so a warning points at the user's line however the public functions nest.

    Parameters
    ----------
    stacklevel : int
        The level counted without wrappers (2: the caller of the function warning).

    Returns
    -------
    int
        The level counted with them.
    """
    frame = sys._getframe(1)
    level = counted = 1
    while counted < stacklevel and frame.f_back is not None:
        frame = frame.f_back
        level += 1
        if frame.f_code not in _WRAPPER_CODES:
            counted += 1
    return level


def validate_params(constraints: dict[str, Any], *, name: str | None = None) -> Callable[[_F], _F]:
    """Declare a public function's parameters; check them and name the function for the call.

    Parameters
    ----------
    constraints : dict
        Parameter name -> a :class:`Constraint`, ``None`` (the value ``None``) or a list of
        them (any one accepts). Every parameter of the signature is declared (the common
        tests check it); arrays of data are :data:`ARRAY`, values the body checks :class:`InBody`.
    name : str, optional
        The name messages give the function (its ``__name__`` by default; ``"Class"`` for an
        ``__init__``).

    Returns
    -------
    callable
        A decorator. The function it returns has the wrapped function's name, docstring,
        signature and module (:func:`functools.wraps`), and ``parameter_constraints``: the
        declaration, as tuples of constraints.
    """

    def decorate(func: _F) -> _F:
        declared = {param: _constraints(c) for param, c in constraints.items()}
        public = name or func.__name__
        positions = {p: i for i, p in enumerate(inspect.signature(func).parameters)}
        checks = tuple(
            (param, positions.get(param, -1), check)
            for param, cons in declared.items()
            if (check := _checker(cons)) is not None
        )

        wrapper = functools.wraps(func)(_wrapper(func, public, checks))
        wrapper.parameter_constraints = declared  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def declared_params(obj: Any) -> dict[str, tuple[Constraint | None, ...]] | None:
    """The declaration of a function, or of a class's ``__init__``; ``None`` when it has none.

    Parameters
    ----------
    obj : callable
        A public function or class.

    Returns
    -------
    dict or None
        Parameter name -> its constraints.
    """
    target = obj.__init__ if inspect.isclass(obj) else obj
    return getattr(target, "parameter_constraints", None)
