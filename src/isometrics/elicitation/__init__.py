"""Eliciting beta and rho from a stakeholder's answers.

Holds the question engine: local questions for beta (``local``), pairwise comparisons for
(beta, rho) (``pairwise``), the workflow that chains them (``session``), the transcript
(``transcript``), the result (``result``), the closed-form tangency method (``tangency``),
Hiranandani et al.'s linear-metric elicitation (``linear``) and simulated stakeholders
(``stakeholders``). May import ``isometrics.spaces``, ``isometrics.metrics`` and below, never
``evaluation`` or the presentation layers. A new design goes in a module named after it.
The exact specification (for the interactive page's port) is ``docs/elicitation.md``;
the papers are G. Hiranandani, S. Boodaghians, R. Mehta and O. Koyejo, "Performance Metric
Elicitation from Pairwise Classifier Comparisons", AISTATS 2019, and G. Gandenberger,
"Evaluating Classification Models, Part 4: Weighted Power Means of Precision and Recall", 2019.
"""

from .linear import LinearMetricResult, LinearStakeholder, elicit_linear_metric, synthetic_boundary
from .local import Contradiction, LocalQuestion
from .pairwise import PairwiseQuestion
from .result import Decision, ElicitationResult
from .session import Elicitation, engine_trace, replay
from .stakeholders import SimulatedStakeholder
from .tangency import TangencyResult, hull_slope, tangency_estimate
from .transcript import Step, Transcript, load_transcript

__all__ = [
    "Contradiction",
    "Decision",
    "Elicitation",
    "ElicitationResult",
    "LinearMetricResult",
    "LinearStakeholder",
    "LocalQuestion",
    "PairwiseQuestion",
    "SimulatedStakeholder",
    "Step",
    "TangencyResult",
    "Transcript",
    "elicit_linear_metric",
    "engine_trace",
    "hull_slope",
    "load_transcript",
    "replay",
    "synthetic_boundary",
    "tangency_estimate",
]
