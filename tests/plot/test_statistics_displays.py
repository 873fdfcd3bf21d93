"""PairwiseComparisonDisplay and MetricAtKDisplay draw the numbers of
compare_rankings(design="all_pairs") and ranking_report(confidence=)."""

import numpy as np
import pytest

from sklearn_rankeval import (
    MetricAtKDisplay,
    PairwiseComparisonDisplay,
    compare_rankings,
    ranking_report,
)
from sklearn_rankeval.datasets import make_click_log

pytestmark = pytest.mark.usefixtures("pyplot")


@pytest.fixture(scope="module")
def data():
    X, y, users = make_click_log(200, random_state=1)
    w = np.linalg.lstsq(X[:, 1:], y - y.mean(), rcond=None)[0]
    scores = {"full": X[:, 1:] @ w}
    for j in (0, 3):
        w_j = w.copy()
        w_j[j] = 0
        scores[f"no_x{j + 1}"] = X[:, 1:] @ w_j
    return y, users, scores


@pytest.mark.parametrize("test", ["tukey_hsd", "randomized_tukey"])
def test_pairwise_matrix_is_compare_rankings_all_pairs(data, test):
    y, users, scores = data
    disp = PairwiseComparisonDisplay.from_predictions(
        y, scores, groups=users, metric="ndcg@5", test=test, n_resamples=300,
        random_state=0)
    res = compare_rankings(y, scores, groups=users, metrics=["ndcg@5"],
                           design="all_pairs", test=test, n_resamples=300,
                           random_state=0, output="dict")["ndcg@5"]
    models = list(scores)
    for a, by_b in res.items():
        for b, r in by_b.items():
            i, j = models.index(a), models.index(b)
            assert disp.diff[i, j] == r["diff"] and disp.diff[j, i] == -r["diff"]
            assert disp.ci_low[i, j] == r["ci_low"]
            assert disp.ci_high[j, i] == -r["ci_low"]
            assert disp.p_adjusted[i, j] == disp.p_adjusted[j, i] == r["p_adjusted"]
            text = disp.text_[i, j].get_text().splitlines()
            assert text == [f"{r['diff']:+.4f}",
                            f"[{r['ci_low']:+.4f}, {r['ci_high']:+.4f}]",
                            f"p={r['p_adjusted']:.4f}"]
            bold = disp.text_[i, j].get_fontweight() == "bold"
            assert bold == (r["p_adjusted"] < 0.05) == disp.significant_[i, j]
    # the image is the matrix of differences, the diagonal masked
    image = disp.im_.get_array()
    assert image.mask.diagonal().all()
    np.testing.assert_array_equal(image.filled(0), np.nan_to_num(disp.diff))


def test_pairwise_bad_shape_names_the_array():
    disp = PairwiseComparisonDisplay(metric="m", models=["A", "B"],
                                     diff=[[0, 1]], ci_low=[[0, 1], [0, 1]],
                                     ci_high=[[0, 1], [0, 1]],
                                     p_adjusted=[[0, 1], [0, 1]])
    with pytest.raises(ValueError, match="diff must have shape"):
        disp.plot()


def test_metric_at_k_is_ranking_report_with_intervals(data):
    y, users, scores = data
    ks = [1, 2, 5, 10]
    disp = MetricAtKDisplay.from_predictions(y, scores, groups=users,
                                             metric="recall", ks=ks,
                                             n_resamples=300, random_state=3)
    for j, (model, s) in enumerate(scores.items()):
        rep = ranking_report(y, s, groups=users,
                             metrics=[f"recall@{k}" for k in ks],
                             confidence=0.95, n_resamples=300, random_state=3,
                             output="dict")
        for i, k in enumerate(ks):
            assert disp.values[j, i] == rep[f"recall@{k}"]["value"]
            assert disp.ci_low[j, i] == rep[f"recall@{k}"]["ci_low"]
            assert disp.ci_high[j, i] == rep[f"recall@{k}"]["ci_high"]
        np.testing.assert_array_equal(disp.lines_[model].get_xydata(),
                                      np.c_[ks, disp.values[j]])
        # the band's outline spans the interval at every k
        path = disp.bands_[model].get_paths()[0].vertices
        assert path[:, 1].min() == pytest.approx(disp.ci_low[j].min())
        assert path[:, 1].max() == pytest.approx(disp.ci_high[j].max())
    assert disp.ax_.get_ylabel() == "recall@k (95% bootstrap band)"
    # recall@k never decreases with k
    assert (np.diff(disp.values, axis=1) >= 0).all()


def test_metric_at_k_one_model_and_bad_ks(data):
    y, users, scores = data
    disp = MetricAtKDisplay.from_predictions(y, scores["full"], groups=users,
                                             confidence=None)
    assert list(disp.lines_) == ["model"] and disp.bands_ == {}
    assert disp.ks.tolist() == list(range(1, 11))
    for bad in ([3, 2], [0, 1], [], [1.5]):
        with pytest.raises(ValueError, match="ks must be"):
            MetricAtKDisplay.from_predictions(y, scores, groups=users, ks=bad)
