"""A TREC run against qrels as the long layout (``rankeval trec``'s
``build_arrays``) beside trec_eval's rule run query by query in Python.

    python benchmarks/run.py trec_arrays --queries 2000 --repeat 7

On ``_data.py``'s ``trec_dicts`` (``--queries`` x 100 retrieved documents,
30 judged per query, 10 of them not retrieved; the dicts ``read_run`` and
``read_qrels`` give), the two are checked equal, then timed in turn
(``_timing.paired``): ``build_arrays`` and the previous per-query rule
(``tests/_reference.py``'s ``trec_arrays_by_query``, the loop
``build_arrays`` ran before it was vectorised).  Then where
``build_arrays``' time goes: reading the dicts into flat arrays, coding the
document ids (hashing and sorting the strings: ``docno_codes``), trec_eval's
order (``docno_order``), the rest; and reading the files themselves
(``read_run``, ``read_qrels``), which come first in ``rankeval trec``.
"""

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _timing  # noqa: E402
from _data import trec_dicts  # noqa: E402

from sklearn_rankeval._cli._trec import build_arrays, read_qrels, read_run  # noqa: E402
from sklearn_rankeval._cli._trec._arrays import _flatten  # noqa: E402
from sklearn_rankeval._engine import docno_codes, docno_order  # noqa: E402
from tests._reference import trec_arrays_by_query  # noqa: E402


def _write(qrels, run, folder):
    run_path, qrels_path = Path(folder) / "run", Path(folder) / "qrels"
    with open(run_path, "w") as fh:
        for q, docs in run.items():
            for i, (d, s) in enumerate(docs.items()):
                fh.write(f"{q} Q0 {d} {i} {s} tag\n")
    with open(qrels_path, "w") as fh:
        for q, docs in qrels.items():
            for d, r in docs.items():
                fh.write(f"{q} 0 {d} {r}\n")
    return run_path, qrels_path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    qrels, (run, *_) = trec_dicts(args.queries, n_runs=1)
    arrays = build_arrays(qrels, run)
    qids, rel, score, sizes, _ = trec_arrays_by_query(qrels, run)
    assert np.array_equal(arrays.rel, rel) and np.array_equal(arrays.y_score, score)
    assert np.array_equal(np.diff(arrays.offsets), sizes)
    print(f"# {args.queries:,} queries x 100 documents ({arrays.rel.shape[0]:,} "
          f"rows); {_timing.load()}")
    loop, vectorised, ratio = _timing.paired(
        lambda: trec_arrays_by_query(qrels, run), lambda: build_arrays(qrels, run),
        args.repeat)
    _timing.emit(case="build_arrays vs the per-query loop", loop_s=loop,
                 build_arrays_s=vectorised, ratio_new_over_loop=ratio)
    r_q, r_doc, r_score = _flatten(run, qids)
    j_doc = _flatten(qrels, qids)[1]
    docs = np.concatenate([r_doc, j_doc])
    codes = docno_codes(docs)
    stages = {
        "read the dicts (_flatten x2)": lambda: (_flatten(run, qids),
                                                 _flatten(qrels, qids)),
        "code the document ids (docno_codes)": lambda: docno_codes(docs),
        "trec_eval's order (docno_order)": lambda: docno_order(
            r_score, codes[:r_q.shape[0]], r_q),
        "build_arrays, whole": lambda: build_arrays(qrels, run),
    }
    for name, fn in stages.items():
        t = _timing.timed(fn, args.repeat)
        _timing.emit(stage=name, median_s=t.median, min_s=t.min)
    with tempfile.TemporaryDirectory() as folder:
        run_path, qrels_path = _write(qrels, run, folder)
        for name, fn in (("read_run (the file)", lambda: read_run(run_path)),
                         ("read_qrels (the file)", lambda: read_qrels(qrels_path))):
            t = _timing.timed(fn, args.repeat)
            _timing.emit(stage=name, median_s=t.median, min_s=t.min)


if __name__ == "__main__":
    main()
