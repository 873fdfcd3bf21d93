"""Metrics of top-N recommendation lists: ``recommendation_report``.

The lists (``recommended``) and the held-out interactions are read into
flat arrays of integer codes (users and items encoded once, with the
package's group-id encoder).  Accuracy metrics are computed by
``ranking_report`` / ``per_group_scores`` on the long layout that the lists
define (API.md, "Top-N recommendation lists"): one row per recommended item
(its score, or minus its rank) with its held-out gain (0 if absent), and one
row scored ``-inf`` for every held-out item the list misses.  The
beyond-accuracy metrics come from ``_beyond``.
"""

import math
import re
from collections.abc import Mapping

import numpy as np

from .._core import InvalidArgumentError, check_k, check_option, check_positive_int
from .._engine import encode_rows
from .._metrics import parse_metrics, substitute_doc
from .._reports import per_group_scores, ranking_report
from .._stats import (
    check_confidence,
    check_n_resamples,
    check_random_state,
    percentile_interval,
)
from . import _beyond
from . import _peers as _recommend_conventions

__all__ = ["recommendation_report"]

#: The beyond-accuracy metric names (each with ``@K``).
BEYOND = _beyond.METRICS
_BEYOND_RE = re.compile(rf"^({'|'.join(BEYOND)})@(\d+)$")
#: The default metrics; ``{k}`` is the call's ``k``.
DEFAULT = ("precision@{k}", "recall@{k}", "ndcg@{k}", "map@{k}", "coverage@{k}")
USERS = ("held_out", "recommended", "union")
OUTPUTS = ("text", "dict", "frame", "per_user")


# ---------------------------------------------------------------------------
# input forms
# ---------------------------------------------------------------------------
def _column(frame, col, name):
    try:
        values = frame[col]
    except (KeyError, IndexError, TypeError):
        values = None
    if values is None or (isinstance(frame, Mapping) and col not in frame):
        raise ValueError(f"{name} has no column {col!r}.")
    if hasattr(values, "to_numpy"):
        values = values.to_numpy()
    arr = np.asarray(values)
    if arr.ndim > 1 and isinstance(values, (list, tuple)):
        arr = _ids(values)  # ids that are sequences: unhashable, rejected later
    if arr.ndim != 1:
        raise ValueError(f"{name}[{col!r}] must be 1-D, got shape {arr.shape}.")
    return arr


def _is_columns(obj, user, item):
    if hasattr(obj, "columns") and not isinstance(obj, Mapping):
        return True
    if not isinstance(obj, Mapping) or any(isinstance(v, Mapping)
                                           for v in obj.values()):
        return False
    # a mapping naming one of the two columns is a mapping of columns with the
    # other misnamed (a ValueError naming it), not lists of users so named
    return user in obj or item in obj


def _read(obj, name, *, user, item, value, value_default, gains):
    """``(users, items, values or None, rank or None)`` of one input.

    ``values``: the ``value`` column (scores or relevance) when named or
    present; ``rank``: 0-based positions of ``{user: [items]}`` lists.
    """
    if obj is None:
        raise TypeError(f"{name} must be a DataFrame, a mapping of columns or a "
                        "mapping {user: [items]}, got None.")
    if _is_sparse(obj):
        if name == "recommended":
            raise TypeError("recommended must be a DataFrame, a mapping of columns "
                            "or a mapping {user: [items]}: a sparse matrix has no "
                            "order (use top_k_items on a score matrix).")
        if value is not None:
            raise ValueError(f"{name} is a sparse matrix: its stored values are the "
                             f"gains, it has no column {value!r}.")
        coo = obj.tocoo()
        keep = coo.data != 0  # stored zeros are not interactions
        return (coo.row[keep].astype(np.int64), coo.col[keep].astype(np.int64),
                np.asarray(coo.data[keep], dtype=np.float64) if gains else None,
                None)
    if _is_columns(obj, user, item):
        columns = list(obj.columns) if hasattr(obj, "columns") else list(obj)
        users = _column(obj, user, name)
        items = _column(obj, item, name)
        if users.shape != items.shape:
            raise ValueError(f"{name}: the columns {user!r} and {item!r} differ in "
                             "length.")
        col = value if value is not None else (
            value_default if value_default in columns else None)
        values = None if col is None else _column(obj, col, name)
        if values is not None and values.shape != users.shape:
            raise ValueError(f"{name}: the column {col!r} differs in length.")
        return users, items, values, None
    if not isinstance(obj, Mapping):
        raise TypeError(
            f"{name} must be a DataFrame, a mapping of columns or a mapping "
            f"{{user: [items]}}, got {type(obj).__name__}.")
    if value is not None:
        raise ValueError(f"{name} is a mapping {{user: items}}: it has no column "
                         f"{value!r}.")
    users, items, values, rank = [], [], [], []
    for u, lst in obj.items():  # the input's own Python structure, read once
        if isinstance(lst, Mapping):
            if not gains:
                raise TypeError(f"{name}: a mapping {{user: {{item: gain}}}} is only "
                                "accepted for held_out.")
            items.extend(lst.keys())
            values.extend(lst.values())
            n = len(lst)
        else:
            if isinstance(lst, (str, bytes)) or not hasattr(lst, "__len__"):
                raise TypeError(f"{name}: the items of user {u!r} must be a list, "
                                f"got {type(lst).__name__}.")
            if not gains and isinstance(lst, (set, frozenset)):
                raise TypeError(f"{name}: the items of user {u!r} are a set, which "
                                "has no order: the order of a list is its rank.")
            lst = list(lst)
            items.extend(lst)
            values.extend([1] * len(lst))
            n = len(lst)
        users.extend([u] * n)
        rank.extend(range(n))
    users = _ids(users)
    items = _ids(items)
    return users, items, np.asarray(values, dtype=np.float64), np.asarray(
        rank, dtype=np.int64)


def _is_sparse(obj):
    from scipy import sparse

    return sparse.issparse(obj)


def _read_lists(recommended, *, user, item, score):
    """``(users, items, scores or None, ranks or None)`` of ``recommended``:
    the checked float64 scores, or the positions of lists given in order
    (then no scores)."""
    r_user, r_item, r_score, r_rank = _read(
        recommended, "recommended", user=user, item=item, value=score,
        value_default="score", gains=False)
    if r_rank is not None:
        return r_user, r_item, None, r_rank  # lists in order: the rank
    return r_user, r_item, _check_scores(r_score), None


def _read_train(train, *, user, item):
    """``(users, items)`` of the training interactions (empty without)."""
    if train is None:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    t_user, t_item, _, _ = _read(train, "train", user=user, item=item,
                                 value=None, value_default=None, gains=False)
    return t_user, t_item


def _ids(values):
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


def _encode(arrays, what):
    """Codes of the ids of several arrays together, split back, and the labels."""
    sizes = [a.shape[0] for a in arrays]
    kinds = {a.dtype.kind for a in arrays if a.shape[0]}
    if len(kinds) > 1 and kinds <= set("iub"):
        # integers of several kinds (int64, uint32, bool): one integer dtype
        # when no value is lost, not the much slower object arrays
        big = any(a.dtype.kind == "u" and a.dtype.itemsize == 8 and a.shape[0]
                  and a.max() >= 2**63 for a in arrays)
        if not big:
            arrays = [a.astype(np.int64) for a in arrays]
            kinds = {"i"}
    if len(kinds) > 1 or "O" in kinds:
        arrays = [a.astype(object) for a in arrays]
    else:  # empty arrays take the dtype of the others (no str/int promotion)
        dtype = next((a.dtype for a in arrays if a.shape[0]), np.dtype(np.int64))
        arrays = [a if a.shape[0] else a.astype(dtype) for a in arrays]
    joined = np.concatenate(arrays) if arrays else np.zeros(0)
    if joined.shape[0] == 0:
        return [np.zeros(0, dtype=np.int64) for _ in arrays], joined
    try:
        codes, labels = encode_rows(joined, joined.shape[0])
    except (TypeError, ValueError) as exc:
        rule = " must be hashable" if "unhashable" in str(exc) else (
            " must be of one comparable type across the inputs (such as all "
            "strings or all integers)" if "comparable" in str(exc) or
            "not supported between" in str(exc) else "")
        raise type(exc)(f"{what} ids{rule}: {exc}") from None
    return np.split(codes.astype(np.int64), np.cumsum(sizes)[:-1]), labels


def _match_pairs(ru, ri, hu, hi, n_items, user_labels, item_labels):
    """Each recommended row's held-out row (or -1), and whether each held-out
    row is recommended: one sort of the (user, item) keys of both inputs,
    each with its source bit and row index packed in (an ``argsort`` where
    they do not fit in 63 bits).  A (user, item) pair repeated within one
    input is a ``ValueError``."""
    n_r, n_h = ru.shape[0], hu.shape[0]
    n = n_r + n_h
    pair = np.concatenate([ru * n_items + ri, hu * n_items + hi])
    row_bits = max(int(n - 1).bit_length(), 1)
    top = int(pair.max()) if n else 0
    if top.bit_length() + 1 + row_bits <= 63:
        key = pair << (1 + row_bits)
        key[n_r:] |= 1 << row_bits  # the source bit: a recommended row first
        key |= np.arange(n, dtype=np.int64)
        key.sort()
        order = key & ((1 << row_bits) - 1)
        key >>= row_bits
    else:
        key = pair << 1
        key[n_r:] |= 1
        order = np.argsort(key)
        key = key[order]
    same = (key[1:] >> 1) == (key[:-1] >> 1)
    repeated = same & ((key[1:] & 1) == (key[:-1] & 1))
    if repeated.any():
        first = int(key[1:][repeated][0])
        name = "held_out" if first & 1 else "recommended"
        u, i = divmod(first >> 1, n_items)
        raise ValueError(f"{name} repeats the (user, item) pair "
                         f"({_label(user_labels[u])!r}, {_label(item_labels[i])!r}).")
    at = np.flatnonzero(same)
    r_rows, h_rows = order[at], order[at + 1] - n_r
    held_row = np.full(n_r, -1, dtype=np.int64)
    held_row[r_rows] = h_rows
    in_list = np.zeros(n_h, dtype=bool)
    in_list[h_rows] = True
    return held_row, in_list


def _split_metrics(metrics, k):
    if metrics is None:
        metrics = [m.format(k=k) for m in DEFAULT]
    elif isinstance(metrics, str):
        metrics = [metrics]
    if len(metrics) == 0:
        raise ValueError("metrics is empty: name at least one metric (or None "
                         "for the default ones).")
    accuracy, beyond, order = [], [], []
    for name in metrics:
        if not isinstance(name, str):
            raise TypeError(f"metrics must hold metric names, got {name!r}.")
        match = _BEYOND_RE.match(name)
        if match:
            cut = match.group(2)
            if cut != str(int(cut)) or int(cut) == 0:
                raise ValueError(f"metrics: {name!r}: the cutoff must be a "
                                 "positive integer without leading zeros.")
            beyond.append((name, match.group(1), int(cut)))
        elif name.split("@")[0] in BEYOND:
            raise ValueError(f"metrics: {name!r} needs a cutoff, e.g. "
                             f"'{name.split('@')[0]}@10'.")
        else:
            accuracy.append(name)
        order.append(name)
    for name, spec, _ in parse_metrics(accuracy) if accuracy else ():
        if spec.scores != "order":  # unknown names: a ValueError naming metrics
            raise ValueError(
                f"metrics: {name!r} ({spec.label}) reads the scores as "
                "probabilities; a recommendation list gives an order only.")
    return accuracy, beyond, list(dict.fromkeys(order))


def _label(value):
    """An id as the user wrote it (a NumPy scalar as its Python value)."""
    return value.item() if isinstance(value, np.generic) else value


def _features(item_features, labels, n_items, used):
    """``(n_items, d)`` feature rows: those of the items ``used`` (codes of
    recommended items) from ``item_features``, zero rows for the others."""
    from scipy import sparse

    present = np.flatnonzero(np.bincount(used, minlength=n_items))
    wanted = labels[present]
    if hasattr(item_features, "index") and hasattr(item_features, "loc"):
        missing = ~np.isin(wanted, np.asarray(item_features.index, dtype=object))
        if missing.any():
            raise ValueError(f"item_features has no row for the item "
                             f"{_label(wanted[missing][0])!r}.")
        rows = item_features.loc[list(wanted)].to_numpy(dtype=np.float64)
    else:
        if not sparse.issparse(item_features):
            item_features = np.asarray(item_features, dtype=np.float64)
        n_rows = item_features.shape[0]
        try:
            idx = wanted.astype(np.int64)
            ok = np.array_equal(idx, wanted) and (
                idx.size == 0 or (idx.min() >= 0 and idx.max() < n_rows))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(
                f"item_features has {n_rows} rows: the recommended item ids must "
                "be integers 0 .. n_rows - 1 (or pass a DataFrame indexed by item "
                "id).")
        rows = item_features[idx]
    if sparse.issparse(rows):
        place = sparse.csr_matrix(
            (np.ones(present.shape[0]), (present, np.arange(present.shape[0]))),
            shape=(n_items, present.shape[0]))
        return place @ sparse.csr_matrix(rows)
    out = np.zeros((n_items, rows.shape[1]))
    out[present] = rows
    return out


def _membership(ru, score, rank, k):
    """Each row's membership of its user's top-``k`` list (``_beyond``)."""
    if score is not None:
        return _beyond.membership(ru, score, k=k)
    return _beyond.membership_from_rank(ru, k=k, rank=rank)


def _beyond_values(beyond, ru, ri, score, rank, n_items, train_pop, features, *,
                   head_share, evaluated, confidence, n_resamples, random_state,
                   options=None):
    """``({name: value}, [per-user frames])`` of the beyond-accuracy metrics.

    With ``confidence``, each value is ``{"value", "ci_low", "ci_high"}``
    from :func:`_beyond.bootstrap` over the evaluated users.  ``options``:
    a peer's variants of ``_beyond.finalize`` (``convention=``).
    """
    if options and confidence is not None:
        raise ValueError(
            "confidence= with a convention: the intervals of the beyond-accuracy "
            "metrics follow this library's definitions only; pass "
            "convention=None or leave confidence=None.")
    import pandas as pd

    out, frames = {}, []
    index = np.cumsum(evaluated) - 1  # evaluated users, coded 0 .. n - 1
    n_evaluated = int(evaluated.sum())
    rng = None if confidence is None else check_random_state(random_state)
    for kk in sorted({b[2] for b in beyond}):
        names = {b[1] for b in beyond if b[2] == kk}
        m = _membership(ru, score, rank, kk)
        parts = _beyond.partials(
            ru, ri, m, n_items=n_items,
            popularity=train_pop if names & set(_beyond.NEEDS_POPULARITY) else None,
            item_features=features if "ild" in names else None,
            head_share=head_share)
        values = _beyond.finalize(parts, k=kk, popularity=train_pop,
                                  **(options or {}))
        if rng is not None:
            parts_e = parts._replace(user=index[parts.user])
            dist = _beyond.bootstrap(parts_e, n_users=n_evaluated,
                                     n_resamples=n_resamples, rng=rng)
            for name in dist:
                key = f"{name}@{kk}"
                low, high = percentile_interval(dist[name], confidence)
                values[key] = {"value": values[key], "ci_low": low, "ci_high": high}
        out.update(values)
        per_user = _beyond.per_user_values(parts)
        columns = {f"{name}@{kk}": per_user[name] for name in names
                   if name in _beyond.user_metrics(parts)}
        if columns:
            frames.append(pd.DataFrame(columns, index=per_user["user"]))
    return out, frames


def recommendation_report(recommended, held_out, *, k=10, metrics=None, train=None,
                          n_items=None, item_features=None, users="held_out",
                          user="user", item="item", score=None, relevance=None,
                          convention=None, confidence=None, n_resamples=1000,
                          random_state=None, output="text", head_share=0.8):
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
    users : {'held_out', 'recommended', 'union'}, default='held_out'
        The users averaged: those with a held-out item, those with a list, or
        both.  An evaluated user with no list gets only ``-inf`` rows (recall
        0).
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
        A text table; ``{metric: value}`` (with ``confidence``, the values
        with an interval are ``{"value", "ci_low", "ci_high"}``); a tidy DataFrame
        (``metric``, ``value``); or a DataFrame indexed by the evaluated user
        ids (sorted by code) with one column per per-user metric: the
        accuracy metrics and ``novelty@K``, ``arp@K``, ``long_tail@K``,
        ``ild@K`` (NaN where undefined: no list, fewer than 2 items for
        ILD).  ``coverage@K``, ``gini@K`` and ``entropy@K`` describe the
        whole catalog and have no per-user column.
    head_share : float, default=0.8
        ``long_tail@K``: the short head is the fewest most popular training
        items holding this share of the training interactions (plus the
        items as popular as the last of them); the tail is the rest.

    Returns
    -------
    report : str, dict or pandas.DataFrame
        The text table, the dict of values, the tidy frame or the per-user
        frame, by ``output``.

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
    metric      value
    recall@2   1.0000
    ndcg@2     0.3155
    >>> print(recommendation_report(recommended, held_out, k=3,
    ...                             metrics=["recall@3", "mrr"]))
    metric      value
    recall@3   0.7500
    mrr        0.4167
    """
    kwargs = dict(k=k, metrics=metrics, train=train, n_items=n_items,
                  item_features=item_features, users=users, user=user, item=item,
                  score=score, relevance=relevance, confidence=confidence,
                  n_resamples=n_resamples, random_state=random_state, output=output,
                  head_share=head_share)
    if convention is not None:
        return _recommend_conventions.report(_report, convention, recommended,
                                             held_out, **kwargs)
    return _report(recommended, held_out, **kwargs)


substitute_doc(recommendation_report,
               {"recommend_convention": _recommend_conventions.convention_doc()})


def _report(recommended, held_out, *, k, metrics, train, n_items, item_features,
            users, user, item, score, relevance, confidence, n_resamples,
            random_state, output, head_share=0.8, ranking_convention=None,
            beyond_options=None):
    """``recommendation_report`` under this library's rules, or under the
    ranking convention and ``_beyond.finalize`` options of a peer (given by
    ``_recommend_conventions``)."""
    k = check_k(k, allow_none=False)
    check_option(users, "users", USERS)
    check_option(output, "output", OUTPUTS)
    accuracy, beyond, order = _split_metrics(metrics, k)
    if output == "per_user" and not accuracy and not {
            b[1] for b in beyond} - set(_beyond.CATALOG):
        raise ValueError(
            "output='per_user' needs a per-user metric: an accuracy metric or one "
            f"of {', '.join(n + '@K' for n in BEYOND if n not in _beyond.CATALOG)}"
            f" ({', '.join(n + '@K' for n in _beyond.CATALOG)} are catalog-level).")
    _beyond.check_head_share(head_share)
    if confidence is not None:
        if output == "per_user":
            raise ValueError("confidence= gives intervals of the averages: it has "
                             "no meaning with output='per_user'.")
        check_confidence(confidence)
        check_n_resamples(n_resamples)

    r_user, r_item, r_score, r_rank = _read_lists(recommended, user=user,
                                                  item=item, score=score)
    h_user, h_item, h_gain, _ = _read(
        held_out, "held_out", user=user, item=item, value=relevance,
        value_default="relevance", gains=True)
    t_user, t_item = _read_train(train, user=user, item=item)
    h_gain = _check_gains(h_gain, h_user.shape[0])

    (ru, hu), user_labels = _encode([r_user, h_user], "user")
    (ri, hi, ti), item_labels = _encode([r_item, h_item, t_item], "item")
    n_items = _catalog_size(n_items, item_labels.shape[0], (held_out, train),
                            "recommended, held_out and train")
    n_users = user_labels.shape[0]
    held_row, in_list = _match_pairs(ru, ri, hu, hi, n_items, user_labels,
                                     item_labels)
    r_gain = np.where(held_row >= 0, h_gain[held_row] if h_gain.shape[0] else 0.0,
                      0.0)

    has_list = np.bincount(ru, minlength=n_users) > 0
    has_held = np.bincount(hu, minlength=n_users) > 0
    evaluated = {"held_out": has_held, "recommended": has_list,
                 "union": has_list | has_held}[users]
    if not evaluated.any():
        raise ValueError(f"users={users!r}: no user to evaluate (held_out holds "
                         f"{'no item' if not has_held.any() else 'items'}, "
                         f"recommended {'no list' if not has_list.any() else 'lists'}"
                         ").")

    keep_r = evaluated[ru]
    keep_h = evaluated[hu]
    ru, ri, r_gain = ru[keep_r], ri[keep_r], r_gain[keep_r]
    if r_score is not None:
        r_score = r_score[keep_r]
    if r_rank is not None:
        r_rank = r_rank[keep_r]
    missed = ~in_list[keep_h]
    hu, h_gain = hu[keep_h][missed], h_gain[keep_h][missed]
    if r_score is None and r_rank is None:  # columns without a score: row order
        r_rank = _beyond.row_rank(ru)

    out, per_user = {}, []
    if accuracy:
        y_true, y_score, groups = _long_layout(ru, r_gain, r_score, r_rank, hu,
                                               h_gain)
        if output == "per_user":
            frame = per_group_scores(y_true, y_score, groups=groups,
                                     metrics=accuracy, convention=ranking_convention)
            per_user.append(frame[accuracy])
        else:
            out.update(ranking_report(
                y_true, y_score, groups=groups, metrics=accuracy, output="dict",
                confidence=confidence, n_resamples=n_resamples,
                random_state=random_state, convention=ranking_convention))
    if beyond:
        names = {b[1] for b in beyond}
        train_pop = features = None
        if names & set(_beyond.NEEDS_POPULARITY) or \
                _beyond.variants_need_popularity(**(beyond_options or {})):
            if train is None:
                raise InvalidArgumentError(
                    "train", "is needed by novelty@K, arp@K and long_tail@K "
                    "(the popularity of the items in the training interactions).",
                    message="novelty@K, arp@K and long_tail@K need train= (the "
                            "training interactions).")
            (tu,), _ = _encode([t_user], "train user")
            train_pop = _beyond.popularity(tu, ti, n_items=n_items)
        if "ild" in names:
            if item_features is None:
                raise InvalidArgumentError(
                    "item_features", "is needed by ild@K.",
                    message="ild@K needs item_features=.")
            features = _features(item_features, item_labels, n_items, ri)
        values, users_k = _beyond_values(
            beyond, ru, ri, r_score, r_rank, n_items, train_pop, features,
            head_share=head_share, evaluated=evaluated, confidence=confidence,
            n_resamples=n_resamples, random_state=random_state,
            options=beyond_options)
        out.update(values)
        if output == "per_user":
            per_user.extend(users_k)
    if output == "per_user":
        return _per_user_frame(per_user, order, user_labels, user,
                               np.flatnonzero(evaluated))
    out = {name: out[name] for name in order}
    return _format(out, output, n_items if beyond else None)


def _long_layout(ru, r_gain, r_score, r_rank, hu, h_gain):
    """``(y_true, y_score, groups)`` of the lists: the recommended rows with
    their held-out gain (0 if absent), then one ``-inf`` row per held-out item
    missed (``hu``, ``h_gain``: those items' rows)."""
    if r_score is not None:
        dense = _sorted_dense_rank(ru, r_score)
        # lists in rank order (as top_k_items gives them): the same order and
        # ties as small integers, which the engine ranks without an argsort
        y_score_r = r_score if dense is None else np.where(
            r_score == -np.inf, -np.inf, -(dense + 1.0))  # -inf: not retrieved
    else:
        y_score_r = -(r_rank.astype(np.float64) + 1)
    y_true = np.concatenate([r_gain, h_gain])
    y_score = np.concatenate([y_score_r, np.full(hu.shape[0], -np.inf)])
    return y_true, y_score, np.concatenate([ru, hu])


def _sorted_dense_rank(user, score):
    """Each row's dense descending rank of its score within its user, when the
    lists are in rank order (:func:`_beyond.grouped_descending`); else None."""
    grouped = _beyond.grouped_descending(user, score)
    if grouped is None:
        return None
    starts, step = grouped
    new = starts.copy()
    new[1:] |= (step != 0) & ~np.isnan(step)  # -inf - -inf: NaN, a tie
    dense = np.cumsum(new)
    first = np.flatnonzero(starts)
    return dense - np.repeat(dense[first], np.diff(np.append(first, user.shape[0])))


def _per_user_frame(frames, order, user_labels, user, evaluated):
    """One row per evaluated user (codes ``evaluated``), NaN where a user has
    no value of a metric."""
    import pandas as pd

    frame = pd.concat(frames, axis=1) if len(frames) > 1 else frames[0]
    frame = frame.reindex(evaluated)
    frame = frame[[name for name in order if name in frame.columns]]
    frame.index = pd.Index(user_labels[frame.index.to_numpy()], name=user)
    return frame


def _check_scores(r_score):
    """The score column of ``recommended`` as float64 (None stays None)."""
    if r_score is None:
        return None
    try:
        r_score = np.asarray(r_score, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("recommended: the score column must hold numbers.") \
            from None
    if np.isnan(r_score).any() or (r_score == np.inf).any():
        raise ValueError("recommended: the score column contains NaN or +inf.")
    return r_score


def _check_gains(h_gain, n):
    """The held-out gains as float64 (None: 1 each); negative, NaN: ValueError."""
    if h_gain is None:
        return np.ones(n)
    try:
        h_gain = np.asarray(h_gain, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("held_out: the relevance must hold numbers.") from None
    if not np.all(np.isfinite(h_gain)) or (h_gain < 0).any():
        raise ValueError("held_out: the relevance must be finite and >= 0 "
                         "(negative or NaN found).")
    return h_gain


def _catalog_size(n_items, n_distinct, matrices, inputs):
    """``n_items``, or the number of distinct items of ``inputs`` or the width
    of a sparse matrix among ``matrices`` if larger (at least 1)."""
    width = max([m.shape[1] for m in matrices if _is_sparse(m)], default=0)
    least = max(n_distinct, width)
    if n_items is None:
        return max(least, 1)
    n_items = check_positive_int(n_items, "n_items", allow_none=False)
    if n_items < least:
        raise ValueError(f"n_items={n_items} is smaller than the {least} "
                         f"items of {inputs}.")
    return n_items


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
    r_user, r_item, r_score, r_rank = _read_lists(recommended, user=user,
                                                  item=item, score=score)
    t_user, t_item = _read_train(train, user=user, item=item)
    if r_user.shape[0] == 0:
        raise ValueError("recommended holds no recommended item.")
    (ru,), user_labels = _encode([r_user], "user")
    (ri, ti), item_labels = _encode([r_item, t_item], "item")
    n_items = _catalog_size(n_items, item_labels.shape[0], (train,),
                            "recommended and train")
    _match_pairs(ru, ri, ru[:0], ri[:0], n_items, user_labels,
                 item_labels)  # a repeated pair: an error
    m = _membership(ru, r_score, r_rank, k)
    counts = _beyond.partials(ru, ri, m, n_items=n_items).item_count
    train_counts = None
    if train is not None:
        (tu,), _ = _encode([t_user], "train user")
        train_counts = _beyond.popularity(tu, ti, n_items=n_items).interactions
    return counts, train_counts, item_labels


def _format(out, output, n_items):
    if output == "dict":
        return out
    rows = []
    for name, v in out.items():
        if isinstance(v, dict):
            rows.append((name, v["value"], v["ci_low"], v["ci_high"]))
        else:
            rows.append((name, v, math.nan, math.nan))
    with_ci = any(isinstance(v, dict) for v in out.values())
    if output == "frame":
        import pandas as pd

        frame = pd.DataFrame(rows, columns=["metric", "value", "ci_low", "ci_high"])
        return frame if with_ci else frame[["metric", "value"]]
    cells = [(name, f"{v:.4f}", "" if math.isnan(lo) else f"{lo:.4f}",
              "" if math.isnan(hi) else f"{hi:.4f}") for name, v, lo, hi in rows]
    head = ("metric", "value") + (("ci_low", "ci_high") if with_ci else ())
    # right-aligned columns at least 7 / 9 wide, wider for large values
    widths = [max(len(c[0]) for c in [head, *cells]) + 2] + [
        max(least, *(len(c[j]) + 1 for c in cells))
        for j, least in zip(range(1, len(head)), (7, 9, 9))]
    lines = [f"{head[0]:<{widths[0]}}" + "".join(
        f"{h:>{w}}" for h, w in zip(head[1:], widths[1:]))]
    for cell in cells:
        shown = cell if with_ci and cell[2] else cell[:2]
        lines.append(f"{cell[0]:<{widths[0]}}" + "".join(
            f"{x:>{w}}" for x, w in zip(shown[1:], widths[1:])))
    if n_items is not None:
        lines.append(f"(catalog: {n_items} items)")
    return "\n".join(lines)
