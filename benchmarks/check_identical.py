"""Old against new engine, bit for bit: every curve, area and best threshold of one evaluation.

Runs the same evaluations with two source trees (each in a subprocess with its own
``PYTHONPATH``) and compares every array with ``np.array_equal`` (NaN equal to NaN) and every
number with ``==``: sizes on both sides of the engine's thresholds (the keyed sort from 50,000
samples, the chunks of the sweeps), continuous and tied scores, scores of both signs and
non-negative ones, no weights, integer and real weights, weights near float64's limits.

Usage: python benchmarks/check_identical.py OLD_SRC [NEW_SRC]   (NEW_SRC defaults to ./src)
e.g.   git archive <commit> src | tar -x -C /tmp/old && python benchmarks/check_identical.py /tmp/old/src
"""

from __future__ import annotations

import _old_new
import numpy as np

CASES = [
    (n, ties, weights, sign)
    for n in (7, 1000, 49_999, 70_001, 300_000, 2_000_000)
    for ties in ("none", "round2", "round5")
    for weights in ("none", "real", "int", "huge", "tiny")
    for sign in ("both", "positive")
    if n <= 300_000 or (weights in ("none", "real") and sign == "both")
]


def data(n: int, ties: str, weights: str, sign: str, seed: int = 0):
    rng = np.random.default_rng(seed + n)
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + y
    if sign == "positive":
        s = 1.0 / (1.0 + np.exp(-s))
    if ties != "none":
        s = np.round(s, 2 if ties == "round2" else 5)
    w = {
        "none": None,
        "real": rng.random(n) * 2,
        "int": rng.integers(0, 4, n).astype(float),
        "huge": rng.random(n) * 1e300,
        "tiny": rng.random(n) * 1e-300,
    }[weights]
    return y.astype(np.int8), s, w


def evaluate(case) -> dict:
    import isometrics as im

    y, s, w = data(*case)
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    out: dict = {"thresholds": op.thresholds, "tp": op.tp, "fp": op.fp}
    if not (op.n_positives > 0 and op.n_negatives > 0):
        return out
    out.update({f"roc_{k}": v for k, v in op.roc_curve()._asdict().items()})
    out.update({f"pr_{k}": v for k, v in op.precision_recall_curve()._asdict().items()})
    for name in ("auroc", "average_precision", "auprg", "auc_pr_interpolated", "auc_pr_achievable"):
        try:
            out[name] = getattr(op, name)()
        except Exception as exc:  # the same refusal on both sides
            out[name] = f"{type(exc).__name__}: {exc}"
    try:
        out.update({f"prg_{k}": v for k, v in op.prg_curve()._asdict().items()})
    except Exception as exc:
        out["prg"] = f"{type(exc).__name__}: {exc}"
    for metric in ("f1", "f2", "g(beta=2, rho=-3)", "mcc"):
        b = op.best_threshold(metric)
        out[f"best_{metric}"] = (b.threshold, b.value, b.tp, b.fp, b.index, b.n_ties)
    out["metric_f1"] = op.metric_curve("f1").values
    out["roc_hull"] = op.roc_convex_hull().indices
    try:
        out["prg_hull"] = op.prg_convex_hull().indices
    except Exception as exc:
        out["prg_hull"] = f"{type(exc).__name__}: {exc}"
    # the functions of scikit-learn's names, and the other order of the same calls
    out["sk_pr"] = im.precision_recall_curve(y, s, sample_weight=w)
    out["sk_roc"] = tuple(im.roc_curve(y, s, sample_weight=w))
    op2 = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    out["auprg_first"] = (op2.auprg(), op2.average_precision(), op2.auroc())
    out.update(together(im.OperatingPoints.from_scores(y, s, sample_weight=w)))
    try:
        lean = im.evaluate_scores(
            y, {"s": s}, metrics=["f1", "mcc"], sample_weight=w, keep_operating_points=False, n_jobs=None
        )[0]
        out["evaluate_scores"] = (lean.auroc, lean.average_precision, lean.auprg) + tuple(
            (b.threshold, b.value, b.tp, b.fp, b.index, b.n_ties) for b in lean.best
        )
    except Exception as exc:  # the same refusal on both sides
        out["evaluate_scores"] = f"{type(exc).__name__}: {exc}"
    return out


def together(op) -> dict:
    """Every quantity of the one pass named together (``OperatingPoints.compute``), or, in a tree
    without it, asked one at a time: the same values are expected."""
    from isometrics.spaces.areas import AUPRG, AUROC, AVERAGE_PRECISION
    from isometrics.spaces.curves import PR, PRG, ROC
    from isometrics.spaces.interpolation import AUC_PR_INTERPOLATED

    quantities = (ROC, PR, PRG, AUROC, AVERAGE_PRECISION, AUPRG, AUC_PR_INTERPOLATED)
    metrics = ("f1", "f2", "g(beta=2, rho=-3)", "mcc")
    try:
        if hasattr(op, "compute"):
            values = op.compute(*quantities, best=metrics)
        else:
            values = (*(op.get(q) for q in quantities), *(op.best_threshold(m) for m in metrics))
    except Exception as exc:  # the same refusal on both sides
        return {"together": f"{type(exc).__name__}: {exc}"}
    out = {}
    for k, value in enumerate(values):
        if isinstance(value, tuple):
            out.update({f"together_{k}_{j}": v for j, v in enumerate(value)})
        elif hasattr(value, "threshold"):
            out[f"together_{k}"] = (value.threshold, value.value, value.tp, value.fp, value.index, value.n_ties)
        else:
            out[f"together_{k}"] = value
    return out


def main() -> None:
    _old_new.main(CASES, lambda: [evaluate(c) for c in CASES], __file__)


if __name__ == "__main__":
    main()
