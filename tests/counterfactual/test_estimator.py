"""PositionBiasEstimator: recovery of a known position-based model, the
maximum-likelihood fixed point, scikit-learn conventions and bad input."""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.optimize import minimize
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from sklearn_rankeval import PositionBiasEstimator, counterfactual_report
from tests.counterfactual._simulate import simulate

THETA = 1.0 / np.arange(1, 9) ** 0.7


def _relative_errors(est, log):
    """|theta_hat / theta - 1| in units of its sampling error, from the sample
    size: sqrt(1/C_k + 1/C_1), C_k the clicks at position k (the relative
    standard error of a ratio of two Poisson counts)."""
    clicks = np.bincount(log["positions"] - 1, weights=log["clicks"])
    scale = np.sqrt(1.0 / clicks + 1.0 / clicks[0])
    return np.abs(est.propensities_ / THETA - 1.0) / scale


@pytest.mark.parametrize("method, shuffled", [("em", False), ("randomized", True)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_recovers_the_propensities_of_a_known_model(method, shuffled, seed):
    rng = np.random.default_rng(seed)
    gamma = rng.beta(1, 2, (40, 8))
    log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=20000,
                   shuffled=shuffled)
    est = PositionBiasEstimator(method=method).fit(
        log["clicks"], log["positions"], items=log["items"], groups=log["groups"])
    assert est.propensities_[0] == 1.0
    assert est.propensities_.shape == (8,)
    # within 4 sampling errors at every position
    assert (_relative_errors(est, log) < 4).all()
    # the naive click-through rates are far from the truth (the logging
    # ranker put relevant items on top) where EM is not
    if method == "em":
        naive = est.click_rates_ / est.click_rates_[0]
        assert np.abs(naive / THETA - 1).max() > 0.3
        assert est.converged_ and 1 < est.n_iter_ < est.max_iter


def test_em_recovers_item_relevance():
    rng = np.random.default_rng(5)
    gamma = rng.beta(2, 2, (30, 8))
    log = simulate(rng, theta=THETA, gamma=gamma, n_impressions=40000)
    est = PositionBiasEstimator().fit(log["clicks"], log["positions"],
                                      items=log["items"])
    assert_array_equal(est.items_, np.arange(240))
    # theta_1 * gamma: the click probability at position 1 (theta_1 = 1 here)
    shown = np.bincount(log["items"], minlength=240)
    err = np.abs(est.item_relevance_ - gamma.ravel())
    # a binomial standard error of each item's relevance from its rows
    assert (err < 5 * np.sqrt(0.25 / (shown * THETA[-1]))).all()


def _log_likelihood(theta, gamma, k, d, c):
    p = theta[k] * gamma[d]
    return np.sum(c * np.log(p) + (1 - c) * np.log1p(-p))


def test_em_reaches_the_maximum_likelihood_of_a_generic_optimizer():
    # a small log: L-BFGS-B on the PBM likelihood over (theta, gamma) in
    # (0, 1], written from the model, gives the same propensity ratios
    rng = np.random.default_rng(3)
    theta = np.array([1.0, 0.6, 0.3])
    gamma = rng.uniform(0.2, 0.8, (4, 3))
    log = simulate(rng, theta=theta, gamma=gamma, n_impressions=300, noise=1.0)
    k, d, c = log["positions"] - 1, log["items"], log["clicks"]
    est = PositionBiasEstimator(tol=1e-15, max_iter=100000).fit(
        c, log["positions"], items=d)
    n_items = d.max() + 1

    def loss(x):  # minus the log-likelihood and its gradient
        th, ga = x[:3], x[3:]
        p = th[k] * ga[d]
        rest = (1 - c) / (1 - p)
        grad_th = np.bincount(k, c / th[k] - rest * ga[d], minlength=3)
        grad_ga = np.bincount(d, c / ga[d] - rest * th[k], minlength=n_items)
        return (-_log_likelihood(th, ga, k, d, c),
                -np.concatenate([grad_th, grad_ga]))

    x0 = np.full(3 + n_items, 0.5)
    res = minimize(loss, x0, jac=True, method="L-BFGS-B",
                   bounds=[(1e-9, 1.0 - 1e-9)] * len(x0),
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10000})
    assert_allclose(est.propensities_, res.x[:3] / res.x[0], rtol=2e-3)
    # and the fitted log-likelihood is the model's, at least the optimizer's
    fitted = _log_likelihood(est.propensities_, est.item_relevance_, k, d, c)
    assert est.log_likelihood_ == pytest.approx(fitted, rel=1e-6)
    assert fitted == pytest.approx(-res.fun, rel=1e-6)


def test_sample_weight_equals_repeated_rows():
    rng = np.random.default_rng(7)
    log = simulate(rng, theta=THETA[:4], gamma=rng.uniform(0.1, 0.9, (10, 4)),
                   n_impressions=400)
    w = rng.integers(0, 4, log["clicks"].shape[0])
    rep = np.repeat(np.arange(w.shape[0]), w)
    for method in ("em", "randomized"):
        est = PositionBiasEstimator(method=method, tol=1e-13, max_iter=50000)
        a = clone(est).fit(log["clicks"], log["positions"], items=log["items"],
                           sample_weight=w.astype(float))
        b = clone(est).fit(log["clicks"][rep], log["positions"][rep],
                           items=log["items"][rep])
        assert_allclose(a.propensities_, b.propensities_, rtol=1e-9)
        assert_allclose(a.click_rates_, b.click_rates_, rtol=1e-12)


def test_string_items_and_row_order_do_not_matter():
    rng = np.random.default_rng(8)
    log = simulate(rng, theta=THETA[:5], gamma=rng.uniform(0.1, 0.9, (10, 5)),
                   n_impressions=500)
    perm = rng.permutation(log["clicks"].shape[0])
    names = np.array([f"doc-{i:03d}" for i in range(50)], dtype=object)
    a = PositionBiasEstimator(tol=1e-14, max_iter=50000).fit(
        log["clicks"], log["positions"], items=log["items"])
    b = PositionBiasEstimator(tol=1e-14, max_iter=50000).fit(
        log["clicks"][perm], log["positions"][perm], items=names[log["items"]][perm])
    assert_allclose(a.propensities_, b.propensities_, rtol=1e-8)
    assert_array_equal(b.items_, names[a.items_])


def test_randomized_is_the_ratio_of_click_through_rates():
    clicks = np.array([1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1])
    positions = np.array([1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3])
    est = PositionBiasEstimator(method="randomized").fit(
        clicks, positions, items=np.arange(12))
    # CTR: 3/4, 2/4, 1/4
    assert_allclose(est.propensities_, [1.0, 2 / 3, 1 / 3], rtol=1e-15)
    assert_allclose(est.click_rates_, [0.75, 0.5, 0.25], rtol=1e-15)
    assert est.n_iter_ == 0 and est.converged_


def test_max_position_leaves_lower_rows_out():
    rng = np.random.default_rng(9)
    log = simulate(rng, theta=THETA[:6], gamma=rng.uniform(0.1, 0.9, (10, 6)),
                   n_impressions=500, shuffled=True)
    top = log["positions"] <= 3
    a = PositionBiasEstimator(method="randomized", max_position=3).fit(
        log["clicks"], log["positions"], items=log["items"])
    b = PositionBiasEstimator(method="randomized").fit(
        log["clicks"][top], log["positions"][top], items=log["items"][top])
    assert_allclose(a.propensities_, b.propensities_, rtol=1e-15)
    assert a.propensities_.shape == (3,)


def test_estimator_conventions():
    est = PositionBiasEstimator(method="randomized", max_position=2, max_iter=5,
                                tol=1e-3)
    assert est.get_params() == {"method": "randomized", "max_position": 2,
                                "max_iter": 5, "tol": 1e-3}
    cloned = clone(est)
    assert cloned.get_params() == est.get_params() and cloned is not est
    assert est.fit([1, 1, 1, 0], [1, 2, 1, 2], items=[0, 1, 1, 0]) is est
    assert not hasattr(clone(est), "propensities_")
    with pytest.raises(NotFittedError):
        counterfactual_report([1, 0], [1, 0], [1, 2], groups=[0, 0],
                              propensities=PositionBiasEstimator())


def test_convergence_warning_after_max_iter():
    rng = np.random.default_rng(10)
    log = simulate(rng, theta=THETA, gamma=rng.beta(1, 2, (20, 8)),
                   n_impressions=2000)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        est = PositionBiasEstimator(max_iter=3).fit(
            log["clicks"], log["positions"], items=log["items"])
    assert est.n_iter_ == 3 and not est.converged_
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = PositionBiasEstimator(tol=1e-4).fit(
            log["clicks"], log["positions"], items=log["items"])
    assert est.converged_ and est.n_iter_ < 1000


# -- what cannot be identified -------------------------------------------------
def test_every_item_at_one_position_is_not_identifiable():
    # each item always at the same position: theta_k * gamma_d is all the
    # log tells
    with pytest.raises(ValueError, match="items: every item was shown at a single"):
        PositionBiasEstimator().fit([1, 1, 1, 1, 0, 1], [1, 2, 3, 1, 2, 3],
                                    items=["a", "b", "c", "a", "b", "c"])
    # the randomized method does not need items at several positions
    est = PositionBiasEstimator(method="randomized").fit(
        [1, 1, 1, 1, 0, 1], [1, 2, 3, 1, 2, 3], items=["a", "b", "c", "a", "b", "c"])
    assert_allclose(est.propensities_, [1.0, 0.5, 1.0])


def test_positions_not_linked_to_position_one():
    # items swap between positions 1-2 and between 3-4, never across
    clicks = [1, 1, 1, 1, 1, 0, 1, 0]
    positions = [1, 2, 2, 1, 3, 4, 4, 3]
    items = ["a", "b", "a", "b", "c", "d", "c", "d"]
    with pytest.raises(ValueError, match=r"position\(s\) 3, 4 share no clicked"):
        PositionBiasEstimator().fit(clicks, positions, items=items)
    # an item never clicked links nothing (its relevance estimate is 0)
    with pytest.raises(ValueError, match=r"position\(s\) 2 share no clicked"):
        PositionBiasEstimator().fit([1, 1, 0, 0], [1, 2, 1, 2],
                                    items=["a", "b", "e", "e"])


def test_position_never_shown_or_never_clicked():
    with pytest.raises(ValueError, match=r"positions: position\(s\) 2 never shown"):
        PositionBiasEstimator().fit([1, 1, 0], [1, 3, 3], items=[0, 1, 0])
    with pytest.raises(ValueError, match=r"positions: position\(s\) 4 never shown"):
        PositionBiasEstimator(max_position=4).fit([1, 1, 1], [1, 2, 3],
                                                  items=[0, 1, 2])
    with pytest.raises(ValueError, match=r"clicks: no click at position\(s\) 2"):
        PositionBiasEstimator(method="randomized").fit([1, 0, 1, 0], [1, 2, 1, 2],
                                                       items=[0, 1, 1, 0])


# -- bad input -----------------------------------------------------------------
GOOD = dict(clicks=np.array([1, 1, 1, 0, 1, 0, 1, 1]),
            positions=np.array([1, 2, 1, 2, 1, 2, 2, 1]),
            items=np.array([0, 1, 0, 1, 1, 0, 1, 0]),
            groups=np.array([0, 0, 1, 1, 2, 2, 3, 3]),
            sample_weight=np.ones(8))

BAD_FIT = [
    ("clicks", dict(clicks=[1, 2, 1, 0, 1, 0, 1, 1])),
    ("clicks", dict(clicks=[1, -1, 1, 0, 1, 0, 1, 1])),
    ("clicks", dict(clicks=[1, np.nan, 1, 0, 1, 0, 1, 1])),
    ("clicks", dict(clicks=[1, 0.5, 1, 0, 1, 0, 1, 1])),
    ("clicks", dict(clicks=[[1, 1]] * 4)),
    ("positions", dict(positions=[0, 2, 1, 2, 1, 2, 2, 1])),
    ("positions", dict(positions=[1, -2, 1, 2, 1, 2, 2, 1])),
    ("positions", dict(positions=[1, 1.5, 1, 2, 1, 2, 2, 1])),
    ("positions", dict(positions=[1, np.nan, 1, 2, 1, 2, 2, 1])),
    ("positions", dict(positions=[1, 2, 1])),
    ("positions", dict(groups=[0, 0, 1, 1, 2, 2, 2, 2])),  # position 2 twice
    ("items", dict(items=[0, 1, 0])),
    ("items", dict(items=np.array([0, None, 0, 1, 1, 0, 1, 0], dtype=object))),
    ("groups", dict(groups=[0, 0, 1])),
    ("sample_weight", dict(sample_weight=[1, -1, 1, 1, 1, 1, 1, 1.0])),
    ("sample_weight", dict(sample_weight=np.ones(3))),
]


@pytest.mark.parametrize("argument, bad", BAD_FIT,
                         ids=[f"{a}-{i}" for i, (a, _) in enumerate(BAD_FIT)])
def test_bad_input_names_the_argument_and_is_not_modified(argument, bad):
    kwargs = {name: np.array(value, copy=True) for name, value in GOOD.items()}
    kwargs.update({name: np.asarray(value) for name, value in bad.items()})
    copies = {name: value.copy() for name, value in kwargs.items()}
    for value in kwargs.values():
        value.flags.writeable = False
    with pytest.raises(ValueError, match=argument):
        PositionBiasEstimator().fit(kwargs.pop("clicks"), kwargs.pop("positions"),
                                    **kwargs)
    for name, value in kwargs.items():
        assert_array_equal(value, copies[name])


@pytest.mark.parametrize("params, match", [
    (dict(method="mle"), "method"),
    (dict(max_position=0), "max_position"),
    (dict(max_iter=0), "max_iter"),
    (dict(tol=-1.0), "tol"),
    (dict(tol=float("nan")), "tol"),
])
def test_bad_parameters_name_themselves(params, match):
    with pytest.raises((ValueError, TypeError), match=match):
        PositionBiasEstimator(**params).fit(GOOD["clicks"], GOOD["positions"],
                                            items=GOOD["items"])


def test_inputs_are_not_modified_by_a_fit():
    arrays = {name: np.array(value, copy=True) for name, value in GOOD.items()}
    for value in arrays.values():
        value.flags.writeable = False
    est = PositionBiasEstimator().fit(arrays["clicks"], arrays["positions"],
                                      items=arrays["items"], groups=arrays["groups"],
                                      sample_weight=arrays["sample_weight"])
    for name, value in arrays.items():
        assert_array_equal(value, GOOD[name])
    assert_allclose(est.propensities_, [1.0, 0.5], rtol=1e-6)
