"""Evaluation by chunks of whole groups (issue 16) equals one ranking of all rows.

``working_memory`` is forced down to a few rows per chunk so that chunk
boundaries fall between every pair of groups somewhere in the examples.
"""

import threading
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

import sklearn_rankeval as rk
from sklearn_rankeval._engine import _dispatch as _engine
from sklearn_rankeval._engine import check_inputs, rank_groups
from sklearn_rankeval._engine._chunks import BYTES_PER_ROW, _partition, chunk_rows
from sklearn_rankeval._metrics._names import metric_options, parse_metrics
from sklearn_rankeval._metrics._pipeline import evaluate_chunked, evaluate_ranked
from sklearn_rankeval._metrics._registry import METRICS

# the ranked metrics (the CTR metrics read unsorted rows: test_ctr.py)
# (the metrics that read a column of the input, which the pipeline hands the
# ranking, have their chunked test with their family: test_diversity.py)
NAMES = [f"{s.name}@3" if s.has_k else s.name for s in METRICS.values()
         if s.ranked and not s.columns]
ITEM_NAMES = [n for n in NAMES if parse_metrics([n])[0][1].weights == "item"]


def _wm(rows):
    """The working_memory (MiB) that gives chunks of ``rows`` rows."""
    return rows * BYTES_PER_ROW / float(1 << 20)


def _assert_same(got, expected, inexact=False, item_weights=False):
    """Equal partials (``inexact``: to 1e-12, see the caller)."""
    if inexact:
        def same(a, b, err_msg):
            assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=err_msg)
    else:
        same = assert_array_equal
    info, parts = got
    info0, parts0 = expected
    for field, a, b in zip(info0._fields, info, info0):
        if item_weights and field == "query_weight":
            # the weight of "the first row", for query-weighted metrics only
            # (which reject weights that vary within a group)
            continue
        (assert_array_equal if field == "labels" else same)(a, b, err_msg=field)
    assert parts.keys() == parts0.keys()
    for name in parts0:
        for field, a, b in zip(parts0[name]._fields, parts[name], parts0[name]):
            if b is None:
                assert a is None
            else:
                same(a, b, err_msg=f"{name}.{field}")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@st.composite
def long_inputs(draw):
    n_groups = draw(st.integers(1, 12))
    sizes = draw(st.lists(st.integers(1, 7), min_size=n_groups, max_size=n_groups))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n = sum(sizes)
    id_kind = draw(st.sampled_from(["int", "sparse", "int32", "str", "category"]))
    base = rng.permutation(n_groups)
    if id_kind == "sparse":  # more distinct values than rows
        ids = base.astype(np.int64) * 10**12 - 5
    elif id_kind == "int32":
        ids = (base * 3 + 1).astype(np.int32)
    elif id_kind in ("str", "category"):
        ids = np.array([f"q{i:03d}" for i in base])
    else:
        ids = base.astype(np.int64)
    groups = np.repeat(ids, sizes)
    grades = draw(st.sampled_from([2, 4, 300]))
    y_true = rng.integers(0, grades, n)
    if draw(st.booleans()):
        y_true = y_true.astype(np.float64) / (1 if grades < 300 else 7.0)
    y_score = rng.integers(0, 4, n) / 4.0  # ties
    if draw(st.booleans()):
        y_score[rng.random(n) < 0.2] = -np.inf
    if draw(st.booleans()):
        y_score = y_score.astype(np.float32)
    weights = draw(st.sampled_from(["none", "query", "item"]))
    w = None
    if weights == "query":
        w = np.repeat(rng.random(n_groups) * 3 + 0.5, sizes)
    elif weights == "item":
        w = rng.random(n) * 2
    order = draw(st.sampled_from(["grouped", "shuffled"]))
    if order == "grouped":
        perm = np.argsort(groups, kind="stable")
    else:
        perm = rng.permutation(n)
    y_true, y_score, groups = y_true[perm], y_score[perm], groups[perm]
    w = None if w is None else w[perm]
    if id_kind == "category":
        groups = pd.Series(pd.Categorical(groups))
    return y_true, y_score, groups, w, weights, grades


@given(data=long_inputs(), rows=st.integers(1, 12),
       path=st.sampled_from(["compiled", "generic"]))
def test_chunked_equals_one_ranking_for_every_metric(data, rows, path):
    y_true, y_score, groups, w, weights, grades = data
    names = ITEM_NAMES if weights == "item" else NAMES
    if grades == 300 or (y_true.dtype.kind == "f" and (y_true % 1).any()):
        names = [n for n in names if not n.startswith("err")]  # grades > max_grade
    parsed = parse_metrics(names)
    # float sums over the rows of a tie block follow the order of its rows,
    # which the engine's unstable sort of tied scores leaves open (chunked or
    # not): exact with integer grades and no item weights, else to 1e-12.
    # Grades above 255 too: the ideal DCG is summed per grade (counts) when an
    # input's grades are all <= 255 and per item otherwise, so a chunk without
    # the large grades rounds its ideal DCG differently (by 1 ulp)
    inexact = (weights == "item" or bool((y_true % 1).any())
               or bool(y_true.max() > 255))
    old, _engine.ENGINE_PATH = _engine.ENGINE_PATH, path
    try:
        expected = _quiet(evaluate_ranked, rank_groups(
            y_true, y_score, groups=groups, sample_weight=w), parsed)
        with rk.config_context(working_memory=_wm(rows)):
            assert chunk_rows() == rows
            got = _quiet(evaluate_chunked, y_true, y_score, groups=groups,
                         sample_weight=w, parsed=parsed)
            # the public functions, through the same chunks
            for name, spec, _ in parsed:
                value = _quiet(spec.func, y_true, y_score, groups=groups,
                               sample_weight=w, average=None,
                               **metric_options(spec, 3 if spec.has_k else None))
                assert_allclose(
                    value, np.where(expected[1][name].defined,
                                    expected[1][name].value, np.nan),
                    rtol=1e-12 if inexact else 0, atol=0, err_msg=name)
    finally:
        _engine.ENGINE_PATH = old
    _assert_same(got, expected, inexact=inexact, item_weights=weights == "item")
    if not isinstance(groups, pd.Series):
        assert_array_equal(got[0].labels, np.unique(groups))


@given(seed=st.integers(0, 10_000), rows=st.integers(1, 20),
       weighted=st.booleans())
def test_2d_and_multiclass_chunks_of_queries(seed, rows, weighted):
    rng = np.random.default_rng(seed)
    n_queries, n_items = int(rng.integers(1, 9)), int(rng.integers(1, 6))
    Y = rng.integers(0, 3, (n_queries, n_items))
    S = rng.integers(0, 3, (n_queries, n_items)) / 2.0
    w = rng.random(n_queries) + 0.1 if weighted else None
    parsed = parse_metrics(NAMES)
    y_class = rng.integers(0, n_items, n_queries)
    mc_names = [n for n, spec, _ in parsed if spec.has_labels]
    for y, names, labels in [(Y, NAMES, None),
                             (y_class, mc_names, np.arange(n_items))]:
        parsed = parse_metrics(names)
        expected = _quiet(evaluate_ranked, rank_groups(
            y, S, sample_weight=w, labels=labels), parsed)
        with rk.config_context(working_memory=_wm(rows)):
            got = _quiet(evaluate_chunked, y, S, sample_weight=w, labels=labels,
                         parsed=parsed)
        _assert_same(got, expected)
        assert_array_equal(got[0].labels, np.arange(n_queries))


def test_report_frame_and_accumulator_under_tiny_chunks():
    rng = np.random.default_rng(3)
    g = np.repeat(rng.permutation(40), rng.integers(1, 9, 40))
    n = g.shape[0]
    y, s = (rng.random(n) < 0.3).astype(int), np.round(rng.random(n), 1)
    perm = rng.permutation(n)
    y, s, g = y[perm], s[perm], g[perm]
    segments = np.where(g % 3 == 0, "x", "y")
    report = _quiet(rk.ranking_report, y, s, groups=g, output="dict",
                    segments=segments)
    frame = _quiet(rk.per_group_scores, y, s, groups=g, output="dict")
    acc = rk.RankingAccumulator(group_rows="any")
    for part in np.array_split(np.arange(n), 3):
        acc.update(y[part], s[part], groups=g[part])
    acc_result = _quiet(acc.result)
    with rk.config_context(working_memory=_wm(5)):
        assert _quiet(rk.ranking_report, y, s, groups=g, output="dict",
                      segments=segments) == report
        got = _quiet(rk.per_group_scores, y, s, groups=g, output="dict")
        acc = rk.RankingAccumulator(group_rows="any")
        for part in np.array_split(np.arange(n), 3):
            acc.update(y[part], s[part], groups=g[part])
        assert _quiet(acc.result) == acc_result
    assert got.keys() == frame.keys()
    for key in frame:
        assert_array_equal(got[key], frame[key], err_msg=key)
    # the values are not trivial: the segments differ
    assert report["x"]["gauc"] != report["y"]["gauc"]


def test_errors_name_the_group_of_a_later_chunk():
    y = [1, 0, 1, 0, 0, 0]
    s = [0.3, 0.1, 0.2, 0.5, 0.4, 0.9]
    g = ["a", "a", "b", "b", "c", "c"]
    with rk.config_context(working_memory=_wm(2)):
        with pytest.raises(ValueError, match="group 'c'"):
            rk.mean_reciprocal_rank_score(y, s, groups=g, undefined="raise")
        # a query weight that varies within group "c" only (the last chunk)
        w = [1, 1, 2, 2, 1, 3]
        with pytest.raises(ValueError, match="constant within each group for "
                                             "mean_reciprocal_rank_score"):
            rk.mean_reciprocal_rank_score(y, s, groups=g, sample_weight=w)
        # ERR's grade check names the query of the last chunk (row 2 in 2-D)
        Y = np.array([[1, 0], [2, 0], [0, 5]])
        with pytest.raises(ValueError, match="in group 2"):
            rk.expected_reciprocal_rank_score(Y, np.ones((3, 2)))


@pytest.mark.parametrize("sparse", [False, True])
def test_partition_gives_contiguous_ranges_of_whole_groups(sparse):
    rng = np.random.default_rng(0)
    sizes = rng.integers(1, 30, 500)
    ids = np.arange(500) * (10**9 if sparse else 1) + 7
    keys = np.repeat(ids, sizes)[rng.permutation(sizes.sum())]
    order, offsets = _partition(keys, 200)
    assert order.dtype == np.int32
    assert_array_equal(np.sort(order), np.arange(keys.shape[0]))
    last = -1
    for a, b in zip(offsets[:-1], offsets[1:]):
        chunk = keys[order[a:b]]
        if not chunk.size:
            continue
        assert chunk.min() > last  # ranges of keys, in order: no group is cut
        last = chunk.max()
        assert (np.diff(order[a:b]) > 0).all()  # input order within a chunk
        if not sparse:  # groups starting within 200 rows: at most 200 + 28
            assert b - a <= 200 + 28
    if not sparse:
        assert len(offsets) - 1 == -(-keys.shape[0] // 200)


def test_inputs_keep_their_dtypes_and_memory():
    y = np.array([1, 0, 2, 0], dtype=np.uint8)
    s = np.array([0.5, 0.25, 0.75, 0.0], dtype=np.float32)
    layout, y2, s2, g2, w2 = check_inputs(y, s, groups=np.array([1, 1, 2, 2]))
    assert (layout, y2.dtype, s2.dtype) == ("long", np.uint8, np.float32)
    assert np.shares_memory(y2, y) and np.shares_memory(s2, s)


def test_grouped_rows_are_cut_at_group_starts():
    # contiguous ids: a slice per chunk, cut where a group starts
    g = np.repeat([1, 2, 3, 4], [3, 1, 4, 2])
    y = np.array([1, 0, 0, 1, 0, 1, 0, 0, 1, 1])
    s = np.array([3, 2, 1, 5, 4, 3, 2, 1, 2, 2]) / 5.0
    with rk.config_context(working_memory=_wm(3)):
        values = rk.mean_reciprocal_rank_score(y, s, groups=g, average=None)
    # group 1: relevant first (1); 2: relevant first (1); 3: the relevant item
    # is second (1/2); 4: both relevant, tied (1)
    assert_array_equal(values, [1.0, 1.0, 0.5, 1.0])


# ---------------------------------------------------------------------------
# the option
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("bad, error", [
    (0, ValueError), (-1, ValueError), (float("nan"), ValueError),
    (float("inf"), ValueError), ("64", TypeError), (True, TypeError),
    ([64], TypeError),
])
def test_working_memory_is_validated(bad, error):
    before = rk.get_config()["working_memory"]
    with pytest.raises(error, match="working_memory"):
        rk.set_config(working_memory=bad)
    with pytest.raises(error, match="working_memory"):
        with rk.config_context(working_memory=bad):
            pass  # pragma: no cover
    assert rk.get_config()["working_memory"] == before


def test_config_context_restores_and_is_thread_local():
    assert rk.get_config() == {"working_memory": 64}
    assert chunk_rows() == 64 * (1 << 20) // BYTES_PER_ROW
    with pytest.raises(RuntimeError):
        with rk.config_context(working_memory=8):
            assert rk.get_config()["working_memory"] == 8
            assert chunk_rows() == 8 * (1 << 20) // BYTES_PER_ROW
            with rk.config_context(working_memory=np.float64(0.5)):
                assert rk.get_config()["working_memory"] == 0.5
                assert type(rk.get_config()["working_memory"]) is float
            assert rk.get_config()["working_memory"] == 8
            seen = []
            thread = threading.Thread(
                target=lambda: seen.append(rk.get_config()["working_memory"]))
            thread.start()
            thread.join()
            assert seen == [64]  # another thread starts from the defaults
            raise RuntimeError
    assert rk.get_config()["working_memory"] == 64
    rk.set_config(working_memory=2)
    try:
        rk.set_config()  # None: unchanged
        assert rk.get_config()["working_memory"] == 2
    finally:
        rk.set_config(working_memory=64)
    # get_config returns a copy
    rk.get_config()["working_memory"] = 1
    assert rk.get_config()["working_memory"] == 64

