"""The registry's finalize functions on hand-made summed statistics.

The pooled CTR finalizers (normalized entropy, ECE, PCOC) and the list
metrics' finalize functions (coverage, Gini, entropy, novelty and the
per-user means of ARP, long tail and ILD), each against its definition
written out by hand: the edges where a value is defined or not (one
positive, a catalog of two items, a user with exactly the items a value
needs), the messages that say why a value is undefined, the arithmetic in
float64 whatever the sums' dtype, and no NumPy warning on the way.
"""

import math
import warnings
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_rankeval._metrics import _beyond_kernels as bk
from sklearn_rankeval._metrics._calibration import ece_from_sums, pcoc_from_sums
from sklearn_rankeval._metrics._ctr_kernels import ece_finalize, ne_finalize


@contextmanager
def _quiet():
    """No NumPy warning (division by zero, invalid value) may escape."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        yield


def _entropy(p):
    return -(p * math.log(p) + (1 - p) * math.log(1 - p))


# ---------------------------------------------------------------------------
# the pooled CTR finalizers
# ---------------------------------------------------------------------------
def test_normalized_entropy_of_summed_statistics():
    # (sum w*CE, positives, negatives): CE over the base rate's entropy
    ce, pos, neg = 30.0, 10.0, 40.0
    expected = ce / (50 * _entropy(0.2))
    got = ne_finalize(np.array([ce, pos, neg]))
    assert got == pytest.approx(expected, rel=1e-15)
    assert isinstance(got, np.float64) and not isinstance(got, np.ndarray)
    columns = ne_finalize(np.array([[ce, 5.0], [pos, 1.0], [neg, 3.0]]))
    assert columns.shape == (2,)
    assert columns[1] == pytest.approx(5.0 / (4 * _entropy(0.25)), rel=1e-15)


@pytest.mark.parametrize("pos, neg", [(0.0, 7.0), (7.0, 0.0), (0.0, 0.0)])
def test_normalized_entropy_without_both_classes_is_nan(pos, neg):
    # one class only: the base entropy is 0, the value undefined (not inf)
    with _quiet():
        got = ne_finalize(np.array([2.5, pos, neg]))
        many = ne_finalize(np.array([[2.5, 1.0], [pos, 1.0], [neg, 1.0]]))
    assert math.isnan(got)
    assert math.isnan(many[0]) and many[1] == pytest.approx(1.0 / (2 * _entropy(0.5)))


def _ece(W, SP, SY):
    """sum_b (W_b / W) |SP_b / W_b - SY_b / W_b| over the bins with weight."""
    total = sum(W)
    return sum(w / total * abs(sp / w - sy / w)
               for w, sp, sy in zip(W, SP, SY) if w > 0)


def test_ece_of_summed_bin_statistics():
    W, SP, SY = [2.0, 0.0, 3.0], [0.5, 0.0, 2.4], [1.0, 0.0, 2.0]
    got = ece_finalize(np.array(W + SP + SY))
    assert got == pytest.approx(_ece(W, SP, SY), rel=1e-15)
    assert isinstance(got, np.float64) and not isinstance(got, np.ndarray)
    # a total weight below 1 (sample weights) is a weight like any other
    small = [0.25, 0.0, 0.25]
    with _quiet():
        value = ece_from_sums(small, [0.1, 0.0, 0.2], [0.0, 0.0, 0.25])
        empty = ece_from_sums([0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    assert value == pytest.approx(_ece(small, [0.1, 0.0, 0.2], [0.0, 0.0, 0.25]),
                                  rel=1e-15)
    assert math.isnan(empty)


def test_pcoc_of_summed_statistics():
    with _quiet():
        assert pcoc_from_sums(3.0, 4.0) == 0.75
        assert pcoc_from_sums(0.3, 0.5) == pytest.approx(0.6, rel=1e-15)
        none = pcoc_from_sums(1.0, 0.0)  # no observed click: undefined
        both = pcoc_from_sums(np.array([1.0, 0.0]), np.array([0.0, 0.0]))
    assert math.isnan(float(none)) and none.dtype == np.float64
    assert np.isnan(both).all()


def test_finalizers_compute_in_float64_whatever_the_sums_dtype():
    # float32 sums: the ratios of the float64 values, not float32 arithmetic
    ce, pos, neg = np.float32(1 / 3), np.float32(0.1), np.float32(0.7)
    ne = ne_finalize(np.array([ce, pos, neg], dtype=np.float32))
    assert ne.dtype == np.float64
    assert ne == pytest.approx(float(ce) / -(float(pos) * math.log(
        float(pos) / (float(pos) + float(neg))) + float(neg) * math.log(
        float(neg) / (float(pos) + float(neg)))), rel=1e-14)
    W, SP, SY = ([np.float32(x) for x in v] for v in
                 ([0.1, 0.3], [0.07, 0.2], [0.03, 0.1]))
    got = ece_finalize(np.array(W + SP + SY, dtype=np.float32))
    assert got.dtype == np.float64
    assert got == pytest.approx(_ece(*([float(x) for x in v] for v in (W, SP, SY))),
                                rel=1e-14)
    direct = ece_from_sums(*(np.array(v, dtype=np.float32) for v in (W, SP, SY)))
    assert direct.dtype == np.float64 and direct == got
    pcoc = pcoc_from_sums(np.float32(0.1), np.float32(0.3))
    assert pcoc.dtype == np.float64
    assert pcoc == pytest.approx(float(np.float32(0.1)) / float(np.float32(0.3)),
                                 rel=1e-15)
    counts = np.array([0.1, 0.7, 0.2], dtype=np.float32)
    c = sorted(float(x) for x in counts)
    gini = sum((2 * j - 4) * x for j, x in enumerate(c, 1)) / (3 * sum(c))
    assert bk.gini_index(counts) == pytest.approx(gini, rel=1e-14)


# ---------------------------------------------------------------------------
# the list metrics' finalize functions
# ---------------------------------------------------------------------------
def _parts(item_count, user_stats=None, *, sure=None, popularity=True,
           features=True, user=None):
    item_count = np.asarray(item_count, dtype=np.float64)
    stats = (np.zeros((5, 0)) if user_stats is None
             else np.asarray(user_stats, dtype=np.float64))
    return bk.BeyondPartials(
        item_count=item_count,
        item_sure=np.asarray(item_count if sure is None else sure, dtype=np.float64),
        item_log_miss=np.zeros(item_count.shape[0]),
        user=np.arange(stats.shape[1]) if user is None else np.asarray(user),
        user_stats=stats, has_popularity=popularity, has_features=features)


def _pop(interactions):
    return SimpleNamespace(interactions=np.asarray(interactions, dtype=np.int64))


def test_defaults_of_the_options_are_the_documented_ones():
    parts = _parts([2.0, 0.0, 1.0, 1.0])
    pop = _pop([3, 0, 0, 1])
    assert bk.coverage(parts, "c", {}, pop) == 3 / 4  # over the catalog
    assert bk.coverage(parts, "c", {}, pop) == bk.coverage(
        parts, "c", {"denominator": "catalog"}, pop)
    assert bk.coverage(parts, "c", {"denominator": "train_items"}, pop) == 3 / 2
    assert bk.gini(parts, "g", {}) == bk.gini_index([2.0, 0.0, 1.0, 1.0])
    p = np.array([0.5, 0.25, 0.25])
    assert bk.entropy(parts, "e", {}) == pytest.approx(-(p * np.log2(p)).sum())


def test_gini_as_a_diversity_from_two_items_on():
    # counts (1, 3): G = ((2-3) 1 + (4-3) 3) / (2 * 4) = 1/4; 1 - G n/(n-1) = 1/2
    parts = _parts([3.0, 1.0])
    assert bk.gini(parts, "gini@5", {"form": "equality_0"}) == 0.25
    assert bk.gini(parts, "gini@5", {"form": "diversity"}) == 0.5
    with pytest.warns(UndefinedMetricWarning, match=r"^gini@5 is undefined: as a "
                      r"diversity, for a catalog of one item \(n - 1 = 0\); "
                      r"returning nan\.$"):
        assert math.isnan(bk.gini(_parts([4.0]), "gini@5", {"form": "diversity"}))


@pytest.mark.parametrize("finalize, options", [
    (bk.gini, {"form": "equality_0"}), (bk.entropy, {"unit": "bits"})])
def test_catalog_metrics_of_nothing_recommended_say_why(finalize, options):
    with pytest.warns(UndefinedMetricWarning, match=r"^m@3 is undefined: no "
                      r"evaluated user has an item in their top-K list \(no "
                      r"list, or only items scored -inf\); returning nan\.$"):
        assert math.isnan(finalize(_parts([0.0, 0.0]), "m@3", options))


def test_coverage_of_training_items_without_training_says_why():
    with pytest.warns(UndefinedMetricWarning, match=r"^coverage@3 is undefined: no "
                      r"training interaction, so no training item to cover; "
                      r"returning nan\.$"):
        got = bk.coverage(_parts([1.0, 0.0]), "coverage@3",
                          {"denominator": "train_items"}, _pop([0, 0]))
    assert math.isnan(got)
    with pytest.raises(ValueError, match=r"^popularity covers 3 items but the "
                       r"partials 2\.$"):
        bk.coverage(_parts([1.0, 0.0]), "c", {}, _pop([1, 0, 0]))


def test_novelty_of_interactions_from_one_row_and_one_recommendation_on():
    # nov_i = -log2(interactions_i / total), 0 for an unseen item; the mean
    # over the (expected) recommendations, sum_i c_i nov_i / sum_i c_i
    options = {"variant": "interactions"}
    got = bk.novelty(_parts([1.0, 0.0]), "n", options, _pop([1, 3]))
    assert got == pytest.approx(-math.log2(1 / 4), rel=1e-15)
    one_row = bk.novelty(_parts([0.5, 1.5]), "n", options, _pop([1, 0]))
    assert one_row == 0.25 * -math.log2(1.0) + 0.75 * 0.0  # = 0: seen by all
    half = bk.novelty(_parts([0.5, 0.0]), "n", options, _pop([2, 2]))
    assert half == pytest.approx(1.0, rel=1e-15)
    for count, interactions in [([0.0, 0.0], [1, 2]), ([1.0, 1.0], [0, 0])]:
        with pytest.warns(UndefinedMetricWarning, match=r"^novelty@5 is undefined: "
                          r"no recommendation or no training interaction; "
                          r"returning nan\.$"):
            assert math.isnan(bk.novelty(_parts(count), "novelty@5", options,
                                         _pop(interactions)))
    with pytest.raises(ValueError, match="popularity covers 1 items"):
        bk.novelty(_parts([1.0, 0.0]), "n", options, _pop([4]))


def test_per_user_means_from_the_least_list_on():
    # rows: size, sum m*novelty, sum m*popularity, sum m*tail, sum of pair cosines
    stats = [[1.0, 2.0, 0.0, 3.0, 0.0, 0.0],
             [2.0, 5.0, 0.0, 6.0, 0.5, 0.0],
             [4.0, 9.0, 0.0, 3.0, 0.5, 0.0],
             [1.0, 1.0, 0.0, 0.0, 0.5, 0.0],
             [0.0, 1.0, 0.0, 1.5, 0.0, 0.0]]  # users 4, 5: empty lists
    parts = _parts([1.0], stats)
    with _quiet():
        novelty = bk.novelty(parts, "n", {"variant": "users"})
        arp = bk.arp(parts, "a", {})
        tail = bk.long_tail(parts, "t", {})
        ild = bk.ild(parts, "i", {})
    # a user of one (expected) item has a novelty, an ARP and a tail share
    np.testing.assert_array_equal(novelty.defined,
                                  [True, True, False, True, False, False])
    np.testing.assert_allclose(novelty.value[[0, 1, 3]], [2.0, 2.5, 2.0])
    np.testing.assert_allclose(arp.value[[0, 1, 3]], [4.0, 4.5, 1.0])
    np.testing.assert_allclose(tail.value[[0, 1, 3]], [1.0, 0.5, 0.0])
    assert np.isnan(novelty.value[[2, 4, 5]]).all()
    assert np.isnan(arp.value[[4, 5]]).all()
    # ILD needs two items: 1 - cosines / (|L| (|L| - 1)), from exactly 2 on
    np.testing.assert_array_equal(ild.defined,
                                  [False, True, False, True, False, False])
    np.testing.assert_allclose(ild.value[[1, 3]], [1 - 1.0 / 2, 1 - 1.5 / 6])
    assert np.isnan(ild.value[[0, 2, 4, 5]]).all()


@pytest.mark.parametrize("finalize, name", [
    (bk.novelty, "novelty@4"), (bk.arp, "arp@4"), (bk.long_tail, "long_tail@4"),
    (bk.ild, "ild@4")])
def test_per_user_metrics_name_themselves_when_their_statistics_are_missing(
        finalize, name):
    parts = _parts([1.0], np.ones((5, 2)), popularity=False, features=False)
    with pytest.raises(ValueError, match=rf"^{name}: its statistics were not "
                       r"computed \(the partials lack popularity or item "
                       r"features\)\.$"):
        finalize(parts, name, {"variant": "users"})
    twice = _parts([1.0], np.ones((5, 2)), user=[3, 3])
    with pytest.raises(ValueError, match=r"^a user has rows in several chunks: "
                       r"the rows of one user must be in one chunk \(partition "
                       r"by user\)\.$"):
        finalize(twice, name, {"variant": "users"})


def test_merging_list_partials_checks_what_it_adds():
    a = _parts([1.0, 0.0], np.ones((5, 1)), user=[0])
    b = _parts([0.5, 2.0], np.full((5, 2), 2.0), user=[1, 2])
    merged = bk.merge([a, b])
    np.testing.assert_array_equal(merged.item_count, [1.5, 2.0])
    np.testing.assert_array_equal(merged.user, [0, 1, 2])
    np.testing.assert_array_equal(merged.user_stats[:, 1:], 2.0)
    with pytest.raises(ValueError, match=r"^merge needs at least one "
                       r"BeyondPartials\.$"):
        bk.merge([])
    with pytest.raises(ValueError, match=r"^the partials cover different "
                       r"catalogs: \[\(2,\), \(3,\)\]\.$"):
        bk.merge([a, _parts([1.0, 0.0, 0.0])])
    with pytest.raises(ValueError, match=r"^the partials differ in whether "
                       r"popularity / item_features were given\.$"):
        bk.merge([a, _parts([1.0, 0.0], features=False)])


def test_popularity_of_no_training_rows():
    pop = bk.popularity([], [], n_items=3)
    np.testing.assert_array_equal(pop.interactions, [0, 0, 0])
    np.testing.assert_array_equal(pop.users, [0, 0, 0])
    assert pop.users.dtype == np.int64 and pop.n_users == 0
