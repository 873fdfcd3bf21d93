"""The ranking engine: canonical form, segment helpers, layouts."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_rankeval import _engine
from sklearn_rankeval._engine import discount_cumsum, rank_groups

from .conftest import make_grouped_data

pytestmark = pytest.mark.usefixtures("engine_path")


def blocks_by_hand(y, s, g):
    """Tie blocks of each group from a plain loop: (group, start, size, n_rel, gain)."""
    out = []
    for gid in np.unique(g):
        m = g == gid
        ys, ss = y[m], s[m]
        start = 0
        for value in sorted(set(ss.tolist()), reverse=True):
            t = ss == value
            out.append((gid, start, t.sum(), (ys[t] > 0).sum(), ys[t].sum()))
            start += t.sum()
    return out


@pytest.mark.parametrize("seed", range(5))
def test_long_layout_blocks_match_a_plain_loop(seed):
    y, s, g = make_grouped_data(seed)
    s = s.copy()
    s[::7] = -np.inf
    rg = rank_groups(y, s, groups=g)
    got = list(zip(rg.labels[rg.block_group], rg.block_start, rg.block_size,
                   rg.block_n_rel, rg.block_gain))
    expected = blocks_by_hand(y, s, g)
    assert [tuple(map(float, b)) for b in got] == [tuple(map(float, b)) for b in expected]
    # the -inf block is the last of its group and flagged as not retrieved
    assert (~rg.block_retrieved).sum() == len(np.unique(g[np.isneginf(s)]))
    assert_array_equal(rg.group_size, np.unique(g, return_counts=True)[1])


def test_group_order_sorts_by_code_then_score_descending():
    rng = np.random.default_rng(0)
    codes = rng.integers(0, 50, 2000).astype(np.int64)
    score = rng.integers(0, 20, 2000) / 3
    perm, sorted_codes = _engine._group_order(codes, score, shift=11)
    assert sorted(perm.tolist()) == list(range(2000))
    assert_array_equal(sorted_codes, codes[perm])
    key = list(zip(codes[perm], -score[perm]))
    assert key == sorted(key)


def test_group_suffix_max_matches_a_loop():
    y, s, g = make_grouped_data(3, n_groups=30)
    rg = rank_groups(y, s, groups=g)
    x = np.round(np.random.default_rng(1).random(len(rg.block_group)), 1)  # repeats
    got = rg.group_suffix_max(x)
    for b in range(len(x)):
        later = (rg.block_group == rg.block_group[b]) & (np.arange(len(x)) >= b)
        assert got[b] == x[later].max()


def test_group_cumsum_and_sum():
    y, s, g = make_grouped_data(4)
    rg = rank_groups(y, s, groups=g)
    x = rg.block_size
    cs = rg.group_cumsum(x)
    for b in range(len(x)):
        same = (rg.block_group == rg.block_group[b]) & (np.arange(len(x)) <= b)
        assert cs[b] == x[same].sum()
    assert_array_equal(rg.group_sum(x), rg.group_size)


def test_discounts_match_sklearn_dcg():
    from sklearn.metrics import dcg_score

    disc = discount_cumsum(6)
    y = np.array([[3, 2, 3, 0, 1, 2]])
    s = np.array([[6, 5, 4, 3, 2, 1]])
    assert disc[0] == 0
    assert_allclose((np.diff(disc) * y[0]).sum(), dcg_score(y, s), rtol=1e-15)
    disc3 = discount_cumsum(6, k=3)
    assert_allclose((np.diff(disc3) * y[0]).sum(), dcg_score(y, s, k=3), rtol=1e-15)


def test_2d_long_and_multiclass_give_the_same_blocks_metrics():
    rng = np.random.default_rng(5)
    P = rng.integers(0, 3, (20, 4)).astype(float)
    y = rng.integers(0, 4, 20)
    y[:4] = np.arange(4)
    one_hot = np.eye(4)[y]
    mc = rank_groups(y, P)
    two_d = rank_groups(one_hot, P)
    long = rank_groups(one_hot.ravel(), P.ravel(), groups=np.repeat(np.arange(20), 4))
    for rg in (two_d, long):
        assert_array_equal(rg.group_n_rel, mc.group_n_rel)
        assert_array_equal(rg.group_size, mc.group_size)
        assert_allclose(rg.ideal_dcg(2), mc.ideal_dcg(2))
    # the relevant block sits at the same place in every layout
    for rg in (two_d, long, mc):
        rel = rg.block_n_rel > 0
        assert_array_equal(rg.block_start[rel], mc.block_start[mc.block_n_rel > 0])
        assert_array_equal(rg.block_size[rel], mc.block_size[mc.block_n_rel > 0])


def test_group_ids_keep_their_type_and_sorted_order():
    y = np.array([1, 0, 1, 0])
    s = np.array([0.1, 0.2, 0.3, 0.4])
    for groups, labels in [
        (np.array([7, 7, -3, -3]), [-3, 7]),
        (np.array(["b", "b", "a", "a"]), ["a", "b"]),
        (np.array([2**40, 2**40, 5, 5], dtype=np.uint64), [5, 2**40]),
        (np.array([True, True, False, False]), [0, 1]),
    ]:
        assert rank_groups(y, s, groups=groups).labels.tolist() == labels


def test_single_row_and_single_group():
    rg = rank_groups([1], [0.5])
    assert rg.n_groups == 1 and rg.block_size.tolist() == [1]
    rg = rank_groups([0, 1, 1], [2, 2, 2], groups=["q"] * 3)
    assert rg.block_size.tolist() == [3] and rg.block_n_rel.tolist() == [2]


def test_packed_keys_fall_back_when_the_key_does_not_fit():
    y = np.array([1, 0, 1])
    s = np.array([0.3, 0.2, 0.1])
    codes = np.array([0, 2**61, 2**61], dtype=np.int64)
    holder = [codes]
    assert _engine._rank_packed(y, s, holder, lambda c: c, 1) is None
    assert holder[0] is codes  # left for the permutation path


def test_packed_path_is_used_only_for_small_integer_grades(monkeypatch):
    calls = []
    real = _engine._rank_packed
    monkeypatch.setattr(_engine, "_rank_packed",
                        lambda *a: calls.append(a[-1]) or real(*a))
    monkeypatch.setattr(_engine, "ENGINE_PATH", "packed")
    s = np.array([0.3, 0.2, 0.1])
    rank_groups(np.array([1, 0, 3]), s)
    rank_groups(np.array([1.0, 0.0, 255.0]), s)
    rank_groups(np.array([1.5, 0, 1]), s)  # non-integer grades
    rank_groups(np.array([1, 0, 256]), s)  # too many grade bits
    rank_groups(np.array([1, 0, 1]), s, sample_weight=[1, 2, 1])  # weighted
    assert calls == [2, 8]


def test_contiguous_path_falls_back_with_many_distinct_sizes(monkeypatch):
    y, s, g = make_grouped_data(21)
    order = np.argsort(g, kind="stable")
    y, s, g = y[order], s[order], g[order]  # grouped rows: the contiguous path
    expected = rank_groups(y, s, groups=g)
    monkeypatch.setattr(_engine, "_MAX_SIZE_BUCKETS", 1)
    assert _engine._rank_contiguous(y, s, g.astype(np.int64), None, lambda c: c) is None
    got = rank_groups(y, s, groups=g)
    for name in ("block_group", "block_start", "block_size", "block_n_rel"):
        assert_array_equal(getattr(got, name), getattr(expected, name))


def test_fractional_gains_ideal_dcg_matches_sklearn():
    from sklearn.metrics import ndcg_score as sk_ndcg

    from sklearn_rankeval import ndcg_score

    rng = np.random.default_rng(3)
    Y = rng.random((20, 7)) * (rng.random((20, 7)) < 0.5)
    S = rng.integers(0, 3, (20, 7)).astype(float)
    Y[:, 0] += 0.1  # a positive gain in every row
    for k in (None, 3):
        assert_allclose(ndcg_score(Y, S, k=k), sk_ndcg(Y, S, k=k), rtol=1e-12)
        assert_allclose(
            ndcg_score(Y.ravel(), S.ravel(), groups=np.repeat(np.arange(20), 7), k=k),
            sk_ndcg(Y, S, k=k), rtol=1e-12)


@pytest.mark.parametrize("top", [12, 16, 20, 200])
def test_exponential_gain_of_large_grades(top, engine_path):
    # the DCG of 2**g - 1 written out plainly, on every engine path (the
    # packed path once took exp2 of its uint8 grades in float16)
    from sklearn_rankeval import dcg_score, expected_reciprocal_rank_score

    y = np.array([top, 0, 1, 0, 3, top - 1])
    s = np.array([0.4, 0.3, 0.2, 0.1, 0.35, 0.05])
    g = np.array([0, 1, 0, 1, 0, 1])
    got = dcg_score(y, s, groups=g, gain="exponential", average=None)
    expected = [(2.0**top - 1) + (2.0**3 - 1) / np.log2(3) + 1 / 2,
                (2.0**(top - 1) - 1) / np.log2(4)]
    assert_allclose(got, expected, rtol=1e-13)
    # ERR from its definition: sum_i R_i / i * prod_{j<i} (1 - R_j), with
    # R = (2**g - 1) / 2**max_grade (R rounds to 1 for the top grade of 200)
    err = expected_reciprocal_rank_score(y, s, groups=g, max_grade=top,
                                         average=None)

    def err_of(grades):
        out, reach = 0.0, 1.0
        for i, grade in enumerate(grades, start=1):
            stop = (2.0**grade - 1) / 2.0**top
            out += reach * stop / i
            reach *= 1 - stop
        return out

    assert_allclose(err, [err_of([top, 3, 1]), err_of([0, 0, top - 1])],
                    rtol=1e-12)
