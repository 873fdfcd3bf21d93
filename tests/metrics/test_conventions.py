"""convention= presets against the other libraries' own evaluation.

Each installed peer evaluates the same predictions itself (LightGBM's and
XGBoost's eval metrics on a booster that predicts its init score, pytrec_eval,
ranx); the data has ties, graded labels, queries without relevant items and
query weights.  Peers that are not installed are skipped; the hand cases at
the end follow the peers' documented rules.
"""

import math

import numpy as np
import pytest

from sklearn_rankeval import (
    bpref_score,
    dcg_score,
    gauc_score,
    get_scorer,
    interpolated_average_precision_score,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    precision_at_k_score,
    r_precision_score,
    ranking_report,
    recall_at_k_score,
    success_at_k_score,
)


def _data(seed=0, n_groups=40, max_size=25, empty=(3,)):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size, size=n_groups)
    groups = np.repeat(np.arange(n_groups), sizes)
    n = len(groups)
    y = rng.integers(0, 4, size=n) * (rng.random(n) < 0.5)
    for g in empty:
        y[groups == g] = 0
    score = rng.integers(0, 5, size=n).astype(float)  # many ties
    query_weight = rng.integers(1, 4, size=n_groups).astype(float)
    return sizes, groups, y, score, query_weight


# ---------------------------------------------------------------------------
# LightGBM: eval_at on a booster whose predictions are the init scores
# ---------------------------------------------------------------------------
def _lightgbm_eval(metric, ks, y, score, sizes, weight=None):
    lgb = pytest.importorskip("lightgbm")
    X = np.random.default_rng(0).random((len(y), 2))
    train = lgb.Dataset(X, y, group=sizes, init_score=score, weight=weight,
                        free_raw_data=False)
    valid = lgb.Dataset(X, y, group=sizes, init_score=score, weight=weight,
                        reference=train)
    result = {}
    lgb.train({"objective": "lambdarank", "metric": metric, "eval_at": ks,
               "learning_rate": 1e-300, "verbosity": -1, "num_leaves": 2,
               "min_data_in_leaf": 1, "boost_from_average": False},
              train, num_boost_round=1, valid_sets=[valid], valid_names=["v"],
              callbacks=[lgb.record_evaluation(result)])
    return {name: values[-1] for name, values in result["v"].items()}


@pytest.mark.parametrize("weighted", [False, True])
def test_lightgbm_map_and_ndcg(weighted):
    sizes, groups, y, score, qw = _data()
    weight = qw[groups] if weighted else None
    ks = [1, 3, 5, 10]
    got = _lightgbm_eval("map", ks, y, score, sizes, weight)
    for k in ks:
        ours = mean_average_precision_score(y, score, groups=groups, k=k,
                                            sample_weight=weight,
                                            convention="lightgbm")
        assert ours == pytest.approx(got[f"map@{k}"], rel=1e-12, abs=1e-12)
    got = _lightgbm_eval("ndcg", ks, y, score, sizes, weight)
    for k in ks:
        if weighted:  # LightGBM adds 1 for query 3 without its weight
            with pytest.raises(ValueError, match="without its weight"):
                ndcg_score(y, score, groups=groups, k=k, sample_weight=weight,
                           convention="lightgbm")
            continue
        ours = ndcg_score(y, score, groups=groups, k=k, convention="lightgbm")
        assert ours == pytest.approx(got[f"ndcg@{k}"], rel=1e-12)
    # this library's own rules give other numbers on the same data
    assert ndcg_score(y, score, groups=groups, k=3) != pytest.approx(
        _lightgbm_eval("ndcg", [3], y, score, sizes)["ndcg@3"])


def test_lightgbm_map_weights_rows_by_their_query_mean_in_every_layout():
    """``query_weight="mean"`` (LightGBM's query weight: the mean of its rows'
    weights), read off the door's layout: row weights varying within a
    query (long layout), one query without ``groups``, and the 2-D layout
    whose weights are already one per query."""
    sizes, groups, y, score, qw = _data(seed=4, empty=())
    rng = np.random.default_rng(5)
    weight = rng.uniform(0.5, 3.0, size=len(y))  # not constant within a query
    got = _lightgbm_eval("map", [3, 5], y, score, sizes, weight)
    for k in (3, 5):
        ours = mean_average_precision_score(y, score, groups=groups, k=k,
                                            sample_weight=weight,
                                            convention="lightgbm")
        # (LightGBM averages the float32 weights in float32)
        assert ours == pytest.approx(got[f"map@{k}"], rel=1e-6)
        # the rows' weights do matter: unweighted is another number
        assert mean_average_precision_score(
            y, score, groups=groups, k=k, convention="lightgbm") != (
            pytest.approx(got[f"map@{k}"], rel=1e-3))
    # no groups: one query, weighted by the mean of all the rows' weights
    one = slice(0, sizes[0] + sizes[1])
    got = _lightgbm_eval("map", [3], y[one], score[one], [sizes[0] + sizes[1]],
                         weight[one])
    ours = mean_average_precision_score(y[one], score[one], k=3,
                                        sample_weight=weight[one],
                                        convention="lightgbm")
    assert ours == pytest.approx(got["map@3"], rel=1e-6)
    # 2-D: one weight per query (row), kept as it is
    n_q, width = 30, 8
    Y = rng.integers(0, 3, size=(n_q, width)) * (rng.random((n_q, width)) < 0.5)
    Y[:, 0] = 1  # every query has a relevant item (LightGBM scores none 1)
    S = rng.integers(0, 4, size=(n_q, width)).astype(float)
    w_q = rng.uniform(0.5, 3.0, size=n_q)
    got = _lightgbm_eval("map", [3], Y.ravel(), S.ravel(), [width] * n_q,
                         np.repeat(w_q, width))
    ours = mean_average_precision_score(Y, S, k=3, sample_weight=w_q,
                                        convention="lightgbm")
    assert ours == pytest.approx(got["map@3"], rel=1e-6)
    assert mean_average_precision_score(Y, S, k=3, convention="lightgbm") != (
        pytest.approx(got["map@3"], rel=1e-3))


def test_lightgbm_weighted_ndcg_without_empty_queries():
    sizes, groups, y, score, qw = _data(empty=())
    keep = np.isin(groups, np.flatnonzero(
        np.bincount(groups, weights=y > 0) > 0))
    sizes = np.bincount(groups[keep])
    sizes = sizes[sizes > 0]
    groups, y, score = groups[keep], y[keep], score[keep]
    weight = qw[groups]
    got = _lightgbm_eval("ndcg", [2, 5], y, score, sizes, weight)
    for k in (2, 5):
        ours = ndcg_score(y, score, groups=groups, k=k, sample_weight=weight,
                          convention="lightgbm")
        assert ours == pytest.approx(got[f"ndcg@{k}"], rel=1e-12)


def test_lightgbm_label_gain_as_gain_array():
    sizes, groups, y, score, _ = _data(seed=1)
    lgb = pytest.importorskip("lightgbm")
    label_gain = [0.0, 1.0, 5.0, 6.0]
    X = np.zeros((len(y), 1))
    train = lgb.Dataset(X, y, group=sizes, init_score=score, free_raw_data=False)
    result = {}
    lgb.train({"objective": "lambdarank", "metric": "ndcg", "eval_at": [4],
               "label_gain": label_gain, "learning_rate": 1e-300,
               "verbosity": -1, "num_leaves": 2, "min_data_in_leaf": 1},
              train, num_boost_round=1, valid_sets=[train], valid_names=["v"],
              callbacks=[lgb.record_evaluation(result)])
    ours = ndcg_score(y, score, groups=groups, k=4, gain=label_gain,
                      convention="lightgbm")
    assert ours == pytest.approx(result["v"]["ndcg@4"][-1], rel=1e-12)


# ---------------------------------------------------------------------------
# XGBoost: eval_metric with base_margin = the scores and eta 0
# ---------------------------------------------------------------------------
def _xgboost_eval(metrics, y, score, groups, weight=None):
    xgb = pytest.importorskip("xgboost")
    X = np.random.default_rng(0).random((len(y), 2))
    data = xgb.DMatrix(X, label=y, qid=groups, base_margin=score)
    if weight is not None:
        data.set_weight(weight)
    booster = xgb.train({"objective": "rank:ndcg", "eta": 0.0,
                         "eval_metric": metrics, "base_score": 0.0},
                        data, num_boost_round=1)
    out = booster.eval(data)
    return {name.split("-", 1)[1]: float(value) for name, value in
            (item.split(":") for item in out.split()[1:])}


@pytest.mark.parametrize("weighted", [False, True])
def test_xgboost_ndcg_map_pre(weighted):
    sizes, groups, y, score, qw = _data()
    row_weight = qw[groups] if weighted else None
    binary = (y > 0).astype(int)
    got = _xgboost_eval(["ndcg@1", "ndcg@3", "ndcg@10", "ndcg@3-"], y, score,
                        groups, qw if weighted else None)
    got.update(_xgboost_eval(["map@3", "map@10", "map", "map@3-", "pre@3",
                              "pre@10"], binary, score, groups,
                             qw if weighted else None))
    for k in (1, 3, 10):
        if weighted:
            with pytest.raises(ValueError, match="without its weight"):
                ndcg_score(y, score, groups=groups, k=k, sample_weight=row_weight,
                           convention="xgboost")
        else:
            assert ndcg_score(y, score, groups=groups, k=k, convention="xgboost") \
                == pytest.approx(got[f"ndcg@{k}"], rel=1e-6)
    # the "-" suffix: a query without relevant items counts 0
    assert ndcg_score(y, score, groups=groups, k=3, sample_weight=row_weight,
                      convention="xgboost", undefined=0) \
        == pytest.approx(got["ndcg@3-"], rel=1e-6)
    for k, name in ((3, "map@3"), (10, "map@10"), (None, "map")):
        assert mean_average_precision_score(
            binary, score, groups=groups, k=k, sample_weight=row_weight,
            convention="xgboost") == pytest.approx(got[name], rel=1e-6)
    assert mean_average_precision_score(
        binary, score, groups=groups, k=3, sample_weight=row_weight,
        convention="xgboost", undefined=0) == pytest.approx(got["map@3-"], rel=1e-6)
    for k in (3, 10):
        assert precision_at_k_score(binary, score, groups=groups, k=k,
                                    sample_weight=row_weight,
                                    convention="xgboost") \
            == pytest.approx(got[f"pre@{k}"], rel=1e-6)
    # pre@k divides by min(k, n): different from dividing by k
    assert precision_at_k_score(binary, score, groups=groups, k=10,
                                sample_weight=row_weight, convention="xgboost",
                                k_denominator="k", undefined=0) \
        != pytest.approx(got["pre@10"], rel=1e-6)


def test_xgboost_linear_gain():
    xgb = pytest.importorskip("xgboost")
    sizes, groups, y, score, _ = _data(seed=6)
    X = np.zeros((len(y), 1))
    data = xgb.DMatrix(X, label=y, qid=groups, base_margin=score)
    booster = xgb.train({"objective": "rank:ndcg", "eta": 0.0, "base_score": 0.0,
                         "eval_metric": ["ndcg@5"], "ndcg_exp_gain": False},
                        data, num_boost_round=1)
    got = float(booster.eval(data).split(":")[-1])
    assert ndcg_score(y, score, groups=groups, k=5, convention="xgboost",
                      gain="linear") == pytest.approx(got, rel=1e-6)


# ---------------------------------------------------------------------------
# trec_eval through pytrec_eval: per query
# ---------------------------------------------------------------------------
def test_trec_eval_per_query():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    sizes, groups, y, score, _ = _data(seed=2, n_groups=30)
    rng = np.random.default_rng(5)
    docno = np.array([f"d{rng.integers(0, 10**6):07d}" for _ in y])
    while len(set(zip(groups, docno))) < len(y):  # unique ids within a query
        docno = np.array([f"d{rng.integers(0, 10**6):07d}" for _ in y])
    qid = np.array([f"q{g:03d}" for g in groups])
    qrel, run = {}, {}
    for q, d, rel, s in zip(qid, docno, y, score):
        qrel.setdefault(q, {})[d] = int(rel)
        run.setdefault(q, {})[d] = float(s)
    measures = {"map", "map_cut.5", "P.5", "recall.5", "ndcg", "ndcg_cut.5",
                "recip_rank", "Rprec", "success.5", "bpref", "11pt_avg"}
    got = pytrec_eval.RelevanceEvaluator(qrel, measures).evaluate(run)
    queries = sorted(got)
    peer = {m: np.array([got[q][m] for q in queries]) for m in
            ("map", "map_cut_5", "P_5", "recall_5", "ndcg", "ndcg_cut_5",
             "recip_rank", "Rprec", "success_5", "bpref", "11pt_avg")}
    common = {"groups": qid, "docno": docno, "convention": "trec_eval",
              "average": None}
    ours = {
        "map": mean_average_precision_score(y, score, **common),
        "map_cut_5": mean_average_precision_score(y, score, k=5, **common),
        "P_5": precision_at_k_score(y, score, k=5, **common),
        "recall_5": recall_at_k_score(y, score, k=5, **common),
        "ndcg": ndcg_score(y, score, **common),
        "ndcg_cut_5": ndcg_score(y, score, k=5, **common),
        "recip_rank": mean_reciprocal_rank_score(y, score, **common),
        "Rprec": r_precision_score(y, score, **common),
        "success_5": success_at_k_score(y, score, k=5, **common),
        "bpref": bpref_score(y, score, **common),
        "11pt_avg": interpolated_average_precision_score(y, score, **common),
    }
    for name, values in ours.items():
        np.testing.assert_allclose(values, peer[name], rtol=1e-12, atol=1e-12,
                                   err_msg=name)
    # without docno the tie order is unknown: a clear error
    with pytest.raises(ValueError, match="docno"):
        mean_average_precision_score(y, score, groups=qid, convention="trec_eval")
    # the expected value over the tie orders is another number
    assert not np.allclose(mean_reciprocal_rank_score(
        y, score, groups=qid, average=None, undefined=0, ties="expected"),
        peer["recip_rank"])


# ---------------------------------------------------------------------------
# ranx: up to 15 documents per query, run order for ties
# ---------------------------------------------------------------------------
def test_ranx():
    ranx = pytest.importorskip("ranx")
    sizes, groups, y, score, _ = _data(seed=3, n_groups=25, max_size=15, empty=())
    has_rel = np.bincount(groups, weights=y > 0) > 0
    keep = has_rel[groups]  # ranx's qrels only know queries with relevant items
    groups, y, score = groups[keep], y[keep], score[keep]
    qid = np.array([f"q{g:03d}" for g in groups])
    docid = np.array([f"d{i}" for i in range(len(y))])
    qrels_dict, run_dict = {}, {}
    for q, d, rel, s in zip(qid.tolist(), docid.tolist(), y, score):
        if rel > 0:
            qrels_dict.setdefault(q, {})[d] = int(rel)
        run_dict.setdefault(q, {})[d] = float(s)
    qrels = ranx.Qrels.from_dict(qrels_dict)
    run = ranx.Run.from_dict(run_dict)
    metrics = ["map@5", "map", "mrr", "precision@5", "recall@5", "ndcg@5",
               "ndcg", "r-precision", "hit_rate@5"]
    got = ranx.evaluate(qrels, run, metrics)
    common = {"groups": qid, "convention": "ranx"}
    ours = {
        "map@5": mean_average_precision_score(y, score, k=5, **common),
        "map": mean_average_precision_score(y, score, **common),
        "mrr": mean_reciprocal_rank_score(y, score, **common),
        "precision@5": precision_at_k_score(y, score, k=5, **common),
        "recall@5": recall_at_k_score(y, score, k=5, **common),
        "ndcg@5": ndcg_score(y, score, k=5, **common),
        "ndcg": ndcg_score(y, score, **common),
        "r-precision": r_precision_score(y, score, **common),
        "hit_rate@5": success_at_k_score(y, score, k=5, **common),
    }
    for name, value in ours.items():
        assert value == pytest.approx(got[name], rel=1e-9, abs=1e-12), name


def test_ranx_refuses_ties_beyond_15_items():
    y = np.zeros(20)
    y[0] = 1
    with pytest.raises(ValueError, match="20 tied items at ranks 1-20 whose "
                                         "relevance .* differ.*15 items"):
        mean_reciprocal_rank_score(y, np.ones(20), convention="ranx")
    # 15 tied items: run order, the relevant one first
    assert mean_reciprocal_rank_score(y[:15], np.ones(15), convention="ranx") == 1.0
    # 2-D input: a tie of non-relevant items under the relevant one cannot
    # change ranx's number (1 for both queries); a tie with it in can
    Y = np.zeros((2, 20), dtype=int)
    Y[:, 0] = 1
    S = np.tile(np.r_[2.0, np.ones(19)], (2, 1))
    assert mean_reciprocal_rank_score(Y, S, convention="ranx") == 1.0
    S[1, 0] = 1.0
    with pytest.raises(ValueError, match="query 1 has 20 retrieved items and "
                                         "20 tied"):
        mean_reciprocal_rank_score(Y, S, convention="ranx")


def _ranx_plain(metric, ranking, k):
    """ranx's per-query formula on one ranking (grades, best first)."""
    relevant = [g for g in ranking if g > 0]
    top = ranking[:k] if k is not None else ranking
    hits = sum(g > 0 for g in top)
    if metric == "precision":
        return hits / k
    if metric == "recall":
        return hits / len(relevant)
    if metric == "success":
        return float(hits > 0)
    if metric == "r_precision":
        return sum(g > 0 for g in ranking[:len(relevant)]) / len(relevant)
    if metric == "mrr":
        return next((1 / i for i, g in enumerate(top, 1) if g > 0), 0.0)
    if metric == "map":  # ranx: over the relevant items of the query
        found, total = 0, 0.0
        for i, g in enumerate(top, 1):
            if g > 0:
                found += 1
                total += found / i
        return total / len(relevant)
    # ndcg, linear gain (ranx's default "jarvelin")
    ideal = sorted(relevant, reverse=True)[:len(top)]
    dcg = sum(g / math.log2(i + 1) for i, g in enumerate(top, 1))
    return dcg / sum(g / math.log2(i + 1) for i, g in enumerate(ideal, 1))


def _ranx_by_hand(metric, y, score, groups, k, rng):
    """ranx's mean over queries, ties in one random order (any order ranx
    may leave them in)."""
    values = []
    for q in np.unique(groups):
        rows = np.flatnonzero(groups == q)
        order = rows[np.lexsort((rng.random(len(rows)), -score[rows]))]
        values.append(_ranx_plain(metric, [int(v) for v in y[order]], k))
    return float(np.mean(values))


_RANX_FUNCS = {"map": mean_average_precision_score,
               "mrr": mean_reciprocal_rank_score, "precision": precision_at_k_score,
               "recall": recall_at_k_score, "ndcg": ndcg_score,
               "success": success_at_k_score, "r_precision": r_precision_score}


def _big_queries(seed, tie_rule):
    """Queries of 16..30 items, each with a relevant item, ties beyond 15."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(16, 31, size=12)
    groups = np.repeat(np.arange(len(sizes)), sizes)
    n = len(groups)
    y = rng.integers(0, 4, size=n) * (rng.random(n) < 0.5)
    y[np.r_[0, np.cumsum(sizes)[:-1]]] = 2
    if tie_rule == "same_grade":  # ties only among items of one grade
        score = 10.0 * y + rng.integers(0, 3, size=n)
    else:  # five distinct scores on top, then ties of mixed grades
        pos = np.arange(n) - np.repeat(np.r_[0, np.cumsum(sizes)[:-1]], sizes)
        score = np.where(pos < 5, 100.0 - pos, rng.integers(0, 3, size=n))
    return y, score, groups


@pytest.mark.parametrize("metric", list(_RANX_FUNCS))
def test_ranx_ties_of_one_grade_beyond_15_items(metric):
    y, score, groups = _big_queries(0, "same_grade")
    k = 5 if metric in ("map", "precision", "recall", "ndcg", "success") else None
    kw = {} if k is None else {"k": k}
    ours = _RANX_FUNCS[metric](y, score, groups=groups, convention="ranx", **kw)
    rng = np.random.default_rng(1)
    for _ in range(2):  # two tie orders: one number
        assert ours == pytest.approx(
            _ranx_by_hand(metric, y, score, groups, k, rng), rel=1e-12)
    if metric in ("map", "ndcg"):  # no cutoff: the same, any tie order
        ours = _RANX_FUNCS[metric](y, score, groups=groups, convention="ranx")
        assert ours == pytest.approx(
            _ranx_by_hand(metric, y, score, groups, None, rng), rel=1e-12)


@pytest.mark.parametrize("metric", ["map", "precision", "recall", "ndcg", "success"])
def test_ranx_ties_below_the_cutoff_beyond_15_items(metric):
    y, score, groups = _big_queries(2, "below_cutoff")
    ours = _RANX_FUNCS[metric](y, score, groups=groups, k=5, convention="ranx")
    rng = np.random.default_rng(3)
    for _ in range(2):
        assert ours == pytest.approx(
            _ranx_by_hand(metric, y, score, groups, 5, rng), rel=1e-12)
    if metric == "success":
        # every query's first item (rank 1, alone) is relevant: success@6 is
        # 1 in every order of the ties below it, so ranx's number is given
        ours = success_at_k_score(y, score, groups=groups, k=6, convention="ranx")
        assert ours == _ranx_by_hand(metric, y, score, groups, 6, rng) == 1.0
        return
    # a cutoff reaching into the ties: ranx's number depends on their order
    why = ("the tie crosses the cutoff k=6" if metric in ("precision", "recall")
           else "the tie starts within k=6")
    with pytest.raises(ValueError, match=r"'ranx' cannot give '[a-z]+@6'.*query \d+ "
                                         r"has \d+ retrieved items and \d+ tied "
                                         r"items at ranks 6-\d+ .* differ \("
                                         + why):
        _RANX_FUNCS[metric](y, score, groups=groups, k=6, convention="ranx")


def test_ranx_graded_ties_matter_to_ndcg_only():
    # a tie of grades 1 and 2 below 16 items: the same relevance for MAP
    y = np.r_[np.ones(17, dtype=int), 2]
    score = np.r_[np.arange(20.0, 4.0, -1), 1.0, 1.0]
    expected = _ranx_plain("map", [int(v) for v in y], None)
    assert mean_average_precision_score(y, score, convention="ranx") \
        == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match="ranks 17-18 whose grades differ"):
        ndcg_score(y, score, convention="ranx")
    # report: one metric that cannot be given names itself
    with pytest.raises(ValueError, match="'ndcg'"):
        ranking_report(y, score, metrics=["map", "ndcg"], convention="ranx")
    report = ranking_report(y, score, metrics=["map", "ndcg@16"],
                            convention="ranx", output="dict")
    assert report["map"] == pytest.approx(expected, rel=1e-12)
    assert report["ndcg@16"] == pytest.approx(
        _ranx_plain("ndcg", [int(v) for v in y], 16), rel=1e-12)


# ---------------------------------------------------------------------------
# scikit-learn
# ---------------------------------------------------------------------------
def test_sklearn_per_query():
    from sklearn.metrics import average_precision_score
    from sklearn.metrics import ndcg_score as sk_ndcg

    sizes, groups, y, score, _ = _data(seed=4, n_groups=15, empty=(2,))
    keep = np.bincount(groups)[groups] > 1
    groups, y, score = groups[keep], y[keep], score[keep]
    ours_ndcg = ndcg_score(y, score, groups=groups, k=5, convention="sklearn",
                           average=None)
    ours_ap = mean_average_precision_score(y > 0, score, groups=groups,
                                           convention="sklearn", average=None)
    for i, g in enumerate(np.unique(groups)):
        rows = groups == g
        assert ours_ndcg[i] == pytest.approx(
            sk_ndcg([y[rows]], [score[rows]], k=5), rel=1e-12)
        if (y[rows] > 0).any():
            expected = average_precision_score(y[rows] > 0, score[rows])
        else:
            expected = 0.0  # scikit-learn's value, with a warning
        assert ours_ap[i] == pytest.approx(expected, rel=1e-12)
    with pytest.raises(ValueError, match="no cutoff"):
        mean_average_precision_score(y, score, groups=groups, k=3,
                                     convention="sklearn")


# ---------------------------------------------------------------------------
# hand cases from the documented rules (torchmetrics, RecBole, Spark)
# ---------------------------------------------------------------------------
def test_torchmetrics_map_divides_by_hits_and_ties_in_input_order():
    # relevant at ranks 1, 4 and 8: RetrievalMAP(top_k=5) = (1 + 2/4) / 2
    y = np.array([1, 0, 0, 1, 0, 0, 0, 1])
    s = np.arange(8, 0, -1)
    assert mean_average_precision_score(y, s, k=5, convention="torchmetrics") \
        == 0.75
    # no hit in the top k: 0
    assert mean_average_precision_score([0, 1], [2, 1], k=1,
                                        convention="torchmetrics") == 0.0
    # three tied items, the relevant one first in the input: rank 1
    assert mean_reciprocal_rank_score([1, 0, 0], [0.5] * 3,
                                      convention="torchmetrics") == 1.0
    # NDCG averages tied gains as scikit-learn: (1 + 1/log2(3)) / 2 / 1
    assert ndcg_score([1, 0], [0.5, 0.5], convention="torchmetrics") \
        == pytest.approx((1 + 1 / np.log2(3)) / 2)
    # RetrievalAUROC: users once each, a one-class user counts 0
    y = [1, 0, 1, 1]
    s = [0.9, 0.1, 0.5, 0.4]
    g = [0, 0, 1, 1]
    assert gauc_score(y, s, groups=g, convention="torchmetrics") == 0.5


def test_recbole_gauc_weighted_by_positives_and_binary_ndcg():
    y = [1, 0, 0, 1, 1, 0, 1, 0]
    s = [0.9, 0.8, 0.1, 0.2, 0.7, 0.6, 0.5, 0.4]
    g = [0, 0, 0, 0, 1, 1, 1, 1]
    auc = gauc_score(y, s, groups=g, average=None)  # 0.5, 0.75
    assert gauc_score(y, s, groups=g, convention="recbole") == pytest.approx(
        (2 * auc[0] + 2 * auc[1]) / 4)
    y3 = [1, 0, 0, 1, 1, 0, 0, 0]
    auc = gauc_score(y3, s, groups=g, average=None)  # 2 and 1 positives
    assert gauc_score(y3, s, groups=g, convention="recbole") == pytest.approx(
        (2 * auc[0] + 1 * auc[1]) / 3)
    # RecBole's NDCG knows only relevant or not: grade 3 counts as 1
    assert ndcg_score([3, 1], [0.1, 0.9], convention="recbole") == 1.0
    assert ndcg_score([3, 1], [0.1, 0.9]) < 1.0


def test_spark_binary_ndcg_and_empty_ground_truth():
    # Spark's RankingMetricsSuite: ndcgAt(3) of its three queries is 1/3
    preds = [[1, 6, 2, 7, 8, 3, 9, 10, 4, 5], [4, 1, 5, 6, 2, 7, 3, 8, 9, 10],
             [1, 2, 3, 4, 5]]
    labels = [{1, 2, 3, 4, 5}, {1, 2, 3}, set()]
    y, s, g = [], [], []
    for q, (pred, lab) in enumerate(zip(preds, labels)):
        ranked = set(pred)
        for rank, item in enumerate(pred):
            y.append(int(item in lab))
            s.append(-rank)
            g.append(q)
        for _item in lab - ranked:  # relevant, not retrieved
            y.append(1)
            s.append(-np.inf)
            g.append(q)
    assert ndcg_score(y, s, groups=g, k=3, convention="spark") \
        == pytest.approx(1 / 3, abs=1e-5)
    # precisionAt(4) = 0.75 / 3 and meanAveragePrecision = 0.355026
    assert precision_at_k_score(y, s, groups=g, k=4, convention="spark") \
        == pytest.approx(0.75 / 3)
    assert mean_average_precision_score(y, s, groups=g, convention="spark") \
        == pytest.approx(0.355026, abs=1e-6)


# ---------------------------------------------------------------------------
# switches, presets, scorers, report
# ---------------------------------------------------------------------------
def test_explicit_switch_overrides_the_preset():
    y = [2, 0, 1]
    s = [0.1, 0.9, 0.5]
    exp = ndcg_score(y, s, convention="lightgbm")
    lin = ndcg_score(y, s, convention="lightgbm", gain="linear")
    assert lin == ndcg_score(y, s)
    assert exp == ndcg_score(y, s, gain="exponential")
    assert exp != lin
    # trec_eval's map_cut divides by R; an explicit "min" wins
    y = [1, 0, 1, 1]
    s = [4, 3, 2, 1]
    docno = ["a", "b", "c", "d"]
    assert mean_average_precision_score(y, s, k=2, convention="trec_eval",
                                        docno=docno) == pytest.approx(1 / 3)
    assert mean_average_precision_score(y, s, k=2, convention="trec_eval",
                                        docno=docno, k_denominator="min") == 0.5
    # ties: the preset's input order, or the expected value when asked
    assert mean_reciprocal_rank_score([1, 0], [1, 1], convention="ranx") == 1.0
    assert mean_reciprocal_rank_score([1, 0], [1, 1], convention="ranx",
                                      ties="expected") == 0.75


def test_ties_input_and_docno_on_2d_input():
    y = [[0, 1, 0], [1, 0, 0]]
    s = [[1, 1, 1], [0, 0, 0]]
    # input order: rank 2 and rank 1
    assert mean_reciprocal_rank_score(y, s, ties="input") == 0.75
    # docno descending: c, b, a -> the relevant b at 2, a at 3
    docno = [["a", "b", "c"], ["a", "b", "c"]]
    assert mean_reciprocal_rank_score(y, s, ties="docno", docno=docno) \
        == pytest.approx((1 / 2 + 1 / 3) / 2)
    assert mean_reciprocal_rank_score(y, s) == pytest.approx((1 + 1 / 2 + 1 / 3) / 3)


def test_default_numbers_unchanged_by_the_switches_at_their_defaults():
    sizes, groups, y, score, qw = _data(seed=7)
    for func, kw in ((ndcg_score, {"gain": "linear"}),
                     (dcg_score, {"gain": "linear"}),
                     (mean_average_precision_score, {"k": 5, "k_denominator": "min"}),
                     (precision_at_k_score, {"k": 5, "k_denominator": "k"}),
                     (mean_reciprocal_rank_score, {"ties": "expected"})):
        assert func(y, score, groups=groups, **kw) == func(
            y, score, groups=groups, **{k: v for k, v in kw.items() if k == "k"})


def test_a_metric_the_convention_lacks_raises():
    with pytest.raises(ValueError, match="convention='lightgbm'.*'mrr'"):
        mean_reciprocal_rank_score([1, 0], [1, 0], convention="lightgbm")
    with pytest.raises(ValueError, match="success_at_k_score"):
        get_scorer("ranx:hit_rate@5")
    with pytest.raises(ValueError, match="convention must be one of"):
        ndcg_score([1, 0], [1, 0], convention="lgbm")


def test_scorer_names_and_keyword_agree():
    sizes, groups, y, score, _ = _data(seed=8)

    import sklearn
    from sklearn.base import BaseEstimator, RegressorMixin

    class Fixed(RegressorMixin, BaseEstimator):
        def predict(self, X):
            return score

    est = Fixed()

    with sklearn.config_context(enable_metadata_routing=True):
        by_name = get_scorer("lightgbm:ndcg@5")(est, None, y, groups=groups)
        by_kw = get_scorer("ndcg@5", convention="lightgbm")(est, None, y,
                                                            groups=groups)
    assert by_name == by_kw == ndcg_score(y, score, groups=groups, k=5,
                                          convention="lightgbm")
    assert by_name != ndcg_score(y, score, groups=groups, k=5)


def test_report_equals_the_functions_under_a_convention():
    sizes, groups, y, score, _ = _data(seed=9)
    report = ranking_report(y, score, groups=groups, convention="torchmetrics",
                            metrics=["map@5", "ndcg@5", "mrr", "gauc"],
                            output="dict")
    assert report["map@5"] == mean_average_precision_score(
        y, score, groups=groups, k=5, convention="torchmetrics")
    assert report["ndcg@5"] == ndcg_score(y, score, groups=groups, k=5,
                                          convention="torchmetrics")
    assert report["mrr"] == mean_reciprocal_rank_score(
        y, score, groups=groups, convention="torchmetrics")
    assert report["gauc"] == gauc_score(y, score, groups=groups,
                                        convention="torchmetrics")
    assert report["mrr"] != mean_reciprocal_rank_score(y, score, groups=groups)
    with pytest.raises(ValueError, match="'gauc'"):
        ranking_report(y, score, groups=groups, convention="lightgbm")
