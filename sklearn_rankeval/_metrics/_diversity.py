"""The public diversity metrics: grades per (item, intent).

``y_true`` of shape ``(n_samples, n_intents)`` beside a 1-D ``y_score``: the
one input door reads it as the input's ``intent_grades`` column (and ranks
each row's largest grade where a metric reads one relevance).  Each function
is a docstring and one call of :func:`._pipeline.compute`; the kernels are
:mod:`._diversity_kernels`.
"""

from .._core import InvalidArgumentError
from ._docs import fill_doc
from ._pipeline import compute
from ._registry import metric_function
from ._spec import DEFAULT

__all__ = [
    "alpha_ndcg_score",
    "d_sharp_ndcg_score",
    "err_ia_score",
    "intent_aware_score",
    "nrbp_score",
    "subtopic_recall_score",
]


def _columns(intent_weights, docno, convention):
    """The optional columns of a diversity call (read by the input door)."""
    if convention == "ndeval" and intent_weights is not None:
        raise InvalidArgumentError(
            "intent_weights", "must be None with convention='ndeval' (ndeval "
            "weighs every intent equally).")
    columns = {}
    if intent_weights is not None:
        columns["intent_weights"] = intent_weights
    if docno is not None:  # ndeval's greedy ideal breaks equal gains by docno
        columns["docno"] = docno
    return columns


@metric_function("alpha_ndcg")
@fill_doc
def alpha_ndcg_score(
    y_true, y_score, *, groups=None, k=DEFAULT, alpha=DEFAULT, normalization=None,
    grades=None, intent_weights=None, sample_weight=None, average=DEFAULT,
    undefined=None, ties=None, docno=None, convention=None,
):
    """Alpha-nDCG: novelty- and diversity-aware NDCG over grades per intent.

    .. math::

        \\alpha\\text{-DCG}@k = \\sum_{r=1}^{k} \\frac{1}{\\log_2(1 + r)}
        \\sum_i w_i\\, g_{r,i}\\, (1 - \\alpha)^{c_i(r)}

    where :math:`g_{r,i}` is the grade of the item at rank :math:`r` for
    intent :math:`i`, :math:`c_i(r)` the number of items above rank
    :math:`r` relevant to :math:`i` and :math:`w_i` the intent's weight
    (Clarke et al. 2008): an item gains less for an intent that the items
    above it already covered.  alpha-nDCG divides it by the value of the
    ideal order (``normalization``).

    Read more in the :ref:`User Guide <diversity>`.

    Parameters
    ----------
    %(y_true_intents)s
    %(y_score_intents)s
    %(groups)s
    %(k_none)s
    alpha : float, default=0.5
        Redundancy intolerance, in [0, 1]: each further item relevant to an
        intent gains ``(1 - alpha)`` times the previous one's.  0: no
        penalty (the NDCG of the weighted gains).
    %(normalization)s
    %(grades)s
    %(intent_weights)s
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
    err_ia_score : The same gain with the discount ``1 / r``.
    nrbp_score : The same gain with the discount ``beta**(r - 1)``.
    ndcg_score : NDCG of one relevance per item.

    Notes
    -----
    **Ties**: the expected value over every order of the tied items, computed
    exactly without enumerating the orders (see the User Guide).
    **Undefined groups**: a group without any relevant item for any intent
    is undefined (ndeval scores it 0).  Items scored ``-inf`` are not
    retrieved, but count in the ideal.  **ndeval**: ``convention="ndeval"``
    gives ndeval's alpha-nDCG@k (greedy ideal, binary grades, ties by
    decreasing ``docno``, equal intent weights: do not pass
    ``intent_weights``); with ``normalization="ideal-ideal"`` its
    alpha-DCG@k.  ndeval's greedy ideal can be beaten, so its values can
    exceed 1; under ``'exact'`` no value does.

    References
    ----------
    .. [1] C. L. A. Clarke, M. Kolla, G. V. Cormack, O. Vechtomova, A. Ashkan,
       S. Büttcher and I. MacKinnon, "Novelty and Diversity in Information
       Retrieval Evaluation", SIGIR 2008.

    Examples
    --------
    >>> from sklearn_rankeval import alpha_ndcg_score
    >>> # three items, two intents: items 0 and 1 cover intent 0, item 2 intent 1
    >>> y_true = [[1, 0], [1, 0], [0, 1]]
    >>> # ranked 0, 1, 2 (each intent weighs 1/2): gains 1/2, 1/4, 1/2; the
    >>> # ideal order 0, 2, 1 gains 1/2, 1/2, 1/4
    >>> # (1/2 + 1/4 / log2(3) + 1/2 / 2) / (1/2 + 1/2 / log2(3) + 1/4 / 2)
    >>> round(alpha_ndcg_score(y_true, [3, 2, 1]), 4)
    0.9652
    >>> # items 1 and 2 tied: the mean over their two orders, over the ideal
    >>> round(alpha_ndcg_score(y_true, [3, 1, 1]), 4)
    0.9826
    """
    return compute("alpha_ndcg", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, k=k, alpha=alpha,
                   normalization=normalization, grades=grades, ties=ties,
                   docno=docno, convention=convention,
                   columns=_columns(intent_weights, docno, convention))


@metric_function("err_ia")
@fill_doc
def err_ia_score(
    y_true, y_score, *, groups=None, k=DEFAULT, alpha=DEFAULT, normalization=None,
    grades=None, intent_weights=None, sample_weight=None, average=DEFAULT,
    undefined=None, ties=None, docno=None, convention=None,
):
    """Intent-aware expected reciprocal rank (ERR-IA) over grades per intent.

    .. math::

        \\text{ERR-IA}@k = \\alpha \\sum_{r=1}^{k} \\frac{1}{r}
        \\sum_i w_i\\, g_{r,i}\\, (1 - \\alpha)^{c_i(r)}

    the intent-aware ERR of Chapelle et al. (2009) in the form of Clarke et
    al. (2009) and ndeval: a user with intent :math:`i` stops at a relevant
    item with probability :math:`\\alpha` (times its grade); ERR-IA is the
    weighted expected reciprocal rank where they stop.  ``normalization``
    divides it by an ideal (nERR-IA); ``'none'`` gives the value above.

    Read more in the :ref:`User Guide <diversity>`.

    Parameters
    ----------
    %(y_true_intents)s
    %(y_score_intents)s
    %(groups)s
    %(k_none)s
    alpha : float, default=0.5
        The stopping probability of a relevant item, in [0, 1] (the
        redundancy intolerance of alpha-nDCG).
    %(normalization)s
    %(grades)s
    %(intent_weights)s
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
    alpha_ndcg_score : The same gain with a logarithmic discount.
    expected_reciprocal_rank_score : ERR of one relevance per item.

    Notes
    -----
    **Ties**: the expected value over every order of the tied items, exact.
    **Undefined groups**: a group without any relevant item is undefined.
    **ndeval**: ``convention="ndeval"`` gives its nERR-IA@k (greedy ideal);
    with ``normalization="ideal-ideal"`` its ERR-IA@k (ir_measures'
    ``ERR_IA@k``), which ndeval divides by the ERR-IA of a ranking whose
    every item is relevant to every intent.

    References
    ----------
    .. [1] O. Chapelle, D. Metzler, Y. Zhang and P. Grinspan, "Expected
       Reciprocal Rank for Graded Relevance", CIKM 2009.
    .. [2] C. L. A. Clarke, M. Kolla and O. Vechtomova, "An Effectiveness
       Measure for Ambiguous and Underspecified Queries", ICTIR 2009.

    Examples
    --------
    >>> from sklearn_rankeval import err_ia_score
    >>> y_true = [[1, 0], [1, 0], [0, 1]]
    >>> # gains 1/2, 1/4, 1/2 at ranks 1-3; the ideal 1/2, 1/2, 1/4
    >>> # (1/2 + 1/4 / 2 + 1/2 / 3) / (1/2 + 1/2 / 2 + 1/4 / 3)
    >>> round(err_ia_score(y_true, [3, 2, 1]), 4)
    0.95
    >>> # unnormalised: alpha * (1/2 + 1/4 / 2 + 1/2 / 3)
    >>> round(err_ia_score(y_true, [3, 2, 1], normalization="none"), 4)
    0.3958
    """
    return compute("err_ia", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, k=k, alpha=alpha,
                   normalization=normalization, grades=grades, ties=ties,
                   docno=docno, convention=convention,
                   columns=_columns(intent_weights, docno, convention))


@metric_function("nrbp")
@fill_doc
def nrbp_score(
    y_true, y_score, *, groups=None, k=DEFAULT, alpha=DEFAULT, beta=DEFAULT,
    normalization=None, grades=None, intent_weights=None, sample_weight=None,
    average=DEFAULT, undefined=None, ties=None, docno=None, convention=None,
):
    """Novelty- and rank-biased precision (NRBP) over grades per intent.

    .. math::

        \\text{NRBP} = (1 - (1 - \\alpha)\\beta) \\sum_{r \\geq 1}
        \\beta^{r-1} \\sum_i w_i\\, g_{r,i}\\, (1 - \\alpha)^{c_i(r)}

    rank-biased precision (patience :math:`\\beta`) of the novelty-aware
    gain (Clarke et al. 2009); the factor makes a ranking whose every item
    is relevant to every intent score 1.  ``normalization`` divides the sum
    by an ideal (nNRBP); ``'none'`` gives the value above, ndeval's NRBP.

    Read more in the :ref:`User Guide <diversity>`.

    Parameters
    ----------
    %(y_true_intents)s
    %(y_score_intents)s
    %(groups)s
    %(k_none)s
    alpha : float, default=0.5
        Redundancy intolerance, in [0, 1].
    beta : float, default=0.5
        Patience: the probability of reading on to the next rank, in (0, 1).
    %(normalization)s
    %(grades)s
    %(intent_weights)s
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
    alpha_ndcg_score : The same gain with a logarithmic discount.
    rank_biased_precision_score : RBP of one relevance per item.

    Notes
    -----
    **Ties**: the expected value over every order of the tied items, exact.
    **Undefined groups**: a group without any relevant item is undefined.
    **ndeval**: ``convention="ndeval"`` gives nNRBP (greedy ideal); with
    ``normalization="none"`` ndeval's NRBP (ir_measures' ``NRBP``).

    References
    ----------
    .. [1] C. L. A. Clarke, M. Kolla and O. Vechtomova, "An Effectiveness
       Measure for Ambiguous and Underspecified Queries", ICTIR 2009.

    Examples
    --------
    >>> from sklearn_rankeval import nrbp_score
    >>> y_true = [[1, 0], [1, 0], [0, 1]]
    >>> # gains 1/2, 1/4, 1/2 weighted 1, 1/2, 1/4: 3/4; the ideal order
    >>> # gains 1/2, 1/2, 1/4: 13/16
    >>> round(nrbp_score(y_true, [3, 2, 1]), 4)
    0.9231
    >>> # ndeval's NRBP: (1 - 0.5 * 0.5) * 3/4
    >>> nrbp_score(y_true, [3, 2, 1], normalization="none")
    0.5625
    """
    return compute("nrbp", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, k=k, alpha=alpha, beta=beta,
                   normalization=normalization, grades=grades, ties=ties,
                   docno=docno, convention=convention,
                   columns=_columns(intent_weights, docno, convention))


@metric_function("intent_aware")
@fill_doc
def intent_aware_score(
    y_true, y_score, *, groups=None, k=DEFAULT, metric=DEFAULT, intent_weights=None,
    sample_weight=None, average=DEFAULT, undefined=None, ties=None, docno=None,
    convention=None,
):
    """An intent-aware metric: the weighted mean of a metric over the intents.

    .. math::

        M\\text{-IA} = \\sum_i P(i \\mid q)\\, M_i

    where :math:`M_i` is the metric of the ranking with intent :math:`i`'s
    grades as the relevance (Agrawal et al. 2009); the sum runs over the
    intents where :math:`M_i` is defined, their weights renormalised.

    Read more in the :ref:`User Guide <diversity>`.

    Parameters
    ----------
    %(y_true_intents)s
    %(y_score_intents)s
    %(groups)s
    k : int, default=10
        The cutoff of a ``metric`` that needs one and whose name gives none
        (``'precision'``, ``'recall'``, ``'success'``): the name
        ``"intent_aware@5"`` is P-IA@5.
    metric : str, default='precision'
        The metric of each intent, by its registry name, with its cutoff
        where it has one: ``'precision'`` or ``'precision@K'`` (P-IA),
        ``'map'`` (MAP-IA), ``'ndcg'`` or ``'ndcg@K'``, ``'err@K'``, and
        ``'recall@K'``, ``'mrr'``, ``'success@K'``, ``'rbp'``.
    %(intent_weights)s
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
    precision_at_k_score : P-IA's metric of one intent.
    mean_average_precision_score : MAP-IA's metric of one intent.

    Notes
    -----
    **Ties**: each intent's metric under its own tie rule.  **Undefined
    groups**: a group where no intent's metric is defined.  **ndeval**:
    ``convention="ndeval"`` gives its P-IA@k (``metric='precision@k'``) and
    MAP-IA (``metric='map'``).

    References
    ----------
    .. [1] R. Agrawal, S. Gollapudi, A. Halverson and S. Ieong,
       "Diversifying Search Results", WSDM 2009.

    Examples
    --------
    >>> from sklearn_rankeval import intent_aware_score
    >>> y_true = [[1, 0], [1, 0], [0, 1]]
    >>> # P@2 is 1 for intent 0 and 0 for intent 1
    >>> intent_aware_score(y_true, [3, 2, 1], metric="precision@2")
    0.5
    >>> # AP is 1 for intent 0 and 1/3 for intent 1
    >>> round(intent_aware_score(y_true, [3, 2, 1], metric="map"), 4)
    0.6667
    """
    return compute("intent_aware", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, k=k, metric=metric, ties=ties,
                   docno=docno, convention=convention,
                   columns=_columns(intent_weights, docno, convention))


@metric_function("subtopic_recall")
@fill_doc
def subtopic_recall_score(
    y_true, y_score, *, groups=None, k=DEFAULT, grades=None, intent_weights=None,
    sample_weight=None, average=DEFAULT, undefined=None, ties=None, docno=None,
    convention=None,
):
    """Subtopic recall: the share of the intents covered by the top k items.

    .. math::

        \\text{S-recall}@k = \\sum_i w_i\\,
        \\mathbb{1}[\\exists\\, r \\leq k: g_{r,i} > 0]

    (Zhai et al. 2003), with equal weights :math:`w_i` by default: the
    number of intents with a relevant item in the top :math:`k` over the
    number of intents with a relevant item at all.

    Read more in the :ref:`User Guide <diversity>`.

    Parameters
    ----------
    %(y_true_intents)s
    %(y_score_intents)s
    %(groups)s
    %(k_10)s
    %(grades)s
    %(intent_weights)s
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
    d_sharp_ndcg_score : Intent recall mixed with D-nDCG.

    Notes
    -----
    **Ties**: the expected value over every order of the tied items: an
    intent with ``R`` relevant items in a tie block of ``m`` that has ``t``
    positions within the cutoff is missed with probability
    ``C(m - R, t) / C(m, t)``.  **Undefined groups**: a group without any
    relevant item.  ndeval's ``strec@k`` is ``convention="ndeval"``.

    References
    ----------
    .. [1] C. Zhai, W. W. Cohen and J. Lafferty, "Beyond Independent
       Relevance: Methods and Evaluation Metrics for Subtopic Retrieval",
       SIGIR 2003.

    Examples
    --------
    >>> from sklearn_rankeval import subtopic_recall_score
    >>> y_true = [[1, 0], [1, 0], [0, 1]]
    >>> # the top 2 cover intent 0 only
    >>> subtopic_recall_score(y_true, [3, 2, 1], k=2)
    0.5
    >>> # items 1 and 2 tied for rank 2: intent 1 is covered half the time
    >>> round(subtopic_recall_score(y_true, [3, 1, 1], k=2), 4)
    0.75
    """
    return compute("subtopic_recall", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, k=k, grades=grades, ties=ties,
                   docno=docno, convention=convention,
                   columns=_columns(intent_weights, docno, convention))


@metric_function("d_sharp_ndcg")
@fill_doc
def d_sharp_ndcg_score(
    y_true, y_score, *, groups=None, k=DEFAULT, gamma=DEFAULT, intent_weights=None,
    sample_weight=None, average=DEFAULT, undefined=None, ties=None, docno=None,
    convention=None,
):
    """D#-nDCG: intent recall mixed with the nDCG of the global gain.

    .. math::

        \\text{D}\\#\\text{-nDCG}@k = \\gamma\\, \\text{I-rec}@k
        + (1 - \\gamma)\\, \\text{D-nDCG}@k

    (Sakai and Song 2011, NTCIR's intent task): I-rec@k is the share of the
    intents with a relevant item in the top :math:`k`; D-nDCG@k is the nDCG
    of the global gain :math:`GG(d) = \\sum_i P(i \\mid q)\\, g_i(d)`, whose
    ideal orders the items by global gain.

    Read more in the :ref:`User Guide <diversity>`.

    Parameters
    ----------
    %(y_true_intents)s
    %(y_score_intents)s
    %(groups)s
    %(k_none)s
    gamma : float, default=0.5
        The weight of I-rec, in [0, 1].
    %(intent_weights)s
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
    subtopic_recall_score : I-rec with intent weights.
    alpha_ndcg_score : A gain that discounts redundancy.

    Notes
    -----
    **Ties**: the expected value over every order of the tied items (both
    parts are exact: D-nDCG is linear in the discounts).  **Undefined
    groups**: a group without any relevant item.  I-rec counts every intent
    alike (as NTCIREVAL); ``intent_weights`` act on the global gain.

    References
    ----------
    .. [1] T. Sakai and R. Song, "Evaluating Diversified Search Results Using
       Per-Intent Graded Relevance", SIGIR 2011.

    Examples
    --------
    >>> from sklearn_rankeval import d_sharp_ndcg_score
    >>> y_true = [[1, 0], [1, 0], [0, 1]]
    >>> # I-rec@2 = 1/2; every item has the global gain 1/2, so D-nDCG@2 = 1
    >>> d_sharp_ndcg_score(y_true, [3, 2, 1], k=2)
    0.75
    """
    return compute("d_sharp_ndcg", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, k=k, gamma=gamma, ties=ties,
                   docno=docno, convention=convention,
                   columns=_columns(intent_weights, docno, convention))
