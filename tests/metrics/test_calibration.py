"""Calibration bins, reliability curves, ECE, PCOC and CalibrationCurveDisplay.

Checked against ``sklearn.calibration.calibration_curve`` (unit weights) and
against plain loops over the rows written from the definitions (weights,
segments, the bootstrap band).
"""

from fractions import Fraction

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.linear_model import LogisticRegression, Ridge

from sklearn_rankeval import CalibrationCurveDisplay
from sklearn_rankeval._metrics._calibration import (
    bin_edges,
    bin_index,
    bin_sums,
    ece_from_sums,
    pcoc_from_sums,
    reliability_curves,
    validate_calibration_inputs,
    weighted_percentile,
)
from sklearn_rankeval.datasets import make_click_log


# ---------------------------------------------------------------------------
# references: plain loops over the rows, from the definitions
# ---------------------------------------------------------------------------
def ref_bin(p, edges):
    """The bin of p: the number of inner edges strictly below it."""
    b = 0
    for e in edges[1:-1]:
        if p > e:
            b += 1
    return b


def ref_curve(y, p, w, edges):
    """prob_true, prob_pred, weights of the non-empty bins, PCOC and ECE."""
    n_bins = len(edges) - 1
    W, SP, SY = [0.0] * n_bins, [0.0] * n_bins, [0.0] * n_bins
    for yi, pi, wi in zip(y, p, w):
        b = ref_bin(pi, edges)
        W[b] += wi
        SP[b] += wi * pi
        SY[b] += wi * yi
    kept = [b for b in range(n_bins) if W[b] > 0]
    total = sum(W)
    ece = sum(W[b] / total * abs(SP[b] / W[b] - SY[b] / W[b]) for b in kept)
    pcoc = sum(wi * pi for pi, wi in zip(p, w)) / sum(wi * yi for yi, wi in zip(y, w))
    return ([SY[b] / W[b] for b in kept], [SP[b] / W[b] for b in kept],
            [W[b] for b in kept], pcoc, ece)


def ref_weighted_percentile(values, weights, q):
    """The documented rule, with Fractions: positions (S_i - w_i) / (W - w_i)."""
    rows = sorted((Fraction(v), Fraction(w)) for v, w in zip(values, weights) if w > 0)
    total = sum(w for _, w in rows)
    positions, cum = [], Fraction(0)
    for _, w in rows:
        cum += w
        positions.append((cum - w) / (total - w))
    t = Fraction(q) / 100
    for i in range(len(rows) - 1):
        if positions[i] <= t <= positions[i + 1]:
            share = (t - positions[i]) / (positions[i + 1] - positions[i])
            return float(rows[i][0] + share * (rows[i + 1][0] - rows[i][0]))
    raise AssertionError("t outside [0, 1]")


def _data(seed=0, n=300, decimals=1):
    """Labels, probabilities rounded to ``decimals`` (many on the edges, 0, 1),
    weights, segments and groups."""
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), decimals)
    p[:3] = [0.0, 1.0, 0.5]
    y = (rng.random(n) < p).astype(np.int64)
    w = rng.integers(0, 4, n).astype(np.float64)  # zeros included
    w[:3] = 1.0
    segments = rng.choice(["new", "returning", "dormant"], n)
    groups = rng.integers(0, 25, n)
    return y, p, w, segments, groups


# ---------------------------------------------------------------------------
# bins and curves = sklearn's calibration_curve (unit weights)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [1, 2, 5, 10, 13])
@pytest.mark.parametrize("decimals", [1, 2, 8])
def test_curve_equals_sklearn_calibration_curve(strategy, n_bins, decimals):
    y, p, _, _, _ = _data(seed=n_bins, decimals=decimals)
    expected_true, expected_pred = calibration_curve(y, p, n_bins=n_bins,
                                                     strategy=strategy)
    curve = reliability_curves(y, p, n_bins=n_bins, strategy=strategy)[None]
    np.testing.assert_array_equal(curve["prob_true"], expected_true)
    np.testing.assert_array_equal(curve["prob_pred"], expected_pred)
    # the bins are sklearn's edges and searchsorted, row by row
    edges = bin_edges(p, n_bins, strategy)
    if strategy == "uniform":
        np.testing.assert_array_equal(edges, np.linspace(0, 1, n_bins + 1))
    else:
        np.testing.assert_array_equal(
            edges, np.percentile(p, np.linspace(0, 1, n_bins + 1) * 100))
    np.testing.assert_array_equal(bin_index(p, edges),
                                  [ref_bin(v, edges) for v in p])


def test_values_on_inner_edges_join_the_lower_bin():
    # 0.5 is the inner edge of two uniform bins; 0 and 1 the outer ones
    edges = bin_edges(None, 2, "uniform")
    np.testing.assert_array_equal(bin_index([0.0, 0.5, 0.5000001, 1.0], edges),
                                  [0, 0, 1, 1])
    y, p = [0, 1, 1, 0], [0.0, 0.5, 0.5000001, 1.0]
    curve = reliability_curves(y, p, n_bins=2)[None]
    expected = calibration_curve(y, p, n_bins=2)
    np.testing.assert_array_equal(curve["prob_true"], expected[0])
    np.testing.assert_array_equal(curve["prob_pred"], expected[1])
    np.testing.assert_array_equal(curve["prob_true"], [0.5, 0.5])


def test_empty_bins_are_dropped_as_sklearn_does():
    y, p = [0, 1, 1], [0.05, 0.95, 0.93]
    curve = reliability_curves(y, p, n_bins=10)[None]
    np.testing.assert_array_equal(curve["bins"], [0, 9])
    np.testing.assert_array_equal(curve["weights"], [1.0, 2.0])
    np.testing.assert_array_equal(curve["prob_true"],
                                  calibration_curve(y, p, n_bins=10)[0])


# ---------------------------------------------------------------------------
# weighted: plain loops, integer weights = repeated rows, zero = dropped
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_weighted_curve_ece_pcoc_equal_the_loops(strategy, seed):
    y, p, w, _, _ = _data(seed=seed, decimals=2)
    w = w * np.random.default_rng(seed).random(len(w))  # fractional weights
    curve = reliability_curves(y, p, sample_weight=w, n_bins=7,
                               strategy=strategy)[None]
    edges = curve["edges"]
    if strategy == "quantile":
        for q, edge in zip(np.linspace(0, 100, 8), edges):
            assert edge == pytest.approx(ref_weighted_percentile(p, w, q),
                                         rel=1e-12, abs=1e-15)
    prob_true, prob_pred, weights, pcoc, ece = ref_curve(y, p, w, edges)
    np.testing.assert_allclose(curve["prob_true"], prob_true, rtol=1e-12)
    np.testing.assert_allclose(curve["prob_pred"], prob_pred, rtol=1e-12)
    np.testing.assert_allclose(curve["weights"], weights, rtol=1e-12)
    assert curve["pcoc"] == pytest.approx(pcoc, rel=1e-12)
    assert curve["ece"] == pytest.approx(ece, rel=1e-12)


def test_integer_weights_are_repeated_rows():
    # uniform bins: a row of weight k is k copies of the row
    y, p, w, _, _ = _data(seed=3, decimals=2)
    w = w.astype(np.int64)
    weighted = reliability_curves(y, p, sample_weight=w, n_bins=8)[None]
    repeated = reliability_curves(np.repeat(y, w), np.repeat(p, w), n_bins=8)[None]
    for key in ("prob_true", "prob_pred", "weights", "bins"):
        np.testing.assert_allclose(weighted[key], repeated[key], rtol=1e-12)
    assert weighted["pcoc"] == pytest.approx(repeated["pcoc"], rel=1e-12)
    assert weighted["ece"] == pytest.approx(repeated["ece"], rel=1e-12)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_zero_weight_is_leaving_the_row_out_and_ones_are_none(strategy):
    y, p, w, _, _ = _data(seed=4, decimals=2)
    kept = w > 0
    a = reliability_curves(y, p, sample_weight=w, n_bins=6, strategy=strategy)[None]
    b = reliability_curves(y[kept], p[kept], sample_weight=w[kept], n_bins=6,
                           strategy=strategy)[None]
    for key in ("prob_true", "prob_pred", "weights", "edges"):
        np.testing.assert_array_equal(a[key], b[key])
    ones = reliability_curves(y, p, sample_weight=np.ones(len(y)), n_bins=6,
                              strategy=strategy)[None]
    none = reliability_curves(y, p, n_bins=6, strategy=strategy)[None]
    for key in ("prob_true", "prob_pred", "weights", "edges"):
        np.testing.assert_array_equal(ones[key], none[key])


def test_weighted_percentile_rule():
    # by hand from the rule: values 1, 2, 3 with weights 1, 2, 1 stand at
    # (0, 1/2, 1); so the quartiles are 1.5, 2 and 2.5
    assert weighted_percentile([3, 1, 2], [1, 1, 2], [0, 25, 50, 75, 100]).tolist() == [
        1.0, 1.5, 2.0, 2.5, 3.0]
    x = np.random.default_rng(0).random(17)
    w = np.random.default_rng(1).random(17)
    q = np.linspace(0, 100, 9)
    # equal weights: np.percentile bit for bit; scaling changes nothing
    np.testing.assert_array_equal(weighted_percentile(x, np.full(17, 0.3), q),
                                  np.percentile(x, q))
    np.testing.assert_allclose(weighted_percentile(x, 7 * w, q),
                               weighted_percentile(x, w, q), rtol=1e-14)
    # the order of the rows does not matter, with ties of different weights
    xt = np.round(x, 1)
    perm = np.random.default_rng(2).permutation(17)
    np.testing.assert_array_equal(weighted_percentile(xt, w, q),
                                  weighted_percentile(xt[perm], w[perm], q))
    np.testing.assert_allclose(weighted_percentile(xt, w, q),
                               [ref_weighted_percentile(xt, w, v) for v in q],
                               rtol=1e-13)
    # one row of positive weight: its value everywhere
    assert weighted_percentile([0.2, 0.7], [0.0, 5.0], q).tolist() == [0.7] * 9


# ---------------------------------------------------------------------------
# segments, sums, vectorised ECE / PCOC
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weighted", [False, True])
def test_segments_are_each_segments_rows_alone(strategy, weighted):
    y, p, w, segments, _ = _data(seed=5, decimals=2)
    sw = w if weighted else None
    curves = reliability_curves(y, p, segments=segments, sample_weight=sw,
                                n_bins=5, strategy=strategy)
    assert list(curves) == ["dormant", "new", "returning"]
    for label, curve in curves.items():
        rows = segments == label
        alone = reliability_curves(y[rows], p[rows], n_bins=5, strategy=strategy,
                                   sample_weight=None if sw is None else sw[rows])
        for key in ("prob_true", "prob_pred", "weights", "edges"):
            np.testing.assert_allclose(curve[key], alone[None][key], rtol=1e-13)
        assert curve["ece"] == pytest.approx(alone[None]["ece"], rel=1e-13)
        assert curve["pcoc"] == pytest.approx(alone[None]["pcoc"], rel=1e-13)
        if not weighted:
            expected = calibration_curve(y[rows], p[rows], n_bins=5,
                                         strategy=strategy)
            np.testing.assert_array_equal(curve["prob_true"], expected[0])


def test_bin_sums_and_vectorised_ece_pcoc():
    y, p, w, _, groups = _data(seed=6, decimals=2)
    codes = np.unique(groups, return_inverse=True)[1]
    n_groups, n_bins = codes.max() + 1, 4
    edges = bin_edges(p, n_bins, "uniform")
    bins = bin_index(p, edges)
    W, SP, SY = bin_sums(bins, codes, y.astype(float), p, w, n_bins=n_bins,
                         n_groups=n_groups)
    assert W.shape == SP.shape == SY.shape == (n_groups, n_bins)
    W_ref = np.zeros((n_groups, n_bins))
    SP_ref, SY_ref = W_ref.copy(), W_ref.copy()
    for g, b, yi, pi, wi in zip(codes, bins, y, p, w):
        W_ref[g, b] += wi
        SP_ref[g, b] += wi * pi
        SY_ref[g, b] += wi * yi
    np.testing.assert_allclose(W, W_ref, rtol=1e-12)
    np.testing.assert_allclose(SP, SP_ref, rtol=1e-12)
    np.testing.assert_allclose(SY, SY_ref, rtol=1e-12)
    # one ECE / PCOC per leading index; each the loop over that group's rows
    ece, pcoc = ece_from_sums(W, SP, SY), pcoc_from_sums(SP.sum(1), SY.sum(1))
    assert ece.shape == pcoc.shape == (n_groups,)
    for g in range(n_groups):
        rows = codes == g
        if w[rows].sum() == 0:
            assert np.isnan(ece[g])
            continue
        if (w[rows] * y[rows]).sum() == 0:
            assert np.isnan(pcoc[g])
            continue
        *_, pcoc_g, ece_g = ref_curve(y[rows], p[rows], w[rows], edges)
        assert ece[g] == pytest.approx(ece_g, rel=1e-12)
        assert pcoc[g] == pytest.approx(pcoc_g, rel=1e-12)
    # (n_resamples, n_groups, n_bins) sums: the same values on each slice
    stack = np.stack([W, 2 * W])
    np.testing.assert_allclose(ece_from_sums(stack, np.stack([SP, 2 * SP]),
                                             np.stack([SY, 2 * SY]))[1], ece)


def test_labels_read_as_roc_auc_score_and_inputs_untouched():
    y, p, w, segments, _ = _data(seed=7, decimals=2)
    base = reliability_curves(y, p, sample_weight=w, n_bins=5)[None]
    copies = [a.copy() for a in (y, p, w, segments)]
    for labels in (y.astype(bool), np.where(y == 1, 1, -1), y.astype(float),
                   list(y)):
        other = reliability_curves(labels, p, sample_weight=w, n_bins=5)[None]
        np.testing.assert_array_equal(other["prob_true"], base["prob_true"])
    other = reliability_curves(np.where(y == 1, "click", "skip"), p,
                               sample_weight=w, n_bins=5, pos_label="click")[None]
    np.testing.assert_array_equal(other["prob_true"], base["prob_true"])
    reliability_curves(y, p, sample_weight=w, segments=segments, n_bins=5,
                       strategy="quantile")
    for a, b in zip((y, p, w, segments), copies):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------
# the bootstrap band over groups
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("weighted", [False, True])
def test_band_is_the_loop_over_resamples(weighted):
    y, p, w, segments, groups = _data(seed=8, n=200, decimals=2)
    sw = w if weighted else None
    conf, n_res, n_bins = 0.8, 40, 5
    curves = reliability_curves(y, p, segments=segments, sample_weight=sw,
                                n_bins=n_bins, groups=groups, confidence=conf,
                                n_resamples=n_res, random_state=11)
    rng = np.random.default_rng(11)
    weights = np.ones(len(y)) if sw is None else sw
    for label, curve in curves.items():  # segments in sorted order, one rng
        rows = np.flatnonzero(segments == label)
        ids = sorted(set(groups[rows].tolist()))
        dist = []
        for _ in range(n_res):
            counts = np.bincount(rng.integers(0, len(ids), len(ids)),
                                 minlength=len(ids))
            W, SY = [0.0] * n_bins, [0.0] * n_bins
            for i in rows:
                c = counts[ids.index(groups[i])]
                b = ref_bin(p[i], curve["edges"])
                W[b] += c * weights[i]
                SY[b] += c * weights[i] * y[i]
            dist.append([SY[b] / W[b] if W[b] > 0 else np.nan
                         for b in curve["bins"]])
        dist = np.array(dist)
        for j in range(dist.shape[1]):
            values = dist[~np.isnan(dist[:, j]), j]
            low, high = np.quantile(values, [(1 - conf) / 2, (1 + conf) / 2])
            assert curve["prob_true_low"][j] == pytest.approx(low, rel=1e-12)
            assert curve["prob_true_high"][j] == pytest.approx(high, rel=1e-12)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
BAD = [
    ("y_prob", dict(y_prob=[0.1, 1.2, 0.3, 0.4])),
    ("y_prob", dict(y_prob=[0.1, -0.1, 0.3, 0.4])),
    ("y_prob", dict(y_prob=[0.1, np.nan, 0.3, 0.4])),
    ("y_prob", dict(y_prob=[[0.1, 0.2], [0.3, 0.4]])),
    ("y_prob", dict(y_prob=["a", "b", "c", "d"])),
    ("y_prob", dict(y_prob=[])),
    ("y_true", dict(y_true=[0, 1, 2, 1])),
    ("y_true", dict(y_true=[0, 1, np.nan, 1])),
    ("y_true", dict(y_true=["a", "b", "a", "b"])),
    ("y_true", dict(y_true=[0, 1, 1])),
    ("n_bins", dict(n_bins=0)),
    ("n_bins", dict(n_bins=2.5)),
    ("n_bins", dict(n_bins=True)),
    ("strategy", dict(strategy="kmeans")),
    ("sample_weight", dict(sample_weight=[1, -1, 1, 1])),
    ("sample_weight", dict(sample_weight=[1, 1])),
    ("segments", dict(segments=["a", "b"])),
    ("segments", dict(segments=["a", None, "b", "b"])),
    ("groups", dict(confidence=0.9)),
    ("groups", dict(confidence=0.9, groups=[1, 2])),
    ("confidence", dict(confidence=1.5, groups=[1, 1, 2, 2])),
    ("n_resamples", dict(confidence=0.9, groups=[1, 1, 2, 2], n_resamples=0)),
]


@pytest.mark.parametrize("argument, bad", BAD,
                         ids=[f"{a}-{i}" for i, (a, _) in enumerate(BAD)])
def test_bad_input_names_the_argument(argument, bad):
    kwargs = dict(y_true=[0, 1, 0, 1], y_prob=[0.1, 0.6, 0.3, 0.9])
    kwargs.update(bad)
    y_true, y_prob = kwargs.pop("y_true"), kwargs.pop("y_prob")
    with pytest.raises((ValueError, TypeError), match=argument):
        reliability_curves(y_true, y_prob, **kwargs)


def test_validation_returns_float_labels_and_an_int_n_bins():
    y, p, w, n_bins = validate_calibration_inputs([True, False], [0.2, 0.9],
                                                  n_bins=np.int64(3))
    assert y.tolist() == [1.0, 0.0] and p.dtype == np.float64
    assert w is None and type(n_bins) is int


# ---------------------------------------------------------------------------
# the display
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def click_data():
    X, y, groups = make_click_log(n_users=60, n_items=(3, 15), random_state=0)
    clf = LogisticRegression().fit(X, y)
    segment = np.where(X[:, 0] > np.median(X[:, 0]), "active", "quiet")
    return X, y, groups, segment, clf


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_display_lines_and_legend_hold_pcoc_and_ece(pyplot, click_data, strategy):
    X, y, groups, segment, clf = click_data
    prob = clf.predict_proba(X)[:, 1]
    w = np.random.default_rng(0).integers(1, 4, len(y)).astype(float)
    disp = CalibrationCurveDisplay.from_predictions(
        y, prob, segments=segment, sample_weight=w, n_bins=6, strategy=strategy,
        name="LR")
    assert list(disp.lines_) == ["active", "quiet"]
    assert disp.line_ is disp.lines_["active"]
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend[0] == "Perfectly calibrated"
    for label, line in disp.lines_.items():
        rows = segment == label
        curve = disp.curves_[label]
        prob_true, prob_pred, _, pcoc, ece = ref_curve(y[rows], prob[rows], w[rows],
                                                       curve["edges"])
        x_line, y_line = line.get_data()
        np.testing.assert_allclose(x_line, prob_pred, rtol=1e-12)
        np.testing.assert_allclose(y_line, prob_true, rtol=1e-12)
        text = f"LR: {label} (PCOC = {pcoc:.4f}, ECE = {ece:.4f})"
        assert line.get_label() == text and text in legend
    assert disp.ref_line_.get_xydata().tolist() == [[0, 0], [1, 1]]
    assert disp.bands_ == {}
    assert disp.ax_.get_xlim() == pytest.approx((-0.01, 1.01))


def test_display_without_segments_is_sklearn_calibration_curve(pyplot, click_data):
    X, y, _, _, clf = click_data
    prob = clf.predict_proba(X)[:, 1]
    disp = CalibrationCurveDisplay.from_predictions(y, prob, n_bins=8)
    expected_true, expected_pred = calibration_curve(y, prob, n_bins=8)
    np.testing.assert_array_equal(disp.line_.get_ydata(), expected_true)
    np.testing.assert_array_equal(disp.line_.get_xdata(), expected_pred)
    *_, pcoc, ece = ref_curve(y, prob, np.ones(len(y)), np.linspace(0, 1, 9))
    assert disp.line_.get_label() == f"PCOC = {pcoc:.4f}, ECE = {ece:.4f}"


def test_display_reuses_ax_and_draws_the_diagonal_once(pyplot, click_data):
    X, y, _, segment, clf = click_data
    fig, ax = pyplot.subplots()
    a = CalibrationCurveDisplay.from_predictions(
        y, clf.predict_proba(X)[:, 1], name="A", ax=ax)
    b = CalibrationCurveDisplay.from_predictions(
        y, clf.predict_proba(X)[:, 1] ** 2, name="B", ax=ax, segments=segment)
    assert a.ax_ is ax and b.ax_ is ax and b.figure_ is fig
    assert pyplot.get_fignums() == [fig.number]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [t.split(" (")[0] for t in legend] == [
        "Perfectly calibrated", "A", "B: active", "B: quiet"]
    assert len({line.get_color() for line in (a.line_, *b.lines_.values())}) == 3


def test_display_from_estimator_equals_from_predictions(pyplot, click_data):
    X, y, groups, segment, clf = click_data
    kwargs = dict(segments=segment, n_bins=5, strategy="quantile", groups=groups,
                  confidence=0.9, n_resamples=30, random_state=0)
    est = CalibrationCurveDisplay.from_estimator(clf, X, y, **kwargs)
    pred = CalibrationCurveDisplay.from_predictions(
        y, clf.predict_proba(X)[:, 1], pos_label=1, name="LogisticRegression",
        **kwargs)
    assert list(est.curves_) == list(pred.curves_)
    for label in est.curves_:
        for key, value in est.curves_[label].items():
            np.testing.assert_array_equal(value, pred.curves_[label][key])
        assert est.lines_[label].get_label() == pred.lines_[label].get_label()
    assert est.line_.get_label().startswith("LogisticRegression: active (PCOC")
    # issue 31, item 9: both factories label the axes the same way
    assert est.ax_.get_ylabel() == pred.ax_.get_ylabel()
    assert est.hist_ax_.get_xlabel() == pred.hist_ax_.get_xlabel() == (
        "Mean predicted probability")
    assert "Positive label" not in est.ax_.get_ylabel()
    # a regressor's predictions are the probabilities
    reg = Ridge().fit(X, y)
    with pytest.raises(ValueError, match="y_prob"):
        CalibrationCurveDisplay.from_estimator(reg, X, y)


def test_display_band(pyplot, click_data):
    X, y, groups, segment, clf = click_data
    prob = clf.predict_proba(X)[:, 1]
    disp = CalibrationCurveDisplay.from_predictions(
        y, prob, segments=segment, groups=groups, confidence=0.9, n_resamples=50,
        random_state=0, n_bins=5, band_kw={"alpha": 0.3})
    curves = reliability_curves(y, prob, segments=segment, groups=groups,
                                confidence=0.9, n_resamples=50, random_state=0,
                                n_bins=5)
    assert set(disp.bands_) == {"active", "quiet"}
    for label, band in disp.bands_.items():
        assert band.get_alpha() == 0.3
        low = curves[label]["prob_true_low"]
        np.testing.assert_array_equal(disp.curves_[label]["prob_true_low"], low)
        # the band lies on the curve's x values, between its low and high
        vertices = band.get_paths()[0].vertices
        np.testing.assert_allclose(np.sort(np.unique(vertices[:, 0])),
                                   np.unique(curves[label]["prob_pred"]))
    assert disp.ax_.get_ylabel().endswith("(bands: 90% bootstrap over groups)")


def test_display_curve_kwargs(pyplot):
    disp = CalibrationCurveDisplay.from_predictions(
        [0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8], segments=["a", "a", "b", "b"],
        curve_kwargs=[{"c": "red"}, {"color": "blue", "lw": 3}])
    assert disp.lines_["a"].get_color() == "red"
    assert disp.lines_["b"].get_linewidth() == 3
    with pytest.raises(ValueError, match="curve_kwargs"):
        CalibrationCurveDisplay.from_predictions([0, 1], [0.1, 0.9],
                                                 curve_kwargs=[{}, {}])
    with pytest.raises(TypeError, match="curve_kwargs"):
        CalibrationCurveDisplay.from_predictions([0, 1], [0.1, 0.9],
                                                 curve_kwargs="red")
    disp = CalibrationCurveDisplay.from_predictions([0, 1], [0.1, 0.9],
                                                    ref_line=False)
    assert disp.ref_line_ is None


# ---------------------------------------------------------------------------
# what a new user hit (issue 31, item 9): legend, counts, light bins, zoom
# ---------------------------------------------------------------------------
def _low_ctr(seed=0, n=20_000, n_segments=8):
    """Click probabilities around 1.5% in ``n_segments`` placements."""
    rng = np.random.default_rng(seed)
    p = rng.beta(0.6, 40, n)
    y = (rng.random(n) < p).astype(np.int64)
    segments = rng.choice([f"placement {i}" for i in range(n_segments)], n)
    return y, p, segments


def test_legend_of_eight_curves_lies_outside_and_legend_kw_places_it(pyplot):
    y, p, segments = _low_ctr()
    disp = CalibrationCurveDisplay.from_predictions(y, p, segments=segments)
    legend = disp.ax_.get_legend()
    assert len(legend.get_texts()) == 9  # the diagonal and 8 curves
    disp.figure_.canvas.draw()
    box = legend.get_window_extent().transformed(disp.ax_.transAxes.inverted())
    assert box.x0 >= 1.0  # right of the axes: over no curve
    moved = CalibrationCurveDisplay.from_predictions(
        y, p, segments=segments, legend_kw={"loc": "lower right",
                                            "bbox_to_anchor": None, "ncols": 2})
    assert moved.ax_.get_legend()._loc == 4 and moved.ax_.get_legend()._ncols == 2
    few = CalibrationCurveDisplay.from_predictions(y, p)
    assert few.ax_.get_legend()._loc == 0  # "best", inside
    with pytest.raises(TypeError, match="legend_kw"):
        CalibrationCurveDisplay.from_predictions(y, p, legend_kw="right")


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_panel_holds_the_rows_of_every_bin(pyplot, strategy):
    y, p, w, segments, _ = _data(4, n=400, decimals=2)
    disp = CalibrationCurveDisplay.from_predictions(
        y, p, segments=segments, n_bins=6, strategy=strategy)
    assert disp.hist_ax_.get_ylabel() == "Rows per bin"
    for label, steps in disp.hist_steps_.items():
        rows = segments == label
        edges = disp.curves_[label]["edges"]
        counts = [0] * (len(edges) - 1)
        for pi in p[rows]:
            counts[ref_bin(pi, edges)] += 1
        values, step_edges, _ = steps.get_data()
        assert values.tolist() == counts
        np.testing.assert_array_equal(step_edges, edges)
        assert steps.get_edgecolor() == pytest.approx(
            pyplot.matplotlib.colors.to_rgba(disp.lines_[label].get_color()))
    weighted = CalibrationCurveDisplay.from_predictions(
        y, p, sample_weight=w, n_bins=6, strategy=strategy)
    assert weighted.hist_ax_.get_ylabel() == "Weight per bin"
    edges = weighted.curves_[None]["edges"]
    totals = [0.0] * (len(edges) - 1)
    for pi, wi in zip(p, w):
        totals[ref_bin(pi, edges)] += wi
    assert weighted.hist_steps_[None].get_data()[0].tolist() == totals
    assert CalibrationCurveDisplay.from_predictions(y, p, hist=False).hist_ax_ is None


def test_bins_below_min_count_are_hollow_and_off_the_line(pyplot):
    # 2 rows above 0.5, 198 below: the upper bins hold one row each
    rng = np.random.default_rng(5)
    p = np.concatenate([rng.uniform(0, 0.1, 198), [0.65, 0.95]])
    y = (rng.random(200) < p).astype(np.int64)
    disp = CalibrationCurveDisplay.from_predictions(y, p, n_bins=10)
    prob_true, prob_pred, weights, _, _ = ref_curve(y, p, np.ones(200),
                                                    np.linspace(0, 1, 11))
    heavy = np.asarray(weights) >= 10
    assert heavy.tolist() == [True, False, False]
    np.testing.assert_allclose(disp.line_.get_xdata(),
                               np.asarray(prob_pred)[heavy], rtol=1e-12)
    sparse = disp.sparse_points_[None]
    np.testing.assert_allclose(sparse.get_xdata(), np.asarray(prob_pred)[~heavy],
                               rtol=1e-12)
    np.testing.assert_allclose(sparse.get_ydata(), np.asarray(prob_true)[~heavy])
    assert sparse.get_markerfacecolor() == "none" and sparse.get_linestyle() == "None"
    assert sparse.get_label().startswith("_")  # not in the legend
    # the panel's dotted line marks the minimum; its scale is logarithmic
    # when the bins' rows span more than two decades (198 vs 1)
    assert [line.get_ydata()[0] for line in disp.hist_ax_.get_lines()] == [10]
    assert disp.hist_ax_.get_yscale() == "log"
    every = CalibrationCurveDisplay.from_predictions(y, p, n_bins=10, min_count=0)
    np.testing.assert_allclose(every.line_.get_xdata(), prob_pred, rtol=1e-12)
    assert every.sparse_points_[None].get_xdata().size == 0
    with pytest.raises(ValueError, match="min_count"):
        CalibrationCurveDisplay.from_predictions(y, p, min_count=-1)


def test_low_ctr_quantile_bins_zoom_the_axes_and_keep_the_diagonal(pyplot):
    y, p, segments = _low_ctr(1, n=6000, n_segments=2)
    disp = CalibrationCurveDisplay.from_predictions(y, p, segments=segments,
                                                    strategy="quantile")
    largest = max(max(np.max(c["prob_pred"]), np.max(c["prob_true"]))
                  for c in disp.curves_.values())
    low, high = disp.ax_.get_xlim()
    assert disp.ax_.get_ylim() == (low, high)
    assert largest < high < 2 * largest + 0.05 and high < 0.5
    assert low == pytest.approx(-high / 101)  # the margin of the whole square
    assert disp.ref_line_.get_xydata().tolist() == [[0, 0], [1, 1]]
    assert disp.hist_ax_.get_xlim() == (low, high)  # the panel shares x
    # spread probabilities keep the whole square
    spread = CalibrationCurveDisplay.from_predictions([0, 1, 0, 1],
                                                      [0.1, 0.9, 0.3, 0.7])
    assert spread.ax_.get_xlim() == pytest.approx((-0.01, 1.01))


def test_positive_label_is_shown_alike_by_both_factories(pyplot, click_data):
    X, y, _, _, _ = click_data
    labels = np.where(y == 1, "click", "skip")
    clf = LogisticRegression().fit(X, labels)
    est = CalibrationCurveDisplay.from_estimator(clf, X, labels, pos_label="click")
    pred = CalibrationCurveDisplay.from_predictions(
        labels, clf.predict_proba(X)[:, 0], pos_label="click")
    assert est.ax_.get_ylabel() == pred.ax_.get_ylabel() == (
        "Fraction of positives (Positive label: click)")
    assert est.hist_ax_.get_xlabel() == pred.hist_ax_.get_xlabel() == (
        "Mean predicted probability (Positive label: click)")
