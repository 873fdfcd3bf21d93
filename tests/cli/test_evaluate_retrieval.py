"""``rankeval evaluate-retrieval``: runs and qrels on disk (TREC files, BEIR
folders, CSV/TSV).  On TREC files with ``--convention trec_eval`` the values
are trec_eval 9's own output (tests/data/trec_eval/out.test.a and out.test.aqc,
SOURCES.md); on a BEIR folder they are BEIR's rules written plainly
(tests/_reference.py)."""

import json

import pytest

from sklearn_rankeval._cli import main
from tests import _reference as ref
from tests.conftest import DATA_DIR
from tests.retrieval._data import make_retrieval

DATA = DATA_DIR / "trec_eval"
#: our name -> trec_eval's measure
TREC = {"AP": "map", "RR": "recip_rank", "P@5": "P_5", "P@10": "P_10",
        "recall@100": "recall_100", "nDCG": "ndcg", "ndcg@5": "ndcg_cut_5",
        "success@1": "success_1"}


def _run(capsys, *args):
    status = main(["evaluate-retrieval", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def _trec_eval_all(name):
    """``{measure: value}`` of the ``all`` lines of a trec_eval output."""
    out = {}
    for line in (DATA / name).read_text().splitlines():
        measure, query, value = line.split("\t")
        if query == "all":
            out[measure.strip()] = value
    return out


@pytest.mark.parametrize("out_name,run,flags", [
    ("out.test.a", "results.test", []),
    # results.trunc leaves queries without results: -c counts them 0
    ("out.test.aqc", "results.trunc", ["-c"])])
def test_trec_files_give_trec_eval_s_output(out_name, run, flags, capsys):
    metrics = [a for name in TREC for a in ("-m", name)]
    status, out, err = _run(capsys, DATA / run, DATA / "qrels.test",
                            *metrics, "--convention", "trec_eval",
                            "--format", "json", *flags)
    assert status == 0, err
    got = json.loads(out)["metrics"]
    want = _trec_eval_all(out_name)
    for name, measure in TREC.items():
        assert f"{got[name]:.4f}" == want[measure], name


def _beir_folder(tmp_path, qrels_rows):
    folder = tmp_path / "scifact"
    (folder / "qrels").mkdir(parents=True)
    lines = ["query-id\tcorpus-id\tscore"]
    lines += [f"{q}\t{d}\t{int(y)}" for q, d, y in qrels_rows]
    (folder / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n")
    return folder


def _trec_run(path, run_rows):
    lines = [f"{q} Q0 {d} {i + 1} {s} tag" for i, (q, d, s) in enumerate(run_rows)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_beir_folder_gives_beir_s_numbers(tmp_path, capsys):
    run, qrels, run_rows, qrels_rows = make_retrieval(4, integer=True,
                                                      repeats=False)
    judged = set(qrels["query_id"])
    run_rows = [r for r in run_rows if r[0] in judged]
    folder = _beir_folder(tmp_path, qrels_rows)
    run_file = _trec_run(tmp_path / "run.trec", run_rows)
    status, out, err = _run(capsys, run_file, folder, "-m", "ndcg@10",
                            "-m", "recall@5", "-m", "mrr@10",
                            "--convention", "beir", "--format", "json")
    assert status == 0, err
    got = json.loads(out)["metrics"]
    assert got["ndcg@10"] == ref.beir_evaluate(run_rows, qrels_rows,
                                               "ndcg_cut", 10)
    assert got["recall@5"] == ref.beir_evaluate(run_rows, qrels_rows,
                                                "recall", 5)
    assert got["mrr@10"] == ref.beir_mrr(run_rows, qrels_rows, 10)
    # the table: one line per metric
    status, out, _ = _run(capsys, run_file, folder, "-m", "ndcg@10",
                          "--convention", "beir")
    assert status == 0 and out.splitlines()[1].split()[:2] == [
        "ndcg@10", f"{got['ndcg@10']:.4f}"]


def test_csv_files_with_real_valued_labels(tmp_path, capsys):
    run, qrels, run_rows, qrels_rows = make_retrieval(5)
    run.to_csv(tmp_path / "run.csv", index=False)
    qrels.to_csv(tmp_path / "qrels.csv", index=False)
    status, out, err = _run(capsys, tmp_path / "run.csv", tmp_path / "qrels.csv",
                            "-m", "judged@5", "--format", "json")
    assert status == 0, err
    lists = ref.query_lists(run_rows, qrels_rows)
    want = sum(ref.judged_at_k(j, s, 5) for _, s, j in lists.values()) / len(lists)
    assert json.loads(out)["metrics"]["judged@5"] == pytest.approx(want,
                                                                   abs=1e-12)


def test_bad_files_are_one_line_errors(tmp_path, capsys):
    qrels = DATA / "qrels.test"
    status, _, err = _run(capsys, tmp_path / "missing.trec", qrels)
    assert status == 2 and "does not exist" in err and err.count("\n") == 1
    status, _, err = _run(capsys, DATA / "results.test", tmp_path)
    assert status == 2 and "has no qrels/test.tsv" in err
    bad = tmp_path / "bad.trec"
    bad.write_text("q Q0 d 1 high tag\n")
    status, _, err = _run(capsys, bad, qrels)
    assert status == 2 and "'high' of line 1 is not a number" in err
    status, _, err = _run(capsys, DATA / "results.test", qrels, "-m", "err@10",
                          "--convention", "beir")
    assert status == 2 and "BEIR's EvaluateRetrieval reports" in err
