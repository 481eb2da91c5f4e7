"""
A stakeholder's answer bounds beta
==================================

A model tuned for F-beta with beta = 0.3 classified products with 90 % precision and 36 %
recall; the stakeholder shown those numbers worried more about the recall. If F-beta
describes her preferences, a small gain in recall is worth more to her than the same gain
in precision at that point, which places the point above her break-even line R/P = beta:
her beta is greater than 0.36 / 0.90 = 0.4. The team went on to tune for beta = 0.5.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import isometrics as im

P, R = 0.90, 0.36
bound = R / P
print(f"beta > {bound:.2f}")
assert abs(bound - 0.4) < 1e-12

# %%
# The marginal values: for F-beta, dF/dR > dF/dP exactly when R/P < beta. Finite
# differences at the point for beta on either side of the bound confirm the direction.
eps = 1e-7
for beta in (0.3, 0.4, 0.5):
    d_recall = (im.fbeta(P, R + eps, beta=beta) - im.fbeta(P, R, beta=beta)) / eps
    d_precision = (im.fbeta(P + eps, R, beta=beta) - im.fbeta(P, R, beta=beta)) / eps
    print(f"beta {beta}: dF/dR {d_recall:.4f}  dF/dP {d_precision:.4f}")
    if beta > bound + 1e-9:
        assert d_recall > d_precision
    elif beta < bound - 1e-9:
        assert d_recall < d_precision

# %%
# Level curves of F-beta through the point, with each beta's break-even line: for
# beta = 0.3 the point lies below the line (precision matters more there), for beta = 0.5
# above it (recall matters more), as her answer says.
fig, ax = plt.subplots(figsize=(5, 5))
for beta, colour in ((0.3, "tab:blue"), (0.5, "tab:red")):
    value = im.fbeta(P, R, beta=beta)
    curve = im.level_curve(f"fbeta(beta={beta})", value, space="pr")
    ax.plot(curve.recall, curve.precision, color=colour, label=f"F{beta} = {value:.3f}")
    line = im.spaces.break_even_line(beta)
    ax.plot(line.recall, line.precision, color=colour, linestyle=":", label=f"R/P = {beta}")
ax.plot([R], [P], "ko")
ax.annotate("P = 0.90, R = 0.36", (R, P), textcoords="offset points", xytext=(8, -14))
ax.set_xlim(0, 1)
ax.set_ylim(0, 1)
ax.set_xlabel("recall")
ax.set_ylabel("precision")
ax.legend(fontsize=8, loc="lower right")
