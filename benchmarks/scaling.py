"""Scaling and memory of the engine, each figure beside its reference.

    python benchmarks/run.py scaling --part gauc --rows 1e6 2e6 1e7 2e7 1e8 2e8 --repeat 5
    python benchmarks/run.py scaling --part growth --rows 2e6 2e7 --repeat 5
    python benchmarks/run.py scaling --part memory
    python benchmarks/run.py scaling --part speed
    python benchmarks/run.py scaling --part clicklog --rows 1e8 1e9 --chunk-rows 4000000

Parts:

* ``gauc``: the scaling table: GAUC on W1's rows (``_data.click_log_lean``:
  shuffled click log, users of 1-100 rows, 4-decimal scores) at each
  ``--rows``, the best of ``--repeat`` and its nanoseconds a row, beside
  ``np.argsort(y_score)`` and one ``np.bincount(groups, weights=y_score)``
  pass of the same rows; the growth from the previous size and from the
  size ten times smaller (``over_tenth_size``); with ``--memory`` the peak
  traced from a cold workspace over the input's bytes.  A size whose rows
  would not fit the memory available is skipped, and said so.
* ``growth``: GAUC at two sizes (``--rows 2e6 2e7``) timed in turn round
  after round: the ratio of the best of each and the median of the rounds'
  ratios; then the larger on one thread and on the default threads.
* ``memory``: peak extra memory over the input bytes, traced by
  ``tracemalloc`` (NumPy's allocations), of W1 GAUC, W2's five metrics and
  ``ranking_report`` (grouped and 2-D).
* ``speed``: W1 GAUC / argsort at 10M rows; W2 per metric and
  ``ranking_report`` beside pytrec_eval's ``evaluate`` (if installed); W3 MRR
  and HR@5 beside ``np.argpartition(P, -5, axis=1)``.
* ``clicklog``: writes a Parquet click log of each ``--rows`` (int32 user ids
  sorted, float32 scores, uint8 clicks; 9 bytes a row) in a temporary
  directory, runs ``rankeval evaluate`` on it (GAUC and the default report,
  ``--group-rows sorted``) in a child process, reports its time and peak RSS
  (``ru_maxrss`` of the child), and deletes the file.

Every part prints one line per measurement and, with ``--json``, appends
them to a JSON-lines file.
"""

import argparse
import gc
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from functools import partial

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _timing  # noqa: E402
from _data import click_log, click_log_lean, multiclass, retrieval_run  # noqa: E402
from _timing import emit, write_to  # noqa: E402
from _timing import traced_peak as peak_traced  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402
from sklearn_rankeval._metrics._registry import DEFAULT_METRICS  # noqa: E402


def timed(fn, repeat):
    t = _timing.timed(fn, repeat)
    return t.times, t.result


# ---------------------------------------------------------------------------
# data: the generators of benchmarks/_data.py
# ---------------------------------------------------------------------------
def w1(n_rows):
    """W1 of _data.py (users of 1-100 rows, mean ~10, shuffled) with ~n_rows rows."""
    return click_log(max(1, n_rows // 10))


W2_FUNCS = [
    ("MAP", "map", "map", lambda Y, S, **kw: rk.mean_average_precision_score(
        Y, S, **kw)),
    ("MRR", "recip_rank", "recip_rank",
     lambda Y, S, **kw: rk.mean_reciprocal_rank_score(Y, S, **kw)),
    ("NDCG@10", "ndcg_cut.10", "ndcg_cut_10",
     lambda Y, S, **kw: rk.ndcg_score(Y, S, k=10, **kw)),
    ("P@10", "P.10", "P_10", lambda Y, S, **kw: rk.precision_at_k_score(
        Y, S, k=10, average="macro", **kw)),
    ("R@10", "recall.10", "recall_10", lambda Y, S, **kw: rk.recall_at_k_score(
        Y, S, k=10, average="macro", **kw)),
]
REPORT = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]


# ---------------------------------------------------------------------------
# parts
# ---------------------------------------------------------------------------
def _available_bytes():
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover
        pass
    return None


def part_gauc(args):
    """The scaling table: GAUC ns a row at each size, best of ``--repeat``,
    beside ``np.argsort(y_score)`` and one ``np.bincount(groups,
    weights=y_score)`` pass of the same rows; the growth from the previous
    size and each pair of sizes ten times apart."""
    done = {}
    prev = None
    for n in args.rows:
        avail = _available_bytes()
        need = 17 * n * (1 + 1.5 + 0.5)  # input, the pass, the generator
        if avail is not None and need > avail:
            emit(part="gauc", rows=n, skipped=f"needs ~{need / 2**30:.1f} GiB, "
                 f"{avail / 2**30:.1f} GiB available")
            continue
        y, s, g = click_log_lean(n)
        t_gauc = _timing.timed(partial(rk.gauc_score, y, s, groups=g), args.repeat)
        sort_repeat = args.repeat if n <= 20_000_000 else 1
        t_sort = _timing.timed(partial(np.argsort, s), sort_repeat,
                               warmup=int(n <= 20_000_000))
        t_bin = _timing.timed(partial(np.bincount, g, weights=s), args.repeat)
        row = {"part": "gauc", "rows": n, "gauc_min": t_gauc.min,
               "gauc_median": t_gauc.median, "ns_per_row": t_gauc.min / n * 1e9,
               "argsort_min": t_sort.min, "bincount_min": t_bin.min,
               "gauc_over_argsort": t_gauc.min / t_sort.min,
               "gauc_over_bincount": t_gauc.min / t_bin.min,
               "value": float(t_gauc.result), "load": _timing.load()}
        if prev is not None:
            row["gauc_growth"] = t_gauc.min / prev["gauc_min"]
            row["rows_growth"] = n / prev["rows"]
        tenth = done.get(n // 10)
        if tenth is not None:
            row["over_tenth_size"] = t_gauc.min / tenth["gauc_min"]
        if args.memory:
            peak = peak_traced(partial(rk.gauc_score, y, s, groups=g), cold=True)
            row["peak_over_input"] = peak / (y.nbytes + s.nbytes + g.nbytes)
        emit(**row)
        done[n] = prev = row
        del y, s, g
        gc.collect()


def part_growth(args):
    """GAUC at two sizes (``--rows SMALL LARGE``) timed in turn, round after
    round (a change of load falls on both): the ratio of the best of each
    (the issue's measure) and the median of the rounds' ratios; the large
    size without the radix partition in the same rounds; then the large
    size on one thread and on the default threads."""
    small, large = args.rows[:2]
    data = {n: click_log_lean(n) for n in (small, large)}

    def gauc(n):
        y, s, g = data[n]
        return rk.gauc_score(y, s, groups=g)

    from sklearn_rankeval._engine import _compiled

    def unpartitioned():
        on = _compiled.PARTITION_MIN_SLOTS
        _compiled.PARTITION_MIN_SLOTS = 1 << 62  # (the pass as before it)
        try:
            return gauc(large)
        finally:
            _compiled.PARTITION_MIN_SLOTS = on

    for n in (small, large):
        gauc(n)  # warm-up
    cases = {small: partial(gauc, small), large: partial(gauc, large),
             "off": unpartitioned}
    times = {key: [] for key in cases}
    for _ in range(args.repeat):
        for key, fn in cases.items():
            times[key].append(_timing.timed(fn, 1, warmup=0).min)
    t_small, t_large = np.array(times[small]), np.array(times[large])
    t_off = np.array(times["off"])
    emit(part="growth", rows=large, partitioned_min=t_large.min(),
         unpartitioned_min=t_off.min(), speedup=t_off.min() / t_large.min(),
         median_speedup=float(np.median(t_off / t_large)))
    emit(part="growth", small=small, large=large, small_min=t_small.min(),
         large_min=t_large.min(), best_ratio=t_large.min() / t_small.min(),
         median_ratio=float(np.median(t_large / t_small)),
         ns_per_row_small=t_small.min() / small * 1e9,
         ns_per_row_large=t_large.min() / large * 1e9, load=_timing.load())
    with _timing.one_thread():
        one = _timing.timed(partial(gauc, large), args.repeat).min
    many = _timing.timed(partial(gauc, large), args.repeat).min
    from sklearn_rankeval._engine import _grouped

    emit(part="threads", rows=large, one_thread_min=one, threads=_grouped.max_threads(),
         threads_min=many, speedup=one / many, load=_timing.load())


def part_memory(args):
    y_true, y_score, groups = w1(10_000_000)
    input_bytes = y_true.nbytes + y_score.nbytes + groups.nbytes
    peak = peak_traced(partial(rk.gauc_score, y_true, y_score, groups=groups))
    emit(part="memory", workload="W1 GAUC (shuffled)", input_mb=input_bytes / 1e6,
         peak_mb=peak / 1e6, peak_over_input=peak / input_bytes)
    del y_true, y_score, groups
    Y, S = retrieval_run(100_000)
    q = np.repeat(np.arange(Y.shape[0]), Y.shape[1])
    y, s = Y.ravel(), S.ravel()
    layouts = [("grouped", (y, s), {"groups": q}, y.nbytes + s.nbytes + q.nbytes),
               ("2-D", (Y, S), {}, Y.nbytes + S.nbytes)]
    for layout, arrays, kw, input_bytes in layouts:
        for label, _, _, fn in W2_FUNCS:
            peak = peak_traced(partial(fn, *arrays, **kw))
            emit(part="memory", workload=f"W2 {label} ({layout})",
                 input_mb=input_bytes / 1e6, peak_mb=peak / 1e6,
                 peak_over_input=peak / input_bytes)
        peak = peak_traced(partial(rk.ranking_report, *arrays, metrics=REPORT,
                                   output="dict", **kw))
        emit(part="memory", workload=f"W2 ranking_report ({layout})",
             input_mb=input_bytes / 1e6, peak_mb=peak / 1e6,
             peak_over_input=peak / input_bytes)


def _pytrec_inputs(Y, S):
    qrel, run = {}, {}
    for i in range(Y.shape[0]):
        q = f"q{i}"
        qrel[q] = {f"d{j}": int(Y[i, j]) for j in np.flatnonzero(Y[i]).tolist()}
        run[q] = {f"d{j}": float(v) for j, v in enumerate(S[i].tolist())}
    return qrel, run


def part_speed(args):
    y_true, y_score, groups = w1(10_000_000)
    t_sort, _ = timed(partial(np.argsort, y_score), args.repeat)
    t_gauc, _ = timed(partial(rk.gauc_score, y_true, y_score, groups=groups), args.repeat)
    emit(part="speed", workload="W1 GAUC 10M", gauc_median=float(np.median(t_gauc)),
         argsort_median=float(np.median(t_sort)),
         gauc_over_argsort=float(np.median(t_gauc) / np.median(t_sort)))
    del y_true, y_score, groups

    Y, S = retrieval_run(100_000)
    q = np.repeat(np.arange(Y.shape[0]), Y.shape[1])
    y, s = Y.ravel(), S.ravel()
    ours = {}
    for label, _, _, fn in W2_FUNCS:
        for layout, arrays, kw in [("grouped", (y, s), {"groups": q}),
                                   ("2-D", (Y, S), {})]:
            t, v = timed(lambda fn=fn, arrays=arrays, kw=kw: fn(*arrays, **kw),
                         args.repeat)
            ours[label, layout] = (float(np.median(t)), float(v))
    for layout, arrays, kw in [("grouped", (y, s), {"groups": q}), ("2-D", (Y, S), {})]:
        t, _ = timed(lambda arrays=arrays, kw=kw: rk.ranking_report(
            *arrays, metrics=REPORT, output="dict", **kw), args.repeat)
        ours["report", layout] = (float(np.median(t)), None)
    try:
        import pytrec_eval
    except ImportError:
        pytrec_eval = None
        print("# pytrec_eval not installed: W2 is timed without it")
    trec = {}
    if pytrec_eval is not None:
        qrel, run = _pytrec_inputs(Y, S)
        for label, measure_name, key, _ in W2_FUNCS:
            ev = pytrec_eval.RelevanceEvaluator(qrel, {measure_name})
            t, res = timed(lambda ev=ev: ev.evaluate(run), max(1, args.repeat // 2))
            vals = [r[key] for r in res.values()]
            trec[label] = (float(np.median(t)), float(np.mean(vals)))
        ev = pytrec_eval.RelevanceEvaluator(
            qrel, {name for _, name, _, _ in W2_FUNCS})
        t, _ = timed(lambda: ev.evaluate(run), max(1, args.repeat // 2))
        trec["report"] = (float(np.median(t)), None)
    for label in [*(f[0] for f in W2_FUNCS), "report"]:
        for layout in ("grouped", "2-D"):
            t, v = ours[label, layout]
            row = {"part": "speed", "workload": f"W2 {label} ({layout})",
                   "ours_median": t}
            if v is not None:
                row["value"] = v
            if label in trec:
                row["pytrec_eval_median"] = trec[label][0]
                row["pytrec_eval_over_ours"] = trec[label][0] / t
                if trec[label][1] is not None:
                    row["pytrec_eval_value"] = trec[label][1]
            emit(**row)
    del Y, S, y, s, q

    ym, P = multiclass(1_000_000)
    t_part, _ = timed(lambda: np.argpartition(P, -5, axis=1), args.repeat)
    for label, fn in [("MRR", lambda: rk.mean_reciprocal_rank_score(ym, P)),
                      ("HR@5", lambda: rk.hit_rate_score(ym, P, k=5))]:
        t, v = timed(fn, args.repeat)
        emit(part="speed", workload=f"W3 {label}", ours_median=float(np.median(t)),
             argpartition_median=float(np.median(t_part)),
             ours_over_argpartition=float(np.median(t) / np.median(t_part)),
             value=float(v))


def write_click_log(path, n_rows, seed=0, batch_rows=10_000_000):
    """A Parquet click log sorted by user: int32 user, float32 score, uint8 click."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    schema = pa.schema([("user", pa.int32()), ("score", pa.float32()),
                        ("click", pa.uint8())])
    written, next_user = 0, 0
    with pq.ParquetWriter(path, schema, compression="none",
                          use_dictionary=False) as writer:
        while written < n_rows:
            sizes = rng.integers(1, 201, batch_rows // 100)
            users = np.repeat(np.arange(next_user, next_user + sizes.size,
                                        dtype=np.int32), sizes)
            users = users[:n_rows - written]
            next_user += sizes.size
            m = users.size
            base = rng.normal(size=sizes.size).astype(np.float32)
            base = np.repeat(base, sizes)[:m]
            score = base + rng.normal(size=m).astype(np.float32)
            score = np.round(1 / (1 + np.exp(-score)), 4).astype(np.float32)
            click = (rng.random(m, dtype=np.float32) < 0.1 * (0.5 + score))
            table = pa.table({"user": users, "score": score,
                              "click": click.astype(np.uint8)}, schema=schema)
            writer.write_table(table, row_group_size=1 << 20)
            written += m
    return written


def part_clicklog(args):
    metrics = ["gauc", *[m for m in DEFAULT_METRICS if m != "gauc"]]
    prev = None
    for n in args.rows:
        tmp = tempfile.mkdtemp(prefix="rankeval_clicklog_", dir=args.tmp)
        try:
            path = os.path.join(tmp, "clicks.parquet")
            t0 = time.perf_counter()
            write_click_log(path, n)
            t_write = time.perf_counter() - t0
            size = os.path.getsize(path)
            cmd = [sys.executable, "-m", "sklearn_rankeval", "evaluate", path,
                   "--group", "user", "--label", "click", "--score", "score",
                   "--group-rows", "sorted", "--chunk-rows", str(args.chunk_rows),
                   "--format", "json"]
            for m in metrics:
                cmd += ["-m", m]
            print("#", " ".join(cmd), flush=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True)
            elapsed = time.perf_counter() - t0
            rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            if proc.returncode != 0:
                print(proc.stderr, file=sys.stderr)
                raise SystemExit(f"rankeval evaluate failed ({proc.returncode})")
            doc = json.loads(proc.stdout)
            row = {"part": "clicklog", "rows": n, "file_gb": size / 1e9,
                   "write_s": t_write, "evaluate_s": elapsed,
                   # ru_maxrss is the largest child so far (KiB on Linux)
                   "peak_rss_gb": rss * 1024 / 1e9,
                   "rss_is_this_run": rss > before,
                   "n_groups": doc["n_groups"],
                   **{f"value_{k}": v for k, v in doc["metrics"].items()}}
            if prev is not None:
                row["evaluate_growth"] = elapsed / prev["evaluate_s"]
                row["rows_growth"] = n / prev["rows"]
            emit(**row)
            prev = row
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("gauc", "growth", "memory", "speed",
                                           "clicklog"),
                        required=True)
    parser.add_argument("--rows", type=lambda s: int(float(s)), nargs="+",
                        default=[10_000_000, 100_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory", action="store_true",
                        help="gauc: also trace the peak memory (a separate run)")
    parser.add_argument("--chunk-rows", type=int, default=4_000_000,
                        help="clicklog: rankeval evaluate --chunk-rows")
    parser.add_argument("--tmp", default=None, help="clicklog: temporary folder")
    parser.add_argument("--json", default=None, help="append rows to this file")
    args = parser.parse_args(argv)
    if args.json:
        write_to(args.json)
    print(f"# numpy {np.__version__}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} CPUs, working_memory={rk.get_config()['working_memory']}"
          if hasattr(rk, "get_config") else f"# numpy {np.__version__}", flush=True)
    {"gauc": part_gauc, "growth": part_growth, "memory": part_memory,
     "speed": part_speed, "clicklog": part_clicklog}[args.part](args)


if __name__ == "__main__":
    main()
