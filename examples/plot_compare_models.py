"""
=====================================================
Is model B really better? Comparing two click models
=====================================================

Two click models are scored on the same users' impressions. Their GAUC or
NDCG@10 differ by a few thousandths: is that a better model or the luck of
the users in the test set? :func:`~sklearn_rankeval.compare_rankings` answers
with, for every metric, the difference, a paired bootstrap interval that
resamples whole users, and a paired test over users with the p-values
adjusted for the number of metrics.
:class:`~sklearn_rankeval.RankingComparisonDisplay` draws the same numbers as
a forest plot.
"""

# %%
# Two click models on a click log, split by user
# ----------------------------------------------
# A logistic regression on every feature, and the same model without one of
# the weaker item features (column 5; column 0 is the user-activity feature,
# which cannot order one user's items).
import matplotlib.pyplot as plt
import numpy as np
from sklearn.compose import ColumnTransformer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupShuffleSplit
from sklearn.pipeline import make_pipeline

from sklearn_rankeval import RankingComparisonDisplay, compare_rankings
from sklearn_rankeval.datasets import make_click_log

X, y, users = make_click_log(n_users=1200, random_state=0)
train, test = next(GroupShuffleSplit(test_size=0.5, random_state=0).split(
    X, y, users))
fewer = ColumnTransformer([("kept", "passthrough", [0, 1, 2, 3, 4, 6])])
models = {
    "all features": LogisticRegression(),
    "without x5": make_pipeline(fewer, LogisticRegression()),
}
for model in models.values():
    model.fit(X[train], y[train])
X_test, y_test, users_test = X[test], y[test], users[test]

# %%
# The table
# ---------
# The first model is the baseline. Each row gives the model's value, its
# difference to the baseline with the 95% bootstrap interval of that
# difference (the same resamples of users for both models), the p-value of
# the paired permutation test over users, the p-value adjusted by Holm's
# method for the 5 comparisons, and the users where the model ranks better,
# equally well, or worse.
metrics = ["gauc", "mrr", "ndcg@10", "hit_rate@5", "map"]
scores = {name: model.predict_proba(X_test)[:, 1]
          for name, model in models.items()}
table = compare_rankings(y_test, scores, groups=users_test, metrics=metrics,
                         n_resamples=2000, random_state=0, output="frame")
# the main columns (output="text" prints them all, as a wide table)
print(table[["metric", "model", "diff", "ci_low", "ci_high", "p_adjusted",
             "wins", "losses"]].round(4).to_string(index=False))

# %%
# The display
# -----------
# One row per metric: the marker is the difference to the baseline, the bar
# its 95% interval, the dashed line no difference. A filled marker is a
# difference whose adjusted p-value is below 0.05; an open one is not
# significant. An interval that excludes 0 with an open marker can happen:
# the interval is for that metric alone, the p-value is corrected for all
# five.
disp = RankingComparisonDisplay.from_estimator(
    models, X_test, y_test, groups=users_test, metrics=metrics,
    n_resamples=2000, random_state=0)
disp.ax_.set_title("Dropping one item feature")
plt.show()

# %%
# Reading it
# ----------
# Dropping ``x5`` costs about 0.01 of GAUC, NDCG@10 and MAP, and the users
# agree often enough for that to be more than noise. MRR's interval contains
# 0; HR@5's just excludes it, but its p-value does not survive the correction
# for five comparisons (an open marker). Those two metrics only look at the
# top of each list, where the two models mostly agree (see the ties).
# The differences, intervals and significance are attributes of the display,
# in the order of its metrics (rows) and models (columns):
for metric, d, lo, hi, sig in zip(disp.metrics, disp.diff[:, 0],
                                  disp.ci_low[:, 0], disp.ci_high[:, 0],
                                  disp.significant_[:, 0]):
    verdict = "worse" if sig and d < 0 else "better" if sig else "no evidence"
    print(f"{metric:11s} {d:+.4f}  [{lo:+.4f}, {hi:+.4f}]  {verdict}")
print(f"{np.count_nonzero(disp.significant_)} of {disp.significant_.size} "
      f"differences are significant after Holm's correction")
