"""``compare_rankings``' statistics beyond one test per pair (issue 38): the
all-pairs designs, effect sizes, margins, maxT and the corrections, checked on
the per-group values of ``per_group_scores`` with scipy, statsmodels and
exact enumeration."""

import copy
import math
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_rankeval import compare_rankings, gauc_score, per_group_scores
from sklearn_rankeval._core import InvalidArgumentError
from tests import _reference as ref
from tests.conftest import make_grouped_data

pd = pytest.importorskip("pandas")


def _models(seed, n_groups, n_models=3):
    y, s, g = make_grouped_data(seed, n_groups=n_groups)
    rng = np.random.default_rng(seed + 50)
    scores = {"A": s}
    for i, name in enumerate("BCD"[: n_models - 1]):
        scores[name] = np.round(s + rng.normal(0, 0.3, len(s)) + 0.1 * (i + 1) * y, 1)
    return y, scores, g


def _values(y, scores, g, metric):
    """``(n_common, n_models)`` per-group values where every model is defined."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cols = [per_group_scores(y, s, groups=g, metrics=[metric])[metric]
                for s in scores.values()]
    frame = pd.concat(cols, axis=1).dropna()
    return frame.to_numpy()


def test_all_pairs_frame_has_the_contract_columns():
    y, scores, g = _models(0, 30)
    frame = compare_rankings(y, scores, groups=g, metrics=["mrr", "ndcg@5"],
                             design="all_pairs", test="tukey_hsd", output="frame")
    assert list(frame.columns) == [
        "metric", "model_a", "model_b", "diff", "ci_low", "ci_high", "p_value",
        "p_adjusted", "effect_size", "effect_ci_low", "effect_ci_high", "g_av",
        "es_residual"]
    assert list(zip(frame.model_a, frame.model_b))[:3] == [("A", "B"), ("A", "C"),
                                                           ("B", "C")]
    assert len(frame) == 6


@pytest.mark.parametrize("metric", ["mrr", "ndcg@5", "map"])
def test_blocked_tukey_on_the_per_group_values(metric):
    """The design's numbers from the per-group values: the ANOVA's residual
    mean square from statsmodels' OLS, the studentized range from scipy."""
    smf = pytest.importorskip("statsmodels.formula.api")
    anova_lm = pytest.importorskip("statsmodels.stats.anova").anova_lm
    y, scores, g = _models(1, 40)
    x = _values(y, scores, g, metric)
    n, k = x.shape
    long = pd.DataFrame({"v": x.ravel(), "group": np.repeat(np.arange(n), k),
                         "model": np.tile(np.arange(k), n)})
    v_e = anova_lm(smf.ols("v ~ C(model) + C(group)", long).fit()).loc[
        "Residual", "mean_sq"]
    df = (n - 1) * (k - 1)
    res = compare_rankings(y, scores, groups=g, metrics=[metric],
                           design="all_pairs", test="tukey_hsd", output="dict")
    r = res[metric]["A"]["C"]
    diff = x[:, 2].mean() - x[:, 0].mean()
    se = math.sqrt(v_e / n)
    assert r["diff"] == pytest.approx(diff, rel=1e-12, abs=1e-15)
    assert r["p_adjusted"] == pytest.approx(
        stats.studentized_range.sf(abs(diff) / se, k, df), rel=1e-7)
    half = stats.studentized_range.ppf(0.95, k, df) * se
    assert r["ci_high"] - r["diff"] == pytest.approx(half, rel=1e-7)
    # unadjusted: the t test on the residual variance (Fisher's LSD)
    assert r["p_value"] == pytest.approx(
        2 * stats.t.sf(abs(diff) / math.sqrt(2 * v_e / n), df), rel=1e-9)
    d = x[:, 2] - x[:, 0]
    assert r["effect_size"] == pytest.approx(d.mean() / d.std(ddof=1), rel=1e-10)
    assert r["es_residual"] == pytest.approx(diff / math.sqrt(v_e), rel=1e-9)


def test_two_models_all_pairs_tukey_is_the_paired_t_test():
    y, scores, g = _models(2, 50, n_models=2)
    x = _values(y, scores, g, "ndcg@5")
    r = compare_rankings(y, scores, groups=g, metrics=["ndcg@5"],
                         design="all_pairs", test="tukey_hsd",
                         output="dict")["ndcg@5"]["A"]["B"]
    assert r["p_adjusted"] == pytest.approx(stats.ttest_rel(x[:, 1], x[:, 0]).pvalue,
                                            rel=1e-6)


def test_randomized_tukey_is_exact_on_a_tiny_case():
    # 4 queries, 3 models: (3!)**4 = 1296 relabellings <= n_resamples
    y = [1, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0]
    g = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    scores = {"A": [3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1],
              "B": [1, 3, 2, 1, 3, 2, 1, 2, 3, 3, 1, 2],
              "C": [3, 1, 2, 2, 3, 1, 2, 3, 1, 1, 3, 2]}
    x = _values(np.array(y), {k: np.array(v) for k, v in scores.items()},
                np.array(g), "mrr")
    p_max, p_own, _ = ref.randomized_tukey_exact(x.tolist())
    res = compare_rankings(y, scores, groups=g, metrics=["mrr"],
                           design="all_pairs", test="randomized_tukey",
                           n_resamples=2000, random_state=0, output="dict")["mrr"]
    got = [res["A"]["B"], res["A"]["C"], res["B"]["C"]]
    np.testing.assert_allclose([r["p_adjusted"] for r in got], p_max, rtol=1e-12)
    np.testing.assert_allclose([r["p_value"] for r in got], p_own, rtol=1e-12)
    text = compare_rankings(y, scores, groups=g, metrics=["mrr"],
                            design="all_pairs", n_resamples=2000, random_state=0)
    assert "randomised Tukey HSD (exact)" in text.splitlines()[0]


def test_all_pairs_of_a_weighted_average_is_the_metric_on_common_groups():
    """GAUC (group-weighted): the all-pairs difference is the difference of
    ``gauc_score`` over the groups where every model is defined."""
    y, scores, g = _models(3, 30)
    res = compare_rankings(y, scores, groups=g, metrics=["gauc"],
                           design="all_pairs", test="tukey_hsd", output="dict")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = gauc_score(y, scores["A"], groups=g)
        b = gauc_score(y, scores["B"], groups=g)
    # the defined groups of GAUC do not depend on the scores
    assert res["gauc"]["A"]["B"]["diff"] == pytest.approx(b - a, rel=1e-10)


def test_baseline_effect_sizes_and_equivalence_on_per_group_differences():
    y, scores, g = _models(4, 60)
    x = _values(y, {"A": scores["A"], "B": scores["B"]}, g, "ndcg@5")
    d = x[:, 1] - x[:, 0]
    r = compare_rankings(y, scores, groups=g, metrics=["ndcg@5"],
                         equivalence=0.05, non_inferiority=0.01,
                         min_effect=0.001, n_resamples=500, random_state=0,
                         output="dict")["ndcg@5"]["B"]
    dz = d.mean() / d.std(ddof=1)
    assert r["effect_size"] == pytest.approx(dz, rel=1e-10)
    assert r["effect_ci_low"] < dz < r["effect_ci_high"]
    p_eq = max(stats.ttest_1samp(d, -0.05, alternative="greater").pvalue,
               stats.ttest_1samp(d, 0.05, alternative="less").pvalue)
    assert r["p_equivalence"] == pytest.approx(p_eq, rel=1e-10)
    assert (r["tost_ci_low"], r["tost_ci_high"]) == pytest.approx(
        ref.t_interval(d, 0.90))
    assert r["p_noninferiority"] == pytest.approx(
        stats.ttest_1samp(d, -0.01, alternative="greater").pvalue, rel=1e-10)
    assert r["practical"] == (r["ci_low"] > 0.001 or r["ci_high"] < -0.001)


def test_frame_and_text_carry_the_margins():
    y, scores, g = _models(5, 30)
    kw = dict(groups=g, metrics=["mrr"], equivalence=0.02, min_effect=0.01,
              n_resamples=200, random_state=0)
    frame = compare_rankings(y, scores, output="frame", **kw)
    assert list(frame.columns[-4:]) == ["p_equivalence", "tost_ci_low",
                                        "tost_ci_high", "practical"]
    assert frame.practical.dtype == bool
    text = compare_rankings(y, scores, **kw)
    assert text.splitlines()[1].split()[-4:] == ["p_equivalence", "tost_ci_low",
                                                 "tost_ci_high", "practical"]


@pytest.mark.parametrize("method", ["holm", "bonferroni", "fdr_bh", "fdr_by"])
def test_corrections_match_statsmodels_multipletests(method):
    multipletests = pytest.importorskip(
        "statsmodels.stats.multitest").multipletests
    y, scores, g = _models(6, 40, n_models=4)
    res = compare_rankings(y, scores, groups=g, metrics=["mrr", "ndcg@5", "map"],
                           test="t", correction=method, output="frame")
    rows = res[res.model != "A"]
    expected = multipletests(rows.p_value.to_numpy(), method=method)[1]
    np.testing.assert_allclose(rows.p_adjusted.to_numpy(), expected, rtol=1e-12)


def test_maxt_is_exact_over_models_and_metrics():
    y, scores, g = _models(7, 9)  # at most 2**9 flips: enumerated
    metrics = ["mrr", "ndcg@5"]
    res = compare_rankings(y, scores, groups=g, metrics=metrics,
                           correction="maxt", n_resamples=1024, output="frame")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cols = []
        for metric in metrics:
            per = {m: per_group_scores(y, s, groups=g, metrics=[metric])[metric]
                   for m, s in scores.items()}
            for model in ("B", "C"):
                cols.append((per[model] - per["A"]).fillna(0.0).to_numpy())
    d = np.column_stack(cols)
    raw, adj = ref.maxt_exact(d[(d != 0).any(axis=1)].tolist())
    rows = res[res.model != "A"]
    np.testing.assert_allclose(rows.p_value.to_numpy(), raw, rtol=1e-12)
    np.testing.assert_allclose(rows.p_adjusted.to_numpy(), adj, rtol=1e-12)


def test_maxt_controls_the_family_wise_error_under_the_null():
    """Three models equal to the baseline up to noise, two metrics: the
    share of repetitions with any p_adjusted < 0.1 stays within the
    binomial interval of 0.1."""
    reps, hits = 60, 0
    for seed in range(reps):
        y, s, g = make_grouped_data(100 + seed, n_groups=30)
        rng = np.random.default_rng(seed)
        scores = {name: s + rng.normal(0, 1.0, len(s)) for name in "ABCD"}
        res = compare_rankings(y, scores, groups=g, metrics=["mrr", "ndcg@5"],
                               correction="maxt", n_resamples=199,
                               random_state=seed, output="frame")
        hits += bool((res.p_adjusted < 0.1).any())
    assert abs(hits / reps - 0.1) <= 3 * math.sqrt(0.1 * 0.9 / reps)


@pytest.mark.parametrize("kwargs, name", [
    (dict(design="pairs"), "design"),
    (dict(design="all_pairs", test="t"), "test"),
    (dict(correction="maxt", test="t"), "correction"),
    (dict(design="all_pairs", correction="maxt"), "correction"),
    (dict(equivalence=-0.1), "equivalence"),
    (dict(non_inferiority=float("nan")), "non_inferiority"),
    (dict(min_effect="big"), "min_effect"),
])
def test_bad_arguments_name_themselves(kwargs, name):
    y, scores, g = _models(8, 10)
    with pytest.raises(ValueError, match=name):
        compare_rankings(y, scores, groups=g, metrics=["mrr"], **kwargs)


def test_margin_error_is_an_invalid_argument_error_and_inputs_are_kept():
    y, scores, g = _models(9, 10)
    before = copy.deepcopy(scores)
    with pytest.raises(InvalidArgumentError) as info:
        compare_rankings(y, scores, groups=g, equivalence=-1)
    assert info.value.argument == "equivalence"
    compare_rankings(y, scores, groups=g, metrics=["mrr"], design="all_pairs",
                     n_resamples=50, random_state=0)
    for k in scores:
        np.testing.assert_array_equal(scores[k], before[k])


# -- several runs per model -------------------------------------------------
def _runs(seed, n_groups=30, n_runs=3):
    y, s, g = make_grouped_data(seed, n_groups=n_groups)
    rng = np.random.default_rng(seed)
    return y, s, g, [np.round(s + rng.normal(0, 0.4, len(s)) + 0.1 * y, 1)
                     for _ in range(n_runs)]


def test_one_run_per_model_is_the_plain_comparison():
    y, s, g, runs = _runs(10)
    kw = dict(groups=g, metrics=["mrr", "gauc"], n_resamples=300,
              random_state=0, output="dict")
    plain = compare_rankings(y, {"A": s, "B": runs[0]}, **kw)
    with_runs = compare_rankings(y, {"A": s}, runs={"B": runs[:1]}, **kw)
    for metric in plain:
        for field, value in plain[metric]["B"].items():
            assert with_runs[metric]["B"][field] == pytest.approx(
                value, rel=1e-12, nan_ok=True)
        assert with_runs[metric]["B"]["n_runs"] == 1


def test_runs_value_is_the_mean_of_the_runs_and_run_sd_their_spread():
    from sklearn_rankeval import mean_reciprocal_rank_score
    y, s, g, runs = _runs(11)
    res = compare_rankings(y, {"A": s}, runs={"B": runs}, groups=g,
                           metrics=["mrr"], n_resamples=300, random_state=0,
                           output="dict")["mrr"]["B"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_run = [mean_reciprocal_rank_score(y, r, groups=g) for r in runs]
        frames = [per_group_scores(y, r, groups=g, metrics=["mrr"])["mrr"]
                  for r in runs]
    # MRR is defined in the same groups in every run: the mean of the runs
    assert res["value"] == pytest.approx(np.mean(per_run), rel=1e-12)
    assert res["run_sd"] == pytest.approx(np.std(per_run, ddof=1), rel=1e-12)
    assert res["n_runs"] == 3
    # the paired t-test compares the per-group means of the runs
    base = per_group_scores(y, s, groups=g, metrics=["mrr"])["mrr"]
    both = pd.concat([base] + frames, axis=1).dropna()
    base, mean_b = both.iloc[:, 0], both.iloc[:, 1:].mean(axis=1)
    t = compare_rankings(y, {"A": s}, runs={"B": runs}, groups=g,
                         metrics=["mrr"], test="t", output="dict")["mrr"]["B"]
    assert t["p_value"] == pytest.approx(stats.ttest_rel(mean_b, base).pvalue,
                                         rel=1e-10)


def test_runs_widen_the_interval_by_the_seed_variance():
    y, s, g, runs = _runs(12, n_runs=4)
    kw = dict(groups=g, metrics=["ndcg@5"], n_resamples=2000, random_state=0,
              output="dict")
    one = compare_rankings(y, {"A": s, "B": runs[0]}, **kw)["ndcg@5"]["B"]
    many = compare_rankings(y, {"A": s}, runs={"B": runs}, **kw)["ndcg@5"]["B"]
    assert many["run_sd"] > 0
    assert np.isfinite(many["ci_low"]) and many["ci_low"] < many["diff"] < many["ci_high"]
    frame = compare_rankings(y, {"A": s}, runs={"B": runs}, groups=g,
                             metrics=["ndcg@5"], n_resamples=100,
                             random_state=0, output="frame")
    assert list(frame.columns[-2:]) == ["n_runs", "run_sd"]
    assert frame.n_runs.tolist() == [1, 4]
    del one


@pytest.mark.parametrize("runs, match", [
    ({"A": [np.zeros(3)]}, "runs"),
    ({"B": np.zeros(3)}, "runs"),
    ([np.zeros(3)], "runs"),
])
def test_bad_runs_name_themselves(runs, match):
    y, s, g, _ = _runs(13, n_groups=5)
    with pytest.raises(ValueError, match=match):
        compare_rankings(y, {"A": s}, runs=runs, groups=g)


# -- from per-group frames (Spark / Dask collect them) ----------------------
FRAME_METRICS = ["mrr", "ndcg@5", "gauc"]


def _frames(seed=14):
    y, scores, g = _models(seed, 40)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = {m: per_group_scores(y, s, groups=g, metrics=FRAME_METRICS)
                  for m, s in scores.items()}
    return y, scores, g, frames


def _numbers(frame):
    names = {"metric", "model", "model_a", "model_b"}
    return frame.drop(columns=[c for c in frame.columns if c in names]
                      ).to_numpy(float)


@pytest.mark.parametrize("kw", [dict(), dict(design="all_pairs"),
                                dict(correction="maxt", equivalence=0.01),
                                dict(test="t")])
def test_per_group_frames_give_the_numbers_of_the_rows(kw):
    y, scores, g, frames = _frames()
    common = dict(metrics=FRAME_METRICS, n_resamples=300, random_state=0,
                  output="frame", **kw)
    got = compare_rankings(None, frames, **common)
    want = compare_rankings(y, scores, groups=g, **common)
    np.testing.assert_array_equal(_numbers(got), _numbers(want))
    # a polars frame, a dict frame and a Spark-like object are read alike
    pl = pytest.importorskip("polars")
    as_polars = {m: pl.from_pandas(f.reset_index()) for m, f in frames.items()}
    np.testing.assert_array_equal(
        _numbers(compare_rankings(None, as_polars, **common)), _numbers(want))


def test_risk_report_from_per_group_frames():
    y, scores, g, frames = _frames(15)
    from sklearn_rankeval import risk_report
    got = risk_report(None, frames, metrics=["ndcg@5"], alpha=2.0)
    want = risk_report(y, scores, groups=g, metrics=["ndcg@5"], alpha=2.0)
    np.testing.assert_array_equal(_numbers(got), _numbers(want))


def test_dask_per_group_frames_compare_as_in_memory():
    dd = pytest.importorskip("dask.dataframe")
    from sklearn_rankeval import dask as rk_dask
    y, scores, g, frames = _frames(16)
    log = pd.DataFrame({"label": y, "user": g, **scores})
    ddf = dd.from_pandas(log, npartitions=3)
    lazy = {m: rk_dask.per_group_scores(ddf, y_true="label", y_score=m,
                                        groups="user", metrics=FRAME_METRICS)
            for m in scores}
    kw = dict(metrics=FRAME_METRICS, n_resamples=300, random_state=0,
              output="frame", design="all_pairs", test="randomized_tukey")
    got = compare_rankings(None, lazy, **kw)
    want = compare_rankings(y, scores, groups=g, **kw)
    np.testing.assert_allclose(_numbers(got), _numbers(want), rtol=1e-12)


def test_spark_like_frames_are_collected_with_to_pandas():
    y, scores, g, frames = _frames(17)

    class Collected:  # the one method compare_rankings calls on Spark's frame
        def __init__(self, frame):
            self.frame = frame

        def toPandas(self):
            return self.frame.reset_index()

    got = compare_rankings(None, {m: Collected(f) for m, f in frames.items()},
                           metrics=["mrr"], test="t", output="dict")
    want = compare_rankings(y, scores, groups=g, metrics=["mrr"], test="t",
                            output="dict")
    assert got["mrr"]["B"]["p_value"] == want["mrr"]["B"]["p_value"]


@pytest.mark.parametrize("call, match", [
    (lambda fr: compare_rankings(None, fr, metrics=["hit_rate@3"]), "pooled"),
    (lambda fr: compare_rankings(None, fr, metrics=["map"]), "not a column"),
    (lambda fr: compare_rankings(None, fr, metrics=["mrr"], groups=[1]), "groups"),
    (lambda fr: compare_rankings(None, {"A": fr["A"]}), "y_scores"),
    (lambda fr: compare_rankings(None, {"A": fr["A"], "B": fr["B"].iloc[1:]},
                                 metrics=["mrr"]), "different groups"),
    (lambda fr: compare_rankings(None, {"A": fr["A"], "B": [1, 2]},
                                 metrics=["mrr"]), "per-group frame"),
])
def test_per_group_frame_errors_name_the_argument(call, match):
    *_, frames = _frames(18)
    with pytest.raises(InvalidArgumentError, match=match):
        call(frames)
