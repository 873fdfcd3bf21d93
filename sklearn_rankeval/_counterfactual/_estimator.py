"""Position bias of a click log: :class:`PositionBiasEstimator`.

The position-based model (PBM): an item shown at position ``k`` is clicked
with probability ``theta[k] * gamma[item]``, the probability that the user
examines position ``k`` times the item's relevance.  ``method="em"`` fits
both by expectation-maximization over the whole log (Wang et al., WSDM
2018, without features: one relevance per item); ``method="randomized"``
reads the propensities off the click-through rate of each position of a
log shown in uniformly shuffled order.

The EM works on the distinct (position, item) pairs of the log and their
weighted counts of clicks and non-clicks (a bincount, once); an iteration is
a few gathers and two bincounts over those pairs, with no Python loop over
rows or items.
"""

import math
from numbers import Real

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning

from .._core import check_option, check_positive_int, validate_sample_weight, warn
from ._log import check_log, encode_ids, pair_counts

__all__ = ["PositionBiasEstimator"]

METHODS = ("em", "randomized")
#: Where the EM starts: every propensity and every clicked item's relevance
#: 0.5 (1 is a fixed point of the updates, never left).
START = 0.5
#: ``1 - theta * gamma`` is floored here in the E-step and the likelihood.
_TINY = 1e-300


def _listed(values, limit=10):
    values = [int(v) for v in values]
    text = ", ".join(map(str, values[:limit]))
    return text + (f" (and {len(values) - limit} more)" if len(values) > limit
                   else "")


class PositionBiasEstimator(BaseEstimator):
    """Examination propensity of each position of a click log.

    Under the position-based model, an item shown at position :math:`k` is
    clicked with probability

    .. math::

        P(\\text{click} \\mid k, d) = \\theta_k \\, \\gamma_d,

    :math:`\\theta_k` the probability that a user examines position
    :math:`k` and :math:`\\gamma_d` the relevance of item :math:`d`.  The
    estimator returns :math:`\\theta` normalised so that
    :math:`\\theta_1 = 1` (``propensities_``), the weights of
    :func:`counterfactual_report`'s inverse-propensity estimates.

    Read more in the :ref:`User Guide <counterfactual>`.

    Parameters
    ----------
    method : {'em', 'randomized'}, default='em'
        ``'em'``: expectation-maximization of the position-based model's
        likelihood over the whole log, one relevance per item and one
        propensity per position (the regression EM of Wang et al. 2018
        without features).  It needs items shown at several positions
        (several rankers, or swaps).  ``'randomized'``: the log was shown in
        a uniformly shuffled order within the positions, so that every
        position saw items of the same relevance on average and
        :math:`\\theta_k` is proportional to the click-through rate of
        position :math:`k`; ``items`` are then not used.
    max_position : int, default=None
        Number of positions to estimate: rows shown below it are left out of
        the fit.  None: the largest logged position.
    max_iter : int, default=1000
        Largest number of EM iterations.
    tol : float, default=1e-8
        The EM stops when the log-likelihood improves by less than ``tol``
        times its absolute value in one iteration.

    Attributes
    ----------
    propensities_ : ndarray of shape (max_position,)
        :math:`\\theta_k / \\theta_1` of positions ``1 .. max_position``;
        ``propensities_[0] == 1``.
    click_rates_ : ndarray of shape (max_position,)
        The (weighted) click-through rate of each position: the naive,
        biased view of the same log.
    n_iter_ : int
        EM iterations run (0 for ``'randomized'``, a closed form).
    converged_ : bool
        Whether the EM met ``tol`` within ``max_iter`` iterations (True for
        ``'randomized'``).
    log_likelihood_ : float
        Log-likelihood of the log under the fitted model (``'em'``; NaN for
        ``'randomized'``, which fits no item relevance).
    items_ : ndarray of shape (n_items,) or None
        The distinct items of the fitted rows, sorted (``'em'``).
    item_relevance_ : ndarray of shape (n_items,) or None
        :math:`\\theta_1 \\gamma_d`, the click probability of each item of
        ``items_`` at position 1 (``'em'``).

    See Also
    --------
    counterfactual_report : Ranking metrics of a new ranker on the log,
        corrected by these propensities.
    PositionBiasDisplay : The propensities beside the click-through rates.

    Notes
    -----
    **EM.**  Clicks are examined and relevant; a row without a click was not
    examined, or not relevant, or neither, with posterior probabilities from
    the current :math:`\\theta, \\gamma`.  The M-step sets each
    :math:`\\theta_k` to the expected share of position :math:`k`'s rows
    that were examined, and each :math:`\\gamma_d` to the expected share of
    item :math:`d`'s rows that were relevant (sample weights weigh the
    rows).  Every :math:`\\theta_k` and :math:`\\gamma_d` starts at 0.5:
    :math:`\\theta = 1` is a fixed point of the updates.  The iterations
    stop when the relative improvement of the log-likelihood falls below
    ``tol`` (``converged_``), or after ``max_iter`` with a
    ``ConvergenceWarning``.

    **Identifiability.**  Only ratios :math:`\\theta_k / \\theta_1` are
    identified, and only through items clicked somewhere and shown at
    several positions: the propensities of two positions are comparable
    when a chain of such items links them.  A position never shown, a
    position without any click (its estimate would be 0, which no inverse
    weight can use), every item shown at a single position, or positions
    that no item links to position 1 are a ``ValueError`` naming the
    problem.

    References
    ----------
    .. [1] X. Wang, N. Golbandi, M. Bendersky, D. Metzler and M. Najork,
       "Position Bias Estimation for Unbiased Learning to Rank in Personal
       Search", WSDM 2018.
    .. [2] T. Joachims, A. Swaminathan and T. Schnabel, "Unbiased
       Learning-to-Rank with Biased Feedback", WSDM 2017.
    .. [3] A. Agarwal, I. Zaitsev, X. Wang, C. Li, M. Najork and T.
       Joachims, "Estimating Position Bias without Intrusive Interventions",
       WSDM 2019.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_rankeval import PositionBiasEstimator
    >>> # two items swapped between positions 1 and 2 over four impressions
    >>> clicks    = [1, 1, 1, 0, 1, 0, 1, 1]
    >>> positions = [1, 2, 1, 2, 1, 2, 2, 1]
    >>> items     = ["a", "b", "a", "b", "b", "a", "b", "a"]
    >>> est = PositionBiasEstimator().fit(clicks, positions, items=items)
    >>> est.propensities_.round(4).tolist()
    [1.0, 0.5]
    >>> # under a shuffled display, the click-through rates
    >>> est = PositionBiasEstimator(method="randomized")
    >>> est.fit(clicks, positions, items=items).propensities_.tolist()
    [1.0, 0.5]
    """

    def __init__(self, *, method="em", max_position=None, max_iter=1000, tol=1e-8):
        self.method = method
        self.max_position = max_position
        self.max_iter = max_iter
        self.tol = tol

    def _check_params(self):
        check_option(self.method, "method", METHODS)
        check_positive_int(self.max_position, "max_position")
        check_positive_int(self.max_iter, "max_iter", allow_none=False)
        tol = self.tol
        if (isinstance(tol, (bool, np.bool_)) or not isinstance(tol, Real)
                or not math.isfinite(tol) or tol < 0):
            raise ValueError(f"tol must be a finite number >= 0, got {tol!r}.")

    def fit(self, clicks, positions, *, groups=None, items, sample_weight=None):
        """Estimate the propensity of each position from a click log.

        The rows below ``max_position`` and the rows of weight 0 are left
        out; the rest are checked for what the model can identify (see the
        class's Notes) before the estimation.

        Parameters
        ----------
        clicks : array-like of shape (n_samples,)
            1 where the displayed item was clicked, else 0.
        positions : array-like of shape (n_samples,)
            The 1-based rank at which each item was displayed.
        groups : array-like of shape (n_samples,), default=None
            The impression (a ranking shown once) of each row: when given,
            an impression showing one position twice is an error.
        items : array-like of shape (n_samples,)
            What was shown, identified across impressions (for search, the
            (query, document) pair): one relevance per distinct id.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each row (e.g. how many times it was logged).

        Returns
        -------
        self : PositionBiasEstimator
            The fitted estimator.

        See Also
        --------
        counterfactual_report : Metrics of a new ranker weighted by the
            fitted propensities.

        Examples
        --------
        >>> from sklearn_rankeval import PositionBiasEstimator
        >>> # four impressions of two items, each shown at both positions
        >>> est = PositionBiasEstimator().fit(
        ...     [1, 1, 1, 0, 1, 0, 1, 1], [1, 2, 1, 2, 1, 2, 2, 1],
        ...     items=["a", "b", "a", "b", "b", "a", "b", "a"],
        ...     groups=[0, 0, 1, 1, 2, 2, 3, 3])
        >>> est.propensities_.round(4).tolist()
        [1.0, 0.5]
        >>> est.converged_
        True
        """
        self._check_params()
        c, pos = check_log(clicks, positions)
        c = c.astype(np.float64, copy=False)
        n = c.shape[0]
        w = validate_sample_weight(sample_weight, n, "row")
        item_code, item_ids = encode_ids(items, n, "items")
        if groups is not None:
            group_code, _ = encode_ids(groups, n, "groups")
            _, _, count, _ = pair_counts(group_code, pos - 1, int(pos.max()))
            if (count > 1).any():
                raise ValueError(
                    "positions: an impression (group) shows the same position "
                    "on several rows; each group is one ranking, one row per "
                    "position.")
        n_pos = int(pos.max()) if self.max_position is None else self.max_position
        keep = pos <= n_pos
        if w is not None:
            keep &= w > 0
        if not keep.all():
            c, pos, item_code = c[keep], pos[keep], item_code[keep]
            w = None if w is None else w[keep]
        k = pos - 1
        shown = np.bincount(k, weights=w, minlength=n_pos)
        clicked = np.bincount(k, weights=c if w is None else c * w,
                              minlength=n_pos)
        if (shown == 0).any():
            raise ValueError(
                f"positions: position(s) {_listed(np.flatnonzero(shown == 0) + 1)} "
                f"never shown (with a positive weight); their propensity is "
                f"not identifiable. Estimate fewer positions (max_position).")
        if (clicked == 0).any():
            raise ValueError(
                f"clicks: no click at position(s) "
                f"{_listed(np.flatnonzero(clicked == 0) + 1)}; their propensity "
                f"estimate would be 0, which no inverse-propensity weight can "
                f"use. Estimate fewer positions (max_position) or use a longer "
                f"log.")
        self.click_rates_ = clicked / shown
        self.items_ = self.item_relevance_ = None
        self.log_likelihood_ = math.nan
        if self.method == "randomized":
            self.propensities_ = self.click_rates_ / self.click_rates_[0]
            self.n_iter_, self.converged_ = 0, True
            return self
        # items seen at kept rows only, as dense codes
        present = np.bincount(item_code, minlength=item_ids.shape[0]) > 0
        if not present.all():
            code = np.cumsum(present) - 1
            item_code, item_ids = code[item_code], item_ids[present]
        theta, gamma = self._em(c, k, item_code, w, n_pos, item_ids.shape[0],
                                shown, clicked)
        self.propensities_ = theta / theta[0]
        self.items_ = item_ids
        self.item_relevance_ = gamma * theta[0]
        return self

    def _em(self, c, k, d, w, n_pos, n_items, shown, clicked):
        """EM over the distinct (position, item) pairs: ``(theta, gamma)``."""
        ones = np.ones_like(c) if w is None else w
        pk, pd, _, (n_click, n_skip) = pair_counts(
            k, d, n_items, weights=(c * ones, (1.0 - c) * ones))
        item_shown = np.bincount(pd, weights=n_click + n_skip, minlength=n_items)
        item_clicked = np.bincount(pd, weights=n_click, minlength=n_items)
        _check_linked(pk, pd, item_clicked, n_pos, n_items)
        skip = n_skip > 0
        sk, sd, s_n = pk[skip], pd[skip], n_skip[skip]
        hit = n_click > 0
        hk, hd, h_n = pk[hit], pd[hit], n_click[hit]

        theta = np.full(n_pos, START)
        gamma = np.where(item_clicked > 0, START, 0.0)
        previous = -math.inf
        self.converged_ = False
        for it in range(1, self.max_iter + 1):
            th, ga = theta[sk], gamma[sd]
            rest = np.maximum(1.0 - th * ga, _TINY)
            # the log-likelihood of the current parameters
            with np.errstate(divide="ignore"):
                ll = (np.dot(s_n, np.log(rest))
                      + np.dot(h_n, np.log(theta[hk] * gamma[hd])))
            # E-step on the rows without a click, M-step by bincounts
            weight = s_n / rest
            theta = (clicked + np.bincount(sk, weights=weight * th * (1.0 - ga),
                                           minlength=n_pos)) / shown
            gamma = (item_clicked + np.bincount(sd, weights=weight * ga * (1.0 - th),
                                                minlength=n_items)) / item_shown
            self.n_iter_ = it
            if math.isfinite(previous) and ll - previous <= self.tol * abs(previous):
                self.converged_ = True
                break
            previous = ll
        self.log_likelihood_ = float(ll)
        if not self.converged_:
            warn(f"PositionBiasEstimator: the EM did not converge in max_iter="
                 f"{self.max_iter} iterations (relative improvement of the "
                 f"log-likelihood above tol={self.tol}); raise max_iter or tol.",
                 ConvergenceWarning)
        return theta, gamma


def _check_linked(pk, pd, item_clicked, n_pos, n_items):
    """Every position linked to position 1 through items clicked somewhere.

    ``pk``, ``pd``: the distinct (position, item) pairs of the log.  The
    positions and the clicked items are the nodes of a bipartite graph with
    an edge for each pair; the ratio of two propensities is identified only
    when a path joins them.
    """
    if n_pos == 1:
        return
    positions_of_item = np.bincount(pd, minlength=n_items)
    if (positions_of_item <= 1).all():
        raise ValueError(
            "items: every item was shown at a single position, so each item's "
            "relevance absorbs its position's propensity: the propensities are "
            "not identifiable under the position-based model. EM needs items "
            "shown at several positions (several rankers, swaps); for a log "
            "shown in shuffled order use method='randomized'.")
    linked = item_clicked[pd] > 0
    a, b = pk[linked], n_pos + pd[linked]
    graph = coo_matrix((np.ones(a.shape[0], dtype=np.int8), (a, b)),
                       shape=(n_pos + n_items, n_pos + n_items))
    _, label = connected_components(graph, directed=False)
    apart = np.flatnonzero(label[:n_pos] != label[0])
    if apart.shape[0]:
        raise ValueError(
            f"items: position(s) {_listed(apart + 1)} share no clicked item with "
            f"position 1, directly or through other positions: their "
            f"propensities relative to position 1 are not identifiable from "
            f"this log.")
