"""The public grouped ranking metric functions.

Each is a docstring and one call of :func:`~sklearn_rankeval._registry.compute`,
which checks the options declared in the metric's
:class:`~sklearn_rankeval._registry.MetricSpec`, ranks the input once with the
engine, runs the metric's kernel (``_kernels.py``) and aggregates its
per-group partials under ``average``.
"""

from ._docs import fill_doc
from ._registry import compute

__all__ = [
    "gauc_score",
    "hit_rate_score",
    "interpolated_average_precision_score",
    "mean_average_precision_score",
    "mean_reciprocal_rank_score",
    "ndcg_score",
    "precision_at_k_score",
    "recall_at_k_score",
]


# ---------------------------------------------------------------------------
# public metric functions: a docstring and one call each
# ---------------------------------------------------------------------------
@fill_doc
def gauc_score(
    y_true, y_score, *, groups=None, sample_weight=None, average="weighted",
    undefined="skip",
):
    """Group AUC: the ROC AUC of each group, averaged over groups.

    .. math::

        \\mathrm{GAUC} = \\frac{\\sum_g w_g \\, \\mathrm{AUC}_g}{\\sum_g w_g},
        \\qquad \\mathrm{AUC}_g = \\frac{1}{P_g N_g} \\sum_{i \\in P_g}
        \\sum_{j \\in N_g} \\left( [s_i > s_j] + \\tfrac{1}{2} [s_i = s_j] \\right)

    where :math:`P_g` and :math:`N_g` are the positive (``y_true > 0``) and
    negative items of group :math:`g` and :math:`w_g` its number of rows (its
    total sample weight), as used for CTR models evaluated per user.

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
        ``None``: the AUC of every group.
    %(undefined)s

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
                   sample_weight=sample_weight, average=average, undefined=undefined)


@fill_doc
def mean_reciprocal_rank_score(
    y_true, y_score, *, groups=None, k=None, labels=None, sample_weight=None,
    average="macro", undefined="skip",
):
    """Mean reciprocal rank of the first relevant item of each query.

    .. math::

        \\mathrm{MRR} = \\frac{1}{|Q|} \\sum_{q \\in Q} \\frac{1}{\\mathrm{rank}_q}

    where :math:`\\mathrm{rank}_q` is the rank of the first relevant item of
    query :math:`q` (its reciprocal counts 0 when it is below ``k`` or not
    retrieved).

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_none)s
    %(labels)s
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    hit_rate_score : Share of relevant items in the top k.
    mean_average_precision_score : Mean of the per-query average precision.

    Notes
    -----
    **Ties**: the value is the expected reciprocal rank over all orderings of
    the tied items (``1/m * (1/(s+1) + ... + 1/(s+m))`` for one relevant item
    tied with ``m - 1`` others below ``s`` items), never the input order.
    **Undefined groups**: a query with no relevant item is skipped by default.
    Without ties the value equals trec_eval's ``recip_rank``.

    References
    ----------
    .. [1] E. M. Voorhees, "The TREC-8 Question Answering Track Report",
       TREC 1999 (mean reciprocal rank).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import mean_reciprocal_rank_score
    >>> # query "a": first relevant item at rank 2 -> 1/2;
    >>> # query "b": the relevant item ties with one other at the top -> (1 + 1/2) / 2
    >>> y_true = [0, 1, 0, 1, 0]
    >>> y_score = [0.9, 0.5, 0.1, 0.7, 0.7]
    >>> groups = ["a", "a", "a", "b", "b"]
    >>> round(mean_reciprocal_rank_score(y_true, y_score, groups=groups), 4)
    0.625
    """
    return compute("mrr", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k)


@fill_doc
def mean_average_precision_score(
    y_true, y_score, *, groups=None, k=None, labels=None, sample_weight=None,
    average="macro", k_denominator="min", undefined="skip",
):
    """Mean average precision (MAP, or MAP@k) over queries.

    .. math::

        \\mathrm{AP}@k = \\frac{1}{\\min(R, k)} \\sum_{i=1}^{k} P(i)\\,\\mathrm{rel}_i,
        \\qquad \\mathrm{MAP} = \\frac{1}{|Q|} \\sum_{q} \\mathrm{AP}_q

    where :math:`P(i)` is the precision of the top :math:`i` items and
    :math:`R` the number of relevant items of the query (retrieved or not).
    With ``k=None`` the normaliser is :math:`R`.

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
    k_denominator : {'min', 'relevant'}, default='min'
        Normaliser of AP@k: ``'min'`` divides by ``min(R, k)`` (the textbook
        AP@k); ``'relevant'`` divides by ``R``, as trec_eval's ``map_cut_k``.
        Ignored when ``k`` is None.
    %(undefined)s

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
    """
    return compute("map", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k, k_denominator=k_denominator)


@fill_doc
def interpolated_average_precision_score(
    y_true, y_score, *, groups=None, n_points=11, sample_weight=None,
    average="macro", recall_levels="exact", undefined="skip",
):
    """Interpolated average precision (11-point, 101-point or all-points).

    The interpolated precision at recall :math:`r` is the highest precision at
    any recall :math:`\\geq r`.  With ``n_points=N`` the score is its mean over
    the recall levels :math:`0, \\frac{1}{N-1}, \\dots, 1`; ``N=11`` is the
    TREC / PASCAL VOC 2007 11-point average, ``N=101`` COCO's.  With
    ``n_points=None`` it is the all-points interpolation of VOC 2010+: the area
    under the interpolated precision-recall curve.

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
                   n_points=n_points, recall_levels=recall_levels)


@fill_doc
def hit_rate_score(
    y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None,
    average="micro", undefined="skip",
):
    """Hit rate at k: relevant items found in the top k over all relevant items.

    .. math::

        \\mathrm{HR}@k = \\frac{\\sum_q \\mathrm{Hits}_q@k}{\\sum_q |\\mathrm{Rel}_q|}

    pooled over queries (``average='micro'``).  With one relevant item per
    query (a leave-one-out split, or multiclass input) it is the share of
    queries whose item is in the top k -- the top-k accuracy.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_pooled)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    recall_at_k_score : Per-query recall at k (the same counts, averaged per query).
    sklearn.metrics.top_k_accuracy_score : Equal on multiclass input without ties.

    Notes
    -----
    HR@k and R@k share their counts: ``hit_rate_score(average=a)`` equals
    ``recall_at_k_score(average=a)``; they differ only in the default
    ``average`` (pooled for HR@k, per query for R@k).  **Ties**: the expected
    number of hits over all orderings of the tied items (a block of ``m`` tied
    items of which ``k - s`` fit in the top k contributes ``(k - s)/m`` of its
    relevant items).  **Undefined groups**: a query without relevant items
    adds nothing to the pooled counts and is skipped by the other averages.

    References
    ----------
    .. [1] M. Deshpande and G. Karypis, "Item-based top-N recommendation
       algorithms", ACM TOIS 22(1), 2004 (hit rate).
    .. [2] X. He et al., "Neural Collaborative Filtering", WWW 2017
       (leave-one-out hit ratio).
    .. [3] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import hit_rate_score
    >>> # three users with 10, 12 and 8 relevant items and 6, 5 and 4 of them
    >>> # in their top 10 would score (6 + 5 + 4) / (10 + 12 + 8) = 0.5.
    >>> # Multiclass: the true class must be among the two highest scores
    >>> y_true = [0, 1, 2]
    >>> y_score = [[0.5, 0.3, 0.2], [0.5, 0.2, 0.3], [0.2, 0.5, 0.3]]
    >>> round(hit_rate_score(y_true, y_score, k=2), 4)
    0.6667
    """
    return compute("hit_rate", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k)


@fill_doc
def precision_at_k_score(
    y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None,
    average="macro", undefined="skip",
):
    """Precision at k: relevant items among the top k, divided by k.

    .. math::

        P@k = \\frac{|\\{\\text{relevant items in the top } k\\}|}{k}

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_pooled)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    recall_at_k_score : Relevant items in the top k over all relevant items.

    Notes
    -----
    The denominator is ``k`` even when a query has fewer than ``k`` items (the
    missing ranks count as non-relevant), as trec_eval's ``P_k``.  **Ties**:
    the expected value over all orderings of the tied items.  **Undefined
    groups**: a query with no relevant item is skipped by default.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (precision at k).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import precision_at_k_score
    >>> # top 2 of query 1 holds one relevant item; in query 2 the relevant
    >>> # item ties with two others for ranks 1-3, so on average 2/3 of it is in
    >>> # the top 2
    >>> y_true = [1, 0, 1, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.2, 0.5, 0.5, 0.5]
    >>> groups = [1, 1, 1, 2, 2, 2]
    >>> precision_at_k_score(y_true, y_score, groups=groups, k=2, average=None).round(4)
    array([0.5   , 0.3333])
    """
    return compute("precision", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k)


@fill_doc
def recall_at_k_score(
    y_true, y_score, *, groups=None, k=10, labels=None, sample_weight=None,
    average="macro", undefined="skip",
):
    """Recall at k: relevant items in the top k over the query's relevant items.

    .. math::

        R@k = \\frac{|\\{\\text{relevant items in the top } k\\}|}{R}

    where :math:`R` counts every relevant item of the query, retrieved or not.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_pooled)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    hit_rate_score : The same counts pooled over queries.
    precision_at_k_score : Relevant items in the top k over k.

    Notes
    -----
    **Ties**: the expected value over all orderings of the tied items.
    **Undefined groups**: a query with no relevant item is skipped by default.
    Without ties the value equals trec_eval's ``recall_k``.

    References
    ----------
    .. [1] C. D. Manning, P. Raghavan and H. Schütze, "Introduction to
       Information Retrieval", Cambridge University Press, 2008, section 8.4
       (precision and recall of ranked results).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import recall_at_k_score
    >>> # two of the three relevant items are in the top 2; the third was not
    >>> # retrieved at all (score -inf)
    >>> y_true = [1, 1, 0, 1]
    >>> y_score = [0.9, 0.8, 0.1, float("-inf")]
    >>> round(recall_at_k_score(y_true, y_score, k=2), 4)
    0.6667
    """
    return compute("recall", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k)


@fill_doc
def ndcg_score(
    y_true, y_score, *, groups=None, k=None, sample_weight=None, average="macro",
    undefined="skip",
):
    """Normalized discounted cumulative gain, per query, averaged.

    .. math::

        \\mathrm{DCG}@k = \\sum_{i=1}^{k} \\frac{\\mathrm{rel}_i}{\\log_2(i + 1)},
        \\qquad \\mathrm{NDCG}@k = \\frac{\\mathrm{DCG}@k}{\\mathrm{IDCG}@k}

    with the graded relevance ``y_true`` as gain and IDCG the DCG of the ideal
    ordering of all the query's items.

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
    """
    return compute("ndcg", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k)
