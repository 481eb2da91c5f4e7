"""The metric family and the metrics of predicted labels.

Holds the weighted power means and G(beta, rho) (``means``), the ``Metric`` objects (``metric``),
the family's members and their parser (``registry``; ``_arguments`` parses a public function's
metric argument, naming it) with the functions behind them (``kernels``), the precision-recall gain
transform (``gain``), the label-based classification metrics with scikit-learn's signatures
(``classification``, ``accuracy``), averaging over classes (``averaging``) and the
per-class report of any metric (``class_report``). Every quantity of a confusion table has one
count kernel in ``kernels`` (F-beta, precision, recall, specificity, MCC...), called by the
label metrics and the threshold metrics alike, and zero division is applied in one place
(``kernels.fill_undefined``). May import
``isometrics._core`` and the base modules. A new mean or family member goes in ``means`` (its log-domain kernel in ``_log_means``) and
is named in ``registry``; a new metric of predicted labels gets its count kernel in
``kernels`` and its function next to its kin in ``classification`` or ``accuracy``.
"""
