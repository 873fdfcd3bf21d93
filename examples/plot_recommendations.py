"""
=====================================================
Top-N recommendations: accuracy and popularity bias
=====================================================

A recommender shows each user a short list, the top N of its scores over
the whole catalog. This example evaluates two of them on synthetic implicit
feedback: a matrix-factorisation model (a truncated SVD of the training
matrix) and the popularity baseline that recommends the most interacted-with
items to everyone. :func:`~sklearn_rankeval.top_k_items` turns their score
matrices into lists without the items each user has already seen,
:func:`~sklearn_rankeval.recommendation_report` gives the accuracy metrics
with bootstrap intervals over users beside the beyond-accuracy metrics, and
:class:`~sklearn_rankeval.ItemExposureDisplay` draws how each model spreads
its recommendations over the catalog (see :ref:`recommendations`).
"""

# %%
# Implicit feedback with a popular head
# -------------------------------------
# 3,000 users and 1,000 items, each with 8 latent factors; an item's
# interaction odds also grow with a Zipf-like popularity, so a few items
# collect many interactions and most have few. About 2.5% of the matrix is
# observed.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.decomposition import TruncatedSVD

from sklearn_rankeval import (
    ItemExposureDisplay,
    recommendation_report,
    top_k_items,
)

rng = np.random.default_rng(0)
n_users, n_items, n_factors = 3000, 1000, 8
user_factors = rng.normal(size=(n_users, n_factors))
item_factors = rng.normal(size=(n_items, n_factors))
# the log of a Zipf-like popularity: -log(rank), items in random order
popularity = -np.log(rng.permutation(n_items) + 1.0)
logit = (2 * user_factors @ item_factors.T / np.sqrt(n_factors)
         + 0.8 * popularity - 1)
interactions = rng.random((n_users, n_items)) < 1 / (1 + np.exp(-logit))
print(f"density: {interactions.mean():.3f}")

# %%
# A held-out split per user
# -------------------------
# Each user keeps 80% of their interactions for training; the other 20% are
# held out: the items the lists should find.
held = interactions & (rng.random(interactions.shape) < 0.2)
train_matrix = sparse.csr_matrix(interactions & ~held, dtype=np.float64)
held_out = sparse.csr_matrix(held)  # row u, column i: user u held out item i

# %%
# Two models, two score matrices
# ------------------------------
# The SVD model scores user ``u`` and item ``i`` by the rank-32
# reconstruction :math:`U S V^T` of the training matrix; the baseline by the
# item's number of training interactions, the same for every user.
svd = TruncatedSVD(n_components=32, random_state=0).fit(train_matrix)
scores = {
    "SVD": svd.transform(train_matrix) @ svd.components_,
    "Popularity": np.tile(np.asarray(train_matrix.sum(axis=0)), (n_users, 1)),
}

# %%
# Lists without the seen items
# ----------------------------
# ``exclude=train_matrix`` removes each user's training items before the
# cut: left in, they would fill the SVD model's lists (it reconstructs them)
# and count as misses. An item tied at the 10th place is kept with its tie
# (the popularity scores tie), so a list can hold more than 10 items.
lists = {name: top_k_items(s, k=10, exclude=train_matrix)
         for name, s in scores.items()}

# %%
# Accuracy and beyond accuracy
# ----------------------------
# The accuracy metrics, novelty and ARP get a 95% bootstrap interval over
# the users with a held-out item (the users drawn with replacement, their
# lists with them); coverage, Gini and entropy, which describe the whole
# catalog, get none (a resample repeats users, which never adds an item to
# the catalog shown). The beyond-accuracy metrics describe the lists:
# coverage (the share of the catalog ever recommended), the Gini
# index and the entropy (in bits) of the items' exposure, novelty (the mean
# self-information of the recommended items, in bits) and ARP (their
# average number of training interactions).
metrics = ["precision@10", "recall@10", "ndcg@10", "map@10", "coverage@10",
           "gini@10", "entropy@10", "novelty@10", "arp@10"]
columns = {}
for name, recommended in lists.items():
    report = recommendation_report(
        recommended, held_out, k=10, metrics=metrics, train=train_matrix,
        confidence=0.95, random_state=0,
        output="frame").set_index("metric")
    columns[name] = [
        f"{v:.4f}" if np.isnan(lo) else f"{v:.4f} [{lo:.4f}, {hi:.4f}]"
        for v, lo, hi in report[["value", "ci_low", "ci_high"]].to_numpy()]
print(pd.DataFrame(columns, index=metrics).to_string())
# what the report counted: the users averaged and the catalog
print(f"users evaluated: {report.attrs['n_users']}, "
      f"catalog: {report.attrs['n_items']} items")

# %%
# The SVD model finds about half as many held-out items again as the
# baseline, at every metric, with intervals far apart (for a paired test of
# the difference, see :func:`~sklearn_rankeval.compare_rankings`). It also
# recommends 31% of the catalog where the baseline shows the same 17 items
# to everyone, and its items are less popular (lower ARP, higher novelty).
# Both Gini indices are high, though: top-10 lists of 3,000 users still
# leave most of the catalog unshown.

# %%
# Where the recommendations go
# ----------------------------
# The Lorenz curve sorts the catalog's items by the number of lists holding
# them, least first, against the cumulative share of all recommendations:
# equal exposure is the diagonal. The dotted curve is that of the training
# interactions: the popularity baseline concentrates its exposure far more
# than the users did, on the last few percent of the items; the SVD model
# less, but more than the training data. The lists drawn are those of the
# users with a held-out item, the users the report averages, so that the
# Gini index in the legend is the table's ``gini@10``.
evaluated = held.any(axis=1)
fig, ax = plt.subplots(figsize=(6, 6), layout="constrained")
for name, recommended in lists.items():
    keep = evaluated[recommended["user"]]
    ItemExposureDisplay.from_recommendations(
        {column: values[keep] for column, values in recommended.items()},
        k=10, train=train_matrix, n_items=n_items, name=name, ax=ax)
ax.set_title("Exposure of the catalog in the top-10 lists")
plt.show()
