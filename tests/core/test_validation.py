"""One rule, one message: the same bad input is refused with the same words
from every entry point (metric function, report, per-group frame,
accumulator, comparison), naming the caller's own argument."""

import re

import numpy as np
import pytest

from sklearn_rankeval import (
    RankingAccumulator,
    calibration_ratio,
    compare_rankings,
    expected_calibration_error,
    log_loss,
    normalized_entropy,
    per_group_scores,
    ranking_report,
)

Y = np.array([0, 1, 0, 1, 1, 0])
G = np.array([1, 1, 1, 2, 2, 2])


def _message(call):
    with pytest.raises(ValueError) as info:
        call()
    return str(info.value)


def _entry_points(y, p, metric):
    """Every way a user reaches a probability metric, with the name of its
    score argument."""
    return {
        "function": ("y_prob", lambda: {"log_loss": log_loss, "ne": normalized_entropy,
                                        "pcoc": calibration_ratio,
                                        "ece": expected_calibration_error}[metric](
            y, p, groups=G)),
        "report": ("y_score", lambda: ranking_report(y, p, groups=G, metrics=[metric])),
        "per_group": ("y_score", lambda: per_group_scores(y, p, groups=G,
                                                          metrics=[metric])),
        "accumulator": ("y_score", lambda: RankingAccumulator([metric]).update(
            y, p, groups=G)),
        "compare": ("y_score", lambda: compare_rankings(
            y, {"a": p, "b": p}, groups=G, metrics=[metric])),
    }


@pytest.mark.parametrize("metric", ["log_loss", "ne", "pcoc", "ece"])
def test_a_probability_outside_0_1_has_one_message(metric):
    p = np.array([0.2, 1.5, 0.1, 0.9, 0.7, 0.3])
    for where, (name, call) in _entry_points(Y, p, metric).items():
        assert _message(call) == (f"{name} must hold probabilities in [0, 1]; "
                                  f"found values in [0.1, 1.5]."), where


@pytest.mark.parametrize("metric", ["log_loss", "ne", "pcoc", "ece"])
def test_minus_inf_is_not_a_probability(metric):
    p = np.array([0.2, -np.inf, 0.1, 0.9, 0.7, 0.3])
    for where, (name, call) in _entry_points(Y, p, metric).items():
        assert _message(call) == (f"{name} must hold probabilities in [0, 1]; "
                                  f"found values in [-inf, 0.9]."), where


@pytest.mark.parametrize("metric", ["log_loss", "ne", "pcoc", "ece"])
def test_a_label_of_2_has_one_message(metric):
    y = np.array([0, 2, 0, 1, 1, 0])
    p = np.full(6, 0.5)
    for where, (_, call) in _entry_points(y, p, metric).items():
        assert _message(call) == ("y_true must hold binary labels (0/1, booleans "
                                  "or -1/1); got the values [0, 1, 2]."), where


def test_nan_probability_names_the_argument():
    p = np.array([0.2, np.nan, 0.1, 0.9, 0.7, 0.3])
    for where, (name, call) in _entry_points(Y, p, "ne").items():
        assert _message(call) == f"{name} contains NaN.", where


def test_length_mismatch_names_y_prob_in_the_ctr_functions():
    msg = _message(lambda: log_loss(Y, np.full(5, 0.5)))
    assert "y_prob" in msg and "y_score" not in msg
    assert re.fullmatch(r"y_true and y_prob have inconsistent lengths: 6 and 5\.", msg)


def test_messages_show_plain_numbers():
    p = np.array([0.2, 2.7, 0.1, 0.9, 0.7, 0.3], dtype=np.float32)
    msg = _message(lambda: normalized_entropy(Y, p))
    assert msg == "y_prob must hold probabilities in [0, 1]; found values in [0.1, 2.7]."


@pytest.mark.parametrize("bad, shown", [(0, "0"), (-3, "-3"), (1.5, "1.5")])
def test_a_bad_position_is_shown_as_written_whatever_the_container(bad, shown):
    # a pandas column is read as floats, an Arrow or NumPy one as integers:
    # one message (the Spark, Dask and in-memory counterfactual reports)
    import pandas as pd

    from sklearn_rankeval._core import validate_positions

    containers = [pd.Series([2, 1, bad]), np.array([2.0, 1.0, bad])]
    if float(bad).is_integer():
        containers.append(np.array([2, 1, bad], dtype=np.int32))
    for positions in containers:
        assert _message(lambda p=positions: validate_positions(p)) == (
            f"positions must hold integers >= 1 (1-based ranks); got {shown}.")


def test_inputs_are_not_modified():
    p = np.array([0.2, 1.5, 0.1, 0.9, 0.7, 0.3])
    y = Y.copy()
    before = p.copy(), y.copy()
    _message(lambda: log_loss(y, p))
    np.testing.assert_array_equal(p, before[0])
    np.testing.assert_array_equal(y, before[1])
