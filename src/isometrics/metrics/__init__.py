"""The metric family and the metrics of predicted labels.

Holds the weighted power means and G(beta, rho) (``means``), the ``Metric`` objects and their
parser (``registry``) with the functions behind them (``kernels``), the precision-recall gain
transform (``gain``), the label-based classification metrics with scikit-learn's signatures
(``classification``, ``accuracy``) and averaging over classes (``averaging``). May import
``isometrics._core`` and the base modules. A new mean or family member goes in ``means`` and
is named in ``registry``; a new metric of predicted labels goes next to its kin in
``classification`` or ``accuracy``.
"""
