"""evaluate_scores before and after the threads (issue 26, item 4): every number bit for bit.

Runs the same evaluations (kept and lean operating points, unweighted and weighted, plain, with a
bootstrap drawing from a shared Generator, and with groups) with the package at ``--baseline``
(a ``src`` folder, e.g. of a checkout before the change) and with the installed one, each in its own
process, and compares every area, best point, operating point, bootstrap replicate and group
table with ``==`` / ``np.array_equal``, never a tolerance.

Usage: python benchmarks/check_columns_identical.py --baseline /path/to/old/src [--n 70000]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pickle
import subprocess
import sys
import tempfile
import warnings

import numpy as np


def _evaluate(path: str, n: int) -> None:
    import isometrics as im

    warnings.simplefilter("ignore")
    rng = np.random.default_rng(5)
    y = rng.random(n) < 0.3
    w = rng.integers(1, 4, n).astype(float)
    scores = {
        "a": rng.random(n) + 0.3 * y,
        "b": np.round(rng.normal(size=n) + y, 2),
        "c": rng.integers(0, 50, n) * 1.0 + 5 * y,
    }
    groups = np.arange(n) % 3
    out = {}
    for keep in (True, False):
        for weighted in (False, True):
            kw = dict(metrics=["f1", "youden"], sample_weight=w if weighted else None, keep_operating_points=keep)
            out[("plain", keep, weighted)] = im.evaluate_scores(y, scores, **kw)
            out[("bootstrap", keep, weighted)] = im.evaluate_scores(
                y, scores, n_resamples=20, rng=np.random.default_rng(3), **kw
            )
            out[("groups", keep, weighted)] = im.evaluate_scores(y, scores, n_resamples=20, rng=4, groups=groups, **kw)
    with open(path, "wb") as fh:
        pickle.dump(out, fh)


def _same(x, z) -> None:
    for key in ("n_samples", "n_positives", "n_negatives", "prevalence", "auroc", "average_precision", "auprg"):
        vx, vz = getattr(x, key), getattr(z, key)
        assert type(vx) is type(vz) and vx == vz, key
    for bx, bz in zip(x.best, z.best, strict=True):
        for f in dataclasses.fields(bx):
            u, v = getattr(bx, f.name), getattr(bz, f.name)
            assert u == v or repr(u) == repr(v) == "nan", f.name
    for key in ("thresholds", "tp", "fp"):
        assert np.array_equal(getattr(x.operating_points, key), getattr(z.operating_points, key)), key
    assert x.intervals.keys() == z.intervals.keys()
    for k in x.intervals:
        assert np.array_equal(
            x.intervals[k].bootstrap_distribution, z.intervals[k].bootstrap_distribution, equal_nan=True
        ), k
    assert (x.groups is None) == (z.groups is None)
    if x.groups is not None:
        assert x.groups.to_dict() == z.groups.to_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline", help="the package's src folder before the change")
    parser.add_argument("--n", type=int, default=70_000)
    parser.add_argument("--out", help=argparse.SUPPRESS)  # internal: evaluate and write here
    args = parser.parse_args()
    if args.out:
        _evaluate(args.out, args.n)
        return
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for label, src in (("before", args.baseline), ("after", None)):
            paths[label] = os.path.join(tmp, f"{label}.pkl")
            env = dict(os.environ)
            if src is not None:
                env["PYTHONPATH"] = src
            subprocess.run([sys.executable, __file__, "--n", str(args.n), "--out", paths[label]], env=env, check=True)
        with open(paths["before"], "rb") as fh:
            before = pickle.load(fh)
        with open(paths["after"], "rb") as fh:
            after = pickle.load(fh)
    for key, results in before.items():
        for x, z in zip(results, after[key], strict=True):
            _same(x, z)
        print(f"{key}: identical ({len(results)} columns)")
    print("every evaluation equal bit for bit")


if __name__ == "__main__":
    main()
