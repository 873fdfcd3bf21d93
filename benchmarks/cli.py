"""The ``rankeval`` command against pandas.read_csv + the function (issue 31).

Two whole-process timings on the same files, run in turn (A B A B ...):

* ``evaluate``: ``rankeval evaluate FILE`` (default metrics) against
  ``pandas.read_csv(FILE)`` then ``ranking_report`` (``output="dict"``) on
  a ``--rows``-row click log (integer user ids, 10% clicks, 6-decimal
  scores);
* ``recommendations``: ``rankeval evaluate-recommendations REC HELD``
  against ``pandas.read_csv`` of both files then ``recommendation_report``
  on ``--list-rows`` list rows (top-10 lists with scores, 20% of the lists'
  size held out).

Both sides start a Python process (imports included) and print the values,
checked equal.  Prints the median and min seconds of each and the median of
the pairwise ratios.  Target: a ratio of at most 1.5 for both.

    python benchmarks/run.py cli --rows 5000000 --list-rows 1000000 --repeat 5
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

_PANDAS_EVALUATE = """
import json, sys
import pandas as pd
from sklearn_rankeval import ranking_report
df = pd.read_csv(sys.argv[1])
r = ranking_report(df["label"], df["score"], groups=df["user"], output="dict")
print(json.dumps(r))
"""

_PANDAS_RECOMMEND = """
import json, sys
import pandas as pd
from sklearn_rankeval import recommendation_report
rec, held = pd.read_csv(sys.argv[1]), pd.read_csv(sys.argv[2])
print(json.dumps(recommendation_report(rec, held, output="dict")))
"""


def write_click_log(path, n_rows, seed=0):
    rng = np.random.default_rng(seed)
    users = np.sort(rng.integers(0, max(n_rows // 20, 1), n_rows))
    pd.DataFrame({"user": users,
                  "label": (rng.random(n_rows) < 0.1).astype(np.int64),
                  "score": np.round(rng.random(n_rows), 6)}).to_csv(path, index=False)


def write_lists(rec_path, held_path, n_rows, seed=0, k=10):
    rng = np.random.default_rng(seed)
    n_users, n_items = max(n_rows // k, 1), max(n_rows // 20, 10)
    user = np.repeat(np.arange(n_users), k)
    # k distinct items per user: a random offset and stride in the catalog
    item = (rng.integers(0, n_items, n_users)[:, None]
            + np.arange(k) * 7) % n_items
    pd.DataFrame({"user": user, "item": item.ravel(),
                  "score": np.round(rng.random(user.size), 6)}).to_csv(
        rec_path, index=False)
    n_held = n_rows // 5
    held_user = rng.integers(0, n_users, n_held)
    held_item = rng.integers(0, n_items, n_held)
    held = pd.DataFrame({"user": held_user, "item": held_item}).drop_duplicates()
    held.to_csv(held_path, index=False)


def _run(command):
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, proc.stdout


def paired(name, ours, theirs, repeat):
    """Time ``ours`` and ``theirs`` in turn; check their values agree."""
    _run(ours), _run(theirs)  # warm the file cache and the imports
    times_a, times_b, ratios = [], [], []
    for _ in range(repeat):
        a, out_a = _run(ours)
        b, out_b = _run(theirs)
        times_a.append(a)
        times_b.append(b)
        ratios.append(a / b)
    ours_values = json.loads(out_a)["metrics"]
    theirs_values = json.loads(out_b)
    for metric, value in theirs_values.items():
        mine = ours_values[metric]
        if not (value == mine or abs(value - mine) <= 1e-12 * max(1, abs(value))):
            print(f"  !! {metric}: {mine} != {value}")
    print(f"{name}\n  rankeval     median {statistics.median(times_a):7.2f} s"
          f"  min {min(times_a):7.2f} s\n  pandas + fn  median "
          f"{statistics.median(times_b):7.2f} s  min {min(times_b):7.2f} s\n"
          f"  ratio (pairwise median) {statistics.median(ratios):.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=5_000_000)
    parser.add_argument("--list-rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", default=None,
                        help="where the files go (default: a temporary folder)")
    args = parser.parse_args(argv)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench-cli-"))
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / f"clicks-{args.rows}.csv"
    rec, held = (folder / f"rec-{args.list_rows}.csv",
                 folder / f"held-{args.list_rows}.csv")
    if not log.exists():
        write_click_log(log, args.rows)
    if not rec.exists() or not held.exists():
        write_lists(rec, held, args.list_rows)
    python = sys.executable
    paired(f"evaluate, {args.rows} rows ({log.stat().st_size / 2**20:.0f} MiB)",
           [python, "-m", "sklearn_rankeval", "evaluate", str(log), "--group",
            "user", "--label", "label", "--score", "score", "--format", "json",
            "--quiet"],
           [python, "-c", _PANDAS_EVALUATE, str(log)], args.repeat)
    paired(f"evaluate-recommendations, {args.list_rows} list rows",
           [python, "-m", "sklearn_rankeval", "evaluate-recommendations",
            str(rec), str(held), "--format", "json", "--quiet"],
           [python, "-c", _PANDAS_RECOMMEND, str(rec), str(held)], args.repeat)


if __name__ == "__main__":
    main()
