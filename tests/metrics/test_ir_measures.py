"""success@k, R-precision, DCG, ERR, RBP and bpref (issue 13).

Each measure is checked against a brute-force loop over every ordering of the
tied items (``_reference.py``), against scikit-learn (DCG) and against
pytrec_eval (trec_eval 9) on tie-free collections with unretrieved relevant
items, judged non-relevant and unjudged documents and queries without a
relevant document.
"""

import itertools
import math

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import dcg_score as sk_dcg_score

from sklearn_rankeval import (
    bpref_score,
    dcg_score,
    expected_reciprocal_rank_score,
    hit_rate_score,
    r_precision_score,
    rank_biased_precision_score,
    recall_at_k_score,
    success_at_k_score,
)
from sklearn_rankeval._metrics._names import parse_metric_name
from sklearn_rankeval._metrics._registry import METRICS
from tests import _reference as ref

RTOL = 1e-12
NEW = ("success", "r_precision", "dcg", "err", "rbp", "bpref")


def _small_groups(seed, n_groups=40, max_size=6, n_grades=4, n_levels=3):
    """Small groups with many ties, unretrieved items and graded relevance."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, n_groups)
    groups = np.repeat(np.arange(n_groups), sizes)
    n = len(groups)
    y = rng.integers(0, n_grades, n)
    s = rng.integers(0, n_levels, n).astype(float)
    s[rng.random(n) < 0.1] = -np.inf
    judged = rng.random(n) < 0.8
    return y, s, groups, judged


def _per_group_reference(func, y, s, g, *args, judged=None):
    out = []
    for gid in np.unique(g):
        m = g == gid
        extra = () if judged is None else (list(judged[m]),)
        out.append(func(list(y[m]), list(s[m]), *args, *extra))
    return np.array(out, dtype=float)


# ==========================================================================
# registry
# ==========================================================================
def test_registry_entries_and_scorer_names():
    for name in NEW:
        assert name in METRICS
    assert parse_metric_name("success@5")[1] == 5
    assert parse_metric_name("success") is None  # k is required, as HR@k
    assert parse_metric_name("dcg@3")[1] == 3 and parse_metric_name("dcg")[1] is None
    assert parse_metric_name("err@10")[1] == 10
    assert parse_metric_name("rbp") is not None
    assert parse_metric_name("r_precision") is not None
    assert parse_metric_name("bpref") is not None


# ==========================================================================
# brute force over tie orderings
# ==========================================================================
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_success_at_k_brute_force(seed, k, engine_path):
    y, s, g, _ = _small_groups(seed)
    expected = _per_group_reference(ref.success_at_k, y, s, g, k)
    assert_allclose(success_at_k_score(y, s, groups=g, k=k, average=None),
                    expected, rtol=RTOL, atol=1e-15, equal_nan=True)


def test_success_at_k_is_not_mean_of_recall_positive():
    # the relevant item ties with 3 others for ranks 1-4: it is in the top 2
    # with probability 1/2, while recall@2 > 0 always holds (expected hits 1/2)
    y, s = [1, 0, 0, 0], [1.0, 1.0, 1.0, 1.0]
    assert success_at_k_score(y, s, k=2) == pytest.approx(0.5, rel=RTOL)
    assert recall_at_k_score(y, s, k=2) == pytest.approx(0.5, rel=RTOL)
    # two relevant items among 4 tied, k=1: 1 - C(2,1)/C(4,1) = 1/2;
    # k=2: 1 - C(2,2)/C(4,2) = 5/6
    y = [1, 1, 0, 0]
    assert success_at_k_score(y, s, k=1) == pytest.approx(0.5, rel=RTOL)
    assert success_at_k_score(y, s, k=2) == pytest.approx(5 / 6, rel=RTOL)


def test_success_equals_hit_rate_of_ranx_and_torchmetrics_without_ties():
    # ranx hit_rate / torchmetrics RetrievalHitRate: mean over queries of
    # [any relevant item in the top k], written out here
    rng = np.random.default_rng(3)
    g = np.repeat(np.arange(30), 8)
    y = (rng.random(len(g)) < 0.2).astype(int)
    y[::8] = np.maximum(y[::8], rng.integers(0, 2, 30))
    s = rng.permutation(len(g)).astype(float)
    ours = success_at_k_score(y, s, groups=g, k=3, average=None)
    expected = []
    for q in range(30):
        m = g == q
        if y[m].sum() == 0:
            expected.append(np.nan)
            continue
        top = np.argsort(-s[m])[:3]
        expected.append(float(y[m][top].any()))
    assert_allclose(ours, expected, equal_nan=True)
    # and it is not the pooled hit rate of hit_rate_score
    assert success_at_k_score(y, s, groups=g, k=3) != pytest.approx(
        hit_rate_score(y, s, groups=g, k=3))


@pytest.mark.parametrize("seed", range(3))
def test_r_precision_brute_force(seed, engine_path):
    y, s, g, _ = _small_groups(seed)
    expected = _per_group_reference(ref.r_precision, y, s, g)
    assert_allclose(r_precision_score(y, s, groups=g, average=None), expected,
                    rtol=RTOL, atol=1e-15, equal_nan=True)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("p", [0.5, 0.8, 0.95])
def test_rbp_brute_force(seed, p, engine_path):
    y, s, g, _ = _small_groups(seed)
    expected = _per_group_reference(ref.rank_biased_precision, y, s, g, p)
    assert_allclose(rank_biased_precision_score(y, s, groups=g, p=p, average=None),
                    expected, rtol=RTOL, atol=1e-15, equal_nan=True)


def test_rbp_by_hand():
    # relevant at ranks 2 and 3 (p = 0.8): 0.2 * (0.8 + 0.64)
    assert rank_biased_precision_score([0, 1, 1, 0], [4, 3, 2, 1]) == pytest.approx(
        0.2 * (0.8 + 0.64), rel=RTOL)


@pytest.mark.parametrize("seed", range(3))
def test_bpref_brute_force_with_judged(seed, engine_path):
    y, s, g, judged = _small_groups(seed)
    expected = _per_group_reference(ref.bpref, y, s, g, judged=judged)
    got = bpref_score(y, s, groups=g, judged=judged, average=None)
    assert_allclose(got, expected, rtol=RTOL, atol=1e-15, equal_nan=True)
    # judged=None: every row judged
    expected_all = _per_group_reference(ref.bpref, y, s, g)
    assert_allclose(bpref_score(y, s, groups=g, average=None), expected_all,
                    rtol=RTOL, atol=1e-15, equal_nan=True)
    assert not np.allclose(np.nan_to_num(got), np.nan_to_num(expected_all))


def test_bpref_by_hand_and_judged_layouts():
    # R = 2 relevant, N = 3 judged non-relevant, min(N, R) = 2
    # ranking: n r u n r n  (u unjudged): 1 - 1/2, then 1 - min(2, 2)/2 = 0
    y = [0, 1, 0, 0, 1, 0]
    s = [6, 5, 4, 3, 2, 1]
    judged = [True, True, False, True, True, True]
    assert bpref_score(y, s, judged=judged) == pytest.approx(0.25, rel=RTOL)
    # the unjudged row counted as non-relevant: the second relevant item has
    # 3 non-relevant above it, but min(n, R) caps at R = 2, so the same value
    assert bpref_score(y, s) == pytest.approx(0.25, rel=RTOL)
    y2 = [0, 0, 1, 1]
    s2 = [4, 3, 2, 1]
    assert bpref_score(y2, s2, judged=[False, False, True, True]) == 1.0
    assert bpref_score(y2, s2) == 0.0
    # 2-D input with a 2-D judged mask equals the long layout
    Y = np.array([y2, [1, 0, 0, 1]])
    S = np.array([s2, [1, 2, 3, 4]], dtype=float)
    J = np.array([[False, True, True, True], [True, True, False, True]])
    assert_allclose(
        bpref_score(Y, S, judged=J, average=None),
        bpref_score(Y.ravel(), S.ravel(), groups=[0] * 4 + [1] * 4,
                    judged=J.ravel(), average=None), rtol=RTOL)
    # a group with no judged row keeps its place, undefined
    got = bpref_score([1, 0, 1, 0], [1, 2, 3, 4], groups=[0, 0, 1, 1],
                      judged=[False, False, True, True], average=None)
    # group 1 ranks its non-relevant row first: 1 - min(1, 1) / min(1, 1)
    assert np.isnan(got[0]) and got[1] == 0.0
    got = bpref_score([1, 0, 1, 0], [1, 2, 4, 3], groups=[0, 0, 1, 1],
                      judged=[False, False, True, True], average=None)
    assert got[1] == 1.0


def test_judged_validation():
    with pytest.raises(ValueError, match="judged"):
        bpref_score([1, 0], [1, 2], judged=[True])
    with pytest.raises(TypeError, match="judged"):
        bpref_score([1, 0], [1, 2], judged=[1, 0])


# ==========================================================================
# ERR
# ==========================================================================
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [None, 1, 2, 3, 5])
def test_err_expectation_brute_force(seed, k, engine_path):
    # every ordering of the tied items, in fractions; grades 0..4, blocks
    # across the cutoff, unretrieved items
    y, s, g, _ = _small_groups(seed, n_grades=5)
    expected = _per_group_reference(ref.err_expected, y, s, g, k, 4)
    got = expected_reciprocal_rank_score(y, s, groups=g, k=k, average=None)
    assert_allclose(got, expected, rtol=RTOL, atol=1e-15, equal_nan=True)


@pytest.mark.parametrize("max_grade", [1, 2, 4])
def test_err_expectation_brute_force_other_max_grades(max_grade):
    y, s, g, _ = _small_groups(7, n_grades=max_grade + 1, n_levels=2)
    for k in (None, 2, 4):
        expected = _per_group_reference(ref.err_expected, y, s, g, k, max_grade)
        got = expected_reciprocal_rank_score(y, s, groups=g, k=k, average=None,
                                             max_grade=max_grade)
        assert_allclose(got, expected, rtol=RTOL, atol=1e-15, equal_nan=True)


def test_err_expectation_with_query_weights():
    y, s, g, _ = _small_groups(3, n_grades=5)
    rng = np.random.default_rng(0)
    qw = rng.integers(1, 5, g.max() + 1).astype(float)
    values = _per_group_reference(ref.err_expected, y, s, g, 3, 4)
    ok = ~np.isnan(values)
    expected = np.sum(values[ok] * qw[ok]) / np.sum(qw[ok])
    got = expected_reciprocal_rank_score(y, s, groups=g, k=3,
                                         sample_weight=qw[g])
    assert got == pytest.approx(expected, rel=RTOL)


@pytest.mark.parametrize("k", [None, 1, 7, 40, 95])
def test_err_expectation_on_large_tie_blocks(k, engine_path):
    # blocks of up to 60 items, too many orderings to enumerate: the exact
    # expectation by elementary symmetric polynomials (in fractions)
    rng = np.random.default_rng(12)
    y, s, g = [], [], []
    for gid, (size, levels) in enumerate([(60, 1), (90, 3), (45, 2), (30, 30)]):
        y.append(rng.integers(0, 5, size) * (rng.random(size) < 0.6))
        s.append(rng.integers(0, levels, size).astype(float))
        g.append(np.full(size, gid))
    y[0][:] = rng.choice([0, 4], 60)  # grades 0 and the top grade only
    y, s, g = np.concatenate(y), np.concatenate(s), np.concatenate(g)
    expected = _per_group_reference(ref.err_expected_by_subsets, y, s, g, k, 4)
    got = expected_reciprocal_rank_score(y, s, groups=g, k=k, average=None)
    assert_allclose(got, expected, rtol=RTOL)


@pytest.mark.parametrize("k", [None, 700])
def test_err_expectation_on_a_block_of_thousands(k):
    # one block of 3000 tied items, 1000 of grade 1 (x = 15/16), below an
    # item of grade 2: the item at block position j + 1 is relevant with
    # probability r/m, and then the relevant items before it are
    # hypergeometric (j draws from the other m - 1, r - 1 of them relevant)
    from scipy.special import gammaln

    def log_comb(n, c):
        ok = (c >= 0) & (c <= n)
        c = np.where(ok, c, 0)
        return np.where(ok, gammaln(n + 1) - gammaln(c + 1) - gammaln(n - c + 1),
                        -np.inf)

    m, r = 3000, 1000
    y = np.r_[2, np.ones(r, dtype=int), np.zeros(m - r, dtype=int)]
    s = np.r_[2.0, np.ones(m)]
    x = 15 / 16
    j = np.arange(m)[:, None]
    a = np.arange(r)[None, :]
    pmf = np.exp(log_comb(r - 1, a) + log_comb(m - r, j - a) - log_comb(m - 1, j))
    mean_power = (pmf * x ** a).sum(axis=1)
    d = r / m * (1 / 16) * mean_power
    rank = 2 + np.arange(m)
    keep = rank <= (k or m + 1)
    expected = 3 / 16 + 13 / 16 * np.sum(d[keep] / rank[keep])
    got = expected_reciprocal_rank_score(y, s, k=k)
    # (the reference's log-gamma binomials carry errors near 1e-12)
    assert got == pytest.approx(expected, rel=1e-10)


def test_err_expectation_by_hand():
    # a tie of grades 4 and 0: rank 1 or 2 with probability 1/2 each
    assert expected_reciprocal_rank_score([4, 0], [1.0, 1.0]) == pytest.approx(
        15 / 16 * (1 + 1 / 2) / 2, rel=RTOL)
    # ... below an item of grade 2: reached with probability 13/16
    assert expected_reciprocal_rank_score([4, 0, 2], [1.0, 1.0, 2.0]) == \
        pytest.approx(3 / 16 + 13 / 16 * 15 / 16 * (1 / 2 + 1 / 3) / 2, rel=RTOL)
    # a tie of grades 4 and 1 (the mean stopping probability of the two,
    # given to both, would give another number)
    r4, r1 = 15 / 16, 1 / 16
    expected = (r4 + (1 - r4) * r1 / 2 + r1 + (1 - r1) * r4 / 2) / 2
    assert expected_reciprocal_rank_score([4, 1], [1.0, 1.0]) == pytest.approx(
        expected, rel=RTOL)
    mean = (r4 + r1) / 2
    assert expected != pytest.approx(mean + (1 - mean) * mean / 2, rel=1e-3)
    # stopping probabilities that round to 1 (grade 60 of 60) in a tie: a
    # grade-60 item first (2/3), else second (1/3)
    assert expected_reciprocal_rank_score(
        [60, 60, 0], [1.0, 1.0, 1.0], max_grade=60) == pytest.approx(
        2 / 3 + 1 / 3 / 2, rel=RTOL)


def test_err_without_ties_is_the_plain_sum():
    rng = np.random.default_rng(5)
    for _ in range(30):
        n = int(rng.integers(1, 7))
        y = rng.integers(0, 5, n)
        y[0] = max(y[0], 1)
        distinct = rng.permutation(n).astype(float)
        order = np.argsort(-distinct)
        stops = (2.0 ** y[order] - 1) / 16
        plain = sum(stops[i] / (i + 1) * np.prod(1 - stops[:i]) for i in range(n))
        assert expected_reciprocal_rank_score(y, distinct) == pytest.approx(
            plain, rel=RTOL)


def test_err_by_hand_and_max_grade():
    # grades 4, 2 at ranks 1, 2: 15/16 + (1/16)(3/16)/2
    assert expected_reciprocal_rank_score([2, 4], [0.1, 0.9]) == pytest.approx(
        15 / 16 + (1 / 16) * (3 / 16) / 2, rel=RTOL)
    assert expected_reciprocal_rank_score([2, 4], [0.1, 0.9], k=1) == pytest.approx(
        15 / 16, rel=RTOL)
    # max_grade=2: grade 2 stops with 3/4, grade 1 with 1/4
    assert expected_reciprocal_rank_score([1, 2], [0.9, 0.1], max_grade=2) == (
        pytest.approx(1 / 4 + (3 / 4) * (3 / 4) / 2, rel=RTOL))
    with pytest.raises(ValueError, match="max_grade"):
        expected_reciprocal_rank_score([5, 0], [1, 2])
    with pytest.raises(ValueError, match="max_grade"):
        expected_reciprocal_rank_score([1, 0], [1, 2], max_grade=0)


def test_err_value_of_a_group_ignores_other_groups():
    # a high grade in another group must not change this group's value
    a = expected_reciprocal_rank_score([1, 0, 2], [3, 2, 1], groups=[0, 0, 0],
                                       average=None)
    b = expected_reciprocal_rank_score([1, 0, 2, 4], [3, 2, 1, 5],
                                       groups=[0, 0, 0, 1], average=None)
    assert a[0] == b[0]


# ==========================================================================
# DCG vs scikit-learn
# ==========================================================================
@pytest.mark.parametrize("k", [None, 1, 3, 10])
@pytest.mark.parametrize("log_base", [2, 10])
def test_dcg_equals_sklearn_on_2d_with_ties(k, log_base):
    rng = np.random.default_rng(11)
    Y = rng.integers(0, 4, (25, 7))
    Y[3] = 0  # a query without gain scores 0 and counts
    S = rng.integers(0, 3, (25, 7)).astype(float)
    w = rng.uniform(0.5, 2.0, 25)
    for sw in (None, w):
        assert dcg_score(Y, S, k=k, log_base=log_base, sample_weight=sw) == (
            pytest.approx(sk_dcg_score(Y, S, k=k, log_base=log_base,
                                       sample_weight=sw), rel=RTOL))
    per_row = dcg_score(Y, S, k=k, log_base=log_base, average=None)
    for i in range(len(Y)):
        assert per_row[i] == pytest.approx(
            sk_dcg_score(Y[i:i + 1], S[i:i + 1], k=k, log_base=log_base), rel=RTOL,
            abs=1e-15)


@pytest.mark.parametrize("seed", range(2))
def test_dcg_grouped_equals_reference(seed, engine_path):
    y, s, g, _ = _small_groups(seed)
    for k in (None, 2):
        expected = _per_group_reference(ref.dcg_tie_averaged, y, s, g, k)
        assert_allclose(dcg_score(y, s, groups=g, k=k, average=None), expected,
                        rtol=RTOL, atol=1e-15)


def test_dcg_is_defined_without_gain():
    assert dcg_score([0, 0], [1, 2]) == 0.0
    assert_allclose(dcg_score([0, 0, 1, 0], [1, 2, 1, 2], groups=[0, 0, 1, 1],
                              average=None), [0.0, 1 / math.log2(3)], rtol=RTOL)


# ==========================================================================
# pytrec_eval (trec_eval 9) on tie-free collections
# ==========================================================================
def _trec_collection(seed, n_queries=25):
    """qrels/run dicts and the long-layout arrays, without score ties.

    Some relevant documents are not retrieved, some retrieved documents are
    not judged, some judged queries have no relevant document.
    """
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    ys, ss, gs, js = [], [], [], []
    for q in range(n_queries):
        qid = f"q{q}"
        n_docs = int(rng.integers(3, 30))
        rel = (rng.random(n_docs) < rng.uniform(0, 0.5)).astype(int)
        judged = rng.random(n_docs) < 0.8
        judged |= rel > 0
        retrieved = rng.random(n_docs) < 0.85
        scores = rng.permutation(n_docs).astype(float) + 1
        qrels[qid] = {f"d{i}": int(rel[i]) for i in range(n_docs) if judged[i]}
        run[qid] = {f"d{i}": float(scores[i]) for i in range(n_docs) if retrieved[i]}
        if not qrels[qid]:
            qrels[qid] = {"dx": 0}
        keep = judged | retrieved
        ys += list(rel[keep])
        ss += list(np.where(retrieved, scores, -np.inf)[keep])
        gs += [qid] * int(keep.sum())
        js += list(judged[keep])
        if "dx" in qrels[qid]:
            ys.append(0), ss.append(-np.inf), gs.append(qid), js.append(True)
    return qrels, run, tuple(map(np.asarray, (ys, ss, gs, js)))


@pytest.mark.parametrize("seed", range(3))
def test_against_pytrec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run, (y, s, g, judged) = _trec_collection(seed)
    res = pytrec_eval.RelevanceEvaluator(
        qrels, {"success.1,3,10", "Rprec", "bpref"}).evaluate(run)
    qids = np.unique(g)
    values = {
        "success_1": success_at_k_score(y, s, groups=g, k=1, average=None,
                                        undefined=0.0),
        "success_3": success_at_k_score(y, s, groups=g, k=3, average=None,
                                        undefined=0.0),
        "success_10": success_at_k_score(y, s, groups=g, k=10, average=None,
                                         undefined=0.0),
        "Rprec": r_precision_score(y, s, groups=g, average=None, undefined=0.0),
        "bpref": bpref_score(y, s, groups=g, judged=judged, average=None,
                             undefined=0.0),
    }
    n = 0
    for i, q in enumerate(qids):
        for name, ours in values.items():
            assert ours[i] == pytest.approx(res[q][name], rel=RTOL, abs=1e-15), (q, name)
            n += 1
    assert n == 5 * len(qids)
    # not vacuous: bpref differs when unjudged documents count as non-relevant
    plain = bpref_score(y, s, groups=g, average=None, undefined=0.0)
    assert not np.allclose(plain, values["bpref"])


# ==========================================================================
# exhaustive check of the tie rules on one small case
# ==========================================================================
def test_expected_values_by_enumeration_of_one_tie_block():
    # one block of 5 tied items, 2 relevant, below 1 non-relevant item
    y = [0, 1, 1, 0, 0, 0]
    s = [2.0, 1, 1, 1, 1, 1]
    perms = list(itertools.permutations([1, 1, 0, 0, 0]))
    rankings = [[0, *p] for p in perms]
    succ2 = np.mean([any(r[:2]) for r in rankings])
    assert success_at_k_score(y, s, k=2) == pytest.approx(succ2, rel=RTOL)
    rprec = np.mean([sum(r[:2]) / 2 for r in rankings])
    assert r_precision_score(y, s) == pytest.approx(rprec, rel=RTOL)
    rbp = np.mean([sum(0.2 * 0.8 ** i for i, v in enumerate(r) if v) for r in rankings])
    assert rank_biased_precision_score(y, s) == pytest.approx(rbp, rel=RTOL)
