"""Every ranking metric against the brute-force loops of ``_reference.py``.

Random grouped data with ties (integer scores 0-3), ``-inf`` scores (not
retrieved), groups with no relevant item (undefined) and rows in random order.
Per-group values (``average=None``) are compared group by group with the
reference; the aggregates (``macro``, ``weighted``, ``micro``) are recomputed
by hand from the per-group reference values, as notes/SPEC.md defines them.
"""

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

try:
    import _reference as ref
except ImportError:  # tests/ collected as a package
    from tests import _reference as ref

import sklearn_rankeval as sr

NEG_INF = float("-inf")
NAN = float("nan")
TOL = {"rtol": 1e-12, "atol": 1e-12}

SETTINGS = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# --------------------------------------------------------------------------
# data
# --------------------------------------------------------------------------
class Grouped:
    """Several groups given as per-group lists, and the same rows shuffled.

    ``ys[g]``, ``ss[g]``, ``ws[g]`` are the relevance, scores and item weights
    of the g-th group in sorted-id order (the order of ``average=None``);
    ``y_true``, ``y_score``, ``groups``, ``item_weight`` are the long-layout
    rows in a random order.
    """

    def __init__(self, ids, ys, ss, ws, perm):
        order = sorted(range(len(ids)), key=lambda i: ids[i])
        self.ids = [ids[i] for i in order]
        self.ys = [ys[i] for i in order]
        self.ss = [ss[i] for i in order]
        self.ws = [ws[i] for i in order]
        rows = []
        for g, (y, s, w) in enumerate(zip(self.ys, self.ss, self.ws)):
            for yi, si, wi in zip(y, s, w):
                rows.append((g, yi, si, wi))
        rows = [rows[p] for p in perm]
        self.row_group = [r[0] for r in rows]
        self.groups = np.array([self.ids[r[0]] for r in rows])
        self.y_true = np.array([r[1] for r in rows], dtype=float)
        self.y_score = np.array([r[2] for r in rows], dtype=float)
        self.item_weight = np.array([r[3] for r in rows], dtype=float)

    def integer_scores(self):
        """``y_score`` as an int64 array when no score is -inf, else as is."""
        if np.isinf(self.y_score).any():
            return self.y_score
        return self.y_score.astype(np.int64)

    @property
    def n_groups(self):
        return len(self.ids)

    def sizes(self):
        return [len(y) for y in self.ys]

    def query_weight_rows(self, query_weights):
        """One weight per row from one weight per group."""
        return np.array([query_weights[g] for g in self.row_group], dtype=float)

    def __repr__(self):
        return (
            f"Grouped(ids={self.ids!r}, ys={self.ys!r}, ss={self.ss!r}, "
            f"ws={self.ws!r})"
        )


@st.composite
def grouped(
    draw,
    max_grade=1,
    neg_inf=True,
    max_groups=4,
    min_size=1,
    max_size=8,
    weights=None,
    string_ids=False,
):
    """Grouped data; ``weights`` None, "int" (1-3) or "float" (0.1-3)."""
    n_groups = draw(st.integers(1, max_groups))
    score_values = [0.0, 1.0, 2.0, 3.0] + ([NEG_INF] if neg_inf else [])
    ys, ss, ws = [], [], []
    for _ in range(n_groups):
        size = draw(st.integers(min_size, max_size))
        y = draw(st.lists(st.integers(0, max_grade), min_size=size, max_size=size))
        s = draw(
            st.lists(st.sampled_from(score_values), min_size=size, max_size=size).filter(
                lambda s: ref.number_of_orderings([0] * len(s), s) <= ref.MAX_ORDERINGS
            )
        )
        if weights is None:
            w = [1.0] * size
        elif weights == "int":
            w = [float(x) for x in draw(st.lists(st.integers(1, 3), min_size=size, max_size=size))]
        else:
            w = draw(
                st.lists(
                    st.floats(0.1, 3.0, allow_nan=False, allow_infinity=False),
                    min_size=size,
                    max_size=size,
                )
            )
        ys.append(y)
        ss.append(s)
        ws.append(w)
    ids = draw(st.lists(st.integers(-30, 30), min_size=n_groups, max_size=n_groups, unique=True))
    if string_ids:
        ids = [f"q{i + 30:02d}" for i in ids]
    n = sum(len(y) for y in ys)
    perm = draw(st.permutations(range(n)))
    return Grouped(ids, ys, ss, ws, perm)


query_weights_st = st.one_of(
    st.none(),
    st.lists(st.integers(1, 3), min_size=8, max_size=8),
    st.lists(st.floats(0.1, 3.0, allow_nan=False), min_size=8, max_size=8),
)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def call(func, *args, **kwargs):
    """Call ``func``; return (result, list of UndefinedMetricWarning)."""
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    undefined = [w for w in record if issubclass(w.category, UndefinedMetricWarning)]
    return result, undefined


def weighted_mean(values, weights):
    """Mean of the non-NaN values; NaN if there are none."""
    num = []
    den = []
    for v, w in zip(values, weights):
        if not math.isnan(v):
            num.append(Fraction(v) * Fraction(w))
            den.append(Fraction(w))
    if not den or sum(den) == 0:
        return NAN
    return float(sum(num) / sum(den))


def fill_undefined(values, undefined):
    if undefined == "skip":
        return list(values)
    return [undefined if math.isnan(v) else v for v in values]


def check_aggregate(func, data_args, kwargs, expected):
    """``func(..., **kwargs)`` equals ``expected`` (NaN + warning if undefined)."""
    got, undefined_warnings = call(func, *data_args, **kwargs)
    assert np.ndim(got) == 0, kwargs
    if math.isnan(expected):
        assert math.isnan(got), (kwargs, got)
        assert undefined_warnings, f"no UndefinedMetricWarning for {kwargs}"
    else:
        np.testing.assert_allclose(got, expected, err_msg=str(kwargs), **TOL)


def check_raise_if_undefined(func, data_args, kwargs, per_group):
    """``undefined="raise"`` raises exactly when some group is undefined."""
    if any(math.isnan(v) for v in per_group):
        with pytest.raises(ValueError):
            func(*data_args, undefined="raise", **kwargs)
    else:
        got = func(*data_args, undefined="raise", average=None, **kwargs)
        np.testing.assert_allclose(got, per_group, err_msg=str(kwargs), **TOL)


def check_per_group(func, data_args, kwargs, expected):
    got, _ = call(func, *data_args, average=None, **kwargs)
    got = np.asarray(got, dtype=float)
    assert got.shape == (len(expected),)
    np.testing.assert_allclose(got, np.array(expected, dtype=float), err_msg=str(kwargs), **TOL)


# --------------------------------------------------------------------------
# GAUC
# --------------------------------------------------------------------------
@SETTINGS
@given(
    data=st.sampled_from([None, "int", "float"]).flatmap(
        lambda w: grouped(max_grade=2, weights=w).map(lambda d: (w, d))
    ),
    undefined=st.sampled_from(["skip", 0.0, 0.25]),
)
def test_gauc_matches_pairwise_auc(data, undefined):
    weights, d = data
    sw = None if weights is None else d.item_weight
    per_group = [
        ref.auc_pairwise(y, s, None if weights is None else w)
        for y, s, w in zip(d.ys, d.ss, d.ws)
    ]
    group_weight = [math.fsum(w) for w in d.ws]
    args = (d.y_true, d.y_score)
    common = {"groups": d.groups, "sample_weight": sw}

    check_per_group(sr.gauc_score, args, common, per_group)
    check_raise_if_undefined(sr.gauc_score, args, common, per_group)
    filled = fill_undefined(per_group, undefined)
    check_aggregate(
        sr.gauc_score,
        args,
        dict(common, average="weighted", undefined=undefined),
        weighted_mean(filled, group_weight),
    )
    check_aggregate(
        sr.gauc_score,
        args,
        dict(common, average="macro", undefined=undefined),
        weighted_mean(filled, [1] * d.n_groups),
    )
    # the default average is "weighted"
    check_aggregate(sr.gauc_score, args, common, weighted_mean(per_group, group_weight))


# --------------------------------------------------------------------------
# MRR
# --------------------------------------------------------------------------
@SETTINGS
@given(
    d=grouped(max_grade=2),
    k=st.sampled_from([None, 1, 2, 3, 5, 10]),
    qw=query_weights_st,
    undefined=st.sampled_from(["skip", 0.0, 0.5]),
    int_scores=st.booleans(),
)
def test_mean_reciprocal_rank_matches_expectation_over_orderings(d, k, qw, undefined, int_scores):
    per_group = [ref.reciprocal_rank(y, s, k) for y, s in zip(d.ys, d.ss)]
    qw = None if qw is None else qw[: d.n_groups]
    query_weight = [1.0] * d.n_groups if qw is None else qw
    sw = None if qw is None else d.query_weight_rows(qw)
    args = (d.y_true, d.integer_scores() if int_scores else d.y_score)
    check_raise_if_undefined(sr.mean_reciprocal_rank_score, args, {"groups": d.groups, "k": k}, per_group)
    common = {"groups": d.groups, "k": k, "sample_weight": sw}

    check_per_group(sr.mean_reciprocal_rank_score, args, common, per_group)
    filled = fill_undefined(per_group, undefined)
    check_aggregate(
        sr.mean_reciprocal_rank_score,
        args,
        dict(common, undefined=undefined),  # default macro
        weighted_mean(filled, query_weight),
    )
    row_weight = [q * n for q, n in zip(query_weight, d.sizes())]
    check_aggregate(
        sr.mean_reciprocal_rank_score,
        args,
        dict(common, average="weighted", undefined=undefined),
        weighted_mean(filled, row_weight),
    )


# --------------------------------------------------------------------------
# HR@k, P@k, R@k
# --------------------------------------------------------------------------
AT_K = {
    "hit_rate": (sr.hit_rate_score, ref.hit_rate, "relevant"),
    "precision": (sr.precision_at_k_score, ref.precision_at_k, "k"),
    "recall": (sr.recall_at_k_score, ref.recall_at_k, "relevant"),
}


@pytest.mark.parametrize("name", list(AT_K))
@SETTINGS
@given(
    d=grouped(max_grade=2, string_ids=True),
    k=st.sampled_from([1, 2, 3, 4, 5, 8, 10, 20]),
    qw=query_weights_st,
    int_scores=st.booleans(),
)
def test_at_k_metrics_match_expectation_over_orderings(name, d, k, qw, int_scores):
    func, reference, denominator = AT_K[name]
    per_group = [reference(y, s, k) for y, s in zip(d.ys, d.ss)]
    qw = None if qw is None else qw[: d.n_groups]
    query_weight = [1.0] * d.n_groups if qw is None else qw
    sw = None if qw is None else d.query_weight_rows(qw)
    args = (d.y_true, d.integer_scores() if int_scores else d.y_score)
    common = {"groups": d.groups, "k": k, "sample_weight": sw}

    check_per_group(func, args, common, per_group)
    check_aggregate(func, args, dict(common, average="macro"), weighted_mean(per_group, query_weight))
    row_weight = [q * n for q, n in zip(query_weight, d.sizes())]
    check_aggregate(func, args, dict(common, average="weighted"), weighted_mean(per_group, row_weight))

    # micro: pooled expected hits over pooled denominators, defined groups only
    hits = Fraction(0)
    den = Fraction(0)
    for y, s, q in zip(d.ys, d.ss, query_weight):
        R = ref.n_relevant(y)
        if R == 0:
            continue
        hits += Fraction(q) * ref.expected_hits(y, s, k)
        den += Fraction(q) * (k if denominator == "k" else R)
    micro = NAN if den == 0 else float(hits / den)
    check_aggregate(func, args, dict(common, average="micro"), micro)


@SETTINGS
@given(d=grouped(max_grade=1), k=st.sampled_from([1, 2, 3, 5, 10]))
def test_hit_rate_default_average_is_micro_and_equals_recall_micro(d, k):
    args = (d.y_true, d.y_score)
    hits = sum((ref.expected_hits(y, s, k) for y, s in zip(d.ys, d.ss)), Fraction(0))
    R = sum(ref.n_relevant(y) for y in d.ys)
    expected = NAN if R == 0 else float(hits / R)
    check_aggregate(sr.hit_rate_score, args, {"groups": d.groups, "k": k}, expected)
    check_aggregate(
        sr.recall_at_k_score, args, {"groups": d.groups, "k": k, "average": "micro"}, expected
    )


# --------------------------------------------------------------------------
# MAP
# --------------------------------------------------------------------------
@SETTINGS
@given(
    data=st.sampled_from([None, "int", "float"]).flatmap(
        lambda w: grouped(max_grade=2, weights=w).map(lambda d: (w, d))
    ),
    undefined=st.sampled_from(["skip", 0.0, 0.5]),
)
def test_mean_average_precision_matches_threshold_definition(data, undefined):
    weights, d = data
    sw = None if weights is None else d.item_weight
    per_group = [
        ref.average_precision(y, s, None if weights is None else w)
        for y, s, w in zip(d.ys, d.ss, d.ws)
    ]
    if weights is None:  # the block formula is the same number
        blocks = [ref.average_precision_blocks(y, s) for y, s in zip(d.ys, d.ss)]
        np.testing.assert_allclose(blocks, per_group, **TOL)
    args = (d.y_true, d.y_score)
    common = {"groups": d.groups, "sample_weight": sw}

    check_per_group(sr.mean_average_precision_score, args, common, per_group)
    check_raise_if_undefined(sr.mean_average_precision_score, args, common, per_group)
    filled = fill_undefined(per_group, undefined)
    check_aggregate(
        sr.mean_average_precision_score,
        args,
        dict(common, undefined=undefined),
        weighted_mean(filled, [1] * d.n_groups),
    )
    group_weight = [math.fsum(w) for w in d.ws]
    check_aggregate(
        sr.mean_average_precision_score,
        args,
        dict(common, average="weighted", undefined=undefined),
        weighted_mean(filled, group_weight),
    )


@SETTINGS
@given(
    d=grouped(max_grade=2),
    k=st.sampled_from([1, 2, 3, 4, 5, 7, 10, 20]),
    k_denominator=st.sampled_from(["min", "relevant"]),
)
def test_mean_average_precision_at_k_matches_block_formula(d, k, k_denominator):
    per_group = [
        ref.average_precision_blocks(y, s, k=k, denominator=k_denominator)
        for y, s in zip(d.ys, d.ss)
    ]
    args = (d.y_true, d.y_score)
    common = {"groups": d.groups, "k": k, "k_denominator": k_denominator}
    check_per_group(sr.mean_average_precision_score, args, common, per_group)
    check_aggregate(sr.mean_average_precision_score, args, common, weighted_mean(per_group, [1] * d.n_groups))
    check_aggregate(
        sr.mean_average_precision_score,
        args,
        dict(common, average="weighted"),
        weighted_mean(per_group, d.sizes()),
    )


@SETTINGS
@given(d=grouped(max_grade=1, neg_inf=False))
def test_mean_average_precision_at_k_without_ties_is_textbook_ap_at_k(d):
    # distinct scores per group: AP@k = 1/min(R,k) * sum_{i<=k} rel_i * P@i
    k = 3
    ys = []
    ss = []
    for y in d.ys:
        ys.append(y)
        ss.append([float(len(y) - i) for i in range(len(y))])
    per_group = []
    for y in ys:
        R = ref.n_relevant(y)
        if R == 0:
            per_group.append(NAN)
            continue
        total = Fraction(0)
        hits = 0
        for i, yi in enumerate(y[:k], start=1):
            if yi > 0:
                hits += 1
                total += Fraction(hits, i)
        per_group.append(float(total / min(R, k)))
    y_true = np.concatenate([np.array(y, dtype=float) for y in ys])
    y_score = np.concatenate([np.array(s) for s in ss])
    groups = np.repeat(d.ids, [len(y) for y in ys])
    check_per_group(sr.mean_average_precision_score, (y_true, y_score), {"groups": groups, "k": k}, per_group)


# --------------------------------------------------------------------------
# NDCG
# --------------------------------------------------------------------------
@SETTINGS
@given(
    d=grouped(max_grade=3),
    k=st.sampled_from([None, 1, 2, 3, 5, 10]),
    qw=query_weights_st,
    undefined=st.sampled_from(["skip", 0.0, 0.5]),
    int_scores=st.booleans(),
)
def test_ndcg_matches_tie_averaged_definition(d, k, qw, undefined, int_scores):
    per_group = [ref.ndcg_tie_averaged(y, s, k) for y, s in zip(d.ys, d.ss)]
    qw = None if qw is None else qw[: d.n_groups]
    query_weight = [1.0] * d.n_groups if qw is None else qw
    sw = None if qw is None else d.query_weight_rows(qw)
    args = (d.y_true.astype(np.int64), d.integer_scores() if int_scores else d.y_score)
    check_raise_if_undefined(sr.ndcg_score, args, {"groups": d.groups, "k": k}, per_group)
    common = {"groups": d.groups, "k": k, "sample_weight": sw}

    check_per_group(sr.ndcg_score, args, common, per_group)
    filled = fill_undefined(per_group, undefined)
    check_aggregate(sr.ndcg_score, args, dict(common, undefined=undefined), weighted_mean(filled, query_weight))
    row_weight = [q * n for q, n in zip(query_weight, d.sizes())]
    check_aggregate(
        sr.ndcg_score,
        args,
        dict(common, average="weighted", undefined=undefined),
        weighted_mean(filled, row_weight),
    )


# --------------------------------------------------------------------------
# interpolated AP and the interpolated PR curve
# --------------------------------------------------------------------------
def _repeat_rows(y, s, w):
    """Integer item weights = the rows repeated that many times."""
    y_rep, s_rep = [], []
    for yi, si, wi in zip(y, s, w):
        for _ in range(int(wi)):
            y_rep.append(yi)
            s_rep.append(si)
    return y_rep, s_rep


@SETTINGS
@given(
    data=st.sampled_from([None, "int"]).flatmap(
        lambda w: grouped(max_grade=2, weights=w).map(lambda d: (w, d))
    ),
    n_points=st.sampled_from([11, 101, None, 2, 5]),
    rule=st.sampled_from(["exact", "trec_eval_9", "trec_eval_10"]),
)
def test_interpolated_average_precision_matches_reference(data, n_points, rule):
    weights, d = data
    if n_points is not None and rule != "exact":
        weights = None  # the trec_eval rules count items: no item weights
    sw = None if weights is None else d.item_weight
    per_group = []
    for y, s, w in zip(d.ys, d.ss, d.ws if weights is not None else [[1.0] * len(y) for y in d.ys]):
        y_rep, s_rep = _repeat_rows(y, s, w)
        per_group.append(ref.interpolated_average_precision(y_rep, s_rep, n_points, rule))
    args = (d.y_true, d.y_score)
    common = {"groups": d.groups, "n_points": n_points, "sample_weight": sw}
    if n_points is not None:
        common["recall_levels"] = rule

    check_per_group(sr.interpolated_average_precision_score, args, common, per_group)
    check_aggregate(
        sr.interpolated_average_precision_score, args, common, weighted_mean(per_group, [1] * d.n_groups)
    )
    group_weight = d.sizes() if weights is None else [math.fsum(w) for w in d.ws]
    check_aggregate(
        sr.interpolated_average_precision_score,
        args,
        dict(common, average="weighted"),
        weighted_mean(per_group, group_weight),
    )


@SETTINGS
@given(
    data=st.sampled_from([None, "int"]).flatmap(
        lambda w: grouped(max_grade=2, weights=w).map(lambda d: (w, d))
    ),
    n_points=st.sampled_from([11, 101, 2, 6]),
    rule=st.sampled_from(["exact", "trec_eval_9", "trec_eval_10"]),
)
def test_interpolated_precision_recall_curve_is_macro_mean_of_groups(data, n_points, rule):
    weights, d = data
    if rule != "exact":
        weights = None  # the trec_eval rules count items: no item weights
    curves = []
    for y, s, w in zip(d.ys, d.ss, d.ws):
        if weights is not None:
            y, s = _repeat_rows(y, s, w)
        curves.append(ref.interpolated_precision(y, s, n_points, rule))
    curves = [c for c in curves if c is not None]
    args = (d.y_true, d.y_score)
    kwargs = {
        "groups": d.groups,
        "n_points": n_points,
        "recall_levels": rule,
        "sample_weight": None if weights is None else d.item_weight,
    }
    if not curves:
        with pytest.warns(UndefinedMetricWarning):
            sr.interpolated_precision_recall_curve(*args, **kwargs)
        return
    expected = [math.fsum(c[j] for c in curves) / len(curves) for j in range(n_points)]
    precision, recall = sr.interpolated_precision_recall_curve(*args, **kwargs)
    np.testing.assert_allclose(precision, expected, **TOL)
    np.testing.assert_allclose(recall, [j / (n_points - 1) for j in range(n_points)], **TOL)


def test_interpolated_precision_recall_levels_rules():
    # R = 3, relevant at ranks 1, 3, 6: points (n_rel, n_ret) = (1,1) (1,2) (2,3)
    # (2,4) (2,5) (3,6).  Level l is reached after ceil(l*R) relevant items
    # (exact), int(l*R + 0.9) (trec_eval 9: 0.7*3 + 0.9 = 2.9999999999999996
    # -> 2) or round(l*R) (trec_eval 10: round(1.2) = 1, round(1.5) = 2).
    y = [1, 0, 1, 0, 0, 1]
    s = [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    expected = {
        "exact": [1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 1 / 2, 1 / 2, 1 / 2, 1 / 2],
        "trec_eval_9": [1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 1 / 2, 1 / 2, 1 / 2],
        "trec_eval_10": [1, 1, 1, 1, 1, 2 / 3, 2 / 3, 2 / 3, 2 / 3, 1 / 2, 1 / 2],
    }
    for rule, values in expected.items():
        np.testing.assert_allclose(ref.interpolated_precision(y, s, 11, rule), values, err_msg=rule, **TOL)
        precision, recall = sr.interpolated_precision_recall_curve(y, s, n_points=11, recall_levels=rule)
        np.testing.assert_allclose(precision, values, err_msg=rule, **TOL)
        np.testing.assert_allclose(
            sr.interpolated_average_precision_score(y, s, recall_levels=rule),
            math.fsum(values) / 11,
            err_msg=rule,
            **TOL,
        )


def test_interpolated_precision_recall_level_0_3_is_reached_at_recall_0_3():
    # R = 10: three relevant on top, six misses, one hit at rank 10, six
    # relevant items not retrieved.  Recall 3/10 reaches level 0.3 exactly
    # (a float grid np.arange(0, 1.1, 0.1) would miss it and give 0.4).
    y = [1, 1, 1, 0, 0, 0, 0, 0, 0, 1] + [1] * 6
    s = [float(20 - i) for i in range(10)] + [NEG_INF] * 6
    values = [1, 1, 1, 1, 0.4, 0, 0, 0, 0, 0, 0]
    assert ref.interpolated_precision(y, s, 11, "exact") == pytest.approx(values, abs=0)
    precision, _ = sr.interpolated_precision_recall_curve(y, s, n_points=11)
    np.testing.assert_allclose(precision, values, **TOL)
    np.testing.assert_allclose(sr.interpolated_average_precision_score(y, s), 4.4 / 11, **TOL)


# --------------------------------------------------------------------------
# other layouts: 2-D rows, one ranking, multiclass
# --------------------------------------------------------------------------
LAYOUT_METRICS = {
    "mrr": (sr.mean_reciprocal_rank_score, lambda y, s: ref.reciprocal_rank(y, s), {}),
    "mrr@2": (sr.mean_reciprocal_rank_score, lambda y, s: ref.reciprocal_rank(y, s, 2), {"k": 2}),
    "map": (sr.mean_average_precision_score, lambda y, s: ref.average_precision(y, s), {}),
    "map@3": (
        sr.mean_average_precision_score,
        lambda y, s: ref.average_precision_blocks(y, s, k=3),
        {"k": 3},
    ),
    "ndcg": (sr.ndcg_score, lambda y, s: ref.ndcg_tie_averaged(y, s), {}),
    "ndcg@3": (sr.ndcg_score, lambda y, s: ref.ndcg_tie_averaged(y, s, 3), {"k": 3}),
    "hit_rate@2": (sr.hit_rate_score, lambda y, s: ref.hit_rate(y, s, 2), {"k": 2}),
    "precision@3": (sr.precision_at_k_score, lambda y, s: ref.precision_at_k(y, s, 3), {"k": 3}),
    "recall@3": (sr.recall_at_k_score, lambda y, s: ref.recall_at_k(y, s, 3), {"k": 3}),
    "interpolated_ap": (
        sr.interpolated_average_precision_score,
        lambda y, s: ref.interpolated_average_precision(y, s, 11),
        {},
    ),
    "gauc": (sr.gauc_score, ref.auc_pairwise, {}),
}


@st.composite
def matrix(draw, max_grade=2):
    n_rows = draw(st.integers(1, 4))
    n_cols = draw(st.integers(1, 6))
    ys = draw(
        st.lists(
            st.lists(st.integers(0, max_grade), min_size=n_cols, max_size=n_cols),
            min_size=n_rows,
            max_size=n_rows,
        )
    )
    ss = draw(
        st.lists(
            st.lists(st.sampled_from([0.0, 1.0, 2.0, NEG_INF]), min_size=n_cols, max_size=n_cols),
            min_size=n_rows,
            max_size=n_rows,
        )
    )
    return ys, ss


@pytest.mark.parametrize("name", list(LAYOUT_METRICS))
@SETTINGS
@given(m=matrix())
def test_row_per_query_and_one_ranking_layouts(name, m):
    func, reference, kwargs = LAYOUT_METRICS[name]
    ys, ss = m
    per_row = [reference(y, s) for y, s in zip(ys, ss)]
    y_true = np.array(ys, dtype=float)
    y_score = np.array(ss, dtype=float)
    # scikit-learn's ndcg_score, in its own 2-D layout, scores a row without
    # a relevant item 0 (API.md, wave 5): so does ours there, by default
    per_row_2d = [0.0 if name.startswith("ndcg") and np.isnan(v) else v
                  for v in per_row]
    check_per_group(func, (y_true, y_score), kwargs, per_row_2d)
    # one ranking: a 1-D call is the single query
    got, _ = call(func, y_true[0], y_score[0], average=None, **kwargs)
    np.testing.assert_allclose(np.asarray(got, dtype=float), [per_row[0]], **TOL)


MULTICLASS_METRICS = {
    "mrr": (sr.mean_reciprocal_rank_score, lambda y, s: ref.reciprocal_rank(y, s), {}),
    "mrr@2": (sr.mean_reciprocal_rank_score, lambda y, s: ref.reciprocal_rank(y, s, 2), {"k": 2}),
    "map": (sr.mean_average_precision_score, lambda y, s: ref.average_precision(y, s), {}),
    "hit_rate@2": (sr.hit_rate_score, lambda y, s: ref.hit_rate(y, s, 2), {"k": 2}),
    "precision@2": (sr.precision_at_k_score, lambda y, s: ref.precision_at_k(y, s, 2), {"k": 2}),
    "recall@1": (sr.recall_at_k_score, lambda y, s: ref.recall_at_k(y, s, 1), {"k": 1}),
}


@pytest.mark.parametrize("name", list(MULTICLASS_METRICS))
@SETTINGS
@given(
    n_classes=st.integers(3, 5),
    data=st.data(),
)
def test_multiclass_layout_one_relevant_item_per_sample(name, n_classes, data):
    func, reference, kwargs = MULTICLASS_METRICS[name]
    labels = [10 * c + 1 for c in range(n_classes)]  # not 0..C-1
    n = data.draw(st.integers(1, 6))
    y = data.draw(st.lists(st.sampled_from(labels), min_size=n, max_size=n))
    scores = data.draw(
        st.lists(
            st.lists(st.sampled_from([0.0, 0.25, 0.5]), min_size=n_classes, max_size=n_classes),
            min_size=n,
            max_size=n,
        )
    )
    per_sample = []
    for yi, si in zip(y, scores):
        per_sample.append(reference([1 if c == yi else 0 for c in labels], si))
    check_per_group(
        func, (np.array(y), np.array(scores)), dict(kwargs, labels=labels), per_sample
    )
    check_aggregate(
        func,
        (np.array(y), np.array(scores)),
        dict(kwargs, labels=labels, average="macro"),
        weighted_mean(per_sample, [1] * n),
    )


# --------------------------------------------------------------------------
# row order
# --------------------------------------------------------------------------
ALL_GROUPED = [
    (sr.gauc_score, {}),
    (sr.mean_reciprocal_rank_score, {"k": 2}),
    (sr.mean_average_precision_score, {}),
    (sr.mean_average_precision_score, {"k": 2}),
    (sr.interpolated_average_precision_score, {"n_points": None}),
    (sr.interpolated_average_precision_score, {"recall_levels": "trec_eval_9"}),
    (sr.hit_rate_score, {"k": 2}),
    (sr.precision_at_k_score, {"k": 2}),
    (sr.recall_at_k_score, {"k": 3}),
    (sr.ndcg_score, {"k": 2}),
]


@SETTINGS
@given(d=grouped(max_grade=3), seed=st.integers(0, 2**31 - 1))
def test_values_do_not_depend_on_row_order(d, seed):
    perm = np.random.default_rng(seed).permutation(len(d.y_true))
    for func, kwargs in ALL_GROUPED:
        a, _ = call(func, d.y_true, d.y_score, groups=d.groups, average=None, **kwargs)
        b, _ = call(
            func, d.y_true[perm], d.y_score[perm], groups=d.groups[perm], average=None, **kwargs
        )
        np.testing.assert_allclose(a, b, err_msg=func.__name__, **TOL)


# --------------------------------------------------------------------------
# worked examples of the seed documents (reference and implementation)
# --------------------------------------------------------------------------
def test_seed_worked_examples():
    # 000: relevant at ranks 1, 3, 6, 9, 10 -> AP = (1 + 2/3 + 3/6 + 4/9 + 5/10) / 5
    y = [1, 0, 1, 0, 0, 1, 0, 0, 1, 1]
    s = [10.0 - i for i in range(10)]
    expected = (1 + 2 / 3 + 3 / 6 + 4 / 9 + 5 / 10) / 5
    assert ref.average_precision(y, s) == pytest.approx(expected, rel=1e-15)
    np.testing.assert_allclose(sr.mean_average_precision_score(y, s), expected, **TOL)

    # 001: MRR (1/3 + 1/2 + 1) / 3 = 11/18
    y = [0, 0, 1, 0, 1, 0, 1, 0, 0]
    s = [3.0, 2.0, 1.0] * 3
    g = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    np.testing.assert_allclose(sr.mean_reciprocal_rank_score(y, s, groups=g), 11 / 18, **TOL)

    # 001: AP@5 of [hit, hit, miss, miss, miss] with 3 relevant: formula gives 2/3
    y = [1, 1, 0, 0, 0, 1]
    s = [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    assert ref.average_precision_blocks(y, s, k=5) == pytest.approx(2 / 3, rel=1e-15)
    np.testing.assert_allclose(sr.mean_average_precision_score(y, s, k=5), 2 / 3, **TOL)

    # 001: NDCG@6 of gains 3,2,3,0,1,2 with two more items (3, 0) not retrieved
    y = [3, 2, 3, 0, 1, 2, 3, 0]
    s = [6.0, 5.0, 4.0, 3.0, 2.0, 1.0, NEG_INF, NEG_INF]
    dcg = 3 + 2 / math.log2(3) + 3 / 2 + 0 + 1 / math.log2(6) + 2 / math.log2(7)
    idcg = 3 + 3 / math.log2(3) + 3 / 2 + 2 / math.log2(5) + 2 / math.log2(6) + 1 / math.log2(7)
    assert round(dcg / idcg, 4) == 0.8184
    assert ref.ndcg_tie_averaged(y, s, 6) == pytest.approx(dcg / idcg, rel=1e-13)
    np.testing.assert_allclose(sr.ndcg_score(y, s, k=6), dcg / idcg, **TOL)

    # 001: HR@10 = (6 + 5 + 4) / (10 + 12 + 8) = 0.5
    y, s, g = [], [], []
    for q, (n_rel, hits) in enumerate([(10, 6), (12, 5), (8, 4)]):
        # 10 retrieved items: `hits` relevant ones on top; the rest unretrieved
        y += [1] * hits + [0] * (10 - hits) + [1] * (n_rel - hits)
        s += [float(20 - i) for i in range(10)] + [NEG_INF] * (n_rel - hits)
        g += [q] * (10 + n_rel - hits)
    np.testing.assert_allclose(sr.hit_rate_score(y, s, groups=g, k=10), 0.5, **TOL)
