"""One registry of the ranking metrics: the ONE place a metric is declared.

Each :class:`~._spec.MetricSpec` (what an entry declares: :mod:`._spec`)
names the metric's kernel (``_kernels.py``), its options with their checks,
how ``sample_weight`` acts and which averages it accepts.  The public
``*_score`` functions, the scorers, ``ranking_report``,
``per_group_scores``, :class:`~sklearn_rankeval.RankingAccumulator`, the
command line, the API documentation and the common tests all read it, so a
new metric is one kernel plus one entry here (plus its public function in
``_metrics.py``, a docstring and one call).
"""

import numpy as np

from .._core import check_n_points
from . import _beyond_kernels as _beyond
from . import _ctr_kernels as _ctr
from . import _diversity_kernels as _diversity
from . import _exposure_kernels, _kernels
from . import _ips_kernels as _ips
from ._calibration import STRATEGIES, check_n_bins, quantile_edges
from ._conventions import (
    SWITCHES,
)
from ._options import (
    ALPHA,
    AWRF_CONVENTIONS,
    EE_MEASURES,
    GAIN,
    GRADES,
    K_LIST,
    K_OPTIONAL,
    K_REQUIRED,
    NORMALIZATION,
    RECALL_LEVELS,
    REL,
    check_beta,
    check_distance,
    check_edges,
    check_gamma,
    check_head_share,
    check_log_base,
    check_max_grade,
    check_normalize,
    check_persistence,
    check_stop,
    check_target,
    choice,
    intent_metric_check,
)
from ._spec import (
    DEFAULT,
    FUNCTIONS,
    Compiled,
    ListMetricSpec,
    MetricSpec,
)

__all__ = [
    "CLASSIFICATION",
    "TREC_EVAL",
    "CUTOFFS_LISTED",
    "DEFAULT_METRICS",
    "GAIN_METRICS",
    "LIST_METRICS",
    "METRICS",
    "RECALL_LEVELS",
    "metric_function",
]


def _quantile_edges(y_score, sample_weight, options):
    """ECE's quantile bin edges, from all the rows (see :func:`quantile_edges`)."""
    if options["strategy"] != "quantile" or options["edges"] is not None:
        return {}
    return {"edges": quantile_edges(y_score, options["n_bins"], sample_weight)}


def _inner_edges(options):
    """ECE's inner bin edges (uniform ones when no edges are given)."""
    edges = options["edges"] or np.linspace(0.0, 1.0, options["n_bins"] + 1)
    return tuple(float(e) for e in edges[1:-1])


def metric_function(name):
    """Register ``name``'s public function, with the registry's defaults.

    Each keyword of the function that is one of the metric's options, or
    ``average``, must have :data:`DEFAULT` as its default in the source
    (a convention switch may have None: the convention's rule, else the
    registry's default):
    the decorator replaces it with the value declared in :data:`METRICS`, so
    that ``inspect.signature`` and the documentation show it and no default
    is written twice.
    """
    spec = METRICS[name] if name in METRICS else CLASSIFICATION[name]
    declared = {**{n: d for n, d, _ in spec.options},
                "average": spec.default_average}

    def register(func):
        kwdefaults = dict(func.__kwdefaults__ or {})
        for param, default in kwdefaults.items():
            if param in declared:
                if default is None and param in SWITCHES:
                    continue  # "the convention's, else the registry's"
                if default is not DEFAULT:
                    raise TypeError(
                        f"{func.__name__}: the default of {param!r} is the "
                        f"registry's; write {param}=DEFAULT.")
                kwdefaults[param] = declared[param]
            elif default is DEFAULT:
                raise TypeError(f"{func.__name__}: {param!r} has no default in "
                                f"the registry entry {name!r}.")
        func.__kwdefaults__ = kwdefaults
        FUNCTIONS[name] = func
        return func

    return register


_POOLED = ("micro", "macro", "weighted")
#: What the diversity metrics share in their registry entries.
_DIVERSITY = dict(has_labels=False, labels_kind="intents",
                  empty_value=0.0, columns=("intent_grades",))
#: Metrics with a geometric mean (trec_eval's gm_map, gm_bpref): values in
#: [0, 1] where a query near 0 is a failure worth weighing.
_GMEAN = ("macro", "weighted", "gmean")

METRICS = {
    spec.name: spec
    for spec in [
        MetricSpec("gauc", "gauc_score", _kernels.gauc, "GAUC", has_labels=False,
                   weights="item", default_average="weighted", tie_rule="sklearn",
                   needs_negative=True,
                   native=Compiled("auc")),
        MetricSpec("mrr", "mean_reciprocal_rank_score", _kernels.reciprocal_rank,
                   "MRR", options=(K_OPTIONAL, REL), averages=_GMEAN,
                   empty_value=0.0,
                   native=Compiled("rr")),
        MetricSpec("map", "mean_average_precision_score",
                   _kernels.average_precision, "MAP",
                   options=(K_OPTIONAL, ("k_denominator", "min",
                                          choice("k_denominator",
                                                  ("min", "relevant", "hits"))),
                            REL),
                   weights="item", tie_rule="sklearn", averages=_GMEAN,
                   native=Compiled("ap", ("k_denominator",
                                           ("min", "relevant", "hits")))),
        MetricSpec("interpolated_ap", "interpolated_average_precision_score",
                   _kernels.interpolated_ap, "interpolated AP",
                   options=(("n_points", 11, check_n_points),
                            ("recall_levels", "exact",
                             choice("recall_levels", RECALL_LEVELS)), REL),
                   has_labels=False, weights="item", tie_rule="sklearn",
                   averages=_GMEAN),
        MetricSpec("hit_rate", "hit_rate_score", _kernels.hit_rate, "HR@k",
                   options=(K_REQUIRED, REL), averages=_POOLED,
                   default_average="micro", perfect_score="min(R,k)/R",
                   n_stats=2,
                   native=Compiled("hits", 2)),  # hits over R
        MetricSpec("precision", "precision_at_k_score", _kernels.precision_at_k,
                   "P@k", options=(K_REQUIRED, ("k_denominator", "k", choice(
                       "k_denominator", ("k", "retrieved"))), REL),
                   averages=_POOLED,
                   perfect_score="min(R,k)/k",
                   n_stats=2, empty_value=0.0,
                   native=Compiled("hits", ("k_denominator", ("k", "retrieved")))),
        MetricSpec("recall", "recall_at_k_score", _kernels.recall_at_k, "R@k",
                   options=(K_REQUIRED, REL), averages=_POOLED,
                   perfect_score="min(R,k)/R",
                   n_stats=2,
                   native=Compiled("hits", 2)),  # hits over R
        MetricSpec("ndcg", "ndcg_score", _kernels.ndcg, "NDCG",
                   options=(K_OPTIONAL, GAIN), has_labels=False, graded=True,
                   tie_rule="sklearn", averages=_GMEAN,
                   native=Compiled("ndcg", ("gain", ("linear", "exponential")),
                                    discounts=True),
                   sklearn_undefined=0.0),
        MetricSpec("success", "success_at_k_score", _kernels.success_at_k,
                   "success@k", options=(K_REQUIRED, REL), empty_value=0.0,
                   native=Compiled("success")),
        MetricSpec("r_precision", "r_precision_score", _kernels.r_precision,
                   "R-precision", options=(REL,), averages=_GMEAN),
        MetricSpec("dcg", "dcg_score", _kernels.dcg, "DCG",
                   options=(K_OPTIONAL, ("log_base", 2, check_log_base), GAIN),
                   has_labels=False, graded=True, tie_rule="sklearn",
                   perfect_score="unbounded", always_defined=True),
        MetricSpec("err", "expected_reciprocal_rank_score",
                   _kernels.expected_reciprocal_rank, "ERR",
                   options=(K_OPTIONAL, ("max_grade", 4, check_max_grade)),
                   has_labels=False, graded=True, perfect_score="at_most_one",
                   empty_value=0.0),
        MetricSpec("rbp", "rank_biased_precision_score",
                   _kernels.rank_biased_precision, "RBP",
                   options=(("p", 0.8, check_persistence), REL),
                   perfect_score="at_most_one", accepts_judged=True,
                   judged_rule="keep", empty_value=0.0),
        MetricSpec("rbp_residual", "rank_biased_precision_residual",
                   _kernels.rbp_residual, "RBP residual",
                   options=(("p", 0.8, check_persistence), REL),
                   perfect_score="order_free", accepts_judged=True,
                   judged_rule="residual", scorer=False),
        MetricSpec("expected_exposure", "expected_exposure_score",
                   _exposure_kernels.expected_exposure, "expected exposure",
                   options=(("measure", "loss", choice("measure", EE_MEASURES)),
                            ("user_model", "rbp",
                             choice("user_model", ("rbp", "gerr", "log"))),
                            ("p", 0.5, check_persistence), ("u", 0.5, check_stop),
                            ("normalize", False, check_normalize)),
                   has_labels=False, graded=True, perfect_score="loss",
                   tie_rule="policy", always_defined=True, scorer=False,
                   columns=("samples", "items", "item_groups", "exposure")),
        MetricSpec("awrf", "awrf_score", _exposure_kernels.awrf, "AWRF",
                   options=(("variant", "trec2022",
                             choice("variant", AWRF_CONVENTIONS)),
                            ("p", 0.5, check_persistence),
                            ("distance", None, check_distance),
                            ("target", None, check_target)),
                   has_labels=False, perfect_score="unbounded",
                   tie_rule="policy", always_defined=True, scorer=False,
                   columns=("samples", "items", "item_groups")),
        MetricSpec("bpref", "bpref_score", _kernels.bpref, "bpref",
                   options=(REL,), has_labels=False, accepts_judged=True,
                   averages=_GMEAN),
        *[MetricSpec(name, f"{name}_score", getattr(_diversity, name), label,
                     options=options, perfect_score=perfect, graded=graded,
                     **_DIVERSITY)
          for name, label, options, perfect, graded in (
              ("alpha_ndcg", "alpha-nDCG",
               (K_OPTIONAL, ALPHA, NORMALIZATION, GRADES), "one", True),
              ("err_ia", "ERR-IA",
               (K_OPTIONAL, ALPHA, NORMALIZATION, GRADES), "one", True),
              ("nrbp", "NRBP", (K_OPTIONAL, ALPHA, ("beta", 0.5, check_beta),
                                NORMALIZATION, GRADES), "one", True),
              ("intent_aware", "intent-aware metric", (K_REQUIRED, (
                  "metric", "precision", intent_metric_check(lambda: METRICS))),
               "at_most_one", False),
              ("subtopic_recall", "subtopic recall", (K_REQUIRED, GRADES),
               "at_most_one", False),
              ("d_sharp_ndcg", "D#-nDCG", (K_OPTIONAL, ("gamma", 0.5, check_gamma)),
               "at_most_one", True))],
        # CTR models: the probabilities of each group, no ranking
        MetricSpec("log_loss", "log_loss", _ctr.log_loss, "log loss",
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="loss", always_defined=True, scorer="neg",
                   n_stats=2,
                   native=Compiled("log_loss")),
        MetricSpec("ne", "normalized_entropy", _ctr.normalized_entropy,
                   "normalized entropy",
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", needs_negative=True,
                   finalize=_ctr.ne_finalize, pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="loss", scorer="neg",
                   n_stats=3,
                   pooled_undefined=("the rows hold one class only (no click, or only "
                                     "clicks): the entropy of their base rate is 0"),
                   native=Compiled("ne")),
        MetricSpec("pcoc", "calibration_ratio", _ctr.calibration_ratio, "PCOC",
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="calibration", scorer=False,
                   n_stats=2,
                   pooled_undefined="the rows hold no positive label (no click)",
                   native=Compiled("pcoc")),
        MetricSpec("ece", "expected_calibration_error",
                   _ctr.expected_calibration_error, "ECE",
                   options=(("n_bins", 10, check_n_bins),
                            ("strategy", "uniform",
                             choice("strategy", STRATEGIES)),
                            ("edges", None, check_edges)),
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", finalize=_ctr.ece_finalize,
                   options_from_rows=_quantile_edges,
                   pools_undefined=True, ranked=False, scores="probability",
                   labels_kind="binary", tie_rule="sklearn", perfect_score="loss",
                   always_defined=True, scorer="neg",
                   n_stats=lambda options: 3 * options["n_bins"],
                   native=Compiled("ece", params=_inner_edges)),
        MetricSpec("xauc", "xauc_score", _ctr.xauc, "xAUC", has_labels=False,
                   weights="item", default_average="weighted",
                   tie_rule="sklearn", needs_negative=True, ranked=False,
                   labels_kind="real", graded=True),
    ]
}

#: The metrics of predicted labels (no ranking, no groups), computed by
#: scikit-learn: declared here like every metric (name, function, averages,
#: scorer), outside :data:`METRICS` because the pipeline does not compute them.
CLASSIFICATION = {
    spec.name: spec
    for spec in [
        MetricSpec("f_alpha", "f_alpha_score", None, "F-alpha",
                   averages=("binary", "micro", "macro", "weighted", "samples"),
                   default_average="binary", weights="item", tie_rule="sklearn",
                   kind="classification", response_method="predict"),
    ]
}


#: Metrics of real-valued gains (sums of ``y_true``, no relevance
#: threshold): the relevance estimates ``click / propensity`` of a click log,
#: read by :func:`~sklearn_rankeval.counterfactual_report` beside ``dcg`` and
#: ``ndcg`` (which already sum gains).  Each per-group value of
#: ``gain_precision`` and ``gain_rank`` is linear in the gains and defined for
#: every group, so their average over the groups is unbiased wherever each
#: gain is (inverse propensity scoring); ``gain_recall`` is a ratio of two
#: such sums within each group, defined where the group has a gain (the
#: naive report's recall of clicks); ``snips_recall`` is the same ratio
#: pooled over the whole log (the sums of all the groups, then one ratio:
#: the self-normalised estimate, consistent).  They have no public
#: function and no scorer of their own.
GAIN_METRICS = {
    spec.name: spec
    for spec in [
        MetricSpec("gain_precision", "counterfactual_report", _ips.gain_precision,
                   "precision@k of gains", options=(K_REQUIRED,),
                   has_labels=False, graded=True, perfect_score="unbounded",
                   always_defined=True, scorer=False),
        MetricSpec("gain_recall", "counterfactual_report", _ips.gain_recall,
                   "recall@k of gains", options=(K_REQUIRED,), has_labels=False,
                   graded=True, averages=_POOLED, n_stats=2, scorer=False),
        MetricSpec("gain_rank", "counterfactual_report", _ips.gain_rank,
                   "average relevant rank (sum of gain times rank)",
                   has_labels=False, graded=True,
                   perfect_score="unbounded", always_defined=True, scorer=False),
        # SNIPS: the recall of gains pooled over the whole log (the sums of
        # every group's numerator and denominator, then one ratio)
        MetricSpec("snips_recall", "counterfactual_report", _ips.gain_recall,
                   "recall@k of gains, pooled over the log", options=(K_REQUIRED,),
                   has_labels=False, graded=True, averages=("micro",),
                   default_average="micro", n_stats=2, scorer=False),
    ]
}


#: trec_eval's measures that are metrics of this package, by trec_eval's
#: name: the registry metric each one is.  Their options, the order of tied
#: documents and the value of a query without relevant documents are the
#: ``"trec_eval"`` convention's (:data:`~._conventions.PRESETS`), so
#: ``rankeval trec`` states none of them again.  trec_eval's other measures
#: (the counts, ``relstring``, ``utility``, ``infAP``, ``G``, the ``set_*``
#: measures ...) are that program's own, computed by ``rankeval trec``.
TREC_EVAL = {
    "map": "map", "gm_map": "map", "map_cut": "map", "Rprec": "r_precision",
    "recip_rank": "mrr", "P": "precision", "recall": "recall",
    "ndcg": "ndcg", "ndcg_cut": "ndcg", "success": "success", "bpref": "bpref",
    "gm_bpref": "bpref", "iprec_at_recall": "interpolated_ap",
    "11pt_avg": "interpolated_ap", "rbp": "rbp", "rbp_resid": "rbp_residual",
}


#: The cutoffs of the ``name@K`` names that ``get_scorer_names`` lists.
CUTOFFS_LISTED = (1, 3, 5, 10, 20, 50, 100)

#: The metrics of a report (and of per-group frames) when none are named.
DEFAULT_METRICS = (
    "gauc",
    "mrr",
    "map",
    "map@10",
    "ndcg@10",
    "hit_rate@10",
    "success@10",
    "precision@10",
    "recall@10",
    "interpolated_ap",
)


#: The beyond-accuracy metrics of top-N lists, in their order in messages.
LIST_METRICS = {
    spec.name: spec
    for spec in [
        ListMetricSpec(
            "coverage", "item coverage", _beyond.coverage,
            ("item_sure", "item_log_miss"), level="catalog",
            options=(K_LIST, ("denominator", "catalog",
                               choice("denominator", _beyond.COVERAGE))),
            option_needs=(("denominator", "train_items", "train"),)),
        ListMetricSpec(
            "gini", "Gini index", _beyond.gini, ("item_count",),
            level="catalog",
            options=(K_LIST, ("form", "equality_0",
                               choice("form", _beyond.GINI)))),
        ListMetricSpec(
            "entropy", "Shannon entropy", _beyond.entropy,
            ("item_count", "item_sure", "item_log_miss"), level="catalog",
            options=(K_LIST, ("unit", "bits", choice("unit", _beyond.ENTROPY)))),
        ListMetricSpec(
            "novelty", "novelty", _beyond.novelty, ("size", "novelty"),
            options=(K_LIST, ("variant", "users",
                               choice("variant", _beyond.NOVELTY))),
            needs=("train",), catalog_options=(("variant", "interactions"),)),
        ListMetricSpec("arp", "ARP", _beyond.arp, ("size", "arp"),
                       options=(K_LIST,), needs=("train",)),
        ListMetricSpec(
            "long_tail", "long-tail share", _beyond.long_tail,
            ("size", "long_tail"),
            options=(K_LIST, ("head_share", 0.8, check_head_share)),
            needs=("train",)),
        ListMetricSpec("ild", "ILD", _beyond.ild, ("size", "ild_pairs"),
                       options=(K_LIST,), needs=("item_features",)),
    ]
}
