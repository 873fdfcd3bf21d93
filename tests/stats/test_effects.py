"""Effect sizes, TOST, power and risk (``_stats._effects``, ``_stats._risk``)
against pingouin (side install), statsmodels, scipy and plain loops."""

import math

import numpy as np
import pytest
from scipy import stats

from sklearn_rankeval._stats import (
    cohen_dz,
    georisk,
    groups_needed,
    groups_needed_ci,
    hedges_g_av,
    non_inferiority,
    paired_power,
    tost,
    trisk,
    urisk,
)
from tests import _reference as ref


def _pair(rng, n=40, shift=0.02):
    a = rng.uniform(0.2, 0.8, size=n)
    return a, a + shift + 0.05 * rng.standard_normal(n)


def test_effect_sizes_match_pingouin():
    pg = pytest.importorskip("pingouin", reason="pingouin: a side install")
    rng = np.random.default_rng(0)
    a, b = _pair(rng)
    dz, _, _ = cohen_dz(b - a)
    assert dz == pytest.approx(pg.compute_effsize(b, a, paired=True,
                                                  eftype="cohen_dz"), rel=1e-12)
    assert hedges_g_av(a, b) == pytest.approx(
        pg.compute_effsize(b, a, paired=True, eftype="hedges"), rel=1e-12)


def test_tost_matches_pingouin():
    pg = pytest.importorskip("pingouin", reason="pingouin: a side install")
    rng = np.random.default_rng(1)
    a, b = _pair(rng, n=60, shift=0.001)
    p, _, _ = tost(b - a, 0.02)
    assert p == pytest.approx(pg.tost(b, a, bound=0.02, paired=True)
                              .at["TOST", "pval"], rel=1e-10)


def test_dz_is_the_paired_t_over_sqrt_n_and_its_interval_inverts_the_nct():
    rng = np.random.default_rng(2)
    a, b = _pair(rng, n=30)
    d = b - a
    dz, low, high = cohen_dz(d, 0.9)
    t = stats.ttest_rel(b, a).statistic
    assert dz == pytest.approx(t / math.sqrt(30), rel=1e-12)
    # the limits are the effects whose noncentral t puts t in a 5% tail
    assert stats.nct.sf(t, 29, low * math.sqrt(30)) == pytest.approx(0.05, abs=1e-9)
    assert stats.nct.cdf(t, 29, high * math.sqrt(30)) == pytest.approx(0.05, abs=1e-9)


def test_dz_interval_coverage_by_simulation():
    """Normal differences with a known d_z = 0.4: the 90% interval covers it
    in >= 90% - 2 SE of seeded repetitions."""
    rng = np.random.default_rng(3)
    reps, n, true = 300, 25, 0.4
    covered = 0
    for _ in range(reps):
        d = true + rng.standard_normal(n)
        _, low, high = cohen_dz(d, 0.9)
        covered += low <= true <= high
    assert covered / reps >= 0.9 - 2 * math.sqrt(0.9 * 0.1 / reps)


def test_tost_is_two_one_sided_scipy_t_tests():
    rng = np.random.default_rng(4)
    a, b = _pair(rng, n=50, shift=0.003)
    d = b - a
    margin = 0.02
    p, low, high = tost(d, margin, alpha=0.05)
    p_low = stats.ttest_1samp(d, -margin, alternative="greater").pvalue
    p_high = stats.ttest_1samp(d, margin, alternative="less").pvalue
    assert p == pytest.approx(max(p_low, p_high), rel=1e-12)
    assert (low, high) == pytest.approx(ref.t_interval(d, 0.90), rel=1e-12)
    # equivalent at 0.05 exactly when the 90% interval lies inside the margins
    assert (p < 0.05) == (-margin < low and high < margin)
    assert non_inferiority(d, margin) == pytest.approx(p_low, rel=1e-12)


def test_tost_type_one_error_at_the_margin():
    """The true mean difference at the margin: TOST rejects in <= alpha of
    repetitions (within its binomial interval)."""
    rng = np.random.default_rng(5)
    reps = 400
    hits = sum(tost(0.02 + 0.05 * rng.standard_normal(40), 0.02)[0] < 0.05
               for _ in range(reps))
    assert hits / reps <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / reps)


@pytest.mark.parametrize("effect", [0.2, 0.5, 0.9])
def test_power_and_size_match_statsmodels(effect):
    power_mod = pytest.importorskip("statsmodels.stats.power")
    for n in (5, 20, 77):
        assert paired_power(effect, n) == pytest.approx(
            power_mod.TTestPower().power(effect, nobs=n, alpha=0.05), rel=1e-9)
        assert paired_power(effect, n, design="unpaired") == pytest.approx(
            power_mod.TTestIndPower().power(effect, nobs1=n, alpha=0.05), rel=1e-9)
    n = groups_needed(effect, alpha=0.05, power=0.8)
    solved = power_mod.TTestPower().solve_power(effect, alpha=0.05, power=0.8)
    assert n == math.ceil(solved)
    n2 = groups_needed(effect, design="unpaired")
    solved2 = power_mod.TTestIndPower().solve_power(effect, alpha=0.05, power=0.8)
    assert n2 == math.ceil(solved2)


def test_ci_width_design_is_the_smallest_n_under_the_width():
    sd, width = 0.1, 0.04
    n = groups_needed_ci(sd, width)

    def w(m):
        return 2 * stats.t.ppf(0.975, m - 1) * sd / math.sqrt(m)

    assert w(n) <= width < w(n - 1)


def test_urisk_and_trisk_from_their_definitions():
    rng = np.random.default_rng(6)
    d = rng.normal(0.01, 0.05, size=60)
    alpha = 2.0
    wins = sum(x for x in d if x > 0)
    losses = sum(-x for x in d if x < 0)
    assert urisk(d, alpha) == pytest.approx((wins - (1 + alpha) * losses) / 60,
                                            rel=1e-12)
    r = np.where(d < 0, (1 + alpha) * d, d)
    t, p = trisk(d, alpha)
    res = stats.ttest_1samp(r, 0)
    assert t == pytest.approx(res.statistic, rel=1e-12)
    assert p == pytest.approx(res.pvalue, rel=1e-12)
    # alpha = 0: URisk is the mean difference
    assert urisk(d, 0) == pytest.approx(d.mean(), rel=1e-12)


def test_georisk_matches_the_papers_formulas():
    rng = np.random.default_rng(7)
    x = rng.uniform(0, 1, size=(25, 4))
    x[3] = 0.0  # a topic no system retrieves for
    np.testing.assert_allclose(georisk(x, 1.0), ref.georisk_loop(x.tolist(), 1.0),
                               rtol=1e-12)
