"""The IR report of a retrieval run (W2) beside pytrec_eval, ranx, torchmetrics.

    python benchmarks/run.py ir_report --part peers --repeat 7
    python benchmarks/run.py ir_report --part metrics --queries 100000 --repeat 3

Parts:

* ``peers``: ``ranking_report`` of MAP, MRR, NDCG@10, P@10, R@10 on 20,000
  queries x 100 documents (grouped, 2-D, and the rows shuffled; default
  threads and one thread) against pytrec_eval's ``evaluate`` of the same five
  (the two timed in turn: the median of the pairs' ratios; target >= 20x),
  then ranx's ``evaluate`` (JIT warm) and torchmetrics' retrieval metrics
  (``indexes=``) where installed.  Values checked equal first.
* ``metrics``: each of the five alone, grouped and 2-D, and scikit-learn's
  ``ndcg_score(k=10)`` on ``--queries`` x 100, beside ``np.argsort(y_score)``.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import W2_METRICS, retrieval_run, w2_pytrec  # noqa: E402
from _timing import emit, load, one_thread, paired, timed  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

TREC = ("map", "recip_rank", "ndcg_cut_10", "P_10", "recall_10")


def part_peers(args):
    Y, S, y, s, g, qrel, run, ev = w2_pytrec()
    ours = rk.ranking_report(y, s, groups=g, metrics=W2_METRICS, output="dict")
    theirs = ev.evaluate(run)
    for name, trec in zip(W2_METRICS, TREC):
        # pytrec_eval leaves out the queries without judgments, as ours
        vals = [v[trec] for q, v in theirs.items() if Y[int(q[1:])].any()]
        assert abs(np.mean(vals) - ours[name]) < 1e-12, (name, ours[name])

    def report(y=y, s=s, g=g):
        return rk.ranking_report(y, s, groups=g, metrics=W2_METRICS, output="dict")

    a, b, r = paired(lambda: ev.evaluate(run), report, args.repeat)
    emit(part="w2", layout="grouped", pytrec_eval_s=a, ours_s=b, speedup=1 / r,
         load=load())
    with one_thread():
        a, b, r = paired(lambda: ev.evaluate(run), report, args.repeat)
    emit(part="w2", layout="grouped, one thread", pytrec_eval_s=a, ours_s=b,
         speedup=1 / r)
    a, b, r = paired(lambda: ev.evaluate(run), lambda: rk.ranking_report(
        Y, S, metrics=W2_METRICS, output="dict"), args.repeat)
    emit(part="w2", layout="2-D", pytrec_eval_s=a, ours_s=b, speedup=1 / r)
    order = np.random.default_rng(0).permutation(y.shape[0])
    ys, ss, gs = y[order], s[order], g[order]
    a, b, r = paired(lambda: ev.evaluate(run), lambda: report(ys, ss, gs),
                     args.repeat)
    emit(part="w2", layout="shuffled", pytrec_eval_s=a, ours_s=b, speedup=1 / r)
    try:
        from ranx import Qrels, Run, evaluate
    except ImportError:
        emit(part="w2", peer="ranx", note="not installed")
    else:
        judged = {q: d for q, d in qrel.items() if d}
        qrels_r, run_r = Qrels(judged), Run({q: run[q] for q in judged})
        names = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]
        got = evaluate(qrels_r, run_r, names)  # (also the JIT compilation)
        for ours_name, ranx_name in zip(W2_METRICS, names):
            assert abs(got[ranx_name] - ours[ours_name]) < 1e-9, ours_name
        a, b, r = paired(lambda: evaluate(qrels_r, run_r, names), report, args.repeat)
        emit(part="w2", peer="ranx evaluate (five, JIT warm)", peer_s=a, ours_s=b,
             speedup=1 / r)
    try:
        import torch
        from torchmetrics import retrieval as R
    except ImportError:
        emit(part="w2", peer="torchmetrics", note="not installed")
        return
    preds, target = torch.from_numpy(s), torch.from_numpy(y)
    indexes = torch.from_numpy(g)
    metrics = [("map", R.RetrievalMAP, {}, True), ("mrr", R.RetrievalMRR, {}, True),
               ("ndcg@10", R.RetrievalNormalizedDCG, {"top_k": 10}, False),
               ("precision@10", R.RetrievalPrecision, {"top_k": 10}, True),
               ("recall@10", R.RetrievalRecall, {"top_k": 10}, True)]

    def torchmetrics_five():
        return {name: float(cls(empty_target_action="skip", **kw)(
            preds, target > 0 if binary else target, indexes=indexes))
            for name, cls, kw, binary in metrics}

    got = torchmetrics_five()
    for name in W2_METRICS:
        assert abs(got[name] - ours[name]) < 1e-6, name  # float32 sums
    a, b, r = paired(torchmetrics_five, report, max(args.repeat // 3, 1))
    emit(part="w2", peer="torchmetrics (five, indexes=)", peer_s=a, ours_s=b,
         speedup=1 / r)


def part_metrics(args):
    from sklearn.metrics import ndcg_score

    Y, S = retrieval_run(args.queries)
    y, s = Y.ravel(), S.ravel()
    g = np.repeat(np.arange(args.queries), Y.shape[1])
    ref = timed(lambda: np.argsort(s), args.repeat).median
    emit(part="metrics", rows=len(y), what="np.argsort(y_score)", median_s=ref)
    fns = {"MAP": rk.mean_average_precision_score,
           "MRR": rk.mean_reciprocal_rank_score,
           "NDCG@10": lambda *a, **k: rk.ndcg_score(*a, k=10, **k),
           "P@10": lambda *a, **k: rk.precision_at_k_score(*a, k=10, **k),
           "R@10": lambda *a, **k: rk.recall_at_k_score(*a, k=10, **k)}
    for label, fn in fns.items():
        grouped = timed(lambda fn=fn: fn(y, s, groups=g), args.repeat)
        flat = timed(lambda fn=fn: fn(Y, S), args.repeat)
        emit(part="metrics", what=label, grouped_s=grouped.median, two_d_s=flat.median,
             over_argsort=grouped.median / ref, value=float(grouped.result))
    t = timed(lambda: ndcg_score(Y, S, k=10), args.repeat)
    emit(part="metrics", what="sklearn ndcg_score(k=10), 2-D", median_s=t.median,
         over_argsort=t.median / ref, value=float(t.result))


PARTS = {"peers": part_peers, "metrics": part_metrics}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", nargs="*", choices=list(PARTS), default=["peers"])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--queries", type=int, default=100_000)
    args = parser.parse_args(argv)
    for name in args.part:
        PARTS[name](args)


if __name__ == "__main__":
    main()
