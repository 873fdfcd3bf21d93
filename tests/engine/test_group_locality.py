"""A group's value depends on its own rows only (issue: weighted GAUC, MAP, iAP).

For every metric in the registry, a group's value in a large shuffled log
equals the group evaluated alone, whatever the other groups hold.
"""

import math
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_rankeval import per_group_scores
from sklearn_rankeval._metrics._names import metric_options, parse_metric_name
from sklearn_rankeval._metrics._registry import METRICS

# the metrics of relevance labels and scores (the CTR metrics: test_ctr.py)
SPECS = [s for s in METRICS.values() if s.scores == "order"]
NAMES = [f"{s.name}@3" if s.has_k else s.name for s in SPECS]
ITEM = [n for n in NAMES if parse_metric_name(n)[0].weights == "item"]
QUERY = [n for n in NAMES if parse_metric_name(n)[0].weights == "query"]


def _log(n_groups, seed, max_size=8):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size + 1, n_groups)
    g = np.repeat(rng.permutation(n_groups) * 7 + 3, sizes)
    n = g.shape[0]
    y = (rng.random(n) < 0.3) * rng.integers(1, 4, n)
    s = np.round(rng.random(n), 1)  # many ties
    perm = rng.permutation(n)
    return y[perm], s[perm], g[perm], rng


def _alone(name, y, s, w):
    spec, k = parse_metric_name(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return spec.func(y, s, sample_weight=w, average=None,
                         **metric_options(spec, k))[0]


@pytest.mark.parametrize("weights", ["item", "query"])
def test_values_in_a_large_log_equal_each_group_alone(weights):
    y, s, g, rng = _log(100_000, seed=1)
    ids = np.unique(g)
    if weights == "item":  # float item weights for the metrics that have them
        w, names = rng.random(len(g)) * 5 + 0.01, ITEM
    else:  # one float weight per group, for every metric
        w_of = dict(zip(ids, rng.random(len(ids)) * 3 + 0.1))
        w, names = np.array([w_of[i] for i in g]), NAMES
    frame = per_group_scores(y, s, groups=g, metrics=names, sample_weight=w,
                             output="dict")
    for j in rng.choice(len(ids), 25, replace=False):
        m = g == ids[j]
        for name in names:
            assert_allclose(frame[name][j], _alone(name, y[m], s[m], w[m]),
                            rtol=1e-12, atol=1e-15, equal_nan=True,
                            err_msg=f"{name} of group {ids[j]}")


def test_a_constant_weight_leaves_every_group_value_unchanged_exactly():
    y, s, g, rng = _log(20_000, seed=2)
    ids = np.unique(g)
    w_of = dict(zip(ids, rng.random(len(ids)) * 3 + 0.1))
    w = np.array([w_of[i] for i in g])
    weighted = per_group_scores(y, s, groups=g, metrics=NAMES, sample_weight=w,
                                output="dict")
    plain = per_group_scores(y, s, groups=g, metrics=NAMES, output="dict")
    for name in NAMES:
        # exactly: the levels of interpolated AP are those of the counts
        assert_array_equal(weighted[name], plain[name], err_msg=name)


def test_a_group_next_to_a_huge_heavy_group_is_unchanged():
    rng = np.random.default_rng(3)
    y_small = np.array([1, 0, 1, 0, 0, 1, 0])
    s_small = np.array([0.3, 0.3, 0.2, 0.9, 0.2, 0.1, 0.5])
    w_small = np.array([0.7, 1.3, 0.2, 2.9, 1.1, 0.4, 0.3])
    n_big = 200_000
    y = np.concatenate([(rng.random(n_big) < 0.5).astype(int), y_small])
    s = np.concatenate([np.round(rng.random(n_big), 3), s_small])
    w = np.concatenate([np.full(n_big, 1e6) * (1 + rng.random(n_big)), w_small])
    g = np.concatenate([np.zeros(n_big, dtype=int), np.ones(7, dtype=int)])
    perm = rng.permutation(len(g))
    frame = per_group_scores(y[perm], s[perm], groups=g[perm], metrics=ITEM,
                             sample_weight=w[perm], output="dict")
    for name in ITEM:
        assert_allclose(frame[name][1], _alone(name, y_small, s_small, w_small),
                        rtol=1e-12, err_msg=name)


def test_totals_do_not_accumulate_rounding():
    # weighted GAUC over many groups: the total equals exact (fsum) arithmetic
    y, s, g, rng = _log(100_000, seed=4)
    w = rng.random(len(g)) * 1e3
    frame = per_group_scores(y, s, groups=g, metrics=["gauc"], sample_weight=w,
                             output="dict")
    keep = ~np.isnan(frame["gauc"])
    num = math.fsum((frame["weight"][keep] * frame["gauc"][keep]).tolist())
    den = math.fsum(frame["weight"][keep].tolist())
    got = METRICS["gauc"].func(y, s, groups=g, sample_weight=w)
    assert got == pytest.approx(num / den, rel=1e-14)
