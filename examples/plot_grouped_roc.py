"""
=====================================================
ROC curves per user: global AUC versus GAUC
=====================================================

A click model is used to order each user's impressions. The ROC curve of all
impressions pooled together also rewards a model for telling active users from
inactive ones, which orders no user's list. The curve that matters averages
the ROC curves *of the users*: the area under each is the user's AUC, and the
weighted mean of those areas is the group AUC (GAUC). The display draws the
median of the users' curves with the band of their inter-quartile range.

This example compares two logistic regressions on a synthetic click log with
:class:`~sklearn_rankeval.GroupedRocCurveDisplay`: one sees every feature, the
other only the user-activity feature. Pooled, the second looks useful; per
user it is no better than chance.
"""

# %%
# Two models on a click log, split by user
# ----------------------------------------
import matplotlib.pyplot as plt
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit
from sklearn.pipeline import make_pipeline

from sklearn_rankeval import GroupedRocCurveDisplay
from sklearn_rankeval.datasets import make_click_log

X, y, groups = make_click_log(n_users=600, random_state=0)
splitter = GroupShuffleSplit(test_size=0.5, random_state=0)
train, test = next(splitter.split(X, y, groups))
activity_only = ColumnTransformer([("activity", "passthrough", [0])])
models = {
    "All features": LogisticRegression(),
    "User activity only": make_pipeline(activity_only, LogisticRegression()),
}
for model in models.values():
    model.fit(X[train], y[train])
X_test, y_test, groups_test = X[test], y[test], groups[test]

# %%
# Pooled: one ROC curve of all impressions
# ----------------------------------------
# Without ``groups`` the display draws the ROC curve of one ranking, as
# :class:`sklearn.metrics.RocCurveDisplay` does, with its AUC.
fig, ax = plt.subplots(figsize=(5.5, 5.5), layout="constrained")
for name, model in models.items():
    # the chance level (the diagonal) is drawn once per axes
    GroupedRocCurveDisplay.from_estimator(model, X_test, y_test, name=name,
                                          ax=ax)
ax.set_title("All impressions pooled")

# %%
# Per user: the median ROC curve, its band and the GAUC
# -----------------------------------------------------
# With ``groups`` each user's ROC curve is read at 101 false positive rates.
# The line is the median of the users' true positive rates and the shaded
# band their inter-quartile range (IQR), each user counted once; the legend
# gives the GAUC of :func:`~sklearn_rankeval.gauc_score`, each user weighted
# by their impressions. Users who clicked everything or nothing have no ROC
# curve and are left out. The activity-only model gives all the items of a
# user the same score: every user's curve is the chance diagonal, its band
# has no width and so no legend entry.
fig, ax = plt.subplots(figsize=(5.5, 5.5), layout="constrained")
for name, model in models.items():
    disp = GroupedRocCurveDisplay.from_estimator(
        model, X_test, y_test, groups=groups_test, name=name, ax=ax
    )
ax.set_title(f"Median over {disp.n_groups} users with clicks and non-clicks")
