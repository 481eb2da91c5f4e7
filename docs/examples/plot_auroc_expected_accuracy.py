"""
AUROC and expected accuracy
===========================

AUROC is the probability that a random positive is scored above a random negative. It is
also, up to a linear change of scale, the expected accuracy when the number of predicted
positives k is drawn uniformly from 0..n (Hernandez-Orallo, Flach & Ferri, JMLR 2012).
Counting, for continuous scores with Pos positives and Neg negatives (n = Pos + Neg):

    sum_k accuracy(k) * n = Pos n - Pos(Pos-1)/2 - Pos Neg + Neg + Neg(Neg-1)/2 + 2 Pos Neg AUROC

so E[accuracy] = that sum / (n (n + 1)). We check it on several models.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import isometrics as im

rng = np.random.default_rng(0)
n_pos, n_neg = 60, 140
y_true = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
n = n_pos + n_neg

rows = []
for separation in np.linspace(-1, 3, 9):
    y_score = rng.normal(size=n) + separation * y_true
    order = np.argsort(-y_score)
    tp = np.r_[0, np.cumsum(y_true[order])]          # k = 0..n predicted positives
    fp = np.arange(n + 1) - tp
    accuracy = (tp + (n_neg - fp)) / n
    auroc = im.auroc(y_true, y_score)
    total = n_pos * n - n_pos * (n_pos - 1) / 2 - n_pos * n_neg + n_neg + n_neg * (n_neg - 1) / 2 \
        + 2 * n_pos * n_neg * auroc
    assert abs(accuracy.mean() - total / (n * (n + 1))) < 1e-12
    rows.append((auroc, accuracy.mean()))
rows = np.array(rows)
print(np.round(rows, 4))

# %%
# Expected accuracy is a straight line in AUROC, with slope 2 Pos Neg / (n (n + 1)).
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot(rows[:, 0], rows[:, 1], "o", label="models (brute force over k)")
grid = np.linspace(0, 1, 2)
ax.plot(grid, (n_pos * n - n_pos * (n_pos - 1) / 2 - n_pos * n_neg + n_neg + n_neg * (n_neg - 1) / 2
               + 2 * n_pos * n_neg * grid) / (n * (n + 1)), label="the linear relation")
ax.set_xlabel("AUROC")
ax.set_ylabel("expected accuracy, k uniform on 0..n")
ax.legend()
