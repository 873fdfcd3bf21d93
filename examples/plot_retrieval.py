"""
=====================================================
Evaluating the retriever of a RAG pipeline
=====================================================

The retriever of a retrieval-augmented generation (RAG) pipeline returns
*chunks* of documents, while the judgments (here from an LLM judge, sampled
three times) are of *documents*.
:func:`~sklearn_rankeval.retrieval_report` maps the chunks to their
documents, gives each harness's number by name (trec_eval, BEIR, MTEB,
LlamaIndex, Ragas), and with several judge samples per document reports the
expected nDCG over the judges' uncertainty with an interval for the judge
noise beside the usual bootstrap interval over queries.
"""

# %%
# A corpus of chunked documents, two retrievers and an LLM judge
# --------------------------------------------------------------
# 150 queries; each has 2-6 documents of true grade 1-3 in a corpus of
# 3,000 documents of 3 chunks each.  The judge gives each judged document a
# grade three times, each off by one grade now and then.  Retriever A
# scores a chunk by its document's grade plus noise, retriever B with more
# noise; each returns its top 30 chunks.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sklearn_rankeval import retrieval_report

rng = np.random.default_rng(0)
n_queries, n_docs, n_chunks, top = 150, 3000, 3, 30
judgments, grades = [], {}
for q in range(n_queries):
    for d in rng.choice(n_docs, size=rng.integers(2, 7), replace=False):
        grade = int(rng.integers(1, 4))
        grades[q, d] = grade
        samples = np.clip(grade + rng.choice([-1, 0, 0, 0, 1], size=3), 0, 3)
        judgments.append((f"q{q}", f"doc{d}", *samples))
qrels = pd.DataFrame(judgments, columns=["query_id", "doc_id", "llm_1",
                                         "llm_2", "llm_3"])
qrels["relevance"] = qrels[["llm_1", "llm_2", "llm_3"]].mean(axis=1)


def retrieve(noise):
    rows = []
    for q in range(n_queries):
        # the query's relevant documents and 200 others, every chunk scored
        docs = np.r_[[d for (qq, d) in grades if qq == q],
                     rng.choice(n_docs, 200, replace=False)]
        gain = np.array([grades.get((q, d), 0) for d in docs], dtype=float)
        jitter = rng.standard_normal((len(docs), n_chunks))
        scores = gain[:, None] + noise * jitter
        best = np.argsort(-scores, axis=None)[:top]
        d, c = np.unravel_index(best, scores.shape)
        rows += [(f"q{q}", f"doc{docs[i]}#{j}", scores[i, j])
                 for i, j in zip(d, c)]
    return pd.DataFrame(rows, columns=["query_id", "doc_id", "score"])


runs = {"A": retrieve(noise=1.0), "B": retrieve(noise=2.0)}
chunk_of = {f"doc{d}#{c}": f"doc{d}" for d in range(n_docs)
            for c in range(n_chunks)}

# %%
# Chunks to documents: MaxP, FirstP, SumP
# ---------------------------------------
# A document's score is its best chunk's (``"max"``), its first chunk's
# (``"first"``, in the mapping's order) or the sum of its retrieved chunks'
# (``"sum"``).  Without ``doc_ids`` the chunks would simply never match a
# judged document.
for aggregate in ("max", "first", "sum"):
    report = retrieval_report(runs["A"], qrels,
                              metrics=["ndcg@10", "recall@10"],
                              doc_ids=chunk_of, aggregate=aggregate)
    print(f"{aggregate:5s}", {k: round(v, 4) for k, v in report.items()})

# %%
# One run, each harness's number
# ------------------------------
# The same documents under each harness's rules: trec_eval, BEIR and MTEB read
# integer labels only, so they get the rounded mean grade; LlamaIndex and
# Ragas count a document as relevant when its grade is above 0.
qrels_int = qrels.assign(relevance=qrels["relevance"].round().astype(int))
for convention, metrics in [(None, ["ndcg@10", "mrr@10"]),
                            ("trec_eval", ["ndcg@10", "RR"]),
                            ("beir", ["ndcg@10", "mrr@10"]),
                            ("mteb", ["ndcg@10", "mrr@10"]),
                            ("llamaindex", ["ndcg@10", "mrr@10"]),
                            ("ragas", ["id_based_context_recall@10"])]:
    report = retrieval_report(runs["A"], qrels_int, metrics=metrics,
                              convention=convention, doc_ids=chunk_of)
    rounded = {k: round(v, 4) for k, v in report.items()}
    print(f"{str(convention):10s}", rounded)

# %%
# The judges' uncertainty beside the queries'
# -------------------------------------------
# With ``judges=`` each judged document's grade is drawn from its three
# samples: the value is nDCG@10's expected value over those draws, the
# judge interval its central 90% over them, and ``confidence`` adds the
# bootstrap interval over queries.  Here the judges' noise moves nDCG@10
# far less than the choice of queries does.
results = {
    name: retrieval_report(run, qrels, metrics=["ndcg@10"], doc_ids=chunk_of,
                           judges=["llm_1", "llm_2", "llm_3"], n_draws=100,
                           confidence=0.9, random_state=0)["ndcg@10"]
    for name, run in runs.items()}
fig, ax = plt.subplots(figsize=(6, 3.5))
for i, (_name, r) in enumerate(results.items()):
    ax.errorbar(i - 0.08, r["value"], yerr=[[r["value"] - r["judge_low"]],
                                            [r["judge_high"] - r["value"]]],
                fmt="o", color="C0", capsize=6,
                label="judge noise (90%)" if i == 0 else None)
    ax.errorbar(i + 0.08, r["value"], yerr=[[r["value"] - r["ci_low"]],
                                            [r["ci_high"] - r["value"]]],
                fmt="s", color="C1", capsize=6,
                label="queries, bootstrap (90%)" if i == 0 else None)
ax.set_xticks(range(len(results)), [f"retriever {n}" for n in results])
ax.set_xlim(-0.5, len(results) - 0.5)
ax.set_ylabel("expected nDCG@10")
ax.set_title("nDCG@10 over three LLM judgments per document")
ax.legend(loc="lower left")
fig.tight_layout()
plt.show()
