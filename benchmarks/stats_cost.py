"""What the statistics of ``compare_rankings`` cost, as ratios to the plain
baseline comparison measured in the same run on the same rows.

    python benchmarks/stats_cost.py --users 10000 --models 4 --repeat 3

A click log of ``--users`` users (``make_click_log``), ``--models`` noisy
copies of a linear score, three metrics (GAUC, NDCG@10, MRR), 1,000
resamples; each line gives the fastest run, its ratio to the first line and the
median.
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_rankeval import compare_rankings
from sklearn_rankeval.datasets import make_click_log


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--users", type=int, default=10000)
    p.add_argument("--models", type=int, default=4)
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args(argv)
    X, y, users = make_click_log(args.users, random_state=0)
    rng = np.random.default_rng(0)
    w = np.linalg.lstsq(X[:, 1:], y - y.mean(), rcond=None)[0]
    base = X[:, 1:] @ w
    scores = {f"m{i}": base + rng.normal(0, 0.5 * base.std(), len(base))
              for i in range(args.models)}
    runs = {"seeds": [base + rng.normal(0, 0.5 * base.std(), len(base))
                      for _ in range(3)]}
    kw = dict(groups=users, metrics=["gauc", "ndcg@10", "mrr"],
              n_resamples=args.resamples, random_state=0, output="dict")
    cases = [
        ("baseline, permutation, holm (today's call)", {}),
        ("baseline, t-test", dict(test="t")),
        ("baseline, maxT over models x metrics", dict(correction="maxt")),
        ("baseline, + equivalence and min_effect",
         dict(equivalence=0.002, min_effect=0.001)),
        ("all_pairs, blocked Tukey HSD", dict(design="all_pairs",
                                               test="tukey_hsd")),
        ("all_pairs, randomised Tukey HSD", dict(design="all_pairs",
                                                  test="randomized_tukey")),
        ("baseline + a model of 3 seeds (runs=)", dict(runs=runs)),
    ]
    print(f"{args.users} users, {len(y)} rows, {args.models} models, 3 metrics, "
          f"{args.resamples} resamples; {args.repeat} runs of each (the cases "
          f"interleaved, so that a change of load hits them alike)")
    times = {label: [] for label, _ in cases}
    for _ in range(args.repeat):
        for label, extra in cases:
            t = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                compare_rankings(y, scores, **kw, **extra)
            times[label].append(time.perf_counter() - t)
    # the minimum: on a loaded machine the least disturbed run of each case
    first = float(np.min(times[cases[0][0]]))
    print(f"{'':<45s} {'min':>8s}    {'ratio':>6s} {'median':>8s}")
    for label, _ in cases:
        low, med = float(np.min(times[label])), float(np.median(times[label]))
        print(f"{label:<45s} {low:8.3f} s  x{low / first:5.2f} {med:8.3f} s")

if __name__ == "__main__":
    main()
