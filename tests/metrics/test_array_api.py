"""Array API inputs: the metrics computed in the input's namespace and device.

Under ``sklearn.config_context(array_api_dispatch=True)`` every registry
metric, the report, the per-group frame, the accumulator and the curve give
the NumPy values (to 1e-12) on arrays of array-api-strict, torch (CPU, and
CUDA where present) and CuPy (where present).  array-api-strict's second
device (``device1``) refuses conversion to NumPy and mixing with arrays of
its default device, so a test on it fails if any step leaves the device.
"""

import math
import re
import warnings

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose

from sklearn_rankeval import (
    RankingAccumulator,
    interpolated_precision_recall_curve,
    per_group_scores,
    ranking_report,
)
from sklearn_rankeval._core import _array_api as xpx
from sklearn_rankeval._metrics._names import metric_options
from sklearn_rankeval._metrics._registry import METRICS
from tests.conftest import make_grouped_data

compat = pytest.importorskip("array_api_compat")

SPECS = list(METRICS.values())


# ---------------------------------------------------------------------------
# namespaces: (module name, device) -> converter; skipped with the reason
# ---------------------------------------------------------------------------
def _strict(device_name):
    def make():
        import array_api_strict as xs

        if device_name != "CPU_DEVICE" and np.lib.NumpyVersion(
                np.__version__) < "2.0.0":
            pytest.skip("array-api-strict moves arrays between its devices "
                        "with NumPy >= 2 only")
        device = xs.Device(device_name)
        return xs, device, lambda x: xs.asarray(np.asarray(x), device=device)
    return make


def _torch(device_name):
    def make():
        import torch

        if device_name == "cuda" and not torch.cuda.is_available():
            pytest.skip("torch has no CUDA device here")
        device = torch.device(device_name)
        return torch, device, lambda x: torch.asarray(np.asarray(x), device=device)
    return make


def _cupy():
    import cupy

    try:
        cupy.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001
        pytest.skip("CuPy has no CUDA device here")
    return cupy, cupy.cuda.Device(), cupy.asarray


def _jax():
    import jax

    # the metrics compute in float64, which JAX gives only with x64 on
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    device = jax.devices("cpu")[0]
    return jnp, device, lambda x: jax.device_put(jnp.asarray(np.asarray(x)), device)


def _param(make, module, name):
    try:
        __import__(module)
    except ImportError:
        return pytest.param(None, id=name, marks=pytest.mark.skip(
            reason=f"{module} is not installed"))
    return pytest.param(make, id=name)


NAMESPACES = [
    _param(_strict("CPU_DEVICE"), "array_api_strict", "strict"),
    _param(_strict("device1"), "array_api_strict", "strict-device1"),
    _param(_torch("cpu"), "torch", "torch-cpu"),
    _param(_torch("cuda"), "torch", "torch-cuda"),
    _param(_cupy, "cupy", "cupy"),
    _param(_jax, "jax", "jax-cpu"),
]


@pytest.fixture(params=NAMESPACES)
def namespace(request):
    return request.param()


@pytest.fixture
def dispatch():
    with sklearn.config_context(array_api_dispatch=True):
        yield


def _assert_in(namespace, arr):
    """``arr`` is an array of the namespace, on its device."""
    module, device, _ = namespace
    xp = compat.array_namespace(arr)
    assert compat.array_namespace(module.asarray([1.0])) is xp, type(arr)
    assert compat.device(arr) == device


def _close(got, expected, rtol=1e-12):
    assert_allclose(xpx.to_numpy(got), expected, rtol=rtol, atol=1e-14,
                    equal_nan=True)


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


# ---------------------------------------------------------------------------
# inputs of every layout
# ---------------------------------------------------------------------------
def _long(seed, weights):
    y, s, g = make_grouped_data(seed, n_groups=15)
    s = s.copy()
    s[::11] = -np.inf  # not retrieved
    rng = np.random.default_rng(seed)
    if weights == "item":
        w = rng.uniform(0.2, 3.0, y.shape[0])
    elif weights == "query":  # one weight per group
        ids = np.unique(g)
        w = dict(zip(ids.tolist(), rng.uniform(0.2, 3.0, ids.shape[0])))
        w = np.array([w[i] for i in g.tolist()])
    else:
        w = None
    return y, s, g, w


def _layouts(spec):
    """(name, y_true, y_score, groups, sample_weight, kwargs) for one metric."""
    rng = np.random.default_rng(7)
    y2 = rng.integers(0, 3, (6, 5))
    s2 = rng.integers(0, 3, (6, 5)) / 2.0
    w2 = rng.uniform(0.5, 2.0, 6)
    out = []
    for weights in (None, spec.weights):
        y, s, g, w = _long(1, weights)
        out.append(("long", y, s, g, w, {}))
        if w is not None and weights == "query":  # one ranking: one query weight
            w_single = np.full(9, w[0])
        else:
            w_single = None if w is None else w[:9]
        out.append(("single", y[:9], s[:9], None, w_single, {}))
    out.append(("2d", y2, s2, None, w2, {}))
    if spec.has_labels:
        labels = np.array([3, 5, 9])
        ym = labels[rng.integers(0, 3, 8)]
        sm = rng.integers(0, 4, (8, 3)) / 3.0
        out.append(("multiclass", ym, sm, None, None, {"labels": labels}))
    return out


#: values tried for each option (by option name), besides its default
OPTION_VALUES = {
    # a callable gets an array of the input's namespace: operators only
    "gain": ["exponential", "binary", [0.0, 1.0, 3.0, 7.0, 15.0],
             lambda rel: rel * 2.0 + 0.5],
    "k_denominator": ["relevant", "hits", "retrieved"],
    "recall_levels": ["trec_eval_9", "trec_eval_10"],
    "n_points": [None, 5],
    "log_base": [10],
    "max_grade": [3],
    "p": [0.5],
}


def _option_sets(spec):
    base = metric_options(spec, 3)
    sets = [base]
    for name in spec.option_names:
        for value in OPTION_VALUES.get(name, []):
            try:
                spec.check_options(**{**base, name: value})
            except (TypeError, ValueError):
                continue
            sets.append({**base, name: value})
    return sets


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_metric_equals_numpy(namespace, spec, dispatch):
    module, device, to = namespace
    if spec.labels_kind == "binary" and "device1" in str(device):
        # (the metrics themselves run on the device: xAUC does here)
        pytest.skip("the input check of probabilities and 0/1 labels reads "
                    "values on the host, which this device refuses by design")
    for layout, y, s, g, w, extra in _layouts(spec):
        for options in _option_sets(spec):
            for average in (*spec.averages, None):
                kwargs = {**extra, **options, "average": average}
                with sklearn.config_context(array_api_dispatch=False):
                    try:
                        expected, error = _quiet(spec.func, y, s, groups=g,
                                                 sample_weight=w, **kwargs), None
                    except ValueError as exc:  # e.g. recall_levels with weights
                        error = exc

                device_args = (to(y), to(s))
                device_kw = {**kwargs, "groups": None if g is None else to(g),
                             "sample_weight": None if w is None else to(w)}
                if error is not None:  # the same error on the device
                    with pytest.raises(ValueError,
                                       match=re.escape(str(error)[:40])):
                        _quiet(spec.func, *device_args, **device_kw)
                    continue
                got = _quiet(spec.func, *device_args, **device_kw)
                what = f"{spec.name} {layout} {options} average={average}"
                if average is None:
                    _assert_in(namespace, got)
                    _close(got, expected)
                else:
                    assert type(got) is float, what
                    if math.isnan(expected):
                        assert math.isnan(got), what
                    else:
                        assert got == pytest.approx(expected, rel=1e-12, abs=1e-15), what


def test_numpy_inputs_are_moved_to_the_namespace(namespace, dispatch):
    # y_true as a list and groups as a NumPy array beside a y_score of the
    # namespace: computed there, the per-group values returned there
    spec = METRICS["ndcg"]
    y, s, g, _ = _long(2, None)
    _, _, to = namespace
    got = spec.func(y.tolist(), to(s), groups=g, average=None)
    _assert_in(namespace, got)
    with sklearn.config_context(array_api_dispatch=False):
        _close(got, spec.func(y, s, groups=g, average=None))


def test_report_per_group_and_intervals(namespace, dispatch):
    y, s, g, w = _long(3, "query")
    _, _, to = namespace
    # the metrics of relevance labels and scores (not of click probabilities)
    names = [f"{spec.name}@3" if spec.has_k else spec.name for spec in SPECS
             if spec.scorer and spec.scores == "order" and spec.ranked]
    args = (to(y), to(s))
    kwargs = {"groups": to(g), "sample_weight": to(w)}
    with sklearn.config_context(array_api_dispatch=False):
        expected = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                          metrics=names, output="dict")
        expected_ci = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                             metrics=["mrr", "gauc"], output="dict",
                             confidence=0.9, n_resamples=200, random_state=0)
        expected_frame = _quiet(per_group_scores, y, s, groups=g,
                                sample_weight=w, metrics=names)
        segments = g % 2
        expected_seg = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                              metrics=["mrr", "ndcg@3"], output="dict",
                              segments=segments)
    got = _quiet(ranking_report, *args, **kwargs, metrics=names, output="dict")
    assert got.keys() == expected.keys()
    for name in names:
        assert got[name] == pytest.approx(expected[name], rel=1e-12, nan_ok=True)
    got_ci = _quiet(ranking_report, *args, **kwargs, metrics=["mrr", "gauc"],
                    output="dict", confidence=0.9, n_resamples=200, random_state=0)
    for name, d in expected_ci.items():
        assert got_ci[name] == pytest.approx(d, rel=1e-12)
    got_seg = _quiet(ranking_report, *args, **kwargs, metrics=["mrr", "ndcg@3"],
                     output="dict", segments=segments)
    assert got_seg.keys() == expected_seg.keys()
    for seg, d in expected_seg.items():
        assert got_seg[seg] == pytest.approx(d, rel=1e-12)
    frame = _quiet(per_group_scores, *args, **kwargs, metrics=names)
    assert list(frame.columns) == list(expected_frame.columns)
    assert_allclose(frame.index.to_numpy(), expected_frame.index.to_numpy())
    assert_allclose(frame.to_numpy(float), expected_frame.to_numpy(float),
                    rtol=1e-12, equal_nan=True)
    # the dict output stays in the namespace, on the device
    columns = _quiet(per_group_scores, *args, **kwargs, metrics=["mrr"],
                     output="dict")
    for name in ("group", "n_items", "weight", "mrr"):
        _assert_in(namespace, columns[name])
    with sklearn.config_context(array_api_dispatch=False):
        expected_mrr = per_group_scores(y, s, groups=g, sample_weight=w,
                                        metrics=["mrr"], output="dict")["mrr"]
    _close(columns["mrr"], expected_mrr)


def test_interpolated_curve(namespace, dispatch):
    y, s, g, w = _long(4, "item")
    _, _, to = namespace
    for args, kwargs in [((y, s), {"groups": g, "n_points": 11}),
                         ((y, s), {"groups": g, "n_points": 11, "sample_weight": w}),
                         ((y[:12], s[:12]), {"n_points": None})]:
        with sklearn.config_context(array_api_dispatch=False):
            expected = interpolated_precision_recall_curve(*args, **kwargs)
        moved = {k: to(v) if isinstance(v, np.ndarray) else v
                 for k, v in kwargs.items()}
        got = interpolated_precision_recall_curve(*(to(a) for a in args), **moved)
        for arr, ref in zip(got, expected):
            _assert_in(namespace, arr)
            _close(arr, ref)


def test_accumulator_complete_batches(namespace, dispatch):
    y, s, g, w = _long(5, "query")
    _, _, to = namespace
    metrics = ["gauc", "mrr", "ndcg@3", "hit_rate@3"]
    ids = np.unique(g)
    acc = RankingAccumulator(metrics)
    for part in (ids[:5], ids[5:]):
        rows = np.isin(g, part)
        acc.update(to(y[rows]), to(s[rows]), groups=to(g[rows]),
                   sample_weight=to(w[rows]))
    with sklearn.config_context(array_api_dispatch=False):
        expected = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                          metrics=metrics, output="dict")
    assert _quiet(acc.result) == pytest.approx(expected, rel=1e-12)
    with pytest.raises(TypeError, match="group_rows='complete'"):
        RankingAccumulator(metrics, group_rows="sorted").update(
            to(y), to(s), groups=to(g))


def test_bad_input_names_the_argument(namespace, dispatch):
    module, _, to = namespace
    y, s, g, _ = _long(6, None)
    with pytest.raises(ValueError, match="y_score contains NaN"):
        METRICS["mrr"].func(to(y), to(np.where(s > 0.5, np.nan, s)), groups=to(g))
    with pytest.raises(ValueError, match=r"y_score contains \+inf"):
        METRICS["mrr"].func(to(y), to(np.where(s > 0.5, np.inf, s)), groups=to(g))
    with pytest.raises(ValueError, match="y_true must be >= 0"):
        METRICS["mrr"].func(to(-y), to(s), groups=to(g))
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        METRICS["gauc"].func(to(y), to(s), groups=to(g),
                             sample_weight=to(-np.ones(len(y))))
    with pytest.raises(ValueError, match="inconsistent lengths"):
        METRICS["mrr"].func(to(y[:-1]), to(s), groups=to(g))
    with pytest.raises(TypeError, match="groups must hold integer ids"):
        METRICS["mrr"].func(to(y), to(s), groups=[f"q{i}" for i in g])
    with pytest.raises(TypeError, match="groups must hold integer ids"):
        METRICS["mrr"].func(to(y), to(s), groups=to(g * 0.5))


def test_host_options_are_a_type_error(namespace, dispatch):
    _, _, to = namespace
    y, s, g, _ = _long(6, None)
    args = (to(y), to(s))
    with pytest.raises(TypeError, match="judged= is not supported"):
        METRICS["bpref"].func(*args, groups=to(g), judged=np.ones(len(y), bool))
    with pytest.raises(TypeError, match="convention= is not supported"):
        METRICS["map"].func(*args, groups=to(g), convention="trec_eval")
    with pytest.raises(TypeError, match="convention= is not supported"):
        ranking_report(*args, groups=to(g), convention="trec_eval")


def test_mixed_namespaces_are_a_type_error(dispatch):
    xs = pytest.importorskip("array_api_strict")
    torch = pytest.importorskip("torch")
    y, s, g, _ = _long(6, None)
    with pytest.raises(TypeError, match="another namespace"):
        METRICS["mrr"].func(torch.asarray(y), xs.asarray(s), groups=xs.asarray(g))


def test_dispatch_off_converts_to_numpy():
    # without array_api_dispatch a CPU tensor is read as NumPy, as in sklearn
    torch = pytest.importorskip("torch")
    y, s, g, _ = _long(6, None)
    value = METRICS["mrr"].func(torch.asarray(y), torch.asarray(s),
                                groups=torch.asarray(g), average=None)
    assert isinstance(value, np.ndarray)
    _close(value, METRICS["mrr"].func(y, s, groups=g, average=None))


# ---------------------------------------------------------------------------
# the helpers the standard lacks, on array-api-strict (no native lgamma)
# ---------------------------------------------------------------------------
def test_lanczos_lgamma_matches_scipy():
    xs = pytest.importorskip("array_api_strict")
    from scipy.special import gammaln

    x = np.concatenate([np.arange(1, 200), np.geomspace(1, 1e7, 500), [2.5, 7.25]])
    got = np.asarray(xpx.lgamma(xs, xs.asarray(x)))
    assert_allclose(got, gammaln(x), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("seed", range(3))
def test_segment_helpers_match_numpy(seed):
    xs = pytest.importorskip("array_api_strict")
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, 40, 60)
    counts[::7] = 1
    first = np.concatenate([[0], np.cumsum(counts)[:-1]])
    x = rng.normal(size=counts.sum())
    seg = np.repeat(np.arange(len(counts)), counts)
    X, F = xs.asarray(x), xs.asarray(first)
    for op, ufunc in (("sum", np.add), ("max", np.maximum), ("min", np.minimum)):
        assert_allclose(np.asarray(xpx.segment_reduce(xs, X, F, op)),
                        ufunc.reduceat(x, first), rtol=1e-13)
    cum = np.concatenate([np.cumsum(x[seg == i]) for i in range(len(counts))])
    assert_allclose(np.asarray(xpx.segment_cumsum(xs, X, F)), cum, rtol=1e-12,
                    atol=1e-13)
    smax = np.concatenate([np.maximum.accumulate(x[seg == i][::-1])[::-1]
                           for i in range(len(counts))])
    assert_allclose(np.asarray(xpx.segment_suffix_max(xs, X, F)), smax)
    # runs that may be empty (np.bincount of sorted owners)
    runs = rng.integers(0, 4, 50)
    vals = rng.normal(size=runs.sum())
    owner = np.repeat(np.arange(len(runs)), runs)
    assert_allclose(np.asarray(xpx.sum_by_owner(xs, xs.asarray(vals),
                                                xs.asarray(runs))),
                    np.bincount(owner, weights=vals, minlength=len(runs)),
                    rtol=1e-13, atol=1e-15)


def test_chunks_on_a_cpu_device(namespace, dispatch):
    # rows already grouped (and 2-D rows) are cut into chunks of whole groups
    # on a CPU device, as NumPy input is: the same values
    import sklearn_rankeval as rk

    _, device, to = namespace
    y, s, g, w = _long(8, "query")
    order = np.argsort(g, kind="stable")
    y, s, g, w = y[order], s[order], g[order], w[order]
    rng = np.random.default_rng(8)
    y2, s2 = rng.integers(0, 3, (40, 6)), rng.integers(0, 4, (40, 6)) / 3.0
    names = ["gauc", "mrr", "ndcg@3", "interpolated_ap", "precision@3"]
    with sklearn.config_context(array_api_dispatch=False):
        expected = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                          metrics=names, output="dict")
        expected2 = _quiet(per_group_scores, y2, s2, metrics=names, output="dict")
    with rk.config_context(working_memory=0.0005):  # a few rows per chunk
        got = _quiet(ranking_report, to(y), to(s), groups=to(g), sample_weight=to(w),
                     metrics=names, output="dict")
        got2 = _quiet(per_group_scores, to(y2), to(s2), metrics=names, output="dict")
    assert got == pytest.approx(expected, rel=1e-12)
    for name in ["group", *names]:
        _assert_in(namespace, got2[name])
        _close(got2[name], expected2[name])


def test_compare_rankings_and_displays(namespace, dispatch):
    # the paired statistics and the plots work on the host, from the
    # per-group partials (compare_rankings) or the rows (displays)
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    from sklearn_rankeval import (
        ElevenPointDisplay,
        GroupedRocCurveDisplay,
        compare_rankings,
    )

    _, _, to = namespace
    y, s, g, _ = _long(9, None)
    s[s == -np.inf] = 0.0
    noise = np.random.default_rng(9).integers(0, 3, s.shape[0]) / 4.0
    scores = {"a": s, "b": s + noise}  # another ranking, with ties
    kwargs = {"metrics": ["mrr", "gauc"], "output": "dict", "random_state": 0,
              "n_resamples": 200}
    with sklearn.config_context(array_api_dispatch=False):
        expected = _quiet(compare_rankings, y, scores, groups=g, **kwargs)
        roc = GroupedRocCurveDisplay.from_predictions(y > 0, s, groups=g)
        eleven = ElevenPointDisplay.from_predictions(y, s, groups=g)
    got = _quiet(compare_rankings, to(y), {k: to(v) for k, v in scores.items()},
                 groups=to(g), **kwargs)
    for metric, models in expected.items():
        for model, values in models.items():
            assert got[metric][model] == pytest.approx(values, rel=1e-12,
                                                        nan_ok=True)
    assert expected["mrr"]["b"]["diff"] != 0
    got_roc = GroupedRocCurveDisplay.from_predictions(to(y > 0), to(s), groups=to(g))
    assert got_roc.roc_auc == pytest.approx(roc.roc_auc, rel=1e-12)
    assert_allclose(got_roc.tpr, roc.tpr, rtol=1e-12)
    got_eleven = ElevenPointDisplay.from_predictions(to(y), to(s), groups=to(g))
    assert_allclose(got_eleven.precision, eleven.precision, rtol=1e-12)
    plt.close("all")


def test_review_edge_cases(namespace, dispatch):
    """Inputs a review found mishandled: each now equals NumPy or raises its
    error."""
    import pandas as pd

    _, _, to = namespace
    ndcg, mrr, gauc = METRICS["ndcg"].func, METRICS["mrr"].func, METRICS["gauc"].func
    # a gain that is not finite at a grade no item has (no grade 0 here)
    y, s, g = np.array([2, 1, 1, 3, 1, 4]), np.array([.9, .8, .7, .6, .5, .4]), \
        np.array([0, 0, 0, 1, 1, 1])
    with sklearn.config_context(array_api_dispatch=False):
        expected = ndcg(y, s, groups=g, gain=lambda r: 1.0 / r, average=None)
    _close(ndcg(to(y), to(s), groups=to(g), gain=lambda r: 1.0 / r, average=None),
           expected)
    # multiclass with boolean labels, and float labels beside integer y_true
    rng = np.random.default_rng(0)
    yb, sb = rng.integers(0, 2, 10) > 0, rng.random((10, 2))
    yi, si = rng.choice([3, 5, 9], 12), rng.random((12, 3))
    with sklearn.config_context(array_api_dispatch=False):
        expected_b = mrr(yb, sb, average=None)
        expected_i = mrr(yi, si, labels=[3.0, 5.0, 9.0], average=None)
    _close(mrr(to(yb), to(sb), average=None), expected_b)
    _close(mrr(to(yi), to(si), labels=[3.0, 5.0, 9.0], average=None), expected_i)
    with pytest.raises(TypeError, match="y_true holds values of dtype"):
        mrr(np.array(list("abcabcabca")), to(rng.random((10, 3))))
    # pos_label: the same checks as for NumPy
    with pytest.raises(ValueError, match="3 distinct labels"):
        gauc(to(np.array([0, 1, 2, 1, 0, 2])), to(np.arange(6.0)), pos_label=1)
    with pytest.raises(ValueError, match="is not a label of y_true"):
        gauc(to(np.array([0, 2, 0, 2, 0, 2])), to(np.arange(6.0)), pos_label=1)
    # pandas Series beside a y_score of the namespace
    y, s, g, w = _long(10, "item")
    with sklearn.config_context(array_api_dispatch=False):
        expected = gauc(y, s, groups=g, sample_weight=w, average=None)
    _close(gauc(pd.Series(y), to(s), groups=pd.Series(g),
                sample_weight=pd.Series(w), average=None), expected)
    # uint64 ids int64 cannot hold
    big = np.array([2**63 + 5] * 3 + [7] * 3, dtype=np.uint64)
    with pytest.raises(ValueError, match="uint64 ids"):
        mrr(to(np.array([1, 0, 0, 0, 1, 0])), to(np.arange(6.0)), groups=big)
    # host-only options rejected when any array argument is of the namespace
    with pytest.raises(TypeError, match="judged= is not supported"):
        METRICS["bpref"].func(to(y), s, groups=g, judged=np.ones(len(y), bool))
