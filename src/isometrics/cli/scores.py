"""``--scores PATTERN``: many score columns at once, by a glob over the file's column names.

``--scores 'p_*'`` stands for every column whose name matches the pattern (``fnmatch``
syntax, case-sensitive: ``*``, ``?``, ``[abc]``), so ten class probabilities need not be ten
``--score`` flags. It is repeatable and combines with ``--score``: the ``--score`` columns
come first, in the order given, then the columns matching any pattern, in file order, each
once. The label and weight columns are never matched. A pattern that matches no column is
an error that lists the columns. Only the header is read (:func:`~._io.column_names`).
"""

from __future__ import annotations

import glob
from collections.abc import Sequence
from fnmatch import fnmatchcase
from pathlib import Path

from ..exceptions import IsometricsError
from ._io import column_names

__all__ = ["SCORES_HELP", "score_columns"]

#: The help of ``--scores`` (one definition, shared by evaluate, report and compare).
SCORES_HELP = (
    "Score columns by a glob over the column names, e.g. 'p_*' (repeatable; with --score: those "
    "first, then the matching columns in file order)."
)


def _header_file(file: Path) -> Path:
    """The file whose header names the columns: ``file``, or the first file of a glob of files."""
    if file.exists() or not glob.has_magic(str(file)):
        return file
    matches = sorted(glob.glob(str(file)))
    if not matches:
        raise IsometricsError(f"no file matches {str(file)!r}; check the pattern.")
    return Path(matches[0])


def score_columns(
    file: Path, scores: Sequence[str] | None, patterns: Sequence[str] | None, *, exclude: Sequence[str | None] = ()
) -> list[str]:
    """The score columns of a command: ``--score`` columns, then those matching a ``--scores`` pattern.

    Raises ``IsometricsError`` when neither is given, or a pattern matches no column
    (besides those of ``exclude``: the label and weight columns).
    """
    given = list(scores or [])
    if not patterns:
        if not given:
            raise IsometricsError(
                "no score column given; add --score COLUMN (repeatable) or --scores PATTERN "
                "(a glob over the column names, e.g. --scores 'p_*')."
            )
        return given
    path = _header_file(file)
    names = column_names(path)
    candidates = [n for n in names if n not in set(exclude)]
    for pattern in patterns:
        if not any(fnmatchcase(n, pattern) for n in candidates):
            shown = ", ".join(repr(n) for n in names[:20]) + (", ..." if len(names) > 20 else "")
            raise IsometricsError(
                f"--scores {pattern!r} matches no score column of {path.name!r} (columns: "
                f"{shown}); give a pattern that matches some of them (case-sensitive), "
                "e.g. 'p_*'."
            )
    matched = [n for n in candidates if any(fnmatchcase(n, p) for p in patterns)]
    return list(dict.fromkeys(given + matched))
