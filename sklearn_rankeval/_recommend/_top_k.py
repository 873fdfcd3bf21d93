"""Top-N recommendation lists from a users x items score matrix: ``top_k_items``.

The matrix is read a batch of users (rows) at a time, so that the extra
memory is bounded by the batch, never ``n_users * n_items``:

* NumPy: one copy of the batch in the float dtype of the scores, with the
  excluded entries (a dense mask, or the rows of a CSR mask) set to ``-inf``,
  partitioned in place (``np.partition``: introselect, no sort) to read each
  user's k-th highest eligible score; then one boolean array of the batch,
  the scores at or above that threshold minus the excluded entries.  Only
  the selected entries -- about ``k`` a user -- are sorted.
* Array API (under ``array_api_dispatch``): the standard has no partition,
  so the threshold comes from a sort of the batch along the items, on the
  input's device; the selected entries go to the host.
"""

import math

import numpy as np
from scipy import sparse

from .._core import (
    InvalidArgumentError,
    as_numeric,
    as_numeric_array_api,
    check_positive_int,
    get_namespace,
    is_foreign_array,
    namespace_of,
    to_numpy,
)
from .._engine import chunk_rows

__all__ = ["top_k_items"]


def _float_dtype(xp, dtype):
    """The dtype of the working copy: the scores' own if floating, else float64."""
    if xp is np:
        return dtype if dtype.kind == "f" else np.dtype(np.float64)
    return dtype if xp.isdtype(dtype, "real floating") else xp.float64


def _check_scores(scores, xp):
    if sparse.issparse(scores):
        raise TypeError(
            "scores must be a dense array of shape (n_users, n_items), got a "
            "SciPy sparse matrix (its missing entries would read as score 0)."
        )
    if xp is np:
        scores = as_numeric(to_numpy(scores), "scores")
    else:
        scores = as_numeric_array_api(scores, "scores", xp)
    if scores.ndim != 2:
        raise ValueError(
            f"scores must be 2-D of shape (n_users, n_items), got an array of "
            f"shape {tuple(scores.shape)}."
        )
    return scores


def _check_exclude(exclude, shape, xp):
    """``("sparse", CSR)``, ``("dense", bool array)`` or ``(None, None)``."""
    if exclude is None:
        return None, None
    if sparse.issparse(exclude):
        if tuple(exclude.shape) != shape:
            raise ValueError(
                f"exclude must have the shape of scores {shape}, got "
                f"{tuple(exclude.shape)}."
            )
        return "sparse", sparse.csr_matrix(exclude)  # no copy when already CSR
    if xp is not np and is_foreign_array(exclude):
        if namespace_of(exclude) is not xp:
            raise TypeError(
                f"exclude is an array of another namespace than scores "
                f"({type(exclude).__module__}); pass a NumPy array, a SciPy "
                f"sparse matrix or an array of the library of scores."
            )
        ok = xp.isdtype(exclude.dtype, "bool")
    else:
        exclude = np.asarray(to_numpy(exclude))
        ok = exclude.dtype.kind == "b"
    if not ok:
        raise TypeError(
            f"exclude must be a boolean array or a SciPy sparse matrix, got "
            f"dtype {exclude.dtype}."
        )
    if tuple(exclude.shape) != shape:
        raise ValueError(
            f"exclude must have the shape of scores {shape}, got "
            f"{tuple(exclude.shape)}."
        )
    return "dense", exclude


def _batch_rows(batch_size, n_items, itemsize):
    """Users per batch: ``batch_size``, else ``working_memory`` MiB at the
    copy and the boolean selection of a row (``itemsize + 1`` bytes an item)."""
    if batch_size is not None:
        return batch_size
    return chunk_rows(row_bytes=max(n_items, 1) * (itemsize + 1))


def _order(users, items, values, first):
    """The entries of one batch (in row-major order: users, then items
    ascending) by user, then decreasing score, then item: one stable sort of
    an integer key.  ``users`` are the batch's own (from 0), ``first`` the
    index of its first user."""
    if values.dtype.itemsize <= 4 and users.shape[0] and users[-1] < 2**32:
        # the float32 bits mapped to an unsigned order ("+ 0" makes -0.0 the
        # +0.0 it equals), inverted to decrease, below the user's 32 bits
        bits = (values.astype(np.float32) + np.float32(0)).view(np.uint32)
        ascending = np.where(bits >> 31, ~bits, bits | np.uint32(1 << 31))
        key = (users.astype(np.uint64) << np.uint64(32)) | (~ascending).astype(
            np.uint64)
    else:
        # the dense rank of each score (0 = highest) within the user's block
        distinct, rank = np.unique(-values, return_inverse=True)
        key = users * distinct.shape[0] + rank.reshape(-1)
    order = np.argsort(key, kind="stable")
    return users[order] + first, items[order], values[order]


def _sparse_flat(csr, a, b, n_items):
    """Positions in the C-ordered batch of users a..b-1 (``row * n_items +
    item``) of their stored entries in ``csr``, read from its index arrays."""
    indptr = csr.indptr[a:b + 1]
    cols = csr.indices[indptr[0]:indptr[-1]]
    rows = np.repeat(np.arange(b - a, dtype=np.int64), np.diff(indptr))
    return rows * n_items + cols


def _nan_error():
    """The door's error of a NaN score (:class:`InvalidArgumentError`, the
    argument named), raised where a batch's selection meets one: the NaN
    test rides on the partition that selects the top k (a NaN is the largest
    value to it), not on a second pass over the matrix."""
    return InvalidArgumentError(
        "scores", "contains NaN; a score must be a number (-inf marks an item "
        "never to recommend).", value=math.nan)


def _top_k_numpy(scores, k, kind, mask, step):
    n_users, n_items = scores.shape
    dtype = _float_dtype(np, scores.dtype)
    kk = min(k, n_items)
    floor = -np.finfo(dtype).max  # the lowest finite score: never -inf
    out = []
    for a in range(0, n_users, step):
        b = min(a + step, n_users)
        view = scores[a:b]
        work = np.array(view, dtype=dtype, order="C")
        if kind == "sparse":
            flat_mask = _sparse_flat(mask, a, b, n_items)
            # (no name kept for the flat view: work is freed below)
            if np.isnan(work.reshape(-1)[flat_mask]).any():
                raise _nan_error()
            work.reshape(-1)[flat_mask] = -np.inf  # a view: work is C-ordered
        elif kind == "dense":
            mask_b = mask[a:b]
            if view.dtype.kind == "f" and np.isnan(np.max(
                    view, axis=1, where=mask_b, initial=-np.inf)).any():
                raise _nan_error()
            np.copyto(work, -np.inf, where=mask_b)
        # NaN is the largest value to np.partition: a row holding one holds
        # one among its kk top places
        work.partition(n_items - kk, axis=1)
        if np.isnan(work[:, n_items - kk:]).any():
            raise _nan_error()
        kth = np.maximum(work[:, n_items - kk], floor)
        del work  # before the selection: one batch-sized array at a time
        selected = np.greater_equal(view, kth[:, None], order="C")
        if kind == "sparse":
            selected.reshape(-1)[flat_mask] = False
        elif kind == "dense":
            np.greater(selected, mask_b, out=selected)  # selected and not mask
        flat = np.flatnonzero(selected)  # (faster than a 2-D np.nonzero)
        del selected
        users, items = np.divmod(flat, n_items)
        if view.flags.c_contiguous:
            values = view.reshape(-1)[flat]
        else:
            values = view[users, items]
        out.append(_order(users, items, values.astype(dtype, copy=False), a))
    return out


def _top_k_array_api(scores, k, kind, mask, step, xp, device):
    n_users, n_items = scores.shape
    dtype = _float_dtype(xp, scores.dtype)
    kk = min(k, n_items)
    floor = xp.asarray(-xp.finfo(dtype).max, dtype=dtype, device=device)
    minus_inf = xp.asarray(-math.inf, dtype=dtype, device=device)
    out = []
    for a in range(0, n_users, step):
        b = min(a + step, n_users)
        work = xp.astype(scores[a:b, :], dtype)
        if bool(xp.any(xp.isnan(work))):
            raise _nan_error()
        if kind == "sparse":
            mask_b = np.zeros((b - a, n_items), dtype=bool)
            mask_b.reshape(-1)[_sparse_flat(mask, a, b, n_items)] = True
            mask_b = xp.asarray(mask_b, device=device)
        elif kind == "dense":
            mask_b = mask[a:b, :]
            if isinstance(mask_b, np.ndarray):
                mask_b = xp.asarray(mask_b, device=device)
        if kind is not None:
            work = xp.where(mask_b, minus_inf, work)
        kth = xp.sort(work, axis=1, descending=True)[:, kk - 1]
        kth = xp.maximum(kth, floor)
        users, items = xp.nonzero(work >= kth[:, None])
        values = xp.take(xp.reshape(work, (-1,)), users * n_items + items)
        out.append(_order(to_numpy(users).astype(np.int64),
                          to_numpy(items).astype(np.int64), to_numpy(values), a))
    return out


def top_k_items(scores, *, k, exclude=None, batch_size=None):
    """Each user's top-k items of a score matrix, a tie at the cut kept whole.

    Row ``i`` of ``scores`` is user ``i``, column ``j`` item ``j``.  For every
    user, the items whose score is at least the user's k-th highest score
    among the items that are not excluded, best first.  A tie across the
    k-th place is kept whole, so a list can hold more than ``k`` items: the
    metrics at ``k`` of such lists (``ndcg@k``, ``recall@k``, ...) then
    apply their own tie rule to the tied items, exactly.

    The matrix is read in batches of users; the extra memory is that of one
    batch (a copy of its scores and a boolean array of its shape), never
    ``n_users * n_items``, and no row is fully sorted: ``np.partition`` finds
    each user's k-th score.  Array API inputs (under scikit-learn's
    ``array_api_dispatch=True``) are processed on their device, a batch at a
    time, sorting the batch along the items (the standard has no partition).

    Parameters
    ----------
    scores : array-like or DataFrame of shape (n_users, n_items)
        Scores of every item for every user, higher is better; a NumPy array
        (or anything ``np.asarray`` takes), or under ``array_api_dispatch`` an
        array of any Array API library.  A pandas DataFrame gives its index
        labels as the users and its column labels as the items (a polars
        DataFrame its column names as the items).  ``-inf`` marks an item never to
        recommend to that user; NaN is an error.  Integer scores are compared
        as float64.
    k : int
        Length of the lists before ties: a positive integer.  A user with
        fewer than ``k`` eligible items gets all of them.
    exclude : array-like of bool or sparse matrix of shape (n_users, n_items), \
default=None
        Entries never to recommend (typically the training interactions):
        the True entries of a boolean array, or the stored entries of a SciPy
        sparse matrix (CSR is sliced by rows as it is; CSC and COO are
        converted to CSR once).  None excludes nothing.
    batch_size : int, default=None
        Users per batch.  None takes as many as fit in ``working_memory`` MiB
        (:func:`set_config`), at one copy of a row of scores plus one byte an
        item.  The result does not depend on it.

    Returns
    -------
    top_k : dict of ndarray
        ``{"user": (m,), "item": (m,), "score": (m,)}``: the users' (row)
        and items' (column) indices (int64), or a DataFrame's labels, and
        the scores, in the float dtype of ``scores`` (float64 for
        integers).  Users in order, each user's items by decreasing score,
        tied items by increasing index.
        A user with no eligible item has no entry.

    See Also
    --------
    ndcg_score : NDCG of rankings, with a tie rule at the cutoff.
    recall_at_k_score : Recall at k.
    set_config : The ``working_memory`` that sizes the batches.

    Notes
    -----
    Ties: every item whose score equals the k-th highest eligible score is
    returned, ordered by item index; the lists are then longer than ``k``.
    A user whose k-th highest eligible score is ``-inf`` (fewer than ``k``
    items with a finite or ``+inf`` score) gets only the items above it.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy.sparse import csr_matrix
    >>> from sklearn_rankeval import top_k_items
    >>> scores = np.array([[0.9, 0.5, 0.5, 0.1],
    ...                    [0.2, 0.8, 0.4, 0.6]])
    >>> # user 1 already interacted with item 1: never recommended again
    >>> train = csr_matrix(np.array([[0, 0, 0, 0],
    ...                              [0, 1, 0, 0]]))
    >>> top = top_k_items(scores, k=2, exclude=train)
    >>> # user 0: item 0, then items 1 and 2 tie at the 2nd place: both kept
    >>> top["user"].tolist()
    [0, 0, 0, 1, 1]
    >>> top["item"].tolist()
    [0, 1, 2, 3, 2]
    >>> top["score"].tolist()
    [0.9, 0.5, 0.5, 0.6, 0.4]
    >>> # a DataFrame: its index labels are the users, its columns the items
    >>> import pandas as pd
    >>> frame = pd.DataFrame(scores, index=["ann", "bob"],
    ...                      columns=["a", "b", "c", "d"])
    >>> top = top_k_items(frame, k=1)
    >>> top["user"].tolist(), top["item"].tolist()
    (['ann', 'bob'], ['a', 'b'])
    """
    k = check_positive_int(k, "k", allow_none=False)
    batch_size = check_positive_int(batch_size, "batch_size")
    users_of, items_of = _frame_labels(scores)
    xp, device = get_namespace(scores)
    scores = _check_scores(scores, xp)
    shape = tuple(scores.shape)
    kind, mask = _check_exclude(exclude, shape, xp)
    n_users, n_items = shape
    dtype = _float_dtype(xp, scores.dtype)
    np_dtype = np.dtype(f"float{xp.finfo(dtype).bits}")
    pieces = []
    if n_users and n_items:
        step = _batch_rows(batch_size, n_items, np_dtype.itemsize)
        if xp is np:
            pieces = _top_k_numpy(scores, k, kind, mask, step)
        else:
            pieces = _top_k_array_api(scores, k, kind, mask, step, xp, device)
    if not pieces:
        pieces = [(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64),
                   np.zeros(0, dtype=np_dtype))]
    users, items, values = (np.concatenate(p) for p in zip(*pieces))
    users, items = users.astype(np.int64, copy=False), items.astype(np.int64,
                                                                     copy=False)
    return {"user": users if users_of is None else users_of[users],
            "item": items if items_of is None else items_of[items],
            "score": values.astype(np_dtype, copy=False)}


def _frame_labels(scores):
    """``(user labels, item labels)`` of a DataFrame of scores (the index and
    the columns of a pandas one; the columns of a polars one), else None."""
    columns = getattr(scores, "columns", None)
    if columns is None or isinstance(scores, np.ndarray):
        return None, None
    index = getattr(scores, "index", None)
    users = None if index is None else np.asarray(index)
    return users, np.asarray(list(columns) if not hasattr(columns, "to_numpy")
                             else columns.to_numpy())
