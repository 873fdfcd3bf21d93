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

from ..._engine import rank_groups
from ..._metrics import drop_unjudged

__all__ = ["NONPOOL", "UNJUDGED", "TrecArrays", "TrecError", "build_arrays",
           "segment_cumsum", "trec_order"]

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
        def rank():
            y, s, g, _ = drop_unjudged(self.y_bin, self.y_score, self.groups, None,
                                       self.rel >= 0)
            return rank_groups(y, s, groups=g)

        return self.cached("judged", rank)

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


def trec_order(docs):
    """Document ids of ``{docno: score}`` in trec_eval's order.

    Score descending, ties by document id descending (``strcmp`` order,
    which is Python's code point order on UTF-8 text).
    """
    order = sorted(docs, reverse=True)
    order.sort(key=docs.__getitem__, reverse=True)  # stable: ties keep docno desc
    return order


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
    rel, score, sizes = [], [], []
    num_ret = np.empty(len(qids), dtype=np.int64)
    for i, q in enumerate(qids):
        judged = qrels[q]
        ranked = trec_order(run.get(q, {}))[:max_docs]
        if judged_only:
            ranked = [d for d in ranked if judged.get(d, -1) >= 0]
        n = len(ranked)
        rel += [UNJUDGED if judged.get(d, 0) < 0 else judged.get(d, NONPOOL)
                for d in ranked]
        missing = sorted(judged.keys() - set(ranked))
        rel += [judged[d] for d in missing]
        score.append(np.arange(n, 0, -1, dtype=np.float64))
        score.append(np.full(len(missing), -np.inf))
        sizes.append(n + len(missing))
        num_ret[i] = n
    rel = np.asarray(rel, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    y_bin = (rel >= relevance_level).astype(np.int64)
    y_score = np.concatenate(score)
    codes = np.repeat(np.arange(len(qids)), sizes)
    retrieved = np.isfinite(y_score)
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
    )
