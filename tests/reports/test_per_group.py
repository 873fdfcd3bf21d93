"""per_group_scores and ranking_report(segments=, output=), over the registry."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_rankeval import (
    mean_reciprocal_rank_score,
    per_group_scores,
    ranking_report,
)
from sklearn_rankeval._metrics._conventions import CONVENTIONS, PRESETS
from sklearn_rankeval._metrics._names import metric_options
from sklearn_rankeval._metrics._registry import METRICS
from tests._logs import ALL_METRICS, function_values
from tests.conftest import make_grouped_data

SPECS = list(METRICS.values())


def _names(spec):
    """Every metric, with its cutoff where it has one (and a second cutoff)."""
    if not spec.has_k:
        return [spec.name]
    return [f"{spec.name}@3", f"{spec.name}@1"]


# the metrics of relevance labels and scores (those of click probabilities
# are checked on clicks in test_ctr.py)
ALL_NAMES = [name for spec in SPECS if spec.scores == "order"
             for name in _names(spec)]


def _call(name, y, s, **kw):
    from sklearn_rankeval._metrics._names import parse_metric_name

    spec, k = parse_metric_name(name)
    return spec.func(y, s, **metric_options(spec, k), **kw)


def _brute_force_per_group(name, y, s, g):
    """The metric of each group evaluated alone, in sorted id order."""
    out = []
    for gid in np.unique(g):
        m = g == gid
        with _quiet():
            out.append(_call(name, y[m], s[m], average=None)[0])
    return np.array(out)


class _quiet:
    def __enter__(self):
        import warnings

        self._cm = warnings.catch_warnings()
        self._cm.__enter__()
        warnings.simplefilter("ignore")

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


@pytest.mark.parametrize("seed", range(2))
def test_frame_columns_equal_average_none_and_brute_force(seed):
    y, s, g = make_grouped_data(seed, n_groups=15)
    frame = per_group_scores(y, s, groups=g, metrics=ALL_NAMES)
    ids = np.unique(g)
    assert_array_equal(frame.index.to_numpy(), ids)
    assert frame.index.name == "group"
    assert list(frame.columns) == ["n_items", "n_relevant", "weight", *ALL_NAMES]
    assert_array_equal(frame["n_items"], [np.sum(g == i) for i in ids])
    assert_array_equal(frame["n_relevant"], [np.sum(y[g == i] > 0) for i in ids])
    assert_array_equal(frame["weight"], [np.sum(g == i) for i in ids])
    for name in ALL_NAMES:
        with _quiet():
            expected = _call(name, y, s, groups=g, average=None)
        assert_allclose(frame[name], expected, rtol=1e-12, equal_nan=True)
        assert_allclose(frame[name], _brute_force_per_group(name, y, s, g),
                        rtol=1e-12, atol=1e-14, equal_nan=True)


def test_outputs_pandas_polars_dict_agree():
    y, s, g = make_grouped_data(3)
    names = ["gauc", "ndcg@3", "hit_rate@2"]
    frame = per_group_scores(y, s, groups=g, metrics=names)
    as_dict = per_group_scores(y, s, groups=g, metrics=names, output="dict")
    assert list(as_dict) == ["group", "n_items", "n_relevant", "weight", *names]
    assert_array_equal(as_dict["group"], frame.index.to_numpy())
    for name in names:
        assert_array_equal(as_dict[name], frame[name].to_numpy())
    pl = pytest.importorskip("polars")
    as_polars = per_group_scores(y, s, groups=g, metrics=names, output="polars")
    assert isinstance(as_polars, pl.DataFrame)
    assert as_polars.columns == list(as_dict)
    for name in as_dict:
        assert_allclose(as_polars[name].to_numpy(), as_dict[name], equal_nan=True)


def test_weights_2d_and_multiclass_ids():
    rng = np.random.default_rng(2)
    Y = rng.integers(0, 3, (6, 5))
    S = rng.integers(0, 3, (6, 5)).astype(float)
    w = rng.random(6) + 0.5
    frame = per_group_scores(Y, S, sample_weight=w, metrics=["map", "ndcg"],
                             output="dict")
    assert_array_equal(frame["group"], np.arange(6))
    assert_allclose(frame["weight"], w * 5)
    assert_allclose(frame["map"], METRICS["map"].func(Y, S, average=None),
                    equal_nan=True)
    labels = np.array([0, 2, 1, 1])
    P = rng.random((4, 3))
    frame = per_group_scores(labels, P, metrics=["mrr"], output="dict")
    assert_array_equal(frame["group"], np.arange(4))
    assert_array_equal(frame["n_items"], [3] * 4)
    assert_array_equal(frame["n_relevant"], [1] * 4)
    assert_allclose(frame["mrr"], METRICS["mrr"].func(labels, P, average=None))


def test_join_back_with_string_and_categorical_ids():
    y, s, g = make_grouped_data(4)
    names = np.array([f"user{i}" for i in g], dtype=object)
    by_str = per_group_scores(y, s, groups=pd.Series(names), metrics=["ndcg"])
    by_cat = per_group_scores(y, s, groups=pd.Categorical(names), metrics=["ndcg"])
    assert_array_equal(by_str.index.to_numpy(), np.unique(names))
    assert_allclose(by_str["ndcg"], by_cat["ndcg"].to_numpy(), equal_nan=True)
    users = pd.DataFrame({"country": ["fr"] * len(np.unique(names))},
                         index=np.unique(names))
    joined = users.join(by_str)
    assert_allclose(joined["ndcg"], by_str["ndcg"], equal_nan=True)


@pytest.mark.parametrize("seed", range(2))
def test_segments_equal_the_report_of_each_segment_alone(seed):
    y, s, g = make_grouped_data(seed, n_groups=30)
    rng = np.random.default_rng(seed)
    ids = np.unique(g)
    seg_of_id = dict(zip(ids, rng.choice(["de", "fr", "us"], len(ids))))
    seg = np.array([seg_of_id[i] for i in g])
    w = np.array([1.0 + (i % 5) / 3 for i in g])  # constant within groups
    names = ["gauc", "mrr", "map@3", "ndcg@3", "hit_rate@2", "precision@2",
             "interpolated_ap"]
    with _quiet():
        report = ranking_report(y, s, groups=g, metrics=names, segments=seg,
                                sample_weight=w, output="dict")
    assert list(report) == sorted(set(seg))
    for label, values in report.items():
        m = seg == label
        with _quiet():
            alone = ranking_report(y[m], s[m], groups=g[m], metrics=names,
                                   sample_weight=w[m], output="dict")
        assert list(values) == names
        for name in names:
            assert values[name] == pytest.approx(alone[name], rel=1e-12, nan_ok=True)


def test_segments_text_and_frame_output():
    y, s, g = make_grouped_data(6, n_groups=20)
    seg = np.where(g % 2 == 0, "even", "odd")
    as_dict = ranking_report(y, s, groups=g, metrics=["mrr", "ndcg@3"],
                             segments=seg, output="dict")
    frame = ranking_report(y, s, groups=g, metrics=["mrr", "ndcg@3"],
                           segments=seg, output="frame")
    assert list(frame.columns) == ["segment", "metric", "value", "n_groups",
                                   "n_undefined"]
    for row in frame.itertuples():
        assert row.value == as_dict[row.segment][row.metric]
        in_segment = np.unique(g[seg == row.segment])
        with_relevant = np.unique(g[(seg == row.segment) & (y > 0)])
        assert row.n_groups == len(with_relevant)
        # the groups without a relevant item: left out, and counted
        assert row.n_undefined == len(in_segment) - len(with_relevant)
    text = ranking_report(y, s, groups=g, metrics=["mrr"], segments=seg, digits=3)
    lines = text.splitlines()
    assert lines[0].split() == ["segment", "metric", "value", "groups"]
    assert lines[1].split()[:3] == ["even", "mrr", f"{as_dict['even']['mrr']:.3f}"]
    for label in ("even", "odd"):
        n = len(np.unique(g[seg == label]))
        n_bad = n - len(np.unique(g[(seg == label) & (y > 0)]))
        line = (f"mrr (segment {label}): {n_bad} of {n} groups undefined "
                f"(no relevant item), left out")
        assert (line in lines) == (n_bad > 0)


def test_report_frame_output_and_output_dict_alias():
    y, s, g = make_grouped_data(7)
    names = ["gauc", "mrr"]
    as_dict = ranking_report(y, s, groups=g, metrics=names, output="dict")
    assert ranking_report(y, s, groups=g, metrics=names, output_dict=True) == as_dict
    frame = ranking_report(y, s, groups=g, metrics=names, output="frame")
    assert list(frame["metric"]) == names
    assert_array_equal(frame["value"], [as_dict[n] for n in names])
    with pytest.raises(ValueError, match="output"):
        ranking_report(y, s, groups=g, output="frame", output_dict=True)
    with pytest.raises(ValueError, match="output"):
        ranking_report(y, s, groups=g, output="html")


def test_segments_per_query_in_2d():
    rng = np.random.default_rng(8)
    Y = rng.integers(0, 2, (10, 4))
    S = rng.random((10, 4))
    seg = np.array(["a", "b"] * 5)
    report = ranking_report(Y, S, metrics=["mrr"], segments=seg, output="dict")
    for label in ("a", "b"):
        assert report[label]["mrr"] == pytest.approx(
            METRICS["mrr"].func(Y[seg == label], S[seg == label]), rel=1e-12)


@pytest.mark.parametrize("groups_kind", ["polars", "pyarrow", "pyarrow_chunked",
                                         "string_pyarrow", "unused_categories",
                                         "numpy_unicode", "object"])
def test_group_id_containers(groups_kind):
    y, s, g = make_grouped_data(9)
    names = np.array([f"q{i:04d}" for i in g])
    expected = per_group_scores(y, s, groups=names, metrics=["mrr"], output="dict")
    if groups_kind == "polars":
        pl = pytest.importorskip("polars")
        groups = pl.Series(names.tolist())
    elif groups_kind.startswith("pyarrow"):
        pa = pytest.importorskip("pyarrow")
        groups = (pa.array(names.tolist()) if groups_kind == "pyarrow" else
                  pa.chunked_array([names[:7].tolist(), names[7:].tolist()]))
    elif groups_kind == "string_pyarrow":
        pytest.importorskip("pyarrow")
        groups = pd.Series(names, dtype="string[pyarrow]")
    elif groups_kind == "unused_categories":
        groups = pd.Categorical(names, categories=["zzz", *np.unique(names), "aaa"])
    elif groups_kind == "numpy_unicode":
        groups = names.astype("U5")
    else:
        groups = names.astype(object)
    got = per_group_scores(y, s, groups=groups, metrics=["mrr"], output="dict")
    assert_array_equal(got["group"].astype(str), expected["group"])
    assert_allclose(got["mrr"], expected["mrr"], equal_nan=True)
    assert_allclose(METRICS["mrr"].func(y, s, groups=groups, average=None),
                    expected["mrr"], equal_nan=True)


def test_bad_input_names_the_argument():
    y, s, g = make_grouped_data(10)
    y0, s0, g0 = y.copy(), s.copy(), g.copy()
    with pytest.raises(ValueError, match="output"):
        per_group_scores(y, s, groups=g, output="excel")
    with pytest.raises(ValueError, match="metrics"):
        per_group_scores(y, s, groups=g, metrics=["nope"])
    with pytest.raises(TypeError, match="metrics"):
        per_group_scores(y, s, groups=g, metrics=3)
    with pytest.raises(ValueError, match="segments"):
        ranking_report(y, s, groups=g, segments=np.zeros(3))
    varying = np.arange(len(g)) % 2
    with pytest.raises(ValueError, match="segments must be constant"):
        ranking_report(y, s, groups=g, segments=varying)
    with pytest.raises(ValueError, match="sample_weight must be constant"):
        per_group_scores(y, s, groups=g, metrics=["mrr"],
                         sample_weight=np.arange(len(g)) + 1.0)
    with pytest.raises(ValueError, match="groups contains missing"):
        per_group_scores(y, s, groups=np.where(np.arange(len(g)) == 3, None,
                                               g.astype(object)))
    assert_array_equal(y, y0)
    assert_array_equal(s, s0)
    assert_array_equal(g, g0)


def _query_weights(g, seed):
    """One weight per group (1, 2 or 3), repeated on its rows."""
    ids, index = np.unique(g, return_inverse=True)
    return np.random.default_rng(seed).integers(1, 4, len(ids))[index].astype(float)


# (the conventions that break ties by docno need docno=, which only the
# metric functions take: trec_eval, ndeval)
_BY_DOCNO = {c for c, table in PRESETS.items()
             if any(isinstance(r, dict) and r.get("ties") == "docno"
                    for r in table.values())}


@pytest.mark.parametrize("convention", [c for c in CONVENTIONS
                                        if c not in _BY_DOCNO])
@pytest.mark.parametrize("weighted", [False, True])
def test_convention_columns_equal_the_functions(convention, weighted):
    y, s, g = make_grouped_data(4, n_groups=15)
    w = _query_weights(g, 4) if weighted else None
    ok = []
    for name in ALL_METRICS:
        expected = function_values(name, y, s, g, w, convention)
        if isinstance(expected, ValueError):
            # the same refusal: a metric the library lacks, or a rule that no
            # switch expresses on this data (LightGBM's weighted NDCG)
            with pytest.raises(ValueError, match="convention="):
                per_group_scores(y, s, groups=g, sample_weight=w, metrics=[name],
                                 convention=convention)
            continue
        ok.append(name)
        frame = per_group_scores(y, s, groups=g, sample_weight=w, metrics=[name],
                                 convention=convention, output="dict")
        assert_array_equal(frame[name], expected, err_msg=name)
    assert len(ok) >= 4
    # all of them from one call (the convention may rank twice, e.g.
    # torchmetrics' NDCG averages ties where its other metrics keep the order)
    with _quiet():
        frame = per_group_scores(y, s, groups=g, sample_weight=w, metrics=ok,
                                 convention=convention)
    assert list(frame.columns) == ["n_items", "n_relevant", "weight", *ok]
    for name in ok:
        assert_array_equal(frame[name].to_numpy(),
                           function_values(name, y, s, g, w, convention))
    if convention != "sklearn":  # its rules are the default ones for these
        default = per_group_scores(y, s, groups=g, sample_weight=w, metrics=ok)
        assert not all(np.array_equal(frame[n], default[n], equal_nan=True)
                       for n in ok)


def test_convention_errors():
    y, s, g = make_grouped_data(5)
    # trec_eval breaks ties by docno, which only the metric functions take
    with pytest.raises(ValueError, match="docno"):
        mean_reciprocal_rank_score(y, s, groups=g, convention="trec_eval")
    with pytest.raises(ValueError, match=r"convention='trec_eval'.*docno"):
        per_group_scores(y, s, groups=g, metrics=["mrr"], convention="trec_eval")
    with pytest.raises(ValueError, match="convention must be one of"):
        per_group_scores(y, s, groups=g, metrics=["mrr"], convention="lgbm")
    with pytest.raises(ValueError, match=r"convention='lightgbm'.*'mrr'"):
        per_group_scores(y, s, groups=g, metrics=["mrr"], convention="lightgbm")


@pytest.mark.parametrize("output", ["pandas", "polars", "dict"])
def test_per_group_ids_named_as_the_groups_series(output):
    """``groups=log["user"]``: the ids are named ``user`` (as a pandas
    groupby names its index); arrays, lists and unnamed Series: ``group``."""
    if output == "polars":
        pytest.importorskip("polars", reason="polars output: the [polars] peer")
    log = pd.DataFrame({"user": ["b", "a", "a", "b", "c"],
                        "clicked": [1, 0, 1, 0, 1],
                        "score": [0.2, 0.4, 0.9, 0.5, 0.1]})
    expected = log.groupby("user")["clicked"].size()  # pandas' own naming

    def key_names(frame):
        if output == "pandas":
            return [frame.index.name, *frame.columns]
        return list(frame.columns if output == "polars" else frame)

    def ids(frame, key):
        if output == "pandas":
            return list(frame.index)
        return list(frame[key])

    named = per_group_scores(log["clicked"], log["score"], groups=log["user"],
                             metrics=["mrr"], output=output)
    assert key_names(named) == [expected.index.name, "n_items", "n_relevant",
                                "weight", "mrr"]
    assert ids(named, "user") == list(expected.index)
    assert list(np.asarray(named["n_items"])) == list(expected)
    for groups in (log["user"].to_numpy(), list(log["user"]),
                   log["user"].rename(None), log["user"].rename("mrr"),
                   log["user"].rename("weight")):
        plain = per_group_scores(log["clicked"], log["score"], groups=groups,
                                 metrics=["mrr"], output=output)
        assert key_names(plain)[0] == "group"
        assert ids(plain, "group") == list(expected.index)


def test_per_group_ids_named_as_a_polars_series():
    pl = pytest.importorskip("polars", reason="polars input: the [polars] peer")
    frame = per_group_scores([1, 0, 1], [0.3, 0.2, 0.1],
                             groups=pl.Series("session", [7, 7, 8]),
                             metrics=["mrr"], output="dict")
    assert list(frame) == ["session", "n_items", "n_relevant", "weight", "mrr"]
    assert list(frame["session"]) == [7, 8]
