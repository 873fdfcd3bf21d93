"""The fits of :class:`~._estimator.PositionBiasEstimator` on item ids.

* :func:`fit_mle` -- the maximum likelihood of the position-based model
  (PBM) with one relevance per item (Wang et al. 2018 without features), by
  Newton's method on the profile likelihood of the propensities: the item
  relevances at their own maximum for given propensities, the Hessian by
  its Schur complement.  It converges quadratically where the plain EM of
  the same likelihood crawls (linearly, at the rate of the missing
  information; near a bound, sublinearly);
* :func:`fit_harvest` -- intervention harvesting (Agarwal et al. 2019):
  ratios of the click rates of the same items at two positions, summed over
  items, with no relevance per item to estimate.

Both work on the log's sufficient statistics, the weighted counts of clicks
and skips of each distinct (position, item) pair: gathers, bincounts and one
sparse product per step, no Python loop over rows, pairs or items.
"""

import numpy as np
from scipy.sparse import csr_matrix

__all__ = ["fit_harvest", "fit_mle", "start_propensities"]

#: ``1 - theta * gamma`` is floored here.
_TINY = 1e-300


def _dot(a, b):
    """``a . b`` as a float, without BLAS (whose threads, woken for one
    product of a few thousand entries, cost milliseconds on a busy
    machine)."""
    return float(np.einsum("i,i->", a, b))


def start_propensities(clicked, shown):
    """Where :func:`fit_mle` starts: the click-through rate of each position
    over position 1's, within [0.05, 0.95] below position 1."""
    rate = clicked / shown
    theta = np.clip(rate / rate[0], 0.05, 0.95)
    theta[0] = 1.0
    return theta


def fit_mle(pk, pd, n_click, n_skip, clicked, shown, *, n_items, max_iter, tol):
    """The maximum-likelihood PBM: ``(theta, gamma, loglik, n_iter,
    converged, n_passes)``, ``theta[0] == 1``.

    ``pk``, ``pd``: the distinct (position, item) pairs (0-based codes),
    ``n_click``, ``n_skip``: their weighted counts of clicked and not
    clicked rows; ``clicked``, ``shown``: per position.

    Newton's method on the profile likelihood of the propensities: for
    given ``theta`` each item's relevance is at its own maximum
    (``best_gamma``, a bounded Newton on a concave score, vectorised
    over the pairs), the gradient of the profile is the likelihood's
    (envelope theorem) and its Hessian the Schur complement
    ``H_tt - H_tg H_gg^-1 H_gt`` (``H_gg`` diagonal: one sparse product).
    Each step is halved until the likelihood rises.  Stops when the
    largest relative Newton step of the propensities is below ``tol``.
    """
    n_pos = shown.shape[0]
    item_clicked = np.bincount(pd, weights=n_click, minlength=n_items)
    skip = n_skip > 0
    sk, sd, s_n = pk[skip], pd[skip], n_skip[skip]
    hit = item_clicked > 0
    passes = [0]

    def high_of(theta):
        # gamma * theta <= 1 at every position: the model's probabilities
        # with the propensities scaled to a largest value of 1
        return (1.0 - 1e-12) / theta.max()

    def best_gamma(theta, gamma, tol_g=1e-12):
        high = high_of(theta)
        th = theta[sk]
        s_th = s_n * th
        # an item whose score is still positive at its bound is there
        pull = np.bincount(sd, weights=s_th / (1.0 - th * high), minlength=n_items)
        at_bound = hit & (item_clicked >= high * pull)
        passes[0] += 1
        inner = hit & ~at_bound
        g = np.where(inner, np.clip(gamma, 1e-12, high), 0.0)
        g[at_bound] = high
        c_inner = np.where(inner, item_clicked, 0.0)
        for _ in range(50):
            u = th / (1.0 - th * g[sd])
            q = s_n * u
            safe = np.where(inner, g, 1.0)
            ratio = c_inner / safe
            score = ratio - np.bincount(sd, weights=q, minlength=n_items)
            curv = ratio / safe + np.bincount(sd, weights=q * u, minlength=n_items)
            passes[0] += 1
            new = g + np.where(inner, score, 0.0) / np.maximum(curv, 1e-300)
            # past a bound: halfway to it (the score falls with gamma)
            new = np.where(new >= high, (g + high) / 2.0, new)
            new = np.where(new <= 0.0, g / 2.0, new)
            change = np.max(np.abs(new - g) / np.maximum(new, 1e-300), initial=0.0)
            g = new
            if change < tol_g:
                break
        return g

    def loglik(theta, gamma):
        rest = np.maximum(1.0 - theta[sk] * gamma[sd], _TINY)
        return (_dot(s_n, np.log(rest)) + _dot(clicked, np.log(theta))
                + _dot(item_clicked[hit], np.log(gamma[hit])))

    theta = start_propensities(clicked, shown)
    gamma = best_gamma(theta, np.full(n_items, 0.5), 1e-3)
    rel = 1.0
    ll = loglik(theta, gamma)
    converged = False
    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        th, ga = theta[sk], gamma[sd]
        rest = np.maximum(1.0 - th * ga, _TINY)
        grad = clicked / theta - np.bincount(sk, weights=s_n * ga / rest,
                                             minlength=n_pos)
        h_tt = -clicked / theta ** 2 - np.bincount(sk, weights=s_n * (ga / rest) ** 2,
                                                  minlength=n_pos)
        h_gg = np.divide(item_clicked, gamma ** 2, out=np.zeros(n_items),
                         where=hit) + np.bincount(sd, weights=s_n * (th / rest) ** 2,
                                                  minlength=n_items)
        # interior items only: an item at its bound does not move with theta
        # to first order through its score
        free = hit & (gamma < 0.999 * high_of(theta))
        h_tg = s_n / rest ** 2
        keep = free[sd]
        b = csr_matrix((h_tg[keep] / np.sqrt(h_gg[sd[keep]]), (sd[keep], sk[keep])),
                       shape=(n_items, n_pos))
        hess = np.diag(h_tt) + (b.T @ b).toarray()
        # d gamma / d theta of the free items (implicit function theorem):
        # the relevances' first-order move with a step, where the next
        # best_gamma starts
        slope = csr_matrix((h_tg[keep], (sd[keep], sk[keep])), shape=(n_items, n_pos))
        scale = np.divide(1.0, h_gg, out=np.zeros(n_items), where=free)
        passes[0] += 1
        try:
            delta = np.linalg.solve(hess[1:, 1:], -grad[1:])
        except np.linalg.LinAlgError:
            delta = grad[1:] / np.maximum(-np.diag(hess)[1:], 1e-300)
        if not np.all(np.isfinite(delta)) or np.dot(delta, grad[1:]) <= 0:
            delta = grad[1:] / np.maximum(-np.diag(hess)[1:], 1e-300)
        step_size = 1.0
        # the Newton decrement: below the rounding of the likelihood, the
        # line search cannot tell the step's gain, and Newton's step is taken
        tiny_gain = 0.5 * np.dot(delta, grad[1:]) < 1e-11 * abs(ll)
        while True:
            new_theta = theta.copy()
            new_theta[1:] = theta[1:] + step_size * delta
            if (new_theta > 0).all():
                moved = gamma - scale * (slope @ (new_theta - theta))
                new_gamma = best_gamma(new_theta, np.where(free, moved, gamma), 1e-10)
                new_ll = loglik(new_theta, new_gamma)
                if new_ll >= ll or tiny_gain:
                    break
            step_size /= 2.0
            if step_size < 1e-10:
                new_theta, new_gamma, new_ll = theta, gamma, ll
                break
        rel = np.max(np.abs(new_theta - theta) / new_theta)
        theta, gamma, ll = new_theta, new_gamma, new_ll
        if rel < tol:
            converged = True
            break
    gamma = best_gamma(theta, gamma)
    ll = loglik(theta, gamma)
    return theta, gamma, ll, n_iter, converged, passes[0]


def fit_harvest(pk, pd, n_click, n_shown, *, n_pos, n_items, block=1 << 21):
    """Intervention harvesting: ``(theta, n_pairs)``, ``theta[0] == 1``.

    For each pair of positions ``(a, b)`` and each item shown at both,
    ``C[d, a] / N[d, a]`` (its clicks over its rows at ``a``) has expected
    value ``theta[a] * gamma[d]`` given the displays.  With the weight
    ``w[d] = N[d, a] N[d, b] / (N[d, a] + N[d, b])`` of each item (from the
    displays only), the ratio

        R[a, b] = sum_d w[d] C[d, a] / N[d, a] / sum_d w[d] C[d, b] / N[d, b]

    estimates ``theta[a] / theta[b]`` without a relevance per item: a ratio
    of two sums over items of unbiased terms, consistent as the number of
    items grows even when each item has few rows (Agarwal et al., WSDM
    2019, whose interventions are an item's displays at two positions).
    The log-propensities are the weighted least squares fit of every
    ``log R[a, b]`` with both sums positive, each weighted by the inverse of
    its delta-method variance ``1 / A + 1 / B`` (``A``, ``B``: the clicks
    of each sum, weighted).  ``n_pairs[a, b]``: the items of each pair.
    """
    N = np.zeros((n_items, n_pos))
    C = np.zeros((n_items, n_pos))
    N[pd, pk] = n_shown
    C[pd, pk] = n_click
    rate = np.divide(C, N, out=np.zeros_like(C), where=N > 0)
    rate2 = np.divide(rate, N, out=np.zeros_like(C), where=N > 0)
    num = np.zeros((n_pos, n_pos))
    var = np.zeros((n_pos, n_pos))
    n_pairs = np.zeros((n_pos, n_pos), dtype=np.int64)
    step = max(1, block // max(n_pos * n_pos, 1))
    for lo in range(0, n_items, step):  # blocks of items, not items
        n_ = N[lo:lo + step]
        both = (n_[:, :, None] > 0) & (n_[:, None, :] > 0)
        total = n_[:, :, None] + n_[:, None, :]
        w = np.divide(n_[:, :, None] * n_[:, None, :], total,
                      out=np.zeros_like(total), where=both)
        num += np.einsum("dab,da->ab", w, rate[lo:lo + step])
        # Poisson variance of each term: w^2 C / N^2
        var += np.einsum("dab,da->ab", w * w, rate2[lo:lo + step])
        n_pairs += both.sum(axis=0)
    a, b = np.triu_indices(n_pos, 1)
    ok = (num[a, b] > 0) & (num[b, a] > 0)
    a, b = a[ok], b[ok]
    y = np.log(num[a, b]) - np.log(num[b, a])
    var = var[a, b] / num[a, b] ** 2 + var[b, a] / num[b, a] ** 2
    X = np.zeros((a.shape[0], n_pos - 1))
    rows = np.arange(a.shape[0])
    # log theta[0] = 0: the unknowns are log theta[1:]
    X[rows[a > 0], a[a > 0] - 1] += 1.0
    X[rows[b > 0], b[b > 0] - 1] -= 1.0
    sw = 1.0 / np.sqrt(var)
    coef, *_ = np.linalg.lstsq(X * sw[:, None], y * sw, rcond=None)
    return np.exp(np.concatenate([[0.0], coef])), n_pairs
