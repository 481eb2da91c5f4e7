"""Uncertainty: bootstrap by reweighting the sorted counts, DeLong, Boyd's AP interval.

Holds the resampling engine (``resampling``: a replicate is a vector of multinomial weights
on the already-sorted samples, never a second sort; ``_replicates``: the areas of a replicate read
from the steps of its positives), interval arithmetic and the bootstrap
entry points (``intervals``), DeLong's variance and test (``delong``), the interval for
average precision (``average_precision``), paired comparisons (``comparison``) and pointwise
curve bands (``bands``), Holm's adjustment of several p-values
(``multiple_testing``), and how values, intervals and their notes are written for the CLI and the
report (``formatting``). May import ``isometrics.spaces`` and below. A new interval or test
goes in the module of its kind; new draws go in ``resampling``.
"""

from .average_precision import average_precision_ci
from .bands import CurveBand, bootstrap_curve_band
from .comparison import bootstrap_compare, compare_scores
from .delong import DelongResult, DelongTest, delong, delong_test  # last: the function `delong`, not its module
from .groups import GroupEvaluation
from .intervals import BootstrapResult, bootstrap, bootstrap_areas
from .model_comparison import ComparisonRow, ModelComparison
from .multiple_testing import holm_adjust

__all__ = [
    "BootstrapResult",
    "ComparisonRow",
    "CurveBand",
    "DelongResult",
    "DelongTest",
    "GroupEvaluation",
    "ModelComparison",
    "average_precision_ci",
    "bootstrap",
    "bootstrap_areas",
    "bootstrap_compare",
    "bootstrap_curve_band",
    "compare_scores",
    "delong",
    "delong_test",
    "holm_adjust",
]
