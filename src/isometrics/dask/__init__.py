"""Exact evaluation on a Dask cluster: a Dask DataFrame or a Parquet data set, partition by partition.

Holds :func:`evaluate_dask` (``_evaluate``: the graph and the client's reduction), the tasks
the workers run (``_partitions``: read, validate, count, cut by score range, merge a range)
and what the client decides between passes (``_plan``: the classes, the range cuts, the
offsets). A layer of its own above ``isometrics.scale``: it may import that layer and
below, and the presentation layers (cli, report) may import it. Dask itself is imported
only when a function needs it (``pip install 'isometrics[scale]'``).
"""

from ._evaluate import evaluate_dask

__all__ = ["evaluate_dask"]
