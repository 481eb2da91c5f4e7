"""The memory DuckDB may use for an out-of-core evaluation: the default share of this machine's
physical memory, and sizes such as ``"4GB"``, ``"512 MiB"`` or ``"25%"`` read as bytes.
Re-exported by :mod:`isometrics.scale.out_of_core` and :mod:`isometrics.scale`.
"""

from __future__ import annotations

import re

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import InBody, String, validate_params
from .._core.validation import check_integer
from ..exceptions import InvalidParameterError
from ._sources import system_memory

__all__ = ["default_memory_limit", "parse_memory"]

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
