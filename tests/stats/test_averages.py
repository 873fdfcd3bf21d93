"""The statistics contract (``_stats/_averages.py``), piece by piece.

The finalizers against plain arithmetic, every average of hand-made
partials against ``tests/_reference.py``'s ``group_average`` (written from
API.md), the undefined-group policies and their messages, and the partials
and group info of disjoint groups (take, concatenate) against the arrays
written out by hand.
"""

import math
import warnings
from types import SimpleNamespace

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_rankeval._stats._averages import (
    MIN_GEO_MEAN,
    AverageRule,
    GroupInfo,
    Partials,
    _exp_ratio,
    aggregate,
    apply_undefined,
    average_terms,
    finalize_value,
    first_label,
    plain_label,
    ratio_of_sums,
)
from tests import _reference as ref


def _strict():
    xs = pytest.importorskip("array_api_strict")
    return xs


# ---------------------------------------------------------------------------
# finalizers: summed statistics -> value
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("num, den, expected", [
    (3, 4, 0.75),
    (-1.5, 1.0, -1.5),      # a denominator of 1 is no special case
    (2.0, -4.0, -0.5),      # nor is a negative one
    (0.0, 2.0, 0.0),
    (1.0, 0.0, math.nan),   # no weight: undefined
    (0.0, 0.0, math.nan),
])
def test_ratio_of_sums_of_plain_numbers(num, den, expected):
    got = ratio_of_sums([num, den])
    assert isinstance(got, float)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == expected


def test_ratio_of_sums_of_columns():
    sums = np.array([[1.0, 2.0, 3.0, -2.0, 5.0],
                     [2.0, 0.0, 4.0, 1.0, -0.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no division warning either
        got = ratio_of_sums(sums)
    assert_array_equal(got, [0.5, np.nan, 0.75, -2.0, -10.0])
    # 0-d NumPy values (NumPy 2 scalars carry an Array API namespace)
    assert ratio_of_sums(np.array([6.0, 4.0])) == 1.5


def test_exp_ratio_is_the_geometric_mean_of_the_weighted_logs():
    # values 2 and 8 with weights 1 and 2: exp((log 2 + 2 log 8) / 3) = 2**(7/3)
    num = 1 * math.log(2.0) + 2 * math.log(8.0)
    got = _exp_ratio([num, 3.0])
    assert isinstance(got, float)
    assert got == pytest.approx(2 ** (7 / 3), rel=1e-15)
    assert math.isnan(_exp_ratio([1.0, 0.0]))
    columns = _exp_ratio(np.array([[math.log(3.0), 0.0, 2 * math.log(5.0)],
                                   [1.0, 0.0, 2.0]]))
    assert_allclose(columns, [3.0, np.nan, 5.0], rtol=1e-15)


def test_finalizers_stay_in_the_arrays_namespace():
    xs = _strict()
    # the numerators and denominators as two arrays of the namespace
    sums = [xs.asarray([1.0, 4.0 * math.log(2.0)]), xs.asarray([2.0, 4.0])]
    r = ratio_of_sums(sums)
    g = _exp_ratio(sums)
    assert type(r) is type(sums[0]) and type(g) is type(sums[0])
    assert_allclose(np.asarray(r), [0.5, math.log(2.0)], rtol=1e-15)
    assert_allclose(np.asarray(g), [math.exp(0.5), 2.0], rtol=1e-15)
    zero = ratio_of_sums([xs.asarray([1.0]), xs.asarray([0.0])])
    assert np.isnan(np.asarray(zero)).all()


def test_finalizers_of_pooled_sums_stay_in_the_arrays_namespace():
    # a pooled average sums each statistic over the groups: 0-d arrays
    xs = _strict()
    sums = xs.asarray([3.0, 4.0])
    r = ratio_of_sums(sums)
    assert type(r) is type(sums) and r.ndim == 0
    assert float(r) == 0.75
    assert math.isnan(float(ratio_of_sums(xs.asarray([3.0, 0.0]))))
    g = _exp_ratio(xs.asarray([2 * math.log(3.0), 2.0]))
    assert type(g) is type(sums) and float(g) == pytest.approx(3.0, rel=1e-15)
    # Python numbers give a Python float
    assert type(ratio_of_sums([3, 4])) is float


# ---------------------------------------------------------------------------
# the averages of hand-made partials, against API.md's definitions
# ---------------------------------------------------------------------------
VALUES = np.array([0.5, 0.0, 1.0, 0.25, 2e-6, 0.75])
DEFINED = np.array([True, False, True, True, True, True])
STATS = np.array([[1.0, 0.0, 2.0, 0.5, 0.0, 3.0],      # pooled numerators
                  [2.0, 4.0, 2.0, 2.0, 1.0, 4.0]])     # pooled denominators
INFO = GroupInfo(labels=np.array(["a", "b", "c", "d", "e", "f"]),
                 n_items=np.array([2, 4, 2, 2, 1, 4]),
                 n_relevant=np.array([1, 0, 2, 1, 1, 3]),
                 weight=np.array([2.0, 4.0, 3.0, 1.5, 1.0, 6.0]),
                 query_weight=np.array([1.0, 2.0, 1.5, 0.5, 1.0, 1.5]),
                 item_macro_weight=np.ones(6))


def _rule(query_weighted=True, pools_undefined=False):
    return AverageRule("test metric", query_weighted=query_weighted,
                       pools_undefined=pools_undefined)


def _expected(average, values, query_weighted, undefined=None):
    values = np.where(DEFINED, values, np.nan if undefined is None else undefined)
    return ref.group_average(values, average=average, group_weight=INFO.weight,
                             query_weight=INFO.query_weight,
                             query_weighted=query_weighted)


@pytest.mark.parametrize("average", ["macro", "weighted", "gmean"])
@pytest.mark.parametrize("query_weighted", [True, False])
@pytest.mark.parametrize("undefined", [None, 0.5])
def test_averages_of_partials_follow_the_definitions(average, query_weighted,
                                                     undefined):
    partials = Partials(VALUES, DEFINED, STATS)
    kwargs = {} if undefined is None else {"undefined": undefined}
    got = aggregate(partials, INFO, _rule(query_weighted), average=average, **kwargs)
    assert got == pytest.approx(_expected(average, VALUES, query_weighted,
                                          undefined), rel=1e-13)
    # the statistics: zero in the groups that do not count
    avg = average_terms(partials, INFO, _rule(query_weighted), average=average,
                        **kwargs)
    counted = DEFINED if undefined is None else np.ones(6, bool)
    assert_array_equal(avg.counted, counted)
    assert (avg.stats[:, ~counted] == 0).all()


def test_gmean_floors_values_at_trec_evals_min_geo_mean():
    assert MIN_GEO_MEAN == 1e-5
    values = np.array([0.0, 1e-7, 0.5, 1.0])
    partials = Partials(values, np.ones(4, bool))
    info = GroupInfo(np.arange(4), np.ones(4), np.ones(4), np.ones(4), np.ones(4),
                     np.ones(4))
    got = aggregate(partials, info, _rule(), average="gmean")
    expected = math.exp((2 * math.log(1e-5) + math.log(0.5) + 0.0) / 4)
    assert got == pytest.approx(expected, rel=1e-14)


@pytest.mark.parametrize("query_weighted", [True, False])
def test_micro_pools_the_statistics_times_the_query_weight(query_weighted):
    partials = Partials(VALUES, DEFINED, STATS)
    qw = INFO.query_weight if query_weighted else INFO.item_macro_weight
    ok = DEFINED
    expected = (np.sum(qw[ok] * STATS[0, ok]) / np.sum(qw[ok] * STATS[1, ok]))
    got = aggregate(partials, INFO, _rule(query_weighted), average="micro")
    assert got == pytest.approx(expected, rel=1e-14)
    # a metric whose statistics pool every group's rows counts group "b" too
    pooled = aggregate(partials, INFO, _rule(query_weighted, pools_undefined=True),
                       average="micro")
    assert pooled == pytest.approx(np.sum(qw * STATS[0]) / np.sum(qw * STATS[1]),
                                   rel=1e-14)


def test_micro_uses_the_metrics_own_finalize():
    # a finalize of three statistics (as the normalized entropy's)
    stats = np.array([[1.0, 2.0], [3.0, 5.0], [7.0, 11.0]])
    rule = AverageRule("three", finalize=lambda s: (s[0] + s[1]) / s[2])
    got = aggregate(Partials(np.zeros(2), np.ones(2, bool), stats),
                    INFO.take([0, 2]), rule, average="micro")
    qw = INFO.query_weight[[0, 2]]
    expected = (qw @ stats[0] + qw @ stats[1]) / (qw @ stats[2])
    assert got == pytest.approx(expected, rel=1e-14)


def test_average_none_gives_nan_where_undefined():
    got = aggregate(Partials(VALUES, DEFINED), INFO, _rule(), average=None)
    assert_array_equal(got, np.where(DEFINED, VALUES, np.nan))
    filled = aggregate(Partials(VALUES, DEFINED), INFO, _rule(), average=None,
                       undefined=-1.0)
    assert_array_equal(filled, np.where(DEFINED, VALUES, -1.0))
    with pytest.warns(UndefinedMetricWarning, match="test metric is undefined for "
                      "every group"):
        none = aggregate(Partials(VALUES, np.zeros(6, bool)), INFO, _rule(),
                         average=None)
    assert np.isnan(none).all()


# ---------------------------------------------------------------------------
# the undefined-group policies and their messages
# ---------------------------------------------------------------------------
def test_undefined_raise_names_the_count_and_the_first_group():
    defined = np.array([True, False, True, False, True, True])
    with pytest.raises(ValueError, match=r"^test metric is undefined for 2 "
                       r"group\(s\), e\.g\. group 'b' \(no relevant item\)\. "
                       r"Pass undefined='skip'"):
        apply_undefined(Partials(VALUES, defined), INFO.labels, undefined="raise",
                        label="test metric")
    with pytest.raises(ValueError, match=r"group 'b' \(no relevant item, or a "
                       r"single class\)"):
        apply_undefined(Partials(VALUES, defined), INFO.labels, undefined="raise",
                        label="AUC", needs_negative=True)
    # nothing undefined: no error, the partials as they are
    same = apply_undefined(Partials(VALUES, np.ones(6, bool)), INFO.labels,
                           undefined="raise", label="x")
    assert_array_equal(same.value, VALUES)


@pytest.mark.parametrize("needs_negative, why", [
    (False, "no relevant item"), (True, "no relevant item, or a single class")])
def test_averages_apply_the_undefined_policy_with_the_metrics_words(needs_negative,
                                                                    why):
    # the policy of aggregate and average_terms: the metric's label, its
    # reason and the first undefined group of the info's labels
    rule = AverageRule("GAUC", needs_negative=needs_negative)
    message = (rf"^GAUC is undefined for 1 group\(s\), e\.g\. group 'b' "
               rf"\({why}\)\. Pass")
    for average in ("macro", "weighted", "micro", "gmean", None):
        with pytest.raises(ValueError, match=message):
            aggregate(Partials(VALUES, DEFINED, STATS), INFO, rule,
                      average=average, undefined="raise")
    with pytest.raises(ValueError, match=message):
        average_terms(Partials(VALUES, DEFINED, STATS), INFO, rule,
                      average="macro", undefined="raise")


def test_averages_skip_undefined_groups_by_default():
    partials = Partials(VALUES, DEFINED, STATS)
    skip = aggregate(partials, INFO, _rule(), average="macro", undefined="skip")
    assert aggregate(partials, INFO, _rule(), average="macro") == skip
    assert skip == pytest.approx(_expected("macro", VALUES, True), rel=1e-14)
    terms = average_terms(partials, INFO, _rule(), average="macro")
    assert_array_equal(terms.counted, DEFINED)


def test_undefined_number_fills_and_defines_every_group():
    got = apply_undefined(Partials(VALUES, DEFINED, STATS), INFO.labels,
                          undefined=0.125, label="x")
    assert_array_equal(got.value, np.where(DEFINED, VALUES, 0.125))
    assert got.defined.all()
    assert_array_equal(got.stats, STATS)
    skipped = apply_undefined(Partials(VALUES, DEFINED), INFO.labels,
                              undefined="skip", label="x")
    assert_array_equal(skipped.defined, DEFINED)


def test_labels_in_messages_are_plain_python_values():
    assert repr(plain_label(np.str_("a"))) == "'a'"
    assert repr(plain_label(np.int64(7))) == "7"
    assert plain_label("b") == "b"
    assert first_label(np.array([5, 6, 7]), np.array([False, True, True])) == 6
    xs = _strict()
    labels = xs.asarray([5, 6, 7])
    got = first_label(labels, xs.asarray([False, False, True]))
    assert got == 7 and type(got) is int
    zero_d = plain_label(xs.asarray(3))  # a 0-d array of another namespace
    assert zero_d == 3 and type(zero_d) is int


@pytest.mark.parametrize("n_counted, sums, message", [
    (0, None, "test metric is undefined for every group (no group has a relevant "
              "item); returning NaN."),
    (2, np.array([1.0, 0.0]), "test metric: the groups that define it have zero "
                              "total weight; returning NaN."),
])
def test_finalize_value_warns_why_it_is_nan(n_counted, sums, message):
    with pytest.warns(UndefinedMetricWarning) as record:
        got = finalize_value(sums, n_counted, label="test metric",
                             finalize=ratio_of_sums)
    assert math.isnan(got)
    assert [str(r.message) for r in record] == [message]


def test_finalize_value_gives_a_pooled_metrics_reason_and_no_warning_for_nan_sums():
    with pytest.warns(UndefinedMetricWarning,
                      match=r"^NE is undefined: one class only; returning NaN\.$"):
        finalize_value(np.array([1.0, 0.0]), 3, label="NE", finalize=ratio_of_sums,
                       reason="one class only")
    with pytest.warns(UndefinedMetricWarning, match="relevant item and an "
                      "irrelevant one"):
        finalize_value(None, 0, label="AUC", needs_negative=True, finalize=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # NaN statistics are a NaN value, not an undefined average
        assert math.isnan(finalize_value(np.array([np.nan, 1.0]), 1, label="x",
                                         finalize=ratio_of_sums))
        assert finalize_value(np.array([1.0, 4.0]), 1, label="x",
                              finalize=ratio_of_sums) == 0.25


@pytest.mark.parametrize("average", ["macro", "micro", "gmean", None])
def test_averages_with_no_defined_group_warn_in_the_metrics_words(average):
    rule = AverageRule("GAUC", needs_negative=True)
    with pytest.warns(UndefinedMetricWarning, match=r"^GAUC is undefined for every "
                      r"group \(no group has a relevant item and an irrelevant "
                      r"one\); returning NaN\.$"):
        got = aggregate(Partials(VALUES, np.zeros(6, bool), STATS), INFO, rule,
                        average=average)
    assert np.isnan(got).all()


def test_a_pooled_metrics_reason_is_given_for_its_pooled_average_only():
    # zero query weights: every average is 0 / 0.  The pooled (micro)
    # average of a metric that says why it can be undefined gives its
    # reason; its other averages the zero total weight
    rule = SimpleNamespace(label="NE", query_weighted=True, needs_negative=False,
                           finalize=None, pools_undefined=True,
                           pooled_undefined="no click in the counted rows")
    info = INFO._replace(query_weight=np.zeros(6))
    partials = Partials(VALUES, DEFINED, STATS)
    with pytest.warns(UndefinedMetricWarning, match=r"^NE is undefined: no click "
                      r"in the counted rows; returning NaN\.$"):
        assert math.isnan(aggregate(partials, info, rule, average="micro"))
    with pytest.warns(UndefinedMetricWarning, match=r"^NE: the groups that define "
                      r"it have zero total weight; returning NaN\.$"):
        assert math.isnan(aggregate(partials, info, rule, average="macro"))


def test_the_undefined_policy_keeps_the_arrays_namespace():
    xs = _strict()
    partials = Partials(xs.asarray(VALUES), xs.asarray(DEFINED))
    filled = apply_undefined(partials, INFO.labels, undefined=0.5, label="x")
    assert type(filled.value) is type(partials.value)
    assert_array_equal(np.asarray(filled.value), np.where(DEFINED, VALUES, 0.5))
    assert np.asarray(filled.defined).all()
    with pytest.raises(ValueError, match=r"x is undefined for 1 group\(s\), e\.g\. "
                       r"group 'b'"):
        apply_undefined(partials, INFO.labels, undefined="raise", label="x")


# ---------------------------------------------------------------------------
# partials and group info of disjoint groups
# ---------------------------------------------------------------------------
def test_partials_take_concatenate_and_to_numpy():
    p = Partials(VALUES, DEFINED, STATS)
    sub = p.take(np.array([4, 0]))
    assert_array_equal(sub.value, VALUES[[4, 0]])
    assert_array_equal(sub.defined, DEFINED[[4, 0]])
    assert_array_equal(sub.stats, STATS[:, [4, 0]])
    # one part, and parts of any sizes, in order
    one = Partials.concatenate([sub])
    for a, b in zip(one, sub):
        assert_array_equal(a, b)
    both = Partials.concatenate([p.take(np.array([1, 2])), sub])
    assert_array_equal(both.value, VALUES[[1, 2, 4, 0]])
    assert_array_equal(both.stats, STATS[:, [1, 2, 4, 0]])
    no_stats = Partials.concatenate([Partials(VALUES[:1], DEFINED[:1])])
    assert no_stats.stats is None
    assert p.to_numpy().stats is STATS
    assert Partials(VALUES, DEFINED).to_numpy().stats is None


def test_partials_of_another_namespace():
    xs = _strict()
    p = Partials(xs.asarray(VALUES), xs.asarray(DEFINED), xs.asarray(STATS))
    sub = p.take(xs.asarray([4, 0]))
    assert_array_equal(np.asarray(sub.stats), STATS[:, [4, 0]])
    both = Partials.concatenate([sub, p.take(xs.asarray([1]))])
    assert type(both.stats) is type(p.stats)
    assert_array_equal(np.asarray(both.stats), STATS[:, [4, 0, 1]])
    assert_array_equal(np.asarray(both.value), VALUES[[4, 0, 1]])
    host = both.to_numpy()
    assert isinstance(host.stats, np.ndarray) and isinstance(host.value, np.ndarray)
    assert_array_equal(host.defined, DEFINED[[4, 0, 1]])


def test_group_info_take_and_concatenate():
    a, b = INFO.take(np.array([3])), INFO.take(np.array([0, 5]))
    for got, column in zip(GroupInfo.concatenate([a]), INFO):
        assert_array_equal(got, column[[3]])
    for got, column in zip(GroupInfo.concatenate([a, b]), INFO):
        assert_array_equal(got, column[[3, 0, 5]])
    xs = _strict()
    # (integer labels: array-api-strict holds no strings)
    strict = GroupInfo(xs.asarray([10, 11, 12, 13, 14, 15]),
                       *(xs.asarray(c) for c in INFO[1:]))
    joined = GroupInfo.concatenate([strict.take(xs.asarray([3])),
                                    strict.take(xs.asarray([0, 5]))])
    assert_array_equal(np.asarray(joined.labels), [13, 10, 15])
    for got, column in zip(joined[1:], INFO[1:]):
        assert type(got) is type(strict.weight)
        assert_array_equal(np.asarray(got), column[[3, 0, 5]])
