"""Per-group frames and the streaming accumulator (W1), beside one report.

    python benchmarks/run.py per_group --repeat 3
    python benchmarks/run.py per_group --users 100000 --repeat 3   # a quick look

* ``per_group_scores`` of the 9 default metrics on W1 (``--users`` users,
  about 10 rows each, shuffled) over ``ranking_report`` of the same metrics
  (target <= 1.5), as a dict and as a pandas frame;
* ``RankingAccumulator("complete")`` over W1 cut into 100 updates of whole
  groups (rows sorted by user), over one ``ranking_report`` (target <= 1.3)
  and over the report of the same sorted rows; ``"sorted"`` and
  ``keep_groups=False``.  The accumulator's values are checked against the
  report's first.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import click_log  # noqa: E402
from _timing import emit, timed  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    y, s, g = click_log(args.users)
    ref = timed(lambda: rk.ranking_report(y, s, groups=g, output="dict"),
                args.repeat).median
    emit(what="W1 ranking_report (9 default metrics)", rows=len(y), median_s=ref)
    for label, kw in (("dict", {"output": "dict"}), ("pandas", {})):
        t = timed(lambda kw=kw: rk.per_group_scores(y, s, groups=g, **kw),
                  args.repeat).median
        emit(what=f"W1 per_group_scores ({label})", median_s=t, ratio=t / ref,
             target="<= 1.5")
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
    emit(what="accumulator == ranking_report", max_relative_difference=worst)
    # the batches come from the rows sorted by user, which the engine ranks
    # faster (contiguous groups): compared with one call on those rows too
    ref_sorted = timed(lambda: rk.ranking_report(ys, ss, groups=gs, output="dict"),
                       args.repeat).median
    emit(what="W1 ranking_report, rows sorted by user", median_s=ref_sorted,
         ratio=ref_sorted / ref)
    cases = {"RankingAccumulator('complete'), 100 updates": accumulate,
             "RankingAccumulator('sorted')": lambda: accumulate("sorted"),
             "RankingAccumulator('complete', keep_groups=False)":
                 lambda: accumulate(keep=False)}
    for name, fn in cases.items():
        t = timed(fn, args.repeat).median
        emit(what=f"W1 {name}", median_s=t, ratio=t / ref,
             over_sorted_report=t / ref_sorted, target="<= 1.3")


if __name__ == "__main__":
    main()
