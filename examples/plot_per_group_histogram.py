"""
=====================================================
How a metric spreads over users: per-user histograms
=====================================================

A mean NDCG@10 of 0.8 over users may be every user near 0.8, or most users
at 1 and a tail of users the model serves badly. Two models with close means
can fail different users. :class:`~sklearn_rankeval.PerGroupHistogramDisplay`
draws the histogram of each user's value of a metric, the column of
:func:`~sklearn_rankeval.per_group_scores`, with a dashed line at the
metric's average.

This example compares a logistic regression that sees every feature of a
synthetic click log with one that sees a single item feature, on held-out
users.
"""

# %%
# Two models on a click log, split by user
# ----------------------------------------
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit
from sklearn.pipeline import make_pipeline

from sklearn_rankeval import PerGroupHistogramDisplay, per_group_scores
from sklearn_rankeval.datasets import make_click_log

X, y, users = make_click_log(n_users=2000, random_state=0)
train, test = next(GroupShuffleSplit(test_size=0.5, random_state=0).split(
    X, y, users))
one_feature = ColumnTransformer([("item", "passthrough", [1])])
models = {
    "all features": LogisticRegression(),
    "one item feature": make_pipeline(one_feature, LogisticRegression()),
}
for model in models.values():
    model.fit(X[train], y[train])

# %%
# The per-user histograms
# -----------------------
# A named Series of user ids names the axes ("users"). Users without a click
# have no NDCG: they are left out, and the x label says how many.
user = pd.Series(users[test], name="user")
fig, ax = plt.subplots(figsize=(7, 4.5), layout="constrained")
for name, model in models.items():
    PerGroupHistogramDisplay.from_estimator(
        model, X[test], y[test], groups=user, metric="ndcg@10", name=name,
        ax=ax)
ax.set_title("NDCG@10 of each held-out user")
plt.show()

# %%
# The same numbers as a frame
# ---------------------------
# The histogram is the ``ndcg@10`` column of ``per_group_scores``, indexed by
# the user ids: the users the weaker model serves worst, for instance.
scores = {name: model.predict_proba(X[test])[:, 1]
          for name, model in models.items()}
per_user = pd.DataFrame({
    name: per_group_scores(y[test], s, groups=user,
                           metrics=["ndcg@10"])["ndcg@10"]
    for name, s in scores.items()})
print(per_user.dropna().sort_values("one item feature").head())
