"""Time GAUC beside the sorts it is built on, on a shuffled click log.

    python benchmarks/bench_engine.py --rows 1000000 --groups 100000 --repeat 5

Prints the median / min / max seconds of ``gauc_score`` and, measured in the
same run on the same rows, of ``np.argsort(y_score)`` and
``np.lexsort((y_score, groups))``, with the ratios of GAUC's median to theirs.
Scores are rounded to 4 decimals so that ties are frequent, as in click logs.
"""

import argparse
import platform
import time

import numpy as np

from sklearn_rankeval import gauc_score


def make_click_log(n_rows, n_groups, seed=0):
    """Rows in random order, ~10% positives, 4-decimal scores (many ties)."""
    rng = np.random.default_rng(seed)
    groups = rng.integers(0, n_groups, n_rows)
    base = rng.normal(size=n_groups)[groups]
    y_score = np.round(1 / (1 + np.exp(-(base + rng.normal(size=n_rows)))), 4)
    y_true = (rng.random(n_rows) < 0.1 * (0.5 + y_score)).astype(np.int8)
    return y_true, y_score, groups


def timeit(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return np.array(times), result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    y_true, y_score, groups = make_click_log(args.rows, args.groups)
    print(f"# {args.rows:,} rows, {args.groups:,} groups (shuffled), "
          f"numpy {np.__version__}, {platform.processor() or platform.machine()}")
    rows = [
        ("np.argsort(y_score)", lambda: np.argsort(y_score)),
        ("np.lexsort((y_score, groups))", lambda: np.lexsort((y_score, groups))),
        ("gauc_score", lambda: gauc_score(y_true, y_score, groups=groups)),
    ]
    medians = {}
    print(f"{'measurement':32s} {'median':>8s} {'min':>8s} {'max':>8s}")
    for name, fn in rows:
        fn()  # warm-up (page faults, caches)
        times, result = timeit(fn, args.repeat)
        medians[name] = np.median(times)
        print(f"{name:32s} {np.median(times):8.3f} {times.min():8.3f} {times.max():8.3f}")
        if name == "gauc_score":
            print(f"{'':32s} GAUC = {result:.6f}")
    gauc = medians["gauc_score"]
    print(f"ratio GAUC / argsort = {gauc / medians['np.argsort(y_score)']:.2f}")
    print(f"ratio GAUC / lexsort = {gauc / medians['np.lexsort((y_score, groups))']:.2f}")


if __name__ == "__main__":
    main()
