"""Declared parameters: one constraint per option, one error kind.

Every option of every registry metric, and the shared options of the
functions, raise :class:`InvalidParameterError` -- both a ``ValueError`` and
a ``TypeError``, as scikit-learn's -- for a value of the wrong type and for
one out of range, with the parameter's name first in the message.
"""

import math
from numbers import Integral, Real

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError as SklearnIPE

from sklearn_rankeval import (
    expected_reciprocal_rank_score,
    ndcg_score,
    ranking_report,
)
from sklearn_rankeval._core import (
    Interval,
    InvalidParameterError,
    Options,
    check_k,
    check_undefined,
    declared,
)
from sklearn_rankeval._metrics._registry import LIST_METRICS, METRICS


def test_the_error_is_both_kinds_and_sklearns():
    err = InvalidParameterError("k", "must be a positive integer, got 0.")
    assert isinstance(err, ValueError) and isinstance(err, TypeError)
    assert isinstance(err, SklearnIPE)
    assert str(err) == "k must be a positive integer, got 0."
    assert err.argument == "k"


def test_the_error_survives_pickling_with_its_message():
    # Dask and Spark workers raise it: the driver sees the same error
    import pickle

    err = None
    try:
        declared("k", Interval(Integral, 1, None), text="a positive integer")(0)
    except InvalidParameterError as exc:
        err = exc
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is InvalidParameterError
    assert str(back) == "k must be a positive integer, got 0."
    assert (back.argument, back.problem, back.value) == (
        "k", "must be a positive integer, got 0.", 0)
    custom = InvalidParameterError("x", "is wrong.", message="x: said otherwise")
    assert str(pickle.loads(pickle.dumps(custom))) == "x: said otherwise"


@pytest.mark.parametrize("interval, inside, outside", [
    (Interval(Integral, 1, None), [1, 2, 10**12, np.int64(3)],
     [0, -1, 1.5, True, "2", None, math.nan]),
    (Interval(Real, 0, 1, "right"), [1, 0.5, 1e-300], [0, 1.0000001, math.nan, False]),
    (Interval(Real, 0, 1, "neither"), [0.5], [0, 1, -0.1]),
    (Interval(Real, 0, 1, "both"), [0, 1, 0.3], [-1e-9, 2]),
    (Interval(Real, 0, 1, "left"), [0, 0.999], [1, -0.1]),
    (Interval(Real, None, 1, "right"), [-1e300, 1], [1.5]),
    (Interval(Real, -math.inf, math.inf, "neither"), [0.0, -5, 1e308],
     [math.inf, -math.inf, math.nan]),
])
def test_interval_membership(interval, inside, outside):
    for v in inside:
        assert interval.holds(v), v
    for v in outside:
        assert not interval.holds(v), v


@pytest.mark.parametrize("interval, text", [
    (Interval(Integral, 1, None), "an integer >= 1"),
    (Interval(Integral, 1, None, "neither"), "an integer > 1"),
    (Interval(Real, 0, 1, "right"), "a number in (0, 1]"),
    (Interval(Real, 0, 1, "left"), "a number in [0, 1)"),
    (Interval(Real, 0, 1, "both"), "a number in [0, 1]"),
    (Interval(Real, 0, 1, "neither"), "a number in (0, 1)"),
    (Interval(Real, None, 5), "a number <= 5"),
    (Interval(Real, None, 5, "left"), "a number < 5"),
    (Interval(Real), "a number"),
    (Interval(Integral), "an integer"),
])
def test_interval_words(interval, text):
    assert interval.text() == text
    # the default message says the same
    with pytest.raises(InvalidParameterError) as err:
        declared("x", interval)("nope")
    assert str(err.value) == f"x must be {text}, got 'nope'."
    assert err.value.value == "nope" and err.value.argument == "x"


def test_options_and_averages():
    from sklearn_rankeval._core import check_average, check_option

    assert check_option("a", "opt", ("a", "b")) == "a"
    with pytest.raises(InvalidParameterError,
                       match=r"^opt must be one of 'a', 'b', got 'c'\.$"):
        check_option("c", "opt", ["a", "b"])
    assert check_average(None, ("macro",)) is None
    assert check_average("macro", ("macro", "micro")) == "macro"
    with pytest.raises(InvalidParameterError,
                       match=r"^average must be one of 'macro' or None, got 'mean'"):
        check_average("mean", ("macro",))
    from sklearn_rankeval._core import check_positive_int

    assert check_positive_int(np.int8(3), "n") == 3
    assert check_positive_int(None, "n") is None
    with pytest.raises(InvalidParameterError, match="^n must be a positive integer, got None"):
        check_positive_int(None, "n", allow_none=False)
    with pytest.raises(InvalidParameterError,
                       match="^n must be a positive integer or None, got 0"):
        check_positive_int(0, "n")


def test_declared_message_and_conversion():
    check = declared("x", Interval(Integral, 2, None), Options(("auto",)), None,
                     convert=int)
    assert check(np.int32(4)) == 4 and type(check(np.int32(4))) is int
    assert check("auto") == "auto" and check(None) is None
    # the check is named and worded for its parameter
    assert check.__name__ == "check_x"
    assert check.text == "an integer >= 2 or one of 'auto' or None"
    with pytest.raises(InvalidParameterError,
                       match=r"^x must be an integer >= 2 or one of 'auto' or "
                             r"None, got 1\.$"):
        check(1)
    with pytest.raises(InvalidParameterError, match="got 'Auto'"):
        check("Auto")


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10", True, math.nan])
def test_k_one_kind_of_error(bad):
    # a bad k was a TypeError or a ValueError depending on the value
    with pytest.raises(InvalidParameterError, match="^k must be a positive integer"):
        check_k(bad)
    with pytest.raises(ValueError, match="^k must be"):
        ndcg_score([[1, 0]], [[0.2, 0.1]], k=bad)
    with pytest.raises(TypeError, match="^k must be"):
        ndcg_score([[1, 0]], [[0.2, 0.1]], k=bad)


@pytest.mark.parametrize("bad", [0, 2.5, "4", -1])
def test_max_grade_same_kind_as_k(bad):
    with pytest.raises(InvalidParameterError, match="^max_grade must be an integer >= 1"):
        expected_reciprocal_rank_score([[1, 0]], [[0.2, 0.1]], max_grade=bad)


def test_undefined_is_strict():
    for good in ("warn", "skip", "raise"):
        assert check_undefined(good) == good
    for good in (0, 1.0, -2, np.float32(0.5)):
        got = check_undefined(good)
        assert got == float(good) and type(got) is float
    for bad in ("rase", "Skip", "", math.nan, math.inf, True, None, [0]):
        with pytest.raises(InvalidParameterError, match="^undefined must be"):
            check_undefined(bad)
    # internal paths too: a registry entry's from_ranked
    from sklearn_rankeval._engine import rank_groups
    rg = rank_groups([1, 0, 0, 0], [0.3, 0.2, 0.1, 0.4], groups=[1, 1, 2, 2])
    with pytest.raises(InvalidParameterError, match="undefined must be"):
        METRICS["mrr"].from_ranked(rg, average=None, undefined="rase")


def test_digits_declared():
    with pytest.raises(InvalidParameterError, match="^digits must be a non-negative"):
        ranking_report([1, 0], [0.5, 0.2], digits=-1)


class _Odd:
    """A value of no accepted type."""


@pytest.mark.parametrize("table", [METRICS, LIST_METRICS], ids=["rows", "lists"])
def test_every_registry_option_raises_the_one_kind(table):
    # every declared option refuses a value of no accepted type with the one
    # error kind, naming itself
    for spec in table.values():
        for name, _, check in spec.options:
            with pytest.raises(InvalidParameterError) as err:
                check(_Odd())
            assert str(err.value).startswith(name), (spec.name, name, err.value)
