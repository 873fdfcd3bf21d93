"""Time ``recommendation_report`` beside Microsoft Recommenders and RecTools.

    python benchmarks/run.py recommend --users 1000000 --repeat 3

The peers are oracles, never dependencies: run this with an interpreter that
has them (``pip install --no-deps recommenders``, ``pandas<3``, ``rectools``)
and this checkout on ``PYTHONPATH``; a missing peer is reported and skipped.

Data: ``--users`` users, each with a list of 10 distinct recommended items
in rank order (a score column, no ties, and a ``rank`` column, as a model's
``recommend`` gives them) and 3 distinct held-out items, about a third of
them in the list; a training set of ``--train-per-user`` interactions per
user, items drawn with a Zipf-like popularity.  All in pandas DataFrames,
built once and passed as they are to every library (integer ids).

Timed in the same run (median / min / max seconds over ``--repeat`` runs
after a warm-up):

* ours: ``recommendation_report(rec, held, metrics=[precision@10, recall@10,
  ndcg@10, map@10], convention=...)``, once with this library's own rules and
  once with ``convention="ms_recommenders"`` when the preset exists;
* Microsoft Recommenders: ``precision_at_k``, ``recall_at_k``,
  ``ndcg_at_k``, ``map_at_k`` of ``recommenders.evaluation.python_evaluation``
  (k=10, ``col_prediction="score"``), the four calls a user makes;
* RecTools: ``calc_metrics`` of ``Precision(10)``, ``Recall(10)``,
  ``NDCG(10)``, ``MAP(10)`` on the lists with a ``rank`` column;
* ours, the beyond-accuracy metrics ``coverage``, ``gini``, ``entropy``,
  ``novelty``, ``arp``, ``long_tail@10`` with ``train``, against our own
  accuracy report (target <= 1x).

Targets of the compiled-engine issue: RecTools' time >= 5x ours, Microsoft
Recommenders' >= 60x ours (printed at the end).  On a shared machine, run
the peers and ours close together: the ratios are only as good as the load
is steady (``os.getloadavg``).

Every library's values are printed beside ours, with the largest absolute
difference, so that "same values" is checked in the run that is timed.
"""

import argparse
import platform
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import timed  # noqa: E402

from sklearn_rankeval import recommendation_report  # noqa: E402

ACCURACY = ["precision@10", "recall@10", "ndcg@10", "map@10"]
BEYOND = ["coverage@10", "gini@10", "entropy@10", "novelty@10", "arp@10",
          "long_tail@10"]
N_REC, N_HELD = 10, 3


def make_data(n_users, n_items, train_per_user, seed=0):
    """(recommended, held_out, train) DataFrames with integer ids."""
    rng = np.random.default_rng(seed)
    user = np.repeat(np.arange(n_users), N_REC)
    # distinct items per list: an arithmetic progression modulo the catalog
    start = rng.integers(0, n_items, n_users)
    step = 7919  # prime, larger than N_REC + N_HELD, coprime to n_items below
    pos = np.tile(np.arange(N_REC), n_users)
    item = (np.repeat(start, N_REC) + pos * step) % n_items
    # each list in rank order, as top_k_items or a model's recommend() gives
    # it: scores descending within a user, and the rank (1 = first)
    score = -np.sort(-rng.random((n_users, N_REC)), axis=1).ravel()
    recommended = pd.DataFrame({"user": user, "item": item, "score": score,
                                "rank": pos + 1})
    # held-out slot j: with probability 1/3 the list's item at position
    # 3j + r (a hit, distinct per slot), else an item beyond the list
    h_user = np.repeat(np.arange(n_users), N_HELD)
    slot = np.tile(np.arange(N_HELD), n_users)
    hit = rng.random(h_user.shape[0]) < 1 / 3
    hit_pos = 3 * slot + rng.integers(0, 3, h_user.shape[0])
    miss_pos = N_REC + slot
    h_pos = np.where(hit, hit_pos, miss_pos)
    h_item = (np.repeat(start, N_HELD) + h_pos * step) % n_items
    held_out = pd.DataFrame({"user": h_user, "item": h_item,
                             "rating": np.ones(h_user.shape[0])})
    n_train = n_users * train_per_user
    popular = np.minimum(rng.zipf(1.3, n_train) - 1, n_items - 1)
    train = pd.DataFrame({"user": rng.integers(0, n_users, n_train),
                          "item": popular})
    return recommended, held_out, train


def timeit(fn, repeat):
    t = timed(fn, repeat)
    return t.result, t.median, t.min, t.max


def _optional(name):
    try:
        return __import__(name, fromlist=["_"])
    except ImportError as exc:
        print(f"  ({name} not available: {exc})")
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1_000_000)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--train-per-user", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"# {platform.processor() or platform.machine()}, numpy {np.__version__}"
          f", pandas {pd.__version__}")
    rec, held, train = make_data(args.users, args.items, args.train_per_user)
    print(f"# {args.users} users x {N_REC} recommendations, {N_HELD} held-out "
          f"items each, {len(train)} training rows, {args.items} items")
    rows = []

    def run(name, fn):
        value, med, lo, hi = timeit(fn, args.repeat)
        rows.append((name, med, lo, hi, value))
        print(f"{name:<58} {med:8.3f} {lo:8.3f} {hi:8.3f}", flush=True)
        return value

    ours = run("ours: recommendation_report, 4 accuracy metrics",
               lambda: recommendation_report(rec, held, metrics=ACCURACY,
                                             output="dict"))
    shuffled = rec.sample(frac=1.0, random_state=0)
    run("ours: the same, rows shuffled (not in rank order)",
        lambda: recommendation_report(shuffled, held, metrics=ACCURACY,
                                      output="dict"))
    try:
        ours_ms = run("ours: the same, convention='ms_recommenders'",
                      lambda: recommendation_report(
                          rec, held, metrics=ACCURACY, output="dict",
                          convention="ms_recommenders"))
    except ValueError as exc:
        print(f"  (convention='ms_recommenders' not available: {exc})")
        ours_ms = ours
    try:
        ours_rt = run("ours: the same, convention='rectools'",
                      lambda: recommendation_report(
                          rec, held, metrics=ACCURACY, output="dict",
                          convention="rectools"))
    except ValueError as exc:
        print(f"  (convention='rectools' not available: {exc})")
        ours_rt = ours
    run("ours: beyond-accuracy (6 metrics, with train)",
        lambda: recommendation_report(rec, held, metrics=BEYOND, train=train,
                                      n_items=args.items, output="dict"))

    ms = _optional("recommenders.evaluation.python_evaluation")
    if ms is not None:
        funcs = (ms.precision_at_k, ms.recall_at_k, ms.ndcg_at_k, ms.map_at_k)
        pred = rec[["user", "item", "score"]]  # MS adds a "rank" column itself

        def ms_four():
            return {name: f(held, pred, col_user="user", col_item="item",
                            col_rating="rating", col_prediction="score", k=10)
                    for name, f in zip(ACCURACY, funcs)}

        got = run("Microsoft Recommenders: 4 python_evaluation calls", ms_four)
        print("  values (MS / ours with its convention): " + ", ".join(
            f"{n} {got[n]:.6f}/{ours_ms[n]:.6f}" for n in ACCURACY))
        print(f"  largest difference: "
              f"{max(abs(got[n] - ours_ms[n]) for n in ACCURACY):.2e}")
    rt = _optional("rectools.metrics")
    if rt is not None:
        reco = rec.rename(columns={"user": "user_id", "item": "item_id"})
        inter = held.rename(columns={"user": "user_id", "item": "item_id"})
        metrics = {"precision@10": rt.Precision(10), "recall@10": rt.Recall(10),
                   "ndcg@10": rt.NDCG(10), "map@10": rt.MAP(10)}
        got = run("RecTools: calc_metrics of 4 metrics",
                  lambda: rt.calc_metrics(metrics, reco, inter))
        print("  values (RecTools / ours with its convention): " + ", ".join(
            f"{n} {got[n]:.6f}/{ours_rt[n]:.6f}" for n in ACCURACY))
        print(f"  largest difference: "
              f"{max(abs(got[n] - ours_rt[n]) for n in ACCURACY):.2e}")

    base = rows[0][1]
    print("\n| call | median s | its time / ours |")
    print("|---|---:|---:|")
    for name, med, _, _, _ in rows:
        print(f"| {name} | {med:.3f} | {med / base:.2f} |")
    seconds = {name.split(":")[0]: med for name, med, _, _, _ in rows}
    conv = {name.split("'")[1]: med for name, med, _, _, _ in rows
            if "convention=" in name}
    for name, med in conv.items():
        print(f"# convention={name!r} / default: {med / base:.2f} (target <= 1.2)")
    # the peers beside ours with the same values (their convention)
    for peer, preset, target in (("RecTools", "rectools", 5),
                                 ("Microsoft Recommenders", "ms_recommenders", 60)):
        if peer in seconds:
            mine = conv.get(preset, base)
            print(f"# {peer} / ours (convention={preset!r}, equal values): "
                  f"{seconds[peer] / mine:.2f} (target >= {target}); / our "
                  f"default {seconds[peer] / base:.2f}")


if __name__ == "__main__":
    main()
