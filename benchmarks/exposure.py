"""Time expected exposure over sampled rankings beside np.argsort.

    python benchmarks/run.py exposure --queries 10000 --samples 100 --slots 50

A stochastic policy's log: ``--queries`` queries of ``--slots`` items, each
ranked ``--samples`` times (one row per query, sampled ranking and slot:
queries x samples x slots rows; the issue's workload is 10,000 x 100 x 50 =
50M rows).  Each sampled ranking is a random order of its query's items,
given as ``y_score = -rank``; grades 0-2.  Timed in turn with one
``np.argsort`` of the scores (the anchor): ``expected_exposure_score``
(rbp, by item), the same by item group (2 groups), and, with
``--policy``, ``policy="plackett_luce"`` on one ranking per query (exact
for queries of at most 10 items, else ``--draws`` draws).
"""

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import machine, paired  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402


def make_sampled_log(n_queries, n_samples, n_slots, seed=0):
    """(grades, scores, queries, samples, items, item groups) of the log,
    rows of one sampled ranking together in slot order."""
    rng = np.random.default_rng(seed)
    shape = (n_queries, n_samples, n_slots)
    grade_of = rng.integers(0, 3, size=(n_queries, n_slots)).astype(np.int8)
    # each sampled ranking: a random order of its query's items
    items = np.argsort(rng.random(shape, dtype=np.float32), axis=2).astype(np.int32)
    grades = np.take_along_axis(grade_of[:, None, :], items, axis=2)
    scores = np.broadcast_to(-np.arange(n_slots, dtype=np.float64), shape)
    queries = np.broadcast_to(np.arange(n_queries, dtype=np.int32)[:, None, None],
                              shape)
    samples = np.broadcast_to(np.arange(n_samples, dtype=np.int32)[None, :, None],
                              shape)
    return (grades.reshape(-1), np.ascontiguousarray(scores).reshape(-1),
            np.ascontiguousarray(queries).reshape(-1),
            np.ascontiguousarray(samples).reshape(-1), items.reshape(-1),
            (items.reshape(-1) % 2).astype(np.int8))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--slots", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--policy", action="store_true",
                        help="also the Plackett-Luce policy of one ranking per query")
    parser.add_argument("--draws", type=int, default=100)
    args = parser.parse_args(argv)
    print(machine())
    y, s, q, smp, item, item_group = make_sampled_log(args.queries, args.samples,
                                                      args.slots)
    print(f"{len(s):,} rows: {args.queries:,} queries x {args.samples} sampled "
          f"rankings x {args.slots} slots")

    def sort():
        return np.argsort(s)

    cases = {
        "expected_exposure (rbp, items)": lambda: rk.expected_exposure_score(
            y, s, groups=q, samples=smp, items=item),
        "expected_exposure (rbp, item groups)": lambda: rk.expected_exposure_score(
            y, s, groups=q, samples=smp, items=item, item_groups=item_group),
    }
    if args.policy:
        one = smp == 0
        y1, s1, q1 = y[one], -item[one].astype(np.float64) / args.slots, q[one]
        cases["plackett_luce (one ranking a query)"] = (
            lambda: rk.expected_exposure_score(y1, s1, groups=q1,
                                               policy="plackett_luce",
                                               n_samples=args.draws,
                                               random_state=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, fn in cases.items():
            t_sort, t_ours, ratio = paired(sort, fn, args.repeat)
            print(f"{name:38s} {t_ours:8.3f} s   np.argsort {t_sort:7.3f} s   "
                  f"ratio {ratio:6.2f}")


if __name__ == "__main__":
    main()
