"""The metrics on torch tensors (Array API dispatch), beside the NumPy path.

    python benchmarks/run.py gpu --device cuda --rows 10000000 100000000
    python benchmarks/run.py gpu --device cpu --rows 1000000 10000000

Scores are already on the device (generated with NumPy by the generators of
``benchmarks/run.py`` and moved once, untimed).  Each line is the median of
``--repeat`` runs after one warm-up, with ``torch.cuda.synchronize()`` around
every timed call on a GPU:

* W1 (click log: users of 1-100 rows, shuffled): ``gauc_score`` under
  ``array_api_dispatch``, beside ``torch.argsort`` of the same scores (the
  issue's yardstick: at most 5x), the NumPy path on the host arrays, and
  torchmetrics' ``RetrievalAUROC`` on the device (on a sample of users,
  extrapolated: it loops over users in Python) and torchrec's GAUC when they
  import.
* W2 (retrieval run: queries x 100 documents, graded): ``ranking_report`` of
  MAP, MRR, NDCG@10, P@10 and R@10, beside one ``torch.sort`` of the rows.
* Device memory: the peak allocated by the call (``torch.cuda``), beside the
  bytes of its input.

``--json FILE`` writes the rows.  On a machine without a GPU, ``--device cpu``
gives the torch-CPU path beside the NumPy path (the issue asks that it not be
slower than 2x NumPy there).
"""

import argparse
import json
import os
import sys

os.environ.setdefault("SCIPY_ARRAY_API", "1")  # before scipy / sklearn import

import numpy as np  # noqa: E402
import sklearn  # noqa: E402

import sklearn_rankeval as rk  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _data import click_log, retrieval_run  # noqa: E402
from _timing import timed as _timed  # noqa: E402

ROWS = []
W2_METRICS = ["map", "mrr", "ndcg@10", "precision@10", "recall@10"]


def _sync(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def timed(torch, device, fn, repeat):
    """Median seconds of ``fn()`` over ``repeat`` runs, after a warm-up."""
    def sync():
        _sync(torch, device)

    t = _timed(fn, repeat, before=sync, after=sync)
    return t.median, t.result


def peak_device_bytes(torch, device, fn):
    if device.type != "cuda":
        return None
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats(device)
    base = torch.cuda.memory_allocated(device)
    fn()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated(device) - base


def record(workload, name, seconds, *, reference=None, value=None, note="",
           peak=None, input_bytes=None):
    row = {"workload": workload, "name": name, "seconds": seconds,
           "ratio": None if reference is None else seconds / reference,
           "value": value, "peak_mb": None if peak is None else peak / 1e6,
           "input_mb": None if input_bytes is None else input_bytes / 1e6,
           "note": note}
    ROWS.append(row)
    ratio = "-" if row["ratio"] is None else f"{row['ratio']:.2f}"
    val = "-" if value is None else f"{value:.6f}"
    mem = "-" if peak is None else f"{row['peak_mb']:.0f}/{row['input_mb']:.0f}"
    print(f"{workload:10s} {name:48s} {seconds:9.4f} {ratio:>7s} {val:>10s} "
          f"{mem:>11s}  {note}", flush=True)


def _optional(module):
    try:
        return __import__(module)
    except ImportError:
        print(f"  ({module} not installed: its lines are skipped)")
        return None


def w1(torch, device, n_rows, args):
    y, s, g = click_log(max(1, n_rows // 10))
    label = f"W1 {len(y) / 1e6:.0f}M"
    ty, ts, tg = (torch.asarray(a, device=device) for a in (y, s, g))
    input_bytes = sum(t.element_size() * t.nelement() for t in (ty, ts, tg))
    ref, _ = timed(torch, device, lambda: torch.argsort(ts), args.repeat)
    record(label, "torch.argsort(y_score)", ref, reference=ref)

    def ours():
        with sklearn.config_context(array_api_dispatch=True):
            return rk.gauc_score(ty, ts, groups=tg)

    sec, value = timed(torch, device, ours, args.repeat)
    record(label, f"gauc_score on {device.type} tensors", sec, reference=ref,
           value=value, peak=peak_device_bytes(torch, device, ours),
           input_bytes=input_bytes)
    if not args.skip_numpy:
        sec_np, value_np = timed(torch, device, lambda: rk.gauc_score(y, s, groups=g),
                                 args.repeat)
        record(label, "gauc_score on NumPy arrays (host)", sec_np, reference=ref,
               value=value_np, note=f"tensor path / NumPy = {sec / sec_np:.2f}")
        if abs(value - value_np) > 1e-12:
            print(f"  !! values differ: {value!r} != {value_np!r}")
    tm = _optional("torchmetrics")
    if tm is not None:
        from torchmetrics.retrieval import RetrievalAUROC

        ids = np.unique(g)
        rng = np.random.default_rng(5)
        sample = rng.choice(ids, min(args.sample_groups, len(ids)), replace=False)
        rows = np.isin(g, sample)
        preds = torch.asarray(s[rows], device=device)
        target = torch.asarray(y[rows] > 0, device=device)
        index = torch.asarray(g[rows], device=device)

        def auroc():
            metric = RetrievalAUROC(empty_target_action="skip").to(device)
            return float(metric(preds, target, indexes=index))

        sec_tm, _ = timed(torch, device, auroc, 1)
        factor = len(ids) / len(sample)
        record(label, "torchmetrics RetrievalAUROC (device)", sec_tm * factor,
               reference=ref, note=f"extrapolated from {len(sample):,} users "
                                   f"(x{factor:.0f})")
    trec = _optional("torchrec")
    if trec is not None:  # pragma: no cover - seldom installed
        print("  (torchrec imports; its GAUC needs a dense session tensor and is "
              "not timed here)")


def w2(torch, device, n_rows, args):
    n_queries = max(1, n_rows // 100)
    Y, S = retrieval_run(n_queries)
    y, s = Y.ravel(), S.ravel()
    g = np.repeat(np.arange(n_queries), Y.shape[1])
    label = f"W2 {len(y) / 1e6:.0f}M"
    ty, ts, tg = (torch.asarray(a, device=device) for a in (y, s, g))
    input_bytes = sum(t.element_size() * t.nelement() for t in (ty, ts, tg))
    ref, _ = timed(torch, device, lambda: torch.sort(ts), args.repeat)
    record(label, "torch.sort(y_score)", ref, reference=ref)

    def ours():
        with sklearn.config_context(array_api_dispatch=True):
            return rk.ranking_report(ty, ts, groups=tg, metrics=W2_METRICS,
                                     output="dict")

    sec, value = timed(torch, device, ours, args.repeat)
    record(label, f"ranking_report (5 metrics) on {device.type} tensors", sec,
           reference=ref, value=value["ndcg@10"],
           peak=peak_device_bytes(torch, device, ours), input_bytes=input_bytes)
    if not args.skip_numpy:
        sec_np, value_np = timed(torch, device, lambda: rk.ranking_report(
            y, s, groups=g, metrics=W2_METRICS, output="dict"), args.repeat)
        record(label, "ranking_report (5 metrics) on NumPy (host)", sec_np,
               reference=ref, value=value_np["ndcg@10"],
               note=f"tensor path / NumPy = {sec / sec_np:.2f}")
        for name in W2_METRICS:
            if abs(value[name] - value_np[name]) > 1e-12:
                print(f"  !! {name} differs: {value[name]!r} != {value_np[name]!r}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000_000])
    parser.add_argument("--w2-rows", type=int, nargs="+", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sample-groups", type=int, default=2000)
    parser.add_argument("--skip-numpy", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    import torch

    device = torch.device(args.device)
    name = (torch.cuda.get_device_name(device) if device.type == "cuda"
            else "CPU")
    print(f"# torch {torch.__version__} on {name}; sklearn_rankeval "
          f"{rk.__version__}; threads {torch.get_num_threads()}")
    print(f"{'workload':10s} {'measurement':48s} {'seconds':>9s} {'/sort':>7s} "
          f"{'value':>10s} {'MB dev/in':>11s}")
    for n in args.rows:
        w1(torch, device, n, args)
    for n in args.w2_rows or args.rows:
        w2(torch, device, n, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": name, "torch": torch.__version__, "rows": ROWS}, f,
                      indent=1)


if __name__ == "__main__":
    main()
