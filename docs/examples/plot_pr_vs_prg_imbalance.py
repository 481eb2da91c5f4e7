"""
PR against PRG under class imbalance
====================================

The same ranking, evaluated at three prevalences: the ROC curve does not move; the PR
curve sinks towards the prevalence baseline, and its area with it; the
Precision-Recall-Gain curve (Flach & Kull, NeurIPS 2015) rescales precision and recall
harmonically against the always-positive baseline, so that its baselines are fixed, its
area is linear in expected F1, and its convex hull has the meaning ROC's has.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import isometrics as im

rng = np.random.default_rng(1)
y_true = rng.random(20000) < 0.5
y_score = rng.normal(size=20000) + 1.5 * y_true
op = im.OperatingPoints.from_scores(y_true, y_score)

fig, axes = plt.subplots(1, 3, figsize=(12, 4))
for prevalence in (0.5, 0.1, 0.01):
    shifted = op.at_prevalence(prevalence)
    fpr, tpr, _ = shifted.roc_curve()
    precision, recall, _ = shifted.precision_recall_curve()
    precision_gain, recall_gain, _ = shifted.prg_curve()
    keep = (precision_gain >= 0) & (recall_gain >= 0)
    label = f"prevalence {prevalence:g}"
    axes[0].plot(fpr, tpr, label=f"{label}: AUROC {shifted.auroc():.3f}")
    axes[1].plot(recall, precision, label=f"{label}: AP {shifted.average_precision():.3f}")
    axes[2].plot(recall_gain[keep], precision_gain[keep], label=f"{label}: AUPRG {shifted.auprg():.3f}")
    assert abs(shifted.auroc() - op.auroc()) < 1e-12     # ROC is invariant
for ax, (x, y) in zip(axes, [("FPR", "TPR"), ("recall", "precision"), ("recall gain", "precision gain")]):
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=8, loc="lower left")
axes[0].set_title("ROC: unchanged")
axes[1].set_title("PR: sinks with prevalence")
axes[2].set_title("PRG")
fig.tight_layout()
