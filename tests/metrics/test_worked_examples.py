"""The worked examples of the seed documents (``shared/seeds/*.txt``) as tests.

Every number is copied here from the seed text; the files are not read.  Where a
printed number disagrees with the seed's own formula, the formula wins (see
API.md) and a comment says so.  Every check goes through the public functions of
``sklearn_rankeval``.
"""

from fractions import Fraction
from math import log2

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    fbeta_score,
    precision_score,
    recall_score,
    roc_auc_score,
)

from sklearn_rankeval import (
    f_alpha_score,
    gauc_score,
    hit_rate_score,
    interpolated_average_precision_score,
    interpolated_precision_recall_curve,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    precision_at_k_score,
    recall_at_k_score,
)

NEG_INF = -np.inf
RTOL = 1e-12


# --------------------------------------------------------------------------
# helpers (test-local, written from the seed definitions)
# --------------------------------------------------------------------------
def _scores_for_ranking(n):
    """Distinct, strictly decreasing scores: item i (0-based) is ranked i+1."""
    return np.arange(n, 0, -1, dtype=float)


def _ranking(relevant_ranks, n_items, n_unretrieved_relevant=0):
    """One query: ``y_true``/``y_score`` with relevant items at the given 1-based
    ranks among ``n_items`` retrieved items, plus relevant items that were not
    retrieved (``y_score = -inf``)."""
    y_true = np.zeros(n_items, dtype=int)
    y_true[np.asarray(relevant_ranks) - 1] = 1
    y_score = _scores_for_ranking(n_items)
    if n_unretrieved_relevant:
        y_true = np.concatenate([y_true, np.ones(n_unretrieved_relevant, dtype=int)])
        y_score = np.concatenate([y_score, np.full(n_unretrieved_relevant, NEG_INF)])
    return y_true, y_score


def _seed_auc(label, pre):
    """Seed 001's hand-written pairwise AUC ("手撕AUC"), copied from the seed:
    +1 when the positive scores higher, +0.5 when tied, divided by M*N."""
    pos = [i for i in range(len(label)) if label[i] == 1]
    neg = [i for i in range(len(label)) if label[i] != 1]
    cnt = 0.0
    for i in pos:
        for j in neg:
            if pre[i] > pre[j]:
                cnt += 1
            if pre[i] == pre[j]:
                cnt += 0.5
    return cnt / (len(pos) * len(neg))


def _iprec_by_hand(relevant_flags, n_relevant, n_points=11):
    """Interpolated precision at the levels j/(n_points-1), from the definition:
    the highest precision at any rank whose recall is >= the level (recall
    compared exactly with fractions), 0 if the level is never reached."""
    hits = 0
    points = []  # (recall, precision) after each rank
    for i, rel in enumerate(relevant_flags, start=1):
        hits += int(rel)
        points.append((Fraction(hits, n_relevant), Fraction(hits, i)))
    out = []
    for j in range(n_points):
        level = Fraction(j, n_points - 1)
        reached = [p for r, p in points if r >= level]
        out.append(max(reached) if reached else Fraction(0))
    return out


def _sorted_curve(precision, recall):
    precision = np.asarray(precision, dtype=float)
    recall = np.asarray(recall, dtype=float)
    order = np.argsort(recall, kind="stable")
    return precision[order], recall[order]


# ==========================================================================
# seed 000 (blog post: Acc, P, R, F, ROC, NDCG, MAP, MRR)
# ==========================================================================
def test_seed000_ap_relevant_at_1_3_6_9_10():
    # "数据库中和查询信息相关的5条信息,分别出现在查询结果中的第1、3、6、9、10位"
    # AP = (1/1 + 2/3 + 3/6 + 4/9 + 5/10)/5 = 0.62
    y_true, y_score = _ranking([1, 3, 6, 9, 10], n_items=10)
    expected = (1 + 2 / 3 + 3 / 6 + 4 / 9 + 5 / 10) / 5
    got = mean_average_precision_score(y_true, y_score)
    assert_allclose(got, expected, rtol=RTOL)
    assert round(got, 2) == 0.62  # the number the seed prints
    # the rows may come in any order
    perm = np.random.default_rng(0).permutation(len(y_true))
    assert_allclose(
        mean_average_precision_score(y_true[perm], y_score[perm]), expected, rtol=RTOL
    )


def test_seed000_mrr_three_queries():
    # "query1 中标准答案被排在第3 位,query 2 中的排在第2 位,query 3 的排在第一位"
    # MRR = (1/3 + 1/2 + 1/1)/3 = 0.61  (exactly 11/18 = 0.6111)
    y_true = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0]])
    y_score = np.tile(_scores_for_ranking(3), (3, 1))
    got = mean_reciprocal_rank_score(y_true, y_score)
    assert_allclose(got, 11 / 18, rtol=RTOL)
    assert round(got, 2) == 0.61
    assert_allclose(
        mean_reciprocal_rank_score(y_true, y_score, average=None),
        [1 / 3, 1 / 2, 1.0],
        rtol=RTOL,
    )


def test_seed000_f_score_alpha_is_beta_of_fbeta():
    # Seed 000 writes F_alpha = (1 + a^2) P R / (a^2 P + R) "当 a 为 1 时就是 F1":
    # that is F-beta with beta = a.  In our alpha (seed 002's weighted harmonic
    # mean) this is alpha = 1 / (1 + beta^2).
    y_true = np.array([1, 1, 1, 0, 0, 1, 0, 1])
    y_pred = np.array([1, 0, 1, 1, 0, 0, 0, 1])
    P, R = 3 / 4, 3 / 5
    for b in [0.5, 1.0, 2.0]:
        expected = (1 + b**2) * P * R / (b**2 * P + R)
        got = f_alpha_score(y_true, y_pred, alpha=1 / (1 + b**2))
        assert_allclose(got, expected, rtol=RTOL)
        assert_allclose(got, fbeta_score(y_true, y_pred, beta=b), rtol=RTOL)
    # a = 1: F1 = 2PR/(P+R)
    assert_allclose(
        f_alpha_score(y_true, y_pred, alpha=0.5), 2 * P * R / (P + R), rtol=RTOL
    )


# ==========================================================================
# seed 001 (blog post: GAUC, HR, MRR, MAP, NDCG)
# ==========================================================================
def _hr_users(unretrieved):
    # Three users bought 10, 12, 8 items; 6, 5, 4 of them are in the top-10 list.
    y_true, y_score, groups = [], [], []
    for user, (n_rel, n_hit) in enumerate([(10, 6), (12, 5), (8, 4)]):
        top = [1] * n_hit + [0] * (10 - n_hit)  # 10 recommended items
        rng = np.random.default_rng(user)
        top = list(rng.permutation(top))
        rest = n_rel - n_hit  # relevant items below the top 10
        if unretrieved:
            t = top + [1] * rest
            s = list(_scores_for_ranking(10)) + [NEG_INF] * rest
        else:  # ranked 11th, 12th, ... after some misses
            t = top + [0, 0] + [1] * rest + [0]
            s = list(_scores_for_ranking(len(t)))
        y_true += t
        y_score += s
        groups += [f"user{user}"] * len(t)
    return np.array(y_true), np.array(y_score), np.array(groups)


@pytest.mark.parametrize("unretrieved", [False, True])
def test_seed001_hit_rate_at_10(unretrieved):
    # HR@10 = (6+5+4)/(10+12+8) = 0.5 (pooled over users)
    y_true, y_score, groups = _hr_users(unretrieved)
    got = hit_rate_score(y_true, y_score, groups=groups, k=10)
    assert_allclose(got, 15 / 30, rtol=RTOL)
    assert_allclose(
        hit_rate_score(y_true, y_score, groups=groups, k=10, average="micro"),
        0.5,
        rtol=RTOL,
    )
    # macro: each user counts once
    per_user = [6 / 10, 5 / 12, 4 / 8]
    assert_allclose(
        hit_rate_score(y_true, y_score, groups=groups, k=10, average="macro"),
        np.mean(per_user),
        rtol=RTOL,
    )
    assert_allclose(
        hit_rate_score(y_true, y_score, groups=groups, k=10, average=None),
        per_user,
        rtol=RTOL,
    )
    # SPEC: HR@k micro == R@k micro
    assert_allclose(
        recall_at_k_score(y_true, y_score, groups=groups, k=10, average="micro"),
        0.5,
        rtol=RTOL,
    )


def test_seed001_mrr_table_cat_torus_virus():
    # Query  Results                   Correct   Rank  RR
    # cat    catten, cati, cats        cats      3     1/3
    # torus  torii, tori, toruses      tori      2     1/2
    # virus  viruses, virii, viri      viruses   1     1
    # MRR = (1/3 + 1/2 + 1)/3 = 11/18 = 0.61
    rows = [
        ("cat", "catten", 0), ("cat", "cati", 0), ("cat", "cats", 1),
        ("torus", "torii", 0), ("torus", "tori", 1), ("torus", "toruses", 0),
        ("virus", "viruses", 1), ("virus", "virii", 0), ("virus", "viri", 0),
    ]  # fmt: skip
    groups = np.array([r[0] for r in rows])
    y_true = np.array([r[2] for r in rows])
    y_score = np.tile([0.9, 0.5, 0.1], 3)  # listed order = rank order
    perm = np.random.default_rng(1).permutation(len(rows))
    got = mean_reciprocal_rank_score(y_true[perm], y_score[perm], groups=groups[perm])
    assert_allclose(got, 11 / 18, rtol=RTOL)
    assert round(got, 2) == 0.61
    assert_allclose(
        mean_reciprocal_rank_score(
            y_true[perm], y_score[perm], groups=groups[perm], average=None
        ),
        [1 / 3, 1 / 2, 1.0],  # cat, torus, virus (sorted group ids)
        rtol=RTOL,
    )
    # the multiclass layout: three samples, the true class ranked 3rd, 2nd, 1st
    proba = np.array([[0.5, 0.3, 0.2], [0.5, 0.3, 0.2], [0.5, 0.3, 0.2]])
    assert_allclose(
        mean_reciprocal_rank_score(np.array([2, 1, 0]), proba), 11 / 18, rtol=RTOL
    )


@pytest.mark.parametrize("third_relevant", ["rank6", "unretrieved"])
def test_seed001_ap_at_5(third_relevant):
    # List [hit, hit, miss, miss, miss]; the user bought 3 items.
    # AP@5 = 1/min(3,5) * (1*1 + 1*1 + 2/3*0 + 2/4*0 + 2/5*0).  The seed prints
    # "= 1/3", but its own formula gives 2/3: the formula wins (API.md).
    if third_relevant == "rank6":
        y_true, y_score = _ranking([1, 2, 6], n_items=8)
    else:
        y_true, y_score = _ranking([1, 2], n_items=5, n_unretrieved_relevant=1)
    got = mean_average_precision_score(y_true, y_score, k=5)
    assert_allclose(got, 2 / 3, rtol=RTOL)
    assert not np.isclose(got, 1 / 3)
    # trec_eval's map_cut normalisation divides by |relevant| = 3 as well here
    assert_allclose(
        mean_average_precision_score(y_true, y_score, k=5, k_denominator="relevant"),
        2 / 3,
        rtol=RTOL,
    )
    # with k=2 < |relevant| the two normalisations differ: 2/min(3,2) vs 2/3
    assert_allclose(mean_average_precision_score(y_true, y_score, k=2), 1.0, rtol=RTOL)
    assert_allclose(
        mean_average_precision_score(y_true, y_score, k=2, k_denominator="relevant"),
        2 / 3,
        rtol=RTOL,
    )
    # the "Score" column of the seed's table: precision so far at ranks 1..5
    for k, p in zip(range(1, 6), [1, 1, 2 / 3, 1 / 2, 2 / 5]):
        assert_allclose(precision_at_k_score(y_true, y_score, k=k), p, rtol=RTOL)


def test_seed001_two_top5_lists_same_precision():
    # "[命中,命中,未命中,未命中,未命中] 和 [未命中,未命中,未命中,命中(,命中)] ...
    #  虽然他们的precision都是2/5": same P@5, but MAP ranks the first list higher.
    # (The seed lists only four items for the second list; with precision 2/5 its
    #  two hits are at ranks 4 and 5.  Each user bought the 2 recommended hits.)
    y1, s1 = _ranking([1, 2], n_items=5)
    y2, s2 = _ranking([4, 5], n_items=5)
    assert_allclose(precision_at_k_score(y1, s1, k=5), 2 / 5, rtol=RTOL)
    assert_allclose(precision_at_k_score(y2, s2, k=5), 2 / 5, rtol=RTOL)
    assert_allclose(mean_average_precision_score(y1, s1, k=5), 1.0, rtol=RTOL)
    assert_allclose(
        mean_average_precision_score(y2, s2, k=5), (1 / 4 + 2 / 5) / 2, rtol=RTOL
    )
    # both lists as two groups of one call
    y = np.concatenate([y1, y2])
    s = np.concatenate([s1, s2])
    g = np.repeat(["list1", "list2"], 5)
    assert_allclose(
        mean_average_precision_score(y, s, groups=g, k=5, average=None),
        [1.0, (1 / 4 + 2 / 5) / 2],
        rtol=RTOL,
    )


# Seed 001 NDCG@6: the 6 retrieved results have relevance 3, 2, 3, 0, 1, 2; the
# query has two more items, relevance 3 and 0, so the ideal order is
# 3, 3, 3, 2, 2, 1, 0, 0.  DCG@6 = 6.86, IDCG@6 = 8.37 and NDCG@6 = 81.96% in the
# seed, which rounds the logarithms (log2(3) = 1.58 ...); exactly IDCG@6 = 8.3841
# and NDCG@6 = 0.8184 (API.md).  The exact value is asserted.
_NDCG6_DCG = 3 + 2 / log2(3) + 3 / log2(4) + 0 / log2(5) + 1 / log2(6) + 2 / log2(7)
_NDCG6_IDCG = 3 + 3 / log2(3) + 3 / log2(4) + 2 / log2(5) + 2 / log2(6) + 1 / log2(7)


@pytest.mark.parametrize("extra", ["unretrieved", "ranked_7_8"])
def test_seed001_ndcg_at_6(extra):
    expected = _NDCG6_DCG / _NDCG6_IDCG
    assert round(expected, 4) == 0.8184
    assert round(_NDCG6_DCG, 2) == 6.86
    rel = [3, 2, 3, 0, 1, 2]
    if extra == "unretrieved":  # the two items were not retrieved (-inf)
        y_true = np.array(rel + [3, 0])
        y_score = np.concatenate([_scores_for_ranking(6), [NEG_INF, NEG_INF]])
    else:  # they were retrieved at ranks 7 and 8
        y_true = np.array(rel + [3, 0])
        y_score = _scores_for_ranking(8)
    got = ndcg_score(y_true, y_score, k=6)
    assert_allclose(got, expected, rtol=RTOL)
    assert round(got, 4) == 0.8184
    assert not np.isclose(got, 0.8196, atol=5e-5)  # the seed's rounded-log value
    # 2-D layout (one row) gives the same
    assert_allclose(
        ndcg_score(y_true[None, :], y_score[None, :], k=6), expected, rtol=RTOL
    )
    if extra == "ranked_7_8":
        from sklearn.metrics import ndcg_score as sk_ndcg

        assert_allclose(
            sk_ndcg(y_true[None, :], y_score[None, :], k=6), expected, rtol=RTOL
        )


def test_seed001_ndcg_ideal_uses_all_items():
    # Only the 6 retrieved items, without the two extra ones, would give a
    # different IDCG (3,3,2,2,1,0): the extra relevance-3 item matters.
    rel = np.array([3, 2, 3, 0, 1, 2])
    idcg6 = 3 + 3 / log2(3) + 2 / log2(4) + 2 / log2(5) + 1 / log2(6) + 0
    assert_allclose(
        ndcg_score(rel, _scores_for_ranking(6), k=6), _NDCG6_DCG / idcg6, rtol=RTOL
    )


def _gauc_data():
    # user -> (labels, predicted CTR); ties included (the seed counts them 1/2)
    data = {
        "u1": ([1, 0, 0, 1, 0], [0.9, 0.8, 0.3, 0.3, 0.1]),
        "u2": ([0, 1, 0], [0.7, 0.6, 0.2]),
        "u3": ([1, 1, 0, 0, 0, 0, 1, 0], [0.2, 0.5, 0.5, 0.4, 0.1, 0.05, 0.6, 0.3]),
        "u4": ([1, 1], [0.4, 0.3]),  # all clicks: filtered by GAUC
        "u5": ([0, 0, 0], [0.9, 0.8, 0.7]),  # no clicks: filtered
    }
    y_true, y_score, groups = [], [], []
    for u, (t, s) in data.items():
        y_true += t
        y_score += s
        groups += [u] * len(t)
    return data, np.array(y_true), np.array(y_score), np.array(groups)


def test_seed001_gauc_formula_weighted_by_impressions():
    # GAUC = sum_u w_u * AUC_u / sum_u w_u, w_u = the user's views (impressions);
    # users whose samples are all positive or all negative are filtered out.
    data, y_true, y_score, groups = _gauc_data()
    aucs = {u: _seed_auc(t, s) for u, (t, s) in data.items() if 0 < sum(t) < len(t)}
    views = {u: len(data[u][0]) for u in aucs}
    expected = sum(views[u] * aucs[u] for u in aucs) / sum(views.values())
    # hand-computed per user: u1 4.5/6 (one tied pair), u2 1/2, u3 11.5/15 (one tied pair)
    assert_allclose(
        [aucs["u1"], aucs["u2"], aucs["u3"]], [4.5 / 6, 0.5, 11.5 / 15], rtol=RTOL
    )
    assert_allclose(gauc_score(y_true, y_score, groups=groups), expected, rtol=RTOL)
    assert_allclose(
        gauc_score(y_true, y_score, groups=groups, average="weighted"),
        expected,
        rtol=RTOL,
    )
    assert_allclose(
        gauc_score(y_true, y_score, groups=groups, average="macro"),
        np.mean(list(aucs.values())),
        rtol=RTOL,
    )
    per_user = gauc_score(y_true, y_score, groups=groups, average=None)
    assert_allclose(per_user[:3], [aucs["u1"], aucs["u2"], aucs["u3"]], rtol=RTOL)
    assert np.isnan(per_user[3:]).all()
    # and it differs from the global AUC of the pooled samples
    global_auc = _seed_auc(list(y_true), list(y_score))
    assert not np.isclose(gauc_score(y_true, y_score, groups=groups), global_auc)


def test_seed001_global_auc_pairwise_definition():
    # One group = the global AUC; equals the seed's pairwise count with ties 1/2
    _, y_true, y_score, _ = _gauc_data()
    expected = _seed_auc(list(y_true), list(y_score))
    assert_allclose(gauc_score(y_true, y_score), expected, rtol=RTOL)
    assert_allclose(expected, roc_auc_score(y_true, y_score), rtol=RTOL)


# ==========================================================================
# seed 002 (lecture notes: precision, recall, F-alpha, AP)
# ==========================================================================
def test_seed002_threshold_example_and_f_alpha():
    # 分类真值: [T, F, F]; 预测值: [0.7, 0.3, 0.5]; 阈值0.5: P = 1/2, R = 1
    y_true = np.array([1, 0, 0])
    y_pred = (np.array([0.7, 0.3, 0.5]) >= 0.5).astype(int)
    assert list(y_pred) == [1, 0, 1]
    assert_allclose(f_alpha_score(y_true, y_pred, alpha=1.0), 1 / 2, rtol=RTOL)  # P
    assert_allclose(f_alpha_score(y_true, y_pred, alpha=0.0), 1.0, rtol=RTOL)  # R
    # F1 = 2PR/(P+R) = 2/3
    assert_allclose(f_alpha_score(y_true, y_pred), 2 / 3, rtol=RTOL)
    assert_allclose(f_alpha_score(y_true, y_pred, alpha=0.5), 2 / 3, rtol=RTOL)
    P, R = 0.5, 1.0
    for alpha in [0.1, 0.2, 0.25, 0.8, 0.9]:
        # alpha form: 1 / (alpha/P + (1-alpha)/R) -> here 1/(1 + alpha)
        alpha_form = 1 / (alpha / P + (1 - alpha) / R)
        assert_allclose(alpha_form, 1 / (1 + alpha), rtol=RTOL)
        # beta form: beta^2 = 1/alpha - 1, F = (beta^2+1) P R / (beta^2 P + R)
        b2 = 1 / alpha - 1
        beta_form = (b2 + 1) * P * R / (b2 * P + R)
        assert_allclose(alpha_form, beta_form, rtol=RTOL)
        got = f_alpha_score(y_true, y_pred, alpha=alpha)
        assert_allclose(got, alpha_form, rtol=RTOL)
        assert_allclose(got, fbeta_score(y_true, y_pred, beta=np.sqrt(b2)), rtol=RTOL)


def test_seed002_f_alpha_endpoints_match_sklearn():
    # alpha=1 -> precision, alpha=0 -> recall, alpha=1/2 -> F1 (exactly sklearn's)
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 2, 40)
    y_pred = rng.integers(0, 2, 40)
    assert f_alpha_score(y_true, y_pred, alpha=1.0) == pytest.approx(
        precision_score(y_true, y_pred), rel=RTOL
    )
    assert f_alpha_score(y_true, y_pred, alpha=0.0) == pytest.approx(
        recall_score(y_true, y_pred), rel=RTOL
    )
    assert f_alpha_score(y_true, y_pred, alpha=0.5) == pytest.approx(
        f1_score(y_true, y_pred), rel=RTOL
    )


def _seed002_ap(y_true, y_score):
    """AP = sum_{k=0}^{n-1} [R(k) - R(k+1)] * P(k), R(n) = 0, P(n) = 1, with the
    points (P(k), R(k)) taken at every distinct threshold, highest recall first."""
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=float)
    n_pos = (y_true > 0).sum()
    P, R = [], []
    for t in sorted(set(y_score[np.isfinite(y_score)]), reverse=False):
        sel = y_score >= t
        tp = (y_true[sel] > 0).sum()
        P.append(Fraction(int(tp), int(sel.sum())))
        R.append(Fraction(int(tp), int(n_pos)))
    P.append(Fraction(1))
    R.append(Fraction(0))
    return float(sum((R[k] - R[k + 1]) * P[k] for k in range(len(P) - 1)))


def test_seed002_ap_formula():
    # with ties in the scores: the formula's points are thresholds (tie blocks)
    y_true = np.array([1, 0, 1, 1, 0, 0, 1, 0, 0, 1])
    y_score = np.array([0.9, 0.9, 0.8, 0.6, 0.6, 0.6, 0.5, 0.4, 0.2, 0.2])
    expected = _seed002_ap(y_true, y_score)
    assert_allclose(mean_average_precision_score(y_true, y_score), expected, rtol=RTOL)
    assert_allclose(expected, average_precision_score(y_true, y_score), rtol=RTOL)
    # without ties: relevant at ranks 1, 3, 6 of 6 -> (1 + 2/3 + 3/6)/3
    y2, s2 = _ranking([1, 3, 6], n_items=6)
    assert_allclose(_seed002_ap(y2, s2), (1 + 2 / 3 + 3 / 6) / 3, rtol=RTOL)
    assert_allclose(
        mean_average_precision_score(y2, s2), (1 + 2 / 3 + 3 / 6) / 3, rtol=RTOL
    )


def test_seed002_map_is_mean_over_classes():
    # mAP = (1/n) sum_k AP_k: one group per class (one-vs-rest columns)
    rng = np.random.default_rng(3)
    n, n_classes = 30, 4
    labels = rng.integers(0, n_classes, n)
    labels[:n_classes] = np.arange(n_classes)
    scores = rng.random((n, n_classes))
    y_true = (labels[:, None] == np.arange(n_classes)).astype(int)
    aps = [_seed002_ap(y_true[:, c], scores[:, c]) for c in range(n_classes)]
    got = mean_average_precision_score(
        y_true.ravel(order="F"),
        scores.ravel(order="F"),
        groups=np.repeat(np.arange(n_classes), n),
    )
    assert_allclose(got, np.mean(aps), rtol=RTOL)
    assert_allclose(
        got, average_precision_score(y_true, scores, average="macro"), rtol=RTOL
    )


# ==========================================================================
# seed 003 (blog post: airplanes and geese; AP; interpolated AP)
# ==========================================================================
# The ranked list of 10 images implied by the seed's AP sum
# (1*0.2)+(1*0.2)+(0.66*0)+(0.75*0.2)+(0.6*0)+(0.66*0.2)+(0.57*0)+(0.5*0)+(0.44*0)+(0.5*0.2):
# airplanes (relevant) at ranks 1, 2, 4, 6, 10; 5 airplanes, 5 geese.
_PLANES = [1, 2, 4, 6, 10]


def test_seed003_threshold_tp3_fp1_fn2():
    # The system retrieves the top 4 images: 3 true positives, 1 false positive,
    # 2 false negatives, 4 true negatives: precision 3/4 = 0.75, recall 3/5 = 0.6.
    y_true, y_score = _ranking(_PLANES, n_items=10)
    y_pred = (np.arange(1, 11) <= 4).astype(int)
    tp = int(((y_pred == 1) & (y_true == 1)).sum())
    fp = int(((y_pred == 1) & (y_true == 0)).sum())
    fn = int(((y_pred == 0) & (y_true == 1)).sum())
    tn = int(((y_pred == 0) & (y_true == 0)).sum())
    assert (tp, fp, fn, tn) == (3, 1, 2, 4)
    assert_allclose(f_alpha_score(y_true, y_pred, alpha=1.0), 0.75, rtol=RTOL)
    assert_allclose(f_alpha_score(y_true, y_pred, alpha=0.0), 0.6, rtol=RTOL)
    assert_allclose(f_alpha_score(y_true, y_pred), 2 * 0.75 * 0.6 / 1.35, rtol=RTOL)
    # the same as a ranking cut at k = 4
    assert_allclose(precision_at_k_score(y_true, y_score, k=4), 0.75, rtol=RTOL)
    assert_allclose(recall_at_k_score(y_true, y_score, k=4), 0.6, rtol=RTOL)


def test_seed003_precision_recall_at_every_threshold():
    # "仅仅获取到顶部的例子,准确率为100%查全率为20%;如果我们取到前面的两个例子,
    #  准确率为100%查全率为40%" and the seed's table for all 10 cut-offs.
    y_true, y_score = _ranking(_PLANES, n_items=10)
    hits = np.cumsum(y_true)
    for k in range(1, 11):
        assert_allclose(
            precision_at_k_score(y_true, y_score, k=k), hits[k - 1] / k, rtol=RTOL
        )
        assert_allclose(
            recall_at_k_score(y_true, y_score, k=k), hits[k - 1] / 5, rtol=RTOL
        )
    assert precision_at_k_score(y_true, y_score, k=1) == pytest.approx(1.0)
    assert recall_at_k_score(y_true, y_score, k=1) == pytest.approx(0.2)
    assert precision_at_k_score(y_true, y_score, k=2) == pytest.approx(1.0)
    assert recall_at_k_score(y_true, y_score, k=2) == pytest.approx(0.4)


def test_seed003_average_precision_0782():
    # AP = sum_k P(k) delta r(k) = 0.2 * (1 + 1 + 0.75 + 4/6 + 0.5) = 47/60 = 0.78333.
    # The seed prints 0.782 because it writes P(6) = 4/6 as 0.66 (truncated):
    # 0.2 * (1 + 1 + 0.75 + 0.66 + 0.5) = 0.782.  The formula wins: 0.7833.
    y_true, y_score = _ranking(_PLANES, n_items=10)
    expected = (1 + 1 + 0.75 + 4 / 6 + 0.5) / 5
    got = mean_average_precision_score(y_true, y_score)
    assert_allclose(got, expected, rtol=RTOL)
    assert_allclose(got, 47 / 60, rtol=RTOL)
    assert round(0.2 * (1 + 1 + 0.75 + 0.66 + 0.5), 3) == 0.782  # the seed's arithmetic
    assert abs(got - 0.782) < 2e-3 and round(got, 3) == 0.783
    # as a MAP over a 1-row 2-D input
    assert_allclose(
        mean_average_precision_score(y_true[None], y_score[None]), expected, rtol=RTOL
    )


def test_seed003_interpolated_ap():
    # interpolated precision: the highest precision at any recall >= r.
    # PR points at the hits: (0.2, 1), (0.4, 1), (0.6, 3/4), (0.8, 4/6), (1.0, 1/2).
    # 11 points: r = 0..0.4 -> 1; 0.5, 0.6 -> 3/4; 0.7, 0.8 -> 2/3; 0.9, 1.0 -> 1/2.
    # (Level 0.6 is reached exactly by recall 3/5: a float grid np.arange(0, 1.1, 0.1)
    #  has 0.6000000000000001 there and would give 2/3.)
    y_true, y_score = _ranking(_PLANES, n_items=10)
    expected = [1, 1, 1, 1, 1, 3 / 4, 3 / 4, 2 / 3, 2 / 3, 1 / 2, 1 / 2]
    assert_allclose([float(x) for x in _iprec_by_hand(y_true, 5)], expected, rtol=RTOL)
    precision, recall = _sorted_curve(
        *interpolated_precision_recall_curve(y_true, y_score)
    )
    assert_allclose(recall, np.linspace(0, 1, 11), rtol=RTOL, atol=1e-15)
    assert_allclose(precision, expected, rtol=RTOL)
    assert_allclose(
        interpolated_average_precision_score(y_true, y_score),
        np.mean(expected),
        rtol=RTOL,
    )
    assert_allclose(
        interpolated_average_precision_score(y_true, y_score),
        (5 + 1.5 + 4 / 3 + 1) / 11,
        rtol=RTOL,
    )
    # all-points interpolation (n_points=None): here precision at the hits only
    # decreases, so it equals the non-interpolated AP 47/60
    assert_allclose(
        interpolated_average_precision_score(y_true, y_score, n_points=None),
        47 / 60,
        rtol=RTOL,
    )


# ==========================================================================
# seed 004 (blog post: P/R table, F, 11-point interpolated AP, MAP)
# ==========================================================================
# "假設database中,relevance的document數目為10":
#   doc 1 +  P 1/1  R 1/10
#   doc 2 +  P 2/2  R 2/10
#   doc 3 -  P 2/3  R 2/10
#   doc 4 +  P 3/4  R 3/10
#   ...
# A full list consistent with it: relevant at ranks 1, 2, 4, 7, 8, 12, 15, 20 of 20
# retrieved documents, and 2 relevant documents that were not retrieved (-inf).
_S004_REL_RANKS = [1, 2, 4, 7, 8, 12, 15, 20]


def _s004():
    return _ranking(_S004_REL_RANKS, n_items=20, n_unretrieved_relevant=2)


def test_seed004_precision_recall_table():
    y_true, y_score = _s004()
    for k, p, r in [(1, 1, 0.1), (2, 1, 0.2), (3, 2 / 3, 0.2), (4, 3 / 4, 0.3)]:
        assert_allclose(precision_at_k_score(y_true, y_score, k=k), p, rtol=RTOL)
        assert_allclose(recall_at_k_score(y_true, y_score, k=k), r, rtol=RTOL)


def test_seed004_eleven_point_interpolated_precision():
    y_true, y_score = _s004()
    # by hand: precisions at the hits are 1, 1, 3/4, 4/7, 5/8, 6/12, 7/15, 8/20;
    # recall never reaches 0.9 (8 of 10 retrieved) -> 0 there.
    expected = [1, 1, 1, 3 / 4, 5 / 8, 5 / 8, 1 / 2, 7 / 15, 2 / 5, 0, 0]
    flags = np.zeros(20, dtype=int)
    flags[np.array(_S004_REL_RANKS) - 1] = 1
    assert_allclose([float(x) for x in _iprec_by_hand(flags, 10)], expected, rtol=RTOL)
    precision, recall = _sorted_curve(
        *interpolated_precision_recall_curve(y_true, y_score)
    )
    assert_allclose(recall, np.linspace(0, 1, 11), rtol=RTOL, atol=1e-15)
    # level 0.3 is reached by recall 3/10 (a float grid would miss it and give 5/8)
    assert_allclose(precision, expected, rtol=RTOL)
    assert_allclose(
        interpolated_average_precision_score(y_true, y_score, n_points=11),
        np.mean(expected),
        rtol=RTOL,
    )
    # the unretrieved relevant documents matter: without them R = 8, different curve
    y8, s8 = _ranking(_S004_REL_RANKS, n_items=20)
    expected8 = [float(x) for x in _iprec_by_hand(y8, 8)]
    assert_allclose(
        interpolated_average_precision_score(y8, s8), np.mean(expected8), rtol=RTOL
    )
    assert not np.isclose(np.mean(expected8), np.mean(expected))


def test_seed004_map_is_mean_of_query_aps():
    # "首先先計算個別Query所retrieval出的average precision ... 再求其算數平均數"
    y1, s1 = _s004()
    y2, s2 = _ranking(_PLANES, n_items=10)
    ap1 = sum((i + 1) / r for i, r in enumerate(_S004_REL_RANKS)) / 10
    ap2 = 47 / 60
    y = np.concatenate([y1, y2])
    s = np.concatenate([s1, s2])
    g = np.array(["q1"] * len(y1) + ["q2"] * len(y2))
    assert_allclose(
        mean_average_precision_score(y, s, groups=g, average=None),
        [ap1, ap2],
        rtol=RTOL,
    )
    assert_allclose(
        mean_average_precision_score(y, s, groups=g), (ap1 + ap2) / 2, rtol=RTOL
    )
