"""What every Display does: attributes, axes reuse, labels, from_estimator ==
from_predictions, bad input, and matplotlib as an optional dependency.

The displays are found from ``sklearn_rankeval.__all__``: the ranking-curve
displays (scores, ``groups``, one ``line_``) get every test below; the
comparison, calibration and item-exposure displays, which take other inputs,
get the tests that every display passes (axes, figure, legend, a passed
``ax``, its two constructors draw the same figure, the install hint) and have
their own test files for the rest."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression, Ridge

import sklearn_rankeval
from sklearn_rankeval import (
    CalibrationCurveDisplay,
    ElevenPointDisplay,
    GroupedRocCurveDisplay,
    InterpolatedPrecisionRecallDisplay,
    ItemExposureDisplay,
    MetricAtKDisplay,
    PairwiseComparisonDisplay,
    PerGroupHistogramDisplay,
    PositionBiasDisplay,
    PositionBiasEstimator,
    RankingComparisonDisplay,
)
from sklearn_rankeval.datasets import make_click_log

# every display the package exports
EXPORTED = [getattr(sklearn_rankeval, name) for name in sklearn_rankeval.__all__
            if name.endswith("Display")]
# the displays of other inputs than (y_true, y_score, groups=)
OTHER_INPUTS = (RankingComparisonDisplay, CalibrationCurveDisplay,
                ItemExposureDisplay, PositionBiasDisplay,
                PairwiseComparisonDisplay, MetricAtKDisplay,
                PerGroupHistogramDisplay)
# the displays of several models' scores ({model: scores})
MODEL_DICTS = (RankingComparisonDisplay, PairwiseComparisonDisplay,
               MetricAtKDisplay)
# the ranking-curve displays: a new one is tested here the day it is exported
DISPLAYS = [d for d in EXPORTED if d not in OTHER_INPUTS]
# the arrays each display computes (None where not applicable)
ARRAYS = {
    InterpolatedPrecisionRecallDisplay: ("precision", "recall", "raw_precision",
                                         "raw_recall", "average_precision"),
    GroupedRocCurveDisplay: ("fpr", "tpr", "tpr_lower", "tpr_upper", "roc_auc"),
    ElevenPointDisplay: ("precision", "recall", "average_precision"),
}
# the (x, y) arrays of line_
XY = {
    InterpolatedPrecisionRecallDisplay: ("recall", "precision"),
    GroupedRocCurveDisplay: ("fpr", "tpr"),
    ElevenPointDisplay: ("recall", "precision"),
}
parametrize_display = pytest.mark.parametrize(
    "Display", DISPLAYS, ids=lambda d: d.__name__
)


@pytest.fixture(scope="module")
def click_data():
    X, y, groups = make_click_log(n_users=40, n_items=(3, 15), random_state=0)
    clf = LogisticRegression().fit(X, y)
    return X, y, groups, clf


def _arrays(display):
    return {name: getattr(display, name) for name in ARRAYS[type(display)]}


def _assert_same_arrays(a, b):
    for name, value in _arrays(a).items():
        other = getattr(b, name)
        if value is None:
            assert other is None, name
        else:
            np.testing.assert_allclose(value, other, rtol=1e-12, err_msg=name)


@parametrize_display
@pytest.mark.parametrize("grouped", [False, True])
def test_attributes_and_labels(pyplot, click_data, Display, grouped):
    import matplotlib as mpl

    X, y, groups, clf = click_data
    score = clf.predict_proba(X)[:, 1]
    disp = Display.from_predictions(y, score, groups=groups if grouped else None,
                                    name="my model")
    assert isinstance(disp.line_, mpl.lines.Line2D)
    assert isinstance(disp.ax_, mpl.axes.Axes)
    assert isinstance(disp.figure_, mpl.figure.Figure)
    assert disp.ax_.figure is disp.figure_
    assert disp.line_.get_label().startswith("my model (")
    legend = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert disp.line_.get_label() in legend
    assert disp.ax_.get_xlim() == pytest.approx((-0.01, 1.01))
    assert disp.ax_.get_ylim() == pytest.approx((-0.01, 1.01))
    assert disp.ax_.get_xlabel() and disp.ax_.get_ylabel()
    assert disp.ax_.get_ylabel().startswith(("Mean", "Median")) == grouped
    assert (disp.n_groups is not None) == grouped
    # the line draws the display's arrays
    x, y_line = disp.line_.get_data()
    np.testing.assert_array_equal(x, getattr(disp, XY[Display][0]))
    np.testing.assert_array_equal(y_line, getattr(disp, XY[Display][1]))


@parametrize_display
def test_passed_ax_is_reused(pyplot, click_data, Display):
    X, y, groups, clf = click_data
    fig, ax = pyplot.subplots()
    a = Display.from_predictions(y, clf.decision_function(X), groups=groups,
                                 name="A", ax=ax)
    b = Display.from_predictions(y, X[:, 1], groups=groups, name="B", ax=ax)
    assert a.ax_ is ax and b.ax_ is ax and b.figure_ is fig
    assert pyplot.get_fignums() == [fig.number]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert [text.split(" (")[0] for text in legend if text[:2] in ("A ", "B ")] == [
        "A", "B"]
    assert a.line_ in ax.get_lines() and b.line_ in ax.get_lines()
    assert a.line_.get_color() != b.line_.get_color()


@parametrize_display
def test_plot_again_with_a_new_name(pyplot, click_data, Display):
    X, y, groups, clf = click_data
    disp = Display.from_predictions(y, X[:, 1], groups=groups, name="first")
    old_ax = disp.ax_
    disp.plot(name="second")
    assert disp.ax_ is not old_ax
    assert disp.line_.get_label().startswith("second (")
    assert len(pyplot.get_fignums()) == 2


@parametrize_display
@pytest.mark.parametrize("grouped", [False, True])
def test_from_estimator_equals_from_predictions(pyplot, click_data, Display, grouped):
    X, y, groups, clf = click_data
    g = groups if grouped else None
    est = Display.from_estimator(clf, X, y, groups=g)
    pred = Display.from_predictions(y, clf.predict_proba(X)[:, 1], groups=g,
                                    pos_label=1, name="LogisticRegression")
    _assert_same_arrays(est, pred)
    assert est.line_.get_label() == pred.line_.get_label()
    assert est.line_.get_label().startswith("LogisticRegression (")
    assert est.ax_.get_xlabel() == pred.ax_.get_xlabel()
    assert "Positive label: 1" in est.ax_.get_ylabel()
    np.testing.assert_allclose(est.line_.get_xydata(), pred.line_.get_xydata())


@parametrize_display
def test_string_classes_and_decision_function(pyplot, click_data, Display):
    X, y, groups, clf = click_data
    labels = np.where(y == 1, "click", "skip")
    clf_str = LogisticRegression().fit(X, labels)  # classes_ = [click, skip]
    # the relevant class is named; the decision function is negated for it
    est = Display.from_estimator(clf_str, X, labels, groups=groups,
                                 response_method="decision_function",
                                 pos_label="click")
    pred = Display.from_predictions(y, clf.decision_function(X), groups=groups)
    _assert_same_arrays(est, pred)
    assert "Positive label: click" in est.ax_.get_xlabel()


@parametrize_display
def test_regressor_is_scored_by_predict(pyplot, click_data, Display):
    X, y, groups, _ = click_data
    reg = Ridge().fit(X, y)
    est = Display.from_estimator(reg, X, y, groups=groups)
    pred = Display.from_predictions(y, reg.predict(X), groups=groups, name="Ridge")
    _assert_same_arrays(est, pred)
    assert est.line_.get_label() == pred.line_.get_label()
    with pytest.raises(ValueError, match="pos_label"):
        Display.from_estimator(reg, X, y, groups=groups, pos_label=1)
    with pytest.raises(ValueError, match="response_method"):
        Display.from_estimator(reg, X, y, response_method="predict_proba")


@parametrize_display
def test_estimator_errors(pyplot, click_data, Display):
    X, y, groups, clf = click_data
    multi = LogisticRegression().fit(X, y + (X[:, 1] > 1))
    with pytest.raises(ValueError, match="binary classifier"):
        Display.from_estimator(multi, X, y, groups=groups)
    with pytest.raises(ValueError, match="response_method"):
        Display.from_estimator(clf, X, y, response_method="predict")


@parametrize_display
def test_invariant_to_row_order(pyplot, click_data, Display):
    X, y, groups, clf = click_data
    score = np.round(clf.predict_proba(X)[:, 1], 1)  # ties
    perm = np.random.default_rng(0).permutation(len(y))
    a = Display.from_predictions(y, score, groups=groups)
    b = Display.from_predictions(y[perm], score[perm], groups=groups[perm])
    _assert_same_arrays(a, b)


BAD_INPUT = [
    ("y_true", dict(y_true=[1, 0, 1])),
    ("y_score", dict(y_score=[0.1, np.nan, 0.3, 0.4])),
    ("y_score", dict(y_score=[0.1, np.inf, 0.3, 0.4])),
    ("y_true", dict(y_true=[1, -1, 0, 1])),
    ("groups", dict(groups=[1, 1, 2])),
    ("groups", dict(groups=[1, None, 2, 2])),
    ("sample_weight", dict(sample_weight=[1, -1, 1, 1])),
    ("sample_weight", dict(sample_weight=[1, 1])),
    ("y_score", dict(y_score=[])),
    ("pos_label", dict(pos_label=3)),
    ("pos_label", dict(y_true=["a", "b", "a", "b"])),
]


@parametrize_display
@pytest.mark.parametrize("argument, bad", BAD_INPUT,
                         ids=[f"{a}-{i}" for i, (a, _) in enumerate(BAD_INPUT)])
def test_bad_input_names_the_argument(pyplot, Display, argument, bad):
    kwargs = dict(y_true=[1, 0, 1, 0], y_score=[0.4, 0.3, 0.2, 0.1],
                  groups=[1, 1, 2, 2])
    kwargs.update(bad)
    y_true, y_score = kwargs.pop("y_true"), kwargs.pop("y_score")
    with pytest.raises((ValueError, TypeError), match=argument):
        Display.from_predictions(y_true, y_score, **kwargs)


@parametrize_display
def test_bad_plot_kwargs_name_the_argument(pyplot, Display):
    with pytest.raises(TypeError, match="curve_kwargs"):
        Display.from_predictions([1, 0], [0.9, 0.1], curve_kwargs="red")
    with pytest.raises(TypeError, match="aliases"):
        Display.from_predictions([1, 0], [0.9, 0.1],
                                 curve_kwargs={"c": "red", "color": "blue"})
    disp = Display.from_predictions([1, 0], [0.9, 0.1],
                                    curve_kwargs={"c": "red", "lw": 3})
    assert disp.line_.get_color() == "red" and disp.line_.get_linewidth() == 3


@parametrize_display
def test_no_relevant_item_warns_and_gives_nan(pyplot, Display):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        disp = Display.from_predictions([0, 0, 0, 0], [0.4, 0.3, 0.2, 0.1],
                                        groups=[1, 1, 2, 2])
    assert any(issubclass(w.category, UndefinedMetricWarning) for w in record)
    assert np.isnan(getattr(disp, XY[Display][1])[-1])
    assert "nan" in disp.line_.get_label()


@pytest.mark.parametrize("Display", EXPORTED, ids=lambda d: d.__name__)
def test_missing_matplotlib_raises_an_install_hint(monkeypatch, Display):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    # the comparison display takes a dict of models' scores, the exposure
    # display per-item counts
    if Display is ItemExposureDisplay:
        build, args = Display.from_counts, ([1, 0],)
    elif Display is PositionBiasDisplay:
        def build(*args):
            return Display.from_log(*args, items=[0, 1])

        args = ([1, 0], [1, 1])
    else:
        build = Display.from_predictions
        args = ([1, 0], {"A": [0.9, 0.1], "B": [0.1, 0.9]}
                if Display in MODEL_DICTS else [0.9, 0.1])
    with pytest.raises(ImportError, match=r'pip install "sklearn-rankeval\[plot\]"'):
        build(*args)
    disp = Display.__new__(Display)
    disp.name = None
    with pytest.raises(ImportError, match=r"\.plot requires matplotlib"):
        disp.plot()


def _calls(Display, X, y, groups, clf):
    """Two ``(constructor, args, kwargs)`` that draw the same figure, for any
    display: ``from_predictions`` and ``from_estimator`` (the exposure
    display: ``from_recommendations`` and ``from_counts``)."""
    if Display is ItemExposureDisplay:
        # top-2 lists; item 0 is in 3 lists, 1, 3 and 4 in one, 2 and 5 in none
        lists = {"u1": [0, 1, 2], "u2": [0, 3, 1], "u3": [4, 0]}
        train = {"t1": [0, 1], "t2": [0, 5]}
        kw = dict(k=2, name="m")
        return ((Display.from_recommendations, (lists,), dict(kw, train=train)),
                (Display.from_counts, ([3, 1, 0, 1, 1, 0],),
                 dict(kw, train_counts=[2, 1, 0, 0, 0, 1])))
    if Display is PositionBiasDisplay:
        # a click log of three items swapped among three positions
        log = ([1, 1, 0, 1, 1, 0, 1, 0, 1], [1, 2, 3, 2, 1, 3, 3, 2, 1])
        items = [0, 1, 2, 0, 1, 2, 0, 1, 2]
        fitted = PositionBiasEstimator().fit(*log, items=items)
        return ((Display.from_log, log, dict(items=items)),
                (Display.from_estimator, (fitted,), {}))
    proba = clf.predict_proba(X)[:, 1]
    pred, est = Display.from_predictions, Display.from_estimator
    if Display in MODEL_DICTS:
        other = LogisticRegression(C=0.001).fit(X, y)
        kw = {RankingComparisonDisplay: dict(metrics=["gauc", "ndcg@5"]),
              PairwiseComparisonDisplay: dict(metric="gauc"),
              MetricAtKDisplay: dict(metric="ndcg", ks=[1, 3, 5])}[Display]
        kw = dict(kw, groups=groups, n_resamples=200, random_state=0)
        return ((pred, (y, {"A": proba, "B": other.predict_proba(X)[:, 1]}), kw),
                (est, ({"A": clf, "B": other}, X, y), kw))
    if Display is CalibrationCurveDisplay:
        kw = dict(segments=np.where(groups % 2 == 0, "even", "odd"), n_bins=5)
    else:
        kw = dict(groups=groups)
    return ((pred, (y, proba), dict(kw, pos_label=1, name="LogisticRegression")),
            (est, (clf, X, y), kw))


parametrize_every_display = pytest.mark.parametrize(
    "Display", EXPORTED, ids=lambda d: d.__name__)


@parametrize_every_display
def test_every_display_draws_on_a_passed_ax_with_a_legend(pyplot, click_data,
                                                          Display):
    import matplotlib as mpl

    X, y, groups, clf = click_data
    (pred, pred_args, pred_kw), (est, est_args, est_kw) = _calls(
        Display, X, y, groups, clf)
    fig, ax = pyplot.subplots()
    a = pred(*pred_args, ax=ax, **pred_kw)
    b = est(*est_args, ax=ax, **est_kw)
    assert a.ax_ is ax and b.ax_ is ax and b.figure_ is fig
    assert isinstance(a.ax_, mpl.axes.Axes)
    assert isinstance(a.figure_, mpl.figure.Figure)
    assert pyplot.get_fignums() == [fig.number]
    assert [t.get_text() for t in ax.get_legend().get_texts()]


@parametrize_every_display
def test_every_display_from_estimator_draws_from_predictions(pyplot, click_data,
                                                             Display):
    X, y, groups, clf = click_data
    (first, pred_args, pred_kw), (second, est_args, est_kw) = _calls(
        Display, X, y, groups, clf)
    pred = first(*pred_args, **pred_kw)
    est = second(*est_args, **est_kw)
    assert est.ax_ is not pred.ax_
    if Display is PairwiseComparisonDisplay:  # a matrix, not lines
        np.testing.assert_allclose(est.im_.get_array(), pred.im_.get_array(),
                                   rtol=1e-12)
        assert ([t.get_text() for t in est.ax_.texts]
                == [t.get_text() for t in pred.ax_.texts])
        return
    lines = [(line.get_label(), line.get_xydata()) for line in pred.ax_.get_lines()]
    assert lines
    assert len(est.ax_.get_lines()) == len(lines)
    for (label, xy), line in zip(lines, est.ax_.get_lines()):
        assert line.get_label() == label
        np.testing.assert_allclose(line.get_xydata(), xy, rtol=1e-12)
    legend = [t.get_text() for t in pred.ax_.get_legend().get_texts()]
    assert [t.get_text() for t in est.ax_.get_legend().get_texts()] == legend


def test_importing_the_package_does_not_import_matplotlib():
    code = ("import sys, sklearn_rankeval; "
            "sys.exit('matplotlib' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
