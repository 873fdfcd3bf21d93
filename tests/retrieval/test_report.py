"""retrieval_report against plain references (tests/_reference.py): the
library's own rules, the hygiene options, and bad input."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import retrieval_report
from sklearn_rankeval._core import InvalidArgumentError
from tests import _reference as ref
from tests.retrieval._data import make_retrieval

SEEDS = [0, 1, 2, 3]


def _reference_mean(lists, metric, k):
    """The mean over queries where the reference is defined (NaN left out,
    as the library's default leaves out undefined queries)."""
    values = []
    for y_true, y_score, judged in lists.values():
        if metric == "ndcg":
            v = ref.ndcg_tie_averaged(y_true, y_score, k)
        elif metric == "mrr":
            v = ref.reciprocal_rank(y_true, y_score, k)
        elif metric == "recall":
            v = ref.recall_at_k(y_true, y_score, k)
        elif metric == "precision":
            v = ref.precision_at_k(y_true, y_score, k)
        elif metric == "success":
            v = ref.success_at_k(y_true, y_score, k)
        elif metric == "judged":
            v = ref.judged_at_k(judged, y_score, k)
        elif metric == "hole":
            v = 1 - ref.judged_at_k(judged, y_score, k)
        v = float(v)
        if metric in ("ndcg", "mrr", "recall") and ref.n_relevant(y_true) == 0:
            v = math.nan  # undefined: no relevant document
        if not math.isnan(v):
            values.append(v)
    return sum(values) / len(values)


def _report(*args, report=retrieval_report, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # queries without a relevant document
        return report(*args, **kwargs)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("metric,k", [("ndcg", 3), ("ndcg", 10), ("mrr", 10),
                                      ("recall", 5), ("precision", 3),
                                      ("success", 2), ("judged", 3),
                                      ("hole", 5)])
def test_default_rules_match_the_reference(seed, metric, k):
    run, qrels, run_rows, qrels_rows = make_retrieval(seed)
    got = _report(run, qrels, metrics=[f"{metric}@{k}"])[f"{metric}@{k}"]
    lists = ref.query_lists(run_rows, qrels_rows)
    assert got == pytest.approx(_reference_mean(lists, metric, k), abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_hygiene_options_match_the_reference(seed):
    run, qrels, run_rows, qrels_rows = make_retrieval(seed)
    for kwargs in ({"complete": True}, {"unjudged": "drop"},
                   {"exclude_self": True}):
        got = _report(run, qrels, metrics=["ndcg@5", "recall@3", "mrr"],
                      **kwargs)
        ref_kwargs = {"exclude_self": kwargs.get("exclude_self", False)}
        lists = ref.query_lists(run_rows, qrels_rows,
                                complete=kwargs.get("complete", False),
                                unjudged=kwargs.get("unjudged", "zero"),
                                **ref_kwargs)
        assert got["ndcg@5"] == pytest.approx(
            _reference_mean(lists, "ndcg", 5), abs=1e-12), kwargs
        assert got["recall@3"] == pytest.approx(
            _reference_mean(lists, "recall", 3), abs=1e-12), kwargs
        assert got["mrr"] == pytest.approx(
            _reference_mean(lists, "mrr", None), abs=1e-12), kwargs


def test_complete_counts_queries_without_results_as_zero():
    run = pd.DataFrame({"query_id": ["a"], "doc_id": ["x"], "score": [1.0]})
    qrels = pd.DataFrame({"query_id": ["a", "b"], "doc_id": ["x", "y"],
                          "relevance": [1, 1]})
    assert retrieval_report(run, qrels, metrics="recall@1") == {"recall@1": 1.0}
    assert retrieval_report(run, qrels, metrics="recall@1", complete=True) == {
        "recall@1": 0.5}


def test_a_repeated_document_counts_once_at_its_best_rank():
    # "x" (the only relevant document) listed three times: nDCG must stay 1
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["x", "x", "y", "x"],
                        "score": [3.0, 2.0, 1.0, 0.5]})
    qrels = pd.DataFrame({"query_id": ["q"], "doc_id": ["x"], "relevance": [2.0]})
    report = retrieval_report(run, qrels, metrics=["ndcg@10", "precision@2"])
    assert report == {"ndcg@10": 1.0, "precision@2": 0.5}
    with pytest.raises(InvalidArgumentError, match="run lists document 'x' "
                                                  "twice for query 'q'"):
        retrieval_report(run, qrels, metrics="ndcg@10", duplicates="error")


@pytest.mark.parametrize("aggregate", ["max", "first", "sum"])
def test_chunks_are_aggregated_to_documents(aggregate):
    rng = np.random.default_rng(5)
    chunk_of = {f"c{i}": f"d{i % 5}" for i in rng.permutation(15)}
    run_rows = [(f"q{q}", f"c{c}", float(rng.integers(0, 6)))
                for q in range(4) for c in rng.choice(15, 8, replace=False)]
    qrels_rows = [(f"q{q}", f"d{d}", float(rng.integers(0, 3)))
                  for q in range(4) for d in range(5)]
    run = pd.DataFrame(run_rows, columns=["query_id", "doc_id", "score"])
    qrels = pd.DataFrame(qrels_rows, columns=["query_id", "doc_id", "relevance"])
    got = _report(run, qrels, metrics=["ndcg@3", "mrr"], doc_ids=chunk_of,
                  aggregate=aggregate)
    lists = ref.query_lists(run_rows, qrels_rows, chunk_of=chunk_of,
                            aggregate=aggregate)
    assert got["ndcg@3"] == pytest.approx(_reference_mean(lists, "ndcg", 3),
                                          abs=1e-12)
    assert got["mrr"] == pytest.approx(_reference_mean(lists, "mrr", None),
                                       abs=1e-12)
    # a Series works as the mapping too
    again = _report(run, qrels, metrics=["ndcg@3", "mrr"],
                    doc_ids=pd.Series(chunk_of), aggregate=aggregate)
    assert again == got


def test_unjudged_report_adds_the_holes_of_each_cutoff():
    run, qrels, run_rows, qrels_rows = make_retrieval(1)
    got = _report(run, qrels, metrics=["ndcg@5", "recall@3"], unjudged="report")
    assert list(got) == ["ndcg@5", "recall@3", "hole@5", "hole@3"]
    lists = ref.query_lists(run_rows, qrels_rows)
    assert got["hole@3"] == pytest.approx(_reference_mean(lists, "hole", 3),
                                          abs=1e-12)
    assert got["ndcg@5"] == _report(run, qrels, metrics="ndcg@5")["ndcg@5"]


def test_integer_ids_and_column_names():
    run, qrels, run_rows, qrels_rows = make_retrieval(2, int_ids=True)
    renamed_run = run.rename(columns={"query_id": "qid", "doc_id": "pid",
                                      "score": "s"})
    renamed_qrels = qrels.rename(columns={"query_id": "qid", "doc_id": "pid",
                                          "relevance": "grade"})
    got = _report(renamed_run, renamed_qrels, metrics=["ndcg@5"],
                  columns={"query_id": "qid", "doc_id": "pid", "score": "s",
                           "relevance": "grade"})
    lists = ref.query_lists(run_rows, qrels_rows)
    assert got["ndcg@5"] == pytest.approx(_reference_mean(lists, "ndcg", 5),
                                          abs=1e-12)


def test_inputs_are_not_modified_and_outputs_agree():
    run, qrels, _, _ = make_retrieval(3)
    run_copy, qrels_copy = run.copy(), qrels.copy()
    values = _report(run, qrels, metrics=["ndcg@5", "mrr@10"],
                     exclude_self=True, unjudged="drop")
    pd.testing.assert_frame_equal(run, run_copy)
    pd.testing.assert_frame_equal(qrels, qrels_copy)
    frame = _report(run, qrels, metrics=["ndcg@5", "mrr@10"],
                    exclude_self=True, unjudged="drop", output="frame")
    assert dict(zip(frame["metric"], frame["value"])) == values
    text = _report(run, qrels, metrics=["ndcg@5"], output="text",
                   exclude_self=True, unjudged="drop")
    assert f"{values['ndcg@5']:.4f}" in text


# --------------------------------------------------------------------------
# bad input: one clear error each, naming the argument
# --------------------------------------------------------------------------
def _frames():
    run = pd.DataFrame({"query_id": ["a", "a"], "doc_id": ["x", "y"],
                        "score": [1.0, 0.5]})
    qrels = pd.DataFrame({"query_id": ["a", "a"], "doc_id": ["x", "y"],
                          "relevance": [1.0, 0.0]})
    return run, qrels


def test_nan_labels_are_refused():
    run, qrels = _frames()
    qrels.loc[1, "relevance"] = np.nan
    with pytest.raises(InvalidArgumentError, match="qrels column 'relevance' "
                                                  "holds nan at row 1") as e:
        retrieval_report(run, qrels, metrics="ndcg@5")
    assert e.value.argument == "qrels"


def test_a_pair_judged_twice_with_two_labels_is_refused():
    run, qrels = _frames()
    twice = pd.concat([qrels, qrels.iloc[[0]].assign(relevance=2.0)])
    with pytest.raises(InvalidArgumentError, match="judges query 'a', document "
                                                  "'x' twice with different"):
        retrieval_report(run, twice, metrics="ndcg@5")
    # the same label twice is one judgment
    same = pd.concat([qrels, qrels.iloc[[0]]])
    assert retrieval_report(run, same, metrics="ndcg@5") == retrieval_report(
        run, qrels, metrics="ndcg@5")


def test_ids_of_mixed_types_are_refused():
    run, qrels = _frames()
    mixed = run.assign(doc_id=pd.Series(["x", 7], dtype=object))
    with pytest.raises(InvalidArgumentError, match="run column 'doc_id' mixes "
                                                  "integer and string ids"):
        retrieval_report(mixed, qrels, metrics="ndcg@5")
    ints = qrels.assign(query_id=[1, 1])
    with pytest.raises(InvalidArgumentError, match="qrels column 'query_id' "
                                                  "holds int query ids but run"):
        retrieval_report(run, ints, metrics="ndcg@5")


def test_other_refusals_name_their_argument():
    run, qrels = _frames()
    cases = [
        (dict(qrels=qrels.assign(relevance=[-1.0, 0.0])), "qrels"),
        (dict(run=run.drop(columns="score")), "run"),
        (dict(aggregate="max"), "aggregate"),
        (dict(doc_ids={"x": "d"}), "doc_ids"),
        (dict(unjudged="keep"), "unjudged"),
        (dict(columns={"qid": "q"}), "columns"),
        (dict(run=run.assign(score=[np.nan, 1.0])), "run"),
    ]
    for kwargs, argument in cases:
        args = {"run": run, "qrels": qrels, "metrics": "ndcg@5", **kwargs}
        with pytest.raises(ValueError, match=argument):
            retrieval_report(args.pop("run"), args.pop("qrels"), **args)


def test_the_query_bootstrap_is_ranking_report_s():
    # the same per-query partials, the same resamples: ranking_report on the
    # long layout of the reference (queries coded in the run's order)
    from sklearn_rankeval import ranking_report

    run, qrels, run_rows, qrels_rows = make_retrieval(6, repeats=False,
                                                      self_ids=False)
    lists = ref.query_lists(run_rows, qrels_rows)
    order = list(dict.fromkeys(q for q, _, _ in run_rows if q in lists))
    y = [v for q in order for v in lists[q][0]]
    s = [v for q in order for v in lists[q][1]]
    g = [i for i, q in enumerate(order) for _ in lists[q][0]]
    want = _report(y, s, groups=g, metrics=["ndcg@5"], confidence=0.9,
                   random_state=0, output="dict", report=ranking_report)
    got = _report(run, qrels, metrics=["ndcg@5"], confidence=0.9,
                  random_state=0)
    assert got["ndcg@5"] == pytest.approx(want["ndcg@5"], abs=1e-12)
    assert got["ndcg@5"]["ci_low"] < got["ndcg@5"]["value"] < got["ndcg@5"][
        "ci_high"]


def test_other_libraries_frames_are_read_by_their_column_names():
    from collections import namedtuple

    run, qrels, _, _ = make_retrieval(7)
    want = _report(run, qrels, metrics=["ndcg@5", "mrr"])
    # PyTerrier's frames: qid, docno, score / qid, docno, label
    pyterrier = _report(
        run.rename(columns={"query_id": "qid", "doc_id": "docno"}),
        qrels.rename(columns={"query_id": "qid", "doc_id": "docno",
                              "relevance": "label"}),
        metrics=["ndcg@5", "mrr"])
    assert pyterrier == want
    # ir_datasets' qrels_iter() and scoreddocs_iter(): named tuples
    ScoredDoc = namedtuple("ScoredDoc", ["query_id", "doc_id", "score"])
    TrecQrel = namedtuple("TrecQrel", ["query_id", "doc_id", "relevance",
                                       "iteration"])
    scored = (ScoredDoc(*row) for row in run.itertuples(index=False))
    judged = (TrecQrel(*row, "0") for row in qrels.itertuples(index=False))
    assert _report(scored, judged, metrics=["ndcg@5", "mrr"]) == want
