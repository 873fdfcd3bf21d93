"""The public grouped ranking metric functions of scikit-learn's family:
GAUC (``roc_auc_score`` per group), MAP (``average_precision_score`` per
query), interpolated AP, NDCG and DCG (``ndcg_score``, ``dcg_score``).

Each is a docstring and one call of :func:`._pipeline.compute`, which
checks the options declared in the metric's registry entry
(:mod:`._registry`), ranks the input once with the engine, runs the
metric's kernel (:mod:`._kernels`) and aggregates its per-group partials
under ``average``.
"""

from ._docs import fill_doc
from ._pipeline import compute
from ._registry import metric_function
from ._spec import DEFAULT

__all__ = [
    "dcg_score",
    "gauc_score",
    "interpolated_average_precision_score",
    "mean_average_precision_score",
    "ndcg_score",
]


@metric_function("gauc")
@fill_doc
def gauc_score(
    y_true, y_score, *, groups=None, sample_weight=None, average=DEFAULT,
    undefined=None, pos_label=None,
    group_weight=None, ties=None, docno=None, convention=None,
):
    """Group AUC: the ROC AUC of each group, averaged over groups.

    .. math::

        \\mathrm{GAUC} = \\frac{\\sum_g w_g \\, \\mathrm{AUC}_g}{\\sum_g w_g},
        \\qquad \\mathrm{AUC}_g = \\frac{1}{P_g N_g} \\sum_{i \\in P_g}
        \\sum_{j \\in N_g} \\left( [s_i > s_j] + \\tfrac{1}{2} [s_i = s_j] \\right)

    where :math:`P_g` and :math:`N_g` are the positive (``y_true > 0``) and
    negative items of group :math:`g` and :math:`w_g` its number of rows (its
    total sample weight), as used for CTR models evaluated per user.

    Read more in the :ref:`User Guide <gauc>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    sample_weight : array-like of shape (n_samples,), default=None
        Item weights, with the same effect as in
        :func:`sklearn.metrics.roc_auc_score` within each group.  A group's
        weight for ``average="weighted"`` is the sum of its rows' weights.
    average : {'weighted', 'macro'} or None, default='weighted'
        ``'weighted'``: groups weighted by their number of rows (total sample
        weight), the usual GAUC.  ``'macro'``: each group counts once.
        ``None``: an ndarray of the AUC of every group, in the sorted order
        of the unique ids (row order for 2-D input);
        :func:`~sklearn_rankeval.per_group_scores` gives them keyed by id.
    %(undefined)s
    pos_label : int, float, bool or str, default=None
        The label of the positive class (as ``pos_label`` of
        :func:`sklearn.metrics.roc_curve`): with it, ``y_true`` may hold any
        two labels (strings included) and the items equal to ``pos_label`` are
        the positives.  None: ``y_true > 0`` is positive, which also reads
        booleans and the labels ``{-1, 1}`` (``1`` positive) as
        :func:`sklearn.metrics.roc_auc_score` does; string labels then need
        ``pos_label``.
    group_weight : {'impressions', 'uniform', 'positives'}, default=None
        The weight of a group in the average (when ``average`` is not None),
        overriding ``average``: ``'impressions'`` its total sample weight (as
        ``average='weighted'``), ``'uniform'`` one (as ``average='macro'``),
        ``'positives'`` its number of positive items (RecBole's GAUC).  None:
        the convention's, else as ``average`` says.
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.roc_auc_score : The AUC of one ranking.
    mean_average_precision_score : Grouped average precision.

    Notes
    -----
    **Ties**: a tied (positive, negative) pair counts 1/2, so each group's AUC
    equals :func:`sklearn.metrics.roc_auc_score` on its rows.  **Undefined
    groups**: a group with only positives or only negatives (or zero total
    positive or negative weight) has no AUC and is skipped by default, as is
    usual for GAUC.  Scores of ``-inf`` rank below every finite score and tie
    with each other.

    References
    ----------
    .. [1] G. Zhou et al., "Deep Interest Network for Click-Through Rate
       Prediction", KDD 2018 (group AUC weighted by impressions).

    Examples
    --------
    >>> from sklearn_rankeval import gauc_score
    >>> y_true = [0, 1, 0, 1, 1, 0]
    >>> y_score = [0.1, 0.4, 0.35, 0.8, 0.35, 0.1]
    >>> groups = ["u1", "u1", "u2", "u2", "u2", "u2"]
    >>> # u1 is ranked perfectly: AUC 1.  In u2, of the four (positive,
    >>> # negative) pairs three are ordered right and one is tied: AUC 3.5/4
    >>> gauc_score(y_true, y_score, groups=groups, average=None).tolist()
    [1.0, 0.875]
    >>> # weighted by the number of rows: (2 * 1 + 4 * 0.875) / 6
    >>> round(gauc_score(y_true, y_score, groups=groups), 4)
    0.9167
    """
    return compute("gauc", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   group_weight=group_weight, ties=ties, docno=docno,
                   convention=convention, pos_label=pos_label)


@metric_function("map")
@fill_doc
def mean_average_precision_score(
    y_true, y_score, *, groups=None, k=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, k_denominator=None, undefined=None,
    query_weight=None, ties=None, docno=None, convention=None,
):
    """Mean average precision (MAP, or MAP@k) over queries.

    .. math::

        \\mathrm{AP}@k = \\frac{1}{\\min(R, k)} \\sum_{i=1}^{k} P(i)\\,\\mathrm{rel}_i,
        \\qquad \\mathrm{MAP} = \\frac{1}{|Q|} \\sum_{q} \\mathrm{AP}_q

    where :math:`P(i)` is the precision of the top :math:`i` items and
    :math:`R` the number of relevant items of the query (retrieved or not).
    With ``k=None`` the normaliser is :math:`R`.

    Read more in the :ref:`User Guide <map>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_none)s
    %(labels)s
    sample_weight : array-like, default=None
        Item weights (one per row of the long layout; one per query in the
        2-D and multiclass layouts), with the same effect as in
        :func:`sklearn.metrics.average_precision_score` within each query.
    %(average_query)s
    k_denominator : {'min', 'relevant', 'hits'}, default=None
        Normaliser of AP@k: ``'min'`` divides by ``min(R, k)`` (the textbook
        AP@k); ``'relevant'`` divides by ``R``, as trec_eval's ``map_cut_k``;
        ``'hits'`` by the relevant items ranked in the top ``k`` (all the
        retrieved relevant items when ``k`` is None), as torchmetrics'
        ``RetrievalMAP`` (0 without a hit).  ``'min'`` and ``'relevant'``
        agree when ``k`` is None.  None: the convention's, else ``'min'``.
    %(undefined)s
    query_weight : {'item', 'mean'}, default=None
        What ``sample_weight`` means in the long layout.  ``'item'``: item
        weights inside each query (as in
        :func:`sklearn.metrics.average_precision_score`).  ``'mean'``: each
        query is weighted by the mean of its rows' weights and the weights do
        not act inside it, as LightGBM's and XGBoost's ``map@k``.  None: the
        convention's, else ``'item'``.
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.average_precision_score : AP of one ranking.
    interpolated_average_precision_score : 11-point and all-points AP.

    Notes
    -----
    **Ties**: precision is taken at the end of each tie block (the thresholds
    of :func:`sklearn.metrics.precision_recall_curve`), so with ``k=None`` each
    query's AP equals :func:`sklearn.metrics.average_precision_score` and, on
    2-D binary input, the mean equals
    :func:`sklearn.metrics.label_ranking_average_precision_score` over rows
    with a relevant item.  With ``k``, a tie block cut by the cutoff counts for
    the share of it ranked within the top k, so ``k`` at least the group size
    gives MAP.  **Weights with k**: the cutoff counts items, not weight; the
    weighted sum of precisions above the cutoff is scaled by ``R / W`` (``W``
    the relevant weight) before dividing by ``min(R, k)``, so unit weights give
    the unweighted value, but integer weights are not the same as repeated
    rows (repeating rows moves items across the cutoff).  **Undefined
    groups**: a query with no relevant item is skipped by default.  Without
    ties, the value equals trec_eval's ``map`` (and ``map_cut_k`` with
    ``k_denominator='relevant'``).

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (mean average precision).
    .. [2] trec_eval, the evaluation program of TREC,
       https://github.com/usnistgov/trec_eval (measures ``map`` and
       ``map_cut``).

    Examples
    --------
    >>> from sklearn_rankeval import mean_average_precision_score
    >>> # query 1: relevant at ranks 1 and 3 -> (1 + 2/3) / 2
    >>> # query 2: its relevant item ties with another at the top -> 1/2
    >>> y_true = [1, 0, 1, 1, 0]
    >>> y_score = [3, 2, 1, 5, 5]
    >>> groups = [1, 1, 1, 2, 2]
    >>> round(mean_average_precision_score(y_true, y_score, groups=groups), 4)
    0.6667
    >>> # AP@1: query 1 scores 1; in query 2 half of the tied block is in the
    >>> # top 1, and the block's precision is 1/2 -> 1/4
    >>> round(mean_average_precision_score(y_true, y_score, groups=groups, k=1), 4)
    0.625
    >>> # LightGBM and XGBoost keep tied items in row order: query 2's
    >>> # relevant item comes first -> AP@1 of 1
    >>> mean_average_precision_score(y_true, y_score, groups=groups, k=1,
    ...                              convention="lightgbm")
    1.0
    """
    return compute("map", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k, k_denominator=k_denominator,
                   query_weight=query_weight, ties=ties, docno=docno,
                   convention=convention)


@metric_function("interpolated_ap")
@fill_doc
def interpolated_average_precision_score(
    y_true, y_score, *, groups=None, n_points=DEFAULT, sample_weight=None,
    average=DEFAULT, recall_levels=None, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Interpolated average precision (11-point, 101-point or all-points).

    The interpolated precision at recall :math:`r` is the highest precision at
    any recall :math:`\\geq r`.  With ``n_points=N`` the score is its mean over
    the recall levels :math:`0, \\frac{1}{N-1}, \\dots, 1`; ``N=11`` is the
    TREC / PASCAL VOC 2007 11-point average, ``N=101`` COCO's.  With
    ``n_points=None`` it is the all-points interpolation of VOC 2010+: the area
    under the interpolated precision-recall curve.

    Read more in the :ref:`User Guide <interpolated-ap>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    n_points : int >= 2 or None, default=11
        Number of equally spaced recall levels from 0 to 1 (11: TREC / VOC
        2007; 101: COCO).  None: all-points interpolation (VOC 2010+).
    sample_weight : array-like, default=None
        Item weights, as for :func:`mean_average_precision_score`.
    %(average_query)s
    %(recall_levels)s
    %(undefined)s
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    interpolated_precision_recall_curve : The interpolated precisions themselves.
    mean_average_precision_score : Non-interpolated AP.

    Notes
    -----
    **Ties**: precision-recall points are taken at the end of each tie block.
    Recall levels are compared exactly in integers (``n_rel_so_far * (N - 1)
    >= j * R``), so recall 3/10 reaches level 0.3.  Levels that no retrieved
    item reaches (relevant items with score ``-inf``) have precision 0.
    **Undefined groups**: a query with no relevant item is skipped by default.

    References
    ----------
    .. [1] M. Everingham et al., "The PASCAL Visual Object Classes (VOC)
       Challenge", IJCV 2010 (11-point AP of VOC 2007).

    Examples
    --------
    >>> from sklearn_rankeval import interpolated_average_precision_score
    >>> # relevant items at ranks 1 and 3: precision 1 up to recall 1/2, then 2/3
    >>> y_true = [1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.7, 0.1]
    >>> round(interpolated_average_precision_score(y_true, y_score), 4)
    0.8485
    >>> round(interpolated_average_precision_score(y_true, y_score, n_points=None), 4)
    0.8333
    """
    return compute("interpolated_ap", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   n_points=n_points, recall_levels=recall_levels,
                   ties=ties, docno=docno, convention=convention)


@metric_function("ndcg")
@fill_doc
def ndcg_score(
    y_true, y_score, *, groups=None, k=DEFAULT, sample_weight=None, average=DEFAULT,
    undefined=None,
    gain=None, ties=None, docno=None, convention=None,
):
    """Normalized discounted cumulative gain, per query, averaged.

    .. math::

        \\mathrm{DCG}@k = \\sum_{i=1}^{k} \\frac{\\mathrm{rel}_i}{\\log_2(i + 1)},
        \\qquad \\mathrm{NDCG}@k = \\frac{\\mathrm{DCG}@k}{\\mathrm{IDCG}@k}

    with the graded relevance ``y_true`` as gain and IDCG the DCG of the ideal
    ordering of all the query's items.

    Read more in the :ref:`User Guide <ndcg>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Graded relevance (``>= 0``), used as the gain.  1-D class labels when
        ``y_score`` is 2-D multiclass scores.
    %(y_score)s
    %(groups)s
    %(k_none)s
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s
    %(gain)s
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.ndcg_score : The same value on 2-D input.

    Notes
    -----
    **Ties**: the gains of tied items are averaged over the ranks they share
    (McSherry & Najork), so on 2-D input the value equals
    :func:`sklearn.metrics.ndcg_score` for rows with a nonzero gain.
    **Undefined groups**: a query without any positive gain is skipped by
    default (scikit-learn scores it 0 and counts it: pass ``undefined=0`` for
    that).  Items with score ``-inf`` are not retrieved: they add no DCG but
    count in the ideal DCG, as in trec_eval's ``ndcg_cut_k``.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of
       IR techniques", ACM TOIS 20(4), 2002.
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008.

    Examples
    --------
    >>> from sklearn_rankeval import ndcg_score
    >>> # gains 3, 2, 3, 0, 1, 2 in ranked order; the ideal order is 3, 3, 2, 2, 1, 0
    >>> y_true = [3, 2, 3, 0, 1, 2]
    >>> y_score = [6, 5, 4, 3, 2, 1]
    >>> round(ndcg_score(y_true, y_score), 4)
    0.9608
    >>> # 2-D layout, one query per row, as sklearn.metrics.ndcg_score
    >>> # the tie at rank 2-3 shares the gains 1 and 0 over both ranks
    >>> round(ndcg_score([[1, 0, 2]], [[0.3, 0.3, 0.9]], k=2), 4)
    0.8801
    >>> # LightGBM's ndcg@2: gain 2**rel - 1, the tie in column order (1 first)
    >>> round(ndcg_score([[1, 0, 2]], [[0.3, 0.3, 0.9]], k=2,
    ...                  convention="lightgbm"), 4)
    1.0
    """
    return compute("ndcg", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k,
                   gain=gain, ties=ties, docno=docno, convention=convention)


@metric_function("dcg")
@fill_doc
def dcg_score(
    y_true, y_score, *, groups=None, k=DEFAULT, log_base=DEFAULT, sample_weight=None,
    average=DEFAULT, undefined=None,
    gain=None, ties=None, docno=None, convention=None,
):
    """Discounted cumulative gain, per query, averaged.

    .. math::

        \\mathrm{DCG}@k = \\sum_{i=1}^{k} \\frac{\\mathrm{rel}_i}{\\log_b(i + 1)}

    with the graded relevance ``y_true`` as gain and :math:`b` = ``log_base``,
    as :func:`sklearn.metrics.dcg_score`, for every query of the long layout.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Graded relevance (``>= 0``), used as the gain.  1-D class labels when
        ``y_score`` is 2-D multiclass scores.
    %(y_score)s
    %(groups)s
    %(k_none)s
    log_base : float, default=2
        Base of the logarithm of the discount, as in
        :func:`sklearn.metrics.dcg_score`.
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s
    %(gain)s
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    sklearn.metrics.dcg_score : The same value on 2-D input.
    ndcg_score : DCG over the DCG of the ideal ordering.

    Notes
    -----
    **Ties**: the gains of tied items are averaged over the ranks they share
    (McSherry & Najork), as scikit-learn does, so on 2-D input the value
    equals :func:`sklearn.metrics.dcg_score` (``ignore_ties=False``).
    **Undefined groups**: none; a query without gain scores 0 and counts, as
    in scikit-learn (``undefined`` has no effect).  Items with score ``-inf``
    are not retrieved and add nothing.  DCG is not normalized: its scale grows
    with the gains and the number of relevant items, so queries with more
    relevant items weigh more in the average.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation of
       IR techniques", ACM TOIS 20(4), 2002.
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008.

    Examples
    --------
    >>> from sklearn_rankeval import dcg_score
    >>> # gains 3, 2, 0 at ranks 1-3: 3/log2(2) + 2/log2(3)
    >>> round(dcg_score([3, 0, 2], [0.9, 0.1, 0.5]), 4)
    4.2619
    >>> # 2-D layout, as sklearn.metrics.dcg_score: the tie at ranks 2-3
    >>> # shares the gains 1 and 0 over both ranks
    >>> round(dcg_score([[1, 0, 2]], [[0.3, 0.3, 0.9]]), 4)
    2.5655
    """
    return compute("dcg", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k, log_base=log_base,
                   gain=gain, ties=ties, docno=docno, convention=convention)
