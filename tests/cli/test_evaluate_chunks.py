"""``rankeval evaluate`` reading files chunk by chunk (--chunk-rows, --group-rows)."""

import json

import numpy as np
import pytest

from sklearn_rankeval import per_group_scores, ranking_report
from sklearn_rankeval._cli import main
from tests.cli.test_evaluate import _data, _write_csv

METRICS = ["gauc", "mrr", "map@3", "ndcg@5", "hit_rate@2", "interpolated_ap"]


def _run(capsys, *argv):
    assert main(["evaluate", *map(str, argv)]) == 0
    return json.loads(capsys.readouterr().out)


def _args(path, *extra):
    out = [path, "--group", "query", "--label", "relevance", "--score",
           "prediction", "--format", "json"]
    for m in METRICS:
        out += ["-m", m]
    return [*out, *extra]


def _sorted_data(seed):
    groups, y, score = _data(seed)
    order = np.argsort(groups, kind="stable")
    return groups[order], y[order], score[order]


def _expected(groups, y, score):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ranking_report(y, score, groups=groups, metrics=METRICS, output="dict")


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.parametrize("group_rows", ["any", "sorted"])
@pytest.mark.parametrize("chunk_rows", [1, 7, 1000])
def test_chunks_give_the_one_shot_values(tmp_path, capsys, suffix, group_rows,
                                         chunk_rows):
    groups, y, score = _sorted_data(1)
    path = tmp_path / f"pred{suffix}"
    if suffix == ".csv":
        _write_csv(path, groups, y, score)
    else:
        pa = pytest.importorskip("pyarrow")
        import pyarrow.parquet as pq

        pq.write_table(pa.table({"query": groups, "relevance": y,
                                 "prediction": score}), path, row_group_size=13)
    doc = _run(capsys, *_args(path, "--chunk-rows", chunk_rows,
                              "--group-rows", group_rows, "--per-group"))
    expected = _expected(groups, y, score)
    assert doc["n_rows"] == len(y)
    assert doc["n_groups"] == len(np.unique(groups))
    for name in METRICS:
        assert doc["metrics"][name] == pytest.approx(expected[name], rel=1e-12)
    frame = per_group_scores(y, score, groups=groups, metrics=METRICS, output="dict")
    assert [row["group"] for row in doc["per_group"]] == frame["group"].tolist()
    for name in METRICS:
        got = [np.nan if r[name] is None else r[name] for r in doc["per_group"]]
        np.testing.assert_allclose(got, frame[name], rtol=1e-12, equal_nan=True)


def test_sorted_without_per_group_keeps_only_sums(tmp_path, capsys):
    groups, y, score = _sorted_data(2)
    path = tmp_path / "pred.csv"
    _write_csv(path, groups, y, score)
    doc = _run(capsys, *_args(path, "--chunk-rows", 5, "--group-rows", "sorted"))
    expected = _expected(groups, y, score)
    for name in METRICS:
        assert doc["metrics"][name] == pytest.approx(expected[name], rel=1e-12)


def test_sorted_rejects_an_unsorted_file(tmp_path, capsys):
    groups, y, score = _data(3)  # shuffled
    path = tmp_path / "pred.csv"
    _write_csv(path, groups, y, score)
    assert main(["evaluate", *map(str, _args(path, "--chunk-rows", 5,
                                             "--group-rows", "sorted"))]) != 0
    err = capsys.readouterr().err
    assert "pred.csv" in err and "ordered by group id" in err


def test_integer_ids_then_a_string_id_is_an_error(tmp_path, capsys):
    path = tmp_path / "pred.csv"
    rows = ["query,relevance,prediction"] + [f"{i // 2},1,0.{i}" for i in range(10)]
    rows.append("abc,0,0.5")
    path.write_text("\n".join(rows) + "\n")
    assert main(["evaluate", str(path), "--group", "query", "--label", "relevance",
                 "--score", "prediction", "--chunk-rows", "4"]) != 0
    err = capsys.readouterr().err
    assert "line 12" in err and "'abc'" in err and "not an integer" in err


def test_f_alpha_from_chunks_equals_f_alpha_score(tmp_path, capsys):
    from sklearn_rankeval import f_alpha_score

    groups, y, score = _sorted_data(4)
    path = tmp_path / "pred.csv"
    _write_csv(path, groups, y, score)
    doc = _run(capsys, path, "--group", "query", "--label", "relevance", "--score",
               "prediction", "--format", "json", "-m", "f_alpha", "-m", "mrr",
               "--threshold", "0.3", "--chunk-rows", "6")
    assert doc["metrics"]["f_alpha"] == pytest.approx(
        f_alpha_score(y > 0, score >= 0.3), rel=1e-12)
