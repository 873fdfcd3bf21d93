"""sklearn_rankeval.spark and .dask beside the in-memory report, same rows, same run.

    python benchmarks/run.py distributed --users 1000000 --repeat 1 --warmup 0
    python benchmarks/run.py distributed --users 200000 --repeat 3
    python benchmarks/run.py distributed --users 20000 --repeat 1   # quick look
    python benchmarks/run.py distributed --recommend --rec-users 10000  # top-N

The rows are W1's click log (``_data.py``: users of 1-100 impressions, mean
~10, shuffled, 4-decimal scores), written as Parquet (8 files) to a temporary
folder, with a column ``item`` (the row's index).  Timed, median of
``--repeat`` after ``--warmup`` untimed runs (the first Spark and the first
Dask measurement always get one: JVM, Python workers, Dask workers):

* in memory: ``ranking_report`` (default metrics, and GAUC alone) on the
  NumPy arrays;
* Spark (``local[N]``, N = ``--cores``, Arrow on): ``spark.ranking_report`` on
  the Parquet folder (reading included), with the default metrics and with
  ``metrics=["gauc"]`` (like for like with SQL); (a) GAUC written with window
  functions in Spark SQL (average rank of the tied items, Mann-Whitney per
  user, impression-weighted mean): the values must agree; (b)
  ``pyspark.ml.evaluation.RankingEvaluator`` MAP and NDCG@10 on arrays of item
  ids per user built with Spark (``collect_list`` of (-score, item) sorted:
  ties broken by item id; labels: the items with a click), compared with the
  in-memory report under ``convention="spark"`` (input order of ties, users
  without a click count 0, binary gain) and beside our default; (c)
  ``BinaryClassificationEvaluator`` global AUC, for scale;
* Dask (``LocalCluster``, N worker processes of one thread):
  ``dask.ranking_report`` on the Parquet files (reading included), and
  ``ddf.groupby(user).apply(roc_auc_score)`` timed on ``--sample-groups``
  users and extrapolated linearly in the number of users;
* the scaling in the number of partitions (``--partitions``, default 2 8 32):
  Spark's ``spark.sql.shuffle.partitions``, Dask's input partitions.

Each line gives seconds, rows/s per core, the ratio to the in-memory
report and the peak RSS of the largest worker process during the timed runs
(psutil, sampled every 0.2 s over the driver's process tree: Dask worker
processes; Spark's Python workers, the JVM apart).  ``--json FILE`` writes
the rows.
"""

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import click_log  # noqa: E402
from _timing import timed as _timed  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

ROWS = []


class PeakRSS:
    """Peak RSS of the driver's descendant processes, sampled in a thread.

    ``worker``: the largest Python process below the driver (a Dask worker, a
    Spark Python worker or daemon); ``jvm``: the largest Java process.
    """

    def __init__(self, interval=0.2):
        import threading

        import psutil

        self._psutil, self.interval = psutil, interval
        self._me = psutil.Process()
        self._stop = threading.Event()
        self.worker = self.jvm = 0
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            try:
                children = self._me.children(recursive=True)
            except self._psutil.Error:
                children = []
            for proc in children:
                try:
                    rss = proc.memory_info().rss
                    java = "java" in proc.name()
                except self._psutil.Error:
                    continue
                if java:
                    self.jvm = max(self.jvm, rss)
                else:
                    self.worker = max(self.worker, rss)
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


LAST_PEAK = {}
SHOW_JVM = [True]  # False once Spark is stopped (its gateway JVM lingers)


def timed(fn, repeat, warmup=1):
    with PeakRSS() as peak:
        t = _timed(fn, repeat, warmup=warmup)
    LAST_PEAK.update(worker=peak.worker, jvm=peak.jvm)
    return t.median, t.min, t.result


def record(name, seconds, n_rows, cores, reference, value="", note="", peak=True):
    worker = LAST_PEAK.get("worker", 0) if peak else 0
    jvm = LAST_PEAK.get("jvm", 0) if peak and SHOW_JVM[0] else 0
    row = {"name": name, "seconds": seconds,
           "rows_per_s_per_core": n_rows / seconds / cores,
           "ratio_to_in_memory": seconds / reference if reference else 1.0,
           "value": value, "note": note, "worker_peak_rss_mb": worker / 2**20,
           "jvm_peak_rss_mb": jvm / 2**20, "load": os.getloadavg()[0]}
    ROWS.append(row)
    mem = f"{worker / 2**20:,.0f}" if worker else ""
    if jvm:
        mem += f" (JVM {jvm / 2**20:,.0f})"
    print(f"| {name} | {seconds:.3f} | {row['rows_per_s_per_core'] / 1e6:.3f} | "
          f"{row['ratio_to_in_memory']:.2f} | {mem} | {value} | {note} "
          f"| {row['load']:.1f} |", flush=True)
    return row


def seconds_of(prefix):
    return next(r["seconds"] for r in ROWS if r["name"].startswith(prefix))


def check(a, b, what, tol=1e-9):
    if not np.isclose(a, b, rtol=0, atol=tol):
        print(f"!! {what}: values differ: {a!r} vs {b!r}", flush=True)


SQL_GAUC = """
WITH ranked AS (
  SELECT user, label,
         CAST(RANK() OVER (PARTITION BY user ORDER BY score) AS DOUBLE)
           + (COUNT(*) OVER (PARTITION BY user, score) - 1) / 2.0D AS avg_rank
  FROM log
), per_user AS (
  SELECT user, COUNT(*) AS n, SUM(label) AS n_pos,
         SUM(CASE WHEN label > 0 THEN avg_rank ELSE 0 END) AS rank_sum
  FROM ranked GROUP BY user
)
SELECT SUM(n * (rank_sum - n_pos * (n_pos + 1) / 2.0D)
           / CAST(n_pos * (n - n_pos) AS DOUBLE)) / SUM(n) AS gauc
FROM per_user WHERE n_pos > 0 AND n_pos < n
"""


def bench_spark(folder, arrays, n_rows, cores, reference, expected, args):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator, RankingEvaluator
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from sklearn.metrics import roc_auc_score

    from sklearn_rankeval import spark as rk_spark

    y, s, g = arrays
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master(f"local[{cores}]")
             .config("spark.driver.memory", "8g")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.sql.shuffle.partitions", str(2 * cores))
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    kwargs = dict(y_true="label", y_score="score", groups="user")

    def report(metrics=None):
        return rk_spark.ranking_report(spark.read.parquet(str(folder)), **kwargs,
                                       metrics=metrics)

    med, _, value = timed(report, args.repeat, warmup=max(1, args.warmup))
    for name in expected:
        check(value[name], expected[name], f"spark {name}", tol=1e-12)
    record(f"spark.ranking_report (default metrics: {len(expected)}, Parquet read included)", med,
           n_rows, cores, reference, f"gauc {value['gauc']:.6f}")

    med, _, value = timed(lambda: report(["gauc"]), args.repeat, args.warmup)
    check(value["gauc"], expected["gauc"], "spark gauc alone", tol=1e-12)
    record('spark.ranking_report(metrics=["gauc"])', med, n_rows, cores,
           reference, f"gauc {value['gauc']:.6f}",
           f"{med / seconds_of('in-memory GAUC alone'):.2f}x in-memory GAUC")

    if not args.skip_frame:
        def frame():
            rk_spark.per_group_scores(spark.read.parquet(str(folder)), **kwargs) \
                .write.format("noop").mode("overwrite").save()

        med, _, _ = timed(frame, args.repeat, args.warmup)
        record("spark.per_group_scores, written (noop sink)", med, n_rows, cores,
               reference)

    def sql_gauc():
        spark.read.parquet(str(folder)).createOrReplaceTempView("log")
        return float(spark.sql(SQL_GAUC).collect()[0]["gauc"])

    med, _, value = timed(sql_gauc, args.repeat, args.warmup)
    check(value, expected["gauc"], "Spark SQL window GAUC")
    record("(a) Spark SQL GAUC with window functions (avg rank of ties)", med,
           n_rows, cores, reference, f"gauc {value:.6f}")

    # (b) RankingEvaluator on arrays of item ids per user, built with Spark.
    parts = {}

    def ranking_evaluator():
        df = spark.read.parquet(str(folder))
        ranked = F.sort_array(F.collect_list(F.struct(
            (-F.col("score")).alias("s"), F.col("item").alias("i"))))
        per_user = df.groupBy("user").agg(
            F.transform(ranked, lambda x: x["i"].cast("double")).alias("prediction"),
            F.collect_list(F.when(F.col("label") > 0, F.col("item").cast("double")))
            .alias("label")).cache()
        t0 = time.perf_counter()
        n_users = per_user.count()
        t1 = time.perf_counter()
        ev = RankingEvaluator(predictionCol="prediction", labelCol="label")
        ap = ev.setMetricName("meanAveragePrecision").evaluate(per_user)
        t2 = time.perf_counter()
        ndcg = ev.setMetricName("ndcgAtK").setK(10).evaluate(per_user)
        t3 = time.perf_counter()
        per_user.unpersist()
        parts.update(arrays=t1 - t0, map=t2 - t1, ndcg=t3 - t2)
        return n_users, ap, ndcg

    med, _, (n_users, ap, ndcg) = timed(ranking_evaluator, args.repeat, args.warmup)
    same = rk.ranking_report(y, s, groups=g, metrics=["map", "ndcg@10"],
                             convention="spark", output="dict")
    check(ap, same["map"], "RankingEvaluator MAP vs convention='spark'")
    check(ndcg, same["ndcg@10"], "RankingEvaluator NDCG@10 vs convention='spark'")
    record("(b) RankingEvaluator MAP + NDCG@10 (arrays by collect_list, cached)",
           med, n_rows, cores, reference,
           f"map {ap:.6f}, ndcg@10 {ndcg:.6f}",
           f"arrays {parts['arrays']:.1f} s + MAP {parts['map']:.1f} s + NDCG "
           f"{parts['ndcg']:.1f} s; {n_users:,} users; convention='spark' in "
           f"memory: map {same['map']:.6f}, ndcg@10 {same['ndcg@10']:.6f} "
           f"(diff {max(abs(ap - same['map']), abs(ndcg - same['ndcg@10'])):.1e}); "
           f"our default: map {expected['map']:.6f}, ndcg@10 "
           f"{expected['ndcg@10']:.6f}")

    def global_auc():
        df = spark.read.parquet(str(folder)) \
            .withColumn("label", F.col("label").cast("double"))
        return BinaryClassificationEvaluator(
            rawPredictionCol="score", labelCol="label",
            metricName="areaUnderROC").evaluate(df)

    med, _, value = timed(global_auc, args.repeat, args.warmup)
    exact = roc_auc_score(y, s)
    record("(c) BinaryClassificationEvaluator global AUC (not per user)", med,
           n_rows, cores, reference, f"auc {value:.6f}",
           f"roc_auc_score {exact:.6f} (diff {abs(value - exact):.1e})")

    for n_parts in args.partitions:
        spark.conf.set("spark.sql.shuffle.partitions", str(n_parts))
        med, _, value = timed(report, args.repeat, args.warmup)
        record(f"spark.ranking_report, {n_parts} shuffle partitions", med, n_rows,
               cores, reference)
    spark.stop()
    SHOW_JVM[0] = False


def bench_dask(folder, log, n_rows, cores, reference, expected, args):
    import logging

    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster
    from sklearn.metrics import roc_auc_score

    from sklearn_rankeval import dask as rk_dask

    logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)
    kwargs = dict(y_true="label", y_score="score", groups="user")
    with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        def report():
            return rk_dask.ranking_report(dd.read_parquet(str(folder)), **kwargs)

        med, _, value = timed(report, args.repeat, warmup=max(1, args.warmup))
        for name in expected:
            check(value[name], expected[name], f"dask {name}", tol=1e-12)
        record(f"dask.ranking_report (default metrics: {len(expected)}, Parquet read included)", med,
               n_rows, cores, reference, f"gauc {value['gauc']:.6f}")

        users = log["user"].unique()
        sample = np.random.default_rng(0).choice(users, min(args.sample_groups,
                                                            len(users)),
                                                 replace=False)
        small = log[log["user"].isin(sample)][["user", "label", "score"]]

        def auc(g):
            if g["label"].nunique() < 2:
                return np.nan
            return roc_auc_score(g["label"], g["score"])

        def apply():
            ddf = dd.from_pandas(small, npartitions=2 * cores)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ddf.groupby("user").apply(auc, meta=("auc", "f8")).compute()

        med, _, per_user = timed(apply, 1, 1)
        factor = len(users) / len(sample)
        expected_sample = rk.per_group_scores(
            small["label"], small["score"], groups=small["user"], metrics=["gauc"])
        check(np.nanmax(np.abs(per_user.sort_index().to_numpy()
                               - expected_sample["gauc"].to_numpy())), 0,
              "dask groupby().apply per-user AUC")
        record(f"ddf.groupby(user).apply(roc_auc_score) (extrapolated x{factor:.0f} "
               f"from {len(sample):,} users: {med:.2f} s)", med * factor, n_rows,
               cores, reference, "per-user values equal", peak=False)

        for parts in args.partitions:
            def report_parts(parts=parts):
                ddf = dd.read_parquet(str(folder)).repartition(npartitions=parts)
                return rk_dask.ranking_report(ddf, **kwargs)

            med, _, _ = timed(report_parts, args.repeat, args.warmup)
            record(f"dask.ranking_report, {parts} partitions", med, n_rows, cores,
                   reference)


def spark_session(cores, partitions=None):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.master(f"local[{cores}]")
               .appName("bench recommend")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true"))
    if partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(partitions))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def bench_spark_recommend(args):
    """``spark.recommendation_report`` beside Spark's own ``RankingEvaluator``.

    Top-10 lists of ``--rec-users`` users (``--rec-users * 10`` list rows, 1-5
    held-out items a user among 200 items), as Spark frames of rows (user,
    item, score) and (user, item).  Both sides start from these row frames:
    the evaluator needs one row per user with the array of recommended items
    in rank order and the array of held-out items, built with Spark
    (``collect_list`` of (-score, item) sorted, joined with the held-out
    ``collect_list``), then one ``evaluate`` per metric; ours is one call
    for the four metrics.  Timed: median of ``--repeat`` after one warm-up
    each (the first Spark job of a session starts the Python workers).
    """
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.sql import functions as F

    from sklearn_rankeval import spark as rk_spark

    rng = np.random.default_rng(0)
    n_users, n_items, k = args.rec_users, 200, 10
    users = np.repeat(np.arange(n_users), k)
    items = np.concatenate([rng.choice(n_items, k, replace=False)
                            for _ in range(n_users)])
    scores = np.round(rng.random(n_users * k), 6)
    rec = pd.DataFrame({"user": users, "item": items, "score": scores})
    n_held = rng.integers(1, 6, n_users)
    held = pd.DataFrame({
        "user": np.repeat(np.arange(n_users), n_held),
        "item": np.concatenate([rng.choice(n_items, h, replace=False)
                                for h in n_held])})
    spark = spark_session(args.cores)
    df_rec = spark.createDataFrame(rec).repartition(args.cores).cache()
    df_held = spark.createDataFrame(held).repartition(args.cores).cache()
    df_rec.count(), df_held.count()
    metrics = [f"precision@{k}", f"recall@{k}", f"ndcg@{k}", f"map@{k}"]
    n_rows = len(rec)
    print(f"\n# spark.recommendation_report vs RankingEvaluator: {n_rows:,} list "
          f"rows, {len(held):,} held-out rows, {n_users:,} users, local[{args.cores}]")
    med_in, _, want = timed(lambda: rk.recommendation_report(
        rec, held, metrics=metrics, output="dict"), args.repeat)
    record("in-memory recommendation_report (P, R, NDCG, MAP @10)", med_in, n_rows,
           1, None, f"ndcg {want[metrics[2]]:.6f}", "one core", peak=False)
    med, _, got = timed(lambda: rk_spark.recommendation_report(
        df_rec, df_held, metrics=metrics, output="dict"), args.repeat)
    for name in metrics:
        check(got[name], want[name], f"spark {name}", tol=1e-12)
    record("spark.recommendation_report (P, R, NDCG, MAP @10: one call)", med,
           n_rows, args.cores, med_in, f"ndcg {got[metrics[2]]:.6f}")
    med1, _, _ = timed(lambda: rk_spark.recommendation_report(
        df_rec, df_held, metrics=[metrics[2]], output="dict"), args.repeat)
    record("spark.recommendation_report (NDCG@10 alone)", med1, n_rows,
           args.cores, med_in)

    def arrays():
        ranked = df_rec.groupBy("user").agg(F.sort_array(F.collect_list(
            F.struct((-F.col("score")).alias("key"), F.col("item").cast("double")
                     .alias("item")))).alias("pairs"))
        truth = df_held.groupBy("user").agg(
            F.collect_list(F.col("item").cast("double")).alias("label"))
        return ranked.join(truth, "user", "left").select(
            F.col("pairs.item").alias("prediction"),
            F.coalesce("label", F.array().cast("array<double>")).alias("label"))

    names = {f"precision@{k}": "precisionAtK", f"recall@{k}": "recallAtK",
             f"ndcg@{k}": "ndcgAtK", f"map@{k}": "meanAveragePrecisionAtK"}

    def evaluate(which):
        frame = arrays().cache()
        try:
            return {name: RankingEvaluator(metricName=names[name], k=k).evaluate(frame)
                    for name in which}
        finally:
            frame.unpersist()

    med_ev, _, ev = timed(lambda: evaluate(metrics), args.repeat)
    # Spark's RankingMetrics average every user of the frame (with a list here)
    same = rk.recommendation_report(rec, held, metrics=metrics, output="dict",
                                    users="recommended", convention=None)
    record("RankingEvaluator (the 4 metrics; arrays by collect_list, cached)",
           med_ev, n_rows, args.cores, med_in,
           f"ndcg {ev[metrics[2]]:.6f} (ours, same users: "
           f"{same[metrics[2]]:.6f})")
    med_ev1, _, _ = timed(lambda: evaluate([metrics[2]]), args.repeat)
    record("RankingEvaluator (NDCG@10 alone)", med_ev1, n_rows, args.cores, med_in)
    print(f"# spark.recommendation_report / RankingEvaluator: 4 metrics "
          f"{med / med_ev:.2f}, NDCG@10 alone {med1 / med_ev1:.2f} (target <= 2)")
    spark.stop()


def summary():
    def ratio(a, b):
        try:
            return seconds_of(b) / seconds_of(a)
        except StopIteration:
            return float("nan")

    print("\n# ratios of seconds (the second over the first)")
    for ours, other, target in [
            ('spark.ranking_report(metrics=["gauc"])', "(a)", "> 1"),
            ("spark.ranking_report (default", "(a)", "> 1"),
            ("spark.ranking_report (default", "(b)", "> 1"),
            ("spark.ranking_report (default", "(c)", "(scale)"),
            ("dask.ranking_report (default", "ddf.groupby", ">= 20"),
            ("in-memory ranking_report", "spark.ranking_report (default", "<= 3"),
            ("in-memory ranking_report", "dask.ranking_report (default", "<= 3")]:
        print(f"# {other} / {ours}: {ratio(ours, other):.2f} (target {target})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=200_000,
                        help="users of the click log (~10 rows each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed runs before each measurement (the first "
                             "of each engine gets at least one)")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--sample-groups", type=int, default=2000)
    parser.add_argument("--partitions", type=int, nargs="*", default=[2, 8, 32])
    parser.add_argument("--engines", nargs="*", default=["spark", "dask"])
    parser.add_argument("--skip-frame", action="store_true",
                        help="skip spark.per_group_scores (noop sink)")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--recommend", action="store_true",
                        help="only spark.recommendation_report beside Spark's "
                             "RankingEvaluator (--rec-users users x 10)")
    parser.add_argument("--rec-users", type=int, default=10_000)
    args = parser.parse_args(argv)
    if args.recommend:
        print("| measurement | median s | M rows/s/core | / in-memory | peak worker "
              "RSS MB | value | note | load |")
        print("|---|---|---|---|---|---|---|---|")
        bench_spark_recommend(args)
        if args.json:
            with open(args.json, "w") as fh:
                json.dump(ROWS, fh, indent=1)
        return

    y, s, g = click_log(args.users)
    n_rows = len(y)
    log = pd.DataFrame({"user": g, "label": y, "score": s,
                        "item": np.arange(n_rows, dtype=np.int64)})
    import sklearn

    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, python {platform.python_version()}, "
          f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"# W1 click log: {n_rows:,} rows, {args.users:,} users, "
          f"{y.mean():.1%} positives, {args.cores} cores\n")
    print("| measurement | median s | M rows/s/core | / in-memory | peak worker "
          "RSS MB | value | note | load |")
    print("|---|---|---|---|---|---|---|---|")
    med, _, expected = timed(lambda: rk.ranking_report(y, s, groups=g,
                                                       output="dict"),
                             args.repeat, args.warmup)
    reference = med
    record(f"in-memory ranking_report (default metrics: {len(expected)}, NumPy arrays)", med,
           n_rows, 1, None, f"gauc {expected['gauc']:.6f}", "one core", peak=False)
    med, _, value = timed(lambda: rk.ranking_report(y, s, groups=g, metrics=["gauc"],
                                                    output="dict"),
                          args.repeat, args.warmup)
    record("in-memory GAUC alone (ranking_report(metrics=['gauc']))", med, n_rows,
           1, reference, f"gauc {value['gauc']:.6f}", "one core", peak=False)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "log"
        folder.mkdir()
        for i, piece in enumerate(np.array_split(np.arange(n_rows), 8)):
            log.iloc[piece].to_parquet(folder / f"part-{i}.parquet", index=False)
        if "spark" in args.engines:
            bench_spark(folder, (y, s, g), n_rows, args.cores, reference, expected,
                        args)
        if "dask" in args.engines:
            bench_dask(folder, log, n_rows, args.cores, reference, expected, args)
    summary()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(ROWS, fh, indent=1)


if __name__ == "__main__":
    main()
