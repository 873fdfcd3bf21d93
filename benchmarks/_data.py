"""The workloads' rows (fixed seeds), shared by every script and by asv.

* :func:`click_log` -- W1: users of 1-100 impressions (mean ~10), rows
  shuffled, ~10% clicks, scores rounded to 4 decimals (many ties);
* :func:`retrieval_run` -- W2: queries x documents, graded relevance 0-3
  (~5% relevant), continuous scores (no ties);
* :func:`multiclass` -- W3: softmax probabilities, the true class boosted;
* :func:`w2_pytrec` -- W2 of 20,000 x 100 with pytrec_eval's dicts and
  evaluator of the five metrics;
* :func:`string_ids` -- 2M rows of 200k users with int and object-string ids;
* :func:`trec_dicts` -- qrels and TREC runs as ``read_qrels`` / ``read_run``
  give them (``{query: {document: value}}``).
"""

import numpy as np

__all__ = ["W2_METRICS", "CTR_METRICS", "click_log", "multiclass", "retrieval_run",
           "string_ids", "trec_dicts", "w2_pytrec"]

#: The five metrics of W2 (beside pytrec_eval's).
W2_METRICS = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]
#: The CTR report.
CTR_METRICS = ["log_loss", "ne", "pcoc", "ece"]


def click_log(n_users, seed=0):
    """W1: ``(y_true, y_score, groups)`` of ``n_users`` users (about 10 rows
    each), rows shuffled."""
    rng = np.random.default_rng(seed)
    sizes = np.clip(rng.geometric(0.1, n_users), 1, 100)
    groups = np.repeat(np.arange(n_users), sizes)
    n = groups.shape[0]
    user_rate = rng.normal(size=n_users)[groups]
    logit = user_rate + rng.normal(size=n)
    y_score = np.round(1 / (1 + np.exp(-logit)), 4)
    y_true = (rng.random(n) < 0.2 * y_score).astype(np.int8)
    order = rng.permutation(n)
    return y_true[order], y_score[order], groups[order]


def retrieval_run(n_queries, n_docs=100, seed=1):
    """W2: ``(Y, S)``, graded relevance 0-3 (~5% relevant), no ties."""
    rng = np.random.default_rng(seed)
    relevant = rng.random((n_queries, n_docs)) < 0.05
    Y = np.where(relevant, rng.integers(1, 4, (n_queries, n_docs)), 0).astype(np.int64)
    S = rng.random((n_queries, n_docs)) + 0.3 * Y
    return Y, S


def multiclass(n_samples, n_classes=100, seed=2):
    """W3: ``(y, P)``, softmax probabilities, the true class boosted."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n_samples)
    logits = rng.normal(size=(n_samples, n_classes))
    logits[np.arange(n_samples), y] += 1.5
    P = np.exp(logits)
    P /= P.sum(axis=1, keepdims=True)
    return y, P


def w2_pytrec(n_queries=20_000):
    """``(Y, S, y, s, g, qrel, run, ev)``: W2's rows flattened and grouped,
    and pytrec_eval's dicts and evaluator of the five metrics."""
    import pytrec_eval

    Y, S = retrieval_run(n_queries)
    n_q, n_d = Y.shape
    y, s, g = Y.ravel(), S.ravel(), np.repeat(np.arange(n_q), n_d)
    qrel = {f"q{q}": {f"d{d}": int(Y[q, d]) for d in np.flatnonzero(Y[q])}
            for q in range(n_q)}
    run = {f"q{q}": {f"d{d}": float(S[q, d]) for d in range(n_d)}
           for q in range(n_q)}
    ev = pytrec_eval.RelevanceEvaluator(
        qrel, {"map", "recip_rank", "ndcg_cut.10", "P.10", "recall.10"})
    return Y, S, y, s, g, qrel, run, ev


def string_ids(n=2_000_000, n_users=200_000, n_fresh=0, seed=0):
    """``(int ids, y, s, object-string ids, fresh)``: ``fresh`` holds
    ``n_fresh`` new arrays of the same strings (hashed anew by each call)."""
    rng = np.random.default_rng(seed)
    gi = rng.integers(0, n_users, n)
    y = (rng.random(n) < 0.1).astype(np.int8)
    s = np.round(rng.random(n), 3)
    names = np.array([f"user{i:07d}" for i in range(n_users)], dtype=object)
    go = names[gi]
    return gi, y, s, go, [go.copy() for _ in range(n_fresh)]


def click_log_lean(n_rows, seed=0, block=4_000_000):
    """W1's rows at any size in about its input's bytes (int64 ids, float64
    scores, int8 clicks): users of 1-100 rows (mean ~10), the ids shuffled in
    place, then each row's score and click drawn in blocks (the same
    distribution as :func:`click_log`, other draws)."""
    rng = np.random.default_rng(seed)
    sizes = np.clip(rng.geometric(0.1, n_rows // 8 + 100), 1, 100)
    n_users = int(np.searchsorted(np.cumsum(sizes), n_rows)) + 1
    sizes = sizes[:n_users]
    sizes[-1] -= int(sizes.sum()) - n_rows
    groups = np.repeat(np.arange(n_users, dtype=np.int64), sizes)
    rng.shuffle(groups)
    user_rate = rng.normal(size=n_users)
    y_score = np.empty(groups.shape[0])
    y_true = np.empty(groups.shape[0], dtype=np.int8)
    for a in range(0, groups.shape[0], block):
        g = groups[a:a + block]
        logit = user_rate[g] + rng.normal(size=g.shape[0])
        y_score[a:a + block] = np.round(1 / (1 + np.exp(-logit)), 4)
        y_true[a:a + block] = rng.random(g.shape[0]) < 0.2 * y_score[a:a + block]
    return y_true, y_score, groups


def trec_dicts(n_queries, n_docs=100, n_runs=3, seed=0):
    """``(qrels, runs)``: each query retrieves ``n_docs`` documents (ids
    ``doc<N>`` drawn from 100,000; scores rounded to 2 decimals: ties), 30
    judged documents per query (grades 0-2), 10 of them retrieved by no run."""
    rng = np.random.default_rng(seed)
    qrels, runs = {}, [{} for _ in range(n_runs)]
    for q in range(n_queries):
        docs = [f"doc{d}" for d in rng.choice(100_000, n_docs + 10,
                                              replace=False)]
        qid = f"q{q}"
        judged = rng.choice(n_docs + 10, 30, replace=False)
        qrels[qid] = {docs[i]: int(rng.integers(0, 3)) for i in judged}
        for run in runs:
            run[qid] = dict(zip(docs[:n_docs], np.round(
                rng.normal(size=n_docs), 2).tolist()))
    return qrels, runs
