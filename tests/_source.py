"""The package's source files, each parsed once per test process.

Several tests read the package's code as syntax trees (the layers and deferred imports in
test_architecture.py, the private names crossing subpackages in test_internal_interfaces.py, the
count kernels, the ``caller`` parameters); each parsed the 186 files again (0.5 to 1 CPU second a
time). They share the trees here: read them, never change them. A file changed on disk since it
was parsed (its modification time or size) is parsed again.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path


def parsed(path: str | os.PathLike[str]) -> ast.Module:
    """The syntax tree of the Python file at ``path`` (UTF-8), shared by the tests of this process."""
    stat = os.stat(path)
    return _parse(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)


@functools.cache
def _parse(path: str, mtime_ns: int, size: int) -> ast.Module:
    return ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)
