"""``convention=``: another library's number by name, and the switches under it.

A *switch* is one rule on which the libraries differ: the gain of a grade
(``gain``), the order of tied items (``ties``), the normaliser of AP@k and
P@k (``k_denominator``), the value of a query without relevant items
(``undefined``), the weight of a group in GAUC (``group_weight``), what
``sample_weight`` means for MAP (``query_weight``), trec_eval's recall
levels (``recall_levels``), and for the diversity metrics the ideal that
normalises them (``normalization``) and whether grades per intent are read
as gains or as 0/1 (``grades``).  Each switch defaults to None in the public
functions, meaning "the convention's rule, else this library's own".

A *preset* (:data:`PRESETS`) gives the switches that reproduce one library's
metric, metric by metric; where a library has no such metric, or its rule
cannot be expressed, the preset holds the reason instead, and asking for it
is a ``ValueError`` naming the metric and the convention: never a number
computed with a different rule.  An explicit switch overrides its preset.

The switches ``ties`` and ``query_weight`` act on the input before the
engine ranks it (:func:`prepare`): ``ties="input"`` / ``"docno"`` replace
the scores with a tie-free score of the same order (a stable sort, only on
that path, so the default path is untouched); ``query_weight="mean"``
replaces each row's weight with the mean over its group.
"""

import numpy as np

from .._core import (
    InvalidParameterError,
    check_option,
    check_undefined,
    device_of,
    namespace_of,
    validate_scores,
)
from .._engine import (
    docno_codes,
    docno_order,
    encode_rows,
    known_distinct,
    tie_blocks,
)

__all__ = [
    "CONVENTIONS",
    "PRESETS",
    "RANKING_SWITCHES",
    "SWITCHES",
    "Gain",
    "check_convention",
    "check_gain",
    "check_result",
    "convention_plan",
    "group_average",
    "group_info",
    "needs_input_order",
    "prepare",
    "resolve",
    "resolved_metrics",
    "split_scorer_name",
]

CONVENTIONS = ("lightgbm", "xgboost", "trec_eval", "ranx", "torchmetrics",
               "sklearn", "recbole", "spark", "ndeval")
#: Options whose None means "the convention's value, else the default".
SWITCHES = ("gain", "ties", "k_denominator", "group_weight", "query_weight",
            "recall_levels", "undefined", "normalization", "grades")
#: Switches applied to the input before ranking (one per ranking, not per metric).
RANKING_SWITCHES = ("ties", "query_weight")
TIES = ("expected", "input", "docno")
GROUP_WEIGHTS = ("impressions", "uniform", "positives")
QUERY_WEIGHTS = ("item", "mean")


# ---------------------------------------------------------------------------
# gains
# ---------------------------------------------------------------------------
class Gain:
    """A gain that is not linear or exponential: hashable, picklable, elementwise.

    ``kind`` is ``"binary"`` (1 for a relevant item), ``"table"`` (``gains``
    indexed by the integer grade, as LightGBM's ``label_gain``) or
    ``"callable"``.
    """

    def __init__(self, kind, payload=None):
        self.kind = kind
        self.payload = payload

    def __call__(self, relevance):
        xp = namespace_of(relevance)
        if xp is not np:  # an Array API array: computed in its namespace
            return self._array_api(xp, relevance)
        rel = np.asarray(relevance, dtype=np.float64)
        if self.kind == "binary":
            return (rel > 0).astype(np.float64)
        if self.kind == "table":
            table = np.asarray(self.payload, dtype=np.float64)
            grade = rel.astype(np.int64)
            if rel.size and (not np.array_equal(grade, rel) or grade.max()
                             >= len(table)):
                raise ValueError(
                    f"gain as an array needs integer grades below its length "
                    f"({len(table)}); got y_true up to {rel.max():g}."
                )
            return table[grade]
        out = np.asarray(self.payload(rel), dtype=np.float64)
        if out.shape != rel.shape or not np.isfinite(out).all():
            raise ValueError("gain(y_true) must return one finite gain per item.")
        return out

    def _array_api(self, xp, relevance):
        rel = xp.astype(relevance, xp.float64)
        if self.kind == "binary":
            return xp.astype(rel > 0, xp.float64)
        if self.kind == "table":
            table = xp.asarray(np.asarray(self.payload, dtype=np.float64),
                               device=device_of(rel))
            grade = xp.astype(rel, xp.int64)
            if rel.shape[0] and (not bool(xp.all(xp.astype(grade, xp.float64) == rel))
                                 or int(xp.max(grade)) >= table.shape[0]):
                raise ValueError(
                    f"gain as an array needs integer grades below its length "
                    f"({table.shape[0]}); got y_true up to {float(xp.max(rel)):g}."
                )
            return xp.take(table, grade)
        # a callable gets the array of the input's namespace (write it with
        # operators, or with array_api_compat.array_namespace(rel))
        out = xp.astype(xp.asarray(self.payload(rel)), xp.float64)
        if out.shape != rel.shape or not bool(xp.all(xp.isfinite(out))):
            raise ValueError("gain(y_true) must return one finite gain per item.")
        return out

    def _key(self):
        return (self.kind, self.payload)

    def __eq__(self, other):
        return isinstance(other, Gain) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return repr(self.kind if self.kind == "binary" else self.payload)


def check_gain(value):
    """A gain: a name, an array of gains by grade, or a callable."""
    if isinstance(value, Gain):
        return value
    if isinstance(value, str):
        check_option(value, "gain", ("linear", "exponential", "binary"))
        return Gain("binary") if value == "binary" else value
    if callable(value):
        return Gain("callable", value)
    try:
        table = (np.asarray(value, dtype=np.float64) if value is not None
                 else None)
    except (TypeError, ValueError):
        table = None
    if table is None or table.ndim != 1 or table.size == 0 \
            or not np.isfinite(table).all():
        raise InvalidParameterError(
            "gain", f"must be 'linear', 'exponential', 'binary', a 1-D array of "
            f"finite gains indexed by grade or a callable; got {value!r}.")
    return Gain("table", tuple(table.tolist()))


# ---------------------------------------------------------------------------
# presets
# ---------------------------------------------------------------------------
def _only(library, names):
    return (f"{library} has no per-query metric of that name (its per-query "
            f"evaluation metrics are {names})")


def _preset(common, per_metric, missing):
    """{metric: switches or reason}: ``common`` merged into each metric's own."""
    out = {}
    for name, own in per_metric.items():
        out[name] = own if isinstance(own, str) else {**common, **own}
    out["__missing__"] = missing
    return out


PRESETS = {
    "lightgbm": _preset(
        {"ties": "input", "undefined": 1.0},
        {"ndcg": {"gain": "exponential"},
         "map": {"k_denominator": "min", "query_weight": "mean"}},
        _only("LightGBM", "ndcg@k and map@k; its auc and average_precision "
                          "pool all rows"),
    ),
    "xgboost": _preset(
        {"ties": "input", "undefined": 1.0},
        {"ndcg": {"gain": "exponential"},
         "map": {"k_denominator": "min", "query_weight": "mean"},
         "precision": {"k_denominator": "retrieved", "undefined": 0.0}},
        _only("XGBoost", "ndcg@k, map@k and pre@k"),
    ),
    "trec_eval": _preset(
        {"ties": "docno", "undefined": 0.0},
        {"map": {"k_denominator": "relevant"}, "mrr": {}, "precision": {},
         "recall": {}, "ndcg": {"gain": "linear"}, "r_precision": {},
         "success": {}, "bpref": {},
         "interpolated_ap": {"recall_levels": "trec_eval_9"},
         "hit_rate": "trec_eval's success_k is success_at_k_score and its "
                     "recall_k is recall_at_k_score"},
        _only("trec_eval", "map, map_cut, P, recall, ndcg, ndcg_cut, "
                           "recip_rank, Rprec, success, bpref and "
                           "iprec_at_recall / 11pt"),
    ),
    "ranx": _preset(
        {"ties": "input", "undefined": 0.0},
        {"map": {"k_denominator": "relevant"}, "mrr": {}, "precision": {},
         "recall": {}, "ndcg": {"gain": "linear"}, "dcg": {"gain": "linear"},
         "r_precision": {}, "bpref": {},
         "success": {},
         "hit_rate": "ranx's hit_rate@k is the share of queries with a hit: "
                     "success_at_k_score"},
        _only("ranx", "map, mrr, precision, recall, ndcg, dcg, r-precision, "
                      "bpref and hit_rate (success@k)"),
    ),
    "torchmetrics": _preset(
        {"ties": "input", "undefined": 0.0},
        {"map": {"k_denominator": "hits"}, "mrr": {}, "precision": {},
         "recall": {}, "ndcg": {"gain": "linear", "ties": "expected"},
         "r_precision": {}, "success": {},
         "gauc": {"ties": "expected", "group_weight": "uniform"},
         "hit_rate": "torchmetrics' RetrievalHitRate is the share of queries "
                     "with a hit: success_at_k_score"},
        _only("torchmetrics", "RetrievalMAP, RetrievalMRR, RetrievalPrecision, "
                              "RetrievalRecall, RetrievalNormalizedDCG, "
                              "RetrievalRPrecision, RetrievalHitRate and "
                              "RetrievalAUROC"),
    ),
    "sklearn": _preset(
        {"ties": "expected", "undefined": 0.0},
        {"ndcg": {"gain": "linear"}, "dcg": {"gain": "linear"}, "map": {}},
        _only("scikit-learn", "ndcg_score, dcg_score and "
                              "average_precision_score (one query at a time)"),
    ),
    "recbole": _preset(
        {"ties": "input"},
        {"gauc": {"ties": "expected", "group_weight": "positives"},
         "mrr": {}, "ndcg": {"gain": "binary"}, "map": {"k_denominator": "min"},
         "precision": {}, "recall": {}, "success": {},
         "hit_rate": "RecBole's Hit is the share of users with a hit: "
                     "success_at_k_score"},
        _only("RecBole", "GAUC, MRR, NDCG, MAP, Precision, Recall and Hit"),
    ),
    "spark": _preset(
        {"ties": "input", "undefined": 0.0},
        {"map": {"k_denominator": "min"}, "ndcg": {"gain": "binary"},
         "precision": {}, "recall": {}},
        _only("Spark's RankingMetrics", "meanAveragePrecision(At), ndcgAt, "
                                        "precisionAt and recallAt"),
    ),
    # ndeval (TREC Web 2009-2014): the greedy ideal, binary grades (its
    # qrels read any grade > 0 as 1), ties by decreasing docno (ndeval
    # -traditional, as trec_eval); every intent weighs the same there
    "ndeval": _preset(
        {"ties": "docno", "undefined": 0.0},
        {**dict.fromkeys(("alpha_ndcg", "err_ia", "nrbp"),
                         {"normalization": "greedy", "grades": "binary"}),
         "subtopic_recall": {"grades": "binary"}, "intent_aware": {}},
        _only("ndeval", "ERR-IA, nERR-IA, alpha-DCG, alpha-nDCG, NRBP, nNRBP, "
                        "MAP-IA, P-IA and strec"),
    ),
}


def _ndeval_limits(metric_name):
    """ndeval computes its measures at the cutoffs 1..20 (NRBP, MAP-IA at none)."""
    return lambda options: _ndeval_limit(metric_name, options)


def _ndeval_limit(metric_name, options):
    k = options.get("k")
    if metric_name == "intent_aware":  # ndeval's P-IA@k and MAP-IA
        metric = options.get("metric", "precision@10")
        name = metric[0] if isinstance(metric, tuple) else metric
        base, _, cut = str(name).partition("@")
        if k is not None and cut:
            cut = str(k)
        if base == "map" and not cut:
            return None
        if base == "precision" and cut.isdigit() and int(cut) <= 20:
            return None
        return (f"ndeval's intent-aware measures are P-IA@k (k <= 20) and "
                f"MAP-IA (metric='precision@k' or 'map'), not {name!r}")
    if k == 1 and options.get("normalization") == "ideal-ideal":
        return ("ndeval leaves its alpha-DCG@1 and ERR-IA@1 undivided (its "
                "normalising loop starts at rank 2): it prints the weighted "
                "count of intents the first item covers, not a normalised value")
    if metric_name == "nrbp":  # NRBP: over the whole ranking
        return None if k is None else "ndeval's NRBP has no cutoff (k=None)"
    if k is None or k > 20:
        return f"ndeval computes its measures at cutoffs up to 20, not k={k}"
    return None


#: Rules that hold only for some arguments: (convention, metric) -> check.
_LIMITS = {
    ("sklearn", "map"): lambda options: None if options.get("k") is None else (
        "scikit-learn's average_precision_score has no cutoff k"),
    **{("ndeval", name): _ndeval_limits(name)
       for name in ("alpha_ndcg", "err_ia", "nrbp", "subtopic_recall",
                    "intent_aware")},
}


def check_convention(convention):
    if convention is None:
        return None
    return check_option(convention, "convention", CONVENTIONS)


def preset(convention, spec, options=None):
    """The switches of ``convention`` for one metric; ValueError if it has none."""
    convention = check_convention(convention)
    if convention is None:
        return {}
    table = PRESETS[convention]
    rule = table.get(spec.name, table["__missing__"])
    if isinstance(rule, str):
        raise ValueError(
            f"convention={convention!r} cannot give {spec.name!r} "
            f"({spec.func_name}): {rule}."
        )
    limit = _LIMITS.get((convention, spec.name))
    reason = limit(options or {}) if limit is not None else None
    if reason is not None:
        raise ValueError(
            f"convention={convention!r} cannot give {spec.name!r} "
            f"({spec.func_name}) with these arguments: {reason}."
        )
    return dict(rule)


def resolve(spec, convention, explicit):
    """Switches of one call: explicit (not None) ones over the preset's.

    ``explicit`` holds the call's switches (None where not given) and its
    other options.  Returns ``(options, switches)``: the kernel options
    (switch options filled) and the call-level switches ``undefined``,
    ``ties``, ``query_weight``, ``group_weight`` (None where unset).
    """
    given = {name: value for name, value in explicit.items()
             if not (name in SWITCHES and value is None)}
    rules = preset(convention, spec, given)
    merged = {**rules, **given}
    option_names = spec.option_names
    options = {name: value for name, value in merged.items()
               if name in option_names}
    switches = {name: merged.get(name) for name in
                ("undefined", "ties", "query_weight", "group_weight")}
    for name in merged:
        if name not in option_names and name not in switches:
            raise TypeError(f"{spec.func_name}() got an unexpected option {name}.")
    if switches["undefined"] is None:
        # a group metric warns how many groups it leaves out; the pooled
        # CTR metrics pool every row (their per-group values are a frame's)
        switches["undefined"] = "skip" if spec.pools_undefined else "warn"
    switches["undefined"] = check_undefined(switches["undefined"])
    if switches["ties"] is not None:
        check_option(switches["ties"], "ties", TIES)
    if switches["query_weight"] is not None:
        check_option(switches["query_weight"], "query_weight", QUERY_WEIGHTS)
    if switches["group_weight"] is not None:
        check_option(switches["group_weight"], "group_weight", GROUP_WEIGHTS)
    return options, switches


def split_scorer_name(name):
    """``"lightgbm:ndcg@10"`` -> ("lightgbm", "ndcg@10"); others -> (None, name)."""
    prefix, sep, rest = name.partition(":")
    if sep and prefix in CONVENTIONS:
        return prefix, rest
    return None, name


# ---------------------------------------------------------------------------
# switches on the input: ties and query weights
# ---------------------------------------------------------------------------
def _docno_key(docno, shape):
    ids = np.asarray(docno.to_numpy() if hasattr(docno, "to_numpy")
                     and not isinstance(docno, np.ndarray) else docno)
    if ids.shape != shape:
        raise ValueError(f"docno must have the shape of y_score {shape}, got "
                         f"{ids.shape}.")
    return docno_codes(ids)


def tie_free_scores(y_score, ties, docno=None, groups=None):
    """Scores without ties that rank the items as ``ties`` orders them.

    ``"input"``: tied items in the order of the input (row order; column
    order for 2-D input), as a stable sort leaves them.  ``"docno"``: tied
    items by ``docno`` in decreasing order, as trec_eval sorts them.  Scores
    of ``-inf`` (not retrieved) stay ``-inf``.  ``groups`` (optional, 1-D):
    the rows' groups, which let scores without a tie inside any group
    (lists in rank order) come back as they are, with no sort.
    """
    s = validate_scores(y_score)
    if ties == "docno":
        if docno is None:
            raise ValueError("ties='docno' needs docno=, the id of each item "
                             "(trec_eval breaks ties by decreasing docno).")
        code = _docno_key(docno, s.shape)
    elif docno is not None:
        raise ValueError(f"docno= is only used with ties='docno', not "
                         f"ties={ties!r}.")
    if known_distinct(s, None if s.ndim == 2 else groups):
        # no tie to break (ranks, lists in order, scores already tie-free)
        return np.array(s, dtype=np.float64)
    if s.ndim == 2:
        if ties == "docno":  # one ranking per row: the rows are the groups
            rows = np.repeat(np.arange(s.shape[0]), s.shape[1])
            order = (docno_order(s.reshape(-1), code.reshape(-1), rows)
                     % max(s.shape[1], 1)).reshape(s.shape)
        else:
            order = np.argsort(-s, axis=1, kind="stable")
        out = np.empty(s.shape)
        np.put_along_axis(out, order, np.arange(s.shape[1], 0, -1,
                                                dtype=np.float64)[None, :], axis=1)
    else:
        order = (docno_order(s, code) if ties == "docno"
                 else np.argsort(-s, kind="stable"))
        out = np.empty(s.shape[0])
        out[order] = np.arange(s.shape[0], 0, -1, dtype=np.float64)
    out[s == -np.inf] = -np.inf
    return out


#: ranx keeps tied items in run order only in queries of at most this many
#: retrieved items: it sorts a query's run with numba's quicksort, an
#: insertion sort (stable) up to 15 items.
RANX_STABLE_SIZE = 15


def _metric_label(spec, options):
    k = options.get("k")
    return spec.name if k is None else f"{spec.name}@{k}"


class _TieBlocks:
    """The retrieved tie blocks of the groups that ranx may reorder.

    Per block (group by group, best score first): ``group`` (the group's
    code), ``start`` (items of the group ranked above it), ``size``,
    ``n_rel`` (its relevant items under ``key > 0``), ``mixed`` (whether
    ``key`` differs inside it), ``rel_above`` / ``non_above`` (relevant /
    non-relevant items above it); per group ``n_rel`` and ``n_non`` (all its
    rows, retrieved or not).
    """

    def __init__(self, idx, s, key, keep, n_groups):
        positive = key > 0
        self.group_n_rel = np.bincount(idx, weights=positive,
                                       minlength=n_groups).astype(np.int64)
        self.group_n_non = np.bincount(idx, minlength=n_groups) - self.group_n_rel
        g, s, key = idx[keep], s[keep], key[keep]
        # group, best score first, key: the engine's rule of the blocks
        blocks = tie_blocks(g, s, np.lexsort((key, -s, g)))
        first, block = blocks.first, blocks.block
        key = key[blocks.perm]
        self.size, self.group, self.start = blocks.size, blocks.group, blocks.start
        self.n_rel = np.add.reduceat(key > 0, first).astype(np.int64) \
            if len(first) else np.zeros(0, dtype=np.int64)
        self.mixed = np.zeros(len(first), dtype=bool)
        tied = block[1:] == block[:-1]
        self.mixed[block[1:][tied & (key[1:] != key[:-1])]] = True
        # relevant items of the group above each block
        cum = np.cumsum(self.n_rel) - self.n_rel
        first_block = np.flatnonzero(np.r_[True, self.group[1:] != self.group[:-1]])
        offset = np.repeat(cum[first_block], np.diff(np.r_[first_block,
                                                           len(first)]))
        self.rel_above = cum - offset
        self.non_above = self.start - self.rel_above


def _order_sensitive(spec, options, b):
    """The blocks of ``b`` whose order changes ``spec``'s value, and why.

    Each rule is exact (some two orders of the tie give two values, and
    outside it every order gives one) for the metric as the ranx preset
    computes it; ``t = k - start`` is the number of the block's items that
    fall within the cutoff, ``r`` / ``q`` its relevant / non-relevant items.
    """
    k = options.get("k")
    m, start, mixed = b.size, b.start, b.mixed
    q = m - b.n_rel
    within = start < k if k is not None else np.ones(len(m), dtype=bool)
    name = spec.name
    if name in ("precision", "recall", "hit_rate"):
        # the hits in the top k: a tie wholly inside or wholly below the
        # top k adds the same number in every order; one across rank k adds
        # between max(0, t - q) and min(t, r) of its relevant items
        return mixed & within & (k < start + m), (
            f"the tie crosses the cutoff k={k}, so which of its items are in "
            f"the top {k} changes the number")
    if name == "success":
        # 1 whatever the order once a relevant item ranks above the tie; else
        # 0 in some order exactly when the t places of the top k can all take
        # non-relevant items of the tie (t <= q)
        t = k - start
        return mixed & (b.rel_above == 0) & (t >= 1) & (t <= q), (
            f"the tie crosses the cutoff k={k} with no relevant item above it "
            f"and enough non-relevant items to fill the top {k}")
    if name == "mrr":
        # only the block of the first relevant item matters, and only if a
        # non-relevant item of it can come first (a mixed tie)
        return mixed & (b.rel_above == 0) & within, (
            "the tie holds the first relevant item and a non-relevant one"
            + ("" if k is None else f" within k={k}"))
    if name == "r_precision":
        # P@R with R the group's relevant items: a tie across rank R
        R = b.group_n_rel[b.group]
        t = R - start
        return mixed & (t > 0) & (t < m), (
            "the tie crosses rank R (the query's number of relevant items)")
    if name == "bpref":
        # each relevant item scores 1 - min(n, C) / C, C = min(N, R), n the
        # non-relevant items above it: the tie's order moves n between n0
        # and n0 + q, which changes min(n, C) when n0 < C
        cap = np.minimum(b.group_n_non, b.group_n_rel)[b.group]
        return mixed & (b.non_above < cap), (
            "fewer than min(R, N) non-relevant items rank above the tie")
    # AP (each relevant item's precision depends on its rank), NDCG and DCG
    # (strictly decreasing discounts), and any other metric: a mixed tie
    # that starts within the cutoff (anywhere without one)
    return mixed & within, ("" if k is None else
                            f"the tie starts within k={k}")


def _relevance_key(spec, options, rel):
    """What a tie must differ in to matter: gains (graded metrics) or
    relevance at the metric's threshold."""
    if spec.graded:
        gain = options.get("gain", "linear")
        if isinstance(gain, Gain):
            return ("gain", gain), gain(rel)
        return ("grade",), rel  # linear and 2**g - 1 keep the grades' order
    threshold = options.get("rel")
    if threshold is None or threshold == "binary":
        return ("relevant",), (rel > 0).astype(np.int8)
    return ("rel", threshold), (rel >= threshold).astype(np.int8)


def check_ranx_ties(layout, y_true, y_score, groups, metrics):
    """Raise where ranx's number depends on an order of tied items it does not keep.

    In a query of more than :data:`RANX_STABLE_SIZE` retrieved items, ranx
    leaves tied items in an order of its sort's own.  Such a tie is refused
    only where some order of its items gives another value of the metric;
    elsewhere ranx's number is the one of every tie order, so the run order
    (``ties="input"``) gives it.  Per metric (``t = k - s`` places of the top
    ``k`` for a tie below ``s`` items; ``r`` / ``q`` its relevant /
    non-relevant items):

    * P@k, R@k, HR@k: a tie whose relevance differs and that crosses rank
      ``k`` (``s < k < s + m``): the top k then holds from ``max(0, t - q)``
      to ``min(t, r)`` of its relevant items, two different counts.  A tie
      wholly inside the top k, or wholly below it, adds the same count.
    * success@k: such a tie with no relevant item above it and ``t <= q``
      (the top k can miss every relevant item of the tie, or hold one).
    * MRR (and MRR@k): the tie that holds the first relevant item, if it
      also holds a non-relevant item (and starts within k): the first
      relevant rank runs from ``s + 1`` to ``s + 1 + q``.  Ties below it
      never change the value; ties above it hold no relevant item.
    * R-precision: a tie of differing relevance across rank R.
    * bpref: a tie of differing relevance with fewer than ``min(R, N)``
      non-relevant items above it (each relevant item's ``min(n, C)``
      changes with the non-relevant items the order puts above it).
    * AP and AP@k, NDCG and DCG (at k or not): a tie whose relevance (gains
      for NDCG and DCG) differs and that starts within the cutoff (anywhere
      without one): all relevant items first scores strictly more than all
      non-relevant items first (precisions and discounts strictly decrease
      with the rank).

    ``metrics`` is a list of ``(spec, options)``; the threshold ``rel`` of an
    option sets the relevance.  Items scored ``-inf`` are not in ranx's run:
    they are not ranked and do not count in the query's size.  The arrays
    are the input door's (:class:`~sklearn_rankeval._engine.RankingInput`,
    ``layout`` its layout): checked, not read again here.
    """
    if known_distinct(y_score, None if np.ndim(y_score) == 2 else groups):
        # no tie for ranx to reorder
        return
    rel, s = np.asarray(y_true), np.asarray(y_score)
    if layout == "multiclass":  # the true class is the one relevant item
        rel = rel[:, None] == np.arange(s.shape[1])[None, :]
    if s.ndim == 2:
        idx = np.repeat(np.arange(s.shape[0]), s.shape[1])
        names = np.arange(s.shape[0])
        s, rel = s.reshape(-1), rel.reshape(-1)
    elif groups is None:
        idx, names = np.zeros(len(s), dtype=np.int64), None
    else:
        idx, names = encode_rows(groups, len(s))
    rel = np.asarray(rel, dtype=np.float64)
    retrieved = s > -np.inf
    n_groups = int(idx.max()) + 1 if len(idx) else 0
    size = np.bincount(idx[retrieved], minlength=n_groups)
    keep = retrieved & (size[idx] > RANX_STABLE_SIZE)
    if not keep.any():
        return
    tables = {}
    for spec, options in metrics:
        what, key = _relevance_key(spec, options, rel)
        if what not in tables:
            tables[what] = _TieBlocks(idx, s, key, keep, n_groups)
        b = tables[what]
        bad, why = _order_sensitive(spec, options, b)
        bad = np.flatnonzero(bad)
        if not len(bad):
            continue
        # (named: the first query's best-ranked such tie)
        i = bad[np.lexsort((b.start[bad], b.group[bad]))[0]]
        m, g = b.size[i], b.group[i]
        query = "the ranking" if names is None else f"query {names[g].item()!r}"
        differ = ("grades" if spec.graded else "relevance (y_true > 0)"
                  if options.get("rel") in (None, "binary")
                  else f"relevance (y_true >= {options['rel']})")
        raise ValueError(
            f"convention='ranx' cannot give {_metric_label(spec, options)!r}"
            f" ({spec.func_name}) here: {query} has {size[g]} retrieved "
            f"items and {m} tied items at ranks {b.start[i] + 1}-"
            f"{b.start[i] + m} whose {differ} differ"
            f"{f' ({why})' if why else ''}. ranx keeps tied items in run "
            f"order only in queries of at most {RANX_STABLE_SIZE} items "
            f"(numba's quicksort), so its number depends on an order it does "
            f"not define. Pass ties='input' or ties='expected' to choose a "
            f"rule."
        )


def _group_mean_weights(sample_weight, groups, layout):
    """``query_weight="mean"``: each row's weight replaced by the mean weight
    of its group in the long layout (one group without ``groups``); a row of
    the 2-D layout or a multiclass sample is a query, its weight kept.
    ``layout``: the input door's (:func:`~sklearn_rankeval._engine.layout_of`)."""
    w = np.asarray(sample_weight, dtype=np.float64)
    if layout != "long":
        return w
    if groups is None:
        return np.full_like(w, w.mean())
    idx, _ = encode_rows(groups, len(w))
    mean = np.bincount(idx, weights=w) / np.bincount(idx)
    return mean[idx]


def prepare(y_score, groups, sample_weight, *, layout, ties=None, docno=None,
            query_weight=None, convention=None, y_true=None, metrics=()):
    """The checked input as the ranking switches want it: ``(y_score,
    sample_weight)`` derived from the arrays of the input door's
    :class:`~sklearn_rankeval._engine.RankingInput` (``layout`` its
    layout).

    Under ``convention="ranx"``, ``y_true`` (the relevance as the door read
    it) and ``metrics`` (the ``(spec, options)`` of the metrics to compute)
    say whether ranx's tie order matters (:func:`check_ranx_ties`).
    """
    if ties in ("input", "docno"):
        if convention == "ranx" and ties == "input":
            check_ranx_ties(layout, y_true, y_score, groups, metrics)
        y_score = tie_free_scores(y_score, ties, docno, groups)
    elif docno is not None:
        raise ValueError("docno= is only used with ties='docno'.")
    if query_weight == "mean" and sample_weight is not None:
        sample_weight = _group_mean_weights(sample_weight, groups, layout)
    return y_score, sample_weight


_GROUP_AVERAGE = {"impressions": "weighted", "uniform": "macro",
                  "positives": "weighted"}


def group_info(info, switches, *, weighted):
    """The group weights the switches ask for (``GroupInfo`` of the ranking).

    ``query_weight="mean"``: the (mean) row weight weights its query in the
    ``"macro"`` average of every metric, item-weighted ones included.
    ``group_weight="positives"``: the group's weight for ``"weighted"`` is
    its number of positive items.
    """
    if switches.get("query_weight") == "mean" and weighted:
        info = info._replace(item_macro_weight=info.query_weight)
    if switches.get("group_weight") == "positives":
        info = info._replace(weight=info.n_relevant.astype(np.float64))
    return info


def group_average(average, switches):
    """A call's ``average``, or the one its ``group_weight`` switch sets."""
    group_weight = switches.get("group_weight")
    if average is not None and group_weight is not None:
        return _GROUP_AVERAGE[group_weight]
    return average


def check_result(convention, spec, partials, info, switches, *, weighted):
    """Rules that depend on the data and that no switch expresses: raise.

    LightGBM's and XGBoost's weighted ``ndcg@k`` add 1 for a query without
    relevant items *without* its weight, while its weight still counts in
    the denominator.
    """
    if (convention in ("lightgbm", "xgboost") and spec.name == "ndcg" and weighted
            and switches["undefined"] == 1.0):
        odd = ~partials.defined & (info.query_weight != 1.0)
        if odd.any():
            raise ValueError(
                f"convention={convention!r} cannot give 'ndcg' with query weights "
                f"other than 1 on queries without a relevant item: "
                f"{'LightGBM' if convention == 'lightgbm' else 'XGBoost'} adds 1 "
                f"for such a query without its weight but counts the weight in "
                f"the total. Pass undefined=0 or 'skip' to choose a rule."
            )


def convention_plan(parsed, convention):
    """Each metric under ``convention``: ``[(name, spec, options, switches)]``.

    ``parsed`` is :func:`~._names.parse_metrics`' list; each metric gets
    its preset's switches (what its name sets kept: :func:`_named`), and a
    metric whose preset weights groups otherwise (``group_weight``) gets
    that as its default average (in ``spec``).  A metric the convention
    lacks is a ValueError, and so is a tie rule by document id: only the
    metric functions take ``docno=``.
    """
    import dataclasses

    plan = []
    for name, spec, options in parsed:
        opts, switches = resolve(spec, convention, _named(spec, options))
        if switches["ties"] == "docno":
            raise ValueError(
                f"convention={convention!r} breaks ties in {name!r} by "
                f"decreasing document id (docno=), which only the metric "
                f"functions take: a report, a per-group frame, an accumulator "
                f"or a Spark/Dask frame cannot reproduce it. Call "
                f"{spec.func_name}(..., convention={convention!r}, docno=...)."
            )
        opts = spec.check_options(**opts)
        if switches["group_weight"] is not None:
            spec = dataclasses.replace(
                spec, default_average=_GROUP_AVERAGE[switches["group_weight"]])
        plan.append((name, spec, opts, switches))
    return plan


def _named(spec, options):
    """What a parsed metric name sets, as explicit options of :func:`resolve`.

    Every option of the name (its cutoff, ``p``, ``rel``, ...) and the
    switches it carries (ir_measures' ``"AP@10"``: ``k_denominator=
    "relevant"`` and ``undefined=0``), but not a switch left at the
    registry's default, which stays the convention's to set.
    """
    defaults = {name: default for name, default, _ in spec.options}
    return {name: value for name, value in options.items()
            if name not in SWITCHES or name not in defaults
            or value is not defaults[name] and value != defaults[name]}


def resolved_metrics(parsed, convention):
    """``parsed`` as the aggregation sees it under ``convention`` (None: as is)."""
    if convention is None:
        return parsed
    return [(name, spec, opts) for name, spec, opts, _
            in convention_plan(parsed, convention)]


def needs_input_order(parsed, convention):
    """Whether a metric of ``parsed`` orders tied items as the input does."""
    return convention is not None and any(
        switches["ties"] == "input"
        for *_, switches in convention_plan(parsed, convention))


