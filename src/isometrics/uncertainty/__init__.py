"""Uncertainty: bootstrap by reweighting the sorted counts, DeLong, Boyd's AP interval.

Holds the resampling engine (``resampling``: a replicate is a vector of multinomial weights
on the already-sorted samples, never a second sort), interval arithmetic and the bootstrap
entry points (``intervals``), DeLong's variance and test (``delong``), the interval for
average precision (``average_precision``), paired comparisons (``comparison``) and pointwise
curve bands (``bands``), and Holm's adjustment of several p-values
(``multiple_testing``). May import ``isometrics.spaces`` and below. A new interval or test
goes in the module of its kind; new draws go in ``resampling``.
"""
