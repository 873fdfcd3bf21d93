"""
==================================================
Fairness of exposure: a ranking and its policies
==================================================

Two rankings can rank the same relevant items and still treat them very
differently: a deterministic ranking shows the first of several equally
relevant items to every user, every time. This example scores three
policies on the same queries with
:func:`~sklearn_rankeval.expected_exposure_score` (Diaz et al. 2020): the
deterministic ranking of a model's scores, the Plackett-Luce policy that
samples a ranking from the same scores, and a policy that shuffles the items
of each relevance grade (the ideal one). It then compares how two providers
share the users' attention with :func:`~sklearn_rankeval.awrf_score`, and
draws the Lorenz curve of the items' exposure with
:class:`~sklearn_rankeval.ItemExposureDisplay` (see
:ref:`fairness-exposure`).
"""

# %%
# Queries, grades and a model's scores
# ------------------------------------
# 300 queries of 20 candidate items each, graded 0-2; the model's score is
# the grade plus noise, so it ranks well but breaks every tie of grades one
# way. Each item belongs to one of two providers.
import matplotlib.pyplot as plt
import numpy as np

from sklearn_rankeval import (
    ItemExposureDisplay,
    awrf_score,
    expected_exposure_score,
    exposure_frame,
)

rng = np.random.default_rng(0)
n_queries, n_items = 300, 20
query = np.repeat(np.arange(n_queries), n_items)
item = np.tile(np.arange(n_items), n_queries)
grade = rng.choice([0, 1, 2], size=query.size, p=[0.6, 0.3, 0.1])
score = grade + rng.normal(scale=0.7, size=query.size)
provider = np.where(rng.random(query.size) < 0.3, "small", "large")

# %%
# Expected exposure of three policies
# -----------------------------------
# The deterministic ranking is one ranking per query; the Plackett-Luce
# policy draws 200 rankings per query from ``exp(score / 0.5)``; the ideal
# policy draws 200 rankings that order the grades and shuffle within them.
n_draws = 200
ideal_key = grade[None, :] + rng.random((n_draws, query.size))
ideal = dict(samples=np.repeat(np.arange(n_draws), query.size),
             items=np.tile(item, n_draws))
policies = {
    "deterministic": lambda measure: expected_exposure_score(
        grade, score, groups=query, measure=measure),
    "Plackett-Luce": lambda measure: expected_exposure_score(
        grade, score / 0.5, groups=query, measure=measure,
        policy="plackett_luce", n_samples=n_draws, random_state=0),
    "ideal (shuffled grades)": lambda measure: expected_exposure_score(
        np.tile(grade, n_draws), ideal_key.ravel(),
        groups=np.tile(query, n_draws), measure=measure, **ideal),
}
print(f"{'policy':<24}{'EE-L':>8}{'EE-D':>8}{'EE-R':>8}")
for name, score_of in policies.items():
    values = [score_of(m) for m in ("loss", "disparity", "relevance")]
    print(f"{name:<24}" + "".join(f"{v:8.3f}" for v in values))

# %%
# The deterministic ranking has the largest loss: its disparity (how
# unequally it spreads exposure) is the highest possible. Sampling from the
# scores lowers the disparity at some cost in relevance; the ideal policy's
# loss is 0 up to its sampling error.
#
# Attention by provider
# ---------------------
# AWRF as TREC Fair Ranking 2022 computes it: the share of each provider in
# the ranking's attention against a target, here the providers' shares of
# the candidates (1 is a perfect match).
target = {"large": np.mean(provider == "large"),
          "small": np.mean(provider == "small")}
print("AWRF, deterministic ranking:",
      round(awrf_score(grade, score, groups=query, item_groups=provider,
                       target=target), 4))

# %%
# The items' exposure
# -------------------
# :func:`~sklearn_rankeval.exposure_frame` gives each item's expected
# exposure beside its target; the Lorenz curve shows how concentrated the
# deterministic ranking's exposure is against the ideal target's.
frame = exposure_frame(grade, score, groups=query, items=item)
fig, ax = plt.subplots(figsize=(5.5, 5))
ItemExposureDisplay.from_counts(frame["exposure"], ax=ax,
                                name="deterministic ranking")
ItemExposureDisplay.from_counts(frame["target"], ax=ax, name="target (ideal)")
ax.set_title("Lorenz curve of the items' exposure")
ax.set_ylabel("Share of the expected exposure")
plt.show()
