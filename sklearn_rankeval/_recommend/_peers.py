"""``recommendation_report(convention=...)``: a peer library's numbers by name.

One :class:`Peer` record per library (:data:`PEERS`) holds, field by field,
the rules on which the libraries differ: which users are averaged, the
precision denominator, the order of tied items at the cut, the MAP
normaliser, the NDCG ideal, the coverage denominator, the novelty variant,
the entropy variant, the Gini direction, the long-tail split and whether
every list must hold K items; and, metric by metric, the peer's call that
gives the number or the reason it cannot be reproduced.  Asking for a metric
the peer lacks is a ``ValueError`` naming the metric and the convention:
never a number computed with another rule.

The accuracy metrics reuse a ranking convention of ``_conventions``
(``Peer.ranking``, or ``Peer.ranking_of`` for one metric: its MAP
normaliser, precision denominator, NDCG gain and the order of tied items);
the beyond-accuracy variants are options of ``_beyond.finalize``
(``Peer.coverage``, ``Peer.novelty``, ``Peer.entropy``, ``Peer.gini``).
What is left here is what a ranking convention cannot say: the users of
each metric, that every held-out row is relevant, a tie order the peer
leaves to its caller (refused), lists shorter than K where the peer reads a
full list for every user (refused), inputs on which the peer fails or reads
ratings (``Peer.need_held_out``, ``uniform_relevance``, ``train_users``:
refused), and RecTools' NDCG ideal.  :func:`report` runs
``recommendation_report``'s own computation (``_recommend._report``) once
per set of users and ranking convention and joins the values.
"""

import math
from typing import NamedTuple

import numpy as np

from .._core import check_k, check_option
from .._metrics import parse_metrics, tie_free_scores
from . import _beyond

__all__ = ["NAMES", "PEERS", "Peer", "convention_doc", "conventions_table",
           "report"]

#: Every name ``convention=`` knows; those without a record raise.
NAMES = ("ms_recommenders", "recbole", "rectools", "lenskit", "elliot")
#: Accuracy metrics that only count the items above the cut (a tie inside
#: the top ``k`` does not change them).
_CUT_ONLY = ("precision", "recall", "success", "hit_rate")
_BEYOND_KINDS = _beyond.METRICS


class Peer(NamedTuple):
    """The rules of one library, one field per rule on which peers differ.

    A rule field that the peer has no metric for holds None; ``refused``
    says why.  ``calls``: for each metric the peer gives, the peer's call
    that gives our number (``K``: the cutoff).
    """

    name: str
    library: str
    version: str
    source: str
    #: the ranking convention of ``_conventions`` used for the accuracy metrics
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
    #: hits / ``"k"`` or / ``"retrieved"``
    precision: str
    #: ``k_denominator`` of AP@k
    map: str
    #: NDCG: ``"achievable"`` ideal (min(R, k) relevant items) or ``"k"`` (k
    #: relevant items for every user); gains are binary, the log base cancels
    ndcg: str
    #: ``_beyond.finalize(coverage=...)``
    coverage: str
    #: ``_beyond.finalize(novelty=...)``
    novelty: str
    #: ``_beyond.finalize(entropy=...)`` (None: no such metric)
    entropy: str
    #: the Gini index: ``"equality_0"``, ours (0: equal exposure); None: none
    gini: str
    long_tail: str
    #: intra-list diversity: the item similarity (None: no such metric)
    ild: str
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
        precision="k", map="min", ndcg="achievable",
        coverage="train_items", novelty="interactions", entropy="bits",
        gini=None, long_tail=None,
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
        precision="k", map="min", ndcg="achievable",
        coverage="catalog", novelty=None, entropy="nats_per_item",
        gini="equality_0", long_tail=None, ild=None,
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
        precision="retrieved", map="min", ndcg=None,
        coverage=None, novelty=None, entropy=None, gini="equality_0",
        long_tail=None, ild=None, needs_train=(), train_disjoint=(),
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
        precision="k", map=None, ndcg="achievable",
        coverage="items", novelty=None, entropy="bits", gini="diversity",
        long_tail=None, ild=None, needs_train=("arp",), train_disjoint=(),
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
        precision="k", map="relevant", ndcg="k",
        coverage="catalog", novelty="users", entropy=None, gini=None,
        long_tail=None, ild=None, needs_train=("novelty", "arp"),
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


def _refuse(peer, label, why):
    raise ValueError(f"convention={peer.name!r} cannot give {label!r}: {why}.")


def _plan(peer, accuracy, beyond):
    """``[(label, our name, users set, kind, k)]`` of the requested metrics."""
    plan = []
    for name in accuracy:
        (_, spec, options), = parse_metrics([name])
        if spec.name not in peer.calls:
            _refuse(peer, name, peer.refused.get(spec.name, peer.missing))
        k = options.get("k")
        if k is None:
            _refuse(peer, name, f"{peer.library} computes {spec.name} at a "
                                "cutoff K only: ask for "
                                f"'{spec.name}@K'")
        compute = name
        if spec.name == "ndcg" and peer.ndcg == "k":
            compute = f"dcg@{k}"  # divided by the ideal DCG of k items
        plan.append((name, compute, peer.users_of(spec.name, False),
                     spec.name, k))
    for name, base, kk in beyond:
        if base not in peer.calls:
            _refuse(peer, name, peer.refused.get(base, peer.missing))
        plan.append((name, name, peer.users_of(base, True), base, kk))
    return plan


def _ideal_dcg(k):
    """The DCG of ``k`` relevant items (RecTools' NDCG ideal)."""
    return float((1 / np.log2(np.arange(2, k + 2))).sum())


def _in_train(r_key, tu, ti, n_codes):
    """Whether each recommended (user, item) key is a training pair: a sort
    of the distinct training pairs and a binary search (NumPy 2's hash-based
    ``np.isin`` is many times slower on int64 keys)."""
    pair_user, pair_item = _beyond._distinct_pairs(tu, ti)
    keys = pair_user * n_codes + pair_item  # sorted, as the pairs are
    if keys.shape[0] == 0:
        return np.zeros(r_key.shape[0], dtype=bool)
    pos = np.minimum(np.searchsorted(keys, r_key), keys.shape[0] - 1)
    return keys[pos] == r_key


def _check_ties(peer, plan, ru, score, relevant, user_labels):
    """Under ``ties="refuse"``: raise where a tie can change a number.

    A rank-sensitive accuracy metric at ``k``: a tie of items that differ in
    relevance starting within the top ``k``; a cut-only one (precision,
    recall, success): such a tie across the cut; a beyond-accuracy metric at
    ``K``: any tie across the cut.
    """
    if ru.shape[0] == 0:
        return
    order, block, start, size = _beyond.tie_blocks(ru, score,
                                                   no_tie_shortcut=False)
    end = start + size
    rel = relevant[order].astype(np.int64)
    n_blocks = start.shape[0]
    mixed = (np.bincount(block, weights=rel, minlength=n_blocks) % size) != 0
    first_row = order[np.flatnonzero(np.r_[True, block[1:] != block[:-1]])]
    for label, _, _, kind, k in plan:
        across = (start < k) & (end > k)
        if kind in _BEYOND_KINDS:
            bad = across
        elif kind in _CUT_ONLY:
            bad = across & mixed
        else:
            bad = (start < k) & (size > 1) & mixed
        if bad.any():
            b = np.flatnonzero(bad)[0]
            what = "" if kind in _BEYOND_KINDS else " that differ in relevance"
            _refuse(peer, label,
                    f"user {_label(user_labels[ru[first_row[b]]])!r} has "
                    f"{size[b]} items tied at ranks {start[b] + 1}-{end[b]}"
                    f"{what}, and {peer.library} reads the ranks its caller "
                    "assigns (a tie has none); pass the lists in order or "
                    "untied scores")


def _check_peer_inputs(peer, plan, users_in, hu, h_gain, ru, ri, y, tu, ti,
                       n_codes, user_labels, item_labels, *, graded):
    """``Peer.uniform_relevance`` and ``Peer.train_users``: raise where the
    input would give the peer another rule (``y``: tie-free scores)."""
    kinds = {kind: label for label, _, _, kind, _ in plan}
    for kind in peer.uniform_relevance:
        if kind in kinds and graded and hu.shape[0]:
            n = user_labels.shape[0]
            low, high = np.full(n, np.inf), np.full(n, -np.inf)
            np.minimum.at(low, hu, h_gain)
            np.maximum.at(high, hu, h_gain)
            if (low < high).any():
                u = np.flatnonzero(low < high)[0]
                _refuse(peer, kinds[kind],
                        f"user {_label(user_labels[u])!r} has held-out items of "
                        f"different relevance, and {peer.library}'s gains come "
                        "from the ratings (2 ** (rating - threshold + 1) - 1); "
                        "pass items of one rating or no relevance column")
    for label, _, users, kind, k in plan:
        if kind not in peer.train_users:
            continue
        order = np.lexsort((-y, ru))
        first = np.r_[0, np.flatnonzero(ru[order][1:] != ru[order][:-1]) + 1]
        rank = np.empty(ru.shape[0], dtype=np.int64)
        rank[order] = np.arange(ru.shape[0]) - np.repeat(
            first, np.diff(np.r_[first, ru.shape[0]]))
        listed = ri[(rank < k) & users_in[users][ru]]
        trained = np.bincount(ti, minlength=n_codes) > 0
        if not trained[listed].all():
            i = listed[~trained[listed]][0]
            _refuse(peer, label,
                    f"item {_label(item_labels[i])!r} is recommended and has no "
                    f"training interaction ({peer.library}'s popularity holds "
                    "the training items only: a KeyError)")
        pairs = np.unique(tu * n_codes + ti)
        if pairs.shape[0] != tu.shape[0]:
            _refuse(peer, label,
                    f"train repeats a (user, item) pair: {peer.library} counts "
                    "the distinct training users of an item, this library its "
                    "training rows")


def _label(x):
    """A user / item id as the user wrote it (no NumPy scalar repr)."""
    return x.item() if isinstance(x, np.generic) else x


def _scale(value, factor):
    if isinstance(value, dict):
        return {key: v * factor for key, v in value.items()}
    return value * factor


def report(run, convention, recommended, held_out, **kwargs):
    """``recommendation_report(..., convention=convention)``.

    ``run`` is ``_recommend._report`` and ``kwargs`` the report's arguments.
    """
    from . import _report as rec

    peer = check_peer(convention)
    k = check_k(kwargs["k"], allow_none=False)
    output = kwargs["output"]
    check_option(output, "output", rec.OUTPUTS)
    check_option(kwargs["users"], "users", rec.USERS)
    if kwargs["users"] != "held_out":
        raise ValueError(
            f"users={kwargs['users']!r} with convention={convention!r}: the "
            f"convention sets the users of each metric ({peer.library}'s); "
            "leave users at its default.")
    accuracy, beyond, order = rec._split_metrics(kwargs["metrics"], k)
    per_user = [b[0] for b in beyond if b[1] not in _beyond.CATALOG]
    if output == "per_user" and (per_user or not accuracy):
        raise ValueError(
            f"output='per_user' with convention={convention!r}: the per-user "
            "frame holds the accuracy metrics only (coverage, gini and entropy "
            "are catalog-level; the others follow the peer's own rules with "
            f"output='dict'): {', '.join(per_user) or 'no accuracy metric'}.")
    if output == "per_user":
        beyond = []  # catalog-level: no per-user value
    plan = _plan(peer, accuracy, beyond)
    user, item = kwargs["user"], kwargs["item"]

    r_user, r_item, r_score, r_rank = rec._read_lists(
        recommended, user=user, item=item, score=kwargs["score"])
    h_user, h_item, h_gain, _ = rec._read(
        held_out, "held_out", user=user, item=item, value=kwargs["relevance"],
        value_default="relevance", gains=True)
    graded = h_gain is not None
    h_gain = rec._check_gains(h_gain, h_user.shape[0])  # then every row counts
    train = kwargs["train"]
    t_user, t_item = rec._read_train(train, user=user, item=item)
    (ru, hu, tu), user_labels = rec._encode([r_user, h_user, t_user], "user")
    (ri, hi, ti), item_labels = rec._encode([r_item, h_item, t_item], "item")
    n_codes = max(item_labels.shape[0], 1)
    held_row, _ = rec._match_pairs(ru, ri, hu, hi, n_codes, user_labels,
                                   item_labels)  # repeats: errors
    r_key = ru * n_codes + ri

    # the rank order of the lists, tie-free in row order where allowed
    if r_score is None:
        rank = r_rank if r_rank is not None else _beyond.row_rank(ru)
        y = -(rank.astype(np.float64) + 1)
    else:
        y = r_score
        if peer.ties == "refuse":
            _check_ties(peer, plan, ru, y, held_row >= 0, user_labels)
    y = tie_free_scores(y, "input")

    for label, _, _, kind, _ in plan:
        if kind in peer.needs_train and train is None:
            _refuse(peer, label, f"{peer.library} computes it with "
                                 f"{peer.calls[kind]}, which needs the training "
                                 "interactions: pass train=")
        if kind in peer.train_disjoint:
            seen = _in_train(r_key, tu, ti, n_codes)
            if seen.any():
                _refuse(peer, label,
                        f"{peer.library} refuses recommendations of items the "
                        "user has in train (\"reco_df should not contain any "
                        "user_item pairs that are already shown in train_df\"): "
                        f"user {_label(user_labels[ru[seen][0]])!r} gets item "
                        f"{_label(item_labels[ri[seen][0]])!r}")

    n_items = kwargs["n_items"]
    if n_items is None:
        n_items = n_codes
    list_size = np.bincount(ru, minlength=user_labels.shape[0])
    has_list = list_size > 0
    has_held = np.bincount(hu, minlength=user_labels.shape[0]) > 0
    users_in = {"both": has_held & has_list, "held_out": has_held,
                "recommended": has_list}
    _check_peer_inputs(peer, plan, users_in, hu, h_gain, ru, ri, y, tu, ti,
                       n_codes, user_labels, item_labels,
                       graded=graded)
    for label, _, users, kind, kk in plan:
        short = users_in[users] & (list_size < kk)
        if kind in peer.full_lists and short.any():
            u = np.flatnonzero(short)[0]
            _refuse(peer, label,
                    f"{peer.library} reads a list of {kk} items for every "
                    f"evaluated user and user {_label(user_labels[u])!r} has "
                    f"{list_size[u]}")
        lone = has_list & ~has_held
        if kind in peer.need_held_out and lone.any():
            u = np.flatnonzero(lone)[0]
            _refuse(peer, label,
                    f"user {_label(user_labels[u])!r} has a list and no "
                    f"held-out item: {peer.need_held_out_note}")
    score_col = next(c for c in ("score", "__score", "__score__")
                     if c not in (user, item))
    groups = {}
    for label, compute, users, kind, _ in plan:
        groups.setdefault((users, peer.ranking_for(kind)), []).append(
            (label, compute, kind))
    anyone = {key: value.any() for key, value in users_in.items()}
    base = {key: kwargs[key] for key in ("train", "item_features", "user",
                                         "item", "confidence", "n_resamples",
                                         "random_state", "head_share")}
    options = {name: value for name, value, default in (
        ("coverage", peer.coverage, "catalog"), ("novelty", peer.novelty, "users"),
        ("entropy", peer.entropy, "bits"), ("gini", peer.gini, "equality_0"))
        if value not in (default, None)} or None
    values, frames = {}, []
    for (users, ranking), names in groups.items():
        if not anyone[users] and all(kind not in _BEYOND_KINDS
                                     for *_, kind in names):
            for label, _, _ in names:  # no user to average
                values[label] = peer.no_users
            continue
        keep_r = has_held[ru] if users == "both" else slice(None)
        keep_h = has_list[hu] if users == "both" else slice(None)
        out = run(
            {user: r_user[keep_r], item: r_item[keep_r], score_col: y[keep_r]},
            {user: h_user[keep_h], item: h_item[keep_h]},
            k=k, metrics=[c for _, c, _ in names], n_items=n_items,
            users="recommended" if users == "recommended" else "held_out",
            score=score_col, relevance=None,
            output="per_user" if output == "per_user" else "dict",
            ranking_convention=ranking,
            beyond_options=options,
            **base)
        for label, compute, _ in names:
            factor = 1.0
            if compute != label:  # RecTools' NDCG: DCG over the ideal DCG of k
                factor = 1.0 / _ideal_dcg(int(compute.split("@")[1]))
            if output == "per_user":
                frames.append(out[compute].rename(label) * factor)
            else:
                values[label] = _scale(out[compute], factor)
    if output == "per_user":
        import pandas as pd

        frame = (pd.concat(frames, axis=1) if frames else pd.DataFrame(
            index=pd.Index([], dtype=object))).reindex(columns=accuracy)
        frame.index.name = user
        return frame
    values = {name: values[name] for name in order}
    return rec._format(values, output, n_items if beyond else None)


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


# ---------------------------------------------------------------------------
# the documentation's table (doc/conf.py writes it for doc/conventions.rst)
# ---------------------------------------------------------------------------
_USERS_TEXT = {"both": "users with a list and a held-out item",
               "held_out": "users with a held-out item (no list: 0 on an "
                           "accuracy metric)",
               "recommended": "users with a list"}
_RULES = (
    ("precision", "P@K divides by", {"k": "K", "retrieved": "min(K, n)"}),
    ("map", "AP@K divides by", {"min": "min(R, K)", "relevant": "R",
                                "hits": "the hits"}),
    ("ndcg", "NDCG's ideal", {"achievable": "min(R, K) relevant items (binary "
                                            "gain)",
                              "k": "K relevant items for every user (binary "
                                   "gain)"}),
    ("coverage", "coverage@K divides by", {"catalog": "n_items",
                                           "train_items": "the distinct "
                                                          "training items",
                                           "items": "1 (the number of "
                                                    "covered items)"}),
    ("novelty", "novelty@K", {"users": "mean over users of the mean "
                                       "-log2(training users of i / training "
                                       "users)",
                              "interactions": "pooled over all recommendations: "
                                              "-log2(training rows of i / "
                                              "training rows), 0 for an item "
                                              "without any"}),
    ("entropy", "entropy@K", {"bits": "-sum p_i log2 p_i, p_i = c_i / sum c "
                                       "(bits)",
                              "nats_per_item": "-sum p_i ln p_i over the "
                                               "distinct recommended items, "
                                               "divided by their number"}),
    ("gini", "gini@K", {"equality_0": "sum_j (2j - n - 1) c_(j) / (n sum c), "
                                      "c ascending over the n_items catalog "
                                      "items (0: equal exposure)",
                        "diversity": "1 - G n / (n - 1), G the Gini index "
                                     "of the n_items catalog items (1: equal "
                                     "exposure)"}),
    ("full_lists", "Lists of K items for every evaluated user, for", None),
    ("need_held_out", "A list without held-out items is refused for", None),
    ("uniform_relevance", "Held-out items of one rating per user, for", None),
    ("train_users", "Popularity: distinct training users; recommended items "
                    "in train and no repeated training pair, for", None),
    ("ild", "ild@K", None),
)


def _rules_text(peer):
    lines = []
    users = {}
    for name in peer.calls:
        value = peer.users_of(name, name in _BEYOND_KINDS)
        users.setdefault(value, []).append(name)
    lines.append("Users: " + "; ".join(
        f"{', '.join(metrics)}: {_USERS_TEXT[value]}"
        for value, metrics in users.items()) + ".")
    lines.append(f"Relevant: {peer.relevance}.")
    lines.append(f"Ties: {peer.ties_note}.")
    lines.append(f"Accuracy rules of ``convention={peer.ranking!r}``" + "".join(
        f"; {name}: of ``convention={value!r}``"
        for name, value in peer.ranking_of.items()) + ".")
    for field, label, texts in _RULES:
        value = getattr(peer, field)
        if isinstance(value, tuple):
            value = ", ".join(value) if value else None
        if value is not None:
            lines.append(f"{label}: {texts[value] if texts else value}.")
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
