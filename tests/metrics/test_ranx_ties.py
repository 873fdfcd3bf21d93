"""``convention="ranx"``: a number is refused exactly when ranx's tie order matters.

ranx keeps tied items in run order only in a query of at most 15 retrieved
items; beyond, the order is its sort's own.  The preset gives a metric's
value where no order of the tied items can change it, and refuses it where
two orders give two values.  Checked over every order of the tied items
(``tests/_reference.py``), on constructed cases, and on LightGBM lambdarank
predictions of a small learning-to-rank set against ranx itself.
"""

import numpy as np
import pytest

from sklearn_rankeval import (
    bpref_score,
    dcg_score,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    precision_at_k_score,
    r_precision_score,
    ranking_report,
    recall_at_k_score,
    success_at_k_score,
)
from sklearn_rankeval._metrics._conventions import RANX_STABLE_SIZE
from tests import _reference as ref

FUNCS = {"map": mean_average_precision_score, "mrr": mean_reciprocal_rank_score,
         "precision": precision_at_k_score, "recall": recall_at_k_score,
         "success": success_at_k_score, "ndcg": ndcg_score, "dcg": dcg_score,
         "r_precision": r_precision_score, "bpref": bpref_score}
WITH_K = ("map", "mrr", "precision", "recall", "success", "ndcg", "dcg")
WITHOUT_K = ("map", "mrr", "ndcg", "dcg", "r_precision", "bpref")
CASES = ([(m, None) for m in WITHOUT_K]
         + [(m, k) for m in WITH_K for k in (1, 2, 3, 5, 8)])


def _ranx(metric, y, s, k):
    """Our number under the ranx preset, or None where it is refused."""
    kw = {} if k is None else {"k": k}
    try:
        return FUNCS[metric](y, s, convention="ranx", **kw)
    except ValueError as exc:
        assert "convention='ranx' cannot give" in str(exc)
        return None


def _query(rng):
    """16-22 retrieved items (ties in blocks of 2-3, at most 720 orders),
    grades 0-3, and up to 2 items not retrieved."""
    n = int(rng.integers(16, 23))
    levels, blocks = [], 0
    while len(levels) < n:
        size = int(rng.choice([1, 1, 2, 3])) if blocks < 3 else 1
        blocks += size > 1
        levels += [len(levels)] * size
    s = -np.array(levels[:n], dtype=float)
    y = rng.integers(0, 4, n) * (rng.random(n) < 0.45)
    n_out = int(rng.integers(0, 3))
    y = np.r_[y, rng.integers(0, 3, n_out)]
    s = np.r_[s, np.full(n_out, -np.inf)]
    if not (y > 0).any():
        y[int(rng.integers(0, n))] = 1
    perm = rng.permutation(len(y))
    return y[perm], s[perm]


@pytest.mark.parametrize("seed", range(6))
def test_every_given_number_is_order_free_and_every_refusal_is_not(seed):
    rng = np.random.default_rng(seed)
    given = refused = 0
    for _ in range(12):
        y, s = _query(rng)
        assert ref.number_of_orderings(list(y), list(s)) <= ref.MAX_ORDERINGS
        for metric, k in CASES:
            values = ref.values_over_orderings(metric, list(y), list(s), k)
            ours = _ranx(metric, y, s, k)
            if ours is None:  # refused: two orders give two values
                refused += 1
                assert len(values) >= 2, (metric, k, y, s)
            else:  # given: the one value of every order
                given += 1
                assert len(values) == 1, (metric, k, y, s)
                assert ours == pytest.approx(values.pop(), rel=1e-12, abs=1e-12)
    assert given > 100 and refused > 100  # both branches, often


def test_the_cases_the_issue_names():
    # 20 items; a tie of a relevant and a non-relevant item at ranks 2-3
    y = np.zeros(20, dtype=int)
    y[[0, 1, 7]] = 1
    s = np.r_[20.0, 19.0, 19.0, np.arange(17.0, 0.0, -1.0)]
    # P@k, R@k, success@k: the tie wholly inside the top 5 adds one hit in
    # every order; only a cutoff through it (k=2) depends on the order
    assert precision_at_k_score(y, s, k=5, convention="ranx") == 2 / 5
    assert recall_at_k_score(y, s, k=5, convention="ranx") == 2 / 3
    assert success_at_k_score(y, s, k=2, convention="ranx") == 1.0  # rank 1
    with pytest.raises(ValueError, match=r"'precision@2'.*ranks 2-3 .*crosses "
                                         r"the cutoff k=2"):
        precision_at_k_score(y, s, k=2, convention="ranx")
    # MRR: the first relevant item is at rank 1, the tie below it is free
    assert mean_reciprocal_rank_score(y, s, convention="ranx") == 1.0
    # ... but not when the tie holds the first relevant item
    y2 = y.copy()
    y2[0] = 0
    with pytest.raises(ValueError, match=r"'mrr'.*ranks 2-3 .*holds the first "
                                         r"relevant item"):
        mean_reciprocal_rank_score(y2, s, convention="ranx")
    # MAP and NDCG: any mixed tie changes them
    with pytest.raises(ValueError, match=r"'map'.*ranks 2-3"):
        mean_average_precision_score(y, s, convention="ranx")
    with pytest.raises(ValueError, match=r"'ndcg@3'.*ranks 2-3 whose grades"):
        ndcg_score(y, s, k=3, convention="ranx")
    assert ndcg_score(y, s, k=1, convention="ranx") == 1.0


def test_bpref_and_r_precision_rules():
    # R = 2 relevant, N = 18 non-relevant: min(N, R) = 2.  A mixed tie below
    # two non-relevant items: every relevant item in it has n >= 2 above,
    # so it scores 0 in every order
    y = np.zeros(20, dtype=int)
    y[[0, 4]] = 1
    s = np.r_[20.0, 19.0, 18.0, 17.0, 17.0, np.arange(15.0, 0.0, -1.0)]
    # relevant at rank 1 (n = 0): 1; the tied one (n >= 2): 0
    assert bpref_score(y, s, convention="ranx") == pytest.approx(0.5, rel=1e-12)
    # R-precision is P@2: the tie at ranks 4-5 is below rank R = 2
    assert r_precision_score(y, s, convention="ranx") == 0.5
    # one non-relevant item above the tie: n is 1 or 2, min(n, 2) changes
    s2 = np.r_[20.0, 19.0, 17.0, 17.0, 17.0, np.arange(15.0, 0.0, -1.0)]
    with pytest.raises(ValueError, match=r"'bpref'.*fewer than min\(R, N\)"):
        bpref_score(y, s2, convention="ranx")


def test_the_size_counts_retrieved_items_only():
    # 15 retrieved items tied (ranx sorts them with an insertion sort: run
    # order) and 5 judged items not retrieved: given, in run order
    y = np.r_[0, 1, np.zeros(13, dtype=int), 1, 1, 0, 0, 0]
    s = np.r_[np.ones(15), np.full(5, -np.inf)]
    assert RANX_STABLE_SIZE == 15
    assert mean_reciprocal_rank_score(y, s, convention="ranx") == 0.5
    # one more retrieved item: ranx's order is its own
    with pytest.raises(ValueError, match="16 retrieved items"):
        mean_reciprocal_rank_score(y, np.r_[np.ones(16), np.full(4, -np.inf)],
                                   convention="ranx")


def test_a_relevance_threshold_sets_what_a_tie_must_differ_in():
    # grades 1 and 0 tied across k = 5: relevant differs at rel=1, not at rel=2
    y = np.r_[2, 2, 0, 0, 1, 0, np.zeros(14, dtype=int)]
    s = np.r_[np.arange(20.0, 16.0, -1.0), 5.0, 5.0, np.arange(4.0, -10.0, -1.0)]
    got = ranking_report(y, s, metrics=["P(rel=2)@5"], convention="ranx",
                         output="dict")
    assert got == {"P(rel=2)@5": 2 / 5}
    with pytest.raises(ValueError, match=r"'precision@5'.*relevance \(y_true > 0\)"):
        ranking_report(y, s, metrics=["precision@5"], convention="ranx")
    with pytest.raises(ValueError, match=r"relevance \(y_true >= 1\)"):
        ranking_report(y, s, metrics=["P(rel=1)@5"], convention="ranx")


# ---------------------------------------------------------------------------
# LightGBM lambdarank predictions of a small learning-to-rank set, and ranx
# ---------------------------------------------------------------------------
def _ltr_set(seed, n_queries):
    """Queries of 5-25 documents, three features of three levels (so that the
    model's scores tie), grades 0-3 from a noisy utility."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(5, 26, n_queries)
    groups = np.repeat(np.arange(n_queries), sizes)
    X = rng.integers(0, 3, (len(groups), 3)).astype(float)
    utility = X @ [1.0, 0.6, 0.3] + rng.normal(0, 0.8, len(groups))
    return X, np.digitize(utility, [1.8, 2.8, 3.6]), groups, sizes


def _lambdarank_predictions():
    lgb = pytest.importorskip("lightgbm")
    X, y, _, sizes = _ltr_set(0, 80)
    model = lgb.LGBMRanker(n_estimators=15, num_leaves=4, min_child_samples=5,
                           random_state=0, verbose=-1).fit(X, y, group=sizes)
    X, y, groups, _ = _ltr_set(1, 80)
    score = model.predict(X)
    has = np.bincount(groups, weights=y > 0) > 0  # ranx's qrels need one
    keep = has[groups]
    return y[keep], score[keep], groups[keep]


_RANX_NAMES = {"map": "map", "mrr": "mrr", "precision": "precision",
               "recall": "recall", "ndcg": "ndcg", "success": "hit_rate",
               "r_precision": "r-precision", "bpref": "bpref"}


def _bounds(metric, y, s, k):
    """The value with each tie's best items first, and last: every order of
    the ties lies between (each metric is monotone in moving a more relevant
    item up), so the two are equal exactly when no order changes it."""
    grades = list(y)
    best = y[np.lexsort((-y, -s))]
    worst = y[np.lexsort((y, -s))]
    return tuple(float(ref.value_of_ranking(metric, list(r), k, grades))
                 for r in (best, worst))


_LTR_CASES = ([(m, None) for m in ("map", "mrr", "ndcg", "r_precision", "bpref")]
              + [(m, k) for k in (1, 2, 3, 5, 10, 15, 20) for m in
                 ("map", "mrr", "precision", "recall", "ndcg", "success")])


def _per_query_cases(y, score, groups):
    """``(metric, k, group, ours or None, order-free)`` for every query of
    more than 15 items."""
    big = [g for g in np.unique(groups)
           if (groups == g).sum() > RANX_STABLE_SIZE]
    assert len(big) >= 20
    for metric, k in _LTR_CASES:
        for g in big:
            m = groups == g
            best, worst = _bounds(metric, y[m], score[m], k)
            yield (metric, k, g, _ranx(metric, y[m], score[m], k),
                   best == pytest.approx(worst, abs=1e-12))


def test_lambdarank_predictions_refused_exactly_where_ties_matter():
    y, score, groups = _lambdarank_predictions()
    given = refused = 0
    for metric, k, g, ours, order_free in _per_query_cases(y, score, groups):
        assert (ours is not None) == order_free, (metric, k, g)
        given += ours is not None
        refused += ours is None
    assert given > 300 and refused > 100


def test_lambdarank_predictions_against_ranx():
    ranx = pytest.importorskip("ranx")
    y, score, groups = _lambdarank_predictions()
    qids = [f"q{q:03d}" for q in np.unique(groups)]
    qrels = ranx.Qrels.from_dict({
        q: {f"d{i}": int(y[i]) for i in np.flatnonzero(groups == g)}
        for q, g in zip(qids, np.unique(groups))})
    run = ranx.Run.from_dict({
        q: {f"d{i}": float(score[i]) for i in np.flatnonzero(groups == g)}
        for q, g in zip(qids, np.unique(groups))})
    theirs, refused_any = {}, set()
    for metric, k, g, ours, _ in _per_query_cases(y, score, groups):
        name = _RANX_NAMES[metric] + ("" if k is None else f"@{k}")
        if name not in theirs:
            theirs[name] = dict(zip(qids, ranx.evaluate(qrels, run, name,
                                                        return_mean=False)))
        if ours is None:
            refused_any.add((metric, k))
        else:  # every number given is ranx's
            assert ours == pytest.approx(theirs[name][f"q{g:03d}"], abs=1e-12)
    # the mean over all the queries: given where no query's ties matter
    means = 0
    for metric, k in _LTR_CASES:
        name = _RANX_NAMES[metric] + ("" if k is None else f"@{k}")
        kw = {} if k is None else {"k": k}
        if (metric, k) in refused_any:
            with pytest.raises(ValueError, match="convention='ranx' cannot"):
                FUNCS[metric](y, score, groups=groups, convention="ranx", **kw)
        else:
            means += 1
            assert FUNCS[metric](y, score, groups=groups, convention="ranx",
                                 **kw) == pytest.approx(
                ranx.evaluate(qrels, run, name), abs=1e-12)
    assert means >= 5


def test_ranx_keeps_run_order_up_to_15_retrieved_items():
    ranx = pytest.importorskip("ranx")
    # 15 tied retrieved items, the relevant one 9th in the run; 3 relevant
    # items not retrieved: ranx's MRR is 1/9 and its recall@10 is 1/4
    y = np.r_[np.zeros(8, dtype=int), 1, np.zeros(6, dtype=int), 1, 1, 1]
    s = np.r_[np.ones(15), np.full(3, -np.inf)]
    qrels = ranx.Qrels.from_dict({"q": {f"d{i}": int(v) for i, v in enumerate(y)}})
    run = ranx.Run.from_dict({"q": {f"d{i}": 1.0 for i in range(15)}})
    for name, func, kw in (("mrr", mean_reciprocal_rank_score, {}),
                           ("recall@10", recall_at_k_score, {"k": 10})):
        assert func(y, s, convention="ranx", **kw) == pytest.approx(
            ranx.evaluate(qrels, run, name), abs=1e-12)
    assert mean_reciprocal_rank_score(y, s, convention="ranx") == \
        pytest.approx(1 / 9, rel=1e-12)
