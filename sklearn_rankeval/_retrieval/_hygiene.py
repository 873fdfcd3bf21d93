"""The run's hygiene, then the long layout the engine ranks.

In order, on the checked frames (:mod:`._frames`), all vectorised:

1. chunks -> documents (``doc_ids=``): each chunk is mapped to its
   document; the document's score is its chunks' ``"max"`` (MaxP), the
   score of its ``"first"`` chunk in the mapping's order among those
   retrieved (FirstP) or their ``"sum"`` (Dai and Callan, 2019);
2. ``exclude_self``: run rows whose document id equals the query id go
   (BEIR's ``ignore_identical_ids``; the qrels are kept as they are);
3. ``duplicates``: a document the run lists twice for one query counts
   once, at its best rank (``"first"``), or is an error (``"error"``);
   qrels that judge a (query, document) pair twice must agree;
4. ``unjudged``: a retrieved document without a judgment is not relevant
   (``"zero"``) or leaves the run before ranking (``"drop"``);
5. the rows: the retrieved documents of the evaluated queries, and each
   relevant document they did not retrieve with the score ``-inf`` (it
   counts in recall's and nDCG's ideal, at no rank); a query with no row
   keeps one placeholder (not relevant, not retrieved).
"""

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._core import InvalidArgumentError
from ._frames import encode_ids, id_kind

__all__ = ["DocIds", "Layout", "build_layout", "tie_free"]


@dataclass
class Layout:
    """The long layout of a run against its qrels (one row per document).

    The run's rows come first, then the relevant documents it lacks and
    the placeholders of queries without a row (``n_run``: the run's rows).
    ``score``: ``-inf`` where not retrieved (a lacking document, or a run
    row removed as a repeat or as unjudged: it then ranks nowhere);
    ``qrow``: the qrels row of each row's judgment (-1: unjudged);
    ``doc`` / ``position``: each row's document code and the run row it
    came from (the tie order ``"input"``), built when a rule needs them;
    ``queries``: the ids by query code; ``judged_query`` / ``run_query``:
    whether each query code has qrels / results; ``pooled_docs``: whether
    each document code is judged for any query; ``doc_ids``: the document
    ids of codes (:class:`DocIds`).
    """

    score: np.ndarray
    groups: np.ndarray
    qrow: np.ndarray
    run_doc: np.ndarray
    extra_doc: np.ndarray
    run_position: np.ndarray
    queries: np.ndarray
    judged_query: np.ndarray
    run_query: np.ndarray
    pooled_docs: np.ndarray
    doc_ids: object
    repeated: bool = False

    @property
    def judged(self):
        return self.qrow >= 0

    @property
    def retrieved(self):
        return self.score > -np.inf

    @cached_property
    def doc(self):
        return np.concatenate([self.run_doc, self.extra_doc])

    @cached_property
    def position(self):
        n_run = len(self.run_position)
        return np.concatenate([self.run_position,
                               np.full(len(self.score) - n_run, n_run)])

    @property
    def pooled(self):
        """Whether each row's document is judged for some query."""
        return self.pooled_docs[self.doc]


def _chunks_to_docs(frames, doc_ids):
    """Each run row's document id and the position of its chunk in the
    mapping (FirstP's order)."""
    import pandas as pd

    if isinstance(doc_ids, dict):
        doc_ids = pd.Series(doc_ids)
    if not isinstance(doc_ids, pd.Series):
        raise InvalidArgumentError(
            "doc_ids", f"must map each chunk id to its document id (a dict or "
                       f"a pandas Series indexed by chunk id), got "
                       f"{type(doc_ids).__name__}.")
    keys = doc_ids.index.to_numpy()
    kinds = (id_kind(keys, ("doc_ids", "index (chunk ids)")),
             id_kind(frames.run_d, ("run", "doc_id")))
    if None not in kinds and kinds[0] != kinds[1]:
        raise InvalidArgumentError(
            "doc_ids", f"is keyed by {kinds[0]} chunk ids, but the run's "
                       f"doc_id column holds {kinds[1]} ones.")
    doc_kind = id_kind(doc_ids.to_numpy(), ("doc_ids", "values (document ids)"))
    if doc_kind is not None and doc_kind != frames.doc_kind and len(
            frames.qrels_d):
        raise InvalidArgumentError(
            "doc_ids", f"maps chunks to {doc_kind} document ids, but the qrels' "
                       f"doc_id column holds {frames.doc_kind} ones.")
    index = pd.Index(keys)
    if not index.is_unique:
        raise InvalidArgumentError("doc_ids", "lists a chunk id twice.")
    where = index.get_indexer(frames.run_d)
    if (where < 0).any():
        chunk = frames.run_d[np.flatnonzero(where < 0)[0]]
        raise InvalidArgumentError(
            "doc_ids", f"has no document for the run's chunk {chunk!r}.",
            value=chunk.item() if hasattr(chunk, "item") else chunk)
    return doc_ids.to_numpy()[where], where


def _first_of_blocks(key, *tiebreaks):
    """The order of rows by ``key`` then ``tiebreaks`` and the start of each
    block of equal ``key`` in it."""
    order = np.lexsort((*reversed(tiebreaks), key))
    k = key[order]
    start = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    return order, start


def _check_qrels(qkey, labels, frames):
    """Drop repeated judgments of one pair (refused if they disagree)."""
    import pandas as pd

    repeated = pd.Series(qkey).duplicated(keep=False).to_numpy()
    if not repeated.any():
        return np.arange(len(qkey))
    rows = np.flatnonzero(repeated)
    flat = labels.reshape(len(labels), -1)
    order, start = _first_of_blocks(qkey[rows])
    first = np.repeat(start, np.diff(np.r_[start, len(rows)]))
    differ = (flat[rows[order]] != flat[rows[order[first]]]).any(axis=1)
    if differ.any():
        i = rows[order[np.flatnonzero(differ)[0]]]
        raise InvalidArgumentError(
            "qrels", f"judges query {frames.qrels_q[i]!r}, document "
                     f"{frames.qrels_d[i]!r} twice with different labels: each "
                     f"(query, document) pair must have one label.")
    return np.flatnonzero(~pd.Series(qkey).duplicated(keep="first").to_numpy())


def _query_codes(run_q, qrels_q, spare):
    """Joint codes of the query ids: ``(run codes, qrels codes, ids)``; the
    run's codes are the first ``len(run_q)`` of a buffer ``spare`` longer
    (the layout appends its rows to it without a copy).

    A run lists each query's rows together (as a run file does): its codes
    are then read off the changes of id, in one pass; otherwise, and for the
    qrels' other queries, a hash factorization.
    """
    import pandas as pd

    n = len(run_q)
    codes = np.zeros(n + spare, dtype=np.int64)
    if n:
        change = np.flatnonzero(run_q[1:] != run_q[:-1]) + 1
        heads = run_q[np.r_[0, change]]
        if len(pd.unique(heads)) == len(heads):  # each query's rows together
            codes[change] = 1
            np.cumsum(codes[:n], out=codes[:n])
            where = pd.Index(heads).get_indexer(qrels_q).astype(np.int64)
            new = where < 0
            if new.any():
                extra_codes, extra = pd.factorize(qrels_q[new])
                where[new] = len(heads) + extra_codes
                heads = np.concatenate([heads, np.asarray(extra, dtype=heads.dtype)])
            return codes, where, heads
    (run, qrels), ids = encode_ids(run_q, qrels_q)
    codes[:n] = run
    return codes, qrels, ids


class DocIds:
    """The document id of each code: integer ids are their own codes
    (shifted by the smallest), other ids a factorization's uniques."""

    def __init__(self, uniques=None, offset=0):
        self.uniques, self.offset = uniques, offset

    def __call__(self, codes):
        codes = np.asarray(codes)
        return codes + self.offset if self.uniques is None else self.uniques[codes]


def _doc_codes(run_d, qrels_d):
    """``(run codes, qrels codes, number of codes, DocIds)``; integer ids of
    a compact range are their own codes (no copy of the run's)."""
    both = [a for a in (run_d, qrels_d) if len(a)]
    if both and all(a.dtype.kind in "iu" for a in both):
        lo = min(int(a.min()) for a in both)
        hi = max(int(a.max()) for a in both)
        limit = max(4 * (len(run_d) + len(qrels_d)), 1 << 20)
        if 0 <= lo and hi < limit:
            return (run_d.astype(np.int64, copy=False),
                    qrels_d.astype(np.int64, copy=False), hi + 1, DocIds())
        if hi - lo < limit:
            return (run_d.astype(np.int64) - lo, qrels_d.astype(np.int64) - lo,
                    hi - lo + 1, DocIds(offset=lo))
    (run, qrels), uniques = encode_ids(run_d, qrels_d)
    return run, qrels, max(len(uniques), 1), DocIds(uniques)


def _members(keys, sorted_set):
    """Whether each of ``keys`` is in ``sorted_set``."""
    if not len(sorted_set):
        return np.zeros(len(keys), dtype=bool)
    pos = np.minimum(np.searchsorted(sorted_set, keys), len(sorted_set) - 1)
    return sorted_set[pos] == keys


def build_layout(frames, *, exclude_self=False, doc_ids=None, aggregate=None,
                 duplicates="first", unjudged="zero", queries=("judged",)):
    """The :class:`Layout` of the run against the qrels after the hygiene
    steps of the module's docstring, and the qrels rows kept (``(layout,
    kept qrels rows)``).  ``queries``: the query sets the metrics average
    over (``"judged"``, ``"qrels"``, ``"run"``); the layout holds their union.
    """
    import pandas as pd

    run_d = frames.run_d
    chunk_pos = None
    if doc_ids is not None:
        run_d, chunk_pos = _chunks_to_docs(frames, doc_ids)
    score, position = frames.score, np.arange(len(frames.score))
    # the layout's buffers: the run's rows, then room for the relevant
    # documents it lacks and the placeholders of queries without a row
    spare = 2 * len(frames.qrels_q) + 1
    groups, qrels_q, queries_ids = _query_codes(frames.run_q, frames.qrels_q,
                                                spare)
    n = len(frames.run_q)
    run_q = groups[:n]
    run_doc, qrels_doc, n_d, doc_of = _doc_codes(run_d, frames.qrels_d)
    n_q = len(queries_ids)
    if exclude_self and frames.query_kind == frames.doc_kind and n:
        keep = frames.run_q != run_d
        if not keep.all():
            n = int(keep.sum())
            groups = np.concatenate([run_q[keep], np.zeros(spare, np.int64)])
            run_q, run_doc, score, position = (groups[:n], run_doc[keep],
                                               score[keep], position[keep])
            chunk_pos = None if chunk_pos is None else chunk_pos[keep]
    spare = max(spare, n_q + len(frames.qrels_q))
    if len(groups) < n + spare:
        groups = np.concatenate([run_q, np.zeros(spare, np.int64)])
        run_q = groups[:n]
    # qrels: one label per pair
    qkey = qrels_q * n_d + qrels_doc
    kept = _check_qrels(qkey, frames.labels, frames)
    qkey, qrels_q, qrels_doc = qkey[kept], qrels_q[kept], qrels_doc[kept]
    # the run's key of each (query, document), in the buffer of qrow
    qrow_buf = np.empty(n + spare, dtype=np.int64)
    rkey = qrow_buf[:n]
    np.multiply(run_q, n_d, out=rkey)
    rkey += run_doc
    score_buf = np.empty(n + spare, dtype=np.float64)
    score_buf[:n] = score
    score = score_buf[:n]
    # the judgment of each run row: only rows of a judged document can have
    # one (their keys kept before the keys are sorted in place)
    pooled_docs = np.zeros(n_d, dtype=bool)
    pooled_docs[qrels_doc] = True
    candidates = np.flatnonzero(pooled_docs[run_doc])
    found = (pd.Index(qkey).get_indexer(rkey[candidates]) if len(qkey)
             else np.full(len(candidates), -1))
    # one row per (query, document): the keys sorted once; only repeated
    # keys are worked on, and a row that goes is left in place, unranked
    rkey.sort()
    same = rkey[1:] == rkey[:-1]
    repeated = bool(same.any())
    gone = None
    if repeated:
        repeats = np.unique(rkey[1:][same])
        np.multiply(run_q, n_d, out=rkey)  # the keys again, in run order
        rkey += run_doc
        rows = np.flatnonzero(_members(rkey, repeats))
        if chunk_pos is None and duplicates == "error":
            i = rows[0]
            raise InvalidArgumentError(
                "run", f"lists document {doc_of([run_doc[i]])[0]!r} twice for "
                       f"query {queries_ids[run_q[i]]!r}: a document counts "
                       f"once per query (pass duplicates='first' to keep its "
                       f"best rank).")
        best, best_score = _one_row_per_doc(
            rkey[rows], score[rows], position[rows],
            None if chunk_pos is None else chunk_pos[rows],
            aggregate if chunk_pos is not None else "max")
        score[rows] = -np.inf
        score[rows[best]] = best_score
        gone = rows[np.isin(np.arange(len(rows)), best, invert=True)]
    qrow = qrow_buf[:n]
    qrow.fill(-1)  # (the keys are not needed any more)
    qrow[candidates] = found
    if gone is not None:
        qrow[gone] = -1
    # a query of the run stays one when its unjudged documents are dropped
    judged_query = np.bincount(qrels_q, minlength=n_q) > 0
    run_query = np.bincount(run_q, minlength=n_q) > 0
    if unjudged == "drop":
        score[qrow < 0] = -np.inf
    evaluated = np.zeros(n_q, dtype=bool)
    for which in queries:
        evaluated |= {"judged": judged_query & run_query, "qrels": judged_query,
                      "run": run_query}[which]
    if not evaluated[run_query].all():  # run queries without judgments
        rows = evaluated[run_q]
        n = int(rows.sum())
        groups, score_buf, qrow_buf = (
            np.concatenate([a[:len(rows)][rows], np.empty(spare, a.dtype)])
            for a in (groups, score_buf, qrow_buf))
        run_q, score, qrow = groups[:n], score_buf[:n], qrow_buf[:n]
        run_doc, position = run_doc[rows], position[rows]
    # relevant documents of the evaluated queries that the run lacks
    listed = np.zeros(len(qkey), dtype=bool)  # (ranked or not)
    listed[qrow[qrow >= 0]] = True
    flat = frames.labels[kept].reshape(len(kept), -1)
    missing = np.flatnonzero(~listed & evaluated[qrels_q]
                             & (flat > 0).any(axis=1))
    # queries left without a row keep a placeholder
    has_row = run_query & evaluated
    has_row[qrels_q[missing]] = True
    empty = np.flatnonzero(evaluated & ~has_row)
    end = n + len(missing) + len(empty)
    score_buf[n:end] = -np.inf
    groups[n:end] = np.concatenate([qrels_q[missing], empty])
    qrow_buf[n:end] = np.concatenate([missing, np.full(len(empty), -1)])
    layout = Layout(
        score=score_buf[:end], groups=groups[:end], qrow=qrow_buf[:end],
        run_doc=run_doc,
        extra_doc=np.concatenate([qrels_doc[missing],
                                  np.zeros(len(empty), np.int64)]),
        run_position=position,
        queries=queries_ids, judged_query=judged_query, run_query=run_query,
        pooled_docs=pooled_docs, doc_ids=doc_of,
        repeated=repeated and doc_ids is None)
    return layout, kept


def _one_row_per_doc(rkey, score, position, chunk_pos, aggregate):
    """Among rows of repeated keys: the index of the row each key keeps (its
    best-ranked one, or its first chunk) and the key's aggregated score."""
    if aggregate == "first":
        order, start = _first_of_blocks(rkey, chunk_pos)
    else:  # the best-ranked row first: the highest score, then the input order
        order, start = _first_of_blocks(rkey, -score, position)
    best = order[start]
    if aggregate == "sum":
        return best, np.add.reduceat(score[order], start)
    return best, score[best]


def _tied_groups(groups, score):
    """Whether each query code has two ranked documents of one score.

    A run lists each query's documents together by decreasing score (as a
    run file does): its ties are then neighbours, found in one pass; other
    runs are sorted first.
    """
    n_groups = int(groups.max()) + 1 if len(groups) else 0
    ranked = np.flatnonzero(score > -np.inf)
    g, s = groups[ranked], score[ranked]
    change = g[1:] != g[:-1]
    together = int(change.sum()) + 1 == int(
        (np.bincount(g, minlength=n_groups) > 0).sum()) if len(g) else True
    if not (together and np.all(change | (s[1:] <= s[:-1]))):
        order = np.lexsort((-s, g))
        g, s = g[order], s[order]
    tied = (g[1:] == g[:-1]) & (s[1:] == s[:-1])
    out = np.zeros(n_groups, dtype=bool)
    out[g[1:][tied]] = True
    return out


def tie_free(layout, ties):
    """Scores that order each query's documents as ``ties`` breaks ties.

    ``"docno"``: score, then decreasing document id as trec_eval compares
    them (``strcmp`` of the ids' text, code point order); ``"input"``:
    score, then the run's row order; ``"expected"``: the scores as they are.
    Only the queries that hold a tie get new scores (their rows' order by
    the rule); unretrieved rows stay ``-inf``.
    """
    if ties == "expected":
        return layout.score
    has_tie = _tied_groups(layout.groups, layout.score)
    if not has_tie.any():
        return layout.score
    rows = np.flatnonzero(has_tie[layout.groups] & layout.retrieved)
    if ties == "docno":
        docs, inverse = np.unique(layout.doc[rows], return_inverse=True)
        text = np.asarray(layout.doc_ids(docs)).astype(str)
        rank = np.empty(len(text), dtype=np.int64)
        rank[np.argsort(text, kind="stable")] = np.arange(len(text))
        second = -rank[inverse.ravel()]
    else:
        second = layout.position[rows]
    order = np.lexsort((second, -layout.score[rows], layout.groups[rows]))
    out = layout.score.copy()
    new = np.empty(len(rows), dtype=np.float64)
    new[order] = np.arange(len(rows), 0, -1, dtype=np.float64)
    out[rows] = new
    return out
