"""
F-beta is accuracy on a modified confusion matrix
=================================================

F1 = 2TP / (2TP + FN + FP) is the accuracy of a confusion matrix whose true negatives are
replaced by the true positives: (TP + TP) / (Pos + Neg - TN + TP). For F-beta, multiply the
positive row by beta^2 as well: F-beta = (1 + beta^2) TP / ((1 + beta^2) TP + beta^2 FN + FP).
True negatives never count, which is why F-beta suits tasks where they add no value.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import isometrics as im

tp, fn, fp, tn = 60, 40, 25, 875


def modified_accuracy(tp, fn, fp, beta):
    """Accuracy of [[beta^2 TP, beta^2 FN], [FP, TP]] (the modified matrix)."""
    b2 = beta * beta
    correct = b2 * tp + tp
    total = b2 * (tp + fn) + fp + tp
    return correct / total


precision, recall = tp / (tp + fp), tp / (tp + fn)
betas = np.geomspace(0.1, 10, 200)
from_matrix = np.array([modified_accuracy(tp, fn, fp, b) for b in betas])
from_means = np.array([im.fbeta(precision, recall, beta=b) for b in betas])
assert np.allclose(from_matrix, from_means, rtol=1e-13, atol=0)
print(f"F1 = {modified_accuracy(tp, fn, fp, 1.0):.4f}; max |difference| over beta = "
      f"{np.max(np.abs(from_matrix - from_means)):.1e}")

# %%
# The same numbers from the label metric (with scikit-learn's signature): true negatives
# can be anything.
y_true = np.r_[np.ones(tp + fn), np.zeros(fp + tn)]
y_pred = np.r_[np.ones(tp), np.zeros(fn), np.ones(fp), np.zeros(tn)]
assert abs(im.fbeta_score(y_true, y_pred, beta=2) - modified_accuracy(tp, fn, fp, 2.0)) < 1e-12

fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(betas, from_means, label="weighted harmonic mean of P and R", linewidth=3, alpha=0.5)
ax.plot(betas, from_matrix, "--", label="accuracy of the modified matrix")
ax.axhline(precision, color="0.6", linewidth=0.8)
ax.axhline(recall, color="0.6", linewidth=0.8)
ax.set_xscale("log")
ax.set_xlabel("beta")
ax.set_ylabel("F-beta")
ax.legend()
