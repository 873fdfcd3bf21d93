"""Engine round 3 (issue 24): every target as a ratio measured in one run.

    python benchmarks/bench_round3.py                 # all parts
    python benchmarks/bench_round3.py --only gauc ids --repeat 9

Each ratio is the median over ``--repeat`` rounds of the ratio of the two
sides timed back to back in that round (the machine is shared: pairing the
two sides keeps their load alike).  Parts:

* ``gauc``: ``gauc_score`` over ``np.argsort(y_score)`` on W1 (shuffled click
  log, 4-decimal scores) of 3M and 10M rows (target <= 1.5), at the default
  ``working_memory`` and at 1024 MiB (scikit-learn's default), with the
  peak memory traced by ``tracemalloc`` over the input's bytes (<= 1.5).
* ``w2``: ``ranking_report`` of MAP, MRR, NDCG@10, P@10, R@10 on 20,000
  queries x 100 documents, grouped, against pytrec_eval's ``evaluate`` of
  the same five (target: 10x faster).
* ``ids``: ``ranking_report`` (9 default metrics), 2M rows, 200k users:
  object-string ids over int ids (target <= 1.5), the first call on a new
  array (hashing the strings) and a repeated call (factorization reused).
* ``rankers``: the measured reason of each ranker beside the NumPy fast
  path: the multiclass ranker (W3, 1M x 100) against the same input ranked
  as 2-D one-hot relevance; the generic ranker (Array API) on NumPy.
"""

import argparse
import gc
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import click_log, multiclass, retrieval_run  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402
from sklearn_rankeval._engine import _dispatch as _engine  # noqa: E402

W2_METRICS = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]


def paired(fa, fb, repeat):
    """Median seconds of each side and the median of their ratios b / a."""
    fa(), fb()
    ta, tb = [], []
    for _ in range(repeat):
        for f, out in ((fa, ta), (fb, tb)):
            gc.collect()
            t0 = time.perf_counter()
            f()
            out.append(time.perf_counter() - t0)
    ta, tb = np.array(ta), np.array(tb)
    return float(np.median(ta)), float(np.median(tb)), float(np.median(tb / ta))


def peak(fn):
    gc.collect()
    tracemalloc.start()
    fn()
    out = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out


def line(text):
    print(text, flush=True)


def part_gauc(args):
    for users in (300_000, 1_000_000):
        _gauc_at(click_log(users), args)


def _gauc_at(data, args):
    y, s, g = data
    nbytes = y.nbytes + s.nbytes + g.nbytes
    for wm in (None, 1024):
        label = "default" if wm is None else f"{wm} MiB"
        with rk.config_context(working_memory=wm):
            a, b, r = paired(lambda: np.argsort(s),
                             lambda: rk.gauc_score(y, s, groups=g), args.repeat)
            mem = peak(lambda: rk.gauc_score(y, s, groups=g)) / nbytes
        line(f"W1 {len(y):>10,} rows, working_memory {label:>8}: argsort "
             f"{a:.3f} s, gauc {b:.3f} s, gauc/argsort {r:.2f} (<= 1.5); "
             f"peak/input {mem:.2f}")
    mem = peak(lambda: rk.ranking_report(y, s, groups=g)) / nbytes
    line(f"W1 {len(y):>10,} rows: ranking_report (9 metrics) peak/input {mem:.2f}")


def w2_workload():
    """20,000 queries x 100 documents: ``(Y, S, y, s, g, qrel, run, ev)``, the
    rows flattened and grouped, and pytrec_eval's dicts and evaluator of the
    five metrics."""
    import pytrec_eval

    Y, S = retrieval_run(20_000)
    n_q, n_d = Y.shape
    y, s, g = Y.ravel(), S.ravel(), np.repeat(np.arange(n_q), n_d)
    qrel = {f"q{q}": {f"d{d}": int(Y[q, d]) for d in np.flatnonzero(Y[q])}
            for q in range(n_q)}
    run = {f"q{q}": {f"d{d}": float(S[q, d]) for d in range(n_d)}
           for q in range(n_q)}
    ev = pytrec_eval.RelevanceEvaluator(
        qrel, {"map", "recip_rank", "ndcg_cut.10", "P.10", "recall.10"})
    return Y, S, y, s, g, qrel, run, ev


def part_w2(args):
    Y, S, y, s, g, qrel, run, ev = w2_workload()
    a, b, r = paired(
        lambda: ev.evaluate(run),
        lambda: rk.ranking_report(y, s, groups=g, metrics=W2_METRICS,
                                  output="dict"), args.repeat)
    line(f"W2 20,000 x 100 grouped: pytrec_eval {a:.3f} s, ranking_report "
         f"{b:.3f} s, speed-up {1 / r:.1f}x (>= 10)")
    a2, b2, r2 = paired(
        lambda: ev.evaluate(run),
        lambda: rk.ranking_report(Y, S, metrics=W2_METRICS, output="dict"),
        args.repeat)
    line(f"W2 20,000 x 100 2-D:     pytrec_eval {a2:.3f} s, ranking_report "
         f"{b2:.3f} s, speed-up {1 / r2:.1f}x")


def ids_workload(n_fresh):
    """2M rows of 200k users: ``(int ids, y, s, object-string ids, fresh)``,
    ``fresh`` holding ``n_fresh`` new arrays of the same strings."""
    rng = np.random.default_rng(0)
    n, n_users = 2_000_000, 200_000
    gi = rng.integers(0, n_users, n)
    y = (rng.random(n) < 0.1).astype(np.int8)
    s = np.round(rng.random(n), 3)
    names = np.array([f"user{i:07d}" for i in range(n_users)], dtype=object)
    go = names[gi]
    return gi, y, s, go, [go.copy() for _ in range(n_fresh)]  # new: hashed


def part_ids(args):
    gi, y, s, go, fresh = ids_workload(args.repeat + 1)

    def cold():
        rk.ranking_report(y, s, groups=fresh.pop(), output="dict")

    a, b, r = paired(lambda: rk.ranking_report(y, s, groups=gi, output="dict"),
                     cold, args.repeat)
    line(f"ids 2M rows, 200k users: int {a:.3f} s, object strings (new array "
         f"each call) {b:.3f} s, ratio {r:.2f}")
    a, b, r = paired(lambda: rk.ranking_report(y, s, groups=gi, output="dict"),
                     lambda: rk.ranking_report(y, s, groups=go, output="dict"),
                     args.repeat)
    line(f"ids 2M rows, 200k users: int {a:.3f} s, object strings (same array) "
         f"{b:.3f} s, ratio {r:.2f} (<= 1.5)")


def part_rankers(args):
    y, P = multiclass(1_000_000)
    onehot = np.zeros(P.shape, dtype=np.int8)
    onehot[np.arange(P.shape[0]), y] = 1
    a, b, r = paired(lambda: rk.mean_reciprocal_rank_score(y, P),
                     lambda: rk.mean_reciprocal_rank_score(onehot, P),
                     max(args.repeat // 3, 1))
    line(f"W3 1M x 100 MRR: multiclass ranker {a:.3f} s, the same as 2-D one-hot "
         f"(NumPy fast path) {b:.3f} s: the multiclass ranker {r:.1f}x faster")
    yw, sw, gw = click_log(100_000)
    old = _engine.ENGINE_PATH
    try:
        def generic():
            _engine.ENGINE_PATH = "generic"
            rk.gauc_score(yw, sw, groups=gw)
            _engine.ENGINE_PATH = old

        a, b, r = paired(lambda: rk.gauc_score(yw, sw, groups=gw), generic,
                         args.repeat)
    finally:
        _engine.ENGINE_PATH = old
    line(f"W1 {len(yw):,} rows GAUC: NumPy fast path {a:.3f} s, generic ranker "
         f"on NumPy {b:.3f} s ({r:.1f}x; it exists for the other namespaces)")


PARTS = {"gauc": part_gauc, "w2": part_w2, "ids": part_ids, "rankers": part_rankers}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=list(PARTS), default=list(PARTS))
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    line(f"# numpy {np.__version__}, {platform.machine()}, working_memory default "
         f"{rk.get_config()['working_memory']} MiB")
    for name in args.only:
        PARTS[name](args)


if __name__ == "__main__":
    main()
