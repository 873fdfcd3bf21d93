"""The public retrieval measures of trec_eval's family, per query: MRR,
HR@k, P@k, R@k, success@k, R-precision and bpref (the expected value over
the orders of tied items where scikit-learn has no equivalent).

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
    "bpref_score",
    "hit_rate_score",
    "mean_reciprocal_rank_score",
    "precision_at_k_score",
    "r_precision_score",
    "recall_at_k_score",
    "success_at_k_score",
]


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
