"""The public grouped ranking metric functions.

Each is a docstring and one call of :func:`._pipeline.compute`,
which checks the options declared in the metric's
:class:`~sklearn_rankeval._metrics._registry.MetricSpec`, ranks the input once with the
engine, runs the metric's kernel (``_kernels.py``) and aggregates its
per-group partials under ``average``.
"""

from .._core import binary_labels
from ._docs import fill_doc
from ._pipeline import compute
from ._registry import DEFAULT, metric_function

__all__ = [
    "bpref_score",
    "dcg_score",
    "expected_reciprocal_rank_score",
    "gauc_score",
    "hit_rate_score",
    "interpolated_average_precision_score",
    "mean_average_precision_score",
    "mean_reciprocal_rank_score",
    "ndcg_score",
    "precision_at_k_score",
    "r_precision_score",
    "rank_biased_precision_residual",
    "rank_biased_precision_score",
    "recall_at_k_score",
    "success_at_k_score",
]


# ---------------------------------------------------------------------------
# public metric functions: a docstring and one call each
# ---------------------------------------------------------------------------
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
    y_true = binary_labels(y_true, pos_label)
    return compute("gauc", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   group_weight=group_weight, ties=ties, docno=docno,
                   convention=convention)


@metric_function("mrr")
@fill_doc
def mean_reciprocal_rank_score(
    y_true, y_score, *, groups=None, k=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Mean reciprocal rank of the first relevant item of each query.

    .. math::

        \\mathrm{MRR} = \\frac{1}{|Q|} \\sum_{q \\in Q} \\frac{1}{\\mathrm{rank}_q}

    where :math:`\\mathrm{rank}_q` is the rank of the first relevant item of
    query :math:`q` (its reciprocal counts 0 when it is below ``k`` or not
    retrieved).

    Read more in the :ref:`User Guide <mrr>`.

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
    %(ties)s
    %(docno)s
    %(convention)s

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
                   k=k,
                   ties=ties, docno=docno, convention=convention)


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


@metric_function("hit_rate")
@fill_doc
def hit_rate_score(
    y_true, y_score, *, groups=None, k=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Hit rate at k: relevant items found in the top k over all relevant items.

    .. math::

        \\mathrm{HR}@k = \\frac{\\sum_q \\mathrm{Hits}_q@k}{\\sum_q |\\mathrm{Rel}_q|}

    pooled over queries (``average='micro'``).  With one relevant item per
    query (a leave-one-out split, or multiclass input) it is the share of
    queries whose item is in the top k -- the top-k accuracy.

    Read more in the :ref:`User Guide <hit-rate>`.

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
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    recall_at_k_score : Per-query recall at k (the same counts, averaged per query).
    sklearn.metrics.top_k_accuracy_score : Equal on multiclass input without ties.
    success_at_k_score : Share of queries with a relevant item in the top k,
        what ranx and torchmetrics call the hit rate.

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
                   k=k,
                   ties=ties, docno=docno, convention=convention)


@metric_function("precision")
@fill_doc
def precision_at_k_score(
    y_true, y_score, *, groups=None, k=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    k_denominator=None, ties=None, docno=None, convention=None,
):
    """Precision at k: relevant items among the top k, divided by k.

    .. math::

        P@k = \\frac{|\\{\\text{relevant items in the top } k\\}|}{k}

    Read more in the :ref:`User Guide <precision-at-k>`.

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
    k_denominator : {'k', 'retrieved'}, default=None
        What the hits are divided by: ``'k'``, or ``'retrieved'``,
        ``min(k, n)`` with ``n`` the query's retrieved items (XGBoost's
        ``pre@k``, torchmetrics' ``adaptive_k``).  None: the convention's,
        else ``'k'``.
    %(ties)s
    %(docno)s
    %(convention)s

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
                   k=k,
                   k_denominator=k_denominator, ties=ties, docno=docno,
                   convention=convention)


@metric_function("recall")
@fill_doc
def recall_at_k_score(
    y_true, y_score, *, groups=None, k=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Recall at k: relevant items in the top k over the query's relevant items.

    .. math::

        R@k = \\frac{|\\{\\text{relevant items in the top } k\\}|}{R}

    where :math:`R` counts every relevant item of the query, retrieved or not.

    Read more in the :ref:`User Guide <recall-at-k>`.

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
    %(ties)s
    %(docno)s
    %(convention)s

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
                   k=k,
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


@metric_function("success")
@fill_doc
def success_at_k_score(
    y_true, y_score, *, groups=None, k=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Success at k: the share of queries with a relevant item in the top k.

    .. math::

        \\mathrm{success}@k = \\frac{1}{|Q|} \\sum_{q \\in Q}
        [\\,\\text{a relevant item of } q \\text{ is in its top } k\\,]

    This is what ranx, torchmetrics (``RetrievalHitRate``) and RecBole call
    the hit rate, and trec_eval ``success_k``.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(k_10)s
    %(labels)s
    %(sample_weight_query)s
    %(average_query)s
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
    hit_rate_score : Relevant items in the top k over all relevant items (pooled).
    mean_reciprocal_rank_score : Reciprocal rank of the first relevant item.

    Notes
    -----
    **Ties**: the probability that the top k holds a relevant item when the
    tied items are put in a uniformly random order.  Only the first tie block
    holding a relevant item matters: with ``s`` items above it, ``m`` items in
    it of which ``r`` are relevant, and ``t = k - s`` of its ranks inside the
    top k, the value is ``1 - C(m - r, t) / C(m, t)`` (hypergeometric).  It
    is not ``mean(recall_at_k > 0)``, which counts a relevant item tied across
    the cutoff as a sure hit.  **Undefined groups**: a query with no relevant
    item is skipped by default.  Without ties the value equals trec_eval's
    ``success_k``.

    References
    ----------
    .. [1] trec_eval, the evaluation program of TREC,
       https://github.com/usnistgov/trec_eval (measure ``success``, by Stephen
       Tomlinson).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (values under ties).

    Examples
    --------
    >>> from sklearn_rankeval import success_at_k_score
    >>> # query "a": its relevant item is at rank 2 -> a success at k=2;
    >>> # query "b": its relevant item ties with two others for ranks 1-3, so
    >>> # it lands in the top 2 with probability 2/3
    >>> y_true = [0, 1, 0, 0, 1, 0]
    >>> y_score = [0.9, 0.8, 0.1, 0.5, 0.5, 0.5]
    >>> groups = ["a", "a", "a", "b", "b", "b"]
    >>> success_at_k_score(y_true, y_score, groups=groups, k=2, average=None).round(4)
    array([1.    , 0.6667])
    >>> round(success_at_k_score(y_true, y_score, groups=groups, k=2), 4)
    0.8333
    """
    return compute("success", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k,
                   ties=ties, docno=docno, convention=convention)


@metric_function("r_precision")
@fill_doc
def r_precision_score(
    y_true, y_score, *, groups=None, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """R-precision: the precision at rank R, R the query's relevant items.

    .. math::

        \\mathrm{R\\text{-}prec} = \\frac{|\\{\\text{relevant items in the top }
        R\\}|}{R}

    where :math:`R` counts every relevant item of the query, retrieved or not.
    At rank :math:`R` precision equals recall.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    %(labels)s
    %(sample_weight_query)s
    %(average_query)s
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
    precision_at_k_score : Precision at a fixed rank k.

    Notes
    -----
    **Ties**: the expected value over all orderings of the tied items (a
    block of ``m`` tied items of which ``R - s`` fit in the top R contributes
    ``(R - s)/m`` of its relevant items).  **Undefined groups**: a query with
    no relevant item is skipped by default.  Without ties the value equals
    trec_eval's ``Rprec``.

    References
    ----------
    .. [1] C. Buckley and E. M. Voorhees, "Retrieval System Evaluation", in
       TREC: Experiment and Evaluation in Information Retrieval, MIT Press,
       2005.
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval
       Performance Measures Efficiently in the Presence of Tied Scores",
       ECIR 2008 (the expected value under ties).

    Examples
    --------
    >>> from sklearn_rankeval import r_precision_score
    >>> # query 1 has R = 2 relevant items, one in its top 2 -> 1/2;
    >>> # query 2 has R = 1 and its relevant item ties with another for the
    >>> # top rank -> 1/2
    >>> y_true = [1, 0, 1, 1, 0]
    >>> y_score = [3, 2, 1, 5, 5]
    >>> groups = [1, 1, 1, 2, 2]
    >>> r_precision_score(y_true, y_score, groups=groups, average=None).tolist()
    [0.5, 0.5]
    """
    return compute("r_precision", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   ties=ties, docno=docno, convention=convention)


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


@metric_function("err")
@fill_doc
def expected_reciprocal_rank_score(
    y_true, y_score, *, groups=None, k=DEFAULT, max_grade=DEFAULT, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Expected reciprocal rank (ERR) of graded relevance, per query, averaged.

    .. math::

        \\mathrm{ERR}@k = \\sum_{i=1}^{k} \\frac{1}{i} R_i \\prod_{j<i} (1 - R_j),
        \\qquad R_i = \\frac{2^{g_i} - 1}{2^{g_{\\max}}}

    the cascade model of Chapelle et al.: a user reads down the ranking and
    stops at rank :math:`i` with probability :math:`R_i`, given by the grade
    :math:`g_i` of the item; ERR is the expected reciprocal rank where the
    user stops.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_queries, n_items)
        Relevance grades, integers or not, in ``[0, max_grade]``.  1-D class
        labels when ``y_score`` is 2-D multiclass scores (grade 1 for the true
        class).
    %(y_score)s
    %(groups)s
    %(k_none)s
    max_grade : int, default=4
        :math:`g_{\\max}`, the highest possible grade (4 in the paper's 0-4
        scale).  It is fixed, not read from ``y_true``, so that a query's
        value never depends on the other queries; a larger grade in
        ``y_true`` is a ``ValueError``.
    %(sample_weight_query)s
    %(average_query)s
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
    mean_reciprocal_rank_score : Reciprocal rank of the first relevant item.
    ndcg_score : Normalized DCG of graded relevance.

    Notes
    -----
    **Ties**: the expected value over every order of the tied items (each
    tie block in uniformly random order), computed exactly without
    enumerating the orders: see the ERR section of the User Guide.  Ranks
    beyond ``k`` add nothing, also within a tie block that crosses the
    cutoff.
    **Undefined groups**: a query with no relevant item (``y_true > 0``) is
    skipped by default (its ERR would be 0).  Items with score ``-inf`` are
    not retrieved and stop no one.  A grade-0 item never stops the user and a
    ``max_grade`` item stops them with probability ``1 - 2**-max_grade``.

    References
    ----------
    .. [1] O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan, "Expected
       Reciprocal Rank for Graded Relevance", CIKM 2009.

    Examples
    --------
    >>> from sklearn_rankeval import expected_reciprocal_rank_score
    >>> # grades 4 then 2: R = 15/16 at rank 1, then 3/16 at rank 2
    >>> # ERR = 15/16 + (1/16) * (3/16) / 2
    >>> round(expected_reciprocal_rank_score([2, 4], [0.1, 0.9]), 4)
    0.9434
    >>> # binary relevance with max_grade=1: a relevant item stops the user
    >>> # with probability 1/2; the only one is at rank 2 -> (1/2) / 2
    >>> round(expected_reciprocal_rank_score([0, 1, 0], [3, 2, 1], max_grade=1), 4)
    0.25
    >>> # grades 4 and 0 tied: the 4 is at rank 1 or 2, each half the time
    >>> # ERR = (15/16 + (15/16) / 2) / 2
    >>> round(expected_reciprocal_rank_score([4, 0], [0.5, 0.5]), 4)
    0.7031
    """
    return compute("err", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   k=k, max_grade=max_grade,
                   ties=ties, docno=docno, convention=convention)


@metric_function("rbp")
@fill_doc
def rank_biased_precision_score(
    y_true, y_score, *, groups=None, p=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None, judged=None, return_residual=False,
    ties=None, docno=None, convention=None,
):
    """Rank-biased precision (RBP) with persistence ``p``.

    .. math::

        \\mathrm{RBP} = (1 - p) \\sum_{i \\geq 1} \\mathrm{rel}_i \\, p^{i-1}

    the expected rate of relevant items seen by a user who reads rank
    :math:`i + 1` after rank :math:`i` with probability :math:`p`.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    p : float, default=0.8
        Persistence, in (0, 1): the probability of reading on to the next rank.
        ``0.5`` impatient, ``0.8`` about ten ranks, ``0.95`` patient.
    %(labels)s
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s
    judged : array-like of bool of the shape of ``y_score``, default=None
        Whether each item was judged.  An unjudged item keeps its rank but
        gains nothing (whatever its ``y_true``), and its rank's weight goes
        to the residual.  None: every item is judged.
    return_residual : bool, default=False
        Also return the residual (:func:`rank_biased_precision_residual`),
        averaged as the score is, over the same queries.
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s
    residual : float or ndarray of shape (n_groups,)
        Only with ``return_residual=True``: the RBP weight no judgment
        covers; the true RBP lies in ``[score, score + residual]``.

    See Also
    --------
    rank_biased_precision_residual : The residual alone (``"rbp_residual"``).
    precision_at_k_score : Precision at a fixed rank k.
    dcg_score : A logarithmic discount instead of a geometric one.

    Notes
    -----
    **Ties**: the expected value over all orderings of the tied items: the
    value is linear in the rank weights, so each relevant item of a block of
    ``m`` tied items below ``s`` others counts the mean weight of the ranks
    they share, ``p**s (1 - p**m) / m``.  **Undefined groups**: a query with
    no relevant item is skipped by default (its RBP would be 0).  Items with
    score ``-inf`` are not retrieved.  The residual (the weight ``p**n`` of
    the ranks beyond the ``n`` retrieved items, plus that of unjudged items)
    bounds the error of the value when the ranking is incomplete; ``rankeval
    trec`` prints it as ``rbp_resid``.  trec_eval's ``rbp`` uses ``p=0.9``.

    References
    ----------
    .. [1] A. Moffat and J. Zobel, "Rank-Biased Precision for Measurement of
       Retrieval Effectiveness", ACM TOIS 27(1), 2008.

    Examples
    --------
    >>> from sklearn_rankeval import rank_biased_precision_score
    >>> # relevant items at ranks 1 and 3: (1 - 0.5) * (1 + 0.5**2)
    >>> round(rank_biased_precision_score([1, 0, 1], [3, 2, 1], p=0.5), 4)
    0.625
    >>> # a relevant item tied with another for ranks 1-2: the mean weight of
    >>> # the two ranks, (0.5 + 0.25) / 2
    >>> round(rank_biased_precision_score([1, 0], [1, 1], p=0.5), 4)
    0.375
    >>> # the third item unjudged: its weight 0.5**2 * 0.5 and the ranks
    >>> # beyond the list, 0.5**3, are the residual
    >>> score, residual = rank_biased_precision_score(
    ...     [1, 0, 1], [3, 2, 1], p=0.5, judged=[True, True, False],
    ...     return_residual=True)
    >>> round(score, 4), round(residual, 4)
    (0.5, 0.25)
    """
    kwargs = dict(groups=groups, labels=labels, sample_weight=sample_weight,
                  average=average, undefined=undefined, judged=judged, p=p,
                  ties=ties, docno=docno, convention=convention)
    score = compute("rbp", y_true, y_score, **kwargs)
    if not return_residual:
        return score
    return score, compute("rbp_residual", y_true, y_score, **kwargs)


@metric_function("rbp_residual")
@fill_doc
def rank_biased_precision_residual(
    y_true, y_score, *, groups=None, p=DEFAULT, labels=None, sample_weight=None,
    average=DEFAULT, undefined=None, judged=None,
    ties=None, docno=None, convention=None,
):
    """The residual of rank-biased precision: RBP weight no judgment covers.

    .. math::

        \\mathrm{resid} = p^{n} + (1 - p) \\sum_{i \\in U} p^{i-1}

    with :math:`n` the retrieved items and :math:`U` the ranks of the
    unjudged ones among them: the weight of the ranks beyond the
    list plus that of the unjudged items in it (Moffat and Zobel's residual,
    trec_eval's ``rbp_resid``).  Whatever the unknown judgments, the RBP
    of the ranking lies in ``[RBP, RBP + residual]``; a small residual means
    the evaluation is nearly complete.  It is not a quality of the ranking
    (lower is not a better model), so ``"rbp_residual"`` is a column of
    :func:`ranking_report` and :func:`per_group_scores` but not a scorer of
    :func:`get_scorer`.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    p : float, default=0.8
        Persistence, in (0, 1), as in :func:`rank_biased_precision_score`.
    %(labels)s
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s
    judged : array-like of bool of the shape of ``y_score``, default=None
        Whether each item was judged; an unjudged item adds its rank's
        weight.  None: every item is judged, and the residual is ``p**n``.
    %(ties)s
    %(docno)s
    %(convention)s

    Returns
    -------
    residual : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    rank_biased_precision_score : RBP, and the residual with
        ``return_residual=True``.

    Notes
    -----
    **Ties**: the expected value over all orderings of the tied items (each
    unjudged item of a block of ``m`` tied items below ``s`` others counts
    ``p**s (1 - p**m) / m``).  **Undefined groups**: the queries where RBP
    is undefined (no judged relevant item) are skipped by default, so that
    the score and its residual average over the same queries.  Items with
    score ``-inf`` are not retrieved: their ranks are beyond the list.
    **trec_eval**: ``rbp_resid`` prints 0 for a query without an unjudged
    retrieved document (its sum is only written when it found one); this
    function gives the residual ``p**n`` there, and equals trec_eval's value
    on every other query.  trec_eval uses ``p=0.9``.

    References
    ----------
    .. [1] A. Moffat and J. Zobel, "Rank-Biased Precision for Measurement of
       Retrieval Effectiveness", ACM TOIS 27(1), 2008.

    Examples
    --------
    >>> from sklearn_rankeval import rank_biased_precision_residual
    >>> # three items ranked, all judged: the ranks beyond, 0.5**3
    >>> rank_biased_precision_residual([1, 0, 1], [3, 2, 1], p=0.5)
    0.125
    >>> # the second item unjudged adds its weight (1 - 0.5) * 0.5
    >>> rank_biased_precision_residual([1, 0, 1], [3, 2, 1], p=0.5,
    ...                                judged=[True, False, True])
    0.375
    """
    return compute("rbp_residual", y_true, y_score, groups=groups, labels=labels,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   judged=judged, p=p,
                   ties=ties, docno=docno, convention=convention)


@metric_function("bpref")
@fill_doc
def bpref_score(
    y_true, y_score, *, groups=None, judged=None, sample_weight=None,
    average=DEFAULT, undefined=None,
    ties=None, docno=None, convention=None,
):
    """Binary preference (bpref): relevant items ranked above judged non-relevant ones.

    .. math::

        \\mathrm{bpref} = \\frac{1}{R} \\sum_{r} \\left(1 -
        \\frac{\\min(n_r, R)}{\\min(N, R)}\\right)

    summed over the retrieved relevant items :math:`r`, where :math:`n_r` is
    the number of judged non-relevant items ranked above :math:`r`, :math:`R`
    the query's relevant items and :math:`N` its judged non-relevant items
    (retrieved or not).  Items that were not judged count nowhere, which
    makes bpref robust to incomplete judgments.

    Read more in the :ref:`User Guide <more-measures>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    judged : array-like of bool of the shape of ``y_score``, default=None
        Whether each item was judged.  Unjudged items are neither relevant nor
        non-relevant: they are left out before ranking.  None: every item is
        judged (``y_true == 0`` is judged non-relevant).
    %(sample_weight_query)s
    %(average_query)s
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
    mean_average_precision_score : Average precision (all unjudged items non-relevant).

    Notes
    -----
    The normaliser is ``min(N, R)``, as trec_eval's ``bpref`` (the paper's
    ``R`` alone gives "bpref-10"-like variants); a relevant item with no
    non-relevant item above it (or a query without judged non-relevant items)
    scores 1.  **Ties**: the expected value over all orderings of the tied
    items: the number of a block's ``q`` non-relevant items ranked above a
    given relevant item of the block is uniform on ``0..q``.  **Undefined
    groups**: a query without a judged relevant item (or none of whose items
    is judged) is skipped by default.  Without ties the value equals
    trec_eval's ``bpref`` (retrieved documents missing from the qrels being
    unjudged).

    References
    ----------
    .. [1] C. Buckley and E. M. Voorhees, "Retrieval Evaluation with
       Incomplete Information", SIGIR 2004.

    Examples
    --------
    >>> from sklearn_rankeval import bpref_score
    >>> # ranking: non-relevant, relevant, unjudged, relevant, non-relevant;
    >>> # R = 2, N = 2: the first relevant item has 1 non-relevant above it
    >>> # (1 - 1/2), the second too: (0.5 + 0.5) / 2
    >>> y_true = [0, 1, 0, 1, 0]
    >>> y_score = [5, 4, 3, 2, 1]
    >>> judged = [True, True, False, True, True]
    >>> round(bpref_score(y_true, y_score, judged=judged), 4)
    0.5
    """
    return compute("bpref", y_true, y_score, groups=groups, judged=judged,
                   sample_weight=sample_weight, average=average, undefined=undefined,
                   ties=ties, docno=docno, convention=convention)












