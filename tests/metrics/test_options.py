"""Options specific to one metric: their values, and their bad inputs."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

import sklearn_rankeval as rk


def test_f_alpha_rejects_alpha_outside_unit_interval():
    for alpha, exc in [(-0.1, ValueError), (1.5, ValueError), (np.nan, ValueError),
                       ("0.5", TypeError), (None, TypeError)]:
        with pytest.raises(exc, match="alpha"):
            rk.f_alpha_score([1, 0, 1], [1, 1, 0], alpha=alpha)


@pytest.mark.parametrize("n_points, exc", [(1, ValueError), (0, ValueError),
                                           (2.0, TypeError), (True, TypeError)])
def test_n_points_must_be_an_integer_at_least_two(n_points, exc):
    for func in (rk.interpolated_average_precision_score,
                 rk.interpolated_precision_recall_curve):
        with pytest.raises(exc, match="n_points"):
            func([1, 0], [0.5, 0.2], n_points=n_points)


def test_unknown_string_options_name_the_argument():
    with pytest.raises(ValueError, match="recall_levels"):
        rk.interpolated_average_precision_score([1, 0], [1, 0], recall_levels="trec")
    with pytest.raises(ValueError, match="k_denominator"):
        rk.mean_average_precision_score([1, 0], [1, 0], k=1, k_denominator="max")


def test_trec_eval_recall_levels_refuse_weights():
    with pytest.raises(ValueError, match="recall_levels"):
        rk.interpolated_average_precision_score(
            [1, 0], [1, 0], sample_weight=[1, 2], recall_levels="trec_eval_9")


def test_multiclass_label_errors():
    P = np.array([[0.2, 0.8], [0.6, 0.4], [0.5, 0.5]])
    with pytest.raises(ValueError, match="labels"):
        rk.hit_rate_score([0, 0, 0], P, k=1)  # one class seen, two columns
    with pytest.raises(ValueError, match="labels"):
        rk.hit_rate_score([0, 1, 2], P, k=1, labels=[0, 1])  # 2 not a label
    with pytest.raises(ValueError, match="labels"):
        rk.hit_rate_score([0, 1, 0], P, k=1, labels=[0, 0])
    with pytest.raises(ValueError, match="labels"):
        rk.hit_rate_score([0, 1, 0], P, k=1, labels=[0, 1, 2])
    # with labels, a fold that misses a class is fine
    assert rk.hit_rate_score([1, 1, 0], P, k=1, labels=[0, 1]) == pytest.approx(
        (1 + 0 + 0.5) / 3)


def test_map_k_denominator_relevant_is_trec_map_cut():
    # relevant at ranks 1 and 4 of 3 relevant items (one not retrieved)
    y = [1, 0, 0, 1, 1]
    s = [5, 4, 3, 2, -np.inf]
    assert rk.mean_average_precision_score(y, s, k=2) == pytest.approx(1 / 2)
    assert rk.mean_average_precision_score(y, s, k=2, k_denominator="relevant") == (
        pytest.approx(1 / 3))
    assert rk.mean_average_precision_score(y, s) == pytest.approx((1 + 2 / 4) / 3)


def test_minus_inf_items_count_as_relevant_but_unretrieved():
    y = [1, 1, 0, 1]
    s = [0.9, 0.1, 0.5, -np.inf]
    assert rk.recall_at_k_score(y, s, k=3) == pytest.approx(2 / 3)
    assert rk.precision_at_k_score(y, s, k=4) == pytest.approx(2 / 4)
    # rank 1 and rank 3 relevant, third relevant never retrieved
    assert rk.mean_average_precision_score(y, s) == pytest.approx((1 + 2 / 3) / 3)
    # NDCG: the unretrieved item still counts in the ideal DCG
    dcg = 1 + 1 / np.log2(4)
    idcg = 1 + 1 / np.log2(3) + 1 / np.log2(4)
    assert rk.ndcg_score(y, s) == pytest.approx(dcg / idcg)
    # all unretrieved: nothing found
    assert rk.mean_reciprocal_rank_score([1, 0], [-np.inf, -np.inf]) == 0.0
    # GAUC: -inf ranks below every finite score
    assert rk.gauc_score([0, 1, 0], [-np.inf, 0.0, -np.inf]) == 1.0


def test_interpolated_curve_all_points_single_ranking():
    precision, recall = rk.interpolated_precision_recall_curve(
        [1, 0, 1, 0, 1], [5, 4, 3, 2, 1], n_points=None)
    assert_allclose(recall, [0, 1 / 3, 2 / 3, 1])
    assert_allclose(precision, [1, 1, 2 / 3, 3 / 5])
    with pytest.raises(ValueError, match="n_points"):
        rk.interpolated_precision_recall_curve([1, 0], [1, 0], groups=[1, 2],
                                               n_points=None)


def test_multiclass_integer_labels_in_column_order_and_out_of_range():
    rng = np.random.default_rng(0)
    P = rng.random((50, 4))
    y = rng.integers(0, 4, 50)
    # the 0..n-1 shortcut agrees with the general label mapping
    shuffled = np.array([2, 0, 3, 1])
    # column i of P[:, shuffled] holds the scores of class shuffled[i]
    expected = rk.mean_reciprocal_rank_score(y, P[:, shuffled], labels=shuffled)
    assert rk.mean_reciprocal_rank_score(y, P, labels=np.arange(4)) == pytest.approx(
        expected, rel=1e-12)
    ranks = 1 + (P > P[np.arange(50), y][:, None]).sum(axis=1)
    assert expected == pytest.approx(np.mean(1 / ranks), rel=1e-12)
    with pytest.raises(ValueError, match="labels"):
        rk.hit_rate_score(np.array([0, 4]), P[:2], k=1, labels=np.arange(4))
    with pytest.raises(ValueError, match="labels"):
        rk.hit_rate_score(np.array([-1, 0]), P[:2], k=1, labels=np.arange(4))
