"""Properties every grouped ranking metric must have, driven by the registry.

Capabilities (cutoff, labels, item or query weights, averages) are read from
each :class:`MetricSpec`, never from the metric's name.
"""

import inspect
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_rankeval._metrics._pipeline import evaluate_chunked
from sklearn_rankeval._metrics._registry import GAIN_METRICS, METRICS
from tests import _reference as ref
from tests.conftest import as_read, make_grouped_data

pytestmark = pytest.mark.usefixtures("engine_path")

SPECS = list(METRICS.values())
# capabilities read from the registry: tests that apply to some metrics only
ITEM_WEIGHTED = [s for s in SPECS if s.weights == "item"]
QUERY_WEIGHTED = [s for s in SPECS if s.weights == "query"]
OPTIONAL_K = [s for s in SPECS if s.has_k and s.k_default is None]
SOMETIMES_UNDEFINED = [s for s in SPECS if not s.always_defined]
UNDEFINED_SWITCH = [s for s in SOMETIMES_UNDEFINED
                    if "undefined" in inspect.signature(s.func).parameters]
ORDER_ONLY = [s for s in SPECS if s.scores == "order"]
RANKED = [s for s in SPECS if s.ranked]
# the multiclass layout has no rows of items: no metric that reads a column
# of them (grades per intent, sampled rankings, item groups) takes it
MULTICLASS = [s for s in RANKED if not s.columns]


def _ids(specs):
    return [s.name for s in specs]


def data(spec, seed, **kwargs):
    """``make_grouped_data`` as ``spec`` reads it (:func:`as_read`)."""
    y, s, g = make_grouped_data(seed, **kwargs)
    return (*as_read(spec, y, s), g)


@pytest.fixture(params=SPECS, ids=[s.name for s in SPECS])
def spec(request):
    return request.param


def per_group(spec, y, s, g=None, **kw):
    return spec.func(y, s, groups=g, average=None, **kw)


def close(a, b):
    assert_allclose(a, b, rtol=1e-12, atol=1e-13, equal_nan=True)


def defined_groups(spec, y, g):
    """Which groups (in np.unique order) have a value, from the definitions."""
    ids = np.unique(g)
    out = []
    for gid in ids:
        rel = y[g == gid] > 0
        if spec.always_defined:
            out.append(True)
        elif spec.labels_kind == "real":  # a pair of different labels
            out.append(len(np.unique(y[g == gid])) > 1)
        elif spec.needs_negative:
            out.append(rel.any() and not rel.all())
        else:
            out.append(rel.any())
    return np.array(out)


# -- order and labels never matter ------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_row_permutation_invariance(spec, seed):
    y, s, g = data(spec, seed)
    base = per_group(spec, y, s, g)
    perm = np.random.default_rng(seed + 100).permutation(len(y))
    close(per_group(spec, y[perm], s[perm], g[perm]), base)
    assert spec.func(y[perm], s[perm], groups=g[perm]) == pytest.approx(
        spec.func(y, s, groups=g), rel=1e-12
    )


def test_undefined_groups_are_nan_in_average_none(spec):
    y, s, g = data(spec, 3)
    takes = "undefined" in inspect.signature(spec.func).parameters
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an explicit choice is silent
        values = per_group(spec, y, s, g, **({"undefined": "skip"} if takes else {}))
    defined = np.asarray(defined_groups(spec, y, g))
    assert_array_equal(~np.isnan(values), defined)
    n_bad = int((~defined).sum())
    if not takes or n_bad == 0:
        return
    # the default (undefined="warn") says how many of how many, and why
    with pytest.warns(UndefinedMetricWarning,
                      match=f"undefined for {n_bad} of {defined.size} groups "
                            f"\\(no relevant item"):
        default = per_group(spec, y, s, g)
    assert_array_equal(default, values)


def test_group_relabelling_invariance(spec):
    pd = pytest.importorskip("pandas")
    y, s, g = data(spec, 1)
    base = per_group(spec, y, s, g)
    # strings that sort like the ints, a shuffled-category Categorical, a
    # Series, and ids too large to be used as offsets directly
    as_str = np.array([f"q{v:05d}" for v in g])
    cats = np.random.default_rng(0).permutation(np.unique(as_str))
    relabelled = [
        as_str,
        as_str.astype(object),
        pd.Categorical(as_str, categories=cats),
        pd.Series(pd.Categorical(as_str, categories=cats)),
        pd.Series(g),
        g.astype(np.int64) * 10**15 - 7,
        g.astype(np.uint32),
        g.astype(np.float64) / 8,
    ]
    for groups in relabelled:
        close(per_group(spec, y, s, groups), base)


@pytest.mark.parametrize("spec", ORDER_ONLY, ids=_ids(ORDER_ONLY))
def test_strictly_increasing_score_transform(spec):
    y, s, g = data(spec, 2)
    base = per_group(spec, y, s, g)
    for t in (3 * s + 7, np.exp(s), s - 100, (s * 4).astype(np.int64),
              s.astype(np.float32)):
        close(per_group(spec, y, t, g), base)


def test_list_series_and_array_input_agree(spec):
    pd = pytest.importorskip("pandas")
    y, s, g = data(spec, 4)
    base = spec.func(y, s, groups=g)
    assert spec.func(y.tolist(), s.tolist(), groups=g.tolist()) == base
    assert spec.func(pd.Series(y), pd.Series(s), groups=pd.Series(g)) == base


def test_inputs_are_not_modified(spec):
    y, s, g = data(spec, 5)
    w = np.random.default_rng(5).integers(1, 4, len(y)).astype(float)
    if spec.weights == "query":
        w = np.unique(g, return_inverse=True)[1].astype(float) % 3 + 1
    arrays = [y, s, g, w]
    copies = [a.copy() for a in arrays]
    for a in arrays:
        a.flags.writeable = False  # a write would raise
    spec.func(y, s, groups=g, sample_weight=w)
    spec.func(y, s, groups=g, sample_weight=w, average=None)
    for a, c in zip(arrays, copies):
        assert_array_equal(a, c)


# -- layouts ---------------------------------------------------------------
def test_2d_layout_equals_grouped_layout(spec):
    rng = np.random.default_rng(7)
    Y, S = as_read(spec, rng.integers(0, 3, (15, 6)),
                   rng.integers(0, 3, (15, 6)).astype(float))
    groups = np.repeat(np.arange(15), 6)
    close(spec.func(Y, S, average=None),
          spec.func(Y.ravel(), S.ravel(), groups=groups, average=None))
    for average in spec.averages:
        assert spec.func(Y, S, average=average) == pytest.approx(
            spec.func(Y.ravel(), S.ravel(), groups=groups, average=average),
            rel=1e-12)


def test_2d_weights_are_query_weights(spec):
    # API.md: in the 2-D layout a weight is one query's, for every metric
    # (as in sklearn's ndcg_score): integer weights = repeating the query
    rng = np.random.default_rng(7)
    Y, S = as_read(spec, rng.integers(0, 3, (15, 6)),
                   rng.integers(0, 3, (15, 6)).astype(float))
    wq = rng.integers(1, 4, 15)
    rep = np.repeat(np.arange(15), wq)
    close(spec.func(Y, S, average=None, sample_weight=wq.astype(float)),
          spec.func(Y, S, average=None))
    for average in spec.averages:
        assert spec.func(Y, S, average=average, sample_weight=wq) == pytest.approx(
            spec.func(Y[rep], S[rep], average=average), rel=1e-12)


def test_2d_weights_regression_map_macro():
    # the example: the second query's weight 3 must count
    Y = np.array([[1, 0, 1, 1], [0, 0, 0, 1]])
    S = np.array([[1, 1, 0.5, 0], [0.5, -1, 1.5, 1]])
    for spec in (METRICS["map"], METRICS["interpolated_ap"]):
        weighted = spec.func(Y, S, sample_weight=[1, 3])
        assert weighted == pytest.approx(spec.func(Y[[0, 1, 1, 1]], S[[0, 1, 1, 1]]),
                                         rel=1e-12)
        assert weighted != pytest.approx(spec.func(Y, S), rel=1e-6)


@pytest.mark.parametrize("spec", MULTICLASS, ids=_ids(MULTICLASS))
def test_multiclass_layout_equals_one_hot_2d(spec):
    rng = np.random.default_rng(8)
    n, n_classes = 40, 5
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)  # every class present
    P = rng.integers(0, 4, (n, n_classes)).astype(float)  # ties
    P[3, :] = -np.inf  # a query that retrieved nothing
    one_hot = np.eye(n_classes, dtype=int)[y]
    w = rng.integers(1, 3, n).astype(float)
    for sw in (None, w):
        close(spec.func(y, P, average=None, sample_weight=sw),
              spec.func(one_hot, P, average=None, sample_weight=sw))
    if spec.has_labels:
        # string class labels given in a non-sorted column order
        names = np.array(["d", "b", "a", "e", "c"])
        close(spec.func(names[y], P, labels=names, average=None),
              spec.func(one_hot, P, average=None))


def test_one_ranking_equals_one_group(spec):
    y, s, g = data(spec, 6)
    m = g == g[0]
    y1, s1 = y[m], s[m]
    y1[0] = 1  # make it defined for every metric
    y1[-1] = 0 if len(y1) > 1 else y1[-1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        close(spec.func(y1, s1), spec.func(y1, s1, groups=np.full(len(y1), "u")))


# -- aggregation -------------------------------------------------------------
def test_average_none_matches_per_group_calls(spec):
    y, s, g = data(spec, 9)
    values = per_group(spec, y, s, g)
    for i, gid in enumerate(np.unique(g)):
        m = g == gid
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            close(spec.func(y[m], s[m]), values[i])


def test_averages_from_per_group_values(spec):
    y, s, g = data(spec, 10)
    values = per_group(spec, y, s, g)
    ok = ~np.isnan(values)
    ids, sizes = np.unique(g, return_counts=True)
    expected = {
        "macro": values[ok].mean(),
        "weighted": np.average(values[ok], weights=sizes[ok]),
        # trec_eval's gm_map: values floored at 1e-5
        "gmean": np.exp(np.mean(np.log(np.maximum(values[ok], 1e-5)))),
    }
    if spec.pools_undefined:
        # the metric of every row pooled, from its definition
        expected["micro"] = ref.pooled_ctr(spec.name, y, s)
    elif "micro" in spec.averages:
        # pooled hits over the pooled denominators, from the definitions: k
        # for P@k, the number of relevant items for R@k and HR@k
        per_query_den = {
            "min(R,k)/k": np.full(len(ids), float(spec.k_default)),
            "min(R,k)/R": np.array([(y[g == i] > 0).sum() for i in ids], float),
        }[spec.perfect_score]
        den = per_query_den[ok]
        expected["micro"] = (values[ok] * den).sum() / den.sum()
    for average in spec.averages:
        assert spec.func(y, s, groups=g, average=average) == pytest.approx(
            expected[average], rel=1e-12)
    assert spec.func(y, s, groups=g) == pytest.approx(
        expected[spec.default_average], rel=1e-12)


@pytest.mark.parametrize("spec", UNDEFINED_SWITCH, ids=_ids(UNDEFINED_SWITCH))
def test_undefined_policies(spec):
    y, s, g = data(spec, 11)
    values = per_group(spec, y, s, g)
    bad = np.isnan(values)
    assert bad.any() and not bad.all()
    with pytest.raises(ValueError, match="undefined"):
        spec.func(y, s, groups=g, undefined="raise")
    filled = per_group(spec, y, s, g, undefined=0.25)
    close(filled, np.where(bad, 0.25, values))
    macro = "macro"
    assert spec.func(y, s, groups=g, average=macro, undefined=0.25) == pytest.approx(
        filled.mean(), rel=1e-12)
    # every group undefined: warning and NaN
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(spec.func(np.zeros_like(y), s, groups=g))
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(per_group(spec, np.zeros_like(y), s, g)).all()


# -- sample weights --------------------------------------------------------
def _query_weights(g, seed):
    inv = np.unique(g, return_inverse=True)[1]
    return (np.random.default_rng(seed).integers(1, 4, inv.max() + 1)[inv]).astype(float)


def test_unit_weights_equal_none_and_scaling_has_no_effect(spec):
    y, s, g = data(spec, 12)
    w = _query_weights(g, 12)
    if spec.weights == "item":
        w = np.random.default_rng(1).uniform(0.5, 2, len(y))
    for average in (*spec.averages, None):
        close(spec.func(y, s, groups=g, average=average, sample_weight=np.ones(len(y))),
              spec.func(y, s, groups=g, average=average))
        close(spec.func(y, s, groups=g, average=average, sample_weight=w * 3.5),
              spec.func(y, s, groups=g, average=average, sample_weight=w))


def test_integer_weights_equal_repetition(spec):
    y, s, g = data(spec, 13)
    if spec.weights == "item":
        # integer item weights = the rows repeated (same group, same score)
        w = np.random.default_rng(13).integers(0, 4, len(y))
        rep = np.repeat(np.arange(len(y)), w)
        for average in spec.averages:
            assert spec.func(y, s, groups=g, sample_weight=w.astype(float),
                             average=average) == pytest.approx(
                spec.func(y[rep], s[rep], groups=g[rep], average=average), rel=1e-12)
    else:
        # integer query weights = each query repeated under new ids
        w = _query_weights(g, 13).astype(int)
        ids = np.unique(g)
        ys, ss, gs = [], [], []
        for gid in ids:
            m = g == gid
            for copy in range(w[m][0]):
                ys.append(y[m]), ss.append(s[m]), gs.append(np.full(m.sum(), gid * 10 + copy))
        yr, sr, gr = map(np.concatenate, (ys, ss, gs))
        for average in spec.averages:
            assert spec.func(y, s, groups=g, sample_weight=w.astype(float),
                             average=average) == pytest.approx(
                spec.func(yr, sr, groups=gr, average=average), rel=1e-12)


@pytest.mark.parametrize("spec", ITEM_WEIGHTED, ids=_ids(ITEM_WEIGHTED))
def test_integer_item_weights_average_none(spec):
    y, s, g = data(spec, 14)
    w = np.random.default_rng(14).integers(0, 3, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    got = spec.func(y, s, groups=g, sample_weight=w.astype(float), average=None)
    kept = np.isin(np.unique(g), np.unique(g[rep]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        close(got[kept], spec.func(y[rep], s[rep], groups=g[rep], average=None))
    assert np.isnan(got[~kept]).all()


@pytest.mark.parametrize("spec", QUERY_WEIGHTED, ids=_ids(QUERY_WEIGHTED))
def test_query_weights_must_be_constant_within_groups(spec):
    y, s, g = data(spec, 15)
    w = _query_weights(g, 15)
    big = np.flatnonzero(g == g[np.argmax(np.unique(g, return_counts=True)[1][np.unique(g, return_inverse=True)[1]])])
    w[big[0]] += 1
    with pytest.raises(ValueError, match="sample_weight"):
        spec.func(y, s, groups=g, sample_weight=w)


# -- cutoffs, bounds, perfect rankings -----------------------------------------
@pytest.mark.parametrize("spec", OPTIONAL_K, ids=_ids(OPTIONAL_K))
def test_k_at_least_group_size_equals_no_cutoff(spec):
    y, s, g = data(spec, 16)
    close(per_group(spec, y, s, g, k=9), per_group(spec, y, s, g))
    close(per_group(spec, y, s, g, k=1000), per_group(spec, y, s, g))


def test_bounds_and_perfect_ranking(spec):
    y, s, g = data(spec, 17)
    values = per_group(spec, y, s, g)
    ok = ~np.isnan(values)
    if spec.perfect_score in ("unbounded", "loss", "calibration"):
        assert (values[ok] >= 0).all()
    else:
        assert ((values[ok] >= 0) & (values[ok] <= 1)).all()
    kw = {"k": 2} if spec.has_k else {}
    perfect = per_group(spec, y, y.astype(float), g, **kw)
    n_rel = np.array([(y[g == i] > 0).sum() for i in np.unique(g)])
    if spec.perfect_score == "min(R,k)/k":
        # P@k of a perfect ranking is min(R, k) / k
        close(perfect[ok], np.minimum(n_rel[ok], 2) / 2)
    elif spec.perfect_score == "min(R,k)/R":
        # R@k / HR@k of a perfect ranking: min(R, k) / R
        close(perfect[ok], np.minimum(n_rel[ok], 2) / n_rel[ok])
    elif spec.perfect_score == "one":
        close(perfect[ok], np.ones(ok.sum()))
    elif spec.perfect_score == "loss":
        # probability 1 on every positive, 0 on every negative (clipped to
        # eps): a loss of about eps, far below any other prediction
        assert (perfect[ok] < 1e-12).all()
        assert (values[ok] >= perfect[ok]).all() and (values[ok] > 0.1).any()
        return
    elif spec.perfect_score == "calibration":
        # predicting the labels themselves is calibrated: 1
        close(perfect[ok], np.ones(ok.sum()))
        return
    elif spec.perfect_score == "order_free":
        # RBP's residual: the same for every order of the same items
        rng = np.random.default_rng(17)
        for _ in range(3):
            close(per_group(spec, y, rng.permutation(len(y)).astype(float), g,
                            **kw)[ok], values[ok])
        close(perfect[ok], values[ok])
        return
    else:  # at most 1 (RBP, ERR) or unbounded (DCG): no ranking does better
        rng = np.random.default_rng(17)
        for _ in range(5):
            other = per_group(spec, y, rng.permutation(len(y)).astype(float), g, **kw)
            assert (other[ok] <= perfect[ok] + 1e-12).all()
    worst = per_group(spec, y, -y.astype(float), g, **kw)
    assert (worst[ok] < perfect[ok]).any()


# -- bad input ---------------------------------------------------------------
def _bad_inputs(spec):
    y, s, g = np.array([1, 0, 1, 0]), np.array([0.5, 0.2, 0.3, 0.1]), np.array([1, 1, 2, 2])
    score = list(inspect.signature(spec.func).parameters)[1]  # y_score, y_prob
    # -1 is a negative grade; two-class metrics read {-1, 1} as
    # roc_auc_score does, and refuse a third label instead
    bad_label = 2 if spec.labels_kind == "binary" else 0
    cases = [
        ("y_true", ValueError, dict(y_true=y[:3])),
        (score, ValueError, dict(y_score=np.array([0.5, np.nan, 0.3, 0.1]))),
        (score, ValueError, dict(y_score=np.array([0.5, np.inf, 0.3, 0.1]))),
        (score, TypeError, dict(y_score=np.array(["a", "b", "c", "d"]))),
        ("y_true", ValueError, dict(y_true=np.array([1, np.nan, 1, 0]))),
        ("y_true", ValueError, dict(y_true=np.array([1, -1, 1, bad_label]))),
        ("groups", ValueError, dict(groups=np.array([1, np.nan, 2, 2]))),
        ("groups", ValueError, dict(groups=np.array(["a", None, "b", "b"], dtype=object))),
        ("groups", ValueError, dict(groups=np.array([1, 1, 2]))),
        ("groups", ValueError, dict(y_true=y.reshape(2, 2), y_score=s.reshape(2, 2))),
        ("average", ValueError, dict(average="bogus")),
        *([("undefined", ValueError, dict(undefined="bogus"))]
          if "undefined" in inspect.signature(spec.func).parameters else []),
        ("sample_weight", ValueError, dict(sample_weight=np.array([1, -1, 1, 1.0]))),
        ("sample_weight", ValueError, dict(sample_weight=np.array([1, np.nan, 1, 1.0]))),
        ("sample_weight", ValueError, dict(sample_weight=np.ones(3))),
        ("sample_weight", ValueError, dict(sample_weight=np.ones((4, 1)))),
        ("empty", ValueError, dict(y_true=np.array([]), y_score=np.array([]), groups=None)),
        ("y_true", ValueError, dict(y_true=np.ones((2, 3)), y_score=np.ones((2, 2)), groups=None)),
    ]
    if "micro" not in spec.averages:
        cases.append(("average", ValueError, dict(average="micro")))
    if spec.has_k:
        cases += [
            ("k", ValueError, dict(k=0)),
            ("k", ValueError, dict(k=-3)),
            ("k", TypeError, dict(k=1.5)),
            ("k", TypeError, dict(k=True)),
            ("k", TypeError, dict(k="3")),
        ]
    base = dict(y_true=y, y_score=s, groups=g)
    return [(name, exc, {**base, **kw}) for name, exc, kw in cases]


def test_bad_input_names_the_argument(spec):
    for name, exc, kwargs in _bad_inputs(spec):
        y_true, y_score = kwargs.pop("y_true"), kwargs.pop("y_score")
        with pytest.raises(exc, match=name):
            spec.func(y_true, y_score, **kwargs)


# -- what the registry declares about grades and ties ------------------------
BINARY = [s for s in SPECS if not s.graded and s.labels_kind == "relevance"]
TWO_CLASS = [s for s in SPECS if s.labels_kind == "binary"]
GRADED = [s for s in SPECS if s.graded]
EXPECTED_UNDER_TIES = [s for s in SPECS if s.tie_rule == "expected"]


@pytest.mark.parametrize("spec", BINARY, ids=_ids(BINARY))
def test_binary_metrics_only_read_relevant_or_not(spec):
    y, s, g = make_grouped_data(21, n_grades=5)
    assert y.max() > 1
    close(per_group(spec, y, s, g), per_group(spec, (y > 0).astype(int), s, g))


@pytest.mark.parametrize("spec", TWO_CLASS, ids=_ids(TWO_CLASS))
def test_two_class_metrics_refuse_grades(spec):
    y, s, g = make_grouped_data(21, n_grades=5)
    with pytest.raises(ValueError, match="y_true"):
        spec.func(y, s, groups=g)


@pytest.mark.parametrize("spec", GRADED, ids=_ids(GRADED))
def test_graded_metrics_read_the_grades(spec):
    y, s, g = make_grouped_data(21, n_grades=5)
    graded = per_group(spec, y, s, g)
    binary = per_group(spec, (y > 0).astype(int), s, g)
    assert not np.allclose(graded, binary, equal_nan=True)


def _value_of_ranking(spec, ranking, **kw):
    """The metric of one untied ranking (relevance labels, best first)."""
    scores = -np.arange(len(ranking), dtype=float)
    return spec.func(np.asarray(ranking), scores, **kw)


@pytest.mark.parametrize("spec", EXPECTED_UNDER_TIES, ids=_ids(EXPECTED_UNDER_TIES))
def test_ties_give_the_expected_value_over_tie_orders(spec):
    # every ordering of the tied items, each ranked without ties by the
    # metric itself: the tied value is their mean
    from itertools import permutations, product

    rng = np.random.default_rng(22)
    kw = {"k": 3} if spec.has_k else {}
    for _ in range(15):
        n = int(rng.integers(2, 7))
        y = rng.integers(0, 3, n)
        if not (y > 0).any():
            y[0] = 1
        s = rng.integers(0, 3, n).astype(float)
        order = np.argsort(-s, kind="stable")
        blocks = [order[s[order] == v] for v in np.unique(s)[::-1]]
        values = [
            _value_of_ranking(spec, y[np.concatenate(choice)], **kw)
            for choice in product(*(list(permutations(b)) for b in blocks))
        ]
        assert spec.func(y, s, **kw) == pytest.approx(np.mean(values), rel=1e-12)


@pytest.mark.parametrize("spec", [*METRICS.values(), *GAIN_METRICS.values()],
                         ids=[*METRICS, *GAIN_METRICS])
def test_declared_statistics_are_the_kernels(spec):
    """The registry declares how many statistics a group carries for the
    pooled average; the kernel returns exactly that many (none without micro).
    The metrics of gains too (the counterfactual report's partials)."""
    y, s, g = data(spec, 4)
    options = spec.check_options(**({"k": 3} if spec.has_k else {}))
    _, parts = evaluate_chunked(y, s, groups=g, parsed=[(spec.name, spec, options)])
    stats = parts[spec.name].stats
    assert (0 if stats is None else stats.shape[0]) == spec.statistics(**options)
    assert (spec.statistics(**options) > 0) == ("micro" in spec.averages)
