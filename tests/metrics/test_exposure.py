"""Expected exposure (Diaz et al. 2020) against a reference written with
loops from the definition (:func:`tests._reference.expected_exposure_loop`):
every order of tied items enumerated, the target of an ideal policy
enumerated, and the normalisation's bounds found over every deterministic
ranking of a query's items."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

import sklearn_rankeval as rk
from sklearn_rankeval import expected_exposure_score, per_group_scores, ranking_report
from sklearn_rankeval._engine import _dispatch

from .._reference import expected_exposure_loop

MEASURES = ("loss", "disparity", "relevance")


def _deterministic(seed, n_groups=4):
    """Groups of 1-5 items, grades 0-2, scores with ties and a -inf."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 6, n_groups)
    g = np.repeat(np.arange(n_groups), sizes)
    n = g.shape[0]
    y = rng.integers(0, 3, n)
    s = rng.integers(0, 3, n).astype(float)
    s[rng.random(n) < 0.1] = -np.inf
    perm = rng.permutation(n)
    return y[perm], s[perm], g[perm]


def _sampled(seed, n_groups=3, n_samples=3):
    """A stochastic policy: each group's items in ``n_samples`` rankings,
    scores with ties; rows shuffled."""
    rng = np.random.default_rng(seed)
    rows = []
    for q in range(n_groups):
        n_items = rng.integers(2, 5)
        grades = rng.integers(0, 3, n_items)
        for s in range(rng.integers(1, n_samples + 1)):
            score = rng.integers(0, 3, n_items).astype(float)
            for i in range(n_items):
                rows.append((f"q{q}", s, f"d{i}", grades[i], score[i]))
    rows = [rows[i] for i in rng.permutation(len(rows))]
    q, smp, item, y, s = (np.array(c) for c in zip(*rows))
    return y.astype(int), s.astype(float), q, smp, item


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("user_model", ["rbp", "gerr", "log"])
def test_one_ranking_per_query_is_the_definitions(seed, measure, user_model):
    y, s, g = _deterministic(seed)
    expected = expected_exposure_loop(y, s, g, measure=measure,
                                      user_model=user_model, p=0.6, u=0.3)
    got = expected_exposure_score(y, s, groups=g, measure=measure,
                                  user_model=user_model, p=0.6, u=0.3,
                                  average=None)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("user_model", ["rbp", "gerr", "log"])
def test_sampled_rankings_are_the_definitions(seed, measure, user_model):
    y, s, q, smp, item = _sampled(seed)
    expected = expected_exposure_loop(y, s, q, samples=smp, items=item,
                                      measure=measure, user_model=user_model,
                                      p=0.7, u=0.5)
    got = expected_exposure_score(y, s, groups=q, samples=smp, items=item,
                                  measure=measure, user_model=user_model, p=0.7,
                                  u=0.5, average=None)
    assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("measure", MEASURES)
def test_item_groups_are_the_definitions(seed, measure):
    y, s, q, smp, item = _sampled(seed)
    rng = np.random.default_rng(seed)
    # the group of an item is a property of the item (one per dimension)
    provider = {it: rng.choice(["x", "y"]) for it in set(item)}
    region = {it: rng.choice([1, 2, 3]) for it in set(item)}
    one = np.array([provider[it] for it in item])
    two = np.stack([one, [str(region[it]) for it in item]], axis=1)
    for groups_of_items in (one, two):
        expected = expected_exposure_loop(y, s, q, samples=smp, items=item,
                                          item_groups=groups_of_items,
                                          measure=measure)
        got = expected_exposure_score(y, s, groups=q, samples=smp, items=item,
                                      item_groups=groups_of_items,
                                      measure=measure, average=None)
        assert_allclose(got, expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("user_model", ["rbp", "log"])
def test_normalized_bounds_are_exact(seed, measure, user_model):
    """The bounds over every policy: the reference searches every
    deterministic ranking (and the uniform policy), the code uses the
    closed forms; the values lie in [0, 1]."""
    y, s, q, smp, item = _sampled(seed)
    keep = np.isfinite(s)
    expected = expected_exposure_loop(y, s, q, samples=smp, items=item,
                                      measure=measure, normalize=True, p=0.6,
                                      user_model=user_model)
    got = expected_exposure_score(y[keep], s[keep], groups=q[keep],
                                  samples=smp[keep], items=item[keep],
                                  measure=measure, normalize=True, p=0.6,
                                  user_model=user_model,
                                  average=None, undefined="skip")
    assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    finite = got[np.isfinite(got)]
    assert np.all((finite > -1e-12) & (finite < 1 + 1e-12))


def test_ties_and_row_order_never_change_the_value():
    y, s, q, smp, item = _sampled(7)
    base = expected_exposure_score(y, s, groups=q, samples=smp, items=item,
                                   user_model="gerr", average=None)
    perm = np.random.default_rng(0).permutation(len(y))
    again = expected_exposure_score(y[perm], s[perm], groups=q[perm],
                                    samples=smp[perm], items=item[perm],
                                    user_model="gerr", average=None)
    assert_allclose(again, base, rtol=1e-13)


def test_a_policy_that_meets_the_target_has_no_loss():
    # two relevant items shown first in either order, equally often: e = e*
    y = [1, 1, 0, 1, 1, 0]
    s = [3, 2, 1, 3, 2, 1]
    smp = [0, 0, 0, 1, 1, 1]
    item = ["a", "b", "c", "b", "a", "c"]
    for model in ("rbp", "gerr"):
        assert expected_exposure_score(y, s, groups=[0] * 6, samples=smp,
                                       items=item, user_model=model) == \
            pytest.approx(0.0, abs=1e-15)


@pytest.mark.parametrize("path", ["compiled", "generic"])
@pytest.mark.parametrize("rows", [None, 7])
def test_every_engine_path_and_chunking_agree(path, rows):
    y, s, q, smp, item = _sampled(3, n_groups=12)
    expected = expected_exposure_loop(y, s, q, samples=smp, items=item)
    old, _dispatch.ENGINE_PATH = _dispatch.ENGINE_PATH, path
    try:
        with rk.config_context(working_memory=(rows or 10**6) * 64 / 2**20):
            got = expected_exposure_score(y, s, groups=q, samples=smp, items=item,
                                          average=None)
    finally:
        _dispatch.ENGINE_PATH = old
    assert_allclose(got, expected, rtol=1e-12)


def test_report_and_per_group_frame_give_the_function_value():
    y, s, g = _deterministic(2)
    value = expected_exposure_score(y, s, groups=g, measure="relevance")
    report = ranking_report(y, s, groups=g, metrics=["expected_exposure"],
                            output="dict")
    assert report["expected_exposure"] == pytest.approx(
        expected_exposure_score(y, s, groups=g), rel=1e-13)
    frame = per_group_scores(y, s, groups=g, metrics=["expected_exposure"])
    assert_allclose(frame["expected_exposure"].to_numpy(),
                    expected_exposure_loop(y, s, g), rtol=1e-12)
    assert value == pytest.approx(np.mean(expected_exposure_loop(
        y, s, g, measure="relevance")), rel=1e-12)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"samples": [0, 0, 1, 1]}, ValueError, "items is needed with samples="),
    ({"samples": [0, 0, 1]}, ValueError, "samples must have one id per row"),
    ({"items": [0, 1]}, ValueError, "items must have one id per row"),
    ({"item_groups": np.zeros((4, 2, 2))}, ValueError, "item_groups must be 1-D"),
    ({"normalize": True, "user_model": "gerr"}, ValueError,
     "normalize is available with user_model='rbp' or 'log' only"),
    ({"normalize": True, "item_groups": [0, 1, 0, 1]}, ValueError,
     "normalize is not available with item_groups"),
    ({"normalize": "yes"}, TypeError, "normalize must be True or False"),
    ({"measure": "gain"}, ValueError, "measure must be one of"),
    ({"u": 1.5}, ValueError, "u must be a number in"),
    ({"p": 1.0}, ValueError, "p must be a number in"),
])
def test_bad_input_names_the_argument(kwargs, error, match):
    with pytest.raises(error, match=match):
        expected_exposure_score([1, 0, 1, 0], [3, 2, 1, 0], groups=[0, 0, 0, 0],
                                **kwargs)


def test_an_item_with_two_grades_is_refused():
    with pytest.raises(ValueError, match="one grade"):
        expected_exposure_score([1, 0, 0, 0], [2, 1, 2, 1], groups=[0] * 4,
                                samples=[0, 0, 1, 1], items=["a", "b", "a", "b"])


def test_normalize_needs_complete_rankings():
    with pytest.raises(ValueError, match="rank every item"):
        expected_exposure_score([1, 0, 1, 0, 0], [2, 1, 2, 1, 0], groups=[0] * 5,
                                samples=[0, 0, 1, 1, 1],
                                items=["a", "b", "a", "b", "c"], normalize=True)


def test_multiclass_scores_are_refused():
    with pytest.raises(ValueError, match="one row per item"):
        expected_exposure_score([0, 1, 2], np.eye(3))


@pytest.mark.parametrize("user_model", ["rbp", "gerr", "log"])
def test_plackett_luce_exact_kernel_against_every_ranking(user_model):
    """The sets' recursion against the enumeration of every ranking, item by
    item, on queries of 1-6 items with ties and scores far apart."""
    from sklearn_rankeval._metrics._exposure_kernels import plackett_luce_exact

    from .._reference import plackett_luce_exposure_loop

    rng = np.random.default_rng(7)
    for m in range(1, 7):
        s = np.round(rng.normal(0, 2, size=(5, m)), 1)
        s[0] = 0.0  # all tied
        if m > 2:
            s[1, 0] = 900.0  # exp() of the others underflows beside it
        rel = rng.integers(0, 2, size=(5, m))
        got = plackett_luce_exact(s, rel > 0, user_model, 0.7, 0.4)
        for q in range(5):
            expected = plackett_luce_exposure_loop(
                rel[q].tolist(), s[q].tolist(), p=0.7, u=0.4,
                user_model=user_model, items=True)
            assert_allclose(got[q], expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("measure", MEASURES)
def test_plackett_luce_policy_is_exact_for_small_queries(measure):
    """Queries of at most PL_EXACT_ITEMS ranked items: the exact expectation
    (any random_state, no draws), -inf rows not ranked; a query of 12
    items beside them is drawn."""
    from .._reference import plackett_luce_exposure_loop

    rng = np.random.default_rng(3)
    sizes = [1, 3, 6, 5, 12]
    g = np.repeat(np.arange(len(sizes)), sizes)
    y = rng.integers(0, 3, size=g.shape[0])
    s = rng.normal(size=g.shape[0])
    s[4] = -np.inf  # a row of the 6-item query not ranked
    got = [expected_exposure_score(y, s, groups=g, measure=measure,
                                   policy="plackett_luce", n_samples=50,
                                   random_state=seed, average=None)
           for seed in (0, 1)]
    for q in range(4):
        rows = g == q
        yq, sq = y[rows].tolist(), s[rows].tolist()
        if -np.inf in sq:  # its exposure is 0; the target still counts it
            ranked = [i for i in range(len(sq)) if sq[i] > -np.inf]
            e = plackett_luce_exposure_loop(yq, sq, items=True)
            assert [e[i] for i in range(len(sq)) if i not in ranked] == [0.0]
        expected = plackett_luce_exposure_loop(yq, sq, measure=measure)
        if q == 0 and measure != "disparity":
            continue  # one item: loss and relevance are undefined
        assert got[0][q] == pytest.approx(expected, rel=1e-12, abs=1e-15)
        assert got[1][q] == got[0][q]
    assert got[0][4] != got[1][4]  # drawn: the draws differ


@pytest.mark.parametrize("measure", MEASURES)
def test_plackett_luce_policy_estimates_the_exact_expectation(measure, monkeypatch):
    """Monte Carlo (forced on a query of 5 items) against the exact
    expectation over every ranking: within 4 standard errors of its draws."""
    from sklearn_rankeval._metrics import _exposure

    from .._reference import plackett_luce_exposure_loop

    monkeypatch.setattr(_exposure, "PL_EXACT_ITEMS", 0)

    y = np.array([2, 1, 1, 0, 0])
    s = np.array([1.0, 0.5, 0.5, 0.0, -1.0])
    exact = plackett_luce_exposure_loop(y.tolist(), s.tolist(), measure=measure)
    draws = [expected_exposure_score(y, s, groups=np.zeros(5), measure=measure,
                                     policy="plackett_luce", n_samples=400,
                                     random_state=seed) for seed in range(20)]
    mean, se = np.mean(draws), np.std(draws, ddof=1) / np.sqrt(len(draws))
    assert abs(mean - exact) < 4 * se + 1e-12
    # one draw with many samples is close, and reproducible
    one = expected_exposure_score(y, s, groups=np.zeros(5), measure=measure,
                                  policy="plackett_luce", n_samples=20000,
                                  random_state=0)
    assert one == pytest.approx(exact, abs=5e-3)
    assert one == expected_exposure_score(y, s, groups=np.zeros(5),
                                          measure=measure, n_samples=20000,
                                          policy="plackett_luce", random_state=0)


@pytest.mark.parametrize("kwargs, match", [
    ({"policy": "softmax"}, "policy must be one of"),
    ({"policy": "plackett_luce", "n_samples": 0}, "n_samples must be"),
    ({"policy": "plackett_luce", "samples": [0, 0, 0, 0],
      "items": [0, 1, 2, 3]}, "policy draws the sampled rankings itself"),
])
def test_policy_refusals(kwargs, match):
    with pytest.raises(ValueError, match=match):
        expected_exposure_score([1, 0, 1, 0], [3, 2, 1, 0], groups=[0] * 4,
                                **kwargs)


@pytest.mark.parametrize("seed", range(3))
def test_exposure_frame_holds_the_items_the_measures_sum(seed):
    from sklearn_rankeval import exposure_frame

    y, s, q, smp, item = _sampled(seed)
    frame = exposure_frame(y, s, groups=q, samples=smp, items=item,
                           user_model="gerr", p=0.7)
    # one row per (query, item), each item once
    assert len(frame) == len({(a, b) for a, b in zip(q, item)})
    assert not frame.duplicated(["group", "item"]).any()
    for measure in MEASURES:
        expected = expected_exposure_loop(y, s, q, samples=smp, items=item,
                                          measure=measure, user_model="gerr",
                                          p=0.7)
        e, t = frame["exposure"], frame["target"]
        col = {"loss": (e - t) ** 2, "disparity": e * e, "relevance": e * t}[measure]
        got = col.groupby(frame["group"]).sum()
        assert_allclose(got.to_numpy(), expected, rtol=1e-12, atol=1e-14)
    # the grades are the items' own
    grade = {(a, b): g for a, b, g in zip(q, item, y)}
    assert all(grade[(a, b)] == g for a, b, g in
               zip(frame["group"], frame["item"], frame["grade"]))


def test_exposure_frame_by_item_group_sums_the_items():
    from sklearn_rankeval import exposure_frame

    y, s, q, smp, item = _sampled(5)
    rng = np.random.default_rng(5)
    provider = {it: rng.choice(["x", "y"]) for it in set(item)}
    cat = np.array([provider[it] for it in item])
    by_item = exposure_frame(y, s, groups=q, samples=smp, items=item,
                             item_groups=cat)
    by_group = exposure_frame(y, s, groups=q, samples=smp, items=item,
                              item_groups=cat, by="item_group")
    # the group exposure the metric compares: its loss per query
    e, t = by_group["exposure"], by_group["target"]
    loss = ((e - t) ** 2).groupby(by_group["group"]).sum()
    assert_allclose(loss.to_numpy(), expected_exposure_loop(
        y, s, q, samples=smp, items=item, item_groups=cat), rtol=1e-12,
        atol=1e-14)
    relevant = by_item[by_item["grade"] > 0]
    sums = relevant.groupby(["group", "item_group"])[["exposure", "target"]].sum()
    merged = by_group.merge(sums.add_suffix("_r"), how="left",
                            left_on=["group", "item_group"], right_index=True)
    assert_allclose(merged["exposure"], merged["exposure_r"].fillna(0.0),
                    rtol=1e-13)
    # a hand-worked ranking: ranks 0, 1, 2 of p = 0.5 are 1, 0.5, 0.25
    one = exposure_frame([1, 1, 0], [1, 3, 2], groups=[0, 0, 0],
                         items=["a", "b", "c"], p=0.5)
    assert dict(zip(one["item"], one["exposure"])) == {"a": 0.25, "b": 1.0,
                                                       "c": 0.5}
    with pytest.raises(ValueError, match="item_groups is needed"):
        exposure_frame([1, 0], [1, 0], by="item_group")


def test_an_item_twice_in_one_ranking_is_refused():
    # (it would get more exposure than any rank gives)
    with pytest.raises(ValueError, match="items must show an item at most once"):
        expected_exposure_score([1, 1, 0], [3, 2, 1], groups=[0] * 3,
                                items=["a", "a", "b"])
    with pytest.raises(ValueError, match="items must show an item at most once"):
        expected_exposure_score([1, 1, 0, 1, 0, 1], [3, 2, 1, 3, 2, 1],
                                groups=[0] * 6, samples=[0, 0, 0, 1, 1, 1],
                                items=list("aabab" + "c"), normalize=True)


def test_an_item_in_two_item_groups_is_refused():
    with pytest.raises(ValueError, match="item_groups must give an item one group"):
        expected_exposure_score([1, 0, 1, 0], [2, 1, 2, 1], groups=[0] * 4,
                                samples=[0, 0, 1, 1], items=list("abab"),
                                item_groups=list("xyyy"))


def test_large_tie_blocks_take_the_integral_form(monkeypatch):
    """The gerr tie factor of a large block (its integral form, O(1)
    memory) against the enumeration of every order of the tied items."""
    from sklearn_rankeval._metrics import _exposure_kernels

    monkeypatch.setattr(_exposure_kernels, "TIE_SUM_CELLS", 0)
    for seed in range(3):
        y, s, g = _deterministic(seed)
        expected = expected_exposure_loop(y, s, g, user_model="gerr", p=0.6, u=0.3)
        got = expected_exposure_score(y, s, groups=g, user_model="gerr", p=0.6,
                                      u=0.3, average=None)
        assert_allclose(got, expected, rtol=1e-11)


def test_plackett_luce_draws_in_batches_of_bounded_memory(monkeypatch):
    """Batches of draws read the same stream of Gumbel noise as one draw of
    all of them: the same value, bit for bit."""
    from sklearn_rankeval._metrics import _exposure

    y, s, g = _deterministic(1)
    s = np.where(np.isfinite(s), s, -np.inf)
    monkeypatch.setattr(_exposure, "PL_EXACT_ITEMS", 0)
    whole = expected_exposure_score(y, s, groups=g, policy="plackett_luce",
                                    n_samples=50, random_state=3,
                                    user_model="gerr", average=None)
    monkeypatch.setattr(_exposure, "PL_BATCH_ROWS", 7)
    batched = expected_exposure_score(y, s, groups=g, policy="plackett_luce",
                                      n_samples=50, random_state=3,
                                      user_model="gerr", average=None)
    assert_allclose(batched, whole, rtol=1e-13)


def test_report_and_frame_read_the_exposure_columns():
    y, s, q, smp, item = _sampled(2)
    rng = np.random.default_rng(2)
    provider = {it: rng.choice(["x", "y"]) for it in set(item)}
    cat = np.array([provider[it] for it in item])
    kw = dict(groups=q, samples=smp, items=item, item_groups=cat)
    report = ranking_report(y, s, metrics=["expected_exposure", "awrf"],
                            output="dict", **kw)
    assert report["expected_exposure"] == pytest.approx(np.mean(
        expected_exposure_loop(y, s, q, samples=smp, items=item,
                               item_groups=cat)), rel=1e-12)
    from sklearn_rankeval import awrf_score
    assert report["awrf"] == pytest.approx(
        awrf_score(y, s, **kw), rel=1e-12)
    frame = per_group_scores(y, s, metrics=["expected_exposure"], **kw)
    assert_allclose(frame["expected_exposure"].to_numpy(),
                    expected_exposure_loop(y, s, q, samples=smp, items=item,
                                           item_groups=cat), rtol=1e-12)
    # 2-D item groups in a report: their intersections, as awrf_score reads them
    item_of = {it: i for i, it in enumerate(sorted(set(item)))}
    two = np.stack([cat, np.array(["a", "b"])[[item_of[it] % 2 for it in item]]],
                   axis=1)
    got = ranking_report(y, s, metrics=["awrf"], output="dict", groups=q,
                         samples=smp, items=item, item_groups=two)["awrf"]
    assert got == pytest.approx(awrf_score(y, s, groups=q, samples=smp,
                                           items=item, item_groups=two), rel=1e-12)


@pytest.mark.parametrize("scale", [1, 1 << 40])
def test_pair_order_is_lexsort(scale):
    """The rows by (major, minor) with ties in row order, on both sides of
    the int64 key's overflow guard."""
    from sklearn_rankeval._metrics._exposure_kernels import _pair_order

    rng = np.random.default_rng(0)
    major = rng.integers(0, 30, 2000) * scale
    minor = rng.integers(0, 40, 2000) * scale
    assert np.array_equal(_pair_order(major, minor), np.lexsort((minor, major)))
    assert _pair_order(major[:0], minor[:0]).shape == (0,)
