"""Several runs per model: the runs' mean partials and the hierarchical
bootstrap (simulated data with a known mean)."""

import math

import numpy as np

from sklearn_rankeval._stats import (
    Partials,
    hierarchical_bootstrap_values,
    mean_partials,
    percentile_interval,
    ratio_of_sums,
)
from sklearn_rankeval._stats._averages import Average


def _average(values):
    n = values.shape[0]
    return Average(np.stack([values, np.ones(n)]), np.ones(n, bool), ratio_of_sums)


def test_mean_partials_average_values_and_stats_where_every_run_is_defined():
    a = Partials(np.array([1.0, 0.5, 0.0]), np.array([True, True, False]),
                 np.array([[2.0, 1.0, 0.0], [2.0, 2.0, 1.0]]))
    b = Partials(np.array([0.0, 0.25, 1.0]), np.array([True, False, True]),
                 np.array([[0.0, 1.0, 1.0], [2.0, 2.0, 1.0]]))
    m = mean_partials([a, b])
    np.testing.assert_array_equal(m.defined, [True, False, False])
    assert m.value[0] == 0.5
    np.testing.assert_array_equal(m.stats, [[1.0, 1.0, 0.5], [2.0, 2.0, 1.0]])


def test_one_run_is_the_plain_bootstrap_of_the_groups():
    rng = np.random.default_rng(0)
    x = rng.uniform(size=20)
    dist = hierarchical_bootstrap_values([[_average(x)]], 300,
                                         np.random.default_rng(1))[:, 0]
    # the same counts, drawn by the same generator
    from sklearn_rankeval._stats import bootstrap_values
    plain = bootstrap_values(_average(x), 300, np.random.default_rng(1))
    np.testing.assert_allclose(dist, plain, rtol=1e-12)


def test_hierarchical_interval_covers_the_mean_over_groups_and_runs():
    """x_rg = 0.5 + group effect + run (seed) effect + noise, both effects
    drawn anew in each repetition: the hierarchical 95% interval covers 0.5
    in >= 95% - 2 SE of the repetitions; resampling the groups of the runs'
    mean alone does not (it leaves the seeds' variance out)."""
    rng = np.random.default_rng(0)
    n_groups, n_runs, reps = 50, 10, 300
    covered = covered_groups_only = 0
    for _ in range(reps):
        x = (0.5 + rng.normal(0, 0.2, n_groups)[None]
             + rng.normal(0, 0.1, n_runs)[:, None]
             + rng.normal(0, 0.05, (n_runs, n_groups)))
        dist = hierarchical_bootstrap_values([[_average(r) for r in x]], 500, rng)
        low, high = percentile_interval(dist[:, 0], 0.95)
        covered += low <= 0.5 <= high
        dist = hierarchical_bootstrap_values([[_average(x.mean(axis=0))]], 500, rng)
        low, high = percentile_interval(dist[:, 0], 0.95)
        covered_groups_only += low <= 0.5 <= high
    se = math.sqrt(0.95 * 0.05 / reps)
    assert covered / reps >= 0.95 - 2 * se
    assert covered_groups_only / reps < 0.95 - 4 * se
