"""Engine round 4 (issue 30, the compiled grouped pass): every target as a
ratio measured in one run.

    python benchmarks/bench_round4.py                      # all parts
    python benchmarks/bench_round4.py --only gauc w2 --repeat 9

Each ratio is the median over ``--repeat`` rounds of the ratio of the two
sides timed back to back in that round (the machine is shared: pairing the
two sides keeps their load alike).  Parts:

* ``sort``: the machine's ``np.sort`` and ``np.argsort`` of 2M float64 (the
  speed every figure of the engine used to be bound by);
* ``gauc``: ``gauc_score`` over ``np.argsort(y_score)`` on W1 (shuffled click
  log, 4-decimal scores), 3M and 10M rows (target <= 0.15), with the
  default threads and one thread; the peak memory traced by ``tracemalloc``
  over the input's bytes from a cold workspace (<= 1.5), and the workspace
  kept for the next call;
* ``w2``: ``ranking_report`` of MAP, MRR, NDCG@10, P@10, R@10 on 20,000
  queries x 100 documents, grouped and 2-D, against pytrec_eval's
  ``evaluate`` of the same five (target: >= 20x faster), and ranx's
  ``evaluate`` and torchmetrics' retrieval metrics where they are installed
  (values checked equal);
* ``ids``: ``ranking_report`` (9 default metrics), 2M rows, 200k users:
  object-string ids, a new array each call, over ``pandas.factorize`` of the
  ids plus the int-id call (<= 1.2); a pandas Categorical over int ids (<= 1.5);
* ``ctr``: ``ranking_report`` of log_loss, ne, pcoc, ece over
  ``np.argsort(y_score)`` on W1 3M (<= 0.5);
* ``scaling``: ``gauc_score`` on W1 of 1M, 3M, 10M and 30M rows (the 100M and
  1B checks of the issue scaled to what a 24 GiB machine shared by six
  sessions allows): seconds per million rows and peak memory over input;
* ``rankers``: (round 3's part) the multiclass counts (W3, 1M x 100)
  against the same input as 2-D one-hot relevance; the generic (Array API)
  ranker on NumPy against the compiled pass.
"""

import argparse
import gc
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_round3 import (  # noqa: E402
    ids_workload,
    line,
    paired,
    part_rankers,
    w2_workload,
)
from run import click_log  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402
from sklearn_rankeval._engine import _compiled, _grouped  # noqa: E402

W2_METRICS = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]
CTR_METRICS = ["log_loss", "ne", "pcoc", "ece"]


def cold_peak(fn):
    """Peak bytes traced by tracemalloc during ``fn()``, the engine's
    workspace dropped first (so that it is counted), and the workspace kept
    after."""
    _compiled._LOCAL.__dict__.pop("ws", None)
    gc.collect()
    tracemalloc.start()
    fn()
    out = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    kept = sum(a.nbytes for a in getattr(_compiled._LOCAL, "ws", {}).values())
    return out, kept


def load():
    try:
        return f"load {os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover
        return "load ?"


def one_thread():
    """A context in which the compiled pass runs on one thread."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="openmp")


def part_sort(args):
    s = np.random.default_rng(0).random(2_000_000)
    a, b, _ = paired(lambda: np.sort(s), lambda: np.argsort(s), args.repeat)
    line(f"machine: np.sort of 2M float64 {a:.3f} s, np.argsort {b:.3f} s "
         f"({load()})")


def part_gauc(args):
    for users in (300_000, 1_000_000):
        _gauc_at(click_log(users), args)


def _gauc_at(data, args):
    y, s, g = data
    nbytes = y.nbytes + s.nbytes + g.nbytes

    def ours():
        return rk.gauc_score(y, s, groups=g)

    a, b, r = paired(lambda: np.argsort(s), ours, args.repeat)
    with one_thread():
        a1, b1, r1 = paired(lambda: np.argsort(s), ours, args.repeat)
    peak, kept = cold_peak(ours)
    line(f"W1 {len(y):>10,} rows: argsort {a:.3f} s, gauc {b:.3f} s, "
         f"gauc/argsort {r:.3f} ({_grouped.max_threads()} threads); "
         f"one thread: {b1:.3f} s, {r1:.3f} (<= 0.15); peak/input "
         f"{peak / nbytes:.2f}, workspace kept {kept / nbytes:.2f} of the "
         f"input ({load()})")


def part_w2(args):
    Y, S, y, s, g, qrel, run, ev = w2_workload()
    ours = rk.ranking_report(y, s, groups=g, metrics=W2_METRICS, output="dict")
    theirs = ev.evaluate(run)
    for name, trec in zip(W2_METRICS, ("map", "recip_rank", "ndcg_cut_10", "P_10",
                                       "recall_10")):
        # pytrec_eval leaves out the queries without judgments, as ours
        vals = [v[trec] for q, v in theirs.items() if Y[int(q[1:])].any()]
        assert abs(np.mean(vals) - ours[name]) < 1e-12, (name, ours[name])
    a, b, r = paired(lambda: ev.evaluate(run), lambda: rk.ranking_report(
        y, s, groups=g, metrics=W2_METRICS, output="dict"), args.repeat)
    line(f"W2 20,000 x 100 grouped: pytrec_eval {a:.3f} s, ranking_report "
         f"{b:.4f} s, speed-up {1 / r:.1f}x (>= 20) ({load()})")
    with one_thread():
        a1, b1, r1 = paired(lambda: ev.evaluate(run), lambda: rk.ranking_report(
            y, s, groups=g, metrics=W2_METRICS, output="dict"), args.repeat)
    line(f"W2 grouped, one thread: pytrec_eval {a1:.3f} s, ranking_report "
         f"{b1:.4f} s, speed-up {1 / r1:.1f}x")
    a2, b2, r2 = paired(lambda: ev.evaluate(run), lambda: rk.ranking_report(
        Y, S, metrics=W2_METRICS, output="dict"), args.repeat)
    line(f"W2 20,000 x 100 2-D:     pytrec_eval {a2:.3f} s, ranking_report "
         f"{b2:.4f} s, speed-up {1 / r2:.1f}x")
    order = np.random.default_rng(0).permutation(y.shape[0])
    ys, ss, gs = y[order], s[order], g[order]
    a3, b3, r3 = paired(lambda: ev.evaluate(run), lambda: rk.ranking_report(
        ys, ss, groups=gs, metrics=W2_METRICS, output="dict"), args.repeat)
    line(f"W2 20,000 x 100 shuffled: pytrec_eval {a3:.3f} s, ranking_report "
         f"{b3:.4f} s, speed-up {1 / r3:.1f}x")
    _peers_w2(args, Y, S, y, s, g, qrel, run, ours, ev)


def _peers_w2(args, Y, S, y, s, g, qrel, run, ours, ev):
    try:
        from ranx import Qrels, Run, evaluate
    except ImportError:
        line("W2 ranx: not installed")
    else:
        judged = {q: d for q, d in qrel.items() if d}
        qrels_r = Qrels(judged)
        run_r = Run({q: run[q] for q in judged})
        names = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]
        got = evaluate(qrels_r, run_r, names)  # (also the JIT compilation)
        for ours_name, ranx_name in zip(W2_METRICS, names):
            assert abs(got[ranx_name] - ours[ours_name]) < 1e-9, ours_name
        a, b, r = paired(lambda: evaluate(qrels_r, run_r, names), lambda: (
            rk.ranking_report(y, s, groups=g, metrics=W2_METRICS, output="dict")),
            args.repeat)
        line(f"W2 ranx evaluate (five, JIT warm) {a:.3f} s: ours {1 / r:.1f}x "
             f"faster (values equal)")
    try:
        import torch
        from torchmetrics import retrieval as R
    except ImportError:
        line("W2 torchmetrics: not installed")
        return
    preds, target = torch.from_numpy(s), torch.from_numpy(y)
    indexes = torch.from_numpy(g)
    metrics = [("map", R.RetrievalMAP, {}, True), ("mrr", R.RetrievalMRR, {}, True),
               ("ndcg@10", R.RetrievalNormalizedDCG, {"top_k": 10}, False),
               ("precision@10", R.RetrievalPrecision, {"top_k": 10}, True),
               ("recall@10", R.RetrievalRecall, {"top_k": 10}, True)]

    def torchmetrics_five():
        out = {}
        for name, cls, kw, binary in metrics:
            tgt = target > 0 if binary else target
            out[name] = float(cls(empty_target_action="skip", **kw)(
                preds, tgt, indexes=indexes))
        return out

    got = torchmetrics_five()
    for name in W2_METRICS:
        assert abs(got[name] - ours[name]) < 1e-6, name
    a, b, r = paired(torchmetrics_five, lambda: rk.ranking_report(
        y, s, groups=g, metrics=W2_METRICS, output="dict"), max(args.repeat // 3, 1))
    line(f"W2 torchmetrics (five, indexes=) {a:.3f} s: ours {1 / r:.1f}x faster "
         f"(values equal to 1e-6)")


def part_ids(args):
    import pandas as pd

    gi, y, s, go, fresh = ids_workload(2 * args.repeat + 2)
    cat = pd.Categorical(go)

    def factorize_then_ints():
        codes, _ = pd.factorize(fresh.pop())
        rk.ranking_report(y, s, groups=codes, output="dict")

    def strings():
        rk.ranking_report(y, s, groups=fresh.pop(), output="dict")

    a, b, r = paired(factorize_then_ints, strings, args.repeat)
    line(f"ids 2M rows, 200k users: pandas.factorize + int ids {a:.3f} s, "
         f"object strings (a new array each call) {b:.3f} s, ratio {r:.2f} (<= 1.2)")
    a, b, r = paired(lambda: rk.ranking_report(y, s, groups=gi, output="dict"),
                     lambda: rk.ranking_report(y, s, groups=cat, output="dict"),
                     args.repeat)
    line(f"ids 2M rows, 200k users: int ids {a:.3f} s, Categorical {b:.3f} s, "
         f"ratio {r:.2f} (<= 1.5)")


def part_ctr(args):
    y, s, g = click_log(300_000)
    a, b, r = paired(lambda: np.argsort(s), lambda: rk.ranking_report(
        y, s, groups=g, metrics=CTR_METRICS, output="dict"), args.repeat)
    line(f"CTR report (log_loss, ne, pcoc, ece), W1 {len(y):,} rows: argsort "
         f"{a:.3f} s, report {b:.3f} s, ratio {r:.3f} (<= 0.5) ({load()})")


def part_scaling(args):
    for users in (100_000, 300_000, 1_000_000, 3_000_000):
        y, s, g = click_log(users)
        nbytes = y.nbytes + s.nbytes + g.nbytes
        times = []
        for _ in range(max(args.repeat // 3, 2)):
            t0 = time.perf_counter()
            rk.gauc_score(y, s, groups=g)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        np.argsort(s)
        argsort = time.perf_counter() - t0
        peak, _ = cold_peak(lambda y=y, s=s, g=g: rk.gauc_score(y, s, groups=g))
        best = min(times)
        line(f"scaling W1 {len(y):>11,} rows: gauc {best:.3f} s (min), "
             f"{best / len(y) * 1e9:.1f} ns a row; argsort {argsort:.3f} s "
             f"({best / argsort:.3f}); "
             f"peak/input {peak / nbytes:.2f} ({load()})")
        del y, s, g
        gc.collect()


PARTS = {"sort": part_sort, "gauc": part_gauc, "w2": part_w2, "ids": part_ids,
         "ctr": part_ctr, "scaling": part_scaling, "rankers": part_rankers}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=list(PARTS), default=list(PARTS))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    line(f"# numpy {np.__version__}, {platform.machine()}, {os.cpu_count()} cores, "
         f"OpenMP {_grouped.OPENMP} ({_grouped.max_threads()} threads), "
         f"working_memory {rk.get_config()['working_memory']} MiB")
    for name in args.only:
        PARTS[name](args)


if __name__ == "__main__":
    main()
