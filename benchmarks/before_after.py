"""The engine's common cases here and at an earlier commit, in turn.

    python benchmarks/run.py before_after --before 0368fdf --repeat 3

W1 GAUC (unweighted and with float item weights), W1 interpolated AP with
weights and the W2 report of five metrics (grouped), each timed in a child
process of this tree and of ``--before`` (checked out by ``git worktree``),
the trees alternated twice (a b a b: a change of load favours neither); the
best median of each case is kept.  ``--scale`` shrinks W1 and W2.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import emit  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

SNIPPET = r"""
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import sklearn_rankeval as rk
from _data import click_log, retrieval_run
from _timing import timed
scale, repeat = float(sys.argv[3]), int(sys.argv[4])
y, s, g = click_log(int(1_000_000 * scale))
w = np.random.default_rng(5).random(len(y)) * 3 + 0.1
Y, S = retrieval_run(int(100_000 * scale))
gq = np.repeat(np.arange(Y.shape[0]), Y.shape[1])
cases = {
    "W1 gauc_score": lambda: rk.gauc_score(y, s, groups=g),
    "W1 gauc_score, float item weights": lambda: rk.gauc_score(
        y, s, groups=g, sample_weight=w),
    "W1 interpolated AP, float item weights": lambda:
        rk.interpolated_average_precision_score(y, s, groups=g, sample_weight=w),
    "W2 ranking_report, five metrics (grouped)": lambda: rk.ranking_report(
        Y.ravel(), S.ravel(), groups=gq, output_dict=True,
        metrics=["map", "mrr", "ndcg@10", "precision@10", "recall@10"]),
}
out = {}
for name, fn in cases.items():
    t = timed(fn, repeat)
    out[name] = [t.median, t.min]
print(json.dumps(out))
"""


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit to compare with")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix="rankeval-before-")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", tmp,
                    args.before], check=True, capture_output=True)
    trees = {f"at {args.before}": Path(tmp), "now": ROOT}
    results = {}
    try:
        for _ in range(2):
            for label, tree in trees.items():
                proc = subprocess.run(
                    [sys.executable, "-c", SNIPPET, str(tree),
                     str(ROOT / "benchmarks"), str(args.scale), str(args.repeat)],
                    check=True, capture_output=True, text=True)
                got = json.loads(proc.stdout.strip().splitlines()[-1])
                prev = results.setdefault(label, got)
                for name, t in got.items():
                    if t[0] < prev[name][0]:
                        prev[name] = t
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                        tmp], check=False)
    before, now = results[f"at {args.before}"], results["now"]
    for name in now:
        emit(case=name, before_s=before[name][0], now_s=now[name][0],
             ratio=now[name][0] / before[name][0])


if __name__ == "__main__":
    main()
