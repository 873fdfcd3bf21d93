"""Reliability curves of predicted probabilities, per segment, weighted."""

import math
import weakref
from collections.abc import Mapping

import numpy as np
from sklearn.base import is_classifier

from .._core import to_numpy
from .._metrics import reliability_curves
from ._base import (
    RankingCurveDisplayMixin,
    axis_label,
    draw_diagonal,
    import_pyplot,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["CalibrationCurveDisplay"]


# parameters that from_estimator and from_predictions describe alike
_fill_doc = plot_doc_filler({
    "y_true_calibration": """\
y_true : array-like of shape (n_samples,)
    Binary outcome of each row (a click): 0/1, booleans or -1/1 (1
    positive), as :func:`sklearn.metrics.roc_auc_score` reads them; with
    ``pos_label``, class labels.""",
    "y_calibration": """\
y : array-like of shape (n_samples,)
    Binary outcome of each row: class labels of the classifier (the class
    ``pos_label`` is positive), or 0/1, booleans or -1/1.""",
    "y_prob": """\
y_prob : array-like of shape (n_samples,)
    Predicted probability of the positive outcome, in [0, 1] (a value
    outside, or NaN, is a ``ValueError``).""",
    "segments": """\
segments : array-like of shape (n_samples,), default=None
    A segment label per row (new or returning user, country, a feature
    bucket): one curve per segment, each the curve of the segment's rows
    alone, in the order of the categories of a pandas ``Categorical`` (or
    of a Series of that dtype: e.g. light, medium, heavy users), else in
    sorted label order.  None: one curve of all rows.""",
    "sample_weight_calibration": """\
sample_weight : array-like of shape (n_samples,), default=None
    Row weights: each bin's fraction of positives and mean probability are
    weighted means, its weight the sum of its rows' weights (quantile edges
    are weighted percentiles).  None: unit weights, where the curve is
    :func:`sklearn.calibration.calibration_curve`'s.""",
    "n_bins": """\
n_bins : int, default=10
    Number of bins of ``y_prob`` (an integer >= 1).  Bins without weight
    are not drawn.""",
    "strategy": """\
strategy : {'uniform', 'quantile'}, default='uniform'
    Bin edges: ``'uniform'`` splits [0, 1] into equal widths;
    ``'quantile'`` puts them at the quantiles of each segment's
    ``y_prob``, so that the bins hold equal weight.""",
    "groups_band": """\
groups : array-like of shape (n_samples,), default=None
    Id of the group (user, query) of each row, the unit resampled by the
    band; required with ``confidence``, unused without.""",
    "confidence": """\
confidence : float, default=None
    Confidence level of a bootstrap band around each curve: the
    percentile interval of each bin's fraction of positives over
    ``n_resamples`` resamples of the segment's groups.  None: no band.""",
    "n_resamples": """\
n_resamples : int, default=1000
    Number of bootstrap resamples of the band.""",
    "random_state": """\
random_state : int, numpy Generator, RandomState or None, default=None
    Seed of the bootstrap resamples of the band.""",
    "pos_label_calibration": """\
pos_label : int, float, bool or str, default=None
    The class of ``y_true`` that is positive; None: 0/1, booleans or -1/1
    outcomes.  A positive label other than 1 (or True) is shown in the axis
    labels, as :meth:`from_estimator` shows a classifier's.""",
    "curve_kwargs_calibration": """\
curve_kwargs : dict or list of dict, default=None
    Keyword arguments of matplotlib's ``plot`` for every curve, or one
    dict per curve (in segment order).""",
    "band_kw": """\
band_kw : dict, default=None
    Keyword arguments of matplotlib's ``fill_between`` for the bands.""",
    "ref_line": """\
ref_line : bool, default=True
    Whether to draw the diagonal of perfect calibration.""",
    "min_count": """\
min_count : float, default=10
    Bins whose weight (their number of rows, without ``sample_weight``) is
    below ``min_count`` are drawn as hollow markers, not joined to the
    curve: their fraction of positives swings with a row or two.  0: every
    bin joined.""",
    "hist": """\
hist : bool, default=True
    Whether to draw, under the curves, a panel with the weight (number of
    rows) of every bin of each segment, as scikit-learn's calibration
    example draws a histogram of the probabilities.""",
    "hist_kw": """\
hist_kw : dict, default=None
    Keyword arguments of matplotlib's ``stairs`` for the panel's steps.""",
    "legend_kw": """\
legend_kw : dict, default=None
    Keyword arguments of matplotlib's ``legend``, over the defaults: inside
    the axes (``loc="best"``) for up to 4 entries, outside on the right for
    more.""",
})

_REF_LABEL = "Perfectly calibrated"
#: More legend entries than this: the legend goes outside the axes.
_LEGEND_INSIDE_MAX = 4
#: Zoom the axes to the points when they all lie below this probability.
_ZOOM_BELOW = 0.5
#: Bins' weights spanning more than this factor: a log scale in the panel.
_LOG_SPAN = 100
#: Heights of the curves' axes and of the panel of the bins' weights below.
_PANEL_RATIOS = (3, 1)
#: Where the panel lies when the axes has no place in a grid, in the axes'
#: coordinates (x, y, width, height): below it, a third of its height.
_PANEL_BOUNDS = (0.0, -0.48, 1.0, 0.33)
#: The state of each axes' displays: the panel, and the largest value drawn.
_AXES_STATE = weakref.WeakKeyDictionary()


def _metrics_text(curve):
    return f"PCOC = {curve['pcoc']:.4f}, ECE = {curve['ece']:.4f}"


def _curve_label(name, segment, curve):
    """``"name: segment (PCOC = 0.9876, ECE = 0.0123)"``, or the known parts."""
    parts = [str(p) for p in (name, segment) if p is not None]
    metrics = _metrics_text(curve)
    return f"{': '.join(parts)} ({metrics})" if parts else metrics


def _kwargs_per_curve(curve_kwargs, n):
    """``curve_kwargs`` as a list of ``n`` (maybe None) dicts."""
    if isinstance(curve_kwargs, (list, tuple)):
        if len(curve_kwargs) != n:
            raise ValueError(
                f"curve_kwargs must be a dict or a list of {n} dicts (one per "
                f"curve), got a list of {len(curve_kwargs)}."
            )
        return list(curve_kwargs)
    if curve_kwargs is not None and not isinstance(curve_kwargs, Mapping):
        raise TypeError(
            f"curve_kwargs must be a dict of matplotlib keyword arguments, a "
            f"list of them or None, got {type(curve_kwargs).__name__}."
        )
    return [curve_kwargs] * n


def _nice_upper(value):
    """The smallest of 1, 2, 2.5, 5 times a power of ten at or above
    ``value`` (the zoomed axes' upper limit)."""
    exponent = math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if step * 10.0 ** exponent >= value * (1 - 1e-12):
            return step * 10.0 ** exponent
    return 10.0 ** (exponent + 1)  # pragma: no cover


def _panel_under(ax):
    """New axes under ``ax`` sharing its x axis: ``ax``'s place in its grid
    split 3:1, or, for axes placed by hand, an inset below them."""
    spec = ax.get_subplotspec()
    if spec is None:
        return ax.inset_axes(_PANEL_BOUNDS, sharex=ax)
    grid = spec.subgridspec(2, 1, height_ratios=_PANEL_RATIOS, hspace=0.08)
    ax.set_subplotspec(grid[0])
    return ax.figure.add_subplot(grid[1], sharex=ax)


def _category_order(segments):
    """The categories of a pandas ``Categorical`` (or of a Series of that
    dtype), in their order; None for any other input."""
    categories = getattr(getattr(segments, "cat", segments), "categories", None)
    return None if categories is None else list(categories)


def _positive_label(pos_label):
    """The positive label worth stating in the axis labels: None for the
    default reading of 0/1 (or boolean) outcomes, whichever factory ran."""
    numeric = (bool, int, float, np.bool_, np.number)
    if pos_label is None or (isinstance(pos_label, numeric) and pos_label == 1):
        return None
    return pos_label


class CalibrationCurveDisplay(RankingCurveDisplayMixin):
    """Reliability curves (calibration curves) per segment, weighted.

    Each curve plots, for the bins of the predicted probability, the
    weighted fraction of positives of the bin against its weighted mean
    predicted probability: a calibrated model lies on the diagonal.  One
    curve per segment (or one of all rows), each labelled with the
    segment's calibration ratio (PCOC, predicted over observed positives)
    and expected calibration error (ECE); optionally with a bootstrap band
    over groups (users) around each curve.  Unlike
    :class:`sklearn.calibration.CalibrationDisplay` it takes
    ``sample_weight``; without weights each curve is
    :func:`sklearn.calibration.calibration_curve`'s.

    Read more in the :ref:`User Guide <displays-calibration>`.

    Use :meth:`from_estimator` or :meth:`from_predictions` to build it.

    Parameters
    ----------
    curves : dict
        ``{segment: curve}`` (the one key None without segments), each curve
        a dict with the arrays ``prob_true``, ``prob_pred`` and ``weights``
        of its non-empty bins and the floats ``pcoc`` and ``ece``; with a
        band also ``prob_true_low`` and ``prob_true_high``.
    name : str, default=None
        Name of the model in the legend.
    pos_label : int, float, bool or str, default=None
        The positive class, shown in the axis labels if not None.
    confidence : float, default=None
        Confidence level of the bands, if the curves have them.
    weighted : bool, default=False
        Whether the bins' weights are sums of sample weights (the panel
        then says "Weight per bin", else "Rows per bin").

    Attributes
    ----------
    curves_ : dict
        The ``curves`` parameter: per segment, ``prob_true``, ``prob_pred``,
        ``weights`` (the bins' total weights), ``bins`` (their indices),
        ``edges``, ``pcoc`` and ``ece`` (and the band's ``prob_true_low``
        and ``prob_true_high``).
    lines_ : dict of matplotlib Line2D
        The curve of each segment: its bins of weight at least
        ``min_count``, joined.
    line_ : matplotlib Line2D
        The first curve (the only one without segments).
    sparse_points_ : dict of matplotlib Line2D
        The hollow markers of each segment's bins lighter than
        ``min_count`` (not in the legend).
    hist_ax_ : matplotlib Axes or None
        The panel under the curves with the weight of every bin (None with
        ``hist=False``).
    hist_steps_ : dict of matplotlib StepPatch
        The steps of each segment in the panel: the weight of each bin over
        the bin edges.
    bands_ : dict of matplotlib PolyCollection
        The band of each segment; empty without bands.
    ref_line_ : matplotlib Line2D or None
        The diagonal of perfect calibration.
    ax_ : matplotlib Axes
        Axes with the curves.
    figure_ : matplotlib Figure
        Figure containing the curves.

    See Also
    --------
    sklearn.calibration.CalibrationDisplay : The unweighted display of one
        model.
    sklearn.calibration.calibration_curve : The curve without weights.

    Notes
    -----
    **Bins.**  As :func:`~sklearn.calibration.calibration_curve` (scikit-learn
    1.9): ``strategy="uniform"`` edges ``np.linspace(0, 1, n_bins + 1)``,
    ``"quantile"`` edges at the quantiles of the segment's probabilities
    (weighted percentiles with weights: the weighted form of NumPy's linear
    rule, equal to ``np.percentile`` with equal weights); a probability on an
    inner edge joins the lower bin.  With ``W_b`` the weight of bin ``b``,
    ``SP_b`` and ``SY_b`` the weighted sums of the probabilities and
    outcomes, the point of the bin is ``(SP_b / W_b, SY_b / W_b)``.

    **Legend.**  ``PCOC = sum_b SP_b / sum_b SY_b`` (1 is calibrated, above 1
    over-predicts) and ``ECE = sum_b |SP_b - SY_b| / sum_b W_b`` (the
    weight-averaged distance of the points to the diagonal).  Up to 4
    entries the legend lies inside the axes where it hides least
    (``loc="best"``); with more (many segments) it lies outside on the
    right, and a figure made by the display is widened for it.
    ``legend_kw`` places it anywhere.

    **Light bins and counts.**  A bin's fraction of positives swings with a
    row or two when it holds few rows: bins of weight below ``min_count``
    are hollow markers, off the line, and the panel under the curves shows
    every bin's weight (a log scale when they span more than two decades),
    with ``min_count`` dotted.

    **Zoom.**  When every point (and band) lies below 0.5, as the quantile
    bins of a low click-through rate do, both axes run from 0 to a round
    value just above the largest one, the diagonal kept; otherwise from 0
    to 1.

    **Band.**  With ``confidence`` and ``groups``, the segment's groups are
    drawn with replacement ``n_resamples`` times; each resample recomputes
    every bin's fraction of positives from the drawn groups' rows, and the
    band is the percentile interval of those values (resamples without
    weight in a bin are left out of its interval).  The bins stay those of
    all the rows.

    References
    ----------
    .. [1] A. Niculescu-Mizil and R. Caruana, "Predicting good probabilities
       with supervised learning", ICML 2005 (reliability diagrams).
    .. [2] X. He et al., "Practical lessons from predicting clicks on ads at
       Facebook", ADKDD 2014 (calibration as predicted over observed clicks).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import CalibrationCurveDisplay
    >>> # four impressions of a new user and four of a returning one
    >>> y_true = [0, 1, 0, 1, 0, 0, 1, 1]
    >>> y_prob = [0.1, 0.3, 0.6, 0.9, 0.2, 0.2, 0.7, 0.8]
    >>> segments = ["new"] * 4 + ["returning"] * 4
    >>> disp = CalibrationCurveDisplay.from_predictions(
    ...     y_true, y_prob, segments=segments, n_bins=2)
    >>> disp.curves_["new"]["prob_true"].tolist()
    [0.5, 0.5]
    >>> disp.curves_["new"]["prob_pred"].round(4).tolist()
    [0.2, 0.75]
    >>> [line.get_label() for line in disp.lines_.values()]
    ['new (PCOC = 0.9500, ECE = 0.2750)', 'returning (PCOC = 0.9500, ECE = 0.2250)']
    >>> plt.close("all")
    """

    def __init__(self, *, curves, name=None, pos_label=None, confidence=None,
                 weighted=False):
        self.curves_ = curves
        self.name = name
        self.pos_label = pos_label
        self.confidence = confidence
        self.weighted = weighted

    def plot(self, ax=None, *, name=None, curve_kwargs=None, band_kw=None,
             ref_line=True, ref_line_kw=None, min_count=10, hist=True,
             hist_kw=None, legend_kw=None):
        """Plot the curves.

        Draws each segment's curve (``lines_``, labelled with its PCOC and
        ECE; bins lighter than ``min_count`` as hollow markers,
        ``sparse_points_``), its band if it has one (``bands_``), the
        diagonal and, with ``hist``, the weight of every bin in a panel
        below (``hist_ax_``); then sets the axis labels, the limits (0-1, or
        zoomed to the points when all lie below 0.5) and the legend.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Name of the model in the legend; None: ``self.name``.
        curve_kwargs : dict or list of dict, default=None
            Keyword arguments of matplotlib's ``plot`` for every curve, or
            one dict per curve (in segment order).
        band_kw : dict, default=None
            Keyword arguments of matplotlib's ``fill_between`` for the bands.
        ref_line : bool, default=True
            Whether to draw the diagonal of perfect calibration.
        ref_line_kw : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the diagonal.
        min_count : float, default=10
            Bins whose weight (their number of rows, without
            ``sample_weight``) is below ``min_count`` are drawn as hollow
            markers, not joined to the curve.  0: every bin joined.
        hist : bool, default=True
            Whether to draw the panel of the bins' weights under the curves
            (once per axes: a second display on the same axes adds its
            steps to it).
        hist_kw : dict, default=None
            Keyword arguments of matplotlib's ``stairs`` for the panel.
        legend_kw : dict, default=None
            Keyword arguments of matplotlib's ``legend``, over the defaults:
            ``loc="best"`` for up to 4 entries, outside on the right for
            more.

        Returns
        -------
        display : CalibrationCurveDisplay
            The display, with ``lines_``, ``line_``, ``sparse_points_``,
            ``bands_``, ``ref_line_``, ``hist_ax_``, ``hist_steps_``,
            ``ax_`` and ``figure_`` set.

        See Also
        --------
        CalibrationCurveDisplay.from_predictions : Compute and plot.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import CalibrationCurveDisplay
        >>> curve = {"prob_true": [0.1, 0.5], "prob_pred": [0.2, 0.6],
        ...          "weights": [30.0, 4.0], "bins": [0, 1],
        ...          "edges": [0.0, 0.5, 1.0], "pcoc": 1.5, "ece": 0.1}
        >>> disp = CalibrationCurveDisplay(curves={None: curve}, name="model")
        >>> disp.plot().line_.get_label()
        'model (PCOC = 1.5000, ECE = 0.1000)'
        >>> # the bin of 4 rows is a hollow marker off the line
        >>> disp.line_.get_xdata().tolist()
        [0.2]
        >>> disp.sparse_points_[None].get_xdata().tolist()
        [0.6]
        >>> disp.ref_line_.get_label()
        'Perfectly calibrated'
        >>> plt.close("all")
        """
        if min_count is None or not (isinstance(min_count, (int, float, np.number))
                                     and min_count >= 0):
            raise ValueError(f"min_count must be a number >= 0, got {min_count!r}.")
        if ax is None:  # room for the panel, and for a legend outside
            plt = import_pyplot(f"{type(self).__name__}.plot")
            outside = len(self.curves_) + bool(ref_line) > _LEGEND_INSIDE_MAX
            _, ax = plt.subplots(figsize=(9.6 if outside else 6.4,
                                          6.4 if hist else 4.8),
                                 layout="constrained")
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        state = _AXES_STATE.setdefault(self.ax_, {"upper": 0.0, "hist_ax": None})
        per_curve = _kwargs_per_curve(curve_kwargs, len(self.curves_))
        self.ref_line_ = draw_diagonal(self.ax_, _REF_LABEL, ref_line, ref_line_kw)

        self.lines_, self.sparse_points_, self.bands_ = {}, {}, {}
        for (segment, curve), kwargs in zip(self.curves_.items(), per_curve):
            self._draw_curve(segment, curve, name, kwargs, band_kw, min_count)
        self.line_ = next(iter(self.lines_.values()), None)
        state["upper"] = max(state["upper"], self._largest_value())

        pos_label = _positive_label(self.pos_label)
        ylabel = axis_label("Fraction of positives", pos_label)
        if self.bands_ and self.confidence is not None:
            ylabel += f"\n(bands: {self.confidence:.0%} bootstrap over groups)"
        xlabel = axis_label("Mean predicted probability", pos_label)
        upper = (_nice_upper(1.05 * state["upper"])
                 if 0 < state["upper"] < _ZOOM_BELOW else 1.0)
        limits = (-0.01 * upper, 1.01 * upper)
        self.ax_.set(xlabel=xlabel, ylabel=ylabel, xlim=limits, ylim=limits)
        if not hist:  # with the panel, the axes keep the grid's shape
            self.ax_.set_aspect("equal")
        self.hist_ax_, self.hist_steps_ = None, {}
        if hist:
            self._draw_panel(state, xlabel, hist_kw, min_count)
        self._legend(legend_kw)
        return self

    def _draw_curve(self, segment, curve, name, kwargs, band_kw, min_count):
        """One segment's line, hollow markers of its light bins, its band."""
        line_kw = validate_style_kwargs(
            {"label": _curve_label(name, segment, curve), "marker": "s",
             "markersize": 4},
            kwargs, "curve_kwargs",
        )
        x = np.asarray(curve["prob_pred"], dtype=np.float64)
        y = np.asarray(curve["prob_true"], dtype=np.float64)
        heavy = np.asarray(curve["weights"], dtype=np.float64) >= min_count
        (line,) = self.ax_.plot(x[heavy], y[heavy], **line_kw)
        self.lines_[segment] = line
        sparse_kw = {key: value for key, value in line_kw.items()
                     if key in ("marker", "markersize", "markeredgewidth")}
        (self.sparse_points_[segment],) = self.ax_.plot(
            x[~heavy], y[~heavy], linestyle="none", color=line.get_color(),
            markerfacecolor="none", label=f"_{line.get_label()} (light bins)",
            **sparse_kw)
        if curve.get("prob_true_low") is not None:
            band_defaults = {"color": line.get_color(), "alpha": 0.2,
                             "linewidth": 0}
            low = np.asarray(curve["prob_true_low"], dtype=np.float64)
            high = np.asarray(curve["prob_true_high"], dtype=np.float64)
            self.bands_[segment] = self.ax_.fill_between(
                x, low, high,
                **validate_style_kwargs(band_defaults, band_kw, "band_kw"),
            )

    def _largest_value(self):
        """The largest coordinate of the points and bands drawn."""
        values = [0.0]
        for curve in self.curves_.values():
            for key in ("prob_pred", "prob_true", "prob_true_high"):
                if curve.get(key) is not None and len(curve[key]):
                    values.append(float(np.nanmax(curve[key])))
        return max(values)

    def _draw_panel(self, state, xlabel, hist_kw, min_count):
        """The weight of every bin, per segment, in a panel under the axes."""
        panel = state["hist_ax"]
        if panel is None:
            panel = state["hist_ax"] = _panel_under(self.ax_)
            panel.set_ylabel("Weight per bin" if self.weighted else
                             "Rows per bin")
        self.hist_ax_ = panel
        self.ax_.set_xlabel("")
        self.ax_.tick_params(labelbottom=False)
        panel.set_xlabel(xlabel)
        for segment, curve in self.curves_.items():
            edges = np.asarray(curve["edges"], dtype=np.float64)
            weights = np.zeros(edges.shape[0] - 1)
            weights[np.asarray(curve["bins"], dtype=np.int64)] = curve["weights"]
            kw = validate_style_kwargs(
                {"color": self.lines_[segment].get_color(), "linewidth": 1.2},
                hist_kw, "hist_kw")
            self.hist_steps_[segment] = panel.stairs(weights, edges, **kw)
        if min_count > 0 and min_count not in state.setdefault("min_counts", []):
            state["min_counts"].append(min_count)  # once per panel
            unit = "weight" if self.weighted else "rows"
            panel.axhline(min_count, color="0.5", linestyle=":", linewidth=1,
                          label=f"min_count = {min_count:g} {unit}: lighter "
                                "bins hollow, off the curve")
            panel.legend(loc="lower left", fontsize="small", frameon=False,
                         borderaxespad=0.2)
        drawn = np.concatenate([np.asarray(c["weights"], dtype=np.float64)
                                for c in self.curves_.values()])
        drawn = drawn[drawn > 0]
        if drawn.size and drawn.max() > _LOG_SPAN * drawn.min():
            panel.set_yscale("log")
        self.figure_.align_ylabels([self.ax_, panel])

    def _legend(self, legend_kw):
        handles, labels = self.ax_.get_legend_handles_labels()
        if not labels:
            return
        defaults = ({"loc": "best"} if len(labels) <= _LEGEND_INSIDE_MAX else
                    {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0),
                     "borderaxespad": 0.0})
        self.ax_.legend(**validate_style_kwargs(defaults, legend_kw, "legend_kw"))

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, segments=None, sample_weight=None,
                       n_bins=10, strategy="uniform", groups=None,
                       confidence=None, n_resamples=1000, random_state=None,
                       pos_label=None, name=None, ax=None, curve_kwargs=None,
                       band_kw=None, ref_line=True, ref_line_kw=None,
                       min_count=10, hist=True, hist_kw=None, legend_kw=None):
        """Plot the reliability curves of an estimator's probabilities.

        A classifier (binary) gives ``predict_proba``'s column of
        ``pos_label``; any other estimator's ``predict`` is taken as the
        probability (it must lie in [0, 1]).  The probabilities are handed
        to :meth:`from_predictions`.

        Parameters
        ----------
        %(estimator)s
        %(X)s
        %(y_calibration)s
        %(segments)s
        %(sample_weight_calibration)s
        %(n_bins)s
        %(strategy)s
        %(groups_band)s
        %(confidence)s
        %(n_resamples)s
        %(random_state)s
        %(pos_label_estimator)s
        %(name)s
        %(ax)s
        %(curve_kwargs_calibration)s
        %(band_kw)s
        %(ref_line)s
        %(ref_line_kw)s
        %(min_count)s
        %(hist)s
        %(hist_kw)s
        %(legend_kw)s

        Returns
        -------
        display : CalibrationCurveDisplay
            The display, plotted.

        See Also
        --------
        CalibrationCurveDisplay.from_predictions : From probabilities.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import CalibrationCurveDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, groups = make_click_log(n_users=30, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = CalibrationCurveDisplay.from_estimator(clf, X, y, n_bins=5)
        >>> disp.line_.get_label().startswith("LogisticRegression (PCOC = ")
        True
        >>> plt.close("all")
        """
        response_method = "predict_proba" if is_classifier(estimator) else "predict"
        y_prob, pos_label, name = cls._get_response_values(
            estimator, X, response_method=response_method, pos_label=pos_label,
            name=name,
        )
        return cls.from_predictions(
            y, y_prob, segments=segments, sample_weight=sample_weight,
            n_bins=n_bins, strategy=strategy, groups=groups, confidence=confidence,
            n_resamples=n_resamples, random_state=random_state,
            pos_label=pos_label, name=name, ax=ax, curve_kwargs=curve_kwargs,
            band_kw=band_kw, ref_line=ref_line, ref_line_kw=ref_line_kw,
            min_count=min_count, hist=hist, hist_kw=hist_kw, legend_kw=legend_kw,
        )

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_prob, *, segments=None, sample_weight=None,
                         n_bins=10, strategy="uniform", groups=None,
                         confidence=None, n_resamples=1000, random_state=None,
                         pos_label=None, name=None, ax=None, curve_kwargs=None,
                         band_kw=None, ref_line=True, ref_line_kw=None,
                         min_count=10, hist=True, hist_kw=None, legend_kw=None):
        """Plot the reliability curves of predicted probabilities.

        One curve per segment (or of all rows), with the segment's PCOC and
        ECE in the legend and, with ``confidence``, a bootstrap band over
        ``groups``.

        Parameters
        ----------
        %(y_true_calibration)s
        %(y_prob)s
        %(segments)s
        %(sample_weight_calibration)s
        %(n_bins)s
        %(strategy)s
        %(groups_band)s
        %(confidence)s
        %(n_resamples)s
        %(random_state)s
        %(pos_label_calibration)s
        %(name)s
        %(ax)s
        %(curve_kwargs_calibration)s
        %(band_kw)s
        %(ref_line)s
        %(ref_line_kw)s
        %(min_count)s
        %(hist)s
        %(hist_kw)s
        %(legend_kw)s

        Returns
        -------
        display : CalibrationCurveDisplay
            The display, plotted.

        See Also
        --------
        CalibrationCurveDisplay.from_estimator : From an estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import CalibrationCurveDisplay
        >>> # without weights: sklearn.calibration.calibration_curve's points
        >>> y_true = [0, 0, 0, 0, 1, 1, 1, 1, 1]
        >>> y_prob = [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]
        >>> disp = CalibrationCurveDisplay.from_predictions(
        ...     y_true, y_prob, n_bins=3, name="model")
        >>> disp.curves_[None]["prob_true"].tolist()
        [0.0, 0.5, 1.0]
        >>> # weighted: the second row counts three times
        >>> disp = CalibrationCurveDisplay.from_predictions(
        ...     y_true, y_prob, n_bins=3, sample_weight=[1, 3, 1, 1, 1, 1, 1, 1, 1])
        >>> disp.curves_[None]["prob_pred"].round(4).tolist()
        [0.2, 0.525, 0.85]
        >>> disp.curves_[None]["weights"].tolist()
        [5.0, 2.0, 4.0]
        >>> plt.close("all")
        """
        import_pyplot(f"{cls.__name__}.from_predictions")
        order = _category_order(segments)  # before the copy to NumPy
        # the display computes on the host: Array API inputs are copied there
        y_true, y_prob, segments, groups, sample_weight = (
            to_numpy(a) for a in (y_true, y_prob, segments, groups, sample_weight))
        curves = reliability_curves(
            y_true, y_prob, segments=segments, sample_weight=sample_weight,
            n_bins=n_bins, strategy=strategy, pos_label=pos_label, groups=groups,
            confidence=confidence, n_resamples=n_resamples,
            random_state=random_state,
        )
        if order is not None:
            curves = {label: curves[label] for label in order if label in curves}
        display = cls(curves=curves, name=name, pos_label=pos_label,
                      confidence=confidence, weighted=sample_weight is not None)
        return display.plot(ax=ax, curve_kwargs=curve_kwargs, band_kw=band_kw,
                            ref_line=ref_line, ref_line_kw=ref_line_kw,
                            min_count=min_count, hist=hist, hist_kw=hist_kw,
                            legend_kw=legend_kw)
