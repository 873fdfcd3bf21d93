"""Beyond-accuracy metrics of top-N lists: the registry's statistics and
finalize (``_metrics._beyond_kernels``, ``LIST_METRICS``) and the membership
at the cut (``_recommend._lists``).

Every value is checked against ``_reference``: the lists are enumerated over
every ordering of the tied items (each user's, independently) and the metric
is computed from its definition on each realisation; ILD also against
scikit-learn's ``cosine_distances``.  Partials of halves of the users, added,
must give the values of one pass.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics.pairwise import cosine_distances

from sklearn_rankeval._engine import grouped_descending
from sklearn_rankeval._metrics import _beyond_kernels as bk
from sklearn_rankeval._metrics._registry import LIST_METRICS
from sklearn_rankeval._recommend import _lists
from tests import _reference as ref


class bd:  # noqa: N801 - the module these tests were written for
    """The membership and the statistics under one name, each registry
    metric finalized by its own ``finalize`` (per-user values: their plain
    mean over the users where they are defined)."""

    Popularity = bk.Popularity
    partials = staticmethod(bk.partials)
    merge = staticmethod(bk.merge)
    popularity = staticmethod(bk.popularity)
    short_head = staticmethod(bk.short_head)
    grouped_descending = staticmethod(grouped_descending)

    @staticmethod
    def membership(user, score, *, k):
        return _lists.membership(np.asarray(user, dtype=np.int64),
                                 np.asarray(score, dtype=np.float64), k=k)

    @staticmethod
    def membership_from_rank(user, *, k, rank=None):
        return _lists.membership_from_rank(np.asarray(user, dtype=np.int64), k=k,
                                           rank=rank)

    @staticmethod
    def per_user_values(parts):
        out = {"user": parts.user}
        for name in ("novelty", "arp", "long_tail", "ild"):
            p = LIST_METRICS[name].finalize(parts, name, {}, None)
            out[name] = np.where(p.defined, p.value, np.nan)
        return out

    @staticmethod
    def finalize(parts, *, k, popularity=None, coverage="catalog",
                 novelty="users", entropy="bits", gini="equality_0"):
        given = {"coverage": {"denominator": coverage},
                 "novelty": {"variant": novelty}, "entropy": {"unit": entropy},
                 "gini": {"form": gini}}
        for name, opts in given.items():  # every variant checked
            LIST_METRICS[name].check_options(k=k, **opts)
        names = ["coverage", "gini", "entropy"]
        if parts.has_popularity:
            names += ["novelty", "arp", "long_tail"]
        if parts.has_features:
            names += ["ild"]
        out = {}
        for name in names:
            spec = LIST_METRICS[name]
            options = spec.check_options(k=k, **given.get(name, {}))
            if "train" in spec.needs_of(options) and popularity is None and \
                    name in ("coverage", "novelty") and not spec.per_user(options) \
                    or (name == "coverage" and options["denominator"] ==
                        "train_items" and popularity is None):
                raise ValueError(f"{name}: need popularity=")
            value = spec.finalize(parts, f"{name}@{k}", options, popularity)
            if not isinstance(value, float):
                if not value.defined.any():
                    warnings.warn(f"{name}@{k} is undefined", UndefinedMetricWarning,
                                  stacklevel=2)
                    value = math.nan
                else:
                    value = float(np.mean(value.value[value.defined]))
            out[f"{name}@{k}"] = value
        return out

NEG_INF = float("-inf")


def _case(seed, n_users=4, n_items=9, max_items=5, max_orderings=2000):
    """Recommendations ``{user: [(item, score), ...]}`` with ties across the
    cut, -inf scores, an all -inf user and items nobody gets; training pairs
    (repeats included) over part of the catalog; features with a zero row."""
    rng = np.random.default_rng(seed)
    while True:
        rec = {}
        for u in range(n_users):
            size = int(rng.integers(0, max_items + 1))
            items = rng.choice(n_items - 2, size, replace=False)  # 2 never listed
            scores = rng.integers(0, 3, size).astype(float)
            scores[rng.random(size) < 0.15] = NEG_INF
            rec[u] = [(int(i), float(s)) for i, s in zip(items, scores)]
        rec[n_users] = [(0, NEG_INF), (1, NEG_INF)]  # a user with an empty list
        count = 1
        for pairs in rec.values():
            for t in {s for _, s in pairs if s != NEG_INF}:
                count *= math.factorial(sum(s == t for _, s in pairs))
        if count <= max_orderings:
            break
    train = [(int(u), int(i)) for u, i in zip(rng.integers(0, 6, 25),
                                               rng.integers(0, n_items - 1, 25))]
    features = rng.integers(0, 3, (n_items, 4)).astype(float)
    features[3] = 0.0
    return rec, train, features


def _flat(rec, seed=0):
    """The long layout (rows shuffled): user, item, score arrays."""
    rows = [(u, i, s) for u, pairs in rec.items() for i, s in pairs]
    rows = [rows[j] for j in np.random.default_rng(seed).permutation(len(rows))]
    user = np.array([r[0] for r in rows], dtype=np.int64)
    item = np.array([r[1] for r in rows], dtype=np.int64)
    score = np.array([r[2] for r in rows], dtype=float)
    return user, item, score


def _train_arrays(train):
    return (np.array([u for u, _ in train], dtype=np.int64),
            np.array([i for _, i in train], dtype=np.int64))


def _compute(rec, train, features, k, n_items, head_share=0.8):
    user, item, score = _flat(rec)
    m = bd.membership(user, score, k=k)
    pop = bd.popularity(*_train_arrays(train), n_items=n_items)
    parts = bd.partials(user, item, m, n_items=n_items, popularity=pop,
                        item_features=features, head_share=head_share)
    return bd.finalize(parts, k=k)


def _expected(rec, train, features, k, n_items, head_share=0.8):
    counts = ref.expected_counts(rec, k, n_items)
    exp = lambda metric: float(ref.expected_over_realisations(metric, rec, k))  # noqa: E731
    return {
        f"coverage@{k}": exp(lambda lists: ref.coverage(lists, n_items)),
        f"gini@{k}": float(ref.gini_index(counts)),
        f"entropy@{k}": ref.shannon_entropy(counts),
        f"novelty@{k}": exp(lambda lists: ref.novelty(lists, train)),
        f"arp@{k}": exp(lambda lists: ref.average_popularity(lists, train)),
        f"long_tail@{k}": exp(
            lambda lists: ref.long_tail_share(lists, train, head_share)),
        f"ild@{k}": exp(lambda lists: ref.intra_list_diversity(lists, features)),
    }


# ---------------------------------------------------------------------------
# membership
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("k", [1, 2, 3, 6])
def test_membership_is_the_share_of_orderings(seed, k):
    rec, _, _ = _case(seed)
    user, item, score = _flat(rec, seed)
    m = bd.membership(user, score, k=k)
    for u, pairs in rec.items():
        probs = ref.expected_membership(pairs, k)
        for row in np.flatnonzero(user == u):
            assert Fraction(m[row]).limit_denominator(1000) == probs[item[row]]
            assert m[row] == pytest.approx(float(probs[item[row]]), abs=1e-15)


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([0.0, 1.0, 2.0, NEG_INF])),
                min_size=1, max_size=9),
       st.integers(1, 5))
def test_membership_hypothesis(rows, k):
    user = np.array([u for u, _ in rows])
    score = np.array([s for _, s in rows])
    m = bd.membership(user, score, k=k)
    for u in set(user.tolist()):
        idx = np.flatnonzero(user == u)
        pairs = [(int(j), score[j]) for j in idx]  # the row index as the item
        probs = ref.expected_membership(pairs, k)
        assert_allclose(m[idx], [float(probs[int(j)]) for j in idx], atol=1e-15)


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([0.0, 1.0, 2.0, NEG_INF])),
                min_size=1, max_size=9),
       st.integers(1, 5), st.booleans())
def test_membership_of_lists_in_rank_order(rows, k, large):
    """Rows grouped by user, scores descending: the path without a sort."""
    rows = sorted(rows, key=lambda r: (r[0], -r[1]))
    user = np.array([u + (2**60 if large else 0) for u, _ in rows])
    score = np.array([s for _, s in rows])
    assert bd.grouped_descending(user, score) is not None
    m = bd.membership(user, score, k=k)
    for u in set(user.tolist()):
        idx = np.flatnonzero(user == u)
        probs = ref.expected_membership([(int(j), score[j]) for j in idx], k)
        assert_allclose(m[idx], [float(probs[int(j)]) for j in idx], atol=1e-15)


def test_grouped_descending_refuses_other_orders():
    assert bd.grouped_descending(np.array([0, 1, 0]), np.zeros(3)) is None
    assert bd.grouped_descending(np.array([0, 0, 1]), np.array([1.0, 2, 0])) is None
    assert bd.grouped_descending(np.array([1, 1, 0]), np.array([2.0, 1, 5])) \
        is not None


def test_membership_large_user_codes_and_integer_scores():
    user = np.array([2**60, 2**60, 2**60, 5], dtype=np.int64)
    m = bd.membership(user, np.array([3, 3, 1, 0]), k=1)
    assert_allclose(m, [0.5, 0.5, 0.0, 1.0])


def test_membership_from_rank():
    user = np.array([1, 0, 1, 1, 0, 2])
    # rank None: the order of each user's rows in the input
    assert_allclose(bd.membership_from_rank(user, k=2), [1, 1, 1, 0, 1, 1])
    rank = np.array([2, 0, 0, 1, 1, 0])
    assert_allclose(bd.membership_from_rank(user, k=2, rank=rank), [0, 1, 1, 1, 1, 1])


# ---------------------------------------------------------------------------
# the metrics against the definitions, ties at the cut included
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [1, 2, 4])
def test_metrics_equal_expected_values_over_orderings(seed, k):
    rec, train, features = _case(seed)
    with warnings.catch_warnings():
        # k=1: no list has two items, ild@1 is nan with a warning
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = _compute(rec, train, features, k, n_items=9)
    want = _expected(rec, train, features, k, n_items=9)
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == pytest.approx(want[name], rel=1e-12, abs=1e-12,
                                          nan_ok=True), name


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [1, 2, 4])
def test_variants_equal_expected_values_over_orderings(seed, k):
    # finalize(coverage="train_items", novelty="interactions"): both linear in
    # the memberships given the fixed list sizes, so exact under ties
    rec, train, features = _case(seed)
    user, item, score = _flat(rec)
    pop = bd.popularity(*_train_arrays(train), n_items=9)
    parts = bd.partials(user, item, bd.membership(user, score, k=k), n_items=9,
                        popularity=pop)
    got = bd.finalize(parts, k=k, coverage="train_items", novelty="interactions",
                      popularity=pop)
    exp = lambda metric: float(ref.expected_over_realisations(metric, rec, k))  # noqa: E731
    assert got[f"coverage@{k}"] == pytest.approx(
        exp(lambda lists: ref.coverage_of_training_items(lists, train)),
        rel=1e-12, abs=1e-12)
    assert got[f"novelty@{k}"] == pytest.approx(
        exp(lambda lists: ref.novelty_pooled(lists, train)), rel=1e-12, abs=1e-12)
    # the other metrics are those of the default variants
    own = bd.finalize(parts, k=k)
    for name in ("gini", "entropy", "arp", "long_tail"):
        assert got[f"{name}@{k}"] == own[f"{name}@{k}"]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [1, 2, 4])
def test_entropy_per_item_variant(seed, k):
    # finalize(entropy="nats_per_item"), RecBole's ShannonEntropy: exact
    # where the top-k lists are fixed (distinct scores)
    rec, _, _ = _case(seed)
    rng = np.random.default_rng(seed)
    rec = {u: [(i, float(s)) for (i, _), s in zip(lst, rng.permutation(100))]
           for u, lst in rec.items()}
    user, item, score = _flat(rec)
    parts = bd.partials(user, item, bd.membership(user, score, k=k), n_items=9)
    got = bd.finalize(parts, k=k, entropy="nats_per_item")
    lists = {u: [i for i, _ in sorted(lst, key=lambda x: -x[1])[:k]]
             for u, lst in rec.items()}
    assert got[f"entropy@{k}"] == pytest.approx(
        ref.shannon_entropy_per_item(lists), rel=1e-12, abs=1e-15)
    own = bd.finalize(parts, k=k)
    for name in ("coverage", "gini"):
        assert got[f"{name}@{k}"] == own[f"{name}@{k}"]


def test_entropy_per_item_variant_under_ties_and_empty():
    # under ties: the entropy at the expected counts over the expected number
    # of covered items (item 0 sure, items 1, 2 each with probability 1/2)
    user, item, score = _flat({0: [(0, 2.0), (1, 1.0), (2, 1.0)]})
    parts = bd.partials(user, item, bd.membership(user, score, k=2), n_items=3)
    got = bd.finalize(parts, k=2, entropy="nats_per_item")["entropy@2"]
    p = np.array([0.5, 0.25, 0.25])
    assert got == pytest.approx(-(p * np.log(p)).sum() / 2.0)
    empty = bd.partials(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                        np.zeros(0), n_items=3)
    with pytest.warns(UndefinedMetricWarning):
        out = bd.finalize(empty, k=2, entropy="nats_per_item")
    assert math.isnan(out["entropy@2"])
    with pytest.raises(ValueError, match="unit must be one of"):
        bd.finalize(parts, k=2, entropy="nats")


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("k", [1, 2, 4])
def test_item_count_and_gini_diversity_variants(seed, k):
    # finalize(coverage="items", gini="diversity"), Elliot's ItemCoverage and
    # Gini: the count is linear in the memberships (exact under ties); the
    # diversity is exact where the lists are fixed, and 1 - G n / (n - 1) of
    # the default G under ties
    rec, _, _ = _case(seed)
    user, item, score = _flat(rec)
    parts = bd.partials(user, item, bd.membership(user, score, k=k), n_items=9)
    got = bd.finalize(parts, k=k, coverage="items", gini="diversity")
    own = bd.finalize(parts, k=k)
    assert got[f"coverage@{k}"] == pytest.approx(float(9 * ref.expected_over_realisations(
        lambda lists: ref.coverage(lists, 9), rec, k)), rel=1e-12)
    assert got[f"gini@{k}"] == pytest.approx(1 - own[f"gini@{k}"] * 9 / 8,
                                             rel=1e-12, abs=1e-15)
    assert got[f"entropy@{k}"] == own[f"entropy@{k}"]
    rng = np.random.default_rng(seed)
    untied = {u: [(i, float(s)) for (i, _), s in zip(lst, rng.permutation(100))]
              for u, lst in rec.items()}
    user, item, score = _flat(untied)
    parts = bd.partials(user, item, bd.membership(user, score, k=k), n_items=9)
    lists = {u: [i for i, _ in sorted(lst, key=lambda x: -x[1])[:k]]
             for u, lst in untied.items()}
    got = bd.finalize(parts, k=k, gini="diversity")
    assert got[f"gini@{k}"] == pytest.approx(float(ref.elliot_gini(lists, 9)),
                                             rel=1e-12, abs=1e-15)


def test_gini_diversity_of_one_item():
    user, item, score = _flat({0: [(0, 1.0)]})
    parts = bd.partials(user, item, bd.membership(user, score, k=1), n_items=1)
    with pytest.warns(UndefinedMetricWarning, match="catalog of one item"):
        out = bd.finalize(parts, k=1, gini="diversity")
    assert math.isnan(out["gini@1"])
    with pytest.raises(ValueError, match="form must be one of"):
        bd.finalize(parts, k=1, gini="elliot")


def test_variants_need_popularity_and_known_names():
    user, item, score = _flat({0: [(0, 1.0), (1, 0.5)]})
    parts = bd.partials(user, item, bd.membership(user, score, k=1), n_items=3)
    with pytest.raises(ValueError, match="need popularity="):
        bd.finalize(parts, k=1, coverage="train_items")
    with pytest.raises(ValueError, match="variant must be one of"):
        bd.finalize(parts, k=1, novelty="pooled")
    with pytest.raises(ValueError, match="denominator must be one of"):
        bd.finalize(parts, k=1, coverage=None)
    pop = bd.popularity(np.array([0]), np.array([2]), n_items=4)
    with pytest.raises(ValueError, match="popularity covers 4 items"):
        bd.finalize(parts, k=1, coverage="train_items", popularity=pop)
    empty = bd.popularity(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                          n_items=3)
    with pytest.warns(UndefinedMetricWarning, match="coverage@1"):
        out = bd.finalize(parts, k=1, coverage="train_items", popularity=empty)
    assert math.isnan(out["coverage@1"])
    # an item never trained on adds 0 to the pooled novelty but counts
    # (-log2(1/2) for item 0, 0 for item 1, over 2 recommendations)
    pop = bd.popularity(np.array([0, 1]), np.array([0, 2]), n_items=3)
    parts = bd.partials(user, item, bd.membership(user, score, k=2), n_items=3,
                        popularity=pop)
    out = bd.finalize(parts, k=2, novelty="interactions", popularity=pop)
    assert out["novelty@2"] == 0.5
    # the per-user variant counts item 1 as trained on by one user of two
    assert bd.finalize(parts, k=2)["novelty@2"] == 1.0
    out = bd.finalize(parts, k=2, coverage="train_items", popularity=pop)
    assert out["coverage@2"] == 1.0  # items 0, 1 covered; 2 training items


def test_coverage_is_the_expected_number_of_covered_items():
    # one user, three items tied for k=1: one item is covered in every
    # ordering, not three (a model scoring everything alike gains nothing)
    rec = {0: [(0, 1.0), (1, 1.0), (2, 1.0)]}
    user, item, score = _flat(rec)
    parts = bd.partials(user, item, bd.membership(user, score, k=1), n_items=6)
    assert bd.finalize(parts, k=1)["coverage@1"] == pytest.approx(1 / 6)
    # two users, the same two tied items, k=1: covered {0,1} w.p. 1/2, one item
    # otherwise: expected 1.5 items
    rec = {0: [(0, 1.0), (1, 1.0)], 1: [(0, 5.0), (1, 5.0)]}
    user, item, score = _flat(rec)
    parts = bd.partials(user, item, bd.membership(user, score, k=1), n_items=3)
    assert bd.finalize(parts, k=1)["coverage@1"] == pytest.approx(0.5)
    assert float(ref.expected_over_realisations(
        lambda lists: ref.coverage(lists, 3), rec, 1)) == pytest.approx(0.5)


def test_without_ties_the_plain_definitions():
    rec = {0: [(0, 3.0), (1, 2.0), (2, 1.0)], 1: [(2, 9.0), (4, 8.0)],
           2: [(0, NEG_INF)]}
    train = [(0, 0), (0, 0), (1, 0), (1, 2), (2, 4), (3, 0)]
    features = np.array([[1.0, 0], [0, 1.0], [1.0, 1.0], [0, 0], [2.0, 0]])
    got = _compute(rec, train, features, 2, n_items=5)
    lists = {0: (0, 1), 1: (2, 4), 2: ()}
    # hand check of two of them: c = [1, 1, 1, 0, 1]
    assert got["coverage@2"] == pytest.approx(4 / 5)
    assert got["gini@2"] == pytest.approx(
        ((-4) * 0 + (-2) * 1 + 0 * 1 + 2 * 1 + 4 * 1) / (5 * 4))
    assert got["entropy@2"] == pytest.approx(2.0)
    assert got["arp@2"] == pytest.approx(float(ref.average_popularity(lists, train)))
    assert got["novelty@2"] == pytest.approx(ref.novelty(lists, train))
    assert got["ild@2"] == pytest.approx(ref.intra_list_diversity(lists, features))


def test_empty_lists_and_unrecommended_items():
    # user 1 has only -inf rows: skipped by the per-user means, while items
    # 3..7 never recommended count as zeros in gini and the coverage
    rec = {0: [(0, 1.0), (1, 0.0), (2, 0.0)], 1: [(1, NEG_INF)], 2: [(2, 4.0)]}
    train = [(0, 0), (1, 1), (1, 2), (2, 2)]
    features = np.eye(8)
    got = _compute(rec, train, features, 2, n_items=8)
    want = _expected(rec, train, features, 2, n_items=8)
    for name in want:
        assert got[name] == pytest.approx(want[name], rel=1e-12), name
    user, item, score = _flat(rec)
    parts = bd.partials(user, item, bd.membership(user, score, k=2), n_items=8,
                        popularity=bd.popularity(*_train_arrays(train), n_items=8),
                        item_features=features)
    per_user = bd.per_user_values(parts)
    assert per_user["user"].tolist() == [0, 1, 2]
    assert np.isnan(per_user["novelty"][1]) and np.isnan(per_user["arp"][1])
    # user 2 has one item: no ILD; user 0: two orthogonal items, distance 1
    assert np.isnan(per_user["ild"][2])
    assert per_user["ild"][0] == pytest.approx(1.0)
    assert per_user["arp"][2] == pytest.approx(2.0)


def test_nothing_recommended_is_undefined():
    user, item = np.array([0, 1]), np.array([0, 1])
    m = bd.membership(user, [NEG_INF, NEG_INF], k=3)
    pop = bd.popularity([0], [0], n_items=2)
    parts = bd.partials(user, item, m, n_items=2, popularity=pop,
                        item_features=np.eye(2))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        out = bd.finalize(parts, k=3)
    assert out["coverage@3"] == 0.0
    for name in ("gini@3", "entropy@3", "novelty@3", "arp@3", "long_tail@3", "ild@3"):
        assert math.isnan(out[name]), name
    assert {r.category for r in record} == {UndefinedMetricWarning}
    assert all(r.filename == __file__ for r in record)


def test_metrics_present_only_with_their_inputs():
    user, item = np.array([0, 0]), np.array([0, 1])
    parts = bd.partials(user, item, np.ones(2), n_items=3)
    assert set(bd.finalize(parts, k=2)) == {"coverage@2", "gini@2", "entropy@2"}
    parts = bd.partials(user, item, np.ones(2), n_items=3, item_features=np.eye(3))
    assert set(bd.finalize(parts, k=2)) == {"coverage@2", "gini@2", "entropy@2", "ild@2"}


# ---------------------------------------------------------------------------
# popularity and the short head
# ---------------------------------------------------------------------------
def test_popularity_counts():
    train = [(0, 0), (0, 0), (1, 0), (1, 2), (5, 2), (5, 2), (5, 1)]
    pop = bd.popularity(*_train_arrays(train), n_items=4)
    users_of, n_users = ref._training_users(train)
    assert pop.interactions.tolist() == [sum(i == j for _, i in train) for j in range(4)]
    assert pop.users.tolist() == [len(users_of.get(j, ())) for j in range(4)]
    assert pop.n_users == n_users == 3
    halves = [bd.popularity(*_train_arrays([p for p in train if (p[0] < 1) == h]),
                            n_items=4) for h in (True, False)]
    merged = bd.Popularity.merge(halves)
    assert merged.interactions.tolist() == pop.interactions.tolist()
    assert merged.users.tolist() == pop.users.tolist()
    assert merged.n_users == pop.n_users


@pytest.mark.parametrize("head_share", [0.0, 0.3, 0.5, 0.8, 0.95, 1.0])
@pytest.mark.parametrize("seed", range(6))
def test_short_head_against_the_definition(head_share, seed):
    rng = np.random.default_rng(seed)
    train = [(int(u), int(i)) for u, i in zip(rng.integers(0, 5, 10),
                                               rng.integers(0, 6, 10))]
    pop = bd.popularity(*_train_arrays(train), n_items=8)
    head = bd.short_head(pop.interactions, head_share)
    assert set(np.flatnonzero(head).tolist()) == ref.short_head_items(train, head_share)


def test_short_head_edges():
    # 0.3 of 10 interactions is 3 (not 3.0000000000000004): item 0 alone
    assert np.flatnonzero(bd.short_head(np.array([3, 2, 2, 2, 1]), 0.3)).tolist() == [0]
    # 0.5 of 10 needs 5: items 0 and 1, then item 2 and 3 as popular as item 1
    assert np.flatnonzero(bd.short_head(np.array([3, 2, 2, 2, 1]), 0.5)).tolist() == [
        0, 1, 2, 3]
    # everything with an interaction, never an unseen item
    assert np.flatnonzero(bd.short_head(np.array([3, 0, 1]), 1.0)).tolist() == [0, 2]
    assert not bd.short_head(np.array([3, 0, 1]), 0.0).any()
    assert not bd.short_head(np.zeros(3, dtype=int), 0.8).any()
    with pytest.raises(ValueError, match="head_share must be a real number in"):
        bd.short_head(np.array([1]), 1.5)
    with pytest.raises(TypeError, match="head_share must be a real"):
        bd.short_head(np.array([1]), True)


@pytest.mark.parametrize("head_share", [0.0, 0.5, 1.0])
def test_long_tail_head_share(head_share):
    rec, train, features = _case(3)
    got = _compute(rec, train, features, 2, n_items=9, head_share=head_share)
    want = _expected(rec, train, features, 2, n_items=9, head_share=head_share)
    assert got["long_tail@2"] == pytest.approx(want["long_tail@2"], rel=1e-12)


def test_no_training_user_novelty_undefined():
    pop = bd.popularity(np.zeros(0, int), np.zeros(0, int), n_items=2)
    parts = bd.partials([0], [1], [1.0], n_items=2, popularity=pop)
    with pytest.warns(UndefinedMetricWarning, match="novelty@1"):
        out = bd.finalize(parts, k=1)
    assert math.isnan(out["novelty@1"])
    assert out["arp@1"] == 0.0 and out["long_tail@1"] == 1.0


# ---------------------------------------------------------------------------
# ILD
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_ild_against_cosine_distances(seed):
    rng = np.random.default_rng(seed)
    n_items, n_users = 30, 12
    features = rng.normal(size=(n_items, 5))
    features[7] = 0.0
    lists = {u: rng.choice(n_items, rng.integers(0, 7), replace=False).tolist()
             for u in range(n_users)}
    user = np.array([u for u, lst in lists.items() for _ in lst])
    item = np.array([i for lst in lists.values() for i in lst])
    per_user = []
    for lst in lists.values():
        if len(lst) >= 2:
            d = cosine_distances(features[lst])
            per_user.append(d.sum() / (len(lst) * (len(lst) - 1)))
    for f in (features, sparse.csr_matrix(features), sparse.coo_matrix(features)):
        parts = bd.partials(user, item, np.ones(user.size), n_items=n_items,
                            item_features=f)
        assert bd.finalize(parts, k=6)["ild@6"] == pytest.approx(np.mean(per_user))
        assert bd.finalize(parts, k=6)["ild@6"] == pytest.approx(
            ref.intra_list_diversity({u: tuple(lst) for u, lst in lists.items()},
                                     features.tolist()))


def test_ild_tied_pairs_are_not_independent():
    # one sure item and a block of three tied for two places (k=3)
    features = np.array([[1.0, 0, 0], [0, 1.0, 0], [1.0, 1.0, 0], [0, 0, 1.0]])
    rec = {0: [(0, 5.0), (1, 1.0), (2, 1.0), (3, 1.0)]}
    user, item, score = _flat(rec)
    parts = bd.partials(user, item, bd.membership(user, score, k=3), n_items=4,
                        item_features=features)
    want = float(ref.expected_over_realisations(
        lambda lists: ref.intra_list_diversity(lists, features.tolist()), rec, 3))
    assert bd.finalize(parts, k=3)["ild@3"] == pytest.approx(want, rel=1e-12)


def test_ild_rejects_memberships_of_no_tie_block():
    with pytest.raises(ValueError, match="one tie block"):
        bd.partials([0, 0, 0], [0, 1, 2], [1.0, 0.5, 0.25], n_items=3,
                    item_features=np.eye(3))


def test_item_features_bad_shape():
    with pytest.raises(ValueError, match="item_features has 2 rows but n_items is 3"):
        bd.partials([0], [0], [1.0], n_items=3, item_features=np.eye(2))
    with pytest.raises(ValueError, match="item_features must be 2-D"):
        bd.partials([0], [0], [1.0], n_items=3, item_features=np.ones(3))
    with pytest.raises(ValueError, match="item_features contains NaN"):
        bd.partials([0], [0], [1.0], n_items=2,
                    item_features=np.array([[np.nan, 1.0], [0, 1.0]]))


# ---------------------------------------------------------------------------
# partial sums: chunks of users merged = one pass
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_partials_of_halves_add_up(seed):
    rng = np.random.default_rng(seed)
    n_users, n_items = 300, 40
    user = np.repeat(np.arange(n_users), rng.integers(0, 12, n_users))
    item = np.concatenate([rng.choice(n_items, c, replace=False)
                           for c in np.bincount(user, minlength=n_users)])
    score = rng.integers(0, 4, user.size).astype(float)
    score[rng.random(user.size) < 0.05] = NEG_INF
    perm = rng.permutation(user.size)
    user, item, score = user[perm], item[perm], score[perm]
    pop = bd.popularity(rng.integers(0, 50, 400), rng.integers(0, n_items, 400),
                        n_items=n_items)
    features = sparse.random(n_items, 6, density=0.4, random_state=seed, format="csr")
    kw = dict(n_items=n_items, popularity=pop, item_features=features)
    m = bd.membership(user, score, k=5)
    whole = bd.partials(user, item, m, **kw)
    pieces = []
    for chunk in (user % 3 == 0, user % 3 == 1, user % 3 == 2):
        # each chunk computes its own memberships (its users are complete)
        mc = bd.membership(user[chunk], score[chunk], k=5)
        assert_allclose(mc, m[chunk])
        pieces.append(bd.partials(user[chunk], item[chunk], mc, **kw))
    merged = bd.merge(pieces)
    assert_allclose(merged.item_count, whole.item_count, atol=1e-12)
    a, b = bd.finalize(whole, k=5), bd.finalize(merged, k=5)
    assert a.keys() == b.keys()
    for name in a:
        assert b[name] == pytest.approx(a[name], rel=1e-12), name
    pa, pb = bd.per_user_values(whole), bd.per_user_values(merged)
    order = np.argsort(pb["user"])
    assert_allclose(pb["user"][order], pa["user"])
    for name in ("novelty", "arp", "long_tail", "ild"):
        assert_allclose(pb[name][order], pa[name], rtol=1e-12)
    # a user split across two chunks is refused (by finalize; with features,
    # already by partials when the split cuts a tie block)
    kw.pop("item_features")
    split = bd.merge([bd.partials(user[:10], item[:10], m[:10], **kw),
                      bd.partials(user[10:], item[10:], m[10:], **kw)])
    with pytest.raises(ValueError, match="rows in several chunks"):
        bd.finalize(split, k=5)
    with pytest.raises(ValueError, match="differ in whether"):
        bd.merge([whole, bd.partials(user, item, m, **kw)])


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
def test_unknown_items_and_bad_codes():
    with pytest.raises(ValueError, match=r"item contains the code 5, outside 0 \.\. n_items"):
        bd.partials([0, 1], [0, 5], [1.0, 1.0], n_items=5)
    with pytest.raises(ValueError, match="train_item contains the code 7"):
        bd.popularity([0, 1], [0, 7], n_items=5)
    with pytest.raises(ValueError, match="train_user contains a negative"):
        bd.popularity([0, -1], [0, 1], n_items=5)
    with pytest.raises(ValueError, match="membership must hold probabilities"):
        bd.partials([0, 1], [0, 1], [1.0, 1.5], n_items=5)
    with pytest.raises(ValueError, match="membership must hold probabilities"):
        bd.partials([0, 1], [0, 1], [1.0, np.nan], n_items=5)
    with pytest.raises(ValueError, match="membership has 1 rows but user has 2"):
        bd.partials([0, 1], [0, 1], [1.0], n_items=5)
    with pytest.raises(ValueError, match="item has 1 rows but user has 2"):
        bd.partials([0, 1], [0], [1.0, 1.0], n_items=5)
    with pytest.raises(ValueError, match="n_items must be a positive"):
        bd.partials([0], [0], [1.0], n_items=0)
    with pytest.raises(TypeError, match="n_items must be a positive"):
        bd.popularity([0], [0], n_items=2.0)
    with pytest.raises(ValueError, match="popularity covers 3 items but n_items is 5"):
        bd.partials([0], [0], [1.0], n_items=5,
                    popularity=bd.popularity([0], [0], n_items=3))


def test_inputs_not_modified():
    rec, train, features = _case(1)
    user, item, score = _flat(rec)
    tu, ti = _train_arrays(train)
    copies = [a.copy() for a in (user, item, score, tu, ti, features)]
    m = bd.membership(user, score, k=2)
    m_copy = m.copy()
    bd.partials(user, item, m, n_items=9, popularity=bd.popularity(tu, ti, n_items=9),
                item_features=features)
    for a, b in zip((user, item, score, tu, ti, features), copies):
        assert_allclose(a, b)
    assert_allclose(m, m_copy)


def test_sparse_and_huge_codes():
    # user codes far apart (no dense bincount), training users beyond the
    # packed key (the lexsort path): the same values as small codes
    big = np.array([2**62, 2**62, 7, 7, 2**40], dtype=np.int64)
    small = np.array([2, 2, 0, 0, 1])
    item = np.array([0, 1, 1, 2, 0])
    m = np.array([1.0, 0.0, 1.0, 1.0, 1.0])
    tu, ti = np.array([2**62, 2**62, 3, 3, 3]), np.array([0, 0, 0, 1, 0])
    pop_big = bd.popularity(tu, ti, n_items=3)
    pop_small = bd.popularity(np.array([1, 1, 0, 0, 0]), ti, n_items=3)
    assert pop_big.users.tolist() == pop_small.users.tolist() == [2, 1, 0]
    assert pop_big.interactions.tolist() == [4, 1, 0]
    a = bd.per_user_values(bd.partials(big, item, m, n_items=3, popularity=pop_big,
                                       item_features=np.eye(3)))
    b = bd.per_user_values(bd.partials(small, item, m, n_items=3, popularity=pop_small,
                                       item_features=np.eye(3)))
    assert a["user"].tolist() == [7, 2**40, 2**62]
    for name in ("novelty", "arp", "long_tail", "ild"):
        assert_allclose(a[name], b[name], equal_nan=True)
    # the values themselves: user 0 holds items 1, 2 (orthogonal rows)
    assert b["ild"][0] == pytest.approx(1.0) and math.isnan(b["ild"][1])
    assert b["arp"].tolist() == [0.5, 4.0, 4.0]
