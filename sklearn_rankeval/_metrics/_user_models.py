"""The public metrics of a user's browsing model: expected reciprocal rank
(ERR, a cascade of stopping probabilities) and rank-biased precision (RBP,
a constant persistence) with its residual.

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
    "expected_reciprocal_rank_score",
    "rank_biased_precision_residual",
    "rank_biased_precision_score",
]


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
