"""The public measure of fairness of exposure: expected exposure (Diaz et
al. 2020), a docstring and one call of :func:`._pipeline.compute`."""

from ._docs import fill_doc
from ._pipeline import compute
from ._registry import DEFAULT, metric_function

__all__ = ["expected_exposure_score"]


@metric_function("expected_exposure")
@fill_doc
def expected_exposure_score(
    y_true, y_score, *, groups=None, samples=None, items=None, item_groups=None,
    measure=DEFAULT, user_model=DEFAULT, p=DEFAULT, u=DEFAULT, normalize=DEFAULT,
    sample_weight=None, average=DEFAULT, undefined=None,
):
    """Expected exposure of a (stochastic) ranking policy, per query, averaged.

    A user model gives each rank an *exposure* (the chance that a user looks
    at it); a policy that samples several rankings of a query gives each item
    its expected exposure :math:`e` (the mean over the sampled rankings).
    The *target* :math:`e^*` is the exposure an ideal policy gives: every
    item of one relevance grade equally exposed (the mean exposure of the
    ranks that grade holds when the items are ranked by grade).  Then

    .. math::

        \\text{EE-L} = \\lVert e - e^* \\rVert^2 = \\text{EE-D} - 2\\,
        \\text{EE-R} + \\lVert e^* \\rVert^2, \\qquad
        \\text{EE-D} = \\lVert e \\rVert^2, \\qquad
        \\text{EE-R} = e \\cdot e^*

    (Diaz et al. 2020): the loss (lower is better), the disparity (how
    unequally the policy spreads exposure; lower is fairer) and the
    relevance (how much exposure goes where the target puts it).

    Read more in the :ref:`User Guide <fairness-exposure>`.

    Parameters
    ----------
    y_true : array-like of shape (n_rows,)
        Relevance grade of each row's item (>= 0; > 0 is relevant).  An item
        shown in several sampled rankings has one grade.
    %(y_score)s
        With ``samples``, the score of the item in its sampled ranking (for
        instance minus its rank).  Items with score ``-inf`` are not
        ranked in that ranking (exposure 0).
    %(groups)s
    samples : array-like of shape (n_rows,), default=None
        The sampled ranking of its group each row belongs to (any ids): a
        stochastic policy's several rankings of one query.  None: one
        ranking per group, from ``y_score``.
    items : array-like of shape (n_rows,), default=None
        The item each row shows; needed with ``samples`` (an item's
        exposure adds up over the rankings of its group).  None: each row is
        its own item.
    item_groups : array-like of shape (n_rows,) or (n_rows, n_dimensions), \
default=None
        The group of each row's item (for instance a provider), or one group
        per dimension (2-D): the measures compare the groups' exposure, the
        sum of the exposures of their relevant items (as the reference code
        of Diaz et al., ``expeval``), instead of the items'.
    measure : {"loss", "disparity", "relevance"}, default="loss"
        EE-L, EE-D or EE-R.
    user_model : {"rbp", "gerr"}, default="rbp"
        The exposure of 0-based rank :math:`i`: ``"rbp"`` :math:`p^i`
        (rank-biased precision's patient user); ``"gerr"``
        :math:`p^i (1-u)^h`, :math:`h` the relevant items above (a user who
        stops at a relevant item with probability :math:`u`).
    p : float, default=0.5
        The persistence, in (0, 1).
    u : float, default=0.5
        The probability that a relevant item stops the user (``"gerr"``),
        in [0, 1].
    normalize : bool, default=False
        Scale the measure by its exact bounds over every policy on the
        query's items: EE-D between a uniform random policy (0) and a
        deterministic ranking (1); EE-R between the ranking in reverse order
        of relevance (0) and the ideal one (1); EE-L divided by its largest
        value (the reverse ranking's).  These are the bounds of the
        re-ranking setting (every ranking ranks every item of its query) of
        the ``"rbp"`` model, where they are attained; other cases are
        refused with the reason.  A query where the bounds meet (one item;
        for EE-R, one grade) is undefined.
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    rank_biased_precision_score : The effectiveness measure of the same user.
    ItemExposureDisplay : The exposure of a catalog's items in top-N lists.

    Notes
    -----
    **Ties**: tied items of one ranking (equal scores) share the exposure of
    their ranks as the expectation over their orders, each order equally
    likely: under ``"rbp"`` the mean exposure of the ranks; under ``"gerr"``
    with the relevant tied items above each one counted by its hypergeometric
    law (exact).  So the value never depends on the order of the rows.  The
    target of ``"gerr"`` ranks the relevant items first, so that a
    non-relevant item's rank is discounted by the relevant items only (the
    reference code ``expeval`` discounts every rank as if every item above
    were relevant).

    References
    ----------
    .. [1] F. Diaz, B. Mitra, M. D. Ekstrand, A. J. Biega and B. Carterette,
       "Evaluating Stochastic Rankings with Expected Exposure", CIKM 2020.

    Examples
    --------
    >>> from sklearn_rankeval import expected_exposure_score
    >>> # one query, two relevant items and one not, and a policy that
    >>> # shows the relevant ones in either order, then the other item
    >>> y = [1, 1, 0, 1, 1, 0]
    >>> score = [3, 2, 1, 3, 2, 1]
    >>> samples = [0, 0, 0, 1, 1, 1]
    >>> items = ["a", "b", "c", "b", "a", "c"]
    >>> expected_exposure_score(y, score, groups=[0] * 6, samples=samples,
    ...                         items=items, p=0.5)
    0.0
    >>> # a deterministic ranking favours "a": a loss of 2 * 0.25**2
    >>> float(expected_exposure_score(y[:3], score[:3], p=0.5,
    ...                               groups=[0] * 3))
    0.125
    """
    return compute("expected_exposure", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, measure=measure, user_model=user_model,
                   p=p, u=u, normalize=normalize,
                   columns={"samples": samples, "items": items,
                            "item_groups": item_groups})
