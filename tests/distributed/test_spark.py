"""sklearn_rankeval.spark on a real local Spark session (local[2], Arrow).

The values are compared with the in-memory functions on the same rows; the
session is small (4 shuffle partitions, 7-row Arrow batches) so that groups
are cut by batch boundaries and spread over partitions.  Each call below is
one Spark job: keep their number low (CI time).
"""

import os
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import per_group_scores, ranking_report
from sklearn_rankeval import recommendation_report as sr_recommendation_report
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
    make_lists,
    make_log,
)

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")

from sklearn_rankeval import spark as rk_spark  # noqa: E402

pytestmark = [
    # pyspark's own warnings under pandas 3 (not ours)
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support:FutureWarning"),
    pytest.mark.filterwarnings("ignore:The copy keyword is deprecated"),
]


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    # the Python workers must be this interpreter (the one with the package)
    os.environ["PYSPARK_PYTHON"] = sys.executable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = (
            SparkSession.builder.master("local[2]")
            .appName("sklearn_rankeval tests")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.default.parallelism", "4")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.sql.execution.arrow.maxRecordsPerBatch", "7")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture
def small_calls(monkeypatch):
    """One engine call per 7-row Arrow batch: groups are cut between calls."""
    monkeypatch.setattr(rk_spark, "_ROWS_PER_CALL", 1)


def _sdf(spark, frame, n_partitions=5):
    return spark.createDataFrame(frame).repartition(n_partitions)


@pytest.mark.parametrize("ids, weight, metrics", [
    ("str", "w_query", ALL_METRICS),
    ("int", "w_item", ITEM_WEIGHT_METRICS),
    ("clicks", "w_item", PROBABILITY_METRICS + ["gauc", "xauc"]),
])
def test_report_and_frame_equal_in_memory(spark, small_calls, ids, weight, metrics):
    log = make_log(seed=1, ids="str" if ids == "clicks" else ids,
                   clicks=ids == "clicks")
    sdf = _sdf(spark, log)
    kwargs = dict(y_true="label", y_score="score", groups="user",
                  sample_weight=weight, metrics=metrics)
    got = rk_spark.ranking_report(sdf, **kwargs)
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              sample_weight=log[weight], metrics=metrics,
                              output="dict")
    assert_report_equal(got, expected)
    frame = rk_spark.per_group_scores(sdf, **kwargs)
    assert frame.columns == ["user", "n_items", "n_relevant", "weight", *metrics]
    expected_frame = per_group_scores(log["label"], log["score"], groups=log["user"],
                                      sample_weight=log[weight], metrics=metrics)
    assert_frame_equal(frame.toPandas(), expected_frame, "user")


def test_default_metrics_batched_calls_and_empty_partitions(spark):
    # the default _ROWS_PER_CALL (Arrow batches concatenated); 3 groups in 8
    # shuffle partitions (empty partitions), unweighted, default metrics
    log = make_log(seed=2, n_groups=3, big_group=40)
    spark.conf.set("spark.sql.shuffle.partitions", "8")
    try:
        got = rk_spark.ranking_report(_sdf(spark, log, 3), y_true="label",
                                      y_score="score", groups="user")
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", "4")
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              output="dict")
    assert_report_equal(got, expected)
    assert got["mrr"] != ranking_report(log["label"], log["score"],
                                        output="dict")["mrr"]


@pytest.mark.parametrize("column, value, match", [
    ("score", np.nan, "y_score contains NaN"),
    ("w_item", None, "constant within"),
])
def test_bad_data_raises_on_driver(spark, column, value, match):
    log = make_log(seed=3, n_groups=5, big_group=10)
    weight = "w_query"
    if column == "score":
        log.loc[4, "score"] = value
    else:
        weight = "w_item"  # varies within a group: not a query weight
    with pytest.raises(ValueError, match=match):
        rk_spark.ranking_report(_sdf(spark, log, 2), y_true="label",
                                y_score="score", groups="user",
                                sample_weight=weight, metrics=["gauc", "mrr"])


def test_null_group_id_is_an_error(spark):
    log = make_log(seed=4, n_groups=4, big_group=6)[["user", "label", "score"]]
    log = log.astype({"user": object})
    log.loc[2, "user"] = None
    with pytest.raises(ValueError, match="groups contains missing values"):
        rk_spark.ranking_report(_sdf(spark, log, 2), y_true="label",
                                y_score="score", groups="user", metrics=["mrr"])


def test_bad_arguments(spark):
    log = make_log(seed=5, n_groups=3, big_group=4)
    sdf = spark.createDataFrame(log)
    kwargs = dict(y_true="label", y_score="score", groups="user")
    with pytest.raises(ValueError, match=r"y_score: .*'scores'.*'label', 'score'"):
        rk_spark.ranking_report(sdf, **{**kwargs, "y_score": "scores"})
    with pytest.raises(ValueError, match="sample_weight: .*'weight'"):
        rk_spark.per_group_scores(sdf, **kwargs, sample_weight="weight")
    with pytest.raises(TypeError, match="y_score: column 'user' has type string"):
        rk_spark.ranking_report(sdf, **{**kwargs, "y_score": "user"})
    with pytest.raises(TypeError, match="groups must be a column name"):
        rk_spark.ranking_report(sdf, **{**kwargs, "groups": 3})
    with pytest.raises(TypeError, match="df must be a pyspark.sql.DataFrame"):
        rk_spark.ranking_report(log, **kwargs)
    with pytest.raises(ValueError, match="metrics: 'ndcg@x' is not"):
        rk_spark.ranking_report(sdf, **kwargs, metrics=["ndcg@x"])
    with pytest.raises(ValueError, match="convention must be one of"):
        rk_spark.ranking_report(sdf, **kwargs, convention="lgbm")
    with pytest.raises(ValueError, match=r"convention='lightgbm'.*'mrr'"):
        rk_spark.per_group_scores(sdf, **kwargs, metrics=["mrr"],
                                 convention="lightgbm")
    # trec_eval breaks ties by docno, which a frame's function is not given
    with pytest.raises(ValueError, match=r"convention='trec_eval'.*docno"):
        rk_spark.ranking_report(sdf, **kwargs, metrics=["map"],
                               convention="trec_eval")
    with pytest.raises(ValueError, match="groups: the group column 'mrr'"):
        rk_spark.per_group_scores(sdf.withColumnRenamed("user", "mrr"),
                                  **{**kwargs, "groups": "mrr"}, metrics=["mrr"])


def test_per_group_scores_is_lazy(spark):
    # bad data: the frame is built (no job), the action fails with the message
    log = make_log(seed=6, n_groups=3, big_group=4)[["user", "label", "score"]]
    log.loc[0, "score"] = np.nan
    frame = rk_spark.per_group_scores(spark.createDataFrame(log), y_true="label",
                                      y_score="score", groups="user",
                                      metrics=["mrr"])
    assert isinstance(frame, type(spark.createDataFrame(pd.DataFrame({"a": [1]}))))
    with pytest.raises(Exception, match="y_score contains NaN"):
        frame.collect()


def test_cli_evaluate_engine_spark(spark, tmp_path, capsys):
    check_cli_engine("spark", tmp_path, capsys, str)  # a folder of Parquet files


@pytest.mark.parametrize("convention, weight", [
    ("lightgbm", None),       # ties in input order, undefined = 1, MAP's mean weight
    ("torchmetrics", "w_query"),  # two rankings: NDCG and GAUC average ties
    ("recbole", "w_query"),   # GAUC weighted by positives
])
def test_convention_equals_in_memory(spark, convention, weight):
    # tied items in the frame's order: createDataFrame keeps the log's (no repartition), and the shuffle must not change it
    log = make_log(seed=16)
    w = None if weight is None else log[weight]
    metrics = convention_metrics(convention, log["label"], log["score"],
                                 log["user"], w)
    sdf = spark.createDataFrame(log)
    kwargs = dict(y_true="label", y_score="score", groups="user",
                  sample_weight=weight, metrics=metrics, convention=convention)
    got = rk_spark.ranking_report(sdf, **kwargs)
    expected = ranking_report(log["label"], log["score"], groups=log["user"],
                              sample_weight=w, metrics=metrics, output="dict",
                              convention=convention)
    assert_report_equal(got, expected)
    assert got != ranking_report(log["label"], log["score"], groups=log["user"],
                                 sample_weight=w, metrics=metrics, output="dict")
    frame = rk_spark.per_group_scores(sdf, **kwargs)
    expected_frame = per_group_scores(log["label"], log["score"], groups=log["user"],
                                      sample_weight=w, metrics=metrics,
                                      convention=convention)
    assert_frame_equal(frame.toPandas(), expected_frame, "user")


#: Every beyond-accuracy metric computed in Spark, at two cutoffs.
BEYOND_METRICS = [f"{name}@{kk}" for kk in (3, 5) for name in
                  ("coverage", "gini", "entropy", "novelty", "arp", "long_tail")]


@pytest.mark.parametrize("ids, users, score, output", [
    ("str", "held_out", "score", "dict"),
    ("int", "union", None, "frame"),       # the row order is the rank
    ("str", "recommended", "score", "text"),
])
def test_recommendation_report_equals_in_memory(spark, small_calls, ids, users,
                                                score, output):
    # ties at the cut, users without lists or held-out items, graded gains;
    # one engine call per Arrow batch: users cut by batch boundaries
    rec, held, train = make_lists(seed=7, ids=ids)
    if score is None:
        rec = rec.drop(columns="score")
    metrics = ALL_METRICS + BEYOND_METRICS
    # no repartition of the lists without a score: their order is the rank
    df_rec = spark.createDataFrame(rec)
    if score is not None:
        df_rec = df_rec.repartition(3)
    # Spark's default output is the in-memory default, the text table
    got = rk_spark.recommendation_report(
        df_rec, _sdf(spark, held, 2), train=_sdf(spark, train, 2), metrics=metrics,
        users=users, **({} if output == "text" else {"output": output}))
    expected = sr_recommendation_report(rec, held, train=train, metrics=metrics,
                                        users=users, output=output)
    if output == "text":
        assert got == expected  # the values to 4 places, the catalog size
        got = rk_spark.recommendation_report(
            df_rec, _sdf(spark, held, 2), metrics=["ndcg@3", "coverage@5"],
            users=users, n_items=40, output="dict")
        expected = sr_recommendation_report(rec, held, metrics=["ndcg@3",
                                            "coverage@5"], users=users,
                                            n_items=40, output="dict")
    elif output == "frame":
        assert list(got.columns) == ["metric", "value", "n_users"]
        assert list(got["n_users"]) == list(expected["n_users"])
        assert got.attrs == expected.attrs  # n_items, n_users as counted
        got = dict(zip(got["metric"], got["value"]))
        expected = dict(zip(expected["metric"], expected["value"]))
    assert_report_equal(got, expected)


def test_recommendation_report_bad_input(spark):
    rec, held, _ = make_lists(seed=8, n_users=4, n_items=8)
    df_rec, df_held = spark.createDataFrame(rec), spark.createDataFrame(held)
    with pytest.raises(ValueError, match="df_held has no column 'gain'"):
        rk_spark.recommendation_report(df_rec, df_held, relevance="gain")
    with pytest.raises(ValueError, match="df_rec has no column 'uid'"):
        rk_spark.recommendation_report(df_rec, df_held, user="uid")
    with pytest.raises(ValueError, match="need train="):
        rk_spark.recommendation_report(df_rec, df_held, metrics=["novelty@3"])
    with pytest.raises(ValueError, match="ild@K is not computed"):
        rk_spark.recommendation_report(df_rec, df_held, metrics=["ild@3"])
    with pytest.raises(TypeError, match="df_rec must be a pyspark.sql.DataFrame"):
        rk_spark.recommendation_report(rec, df_held)
    with pytest.raises(TypeError, match="the score column 'user' must hold numbers"):
        rk_spark.recommendation_report(df_rec, df_held, score="user")
    with pytest.raises(ValueError, match="output must be one of"):
        rk_spark.recommendation_report(df_rec, df_held, output="per_user")
    # the in-memory message, from the partition that holds the pair
    twice = spark.createDataFrame(pd.concat([rec, rec.iloc[:1]]))
    user, item = rec.iloc[0][["user", "item"]]
    with pytest.raises(ValueError, match=rf"recommended repeats the \(user, item\) "
                                         rf"pair \('{user}', '{item}'\)"):
        rk_spark.recommendation_report(twice, df_held)
    with pytest.raises(ValueError, match="the user ids of df_rec are string, "
                                         "df_held are bigint"):
        rk_spark.recommendation_report(
            df_rec, spark.createDataFrame(held.assign(user=range(len(held)))))


def _spark_report(spark, n_partitions=5):
    def run(log, **kwargs):
        return rk_spark.counterfactual_report(_sdf(spark, log, n_partitions), **kwargs)

    return run


@pytest.mark.parametrize("case", CLICK_CASES, ids=[c[0] for c in CLICK_CASES])
def test_counterfactual_report_equals_in_memory(spark, small_calls, case):
    # one engine call per 7-row Arrow batch: impressions cut between calls,
    # each call's gains computed in the partition; ties and -inf scores
    check_click_report(_spark_report(spark), *case)


@pytest.mark.parametrize("bad", ["clicks", "beyond", "position", "repeated"])
def test_counterfactual_report_bad_data_gives_the_in_memory_message(spark, bad):
    check_click_bad_data(_spark_report(spark, 3), bad)


def test_counterfactual_report_bad_arguments(spark):
    log = make_click_log(seed=23, n_impressions=4, ids="str")
    sdf = spark.createDataFrame(log)
    kwargs = dict(CLICK_COLUMNS, propensities=CLICK_THETA)
    for change, error, match in CLICK_BAD_ARGUMENTS:
        with pytest.raises(error, match=match):
            rk_spark.counterfactual_report(sdf, **{**kwargs, **change})
    with pytest.raises(TypeError, match="has type string; a numeric or boolean"):
        rk_spark.counterfactual_report(sdf, **{**kwargs, "clicks": "impression"})
    with pytest.raises(TypeError, match="df must be a pyspark.sql.DataFrame"):
        rk_spark.counterfactual_report(log, **kwargs)


def test_the_spark_extra_pins_a_pandas_pyspark_does_not_warn_about():
    # PySpark (3.4 to 4.x) warns "does not yet fully support pandas >= 3.0.0"
    # on every call: `pip install "sklearn-rankeval[spark]"` resolves pandas < 3
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

    from packaging.requirements import Requirement

    root = Path(__file__).resolve().parents[2]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    (pandas,) = [Requirement(r) for r in extras["spark"]
                 if Requirement(r).name == "pandas"]
    assert "2.3.3" in pandas.specifier and "3.0.0" not in pandas.specifier
    assert "3.1.1" not in pandas.specifier


def test_compare_rankings_from_spark_per_group_frames(spark):
    # issue 38: the designs from Spark's per-group frames give the numbers of
    # the rows (all pairs, effect sizes, equivalence), through the partials
    from sklearn_rankeval import compare_rankings

    rng = np.random.default_rng(38)
    g = np.repeat([f"u{i:02d}" for i in range(40)], 6)
    y = (rng.random(g.size) < 0.35).astype(int)
    scores = {"A": rng.random(g.size)}
    scores["B"] = scores["A"] + 0.3 * y + rng.normal(0, 0.1, g.size)
    scores["C"] = rng.random(g.size)
    sdf = _sdf(spark, pd.DataFrame({"user": g, "label": y, **scores}))
    frames = {m: rk_spark.per_group_scores(sdf, y_true="label", y_score=m,
                                           groups="user", metrics=["mrr", "gauc"])
              for m in scores}
    for kw in (dict(design="all_pairs", test="tukey_hsd"),
               dict(test="t", equivalence=0.05)):
        kw.update(metrics=["mrr", "gauc"], n_resamples=200, random_state=0,
                  output="frame")
        got = compare_rankings(None, frames, **kw)
        want = compare_rankings(y, scores, groups=g, **kw)
        numeric = want.select_dtypes("number").columns
        np.testing.assert_allclose(got[numeric].to_numpy(float),
                                   want[numeric].to_numpy(float), rtol=1e-12,
                                   equal_nan=True)


# ---------------------------------------------------------------------------
# grades per intent (diversity) and sampled rankings (exposure)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("layout", ["columns", "array"])
def test_diversity_grades_per_intent_equal_the_functions(spark, small_calls, layout):
    """Grades per intent as one column per intent or one array<double>
    column, with each query's intent weights; queries cut by the 7-row
    batches and spread over partitions: the in-memory functions' values."""
    log = make_intent_log(seed=3)
    frame = log[0]
    if layout == "columns":
        y_true = [f"i{j}" for j in range(N_INTENTS)]
        weights = [f"w{j}" for j in range(N_INTENTS)]
        sdf = _sdf(spark, frame.drop(columns=["grades", "weights"]))
    else:
        y_true, weights = "grades", "weights"
        sdf = _sdf(spark, frame[["query", "score", "grades", "weights"]])
    names = list(DIVERSITY_METRICS)
    expected = diversity_expected(log, names)
    got = rk_spark.ranking_report(sdf, y_true=y_true, y_score="score", groups="query",
                                  metrics=names, intent_weights=weights)
    assert_report_equal(got, expected)
    per = diversity_expected(log, names, per_group=True)
    rows = rk_spark.per_group_scores(
        sdf, y_true=y_true, y_score="score", groups="query", metrics=names,
        intent_weights=weights).toPandas().sort_values("query")
    for name in names:
        np.testing.assert_allclose(rows[name].to_numpy(float), per[name],
                                   rtol=0, atol=1e-12, err_msg=name)


@pytest.mark.parametrize("item_groups", [["provider"], ["provider", "region"]])
def test_exposure_sampled_rankings_equal_the_functions(spark, small_calls,
                                                      item_groups):
    """Several sampled rankings per query (rows shuffled, cut by the 7-row
    batches): the shuffle by query keeps them together; by one item-group
    column or two (their intersections)."""
    frame = make_exposure_log(seed=4)
    sdf = _sdf(spark, frame)
    names = list(EXPOSURE_METRICS)
    got = rk_spark.ranking_report(
        sdf, y_true="relevance", y_score="score", groups="query", metrics=names,
        samples="sample", items="item",
        item_groups=item_groups if len(item_groups) > 1 else item_groups[0])
    assert_report_equal(got, exposure_expected(frame, names, item_groups))
    if len(item_groups) == 1:
        rows = rk_spark.per_group_scores(
            sdf, y_true="relevance", y_score="score", groups="query",
            metrics=["expected_exposure"], samples="sample", items="item",
            item_groups="provider").toPandas().sort_values("query")
        want = exposure_expected(frame, ["expected_exposure"], item_groups,
                                 per_group=True)["expected_exposure"]
        np.testing.assert_allclose(rows["expected_exposure"].to_numpy(float), want,
                                   rtol=0, atol=1e-12)


def test_diversity_and_exposure_bad_columns(spark):
    log = make_intent_log(seed=5, n_groups=4)[0]
    sdf = spark.createDataFrame(log[["query", "score", "i0", "grades"]])
    with pytest.raises(ValueError, match="y_true: the DataFrame has no column 'i9'"):
        rk_spark.ranking_report(sdf, y_true=["i0", "i9"], y_score="score",
                                groups="query", metrics=["alpha_ndcg@5"])
    with pytest.raises(TypeError, match="y_true"):
        rk_spark.ranking_report(sdf, y_true=[], y_score="score", groups="query",
                                metrics=["alpha_ndcg@5"])
    # a list names one numeric column per intent
    with pytest.raises(TypeError, match="y_true: column 'grades' has type array"):
        rk_spark.ranking_report(sdf, y_true=["grades", "i0"], y_score="score",
                                groups="query", metrics=["alpha_ndcg@5"])
    with pytest.raises(TypeError, match="samples: column 'grades' has type"):
        rk_spark.ranking_report(sdf, y_true="i0", y_score="score", groups="query",
                                metrics=["expected_exposure"], samples="grades")
    ragged = spark.createDataFrame([("a", 1.0, [1.0, 0.0]), ("a", 0.5, [1.0])],
                                   ["query", "score", "grades"])
    with pytest.raises(ValueError, match="y_true: column .* an array of one length"):
        rk_spark.ranking_report(ragged, y_true="grades", y_score="score",
                                groups="query", metrics=["alpha_ndcg@5"])
