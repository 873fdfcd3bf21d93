"""``rankeval evaluate FILE.svm --score-file`` against scikit-learn's reader +
the function (issue 41).

Whole-process timings on the same files, run in turn (A B A B ...), as
``bench_cli.py``: ``rankeval evaluate`` of a LETOR file (``--rows`` rows,
``--features`` features, 20-200 documents per query, grades 0-4) and a file
of one score per line, against ``load_svmlight_file(query_id=True)`` and
``numpy.loadtxt`` then ``ranking_report`` (``output="dict"``); both print
the values, checked equal.  Then the same command with ``--confidence 0.95``
(1000 resamples of the queries) against ``ranking_report(confidence=0.95)``.

    python benchmarks/cli_svmlight.py --rows 1000000 --repeat 5
"""

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from bench_cli import paired
from sklearn.datasets import dump_svmlight_file

_SKLEARN_EVALUATE = """
import json, sys
import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn_rankeval import ranking_report
_, y, qid = load_svmlight_file(sys.argv[1], query_id=True)
score = np.loadtxt(sys.argv[2])
extra = {} if len(sys.argv) < 4 else dict(confidence=float(sys.argv[3]),
                                          n_resamples=1000, random_state=0)
r = ranking_report(y, score, groups=qid, output="dict", **extra)
print(json.dumps(r))
"""


def write_letor(svm_path, score_path, n_rows, n_features, seed=0):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(20, 201, n_rows // 20 + 1)
    qid = np.repeat(np.arange(sizes.size), sizes)[:n_rows]
    y = rng.choice(5, n_rows, p=[0.5, 0.25, 0.15, 0.07, 0.03])
    X = np.round(rng.random((n_rows, n_features)), 4)
    dump_svmlight_file(X, y, str(svm_path), query_id=qid, zero_based=False)
    np.savetxt(score_path, np.round(y + rng.normal(scale=2, size=n_rows), 6),
               fmt="%.6f")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", default=None,
                        help="where the files go (default: a temporary folder)")
    args = parser.parse_args()
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench-svm-"))
    folder.mkdir(parents=True, exist_ok=True)
    svm = folder / f"letor-{args.rows}-{args.features}.svm"
    scores = folder / f"scores-{args.rows}.txt"
    if not svm.exists() or not scores.exists():
        write_letor(svm, scores, args.rows, args.features)
    python = sys.executable
    command = [python, "-m", "sklearn_rankeval", "evaluate", str(svm),
               "--score-file", str(scores), "--format", "json", "--quiet"]
    size = svm.stat().st_size / 2**20
    paired(f"evaluate svmlight, {args.rows} rows ({size:.0f} MiB)", command,
           [python, "-c", _SKLEARN_EVALUATE, str(svm), str(scores)], args.repeat)
    paired(f"evaluate svmlight --confidence 0.95, {args.rows} rows",
           [*command, "--confidence", "0.95"],
           [python, "-c", _SKLEARN_EVALUATE, str(svm), str(scores), "0.95"],
           args.repeat)


if __name__ == "__main__":
    main()
