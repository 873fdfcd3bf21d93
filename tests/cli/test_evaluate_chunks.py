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


def _mixed_ids(path):
    """Integer ids in the first chunks (one written 007), then a text id."""
    ids = ["1", "1", "007", "007", "2", "2", "3", "3", "4", "4", "abc", "abc"]
    y = [1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0]
    score = [0.1 * i for i in range(12)]
    path.write_text("query,relevance,prediction\n" + "".join(
        f"{g},{r},{s!r}\n" for g, r, s in zip(ids, y, score)))
    return np.array(ids, dtype=object), np.array(y, float), np.array(score)


def test_ids_integer_in_early_chunks_then_text_are_read_as_written(tmp_path,
                                                                   capsys):
    groups, y, score = _mixed_ids(tmp_path / "pred.csv")
    doc = _run(capsys, tmp_path / "pred.csv", "--group", "query", "--label",
               "relevance", "--score", "prediction", "--format", "json",
               "--chunk-rows", "4", "-m", "mrr", "--per-group")
    # 007 stays 007: the column is read again as text, as the file writes it
    assert [r["group"] for r in doc["per_group"]] == ["007", "1", "2", "3", "4",
                                                      "abc"]
    assert doc["metrics"]["mrr"] == ranking_report(
        y, score, groups=groups, metrics=["mrr"], output="dict")["mrr"]


def test_sorted_rows_integer_ids_then_a_text_id_is_an_error(tmp_path, capsys):
    rows = ["query,relevance,prediction"] + [f"{i // 2},1,0.{i}" for i in range(10)]
    (tmp_path / "pred.csv").write_text("\n".join([*rows, "abc,0,0.5"]) + "\n")
    assert main(["evaluate", str(tmp_path / "pred.csv"), "--group", "query",
                 "--label", "relevance", "--score", "prediction", "--chunk-rows",
                 "4", "--group-rows", "sorted"]) == 2
    err = capsys.readouterr().err
    assert (f"{tmp_path / 'pred.csv'}, line 12: column 'query' (--group): group "
            "id 'abc' is not an integer, unlike the ids before it") in err


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
