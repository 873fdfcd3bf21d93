"""Scorers in real scikit-learn model selection, compared fold by fold with
the metric functions applied by hand to the same fold."""

import pickle

import numpy as np
import pytest
import sklearn
from sklearn.base import clone
from sklearn.datasets import load_digits
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer, top_k_accuracy_score
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from sklearn_rankeval import (
    gauc_score,
    get_scorer,
    get_scorer_names,
    hit_rate_score,
    make_ranking_scorer,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
)
from sklearn_rankeval.datasets import make_click_log


@pytest.fixture(autouse=True)
def one_thread():
    # on a busy 2-core machine the OpenMP/BLAS pools of HistGradientBoosting and
    # lbfgs spin for seconds per fit; the tests need no threads
    with threadpool_limits(1):
        yield


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


@pytest.fixture(scope="module")
def click_log():
    return make_click_log(n_users=120, n_items=(4, 12), random_state=3)


def fold_scores(estimator, X, y, groups, cv, metric, **metric_kw):
    """The metric on every test fold, computed by hand from the fold indices."""
    scores = []
    for train, test in cv.split(X, y, groups):
        model = clone(estimator).fit(X[train], y[train])
        if hasattr(model, "predict_proba"):
            score = model.predict_proba(X[test])[:, 1]
        else:
            score = model.predict(X[test])
        scores.append(metric(y[test], score, groups=groups[test], **metric_kw))
    return np.array(scores)


def test_grid_search_scores_each_fold_per_group(routing, click_log):
    X, y, groups = click_log
    grid = {"C": [0.01, 1.0]}
    search = GridSearchCV(LogisticRegression(), grid, scoring=get_scorer("gauc"),
                          cv=GroupKFold(5)).fit(X, y, groups=groups)
    for i, params in enumerate(search.cv_results_["params"]):
        expected = fold_scores(LogisticRegression(**params), X, y, groups,
                               GroupKFold(5), gauc_score)
        got = [search.cv_results_[f"split{f}_test_score"][i] for f in range(5)]
        np.testing.assert_allclose(got, expected, rtol=1e-12)
        # per group, not the AUC of the fold as one ranking
        one_ranking = fold_scores(LogisticRegression(**params), X, y,
                                  np.zeros_like(groups), _FixedSplits(X, y, groups),
                                  gauc_score)
        assert not np.allclose(got, one_ranking)
    assert search.best_params_ == search.cv_results_["params"][
        int(np.argmax(search.cv_results_["mean_test_score"]))]


class _FixedSplits:
    """The GroupKFold(5) splits of the data, replayed whatever groups are passed."""

    def __init__(self, X, y, groups):
        self.splits = list(GroupKFold(5).split(X, y, groups))

    def split(self, X, y, groups):
        return iter(self.splits)


def test_cross_validate_and_cross_val_score(routing, click_log):
    X, y, groups = click_log
    model = LogisticRegression()
    expected = fold_scores(model, X, y, groups, GroupKFold(4), mean_average_precision_score,
                           k=5)
    res = cross_validate(model, X, y, scoring=get_scorer("map@5"), cv=GroupKFold(4),
                         params={"groups": groups})
    np.testing.assert_allclose(res["test_score"], expected, rtol=1e-12)
    scores = cross_val_score(model, X, y, scoring=get_scorer("map@5"),
                             cv=GroupKFold(4), params={"groups": groups})
    np.testing.assert_allclose(scores, expected, rtol=1e-12)


def test_multi_metric_scoring_with_refit_in_a_pipeline(routing, click_log):
    X, y, groups = click_log
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    scoring = {"gauc": get_scorer("gauc"), "map@10": get_scorer("map@10"),
               "ndcg@5": get_scorer("ndcg@5")}
    search = GridSearchCV(pipe, {"logisticregression__C": [0.1, 10.0]},
                          scoring=scoring, refit="gauc", cv=GroupKFold(3))
    search.fit(X, y, groups=groups)
    for i, params in enumerate(search.cv_results_["params"]):
        est = clone(pipe).set_params(**params)
        for name, metric, kw in [("gauc", gauc_score, {}),
                                 ("map@10", mean_average_precision_score, {"k": 10}),
                                 ("ndcg@5", ndcg_score, {"k": 5})]:
            expected = fold_scores(est, X, y, groups, GroupKFold(3), metric, **kw)
            got = [search.cv_results_[f"split{f}_test_{name}"][i] for f in range(3)]
            np.testing.assert_allclose(got, expected, rtol=1e-12)
    best = int(np.argmax(search.cv_results_["mean_test_gauc"]))
    assert search.best_params_ == search.cv_results_["params"][best]
    assert hasattr(search.best_estimator_, "predict_proba")


def test_parallel_jobs_and_pickling(routing, click_log):
    X, y, groups = click_log
    scorer = get_scorer("mrr@3")
    clone_scorer = pickle.loads(pickle.dumps(scorer))
    serial = cross_val_score(LogisticRegression(), X, y, scoring=scorer,
                             cv=GroupKFold(3), params={"groups": groups})
    parallel = cross_val_score(LogisticRegression(), X, y, scoring=clone_scorer,
                               cv=GroupKFold(3), params={"groups": groups}, n_jobs=2)
    np.testing.assert_allclose(parallel, serial, rtol=1e-12)
    expected = fold_scores(LogisticRegression(), X, y, groups, GroupKFold(3),
                           mean_reciprocal_rank_score, k=3)
    np.testing.assert_allclose(serial, expected, rtol=1e-12)


def test_regressor_ranks_documents_per_query(routing):
    rng = np.random.default_rng(0)
    n_queries, n_docs = 40, 15
    groups = np.repeat(np.arange(n_queries), n_docs)
    X = rng.normal(size=(len(groups), 5))
    relevance = np.clip(np.round(X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.7, len(groups))),
                        0, 3).astype(int)
    model = HistGradientBoostingRegressor(max_iter=20, random_state=0)
    res = cross_validate(model, X, relevance, cv=GroupKFold(4),
                         scoring={"ndcg@10": get_scorer("ndcg@10"), "map": get_scorer("map")},
                         params={"groups": groups})
    for name, metric, kw in [("ndcg@10", ndcg_score, {"k": 10}),
                             ("map", mean_average_precision_score, {})]:
        expected = fold_scores(model, X, relevance, groups, GroupKFold(4), metric, **kw)
        np.testing.assert_allclose(res[f"test_{name}"], expected, rtol=1e-12)


def test_multiclass_classifier_needs_no_groups():
    X, y = load_digits(return_X_y=True)
    X, y = X[:600] / 16, y[:600]
    clf = LogisticRegression(max_iter=300)
    cv = StratifiedKFold(3)
    for name, metric, kw in [("mrr", mean_reciprocal_rank_score, {}),
                             ("hit_rate@3", hit_rate_score, {"k": 3}),
                             ("map", mean_average_precision_score, {})]:
        got = cross_val_score(clf, X, y, scoring=get_scorer(name), cv=cv)
        expected = []
        for train, test in cv.split(X, y):
            proba = clone(clf).fit(X[train], y[train]).predict_proba(X[test])
            expected.append(metric(y[test], proba, **kw))
        np.testing.assert_allclose(got, expected, rtol=1e-12)
    # no ties in continuous probabilities: HR@k is top-k accuracy
    topk = make_scorer(top_k_accuracy_score, k=3, response_method="predict_proba")
    np.testing.assert_allclose(
        cross_val_score(clf, X, y, scoring=get_scorer("hit_rate@3"), cv=cv),
        cross_val_score(clf, X, y, scoring=topk, cv=cv), rtol=1e-12)


def test_without_routing_a_grouped_scorer_refuses_to_score_a_fold(click_log):
    X, y, groups = click_log
    with pytest.raises(ValueError, match=r"enable_metadata_routing=True"):
        cross_val_score(LogisticRegression(), X, y, scoring=get_scorer("gauc"),
                        cv=GroupKFold(3), groups=groups, error_score="raise")
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="groups"):
        get_scorer("ndcg@10")(model, X, y)


def test_routing_on_but_groups_not_passed_raises(routing, click_log):
    X, y, groups = click_log
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match="received no groups") as err:
        get_scorer("gauc")(model, X, y)
    # the advice follows the state: routing is on, fit() had no groups
    assert "fit() received no groups" in str(err.value)
    assert "Enable metadata routing" not in str(err.value)
    assert get_scorer("gauc")(model, X, y, groups=groups) == pytest.approx(
        gauc_score(y, model.predict_proba(X)[:, 1], groups=groups), rel=1e-12)


def test_routing_off_advice_says_to_enable_it(click_log):
    X, y, _ = click_log
    model = LogisticRegression().fit(X, y)
    with sklearn.config_context(enable_metadata_routing=False):
        with pytest.raises(ValueError, match="Enable metadata routing"):
            get_scorer("mrr")(model, X, y)


def test_single_ranking_scorer_without_groups(click_log):
    X, y, _ = click_log
    model = LogisticRegression().fit(X, y)
    scorer = make_ranking_scorer(gauc_score, requires_groups=False)
    assert scorer(model, X, y) == pytest.approx(
        gauc_score(y, model.predict_proba(X)[:, 1]), rel=1e-12)


def test_f_alpha_scorer_uses_predictions(click_log):
    X, y, _ = click_log
    model = LogisticRegression().fit(X, y)
    from sklearn.metrics import f1_score

    assert get_scorer("f_alpha")(model, X, y) == pytest.approx(
        f1_score(y, model.predict(X)), rel=1e-12)


def test_scorer_names():
    names = get_scorer_names()
    for name in ("gauc", "mrr", "map", "ndcg", "interpolated_ap", "f_alpha",
                 "mrr@10", "map@5", "ndcg@10", "hit_rate@10", "precision@10",
                 "recall@20"):
        assert name in names
    for name in names:
        get_scorer(name)
    assert get_scorer("ndcg@7")._kwargs == {"k": 7}
    for bad in ("auc", "gauc@5", "hit_rate", "ndcg@0", "ndcg@", "map@-1", "Ndcg"):
        with pytest.raises(ValueError, match="Valid names are gauc, mrr, map"):
            get_scorer(bad)
    # our names only (documented): scikit-learn's are accepted but not listed
    assert "roc_auc" not in names and "accuracy" not in names
    with pytest.raises(TypeError, match="name"):
        get_scorer(5)


@pytest.mark.parametrize("typo, suggestion", [
    # ("NDCG@10" and "MAP" are ir_measures' names: tests/metrics/test_names.py)
    ("Ndcg@10", "ndcg@10"), ("ndgc@10", "ndcg@10"), ("hitrate@5", "hit_rate@5"),
    ("precison@7", "precision@7"), ("gaux", "gauc"), ("Map", "map"),
    ("Roc_Auc", "roc_auc"),
])
def test_unknown_name_suggests_the_closest(typo, suggestion):
    with pytest.raises(ValueError, match=f"Did you mean '{suggestion}'"):
        get_scorer(typo)


def test_unknown_name_without_a_close_match_suggests_nothing():
    with pytest.raises(ValueError) as info:
        get_scorer("xyzzy")
    assert "Did you mean" not in str(info.value)
    assert "sklearn.metrics.get_scorer_names()" in str(info.value)


def test_sklearn_names_fall_back_to_sklearn_scorers(routing, click_log):
    from sklearn.metrics import get_scorer as sklearn_get_scorer
    from sklearn.metrics import roc_auc_score

    X, y, groups = click_log
    model = LogisticRegression().fit(X, y)
    assert get_scorer("roc_auc")(model, X, y) == sklearn_get_scorer("roc_auc")(model, X, y)
    assert get_scorer("roc_auc")(model, X, y) == pytest.approx(
        roc_auc_score(y, model.predict_proba(X)[:, 1]), rel=1e-12)
    # one import for a mixed scoring dict: GAUC per user beside the pooled AUC
    search = GridSearchCV(model, {"C": [0.1, 1.0]}, cv=GroupKFold(3), refit="gauc",
                          scoring={"gauc": get_scorer("gauc"),
                                   "auc": get_scorer("roc_auc")})
    search.fit(X, y, groups=groups)
    cv = GroupKFold(3)
    for i, c in enumerate([0.1, 1.0]):
        est = LogisticRegression(C=c)
        gauc = fold_scores(est, X, y, groups, cv, gauc_score)
        auc = [roc_auc_score(y[te], clone(est).fit(X[tr], y[tr]).predict_proba(X[te])[:, 1])
               for tr, te in cv.split(X, y, groups)]
        assert search.cv_results_["mean_test_gauc"][i] == pytest.approx(gauc.mean(), rel=1e-12)
        assert search.cv_results_["mean_test_auc"][i] == pytest.approx(np.mean(auc), rel=1e-12)
        assert gauc.mean() != pytest.approx(np.mean(auc), rel=1e-3)


@pytest.mark.parametrize("bad", [42, None, "gauc", [gauc_score]])
def test_make_ranking_scorer_rejects_a_non_callable(bad):
    with pytest.raises(TypeError, match="score_func must be a callable"):
        make_ranking_scorer(bad)


def test_without_routing_grid_search_records_nan_unless_error_score_raise(click_log):
    # what model_selection.rst and README.rst say happens without routing
    X, y, groups = click_log
    search = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]},
                          scoring=get_scorer("gauc"), cv=GroupKFold(3))
    with pytest.warns(UserWarning, match="enable_metadata_routing=True"):
        search.fit(X, y, groups=groups)
    assert np.isnan(search.cv_results_["mean_test_score"]).all()
    search.set_params(error_score="raise")
    with pytest.raises(ValueError, match="enable_metadata_routing=True"):
        search.fit(X, y, groups=groups)


def test_xgb_ranker_recipe_with_qid_routing(routing):
    # the LGBMRanker/XGBRanker recipe of model_selection.rst: XGBRanker takes
    # a query id per row (qid), which GridSearchCV slices per fold
    xgboost = pytest.importorskip("xgboost")
    rng = np.random.default_rng(0)
    n_queries, n_docs = 30, 10
    qid = np.repeat(np.arange(n_queries), n_docs)  # sorted, as XGBoost requires
    X = rng.normal(size=(len(qid), 4))
    relevance = np.clip(np.round(X[:, 0] + rng.normal(0, 0.5, len(qid))), 0, 3).astype(int)
    ranker = xgboost.XGBRanker(n_estimators=10, max_depth=3, n_jobs=1)
    ranker.set_fit_request(qid=True)
    search = GridSearchCV(ranker, {"learning_rate": [0.1, 0.3]}, cv=GroupKFold(3),
                          scoring=get_scorer("ndcg@5"))
    search.fit(X, relevance, groups=qid, qid=qid)
    cv = GroupKFold(3)
    for i, lr in enumerate([0.1, 0.3]):
        expected = []
        for tr, te in cv.split(X, relevance, qid):
            model = xgboost.XGBRanker(n_estimators=10, max_depth=3, n_jobs=1,
                                      learning_rate=lr)
            model.fit(X[tr], relevance[tr], qid=qid[tr])
            expected.append(ndcg_score(relevance[te], model.predict(X[te]),
                                       groups=qid[te], k=5))
        assert search.cv_results_["mean_test_score"][i] == pytest.approx(
            np.mean(expected), rel=1e-6)
