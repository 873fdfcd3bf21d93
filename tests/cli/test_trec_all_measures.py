"""``rankeval trec``: trec_eval's ``all_trec`` measures and ``official`` default.

Each ``out.test*`` file of trec_eval 10 (``tests/data/trec_eval``, see
SOURCES.md there) is compared line by line with the output of the trec_eval
command that made it (trec_eval's Makefile): the whole output, byte for
byte.  The new measures are also checked against pytrec_eval (trec_eval 9)
on generated runs, and by hand.
"""


import numpy as np
import pytest

from sklearn_rankeval._cli import _trec, main
from tests.conftest import DATA_DIR

DATA = DATA_DIR / "trec_eval"
_MEAS_PARAMS = [
    "-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3",
    "-m", "recall.20,2000", "-m", "Rprec_mult.5.0,0.2,0.35",
    "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
    "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20",
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
                     ["-m", "all_trec", "-mrelstring.20", "-q", "-l2"]),
    "out.test.meas_params": ("qrels.test", "results.test", _MEAS_PARAMS),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", []),
}


def _run(capsys, *args):
    status = main(["trec", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


@pytest.mark.parametrize("out_name", sorted(CASES))
def test_reproduces_trec_eval_file_line_by_line(out_name, capsys):
    qrels, run, flags = CASES[out_name]
    status, ours, err = _run(capsys, DATA / qrels, DATA / run, *flags)
    assert status == 0 and err == ""
    # the same lines, byte for byte, in trec_eval's order, none left out
    assert ours == (DATA / out_name).read_text().splitlines()


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
                 "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj",
                 "relstring", "G", "ndcg_rel", "Rndcg"):
        assert name in names
    # trec_eval's all_trec: not dcg / ideal_dcg (by name only), not gauc
    assert not {"dcg", "ideal_dcg", "gauc"} & set(names)
    every = [m.name for m, _ in _trec.parse_measures(["all"])]
    assert {"dcg", "ideal_dcg", "gauc"} <= set(every)


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


# ==========================================================================
# relstring, G, ndcg_rel, Rndcg, ndcg with gain parameters, dcg, ideal_dcg
# ==========================================================================
GAIN_MEASURES = ("G", "ndcg_rel", "Rndcg", "ndcg")


def _graded_collection(seed, n_queries=15):
    """Graded qrels (0-3, and -1: in the pool, unjudged), ties, unretrieved."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for q in range(n_queries):
        n_docs = int(rng.integers(3, 50))
        docs = [f"d{q}_{i}" for i in range(n_docs)]
        grades = rng.choice([-1, 0, 0, 0, 1, 2, 3], size=n_docs)
        if q == 0:
            grades[:] = 0  # a judged query without a relevant document
        judged = rng.random(n_docs) < 0.75
        judged[0] = True
        qrels[f"q{q}"] = {d: int(g) for d, g, j in zip(docs, grades, judged) if j}
        retrieved = rng.random(n_docs) < 0.7
        retrieved[-1] = True
        scores = rng.integers(0, 8, n_docs) / 4.0  # ties
        run[f"q{q}"] = {d: float(s) for d, s, r in zip(docs, scores, retrieved) if r}
    return qrels, run


def _write(tmp_path, qrels, run):
    qrels_path, run_path = tmp_path / "qrels", tmp_path / "run"
    qrels_path.write_text("".join(f"{q} 0 {d} {g}\n" for q, judged in qrels.items()
                                  for d, g in judged.items()))
    run_path.write_text("".join(f"{q} Q0 {d} 1 {s!r} tag\n" for q, docs in run.items()
                                for d, s in docs.items()))
    return qrels_path, run_path


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("level", [1, 2])
def test_gain_measures_match_pytrec_eval_to_1e12(seed, level, tmp_path, capsys):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = _graded_collection(seed)
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, set(GAIN_MEASURES), relevance_level=level).evaluate(run)
    qrels_path, run_path = _write(tmp_path, qrels, run)
    flags = [a for m in GAIN_MEASURES for a in ("-m", m)]
    status, lines, _ = _run(capsys, qrels_path, run_path, *flags, "-q", "-l",
                            level, "--digits", "12")
    assert status == 0
    ours = {}
    for line in lines:
        name, q, value = line.split("\t")
        ours.setdefault(q, {})[name.rstrip()] = float(value)
    assert set(ours) - {"all"} == set(expected)
    n = 0
    for q, measures in expected.items():
        for name, value in measures.items():
            assert abs(ours[q][name] - value) <= 1e-12, (q, name)
            n += 1
    assert n == 4 * len(expected)
    assert any(v["Rndcg"] not in (0.0, 1.0) for v in expected.values())
    for name in GAIN_MEASURES:  # the all line: the mean
        assert abs(ours["all"][name] - np.mean(
            [expected[q][name] for q in expected])) <= 1e-12


def _lines(capsys, tmp_path, qrels_lines, run_lines, *flags):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("\n".join(qrels_lines) + "\n")
    run.write_text("\n".join(run_lines) + "\n")
    status, lines, err = _run(capsys, qrels, run, *flags)
    assert status == 0, err
    return {(line.split("\t")[0].rstrip(), line.split("\t")[1]): line.split("\t")[2]
            for line in lines}


def test_gain_measures_by_hand(tmp_path, capsys):
    # ranking: b (grade 1), c (0), a (2), x (not judged); d (3) not retrieved
    got = _lines(capsys, tmp_path, ["q 0 a 2", "q 0 b 1", "q 0 c 0", "q 0 d 3"],
                 ["q Q0 a 1 0.5 r", "q Q0 b 1 0.9 r", "q Q0 c 1 0.7 r",
                  "q Q0 x 1 0.1 r"],
                 "-q", "-m", "relstring", "-m", "G", "-m", "dcg", "-m",
                 "ideal_dcg", "-m", "ndcg_rel", "-m", "Rndcg", "-m",
                 "ndcg.1=3,2=9", "--digits", "12")
    value = {name: float(v) for (name, q), v in got.items()
             if q == "q" and name != "relstring"}
    assert got[("relstring", "q")] == "'102-'"
    assert ("relstring", "all") not in got  # per query only, as trec_eval
    log2 = np.log2
    ideal = [3 + 2 / log2(3), 3 + 2 / log2(3) + 1 / log2(4)]  # after 2, 3 docs
    assert value["dcg"] == pytest.approx(1 + 2 / log2(4), abs=1e-12)
    assert value["ideal_dcg"] == pytest.approx(ideal[1], abs=1e-12)
    # ndcg with gains 1 -> 3, 2 -> 9 (3 keeps 3): 3 at rank 1, 9 at rank 3
    assert value["ndcg_1=3,2=9"] == pytest.approx(
        (3 + 9 / 2) / (9 + 3 / log2(3) + 3 / 2), abs=1e-12)
    # G: costs max(ideal gain, 1) = 3, 2, 1, 1; gain so far 1, 1, 3, 3
    assert value["G"] == pytest.approx(
        (1 / log2(2 + 3 - 1) + 2 / log2(2 + 6 - 3)) / 6, abs=1e-12)
    # ndcg_rel: at b, at a, and d (not retrieved) at the end
    assert value["ndcg_rel"] == pytest.approx(
        (1 / 3 + 2 / ideal[1] + 2 / ideal[1]) / 3, abs=1e-12)
    # Rndcg: where the ideal gain changes (3 -> 2 -> 1 -> 0)
    assert value["Rndcg"] == pytest.approx(
        (1 / 3 + 1 / ideal[0] + 2 / ideal[1]) / 3, abs=1e-12)


def test_relstring_codes_and_length(tmp_path, capsys):
    # 12 ranked: grades 0-9, 12 (>), not judged (-), judged -1 (.)
    qrels = [f"q 0 d{i:02d} {g}" for i, g in enumerate(range(10))]
    qrels += ["q 0 d10 12", "q 0 d11 -1"]
    run = [f"q Q0 d{i:02d} 1 {20 - i} r" for i in range(12)] + ["q Q0 zz 1 0 r"]
    got = _lines(capsys, tmp_path, qrels, run, "-q", "-m", "relstring.20")
    assert got[("relstring_20", "q")] == "'0123456789>.-'"
    got = _lines(capsys, tmp_path, qrels, run, "-q", "-m", "relstring.3")
    assert got[("relstring_3", "q")] == "'012'"
    got = _lines(capsys, tmp_path, qrels, run, "-m", "relstring")
    assert got == {}  # no -q: nothing, as trec_eval


def test_flags_n_J_N_and_atol_cutoffs(tmp_path, capsys):
    # d1 (rel), d2 (not judged), d3 (judged 0), d4 (judged -1), d5 (rel);
    # d6 relevant, not retrieved
    qrels = ["q 0 d1 1", "q 0 d3 0", "q 0 d4 -1", "q 0 d5 1", "q 0 d6 1"]
    run = [f"q Q0 d{i} {i} {10 - i} tag" for i in range(1, 6)]
    plain = _lines(capsys, tmp_path, qrels, run, "-q", "-m", "P.3", "-m",
                   "num_ret", "-m", "utility.0,0,0,1")
    judged = _lines(capsys, tmp_path, qrels, run, "-q", "-m", "P.3", "-m",
                    "num_ret", "-J")
    assert plain[("P_3", "q")] == "0.3333" and plain[("num_ret", "q")] == "5"
    # -J: d2 and d4 removed before ranking: d1 d3 d5
    assert judged[("P_3", "q")] == "0.6667" and judged[("num_ret", "q")] == "3"
    # utility's 4th coefficient: N + rel_ret - ret - rel, N = -N (default 0)
    assert plain[("utility_0,0,0,1", "q")] == f"{0 + 2 - 5 - 3:.4f}"
    with_n = _lines(capsys, tmp_path, qrels, run, "-m", "utility.0,0,0,1", "-N",
                    "100")
    assert with_n[("utility_0,0,0,1", "all")] == f"{100 + 2 - 5 - 3:.4f}"
    # -n: no summary
    quiet = _lines(capsys, tmp_path, qrels, run, "-q", "-n", "-m", "P.3", "-m",
                   "runid", "-m", "num_q")
    assert quiet == {("P_3", "q"): "0.3333"}
    # cutoffs read as atol: 2.9 -> 2, "3x" -> 3; duplicates once
    cut = _lines(capsys, tmp_path, qrels, run, "-m", "P.2.9,3x,3")
    assert list(cut) == [("P_2", "all"), ("P_3", "all")]
    assert cut[("P_2", "all")] == "0.5000"


def test_the_registry_declares_the_measures_the_library_computes():
    """Each trec_eval measure the package computes is declared once, in the
    registry (TREC_EVAL: the metric it is), and the command measures it."""
    from sklearn_rankeval._cli._trec import MEASURES
    from sklearn_rankeval._metrics import METRICS, TREC_EVAL

    assert set(TREC_EVAL) <= set(MEASURES)
    assert set(TREC_EVAL.values()) <= set(METRICS)
    # the names trec_eval's official set prints through the library
    assert {"map", "P", "recall", "ndcg_cut", "recip_rank", "Rprec", "bpref",
            "iprec_at_recall", "success"} <= set(TREC_EVAL)
