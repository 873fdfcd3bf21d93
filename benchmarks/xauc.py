"""Time the xAUC core (weighted pair concordance per group) beside a sort.

    python benchmarks/run.py xauc --rows 10000000 --groups 1000000 --repeat 3

Two workloads, each timed beside a reference measured in the same run on the
same rows (median / min / max seconds over ``--repeat`` runs after a warm-up):

* a shuffled log of ``--rows`` rows in ``--groups`` groups with continuous
  labels (watch times) and scores: ``weighted_concordance`` unweighted and
  with float weights, against ``np.argsort(y_score)``;
* ``--single-rows`` rows in one group: ``weighted_concordance`` against
  ``scipy.stats.kendalltau(y, s)``, and the check that, without ties,
  ``(concordant + tied / 2) / total == (1 + tau) / 2``.

The peak memory is traced by ``tracemalloc`` in a separate run (NumPy
allocations), and given as a multiple of the inputs' size.
"""

import argparse
import platform
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed, traced_peak  # noqa: E402

from sklearn_rankeval._metrics._concordance import weighted_concordance  # noqa: E402


def make_watch_log(n_rows, n_groups, seed=0):
    """Rows in random order; watch times (log-normal) loosely predicted by
    the scores; float weights in [0.5, 2)."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, n_groups, n_rows)
    y_score = rng.normal(size=n_rows)
    y_true = np.exp(0.5 * y_score + rng.normal(size=n_rows))
    weight = rng.uniform(0.5, 2.0, n_rows)
    return codes, y_true, y_score, weight


def timeit(fn, repeat):
    t = timed(fn, repeat)
    return t.times, t.result


def peak_mb(fn):
    return traced_peak(fn) / 2**20


def table(title, rows, reference, input_mb):
    print(f"\n### {title}\n")
    print("| measurement | median s | min s | max s | peak MB | / reference |")
    print("|---|---|---|---|---|---|")
    ref = np.median(rows[reference][1])
    for name, times, peak in rows:
        mem = "" if peak is None else f"{peak:.0f} ({peak / input_mb:.1f}x input)"
        print(f"| `{name}` | {np.median(times):.3f} | {times.min():.3f} | "
              f"{times.max():.3f} | {mem} | {np.median(times) / ref:.2f} |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=1_000_000)
    parser.add_argument("--single-rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-memory", action="store_true",
                        help="skip the tracemalloc runs")
    args = parser.parse_args(argv)
    print(f"# numpy {np.__version__}, {platform.processor() or platform.machine()}, "
          f"median of {args.repeat} after a warm-up")

    codes, y, s, w = make_watch_log(args.rows, args.groups)
    input_mb = 4 * y.nbytes / 2**20  # codes, y_true, y_score, sample_weight

    def ours(weight):
        return lambda: weighted_concordance(codes, y, s, weight,
                                            n_groups=args.groups)

    rows = []
    for name, fn in [("np.argsort(y_score)", lambda: np.argsort(s)),
                     ("weighted_concordance (unweighted)", ours(None)),
                     ("weighted_concordance (float weights)", ours(w))]:
        times, _ = timeit(fn, args.repeat)
        rows.append((name, times, None if args.no_memory else peak_mb(fn)))
    table(f"{args.rows:,} rows, {args.groups:,} groups (shuffled), continuous "
          f"labels", rows, 0, input_mb)

    from scipy.stats import kendalltau

    codes1, y1, s1, _ = make_watch_log(args.single_rows, 1, seed=1)
    rows = []
    for name, fn in [("scipy.stats.kendalltau(y, s)", lambda: kendalltau(y1, s1)),
                     ("weighted_concordance", lambda: weighted_concordance(
                         codes1, y1, s1, n_groups=1))]:
        times, result = timeit(fn, args.repeat)
        rows.append((name, times, None))
        if name.startswith("scipy"):
            tau = result.statistic
        else:
            c, t, total = (float(v[0]) for v in result)
    table(f"{args.single_rows:,} rows in one group", rows, 0, 1)
    ties = len(np.unique(y1)) < len(y1) or len(np.unique(s1)) < len(s1)
    xauc = (c + t / 2) / total
    print(f"\nties: {ties}; xAUC = {xauc!r}, (1 + tau) / 2 = {(1 + tau) / 2!r}, "
          f"difference {abs(xauc - (1 + tau) / 2):.1e}")


if __name__ == "__main__":
    main()
