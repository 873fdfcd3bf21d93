"""convention=: each harness's number, against its rules written plainly
from its source (tests/_reference.py), so that CI checks every preset
without the tools; tests/retrieval/test_peers.py checks the same against
the installed tools."""

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import retrieval_report
from sklearn_rankeval._core import InvalidArgumentError
from tests import _reference as ref
from tests.retrieval._data import make_retrieval

SEEDS = [0, 1, 2]
TREC = [("ndcg@5", "ndcg_cut", 5), ("ndcg@10", "ndcg_cut", 10),
        ("nDCG@3", "ndcg_cut", 3), ("AP@10", "map_cut", 10),
        ("recall@3", "recall", 3), ("precision@5", "P", 5),
        ("RR", "recip_rank", None), ("success@2", "success", 2)]


def _judged_run(seed, **kwargs):
    """A run whose every query is judged (BEIR's and mteb's MRR read
    qrels[query] for each query of the run)."""
    run, qrels, run_rows, qrels_rows = make_retrieval(seed, integer=True,
                                                      **kwargs)
    judged = set(qrels["query_id"])
    run = run[run["query_id"].isin(judged)]
    run_rows = [r for r in run_rows if r[0] in judged]
    return run, qrels, run_rows, qrels_rows


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("complete", [False, True])
def test_trec_eval(seed, complete):
    run, qrels, run_rows, qrels_rows = make_retrieval(seed, integer=True)
    got = retrieval_report(run, qrels, metrics=[m for m, _, _ in TREC],
                           convention="trec_eval", complete=complete)
    for name, measure, k in TREC:
        want = ref.trec_eval_mean(run_rows, qrels_rows, measure, k,
                                  complete=complete)
        assert got[name] == pytest.approx(want, abs=1e-12), name


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("exclude_self", [None, False])
def test_beir(seed, exclude_self):
    run, qrels, run_rows, qrels_rows = _judged_run(seed)
    ignore = exclude_self is None  # BEIR's default: ignore_identical_ids=True
    names = ["ndcg@3", "ndcg@10", "map@5", "recall@5", "precision@3",
             "mrr@10", "mrr@2", "hole@5"]
    got = retrieval_report(run, qrels, metrics=names, convention="beir",
                           exclude_self=exclude_self)
    measures = {"ndcg": "ndcg_cut", "map": "map_cut", "recall": "recall",
                "precision": "P"}
    for name in names:
        base, k = name.split("@")
        if base == "mrr":
            want = ref.beir_mrr(run_rows, qrels_rows, int(k), ignore)
        elif base == "hole":
            want = ref.beir_hole(run_rows, qrels_rows, int(k), ignore)
        else:
            want = ref.beir_evaluate(run_rows, qrels_rows, measures[base],
                                     int(k), ignore)
        assert got[name] == want, name  # both rounded to 5 decimals


@pytest.mark.parametrize("seed", SEEDS)
def test_mteb(seed):
    run, qrels, run_rows, qrels_rows = _judged_run(seed)
    names = ["ndcg@10", "map@5", "recall@5", "precision@3", "success@3",
             "mrr@10", "mrr@1"]
    for exclude_self in (False, True):
        got = retrieval_report(run, qrels, metrics=names, convention="mteb",
                               exclude_self=exclude_self)
        for name in names:
            base, k = name.split("@")
            if base == "mrr":
                want = ref.mteb_mrr(run_rows, qrels_rows, int(k), exclude_self)
                assert got[name] == pytest.approx(want, abs=1e-12), name
            else:
                measure = {"ndcg": "ndcg_cut", "map": "map_cut",
                           "recall": "recall", "precision": "P",
                           "success": "success"}[base]
                want = ref.beir_evaluate(run_rows, qrels_rows, measure, int(k),
                                         exclude_self)
                assert got[name] == want, name


def _llama_run(seed):
    """No repeated document, every judged query with a relevant one (what
    llama_index can compute)."""
    run, qrels, run_rows, qrels_rows = make_retrieval(seed, repeats=False)
    relevant = set(qrels.loc[qrels["relevance"] > 0, "query_id"])
    judged = set(qrels["query_id"])
    keep = [q in relevant or q not in judged for q in run["query_id"]]
    run = run[keep]
    run_rows = [r for r, k in zip(run_rows, keep) if k]
    return run, qrels, run_rows, qrels_rows


LLAMA = ["hit_rate", "mrr", "precision", "recall", "ap", "ndcg"]


@pytest.mark.parametrize("seed", SEEDS)
def test_llamaindex(seed):
    run, qrels, run_rows, qrels_rows = _llama_run(seed)
    names = LLAMA + [f"{m}@3" for m in LLAMA]
    got = retrieval_report(run, qrels, metrics=names, convention="llamaindex")
    for name in names:
        base, _, k = name.partition("@")
        want = ref.llama_mean(run_rows, qrels_rows, base, int(k) if k else None)
        assert got[name] == pytest.approx(want, abs=1e-12), name


@pytest.mark.parametrize("seed", SEEDS)
def test_ragas(seed):
    run, qrels, run_rows, qrels_rows = make_retrieval(seed)
    names = ["id_based_context_precision", "id_based_context_recall",
             "id_based_context_precision@2", "id_based_context_recall@4"]
    got = retrieval_report(run, qrels, metrics=names, convention="ragas")
    for name in names:
        base, _, k = name.partition("@")
        want = ref.ragas_mean(run_rows, qrels_rows, base, int(k) if k else None)
        assert got[name] == pytest.approx(want, abs=1e-12), name


# --------------------------------------------------------------------------
# rules that cannot be reproduced are refused, with the reason
# --------------------------------------------------------------------------
def test_float_labels_are_refused_where_the_tool_reads_integers():
    run, qrels, _, _ = make_retrieval(0)  # labels such as 1.37
    for convention in ("trec_eval", "beir", "mteb"):
        with pytest.raises(InvalidArgumentError, match="integer relevance"):
            retrieval_report(run, qrels, metrics="ndcg@10",
                             convention=convention)


@pytest.mark.parametrize("convention,name,reason", [
    ("beir", "err@10", "BEIR's EvaluateRetrieval reports"),
    ("mteb", "hit_rate@10", "ask for success@K"),
    ("llamaindex", "ndcg@10@3", "llama_index's retrieval metrics are"),
    ("llamaindex", "map", "llama_index's retrieval metrics are"),
    ("ragas", "context_precision", "its LLM metrics are out of scope"),
    ("trec_eval", "err@10", "trec_eval"),
])
def test_a_metric_the_tool_lacks_is_refused(convention, name, reason):
    run, qrels, _, _ = _judged_run(0)
    with pytest.raises(ValueError, match=reason):
        retrieval_report(run, qrels, metrics=name, convention=convention)


def test_queries_the_tool_cannot_take_are_refused():
    run, qrels, _, _ = make_retrieval(0, integer=True)
    with pytest.raises(InvalidArgumentError, match="KeyError"):
        retrieval_report(run, qrels, metrics="mrr@10", convention="beir")
    with pytest.raises(InvalidArgumentError, match="-c"):
        retrieval_report(run, qrels, metrics="ndcg@10", convention="beir",
                         complete=True)
    run, qrels, _, _ = make_retrieval(0, repeats=True)
    with pytest.raises(InvalidArgumentError, match="repeated id"):
        retrieval_report(run, qrels, metrics="ndcg", convention="llamaindex")
    run, qrels, _, _ = make_retrieval(0, repeats=False, self_ids=False)
    assert (qrels.loc[qrels["query_id"] == "q2", "relevance"] == 0).all()
    with pytest.raises(InvalidArgumentError, match="expected ids must be"):
        retrieval_report(run, qrels, metrics="ndcg", convention="llamaindex")


def test_identical_ids_follow_the_convention():
    run = pd.DataFrame({"query_id": ["q", "q"], "doc_id": ["q", "d"],
                        "score": [2.0, 1.0]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["d"], "relevance": [1]})
    # BEIR drops the query's own id: "d" comes first
    assert retrieval_report(run, qrels, metrics="mrr@10", convention="beir") == {
        "mrr@10": 1.0}
    assert retrieval_report(run, qrels, metrics="mrr@10", convention="mteb") == {
        "mrr@10": 0.5}
    assert retrieval_report(run, qrels, metrics="mrr@10", convention="beir",
                            exclude_self=False) == {"mrr@10": 0.5}


@pytest.mark.parametrize("convention,names", [
    ("trec_eval", ["ndcg@5", "RR", "AP@10"]),
    ("beir", ["ndcg@5", "mrr@10", "hole@5"]),
    ("llamaindex", ["mrr", "ap@3", "ndcg"]),
])
def test_a_run_file_s_order_gives_the_same_numbers(convention, names):
    # a run file lists each query's documents by decreasing score: its ties
    # are found among neighbours; any other order is sorted first
    run, qrels, _, _ = (_llama_run(1) if convention == "llamaindex"
                        else _judged_run(1))
    order = np.lexsort((-run["score"].to_numpy(), run["query_id"].to_numpy()))
    listed = run.iloc[order]  # (a stable sort: ties keep the run's order)
    got = retrieval_report(listed, qrels, metrics=names, convention=convention)
    want = retrieval_report(run, qrels, metrics=names, convention=convention)
    assert got == pytest.approx(want, abs=1e-12)


def test_unjudged_report_under_a_convention():
    # trec_eval's ranking (ties by decreasing id): hole@K is 1 - judged@K
    run, qrels, run_rows, qrels_rows = make_retrieval(2, integer=True)
    got = retrieval_report(run, qrels, metrics=["ndcg@5", "judged@5"],
                           convention="trec_eval", unjudged="report")
    assert list(got) == ["ndcg@5", "judged@5", "hole@5"]
    assert got["hole@5"] == pytest.approx(1 - got["judged@5"], abs=1e-12)
    judged = ref.qrels_dict(qrels_rows)
    runs = ref.run_dict(run_rows)
    shares = []
    for q in set(judged) & set(runs):
        top = ref.trec_ranking(runs[q], "docno")[:5]
        shares.append(sum(d in judged[q] for d in top) / len(top))
    assert got["judged@5"] == pytest.approx(sum(shares) / len(shares),
                                            abs=1e-12)
