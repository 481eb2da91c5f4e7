"""Several columns at once: a thread pool that returns results in input order.

The engine's heavy steps (the sort, the cumulative sums, every element-wise pass over the
count table) are NumPy or Polars calls on long arrays, which release the GIL, so threads
evaluate several score columns truly in parallel without copying the labels into other
processes. :func:`check_n_jobs` reads the ``n_jobs`` keyword (scikit-learn's meaning: ``None``
is one thread, ``-1`` every CPU this process may use); :func:`ordered_map` runs the work,
with at most ``workers`` columns in flight, and yields the results in input order, so that
every result, warning and error comes out as the serial loop gives it.
"""

from __future__ import annotations

import contextvars
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from ..exceptions import InvalidParameterError
from .caller import current_caller, takes_caller
from .parameters import check_integer

__all__ = ["available_cpus", "check_n_jobs", "ordered_map"]

_T = TypeVar("_T")
_R = TypeVar("_R")


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS and Windows: no affinity mask
        return max(1, os.cpu_count() or 1)


@takes_caller
def check_n_jobs(n_jobs: Any, *, caller: str | None = None) -> int:
    """``n_jobs`` as a number of threads >= 1: ``None`` is 1, ``-1`` every available CPU.

    Integral floats (``2.0``) are integers, as everywhere in the package. Raises
    :class:`InvalidParameterError` for anything else (0, other negative numbers,
    non-integral numbers, booleans, strings).
    """
    caller = current_caller(caller)
    if n_jobs is None:
        return 1
    jobs = check_integer(n_jobs, "n_jobs")
    if jobs < 1 and jobs != -1:
        raise InvalidParameterError(
            f"{caller}: `n_jobs` must be a positive integer (threads), -1 (one per available CPU) or None "
            f"(one thread); got {n_jobs!r}; pass e.g. n_jobs=2, or n_jobs=None to evaluate one column at a time."
        )
    return available_cpus() if jobs == -1 else jobs


def _submit(pool: ThreadPoolExecutor, fn: Callable[[_T], _R], item: _T) -> Future[_R]:
    """``fn(item)`` on the pool, in a copy of the caller's context: a thread starts with an empty one,
    and context variables carry settings a call must see (the CLI's ``--separator``, NumPy's errstate)."""
    return pool.submit(contextvars.copy_context().run, fn, item)


def ordered_map(
    fn: Callable[[_T], _R],
    items: Iterable[_T],
    workers: int,
    on_error: Callable[[_T, BaseException], None] | None = None,
    *,
    ahead: int | None = 0,
) -> Iterator[_R]:
    """``fn`` of each item, in the items' order, computed by up to ``workers`` threads.

    At most ``workers + ahead`` items are submitted besides the one whose result the caller
    holds: the next item is submitted when a result is taken, so memory is bounded by the pool
    rather than by the number of items. With ``ahead=0`` a thread that finishes before the
    item ahead of it waits for the caller to take that item's result; ``ahead`` items more
    (``None``: every item at once) let it start the next item at once, at the cost of up to
    ``ahead`` finished results waiting for their turn (use it when a result is small, or kept
    by the caller anyway). At most ``workers`` items run at once in any case.
    ``workers <= 1`` runs ``fn`` in the calling thread (no pool). An exception raised by
    ``fn`` propagates when its item's turn comes, as in the serial loop (``on_error(item,
    exc)`` is called first, e.g. to add a note naming the item); the items not yet started
    are then cancelled and the running ones awaited.
    Each item runs in a copy of the calling thread's context (:mod:`contextvars`), as it
    would in the calling thread.
    """
    if workers <= 1:
        for item in items:
            try:
                result = fn(item)
            except BaseException as exc:
                if on_error is not None:
                    on_error(item, exc)
                raise
            yield result
        return
    source = iter(items)
    window = None if ahead is None else workers + max(0, ahead)
    pending: deque[tuple[_T, Future[_R]]] = deque()
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="isometrics") as pool:
        try:
            for item in source:
                pending.append((item, _submit(pool, fn, item)))
                if len(pending) == window:
                    break
            while pending:
                item, future = pending.popleft()
                try:
                    result = future.result()
                except BaseException as exc:
                    if on_error is not None:
                        on_error(item, exc)
                    raise
                for following in source:  # refill the window before the caller works on this result
                    pending.append((following, _submit(pool, fn, following)))
                    break
                del future
                yield result
        finally:
            for _, future in pending:
                future.cancel()
