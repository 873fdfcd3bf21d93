"""Brute-force reference implementations, written plainly from the definitions.

Every function here takes ONE group (query / user): plain Python sequences
``y_true`` (relevance, ``> 0`` means relevant, graded values are NDCG gains),
``y_score`` (floats; ``float("-inf")`` marks an item that was not retrieved)
and, where the metric has item weights, ``w``.  It returns that group's value,
or ``nan`` where the group is undefined (no relevant item; for AUC one class
only).

Nothing here uses ``sklearn_rankeval`` and nothing mirrors its vectorised
implementation: the code loops over pairs, over tie blocks and over every
ordering of the tied items.  Rational arithmetic (``fractions.Fraction``) is
used wherever the definition is rational, so the references are exact and the
tests can use tolerances of ``1e-12``.

The rules follow ``notes/SPEC.md``:

* AUC: every (positive, negative) pair counts ``w_pos * w_neg``; 1 if the
  positive scores higher, 1/2 if tied.  ``-inf`` is just the lowest score.
* MRR, hits, P@k, R@k, HR@k: expected value over all orderings of the tied
  items (each tie block permuted uniformly at random).  Items scored ``-inf``
  are never ranked, but relevant ones count in ``R``.
* AP: scikit-learn's threshold definition (one precision/recall point per
  distinct retrieved score).  AP@k: ``1/min(R, k) * sum_b f_b * r_b * P_b``.
* NDCG: scikit-learn's tie-averaged DCG; the ideal DCG sorts ``y_true`` of all
  items (retrieved or not).
* Interpolated precision: points at the end of each retrieved tie block.
"""

import itertools
import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import numpy as np

NEG_INF = float("-inf")
NAN = float("nan")

MAX_ORDERINGS = 720


# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------
def _weights(y_true, w):
    """Item weights as exact fractions (``Fraction(0.1)`` is exact)."""
    if w is None:
        return [Fraction(1)] * len(y_true)
    return [Fraction(x) for x in w]


def n_relevant(y_true):
    """Number of relevant items (``y_true > 0``), retrieved or not."""
    count = 0
    for y in y_true:
        if y > 0:
            count += 1
    return count


def retrieved_tie_blocks(y_true, y_score):
    """Relevance labels of the retrieved items, one list per distinct score.

    Blocks are in descending score order; ``-inf`` items are left out.
    """
    distinct = sorted({s for s in y_score if s != NEG_INF}, reverse=True)
    blocks = []
    for t in distinct:
        block = []
        for y, s in zip(y_true, y_score):
            if s == t:
                block.append(y)
        blocks.append(block)
    return blocks


def number_of_orderings(y_true, y_score):
    """Number of orderings of the retrieved items that respect the scores."""
    count = 1
    for block in retrieved_tie_blocks(y_true, y_score):
        count *= math.factorial(len(block))
    return count


def all_orderings(y_true, y_score, limit=MAX_ORDERINGS):
    """Yield every ranking (list of relevance labels, best first) that sorts
    the retrieved items by descending score, ties in every possible order.

    Items are permuted as distinct objects (duplicate labels give duplicate
    rankings), so the rankings are equally likely.
    """
    blocks = retrieved_tie_blocks(y_true, y_score)
    if number_of_orderings(y_true, y_score) > limit:
        raise ValueError("too many orderings for the brute-force reference")
    per_block = [list(itertools.permutations(block)) for block in blocks]
    for choice in itertools.product(*per_block):
        ranking = []
        for block in choice:
            ranking.extend(block)
        yield ranking


def expected_over_orderings(per_ordering, y_true, y_score):
    """Average of ``per_ordering(ranking)`` over all tie orderings (exact)."""
    total = Fraction(0)
    count = 0
    for ranking in all_orderings(y_true, y_score):
        total += Fraction(per_ordering(ranking))
        count += 1
    return total / count


# --------------------------------------------------------------------------
# per-ordering metrics (a ranking = relevance labels of the retrieved items)
# --------------------------------------------------------------------------
def reciprocal_rank_of_ranking(ranking, k=None):
    for rank, y in enumerate(ranking, start=1):
        if k is not None and rank > k:
            return Fraction(0)
        if y > 0:
            return Fraction(1, rank)
    return Fraction(0)


def hits_of_ranking(ranking, k):
    hits = 0
    for rank, y in enumerate(ranking, start=1):
        if rank <= k and y > 0:
            hits += 1
    return hits


# --------------------------------------------------------------------------
# AUC
# --------------------------------------------------------------------------
def auc_pairwise(y_true, y_score, w=None):
    """ROC AUC by enumerating (positive, negative) pairs (seed 001)."""
    w = _weights(y_true, w)
    num = Fraction(0)
    den = Fraction(0)
    for i in range(len(y_true)):
        if not y_true[i] > 0:
            continue
        for j in range(len(y_true)):
            if y_true[j] > 0:
                continue
            pair_weight = w[i] * w[j]
            den += pair_weight
            if y_score[i] > y_score[j]:
                num += pair_weight
            elif y_score[i] == y_score[j]:
                num += pair_weight / 2
    if den == 0:
        return NAN
    return float(num / den)


# --------------------------------------------------------------------------
# expectation-over-ties metrics
# --------------------------------------------------------------------------
def expected_hits(y_true, y_score, k):
    """Expected number of relevant items in the top ``k`` (a Fraction)."""
    return expected_over_orderings(
        lambda ranking: hits_of_ranking(ranking, k), y_true, y_score
    )


def reciprocal_rank(y_true, y_score, k=None):
    if n_relevant(y_true) == 0:
        return NAN
    value = expected_over_orderings(
        lambda ranking: reciprocal_rank_of_ranking(ranking, k), y_true, y_score
    )
    return float(value)


def precision_at_k(y_true, y_score, k):
    if n_relevant(y_true) == 0:
        return NAN
    return float(expected_hits(y_true, y_score, k) / k)


def recall_at_k(y_true, y_score, k):
    R = n_relevant(y_true)
    if R == 0:
        return NAN
    return float(expected_hits(y_true, y_score, k) / R)


def hit_rate(y_true, y_score, k):
    """Seed 001's HR@k for one query: hits in the top k / |relevant|."""
    return recall_at_k(y_true, y_score, k)


# --------------------------------------------------------------------------
# average precision
# --------------------------------------------------------------------------
def average_precision(y_true, y_score, w=None):
    """AP by scikit-learn's threshold definition, with item weights.

    For each distinct retrieved score ``t`` (descending): precision is the
    relevant weight with score >= t over the weight with score >= t, recall
    the relevant weight with score >= t over the relevant weight of ALL items
    (so unretrieved relevant items keep recall below 1).
    AP = sum of (recall increase) * precision.
    """
    w = _weights(y_true, w)
    if n_relevant(y_true) == 0:
        return NAN
    R = Fraction(0)
    for y, wi in zip(y_true, w):
        if y > 0:
            R += wi
    if R == 0:
        return NAN
    thresholds = sorted({s for s in y_score if s != NEG_INF}, reverse=True)
    ap = Fraction(0)
    previous_recall = Fraction(0)
    for t in thresholds:
        tp = Fraction(0)
        n_above = Fraction(0)
        for y, s, wi in zip(y_true, y_score, w):
            if s >= t:
                n_above += wi
                if y > 0:
                    tp += wi
        recall = tp / R
        if recall > previous_recall:  # (a zero increase adds nothing)
            ap += (recall - previous_recall) * (tp / n_above)
        previous_recall = recall
    return float(ap)


def average_precision_blocks(y_true, y_score, k=None, denominator="min"):
    """AP (k=None) or AP@k as a loop over the retrieved tie blocks.

    AP@k = 1/D * sum_b f_b * r_b * P_b with r_b the relevant items of block b,
    P_b the precision at the end of the block, f_b = clip((k - start_b) /
    size_b, 0, 1) the fraction of the block above the cutoff and
    D = min(R, k) (``denominator="min"``) or R (``"relevant"``).
    """
    R = n_relevant(y_true)
    if R == 0:
        return NAN
    total = Fraction(0)
    start = 0
    tp = 0
    for block in retrieved_tie_blocks(y_true, y_score):
        size = len(block)
        r = n_relevant(block)
        tp += r
        end = start + size
        precision_at_end = Fraction(tp, end)
        if k is None:
            f = Fraction(1)
        else:
            f = min(max(Fraction(k - start, size), Fraction(0)), Fraction(1))
        total += f * r * precision_at_end
        start = end
    if k is None or denominator == "relevant":
        D = R
    else:
        D = min(R, k)
    return float(total / D)


# --------------------------------------------------------------------------
# NDCG
# --------------------------------------------------------------------------
def _discount(rank):
    return 1.0 / math.log2(rank + 1)


def dcg_tie_averaged(y_true, y_score, k=None):
    dcg = 0.0
    start = 0
    for block in retrieved_tie_blocks(y_true, y_score):
        mean_gain = sum(block) / len(block)
        discounts = 0.0
        for rank in range(start + 1, start + len(block) + 1):
            if k is None or rank <= k:
                discounts += _discount(rank)
        dcg += mean_gain * discounts
        start += len(block)
    return dcg


def ideal_dcg(y_true, k=None):
    idcg = 0.0
    for rank, gain in enumerate(sorted(y_true, reverse=True), start=1):
        if k is None or rank <= k:
            idcg += gain * _discount(rank)
    return idcg


def ndcg_tie_averaged(y_true, y_score, k=None):
    if n_relevant(y_true) == 0:
        return NAN
    return dcg_tie_averaged(y_true, y_score, k) / ideal_dcg(y_true, k)


# --------------------------------------------------------------------------
# interpolated precision
# --------------------------------------------------------------------------
def pr_points(y_true, y_score):
    """(relevant so far, retrieved so far) at the end of each tie block."""
    points = []
    n_rel = 0
    n_ret = 0
    for block in retrieved_tie_blocks(y_true, y_score):
        n_rel += n_relevant(block)
        n_ret += len(block)
        points.append((n_rel, n_ret))
    return points


def _round_half_away_from_zero(x):
    return int(Decimal(x).to_integral_value(rounding=ROUND_HALF_UP))


def _level_reached(n_rel, R, j, n_points, rule):
    if rule == "exact":
        return Fraction(n_rel, R) >= Fraction(j, n_points - 1)
    level = j / (n_points - 1)  # float64
    if rule == "trec_eval_9":
        return n_rel >= int(level * R + 0.9)
    if rule == "trec_eval_10":
        return n_rel >= _round_half_away_from_zero(level * R)
    raise ValueError(rule)


def interpolated_precision(y_true, y_score, n_points=11, rule="exact"):
    """Interpolated precision at the levels j/(n_points-1), j=0..n_points-1.

    Returns a list of floats, or ``None`` if the group is undefined.
    """
    R = n_relevant(y_true)
    if R == 0:
        return None
    points = pr_points(y_true, y_score)
    values = []
    for j in range(n_points):
        best = Fraction(0)
        for n_rel, n_ret in points:
            if _level_reached(n_rel, R, j, n_points, rule):
                best = max(best, Fraction(n_rel, n_ret))
        values.append(best)
    return [float(v) for v in values]


def all_points_interpolated_ap(y_true, y_score):
    """VOC 2010+ all-points AP: sum of recall increase * interpolated precision."""
    R = n_relevant(y_true)
    if R == 0:
        return NAN
    points = pr_points(y_true, y_score)
    ap = Fraction(0)
    previous_recall = Fraction(0)
    for n_rel, _ in points:
        recall = Fraction(n_rel, R)
        if recall > previous_recall:
            best = Fraction(0)
            for n_rel2, n_ret2 in points:
                if Fraction(n_rel2, R) >= recall:
                    best = max(best, Fraction(n_rel2, n_ret2))
            ap += (recall - previous_recall) * best
            previous_recall = recall
    return float(ap)


def interpolated_average_precision(y_true, y_score, n_points=11, rule="exact"):
    if n_points is None:
        return all_points_interpolated_ap(y_true, y_score)
    values = interpolated_precision(y_true, y_score, n_points, rule)
    if values is None:
        return NAN
    return math.fsum(values) / n_points


# --------------------------------------------------------------------------
# issue 13: success@k, R-precision, ERR, RBP, bpref (one group each)
# --------------------------------------------------------------------------
def success_at_k(y_true, y_score, k):
    """Expected [some relevant item in the top k] over all tie orderings."""
    if n_relevant(y_true) == 0:
        return NAN
    return float(expected_over_orderings(
        lambda ranking: 1 if hits_of_ranking(ranking, k) > 0 else 0,
        y_true, y_score))


def r_precision(y_true, y_score):
    """Expected hits in the top R over R, R counting unretrieved items too."""
    R = n_relevant(y_true)
    if R == 0:
        return NAN
    return float(expected_over_orderings(
        lambda ranking: Fraction(hits_of_ranking(ranking, R), R), y_true, y_score))


def rbp_of_ranking(ranking, p):
    p = Fraction(p)
    total = Fraction(0)
    for rank, y in enumerate(ranking, start=1):
        if y > 0:
            total += (1 - p) * p ** (rank - 1)
    return total


def rank_biased_precision(y_true, y_score, p=0.8):
    """Expected RBP over all tie orderings (exact, in fractions)."""
    if n_relevant(y_true) == 0:
        return NAN
    return float(expected_over_orderings(lambda r: rbp_of_ranking(r, p),
                                         y_true, y_score))


def err_stop(grade, max_grade):
    """ERR's stopping probability ``(2**g - 1) / 2**max_grade``, exact for
    integer grades."""
    if grade == int(grade):
        return Fraction(2 ** int(grade) - 1, 2 ** max_grade)
    return Fraction((2.0 ** grade - 1) / 2.0 ** max_grade)


def err_of_stops(stops, k=None):
    """ERR of a ranking given each rank's stopping probability."""
    total, reach = Fraction(0), Fraction(1)
    for rank, stop in enumerate(stops, start=1):
        if k is not None and rank > k:
            break
        total += reach * stop / rank
        reach *= 1 - stop
    return total


def err_expected(y_true, y_score, k=None, max_grade=4):
    """ERR averaged over every tie ordering (exact, in fractions)."""
    if n_relevant(y_true) == 0:
        return NAN
    return float(expected_over_orderings(
        lambda ranking: err_of_stops([err_stop(g, max_grade) for g in ranking], k),
        y_true, y_score))


def _binomial_product(factors):
    """Coefficients of ``prod (1 + x t)**c`` over ``factors`` = [(x, c)]."""
    coef = [Fraction(1)]
    for x, count in factors:
        for _ in range(count):
            coef = [a + x * b for a, b in zip(coef + [0], [0] + coef)]
    return coef


def err_expected_by_subsets(y_true, y_score, k=None, max_grade=4):
    """The same expectation for tie blocks too large to enumerate.

    In a uniformly random order of a block of ``m`` items, an item is at
    block position ``j + 1`` with probability ``1/m``, and then the items
    before it are a uniformly random ``j``-subset of the other ``m - 1``:
    the expected product of their ``1 - R`` is ``e_j / C(m - 1, j)``, ``e_j``
    the elementary symmetric polynomial of the others' ``1 - R`` (the
    coefficient of ``t**j`` in the product of ``1 + (1 - R) t``).  The items
    of the blocks above contribute their product whatever their order.
    """
    if n_relevant(y_true) == 0:
        return NAN
    total, reach, above = Fraction(0), Fraction(1), 0
    for block in retrieved_tie_blocks(y_true, y_score):
        m = len(block)
        counts = {}
        for g in block:
            counts[g] = counts.get(g, 0) + 1
        for g, c in counts.items():
            stop = err_stop(g, max_grade)
            if stop == 0:
                continue
            others = [(1 - err_stop(h, max_grade), n - (h == g))
                      for h, n in counts.items()]
            e = _binomial_product(others)
            for j in range(m):
                rank = above + 1 + j
                if k is not None and rank > k:
                    break
                total += (reach * c * stop / m * e[j] / math.comb(m - 1, j)
                          / rank)
        for g in block:
            reach *= 1 - err_stop(g, max_grade)
        above += m
    return float(total)


def bpref_of_ranking(ranking, R, N):
    """trec_eval's bpref of one ordering of the judged retrieved items."""
    total = Fraction(0)
    nonrel_above = 0
    for y in ranking:
        if y > 0:
            if nonrel_above > 0:
                total += 1 - Fraction(min(nonrel_above, R), min(N, R))
            else:
                total += 1
        else:
            nonrel_above += 1
    return total / R


def bpref(y_true, y_score, judged=None):
    """Expected bpref over tie orderings; unjudged items are dropped first."""
    if judged is not None:
        kept = [(y, s) for y, s, j in zip(y_true, y_score, judged) if j]
        y_true = [y for y, _ in kept]
        y_score = [s for _, s in kept]
    R = n_relevant(y_true)
    if R == 0:
        return NAN
    N = len(y_true) - R
    return float(expected_over_orderings(lambda r: bpref_of_ranking(r, R, N),
                                         y_true, y_score))


def top_k_of_user(y_score, excluded, k):
    """One user's top-k list ``[(item, score), ...]``, a tie at the cut kept whole.

    ``y_score[j]`` is item ``j``'s score, ``excluded[j]`` whether item ``j`` may
    not be recommended.  The eligible items (not excluded, score above
    ``-inf``) are sorted by decreasing score, ties by increasing item index;
    every item scoring at least the k-th of them (the last one when there
    are fewer than ``k``) is in the list.
    """
    eligible = [(j, s) for j, s in enumerate(y_score)
                if not excluded[j] and s != NEG_INF]
    eligible.sort(key=lambda pair: (-pair[1], pair[0]))
    if not eligible:
        return []
    cut = eligible[min(k, len(eligible)) - 1][1]
    return [(j, s) for j, s in eligible if s >= cut]


# --------------------------------------------------------------------------
# beyond-accuracy metrics of top-N lists
# --------------------------------------------------------------------------
# A user's recommendations are a list of (item, score) pairs; ``-inf`` is not
# recommended.  ``L_u`` is the first ``k`` items of an ordering by descending
# score; every ordering of the tied items is equally likely and the users are
# independent, so a *realisation* (one list per user) is one choice of an
# ordering per user.  ``train`` is a list of (user, item) pairs.
def top_k_lists(pairs, k):
    """Every equally likely top-``k`` list (a tuple of items) of one user."""
    distinct = sorted({s for _, s in pairs if s != NEG_INF}, reverse=True)
    blocks = [[i for i, s in pairs if s == t] for t in distinct]
    lists = []
    for choice in itertools.product(*[itertools.permutations(b) for b in blocks]):
        ranking = [i for block in choice for i in block]
        lists.append(tuple(ranking[:k]))
    return lists


def expected_membership(pairs, k):
    """``{item: P(item in L_u)}`` of one user, counted over the orderings."""
    lists = top_k_lists(pairs, k)
    return {i: Fraction(sum(i in lst for lst in lists), len(lists)) for i, _ in pairs}


def realisations(recommended, k):
    """Every realisation ``{user: list}`` with its probability (a Fraction)."""
    users = sorted(recommended)
    per_user = [top_k_lists(recommended[u], k) for u in users]
    weight = Fraction(1)
    for lists in per_user:
        weight /= len(lists)
    for choice in itertools.product(*per_user):
        yield dict(zip(users, choice)), weight


def expected_over_realisations(metric, recommended, k):
    """Expected value of ``metric(lists)`` over the random tie orderings."""
    total = 0
    for lists, weight in realisations(recommended, k):
        total += weight * metric(lists)
    return total


def coverage(lists, n_items):
    covered = set()
    for lst in lists.values():
        covered.update(lst)
    return Fraction(len(covered), n_items)


def expected_counts(recommended, k, n_items):
    """``c_i``: the expected number of lists holding each item."""
    counts = [Fraction(0)] * n_items
    for u in recommended:
        for i, p in expected_membership(recommended[u], k).items():
            counts[i] += p
    return counts


def gini_index(counts):
    """sum_j (2j - n - 1) c_(j) / (n sum c), c sorted ascending, j = 1..n."""
    c = sorted(counts)
    n = len(c)
    total = sum(c)
    if total == 0:
        return NAN
    num = 0
    for j, x in enumerate(c, start=1):
        num += (2 * j - n - 1) * x
    return num / (n * total)


def lorenz_points(counts):
    """The Lorenz curve ``[(j / n, share of the j least counted items)]``.

    Point ``j`` (0 .. n) sums the ``j`` smallest counts by hand and divides
    by the total; every catalog item is a point, zero counts included.
    """
    c = sorted(counts)
    n = len(c)
    total = sum(c)
    points = []
    for j in range(n + 1):
        held = 0
        for x in c[:j]:
            held += x
        points.append((Fraction(j, n), Fraction(held) / total))
    return points


def shannon_entropy(counts):
    """-sum p log2 p with p = c / sum c (bits)."""
    total = sum(counts)
    if total == 0:
        return NAN
    h = 0.0
    for x in counts:
        if x > 0:
            p = x / total
            h -= float(p) * math.log2(p)
    return h


def shannon_entropy_per_item(lists):
    """RecBole's ShannonEntropy, written out: -sum p ln p (natural log), p =
    times recommended / all recommendations, over the distinct recommended
    items, divided by their number."""
    count = {}
    for lst in lists.values():
        for i in lst:
            count[i] = count.get(i, 0) + 1
    total = sum(count.values())
    if total == 0:
        return NAN
    h = 0.0
    for x in count.values():
        h -= x / total * math.log(x / total)
    return h / len(count)


def elliot_gini(lists, num_items):
    """Elliot 1.0's GiniIndex.eval (diversity/gini_index/gini_index.py), line
    by line: 1 - sum_j (2 (j + n - n_rec + 1) - n - 1) c_(j) / sum c, over
    the n_rec recommended items' counts in ascending order, / (n - 1)."""
    item_count, free_norm = {}, 0
    for lst in lists.values():
        free_norm += len(lst)
        for i in lst:
            item_count[i] = item_count.get(i, 0) + 1
    n_rec = len(item_count)
    gini = sum((2 * (j + (num_items - n_rec) + 1) - num_items - 1)
               * Fraction(cs, free_norm)
               for j, cs in enumerate(sorted(item_count.values())))
    return 1 - gini / (num_items - 1)


def elliot_shannon_entropy(lists):
    """Elliot 1.0's ShannonEntropy.eval (diversity/shannon_entropy/
    shannon_entropy.py): sum_i w_i (-log2(c_i / sum c)) / number of lists,
    w_i = sum over the lists holding i of 1 / list length."""
    count, weight, free_norm = {}, {}, 0
    for lst in lists.values():
        free_norm += len(lst)
        for i in lst:
            count[i] = count.get(i, 0) + 1
            weight[i] = weight.get(i, 0) + 1 / len(lst)
    return sum(w * -math.log2(count[i] / free_norm)
               for i, w in weight.items()) / len(lists)


def _training_users(train):
    users_of = {}
    for u, i in train:
        users_of.setdefault(i, set()).add(u)
    return users_of, len({u for u, _ in train})


def _mean_over_users(lists, per_item):
    """mean_u mean_{i in L_u} per_item(i), over users with a non-empty list."""
    values = []
    for lst in lists.values():
        if lst:
            values.append(sum(per_item(i) for i in lst) / len(lst))
    return sum(values) / len(values) if values else NAN


def coverage_of_training_items(lists, train):
    """|union of the lists| / number of distinct training items (Microsoft
    Recommenders' catalog_coverage)."""
    covered = set()
    for lst in lists.values():
        covered.update(lst)
    n_train = len({i for _, i in train})
    return Fraction(len(covered), n_train) if n_train else NAN


def novelty_pooled(lists, train):
    """Mean over all recommendations (not per user) of -log2(n_i / n), n_i the
    training rows of item i, n all training rows; 0 for an item without
    training rows, which still counts (Microsoft Recommenders' novelty)."""
    count = {}
    for _, i in train:
        count[i] = count.get(i, 0) + 1
    items = [i for lst in lists.values() for i in lst]
    if not items or not train:
        return NAN
    total = 0.0
    for i in items:
        if i in count:
            total -= math.log2(count[i] / len(train))
    return total / len(items)


def novelty(lists, train):
    users_of, n_users = _training_users(train)
    return _mean_over_users(
        lists, lambda i: -math.log2(max(len(users_of.get(i, ())), 1) / n_users))


def average_popularity(lists, train):
    count = {}
    for _, i in train:
        count[i] = count.get(i, 0) + 1
    return _mean_over_users(lists, lambda i: Fraction(count.get(i, 0)))


def short_head_items(train, head_share):
    """The most popular items, one at a time, until they hold head_share of
    the interactions (read as the decimal it is written as), then every item
    as popular as the last one taken."""
    count = {}
    for _, i in train:
        count[i] = count.get(i, 0) + 1
    need = Fraction(str(head_share)) * len(train)
    head = set()
    held = 0
    last = None
    for i in sorted(count, key=lambda i: -count[i]):
        if held >= need or need == 0:
            break
        head.add(i)
        held += count[i]
        last = count[i]
    for i in count:
        if count[i] == last:
            head.add(i)
    return head


def long_tail_share(lists, train, head_share=0.8):
    head = short_head_items(train, head_share)
    return _mean_over_users(lists, lambda i: Fraction(int(i not in head)))


def cosine(a, b):
    """Cosine of two vectors; 0 when either is zero."""
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    if na == 0 or nb == 0:
        return 0.0
    return dot / (na * nb)


def intra_list_distance(lst, features):
    """Mean of 1 - cos over the ordered pairs of distinct items of a list."""
    total = 0.0
    pairs = 0
    for a in lst:
        for b in lst:
            if a != b:
                total += 1 - cosine(features[a], features[b])
                pairs += 1
    return total / pairs


def intra_list_diversity(lists, features):
    """mean over users with at least 2 items of their intra-list distance."""
    values = [intra_list_distance(lst, features) for lst in lists.values()
              if len(lst) >= 2]
    return sum(values) / len(values) if values else NAN


# ---------------------------------------------------------------------------
# averages over groups, written from API.md (independent of _stats._averages)
# ---------------------------------------------------------------------------
def pooled_ctr(name, y, p, w=None, n_bins=10):
    """A CTR metric of rows pooled, from its definition (API.md, "CTR and
    calibration"); ``p`` clipped to [eps, 1 - eps] for the logarithms, as
    sklearn's ``log_loss``."""
    y = np.asarray(y, dtype=np.float64)
    p_raw = np.asarray(p)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=np.float64)
    eps = np.finfo(p_raw.dtype if p_raw.dtype.kind == "f" else np.float64).eps
    pc = np.clip(p_raw.astype(np.float64), eps, 1 - eps)
    ce = -(y * np.log(pc) + (1 - y) * np.log(1 - pc))
    if name == "log_loss":
        return float(np.sum(w * ce) / np.sum(w))
    if name == "ne":
        pos, neg = np.sum(w * y), np.sum(w * (1 - y))
        base = pos / (pos + neg)
        if pos == 0 or neg == 0:
            return math.nan
        return float(np.sum(w * ce) / (-pos * np.log(base) - neg * np.log(1 - base)))
    p = p_raw.astype(np.float64)
    if name == "pcoc":
        return float(np.sum(w * p) / np.sum(w * y)) if np.sum(w * y) else math.nan
    if name == "ece":  # uniform bins; a value on an inner edge joins the lower bin
        edges = np.linspace(0, 1, n_bins + 1)
        b = np.searchsorted(edges[1:-1], p)
        total = 0.0
        for j in range(n_bins):
            m = b == j
            if w[m].sum() > 0:
                total += abs(np.sum(w[m] * p[m]) - np.sum(w[m] * y[m]))
        return total / np.sum(w)
    raise KeyError(name)


def group_average(values, *, average, group_weight, query_weight, query_weighted,
                  counts=None):
    """The average of per-group values as API.md defines it.

    ``values`` holds NaN where a group is undefined (left out).
    ``group_weight``: each group's total sample weight (its size unweighted);
    ``query_weight``: the weight of its query (1 unweighted).  ``"macro"``
    counts each group once (times its query weight for the metrics whose
    weight is the query's), ``"weighted"`` by its total sample weight,
    ``"gmean"`` is the geometric mean of the values floored at 1e-5 (as
    trec_eval's gm_map).  ``counts``: how many times each group is drawn (a
    bootstrap resample).
    """
    values = np.asarray(values, dtype=np.float64)
    counts = np.ones(len(values)) if counts is None else np.asarray(counts, float)
    ok = ~np.isnan(values) & (counts > 0)
    q = np.asarray(query_weight, float) if query_weighted else np.ones(len(values))
    if average == "weighted":
        wt = np.asarray(group_weight, float)
    else:
        wt = q
    wt = wt[ok] * counts[ok]
    if not ok.any() or wt.sum() == 0:
        return math.nan
    if average == "gmean":
        return float(np.exp(np.sum(wt * np.log(np.maximum(values[ok], 1e-5)))
                            / wt.sum()))
    return float(np.sum(wt * values[ok]) / wt.sum())


# --------------------------------------------------------------------------
# one ordering, trec_eval's and ranx's definitions (ties: see below)
# --------------------------------------------------------------------------
def value_of_ranking(metric, ranking, k, grades):
    """``metric`` of ONE ordering: ``ranking`` the grades of the retrieved
    items, best first; ``grades`` every item's grade, retrieved or not (the
    relevant items ``R``, the non-relevant ``N``, the ideal DCG).

    ``metric``: ``"precision"`` (hits in the top k over k), ``"recall"``
    (over R), ``"hit_rate"`` (the same number per query), ``"success"``,
    ``"mrr"``, ``"map"`` (normalised by R, at k or not), ``"r_precision"``,
    ``"bpref"``, ``"dcg"`` and ``"ndcg"`` (linear gain, log2 discount).
    NaN where R = 0 (the metric is undefined), except DCG.
    """
    R = n_relevant(grades)
    N = len(grades) - R
    top = list(ranking if k is None else ranking[:k])
    if metric == "dcg" or metric == "ndcg":
        dcg = sum(g / math.log2(i + 1) for i, g in enumerate(top, start=1))
        if metric == "dcg":
            return dcg
        ideal = sorted(grades, reverse=True)[:len(grades) if k is None else k]
        idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
        return dcg / idcg if R else NAN
    if R == 0:
        return NAN
    hits = sum(1 for y in top if y > 0)
    if metric == "precision":
        return Fraction(hits, k)
    if metric in ("recall", "hit_rate"):
        return Fraction(hits, R)
    if metric == "success":
        return Fraction(int(hits > 0))
    if metric == "mrr":
        return reciprocal_rank_of_ranking(ranking, k)
    if metric == "r_precision":
        return Fraction(hits_of_ranking(ranking, R), R)
    if metric == "bpref":
        return bpref_of_ranking(ranking, R, N)
    if metric == "map":
        total, found = Fraction(0), 0
        for rank, y in enumerate(top, start=1):
            if y > 0:
                found += 1
                total += Fraction(found, rank)
        return total / R
    raise ValueError(f"no per-ordering reference for {metric!r}")


def values_over_orderings(metric, y_true, y_score, k=None):
    """The distinct values of ``metric`` over every order of the tied items
    (floats, rounded to 12 digits: equal values count once)."""
    return {round(float(value_of_ranking(metric, ranking, k, list(y_true))), 12)
            for ranking in all_orderings(y_true, y_score)}


# ---------------------------------------------------------------------------
# statistics of comparisons (issue 38): loops over every relabelling
# ---------------------------------------------------------------------------
def randomized_tukey_exact(x):
    """Sakai's randomised Tukey HSD by enumerating every within-row
    permutation of the labels of the rows of ``x`` (lists, rows = groups).

    Returns ``(p_tukey, p_pair, ranges)`` over the pairs ``a < b`` in
    row-major order: the share of relabellings whose largest
    ``|mean_j - mean_l|`` (resp. whose own ``|mean_b - mean_a|``) is at
    least the observed ``|mean_b - mean_a|`` (up to 1e-12 relative), and the
    list of every relabelling's largest difference.
    """
    n, k = len(x), len(x[0])

    def means(rows):
        return [sum(r[j] for r in rows) / n for j in range(k)]

    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    obs = means(x)
    observed = [abs(obs[b] - obs[a]) for a, b in pairs]
    hits_max = [0] * len(pairs)
    hits_own = [0] * len(pairs)
    ranges = []
    total = 0
    for choice in itertools.product(itertools.permutations(range(k)), repeat=n):
        rows = [[row[p[j]] for j in range(k)] for row, p in zip(x, choice)]
        m = means(rows)
        top = max(abs(m[i] - m[j]) for i in range(k) for j in range(k))
        ranges.append(top)
        total += 1
        for i, (a, b) in enumerate(pairs):
            if top >= observed[i] * (1 - 1e-12):
                hits_max[i] += 1
            if abs(m[b] - m[a]) >= observed[i] * (1 - 1e-12):
                hits_own[i] += 1
    return ([h / total for h in hits_max], [h / total for h in hits_own], ranges)


def maxt_exact(d):
    """Westfall-Young single-step maxT by enumerating every sign flip of the
    rows of ``d`` (lists, rows = groups, columns = comparisons); each
    column's statistic ``|sum d| / sqrt(sum d**2)``.  Returns ``(p_raw,
    p_adjusted)``."""
    n, m = len(d), len(d[0])
    norms = [math.sqrt(sum(d[i][j] ** 2 for i in range(n))) for j in range(m)]

    def stat(signs, j):
        return abs(sum(s * d[i][j] for i, s in enumerate(signs))) / norms[j]

    observed = [stat([1] * n, j) for j in range(m)]
    raw, adj, total = [0] * m, [0] * m, 0
    for signs in itertools.product((1, -1), repeat=n):
        t = [stat(signs, j) for j in range(m)]
        top = max(t)
        total += 1
        for j in range(m):
            raw[j] += t[j] >= observed[j] * (1 - 1e-12)
            adj[j] += top >= observed[j] * (1 - 1e-12)
    return [r / total for r in raw], [a / total for a in adj]


def georisk_loop(x, alpha):
    """GeoRisk (Dinçer, Macdonald and Ounis, SIGIR 2016) of each system,
    ``x[topic][system]``, written with loops from the paper's formulas."""
    c, r = len(x), len(x[0])
    s = [sum(x[j][i] for j in range(c)) for i in range(r)]
    t = [sum(x[j][i] for i in range(r)) for j in range(c)]
    total = sum(s)
    out = []
    for i in range(r):
        z_risk = 0.0
        for j in range(c):
            e = s[i] * t[j] / total
            z = (x[j][i] - e) / math.sqrt(e) if e > 0 else 0.0
            z_risk += z if z >= 0 else (1 + alpha) * z
        phi = 0.5 * (1 + math.erf(z_risk / c / math.sqrt(2)))
        out.append(math.sqrt(s[i] / c * phi))
    return out


def t_interval(d, level):
    """The ``level`` confidence interval of the mean of ``d`` from Student's
    t (scipy's ``TtestResult.confidence_interval``, which scipy < 1.10 lacks):
    mean +- t_{(1 + level) / 2, n - 1} sd / sqrt(n)."""
    from scipy import stats

    d = np.asarray(d, dtype=float)
    n = d.shape[0]
    half = stats.t.ppf((1 + level) / 2, n - 1) * d.std(ddof=1) / np.sqrt(n)
    return d.mean() - half, d.mean() + half


def _orders_of_ranking(rows, score):
    """Every order of ``rows`` by descending score, tied rows in every order
    (each equally likely); rows with score -inf left out (not ranked)."""
    ranked = [r for r in rows if score[r] > -math.inf]
    levels = sorted({score[r] for r in ranked}, reverse=True)
    blocks = [[r for r in ranked if score[r] == s] for s in levels]
    for parts in itertools.product(*(itertools.permutations(b) for b in blocks)):
        yield [r for part in parts for r in part]


def _exposure_of_order(order, relevant, user_model, p, u):
    """{row: exposure} of one deterministic ranking (0-based rank i: p**i,
    times (1-u)**(relevant items above) under gerr)."""
    out, above = {}, 0
    for i, r in enumerate(order):
        if user_model == "log":
            out[r] = 1 / math.log2(i + 2)
        else:
            out[r] = p ** i * ((1 - u) ** above if user_model == "gerr" else 1.0)
        above += relevant[r]
    return out


def expected_exposure_loop(y_true, y_score, groups, samples=None, items=None,
                           item_groups=None, measure="loss", user_model="rbp",
                           p=0.5, u=0.5, normalize=False):
    """Expected exposure (Diaz et al., CIKM 2020) per group, with loops:
    every order of every sampled ranking enumerated (ties: each order
    equally likely), the target from an ideal policy that ranks items by
    grade and shuffles each grade uniformly (enumerated), and, with
    ``normalize`` (rbp), the bounds found over every deterministic ranking
    of the group's items and the uniform random policy."""
    n = len(y_score)
    samples = [0] * n if samples is None else list(samples)
    items = list(range(n)) if items is None else list(items)
    out = []
    for q in sorted(set(groups)):
        rows = [i for i in range(n) if groups[i] == q]
        grade = {items[i]: float(y_true[i]) for i in rows}
        relevant_row = {i: int(y_true[i] > 0) for i in rows}
        rankings = sorted({samples[i] for i in rows})
        e = {it: 0.0 for it in grade}
        for s in rankings:
            in_s = [i for i in rows if samples[i] == s]
            orders = list(_orders_of_ranking(in_s, y_score))
            for order in orders:
                exp = _exposure_of_order(order, relevant_row, user_model, p, u)
                for r, x in exp.items():
                    e[items[r]] += x / len(orders) / len(rankings)
        names = sorted(grade, key=str)
        rel_item = {it: int(grade[it] > 0) for it in names}
        ideal = [it for g in sorted({grade[it] for it in names}, reverse=True)
                 for it in names if grade[it] == g]
        by_grade = sorted({grade[it] for it in names}, reverse=True)
        blocks = [[it for it in names if grade[it] == g] for g in by_grade]
        target = {it: 0.0 for it in names}
        ideal_orders = list(itertools.product(*(itertools.permutations(b)
                                                for b in blocks)))
        for parts in ideal_orders:
            order = [it for part in parts for it in part]
            exp = _exposure_of_order(order, rel_item, user_model, p, u)
            for it, x in exp.items():
                target[it] += x / len(ideal_orders)
        del ideal
        if item_groups is not None:
            dims = np.asarray(item_groups, dtype=object).reshape(n, -1)
            first_row = {items[i]: i for i in reversed(rows)}
            keys = sorted({(d, dims[first_row[it], d]) for it in names
                           for d in range(dims.shape[1])}, key=str)
            eg = {k: sum(e[it] for it in names if rel_item[it]
                         and dims[first_row[it], k[0]] == k[1]) for k in keys}
            tg = {k: sum(target[it] for it in names if rel_item[it]
                         and dims[first_row[it], k[0]] == k[1]) for k in keys}
            e, target, names = eg, tg, keys
        d = sum(e[it] ** 2 for it in names)
        r = sum(e[it] * target[it] for it in names)
        t = sum(target[it] ** 2 for it in names)
        value = {"loss": d - 2 * r + t, "disparity": d, "relevance": r}[measure]
        if normalize:
            perms = list(itertools.permutations(names))
            vecs = [_exposure_of_order(list(pm), rel_item, user_model, p, u)
                    for pm in perms]
            uniform = {it: sum(v[it] for v in vecs) / len(vecs) for it in names}
            ds = [sum(v[it] ** 2 for it in names) for v in vecs]
            rs = [sum(v[it] * target[it] for it in names) for v in vecs]
            ls = [sum((v[it] - target[it]) ** 2 for it in names) for v in vecs]
            lo = {"disparity": sum(uniform[it] ** 2 for it in names),
                  "relevance": min(rs), "loss": 0.0}[measure]
            hi = {"disparity": max(ds), "relevance": max(rs),
                  "loss": max(ls)}[measure]
            value = (value - lo) / (hi - lo) if hi - lo > 1e-12 else math.nan
        out.append(value)
    return np.array(out)


def awrf_loop(y_score, groups, item_groups, samples=None, items=None,
              convention="trec2022", p=0.5, distance="MinMaxRatio", target=None):
    """AWRF per group with loops.  ``"trec2022"`` as the TREC Fair Ranking
    2022 evaluation code (``qr_awrf``): attention ``1 / log2(max(rank, 2))``,
    the attention-weighted distribution of the item groups compared with the
    target by ``1 - JS`` (scipy's Jensen-Shannon distance squared, nats);
    ``"fairranktune"`` as FairRankTune 0.0.7's ``AWRF``: attention
    ``100 p (1-p)**(rank-1)`` summed per item group over the rankings,
    divided by the group's number of items, combined by ``distance``.  Tied
    items: every order enumerated, the attention averaged over them."""
    from scipy.spatial.distance import jensenshannon

    n = len(y_score)
    samples = [0] * n if samples is None else list(samples)
    items = list(range(n)) if items is None else list(items)
    out = []
    for q in sorted(set(groups)):
        rows = [i for i in range(n) if groups[i] == q]
        cats = sorted({item_groups[i] for i in rows}, key=str)
        att = {c: 0.0 for c in cats}
        for s in sorted({samples[i] for i in rows}):
            in_s = [i for i in rows if samples[i] == s]
            orders = list(_orders_of_ranking(in_s, y_score))
            for order in orders:
                for rank, r in enumerate(order, start=1):
                    a = (1 / math.log2(max(rank, 2)) if convention == "trec2022"
                         else 100 * p * (1 - p) ** (rank - 1))
                    att[item_groups[r]] += a / len(orders)
        if convention == "trec2022":
            if target is None:
                goal = [1.0] * len(cats)
            else:
                cats = sorted(target, key=str)
                att = {c: att.get(c, 0.0) for c in cats}
                goal = [target[c] for c in cats]
            total = sum(att.values())
            dist = jensenshannon([att[c] / total for c in cats], goal)
            # (scipy's sqrt of a divergence that rounds below 0 is NaN: 0)
            out.append(1 - float(np.nan_to_num(dist)) ** 2)
            continue
        count = {c: len({items[i] for i in rows if item_groups[i] == c})
                 for c in cats}
        vals = np.array([att[c] / count[c] for c in cats])
        combos = {
            "MinMaxRatio": lambda v: v.min() / v.max(),
            "MaxMinRatio": lambda v: v.max() / v.min(),
            "MaxMinDiff": lambda v: v.max() - v.min(),
            "MaxAbsDiff": lambda v: max(abs(x - v.mean()) for x in v),
            "MeanAbsDev": lambda v: np.sum(np.abs(v - v.mean())) / len(v),
            "LTwo": lambda v: np.linalg.norm(v, 2),
            "Variance": lambda v: np.var(v),
        }
        out.append(combos[distance](vals))
    return np.array(out)


def plackett_luce_exposure_loop(y_true, y_score, measure="loss", p=0.5,
                                user_model="rbp", u=0.5, items=False):
    """Expected exposure of one query under the Plackett-Luce policy of
    ``y_score`` (log-weights), exactly: every ranking of the items with a
    finite score enumerated with its probability
    prod_i exp(s_(i)) / sum_(j >= i) exp(s_(j)); items scored -inf are not
    ranked (exposure 0).  ``items=True``: the list of the items' exposures."""
    n = len(y_score)
    ranked = [i for i in range(n) if y_score[i] > -math.inf]

    def chance(r, left):  # exp(s_r) / sum of exp(s_j) over the items left
        return 1.0 / sum(math.exp(min(y_score[j] - y_score[r], 700.0))
                         for j in left)

    def rank_exposure(i, above):
        if user_model == "log":
            return 1.0 / math.log2(i + 2)
        e = p ** i
        if user_model == "gerr":
            e *= (1 - u) ** sum(1 for r in above if y_true[r] > 0)
        return e

    e = [0.0] * n
    for order in itertools.permutations(ranked):
        prob = 1.0
        for i, r in enumerate(order):
            prob *= chance(r, order[i:])
        for i, r in enumerate(order):
            e[r] += prob * rank_exposure(i, order[:i])
    if items:
        return e
    grades = sorted(set(y_true), reverse=True)
    target, start = [0.0] * n, 0
    for g in grades:
        members = [i for i in range(n) if y_true[i] == g]
        mean = sum(p ** i for i in range(start, start + len(members))) / len(members)
        for i in members:
            target[i] = mean
        start += len(members)
    d = sum(x * x for x in e)
    r = sum(a * b for a, b in zip(e, target))
    t = sum(x * x for x in target)
    return {"loss": d - 2 * r + t, "disparity": d, "relevance": r}[measure]


# --------------------------------------------------------------------------
# retrieval for RAG: a run against its qrels, and each harness's rules
# (issue 39).  A run is a list of (query, doc, score) rows, qrels a list of
# (query, doc, label) rows; everything below loops over them with dicts.
# The harnesses' rules are written from their source (the versions of
# doc/retrieval.rst): trec_eval 9 (pytrec_eval), BEIR 2.2
# (EvaluateRetrieval.evaluate, custom_metrics.mrr / hole), mteb 2
# (RetrievalEvaluator: pytrec_eval's measures, its own mrr), llama-index-core
# 0.14 (retrieval metrics) and ragas 0.4 (IDBasedContextPrecision / Recall).
# --------------------------------------------------------------------------
def qrels_dict(qrels):
    """``{query: {doc: label}}``."""
    out = {}
    for q, d, y in qrels:
        out.setdefault(q, {})[d] = y
    return out


def run_dict(run, *, exclude_self=False, chunk_of=None, aggregate="max"):
    """``{query: [(doc, score, first row)]}``, each document once: its chunks
    (``chunk_of``: chunk -> doc) or repeats merged (the best score; "first":
    the first chunk in ``chunk_of``'s order; "sum": the sum of scores)."""
    order = list(chunk_of) if chunk_of is not None else None
    merged = {}
    for i, (q, c, s) in enumerate(run):
        d = chunk_of[c] if chunk_of is not None else c
        if exclude_self and d == q:
            continue
        merged.setdefault(q, {}).setdefault(d, []).append((s, i, c))
    out = {}
    for q, docs in merged.items():
        rows = []
        for d, hits in docs.items():
            if chunk_of is not None and aggregate == "first":
                s, i, _ = min(hits, key=lambda h: order.index(h[2]))
                score = s
            elif chunk_of is not None and aggregate == "sum":
                score = sum(h[0] for h in hits)
            else:
                score = max(h[0] for h in hits)
            best = min(i for s, i, _ in hits if s == max(h[0] for h in hits))
            rows.append((d, score, best))
        out[q] = rows
    return out


def query_lists(run, qrels, *, complete=False, unjudged="zero", **hygiene):
    """``{query: (y_true, y_score, judged)}`` as the metric references read
    them: the retrieved documents, then each relevant judged document not
    retrieved (score -inf); run queries without qrels are left out."""
    judged = qrels_dict(qrels)
    runs = run_dict(run, **hygiene)
    queries = set(judged) if complete else set(judged) & set(runs)
    out = {}
    for q in queries:
        y_true, y_score, is_judged = [], [], []
        seen = set()
        for d, s, _ in runs.get(q, []):
            if unjudged == "drop" and d not in judged[q]:
                continue
            seen.add(d)
            y_true.append(judged[q].get(d, 0))
            y_score.append(s)
            is_judged.append(d in judged[q])
        for d, y in judged[q].items():
            if d not in seen and y > 0:
                y_true.append(y)
                y_score.append(NEG_INF)
                is_judged.append(True)
        out[q] = (y_true, y_score, is_judged)
    return out


def judged_at_k(is_judged, y_score, k):
    """ir_measures' Judged@k, expected over tie orders: judged documents in
    the top k over min(k, retrieved)."""
    retrieved = [s for s in y_score if s != NEG_INF]
    if not retrieved:
        return NAN
    flags = [1 if j else 0 for j, s in zip(is_judged, y_score) if s != NEG_INF]
    scores = [s for s in y_score if s != NEG_INF]
    return float(expected_hits(flags, scores, k) / min(k, len(retrieved)))


def trec_ranking(rows, ties):
    """Documents of ``[(doc, score, first row)]`` in a harness's order:
    ``"docno"``: score, then decreasing id text (trec_eval, pytrec_eval,
    mteb); ``"input"``: score, then the run's order (a stable sort)."""
    if ties == "docno":
        return [d for d, s, _ in sorted(rows, key=lambda r: (r[1], str(r[0])),
                                        reverse=True)]
    return [d for d, s, _ in sorted(rows, key=lambda r: (-r[1], r[2]))]


def trec_measure(measure, k, ranking, judged):
    """One trec_eval measure of one query (``judged``: its qrels dict,
    integer labels; relevant: label >= 1)."""
    R = sum(1 for y in judged.values() if y >= 1)
    rel = [judged.get(d, 0) for d in ranking]
    top = rel[:k] if k is not None else rel
    if measure == "P":
        return sum(1 for y in top if y >= 1) / k
    if measure == "recall":
        return sum(1 for y in top if y >= 1) / R if R else 0.0
    if measure == "success":
        return 1.0 if any(y >= 1 for y in top) else 0.0
    if measure == "recip_rank":
        for i, y in enumerate(top, start=1):
            if y >= 1:
                return 1.0 / i
        return 0.0
    if measure == "map_cut":
        hits, total = 0, 0.0
        for i, y in enumerate(top, start=1):
            if y >= 1:
                hits += 1
                total += hits / i
        return total / R if R else 0.0
    if measure == "ndcg_cut":
        dcg = sum(max(y, 0) / math.log2(i + 1) for i, y in enumerate(top, 1))
        ideal = sorted((y for y in judged.values() if y > 0), reverse=True)
        ideal = ideal[:k] if k is not None else ideal
        idcg = sum(y / math.log2(i + 1) for i, y in enumerate(ideal, 1))
        return dcg / idcg if idcg else 0.0
    raise ValueError(measure)


def trec_eval_mean(run, qrels, measure, k, *, complete=False, **hygiene):
    """trec_eval's ``all`` value: the mean over the run's judged queries
    (``complete``: over every judged query, -c)."""
    judged = qrels_dict(qrels)
    runs = run_dict(run, **hygiene)
    queries = set(judged) if complete else set(judged) & set(runs)
    values = [trec_measure(measure, k, trec_ranking(runs.get(q, []), "docno"),
                           judged[q]) for q in queries]
    return sum(values) / len(values)


def beir_evaluate(run, qrels, measure, k, ignore_identical_ids=True):
    """BEIR's EvaluateRetrieval.evaluate: pytrec_eval's measure, the sum
    over pytrec_eval's queries (the run's judged ones) over their number,
    rounded to 5 decimals; documents with the query's id dropped first."""
    judged = qrels_dict(qrels)
    runs = run_dict(run, exclude_self=ignore_identical_ids)
    queries = [q for q in runs if q in judged]
    total = 0.0
    for q in queries:
        total += trec_measure(measure, k, trec_ranking(runs[q], "docno"),
                              judged[q])
    return round(total / len(queries), 5)


def beir_mrr(run, qrels, k, ignore_identical_ids=True):
    """BEIR's custom_metrics.mrr: a stable sort by score (run order for
    ties), relevant: label > 0, the sum over the run's queries divided by
    len(qrels), 5 decimals."""
    judged = qrels_dict(qrels)
    runs = run_dict(run, exclude_self=ignore_identical_ids)
    total = 0.0
    for q, rows in runs.items():
        relevant = {d for d, y in judged[q].items() if y > 0}
        for rank, d in enumerate(trec_ranking(rows, "input")[:k]):
            if d in relevant:
                total += 1.0 / (rank + 1)
                break
    return round(total / len(judged), 5)


def beir_hole(run, qrels, k, ignore_identical_ids=True):
    """BEIR's custom_metrics.hole: the share of each run query's top k that
    no query's qrels name, summed over the run's queries, over len(qrels)."""
    judged = qrels_dict(qrels)
    annotated = {d for docs in judged.values() for d in docs}
    runs = run_dict(run, exclude_self=ignore_identical_ids)
    total = 0.0
    for rows in runs.values():
        top = trec_ranking(rows, "input")[:k]
        total += len([d for d in top if d not in annotated]) / k
    return round(total / len(judged), 5)


def mteb_mrr(run, qrels, k, ignore_identical_ids=False):
    """mteb 2's mrr: ties by (score, doc id) descending, relevant: label >
    0, the mean over the run's queries, unrounded."""
    judged = qrels_dict(qrels)
    runs = run_dict(run, exclude_self=ignore_identical_ids)
    values = []
    for q, rows in runs.items():
        relevant = {d for d, y in judged[q].items() if y > 0}
        rr = 0.0
        for rank, d in enumerate(trec_ranking(rows, "docno")[:k]):
            if d in relevant:
                rr = 1.0 / (rank + 1)
                break
        values.append(rr)
    return sum(values) / len(values)


def llama_metric(name, retrieved_ids, expected_ids):
    """llama_index's retrieval metric ``name`` of one query (its lists)."""
    expected = set(expected_ids)
    if name == "hit_rate":
        return 1.0 if any(d in expected_ids for d in retrieved_ids) else 0.0
    if name == "mrr":
        for i, d in enumerate(retrieved_ids):
            if d in expected_ids:
                return 1.0 / (i + 1)
        return 0.0
    if name == "precision":
        return len(set(retrieved_ids) & expected) / len(set(retrieved_ids))
    if name == "recall":
        return len(set(retrieved_ids) & expected) / len(expected)
    if name == "ap":
        count, total = 0, 0.0
        for i, d in enumerate(retrieved_ids, start=1):
            if d in expected:
                count += 1
                total += count / i
        return total / len(expected)
    if name == "ndcg":
        dcg = sum((1 / math.log2(i + 1)) if d in expected else 0
                  for i, d in enumerate(retrieved_ids, start=1))
        idcg = sum(1 / math.log2(i + 1) for i in range(1, len(expected_ids) + 1))
        return dcg / idcg
    raise ValueError(name)


def llama_mean(run, qrels, name, k=None):
    """The mean of llama_index's metric over the run's judged queries: each
    query's list ranked by score (run order for ties), its first k."""
    judged = qrels_dict(qrels)
    runs = run_dict(run)
    values = []
    for q, rows in runs.items():
        if q not in judged:
            continue
        retrieved = trec_ranking(rows, "input")[:k]
        expected = [d for d, y in judged[q].items() if y > 0]
        values.append(llama_metric(name, retrieved, expected))
    return sum(values) / len(values)


def ragas_mean(run, qrels, name, k=None):
    """ragas' ID-based context precision / recall over the run's queries
    (reference ids: label > 0; NaN when a set is empty, left out of the
    mean as safe_nanmean does)."""
    judged = qrels_dict(qrels)
    runs = run_dict(run)
    values = []
    for q, rows in runs.items():
        retrieved = {str(d) for d in trec_ranking(rows, "input")[:k]}
        reference = {str(d) for d, y in judged.get(q, {}).items() if y > 0}
        hits = len(retrieved & reference)
        if name == "id_based_context_precision":
            values.append(hits / len(retrieved) if retrieved else NAN)
        else:
            values.append(hits / len(reference) if reference else NAN)
    values = [v for v in values if v == v]
    return sum(values) / len(values)


# --------------------------------------------------------------------------
# diversity: grades per (item, intent)
# --------------------------------------------------------------------------
# One group: ``grades`` is a list of per-item lists (one grade per intent),
# ``y_score`` the items' scores.  An intent is "present" when some item of
# the group has a grade > 0 for it; the weights ``w_i`` are the given ones
# (equal by default) over the present intents, normalised to sum to 1.
DIVERSITY_DISCOUNTS = {
    "log2": lambda r: 1.0 / math.log2(r + 1),   # r: 1-based rank
    "reciprocal": lambda r: 1.0 / r,
}


def present_intents(grades):
    n_int = len(grades[0]) if grades else 0
    return [any(g[i] > 0 for g in grades) for i in range(n_int)]


def normalised_intent_weights(grades, weights=None):
    present = present_intents(grades)
    raw = [(1.0 if weights is None else weights[i]) if present[i] else 0.0
           for i in range(len(present))]
    total = sum(raw)
    return [x / total if total > 0 else 0.0 for x in raw]


def _discount_of(discount, beta):
    if discount == "geometric":
        return lambda r: beta ** (r - 1)
    return DIVERSITY_DISCOUNTS[discount]


def alpha_value_of_order(order_grades, w, alpha, discount="log2", k=None,
                         beta=None):
    """sum over ranks r <= k of D(r) * sum_i w_i g_{r,i} (1-alpha)^(c_i(r)),
    c_i(r) = items above r with g_i > 0 (Clarke et al. 2008 / 2009)."""
    D = _discount_of(discount, beta)
    seen = [0] * len(w)
    total = 0.0
    for r, g in enumerate(order_grades, start=1):
        if k is not None and r > k:
            break
        gain = 0.0
        for i, gi in enumerate(g):
            if gi > 0:
                gain += w[i] * gi * (1 - alpha) ** seen[i]
        total += D(r) * gain
        for i, gi in enumerate(g):
            if gi > 0:
                seen[i] += 1
    return total


def diversity_orderings(grades, y_score):
    """Every order of the retrieved items (tie blocks permuted), as lists of
    item indices; items scored -inf are left out (not retrieved)."""
    idx = [i for i in range(len(grades)) if y_score[i] != NEG_INF]
    levels = sorted({y_score[i] for i in idx}, reverse=True)
    blocks = [[i for i in idx if y_score[i] == s] for s in levels]
    for combo in itertools.product(*(itertools.permutations(b) for b in blocks)):
        yield [i for block in combo for i in block]


def alpha_value_expected(grades, y_score, alpha, discount="log2", k=None,
                         beta=None, weights=None):
    """The mean over every order of the tied items (exact enumeration)."""
    w = normalised_intent_weights(grades, weights)
    values = [alpha_value_of_order([grades[i] for i in order], w, alpha,
                                   discount, k, beta)
              for order in diversity_orderings(grades, y_score)]
    return sum(values) / len(values)


def alpha_ideal_exact(grades, alpha, discount="log2", k=None, beta=None,
                      weights=None):
    """The largest value over every order of all the items (brute force)."""
    w = normalised_intent_weights(grades, weights)
    return max(alpha_value_of_order([grades[i] for i in perm], w, alpha,
                                    discount, k, beta)
               for perm in itertools.permutations(range(len(grades))))


def alpha_ideal_greedy(grades, alpha, discount="log2", k=None, beta=None,
                       weights=None, docno=None):
    """ndeval's greedy ideal: at each rank the item of largest gain given the
    items placed; equal gains go to the larger docno (ndeval's strcmp > 0)."""
    w = normalised_intent_weights(grades, weights)
    left = list(range(len(grades)))
    seen = [0] * len(w)
    order = []
    while left:
        best, best_gain = None, None
        for i in left:
            gain = sum(w[t] * g * (1 - alpha) ** seen[t]
                       for t, g in enumerate(grades[i]) if g > 0)
            key = docno[i] if docno is not None else tuple(grades[i])
            if best is None or gain > best_gain or (
                    gain == best_gain and key > (
                        docno[best] if docno is not None else tuple(grades[best]))):
                best, best_gain = i, gain
        order.append(best)
        left.remove(best)
        for t, g in enumerate(grades[best]):
            if g > 0:
                seen[t] += 1
    return alpha_value_of_order([grades[i] for i in order], w, alpha, discount,
                                k, beta)


def subtopic_recall_expected(grades, y_score, k, weights=None):
    """Mean over tied orders of the weighted share of present intents with a
    relevant item among the first k retrieved (Zhai et al. 2003)."""
    w = normalised_intent_weights(grades, weights)
    vals = []
    for order in diversity_orderings(grades, y_score):
        top = order[:k]
        vals.append(sum(w[i] for i in range(len(w))
                        if any(grades[d][i] > 0 for d in top)))
    return sum(vals) / len(vals)


def alpha_ideal_ideal(grades, alpha, discount="log2", k=None, beta=None,
                      weights=None):
    """ndeval's "ideal ideal": every rank r <= k (k=None: the group's size;
    NRBP's geometric discount: every rank, a geometric series) holds an item
    relevant to every intent at the group's largest grade."""
    w = normalised_intent_weights(grades, weights)
    top = sum(w[i] * max(g[i] for g in grades) for i in range(len(w)))
    if discount == "geometric" and k is None:
        return top / (1 - (1 - alpha) * beta)
    D = _discount_of(discount, beta)
    depth = len(grades) if k is None else k
    return top * sum(D(r) * (1 - alpha) ** (r - 1) for r in range(1, depth + 1))


def intent_aware(grades, y_score, per_intent_metric, weights=None):
    """sum_i w_i M_i over the intents where M_i is defined (not NaN), the
    weights renormalised over them (Agrawal et al. 2009)."""
    w = normalised_intent_weights(grades, weights)
    total = mass = 0.0
    for i in range(len(w)):
        value = per_intent_metric([g[i] for g in grades], y_score)
        if not math.isnan(value) and w[i] > 0:
            total += w[i] * value
            mass += w[i]
    return total / mass if mass > 0 else NAN


def d_sharp_ndcg(grades, y_score, k, gamma, weights=None):
    """gamma * I-rec@k + (1 - gamma) * D-nDCG@k (Sakai and Song 2011): I-rec
    counts every present intent alike; D-nDCG is the nDCG of the global gain
    sum_i w_i g_i, ideal = items by global gain (expected over tied orders)."""
    irec = subtopic_recall_expected(grades, y_score, k if k is not None
                                    else len(grades))
    value = alpha_value_expected(grades, y_score, 0.0, "log2", k, None, weights)
    ideal = alpha_ideal_exact(grades, 0.0, "log2", k, None, weights)
    return gamma * irec + (1 - gamma) * value / ideal


# --------------------------------------------------------------------------
# TREC runs against qrels, query by query (``rankeval compare``)
# --------------------------------------------------------------------------
def trec_eval_order(docs):
    """The documents of ``{docno: score}`` as trec_eval ranks them
    (``form_res_rels.c``): document ids in decreasing ``strcmp`` order, then
    a stable sort by decreasing score."""
    order = sorted(docs, reverse=True)
    order.sort(key=docs.__getitem__, reverse=True)
    return order


def trec_runs_by_query(qrels, runs, qids):
    """``rankeval compare``'s TREC arrays by the previous rule, query by
    query: ``(groups, relevance, [scores of each run])``.  A query's rows are
    the sorted union of its judged and retrieved documents; relevance the
    qrels grade clipped at 0; a run's score its place in trec_eval's order
    (score descending, document id descending), counted down from the number
    it retrieved, ``-inf`` where it retrieved nothing."""
    groups, rel, columns = [], [], [[] for _ in runs]
    for q in qids:
        judged = qrels[q]
        docs = sorted(set(judged).union(*(run.get(q, {}) for run in runs)))
        groups += [q] * len(docs)
        rel += [max(judged.get(d, 0), 0) for d in docs]
        for column, run in zip(columns, runs):
            order = trec_eval_order(run.get(q, {}))
            position = {d: len(order) - i for i, d in enumerate(order)}
            column += [position.get(d, NEG_INF) for d in docs]
    return (np.asarray(groups), np.asarray(rel, dtype=np.float64),
            [np.asarray(c, dtype=np.float64) for c in columns])


def trec_arrays_by_query(qrels, run, *, max_docs=None, complete=False,
                         judged_only=False):
    """A run against qrels as trec_eval reads it (``form_res_rels.c``),
    query by query: ``(qids, relevance, scores, sizes, n_retrieved)`` of the
    rows of each query, its retrieved documents in trec_eval's order (score
    descending, document id descending; the first ``max_docs``; with
    ``judged_only`` those judged >= 0), scored by their place counted down,
    then its judged documents not among them by document id, scored
    ``-inf``.  Relevance: the qrels value; -1 for a retrieved document not
    in the qrels, -2 for one judged negative (trec_eval's NONPOOL and
    UNJUDGED)."""
    qids = sorted(qrels) if complete else sorted(set(qrels) & set(run))
    rel, score, sizes, n_retrieved = [], [], [], []
    for q in qids:
        judged = qrels[q]
        ranked = trec_eval_order(run.get(q, {}))[:max_docs]
        if judged_only:
            ranked = [d for d in ranked if judged.get(d, -1) >= 0]
        rel += [-2 if judged.get(d, 0) < 0 else judged.get(d, -1) for d in ranked]
        missing = sorted(set(judged) - set(ranked))
        rel += [judged[d] for d in missing]
        score += [float(len(ranked) - i) for i in range(len(ranked))]
        score += [NEG_INF] * len(missing)
        sizes.append(len(ranked) + len(missing))
        n_retrieved.append(len(ranked))
    return qids, rel, score, sizes, n_retrieved
