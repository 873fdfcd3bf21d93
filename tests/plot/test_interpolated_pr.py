"""InterpolatedPrecisionRecallDisplay draws the metric functions' values."""

import numpy as np
import pytest
from sklearn.metrics import precision_recall_curve

from sklearn_rankeval import (
    InterpolatedPrecisionRecallDisplay,
    f_alpha_score,
    interpolated_average_precision_score,
    interpolated_precision_recall_curve,
)
from sklearn_rankeval._metrics._curves import precision_recall_points
from sklearn_rankeval._plot.interpolated_pr import iso_f_alpha_line
from tests.conftest import make_grouped_data

pytestmark = pytest.mark.usefixtures("pyplot")
plt = pytest.importorskip("matplotlib.pyplot")

Display = InterpolatedPrecisionRecallDisplay


def _one_ranking(seed=0, n=30, ties=True):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, n)
    y_true[0] = 1
    y_score = rng.integers(0, 6, n) / 5 if ties else rng.permutation(n) / n
    return y_true, y_score


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_raw_points_are_sklearn_precision_recall_curve(ties, weighted):
    y_true, y_score = _one_ranking(ties=ties)
    w = np.random.default_rng(1).uniform(0.5, 2, len(y_true)) if weighted else None
    disp = Display.from_predictions(y_true, y_score, sample_weight=w)
    precision, recall, _ = precision_recall_curve(y_true, y_score, sample_weight=w)
    np.testing.assert_allclose(disp.raw_precision, precision[::-1], rtol=1e-12)
    np.testing.assert_allclose(disp.raw_recall, recall[::-1], rtol=1e-12)
    np.testing.assert_array_equal(disp.raw_line_.get_xdata(), disp.raw_recall)


def test_envelope_is_the_curve_function_and_the_max_over_higher_recall():
    y_true, y_score = _one_ranking()
    disp = Display.from_predictions(y_true, y_score, name="run", n_points=None)
    precision, recall = interpolated_precision_recall_curve(y_true, y_score,
                                                            n_points=None)
    np.testing.assert_array_equal(disp.precision, precision)
    np.testing.assert_array_equal(disp.recall, recall)
    # by hand: the highest raw precision at any recall >= r (the raw points
    # after the (0, 1) that starts the staircase, as in sklearn)
    raw_p, raw_r = disp.raw_precision[1:], disp.raw_recall[1:]
    for r, p in zip(disp.recall, disp.precision):
        assert p == raw_p[raw_r >= r].max()
    ap = interpolated_average_precision_score(y_true, y_score, n_points=None)
    assert disp.average_precision == ap
    assert disp.line_.get_label() == f"run (iAP = {ap:.4f})"
    assert disp.line_.get_drawstyle() == "steps-pre"


def test_one_ranking_at_recall_levels_by_default():
    # the default is the 11 levels of interpolated_average_precision_score
    y_true, y_score = _one_ranking()
    disp = Display.from_predictions(y_true, y_score)
    assert disp.n_points == 11
    precision, recall = interpolated_precision_recall_curve(y_true, y_score)
    np.testing.assert_array_equal(disp.precision, precision)
    np.testing.assert_array_equal(disp.recall, recall)
    assert disp.average_precision == interpolated_average_precision_score(
        y_true, y_score)
    assert disp.line_.get_label() == (
        f"11-pt AP = {disp.average_precision:.4f}")
    assert disp.raw_line_ is not None


@pytest.mark.parametrize("n_points, recall_levels", [("default", "exact"),
                                                     (101, "exact"),
                                                     (11, "trec_eval_9")])
def test_grouped_curve_is_the_mean_over_queries(n_points, recall_levels):
    y_true, y_score, groups = make_grouped_data(seed=3, n_groups=20)
    kwargs = {} if n_points == "default" else {"n_points": n_points}
    disp = Display.from_predictions(y_true, y_score, groups=groups,
                                    recall_levels=recall_levels, **kwargs)
    levels = 11 if n_points == "default" else n_points
    precision, recall = interpolated_precision_recall_curve(
        y_true, y_score, groups=groups, n_points=levels, recall_levels=recall_levels)
    np.testing.assert_array_equal(disp.precision, precision)
    np.testing.assert_array_equal(disp.recall, recall)
    ap = interpolated_average_precision_score(
        y_true, y_score, groups=groups, n_points=levels, recall_levels=recall_levels)
    assert disp.average_precision == ap
    assert disp.precision.mean() == pytest.approx(ap, rel=1e-12)
    assert disp.n_points == levels
    n_with_relevant = len(np.unique(groups[y_true > 0]))
    assert disp.n_groups == n_with_relevant
    assert disp.raw_precision is None and disp.raw_line_ is None
    assert disp.ax_.get_ylabel() == "Mean interpolated precision"
    # the legend names the number of levels, and it is the metric's value
    assert disp.line_.get_label() == f"{levels}-pt AP = {ap:.4f}"
    if n_points == "default" and recall_levels == "exact":
        assert ap == interpolated_average_precision_score(y_true, y_score,
                                                          groups=groups)


def test_grouped_exact_envelope_is_refused():
    y_true, y_score, groups = make_grouped_data(seed=3, n_groups=5)
    with pytest.raises(ValueError, match="n_points=None"):
        Display.from_predictions(y_true, y_score, groups=groups, n_points=None)


def test_grid_is_drawn():
    disp = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    gridlines = disp.ax_.xaxis.get_gridlines() + disp.ax_.yaxis.get_gridlines()
    assert gridlines and all(line.get_visible() for line in gridlines)


def test_precision_recall_points_per_group_match_sklearn():
    y_true, y_score, groups = make_grouped_data(seed=5, n_groups=15)
    y_true[groups == groups[0]] = 0  # a group without a relevant item
    w = np.random.default_rng(0).uniform(0.5, 2, len(y_true))
    precision, recall, group = precision_recall_points(
        y_true, y_score, groups=groups, sample_weight=w)
    assert groups[0] not in group
    for g in np.unique(groups):
        rows = groups == g
        if not (y_true[rows] > 0).any():
            continue
        p, r, _ = precision_recall_curve(y_true[rows] > 0, y_score[rows],
                                         sample_weight=w[rows])
        np.testing.assert_allclose(precision[group == g], p[::-1], rtol=1e-12)
        np.testing.assert_allclose(recall[group == g], r[::-1], rtol=1e-12)


def test_unretrieved_items_lower_the_reachable_recall():
    y_true = [1, 0, 1, 1]
    y_score = [0.9, 0.5, 0.2, -np.inf]  # the last relevant item is not retrieved
    disp = Display.from_predictions(y_true, y_score, n_points=5)
    assert disp.raw_recall.max() == pytest.approx(2 / 3)
    np.testing.assert_allclose(disp.precision, [1, 1, 2 / 3, 0, 0], rtol=1e-15)
    assert disp.average_precision == interpolated_average_precision_score(
        y_true, y_score, n_points=5)


@pytest.mark.parametrize("alpha", [0.0, 0.25, 0.5, 1.0])
def test_iso_f_alpha_lines_hold_f_constant(alpha):
    for f in (0.2, 0.5, 0.8):
        recall, precision = iso_f_alpha_line(alpha, f)
        assert precision.max() <= 1 + 1e-12 and recall.max() <= 1 + 1e-12
        if alpha == 0.0:
            np.testing.assert_allclose(recall, f)
            continue
        if alpha == 1.0:
            np.testing.assert_allclose(precision, f)
            continue
        value = 1 / (alpha / precision + (1 - alpha) / recall)
        np.testing.assert_allclose(value, f, rtol=1e-12)
    # the same measure as f_alpha_score: a confusion with P = 1/2, R = 1/4
    y_true = [1, 1, 1, 1, 0, 0, 0, 0]
    y_pred = [1, 0, 0, 0, 1, 0, 0, 0]
    expected = f_alpha_score(y_true, y_pred, alpha=alpha)
    recall, precision = iso_f_alpha_line(alpha, expected)
    if 0 < alpha < 1:
        assert np.interp(0.25, recall, precision) == pytest.approx(0.5, rel=1e-3)


def test_iso_lines_are_drawn_and_labelled():
    disp = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                    n_points=None, f_alpha=[0.5, 0.25],
                                    f_alpha_levels=[0.3, 0.6])
    assert len(disp.f_alpha_lines_) == 4
    assert len(disp.ax_.get_lines()) == 2 + 4  # curve, raw staircase, iso lines
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == ["iAP = 0.8333", "raw", "iso-F1", "iso-F (\u03b1 = 0.25)"]
    texts = [t.get_text() for t in disp.ax_.texts]
    assert texts == ["0.3", "0.6", "0.3", "0.6"]
    no_raw = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                      plot_raw=False)
    assert no_raw.raw_line_ is None and no_raw.f_alpha_lines_ == []
    assert len(no_raw.ax_.get_lines()) == 1


@pytest.mark.parametrize("kwargs, match", [
    (dict(f_alpha=[0.5, 1.5]), "f_alpha"),
    (dict(f_alpha="F1"), "f_alpha"),
    (dict(f_alpha=[0.5], f_alpha_levels=[0.0, 0.5]), "f_alpha_levels"),
    (dict(n_points=1), "n_points"),
    (dict(recall_levels="trec"), "recall_levels"),
    (dict(raw_curve_kwargs=[1]), "raw_curve_kwargs"),
    (dict(f_alpha=0.5, f_alpha_kw="gray"), "f_alpha_kw"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], **kwargs)


@pytest.mark.parametrize("beta", [1.0, 2.0, 0.5])
def test_iso_f_beta_lines_are_fbeta_score(beta):
    # f_beta=[beta] draws the lines of alpha = 1 / (1 + beta**2): on each,
    # sklearn's fbeta_score of a confusion with those P and R is the level
    from sklearn.metrics import fbeta_score

    by_beta = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                       f_beta=[beta], f_alpha_levels=[0.5])
    by_alpha = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                        f_alpha=[1 / (1 + beta**2)],
                                        f_alpha_levels=[0.5])
    (line,), (same,) = by_beta.f_alpha_lines_, by_alpha.f_alpha_lines_
    np.testing.assert_allclose(line.get_xydata(), same.get_xydata(), rtol=1e-12)
    recall, precision = line.get_xdata(), line.get_ydata()
    # P = 1/2 on this line: a confusion with tp=1, fp=1 and fn chosen for R
    r_at_half = np.interp(-0.5, -precision, recall)  # precision decreases
    f = (1 + beta**2) * 0.5 * r_at_half / (beta**2 * 0.5 + r_at_half)
    assert f == pytest.approx(0.5, rel=1e-3)
    assert fbeta_score([1, 1, 0], [1, 0, 1], beta=beta) == pytest.approx(
        (1 + beta**2) * 0.5 * 0.5 / (beta**2 * 0.5 + 0.5))
    legend = [t.get_text() for t in by_beta.ax_.get_legend().get_texts()]
    assert legend[-1] == ("iso-F1" if beta == 1.0 else f"iso-F (\u03b2 = {beta:g})")


def test_f_beta_one_is_f1_not_precision():
    # f_alpha=[1] is the precision (horizontal lines); f_beta=[1] is F1
    disp = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                    f_beta=[1.0], f_alpha_levels=[0.5])
    horizontal = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                          f_alpha=[1.0], f_alpha_levels=[0.5])
    assert np.ptp(horizontal.f_alpha_lines_[0].get_ydata()) == 0.0
    recall, precision = disp.f_alpha_lines_[0].get_data()
    np.testing.assert_allclose(2 * precision * recall / (precision + recall), 0.5,
                               rtol=1e-12)


def test_f_alpha_and_f_beta_together_raise():
    with pytest.raises(ValueError, match="f_alpha or f_beta, not both"):
        Display.from_predictions([1, 0], [0.9, 0.1], f_alpha=[0.5], f_beta=[1.0])
    with pytest.raises(ValueError, match="f_beta"):
        Display.from_predictions([1, 0], [0.9, 0.1], f_beta=[-1.0])
