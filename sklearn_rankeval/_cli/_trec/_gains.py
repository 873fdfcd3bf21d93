"""trec_eval's measures on its gain table: dcg, ideal_dcg, ndcg with
``rel_level=gain`` parameters, G, ndcg_rel and Rndcg (``gain_init.c``).

The gain of a document is that of its relevance value in the table (0 if
absent, e.g. not judged, unless ``-1=g`` or ``-2=g`` is given); the ideal
ranking holds every judged document with a positive gain, retrieved or not,
in trec_eval's walk down the table.  The table of a query depends only on
its largest judged relevance value, so it is built once per such value (a
handful), and every measure is then per-row arithmetic with per-query sums
over all queries at once.
"""

import math
import re
from functools import cmp_to_key
from typing import NamedTuple

import numpy as np

from ..._metrics import safe_divide
from ._arrays import TrecError, segment_cumsum
from ._library import library
from ._read import atof

__all__ = ["dcg", "g", "ideal_dcg", "ndcg", "ndcg_rel", "rndcg"]


def _gain_pairs(text):
    """trec_eval's ``rel_level=gain`` parameters: [(name, gain)] in order."""
    if text is None:
        return []
    pairs = []
    for item in text.split(","):
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise TrecError(f"malformed pair parameters in {text!r} (expected "
                            f"rel_level=gain, e.g. ndcg.1=3,2=9)")
        pairs.append((name, atof(value)))
    return pairs


def _gain_table(pairs, max_level):
    """trec_eval's ``setup_gains``: [level, gain, counted] sorted by gain.

    The parameters come first (names that are integers only), then each
    relevance level ``0..max_level`` not given, with gain = level; sorted
    by increasing gain with trec_eval's comparison, which truncates the
    difference to an integer (gains less than 1 apart compare equal and keep
    this order).  ``counted``: whether the entry holds the number of judged
    documents of its level (the first parameter of a level, or the level's
    own entry).
    """
    table = [[int(name), gain, False] for name, gain in pairs
             if re.fullmatch(r"[+-]?\d+", name)]
    n_given = len(table)
    for level in range(max_level + 1):
        for entry in table[:n_given]:
            if entry[0] == level:
                entry[2] = True
                break
        else:
            table.append([level, float(level), True])
    return sorted(table, key=cmp_to_key(lambda a, b: math.trunc(a[1] - b[1])))


class Gains(NamedTuple):
    """A run's gains under one gain table.

    ``doc`` is the gain of each retrieved row (``TrecArrays.retrieved``
    order); ``ideal`` the positive gains of the ideal rankings, query after
    query, ``ideal_owner`` their query; ``n_ideal`` their number per query.
    """

    doc: np.ndarray
    ideal: np.ndarray
    ideal_owner: np.ndarray
    n_ideal: np.ndarray


def _gains(arr, text):
    """The :class:`Gains` of a run under the table of parameter ``text``."""
    return arr.cached(("gains", text), lambda: _compute_gains(arr, text))


def _compute_gains(arr, text):
    pairs = _gain_pairs(text)
    n_q = len(arr.qids)
    rel = arr.rel
    judged = rel >= 0
    max_level = np.maximum.reduceat(np.where(judged, rel, -1), arr.offsets[:-1])
    width = int(max_level.max()) + 1 if n_q else 0
    row_code = np.repeat(np.arange(n_q), np.diff(arr.offsets))
    level_counts = np.bincount(row_code[judged] * max(width, 1) + rel[judged],
                               minlength=n_q * max(width, 1)).reshape(n_q, -1)
    code, _, ret_rel = arr.retrieved()
    doc = np.zeros(len(code))
    owners, ideals = [], []
    for m in np.unique(max_level).tolist():
        table = _gain_table(pairs, m)
        queries = np.flatnonzero(max_level == m)
        # a document's gain: the first entry of its level in the sorted table
        lookup = {}
        for level, gain, _ in table:
            lookup.setdefault(level, gain)
        levels = np.array(sorted(lookup), dtype=np.int64)
        values = np.array([lookup[lv] for lv in levels.tolist()], dtype=np.float64)
        rows = np.isin(code, queries)
        if len(levels):  # else every gain is 0
            at = np.clip(np.searchsorted(levels, ret_rel[rows]), 0, len(levels) - 1)
            doc[rows] = np.where(levels[at] == ret_rel[rows], values[at], 0.0)
        # the ideal ranking: trec_eval walks down the table from its top,
        # skips the empty entries and stops at the first with a gain <= 0
        walk = table[::-1]
        gain = np.array([e[1] for e in walk], dtype=np.float64)
        level = np.array([e[0] for e in walk], dtype=np.int64)
        counted = np.array([e[2] for e in walk], dtype=bool)
        counts = np.where(counted & (level >= 0) & (level <= m),
                          level_counts[queries][:, np.clip(level, 0, max(width - 1, 0))]
                          if width else 0, 0)
        counts = np.broadcast_to(counts, (len(queries), len(walk)))
        stop = (counts > 0) & (gain <= 0)
        taken = np.where((counts > 0) & (gain > 0)
                         & (np.cumsum(stop, axis=1) - stop == 0), counts, 0)
        ideals.append(np.repeat(np.broadcast_to(gain, taken.shape).ravel(),
                                taken.ravel()))
        owners.append(np.repeat(np.repeat(queries, len(walk)), taken.ravel()))
    owner = np.concatenate(owners) if owners else np.zeros(0, np.int64)
    order = np.argsort(owner, kind="stable")
    ideal_owner = owner[order]
    return Gains(doc=doc,
                 ideal=(np.concatenate(ideals) if ideals else np.zeros(0))[order],
                 ideal_owner=ideal_owner,
                 n_ideal=np.bincount(ideal_owner, minlength=n_q))


def _starts(counts):
    return np.cumsum(counts) - counts


class _Discounted(NamedTuple):
    """Running and total DCG of the ranked documents and of the ideal."""

    dcg_cum: np.ndarray    # per retrieved row, inclusive
    dcg: np.ndarray        # per query
    idcg_cum: np.ndarray   # per ideal step, inclusive
    idcg: np.ndarray       # per query


def _discounted(arr, gains):
    code, pos, _ = arr.retrieved()
    row = gains.doc / np.log2(pos + 2.0)
    step_pos = (np.arange(len(gains.ideal_owner))
                - _starts(gains.n_ideal)[gains.ideal_owner])
    ideal_row = gains.ideal / np.log2(step_pos + 2.0)
    return _Discounted(segment_cumsum(code, row), arr.per_query_sum(code, row),
                       segment_cumsum(gains.ideal_owner, ideal_row),
                       arr.per_query_sum(gains.ideal_owner, ideal_row))


def _rows(arr, params, value):
    """One row per parameter: ``value(arr, gains, discounted)``."""
    out = []
    for text in params:
        gains = _gains(arr, text)
        out.append(value(arr, gains, _discounted(arr, gains)))
    return np.array(out, dtype=np.float64)


def dcg(arr, params, opts):
    """DCG over the whole ranking."""
    return _rows(arr, params, lambda arr, gains, d: d.dcg)


def ideal_dcg(arr, params, opts):
    """DCG of the ideal ranking."""
    return _rows(arr, params, lambda arr, gains, d: d.idcg)


def _ratio(arr, gains, d):
    return safe_divide(d.dcg, d.idcg)  # 0 without ideal gain


def _g(arr, gains, d):
    code, pos, _ = arr.retrieved()
    total_ideal = arr.per_query_sum(gains.ideal_owner, gains.ideal)
    # the cost of rank i: the ideal gain there (at least 1), 1 past the ideal
    inside = pos < gains.n_ideal[code]
    ideal = np.ones(len(code))
    ideal[inside] = gains.ideal[(_starts(gains.n_ideal)[code] + pos)[inside]]
    cost = np.maximum(ideal, 1.0)
    denom = np.log2(2.0 + segment_cumsum(code, cost)
                    - segment_cumsum(code, gains.doc))
    nonzero = gains.doc != 0
    terms = np.where(nonzero, gains.doc, 0.0) / np.where(nonzero, denom, 1.0)
    return np.where(total_ideal > 0.0,
                    safe_divide(arr.per_query_sum(code, terms), total_ideal), 0.0)


def g(arr, params, opts):
    """trec_eval's G: sum of gain / log2(2 + ideal cost - gain so far)."""
    return _rows(arr, params, _g)


def _ndcg_rel(arr, gains, d):
    code, pos, _ = arr.retrieved()
    n_ideal = gains.n_ideal
    positive = (gains.doc > 0) & (n_ideal[code] > 0)
    at = _starts(n_ideal)[code] + np.minimum(pos, n_ideal[code] - 1)
    terms = np.zeros(len(code))
    terms[positive] = d.dcg_cum[positive] / d.idcg_cum[at[positive]]
    n_pos = arr.per_query_sum(code, gains.doc > 0)
    total = (arr.per_query_sum(code, terms)
             + (n_ideal - n_pos) * safe_divide(d.dcg, d.idcg))
    return np.where((n_ideal > 0) & (total > 0.0), safe_divide(total, n_ideal), 0.0)


def ndcg_rel(arr, params, opts):
    """trec_eval's ndcg_rel: NDCG averaged over the documents with gain > 0."""
    return _rows(arr, params, _ndcg_rel)


def _rndcg(arr, gains, d):
    """NDCG before each rank ``i`` where the ideal gain changes (the end of
    the ideal included), and at the end of a longer ranking; averaged."""
    n_q = len(arr.qids)
    owner, n_ideal, n_ret = gains.ideal_owner, gains.n_ideal, arr.num_ret
    ret_start, ideal_start = _starts(n_ret), _starts(n_ideal)
    i = np.arange(len(owner)) - ideal_start[owner]  # rank within the ideal
    change = (i >= 1) & (gains.ideal != np.roll(gains.ideal, 1))
    q = np.concatenate([owner[change], np.flatnonzero(n_ideal > 0)])
    i = np.concatenate([i[change], n_ideal[n_ideal > 0]])
    before = np.minimum(i, n_ret[q])  # documents ranked before rank i
    dcg = np.zeros(len(q))
    ranked = before > 0
    dcg[ranked] = d.dcg_cum[(ret_start[q] + before - 1)[ranked]]
    total = np.bincount(q, weights=dcg / d.idcg_cum[ideal_start[q] + i - 1],
                        minlength=n_q)
    count = np.bincount(q, minlength=n_q)
    longer = (n_ideal >= 1) & (n_ideal + 1 < n_ret)
    total = total + np.where(longer, safe_divide(d.dcg, d.idcg), 0.0)
    count = count + longer
    return np.where(arr.num_rel > 0, safe_divide(total, count), 0.0)


def rndcg(arr, params, opts):
    """trec_eval's Rndcg: NDCG averaged where the ideal gain changes."""
    return _rows(arr, params, _rndcg)


def ndcg(arr, params, opts):
    """ndcg: the library's NDCG; with ``rel_level=gain`` parameters
    (``ndcg.1=3,2=9``), trec_eval's gain table."""
    by_library = library("ndcg", gain=True)
    return np.array([by_library(arr, (None,), opts)[0] if p is None
                     else _rows(arr, [p], _ratio)[0] for p in params])
