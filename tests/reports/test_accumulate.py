"""RankingAccumulator: the one-shot report and frame, however rows are cut."""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_rankeval import RankingAccumulator, per_group_scores, ranking_report
from sklearn_rankeval._metrics._registry import METRICS
from tests._logs import convention_metrics, function_values

# the metrics of relevance labels and scores (the CTR metrics: test_ctr.py)
NAMES = [f"{s.name}@3" if s.has_k else s.name for s in METRICS.values()
         if s.scores == "order"]
# query-weighted metrics need weights constant within a group
ITEM_NAMES = [n for n in NAMES if METRICS[n.split("@")[0]].weights == "item"]


def _data(seed, n_groups=12, weights="none", string_ids=False):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 7, n_groups)
    ids = rng.choice(500, n_groups, replace=False)
    g = np.repeat(ids, sizes)
    n = g.shape[0]
    y = rng.integers(0, 3, n) * (rng.random(n) < 0.6)
    s = rng.integers(0, 4, n) / 4.0
    s[rng.random(n) < 0.1] = -np.inf
    if weights == "query":
        w = (np.repeat(rng.random(n_groups), sizes) + 0.5)
    elif weights == "item":
        w = rng.random(n) + 0.1
    else:
        w = None
    if string_ids:
        g = np.array([f"u{i:03d}" for i in g], dtype=object)
    return y, s, g, w


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _close_reports(got, expected):
    assert list(got) == list(expected)
    for name in expected:
        assert got[name] == pytest.approx(expected[name], rel=1e-12, abs=1e-15,
                                          nan_ok=True), name


def _close_frames(got, expected):
    assert list(got) == list(expected)
    assert_array_equal(got["group"], expected["group"])
    for name in list(expected)[1:]:
        assert_allclose(got[name], expected[name], rtol=1e-12, atol=1e-15,
                        equal_nan=True, err_msg=name)


def _cuts(n, draw):
    """Random cut points 0 < c1 < ... < n (batches of 1 to n rows)."""
    k = draw(st.integers(0, min(n - 1, 8)))
    return sorted(set(draw(st.lists(st.integers(1, n - 1), min_size=k, max_size=k))))


def _split_by_group(order_ids, draw):
    """Cut points that fall only between groups (for 'complete')."""
    boundaries = np.flatnonzero(order_ids[1:] != order_ids[:-1]) + 1
    if not len(boundaries):
        return []
    chosen = draw(st.lists(st.sampled_from(boundaries.tolist()), max_size=6))
    return sorted(set(chosen))


def _merge_tree(accs, draw):
    """Merge a list of accumulators in a random tree; returns the root."""
    accs = list(accs)
    while len(accs) > 1:
        i = draw(st.integers(0, len(accs) - 2))
        left, right = accs[i], accs.pop(i + 1)
        if draw(st.booleans()):  # through a pickle round trip, mid-stream
            right = pickle.loads(pickle.dumps(right))
        accs[i] = left.merge(right)
    return accs[0]


@given(data=st.data(), seed=st.integers(0, 10_000),
       mode=st.sampled_from(["complete", "sorted", "any"]),
       weights=st.sampled_from(["none", "query", "item"]),
       string_ids=st.booleans())
def test_accumulator_equals_one_shot(data, seed, mode, weights, string_ids):
    y, s, g, w = _data(seed, weights=weights, string_ids=string_ids)
    names = ITEM_NAMES if weights == "item" else NAMES
    if mode == "any":
        order = np.random.default_rng(seed).permutation(len(g))
    else:  # rows ordered by group ('complete' needs whole groups per batch)
        order = np.argsort(g, kind="stable")
    y, s, g = y[order], s[order], g[order]
    w = None if w is None else w[order]
    cuts = (_split_by_group(g, data.draw) if mode == "complete"
            else _cuts(len(g), data.draw))
    bounds = [0, *cuts, len(g)]
    pieces = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        acc = RankingAccumulator(names, group_rows=mode)
        _quiet(acc.update, y[lo:hi], s[lo:hi], groups=g[lo:hi],
               sample_weight=None if w is None else w[lo:hi])
        pieces.append(acc)
    if data.draw(st.booleans()):  # one accumulator fed batch after batch
        acc = RankingAccumulator(names, group_rows=mode)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            _quiet(acc.update, y[lo:hi], s[lo:hi], groups=g[lo:hi],
                   sample_weight=None if w is None else w[lo:hi])
            if data.draw(st.booleans()):
                acc = pickle.loads(pickle.dumps(acc))
    else:  # batches on "workers", merged in a random tree of neighbours
        acc = _merge_tree(pieces, data.draw)
    expected = _quiet(ranking_report, y, s, groups=g, metrics=names,
                      sample_weight=w, output="dict")
    _close_reports(_quiet(acc.result), expected)
    # the same batches, keeping only each metric's sums
    light = RankingAccumulator(names, group_rows=mode, keep_groups=False)
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        _quiet(light.update, y[lo:hi], s[lo:hi], groups=g[lo:hi],
               sample_weight=None if w is None else w[lo:hi])
    _close_reports(_quiet(pickle.loads(pickle.dumps(light)).result), expected)
    _close_frames(acc.per_group(output="dict"),
                  per_group_scores(y, s, groups=g, metrics=names, sample_weight=w,
                                   output="dict"))


def test_sorted_accumulators_merge_when_a_group_is_cut_between_them():
    y, s, g, _ = _data(5)
    order = np.argsort(g, kind="stable")
    y, s, g = y[order], s[order], g[order]
    cut = int(np.flatnonzero(g == g[len(g) // 2])[0]) + 1  # inside a group
    a = RankingAccumulator(["mrr", "ndcg"], group_rows="sorted")
    b = RankingAccumulator(["mrr", "ndcg"], group_rows="sorted")
    a.update(y[:cut], s[:cut], groups=g[:cut])
    b.update(y[cut:], s[cut:], groups=g[cut:])
    _close_reports(a.merge(b).result(),
                   ranking_report(y, s, groups=g, metrics=["mrr", "ndcg"],
                                  output="dict"))


def test_2d_and_multiclass_batches():
    rng = np.random.default_rng(6)
    Y = rng.integers(0, 3, (20, 5))
    S = rng.integers(0, 3, (20, 5)).astype(float)
    w = rng.random(20) + 0.5
    acc = RankingAccumulator(["map", "ndcg@3", "hit_rate@2"])
    for lo in range(0, 20, 6):
        acc.update(Y[lo:lo + 6], S[lo:lo + 6], sample_weight=w[lo:lo + 6])
    _close_reports(acc.result(), ranking_report(Y, S, sample_weight=w,
                                                metrics=["map", "ndcg@3",
                                                         "hit_rate@2"],
                                                output="dict"))
    frame = acc.per_group(output="dict")
    assert_array_equal(frame["group"], np.arange(20))
    labels = rng.integers(0, 4, 30)
    P = rng.random((30, 4))
    acc = RankingAccumulator(["mrr"])
    acc.update(labels[:11], P[:11], labels=np.arange(4)).update(
        labels[11:], P[11:], labels=np.arange(4))
    assert acc.result()["mrr"] == pytest.approx(
        METRICS["mrr"].func(labels, P, labels=np.arange(4)), rel=1e-12)
    with pytest.raises(ValueError, match="y_score"):
        acc.update([1, 0], [0.5, 0.2], groups=[1, 1])


def test_complete_mode_names_the_repeated_id_and_stays_unchanged():
    acc = RankingAccumulator(["mrr"])
    acc.update([1, 0, 1], [0.5, 0.2, 0.1], groups=["a", "a", "b"])
    before = pickle.dumps(acc)
    with pytest.raises(ValueError, match="'b'"):
        acc.update([0, 1], [0.3, 0.1], groups=["c", "b"])
    assert pickle.dumps(acc) == before
    assert acc.result() == {"mrr": 1.0}


def test_sorted_mode_raises_when_an_id_goes_backwards():
    acc = RankingAccumulator(["mrr"], group_rows="sorted")
    acc.update([1, 0, 1], [0.5, 0.2, 0.1], groups=[1, 2, 3])
    before = pickle.dumps(acc)
    with pytest.raises(ValueError, match="ordered by group id"):
        acc.update([0, 1], [0.3, 0.1], groups=[3, 2])
    assert pickle.dumps(acc) == before
    acc.update([0, 1], [0.3, 0.1], groups=[3, 4])  # 3 continues: fine
    assert acc.result()["mrr"] == pytest.approx(
        METRICS["mrr"].func([1, 0, 1, 0, 1], [0.5, 0.2, 0.1, 0.3, 0.1],
                            groups=[1, 2, 3, 3, 4]), rel=1e-12)


def test_bad_input_leaves_the_accumulator_unchanged():
    acc = RankingAccumulator(["gauc", "mrr"], group_rows="sorted")
    acc.update([1, 0, 1, 0], [0.5, 0.2, 0.1, 0.3], groups=[1, 1, 2, 2])
    before = pickle.dumps(acc)
    bad_calls = [
        (dict(y_true=[1, 0], y_score=[np.nan, 0.1], groups=[3, 3]), "y_score"),
        # (-1/1 labels are read as 0/1 at every door; a grade of -1 beside 2 is no label)
        (dict(y_true=[2, -1], y_score=[0.2, 0.1], groups=[3, 3]), "y_true"),
        (dict(y_true=[1, 0], y_score=[0.2, 0.1], groups=[3]), "groups"),
        (dict(y_true=[1, 0], y_score=[0.2, 0.1], groups=None), "groups"),
        (dict(y_true=[1, 0], y_score=[0.2, 0.1], groups=[3, 3],
              sample_weight=[1, -1]), "sample_weight"),
        (dict(y_true=[1, 0], y_score=[0.2, 0.1], groups=[3, None]), "groups"),
    ]
    for kwargs, word in bad_calls:
        y_true, y_score = kwargs.pop("y_true"), kwargs.pop("y_score")
        with pytest.raises((ValueError, TypeError), match=word):
            acc.update(y_true, y_score, **kwargs)
        assert pickle.dumps(acc) == before
    with pytest.raises(ValueError, match="group_rows"):
        RankingAccumulator(group_rows="random")
    with pytest.raises(ValueError, match="metrics"):
        RankingAccumulator(["nope"])
    with pytest.raises(TypeError, match="other"):
        acc.merge("x")
    with pytest.raises(ValueError, match="other"):
        acc.merge(RankingAccumulator(["gauc"], group_rows="sorted"))
    with pytest.raises(ValueError, match="no rows"):
        RankingAccumulator().result()


def test_inputs_are_not_modified():
    y, s, g, w = _data(8, weights="item")
    order = np.argsort(g, kind="stable")
    # the arrays the accumulator receives (sorted once, not copied per call)
    y, s, g, w = (a[order] for a in (y, s, g, w))
    copies = [a.copy() for a in (y, s, g, w)]
    for a in (y, s, g, w):
        a.setflags(write=False)
    for mode in ("complete", "sorted", "any"):
        acc = RankingAccumulator(["gauc", "map"], group_rows=mode)
        acc.update(y, s, groups=g, sample_weight=w)
        acc.update(y[:0], s[:0], groups=g[:0], sample_weight=w[:0])
        acc.result()
    for a, c in zip((y, s, g, w), copies):
        assert_array_equal(a, c)


def test_state_is_per_group_in_sorted_mode():
    # the rows held between updates are those of the open group only
    acc = RankingAccumulator(["mrr"], group_rows="sorted")
    g = np.repeat(np.arange(1000), 5)
    rng = np.random.default_rng(0)
    y, s = rng.integers(0, 2, len(g)), rng.random(len(g))
    for lo in range(0, len(g), 333):
        acc.update(y[lo:lo + 333], s[lo:lo + 333], groups=g[lo:lo + 333])
        assert sum(r["y_score"].shape[0] for r in acc._ends) <= 10


# ---------------------------------------------------------------------------
# convention=, and the public per-group state
# ---------------------------------------------------------------------------
def _batches(g, mode, rng):
    """Batch bounds: between groups for 'complete', anywhere otherwise."""
    if mode == "complete":
        cuts = np.flatnonzero(g[1:] != g[:-1]) + 1
        cuts = np.sort(rng.choice(cuts, min(4, len(cuts)), replace=False))
    else:
        cuts = np.sort(rng.choice(np.arange(1, len(g)), 5, replace=False))
    return [0, *cuts.tolist(), len(g)]


def _fed(names, mode, convention, y, s, g, w, bounds, **kwargs):
    """Two accumulators fed the first and the second half of the batches, merged."""
    half = len(bounds) // 2
    accs = []
    for part in (bounds[:half + 1], bounds[half:]):
        acc = RankingAccumulator(names, group_rows=mode, convention=convention,
                                 **kwargs)
        for lo, hi in zip(part[:-1], part[1:]):
            _quiet(acc.update, y[lo:hi], s[lo:hi], groups=g[lo:hi],
                   sample_weight=None if w is None else w[lo:hi])
        accs.append(pickle.loads(pickle.dumps(acc)))
    return accs[0].merge(accs[1])


@pytest.mark.parametrize("convention", ["lightgbm", "xgboost", "ranx",
                                        "torchmetrics", "sklearn", "recbole",
                                        "spark"])
@pytest.mark.parametrize("mode", ["complete", "sorted", "any"])
def test_convention_equals_one_call(convention, mode):
    y, s, g, w = _data(40, n_groups=25, weights="query")
    rng = np.random.default_rng(41)
    order = (rng.permutation(len(g)) if mode == "any"
             else np.argsort(g, kind="stable"))
    y, s, g, w = y[order], s[order], g[order], w[order]
    names = convention_metrics(convention, y, s, g, w)
    assert names
    bounds = _batches(g, mode, rng)
    acc = _fed(names, mode, convention, y, s, g, w, bounds)
    expected = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                      metrics=names, output="dict", convention=convention)
    _close_reports(_quiet(acc.result), expected)
    frame = acc.per_group(output="dict")
    _close_frames(frame, per_group_scores(y, s, groups=g, sample_weight=w,
                                          metrics=names, output="dict",
                                          convention=convention))
    for name in names:  # the metric functions' per-group values
        assert_allclose(frame[name], function_values(name, y, s, g, w, convention),
                        rtol=1e-12, atol=1e-15, equal_nan=True, err_msg=name)
    light = _fed(names, mode, convention, y, s, g, w, bounds, keep_groups=False)
    _close_reports(_quiet(light.result), expected)
    # the convention changes something: not the default report
    assert _quiet(acc.result) != _quiet(ranking_report, y, s, groups=g,
                                        sample_weight=w, metrics=names,
                                        output="dict")


def test_convention_errors_of_the_accumulator():
    with pytest.raises(ValueError, match="convention must be one of"):
        RankingAccumulator(["mrr"], convention="lgbm")
    with pytest.raises(ValueError, match=r"convention='lightgbm'.*'mrr'"):
        RankingAccumulator(["mrr"], convention="lightgbm")
    # trec_eval breaks ties by docno, which an accumulator is not given
    with pytest.raises(ValueError, match=r"convention='trec_eval'.*docno"):
        RankingAccumulator(["map"], convention="trec_eval")
    # a rule no switch expresses on this data: the metric function's error
    y, s, g = [0, 0, 1, 0], [0.5, 0.2, 0.9, 0.1], [1, 1, 2, 2]
    w = [2.0, 2.0, 1.0, 1.0]  # query 1 has no relevant item and weight 2
    with pytest.raises(ValueError, match="LightGBM adds 1") as expected:
        METRICS["ndcg"].func(y, s, groups=g, sample_weight=w, convention="lightgbm")
    acc = RankingAccumulator(["ndcg"], convention="lightgbm")
    with pytest.raises(ValueError, match="LightGBM adds 1") as got:
        acc.update(y, s, groups=g, sample_weight=w)
    assert str(got.value) == str(expected.value)
    assert acc.n_rows_ == 0
    # merging needs the same convention
    a = RankingAccumulator(["ndcg"], convention="lightgbm").update(y, s, groups=g)
    b = RankingAccumulator(["ndcg"]).update([1, 0], [0.1, 0.2], groups=[3, 3])
    with pytest.raises(ValueError, match="convention"):
        a.merge(b)


@pytest.mark.parametrize("convention", [None, "torchmetrics", "recbole"])
def test_partials_pickle_round_trip_and_merge_equal_one_call(convention):
    y, s, g, w = _data(50, n_groups=20, weights="query")
    names = (convention_metrics(convention, y, s, g, w) if convention
             else NAMES)
    users = np.unique(g)
    first = np.isin(g, users[::2])  # disjoint sets of whole groups
    states = []
    for mask, mode in ((first, "complete"), (~first, "sorted")):
        acc = RankingAccumulator(names, group_rows=mode, convention=convention)
        # 'complete': one batch; 'sorted': batches that cut groups
        order = np.argsort(g[mask], kind="stable")
        for rows in np.array_split(order, 1 if mode == "complete" else 3):
            _quiet(acc.update, y[mask][rows], s[mask][rows], groups=g[mask][rows],
                   sample_weight=w[mask][rows])
        state = acc.partials()
        assert state["metrics"] == names and state["convention"] == convention
        assert_array_equal(state["group"], np.unique(g[mask]))
        states.append(pickle.loads(pickle.dumps(state)))
    # the groups of a state may come back in any order (as from partitions)
    perm = np.random.default_rng(0).permutation(len(states[1]["group"]))
    shuffled = {**states[1], "group": states[1]["group"][perm],
                "info": {k: v[perm] for k, v in states[1]["info"].items()},
                "partials": {name: {k: v[..., perm] for k, v in p.items()}
                             for name, p in states[1]["partials"].items()}}
    merged = RankingAccumulator.from_partials(states[0]).merge(
        RankingAccumulator.from_partials(shuffled))
    expected = _quiet(ranking_report, y, s, groups=g, sample_weight=w,
                      metrics=names, output="dict", convention=convention)
    _close_reports(_quiet(merged.result), expected)
    _close_frames(merged.per_group(output="dict"),
                  per_group_scores(y, s, groups=g, sample_weight=w, metrics=names,
                                   output="dict", convention=convention))
    # and back again: the merged state is the one-call state
    again = RankingAccumulator.from_partials(merged.partials())
    _close_reports(_quiet(again.result), expected)
    assert again.n_rows_ == len(g)


def test_partials_errors():
    acc = RankingAccumulator(["mrr", "hit_rate@2"]).update(
        [1, 0, 0, 1], [0.9, 0.8, 0.7, 0.7], groups=["a", "a", "b", "b"])
    state = acc.partials()
    # the state is a copy: changing it leaves the accumulator as it was
    state["partials"]["mrr"]["value"][:] = 0
    assert acc.result()["mrr"] == 0.875
    with pytest.raises(ValueError, match="partials must be the dict"):
        RankingAccumulator.from_partials({"group": state["group"]})
    with pytest.raises(ValueError, match="partials must be the dict"):
        RankingAccumulator.from_partials([1, 2])
    short = {**state, "info": {**state["info"], "weight": np.ones(3)}}
    with pytest.raises(ValueError, match=r"partials: info\['weight'\]"):
        RankingAccumulator.from_partials(short)
    old = {**state, "partials": {**state["partials"],
                                 "hit_rate@2": {"value": np.ones(2),
                                                "defined": np.ones(2, bool)}}}
    with pytest.raises(ValueError, match="'hit_rate@2' are not of the form"):
        RankingAccumulator.from_partials(old)
    twice = RankingAccumulator.from_partials(state)
    with pytest.raises(ValueError, match="group 'a' was already seen"):
        twice.merge(RankingAccumulator.from_partials(state))
    doubled = {**state, "group": np.array(["a", "a"], dtype=object)}
    with pytest.raises(ValueError, match="group 'a' appears twice"):
        RankingAccumulator.from_partials(doubled)
    with pytest.raises(ValueError, match="keep_groups=False"):
        RankingAccumulator(["mrr"], keep_groups=False).update(
            [1, 0], [0.1, 0.2], groups=[1, 1]).partials()
    with pytest.raises(ValueError, match="seen no rows"):
        RankingAccumulator(["mrr"]).partials()


# -- batches without groups, pooled metrics (issue 31) -------------------------
def test_windowed_normalized_entropy_of_batches_without_groups():
    from tests import _reference as ref

    rng = np.random.default_rng(0)
    acc = RankingAccumulator(["ne", "pcoc", "log_loss"], window=2)
    seen = []
    for size in (50, 80, 30, 60):
        p = rng.uniform(0.02, 0.7, size)
        y = (rng.uniform(size=size) < p).astype(int)
        acc.update(y, p)  # a training loop's batch: no groups
        seen.append((y, p))
        last = seen[-2:]
        y_w, p_w = (np.concatenate(a) for a in zip(*last))
        y_all, p_all = (np.concatenate(a) for a in zip(*seen))
        for name in ("ne", "pcoc", "log_loss"):
            assert acc.result(scope="window")[name] == pytest.approx(
                ref.pooled_ctr(name, y_w, p_w), rel=1e-12)
            assert acc.result()[name] == pytest.approx(
                ref.pooled_ctr(name, y_all, p_all), rel=1e-12)
    frame = acc.per_group()
    assert frame.index.tolist() == [0, 50, 130, 160]  # each batch's first row


def test_batches_without_groups_of_ranking_metrics_say_what_to_do():
    acc = RankingAccumulator(["gauc", "ne"])
    acc.update([0, 1, 1], [0.2, 0.3, 0.9])
    with pytest.raises(ValueError, match=r"groups: without groups a batch is one "
                                         r"ranking.*batches of gauc; the pooled"):
        acc.update([1, 0], [0.4, 0.1])


# ---------------------------------------------------------------------------
# the exposure columns and grades per intent, batch by batch
# ---------------------------------------------------------------------------
def _sorted_by(frame, column):
    return frame.sort_values(column, kind="stable").reset_index(drop=True)


@pytest.mark.parametrize("group_rows", ["sorted", "any"])
def test_exposure_columns_across_batches_that_cut_a_query(group_rows):
    """A query's sampled rankings cut between batches are evaluated together
    (held until the query is complete): the in-memory functions' values."""
    from tests._logs import exposure_expected, make_exposure_log

    frame = make_exposure_log(seed=9)
    if group_rows == "sorted":
        frame = _sorted_by(frame, "query")
    names = ["expected_exposure", "awrf"]
    acc = RankingAccumulator(names, group_rows=group_rows)
    cuts = [0, 5, 13, 40, 41, len(frame)]
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        part = frame.iloc[lo:hi]
        acc.update(part["relevance"], part["score"], groups=part["query"],
                   samples=part["sample"], items=part["item"],
                   item_groups=part[["provider", "region"]])
    want = exposure_expected(frame, names, ("provider", "region"))
    got = acc.result()
    for name in names:
        assert got[name] == pytest.approx(want[name], abs=1e-12), name
    per = exposure_expected(frame, names, ("provider", "region"), per_group=True)
    assert_allclose(acc.per_group()["expected_exposure"].to_numpy(float),
                    per["expected_exposure"], rtol=0, atol=1e-12)


def test_exposure_columns_in_complete_batches_and_merge():
    from tests._logs import exposure_expected, make_exposure_log

    frame = make_exposure_log(seed=10)
    queries = np.unique(frame["query"])
    accs = []
    for part_queries in (queries[:4], queries[4:]):
        part = frame[frame["query"].isin(part_queries)]
        acc = RankingAccumulator(["expected_exposure"])
        acc.update(part["relevance"], part["score"], groups=part["query"],
                   samples=part["sample"], items=part["item"],
                   item_groups=part["provider"])
        accs.append(acc)
    got = accs[0].merge(accs[1]).result()["expected_exposure"]
    want = exposure_expected(frame, ["expected_exposure"])["expected_exposure"]
    assert got == pytest.approx(want, abs=1e-12)


def test_grades_per_intent_with_weights_across_batches():
    """2-D grades per intent and each query's intent weights, in sorted
    batches that cut queries: the diversity functions' values."""
    from tests._logs import DIVERSITY_METRICS, diversity_expected, make_intent_log

    frame, grades, scores, groups, weights = make_intent_log(seed=11)
    order = np.argsort(groups, kind="stable")
    log = (frame, grades[order], scores[order], groups[order], weights[order])
    names = list(DIVERSITY_METRICS)
    acc = RankingAccumulator(names, group_rows="sorted")
    cuts = [0, 3, 17, 18, 60, len(order)]
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        acc.update(log[1][lo:hi], log[2][lo:hi], groups=log[3][lo:hi],
                   intent_weights=log[4][lo:hi])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = acc.result()
    want = diversity_expected(log, names)
    for name in names:
        assert got[name] == pytest.approx(want[name], abs=1e-12), name


def test_a_column_given_with_some_batches_only_is_refused():
    acc = RankingAccumulator(["expected_exposure"], group_rows="sorted")
    acc.update([1, 0], [0.5, 0.2], groups=["a", "a"], samples=[0, 0],
               items=["x", "y"])
    before = acc.partials()
    with pytest.raises(ValueError, match="samples: given with some batches"):
        acc.update([1, 0], [0.5, 0.2], groups=["a", "a"], items=["x", "y"])
    # the rejected batch left the accumulator unchanged
    after = acc.partials()
    assert_allclose(after["partials"]["expected_exposure"]["value"],
                    before["partials"]["expected_exposure"]["value"])


def test_sorted_accumulators_merged_at_a_cut_query_keep_its_columns():
    """Two workers' sorted streams that cut one query between them: the
    merge joins the query's rows with their samples and items."""
    from tests._logs import exposure_expected, make_exposure_log

    frame = _sorted_by(make_exposure_log(seed=13), "query")
    cut = int(np.searchsorted(frame["query"].to_numpy(), "q5")) + 2  # inside q5
    accs = []
    for part in (frame.iloc[:cut], frame.iloc[cut:]):
        acc = RankingAccumulator(["expected_exposure", "awrf"], group_rows="sorted")
        acc.update(part["relevance"], part["score"], groups=part["query"],
                   samples=part["sample"], items=part["item"],
                   item_groups=part["provider"])
        accs.append(acc)
    merged = accs[0].merge(accs[1])
    got = merged.result()
    want = exposure_expected(frame, ["expected_exposure", "awrf"])
    for name, value in want.items():
        assert got[name] == pytest.approx(value, abs=1e-12), name
    per = exposure_expected(frame, ["expected_exposure"], per_group=True)
    assert_allclose(merged.per_group()["expected_exposure"].to_numpy(float),
                    per["expected_exposure"], rtol=0, atol=1e-12)
