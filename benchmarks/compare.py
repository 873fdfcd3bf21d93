"""Issue 12 benchmarks: the group bootstrap and ``compare_rankings``.

Every figure is a ratio to a reference timed in the same run::

    python benchmarks/run.py compare                 # both, full size
    python benchmarks/run.py compare --scale 0.1     # a quick look
    python benchmarks/run.py compare --only compare

* ``bootstrap``: ``ranking_report(metrics=["gauc", "ndcg@10"],
  confidence=0.95, n_resamples=1000)`` on W1 (10M rows, 1M users, from
  ``_data.py``'s ``click_log``) over one ``ranking_report`` of the same metrics
  without intervals (target <= 10).
* ``compare``: ``compare_rankings`` of 3 models x 5 metrics (MAP, MRR,
  NDCG@10, P@10, R@10) on W2 (100,000 queries x 100 documents, ``_data.py``'s
  ``retrieval_run``; models B and C are the W2 score plus noise), beside
  ranx ``compare`` on the same runs when ranx is installed.  ranx's JIT is
  warmed up on the same data first (excluded), and building its ``Qrels`` /
  ``Run`` objects is timed on its own line.  ranx compares every pair of runs
  (3 pairs) and reports no interval; ``compare_rankings`` compares 2 models
  with the baseline and adds a paired bootstrap interval (``n_resamples``
  draws) to each of the 10 differences.
* ``trec_align``: ``rankeval compare QRELS RUN...``'s arrays (``align_runs``:
  one grouped pass on the engine's trec_eval order) beside the previous rule,
  query by query in Python (``tests/_reference.py``), on 2,000 queries x 100
  retrieved documents, 3 runs, 30 judged documents per query (10 of them
  retrieved by no run); the two are checked equal first.  Ratio old / new.
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing  # noqa: E402
from _data import click_log, retrieval_run, trec_dicts  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

W2_NAMES = {"map": "map", "mrr": "mrr", "ndcg@10": "ndcg@10",
            "precision@10": "precision@10", "recall@10": "recall@10"}


def timed(fn, repeat, warm=True):
    """Median and min seconds of ``repeat`` runs (after one warm-up run)."""
    t = _timing.timed(fn, repeat, warmup=int(warm))
    return t.median, t.min


def line(name, t, ref=None, target=None):
    ratio = "" if ref is None else f"  ratio {t[0] / ref[0]:6.2f}"
    tgt = "" if target is None else f" (target <= {target})"
    print(f"{name:64s} median {t[0]:7.2f} s  min {t[1]:7.2f} s{ratio}{tgt}",
          flush=True)


def bench_bootstrap(args):
    n_users = int(1_000_000 * args.scale)
    y, s, g = click_log(n_users)
    print(f"# W1: {len(y):,} rows, {n_users:,} users")
    metrics = ["gauc", "ndcg@10"]
    ref = timed(lambda: rk.ranking_report(y, s, groups=g, metrics=metrics,
                                          output="dict"), args.repeat)
    line("ranking_report gauc, ndcg@10", ref)
    boot = timed(lambda: rk.ranking_report(
        y, s, groups=g, metrics=metrics, output="dict", confidence=0.95,
        n_resamples=1000, random_state=0), args.repeat)
    line("ranking_report gauc, ndcg@10, confidence=0.95, 1000 resamples", boot,
         ref, target=10)
    print(rk.ranking_report(y, s, groups=g, metrics=metrics, confidence=0.95,
                            n_resamples=1000, random_state=0))


def bench_compare(args):
    n_queries = int(100_000 * args.scale)
    Y, S = retrieval_run(n_queries)
    rng = np.random.default_rng(3)
    scores2d = {"A": S, "B": S + rng.normal(0, 0.05, S.shape),
                "C": S + 0.05 * Y + rng.normal(0, 0.1, S.shape)}
    y = Y.ravel()
    g = np.repeat(np.arange(n_queries), Y.shape[1])
    scores = {k: v.ravel() for k, v in scores2d.items()}
    metrics = list(W2_NAMES)
    print(f"# W2: {n_queries:,} queries x {Y.shape[1]} docs, 3 models x "
          f"{len(metrics)} metrics")
    ref = timed(lambda: rk.ranking_report(y, scores["A"], groups=g,
                                          metrics=metrics, output="dict"),
                args.repeat)
    line("ranking_report of one model, 5 metrics", ref)
    results = {}
    for test, n in (("permutation", 1000), ("t", 1000), ("permutation", 10000)):
        def run(test=test, n=n):
            results[test, n] = rk.compare_rankings(
                y, scores, groups=g, metrics=metrics, test=test, n_resamples=n,
                random_state=0, output="dict")
        t = timed(run, args.repeat if n <= 1000 else 1, warm=n <= 1000)
        line(f"compare_rankings test={test!r}, n_resamples={n}", t, ref)
    print(rk.compare_rankings(y, scores, groups=g, metrics=metrics,
                              n_resamples=1000, random_state=0))
    if args.skip_ranx:
        return
    try:
        from ranx import Qrels, Run, compare
    except ImportError:
        print("  (ranx not installed: its lines are skipped)")
        return
    judged = np.flatnonzero((Y > 0).any(axis=1))
    qids = [f"q{i}" for i in range(n_queries)]
    dids = [f"d{j}" for j in range(Y.shape[1])]

    def build():
        qrels = Qrels({qids[i]: {dids[j]: int(Y[i, j]) for j in np.flatnonzero(Y[i])}
                       for i in judged})
        runs = []
        for name, M in scores2d.items():
            run = Run({qids[i]: dict(zip(dids, M[i].tolist())) for i in judged},
                      name=name)
            runs.append(run)
        return qrels, runs

    t0 = time.perf_counter()
    qrels, runs = build()
    print(f"{'ranx: build Qrels and 3 Runs (once)':64s} {time.perf_counter() - t0:7.2f} s")
    ranx_metrics = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]
    for stat_test in ("fisher", "student"):
        compare(qrels, runs, ranx_metrics, stat_test=stat_test,
                n_permutations=1000)  # JIT warm-up, excluded
        t = timed(lambda stat_test=stat_test: compare(
            qrels, runs, ranx_metrics, stat_test=stat_test, n_permutations=1000),
            args.repeat, warm=False)
        line(f"ranx compare stat_test={stat_test!r} (3 pairs)", t, ref)
    report = compare(qrels, runs, ranx_metrics, stat_test="fisher",
                     n_permutations=1000, rounding_digits=4)
    ours = results["permutation", 1000]
    pairs = dict(report.comparisons)
    for name, ranx_name in zip(metrics, ranx_metrics):
        ranx_b = report.results["B"][ranx_name]
        ours_b = ours[name]["B"]["value"]
        flag = "" if abs(ranx_b - ours_b) < 1e-9 else "  !! values differ"
        print(f"  {name:14s} B: ours {ours_b:.6f}  ranx {ranx_b:.6f}  "
              f"p ours {ours[name]['B']['p_value']:.4f} "
              f"ranx {pairs[frozenset('AB')][ranx_name]['p_value']:.4f}{flag}")


def bench_trec_align(args):
    from sklearn_rankeval._cli._trec import align_runs

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests._reference import trec_runs_by_query  # the previous rule

    n_queries = max(int(2000 * args.scale), 1)
    qrels, runs = trec_dicts(n_queries)
    qids = sorted(q for q in qrels if q in set().union(*runs))
    old = trec_runs_by_query(qrels, runs, qids)
    new = align_runs(qrels, runs, qids)
    assert all(np.array_equal(a, b) for a, b in zip(old[:2], new[:2]))
    assert all(np.array_equal(a, b) for a, b in zip(old[2], new[2]))
    print(f"# rankeval compare's TREC arrays: {n_queries:,} queries x 100 "
          f"documents, {len(runs)} runs ({new[0].shape[0]:,} rows)")
    t_old = timed(lambda: trec_runs_by_query(qrels, runs, qids), args.repeat)
    line("previous rule, query by query in Python", t_old)
    t_new = timed(lambda: align_runs(qrels, runs, qids), args.repeat)
    line("align_runs, one grouped pass", t_new, t_old)
    print(f"  old / new: {t_old[0] / t_new[0]:.2f}x (medians)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=("bootstrap", "compare", "trec_align"), default=None)
    parser.add_argument("--skip-ranx", action="store_true",
                        help="leave out ranx (its Run objects take minutes)")
    args = parser.parse_args(argv)
    import os
    print(f"# load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.only in (None, "bootstrap"):
        bench_bootstrap(args)
    if args.only in (None, "compare"):
        bench_compare(args)
    if args.only in (None, "trec_align"):
        bench_trec_align(args)
    print(f"# load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
