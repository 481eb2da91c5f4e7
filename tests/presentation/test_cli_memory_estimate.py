"""The memory the command line plans for an in-memory evaluation covers what it uses.

``isometrics evaluate`` switches to the out-of-core path when ``in_memory_estimate`` (cli/out_of_core.py)
does not fit in the memory available. Since the in-memory command also cross-fits its decision table,
its peak is about twice what the estimate assumed before (64 bytes per row against about 130 at 10^8
rows), so a file could be read in memory and exhaust it. Here the peak of NumPy's allocations during
the command (tracemalloc, in this process) must stay below the estimate.
"""

import tracemalloc

import numpy as np
import polars as pl
from _cli import run_in_process

from isometrics.cli import out_of_core


def test_the_in_memory_estimate_covers_the_commands_peak(tmp_path):
    rng = np.random.default_rng(7)
    n = 400_000
    y = (rng.random(n) < 0.1).astype(np.int8)
    path = tmp_path / "scores.parquet"
    pl.DataFrame({"y": y, "s": rng.normal(size=n) + y}).write_parquet(path)
    _, planned = out_of_core.in_memory_estimate(path, 2)  # the label and one score column
    tracemalloc.start()
    try:
        res = run_in_process("evaluate", path, "--label", "y", "--score", "s")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res.returncode == 0, res.stderr
    assert peak <= planned, f"peak {peak / n:.1f} bytes per row, planned {planned / n:.1f}"
