r"""The gain transform of Precision-Recall-Gain analysis.

With prevalence :math:`\pi`, :math:`g(x) = (x - \pi) / ((1 - \pi) x)`: the harmonic
rescaling that maps :math:`\pi` to 0 and 1 to 1 and is affine in :math:`1/x`, so that
F-beta (a weighted harmonic mean) becomes a weighted arithmetic mean of the gains.

References
----------
.. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015.
"""

from __future__ import annotations

import numpy as np

from ._typing import FloatArray

__all__: list[str] = []


def _gain(x: FloatArray, prevalence: float) -> FloatArray:
    """g(x) elementwise for x in [0, 1] and prevalence in (0, 1); g(0) = -inf."""
    # (x - pi) / ((1 - pi) x) = (1 - pi / x) / (1 - pi), in place: three passes, one array.
    with np.errstate(divide="ignore"):
        out = np.divide(prevalence, x)
    np.subtract(1.0, out, out=out)
    np.multiply(out, 1.0 / (1.0 - prevalence), out=out)
    return out
