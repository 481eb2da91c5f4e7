"""The memory DuckDB may use for an out-of-core evaluation: the default share of this machine's
physical memory, and sizes such as ``"4GB"``, ``"512 MiB"`` or ``"25%"`` read as bytes.
Re-exported by :mod:`isometrics.scale.out_of_core` and :mod:`isometrics.scale`.
"""

from __future__ import annotations

import ctypes
import re
import sys

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import InBody, String, validate_params
from .._core.validation import check_integer
from ..exceptions import InvalidParameterError
from ._sources import system_memory

__all__ = ["default_memory_limit", "parse_memory"]

#: glibc's ``mallopt`` parameters (``<malloc.h>``).
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
#: Arrays below this size come from the C heap rather than fresh pages of their own (glibc's
#: largest dynamic threshold): a batch's arrays (about 1 MB each) and their temporaries.
HEAP_BELOW = 32 * 2**20
#: Freed memory kept by the C heap, up to this much, for the next batch's arrays.
KEEP_FREED = 256 * 2**20

#: The share of physical memory DuckDB may use when no limit is given.
MEMORY_SHARE = 0.25
#: The smallest memory limit accepted (DuckDB needs some room to work at all).
_MIN_MEMORY = 32 * 2**20

_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}


@validate_params({})
def default_memory_limit() -> int:
    """A quarter of this machine's physical memory, in bytes (1 GiB when it cannot be read).

    Returns
    -------
    int
        Bytes: the default ``memory_limit`` of :func:`evaluate_out_of_core`, at least 32 MiB.

    Examples
    --------
    >>> from isometrics.scale import default_memory_limit
    >>> default_memory_limit() >= 32 * 2**20
    True
    """
    total = system_memory()
    return max(int(total * MEMORY_SHARE), _MIN_MEMORY) if total else 2**30


@validate_params(
    {
        # the messages name the parameter `name` (memory_limit), not `value`: its bad values are tested in tests/scale
        "value": InBody("bytes (an int) or a size such as '4GB'"),
        "caller": [String(), None],
        "name": String(),
    }
)
def parse_memory(value: int | str, *, caller: str | None = None, name: str = "memory_limit") -> int:
    """Bytes from an int or a string such as ``"4GB"``, ``"512 MiB"`` or ``"25%"`` (of physical memory).

    Parameters
    ----------
    value : int or str
        Bytes, or a number with a unit: B, kB, MB, GB, TB (powers of 1000), KiB, MiB, GiB,
        TiB (powers of 1024), or % of this machine's physical memory.
    caller : str, default=None
        Named at the start of the error message instead of the public function being called
        (the command line passes its option, ``"--memory-limit"``).
    name : str, default="memory_limit"
        The parameter named in the error message.

    Returns
    -------
    int
        Bytes, at least 32 MiB.

    Raises
    ------
    InvalidParameterError
        If ``value`` is neither, its unit is unknown, or it is below 32 MiB.

    Examples
    --------
    >>> from isometrics.scale import parse_memory
    >>> parse_memory("4GB"), parse_memory("512MiB")
    (4000000000, 536870912)
    """
    caller = current_caller(caller)
    fix = "pass bytes or a size such as '4GB', '512MiB' or '25%' (of physical memory)"
    if isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{caller}: `{name}` must be a size; got {value!r}; {fix}.")
    if isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z%]*)\s*", value)
        unit = match.group(2).lower() if match else ""
        if match is None or (unit not in _UNITS and unit != "%"):
            raise InvalidParameterError(f"{caller}: `{name}` {value!r} is not a size; {fix}.")
        number = float(match.group(1))
        size = int(number / 100 * system_memory()) if unit == "%" else int(number * _UNITS[unit])
    else:
        size = check_integer(value, name, caller=caller)
    if size < _MIN_MEMORY:
        raise InvalidParameterError(
            f"{caller}: `{name}` must be at least 32 MiB; got {value!r} ({size:,} bytes); {fix}."
        )
    return size


def keep_freed_memory(heap_below: int = HEAP_BELOW, keep_freed: int = KEEP_FREED) -> bool:
    """Let the C allocator reuse freed memory for the next arrays instead of asking the system.

    Out of core, the table streams past in batches of about 10^5 scores, and each batch's
    arrays and temporaries (about 1 MB each) are allocated and freed again. glibc's malloc
    maps arrays of that size as fresh pages (or trims its heap when they are freed), so
    every batch pays a page fault per 4 KiB it writes: at 10^7 rows about 350,000 faults and
    a third of the Python side's CPU time, in the kernel. With arrays below ``heap_below``
    served from the heap and up to ``keep_freed`` bytes of freed heap kept, the pages are
    reused (about 15,000 faults). Process-wide and for the rest of the process (glibc's
    ``mallopt``; its adaptive thresholds are then off), so it is meant for a process that
    ends with its command, such as ``isometrics evaluate --out-of-core``, not for a library
    call. Results do not depend on it.

    Parameters
    ----------
    heap_below : int, default=HEAP_BELOW
        Bytes from which an allocation is mapped on its own (``M_MMAP_THRESHOLD``).
    keep_freed : int, default=KEEP_FREED
        Bytes of freed memory at the top of the heap kept rather than returned to the
        system (``M_TRIM_THRESHOLD``).

    Returns
    -------
    bool
        Whether both settings were applied (only with glibc, on Linux).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's C library: absent from musl, for one
    except (AttributeError, OSError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, int(heap_below))) and bool(mallopt(_M_TRIM_THRESHOLD, int(keep_freed)))
