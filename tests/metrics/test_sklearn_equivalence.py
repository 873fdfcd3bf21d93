"""Where scikit-learn has the same metric, the value is scikit-learn's.

* GAUC per group == ``roc_auc_score`` on that group's rows;
* AP per query == ``average_precision_score`` (ties, item weights), and
  MAP on 2-D binary rows == ``label_ranking_average_precision_score``;
* ``ndcg_score`` on 2-D input == ``sklearn.metrics.ndcg_score``;
* ``f_alpha_score`` == ``fbeta_score(beta=sqrt(1/alpha - 1))``;
* ``hit_rate_score`` on multiclass input == ``top_k_accuracy_score``.

Data come from a numpy ``default_rng`` seeded by hypothesis, so each failure
is reproducible from the printed seed.
"""

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    fbeta_score,
    label_ranking_average_precision_score,
    precision_score,
    recall_score,
    roc_auc_score,
    top_k_accuracy_score,
)
from sklearn.metrics import ndcg_score as sklearn_ndcg_score

import sklearn_rankeval as sr

TOL = {"rtol": 1e-12, "atol": 1e-12}
NEG_INF = float("-inf")

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
seeds = st.integers(0, 2**32 - 1)


def make_grouped(rng, *, max_grade=1, weights=None, n_score_values=4, max_groups=5, max_size=8):
    """Long-layout data: discrete scores (ties), rows in random order.

    ``weights``: None, "int" (0-3; zero weights included) or "float".
    """
    n_groups = int(rng.integers(1, max_groups + 1))
    sizes = rng.integers(1, max_size + 1, size=n_groups)
    ids = rng.choice(np.arange(100, 200), size=n_groups, replace=False)
    groups = np.repeat(ids, sizes)
    n = groups.shape[0]
    y_true = rng.integers(0, max_grade + 1, size=n).astype(float)
    y_score = rng.integers(0, n_score_values, size=n).astype(float) / 2.0
    if weights is None:
        w = None
    elif weights == "int":
        w = rng.integers(0, 4, size=n).astype(float)
    else:
        w = rng.uniform(0.05, 3.0, size=n)
    perm = rng.permutation(n)
    return y_true[perm], y_score[perm], groups[perm], (None if w is None else w[perm])


def silent(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


# --------------------------------------------------------------------------
# GAUC == roc_auc_score per group
# --------------------------------------------------------------------------
def _auc_per_group(y_true, y_score, groups, w):
    """roc_auc_score on each group's rows (NaN if it has one class only)."""
    values, weights = [], []
    for g in np.unique(groups):
        mask = groups == g
        yb = (y_true[mask] > 0).astype(int)
        wg = None if w is None else w[mask]
        pos = yb.sum() if wg is None else wg[yb == 1].sum()
        neg = (1 - yb).sum() if wg is None else wg[yb == 0].sum()
        if pos > 0 and neg > 0:
            values.append(roc_auc_score(yb, y_score[mask], sample_weight=wg))
        else:
            values.append(np.nan)
        weights.append(mask.sum() if wg is None else wg.sum())
    return np.array(values), np.array(weights, dtype=float)


@SETTINGS
@given(seed=seeds, weights=st.sampled_from([None, "int", "float"]))
def test_gauc_per_group_equals_roc_auc_score(seed, weights):
    rng = np.random.default_rng(seed)
    y_true, y_score, groups, w = make_grouped(rng, max_grade=1, weights=weights)
    expected, group_weight = _auc_per_group(y_true, y_score, groups, w)

    got = silent(sr.gauc_score, y_true, y_score, groups=groups, sample_weight=w, average=None)
    np.testing.assert_allclose(got, expected, **TOL)

    defined = ~np.isnan(expected)
    got_weighted = silent(sr.gauc_score, y_true, y_score, groups=groups, sample_weight=w)
    if defined.any() and group_weight[defined].sum() > 0:
        mean = np.average(expected[defined], weights=group_weight[defined])
        np.testing.assert_allclose(got_weighted, mean, **TOL)
        got_macro = silent(
            sr.gauc_score, y_true, y_score, groups=groups, sample_weight=w, average="macro"
        )
        np.testing.assert_allclose(got_macro, expected[defined].mean(), **TOL)
    elif not defined.any():
        assert np.isnan(got_weighted)


@SETTINGS
@given(seed=seeds)
def test_gauc_with_unretrieved_items_equals_roc_auc_with_lowest_score(seed):
    # -inf ranks below every finite score and ties with the other -inf items
    rng = np.random.default_rng(seed)
    y_true, y_score, groups, _ = make_grouped(rng)
    y_score = np.where(rng.random(y_score.shape) < 0.3, NEG_INF, y_score)
    lowest = np.where(np.isinf(y_score), -100.0, y_score)
    expected, _ = _auc_per_group(y_true, lowest, groups, None)
    got = silent(sr.gauc_score, y_true, y_score, groups=groups, average=None)
    np.testing.assert_allclose(got, expected, **TOL)


def test_gauc_worked_example():
    # group a: pos 0.9 > neg 0.1, pos 0.5 == neg 0.5 -> (1 + 1 + 0.5 + 1) / 4
    # group b: one class only, skipped; group c: pos below neg -> 0
    y_true = [1, 1, 0, 0, 1, 1, 0, 1]
    y_score = [0.9, 0.5, 0.5, 0.1, 0.3, 0.2, 0.8, 0.7]
    groups = ["a", "a", "a", "a", "b", "b", "c", "c"]
    np.testing.assert_allclose(
        sr.gauc_score(y_true, y_score, groups=groups, average=None), [0.875, np.nan, 0.0]
    )
    # weighted by the number of rows of the defined groups: (4*0.875 + 2*0) / 6
    np.testing.assert_allclose(sr.gauc_score(y_true, y_score, groups=groups), 3.5 / 6, **TOL)
    assert roc_auc_score([1, 1, 0, 0], [0.9, 0.5, 0.5, 0.1]) == 0.875


# --------------------------------------------------------------------------
# MAP == average_precision_score per query
# --------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, weights=st.sampled_from([None, "int", "float"]), max_grade=st.sampled_from([1, 3]))
def test_average_precision_per_query_equals_sklearn(seed, weights, max_grade):
    rng = np.random.default_rng(seed)
    y_true, y_score, groups, w = make_grouped(rng, max_grade=max_grade, weights=weights)
    expected = []
    for g in np.unique(groups):
        mask = groups == g
        yb = (y_true[mask] > 0).astype(int)
        wg = None if w is None else w[mask]
        relevant_weight = yb.sum() if wg is None else wg[yb == 1].sum()
        if relevant_weight > 0 and (wg is None or wg.sum() > 0):
            expected.append(average_precision_score(yb, y_score[mask], sample_weight=wg))
        else:
            expected.append(np.nan)
    expected = np.array(expected)
    # a group whose relevant items all weigh 0 is left out of the comparison
    zero_relevant_weight = []
    for g in np.unique(groups):
        mask = groups == g
        zero_relevant_weight.append(
            (y_true[mask] > 0).any() and w is not None and w[mask][y_true[mask] > 0].sum() == 0
        )
    zero_relevant_weight = np.array(zero_relevant_weight)

    got = silent(
        sr.mean_average_precision_score, y_true, y_score, groups=groups, sample_weight=w, average=None
    )
    got = np.asarray(got, dtype=float)
    np.testing.assert_allclose(got[~zero_relevant_weight], expected[~zero_relevant_weight], **TOL)

    # k at least the largest group: AP@k == AP
    got_k = silent(
        sr.mean_average_precision_score, y_true, y_score, groups=groups, k=8, average=None
    )
    if w is None:
        np.testing.assert_allclose(got_k, expected, **TOL)


@SETTINGS
@given(seed=seeds, ties=st.booleans())
def test_map_on_binary_rows_equals_label_ranking_average_precision(seed, ties):
    rng = np.random.default_rng(seed)
    n_rows = int(rng.integers(1, 8))
    n_cols = int(rng.integers(1, 9))
    y_true = (rng.random((n_rows, n_cols)) < 0.4).astype(int)
    y_true[:, 0] |= ~y_true.any(axis=1)  # every row has a relevant item
    if ties:
        y_score = rng.integers(0, 3, size=(n_rows, n_cols)).astype(float)
    else:
        y_score = rng.random((n_rows, n_cols))
    w = rng.uniform(0.1, 2.0, size=n_rows)

    expected_rows = [label_ranking_average_precision_score(y_true[i : i + 1], y_score[i : i + 1]) for i in range(n_rows)]
    np.testing.assert_allclose(sr.mean_average_precision_score(y_true, y_score, average=None), expected_rows, **TOL)
    np.testing.assert_allclose(
        sr.mean_average_precision_score(y_true, y_score),
        label_ranking_average_precision_score(y_true, y_score),
        **TOL,
    )
    np.testing.assert_allclose(
        sr.mean_average_precision_score(y_true, y_score, sample_weight=w, average="weighted"),
        label_ranking_average_precision_score(y_true, y_score, sample_weight=w),
        **TOL,
    )


# --------------------------------------------------------------------------
# NDCG == sklearn.metrics.ndcg_score
# --------------------------------------------------------------------------
@SETTINGS
@given(
    seed=seeds,
    k=st.sampled_from([None, 1, 2, 3, 5, 8, 20]),
    weighted=st.booleans(),
    all_zero_rows=st.booleans(),
)
def test_ndcg_2d_equals_sklearn(seed, k, weighted, all_zero_rows):
    rng = np.random.default_rng(seed)
    n_rows = int(rng.integers(1, 7))
    n_cols = int(rng.integers(2, 9))
    y_true = rng.integers(0, 4, size=(n_rows, n_cols)).astype(float)
    y_true *= rng.random((n_rows, n_cols)) < 0.6
    if not all_zero_rows:
        y_true[:, 0] = np.where(y_true.sum(axis=1) == 0, 1.0, y_true[:, 0])
    y_score = rng.integers(0, 3, size=(n_rows, n_cols)).astype(float)
    w = rng.uniform(0.1, 2.0, size=n_rows) if weighted else None

    expected_rows = [sklearn_ndcg_score(y_true[i : i + 1], y_score[i : i + 1], k=k) for i in range(n_rows)]
    expected = sklearn_ndcg_score(y_true, y_score, k=k, sample_weight=w)
    if all_zero_rows:
        # sklearn scores an all-zero row 0 and counts it: in sklearn's layout
        # the default gives sklearn's value, silently (API.md, wave 5)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = sr.ndcg_score(y_true, y_score, k=k, sample_weight=w)
            got_rows = sr.ndcg_score(y_true, y_score, k=k, average=None)
        np.testing.assert_allclose(got, expected, **TOL)
        np.testing.assert_allclose(got_rows, expected_rows, **TOL)
        # an explicit undefined="skip" leaves such rows out (NaN per row)
        skipped = silent(sr.ndcg_score, y_true, y_score, k=k, average=None,
                         undefined="skip")
        nonzero = y_true.sum(axis=1) > 0
        np.testing.assert_allclose(np.asarray(skipped)[nonzero], np.array(expected_rows)[nonzero], **TOL)
        assert np.isnan(np.asarray(skipped)[~nonzero]).all()
    else:
        np.testing.assert_allclose(sr.ndcg_score(y_true, y_score, k=k, sample_weight=w), expected, **TOL)
        np.testing.assert_allclose(sr.ndcg_score(y_true, y_score, k=k, average=None), expected_rows, **TOL)


@SETTINGS
@given(seed=seeds, k=st.sampled_from([None, 1, 2, 3, 5]))
def test_ndcg_long_layout_per_group_equals_sklearn_one_row(seed, k):
    rng = np.random.default_rng(seed)
    y_true, y_score, groups, _ = make_grouped(rng, max_grade=3)
    expected = []
    for g in np.unique(groups):
        mask = groups == g
        if y_true[mask].sum() == 0:
            expected.append(np.nan)
        elif mask.sum() == 1:
            expected.append(1.0)  # sklearn refuses one document; one relevant item is ideal
        else:
            expected.append(sklearn_ndcg_score([y_true[mask]], [y_score[mask]], k=k))
    got = silent(sr.ndcg_score, y_true, y_score, groups=groups, k=k, average=None)
    np.testing.assert_allclose(got, expected, **TOL)


# --------------------------------------------------------------------------
# F-alpha == F-beta
# --------------------------------------------------------------------------
ALPHAS = [0.05, 0.2, 1 / 3, 0.5, 0.75, 0.9, 0.99]


def _classification_data(rng, kind):
    n = int(rng.integers(5, 40))
    if kind == "binary":
        y_true = rng.integers(0, 2, size=n)
        y_pred = np.where(rng.random(n) < 0.7, y_true, 1 - y_true)
    elif kind == "multiclass":
        y_true = rng.integers(0, 4, size=n)
        y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, 4, size=n))
    else:  # multilabel indicator
        y_true = (rng.random((n, 4)) < 0.4).astype(int)
        y_pred = np.where(rng.random((n, 4)) < 0.7, y_true, 1 - y_true)
    return y_true, y_pred


F_CASES = [
    ("binary", "binary"),
    ("multiclass", "micro"),
    ("multiclass", "macro"),
    ("multiclass", "weighted"),
    ("multiclass", None),
    ("multilabel", "samples"),
    ("multilabel", "macro"),
    ("multilabel", "micro"),
]


@pytest.mark.parametrize("kind, average", F_CASES)
@settings(max_examples=40, deadline=None, database=None)
@given(seed=seeds, alpha=st.sampled_from(ALPHAS), weighted=st.booleans())
def test_f_alpha_equals_fbeta(kind, average, seed, alpha, weighted):
    rng = np.random.default_rng(seed)
    y_true, y_pred = _classification_data(rng, kind)
    w = rng.uniform(0.1, 2.0, size=y_true.shape[0]) if weighted else None
    beta = math.sqrt(1 / alpha - 1)
    expected = fbeta_score(y_true, y_pred, beta=beta, average=average, sample_weight=w, zero_division=0)
    got = sr.f_alpha_score(y_true, y_pred, alpha=alpha, average=average, sample_weight=w, zero_division=0)
    np.testing.assert_allclose(got, expected, **TOL)


@pytest.mark.parametrize("kind, average", F_CASES)
@settings(max_examples=25, deadline=None, database=None)
@given(seed=seeds)
def test_f_alpha_limits_are_recall_precision_and_f1(kind, average, seed):
    rng = np.random.default_rng(seed)
    y_true, y_pred = _classification_data(rng, kind)
    kw = {"average": average, "zero_division": 0}
    np.testing.assert_allclose(sr.f_alpha_score(y_true, y_pred, alpha=0.0, **kw), recall_score(y_true, y_pred, **kw), **TOL)
    np.testing.assert_allclose(sr.f_alpha_score(y_true, y_pred, alpha=1.0, **kw), precision_score(y_true, y_pred, **kw), **TOL)
    np.testing.assert_allclose(sr.f_alpha_score(y_true, y_pred, alpha=0.5, **kw), f1_score(y_true, y_pred, **kw), **TOL)


def test_f_alpha_pos_label_and_labels():
    y_true = np.array([0, 0, 1, 1, 1, 0, 1, 0, 0, 1])
    y_pred = np.array([0, 1, 1, 0, 1, 0, 1, 1, 0, 0])
    # pos_label=0: TP=3, FP=2, FN=2 -> P = R = 3/5
    np.testing.assert_allclose(sr.f_alpha_score(y_true, y_pred, alpha=0.2, pos_label=0), 0.6, **TOL)
    np.testing.assert_allclose(
        sr.f_alpha_score(y_true, y_pred, alpha=0.2, pos_label=0),
        fbeta_score(y_true, y_pred, beta=2.0, pos_label=0),
        **TOL,
    )
    y3 = np.array([0, 1, 2, 2, 1, 0, 2])
    p3 = np.array([0, 2, 2, 1, 1, 0, 2])
    np.testing.assert_allclose(
        sr.f_alpha_score(y3, p3, alpha=0.8, labels=[1, 2], average="macro"),
        fbeta_score(y3, p3, beta=0.5, labels=[1, 2], average="macro"),
        **TOL,
    )


# --------------------------------------------------------------------------
# HR@k on multiclass input == top_k_accuracy_score
# --------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds, weighted=st.booleans(), explicit_labels=st.booleans())
def test_hit_rate_multiclass_equals_top_k_accuracy(seed, weighted, explicit_labels):
    rng = np.random.default_rng(seed)
    n_classes = int(rng.integers(3, 7))
    n = int(rng.integers(1, 30))
    k = int(rng.integers(1, n_classes))
    classes = np.sort(rng.choice(np.arange(-5, 20), size=n_classes, replace=False))
    if explicit_labels:
        y_true = rng.choice(classes, size=n)  # some classes may be absent
        labels = classes
    else:
        y_true = np.concatenate([classes, rng.choice(classes, size=n)])
        rng.shuffle(y_true)
        n = y_true.shape[0]
        labels = None
    proba = rng.random((n, n_classes))
    proba /= proba.sum(axis=1, keepdims=True)
    w = rng.uniform(0.1, 2.0, size=n) if weighted else None

    expected = top_k_accuracy_score(y_true, proba, k=k, labels=labels, sample_weight=w)
    got = sr.hit_rate_score(y_true, proba, k=k, labels=labels, sample_weight=w)
    np.testing.assert_allclose(got, expected, **TOL)
    # each sample is a query with one relevant item: per-query hit is 0 or 1
    hits = sr.hit_rate_score(y_true, proba, k=k, labels=labels, average=None)
    expected_hits = [
        top_k_accuracy_score([y_true[i]], proba[i : i + 1], k=k, labels=classes) for i in range(n)
    ]
    np.testing.assert_allclose(hits, expected_hits, **TOL)


# -- GAUC reads binary labels as roc_auc_score does --------------------------
@pytest.mark.parametrize("kind", ["pm1", "bool", "strings"])
def test_gauc_accepts_the_binary_labels_roc_auc_score_accepts(kind):
    from sklearn.metrics import roc_auc_score

    from sklearn_rankeval import gauc_score

    rng = np.random.default_rng(11)
    g = np.repeat(np.arange(6), 7)
    y01 = rng.integers(0, 2, len(g))
    y01[::7] = 1
    y01[1::7] = 0
    s = np.round(rng.random(len(g)), 1)
    if kind == "pm1":
        y, kw = np.where(y01 == 1, 1, -1), {}
    elif kind == "bool":
        y, kw = y01.astype(bool), {}
    else:
        y, kw = np.where(y01 == 1, "click", "skip"), {"pos_label": "click"}
    per_group = gauc_score(y, s, groups=g, average=None, **kw)
    # roc_auc_score takes no pos_label: it reads {-1, 1} and booleans itself,
    # and for strings the positive class is the larger label
    y_sk = y == "click" if kind == "strings" else y
    expected = [roc_auc_score(y_sk[g == i], s[g == i]) for i in range(6)]
    np.testing.assert_allclose(per_group, expected, rtol=1e-12)
    assert gauc_score(y, s, groups=g, **kw) == pytest.approx(
        gauc_score(y01, s, groups=g), rel=1e-12)
    if kind == "strings":
        with pytest.raises(ValueError, match="pos_label"):
            gauc_score(y, s, groups=g)
        with pytest.raises(ValueError, match="pos_label"):
            gauc_score(y, s, groups=g, pos_label="view")
