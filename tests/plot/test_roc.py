"""GroupedRocCurveDisplay: sklearn's ROC points, a hand-looped vertical
average, and the GAUC of the metric function."""

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import roc_auc_score, roc_curve

from sklearn_rankeval import GroupedRocCurveDisplay, gauc_score
from sklearn_rankeval._metrics._curves import averaged_roc_curve, roc_points
from tests.conftest import make_grouped_data

pytestmark = pytest.mark.usefixtures("pyplot")
plt = pytest.importorskip("matplotlib.pyplot")

Display = GroupedRocCurveDisplay


def _tpr_at(fpr, tpr, x):
    """Fawcett's TPR_FOR_FPR: the last point with fpr <= x; linear after it."""
    i = np.flatnonzero(fpr <= x)[-1]
    if fpr[i] == x:
        return tpr[i]
    return tpr[i] + (tpr[i + 1] - tpr[i]) * (x - fpr[i]) / (fpr[i + 1] - fpr[i])


def _hand_average(y_true, y_score, groups, grid, w=None, average="weighted"):
    """One loop over groups with sklearn's roc_curve: mean TPR and the matrix."""
    rows, weights = [], []
    w = np.ones(len(y_true)) if w is None else w
    for g in np.unique(groups):
        m = groups == g
        pos = y_true[m] > 0
        if w[m][pos].sum() == 0 or w[m][~pos].sum() == 0:
            continue
        fpr, tpr, _ = roc_curve(pos, y_score[m], sample_weight=w[m],
                                drop_intermediate=False)
        rows.append([_tpr_at(fpr, tpr, x) for x in grid])
        weights.append(w[m].sum())
    matrix = np.array(rows)
    weights = np.array(weights) if average == "weighted" else np.ones(len(rows))
    return weights @ matrix / weights.sum(), matrix


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_one_ranking_is_sklearn_roc_curve(ties, weighted):
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, 40)
    y_score = rng.integers(0, 5, 40) / 4 if ties else rng.permutation(40) / 40
    w = rng.uniform(0.5, 2, 40) if weighted else None
    disp = Display.from_predictions(y_true, y_score, sample_weight=w, name="m",
                                    plot_chance_level=True)
    fpr, tpr, _ = roc_curve(y_true, y_score, sample_weight=w,
                            drop_intermediate=False)
    np.testing.assert_allclose(disp.fpr, fpr, rtol=1e-12)
    np.testing.assert_allclose(disp.tpr, tpr, rtol=1e-12)
    auc = roc_auc_score(y_true, y_score, sample_weight=w)
    assert disp.roc_auc == pytest.approx(auc, rel=1e-12)
    assert disp.line_.get_label() == f"m (AUC = {auc:.4f})"
    assert disp.n_groups is None and disp.band_ is None
    assert disp.ax_.get_ylabel() == "True Positive Rate"
    np.testing.assert_array_equal(disp.chance_level_.get_xydata(), [[0, 0], [1, 1]])
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == [f"m (AUC = {auc:.4f})", "Chance level (AUC = 0.5)"]


def test_unretrieved_items_rank_last_as_for_gauc():
    y_true = np.array([1, 0, 1, 0, 1])
    y_score = np.array([0.9, 0.5, 0.2, -np.inf, -np.inf])
    disp = Display.from_predictions(y_true, y_score)
    fpr, tpr, _ = roc_curve(y_true, np.where(np.isinf(y_score), -1.0, y_score),
                            drop_intermediate=False)
    np.testing.assert_allclose(disp.fpr, fpr)
    np.testing.assert_allclose(disp.tpr, tpr)
    assert disp.roc_auc == gauc_score(y_true, y_score)


def test_roc_points_per_group_match_sklearn(engine_path):
    y_true, y_score, groups = make_grouped_data(seed=2, n_groups=15)
    fpr, tpr, group = roc_points(y_true, y_score, groups=groups)
    for g in np.unique(groups):
        m = groups == g
        pos = y_true[m] > 0
        if pos.all() or not pos.any():
            assert g not in group
            continue
        f, t, _ = roc_curve(pos, y_score[m], drop_intermediate=False)
        np.testing.assert_allclose(fpr[group == g], f, rtol=1e-12)
        np.testing.assert_allclose(tpr[group == g], t, rtol=1e-12)


@pytest.mark.parametrize("average", ["weighted", "macro"])
@pytest.mark.parametrize("weighted", [False, True])
def test_mean_tpr_equals_a_loop_over_groups(average, weighted):
    y_true, y_score, groups = make_grouped_data(seed=4, n_groups=25)
    w = np.random.default_rng(1).uniform(0.2, 3, len(y_true)) if weighted else None
    # a grid that hits many of the curves' fpr values exactly (vertical jumps)
    grid = np.unique(np.concatenate([np.linspace(0, 1, 13), [1 / 3, 2 / 3, 0.2]]))
    disp = Display.from_predictions(y_true, y_score, groups=groups,
                                    sample_weight=w, average=average,
                                    fpr_grid=grid, statistic="mean", band=None,
                                    name="m")
    expected, matrix = _hand_average(y_true, y_score, groups, grid, w, average)
    np.testing.assert_array_equal(disp.fpr, np.concatenate([[0.0], grid]))
    assert disp.tpr[0] == 0.0
    np.testing.assert_allclose(disp.tpr[1:], expected, rtol=1e-12, atol=1e-15)
    assert disp.band_ is None and disp.statistic == "mean"
    assert disp.ax_.get_ylabel() == "Mean True Positive Rate"
    gauc = gauc_score(y_true, y_score, groups=groups, sample_weight=w,
                      average=average)
    assert disp.roc_auc == gauc
    assert disp.line_.get_label() == f"m (GAUC = {gauc:.4f})"


@pytest.mark.parametrize("average", ["weighted", "macro"])
@pytest.mark.parametrize("weighted", [False, True])
def test_median_tpr_and_band_equal_a_loop_over_groups(average, weighted):
    y_true, y_score, groups = make_grouped_data(seed=4, n_groups=25)
    w = np.random.default_rng(1).uniform(0.2, 3, len(y_true)) if weighted else None
    grid = np.unique(np.concatenate([np.linspace(0, 1, 13), [1 / 3, 2 / 3, 0.2]]))
    disp = Display.from_predictions(y_true, y_score, groups=groups,
                                    sample_weight=w, average=average,
                                    fpr_grid=grid, band=(10, 90), name="m")
    _, matrix = _hand_average(y_true, y_score, groups, grid, w, average)
    np.testing.assert_array_equal(disp.fpr, np.concatenate([[0.0], grid]))
    assert disp.tpr[0] == 0.0
    # the median of the groups, each counted once, whatever ``average`` says
    np.testing.assert_allclose(disp.tpr[1:], np.median(matrix, axis=0),
                               rtol=1e-12, atol=1e-15)
    assert disp.statistic == "median"
    lower, upper = np.percentile(matrix, [10, 90], axis=0)
    np.testing.assert_allclose(disp.tpr_lower[1:], lower, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(disp.tpr_upper[1:], upper, rtol=1e-12, atol=1e-15)
    assert disp.n_groups == matrix.shape[0]
    gauc = gauc_score(y_true, y_score, groups=groups, sample_weight=w,
                      average=average)
    assert disp.roc_auc == gauc
    assert disp.line_.get_label() == f"m (GAUC = {gauc:.4f})"
    assert f"{gauc:.4f}" == disp.line_.get_label()[-7:-1]
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == [disp.line_.get_label(), "m: 10-90th percentile across groups",
                      "Chance level (AUC = 0.5)"]


def test_area_under_the_mean_curve_approaches_gauc():
    y_true, y_score, groups = make_grouped_data(seed=6, n_groups=30)
    y_score = y_score + np.random.default_rng(0).normal(0, 0.01, len(y_score))
    fpr, tpr, _ = averaged_roc_curve(y_true, y_score, groups=groups,
                                     fpr_grid=4001, average="macro", band=None)
    area = np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2)
    gauc = gauc_score(y_true, y_score, groups=groups, average="macro")
    assert area == pytest.approx(gauc, abs=2e-3)


def test_band_and_its_default():
    y_true, y_score, groups = make_grouped_data(seed=1)
    disp = Display.from_predictions(y_true, y_score, groups=groups)
    assert disp.band == (25.0, 75.0) and disp.band_ is not None
    assert disp.band_.get_label() == "IQR across groups"
    assert np.all(disp.tpr_lower <= disp.tpr_upper)
    assert len(disp.fpr) == 102
    assert disp.ax_.get_ylabel() == "Median True Positive Rate"
    # the line is a statistic of the same kind as its band: always inside it
    assert np.all(disp.tpr_lower <= disp.tpr) and np.all(disp.tpr <= disp.tpr_upper)
    # the chance level is drawn by default
    np.testing.assert_array_equal(disp.chance_level_.get_xydata(), [[0, 0], [1, 1]])
    no_band = Display.from_predictions(y_true, y_score, groups=groups, band=None)
    assert no_band.band_ is None and no_band.tpr_lower is None
    np.testing.assert_array_equal(no_band.tpr, disp.tpr)


def _skewed_log():
    """Ten users: two ranked perfectly, eight in reverse (a skewed click log)."""
    y_true, y_score, groups = [], [], []
    for user in range(10):
        good = user < 2
        y_true += [1, 1, 0, 0]
        y_score += [4, 3, 2, 1] if good else [1, 2, 3, 4]
        groups += [user] * 4
    return np.array(y_true), np.array(y_score, dtype=float), np.array(groups)


def test_median_stays_in_its_band_where_the_mean_leaves_it():
    y_true, y_score, groups = _skewed_log()
    median = Display.from_predictions(y_true, y_score, groups=groups, fpr_grid=5)
    mean = Display.from_predictions(y_true, y_score, groups=groups, fpr_grid=5,
                                    statistic="mean", band=None)
    # at fpr 0: two users have tpr 1, eight have 0
    assert mean.tpr[1] == pytest.approx(0.2)
    assert median.tpr[1] == 0.0
    assert median.tpr_lower[1] == 0.0 and median.tpr_upper[1] == 0.0
    assert mean.tpr[1] > median.tpr_upper[1]  # the old mean line left the IQR
    assert np.all(median.tpr_lower <= median.tpr)
    assert np.all(median.tpr <= median.tpr_upper)


def test_mean_with_a_percentile_band_raises():
    y_true, y_score, groups = _skewed_log()
    with pytest.raises(ValueError, match="band=None"):
        Display.from_predictions(y_true, y_score, groups=groups, statistic="mean")
    with pytest.raises(ValueError, match="statistic"):
        Display.from_predictions(y_true, y_score, groups=groups, statistic="max")


def test_zero_width_band_has_no_legend_entry():
    # every user ranked the same way: the band has no width anywhere
    y_true = np.array([1, 0, 1, 0, 1, 0])
    y_score = np.array([0.9, 0.1, 0.8, 0.2, 0.7, 0.3])
    groups = np.array([1, 1, 2, 2, 3, 3])
    disp = Display.from_predictions(y_true, y_score, groups=groups, name="m")
    assert disp.band_ is not None
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == [disp.line_.get_label(), "Chance level (AUC = 0.5)"]
    # a band with width keeps its entry
    y_true, y_score, groups = make_grouped_data(seed=1)
    wide = Display.from_predictions(y_true, y_score, groups=groups, name="s")
    assert (wide.tpr_upper > wide.tpr_lower).any()
    legend = [t.get_text() for t in wide.ax_.get_legend().get_texts()]
    assert legend == [wide.line_.get_label(), "s: IQR across groups",
                      "Chance level (AUC = 0.5)"]


def test_empty_curve_has_no_legend_entry():
    # no user has both classes: the curve is all NaN
    with pytest.warns(UndefinedMetricWarning):
        disp = Display.from_predictions([1, 1, 0, 0], [0.9, 0.1, 0.8, 0.2],
                                        groups=[1, 1, 2, 2], name="m")
    assert np.isnan(disp.tpr[1:]).all()
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == ["Chance level (AUC = 0.5)"]


def test_chance_level_once_for_two_displays_on_one_axes():
    y_true, y_score, groups = _skewed_log()
    first = Display.from_predictions(y_true, y_score, groups=groups, name="a")
    second = Display.from_predictions(y_true, -y_score, groups=groups, name="b",
                                      ax=first.ax_)
    legend = [t.get_text() for t in second.ax_.get_legend().get_texts()]
    assert legend.count("Chance level (AUC = 0.5)") == 1
    assert second.chance_level_ is not None
    no_chance = Display.from_predictions(y_true, y_score, groups=groups,
                                         plot_chance_level=False)
    assert no_chance.chance_level_ is None


@pytest.mark.parametrize("kwargs, match", [
    (dict(average=None), "average"),
    (dict(average="micro"), "average"),
    (dict(fpr_grid=1), "fpr_grid"),
    (dict(fpr_grid=[0.5, 0.2]), "fpr_grid"),
    (dict(fpr_grid=[0.0, 1.5]), "fpr_grid"),
    (dict(fpr_grid="fine"), "fpr_grid"),
    (dict(band=(75, 25)), "band"),
    (dict(band=50), "band"),
    (dict(band_kw="blue"), "band_kw"),
    (dict(chance_level_kw=1, plot_chance_level=True), "chance_level_kw"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                 groups=[1, 1, 2, 2], **kwargs)


def test_a_curve_on_the_diagonal_is_drawn_over_the_chance_level():
    # a score constant within each user (the demo's "activity only" model):
    # every user's ROC curve is the diagonal, drawn over the chance line
    y_true = [1, 0, 0, 1, 0, 1, 0, 0]
    y_score = [0.3, 0.3, 0.3, 0.3, 0.8, 0.8, 0.8, 0.8]
    groups = [1, 1, 1, 1, 2, 2, 2, 2]
    disp = Display.from_predictions(y_true, y_score, groups=groups, name="flat")
    np.testing.assert_allclose(disp.tpr, disp.fpr)  # the diagonal
    assert disp.roc_auc == 0.5
    assert disp.chance_level_.get_zorder() < disp.line_.get_zorder()
    if disp.band_ is not None:
        assert disp.band_.get_zorder() < disp.chance_level_.get_zorder()
    # matplotlib draws in zorder: the curve comes after the chance line
    artists = sorted(disp.ax_.get_children(), key=lambda a: a.get_zorder())
    assert artists.index(disp.line_) > artists.index(disp.chance_level_)
    # the style can still be overridden
    disp = Display.from_predictions(y_true, y_score, groups=groups,
                                    chance_level_kw={"zorder": 3})
    assert disp.chance_level_.get_zorder() == 3
