"""
==================================================
Tuning a pointwise ranker for NDCG@10 per query
==================================================

A learning-to-rank data set has one row per (query, document) pair, a graded
relevance label and the query id of each row. Any scikit-learn regressor can
rank: it predicts a relevance score per row, and the documents of a query are
ranked by that score (a *pointwise* ranker).

This example tunes scikit-learn's
:class:`~sklearn.ensemble.HistGradientBoostingRegressor` with
:class:`~sklearn.model_selection.GridSearchCV` for NDCG@10 per query:
``get_scorer("ndcg@10")`` scores each test fold query by query, and
:class:`~sklearn.model_selection.GroupKFold` keeps every query in one fold.
With metadata routing enabled, one ``fit(X, y, groups=qid)`` sends the query
ids to both. For LightGBM's and XGBoost's rankers, which learn from whole
queries, see :ref:`scorers-ltr`.
"""

# %%
# A synthetic learning-to-rank data set
# -------------------------------------
# 150 queries of 10 to 30 documents, five features, relevance grades 0 to 4.
# The relevance depends on the features non-linearly (an interaction and a
# threshold), so the depth and the learning rate of the trees matter.
import numpy as np
import sklearn
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GridSearchCV, GroupKFold

from sklearn_rankeval import get_scorer, ndcg_score

rng = np.random.default_rng(0)
sizes = rng.integers(10, 31, size=150)
qid = np.repeat(np.arange(len(sizes)), sizes)
X = rng.normal(size=(len(qid), 5))
signal = X[:, 0] * X[:, 1] + (X[:, 2] > 0.5) + 0.5 * X[:, 3]
noisy = signal + rng.normal(0, 0.7, len(qid))
y = np.digitize(noisy, np.quantile(noisy, [0.5, 0.75, 0.9, 0.97]))
print(f"{len(sizes)} queries, {len(y)} documents, grades {np.bincount(y)}")

# %%
# Grid search with the query ids routed to the splitter and the scorer
# --------------------------------------------------------------------
# ``error_score="raise"``: if routing were off, the scorer's error (it gets
# no query ids) would stop the search instead of turning into NaN scores.
sklearn.set_config(enable_metadata_routing=True)

search = GridSearchCV(
    HistGradientBoostingRegressor(max_iter=30, random_state=0),
    {"max_depth": [2, 6], "learning_rate": [0.05, 0.2]},
    scoring={"ndcg@10": get_scorer("ndcg@10"), "map": get_scorer("map")},
    refit="ndcg@10",
    cv=GroupKFold(n_splits=3),
    error_score="raise",
)
search.fit(X, y, groups=qid)

results = search.cv_results_
print(f"{'max_depth':>9s} {'learning_rate':>13s} {'NDCG@10':>8s} {'MAP':>8s}")
for i, params in enumerate(results["params"]):
    ndcg, ap = results["mean_test_ndcg@10"][i], results["mean_test_map"][i]
    print(f"{params['max_depth']:9d} {params['learning_rate']:13.2f} "
          f"{ndcg:8.4f} {ap:8.4f}")
print("best:", search.best_params_)

# %%
# Each fold's score is the metric of the fold's queries
# -----------------------------------------------------
# The scorer calls :func:`~sklearn_rankeval.ndcg_score` with the fold's
# query ids: refitting the best parameters by hand on each fold gives the
# same numbers.
best = search.best_index_
by_hand = []
for train, test in GroupKFold(n_splits=3).split(X, y, qid):
    model = HistGradientBoostingRegressor(max_iter=30, random_state=0,
                                          **search.best_params_)
    model.fit(X[train], y[train])
    by_hand.append(ndcg_score(y[test], model.predict(X[test]),
                              groups=qid[test], k=10))
folds = [results[f"split{i}_test_ndcg@10"][best] for i in range(3)]
print("GridSearchCV:", np.round(folds, 4))
print("by hand:     ", np.round(by_hand, 4))

sklearn.set_config(enable_metadata_routing=False)
