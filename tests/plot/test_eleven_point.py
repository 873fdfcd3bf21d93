"""ElevenPointDisplay draws interpolated_precision_recall_curve; its legend
gives interpolated_average_precision_score."""

import numpy as np
import pytest

from sklearn_rankeval import (
    ElevenPointDisplay,
    interpolated_average_precision_score,
    interpolated_precision_recall_curve,
)
from tests.conftest import make_grouped_data

pytestmark = pytest.mark.usefixtures("pyplot")
plt = pytest.importorskip("matplotlib.pyplot")

Display = ElevenPointDisplay


@pytest.mark.parametrize("n_points", [11, 5, 101])
@pytest.mark.parametrize("recall_levels", ["exact", "trec_eval_9", "trec_eval_10"])
def test_values_are_the_metric_functions(n_points, recall_levels):
    y_true, y_score, groups = make_grouped_data(seed=7, n_groups=20)
    disp = Display.from_predictions(y_true, y_score, groups=groups,
                                    n_points=n_points, recall_levels=recall_levels,
                                    name="run")
    precision, recall = interpolated_precision_recall_curve(
        y_true, y_score, groups=groups, n_points=n_points,
        recall_levels=recall_levels)
    np.testing.assert_array_equal(disp.precision, precision)
    np.testing.assert_array_equal(disp.recall, recall)
    ap = interpolated_average_precision_score(
        y_true, y_score, groups=groups, n_points=n_points,
        recall_levels=recall_levels)
    assert disp.average_precision == ap
    assert disp.precision.mean() == pytest.approx(ap, rel=1e-12)
    assert disp.line_.get_label() == f"run ({n_points}-pt AP = {ap:.4f})"
    np.testing.assert_array_equal(disp.line_.get_xydata(),
                                  np.column_stack([recall, precision]))


def test_weighted_values():
    y_true, y_score, groups = make_grouped_data(seed=8)
    w = np.random.default_rng(0).uniform(0.5, 2, len(y_true))
    disp = Display.from_predictions(y_true, y_score, groups=groups, sample_weight=w)
    precision, _ = interpolated_precision_recall_curve(
        y_true, y_score, groups=groups, sample_weight=w)
    np.testing.assert_array_equal(disp.precision, precision)
    assert disp.average_precision == interpolated_average_precision_score(
        y_true, y_score, groups=groups, sample_weight=w)


def test_markers_steps_ticks_and_labels():
    disp = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    assert disp.line_.get_marker() == "o"
    assert disp.line_.get_drawstyle() == "steps-pre"
    np.testing.assert_allclose(disp.ax_.get_xticks(), np.arange(11) / 10)
    ticks = [t.get_text() for t in disp.ax_.get_xticklabels()]
    assert ticks == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8",
                     "0.9", "1"]
    assert disp.ax_.get_xlabel() == "Recall"
    assert disp.ax_.get_ylabel() == "Interpolated precision"
    assert disp.n_groups is None
    # straight lines between the markers on request
    straight = Display.from_predictions([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1],
                                        curve_kwargs={"drawstyle": "default"})
    assert straight.line_.get_drawstyle() == "default"


def test_two_systems_on_one_axis():
    y_true, y_score, groups = make_grouped_data(seed=9)
    other = np.random.default_rng(0).permutation(y_score)
    a = Display.from_predictions(y_true, y_score, groups=groups, name="A")
    b = Display.from_predictions(y_true, other, groups=groups, name="B", ax=a.ax_)
    assert b.ax_ is a.ax_ and len(plt.get_fignums()) == 1
    assert a.ax_.get_lines() == [a.line_, b.line_]
    legend = [t.get_text() for t in a.ax_.get_legend().get_texts()]
    assert legend == [a.line_.get_label(), b.line_.get_label()]
    assert a.ax_.get_ylabel() == "Mean interpolated precision"


@pytest.mark.parametrize("n_points, error", [(None, ValueError), (1, ValueError),
                                             (2.5, TypeError)])
def test_bad_n_points(n_points, error):
    with pytest.raises(error, match="n_points"):
        Display.from_predictions([1, 0], [0.9, 0.1], n_points=n_points)


def test_trec_eval_levels_refuse_weights():
    with pytest.raises(ValueError, match="recall_levels"):
        Display.from_predictions([1, 0], [0.9, 0.1], sample_weight=[1, 2],
                                 recall_levels="trec_eval_9")
