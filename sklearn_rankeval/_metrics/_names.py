"""Metric names: ``"ndcg@10"`` or ``"nDCG@10"`` -> the registry entry and its options.

The one reader of metric names, for every entry point (metric lists of the
reports, scorer names, the command line).  It reads two grammars:

* this package's: a registry name, ``"name@K"`` for a metric with a cutoff
  (``"map"``, ``"ndcg@10"``, ``"hit_rate@5"``);
* ir_measures': ``Measure``, ``Measure@K`` and ``Measure(param=value,
  ...)@K`` (``"nDCG@10"``, ``"AP@100"``, ``"P(rel=2)@5"``,
  ``"RBP(p=0.8)"``), as :func:`ir_measures.parse_measure` reads them (a
  Python expression, values as literals).  Each measure maps to a registry
  metric and the options that give ir_measures' number (:data:`IR_MEASURES`):
  its pytrec_eval provider's (trec_eval's) for the measures it has, else
  the provider that has the measure (gdeval's ERR, cwl_eval's RBP).  Every
  such name counts a query without a relevant item as 0 (``undefined=0``),
  as ir_measures does; a measure or a parameter without an equivalent here
  is a ``ValueError`` that says why (:data:`IR_MEASURES_REFUSED`).

Letter case: this package's names are lower case; ir_measures' are read as
ir_measures writes them (``nDCG``, ``AP``, ``RR``, ``P``, ...).  Where an
ir_measures name is spelt like one of this package's but for letter case
(``"nDCG@10"`` and ``"ndcg@10"``, ``"ERR@20"`` and ``"err@20"``), the two are
two canonical names of two grammars and :data:`IR_DIFFERENCES` says how
their values differ.  Every other spelling that differs from a name only in
letter case -- ir_measures' upper-case aliases ``MAP``, ``MRR``, ``NDCG``,
``Precision``, ``Recall``, ``BPref`` among them -- is refused with both
meanings named (:func:`case_variant_message`): ``"MAP@10"`` could be this
package's ``"map@10"`` (normalised by ``min(R, 10)``) or ir_measures'
``"AP@10"`` (trec_eval's ``map_cut_10``, normalised by ``R``), two numbers.
"""

import ast
import difflib
import importlib
import re
from numbers import Integral, Real

from ._registry import DEFAULT_METRICS, LIST_METRICS, METRICS

__all__ = [
    "IR_MEASURES",
    "IR_MEASURES_REFUSED",
    "TABLES",
    "MetricTable",
    "did_you_mean",
    "metric_options",
    "parse_metric_name",
    "case_variant_message",
    "parse_metrics",
    "read_metric_name",
    "valid_names_text",
]

#: ir_measures' measure -> (the registry metric, its cutoff: "required",
#: "optional" or None, the parameters it takes besides ``cutoff``).
IR_MEASURES = {
    "P": ("precision", "required", ("rel", "judged_only")),
    "R": ("recall", "required", ("rel", "judged_only")),
    "RR": ("mrr", "optional", ("rel", "judged_only")),
    "AP": ("map", "optional", ("rel", "judged_only")),
    "nDCG": ("ndcg", "optional", ("dcg", "gains", "judged_only")),
    "Success": ("success", "required", ("rel", "judged_only")),
    "Rprec": ("r_precision", None, ("rel", "judged_only")),
    "Bpref": ("bpref", None, ("rel",)),
    "ERR": ("err", "optional", ()),
    "RBP": ("rbp", "optional", ("p", "rel")),
}
#: ir_measures' other spellings of the same measures (read when they differ
#: from every registry name by more than letter case: :func:`_read_ir_measures`).
IR_ALIASES = {"MAP": "AP", "MRR": "RR", "NDCG": "nDCG", "Precision": "P",
              "Recall": "R", "RPrec": "Rprec", "BPref": "Bpref"}
#: How the value of an ir_measures name differs from this package's metric
#: of the same name (the name table of the documentation prints it).
IR_DIFFERENCES = {
    "nDCG": "a query without a relevant item counts 0 (ndcg leaves it out, "
            "with a warning)",
    "AP": "AP@K is divided by R, the number of relevant items (map@K by "
          "min(R, K)); a query without a relevant item counts 0",
    "RR": "a query without a relevant item counts 0",
    "P": "a query without a relevant item counts 0",
    "R": "a query without a relevant item counts 0",
    "Success": "a query without a relevant item counts 0",
    "Rprec": "a query without a relevant item counts 0",
    "Bpref": "a query without a relevant item counts 0 (bpref leaves it out)",
    "ERR": "gdeval's ERR (ir_measures' provider): a query without a relevant "
           "item counts 0",
    "RBP": "cwl_eval's RBP: without rel= the grades are read as gains (here: "
           "0/1 labels only)",
}

_COUNT = ("a count, not a score per query: per_group_scores gives each "
          "group's n_items and n_relevant")
_SET = ("a measure of the unranked set of retrieved documents, with no "
        "registry equivalent (precision@K and recall@K with K at least the "
        "longest list, and k_denominator='retrieved' for the precision, give "
        "SetP and SetR)")
_CWL = ("a C/W/L measure of cwl_eval with no registry equivalent "
        "(expected_reciprocal_rank_score and rank_biased_precision_score are "
        "the user models here)")
#: ir_measures' measures that have no equivalent here, and why.
IR_MEASURES_REFUSED = {
    "Judged": (
        "the share of the top K documents that have a judgment: the arrays "
        "here give every row a judgment (its y_true), so the share is 1 by "
        "construction. With a boolean mask `judged` of the judged rows, "
        "precision_at_k_score(judged, y_score, groups=groups, k=K, "
        "k_denominator='retrieved') gives ir_measures' Judged@K (unjudged "
        "rows scored, judged ones not retrieved scored -inf)"),
    "IPrec": ("the interpolated precision at one recall level: "
              "interpolated_precision_recall_curve gives it at every level, "
              "and interpolated_average_precision_score their mean"),
    "infAP": ("inferred AP reads pooled-but-unjudged documents (relevance -1), "
              "which y_true >= 0 cannot hold"),
    "NumQ": _COUNT, "NumRel": _COUNT, "NumRet": _COUNT, "NumRelRet": _COUNT,
    "SetP": _SET, "SetRelP": _SET, "SetR": _SET, "SetF": _SET, "SetAP": _SET,
    **dict.fromkeys(("NERR8", "NERR9", "NERR10", "NERR11", "BPM", "SDCG",
                     "INST", "INSQ"), _CWL),
    "Accuracy": ("the accuracy of a pairwise preference ranking, with no "
                 "registry equivalent"),
    "Compat": ("compatibility with an ideal ranking (rank-biased overlap), "
               "with no registry equivalent"),
}
#: ir_measures' diversity measures (its pyndeval provider, ndeval's rules):
#: measure -> (the registry metric, the options that give ndeval's number,
#: whether it takes a cutoff, the parameters it takes besides ``cutoff``).
#: Every one reads grades per intent as 0/1 (``rel=1``) and counts a query
#: without a relevant item as 0.
IR_DIVERSITY = {
    "alpha_nDCG": ("alpha_ndcg", {"normalization": "greedy"}, True, ("alpha",)),
    "alpha_DCG": ("alpha_ndcg", {"normalization": "ideal-ideal"}, True, ("alpha",)),
    "nERR_IA": ("err_ia", {"normalization": "greedy"}, True, ()),
    "ERR_IA": ("err_ia", {"normalization": "ideal-ideal"}, True, ()),
    "NRBP": ("nrbp", {"normalization": "none"}, False, ("alpha", "beta")),
    "nNRBP": ("nrbp", {"normalization": "greedy"}, False, ("alpha", "beta")),
    "P_IA": ("intent_aware", {}, True, ()),
    "AP_IA": ("intent_aware", {"metric": "map"}, False, ()),
    "StRecall": ("subtopic_recall", {}, True, ()),
}
IR_ALIASES.update({"α_nDCG": "alpha_nDCG", "α_DCG": "alpha_DCG",
                   "MAP_IA": "AP_IA"})
for _measure in IR_DIVERSITY:
    IR_DIFFERENCES[_measure] = (
        "ndeval's rules (pyndeval): grades per intent read as 0/1, the greedy "
        "ideal's equal gains broken by the larger grade vector here (ndeval: "
        "the larger docno), tied scores as the expected value (pyndeval: by "
        "increasing docno); a query without a relevant item counts 0")

#: What ir_measures' names carry besides the metric's own options: a switch
#: of the pipeline (:func:`~._conventions.resolve`), not a kernel option.
NAME_SWITCHES = ("undefined",)


#: The registry's tables by the input their metrics read: ``"rows"``
#: (grouped rows: every ranking and CTR metric) and ``"lists"`` (top-N lists:
#: the beyond-accuracy metrics, always with a cutoff).
TABLES = {"rows": METRICS, "lists": LIST_METRICS}


class MetricTable(dict):
    """A report's own table: its metric names -> registry entries.

    Read by the one name reader like the tables of :data:`TABLES` (e.g. the
    counterfactual report's ``"precision"``: the registry's precision of
    gains).  Bound to a module attribute and pickled by reference to it, as
    a function is (registry entries hold closures, which do not pickle), so
    that what holds the table -- an accumulator over its names, the partials
    it exchanges -- pickles.
    """

    def __init__(self, module, name, entries):
        super().__init__(entries)
        self.module, self.name = module, name

    def __reduce__(self):
        return _table_at, (self.module, self.name)

    def __repr__(self):
        return f"MetricTable({self.module}.{self.name}: {', '.join(self)})"


def _table_at(module, name):
    """The table bound to ``module.name`` (unpickling a :class:`MetricTable`)."""
    return getattr(importlib.import_module(module), name)


def _table(table):
    """A table of :data:`TABLES` by its name, or a report's own table (a
    mapping of its names to registry entries, e.g. the counterfactual
    report's ``"precision"``: the registry's precision of gains)."""
    return TABLES[table] if isinstance(table, str) else table


def _lookup(name, inputs):
    for table in inputs:
        spec = _table(table).get(name)
        if spec is not None:
            return spec
    return None


def read_metric_name(name, inputs=("rows",)):
    """Read one metric name: ``(spec, options)``, or None if it is none.

    ``options`` holds what the name sets and nothing else: its cutoff ``k``
    (this package's names), or every option that gives ir_measures' number
    (``k``, ``rel``, ``p``, ``k_denominator``, ``gain``) and the switch
    ``undefined=0`` (ir_measures' names).  An ir_measures name whose measure
    or parameter has no equivalent here is a ``ValueError`` saying why.
    ``inputs``: the tables of :data:`TABLES` whose names are read (the
    ir_measures names are metrics of rows).  A cutoff is a positive integer
    written without leading zeros (``"ndcg@010"`` is no name).
    """
    if not isinstance(name, str):
        return None
    match = re.fullmatch(r"([a-z_]+)@([0-9]+)", name)
    if match is not None:
        spec, cut = _lookup(match.group(1), inputs), match.group(2)
        if spec is not None and spec.has_k and cut == str(int(cut)) and int(cut):
            return spec, {"k": int(cut)}
        return None
    spec = _lookup(name, inputs)
    if spec is not None:
        return (spec, {}) if spec.input == "rows" and (
            not spec.has_k or spec.k_default is None) else None
    read = _read_ir_measures(name) if "rows" in inputs else None
    if read is None or name.split("(")[0].split("@")[0].strip() in IR_MEASURES:
        return read
    # an ir_measures alias: refused where it differs from one of this
    # package's names only in letter case
    message = case_variant_message(name, inputs, read)
    if message:
        raise ValueError(message)
    return read


def _ours(name, inputs):
    """``name`` read by this package's grammar only (None if it is not one)."""
    match = re.fullmatch(r"([a-z_]+)@([0-9]+)", name)
    if match is not None:
        spec = _lookup(match.group(1), inputs)
        cut = match.group(2)
        return spec if (spec is not None and spec.has_k and cut == str(int(cut))
                        and int(cut)) else None
    spec = _lookup(name, inputs)
    return spec if spec is not None and spec.input == "rows" and (
        not spec.has_k or spec.k_default is None) else None


def case_variant_message(name, inputs=("rows",), read=None):
    """The refusal of a name that differs from a canonical one only in letter
    case, naming every meaning it could have ("" if it is no such name).

    The canonical names are this package's (lower case) and ir_measures' as
    ir_measures writes them; ``read``: the name as ir_measures' alias reads.
    """
    if not isinstance(name, str):
        return ""
    lowered = name.strip().lower()
    meanings = {}
    ours = _ours(lowered, inputs)
    if ours is not None and lowered != name:
        meanings[lowered] = f"{lowered!r} (this package's {ours.name})"
    base, at, cut = name.strip().partition("@")
    head = base.split("(")[0].strip()
    rest = base[len(base.split("(")[0]):] + at + cut
    targets = [m for m in IR_MEASURES if m.lower() == head.lower()]
    if head in IR_ALIASES:
        targets.append(IR_ALIASES[head])
    for measure in targets:
        spelt = (measure + rest).strip()
        note = IR_DIFFERENCES.get(measure, "")
        meanings.setdefault(spelt, f"{spelt!r} (ir_measures' {measure}"
                                   f"{': ' + note if note else ''})")
    if len(meanings) < 2:
        return ""
    return (f"{name!r} differs only in letter case from names with different "
            f"values: " + "; ".join(meanings.values()) + ". Write one of them.")


def parse_metric_name(name, inputs=("rows",)):
    """``"ndcg@10"`` -> (METRICS["ndcg"], 10); ``"map"`` -> (METRICS["map"], None).

    Returns None for a name that is not a ranking metric: a cutoff on a metric
    without ``k``, a non-positive cutoff, a metric that needs one
    (``hit_rate``, ``precision``, ``recall``) given without, or an
    ir_measures name refused here.  Only the cutoff: an ir_measures name may
    set more (``"AP@10"``: ``k_denominator="relevant"``), which
    :func:`read_metric_name` and :func:`parse_metrics` give.
    """
    try:
        read = read_metric_name(name, inputs)
    except ValueError:
        return None
    return None if read is None else (read[0], read[1].get("k"))


def metric_options(spec, k):
    """The options of a parsed metric name: its cutoff, if any."""
    return {"k": k if k is not None else spec.k_default} if spec.has_k else {}


def parse_metrics(metrics, argument="metrics", inputs=("rows",), scores=None,
                  what=None):
    """Metric names -> list of ``(name, spec, options)`` (options checked).

    None gives :data:`DEFAULT_METRICS`; a single string is one metric.
    Repeated names are kept once.  ``options`` are the metric's options,
    every one filled in (:meth:`~._spec.MetricSpec.check_options`), plus
    the switches the name carries (ir_measures' ``undefined=0``).
    ``inputs``: the tables whose names are accepted (names of
    :data:`TABLES`, or a report's own mapping of names to registry entries);
    ``scores``: the metrics that an unknown name's message lists
    (:func:`valid_names_text`); ``what``: the kind of metric an unknown name
    is said not to be (``"ranking"``, ``"recommendation"`` by default).
    """
    if metrics is None:
        metrics = DEFAULT_METRICS
    elif isinstance(metrics, str):
        metrics = [metrics]
    try:
        metrics = list(metrics)
    except TypeError:
        raise TypeError(
            f"{argument} must be a metric name or a list of names, got "
            f"{type(metrics).__name__}."
        ) from None
    parsed, seen = [], set()
    for name in metrics:
        try:
            read = read_metric_name(name, inputs)
        except ValueError as exc:
            raise ValueError(f"{argument}: {exc}") from None
        if read is None:
            what = what or ("ranking" if tuple(inputs) == ("rows",)
                            else "recommendation")
            suggestion = (did_you_mean(name, _registry_names(inputs, scores))
                          if isinstance(name, str) else "")
            raise ValueError(
                f"{argument}: {name!r} is not a {what} metric name; valid names "
                f"are {valid_names_text(scores=scores, inputs=inputs)}."
                f"{suggestion}"
            )
        if name in seen:
            continue
        seen.add(name)
        spec, options = read
        switches = {n: options[n] for n in NAME_SWITCHES if n in options}
        options = {n: v for n, v in options.items() if n not in NAME_SWITCHES}
        parsed.append((name, spec, {**spec.check_options(**options), **switches}))
    if not parsed:
        raise ValueError(f"{argument} must name at least one metric.")
    return parsed


def _specs(inputs, scores):
    return {name: spec for table in inputs for name, spec in _table(table).items()
            if scores is None or spec.scores == scores}


def valid_names_text(extra=(), scores=None, inputs=("rows",)):
    """The accepted metric names, for error messages (``extra``: more plain
    names; ``scores``: only the metrics whose ``scores`` is this; ``inputs``:
    the tables of :data:`TABLES`)."""
    specs = _specs(inputs, scores)
    plain = [name for name, spec in specs.items()
             if spec.input == "rows" and (not spec.has_k or spec.k_default is None)]
    cut = [f"{name}@K" for name, spec in specs.items() if spec.has_k]
    irm = ("" if scores not in (None, "order") or "rows" not in inputs else
           " (also ir_measures' names: nDCG@10, P@10, P(rel=2)@5, R@100, AP, "
           "AP@100, RR, RR@10, Success@5, Rprec, Bpref, ERR@20, RBP(p=0.8) "
           "...)")
    return (f"{', '.join([*plain, *extra])}, and {', '.join(cut)} for any "
            f"positive integer K{irm}")


def did_you_mean(name, names, extra=()):
    """`` Did you mean 'ndcg@10'?`` for a near miss, or ``""``.

    ``names``: metric names (``"name@K"`` ones match any K, which is kept);
    ``extra``: other names, matched as they are (scikit-learn's scorers).
    """
    base, sep, _ = name.partition("@")
    if sep and f"{base}@10" in names:
        # a known metric with a bad cutoff (0, leading zeros, not a number)
        return (f" The cutoff K of '{base}@K' is a positive integer without "
                "leading zeros.")
    lowered = name.strip().lower().replace(" ", "").replace("-", "_")
    if lowered != name and (lowered in extra or lowered in names
                            or parse_metric_name(lowered) is not None):
        return f" Did you mean {lowered!r}?"
    base, at, k = lowered.partition("@")
    if at:  # a cutoff name with any K: compare the metric part, keep the K
        candidates = difflib.get_close_matches(
            base, sorted({n.partition("@")[0] for n in names if "@" in n}), n=1)
        if candidates and k.isdigit() and k == str(int(k)) and int(k) >= 1:
            return f" Did you mean {candidates[0] + '@' + k!r}?"
    close = difflib.get_close_matches(lowered, [*names, *sorted(extra)], n=3,
                                      cutoff=0.6)
    if close:
        return " Did you mean " + " or ".join(repr(c) for c in close) + "?"
    return ""


def _registry_names(inputs=("rows",), scores=None):
    """The registry's metric names of ``inputs`` (``name@10`` for a cutoff)."""
    specs = _specs(inputs, scores)
    names = [name for name, spec in specs.items() if spec.input == "rows"
             and (not spec.has_k or spec.k_default is None)]
    return names + [f"{name}@10" for name, spec in specs.items() if spec.has_k]


# ---------------------------------------------------------------------------
# ir_measures' names
# ---------------------------------------------------------------------------
def _read_ir_measures(name):
    """``(spec, options)`` of an ir_measures name; None if it is not one."""
    try:
        node = ast.parse(name.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    at = None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        at, node = node.right, node.left
    params = {}
    if isinstance(node, ast.Call):
        if node.args or any(kw.arg is None for kw in node.keywords):
            return None
        for kw in node.keywords:
            try:
                params[kw.arg] = ast.literal_eval(kw.value)
            except (ValueError, TypeError, SyntaxError, MemoryError,
                    RecursionError):  # not a literal ({[1]: 2}: unhashable)
                return None
        node = node.func
    if not isinstance(node, ast.Name):
        return None
    measure = IR_ALIASES.get(node.id, node.id)
    if measure in IR_DIVERSITY:
        if at is not None:
            try:
                at = ast.literal_eval(at)
            except (ValueError, TypeError, SyntaxError, MemoryError,
                    RecursionError):
                return None
            params["cutoff"] = at
        return _ir_diversity_options(name, measure, params)
    if measure in IR_MEASURES_REFUSED:
        raise ValueError(
            f"{name!r} is ir_measures' {measure}, which sklearn_rankeval "
            f"cannot give: {IR_MEASURES_REFUSED[measure]}."
        )
    if measure not in IR_MEASURES:
        return None
    if at is not None:
        try:
            at = ast.literal_eval(at)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        if "cutoff" in params:
            raise ValueError(f"{name!r}: the cutoff is given twice (@ and "
                             f"cutoff=).")
        params["cutoff"] = at
    return _ir_options(name, measure, params)


def _ir_diversity_options(name, measure, params):
    """The registry metric and options of ir_measures' diversity ``measure``."""
    metric, fixed, has_cutoff, accepted = IR_DIVERSITY[measure]
    unknown = sorted(set(params) - {"cutoff", "rel", "judged_only", *accepted})
    if unknown:
        raise ValueError(f"{name!r}: ir_measures' {measure} takes no "
                         f"{', '.join(p + '=' for p in unknown)}.")
    if params.get("judged_only", False) is not False:
        raise ValueError(f"{name!r}: judged_only=True has no equivalent here "
                         f"(every row has a judgment): drop those rows first.")
    if params.get("rel", 1) != 1:
        raise ValueError(f"{name!r}: only rel=1 (every grade > 0 relevant, as "
                         f"ndeval) is read for ir_measures' {measure}.")
    options = {"undefined": 0.0, **fixed}
    if metric != "intent_aware":
        options["grades"] = "binary"
    cutoff = params.get("cutoff")
    if has_cutoff:
        if isinstance(cutoff, bool) or not isinstance(cutoff, Integral) \
                or cutoff < 1:
            raise ValueError(f"{name!r}: ir_measures' {measure} needs a cutoff, "
                             f"a positive integer (e.g. '{measure}@10'), got "
                             f"{cutoff!r}.")
        if metric == "intent_aware":
            options["metric"] = f"precision@{int(cutoff)}"
        else:
            options["k"] = int(cutoff)
    elif cutoff is not None:
        raise ValueError(f"{name!r}: ir_measures' {measure} has no cutoff.")
    for param in ("alpha", "beta"):
        if param in params:
            value = params[param]
            if isinstance(value, bool) or not isinstance(value, Real):
                raise ValueError(f"{name!r}: {param} must be a number, got "
                                 f"{value!r}.")
            options[param] = float(value)
    return METRICS[metric], options


def _ir_options(name, measure, params):
    """The registry metric and the options of ir_measures' ``measure(**params)``."""
    metric, cutoff_rule, accepted = IR_MEASURES[measure]
    spec = METRICS[metric]
    unknown = sorted(set(params) - {"cutoff", *accepted})
    if unknown:
        takes = ", ".join(f"{p}=" for p in ("cutoff", *accepted)
                          if p != "cutoff" or cutoff_rule) or "no parameter"
        raise ValueError(
            f"{name!r}: ir_measures' {measure} takes no "
            f"{', '.join(p + '=' for p in unknown)} (it takes {takes}).")
    options = {"undefined": 0.0}  # ir_measures: 0 for a query without one
    cutoff = params.get("cutoff")
    if cutoff is not None:
        if cutoff_rule is None:
            raise ValueError(f"{name!r}: ir_measures' {measure} has no cutoff.")
        if measure == "RBP":
            raise ValueError(
                f"{name!r}: RBP at a cutoff (trectools' depth) has no "
                f"equivalent here: rank_biased_precision_score weighs every "
                f"retrieved item; write {measure}(p=...) without @K.")
        if isinstance(cutoff, bool) or not isinstance(cutoff, Integral) \
                or cutoff < 1:
            raise ValueError(f"{name!r}: the cutoff must be a positive "
                             f"integer, got {cutoff!r}.")
        options["k"] = int(cutoff)
        if measure == "AP":  # trec_eval's map_cut_K: divided by R
            options["k_denominator"] = "relevant"
    elif cutoff_rule == "required":
        raise ValueError(f"{name!r}: ir_measures' {measure} needs a cutoff, "
                         f"e.g. '{measure}@10'.")
    if params.get("judged_only", False) is not False:
        raise ValueError(
            f"{name!r}: judged_only=True leaves out the retrieved documents "
            f"that have no judgment, which these arrays cannot tell apart "
            f"(every row has a y_true): drop those rows before the call.")
    if "rel" in params:
        rel = params["rel"]
        if isinstance(rel, bool) or not isinstance(rel, Real) or not rel > 0:
            raise ValueError(
                f"{name!r}: rel must be a number > 0 (y_true >= rel is "
                f"relevant; y_true >= 0 always, so rel <= 0 would make every "
                f"row relevant, judged or not), got {rel!r}.")
        options["rel"] = rel
    elif measure == "RBP":
        # ir_measures without rel= reads the grades as gains (graded RBP):
        # the same number as this binary RBP on 0/1 labels only
        options["rel"] = "binary"
    if "p" in params:
        p = params["p"]
        if isinstance(p, bool) or not isinstance(p, Real) or not 0 < p < 1:
            raise ValueError(f"{name!r}: p (the persistence) must be a number "
                             f"in (0, 1), got {p!r}.")
        options["p"] = float(p)
    if "gains" in params:
        raise ValueError(
            f"{name!r}: a gain per grade in a name (gains=) is not read here; "
            f"pass gain= (an array of gains indexed by grade) to ndcg_score.")
    dcg = params.get("dcg", "log2")
    if dcg == "exp-log2":
        options["gain"] = "exponential"
    elif dcg != "log2":
        raise ValueError(f"{name!r}: dcg must be 'log2' or 'exp-log2', got "
                         f"{dcg!r}.")
    return spec, options
