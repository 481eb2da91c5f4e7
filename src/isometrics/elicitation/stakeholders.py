"""Simulated stakeholders: answers from a known G(beta, rho), noiseless or logistic.

They answer with the library's own metric code (``g_beta_rho``, ``level_curve_slope``),
not with the question engine's kernel, so that a test of the engine against them compares
two implementations.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import in_body, validate_params
from .._core.html import summarised
from .._core.validation import check_option, check_real, check_rng
from ..exceptions import InvalidParameterError
from ..metrics.means import g_beta_rho
from ..spaces.level_curves import level_curve_slope
from .local import LocalQuestion
from .pairwise import PairwiseQuestion


def _check_question(question: Any, kinds: tuple[type, ...]) -> None:
    if not isinstance(question, kinds):
        raise InvalidParameterError(
            f"{current_caller()}: `question` must be a {' or a '.join(k.__name__ for k in kinds)}; got "
            f"{type(question).__name__}; pass the question an Elicitation asks."
        )


@summarised("beta", "rho", "pairwise_lambda")
class SimulatedStakeholder:
    """A stakeholder whose preferences are G(beta, rho), answering local and pairwise questions.

    Noiseless by default; with a finite ``pairwise_lambda`` a pairwise answer prefers A with
    probability :math:`\\sigma(\\lambda (G(A) - G(B)))`, and with a finite ``local_lambda`` a
    local answer says *recall* with probability :math:`\\sigma(\\lambda_l t)`, where
    :math:`t = \\ln(-S)/|\\rho|` (:math:`S` the level-curve slope, so :math:`t = \\ln\\beta - \\ln(R/P)`
    for rho < 0) and :math:`t = -\\ln\\beta` at rho = 0.

    Parameters
    ----------
    beta : float
        The true beta, finite and > 0.
    rho : float
        The true rho, finite.
    pairwise_lambda, local_lambda : float, default=inf
        Sharpness of the answers' noise (> 0; ``inf``: noiseless).
    noise : {"logistic", "probit"}, default="logistic"
        The noise's shape: ``sigma(lambda d)`` or ``Phi(lambda d / 1.702)`` (the normal CDF scaled
        to the logistic's slope), so that a test can answer from another model than the engine's.
    lapse : float, default=0.0
        Share of answers given at random (a lapse of attention), in [0, 1).
    rng : int, numpy.random.Generator or None, default=None
        Randomness of the noisy answers (SPEC 7).

    Raises
    ------
    InvalidParameterError
        If a parameter is out of range.

    Examples
    --------
    >>> from isometrics.elicitation import SimulatedStakeholder
    >>> from isometrics.elicitation import LocalQuestion
    >>> SimulatedStakeholder(beta=0.5, rho=-2.0)(LocalQuestion(precision=0.90, recall=0.36))
    'recall'
    """

    @validate_params(
        in_body("beta", "rho", "pairwise_lambda", "local_lambda", "noise", "lapse", "rng"), name="SimulatedStakeholder"
    )
    def __init__(
        self,
        beta: float,
        rho: float,
        *,
        pairwise_lambda: float = math.inf,
        local_lambda: float = math.inf,
        noise: str = "logistic",
        lapse: float = 0.0,
        rng: Any = None,
    ) -> None:
        self.beta = check_real(beta, "beta", low=0.0, low_inclusive=False)
        self.rho = check_real(rho, "rho")
        self.pairwise_lambda = check_real(
            pairwise_lambda, "pairwise_lambda", low=0.0, low_inclusive=False, allow_inf=True
        )
        self.local_lambda = check_real(local_lambda, "local_lambda", low=0.0, low_inclusive=False, allow_inf=True)
        self.noise = check_option(noise, "noise", ("logistic", "probit"))
        self.lapse = check_real(lapse, "lapse", low=0.0, high=1.0, high_inclusive=False)
        self._rng = check_rng(rng)
        self.spec = f"g(beta={self.beta!r}, rho={self.rho!r})"

    def value(self, precision: float, recall: float) -> float:
        """The stakeholder's G at a point."""
        return float(g_beta_rho(precision, recall, beta=self.beta, rho=self.rho))

    def _value_at(self, point: tuple[float, float]) -> float:
        """:meth:`value` at a question's point (floats in (0, 1], checked when the question was made)."""
        return self.value(point[0], point[1])

    @validate_params(in_body("question"), name="SimulatedStakeholder.local_margin")
    def local_margin(self, question: LocalQuestion) -> float:
        """How much more a gain in recall matters than one in precision, on the log-beta scale."""
        _check_question(question, (LocalQuestion,))
        if self.rho == 0:
            return -math.log(self.beta)
        slope = float(level_curve_slope(self.spec, question.precision, question.recall))
        return math.log(-slope) / abs(self.rho)

    def _noisy(self, margin: float, lam: float) -> bool:
        if self.lapse and self._rng.random() < self.lapse:
            return bool(self._rng.random() < 0.5)
        if math.isinf(lam):
            return margin > 0
        if self.noise == "probit":
            return bool(self._rng.random() < 0.5 * math.erfc(-lam * margin / 1.702 / math.sqrt(2.0)))
        return bool(self._rng.random() < 1.0 / (1.0 + math.exp(-max(min(lam * margin, 700.0), -700.0))))

    @validate_params(in_body("question"), name="SimulatedStakeholder")
    def __call__(self, question: LocalQuestion | PairwiseQuestion) -> str:
        """The answer to ``question``: one of its ``options``."""
        _check_question(question, (LocalQuestion, PairwiseQuestion))
        if isinstance(question, LocalQuestion):
            return "recall" if self._noisy(self.local_margin(question), self.local_lambda) else "precision"
        d = self._value_at(question.a) - self._value_at(question.b)
        return "a" if self._noisy(d, self.pairwise_lambda) else "b"

    def best_on(self, precision: np.ndarray, recall: np.ndarray) -> float:
        """The stakeholder's best G over a set of points."""
        return float(np.max(g_beta_rho(np.asarray(precision), np.asarray(recall), beta=self.beta, rho=self.rho)))
