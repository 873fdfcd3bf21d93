"""What the Spark and Dask adapters share, tested without either engine."""

import subprocess
import sys

import numpy as np
import pytest

from sklearn_rankeval import RankingAccumulator, ranking_report
from sklearn_rankeval._distributed._partials import (
    check_columns,
    metric_plan,
    partial_columns,
    reduce_partials,
)
from tests._logs import ALL_METRICS, assert_report_equal, make_log


def test_import_does_not_import_the_engines():
    code = (
        "import sys\n"
        "import sklearn_rankeval, sklearn_rankeval.spark, sklearn_rankeval.dask\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pyspark', 'py4j', 'dask', 'distributed'))\n"
        "assert not bad, bad\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("module, extra", [("spark", "pyspark"), ("dask", "dask")])
def test_missing_engine_names_the_install_command(monkeypatch, module, extra):
    import importlib

    mod = importlib.import_module(f"sklearn_rankeval.{module}")
    monkeypatch.setitem(sys.modules, extra, None)  # import fails
    if extra == "dask":
        monkeypatch.setitem(sys.modules, "dask.dataframe", None)
    else:
        monkeypatch.setitem(sys.modules, "pyspark.sql", None)
    with pytest.raises(ImportError, match=rf'pip install "sklearn-rankeval\[{module}\]"'):
        mod.ranking_report(None, y_true="a", y_score="b", groups="c")


def test_partials_of_pieces_reduce_to_the_report():
    # partials of disjoint sets of whole groups, in shuffled order, reduce to
    # the in-memory report: what the engines send back from their partitions
    log = make_log(seed=21)
    names, pooled = metric_plan(ALL_METRICS, "user")
    users = log["user"].unique()
    rng = np.random.default_rng(0)
    pieces = np.array_split(rng.permutation(users), 4)
    columns = []
    for piece in pieces[::-1]:
        part = log[log["user"].isin(piece)]
        acc = RankingAccumulator(names).update(
            part["label"], part["score"], groups=part["user"],
            sample_weight=part["w_query"])
        columns.append(partial_columns(acc.partials(), names, pooled))
    merged = {key: np.concatenate([c[key] for c in columns]) for key in columns[0]}
    got = reduce_partials(merged, names, pooled)
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              sample_weight=log["w_query"], metrics=ALL_METRICS,
                              output="dict")
    assert_report_equal(got, expected)
    assert sum(pooled.values()) >= 1  # hit_rate@3 is pooled (micro)
    assert pooled["hit_rate@3"] and not pooled["mrr"]


def test_reduce_partials_empty():
    names, pooled = metric_plan(["mrr"], "user")
    cols = {"group": np.array([]), **{k: np.array([]) for k in
                                     ("n_items", "n_relevant", "weight",
                                      "query_weight", "item_macro_weight",
                                      "m0_value", "m0_defined")}}
    with pytest.raises(ValueError, match="y_score is empty"):
        reduce_partials(cols, names, pooled)


def test_check_columns():
    cols = ["user", "label", "score"]
    check_columns(cols, y_true="label", y_score="score", groups="user",
                  sample_weight=None)
    with pytest.raises(ValueError, match="y_true: the DataFrame has no column 'lbl'; "
                                         "its columns are 'user', 'label', 'score'"):
        check_columns(cols, y_true="lbl", y_score="score", groups="user")
    with pytest.raises(TypeError, match="y_score must be a column name"):
        check_columns(cols, y_true="label", y_score=None, groups="user")
