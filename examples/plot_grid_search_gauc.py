"""
=========================================
Tuning a click model with GAUC per user
=========================================

A CTR model is judged by how well it orders each user's impressions, not by
how well it separates active users from inactive ones. The global ROC AUC
rewards the latter; the group AUC (GAUC, the AUC within each user weighted by
the user's impressions) does not.

This example tunes a logistic regression on a synthetic click log with
:class:`~sklearn.model_selection.GridSearchCV`, scoring each fold per user with
the GAUC scorer (``get_scorer("gauc")``, here
``make_ranking_scorer(gauc_score, undefined="skip")``: the same scorer, silent
about the users of a fold without a click). The user ids reach both the splitter
(:class:`~sklearn.model_selection.GroupKFold`, so no user is in both train and
test) and the scorer through scikit-learn's metadata routing: one
``fit(X, y, groups=groups)`` call, no other wiring.
"""

# %%
# A click log where users differ in their base click rate
# --------------------------------------------------------
# Column 0 of ``X`` is a user-activity feature: it predicts who clicks a lot,
# but it is the same for all the items of one user.
import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_rankeval import gauc_score, make_ranking_scorer, ndcg_score
from sklearn_rankeval.datasets import make_click_log

X, y, groups = make_click_log(n_users=600, random_state=0)
n_users = len(np.unique(groups))
print(f"{n_users} users, {len(y)} impressions, {y.mean():.1%} clicks")

# %%
# Global AUC and GAUC disagree
# ----------------------------
# The activity feature alone has a global AUC well above 1/2, yet it cannot
# order one user's impressions: its GAUC is exactly 1/2 (every pair within a
# user is tied).
activity = X[:, 0]
# users without a click (or with only clicks) have no AUC: GAUC leaves them
# out; undefined="skip" says so explicitly (the default also warns how many)
print(f"activity feature: AUC = {roc_auc_score(y, activity):.3f}, "
      f"GAUC = {gauc_score(y, activity, groups=groups, undefined='skip'):.3f}")

# %%
# Grid search scored per user
# ---------------------------
# Metadata routing sends ``groups`` to both the splitter and the scorer. The
# grid spans regularisation strengths; the multi-metric scoring also reports
# NDCG@5 per user, and ``refit="gauc"`` keeps the model with the best GAUC.
sklearn.set_config(enable_metadata_routing=True)

model = make_pipeline(StandardScaler(), LogisticRegression())
param_grid = {"logisticregression__C": [0.0001, 0.001, 1.0]}
search = GridSearchCV(
    model,
    param_grid,
    # (undefined="skip": the users of a fold without a click are left out
    # silently; the default warns how many, fold by fold)
    scoring={"gauc": make_ranking_scorer(gauc_score, undefined="skip"),
             "ndcg@5": make_ranking_scorer(ndcg_score, k=5, undefined="skip")},
    refit="gauc",
    cv=GroupKFold(n_splits=5),
)
search.fit(X, y, groups=groups)

# %%
# The cross-validation results
# ----------------------------
# GAUC hardly moves with ``C``: shrinking the coefficients changes the
# probabilities but hardly the order of one user's impressions, and the ranking
# is all that GAUC and NDCG look at.
results = search.cv_results_
print(f"{'C':>8s} {'GAUC':>14s} {'NDCG@5':>14s}")
for i, params in enumerate(results["params"]):
    cells = []
    for m in ("gauc", "ndcg@5"):
        mean, std = results[f"mean_test_{m}"][i], results[f"std_test_{m}"][i]
        cells.append(f"{mean:7.4f} ± {std:.4f}")
    print(f"{params['logisticregression__C']:8g} " + " ".join(cells))
print("best:", search.best_params_, f"GAUC {search.best_score_:.4f}")

sklearn.set_config(enable_metadata_routing=False)
