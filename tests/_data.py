"""Seeded random test data."""

import numpy as np


def random_binary(rng, n, *, ties=True, weights=False, prevalence=0.3):
    y = rng.random(n) < prevalence
    y[0], y[1] = True, False
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    w = rng.integers(0, 4, size=n).astype(float) * rng.random(n) if weights else None
    if w is not None:
        w[0] = w[1] = 1.0
    return y.astype(int), s, w
