"""The full binary evaluation of one or more score columns: what ``isometrics evaluate`` reports.

:func:`evaluate_scores` evaluates score columns in memory (``score_columns``); the result types
and the results document every path writes (in memory, out of core, on Dask) are in ``results``.
"""

from .results import BinaryEvaluation, Evaluations, results_json
from .score_columns import evaluate_scores

__all__ = ["BinaryEvaluation", "Evaluations", "evaluate_scores", "results_json"]
