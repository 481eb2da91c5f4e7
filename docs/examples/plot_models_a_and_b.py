"""
Models A and B under the Pythagorean means and G(beta, rho)
===========================================================

Model A finds 99 of 100 positives with 10 false positives; model B finds 97 with 9. Model
A's precision is 99/109 = 90.8 % and B's 97/106 = 91.5 % (the source's text has slips
here; these are the right fractions). Which is better depends on the metric, and the
two-parameter family G(beta, rho) shows exactly where the preference flips.
"""

# %%
# The two confusion matrices, and precision and recall from the counts.
import matplotlib.pyplot as plt
import numpy as np

import isometrics as im

counts = {"A": dict(tp=99, fp=10, fn=1), "B": dict(tp=97, fp=9, fn=3)}
P = {name: c["tp"] / (c["tp"] + c["fp"]) for name, c in counts.items()}
R = {name: c["tp"] / (c["tp"] + c["fn"]) for name, c in counts.items()}
assert abs(P["A"] - 99 / 109) < 1e-15 and abs(P["B"] - 97 / 106) < 1e-15
for name in counts:
    print(f"model {name}: precision {P[name]:.3f}, recall {R[name]:.3f}")

# %%
# The weighted Pythagorean means at equal weight: the arithmetic mean prefers A (it gains
# 2 points of recall for 0.7 of precision); so do the geometric and harmonic means here,
# by smaller margins, because they lean towards the smaller of the two numbers.
for mean in (im.weighted_arithmetic_mean, im.weighted_geometric_mean, im.weighted_harmonic_mean):
    a, b = mean(P["A"], R["A"], gamma=1), mean(P["B"], R["B"], gamma=1)
    print(f"{mean.__name__:26s} A {a:.4f}  B {b:.4f}  prefers {'A' if a > b else 'B'}")

# %%
# Over the whole (beta, rho) plane: G(beta, rho)(A) - G(beta, rho)(B). A small beta
# (precision matters more) hands the choice to B; the boundary moves with the curvature rho.
betas = np.geomspace(0.05, 5, 121)
rhos = np.linspace(-6, 4, 101)
rhos = rhos[np.abs(rhos) > 1e-9]  # rho = 0 is the stipulated arithmetic mean, a separate case
grid = dict(beta=betas[None, :], rho=rhos[:, None])  # g_beta_rho broadcasts: one call for the whole grid
diff = im.g_beta_rho(P["A"], R["A"], **grid) - im.g_beta_rho(P["B"], R["B"], **grid)
fig, ax = plt.subplots(figsize=(6, 4))
mesh = ax.pcolormesh(betas, rhos, np.sign(diff), cmap="coolwarm", shading="auto", vmin=-1, vmax=1)
ax.contour(betas, rhos, diff, levels=[0], colors="k", linewidths=1)
ax.set_xscale("log")
ax.set_xlabel("beta (recall/precision ratio at break-even)")
ax.set_ylabel("rho (curvature)")
ax.set_title("Red: A preferred; blue: B preferred")
ax.axhline(-2, color="0.3", linestyle=":", linewidth=1)
ax.text(0.06, -1.8, "F-beta (rho = -2)", fontsize=8)

# %%
# A hand check: F-beta at rho = -2, where beta* solving F(A) = F(B) can be found by
# bisection on the counts' formula (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP).
def f_counts(c, b):
    return (1 + b * b) * c["tp"] / ((1 + b * b) * c["tp"] + b * b * c["fn"] + c["fp"])


lo, hi = 0.01, 10.0
for _ in range(100):
    mid = np.sqrt(lo * hi)
    lo, hi = (mid, hi) if f_counts(counts["B"], mid) > f_counts(counts["A"], mid) else (lo, mid)
print(f"F-beta prefers B below beta = {lo:.4f} and A above it")
assert abs(im.fbeta(P["A"], R["A"], beta=lo) - im.fbeta(P["B"], R["B"], beta=lo)) < 1e-9
