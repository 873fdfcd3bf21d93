"""The CTR metrics: log loss, normalized entropy, PCOC, ECE and xAUC.

Checked against scikit-learn (``log_loss``, ``d2_log_loss_score``,
``calibration_curve``, ``roc_auc_score``), plain loops over the rows written
from the definitions, and the same rows evaluated in pieces (segments,
batches, windows).
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats
from sklearn.calibration import calibration_curve
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import log_loss as sklearn_log_loss
from sklearn.metrics import roc_auc_score

import sklearn_rankeval as rk

try:  # scikit-learn >= 1.5
    from sklearn.metrics import d2_log_loss_score
except ImportError:  # its definition: 1 - log loss over the base rate's
    def d2_log_loss_score(y_true, y_pred, *, sample_weight=None):
        base = np.full(len(y_true), np.average(y_true, weights=sample_weight))
        return 1 - (sklearn_log_loss(y_true, y_pred, sample_weight=sample_weight)
                    / sklearn_log_loss(y_true, base, sample_weight=sample_weight))

CTR = ["log_loss", "ne", "pcoc", "ece"]
FUNCS = {"log_loss": rk.log_loss, "ne": rk.normalized_entropy,
         "pcoc": rk.calibration_ratio, "ece": rk.expected_calibration_error}


def _clicks(seed=0, n_groups=40, weights=False):
    """Click logs: 0/1 labels, probabilities with ties, groups of 1-30 rows,
    some without a click or without a non-click."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 31, n_groups)
    g = np.repeat(rng.choice(10**6, n_groups, replace=False), sizes)
    rate = np.repeat(rng.uniform(0.02, 0.6, n_groups), sizes)
    y = (rng.random(g.size) < rate).astype(int)
    p = np.clip(np.round(rate + rng.normal(0, 0.1, g.size), 2), 0, 1)
    p[:3] = [0.0, 1.0, 0.5]  # the clipping of log(0)
    w = rng.uniform(0.2, 3.0, g.size) if weights else None
    perm = rng.permutation(g.size)
    return y[perm], p[perm], g[perm], None if w is None else w[perm]


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


# -- the plain definitions -----------------------------------------------------
def _ce(y, p):
    eps = np.finfo(np.float64).eps
    p = min(max(p, eps), 1 - eps)
    return -math.log(p) if y == 1 else -math.log(1 - p)


def _loop(y, p, w, value):
    """``value(rows)`` of the rows of each group, in sorted id order."""
    return lambda g: np.array([
        value([(yi, pi, 1.0 if w is None else wi)
               for yi, pi, wi, gi in zip(y, p, [None] * len(y) if w is None else w, g)
               if gi == gid])
        for gid in np.unique(g)])


def _ll(rows):
    return sum(w * _ce(y, p) for y, p, w in rows) / sum(w for _, _, w in rows)


def _ne(rows):
    pos = sum(w for y, _, w in rows if y == 1)
    neg = sum(w for y, _, w in rows if y == 0)
    if pos == 0 or neg == 0:
        return math.nan
    base = pos / (pos + neg)
    entropy = -pos * math.log(base) - neg * math.log(1 - base)
    return sum(w * _ce(y, p) for y, p, w in rows) / entropy


def _pcoc(rows):
    observed = sum(w * y for y, _, w in rows)
    return math.nan if observed == 0 else sum(w * p for _, p, w in rows) / observed


def _ece(edges):
    def value(rows):
        bins = {}
        for y, p, w in rows:
            b = 0  # the first inner edge >= p: a value on an edge joins the lower bin
            while b < len(edges) - 2 and p > edges[b + 1]:
                b += 1
            W, SP, SY = bins.get(b, (0.0, 0.0, 0.0))
            bins[b] = (W + w, SP + w * p, SY + w * y)
        total = sum(W for W, _, _ in bins.values())
        return sum(abs(SP - SY) for _, SP, SY in bins.values()) / total
    return value


# -- against scikit-learn and the loops -----------------------------------------
@pytest.mark.parametrize("weights", [False, True])
def test_log_loss_and_ne_equal_scikit_learn_on_pooled_rows(weights):
    y, p, g, w = _clicks(1, weights=weights)
    assert rk.log_loss(y, p, groups=g, sample_weight=w) == pytest.approx(
        sklearn_log_loss(y, p, sample_weight=w), rel=1e-12)
    assert rk.log_loss(y, p, sample_weight=w) == pytest.approx(
        sklearn_log_loss(y, p, sample_weight=w), rel=1e-12)
    assert rk.normalized_entropy(y, p, groups=g, sample_weight=w) == pytest.approx(
        1 - d2_log_loss_score(y, p, sample_weight=w), rel=1e-12)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("name, definition", [
    ("log_loss", _ll), ("ne", _ne), ("pcoc", _pcoc),
    ("ece", _ece(np.linspace(0, 1, 11))),
])
def test_per_group_values_and_averages_equal_loops(name, definition, weights):
    y, p, g, w = _clicks(2, weights=weights)
    values = _quiet(FUNCS[name], y, p, groups=g, sample_weight=w, average=None)
    expected = _loop(y, p, w, definition)(g)
    assert_allclose(values, expected, rtol=1e-12, equal_nan=True)
    ok = ~np.isnan(expected)
    ids = np.unique(g)
    total = np.array([(1.0 if w is None else w[g == i]).sum() if w is not None
                      else (g == i).sum() for i in ids], dtype=float)
    assert _quiet(FUNCS[name], y, p, groups=g, sample_weight=w,
                  average="macro") == pytest.approx(expected[ok].mean(), rel=1e-12)
    assert _quiet(FUNCS[name], y, p, groups=g, sample_weight=w,
                  average="weighted") == pytest.approx(
        np.average(expected[ok], weights=total[ok]), rel=1e-12)
    # micro: the metric of every row at once
    pooled = definition(list(zip(y, p, np.ones(len(y)) if w is None else w)))
    assert FUNCS[name](y, p, groups=g, sample_weight=w) == pytest.approx(
        pooled, rel=1e-12)


def test_one_class_groups_are_undefined_for_ne_and_pcoc_only():
    y = np.array([1, 1, 0, 0, 1, 0])
    p = np.array([0.9, 0.6, 0.2, 0.1, 0.5, 0.5])
    g = np.array([1, 1, 2, 2, 3, 3])
    assert np.isnan(rk.normalized_entropy(y, p, groups=g, average=None)[:2]).all()
    assert np.isnan(rk.calibration_ratio(y, p, groups=g, average=None)[1])
    assert not np.isnan(rk.log_loss(y, p, groups=g, average=None)).any()
    # the micro NE still pools the one-class groups' rows
    assert rk.normalized_entropy(y, p, groups=g) == pytest.approx(
        1 - d2_log_loss_score(y, p), rel=1e-12)


def test_negative_sampling_recalibrates_before_the_entropy():
    y, p, g, _ = _clicks(3)
    r = 0.25
    recalibrated = p / (p + (1 - p) / r)
    assert rk.normalized_entropy(y, p, groups=g, negative_sampling_rate=r) == \
        pytest.approx(rk.normalized_entropy(y, recalibrated, groups=g), rel=1e-12)
    assert rk.normalized_entropy(y, p, negative_sampling_rate=1.0) == \
        rk.normalized_entropy(y, p)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_ece_bins_are_calibration_curves(strategy):
    y, p, g, _ = _clicks(4)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=8, strategy=strategy)
    edges = (np.linspace(0, 1, 9) if strategy == "uniform"
             else np.percentile(p, np.linspace(0, 100, 9)))
    bins = np.searchsorted(edges[1:-1], p)
    counts = np.bincount(bins, minlength=8)
    weights = counts[counts > 0] / len(p)
    expected = np.sum(weights * np.abs(prob_pred - prob_true))
    assert rk.expected_calibration_error(y, p, n_bins=8, strategy=strategy) == \
        pytest.approx(expected, rel=1e-12)
    # the same edges for every group (from all rows)
    per_group = rk.expected_calibration_error(y, p, groups=g, n_bins=8,
                                              strategy=strategy, average=None)
    assert_allclose(per_group, _loop(y, p, None, _ece(edges))(g), rtol=1e-12)


# -- xAUC ------------------------------------------------------------------------
def _xauc_pairs(y, s, w):
    good = total = Fraction(0)
    for i in range(len(y)):
        for j in range(len(y)):
            if y[i] > y[j]:
                pair = Fraction(w[i]) * Fraction(w[j])
                total += pair
                good += pair * (1 if s[i] > s[j] else Fraction(1, 2) if s[i] == s[j]
                                else 0)
    return math.nan if total == 0 else float(good / total)


def test_xauc_equals_its_pairs_gauc_and_kendall():
    rng = np.random.default_rng(5)
    g = np.repeat(np.arange(30), rng.integers(1, 12, 30))
    y = rng.integers(0, 5, g.size).astype(float)  # graded labels, ties
    s = rng.integers(0, 4, g.size).astype(float)  # score ties
    w = rng.integers(1, 4, g.size)
    got = _quiet(rk.xauc_score, y, s, groups=g, sample_weight=w, average=None)
    expected = [_xauc_pairs(y[g == i], s[g == i], w[g == i]) for i in np.unique(g)]
    assert_allclose(got, expected, rtol=1e-12, equal_nan=True)
    # binary labels: GAUC
    b = (y > 2).astype(int)
    assert_allclose(_quiet(rk.xauc_score, b, s, groups=g, sample_weight=w,
                           average=None),
                    _quiet(rk.gauc_score, b, s, groups=g, sample_weight=w,
                           average=None), rtol=1e-12, equal_nan=True)
    assert _quiet(rk.xauc_score, b, s, groups=g) == pytest.approx(
        _quiet(rk.gauc_score, b, s, groups=g), rel=1e-12)
    # continuous, tie-free: (1 + tau) / 2
    watch, score = rng.exponential(30, 500), rng.normal(size=500)
    assert rk.xauc_score(watch, score) == pytest.approx(
        (1 + stats.kendalltau(watch, score)[0]) / 2, rel=1e-12)
    assert rk.xauc_score(b[:40], s[:40]) == pytest.approx(
        roc_auc_score(b[:40], s[:40]), rel=1e-12)


# -- the same statistics in pieces -------------------------------------------------
def test_segments_are_each_segments_rows_alone():
    y, p, g, w = _clicks(6, weights=True)
    segment = np.where(np.isin(g, np.unique(g)[::3]), "new", "returning")
    names = ["gauc", *CTR, "xauc"]
    report = _quiet(rk.ranking_report, y, p, groups=g, sample_weight=w,
                    metrics=names, segments=segment, output="dict")
    for name in ("new", "returning"):
        m = segment == name
        alone = _quiet(rk.ranking_report, y[m], p[m], groups=g[m], sample_weight=w[m],
                       metrics=names, output="dict")
        for metric in names:
            assert report[name][metric] == pytest.approx(alone[metric], rel=1e-12)


@pytest.mark.parametrize("keep_groups", [True, False])
def test_accumulator_batches_merges_and_window(keep_groups):
    y, p, g, w = _clicks(7, n_groups=60, weights=True)
    names = ["gauc", *CTR, "xauc"]
    order = np.argsort(g, kind="stable")
    batches = np.array_split(order, 6)
    # batches of whole groups (cut between groups)
    cuts = [np.isin(g, np.unique(g[b])) for b in batches]
    seen, pieces = np.zeros(len(g), bool), []
    for c in cuts:
        pieces.append(c & ~seen)
        seen |= c
    pieces = [m for m in pieces if m.any()]
    acc = rk.RankingAccumulator(names, keep_groups=keep_groups, window=2)
    other = rk.RankingAccumulator(names, keep_groups=keep_groups, window=2)
    for i, m in enumerate(pieces):
        (acc if i < 3 else other).update(y[m], p[m], groups=g[m], sample_weight=w[m])
    acc.merge(other)
    expected = _quiet(rk.ranking_report, y, p, groups=g, sample_weight=w,
                      metrics=names, output="dict")
    got = _quiet(acc.result)
    for name in names:
        assert got[name] == pytest.approx(expected[name], rel=1e-12), name
    last = pieces[-2] | pieces[-1]
    window = _quiet(rk.ranking_report, y[last], p[last], groups=g[last],
                    sample_weight=w[last], metrics=names, output="dict")
    got = _quiet(acc.result, scope="window")
    for name in names:
        assert got[name] == pytest.approx(window[name], rel=1e-12), name
    assert got["log_loss"] != pytest.approx(expected["log_loss"], rel=1e-6)


def test_window_arguments():
    with pytest.raises(ValueError, match="window"):
        rk.RankingAccumulator(["ne"], window=0)
    with pytest.raises(ValueError, match="window"):
        rk.RankingAccumulator(["ne"], window=3, group_rows="sorted")
    acc = rk.RankingAccumulator(["ne"]).update([1, 0], [0.5, 0.2], groups=[1, 1])
    with pytest.raises(ValueError, match="window"):
        acc.result(scope="window")
    with pytest.raises(ValueError, match="scope"):
        acc.result(scope="recent")


def test_compare_rankings_carries_the_ctr_metrics():
    y, p, g, _ = _clicks(8)
    q = np.clip(p * 1.5, 0, 1)
    result = _quiet(rk.compare_rankings, y, {"a": p, "b": q}, groups=g,
                    metrics=[*CTR, "xauc"], n_resamples=50, random_state=0,
                    output="dict")
    for name, func in [*FUNCS.items(), ("xauc", rk.xauc_score)]:
        assert result[name]["b"]["value"] == pytest.approx(
            _quiet(func, y, q, groups=g), rel=1e-12)
        assert result[name]["b"]["diff"] == pytest.approx(
            _quiet(func, y, q, groups=g) - _quiet(func, y, p, groups=g), rel=1e-9)


# -- scorers ---------------------------------------------------------------------
def test_loss_scorers_need_no_groups_and_equal_scikit_learn():
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import get_scorer as sklearn_get_scorer

    X = np.random.default_rng(9).normal(size=(200, 3))
    y = (X[:, 0] + np.random.default_rng(10).normal(size=200) > 0).astype(int)
    model = LogisticRegression().fit(X, y)
    ours = rk.get_scorer("neg_log_loss")(model, X, y)
    assert ours == pytest.approx(sklearn_get_scorer("neg_log_loss")(model, X, y),
                                 rel=1e-12)
    proba = model.predict_proba(X)[:, 1]
    assert rk.get_scorer("neg_ne")(model, X, y) == pytest.approx(
        -rk.normalized_entropy(y, proba), rel=1e-12)
    assert rk.get_scorer("neg_ece")(model, X, y) == pytest.approx(
        -rk.expected_calibration_error(y, proba), rel=1e-12)
    names = rk.get_scorer_names()
    assert {"neg_log_loss", "neg_ne", "neg_ece", "xauc"} <= set(names)
    assert not {"pcoc", "log_loss", "ne", "ece"} & set(names)
    with pytest.raises(ValueError, match="neg_log_loss"):
        rk.get_scorer("log_loss")
    with pytest.raises(ValueError, match="not a scorer"):
        rk.get_scorer("pcoc")


# -- bad input -------------------------------------------------------------------
@pytest.mark.parametrize("name", CTR)
def test_bad_probabilities_and_labels_name_the_argument(name):
    func = FUNCS[name]
    y, p = np.array([1, 0, 1, 0]), np.array([0.5, 0.2, 0.3, 0.1])
    for bad in ([0.5, 1.2, 0.3, 0.1], [0.5, -0.1, 0.3, 0.1], [0.5, np.nan, 0.3, 0.1]):
        with pytest.raises(ValueError, match="y_prob"):
            func(y, np.array(bad))
    with pytest.raises(ValueError, match="y_true"):
        func(np.array([1, 0, 2, 0]), p)
    # -1/1 and booleans are read as roc_auc_score reads them
    assert func(np.array([1, -1, 1, -1]), p) == func(y, p)
    assert func(y.astype(bool), p) == func(y, p)


def test_bad_options_name_the_argument():
    y, p = np.array([1, 0, 1, 0]), np.array([0.5, 0.2, 0.3, 0.1])
    for rate in (0, 1.5, -0.2, True):
        with pytest.raises(ValueError, match="negative_sampling_rate"):
            rk.normalized_entropy(y, p, negative_sampling_rate=rate)
    for n_bins in (0, -1):
        with pytest.raises(ValueError, match="n_bins"):
            rk.expected_calibration_error(y, p, n_bins=n_bins)
    with pytest.raises(TypeError, match="n_bins"):
        rk.expected_calibration_error(y, p, n_bins=2.5)
    with pytest.raises(ValueError, match="strategy"):
        rk.expected_calibration_error(y, p, strategy="bogus")
    with pytest.raises(ValueError, match="y_score"):  # multiclass scores
        rk.log_loss(np.array([0, 1]), np.array([[0.2, 0.8], [0.5, 0.5]]))


def test_display_legend_values_are_the_metric_functions():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, p, g, w = _clicks(11, weights=True)
    segment = np.where(np.isin(g, np.unique(g)[::2]), "a", "b")
    disp = rk.CalibrationCurveDisplay.from_predictions(
        y, p, segments=segment, sample_weight=w, n_bins=5)
    for name in ("a", "b"):
        m = segment == name
        assert disp.curves_[name]["pcoc"] == pytest.approx(
            rk.calibration_ratio(y[m], p[m], sample_weight=w[m]), rel=1e-12)
        assert disp.curves_[name]["ece"] == pytest.approx(
            rk.expected_calibration_error(y[m], p[m], sample_weight=w[m], n_bins=5),
            rel=1e-12)
    plt.close("all")


# -- negative_sampling_rate: one meaning everywhere (issue 31) -----------------
def _recalibrated(p, r):
    # written from the definition: p' = p / (p + (1 - p) / r)
    return p / (p + (1 - p) / r)


@pytest.mark.parametrize("name", CTR)
def test_negative_sampling_rate_is_the_metric_of_recalibrated_probabilities(name):
    func = FUNCS[name]
    from sklearn_rankeval import RankingAccumulator, per_group_scores, ranking_report
    from tests import _reference as ref

    rng = np.random.default_rng(5)
    n, r = 400, 0.1
    g = rng.integers(0, 15, n)
    p = rng.uniform(0.05, 0.95, n)
    y = (rng.uniform(size=n) < 0.3).astype(int)
    q = _recalibrated(p, r)
    expected = ref.pooled_ctr(name, y, q)
    assert func(y, p, negative_sampling_rate=r) == pytest.approx(expected, rel=1e-12)
    assert func(y, p, negative_sampling_rate=r) != pytest.approx(func(y, p))
    report = ranking_report(y, p, groups=g, metrics=[name, "gauc"],
                            negative_sampling_rate=r, output="dict")
    assert report[name] == pytest.approx(expected, rel=1e-12)
    # a ranking metric reads the scores as given
    assert report["gauc"] == ranking_report(y, p, groups=g, metrics=["gauc"],
                                            output="dict")["gauc"]
    frame = per_group_scores(y, p, groups=g, metrics=[name], negative_sampling_rate=r)
    np.testing.assert_allclose(frame[name].to_numpy(),
                               func(y, q, groups=g, average=None), rtol=1e-12)
    acc = RankingAccumulator([name], negative_sampling_rate=r)
    acc.update(y[g < 7], p[g < 7], groups=g[g < 7]).update(y[g >= 7], p[g >= 7],
                                                            groups=g[g >= 7])
    assert acc.result()[name] == pytest.approx(expected, rel=1e-12)


def test_quantile_bins_of_recalibrated_probabilities():
    rng = np.random.default_rng(6)
    p = rng.uniform(0.05, 0.95, 300)
    y = (rng.uniform(size=300) < 0.2).astype(int)
    q = _recalibrated(p, 0.25)
    assert rk.expected_calibration_error(
        y, p, strategy="quantile", negative_sampling_rate=0.25) == pytest.approx(
        rk.expected_calibration_error(y, q, strategy="quantile"), rel=1e-12)


@pytest.mark.parametrize("bad", [0, 1.5, -0.1, "0.1", True])
def test_negative_sampling_rate_checked_everywhere(bad):
    from sklearn_rankeval import ranking_report

    for call in (lambda: rk.log_loss([0, 1], [0.2, 0.7], negative_sampling_rate=bad),
                 lambda: ranking_report([0, 1], [0.2, 0.7], metrics=["pcoc"],
                                        negative_sampling_rate=bad)):
        with pytest.raises(ValueError, match=r"^negative_sampling_rate must be a "
                                             r"number in \(0, 1\]"):
            call()


# -- messages (issue 31) -------------------------------------------------------
def test_normalized_entropy_without_a_click_says_why():
    with pytest.warns(UndefinedMetricWarning) as record:
        value = rk.normalized_entropy([0, 0, 0], [0.1, 0.2, 0.3])
    assert np.isnan(value)
    assert str(record[0].message) == (
        "normalized entropy is undefined: the rows hold one class only (no click, "
        "or only clicks): the entropy of their base rate is 0; returning NaN.")


def test_pcoc_without_a_click_says_why():
    with pytest.warns(UndefinedMetricWarning,
                      match=r"PCOC is undefined: the rows hold no positive label"):
        rk.calibration_ratio([0, 0], [0.1, 0.2])
