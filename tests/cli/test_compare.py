"""``rankeval compare``: the printed table is compare_rankings' on the same arrays."""

import json

import numpy as np
import pytest

from sklearn_rankeval import compare_rankings
from sklearn_rankeval._cli import main
from tests._reference import trec_runs_by_query
from tests.conftest import DATA_DIR, make_grouped_data

TREC_DIR = DATA_DIR / "trec_eval"
METRICS = ["mrr", "ndcg@5", "gauc"]


def _run(capsys, *args):
    status = main(["compare", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def csv_file(tmp_path):
    y, s, g = make_grouped_data(3, n_groups=40)
    rng = np.random.default_rng(0)
    scores = {"A": s, "B": np.round(s + rng.normal(0, 0.3, len(s)) + 0.3 * y, 2),
              "C": np.round(s + rng.normal(0, 0.5, len(s)), 2)}
    path = tmp_path / "preds.csv"
    with open(path, "w") as f:
        f.write("user,click,A,B,C\n")
        for i in range(len(y)):
            row = [float(y[i])] + [float(scores[m][i]) for m in "ABC"]
            f.write(f"{g[i]}," + ",".join(map(repr, row)) + "\n")
    return path, y, scores, g


def test_file_table_is_compare_rankings_text(capsys, csv_file):
    path, y, scores, g = csv_file
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "A", "--score", "B", "--score", "C",
                            *[a for m in METRICS for a in ("-m", m)],
                            "--n-resamples", 500, "--seed", 3)
    assert status == 0, err
    expected = compare_rankings(y, scores, groups=g, metrics=METRICS,
                                n_resamples=500, random_state=3)
    assert out == expected + "\n"
    # not vacuous: the table has a row per (metric, model) with numbers
    assert len(out.splitlines()) == 2 + 3 * len(METRICS)
    assert "B " in out.splitlines()[3]


def test_file_options_are_passed_on(capsys, csv_file):
    path, y, scores, g = csv_file
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "A", "--score", "C", "-m", "map",
                            "-m", "hit_rate@3", "--test", "t",
                            "--correction", "none", "--confidence", "0.8",
                            "--baseline", "C", "--n-resamples", 300)
    assert status == 0, err
    expected = compare_rankings(
        y, {"A": scores["A"], "C": scores["C"]}, groups=g,
        metrics=["map", "hit_rate@3"], test="t", correction=None,
        confidence=0.8, baseline="C", n_resamples=300, random_state=0)
    assert out == expected + "\n"
    assert out.startswith("baseline C, paired t-test over 40 groups, no "
                          "correction, 80% bootstrap")


def test_file_json_equals_the_dict(capsys, csv_file):
    path, y, scores, g = csv_file
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "B", "--score", "A", "-m", "mrr",
                            "-m", "gauc", "--n-resamples", 200, "--seed", 5,
                            "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    expected = compare_rankings(y, {"B": scores["B"], "A": scores["A"]}, groups=g,
                                metrics=["mrr", "gauc"], n_resamples=200,
                                random_state=5, output="dict")
    assert doc["models"] == ["B", "A"] and doc["baseline"] == "B"
    assert doc["n_groups"] == 40
    for metric, by_model in expected.items():
        for model, res in by_model.items():
            for key, value in res.items():
                got = doc["metrics"][metric][model][key]
                if isinstance(value, float) and np.isnan(value):
                    assert got is None
                else:
                    assert got == value, (metric, model, key)
    assert doc["metrics"]["mrr"]["A"]["ci_low"] < doc["metrics"]["mrr"]["A"]["ci_high"]


def _write_run(path, run, tag):
    with open(path, "w") as f:
        for q, docs in run.items():
            for rank, (d, s) in enumerate(docs.items()):
                f.write(f"{q} Q0 {d} {rank} {s} {tag}\n")


def test_trec_runs_are_aligned_with_unretrieved_documents_at_minus_inf(
        capsys, tmp_path):
    qrels = tmp_path / "qrels"
    qrels.write_text("q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n"
                     "q2 0 d1 1\nq2 0 d4 1\n"
                     "q3 0 d9 1\n")  # q3: no run retrieves for it
    # run a: q1 d2 > d1 (tie d4/d5 broken by docno descending: d5 first);
    # run b: q1 d3 > d1, nothing for q2
    _write_run(tmp_path / "a.run", {"q1": {"d2": 3.0, "d1": 2.0, "d5": 1.0,
                                           "d4": 1.0},
                                    "q2": {"d4": 5.0, "d7": 4.0}}, "runA")
    _write_run(tmp_path / "b.run", {"q1": {"d3": 0.9, "d1": 0.5}}, "runB")
    status, out, err = _run(capsys, qrels, tmp_path / "a.run", tmp_path / "b.run",
                            "-m", "mrr", "-m", "ndcg", "-m", "map",
                            "--n-resamples", 100)
    assert status == 0, err
    # by hand: q1's items d1..d5 (judged or retrieved), q2's d1, d4, d7
    groups = ["q1"] * 5 + ["q2"] * 3
    y = [1, 0, 2, 0, 0, 1, 1, 0]
    inf = -np.inf
    a = [3, 4, inf, 1, 2, inf, 2, 1]   # positions: d2, d1, d5, d4 / d4, d7
    b = [1, inf, 2, inf, inf, inf, inf, inf]
    expected = compare_rankings(np.array(y, float),
                                {"runA": np.array(a, float), "runB": np.array(b, float)},
                                groups=np.array(groups), metrics=["mrr", "ndcg", "map"],
                                n_resamples=100, random_state=0)
    assert out == expected + "\n"
    res = compare_rankings(np.array(y, float),
                           {"runA": np.array(a, float), "runB": np.array(b, float)},
                           groups=np.array(groups), metrics=["mrr"],
                           n_resamples=100, random_state=0, output="dict")
    # runA: q1 relevant d1 at rank 2, q2 d4 at rank 1; runB: q1 d3 first, q2 0
    assert res["mrr"]["runA"]["value"] == pytest.approx(0.75)
    assert res["mrr"]["runB"]["value"] == pytest.approx(0.5)


@pytest.mark.parametrize("seed", range(25))
def test_trec_alignment_is_the_query_by_query_rule(seed):
    from sklearn_rankeval._cli._trec import align_runs

    rng = np.random.default_rng(seed)
    n_q, n_docs = int(rng.integers(1, 12)), int(rng.integers(1, 30))
    names = [f"d{i}" for i in range(n_docs)] + ["D1", "d10x", "é1", "a"]
    queries = [f"q{i}" for i in range(n_q)] + ["10", "9"]

    def pick(size):
        return list(rng.choice(names, size=min(size, len(names)), replace=False))

    qrels = {q: {d: int(rng.integers(-1, 4)) for d in pick(rng.integers(1, 8))}
             for q in queries if rng.random() < 0.8}
    qrels = qrels or {queries[0]: {names[0]: 1}}
    runs = []
    for _ in range(int(rng.integers(1, 4))):
        # few distinct scores: many ties, broken by the document id
        runs.append({q: {d: float(rng.integers(0, 3)) for d in
                         pick(rng.integers(0, 10))}
                     for q in queries if rng.random() < 0.7})
    runs[0].setdefault(next(iter(qrels)), {names[1]: 1.0})
    retrieved = set().union(*runs)
    qids = sorted(q for q in qrels if q in retrieved)
    groups, rel, columns = trec_runs_by_query(qrels, runs, qids)
    got_groups, got_rel, got_columns = align_runs(qrels, runs, qids)
    np.testing.assert_array_equal(got_groups, groups)
    np.testing.assert_array_equal(got_rel, rel)
    assert len(got_columns) == len(columns)
    for got, want in zip(got_columns, columns):
        np.testing.assert_array_equal(got, want)


def test_trec_values_are_trec_evals_map_and_names_are_the_files(capsys, tmp_path):
    # a second run: results.test with the scores of every other query reversed
    lines = (TREC_DIR / "results.test").read_text().splitlines()
    qids = sorted({line.split()[0] for line in lines})
    flip = set(qids[::2])
    out_lines = []
    for line in lines:
        q, q0, d, rank, score, tag = line.split()
        s = -float(score) if q in flip else float(score)
        out_lines.append(f"{q} {q0} {d} {rank} {s} {tag}")
    other = tmp_path / "flipped.test"
    other.write_text("\n".join(out_lines) + "\n")
    qrels = TREC_DIR / "qrels.test"
    status, out, err = _run(capsys, qrels, TREC_DIR / "results.test", other,
                            "-m", "map", "-m", "mrr", "--format", "json",
                            "--n-resamples", 100)
    assert status == 0, err
    doc = json.loads(out)
    # both tags are STANDARD: the models are named by the files
    assert doc["models"] == ["results.test", "flipped.test"]
    for model, path in (("results.test", TREC_DIR / "results.test"),
                        ("flipped.test", other)):
        assert main(["trec", str(qrels), str(path), "-m", "map", "-m",
                     "recip_rank", "--digits", "12"]) == 0
        trec = {ln.split()[0]: float(ln.split()[2])
                for ln in capsys.readouterr().out.splitlines() if "\tall\t" in ln}
        assert doc["metrics"]["map"][model]["value"] == pytest.approx(
            trec["map"], abs=1e-12)
        assert doc["metrics"]["mrr"][model]["value"] == pytest.approx(
            trec["recip_rank"], abs=1e-12)
    assert doc["metrics"]["map"]["flipped.test"]["diff"] < 0


@pytest.mark.parametrize("args, message", [
    (["{csv}", "--group", "user", "--score", "A", "--score", "B"], "--label"),
    (["{csv}", "--group", "user", "--label", "click", "--score", "A", "--score",
      "A"], "twice"),
    (["{csv}", "--group", "user", "--label", "click", "--score", "A", "--score",
      "nope"], "no column 'nope'"),
    (["{csv}", "--group", "user", "--label", "click", "--score", "A", "--score",
      "B", "-m", "foo"], "-m: 'foo' is not a ranking metric name"),
    (["{csv}", "--group", "user", "--label", "click", "--score", "A", "--score",
      "B", "--baseline", "Z"], "--baseline 'Z' is not a model; the models are "
                               "'A', 'B'"),
    (["{qrels}"], "at least one RUN"),
])
def test_bad_arguments_exit_2_with_a_message(capsys, csv_file, args, message):
    path = csv_file[0]
    args = [a.format(csv=path, qrels=TREC_DIR / "qrels.test",
                     run=TREC_DIR / "results.test") for a in args]
    status, out, err = _run(capsys, *args)
    assert status == 2
    assert message in err and err.startswith("rankeval compare: error:")
    assert err.count("\n") == 1


def test_a_bad_confidence_is_refused_by_the_parser(capsys, csv_file):
    status, out, err = _run(capsys, csv_file[0], "--group", "user", "--label",
                            "click", "--score", "A", "--score", "B",
                            "--confidence", "1.5")
    assert status == 2 and out == ""
    assert "rankeval compare: error: argument --confidence: '1.5' is not in (0, 1)" in err


# -- issue 38: designs and margins; issue 41 item 7: one model --------------
def test_all_pairs_with_margins_is_compare_rankings_text(capsys, csv_file):
    path, y, scores, g = csv_file
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "A", "--score", "B", "--score", "C",
                            "-m", "mrr", "-m", "ndcg@5", "--design", "all_pairs",
                            "--equivalence", "0.002", "--min-effect", "0.01")
    assert status == 0, err
    expected = compare_rankings(y, scores, groups=g, metrics=["mrr", "ndcg@5"],
                                design="all_pairs", test="tukey_hsd",
                                equivalence=0.002, min_effect=0.01,
                                random_state=0)
    assert out == expected + "\n"
    assert "p_equivalence" in out.splitlines()[1]
    assert len(out.splitlines()) == 2 + 3 * 2


def test_maxt_and_non_inferiority_are_passed_on(capsys, csv_file):
    path, y, scores, g = csv_file
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "A", "--score", "B", "-m", "mrr",
                            "--correction", "maxt", "--non-inferiority", "0.01",
                            "--n-resamples", 300, "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    expected = compare_rankings(y, {"A": scores["A"], "B": scores["B"]},
                                groups=g, metrics=["mrr"], correction="maxt",
                                non_inferiority=0.01, n_resamples=300,
                                random_state=0, output="dict")
    assert doc["metrics"]["mrr"]["B"]["p_noninferiority"] == pytest.approx(
        expected["mrr"]["B"]["p_noninferiority"], rel=1e-12)
    assert doc["metrics"]["mrr"]["B"]["p_adjusted"] == pytest.approx(
        expected["mrr"]["B"]["p_adjusted"], rel=1e-12)


def test_one_score_column_gives_that_models_intervals(capsys, csv_file):
    from sklearn_rankeval import ranking_report

    path, y, scores, g = csv_file
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "B", "-m", "mrr", "-m", "ndcg@5",
                            "--n-resamples", 400, "--seed", 2)
    assert status == 0, err
    expected = ranking_report(y, scores["B"], groups=g, metrics=["mrr", "ndcg@5"],
                              confidence=0.95, n_resamples=400, random_state=2)
    assert out == ("model B: one model, nothing to compare; 95% bootstrap "
                   "intervals over groups\n" + expected + "\n")
    status, out, err = _run(capsys, path, "--group", "user", "--label", "click",
                            "--score", "B", "-m", "mrr", "--n-resamples", 400,
                            "--format", "json")
    doc = json.loads(out)
    d = ranking_report(y, scores["B"], groups=g, metrics=["mrr"],
                       confidence=0.95, n_resamples=400, random_state=0,
                       output="dict")
    assert doc["metrics"]["mrr"]["B"] == pytest.approx(d["mrr"])


def test_one_trec_run_gives_its_intervals(capsys):
    status, out, err = _run(capsys, TREC_DIR / "qrels.test",
                            TREC_DIR / "results.test", "-m", "map",
                            "--n-resamples", 200)
    assert status == 0, err
    assert out.startswith("model ") and "map" in out


def test_a_negative_margin_is_refused_by_the_parser(capsys, csv_file):
    status, out, err = _run(capsys, csv_file[0], "--group", "user", "--label",
                            "click", "--score", "A", "--score", "B",
                            "--equivalence", "-1")
    assert status == 2 and out == ""
    assert "argument --equivalence: '-1' is not a number >= 0" in err
