"""A metric against its cutoff ``k`` for several models, with bootstrap
bands (NDCG@k, recall@k, ... against k)."""

from collections.abc import Mapping
from numbers import Integral

import numpy as np

from .._reports import ranking_report
from ._base import (
    RankingCurveDisplayMixin,
    import_pyplot,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["MetricAtKDisplay"]

_fill_doc = plot_doc_filler({
    "metric_k": """\
metric : str, default='ndcg'
    The metric without its cutoff (``'ndcg'``, ``'recall'``,
    ``'precision'``, ``'hit_rate'``, ``'map'``, ...): ``f"{metric}@{k}"``
    must be a scorer name.""",
    "ks": """\
ks : array-like of int, default=None
    The cutoffs, increasing; None: 1 to 10.""",
    "band": """\
confidence : float or None, default=0.95
    Level of the pointwise percentile bootstrap bands over groups; None: no
    bands.
n_resamples : int, default=1000
    Bootstrap resamples.
random_state : int, numpy.random.Generator, RandomState or None, \\
default=None
    Seed of the resampling.""",
    "curve_kw": """\
curve_kwargs : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for every model's line.
band_kw : dict, default=None
    Keyword arguments of matplotlib's ``fill_between`` for the bands.""",
})


class MetricAtKDisplay(RankingCurveDisplayMixin):
    """A metric against its cutoff ``k``, one line per model, with bands.

    For each model, ``metric@k`` for every ``k`` of ``ks`` (a line) and its
    percentile bootstrap interval over groups (a band): the numbers of
    :func:`~sklearn_rankeval.ranking_report` with ``confidence``.  The bands
    are pointwise: each ``k`` has its own 95% interval.

    Read more in the :ref:`User Guide <statistics-displays>`.

    Parameters
    ----------
    metric : str
        The metric without its cutoff (``"ndcg"``).
    ks : ndarray of shape (n_ks,)
        The cutoffs.
    models : list of str
        The models.
    values : ndarray of shape (n_models, n_ks)
        ``metric@k`` of each model.
    ci_low : ndarray of shape (n_models, n_ks), default=None
        Lower end of each band; None: no bands.
    ci_high : ndarray of shape (n_models, n_ks), default=None
        Upper end.
    confidence : float, default=None
        Level of the bands, for the axis label.
    name : str, default=None
        Title of the axes; None: no title.

    Attributes
    ----------
    lines_ : dict of {str: matplotlib Line2D}
        The line of each model.
    bands_ : dict of {str: matplotlib PolyCollection}
        The band of each model (empty without bands).
    ax_ : matplotlib Axes
        Axes with the plot.
    figure_ : matplotlib Figure
        Figure containing the plot.

    See Also
    --------
    sklearn_rankeval.ranking_report : The numbers, with ``confidence``.
    PairwiseComparisonDisplay : Every pair of models at one cutoff.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import MetricAtKDisplay
    >>> y_true = [1, 0, 0, 0, 1, 0, 1, 0, 0]
    >>> groups = [1, 1, 1, 2, 2, 2, 3, 3, 3]
    >>> scores = {"A": [3, 2, 1, 3, 2, 1, 3, 2, 1],
    ...           "B": [1, 2, 3, 2, 3, 1, 3, 2, 1]}
    >>> disp = MetricAtKDisplay.from_predictions(
    ...     y_true, scores, groups=groups, metric="hit_rate", ks=[1, 2, 3],
    ...     confidence=None)
    >>> # A ranks the relevant item 1st, 2nd, 1st; B 3rd, 1st, 1st
    >>> disp.values.round(4).tolist()
    [[0.6667, 1.0, 1.0], [0.6667, 0.6667, 1.0]]
    >>> disp.lines_["B"].get_xydata()[:, 0].tolist()
    [1.0, 2.0, 3.0]
    >>> plt.close("all")
    """

    def __init__(self, *, metric, ks, models, values, ci_low=None, ci_high=None,
                 confidence=None, name=None):
        self.metric = metric
        self.ks = ks
        self.models = models
        self.values = values
        self.ci_low = ci_low
        self.ci_high = ci_high
        self.confidence = confidence
        self.name = name

    def plot(self, ax=None, *, name=None, curve_kwargs=None, band_kw=None):
        """Plot each model's line and band.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Title of the axes; None: ``self.name`` (no title when None).
        curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for every line.
        band_kw : dict, default=None
            Keyword arguments of matplotlib's ``fill_between`` for the bands.

        Returns
        -------
        display : MetricAtKDisplay
            The display, with ``lines_``, ``bands_``, ``ax_`` and ``figure_``
            set.
        """
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        ks = np.asarray(self.ks, dtype=np.float64)
        values = np.asarray(self.values, dtype=np.float64)
        shape = (len(self.models), ks.shape[0])
        if values.shape != shape:
            raise ValueError(f"values must have shape (n_models, n_ks) = {shape}, "
                             f"got {values.shape}.")
        bands = self.ci_low is not None and self.ci_high is not None
        self.lines_, self.bands_ = {}, {}
        for j, model in enumerate(self.models):
            color = f"C{j % 10}"
            kw = validate_style_kwargs({"color": color, "marker": "o",
                                        "markersize": 4, "label": str(model)},
                                       curve_kwargs, "curve_kwargs")
            (self.lines_[model],) = self.ax_.plot(ks, values[j], **kw)
            if bands:
                b_kw = validate_style_kwargs({"color": color, "alpha": 0.2,
                                              "linewidth": 0}, band_kw, "band_kw")
                self.bands_[model] = self.ax_.fill_between(
                    ks, np.asarray(self.ci_low, dtype=np.float64)[j],
                    np.asarray(self.ci_high, dtype=np.float64)[j], **b_kw)
        self.ax_.set_xlabel("k (cutoff)")
        band = (f" ({self.confidence * 100:g}% bootstrap band)"
                if bands and self.confidence is not None else "")
        self.ax_.set_ylabel(f"{self.metric}@k{band}")
        if name is not None:
            self.ax_.set_title(name)
        self.ax_.legend(loc="best")
        return self

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_scores, *, groups=None, metric="ndcg",
                         ks=None, sample_weight=None, confidence=0.95,
                         n_resamples=1000, random_state=None, pos_label=None,
                         name=None, ax=None, curve_kwargs=None, band_kw=None):
        """Compute ``metric@k`` of each model's scores and plot the lines.

        Parameters
        ----------
        %(y_true)s
        y_scores : dict of {str: array-like} or array-like
            ``{model name: scores}`` scoring the same rows; one array: one
            model (named ``"model"``).
        %(groups)s
        %(metric_k)s
        %(ks)s
        sample_weight : array-like, default=None
            As in the metric functions, the same for every model.
        %(band)s
        %(pos_label)s
        name : str, default=None
            Title of the axes; None: no title.
        %(ax)s
        %(curve_kw)s

        Returns
        -------
        display : MetricAtKDisplay
            The display, plotted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import MetricAtKDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(200, random_state=0)
        >>> scores = {"all": X[:, 1:].sum(axis=1), "x1": X[:, 1]}
        >>> disp = MetricAtKDisplay.from_predictions(
        ...     y, scores, groups=users, metric="recall", ks=[1, 5, 10, 20],
        ...     random_state=0)
        >>> bool((disp.ci_low <= disp.values).all()
        ...      and (disp.values <= disp.ci_high).all())
        True
        >>> plt.close("all")
        """
        if not isinstance(y_scores, Mapping):
            y_scores = {"model": y_scores}
        ks = list(range(1, 11)) if ks is None else list(ks)
        if (not ks or any(isinstance(k, bool) or not isinstance(k, Integral)
                          or k < 1 for k in ks)
                or any(b <= a for a, b in zip(ks, ks[1:]))):
            raise ValueError(f"ks must be increasing integers >= 1, got {ks!r}.")
        import_pyplot(f"{cls.__name__}.from_predictions")
        first = next(iter(y_scores.values()), None)
        y_true = cls._relevance(y_true, first, pos_label)
        names = [f"{metric}@{k}" for k in ks]
        values, low, high = [], [], []
        for scores in y_scores.values():
            report = ranking_report(
                y_true, scores, groups=groups, metrics=names,
                sample_weight=sample_weight, confidence=confidence,
                n_resamples=n_resamples, random_state=random_state,
                output="dict")
            if confidence is None:
                values.append([report[n] for n in names])
            else:
                values.append([report[n]["value"] for n in names])
                low.append([report[n]["ci_low"] for n in names])
                high.append([report[n]["ci_high"] for n in names])
        display = cls(metric=metric, ks=np.asarray(ks), models=list(y_scores),
                      values=np.asarray(values, dtype=np.float64),
                      ci_low=np.asarray(low) if low else None,
                      ci_high=np.asarray(high) if high else None,
                      confidence=confidence, name=name)
        return display.plot(ax=ax, curve_kwargs=curve_kwargs, band_kw=band_kw)

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimators, X, y, *, groups=None, metric="ndcg",
                       ks=None, sample_weight=None, confidence=0.95,
                       n_resamples=1000, random_state=None,
                       response_method="auto", pos_label=None, name=None,
                       ax=None, curve_kwargs=None, band_kw=None):
        """Score ``X`` with fitted estimators and plot ``metric@k`` of each.

        Parameters
        ----------
        estimators : dict of {str: estimator}, list of estimators or estimator
            Fitted estimators (a list names each by its class).
        %(X)s
        %(y)s
        %(groups)s
        %(metric_k)s
        %(ks)s
        sample_weight : array-like, default=None
            As in the metric functions.
        %(band)s
        %(response_method)s
        pos_label : int, float, bool or str, default=None
            The class of the classifiers that is relevant.
        name : str, default=None
            Title of the axes; None: no title.
        %(ax)s
        %(curve_kw)s

        Returns
        -------
        display : MetricAtKDisplay
            The display, plotted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import MetricAtKDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(200, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> disp = MetricAtKDisplay.from_estimator(
        ...     clf, X, y, groups=users, ks=[1, 3, 10], confidence=None)
        >>> list(disp.lines_)
        ['LogisticRegression']
        >>> plt.close("all")
        """
        if not isinstance(estimators, (Mapping, list, tuple)):
            estimators = [estimators]
        scores, pos_label = cls._scores_of_estimators(
            estimators, X, response_method=response_method, pos_label=pos_label)
        return cls.from_predictions(
            y, scores, groups=groups, metric=metric, ks=ks,
            sample_weight=sample_weight, confidence=confidence,
            n_resamples=n_resamples, random_state=random_state,
            pos_label=pos_label, name=name, ax=ax, curve_kwargs=curve_kwargs,
            band_kw=band_kw)
