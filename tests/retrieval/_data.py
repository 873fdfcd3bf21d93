"""Runs and qrels with what retrieval data holds: tied scores, repeated
documents, documents whose id is the query's, real-valued labels, queries
without results, queries without judgments and queries without a relevant
document."""

import numpy as np
import pandas as pd


def make_retrieval(seed=0, n_queries=12, n_docs=15, *, integer=False,
                   repeats=True, self_ids=True, int_ids=False):
    """``(run, qrels)`` as DataFrames (and their rows as lists of tuples)."""
    rng = np.random.default_rng(seed)
    queries = [f"q{i}" for i in range(n_queries)]
    docs = [f"d{j:02d}" for j in range(n_docs)]
    run, qrels = [], []
    for i, q in enumerate(queries):
        if i == 0:  # judged, never retrieved
            pass
        else:
            n = int(rng.integers(1, 10))
            for d in rng.choice(docs, size=n, replace=False):
                # coarse scores: ties
                run.append((q, str(d), float(rng.integers(0, 4))))
            if repeats and i % 4 == 1:  # a document retrieved twice
                run.append((q, run[-1][1], float(rng.integers(0, 4))))
            if self_ids and i % 3 == 2:  # the query's own id
                run.append((q, q, 5.0))
        if i == n_queries - 1:  # retrieved, never judged
            continue
        m = int(rng.integers(1, 7))
        for d in rng.choice(docs, size=m, replace=False):
            label = (float(rng.integers(0, 3)) if integer
                     else float(np.round(rng.uniform(0, 3), 2)))
            if i == 2:  # no relevant document
                label = 0.0
            qrels.append((q, str(d), label))
        if self_ids and i % 3 == 2:
            qrels.append((q, q, 1.0 if integer else 0.5))
    if int_ids:
        q_code = {q: i for i, q in enumerate(queries)}
        d_code = {d: 100 + j for j, d in enumerate(docs)}
        d_code.update({q: i for q, i in q_code.items()})
        run = [(q_code[q], d_code[d], s) for q, d, s in run]
        qrels = [(q_code[q], d_code[d], y) for q, d, y in qrels]
    run_frame = pd.DataFrame(run, columns=["query_id", "doc_id", "score"])
    qrels_frame = pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"])
    return run_frame, qrels_frame, run, qrels
