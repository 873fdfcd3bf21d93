"""sklearn_rankeval.dask on a real local cluster (2 worker processes).

The partials cross process boundaries (pickled), as on a real cluster.  The
values are compared with the in-memory functions on the same rows.
"""

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import per_group_scores, ranking_report
from tests._logs import (
    ALL_METRICS,
    CLICK_BAD_ARGUMENTS,
    CLICK_CASES,
    CLICK_COLUMNS,
    CLICK_THETA,
    DIVERSITY_METRICS,
    EXPOSURE_METRICS,
    ITEM_WEIGHT_METRICS,
    N_INTENTS,
    PROBABILITY_METRICS,
    assert_frame_equal,
    assert_report_equal,
    check_cli_engine,
    check_click_bad_data,
    check_click_report,
    convention_metrics,
    diversity_expected,
    exposure_expected,
    make_click_log,
    make_exposure_log,
    make_intent_log,
    make_log,
)

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

from sklearn_rankeval import dask as rk_dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


@pytest.mark.parametrize("ids, weight, metrics, n_partitions", [
    ("str", "w_query", ALL_METRICS, 7),
    ("int", "w_item", ITEM_WEIGHT_METRICS, 3),
    ("category", None, None, 5),
    ("clicks", "w_item", PROBABILITY_METRICS + ["gauc", "xauc"], 4),
])
def test_report_and_frame_equal_in_memory(client, ids, weight, metrics,
                                          n_partitions):
    log = make_log(seed=11, ids="int" if ids == "int" else "str",
                   clicks=ids == "clicks")
    if ids == "category":
        log["user"] = log["user"].astype("category")
    ddf = dd.from_pandas(log, npartitions=n_partitions)
    kwargs = dict(y_true="label", y_score="score", groups="user",
                  sample_weight=weight, metrics=metrics)
    got = rk_dask.ranking_report(ddf, **kwargs)
    w = None if weight is None else log[weight]
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              sample_weight=w, metrics=metrics, output="dict")
    assert_report_equal(got, expected)
    frame = rk_dask.per_group_scores(ddf, **kwargs)
    assert isinstance(frame, dd.DataFrame)
    expected_frame = per_group_scores(log["label"], log["score"], groups=log["user"],
                                      sample_weight=w, metrics=metrics)
    computed = frame.compute()
    if ids == "category":
        computed["user"] = computed["user"].astype(str)
        expected_frame.index = expected_frame.index.astype(str)
    assert_frame_equal(computed, expected_frame, "user")


def test_more_partitions_than_groups(client):
    # 3 groups in 8 partitions: empty partitions after the shuffle
    log = make_log(seed=12, n_groups=3, big_group=40)
    ddf = dd.from_pandas(log, npartitions=8)
    got = rk_dask.ranking_report(ddf, y_true="label", y_score="score",
                                 groups="user", metrics=["gauc", "mrr", "ndcg@3"])
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              metrics=["gauc", "mrr", "ndcg@3"], output="dict")
    assert_report_equal(got, expected)


@pytest.mark.parametrize("column, match", [
    ("score", "y_score contains NaN"),
    ("user", "groups contains missing values"),
    ("w_item", "constant within"),
])
def test_bad_data(client, column, match):
    log = make_log(seed=13, n_groups=5, big_group=10)
    weight = "w_query"
    if column == "score":
        log.loc[4, "score"] = np.nan
    elif column == "user":
        log.loc[4, "user"] = None
    else:
        weight = "w_item"  # varies within a group: not a query weight
    ddf = dd.from_pandas(log, npartitions=2)
    with pytest.raises(ValueError, match=match):
        rk_dask.ranking_report(ddf, y_true="label", y_score="score",
                               groups="user", sample_weight=weight,
                               metrics=["gauc", "mrr"])


def test_bad_arguments():
    log = make_log(seed=14, n_groups=3, big_group=4)
    ddf = dd.from_pandas(log, npartitions=2)
    kwargs = dict(y_true="label", y_score="score", groups="user")
    with pytest.raises(ValueError, match=r"y_true: .*'clicks'.*'label', 'score'"):
        rk_dask.ranking_report(ddf, **{**kwargs, "y_true": "clicks"})
    with pytest.raises(ValueError, match="groups: .*'query'"):
        rk_dask.per_group_scores(ddf, **{**kwargs, "groups": "query"})
    with pytest.raises(TypeError, match="y_score: column 'user' has dtype"):
        rk_dask.ranking_report(ddf, **{**kwargs, "y_score": "user"})
    with pytest.raises(TypeError, match="sample_weight must be a column name"):
        rk_dask.ranking_report(ddf, **kwargs, sample_weight=log["w_item"])
    with pytest.raises(TypeError, match="ddf must be a dask.dataframe.DataFrame"):
        rk_dask.ranking_report(log, **kwargs)
    with pytest.raises(ValueError, match="metrics: 'ndcg@x' is not"):
        rk_dask.per_group_scores(ddf, **kwargs, metrics=["ndcg@x"])
    with pytest.raises(ValueError, match="convention must be one of"):
        rk_dask.ranking_report(ddf, **kwargs, convention="lgbm")
    with pytest.raises(ValueError, match=r"convention='lightgbm'.*'mrr'"):
        rk_dask.per_group_scores(ddf, **kwargs, metrics=["mrr"],
                                 convention="lightgbm")
    # trec_eval breaks ties by docno, which a frame's function is not given
    with pytest.raises(ValueError, match=r"convention='trec_eval'.*docno"):
        rk_dask.ranking_report(ddf, **kwargs, metrics=["map"],
                               convention="trec_eval")


def test_per_group_scores_meta():
    log = make_log(seed=15, n_groups=3, big_group=4)
    ddf = dd.from_pandas(log, npartitions=2)
    frame = rk_dask.per_group_scores(ddf, y_true="label", y_score="score", groups="user",
                                     metrics=["mrr", "ndcg@3"])
    assert list(frame.columns) == ["user", "n_items", "n_relevant", "weight",
                                   "mrr", "ndcg@3"]
    assert frame.dtypes["n_items"] == np.int64
    assert frame.dtypes["ndcg@3"] == np.float64
    assert frame.dtypes["user"] == ddf.dtypes["user"]
    assert isinstance(frame._meta, pd.DataFrame) and len(frame._meta) == 0


def test_cli_evaluate_engine_dask(client, tmp_path, capsys):
    check_cli_engine("dask", tmp_path, capsys, lambda folder: str(folder / "*.parquet"))


def _reordering_shuffle():
    return dask.config.set({"dataframe.shuffle.method": "disk",
                            "scheduler": "sync"})


@pytest.mark.parametrize("convention, weight", [
    ("lightgbm", None),       # ties in input order, undefined = 1, MAP's mean weight
    ("torchmetrics", "w_query"),  # two rankings: NDCG and GAUC average ties
    ("recbole", "w_query"),   # GAUC weighted by positives
])
def test_convention_equals_in_memory(convention, weight):
    # tied items in the frame's order: dd.from_pandas keeps the log's, and the shuffle must not change it
    log = make_log(seed=16)
    w = None if weight is None else log[weight]
    metrics = convention_metrics(convention, log["label"], log["score"],
                                 log["user"], w)
    sdf = dd.from_pandas(log, npartitions=5)
    kwargs = dict(y_true="label", y_score="score", groups="user",
                  sample_weight=weight, metrics=metrics, convention=convention)
    # the disk-based shuffle, run here in this process, moves rows of a
    # group out of their order (the cluster's p2p shuffle happens to keep it)
    with _reordering_shuffle():
        got = rk_dask.ranking_report(sdf, **kwargs)
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              sample_weight=w, metrics=metrics, output="dict",
                              convention=convention)
    assert_report_equal(got, expected)
    assert got != ranking_report(log["label"], log["score"], groups=log["user"],
                                 sample_weight=w, metrics=metrics, output="dict")
    with _reordering_shuffle():
        frame = rk_dask.per_group_scores(sdf, **kwargs).compute()
    expected_frame = per_group_scores(log["label"], log["score"], groups=log["user"],
                                      sample_weight=w, metrics=metrics,
                                      convention=convention)
    assert_frame_equal(frame, expected_frame, "user")


def _dask_report(n_partitions):
    def run(log, **kwargs):
        return rk_dask.counterfactual_report(
            dd.from_pandas(log, npartitions=n_partitions), **kwargs)

    return run


@pytest.mark.parametrize("case", CLICK_CASES, ids=[c[0] for c in CLICK_CASES])
def test_counterfactual_report_equals_in_memory(client, case):
    # the gains computed in the worker processes; ties and -inf scores
    check_click_report(_dask_report(4), *case)


@pytest.mark.parametrize("bad", ["clicks", "beyond", "position", "repeated"])
def test_counterfactual_report_bad_data_gives_the_in_memory_message(client, bad):
    check_click_bad_data(_dask_report(3), bad)


def test_counterfactual_report_bad_arguments():
    log = make_click_log(seed=23, n_impressions=4, ids="str")
    ddf = dd.from_pandas(log, npartitions=2)
    kwargs = dict(CLICK_COLUMNS, propensities=CLICK_THETA)
    for change, error, match in CLICK_BAD_ARGUMENTS:
        with pytest.raises(error, match=match):
            rk_dask.counterfactual_report(ddf, **{**kwargs, **change})
    with pytest.raises(TypeError, match="ddf must be a dask.dataframe.DataFrame"):
        rk_dask.counterfactual_report(log, **kwargs)


# ---------------------------------------------------------------------------
# grades per intent (diversity) and sampled rankings (exposure)
# ---------------------------------------------------------------------------
def test_diversity_grades_per_intent_equal_the_functions(client):
    """Grades per intent as one column per intent, each query's intent
    weights as one column per intent; rows shuffled over 6 partitions."""
    log = make_intent_log(seed=6)
    frame = log[0].drop(columns=["grades", "weights"])
    ddf = dd.from_pandas(frame, npartitions=6)
    names = list(DIVERSITY_METRICS)
    kwargs = dict(y_true=[f"i{j}" for j in range(N_INTENTS)], y_score="score",
                  groups="query", metrics=names,
                  intent_weights=[f"w{j}" for j in range(N_INTENTS)])
    assert_report_equal(rk_dask.ranking_report(ddf, **kwargs),
                        diversity_expected(log, names))
    rows = rk_dask.per_group_scores(ddf, **kwargs).compute().sort_values("query")
    per = diversity_expected(log, names, per_group=True)
    for name in names:
        np.testing.assert_allclose(rows[name].to_numpy(float), per[name],
                                   rtol=0, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("item_groups", [["provider"], ["provider", "region"]])
def test_exposure_sampled_rankings_equal_the_functions(client, item_groups):
    """A query's sampled rankings, spread over 5 partitions before the
    shuffle by query, are evaluated together."""
    frame = make_exposure_log(seed=7)
    ddf = dd.from_pandas(frame, npartitions=5)
    names = list(EXPOSURE_METRICS)
    got = rk_dask.ranking_report(
        ddf, y_true="relevance", y_score="score", groups="query", metrics=names,
        samples="sample", items="item",
        item_groups=item_groups if len(item_groups) > 1 else item_groups[0])
    assert_report_equal(got, exposure_expected(frame, names, item_groups))
    per = rk_dask.per_group_scores(
        ddf, y_true="relevance", y_score="score", groups="query", metrics=names,
        samples="sample", items="item", item_groups=item_groups[0],
    ).compute().sort_values("query")
    want = exposure_expected(frame, names, item_groups[:1], per_group=True)
    np.testing.assert_allclose(per["expected_exposure"].to_numpy(float),
                               want["expected_exposure"], rtol=0, atol=1e-12)


def test_diversity_and_exposure_bad_columns():
    frame = make_intent_log(seed=8, n_groups=4)[0]
    ddf = dd.from_pandas(frame[["query", "score", "i0", "i1", "w0"]], npartitions=2)
    with pytest.raises(ValueError, match="intent_weights: the DataFrame has no "
                                         "column 'w9'"):
        rk_dask.ranking_report(ddf, y_true=["i0", "i1"], y_score="score",
                               groups="query", metrics=["alpha_ndcg@5"],
                               intent_weights=["w0", "w9"])
    with pytest.raises(TypeError, match="item_groups must be a column name"):
        rk_dask.ranking_report(ddf, y_true="i0", y_score="score", groups="query",
                               metrics=["awrf"], item_groups=[1])
    with pytest.raises(TypeError, match="intent_weights: column 'query' has dtype"):
        rk_dask.ranking_report(ddf, y_true=["i0", "i1"], y_score="score",
                               groups="query", metrics=["alpha_ndcg@5"],
                               intent_weights=["query", "i1"])
