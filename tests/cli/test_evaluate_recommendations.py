"""``rankeval evaluate-recommendations``: top-N lists in CSV and Parquet files.

Every value is compared with :func:`sklearn_rankeval.recommendation_report`
called on the same data in memory (itself checked against the long layout
and the plain definitions in tests/recommend/test_recommendation_report.py).
"""

import csv
import gzip
import io
import json

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from sklearn_rankeval import recommendation_report
from sklearn_rankeval._cli import main
from sklearn_rankeval._metrics._registry import METRICS
from sklearn_rankeval._recommend._report import BEYOND
from tests._logs import make_lists

#: Accuracy metrics with and without a cutoff, and the beyond-accuracy ones.
NAMES = ["ndcg@3", "recall@3", "precision@5", "map@3", "mrr", "success@3",
         "coverage@3", "gini@3", "entropy@3", "novelty@3", "arp@3",
         "long_tail@3", "coverage@5"]


def _run(capsys, *args):
    status = main(["evaluate-recommendations", *map(str, args)])
    out, err = capsys.readouterr()
    return status, out, err


def _metric_args(names):
    return [a for name in names for a in ("-m", name)]


def _write(frame, path):
    if path.name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
        frame.to_parquet(path, index=False)
    else:
        frame.to_csv(path, index=False, compression="infer")


@pytest.mark.parametrize("ext, ids", [
    ("csv", "str"), ("csv.gz", "int"), ("parquet", "str"), ("parquet", "int")])
def test_json_equals_recommendation_report(tmp_path, capsys, ext, ids):
    rec, held, train = make_lists(seed=4, ids=ids)
    paths = [tmp_path / f"{name}.{ext}" for name in ("rec", "held", "train")]
    for frame, path in zip((rec, held, train), paths):
        _write(frame, path)
    status, out, err = _run(capsys, paths[0], paths[1], "--train", paths[2],
                            "--chunk-rows", 7, "--users", "union",
                            *_metric_args(NAMES), "--format", "json")
    assert status == 0, err
    doc = json.loads(out)
    expected = recommendation_report(rec, held, train=train, metrics=NAMES,
                                     users="union", output="dict")
    assert list(doc["metrics"]) == NAMES
    assert_allclose([doc["metrics"][n] for n in NAMES],
                    [expected[n] for n in NAMES], rtol=0, atol=1e-12)
    assert doc["train"] == str(paths[2]) and doc["users"] == "union"


def test_text_csv_outputs_row_order_and_column_names(tmp_path, capsys):
    rec, held, _ = make_lists(seed=5)
    # other column names; no score: the row order within a user is the rank
    rec = rec.drop(columns="score").rename(columns={"user": "uid", "item": "iid"})
    held = held.rename(columns={"user": "uid", "item": "iid", "relevance": "gain"})
    rec.to_csv(tmp_path / "rec.csv", index=False)
    with gzip.open(tmp_path / "held.tsv.gz", "wt") as f:
        held.to_csv(f, index=False, sep="\t")
    args = [tmp_path / "rec.csv", tmp_path / "held.tsv.gz", "--user-col", "uid",
            "--item-col", "iid", "--relevance-col", "gain", "-k", "4"]
    kwargs = dict(k=4, user="uid", item="iid", relevance="gain")
    status, out, err = _run(capsys, *args)
    assert status == 0, err
    assert out == recommendation_report(rec, held, **kwargs) + "\n"
    status, out, _ = _run(capsys, *args, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    expected = recommendation_report(rec, held, output="dict", **kwargs)
    assert [r["metric"] for r in rows] == list(expected)
    assert [float(r["value"]) for r in rows] == list(expected.values())
    # the score column would give other lists: the rank is the row order
    held_default = held.rename(columns={"gain": "relevance"})
    assert expected != recommendation_report(
        rec.assign(score=np.arange(len(rec))), held_default, output="dict",
        **{**kwargs, "relevance": None})


def test_ids_integer_in_one_chunk_text_in_another(tmp_path, capsys):
    rec, held, _ = make_lists(seed=6, ids="int")
    rec["item"] = rec["item"].astype(str)
    rec.loc[len(rec) - 1, "item"] = "x7"  # only in the last chunk
    held["item"] = held["item"].astype(str)
    rec.to_csv(tmp_path / "rec.csv", index=False)
    held.to_csv(tmp_path / "held.csv", index=False)
    names = ["recall@5", "coverage@5"]
    status, out, err = _run(capsys, tmp_path / "rec.csv", tmp_path / "held.csv",
                            "--chunk-rows", 5, *_metric_args(names),
                            "--format", "json")
    assert status == 0, err
    expected = recommendation_report(rec.astype({"user": str}),
                                     held.astype({"user": str}),
                                     metrics=names, output="dict")
    assert json.loads(out)["metrics"] == pytest.approx(expected, abs=1e-12)


def test_errors(tmp_path, capsys):
    rec, held, _ = make_lists(seed=7)
    rec.to_csv(tmp_path / "rec.csv", index=False)
    held.to_csv(tmp_path / "held.csv", index=False)
    files = [tmp_path / "rec.csv", tmp_path / "held.csv"]
    status, out, err = _run(capsys, *files, "-m", "novelty@10")
    assert status == 2 and out == ""
    assert "novelty@K" in err and "--train FILE" in err
    status, _, err = _run(capsys, *files, "--item-col", "product")
    assert status == 2
    assert "rec.csv, line 1: no column 'product' (for --item-col)" in err
    status, _, err = _run(capsys, *files, "--relevance-col", "gain")
    assert status == 2 and "held.csv, line 1: no column 'gain'" in err
    status, _, err = _run(capsys, *files, "-m", "ndcg@x")
    assert status == 2 and "'ndcg@x' is not a recommendation metric name" in err
    pd.concat([rec, rec.iloc[:1]]).to_csv(tmp_path / "twice.csv", index=False)
    status, _, err = _run(capsys, tmp_path / "twice.csv", files[1])
    first = rec.iloc[0]
    assert status == 2 and (f"recommended repeats the (user, item) pair "
                            f"({first['user']!r}, {first['item']!r})") in err


def test_help_lists_the_metric_names(capsys):
    assert main(["evaluate-recommendations", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")
    for name, spec in METRICS.items():  # the metrics of an order, not log_loss
        listed = f" {name}@K" if spec.has_k else f" {name},"
        assert (listed in text) == (spec.scores == "order"), name
    for name in BEYOND:
        assert (f"{name}@K" in text) == (name != "ild")


def test_convention_and_intervals(tmp_path, capsys):
    rec, held, train = make_lists(seed=6, ids="int")
    held = held.drop(columns="relevance")
    paths = [tmp_path / f"{name}.csv" for name in ("rec", "held", "train")]
    for frame, path in zip((rec, held, train), paths):
        frame.to_csv(path, index=False)
    names = ["recall@3", "ndcg@3", "novelty@3", "coverage@3"]
    status, out, err = _run(capsys, paths[0], paths[1], "--train", paths[2],
                            *_metric_args(names), "--confidence", 0.9,
                            "--n-resamples", 50, "--seed", 3, "--format", "json")
    assert status == 0, err
    want = recommendation_report(rec, held, train=train, metrics=names,
                                 confidence=0.9, n_resamples=50, random_state=3,
                                 output="dict")
    got = json.loads(out)["metrics"]
    for name in ("recall@3", "ndcg@3", "novelty@3"):
        assert got[name] == pytest.approx(want[name]), name
    assert got["coverage@3"] == pytest.approx(want["coverage@3"])  # no interval
    status, out, _ = _run(capsys, paths[0], paths[1], "--train", paths[2],
                          *_metric_args(names), "--confidence", 0.9,
                          "--n-resamples", 50, "--seed", 3, "--format", "csv")
    rows = {r["metric"]: r for r in csv.DictReader(io.StringIO(out))}
    assert float(rows["recall@3"]["ci_low"]) == want["recall@3"]["ci_low"]
    assert rows["coverage@3"]["ci_low"] == ""
    ms = ["precision@3", "recall@3", "ndcg@3", "map@3"]
    status, out, err = _run(capsys, paths[0], paths[1], *_metric_args(ms),
                            "--convention", "ms_recommenders", "--format", "json")
    assert status == 0, err
    want = recommendation_report(rec, held, metrics=ms,
                                 convention="ms_recommenders", output="dict")
    assert json.loads(out)["metrics"] == pytest.approx(want)
    status, _, err = _run(capsys, paths[0], paths[1], "-m", "gini@3",
                          "--convention", "ms_recommenders")
    assert status == 2 and "gini@3" in err and "ms_recommenders" in err
