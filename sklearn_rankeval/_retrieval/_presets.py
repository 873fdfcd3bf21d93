"""``convention=``: each retrieval harness's number, by name.

A :class:`Rule` says how one requested metric is computed: the registry
metric and its options, the order of tied documents (``"expected"``: this
library's rule, the expected value over the orders of a tie;
``"docno"``: trec_eval's, score then decreasing document id; ``"input"``:
the run's row order, as a stable sort by score leaves it), what relevance
the metric reads (the labels, or whether a document is judged), which
queries make the mean (``"judged"``: the run's queries that have qrels, as
trec_eval; ``"qrels"``: every query of the qrels, those without results
scoring 0, as trec_eval's ``-c``; ``"run"``: every query of the run), the
top ``K`` of the run a list-based tool is given, and the decimals the tool
rounds to.

Each harness's rules, read from its source (the versions named in the user
guide, :ref:`retrieval-conventions`):

* ``"trec_eval"`` (and pytrec_eval; pyserini evaluates with trec_eval, so
  it has no preset of its own): :mod:`.._metrics`' ``trec_eval`` preset
  for each metric, ties by decreasing document id, integer labels.
* ``"beir"`` (``EvaluateRetrieval.evaluate`` and ``evaluate_custom``):
  pytrec_eval's ``ndcg_cut``, ``map_cut``, ``recall`` and ``P``, each mean
  over pytrec_eval's queries rounded to 5 decimals; ``mrr@k`` and
  ``hole@k`` of BEIR's own code: ties in run order (Python's stable sort on
  the score), the sum over the run's queries divided by the number of
  queries of the qrels, 5 decimals; ``hole@k`` counts a document judged
  for *any* query as judged.  Identical query and document ids are
  dropped by default (``ignore_identical_ids=True``).
* ``"mteb"`` (``RetrievalEvaluator.evaluate``, mteb 2): pytrec_eval's
  measures as BEIR (its ``HitRate@k`` is trec_eval's ``success``), and
  ``MRR@k`` of its own code, ties by decreasing document id, the mean over
  the run's queries, unrounded.
* ``"llamaindex"`` (``llama_index.core.evaluation`` ``HitRate``, ``MRR``,
  ``Precision``, ``Recall``, ``AveragePrecision``, ``NDCG``): one query's
  ranked list at a time (``@K``: its first ``K``), binary relevance
  (``relevance > 0``), the run's order for ties, the mean over queries.
* ``"ragas"`` (``IDBasedContextPrecision``, ``IDBasedContextRecall``): the
  sets of retrieved and reference ids; a query without one is NaN and left
  out of the mean (ragas' ``safe_nanmean``).
"""

import re
from dataclasses import dataclass, field

import numpy as np

from .._core import InvalidArgumentError, check_option
from .._metrics import METRICS, parse_metrics, resolve

__all__ = ["CONVENTIONS", "Rule", "check_labels", "hole_rule", "plan", "tie_rule"]

CONVENTIONS = ("trec_eval", "beir", "mteb", "llamaindex", "ragas")
#: The conventions whose tool reads integer relevance (pytrec_eval).
INTEGER_LABELS = ("trec_eval", "beir", "mteb")
#: Exclude documents whose id is the query's, by default.
EXCLUDE_SELF = {"beir": True}
_CUT = re.compile(r"([a-z_]+)(?:@([1-9][0-9]*))?")


@dataclass(frozen=True)
class Rule:
    """How one requested metric is computed (see the module's docstring)."""

    name: str
    spec: object
    options: dict = field(hash=False)
    ties: str = "expected"
    relevance: str = "labels"   # "labels" | "judged" | "unjudged" | "unpooled"
    queries: str = "judged"     # "judged" | "qrels" | "run"
    divide_by: str = "queries"  # "queries" | "qrels" (BEIR's len(qrels))
    digits: int = None
    truncate: int = None        # the tool gets the first K of each list
    binary: bool = False        # relevance > 0 is relevant, label 1
    top_of_run: bool = False    # k is each list's whole length (set later)


def _judged_rule(name, k, relevance, ties):
    """Judged@K / hole@K: precision@K of the (un)judged documents over
    ``min(K, retrieved)``, over the run's judged queries (a query without a
    judged, or without an unjudged, document scores 0, not undefined)."""
    spec = METRICS["precision"]
    options = {**spec.check_options(k=k, k_denominator="retrieved"),
               "undefined": 0.0}
    return Rule(name, spec, options, relevance=relevance, ties=ties)


def hole_rule(name, convention, ties, queries):
    """``judged@K`` / ``hole@K``, or None if ``name`` is neither."""
    match = re.fullmatch(r"(judged|hole)@([1-9][0-9]*)", name)
    if match is None:
        return None
    kind, k = match.group(1), int(match.group(2))
    if kind == "hole" and convention == "beir":
        # BEIR's Hole@k: the share of the top k that no query's qrels name,
        # summed over the run's queries, divided by len(qrels)
        spec = METRICS["precision"]
        options = {**spec.check_options(k=k), "undefined": 0.0}
        return Rule(name, spec, options, ties="input", relevance="unpooled",
                    queries="run", divide_by="qrels", digits=5)
    return _judged_rule(name, k, "judged" if kind == "judged" else "unjudged",
                        ties)


def _named(spec, options):
    """The options a parsed name sets (not a default filled in)."""
    defaults = {name: default for name, default, _ in spec.options}
    return {name: value for name, value in options.items()
            if name not in defaults or value != defaults[name]}


def _trec_rule(name, spec, options, *, ties="docno", queries="judged",
               digits=None):
    """A metric as trec_eval computes it (the ``trec_eval`` preset's switches)."""
    switches = {"undefined": None, "ties": None, "query_weight": None,
                "group_weight": None}
    named = {k: v for k, v in _named(spec, options).items() if k != "undefined"}
    opts, set_ = resolve(spec, "trec_eval", {**named, **switches})
    opts = {**spec.check_options(**opts), "undefined": set_["undefined"]}
    return Rule(name, spec, opts, ties=ties, queries=queries, digits=digits)


def _refuse(convention, name, reason):
    raise InvalidArgumentError(
        "metrics", f"{name!r} under convention={convention!r}: {reason}.",
        message=f"convention={convention!r} cannot give {name!r}: {reason}.")


def _parse_one(name):
    return parse_metrics([name])[0]


#: BEIR's and mteb's harnesses: the metrics they take from pytrec_eval
#: (each mean rounded to 5 decimals), the rule of their own MRR@k, and what
#: they report (the refusal of any other name)
_HARNESSES = {
    "beir": (("ndcg", "map", "recall", "precision"),
             {"ties": "input", "queries": "qrels", "divide_by": "qrels",
              "digits": 5},
             "BEIR's EvaluateRetrieval reports NDCG@k, MAP@k, Recall@k and P@k "
             "(pytrec_eval) and, with evaluate_custom, MRR@k and Hole@k; ask "
             "for ndcg@K, map@K, recall@K, precision@K, mrr@K or hole@K "
             "(R_cap@k and top-k accuracy are not reproduced)"),
    "mteb": (("ndcg", "map", "recall", "precision", "success"),
             {"ties": "docno", "queries": "run"},
             "mteb's RetrievalEvaluator reports NDCG@k, MAP@k, Recall@k, P@k, "
             "HitRate@k (pytrec_eval) and MRR@k; ask for ndcg@K, map@K, "
             "recall@K, precision@K, success@K or mrr@K"),
}


def _harness(convention, name):
    """A metric of BEIR's or mteb's harness (:data:`_HARNESSES`)."""
    pytrec, mrr_rule, reason = _HARNESSES[convention]
    match = _CUT.fullmatch(name)
    base, k = (match.group(1), match.group(2)) if match else (None, None)
    if base in pytrec and k:
        _, spec, options = _parse_one(name)
        return _trec_rule(name, spec, options, digits=5)
    if base == "mrr" and k:
        spec = METRICS["mrr"]
        options = {**spec.check_options(k=int(k)), "undefined": 0.0}
        return Rule(name, spec, options, **mrr_rule)
    if convention == "mteb" and base == "hit_rate":
        _refuse("mteb", name, "mteb's HitRate@k is trec_eval's success@k (1 if "
                "a relevant document is in the top k): ask for success@K")
    _refuse(convention, name, reason)


#: llama_index's metric -> (registry metric, options); ``k`` None for the
#: cutoff of the whole list (the retriever's top_k)
_LLAMA = {
    "hit_rate": ("success", {}),
    "mrr": ("mrr", {}),
    "precision": ("precision", {"k_denominator": "retrieved"}),
    "recall": ("recall", {}),
    "ap": ("map", {"k_denominator": "relevant"}),
    "ndcg": ("ndcg", {"gain": "binary"}),
}
#: ragas: NaN (left out of the mean) only without reference ids (recall);
#: a query of the run always has retrieved ids, so precision is defined
_RAGAS = {
    "id_based_context_precision": ("precision", {"k_denominator": "retrieved",
                                                 "undefined": 0.0}),
    "id_based_context_recall": ("recall", {"undefined": "skip"}),
}


def _lists(convention, table, name, undefined):
    match = _CUT.fullmatch(name)
    if match is None or match.group(1) not in table:
        what = ("llama_index's retrieval metrics" if convention == "llamaindex"
                else "ragas' ID-based context metrics (its LLM metrics are "
                     "out of scope)")
        _refuse(convention, name, f"{what} are {', '.join(table)}, each of the "
                f"whole retrieved list (name@K: of its first K)")
    metric, extra = table[match.group(1)]
    extra = dict(extra)
    undefined = extra.pop("undefined", undefined)
    spec = METRICS[metric]
    needs_k = spec.k_default is not None  # a cutoff it cannot go without
    options = {**extra, **({"k": 1} if needs_k else {})}
    options = {**spec.check_options(**options), "undefined": undefined}
    truncate = int(match.group(2)) if match.group(2) else None
    return Rule(name, spec, options, ties="input",
                queries="judged" if convention == "llamaindex" else "run",
                truncate=truncate, binary=True, top_of_run=needs_k)


def tie_rule(convention):
    """The order of tied documents of a convention's ranking (its
    ``judged@K`` and ``hole@K`` too)."""
    return {None: "expected", "trec_eval": "docno", "beir": "docno",
            "mteb": "docno"}.get(convention, "input")


def plan(metrics, convention, *, complete=False):
    """``[Rule]`` of the requested ``metrics`` under ``convention``."""
    if convention is not None:
        check_option(convention, "convention", CONVENTIONS)
    names = [metrics] if isinstance(metrics, str) else list(metrics)
    if not names:
        raise InvalidArgumentError("metrics", "must name at least one metric.")
    if complete and convention not in (None, "trec_eval"):
        raise InvalidArgumentError(
            "complete", f"has no equivalent under convention={convention!r}: "
                        f"only trec_eval averages over every query of the "
                        f"qrels (-c); the tool's own denominators are kept.")
    queries = "qrels" if complete else "judged"
    ties = tie_rule(convention)
    rules, seen = [], set()
    for name in names:
        if not isinstance(name, str):
            raise InvalidArgumentError(
                "metrics", f"must hold metric names, got {name!r}.")
        if name in seen:
            continue
        seen.add(name)
        rule = hole_rule(name, convention, ties, queries)
        if rule is not None:
            pass
        elif convention is None:
            _, spec, options = _parse_one(name)
            rule = Rule(name, spec, options, queries=queries)
        elif convention == "trec_eval":
            _, spec, options = _parse_one(name)
            rule = _trec_rule(name, spec, options, queries=queries)
        elif convention in _HARNESSES:
            rule = _harness(convention, name)
        elif convention == "llamaindex":
            rule = _lists(convention, _LLAMA, name, 0.0)
        else:
            rule = _lists(convention, _RAGAS, name, None)
        rules.append(rule)
    return rules


def check_labels(convention, labels):
    """Refuse labels a convention's tool cannot read (pytrec_eval: integers)."""
    if convention in INTEGER_LABELS:
        bad = labels != np.round(labels)
        if bad.any():
            value = float(labels[bad].ravel()[0])
            raise InvalidArgumentError(
                "qrels", f"holds the label {value:g}, but convention="
                         f"{convention!r} computes with pytrec_eval (trec_eval), "
                         f"which reads integer relevance only (it refuses "
                         f"{value:g}; ranx would cast it to {int(value)}). Use "
                         f"convention=None for real-valued gains.",
                value=value)
