"""Time the diversity metrics (grades per intent) beside ndcg_score.

    python benchmarks/run.py diversity --rows 1000000 --intents 5 --repeat 3

A shuffled long-layout run of ``--rows`` rows in groups of ``--group-size``
items, ``--intents`` intents, each item relevant to each intent with
probability ``--density`` (binary grades), continuous scores.  Each metric is
timed in turn with ``ndcg_score`` of the same rows (each row's largest
grade, the same groups and cutoff), and the median of the pairs' ratios is
printed (``paired``): alpha-nDCG@10 under each normalisation, ERR-IA@10,
NRBP, subtopic recall@10, intent-aware P@10 and D#-nDCG@10.  ``--exact``
adds the exact ideal, the default normalisation (the compiled pass's branch
and bound in every group that greedy does not settle: about a millisecond
such a group, on the threads OpenMP allows; ``--repeat 1`` is enough at 1M
rows).
"""

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import machine, paired  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402


def make_intent_run(n_rows, n_intents, group_size, density, seed=0):
    rng = np.random.default_rng(seed)
    n_groups = max(n_rows // group_size, 1)
    groups = rng.integers(0, n_groups, n_rows)
    grades = (rng.random((n_rows, n_intents)) < density).astype(np.int8)
    scores = rng.normal(size=n_rows) + 0.3 * grades.sum(axis=1)
    return grades, scores, groups


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--intents", type=int, default=5)
    parser.add_argument("--group-size", type=int, default=50)
    parser.add_argument("--density", type=float, default=0.1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--exact", action="store_true",
                        help="also the exact ideal (a search in each group "
                             "that greedy does not settle)")
    parser.add_argument("--only", default="",
                        help="only the cases whose name contains this")
    args = parser.parse_args(argv)
    print(machine())
    y, s, g = make_intent_run(int(args.rows), args.intents, args.group_size,
                              args.density)
    top = y.max(axis=1)
    print(f"{len(s):,} rows, {args.intents} intents, "
          f"{len(np.unique(g)):,} groups, density {args.density}")

    def ndcg():
        return rk.ndcg_score(top, s, groups=g, k=10)

    cases = {
        "alpha_ndcg@10 exact": lambda: rk.alpha_ndcg_score(y, s, groups=g, k=10),
        "alpha_ndcg@10 greedy": lambda: rk.alpha_ndcg_score(
            y, s, groups=g, k=10, normalization="greedy"),
        "alpha_ndcg@10 ideal-ideal": lambda: rk.alpha_ndcg_score(
            y, s, groups=g, k=10, normalization="ideal-ideal"),
        "err_ia@10 exact": lambda: rk.err_ia_score(y, s, groups=g, k=10),
        "nrbp greedy": lambda: rk.nrbp_score(y, s, groups=g,
                                             normalization="greedy"),
        "subtopic_recall@10": lambda: rk.subtopic_recall_score(y, s, groups=g,
                                                               k=10),
        "intent_aware P@10": lambda: rk.intent_aware_score(y, s, groups=g, k=10),
        "d_sharp_ndcg@10": lambda: rk.d_sharp_ndcg_score(y, s, groups=g, k=10),
    }
    if not args.exact:
        cases = {name: fn for name, fn in cases.items() if "exact" not in name}
    cases = {name: fn for name, fn in cases.items() if args.only in name}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, fn in cases.items():
            t_ndcg, t_ours, ratio = paired(ndcg, fn, args.repeat)
            print(f"{name:28s} {t_ours:8.3f} s   ndcg_score {t_ndcg:7.3f} s   "
                  f"ratio {ratio:5.2f}")


if __name__ == "__main__":
    main()
