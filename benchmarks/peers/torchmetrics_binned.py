"""The peer of bench_streaming.py, run in benchmarks/.venv-torch: torchmetrics' binned AUROC and AP.

Reads ``y`` (int8) and ``s`` (float64) from the .npy files given (then the thresholds, the batches and,
optionally, torch's number of threads), feeds each metric the same
batches as isometrics gets (torch tensors sharing NumPy's memory), and prints one JSON line:
seconds (update + compute; wall and CPU, all threads) and the value of BinaryAUROC and BinaryAveragePrecision with
``thresholds`` evenly spaced on [0, 1] (torchmetrics' binned, constant-memory mode).
"""

import json
import sys
import time

import numpy as np
import torch
from torchmetrics.classification import BinaryAUROC, BinaryAveragePrecision


def main() -> None:
    y_path, s_path, thresholds, batches = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if len(sys.argv) > 5:  # torch's threads, else its default
        torch.set_num_threads(int(sys.argv[5]))
    y = torch.from_numpy(np.load(y_path).astype(np.int64))
    s = torch.from_numpy(np.load(s_path))
    parts = np.array_split(np.arange(len(y)), batches)
    out = {"torch": torch.__version__, "threads": torch.get_num_threads()}
    for name, cls in (("auroc", BinaryAUROC), ("average_precision", BinaryAveragePrecision)):
        warm = cls(thresholds=thresholds)  # first calls initialise torch's kernels: not timed
        warm.update(s[:1000], y[:1000])
        warm.compute()
        metric = cls(thresholds=thresholds)
        start, cpu = time.perf_counter(), time.process_time()
        for part in parts:
            lo, hi = int(part[0]), int(part[-1]) + 1
            metric.update(s[lo:hi], y[lo:hi])
        value = float(metric.compute())
        out[name] = {
            "seconds": time.perf_counter() - start,
            "cpu_seconds": time.process_time() - cpu,
            "value": value,
            "state_bytes": int(
                sum(t.numel() * t.element_size() for t in metric.metric_state.values() if isinstance(t, torch.Tensor))
            ),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
