"""``convention=``: another library's number by name, and the switches under it.

A *switch* is one rule on which the libraries differ: the gain of a grade
(``gain``), the order of tied items (``ties``), the normaliser of AP@k and
P@k (``k_denominator``), the value of a query without relevant items
(``undefined``), the weight of a group in GAUC (``group_weight``), what
``sample_weight`` means for MAP (``query_weight``) and trec_eval's recall
levels (``recall_levels``).  Each switch defaults to None in the public
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
    check_option,
    check_undefined,
    device_of,
    namespace_of,
    validate_scores,
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
               "sklearn", "recbole", "spark")
#: Options whose None means "the convention's value, else the default".
SWITCHES = ("gain", "ties", "k_denominator", "group_weight", "query_weight",
            "recall_levels", "undefined")
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
    table = np.asarray(value, dtype=np.float64) if value is not None else None
    if table is None or table.ndim != 1 or table.size == 0 \
            or not np.isfinite(table).all():
        raise ValueError(
            f"gain must be 'linear', 'exponential', 'binary', a 1-D array of "
            f"finite gains indexed by grade or a callable; got {value!r}."
        )
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
}

#: Rules that hold only for some arguments: (convention, metric) -> check.
_LIMITS = {
    ("sklearn", "map"): lambda options: None if options.get("k") is None else (
        "scikit-learn's average_precision_score has no cutoff k"),
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
        switches["undefined"] = "skip"
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
    _, codes = np.unique(ids.astype(str) if ids.dtype.kind == "O" else ids,
                         return_inverse=True)
    return codes.reshape(shape)


def tie_free_scores(y_score, ties, docno=None):
    """Scores without ties that rank the items as ``ties`` orders them.

    ``"input"``: tied items in the order of the input (row order; column
    order for 2-D input), as a stable sort leaves them.  ``"docno"``: tied
    items by ``docno`` in decreasing order, as trec_eval sorts them.  Scores
    of ``-inf`` (not retrieved) stay ``-inf``.
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
    if s.ndim == 2:
        if ties == "docno":
            order = np.lexsort((-code, -s), axis=1)
        else:
            order = np.argsort(-s, axis=1, kind="stable")
        out = np.empty(s.shape)
        np.put_along_axis(out, order, np.arange(s.shape[1], 0, -1,
                                                dtype=np.float64)[None, :], axis=1)
    else:
        order = (np.lexsort((-code, -s)) if ties == "docno"
                 else np.argsort(-s, kind="stable"))
        out = np.empty(s.shape[0])
        out[order] = np.arange(s.shape[0], 0, -1, dtype=np.float64)
    out[s == -np.inf] = -np.inf
    return out


#: ranx keeps tied items in run order only in queries of at most this many
#: items: it sorts with numba's quicksort, an insertion sort up to 15 items.
RANX_STABLE_SIZE = 15


def _metric_label(spec, options):
    k = options.get("k")
    return spec.name if k is None else f"{spec.name}@{k}"


def check_ranx_ties(y_true, y_score, groups, metrics, labels=None):
    """Raise where ranx's number depends on an order of tied items it does not keep.

    In a query of more than :data:`RANX_STABLE_SIZE` items, ranx leaves tied
    items in an order of its sort's own.  Such a tie changes a metric only if
    its items differ in relevance (the grade for graded metrics, relevant or
    not for the others) and it starts within the metric's cutoff (any tie
    for a metric without ``k``); elsewhere ranx's number is the one of any
    tie order, so the run order (``ties="input"``) gives it.  ``metrics`` is
    a list of ``(spec, options)``.  Items scored ``-inf`` are not ranked.
    """
    from .._engine import check_inputs, encode_rows

    layout, rel, s, groups, _ = check_inputs(y_true, y_score, groups=groups,
                                             labels=labels)
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
    size = np.bincount(idx)
    keep = (size[idx] > RANX_STABLE_SIZE) & (s > -np.inf)
    if not keep.any():
        return
    idx, s, rel = idx[keep], s[keep], rel[keep]
    for graded in sorted({spec.graded for spec, _ in metrics}):
        key = rel if graded else rel > 0
        order = np.lexsort((key, s, idx))  # group, score ascending, relevance
        g, sc, key = idx[order], s[order], key[order]
        tied = (g[1:] == g[:-1]) & (sc[1:] == sc[:-1])
        first = np.flatnonzero(np.r_[True, ~tied])  # first row of each block
        block = np.cumsum(np.r_[True, ~tied]) - 1
        block_size = np.diff(np.r_[first, len(g)])
        # items of the group scored higher: the block's start in rank order
        group_end = np.r_[np.flatnonzero(g[1:] != g[:-1]) + 1, len(g)]
        start = group_end[np.searchsorted(group_end, first, side="right")] \
            - first - block_size
        mixed = np.zeros(len(first), dtype=bool)
        mixed[block[1:][tied & (key[1:] != key[:-1])]] = True
        for spec, options in metrics:
            if spec.graded != graded:
                continue
            k = options.get("k")
            bad = np.flatnonzero(mixed if k is None else mixed & (start < k))
            if len(bad):
                # (named: the first query's best-ranked such tie)
                b = bad[np.lexsort((start[bad], g[first[bad]]))[0]]
                m = block_size[b]
                query = ("the ranking" if names is None
                         else f"query {names[g[first[b]]].item()!r}")
                what = "grades" if graded else "relevance (y_true > 0)"
                raise ValueError(
                    f"convention='ranx' cannot give {_metric_label(spec, options)!r}"
                    f" ({spec.func_name}) here: {query} has "
                    f"{size[g[first[b]]]} items and {m} tied items at ranks "
                    f"{start[b] + 1}-{start[b] + m} whose {what} differ"
                    f"{'' if k is None else f' (the tie starts within k={k})'}. "
                    f"ranx keeps tied items in run order only in queries of at "
                    f"most {RANX_STABLE_SIZE} items (numba's quicksort), so its "
                    f"number depends on an order it does not define. Pass "
                    f"ties='input' or ties='expected' to choose a rule."
                )


def _group_mean_weights(sample_weight, groups, y_score):
    w = np.asarray(sample_weight, dtype=np.float64)
    if np.ndim(y_score) == 2 or groups is None:
        return w if np.ndim(y_score) == 2 else np.full_like(w, w.mean())
    from .._engine import encode_rows

    idx, _ = encode_rows(groups, len(w))
    mean = np.bincount(idx, weights=w) / np.bincount(idx)
    return mean[idx]


def prepare(y_score, groups, sample_weight, *, ties=None, docno=None,
            query_weight=None, convention=None, y_true=None, labels=None,
            metrics=()):
    """The input as the ranking switches want it: ``(y_score, sample_weight)``.

    Under ``convention="ranx"``, ``y_true``, ``labels`` and ``metrics`` (the
    ``(spec, options)`` of the metrics to compute) say whether ranx's tie
    order matters (:func:`check_ranx_ties`).
    """
    if ties in ("input", "docno"):
        if convention == "ranx" and ties == "input":
            check_ranx_ties(y_true, y_score, groups, metrics, labels)
        y_score = tie_free_scores(y_score, ties, docno)
    elif docno is not None:
        raise ValueError("docno= is only used with ties='docno'.")
    if query_weight == "mean" and sample_weight is not None:
        sample_weight = _group_mean_weights(sample_weight, groups, y_score)
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

    ``parsed`` is :func:`~._registry.parse_metrics`'s list; each metric gets
    its preset's switches (its cutoff kept), and a metric whose preset
    weights groups otherwise (``group_weight``) gets that as its default
    average (in ``spec``).  A metric the convention lacks is a ValueError,
    and so is a tie rule by document id: only the metric functions take
    ``docno=``.
    """
    import dataclasses

    plan = []
    for name, spec, options in parsed:
        explicit = {"k": options["k"]} if spec.has_k else {}
        opts, switches = resolve(spec, convention, explicit)
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


