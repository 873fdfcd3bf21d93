"""The accumulator's batches with the columns of exposure and diversity,
beside one report of the same rows.

    python benchmarks/run.py accumulator_columns --repeat 3

Exposure: ``--queries`` queries of ``--samples`` sampled rankings of
``--items`` items (a stochastic policy's log, rows sorted by query), with
an item group per item: ``ranking_report(metrics=["expected_exposure",
"awrf"], samples=, items=, item_groups=)`` beside a
``RankingAccumulator(group_rows="sorted")`` fed the same rows in batches of
``--batch`` rows that cut queries (each cut query held until complete).
Diversity: the same for alpha-nDCG@10 and ERR-IA@10 (greedy ideal) of
``--rows`` rows with 5 intents in groups of 20.  Printed: the medians and
the median of the paired ratios (batches / one call).
"""

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import emit, machine, paired  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402


def exposure_log(n_queries, n_samples, n_items, seed=0):
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(n_queries), n_samples * n_items)
    sample = np.tile(np.repeat(np.arange(n_samples), n_items), n_queries)
    item = np.tile(np.arange(n_items), n_queries * n_samples)
    grade = rng.integers(0, 3, n_queries * n_items)[query * n_items + item]
    return grade, rng.random(query.shape[0]), query, sample, item, item % 3


def batches(n_rows, size):
    return [(lo, min(lo + size, n_rows)) for lo in range(0, n_rows, size)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--items", type=int, default=20)
    parser.add_argument("--rows", type=float, default=2e5)
    parser.add_argument("--batch", type=int, default=30_001)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")

    y, s, q, smp, item, cat = exposure_log(args.queries, args.samples, args.items)
    names = ["expected_exposure", "awrf"]
    cols = dict(samples=smp, items=item, item_groups=cat)

    def one():
        return rk.ranking_report(y, s, groups=q, metrics=names, output="dict",
                                 **cols)

    def fed():
        acc = rk.RankingAccumulator(names, group_rows="sorted")
        for lo, hi in batches(y.shape[0], args.batch):
            acc.update(y[lo:hi], s[lo:hi], groups=q[lo:hi],
                       **{k: v[lo:hi] for k, v in cols.items()})
        return acc.result()

    assert all(abs(one()[n] - fed()[n]) < 1e-12 for n in names)
    a, b, ratio = paired(one, fed, args.repeat)
    print(f"exposure, {y.shape[0]:,} rows: report {a:.3f} s, accumulator "
          f"{b:.3f} s, batches / one call {ratio:.2f}")
    emit(workload="accumulator_columns", part="exposure", rows=y.shape[0],
         report_s=a, accumulator_s=b, ratio=ratio)

    n = int(args.rows)
    rng = np.random.default_rng(1)
    g = np.repeat(np.arange(n // 20), 20)[:n]
    grades = rng.integers(0, 2, (n, 5)) * (rng.random((n, 5)) < 0.3)
    scores = rng.random(n)
    names = ["alpha_nDCG@10", "ERR_IA@10"]  # ndeval's greedy ideal

    def one_d():
        return rk.ranking_report(grades, scores, groups=g, metrics=names,
                                 output="dict")

    def fed_d():
        acc = rk.RankingAccumulator(names, group_rows="sorted")
        for lo, hi in batches(n, args.batch):
            acc.update(grades[lo:hi], scores[lo:hi], groups=g[lo:hi])
        return acc.result()

    assert all(abs(one_d()[k] - fed_d()[k]) < 1e-12 for k in names)
    a, b, ratio = paired(one_d, fed_d, args.repeat)
    print(f"diversity, {n:,} rows x 5 intents: report {a:.3f} s, accumulator "
          f"{b:.3f} s, batches / one call {ratio:.2f}")
    emit(workload="accumulator_columns", part="diversity", rows=n, report_s=a,
         accumulator_s=b, ratio=ratio)


if __name__ == "__main__":
    print(machine(sort=False))
    main()
