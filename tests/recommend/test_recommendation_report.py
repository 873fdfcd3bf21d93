"""recommendation_report against the long layout built by hand and _reference.

Every accuracy value is the metric function called on the long layout that
the lists define, built here with plain Python loops; every beyond-accuracy
value is the plain definition of ``tests/_reference.py``.
"""

import copy
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import UndefinedMetricWarning

import sklearn_rankeval as sr
from sklearn_rankeval import recommendation_report
from tests import _reference as ref

NEG_INF = float("-inf")
FUNCS = {"ndcg": sr.ndcg_score, "recall": sr.recall_at_k_score,
         "precision": sr.precision_at_k_score, "map": sr.mean_average_precision_score,
         "mrr": sr.mean_reciprocal_rank_score, "success": sr.success_at_k_score,
         "hit_rate": sr.hit_rate_score, "dcg": sr.dcg_score}
ACCURACY = ["ndcg@3", "recall@3", "precision@3", "map@3", "mrr", "success@3",
            "hit_rate@2", "dcg@2", "ndcg@10", "precision@10"]


def _case(seed):
    """(recommended rows (user, item, score), held-out {(user, item): gain})."""
    rng = np.random.default_rng(seed)
    users = [f"u{u}" for u in range(6)]
    rec, held = [], {}
    for u in users[:5]:  # u5 has no list
        n = int(rng.integers(1, 7))
        items = rng.choice(12, size=n, replace=False)
        for i in items:
            # scores from a small set: ties, also at the cut
            rec.append((u, f"i{i}", float(rng.integers(0, 3))))
    for u in users[1:]:  # u0 has no held-out item
        for i in rng.choice(12, size=int(rng.integers(1, 4)), replace=False):
            held[(u, f"i{i}")] = int(rng.integers(1, 4))  # graded gains
    return rec, held


def _long_layout(rec, held, users):
    rec_users = {u for u, _, _ in rec}
    held_users = {u for u, _ in held}
    evaluated = {"held_out": held_users, "recommended": rec_users,
                 "union": rec_users | held_users}[users]
    y_true, y_score, groups = [], [], []
    recommended_pairs = set()
    for u, i, s in rec:
        recommended_pairs.add((u, i))
        if u in evaluated:
            y_true.append(held.get((u, i), 0))
            y_score.append(s)
            groups.append(u)
    for (u, i), g in held.items():
        if u in evaluated and (u, i) not in recommended_pairs:
            y_true.append(g)
            y_score.append(NEG_INF)
            groups.append(u)
    return y_true, y_score, groups


#: The metrics whose formula gives a user without relevant items a value, 0
#: (API.md: a user with a list and no held-out item counts with it).
ZERO_WITHOUT_HELD_OUT = ("precision", "mrr", "success")


def _by_hand(name, layout, lone=0):
    """The metric function on the layout; with ``lone`` users that have a
    list and no held-out item, their zeros averaged in where the metric's
    formula gives them 0 (the others leave them out)."""
    base, _, cut = name.partition("@")
    kwargs = {"k": int(cut)} if cut else {}
    y_true, y_score, groups = layout
    if not lone or base not in ZERO_WITHOUT_HELD_OUT:
        return FUNCS[base](y_true, y_score, groups=groups, **kwargs)
    per_user = FUNCS[base](y_true, y_score, groups=groups, average=None, **kwargs)
    defined = [v for v in per_user if not math.isnan(v)]  # the lone ones: NaN
    return sum(defined) / (len(defined) + lone)


def _frame(rec, held):
    recommended = pd.DataFrame(rec, columns=["user", "item", "score"])
    held_out = pd.DataFrame([(u, i, g) for (u, i), g in held.items()],
                            columns=["user", "item", "relevance"])
    return recommended, held_out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("users", ["held_out", "recommended", "union"])
def test_accuracy_equals_the_long_layout(seed, users):
    rec, held = _case(seed)
    recommended, held_out = _frame(rec, held)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = recommendation_report(recommended, held_out, metrics=ACCURACY,
                                    users=users, output="dict")
        layout = _long_layout(rec, held, users)
        lone = 0 if users == "held_out" else len(
            {u for u, _, _ in rec} - {u for u, _ in held})
        for name in ACCURACY:
            want = _by_hand(name, layout, lone)
            assert got[name] == pytest.approx(want, rel=1e-12, nan_ok=True), name


def test_missed_items_and_users_without_a_list_count():
    recommended = {"a": ["x", "y"], "b": ["z"]}
    held_out = {"a": ["y", "w"], "b": ["q"], "c": ["x"]}
    got = recommendation_report(recommended, held_out, metrics=["recall@2"],
                                output="dict")
    # a: 1 of 2 held-out items; b: 0; c (no list): 0
    assert got["recall@2"] == pytest.approx((1 / 2 + 0 + 0) / 3)
    got = recommendation_report(recommended, held_out, metrics=["recall@2"],
                                users="recommended", output="dict")
    assert got["recall@2"] == pytest.approx((1 / 2 + 0) / 2)


def test_mapping_forms_equal_the_frame_form():
    rec, held = _case(3)
    ordered = sorted(rec, key=lambda r: -r[2])  # a strict order: no score
    lists = {}
    for u, i, _ in ordered:
        lists.setdefault(u, []).append(i)
    gains = {}
    for (u, i), g in held.items():
        gains.setdefault(u, {})[i] = g
    frame = pd.DataFrame([(u, i) for u, i, _ in ordered], columns=["user", "item"])
    held_frame = pd.DataFrame([(u, i, g) for (u, i), g in held.items()],
                              columns=["user", "item", "gain"])
    metrics = [*ACCURACY, "coverage@3", "gini@3", "entropy@2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        a = recommendation_report(lists, gains, metrics=metrics, output="dict")
        b = recommendation_report(frame, held_frame, relevance="gain",
                                  metrics=metrics, output="dict")
        c = recommendation_report({"user": list(frame.user), "item": list(frame.item)},
                                  {"user": list(held_frame.user),
                                   "item": list(held_frame.item),
                                   "relevance": list(held_frame.gain)},
                                  metrics=metrics, output="dict")
    assert a.keys() == b.keys() == c.keys()
    for name in metrics:
        assert a[name] == pytest.approx(b[name], nan_ok=True), name
        assert a[name] == pytest.approx(c[name], nan_ok=True), name
    # the rank of a list is its order: minus the rank as the score
    y_true, y_score, groups = [], [], []
    for u, lst in lists.items():
        if u in gains:
            for r, i in enumerate(lst):
                y_true.append(gains[u].get(i, 0))
                y_score.append(-r)
                groups.append(u)
    for u, g in gains.items():
        for i, gain in g.items():
            if i not in lists.get(u, []):
                y_true.append(gain)
                y_score.append(NEG_INF)
                groups.append(u)
    assert a["ndcg@3"] == pytest.approx(sr.ndcg_score(y_true, y_score, groups=groups,
                                                      k=3))


def _ref_lists(rec, k):
    per_user = {}
    for u, i, s in rec:
        per_user.setdefault(u, []).append((i, s))
    return per_user


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_beyond_equals_the_reference(seed, k):
    rec, held = _case(seed)
    # integer item ids 0..11 (rows of item_features); evaluated users: all
    rec = [(u, int(i[1:]), s) for u, i, s in rec]
    held = {(u, int(i[1:])): g for (u, i), g in held.items()}
    rng = np.random.default_rng(seed)
    features = rng.integers(0, 3, size=(12, 3)).astype(float)
    train = [(f"t{rng.integers(0, 5)}", int(rng.integers(0, 12))) for _ in range(20)]
    recommended, held_out = _frame(rec, held)
    train_frame = pd.DataFrame(train, columns=["user", "item"])
    names = [f"{m}@{k}" for m in ("coverage", "gini", "entropy", "novelty", "arp",
                                  "long_tail", "ild")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = recommendation_report(recommended, held_out, metrics=names,
                                    train=train_frame, item_features=features,
                                    n_items=12, users="recommended", output="dict")
    lists_in = _ref_lists(rec, k)
    counts = ref.expected_counts(lists_in, k, 12)
    want = {
        f"coverage@{k}": ref.expected_over_realisations(
            lambda lists: ref.coverage(lists, 12), lists_in, k),
        f"gini@{k}": ref.gini_index(counts),
        f"entropy@{k}": ref.shannon_entropy(counts),
        f"novelty@{k}": ref.expected_over_realisations(
            lambda lists: ref.novelty(lists, train), lists_in, k),
        f"arp@{k}": ref.expected_over_realisations(
            lambda lists: ref.average_popularity(lists, train), lists_in, k),
        f"long_tail@{k}": ref.expected_over_realisations(
            lambda lists: ref.long_tail_share(lists, train), lists_in, k),
    }
    feats = {i: list(features[i]) for i in range(12)}
    if k >= 2:  # ild: the expected sum of pair cosines over the fixed pair count
        want[f"ild@{k}"] = ref.expected_over_realisations(
            lambda lists: ref.intra_list_diversity(lists, feats), lists_in, k)
    for name, value in want.items():
        assert got[name] == pytest.approx(float(value), rel=1e-9, abs=1e-12), name


def test_beyond_needs_its_inputs_and_counts_the_catalog():
    rec = {"a": ["x", "y"], "b": ["y"]}
    held = {"a": ["z"], "b": ["x"]}
    got = recommendation_report(rec, held, metrics=["coverage@2"], output="dict")
    assert got["coverage@2"] == pytest.approx(2 / 3)  # catalog {x, y, z}
    got = recommendation_report(rec, held, metrics=["coverage@2"], n_items=10,
                                output="dict")
    assert got["coverage@2"] == pytest.approx(2 / 10)
    with pytest.raises(ValueError, match="train"):
        recommendation_report(rec, held, metrics=["novelty@2"])
    with pytest.raises(ValueError, match="item_features"):
        recommendation_report(rec, held, metrics=["ild@2"])
    with pytest.raises(ValueError, match="item_features"):
        recommendation_report(rec, held, metrics=["ild@2"],
                              item_features=np.eye(3))  # string ids
    with pytest.raises(ValueError, match="n_items"):
        recommendation_report(rec, held, metrics=["coverage@2"], n_items=2)


def test_outputs():
    rec, held = _case(1)
    recommended, held_out = _frame(rec, held)
    d = recommendation_report(recommended, held_out, k=3, output="dict")
    assert list(d) == ["precision@3", "recall@3", "ndcg@3", "map@3", "coverage@3"]
    frame = recommendation_report(recommended, held_out, k=3, output="frame")
    assert list(frame.columns) == ["metric", "value", "n_users"]
    assert dict(zip(frame.metric, frame.value)) == pytest.approx(d)
    # held-out users u1..u5; catalog i0..i11 of the two inputs
    n_items = len({i for _, i, _ in rec} | {i for _, i in held})
    assert list(frame.n_users) == [5] * 5
    assert frame.attrs == {"n_items": n_items, "n_users": 5}
    assert (d.n_items, d.n_users) == (n_items, 5)
    text = recommendation_report(recommended, held_out, k=3)
    assert "recall@3" in text and f"{d['recall@3']:.4f}" in text
    per_user = recommendation_report(recommended, held_out, k=3, output="per_user")
    assert per_user.index.name == "user"
    y_true, y_score, groups = _long_layout(rec, held, "held_out")
    want = sr.per_group_scores(y_true, y_score, groups=groups,
                               metrics=["precision@3", "recall@3", "ndcg@3", "map@3"])
    assert list(per_user.index) == list(want.index)
    np.testing.assert_allclose(per_user["ndcg@3"], want["ndcg@3"])
    ci = recommendation_report(recommended, held_out, k=3, output="dict",
                               confidence=0.9, random_state=0, n_resamples=200)
    assert ci["recall@3"]["value"] == pytest.approx(d["recall@3"])
    assert ci["recall@3"]["ci_low"] <= d["recall@3"] <= ci["recall@3"]["ci_high"]
    assert ci["coverage@3"] == pytest.approx(d["coverage@3"])  # no interval


def test_bad_input():
    rec = pd.DataFrame({"user": [1, 1, 2], "item": [1, 2, 1],
                        "score": [0.5, 0.2, 0.1]})
    held = pd.DataFrame({"user": [1, 2], "item": [2, 2]})
    with pytest.raises(ValueError, match="recommended has no column 'uid'"):
        recommendation_report(rec, held, user="uid")
    with pytest.raises(ValueError, match="held_out has no column 'rel'"):
        recommendation_report(rec, held, relevance="rel")
    nan = rec.assign(score=[0.5, math.nan, 0.1])
    with pytest.raises(ValueError, match="recommended.*NaN"):
        recommendation_report(nan, held)
    with pytest.raises(ValueError, match="held_out.*negative"):
        recommendation_report(rec, held.assign(relevance=[1, -1]))
    for k in (0, -1):
        with pytest.raises(ValueError, match="k must be"):
            recommendation_report(rec, held, k=k)
    for k in (1.5, "3", True):
        with pytest.raises(TypeError, match="k must be"):
            recommendation_report(rec, held, k=k)
    dup = pd.DataFrame({"user": [1, 1], "item": [2, 2], "score": [1.0, 0.0]})
    with pytest.raises(ValueError, match="recommended repeats"):
        recommendation_report(dup, held)
    with pytest.raises(ValueError, match="convention.*recbole"):
        recommendation_report(rec, held, convention="recbole")
    with pytest.raises(ValueError, match="users"):
        recommendation_report(rec, held, users="all")
    with pytest.raises(ValueError, match="metrics"):
        recommendation_report(rec, held, metrics=["nope@3"])
    with pytest.raises(TypeError, match="user ids must be hashable"):
        recommendation_report({"user": [[1], [2]], "item": [1, 2]}, held)
    with pytest.raises(TypeError, match="recommended"):
        recommendation_report([1, 2], held)


def test_inputs_not_modified():
    rec, held = _case(2)
    recommended, held_out = _frame(rec, held)
    lists = {"a": ["x", "y"], "b": ["y"]}
    gains = {"a": {"x": 2}, "b": {"z": 1}}
    before = (recommended.copy(), held_out.copy(), copy.deepcopy(lists),
              copy.deepcopy(gains))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        recommendation_report(recommended, held_out, output="dict")
        recommendation_report(lists, gains, output="dict", metrics=["ndcg@2",
                                                                    "gini@2"])
    pd.testing.assert_frame_equal(recommended, before[0])
    pd.testing.assert_frame_equal(held_out, before[1])
    assert lists == before[2] and gains == before[3]


def test_other_input_forms():
    pl = pytest.importorskip("polars")
    rec, held = _case(4)
    recommended, held_out = _frame(rec, held)
    want = recommendation_report(recommended, held_out, output="dict")
    got = recommendation_report(pl.from_pandas(recommended),
                                pl.from_pandas(held_out), output="dict")
    assert got == pytest.approx(want)
    # NumPy string columns, no train
    got = recommendation_report(
        {"user": recommended.user.to_numpy(str), "item": recommended.item.to_numpy(str),
         "score": recommended.score.to_numpy()},
        {"user": held_out.user.to_numpy(str), "item": held_out.item.to_numpy(str),
         "relevance": held_out.relevance.to_numpy()}, output="dict")
    assert got == pytest.approx(want)


def test_item_features_forms():
    from scipy import sparse

    rec = {"a": [0, 2, 5], "b": [2, 3]}
    held = {"a": [1], "b": [0]}
    features = np.array([[1.0, 0], [0, 1], [1, 1], [2, 0], [0, 0], [0, 3]])
    lists = {"a": (0, 2, 5), "b": (2, 3)}
    want = ref.intra_list_diversity(lists, {i: list(f) for i, f in enumerate(features)})
    for form in (features, sparse.csr_matrix(features),
                 pd.DataFrame(features[::-1], index=range(5, -1, -1))):
        got = recommendation_report(rec, held, metrics=["ild@3"], item_features=form,
                                    users="recommended", output="dict")
        assert got["ild@3"] == pytest.approx(want), type(form)
    with pytest.raises(ValueError, match="item_features has no row"):
        recommendation_report(rec, held, metrics=["ild@3"],
                              item_features=pd.DataFrame(features[:4]))


def _int_case(seed, n_users=6, n_items=9, ties=True):
    """Integer ids (as top_k_items returns them): rows (user, item, score)."""
    rng = np.random.default_rng(seed)
    rec = []
    for u in range(n_users - 1):  # the last user has no list
        items = rng.choice(n_items - 1, size=int(rng.integers(1, 5)), replace=False)
        scores = rng.integers(0, 3, size=items.size) if ties else rng.permutation(
            items.size)
        rec += [(u, int(i), float(s)) for i, s in zip(items, scores)]
    train = [(int(rng.integers(0, n_users)), int(rng.integers(0, n_items - 1)))
             for _ in range(25)]
    held = {(u, int(i)): int(rng.integers(1, 4)) for u in range(1, n_users)
            for i in rng.choice(n_items - 1, size=2, replace=False)}
    return rec, held, train


def test_sparse_held_out_and_train():
    from scipy import sparse

    rec, held, train = _int_case(0)
    recommended, held_out = _frame(rec, held)
    metrics = ["ndcg@3", "recall@3", "coverage@3", "novelty@3", "long_tail@3"]
    # one more column than any item: the catalog is the matrices' width
    shape = (6, 10)
    rows, cols = zip(*held, (0, 9))  # a stored zero is not an interaction
    held_matrix = sparse.csr_matrix(([*held.values(), 0], (rows, cols)), shape=shape)
    assert held_matrix.nnz == len(held) + 1
    t_rows, t_cols = zip(*train)
    train_matrix = sparse.coo_matrix((np.ones(len(train)), (t_rows, t_cols)),
                                     shape=shape).tocsr()  # repeats add up
    distinct = pd.DataFrame(sorted(set(train)), columns=["user", "item"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        want = recommendation_report(recommended, held_out, metrics=metrics,
                                     train=distinct, n_items=10, output="dict")
        got = recommendation_report(recommended, held_matrix, metrics=metrics,
                                    train=train_matrix, output="dict")
    assert got == pytest.approx(want)
    assert "(catalog: 10 items)" in recommendation_report(
        recommended, held_matrix, metrics=["coverage@3"], train=train_matrix)
    with pytest.raises(ValueError, match="n_items=9 is smaller than the 10"):
        recommendation_report(recommended, held_matrix, metrics=metrics,
                              train=train_matrix, n_items=9)
    with pytest.raises(TypeError, match="recommended.*sparse"):
        recommendation_report(held_matrix, held_matrix)
    with pytest.raises(ValueError, match="held_out is a sparse matrix.*'gain'"):
        recommendation_report(recommended, held_matrix, relevance="gain")


@pytest.mark.parametrize("head_share", [0.0, 0.3, 0.5, 0.8, 1.0])
def test_head_share(head_share):
    rec, held, train = _int_case(1, ties=False)
    recommended, held_out = _frame(rec, held)
    train_frame = pd.DataFrame(train, columns=["user", "item"])
    got = recommendation_report(recommended, held_out, metrics=["long_tail@4"],
                                train=train_frame, head_share=head_share,
                                output="dict")
    lists = {u: [i for i, _ in sorted(pairs, key=lambda p: -p[1])][:4]
             for u, pairs in _ref_lists(rec, 4).items() if u in {u for u, _ in held}}
    want = ref.long_tail_share(lists, train, head_share)
    assert got["long_tail@4"] == pytest.approx(float(want))
    with pytest.raises(ValueError, match="head_share"):
        recommendation_report(recommended, held_out, metrics=["long_tail@4"],
                              train=train_frame, head_share=1.5)


def test_per_user_beyond_columns():
    rec, held, train = _int_case(2, ties=False)
    recommended, held_out = _frame(rec, held)
    features = np.random.default_rng(2).integers(0, 3, size=(9, 3)).astype(float)
    names = ["recall@3", "coverage@3", "novelty@3", "arp@3", "ild@3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        got = recommendation_report(recommended, held_out, metrics=names,
                                    train=pd.DataFrame(train, columns=["user", "item"]),
                                    item_features=features, users="union",
                                    output="per_user")
    assert list(got.columns) == ["recall@3", "novelty@3", "arp@3", "ild@3"]
    assert list(got.index) == list(range(6))
    feats = {i: list(features[i]) for i in range(9)}
    per_user = _ref_lists(rec, 3)
    for u in range(6):
        lst = [i for i, _ in sorted(per_user.get(u, []), key=lambda p: -p[1])][:3]
        one = {u: lst}
        for name, fn in (("novelty@3", lambda x: ref.novelty(x, train)),
                         ("arp@3", lambda x: ref.average_popularity(x, train)),
                         ("ild@3", lambda x: ref.intra_list_diversity(x, feats))):
            want = float(fn(one))
            if math.isnan(want):
                assert math.isnan(got.loc[u, name]), (u, name)
            else:
                assert got.loc[u, name] == pytest.approx(want), (u, name)
    with pytest.raises(ValueError, match="per-user metric"):
        recommendation_report(recommended, held_out, metrics=["gini@3"],
                              output="per_user")


def test_beyond_intervals_are_the_bootstrap_over_users():
    """Each resample recomputed from the definitions on the drawn users."""
    rec, held, train = _int_case(3, n_users=5)
    recommended, held_out = _frame(rec, held)
    users = sorted({u for u, _, _ in rec} | {u for u, _ in held})
    features = np.random.default_rng(3).integers(0, 3, size=(9, 3)).astype(float)
    names = ["novelty@2", "arp@2", "long_tail@2", "ild@2"]
    n_resamples, seed = 40, 7
    got = recommendation_report(
        recommended, held_out, metrics=names + ["coverage@2", "gini@2"],
        users="union", output="dict", item_features=features,
        train=pd.DataFrame(train, columns=["user", "item"]), n_items=9,
        confidence=0.8, n_resamples=n_resamples, random_state=seed)
    plain = recommendation_report(
        recommended, held_out, metrics=["coverage@2", "gini@2"], users="union",
        n_items=9, output="dict")
    assert got["coverage@2"] == plain["coverage@2"]  # no interval
    assert got["gini@2"] == plain["gini@2"]
    lists_in = _ref_lists(rec, 2)
    feats = {i: list(features[i]) for i in range(9)}
    metric = {"novelty@2": lambda lists: ref.novelty(lists, train),
              "arp@2": lambda lists: ref.average_popularity(lists, train),
              "long_tail@2": lambda lists: ref.long_tail_share(lists, train),
              "ild@2": lambda lists: ref.intra_list_diversity(lists, feats)}
    rng = np.random.default_rng(seed)
    dist = {name: [] for name in names}
    for _ in range(n_resamples):
        drawn = np.bincount(rng.integers(0, len(users), len(users)),
                            minlength=len(users))
        copies = {(u, j): lists_in[u] for u, c in zip(users, drawn)
                  for j in range(c) if u in lists_in}
        for name in names:
            dist[name].append(ref.expected_over_realisations(metric[name],
                                                             copies, 2))
    for name in names:
        values = np.array([float(v) for v in dist[name]])
        values = values[~np.isnan(values)]
        low, high = np.quantile(values, [0.1, 0.9])
        assert got[name]["ci_low"] == pytest.approx(low), name
        assert got[name]["ci_high"] == pytest.approx(high), name


@pytest.mark.parametrize("seed", range(3))
def test_lists_in_rank_order_equal_shuffled_rows(seed):
    """Rows grouped by user in descending score order (as top_k_items gives
    them) take a path without a sort: the same values as any row order."""
    rec, held = _case(seed)
    recommended, held_out = _frame(rec, held)
    metrics = ACCURACY + ["coverage@2", "gini@3", "entropy@3"]
    ordered = recommended.sort_values(["user", "score"], ascending=[True, False])
    shuffled = recommended.sample(frac=1.0, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        a = recommendation_report(ordered, held_out, metrics=metrics, output="dict")
        b = recommendation_report(shuffled, held_out, metrics=metrics, output="dict")
    layout = _long_layout(rec, held, "held_out")
    for name in ACCURACY:
        assert a[name] == pytest.approx(_by_hand(name, layout)), name
    assert a == pytest.approx(b)


def test_minus_inf_scores_are_not_recommended_in_any_row_order():
    """-inf: not recommended, whether the lists come in rank order or not."""
    rec = pd.DataFrame({"user": [0, 0, 0, 0, 1, 1], "item": [1, 2, 3, 5, 1, 4],
                        "score": [3.0, 2.0, NEG_INF, NEG_INF, 5.0, 1.0]})
    held = {(0, 3): 1, (1, 4): 1, (0, 5): 2}
    held_out = pd.DataFrame([(u, i, g) for (u, i), g in held.items()],
                            columns=["user", "item", "relevance"])
    metrics = ["recall@3", "mrr", "ndcg@3", "precision@3", "coverage@3"]
    rows = list(rec.itertuples(index=False, name=None))
    layout = _long_layout(rows, held, "held_out")
    for frame in (rec, rec.iloc[::-1]):
        got = recommendation_report(frame, held_out, metrics=metrics, n_items=6,
                                    output="dict")
        for name in metrics[:-1]:
            assert got[name] == pytest.approx(_by_hand(name, layout)), name
        assert got["recall@3"] == pytest.approx(0.5)  # items 3 and 5 missed
        assert got["coverage@3"] == pytest.approx(3 / 6)  # items 1, 2, 4


def test_more_bad_input_is_named():
    rec = {"user": ["a", "b"], "item": ["x", "z"]}
    held = {"user": ["a", "b"], "item": ["x", "y"]}
    with pytest.raises(ValueError, match="recommended has no column 'user'"):
        recommendation_report({"customer": ["a", "b"], "item": ["x", "z"]}, held)
    for name in ("coverage@02", "coverage@0"):
        with pytest.raises(ValueError, match=f"{name}.*positive integer"):
            recommendation_report(rec, held, metrics=[name])
    for name in ("log_loss", "ne", "ece", "pcoc"):
        with pytest.raises(ValueError, match=f"'{name}'.*probabilities"):
            recommendation_report(rec, held, metrics=[name])
    with pytest.raises(ValueError, match="metrics is empty"):
        recommendation_report(rec, held, metrics=[])
    twice = {"user": ["a", "a"], "item": ["x", "x"], "score": [1.0, 0.0]}
    with pytest.raises(ValueError, match=r"repeats the \(user, item\) pair "
                                         r"\('a', 'x'\)"):
        recommendation_report(twice, held)
    with pytest.raises(ValueError, match="no user to evaluate"):
        recommendation_report(rec, {})
    with pytest.raises(TypeError, match="a set, which has no order"):
        recommendation_report({"a": {"x", "z"}}, held)
    with pytest.raises(ValueError, match="head_share"):
        recommendation_report(rec, held, metrics=["recall@2"], head_share=2)
    with pytest.warns(UserWarning, match="no user in common"):
        recommendation_report(rec, {"user": [1, 2], "item": ["x", "y"]})
    with pytest.raises(ValueError, match="confidence.*per_user"):
        recommendation_report(rec, held, metrics=["recall@2"], confidence=0.9,
                              output="per_user")


def test_ild_needs_features_of_the_recommended_items_only():
    rec = {"user": [0, 0, 1, 1], "item": [0, 1, 1, 2]}
    held = {"user": [0, 1], "item": [5, 7]}  # items without a feature row
    features = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    got = recommendation_report(rec, held, metrics=["ild@2"], item_features=features,
                                output="dict")
    feats = {i: list(features[i]) for i in range(3)}
    want = ref.intra_list_diversity({0: [0, 1], 1: [1, 2]}, feats)
    assert got["ild@2"] == pytest.approx(want)
    frame = pd.DataFrame(features, index=[0, 1, 2])
    got = recommendation_report(rec, held, metrics=["ild@2"], item_features=frame,
                                output="dict")
    assert got["ild@2"] == pytest.approx(want)
    with pytest.raises(ValueError, match="no row for the item 2"):
        recommendation_report(rec, held, metrics=["ild@2"], output="dict",
                              item_features=frame.iloc[:2])


def test_per_user_rows_of_every_evaluated_user():
    rec = {"a": ["x", "y"], "b": ["y"]}
    held = {"a": ["x"], "b": ["z"], "c": ["x"]}  # c has no list
    train = {"t1": ["x", "y"], "t2": ["x"]}
    got = recommendation_report(rec, held, metrics=["novelty@2"], train=train,
                                output="per_user")
    assert list(got.index) == ["a", "b", "c"]
    assert got.loc["a", "novelty@2"] == pytest.approx(0.5)  # (0 + 1) / 2
    assert got.loc["b", "novelty@2"] == pytest.approx(1.0)  # -log2(1/2)
    assert math.isnan(got.loc["c", "novelty@2"])


def test_integer_ids_of_several_dtypes():
    rec, held = _case(5)
    rec = [(int(u[1:]), int(i[1:]), s) for u, i, s in rec]
    held = {(int(u[1:]), int(i[1:])): g for (u, i), g in held.items()}
    recommended, held_out = _frame(rec, held)
    want = recommendation_report(recommended, held_out, output="dict")
    got = recommendation_report(
        recommended.astype({"user": np.uint32, "item": np.int16}), held_out,
        output="dict")
    assert got == pytest.approx(want)


# ---------------------------------------------------------------------------
# what a new user hit (the calls and what they see)
# ---------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("held_users, types", [
    (["u1", "u2"], "recommended's user ids are integers, held_out's strings"),
    (["001", "002"], "recommended's user ids are integers, held_out's strings"),
    ([1.5, 2.5], "recommended's user ids are integers, held_out's floats"),
    ([3, 4], None),  # the same type, other users
])
def test_ids_that_do_not_overlap_warn_with_both_types(held_users, types):
    rec = {"user": [1, 1, 2, 2], "item": ["a", "b", "b", "c"]}
    held = {"user": held_users, "item": ["b", "c"]}
    with pytest.warns(UserWarning, match="have no user in common") as record:
        got = recommendation_report(rec, held, k=2, output="dict",
                                    metrics=["recall@2", "gini@2", "coverage@2"])
    text = str(record[0].message)
    assert (types in text) if types else "ids are" not in text
    assert f"such as {held_users[0]!r}, {held_users[1]!r}" in text
    assert got["recall@2"] == 0.0  # the held-out users have no list
    # gini and entropy were not asked for: no word of them; coverage is 0
    assert got["coverage@2"] == 0.0
    messages = [str(w.message) for w in record]
    assert not any("entropy" in m for m in messages)
    assert any(m.startswith("gini@2 is undefined: no evaluated user has an item")
               for m in messages)


def test_items_that_do_not_overlap_warn():
    rec = {"user": [1, 1, 2], "item": [10, 11, 10]}
    with pytest.warns(UserWarning, match="no item in common.*item ids are "
                                         "integers, held_out's strings"):
        recommendation_report(rec, {"user": [1, 2], "item": ["10", "11"]},
                              metrics=["recall@2"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no accuracy metric: nothing to warn of
        recommendation_report(rec, {"user": [1, 2], "item": ["10", "11"]},
                              metrics=["coverage@2"])


def test_users_with_a_list_and_no_held_out_item():
    # ann: a hit at rank 2; bob: a list, no held-out item; cy: no list
    rec = {"ann": ["x", "y"], "bob": ["x", "z"]}
    held = {"ann": ["y"], "cy": ["x"]}
    names = ["precision@2", "mrr", "success@2", "recall@2", "ndcg@2", "map@2"]
    held_out = recommendation_report(rec, held, metrics=names, output="dict")
    recommended = recommendation_report(rec, held, metrics=names, output="dict",
                                        users="recommended")
    union = recommendation_report(rec, held, metrics=names, output="dict",
                                  users="union")
    # held_out: ann and cy (no list: 0 everywhere)
    assert held_out == pytest.approx({"precision@2": 0.25, "mrr": 0.25,
                                      "success@2": 0.5, "recall@2": 0.5,
                                      "ndcg@2": (1 / math.log2(3)) / 2,
                                      "map@2": 0.25})
    # recommended: ann and bob; bob counts 0 where the formula gives 0 and is
    # left out of the metrics that divide by the relevant items
    assert recommended == pytest.approx({"precision@2": 0.25, "mrr": 0.25,
                                         "success@2": 0.5, "recall@2": 1.0,
                                         "ndcg@2": 1 / math.log2(3),
                                         "map@2": 0.5})
    assert union == pytest.approx({"precision@2": 1 / 6, "mrr": 1 / 6,
                                   "success@2": 1 / 3, "recall@2": 0.5,
                                   "ndcg@2": (1 / math.log2(3)) / 2,
                                   "map@2": 0.25})
    assert (held_out.n_users, recommended.n_users, union.n_users) == (2, 2, 3)
    assert union.n_users_of == {"precision@2": 3, "mrr": 3, "success@2": 3,
                                "recall@2": 3, "ndcg@2": 3, "map@2": 3}
    frame = recommendation_report(rec, held, metrics=names, users="union",
                                  output="per_user")
    assert frame.loc["bob", "precision@2"] == 0.0
    assert math.isnan(frame.loc["bob", "recall@2"])


def test_an_unknown_metric_lists_the_list_metrics_and_says_did_you_mean():
    rec, held = {"a": ["x"]}, {"a": ["x"]}
    for name, suggestion in [("covrage@10", "coverage@10"), ("coverage", "coverage@10"),
                             ("ndgc@5", "ndcg@5"), ("long_tial@3", "long_tail@3")]:
        with pytest.raises(ValueError) as info:
            recommendation_report(rec, held, metrics=[name])
        text = str(info.value)
        assert f"metrics: {name!r} is not a recommendation metric name" in text
        assert "coverage@K, gini@K, entropy@K, novelty@K, arp@K, long_tail@K, " \
               "ild@K" in text
        assert "log_loss" not in text  # probabilities: not for lists
        assert text.endswith(f"Did you mean {suggestion!r}?")


def test_outputs_count_the_catalog_and_the_users():
    rec = {"a": ["x", "y"], "b": ["z"]}
    held = {"a": ["y"], "c": ["w"]}
    train = {"t": ["v"]}  # item v only in train: in the catalog
    d = recommendation_report(rec, held, train=train, metrics=["recall@2"],
                              output="dict")
    assert (d.n_items, d.n_users) == (5, 2)  # v, w, x, y, z; users a and c
    assert d == {"recall@2": 0.5}
    d = recommendation_report(rec, held, metrics=["recall@2"], output="dict",
                              n_items=9)
    assert d.n_items == 9
    text = recommendation_report(rec, held, train=train, metrics=["recall@2"])
    assert text.splitlines() == ["metric      value  users",
                                 "recall@2   0.5000      2",
                                 "(catalog: 5 items)"]
    frame = recommendation_report(rec, held, train=train, metrics=["recall@2"],
                                  output="frame", users="union")
    assert frame.attrs == {"n_items": 5, "n_users": 3}
    assert frame.to_dict("list") == {"metric": ["recall@2"], "value": [0.5],
                                     "n_users": [3]}
