"""f_alpha_score: alpha or beta, and its checks of the arguments."""

import math

import numpy as np
import pytest
from sklearn.metrics import fbeta_score, precision_score, recall_score

from sklearn_rankeval import f_alpha_score

# P = 1/2, R = 1
Y_TRUE, Y_PRED = [1, 0, 0, 1, 0], [1, 1, 0, 1, 1]


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.7])
def test_beta_is_sklearn_fbeta_and_alpha_one_over_one_plus_beta_squared(beta):
    got = f_alpha_score(Y_TRUE, Y_PRED, beta=beta)
    assert got == pytest.approx(fbeta_score(Y_TRUE, Y_PRED, beta=beta), abs=1e-15)
    alpha = 1 / (1 + beta**2)
    assert got == pytest.approx(f_alpha_score(Y_TRUE, Y_PRED, alpha=alpha), abs=1e-12)
    # P = 1/2, R = 1: F = (1 + b^2) P R / (b^2 P + R)
    assert got == pytest.approx((1 + beta**2) * 0.5 / (beta**2 * 0.5 + 1), abs=1e-12)


def test_beta_limits_are_precision_and_recall_exactly():
    y_true = [1, 1, 1, 0, 0, 0, 1]
    y_pred = [1, 0, 1, 1, 0, 1, 0]
    assert f_alpha_score(y_true, y_pred, beta=0.0) == precision_score(y_true, y_pred) == 0.5
    assert f_alpha_score(y_true, y_pred, beta=math.inf) == recall_score(y_true, y_pred) == 0.5
    # beta=1 is F1, not the precision (alpha=1 is the precision)
    assert f_alpha_score([1, 0, 0], [1, 0, 1], beta=1.0) == pytest.approx(2 / 3)
    assert f_alpha_score([1, 0, 0], [1, 0, 1], alpha=1.0) == 0.5


@pytest.mark.parametrize("alpha", [0.5, 0.2, 1.0])
def test_alpha_and_beta_together_raise(alpha):
    # alpha=0.5 given explicitly is still "both"
    with pytest.raises(ValueError, match="alpha or beta, not both"):
        f_alpha_score(Y_TRUE, Y_PRED, alpha=alpha, beta=1.0)


@pytest.mark.parametrize("beta, error", [(-0.5, ValueError), (math.nan, ValueError),
                                         ("1", TypeError), (True, TypeError)])
def test_bad_beta_raises(beta, error):
    with pytest.raises(error, match="beta"):
        f_alpha_score(Y_TRUE, Y_PRED, beta=beta)


def test_negative_sample_weight_raises_naming_it():
    # the package's one rule, with the words every metric uses
    from sklearn_rankeval import gauc_score

    with pytest.raises(ValueError) as f_alpha:
        f_alpha_score(Y_TRUE, Y_PRED, sample_weight=[1, 1, -2, 1, 1])
    with pytest.raises(ValueError) as gauc:
        gauc_score(Y_TRUE, Y_PRED, sample_weight=[1, 1, -2, 1, 1])
    assert str(f_alpha.value) == str(gauc.value) == "sample_weight must be non-negative."


def test_sample_weight_still_weights():
    # weight 0 on the false positives at rows 1 and 4: precision 1, so F1 = 1
    weights = np.array([1.0, 0.0, 1.0, 1.0, 0.0])
    assert f_alpha_score(Y_TRUE, Y_PRED, sample_weight=weights) == 1.0
    assert f_alpha_score(Y_TRUE, Y_PRED) == pytest.approx(2 / 3)
