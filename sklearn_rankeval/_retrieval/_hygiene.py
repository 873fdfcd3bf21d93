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

import numpy as np

from .._core import InvalidArgumentError
from ._frames import encode_ids, id_kind

__all__ = ["Layout", "build_layout", "tie_free"]


@dataclass
class Layout:
    """The long layout of a run against its qrels (one row per document).

    ``qrow``: the qrels row of each row's judgment (-1: unjudged);
    ``doc``: the document's code; ``position``: the run row it came from
    (the tie order ``"input"``); ``queries``: the ids by query code;
    ``judged_query`` / ``run_query``: whether each query code has qrels /
    results; ``pooled``: whether each row's document is judged for any
    query; ``doc_ids``: the document ids by code.
    """

    score: np.ndarray
    groups: np.ndarray
    qrow: np.ndarray
    doc: np.ndarray
    position: np.ndarray
    retrieved: np.ndarray
    queries: np.ndarray
    judged_query: np.ndarray
    run_query: np.ndarray
    pooled: np.ndarray
    doc_ids: np.ndarray
    repeated: bool = False

    @property
    def judged(self):
        return self.qrow >= 0

    def take(self, keep):
        """The layout of the rows ``keep`` (a mask or index)."""
        fields = ("score", "groups", "qrow", "doc", "position", "retrieved",
                  "pooled")
        return Layout(**{**self.__dict__,
                         **{f: getattr(self, f)[keep] for f in fields}})


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


def build_layout(frames, *, exclude_self=False, doc_ids=None, aggregate=None,
                 duplicates="first", unjudged="zero", queries=("judged",)):
    """The :class:`Layout` of the run against the qrels after the hygiene
    steps of the module's docstring, and the qrels rows kept (``(layout,
    kept qrels rows)``).  ``queries``: the query sets the metrics average
    over (``"judged"``, ``"qrels"``, ``"run"``); the layout holds their union.
    """
    run_d = frames.run_d
    chunk_pos = None
    if doc_ids is not None:
        run_d, chunk_pos = _chunks_to_docs(frames, doc_ids)
    score, position = frames.score, np.arange(len(frames.score))
    (run_q, qrels_q), queries_ids = encode_ids(frames.run_q, frames.qrels_q)
    (run_doc, qrels_doc), doc_uniques = encode_ids(run_d, frames.qrels_d)
    n_q, n_d = len(queries_ids), max(len(doc_uniques), 1)
    if exclude_self and frames.query_kind == frames.doc_kind and len(run_q):
        keep = frames.run_q != run_d
        run_q, run_doc, score, position = (run_q[keep], run_doc[keep],
                                           score[keep], position[keep])
        chunk_pos = None if chunk_pos is None else chunk_pos[keep]
    # qrels: one label per pair
    qkey = qrels_q * n_d + qrels_doc
    kept = _check_qrels(qkey, frames.labels, frames)
    qkey, qrels_q, qrels_doc = qkey[kept], qrels_q[kept], qrels_doc[kept]
    # the run: one row per (query, document)
    rkey = run_q * n_d + run_doc
    repeated = _has_repeats(rkey)
    if doc_ids is not None or repeated:
        rkey, run_q, run_doc, score, position = _one_row_per_doc(
            rkey, run_q, run_doc, score, position, chunk_pos, aggregate,
            duplicates, frames, doc_uniques, queries_ids)
    import pandas as pd

    qrow = pd.Index(qkey).get_indexer(rkey) if len(qkey) else np.full(
        len(rkey), -1)
    qrow = qrow.astype(np.int64, copy=False)
    # a query of the run stays one when its unjudged documents are dropped
    judged_query = np.bincount(qrels_q, minlength=n_q) > 0
    run_query = np.bincount(run_q, minlength=n_q) > 0
    if unjudged == "drop":
        keep = qrow >= 0
        run_q, run_doc, score, position, qrow, rkey = (
            run_q[keep], run_doc[keep], score[keep], position[keep], qrow[keep],
            rkey[keep])
    evaluated = np.zeros(n_q, dtype=bool)
    for which in queries:
        evaluated |= {"judged": judged_query & run_query, "qrels": judged_query,
                      "run": run_query}[which]
    rows = evaluated[run_q]
    # relevant documents of the evaluated queries that the run lacks
    retrieved_qrels = np.zeros(len(qkey), dtype=bool)
    retrieved_qrels[qrow[qrow >= 0]] = True
    flat = frames.labels[kept].reshape(len(kept), -1)
    missing = np.flatnonzero(~retrieved_qrels & evaluated[qrels_q]
                             & (flat > 0).any(axis=1))
    # queries left without a row keep a placeholder
    has_row = np.bincount(np.r_[run_q[rows], qrels_q[missing]],
                          minlength=n_q) > 0
    empty = np.flatnonzero(evaluated & ~has_row)
    n_run = int(rows.sum())
    pooled_docs = np.zeros(n_d, dtype=bool)
    pooled_docs[qrels_doc] = True
    doc = np.r_[run_doc[rows], qrels_doc[missing],
                np.zeros(len(empty), dtype=np.int64)]
    layout = Layout(
        score=np.r_[score[rows], np.full(len(missing) + len(empty), -np.inf)],
        groups=np.r_[run_q[rows], qrels_q[missing], empty],
        qrow=np.r_[qrow[rows], missing, np.full(len(empty), -1)],
        doc=doc,
        position=np.r_[position[rows], np.full(len(missing) + len(empty),
                                               len(frames.score))],
        retrieved=np.r_[np.ones(n_run, dtype=bool),
                        np.zeros(len(missing) + len(empty), dtype=bool)],
        queries=queries_ids, judged_query=judged_query, run_query=run_query,
        pooled=np.r_[pooled_docs[run_doc[rows]],
                     np.ones(len(missing), dtype=bool),
                     np.zeros(len(empty), dtype=bool)],
        doc_ids=doc_uniques, repeated=repeated and doc_ids is None)
    return layout, kept


def _has_repeats(key):
    import pandas as pd

    return bool(len(key)) and not pd.Index(key).is_unique


def _one_row_per_doc(rkey, run_q, run_doc, score, position, chunk_pos,
                     aggregate, duplicates, frames, doc_uniques, queries_ids):
    """One row per (query, document): chunks aggregated, repeats resolved."""
    if chunk_pos is None:
        if duplicates == "error":
            import pandas as pd

            i = int(np.flatnonzero(pd.Series(rkey).duplicated().to_numpy())[0])
            raise InvalidArgumentError(
                "run", f"lists document {doc_uniques[run_doc[i]]!r} twice for "
                       f"query {queries_ids[run_q[i]]!r}: a document counts "
                       f"once per query (pass duplicates='first' to keep its "
                       f"best rank).")
        aggregate = "max"
    if aggregate == "first":
        order, start = _first_of_blocks(rkey, chunk_pos)
    else:  # the best-ranked row first: the highest score, then the input order
        order, start = _first_of_blocks(rkey, -score, position)
    first = order[start]
    new_score = (np.add.reduceat(score[order], start) if aggregate == "sum"
                 else score[first])
    # back to the input order of each document's best row
    back = np.argsort(position[first], kind="stable")
    first = first[back]
    return (rkey[first], run_q[first], run_doc[first], new_score[back],
            position[first])


def tie_free(layout, ties):
    """Scores that order each query's documents as ``ties`` breaks ties.

    ``"docno"``: score, then decreasing document id as trec_eval compares
    them (``strcmp`` of the ids' text, code point order); ``"input"``:
    score, then the run's row order; ``"expected"``: the scores as they are.
    Unretrieved rows stay ``-inf``.
    """
    if ties == "expected":
        return layout.score
    if ties == "docno":
        text = layout.doc_ids.astype(str)
        rank = np.empty(len(text), dtype=np.int64)
        rank[np.argsort(text, kind="stable")] = np.arange(len(text))
        second = -rank[layout.doc]
    else:
        second = layout.position
    order = np.lexsort((second, -layout.score))
    out = np.empty(len(order), dtype=np.float64)
    out[order] = np.arange(len(order), 0, -1, dtype=np.float64)
    out[~layout.retrieved] = -np.inf
    return out
