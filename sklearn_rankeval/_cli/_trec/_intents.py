"""ndeval's qrels (a subtopic per line) for the diversity measures of
``rankeval trec``.

ndeval (TREC Web 2009-2014) reads qrels whose second column is the subtopic
a line judges the document for.  :func:`collapse` gives trec_eval's qrels of
them (each document's largest grade over its subtopics: what the other
measures read), and :func:`with_intents` the grade of each row of a run's
arrays for each subtopic of its query, numbered within the query (column
``j`` of a query: its ``j``-th subtopic in sorted order; a query with fewer
subtopics has zero columns, which no measure counts: an intent without a
relevant document is left out, as ndeval leaves it out).  The measures are
the registry's diversity metrics, by their names or ir_measures' names
(:func:`diversity_measure`), computed on those grades and the run ranked as
trec_eval ranks it (ties by decreasing document id, as ndeval's
``-traditional``).
"""

import dataclasses

import numpy as np

from ..._engine import docno_codes
from ..._metrics import evaluate, parse_metrics

__all__ = ["collapse", "diversity_measure", "with_intents"]


def collapse(qrels):
    """``{query: {document: {subtopic: grade}}}`` -> ``{query: {document:
    largest grade}}`` (trec_eval's qrels of ndeval's)."""
    return {q: {d: max(grades.values()) for d, grades in docs.items()}
            for q, docs in qrels.items()}


def with_intents(arrays, qrels):
    """``arrays`` with the grade of each row for each subtopic of its query
    (``arrays.intents``, float64 ``(n_rows, max subtopics of a query)``;
    negative grades, ndeval's and trec_eval's "unjudged", count 0)."""
    qids = arrays.qids
    index = {q: i for i, q in enumerate(qids)}
    lines = [(index[q], d, t, g) for q, docs in qrels.items() if q in index
             for d, grades in docs.items() for t, g in grades.items()]
    n_rows = arrays.groups.shape[0]
    if not lines:
        return dataclasses.replace(arrays, intents=np.zeros((n_rows, 1)))
    q, doc, topic, grade = (np.asarray(c) for c in zip(*lines))
    # the subtopics of each query, numbered 0.. in sorted order
    t_code = docno_codes(topic.astype(str))
    pair = q * (int(t_code.max()) + 1) + t_code
    first = np.unique(pair)
    column = np.searchsorted(first, pair) - np.searchsorted(first // (
        int(t_code.max()) + 1), q)
    # each line's row: the row of its (query, document)
    codes = docno_codes(np.concatenate([arrays.docno.astype(str),
                                        doc.astype(str)]))
    n_docs = int(codes.max()) + 1
    row_q = np.repeat(np.arange(len(qids)), np.diff(arrays.offsets))
    row_key = row_q * n_docs + codes[:n_rows]
    line_key = q * n_docs + codes[n_rows:]
    order = np.argsort(row_key, kind="stable")
    at = np.minimum(np.searchsorted(row_key[order], line_key), n_rows - 1)
    found = row_key[order][at] == line_key
    grades = np.zeros((n_rows, int(column.max()) + 1))
    grades[order[at[found]], column[found]] = np.maximum(grade[found], 0)
    return dataclasses.replace(arrays, intents=grades)


def diversity_measure(spec):
    """The ``rankeval trec`` measure of a diversity metric name (the
    registry's, ``"alpha_ndcg@20"``, or ir_measures', ``"alpha_nDCG@20"``,
    ``"ERR_IA@20"``, ``"NRBP"``, ``"P_IA@10"``, ``"StRecall@10"``), or None
    if ``spec`` names no diversity metric: ``measure(arrays, params,
    options) -> ndarray (1, n_queries)``, a query without a relevant
    document scoring 0 (as trec_eval and ndeval count it)."""
    try:
        parsed = parse_metrics([spec])
    except (ValueError, TypeError):
        return None
    if "intent_grades" not in parsed[0][1].columns:
        return None

    def measure(arrays, params, opts):
        _, parts, _ = evaluate(arrays.intents, arrays.y_score,
                               groups=arrays.groups, metrics=parsed)
        part = parts[spec]
        values = np.where(np.asarray(part.defined), np.asarray(part.value), 0.0)
        return values.reshape(1, -1)

    return measure
