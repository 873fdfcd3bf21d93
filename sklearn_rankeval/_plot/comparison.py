"""Forest plot of the differences between models, from ``compare_rankings``."""

from collections.abc import Mapping

import numpy as np

from .._reports import compare_rankings
from ._base import (
    RankingCurveDisplayMixin,
    import_pyplot,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["RankingComparisonDisplay"]

# parameters that from_predictions and from_estimator describe alike
_fill_doc = plot_doc_filler({
    "test": """\
test : {'permutation', 't', 'wilcoxon'}, default='permutation'
    The paired test of the p-values.""",
    "n_resamples": """\
n_resamples : int, default=10000
    Bootstrap resamples (and random flips of the permutation test).""",
    "name_title": """\
name : str, default=None
    Title of the axes; None: no title.""",
    "errorbar_kw": """\
errorbar_kw : dict, default=None
    Keyword arguments of matplotlib's ``errorbar`` for the intervals.""",
    "marker_kw": """\
marker_kw : dict, default=None
    Keyword arguments of matplotlib's ``scatter`` for the differences.""",
    "zero_line_kw": """\
zero_line_kw : dict, default=None
    Keyword arguments of matplotlib's ``axvline`` for the line at 0.""",
})


def _below_x_label(ax):
    """The axes' coordinates moved down by the height of the x tick labels
    and the x label: ``(0.5, 0)`` in it is just under the label."""
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties
    from matplotlib.transforms import offset_copy

    rc = mpl.rcParams

    def points(size):
        return FontProperties(size=size).get_size_in_points()

    drop = (rc["xtick.major.size"] + rc["xtick.major.pad"]
            + 1.2 * points(rc["xtick.labelsize"]) + rc["axes.labelpad"]
            + 1.2 * ax.xaxis.label.get_size() + 6)
    return offset_copy(ax.transAxes, fig=ax.figure, y=-drop, units="points")


class RankingComparisonDisplay(RankingCurveDisplayMixin):
    """Differences to a baseline model with their intervals (a forest plot).

    One row per (metric, model): the model's metric minus the baseline's
    (a marker) with its paired bootstrap interval (a horizontal bar), the
    numbers of :func:`~sklearn_rankeval.compare_rankings`.  A vertical line
    marks no difference.  A difference whose adjusted p-value is below
    ``1 - confidence`` is drawn as a filled marker, any other as an open one.
    Each model has its colour; the metrics are listed from top to bottom.

    Read more in the :ref:`User Guide <uncertainty-display>`.

    Use :meth:`from_predictions` or :meth:`from_estimator` to build it; all
    parameters are stored as attributes.

    Parameters
    ----------
    metrics : list of str
        The metrics, top to bottom.
    models : list of str
        The models compared with the baseline (the baseline excluded).
    diff : ndarray of shape (n_metrics, n_models)
        ``value(model) - value(baseline)``.
    ci_low : ndarray of shape (n_metrics, n_models)
        Lower end of the bootstrap interval of each difference.
    ci_high : ndarray of shape (n_metrics, n_models)
        Upper end of the bootstrap interval of each difference.
    p_adjusted : ndarray of shape (n_metrics, n_models)
        The p-values adjusted for multiple comparisons (NaN: no test).
    baseline : str
        The baseline model.
    confidence : float, default=0.95
        Level of the intervals; a difference is marked significant when its
        ``p_adjusted < 1 - confidence``.
    test : str, default=None
        The test behind the p-values, for the legend (e.g. ``'permutation'``).
    correction : str, default=None
        The correction of the p-values, for the legend (e.g. ``'holm'``).
    name : str, default=None
        Title of the axes; None: no title.

    Attributes
    ----------
    significant_ : ndarray of bool, shape (n_metrics, n_models)
        ``p_adjusted < 1 - confidence`` (False where NaN).
    errorbars_ : dict of {str: matplotlib ErrorbarContainer}
        The intervals of each model (one bar per metric).
    points_ : dict of {str: matplotlib PathCollection}
        The differences of each model (one marker per metric; filled where
        significant).
    zero_line_ : matplotlib Line2D
        The vertical line at 0.
    ax_ : matplotlib Axes
        Axes with the plot.
    figure_ : matplotlib Figure
        Figure containing the plot.

    See Also
    --------
    sklearn_rankeval.compare_rankings : The numbers drawn here, as a table.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import RankingComparisonDisplay
    >>> y_true = [1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1]
    >>> groups = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    >>> scores = {"A": [3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1],
    ...           "B": [3, 2, 1, 1, 3, 2, 3, 2, 1, 1, 2, 3]}
    >>> disp = RankingComparisonDisplay.from_predictions(
    ...     y_true, scores, groups=groups, metrics=["mrr", "ndcg"],
    ...     random_state=0)
    >>> disp.diff.round(4).tolist()
    [[0.2917], [0.2173]]
    >>> disp.significant_.tolist()  # 4 queries: no test can be significant
    [[False], [False]]
    >>> plt.close("all")
    """

    def __init__(self, *, metrics, models, diff, ci_low, ci_high, p_adjusted,
                 baseline, confidence=0.95, test=None, correction=None, name=None):
        self.metrics = metrics
        self.models = models
        self.diff = diff
        self.ci_low = ci_low
        self.ci_high = ci_high
        self.p_adjusted = p_adjusted
        self.baseline = baseline
        self.confidence = confidence
        self.test = test
        self.correction = correction
        self.name = name

    def _positions(self):
        """y of each (metric, model): metrics top to bottom, a gap between."""
        n_metrics, n_models = len(self.metrics), len(self.models)
        step = n_models + 1 if n_models > 1 else 1
        return (np.arange(n_metrics)[:, None] * step
                + np.arange(n_models)[None, :]).astype(float)

    def plot(self, ax=None, *, name=None, errorbar_kw=None, marker_kw=None,
             zero_line_kw=None, legend_kw=None):
        """Plot the differences and their intervals.

        Draws, for each model, its intervals (``errorbars_[model]``) and its
        differences (``points_[model]``, filled where significant), the line
        at 0 (``zero_line_``), the metric names on the y axis and a legend of
        the models and of the markers.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Title of the axes; None: ``self.name`` (no title when None).
        errorbar_kw : dict, default=None
            Keyword arguments of matplotlib's ``errorbar`` for the intervals
            (applied to every model).
        marker_kw : dict, default=None
            Keyword arguments of matplotlib's ``scatter`` for the differences.
        zero_line_kw : dict, default=None
            Keyword arguments of matplotlib's ``axvline`` for the line at 0.
        legend_kw : dict, default=None
            Keyword arguments of matplotlib's ``legend``; by default the
            legend is outside the axes, under the x label, in up to three
            columns, so that it hides no interval and leaves the width to
            the axes (``loc="upper left", bbox_to_anchor=(1.02, 1)`` puts it
            on the right).

        Returns
        -------
        display : RankingComparisonDisplay
            The display, with ``errorbars_``, ``points_``, ``zero_line_``,
            ``significant_``, ``ax_`` and ``figure_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import RankingComparisonDisplay
        >>> disp = RankingComparisonDisplay(
        ...     metrics=["gauc"], models=["B"], diff=[[0.01]], ci_low=[[0.004]],
        ...     ci_high=[[0.016]], p_adjusted=[[0.002]], baseline="A")
        >>> disp.plot().points_["B"].get_offsets().tolist()
        [[0.01, 0.0]]
        >>> disp.significant_.tolist()
        [[True]]
        >>> plt.close("all")
        """
        plt = import_pyplot(f"{type(self).__name__}.plot")
        if ax is None:
            # room for the metric names; taller with more rows
            rows = len(self.metrics) * max(len(self.models), 1)
            _, ax = plt.subplots(figsize=(8.0, min(max(3.0, 1.5 + 0.35 * rows), 12)),
                                 layout="constrained")
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        from matplotlib.lines import Line2D

        diff = np.asarray(self.diff, dtype=np.float64)
        low = np.asarray(self.ci_low, dtype=np.float64)
        high = np.asarray(self.ci_high, dtype=np.float64)
        p_adj = np.asarray(self.p_adjusted, dtype=np.float64)
        shape = (len(self.metrics), len(self.models))
        for what, array in (("diff", diff), ("ci_low", low), ("ci_high", high),
                            ("p_adjusted", p_adj)):
            if array.shape != shape:
                raise ValueError(
                    f"{what} must have shape (n_metrics, n_models) = {shape}, "
                    f"got {array.shape}."
                )
        # 1 - 0.99 is 0.010000000000000009 in floating point: round it
        alpha = round(1.0 - float(self.confidence), 12)
        with np.errstate(invalid="ignore"):
            self.significant_ = np.isfinite(p_adj) & (p_adj < alpha)
        y = self._positions()

        zero_kw = validate_style_kwargs(
            {"color": "0.3", "linestyle": "--", "linewidth": 1, "zorder": 1},
            zero_line_kw, "zero_line_kw")
        self.zero_line_ = self.ax_.axvline(0.0, **zero_kw)

        self.errorbars_, self.points_ = {}, {}
        for j, model in enumerate(self.models):
            color = f"C{j % 10}"
            # NaN ends (no interval) draw no bar
            xerr = np.vstack([diff[:, j] - low[:, j], high[:, j] - diff[:, j]])
            bar_kw = validate_style_kwargs(
                {"fmt": "none", "ecolor": color, "elinewidth": 2, "capsize": 3,
                 "zorder": 2}, errorbar_kw, "errorbar_kw")
            self.errorbars_[model] = self.ax_.errorbar(diff[:, j], y[:, j],
                                                       xerr=xerr, **bar_kw)
            face = np.where(self.significant_[:, j], color, "white").tolist()
            point_kw = validate_style_kwargs(
                {"s": 45, "edgecolors": color, "linewidths": 1.5, "zorder": 3},
                marker_kw, "marker_kw")
            point_kw.setdefault("facecolors", face)
            self.points_[model] = self.ax_.scatter(diff[:, j], y[:, j], **point_kw)

        if len(self.models) > 1:
            ticks = y.mean(axis=1)
        else:
            ticks = y[:, 0]
        self.ax_.set_yticks(ticks, labels=list(self.metrics))
        span = y.max() if y.size else 0.0
        self.ax_.set_ylim(span + 0.7, -0.7)  # first metric on top
        level = f"{self.confidence * 100:g}%"
        self.ax_.set_xlabel(f"Difference to {self.baseline} ({level} bootstrap "
                            f"interval)")
        if name is not None:
            self.ax_.set_title(name)

        handles = [Line2D([], [], color=f"C{j % 10}", marker="o", linewidth=2,
                          label=f"{m} - {self.baseline}")
                   for j, m in enumerate(self.models)]
        how = "" if self.correction is None else f" ({self.correction})"
        handles.append(Line2D([], [], color="0.3", marker="o", linestyle="none",
                              markerfacecolor="0.3",
                              label=f"p_adjusted{how} < {alpha:g}"))
        handles.append(Line2D([], [], color="0.3", marker="o", linestyle="none",
                              markerfacecolor="white", label="not significant"))
        legend = validate_style_kwargs(
            {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0),
             "bbox_transform": _below_x_label(self.ax_),
             "ncol": min(len(handles), 3), "borderaxespad": 0.0,
             "fontsize": "small", "frameon": False}, legend_kw, "legend_kw")
        self.ax_.legend(handles=handles, **legend)
        return self

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_scores, *, groups=None, metrics=None,
                         sample_weight=None, baseline=None, test="permutation",
                         correction="holm", confidence=0.95, n_resamples=10000,
                         random_state=None, pos_label=None, name=None, ax=None,
                         errorbar_kw=None, marker_kw=None, zero_line_kw=None):
        """Compare several models' scores and plot the differences.

        The numbers are those of :func:`~sklearn_rankeval.compare_rankings`
        with the same arguments (``output="dict"``).

        Parameters
        ----------
        %(y_true)s
        y_scores : dict of {str: array-like}
            ``{model name: scores}``, at least two models scoring the same
            rows (same shape as ``y_true``); ``-inf`` marks an item a model
            did not retrieve.
        %(groups)s
        metrics : list of str, default=None
            Metric names as the scorer names (``"gauc"``, ``"ndcg@10"``,
            ...); None: :func:`~sklearn_rankeval.ranking_report`'s default.
        sample_weight : array-like, default=None
            One weight per row (long layout) or per query (2-D), the same for
            every model.
        baseline : str, default=None
            The model the others are compared with; None: the first key.
        %(test)s
        correction : {'holm', 'bonferroni', 'fdr_bh'} or None, default='holm'
            The adjustment of the p-values over all (metric, model) pairs.
        confidence : float, default=0.95
            Level of the intervals; significant: ``p_adjusted < 1 -
            confidence``.
        %(n_resamples)s
        random_state : int, numpy.random.Generator, RandomState or None, \
default=None
            Seed of the resampling; an int gives the same plot on every run.
        %(pos_label)s
        %(name_title)s
        %(ax)s
        %(errorbar_kw)s
        %(marker_kw)s
        %(zero_line_kw)s

        Returns
        -------
        display : RankingComparisonDisplay
            The display, plotted.

        See Also
        --------
        RankingComparisonDisplay.from_estimator : From fitted estimators.
        sklearn_rankeval.compare_rankings : The same numbers as a table.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> import numpy as np
        >>> from sklearn_rankeval import RankingComparisonDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(200, random_state=0)
        >>> scores = {"all": X[:, 1:].sum(axis=1), "x1": X[:, 1], "x2": X[:, 2]}
        >>> disp = RankingComparisonDisplay.from_predictions(
        ...     y, scores, groups=users, metrics=["gauc", "ndcg@10"],
        ...     n_resamples=1000, random_state=0)
        >>> disp.models, disp.diff.shape
        (['x1', 'x2'], (2, 2))
        >>> plt.close("all")
        """
        if not isinstance(y_scores, Mapping):
            raise TypeError(
                f"y_scores must be a dict {{model name: scores}}, got "
                f"{type(y_scores).__name__}."
            )
        first = next(iter(y_scores.values()), None)
        y_true = cls._relevance(y_true, first, pos_label)
        result = compare_rankings(
            y_true, y_scores, groups=groups, metrics=metrics,
            sample_weight=sample_weight, baseline=baseline, test=test,
            correction=correction, confidence=confidence,
            n_resamples=n_resamples, random_state=random_state, output="dict")
        names = list(y_scores)
        baseline = names[0] if baseline is None else baseline
        models = [m for m in names if m != baseline]
        metric_names = list(result)

        def field(key):
            return np.array([[result[metric][m][key] for m in models]
                             for metric in metric_names], dtype=np.float64)

        display = cls(metrics=metric_names, models=models, diff=field("diff"),
                      ci_low=field("ci_low"), ci_high=field("ci_high"),
                      p_adjusted=field("p_adjusted"), baseline=baseline,
                      confidence=confidence, test=test, correction=correction,
                      name=name)
        return display.plot(ax=ax, errorbar_kw=errorbar_kw, marker_kw=marker_kw,
                            zero_line_kw=zero_line_kw)

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimators, X, y, *, groups=None, metrics=None,
                       sample_weight=None, baseline=None, test="permutation",
                       correction="holm", confidence=0.95, n_resamples=10000,
                       random_state=None, response_method="auto", pos_label=None,
                       name=None, ax=None, errorbar_kw=None, marker_kw=None,
                       zero_line_kw=None):
        """Compare several fitted estimators on ``X`` and plot the differences.

        Each estimator scores ``X`` (see ``response_method``); the scores go
        to :meth:`from_predictions`.

        Parameters
        ----------
        estimators : dict of {str: estimator} or list of estimators
            At least two fitted estimators (binary classifiers, regressors or
            ranking models, or pipelines ending in one; classifiers and
            regressors may be mixed when ``y`` is 0/1).  A list names each by
            its class name (which must then differ); the first is the
            baseline unless ``baseline`` is given.
        %(X)s
        %(y)s
        %(groups)s
        metrics : list of str, default=None
            Metric names as the scorer names; None: ranking_report's default.
        sample_weight : array-like, default=None
            One weight per row, the same for every model.
        baseline : str, default=None
            Name of the baseline; None: the first estimator.
        %(test)s
        correction : {'holm', 'bonferroni', 'fdr_bh'} or None, default='holm'
            The adjustment of the p-values.
        confidence : float, default=0.95
            Level of the intervals and of significance.
        %(n_resamples)s
        random_state : int, numpy.random.Generator, RandomState or None, \
default=None
            Seed of the resampling.
        %(response_method)s
        pos_label : int, float, bool or str, default=None
            The class of the classifiers that is relevant; None: their
            ``classes_[1]``.  Must be None for other estimators.
        %(name_title)s
        %(ax)s
        %(errorbar_kw)s
        %(marker_kw)s
        %(zero_line_kw)s

        Returns
        -------
        display : RankingComparisonDisplay
            The display, plotted.

        See Also
        --------
        RankingComparisonDisplay.from_predictions : From scores.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import RankingComparisonDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(200, random_state=0)
        >>> models = {"C=1": LogisticRegression(C=1).fit(X, y),
        ...           "C=0.001": LogisticRegression(C=0.001).fit(X, y)}
        >>> disp = RankingComparisonDisplay.from_estimator(
        ...     models, X, y, groups=users, metrics=["gauc", "mrr"],
        ...     n_resamples=1000, random_state=0)
        >>> disp.baseline, disp.models, disp.metrics
        ('C=1', ['C=0.001'], ['gauc', 'mrr'])
        >>> plt.close("all")
        """
        scores, pos_label = cls._scores_of_estimators(
            estimators, X, response_method=response_method, pos_label=pos_label)
        return cls.from_predictions(
            y, scores, groups=groups, metrics=metrics, sample_weight=sample_weight,
            baseline=baseline, test=test, correction=correction,
            confidence=confidence, n_resamples=n_resamples,
            random_state=random_state, pos_label=pos_label, name=name, ax=ax,
            errorbar_kw=errorbar_kw, marker_kw=marker_kw, zero_line_kw=zero_line_kw)
