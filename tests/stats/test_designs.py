"""The block designs (``_stats._designs``) against statsmodels, scipy and
exact enumeration (``tests/_reference.py``)."""

import numpy as np
import pytest
from scipy import stats

from sklearn_rankeval._stats import (
    maxt,
    pair_indices,
    randomized_tukey,
    tukey_hsd,
    two_way_anova,
)
from tests import _reference as ref


def _blocked(rng, n=30, k=4, shift=None, block_sd=0.2, noise=0.03):
    """Per-group values: a large group (query) difficulty, a model effect and
    small noise."""
    shift = np.zeros(k) if shift is None else np.asarray(shift, dtype=float)
    return (0.5 + block_sd * rng.standard_normal((n, 1)) + shift[None, :]
            + noise * rng.standard_normal((n, k)))


def test_two_way_anova_matches_statsmodels_ols():
    sm = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    x = _blocked(rng, n=12, k=3, shift=[0, 0.01, 0.03])
    frame = pd.DataFrame({"y": x.ravel(), "group": np.repeat(np.arange(12), 3),
                          "model": np.tile(np.arange(3), 12)})
    table = anova_lm(sm.ols("y ~ C(model) + C(group)", frame).fit())
    v_e, df = two_way_anova(x)
    assert df == table.loc["Residual", "df"] == 22
    assert v_e == pytest.approx(table.loc["Residual", "mean_sq"], rel=1e-10)


def test_blocked_tukey_is_one_way_tukey_on_the_block_removed_values():
    """Removing each group's mean (plus the grand mean) leaves the model means
    and the residual sum of squares: statsmodels' one-way Tukey on those
    values has the same mean differences and a within-model mean square
    ``SS_E / (k (n - 1))``, where the blocked design's is ``SS_E / ((n - 1)
    (k - 1))``.  So ``se_blocked = std_pairs_oneway * sqrt(k / (k - 1))``
    and the blocked p-value is the studentized range's tail at
    ``|diff| / se_blocked`` with ``(n - 1)(k - 1)`` degrees of freedom."""
    multicomp = pytest.importorskip("statsmodels.stats.multicomp")
    rng = np.random.default_rng(1)
    n, k = 25, 4
    x = _blocked(rng, n=n, k=k, shift=[0, 0.005, 0.01, 0.03])
    y = x - x.mean(axis=1, keepdims=True) + x.mean()
    res = multicomp.pairwise_tukeyhsd(y.ravel(), np.tile(np.arange(k), n))
    diff, low, high, p = tukey_hsd(x, 0.95)
    np.testing.assert_allclose(diff, res.meandiffs, rtol=1e-10, atol=1e-14)
    se = res.std_pairs * np.sqrt(k / (k - 1))
    df = (n - 1) * (k - 1)
    np.testing.assert_allclose(
        p, stats.studentized_range.sf(np.abs(res.meandiffs) / se, k, df),
        rtol=1e-8)
    half = stats.studentized_range.ppf(0.95, k, df) * se
    np.testing.assert_allclose(high - diff, half, rtol=1e-8)
    np.testing.assert_allclose(diff - low, half, rtol=1e-8)
    # scipy's one-way test on the same values: the same differences
    one_way = stats.tukey_hsd(*y.T)
    a, b = pair_indices(k)
    np.testing.assert_allclose(diff, one_way.statistic[b, a], atol=1e-14)


def test_blocked_tukey_of_two_models_is_the_paired_t_test():
    """With k = 2 the studentized range is sqrt(2) |t|: the blocked Tukey
    p-value and interval are the paired t-test's."""
    rng = np.random.default_rng(2)
    x = _blocked(rng, n=40, k=2, shift=[0, 0.01])
    diff, low, high, p = tukey_hsd(x, 0.9)
    t = stats.ttest_rel(x[:, 1], x[:, 0])
    assert p[0] == pytest.approx(t.pvalue, rel=1e-7)
    assert (low[0], high[0]) == pytest.approx(
        ref.t_interval(x[:, 1] - x[:, 0], 0.9), rel=1e-7)


def test_tukey_interval_excludes_zero_exactly_when_p_is_below_alpha():
    rng = np.random.default_rng(9)
    x = _blocked(rng, n=30, k=4, shift=[0, 0.004, 0.008, 0.02])
    _, low, high, p = tukey_hsd(x, 0.9)
    _, low2, high2, none = tukey_hsd(x, 0.9, p_values=False)
    assert none is None
    np.testing.assert_array_equal(low, low2)
    np.testing.assert_array_equal((low > 0) | (high < 0), p < 0.1)


def test_issue_example_blocked_p_is_small_where_one_way_is_not():
    """50 queries whose variance is mostly query difficulty, B a consistent
    +0.015 over A: the paired t-test and the blocked Tukey say so, the
    one-way Tukey of independent samples (ranx's call) does not."""
    rng = np.random.default_rng(38)
    difficulty = rng.uniform(0.1, 0.9, size=50)
    a = difficulty + 0.01 * rng.standard_normal(50)
    b = a + 0.015 + 0.02 * rng.standard_normal(50)
    x = np.column_stack([a, b])
    p_blocked = tukey_hsd(x)[3][0]
    p_paired = stats.ttest_rel(b, a).pvalue
    p_one_way = stats.tukey_hsd(a, b).pvalue[0, 1]
    assert p_paired < 0.001
    assert p_blocked == pytest.approx(p_paired, rel=1e-6)
    assert p_one_way > 0.5
    diff, _, _, p_rand, _, _ = randomized_tukey(x, 4999, np.random.default_rng(0))
    assert p_rand[0] == pytest.approx(1 / 5000)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_randomized_tukey_is_exact_on_tiny_cases(seed):
    rng = np.random.default_rng(seed)
    # 3 groups x 3 models, values on a grid so that ties occur
    x = rng.integers(0, 4, size=(3, 3)) / 4.0
    x[0] = 0.5  # a constant group: it never changes a mean
    p_max, p_own, ranges = ref.randomized_tukey_exact(x.tolist())
    diff, low, high, p, exact, p_pair = randomized_tukey(
        x, 10_000, np.random.default_rng(0), confidence=0.9)
    assert exact
    np.testing.assert_allclose(p, p_max, rtol=1e-12)
    np.testing.assert_allclose(p_pair, p_own, rtol=1e-12)
    np.testing.assert_allclose(high - diff, np.quantile(ranges, 0.9), rtol=1e-12)
    a, b = pair_indices(3)
    np.testing.assert_allclose(diff, x[:, b].mean(0) - x[:, a].mean(0))


def test_randomized_tukey_draws_agree_with_the_enumeration():
    rng = np.random.default_rng(5)
    x = rng.integers(0, 5, size=(6, 3)) / 4.0  # 6**6 = 46656 relabellings
    p_max, _, _ = ref.randomized_tukey_exact(x.tolist())
    B = 4000
    *_, p, exact, _ = randomized_tukey(x, B, np.random.default_rng(1))
    assert not exact
    # (count + 1) / (B + 1) of B fair draws: within 4 binomial SE
    se = np.sqrt(np.asarray(p_max) * (1 - np.asarray(p_max)) / B)
    assert np.all(np.abs(p - np.asarray(p_max)) <= 4 * se + 2 / B)


def test_tukey_simultaneous_coverage_and_family_wise_error():
    """Seeded repetitions with known model effects: the simultaneous
    intervals cover all the true differences in >= 95% - 2 SE of them, and
    under the null no pair is significant in about 95% of them (the
    studentized range's tail is slow: few repetitions)."""
    rng = np.random.default_rng(11)
    reps = 100
    shift = np.array([0.0, 0.01, 0.01, 0.03])
    a, b = pair_indices(4)
    truth = shift[b] - shift[a]
    covered = null_hits = 0
    for _ in range(reps):
        _, low, high, _ = tukey_hsd(_blocked(rng, n=20, k=4, shift=shift))
        covered += bool(np.all((low <= truth) & (truth <= high)))
        null_hits += bool((tukey_hsd(_blocked(rng, n=20, k=4))[3] < 0.05).any())
    se = np.sqrt(0.05 * 0.95 / reps)
    assert covered / reps >= 0.95 - 2 * se
    assert abs(null_hits / reps - 0.05) <= 3 * se


def test_randomized_tukey_family_wise_error_under_the_null():
    rng = np.random.default_rng(12)
    reps = 300
    hits = sum(bool((randomized_tukey(_blocked(rng, n=15, k=3), 399, rng)[3]
                     < 0.05).any()) for _ in range(reps))
    se = np.sqrt(0.05 * 0.95 / reps)
    assert abs(hits / reps - 0.05) <= 3 * se


@pytest.mark.parametrize("seed", [0, 1])
def test_maxt_is_exact_on_small_cases(seed):
    rng = np.random.default_rng(seed)
    d = rng.integers(-3, 4, size=(9, 4)) / 8.0
    d[2] = 0.0  # a group where nothing differs
    raw_ref, adj_ref = ref.maxt_exact(d[(d != 0).any(axis=1)].tolist())
    raw, adj, exact = maxt(d, 1024, np.random.default_rng(0))
    assert exact
    np.testing.assert_allclose(raw, raw_ref, rtol=1e-12)
    np.testing.assert_allclose(adj, adj_ref, rtol=1e-12)


def test_maxt_of_one_comparison_is_the_sign_flip_test():
    rng = np.random.default_rng(3)
    d = rng.normal(0.1, 1.0, size=12)
    raw, adj, exact = maxt(d[:, None], 10_000, np.random.default_rng(0))
    assert exact
    res = stats.permutation_test((d,), np.mean, permutation_type="samples",
                                 n_resamples=np.inf)
    assert raw[0] == adj[0] == pytest.approx(res.pvalue, rel=1e-12)


def test_maxt_lies_between_the_raw_p_value_and_bonferroni():
    rng = np.random.default_rng(4)
    d = rng.normal(0.05, 1.0, size=(200, 6))
    d[:, 3] = d[:, 2] * 2  # perfectly dependent comparisons
    raw, adj, exact = maxt(d, 3000, np.random.default_rng(1))
    assert not exact
    assert np.all(adj >= raw)
    assert np.all(adj <= np.minimum(1.0, 6 * raw) + 1e-12)
    # columns 2 and 3 are the same test: the same raw and adjusted p
    assert raw[2] == raw[3] and adj[2] == adj[3]
