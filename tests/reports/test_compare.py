"""``compare_rankings``: paired tests, intervals and corrections over groups."""

import copy
import itertools
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

from sklearn_rankeval import (
    compare_rankings,
    gauc_score,
    hit_rate_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    per_group_scores,
)
from sklearn_rankeval._reports._compare import adjust_pvalues
from sklearn_rankeval._stats._bootstrap import resample_counts
from tests.conftest import make_grouped_data

FUNCS = {
    "gauc": (gauc_score, {}),
    "mrr": (mean_reciprocal_rank_score, {}),
    "ndcg@5": (ndcg_score, {"k": 5}),
    "hit_rate@3": (hit_rate_score, {"k": 3}),
}


def _models(seed, n_groups, n_models=2):
    """Grouped data and correlated scores of several models (ties included)."""
    y, s, g = make_grouped_data(seed, n_groups=n_groups)
    rng = np.random.default_rng(seed + 50)
    scores = {"A": s}
    for name in "BCD"[: n_models - 1]:
        scores[name] = np.round(s + rng.normal(0, 0.3, len(s)) + 0.2 * y, 1)
    return y, scores, g


def _metric(name, y, s, g, w=None):
    func, kw = FUNCS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(y, s, groups=g, sample_weight=w, **kw)


# -- the t-test and the Wilcoxon test equal scipy's -------------------------
@pytest.mark.parametrize("test, scipy_test", [("t", stats.ttest_rel),
                                              ("wilcoxon", stats.wilcoxon)])
@pytest.mark.parametrize("metric", ["mrr", "ndcg@5", "map"])
def test_classic_tests_equal_scipy_on_per_group_values(test, scipy_test, metric):
    y, scores, g = _models(0, 40)
    res = compare_rankings(y, scores, groups=g, metrics=[metric], test=test,
                           correction=None, n_resamples=10, output="dict",
                           random_state=0)[metric]["B"]
    frame_a = per_group_scores(y, scores["A"], groups=g, metrics=[metric])
    frame_b = per_group_scores(y, scores["B"], groups=g, metrics=[metric])
    both = frame_a[metric].notna() & frame_b[metric].notna()
    va, vb = frame_a[metric][both].to_numpy(), frame_b[metric][both].to_numpy()
    expected = scipy_test(vb, va).pvalue
    assert 0 < expected < 1
    assert res["p_value"] == pytest.approx(expected, rel=1e-12)
    assert res["p_adjusted"] == res["p_value"]
    assert (res["wins"], res["ties"], res["losses"]) == (
        int((vb > va).sum()), int((vb == va).sum()), int((vb < va).sum()))


@pytest.mark.parametrize("test, scipy_test", [("t", stats.ttest_rel),
                                              ("wilcoxon", stats.wilcoxon)])
def test_classic_tests_on_weighted_and_pooled_averages_use_the_group_terms(
        test, scipy_test):
    # weighted GAUC: w * value, w the group's size; pooled HR@k: the hits
    y, scores, g = _models(1, 40)
    res = compare_rankings(y, scores, groups=g, metrics=["gauc", "hit_rate@3"],
                           test=test, correction=None, n_resamples=10,
                           output="dict", random_state=0)
    fa = per_group_scores(y, scores["A"], groups=g, metrics=["gauc", "hit_rate@3"])
    fb = per_group_scores(y, scores["B"], groups=g, metrics=["gauc", "hit_rate@3"])
    both = fa["gauc"].notna() & fb["gauc"].notna()
    w = fa["weight"][both].to_numpy()
    expected = scipy_test(w * fb["gauc"][both].to_numpy(),
                          w * fa["gauc"][both].to_numpy()).pvalue
    assert res["gauc"]["B"]["p_value"] == pytest.approx(expected, rel=1e-12)
    both = fa["hit_rate@3"].notna()
    n_rel = fa["n_relevant"][both].to_numpy()
    hits_a = fa["hit_rate@3"][both].to_numpy() * n_rel
    hits_b = fb["hit_rate@3"][both].to_numpy() * n_rel
    expected = scipy_test(hits_b, hits_a).pvalue
    assert res["hit_rate@3"]["B"]["p_value"] == pytest.approx(expected, rel=1e-9)


# -- the permutation test equals the enumeration of every swap ---------------
def _brute_force_pvalue(name, y, sa, sb, g, w=None):
    """Swap the two models' scores in every subset of the groups (2**G calls)."""
    ids = np.unique(g)
    observed = abs(_metric(name, y, sb, g, w) - _metric(name, y, sa, g, w))
    extreme = 0
    for flips in itertools.product([False, True], repeat=len(ids)):
        swap = np.isin(g, ids[np.array(flips)])
        a, b = np.where(swap, sb, sa), np.where(swap, sa, sb)
        stat = abs(_metric(name, y, b, g, w) - _metric(name, y, a, g, w))
        extreme += stat >= observed * (1 - 1e-12)
    return extreme / 2 ** len(ids)


@pytest.mark.parametrize("metric", list(FUNCS))
def test_exact_permutation_pvalue_equals_brute_force_enumeration(metric):
    y, scores, g = _models(4, 8)
    sa, sb = scores["A"], scores["B"]
    w = None
    if metric == "gauc":  # item weights: the group weights are swapped too
        w = np.random.default_rng(0).uniform(0.5, 2.0, len(y))
    res = compare_rankings(y, scores, groups=g, metrics=[metric],
                           sample_weight=w, correction=None, n_resamples=256,
                           output="dict", random_state=0)[metric]["B"]
    expected = _brute_force_pvalue(metric, y, sa, sb, g, w)
    assert 0 < expected < 1
    assert res["p_value"] == pytest.approx(expected, rel=1e-12)
    assert res["diff"] == pytest.approx(
        _metric(metric, y, sb, g, w) - _metric(metric, y, sa, g, w), rel=1e-12)


def test_sampled_permutation_pvalue_within_monte_carlo_error_of_exact():
    # the models differ in 12 of 30 groups: 4096 swaps enumerated (exact,
    # checked against brute force above) or 2000 sampled, whose standard
    # error is sqrt(p (1 - p) / 2000) <= 0.011
    y, scores, g = _models(3, 30)
    va = per_group_scores(y, scores["A"], groups=g, metrics=["mrr"])["mrr"]
    vb = per_group_scores(y, scores["B"], groups=g, metrics=["mrr"])["mrr"]
    assert int(((va != vb) & va.notna()).sum()) == 12
    exact = compare_rankings(y, scores, groups=g, metrics=["mrr"],
                             n_resamples=4096, output="dict",
                             random_state=0)["mrr"]["B"]["p_value"]
    sampled = compare_rankings(y, scores, groups=g, metrics=["mrr"],
                               n_resamples=2000, output="dict",
                               random_state=0)["mrr"]["B"]["p_value"]
    assert exact * 4096 == round(exact * 4096)
    se = np.sqrt(exact * (1 - exact) / 2000)
    assert 0.05 < exact < 0.95
    assert abs(sampled - exact) < 4 * se + 1 / 2001
    # a sampled p-value is (count + 1) / (n + 1): never 0, multiple of 1/2001
    assert round(sampled * 2001) == pytest.approx(sampled * 2001, abs=1e-9)


def test_permutation_agrees_with_scipy_permutation_test_on_macro_values():
    y, scores, g = _models(4, 60)
    res = compare_rankings(y, scores, groups=g, metrics=["mrr"], n_resamples=4000,
                           output="dict", random_state=1)["mrr"]["B"]
    va = per_group_scores(y, scores["A"], groups=g, metrics=["mrr"])["mrr"]
    vb = per_group_scores(y, scores["B"], groups=g, metrics=["mrr"])["mrr"]
    ok = va.notna().to_numpy()
    ref = stats.permutation_test(
        (vb.to_numpy()[ok], va.to_numpy()[ok]),
        lambda a, b, axis=-1: np.mean(a - b, axis=axis),
        permutation_type="samples", n_resamples=4000, random_state=2).pvalue
    # both within ~4 standard errors sqrt(p (1 - p) / 4000) of the truth
    assert abs(res["p_value"] - ref) < 8 * np.sqrt(ref * (1 - ref) / 4000) + 1e-3


# -- the interval of the difference ------------------------------------------
def test_difference_interval_is_the_paired_bootstrap_of_the_metric():
    y, scores, g = _models(5, 25, n_models=3)
    n = 150
    res = compare_rankings(y, scores, groups=g, metrics=["gauc", "hit_rate@3"],
                           baseline="B", confidence=0.8, n_resamples=n,
                           output="dict", random_state=4)
    ids = np.unique(g)
    counts = np.vstack([c.copy() for _, c in resample_counts(
        len(ids), n, np.random.default_rng(4))])
    for metric in ("gauc", "hit_rate@3"):
        diffs = {"A": [], "C": []}
        for row in counts:
            # the resampled rows: group i repeated row[i] times, as new groups
            pieces = [(np.flatnonzero(g == gid), c) for gid, c in zip(ids, row)]
            rows = np.concatenate([np.tile(r, int(c)) for r, c in pieces if c])
            new_g = np.concatenate([np.repeat(np.arange(int(c)) * 10_000 + i, len(r))
                                    for i, (r, c) in enumerate(pieces) if c])
            base = _metric(metric, y[rows], scores["B"][rows], new_g)
            for m in diffs:
                diffs[m].append(_metric(metric, y[rows], scores[m][rows], new_g) - base)
        for m in diffs:
            r = res[metric][m]
            assert r["ci_low"] == pytest.approx(np.quantile(diffs[m], 0.1), abs=1e-12)
            assert r["ci_high"] == pytest.approx(np.quantile(diffs[m], 0.9), abs=1e-12)
        assert res[metric]["B"]["diff"] == 0.0


def test_baseline_row_and_identical_models():
    y, scores, g = _models(6, 20)
    scores["same"] = scores["A"].copy()
    for test in ("permutation", "t", "wilcoxon"):
        res = compare_rankings(y, scores, groups=g, metrics=["mrr", "gauc"],
                               test=test, n_resamples=200, output="dict",
                               random_state=0)
        for metric, by_model in res.items():
            assert list(by_model) == ["A", "B", "same"]
            base = by_model["A"]
            assert base["diff"] == base["ci_low"] == base["ci_high"] == 0.0
            assert np.isnan(base["p_value"]) and np.isnan(base["p_adjusted"])
            n_defined = per_group_scores(y, scores["A"], groups=g,
                                         metrics=[metric])[metric].notna().sum()
            assert (base["wins"], base["ties"], base["losses"]) == (0, n_defined, 0)
            same = by_model["same"]
            assert same["diff"] == 0.0 and same["p_value"] == 1.0
            assert (same["ci_low"], same["ci_high"]) == (0.0, 0.0)
            assert same["ties"] == n_defined


def test_baseline_argument_and_values():
    y, scores, g = _models(7, 20, n_models=3)
    res = compare_rankings(y, scores, groups=g, metrics=["ndcg@5"], baseline="C",
                           n_resamples=100, output="dict", random_state=0)["ndcg@5"]
    values = {m: _metric("ndcg@5", y, s, g) for m, s in scores.items()}
    for m in scores:
        assert res[m]["value"] == values[m]
        assert res[m]["diff"] == pytest.approx(values[m] - values["C"], abs=1e-15)


# -- corrections --------------------------------------------------------------
P = np.array([0.01, 0.04, 0.03, 0.005, np.nan])


def test_corrections_equal_hand_computed_values():
    # m = 4 finite p-values; sorted: 0.005, 0.01, 0.03, 0.04
    assert_allclose(adjust_pvalues(P, "bonferroni"),
                    [0.04, 0.16, 0.12, 0.02, np.nan], equal_nan=True)
    # Holm: 4*0.005=0.02, 3*0.01=0.03, 2*0.03=0.06, max(0.06, 1*0.04)=0.06
    assert_allclose(adjust_pvalues(P, "holm"),
                    [0.03, 0.06, 0.06, 0.02, np.nan], equal_nan=True)
    # BH: 0.04*4/4=0.04, 0.03*4/3=0.04, 0.01*4/2=0.02, 0.005*4/1=0.02
    assert_allclose(adjust_pvalues(P, "fdr_bh"),
                    [0.02, 0.04, 0.04, 0.02, np.nan], equal_nan=True)
    assert_allclose(adjust_pvalues(P, None), P, equal_nan=True)
    assert_allclose(adjust_pvalues([0.5, 0.9], "bonferroni"), [1.0, 1.0])
    assert_allclose(adjust_pvalues([0.5, 0.6, 0.7], "holm"), [1.0, 1.0, 1.0])


def test_fdr_bh_equals_scipy_where_present():
    fdc = getattr(stats, "false_discovery_control", None)
    if fdc is None:
        pytest.skip("scipy < 1.11")
    p = np.random.default_rng(0).uniform(0, 0.2, 30) ** 2
    assert_allclose(adjust_pvalues(p, "fdr_bh"), fdc(p, method="bh"), rtol=1e-12)


def test_corrections_equal_statsmodels_multipletests():
    # statsmodels is in the test extra: this test runs in CI
    from statsmodels.stats.multitest import multipletests

    p = np.random.default_rng(1).uniform(0, 0.3, 20)
    for method in ("holm", "bonferroni", "fdr_bh"):
        assert_allclose(adjust_pvalues(p, method),
                        multipletests(p, method=method)[1], rtol=1e-12)


def test_correction_spans_models_and_metrics():
    y, scores, g = _models(8, 30, n_models=3)
    kw = dict(groups=g, metrics=["mrr", "ndcg@5"], test="t", n_resamples=10,
              output="dict", random_state=0)
    raw = compare_rankings(y, scores, correction=None, **kw)
    holm = compare_rankings(y, scores, correction="holm", **kw)
    keys = [(m, mod) for m in ("mrr", "ndcg@5") for mod in ("B", "C")]
    p = np.array([raw[m][mod]["p_value"] for m, mod in keys])
    expected = adjust_pvalues(p, "holm")
    assert_allclose([holm[m][mod]["p_adjusted"] for m, mod in keys], expected)
    assert_allclose(expected, np.minimum(1, np.maximum.accumulate(
        np.sort(p) * (4 - np.arange(4))))[np.argsort(np.argsort(p))])


# -- outputs, reproducibility, inputs ----------------------------------------
def test_text_and_frame_outputs_match_the_dict():
    y, scores, g = _models(9, 20)
    kw = dict(groups=g, metrics=["mrr", "gauc"], n_resamples=100, random_state=3)
    d = compare_rankings(y, scores, output="dict", **kw)
    text = compare_rankings(y, scores, **kw)
    lines = text.splitlines()
    assert "baseline A" in lines[0] and "holm" in lines[0] and "95%" in lines[0]
    assert lines[1].split() == ["metric", "model", "value", "diff", "ci_low",
                                "ci_high", "p_value", "p_adjusted", "wins",
                                "ties", "losses"]
    b = d["mrr"]["B"]
    assert lines[3].split() == ["B", f"{b['value']:.4f}", f"{b['diff']:.4f}",
                                f"{b['ci_low']:.4f}", f"{b['ci_high']:.4f}",
                                f"{b['p_value']:.4f}", f"{b['p_adjusted']:.4f}",
                                str(b["wins"]), str(b["ties"]), str(b["losses"])]
    assert lines[2].split()[:3] == ["mrr", "A", "(baseline)"]
    pytest.importorskip("pandas")
    frame = compare_rankings(y, scores, output="frame", **kw)
    # API.md (Statistics): today's columns, then the effect sizes
    assert list(frame.columns) == ["metric", "model", "value", "diff", "ci_low",
                                   "ci_high", "p_value", "p_adjusted", "wins",
                                   "ties", "losses", "effect_size",
                                   "effect_ci_low", "effect_ci_high", "g_av",
                                   "es_residual"]
    row = frame[(frame.metric == "gauc") & (frame.model == "B")].iloc[0]
    for key, value in d["gauc"]["B"].items():
        assert row[key] == value


def _flat(result):
    return [(m, mod, k, repr(v)) for m, by in result.items()
            for mod, r in by.items() for k, v in r.items()]


def test_random_state_reproducible_and_inputs_not_modified():
    y, scores, g = _models(10, 60)
    # one weight per query (MRR needs them constant within a group)
    ids, inverse = np.unique(g, return_inverse=True)
    w = np.random.default_rng(0).uniform(0.5, 2, len(ids))[inverse]
    before = (y.copy(), copy.deepcopy(scores), g.copy(), w.copy())
    kw = dict(groups=g, metrics=["gauc", "mrr"], sample_weight=w,
              n_resamples=300, output="dict")
    a = compare_rankings(y, scores, random_state=5, **kw)
    again = compare_rankings(y, scores, random_state=5, **kw)
    assert _flat(again) == _flat(a)  # NaN p-values of the baseline as strings
    b = compare_rankings(y, scores, random_state=6, **kw)
    assert b["gauc"]["B"]["ci_low"] != a["gauc"]["B"]["ci_low"]
    assert b["gauc"]["B"]["value"] == a["gauc"]["B"]["value"]
    np.testing.assert_array_equal(y, before[0])
    assert set(scores) == set(before[1])
    for m in scores:
        np.testing.assert_array_equal(scores[m], before[1][m])
    np.testing.assert_array_equal(g, before[2])
    np.testing.assert_array_equal(w, before[3])


def test_two_dimensional_input():
    rng = np.random.default_rng(0)
    Y = rng.integers(0, 2, (10, 6))
    Y[:, 0] = 1
    scores = {"A": rng.random((10, 6)), "B": rng.random((10, 6)) + 0.3 * Y}
    res = compare_rankings(Y, scores, metrics=["ndcg"], n_resamples=2000,
                           output="dict", random_state=0)["ndcg"]["B"]
    assert res["value"] == pytest.approx(ndcg_score(Y, scores["B"]), rel=1e-12)
    assert res["diff"] == pytest.approx(
        ndcg_score(Y, scores["B"]) - ndcg_score(Y, scores["A"]), rel=1e-12)
    # 10 queries, 1024 <= 2000: exact
    assert res["p_value"] * 1024 == pytest.approx(round(res["p_value"] * 1024))


@pytest.mark.parametrize("kwargs, error, match", [
    ({"y_scores": [np.arange(6.0), np.arange(6.0)]}, TypeError, "y_scores"),
    ({"y_scores": {"A": np.arange(6.0)}}, ValueError, "y_scores"),
    ({"y_scores": {"A": np.arange(6.0), "B": np.arange(5.0)}}, ValueError,
     "y_scores"),
    ({"baseline": "Z"}, ValueError, "baseline"),
    ({"test": "anova"}, ValueError, "test"),
    ({"correction": "sidak"}, ValueError, "correction"),
    ({"confidence": 1.5}, ValueError, "confidence"),
    ({"confidence": 0}, ValueError, "confidence"),
    ({"n_resamples": 0}, ValueError, "n_resamples"),
    ({"n_resamples": 1.5}, TypeError, "n_resamples"),
    ({"output": "html"}, ValueError, "output"),
    ({"metrics": ["ndcg@0"]}, ValueError, "metrics"),
    ({"random_state": "x"}, TypeError, "random_state"),
])
def test_bad_input(kwargs, error, match):
    y = np.array([1, 0, 0, 0, 1, 0])
    g = np.array([1, 1, 1, 2, 2, 2])
    args = {"y_scores": {"A": np.arange(6.0), "B": np.arange(6.0)[::-1]}}
    args.update(kwargs)
    y_scores = args.pop("y_scores")
    with pytest.raises(error, match=match):
        compare_rankings(y, y_scores, groups=g, **args)


def test_length_mismatch_with_y_true_raises():
    y = np.array([1, 0, 0, 0, 1, 0])
    g = np.array([1, 1, 1, 2, 2])
    with pytest.raises(ValueError, match="y_true and y_score have inconsistent"):
        compare_rankings(y, {"A": np.arange(5.0), "B": np.arange(5.0)}, groups=g)


def test_text_prints_tiny_p_values_as_a_bound():
    # B ranks the relevant item first in 30 queries, A last: t-test p ~ 1e-40
    y = np.tile([1, 0, 0], 30)
    g = np.repeat(np.arange(30), 3)
    scores = {"A": np.tile([1.0, 2.0, 3.0], 30), "B": np.tile([3.0, 2.0, 1.0], 30)}
    scores["A"][:3] = [2.0, 1.0, 3.0]  # not constant: the t statistic is finite
    d = compare_rankings(y, scores, groups=g, metrics=["mrr"], test="t",
                         n_resamples=10, output="dict", random_state=0)
    assert 0 < d["mrr"]["B"]["p_value"] < 1e-20
    text = compare_rankings(y, scores, groups=g, metrics=["mrr"], test="t",
                            n_resamples=10, random_state=0)
    assert text.splitlines()[3].split()[5:7] == ["<0.0001", "<0.0001"]


def test_undefined_metric_warning_points_at_the_caller():
    from sklearn.exceptions import UndefinedMetricWarning

    s = np.arange(6.0)
    with pytest.warns(UndefinedMetricWarning, match="undefined") as record:
        compare_rankings(np.zeros(6), {"A": s, "B": -s}, groups=np.repeat([0, 1], 3),
                         metrics=["mrr"], n_resamples=10, random_state=0)
    assert [w.filename for w in record] == [__file__, __file__]


@pytest.mark.parametrize("convention, metric, func, kwargs", [
    # torchmetrics: a query without relevant items counts 0, ties in input order
    ("torchmetrics", "mrr", mean_reciprocal_rank_score, {}),
    # LightGBM: ndcg@k of a query without relevant items is 1
    ("lightgbm", "ndcg@3", ndcg_score, {"k": 3}),
])
def test_convention_gives_each_model_the_function_value(convention, metric, func,
                                                        kwargs):
    y, s, g = make_grouped_data(7, n_groups=12)
    rng = np.random.default_rng(3)
    scores = {"a": s, "b": rng.permutation(s)}
    out = compare_rankings(y, scores, groups=g, metrics=[metric],
                           convention=convention, n_resamples=200, random_state=0,
                           output="dict")[metric]
    expected = {m: func(y, v, groups=g, convention=convention, **kwargs)
                for m, v in scores.items()}
    plain = {m: func(y, v, groups=g, **kwargs) for m, v in scores.items()}
    assert expected != plain  # the convention changes the numbers here
    for m in scores:
        assert out[m]["value"] == pytest.approx(expected[m], abs=1e-12)
    assert out["b"]["diff"] == pytest.approx(expected["b"] - expected["a"],
                                             abs=1e-12)


def test_convention_without_the_metric_is_refused():
    y, s, g = make_grouped_data(8)
    with pytest.raises(ValueError, match="convention='trec_eval' cannot give "
                                         "'gauc'"):
        compare_rankings(y, {"a": s, "b": s[::-1].copy()}, groups=g,
                         metrics=["gauc"], convention="trec_eval")
