"""The NumPy fast path: one ``np.sort`` of packed int64 keys, no argsort.

Each row becomes one int64 key ``group code | descending score key |
payload``; sorting the keys (NumPy's SIMD sort, several times faster than an
argsort of the scores) orders the rows by group and score, and the keys
themselves say where groups and tie blocks start.

* The score key needs no argsort: a float's bits, read as an integer with
  the magnitude bits of negative numbers flipped, order as the floats do
  (``-0.0`` is first made ``+0.0``; ``-inf`` is the smallest).  Minus the
  largest and shifted right by ``t`` bits, where ``2**t`` is at most the
  smallest gap between two distinct scores (read off one ``np.sort`` of the
  keys), the key stays exact (distinct scores stay distinct, in order) and
  usually takes 20-50 bits.  Integer scores are their own keys.  Where that
  does not fit beside the group code, the score's dense rank (one argsort)
  takes at most ``log2(n)`` bits.
* The payload is the grade (unweighted integer grades up to 255: no row is
  gathered at all) or else the row index (the rows' grades and weights are
  then gathered once through it).
* Rows already grouped in groups of one size (the 2-D layout, run files)
  need no group bits: each group is sorted on its own (one ``np.sort`` along
  the rows of a ``(n_groups, size)`` matrix).
* Input larger than ``working_memory`` (:mod:`.._chunked`) is sorted once
  (:func:`sorted_keys`, 8 bytes a row) and ranked in slices of whole groups
  (:func:`slice_bounds`, :func:`ranked_slice`).

Where even the dense rank does not fit (about 2**20 rows with 2**40 group
codes), :func:`rank_numpy` returns None and the generic ranker runs.
"""

import numpy as np

from ._generic import from_rows
from ._ranked import MAX_COUNTED_GRADE

__all__ = ["dense_score_key", "rank_numpy", "ranked_slice", "score_key",
           "slice_bounds", "sorted_keys"]

_SIGN_MASK = np.int64(0x7FFF_FFFF_FFFF_FFFF)
#: The integer key of -inf (the smallest key of any float).
_NEG_INF_KEY = int(np.array(-np.inf).view(np.int64) ^ _SIGN_MASK)
#: Rows read at a time when scanning the sorted keys for their gaps.
_BLOCK = 1 << 20


def _bits(value):
    """Bits to hold ``0 .. value`` (at least 1)."""
    return max(int(value).bit_length(), 1)


def score_key(y_score, width=None):
    """Descending order-preserving integer key of each score, exact.

    Returns ``(key, bits, unretrieved)``: ``key`` int64 in ``[0, 2**bits)``,
    smaller for larger scores, equal exactly for equal scores;
    ``unretrieved`` is the key of ``-inf`` if a score is ``-inf`` (else
    None).  With ``width``, the keys are compared only within consecutive
    runs of ``width`` rows (groups of one size, sorted each on its own): only
    the gaps within a run bound the shift.  None if no key fits in 62 bits.
    """
    kind = y_score.dtype.kind
    if width is None and y_score.shape[0]:
        small = _small_integer_key(y_score)
        if small is not None:
            return small
    if kind == "f":
        # a float64 copy (float16/32 -> float64 is exact), -0.0 made +0.0
        key = np.add(y_score, 0.0, dtype=np.float64).view(np.int64)
    elif kind in "iub":
        if kind == "u" and y_score.dtype.itemsize == 8 and y_score.max() >= 2**63:
            return None
        key = y_score.astype(np.int64)
    else:  # pragma: no cover - validate_scores admits numbers only
        return None
    if key.shape[0] == 0:
        return key, 1, None
    ordered = np.sort(key.reshape(-1, width or key.shape[0]), axis=1)
    if kind == "f" and ordered[:, 0].min() < 0:
        # negative floats: flip the magnitude bits (larger magnitude, smaller
        # key), and sort again (none to flip, the common case: one sort)
        np.bitwise_xor(key, _SIGN_MASK, out=key, where=key < 0)
        ordered = np.sort(key.reshape(-1, width or key.shape[0]), axis=1)
    lo, hi = int(ordered[:, 0].min()), int(ordered[:, -1].max())
    unretrieved = None
    neg_inf = None
    if kind == "f" and lo == _NEG_INF_KEY:
        # -inf (not retrieved) takes the key after the largest: the range and
        # the gaps are those of the other scores (-inf set to their smallest)
        neg_inf = key == _NEG_INF_KEY
        finite = ordered[ordered != _NEG_INF_KEY]
        if finite.shape[0] == 0:
            return np.zeros(key.shape[0], dtype=np.int64), 1, 0
        lo = int(finite.min())
        del finite
        ordered[ordered == _NEG_INF_KEY] = lo
    min_gap = _min_gap(ordered.view(np.uint64))
    del ordered
    shift = min_gap.bit_length() - 1 if min_gap else 0  # 2**shift <= gap
    top = (hi - lo) >> shift
    bits = _bits(top + (neg_inf is not None))
    if bits > 62:
        return None
    # (hi - key) >> shift, in uint64 (the difference can exceed 2**63)
    out = key.view(np.uint64)
    np.subtract(np.uint64(hi % (1 << 64)), out, out=out)
    out >>= np.uint64(shift)
    if neg_inf is not None:
        unretrieved = top + 1
        out[neg_inf] = unretrieved
    return out.view(np.int64), bits, unretrieved


def _small_integer_key(y_score):
    """:func:`score_key` without a sort for integer-valued scores (ranks,
    grades; ``-inf`` allowed) spanning less than ``2**52``: ``max - score``,
    ``-inf`` after the largest.  None for other scores."""
    kind = y_score.dtype.kind
    if kind == "f":
        finite = y_score != -np.inf
        values = y_score[finite] if not finite.all() else y_score
        if values.shape[0] == 0:
            return None
        lo, hi = float(values.min()), float(values.max())
        if hi - lo >= 2**52 or not np.array_equal(values, np.floor(values)):
            return None
        key = np.subtract(hi, y_score)  # exact: integers below 2**53 apart
        top = int(hi - lo)
        unretrieved = None
        if values is not y_score:
            unretrieved = top + 1
            key[~finite] = unretrieved
        return key.astype(np.int64), _bits(top + (unretrieved is not None)), \
            unretrieved
    if kind in "iu" and y_score.dtype.itemsize <= 4:
        hi = int(y_score.max())
        top = hi - int(y_score.min())
        return np.subtract(hi, y_score, dtype=np.int64), _bits(top), None
    return None


def _min_gap(ordered):
    """The smallest gap between consecutive distinct keys of each row of
    ``ordered`` (uint64, sorted rows), exact; 0 if no row has two.

    The rows are read as one contiguous run, ``_BLOCK`` keys at a time (no
    temporary of the input's size), the gaps across two rows left out.
    """
    never = np.iinfo(np.uint64).max
    width = ordered.shape[1]
    flat = ordered.reshape(-1)
    found = never
    # whole rows at a time (one row: _BLOCK keys, no boundary to leave out)
    step = _BLOCK if ordered.shape[0] == 1 else max(_BLOCK // width, 1) * width
    for a in range(0, flat.shape[0] - 1, step):
        part = flat[a:a + step + 1]
        gaps = np.subtract(part[1:], part[:-1])
        gaps -= np.uint64(1)  # (a zero gap wraps around to the largest)
        gaps[width - 1::width] = never  # from the last key of a row to the next
        found = min(found, int(gaps.min())) if gaps.size else found
    return 0 if found == never else found + 1


def dense_score_key(y_score):
    """The descending dense rank of each score (one argsort): ``(key, bits,
    unretrieved)`` as :func:`score_key`, at most ``log2(n)`` bits."""
    n = y_score.shape[0]
    asc = np.argsort(y_score)
    s_sorted = np.sort(y_score)  # same values as y_score[asc], without a gather
    new = np.empty(n, dtype=bool)
    new[:1] = True
    np.not_equal(s_sorted[1:], s_sorted[:-1], out=new[1:])
    unretrieved_low = bool(n and s_sorted[0] == -np.inf)
    del s_sorted
    d_asc = np.cumsum(new, dtype=np.int64)
    del new
    n_distinct = int(d_asc[-1]) if n else 1
    d_asc -= n_distinct  # (ascending dense rank + 1) - D: in [1 - D, 0]
    np.negative(d_asc, out=d_asc)  # descending dense rank: in [0, D - 1]
    key = np.empty(n, dtype=np.int64)
    key[asc] = d_asc
    return key, _bits(n_distinct - 1), (n_distinct - 1) if unretrieved_low else None


def small_grades(y_true):
    """Bits of integer-valued relevance in [0, 255] (the key's payload), else None."""
    if y_true.shape[0] == 0:
        return 1
    if y_true.dtype.kind == "f" and not np.array_equal(y_true, np.floor(y_true)):
        return None
    hi = int(y_true.max())
    if hi > MAX_COUNTED_GRADE:
        return None
    return _bits(hi)


def rank_numpy(y_true, y_score, codes, w, *, decode, group_size=None,
               query_weights=None, dense=False, merge=False):
    """:class:`~._ranked.RankedGroups` of NumPy rows, or None if no key fits.

    ``codes``: each row's non-negative int64 group code (the array is reused
    as the key), or None with ``group_size``: rows already grouped, every
    group of that many rows (the 2-D layout); ``decode`` maps the sorted
    codes of the groups to their labels.  ``dense`` forces the argsort score
    rank and the row-index payload (the fallbacks; the tests run them);
    ``merge``: see :func:`~._generic.from_rows`.
    """
    n = y_score.shape[0]
    if codes is not None and n > 1:
        group_size = _equal_groups(codes)  # rows grouped, in groups of one size
    if codes is not None and group_size is None:
        keyed = sorted_keys(y_true, y_score, lambda: (codes, decode), w, dense=dense)
        if keyed is None:
            return None  # (the codes left untouched)
        return ranked_slice(keyed, 0, n, y_true, w, merge=merge)
    # sorted group by group: no group bits
    rel_bits = None if (w is not None or dense) else small_grades(y_true)
    size = max(group_size, 1)
    payload_bits = rel_bits or _bits(size - 1)  # grade, or row in the group
    scored = None if dense else score_key(y_score, size)
    if scored is None or scored[1] + payload_bits > 63:
        scored = dense_score_key(y_score)
    key, score_bits, unretrieved = scored
    key <<= payload_bits
    if rel_bits is not None:
        np.bitwise_or(key, y_true, out=key, dtype=np.int64, casting="unsafe")
    else:
        key |= np.tile(np.arange(size, dtype=np.int64), n // size)
    key = key.reshape(-1, size)
    key.sort(axis=1)
    key = key.reshape(-1)
    gstarts = np.arange(0, n, size)
    labels = decode(np.arange(gstarts.shape[0]) if codes is None else codes[gstarts])
    gbrk = np.zeros(n, dtype=bool)
    gbrk[gstarts] = True
    return _from_keys(key, payload_bits, score_bits, rel_bits, unretrieved, gbrk,
                      gstarts, labels, y_true, w, 0, size,
                      query_weights=query_weights, merge=merge)


def sorted_keys(y_true, y_score, encode, w, *, dense=False):
    """The rows' packed keys, sorted: ``(key, spec)``, or None if none fits.

    ``encode()`` gives ``(codes, decode)``: called after the score key is
    built, so that the codes and the sorted copy of the score keys are not
    held at once.  ``spec`` says how to read the keys (:func:`ranked_slice`).
    """
    n = y_score.shape[0]
    rel_bits = None if (w is not None or dense) else small_grades(y_true)
    payload_bits = rel_bits or _bits(n - 1)  # grade, or row
    scored = None if dense else score_key(y_score)
    codes, decode = encode()
    group_bits = _bits(codes.max()) if n else 1
    if scored is None or group_bits + scored[1] + payload_bits > 63:
        scored = dense_score_key(y_score)
        if group_bits + scored[1] + payload_bits > 63:
            return None  # (the codes left untouched)
    c, score_bits, unretrieved = scored
    key = codes  # the engine's own array: built in place
    key <<= score_bits + payload_bits
    c <<= payload_bits
    key |= c
    del c
    if rel_bits is not None:
        # grades cast to int64 chunk by chunk (integer-valued floats too)
        np.bitwise_or(key, y_true, out=key, dtype=np.int64, casting="unsafe")
    else:
        key |= np.arange(n, dtype=np.int64)
    key.sort()
    return key, (payload_bits, score_bits, rel_bits, unretrieved, decode)


def slice_bounds(keyed, rows):
    """Offsets cutting sorted keys into slices of whole groups of about
    ``rows`` rows (a group longer than that is one slice)."""
    key, (payload_bits, score_bits, *_) = keyed
    n = key.shape[0]
    shift = payload_bits + score_bits
    first_key = (key[rows:n:rows] >> shift) << shift  # its group's smallest key
    bounds = np.searchsorted(key, first_key, side="left")
    return np.unique(np.concatenate([[0], bounds, [n]]))


def ranked_slice(keyed, a, b, y_true, w, *, merge=False):
    """:class:`~._ranked.RankedGroups` of the sorted keys ``a:b`` (whole groups).

    The slice of keys is consumed (shifted in place).
    """
    key, (payload_bits, score_bits, rel_bits, unretrieved, decode) = keyed
    key = key[a:b]
    n = key.shape[0]
    groups = key >> (score_bits + payload_bits)
    gbrk = np.empty(n, dtype=bool)
    gbrk[:1] = True
    np.not_equal(groups[1:], groups[:-1], out=gbrk[1:])
    gstarts = np.flatnonzero(gbrk)
    labels = decode(groups[gstarts])
    del groups
    return _from_keys(key, payload_bits, score_bits, rel_bits, unretrieved, gbrk,
                      gstarts, labels, y_true, w, None, None, merge=merge)


def _from_keys(key, payload_bits, score_bits, rel_bits, unretrieved, gbrk, gstarts,
               labels, y_true, w, by_rows, size, *, query_weights=None,
               merge=False):
    """RankedGroups of sorted keys (``by_rows``: the payload's row index is
    within the group, of ``size`` rows)."""
    n = key.shape[0]
    if rel_bits is not None:
        grades = np.empty(n, dtype=np.uint8)
        np.bitwise_and(key, (1 << payload_bits) - 1, out=grades, casting="unsafe")
        rows = None
    else:
        rows = key & ((1 << payload_bits) - 1)
    key >>= payload_bits  # (group, score): equal within a tie block
    brk = np.empty(n, dtype=bool)
    brk[:1] = True
    np.not_equal(key[1:], key[:-1], out=brk[1:])
    brk |= gbrk
    # no tie: every row a block (from_rows merges them from the rows)
    bstarts = None if brk.all() else np.flatnonzero(brk)
    del brk
    at = slice(None) if bstarts is None else bstarts
    if unretrieved is None:
        block_retrieved = np.ones(n if bstarts is None else bstarts.shape[0],
                                  dtype=bool)
    else:  # the -inf block has the largest score key
        block_retrieved = (key[at] & ((1 << score_bits) - 1)) != unretrieved
    if rows is None:
        weights = None
    else:
        if by_rows is not None:
            rows += np.repeat(gstarts, size)
        grades = y_true[rows]
        weights = None if w is None else w[rows]
    del rows
    return from_rows(np, None, grades, weights, bstarts, gbrk, gstarts, labels,
                     block_retrieved, query_weights=query_weights, merge=merge)


def _equal_groups(codes):
    """The size of the groups if the rows come grouped (codes non-decreasing)
    in groups of one size, else None."""
    size = int(np.searchsorted(codes, codes[0], side="right"))
    n = codes.shape[0]
    if n % size or not bool((codes[1:] >= codes[:-1]).all()):
        return None
    by_group = codes.reshape(-1, size)
    if (by_group[:, 0] == by_group[:, -1]).all() and (
            by_group[1:, 0] != by_group[:-1, -1]).all():
        return size
    return None
