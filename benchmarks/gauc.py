"""GAUC of a click log (W1), beside the sorts and the peers, same rows, same run.

    python benchmarks/run.py gauc --part ratio --repeat 7
    python benchmarks/run.py gauc --part peers --users 1000000 --repeat 3
    python benchmarks/run.py gauc --part sorts --rows 1000000 --groups 100000

Parts:

* ``ratio``: ``gauc_score`` over ``np.argsort(y_score)`` and over one
  streaming ``np.bincount(groups, weights=y_score)`` pass on W1 of 3M and
  10M rows (``--users`` 300k and 1M), the two sides timed in turn (the median
  of the pairs' ratios), with the default threads and one thread; the peak
  memory traced by ``tracemalloc`` from a cold workspace over the input's
  bytes, and the workspace kept for the next call.
* ``peers``: W1 beside a Python loop of ``roc_auc_score``, pandas
  ``groupby().apply`` (a sample of groups, extrapolated linearly in the
  number of groups) and torchmetrics' ``RetrievalAUROC`` (values checked).
* ``sorts``: ``gauc_score`` beside ``np.argsort(y_score)`` and
  ``np.lexsort((y_score, groups))`` on ``--rows`` rows in ``--groups``
  uniformly drawn groups.
"""

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _data import click_log  # noqa: E402
from _timing import emit, load, one_thread, paired, timed, traced_peak  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402
from sklearn_rankeval._engine import _grouped  # noqa: E402


def part_ratio(args):
    for users in args.users or (300_000, 1_000_000):
        _ratio_at(click_log(users), args)


def _ratio_at(data, args):
    from sklearn_rankeval._engine import _compiled

    y, s, g = data
    nbytes = y.nbytes + s.nbytes + g.nbytes

    def ours():
        return rk.gauc_score(y, s, groups=g)

    a, b, r = paired(lambda: np.argsort(s), ours, args.repeat)
    _, _, rb = paired(lambda: np.bincount(g, weights=s), ours, args.repeat)
    with one_thread():
        _, b1, r1 = paired(lambda: np.argsort(s), ours, args.repeat)
    peak = traced_peak(ours, cold=True)
    kept = sum(a.nbytes for a in getattr(_compiled._LOCAL, "ws", {}).values())
    emit(part="gauc", rows=len(y), argsort_s=a, gauc_s=b, over_argsort=r,
         over_bincount=rb, threads=_grouped.max_threads(), one_thread_s=b1,
         one_thread_over_argsort=r1, peak_over_input=peak / nbytes,
         workspace_over_input=kept / nbytes, load=load())


def part_peers(args):
    from sklearn.metrics import roc_auc_score

    n_users = (args.users or [1_000_000])[0]
    y, s, g = click_log(n_users)
    ref = timed(lambda: np.argsort(s), args.repeat).median
    ours = timed(lambda: rk.gauc_score(y, s, groups=g), args.repeat)
    emit(part="peers", rows=len(y), what="np.argsort(y_score)", median_s=ref)
    emit(part="peers", rows=len(y), what="gauc_score", median_s=ours.median,
         min_s=ours.min, over_argsort=ours.median / ref, value=float(ours.result))
    per_group = rk.gauc_score(y, s, groups=g, average=None)
    ids = np.unique(g)
    rng = np.random.default_rng(5)
    sample = rng.choice(ids, min(args.sample_groups, len(ids)), replace=False)
    mask = np.isin(g, sample)
    ys, ss, gs = y[mask], s[mask], g[mask]
    factor = len(ids) / len(sample)
    expected = float(np.nanmean(per_group[np.searchsorted(ids, np.sort(sample))]))

    def python_loop():
        order = np.argsort(gs, kind="stable")
        bounds = np.flatnonzero(np.diff(gs[order])) + 1
        values = [roc_auc_score(yy, sc) for yy, sc in zip(
            np.split(ys[order], bounds), np.split(ss[order], bounds))
            if 0 < yy.sum() < len(yy)]
        return np.mean(values)

    t = timed(python_loop, 1, warmup=0)
    emit(part="peers", what="python loop of roc_auc_score", median_s=t.median * factor,
         over_argsort=t.median * factor / ref, extrapolated=f"x{factor:.0f}",
         value=float(t.result), ours_on_sample=expected)
    try:
        import pandas as pd
    except ImportError:
        pd = None
    if pd is not None:
        frame = pd.DataFrame({"y": ys, "s": ss, "g": gs})

        def auc(d):
            return (roc_auc_score(d["y"], d["s"]) if 0 < d["y"].sum() < len(d)
                    else np.nan)

        t = timed(lambda: frame.groupby("g")[["y", "s"]].apply(auc).mean(), 1,
                  warmup=0)
        emit(part="peers", what="pandas groupby().apply(roc_auc_score)",
             median_s=t.median * factor, over_argsort=t.median * factor / ref,
             extrapolated=f"x{factor:.0f}", value=float(t.result))
    try:
        import torch
        from torchmetrics.retrieval import RetrievalAUROC
    except ImportError:
        emit(part="peers", what="torchmetrics", note="not installed")
        return
    keep = np.isin(g, ids[~np.isnan(per_group)])  # one-class groups skipped
    preds, target = torch.from_numpy(s[keep]), torch.from_numpy(y[keep] > 0)
    indexes = torch.from_numpy(g[keep])
    t = timed(lambda: float(RetrievalAUROC(empty_target_action="skip")(
        preds, target, indexes=indexes)), 1, warmup=0)
    emit(part="peers", what="torchmetrics RetrievalAUROC(indexes)", median_s=t.median,
         over_argsort=t.median / ref, value=t.result,
         ours_macro=float(np.nanmean(per_group)))


def part_sorts(args):
    rng = np.random.default_rng(0)
    g = rng.integers(0, args.groups, args.rows)
    base = rng.normal(size=args.groups)[g]
    s = np.round(1 / (1 + np.exp(-(base + rng.normal(size=args.rows)))), 4)
    y = (rng.random(args.rows) < 0.1 * (0.5 + s)).astype(np.int8)
    cases = {"np.argsort(y_score)": lambda: np.argsort(s),
             "np.lexsort((y_score, groups))": lambda: np.lexsort((s, g)),
             "gauc_score": lambda: rk.gauc_score(y, s, groups=g)}
    t = {name: timed(fn, args.repeat) for name, fn in cases.items()}
    for name, tt in t.items():
        emit(part="sorts", rows=args.rows, groups=args.groups, what=name,
             median_s=tt.median, min_s=tt.min, max_s=tt.max)
    emit(part="sorts", gauc_over_argsort=t["gauc_score"].median
         / t["np.argsort(y_score)"].median,
         gauc_over_lexsort=t["gauc_score"].median
         / t["np.lexsort((y_score, groups))"].median)


PARTS = {"ratio": part_ratio, "peers": part_peers, "sorts": part_sorts}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", nargs="*", choices=list(PARTS), default=["ratio"])
    parser.add_argument("--users", type=int, nargs="*", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sample-groups", type=int, default=5000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--groups", type=int, default=100_000)
    args = parser.parse_args(argv)
    for name in args.part:
        PARTS[name](args)


if __name__ == "__main__":
    main()
