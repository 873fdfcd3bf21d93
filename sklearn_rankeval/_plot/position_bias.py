"""The examination propensity of each position of a click log."""

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._counterfactual import PositionBiasEstimator
from ._base import (
    RankingCurveDisplayMixin,
    import_pyplot,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["PositionBiasDisplay"]

_fill_doc = plot_doc_filler({
    "name_bias": """\
name : str, default=None
    Name of the propensity curve in the legend; None: ``"Propensity
    (<method>)"``.""",
    "curve_kwargs_bias": """\
curve_kwargs : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the propensity curve.""",
    "ctr_kw": """\
ctr_kw : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the click-through rates.""",
})

_CTR_LABEL = "Click-through rate / CTR at position 1"


class PositionBiasDisplay(RankingCurveDisplayMixin):
    """Examination propensity of each position, beside its click-through rate.

    The propensities :math:`\\theta_k / \\theta_1` of a fitted
    :class:`PositionBiasEstimator` (``line_``), and the click-through rate of
    each position over that of position 1 (``ctr_line_``): the naive
    estimate, which takes every position to show items of the same
    relevance.  Where the old ranker put its best items on top, the naive
    curve falls faster than the propensities: its drop mixes examination
    with relevance.

    Read more in the :ref:`User Guide <counterfactual-display>`.

    Use :meth:`from_estimator` or :meth:`from_log` to build it.

    Parameters
    ----------
    propensities : ndarray of shape (n_positions,)
        :math:`\\theta_k / \\theta_1` of positions ``1 .. n_positions``.
    click_rates : ndarray of shape (n_positions,), default=None
        Click-through rate of each position; None: no CTR curve.
    name : str, default=None
        Name of the propensity curve in the legend.

    Attributes
    ----------
    positions_ : ndarray of shape (n_positions,)
        ``1 .. n_positions``, the x of the curves.
    propensities_ : ndarray of shape (n_positions,)
        The y of ``line_``.
    relative_click_rates_ : ndarray of shape (n_positions,) or None
        The click-through rates over that of position 1: the y of
        ``ctr_line_``.
    line_ : matplotlib Line2D
        The propensity curve.
    ctr_line_ : matplotlib Line2D or None
        The click-through-rate curve.
    ax_ : matplotlib Axes
        Axes with the curves.
    figure_ : matplotlib Figure
        Figure containing the curves.

    See Also
    --------
    PositionBiasEstimator : The propensities of a log.
    counterfactual_report : Metrics of a new ranker weighted by them.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import PositionBiasDisplay, PositionBiasEstimator
    >>> clicks    = [1, 1, 1, 0, 1, 0, 1, 1]
    >>> positions = [1, 2, 1, 2, 1, 2, 2, 1]
    >>> items     = ["a", "b", "a", "b", "b", "a", "b", "a"]
    >>> est = PositionBiasEstimator().fit(clicks, positions, items=items)
    >>> disp = PositionBiasDisplay.from_estimator(est)
    >>> disp.propensities_.round(4).tolist()
    [1.0, 0.5]
    >>> disp.line_.get_label()
    'Propensity (em)'
    >>> disp.relative_click_rates_.tolist()
    [1.0, 0.5]
    >>> plt.close("all")
    """

    def __init__(self, *, propensities, click_rates=None, name=None):
        self.propensities_ = np.asarray(propensities, dtype=np.float64)
        self.positions_ = np.arange(1, self.propensities_.shape[0] + 1)
        self.relative_click_rates_ = (
            None if click_rates is None
            else np.asarray(click_rates, dtype=np.float64) / click_rates[0])
        self.name = name

    def plot(self, ax=None, *, name=None, curve_kwargs=None, ctr_kw=None):
        """Plot the propensities and the click-through rates.

        The propensities (``line_``), then the click-through rates (if
        known) over them, dashed, grey and hollow, so that both show where
        they coincide (under a randomized display they are the same numbers,
        and the legend says so); the y axis starts at 0, the x axis has one
        tick per position, and axes without a title get one.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Name of the propensity curve in the legend; None: ``self.name``.
        curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the propensity
            curve.
        ctr_kw : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the click-through
            rates.

        Returns
        -------
        display : PositionBiasDisplay
            The display, with ``line_``, ``ctr_line_``, ``ax_`` and
            ``figure_`` set.

        See Also
        --------
        PositionBiasDisplay.from_estimator : Plot a fitted estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import PositionBiasDisplay
        >>> disp = PositionBiasDisplay(propensities=[1.0, 0.6, 0.4],
        ...                            click_rates=[0.2, 0.1, 0.05], name="EM")
        >>> disp.plot().ctr_line_.get_ydata().tolist()
        [1.0, 0.5, 0.25]
        >>> plt.close("all")
        """
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        self.ctr_line_ = None
        kw = validate_style_kwargs({"label": name, "marker": "o", "zorder": 2},
                                   curve_kwargs, "curve_kwargs")
        (self.line_,) = self.ax_.plot(self.positions_, self.propensities_, **kw)
        same = (self.relative_click_rates_ is not None
                and self.relative_click_rates_.shape == self.propensities_.shape
                and np.allclose(self.relative_click_rates_, self.propensities_))
        if self.relative_click_rates_ is not None:
            # drawn over the propensities, hollow and dashed: visible where
            # the two coincide (a randomized log: they are the same numbers)
            label = _CTR_LABEL + (" (= the propensities)" if same else "")
            kw = validate_style_kwargs(
                {"label": label, "color": "0.35", "linestyle": "--",
                 "marker": "s", "markersize": 8, "markerfacecolor": "none",
                 "zorder": 3}, ctr_kw, "ctr_kw")
            (self.ctr_line_,) = self.ax_.plot(self.positions_,
                                              self.relative_click_rates_, **kw)
        if not self.ax_.get_title():
            self.ax_.set_title("Position bias: examination propensity per position")
        top = max(1.0, *(float(np.max(line.get_ydata()))
                         for line in self.ax_.get_lines()))
        self.ax_.set(xlabel="Position", ylim=(0.0, 1.05 * top),
                     ylabel="Examination propensity (position 1 = 1)")
        self.ax_.set_xticks(self.positions_)
        _, labels = self.ax_.get_legend_handles_labels()
        if labels:
            self.ax_.legend(loc="upper right")
        return self

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimator, *, name=None, ax=None, curve_kwargs=None,
                       ctr_kw=None):
        """Plot the propensities of a fitted :class:`PositionBiasEstimator`.

        Its ``propensities_`` and ``click_rates_``, with no new fit.

        Parameters
        ----------
        estimator : PositionBiasEstimator
            A fitted estimator.
        %(name_bias)s
        %(ax)s
        %(curve_kwargs_bias)s
        %(ctr_kw)s

        Returns
        -------
        display : PositionBiasDisplay
            The display, plotted.

        See Also
        --------
        PositionBiasDisplay.from_log : Fit the estimator and plot.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import PositionBiasDisplay, PositionBiasEstimator
        >>> est = PositionBiasEstimator(method="randomized").fit(
        ...     [1, 1, 1, 1, 0, 0], [1, 2, 3, 1, 2, 3], items=[0, 1, 2, 1, 2, 0])
        >>> PositionBiasDisplay.from_estimator(est).propensities_.tolist()
        [1.0, 0.5, 0.5]
        >>> plt.close("all")
        """
        import_pyplot(f"{cls.__name__}.from_estimator")
        if not isinstance(estimator, PositionBiasEstimator):
            raise TypeError(f"estimator must be a fitted PositionBiasEstimator, "
                            f"got {type(estimator).__name__}.")
        check_is_fitted(estimator, "propensities_")
        if name is None:
            name = f"Propensity ({estimator.method})"
        disp = cls(propensities=estimator.propensities_,
                   click_rates=estimator.click_rates_, name=name)
        return disp.plot(ax=ax, curve_kwargs=curve_kwargs, ctr_kw=ctr_kw)

    @classmethod
    @_fill_doc
    def from_log(cls, clicks, positions, *, items=None, groups=None, sample_weight=None,
                 method="em", max_position=None, name=None, ax=None,
                 curve_kwargs=None, ctr_kw=None):
        """Fit a :class:`PositionBiasEstimator` to a click log and plot it.

        The same as fitting ``PositionBiasEstimator(method=method,
        max_position=max_position)`` and calling :meth:`from_estimator`.

        Parameters
        ----------
        clicks : array-like of shape (n_samples,)
            1 where the displayed item was clicked, else 0.
        positions : array-like of shape (n_samples,)
            The 1-based rank at which each item was displayed.
        items : array-like of shape (n_samples,), default=None
            What was shown, identified across impressions (for ``'em'`` and
            ``'harvest'``; ``'randomized'`` needs none).
        groups : array-like of shape (n_samples,), default=None
            The impression of each row.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each row.
        method : {'em', 'harvest', 'randomized'}, default='em'
            The estimator's ``method``.
        max_position : int, default=None
            The estimator's ``max_position``.
        %(name_bias)s
        %(ax)s
        %(curve_kwargs_bias)s
        %(ctr_kw)s

        Returns
        -------
        display : PositionBiasDisplay
            The display, plotted; its estimator's propensities and click
            rates.

        See Also
        --------
        PositionBiasDisplay.from_estimator : Plot a fitted estimator.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import PositionBiasDisplay
        >>> disp = PositionBiasDisplay.from_log(
        ...     [1, 1, 1, 0, 1, 0, 1, 1], [1, 2, 1, 2, 1, 2, 2, 1],
        ...     items=["a", "b", "a", "b", "b", "a", "b", "a"])
        >>> disp.propensities_.round(4).tolist()
        [1.0, 0.5]
        >>> plt.close("all")
        """
        import_pyplot(f"{cls.__name__}.from_log")
        est = PositionBiasEstimator(method=method, max_position=max_position).fit(
            clicks, positions, items=items, groups=groups,
            sample_weight=sample_weight)
        return cls.from_estimator(est, name=name, ax=ax, curve_kwargs=curve_kwargs,
                                  ctr_kw=ctr_kw)
