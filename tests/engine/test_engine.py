"""The ranking engine: canonical form, segment helpers, layouts."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_rankeval._engine import discount_cumsum, rank_groups
from tests.conftest import make_grouped_data

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
    rg = rank_groups(y, s, groups=g, merge=False)
    got = list(zip(rg.labels[rg.block_group], rg.block_start, rg.block_size,
                   rg.block_n_rel, rg.block_gain))
    expected = blocks_by_hand(y, s, g)
    assert [tuple(map(float, b)) for b in got] == [tuple(map(float, b)) for b in expected]
    # the -inf block is the last of its group and flagged as not retrieved
    assert (~rg.block_retrieved).sum() == len(np.unique(g[np.isneginf(s)]))
    assert_array_equal(rg.group_size, np.unique(g, return_counts=True)[1])


@pytest.mark.parametrize("ids", [
    [2**31 - 1, 2**31, 2**31 + 1, 0],  # ids near 2**31
    [0, 2**32, 2**32 - 1, 7],  # 33 bits of group codes
    [-(2**31), 2**31 - 1, 5, -5],
])
def test_wide_group_ids(ids):
    rng = np.random.default_rng(2)
    g = np.repeat(np.array(ids, dtype=np.int64), 7)
    y = rng.integers(0, 3, len(g))
    s = np.round(rng.random(len(g)), 1)  # ties
    s[::5] = -np.inf
    perm = rng.permutation(len(g))
    y, s, g = y[perm], s[perm], g[perm]
    rg = rank_groups(y, s, groups=g, merge=False)
    got = list(zip(rg.labels[rg.block_group], rg.block_start, rg.block_size,
                   rg.block_n_rel, rg.block_gain))
    assert ([tuple(map(float, b)) for b in got]
            == [tuple(map(float, b)) for b in blocks_by_hand(y, s, g)])
    assert_array_equal(rg.labels, np.unique(g))


def test_equal_floats_differing_in_the_last_bit_are_not_tied():
    a = 0.1
    b = np.nextafter(a, 1)
    y = np.array([1, 0, 0, 1])
    s = np.array([a, b, a, b])
    g = np.array([0, 0, 1, 1])
    rg = rank_groups(y, s, groups=g, merge=False)
    assert rg.block_size.tolist() == [1, 1, 1, 1]
    assert rg.block_n_rel.tolist() == [0, 1, 1, 0]
    # -0.0 and +0.0 are one score: one tie block
    rg = rank_groups([1, 0], [-0.0, 0.0])
    assert rg.block_size.tolist() == [2]


@pytest.mark.parametrize("seed", range(5))
def test_merged_blocks_are_the_runs_of_blocks_without_relevant_items(seed):
    y, s, g = make_grouped_data(seed, n_groups=20, max_size=15, n_levels=12)
    y = np.where(y == 2, 2, 0)  # a third relevant
    s = s.copy()
    s[::5] = -np.inf
    full = rank_groups(y, s, groups=g, merge=False)
    rg = rank_groups(y, s, groups=g)
    # by hand: a block starts a merged block unless it and the block before
    # it are of one group, both without relevant items, both retrieved or not
    b = full.block_group
    rel, ret = full.block_n_rel > 0, full.block_retrieved
    start = np.ones(len(b), dtype=bool)
    start[1:] = ((b[1:] != b[:-1]) | rel[1:] | rel[:-1] | (ret[1:] != ret[:-1]))
    first = np.flatnonzero(start)
    assert rg.block_start.tolist() == full.block_start[first].tolist()
    assert rg.block_size.tolist() == np.add.reduceat(full.block_size, first).tolist()
    assert rg.block_n_rel.tolist() == full.block_n_rel[first].tolist()
    assert rg.block_retrieved.tolist() == ret[first].tolist()
    assert_allclose(rg.block_gain, np.add.reduceat(full.block_gain, first))
    assert len(first) < len(b)
    for k in (None, 3):
        assert_allclose(rg.ideal_dcg(k), full.ideal_dcg(k))


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


def test_string_ids_factorized_once_per_array_and_again_when_changed(monkeypatch):
    from sklearn_rankeval._engine import _group_ids

    calls = []
    real = _group_ids._factorize
    monkeypatch.setattr(_group_ids, "_factorize",
                        lambda g, n: calls.append(n) or real(g, n))
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    g = np.array(["b", "b", "a", "a", "c", "c"], dtype=object)
    first = rank_groups(y, s, groups=g)
    again = rank_groups(y, s, groups=g)
    assert len(calls) == 1
    assert first.labels.tolist() == again.labels.tolist() == ["a", "b", "c"]
    assert_array_equal(first.block_n_rel, again.block_n_rel)
    g[4:] = "a"  # changed in place: factorized again, the new groups
    changed = rank_groups(y, s, groups=g)
    assert len(calls) == 2
    assert changed.labels.tolist() == ["a", "b"]
    assert changed.group_size.tolist() == [4, 2]
    # a copy with the same ids is another array
    rank_groups(y, s, groups=g.copy())
    assert len(calls) == 3


# ---------------------------------------------------------------------------
# one encoding, two views: the ranking and its rows unranked
# ---------------------------------------------------------------------------
def key(*columns):
    """The rows of some columns as a sorted list (a multiset of rows)."""
    return sorted(zip(*(c.tolist() for c in columns)))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ids", ["int", "str"])
def test_unranked_view_holds_the_rows_of_the_same_groups(weighted, ids):
    rng = np.random.default_rng(7)
    n = 300
    codes = rng.integers(0, 25, n)
    g = codes if ids == "int" else np.array([f"q{c:02d}" for c in codes])
    y = rng.integers(0, 3, n)
    s = rng.integers(0, 6, n) / 5.0  # ties
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    p = rng.random(n)
    rg = rank_groups(y, s, groups=g, sample_weight=w)
    rows = rg.unranked
    labels = np.unique(g)
    assert_array_equal(rg.labels, labels)
    assert_array_equal(rows.group_size, [np.sum(g == gid) for gid in labels])
    assert_array_equal(rows.group, np.repeat(np.arange(len(labels)),
                                             rows.group_size))
    # every group's rows, as a multiset (the order within a group is the
    # ranker's: input order for the compiled pass, rank order otherwise)
    for i, gid in enumerate(labels):
        mine = rows.group == i
        theirs = g == gid
        assert key(rows.y_true[mine], rows.y_score[mine],
                   (rows.weight if weighted else rows.y_score)[mine]) == key(
            y[theirs], s[theirs], (w if weighted else s)[theirs])
    assert rows.probabilities is rows.y_score or np.array_equal(
        rows.probabilities, rows.y_score)
    # in rank order: the same rows of each group, scores non-increasing
    # (tied rows in the ranker's order)
    ry, rs, rw = rows.in_rank_order()
    rw = rs if rw is None else rw
    assert not weighted or rows.in_rank_order()[2] is not None
    for i, gid in enumerate(labels):
        mine = rows.group == i
        assert (np.diff(rs[mine]) <= 0).all()
        assert key(ry[mine], rs[mine], rw[mine]) == key(
            y[g == gid], s[g == gid], (w if weighted else s)[g == gid])
    # other probabilities for the same rows (recalibrated ones): the same
    # groups, the same place of each row
    from sklearn_rankeval._engine import check_inputs, rank

    rg2 = rank(*check_inputs(y, s, groups=g, sample_weight=w), merge=True,
               probabilities=p)
    rows2 = rg2.unranked
    assert_array_equal(rows2.y_score, rows.y_score)
    for i, gid in enumerate(labels):
        mine = rows2.group == i
        assert sorted(zip(rows2.y_score[mine].tolist(),
                          rows2.probabilities[mine].tolist())) == sorted(
            zip(s[g == gid].tolist(), p[g == gid].tolist()))
