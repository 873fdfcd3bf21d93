"""``rankeval trec``: trec_eval's numbers and output format.

Two sources of truth, as in test_trec_eval.py:

* trec_eval 10's own expected outputs ``out.test*`` (in
  ``tests/data/trec_eval``, see SOURCES.md there for the flags of each),
  printed with 4 decimals: compared line by line;
* ``pytrec_eval`` (trec_eval 9) on generated collections with score ties,
  relevant documents not retrieved, judged non-relevant documents, judged
  queries without a relevant document, run queries without judgments and
  judged queries missing from the run: every measure of every query at 1e-12.
"""

import re
from collections import defaultdict

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import roc_auc_score

from sklearn_rankeval._cli import _trec, main
from tests.conftest import DATA_DIR

# trec_eval's own test files (data/trec_eval/SOURCES.md: origin, licence)
TREC_DIR = DATA_DIR / "trec_eval"
ATOL_OUT = 5.01e-5  # out.test* values have 4 decimals
LEVELS = [f"{j / 10:.2f}" for j in range(11)]
PYTREC_MEASURES = {
    "map", "map_cut", "recip_rank", "P", "recall", "ndcg", "ndcg_cut",
    "iprec_at_recall", "11pt_avg", "num_ret", "num_rel", "num_rel_ret",
}  # fmt: skip


def _run(capsys, *args):
    status = main(["trec", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def _parse(text):
    """{query or 'all': {measure: value}} from trec_eval-format lines."""
    res = defaultdict(dict)
    for line in text.splitlines():
        measure, query, value = line.split("\t")
        measure = measure.rstrip()
        try:
            res[query][measure] = float(value)
        except ValueError:  # runid, and trec_eval's relstring
            res[query][measure] = value
    return dict(res)


def _need_trec_dir():
    # part of the repository: a missing folder is a failure, never a skip
    assert TREC_DIR.is_dir(), f"trec_eval test files not found at {TREC_DIR}"


# ==========================================================================
# trec_eval 10's test files
# ==========================================================================
# trec_eval 10's Makefile command for out.test.meas_params, flag for flag,
# with its unsorted parameters, gain parameters of ndcg and the cutoff 23.4
# (read by atol as 23)
_MEAS_PARAMS = [
    "-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3",
    "-m", "recall.20,2000", "-m", "Rprec_mult.5.0,0.2,0.35",
    "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
    "-mndcg_cut.10,20,23.4", "-msuccess.2,5,20",
]  # fmt: skip
# out file: (qrels, run, flags) -- the commands of trec_eval's Makefile
OUT_CASES = {
    "out.test": ("qrels.test", "results.test", []),
    "out.test.a": ("qrels.test", "results.test", ["-m", "all_trec"]),
    "out.test.aq": ("qrels.test", "results.test", ["-m", "all_trec", "-q"]),
    "out.test.aqc": ("qrels.test", "results.trunc", ["-m", "all_trec", "-q", "-c"]),
    "out.test.aqcM": ("qrels.test", "results.trunc",
                      ["-m", "all_trec", "-q", "-c", "-M100"]),
    "out.test.aql": ("qrels.rel_level", "results.test",
                     ["-m", "all_trec", "-mrelstring.20", "-q", "-l2"]),
    "out.test.meas_params": ("qrels.test", "results.test", _MEAS_PARAMS),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", []),
}


@pytest.mark.parametrize("out_name", sorted(OUT_CASES))
def test_trec_reproduces_trec_eval_test_files_byte_for_byte(out_name, capsys):
    _need_trec_dir()
    qrels, run, flags = OUT_CASES[out_name]
    status, out, err = _run(capsys, TREC_DIR / qrels, TREC_DIR / run, *flags)
    assert status == 0 and err == ""
    # the whole file: every line, in its order, nothing left out or added
    assert out == (TREC_DIR / out_name).read_text()


@pytest.mark.parametrize("out_name", sorted(OUT_CASES))
def test_trec_full_precision_values_round_to_trec_eval_test_files(out_name,
                                                                  capsys):
    # the values before rounding (12 decimals) are within half a unit of the
    # 4th decimal of trec_eval's
    _need_trec_dir()
    qrels, run, flags = OUT_CASES[out_name]
    status, out, err = _run(capsys, TREC_DIR / qrels, TREC_DIR / run, *flags,
                            "--digits", "12")
    assert status == 0 and err == ""
    ours = _parse(out)
    expected = _parse((TREC_DIR / out_name).read_text())
    assert set(ours) == set(expected)  # the same queries (and "all")
    n = 0
    assert {q: set(m) for q, m in ours.items()} == {
        q: set(m) for q, m in expected.items()}  # the same measures
    for query, measures in expected.items():
        for measure, value in measures.items():
            if isinstance(value, str):  # runid, relstring
                assert ours[query][measure] == value
            else:
                assert_allclose(ours[query][measure], value, rtol=0, atol=ATOL_OUT,
                                err_msg=f"{out_name} {query} {measure}")
            n += 1
    assert n >= 13 * len(expected)  # not vacuous


#: trec_eval's "official" measures (measures.c, off_names), printed when no
#: -m is given, in the order of its measure table
TREC_EVAL_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map",
                      "gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall",
                      "P")


def test_trec_default_output_is_trec_eval_format(capsys):
    _need_trec_dir()
    assert _trec.OFFICIAL == TREC_EVAL_OFFICIAL
    status, out, err = _run(capsys, TREC_DIR / "qrels.test",
                            TREC_DIR / "results.test")
    assert status == 0 and err == ""
    lines = out.splitlines()
    # out.test is trec_eval's output without -m: every line, byte for byte,
    # in its order, and nothing more
    assert lines == (TREC_DIR / "out.test").read_text().splitlines()
    assert lines[:2] == ["runid                 \tall\tSTANDARD",
                         "num_q                 \tall\t3"]
    # the official set, each measure once, in trec_eval's order
    names = [line.split("\t")[0].rstrip() for line in lines]
    roots = [re.sub(r"_[0-9.]+$", "", name) for name in names]
    assert list(dict.fromkeys(roots)) == list(TREC_EVAL_OFFICIAL)
    assert names[names.index("P_5"):] == [
        f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
    assert names[names.index("iprec_at_recall_0.00"):names.index("P_5")] == [
        f"iprec_at_recall_{level}" for level in LEVELS]
    for name in ("recall_5", "ndcg_cut_10", "map_cut_5", "11pt_avg", "gauc"):
        assert name not in names
    # trec_eval's format: name padded to 22 characters, query, value
    assert all(re.fullmatch(r"\S+ *\tall\t\S+", line) for line in lines)
    assert all(len(line.split("\t")[0]) == 22 for line in lines)
    # -m official prints the same lines
    _, named, _ = _run(capsys, TREC_DIR / "qrels.test", TREC_DIR / "results.test",
                       "-m", "official")
    assert named == out


def test_trec_iprec_trec_eval_10_default_vs_trec_eval_9_flag(capsys):
    # results.test, topic 301 has R = 474 relevant documents: level 0.10 is
    # reached after lround(47.4) = 47 (trec_eval 10) or int(47.4 + 0.9) = 48
    # (trec_eval 9) relevant documents; topic 302 (R = 77) at 0.60 after 46 or
    # 47.  The default reproduces out.test.aq, --trec-eval-9 pytrec_eval.
    _need_trec_dir()
    args = [TREC_DIR / "qrels.test", TREC_DIR / "results.test", "-q", "-m",
            "iprec_at_recall", "-m", "11pt_avg", "--digits", "12"]
    res10 = _parse(_run(capsys, *args)[1])
    res9 = _parse(_run(capsys, *args, "--trec-eval-9")[1])
    res9b = _parse(_run(capsys, *args, "--recall-levels", "trec_eval_9")[1])
    assert res9 == res9b
    expected = _parse((TREC_DIR / "out.test.aq").read_text())
    assert round(res10["301"]["iprec_at_recall_0.10"], 4) == 0.2098
    assert expected["301"]["iprec_at_recall_0.10"] == 0.2098
    assert_allclose(res9["301"]["iprec_at_recall_0.10"], 0.2096069868995633,
                    rtol=1e-11)  # pytrec_eval's value
    assert round(res10["302"]["iprec_at_recall_0.60"], 4) == 0.1528
    assert_allclose(res9["302"]["iprec_at_recall_0.60"], 0.1419939577039275,
                    rtol=1e-11)
    differ = {(q, m) for q in res10 for m in res10[q]
              if abs(res10[q][m] - res9[q][m]) > 1e-12}
    assert differ == {
        ("301", "iprec_at_recall_0.10"), ("301", "11pt_avg"),
        ("302", "iprec_at_recall_0.60"), ("302", "11pt_avg"),
        ("all", "iprec_at_recall_0.10"), ("all", "iprec_at_recall_0.60"),
        ("all", "11pt_avg"),
    }


def test_trec_iprec_trec_eval_9_matches_pytrec_eval_on_test_files(capsys):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    _need_trec_dir()
    qrels = _trec.read_qrels(TREC_DIR / "qrels.test")
    run, _ = _trec.read_run(TREC_DIR / "results.test")
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, {"iprec_at_recall", "11pt_avg", "map"}).evaluate(run)
    _, out, _ = _run(capsys, TREC_DIR / "qrels.test", TREC_DIR / "results.test",
                     "-q", "--trec-eval-9", "--digits", "15", "-m",
                     "iprec_at_recall", "-m", "11pt_avg", "-m", "map")
    ours = _parse(out)
    for q, measures in expected.items():
        for m, v in measures.items():
            assert_allclose(ours[q][m], v, rtol=0, atol=1e-12, err_msg=f"{q} {m}")


# ==========================================================================
# pytrec_eval on generated collections
# ==========================================================================
def _write_collection(tmp_path, seed, n_queries=14):
    """Qrels and a run with ties; returns (qrels path, run path, qrels, run).

    Per query: graded judgments (0-3) of a pool, some retrieved and some not,
    unjudged retrieved documents, scores on a coarse grid (many ties), and
    document ids of different lengths (so that the docno tie order matters).
    q000 is judged but has no relevant document; q001 is judged but missing
    from the run; x999 is in the run without judgments.
    """
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for qi in range(n_queries):
        q = f"q{qi:03d}"
        n_pool = int(rng.integers(2, 60))
        docs = [f"D{rng.integers(0, 10 ** rng.integers(1, 5))}-{j}"
                for j in range(n_pool)]
        judged = rng.random(n_pool) < rng.uniform(0.4, 1.0)
        judged[0] = True
        grades = rng.choice(4, size=n_pool, p=[0.5, 0.25, 0.15, 0.1])
        if qi == 0:
            grades[:] = 0
        qrels[q] = {d: int(g) for d, g, j in zip(docs, grades, judged) if j}
        if qi == 1:
            continue
        retrieved = rng.random(n_pool) < rng.uniform(0.3, 1.0)
        retrieved[-1] = True
        n_levels = int(rng.integers(2, 6))
        scores = rng.integers(0, n_levels, n_pool) / n_levels - 0.3
        run[q] = {d: float(s) for d, s, r in zip(docs, scores, retrieved) if r}
    run["x999"] = {"D1-0": 1.0, "D2-1": 0.5}
    qrels_path, run_path = tmp_path / f"qrels{seed}.txt", tmp_path / f"run{seed}.txt"
    with open(qrels_path, "w") as f:
        for q, judged in qrels.items():
            for d, g in judged.items():
                f.write(f"{q} 0 {d} {g}\n")
    with open(run_path, "w") as f:
        for q, docs in run.items():
            items = sorted(docs.items(), key=lambda t: -t[1])
            for rank, (d, s) in enumerate(items, start=1):
                f.write(f"{q}\tQ0\t{d}\t{rank}\t{s!r}\ttag{seed}\n")
    assert any(len(set(d.values())) < len(d) for d in run.values())  # ties
    assert any(g >= 1 and d not in run.get(q, {})  # relevant, not retrieved
               for q in run for d, g in qrels.get(q, {}).items())
    assert any(qrels[q].get(d) == 0 for q in run if q in qrels for d in run[q])
    return qrels_path, run_path, qrels, run


@pytest.fixture(scope="module", params=[0, 1, 2, 3])
def collection(request, tmp_path_factory):
    return _write_collection(tmp_path_factory.mktemp("trec"), request.param)


def test_trec_matches_pytrec_eval_on_every_measure_and_query(collection, capsys):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels_path, run_path, qrels, run = collection
    expected = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    status, out, _ = _run(capsys, qrels_path, run_path, "-m", "all_trec", "-q",
                          "--trec-eval-9", "--digits", "15")
    assert status == 0
    ours = _parse(out)
    # the queries: the run's judged ones (q000 included, q001 and x999 not)
    assert set(ours) - {"all"} == set(expected)
    assert "q000" in expected and "q001" not in expected
    assert expected["q000"]["num_rel"] == 0
    n = 0
    for q, measures in expected.items():
        assert len(measures) == 54
        for m, v in measures.items():
            assert_allclose(ours[q][m], v, rtol=0, atol=1e-12, err_msg=f"{q} {m}")
            n += 1
    # the all line: mean over the queries (counts: sum), as trec_eval
    for m in expected["q000"]:
        values = [expected[q][m] for q in expected]
        total = sum(values) if m.startswith("num_") else np.mean(values)
        assert_allclose(ours["all"][m], total, rtol=0, atol=1e-12, err_msg=m)
        n += 1
    assert ours["all"]["num_q"] == len(expected)
    assert n > 700


def test_trec_internal_values_match_pytrec_eval_to_1e12(collection):
    # the same comparison without the printing, at rtol=1e-12
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels_path, run_path, qrels, run = collection
    expected = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES).evaluate(run)
    arrays = _trec.build_arrays(_trec.read_qrels(qrels_path),
                                _trec.read_run(run_path)[0])
    rows = _trec.evaluate(arrays, _trec.parse_measures(["all_trec"]),
                          per_query=True, recall_levels="trec_eval_9")
    ours = _trec.results_dict(arrays, rows)
    for q, measures in expected.items():
        for m, v in measures.items():
            assert_allclose(ours[q][m], v, rtol=1e-12, atol=1e-300,
                            err_msg=f"{q} {m}")


def test_trec_complete_flag_scores_missing_judged_queries_zero(collection, capsys):
    qrels_path, run_path, qrels, _ = collection
    plain = _parse(_run(capsys, qrels_path, run_path, "-m", "all_trec", "-q",
                        "--digits", "15")[1])
    full = _parse(_run(capsys, qrels_path, run_path, "-m", "all_trec", "-q", "-c",
                       "--digits", "15")[1])
    assert set(full) - {"all"} == set(qrels)  # q001 (not in the run) included
    assert full["q001"]["num_ret"] == 0
    assert full["q001"]["num_rel"] == sum(g >= 1 for g in qrels["q001"].values())
    for m in ("map", "P_10", "ndcg_cut_10", "iprec_at_recall_0.00", "11pt_avg"):
        assert full["q001"][m] == 0.0
        n_plain = plain["all"]["num_q"]
        assert_allclose(full["all"][m], plain["all"][m] * n_plain / (n_plain + 1),
                        atol=1e-12)


def test_trec_gauc_is_roc_auc_per_query_in_trec_order(collection, capsys):
    # per query: ROC AUC of the ranking trec_eval evaluates (ties broken by
    # docno descending) plus the judged documents not retrieved below it
    qrels_path, run_path, qrels, run = collection
    ours = _parse(_run(capsys, qrels_path, run_path, "-q", "-m", "gauc",
                       "--digits", "15")[1])
    values = []
    for q in sorted(set(qrels) & set(run)):
        docs = run[q]
        order = sorted(docs, key=lambda d: (-docs[d], [-ord(c) for c in d]))
        missing = [d for d in qrels[q] if d not in docs]
        y = [qrels[q].get(d, 0) >= 1 for d in order + missing]
        score = list(range(len(order), 0, -1)) + [-1] * len(missing)
        if len(set(y)) < 2:
            assert q not in ours  # one class only: no line
            continue
        values.append(roc_auc_score(y, score))
        assert_allclose(ours[q]["gauc"], values[-1], rtol=0, atol=1e-12)
    assert len(values) >= 8
    assert_allclose(ours["all"]["gauc"], np.mean(values), rtol=0, atol=1e-12)


def test_trec_all_line_equals_mean_of_query_lines(collection, capsys):
    # iprec_at_recall's all line comes from one grouped call without -q and
    # from the per-query values with -q: the same numbers
    qrels_path, run_path, _, _ = collection
    args = [qrels_path, run_path, "-m", "iprec_at_recall", "--digits", "15"]
    without_q = _parse(_run(capsys, *args)[1])
    with_q = _parse(_run(capsys, *args, "-q")[1])
    assert set(without_q) == {"all"}
    for m, v in without_q["all"].items():
        assert_allclose(with_q["all"][m], v, rtol=0, atol=1e-12)
        assert_allclose(np.mean([with_q[q][m] for q in with_q if q != "all"]), v,
                        rtol=0, atol=1e-12)


# ==========================================================================
# options and output format
# ==========================================================================
def test_trec_measure_syntax(tmp_path, capsys):
    qrels_path, run_path, _, _ = _write_collection(tmp_path, 5)
    out = _run(capsys, qrels_path, run_path, "-m", "P.10,5", "-m", "map",
               "-m", "ndcg_cut_3", "-m", "iprec_at_recall..5,0.25", "-m", "P_5")[1]
    names = [line.split("\t")[0].rstrip() for line in out.splitlines()]
    # trec_eval's order, parameters sorted, each once
    assert names == ["map", "iprec_at_recall_0.25", "iprec_at_recall_0.50", "P_5",
                     "P_10", "ndcg_cut_3"]
    assert all(line.split("\t")[1] == "all" for line in out.splitlines())


@pytest.mark.parametrize("measure, message", [
    ("relstrings", "unknown measure 'relstrings'"),
    ("ndcg.1", "malformed pair parameters"),
    ("P.0", "cutoff '0' is not a positive integer"),
    ("P.a", "cutoff 'a' is not a positive integer"),
    ("iprec_at_recall.0.333", "more than 2 decimals"),
    ("iprec_at_recall.1.5", "not a number in [0, 1]"),
    ("map.10", "takes no parameter"),
])
def test_trec_bad_measure_exits_2(tmp_path, capsys, measure, message):
    qrels_path, run_path, _, _ = _write_collection(tmp_path, 6)
    status, out, err = _run(capsys, qrels_path, run_path, "-m", measure)
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_trec_digits(tmp_path, capsys):
    qrels_path, run_path, _, _ = _write_collection(tmp_path, 7)
    for digits in (0, 4, 12):
        out = _run(capsys, qrels_path, run_path, "-m", "map", "-m", "num_ret",
                   "--digits", str(digits))[1]
        num_ret, map_line = out.splitlines()  # trec_eval's order
        assert num_ret.startswith("num_ret") and map_line.startswith("map")
        assert len(map_line.split("\t")[2].partition(".")[2]) == digits
        assert num_ret.split("\t")[2].isdigit()  # counts: integers


def test_trec_comments_blank_lines_and_run_id(tmp_path, capsys):
    qrels = tmp_path / "qrels"
    qrels.write_text("# judgments\nq1 0 a 1\n\nq1 0 b#1 0\nq1 0 c 2\n")
    run = tmp_path / "run"
    run.write_text("# a run\nq1 Q0 b#1 1 0.5 first\n\n"
                   "q1 Q0 a 2 0.5 last extra junk\n")
    status, out, _ = _run(capsys, qrels, run, "-q", "-m", "runid", "-m",
                          "num_ret", "-m", "num_rel", "-m", "P.1")
    assert status == 0
    res = _parse(out)
    assert res["all"]["runid"] == "last"  # the last line's tag, as trec_eval
    assert res["q1"]["num_ret"] == 2 and res["q1"]["num_rel"] == 2
    # tie at 0.5: docno descending puts "b#1" (not relevant) first
    assert res["q1"]["P_1"] == 0.0


# ==========================================================================
# bad files
# ==========================================================================
_GOOD_QRELS = "q1 0 d1 1\nq1 0 d2 0\n"
_GOOD_RUN = "q1 Q0 d1 1 0.9 run\nq1 Q0 d3 2 0.5 run\n"


@pytest.mark.parametrize("qrels_text, run_text, where, problem", [
    ("q1 0 d1 1\nq1 0 d2\n", _GOOD_RUN, "qrels, line 2",
     "expected 4 fields (query, iteration, document, relevance), got 3"),
    ("q1 0 d1 1\nq1 0 d2 yes\n", _GOOD_RUN, "qrels, line 2",
     "relevance 'yes' is not an integer"),
    ("q1 0 d1 1\nq1 0 d1 0\n", _GOOD_RUN, "qrels, line 2",
     "document 'd1' is judged twice for query 'q1'"),
    ("", _GOOD_RUN, "qrels", "empty file (no judgments)"),
    ("# only a comment\n\n", _GOOD_RUN, "qrels", "empty file (no judgments)"),
    (_GOOD_QRELS, "q1 Q0 d1 1 0.9 run\nq1 Q0 d3 2 0.5\n", "run, line 2",
     "expected 6 fields (query, Q0, document, rank, score, run tag), got 5"),
    (_GOOD_QRELS, "q1 Q0 d1 1 0.9 run\n\nq1 Q0 d3 2 high run\n", "run, line 3",
     "score 'high' is not a number"),
    (_GOOD_QRELS, "q1 Q0 d1 1 nan run\n", "run, line 1", "score is NaN"),
    (_GOOD_QRELS, "q1 Q0 d1 1 0.9 run\nq1 Q0 d1 2 0.5 run\n", "run, line 2",
     "document 'd1' is retrieved twice for query 'q1'"),
    (_GOOD_QRELS, "", "run", "empty file (no results)"),
    (_GOOD_QRELS, "q2 Q0 d1 1 0.9 run\n", None,
     "no query of the run has judgments in the qrels"),
])
def test_trec_bad_files_exit_2_with_file_line_and_problem(
        tmp_path, capsys, qrels_text, run_text, where, problem):
    (tmp_path / "qrels").write_text(qrels_text)
    (tmp_path / "run").write_text(run_text)
    status, out, err = _run(capsys, tmp_path / "qrels", tmp_path / "run")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("rankeval trec: error: ")
    if where is not None:
        assert f"{tmp_path / where}: {problem}" in err
    else:
        assert problem in err


def test_trec_unreadable_files_exit_2(tmp_path, capsys):
    (tmp_path / "run").write_text(_GOOD_RUN)
    status, _, err = _run(capsys, tmp_path / "missing", tmp_path / "run")
    assert status == 2 and f"{tmp_path / 'missing'}: cannot be read" in err
    status, _, err = _run(capsys, tmp_path, tmp_path / "run")
    assert status == 2 and "is a directory" in err
    (tmp_path / "qrels").write_bytes(b"q1 0 d1 1\nq1 0 d\xff 1\n")
    status, _, err = _run(capsys, tmp_path / "qrels", tmp_path / "run")
    assert status == 2 and f"{tmp_path / 'qrels'}, line 2: not UTF-8" in err


def test_trec_usage_errors_exit_2(capsys):
    assert main(["trec"]) == 2
    assert "usage: rankeval trec" in capsys.readouterr().err
    assert main(["trec", "a", "b", "-M", "0"]) == 2
    assert "-M/--max-docs" in capsys.readouterr().err
    assert main(["trec", "--help"]) == 0
    assert "--trec-eval-9" in capsys.readouterr().out


def test_version_prints_the_package_version(capsys):
    import sklearn_rankeval

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out == f"rankeval (sklearn-rankeval) {sklearn_rankeval.__version__}\n"
    assert sklearn_rankeval.__version__ not in ("", "0.0.0+unknown")


@pytest.mark.parametrize("seed", range(30))
def test_build_arrays_is_the_query_by_query_rule(seed):
    """The vectorised arrays equal trec_eval's rule written query by query
    (tests/_reference.py) on random runs: ties broken by document id,
    ``-M``, ``-c``, ``-J``, documents judged negative or not judged."""
    from tests._reference import trec_arrays_by_query

    rng = np.random.default_rng(seed)
    names = [f"d{i}" for i in range(int(rng.integers(1, 40)))] + ["D1", "é", "a"]
    queries = [f"q{i}" for i in range(int(rng.integers(1, 10)))] + ["10", "9"]

    def pick(size):
        return list(rng.choice(names, size=min(int(size), len(names)),
                               replace=False))

    qrels = {q: {d: int(rng.integers(-1, 4)) for d in pick(rng.integers(1, 10))}
             for q in queries if rng.random() < 0.8} or {"q0": {"d0": 1}}
    run = {q: {d: float(rng.integers(0, 4)) for d in pick(rng.integers(0, 15))}
           for q in queries if rng.random() < 0.7}
    run.setdefault(next(iter(qrels)), {names[0]: 1.0})
    options = {"max_docs": [None, 3][seed % 2], "complete": seed % 3 == 0,
               "judged_only": seed % 4 == 1}
    arrays = _trec.build_arrays(qrels, run, **options)
    qids, rel, score, sizes, n_ret = trec_arrays_by_query(qrels, run, **options)
    np.testing.assert_array_equal(arrays.qids, qids)
    np.testing.assert_array_equal(arrays.rel, rel)
    np.testing.assert_array_equal(arrays.y_score, score)
    np.testing.assert_array_equal(np.diff(arrays.offsets), sizes)
    np.testing.assert_array_equal(arrays.num_ret, n_ret)
    np.testing.assert_array_equal(arrays.groups, np.repeat(qids, sizes))
