"""The TREC / PASCAL VOC 11-point interpolated precision-recall chart."""

from .._core import check_option
from .._metrics import RECALL_LEVELS as _RECALL_LEVELS
from .._metrics import check_curve_n_points, interpolated_pr_curve
from ._base import (
    RankingCurveDisplayMixin,
    axis_label,
    finish_axes,
    legend_label,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["ElevenPointDisplay"]

_MAX_TICKED_LEVELS = 11

# parameters that from_estimator and from_predictions describe alike
_fill_doc = plot_doc_filler({
    "n_points": """\
n_points : int >= 2, default=11
    Number of equally spaced recall levels (11: TREC / VOC 2007; 101:
    COCO).""",
    "recall_levels": """\
recall_levels : {'exact', 'trec_eval_9', 'trec_eval_10'}, default='exact'
    When a query reaches a recall level, as in
    :func:`~sklearn_rankeval.interpolated_precision_recall_curve`;
    ``'trec_eval_9'`` reproduces trec_eval's ``iprec_at_recall_*``.""",
})


class ElevenPointDisplay(RankingCurveDisplayMixin):
    """Interpolated precision at recall 0.0, 0.1, ..., 1.0 (the 11-point chart).

    Markers at the interpolated precision of each recall level (the highest
    precision at any recall at least the level), averaged over queries when
    grouped, joined by steps; the legend gives the 11-point average precision,
    their mean.  Several systems go on one axis by passing the same ``ax=``:
    the classic TREC comparison chart.

    Read more in the :ref:`User Guide <displays-eleven-point>`.

    Use :meth:`from_estimator` or :meth:`from_predictions` to build it; all
    parameters are stored as attributes.

    Parameters
    ----------
    precision : ndarray of shape (n_points,)
        Interpolated precision at each recall level (mean over queries).
    recall : ndarray of shape (n_points,)
        The recall levels ``0, 1/(n_points-1), ..., 1``.
    average_precision : float, default=None
        The mean of ``precision``, shown in the legend; None: not shown.
    n_groups : int, default=None
        Number of queries averaged; None for one ranking.
    name : str, default=None
        Name of the system in the legend.
    pos_label : int, float, bool or str, default=None
        The relevant class, shown in the axis labels if not None.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The markers and steps.
    ax_ : matplotlib Axes
        Axes with the chart.
    figure_ : matplotlib Figure
        Figure containing the chart.

    See Also
    --------
    sklearn_rankeval.interpolated_precision_recall_curve : The plotted values.
    sklearn_rankeval.interpolated_average_precision_score : Their mean.
    InterpolatedPrecisionRecallDisplay : The whole interpolated curve.

    Notes
    -----
    The steps hold each level's precision over the recall interval that ends
    at the level (``drawstyle='steps-pre'``): the interpolated precision is
    non-increasing in recall, so on that interval it is at least the level's
    value.  Pass ``curve_kwargs={"drawstyle": "default"}`` for straight lines
    between the markers, as in the TREC overview papers.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (interpolated precision, the 11-point curve).
    .. [2] M. Everingham et al., "The PASCAL Visual Object Classes (VOC)
       Challenge", IJCV 2010 (11-point AP of VOC 2007).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import ElevenPointDisplay
    >>> # two systems ranking the same two queries, on one axis
    >>> y_true = [1, 0, 1, 0, 0, 1, 0, 0]
    >>> groups = [1, 1, 1, 1, 2, 2, 2, 2]
    >>> run_a = [0.9, 0.8, 0.7, 0.1, 0.9, 0.8, 0.2, 0.1]
    >>> run_b = [0.1, 0.8, 0.7, 0.9, 0.1, 0.9, 0.8, 0.7]
    >>> a = ElevenPointDisplay.from_predictions(y_true, run_a, groups=groups,
    ...                                         name="run A")
    >>> b = ElevenPointDisplay.from_predictions(y_true, run_b, groups=groups,
    ...                                         name="run B", ax=a.ax_)
    >>> a.precision.round(4).tolist()
    [0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.5833, 0.5833, 0.5833, 0.5833, 0.5833]
    >>> [t.get_text() for t in b.ax_.get_legend().get_texts()]
    ['run A (11-pt AP = 0.6742)', 'run B (11-pt AP = 0.7500)']
    >>> plt.close("all")
    """

    def __init__(self, *, precision, recall, average_precision=None, n_groups=None,
                 name=None, pos_label=None):
        self.precision = precision
        self.recall = recall
        self.average_precision = average_precision
        self.n_groups = n_groups
        self.name = name
        self.pos_label = pos_label

    def plot(self, ax=None, *, name=None, curve_kwargs=None):
        """Plot the chart.

        Draws the markers and steps (``line_``, labelled with the average of
        the values), ticks the recall levels, and sets the axis labels, the
        limits 0-1 and the legend.  Called on the axes of another display, it
        adds a system to the chart.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on, e.g. one showing another system; None: a new
            figure and axes.
        name : str, default=None
            Name of the system in the legend; None: ``self.name``.
        curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` (default: circle
            markers joined by steps).

        Returns
        -------
        display : ElevenPointDisplay
            The display, with ``line_``, ``ax_`` and ``figure_`` set.

        See Also
        --------
        ElevenPointDisplay.from_predictions : Compute and plot.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> import numpy as np
        >>> from sklearn_rankeval import ElevenPointDisplay
        >>> disp = ElevenPointDisplay(precision=np.linspace(1, 0.5, 11),
        ...                           recall=np.linspace(0, 1, 11),
        ...                           average_precision=0.75, name="run")
        >>> disp.plot().line_.get_label()
        'run (11-pt AP = 0.7500)'
        >>> plt.close("all")
        """
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        n_points = len(self.recall)
        line_kw = validate_style_kwargs(
            {"label": legend_label(name, f"{n_points}-pt AP", self.average_precision),
             "drawstyle": "steps-pre", "marker": "o", "markersize": 5},
            curve_kwargs, "curve_kwargs",
        )
        (self.line_,) = self.ax_.plot(self.recall, self.precision, **line_kw)
        if n_points <= _MAX_TICKED_LEVELS:
            self.ax_.set_xticks(self.recall)
            self.ax_.set_xticklabels(
                [f"{r:.2f}".rstrip("0").rstrip(".") if r else "0" for r in self.recall],
                fontsize="small",
            )
        self.ax_.grid(True, alpha=0.3)
        finish_axes(
            self.ax_,
            xlabel=axis_label("Recall", self.pos_label),
            ylabel=axis_label(
                "Mean interpolated precision"
                if self.n_groups is not None else "Interpolated precision",
                self.pos_label),
            legend_loc="lower left",
        )
        return self

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, groups=None, sample_weight=None,
                       n_points=11, recall_levels="exact", response_method="auto",
                       pos_label=None, name=None, ax=None, curve_kwargs=None):
        """Plot the 11-point interpolated precision of an estimator.

        The estimator scores ``X`` (see ``response_method``); the scores are
        handed to :meth:`from_predictions`.

        Parameters
        ----------
        %(estimator)s
        %(X)s
        %(y)s
        %(groups)s
        %(sample_weight)s
        %(n_points)s
        %(recall_levels)s
        %(response_method)s
        %(pos_label_estimator)s
        %(name)s
        %(ax)s
        %(curve_kwargs)s

        Returns
        -------
        display : ElevenPointDisplay
            The display, plotted.

        See Also
        --------
        ElevenPointDisplay.from_predictions : From scores.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import ElevenPointDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, groups = make_click_log(n_users=30, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = ElevenPointDisplay.from_estimator(clf, X, y, groups=groups)
        >>> disp.recall.tolist()[:3], disp.line_.get_marker()
        ([0.0, 0.1, 0.2], 'o')
        >>> plt.close("all")
        """
        y_score, pos_label, name = cls._get_response_values(
            estimator, X, response_method=response_method, pos_label=pos_label,
            name=name,
        )
        return cls.from_predictions(
            y, y_score, groups=groups, sample_weight=sample_weight,
            n_points=n_points, recall_levels=recall_levels, pos_label=pos_label,
            name=name, ax=ax, curve_kwargs=curve_kwargs,
        )

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_score, *, groups=None, sample_weight=None,
                         n_points=11, recall_levels="exact", pos_label=None,
                         name=None, ax=None, curve_kwargs=None):
        """Plot the 11-point interpolated precision of scores.

        The values are :func:`~sklearn_rankeval.interpolated_precision_recall_curve`
        and their mean :func:`~sklearn_rankeval.interpolated_average_precision_score`.

        Parameters
        ----------
        %(y_true)s
        %(y_score)s
        %(groups)s
        %(sample_weight)s
        %(n_points)s
        %(recall_levels)s
        %(pos_label)s
        %(name)s
        %(ax)s
        %(curve_kwargs)s

        Returns
        -------
        display : ElevenPointDisplay
            The display, plotted.

        See Also
        --------
        ElevenPointDisplay.from_estimator : From an estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import ElevenPointDisplay
        >>> # relevant items at ranks 1 and 3: precision 1 up to recall 1/2
        >>> disp = ElevenPointDisplay.from_predictions(
        ...     [1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], n_points=5)
        >>> disp.precision.round(4).tolist()
        [1.0, 1.0, 1.0, 0.6667, 0.6667]
        >>> round(disp.average_precision, 4)
        0.8667
        >>> plt.close("all")
        """
        y_true = cls._relevance(y_true, y_score, pos_label)
        n_points = check_curve_n_points(n_points, allow_none=False)
        check_option(recall_levels, "recall_levels", _RECALL_LEVELS)
        rg, grouped = cls._rank_for_curves(y_true, y_score, groups, sample_weight)
        precision, recall, ap, n_groups = interpolated_pr_curve(
            rg, n_points, recall_levels)
        display = cls(
            precision=precision, recall=recall, average_precision=ap,
            n_groups=n_groups if grouped else None, name=name, pos_label=pos_label,
        )
        return display.plot(ax=ax, curve_kwargs=curve_kwargs)
