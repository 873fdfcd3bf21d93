"""The Lorenz curve of the exposure that top-N lists give the catalog's items."""

import numpy as np

from .._core import check_positive_int, warn
from .._recommend import exposure_counts, gini_index, lorenz_curve
from ._base import (
    RankingCurveDisplayMixin,
    draw_diagonal,
    finish_axes,
    import_pyplot,
    legend_label,
    plot_doc_filler,
    validate_style_kwargs,
)

__all__ = ["ItemExposureDisplay"]


# parameters that from_recommendations and from_counts describe alike
_fill_doc = plot_doc_filler({
    "name_exposure": """\
name : str, default=None
    Name of the model in the legend.""",
    "curve_kwargs_exposure": """\
curve_kwargs : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the exposure curve.""",
    "train_kw": """\
train_kw : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the curve of the
    training popularity.""",
    "ref_line": """\
ref_line : bool, default=True
    Whether to draw the diagonal of equal exposure.""",
})

_REF_LABEL = "Equal exposure"
_TRAIN_NAME = "Training interactions"


def _check_counts(counts, name, n_items=None):
    """``counts`` as a 1-D float64 array of finite counts >= 0, total > 0."""
    if hasattr(counts, "to_numpy") and not isinstance(counts, np.ndarray):
        counts = counts.to_numpy()
    try:
        arr = np.asarray(counts, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of counts (numbers).") from None
    if arr.ndim != 1 or arr.shape[0] == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array with one count "
                         f"per catalog item, got shape {arr.shape}.")
    if n_items is not None and arr.shape[0] != n_items:
        raise ValueError(f"{name} has {arr.shape[0]} items but counts has "
                         f"{n_items}: both cover the same catalog.")
    if not np.all(np.isfinite(arr)) or (arr < 0).any():
        raise ValueError(f"{name} must hold finite counts >= 0 (negative, NaN "
                         "or infinite found).")
    if arr.sum() <= 0:
        raise ValueError(f"{name} sums to 0: the Lorenz curve of no exposure "
                         "is undefined.")
    return arr


def _lorenz(counts):
    item_share, share = lorenz_curve(counts)
    return item_share, share, gini_index(counts)


class ItemExposureDisplay(RankingCurveDisplayMixin):
    """Lorenz curve of the exposure of the catalog's items in top-N lists.

    The items of the catalog, sorted by exposure ascending, against the
    cumulative share of the recommendations they receive: the curve of a
    model that shows every item equally is the diagonal; the further below
    it, the more the lists concentrate on a few items (popularity bias).
    The exposure of item :math:`i` is :math:`c_i`, the number of top-K lists
    that hold it, exactly as in ``gini@K`` of :func:`recommendation_report`
    (items never recommended count as catalog items with zero exposure),
    and the legend gives the Gini index

    .. math::

        G = \\frac{\\sum_{j=1}^{n} (2j - n - 1)\\, c_{(j)}}{n \\sum_i c_i},

    :math:`c_{(j)}` sorted ascending over the :math:`n` catalog items, equal
    to one minus twice the area under the curve.  With the training
    interactions, the Lorenz curve of the items' training popularity is
    drawn beside it, with its own Gini: a model whose curve lies below the
    training curve concentrates exposure more than the users did.

    Read more in the :ref:`User Guide <displays-exposure>`.

    Use :meth:`from_recommendations` or :meth:`from_counts` to build it.

    Parameters
    ----------
    item_share : ndarray of shape (n_items + 1,)
        ``j / n_items`` for ``j = 0 .. n_items``.
    exposure_share : ndarray of shape (n_items + 1,)
        Share of all recommendations held by the ``j`` least exposed items.
    gini : float
        Gini index of the exposure.
    counts : ndarray of shape (n_items,), default=None
        The exposure of each catalog item.
    train_share : ndarray of shape (n_items + 1,), default=None
        Share of the training interactions held by the ``j`` least popular
        items; None: no training curve.
    train_gini : float, default=None
        Gini index of the training popularity.
    train_counts : ndarray of shape (n_items,), default=None
        The training interactions of each catalog item.
    k : int, default=None
        Length of the lists, shown in the axis label if not None.
    name : str, default=None
        Name of the model in the legend.
    catalog_from_lists : bool, default=False
        Whether the catalog is only the items of the lists (neither
        ``n_items`` nor ``train`` given), as the legend's title then says.

    Attributes
    ----------
    item_share_ : ndarray of shape (n_items + 1,)
        x of the curves: the share of the catalog's items.
    exposure_share_ : ndarray of shape (n_items + 1,)
        y of the exposure curve.
    gini_ : float
        Gini index of the exposure (``gini@K``).
    counts_ : ndarray of shape (n_items,) or None
        Exposure of each catalog item: in :meth:`from_recommendations`, the
        items of ``items_`` first, then the catalog items absent from the
        inputs (zeros).
    items_ : ndarray or None
        Ids of the first ``len(items_)`` entries of ``counts_`` (None in
        :meth:`from_counts`).
    n_items_ : int
        The catalog size the curve is drawn over (stated in the legend's
        title).
    train_share_ : ndarray of shape (n_items + 1,) or None
        y of the training-popularity curve.
    train_gini_ : float or None
        Gini index of the training popularity.
    train_counts_ : ndarray of shape (n_items,) or None
        Training interactions of each catalog item.
    line_ : matplotlib Line2D
        The exposure curve.
    train_line_ : matplotlib Line2D or None
        The training-popularity curve (the one already on the axes when a
        display with the same training curve drew it first).
    ref_line_ : matplotlib Line2D or None
        The diagonal of equal exposure.
    ax_ : matplotlib Axes
        Axes with the curves.
    figure_ : matplotlib Figure
        Figure containing the curves.

    See Also
    --------
    recommendation_report : ``gini@K``, ``coverage@K`` and the other metrics
        of the lists.
    top_k_items : The lists of a users x items score matrix.

    Notes
    -----
    **Ties at the cut.**  An item tied at the K-th place of a list (a tie
    block of ``t`` items with ``f`` free places) counts ``f / t`` towards
    :math:`c_i`: the expected exposure over the orderings of the tied
    items, as ``gini@K`` counts it.  A list given without scores is taken in
    its order (its first K items).

    **Catalog.**  ``n_items`` items: ``n_items=``, else the distinct items of
    ``recommended`` and ``train`` together; the legend's title states the
    size used.  Without ``n_items`` and ``train`` the catalog is only the
    items the lists recommend: every item then has some exposure, coverage
    is 1 by construction and the Gini index is that of the recommended
    items alone (lower than over the whole catalog); a ``UserWarning`` says
    so.  To compare with :func:`recommendation_report`, give the same
    ``n_items`` (the report also counts the held-out items) and
    ``users="recommended"`` (the report's default averages the users with a
    held-out item).

    References
    ----------
    .. [1] H. Abdollahpouri, R. Burke and B. Mobasher, "Managing Popularity
       Bias in Recommender Systems with Personalized Re-ranking", FLAIRS
       2019.
    .. [2] G. Shani and A. Gunawardana, "Evaluating Recommendation Systems",
       in Recommender Systems Handbook, Springer, 2011 (the Gini index of
       item exposure).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from sklearn_rankeval import ItemExposureDisplay
    >>> # three users' top-2 lists over a catalog of 4 items
    >>> recommended = {"ann": ["a", "b"], "bob": ["a", "c"], "cat": ["a", "b"]}
    >>> train = {"ann": ["c"], "bob": ["a", "d"], "dan": ["d"]}
    >>> disp = ItemExposureDisplay.from_recommendations(
    ...     recommended, k=2, train=train, name="model")
    >>> disp.exposure_share_.round(4).tolist()
    [0.0, 0.0, 0.1667, 0.5, 1.0]
    >>> disp.line_.get_label()
    'model (Gini = 0.4167)'
    >>> disp.train_line_.get_label()
    'Training interactions (Gini = 0.3750)'
    >>> plt.close("all")
    """

    def __init__(self, *, item_share, exposure_share, gini, counts=None,
                 train_share=None, train_gini=None, train_counts=None, k=None,
                 name=None, catalog_from_lists=False):
        self.item_share_ = item_share
        self.exposure_share_ = exposure_share
        self.gini_ = gini
        self.counts_ = counts
        self.items_ = None
        self.train_share_ = train_share
        self.train_gini_ = train_gini
        self.train_counts_ = train_counts
        self.k = k
        self.name = name
        self.catalog_from_lists = catalog_from_lists
        self.n_items_ = len(item_share) - 1

    def plot(self, ax=None, *, name=None, curve_kwargs=None, train_kw=None,
             ref_line=True, ref_line_kw=None):
        """Plot the Lorenz curves.

        Draws the diagonal of equal exposure (once per axes), the curve of
        the training popularity if known (once per axes when several
        displays share it) and the exposure curve (``line_``, labelled with
        its Gini index), then sets the axis labels, the limits 0-1 and the
        legend, titled with the catalog size.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None: a new figure and axes.
        name : str, default=None
            Name of the model in the legend; None: ``self.name``.
        curve_kwargs : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the exposure
            curve.
        train_kw : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the curve of the
            training popularity.
        ref_line : bool, default=True
            Whether to draw the diagonal of equal exposure.
        ref_line_kw : dict, default=None
            Keyword arguments of matplotlib's ``plot`` for the diagonal.

        Returns
        -------
        display : ItemExposureDisplay
            The display, with ``line_``, ``train_line_``, ``ref_line_``,
            ``ax_`` and ``figure_`` set.

        See Also
        --------
        ItemExposureDisplay.from_recommendations : Compute and plot.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import ItemExposureDisplay
        >>> disp = ItemExposureDisplay(item_share=[0, 0.5, 1],
        ...                            exposure_share=[0, 0.25, 1], gini=0.25,
        ...                            name="model")
        >>> disp.plot().line_.get_label()
        'model (Gini = 0.2500)'
        >>> disp.ref_line_.get_label()
        'Equal exposure'
        >>> plt.close("all")
        """
        self.ax_, self.figure_, name = self._validate_plot_params(ax=ax, name=name)
        labels = {line.get_label(): line for line in self.ax_.get_lines()}
        self.ref_line_ = draw_diagonal(self.ax_, _REF_LABEL, ref_line, ref_line_kw)

        self.train_line_ = None
        if self.train_share_ is not None:
            train_line_kw = validate_style_kwargs(
                {"label": legend_label(_TRAIN_NAME, "Gini", self.train_gini_),
                 "color": "0.45", "linestyle": ":", "linewidth": 2},
                train_kw, "train_kw",
            )
            same = labels.get(train_line_kw["label"])
            if same is not None and np.array_equal(same.get_ydata(),
                                                   self.train_share_):
                self.train_line_ = same  # the same training data, drawn once
            else:
                (self.train_line_,) = self.ax_.plot(
                    self.item_share_, self.train_share_, **train_line_kw)

        line_kw = validate_style_kwargs(
            {"label": legend_label(name, "Gini", self.gini_)},
            curve_kwargs, "curve_kwargs",
        )
        (self.line_,) = self.ax_.plot(self.item_share_, self.exposure_share_,
                                      **line_kw)
        lists = "top-N lists" if self.k is None else f"top-{self.k} lists"
        finish_axes(
            self.ax_,
            xlabel="Share of catalog items (least exposed first)",
            ylabel=f"Share of recommendations in {lists}",
            legend_loc="upper left",
        )
        legend = self.ax_.get_legend()
        if legend is not None:  # the catalog the curves are drawn over
            legend.set_title(
                f"Catalog: the {self.n_items_} recommended items (n_items not "
                "given)" if self.catalog_from_lists else
                f"Catalog: {self.n_items_} items")
        return self

    @classmethod
    @_fill_doc
    def from_recommendations(cls, recommended, *, k=10, train=None, n_items=None,
                             user="user", item="item", score=None, ax=None,
                             name=None, curve_kwargs=None, train_kw=None,
                             ref_line=True, ref_line_kw=None):
        """Plot the exposure Lorenz curve of top-N recommendation lists.

        The lists are read as :func:`recommendation_report` reads them
        (every user of ``recommended`` counts), cut at ``k``, and each
        catalog item's exposure is the number of lists holding it (ties at
        the cut by their share of the free places).

        Parameters
        ----------
        recommended : pandas.DataFrame, polars.DataFrame, mapping of columns \
or mapping {user: [item, ...]}
            The lists: columns ``user``, ``item`` and optionally a score
            column (higher is better), such as :func:`top_k_items` returns;
            or a mapping from each user to its list in rank order.  Without
            a score, the row order within a user is the rank.
        k : int, default=10
            Length of the lists (the ``K`` of ``gini@K``).
        train : DataFrame, mapping of columns, mapping {user: [item, ...]} \
or sparse matrix, default=None
            Training interactions: the curve of the items' training
            popularity (their number of interactions) is drawn beside.  A
            SciPy sparse ``(n_users, n_items)`` matrix as in
            :func:`recommendation_report` (each stored nonzero entry one
            interaction).
        n_items : int, default=None
            Catalog size; None: the number of distinct items of
            ``recommended`` and ``train`` together, or the width of a sparse
            ``train`` if larger (without ``train``, a ``UserWarning``: the
            catalog is then only the recommended items).  Catalog items
            absent from both have zero exposure.
        user : str, default='user'
            Column name of the user ids.
        item : str, default='item'
            Column name of the item ids.
        score : str, default=None
            Score column of ``recommended``; None: ``"score"`` if present,
            else the row order is the rank.
        %(ax)s
        %(name_exposure)s
        %(curve_kwargs_exposure)s
        %(train_kw)s
        %(ref_line)s
        %(ref_line_kw)s

        Returns
        -------
        display : ItemExposureDisplay
            The display, drawn.

        See Also
        --------
        ItemExposureDisplay.from_counts : The curve of given exposure counts.
        recommendation_report : ``gini@K`` and the other metrics of the lists.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import ItemExposureDisplay
        >>> # "b" and "c" tie at ann's second place: half a list each
        >>> recommended = {"user": ["ann"] * 3 + ["bob"] * 2,
        ...                "item": ["a", "b", "c", "a", "b"],
        ...                "score": [0.9, 0.5, 0.5, 0.8, 0.7]}
        >>> disp = ItemExposureDisplay.from_recommendations(
        ...     recommended, k=2, n_items=4)
        >>> disp.counts_.tolist()
        [2.0, 1.5, 0.5, 0.0]
        >>> round(disp.gini_, 4)
        0.4375
        >>> plt.close("all")
        """
        import_pyplot(f"{cls.__name__}.from_recommendations")
        counts, train_counts, labels = exposure_counts(
            recommended, k=k, train=train, n_items=n_items, user=user,
            item=item, score=score)
        if counts.sum() == 0:
            raise ValueError("recommended: no list holds an item (every score "
                             "is -inf): there is no exposure to draw.")
        if train_counts is not None and train_counts.sum() == 0:
            raise ValueError("train holds no interaction.")
        disp = cls._from_arrays(counts, train_counts, k=k, name=name)
        disp.items_ = labels
        if n_items is None and train is None:
            disp.catalog_from_lists = True
            warn(f"{cls.__name__}: without n_items or train the catalog is the "
                 f"{disp.n_items_} items the lists recommend, so every item has "
                 "some exposure and the Gini index is that of these items only "
                 "(lower than over the whole catalog); pass n_items= (the "
                 "catalog size) or train=.")
        return disp.plot(ax=ax, curve_kwargs=curve_kwargs, train_kw=train_kw,
                         ref_line=ref_line, ref_line_kw=ref_line_kw)

    @classmethod
    @_fill_doc
    def from_counts(cls, counts, *, train_counts=None, k=None, ax=None,
                    name=None, curve_kwargs=None, train_kw=None, ref_line=True,
                    ref_line_kw=None):
        """Plot the exposure Lorenz curve of per-item counts.

        For counts computed elsewhere (a log of impressions, another
        library's lists): one count per catalog item, items never shown
        included as zeros.

        Parameters
        ----------
        counts : array-like of shape (n_items,)
            Exposure of each catalog item (finite, ``>= 0``, not all 0).
        train_counts : array-like of shape (n_items,), default=None
            Training interactions of the same items, in the same order;
            None: no training curve.
        k : int, default=None
            Length of the lists, shown in the axis label if given.
        %(ax)s
        %(name_exposure)s
        %(curve_kwargs_exposure)s
        %(train_kw)s
        %(ref_line)s
        %(ref_line_kw)s

        Returns
        -------
        display : ItemExposureDisplay
            The display, drawn.

        See Also
        --------
        ItemExposureDisplay.from_recommendations : The curve of lists.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import matplotlib.pyplot as plt
        >>> from sklearn_rankeval import ItemExposureDisplay
        >>> disp = ItemExposureDisplay.from_counts([5, 0, 1, 2],
        ...                                        train_counts=[3, 1, 1, 3])
        >>> disp.exposure_share_.round(4).tolist()
        [0.0, 0.0, 0.125, 0.375, 1.0]
        >>> round(disp.gini_, 4), round(disp.train_gini_, 4)
        (0.5, 0.25)
        >>> plt.close("all")
        """
        import_pyplot(f"{cls.__name__}.from_counts")
        counts = _check_counts(counts, "counts")
        if train_counts is not None:
            train_counts = _check_counts(train_counts, "train_counts",
                                         counts.shape[0])
        k = check_positive_int(k, "k")
        disp = cls._from_arrays(counts, train_counts, k=k, name=name)
        return disp.plot(ax=ax, curve_kwargs=curve_kwargs, train_kw=train_kw,
                         ref_line=ref_line, ref_line_kw=ref_line_kw)

    @classmethod
    def _from_arrays(cls, counts, train_counts, *, k, name):
        item_share, share, gini = _lorenz(counts)
        train_share = train_gini = None
        if train_counts is not None:
            _, train_share, train_gini = _lorenz(train_counts)
        return cls(item_share=item_share, exposure_share=share, gini=gini,
                   counts=counts, train_share=train_share, train_gini=train_gini,
                   train_counts=train_counts, k=k, name=name)
