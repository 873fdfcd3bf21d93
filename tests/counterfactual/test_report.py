"""counterfactual_report: unbiased estimates of a known position-based model,
interval coverage, NumPy references of clip and snips, ties, bad input."""

from itertools import permutations, product

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy.stats import binom

from sklearn_rankeval import PositionBiasEstimator, counterfactual_report
from tests.counterfactual._simulate import (
    coefficients,
    new_rank,
    simulate,
    truth_per_query,
)

THETA = 1.0 / np.arange(1, 9) ** 0.8
K = 5


def _setup(seed, n_impressions):
    rng = np.random.default_rng(seed)
    gamma = rng.beta(1, 2, (30, 8))
    log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=n_impressions)
    # the new ranker: a noisy view of the true relevance, untied
    new = gamma + 0.2 * rng.standard_normal(gamma.shape)
    return rng, gamma, log, new


def _report(log, new, **kw):
    score = new[log["query"], log["doc"]]
    return counterfactual_report(log["clicks"], score, log["positions"],
                                 groups=log["groups"], propensities=THETA, **kw)


@pytest.mark.parametrize("metric, name", [("dcg", f"dcg@{K}"),
                                          ("precision", f"precision@{K}"),
                                          ("arp", "avg_rel_rank")])
@pytest.mark.parametrize("seed", [0, 1])
def test_ips_is_within_a_few_standard_errors_of_the_truth(metric, name, seed):
    _, gamma, log, new = _setup(seed, 4000)
    n = log["groups"].max() + 1
    # the truth of the impressions of the log: each one's query, its true
    # relevance as gains, ranked by the new ranker
    per_query = truth_per_query(gamma, new, metric, K)
    queries = log["query"][:: 8]
    truth = per_query[queries].mean()
    # the exact standard error of the IPS mean given the displays: the
    # estimate is sum(a * click / theta); Var(click / theta) = g (1/theta - g)
    a = coefficients(new_rank(new), metric, K)[log["query"], log["doc"]]
    th = THETA[log["positions"] - 1]
    se = np.sqrt(np.sum(a**2 * log["gamma"] * (1 / th - log["gamma"]))) / n
    ips = _report(log, new, metrics=[name])[name]
    naive = _report(log, new, metrics=[name], estimator="naive")[name]
    assert abs(ips - truth) < 4 * se
    assert abs(naive - truth) > 10 * se


def test_bootstrap_intervals_cover_the_truth():
    # small logs, many seeded replications: the share of 95% intervals that
    # hold the population truth (the mean over the uniformly drawn queries)
    rng = np.random.default_rng(100)
    gamma = rng.beta(1, 2, (30, 8))
    new = gamma + 0.2 * rng.standard_normal(gamma.shape)
    metrics = {"dcg": f"dcg@{K}", "precision": f"precision@{K}", "arp": "avg_rel_rank"}
    truth = {m: truth_per_query(gamma, new, m, K).mean() for m in metrics}
    n_reps = 300
    covered = dict.fromkeys(metrics, 0)
    for rep in range(n_reps):
        log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=500)
        report = _report(log, new, metrics=list(metrics.values()), confidence=0.95,
                         n_resamples=300, random_state=rep)
        for m, name in metrics.items():
            low, high = report[name]["ci_low"], report[name]["ci_high"]
            covered[m] += low <= truth[m] <= high
    # a two-sided binomial check at level 0.002 around 95%
    lo, hi = binom.ppf([0.001, 0.999], n_reps, 0.95)
    for m, count in covered.items():
        assert lo <= count <= hi, (m, count)


# -- NumPy references written from the definitions ----------------------------
def _reference(clicks, y_score, positions, groups, propensities, metric, k,
               clip=None, pooled=False):
    """The metric of each group, from the definition, and their mean over
    the groups where it is defined (every group for sums; groups with a
    click for ratios); ``pooled``: the recall as one ratio of the sums over
    every group (SNIPS, Swaminathan and Joachims 2015)."""
    values, tops, totals = [], [], []
    metric = {"avg_rel_rank": "arp"}.get(metric, metric)
    for g in np.unique(groups):
        m = groups == g
        weight = 1.0 / propensities[positions[m] - 1]
        if clip is not None:
            weight = np.minimum(weight, clip)
        r = clicks[m] * weight
        r = r[np.argsort(-y_score[m], kind="stable")]  # untied scores
        rank = np.arange(1, r.shape[0] + 1)
        disc = 1.0 / np.log2(1.0 + rank)
        top = rank <= (k or r.shape[0])
        if metric == "dcg":
            values.append(np.sum(r * disc * top))
        elif metric == "precision":
            values.append(np.sum(r * top) / k)
        elif metric == "arp":
            values.append(np.sum(r * rank))
        elif r.sum() > 0 and metric == "ndcg":
            ideal = np.sort(r)[::-1]
            values.append(np.sum(r * disc * top) / np.sum(ideal * disc * top))
        elif r.sum() > 0 and metric == "recall":
            values.append(np.sum(r * top) / np.sum(r))
        tops.append(np.sum(r * top))
        totals.append(np.sum(r))
    if pooled:
        return np.sum(tops) / np.sum(totals)
    return np.mean(values)


@pytest.mark.usefixtures("engine_path")  # every ranker of the engine
@pytest.mark.parametrize("estimator, metric, k", [
    ("ips", "dcg", 3), ("ips", "dcg", None), ("ips", "precision", 3),
    ("ips", "avg_rel_rank", None), ("naive", "ndcg", 3), ("naive", "ndcg", None),
    ("snips", "recall", 3), ("snips", "recall", 1), ("naive", "recall", 2),
    ("naive", "dcg", 2)])
@pytest.mark.parametrize("clip", [None, 2.5])
def test_equals_a_numpy_reference(estimator, metric, k, clip):
    rng = np.random.default_rng(11)
    n = 600
    groups = rng.integers(0, 80, n)
    positions = np.zeros(n, dtype=int)
    for g in np.unique(groups):  # 1..size within each group
        m = np.flatnonzero(groups == g)
        positions[m] = rng.permutation(m.shape[0]) + 1
    clicks = (rng.random(n) < 0.3).astype(int)
    y_score = rng.standard_normal(n)
    propensities = 1.0 / np.arange(1, positions.max() + 1) ** 0.9
    name = metric if k is None else f"{metric}@{k}"
    got = counterfactual_report(clicks, y_score, positions, groups=groups,
                                propensities=propensities, metrics=[name],
                                estimator=estimator, clip=clip)[name]
    expected = _reference(clicks, y_score, positions, groups,
                          np.ones_like(propensities) if estimator == "naive"
                          else propensities, metric, k,
                          clip=None if estimator == "naive" else clip,
                          pooled=estimator == "snips")
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.usefixtures("engine_path")
def test_ties_give_the_expected_value_over_the_orders():
    rng = np.random.default_rng(12)
    propensities = np.array([1.0, 0.7, 0.4, 0.3, 0.2])
    for _ in range(10):
        n = int(rng.integers(2, 6))
        clicks = rng.integers(0, 2, n)
        clicks[0] = 1
        positions = rng.permutation(n) + 1
        y_score = rng.integers(0, 2, n).astype(float)  # ties
        for name, estimator in [("dcg@2", "ips"), ("precision@2", "ips"),
                                ("avg_rel_rank", "ips"), ("ndcg@2", "naive"),
                                ("recall@2", "snips")]:
            got = counterfactual_report(clicks, y_score, positions,
                                        groups=np.zeros(n), propensities=propensities,
                                        metrics=[name], estimator=estimator)[name]
            # every order of the tied rows, each untied
            order = np.argsort(-y_score, kind="stable")
            blocks = [order[y_score[order] == v] for v in np.unique(y_score)[::-1]]
            values = []
            for choice in product(*(list(permutations(b)) for b in blocks)):
                perm = np.concatenate(choice)
                untied = np.empty(n)
                untied[perm] = -np.arange(n, dtype=float)
                values.append(_reference(clicks, untied, positions, np.zeros(n),
                                         np.ones(5) if estimator == "naive"
                                         else propensities, name.split("@")[0],
                                         2 if "@" in name else None))
            assert got == pytest.approx(np.mean(values), rel=1e-12), name


def test_fitted_estimator_equals_its_array_and_row_order_does_not_matter():
    rng, gamma, log, new = _setup(3, 2000)
    est = PositionBiasEstimator().fit(log["clicks"], log["positions"],
                                      items=log["items"])
    score = new[log["query"], log["doc"]]
    metrics = ["dcg@5", "precision@3", "avg_rel_rank"]
    a = counterfactual_report(log["clicks"], score, log["positions"],
                              groups=log["groups"], propensities=est, metrics=metrics)
    perm = rng.permutation(score.shape[0])
    b = counterfactual_report(log["clicks"][perm], score[perm], log["positions"][perm],
                              groups=log["groups"][perm],
                              propensities=list(est.propensities_), metrics=metrics)
    for name in metrics:
        assert a[name] == pytest.approx(b[name], rel=1e-12)


def test_query_weights_equal_repeated_impressions():
    _, _, log, new = _setup(4, 300)
    score = new[log["query"], log["doc"]]
    wq = np.random.default_rng(4).integers(1, 4, 300)
    w = wq[log["groups"]]
    rep_groups = np.repeat(np.arange(300), wq)
    rows = np.concatenate([np.flatnonzero(log["groups"] == g) for g in rep_groups])
    new_ids = np.repeat(np.arange(rep_groups.shape[0]), 8)
    for estimator, metrics in [("ips", ["dcg@3", "precision@3", "avg_rel_rank"]),
                               ("snips", ["recall@3"]),
                               ("naive", ["ndcg@3", "recall@3"])]:
        a = counterfactual_report(log["clicks"], score, log["positions"],
                                  groups=log["groups"], propensities=THETA,
                                  metrics=metrics, estimator=estimator,
                                  sample_weight=w.astype(float))
        b = counterfactual_report(log["clicks"][rows], score[rows],
                                  log["positions"][rows], groups=new_ids,
                                  propensities=THETA, metrics=metrics,
                                  estimator=estimator)
        for name in metrics:
            assert a[name] == pytest.approx(b[name], rel=1e-12)


def test_intervals_and_frame_output():
    _, _, log, new = _setup(5, 400)
    score = new[log["query"], log["doc"]]
    kw = dict(groups=log["groups"], propensities=THETA,
              metrics=["dcg@3", "avg_rel_rank"])
    plain = counterfactual_report(log["clicks"], score, log["positions"], **kw)
    with_ci = counterfactual_report(log["clicks"], score, log["positions"], **kw,
                                    confidence=0.9, n_resamples=200, random_state=0)
    again = counterfactual_report(log["clicks"], score, log["positions"], **kw,
                                  confidence=0.9, n_resamples=200, random_state=0)
    assert with_ci == again
    for name, value in plain.items():
        assert with_ci[name]["value"] == value
        assert with_ci[name]["ci_low"] < value < with_ci[name]["ci_high"]
    frame = counterfactual_report(log["clicks"], score, log["positions"], **kw,
                                  confidence=0.9, n_resamples=200, random_state=0,
                                  output="frame")
    assert list(frame.columns) == ["metric", "value", "ci_low", "ci_high", "n_groups"]
    assert frame["metric"].tolist() == ["dcg@3", "avg_rel_rank"]
    assert frame["ci_low"].tolist() == [with_ci[n]["ci_low"]
                                        for n in ("dcg@3", "avg_rel_rank")]
    # dcg and arp are defined in every impression
    assert frame["n_groups"].tolist() == [400, 400]


def test_snips_is_one_ratio_of_sums_over_the_log():
    clicks = [1, 0, 0, 0, 0, 1]
    positions = [1, 2, 1, 2, 1, 2]
    groups = [0, 0, 1, 1, 2, 2]
    y_score = [0.1, 0.9, 0.5, 0.4, 0.1, 0.9]
    frame = counterfactual_report(clicks, y_score, positions, groups=groups,
                                  propensities=[1, 0.5], metrics=["recall@1"],
                                  estimator="snips", output="frame")
    # impression 0: its click (gain 1) ranked 2nd; impression 2: its click
    # (gain 1 / 0.5 = 2) ranked 1st; 1: none.  (0 + 2) / (1 + 2), where a
    # ratio per impression would give (0 + 1) / 2
    assert frame["value"].tolist() == [pytest.approx(2 / 3, rel=1e-15)]
    assert frame["n_groups"].tolist() == [2]


# -- bad input -----------------------------------------------------------------
GOOD = dict(clicks=np.array([1, 0, 1, 0, 1, 0]), y_score=np.array([0.2, 0.5, 0.9, 0.1, 0.8, 0.8]),
            positions=np.array([1, 2, 3, 1, 2, 3]), groups=np.array([0, 0, 0, 1, 1, 1]),
            propensities=np.array([1.0, 0.5, 0.25]))

BAD = [
    ("clicks", dict(clicks=[1, 2, 1, 0, 1, 0])),
    ("clicks", dict(clicks=[1, np.nan, 1, 0, 1, 0])),
    ("clicks", dict(clicks=[1, 0, 1])),
    ("positions", dict(positions=[0, 2, 3, 1, 2, 3])),
    ("positions", dict(positions=[1, 2.5, 3, 1, 2, 3])),
    ("positions", dict(positions=[1, -2, 3, 1, 2, 3])),
    ("positions", dict(positions=[1, 2, 3])),
    ("positions", dict(positions=[1, 2, 4, 1, 2, 3])),  # beyond the propensities
    ("propensities", dict(propensities=[1.0, 0.0, 0.25])),
    ("propensities", dict(propensities=[1.0, -0.5, 0.25])),
    ("propensities", dict(propensities=[1.0, np.nan, 0.25])),
    ("propensities", dict(propensities=[1.0, np.inf, 0.25])),
    ("propensities", dict(propensities=[[1.0, 0.5, 0.25]])),
    ("y_score", dict(y_score=[0.2, np.nan, 0.9, 0.1, 0.8, 0.8])),
    ("y_score", dict(y_score=[0.2, 0.5])),
    ("groups", dict(groups=[0, 0, 1])),
    ("groups", dict(groups=None)),
    ("sample_weight", dict(sample_weight=[1, 1, 1, 1, 1, -1.0])),
    ("sample_weight", dict(sample_weight=[1, 1, 2, 1, 1, 1.0])),  # not per group
    ("clip", dict(clip=0)),
    ("clip", dict(clip=-1.0)),
    ("clip", dict(clip=float("nan"))),
    ("clip", dict(clip=0.5)),  # below 1: would shrink position 1's clicks
    ("positions", dict(groups=[0, 0, 0, 0, 0, 0])),  # positions 1-3 twice
    ("estimator", dict(estimator="dr")),
    ("metrics", dict(metrics=["mrr"])),
    ("metrics", dict(metrics=["precision"])),
    ("metrics", dict(metrics=["precision@0"])),
    ("metrics", dict(metrics=["arp@3"])),
    ("metrics", dict(metrics=["ndcg@3"])),  # naive only
    ("metrics", dict(metrics=["dcg@3"], estimator="snips")),
    ("output", dict(output="html")),
    ("confidence", dict(confidence=1.5)),
]


@pytest.mark.parametrize("argument, bad", BAD,
                         ids=[f"{a}-{i}" for i, (a, _) in enumerate(BAD)])
def test_bad_input_names_the_argument_and_is_not_modified(argument, bad):
    kwargs = {name: np.array(value, copy=True) for name, value in GOOD.items()}
    kwargs.update({name: value if value is None or isinstance(value, (str, float, int))
                   or name == "metrics" else np.asarray(value)
                   for name, value in bad.items()})
    arrays = {name: value for name, value in kwargs.items()
              if isinstance(value, np.ndarray)}
    copies = {name: value.copy() for name, value in arrays.items()}
    for value in arrays.values():
        value.flags.writeable = False
    with pytest.raises(ValueError, match=argument):
        counterfactual_report(kwargs.pop("clicks"), kwargs.pop("y_score"),
                              kwargs.pop("positions"), **kwargs)
    for name, value in arrays.items():
        assert_array_equal(value, copies[name])


def test_a_misspelt_metric_is_read_by_the_one_name_reader():
    from sklearn_rankeval import counterfactual_report

    with pytest.raises(ValueError, match=r"^metrics: 'precison@10' is not a "
                                         r"counterfactual report metric name; "
                                         r"valid names are .* Did you mean "
                                         r"'precision@10'\?$"):
        counterfactual_report([1, 0], [0.2, 0.1], [1, 2], groups=[0, 0],
                              propensities=[1.0, 0.5], metrics=["precison@10"])
