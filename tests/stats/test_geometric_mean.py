"""``average="gmean"``: trec_eval's geometric mean (gm_map, gm_bpref).

exp of the weighted mean of log(max(value, 1e-5)), each query weighted as in
``"macro"``; checked against trec_eval's own outputs, a plain loop, and the
sums that RankingAccumulator(keep_groups=False) keeps per batch.
"""

import math

import numpy as np
import pytest

from sklearn_rankeval import (
    bpref_score,
    mean_average_precision_score,
    ndcg_score,
    precision_at_k_score,
)
from sklearn_rankeval._cli import _trec
from sklearn_rankeval._engine import rank_groups
from sklearn_rankeval._metrics._registry import METRICS
from sklearn_rankeval._stats._averages import (
    GroupInfo,
    average_finalize,
    average_terms,
    finalize_value,
    summed,
)
from tests.conftest import DATA_DIR

DATA = DATA_DIR / "trec_eval"


def _expected(out_name, measure):
    for line in (DATA / out_name).read_text().splitlines():
        name, query, value = line.split("\t")
        if name.rstrip() == measure and query == "all":
            return float(value)
    raise AssertionError(measure)


@pytest.mark.parametrize("qrels, run, out_name, level", [
    ("qrels.test", "results.test", "out.test.a", 1),
    ("qrels.test", "results.trunc", "out.test.aqc", 1),
    ("qrels.rel_level", "results.test", "out.test.aql", 2),
    ("qrels.comment.test", "results.comment.test", "out.comment.test", 1),
])
def test_gmean_reproduces_trec_eval_gm_map_and_gm_bpref(qrels, run, out_name,
                                                        level):
    arr = _trec.build_arrays(_trec.read_qrels(DATA / qrels),
                             _trec.read_run(DATA / run)[0],
                             relevance_level=level,
                             complete=out_name == "out.test.aqc")
    # a query without a relevant document counts 0 in trec_eval
    gm_map = mean_average_precision_score(arr.y_bin, arr.y_score, groups=arr.groups,
                                          average="gmean", undefined=0.0)
    assert round(gm_map, 4) == _expected(out_name, "gm_map")
    if out_name != "out.comment.test":  # the official set has no gm_bpref
        gm_bpref = bpref_score(arr.y_bin, arr.y_score, groups=arr.groups,
                               judged=arr.rel >= 0, average="gmean",
                               undefined=0.0)
        assert round(gm_bpref, 4) == _expected(out_name, "gm_bpref")
    # and rankeval trec's gm_map, unrounded
    rows = _trec.evaluate(arr, _trec.parse_measures(["gm_map"]))
    assert gm_map == pytest.approx(rows[0][3], rel=1e-12)
    # the arithmetic mean is not what trec_eval prints
    assert round(mean_average_precision_score(
        arr.y_bin, arr.y_score, groups=arr.groups, undefined=0.0), 4) != round(
        gm_map, 4)


def _data(seed, n_groups=40):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 12, n_groups)
    groups = np.repeat(np.arange(n_groups), sizes)
    y = (rng.random(groups.size) < 0.3).astype(int)
    y[np.flatnonzero(np.diff(groups, prepend=-1))[:3]] = 1  # a few defined
    score = rng.integers(0, 5, groups.size).astype(float)  # ties
    qw = rng.uniform(0.5, 3.0, n_groups)[groups]
    return y, score, groups, qw


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", [mean_average_precision_score, ndcg_score])
def test_gmean_equals_a_plain_loop(seed, metric):
    y, score, groups, qw = _data(seed)
    for weights, undefined in ((None, "skip"), (qw, "skip"), (qw, 0.0)):
        values = metric(y, score, groups=groups, sample_weight=weights,
                        average=None, undefined=undefined)
        # MAP's sample_weight weighs items (each query counts once in
        # 'macro'); NDCG's weighs queries
        item_weighted = metric is mean_average_precision_score
        w = np.ones(values.size) if weights is None or item_weighted else np.array(
            [weights[groups == g][0] for g in np.unique(groups)])
        num = den = 0.0
        for v, wi in zip(values, w):
            if not math.isnan(v):  # undefined groups are skipped
                num += wi * math.log(max(v, 1e-5))
                den += wi
        got = metric(y, score, groups=groups, sample_weight=weights,
                     average="gmean", undefined=undefined)
        assert got == pytest.approx(math.exp(num / den), rel=1e-12)
        assert np.isnan(values).any() == (undefined == "skip")
        assert got < metric(y, score, groups=groups, sample_weight=weights,
                            undefined=undefined)


def test_gmean_composes_from_per_batch_sums():
    # what RankingAccumulator(keep_groups=False) keeps per batch: (sum of
    # weighted logs, sum of weights, n defined); the sums of batches give the
    # one-shot value
    y, score, groups, qw = _data(5)
    spec = METRICS["map"]
    rg = rank_groups(y, score, groups=groups, sample_weight=qw)
    partials, info = spec.kernel(rg), GroupInfo.from_ranked(rg)
    whole = spec.aggregate(partials, info, average="gmean")
    batches = np.array_split(np.arange(info.labels.size), 4)
    sums = [summed(average_terms(partials.take(b), info.take(b), spec,
                                 average="gmean")) for b in batches]
    nums = [s[0] for s, _ in sums]
    dens = [s[1] for s, _ in sums]
    combined = finalize_value(np.array([math.fsum(nums), math.fsum(dens)]),
                              sum(n for _, n in sums), label="MAP",
                              finalize=average_finalize(spec, "gmean"))
    assert combined == pytest.approx(whole, rel=1e-12)
    # the sums are of logs: a plain ratio of them is not the geometric mean
    assert math.fsum(nums) / math.fsum(dens) < 0
    assert whole == pytest.approx(mean_average_precision_score(
        y, score, groups=groups, sample_weight=qw, average="gmean"), rel=1e-12)


def test_gmean_only_where_it_makes_sense():
    y, score, groups, _ = _data(1)
    with pytest.raises(ValueError, match="average must be one of"):
        precision_at_k_score(y, score, groups=groups, k=5, average="gmean")
    for name in ("map", "bpref", "mrr", "ndcg", "r_precision", "interpolated_ap"):
        assert "gmean" in METRICS[name].averages
    assert "gmean" not in METRICS["hit_rate"].averages
