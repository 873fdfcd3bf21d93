"""Type I error and power of compare_rankings' tests, by simulation.

The population: the per-user values (NDCG@10, MRR) of three models of a
click log of ``--users`` users (``sklearn_rankeval.datasets.make_click_log``):
A a linear model of the item features, B and C the same with noise in the
scores.  Each repetition draws ``n`` users with replacement from the
population and builds, from the drawn users' values:

* ``exchangeable``: A's and B's values of each user swapped at random (the
  null hypothesis of every test: the two models are exchangeable);
* ``mean-null``: B' = A + (d - mean(d)), with ``d = B - A`` and the mean over
  the population: the mean difference is 0 but ``d`` keeps its skewed,
  tied shape (a test of the mean should reject in alpha of the repetitions;
  the Wilcoxon test tests another null hypothesis);
* ``shift``: B' = A + (d - mean(d)) + delta (``--delta``): the power;
* ``tost@margin``: B' = A + (d - mean(d)) + margin, TOST with that margin
  (at the margin the null of non-equivalence holds: at most alpha).

The tests are those ``compare_rankings`` runs on the per-group values (it
is checked equal to them in the test suite): scipy's paired t-test and
Wilcoxon test, the sign-flip permutation test, the blocked and randomised
Tukey HSD over the three models (family-wise: any pair rejected, C shifted
as B), and maxT or Holm over the two models x two metrics (family-wise).

    python benchmarks/stats_simulation.py --reps 400 --sizes 25 50 200 1000 5000

prints one table per scenario: the share of repetitions rejected at
``--alpha`` and, in brackets, the binomial 95% interval of alpha (a rate
outside it under a null is a miscalibrated test).
"""

import argparse
import math
import time
import warnings

import numpy as np
from scipy import stats

from sklearn_rankeval import per_group_scores
from sklearn_rankeval._stats import maxt, randomized_tukey, tost, tukey_hsd
from sklearn_rankeval.datasets import make_click_log

METRICS = ("ndcg@10", "mrr")


def population(n_users, seed):
    """``{metric: (n_users, 3)}`` per-user values of models A, B, C."""
    X, y, users = make_click_log(n_users, random_state=seed)
    rng = np.random.default_rng(seed)
    w = np.linalg.lstsq(X[:, 1:], y - y.mean(), rcond=None)[0]
    a = X[:, 1:] @ w
    spread = a.std()
    scores = [a, a + rng.normal(0, 0.8 * spread, len(a)),
              a + rng.normal(0, 0.8 * spread, len(a))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = [per_group_scores(y, s, groups=users, metrics=list(METRICS))
                  for s in scores]
    out = {}
    for m in METRICS:
        x = np.column_stack([f[m].to_numpy() for f in frames])
        out[m] = x[~np.isnan(x).any(axis=1)]
    return out


def centred(x):
    """B and C replaced by A + (their population difference - its mean)."""
    d = x[:, 1:] - x[:, :1]
    return np.column_stack([x[:, 0], x[:, :1] + d - d.mean(axis=0)])


def one_rep(pop, n, scenario, rng, args):
    """{test: rejected?} for one drawn sample of n users."""
    idx = rng.integers(0, pop[METRICS[0]].shape[0], n)
    base = {m: centred(pop[m])[idx] for m in METRICS}
    if scenario == "exchangeable":
        raw = {m: pop[m][idx].copy() for m in METRICS}
        swap = rng.random(n) < 0.5  # one relabelling of each user, all metrics
        for m in METRICS:
            raw[m][swap, 0], raw[m][swap, 1] = raw[m][swap, 1], raw[m][swap, 0].copy()
            raw[m][:, 2] = raw[m][:, 0]  # C = A: a null for the three models
            swap_c = rng.random(n) < 0.5
            raw[m][swap_c, 0], raw[m][swap_c, 2] = (raw[m][swap_c, 2],
                                                    raw[m][swap_c, 0].copy())
        x = raw
    else:
        shift = {"mean-null": 0.0, "shift": args.delta,
                 "tost@margin": args.margin}[scenario]
        x = {m: base[m] + np.array([0.0, shift, shift]) for m in METRICS}
    a, b = x[METRICS[0]][:, 0], x[METRICS[0]][:, 1]
    d = b - a
    out = {}
    alpha = args.alpha
    if scenario == "tost@margin":
        out["TOST"] = tost(d, args.margin, alpha)[0] < alpha
        return out
    out["t"] = stats.ttest_rel(b, a).pvalue < alpha
    out["wilcoxon"] = (stats.wilcoxon(b, a).pvalue < alpha) if np.any(d) else False
    out["permutation"] = maxt(d[:, None], args.resamples, rng)[0][0] < alpha
    three = x[METRICS[0]]
    # significant at alpha exactly when the simultaneous interval excludes 0
    # (the studentized range's quantile is cached, its tail is an integral)
    _, low, high, _ = tukey_hsd(three, 1 - alpha, p_values=False)
    out["tukey_hsd (any pair)"] = bool(((low > 0) | (high < 0)).any())
    out["randomized_tukey (any pair)"] = bool(
        (randomized_tukey(three, args.resamples, rng)[3] < alpha).any())
    # two models (B, C) x two metrics against A
    cols = np.column_stack([x[m][:, j] - x[m][:, 0] for m in METRICS for j in (1, 2)])
    raw, adj, _ = maxt(cols, args.resamples, rng)
    out["maxT (any of 4)"] = bool((adj < alpha).any())
    holm = np.maximum.accumulate((4 - np.arange(4)) * np.sort(raw))
    out["Holm (any of 4)"] = bool((holm < alpha).any())
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--users", type=int, default=20000)
    p.add_argument("--reps", type=int, default=400)
    p.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 200, 1000, 5000])
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--delta", type=float, default=0.01)
    p.add_argument("--margin", type=float, default=0.01)
    p.add_argument("--resamples", type=int, default=199)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scenarios", nargs="+",
                   default=["exchangeable", "mean-null", "shift", "tost@margin"])
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    pop = population(args.users, args.seed)
    rng = np.random.default_rng(args.seed)
    half = 1.96 * math.sqrt(args.alpha * (1 - args.alpha) / args.reps)
    print(f"population: {pop[METRICS[0]].shape[0]} users; {args.reps} repetitions; "
          f"alpha {args.alpha}; binomial 95% interval of alpha "
          f"[{args.alpha - half:.3f}, {args.alpha + half:.3f}]")
    for scenario in args.scenarios:
        table = {}
        for n in args.sizes:
            counts = {}
            for _ in range(args.reps):
                for test, hit in one_rep(pop, n, scenario, rng, args).items():
                    counts[test] = counts.get(test, 0) + bool(hit)
            for test, c in counts.items():
                table.setdefault(test, {})[n] = c / args.reps
        print(f"\n{scenario}" + (f" (delta {args.delta})" if scenario == "shift"
                                 else ""))
        print(f"{'test':<30s}" + "".join(f"{f'n={n}':>9s}" for n in args.sizes))
        for test, row in table.items():
            print(f"{test:<30s}" + "".join(f"{row[n]:>9.3f}" for n in args.sizes))
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
