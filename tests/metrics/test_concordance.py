"""The xAUC core: weighted concordant, tied and comparable pairs per group.

``weighted_concordance`` is checked against a loop over every pair written
from the definition in exact rational arithmetic, against Kendall's tau from
SciPy on tie-free data, against scikit-learn's ROC AUC on binary labels, and
on array-api-strict against its own NumPy numbers.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import kendalltau
from sklearn.metrics import roc_auc_score

from sklearn_rankeval._metrics import _concordance as _concordance
from sklearn_rankeval._metrics._concordance import weighted_concordance


# ---------------------------------------------------------------------------
# the definition, pair by pair
# ---------------------------------------------------------------------------
def pairs_by_definition(codes, y_true, y_score, w, n_groups):
    """``(concordant, tied, total)`` of every group as Fractions: for each
    pair of rows of one group with y_i > y_j, w_i * w_j goes to the total,
    and to concordant if s_i > s_j, to tied if s_i == s_j."""
    w = [Fraction(1)] * len(codes) if w is None else [Fraction(float(x)) for x in w]
    concordant = [Fraction(0)] * n_groups
    tied = [Fraction(0)] * n_groups
    total = [Fraction(0)] * n_groups
    for i in range(len(codes)):
        for j in range(len(codes)):
            if codes[i] != codes[j] or not y_true[i] > y_true[j]:
                continue
            g, weight = int(codes[i]), w[i] * w[j]
            total[g] += weight
            if y_score[i] > y_score[j]:
                concordant[g] += weight
            elif y_score[i] == y_score[j]:
                tied[g] += weight
    return concordant, tied, total


def as_float(values):
    return np.array([float(v) for v in values])


def check_exact(codes, y, s, w, n_groups):
    """Integer weights (or none): every sum is an integer below 2**53, so
    the results equal the definition exactly."""
    got = weighted_concordance(codes, y, s, w, n_groups=n_groups)
    expected = pairs_by_definition(codes, y, s, w, n_groups)
    for name, a, b in zip(("concordant", "tied", "total"), got, expected):
        assert a.dtype == np.float64 and a.shape == (n_groups,)
        assert_array_equal(a, as_float(b), err_msg=name)


def random_log(rng, sizes, n_labels, n_scores, weights="int"):
    """Groups of the given sizes (codes permuted, rows shuffled), labels and
    scores with few values (ties), integer weights with zeros."""
    n_groups = len(sizes)
    codes = np.repeat(rng.permutation(n_groups), sizes)
    n = codes.shape[0]
    y = rng.integers(0, n_labels, n).astype(float)
    s = rng.integers(0, n_scores, n) / 4.0
    w = {"int": rng.integers(0, 4, n).astype(float), "none": None,
         "float": rng.random(n) * 3}[weights]
    perm = rng.permutation(n)
    return codes[perm], y[perm], s[perm], None if w is None else w[perm]


# ---------------------------------------------------------------------------
# against the definition
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_equals_the_definition_with_ties_and_zero_weights(seed):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 12, rng.integers(1, 7))
    codes, y, s, w = random_log(rng, sizes, n_labels=int(rng.integers(1, 5)),
                                n_scores=int(rng.integers(1, 6)),
                                weights=("int", "none")[seed % 2])
    check_exact(codes, y, s, w, n_groups=len(sizes) + 2)  # two groups without rows


@settings(max_examples=150)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
                          st.integers(0, 3)), max_size=30),
       st.integers(0, 2))
def test_equals_the_definition_hypothesis(rows, extra_groups):
    # (code, label, score, weight) per row, in the order drawn
    codes = np.array([r[0] for r in rows], dtype=np.int64)
    y = np.array([r[1] for r in rows], dtype=float)
    s = np.array([r[2] for r in rows], dtype=float)
    w = np.array([r[3] for r in rows], dtype=float)
    check_exact(codes, y, s, w, n_groups=4 + extra_groups)


def test_edge_groups():
    # group 0: one row; group 1: all labels equal (no comparable pair);
    # group 2: all scores equal (every comparable pair tied); group 3: no rows;
    # group 4: zero weights only; group 5: a perfect and a reversed pair
    codes = np.array([0, 1, 1, 1, 2, 2, 2, 4, 4, 5, 5, 5, 5])
    y = np.array([1., 2., 2., 2., 0., 1., 2., 0., 1., 0., 1., 7., 3.])
    s = np.array([.5, .1, .2, .3, .4, .4, .4, .1, .2, .9, .1, .2, .3])
    w = np.array([1., 1., 2., 3., 1., 2., 3., 0., 0., 1., 1., 1., 1.])
    check_exact(codes, y, s, w, n_groups=6)
    concordant, tied, total = weighted_concordance(codes, y, s, w, n_groups=6)
    assert_array_equal(total[[0, 1, 3, 4]], 0)
    assert tied[2] == total[2] == 1 * 2 + 1 * 3 + 2 * 3


def test_many_group_sizes_are_padded():
    # more distinct sizes than the exact-size buckets take: power-of-two
    # buckets padded with zero-weight cells
    rng = np.random.default_rng(3)
    sizes = np.arange(1, 90)
    codes, y, s, w = random_log(rng, sizes, n_labels=5, n_scores=12)
    got = weighted_concordance(codes, y, s, w, n_groups=len(sizes))
    expected = pairs_by_definition(codes, y, s, w, len(sizes))
    for a, b in zip(got, expected):
        assert_array_equal(a, as_float(b))


def _ranked(codes, y, s, w, n_groups):
    """The rows grouped and, within each group, by score descending (ties
    in input order): the engine's rank order, written plainly."""
    order = np.lexsort((np.arange(len(codes)), -s, codes))
    sizes = np.bincount(codes, minlength=n_groups)
    return y[order], s[order], None if w is None else w[order], sizes


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("sizes", ["few", "many"])  # many: padded buckets
def test_rows_in_rank_order_need_no_sort(seed, sizes):
    # group_sizes: the rows come grouped and ranked (the engine's order);
    # the same exact counts as the definition on the rows in any order
    rng = np.random.default_rng(seed)
    sizes = (rng.integers(1, 12, rng.integers(1, 7)) if sizes == "few"
             else rng.permutation(np.arange(1, 80)))
    codes, y, s, w = random_log(rng, sizes, n_labels=int(rng.integers(1, 5)),
                                n_scores=int(rng.integers(1, 9)),
                                weights=("int", "none")[seed % 2])
    n_groups = len(sizes)
    expected = pairs_by_definition(codes, y, s, w, n_groups)
    ry, rs, rw, group_sizes = _ranked(codes, y, s, w, n_groups)
    got = weighted_concordance(None, ry, rs, rw, n_groups=n_groups,
                               group_sizes=group_sizes)
    for name, a, b in zip(("concordant", "tied", "total"), got, expected):
        assert_array_equal(a, as_float(b), err_msg=name)


def test_rows_in_rank_order_array_api():
    xs = pytest.importorskip("array_api_strict")
    rng = np.random.default_rng(11)
    sizes = np.arange(1, 40)
    codes, y, s, w = random_log(rng, sizes, n_labels=4, n_scores=6)
    ry, rs, rw, group_sizes = _ranked(codes, y, s, w, len(sizes))
    got = weighted_concordance(
        None, *(xs.asarray(a) for a in (ry, rs, rw)), n_groups=len(sizes),
        xp=xs, group_sizes=xs.asarray(group_sizes))
    for a, b in zip(got, pairs_by_definition(codes, y, s, w, len(sizes))):
        assert_array_equal(np.asarray(a), as_float(b))


def test_large_group_many_rank_bits():
    # one group of 600 rows with 300 distinct scores (9 bits of ranks) and a
    # few small ones; integer weights, so the sums are exact
    rng = np.random.default_rng(5)
    codes, y, s, w = random_log(rng, [600, 3, 40], n_labels=50, n_scores=300)
    check_exact(codes, y, s, w, n_groups=3)


def test_without_packed_keys(monkeypatch):
    # the stable argsorts taken where the packed int64 keys would not fit
    monkeypatch.setattr(_concordance, "_KEY_BITS", 0)
    rng = np.random.default_rng(6)
    codes, y, s, w = random_log(rng, [9, 1, 4, 30, 30], n_labels=4, n_scores=7)
    check_exact(codes, y, s, w, n_groups=6)


def test_float_weights():
    rng = np.random.default_rng(7)
    codes, y, s, w = random_log(rng, [1, 5, 17, 30, 2], n_labels=4, n_scores=6,
                                weights="float")
    got = weighted_concordance(codes, y, s, w, n_groups=5)
    expected = pairs_by_definition(codes, y, s, w, 5)
    for a, b in zip(got, expected):
        assert_allclose(a, as_float(b), rtol=1e-13, atol=0)


def test_infinite_scores_and_labels():
    codes = np.zeros(5, dtype=np.int64)
    y = np.array([np.inf, 1.0, -np.inf, 1.0, 2.0])
    s = np.array([-np.inf, np.inf, 0.0, -np.inf, np.inf])
    check_exact(codes, y, s, None, n_groups=1)


def test_order_and_codes_of_other_groups_do_not_matter():
    # a group's numbers in a large shuffled log equal the group alone
    rng = np.random.default_rng(11)
    sizes = rng.integers(1, 40, 3000)
    codes, y, s, w = random_log(rng, sizes, n_labels=6, n_scores=20,
                                weights="float")
    got = weighted_concordance(codes, y, s, w, n_groups=len(sizes))
    for g in rng.choice(len(sizes), 20, replace=False):
        m = codes == g
        alone = weighted_concordance(np.zeros(m.sum(), dtype=int), y[m], s[m], w[m],
                                     n_groups=1)
        for a, b in zip(got, alone):
            assert_allclose(a[g], b[0], rtol=1e-12, atol=0)


# ---------------------------------------------------------------------------
# against SciPy and scikit-learn
# ---------------------------------------------------------------------------
def test_no_ties_is_kendall_tau():
    # continuous labels and scores: (C + T/2) / N = (1 + tau_a) / 2, and
    # without ties tau_a = SciPy's tau-b
    rng = np.random.default_rng(2)
    sizes = [2, 3, 50, 400, 1000]
    codes = np.repeat(np.arange(len(sizes)), sizes)
    n = codes.shape[0]
    s = rng.normal(size=n)
    y = np.exp(s + rng.normal(size=n))
    perm = rng.permutation(n)
    codes, y, s = codes[perm], y[perm], s[perm]
    concordant, tied, total = weighted_concordance(codes, y, s, n_groups=len(sizes))
    assert_array_equal(tied, 0)
    for g, size in enumerate(sizes):
        m = codes == g
        tau = kendalltau(y[m], s[m])[0]  # (.statistic: scipy >= 1.10)
        assert total[g] == size * (size - 1) / 2
        assert_allclose((concordant[g] + tied[g] / 2) / total[g], (1 + tau) / 2,
                        rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_binary_labels_are_roc_auc(seed):
    rng = np.random.default_rng(seed)
    codes, y, s, w = random_log(rng, rng.integers(2, 60, 30), n_labels=2,
                                n_scores=5, weights="float")
    w = w + 0.1
    concordant, tied, total = weighted_concordance(codes, y, s, w, n_groups=30)
    for g in range(30):
        m = codes == g
        if len(np.unique(y[m])) < 2:
            assert total[g] == 0
            continue
        assert_allclose((concordant[g] + tied[g] / 2) / total[g],
                        roc_auc_score(y[m], s[m], sample_weight=w[m]), rtol=1e-12)


# ---------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------
def test_inputs_are_not_modified():
    rng = np.random.default_rng(4)
    arrays = random_log(rng, [5, 8, 1], n_labels=3, n_scores=4)
    copies = [a.copy() for a in arrays]
    for a in arrays:
        a.setflags(write=False)  # an in-place write would raise
    weighted_concordance(*arrays, n_groups=3)
    for a, b in zip(arrays, copies):
        assert_array_equal(a, b)


def test_no_rows():
    empty = np.array([])
    for out in weighted_concordance(np.array([], dtype=int), empty, empty,
                                    n_groups=3):
        assert_array_equal(out, np.zeros(3))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"y_true": np.zeros(3)}, ValueError, "y_true must be 1-D"),
    ({"sample_weight": np.ones(5)}, ValueError, "sample_weight must be 1-D"),
    ({"codes": np.array([0, 1, 2, 3])}, ValueError, r"codes must lie in 0 \.\. n_groups - 1 = 2, got values in 0 \.\. 3"),
    ({"codes": np.array([0, -1, 0, 0])}, ValueError, "codes must lie"),
    ({"codes": np.zeros(4)}, TypeError, "codes must hold integers"),
    ({"n_groups": 2.0}, TypeError, "n_groups must be an int"),
    ({"n_groups": -1}, ValueError, "n_groups must be >= 0"),
])
def test_bad_input(kwargs, error, match):
    args = {"codes": np.array([0, 1, 0, 2]), "y_true": np.zeros(4),
            "y_score": np.zeros(4), "sample_weight": None, "n_groups": 3}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        weighted_concordance(args.pop("codes"), args.pop("y_true"),
                             args.pop("y_score"), **args)


# ---------------------------------------------------------------------------
# Array API
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("sizes", [[1, 7, 3, 12, 2], list(range(1, 80))])
def test_array_api_strict_gives_the_same_numbers(sizes):
    xs = pytest.importorskip("array_api_strict")
    rng = np.random.default_rng(8)
    codes, y, s, w = random_log(rng, sizes, n_labels=4, n_scores=9)
    expected = pairs_by_definition(codes, y, s, w, len(sizes) + 1)
    got = weighted_concordance(xs.asarray(codes), xs.asarray(y), xs.asarray(s),
                               xs.asarray(w), n_groups=len(sizes) + 1, xp=xs)
    for a, b in zip(got, expected):
        assert isinstance(a, type(xs.asarray(0.0)))
        assert_array_equal(np.asarray(a), as_float(b))
