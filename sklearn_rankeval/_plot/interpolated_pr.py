"""Interpolated precision-recall curve of a ranking, or averaged over queries."""

from numbers import Real

import numpy as np

from .._core import check_option
from .._metrics import RECALL_LEVELS as _RECALL_LEVELS
from .._metrics import check_curve_n_points, interpolated_pr_curve, pr_curve_points
from ._base import (
    RankingCurveDisplayMixin,
    axis_label,
    finish_axes,
    legend_label,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["InterpolatedPrecisionRecallDisplay"]

_ISO_LINESTYLES = ("-", "--", ":", "-.")

# parameters that from_estimator and from_predictions describe alike
_fill_doc = plot_doc_filler({
    "n_points": """\
n_points : int >= 2 or None, default=11
    Number of equally spaced recall levels: 11 (TREC, PASCAL VOC
    2007, the default of
    :func:`~sklearn_rankeval.interpolated_average_precision_score`),
    101 (COCO)...  None: the exact envelope of one ranking (a
    ``ValueError`` with groups, whose recall values differ).""",
    "recall_levels": """\
recall_levels : {'exact', 'trec_eval_9', 'trec_eval_10'}, default='exact'
    When a query reaches a recall level, as in
    :func:`~sklearn_rankeval.interpolated_precision_recall_curve`.""",
    "plot_raw": """\
plot_raw : bool, default=True
    Whether to draw the raw staircase (one ranking only).""",
    "raw_curve_kwargs": """\
raw_curve_kwargs : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the raw staircase.""",
    "f_alpha": """\
f_alpha : float or list of float, default=None
    Draw iso-F-alpha lines for these ``alpha`` values (0.5 is F1).""",
    "f_alpha_levels": """\
f_alpha_levels : list of float, default=(0.2, 0.4, 0.6, 0.8)
    The F values of the iso lines.""",
    "f_alpha_kw": """\
f_alpha_kw : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the iso lines.""",
    "f_beta": """\
f_beta : float or list of float, default=None
    Draw iso-F lines for these F-beta ``beta`` values instead (1 is
    F1); not with ``f_alpha``.""",
})


def _check_f_alpha(f_alpha, f_beta=None):
    """The iso-line parameters as ``[(alpha, label), ...]``.

    ``f_alpha``: None, one alpha or a list of alphas in [0, 1]; ``f_beta``:
    the same with F-beta's ``beta >= 0`` (``alpha = 1 / (1 + beta**2)``).
    """
    if f_alpha is not None and f_beta is not None:
        raise ValueError(
            f"Give f_alpha or f_beta, not both; got f_alpha={f_alpha!r} and "
            f"f_beta={f_beta!r} (alpha = 1 / (1 + beta**2); f_beta=[1] is F1)."
        )
    if f_beta is not None:
        values = [f_beta] if np.ndim(f_beta) == 0 else list(np.ravel(f_beta))
        for b in values:
            if (isinstance(b, (bool, np.bool_)) or not isinstance(b, Real)
                    or not b >= 0.0):
                raise ValueError(
                    f"f_beta must be None or a list of beta values >= 0 (1 is F1), "
                    f"got {f_beta!r}."
                )
        return [(1.0 / (1.0 + float(b) ** 2),
                 "iso-F1" if b == 1.0 else f"iso-F (\u03b2 = {float(b):g})")
                for b in values]
    if f_alpha is None:
        return []
    values = [f_alpha] if np.ndim(f_alpha) == 0 else list(np.ravel(f_alpha))
    for a in values:
        if (isinstance(a, (bool, np.bool_)) or not isinstance(a, Real)
                or not 0.0 <= a <= 1.0):
            raise ValueError(
                f"f_alpha must be None or a list of alpha values in [0, 1] (0.5 is "
                f"F1), got {f_alpha!r}."
            )
    return [(float(a), "iso-F1" if a == 0.5 else f"iso-F (\u03b1 = {float(a):g})")
            for a in values]


def _check_levels(levels):
    values = list(np.ravel(levels)) if levels is not None else []
    if not values or not all(
        isinstance(v, Real) and not isinstance(v, (bool, np.bool_)) and 0.0 < v < 1.0
        for v in values
    ):
        raise ValueError(
            f"f_alpha_levels must be a non-empty list of F values in (0, 1), got "
            f"{levels!r}."
        )
    return [float(v) for v in values]


def iso_f_alpha_line(alpha, f, n=200):
    """(recall, precision) where ``1 / (alpha/P + (1-alpha)/R) == f``, P <= 1."""
    if alpha == 0.0:  # F is the recall: a vertical line
        return np.array([f, f]), np.array([0.0, 1.0])
    if alpha == 1.0:  # F is the precision: a horizontal line
        return np.array([0.0, 1.0]), np.array([f, f])
    r_min = (1 - alpha) * f / (1 - alpha * f)  # where the precision reaches 1
    recall = np.linspace(r_min, 1.0, n)
    precision = alpha * f * recall / (recall - (1 - alpha) * f)
    precision[0] = 1.0
    return recall, precision


class InterpolatedPrecisionRecallDisplay(RankingCurveDisplayMixin):
    """Interpolated precision-recall curve: the envelope of the raw staircase.

    The interpolated precision at recall :math:`r` is the highest precision at
    any recall :math:`\\geq r`.  For one ranking the display draws the raw
    precision-recall staircase (thin) and its interpolated envelope (thick);
    with groups it draws the interpolated precision averaged over queries at
    fixed recall levels (the TREC recall-precision graph).  By default both
    use the 11 recall levels 0, 0.1, ..., 1 of
    :func:`~sklearn_rankeval.interpolated_average_precision_score`, so the
    legend's "11-pt AP" is that function's default value; ``n_points=None``
    draws the exact envelope of one ranking, whose area ("iAP", the
    all-points interpolated AP) is in the legend.  Optional iso-F lines
    (``f_beta=[1]`` for F1) show where the F measure is constant.

    Read more in the :ref:`User Guide <displays-interpolated-pr>`.

    Use :meth:`from_estimator` or :meth:`from_predictions` to build it; all
    parameters are stored as attributes.

    Parameters
    ----------
    precision : ndarray of shape (n_points,)
        Interpolated precision at each value of ``recall``: the envelope of one
        ranking, or the mean over queries.
    recall : ndarray of shape (n_points,)
        Increasing recall values.  Each precision holds on the recall interval
        that ends at its recall value (the curve is drawn as steps).
    raw_precision : ndarray of shape (n_raw,), default=None
        Precision at the end of each tie block of one ranking, after the point
        ``(0, 1)``; None with groups.
    raw_recall : ndarray of shape (n_raw,), default=None
        Recall of the same points.
    average_precision : float, default=None
        Interpolated AP shown in the legend; None: not shown.
    n_points : int, default=None
        Number of recall levels of ``recall``; None: the exact envelope
        (all-points interpolation) of one ranking.
    n_groups : int, default=None
        Number of queries averaged; None for one ranking.
    name : str, default=None
        Name of the curve in the legend.
    pos_label : int, float, bool or str, default=None
        The relevant class, shown in the axis labels if not None.

    Attributes
    ----------
    line_ : matplotlib Line2D
        The interpolated curve.
    raw_line_ : matplotlib Line2D or None
        The raw staircase (one ranking only).
    f_alpha_lines_ : list of matplotlib Line2D
        The iso-F-alpha lines (empty if none were drawn).
    ax_ : matplotlib Axes
        Axes with the curves.
    figure_ : matplotlib Figure
        Figure containing the curves.

    See Also
    --------
    sklearn_rankeval.interpolated_precision_recall_curve : The averaged curve.
    sklearn_rankeval.interpolated_average_precision_score : The legend's value.
    ElevenPointDisplay : The 11-point interpolated precision of several systems.
    sklearn.metrics.PrecisionRecallDisplay : The raw curve of one ranking.

    Notes
    -----
    A query without a relevant item has no curve and is left out of the
    average, as the metrics skip it.  Recall levels are compared exactly (see
    :func:`~sklearn_rankeval.interpolated_precision_recall_curve`).

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (interpolated precision).
    .. [2] M. Everingham et al., "The PASCAL Visual Object Classes (VOC)
       Challenge", IJCV 2010 (11-point AP of VOC 2007).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import InterpolatedPrecisionRecallDisplay
    >>> # one ranking: relevant items at ranks 1 and 3
    >>> y_true = [1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.7, 0.1]
    >>> disp = InterpolatedPrecisionRecallDisplay.from_predictions(
    ...     y_true, y_score, name="run A")
    >>> disp.recall.round(1).tolist()
    [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    >>> disp.precision.round(4).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.6667, 0.6667, 0.6667, 0.6667, 0.6667]
    >>> disp.line_.get_label()
    'run A (11-pt AP = 0.8485)'
    >>> # the exact envelope: one point per recall reached
    >>> disp = InterpolatedPrecisionRecallDisplay.from_predictions(
    ...     y_true, y_score, name="run A", n_points=None)
    >>> disp.recall.tolist(), disp.precision.round(4).tolist()
    ([0.0, 0.5, 1.0], [1.0, 1.0, 0.6667])
    >>> disp.line_.get_label()
    'run A (iAP = 0.8333)'
    >>> plt.close("all")
    """

    def __init__(self, *, precision, recall, raw_precision=None, raw_recall=None,
                 average_precision=None, n_points=None, n_groups=None, name=None,
                 pos_label=None):
        self.precision = precision
        self.recall = recall
        self.raw_precision = raw_precision
        self.raw_recall = raw_recall
        self.average_precision = average_precision
        self.n_points = n_points
        self.n_groups = n_groups
        self.name = name
        self.pos_label = pos_label

    def plot(self, ax=None, *, name=None, curve_kwargs=None, plot_raw=True,
             raw_curve_kwargs=None, f_alpha=None, f_alpha_levels=(0.2, 0.4, 0.6, 0.8),
             f_alpha_kw=None, f_beta=None):
        """Plot the curves.

        Draws the interpolated curve (``line_``, labelled with the interpolated
        AP), the raw staircase of one ranking (``raw_line_``) and the optional
        iso-F-alpha lines, then sets the axis labels, the limits 0-1 and the
        legend.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Name of the curve in the legend; None: ``self.name``.
        curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the interpolated
            curve.
        plot_raw : bool, default=True
            Whether to draw the raw staircase (one ranking only).
        raw_curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the raw staircase.
        f_alpha : float or list of float, default=None
            Draw iso-F-alpha lines for each of these ``alpha`` values
            (``1 / (alpha/P + (1-alpha)/R)``, as
            :func:`~sklearn_rankeval.f_alpha_score`; 0.5 is F1).
        f_alpha_levels : list of float, default=(0.2, 0.4, 0.6, 0.8)
            The F values of the iso lines, each in (0, 1).
        f_alpha_kw : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the iso lines.
        f_beta : float or list of float, default=None
            Draw iso-F lines for these ``beta`` values of
            :func:`sklearn.metrics.fbeta_score` instead (``1`` is F1,
            ``alpha = 1 / (1 + beta**2)``); not with ``f_alpha``.

        Returns
        -------
        display : InterpolatedPrecisionRecallDisplay
            The display, with ``line_``, ``raw_line_``, ``f_alpha_lines_``,
            ``ax_`` and ``figure_`` set.

        See Also
        --------
        InterpolatedPrecisionRecallDisplay.from_predictions : Compute and plot.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import InterpolatedPrecisionRecallDisplay
        >>> disp = InterpolatedPrecisionRecallDisplay(
        ...     precision=[1.0, 1.0, 0.5], recall=[0.0, 0.5, 1.0],
        ...     average_precision=0.75, name="run")
        >>> disp.plot(plot_raw=False, f_beta=1.0).line_.get_label()
        'run (iAP = 0.7500)'
        >>> plt.close("all")
        """
        alphas = _check_f_alpha(f_alpha, f_beta)
        levels = _check_levels(f_alpha_levels)
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        metric = "iAP" if self.n_points is None else f"{self.n_points}-pt AP"
        line_kw = validate_style_kwargs(
            {"label": legend_label(name, metric, self.average_precision),
             "drawstyle": "steps-pre", "linewidth": 2},
            curve_kwargs, "curve_kwargs",
        )
        (self.line_,) = self.ax_.plot(self.recall, self.precision, **line_kw)

        self.raw_line_ = None
        if plot_raw and self.raw_precision is not None:
            raw_kw = validate_style_kwargs(
                {"label": "raw" if name is None else f"{name} (raw)",
                 "drawstyle": "steps-pre", "color": self.line_.get_color(),
                 "linewidth": 1, "alpha": 0.6, "linestyle": "--"},
                raw_curve_kwargs, "raw_curve_kwargs",
            )
            (self.raw_line_,) = self.ax_.plot(
                self.raw_recall, self.raw_precision, **raw_kw
            )

        self.f_alpha_lines_ = self._plot_iso_f(alphas, levels, f_alpha_kw)

        grouped = self.n_groups is not None
        self.ax_.grid(True, alpha=0.3)
        finish_axes(
            self.ax_,
            xlabel=axis_label("Recall", self.pos_label),
            ylabel=axis_label(
                "Mean interpolated precision" if grouped
                else "Precision", self.pos_label),
            legend_loc="lower left",
        )
        return self

    def _plot_iso_f(self, alphas, levels, f_alpha_kw):
        lines = []
        for i, (alpha, label) in enumerate(alphas):
            kw = validate_style_kwargs(
                {"color": "gray", "alpha": 0.5, "linewidth": 0.8, "zorder": 1,
                 "linestyle": _ISO_LINESTYLES[i % len(_ISO_LINESTYLES)]},
                f_alpha_kw, "f_alpha_kw",
            )
            for j, f in enumerate(levels):
                recall, precision = iso_f_alpha_line(alpha, f)
                (line,) = self.ax_.plot(recall, precision,
                                        label=label if j == 0 else None, **kw)
                lines.append(line)
                # the F value, at the line's end inside the axes
                x, y = (f, 1.0) if alpha == 0.0 else (recall[-1], precision[-1])
                self.ax_.annotate(
                    f"{f:g}", xy=(x, y), xytext=(-2, 2), textcoords="offset points",
                    ha="right", va="bottom" if alpha > 0.0 else "top",
                    fontsize="x-small", color=kw["color"], annotation_clip=True,
                )
        return lines

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimator, X, y, *, groups=None, sample_weight=None,
                       n_points=11, recall_levels="exact", response_method="auto",
                       pos_label=None, name=None, ax=None, curve_kwargs=None,
                       plot_raw=True, raw_curve_kwargs=None, f_alpha=None,
                       f_alpha_levels=(0.2, 0.4, 0.6, 0.8), f_alpha_kw=None,
                       f_beta=None):
        """Plot the interpolated precision-recall curve of an estimator.

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
        %(plot_raw)s
        %(raw_curve_kwargs)s
        %(f_alpha)s
        %(f_alpha_levels)s
        %(f_alpha_kw)s
        %(f_beta)s

        Returns
        -------
        display : InterpolatedPrecisionRecallDisplay
            The display, plotted.

        See Also
        --------
        InterpolatedPrecisionRecallDisplay.from_predictions : From scores.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import InterpolatedPrecisionRecallDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, groups = make_click_log(n_users=30, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = InterpolatedPrecisionRecallDisplay.from_estimator(
        ...     clf, X, y, groups=groups)
        >>> disp.n_points, disp.line_.get_label().startswith("LogisticRegression")
        (11, True)
        >>> plt.close("all")
        """
        y_score, pos_label, name = cls._get_response_values(
            estimator, X, response_method=response_method, pos_label=pos_label,
            name=name,
        )
        return cls.from_predictions(
            y, y_score, groups=groups, sample_weight=sample_weight,
            n_points=n_points, recall_levels=recall_levels, pos_label=pos_label,
            name=name, ax=ax, curve_kwargs=curve_kwargs, plot_raw=plot_raw,
            raw_curve_kwargs=raw_curve_kwargs, f_alpha=f_alpha,
            f_alpha_levels=f_alpha_levels, f_alpha_kw=f_alpha_kw, f_beta=f_beta,
        )

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_score, *, groups=None, sample_weight=None,
                         n_points=11, recall_levels="exact", pos_label=None,
                         name=None, ax=None, curve_kwargs=None, plot_raw=True,
                         raw_curve_kwargs=None, f_alpha=None,
                         f_alpha_levels=(0.2, 0.4, 0.6, 0.8), f_alpha_kw=None,
                         f_beta=None):
        """Plot the interpolated precision-recall curve of scores.

        One ranking (``groups=None``): the raw staircase and its envelope at
        ``n_points`` recall levels (or its exact envelope).  With groups: the
        mean over queries of the interpolated precision at those levels.

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
        %(plot_raw)s
        %(raw_curve_kwargs)s
        %(f_alpha)s
        %(f_alpha_levels)s
        %(f_alpha_kw)s
        %(f_beta)s

        Returns
        -------
        display : InterpolatedPrecisionRecallDisplay
            The display, plotted.

        See Also
        --------
        InterpolatedPrecisionRecallDisplay.from_estimator : From an estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import InterpolatedPrecisionRecallDisplay
        >>> # two queries; the curve is their mean at 11 recall levels
        >>> y_true = [1, 0, 1, 0, 1, 0]
        >>> y_score = [0.9, 0.8, 0.7, 0.5, 0.5, 0.2]
        >>> groups = ["q1", "q1", "q1", "q2", "q2", "q2"]
        >>> disp = InterpolatedPrecisionRecallDisplay.from_predictions(
        ...     y_true, y_score, groups=groups, f_beta=[1.0])
        >>> disp.precision.round(4).tolist()
        [0.75, 0.75, 0.75, 0.75, 0.75, 0.75, 0.5833, 0.5833, 0.5833, 0.5833, 0.5833]
        >>> disp.line_.get_label()
        '11-pt AP = 0.6742'
        >>> plt.close("all")
        """
        y_true = cls._relevance(y_true, y_score, pos_label)
        n_points = check_curve_n_points(n_points, allow_none=True)
        check_option(recall_levels, "recall_levels", _RECALL_LEVELS)
        rg, grouped = cls._rank_for_curves(y_true, y_score, groups, sample_weight)
        raw_precision = raw_recall = n_groups = None
        if grouped:
            if n_points is None:
                raise ValueError(
                    "n_points=None draws the exact envelope of one ranking; with "
                    "groups the queries' recall values differ: pass a number of "
                    "recall levels, such as n_points=11 or n_points=101."
                )
            precision, recall, ap, n_groups = interpolated_pr_curve(
                rg, n_points, recall_levels
            )
        else:
            precision, recall, ap, _ = interpolated_pr_curve(
                rg, n_points, recall_levels)
            raw_recall, raw_precision, _ = pr_curve_points(rg)
        display = cls(
            precision=precision, recall=recall, raw_precision=raw_precision,
            raw_recall=raw_recall, average_precision=ap, n_points=n_points,
            n_groups=n_groups, name=name, pos_label=pos_label,
        )
        return display.plot(
            ax=ax, curve_kwargs=curve_kwargs, plot_raw=plot_raw,
            raw_curve_kwargs=raw_curve_kwargs, f_alpha=f_alpha,
            f_alpha_levels=f_alpha_levels, f_alpha_kw=f_alpha_kw, f_beta=f_beta,
        )
