"""``rankeval evaluate``: metrics of CSV, TSV and Parquet files of predictions."""

import csv
import gzip
import io
import json
import sys

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_rankeval import (
    f_alpha_score,
    gauc_score,
    hit_rate_score,
    interpolated_average_precision_score,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    precision_at_k_score,
    recall_at_k_score,
    success_at_k_score,
)
from sklearn_rankeval._cli import main

DEFAULT_METRICS = {
    "gauc": (gauc_score, {}),
    "mrr": (mean_reciprocal_rank_score, {}),
    "map": (mean_average_precision_score, {}),
    "map@10": (mean_average_precision_score, {"k": 10}),
    "ndcg@10": (ndcg_score, {"k": 10}),
    "hit_rate@10": (hit_rate_score, {"k": 10}),
    "success@10": (success_at_k_score, {"k": 10}),
    "precision@10": (precision_at_k_score, {"k": 10}),
    "recall@10": (recall_at_k_score, {"k": 10}),
    "interpolated_ap": (interpolated_average_precision_score, {}),
}


def _data(seed=0, n_groups=25):
    """Graded labels, tied scores, string group ids, one -inf score, and a
    group without a relevant item."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 15, n_groups)
    groups = np.repeat([f"user{i:02d}" for i in range(n_groups)], sizes)
    y = rng.choice(4, size=len(groups), p=[0.6, 0.2, 0.1, 0.1]).astype(float)
    y[groups == "user00"] = 0
    score = np.round(rng.normal(size=len(groups)), 1)
    score[3] = -np.inf
    perm = rng.permutation(len(groups))
    return groups[perm], y[perm], score[perm]


def _write_csv(path, groups, y, score, delimiter=",", opener=open):
    with opener(path, "wt", newline="") as f:
        writer = csv.writer(f, delimiter=delimiter)
        writer.writerow(["query", "relevance", "prediction", "other"])
        writer.writerows(
            [g, f"{r:g}", repr(float(s)), "x"] for g, r, s in zip(groups, y, score)
        )


def _evaluate(capsys, path, *args):
    status = main(["evaluate", str(path), "--group", "query", "--label",
                   "relevance", "--score", "prediction", *args])
    out, err = capsys.readouterr()
    return status, out, err


def _json(capsys, path, *args):
    status, out, err = _evaluate(capsys, path, "--format", "json", *args)
    assert status == 0, err
    return json.loads(out)


def _expected(groups, y, score, name):
    func, kwargs = DEFAULT_METRICS[name]
    return func(y, score, groups=groups, **kwargs)


def test_evaluate_csv_json_equals_the_metric_functions(tmp_path, capsys):
    groups, y, score = _data()
    _write_csv(tmp_path / "preds.csv", groups, y, score)
    doc = _json(capsys, tmp_path / "preds.csv")
    assert doc["file"] == str(tmp_path / "preds.csv")
    assert doc["n_rows"] == len(y) and doc["n_groups"] == 25
    assert list(doc["metrics"]) == list(DEFAULT_METRICS)
    for name, value in doc["metrics"].items():
        assert value == _expected(groups, y, score, name), name  # exact: repr


def test_evaluate_per_group_json_and_csv(tmp_path, capsys):
    groups, y, score = _data(1)
    _write_csv(tmp_path / "preds.csv", groups, y, score)
    names = ["gauc", "ndcg@5", "mrr"]
    metric_args = [a for n in names for a in ("-m", n)]
    doc = _json(capsys, tmp_path / "preds.csv", "--per-group", *metric_args)
    ids = [row["group"] for row in doc["per_group"]]
    assert ids == sorted(set(groups))
    status, out, _ = _evaluate(capsys, tmp_path / "preds.csv", "--per-group",
                               "--format", "csv", *metric_args)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["group"] for r in rows] == ids
    for name in names:
        func, kwargs = {"gauc": (gauc_score, {}), "ndcg@5": (ndcg_score, {"k": 5}),
                        "mrr": (mean_reciprocal_rank_score, {})}[name]
        expected = func(y, score, groups=groups, average=None, **kwargs)
        got = np.array([np.nan if r[name] is None else r[name]
                        for r in doc["per_group"]], dtype=float)
        assert_allclose(got, expected, rtol=0, atol=0, equal_nan=True)
        assert_allclose([float(r[name]) for r in rows], expected, rtol=0, atol=0,
                        equal_nan=True)
    # user00 has no relevant item: undefined, null in JSON
    assert doc["per_group"][0]["group"] == "user00"
    assert doc["per_group"][0]["mrr"] is None and doc["per_group"][0]["gauc"] is None


def test_evaluate_tsv_gzip_and_delimiter_give_the_same_values(tmp_path, capsys):
    groups, y, score = _data(2)
    _write_csv(tmp_path / "a.csv", groups, y, score)
    _write_csv(tmp_path / "b.tsv", groups, y, score, delimiter="\t")
    _write_csv(tmp_path / "c.csv.gz", groups, y, score, opener=gzip.open)
    _write_csv(tmp_path / "d.txt", groups, y, score, delimiter=";")
    reference = _json(capsys, tmp_path / "a.csv")["metrics"]
    assert _json(capsys, tmp_path / "b.tsv")["metrics"] == reference
    assert _json(capsys, tmp_path / "c.csv.gz")["metrics"] == reference
    assert _json(capsys, tmp_path / "d.txt", "--delimiter", ";")["metrics"] == reference
    # a tab written as the shell passes it
    _write_csv(tmp_path / "e.txt", groups, y, score, delimiter="\t")
    assert _json(capsys, tmp_path / "e.txt", "--delimiter", "\\t")["metrics"] == (
        reference)
    status, out, err = _evaluate(capsys, tmp_path / "d.txt", "--delimiter", ";;")
    assert status == 2 and out == ""
    assert "argument --delimiter: ';;' is not one character" in err


def test_evaluate_parquet_round_trip(tmp_path, capsys):
    pa, pq = _pyarrow()
    groups, y, score = _data(3)
    _write_csv(tmp_path / "preds.csv", groups, y, score)
    table = pa.table({"query": groups, "relevance": y, "prediction": score})
    pq.write_table(table, tmp_path / "preds.parquet")
    from_csv = _json(capsys, tmp_path / "preds.csv", "--per-group")
    from_parquet = _json(capsys, tmp_path / "preds.parquet", "--per-group")
    from_csv.pop("file"), from_parquet.pop("file")
    assert from_parquet == from_csv
    # integer group ids stay integers
    pq.write_table(pa.table({"query": np.arange(len(y)) % 4, "relevance": y,
                             "prediction": score}), tmp_path / "int.parquet")
    doc = _json(capsys, tmp_path / "int.parquet", "--per-group", "-m", "mrr")
    assert [r["group"] for r in doc["per_group"]] == [0, 1, 2, 3]


def _pyarrow():
    """pyarrow and pyarrow.parquet, or skip (absent, or built for another numpy)."""
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError as exc:
        pytest.skip(f"pyarrow is not usable here: {exc}")
    return pyarrow, pyarrow.parquet


def test_evaluate_parquet_without_pyarrow_says_which_extra(tmp_path, capsys,
                                                           monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    (tmp_path / "preds.parquet").write_bytes(b"PAR1")
    status, out, err = _evaluate(capsys, tmp_path / "preds.parquet")
    assert status == 2 and out == ""
    assert f"{tmp_path / 'preds.parquet'}: reading Parquet needs pyarrow" in err
    assert 'pip install "sklearn-rankeval[parquet]"' in err


def test_evaluate_table_output(tmp_path, capsys):
    groups, y, score = _data(4)
    _write_csv(tmp_path / "preds.csv", groups, y, score)
    status, out, _ = _evaluate(capsys, tmp_path / "preds.csv", "--per-group")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == f"{tmp_path / 'preds.csv'}: {len(y)} rows, 25 groups"
    for name in DEFAULT_METRICS:
        value = _expected(groups, y, score, name)
        assert f"{name} " in out and f"{value:.4f}" in out
    assert any(line.startswith("user24 ") for line in lines)


def test_evaluate_integer_group_ids_and_f_alpha(tmp_path, capsys):
    path = tmp_path / "clicks.csv"
    path.write_text("user,click,p\n10,1,0.9\n10,0,0.2\n2,0,0.7\n2,1,0.6\n"
                    "2,0,0.1\n")
    args = ["evaluate", str(path), "--group", "user", "--label", "click",
            "--score", "p", "--format", "json"]
    assert main([*args, "-m", "gauc", "--per-group"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["group"] for r in doc["per_group"]] == [2, 10]  # numeric order
    assert main([*args, "-m", "f_alpha", "--threshold", "0.5"]) == 0
    doc = json.loads(capsys.readouterr().out)
    y, p = np.array([1, 0, 0, 1, 0]), np.array([0.9, 0.2, 0.7, 0.6, 0.1])
    assert doc["metrics"]["f_alpha"] == f_alpha_score(y, p >= 0.5)
    assert main([*args, "-m", "f_alpha"]) == 2
    assert "pass --threshold" in capsys.readouterr().err


# ==========================================================================
# bad files: the file name, the line and the problem; status 2
# ==========================================================================
_HEADER = "query,relevance,prediction\n"


@pytest.mark.parametrize("text, where, problem", [
    ("", "", "empty file (expected a header line and rows)"),
    ("\n\n", "", "empty file (expected a header line and rows)"),
    (_HEADER, ", line 1", "empty file (a header line but no rows)"),
    ("query,label,prediction\nq,1,0.5\n", ", line 1",
     "no column 'relevance' (for --label); the header has 'query', 'label', "
     "'prediction'"),
    (_HEADER + "q,1,0.5\nq,0,high\n", ", line 3",
     "column 'prediction' (--score): 'high' is not a number"),
    (_HEADER + "q,1,0.5\n\nq,0,\n", ", line 4",
     "column 'prediction' (--score): missing value (empty)"),
    (_HEADER + "q,1,0.5\nq,0,nan\n", ", line 3",
     "column 'prediction' (--score): missing value ('nan')"),
    (_HEADER + "q,1,0.5\nq,0,NA\n", ", line 3",
     "column 'prediction' (--score): missing value ('NA')"),
    (_HEADER + "q,0,0.2\nq,1,inf\n", ", line 3",
     "column 'prediction' (--score) contains +inf; only -inf is allowed"),
    (_HEADER + "q,yes,0.5\n", ", line 2",
     "column 'relevance' (--label): 'yes' is not a number"),
    # (-1/1 labels are read as 0/1, as every door reads them; a grade of -1
    # beside a grade of 2 is no label)
    (_HEADER + "q,2,0.5\nq,-1,0.5\n", ", line 3",
     "column 'relevance' (--label) must be >= 0 (relevance grades)"),
    (_HEADER + "q,1,0.5\nq,-inf,0.5\n", ", line 3",
     "column 'relevance' (--label) contains infinite values"),
    (_HEADER + "q,1,0.5\n,0,0.4\n", ", line 3",
     "column 'query' (--group): missing value (empty)"),
    (_HEADER + "q,1,0.5\nq,0\n", ", line 3", "expected 3 fields, got 2"),
    # a field too many is an error as one too few (issue 31, item 11)
    (_HEADER + "q,1,0.5\nq,0,0.4,7\nq,0,0.1\n", ", line 3",
     "expected 3 fields, got 4"),
    (_HEADER + "q,1,0.5,\nq,0,0.4\n", ", line 2", "expected 3 fields, got 4"),
    (_HEADER + 'q,1,0.5\n"q,0",0,0.4,1\n', ", line 3", "expected 3 fields, got 4"),
    (_HEADER + 'q,1,0.5\n"q,0,0.4\n', ", line 3", "malformed CSV"),
])
def test_evaluate_bad_files_exit_2(tmp_path, capsys, text, where, problem):
    path = tmp_path / "preds.csv"
    path.write_text(text)
    status, out, err = _evaluate(capsys, path)
    assert status == 2 and out == ""
    assert err.startswith("rankeval evaluate: error: ")
    assert f"{path}{where}: {problem}" in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_evaluate_bad_parquet_exit_2(tmp_path, capsys):
    pa, pq = _pyarrow()
    path = tmp_path / "p.parquet"
    pq.write_table(pa.table({"query": ["a", "a", None], "relevance": [1, 0, 1],
                             "prediction": [0.1, 0.2, 0.3]}), path)
    status, _, err = _evaluate(capsys, path)
    assert status == 2
    assert f"{path}, row 3: column 'query' (--group): missing value (null)" in err
    pq.write_table(pa.table({"query": ["a"], "relevance": [1]}), path)
    status, _, err = _evaluate(capsys, path)
    assert status == 2 and f"{path}: no column 'prediction'" in err
    pq.write_table(pa.table({"query": pa.array([], pa.string()),
                             "relevance": pa.array([], pa.int64()),
                             "prediction": pa.array([], pa.float64())}), path)
    status, _, err = _evaluate(capsys, path)
    assert status == 2 and f"{path}: empty file (no rows)" in err
    path.write_text("not parquet")
    status, _, err = _evaluate(capsys, path)
    assert status == 2 and f"{path}: not a Parquet file" in err


def test_evaluate_missing_file_and_unknown_metric_exit_2(tmp_path, capsys):
    status, _, err = _evaluate(capsys, tmp_path / "none.csv")
    assert status == 2 and f"{tmp_path / 'none.csv'}: cannot be read" in err
    (tmp_path / "p.csv").write_text(_HEADER + "q,1,0.5\n")
    status, _, err = _evaluate(capsys, tmp_path / "p.csv", "-m", "ndcg@0")
    assert status == 2 and "-m: 'ndcg@0' is not a ranking metric name" in err
    assert "hit_rate@K" in err and "Traceback" not in err
    assert main(["evaluate", str(tmp_path / "p.csv")]) == 2  # missing --group
    assert "required" in capsys.readouterr().err


def test_evaluate_byte_order_mark_and_crlf(tmp_path, capsys):
    # a CSV saved by Excel: UTF-8 with a byte order mark, CRLF line ends
    path = tmp_path / "excel.csv"
    path.write_bytes(b"\xef\xbb\xbfquery,relevance,prediction\r\n"
                     b"a,1,0.9\r\na,0,0.4\r\nb,0,0.8\r\nb,1,0.3\r\n")
    doc = _json(capsys, path, "-m", "gauc", "-m", "mrr", "--per-group")
    assert doc["metrics"] == {"gauc": 0.5, "mrr": 0.75}
    assert [r["group"] for r in doc["per_group"]] == ["a", "b"]
