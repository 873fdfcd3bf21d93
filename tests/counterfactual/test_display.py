"""PositionBiasDisplay: the propensities and the relative click-through rates."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_rankeval import PositionBiasDisplay, PositionBiasEstimator
from tests.counterfactual._simulate import simulate

THETA = np.array([1.0, 0.6, 0.4, 0.3])


@pytest.fixture(scope="module")
def log():
    rng = np.random.default_rng(0)
    return simulate(rng, theta=THETA, gamma=rng.uniform(0.1, 0.9, (20, 4)),
                    n_impressions=3000)


def test_draws_the_estimator(pyplot, log):
    import matplotlib as mpl

    est = PositionBiasEstimator().fit(log["clicks"], log["positions"],
                                      items=log["items"])
    disp = PositionBiasDisplay.from_estimator(est)
    assert isinstance(disp.line_, mpl.lines.Line2D)
    assert disp.ax_.figure is disp.figure_
    x, y = disp.line_.get_data()
    assert_array_equal(x, [1, 2, 3, 4])
    assert_array_equal(y, est.propensities_)
    # the click-through rates over position 1's, counted from the log
    ctr = np.array([log["clicks"][log["positions"] == k].mean() for k in range(1, 5)])
    assert_allclose(disp.ctr_line_.get_ydata(), ctr / ctr[0], rtol=1e-12)
    assert disp.line_.get_label() == "Propensity (em)"
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert legend == ["Propensity (em)", "Click-through rate / CTR at position 1"]
    assert disp.ax_.get_xlabel() == "Position"
    assert disp.ax_.get_title() == "Position bias: examination propensity per position"


def test_randomized_shows_both_curves_and_says_they_coincide(pyplot, log):
    # a randomized display: the propensities are the click-through rates; the
    # CTR curve is drawn over them, hollow and dashed, and named as such
    disp = PositionBiasDisplay.from_log(log["clicks"], log["positions"],
                                        method="randomized")
    assert_allclose(disp.ctr_line_.get_ydata(), disp.line_.get_ydata(), rtol=1e-12)
    assert disp.ctr_line_.get_zorder() > disp.line_.get_zorder()
    assert disp.ctr_line_.get_markerfacecolor() == "none"
    assert disp.ctr_line_.get_linestyle() == "--"
    assert disp.ctr_line_.get_label() == ("Click-through rate / CTR at position 1 "
                                          "(= the propensities)")
    # a title of the user's own is kept
    fig, ax = pyplot.subplots()
    ax.set_title("mine")
    PositionBiasDisplay.from_log(log["clicks"], log["positions"],
                                 method="randomized", ax=ax)
    assert ax.get_title() == "mine"


def test_from_log_equals_from_estimator(pyplot, log):
    fig, ax = pyplot.subplots()
    a = PositionBiasDisplay.from_log(log["clicks"], log["positions"],
                                     items=log["items"], method="randomized",
                                     name="shuffled", ax=ax)
    est = PositionBiasEstimator(method="randomized").fit(
        log["clicks"], log["positions"], items=log["items"])
    b = PositionBiasDisplay.from_estimator(est, ax=ax, curve_kwargs={"c": "red"})
    assert a.ax_ is ax and b.ax_ is ax and pyplot.get_fignums() == [fig.number]
    assert_array_equal(a.line_.get_ydata(), b.line_.get_ydata())
    assert a.line_.get_label() == "shuffled"
    assert b.line_.get_color() == "red"


def test_bad_arguments(pyplot, log):
    with pytest.raises(TypeError, match="estimator"):
        PositionBiasDisplay.from_estimator(object())
    with pytest.raises(ValueError, match="not fitted"):
        PositionBiasDisplay.from_estimator(PositionBiasEstimator())
    with pytest.raises(ValueError, match="clicks"):
        PositionBiasDisplay.from_log([2, 0], [1, 2], items=[0, 1])
    est = PositionBiasEstimator().fit(log["clicks"], log["positions"],
                                      items=log["items"])
    with pytest.raises(TypeError, match="ctr_kw"):
        PositionBiasDisplay.from_estimator(est, ctr_kw="grey")
