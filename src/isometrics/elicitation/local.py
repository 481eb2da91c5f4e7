r"""Local questions for beta: "at this point, would a small gain in recall or in precision matter more?"

At a point (P, R), for every :math:`\rho \ne 0`, :math:`\partial G/\partial R > \partial G/\partial P`
exactly when :math:`(R/P)^\rho > \beta^\rho`: the answer *recall* means :math:`\beta > R/P`
when :math:`\rho < 0` and :math:`\beta < R/P` when :math:`\rho > 0` (``docs/elicitation.md``).
At :math:`\rho = 0` (the stipulated :math:`(\beta P + R)/(1 + \beta)`) the partial
derivatives are :math:`1/(1+\beta)` and :math:`\beta/(1+\beta)` at every point: the answer
only tells whether :math:`\beta < 1` (*recall*) or :math:`\beta > 1` (*precision*), and a
larger beta then weights precision more.

The questions are chosen by probabilistic bisection (Horstein 1963; Waeber, Frazier &
Henderson 2013): a posterior over a fixed log-beta grid, the next point asked at its
median, each answer weighted by a logistic likelihood (hard cuts when ``local_lambda``
is infinite). Contradictions between answers are detected and reported, never absorbed
silently. The answers bound beta given the sign of rho only: the workflow follows them
with pairwise questions (``pairwise``), in whose joint posterior each local answer counts
for every rho with its own meaning.
"""

from __future__ import annotations

import contextlib
import math
import numbers
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .._core.caller import CALLER, current_caller
from .._core.constraints import in_body, validate_params
from .._core.html import summarised
from .._typing import FloatArray
from ..exceptions import InvalidParameterError
from . import _kernel as K

#: The assumed sign of rho while asking local questions.
RhoSign = Literal["negative", "positive", "zero"]
RHO_SIGNS: tuple[str, ...] = ("negative", "positive", "zero")

#: The local phase stops when the central 95 % interval of log beta is this narrow (beta to 2 %).
LOCAL_WIDTH = 2.0 * math.log(1.02)
#: The local phase also ends when the next local answer is expected to tell less than this
#: (nats of information about (log beta, rho); a noiseless answer at the median tells ln 2):
#: with noisy answers the questions at the median then differ by a point of precision or so.
LOCAL_MIN_INFORMATION = 0.1


@contextlib.contextmanager
def named(name: str) -> Iterator[None]:
    """Inside, messages name ``name`` whichever public function runs: for an object that names itself
    wherever it is built (a question or a session read from a transcript by :func:`replay`)."""
    token = CALLER.set(name)
    try:
        yield
    finally:
        CALLER.reset(token)


def check_point(precision: Any, recall: Any, name: str = "") -> tuple[float, float]:
    """``(precision, recall)`` as floats, each a real number in (0, 1], or InvalidParameterError naming them.

    ``name`` prefixes the parameter names (``"a."`` for the first point of a pairwise question).
    """
    out = []
    for what, value in (("precision", precision), ("recall", recall)):
        ok = not isinstance(value, (bool, np.bool_)) and isinstance(value, (numbers.Real, np.floating, np.integer))
        if not ok or not 0.0 < float(value) <= 1.0:  # NaN fails the comparison
            raise InvalidParameterError(
                f"{current_caller()}: `{name}{what}` must be a real number in (0, 1] (a share, not a "
                f"percentage); got {value!r}; pass a share such as 0.9 for 90 %."
            )
        out.append(float(value))
    return out[0], out[1]


def check_options(options: Any, fixed: tuple[str, ...]) -> None:
    """Refuse ``options`` other than the question's ``fixed`` answers (they are not a choice)."""
    if not isinstance(options, tuple) or options != fixed:
        raise InvalidParameterError(
            f"{current_caller()}: `options` are the question's answers, {fixed!r}, not a choice; "
            f"got {options!r}; leave `options` out."
        )


def local_point(ratio: float) -> tuple[float, float]:
    """The point shown for the break-even ratio ``R/P = ratio``: the larger of P and R is 0.8."""
    scale = max(1.0, ratio)
    return 0.8 / scale, 0.8 * ratio / scale


@summarised()
@dataclass(frozen=True)
class LocalQuestion:
    """A local question: at precision P and recall R, does a small gain in recall or in precision matter more.

    Attributes
    ----------
    precision, recall : float
        The point shown, in (0, 1].
    options : tuple of str
        The answers accepted: ``("recall", "precision")``.
    """

    precision: float
    recall: float
    options: tuple[str, ...] = field(default=("recall", "precision"))

    kind = "local"

    def __post_init__(self) -> None:
        with named("LocalQuestion"):  # wherever it is built (a transcript read by replay too), as always
            check_options(self.options, ("recall", "precision"))
            p, r = check_point(self.precision, self.recall)
        object.__setattr__(self, "precision", p)
        object.__setattr__(self, "recall", r)

    @property
    def ratio(self) -> float:
        """``recall / precision``, the break-even ratio this question tests."""
        return self.recall / self.precision

    @property
    def text(self) -> str:
        """The question in plain words."""
        return (
            f"A model has precision {self.precision:.1%} and recall {self.recall:.1%}. "
            "Would a small gain in recall or in precision matter more to you?"
        )

    @validate_params(in_body("answer", "rho_sign"), name="LocalQuestion.meaning")
    def meaning(self, answer: str, rho_sign: str = "negative") -> str:
        """What ``answer`` says about beta, if rho has the sign ``rho_sign``."""
        self._check_answer(answer, rho_sign)
        m = f"{self.ratio:.4g}"
        if rho_sign == "zero":
            return "beta < 1" if answer == "recall" else "beta > 1"
        above = (answer == "recall") == (rho_sign == "negative")
        return f"beta {'>' if above else '<'} R/P = {m}"

    @validate_params(in_body("answer", "rho_sign"), name="LocalQuestion.bounds")
    def bounds(self, answer: str, rho_sign: str = "negative") -> tuple[float, float]:
        """The exact bounds ``(low, high)`` on beta that ``answer`` implies for every rho of the sign
        ``rho_sign`` (0 or inf where it sets none): e.g. *recall* at (0.90, 0.36) gives ``(0.36 / 0.90, inf)``."""
        self._check_answer(answer, rho_sign)
        if rho_sign == "zero":
            return (0.0, 1.0) if answer == "recall" else (1.0, math.inf)
        above = (answer == "recall") == (rho_sign == "negative")
        return (self.ratio, math.inf) if above else (0.0, self.ratio)

    def _check_answer(self, answer: Any, rho_sign: Any) -> None:
        for name, value, allowed in (("answer", answer, self.options), ("rho_sign", rho_sign, RHO_SIGNS)):
            if not isinstance(value, str) or value not in allowed:
                raise InvalidParameterError(
                    f"{current_caller()}: `{name}` must be one of {', '.join(map(repr, allowed))}; got {value!r}."
                )

    def to_dict(self) -> dict[str, Any]:
        """The question as JSON-ready data."""
        return {"kind": "local", "precision": self.precision, "recall": self.recall}


def local_margin(log_beta: FloatArray, rho: FloatArray, ratio: float, answer: str) -> FloatArray:
    """Signed margin of ``answer`` at ``R/P = ratio`` for each hypothesis (positive: agrees).

    ``-sign(rho) * (ln beta - ln ratio)`` for *recall* (``-ln beta`` at rho = 0), negated
    for *precision*.
    """
    t = np.where(rho == 0.0, -log_beta, -np.sign(rho) * (log_beta - math.log(ratio)))
    return t if answer == "recall" else -t


@dataclass(frozen=True)
class Contradiction:
    """Two answers (or an answer and the earlier ones) that no hypothesis satisfies together.

    Attributes
    ----------
    step : int
        Index (in the transcript) of the answer that contradicts.
    earlier : tuple of int
        Indices of the earlier answers it contradicts (empty when it contradicts them jointly).
    message : str
        What contradicts what, in words.
    """

    step: int
    earlier: tuple[int, ...]
    message: str

    def to_dict(self) -> dict[str, Any]:
        """The contradiction as JSON-ready data."""
        return {"step": self.step, "earlier": list(self.earlier), "message": self.message}


class LocalBisection:
    """The probabilistic bisection on log beta (one phase of :class:`Elicitation`).

    Its posterior is the joint one (log beta on the fine local grid x rho on the pairwise
    grid's values of the assumed sign, uniform prior), weighed with the same likelihood as
    every other answer: a local answer is the pairwise answer "(P, R + delta) over
    (P + delta, R)" to first order (``_kernel.local_g_margin``), so its weight depends on rho.
    The questions are asked at the median of its log-beta marginal.

    Parameters
    ----------
    rho_sign : {"negative", "positive", "zero"}
        The sign of rho assumed to read the answers.
    local_lambda : float
        Sharpness of the logistic likelihood, in units of G like the pairwise one (``inf``: hard cuts).
    beta_range : tuple of float, default=(0.05, 20)
        The hypothesis box's beta range.
    """

    def __init__(self, rho_sign: str, local_lambda: float, beta_range: tuple[float, float] = K.BETA_RANGE) -> None:
        self.rho_sign = rho_sign
        self.lam = local_lambda
        self.x = K.local_grid(beta_range)
        rho = K.pairwise_axes(beta_range)[1]
        rho = {"negative": rho[rho < 0], "positive": rho[rho > 0], "zero": np.zeros(1)}[rho_sign]
        self.rho = rho
        self.log_w = np.zeros((len(self.x), len(rho)))
        self._grid: K.Hypotheses | None = None  # the hypotheses' own terms, once asked
        self._weights: tuple[FloatArray, FloatArray] | None = None  # (log_w, its weights)
        self._information: tuple[FloatArray, float] | None = None  # (log_w, the next answer's information)
        self._last_margin: tuple[tuple[float, float], FloatArray] | None = None  # the last question's margins
        self.bounds: list[tuple[int, float, bool]] = []  # (step, log ratio, True: a lower bound on ln beta)
        self.n_answers = 0

    def weights(self) -> FloatArray:
        """The normalised posterior weights of log beta on the grid (rho summed out; read-only)."""
        if self._weights is None or self._weights[0] is not self.log_w:
            top = float(np.max(self.log_w))
            w = np.subtract(self.log_w, top)
            w = np.exp(w, out=w).sum(axis=1)
            w = w / float(np.sum(w))
            w.flags.writeable = False
            self._weights = (self.log_w, w)
        return self._weights[1]

    def _margin(self, question: LocalQuestion) -> FloatArray:
        """The margin of the answer *recall* to ``question`` for every hypothesis (log beta x rho)."""
        point = (question.precision, question.recall)
        if self._last_margin is None or self._last_margin[0] != point:  # asked (information), then answered
            if self._grid is None:
                self._grid = K.Hypotheses(*np.meshgrid(self.x, self.rho, indexing="ij"))
            margin = self._grid.local_g_margin(*point)
            margin.flags.writeable = False
            self._last_margin = (point, margin)
        return self._last_margin[1]

    def quantile(self, q: float) -> float:
        """The first grid value whose cumulative posterior weight reaches ``q``."""
        c = np.cumsum(self.weights())
        return float(self.x[int(np.flatnonzero(c >= q - K.TIE)[0])])

    def width(self) -> float:
        """Width of the central 95 % interval of log beta."""
        return self.quantile(0.975) - self.quantile(0.025)

    def converged(self) -> bool:
        """Whether the answers already pin beta down (or, at rho = 0, tell all they can)."""
        if self.rho_sign == "zero":
            return self.n_answers >= 1
        return self.width() <= LOCAL_WIDTH or (self.n_answers > 0 and self.information() < LOCAL_MIN_INFORMATION)

    def information(self) -> float:
        """Expected information (nats) of the next question's answer about (log beta, rho).

        The mutual information of the answer and the hypothesis under the posterior:
        ``H(E[p]) - E[H(p)]``, with ``p`` each hypothesis' probability of answering "recall".
        """
        if self._information is None or self._information[0] is not self.log_w:
            p = K.likelihood(self._margin(self.next_question()), self.lam)
            w = K.normalise(self.log_w)
            info = float(K.binary_entropy(np.asarray([np.sum(w * p)]))[0] - np.sum(w * K.binary_entropy(p)))
            self._information = (self.log_w, info)
        return self._information[1]

    def next_question(self) -> LocalQuestion:
        """The question at the posterior median (R/P = 1 when rho is taken as 0)."""
        ratio = 1.0 if self.rho_sign == "zero" else math.exp(self.quantile(0.5))
        p, r = local_point(ratio)
        return LocalQuestion(p, r)

    def exact_bounds(self) -> tuple[float, float]:
        """The bounds on beta the answers imply taken as noiseless, for every rho of the assumed sign:
        the largest lower bound and the smallest upper bound (0 and inf where there is none)."""
        lows = [lr for _, lr, low in self.bounds if low]
        highs = [lr for _, lr, low in self.bounds if not low]
        return (math.exp(max(lows)) if lows else 0.0, math.exp(min(highs)) if highs else math.inf)

    def update(self, question: LocalQuestion, answer: str, step: int) -> Contradiction | None:
        """Weigh the posterior by the answer; return the contradiction it makes, if any."""
        margin = self._margin(question)
        margin = margin if answer == "recall" else -margin
        self.n_answers += 1
        if self.rho_sign == "zero":
            lower = answer == "precision"  # beta > 1
            log_ratio = 0.0
        else:
            lower = (answer == "recall") == (self.rho_sign == "negative")
            log_ratio = math.log(question.ratio)
        gap = 0.0 if math.isinf(self.lam) else 2.0 / self.lam  # a gap the noise model explains is no clash
        clash = [
            s
            for s, lr, low in self.bounds
            if low != lower and ((lower and log_ratio >= lr + gap) or (not lower and log_ratio <= lr - gap))
        ]
        self.bounds.append((step, log_ratio, lower))
        new = self.log_w + K.log_likelihood(margin, self.lam)
        if not np.isfinite(new).any():  # hard cuts that leave nothing: keep the posterior, report
            clash = clash or [s for s, _, _ in self.bounds[:-1]]
            self.bounds.pop()
        else:
            self.log_w = new
        if not clash:
            return None
        said = question.meaning(answer, self.rho_sign)
        return Contradiction(
            step,
            tuple(clash),
            f"answer {step + 1} ({answer} at R/P = {question.ratio:.4g}: {said}) contradicts "
            f"answer(s) {', '.join(str(s + 1) for s in clash)}; the answers near the break-even "
            "point are the hardest: ask again or accept the noise model's weighing.",
        )

    def notes(self) -> tuple[str, ...]:
        """What the local answers can and cannot tell under the assumed sign of rho."""
        if self.rho_sign == "zero":
            return (
                "At rho = 0 (the stipulated weighted arithmetic mean (beta P + R)/(1 + beta)) a local answer "
                "is the same at every point: it only says whether beta < 1 (recall) or beta > 1 (precision), "
                "and there a larger beta weights precision more; pairwise questions tell the rest.",
            )
        return (
            f"Local answers were read with rho {'< 0' if self.rho_sign == 'negative' else '> 0'}; they bound "
            "beta, not rho, and the pairwise questions weigh them for every rho.",
        )
