"""Item response theory for benchmarks: beta^3-IRT and adaptive testing.

Holds the model fitted by MAP with L-BFGS, the Fisher information, adaptive testing and the
building of response matrices from many models on many data sets. May import
``isometrics.evaluation`` and below, never the presentation layers. See
``shared/ALGORITHMS.md`` section 6.
"""

from .adaptive import AdaptiveTest, adaptive_test
from .model import Beta3IRT, fit_beta3

__all__ = ["AdaptiveTest", "Beta3IRT", "adaptive_test", "fit_beta3"]
