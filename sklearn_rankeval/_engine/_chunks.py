"""Evaluation by chunks of whole groups: bounded memory, the same values.

Every kernel computes a group's partials from that group's own rows, so the
rows can be ranked a chunk of whole groups at a time and the per-group
partials concatenated (:meth:`GroupInfo.concatenate`,
:meth:`Partials.concatenate`).  The temporaries of the engine and the kernels
are then bounded by the chunk (``working_memory``, see :mod:`._config`).

Chunks are contiguous ranges of the sorted group ids, so the concatenated
groups are already in the sorted order of their ids, as one call gives them:

* NumPy input in the long layout goes through the compiled pass
  (:func:`~._compiled.compiled_chunks`): one counting pass over the rows,
  then chunks of whole groups whose workspace fits ``working_memory``, each
  counting-sorted into a workspace reused from chunk to chunk;
* 2-D and multiclass input (one query per row) is cut into slices of rows;
* on the generic ranker (other Array API namespaces, and NumPy when the
  tests run that ranker), rows already grouped (ids non-decreasing) are cut
  at the group starts nearest to every ``chunk_rows`` rows; otherwise a
  counting pass and a scatter pass, block by block, write the rows of each
  chunk into one ``int32`` permutation (``int64`` beyond 2**31 rows):
  O(n), no sort of the whole input.
"""

import math

import numpy as np

from .._core import device_of, get_config, namespace_of, take
from ._compiled import compiled_chunks
from ._dispatch import compiled_path, rank
from ._group_ids import check_length, encode_groups

__all__ = ["chunk_rows", "ranked_chunks"]

#: Bytes of temporaries per row of a chunk assumed when sizing it (the
#: generic engine's and the kernels' arrays, measured at 40-60 bytes a row).
BYTES_PER_ROW = 64
#: Rows read at a time by the counting and scatter passes.
_BLOCK_ROWS = 1 << 20


def chunk_rows(row_bytes=BYTES_PER_ROW):
    """Rows per chunk: ``working_memory`` MiB at ``row_bytes`` a row (at least 1)."""
    budget = get_config()["working_memory"] * float(1 << 20)
    return max(int(budget // row_bytes), 1)


def ranked_chunks(layout, y_true, y_score, groups, w, *, native=None,
                  probabilities=None):
    """The :class:`~._ranked.RankedGroups` of each chunk of whole groups, in
    the sorted order of the group ids (inputs checked by
    :func:`~._checks.check_inputs`).

    ``native``: the statistics the compiled pass computes itself for the
    metrics of the call (:class:`~._native.Statistic` records, None for a
    ranked metric without one, :mod:`._native`); when it computes all of
    them it builds no blocks.  Each chunk has its unranked view
    (:attr:`~._ranked.RankedGroups.unranked`), whose ``probabilities`` are
    ``probabilities`` (same shape as ``y_score``), else the scores.
    """
    if layout == "long" and compiled_path(y_score) and (
            groups is not None and y_score.shape[0] > chunk_rows()):
        yield from compiled_chunks(
            layout, y_true, y_score, groups, w, native=native,
            budget=get_config()["working_memory"] * float(1 << 20),
            probabilities=probabilities)
        return
    for arrays, relabel, rows in _chunks(layout, y_true, y_score, groups, w,
                                         probabilities):
        # (labels before the kernels: their messages name groups)
        rg = rank(layout, *arrays[:4], relabel=relabel, merge=True, native=native,
                  probabilities=arrays[4])
        if rows is not None:  # (a chunk: its rows in the call's numbering)
            rg.of_rows(rows)
        yield rg




def _take(w, index):
    return None if w is None else w[index]


def _chunks(layout, y_true, y_score, groups, w, p=None):
    """``((y_true, y_score, groups, w, p), relabel, rows)`` of each chunk, in
    id order (``p``: the probabilities, or None; ``rows``: the chunk's rows
    of the call, a slice or indices of the rows (the 2-D layout's rows
    flattened), None for all of them)."""
    if not isinstance(y_score, np.ndarray):
        yield from _chunks_array_api(layout, y_true, y_score, groups, w, p)
        return
    if layout != "long":  # one query per row: slices of rows
        n_rows, n_cols = y_score.shape
        step = max(chunk_rows() // max(n_cols, 1), 1)
        for a in range(0, n_rows, step):
            rows = slice(a, a + step)
            yield ((y_true[rows], y_score[rows], None, _take(w, rows),
                    _take(p, rows)),
                   None if a == 0 else (lambda labels, a=a: labels + a),
                   slice(a * n_cols, (a + step) * n_cols))
        return
    n = y_score.shape[0]
    size = chunk_rows()
    if groups is None or n <= size:
        yield (y_true, y_score, groups, w, p), None, None
        return
    keys, decode = _group_keys(groups, n)
    relabel = decode
    if bool((keys[1:] >= keys[:-1]).all()):
        # already grouped: cut at the start of the group holding every
        # size-th row (a group longer than a chunk is one chunk)
        targets = np.arange(size, n, size)
        bounds = np.searchsorted(keys, keys[targets], side="left")
        bounds = np.unique(np.concatenate([[0], bounds, [n]]))
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            rows = slice(a, b)
            yield (y_true[rows], y_score[rows], keys[rows], _take(w, rows),
                   _take(p, rows)), relabel, rows
        return
    order, offsets = _partition(keys, size)
    for a, b in zip(offsets[:-1].tolist(), offsets[1:].tolist()):
        if a == b:
            continue
        index = order[a:b]
        yield (y_true[index], y_score[index], keys[index], _take(w, index),
               _take(p, index)), relabel, index


def _chunks_array_api(layout, y_true, y_score, groups, w, p):
    """Chunks of an Array API input: on a CPU device, slices of whole groups
    of rows already grouped (or of 2-D rows), as for NumPy; on an
    accelerator, or with ungrouped rows, one piece (a device evaluates
    millions of rows at once, and cutting unsorted groups needs a scatter).
    """
    xp = namespace_of(y_score)
    n = y_score.shape[0]
    on_cpu = "cpu" in str(device_of(y_score)).lower()
    if layout != "long":
        step = max(chunk_rows() // max(y_score.shape[1], 1), 1) if on_cpu else n
        for a in range(0, n, step):
            rows = slice(a, min(a + step, n))
            yield ((y_true[rows, ...], y_score[rows, ...], None,
                    None if w is None else w[rows],
                    None if p is None else p[rows, ...]),
                   None if a == 0 else (lambda labels, a=a: labels + a),
                   slice(a * y_score.shape[1], min(a + step, n) * y_score.shape[1]))
        return
    size = chunk_rows()
    if (not on_cpu or groups is None or n <= size
            or not bool(xp.all(groups[1:] >= groups[:-1]))):
        yield (y_true, y_score, groups, w, p), None, None
        return
    # cut at the start of the group holding every size-th row
    targets = xp.arange(size, n, size, dtype=xp.int64, device=device_of(groups))
    bounds = xp.searchsorted(groups, take(xp, groups, targets), side="left")
    bounds = sorted({0, n, *(int(b) for b in bounds)})  # a few scalars
    for a, b in zip(bounds[:-1], bounds[1:]):
        yield ((y_true[a:b], y_score[a:b], groups[a:b],
                None if w is None else w[a:b], None if p is None else p[a:b]),
               None, slice(a, b))


def _group_keys(groups, n):
    """Integer keys that sort as the group ids, and a decoder (None: the ids).

    Integer ids are their own keys (no copy); other ids (strings, floats,
    Categoricals, Arrow and polars arrays) are hashed once into codes in the
    sorted order of the ids (:func:`~._engine.encode_groups`), decoded back
    to ids chunk by chunk.
    """
    g = groups
    if isinstance(g, (list, tuple)):
        g = np.asarray(g)
    elif (type(g).__module__.split(".")[0] == "pandas"
          and getattr(g, "dtype", None) is not None
          and getattr(g.dtype, "kind", None) in "iu" and hasattr(g, "to_numpy")):
        g = g.to_numpy()
    if isinstance(g, np.ndarray) and g.dtype.kind in "iu":
        check_length(g.shape, n)
        return g, None
    return encode_groups(groups, n)


def _partition(keys, size):
    """Rows of each chunk of whole groups: ``(order, offsets)``.

    Chunk ``c`` is ``order[offsets[c]:offsets[c + 1]]``, its rows in input
    order.  A group goes to the chunk of the row it would start at in the
    sorted order, so chunks are contiguous ranges of keys of about ``size``
    rows.  Keys spread over more values than rows (sparse ids) are cut into
    equal ranges of values instead (chunks of uneven sizes, the same values).
    """
    n = keys.shape[0]
    lo, hi = keys.min(), keys.max()
    span = int(hi) - int(lo) + 1
    n_chunks = math.ceil(n / size)
    cid_dtype = np.uint16 if n_chunks <= np.iinfo(np.uint16).max else np.int64
    if span <= n:  # dense ids: count the rows of every id

        def offset(part):  # part - lo in [0, span), as intp (no overflow)
            if part.dtype.itemsize < 8:
                return part.astype(np.intp) - int(lo)
            return (part - lo).astype(np.intp, copy=False)

        block = max(_BLOCK_ROWS, span // 4)
        counts = np.zeros(span, dtype=np.int64)
        for a in range(0, n, block):
            counts += np.bincount(offset(keys[a:a + block]), minlength=span)
        starts = np.cumsum(counts)
        starts -= counts
        chunk_of_key = (starts // size).astype(cid_dtype)
        del starts

        def chunk_id(part):
            return chunk_of_key[offset(part)]

        per_chunk = np.bincount(chunk_of_key, weights=counts,
                                minlength=n_chunks).astype(np.int64)
        del counts
    else:  # sparse ids: equal ranges of values (monotone in the key)
        scale = n_chunks / span

        def chunk_id(part):
            x = (part.astype(np.float64) - float(lo)) * scale
            return np.minimum(x, n_chunks - 1).astype(cid_dtype)

        per_chunk = np.zeros(n_chunks, dtype=np.int64)
        for a in range(0, n, _BLOCK_ROWS):
            per_chunk += np.bincount(chunk_id(keys[a:a + _BLOCK_ROWS]),
                                     minlength=n_chunks)
    offsets = np.zeros(n_chunks + 1, dtype=np.int64)
    np.cumsum(per_chunk, out=offsets[1:])
    fill = offsets[:-1].copy()
    index_dtype = np.int32 if n < (1 << 31) else np.int64
    order = np.empty(n, dtype=index_dtype)
    for a in range(0, n, _BLOCK_ROWS):
        cid = chunk_id(keys[a:a + _BLOCK_ROWS])
        by_chunk = np.argsort(cid, kind="stable")  # a radix sort of small ints
        cid = cid[by_chunk]
        count = np.bincount(cid, minlength=n_chunks)
        first = np.cumsum(count)
        first -= count
        pos = fill[cid] + (np.arange(cid.shape[0]) - first[cid])
        order[pos] = by_chunk + a
        fill += count
    return order, offsets
