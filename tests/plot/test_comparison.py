"""RankingComparisonDisplay: the artists draw compare_rankings' numbers."""

import numpy as np
import pytest
from matplotlib.colors import to_rgba
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.linear_model import LogisticRegression, Ridge

from sklearn_rankeval import RankingComparisonDisplay, compare_rankings
from sklearn_rankeval.datasets import make_click_log

pytestmark = pytest.mark.usefixtures("pyplot")

METRICS = ["gauc", "mrr", "ndcg@10", "hit_rate@5"]
KW = dict(metrics=METRICS, n_resamples=500, random_state=0)


@pytest.fixture(scope="module")
def data():
    X, y, users = make_click_log(300, random_state=0)
    w = np.linalg.lstsq(X[:, 1:], y - y.mean(), rcond=None)[0]
    full = X[:, 1:] @ w
    # "weak" drops the strongest feature (clearly worse), "near" a weak one
    strongest = int(np.argmax(np.abs(w)))
    weak, near = w.copy(), w.copy()
    weak[strongest] = 0
    near[int(np.argmin(np.abs(w)))] = 0
    scores = {"full": full, "weak": X[:, 1:] @ weak, "near": X[:, 1:] @ near}
    return X, y, users, scores


def _interval(container):
    """(x_low, x_high, y) of each bar of an errorbar container."""
    segments = np.array(container.lines[2][0].get_segments())
    return segments[:, 0, 0], segments[:, 1, 0], segments[:, 0, 1]


def test_artists_draw_compare_rankings_numbers(data):
    _, y, users, scores = data
    disp = RankingComparisonDisplay.from_predictions(y, scores, groups=users, **KW)
    expected = compare_rankings(y, scores, groups=users, output="dict", **KW)
    assert disp.metrics == METRICS
    assert disp.models == ["weak", "near"] and disp.baseline == "full"
    ticks = [t.get_text() for t in disp.ax_.get_yticklabels()]
    assert ticks == METRICS
    n_sig = 0
    for model in disp.models:
        diff = [expected[m][model]["diff"] for m in METRICS]
        low = [expected[m][model]["ci_low"] for m in METRICS]
        high = [expected[m][model]["ci_high"] for m in METRICS]
        p_adj = np.array([expected[m][model]["p_adjusted"] for m in METRICS])
        xy = disp.points_[model].get_offsets()
        assert_allclose(xy[:, 0], diff, rtol=1e-12)
        x_low, x_high, y_bar = _interval(disp.errorbars_[model])
        assert_allclose(x_low, low, rtol=1e-12)
        assert_allclose(x_high, high, rtol=1e-12)
        assert_array_equal(y_bar, xy[:, 1])  # bar and marker on one row
        # filled (the edge colour) where p_adjusted < 0.05, white elsewhere
        faces = disp.points_[model].get_facecolors()
        edge = disp.points_[model].get_edgecolors()[0]
        significant = p_adj < 0.05
        assert_array_equal(disp.significant_[:, disp.models.index(model)],
                           significant)
        for face, sig in zip(faces, significant):
            assert_allclose(face, edge if sig else to_rgba("white"))
        n_sig += significant.sum()
    # the data make both kinds of marker
    assert 0 < n_sig < 2 * len(METRICS)
    assert disp.significant_.sum() == n_sig
    # metrics top to bottom: the y axis is inverted, rows do not overlap
    rows = np.concatenate([disp.points_[m].get_offsets()[:, 1] for m in disp.models])
    assert len(set(rows.tolist())) == rows.size
    assert disp.ax_.get_ylim()[0] > disp.ax_.get_ylim()[1]
    assert_array_equal(disp.zero_line_.get_xdata(), [0, 0])
    assert "Difference to full (95% bootstrap interval)" == disp.ax_.get_xlabel()
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == ["weak - full", "near - full", "p_adjusted (holm) < 0.05",
                      "not significant"]


def test_baseline_test_correction_and_confidence_are_passed_on(data):
    _, y, users, scores = data
    kw = dict(KW, baseline="near", test="t", correction="bonferroni",
              confidence=0.9)
    disp = RankingComparisonDisplay.from_predictions(y, scores, groups=users, **kw)
    expected = compare_rankings(y, scores, groups=users, output="dict", **kw)
    assert disp.models == ["full", "weak"] and disp.baseline == "near"
    assert_allclose(disp.p_adjusted[:, 1],
                    [expected[m]["weak"]["p_adjusted"] for m in METRICS])
    assert_allclose(disp.ci_high[:, 0],
                    [expected[m]["full"]["ci_high"] for m in METRICS])
    assert_array_equal(disp.significant_, disp.p_adjusted < 0.1)
    assert "90% bootstrap" in disp.ax_.get_xlabel()
    assert "p_adjusted (bonferroni) < 0.1" in [
        t.get_text() for t in disp.ax_.get_legend().get_texts()]


def test_significance_rule_on_hand_made_numbers():
    p = [[0.01, 0.2], [np.nan, 0.049]]
    disp = RankingComparisonDisplay(
        metrics=["a", "b"], models=["M1", "M2"], diff=np.zeros((2, 2)),
        ci_low=-np.ones((2, 2)), ci_high=np.ones((2, 2)), p_adjusted=p,
        baseline="B")
    assert disp.plot().significant_.tolist() == [[True, False], [False, True]]
    disp.confidence = 0.99
    assert disp.plot().significant_.tolist() == [[False, False], [False, False]]
    with pytest.raises(ValueError, match=r"diff must have shape"):
        RankingComparisonDisplay(
            metrics=["a"], models=["M1", "M2"], diff=np.zeros((2, 2)),
            ci_low=np.zeros((1, 2)), ci_high=np.zeros((1, 2)),
            p_adjusted=np.zeros((1, 2)), baseline="B").plot()


def test_passed_ax_name_and_style(pyplot, data):  # noqa: F811
    _, y, users, scores = data
    fig, ax = pyplot.subplots()
    disp = RankingComparisonDisplay.from_predictions(
        y, scores, groups=users, ax=ax, name="my title",
        errorbar_kw={"elinewidth": 5}, zero_line_kw={"c": "red"}, **KW)
    assert disp.ax_ is ax and disp.figure_ is fig
    assert pyplot.get_fignums() == [fig.number]
    assert ax.get_title() == "my title"
    assert disp.zero_line_.get_color() == "red"
    assert disp.errorbars_["weak"].lines[2][0].get_linewidths()[0] == 5
    old = disp.ax_
    disp.plot(name="again")
    assert disp.ax_ is not old and disp.ax_.get_title() == "again"
    with pytest.raises(TypeError, match="marker_kw"):
        disp.plot(marker_kw="red")
    disp.plot(legend_kw={"title": "models"})
    assert disp.ax_.get_legend().get_title().get_text() == "models"
    # by default the legend is outside the axes, under the x label, within
    # the figure's width (not beside the axes, taking its width)
    disp.plot()
    disp.figure_.canvas.draw()
    renderer = disp.figure_.canvas.get_renderer()
    legend_box = disp.ax_.get_legend().get_window_extent(renderer)
    label_box = disp.ax_.xaxis.label.get_window_extent(renderer)
    assert legend_box.y1 <= label_box.y0
    assert legend_box.x1 <= disp.figure_.bbox.x1
    axes_box = disp.ax_.get_window_extent(renderer)
    assert axes_box.width > 0.7 * disp.figure_.bbox.width
    # legend_kw still places it anywhere
    disp.plot(legend_kw={"loc": "upper left", "bbox_to_anchor": (1.02, 1.0),
                         "bbox_transform": None})
    disp.figure_.canvas.draw()
    assert disp.ax_.get_legend().get_window_extent().x0 > \
        disp.ax_.get_window_extent().x1


def test_from_estimator_equals_from_predictions(data):
    X, y, users, _ = data
    models = {"C=1": LogisticRegression(C=1.0).fit(X, y),
              "C=0.001": LogisticRegression(C=0.001).fit(X, y),
              "ridge": Ridge().fit(X, y)}
    est = RankingComparisonDisplay.from_estimator(models, X, y, groups=users, **KW)
    scores = {"C=1": models["C=1"].predict_proba(X)[:, 1],
              "C=0.001": models["C=0.001"].predict_proba(X)[:, 1],
              "ridge": models["ridge"].predict(X)}
    pred = RankingComparisonDisplay.from_predictions(y, scores, groups=users, **KW)
    for attr in ("diff", "ci_low", "ci_high", "p_adjusted"):
        assert_allclose(getattr(est, attr), getattr(pred, attr), rtol=1e-12)
    assert est.models == ["C=0.001", "ridge"]
    # a list is named by the classes
    listed = RankingComparisonDisplay.from_estimator(
        [models["C=1"], models["ridge"]], X, y, groups=users, **KW)
    assert listed.baseline == "LogisticRegression" and listed.models == ["Ridge"]
    assert_allclose(listed.diff[:, 0], pred.diff[:, 1], rtol=1e-12)
    with pytest.raises(ValueError, match="same class"):
        RankingComparisonDisplay.from_estimator(
            [models["C=1"], models["C=0.001"]], X, y, groups=users)


def test_from_estimator_string_classes(data):
    X, y, users, _ = data
    labels = np.where(y == 1, "click", "skip")  # classes_ = [click, skip]
    a = LogisticRegression(C=1.0).fit(X, labels)
    b = LogisticRegression(C=0.001).fit(X, labels)
    est = RankingComparisonDisplay.from_estimator(
        {"a": a, "b": b}, X, labels, groups=users, pos_label="click", **KW)
    pred = RankingComparisonDisplay.from_predictions(
        y, {"a": a.predict_proba(X)[:, 0], "b": b.predict_proba(X)[:, 0]},
        groups=users, **KW)
    assert_allclose(est.diff, pred.diff, rtol=1e-12)


@pytest.mark.parametrize("scores, error, match", [
    ([0.1, 0.2, 0.3, 0.4], TypeError, "dict"),
    ({"A": [0.1, 0.2, 0.3, 0.4]}, ValueError, "at least two models"),
    ({"A": [0.1, 0.2, 0.3, 0.4], "B": [0.1, 0.2]}, ValueError, "same rows"),
])
def test_bad_scores(scores, error, match):
    with pytest.raises(error, match=match):
        RankingComparisonDisplay.from_predictions(
            [1, 0, 1, 0], scores, groups=[1, 1, 2, 2])
