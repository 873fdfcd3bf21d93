"""What a new user hit, round 2 (issue 41): the randomized fit without
items, estimators side by side, each estimator's defaults, the renamed
metric, the one log rule, the maximum likelihood against a generic
optimizer, intervention harvesting and SNIPS against a simulated truth, and
the refitted intervals."""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy.optimize import minimize

from sklearn_rankeval import PositionBiasEstimator, counterfactual_report
from tests.counterfactual._simulate import new_rank, simulate, truth_per_query

THETA = 1.0 / np.arange(1, 9) ** 0.8
THETA10 = 1.0 / np.arange(1, 11) ** 0.8


def _log(seed=0, n_impressions=400, n_queries=30, shuffled=False):
    rng = np.random.default_rng(seed)
    gamma = rng.beta(1, 2, (n_queries, 8))
    log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=n_impressions,
                   shuffled=shuffled)
    new = gamma + 0.2 * rng.standard_normal(gamma.shape)
    log["score"] = new[log["query"], log["doc"]]
    return log, gamma, new


# -- item 1: the randomized fit needs no items --------------------------------
def test_randomized_fit_without_items_is_the_ratio_of_click_through_rates():
    log, _, _ = _log(1, 3000, shuffled=True)
    est = PositionBiasEstimator(method="randomized").fit(log["clicks"],
                                                         log["positions"])
    ctr = (np.bincount(log["positions"] - 1, weights=log["clicks"])
           / np.bincount(log["positions"] - 1))
    assert_allclose(est.propensities_, ctr / ctr[0], rtol=1e-12)
    # with items, the same (they are not read)
    with_items = PositionBiasEstimator(method="randomized").fit(
        log["clicks"], log["positions"], items=log["items"])
    assert_allclose(with_items.propensities_, est.propensities_, rtol=0)
    for method in ("em", "harvest"):
        with pytest.raises(ValueError, match=f"items must identify .*method='{method}'"):
            PositionBiasEstimator(method=method).fit(log["clicks"], log["positions"])


# -- items 2-3: defaults, side by side, text ----------------------------------
def test_each_estimator_reads_its_own_default_metrics():
    log, _, _ = _log(2)
    kw = dict(groups=log["groups"], propensities=THETA)
    snips = counterfactual_report(log["clicks"], log["score"], log["positions"],
                                  estimator="snips", **kw)
    assert list(snips) == ["recall@10"]
    ips = counterfactual_report(log["clicks"], log["score"], log["positions"], **kw)
    assert list(ips) == ["dcg@10", "precision@10", "avg_rel_rank"]
    naive = counterfactual_report(log["clicks"], log["score"], log["positions"],
                                  estimator="naive", **kw)
    assert list(naive) == ["dcg@10", "precision@10", "avg_rel_rank"]


def test_estimators_side_by_side_equal_their_own_reports():
    log, _, _ = _log(3)
    args = (log["clicks"], log["score"], log["positions"])
    kw = dict(groups=log["groups"], propensities=THETA, confidence=0.9,
              n_resamples=200, random_state=7)
    trio = ("naive", "ips", "snips")
    frame = counterfactual_report(*args, estimator=trio, output="frame", **kw)
    assert list(frame.columns) == [
        "metric", "naive", "naive_ci_low", "naive_ci_high", "ips", "ips_ci_low",
        "ips_ci_high", "snips", "snips_ci_low", "snips_ci_high"]
    # the union of the defaults, in order
    assert frame["metric"].tolist() == ["dcg@10", "precision@10", "avg_rel_rank",
                                        "recall@10"]
    defined = {"naive": ["dcg@10", "precision@10", "avg_rel_rank", "recall@10"],
               "ips": ["dcg@10", "precision@10", "avg_rel_rank"],
               "snips": ["recall@10"]}
    for e in trio:
        own = counterfactual_report(*args, estimator=e, metrics=defined[e],
                                    output="dict", **kw)
        for _, row in frame.iterrows():
            if row["metric"] in own:
                got = own[row["metric"]]
                assert row[e] == got["value"]
                assert (row[f"{e}_ci_low"], row[f"{e}_ci_high"]) == (
                    got["ci_low"], got["ci_high"])
            else:  # a metric the estimator does not define
                assert np.isnan(row[e])
    nested = counterfactual_report(*args, estimator=trio, output="dict", **kw)
    assert set(nested) == set(trio) and "recall@10" not in nested["ips"]
    text = counterfactual_report(*args, estimator=trio, output="text", **kw)
    lines = text.splitlines()
    assert lines[0].split() == ["metric", "naive", "ips", "snips"]
    row = lines[1 + frame["metric"].tolist().index("dcg@10")]
    ips = frame.set_index("metric").loc["dcg@10"]
    assert f"{ips['ips']:.4f} [{ips['ips_ci_low']:.4f}, {ips['ips_ci_high']:.4f}]" in row
    assert row.rstrip().endswith("-")  # no SNIPS dcg
    assert lines[-2] == f"impressions: {log['groups'].max() + 1}"


def test_a_data_frame_log_to_a_side_by_side_table():
    # the guide's first example, from a pandas log
    log, _, _ = _log(4)
    frame = pd.DataFrame({"impression": log["groups"], "clicked": log["clicks"],
                          "position": log["positions"], "score": log["score"],
                          "item": log["items"]})
    est = PositionBiasEstimator(method="harvest").fit(
        frame["clicked"], frame["position"], items=frame["item"],
        groups=frame["impression"])
    table = counterfactual_report(
        frame["clicked"], frame["score"], frame["position"],
        groups=frame["impression"], propensities=est,
        estimator=("naive", "ips", "snips"), confidence=0.95, n_resamples=100,
        random_state=0, output="frame")
    assert table.shape == (4, 10)
    ips = counterfactual_report(frame["clicked"], frame["score"], frame["position"],
                                groups=frame["impression"], propensities=est)
    assert table.set_index("metric").loc["dcg@10", "ips"] == ips["dcg@10"]


# -- item 6: the renamed metric -------------------------------------------------
def test_arp_is_avg_rel_rank_with_a_future_warning():
    log, _, _ = _log(5)
    kw = dict(groups=log["groups"], propensities=THETA)
    args = (log["clicks"], log["score"], log["positions"])
    with pytest.warns(FutureWarning, match="'arp' of counterfactual_report is "
                                           "renamed 'avg_rel_rank'"):
        old = counterfactual_report(*args, metrics=["arp"], **kw)
    new = counterfactual_report(*args, metrics=["avg_rel_rank"], **kw)
    assert old == new
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        counterfactual_report(*args, **kw)  # the defaults: no warning


# -- item 5b: one log rule --------------------------------------------------------
def test_a_repeated_position_is_one_message_from_every_door():
    log, _, _ = _log(6, 50)
    by_query = log["query"]  # several impressions of a query in one group
    with pytest.raises(ValueError) as report:
        counterfactual_report(log["clicks"], log["score"], log["positions"],
                              groups=by_query, propensities=THETA)
    with pytest.raises(ValueError) as fit:
        PositionBiasEstimator().fit(log["clicks"], log["positions"],
                                    items=log["items"], groups=by_query)
    assert str(report.value) == str(fit.value)
    n_bad = int(np.sum(np.bincount(by_query) > 8))  # queries with > 1 impression
    assert str(fit.value).startswith(f"positions: {n_bad} impression(s) (groups) "
                                     f"show a position on several rows")


def test_clip_below_one_is_refused_and_one_impression_warns():
    clicks, score, positions = [1, 0, 1], [0.3, 0.2, 0.1], [1, 2, 3]
    for clip in (0.5, 0.999):
        with pytest.raises(ValueError, match="clip must be None or a finite number "
                                             ">= 1"):
            counterfactual_report(clicks, score, positions, groups=[0, 0, 0],
                                  propensities=[1, 0.5, 0.25], clip=clip)
    # clip=1: the clicks themselves, as naive
    one = counterfactual_report(clicks, score, positions, groups=[0, 0, 0],
                                propensities=[1, 0.5, 0.25], clip=1)
    naive = counterfactual_report(clicks, score, positions, groups=[0, 0, 0],
                                  propensities=[1, 0.5, 0.25], estimator="naive")
    assert one == naive
    with pytest.warns(UserWarning, match="an interval over one impression"):
        out = counterfactual_report(clicks, score, positions, groups=[0, 0, 0],
                                    propensities=[1, 0.5, 0.25], confidence=0.9,
                                    n_resamples=20, random_state=0)
    assert out["dcg@10"]["ci_low"] == out["dcg@10"]["ci_high"] == out["dcg@10"]["value"]


# -- item 3 (EM): the maximum likelihood -------------------------------------------
def _minus_log_likelihood(x, k, d, c, n_pos, n_items):
    """Minus the PBM log-likelihood over (theta, gamma) in (0, 1] and its
    gradient, written from the model."""
    th, ga = x[:n_pos], x[n_pos:]
    p = th[k] * ga[d]
    rest = (1 - c) / (1 - p)
    grad_th = np.bincount(k, c / th[k] - rest * ga[d], minlength=n_pos)
    grad_ga = np.bincount(d, c / ga[d] - rest * th[k], minlength=n_items)
    ll = np.sum(c * np.log(p) + (1 - c) * np.log1p(-p))
    return -ll, -np.concatenate([grad_th, grad_ga])


@pytest.mark.parametrize("seed", [0, 1])
def test_the_fit_is_the_maximum_of_a_direct_maximisation(seed):
    rng = np.random.default_rng(seed)
    n_pos, n_queries = 6, 12
    theta = 1.0 / np.arange(1, n_pos + 1) ** 0.8
    gamma = rng.uniform(0.1, 0.9, (n_queries, n_pos))
    log = simulate(rng, theta=theta, gamma=gamma, n_impressions=240, noise=0.5)
    k, d, c = log["positions"] - 1, log["items"], log["clicks"].astype(float)
    n_items = d.max() + 1
    est = PositionBiasEstimator().fit(c, log["positions"], items=d)
    assert est.converged_ and est.n_iter_ <= 15
    x0 = np.full(n_pos + n_items, 0.5)
    res = minimize(_minus_log_likelihood, x0, jac=True, method="L-BFGS-B",
                   args=(k, d, c, n_pos, n_items),
                   bounds=[(1e-10, 1.0 - 1e-12)] * x0.shape[0],
                   options={"ftol": 1e-16, "gtol": 1e-11, "maxiter": 50000,
                            "maxfun": 100000})
    oracle = res.x[:n_pos] / res.x[0]
    assert_allclose(est.propensities_, oracle, rtol=1e-4)
    assert est.log_likelihood_ >= -res.fun - 1e-7 * abs(res.fun)


# -- item 4: sparse logs ------------------------------------------------------------
def test_harvest_is_unbiased_at_ten_rows_per_item_and_em_warns():
    # positions 1-10, each (query, document) item seen about 10 times; the
    # mean of seeded logs against the true propensities
    got = []
    for seed in range(3):
        rng = np.random.default_rng(100 + seed)
        gamma = rng.beta(1, 3, (3000, 10))
        log = simulate(rng, theta=THETA10, gamma=gamma, n_impressions=30000)
        got.append(PositionBiasEstimator(method="harvest").fit(
            log["clicks"], log["positions"], items=log["items"]).propensities_)
    err = np.mean(got, axis=0) / THETA10 - 1
    assert np.abs(err).max() < 0.05
    with pytest.warns(UserWarning, match="median of .* rows per clicked item is too "
                                         "few .* method='harvest'"):
        PositionBiasEstimator().fit(log["clicks"], log["positions"],
                                    items=log["items"])


def _coverage(n_logs, refit, method="harvest", seed0=500):
    """The share of 95% refitted intervals of IPS dcg@5 holding the truth."""
    hits = 0
    for rep in range(n_logs):
        rng = np.random.default_rng(seed0 + rep)
        gamma = rng.beta(1, 2, (40, 8))
        new = gamma + 0.2 * rng.standard_normal(gamma.shape)
        log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=400)
        truth = truth_per_query(gamma, new, "dcg", 5).mean()
        est = PositionBiasEstimator(method=method).fit(
            log["clicks"], log["positions"], items=log["items"])
        out = counterfactual_report(
            log["clicks"], new[log["query"], log["doc"]], log["positions"],
            groups=log["groups"], propensities=est, metrics=["dcg@5"],
            confidence=0.95, n_resamples=60, random_state=rep, refit=refit,
            items=log["items"])["dcg@5"]
        hits += out["ci_low"] <= truth <= out["ci_high"]
    return hits / n_logs


def test_refit_intervals_are_wider_and_cover():
    log, gamma, new = _log(7, 400, 40)
    est = PositionBiasEstimator(method="harvest").fit(
        log["clicks"], log["positions"], items=log["items"])
    kw = dict(groups=log["groups"], propensities=est, metrics=["dcg@5"],
              confidence=0.95, n_resamples=100, random_state=0,
              items=log["items"])
    args = (log["clicks"], log["score"], log["positions"])
    fixed = counterfactual_report(*args, **kw)["dcg@5"]
    refit = counterfactual_report(*args, refit=True, **kw)["dcg@5"]
    assert refit["value"] == fixed["value"]
    assert refit["ci_high"] - refit["ci_low"] > fixed["ci_high"] - fixed["ci_low"]
    # seeded logs (the full table, 200 logs, is in the guide)
    assert _coverage(30, refit=True) >= 0.85
    with pytest.raises(ValueError, match="give confidence= too"):
        counterfactual_report(*args, groups=log["groups"], propensities=est,
                              refit=True)
    with pytest.raises(TypeError, match="refit=True needs propensities to be a "
                                        "fitted PositionBiasEstimator"):
        counterfactual_report(*args, groups=log["groups"], propensities=THETA,
                              refit=True, confidence=0.9)
    with pytest.raises(ValueError, match="items must give the item of each row"):
        counterfactual_report(*args, groups=log["groups"], propensities=est,
                              refit=True, confidence=0.9)


# -- item 5: SNIPS ------------------------------------------------------------------
def test_snips_meets_its_target_and_is_not_the_naive_value():
    # the target: the share of the relevance (gamma) of the impressions'
    # items that the new ranker puts in its top k, over the query mix
    rng = np.random.default_rng(8)
    gamma = rng.beta(1, 2, (30, 8))
    new = gamma + 0.2 * rng.standard_normal(gamma.shape)
    top = new_rank(new) <= 3
    target = (gamma * top).sum() / gamma.sum()
    values, naive = [], []
    for _ in range(20):
        log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=2000)
        kw = dict(groups=log["groups"], propensities=THETA, metrics=["recall@3"])
        args = (log["clicks"], new[log["query"], log["doc"]], log["positions"])
        values.append(counterfactual_report(*args, estimator="snips", **kw)["recall@3"])
        naive.append(counterfactual_report(*args, estimator="naive", **kw)["recall@3"])
    se = np.std(values, ddof=1) / np.sqrt(len(values))
    assert abs(np.mean(values) - target) < 4 * se + 0.002
    assert abs(np.mean(naive) - target) > 20 * se
