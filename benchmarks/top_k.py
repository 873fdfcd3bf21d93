"""Time ``top_k_items`` beside a plain ``np.argpartition`` over the same batches.

    python benchmarks/run.py top_k --users 20000 --items 20000 --k 100 --repeat 3

A ``--users x --items`` float32 score matrix (uniform, so a few ties) and a
training mask of ``--density`` of the entries (a SciPy CSR matrix).  Timed in
the same run (median / min / max seconds over ``--repeat`` runs after a
warm-up), with one batch size for all -- ``top_k_items``' default from
``working_memory`` unless ``--batch-size`` is given:

* ``top_k_items(scores, k=k, exclude=train)`` (the issue's call),
* ``top_k_items(scores, k=k)`` (no mask),
* the reference: for each batch of users, ``np.argpartition(scores[a:b], -k,
  axis=1)[:, -k:]`` (no mask, no ties, no ordering of the k items; the k
  columns copied, so that one batch of indices is alive at a time).

The peak memory of one ``top_k_items`` call with the mask is traced by
``tracemalloc`` (NumPy allocations) in a separate run and set beside one
batch (``batch_size x n_items x (4 + 1)`` bytes: the float32 copy and the
boolean selection) and beside the output's bytes, which the caller keeps.
"""

import argparse
import platform
import sys
import tracemalloc
from pathlib import Path

import numpy as np
from scipy import sparse

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed  # noqa: E402

from sklearn_rankeval import top_k_items  # noqa: E402
from sklearn_rankeval._recommend._top_k import _batch_rows  # noqa: E402


def make_data(n_users, n_items, density, seed=0):
    rng = np.random.default_rng(seed)
    scores = rng.random((n_users, n_items), dtype=np.float32)
    nnz = int(density * n_users * n_items)
    rows = rng.integers(0, n_users, nnz)
    cols = rng.integers(0, n_items, nnz)
    train = sparse.csr_matrix((np.ones(nnz, dtype=bool), (rows, cols)),
                              shape=(n_users, n_items))
    return scores, train


def argpartition_batches(scores, k, step):
    out = []
    for a in range(0, scores.shape[0], step):
        # the k columns copied: a view would keep the batch's indices alive
        out.append(np.argpartition(scores[a:a + step], -k, axis=1)[:, -k:].copy())
    return out


def timeit(fn, repeat):
    return timed(fn, repeat).times


def peak_bytes(fn):
    tracemalloc.start()
    try:
        result = fn()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20_000)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--k", type=int, default=100)
    parser.add_argument("--density", type=float, default=0.01)
    parser.add_argument("--batch-size", type=int, default=None,
                        help="users per batch (default: top_k_items' own, "
                             "from working_memory)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    scores, train = make_data(args.users, args.items, args.density)
    step = args.batch_size or _batch_rows(None, args.items, scores.itemsize)
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{platform.machine()}")
    print(f"scores {scores.shape} float32 ({scores.nbytes / 2**20:.0f} MiB), "
          f"train {train.nnz:,} stored entries, k={args.k}, "
          f"batch {step} users ({-(-args.users // step)} batches)\n")

    timings = {
        "np.argpartition per batch (reference)":
            timeit(lambda: argpartition_batches(scores, args.k, step), args.repeat),
        "top_k_items, train mask (CSR)":
            timeit(lambda: top_k_items(scores, k=args.k, exclude=train,
                                       batch_size=step), args.repeat),
        "top_k_items, no mask":
            timeit(lambda: top_k_items(scores, k=args.k, batch_size=step),
                   args.repeat),
    }
    reference = np.median(next(iter(timings.values())))
    print("| call | median s | min s | max s | / reference |")
    print("|---|---|---|---|---|")
    for name, t in timings.items():
        print(f"| {name} | {np.median(t):.3f} | {t.min():.3f} | {t.max():.3f} | "
              f"{np.median(t) / reference:.2f} |")

    peak, result = peak_bytes(
        lambda: top_k_items(scores, k=args.k, exclude=train, batch_size=step))
    output = sum(v.nbytes for v in result.values())
    batch = step * args.items * (scores.itemsize + 1)
    ref_peak, _ = peak_bytes(lambda: argpartition_batches(scores, args.k, step))
    mib = 2**20
    print(f"\nlists: {result['user'].shape[0]:,} entries "
          f"({result['user'].shape[0] / args.users:.2f} a user)")
    print(f"peak traced memory of top_k_items: {peak / mib:.1f} MiB; output "
          f"{output / mib:.1f} MiB; peak - output {(peak - output) / mib:.1f} "
          f"MiB; one batch {batch / mib:.1f} MiB; "
          f"(peak - output) / batch {(peak - output) / batch:.2f}; "
          f"matrix {scores.nbytes / mib:.0f} MiB")
    print(f"peak traced memory of the argpartition reference: "
          f"{ref_peak / mib:.1f} MiB")


if __name__ == "__main__":
    main()
