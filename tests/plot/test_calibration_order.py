"""CalibrationCurveDisplay: the segments' own order (a Categorical) in the
curves and the legend, and the panel's min_count line explained."""

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve

from sklearn_rankeval import CalibrationCurveDisplay

ORDER = ["light", "medium", "heavy"]  # not alphabetical


def _data(seed=0, n=3000):
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 1, n)
    y = (rng.random(n) < p).astype(int)
    segment = rng.choice(ORDER, n)
    return y, p, segment


@pytest.mark.parametrize("wrap", [
    lambda s: pd.Categorical(s, categories=ORDER + ["unused"]),
    lambda s: pd.Series(s).astype(pd.CategoricalDtype(ORDER)),
])
def test_categorical_segments_keep_their_order(pyplot, wrap):
    y, p, segment = _data()
    disp = CalibrationCurveDisplay.from_predictions(y, p, segments=wrap(segment),
                                                    n_bins=5, min_count=0)
    assert list(disp.curves_) == ORDER and list(disp.lines_) == ORDER
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert [text.split(" ")[0] for text in legend[1:]] == ORDER
    for label, line in disp.lines_.items():
        rows = segment == label
        prob_true, prob_pred = calibration_curve(y[rows], p[rows], n_bins=5)
        np.testing.assert_allclose(line.get_xdata(), prob_pred, rtol=1e-12)
        np.testing.assert_allclose(line.get_ydata(), prob_true, rtol=1e-12)
    # plain labels: sorted, as ranking_report's segments
    plain = CalibrationCurveDisplay.from_predictions(y, p, segments=segment,
                                                     n_bins=5)
    assert list(plain.lines_) == sorted(ORDER)


def test_min_count_line_is_explained_in_the_panel(pyplot):
    y, p, _ = _data(1, n=400)
    disp = CalibrationCurveDisplay.from_predictions(y, p, n_bins=10)
    (line,) = disp.hist_ax_.get_lines()
    assert line.get_ydata()[0] == 10
    texts = [t.get_text() for t in disp.hist_ax_.get_legend().get_texts()]
    assert texts == ["min_count = 10 rows: lighter bins hollow, off the curve"]
    weighted = CalibrationCurveDisplay.from_predictions(
        y, p, n_bins=10, min_count=2.5, sample_weight=np.full(y.size, 0.5))
    texts = [t.get_text() for t in weighted.hist_ax_.get_legend().get_texts()]
    assert texts == ["min_count = 2.5 weight: lighter bins hollow, off the curve"]
