"""The diversity kernels against brute force (tests/_reference.py).

The kernels read the rows of the groups in rank order (IntentRows); the
references enumerate every order of the tied items and, for the ideal, every
order of the group's items.
"""

import numpy as np
import pytest

from sklearn_rankeval._metrics import _diversity_kernels as dk
from tests import _reference as ref

DISCOUNTS = [("log2", None), ("reciprocal", None), ("geometric", 0.7)]


def _random_groups(rng, n_groups=3, max_size=6, n_intents=3, n_grades=3):
    grades, scores = [], []
    sizes = rng.integers(1, max_size + 1, n_groups)
    for size in sizes:
        g = rng.integers(0, n_grades, (size, n_intents))
        g = g * (rng.random((size, n_intents)) < 0.5)
        s = rng.integers(0, 3, size).astype(float)  # ties
        if rng.random() < 0.3:
            s[rng.integers(size)] = -np.inf  # not retrieved
        order = np.argsort(-s, kind="stable")
        grades.append(g[order])
        scores.append(s[order])
    rows = dk.IntentRows(np.concatenate(grades).astype(float),
                         np.concatenate(scores), sizes)
    return rows, [(g.tolist(), s.tolist()) for g, s in zip(grades, scores)]


def _defined(grades):
    return any(x > 0 for row in grades for x in row)


@pytest.mark.parametrize("seed", range(40))
def test_cascade_value_and_ideals_equal_brute_force(seed):
    rng = np.random.default_rng(seed)
    rows, groups = _random_groups(rng, n_intents=int(rng.integers(1, 4)))
    alpha = float(rng.choice([0.0, 0.25, 0.5, 1.0]))
    k = [None, 1, 2, 3, 5][seed % 5]
    for discount, beta in DISCOUNTS:
        kw = dict(alpha=alpha, discount=discount, k=k, beta=beta)
        value = dk.cascade_value(rows, **kw)
        exact, proven = dk.exact_ideal(rows, **kw)
        greedy = dk.greedy_ideal(rows, **kw)
        assert proven.all()
        for g, (grades, scores) in enumerate(groups):
            if not _defined(grades):
                continue
            assert value[g] == pytest.approx(ref.alpha_value_expected(
                grades, scores, alpha, discount, k, beta), abs=1e-12)
            assert exact[g] == pytest.approx(ref.alpha_ideal_exact(
                grades, alpha, discount, k, beta), abs=1e-12)
            assert greedy[g] == pytest.approx(ref.alpha_ideal_greedy(
                grades, alpha, discount, k, beta), abs=1e-12)
            # the exact ideal is an ideal: no order of the items beats it
            assert value[g] <= exact[g] + 1e-12


@pytest.mark.parametrize("seed", range(20))
def test_coverage_equals_brute_force(seed):
    rng = np.random.default_rng(100 + seed)
    rows, groups = _random_groups(rng, n_intents=int(rng.integers(1, 5)))
    k = int(rng.integers(1, 6))
    got = dk.coverage(rows, k=k)
    for g, (grades, scores) in enumerate(groups):
        if _defined(grades):
            assert got[g] == pytest.approx(
                ref.subtopic_recall_expected(grades, scores, k), abs=1e-12)


def test_intent_weights_equal_brute_force():
    rng = np.random.default_rng(7)
    rows, groups = _random_groups(rng, n_groups=4, n_intents=3)
    w = rng.random((4, 3)) + 0.1
    rows = rows._replace(weights=w)
    value = dk.cascade_value(rows, alpha=0.5, discount="log2", k=3)
    exact, _ = dk.exact_ideal(rows, alpha=0.5, discount="log2", k=3)
    for g, (grades, scores) in enumerate(groups):
        if _defined(grades):
            assert value[g] == pytest.approx(ref.alpha_value_expected(
                grades, scores, 0.5, "log2", 3, None, list(w[g])), abs=1e-12)
            assert exact[g] == pytest.approx(ref.alpha_ideal_exact(
                grades, 0.5, "log2", 3, None, list(w[g])), abs=1e-12)


def _issue_example():
    # d0 covers {2, 3}, d1 {0, 1}, d2 {1, 3}; the run ranks d0, d1, d2
    grades = np.array([[0, 0, 1, 1], [1, 1, 0, 0], [0, 1, 0, 1]], float)
    return dk.IntentRows(grades, np.array([3.0, 2.0, 1.0]), np.array([3]),
                         priority=np.array([0, 1, 2]))  # docnos d0 < d1 < d2


def test_issue_example_greedy_exceeds_one_exact_does_not():
    rows = _issue_example()
    value = dk.cascade_value(rows, alpha=0.5, discount="log2", k=2)
    greedy = dk.greedy_ideal(rows, alpha=0.5, discount="log2", k=2)
    exact, proven = dk.exact_ideal(rows, alpha=0.5, discount="log2", k=2)
    grades = rows.grades.tolist()
    # ndeval's greedy ideal (ties to the larger docno) is beaten by the run
    want_greedy = ref.alpha_ideal_greedy(grades, 0.5, "log2", 2, docno=[0, 1, 2])
    assert greedy[0] == pytest.approx(want_greedy, abs=1e-12)
    assert value[0] / greedy[0] == pytest.approx(1.107, abs=5e-4)
    assert proven[0]
    assert exact[0] == pytest.approx(ref.alpha_ideal_exact(grades, 0.5, "log2", 2))
    assert value[0] / exact[0] <= 1.0 + 1e-12


@pytest.mark.parametrize("seed", range(30))
def test_exact_normalised_value_never_exceeds_one(seed):
    rng = np.random.default_rng(1000 + seed)
    rows, groups = _random_groups(rng, n_groups=5, max_size=7, n_intents=4,
                                  n_grades=2)
    for discount, beta in DISCOUNTS:
        kw = dict(alpha=0.5, discount=discount, k=[2, 3, 5, None][seed % 4],
                  beta=beta)
        value = dk.cascade_value(rows, **kw)
        exact, proven = dk.exact_ideal(rows, **kw)
        ok = exact > 0
        assert proven.all()
        assert np.all(value[ok] <= exact[ok] * (1 + 1e-12))


def test_ideal_ideal_is_ndeval_formula():
    rows = _issue_example()
    # every rank relevant to every present intent: sum_r D(r) (1-a)^(r-1)
    got = dk.ideal_ideal(rows, alpha=0.5, discount="log2", k=5)
    want = sum(0.5 ** (r - 1) / np.log2(r + 1) for r in range(1, 6))
    assert got[0] == pytest.approx(want, abs=1e-12)
    nrbp = dk.ideal_ideal(rows, alpha=0.5, discount="geometric", beta=0.5)
    assert nrbp[0] == pytest.approx(1 / (1 - 0.25), abs=1e-12)


def test_search_budget_keeps_best_found():
    rng = np.random.default_rng(3)
    grades = (rng.random((14, 6)) < 0.4).astype(float)
    rows = dk.IntentRows(grades, np.arange(14, 0, -1.0), np.array([14]))
    kw = dict(alpha=0.5, discount="log2", k=8)
    greedy = dk.greedy_ideal(rows, **kw)
    small, proven_small = dk.exact_ideal(rows, budget=5, **kw)
    full, proven_full = dk.exact_ideal(rows, **kw)
    assert proven_full[0]
    assert greedy[0] <= small[0] <= full[0] + 1e-12
