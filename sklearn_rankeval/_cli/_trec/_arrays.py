"""A run against qrels as long-layout arrays, ranked as trec_eval ranks it.

How a run becomes arrays, following trec_eval (``form_res_rels.c``):

* the documents of a query are sorted by score descending, ties broken by
  document id in *decreasing* ``strcmp`` order; the row of each retrieved
  document gets a distinct score from that position, so that the metric
  functions see exactly trec_eval's ranking (``-M N`` keeps the first N);
* a judged document the run did not retrieve (or that ``-M`` cut) becomes a
  row with score ``-inf`` ("not retrieved"): it counts in the number of
  relevant documents, at no rank;
* a retrieved document missing from the qrels is not relevant (gain 0);
  negative qrels values (trec_eval's "unjudged in the pool") neither;
* binary measures count relevance ``>= relevance_level`` (``-l``, default 1)
  as relevant; NDCG uses the relevance value as gain, as trec_eval does;
* the queries are those of the run that have judgments (``-c``: every
  judged query, those missing from the run retrieving nothing); a run query
  without judgments is ignored.
"""

from dataclasses import dataclass, field

import numpy as np

from ..._engine import check_inputs, docno_codes, docno_order, rank, rank_groups
from ..._metrics import drop_unjudged

__all__ = ["NONPOOL", "UNJUDGED", "TrecArrays", "TrecError", "align_runs",
           "build_arrays", "segment_cumsum"]

#: Relevance of a retrieved document absent from the qrels (trec_eval's
#: RELVALUE_NONPOOL): below every relevance level, gain 0.
NONPOOL = -1
#: Relevance of a retrieved document judged with a negative value (trec_eval's
#: RELVALUE_UNJUDGED: in the pool, not judged).
UNJUDGED = -2


class TrecError(ValueError):
    """A problem with the evaluation itself (no file or line to blame)."""


def segment_cumsum(code, x):
    """Inclusive cumulative sum of ``x`` within each run of equal ``code``.

    ``code`` is sorted (the rows of a query are contiguous).
    """
    cum = np.cumsum(x)
    start = np.searchsorted(code, code, side="left")
    return cum - (cum[start] - np.asarray(x)[start])


@dataclass
class TrecArrays:
    """Long-layout arrays of a run, one group per query.

    Attributes
    ----------
    qids : ndarray of str
        The evaluated queries, sorted (the order of ``average=None``).
    groups : ndarray of str
        Query id of each row; rows are grouped by query, in ``qids`` order.
    y_bin : ndarray of int
        1 if the document is relevant (relevance ``>= relevance_level``).
    y_gain : ndarray of int
        NDCG gain: the relevance, 0 if negative or not judged.
    y_score : ndarray of float
        Distinct decreasing values in trec_eval's order for the retrieved
        documents, ``-inf`` for the judged documents not retrieved.
    offsets : ndarray of int, shape (n_queries + 1,)
        The rows of query ``i`` are ``offsets[i]:offsets[i + 1]``.
    num_ret, num_rel, num_rel_ret : ndarray of int, shape (n_queries,)
        Retrieved, relevant, and relevant retrieved documents per query.
    run_id : str or None
        The run's tag.
    rel : ndarray of int or None
        The qrels value of each row (-1: retrieved, not in the qrels; -2:
        retrieved, in the qrels with a negative value, i.e. unjudged).
    relevance_level : int
    complete : bool
        Whether every judged query is evaluated (``-c``).
    judged_only : bool
        Whether the unjudged retrieved documents were removed (``-J``).
    docno : ndarray of str or None
        The document id of each row.
    intents : ndarray of shape (n_rows, n_intents) or None
        The grade of each row for each subtopic of its query (ndeval's
        qrels, :func:`~._intents.with_intents`), the diversity measures'
        input; None for trec_eval's qrels.
    """

    qids: np.ndarray
    groups: np.ndarray
    y_bin: np.ndarray
    y_gain: np.ndarray
    y_score: np.ndarray
    offsets: np.ndarray
    num_ret: np.ndarray
    num_rel: np.ndarray
    num_rel_ret: np.ndarray
    run_id: object = None
    rel: object = None
    relevance_level: int = 1
    complete: bool = False
    judged_only: bool = False
    docno: object = None
    intents: object = None
    _ranked: dict = field(default_factory=dict, repr=False, compare=False)

    def cached(self, key, compute):
        """``compute()``, computed once per run and ``key``."""
        if key not in self._ranked:
            self._ranked[key] = compute()
        return self._ranked[key]

    def ranked(self, gain=False):
        """The engine's ranking of the binary (or graded) relevance, built once."""
        return self.ranked_by("gain" if gain else "binary",
                              lambda: self.y_gain if gain else self.y_bin)

    def ranked_by(self, key, relevance):
        """The engine's ranking of ``relevance()`` (one value per row), once per key."""
        return self.cached(("ranked", key), lambda: rank_groups(
            relevance(), self.y_score, groups=self.groups))

    def ranked_judged(self):
        """The engine's ranking of the judged rows only (bpref)."""
        def ranked():
            judged = drop_unjudged(check_inputs(
                self.y_bin, self.y_score, groups=self.groups,
                judged=self.rel >= 0))
            return rank(*judged, merge=True)

        return self.cached("judged", ranked)

    def retrieved(self):
        """(query index, 0-based rank, qrels value) of every retrieved row,
        in query order then rank order."""
        def rows_of():
            codes = np.repeat(np.arange(len(self.qids)), np.diff(self.offsets))
            rows = np.flatnonzero(np.isfinite(self.y_score))
            code = codes[rows]
            return code, rows - self.offsets[code], self.rel[rows]

        return self.cached("retrieved", rows_of)

    def per_query_sum(self, code, weights):
        """Sum of ``weights`` per query (``code``: the query index of each)."""
        return np.bincount(code, weights=weights, minlength=len(self.qids))


def _flatten(nested, qids):
    """``{query: {docno: value}}`` over ``qids`` -> (query index, ids,
    values), query by query (reading the mappings: one pass over them)."""
    per_query = [nested.get(q, {}) for q in qids]
    sizes = np.fromiter(map(len, per_query), dtype=np.int64, count=len(qids))
    ids = [d for docs in per_query for d in docs]
    values = [v for docs in per_query for v in docs.values()]
    docs = np.empty(len(ids), dtype=object)  # the str objects, not copied
    docs[:] = ids
    return (np.repeat(np.arange(len(qids)), sizes), docs,
            np.asarray(values, dtype=np.float64))


def _segment_rank(code):
    """0-based position of each row within its run of equal ``code``
    (sorted)."""
    n = code.shape[0]
    start = np.searchsorted(code, code, side="left")
    return np.arange(n) - start


def build_arrays(qrels, run, *, relevance_level=1, max_docs=None, complete=False,
                 run_id=None, judged_only=False):
    """Long-layout arrays of a run against qrels, as trec_eval ranks it.

    Parameters
    ----------
    qrels : dict
        ``{query: {document: relevance}}`` (:func:`read_qrels`).
    run : dict
        ``{query: {document: score}}`` (:func:`read_run`).
    relevance_level : int, default=1
        Smallest relevance counted as relevant by binary measures (``-l``).
    max_docs : int, default=None
        Keep the first ``max_docs`` documents of each query (``-M``).
    complete : bool, default=False
        Evaluate every judged query, those missing from the run retrieving
        nothing (``-c``); otherwise the queries of the run that are judged.
    run_id : str, default=None
        Stored on the result.
    judged_only : bool, default=False
        Remove the retrieved documents that are not judged (absent from the
        qrels or judged with a negative value) before ranking, after
        ``max_docs`` (``-J``, as trec_eval).

    Returns
    -------
    arrays : TrecArrays

    Raises
    ------
    TrecError
        If no query is left to evaluate.
    """
    qids = sorted(qrels) if complete else sorted(set(qrels) & set(run))
    if not qids:
        raise TrecError("no query of the run has judgments in the qrels: "
                        "nothing to evaluate")
    n_q = len(qids)
    r_q, r_doc, r_score = _flatten(run, qids)
    j_q, j_doc, j_rel = _flatten(qrels, qids)
    j_rel = j_rel.astype(np.int64)
    # one code per (query, document) pair, over both inputs
    all_ids = np.concatenate([r_doc, j_doc])
    codes = docno_codes(all_ids)
    n_docs = int(codes.max()) + 1 if codes.shape[0] else 1
    # the document id of each code (the rows' ids, for the grades per intent)
    id_of = np.empty(n_docs, dtype=all_ids.dtype)
    id_of[codes] = all_ids
    r_code, j_code = codes[:r_doc.shape[0]], codes[r_doc.shape[0]:]
    # the retrieved documents in trec_eval's order, cut at max_docs
    order = docno_order(r_score, r_code, r_q)
    r_q, r_code = r_q[order], r_code[order]
    keep = (_segment_rank(r_q) < max_docs if max_docs is not None
            else np.ones(r_q.shape[0], dtype=bool))
    r_q, r_code = r_q[keep], r_code[keep]
    # each retrieved row's judgment (the qrels' pairs are distinct)
    j_key = j_q * n_docs + j_code
    j_sort = np.argsort(j_key, kind="stable")
    r_key = r_q * n_docs + r_code
    at = np.minimum(np.searchsorted(j_key[j_sort], r_key), max(len(j_key) - 1, 0))
    found = (j_key[j_sort][at] == r_key) if len(j_key) else np.zeros(
        r_key.shape[0], dtype=bool)
    judged_value = np.where(found, j_rel[j_sort][at] if len(j_key) else 0, 0)
    r_rel = np.where(found, np.where(judged_value < 0, UNJUDGED, judged_value),
                     NONPOOL)
    if judged_only:
        judged = found & (judged_value >= 0)
        r_q, r_rel, found, at = r_q[judged], r_rel[judged], found[judged], at[judged]
        r_code = r_code[judged]
    num_ret = np.bincount(r_q, minlength=n_q).astype(np.int64)
    # the judged documents not retrieved (or cut): in j_sort's order, by
    # query then document id
    missing = np.ones(j_key.shape[0], dtype=bool)
    missing[j_sort[at[found]]] = False
    m_rows = j_sort[missing[j_sort]]
    m_q, m_rel = j_q[m_rows], j_rel[m_rows]
    # a query's retrieved rows in rank order, then its missing ones: each
    # row's place from its query's offset (no sort)
    sizes = num_ret + np.bincount(m_q, minlength=n_q)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    r_rank = _segment_rank(r_q)
    r_at = offsets[r_q] + r_rank
    m_at = offsets[m_q] + num_ret[m_q] + _segment_rank(m_q)
    rel = np.empty(offsets[-1], dtype=np.int64)
    rel[r_at], rel[m_at] = r_rel, m_rel
    doc = np.empty(offsets[-1], dtype=np.int64)  # each row's document code
    doc[r_at], doc[m_at] = r_code, j_code[m_rows]
    retrieved = np.zeros(offsets[-1], dtype=bool)
    retrieved[r_at] = True
    y_score = np.full(offsets[-1], -np.inf)
    y_score[r_at] = num_ret[r_q] - r_rank
    codes = np.repeat(np.arange(n_q), sizes)
    y_bin = (rel >= relevance_level).astype(np.int64)
    return TrecArrays(
        qids=np.asarray(qids),
        groups=np.asarray(qids)[codes],
        y_bin=y_bin,
        y_gain=np.clip(rel, 0, None),
        y_score=y_score,
        offsets=offsets,
        num_ret=num_ret,
        num_rel=np.bincount(codes, weights=y_bin, minlength=len(qids)).astype(
            np.int64),
        num_rel_ret=np.bincount(codes, weights=y_bin * retrieved,
                                minlength=len(qids)).astype(np.int64),
        run_id=run_id,
        rel=rel,
        relevance_level=relevance_level,
        complete=complete,
        judged_only=judged_only,
        docno=id_of[doc],
    )


def align_runs(qrels, runs, qids):
    """Several runs against qrels as aligned long-layout arrays, one grouped
    pass (``rankeval compare``): ``(groups, relevance, [scores of each run])``.

    The rows of query ``q`` (of ``qids``, sorted) are its judged documents
    and every document a run retrieved for it, in document id order; the
    relevance is the qrels grade (unjudged or negative: 0); a run scores the
    documents it retrieved by their place in trec_eval's order (distinct,
    decreasing: the engine's :func:`~sklearn_rankeval._engine.docno_order`),
    the others ``-inf`` (unretrieved).
    """
    j_q, j_doc, j_rel = _flatten(qrels, qids)
    flat = [_flatten(run, qids) for run in runs]
    # one code per document id over the qrels and every run (sorted order)
    codes = docno_codes(np.concatenate([j_doc, *(doc for _, doc, _ in flat)]))
    n_docs = int(codes.max()) + 1 if codes.shape[0] else 1
    keys = np.concatenate([j_q, *(q for q, _, _ in flat)]) * n_docs + codes
    rows = np.sort(keys)  # the (query, document) pairs, in that order
    rows = rows[np.concatenate([[True], rows[1:] != rows[:-1]])]
    relevance = np.zeros(rows.shape[0])
    relevance[np.searchsorted(rows, keys[:j_q.shape[0]])] = np.maximum(j_rel, 0)
    scores, at = [], j_q.shape[0]
    for r_q, _, r_score in flat:  # (a loop over the runs, not the queries)
        r_key, r_code = keys[at:at + r_q.shape[0]], codes[at:at + r_q.shape[0]]
        at += r_q.shape[0]
        order = docno_order(r_score, r_code, r_q)
        ranked_q = r_q[order]
        column = np.full(rows.shape[0], -np.inf)
        column[np.searchsorted(rows, r_key[order])] = (
            np.bincount(r_q, minlength=len(qids))[ranked_q]
            - _segment_rank(ranked_q))
        scores.append(column)
    return np.asarray(qids)[rows // n_docs], relevance, scores
