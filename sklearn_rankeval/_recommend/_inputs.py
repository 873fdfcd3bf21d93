"""The readers of top-N inputs: the lists, the held-out and the training
interactions, each read and its ids encoded once.

One reader per input form: a pandas / polars DataFrame or a mapping of
columns, a mapping ``{user: [items]}`` (the list order is the rank), a
mapping ``{user: {item: gain}}`` (held-out gains) and a SciPy sparse
``(n_users, n_items)`` matrix (held-out gains, training interactions).  The
users of the lists and of the held-out items are coded together, the items
of all three inputs together (codes in the sorted order of the ids, by the
engine's encoder), so that a (user, item) pair is one integer key.  The
scores and gains are checked by the input door: :func:`check_lists` builds
the one checked input of the long layout the lists define (its ``y_true``
the held-out gains of the matched pairs), so the lists' rules and messages
are the door's, under the columns' names.  What
:func:`read_inputs` returns (:class:`Inputs`) is all the rest of the
pipeline reads: ``recommendation_report``, ``exposure_counts`` and each
partition of ``sklearn_rankeval.spark.recommendation_report`` alike.
"""

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from .._core import check_positive_int, warn
from .._engine import check_inputs, encode_rows
from ._lists import row_rank

__all__ = ["Inputs", "check_lists", "item_feature_rows", "label", "read_inputs",
           "read_lists"]


class Inputs(NamedTuple):
    """The three inputs, read and encoded.

    ``rec_*``: one row per recommended (user, item) pair; ``rec_score`` the
    checked scores (None for lists given in order, whose ``rec_rank`` is the
    0-based position; both None for columns without a score, whose rank is
    the row order).  ``held_*``: one row per held-out pair, ``held_gain`` its
    gain (1 without a relevance column; ``graded``: a column was given).
    ``held_row[j]``: the held-out row of recommended row ``j`` (or -1);
    ``in_list[j]``: whether held-out row ``j`` is recommended.  ``train_*``:
    the training rows (their users coded on their own, or with the others:
    see :func:`read_inputs`).  ``n_items``: the catalog size (given, or
    counted).  ``checked``: the long layout the lists define, as the input
    door checked it (:func:`check_lists`; None without any row).
    """

    rec_user: np.ndarray
    rec_item: np.ndarray
    rec_score: object
    rec_rank: object
    held_user: np.ndarray
    held_item: np.ndarray
    held_gain: np.ndarray
    graded: bool
    held_row: np.ndarray
    in_list: np.ndarray
    train_user: np.ndarray
    train_item: np.ndarray
    has_train: bool
    user_labels: np.ndarray
    item_labels: np.ndarray
    n_items: int
    checked: object = None

    @property
    def n_users(self):
        return self.user_labels.shape[0]


# ---------------------------------------------------------------------------
# one input, as flat arrays
# ---------------------------------------------------------------------------
def _ids(values):
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return arr


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


def _is_sparse(obj):
    from scipy import sparse

    return sparse.issparse(obj)


def _read(obj, name, *, user, item, value, value_default, gains):
    """``(users, items, values or None, rank or None, value column or None)``.

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
                None, "values")
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
        return users, items, values, None, col
    if not isinstance(obj, Mapping):
        raise TypeError(
            f"{name} must be a DataFrame, a mapping of columns or a mapping "
            f"{{user: [items]}}, got {type(obj).__name__}.")
    if value is not None:
        raise ValueError(f"{name} is a mapping {{user: items}}: it has no column "
                         f"{value!r}.")
    users, items, values, rank = [], [], [], []
    graded = False
    for u, lst in obj.items():  # the input's own Python structure, read once
        if isinstance(lst, Mapping):
            if not gains:
                raise TypeError(f"{name}: a mapping {{user: {{item: gain}}}} is only "
                                "accepted for held_out.")
            items.extend(lst.keys())
            values.extend(lst.values())
            graded = True
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
        users.extend([u] * (len(items) - len(users)))
        rank.extend(range(len(items) - len(rank)))
    return (_ids(users), _ids(items), np.asarray(values, dtype=np.float64),
            np.asarray(rank, dtype=np.int64), "gains" if graded else None)


def read_lists(recommended, *, user, item, score):
    """``(users, items, scores or None, ranks or None, name)`` of
    ``recommended``: the score column as read (checked by the input door
    under ``name``, ``recommended['score']``: :func:`read_inputs`), or the
    positions of lists given in order (then no scores; neither for columns
    without a score: the row order)."""
    r_user, r_item, r_score, r_rank, col = _read(
        recommended, "recommended", user=user, item=item, value=score,
        value_default="score", gains=False)
    if r_rank is not None or r_score is None:
        return r_user, r_item, None, r_rank, None
    return r_user, r_item, r_score, None, f"recommended[{col!r}]"


def _read_held_out(held_out, *, user, item, relevance):
    """``(users, items, gains, graded, name)``: the gain column as read
    (checked by the input door under ``name``), 1 without a column (None:
    no held-out interaction)."""
    if held_out is None:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0), False, "held_out"
    h_user, h_item, h_gain, _, col = _read(
        held_out, "held_out", user=user, item=item, value=relevance,
        value_default="relevance", gains=True)
    if h_gain is None:
        return h_user, h_item, np.ones(h_user.shape[0]), False, "held_out"
    where = "held_out" if col in ("values", "gains") else f"held_out[{col!r}]"
    return h_user, h_item, h_gain, col is not None, where


def _read_train(train, *, user, item):
    """``(users, items)`` of the training interactions (empty without)."""
    if train is None:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    t_user, t_item, _, _, _ = _read(train, "train", user=user, item=item,
                                    value=None, value_default=None, gains=False)
    return t_user, t_item


# ---------------------------------------------------------------------------
# ids -> codes
# ---------------------------------------------------------------------------
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
        if "unhashable" in str(exc) or not ("comparable" in str(exc) or
                                            "not supported between" in str(exc)):
            rule = " must be hashable" if "unhashable" in str(exc) else ""
            raise type(exc)(f"{what} ids{rule}: {exc}") from None
        # ids of several types (1 and "u1"): coded by (type, id), so that the
        # inputs are read and their lack of common ids said (read_inputs)
        keys = np.empty(joined.shape[0], dtype=object)
        keys[:] = [(type(v).__name__, v) for v in joined]
        codes, typed = encode_rows(keys, keys.shape[0])
        labels = np.empty(typed.shape[0], dtype=object)
        labels[:] = [v for _, v in typed]
    return np.split(codes.astype(np.int64), np.cumsum(sizes)[:-1]), labels


def label(value):
    """An id as the user wrote it (a NumPy scalar as its Python value)."""
    return value.item() if isinstance(value, np.generic) else value


def match_pairs(ru, ri, hu, hi, n_items, user_labels, item_labels):
    """Each recommended row's held-out row (or -1), and whether each held-out
    row is recommended: one sort of the (user, item) keys of both inputs,
    each with its source bit and row index packed in (an ``argsort`` where
    they do not fit in 63 bits).  A (user, item) pair repeated within one
    input is a ``ValueError`` naming it."""
    n_r, n_h = ru.shape[0], hu.shape[0]
    n = n_r + n_h
    n_items = max(n_items, 1)
    pair = np.concatenate([ru * n_items + ri, hu * n_items + hi])
    row_bits = max(int(n - 1).bit_length(), 1)
    top = int(pair.max()) if n else 0
    # inputs grouped by user in code order (top_k_items' lists, most
    # frames): two ascending runs of users, which a merge sort reads as runs
    grouped = bool(np.all(ru[1:] >= ru[:-1]) and np.all(hu[1:] >= hu[:-1]))
    if top.bit_length() + 1 + row_bits <= 63:
        key = pair << (1 + row_bits)
        key[n_r:] |= 1 << row_bits  # the source bit: a recommended row first
        key |= np.arange(n, dtype=np.int64)
        key.sort(kind="stable" if grouped else "quicksort")
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
                         f"({label(user_labels[u])!r}, {label(item_labels[i])!r}).")
    at = np.flatnonzero(same)
    r_rows, h_rows = order[at], order[at + 1] - n_r
    held_row = np.full(n_r, -1, dtype=np.int64)
    held_row[r_rows] = h_rows
    in_list = np.zeros(n_h, dtype=bool)
    in_list[h_rows] = True
    return held_row, in_list


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


def _kind(ids):
    """The type of an array of ids, in words (for the id-overlap warning)."""
    kind = ids.dtype.kind
    if kind in "iu":
        return "integers"
    if kind in "US":
        return "strings"
    names = sorted({type(label(v)).__name__ for v in ids[:1000]})
    words = {"int": "integers", "str": "strings", "float": "floats",
             "bool": "booleans", "bytes": "bytes"}
    return " and ".join(words.get(n, n) for n in names)


def _examples(ids):
    shown = list(dict.fromkeys(label(v) for v in ids[:50]))[:2]
    return ", ".join(repr(v) for v in shown)


def _warn_disjoint(what, kind, rec_ids, held_ids):
    types = ""
    k_rec, k_held = _kind(rec_ids), _kind(held_ids)
    if k_rec != k_held:
        types = f" (recommended's {what} ids are {k_rec}, held_out's {k_held})"
    warn(f"recommended and held_out have no {kind} in common{types}: every "
         f"accuracy metric is 0 or undefined. recommended's {what}s are such as "
         f"{_examples(rec_ids)}; held_out's such as {_examples(held_ids)}. Do "
         f"the ids match?", UserWarning)


def _joined(values, tail):
    """``values`` then ``tail`` (float64) as one column for the door:
    numbers (booleans) as float64, Python objects as objects; a column of
    another dtype (text, dates) is passed on as it is, which the door
    refuses by its dtype before it compares any length."""
    values = np.asarray(values)
    if values.dtype.kind in "biuf":
        return np.concatenate([values.astype(np.float64, copy=False), tail])
    if values.dtype.kind == "O":
        return np.concatenate([values, tail.astype(object)])
    return values


def check_lists(ru, r_score, rank, score_name, hu, h_gain, gain_name, held_row,
                in_list):
    """The lists' one checked input: the door's
    :class:`~sklearn_rankeval._engine.RankingInput` of the long layout the
    lists define, one row per recommended item (its score; minus its
    position for lists without scores) with its held-out gain (0 where the
    user did not interact with it), then one row scored ``-inf`` per
    held-out item no list holds, the users as groups
    (:func:`~sklearn_rankeval._engine.check_inputs`: its rules, under the
    columns' names).  Returns the checked float64 scores of the recommended
    rows (None for lists without scores), the gains of the held-out rows and
    the checked input (None without any row)."""
    n_r, n_h = ru.shape[0], hu.shape[0]
    missed = np.flatnonzero(~in_list)
    if n_r + missed.shape[0] == 0:  # no row: nothing to check
        return (None if r_score is None else np.zeros(0),
                np.asarray(h_gain, dtype=np.float64), None)
    if r_score is None:
        own = -(np.asarray(row_rank(ru) if rank is None else rank) + 1.0)
    else:
        own = r_score
    unretrieved = np.full(missed.shape[0], -np.inf)
    # each row's held-out row (n_h: none, gain 0)
    source = np.concatenate([np.where(held_row >= 0, held_row, n_h), missed])
    gains = _joined(h_gain, np.zeros(1))
    checked = check_inputs(
        gains[source] if gains.shape[0] == n_h + 1 else gains,
        _joined(own, unretrieved), groups=np.concatenate([ru, hu[missed]]),
        score_name=score_name, true_name=gain_name, gains=True)
    # (each held-out row is one row of the checked input: its gains passed
    # the door, as numbers)
    scores = None if r_score is None else np.asarray(checked.y_score[:n_r],
                                                    dtype=np.float64)
    return scores, np.asarray(h_gain, dtype=np.float64), checked


def read_inputs(recommended, held_out, train, *, user, item, score, relevance,
                n_items, accuracy=True, train_users="own"):
    """:class:`Inputs` of the three inputs: read, checked and encoded once.

    Warns (``UserWarning``) when the lists and the held-out interactions
    share no user, or (``accuracy``: accuracy metrics are asked for) no
    item: ids of two types (``1`` and ``"u1"``), or written two ways
    (``"001"`` and ``"1"``), score nothing.  ``train_users``: ``"own"``
    codes for the training users (popularity needs no more), or ``"joint"``
    with the others (a peer's check of recommended training pairs).
    """
    r_user, r_item, r_score, r_rank, score_name = read_lists(
        recommended, user=user, item=item, score=score)
    h_user, h_item, h_gain, graded, gain_name = _read_held_out(
        held_out, user=user, item=item, relevance=relevance)
    t_user, t_item = _read_train(train, user=user, item=item)
    if train_users == "joint":
        (ru, hu, tu), user_labels = _encode([r_user, h_user, t_user], "user")
    else:
        (ru, hu), user_labels = _encode([r_user, h_user], "user")
        (tu,), _ = _encode([t_user], "train user")
    (ri, hi, ti), item_labels = _encode([r_item, h_item, t_item], "item")
    n_catalog = _catalog_size(
        n_items, item_labels.shape[0], (held_out, train),
        "recommended and train" if held_out is None
        else "recommended, held_out and train")
    held_row, in_list = match_pairs(ru, ri, hu, hi, n_catalog, user_labels,
                                    item_labels)
    r_score, h_gain, checked = check_lists(ru, r_score, r_rank, score_name, hu,
                                           h_gain, gain_name, held_row, in_list)
    if ru.shape[0] and hu.shape[0]:
        n_users = user_labels.shape[0]
        shared = (np.bincount(ru, minlength=n_users) > 0) & (
            np.bincount(hu, minlength=n_users) > 0)
        if not shared.any():
            _warn_disjoint("user", "user", r_user, h_user)
        elif accuracy and not np.bincount(ri, minlength=n_catalog)[hi].any():
            _warn_disjoint("item", "item", r_item, h_item)
    return Inputs(ru, ri, r_score, r_rank, hu, hi, h_gain, graded, held_row,
                  in_list, tu, ti, train is not None, user_labels, item_labels,
                  n_catalog, checked)


def item_feature_rows(item_features, labels, n_items, used):
    """``(n_items, d)`` feature rows: those of the items ``used`` (codes of
    recommended items) from ``item_features``, zero rows for the others."""
    from scipy import sparse

    present = np.flatnonzero(np.bincount(used, minlength=n_items))
    wanted = labels[present]
    if hasattr(item_features, "index") and hasattr(item_features, "loc"):
        missing = ~np.isin(wanted, np.asarray(item_features.index, dtype=object))
        if missing.any():
            raise ValueError(f"item_features has no row for the item "
                             f"{label(wanted[missing][0])!r}.")
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
