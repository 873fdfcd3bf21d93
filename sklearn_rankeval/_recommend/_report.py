"""``recommendation_report``: metrics of top-N recommendation lists.

One pipeline: the arguments become a plan (:mod:`._plan`: every metric with
its rule, this library's or a peer's); the lists, the held-out and the
training interactions are read and encoded once (:mod:`._inputs`); a peer's
refusals are checked on them (:mod:`._peers`); the long layout, the
memberships at the cut and the partials of every metric are computed once
(:mod:`._evaluate`, on the ``_metrics`` pipeline and the registry's
beyond-accuracy statistics); the partials become the values, formatted here
once.  ``sklearn_rankeval.spark.recommendation_report`` runs the same plan,
partials and finalize over the partitions of Spark frames.
"""

import math

import numpy as np

from .._core import check_k
from .._metrics import (
    LIST_METRICS,
    METRICS,
    list_partials,
    substitute_doc,
    train_popularity,
)
from . import _peers
from ._evaluate import chunk_partials, finalize, user_sets
from ._inputs import item_feature_rows, read_inputs
from ._lists import list_membership, row_rank
from ._plan import make_plan

__all__ = ["BEYOND", "RecommendationReport", "exposure_counts", "format_report",
           "recommendation_report"]

#: The beyond-accuracy metric names (each written with ``@K``), the
#: registry's ``LIST_METRICS``.
BEYOND = tuple(LIST_METRICS)


class RecommendationReport(dict):
    """``{metric: value}`` of ``recommendation_report(output="dict")``, with
    what it counted: ``n_items``, the catalog size (given, or counted), and
    ``n_users``, the users evaluated (those of the metrics' sets of users
    together); ``n_users_of`` gives each metric's own number of users."""

    def __init__(self, values, n_items, n_users, n_users_of):
        super().__init__(values)
        self.n_items = n_items
        self.n_users = n_users
        self.n_users_of = n_users_of


def format_report(values, output, n_items, n_users, n_users_of):
    """The report of ``values`` as ``output`` asks: ``"dict"`` (a
    :class:`RecommendationReport`), ``"frame"`` or ``"text"``."""
    if output == "dict":
        return RecommendationReport(values, n_items, n_users, n_users_of)
    rows = []
    for name, v in values.items():
        if isinstance(v, dict):
            rows.append((name, v["value"], v["ci_low"], v["ci_high"]))
        else:
            rows.append((name, v, math.nan, math.nan))
    with_ci = any(isinstance(v, dict) for v in values.values())
    if output == "frame":
        import pandas as pd

        frame = pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high"])
        frame = frame if with_ci else frame[["metric", "value"]]
        frame["n_users"] = [n_users_of[name] for name in values]
        frame.attrs.update(n_items=n_items, n_users=n_users)
        return frame
    cells = [(name, f"{v:.4f}", "" if math.isnan(lo) else f"{lo:.4f}",
              "" if math.isnan(hi) else f"{hi:.4f}") for name, v, lo, hi in rows]
    head = ("metric", "value") + (("ci_low", "ci_high") if with_ci else ())
    # right-aligned columns at least 7 / 9 wide, wider for large values
    widths = [max(len(c[0]) for c in [head, *cells]) + 2] + [
        max(least, *(len(c[j]) + 1 for c in cells))
        for j, least in zip(range(1, len(head)), (7, 9, 9))]
    users = [str(n_users_of[name]) for name in values]
    uw = max(len("users"), *(len(u) for u in users)) + 2
    lines = [f"{head[0]:<{widths[0]}}" + "".join(
        f"{h:>{w}}" for h, w in zip(head[1:], widths[1:])) + f"{'users':>{uw}}"]
    for cell, n in zip(cells, users):
        shown = cell if with_ci else cell[:2]  # (no interval: blank cells)
        lines.append(f"{cell[0]:<{widths[0]}}" + "".join(
            f"{x:>{w}}" for x, w in zip(shown[1:], widths[1:])) + f"{n:>{uw}}")
    lines.append(f"(catalog: {n_items} items)")
    return "\n".join(lines)


def recommendation_report(recommended, held_out, *, k=10, metrics=None, train=None,
                          n_items=None, item_features=None, users="held_out",
                          user="user", item="item", score=None, relevance=None,
                          convention=None, confidence=None, n_resamples=1000,
                          random_state=None, output="text", head_share=None):
    """Accuracy and beyond-accuracy metrics of top-N recommendation lists.

    The lists are read as the long layout they define: one row per
    recommended item, scored by its score (or minus its rank), with its
    held-out gain (0 if absent), plus one row scored ``-inf`` for every
    held-out item the list misses, so that recall and NDCG count relevant
    items that were never recommended.  The accuracy metrics are then
    exactly those of :func:`ranking_report` on that layout, grouped by user.

    Parameters
    ----------
    recommended : pandas.DataFrame, polars.DataFrame, mapping of columns or \
mapping {user: [item, ...]}
        The lists: columns ``user``, ``item`` and optionally a score column
        (higher is better), such as :func:`top_k_items` returns; or a mapping
        from each user to its list in rank order.  Without a score, the row
        order within a user is the rank.  A repeated (user, item) pair is a
        ``ValueError``.
    held_out : DataFrame, mapping of columns, mapping {user: [item, ...]}, \
mapping {user: {item: gain}} or sparse matrix
        The held-out interactions; a relevance column (graded gains
        ``>= 0``) is optional (default gain 1).  A SciPy sparse
        ``(n_users, n_items)`` matrix: row ``i`` is user ``i``, column ``j``
        item ``j`` (the integer ids :func:`top_k_items` returns), each
        stored nonzero value the gain of a held-out item.
    k : int, default=10
        The cutoff of the default metrics.
    metrics : list of str, default=None
        Accuracy metrics by scorer name (``"ndcg@10"``, ``"recall@10"``,
        ``"precision@10"``, ``"map@10"``, ``"mrr"``, ``"success@10"``, ...)
        and beyond-accuracy metrics ``"coverage@K"``, ``"gini@K"``,
        ``"entropy@K"``, ``"novelty@K"``, ``"arp@K"``, ``"long_tail@K"``,
        ``"ild@K"``.  None: precision, recall, NDCG and MAP at ``k`` and
        ``coverage@k``.
    train : DataFrame, mapping of columns, mapping {user: [item, ...]} or \
sparse matrix, default=None
        Training interactions: the item popularity of ``novelty@K``,
        ``arp@K`` and ``long_tail@K`` (needed by them), and catalog items.
        A sparse matrix as for ``held_out``: each stored nonzero entry is one
        interaction (its value is not read).
    n_items : int, default=None
        Catalog size; None: the number of distinct items in ``train``,
        ``held_out`` and ``recommended`` together, or the number of columns
        of a sparse ``held_out`` / ``train`` if larger (stated in the text
        output).
    item_features : array, sparse matrix or DataFrame, default=None
        For ``ild@K``: row ``i`` describes item ``i`` (integer item ids), or
        a DataFrame indexed by item id.
    %(users_param)s
    user : str, default='user'
        Column name of the user ids (any hashable ids).
    item : str, default='item'
        Column name of the item ids (any hashable ids).
    score : str, default=None
        Score column of ``recommended``; None: ``"score"`` if present, else
        the row order is the rank.
    relevance : str, default=None
        Gain column of ``held_out``; None: ``"relevance"`` if present, else 1.
    %(recommend_convention)s
    confidence : float, default=None
        Bootstrap interval over the evaluated users at this level (as in
        :func:`ranking_report`) for the accuracy metrics and the per-user
        beyond-accuracy metrics (``novelty@K``, ``arp@K``, ``long_tail@K``,
        ``ild@K``: a user drawn twice counts twice in the mean).
        ``coverage@K``, ``gini@K`` and ``entropy@K`` get none: a resample
        repeats users, which never adds an item to the union of the lists,
        so a bootstrap over users is biased downwards for them.
    n_resamples : int, default=1000
        Number of bootstrap resamples (with ``confidence``).
    random_state : int, Generator, RandomState or None, default=None
        Seed of the resampling.
    output : {'text', 'dict', 'frame', 'per_user'}, default='text'
        A text table (each metric's value and number of users, then the
        catalog size); ``{metric: value}`` (with ``confidence``, the values
        with an interval are ``{"value", "ci_low", "ci_high"}``), a dict whose
        attributes ``n_items`` (the catalog size, given or counted) and
        ``n_users`` (the users evaluated) say what it counted; a tidy
        DataFrame (``metric``, ``value``, ``n_users``; its ``attrs`` hold
        ``n_items`` and ``n_users``); or a DataFrame indexed by the evaluated user
        ids (sorted by code) with one column per per-user metric: the
        accuracy metrics and ``novelty@K``, ``arp@K``, ``long_tail@K``,
        ``ild@K`` (NaN where undefined: no list, fewer than 2 items for
        ILD).  ``coverage@K``, ``gini@K`` and ``entropy@K`` describe the
        whole catalog and have no per-user column.
    %(head_share_param)s

    Returns
    -------
    report : str, dict or pandas.DataFrame
        The text table, the dict of values, the tidy frame or the per-user
        frame, by ``output``.

    Warns
    -----
    UserWarning
        When the lists and the held-out interactions share no user or no
        item (ids of two types, ``1`` and ``"u1"``, or written two ways,
        ``"001"`` and ``"1"``): the warning names both id types when they
        differ.
    UndefinedMetricWarning
        A metric without any user or item to define it: NaN.

    See Also
    --------
    top_k_items : The lists of a users x items score matrix.
    ranking_report : The accuracy metrics of a long layout.

    Notes
    -----
    Ties at the K-th place: an item tied at the cut belongs to ``L_u``
    with probability (free places) / (tie size); every metric is its exact
    expected value over the orderings of the tied items for novelty, ARP,
    long tail and ILD (linear in the memberships and in the pair
    memberships) and for coverage (the expected number of covered items,
    ``sum_i 1 - prod_u (1 - m_ui)``); Gini and entropy are those of the
    expected item counts.  The row order never breaks a tie.

    Examples
    --------
    >>> from sklearn_rankeval import recommendation_report
    >>> recommended = {"ann": ["a", "b", "c"], "bob": ["c", "a", "d"]}
    >>> held_out = {"ann": ["b"], "bob": ["d", "e"]}
    >>> recommendation_report(recommended, held_out, k=2,
    ...     metrics=["precision@2", "recall@2", "coverage@2"], output="dict")
    {'precision@2': 0.25, 'recall@2': 0.5, 'coverage@2': 0.6}
    >>> # Microsoft Recommenders: recall over ann only, NDCG over ann and cy
    >>> print(recommendation_report(recommended, {"ann": ["b"], "cy": ["a"]},
    ...     metrics=["recall@2", "ndcg@2"], convention="ms_recommenders"))
    metric      value  users
    recall@2   1.0000      1
    ndcg@2     0.3155      2
    (catalog: 4 items)
    >>> print(recommendation_report(recommended, held_out, k=3,
    ...                             metrics=["recall@3", "mrr"]))
    metric      value  users
    recall@3   0.7500      2
    mrr        0.4167      2
    (catalog: 5 items)
    >>> report = recommendation_report(recommended, held_out, k=2, output="dict")
    >>> report.n_items, report.n_users
    (5, 2)
    """
    plan = make_plan(metrics, k=k, users=users, convention=convention,
                     output=output, confidence=confidence, n_resamples=n_resamples,
                     random_state=random_state, head_share=head_share)
    inp = read_inputs(recommended, held_out, train, user=user, item=item,
                      score=score, relevance=relevance, n_items=n_items,
                      accuracy=any(not m.on_lists for m in plan.metrics),
                      train_users="own" if plan.peer is None else "joint")
    sets = user_sets(inp)
    if plan.peer is None and not sets[users].any():
        has_held, has_list = sets["held_out"].any(), sets["recommended"].any()
        raise ValueError(f"users={users!r}: no user to evaluate (held_out holds "
                         f"{'items' if has_held else 'no item'}, recommended "
                         f"{'lists' if has_list else 'no list'}).")
    if plan.peer is not None:
        inp = _peers.apply(plan.peer, plan.metrics, inp, sets)
    plan.check_needs(train=inp.has_train, item_features=item_features is not None)
    popularity = features = None
    if plan.needs("train"):
        popularity = train_popularity(inp.train_user, inp.train_item,
                                      n_items=inp.n_items)
    if plan.needs("item_features"):
        features = item_feature_rows(item_features, inp.item_labels, inp.n_items,
                                     inp.rec_item[sets["union"][inp.rec_user]])
    partials = chunk_partials(plan, inp, popularity, features)
    if plan.output == "per_user":
        return _per_user_frame(plan, partials, user)
    values, n_users_of = finalize(plan, partials, popularity)
    evaluated = np.zeros(inp.n_users, dtype=bool)
    for users_set in plan.user_sets:
        evaluated |= sets[users_set]
    return format_report(values, plan.output, inp.n_items, int(evaluated.sum()),
                         n_users_of)


def _param(header, body):
    import textwrap

    return header + "\n" + textwrap.fill(
        body, width=76, initial_indent="    ", subsequent_indent="    ",
        break_on_hyphens=False)


def _users_param():
    """The ``users`` parameter, with the metrics that count a user without
    held-out items (read from the registry)."""
    zero = [name for name, spec in METRICS.items()
            if spec.scores == "order" and spec.empty_value is not None]
    left = [name for name, spec in METRICS.items()
            if spec.scores == "order" and spec.empty_value is None
            and not spec.always_defined]
    return _param(
        "users : {'held_out', 'recommended', 'union'}, default='held_out'",
        "The users averaged: those with a held-out item, those with a list, or "
        "both.  An evaluated user with no list gets only ``-inf`` rows (recall "
        "0).  An evaluated user with a list and no held-out item (with "
        "``'recommended'`` or ``'union'``) counts with the value the metric's "
        "formula gives a user without relevant items, 0, in "
        + ", ".join(f"``{n}``" for n in zero) + " (and ``dcg``, defined for "
        "every user); " + ", ".join(f"``{n}``" for n in left) + " divide by "
        "the relevant items and leave that user out, as the metric functions "
        "leave out a group without relevant items.  The beyond-accuracy "
        "metrics read the lists of the evaluated users.")


def _head_share_param():
    default = dict((n, d) for n, d, _ in LIST_METRICS["long_tail"].options)
    return _param(
        "head_share : float, default=None",
        "``long_tail@K``: the short head is the fewest most popular training "
        "items holding this share of the training interactions (plus the items "
        "as popular as the last of them); the tail is the rest.  None: "
        f"{default['head_share']}, the registry's default.")


substitute_doc(recommendation_report, {
    "recommend_convention": _peers.convention_doc(),
    "users_param": _users_param(),
    "head_share_param": _head_share_param(),
})


def _per_user_frame(plan, partials, user):
    """One row per evaluated user (sorted by code), one column per per-user
    metric, NaN where a user has no value of it."""
    import pandas as pd

    columns, codes, labels = {}, [], []
    for users in dict.fromkeys(m.users for m in plan.metrics if m.per_user):
        codes.append(partials.tables[users].codes)
        labels.append(partials.tables[users].labels)
    codes = np.concatenate(codes)
    order = np.unique(codes, return_index=True)[1]
    all_codes, all_labels = codes[order], np.concatenate(labels)[order]
    for m in plan.metrics:
        if not m.per_user:
            continue
        table = partials.tables[m.users]
        p, _ = table.values[m.label]
        column = np.full(all_codes.shape[0], np.nan)
        column[np.searchsorted(all_codes, table.codes)] = np.where(
            p.defined, p.value, np.nan)
        columns[m.label] = column
    return pd.DataFrame(columns, index=pd.Index(all_labels, name=user))


def exposure_counts(recommended, *, k, train=None, n_items=None, user="user",
                    item="item", score=None):
    """Expected exposure of every catalog item in the top-``k`` lists.

    The lists are read as :func:`recommendation_report` reads them, every
    user of ``recommended`` counted.  Returns ``(counts, train_counts,
    labels)``: ``counts[i]`` is the ``c_i`` of ``gini@K`` (the expected
    number of lists holding item ``i``, ties at the cut by their free
    places), ``train_counts[i]`` its number of training interactions (None
    without ``train``), ``labels`` the ids of the first ``len(labels)``
    codes; the codes after them are catalog items absent from the inputs.
    """
    k = check_k(k, allow_none=False)
    inp = read_inputs(recommended, None, train, user=user,
                      item=item, score=score, relevance=None, n_items=n_items)
    if inp.rec_user.shape[0] == 0:
        raise ValueError("recommended holds no recommended item.")
    rank = inp.rec_rank
    if inp.rec_score is None and rank is None:
        rank = row_rank(inp.rec_user)
    m = list_membership(inp.rec_user, inp.rec_score, rank, k)
    counts = list_partials(inp.rec_user, inp.rec_item, m,
                           n_items=inp.n_items).item_count
    train_counts = None
    if train is not None:
        train_counts = train_popularity(inp.train_user, inp.train_item,
                                        n_items=inp.n_items).interactions
    return counts, train_counts, inp.item_labels
