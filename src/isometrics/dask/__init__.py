"""Exact evaluation on a Dask cluster: a Dask DataFrame or a Parquet data set, partition by partition.

Holds :func:`evaluate_dask` (``_evaluate``: the two graphs and the results), the tasks the
workers run (``_partitions``: read, validate and count every score column, cut by score
range, merge a range; ``_reduce``: sweep, write and merge the ranges), what the client
decides between passes (``_plan``: the classes, the range cuts, the offsets) and the graphs
written in Dask's plain format (``_graph``). A layer of its own above ``isometrics.scale``: it may import that layer and
below, and the presentation layers (cli, report) may import it. Dask itself is imported
only when a function needs it (``pip install 'isometrics[scale]'``).
"""

from ._evaluate import evaluate_dask

__all__ = ["evaluate_dask"]
