"""Click logs simulated from a known position-based model (PBM).

Each impression draws a query uniformly, shows its documents in the order of
a noisy logging score (``gamma`` plus Gaussian noise, or a uniform shuffle),
and each shown document is clicked with probability
``theta[position - 1] * gamma[query, doc]``.
"""

import numpy as np


def simulate(rng, *, theta, gamma, n_impressions, noise=0.3, shuffled=False):
    """A PBM log: dict of 1-D arrays, one row per displayed document."""
    n_queries, n_docs = gamma.shape
    q = rng.integers(0, n_queries, n_impressions)
    if shuffled:
        logging = rng.random((n_impressions, n_docs))
    else:
        logging = gamma[q] + noise * rng.standard_normal((n_impressions, n_docs))
    order = np.argsort(-logging, axis=1)
    positions = np.empty_like(order)
    np.put_along_axis(positions, order, np.arange(1, n_docs + 1)[None, :], axis=1)
    g = gamma[q]
    clicks = (rng.random((n_impressions, n_docs))
              < theta[positions - 1] * g).astype(int)
    docs = np.broadcast_to(np.arange(n_docs), (n_impressions, n_docs))
    return {
        "clicks": clicks.ravel(),
        "positions": positions.ravel(),
        "groups": np.repeat(np.arange(n_impressions), n_docs),
        "items": (q[:, None] * n_docs + docs).ravel(),
        "query": np.repeat(q, n_docs),
        "doc": docs.ravel().copy(),
        "gamma": g.ravel(),
    }


def new_rank(scores):
    """1-based rank of each document of each query under ``scores`` (untied),
    shape ``scores.shape``."""
    order = np.argsort(-scores, axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, scores.shape[1] + 1)[None, :], axis=1)
    return rank


def coefficients(rank, metric, k):
    """The weight of each (query, doc)'s gain in ``metric`` of one query:
    every metric here is ``sum(weight * gain)``."""
    if metric == "dcg":
        return np.where(rank <= k, 1.0 / np.log2(1.0 + rank), 0.0)
    if metric == "precision":
        return np.where(rank <= k, 1.0 / k, 0.0)
    if metric == "arp":
        return rank.astype(float)
    raise ValueError(metric)


def truth_per_query(gamma, scores, metric, k):
    """The metric of each query with its true relevances ``gamma`` as gains."""
    return (coefficients(new_rank(scores), metric, k) * gamma).sum(axis=1)
