"""Counterfactual evaluation (issue 32), each figure beside its reference.

    python benchmarks/run.py counterfactual --part em --rows 10000000
    python benchmarks/run.py counterfactual --part report --rows 2000000
    python benchmarks/run.py counterfactual --part dask --rows 1000000
    python benchmarks/run.py counterfactual --part spark --rows 1000000

Parts:

* ``em``: ``PositionBiasEstimator(method="em")`` on a simulated
  position-based-model log of ``--rows`` rows (impressions of 10 positions,
  one item per (query, document), ``rows / 10`` items), beside one
  ``np.argsort`` of the rows' item ids: the set-up (checks, item codes,
  pair counts, identifiability), the time of one iteration (the slope of
  ``max_iter = 2`` and ``max_iter = 2 + --iters``), the ratio iteration /
  argsort (target <= 3), and, with ``--converge``, the full fit: its
  iterations and time.
* ``report``: ``counterfactual_report`` beside ``ranking_report`` of the
  same rows (the IPS gains as ``y_true``, the same scores and impressions):
  ``dcg@10`` and ``ndcg@10`` (the same registry kernels in both: what the
  report adds is the gains and their checks; target 0.8-1.2), and the
  default metrics (``dcg@10``, ``precision@10``, ``arp``) beside
  ``ranking_report``'s ``dcg@10``, ``precision@10``, ``mrr``; the calls in
  turn, the median of the pairs' ratios.
* ``dask`` / ``spark``: ``sklearn_rankeval.dask.counterfactual_report``
  (a ``LocalCluster`` of ``--cores`` worker processes) or
  ``sklearn_rankeval.spark.counterfactual_report`` (``local[--cores]``)
  beside the same engine's ``ranking_report`` of the same frame (the IPS
  gains as a column), the cases of ``report``, in turn, the median of the
  pairs' ratios: what the distributed report adds (the gains computed in
  the partitions, the checks, a column fewer to shuffle and one more).

* ``peers``: the same simulated log (``--rows``, ``--rows-per-item``) in
  ultr-bias-toolkit
  (philipphager/ultr-bias-toolkit, installed in a side environment, never a
  dependency): its ``NaiveCtrEstimator`` beside ``click_rates_`` (the same
  definition: equal to rounding), and its intervention-harvesting estimators
  of Agarwal et al. (WSDM 2019: pivot rank 1, adjacent chain, all pairs)
  beside ``PositionBiasEstimator(method="em")``, each as its largest
  relative error against the true propensities, with its time.

Every part prints one line per measurement (best of ``--repeat`` runs, or
the median of ``--repeat`` pairs).
"""

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import emit, timed  # noqa: E402

from sklearn_rankeval import (  # noqa: E402
    PositionBiasEstimator,
    counterfactual_report,
    ranking_report,
)

N_POS = 10
THETA = 1.0 / np.arange(1, N_POS + 1) ** 0.8


def best(fn, repeat):
    return timed(fn, repeat, warmup=0).min


def simulate(n_rows, seed=0, rows_per_item=10, truth=False):
    """A PBM log: 10 positions per impression, ``n_rows / rows_per_item``
    items (10 documents a query); ``truth``: also the relevances ``gamma``
    (queries x documents), the new ranker's scores and the query of each
    impression."""
    rng = np.random.default_rng(seed)
    n_imp = n_rows // N_POS
    n_queries = max(n_rows // (rows_per_item * N_POS), 1)
    gamma = rng.beta(1, 3, (n_queries, N_POS)).astype(np.float32)
    q = rng.integers(0, n_queries, n_imp)
    logging = gamma[q] + 0.3 * rng.standard_normal((n_imp, N_POS), dtype=np.float32)
    order = np.argsort(-logging, axis=1)
    del logging
    positions = np.empty((n_imp, N_POS), dtype=np.int64)
    np.put_along_axis(positions, order, np.arange(1, N_POS + 1)[None, :], axis=1)
    del order
    p = THETA[positions - 1] * gamma[q]
    clicks = (rng.random((n_imp, N_POS), dtype=np.float32) < p).astype(np.int8).ravel()
    del p
    items = (q[:, None] * N_POS + np.arange(N_POS)[None, :]).ravel()
    new_score = (gamma + 0.2 * rng.standard_normal(gamma.shape)).astype(np.float32)
    y_score = new_score[q].ravel()
    groups = np.repeat(np.arange(n_imp), N_POS)
    if truth:
        return (clicks, positions.ravel(), items, groups, y_score,
                gamma.astype(np.float64), new_score.astype(np.float64), q)
    return clicks, positions.ravel(), items, groups, y_score


def part_em(rows, iters, repeat, converge):
    clicks, positions, items, groups, _ = simulate(rows)
    del groups
    n_items = np.unique(items).shape[0]
    emit(part="em", rows=rows, items=n_items, clicks=int(clicks.sum()))
    t_sort = best(lambda: np.argsort(items), repeat)

    def fit(max_iter):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            return PositionBiasEstimator(max_iter=max_iter).fit(
                clicks, positions, items=items)

    t2 = best(lambda: fit(2), repeat)
    tn = best(lambda: fit(2 + iters), repeat)
    per_iter = (tn - t2) / iters
    emit(argsort_s=t_sort, setup_plus_2_iter_s=t2, iteration_s=per_iter,
         iteration_over_argsort=per_iter / t_sort, target="<=3")
    if converge:
        t = time.perf_counter()
        est = fit(1000)
        total = time.perf_counter() - t
        err = np.abs(est.propensities_ / THETA - 1).max()
        emit(converged=est.converged_, n_iter=est.n_iter_, fit_s=total,
             fit_over_argsort=total / t_sort, max_rel_error_theta=float(err))


#: (what, counterfactual_report calls as (estimator, metrics), ranking_report
#: calls as metrics): the first pair computes the same registry kernels
CASES = [
    ("same kernels", [("ips", ["dcg@10"]), ("naive", ["ndcg@10"])],
     [["dcg@10"], ["ndcg@10"]]),
    ("defaults", [("ips", ["dcg@10", "precision@10", "avg_rel_rank"])],
     [["dcg@10", "precision@10", "mrr"]]),
]


def part_report(rows, repeat):
    clicks, positions, _, groups, y_score = simulate(rows)
    gains = clicks / THETA[positions - 1]
    emit(part="report", rows=rows, impressions=int(groups[-1]) + 1)
    for what, ours, theirs in CASES:
        def cf(ours=ours):
            for estimator, metrics in ours:
                counterfactual_report(clicks, y_score, positions, groups=groups,
                                      propensities=THETA, metrics=metrics,
                                      estimator=estimator)

        def rr(theirs=theirs):
            for metrics in theirs:
                ranking_report(gains, y_score, groups=groups, metrics=metrics,
                               output="dict")

        # in turn, A B A B ...: the ratio of each pair, its median (the
        # machine's speed drifts less within a pair than across a run)
        pairs = [(best(cf, 1), best(rr, 1)) for _ in range(repeat)]
        ratios = sorted(a / b for a, b in pairs)
        emit(case=what, counterfactual="+".join("/".join(m) for _, m in ours),
             ranking_report="+".join("/".join(m) for m in theirs),
             counterfactual_s=float(np.median([a for a, _ in pairs])),
             ranking_report_s=float(np.median([b for _, b in pairs])),
             ratio_median=float(np.median(ratios)), ratio_min=ratios[0],
             ratio_max=ratios[-1], target="0.8-1.2")


def part_distributed(engine, rows, repeat, cores, partitions):
    import pandas as pd

    clicks, positions, _, groups, y_score = simulate(rows)
    frame = pd.DataFrame({"impression": groups, "clicked": clicks.astype(np.int64),
                          "position": positions, "score": y_score.astype(np.float64),
                          "gain": clicks / THETA[positions - 1]})
    del clicks, positions, groups, y_score
    if engine == "dask":
        import dask.dataframe as dd
        from dask.distributed import Client, LocalCluster

        from sklearn_rankeval import dask as module

        cluster = LocalCluster(n_workers=cores, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        closing = Client(cluster)
        df = dd.from_pandas(frame, npartitions=partitions).persist()
    else:
        import os
        import sys

        from pyspark.sql import SparkSession

        from sklearn_rankeval import spark as module

        os.environ["PYSPARK_PYTHON"] = sys.executable
        closing = (SparkSession.builder.master(f"local[{cores}]")
                   .config("spark.sql.shuffle.partitions", str(partitions))
                   .config("spark.sql.execution.arrow.pyspark.enabled", "true")
                   .config("spark.ui.enabled", "false").getOrCreate())
        closing.sparkContext.setLogLevel("ERROR")
        df = closing.createDataFrame(frame).repartition(partitions).cache()
        df.count()
    emit(part=engine, rows=rows, impressions=int(frame["impression"].iloc[-1]) + 1,
         cores=cores, partitions=partitions)
    del frame
    try:
        for what, ours, theirs in CASES:
            def cf(ours=ours):
                for estimator, metrics in ours:
                    module.counterfactual_report(
                        df, clicks="clicked", y_score="score", positions="position",
                        groups="impression", propensities=THETA, metrics=metrics,
                        estimator=estimator)

            def rr(theirs=theirs):
                for metrics in theirs:
                    module.ranking_report(df, y_true="gain", y_score="score",
                                          groups="impression", metrics=metrics)

            cf(), rr()  # warm-up: workers, imports
            pairs = [(best(cf, 1), best(rr, 1)) for _ in range(repeat)]
            ratios = sorted(a / b for a, b in pairs)
            emit(case=what, counterfactual_s=float(np.median([a for a, _ in pairs])),
                 ranking_report_s=float(np.median([b for _, b in pairs])),
                 ratio_median=float(np.median(ratios)), ratio_min=ratios[0],
                 ratio_max=ratios[-1], target="0.8-1.2")
    finally:
        closing.close() if engine == "dask" else closing.stop()
        if engine == "dask":
            cluster.close()


def part_peers(rows, epochs, rows_per_item):
    import pandas as pd
    from ultr_bias_toolkit.bias.intervention_harvesting import (
        AdjacentChainEstimator,
        AllPairsEstimator,
        PivotEstimator,
    )
    from ultr_bias_toolkit.bias.naive import NaiveCtrEstimator

    clicks, positions, items, groups, _ = simulate(rows, rows_per_item=rows_per_item)
    query, doc = items // N_POS, items % N_POS
    frame = pd.DataFrame({"query_id": query, "doc_id": doc, "position": positions,
                          "click": clicks.astype(int)})
    emit(part="peers", rows=rows, items=int(items.max()) + 1,
         clicks=int(clicks.sum()))
    t = time.perf_counter()
    est = PositionBiasEstimator().fit(clicks, positions, items=items)
    t_em = time.perf_counter() - t
    ours = est.click_rates_ / est.click_rates_[0]
    naive = NaiveCtrEstimator()(frame).sort_values("position")
    emit(peer="NaiveCtrEstimator", max_abs_diff_click_rates=float(
        np.abs(naive["examination"].to_numpy() - ours).max()))
    emit(estimator="sklearn_rankeval EM", seconds=t_em, n_iter=est.n_iter_,
         max_rel_error=float(np.abs(est.propensities_ / THETA - 1).max()),
         propensities=np.round(est.propensities_, 3).tolist())
    peers = {"pivot rank 1": PivotEstimator(pivot_rank=1),
             "adjacent chain": AdjacentChainEstimator(),
             f"all pairs ({epochs} epochs)": AllPairsEstimator(epochs=epochs)}
    for name, peer in peers.items():
        t = time.perf_counter()
        out = peer(frame).sort_values("position")
        seconds = time.perf_counter() - t
        out = out[out["position"] <= N_POS].drop_duplicates("position")
        theta = np.asarray(out["examination"], dtype=float)
        emit(estimator=f"ultr-bias-toolkit {name}", seconds=seconds,
             max_rel_error=float(np.abs(theta / THETA[:theta.shape[0]] - 1).max()),
             propensities=np.round(theta, 3).tolist())


def part_fit(rows, repeat):
    """The whole fit (checks, codes, pair counts, Newton) of ``--rows`` rows,
    and intervention harvesting on the same log."""
    clicks, positions, items, _, _ = simulate(rows)
    emit(part="fit", rows=rows, items=int(np.unique(items).shape[0]))
    t_sort = best(lambda: np.argsort(items), repeat)
    for method in ("em", "harvest"):
        est = None

        def fit(method=method):
            nonlocal est
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = PositionBiasEstimator(method=method).fit(
                    clicks, positions, items=items)

        t = best(fit, repeat)
        emit(method=method, fit_s=t, fit_over_argsort=t / t_sort,
             n_iter=est.n_iter_, converged=est.converged_,
             log_likelihood=est.log_likelihood_,
             max_rel_error_theta=float(np.abs(est.propensities_ / THETA - 1).max()))


def part_bias(rows, logs, rows_per_item):
    """The mean relative error of each position's propensity over ``--logs``
    seeded logs: EM (maximum likelihood) and intervention harvesting."""
    got = {"em": [], "harvest": []}
    iters = []
    for seed in range(logs):
        clicks, positions, items, _, _ = simulate(rows, seed, rows_per_item)
        for method in got:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est = PositionBiasEstimator(method=method).fit(
                    clicks, positions, items=items)
            got[method].append(est.propensities_)
            if method == "em":
                iters.append(est.n_iter_)
    for method, values in got.items():
        bias = np.mean(values, axis=0) / THETA - 1
        se = np.std(values, axis=0, ddof=1) / np.sqrt(logs) / THETA
        emit(part="bias", method=method, rows=rows, rows_per_item=rows_per_item,
             logs=logs, bias_pct=np.round(100 * bias, 1).tolist(),
             se_pct=np.round(100 * se, 1).tolist(),
             max_abs_bias_pct=float(np.round(100 * np.abs(bias).max(), 2)))
    emit(em_iterations_min=int(min(iters)), em_iterations_max=int(max(iters)))


def _truths(gamma, new_score, k):
    """The population values over uniformly drawn queries: DCG@k of the true
    relevances in the new ranker's order, and the share of the relevance it
    puts in its top k (SNIPS's recall@k target: a ratio of the sums)."""
    order = np.argsort(-new_score, axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, N_POS + 1)[None, :], axis=1)
    top = rank <= k
    dcg = np.where(top, gamma / np.log2(1.0 + rank), 0.0).sum(axis=1).mean()
    recall = (gamma * top).sum() / gamma.sum()
    return float(dcg), float(recall)


def part_coverage(rows, logs, rows_per_item, resamples, refit_logs, first_log=0):
    """Bias and 95% coverage over ``--logs`` seeded logs of IPS dcg@5 (true
    propensities; EM and harvesting held fixed; harvesting and EM refitted on
    each resample, the latter over the first ``--refit-logs`` logs) and of
    SNIPS recall@5 (true propensities)."""
    cases = ["ips true", "ips em fixed", "ips harvest fixed", "ips harvest refit",
             "ips em refit", "snips true"]
    values = {c: [] for c in cases}
    covered = {c: [] for c in cases}
    truth = {}
    t0 = time.perf_counter()
    for seed in range(first_log, first_log + logs):
        (clicks, positions, items, groups, y_score, gamma, new_score,
         _) = simulate(rows, 1000 + seed, rows_per_item, truth=True)
        dcg, recall = _truths(gamma, new_score, 5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fits = {m: PositionBiasEstimator(method=m).fit(clicks, positions,
                                                          items=items)
                    for m in ("em", "harvest")}
            for case in cases:
                if case == "ips em refit" and seed - first_log >= refit_logs:
                    continue
                estimator, source, mode = (case + " fixed").split()[:3]
                propensities = THETA if source == "true" else fits[source]
                metric = "dcg@5" if estimator == "ips" else "recall@5"
                out = counterfactual_report(
                    clicks, y_score, positions, groups=groups,
                    propensities=propensities, metrics=[metric],
                    estimator=estimator, confidence=0.95,
                    n_resamples=resamples, random_state=seed,
                    refit=mode == "refit", items=items)[metric]
                target = dcg if estimator == "ips" else recall
                truth.setdefault(case, []).append(target)
                values[case].append(out["value"])
                covered[case].append(out["ci_low"] <= target <= out["ci_high"])
    for case in cases:
        v, t = np.array(values[case]), np.array(truth[case])
        emit(part="coverage", case=case, first_log=first_log, logs=len(v),
             rows=rows,
             rows_per_item=rows_per_item, resamples=resamples,
             bias_pct=float(np.round(100 * np.mean(v / t - 1), 2)),
             se_pct=float(np.round(100 * np.std(v / t, ddof=1) / np.sqrt(len(v)), 2)),
             coverage_pct=float(np.round(100 * np.mean(covered[case]), 1)),
             covered=int(np.sum(covered[case])), sum_rel_error=float(np.sum(v / t - 1)))
    emit(seconds=time.perf_counter() - t0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["em", "fit", "bias", "coverage", "report",
                                           "dask", "spark", "peers"],
                        required=True)
    parser.add_argument("--logs", type=int, default=200,
                        help="seeded logs (bias, coverage)")
    parser.add_argument("--refit-logs", type=int, default=200,
                        help="logs of the EM refit intervals (coverage)")
    parser.add_argument("--first-log", type=int, default=0,
                        help="seed offset of the first log (coverage, to split "
                             "a table over processes)")
    parser.add_argument("--resamples", type=int, default=1000,
                        help="bootstrap resamples (coverage)")
    parser.add_argument("--epochs", type=int, default=5000,
                        help="epochs of the all-pairs peer (its default: 5000)")
    parser.add_argument("--rows-per-item", type=int, default=10,
                        help="rows of each (query, document) item (peers)")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--iters", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--converge", action="store_true")
    parser.add_argument("--cores", type=int, default=2,
                        help="Dask worker processes / Spark local threads")
    parser.add_argument("--partitions", type=int, default=8)
    args = parser.parse_args(argv)
    if args.part == "em":
        part_em(args.rows, args.iters, args.repeat, args.converge)
    elif args.part == "fit":
        part_fit(args.rows, args.repeat)
    elif args.part == "bias":
        part_bias(args.rows, args.logs, args.rows_per_item)
    elif args.part == "coverage":
        part_coverage(args.rows, args.logs, args.rows_per_item, args.resamples,
                      args.refit_logs, args.first_log)
    elif args.part == "report":
        part_report(args.rows, args.repeat)
    elif args.part in ("dask", "spark"):
        part_distributed(args.part, args.rows, args.repeat, args.cores,
                         args.partitions)
    else:
        part_peers(args.rows, args.epochs, args.rows_per_item)


if __name__ == "__main__":
    main()
