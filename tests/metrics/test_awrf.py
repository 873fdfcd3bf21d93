"""AWRF against the two tools that give the name to two quantities: the TREC
Fair Ranking 2022 evaluation code's rule and FairRankTune's, both written
with loops in :func:`tests._reference.awrf_loop` (every order of tied items
enumerated), and FairRankTune itself where it is installed."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_rankeval import awrf_score, ranking_report

from .._reference import awrf_loop

DISTANCES = ("MinMaxRatio", "MaxMinRatio", "MaxMinDiff", "MaxAbsDiff",
             "MeanAbsDev", "LTwo", "Variance")


def _data(seed, n_groups=4, ties=True):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 7, n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    n = g.shape[0]
    s = (rng.integers(0, 3, n).astype(float) if ties
         else rng.permutation(n).astype(float))
    cat = rng.choice(["north", "south", "west"], n)
    for q in range(n_groups):  # two groups at least in each query
        first = np.flatnonzero(g == q)[:2]
        cat[first] = ["north", "south"]
    perm = rng.permutation(n)
    return s[perm], g[perm], cat[perm]


@pytest.mark.parametrize("seed", range(5))
def test_trec2022_is_the_track_rule(seed):
    s, g, cat = _data(seed)
    got = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=cat, average=None)
    assert_allclose(got, awrf_loop(s, g, cat), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_trec2022_with_a_target(seed):
    s, g, cat = _data(seed)
    target = {"north": 0.5, "south": 0.3, "west": 0.2}
    got = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=cat,
                     target=target, average=None)
    assert_allclose(got, awrf_loop(s, g, cat, target=target), rtol=1e-12, atol=1e-12)


def test_several_dimensions_are_intersected():
    s, g, cat = _data(9)
    other = np.where(np.arange(len(s)) % 2 == 0, "x", "y")
    both = np.stack([cat, other], axis=1)
    joined = np.array([f"{a}|{b}" for a, b in both])
    got = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=both, average=None)
    assert_allclose(got, awrf_loop(s, g, joined), rtol=1e-12, atol=1e-12)
    target = {(a, b): 1.0 + i for i, (a, b) in enumerate(
        sorted({tuple(r) for r in both.tolist()}))}
    got = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=both,
                     target=target, average=None)
    expected = awrf_loop(s, g, joined, target={f"{a}|{b}": v
                                               for (a, b), v in target.items()})
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("distance", DISTANCES)
@pytest.mark.parametrize("seed", range(3))
def test_fairranktune_is_its_rule(distance, seed):
    s, g, cat = _data(seed)
    got = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=cat,
                     convention="fairranktune", distance=distance, p=0.3,
                     average=None)
    assert_allclose(got, awrf_loop(s, g, cat, convention="fairranktune", p=0.3,
                                   distance=distance), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("distance", DISTANCES)
def test_fairranktune_itself(distance):
    """FairRankTune's own AWRF on several rankings of one query (its
    ranking columns: our samples)."""
    frt = pytest.importorskip("FairRankTune", reason="FairRankTune (peer)")
    import pandas as pd

    rng = np.random.default_rng(4)
    names = [f"d{i}" for i in range(6)]
    group_of = {name: int(rng.integers(0, 3)) for name in names}
    group_of["d0"], group_of["d1"], group_of["d2"] = 0, 1, 2
    rankings = [list(rng.permutation(names)) for _ in range(3)]
    expected, _ = frt.Metrics.AWRF(pd.DataFrame({f"r{j}": r for j, r in
                                                 enumerate(rankings)}),
                                   group_of, 0.4, distance)
    items = [name for r in rankings for name in r]
    samples = np.repeat(np.arange(3), 6)
    score = np.tile(-np.arange(6.0), 3)
    got = awrf_score(np.zeros(18), score, groups=np.zeros(18), samples=samples,
                     items=items, item_groups=[group_of[i] for i in items],
                     convention="fairranktune", distance=distance, p=0.4)
    assert got == pytest.approx(float(expected), rel=1e-12)


def test_row_order_never_changes_the_value():
    s, g, cat = _data(2)
    base = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=cat, average=None)
    perm = np.random.default_rng(1).permutation(len(s))
    again = awrf_score(np.zeros(len(s)), s[perm], groups=g[perm],
                       item_groups=cat[perm], average=None)
    assert_allclose(again, base, rtol=1e-13)


def test_without_item_groups_each_item_is_a_group():
    s, g, _ = _data(3)
    items = np.arange(len(s))
    expected = awrf_loop(s, g, items)
    got = awrf_score(np.zeros(len(s)), s, groups=g, average=None)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    report = ranking_report(np.zeros(len(s)), s, groups=g, metrics=["awrf"],
                            output="dict")
    assert report["awrf"] == pytest.approx(expected.mean(), rel=1e-12)
    got = awrf_score(np.zeros(len(s)), s, groups=g, average=None,
                     convention="fairranktune")
    assert_allclose(got, awrf_loop(s, g, items, convention="fairranktune"),
                    rtol=1e-12)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"target": {"a": 1}}, ValueError, "target needs item_groups"),
    ({"item_groups": ["a", "b", "a"], "distance": "MinMaxRatio"}, ValueError,
     "distance must be 'js'"),
    ({"item_groups": ["a", "b", "a"], "convention": "fairranktune",
      "distance": "js"}, ValueError, "distance must be one of"),
    ({"item_groups": ["a", "b", "a"], "convention": "fairranktune",
      "target": {"a": 1, "b": 1}}, ValueError, "target is not used"),
    ({"item_groups": ["a", "b", "a"], "target": {"a": 1}}, ValueError,
     "target has no share for the item group"),
    ({"item_groups": ["a", "b", "a"], "target": [1, 2]}, ValueError,
     "target must be a mapping"),
    ({"item_groups": ["a", "b", "a"], "target": {"a": -1, "b": 2}}, ValueError,
     "target must give finite shares"),
    ({"item_groups": ["a", "b", "a"], "convention": "trec"}, ValueError,
     "convention must be one of"),
    ({"item_groups": ["a", "b"]}, ValueError, "item_groups must have one id"),
])
def test_bad_input_names_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        awrf_score([0, 0, 0], [3, 2, 1], groups=[0, 0, 0], **kwargs)


def test_a_target_group_that_no_item_belongs_to_keeps_its_share():
    y, s = np.zeros(6), np.array([3, 2, 1, 3, 2, 1.0])
    g, cat = np.array([0, 0, 0, 1, 1, 1]), np.array(list("ababab"))
    for target in ({"a": .4, "b": .4, "c": .2}, {"a": 0, "b": 0, "c": 1},
                   {"a": 1, "b": 3, "z": 0.5}):
        got = awrf_score(y, s, groups=g, item_groups=cat, target=target,
                         average=None)
        assert_allclose(got, awrf_loop(s, g, cat, target=target), rtol=1e-12,
                        atol=1e-12)
    # a share only a group of the mapping holds is read too: negative refused
    with pytest.raises(ValueError, match="target must give finite shares"):
        awrf_score(y, s, groups=g, item_groups=cat,
                   target={"a": 1, "b": 1, "z": -5})


def test_2d_item_groups_are_read_as_values_not_strings():
    s, g, _ = _data(4)
    rng = np.random.default_rng(4)
    dims = rng.integers(0, 2, (len(s), 2))
    target = {(0, 0): 1, (0, 1): 2, (1, 0): 3, (1, 1): 4}
    as_int = awrf_score(np.zeros(len(s)), s, groups=g, item_groups=dims,
                        target=target, average=None)
    as_float = awrf_score(np.zeros(len(s)), s, groups=g,
                          item_groups=dims.astype(float), target=target,
                          average=None)
    joined = np.array([f"{a}|{b}" for a, b in dims])
    expected = awrf_loop(s, g, joined, target={f"{a}|{b}": v for (a, b), v
                                               in target.items()})
    assert_allclose(as_int, expected, rtol=1e-12, atol=1e-12)
    assert_allclose(as_float, expected, rtol=1e-12, atol=1e-12)
