"""The task graphs of :func:`isometrics.dask.evaluate_dask`, written directly in Dask's plain graph format.

A graph of a few hundred tasks is built in a few milliseconds this way: one tuple per task,
where ``dask.delayed`` would tokenize every argument (pickling the metrics, the offsets, the
cuts) and build a graph object per call, which cost seconds for the same graph. A task's
inputs computed by other tasks are given by key (alone, or in a list); everything else
(cuts, metrics, labels, paths) is bound to the function as keyword arguments
(:func:`functools.partial`), so that Dask never reads the data as a graph.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Graph"]

#: A task's key: its function's name with the graph's token, and its number.
Key = tuple[str, int]


class Graph:
    """Tasks under keys unique to one graph, on top of ``inputs`` (Dask collections referred to by key)."""

    def __init__(self, inputs: Sequence[Any] = ()) -> None:
        self.token = uuid.uuid4().hex
        self.layer: dict[Key, tuple[Any, ...]] = {}
        self.inputs = list(inputs)

    def add(self, func: Callable[..., Any], *args: Any, **literals: Any) -> Key:
        """A task calling ``func(*args, **literals)``; ``args`` are keys, lists of keys or integers."""
        name = getattr(func.func if isinstance(func, functools.partial) else func, "__name__", "task")
        key = (f"{name}-{self.token}", len(self.layer))
        self.layer[key] = (functools.partial(func, **literals) if literals else func, *args)
        return key

    def collections(self, keys: Sequence[Key]) -> list[Any]:
        """``keys`` as ``dask.delayed`` objects, to compute or persist (all of one graph, submitted at once)."""
        from dask.delayed import Delayed
        from dask.highlevelgraph import HighLevelGraph

        name = f"isometrics-{self.token}"
        graph = HighLevelGraph.from_collections(name, dict(self.layer), dependencies=self.inputs)
        return [Delayed(key, graph, layer=name) for key in keys]
