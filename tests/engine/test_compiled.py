"""The compiled grouped pass (issue 30): threads, sizes, the index switch,
checks before the pass, and the freshness of the module imported."""

import re
import shutil
import types
import warnings
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.metrics import average_precision_score, ndcg_score, roc_auc_score

import sklearn_rankeval as rk
from sklearn_rankeval._engine import (
    _compiled,
    _fresh,
    _grouped,
    rank_groups,
)
from sklearn_rankeval._metrics._names import metric_options, parse_metrics
from sklearn_rankeval._metrics._pipeline import evaluate_chunked
from sklearn_rankeval._metrics._registry import METRICS

RANKED = [f"{s.name}@3" if s.has_k else s.name for s in METRICS.values()
          if s.ranked]
CTR = [s.name for s in METRICS.values() if not s.ranked]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# ---------------------------------------------------------------------------
# the module imported is the one built from the sources beside it
# ---------------------------------------------------------------------------
def test_the_compiled_module_imported_is_fresh():
    folder = Path(_grouped.__file__).parent
    found = _fresh.source_hash(folder)
    if found is None:  # an installed wheel: no sources to compare
        pytest.skip("no Cython sources beside the module (an installed wheel)")
    assert _grouped.SOURCE_HASH == found
    assert len(found) == 64


def test_a_stale_module_is_an_import_error(tmp_path):
    folder = Path(_fresh.__file__).parent
    for name in ("_grouped.pyx", "_group_kernels.pxd"):
        shutil.copy(folder / name, tmp_path / name)
    built = types.SimpleNamespace(__file__=str(tmp_path / "_grouped.so"),
                                  SOURCE_HASH=_fresh.source_hash(tmp_path))
    _fresh.check_fresh(built)  # the sources it was built from: fine
    with open(tmp_path / "_grouped.pyx", "a") as f:
        f.write("\n# edited after the build\n")
    with pytest.raises(ImportError, match="stale.*pip install \\."):
        _fresh.check_fresh(built)
    # an installed wheel carries no sources: nothing to compare
    for path in tmp_path.iterdir():
        path.unlink()
    _fresh.check_fresh(built)


def test_files_the_build_does_not_read_never_make_it_stale(tmp_path):
    folder = Path(_fresh.__file__).parent
    for name in _fresh.SOURCES:
        shutil.copy(folder / name, tmp_path / name)
    before = _fresh.source_hash(tmp_path)
    # an editor's lock file (a regular file, or emacs' dangling symlink), a
    # swap file, a backup and a copy beside the sources
    (tmp_path / ".#_grouped.pyx").write_text("user@host.1234")
    (tmp_path / "._grouped.pyx.swp").write_bytes(b"\0" * 16)
    (tmp_path / "_grouped.pyx~").write_text("old")
    (tmp_path / "_grouped (copy).pyx").write_text("copy")
    (tmp_path / ".#_group_kernels.pxd").symlink_to(tmp_path / "missing")
    assert _fresh.source_hash(tmp_path) == before
    built = types.SimpleNamespace(__file__=str(tmp_path / "_grouped.so"),
                                  SOURCE_HASH=before)
    _fresh.check_fresh(built)


def test_every_cimported_local_module_is_a_listed_source():
    # the build hashes only the listed sources: a .pxd that a source cimports
    # but the list lacks would be edited without the module looking stale
    folder = Path(_fresh.__file__).parent
    cimported = set()
    for name in _fresh.SOURCES:
        text = (folder / name).read_text()
        cimported |= set(re.findall(r"^\s*from \.(\w+) cimport", text, re.M))
        cimported |= set(re.findall(r"^\s*include \"(\w+\.pxi)\"", text, re.M))
    listed = {Path(n).stem for n in _fresh.SOURCES} | set(_fresh.SOURCES)
    assert cimported and cimported <= listed, cimported - listed
    assert not (set(p.name for p in folder.glob("*.px[di]"))
                - set(_fresh.SOURCES)), "a .pxd/.pxi beside the engine is not listed"


# ---------------------------------------------------------------------------
# threads: the same bits for any number
# ---------------------------------------------------------------------------
def _log(seed, n_groups=3000, max_size=40):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_size, n_groups)
    g = np.repeat(rng.permutation(n_groups) * 3 + 11, sizes)
    n = g.shape[0]
    y = (rng.random(n) < 0.25) * rng.integers(1, 4, n)
    s = np.round(rng.random(n), 2)  # ties
    s[rng.random(n) < 0.05] = -np.inf
    perm = rng.permutation(n)
    return y[perm], s[perm], g[perm], rng


def _all_partials(y, s, g, w, names):
    info, parts = _quiet(evaluate_chunked, y, s, groups=g, sample_weight=w,
                         parsed=parse_metrics(names))
    return info, parts


@pytest.mark.parametrize("weights", ["none", "query", "item"])
def test_thread_counts_give_identical_bits(monkeypatch, weights):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    y, s, g, rng = _log(0)
    names = RANKED
    w = None
    if weights == "query":
        ids, inverse = np.unique(g, return_inverse=True)
        w = (rng.random(ids.shape[0]) * 3 + 0.1)[inverse]
    elif weights == "item":
        w = rng.random(g.shape[0]) * 2
        names = [n for n in RANKED if parse_metrics([n])[0][1].weights == "item"]
    yb, p = (y > 0).astype(int), rng.random(g.shape[0])
    monkeypatch.setattr(_compiled, "MIN_PARALLEL_ROWS", 0)
    runs = []
    for n_threads in (1, 2, 4):
        with threadpoolctl.threadpool_limits(limits=n_threads, user_api="openmp"):
            if _grouped.OPENMP:
                assert _compiled.n_threads(10) == n_threads
            runs.append((_all_partials(y, s, g, w, names),
                         _all_partials(yb, p, g, w, CTR)))
    for other in runs[1:]:
        for (info0, parts0), (info, parts) in zip(runs[0], other):
            for a, b in zip(info0, info):
                assert_array_equal(a, b)
            for name in parts0:
                for a, b in zip(parts0[name], parts[name]):
                    if a is not None:
                        # bit for bit: the same float64 patterns
                        assert_array_equal(
                            np.ascontiguousarray(a).view(np.uint8),
                            np.ascontiguousarray(b).view(np.uint8), name)


# ---------------------------------------------------------------------------
# sizes: groups of one row and of a million
# ---------------------------------------------------------------------------
def test_groups_of_one_row_and_of_a_million():
    rng = np.random.default_rng(3)
    big = 1_000_000
    y_big = (rng.random(big) < 0.01).astype(np.int8)
    s_big = np.round(rng.random(big), 3)  # ties across 1,000 levels
    n_single = 5000
    y_one = (rng.random(n_single) < 0.5).astype(np.int8)
    s_one = rng.random(n_single)
    y = np.concatenate([y_big, y_one])
    s = np.concatenate([s_big, s_one])
    g = np.concatenate([np.zeros(big, dtype=np.int64),
                        np.arange(1, n_single + 1)])
    perm = rng.permutation(g.shape[0])
    y, s, g = y[perm], s[perm], g[perm]
    kw = {"groups": g, "average": None}
    gauc = _quiet(rk.gauc_score, y, s, **kw)
    ap = _quiet(rk.mean_average_precision_score, y, s, **kw)
    ndcg = _quiet(rk.ndcg_score, y, s, k=10, **kw)
    mrr = _quiet(rk.mean_reciprocal_rank_score, y, s, **kw)
    p10 = _quiet(rk.precision_at_k_score, y, s, k=10, **kw)
    # the large group, as scikit-learn computes it (ties included)
    assert gauc[0] == pytest.approx(roc_auc_score(y_big, s_big), rel=1e-12)
    assert ap[0] == pytest.approx(average_precision_score(y_big, s_big), rel=1e-10)
    assert ndcg[0] == pytest.approx(ndcg_score(y_big[None], s_big[None], k=10),
                                    rel=1e-12)
    # MRR from its definition: 1 / rank of the first relevant item, the rank
    # averaged over the orders of its tie block (drawn without replacement)
    top = s_big[y_big > 0].max()
    above = int((s_big > top).sum())
    m, r = int((s_big == top).sum()), int(((s_big == top) & (y_big > 0)).sum())
    from math import comb

    expected = sum(comb(m - j, r - 1) / comb(m, r) / (above + j)
                   for j in range(1, m - r + 2))
    assert mrr[0] == pytest.approx(expected, rel=1e-12)
    # groups of one row: a relevant row is first (1); GAUC needs two classes
    single = np.isin(np.arange(len(gauc)), np.arange(1, n_single + 1))
    rel_one = y_one > 0
    assert np.isnan(gauc[single]).all()
    assert_array_equal(mrr[1:][rel_one], 1.0)
    assert_array_equal(ap[1:][rel_one], 1.0)
    assert_array_equal(ndcg[1:][rel_one], 1.0)
    assert_array_equal(p10[1:][rel_one], 0.1)
    assert np.isnan(mrr[1:][~rel_one]).all()


# ---------------------------------------------------------------------------
# row indices: int32 up to the threshold, int64 beyond (a small forced one)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_row_index_width_switches_at_its_threshold(monkeypatch, extra):
    rng = np.random.default_rng(4)
    n = 40
    g = rng.integers(0, 6, n)
    y = np.round(rng.random(n) * 5, 1)  # real labels: xAUC reads the rows
    p = rng.random(n)
    expected = _quiet(rk.xauc_score, y, p, groups=g, average=None)
    monkeypatch.setattr(_compiled, "INDEX32_MAX", n + extra)
    assert _compiled.index_dtype(n) == (np.int32 if extra >= 0 else np.int64)
    rows = rank_groups(y, p, groups=g).unranked
    # the ranking's unranked view: the rows grouped, group by group, input
    # order within each
    order = np.argsort(g, kind="stable")
    assert_array_equal(rows.group, np.sort(g) - g.min())
    assert_array_equal(rows.y_true, y[order])
    assert_array_equal(rows.y_score, p[order])
    assert_array_equal(_quiet(rk.xauc_score, y, p, groups=g, average=None),
                       expected)
    # xAUC from its definition, group by group
    for i, gid in enumerate(np.unique(g)):
        m = g == gid
        yy, pp = y[m], p[m]
        num = den = 0.0
        for a in range(m.sum()):
            for b in range(m.sum()):
                if yy[a] > yy[b]:
                    den += 1
                    num += 1.0 if pp[a] > pp[b] else (0.5 if pp[a] == pp[b] else 0)
        assert expected[i] == pytest.approx(num / den, rel=1e-12)


# ---------------------------------------------------------------------------
# bad values are refused before the pass runs
# ---------------------------------------------------------------------------
class _NoPass:
    def __getattr__(self, name):
        raise AssertionError(f"the compiled pass ran ({name}) on bad input")


@pytest.mark.parametrize("bad, message, names", [
    ({"s": np.nan}, "contains NaN", ("gauc", "ndcg", "log_loss")),
    ({"s": np.inf}, "y_score contains \\+inf", ("gauc", "ndcg")),
    ({"y": np.nan}, "y_true contains NaN", ("gauc", "ndcg")),
    ({"y": np.inf}, "y_true contains infinite", ("gauc", "ndcg")),
    ({"y": -1.0}, "y_true must be >= 0", ("gauc", "ndcg")),
    ({"w": np.nan}, "sample_weight contains NaN", ("gauc", "ndcg", "log_loss")),
    ({"w": -1.0}, "sample_weight must be non-negative", ("gauc", "ndcg",
                                                          "log_loss")),
])
def test_bad_values_are_refused_before_the_pass(monkeypatch, bad, message, names):
    y = np.array([1.0, 0.0, 1.0, 0.0])
    s = np.array([0.4, 0.3, 0.2, 0.1])
    w = np.ones(4)
    g = np.array([1, 1, 2, 2])
    where = {"y": y, "s": s, "w": w}
    for key, value in bad.items():
        where[key][2] = value
    monkeypatch.setattr(_compiled, "_grouped", _NoPass())
    for name in names:
        spec = METRICS[name]
        with pytest.raises(ValueError, match=message):
            spec.func(where["y"], where["s"], groups=g, sample_weight=where["w"],
                      **metric_options(spec, None))


def test_multiclass_counts_equal_comparisons():
    rng = np.random.default_rng(5)
    P = rng.integers(0, 4, (300, 7)).astype(np.float32)  # ties
    P[::11, 3] = -np.inf
    y = rng.integers(0, 7, 300)
    above, tied = _compiled.multiclass_counts(y, P)
    true = P[np.arange(300), y][:, None]
    assert_array_equal(above, (P > true).sum(axis=1))
    assert_array_equal(tied, (P == true).sum(axis=1))


def test_large_integer_scores_keep_their_order():
    # int64 scores beyond 2**53 (ranks of hashes): ties and order exact
    base = 2**60
    s = np.array([base + 1, base, base + 1, base + 2, base], dtype=np.int64)
    y = np.array([1, 0, 0, 1, 1])
    got = rk.mean_reciprocal_rank_score(y, s, average=None)
    assert got[0] == 1.0  # base + 2 is first and relevant
    # pairs (positive, negative): b+1 over b wins, b+1 with b+1 ties, b+2
    # over both wins, b with b ties, b under b+1 loses: 4 of 6 (as floats,
    # b and b+1 would tie and b+2 would not win over them)
    assert rk.gauc_score(y, s) == 4 / 6
    assert roc_auc_score(y, np.unique(s, return_inverse=True)[1]) == 4 / 6
    assert roc_auc_score(y, s.astype(np.float64)) != 4 / 6


def test_categorical_codes_used_as_they_are_in_the_order_of_the_ids():
    import pandas as pd

    y = np.array([1, 0, 1, 0, 0, 1, 1, 0])
    s = np.array([0.9, 0.8, 0.1, 0.7, 0.6, 0.5, 0.4, 0.3])
    ids = np.array(["b", "b", "d", "d", "a", "a", "b", "d"], dtype=object)
    expected = rk.mean_reciprocal_rank_score(y, s, groups=ids, average=None)
    # by hand: a: [0 0.6, 1 0.5] -> 1/2; b: [1 .9, 0 .8, 1 .4] -> 1; d: [1 .1,
    # 0 .7, 0 .3] -> 1/3
    assert_allclose(expected, [0.5, 1.0, 1 / 3], rtol=1e-15)
    for cat in (pd.Categorical(ids),  # sorted categories
                pd.Categorical(ids, categories=["d", "z", "b", "a"]),  # neither
                pd.Series(pd.Categorical(ids, categories=["d", "b", "a"]))):
        rg = rank_groups(y, s, groups=cat)
        assert rg.labels.tolist() == ["a", "b", "d"]  # unused "z" left out
        assert_array_equal(
            rk.mean_reciprocal_rank_score(y, s, groups=cat, average=None), expected)


def test_one_pass_computes_every_statistic_asked_for(monkeypatch):
    """A report of several metrics with compiled statistics runs the grouped
    pass once (one chunk), not once per metric: the statistics asked for and
    the ones read back are the same (the kernels' options, not the names')."""
    from sklearn_rankeval import ranking_report
    from sklearn_rankeval._engine import _compiled

    calls = []
    real = _compiled._run_pass
    monkeypatch.setattr(_compiled, "_run_pass",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 600)
    s = rng.random(600)
    g = np.repeat(np.arange(60), 10)
    ranking_report(y, s, groups=g, metrics=["map", "mrr", "ndcg@10",
                                            "precision@10", "recall@10",
                                            "P(rel=2)@5"])
    # one pass for the metrics of y_true, one for those of y_true >= 2
    assert len(calls) == 2


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rank_order_is_the_stable_sort_by_group_then_score(dtype):
    # groups long enough for the merge sort (> 24 rows) and short ones, many
    # ties, -inf and signed zeros: the order np.lexsort gives
    rng = np.random.default_rng(4)
    n = 20_000
    groups = rng.integers(0, 150, n) * 7 + (rng.random(n) < 0.2) * 3
    s = rng.integers(-3, 4, n).astype(dtype) * rng.choice([1.0, -1.0, 0.5], n)
    s[rng.random(n) < 0.05] = -np.inf
    y = (rng.random(n) < 0.3).astype(float)
    rg = rank_groups(y, s, groups=groups)
    _, code = np.unique(groups, return_inverse=True)
    np.testing.assert_array_equal(rg.rank_order(), np.lexsort((-s, code)))
