"""Matrix of every pair of models: difference, simultaneous interval and
adjusted p-value, from ``compare_rankings(design="all_pairs")``."""

from collections.abc import Mapping

import numpy as np

from .._reports import compare_rankings
from ._base import (
    RankingCurveDisplayMixin,
    import_pyplot,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["PairwiseComparisonDisplay"]

_fill_doc = plot_doc_filler({
    "pair_test": """\
test : {'tukey_hsd', 'randomized_tukey'}, default='tukey_hsd'
    The all-pairs design: blocked Tukey HSD or randomised Tukey HSD.""",
    "imshow_kw": """\
imshow_kw : dict, default=None
    Keyword arguments of matplotlib's ``imshow`` for the matrix.""",
    "name_title": """\
name : str, default=None
    Title of the axes; None: the metric's name.""",
})


class PairwiseComparisonDisplay(RankingCurveDisplayMixin):
    """Every pair of models of one metric: difference, interval, p-value.

    A ``k x k`` matrix: the cell of row ``a`` and column ``b`` is ``value(b)
    - value(a)``, coloured by its sign and size, and holds the difference,
    its simultaneous interval and its adjusted p-value (Tukey's, from
    :func:`~sklearn_rankeval.compare_rankings` with
    ``design="all_pairs"``); a cell whose p-value is below ``1 -
    confidence`` is written in bold.  The matrix is antisymmetric (``b - a =
    -(a - b)``); the diagonal is empty.

    Read more in the :ref:`User Guide <statistics-displays>`.

    Parameters
    ----------
    metric : str
        The metric compared.
    models : list of str
        The models, in the order of the rows and columns.
    diff : ndarray of shape (n_models, n_models)
        ``diff[a, b] = value(b) - value(a)`` (NaN on the diagonal).
    ci_low : ndarray of shape (n_models, n_models)
        Lower end of the simultaneous interval of each difference.
    ci_high : ndarray of shape (n_models, n_models)
        Upper end.
    p_adjusted : ndarray of shape (n_models, n_models)
        Adjusted p-value of each pair (symmetric; NaN on the diagonal).
    confidence : float, default=0.95
        Level of the intervals; significant: ``p_adjusted < 1 - confidence``.
    test : str, default=None
        The design's test, for the colour bar's label.
    name : str, default=None
        Title of the axes; None: the metric's name.

    Attributes
    ----------
    significant_ : ndarray of bool, shape (n_models, n_models)
        ``p_adjusted < 1 - confidence`` (False on the diagonal).
    im_ : matplotlib AxesImage
        The coloured matrix.
    text_ : ndarray of matplotlib Text, shape (n_models, n_models)
        The annotation of each cell (None on the diagonal).
    ax_ : matplotlib Axes
        Axes with the plot.
    figure_ : matplotlib Figure
        Figure containing the plot.

    See Also
    --------
    sklearn_rankeval.compare_rankings : The numbers drawn here
        (``design="all_pairs"``).
    RankingComparisonDisplay : Every model against one baseline.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import PairwiseComparisonDisplay
    >>> disp = PairwiseComparisonDisplay(
    ...     metric="ndcg", models=["A", "B"], diff=[[None, 0.02], [-0.02, None]],
    ...     ci_low=[[None, 0.005], [-0.035, None]],
    ...     ci_high=[[None, 0.035], [-0.005, None]],
    ...     p_adjusted=[[None, 0.01], [0.01, None]]).plot()
    >>> print(disp.text_[0, 1].get_text())
    +0.0200
    [+0.0050, +0.0350]
    p=0.0100
    >>> disp.significant_.tolist()
    [[False, True], [True, False]]
    >>> plt.close("all")
    """

    def __init__(self, *, metric, models, diff, ci_low, ci_high, p_adjusted,
                 confidence=0.95, test=None, name=None):
        self.metric = metric
        self.models = models
        self.diff = diff
        self.ci_low = ci_low
        self.ci_high = ci_high
        self.p_adjusted = p_adjusted
        self.confidence = confidence
        self.test = test
        self.name = name

    def plot(self, ax=None, *, name=None, imshow_kw=None, text_kw=None,
             colorbar=True):
        """Plot the matrix of differences.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Title of the axes; None: ``self.name``, else the metric's name.
        imshow_kw : dict, default=None
            Keyword arguments of matplotlib's ``imshow`` (default: a
            diverging colour map centred on 0).
        text_kw : dict, default=None
            Keyword arguments of matplotlib's ``text`` for the annotations.
        colorbar : bool, default=True
            Whether to draw a colour bar of the differences.

        Returns
        -------
        display : PairwiseComparisonDisplay
            The display, with ``im_``, ``text_``, ``significant_``, ``ax_``
            and ``figure_`` set.
        """
        plt = import_pyplot(f"{type(self).__name__}.plot")
        k = len(self.models)
        if ax is None:
            size = min(max(4.0, 1.6 * k + 1.5), 14.0)
            _, ax = plt.subplots(figsize=(size + 1.5, size), layout="constrained")
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        arrays = {}
        for what in ("diff", "ci_low", "ci_high", "p_adjusted"):
            a = np.array(getattr(self, what), dtype=np.float64)
            if a.shape != (k, k):
                raise ValueError(f"{what} must have shape (n_models, n_models) = "
                                 f"{(k, k)}, got {a.shape}.")
            arrays[what] = a
        diff, low, high, p = (arrays[w] for w in ("diff", "ci_low", "ci_high",
                                                  "p_adjusted"))
        alpha = round(1.0 - float(self.confidence), 12)
        with np.errstate(invalid="ignore"):
            self.significant_ = np.isfinite(p) & (p < alpha)
        np.fill_diagonal(self.significant_, False)
        span = np.nanmax(np.abs(diff)) if np.isfinite(diff).any() else 1.0
        span = span if span > 0 else 1.0
        im_kw = validate_style_kwargs(
            {"cmap": "RdBu", "vmin": -span, "vmax": span, "aspect": "equal"},
            imshow_kw, "imshow_kw")
        self.im_ = self.ax_.imshow(np.ma.masked_invalid(diff), **im_kw)
        self.text_ = np.empty((k, k), dtype=object)
        for a in range(k):
            for b in range(k):
                if a == b or not np.isfinite(diff[a, b]):
                    continue
                t_kw = validate_style_kwargs(
                    {"ha": "center", "va": "center", "fontsize": "small",
                     "fontweight": "bold" if self.significant_[a, b] else "normal",
                     "color": "white" if abs(diff[a, b]) > 0.6 * span else "black"},
                    text_kw, "text_kw")
                self.text_[a, b] = self.ax_.text(
                    b, a, f"{diff[a, b]:+.4f}\n[{low[a, b]:+.4f}, {high[a, b]:+.4f}]"
                          f"\np={p[a, b]:.4f}", **t_kw)
        labels = [str(m) for m in self.models]
        self.ax_.set_xticks(range(k), labels=labels)
        self.ax_.set_yticks(range(k), labels=labels)
        self.ax_.set_xlabel("model b")
        self.ax_.set_ylabel("model a")
        self.ax_.set_title(name if name is not None else
                           f"{self.metric}: value(b) - value(a)")
        if colorbar:
            how = "" if self.test is None else f", {self.test}"
            self.figure_.colorbar(self.im_, ax=self.ax_).set_label(
                f"difference ({self.confidence * 100:g}% simultaneous "
                f"interval{how})")
        from matplotlib.patches import Patch

        self.ax_.legend(handles=[Patch(color="none",
                                       label=f"bold: p_adjusted < {alpha:g}")],
                        loc="upper left", bbox_to_anchor=(0.0, -0.12),
                        frameon=False, fontsize="small")
        return self

    @classmethod
    @_fill_doc
    def from_predictions(cls, y_true, y_scores, *, groups=None, metric="ndcg@10",
                         sample_weight=None, test="tukey_hsd", confidence=0.95,
                         n_resamples=10000, random_state=None, pos_label=None,
                         name=None, ax=None, imshow_kw=None):
        """Compare every pair of several models' scores and plot the matrix.

        The numbers are those of :func:`~sklearn_rankeval.compare_rankings`
        with ``design="all_pairs"`` and the same arguments.

        Parameters
        ----------
        %(y_true)s
        y_scores : dict of {str: array-like}
            ``{model name: scores}``, at least two models scoring the same
            rows.
        %(groups)s
        metric : str, default='ndcg@10'
            The metric, as a scorer name.
        sample_weight : array-like, default=None
            One weight per row, the same for every model.
        %(pair_test)s
        confidence : float, default=0.95
            Level of the simultaneous intervals and of significance.
        n_resamples : int, default=10000
            Relabellings of the randomised test.
        random_state : int, numpy.random.Generator, RandomState or None, \
default=None
            Seed of the randomised test.
        %(pos_label)s
        %(name_title)s
        %(ax)s
        %(imshow_kw)s

        Returns
        -------
        display : PairwiseComparisonDisplay
            The display, plotted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import PairwiseComparisonDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(200, random_state=0)
        >>> scores = {"all": X[:, 1:].sum(axis=1), "x1": X[:, 1], "x2": X[:, 2]}
        >>> disp = PairwiseComparisonDisplay.from_predictions(
        ...     y, scores, groups=users, metric="ndcg@10")
        >>> disp.models, disp.diff.shape
        (['all', 'x1', 'x2'], (3, 3))
        >>> plt.close("all")
        """
        if not isinstance(y_scores, Mapping):
            raise TypeError(f"y_scores must be a dict {{model name: scores}}, got "
                            f"{type(y_scores).__name__}.")
        first = next(iter(y_scores.values()), None)
        y_true = cls._relevance(y_true, first, pos_label)
        result = compare_rankings(
            y_true, y_scores, groups=groups, metrics=[metric],
            sample_weight=sample_weight, design="all_pairs", test=test,
            confidence=confidence, n_resamples=n_resamples,
            random_state=random_state, output="dict")
        (name_of_metric, pairs), = result.items()
        models = list(y_scores)
        k = len(models)
        fields = {f: np.full((k, k), np.nan)
                  for f in ("diff", "ci_low", "ci_high", "p_adjusted")}
        for a, by_b in pairs.items():
            for b, r in by_b.items():
                i, j = models.index(a), models.index(b)
                fields["diff"][i, j], fields["diff"][j, i] = r["diff"], -r["diff"]
                fields["ci_low"][i, j], fields["ci_high"][j, i] = (r["ci_low"],
                                                                   -r["ci_low"])
                fields["ci_high"][i, j], fields["ci_low"][j, i] = (r["ci_high"],
                                                                   -r["ci_high"])
                fields["p_adjusted"][i, j] = fields["p_adjusted"][j, i] = \
                    r["p_adjusted"]
        display = cls(metric=name_of_metric, models=models, confidence=confidence,
                      test=test, name=name, **fields)
        return display.plot(ax=ax, imshow_kw=imshow_kw)

    @classmethod
    @_fill_doc
    def from_estimator(cls, estimators, X, y, *, groups=None, metric="ndcg@10",
                       sample_weight=None, test="tukey_hsd", confidence=0.95,
                       n_resamples=10000, random_state=None,
                       response_method="auto", pos_label=None, name=None, ax=None,
                       imshow_kw=None):
        """Compare every pair of fitted estimators on ``X`` and plot the matrix.

        Parameters
        ----------
        estimators : dict of {str: estimator} or list of estimators
            At least two fitted estimators (a list names each by its class).
        %(X)s
        %(y)s
        %(groups)s
        metric : str, default='ndcg@10'
            The metric, as a scorer name.
        sample_weight : array-like, default=None
            One weight per row, the same for every model.
        %(pair_test)s
        confidence : float, default=0.95
            Level of the simultaneous intervals and of significance.
        n_resamples : int, default=10000
            Relabellings of the randomised test.
        random_state : int, numpy.random.Generator, RandomState or None, \
default=None
            Seed of the randomised test.
        %(response_method)s
        pos_label : int, float, bool or str, default=None
            The class of the classifiers that is relevant.
        %(name_title)s
        %(ax)s
        %(imshow_kw)s

        Returns
        -------
        display : PairwiseComparisonDisplay
            The display, plotted.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn_rankeval import PairwiseComparisonDisplay
        >>> from sklearn_rankeval.datasets import make_click_log
        >>> X, y, users = make_click_log(200, random_state=0)
        >>> models = {f"C={c}": LogisticRegression(C=c).fit(X, y)
        ...           for c in (1, 0.01, 0.001)}
        >>> disp = PairwiseComparisonDisplay.from_estimator(
        ...     models, X, y, groups=users, metric="gauc")
        >>> disp.models
        ['C=1', 'C=0.01', 'C=0.001']
        >>> plt.close("all")
        """
        scores, pos_label = cls._scores_of_estimators(
            estimators, X, response_method=response_method, pos_label=pos_label)
        return cls.from_predictions(
            y, scores, groups=groups, metric=metric, sample_weight=sample_weight,
            test=test, confidence=confidence, n_resamples=n_resamples,
            random_state=random_state, pos_label=pos_label, name=name, ax=ax,
            imshow_kw=imshow_kw)
