"""``recommendation_report(convention=...)``: a peer library's numbers by name.

One :class:`Peer` record per library (:data:`PEERS`) holds, as data, the
rules on which the libraries differ, and nothing else:

- the accuracy metrics follow a ranking convention of ``_metrics``
  (``Peer.ranking``, or ``Peer.ranking_of`` for one metric), referenced by
  name: its MAP normaliser, precision denominator, NDCG gain, tie order and
  the value of a user without relevant items are that preset's, never copied
  here;
- the beyond-accuracy metrics take the registry options of
  ``Peer.options`` (``LIST_METRICS``: coverage's denominator, novelty's
  variant, entropy's unit, Gini's form);
- which users each metric averages (``Peer.users``), RecTools' NDCG ideal
  (``ndcg_ideal``), and what a ranking convention cannot say: a tie order
  the peer leaves to its caller, lists shorter than K where the peer reads a
  full list, inputs on which the peer fails or reads ratings (refused by
  :func:`apply`).

:func:`metric_rule` turns a record into the rule of one metric, which
``recommendation_report``'s one pipeline applies; asking for a metric the
peer lacks is a ``ValueError`` naming the metric and the convention: never
a number computed with another rule.  The documentation's blocks per library
are generated from the records (:func:`conventions_table`).
"""

import math
from typing import NamedTuple

import numpy as np

from .._core import InvalidArgumentError, check_option
from .._engine import known_distinct
from .._metrics import (
    LIST_METRICS,
    distinct_pairs,
    parse_metrics,
    resolved_metrics,
    tie_free_scores,
)
from ._inputs import label
from ._lists import list_rank, tie_blocks

__all__ = ["NAMES", "PEERS", "Peer", "apply", "check_peer", "convention_doc",
           "conventions_table", "metric_rule"]

#: Every name ``convention=`` knows; those without a record raise.
NAMES = ("ms_recommenders", "recbole", "rectools", "lenskit", "elliot")
#: Accuracy metrics that only count the items above the cut (a tie inside
#: the top ``k`` does not change them).
_CUT_ONLY = ("precision", "recall", "success", "hit_rate")


class Peer(NamedTuple):
    """The rules of one library, one field per rule on which peers differ.

    ``refused`` says why a metric the peer lacks is refused; ``calls``: for
    each metric the peer gives, the peer's call that gives our number
    (``K``: the cutoff).
    """

    name: str
    library: str
    version: str
    source: str
    #: the ranking convention of ``_metrics`` used for the accuracy metrics
    ranking: str
    #: {metric name or "accuracy" / "beyond": "both" (users with a list and a
    #: held-out item), "held_out" or "recommended"}
    users: dict
    #: every held-out row is relevant (gain 1), whatever ``relevance`` says
    relevance: str
    #: "input": tied scores in row order (a stable sort); "refuse": the peer
    #: reads ranks its caller assigns, so a tie that can change a number raises
    ties: str
    ties_note: str
    #: the metrics (our names) that need ``train`` (the peer's call takes it)
    needs_train: tuple
    #: the metrics (our names) refused because the peer refuses the input:
    #: recommended (user, item) pairs found in the training interactions
    train_disjoint: tuple
    #: the value of an accuracy metric when no user is evaluated
    no_users: float
    calls: dict
    refused: dict
    missing: str
    #: {beyond-accuracy metric: its registry options under the peer}
    options: dict = {}
    #: NDCG's ideal: ``"achievable"`` (min(R, k) relevant items, the ranking
    #: preset's NDCG) or ``"k"`` (k relevant items for every user: DCG@k
    #: over the DCG of k relevant items)
    ndcg_ideal: str = "achievable"
    #: intra-list diversity: the item similarity (None: the registry's)
    ild: str = None
    #: the metrics (our names) that read a full list of K items for every
    #: evaluated user (the peer's input is an ``(n_users, K)`` matrix): a
    #: shorter list is a ValueError naming the user
    full_lists: tuple = ()
    #: {metric: ranking convention} where a metric follows another preset
    #: than ``ranking``
    ranking_of: dict = {}
    #: the metrics (our names) the peer cannot compute for a user with a list
    #: and no held-out item (it fails): such a user is a ValueError
    need_held_out: tuple = ()
    need_held_out_note: str = ""
    #: the metrics (our names) whose value the peer takes from the held-out
    #: ratings: a relevance column that varies within a user is a ValueError
    uniform_relevance: tuple = ()
    #: the metrics (our names) whose popularity is the peer's number of
    #: distinct training users of each training item: a recommended item
    #: without training interactions (the peer's KeyError) or a repeated
    #: training pair (users != rows) is a ValueError
    train_users: tuple = ()

    def ranking_for(self, name):
        return self.ranking_of.get(name, self.ranking)

    def users_of(self, name, beyond):
        return self.users.get(name, self.users["beyond" if beyond else "accuracy"])


_MS_SOURCE = "recommenders/evaluation/python_evaluation.py"
_RB_SOURCE = ("recbole/evaluator/metrics.py, base_metric.py, collector.py "
              "(rec.topk, rec.items: torch.topk of the full-sort scores)")
_LK_SOURCE = ("lenskit/metrics/ranking/_pr.py, _map.py, _recip.py, _hit.py, "
              "_gini.py, _dcg.py, _weighting.py; lenskit/metrics/bulk.py "
              "(RunAnalysis.measure, list_summary)")
_EL_SOURCE = ("elliot/evaluation/metrics/accuracy/{precision,recall,ndcg,mrr,"
              "hit_rate,map}, coverage/item_coverage, diversity/{gini_index,"
              "shannon_entropy}, bias/{arp,aplt}, novelty/{EFD,EPC}; "
              "elliot/evaluation/evaluator.py, relevance/relevance.py, "
              "popularity_utils/popularity.py (sisinflab/elliot fc27efe)")
_RT_SOURCE = ("rectools/metrics/classification.py, ranking.py, novelty.py, "
              "catalog.py, popularity.py, scoring.py (calc_metrics)")

PEERS = {
    "ms_recommenders": Peer(
        name="ms_recommenders", library="Microsoft Recommenders",
        version="1.2.1", source=_MS_SOURCE, ranking="spark",
        users={"accuracy": "both", "ndcg": "held_out", "beyond": "recommended"},
        relevance="every row of rating_true (score_type='binary')",
        ties="input",
        ties_note=("its get_top_k_items sorts by user and score with pandas' "
                   "multi-key sort_values, a stable lexsort: tied items stay "
                   "in row order"),
        options={"coverage": {"denominator": "train_items"},
                 "novelty": {"variant": "interactions"}},
        ild="cosine of the item_features rows (item_sim_measure="
            "'item_feature_vector'; a zero row has similarity 0)",
        needs_train=("coverage", "entropy", "novelty", "ild"),
        train_disjoint=("entropy", "novelty", "ild"),
        no_users=0.0,  # "if df_hit.shape[0] == 0: return 0.0"
        calls={
            "precision": "precision_at_k(rating_true, rating_pred, k=K)",
            "recall": "recall_at_k(rating_true, rating_pred, k=K)",
            "ndcg": "ndcg_at_k(rating_true, rating_pred, k=K)",
            "map": "map_at_k(rating_true, rating_pred, k=K)",
            "coverage": "catalog_coverage(train_df, reco_df) on the top-K lists",
            "entropy": "distributional_coverage(train_df, reco_df) on the "
                       "top-K lists",
            "novelty": "novelty(train_df, reco_df) on the top-K lists",
            "ild": "diversity(train_df, reco_df, item_feature_df, "
                   "item_sim_measure='item_feature_vector') on the top-K lists",
        },
        refused={
            "r_precision": "its r_precision_at_k averages only over the users "
                           "with a hit among their first R items (a NaN "
                           "skipped by mean), no rule of this library",
            "gini": "it has no Gini index",
            "arp": "it has no average recommendation popularity",
            "long_tail": "it has no long-tail share",
        },
        missing=("Microsoft Recommenders' python_evaluation has precision_at_k, "
                 "recall_at_k, ndcg_at_k and map_at_k and the beyond-accuracy "
                 "catalog_coverage, distributional_coverage, novelty and "
                 "diversity"),
    ),
    "recbole": Peer(
        name="recbole", library="RecBole", version="1.2.1", source=_RB_SOURCE,
        ranking="recbole",
        # the full-sort evaluation scores the users of the test set only
        users={"accuracy": "held_out", "beyond": "held_out"},
        relevance="every row of the test set (positive_u, positive_i)",
        ties="refuse",
        ties_note=("its collector takes the top K with torch.topk, whose order "
                   "of tied scores is unspecified: a tie that can change a "
                   "number is a ValueError (lists given in order have no tie)"),
        # Precision divides by arange(1, K + 1): K, its lists always full
        options={"entropy": {"unit": "nats_per_item"}},
        needs_train=("arp",), train_disjoint=(),
        no_users=math.nan,  # the mean of an empty (0, K) matrix
        calls={
            "precision": "Precision (topk=[K])",
            "recall": "Recall (topk=[K])",
            "ndcg": "NDCG (topk=[K])",
            "map": "MAP (topk=[K])",
            "mrr": "MRR (topk=[K])",
            "success": "Hit (topk=[K])",
            # data.num_items is Dataset.num(ITEM_ID_FIELD): it counts the
            # padding id 0, so a RecBole run is n_items=dataset.item_num
            "coverage": "ItemCoverage (topk=[K]), data.num_items = n_items "
                        "(RecBole's counts its padding id 0)",
            "gini": "GiniIndex (topk=[K]), data.num_items = n_items",
            "entropy": "ShannonEntropy (topk=[K])",
            "arp": "AveragePopularity (topk=[K]), data.count_items of train",
        },
        refused={
            "hit_rate": "RecBole's Hit is the share of users with a hit: "
                        "success@K",
            "long_tail": "its TailPercentage takes as tail the items with at "
                         "most tail_ratio training interactions, or the "
                         "tail_ratio (default 0.1) least popular training "
                         "items in the order of RecBole's internal item ids "
                         "for equal counts; not the complement of a short "
                         "head, and that tie order is RecBole's remapping",
            "novelty": "it has no novelty metric",
            "ild": "it has no intra-list diversity",
            "r_precision": "it has no R-precision",
        },
        missing=("RecBole's top-K metrics are Hit, MRR, MAP, Recall, NDCG, "
                 "Precision and the beyond-accuracy ItemCoverage, "
                 "AveragePopularity, ShannonEntropy, GiniIndex and "
                 "TailPercentage"),
        full_lists=("coverage", "gini", "entropy", "arp"),
    ),
    "lenskit": Peer(
        name="lenskit", library="LensKit", version="2025.8.1", source=_LK_SOURCE,
        ranking="ranx", ranking_of={"precision": "xgboost", "map": "recbole"},
        # RunAnalysis.measure scores every output list; a list without test
        # items gets an empty test list (NaN, or Precision's 0), which
        # list_summary fills with the metric's default, 0.0; a test user
        # without a list is not measured
        users={"accuracy": "recommended", "beyond": "recommended"},
        relevance="every item of the test ItemList (gain=None: binary)",
        ties="refuse",
        ties_note=("its metrics read the order of the ItemList its caller "
                   "builds (ordered=True), and tied scores have no order: a "
                   "tie that can change a number is a ValueError (lists given "
                   "in order have no tie)"),
        needs_train=(), train_disjoint=(),
        no_users=math.nan,  # the mean of an empty list-metric frame
        calls={
            "precision": "Precision(n=K)",
            "map": "AveragePrecision(n=K)",
            "mrr": "RecipRank(n=K)",
            "success": "Hit(n=K)",
            "gini": "ListGini(n=K, items=n_items)",
        },
        refused={
            "recall": "its Recall divides the hits by min(len(test), K), not by "
                      "len(test)",
            "ndcg": "its NDCG's default LogRankWeight discounts rank i by "
                    "max(log2 i, 1) (ranks 1 and 2 weigh 1), not log2(i + 1)",
            "dcg": "its DCG's default LogRankWeight discounts rank i by "
                   "max(log2 i, 1), not log2(i + 1)",
            "rbp": "its RBP(n=K) truncates the list at K (patience 0.85); this "
                   "library's rbp has no cutoff",
            "hit_rate": "LensKit's Hit is the share of lists with a hit: "
                        "success@K",
            "entropy": "its entropy and rank_biased_entropy are over item "
                       "categories of one list (with 1e-6 smoothing), not the "
                       "exposure of the catalog",
            "coverage": "it has no catalog coverage",
            "novelty": "its MeanPopRank is the mean popularity quantile "
                       "(obscurity), not -log2 of the popularity",
            "arp": "its MeanPopRank is the mean popularity quantile, not the "
                   "mean training interactions",
            "long_tail": "it has no long-tail share",
            "ild": "it has no intra-list diversity",
        },
        missing=("LensKit's per-list metrics are Precision, Recall, "
                 "AveragePrecision, RecipRank, Hit, NDCG, DCG, RBP, "
                 "MeanPopRank and the global ListGini and ExposureGini"),
        # AveragePrecision over a truncated list divides by min(len(test), list
        # length): min(R, K) only for a list of K items
        full_lists=("map",),
        need_held_out=("map",),
        need_held_out_note=("LensKit's AveragePrecision divides by min(len(test), "
                            "len(recs)) = 0 (a ZeroDivisionError)"),
    ),
    "elliot": Peer(
        name="elliot", library="Elliot", version="1.0.0", source=_EL_SOURCE,
        ranking="recbole",
        # Evaluator._process_test_data keeps the recommendations of the users
        # with test data; each metric then skips users without relevant items
        users={"accuracy": "both", "beyond": "both"},
        relevance=("every row of the test set: its rows at or above "
                   "relevance_threshold (pass only those); nDCG's gains 2 ** "
                   "(rating - threshold + 1) - 1 cancel for items of one rating"),
        ties="refuse",
        ties_note=("its metrics read the recommendation lists in the order "
                   "its models write them: a tie that can change a number is "
                   "a ValueError (lists given in order have no tie)"),
        options={"coverage": {"denominator": "items"},
                 "gini": {"form": "diversity"}},
        needs_train=("arp",), train_disjoint=(),
        no_users=math.nan,  # np.average of no user
        calls={
            "precision": "Precision (cutoff K)",
            "recall": "Recall (cutoff K)",
            "ndcg": "nDCG (cutoff K)",
            "mrr": "MRR (cutoff K)",
            "success": "HR (cutoff K)",
            "coverage": "ItemCoverage (cutoff K)",
            "gini": "Gini (cutoff K), num_items = n_items",
            "entropy": "SEntropy (cutoff K)",
            "arp": "ARP (cutoff K)",
        },
        refused={
            "map": "its MAP averages Precision@n over n = 1..K, not the "
                   "average precision",
            "hit_rate": "Elliot's HR is the share of users with a hit: "
                        "success@K",
            "long_tail": "its APLT's short head stops at the first item that "
                         "reaches 80% of the training interactions in its "
                         "popularity order (ties in Elliot's item order, "
                         "not kept whole) and its long tail holds training "
                         "items only",
            "novelty": "its EFD and EPC weigh the novelty of each relevant "
                       "recommended item by a rank discount, not the "
                       "-log2 popularity of every recommended item",
            "ild": "it has no cosine intra-list diversity",
            "r_precision": "it has no R-precision",
        },
        missing=("Elliot's metrics reproduced here are Precision, Recall, "
                 "nDCG, MRR, HR, ItemCoverage, Gini, SEntropy and ARP"),
        # SEntropy averages per list -log2 p_i over the lists: the entropy of
        # the exposure when every list holds K items
        full_lists=("entropy",),
        uniform_relevance=("ndcg",),
        train_users=("arp",),
    ),
    "rectools": Peer(
        name="rectools", library="RecTools", version="0.19.0",
        source=_RT_SOURCE, ranking="ranx",
        users={"accuracy": "held_out", "beyond": "recommended"},
        relevance="every row of interactions",
        ties="refuse",
        ties_note=("it reads the rank column (Columns.Rank) that its caller "
                   "assigns, and tied scores have no rank: a tie that can "
                   "change a number is a ValueError (lists given in order have "
                   "no tie)"),
        ndcg_ideal="k", needs_train=("novelty", "arp"),
        train_disjoint=(), no_users=math.nan,  # the mean of an empty Series
        calls={
            "precision": "Precision(k=K)",
            "recall": "Recall(k=K)",
            "ndcg": "NDCG(k=K) (divide_by_achievable=False)",
            "map": "MAP(k=K) (divide_by_k=False)",
            "mrr": "MRR(k=K)",
            "success": "HitRate(k=K)",
            "coverage": "CatalogCoverage(k=K, normalize=True), catalog of "
                        "n_items items",
            "novelty": "MeanInvUserFreq(k=K)",
            "arp": "AvgRecPopularity(k=K)",
        },
        refused={
            "hit_rate": "RecTools' HitRate is the share of users with a hit: "
                        "success@K",
            "gini": "it has no Gini index",
            "entropy": "it has no entropy of the exposure",
            "long_tail": "it has no long-tail share",
            "ild": "its IntraListDiversity takes a distance calculator "
                   "(Hamming on feature sets), not the cosine of "
                   "item_features rows",
        },
        missing=("RecTools' per-user metrics are Precision, Recall, NDCG, MAP, "
                 "MRR, HitRate and the beyond-accuracy CatalogCoverage, "
                 "MeanInvUserFreq and AvgRecPopularity"),
    ),
}




PEERS = {name: PEERS[name] for name in NAMES if name in PEERS}  # NAMES' order


def check_peer(convention):
    """The :class:`Peer` of ``convention``; unknown or not yet reproduced raise."""
    check_option(convention, "convention", NAMES)
    if convention not in PEERS:
        raise ValueError(
            f"convention={convention!r} is not reproduced by "
            f"recommendation_report yet (reproduced: "
            f"{', '.join(repr(p) for p in PEERS)}); use one of those or None.")
    return PEERS[convention]


def _refuse(peer, name, why):
    raise ValueError(f"convention={peer.name!r} cannot give {name!r}: {why}.")


def _ideal_dcg(k):
    """The DCG of ``k`` relevant items (RecTools' NDCG ideal)."""
    return float((1 / np.log2(np.arange(2, k + 2))).sum())


def metric_rule(peer, name, spec, options):
    """The rule of one metric under ``peer``: ``(users, ranking convention,
    metric computed, scale, options)``; a metric it lacks raises."""
    if spec.name not in peer.calls:
        _refuse(peer, name, peer.refused.get(spec.name, peer.missing))
    if spec.input == "lists":
        opts = spec.check_options(**{**options, **peer.options.get(spec.name, {})})
        return peer.users_of(spec.name, True), None, name, 1.0, opts
    k = options.get("k")
    if k is None:
        _refuse(peer, name, f"{peer.library} computes {spec.name} at a cutoff K "
                            f"only: ask for '{spec.name}@K'")
    if spec.name == "ndcg" and peer.ndcg_ideal == "k":
        # DCG@k over the DCG of k relevant items
        return (peer.users_of("ndcg", False), peer.ranking_for("ndcg"),
                f"dcg@{k}", 1.0 / _ideal_dcg(k), options)
    return (peer.users_of(spec.name, False), peer.ranking_for(spec.name), name,
            1.0, options)


# ---------------------------------------------------------------------------
# what the peers refuse in the data
# ---------------------------------------------------------------------------
def apply(peer, metrics, inp, sets):
    """The inputs as the peer reads them: raise where they would give the
    peer another rule; else the scores made tie-free in row order (the
    peer's stable sort, or, for a peer that refuses ties, ties that change
    no number).

    ``metrics``: the report's :class:`~._plan.Metric` s; ``inp``: the
    :class:`~._inputs.Inputs`; ``sets``: ``{users: mask}`` of the users
    each set holds.
    """
    for m in metrics:
        if m.spec.name in peer.needs_train and not inp.has_train:
            why = (f"{peer.library} computes it with {peer.calls[m.spec.name]}, "
                   f"which needs the training interactions")
            raise InvalidArgumentError(
                "train", f"is needed by {m.label!r} under the {peer.name!r} "
                f"convention: {why}.",
                message=f"convention={peer.name!r} cannot give {m.label!r}: "
                        f"{why}: pass train=.")
    if peer.ties == "refuse" and inp.rec_score is not None:
        _check_ties(peer, metrics, inp)
    kinds = {m.spec.name for m in metrics}
    if kinds & set(peer.train_disjoint):
        _check_train_disjoint(peer, metrics, inp)
    list_size = np.bincount(inp.rec_user, minlength=inp.n_users)
    lone = (list_size > 0) & ~(np.bincount(inp.held_user, minlength=inp.n_users) > 0)
    for m in metrics:
        short = sets[m.users] & (list_size < m.options["k"]) if "k" in m.options \
            else None
        if m.spec.name in peer.full_lists and short.any():
            u = np.flatnonzero(short)[0]
            _refuse(peer, m.label,
                    f"{peer.library} reads a list of {m.options['k']} items for "
                    f"every evaluated user and user {label(inp.user_labels[u])!r} "
                    f"has {list_size[u]}")
        if m.spec.name in peer.need_held_out and lone.any():
            u = np.flatnonzero(lone)[0]
            _refuse(peer, m.label,
                    f"user {label(inp.user_labels[u])!r} has a list and no "
                    f"held-out item: {peer.need_held_out_note}")
    _check_relevance(peer, metrics, inp)
    if inp.rec_score is not None and inp.rec_score.shape[0]:
        inp = inp._replace(rec_score=tie_free_scores(inp.rec_score, "input",
                                                     groups=inp.rec_user))
    _check_train_users(peer, metrics, inp, sets)
    return inp


def _check_ties(peer, metrics, inp):
    """Under ``ties="refuse"``: raise where a tie can change a number.

    A rank-sensitive accuracy metric at ``k``: a tie of items that differ in
    relevance starting within the top ``k``; a cut-only one (precision,
    recall, success): such a tie across the cut; a beyond-accuracy metric at
    ``K``: any tie across the cut.
    """
    ru = inp.rec_user
    if ru.shape[0] == 0 or known_distinct(inp.rec_score, ru):
        return
    order, block, first, start, size, _ = tie_blocks(ru, inp.rec_score,
                                                    no_tie_shortcut=False)
    end = start + size
    rel = (inp.held_row >= 0)[order].astype(np.int64)
    n_blocks = start.shape[0]
    mixed = (np.bincount(block, weights=rel, minlength=n_blocks) % size) != 0
    first_row = order[first]
    for m in metrics:
        k = m.options["k"]
        across = (start < k) & (end > k)
        if m.spec.input == "lists":
            bad = across
        elif m.spec.name in _CUT_ONLY:
            bad = across & mixed
        else:
            bad = (start < k) & (size > 1) & mixed
        if bad.any():
            b = np.flatnonzero(bad)[0]
            what = "" if m.spec.input == "lists" else " that differ in relevance"
            _refuse(peer, m.label,
                    f"user {label(inp.user_labels[ru[first_row[b]]])!r} has "
                    f"{size[b]} items tied at ranks {start[b] + 1}-{end[b]}"
                    f"{what}, and {peer.library} reads the ranks its caller "
                    "assigns (a tie has none); pass the lists in order or "
                    "untied scores")


def _in_train(inp):
    """Whether each recommended (user, item) pair is a training pair: a sort
    of the distinct training pairs and a binary search (NumPy 2's hash-based
    ``np.isin`` is many times slower on int64 keys)."""
    width = max(inp.item_labels.shape[0], 1)
    r_key = inp.rec_user * width + inp.rec_item
    pair_user, pair_item = distinct_pairs(inp.train_user, inp.train_item)
    keys = pair_user * width + pair_item  # sorted, as the pairs are
    if keys.shape[0] == 0:
        return np.zeros(r_key.shape[0], dtype=bool)
    pos = np.minimum(np.searchsorted(keys, r_key), keys.shape[0] - 1)
    return keys[pos] == r_key


def _check_train_disjoint(peer, metrics, inp):
    seen = _in_train(inp)
    if not seen.any():
        return
    for m in metrics:
        if m.spec.name in peer.train_disjoint:
            _refuse(peer, m.label,
                    f"{peer.library} refuses recommendations of items the user "
                    "has in train (\"reco_df should not contain any user_item "
                    "pairs that are already shown in train_df\"): user "
                    f"{label(inp.user_labels[inp.rec_user[seen][0]])!r} gets "
                    f"item {label(inp.item_labels[inp.rec_item[seen][0]])!r}")


def _check_relevance(peer, metrics, inp):
    """``Peer.uniform_relevance``: a gain that varies within a user."""
    hu, gain = inp.held_user, inp.held_gain
    for m in metrics:
        if m.spec.name not in peer.uniform_relevance or not inp.graded \
                or not hu.shape[0]:
            continue
        low, high = np.full(inp.n_users, np.inf), np.full(inp.n_users, -np.inf)
        np.minimum.at(low, hu, gain)
        np.maximum.at(high, hu, gain)
        if (low < high).any():
            u = np.flatnonzero(low < high)[0]
            _refuse(peer, m.label,
                    f"user {label(inp.user_labels[u])!r} has held-out items of "
                    f"different relevance, and {peer.library}'s gains come "
                    "from the ratings (2 ** (rating - threshold + 1) - 1); "
                    "pass items of one rating or no relevance column")


def _check_train_users(peer, metrics, inp, sets):
    """``Peer.train_users``: popularity as distinct training users of the
    training items only."""
    wanted = [m for m in metrics if m.spec.name in peer.train_users]
    if not wanted:
        return
    ru, ri = inp.rec_user, inp.rec_item
    rank = inp.rec_rank
    if inp.rec_score is not None:
        rank = list_rank(ru, inp.rec_score)
    n_codes = max(inp.item_labels.shape[0], 1)
    trained = np.bincount(inp.train_item, minlength=n_codes) > 0
    for m in wanted:
        listed = ri[(rank < m.options["k"]) & sets[m.users][ru]]
        if not trained[listed].all():
            i = listed[~trained[listed]][0]
            _refuse(peer, m.label,
                    f"item {label(inp.item_labels[i])!r} is recommended and has "
                    f"no training interaction ({peer.library}'s popularity "
                    "holds the training items only: a KeyError)")
        if distinct_pairs(inp.train_user, inp.train_item)[0].shape[0] != \
                inp.train_user.shape[0]:
            _refuse(peer, m.label,
                    f"train repeats a (user, item) pair: {peer.library} counts "
                    "the distinct training users of an item, this library its "
                    "training rows")


# ---------------------------------------------------------------------------
# the documentation: the ``convention`` parameter and the blocks per library
# ---------------------------------------------------------------------------
def convention_doc():
    """The ``convention`` parameter of ``recommendation_report`` (numpydoc)."""
    import textwrap

    later = [name for name in NAMES if name not in PEERS]
    body = (
        "Another library's numbers by name (:ref:`conventions-recommend`): "
        + "; ".join(f"``'{p.name}'``, {p.library} {p.version}"
                    for p in PEERS.values())
        + ".  Its users per metric, every held-out row relevant, its MAP "
        "normaliser, NDCG ideal, coverage denominator, novelty and entropy "
        "variants and whether every list holds K items.  A metric "
        "the library lacks, or a tie whose order it leaves undefined, is a "
        "``ValueError`` naming the metric and the convention.  ``users=`` "
        "must then stay at its default.  "
        + (", ".join(f"``'{name}'``" for name in later)
           + " are not reproduced yet (a ``ValueError``).  " if later else "")
        + "None: this library's rules.")
    header = ("convention : {" + ", ".join(f"'{name}'" for name in PEERS)
              + "}, default=None")
    return header + "\n" + textwrap.fill(
        body, width=76, initial_indent="    ", subsequent_indent="    ",
        break_on_hyphens=False)


_USERS_TEXT = {"both": "users with a list and a held-out item",
               "held_out": "users with a held-out item (no list: 0 on an "
                           "accuracy metric)",
               "recommended": "users with a list"}
#: The text of each value of the rules (ranking presets' switches, the
#: registry options of the beyond-accuracy metrics, the peers' own fields).
_TEXTS = {
    ("precision", "k_denominator"): ("P@K divides by",
                                     {"k": "K", "retrieved": "min(K, n)"}),
    ("map", "k_denominator"): ("AP@K divides by",
                               {"min": "min(R, K)", "relevant": "R",
                                "hits": "the hits"}),
    ("coverage", "denominator"): ("coverage@K divides by",
                                  {"catalog": "n_items",
                                   "train_items": "the distinct training items",
                                   "items": "1 (the number of covered items)"}),
    ("novelty", "variant"): ("novelty@K",
                             {"users": "mean over users of the mean "
                                       "-log2(training users of i / training "
                                       "users)",
                              "interactions": "pooled over all recommendations: "
                                              "-log2(training rows of i / "
                                              "training rows), 0 for an item "
                                              "without any"}),
    ("entropy", "unit"): ("entropy@K",
                          {"bits": "-sum p_i log2 p_i, p_i = c_i / sum c (bits)",
                           "nats_per_item": "-sum p_i ln p_i over the distinct "
                                            "recommended items, divided by their "
                                            "number"}),
    ("gini", "form"): ("gini@K",
                       {"equality_0": "sum_j (2j - n - 1) c_(j) / (n sum c), c "
                                      "ascending over the n_items catalog items "
                                      "(0: equal exposure)",
                        "diversity": "1 - G n / (n - 1), G the Gini index of "
                                     "the n_items catalog items (1: equal "
                                     "exposure)"}),
}
_IDEAL = {"achievable": "min(R, K) relevant items (binary gain)",
          "k": "K relevant items for every user (binary gain)"}
_LISTS = (
    ("full_lists", "Lists of K items for every evaluated user, for"),
    ("need_held_out", "A list without held-out items is refused for"),
    ("uniform_relevance", "Held-out items of one rating per user, for"),
    ("train_users", "Popularity: distinct training users; recommended items "
                    "in train and no repeated training pair, for"),
)


def _option(peer, metric, option):
    """The value of a rule of ``peer`` for ``metric``: the ranking preset's
    (accuracy), or the registry option under the peer (beyond accuracy)."""
    if metric in LIST_METRICS:
        spec = LIST_METRICS[metric]
        return spec.check_options(k=1, **peer.options.get(metric, {}))[option]
    (_, _, opts), = resolved_metrics(parse_metrics([f"{metric}@10"]),
                                     peer.ranking_for(metric))
    return opts[option]


def _rules_text(peer):
    lines = []
    users = {}
    for name in peer.calls:
        value = peer.users_of(name, name in LIST_METRICS)
        users.setdefault(value, []).append(name)
    lines.append("Users: " + "; ".join(
        f"{', '.join(metrics)}: {_USERS_TEXT[value]}"
        for value, metrics in users.items()) + ".")
    lines.append(f"Relevant: {peer.relevance}.")
    lines.append(f"Ties: {peer.ties_note}.")
    lines.append(f"Accuracy rules of ``convention={peer.ranking!r}``" + "".join(
        f"; {name}: of ``convention={value!r}``"
        for name, value in peer.ranking_of.items()) + ".")
    for (metric, option), (text, values) in _TEXTS.items():
        if metric in peer.calls:
            lines.append(f"{text}: {values[_option(peer, metric, option)]}.")
        if metric == "map" and "ndcg" in peer.calls:
            lines.append(f"NDCG's ideal: {_IDEAL[peer.ndcg_ideal]}.")
    for field, text in _LISTS:
        value = getattr(peer, field)
        if value:
            lines.append(f"{text}: {', '.join(value)}.")
    if peer.ild is not None:
        lines.append(f"ild@K: {peer.ild}.")
    return lines


def conventions_table():
    """The reST of :data:`PEERS`, one block per library (generated, never
    hand-written): a rubric, then lists of what is reproduced (each metric
    with the library's call), the rules and what is refused and why (lists,
    not a table, so that long calls and paths wrap in the page's column)."""
    out = []
    for peer in PEERS.values():
        out += [f".. rubric:: ``{peer.name}``: {peer.library} {peer.version}", "",
                f"Source read: ``{peer.source}``.", "",
                "Reproduced (the metric: the library's call):", ""]
        out += [f"- ``{name}``: ``{call}``" for name, call in peer.calls.items()]
        out += ["", "Rules:", ""]
        out += [f"- {line}" for line in _rules_text(peer)]
        out += ["", "Refused:", ""]
        out += [f"- ``{name}``: {why}" for name, why in peer.refused.items()]
        out += [f"- any other metric ({peer.missing});",
                "- a metric without ``@K``.", ""]
    for name in NAMES:
        if name not in PEERS:
            out += [f".. rubric:: ``{name}``", "",
                    "Not reproduced yet: any metric is a ``ValueError``.", ""]
    return "\n".join(out)
