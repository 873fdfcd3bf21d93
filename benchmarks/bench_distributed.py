"""sklearn_rankeval.spark and .dask beside the in-memory report, same rows, same run.

    python benchmarks/bench_distributed.py --users 200000 --repeat 3
    python benchmarks/bench_distributed.py --users 20000 --repeat 1   # quick look

The rows are W1's click log (``run.py``: users of 1-100 impressions, mean
~10, shuffled, 4-decimal scores), written as Parquet (8 files) to a temporary
folder.  Timed, each after one warm-up run, median of ``--repeat``:

* in memory: ``ranking_report`` (default metrics) on the NumPy arrays;
* Spark (``local[N]``, N = ``--cores``): ``spark.ranking_report`` on the
  Parquet folder (reading included), and GAUC written with window functions
  in Spark SQL (average rank of the tied items, Mann-Whitney per user,
  impression-weighted mean): the values must agree;
* Dask (``LocalCluster``, N worker processes of one thread):
  ``dask.ranking_report`` on the Parquet files (reading included), and
  ``ddf.groupby(user).apply(roc_auc_score)`` timed on ``--sample-groups``
  users and extrapolated linearly in the number of users;
* the scaling in the number of partitions (``--partitions``, default 2 8 32):
  Spark's ``spark.sql.shuffle.partitions``, Dask's input partitions.

Each line gives seconds, rows/s per core and the ratio to the in-memory
report.  ``--json FILE`` writes the rows.
"""

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import click_log  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

ROWS = []


def timed(fn, repeat):
    value = fn()  # warm-up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), value


def record(name, seconds, n_rows, cores, reference, value="", note=""):
    row = {"name": name, "seconds": seconds,
           "rows_per_s_per_core": n_rows / seconds / cores,
           "ratio_to_in_memory": seconds / reference if reference else 1.0,
           "value": value, "note": note}
    ROWS.append(row)
    print(f"| {name} | {seconds:.3f} | {row['rows_per_s_per_core'] / 1e6:.2f} | "
          f"{row['ratio_to_in_memory']:.2f} | {value} | {note} |", flush=True)
    return row


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


def bench_spark(folder, n_rows, cores, reference, expected, args):
    from pyspark.sql import SparkSession

    from sklearn_rankeval import spark as rk_spark

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master(f"local[{cores}]")
             .config("spark.driver.memory", "8g")
             .config("spark.sql.shuffle.partitions", str(2 * cores))
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    kwargs = dict(y_true="label", y_score="score", groups="user")

    def report():
        return rk_spark.ranking_report(spark.read.parquet(str(folder)), **kwargs)

    med, _, value = timed(report, args.repeat)
    for name in expected:
        check(value[name], expected[name], f"spark {name}", tol=1e-12)
    record("spark.ranking_report (default metrics, Parquet read included)", med,
           n_rows, cores, reference, f"gauc {value['gauc']:.6f}")

    def frame():
        rk_spark.per_group_scores(spark.read.parquet(str(folder)), **kwargs) \
            .write.format("noop").mode("overwrite").save()

    med, _, _ = timed(frame, args.repeat)
    record("spark.per_group_scores, written (noop sink)", med, n_rows, cores,
           reference)

    def sql_gauc():
        spark.read.parquet(str(folder)).createOrReplaceTempView("log")
        return float(spark.sql(SQL_GAUC).collect()[0]["gauc"])

    med, _, value = timed(sql_gauc, args.repeat)
    check(value, expected["gauc"], "Spark SQL window GAUC")
    record("Spark SQL GAUC with window functions (avg rank of ties)", med, n_rows,
           cores, reference, f"gauc {value:.6f}")

    for parts in args.partitions:
        spark.conf.set("spark.sql.shuffle.partitions", str(parts))
        med, _, value = timed(report, args.repeat)
        record(f"spark.ranking_report, {parts} shuffle partitions", med, n_rows,
               cores, reference)
    spark.stop()


def bench_dask(folder, log, n_rows, cores, reference, expected, args):
    import dask.dataframe as dd
    from dask.distributed import Client, LocalCluster
    from sklearn.metrics import roc_auc_score

    from sklearn_rankeval import dask as rk_dask

    kwargs = dict(y_true="label", y_score="score", groups="user")
    with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        def report():
            return rk_dask.ranking_report(dd.read_parquet(str(folder)), **kwargs)

        med, _, value = timed(report, args.repeat)
        for name in expected:
            check(value[name], expected[name], f"dask {name}", tol=1e-12)
        record("dask.ranking_report (default metrics, Parquet read included)", med,
               n_rows, cores, reference, f"gauc {value['gauc']:.6f}")

        users = log["user"].unique()
        sample = np.random.default_rng(0).choice(users, min(args.sample_groups,
                                                            len(users)),
                                                 replace=False)
        small = log[log["user"].isin(sample)]

        def auc(g):
            if g["label"].nunique() < 2:
                return np.nan
            return roc_auc_score(g["label"], g["score"])

        def apply():
            ddf = dd.from_pandas(small, npartitions=2 * cores)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return ddf.groupby("user").apply(auc, meta=("auc", "f8")).compute()

        med, _, per_user = timed(apply, 1)
        factor = len(users) / len(sample)
        expected_sample = rk.per_group_scores(
            small["label"], small["score"], groups=small["user"], metrics=["gauc"])
        check(np.nanmax(np.abs(per_user.sort_index().to_numpy()
                               - expected_sample["gauc"].to_numpy())), 0,
              "dask groupby().apply per-user AUC")
        record(f"ddf.groupby(user).apply(roc_auc_score) (extrapolated from "
               f"{len(sample):,} users)", med * factor, n_rows, cores, reference,
               "per-user values equal")

        for parts in args.partitions:
            def report_parts(parts=parts):
                ddf = dd.read_parquet(str(folder)).repartition(npartitions=parts)
                return rk_dask.ranking_report(ddf, **kwargs)

            med, _, _ = timed(report_parts, args.repeat)
            record(f"dask.ranking_report, {parts} partitions", med, n_rows, cores,
                   reference)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=200_000,
                        help="users of the click log (~10 rows each)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--sample-groups", type=int, default=2000)
    parser.add_argument("--partitions", type=int, nargs="*", default=[2, 8, 32])
    parser.add_argument("--engines", nargs="*", default=["spark", "dask"])
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)

    y, s, g = click_log(args.users)
    n_rows = len(y)
    log = pd.DataFrame({"user": g, "label": y, "score": s})
    import sklearn

    print(f"# {time.strftime('%Y-%m-%d')}, {platform.machine()}, "
          f"{os.cpu_count()} CPUs, python {platform.python_version()}, "
          f"numpy {np.__version__}, scikit-learn {sklearn.__version__}")
    print(f"# W1 click log: {n_rows:,} rows, {args.users:,} users, "
          f"{y.mean():.1%} positives, {args.cores} cores\n")
    print("| measurement | median s | M rows/s/core | / in-memory | value | note |")
    print("|---|---|---|---|---|---|")
    med, _, expected = timed(lambda: rk.ranking_report(y, s, groups=g,
                                                       output="dict"), args.repeat)
    reference = med
    record("in-memory ranking_report (default metrics, NumPy arrays)", med,
           n_rows, 1, None, f"gauc {expected['gauc']:.6f}", "one core")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "log"
        folder.mkdir()
        for i, piece in enumerate(np.array_split(np.arange(n_rows), 8)):
            log.iloc[piece].to_parquet(folder / f"part-{i}.parquet", index=False)
        if "spark" in args.engines:
            bench_spark(folder, n_rows, args.cores, reference, expected, args)
        if "dask" in args.engines:
            bench_dask(folder, log, n_rows, args.cores, reference, expected, args)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(ROWS, fh, indent=1)


if __name__ == "__main__":
    main()
