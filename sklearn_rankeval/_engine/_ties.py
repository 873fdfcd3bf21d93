"""Tie blocks: the one rule of which rows are tied.

A *tie block* is a maximal run of rows of one group with equal scores, in
rank order.  :func:`tie_blocks` finds them for every group at once, given
the rows' order (each caller ranks by its own rule: the engine's sort, the
recommender lists' one sort of ``(user, -score)``, ranx's order by
relevance within a tie); :func:`block_starts` is the rule itself on rows
already in that order.  ``-inf`` equals ``-inf`` (unretrieved rows tie with
each other), as in every sort of the package.  :func:`docno_order` is
trec_eval's order of tied rows (by document id, decreasing), for the
``ties="docno"`` switch and the trec runs alike.  No Python loop: a few
passes over the rows.
"""

from typing import NamedTuple

import numpy as np

from .._core import xpx
from ._group_ids import encode_rows

__all__ = ["TieBlocks", "block_starts", "docno_codes", "docno_order",
           "grouped_descending", "known_distinct", "tie_blocks"]


class TieBlocks(NamedTuple):
    """The tie blocks of every group, rows in ``perm`` order.

    ``perm``: the rows in rank order (group by group); ``block[j]``: the
    block of sorted row ``j``; per block, ``first`` (the sorted row that
    starts it), ``start`` (the rows of its group ranked above it, its
    0-based rank), ``size`` (its rows) and ``group`` (its group's code).
    """

    perm: np.ndarray
    block: np.ndarray
    first: np.ndarray
    start: np.ndarray
    size: np.ndarray
    group: np.ndarray


def block_starts(score_sorted, new_group, xp=np):
    """The rows (in rank order) that start a tie block, as a boolean mask:
    a group's first row (``new_group``: the rows that start a group) or a
    score unlike the previous row's.  Any Array API namespace ``xp``: the
    rule the engine's rankers apply to their sorted rows."""
    return xpx.starts(xp, score_sorted) | new_group


def grouped_descending(group, score):
    """``(starts, step)`` if each group's rows are together and their scores
    non-increasing (lists in rank order, as ``top_k_items`` gives them),
    else None: a few passes, no sort of the rows.  ``group``: one id per row
    (integer codes, or labels of one type); ``starts``: True at the first
    row of each group's run; ``step``: ``score[1:] - score[:-1]`` (NaN
    between two ``-inf``: a tie)."""
    n = group.shape[0]
    if n == 0:
        return None
    starts = np.empty(n, dtype=bool)
    starts[0] = True
    starts[1:] = group[1:] != group[:-1]  # (NumPy < 2: no str ufunc loops)
    runs = group[starts]
    if runs.dtype.kind in "iu" and (runs[1:] > runs[:-1]).all():
        distinct = runs.shape[0]  # (groups in increasing order)
    elif runs.dtype.kind in "iu" and runs.min() >= 0 and int(runs.max()) < 4 * n:
        distinct = np.count_nonzero(np.bincount(runs))
    else:
        try:
            distinct = np.unique(runs).shape[0]
        except TypeError:  # (ids of mixed types: the door words them)
            return None
    if distinct != runs.shape[0]:
        return None  # a group's rows are not together
    with np.errstate(invalid="ignore"):  # -inf - -inf: NaN, a tie
        step = score[1:] - score[:-1]
    if np.any((step > 0) & ~starts[1:]):
        return None  # a score above the previous one of the same group
    return starts, step


def known_distinct(score, groups=None):
    """Whether the retrieved scores (all but ``-inf``) are known to hold no
    tie within a group, from a few passes and no sort of the rows.

    True where the scores are integers in a range of at most four times
    their number with no value repeated (ranks; the scores
    ``tie_free_scores`` gives), or, with ``groups`` (1-D), where each
    group's retrieved rows are together and strictly decreasing
    (:func:`grouped_descending`: lists in rank order).  False where these
    tests cannot tell (other scores need a sort to say).
    """
    s = np.asarray(score)
    if s.dtype.kind not in "iuf":
        return False
    s = s.reshape(-1)
    keep = s > -np.inf if s.dtype.kind == "f" else None
    if keep is not None and not keep.all():
        s = s[keep]
    if s.size == 0:
        return True
    if groups is not None:
        g = np.asarray(groups).reshape(-1)
        if g.shape[0] == (s.shape[0] if keep is None else keep.shape[0]):
            grouped = grouped_descending(g if keep is None or keep.all()
                                         else g[keep], s)
            if grouped is not None:
                starts, step = grouped
                within = ~starts[1:]
                if (step[within] < 0).all():  # (NaN steps: not < 0)
                    return True
    if s.dtype.kind == "f" and (not np.isfinite(s).all()
                                or not (s == np.floor(s)).all()):
        return False  # (+inf ties +inf; NaN is refused by the door)
    lo, hi = s.min(), s.max()
    if float(hi) - float(lo) + 1 > 4 * s.shape[0]:
        return False
    return int(np.bincount((s - lo).astype(np.int64)).max()) <= 1


def tie_blocks(group, score, perm):
    """The :class:`TieBlocks` of rows ranked by ``perm``.

    ``group``: one code per row (integers); ``score``: one number per row;
    ``perm``: the rows in rank order, each group's rows together and by
    score descending (ties in any order the caller chooses).
    """
    g = group[perm]
    new_group = xpx.starts(np, g)
    new_block = block_starts(score[perm], new_group)
    first = np.flatnonzero(new_block)
    group_first = np.flatnonzero(new_group)
    # the start of each row's group: the last group start at or before it
    own_group_start = group_first[np.cumsum(new_group) - 1]
    return TieBlocks(perm, np.cumsum(new_block) - 1, first,
                     first - own_group_start[first],
                     np.diff(first, append=g.shape[0]), g[first])


def docno_codes(docno, name="docno"):
    """Each row's document id as a dense code in the sorted order of the ids
    (the engine's one encoding; Python objects compared as text): ``strcmp``
    order for ids read from UTF-8 text, as code points compare."""
    ids = np.asarray(docno)
    if ids.dtype.kind == "O" and not _all_text(ids):
        ids = ids.astype(str)  # (Python str objects are encoded as they are)
    ids = ids.reshape(-1)
    codes, _ = encode_rows(ids, ids.shape[0], name=name)
    return codes.reshape(np.shape(docno))


def _all_text(ids):
    """Whether an object array holds only Python ``str`` (ids read from text)."""
    from pandas.api.types import infer_dtype

    return ids.size > 0 and infer_dtype(ids.reshape(-1), skipna=False) == "string"


def docno_order(score, codes, group=None):
    """The rows as trec_eval ranks them (``form_res_rels.c``): by ``group``
    (codes, ascending; None: one ranking), then score descending, ties by
    document id in *decreasing* order (``codes``: :func:`docno_codes`).

    One stable ``argsort`` of a packed int64 key (group, dense rank of the
    score, code) where it fits in 63 bits, else a ``lexsort`` of the three
    keys: the same order (equal keys keep the input order)."""
    score, codes = np.asarray(score), np.asarray(codes)
    key = _packed_key(score, codes, group)
    if key is not None:
        return np.argsort(key, kind="stable")
    keys = [-codes, -score]
    if group is not None:
        keys.append(group)
    return np.lexsort(keys)


def _packed_key(score, codes, group):
    """``(group, score descending, code descending)`` as one int64 per row,
    or None (NaN scores, negative codes, or more than 63 bits)."""
    n = score.shape[0]
    if n == 0 or score.ndim != 1 or codes.shape != score.shape or (
            score.dtype.kind == "f" and np.isnan(score).any()):
        return None
    if codes.dtype.kind not in "iu" or int(codes.min()) < 0:
        return None
    asc = np.argsort(score)  # tied scores share their dense rank (any order)
    ordered = score[asc]
    dense = np.empty(n, dtype=np.int64)
    dense[asc] = np.cumsum(np.concatenate([[0], ordered[1:] != ordered[:-1]]))
    top_rank, top_code = int(dense[asc[-1]]), int(codes.max())
    bits_s, bits_c = top_rank.bit_length(), top_code.bit_length()
    key = (top_rank - dense) << bits_c
    key |= top_code - codes.astype(np.int64)
    if group is not None:
        g = np.asarray(group)
        if g.shape != score.shape or g.dtype.kind not in "iub":
            return None
        lo, hi = int(g.min()), int(g.max())
        if (hi - lo).bit_length() + bits_s + bits_c > 63:
            return None
        key |= (g.astype(np.int64) - lo) << (bits_s + bits_c)
    elif bits_s + bits_c > 63:
        return None
    return key
