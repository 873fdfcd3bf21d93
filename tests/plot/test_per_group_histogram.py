"""PerGroupHistogramDisplay: the histogram of each group's value of a metric,
against scikit-learn's metric computed group by group and numpy.histogram."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import ndcg_score as sk_ndcg
from sklearn.metrics import roc_auc_score

from sklearn_rankeval import PerGroupHistogramDisplay, gauc_score, ndcg_score


def _log(seed=0, n_users=60):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 15, n_users)
    users = np.repeat([f"u{i:02d}" for i in range(n_users)], sizes)
    y = rng.choice(3, users.size, p=[0.7, 0.2, 0.1])
    y[users == "u00"] = 0  # a user without a relevant item
    score = np.round(rng.normal(size=users.size) + 0.5 * y, 2)
    return users, y, score


def _sklearn_ndcg_per_user(users, y, score, k):
    """scikit-learn's NDCG@k of each user (sorted ids) with a relevant item."""
    out = []
    for user in np.unique(users):
        rows = users == user
        if y[rows].max() > 0:
            out.append(sk_ndcg([y[rows]], [score[rows]], k=k))
    return np.array(out)


def test_counts_are_the_histogram_of_sklearns_per_user_values(pyplot):
    users, y, score = _log()
    disp = PerGroupHistogramDisplay.from_predictions(
        y, score, groups=pd.Series(users, name="user"), metric="ndcg@5",
        name="model")
    expected = _sklearn_ndcg_per_user(users, y, score, k=5)
    np.testing.assert_allclose(np.sort(disp.values), np.sort(expected),
                               rtol=1e-12)
    counts, edges = np.histogram(expected, bins=20, range=(0, 1))
    np.testing.assert_array_equal(disp.counts, counts)
    np.testing.assert_allclose(disp.edges, edges)
    no_relevant = [u for u in np.unique(users) if y[users == u].max() == 0]
    assert "u00" in no_relevant and disp.n_undefined == len(no_relevant)
    # the line: the metric's own average, the mean over the users
    assert disp.average == pytest.approx(expected.mean(), rel=1e-12)
    assert disp.average == ndcg_score(y, score, groups=users, k=5)
    assert disp.line_.get_xdata()[0] == disp.average
    # the drawn steps are the counts
    np.testing.assert_array_equal(disp.hist_.get_data().values, counts)
    assert disp.hist_.get_label() == f"model (ndcg@5 = {disp.average:.4f})"
    assert disp.ax_.get_xlabel() == (f"ndcg@5 of each user ({len(no_relevant)} "
                                     "users without a value left out)")
    assert disp.ax_.get_ylabel() == "Users"


def test_gauc_line_is_the_weighted_average(pyplot):
    # GAUC weights users by their number of items: the line is that average,
    # the histogram counts users
    users, y, score = _log(1)
    clicks = (y > 0).astype(int)
    disp = PerGroupHistogramDisplay.from_predictions(
        clicks, score, groups=users, metric="gauc", bins=10)
    per_user, sizes = [], []
    for user in np.unique(users):
        rows = users == user
        if 0 < clicks[rows].sum() < rows.sum():
            per_user.append(roc_auc_score(clicks[rows], score[rows]))
            sizes.append(rows.sum())
    np.testing.assert_allclose(np.sort(disp.values), np.sort(per_user), rtol=1e-12)
    assert disp.counts.sum() == len(per_user)
    assert disp.average == pytest.approx(np.average(per_user, weights=sizes),
                                         rel=1e-12)
    assert disp.average == gauc_score(clicks, score, groups=users)
    assert disp.ax_.get_xlabel().startswith("gauc of each group (")


def test_two_models_share_the_edges_on_one_axes(pyplot):
    users, y, score = _log(2)
    fig, ax = pyplot.subplots()
    a = PerGroupHistogramDisplay.from_predictions(y, score, groups=users,
                                                  name="A", ax=ax)
    b = PerGroupHistogramDisplay.from_predictions(y, -score, groups=users,
                                                  name="B", ax=ax)
    np.testing.assert_array_equal(a.edges, b.edges)
    assert a.hist_.get_facecolor() != b.hist_.get_facecolor()
    assert a.line_.get_color() != b.line_.get_color()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [text.split(" ")[0] for text in legend] == ["A", "B"]


def test_bin_rule_is_numpys(pyplot):
    users, y, score = _log(5)
    disp = PerGroupHistogramDisplay.from_predictions(y, score, groups=users,
                                                     bins="sturges")
    expected = _sklearn_ndcg_per_user(users, y, score, k=10)
    counts, edges = np.histogram(expected, bins="sturges", range=(0, 1))
    np.testing.assert_array_equal(disp.counts, counts)
    np.testing.assert_allclose(disp.edges, edges)


def test_unbounded_metric_bins_span_the_values(pyplot):
    users, y, score = _log(3)
    disp = PerGroupHistogramDisplay.from_predictions(y, score, groups=users,
                                                     metric="dcg@5", bins=7)
    assert disp.values.max() > 1
    assert disp.edges[0] == disp.values.min()
    assert disp.edges[-1] == disp.values.max()
    assert disp.counts.sum() == disp.values.size


def test_bins_edges_weights_and_no_line(pyplot):
    users, y, score = _log(4)
    weights = np.repeat(np.arange(1, 61, dtype=float),
                        np.unique(users, return_counts=True)[1])
    disp = PerGroupHistogramDisplay.from_predictions(
        y, score, groups=users, sample_weight=weights, bins=[0, 0.5, 0.9, 1],
        mean_line=False, hist_kw={"color": "red"})
    expected = _sklearn_ndcg_per_user(users, y, score, k=10)
    np.testing.assert_array_equal(
        disp.counts, np.histogram(expected, bins=[0, 0.5, 0.9, 1])[0])
    # query weights move the average, not the users' values
    assert disp.average == pytest.approx(
        ndcg_score(y, score, groups=users, k=10, sample_weight=weights), rel=1e-12)
    assert disp.average != pytest.approx(expected.mean(), rel=1e-6)
    assert disp.line_ is None
    assert disp.hist_.get_edgecolor()[:3] == (1.0, 0.0, 0.0)


@pytest.mark.parametrize("bins, error", [
    (0, ValueError), ([0.5, 0.2], ValueError), ([0.1], ValueError),
    ("nope", ValueError), (object(), TypeError)])
def test_bad_bins_name_the_argument(pyplot, bins, error):
    with pytest.raises(error, match="bins"):
        PerGroupHistogramDisplay.from_predictions([1, 0], [0.9, 0.1], bins=bins)


def test_bad_metric_and_plot_kwargs_name_the_argument(pyplot):
    with pytest.raises(ValueError, match="not_a_metric"):
        PerGroupHistogramDisplay.from_predictions([1, 0], [0.9, 0.1],
                                                  metric="not_a_metric")
    with pytest.raises(TypeError, match="hist_kw"):
        PerGroupHistogramDisplay.from_predictions([1, 0], [0.9, 0.1],
                                                  hist_kw="red")
    with pytest.raises(TypeError, match="mean_line_kw"):
        PerGroupHistogramDisplay.from_predictions([1, 0], [0.9, 0.1],
                                                  mean_line_kw=1)


def test_every_group_undefined_draws_an_empty_histogram(pyplot):
    disp = PerGroupHistogramDisplay.from_predictions(
        [0, 0, 0, 0], [0.4, 0.3, 0.2, 0.1], groups=[1, 1, 2, 2], metric="mrr")
    assert disp.values.size == 0 and disp.n_undefined == 2
    assert disp.counts.sum() == 0 and disp.average is None and disp.line_ is None


def test_consecutive_models_take_consecutive_colours(pyplot):
    import matplotlib as mpl

    users, y, score = _log(6)
    fig, ax = pyplot.subplots()
    colours = [PerGroupHistogramDisplay.from_predictions(
        y, s, groups=users, ax=ax).hist_.get_edgecolor() for s in (score, -score)]
    cycle = mpl.rcParams["axes.prop_cycle"].by_key()["color"]
    assert colours == [mpl.colors.to_rgba(c) for c in cycle[:2]]
