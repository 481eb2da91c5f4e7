"""Full binary evaluation: isometrics vs scikit-learn vs the sort floor, in one run.

isometrics: build the operating points, then ROC, PR and PRG curves, AUROC, AP, AUPRG
and the best F1 threshold, named together (``OperatingPoints.compute``: one pass over the points;
the candidate-sort lines also time them asked one at a time); '+spaces' adds the ROC and PRG convex hulls, the
count-interpolated PR area and two metric-versus-threshold curves. scikit-learn: roc_curve, precision_recall_curve,
roc_auc_score, average_precision_score (it has no PRG nor best threshold, so it does
less work). Floor: ``np.sort`` of the scores in a subprocess started with
``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL"`` (NumPy's AVX2 sort, several times
faster than its AVX-512 sort on this CPU; an exact curve needs at least a sort).

Before the table: the machine (CPU, NumPy's SIMD dispatch) and the sort of packed 64-bit keys the
engine chose by measurement (``_core.sorting.choose_sort``; ``ISOMETRICS_SORT`` forces one), then
every candidate timed on the packed keys of --sort-n continuous scores (10^7; ``--sort-n 1000000``
for a quick run) and the ratio of a full unweighted and weighted evaluation to the fastest of them.

Every time is the best of --repeat, wall clock (``time.perf_counter``) with the CPU time of the same
run (``time.process_time``, all threads) beside it where it matters, and the load average is printed:
on a shared machine the wall times stretch, the CPU times much less. ``--baseline OLD_SRC`` also times
the full evaluation of another source tree (say the commit before a change: ``git archive <commit> src |
tar -x -C /tmp/old``) in subprocesses, alternating with this tree's, on the same data, and prints
both and their ratio.

Usage: python benchmarks/bench_evaluation.py [--sizes 100000 1000000 10000000] [--repeat 3] [--sort-n N]
       [--sorts-only] [--baseline OLD_SRC]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np

import isometrics as im
from isometrics._core import sorting

FLOOR_SCRIPT = """
import sys, time, numpy as np
n, ties, seed = int(sys.argv[1]), sys.argv[2] == "1", int(sys.argv[3])
rng = np.random.default_rng(seed)
y = rng.random(n) < 0.1
s = rng.normal(size=n) + y
if ties:
    s = np.round(s, 2)
best = 1e9
for _ in range(3):
    t0 = time.perf_counter(); np.sort(s); best = min(best, time.perf_counter() - t0)
print(best)
"""


def make_data(n: int, ties: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 2)
    w = rng.random(n) * 2
    return y.astype(np.int8), s, w


def full_evaluation(op):
    """ROC, PR and PRG curves, AUROC, AP, AUPRG and the best F1 threshold of ``op``: named together
    (one pass, ``OperatingPoints.compute``), or one at a time where the tree has no ``compute``
    (a ``--baseline`` tree from before it)."""
    if hasattr(op, "compute"):
        from isometrics.spaces.areas import AUPRG, AUROC, AVERAGE_PRECISION
        from isometrics.spaces.curves import PR, PRG, ROC

        *_, auroc, ap, auprg, f1 = op.compute(ROC, PR, PRG, AUROC, AVERAGE_PRECISION, AUPRG, best=["f1"])
        return auroc, ap, auprg, f1.value
    return one_at_a_time(op)


def one_at_a_time(op):
    """The same quantities asked one after another (a pass each)."""
    op.roc_curve(), op.precision_recall_curve(), op.prg_curve()
    return op.auroc(), op.average_precision(), op.auprg(), op.best_threshold("f1").value


def ours(y, s, w, evaluation=full_evaluation):
    return evaluation(im.OperatingPoints.from_scores(y, s, sample_weight=w))


def extras(op):
    """What the spaces add: hulls, the interpolated PR area and metric-versus-threshold curves."""
    op.roc_convex_hull(), op.prg_convex_hull(), op.auc_pr_interpolated()
    return op.metric_curve("f1"), op.metric_curve("g(beta=2, rho=-3)")


def ours_then_extras(y, s, w, repeat):
    """Best times of the full evaluation and, on the same fresh operating points, of the extras."""
    full, more = float("inf"), float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
        full_evaluation(op)
        t1 = time.perf_counter()
        extras(op)
        t2 = time.perf_counter()
        full, more = min(full, t1 - t0), min(more, t2 - t1)
        del op
    return full, more


def sklearn(y, s, w):
    from sklearn import metrics as skm

    skm.roc_curve(y, s, sample_weight=w)
    skm.precision_recall_curve(y, s, sample_weight=w)
    return skm.roc_auc_score(y, s, sample_weight=w), skm.average_precision_score(y, s, sample_weight=w)


def best_time(fn, repeat: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def best_times(fn, repeat: int) -> tuple[float, float]:
    """Best wall and best CPU time (``time.process_time``: every thread of this process) of ``fn``."""
    wall = cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    return wall, cpu


def worker_times(src: str, n: int, ties: bool, weighted: bool, repeat: int) -> tuple[float, float]:
    """Best wall and CPU time of the full evaluation with the package found in ``src``, in a subprocess."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(src))
    res = subprocess.run(
        [
            sys.executable,
            os.path.abspath(__file__),
            "--worker",
            str(n),
            str(int(ties)),
            str(int(weighted)),
            str(repeat),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall, cpu = res.stdout.split()
    return float(wall), float(cpu)


def worker(n: int, ties: bool, weighted: bool, repeat: int) -> None:
    y, s, w = make_data(n, ties)
    w = w if weighted else None
    ours(y, s, w)  # warm: imports, the sort choice
    print(*best_times(lambda: ours(y, s, w), repeat))


def load() -> str:
    return "load average " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def floor_time(n: int, ties: bool) -> float:
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL")
    res = subprocess.run(
        [sys.executable, "-c", FLOOR_SCRIPT, str(n), "1" if ties else "0", "0"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return float(res.stdout.strip())


def output_arrays(op) -> list[np.ndarray]:
    """The distinct arrays of one value per operating point that a full evaluation of ``op`` holds."""
    from isometrics.spaces.curves import PR, PRG, ROC

    roc, pr, prg = op.compute(ROC, PR, PRG)
    arrays = [op.thresholds, op.tp, op.fp, *roc, *pr, *prg]
    distinct: dict[int, np.ndarray] = {}
    for a in arrays:
        if a.ndim == 1 and len(a) == op.n_points:
            distinct.setdefault(a.__array_interface__["data"][0], a)
    return list(distinct.values())


def output_floor(y, s, repeat: int) -> tuple[float, int, int]:
    """Best time to allocate and fill, as fresh memory, as many arrays as a full evaluation returns: the
    cost of writing its outputs alone (every exact curve at 10^7 points is a few such arrays)."""
    op = im.OperatingPoints.from_scores(y, s)
    full_evaluation(op)
    arrays = output_arrays(op)
    source = arrays[0]
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        written = [np.empty_like(source) for _ in arrays]
        for out in written:
            np.copyto(out, source)
        best = min(best, time.perf_counter() - t0)
        del written
    return best, len(arrays), len(source)


def sort_candidates(n: int, repeat: int) -> None:
    """Each candidate sort on the packed keys of ``n`` continuous scores, the choice, and the full evaluation's ratio."""
    y, s, w = make_data(n, ties=False)
    encoded = sorting._label_keys(s, y.astype(bool))
    assert encoded is not None
    keys = encoded[0]
    times = {}
    cpus = {}
    for name, sort in sorting.KEY_SORTS.items():
        best = cpu = float("inf")
        for _ in range(repeat):
            work = keys.copy()
            t0, c0 = time.perf_counter(), time.process_time()
            sort(work)
            best, cpu = min(best, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
            del work
        times[name], cpus[name] = best, cpu
    fastest = min(times, key=times.__getitem__)
    chosen = sorting.choose_sort()
    print(
        f"Sorts of {n:,} packed 64-bit keys (best of {repeat}, wall / CPU): "
        + ", ".join(f"{k} {v:.3f} / {cpus[k]:.3f} s" for k, v in times.items())
        + f"; fastest here: {fastest}; chosen by the engine: {chosen.name} ({chosen.how})"
    )
    t_out, n_arrays, n_points = output_floor(y, s, repeat)
    print(
        f"  writing the {n_arrays} arrays of {n_points:,} doubles a full evaluation returns (thresholds, TP, FP and the"
        f" curves' columns), fresh as the evaluation allocates them: {t_out:.3f} s; with the fastest sort"
        f" {t_out + times[fastest]:.3f} s = {(t_out + times[fastest]) / times[fastest]:.2f}x the sort, before any arithmetic"
    )
    for weighted in (False, True):
        for how, evaluation in (("one pass", full_evaluation), ("one at a time", one_at_a_time)):
            t_full, c_full = best_times(lambda: ours(y, s, w if weighted else None, evaluation), repeat)
            print(
                f"  full evaluation ({how}), {'weighted' if weighted else 'unweighted'}: {t_full:.3f} s = "
                f"{t_full / times[fastest]:.2f}x the fastest sort ({fastest}); CPU {c_full:.3f} s = "
                f"{c_full / cpus[fastest]:.2f}x the sort's CPU time"
            )
    print(f"  ({load()})")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000, 10_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--sort-n", type=int, default=10_000_000, help="size of the candidate sorts' timing (10^6 for a quick run)"
    )
    parser.add_argument("--sorts-only", action="store_true", help="time the candidate sorts only, not the table")
    parser.add_argument(
        "--skip-sklearn-above",
        type=int,
        default=10**8,
        help="do not run scikit-learn above this n (it takes ~10 s at 10^7)",
    )
    parser.add_argument("--baseline", help="source tree (its src/) to time the full evaluation of, alternating")
    parser.add_argument("--worker", nargs=4, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        n, ties, weighted, repeat = args.worker
        worker(n, bool(ties), bool(weighted), repeat)
        return

    print("\n".join(sorting.machine_report()))
    sort_candidates(args.sort_n, args.repeat)
    if args.sorts_only:
        return
    header = (
        f"{'n':>10} {'scores':>10} {'weights':>8} | {'isometrics':>10} {'CPU':>6} {'sklearn':>9} "
        f"{'AVX2 sort':>9} {'np.sort':>8} | {'sklearn/ours':>12} {'ours/floor':>10} | {'+spaces':>8}"
    )
    print(header)
    print("-" * len(header))
    for n in args.sizes:
        for ties in (False, True):
            y, s, w_all = make_data(n, ties)
            floor = floor_time(n, ties)
            default_sort, _ = best_time(lambda: np.sort(s), args.repeat)
            for weighted in (False, True):
                w = w_all if weighted else None
                t_ours, res = best_time(lambda: ours(y, s, w), args.repeat)
                _, c_ours = best_times(lambda: ours(y, s, w), args.repeat)
                t_full, t_extra = ours_then_extras(y, s, w, args.repeat)
                if n <= args.skip_sklearn_above:
                    t_sk, res_sk = best_time(lambda: sklearn(y, s, w), 1 if n >= 10**7 else args.repeat)
                    assert abs(res[0] - res_sk[0]) < 1e-9 and abs(res[1] - res_sk[1]) < 1e-9, (res, res_sk)
                    ratio_sk = f"{t_sk / t_ours:12.1f}x"
                    sk = f"{t_sk:9.3f}"
                else:
                    ratio_sk, sk = f"{'-':>13}", f"{'-':>9}"
                print(
                    f"{n:>10,} {'ties' if ties else 'continuous':>10} {'yes' if weighted else 'no':>8} | "
                    f"{t_ours:10.3f} {c_ours:6.3f} {sk} {floor:9.3f} {default_sort:8.3f} | {ratio_sk} "
                    f"{t_ours / floor:9.1f}x | {100 * t_extra / t_full:7.0f}%",
                    flush=True,
                )
                if args.baseline:
                    rounds = [
                        (
                            worker_times(args.baseline, n, ties, weighted, args.repeat),
                            worker_times(
                                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"),
                                n,
                                ties,
                                weighted,
                                args.repeat,
                            ),
                        )
                        for _ in range(2)
                    ]
                    old = min(r[0] for r in rounds)  # best wall (and best CPU) over the alternating rounds
                    new = min(r[1] for r in rounds)
                    old_cpu, new_cpu = min(r[0][1] for r in rounds), min(r[1][1] for r in rounds)
                    print(
                        f"{'':>31}   baseline {old[0]:.3f} s (CPU {old_cpu:.3f}), this tree {new[0]:.3f} s "
                        f"(CPU {new_cpu:.3f}) in subprocesses: {old[0] / new[0]:.2f}x faster "
                        f"(CPU {old_cpu / new_cpu:.2f}x)",
                        flush=True,
                    )
    print(f"\n{load()}")
    print("Times in seconds (best of --repeat); CPU: the process's CPU time (all threads) of the best run.")
    print("'np.sort' is NumPy's default sort in this process.")
    print("'+spaces': time of the ROC and PRG hulls, the interpolated PR area and two metric-versus-")
    print("threshold curves (F1, G(2, -3)) on fresh operating points, relative to the full evaluation")
    print("(each the best of --repeat, measured in the same runs).")


if __name__ == "__main__":
    main()
