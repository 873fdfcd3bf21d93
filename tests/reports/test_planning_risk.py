"""``topic_set_size``, ``achieved_power`` (statsmodels' power classes) and
``risk_report`` (the papers' formulas, written with loops)."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_rankeval import (
    achieved_power,
    per_group_scores,
    risk_report,
    topic_set_size,
)
from sklearn_rankeval._core import InvalidArgumentError
from tests import _reference as ref
from tests.conftest import make_grouped_data

power_mod = pytest.importorskip("statsmodels.stats.power")
pd = pytest.importorskip("pandas")


def _pilot(seed=0, n=30):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.2, 0.8, n)
    return a, a + 0.01 + 0.05 * rng.standard_normal(n)


@pytest.mark.parametrize("delta", [0.005, 0.02, 0.05])
def test_topic_set_size_is_statsmodels_solve_power_rounded_up(delta):
    a, b = _pilot()
    d = b - a
    es = delta / np.std(d, ddof=1)
    assert topic_set_size(d, delta=delta) == math.ceil(
        power_mod.TTestPower().solve_power(es, alpha=0.05, power=0.8))
    assert topic_set_size(d, delta=delta, alpha=0.01, power=0.9) == math.ceil(
        power_mod.TTestPower().solve_power(es, alpha=0.01, power=0.9))
    # unpaired: the pooled sd of the two columns, n in each arm
    es2 = delta / math.sqrt((np.var(a, ddof=1) + np.var(b, ddof=1)) / 2)
    frame = pd.DataFrame({"A": a, "B": b})
    assert topic_set_size(frame, delta=delta, design="unpaired") == math.ceil(
        power_mod.TTestIndPower().solve_power(es2, alpha=0.05, power=0.8))


def test_achieved_power_is_statsmodels_power():
    a, b = _pilot(1)
    d = b - a
    es = 0.02 / np.std(d, ddof=1)
    assert achieved_power(d, delta=0.02) == pytest.approx(
        power_mod.TTestPower().power(es, nobs=30, alpha=0.05), rel=1e-10)
    assert achieved_power(d, delta=0.02, n_groups=200) == pytest.approx(
        power_mod.TTestPower().power(es, nobs=200, alpha=0.05), rel=1e-10)
    # a frame of two columns means their difference, NaN rows left out
    frame = pd.DataFrame({"A": np.r_[a, np.nan], "B": np.r_[b, 0.3]})
    assert achieved_power(frame, delta=0.02) == pytest.approx(
        achieved_power(d, delta=0.02), rel=1e-12)
    assert achieved_power(np.column_stack([a, b]), delta=0.02) == pytest.approx(
        achieved_power(d, delta=0.02), rel=1e-12)


def test_the_size_reaches_the_power_by_simulation():
    """Differences drawn with the pilot's sd and mean delta: with the size
    found, the paired t-test rejects in about `power` of the repetitions."""
    rng = np.random.default_rng(2)
    sd, delta = 0.05, 0.02
    n = topic_set_size(rng.normal(0, sd, 5000), delta=delta)
    reps = 400
    hits = sum(stats.ttest_1samp(rng.normal(delta, sd, n), 0).pvalue < 0.05
               for _ in range(reps))
    assert abs(hits / reps - 0.8) <= 3 * math.sqrt(0.8 * 0.2 / reps) + 0.02


def test_sizes_from_per_group_scores():
    y, s, g = make_grouped_data(3, n_groups=40)
    rng = np.random.default_rng(3)
    s2 = s + rng.normal(0, 0.5, len(s))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fa = per_group_scores(y, s, groups=g, metrics=["ndcg@5"])
        fb = per_group_scores(y, s2, groups=g, metrics=["ndcg@5"])
    frame = pd.DataFrame({"A": fa["ndcg@5"], "B": fb["ndcg@5"]})
    d = (frame.B - frame.A).dropna().to_numpy()
    assert topic_set_size(frame, delta=0.03) == topic_set_size(d, delta=0.03)


@pytest.mark.parametrize("call, name", [
    (lambda d: topic_set_size(d, delta=0), "delta"),
    (lambda d: topic_set_size(d, delta=0.1, alpha=1.5), "alpha"),
    (lambda d: topic_set_size(d, delta=0.1, power=1), "power"),
    (lambda d: topic_set_size(d, delta=0.1, design="x"), "design"),
    (lambda d: topic_set_size(d, delta=0.1, design="unpaired"),
     "differences_or_frame"),
    (lambda d: topic_set_size(d[:1], delta=0.1), "differences_or_frame"),
    (lambda d: achieved_power(d, delta=0.1, n_groups=1), "n_groups"),
    (lambda d: achieved_power(np.ones((3, 3)), delta=0.1),
     "differences_or_frame"),
])
def test_bad_arguments_name_themselves(call, name):
    d = np.array([0.1, 0.0, -0.05, 0.02])
    with pytest.raises(ValueError, match=name):
        call(d)


def _models(seed, n_groups=40):
    y, s, g = make_grouped_data(seed, n_groups=n_groups)
    rng = np.random.default_rng(seed)
    return y, {"A": s, "B": s + rng.normal(0, 0.6, len(s)) + 0.2 * y,
               "C": s + rng.normal(0, 0.6, len(s))}, g


def test_risk_report_from_the_per_group_values():
    y, scores, g = _models(4)
    alpha = 2.0
    res = risk_report(y, scores, groups=g, metrics=["ndcg@5"], alpha=alpha,
                      output="dict")["ndcg@5"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cols = {m: per_group_scores(y, s, groups=g, metrics=["ndcg@5"])["ndcg@5"]
                for m, s in scores.items()}
    x = pd.DataFrame(cols).dropna()
    for model in ("B", "C"):
        d = (x[model] - x["A"]).to_numpy()
        wins = sum(v for v in d if v > 0)
        losses = sum(-v for v in d if v < 0)
        assert res[model]["urisk"] == pytest.approx(
            (wins - (1 + alpha) * losses) / len(d), rel=1e-10)
        r = [v if v >= 0 else (1 + alpha) * v for v in d]
        t = stats.ttest_1samp(r, 0)
        assert res[model]["trisk"] == pytest.approx(t.statistic, rel=1e-10)
        assert res[model]["p_trisk"] == pytest.approx(t.pvalue, rel=1e-10)
        assert res[model]["wins"] == int((d > 0).sum())
    geo = ref.georisk_loop(x.to_numpy().tolist(), alpha)
    np.testing.assert_allclose([res[m]["georisk"] for m in "ABC"], geo, rtol=1e-10)
    assert res["A"]["urisk"] == 0.0 and math.isnan(res["A"]["trisk"])


def test_risk_report_outputs_and_errors():
    y, scores, g = _models(5)
    frame = risk_report(y, scores, groups=g, metrics=["mrr", "ndcg@5"])
    assert list(frame.columns) == ["metric", "model", "value", "urisk", "trisk",
                                   "p_trisk", "georisk", "wins", "losses"]
    text = risk_report(y, scores, groups=g, metrics=["mrr"], output="text",
                       baseline="B")
    assert "B (baseline)" in text and "alpha 1" in text.splitlines()[0]
    with pytest.raises(InvalidArgumentError, match="alpha"):
        risk_report(y, scores, groups=g, alpha=-1)
    with pytest.raises(ValueError, match="baseline"):
        risk_report(y, scores, groups=g, baseline="Z")
    with pytest.raises(ValueError, match="y_scores"):
        risk_report(y, {"A": scores["A"]}, groups=g)
