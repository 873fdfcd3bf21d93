"""Position bias of a click log: :class:`PositionBiasEstimator`.

The position-based model (PBM): an item shown at position ``k`` is clicked
with probability ``theta[k] * gamma[item]``, the probability that the user
examines position ``k`` times the item's relevance.  ``method="em"`` fits
both by maximum likelihood over the whole log (Wang et al., WSDM 2018,
without features: one relevance per item; :func:`~._em.fit_mle`);
``method="harvest"`` compares the click rates of the same items at two
positions (Agarwal et al., WSDM 2019; :func:`~._em.fit_harvest`);
``method="randomized"`` reads the propensities off the click-through rate of
each position of a log shown in uniformly shuffled order.

The fits work on the distinct (position, item) pairs of the log and their
weighted counts of clicks and non-clicks (a bincount, once), with no Python
loop over rows or items.
"""

import math
from numbers import Real

import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning

from .._core import check_option, check_positive_int, warn
from ._em import fit_harvest, fit_mle
from ._log import (
    check_log,
    check_repeated,
    encode_ids,
    pair_counts,
    repeated_impressions,
)

__all__ = ["SPARSE_ROWS", "PositionBiasEstimator"]

METHODS = ("em", "harvest", "randomized")
#: ``method="em"`` warns below this median number of rows per clicked item:
#: each item's own relevance then absorbs part of the noise of its few
#: clicks, and the maximum-likelihood propensities are biased (the incidental
#: parameter problem, Neyman and Scott 1948).
SPARSE_ROWS = 20


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
    :func:`counterfactual_report`'s inverse-propensity estimates: a click at
    position :math:`k` divided by ``propensities_[k - 1]`` has expected
    value :math:`\\theta_1 \\gamma_d`, the item's click probability at
    position 1.

    Read more in the :ref:`User Guide <counterfactual>`.

    Parameters
    ----------
    method : {'em', 'harvest', 'randomized'}, default='em'
        ``'em'``: the maximum likelihood of the position-based model over
        the whole log, one relevance per item and one propensity per
        position (the model of the regression EM of Wang et al. 2018
        without features), reached by Newton's method (see Notes).  It
        needs items shown at several positions (several rankers, or swaps)
        and several rows per item: with fewer than about 20 it warns.
        ``'harvest'``: intervention harvesting (Agarwal et al. 2019): the
        click rates of the same items at two positions, compared over all
        the items shown at both; no relevance per item is estimated, so it
        holds on sparse logs (a few rows per item).  ``'randomized'``: the
        log was shown in a uniformly shuffled order within the positions,
        so that every position saw items of the same relevance on average
        and :math:`\\theta_k` is proportional to the click-through rate of
        position :math:`k`; ``items`` are not needed.
    max_position : int, default=None
        Number of positions to estimate: rows shown below it are left out of
        the fit.  None: the largest logged position.
    max_iter : int, default=100
        Largest number of Newton iterations (``'em'``).
    tol : float, default=1e-8
        ``'em'`` stops when a Newton step changes no propensity by more than
        ``tol`` times its value.

    Attributes
    ----------
    propensities_ : ndarray of shape (max_position,)
        :math:`\\theta_k / \\theta_1` of positions ``1 .. max_position``;
        ``propensities_[0] == 1``.
    click_rates_ : ndarray of shape (max_position,)
        The (weighted) click-through rate of each position: the naive,
        biased view of the same log.
    n_iter_ : int
        Newton iterations run (0 for ``'harvest'`` and ``'randomized'``,
        closed forms).
    converged_ : bool
        Whether ``'em'`` met ``tol`` within ``max_iter`` iterations, at the
        maximum of the likelihood (True for the closed forms).
    log_likelihood_ : float
        Log-likelihood of the log under the fitted model (``'em'``; NaN for
        the others, which fit no item relevance).
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
    **The log.**  One row per displayed item.  An *impression* is one
    ranking shown once (a page view): it shows each position once.  An
    *item* is what was shown, identified across impressions: for search,
    the (query, document) pair, e.g. ``items = query_id + "|" + doc_id``,
    since a document's relevance depends on the query.  Pass ``groups``
    (the impression ids) to have an impression that shows a position on
    several rows refused, as :func:`counterfactual_report` refuses it:
    without them the rule cannot be checked.

    **Maximum likelihood (``'em'``).**  For given propensities each item's
    relevance has its own maximum (a concave score in one variable, solved
    by a bounded Newton iteration for all items at once); Newton's method
    on the propensities of that profile likelihood, with its exact Hessian
    (the Schur complement of the items' diagonal block, one sparse product),
    and each step halved until the likelihood rises, converges
    quadratically: about 6-10 iterations.  The relevances are bounded by
    the model (:math:`\\theta_k \\gamma_d \\le 1`).  The plain EM of the
    same likelihood converges linearly, at the rate of the missing
    information, and crawls for days near the bounds where items with a
    click on every row sit; stopping it on a small change of the likelihood
    stops it short of the maximum.

    **Sparse logs.**  With one relevance per item, each item's estimate
    absorbs part of the noise of its own clicks, and with a handful of rows
    per item the maximum-likelihood propensities are biased, a bias that
    does not shrink as the log grows with the same rows per item (the
    incidental-parameter problem, Neyman and Scott 1948).  ``'harvest'``
    estimates no relevance per item: for two positions :math:`a, b` and
    the items shown at both, with :math:`C_{da}, N_{da}` the clicks and
    rows of item :math:`d` at :math:`a` and the weight
    :math:`w_d = N_{da} N_{db} / (N_{da} + N_{db})`,

    .. math::

        \\hat\\theta_a / \\hat\\theta_b =
        \\frac{\\sum_d w_d \\, C_{da} / N_{da}}{\\sum_d w_d \\, C_{db} / N_{db}},

    a ratio of two sums of terms whose expectations are
    :math:`\\theta_a w_d \\gamma_d` and :math:`\\theta_b w_d \\gamma_d`:
    consistent as the number of items grows, whatever their rows.  The
    log-propensities are the weighted least-squares fit of every pair's
    log-ratio (weights: the inverse of its delta-method variance).

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
    .. [2] A. Agarwal, I. Zaitsev, X. Wang, C. Li, M. Najork and T.
       Joachims, "Estimating Position Bias without Intrusive Interventions",
       WSDM 2019.
    .. [3] J. Neyman and E. L. Scott, "Consistent Estimates Based on
       Partially Consistent Observations", Econometrica 16(1), 1948.
    .. [4] T. Joachims, A. Swaminathan and T. Schnabel, "Unbiased
       Learning-to-Rank with Biased Feedback", WSDM 2017.

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
    >>> # under a shuffled display, the click-through rates: no items needed
    >>> est = PositionBiasEstimator(method="randomized")
    >>> est.fit(clicks, positions).propensities_.tolist()
    [1.0, 0.5]
    """

    def __init__(self, *, method="em", max_position=None, max_iter=100, tol=1e-8):
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

    def fit(self, clicks, positions, *, groups=None, items=None, sample_weight=None):
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
            an impression showing one position on several rows is an error
            (without them the rule cannot be checked).
        items : array-like of shape (n_samples,), default=None
            What was shown, identified across impressions (for search, the
            (query, document) pair): one relevance per distinct id.
            Required by ``'em'`` and ``'harvest'``; not used by
            ``'randomized'``.
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
        c, pos, _, w = check_log(clicks, positions, sample_weight=sample_weight)
        c = c.astype(np.float64, copy=False)
        n = c.shape[0]
        needs_items = self.method != "randomized"
        if items is None and needs_items:
            raise ValueError(
                f"items must identify what each row showed (e.g. the (query, "
                f"document) pair) for method={self.method!r}; only "
                f"method='randomized' needs none.")
        item_code = item_ids = None
        if items is not None:
            item_code, item_ids = encode_ids(items, n, "items")
        if groups is not None:
            group_code, _ = encode_ids(groups, n, "groups")
            check_repeated(repeated_impressions(group_code, pos))
        return self._fit_codes(c, pos, item_code, item_ids, w)

    def _fit_codes(self, c, pos, item_code, item_ids, w):
        """The fit of checked arrays (``item_code``: dense codes or None)."""
        n_pos = int(pos.max()) if self.max_position is None else self.max_position
        keep = pos <= n_pos
        if w is not None:
            keep &= w > 0
        if not keep.all():
            c, pos = c[keep], pos[keep]
            item_code = None if item_code is None else item_code[keep]
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
        self.n_iter_, self.converged_ = 0, True
        if self.method == "randomized":
            self.propensities_ = self.click_rates_ / self.click_rates_[0]
            return self
        # items seen at kept rows only, as dense codes
        n_items = item_ids.shape[0]
        present = np.bincount(item_code, minlength=n_items) > 0
        if not present.all():
            code = np.cumsum(present) - 1
            item_code, item_ids = code[item_code], item_ids[present]
            n_items = item_ids.shape[0]
        ones = np.ones_like(c) if w is None else w
        pk, pd, _, (n_click, n_skip) = pair_counts(
            k, item_code, n_items, weights=(c * ones, (1.0 - c) * ones))
        item_clicked = np.bincount(pd, weights=n_click, minlength=n_items)
        _check_linked(pk, pd, item_clicked, n_pos, n_items)
        if self.method == "harvest":
            theta, _ = fit_harvest(pk, pd, n_click, n_click + n_skip,
                                   n_pos=n_pos, n_items=n_items)
            self.propensities_ = theta
            return self
        item_rows = np.bincount(item_code, weights=w, minlength=n_items)
        median_rows = float(np.median(item_rows[item_clicked > 0]))
        if median_rows < SPARSE_ROWS:
            warn(f"PositionBiasEstimator: a median of {median_rows:g} rows per "
                 f"clicked item is too few for the maximum likelihood of one "
                 f"relevance per item: its propensities are biased (each item's "
                 f"relevance absorbs the noise of its few clicks), and the bias "
                 f"does not shrink as the log grows. Use method='harvest' (no "
                 f"relevance per item to estimate).", UserWarning)
        theta, gamma, ll, n_iter, converged, _ = fit_mle(
            pk, pd, n_click, n_skip, clicked, shown, n_items=n_items,
            max_iter=self.max_iter, tol=self.tol)
        self.n_iter_, self.converged_ = n_iter, converged
        self.log_likelihood_ = float(ll)
        if not converged:
            warn(f"PositionBiasEstimator: Newton's method did not converge in "
                 f"max_iter={self.max_iter} iterations (a propensity still moved "
                 f"by more than tol={self.tol} of its value); raise max_iter or "
                 f"tol.", ConvergenceWarning)
        self.propensities_ = theta / theta[0]
        self.items_ = item_ids
        self.item_relevance_ = gamma * theta[0]
        return self


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
