"""Synthetic data for examples, tests and the ``rankeval demo`` command."""

import numpy as np
from sklearn.utils import check_random_state

__all__ = ["make_click_log", "make_interactions"]


def make_click_log(n_users=1000, *, n_items=(5, 40), n_features=6,
                   user_spread=1.5, base_rate=0.1, shuffle=True,
                   random_state=None):
    """Generate a click log where users differ in their base click rate.

    Each user ``u`` sees between ``n_items[0]`` and ``n_items[1]`` items; the
    click probability of an item is ``sigmoid(b_u + x @ beta)``, where ``b_u``
    is the user's propensity to click (spread ``user_spread`` around the logit
    of ``base_rate``) and ``x`` the item's features.  The first column of ``X``
    is a noisy copy of ``b_u`` (a user-activity feature): it separates active
    from inactive users, which raises the global AUC, but it cannot order the
    items of one user, so it leaves the group AUC at 1/2 -- the reason GAUC is
    used for CTR models.

    Parameters
    ----------
    n_users : int, default=1000
        Number of users (groups).
    n_items : tuple of two ints, default=(5, 40)
        Smallest and largest number of impressions per user (inclusive).
    n_features : int, default=6
        Number of item features; ``X`` has ``n_features + 1`` columns.
    user_spread : float, default=1.5
        Standard deviation of the users' click propensities (logit scale).
    base_rate : float, default=0.1
        Click rate of a typical user.
    shuffle : bool, default=True
        Whether to shuffle the rows (the users' rows are then interleaved).
    random_state : int, RandomState instance or None, default=None
        Seed of the generator.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features + 1)
        Column 0: user-activity feature; columns 1..: item features.
    y : ndarray of shape (n_samples,), int
        1 for a click.
    groups : ndarray of shape (n_samples,), int
        User id of each row.

    See Also
    --------
    sklearn_rankeval.gauc_score : The group AUC this data set illustrates.
    sklearn.datasets.make_classification : Unstructured binary data.

    References
    ----------
    .. [1] G. Zhou et al., "Deep Interest Network for Click-Through Rate
       Prediction", KDD 2018 (group AUC: users' base rates make the global
       AUC misleading for CTR models).

    Examples
    --------
    >>> from sklearn_rankeval.datasets import make_click_log
    >>> X, y, groups = make_click_log(n_users=50, random_state=0)
    >>> X.shape[1], len(set(groups))
    (7, 50)
    """
    rng = check_random_state(random_state)
    lo, hi = n_items
    if not 1 <= lo <= hi:
        raise ValueError(
            f"n_items must be (low, high) with 1 <= low <= high, got {n_items}."
        )
    if n_users < 1 or n_features < 1:
        raise ValueError("n_users and n_features must be positive integers.")
    sizes = rng.randint(lo, hi + 1, size=n_users)
    groups = np.repeat(np.arange(n_users), sizes)
    propensity = np.log(base_rate / (1 - base_rate)) + user_spread * rng.randn(n_users)
    features = rng.randn(groups.shape[0], n_features)
    beta = np.linspace(1.5, 0.25, n_features) * rng.choice([-1, 1], n_features)
    logit = propensity[groups] + features @ beta
    y = (rng.rand(groups.shape[0]) < 1 / (1 + np.exp(-logit))).astype(int)
    activity = propensity[groups] + 0.3 * rng.randn(n_users)[groups]
    X = np.column_stack([activity, features])
    if shuffle:
        order = rng.permutation(groups.shape[0])
        X, y, groups = X[order], y[order], groups[order]
    return X, y, groups


def make_interactions(n_users=1000, n_items=300, *, n_per_user=(10, 40),
                      n_factors=8, popularity=1.0, taste=2.0, random_state=None):
    """Generate user-item interactions with popular items and user tastes.

    Item ``i`` has a popularity ``p_i`` proportional to ``1 / rank_i **
    popularity`` (a Zipf law over a random order of the items); user ``u``
    and item ``i`` have taste vectors ``a_u`` and ``b_i`` of ``n_factors``
    standard normal entries.  Each user interacts with between
    ``n_per_user[0]`` and ``n_per_user[1]`` distinct items, drawn without
    replacement with probability proportional to ``p_i * exp(taste * a_u .
    b_i / sqrt(n_factors))``.  A recommender that only knows the popular items
    reaches a fair recall but covers few items; one that learns the tastes
    does better on both -- the trade-off the beyond-accuracy metrics of
    :func:`~sklearn_rankeval.recommendation_report` show.

    Read more in the :ref:`User Guide <recommendations>`.

    Parameters
    ----------
    n_users : int, default=1000
        Number of users.
    n_items : int, default=300
        Number of items (the catalog).
    n_per_user : tuple of two ints, default=(10, 40)
        Smallest and largest number of items per user (inclusive), at most
        ``n_items``.
    n_factors : int, default=8
        Dimension of the taste vectors.
    popularity : float, default=1.0
        Exponent of the Zipf law of the items' popularity (0: all items
        equally popular).
    taste : float, default=2.0
        Weight of the users' tastes against the items' popularity (0: every
        user draws from the popularity alone).
    random_state : int, RandomState instance or None, default=None
        Seed of the generator.

    Returns
    -------
    user : ndarray of shape (n_interactions,), int
        User id of each interaction, ``0 .. n_users - 1``, in increasing order.
    item : ndarray of shape (n_interactions,), int
        Item id of each interaction, ``0 .. n_items - 1``; a user's items in
        the order they were drawn.

    See Also
    --------
    sklearn_rankeval.top_k_items : Top-N lists of a users x items score matrix.
    sklearn_rankeval.recommendation_report : Accuracy and beyond-accuracy
        metrics of the lists.

    References
    ----------
    .. [1] Y. Koren, R. Bell and C. Volinsky, "Matrix factorization techniques
       for recommender systems", Computer 42(8), 2009 (user and item factors).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_rankeval.datasets import make_interactions
    >>> user, item = make_interactions(n_users=50, n_items=40, random_state=0)
    >>> int(user.max()) + 1, bool(item.max() < 40)
    (50, True)
    >>> # a user never meets the same item twice
    >>> len(set(zip(user.tolist(), item.tolist()))) == len(user)
    True
    """
    rng = check_random_state(random_state)
    lo, hi = n_per_user
    if n_users < 1 or n_items < 1 or n_factors < 1:
        raise ValueError("n_users, n_items and n_factors must be positive "
                         "integers.")
    if not 1 <= lo <= hi <= n_items:
        raise ValueError(f"n_per_user must be (low, high) with 1 <= low <= high "
                         f"<= n_items, got {n_per_user}.")
    if popularity < 0 or taste < 0:
        raise ValueError(f"popularity and taste must be >= 0, got {popularity} "
                         f"and {taste}.")
    rank = rng.permutation(n_items) + 1
    log_pop = -popularity * np.log(rank)
    tastes = rng.randn(n_users, n_factors)
    factors = rng.randn(n_items, n_factors)
    logit = log_pop + taste * (tastes @ factors.T) / np.sqrt(n_factors)
    # Gumbel top-k: the first s draws without replacement, in order
    keys = logit + rng.gumbel(size=logit.shape)
    order = np.argsort(-keys, axis=1, kind="stable")
    sizes = rng.randint(lo, hi + 1, size=n_users)
    taken = np.arange(n_items) < sizes[:, None]
    user = np.repeat(np.arange(n_users), sizes)
    item = order[taken]
    return user, item
