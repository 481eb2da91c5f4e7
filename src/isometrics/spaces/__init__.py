"""The ROC, PR and PRG spaces: everything derived from the count table.

Holds curves, areas, convex hulls, Davis-Goadrich interpolation, level curves, thresholds and
constrained optima, calibration, baselines, costs, one-vs-rest multiclass evaluation, and
``OperatingPoints``: the count table with these verbs as methods. May import
``isometrics.metrics``, ``isometrics._core`` and the base modules. A new curve, area, hull or
threshold rule goes in the module of its kind; a method users want on the object goes on
``OperatingPoints`` in ``operating_points``.
"""
