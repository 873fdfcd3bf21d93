"""The input's columns in rank order: :meth:`RankedGroups.rank_order` and
:meth:`RankedGroups.column`, the slot a new kind of judgment's kernels read
(grades per intent, item groups, ...), on every ranker and chunking.

The reference is a plain sort written from the definition: group by group
(ids ascending), score descending, tied rows in input order.
"""

from dataclasses import replace

import numpy as np
import pytest

import sklearn_rankeval as rk
from sklearn_rankeval import _engine
from sklearn_rankeval._engine import _compiled, _dispatch, check_inputs, ranked_chunks
from sklearn_rankeval._engine._checks import COLUMN_READERS
from sklearn_rankeval._metrics._pipeline import evaluate_chunked
from sklearn_rankeval._metrics._registry import METRICS
from sklearn_rankeval._stats import Partials

from .test_chunks import _wm


def _reference_order(s, g):
    """Row indices: groups ascending, score descending, ties in input order
    (a Python sort of tuples, written from the definition)."""
    return np.array(sorted(range(len(s)), key=lambda i: (g[i], -s[i], i)))


def _data(seed, n=600, n_groups=40):
    rng = np.random.default_rng(seed)
    g = rng.integers(0, n_groups, n)
    s = rng.integers(0, 4, n).astype(float)  # many ties
    s[rng.random(n) < 0.05] = -np.inf
    y = rng.integers(0, 3, n)
    return y, s, g


def _orders(y, s, g, **check):
    """Every chunk's rank order, concatenated (chunks come in id order)."""
    out = []
    for rg in ranked_chunks(*check_inputs(y, s, groups=g, **check)):
        out.append(rg.rank_order())
    return np.concatenate(out)


@pytest.fixture(params=["compiled", "generic"])
def engine_path(request):
    old, _dispatch.ENGINE_PATH = _dispatch.ENGINE_PATH, request.param
    yield request.param
    _dispatch.ENGINE_PATH = old


@pytest.mark.parametrize("seed", range(3))
def test_rank_order_is_the_definitions(engine_path, seed):
    y, s, g = _data(seed)
    assert np.array_equal(_orders(y, s, g), _reference_order(s, g))


@pytest.mark.parametrize("rows", [7, 50, 200])
def test_rank_order_in_chunks_numbers_the_rows_of_the_call(engine_path, rows):
    """Chunks of a few rows (grouped and shuffled ids; the compiled chunks
    of a large input): the rows of the call, not of the chunk."""
    y, s, g = _data(1)
    ref = _reference_order(s, g)
    with rk.config_context(working_memory=_wm(rows)):
        assert np.array_equal(_orders(y, s, g), ref)
        order = np.argsort(g, kind="stable")  # grouped rows: sliced chunks
        assert np.array_equal(_orders(y[order], s[order], g[order]),
                              _reference_order(s[order], g[order]))


def test_rank_order_of_partitioned_rows(monkeypatch):
    """The radix partition reorders the rows the pass reads: the order
    still numbers the caller's rows."""
    monkeypatch.setattr(_compiled, "PARTITION_MIN_SLOTS", 0)
    monkeypatch.setattr(_compiled, "PARTITION_MIN_ROWS", 0)
    monkeypatch.setattr(_compiled, "PARTITION_SLOT_BITS", 2)
    monkeypatch.setattr(_compiled, "PARTITION_MAX_PARTS", 1 << 40)
    y, s, g = _data(2, n=3000, n_groups=300)
    assert np.array_equal(_orders(y, s, g), _reference_order(s, g))


def test_rank_order_of_the_2d_layout(engine_path):
    rng = np.random.default_rng(3)
    y, s = rng.integers(0, 2, (30, 6)), rng.integers(0, 3, (30, 6)).astype(float)
    rows = np.repeat(np.arange(30), 6)
    ref = _reference_order(s.ravel(), rows)
    (rg,) = ranked_chunks(*check_inputs(y, s))
    assert np.array_equal(rg.rank_order(), ref)
    with rk.config_context(working_memory=_wm(13)):
        got = np.concatenate([rg.rank_order()
                              for rg in ranked_chunks(*check_inputs(y, s))])
    assert np.array_equal(got, ref)


def test_multiclass_keeps_no_row_order():
    rg = _engine.rank_groups([0, 1, 2], np.eye(3))
    with pytest.raises(ValueError, match="no row order"):
        rg.rank_order()


def _first_column_kernel(rg, k=10):
    """A kernel of a new judgment kind: each group's top row's ``item``."""
    offsets = np.cumsum(rg.group_size) - rg.group_size
    value = rg.column("item")[offsets].astype(float)
    return Partials(value, np.ones(rg.n_groups, dtype=bool),
                    None)


@pytest.mark.parametrize("rows", [None, 9])
def test_a_kernel_reads_a_column_in_rank_order(engine_path, monkeypatch, rows):
    """The pipeline hands a column to the kernels (``columns=``): one reader
    of the door, the gather of the engine, nothing else touched."""
    y, s, g = _data(4)
    item = np.arange(len(s)) * 10
    monkeypatch.setitem(COLUMN_READERS, "item",
                        lambda value, checked: np.asarray(value))
    spec = replace(METRICS["mrr"], name="first_item", kernel=_first_column_kernel,
                   native=None, columns=("item",))
    ref = _reference_order(s, g)
    first = ref[np.r_[0, np.flatnonzero(np.diff(g[ref])) + 1]]
    with rk.config_context(working_memory=_wm(rows) if rows else 64):
        info, parts = evaluate_chunked(y, s, groups=g, parsed=[
            ("first_item", spec, spec.check_options())], columns={"item": item})
    assert np.array_equal(parts["first_item"].value, item[first])


def test_grades_per_intent_are_read_by_the_door():
    rng = np.random.default_rng(5)
    grades = rng.integers(0, 3, (20, 4))
    s, g = rng.random(20), rng.integers(0, 3, 20)
    checked = check_inputs(grades, s, groups=g, per_intent=True)
    assert checked.layout == "long"
    assert np.array_equal(checked.y_true, grades.max(axis=1))
    assert np.array_equal(checked.columns["intent_grades"], grades)
    assert checked.columns["intent_grades"].dtype == np.float64
    # without a metric that reads them, 2-D y_true beside 1-D scores is refused
    with pytest.raises(ValueError, match="y_true must be 1-D"):
        check_inputs(grades, s, groups=g)


@pytest.mark.parametrize("bad, match", [
    (np.array([[0.0, np.nan]] * 20), "y_true contains NaN"),
    (np.array([[0, -1]] * 20), "y_true must be >= 0"),
    (np.zeros((19, 2)), "y_true must have one row of grades per intent"),
])
def test_grades_per_intent_refusals_name_y_true(bad, match):
    with pytest.raises(ValueError, match=match):
        check_inputs(bad, np.zeros(20), groups=np.zeros(20), per_intent=True)
