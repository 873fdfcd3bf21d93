"""
==================================================
Interpolated precision-recall curves of two models
==================================================

A precision-recall curve of a ranking is a staircase: precision drops at every
non-relevant item and jumps back up at the next relevant one. Information
retrieval reports its *interpolated* version instead, the highest precision at
any recall at least as large (the envelope of the staircase), and averages it
over queries at fixed recall levels.

This example compares a logistic regression with a weaker one, which does not
see the two most informative item features, on a synthetic click log, with
:class:`~sklearn_rankeval.InterpolatedPrecisionRecallDisplay`: first the raw
staircase and its envelope for the impressions of one user, then the curve
averaged over all users.
"""

# %%
# A click log, split by user
# --------------------------
# Each user is a query: its impressions are the items to rank and its clicks
# the relevant ones. The split keeps every user on one side.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit
from sklearn.pipeline import make_pipeline

from sklearn_rankeval import InterpolatedPrecisionRecallDisplay
from sklearn_rankeval.datasets import make_click_log

X, y, groups = make_click_log(n_users=600, random_state=0)
splitter = GroupShuffleSplit(test_size=0.5, random_state=0)
train, test = next(splitter.split(X, y, groups))
# the weaker model keeps the user-activity column and the weakest
# item features
weak_columns = ColumnTransformer([("keep", "passthrough", [0, 3, 4, 5, 6])])
models = {
    "All features": LogisticRegression(),
    "Without features 1-2": make_pipeline(weak_columns, LogisticRegression()),
}
for model in models.values():
    model.fit(X[train], y[train])
X_test, y_test, groups_test = X[test], y[test], groups[test]

# %%
# One user: the staircase and its envelope
# ----------------------------------------
# For one ranking the display draws the raw precision-recall staircase (dashed)
# and the interpolated envelope (solid). With ``n_points=None`` the envelope is
# exact and its area, the all-points interpolated AP ("iAP"), is in the legend.
# Grey iso-F1 lines (``f_beta=[1]``, as in ``fbeta_score``) mark where precision
# and recall give the same F1 score. Passing ``ax=`` puts the second model on
# the same axes.
users, counts = np.unique(groups_test, return_counts=True)
clicks = np.bincount(np.searchsorted(users, groups_test), weights=y_test)
# a long list with some clicks
user = users[np.argmax(counts + 100 * (clicks >= 4))]
rows = groups_test == user

fig, ax = plt.subplots(figsize=(6, 7), layout="constrained")
for i, (name, model) in enumerate(models.items()):
    InterpolatedPrecisionRecallDisplay.from_estimator(
        model, X_test[rows], y_test[rows], name=name, ax=ax, n_points=None,
        f_beta=[1.0] if i == 0 else None,
    )
n_clicks = int(y_test[rows].sum())
ax.set_title(f"User {user}: {rows.sum()} impressions, {n_clicks} clicks")
# five legend entries: below the axes, where they hide no curve
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2,
          fontsize="small")

# %%
# All users: the interpolated precision averaged over queries
# ------------------------------------------------------------
# With ``groups`` each user's interpolated precision is taken at the 11 recall
# levels 0, 0.1, ..., 1 (the default ``n_points=11``) and averaged over the
# users who clicked at least once (the others have no curve). The legend gives
# the mean of the curve, "11-pt AP", which is
# :func:`~sklearn_rankeval.interpolated_average_precision_score` with its
# default ``n_points=11``; pass ``n_points=101`` for COCO's 101 levels.
fig, ax = plt.subplots(figsize=(6, 6), layout="constrained")
for name, model in models.items():
    disp = InterpolatedPrecisionRecallDisplay.from_estimator(
        model, X_test, y_test, groups=groups_test, name=name, ax=ax
    )
ax.set_title(f"Mean over {disp.n_groups} users with a click")
print(f"{disp.name}: 11-point interpolated AP {disp.average_precision:.4f}")
