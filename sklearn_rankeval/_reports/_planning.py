"""How many groups an experiment needs: ``topic_set_size`` and
``achieved_power``, from a pilot's per-group values (Sakai's topic set size
design), with the power of the paired (or two-sample) t-test."""

import math
from numbers import Integral, Real

import numpy as np

from .._core import InvalidArgumentError, check_option
from .._stats import groups_needed, groups_needed_ci, paired_power

__all__ = ["achieved_power", "topic_set_size"]

DESIGNS = ("paired", "unpaired")
METHODS = ("power", "ci_width")


def _pilot(differences_or_frame, design):
    """``(sd, n)`` of the pilot: the standard deviation the design needs and
    the number of groups it has."""
    data = differences_or_frame
    columns = getattr(data, "columns", None)
    if columns is not None:  # a pandas / polars frame: its two columns
        if len(columns) != 2:
            raise InvalidArgumentError(
                "differences_or_frame",
                f"must be the per-group differences (1-D) or a frame of two "
                f"columns (the per-group values of two models), got a frame "
                f"with {len(columns)} columns: select two, e.g. "
                f"frame[['A', 'B']].")
        data = np.column_stack([np.asarray(data[c], dtype=np.float64)
                                for c in columns])
    try:
        x = np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            "differences_or_frame", "must hold numbers (per-group values).",
        ) from None
    if x.ndim == 2 and x.shape[1] == 2:
        x = x[~np.isnan(x).any(axis=1)]  # groups where both are defined
        if design == "paired":
            d = x[:, 1] - x[:, 0]
            return (float(np.std(d, ddof=1)) if d.size > 1 else math.nan), d.size
        sd = math.sqrt((np.var(x[:, 0], ddof=1) + np.var(x[:, 1], ddof=1)) / 2.0) \
            if x.shape[0] > 1 else math.nan
        return sd, x.shape[0]
    if x.ndim != 1:
        raise InvalidArgumentError(
            "differences_or_frame",
            f"must be 1-D (per-group differences) or have two columns, got "
            f"shape {x.shape}.")
    if design == "unpaired":
        raise InvalidArgumentError(
            "differences_or_frame",
            "must have two columns (each model's per-group values) for "
            "design='unpaired': differences lose the two variances.")
    x = x[~np.isnan(x)]
    return (float(np.std(x, ddof=1)) if x.size > 1 else math.nan), x.size


def _check(delta, alpha, power=None):
    for name, value, low, high in (("delta", delta, 0.0, math.inf),
                                   ("alpha", alpha, 0.0, 1.0),
                                   ("power", power, 0.0, 1.0)):
        if value is None and name == "power":
            continue
        if (isinstance(value, bool) or not isinstance(value, Real)
                or not low < value < high):
            raise InvalidArgumentError(
                name, f"must be a number in ({low:g}, {high:g}), got {value!r}.",
                value=value)


def topic_set_size(differences_or_frame, *, delta, alpha=0.05, power=0.8,
                   design="paired", method="power"):
    """The number of groups (topics, users) an experiment needs.

    Sakai's topic set size design: from a pilot's per-group values, the
    smallest number of groups ``n`` with which the two-sided t-test at level
    ``alpha`` detects a true difference ``delta`` (on the metric's scale)
    with probability ``power``; or, with ``method="ci_width"``, whose
    ``1 - alpha`` interval of the difference is at most ``delta`` wide.

    Read more in the :ref:`User Guide <statistics-design>`.

    Parameters
    ----------
    differences_or_frame : array-like of shape (n_groups,) or (n_groups, 2), \
or DataFrame of two columns
        The pilot: each group's difference between two models (model minus
        baseline), or the two models' per-group values (e.g. two metric
        columns of :func:`per_group_scores`); rows with a NaN are left out.
    delta : float
        The difference to detect (``method="power"``) or the largest width
        of the interval (``method="ci_width"``), on the metric's scale, > 0.
    alpha : float, default=0.05
        Level of the two-sided test (``1 - alpha``: of the interval).
    power : float, default=0.8
        The probability of detecting ``delta`` (``method="power"``).
    design : {'paired', 'unpaired'}, default='paired'
        ``'paired'``: the models are scored on the same groups (the paired
        t-test, ``sd`` of the differences); ``'unpaired'``: on different
        groups, ``n`` in each (the two-sample t-test, the pooled ``sd`` of
        the two columns).
    method : {'power', 'ci_width'}, default='power'
        What the size must achieve.

    Returns
    -------
    n_groups : int
        The number of groups (in each arm for ``'unpaired'``), at least 2.

    See Also
    --------
    achieved_power : The power of the pilot's own number of groups.
    compare_rankings : The paired tests of the final experiment.

    Notes
    -----
    The power of the two-sided t-test with ``n`` groups at the standardised
    effect ``delta / sd`` (``sd`` the pilot's standard deviation, ``ddof=1``)
    is ``P(T > c) + P(T < -c)`` under the noncentral t with ``n - 1``
    degrees of freedom and noncentrality ``delta sqrt(n) / sd``
    (``2 n - 2`` and ``delta sqrt(n / 2) / sd`` unpaired), ``c`` the central
    t's ``1 - alpha / 2`` quantile: statsmodels' ``TTestPower`` and
    ``TTestIndPower``.  ``n`` is the smallest integer that reaches
    ``power``.  The CI-based design asks ``2 t_{1 - alpha/2, n - 1} sd /
    sqrt(n) <= delta`` with the pilot's ``sd`` in place of the expected
    sample one.  The pilot's ``sd`` is an estimate: a small pilot gives an
    uncertain size.

    References
    ----------
    .. [1] T. Sakai, "Topic set size design", Information Retrieval Journal
       19(3), 2016.
    .. [2] J. Cohen, "Statistical Power Analysis for the Behavioral
       Sciences", 2nd ed., 1988.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_rankeval import topic_set_size
    >>> # a pilot of 8 queries: B minus A on each, sd 0.049
    >>> d = np.array([0.05, -0.03, 0.08, 0.0, 0.04, -0.06, 0.07, 0.01])
    >>> round(float(np.std(d, ddof=1)), 4)
    0.049
    >>> # to detect +0.02 with power 0.8 at alpha 0.05
    >>> topic_set_size(d, delta=0.02)
    50
    >>> # or for a 95% interval of the difference at most 0.02 wide
    >>> topic_set_size(d, delta=0.02, method="ci_width")
    95
    """
    check_option(design, "design", DESIGNS)
    check_option(method, "method", METHODS)
    _check(delta, alpha, power)
    sd, _ = _pilot(differences_or_frame, design)
    if not math.isfinite(sd):
        raise InvalidArgumentError(
            "differences_or_frame", "must hold at least 2 groups with values.")
    if method == "ci_width":
        return groups_needed_ci(sd, delta, alpha)
    if sd == 0.0:
        return 2
    return groups_needed(delta / sd, alpha, power, design)


def achieved_power(differences_or_frame, *, delta, alpha=0.05, design="paired",
                   n_groups=None):
    """The power of the two-sided t-test to detect a difference ``delta``.

    The standard deviation is the pilot's (``differences_or_frame``).

    Read more in the :ref:`User Guide <statistics-design>`.

    Parameters
    ----------
    differences_or_frame : array-like of shape (n_groups,) or (n_groups, 2), \
or DataFrame of two columns
        As in :func:`topic_set_size`.
    delta : float
        The true difference, on the metric's scale, > 0.
    alpha : float, default=0.05
        Level of the two-sided test.
    design : {'paired', 'unpaired'}, default='paired'
        As in :func:`topic_set_size`.
    n_groups : int, default=None
        The number of groups of the experiment; None: the pilot's.

    Returns
    -------
    power : float
        The probability that the test rejects "no difference" when the
        difference is ``delta``.

    See Also
    --------
    topic_set_size : The number of groups a target power needs.

    Notes
    -----
    As statsmodels' ``TTestPower().power(delta / sd, nobs=n, alpha=alpha)``
    (``TTestIndPower`` unpaired); see :func:`topic_set_size`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_rankeval import achieved_power
    >>> d = np.array([0.05, -0.03, 0.08, 0.0, 0.04, -0.06, 0.07, 0.01])
    >>> # 8 queries detect +0.02 one time in six or so
    >>> round(achieved_power(d, delta=0.02), 4)
    0.1706
    >>> round(achieved_power(d, delta=0.02, n_groups=50), 4)
    0.8078
    """
    check_option(design, "design", DESIGNS)
    _check(delta, alpha)
    sd, n = _pilot(differences_or_frame, design)
    if n_groups is not None:
        if (isinstance(n_groups, bool) or not isinstance(n_groups, Integral)
                or n_groups < 2):
            raise InvalidArgumentError(
                "n_groups", f"must be an integer >= 2, got {n_groups!r}.",
                value=n_groups)
        n = int(n_groups)
    if not math.isfinite(sd) or n < 2:
        raise InvalidArgumentError(
            "differences_or_frame", "must hold at least 2 groups with values.")
    if sd == 0.0:
        return 1.0
    return float(paired_power(delta / sd, n, alpha, design))
