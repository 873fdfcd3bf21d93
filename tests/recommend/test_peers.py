"""``recommendation_report(convention=...)``: the peers' numbers by name.

Three kinds of tests:

- against the peer itself, where it imports (``pytest.importorskip``:
  Microsoft Recommenders' ``recommenders.evaluation.python_evaluation`` and
  RecTools' ``rectools.metrics``, RecBole's ``recbole.evaluator.metrics``,
  LensKit's ``lenskit.metrics``; none is a dependency, so these are
  skipped in CI).  They run with the peers' own environment::

      PYTHONPATH=. /work/peers/bin/python -m pytest \\
          tests/recommend/test_peers.py --noconftest -p no:cacheprovider

- hand cases whose values are the peers' own test values (file and test
  cited at each), which run everywhere;
- the refusals: each names the metric and the convention.

The random data have users without a list, users without held-out items,
items outside the training data and ties, also across the cut.
"""

import math

import numpy as np
import pandas as pd
import pytest

from sklearn_rankeval import recommendation_report
from sklearn_rankeval._recommend._peers import NAMES, PEERS
from tests import _reference as ref

KS = (1, 3, 5, 10)


def _data(seed, ties=True, levels=4):
    """(recommended frame, held-out frame, train frame, n_items).

    Users 0..29 on items 0..24.  Users 0-3 have no list, users 26-29 no
    held-out item; lists are 0..12 items long with scores from few values
    (``ties``: ``levels`` values) or distinct ones.  Training pairs avoid the recommended pairs
    (Microsoft Recommenders refuses them) and miss some recommended items.
    """
    rng = np.random.default_rng(seed)
    rec, held, train = [], [], []
    for u in range(30):
        order = rng.permutation(25)
        n_list = 0 if u < 4 else int(rng.integers(1, 13))
        listed = order[:n_list]
        if ties:
            scores = rng.integers(0, levels, n_list).astype(float)
        else:
            scores = rng.permutation(100)[:n_list].astype(float)
        rec += [(u, int(i), s) for i, s in zip(listed, scores)]
        if u < 26:
            n_held = int(rng.integers(1, 6))
            pool = rng.permutation(25)[:n_held]
            held += [(u, int(i)) for i in pool]
        rest = [int(i) for i in order[n_list:] if i < 20]  # items 20-24 unseen
        train += [(u, i) for i in rest[:int(rng.integers(0, 6))]]
    rec = pd.DataFrame(rec, columns=["user", "item", "score"])
    rec = rec.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    held = pd.DataFrame(held, columns=["user", "item"])
    train = pd.DataFrame(train, columns=["user", "item"])
    return rec, held, train, 25


def _report(rec, held, metrics, convention, **kwargs):
    return recommendation_report(rec, held, metrics=metrics, output="dict",
                                 convention=convention, **kwargs)


# ---------------------------------------------------------------------------
# Microsoft Recommenders 1.2.1, the peer itself
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_ms_recommenders_accuracy_against_the_peer(seed, k):
    pe = pytest.importorskip("recommenders.evaluation.python_evaluation")
    rec, held, _, _ = _data(seed)  # ties, also across the cut
    pred = rec.rename(columns={"user": "userID", "item": "itemID",
                               "score": "prediction"})
    true = held.rename(columns={"user": "userID", "item": "itemID"})
    true["rating"] = 1.0
    got = _report(rec, held, [f"precision@{k}", f"recall@{k}", f"ndcg@{k}",
                              f"map@{k}"], "ms_recommenders")
    want = {
        f"precision@{k}": pe.precision_at_k(true, pred, k=k),
        f"recall@{k}": pe.recall_at_k(true, pred, k=k),
        f"ndcg@{k}": pe.ndcg_at_k(true, pred, k=k),
        f"map@{k}": pe.map_at_k(true, pred, k=k),
    }
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_ms_recommenders_beyond_against_the_peer(seed, k):
    pe = pytest.importorskip("recommenders.evaluation.python_evaluation")
    rec, held, train, n_items = _data(seed)
    features = np.random.default_rng(seed).integers(0, 2, (n_items, 6)).astype(
        float)
    features[features.sum(axis=1) == 0, 0] = 1.0
    got = _report(rec, held, [f"coverage@{k}", f"entropy@{k}", f"novelty@{k}",
                              f"ild@{k}"], "ms_recommenders", train=train,
                  item_features=features)
    pred = rec.rename(columns={"user": "userID", "item": "itemID",
                               "score": "prediction"})
    top = pe.get_top_k_items(pred, col_user="userID", col_rating="prediction",
                             k=k)[["userID", "itemID"]]
    tr = train.rename(columns={"user": "userID", "item": "itemID"})
    item_df = pd.DataFrame({"itemID": np.arange(n_items),
                            "features": list(features)})
    want = {
        f"coverage@{k}": pe.catalog_coverage(tr, top),
        f"entropy@{k}": pe.distributional_coverage(tr, top),
        f"novelty@{k}": pe.novelty(tr, top),
        f"ild@{k}": pe.diversity(tr, top, item_feature_df=item_df,
                                 item_sim_measure="item_feature_vector"),
    }
    # at k=1 no list has a pair: both undefined (nan)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12, nan_ok=True)
    assert math.isnan(got[f"ild@{k}"]) == (k == 1)


def test_ms_recommenders_tie_order_is_the_row_order():
    # get_top_k_items sorts with pandas' stable multi-key sort: reordering
    # the tied rows changes the peer's number, and ours with it
    pe = pytest.importorskip("recommenders.evaluation.python_evaluation")
    rec = pd.DataFrame({"user": [1, 1, 1, 2, 2], "item": [10, 11, 12, 10, 11],
                        "score": [1.0, 1.0, 1.0, 0.5, 0.5]})
    held = pd.DataFrame({"user": [1, 2], "item": [12, 10]})
    true = held.rename(columns={"user": "userID", "item": "itemID"})
    true["rating"] = 1.0
    values = []
    for frame in (rec, rec.iloc[[2, 1, 0, 3, 4]].reset_index(drop=True)):
        pred = frame.rename(columns={"user": "userID", "item": "itemID",
                                     "score": "prediction"})
        got = _report(frame, held, ["precision@1", "ndcg@2"], "ms_recommenders")
        assert got["precision@1"] == pe.precision_at_k(true, pred, k=1)
        assert got["ndcg@2"] == pytest.approx(pe.ndcg_at_k(true, pred, k=2))
        values.append(got)
    assert values[0]["precision@1"] == 0.5 and values[1]["precision@1"] == 1.0


# ---------------------------------------------------------------------------
# RecTools 0.19, the peer itself
# ---------------------------------------------------------------------------
def _rectools_reco(rec, Columns):  # noqa: N803 - rectools.Columns
    """Ranks 1..n per user by descending score, as RecTools' models give."""
    reco = rec.sort_values(["user", "score"], ascending=[True, False],
                           kind="stable").copy()
    reco[Columns.Rank] = reco.groupby("user").cumcount() + 1
    return reco.rename(columns={"user": Columns.User, "item": Columns.Item})[
        [Columns.User, Columns.Item, Columns.Rank]]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_rectools_against_calc_metrics(seed, k):
    rectools = pytest.importorskip("rectools")
    rm = pytest.importorskip("rectools.metrics")
    rec, held, train, n_items = _data(seed, ties=False)
    Columns = rectools.Columns  # noqa: N806
    reco = _rectools_reco(rec, Columns)
    interactions = held.rename(columns={"user": Columns.User,
                                        "item": Columns.Item})
    prev = train.rename(columns={"user": Columns.User, "item": Columns.Item})
    want = rm.calc_metrics(
        {f"precision@{k}": rm.Precision(k=k), f"recall@{k}": rm.Recall(k=k),
         f"ndcg@{k}": rm.NDCG(k=k), f"map@{k}": rm.MAP(k=k),
         f"mrr@{k}": rm.MRR(k=k), f"success@{k}": rm.HitRate(k=k),
         f"coverage@{k}": rm.CatalogCoverage(k=k, normalize=True),
         f"novelty@{k}": rm.MeanInvUserFreq(k=k),
         f"arp@{k}": rm.AvgRecPopularity(k=k)},
        reco=reco, interactions=interactions, prev_interactions=prev,
        catalog=np.arange(n_items))
    got = _report(rec, held, list(want), "rectools", train=train,
                  n_items=n_items)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_rectools_ties_refused_or_order_free(seed):
    # with tied scores each metric is either refused or RecTools' number for
    # both orders of the tied items (ranks assigned in row order, reversed)
    rectools = pytest.importorskip("rectools")
    rm = pytest.importorskip("rectools.metrics")
    Columns = rectools.Columns  # noqa: N806
    rec, held, train, n_items = _data(seed, levels=25)
    interactions = held.rename(columns={"user": Columns.User,
                                        "item": Columns.Item})
    prev = train.rename(columns={"user": Columns.User, "item": Columns.Item})
    given = refused = 0
    for k in KS:
        metrics = {f"precision@{k}": rm.Precision(k=k), f"ndcg@{k}": rm.NDCG(k=k),
                   f"map@{k}": rm.MAP(k=k), f"mrr@{k}": rm.MRR(k=k),
                   f"coverage@{k}": rm.CatalogCoverage(k=k, normalize=True),
                   f"novelty@{k}": rm.MeanInvUserFreq(k=k)}
        for name, metric in metrics.items():
            try:
                got = _report(rec, held, [name], "rectools", train=train,
                              n_items=n_items)[name]
            except ValueError as exc:
                assert f"convention='rectools' cannot give '{name}'" in str(exc)
                refused += 1
                continue
            given += 1
            for frame in (rec, rec.iloc[::-1]):
                want = rm.calc_metrics(
                    {name: metric}, reco=_rectools_reco(frame, Columns),
                    interactions=interactions, prev_interactions=prev,
                    catalog=np.arange(n_items))[name]
                assert got == pytest.approx(want, rel=1e-12, abs=1e-12)
    assert given and refused


def test_rectools_lists_in_order_against_calc_metrics():
    # lists in rank order: no score, no tie
    rectools = pytest.importorskip("rectools")
    rm = pytest.importorskip("rectools.metrics")
    Columns = rectools.Columns  # noqa: N806
    rec, held, _, _ = _data(7)
    lists = {u: list(g["item"]) for u, g in rec.groupby("user", sort=False)}
    reco = pd.DataFrame([(u, i, r + 1) for u, items in lists.items()
                         for r, i in enumerate(items)],
                        columns=[Columns.User, Columns.Item, Columns.Rank])
    interactions = held.rename(columns={"user": Columns.User,
                                        "item": Columns.Item})
    want = rm.calc_metrics({"ndcg@4": rm.NDCG(k=4), "map@4": rm.MAP(k=4),
                            "mrr@4": rm.MRR(k=4)},
                           reco=reco, interactions=interactions)
    assert _report(lists, held, list(want), "rectools") == pytest.approx(want)


# ---------------------------------------------------------------------------
# RecBole 1.2.1, the peer itself (recbole.evaluator.metrics, fed the
# DataStruct its collector builds: rec.topk, rec.items, data.num_items,
# data.count_items)
# ---------------------------------------------------------------------------
def _recbole(monkeypatch):
    metrics = pytest.importorskip("recbole.evaluator.metrics")
    # RecBole 1.2.1 still writes np.float (the builtin float, removed in
    # NumPy 1.24) in MRR, MAP and NDCG
    monkeypatch.setattr(np, "float", float, raising=False)
    from recbole.evaluator.collector import DataStruct

    return metrics, DataStruct


def _recbole_lists(rec, held, k):
    """Each held-out user's top-k item list (distinct scores) and held set."""
    lists = {u: list(g.sort_values("score", ascending=False)["item"][:k])
             for u, g in rec.groupby("user")}
    wanted = {u: set(g["item"]) for u, g in held.groupby("user")}
    return {u: lists.get(u, []) for u in wanted}, wanted


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_recbole_accuracy_against_the_peer(seed, k, monkeypatch):
    metrics, DataStruct = _recbole(monkeypatch)
    import torch

    rec, held, _, _ = _data(seed, ties=False)
    lists, wanted = _recbole_lists(rec, held, k)
    # rec.topk: the hit matrix of the test users and their positives; a list
    # shorter than k ends in non-relevant items
    rows = [[int(i in wanted[u]) for i in lists[u]] + [0] * (k - len(lists[u]))
            + [len(wanted[u])] for u in wanted]
    data = DataStruct()
    data.set("rec.topk", torch.tensor(rows))
    config = {"topk": [k], "metric_decimal_place": 15}
    want = {}
    for ours, theirs in (("precision", "Precision"), ("recall", "Recall"),
                         ("ndcg", "NDCG"), ("map", "MAP"), ("mrr", "MRR"),
                         ("success", "Hit")):
        got = getattr(metrics, theirs)(config).calculate_metric(data)
        want[f"{ours}@{k}"] = got[f"{theirs.lower()}@{k}"]
    assert _report(rec, held, list(want), "recbole") == pytest.approx(
        want, abs=1e-14)


def _full_data(seed, k):
    """(rec, held, train, n_items): every user's list holds at least k items
    (RecBole's rec.items is an (n_users, k) matrix), distinct scores; users
    20-23 have a list and no held-out item (RecBole does not see them)."""
    rng = np.random.default_rng(seed)
    rec, held, train = [], [], []
    for u in range(24):
        order = rng.permutation(25)
        n_list = int(rng.integers(k, 13))
        rec += [(u, int(i), float(s)) for i, s in
                zip(order[:n_list], rng.permutation(100)[:n_list])]
        if u < 20:
            held += [(u, int(i)) for i in rng.permutation(25)[:3]]
        train += [(u, int(i)) for i in order[n_list:][:int(rng.integers(0, 8))]
                  if i < 20]
    return (pd.DataFrame(rec, columns=["user", "item", "score"]),
            pd.DataFrame(held, columns=["user", "item"]),
            pd.DataFrame(train, columns=["user", "item"]), 25)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_recbole_beyond_against_the_peer(seed, k, monkeypatch):
    metrics, DataStruct = _recbole(monkeypatch)
    import collections

    import torch

    rec, held, train, n_items = _full_data(seed, k)
    lists, _ = _recbole_lists(rec, held, k)
    data = DataStruct()
    data.set("rec.items", torch.tensor([lists[u] for u in sorted(lists)]))
    data.set("data.num_items", n_items)
    data.set("data.count_items", collections.Counter(train["item"]))
    config = {"topk": [k], "metric_decimal_place": 15}
    want = {}
    for ours, theirs in (("coverage", "ItemCoverage"), ("gini", "GiniIndex"),
                         ("entropy", "ShannonEntropy"),
                         ("arp", "AveragePopularity")):
        got = getattr(metrics, theirs)(config).calculate_metric(data)
        want[f"{ours}@{k}"] = got[f"{theirs.lower()}@{k}"]
    got = _report(rec, held, list(want), "recbole", train=train,
                  n_items=n_items)
    assert got == pytest.approx(want, rel=1e-12, abs=1e-14)


# ---------------------------------------------------------------------------
# LensKit 2025.8.1, the peer itself (RunAnalysis over ItemListCollections,
# list_summary's mean; ListGini from global_metrics)
# ---------------------------------------------------------------------------
def _lenskit(rec, held, metrics):
    """``RunAnalysis().measure`` of ``metrics`` ({label: metric}) on the lists
    in score order (distinct scores) and the held-out items."""
    from lenskit.data import ItemListCollection
    from lenskit.metrics import RunAnalysis

    ranked = rec.sort_values(["user", "score"], ascending=[True, False]).copy()
    ranked["rank"] = ranked.groupby("user").cumcount() + 1
    recs = ItemListCollection.from_df(
        ranked.rename(columns={"user": "user_id", "item": "item_id"})[
            ["user_id", "item_id", "rank"]], ["user_id"])
    test = ItemListCollection.from_df(
        held.rename(columns={"user": "user_id", "item": "item_id"}), ["user_id"])
    analysis = RunAnalysis()
    for label, metric in metrics.items():
        analysis.add_metric(metric, label)
    result = analysis.measure(recs, test)
    summary = result.list_summary()["mean"]
    glob = result.global_metrics()
    return {label: float(glob[label]) if label.startswith("gini")
            else float(summary[label]) for label in metrics}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_lenskit_against_run_analysis(seed, k):
    lkm = pytest.importorskip("lenskit.metrics")
    rec, held, _, n_items = _data(seed, ties=False)
    want = _lenskit(rec, held, {
        f"precision@{k}": lkm.Precision(n=k), f"mrr@{k}": lkm.RecipRank(n=k),
        f"success@{k}": lkm.Hit(n=k), f"gini@{k}": lkm.ListGini(n=k,
                                                                items=n_items)})
    got = _report(rec, held, list(want), "lenskit", n_items=n_items)
    assert got == pytest.approx(want, rel=1e-6, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_lenskit_average_precision_against_run_analysis(seed, k):
    # AveragePrecision needs a test item for every list (else 0.0 / 0) and
    # divides by min(|test|, list length): lists of at least k items
    lkm = pytest.importorskip("lenskit.metrics.ranking")
    rec, held, _, _ = _full_data(seed, k)
    rec = rec[rec["user"].isin(held["user"])]
    want = _lenskit(rec, held, {f"map@{k}": lkm.AveragePrecision(n=k)})
    assert _report(rec, held, list(want), "lenskit") == pytest.approx(
        want, rel=1e-12, abs=1e-14)


def test_lenskit_refusals_against_the_peer():
    # the inputs refused are those on which AveragePrecision fails
    lkm = pytest.importorskip("lenskit.metrics.ranking")
    rec = pd.DataFrame({"user": [1, 1, 2], "item": [10, 11, 12],
                        "score": [2.0, 1.0, 1.0]})
    held = pd.DataFrame({"user": [1], "item": [11]})
    with pytest.raises(ZeroDivisionError):
        _lenskit(rec, held, {"map@1": lkm.AveragePrecision(n=1)})
    with pytest.raises(ValueError, match=r"'lenskit' cannot give 'map@1': user "
                                         r"2 has a list and no held-out item"):
        _report(rec, held, ["map@1"], "lenskit")


# ---------------------------------------------------------------------------
# Elliot 1.0.0 (sisinflab/elliot fc27efe): not installable here, so its metric
# code transcribed line by line (file cited at each) on the same data
# ---------------------------------------------------------------------------
def _elliot(rec, held, k, n_items, train=None):
    """Elliot's values: ``recommendations`` ({user: [(item, score)]} in score
    order) kept for the users with test data (evaluator.py,
    _process_test_data), each metric on ``u_r[:cutoff]``."""
    recs = {u: [(i, sc) for i, sc in sorted(zip(g["item"], g["score"]),
                                          key=lambda x: -x[1])]
            for u, g in rec.groupby("user")}
    test = {u: set(g["item"]) for u, g in held.groupby("user")}
    recs = {u: r for u, r in recs.items() if test.get(u)}
    out = {}
    # accuracy/precision/precision.py: sum(rel) / cutoff
    out[f"precision@{k}"] = np.average(
        [sum(i in test[u] for i, _ in r[:k]) / k for u, r in recs.items()])
    # accuracy/recall/recall.py: sum(rel) / len(user rel)
    out[f"recall@{k}"] = np.average(
        [sum(i in test[u] for i, _ in r[:k]) / len(test[u])
         for u, r in recs.items()])

    # accuracy/ndcg/ndcg.py with one rating: gains 1, discount
    # relevance.logarithmic_ranking_discount(r) = 1 / log(r + 2) * log(2)
    def disc(r):
        return 1 / math.log(r + 2) * math.log(2)

    def ndcg(u, r):
        gains = [1] * len(test[u])
        idcg = sum(gains[len(gains) - j - 1] * disc(j)
                   for j in range(min(len(gains), k)))
        dcg = sum((i in test[u]) * disc(j) for j, (i, _) in enumerate(r[:k]))
        return dcg / idcg if dcg > 0 else 0

    out[f"ndcg@{k}"] = np.average([ndcg(u, r) for u, r in recs.items()])

    # accuracy/mrr/mrr.py
    def rr(u, r):
        for j, (i, _) in enumerate(r[:k]):
            if i in test[u]:
                return 1 / (j + 1)
        return 0

    out[f"mrr@{k}"] = np.average([rr(u, r) for u, r in recs.items()])
    # accuracy/hit_rate/hit_rate.py
    out[f"success@{k}"] = np.average(
        [1 if sum(i in test[u] for i, _ in r[:k]) > 0 else 0
         for u, r in recs.items()])
    # coverage/item_coverage/item_coverage.py
    out[f"coverage@{k}"] = len({i[0] for u_r in recs.values()
                                for i in u_r[:k]})
    lists = {u: [i for i, _ in r[:k]] for u, r in recs.items()}
    out[f"gini@{k}"] = float(ref.elliot_gini(lists, n_items))
    out[f"entropy@{k}"] = ref.elliot_shannon_entropy(lists)
    if train is not None:
        # bias/arp/arp.py with popularity_utils/popularity.py's pop_items
        # (distinct training users of each training item)
        pop = train.drop_duplicates().groupby("item")["user"].count().to_dict()
        out[f"arp@{k}"] = np.average(
            [sum(pop[i] for i, _ in r[:k]) / len(r[:k]) for r in recs.values()])
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_elliot_accuracy_against_its_code(seed, k):
    rec, held, _, n_items = _data(seed, ties=False)
    want = _elliot(rec, held, k, n_items)
    names = [f"{m}@{k}" for m in ("precision", "recall", "ndcg", "mrr",
                                  "success", "coverage", "gini")]
    got = _report(rec, held, names, "elliot", n_items=n_items)
    assert got == pytest.approx({n: want[n] for n in names}, rel=1e-12,
                                abs=1e-14)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", KS)
def test_elliot_entropy_and_arp_against_its_code(seed, k):
    # SEntropy on lists of k items; ARP with every recommended item in train
    rec, held, train, n_items = _full_data(seed, k)
    extra = pd.DataFrame({"user": 100, "item": np.arange(n_items)})
    train = pd.concat([train, extra], ignore_index=True)
    want = _elliot(rec, held, k, n_items, train)
    names = [f"entropy@{k}", f"arp@{k}"]
    got = _report(rec, held, names, "elliot", n_items=n_items, train=train)
    assert got == pytest.approx({n: want[n] for n in names}, rel=1e-12)


def test_elliot_refusals():
    lists = {1: [10, 11, 12], 2: [10]}
    held = {1: [10], 2: [11]}
    with pytest.raises(ValueError, match=r"'elliot' cannot give 'entropy@2'.*"
                                         r"user 2 has 1"):
        _report(lists, held, ["entropy@2"], "elliot")
    # ARP's popularity holds the training items only (a KeyError there) and
    # counts distinct users
    with pytest.raises(ValueError, match=r"'elliot' cannot give 'arp@3'.*item "
                                         r"12 is recommended and has no"):
        _report(lists, held, ["arp@3"], "elliot", train={5: [10, 11]})
    # each cutoff reads its own top-K items
    with pytest.raises(ValueError, match=r"'arp@3'.*item 12 is recommended"):
        _report(lists, held, ["arp@3", "arp@2"], "elliot", train={5: [10, 11]})
    # only the top-K items count: ARP over [10, 11] and [10]
    assert _report(lists, held, ["arp@2"], "elliot",
                   train={5: [10, 11], 6: [10]}) == {"arp@2": 1.75}
    with pytest.raises(ValueError, match=r"'arp@1'.*repeats a \(user, item\)"):
        _report(lists, held, ["arp@1"], "elliot",
                train={"user": [5, 5, 6], "item": [10, 10, 11]})
    # nDCG's gains come from the test ratings
    graded = {"user": [1, 1], "item": [10, 11], "relevance": [5, 3]}
    with pytest.raises(ValueError, match=r"'ndcg@2'.*different relevance"):
        _report(lists, graded, ["ndcg@2"], "elliot")
    one = {"user": [1, 1], "item": [10, 11], "relevance": [4, 4]}
    assert _report(lists, one, ["ndcg@2"], "elliot") == pytest.approx(
        {"ndcg@2": 1.0})


# ---------------------------------------------------------------------------
# hand cases: the peers' own test values
# ---------------------------------------------------------------------------
# recommenders tests/unit/recommenders/evaluation/conftest.py, fixtures
# rating_true and rating_pred (the ratings do not matter to the ranking
# metrics: score_type="binary" counts every row of rating_true)
MS_TRUE = {"user": [1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1],
           "item": [3, 1, 4, 5, 6, 7, 2, 5, 6, 8, 9, 10, 11, 12, 13, 14, 1, 2],
           "relevance": [3, 5, 5, 3, 3, 1, 5, 5, 5, 4, 4, 3, 3, 3, 2, 1, 5, 4]}
MS_PRED = {"user": [1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 1],
           "item": [12, 10, 3, 5, 11, 13, 4, 10, 7, 13, 1, 3, 5, 2, 11, 14, 3, 10],
           "score": [12, 14, 13, 12, 11, 10, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,
                     14, 13]}
# fixture diversity_data
MS_TRAIN = {"user": [1, 1, 1, 2, 2, 3, 3, 3], "item": [1, 2, 4, 3, 4, 3, 4, 5]}
MS_RECO = {"user": [1, 1, 2, 2, 3, 3], "item": [3, 5, 2, 5, 1, 2]}
MS_FEATURES = pd.DataFrame(
    [[0.0, 1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0, 0.0],
     [0.0, 0.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0, 1.0]], index=[1, 2, 3, 4, 5])


def test_ms_recommenders_accuracy_hand_case():
    # test_python_evaluation.py: test_python_precision_at_k (0.26666),
    # test_python_recall_at_k (0.37777), test_python_ndcg_at_k (0.38172),
    # test_python_map_at_k (0.23613), TOL = 1e-4
    got = _report(MS_PRED, MS_TRUE, ["precision@10", "recall@10", "ndcg@10",
                                     "map@10"], "ms_recommenders")
    assert got == pytest.approx({"precision@10": 0.26666, "recall@10": 0.37777,
                                 "ndcg@10": 0.38172, "map@10": 0.23613},
                                abs=1e-4)
    # this library's own NDCG, graded gains and all users alike, differs
    own = _report(MS_PRED, MS_TRUE, ["ndcg@10"], None)
    assert own["ndcg@10"] != pytest.approx(0.38172, abs=1e-4)


def test_ms_recommenders_precision_normalisation_hand_case():
    # test_python_precision_at_k: "if we do precision@5 when there is only 3
    # items, we can get a maximum of 3/5" (same_items, 0.6)
    same = {"user": [1, 1, 1, 2, 2, 2], "item": [1, 2, 3, 1, 2, 3],
            "score": [5, 4, 3, 5, 5, 3]}
    held = {"user": same["user"], "item": same["item"]}
    assert _report(same, held, ["precision@5"], "ms_recommenders") == {
        "precision@5": 0.6}
    assert _report(same, held, ["precision@3"], "ms_recommenders") == {
        "precision@3": 1.0}


def test_ms_recommenders_beyond_hand_case():
    # test_catalog_coverage (0.8), test_distributional_coverage (1.9183),
    # test_novelty (2.83333), test_diversity_item_feature_vector (0.5)
    got = _report(MS_RECO, {"user": [1], "item": [3]},
                  ["coverage@2", "entropy@2", "novelty@2", "ild@2"],
                  "ms_recommenders", train=MS_TRAIN, item_features=MS_FEATURES)
    assert got == pytest.approx({"coverage@2": 0.8, "entropy@2": 1.9183,
                                 "novelty@2": 2.83333, "ild@2": 0.5}, abs=1e-4)


def test_ms_recommenders_users_per_metric():
    # precision, recall and MAP average the users in both frames
    # (merge_ranking_true_pred's common_users); NDCG every user of
    # rating_true (its outer merge): u3 has no list and scores 0 there only
    rec = {"u1": ["a", "b"], "u2": ["c", "a"], "u4": ["a"]}
    held = {"u1": ["b"], "u2": ["d"], "u3": ["a"]}
    got = _report(rec, held, ["precision@2", "recall@2", "ndcg@2", "map@2"],
                  "ms_recommenders")
    ndcg_u1 = 1 / math.log2(3)
    assert got == pytest.approx({"precision@2": (1 / 2) / 2, "recall@2": 1 / 2,
                                 "ndcg@2": ndcg_u1 / 3, "map@2": (1 / 2) / 2})
    frame = recommendation_report(rec, held, metrics=["recall@2", "ndcg@2"],
                                  convention="ms_recommenders",
                                  output="per_user")
    assert math.isnan(frame.loc["u3", "recall@2"]) and frame.loc["u3", "ndcg@2"] == 0


# RecTools rectools/metrics/ranking.py, the doctests of MAP, NDCG and MRR
RT_RECO = {1: [7, 8], 2: [1, 2], 3: [1, 2, 3, 4], 4: [1, 2, 3]}
RT_INTERACTIONS = {1: [1, 2], 2: [1], 3: [1, 3, 4], 4: [1, 2, 3]}


def test_rectools_ranking_hand_case():
    # MAP(k=1): [0, 1, 1/3, 1/3]; MAP(k=3): [0, 1, 0.55555556, 1];
    # NDCG(k=1): [0, 1, 1, 1]; NDCG(k=3): [0, 0.46927873, 0.70391809, 1]
    got = recommendation_report(RT_RECO, RT_INTERACTIONS,
                                metrics=["map@1", "map@3", "ndcg@1", "ndcg@3"],
                                convention="rectools", output="per_user")
    np.testing.assert_allclose(got["map@1"], [0, 1, 1 / 3, 1 / 3])
    np.testing.assert_allclose(got["map@3"], [0, 1, 0.55555556, 1], atol=1e-8)
    np.testing.assert_allclose(got["ndcg@1"], [0, 1, 1, 1])
    np.testing.assert_allclose(got["ndcg@3"], [0, 0.46927873, 0.70391809, 1],
                               atol=1e-8)
    # MRR's doctest has its own lists
    reco = {1: [7, 8], 2: [1, 2], 3: [2, 1, 3, 4], 4: [7, 8, 3]}
    got = recommendation_report(reco, RT_INTERACTIONS, metrics=["mrr@1", "mrr@3"],
                                convention="rectools", output="per_user")
    np.testing.assert_allclose(got["mrr@1"], [0, 1, 0, 0])
    np.testing.assert_allclose(got["mrr@3"], [0, 1, 0.5, 1 / 3])


def test_rectools_beyond_hand_cases():
    # tests/metrics/test_novelty.py, TestMeanInvUserFreq.test_correct_miuf_values
    train = {"u1": ["i1", "i2"], "u2": ["i1"], "u3": ["i1"]}
    reco = {"u1": ["i3"], "u2": ["i2", "i3"], "u3": ["i1", "i2"]}
    nov = -math.log2(1 / 3)
    for k, per_user in ((1, [nov, nov, 0]), (2, [nov, nov, nov / 2])):
        got = _report(reco, {"u1": ["i1"]}, [f"novelty@{k}"], "rectools",
                      train=train)
        assert got[f"novelty@{k}"] == pytest.approx(np.mean(per_user))
    # rectools/metrics/popularity.py, AvgRecPopularity's doctest:
    # k=1 [3, 1, 1], k=3 [2.5, 2, 1.5]
    reco = {1: [1, 2], 2: [3, 1, 2], 3: [3, 2]}
    prev = {1: [1, 2], 2: [1, 3], 3: [1, 2]}
    got = _report(reco, {1: [1]}, ["arp@1", "arp@3"], "rectools", train=prev)
    assert got == pytest.approx({"arp@1": 5 / 3, "arp@3": 2.0})


# RecBole tests/metrics/test_topk_metrics.py: pos_idx, pos_len and
# item_matrix, num_items = 8, item_count
RB_POS_IDX = [[0, 0, 0], [1, 1, 1], [1, 0, 1], [0, 0, 1]]
RB_POS_LEN = [1, 3, 4, 2]
RB_ITEMS = [[5, 7, 3], [4, 5, 2], [2, 3, 5], [1, 4, 6], [5, 3, 7]]
RB_COUNT = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}


def test_recbole_accuracy_hand_case():
    # test_hit, test_ndcg, test_mrr, test_map, test_recall, test_precision:
    # the third column (K = 3) of each expected matrix, averaged over users
    lists, held = {}, {}
    for u, (hits, n_pos) in enumerate(zip(RB_POS_IDX, RB_POS_LEN)):
        lists[u] = [f"{u}-{j}" for j in range(3)]
        pos = [f"{u}-{j}" for j in range(3) if hits[j]]
        held[u] = pos + [f"{u}-x{j}" for j in range(n_pos - len(pos))]
    def l2(x):
        return 1 / np.log2(x)

    want = {
        "success@3": np.mean([0, 1, 1, 1]),
        "ndcg@3": np.mean([0, 1, (l2(2) + l2(4)) / (l2(2) + l2(3) + l2(4)),
                           l2(4) / (l2(2) + l2(3))]),
        "mrr@3": np.mean([0, 1, 1, 1 / 3]),
        "map@3": np.mean([0, 1, (1 / 3) * (1 / 1 + 2 / 3), (1 / 3) * (1 / 2)]),
        "recall@3": np.mean([0, 3 / 3, 2 / 4, 1 / 2]),
        "precision@3": np.mean([0, 3 / 3, 2 / 3, 1 / 3]),
    }
    assert _report(lists, held, list(want), "recbole") == pytest.approx(want)


def test_recbole_beyond_hand_case():
    # test_itemcoverage (7 / 8), test_giniindex, test_shannonentropy,
    # test_averagepopularity (its third column, averaged over the 5 users)
    lists = dict(enumerate(RB_ITEMS))
    held = {u: [99] for u in lists}  # every user of rec.items is a test user
    train = {"user": [100 + j for i, c in RB_COUNT.items() for j in range(c)],
             "item": [i for i, c in RB_COUNT.items() for _ in range(c)]}
    got = _report(lists, held, ["coverage@3", "gini@3", "entropy@3", "arp@3"],
                  "recbole", train=train, n_items=8)
    # item 99 (held out, never recommended) takes the place of RecBole's
    # padding id 0, which its num_items counts
    entropy = -np.mean([1 / 15 * np.log(1 / 15), 2 / 15 * np.log(2 / 15),
                        3 / 15 * np.log(3 / 15), 2 / 15 * np.log(2 / 15),
                        4 / 15 * np.log(4 / 15), 1 / 15 * np.log(1 / 15),
                        2 / 15 * np.log(2 / 15)])
    gini = ((-7) * 0 + (-5) * 1 + (-3) * 1 + (-1) * 2 + 1 * 2 + 3 * 2 + 5 * 3
            + 7 * 4) / (8 * (3 * 5))
    assert got == pytest.approx({
        "coverage@3": 7 / 8, "gini@3": gini, "entropy@3": entropy,
        "arp@3": np.mean([6 / 3, 8 / 3, 7 / 3, 8 / 3, 6 / 3])})


def test_recbole_refuses_short_lists_and_ties():
    # rec.items is an (n_users, K) matrix: a test user with fewer than K items
    # has no row there
    lists = {1: [10, 11, 12], 2: [10]}
    held = {1: [10], 2: [11]}
    for metric in ("coverage@2", "gini@2", "entropy@2"):
        with pytest.raises(ValueError, match=rf"convention='recbole' cannot give "
                                             rf"'{metric}'.*user 2 has 1"):
            _report(lists, held, [metric], "recbole")
    # a user without a test item is not evaluated: its short list is no matter
    got = _report(lists, {1: [10]}, ["coverage@2"], "recbole", n_items=4)
    assert got == {"coverage@2": 0.5}
    # the accuracy metrics read the short list as followed by non-relevant
    # items: precision divides by K
    assert _report(lists, held, ["precision@2"], "recbole") == {
        "precision@2": 0.25}
    # torch.topk leaves the order of tied scores unspecified
    rec = {"user": [1, 1, 1], "item": [10, 11, 12], "score": [2.0, 1.0, 1.0]}
    with pytest.raises(ValueError, match=r"'recbole' cannot give 'ndcg@2'.*"
                                         r"tied at ranks 2-3"):
        _report(rec, {1: [12]}, ["ndcg@2"], "recbole")


# lenskit/lkpy tests/eval: (test, list, test items, metric, value); one list
# each, so the mean over lists is the list's value
LK_CASES = [
    ("test_rank_precision.py::test_prec_long_rel", [1, 0, 150, 3, 10],
     list(range(100)), "precision@5", 0.8),
    ("test_rank_precision.py::test_prec_short_items", [1, 0, 150],
     list(range(100)), "precision@5", 2 / 3),
    ("test_rank_precision.py::test_precision_simple_cases", [1, 2, 3, 4],
     [1, 3, 5], "precision@4", 0.5),
    ("test_rank_map.py::test_ap_cutoff_k", [1, 2, 3, 4, 5], [1, 3, 5], "map@3",
     (1.0 + 2 / 3) / 3),
    ("test_rank_map.py::test_ap_partial_hits", [1, 2, 3], [1, 3], "map@3",
     (1.0 + 2 / 3) / 2),
    ("test_rank_map.py::test_ap_partial_hits", [1, 2, 3], [2, 4], "map@3", 0.25),
    ("test_rank_mrr.py::test_mrr_k_trunc", list(range(1, 21)), [20, 10, 5],
     "mrr@5", 0.2),
    ("test_rank_mrr.py::test_mrr_k_short", [1, 2, 3, 4], [2], "mrr@10", 0.5),
    ("test_rank_mrr.py::test_mrr_norel_zero", [1, 2, 3], [4, 5], "mrr@3", 0.0),
]


@pytest.mark.parametrize("case", LK_CASES, ids=[c[0] for c in LK_CASES])
@pytest.mark.filterwarnings("ignore:recommended and held_out have no:UserWarning")
def test_lenskit_hand_cases(case):
    _, items, relevant, metric, value = case
    assert _report({"u": items}, {"u": relevant}, [metric], "lenskit") == \
        pytest.approx({metric: value})


def test_lenskit_users_and_refusals():
    # every output list is measured; a list without test items scores the
    # metric's default 0.0 in list_summary; a test user without a list is not
    # measured (RunAnalysis.measure iterates over the outputs)
    rec = {"a": [1, 2], "b": [3, 4]}
    held = {"a": [2], "c": [1]}
    got = _report(rec, held, ["precision@2", "mrr@2", "success@2"], "lenskit")
    assert got == pytest.approx({"precision@2": 0.25, "mrr@2": 0.25,
                                 "success@2": 0.5})
    # AveragePrecision reads min(|test|, list length): lists of K items
    with pytest.raises(ValueError, match=r"'lenskit' cannot give 'map@3'.*"
                                         r"user 'a' has 2"):
        _report(rec, {"a": [2], "b": [3]}, ["map@3"], "lenskit")
    with pytest.raises(ValueError, match=r"'lenskit' cannot give 'map@2'.*"
                                         r"user 'b' has a list and no held-out"):
        _report(rec, held, ["map@2"], "lenskit")


# ---------------------------------------------------------------------------
# refusals
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("convention,metric", [
    ("ms_recommenders", "gini@5"), ("ms_recommenders", "arp@5"),
    ("ms_recommenders", "long_tail@5"), ("ms_recommenders", "mrr@5"),
    ("ms_recommenders", "r_precision"), ("ms_recommenders", "success@5"),
    ("rectools", "gini@5"), ("rectools", "entropy@5"), ("rectools", "ild@5"),
    ("rectools", "long_tail@5"), ("rectools", "hit_rate@5"),
    ("rectools", "r_precision"), ("rectools", "ndcg"), ("ms_recommenders", "map"),
    ("recbole", "long_tail@5"), ("recbole", "novelty@5"), ("recbole", "ild@5"),
    ("recbole", "hit_rate@5"), ("recbole", "r_precision"), ("recbole", "ndcg"),
    ("lenskit", "recall@5"), ("lenskit", "ndcg@5"), ("lenskit", "dcg@5"),
    ("lenskit", "rbp"), ("lenskit", "hit_rate@5"), ("lenskit", "entropy@5"),
    ("lenskit", "coverage@5"), ("lenskit", "novelty@5"), ("lenskit", "arp@5"),
    ("lenskit", "long_tail@5"), ("lenskit", "ild@5"), ("lenskit", "mrr"),
    ("elliot", "map@5"), ("elliot", "hit_rate@5"), ("elliot", "long_tail@5"),
    ("elliot", "novelty@5"), ("elliot", "ild@5"), ("elliot", "r_precision"),
    ("elliot", "mrr"),
])
def test_a_metric_the_peer_lacks_is_refused(convention, metric):
    rec, held, train, n_items = _data(0, ties=False)
    with pytest.raises(ValueError, match=rf"convention='{convention}' cannot give "
                                         rf"'{metric}'"):
        _report(rec, held, [metric], convention, train=train,
                item_features=np.eye(n_items))


def test_every_refusal_says_why():
    for peer in PEERS.values():
        for name, why in peer.refused.items():
            assert name not in peer.calls and len(why) > 10


def test_every_name_has_a_record():
    assert list(PEERS) == list(NAMES)
    for peer in PEERS.values():
        assert peer.version and peer.source and peer.calls


def test_unknown_convention_and_users():
    with pytest.raises(ValueError, match="convention"):
        _report({"a": [1]}, {"a": [1]}, ["ndcg@1"], "surprise")
    with pytest.raises(ValueError, match="users='union' with convention="):
        recommendation_report({"a": [1]}, {"a": [1]}, convention="rectools",
                              users="union")


def test_rectools_refuses_a_tie_that_changes_the_number():
    # RecTools reads the ranks its caller assigns: a tie of a relevant and a
    # non-relevant item within the top k has no rank
    rec = {"user": [1, 1, 1], "item": [10, 11, 12], "score": [2.0, 1.0, 1.0]}
    held = {"user": [1], "item": [12]}
    for metric in ("ndcg@2", "map@3", "mrr@3", "precision@2", "recall@2"):
        with pytest.raises(ValueError, match=rf"convention='rectools' cannot give "
                                             rf"'{metric}': user 1 has 2 items "
                                             r"tied at ranks 2-3"):
            _report(rec, held, [metric], "rectools")
    # the same tie cannot change precision@3 (both in) nor precision@1
    got = _report(rec, held, ["precision@3", "precision@1", "recall@3"],
                  "rectools")
    assert got == pytest.approx({"precision@3": 1 / 3, "precision@1": 0.0,
                                 "recall@3": 1.0})
    # a tie across the cut changes coverage whatever the relevance
    with pytest.raises(ValueError, match="'coverage@2'"):
        _report(rec, {"user": [1], "item": [99]}, ["coverage@2"], "rectools")
    assert _report(rec, {"user": [1], "item": [99]}, ["coverage@3"], "rectools",
                   n_items=4) == {"coverage@3": 0.75}


def test_ms_recommenders_refuses_recommended_training_pairs():
    # novelty and distributional_coverage raise "reco_df should not contain
    # any user_item pairs that are already shown in train_df"
    for metric in ("novelty@2", "entropy@2"):
        with pytest.raises(ValueError, match=rf"'ms_recommenders' cannot give "
                                             rf"'{metric}'.*user 1 gets item 3"):
            _report(MS_RECO, {"user": [1], "item": [3]}, [metric],
                    "ms_recommenders", train={"user": [1], "item": [3]})
    # catalog_coverage has no such check
    got = _report(MS_RECO, {"user": [1], "item": [3]}, ["coverage@2"],
                  "ms_recommenders", train={"user": [1], "item": [3]})
    assert got == {"coverage@2": 4.0}  # 4 items recommended, 1 in train


def test_ms_recommenders_beyond_needs_train():
    with pytest.raises(ValueError, match=r"'coverage@2'.*pass train="):
        _report(MS_RECO, {"user": [1], "item": [3]}, ["coverage@2"],
                "ms_recommenders")


def test_inputs_not_modified_and_outputs():
    rec, held, train, _ = _data(3)
    copies = rec.copy(), held.copy(), train.copy()
    text = recommendation_report(rec, held, k=3, train=train,
                                 metrics=["ndcg@3", "coverage@3"],
                                 convention="ms_recommenders")
    assert text.splitlines()[0].split() == ["metric", "value", "users"]
    frame = recommendation_report(rec, held, k=3, train=train,
                                  metrics=["ndcg@3", "coverage@3"],
                                  convention="ms_recommenders", output="frame")
    assert list(frame["metric"]) == ["ndcg@3", "coverage@3"]
    pd.testing.assert_frame_equal(rec, copies[0])
    pd.testing.assert_frame_equal(held, copies[1])
    pd.testing.assert_frame_equal(train, copies[2])


def test_confidence_under_a_convention():
    # RecTools' NDCG is DCG over a constant: its interval scales with it
    rec, held, _, _ = _data(5, ties=False)
    got = recommendation_report(rec, held, metrics=["ndcg@5"],
                                convention="rectools", output="dict",
                                confidence=0.9, n_resamples=50, random_state=0)
    ideal = sum(1 / math.log2(i + 2) for i in range(5))
    dcg = recommendation_report(rec, held, metrics=["dcg@5"], output="dict",
                                confidence=0.9, n_resamples=50,
                                random_state=0)["dcg@5"]
    for key in ("value", "ci_low", "ci_high"):
        assert got["ndcg@5"][key] == pytest.approx(dcg[key] / ideal)


@pytest.mark.filterwarnings("ignore:recommended and held_out have no:UserWarning")
def test_ms_recommenders_no_hit_and_no_common_user():
    # test_python_evaluation.py (precision/recall/ndcg/map_at_k with the
    # rating_nohit fixture, every prediction item 100): 0.0; here items
    # 100..117, a repeated pair being a ValueError in this library
    nohit = {"user": MS_PRED["user"], "item": list(range(100, 118)),
             "score": MS_PRED["score"]}
    metrics = ["precision@10", "recall@10", "ndcg@10", "map@10"]
    assert _report(nohit, MS_TRUE, metrics, "ms_recommenders") == dict.fromkeys(
        metrics, 0.0)
    # no user in both frames: python_evaluation returns 0.0 ("if
    # df_hit.shape[0] == 0: return 0.0"); RecTools' mean of no user is nan
    rec, held = {"a": [1]}, {"b": [1]}
    assert _report(rec, held, metrics, "ms_recommenders") == dict.fromkeys(
        metrics, 0.0)
    frame = recommendation_report(rec, held, metrics=["precision@1", "ndcg@1"],
                                  convention="ms_recommenders", output="per_user")
    assert list(frame.columns) == ["precision@1", "ndcg@1"]
    assert math.isnan(frame.loc["b", "precision@1"]) and frame.loc["b", "ndcg@1"] == 0


def test_ms_recommenders_no_common_user_against_the_peer():
    pe = pytest.importorskip("recommenders.evaluation.python_evaluation")
    true = pd.DataFrame({"userID": ["b"], "itemID": [1], "rating": [1.0]})
    pred = pd.DataFrame({"userID": ["a"], "itemID": [1], "prediction": [1.0]})
    got = _report({"a": [1]}, {"b": [1]}, ["precision@1", "recall@1", "ndcg@1",
                                           "map@1"], "ms_recommenders")
    assert got == {"precision@1": pe.precision_at_k(true, pred, k=1),
                   "recall@1": pe.recall_at_k(true, pred, k=1),
                   "ndcg@1": pe.ndcg_at_k(true, pred, k=1),
                   "map@1": pe.map_at_k(true, pred, k=1)}


def test_per_user_holds_the_accuracy_metrics():
    rec, held, train, _ = _data(2, ties=False)
    frame = recommendation_report(rec, held, metrics=["recall@3", "coverage@3"],
                                  convention="rectools", output="per_user")
    assert list(frame.columns) == ["recall@3"]
    assert frame.index.name == "user" and len(frame) == 26  # held-out users
    assert frame["recall@3"].mean() == pytest.approx(
        _report(rec, held, ["recall@3"], "rectools")["recall@3"])
    for metrics in (["recall@3", "novelty@3"], ["coverage@3"]):
        with pytest.raises(ValueError, match="per_user.*accuracy metrics only"):
            recommendation_report(rec, held, metrics=metrics, train=train,
                                  convention="rectools", output="per_user")


def test_peer_records_reference_the_presets_instead_of_copying_them():
    # the MAP normaliser, the precision denominator, the NDCG gain and the tie
    # order of the accuracy metrics are the ranking preset's (by name): no
    # record field holds a switch of a preset, and every accuracy metric a
    # peer gives has a preset entry
    from sklearn_rankeval._metrics._conventions import PRESETS
    from sklearn_rankeval._metrics._registry import LIST_METRICS
    from sklearn_rankeval._recommend._peers import Peer

    assert not set(Peer._fields) & {"k_denominator", "gain", "undefined",
                                    "precision", "map", "ndcg"}
    for peer in PEERS.values():
        for metric in peer.calls:
            if metric in LIST_METRICS:
                LIST_METRICS[metric].check_options(k=1, **peer.options.get(metric, {}))
            else:
                assert isinstance(PRESETS[peer.ranking_for(metric)][metric], dict)


def test_the_docs_are_generated_from_the_records():
    from sklearn_rankeval._recommend._peers import conventions_table

    doc = recommendation_report.__doc__
    header = doc[doc.index("convention : {"):].splitlines()[0]
    assert header == ("convention : {" + ", ".join(f"'{n}'" for n in PEERS)
                      + "}, default=None")
    table = conventions_table()
    for peer in PEERS.values():
        assert f"{peer.library} {peer.version}" in table
        for name, call in peer.calls.items():
            assert f"``{name}``: ``{call}``" in table
        for name in peer.refused:
            assert f"``{name}``: " in table
    for name in NAMES:
        assert f"``{name}``" in table
