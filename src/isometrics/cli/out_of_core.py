"""``isometrics evaluate --out-of-core``: files larger than memory, and when to go there by itself.

The body of the out-of-core evaluation is :func:`isometrics.scale.evaluate_out_of_core`;
here are the command line's parts: the estimate of what the in-memory path would need (rows
x columns read from the file's metadata, or from its size for CSV), the automatic switch
when that does not fit (said on stderr), how many columns the in-memory path may evaluate at
once (threads, each with its own engine arrays), and the printing and JSON of the results.
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import Any

from .._core.label_text import label_from_text
from .._core.optional import needs
from .._core.outputs import json_text, staged_outputs
from .._core.parallel import available_cpus
from ..evaluation import results_json
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..scale import evaluate_out_of_core, parse_memory
from ..scale._memory import keep_freed_memory
from ..scale._sources import available_memory, expand_paths
from ..scale.formats import FORMATS, column_type, estimated_rows
from ._console import make_console
from ._io import separator_of
from .results import print_results

__all__ = [
    "in_memory_estimate",
    "fits_in_memory",
    "threads_in_memory",
    "evaluate_out_of_core_file",
    "is_glob",
    "pattern_files",
]

#: Bytes per row and column the in-memory path holds at its peak: the label, the weights and one
#: score column read as 8-byte arrays, plus the engine's own arrays (sort order, count table,
#: terms) and, since the command cross-fits its decision table, those of the folds. Calibrated on
#: benchmarks/bench_out_of_core.py: 10^8 rows of a label and one score column peaked at 12.34 GiB
#: (132.5 bytes per row; 61.5 before the decision table); tests/presentation/test_cli_memory_estimate.py
#: traces 135 at 4 x 10^5 rows. The estimate gives 144.
BYTES_PER_CELL = 8
#: Arrays of one row's length the in-memory command holds besides the columns read.
ENGINE_ARRAYS = 16
#: The share of available memory the in-memory path may plan to use before the switch.
SAFE_SHARE = 0.8


def is_glob(file: Path) -> bool:
    """A pattern that names files (``logs/*.parquet``) rather than a file."""
    return glob.has_magic(str(file)) and not file.exists()


def pattern_files(file: Path) -> list[Path]:
    """The files the pattern ``file`` matches (sorted); an ``IsometricsError`` saying so when none does."""
    return expand_paths(file, "isometrics evaluate")[0]


def in_memory_estimate(file: Path, n_columns: int) -> tuple[int, int]:
    """``(rows, bytes)``: the rows of ``file`` and the memory the in-memory path would need for them
    (``n_columns`` read at once: the label, the weights and one score column)."""
    files, kind = expand_paths(file, "isometrics evaluate")
    rows = estimated_rows(files, kind)
    return rows, rows * BYTES_PER_CELL * (n_columns + ENGINE_ARRAYS)


def threads_in_memory(file: Path, n_columns: int, n_scores: int) -> int:
    """Score columns the in-memory path may evaluate at once (``n_jobs``): one per CPU and column,
    fewer when another thread's engine arrays would not fit in the memory available now; at least 1."""
    most = min(n_scores, available_cpus())
    if most <= 1:
        return 1
    try:
        rows, need = in_memory_estimate(file, n_columns)
    except (IsometricsError, OSError, ValueError):  # unreadable: the reader says why, one column at a time
        return 1
    per_thread = rows * BYTES_PER_CELL * ENGINE_ARRAYS
    if per_thread <= 0:
        return most
    return int(max(1, min(most, 1 + (SAFE_SHARE * available_memory() - need) // per_thread)))


def fits_in_memory(file: Path, n_columns: int) -> tuple[bool, str]:
    """Whether the in-memory path fits in the memory available now, and the sentence that says why not."""
    try:
        rows, need = in_memory_estimate(file, n_columns)
    except (IsometricsError, OSError, ValueError):  # unreadable: the in-memory reader says precisely why
        return True, ""
    have = available_memory()
    if need <= SAFE_SHARE * have:
        return True, ""
    return False, (
        f"{file.name!r} has about {rows:,} rows: evaluating it in memory would need about "
        f"{need / 1e9:.1f} GB and {have / 1e9:.1f} GB are available"
    )


def evaluate_out_of_core_file(
    file: Path,
    label: str,
    scores: list[str],
    pos_label: str | None,
    weight: str | None,
    metrics: list[str],
    json_out: str | os.PathLike[str] | None,
    console: Any,
    memory_limit: str | None,
    temp_directory: str | None,
) -> list[Any]:
    """Evaluate out of core, print the tables and write the JSON (all or nothing)."""
    with needs("evaluate --out-of-core"):
        import duckdb  # noqa: F401  (checked before anything is read)
    parsed = [parse_metric(m) for m in metrics]
    limit = None if memory_limit is None else parse_memory(memory_limit, caller="--memory-limit", name="size")
    inputs = [] if is_glob(file) else [file]
    with staged_outputs({"--json": json_out}, inputs=inputs) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        coerced = _pos_label(file, label, pos_label)
        files, kind = expand_paths(file, "isometrics evaluate")
        wanted = [label, *scores, *([weight] if weight else [])]
        separator = separator_of(files[0], wanted) if FORMATS[kind].separated else None  # said on stderr when detected
        keep_freed_memory()  # this process ends with the command: the batches reuse freed pages
        evaluation = evaluate_out_of_core(
            file,
            label=label,
            scores=scores,
            sample_weight=weight,
            metrics=parsed,
            pos_label=coerced,
            memory_limit=limit,
            temp_directory=temp_directory,
            separator=separator,
        )
        results = list(evaluation)
        print_results(console, file, label, results)
        console.print(
            f"[dim]Out of core: DuckDB within {evaluation.memory_limit / 1e9:.2f} GB, "
            f"{len(evaluation.files)} file{'s' if len(evaluation.files) != 1 else ''}; "
            "exact areas and thresholds.[/dim]"
        )
        if json_out is not None:
            json_doc = results_json(
                results,
                file=str(file),
                label=label,
                weight=weight,
                files=evaluation.files,
                path={"out_of_core": {"memory_limit": evaluation.memory_limit}},
            )
            outputs.stage("--json", json_text(json_doc))
        outputs.commit()
    return results


def _pos_label(file: Path, label: str, pos_label: str | None) -> Any:
    """``--pos-label`` converted to the label column's type (read from the schema, not the data)."""
    if pos_label is None:
        return None
    files, kind = expand_paths(file, "isometrics evaluate")
    typed, names = column_type(files[0], kind, label)  # CSV: DuckDB infers the column's type
    if FORMATS[kind].typed and typed is None:
        raise IsometricsError(f"column {label!r} is not in {files[0].name!r}; pass one of {names[:20]}.")
    return label_from_text(pos_label, typed, column=label)
