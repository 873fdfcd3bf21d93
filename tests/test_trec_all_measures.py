"""``rankeval trec``: trec_eval's ``all_trec`` measures and ``official`` default.

Each ``out.test*`` file of trec_eval 10 (``tests/data/trec_eval``, see
SOURCES.md there) is compared line by line with the output of the trec_eval
command that made it: every line we print must be trec_eval's, byte for byte,
and every line trec_eval prints must be ours except those of the measures
listed in ``NOT_IMPLEMENTED``.  The new measures are also checked against
pytrec_eval (trec_eval 9) on generated runs, and by hand.
"""

from pathlib import Path

import numpy as np
import pytest

from sklearn_rankeval import _trec
from sklearn_rankeval._cli import main

DATA = Path(__file__).resolve().parent / "data" / "trec_eval"
#: trec_eval measures printed by the test files that rankeval does not compute
NOT_IMPLEMENTED = ("relstring", "G", "ndcg_rel", "Rndcg")
_MEAS_PARAMS = [
    "-q", "-m", "iprec_at_recall..10,.20,.25,.50,.75", "-m", "P.3,5,7",
    "-m", "recall.20,2000", "-m", "Rprec_mult.0.20,0.35,5.0",
    "-m", "utility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75",
    "-m", "ndcg_cut.10,20,23", "-m", "success.2,5,20",
]  # fmt: skip
# out file: (qrels, run, flags): the trec_eval commands of SOURCES.md
CASES = {
    "out.test": ("qrels.test", "results.test", []),
    "out.test.a": ("qrels.test", "results.test", ["-m", "all_trec"]),
    "out.test.aq": ("qrels.test", "results.test", ["-m", "all_trec", "-q"]),
    "out.test.aqc": ("qrels.test", "results.trunc", ["-m", "all_trec", "-q", "-c"]),
    "out.test.aqcM": ("qrels.test", "results.trunc",
                      ["-m", "all_trec", "-q", "-c", "-M", "100"]),
    "out.test.aql": ("qrels.rel_level", "results.test",
                     ["-m", "all_trec", "-q", "-l", "2"]),
    "out.test.meas_params": ("qrels.test", "results.test", _MEAS_PARAMS),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", []),
}


def _run(capsys, *args):
    status = main(["trec", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def _implemented(line):
    name = line.split("\t")[0].rstrip()
    return not any(name == m or name.startswith(m + "_") for m in NOT_IMPLEMENTED) \
        and not name.startswith("ndcg_1=")


@pytest.mark.parametrize("out_name", sorted(CASES))
def test_reproduces_trec_eval_file_line_by_line(out_name, capsys):
    qrels, run, flags = CASES[out_name]
    status, ours, err = _run(capsys, DATA / qrels, DATA / run, *flags)
    assert status == 0 and err == ""
    ours = [line for line in ours if not line.startswith("gauc")]
    expected = [line for line in (DATA / out_name).read_text().splitlines()
                if _implemented(line)]
    # the same lines, byte for byte, in trec_eval's order
    assert ours == expected


def test_default_is_the_official_set(capsys):
    status, ours, _ = _run(capsys, DATA / "qrels.test", DATA / "results.test")
    assert status == 0
    # out.test (no -m) is whole: no measure left out
    assert ours == (DATA / "out.test").read_text().splitlines()
    names = {line.split("\t")[0].rstrip() for line in ours}
    assert {"gm_map", "Rprec", "bpref"} <= names and "recall_5" not in names
    status, named, _ = _run(capsys, DATA / "qrels.test", DATA / "results.test",
                            "-m", "official")
    assert named == ours


def test_every_new_measure_is_in_all_trec():
    names = [m.name for m, _ in _trec.parse_measures(["all_trec"])]
    for name in ("gm_map", "Rprec", "bpref", "infAP", "gm_bpref", "Rprec_mult",
                 "utility", "binG", "relative_P", "success", "set_P",
                 "set_relative_P", "set_recall", "set_map", "set_F",
                 "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj"):
        assert name in names


# ==========================================================================
# pytrec_eval on generated runs (ties, unretrieved relevant documents,
# judged non-relevant and unjudged documents, queries without relevant ones)
# ==========================================================================
def _collection(seed, n_queries=20):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        n_docs = int(rng.integers(5, 60))
        docs = [f"d{q}_{i}" for i in range(n_docs)]
        rel = (rng.random(n_docs) < rng.uniform(0, 0.4)).astype(int)
        judged = (rng.random(n_docs) < 0.7) | (rel > 0)
        qrels[f"q{q}"] = {d: int(r) for d, r, j in zip(docs, rel, judged) if j}
        if not qrels[f"q{q}"]:
            qrels[f"q{q}"] = {docs[0]: 0}
        retrieved = rng.random(n_docs) < 0.8
        scores = rng.integers(0, 15, n_docs) / 3.0  # ties
        run[f"q{q}"] = {d: float(s) for d, s, r in zip(docs, scores, retrieved) if r}
    return qrels, run


PYTREC = ("gm_map", "Rprec", "bpref", "infAP", "gm_bpref", "Rprec_mult",
          "utility", "binG", "relative_P", "success", "set_P", "set_relative_P",
          "set_recall", "set_map", "set_F", "num_nonrel_judged_ret")


@pytest.mark.parametrize("seed", range(3))
def test_new_measures_match_pytrec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = _collection(seed)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(PYTREC))
    expected = evaluator.evaluate(run)
    arrays = _trec.build_arrays(qrels, run)
    rows = _trec.evaluate(arrays, _trec.parse_measures(list(PYTREC)),
                          per_query=True)
    ours = _trec.results_dict(arrays, rows)
    n = 0
    for q, measures in expected.items():
        for name, value in measures.items():
            if name.startswith("gm_"):
                continue  # pytrec_eval returns log values per query
            assert ours[q][name] == pytest.approx(value, rel=1e-12, abs=1e-15), (q, name)
            n += 1
    assert n >= 20 * 30
    # the geometric means: exp(mean(log(max(x, 1e-5)))); pytrec_eval gives
    # log(max(x, 1e-5)) per query
    for gm, base in (("gm_map", "map"), ("gm_bpref", "bpref")):
        rows = _trec.evaluate(arrays, _trec.parse_measures([gm, base]),
                              per_query=True)
        total = {r[0]: r[3] for r in rows}
        base_values = next(r[2] for r in rows if r[0] == base)
        assert total[gm] == pytest.approx(
            np.exp(np.mean(np.log(np.maximum(base_values, 1e-5)))), rel=1e-12)
        logs = [expected[q][gm] for q in arrays.qids]
        assert total[gm] == pytest.approx(np.exp(np.mean(logs)), rel=1e-12)


# ==========================================================================
# by hand
# ==========================================================================
def _arrays(tmp_path, qrels_lines, run_lines, *flags):
    qrels = tmp_path / "qrels"
    run = tmp_path / "run"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    run.write_text("\n".join(run_lines) + "\n")
    return qrels, run


def test_new_measures_by_hand(tmp_path, capsys):
    # ranking: d1 (rel), d2 (not in qrels), d3 (judged 0), d4 (qrels -1),
    # d5 (rel); d6 relevant not retrieved, d7 judged 0 not retrieved
    qrels, run = _arrays(
        tmp_path,
        ["q 0 d1 1", "q 0 d3 0", "q 0 d4 -1", "q 0 d5 1", "q 0 d6 1", "q 0 d7 0"],
        [f"q Q0 d{i} {i} {10 - i} tag" for i in range(1, 6)],
    )
    status, lines, _ = _run(capsys, qrels, run, "-m", "Rprec", "-m", "bpref",
                            "-m", "success.1,2", "-m", "unj.5", "-m", "rbp",
                            "-m", "rbp_resid", "-m", "num_nonrel_judged_ret",
                            "-m", "set_F", "-m", "utility", "--digits", "6")
    assert status == 0
    got = {line.split("\t")[0].rstrip(): line.split("\t")[2]
           for line in lines if "\tall\t" in line}
    R = 3
    assert float(got["Rprec"]) == pytest.approx(1 / R, abs=1e-6)  # top 3: d1
    # bpref: N = 2 judged non-relevant; d1 scores 1, d5 has 1 above: 1 - 1/2
    assert float(got["bpref"]) == pytest.approx((1 + 0.5) / R, abs=1e-6)
    assert got["success_1"] == "1.000000"
    assert float(got["unj_5"]) == pytest.approx(2 / 5, abs=1e-6)
    assert float(got["rbp"]) == pytest.approx(0.1 * (1 + 0.9 ** 4), abs=1e-6)
    # unjudged at ranks 2 and 4 (0-based 1, 3), 5 documents ranked
    assert float(got["rbp_resid"]) == pytest.approx(
        0.9 ** 5 + 0.1 * (0.9 + 0.9 ** 3), abs=1e-6)
    assert got["num_nonrel_judged_ret"] == "1"
    # set_F: P = 2/5, R = 2/3
    assert float(got["set_F"]) == pytest.approx(2 * 0.4 * (2 / 3) / (0.4 + 2 / 3),
                                                abs=1e-6)
    assert float(got["utility"]) == pytest.approx(2 - 3, abs=1e-6)
