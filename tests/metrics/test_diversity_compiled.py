"""The compiled pass of the diversity metrics (``_engine/_intent_kernels.pxd``).

Three references: brute force (every order of a group's items, and of its
tie blocks: tests/_reference.py), the NumPy kernels it replaced
(tests/metrics/_diversity_numpy.py: the same values to 1e-12 on random
instances with ties, the same ideal found and the same groups proven under
the same node budget), and itself on one thread (the same bits on two).
"""

import numpy as np
import pytest

from sklearn_rankeval._engine import intent_pass
from sklearn_rankeval._metrics import _diversity_kernels as dk
from tests import _reference as ref
from tests.metrics import _diversity_numpy as old

DISCOUNTS = [("log2", None), ("reciprocal", None), ("geometric", 0.6)]


def _instance(rng, n_groups, max_size, n_intents, n_grades, density=0.5,
              n_levels=3, weighted=False, docno=False):
    """Random groups in rank order: graded intents, tied scores, a few rows
    not retrieved, optional intent weights and docno priorities."""
    grades, scores = [], []
    sizes = rng.integers(1, max_size + 1, n_groups)
    for size in sizes:
        g = rng.integers(1, n_grades + 1, (size, n_intents))
        g = g * (rng.random((size, n_intents)) < density)
        s = rng.integers(0, n_levels, size).astype(float)
        if rng.random() < 0.3:
            s[rng.integers(size)] = -np.inf
        order = np.argsort(-s, kind="stable")
        grades.append(g[order])
        scores.append(s[order])
    weights = rng.random((n_groups, n_intents)) + 0.05 if weighted else None
    n = int(sizes.sum())
    # docnos: distinct within a group mostly, some repeated
    priority = rng.integers(0, max(n // 2, 1), n) if docno else None
    rows = dk.IntentRows(np.concatenate(grades).astype(float),
                         np.concatenate(scores), sizes, weights, priority)
    return rows, list(zip(grades, scores))


def _defined(grades):
    return bool(np.any(np.asarray(grades) > 0))


@pytest.mark.parametrize("seed", range(12))
def test_exact_ideal_equals_every_order(seed):
    rng = np.random.default_rng(5000 + seed)
    weighted = seed % 3 == 0
    rows, groups = _instance(rng, 4, 7, int(rng.integers(2, 6)), 3,
                             weighted=weighted)
    alpha = [0.5, 0.25, 0.9, 0.0][seed % 4]
    k = [None, 2, 3, 4][seed % 4]
    for discount, beta in DISCOUNTS:
        exact, proven = dk.exact_ideal(rows, alpha=alpha, discount=discount,
                                       k=k, beta=beta)
        assert proven.all()
        for g, (grades, _) in enumerate(groups):
            if not _defined(grades):
                continue
            w = None if rows.weights is None else list(rows.weights[g])
            want = ref.alpha_ideal_exact(grades.tolist(), alpha, discount, k,
                                         beta, w)
            assert exact[g] == pytest.approx(want, rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("seed", range(10))
def test_cascade_and_greedy_equal_the_numpy_kernels(seed):
    rng = np.random.default_rng(6000 + seed)
    rows, _ = _instance(rng, 300, 30, int(rng.integers(1, 12)),
                        int(rng.integers(1, 4)), density=0.3,
                        n_levels=int(rng.integers(2, 8)),
                        weighted=seed % 2 == 1, docno=seed % 3 == 2)
    alpha = [0.5, 0.0, 1.0, 0.3][seed % 4]
    for discount, beta in DISCOUNTS:
        for k in (None, 1, 5, 10):
            kw = dict(alpha=alpha, discount=discount, k=k, beta=beta)
            np.testing.assert_allclose(dk.cascade_value(rows, **kw),
                                       old.cascade_value(rows, **kw),
                                       rtol=0, atol=1e-12)
            np.testing.assert_allclose(dk.greedy_ideal(rows, **kw),
                                       old.greedy_ideal(rows, **kw),
                                       rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("budget", [None, 40])
def test_exact_ideal_equals_the_numpy_search(seed, budget):
    # groups whose greedy ideal no bound settles: the search runs, and under
    # a small budget stops where the Python search stopped, at the same order
    rng = np.random.default_rng(7000 + seed)
    rows, _ = _instance(rng, 12, 12, 5, 2, density=0.35,
                        weighted=seed % 2 == 1)
    kw = dict(alpha=0.5, discount=DISCOUNTS[seed % 3][0],
              beta=DISCOUNTS[seed % 3][1], k=[4, 6, None][seed % 3])
    got, got_proven = dk.exact_ideal(rows, budget=budget, **kw)
    want, want_proven = old.exact_ideal(rows, budget=budget, **kw)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(got_proven, want_proven)
    if budget is None:
        assert got_proven.all()


def test_budget_stops_the_search_as_before():
    rng = np.random.default_rng(3)
    grades = (rng.random((14, 6)) < 0.4).astype(float)
    rows = dk.IntentRows(grades, np.arange(14, 0, -1.0), np.array([14]))
    kw = dict(alpha=0.5, discount="log2", k=8)
    for budget in (1, 5, 50, 500):
        got, proven = dk.exact_ideal(rows, budget=budget, **kw)
        want, want_proven = old.exact_ideal(rows, budget=budget, **kw)
        assert got[0] == pytest.approx(want[0], abs=1e-12)
        assert proven[0] == want_proven[0]
    full, proven = dk.exact_ideal(rows, **kw)
    assert proven[0]
    assert not dk.exact_ideal(rows, budget=5, **kw)[1][0]


@pytest.mark.parametrize("ideal", [None, "greedy", "exact"])
def test_one_and_two_threads_give_the_same_bits(ideal):
    rng = np.random.default_rng(11)
    rows, _ = _instance(rng, 2000, 25, 5, 3, density=0.3, n_levels=4,
                        weighted=True)
    disc = dk.discount_vector(rows, "log2")
    runs = [intent_pass(rows.grades, rows.scores, rows.sizes, disc, alpha=0.5,
                        k=10, weights=rows.weights, ideal=ideal, budget=2000,
                        n_threads=t) for t in (1, 2)]
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


def test_discounts_must_cover_the_largest_group():
    rows = dk.IntentRows(np.ones((3, 2)), np.zeros(3), np.array([3]))
    with pytest.raises(ValueError, match="discounts"):
        intent_pass(rows.grades, rows.scores, rows.sizes, np.ones(2), alpha=0.5)


@pytest.mark.parametrize("seed", range(6))
def test_coverage_and_largest_grades_equal_the_numpy_kernels(seed):
    rng = np.random.default_rng(8000 + seed)
    rows, _ = _instance(rng, 300, 30, int(rng.integers(1, 9)), 3, density=0.2,
                        n_levels=int(rng.integers(2, 6)), weighted=seed % 2 == 0)
    for k in (None, 1, 3, 10, 40):
        np.testing.assert_allclose(dk.coverage(rows, k=k),
                                   old.coverage(rows, k=k), rtol=0, atol=1e-12)
    out = dk.intent_stats(rows, alpha=0.5, discount="log2", k=0, top=True)
    starts = np.cumsum(rows.sizes) - rows.sizes
    np.testing.assert_array_equal(out.top,
                                  np.maximum.reduceat(rows.grades, starts, axis=0))
    assert not out.value.any()  # (k=0: no cascade value)
