"""Wave-2 benchmarks: per-group frames, the accumulator, string ids, chunked files.

Every figure is a ratio to a reference timed in the same run::

    python benchmarks/bench_wave2.py                    # all, W1 at full size
    python benchmarks/bench_wave2.py --scale 0.1        # a quick look
    python benchmarks/bench_wave2.py --only engine --before 0368fdf
    python benchmarks/bench_wave2.py --only parquet --parquet-rows 100000000

* ``frame``: ``per_group_scores`` of the 9 default metrics on W1 (10M rows,
  1M users) over ``ranking_report`` of the same metrics (target <= 1.5).
* ``accumulator``: ``RankingAccumulator("complete")`` over W1 cut into 100
  updates of whole groups, over one ``ranking_report`` (target <= 1.3).
* ``ids``: 5M rows, 500k users: string ids (object, ``string[pyarrow]``)
  over int ids, ``ranking_report`` (target <= 2).
* ``engine``: W1 GAUC (unweighted and with float item weights), W1 iAP with
  weights, W2 ``ranking_report`` (grouped), here and at the commit
  ``--before`` (run from a ``git worktree`` in a subprocess).
* ``parquet``: peak RSS of ``rankeval evaluate --group-rows sorted`` on a
  Parquet file of ``--parquet-rows`` rows sorted by user, written first.
"""

import argparse
import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import click_log  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def best_of(fn, repeat):
    fn()  # warm-up
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times)), float(np.min(times))


def line(name, t, ref=None, target=None):
    ratio = "" if ref is None else f"  ratio {t[0] / ref[0]:.2f}"
    tgt = "" if target is None else f" (target <= {target})"
    print(f"{name:58s} median {t[0]:7.2f} s  min {t[1]:7.2f} s{ratio}{tgt}",
          flush=True)
    return {"name": name, "median": t[0], "min": t[1],
            **({} if ref is None else {"ratio": t[0] / ref[0]})}


def bench_frame(args, y, s, g):
    ref = best_of(lambda: rk.ranking_report(y, s, groups=g, output="dict"),
                  args.repeat)
    out = [line("W1 ranking_report (9 default metrics)", ref)]
    t = best_of(lambda: rk.per_group_scores(y, s, groups=g, output="dict"),
                args.repeat)
    out.append(line("W1 per_group_scores (same metrics, dict)", t, ref, 1.5))
    t = best_of(lambda: rk.per_group_scores(y, s, groups=g), args.repeat)
    out.append(line("W1 per_group_scores (same metrics, pandas)", t, ref, 1.5))
    return out, ref


def bench_accumulator(args, y, s, g, ref):
    order = np.argsort(g, kind="stable")
    ys, ss, gs = y[order], s[order], g[order]
    starts = np.flatnonzero(np.r_[True, gs[1:] != gs[:-1]])
    cuts = starts[np.linspace(0, len(starts), 101, dtype=int)[1:-1]]
    bounds = [0, *cuts.tolist(), len(gs)]

    def accumulate(mode="complete", keep=True):
        acc = rk.RankingAccumulator(group_rows=mode, keep_groups=keep)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            acc.update(ys[lo:hi], ss[lo:hi], groups=gs[lo:hi])
        return acc.result()

    expected = rk.ranking_report(y, s, groups=g, output="dict")
    got = accumulate()
    worst = max(abs(got[k] - expected[k]) / abs(expected[k]) for k in expected)
    print(f"  accumulator == ranking_report: max relative difference {worst:.1e}")
    # the batches come from the rows sorted by user, which the engine ranks
    # faster (contiguous groups): compare with one call on those rows too
    ref_sorted = best_of(lambda: rk.ranking_report(ys, ss, groups=gs,
                                                   output="dict"), args.repeat)
    out = [line("W1 ranking_report on the rows sorted by user", ref_sorted, ref)]
    t = best_of(accumulate, args.repeat)
    out.append(line("W1 RankingAccumulator('complete'), 100 updates", t, ref, 1.3))
    out.append(line("  ... over ranking_report on the same sorted rows", t,
                    ref_sorted, 1.3))
    out.append(line("W1 RankingAccumulator('sorted'), 100 updates", best_of(
        lambda: accumulate("sorted"), args.repeat), ref))
    out.append(line("W1 RankingAccumulator('complete', keep_groups=False)",
                    best_of(lambda: accumulate(keep=False), args.repeat), ref))
    return out


def bench_ids(args):
    import pandas as pd

    rng = np.random.default_rng(0)
    n, n_users = int(5_000_000 * args.scale), int(500_000 * args.scale)
    gi = rng.integers(0, n_users, n)
    y = (rng.random(n) < 0.1).astype(np.int8)
    s = np.round(rng.random(n), 3)
    names = np.array([f"user{i:07d}" for i in range(n_users)], dtype=object)
    kinds = {
        "int": gi,
        "pandas Categorical": pd.Categorical(names[gi]),
        "object strings": names[gi],
        "pandas string[pyarrow]": pd.Series(names[gi], dtype="string[pyarrow]"),
    }
    out, ref = [], None
    for kind, groups in kinds.items():
        t = best_of(lambda groups=groups: rk.ranking_report(
            y, s, groups=groups, output="dict"), args.repeat)
        ref = ref or t
        out.append(line(f"ids: ranking_report, {kind} ({n:,} rows, {n_users:,})",
                        t, ref, None if kind == "int" else 2))
    return out


ENGINE_SNIPPET = r"""
import json, sys, time, gc
import numpy as np
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import sklearn_rankeval as rk
from run import click_log, retrieval_run
scale, repeat = float(sys.argv[3]), int(sys.argv[4])
y, s, g = click_log(int(1_000_000 * scale))
w = np.random.default_rng(5).random(len(y)) * 3 + 0.1
Y, S = retrieval_run(int(100_000 * scale))
gq = np.repeat(np.arange(Y.shape[0]), Y.shape[1])
cases = {
    "W1 gauc_score": lambda: rk.gauc_score(y, s, groups=g),
    "W1 gauc_score, float item weights": lambda: rk.gauc_score(
        y, s, groups=g, sample_weight=w),
    "W1 interpolated AP, float item weights": lambda:
        rk.interpolated_average_precision_score(y, s, groups=g, sample_weight=w),
    "W2 ranking_report, five metrics (grouped)": lambda: rk.ranking_report(
        Y.ravel(), S.ravel(), groups=gq, output_dict=True,
        metrics=["map", "mrr", "ndcg@10", "precision@10", "recall@10"]),
}
out = {}
for name, fn in cases.items():
    fn()
    times = []
    for _ in range(repeat):
        gc.collect(); t0 = time.perf_counter(); fn(); times.append(time.perf_counter() - t0)
    out[name] = [float(np.median(times)), float(np.min(times))]
print(json.dumps(out))
"""


def bench_engine(args):
    trees = {"now": ROOT}
    tmp = None
    if args.before:
        tmp = tempfile.mkdtemp(prefix="rankeval-before-")
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach",
                        tmp, args.before], check=True, capture_output=True)
        trees = {f"at {args.before}": Path(tmp), "now": ROOT}
    results = {}
    try:
        # alternate the trees (a, b, a, b) so that a change of machine load
        # does not favour one of them; keep each case's best median
        for _ in range(2):
            for label, tree in trees.items():
                proc = subprocess.run(
                    [sys.executable, "-c", ENGINE_SNIPPET, str(tree),
                     str(ROOT / "benchmarks"), str(args.scale), str(args.repeat)],
                    check=True, capture_output=True, text=True)
                got = json.loads(proc.stdout.strip().splitlines()[-1])
                prev = results.setdefault(label, got)
                for name, t in got.items():
                    if t[0] < prev[name][0]:
                        prev[name] = t
    finally:
        if tmp:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            tmp], check=False)
    out = []
    labels = list(results)
    for name in results["now"]:
        ref = results[labels[0]][name]
        for label in labels:
            out.append(line(f"{name} [{label}]", results[label][name],
                            ref if label != labels[0] else None))
    return out


def bench_parquet(args):
    import pyarrow as pa
    import pyarrow.parquet as pq

    n_rows = args.parquet_rows
    path = Path(args.parquet_dir or tempfile.gettempdir()) / f"w1_sorted_{n_rows}.parquet"
    if not path.exists():
        t0 = time.perf_counter()
        rng = np.random.default_rng(0)
        writer, user0, written = None, 0, 0
        while written < n_rows:
            n_users = 500_000
            sizes = np.clip(rng.geometric(0.1, n_users), 1, 100)
            sizes = sizes[np.cumsum(sizes) <= n_rows - written] if \
                sizes.sum() > n_rows - written else sizes
            if len(sizes) == 0:
                sizes = np.array([n_rows - written])
            users = np.repeat(np.arange(user0, user0 + len(sizes)), sizes)
            n = len(users)
            score = np.round(rng.random(n), 4)
            label = (rng.random(n) < 0.2 * score).astype(np.int8)
            table = pa.table({"user": users, "clicked": label, "score": score})
            if writer is None:
                writer = pq.ParquetWriter(path, table.schema)
            writer.write_table(table, row_group_size=1_000_000)
            user0 += len(sizes)
            written += n
        writer.close()
        print(f"  wrote {path} ({written:,} rows, {user0:,} users, "
              f"{path.stat().st_size / 1e9:.2f} GB) in {time.perf_counter() - t0:.0f} s")
    cmd = [sys.executable, "-m", "sklearn_rankeval", "evaluate", str(path),
           "--group", "user", "--label", "clicked", "--score", "score",
           "--group-rows", "sorted", "--format", "json"]
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    elapsed = time.perf_counter() - t0
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if proc.returncode:
        print(proc.stderr)
        raise SystemExit("rankeval evaluate failed")
    doc = json.loads(proc.stdout)
    print(f"{'rankeval evaluate --group-rows sorted':58s} {elapsed:7.1f} s  "
          f"peak RSS {peak_kb / 1e6:.2f} GB (target <= 2; before: "
          f"{before / 1e6:.2f} GB)  {doc['n_rows']:,} rows, "
          f"{doc['n_groups']:,} groups")
    return [{"name": "parquet evaluate sorted", "seconds": elapsed,
             "peak_rss_gb": peak_kb / 1e6, "rows": doc["n_rows"],
             "metrics": doc["metrics"]}]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*",
                        choices=["frame", "accumulator", "ids", "engine", "parquet"])
    parser.add_argument("--before", default=None,
                        help="commit to compare the engine with (git worktree)")
    parser.add_argument("--parquet-rows", type=int, default=100_000_000)
    parser.add_argument("--parquet-dir", default=None)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    only = set(args.only or ["frame", "accumulator", "ids", "engine"])
    rows = []
    if only & {"frame", "accumulator"}:
        y, s, g = click_log(int(1_000_000 * args.scale))
        print(f"# W1: {len(y):,} rows, {len(np.unique(g)):,} users")
        frame_rows, ref = bench_frame(args, y, s, g)
        rows += frame_rows
        if "accumulator" in only:
            rows += bench_accumulator(args, y, s, g, ref)
        del y, s, g
    if "ids" in only:
        rows += bench_ids(args)
    if "engine" in only:
        rows += bench_engine(args)
    if "parquet" in only:
        rows += bench_parquet(args)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
