"""The counterfactual report over partials, without an engine: partitions
of whole impressions, cut into pieces as Spark's Arrow batches cut them,
reduce to the in-memory report on all the rows; the checks of the pieces
raise the in-memory message of the whole log."""

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval._distributed import (
    click_partials,
    click_plan,
    concat_partial_columns,
    partial_columns,
    reduce_clicks,
)
from tests._logs import (
    CLICK_METRICS,
    CLICK_THETA,
    assert_report_equal,
    click_report,
    make_click_log,
)


def _engine_report(log, partition, *, piece=5, weighted=False, **kwargs):
    """What an engine computes: the rows of each partition (``partition``:
    one number per row, constant within an impression) sorted by
    impression and cut every ``piece`` rows, their partials and checks, the
    driver's reduction."""
    plan = click_plan(kwargs.pop("metrics", None),
                      estimator=kwargs.pop("estimator", "ips"),
                      clip=kwargs.pop("clip", None),
                      propensities=kwargs.pop("propensities"),
                      output=kwargs.pop("output", "dict"))
    assert not kwargs
    columns, texts = [], []
    for number in np.unique(partition):
        part = log[partition == number].sort_values("impression", kind="stable")
        rows = {name: part[name].to_numpy() for name in part.columns}
        pieces = [tuple(None if name is None else rows[name][lo:lo + piece]
                        for name in ("clicked", "score", "position", "impression",
                                     "weight" if weighted else None))
                  for lo in range(0, len(part), piece)]
        state, checks = click_partials(pieces, plan, group_rows="sorted")
        texts.append(checks.to_json())
        if state is not None:
            columns.append(partial_columns(state, plan.names, plan.pooled))
    return reduce_clicks(concat_partial_columns(columns), texts, plan)


def _partitions(log, n=3):
    """A partition number per row: whole impressions, hashed."""
    codes = pd.factorize(log["impression"], sort=True)[0]
    return codes * 7 % n


@pytest.mark.parametrize("estimator", ["ips", "snips", "naive"])
@pytest.mark.parametrize("weighted, clip", [(False, None), (True, 2.5)])
def test_partitions_cut_in_pieces_give_the_in_memory_report(estimator, weighted,
                                                            clip):
    log = make_click_log(seed=31, ids="str")
    kwargs = dict(propensities=CLICK_THETA, metrics=CLICK_METRICS[estimator],
                  estimator=estimator, clip=clip)
    got = _engine_report(log, _partitions(log), weighted=weighted, **kwargs)
    assert_report_equal(got, click_report(log, weighted, **kwargs))
    # the pieces cut impressions: with one piece per partition, the same
    assert_report_equal(_engine_report(log, _partitions(log), piece=len(log),
                                       weighted=weighted, **kwargs), got)


def test_frame_output_counts_the_impressions_where_defined():
    log = make_click_log(seed=32)
    kwargs = dict(propensities=CLICK_THETA, metrics=CLICK_METRICS["snips"],
                  estimator="snips", output="frame")
    got = _engine_report(log, _partitions(log), **kwargs)
    expected = click_report(log, **kwargs)
    assert list(got.columns) == ["metric", "value", "n_groups"]
    clicked = log.groupby("impression")["clicked"].max()
    # impressions with a click (SNIPS pools them; the others add nothing)
    assert list(got["n_groups"]) == [int(clicked.sum())] * 2
    assert list(got["n_groups"]) == list(expected["n_groups"])
    np.testing.assert_allclose(got["value"], expected["value"], rtol=0, atol=1e-12)


def _bad_log(case):
    """A log whose bad rows sit in different partitions (0, 1 and 2)."""
    log = make_click_log(seed=33, n_impressions=12)
    part = _partitions(log)
    first = {p: np.flatnonzero(part == p) for p in range(3)}
    propensities = CLICK_THETA
    log = log.astype({"score": float, "clicked": np.int64})
    if case == "clicks":  # partitions 0 and 1 see no 1 and one bad value each:
        # the 1 of the message comes from partition 2, whose clicks pass
        log.loc[np.concatenate([first[0], first[1]]), "clicked"] = 0
        log.loc[first[0][0], "clicked"] = 3
        log.loc[first[1][0], "clicked"] = 2
    elif case == "beyond":  # rows beyond the propensities in every partition
        propensities = CLICK_THETA[:5]
    elif case == "clicks before scores":  # the in-memory order of the checks
        log.loc[first[0][0], "score"] = np.nan
        log.loc[first[2][0], "clicked"] = 2
    elif case == "positions before scores, one partition":
        rows = first[1][np.argsort(log["impression"].to_numpy()[first[1]],
                                   kind="stable")]
        log.loc[rows[0], "score"] = np.nan  # the first piece
        log.loc[rows[-1], "position"] = 0  # the last piece
    elif case in ("repeated across a cut", "repeated before the ids"):
        # every row of one impression of partition 1 at position 1: its 8
        # rows span two pieces of 5; and one impression of partition 2 with
        # position 2 twice.  Two impressions, each counted once.
        for p, rows in ((1, 8), (2, 2)):
            ids = log["impression"].to_numpy()[first[p]]
            target = np.sort(ids)[5]  # cut by the first piece's end
            at = np.flatnonzero(log["impression"].to_numpy() == target)[:rows]
            log.loc[at, "position"] = p
        if case == "repeated before the ids":
            log = log.astype({"impression": float})
            log.loc[first[0][0], "impression"] = np.nan
    elif case == "beyond before the ids":
        log = log.astype({"impression": float})
        log.loc[first[0][0], "impression"] = np.nan
        propensities = CLICK_THETA[:7]
    return log, part, propensities


@pytest.mark.parametrize("case", [
    "clicks", "beyond", "clicks before scores",
    "positions before scores, one partition", "beyond before the ids",
    "repeated across a cut", "repeated before the ids",
])
def test_checks_of_the_pieces_raise_the_whole_logs_message(case):
    log, part, propensities = _bad_log(case)
    with pytest.raises(ValueError) as expected:
        click_report(log, propensities=propensities)
    with pytest.raises(ValueError) as got:
        _engine_report(log, part, propensities=propensities)
    assert str(got.value) == str(expected.value)
    if case == "clicks":
        assert "got the values [0, 1, 2, 3]" in str(got.value)
    if case == "beyond":  # every partition's rows, the largest position
        n = int(np.count_nonzero(log["position"] > 5))
        assert f"{n} row(s)" in str(got.value) and "(up to 8)" in str(got.value)
        assert all(np.count_nonzero(log["position"][part == p] > 5) < n
                   for p in range(3))
    if case == "repeated across a cut":  # one count over pieces and partitions
        assert str(got.value).startswith("positions: 2 impression(s) (groups)")
    if case == "repeated before the ids":  # the pipeline's checks come first
        assert str(got.value) == "groups contains missing values (NaN)."


def test_an_empty_log_is_the_in_memory_error():
    plan = click_plan(["avg_rel_rank"], estimator="ips", clip=None, propensities=[1.0],
                      output="dict")
    with pytest.raises(ValueError, match="clicks is empty: at least one sample"):
        reduce_clicks({}, [], plan)



def test_the_accumulator_over_the_reports_table_pickles_and_merges():
    import pickle

    from sklearn_rankeval import RankingAccumulator
    from sklearn_rankeval._counterfactual._report import REPORT_TABLE

    log = make_click_log(seed=34).sort_values("impression", kind="stable")
    metrics = ["precision@3", "avg_rel_rank", "recall@3"]  # the report's own names
    gains = log["clicked"].to_numpy() / CLICK_THETA[log["position"].to_numpy() - 1]
    expected = click_report(log, propensities=CLICK_THETA, metrics=metrics,
                            estimator="naive")
    clicks = log["clicked"].to_numpy(dtype=float)
    acc = RankingAccumulator(metrics, group_rows="sorted", metric_table=REPORT_TABLE)
    for lo in range(0, len(log), 50):  # impressions cut between batches
        acc.update(clicks[lo:lo + 50], log["score"].to_numpy()[lo:lo + 50],
                   groups=log["impression"].to_numpy()[lo:lo + 50])
    copy = pickle.loads(pickle.dumps(acc))  # the table by reference
    assert copy.metric_table is REPORT_TABLE
    assert_report_equal(copy.result(), expected)
    state = pickle.loads(pickle.dumps(acc.partials()))
    assert state["metric_table"] is REPORT_TABLE
    assert_report_equal(RankingAccumulator.from_partials(state).result(), expected)
    # the registry's precision@3 of the same rows is another number (the
    # share of rows with y_true > 0 among the top 3, not the mean gain)
    ips = RankingAccumulator(["precision@3"], metric_table=REPORT_TABLE).update(
        gains, log["score"], groups=log["impression"]).result()["precision@3"]
    plain = RankingAccumulator(["precision@3"]).update(
        gains, log["score"], groups=log["impression"]).result()["precision@3"]
    assert ips == pytest.approx(click_report(log, propensities=CLICK_THETA,
                                             metrics=["precision@3"])["precision@3"],
                                rel=0, abs=1e-12)
    assert abs(ips - plain) > 0.1
    with pytest.raises(ValueError, match="same metrics.*metric_table"):
        RankingAccumulator(["precision@3"]).merge(
            RankingAccumulator(["precision@3"], metric_table=REPORT_TABLE))
    with pytest.raises(TypeError, match="metric_table must be None or a report's"):
        RankingAccumulator(["avg_rel_rank"], metric_table=dict(REPORT_TABLE))
    # partials of an earlier version (no table): the registry's names
    del state["metric_table"]
    with pytest.raises(ValueError,
                       match="partials: 'avg_rel_rank' is not a ranking metric"):
        RankingAccumulator.from_partials(state)
