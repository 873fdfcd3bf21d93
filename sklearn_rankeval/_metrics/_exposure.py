"""The public measures of fairness of exposure: expected exposure (Diaz et
al. 2020) and attention-weighted rank fairness (Sapiezynski et al. 2019),
each a docstring and one call of :func:`._pipeline.compute`."""

from collections.abc import Mapping

import numpy as np

from .._core import InvalidParameterError, check_option, check_positive_int
from .._engine import check_inputs, encode_rows, ranked_chunks
from ._docs import fill_doc
from ._exposure_kernels import (
    _starts,
    item_exposures,
    plackett_luce_exact,
    rank_exposure,
)
from ._options import AWRF_CONVENTIONS, check_persistence, check_stop
from ._pipeline import compute
from ._registry import METRICS, metric_function
from ._spec import DEFAULT

__all__ = ["awrf_score", "expected_exposure_score", "exposure_frame"]


@metric_function("expected_exposure")
@fill_doc
def expected_exposure_score(
    y_true, y_score, *, groups=None, samples=None, items=None, item_groups=None,
    measure=DEFAULT, user_model=DEFAULT, p=DEFAULT, u=DEFAULT, normalize=DEFAULT,
    policy=None, n_samples=1000, random_state=None,
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
    user_model : {"rbp", "gerr", "log"}, default="rbp"
        The exposure of 0-based rank :math:`i`: ``"rbp"`` :math:`p^i`
        (rank-biased precision's patient user); ``"gerr"``
        :math:`p^i (1-u)^h`, :math:`h` the relevant items above (a user who
        stops at a relevant item with probability :math:`u`); ``"log"``
        :math:`1 / \\log_2(i + 2)` (DCG's discount).
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
        the ``"rbp"`` and ``"log"`` models, where they are attained; other
        cases are
        refused with the reason.  A query where the bounds meet (one item;
        for EE-R, one grade) is undefined.
    policy : {None, "plackett_luce"}, default=None
        None: the rankings given (``samples``, else one ranking per query
        from ``y_score``).  ``"plackett_luce"``: the stochastic policy that
        draws each ranking of a query's items by the Plackett-Luce model
        with ``y_score`` as log-weights (an item is placed next with
        probability proportional to ``exp(score)`` among those left; a row
        scored ``-inf`` is never placed).  Its expected exposure is exact for
        a query of at most 10 ranked items (a sum over the ``2**m`` sets of
        items that can sit above each rank, ``m 2**m`` terms); for a larger
        query it is estimated by Monte Carlo: ``n_samples`` rankings of the
        query drawn with the Gumbel trick (the order of ``y_score`` plus
        independent Gumbel noise), in batches of bounded memory, so the
        value has a sampling error of order ``1 / sqrt(n_samples)``.
    n_samples : int, default=1000
        Rankings drawn per query of more than 10 ranked items under
        ``policy="plackett_luce"``.
    random_state : int, RandomState instance or None, default=None
        The draws of ``policy="plackett_luce"`` (queries of more than 10
        ranked items).
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
    awrf_score : The attention groups of items draw, against a target.
    ItemExposureDisplay : The exposure of a catalog's items in top-N lists.

    Notes
    -----
    **Ties**: tied items of one ranking (equal scores) share the exposure of
    their ranks as the expectation over their orders, each order equally
    likely: under ``"rbp"`` the mean exposure of the ranks; under ``"gerr"``
    with the relevant tied items above each one counted by its hypergeometric
    law (exact).  So the value never depends on the order of the rows.  The
    target of ``"gerr"`` ranks the relevant items first, so that a
    non-relevant item's rank is discounted by the relevant items above it.

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
    exposure = None
    if policy is not None:
        spec = METRICS["expected_exposure"]
        opts = spec.check_options(measure=measure, user_model=user_model, p=p, u=u,
                                  normalize=normalize)
        exposure = _plackett_luce_exposure(
            policy, n_samples, random_state, y_true, y_score, groups, samples,
            items, opts["user_model"], opts["p"], opts["u"])
    return compute("expected_exposure", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, measure=measure, user_model=user_model,
                   p=p, u=u, normalize=normalize,
                   columns={"samples": samples, "items": items,
                            "item_groups": item_groups, "exposure": exposure})


@metric_function("awrf")
@fill_doc
def awrf_score(
    y_true, y_score, *, groups=None, item_groups=None, target=DEFAULT,
    convention="trec2022", p=DEFAULT, distance=DEFAULT, samples=None, items=None,
    sample_weight=None, average=DEFAULT, undefined=None,
):
    """Attention-weighted rank fairness (AWRF) of each query's ranking, averaged.

    Each rank draws a share of the user's attention; AWRF compares how the
    attention of a ranking falls on groups of items (providers, regions,
    demographics) with a target (Sapiezynski et al. 2019).  Two tools give
    two different quantities the same name, and ``convention`` says which:

    - ``"trec2022"`` (TREC Fair Ranking 2021/2022): the attention of rank
      :math:`r` is :math:`1 / \\log_2 \\max(r, 2)`; the distribution
      :math:`a` of the ranking's attention over the item groups (several
      dimensions: their intersections) is compared with the target
      distribution :math:`t`: :math:`\\text{AWRF} = 1 - \\text{JS}(a, t)`,
      the Jensen-Shannon divergence in nats (1 is a perfect match).  The
      track's score multiplies it by nDCG.
    - ``"fairranktune"`` (FairRankTune): the attention of rank :math:`r` is
      :math:`100\\,p\\,(1-p)^{r-1}`; each group's total attention over the
      query's rankings, divided by its number of items, is combined by
      ``distance`` (``"MinMaxRatio"``: the least attended group's mean over
      the most attended one's, 1 when equal).

    Read more in the :ref:`User Guide <fairness-awrf>`.

    Parameters
    ----------
    y_true : array-like of shape (n_rows,)
        Relevance grades (not read by AWRF, which measures the attention
        alone; kept for the signature every ranking metric shares).
    %(y_score)s
    %(groups)s
    item_groups : array-like of shape (n_rows,) or (n_rows, n_dimensions), \
default=None
        The group of each row's item; 2-D: one group per dimension, and the
        groups compared are their intersections (as TREC 2022 combines its
        fairness dimensions).  None: each item is its own group (how evenly
        the ranking spreads its attention over the items).
    target : mapping, default=None
        ``{item group: share}`` (2-D ``item_groups``: tuples of one group per
        dimension as keys), normalised to sum 1 over all its keys
        (``"trec2022"``); a group of the target that no item belongs to keeps
        its share.  None: the uniform distribution over the item groups of the
        query's items.
    convention : {"trec2022", "fairranktune"}, default="trec2022"
        Which AWRF (see above).
    p : float, default=0.5
        FairRankTune's share of the attention that the first rank draws.
    distance : str, default=None
        ``"js"`` (``"trec2022"``'s only) or FairRankTune's ``combo``:
        ``"MinMaxRatio"`` (its default here), ``"MaxMinRatio"``,
        ``"MaxMinDiff"``, ``"MaxAbsDiff"``, ``"MeanAbsDev"``, ``"LTwo"``,
        ``"Variance"``.  None: the convention's.
    samples : array-like of shape (n_rows,), default=None
        Several rankings of one query (a stochastic policy, as FairRankTune's
        several ranking columns): the sampled ranking of each row; their
        attention adds up.
    items : array-like of shape (n_rows,), default=None
        The item each row shows; needed with ``samples``.
    %(sample_weight_query)s
    %(average_query)s
    %(undefined)s

    Returns
    -------
    score : float or ndarray of shape (n_groups,)
        %(returns)s

    See Also
    --------
    expected_exposure_score : Exposure against a relevance-based target.

    Notes
    -----
    **Ties**: tied items share the attention of their ranks (the mean over
    their orders, each equally likely), so the value never depends on the
    order of the rows; the tools take the rows' order.  Items with score
    ``-inf`` are not ranked.  A query whose ranking draws no attention is
    undefined (``"trec2022"``); so is FairRankTune's ``"MaxMinRatio"`` when
    a group draws no attention (a division by 0; ``"MinMaxRatio"`` is then
    0).

    References
    ----------
    .. [1] P. Sapiezynski, W. Zeng, R. E. Robertson, A. Mislove and C. Wilson,
       "Quantifying the Impact of User Attention on Fair Group Representation
       in Ranked Lists", WWW 2019 Companion.
    .. [2] M. D. Ekstrand, G. McDonald, A. Raj and I. Johnson, "Overview of the
       TREC 2022 Fair Ranking Track", TREC 2022.

    Examples
    --------
    >>> from sklearn_rankeval import awrf_score
    >>> # two providers alternate: attention 1, 1, 1/log2(3), 1/2
    >>> round(awrf_score([0] * 4, [4, 3, 2, 1], groups=[0] * 4,
    ...                  item_groups=["a", "b", "a", "b"]), 4)
    0.9998
    >>> awrf_score([0] * 4, [4, 3, 2, 1], groups=[0] * 4,
    ...            item_groups=["a", "b", "a", "b"], convention="fairranktune")
    0.5
    """
    convention = check_option(convention, "convention", AWRF_CONVENTIONS)
    cells, labels = (None, None) if item_groups is None else _cells(item_groups)
    if target is not None:
        target = _target_shares(target, labels)
    return compute("awrf", y_true, y_score, groups=groups,
                   sample_weight=sample_weight, average=average,
                   undefined=undefined, variant=convention, p=p,
                   distance=distance, target=target,
                   columns={"samples": samples, "items": items,
                            "item_groups": cells})


def _cells(item_groups):
    """The item groups as integer codes, one per row (2-D: one per
    combination of the dimensions, their intersection), and the label of
    each code (2-D: a tuple of one group per dimension)."""
    values = item_groups
    if not hasattr(values, "shape"):
        values = np.asarray(values, dtype=object)
    n = values.shape[0]
    if getattr(values, "ndim", 1) != 2:
        codes, labels = encode_rows(values, n, name="item_groups")
        return codes, labels.tolist()
    columns = [values.iloc[:, j] if hasattr(values, "iloc") else values[:, j]
               for j in range(values.shape[1])]
    encoded = [encode_rows(column, n, name="item_groups") for column in columns]
    codes = np.stack([c for c, _ in encoded], axis=1)
    combos, cell = np.unique(codes, axis=0, return_inverse=True)
    labels = [tuple(encoded[j][1][k] for j, k in enumerate(row))
              for row in combos.tolist()]  # (one per distinct combination)
    return cell.reshape(-1), labels


def _target_shares(target, labels):
    """``target`` as the shares of the item groups' codes (in the order of
    ``labels``), normalised over every key of the mapping: a target group
    that no row holds keeps its share (the divergence counts it)."""
    if not isinstance(target, Mapping):
        raise InvalidParameterError(
            "target", f"must be a mapping {{item group: share}}, got "
            f"{type(target).__name__}.")
    if labels is None:
        raise InvalidParameterError(
            "target", "needs item_groups= (the target shares of item groups).")
    try:
        shares = {key: float(v) for key, v in target.items()}
    except (TypeError, ValueError):
        raise InvalidParameterError(
            "target", "must map each item group to a number (its share).") from None
    total = sum(shares.values())
    if (not shares or any(not np.isfinite(v) or v < 0 for v in shares.values())
            or not total > 0):
        raise InvalidParameterError(
            "target", "must give finite shares >= 0 with a positive sum.")
    missing = [label for label in labels if label not in shares]
    if missing:
        raise InvalidParameterError(
            "target", f"has no share for the item group(s) "
            f"{', '.join(map(repr, missing[:5]))}.")
    return tuple(shares[label] / total for label in labels)


#: Rows (draws x rows of the input) of one batch of Plackett-Luce draws, and
#: of the sets of one batch of queries of the exact expectation.
PL_BATCH_ROWS = 1 << 21
#: Queries of at most this many ranked items get the exact Plackett-Luce
#: expectation (``m 2**m`` terms each); larger ones Monte Carlo.
PL_EXACT_ITEMS = 10


def _plackett_luce_exposure(policy, n_samples, random_state, y_true, y_score,
                            groups, samples, items, user_model, p, u):
    """Each row's expected exposure under the Plackett-Luce policy of
    ``y_score`` (log-weights): exact for the queries of at most
    :data:`PL_EXACT_ITEMS` ranked items (:func:`plackett_luce_exact`, batched
    by query size), else from ``n_samples`` rankings of the query drawn with
    the Gumbel trick (the scores plus independent Gumbel noise rank the items
    as the model draws them: no ties), in batches of draws (memory bounded by
    :data:`PL_BATCH_ROWS` rows).  A row with score ``-inf`` is not ranked."""
    from sklearn.utils import check_random_state

    check_option(policy, "policy", ("plackett_luce",))
    n_samples = check_positive_int(n_samples, "n_samples", allow_none=False)
    if samples is not None or items is not None:
        raise InvalidParameterError(
            "policy", "draws the sampled rankings itself: pass samples= and "
            "items= only without it.")
    checked = check_inputs(y_true, y_score, groups=groups)
    if checked.layout != "long":
        raise InvalidParameterError(
            "policy", "needs the long layout (1-D y_score with groups=).")
    score = np.asarray(checked.y_score, dtype=np.float64)
    n = score.shape[0]
    code = (np.zeros(n, dtype=np.int64) if groups is None
            else encode_rows(checked.groups, n)[0])
    relevant = np.asarray(checked.y_true, dtype=np.float64) > 0
    exposure = np.zeros(n)
    ranked = score > -np.inf
    n_ranked = np.bincount(code[ranked], minlength=code.max(initial=-1) + 1)[code]
    exact = ranked & (n_ranked <= PL_EXACT_ITEMS)
    rows = np.flatnonzero(exact)
    rows = rows[np.lexsort((rows, n_ranked[rows], code[rows]))]
    for m in np.unique(n_ranked[rows]):  # (query sizes, at most PL_EXACT_ITEMS)
        same = rows[n_ranked[rows] == m].reshape(-1, m)
        step = max(1, PL_BATCH_ROWS >> int(m))
        for start in range(0, same.shape[0], step):  # (batches of queries)
            block = same[start:start + step]
            exposure[block] = plackett_luce_exact(
                score[block], relevant[block], user_model, p, u)
    drawn_rows = np.flatnonzero(n_ranked > PL_EXACT_ITEMS)
    if drawn_rows.shape[0]:
        rng = check_random_state(random_state)
        exposure[drawn_rows] = _plackett_luce_draws(
            rng, n_samples, score[drawn_rows], code[drawn_rows],
            relevant[drawn_rows], user_model, p, u)
    return exposure


def _plackett_luce_draws(rng, n_samples, score, code, relevant, user_model, p, u):
    """Monte Carlo of :func:`_plackett_luce_exposure` (rows of any order)."""
    n = score.shape[0]
    batch = max(1, min(n_samples, PL_BATCH_ROWS // max(n, 1)))
    exposure = np.zeros(n)
    row = np.arange(n)
    for start in range(0, n_samples, batch):  # (batches of draws)
        size = min(batch, n_samples - start)
        drawn = (score[None, :] + rng.gumbel(size=(size, n))).reshape(-1)
        draw = np.repeat(np.arange(size), n)
        order = np.lexsort((-drawn, np.tile(code, size), draw))
        rows = np.tile(row, size)[order]
        ranking = np.cumsum(_starts(draw[order], np.tile(code, size)[order])) - 1
        exposure += np.bincount(rows, weights=rank_exposure(
            ranking, drawn[order], relevant[rows], user_model, p, u), minlength=n)
    return exposure / n_samples


def exposure_frame(y_true, y_score, *, groups=None, samples=None, items=None,
                   item_groups=None, user_model="rbp", p=0.5, u=0.5,
                   by="item"):
    """The expected exposure of each item (or item group), beside its target.

    What :func:`expected_exposure_score` measures, item by item: one row
    per (query, item) with the item's grade, its expected exposure over the
    query's rankings and the target exposure of an ideal policy (see
    :func:`expected_exposure_score` for the user models, the samples and the
    ties).  ``by="item_group"`` sums them over the relevant items of each
    group of ``item_groups`` (grade > 0: the group exposure that
    :func:`expected_exposure_score` compares, as the reference code
    ``expeval``), beside the group's numbers of items and relevant items.
    The ``exposure`` column is what :meth:`ItemExposureDisplay.from_counts`
    draws as a Lorenz curve.

    Read more in the :ref:`User Guide <fairness-exposure>`.

    Parameters
    ----------
    y_true : array-like of shape (n_rows,)
        Relevance grade of each row's item (>= 0).
    y_score : array-like of shape (n_rows,)
        The score of each row in its ranking.
    groups : array-like of shape (n_rows,), default=None
        The query of each row (None: one query).
    samples : array-like of shape (n_rows,), default=None
        The sampled ranking of its query each row is in.
    items : array-like of shape (n_rows,), default=None
        The item each row shows (needed with ``samples``; None: each row is
        its own item, numbered by its row).
    item_groups : array-like of shape (n_rows,), default=None
        The group of each row's item (a column of the frame; needed with
        ``by="item_group"``).
    user_model : {"rbp", "gerr", "log"}, default="rbp"
        The exposure of a rank (see :func:`expected_exposure_score`).
    p : float, default=0.5
        The persistence, in (0, 1).
    u : float, default=0.5
        The stopping probability at a relevant item (``"gerr"``).
    by : {"item", "item_group"}, default="item"
        One row per (query, item), or per (query, item group).

    Returns
    -------
    frame : pandas.DataFrame
        Columns ``group``, ``item`` (or ``item_group``), ``grade`` (by item),
        ``n_items`` and ``n_relevant`` (by item group), ``exposure``,
        ``target``; ``item_group`` too by item when ``item_groups`` is given.

    See Also
    --------
    expected_exposure_score : The loss, disparity and relevance of these.
    ItemExposureDisplay : The Lorenz curve of the exposure.

    Examples
    --------
    >>> from sklearn_rankeval import exposure_frame
    >>> exposure_frame([1, 1, 0], [3, 2, 1], groups=[0, 0, 0],
    ...                items=["a", "b", "c"], p=0.5)
       group item  grade  exposure  target
    0      0    a    1.0      1.00    0.75
    1      0    b    1.0      0.50    0.75
    2      0    c    0.0      0.25    0.25
    """
    import pandas as pd

    from .._core import check_option

    user_model = check_option(user_model, "user_model", ("rbp", "gerr", "log"))
    p, u = check_persistence(p), check_stop(u)
    by = check_option(by, "by", ("item", "item_group"))
    if item_groups is not None and np.ndim(item_groups) != 1:
        raise InvalidParameterError(
            "item_groups", "must be 1-D (one group per row) for exposure_frame.")
    if by == "item_group" and item_groups is None:
        raise InvalidParameterError("item_groups", "is needed with by='item_group'.")
    checked = check_inputs(y_true, y_score, groups=groups, samples=samples,
                           items=items, item_groups=item_groups)
    if checked.layout != "long":
        raise InvalidParameterError(
            "y_score", "must be 1-D (the long layout: one row per item, with "
            "groups=) for exposure_frame.")
    n = checked.n_rows
    pieces = []
    for rg in ranked_chunks(*checked, columns={**checked.columns,
                                                "row": np.arange(n)}):
        ex = item_exposures(rg, user_model, p, u)
        row = np.asarray(rg.column("row"))[ex.rank_row]
        pieces.append(pd.DataFrame({
            "group": np.asarray(rg.labels)[ex.group],
            "item": row if items is None else np.asarray(items)[row],
            "grade": ex.grade, "exposure": ex.exposure, "target": ex.target,
            **({} if item_groups is None
               else {"item_group": np.asarray(item_groups)[row]})}))
    frame = pd.concat(pieces, ignore_index=True)
    if by == "item":
        return frame
    relevant = frame["grade"] > 0
    frame = frame.assign(relevant=relevant,
                         exposure=frame["exposure"].where(relevant, 0.0),
                         target=frame["target"].where(relevant, 0.0))
    return (frame.groupby(["group", "item_group"], sort=True)
            .agg(n_items=("item", "size"), n_relevant=("relevant", "sum"),
                 exposure=("exposure", "sum"), target=("target", "sum"))
            .reset_index())
