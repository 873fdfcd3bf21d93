"""ROC curve of a ranking, or the per-group curves averaged vertically."""

import numpy as np

from .._core import check_option
from .._metrics import averaged_roc, check_band, check_fpr_grid, single_roc
from ._base import (
    RankingCurveDisplayMixin,
    axis_label,
    finish_axes,
    legend_label,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["GroupedRocCurveDisplay"]


_STATISTICS = ("median", "mean")

# parameters that from_estimator and from_predictions describe alike
_fill_doc = plot_doc_filler({
    "average": """\
average : {'weighted', 'macro'}, default='weighted'
    How groups are averaged, for the GAUC of the legend and the mean
    curve (``statistic="mean"``): weighted by their total sample
    weight (number of rows), or each once.""",
    "fpr_grid": """\
fpr_grid : int or array-like, default=101
    Number of equally spaced false positive rates of the averaged
    curve, or the increasing rates themselves (groups only).""",
    "band": """\
band : tuple of two floats or None, default=(25, 75)
    Percentiles across groups of the TPR drawn as a band around the
    median (groups only; each group counted once); None: no band.
    Must be None with ``statistic="mean"``.""",
    "band_kw": """\
band_kw : dict, default=None
    Keyword arguments of matplotlib's ``fill_between`` for the band.""",
    "plot_chance_level": """\
plot_chance_level : bool, default=True
    Whether to draw the chance level, the diagonal (dashed, behind the
    curves: a curve on it, such as that of a score constant within each
    group, stays visible).""",
    "chance_level_kw": """\
chance_level_kw : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the chance level.""",
    "statistic": """\
statistic : {'median', 'mean'}, default='median'
    The curve drawn with groups: the median TPR across groups (each
    counted once), with the percentile ``band``; or their mean,
    weighted as ``average`` says, whose area is close to the GAUC.""",
})


def _band_description(band):
    low, high = band
    if (low, high) == (25.0, 75.0):
        return "IQR across groups"
    return f"{low:g}-{high:g}th percentile across groups"


def _shows_something(*arrays):
    """Whether a curve has two finite points (a band: where its edges differ)."""
    values = [np.asarray(a, dtype=np.float64) for a in arrays]
    if len(values) == 1:
        return int(np.isfinite(values[0]).sum()) >= 2
    lower, upper = values
    finite = np.isfinite(lower) & np.isfinite(upper)
    return bool((upper[finite] > lower[finite]).any())


def _hidden(label):
    """A matplotlib label that keeps the artist out of the legend."""
    return None if label is None else f"_{label}"


class GroupedRocCurveDisplay(RankingCurveDisplayMixin):
    """ROC curve of one ranking, or the median ROC curve of many groups.

    For one ranking the display draws its ROC curve (one point per threshold,
    as :class:`sklearn.metrics.RocCurveDisplay`) with the AUC in the legend.
    With groups (users, queries) it reads every group's ROC curve on a common
    false positive rate grid and draws, by default, their median true positive
    rate with the band of their inter-quartile range (two statistics of the
    same kind, so the line always lies in its band), or, with
    ``statistic="mean"``, their weighted mean (vertical averaging), whose area
    is close to the GAUC.  The legend gives the GAUC; the chance level (the
    diagonal) is drawn by default.

    Read more in the :ref:`User Guide <displays-roc>`.

    Use :meth:`from_estimator` or :meth:`from_predictions` to build it; all
    parameters are stored as attributes.

    Parameters
    ----------
    fpr : ndarray of shape (n_points,)
        False positive rates: the thresholds' of one ranking, or 0 followed by
        the grid of the averaged curve.
    tpr : ndarray of shape (n_points,)
        True positive rates at ``fpr``; with groups, their median or mean
        across groups (``statistic``).
    roc_auc : float, default=None
        AUC (one ranking) or GAUC (groups) shown in the legend; None: not
        shown.
    tpr_lower : ndarray of shape (n_points,), default=None
        Lower edge of the band across groups; None: no band.
    tpr_upper : ndarray of shape (n_points,), default=None
        Upper edge of the band across groups.
    band : tuple of two floats, default=None
        The percentiles of the band, for its legend entry.
    n_groups : int, default=None
        Number of groups averaged; None for one ranking.
    name : str, default=None
        Name of the curve in the legend.
    pos_label : int, float, bool or str, default=None
        The relevant class, shown in the axis labels if not None.
    statistic : {'median', 'mean'}, default=None
        The statistic of ``tpr`` across groups, for the axis label; None for
        one ranking.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The ROC curve.
    band_ : matplotlib PolyCollection or None
        The band across groups.  It has no legend entry where it has no width
        (every group has the same rate).
    chance_level_ : matplotlib Line2D or None
        The chance level line.
    ax_ : matplotlib Axes
        Axes with the curve.
    figure_ : matplotlib Figure
        Figure containing the curve.

    See Also
    --------
    sklearn_rankeval.gauc_score : The GAUC shown in the legend.
    sklearn.metrics.RocCurveDisplay : The ROC curve of one ranking.

    Notes
    -----
    **Vertical averaging** (Fawcett, 2006): a group's TPR at a grid FPR is
    the highest TPR its curve has at that FPR, linearly interpolated between
    the curve's points (the straight segment of a tie block, which is the
    1/2 credit of tied pairs in the AUC).  The median and the band's
    percentiles count each group once.  The mean weights the groups as
    ``average`` says, like :func:`~sklearn_rankeval.gauc_score`, so the area
    under the mean curve is close to the GAUC of the legend (equal as the
    grid gets finer); on a skewed click log the median curve can lie well
    above or below it.  The curve starts at the origin, the point of every
    group's curve at the highest threshold.  Groups with one class only have
    no ROC curve and are left out, as GAUC skips them.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition
       Letters 27(8), 2006 (vertical averaging).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import GroupedRocCurveDisplay
    >>> # user u1 is ranked perfectly; in u2 one (positive, negative) pair is tied
    >>> y_true = [0, 1, 0, 1, 1, 0]
    >>> y_score = [0.1, 0.4, 0.35, 0.8, 0.35, 0.1]
    >>> groups = ["u1", "u1", "u2", "u2", "u2", "u2"]
    >>> disp = GroupedRocCurveDisplay.from_predictions(
    ...     y_true, y_score, groups=groups, fpr_grid=5, statistic="mean",
    ...     band=None)
    >>> disp.fpr.tolist()
    [0.0, 0.0, 0.25, 0.5, 0.75, 1.0]
    >>> # weighted by the users' 2 and 4 rows
    >>> disp.tpr.round(4).tolist()
    [0.0, 0.6667, 0.8333, 1.0, 1.0, 1.0]
    >>> disp.line_.get_label()
    'GAUC = 0.9167'
    >>> plt.close("all")
    """

    def __init__(self, *, fpr, tpr, roc_auc=None, tpr_lower=None, tpr_upper=None,
                 band=None, n_groups=None, name=None, pos_label=None,
                 statistic=None):
        self.fpr = fpr
        self.tpr = tpr
        self.roc_auc = roc_auc
        self.tpr_lower = tpr_lower
        self.tpr_upper = tpr_upper
        self.band = band
        self.n_groups = n_groups
        self.name = name
        self.pos_label = pos_label
        self.statistic = statistic

    def plot(self, ax=None, *, name=None, curve_kwargs=None, band_kw=None,
             plot_chance_level=True, chance_level_kw=None):
        """Plot the curve.

        Draws the curve (``line_``, labelled with the AUC or GAUC), the band
        across groups if the display has one (``band_``) and the chance
        level, then sets the axis labels, the limits 0-1 and the legend.  An
        artist that shows nothing (a band of zero width, a curve with no
        finite point) gets no legend entry.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Name of the curve in the legend; None: ``self.name``.
        curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the curve.
        band_kw : dict, default=None
            Keyword arguments of matplotlib's ``fill_between`` for the band.
        plot_chance_level : bool, default=True
            Whether to draw the chance level, the diagonal (dashed, behind
            the curves: a curve on it stays visible).
        chance_level_kw : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the chance level.

        Returns
        -------
        display : GroupedRocCurveDisplay
            The display, with ``line_``, ``band_``, ``chance_level_``, ``ax_``
            and ``figure_`` set.

        See Also
        --------
        GroupedRocCurveDisplay.from_predictions : Compute and plot.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import GroupedRocCurveDisplay
        >>> disp = GroupedRocCurveDisplay(fpr=[0.0, 0.0, 1.0], tpr=[0.0, 1.0, 1.0],
        ...                               roc_auc=1.0, name="perfect")
        >>> disp.plot().line_.get_label()
        'perfect (AUC = 1.0000)'
        >>> disp.chance_level_.get_label()
        'Chance level (AUC = 0.5)'
        >>> plt.close("all")
        """
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        grouped = self.n_groups is not None
        label = legend_label(name, "GAUC" if grouped else "AUC", self.roc_auc)
        if not _shows_something(self.tpr):
            label = _hidden(label)
        line_kw = validate_style_kwargs(
            {"label": label}, curve_kwargs, "curve_kwargs",
        )
        (self.line_,) = self.ax_.plot(self.fpr, self.tpr, **line_kw)

        self.band_ = None
        if self.tpr_lower is not None and self.tpr_upper is not None:
            description = ("band across groups" if self.band is None
                           else _band_description(self.band))
            label = description if name is None else f"{name}: {description}"
            if not _shows_something(self.tpr_lower, self.tpr_upper):
                label = _hidden(label)
            band_defaults = {
                "color": self.line_.get_color(), "alpha": 0.2, "linewidth": 0,
                "label": label,
            }
            self.band_ = self.ax_.fill_between(
                self.fpr, self.tpr_lower, self.tpr_upper,
                **validate_style_kwargs(band_defaults, band_kw, "band_kw"),
            )

        # behind the curves (zorder 2) and above the bands (1): a curve that
        # lies on the diagonal (a score constant within each group) is seen
        chance_kw = validate_style_kwargs(
            {"label": "Chance level (AUC = 0.5)", "color": "k", "linestyle": "--",
             "linewidth": 1, "zorder": 1.5},
            chance_level_kw, "chance_level_kw",
        )
        self.chance_level_ = None
        if plot_chance_level:
            if any(line.get_label() == chance_kw["label"]
                   for line in self.ax_.get_lines()):
                # already drawn on these axes (a second display): once only
                chance_kw["label"] = _hidden(chance_kw["label"])
            (self.chance_level_,) = self.ax_.plot((0, 1), (0, 1), **chance_kw)

        statistic = (self.statistic or "mean").capitalize()
        finish_axes(
            self.ax_,
            xlabel=axis_label("False Positive Rate", self.pos_label),
            ylabel=axis_label(
                f"{statistic} True Positive Rate" if grouped
                else "True Positive Rate", self.pos_label),
            legend_loc="lower right",
        )
        return self

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, groups=None, sample_weight=None,
                       average="weighted", fpr_grid=101, band=(25, 75),
                       response_method="auto", pos_label=None, name=None, ax=None,
                       curve_kwargs=None, band_kw=None, plot_chance_level=True,
                       chance_level_kw=None, statistic="median"):
        """Plot the (grouped) ROC curve of an estimator.

        The estimator scores ``X`` (see ``response_method``); the scores are
        handed to :meth:`from_predictions`.

        Parameters
        ----------
        %(estimator)s
        %(X)s
        %(y)s
        %(groups)s
        %(sample_weight)s
        %(average)s
        %(fpr_grid)s
        %(band)s
        %(response_method)s
        %(pos_label_estimator)s
        %(name)s
        %(ax)s
        %(curve_kwargs)s
        %(band_kw)s
        %(plot_chance_level)s
        %(chance_level_kw)s
        %(statistic)s

        Returns
        -------
        display : GroupedRocCurveDisplay
            The display, plotted.

        See Also
        --------
        GroupedRocCurveDisplay.from_predictions : From scores.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import GroupedRocCurveDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, groups = make_click_log(n_users=30, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = GroupedRocCurveDisplay.from_estimator(clf, X, y, groups=groups)
        >>> disp.fpr.shape, disp.line_.get_label().startswith("LogisticRegression")
        ((102,), True)
        >>> plt.close("all")
        """
        y_score, pos_label, name = cls._get_response_values(
            estimator, X, response_method=response_method, pos_label=pos_label,
            name=name,
        )
        return cls.from_predictions(
            y, y_score, groups=groups, sample_weight=sample_weight, average=average,
            fpr_grid=fpr_grid, band=band, pos_label=pos_label, name=name, ax=ax,
            curve_kwargs=curve_kwargs, band_kw=band_kw,
            plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
            statistic=statistic,
        )

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_score, *, groups=None, sample_weight=None,
                         average="weighted", fpr_grid=101, band=(25, 75),
                         pos_label=None, name=None, ax=None, curve_kwargs=None,
                         band_kw=None, plot_chance_level=True,
                         chance_level_kw=None, statistic="median"):
        """Plot the (grouped) ROC curve of scores.

        One ranking (``groups=None``): its ROC curve and AUC.  With groups: the
        median of the groups' ROC curves with their inter-quartile band (or
        their mean), and the GAUC.

        Parameters
        ----------
        %(y_true)s
        %(y_score)s
        %(groups)s
        %(sample_weight)s
        %(average)s
        %(fpr_grid)s
        %(band)s
        %(pos_label)s
        %(name)s
        %(ax)s
        %(curve_kwargs)s
        %(band_kw)s
        %(plot_chance_level)s
        %(chance_level_kw)s
        %(statistic)s

        Returns
        -------
        display : GroupedRocCurveDisplay
            The display, plotted.

        See Also
        --------
        GroupedRocCurveDisplay.from_estimator : From an estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import GroupedRocCurveDisplay
        >>> # one ranking: the points of sklearn.metrics.roc_curve
        >>> disp = GroupedRocCurveDisplay.from_predictions(
        ...     [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], name="model")
        >>> disp.fpr.tolist(), disp.tpr.tolist()
        ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0])
        >>> disp.line_.get_label()
        'model (AUC = 0.7500)'
        >>> plt.close("all")
        """
        y_true = cls._relevance(y_true, y_score, pos_label)
        check_option(average, "average", ("weighted", "macro"))
        check_option(statistic, "statistic", _STATISTICS)
        grid = check_fpr_grid(fpr_grid)
        band = check_band(band)
        if statistic == "mean" and band is not None:
            raise ValueError(
                f"band={band!r} draws percentiles across groups, which go with "
                f"the median curve; with statistic='mean' pass band=None."
            )
        rg, grouped = cls._rank_for_curves(y_true, y_score, groups, sample_weight)
        lower = upper = n_groups = None
        if grouped:
            if statistic == "median":
                # the median and the band: percentiles of the curves, one pass
                fpr, _, curves, roc_auc, n_groups = averaged_roc(
                    rg, grid, average, (50.0, *(band or ()))
                )
                tpr = curves[0]
                if band is not None:
                    lower, upper = curves[1:]
            else:
                fpr, tpr, _, roc_auc, n_groups = averaged_roc(rg, grid, average, None)
        else:
            fpr, tpr, roc_auc = single_roc(rg)
            band = statistic = None
        display = cls(
            fpr=fpr, tpr=tpr, roc_auc=roc_auc, tpr_lower=lower, tpr_upper=upper,
            band=band, n_groups=n_groups, name=name, pos_label=pos_label,
            statistic=statistic,
        )
        return display.plot(
            ax=ax, curve_kwargs=curve_kwargs, band_kw=band_kw,
            plot_chance_level=plot_chance_level, chance_level_kw=chance_level_kw,
        )
