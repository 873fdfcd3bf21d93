"""Time the CTR metrics (log loss, NE, PCOC, ECE) beside a sort and torcheval.

    python benchmarks/run.py ctr --users 300000 --repeat 7
    python benchmarks/run.py ctr --users 1000000 --peer-python /tmp/peers/bin/python

Every figure is a ratio to a reference timed in the same run on the same rows
(median / min / max seconds over ``--repeat`` runs after a warm-up):

* The report over ``np.argsort(y_score)``, the two timed in turn (the
  median of the pairs' ratios; target <= 0.5).
* (a) W1, the click log of ``_data.py`` (``--users`` users of 1-100 rows,
  shuffled; 1,000,000 users: 9,996,676 rows): ``ranking_report`` of
  ``log_loss``, ``ne``, ``pcoc`` and ``ece`` per user (their micro averages),
  and each metric function alone, against ``np.argsort(y_score)`` (target:
  the report within 1x the sort).  The values are checked against
  scikit-learn on the same rows: ``log_loss``, ``1 - d2_log_loss_score`` and
  the ECE from ``calibration_curve``'s bins.
  Two lines bound the report from below: the factorization of the user
  ids (``np.unique(..., return_inverse=True)``, a sort) and one pass of
  logarithms over the rows (the cross-entropy).
* (b) With ``--peer-python``, a Python with torch and torcheval (kept out of
  this package's environment, e.g. ``python3 -m venv /tmp/peers &&
  /tmp/peers/bin/pip install torch torcheval``): torcheval's
  ``binary_normalized_entropy`` and ``weighted_calibration`` on float64
  tensors of the same rows (``torch.from_numpy``, no copy), timed in that
  Python, beside ours without groups (torcheval has none; the micro average
  does not depend on them).  The values must agree to ``--rtol``.

The peers run in a child process that reads the rows from ``.npy`` files.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _timing import load, paired, timed  # noqa: E402

METRICS = ["log_loss", "ne", "pcoc", "ece"]


def timeit(fn, repeat):
    """``(median, min, max)`` seconds (the shared helper) and the last result."""
    t = timed(fn, repeat)
    return (t.median, t.min, t.max), t.result


def line(name, t, ref=None, value=""):
    ratio = "" if ref is None else f"{t[0] / ref[0]:.2f}"
    print(f"| {name} | {t[0]:.3f} | {t[1]:.3f} | {t[2]:.3f} | {ratio} | {value} |",
          flush=True)
    return {"name": name, "median": t[0], "min": t[1], "max": t[2],
            **({} if ref is None else {"ratio": t[0] / ref[0]})}


def header(title):
    print(f"\n### {title}\n")
    print("| measurement | median s | min s | max s | / reference | value |")
    print("|---|---|---|---|---|---|")


# ---------------------------------------------------------------------------
# (b) the peers, in a child process with torch and torcheval
# ---------------------------------------------------------------------------
def peer_worker(folder, repeat):
    """Run in the peers' Python: time torcheval on the saved rows, print JSON."""
    import torch
    from torcheval.metrics.functional import (
        binary_normalized_entropy,
        weighted_calibration,
    )

    y = np.load(os.path.join(folder, "y_true.npy"))
    s = np.load(os.path.join(folder, "y_prob.npy"))
    target, prob = torch.from_numpy(y), torch.from_numpy(s)
    out = {"torch": torch.__version__, "threads": torch.get_num_threads()}
    for name, fn in [
        ("ne", lambda: binary_normalized_entropy(prob, target)),
        ("pcoc", lambda: weighted_calibration(prob, target)),
        ("argsort", lambda: torch.argsort(prob)),
    ]:
        t, value = timeit(fn, repeat)
        out[name] = {"time": t, "value": float(value.reshape(-1)[0])
                     if name != "argsort" else None}
    print(json.dumps(out))


def run_peers(args, y, s):
    with tempfile.TemporaryDirectory() as folder:
        # torcheval takes float targets; float64 keeps the comparison exact
        np.save(os.path.join(folder, "y_true.npy"), y.astype(np.float64))
        np.save(os.path.join(folder, "y_prob.npy"), s)
        proc = subprocess.run(
            [args.peer_python, __file__, "--peer-worker", folder,
             "--repeat", str(args.repeat)],
            capture_output=True, text=True)
    if proc.returncode:
        print(proc.stderr)
        raise SystemExit("the peer process failed")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------
def ece_from_sklearn(y, s, n_bins=10):
    """The ECE from ``calibration_curve``'s points and its bins' counts."""
    from sklearn.calibration import calibration_curve

    prob_true, prob_pred = calibration_curve(y, s, n_bins=n_bins)
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    counts = np.bincount(np.searchsorted(edges[1:-1], s), minlength=n_bins)
    share = counts[counts > 0] / counts.sum()
    return float(np.sum(share * np.abs(prob_pred - prob_true)))


def check(name, ours, reference, rtol):
    diff = abs(ours - reference) / abs(reference)
    flag = "" if diff <= rtol else "  !! values differ"
    print(f"  {name}: ours {ours!r}, reference {reference!r}, relative "
          f"difference {diff:.1e}{flag}")
    return diff


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1_000_000,
                        help="users of the W1 click log (1M: ~10M rows)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-python", default=None,
                        help="a Python with torch and torcheval, for (b)")
    parser.add_argument("--rtol", type=float, default=1e-12,
                        help="largest relative difference of the values")
    parser.add_argument("--json", default=None)
    parser.add_argument("--peer-worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_worker:
        return peer_worker(args.peer_worker, args.repeat)

    import sklearn
    from _data import click_log
    from sklearn.metrics import d2_log_loss_score
    from sklearn.metrics import log_loss as sklearn_log_loss

    import sklearn_rankeval as rk

    y, s, g = click_log(args.users)
    print(f"# {platform.machine()}, {os.cpu_count()} cores, python "
          f"{platform.python_version()}, numpy {np.__version__}, scikit-learn "
          f"{sklearn.__version__}; median of {args.repeat} after a warm-up")
    print(f"# W1: {len(y):,} rows, {args.users:,} users, {y.mean():.1%} clicks")
    rows = []

    a, b, r = paired(lambda: np.argsort(s), lambda: rk.ranking_report(
        y, s, groups=g, metrics=METRICS, output="dict"), args.repeat)
    print(f"\nthe report over np.argsort, timed in turn: argsort {a:.3f} s, report "
          f"{b:.3f} s, median ratio {r:.3f} (target <= 0.5; {load()})")
    rows.append({"name": "report / argsort, paired", "argsort": a, "report": b,
                 "ratio": r})

    header(f"(a) W1, {len(y):,} rows, {args.users:,} users")
    ref, _ = timeit(lambda: np.argsort(s), args.repeat)
    rows.append(line("`np.argsort(y_score)`", ref))
    t, report = timeit(lambda: rk.ranking_report(
        y, s, groups=g, metrics=METRICS, output="dict"), args.repeat)
    rows.append(line("**`ranking_report`**, " + ", ".join(METRICS), t, ref,
                     ", ".join(f"{m} {report[m]:.6f}" for m in METRICS)))
    for f in (rk.log_loss, rk.normalized_entropy, rk.calibration_ratio,
              rk.expected_calibration_error):
        t, value = timeit(lambda f=f: f(y, s, groups=g), args.repeat)
        rows.append(line(f"`{f.__name__}(groups=users)`", t, ref, f"{value:.6f}"))
    t, value = timeit(lambda: sklearn_log_loss(y, s), args.repeat)
    rows.append(line("sklearn `log_loss` (pooled)", t, ref, f"{value:.6f}"))
    # what bounds the report: the ids factorized by a sort, the logs per row
    t, _ = timeit(lambda: np.unique(g, return_inverse=True), args.repeat)
    rows.append(line("`np.unique(groups, return_inverse=True)`", t, ref))
    t, _ = timeit(lambda: np.where(y == 1, -np.log(s.clip(1e-15)),
                                   -np.log1p(-s.clip(None, 1 - 1e-15))),
                  args.repeat)
    rows.append(line("cross-entropy of every row (NumPy, one pass)", t, ref))

    print("\nvalues (the report's micro averages against scikit-learn):")
    check("log_loss vs sklearn.metrics.log_loss", report["log_loss"],
          sklearn_log_loss(y, s), args.rtol)
    check("ne vs 1 - d2_log_loss_score", report["ne"],
          1 - d2_log_loss_score(y, s), args.rtol)
    check("pcoc vs sum(p) / sum(y)", report["pcoc"],
          float(np.sum(s) / np.sum(y)), args.rtol)
    check("ece vs calibration_curve's bins", report["ece"],
          ece_from_sklearn(y, s), args.rtol)

    if args.peer_python:
        peers = run_peers(args, y, s)
        header(f"(b) torcheval {peers.get('torch', '')} torch, "
               f"{peers['threads']} threads; the same rows, no groups")
        tref = tuple(peers["argsort"]["time"])
        rows.append(line("`torch.argsort(y_prob)` (float64)", tref, ref))
        pending = []
        for m, peer_name, f in [
                ("ne", "binary_normalized_entropy", rk.normalized_entropy),
                ("pcoc", "weighted_calibration", rk.calibration_ratio)]:
            t, value = timeit(lambda f=f: f(y, s), args.repeat)
            rows.append(line(f"ours `{f.__name__}` (no groups)", t, ref,
                             f"{value!r}"))
            peer = peers[m]
            pt = tuple(peer["time"])
            rows.append(line(f"torcheval `{peer_name}` (/ ours)", pt, t,
                             f"{peer['value']!r}"))
            pending.append((f"{m}: ours vs torcheval", value, peer["value"]))
        print("\nvalues (ours against torcheval):")
        for name, ours, theirs in pending:
            check(name, ours, theirs, args.rtol)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
