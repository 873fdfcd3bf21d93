"""The radix partition of the compiled pass (issue 37): shuffled rows copied
by ranges of group slots before the count / scatter / per-group pass.

The partition is a test-only knob away from every input here: the module's
thresholds are set so small (ranges of 4 slots) that every test input is
cut into many ranges and every chunk of groups crosses their boundaries.
The reference is the same pass without the partition (the path of every
input below its thresholds), whose values the rest of the suite checks
against scikit-learn and the brute-force references; here the two must
agree bit for bit, for every registry metric and any number of threads.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import sklearn_rankeval as rk
from sklearn_rankeval._engine import _compiled, _grouped
from sklearn_rankeval._metrics._names import parse_metrics
from sklearn_rankeval._metrics._pipeline import evaluate_chunked
from sklearn_rankeval._metrics._registry import METRICS

RANKED = [f"{s.name}@3" if s.has_k else s.name for s in METRICS.values()
          if s.ranked]
CTR = [s.name for s in METRICS.values() if not s.ranked]
SLOT_BITS = 2  # ranges of 4 slots


def _log(seed, n_groups=2000, max_size=30, spread=3):
    """Shuffled rows of ``n_groups`` groups (sparse integer ids), graded
    labels, tied scores and ``-inf`` scores."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size, n_groups)
    g = np.repeat(rng.permutation(n_groups) * spread + 7, sizes)
    n = g.shape[0]
    y = (rng.random(n) < 0.25) * rng.integers(1, 4, n)
    s = np.round(rng.random(n), 2)
    s[rng.random(n) < 0.05] = -np.inf
    perm = rng.permutation(n)
    return y[perm], s[perm], g[perm], rng


def _partitioned(monkeypatch, bits=SLOT_BITS):
    """Every input partitioned by ranges of ``2 ** bits`` slots; returns the
    list the partition's calls are recorded in."""
    monkeypatch.setattr(_compiled, "PARTITION_MIN_SLOTS", 0)
    monkeypatch.setattr(_compiled, "PARTITION_MIN_ROWS", 0)
    monkeypatch.setattr(_compiled, "PARTITION_SLOT_BITS", bits)
    monkeypatch.setattr(_compiled, "PARTITION_MAX_PARTS", 1 << 40)
    calls = []
    real = _grouped.partition
    monkeypatch.setattr(_grouped, "partition",
                        lambda *a: calls.append(a[3]) or real(*a))
    return calls


def _unpartitioned(monkeypatch):
    monkeypatch.setattr(_compiled, "PARTITION_MIN_SLOTS", 1 << 62)


def _partials(y, s, g, w, names):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate_chunked(y, s, groups=g, sample_weight=w,
                                parsed=parse_metrics(names))


def _assert_same_bits(run0, run):
    (info0, parts0), (info, parts) = run0, run
    for a, b in zip(info0, info):
        assert_array_equal(a, b)
    assert parts0.keys() == parts.keys()
    for name in parts0:
        for a, b in zip(parts0[name], parts[name]):
            assert (a is None) == (b is None), name
            if a is not None:  # bit for bit: the same float64 patterns
                assert_array_equal(np.ascontiguousarray(a).view(np.uint8),
                                   np.ascontiguousarray(b).view(np.uint8), name)


def _inputs(weights):
    y, s, g, rng = _log(0)
    names, w = RANKED, None
    if weights == "query":
        ids, inverse = np.unique(g, return_inverse=True)
        w = (rng.random(ids.shape[0]) * 3 + 0.1)[inverse]
    elif weights == "item":
        w = rng.random(g.shape[0]) * 2
        names = [n for n in RANKED if parse_metrics([n])[0][1].weights == "item"]
    return y, s, g, w, names, (y > 0).astype(int), rng.random(g.shape[0])


@pytest.mark.parametrize("working_memory", [None, 0.05])
@pytest.mark.parametrize("weights", ["none", "query", "item"])
def test_every_registry_metric_has_the_same_bits_partitioned(
        monkeypatch, weights, working_memory):
    """Partitioned (ranges of 4 slots; with ``working_memory`` 0.05 MiB also
    in chunks whose ends fall inside ranges) on 1, 2 and 4 threads, against
    the pass without the partition on one thread."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    y, s, g, w, names, yb, p = _inputs(weights)
    monkeypatch.setattr(_compiled, "MIN_PARALLEL_ROWS", 0)
    with rk.config_context(working_memory=working_memory):
        _unpartitioned(monkeypatch)
        with threadpoolctl.threadpool_limits(limits=1, user_api="openmp"):
            reference = (_partials(y, s, g, w, names), _partials(yb, p, g, w, CTR))
        calls = _partitioned(monkeypatch)
        for n_threads in (1, 2, 4):
            with threadpoolctl.threadpool_limits(limits=n_threads,
                                                 user_api="openmp"):
                got = (_partials(y, s, g, w, names), _partials(yb, p, g, w, CTR))
            for run0, run in zip(reference, got):
                _assert_same_bits(run0, run)
    assert calls and set(calls) == {SLOT_BITS}  # (partitioned each time)


@pytest.mark.parametrize("bits", [0, 1, 3, 6])
def test_reports_and_functions_equal_unpartitioned(monkeypatch, bits):
    """The public functions and the report, partitioned by ranges of 1 to 64
    slots (and the workspace of the pass cut into small chunks), give the
    bits of the pass without the partition."""
    y, s, g, rng = _log(1, n_groups=3000)
    w = rng.random(g.shape[0]) + 0.5

    def values():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [rk.gauc_score(y > 0, s, groups=g, average=None),
                    rk.gauc_score(y > 0, s, groups=g, sample_weight=w),
                    rk.ndcg_score(y, s, groups=g, k=5, average=None),
                    rk.ranking_report(y > 0, s, groups=g, output="dict"),
                    rk.ranking_report((y > 0).astype(int), rng.random(y.shape[0]),
                                      groups=g, metrics=CTR, output="dict")]

    rng_state = rng.bit_generator.state
    _unpartitioned(monkeypatch)
    expected = values()
    rng.bit_generator.state = rng_state
    calls = _partitioned(monkeypatch, bits)
    monkeypatch.setattr(_compiled, "PARTITION_MIN_WORKSPACE", 0)
    monkeypatch.setattr(_compiled, "PARTITION_WORKSPACE_SHARE", 0.01)
    got = values()
    assert calls
    for a, b in zip(expected, got):
        if isinstance(a, dict):
            assert a.keys() == b.keys()
            a, b = list(a.values()), list(b.values())
        assert_array_equal(np.atleast_1d(np.asarray(a, dtype=np.float64)).view(np.uint8),
                           np.atleast_1d(np.asarray(b, dtype=np.float64)).view(np.uint8))


@pytest.mark.parametrize("ids", ["int", "strings", "categorical"])
def test_a_partition_never_splits_a_group(monkeypatch, ids):
    """The copied rows: each range holds the rows of its slots only, every
    slot's rows lie in one range, in input order (a stable partition), and
    each row is copied once."""
    pd = pytest.importorskip("pandas") if ids == "categorical" else None
    y, s, g, rng = _log(2, n_groups=500, spread=5)
    w = rng.random(g.shape[0])
    groups = {"int": g, "strings": np.array([f"u{v}" for v in g], dtype=object),
              "categorical": pd.Categorical(g) if pd else None}[ids]
    _partitioned(monkeypatch, bits=3)
    inp = _compiled._Input("long", y, s, groups, w)
    assert inp.part_start is not None and inp.part_shift == 3
    source = inp.input_slots
    slot = np.asarray(source.codes, dtype=np.int64) - source.lo
    if source.slot.shape[0]:
        slot = source.slot[slot]
    code = inp.slots.codes
    start = inp.part_start
    n_parts = start.shape[0] - 1
    assert n_parts == ((inp.slots.n_slots - 1) >> 3) + 1 > 10
    part_of_row = np.repeat(np.arange(n_parts), np.diff(start))
    # each range holds only its own slots
    assert_array_equal(code >> 3, part_of_row)
    # every slot's rows in one range: the range of its first and last row agree
    order = np.argsort(code, kind="stable")
    first = np.searchsorted(code[order], np.arange(inp.slots.n_slots))
    last = np.searchsorted(code[order], np.arange(inp.slots.n_slots), side="right")
    has = last > first
    assert_array_equal(part_of_row[order[first[has]]],
                       part_of_row[order[last[has] - 1]])
    # the rows copied once each, stable: the input's rows sorted by range
    expected = np.argsort(slot >> 3, kind="stable")
    assert_array_equal(code, slot[expected])
    assert_array_equal(inp.s, s[expected])
    assert_array_equal(inp.y, y[expected])
    assert_array_equal(inp.w, w[expected])
    # chunks of whole groups read the ranges they overlap; their ends may
    # fall inside a range, and each group is in exactly one chunk
    bounds = inp.bounds(2_000, blocks=False)
    assert len(bounds) > 5
    inp.split(bounds)
    inside = [inp.present[a] & 7 != 0 for a, _ in bounds[1:]]
    assert any(inside)
    seen = np.concatenate([inp.present[a:b] for a, b in bounds])
    assert_array_equal(seen, inp.present)
    for a, b in bounds:
        lo, hi = inp.chunk_rows[b]
        chunk_slots = inp.present[a:b]
        rows_of_chunk = np.isin(code, chunk_slots)
        assert rows_of_chunk[:lo].sum() == 0 and rows_of_chunk[hi:].sum() == 0


def test_rows_of_a_group_together_are_not_partitioned(monkeypatch):
    """Rows already grouped (one run per group) are read in order: the
    partition is skipped after its counting pass."""
    y, s, g, _ = _log(3)
    order = np.argsort(g, kind="stable")
    calls = _partitioned(monkeypatch)
    inp = _compiled._Input("long", y[order], s[order], g[order], None)
    assert inp.part_start is None and not calls
    inp = _compiled._Input("long", y, s, g, None)
    assert inp.part_start is not None and calls


def test_a_statistic_asked_later_reads_the_input_rows(monkeypatch):
    """After the pass the copy is dropped; a statistic asked of the ranking
    later (a metric's ``from_ranked``) is computed from the rows in input
    order, with the bits of one computed in the pass (item weights too)."""
    y, s, g, rng = _log(4)
    w = rng.random(g.shape[0]) + 0.5
    _partitioned(monkeypatch)
    from sklearn_rankeval._metrics._registry import METRICS

    auc, rr = (METRICS[name].native_statistic(METRICS[name].check_options())
               for name in ("gauc", "mrr"))
    at_once = _compiled.rank_compiled("long", y, s, g, w, merge=True,
                                      native=[auc, rr])
    later = _compiled.rank_compiled("long", y, s, g, w, merge=True, native=[rr])
    want = at_once.native.get(at_once, auc)
    got = later.native.get(later, auc)
    assert want is not None and got is not None
    for a, b in zip(want, got):
        if a is not None:
            assert_array_equal(np.asarray(a).view(np.uint8),
                               np.asarray(b).view(np.uint8))
