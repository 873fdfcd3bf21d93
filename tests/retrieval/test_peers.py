"""convention=: the installed harnesses' own numbers (side environment).

Each test imports its tool with ``pytest.importorskip`` and compares
``retrieval_report`` with the tool called on the same data, built as the
tool takes it: dicts ``{query: {doc: score}}`` (each document once: its
best score, as ``duplicates="first"``) and ``{query: {doc: label}}``, or one
query's lists.  tests/retrieval/test_conventions.py checks the same rules
against plain references, without the tools.
"""

import asyncio
import importlib.util
import sys
import types
import warnings

import pytest

from sklearn_rankeval import retrieval_report
from tests import _reference as ref
from tests.retrieval._data import make_retrieval
from tests.retrieval.test_conventions import _judged_run, _llama_run

SEEDS = [0, 1, 2, 3]


def _dicts(run_rows, qrels_rows, exclude_self=False):
    results = {q: {d: s for d, s, _ in rows}
               for q, rows in ref.run_dict(run_rows,
                                           exclude_self=exclude_self).items()}
    # the run's order of each query's documents (a dict keeps insertion order)
    for q, rows in ref.run_dict(run_rows, exclude_self=exclude_self).items():
        results[q] = {d: s for d, s, _ in sorted(rows, key=lambda r: r[2])}
    qrels = {q: {d: int(y) for d, y in docs.items()}
             for q, docs in ref.qrels_dict(qrels_rows).items()}
    return results, qrels


@pytest.mark.parametrize("seed", SEEDS)
def test_pytrec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    run, qrels, run_rows, qrels_rows = make_retrieval(seed, integer=True)
    results, judged = _dicts(run_rows, qrels_rows)
    measures = {"ndcg_cut_10": "ndcg@10", "map_cut_5": "AP@5",
                "recall_3": "recall@3", "P_5": "precision@5",
                "recip_rank": "RR", "success_1": "success@1", "map": "AP",
                "ndcg": "nDCG"}
    scores = pytrec_eval.RelevanceEvaluator(
        judged, {"ndcg_cut.10", "map_cut.5", "recall.3", "P.5", "recip_rank",
                 "success.1", "map", "ndcg"}).evaluate(results)
    got = retrieval_report(run, qrels, metrics=list(measures.values()),
                           convention="trec_eval")
    for measure, name in measures.items():
        want = sum(s[measure] for s in scores.values()) / len(scores)
        assert got[name] == pytest.approx(want, abs=1e-12), name


@pytest.mark.parametrize("seed", SEEDS)
def test_beir(seed):
    pytest.importorskip("pytrec_eval")
    pytest.importorskip("beir")
    from beir.retrieval.evaluation import EvaluateRetrieval

    run, qrels, run_rows, qrels_rows = _judged_run(seed)
    results, judged = _dicts(run_rows, qrels_rows)
    k_values = [1, 3, 10]
    ndcg, _map, recall, precision = EvaluateRetrieval.evaluate(
        judged, results, k_values)  # pops identical ids from results
    mrr = EvaluateRetrieval.evaluate_custom(judged, results, k_values, "mrr")
    results, _ = _dicts(run_rows, qrels_rows)
    hole = EvaluateRetrieval.evaluate_custom(judged, results, k_values, "hole")
    for k in k_values:
        got = retrieval_report(
            run, qrels, convention="beir",
            metrics=[f"ndcg@{k}", f"map@{k}", f"recall@{k}", f"precision@{k}",
                     f"mrr@{k}"])
        assert got[f"ndcg@{k}"] == ndcg[f"NDCG@{k}"]
        assert got[f"map@{k}"] == _map[f"MAP@{k}"]
        assert got[f"recall@{k}"] == recall[f"Recall@{k}"]
        assert got[f"precision@{k}"] == precision[f"P@{k}"]
        assert got[f"mrr@{k}"] == mrr[f"MRR@{k}"]
        # BEIR's hole on the results as given (identical ids kept)
        got = retrieval_report(run, qrels, convention="beir",
                               metrics=f"hole@{k}", exclude_self=False)
        assert got[f"hole@{k}"] == hole[f"Hole@{k}"]


def _mteb_metrics():
    """mteb's retrieval_metrics module, loaded from its installed file (the
    package's __init__ imports torch and transformers, which the side
    environment lacks; the module itself needs only its result type)."""
    spec = importlib.util.find_spec("mteb")
    if spec is None:
        pytest.skip("mteb is not installed")
    path = spec.submodule_search_locations[0] + "/_evaluators/retrieval_metrics.py"
    fake = types.ModuleType("mteb.types")
    fake.RetrievalEvaluationResult = lambda **kw: types.SimpleNamespace(**kw)
    saved = {n: sys.modules.get(n) for n in ("mteb", "mteb.types")}
    sys.modules["mteb"] = types.ModuleType("mteb")
    sys.modules["mteb.types"] = fake
    try:
        module_spec = importlib.util.spec_from_file_location("_mteb_metrics", path)
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    finally:
        for name, value in saved.items():
            if value is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = value
    return module


@pytest.mark.parametrize("seed", SEEDS)
def test_mteb(seed):
    pytest.importorskip("pytrec_eval")
    metrics = _mteb_metrics()
    run, qrels, run_rows, qrels_rows = _judged_run(seed)
    results, judged = _dicts(run_rows, qrels_rows)
    k_values = [1, 3, 10]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = metrics.calculate_retrieval_scores(results, judged, k_values)
    for k in k_values:
        got = retrieval_report(
            run, qrels, convention="mteb",
            metrics=[f"ndcg@{k}", f"map@{k}", f"recall@{k}", f"precision@{k}",
                     f"success@{k}", f"mrr@{k}"])
        assert got[f"ndcg@{k}"] == out.ndcg[f"NDCG@{k}"]
        assert got[f"map@{k}"] == out.map[f"MAP@{k}"]
        assert got[f"recall@{k}"] == out.recall[f"Recall@{k}"]
        assert got[f"precision@{k}"] == out.precision[f"P@{k}"]
        assert got[f"success@{k}"] == out.hit_rate[f"HitRate@{k}"]
        assert got[f"mrr@{k}"] == pytest.approx(out.mrr[f"MRR@{k}"], abs=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_llamaindex(seed):
    metrics = pytest.importorskip(
        "llama_index.core.evaluation.retrieval.metrics")
    run, qrels, run_rows, qrels_rows = _llama_run(seed)
    judged = ref.qrels_dict(qrels_rows)
    lists = {q: ref.trec_ranking(rows, "input")
             for q, rows in ref.run_dict(run_rows).items() if q in judged}
    classes = {"hit_rate": metrics.HitRate, "mrr": metrics.MRR,
               "precision": metrics.Precision, "recall": metrics.Recall,
               "ap": metrics.AveragePrecision, "ndcg": metrics.NDCG}
    for k in (None, 3):
        names = [m if k is None else f"{m}@{k}" for m in classes]
        got = retrieval_report(run, qrels, metrics=names,
                               convention="llamaindex")
        for name, cls in classes.items():
            values = [cls().compute(
                expected_ids=[d for d, y in judged[q].items() if y > 0],
                retrieved_ids=ids[:k]).score for q, ids in lists.items()]
            key = name if k is None else f"{name}@{k}"
            assert got[key] == pytest.approx(sum(values) / len(values),
                                             abs=1e-12), key


@pytest.mark.parametrize("seed", SEEDS)
def test_ragas(seed):
    metrics = pytest.importorskip("ragas.metrics")
    from ragas.dataset_schema import SingleTurnSample
    from ragas.utils import safe_nanmean

    run, qrels, run_rows, qrels_rows = make_retrieval(seed)
    judged = ref.qrels_dict(qrels_rows)
    lists = {q: ref.trec_ranking(rows, "input")
             for q, rows in ref.run_dict(run_rows).items()}
    for cls, name in ((metrics.IDBasedContextPrecision,
                       "id_based_context_precision"),
                      (metrics.IDBasedContextRecall, "id_based_context_recall")):
        values = [asyncio.run(cls()._single_turn_ascore(SingleTurnSample(
            retrieved_context_ids=ids,
            reference_context_ids=[d for d, y in judged.get(q, {}).items()
                                   if y > 0]), None))
            for q, ids in lists.items()]
        got = retrieval_report(run, qrels, metrics=name, convention="ragas")
        assert got[name] == pytest.approx(safe_nanmean(values), abs=1e-12)
