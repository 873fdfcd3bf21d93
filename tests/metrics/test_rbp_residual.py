"""RBP's residual (issue 13): ``rank_biased_precision_residual``,
``rank_biased_precision_score(..., judged=, return_residual=True)`` and the
``"rbp_residual"`` name.

Checked against trec_eval's ``rbp_resid`` (its ``out.test*`` files and
``rankeval trec``'s unrounded values) and a brute force over tie orderings.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from numpy.testing import assert_allclose

from sklearn_rankeval import (
    get_scorer,
    get_scorer_names,
    per_group_scores,
    rank_biased_precision_residual,
    rank_biased_precision_score,
    ranking_report,
)
from sklearn_rankeval._cli import _trec
from tests.conftest import DATA_DIR

DATA = DATA_DIR / "trec_eval"


def _trec_values(out_name, measure):
    """{query: value} of one measure in a trec_eval output file."""
    out = {}
    for line in (DATA / out_name).read_text().splitlines():
        name, query, value = line.split("\t")
        if name.rstrip() == measure:
            out[query] = float(value)
    return out


# --------------------------------------------------------------------------
# brute force: every ordering of every tie block
# --------------------------------------------------------------------------
def _orderings(y, s, judged):
    """Each tie order of the retrieved items: a list of (relevant, judged)."""
    items = [(y[i] > 0, judged[i], s[i]) for i in range(len(y)) if np.isfinite(s[i])]
    blocks = [list(b) for _, b in itertools.groupby(
        sorted(items, key=lambda t: -t[2]), key=lambda t: t[2])]
    for parts in itertools.product(*(itertools.permutations(b) for b in blocks)):
        yield [(rel, jud) for part in parts for rel, jud, _ in part]


def _brute(y, s, judged, p):
    """Exact expected (RBP, residual) over the tie orders; NaN without a
    judged relevant item."""
    if not any(y[i] > 0 and judged[i] for i in range(len(y))):
        return np.nan, np.nan
    p = Fraction(p)
    score = resid = Fraction(0)
    count = 0
    for ranking in _orderings(y, s, judged):
        count += 1
        resid += p ** len(ranking)
        for i, (rel, jud) in enumerate(ranking):
            w = (1 - p) * p ** i
            if not jud:
                resid += w
            elif rel:
                score += w
    return float(score / count), float(resid / count)


def _small(seed, n_groups=40):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 7, n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    n = len(g)
    y = rng.integers(0, 3, n)
    s = rng.integers(0, 3, n).astype(float)  # many ties
    s[rng.random(n) < 0.15] = -np.inf  # not retrieved
    judged = rng.random(n) < 0.7
    return y, s, g, judged


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("p", [0.5, 0.8, 0.9])
def test_brute_force_over_tie_orders_with_judged(seed, p):
    y, s, g, judged = _small(seed)
    expected = np.array([_brute(y[g == q], s[g == q], judged[g == q], p)
                         for q in np.unique(g)])
    score, resid = rank_biased_precision_score(
        y, s, groups=g, p=p, judged=judged, average=None, return_residual=True)
    assert_allclose(score, expected[:, 0], rtol=1e-12, atol=1e-15, equal_nan=True)
    assert_allclose(resid, expected[:, 1], rtol=1e-12, atol=1e-15, equal_nan=True)
    alone = rank_biased_precision_residual(y, s, groups=g, p=p, judged=judged,
                                           average=None)
    assert_allclose(alone, resid, rtol=0, atol=0, equal_nan=True)
    # the true RBP, whatever the unjudged items are, lies in [score, score + resid]
    ok = ~np.isnan(score)
    all_relevant = rank_biased_precision_score(
        np.where(judged, y, 1), s, groups=g, p=p, average=None)
    # exactly: the unjudged rows' weight is the residual less the tail p**n
    n_ret = np.array([np.isfinite(s[g == q]).sum() for q in np.unique(g)])
    assert_allclose(all_relevant[ok], score[ok] + resid[ok] - p ** n_ret[ok],
                    rtol=1e-12, atol=1e-15)
    # and the unjudged rows matter
    assert not np.allclose(resid[ok], rank_biased_precision_residual(
        y, s, groups=g, p=p, average=None)[ok])


@pytest.mark.parametrize("seed", range(3))
def test_every_row_judged_residual_is_p_to_the_retrieved(seed):
    y, s, g, _ = _small(seed)
    expected = np.array([_brute(y[g == q], s[g == q], [True] * (g == q).sum(), 0.8)
                         for q in np.unique(g)])
    got = rank_biased_precision_residual(y, s, groups=g, average=None)
    assert_allclose(got, expected[:, 1], rtol=1e-12, equal_nan=True)
    n_ret = np.array([np.isfinite(s[g == q]).sum() for q in np.unique(g)])
    ok = ~np.isnan(got)
    assert_allclose(got[ok], 0.8 ** n_ret[ok], rtol=1e-12)
    # judged all True is judged=None
    assert_allclose(rank_biased_precision_residual(
        y, s, groups=g, judged=np.ones(len(y), bool), average=None), got,
        rtol=0, atol=0, equal_nan=True)


def test_by_hand_and_averages():
    # query a: d1 rel, d2 unjudged, d3 non-rel (p = 0.5):
    #   RBP 0.5, residual 0.5**3 + 0.5 * 0.5 = 0.375
    # query b: d1 non-rel, d2 rel: RBP 0.25, residual 0.25
    y = [1, 1, 0, 0, 1]
    s = [3, 2, 1, 2, 1]
    g = ["a", "a", "a", "b", "b"]
    judged = [True, False, True, True, True]
    score, resid = rank_biased_precision_score(
        y, s, groups=g, p=0.5, judged=judged, return_residual=True, average=None)
    assert_allclose(score, [0.5, 0.25], rtol=1e-15)
    assert_allclose(resid, [0.375, 0.25], rtol=1e-15)
    score, resid = rank_biased_precision_score(
        y, s, groups=g, p=0.5, judged=judged, return_residual=True)
    assert (score, resid) == pytest.approx((0.375, 0.3125), rel=1e-15)
    # query weights weigh the residual as the score ("weighted": times the
    # group sizes 3 and 2)
    w = [1, 1, 1, 3, 3]
    score, resid = rank_biased_precision_score(
        y, s, groups=g, p=0.5, judged=judged, return_residual=True,
        sample_weight=w)
    assert (score, resid) == pytest.approx(
        ((0.5 + 3 * 0.25) / 4, (0.375 + 3 * 0.25) / 4), rel=1e-15)
    score, resid = rank_biased_precision_score(
        y, s, groups=g, p=0.5, judged=judged, return_residual=True,
        sample_weight=w, average="weighted")
    assert (score, resid) == pytest.approx(
        ((3 * 0.5 + 6 * 0.25) / 9, (3 * 0.375 + 6 * 0.25) / 9), rel=1e-15)
    # 2-D input: one query per row
    Y = np.array([[1, 1, 0], [0, 1, 0]])
    S = np.array([[3, 2, 1], [2, 1, -np.inf]])
    J = np.array([[True, False, True], [True, True, True]])
    assert_allclose(rank_biased_precision_residual(Y, S, p=0.5, judged=J,
                                                   average=None),
                    [0.375, 0.25], rtol=1e-15)
    assert_allclose(rank_biased_precision_score(Y, S, p=0.5, judged=J,
                                                average=None), [0.5, 0.25],
                    rtol=1e-15)
    # an unjudged relevant row gains nothing; a query whose only relevant
    # row is unjudged is undefined (skipped), for the score and the residual
    with pytest.warns(Warning, match="undefined|no relevant"):
        assert np.isnan(rank_biased_precision_residual(
            [1, 0], [2, 1], judged=[False, True]))


def test_reproduces_trec_eval_rbp_resid():
    arr = _trec.build_arrays(_trec.read_qrels(DATA / "qrels.test"),
                             _trec.read_run(DATA / "results.test")[0])
    judged = arr.rel >= 0
    got = rank_biased_precision_residual(arr.y_bin, arr.y_score, groups=arr.groups,
                                         p=0.9, judged=judged, average=None)
    printed = _trec_values("out.test.aq", "rbp_resid")
    assert [round(v, 4) for v in got] == [printed[q] for q in arr.qids]
    # unrounded, as rankeval trec computes it (every query has an unjudged
    # retrieved document here)
    assert_allclose(got, _trec._rbp_resid(arr, [None], None)[0], rtol=1e-12)
    assert round(float(np.mean(got)), 4) == _trec_values("out.test.a",
                                                         "rbp_resid")["all"]
    assert round(rank_biased_precision_residual(
        arr.y_bin, arr.y_score, groups=arr.groups, p=0.9, judged=judged),
        4) == printed["all"]
    # without judged=, the unjudged documents count as judged non-relevant:
    # only the ranks beyond the 500 retrieved remain (0.9**500)
    assert_allclose(rank_biased_precision_residual(
        arr.y_bin, arr.y_score, groups=arr.groups, p=0.9, average=None),
        0.9 ** arr.num_ret, rtol=1e-12)


def test_trec_eval_prints_zero_without_unjudged_documents():
    # -c: query 302 retrieved nothing; trec_eval writes rbp_resid only when
    # it met an unjudged document, so it prints 0 where the residual is 1
    arr = _trec.build_arrays(_trec.read_qrels(DATA / "qrels.test"),
                             _trec.read_run(DATA / "results.trunc")[0],
                             complete=True)
    judged = arr.rel >= 0
    got = rank_biased_precision_residual(arr.y_bin, arr.y_score, groups=arr.groups,
                                         p=0.9, judged=judged, average=None)
    printed = _trec_values("out.test.aqc", "rbp_resid")
    assert list(arr.qids) == ["301", "302", "303"]
    assert arr.num_ret[1] == 0
    assert got[1] == 1.0 and printed["302"] == 0.0
    for i in (0, 2):
        assert round(got[i], 4) == printed[arr.qids[i]]
    assert_allclose(np.where(arr.num_ret == 0, 0.0, got),
                    _trec._rbp_resid(arr, [None], None)[0], rtol=1e-12)


def test_name_in_report_and_frame_but_not_a_scorer():
    y, s, g, _ = _small(0)
    expected = rank_biased_precision_residual(y, s, groups=g)
    report = ranking_report(y, s, groups=g, metrics=["rbp", "rbp_residual"],
                            output_dict=True)
    assert report["rbp_residual"] == pytest.approx(expected, rel=1e-12)
    frame = per_group_scores(y, s, groups=g, metrics=["rbp_residual"],
                             output="dict")
    assert_allclose(np.asarray(frame["rbp_residual"], dtype=float),
                    rank_biased_precision_residual(y, s, groups=g, average=None),
                    rtol=1e-12, equal_nan=True)
    assert "rbp" in get_scorer_names()
    assert "rbp_residual" not in get_scorer_names()
    with pytest.raises(ValueError, match="not a scorer"):
        get_scorer("rbp_residual")


def test_judged_checks():
    with pytest.raises(ValueError, match="judged must have the shape"):
        rank_biased_precision_score([1, 0], [2, 1], judged=[True])
    with pytest.raises(TypeError, match="booleans"):
        rank_biased_precision_residual([1, 0], [2, 1], judged=[1, 0])
