"""
The Covid test: precision is Bayes' theorem
===========================================

A test with 99 % recall (sensitivity) and a 5 % false positive rate, given to a population
where 1 % are infected, is right only one time in six when it says "positive": precision
is recall times prevalence over the probability of a positive test. A second, independent
positive test starts from a prior of 1/6 and reaches about 80 %.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import isometrics as im

recall, fpr, prevalence = 0.99, 0.05, 0.01
by_hand = recall * prevalence / (recall * prevalence + fpr * (1 - prevalence))
ours = float(im.spaces.precision_at_prevalence(recall, fpr, prevalence=prevalence))
print(f"precision {ours:.4f} (by hand {by_hand:.4f}, 1/6 = {1 / 6:.4f})")
assert abs(ours - 1 / 6) < 1e-12 and abs(ours - by_hand) < 1e-15

second = im.spaces.repeated_test_precision(recall, fpr, prevalence=prevalence, n_tests=2)
prior = 1 / 6
by_hand_2 = recall * prior / (recall * prior + fpr * (1 - prior))
print(f"after two positive tests: {second[-1]:.4f} (by hand {by_hand_2:.4f})")
assert abs(second[-1] - by_hand_2) < 1e-12

# %%
# Precision against prevalence, for this test and a better one: precision collapses as
# the condition becomes rare, while recall and the false positive rate stay put.
prevalences = np.geomspace(1e-4, 0.5, 200)
fig, ax = plt.subplots(figsize=(6, 4))
for label, tpr, fp_rate in [("recall .99, FPR .05", 0.99, 0.05), ("recall .99, FPR .005", 0.99, 0.005)]:
    precision = [float(im.spaces.precision_at_prevalence(tpr, fp_rate, prevalence=p)) for p in prevalences]
    ax.plot(prevalences, precision, label=label)
ax.plot([prevalence], [ours], "o", color="k")
ax.annotate("1 % prevalence: 1/6", (prevalence, ours), textcoords="offset points", xytext=(8, -12))
ax.set_xscale("log")
ax.set_xlabel("prevalence")
ax.set_ylabel("precision (P(infected | positive))")
ax.legend()
