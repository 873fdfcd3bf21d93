"""The histogram of a metric's per-group (per-user, per-query) values."""

from numbers import Integral

import numpy as np

from .._reports import group_label, per_group_scores, ranking_report
from ._base import (
    RankingCurveDisplayMixin,
    import_pyplot,
    legend_label,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["PerGroupHistogramDisplay"]

#: The bins of a metric whose every value lies in [0, 1]: the same edges for
#: every model drawn on one axes.
_UNIT_RANGE = (0.0, 1.0)

# parameters that from_estimator and from_predictions describe alike
_fill_doc = plot_doc_filler({
    "metric": """\
metric : str, default="ndcg@10"
    The metric, named as :func:`~sklearn_rankeval.get_scorer_names` (or as
    ir_measures writes it): its value in every group, as
    :func:`~sklearn_rankeval.per_group_scores` gives it.""",
    "groups_hist": """\
groups : array-like of shape (n_samples,), default=None
    Id of the query (user, session) of each row; a named pandas or polars
    Series names the axes (``log["user"]``: "users").  None: all rows form
    one group (2-D input: one group per row).""",
    "sample_weight_hist": """\
sample_weight : array-like of shape (n_samples,), default=None
    As in the metric's function: the per-group values and the average (the
    vertical line) are the weighted ones.  The histogram counts groups.""",
    "bins": """\
bins : int, array-like or str, default=20
    Number of bins, their edges, or a rule of
    :func:`numpy.histogram_bin_edges` (``"auto"``, ``"fd"``, ...).  With a
    number or a rule, the bins span [0, 1] when every value lies there (so
    that two models on one axes share the edges), else the values' range.""",
    "hist_kw": """\
hist_kw : dict, default=None
    Keyword arguments of matplotlib's ``stairs`` for the histogram.""",
    "mean_line": """\
mean_line : bool, default=True
    Whether to draw the vertical line at the metric's value.""",
    "mean_line_kw": """\
mean_line_kw : dict, default=None
    Keyword arguments of matplotlib's ``axvline`` for the line at the
    metric's value.""",
})


#: numpy.histogram_bin_edges' rules for the number of bins
_BIN_RULES = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _check_bins(bins):
    if isinstance(bins, str):
        if bins not in _BIN_RULES:
            raise ValueError(f"bins must be a positive integer, edges or one of "
                             f"{', '.join(_BIN_RULES)}; got {bins!r}.")
        return bins
    if isinstance(bins, Integral) and not isinstance(bins, bool):
        if bins < 1:
            raise ValueError(f"bins must be a positive integer or edges, got {bins}.")
        return int(bins)
    try:
        edges = np.asarray(bins, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("bins must be a positive integer or an array of "
                        f"edges, got {type(bins).__name__}.") from None
    if edges.ndim != 1 or edges.size < 2 or not np.all(np.isfinite(edges)) \
            or np.any(np.diff(edges) <= 0):
        raise ValueError("bins must be a positive integer or at least two "
                         "finite, strictly increasing edges.")
    return edges


def _histogram(values, bins):
    """``(counts, edges)`` of the finite ``values``."""
    bins = _check_bins(bins)
    if isinstance(bins, np.ndarray):
        return np.histogram(values, bins=bins)
    if values.size == 0 or (values.min() >= 0 and values.max() <= 1):
        span = _UNIT_RANGE
    elif values.min() == values.max():
        span = (values.min() - 0.5, values.max() + 0.5)
    else:
        span = (values.min(), values.max())
    return np.histogram(values, bins=bins, range=span)


class PerGroupHistogramDisplay(RankingCurveDisplayMixin):
    """Histogram of a metric's value in every group (user, query).

    An average hides how the groups spread: a mean NDCG\\@10 of 0.5 may be
    every user at 0.5, or half the users at 1 and half at 0.  The display
    draws how many groups have each value of the metric, with a vertical
    line at the metric's value (its own average, as the metric function
    returns it: e.g. GAUC weighted by group size).  Groups where the metric
    is undefined (no relevant item) are left out and counted in
    ``n_undefined``.

    Read more in the :ref:`User Guide <displays-per-group-histogram>`.

    Use :meth:`from_estimator` or :meth:`from_predictions` to build it; all
    parameters are stored as attributes.

    Parameters
    ----------
    values : ndarray of shape (n_defined,)
        The metric's value in each group where it is defined.
    metric : str
        The metric's name (the x axis).
    average : float, default=None
        The metric's value over all groups (the vertical line; None: none).
    n_undefined : int, default=0
        Groups where the metric is undefined, left out of ``values``.
    unit : str, default="group"
        What a group is, for the axis labels ("user" for ``groups`` named
        ``user``).
    bins : int, array-like or str, default=20
        Number of bins, their edges or a rule of
        :func:`numpy.histogram_bin_edges` (see :meth:`from_predictions`).
    name : str, default=None
        Name of the model in the legend.

    Attributes
    ----------
    counts : ndarray of shape (n_bins,)
        Number of groups in each bin (``numpy.histogram`` of ``values``).
    edges : ndarray of shape (n_bins + 1,)
        The bins' edges.
    hist_ : matplotlib StepPatch
        The histogram.
    line_ : matplotlib Line2D or None
        The vertical line at ``average``.
    ax_ : matplotlib Axes
        Axes with the histogram.
    figure_ : matplotlib Figure
        Figure containing the histogram.

    See Also
    --------
    per_group_scores : The per-group values as a DataFrame.
    GroupedRocCurveDisplay : The spread of the groups' ROC curves.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> from sklearn_rankeval import PerGroupHistogramDisplay
    >>> log = pd.DataFrame({
    ...     "user":    ["ann", "ann", "bob", "bob", "cid", "cid", "dan", "dan"],
    ...     "clicked": [1, 0, 0, 1, 1, 0, 0, 0],
    ...     "score":   [0.9, 0.2, 0.8, 0.3, 0.7, 0.1, 0.5, 0.4],
    ... })
    >>> # MRR per user: ann and cid 1, bob 1/2; dan clicked nothing
    >>> disp = PerGroupHistogramDisplay.from_predictions(
    ...     log["clicked"], log["score"], groups=log["user"], metric="mrr",
    ...     bins=4, name="model")
    >>> disp.counts.tolist(), disp.n_undefined
    ([0, 0, 1, 2], 1)
    >>> disp.hist_.get_label(), disp.ax_.get_xlabel()
    ('model (mrr = 0.8333)', 'mrr of each user (1 user without a value left out)')
    >>> plt.close("all")
    """

    def __init__(self, *, values, metric, average=None, n_undefined=0,
                 unit="group", bins=20, name=None):
        self.values = values
        self.metric = metric
        self.average = average
        self.n_undefined = n_undefined
        self.unit = unit
        self.bins = bins
        self.name = name

    def plot(self, ax=None, *, name=None, hist_kw=None, mean_line=True,
             mean_line_kw=None):
        """Plot the histogram.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on, e.g. one that shows another model's histogram.
            None: a new figure and axes.
        name : str, default=None
            Name of the model in the legend; None: ``self.name``.
        hist_kw : dict, default=None
            Keyword arguments of matplotlib's ``stairs`` for the histogram.
        mean_line : bool, default=True
            Whether to draw the vertical line at ``average``.
        mean_line_kw : dict, default=None
            Keyword arguments of matplotlib's ``axvline`` for that line.

        Returns
        -------
        display : PerGroupHistogramDisplay
            The display, with ``counts``, ``edges``, ``hist_``, ``line_``,
            ``ax_`` and ``figure_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import PerGroupHistogramDisplay
        >>> disp = PerGroupHistogramDisplay(values=[0.2, 0.9, 1.0],
        ...                                 metric="ndcg@10", bins=2)
        >>> disp.plot(mean_line=False).counts.tolist()
        [1, 2]
        >>> disp.line_ is None
        True
        >>> plt.close("all")
        """
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        values = np.asarray(self.values, dtype=np.float64)
        values = values[np.isfinite(values)]
        self.counts, self.edges = _histogram(values, self.bins)
        label = legend_label(name, self.metric, self.average)
        from matplotlib.colors import to_rgba

        hist = validate_style_kwargs(
            {"fill": True, "linewidth": 1.5, "label": label}, hist_kw, "hist_kw")
        # the axes' next colour (or the user's): the outline in it, the
        # inside light, so that two models' histograms show through
        color = hist.pop("color", None) or self.ax_._get_lines.get_next_color()
        hist.setdefault("edgecolor", color)
        hist.setdefault("facecolor", to_rgba(color, 0.3))
        # color= given: stairs takes no colour of its own from the cycle
        self.hist_ = self.ax_.stairs(self.counts, self.edges, color=color, **hist)
        self.line_ = None
        if mean_line and self.average is not None and np.isfinite(self.average):
            line = validate_style_kwargs(
                {"color": color, "linestyle": "--", "linewidth": 1.5,
                 "label": f"_{self.metric} of {name}"},
                mean_line_kw, "mean_line_kw")
            self.line_ = self.ax_.axvline(self.average, **line)
        xlabel = f"{self.metric} of each {self.unit}"
        if self.n_undefined:
            units = self.unit if self.n_undefined == 1 else f"{self.unit}s"
            xlabel += f" ({self.n_undefined} {units} without a value left out)"
        self.ax_.set(xlabel=xlabel, ylabel=f"{self.unit}s".capitalize())
        _, labels = self.ax_.get_legend_handles_labels()
        if labels:
            self.ax_.legend(loc="best")
        return self

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, groups=None, metric="ndcg@10",
                       sample_weight=None, response_method="auto",
                       pos_label=None, bins=20, name=None, ax=None, hist_kw=None,
                       mean_line=True, mean_line_kw=None):
        """Plot the per-group histogram of a metric of an estimator's scores.

        Parameters
        ----------
        %(estimator)s
        %(X)s
        %(y)s
        %(groups_hist)s
        %(metric)s
        %(sample_weight_hist)s
        %(response_method)s
        %(pos_label_estimator)s
        %(bins)s
        %(name)s
        %(ax)s
        %(hist_kw)s
        %(mean_line)s
        %(mean_line_kw)s

        Returns
        -------
        display : PerGroupHistogramDisplay
            The display, plotted.

        See Also
        --------
        PerGroupHistogramDisplay.from_predictions : From scores.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import PerGroupHistogramDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(n_users=50, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = PerGroupHistogramDisplay.from_estimator(
        ...     clf, X, y, groups=users, metric="gauc")
        >>> int(disp.counts.sum() + disp.n_undefined)
        50
        >>> plt.close("all")
        """
        y_score, pos_label, name = cls._get_response_values(
            estimator, X, response_method=response_method, pos_label=pos_label,
            name=name)
        return cls.from_predictions(
            y, y_score, groups=groups, metric=metric, sample_weight=sample_weight,
            pos_label=pos_label, bins=bins, name=name, ax=ax, hist_kw=hist_kw,
            mean_line=mean_line, mean_line_kw=mean_line_kw)

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_score, *, groups=None, metric="ndcg@10",
                         sample_weight=None, pos_label=None, bins=20, name=None,
                         ax=None, hist_kw=None, mean_line=True,
                         mean_line_kw=None):
        """Plot the per-group histogram of a metric of scores.

        Parameters
        ----------
        %(y_true)s
        %(y_score)s
        %(groups_hist)s
        %(metric)s
        %(sample_weight_hist)s
        %(pos_label)s
        %(bins)s
        %(name)s
        %(ax)s
        %(hist_kw)s
        %(mean_line)s
        %(mean_line_kw)s

        Returns
        -------
        display : PerGroupHistogramDisplay
            The display, plotted.

        See Also
        --------
        PerGroupHistogramDisplay.from_estimator : From an estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import PerGroupHistogramDisplay
        >>> # three queries: NDCG@2 of 1, 1 / log2(3) = 0.6309 and 1
        >>> disp = PerGroupHistogramDisplay.from_predictions(
        ...     [1, 0, 0, 1, 1, 0], [0.9, 0.1, 0.8, 0.2, 0.7, 0.6],
        ...     groups=[1, 1, 2, 2, 3, 3], metric="ndcg@2", bins=5)
        >>> disp.counts.tolist()
        [0, 0, 0, 1, 2]
        >>> round(disp.average, 4)
        0.877
        >>> plt.close("all")
        """
        import_pyplot(f"{cls.__name__}.from_predictions")
        _check_bins(bins)
        y_true = cls._relevance(y_true, y_score, pos_label)
        frame = per_group_scores(y_true, y_score, groups=groups, metrics=[metric],
                                 sample_weight=sample_weight, output="dict")
        column = np.asarray(frame[list(frame)[-1]], dtype=np.float64)
        defined = np.isfinite(column)
        average = None
        if defined.any():
            report = ranking_report(y_true, y_score, groups=groups,
                                    metrics=[metric], sample_weight=sample_weight,
                                    output="dict")
            average = float(next(iter(report.values())))
        unit = group_label(groups, set())
        display = cls(values=column[defined], metric=metric, average=average,
                      n_undefined=int((~defined).sum()), unit=unit, bins=bins,
                      name=name)
        return display.plot(ax=ax, hist_kw=hist_kw, mean_line=mean_line,
                            mean_line_kw=mean_line_kw)
