"""One registry of the ranking metrics: the ONE place a metric is declared.

Each :class:`MetricSpec` names the metric's kernel (``_kernels.py``), its
options with their checks, how ``sample_weight`` acts and which averages it
accepts.  The public ``*_score`` functions, the scorers, ``ranking_report``,
``per_group_scores``, :class:`~sklearn_rankeval.RankingAccumulator`, the
command line, the API documentation and the common tests all read it, so a
new metric is one kernel plus one entry here (plus its public function in
``_metrics.py``, a docstring and one call).
"""

from dataclasses import dataclass

import numpy as np

from .._core import (
    check_average,
    check_n_points,
)
from .._engine import Statistic
from .._stats import GroupInfo, Partials, aggregate
from . import _beyond_kernels as _beyond
from . import _ctr_kernels as _ctr
from . import _diversity_kernels as _diversity
from . import _ips_kernels as _ips
from . import _kernels
from ._calibration import STRATEGIES, check_n_bins, quantile_edges
from ._conventions import (
    SWITCHES,
)
from ._options import (
    ALPHA,
    GAIN,
    GRADES,
    K_LIST,
    K_OPTIONAL,
    K_REQUIRED,
    NORMALIZATION,
    RECALL_LEVELS,
    REL,
    check_beta,
    check_edges,
    check_gamma,
    check_head_share,
    check_log_base,
    check_max_grade,
    check_persistence,
    choice,
    intent_metric_check,
)

__all__ = [
    "CLASSIFICATION",
    "TREC_EVAL",
    "CUTOFFS_LISTED",
    "DEFAULT",
    "DEFAULT_METRICS",
    "GAIN_METRICS",
    "LIST_METRICS",
    "METRICS",
    "RECALL_LEVELS",
    "ListMetricSpec",
    "MetricSpec",
    "group_info",
    "metric_function",
]


def _quantile_edges(y_score, sample_weight, options):
    """ECE's quantile bin edges, from all the rows (see :func:`quantile_edges`)."""
    if options["strategy"] != "quantile" or options["edges"] is not None:
        return {}
    return {"edges": quantile_edges(y_score, options["n_bins"], sample_weight)}


@dataclass(frozen=True)
class _Compiled:
    """The engine's compiled statistic equal to a metric's kernel: the name
    of its kernel code (``_engine/_group_kernels.pxd``), its one option (an
    int, or ``(name, choices)``: the index of option ``name`` in ``choices``;
    another value: not computed), ``params(options)``, and whether it reads
    the DCG discounts cut at ``k`` (``k``, ``n_stats`` and ``ranked`` are
    the entry's: :meth:`MetricSpec.native_statistic`)."""

    kernel: str
    option: object = 0
    params: object = None
    discounts: bool = False


def _inner_edges(options):
    """ECE's inner bin edges (uniform ones when no edges are given)."""
    edges = options["edges"] or np.linspace(0.0, 1.0, options["n_bins"] + 1)
    return tuple(float(e) for e in edges[1:-1])


class _Default:
    """The default of a metric function's option: the registry's (one
    declaration; :func:`metric_function` puts the value in the signature)."""

    def __repr__(self):
        return "<the registry's default>"


DEFAULT = _Default()
#: metric name -> its public function, filled by :func:`metric_function`
_FUNCTIONS = {}


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
        _FUNCTIONS[name] = func
        return func

    return register


@dataclass(frozen=True)
class MetricSpec:
    """What a grouped ranking metric is and what it accepts.

    Attributes
    ----------
    name : str
        Scorer name (``"map"``, ``"ndcg"``, ...); with a cutoff ``name@K``.
    func_name : str
        Name of the public ``*_score`` function (see :attr:`func`).
    kernel : callable
        ``kernel(ranked_groups, **options) -> Partials`` (``_kernels.py``).
    label : str
        Short name in messages (``"GAUC"``, ``"P@k"``).
    options : tuple of (name, default, check)
        The kernel's keyword options, their defaults and their checks
        (``k`` first when the metric has a cutoff); for the binary ranking
        metrics also ``rel``, the relevance threshold of a metric name such
        as ir_measures' ``"P(rel=2)@5"``: the pipeline ranks ``y_true >=
        rel`` (as 0/1) instead of ``y_true``, which gives each binary metric
        the value it has when an item is relevant at ``y_true >= rel``
        (the kernels read relevance only as ``y_true > 0``); None keeps
        ``y_true > 0``.  The public functions do not take it.
    has_labels : bool
        Whether the function takes ``labels`` (multiclass input).
    graded : bool
        Whether graded relevance changes the value (binary metrics only look
        at ``y_true > 0``).
    weights : {"item", "query"}
        How ``sample_weight`` acts: item weights inside each group, or one
        weight per query (constant within a group).
    averages : tuple of str
        Accepted ``average`` values besides None (``"micro"`` pools the
        kernel's numerators and denominators).
    default_average : str
    tie_rule : {"sklearn", "expected"}
        Ties as scikit-learn's equivalent metric, or the expected value over
        all orderings of the tied items.
    needs_negative : bool
        Whether a group also needs an irrelevant item to be defined (AUC).
    perfect_score : {"one", "min(R,k)/k", "min(R,k)/R", "at_most_one", \
"unbounded", "order_free", "loss", "calibration"}
        What a perfect ranking scores: 1; ``min(R, k) / k`` (P@k);
        ``min(R, k) / R`` (R@k, HR@k); at most 1 (RBP, ERR: the value is in
        [0, 1] but its maximum depends on the query); no fixed bound (DCG);
        or the same as any other order of the items, in [0, 1] (RBP's
        residual: not a quality of the ranking); a loss, 0 at best (log loss,
        NE, ECE); or a calibration ratio, 1 at best (PCOC).
    always_defined : bool
        Whether every group has a value, relevant items or not (DCG, as in
        scikit-learn's ``dcg_score``).
    accepts_judged : bool
        Whether the function takes ``judged=``.
    judged_rule : {"drop", "keep", "residual"}
        What ``judged=`` does: ``"drop"`` leaves the unjudged rows out before
        ranking (bpref); ``"keep"`` keeps them in the ranking as non-relevant
        (RBP); ``"residual"`` keeps them as non-relevant and adds the RBP
        weight of their ranks to the value (RBP's residual).
    scorer : bool or "neg"
        Whether the name is a scorer (:func:`~sklearn_rankeval.get_scorer`):
        False for a value that is neither better high nor better low (RBP's
        residual, PCOC); ``"neg"`` for a loss, whose scorer is
        ``"neg_<name>"`` (the negated value, as scikit-learn's
        ``"neg_log_loss"``).
    n_stats : int, callable or None
        How many additive statistics a group's partials carry for the pooled
        (``"micro"``) average: an int, ``n_stats(options)`` where it depends
        on the options (ECE: three per bin), or None (no pooled average).
    finalize : callable or None
        ``finalize(summed statistics) -> value`` of the pooled (``"micro"``)
        average, from the kernel's per-group statistics (see
        :mod:`._averages`); None: the ratio of the two statistics.
    ranked : bool
        Whether the kernel reads the ranking (:class:`~._engine.RankedGroups`)
        or the rows of each group as they come
        unranked (its view ``RankedGroups.unranked``: no sort, for the CTR
        metrics).
    scores : {"order", "probability"}
        Whether only the order of the scores matters (any strictly increasing
        transform leaves the value unchanged), or the scores are
        probabilities in [0, 1] whose values count.
    kind : {"ranking", "classification"}
        ``"ranking"``: a grouped metric computed by the pipeline from a
        per-group kernel (every entry of :data:`METRICS`); ``"classification"``:
        a metric of predicted labels computed by scikit-learn (the entries of
        :data:`CLASSIFICATION`: F-alpha), with no kernel and no groups.
    response_method : str or None
        What the metric's scorer asks the estimator for (``"predict"`` for
        F-alpha; None: the ranking scorers' own choice).
    labels_kind : {"relevance", "binary", "real", "intents"}
        What ``y_true`` holds: relevance grades (``> 0`` relevant), two
        classes only (0/1), any real labels compared with each other (watch
        time, for xAUC), or grades per intent (``(n_rows, n_intents)``: the
        diversity metrics, which read them as the input's
        ``intent_grades`` column).
    native : _Compiled or None
        The statistic of the engine's compiled pass that equals the kernel
        (its kernel code and option encoding; its count is :attr:`n_stats`),
        computed in the grouped pass on NumPy input; None: the kernel runs.
    pooled_undefined : str or None
        Why the pooled (``"micro"``) value can be undefined although rows
        count (the warning's words): the normalized entropy of rows of one
        class, the PCOC of rows without a positive.
    options_from_rows : callable or None
        ``options_from_rows(y_score, sample_weight, options) -> dict``: options
        the metric reads off all the rows at once, before the rows are cut
        into chunks (ECE's quantile bin edges).
    pools_undefined : bool
        Whether the pooled average pools the statistics of every group, the
        groups where the metric's own value is undefined included (log loss,
        normalized entropy: the micro average is the metric of all rows), or
        only of the groups where it is defined (P@k, R@k, HR@k).
    empty_value : float or None
        The value the metric's formula gives a group without any relevant
        item, where it gives one (P@k: no hit over k, 0; MRR, success, ERR,
        RBP: 0); None where it divides by the relevant items (recall, NDCG,
        AP, ...).  The metric functions leave such a group out as undefined
        either way; ``recommendation_report(users="recommended")`` counts a
        user with a list and no held-out item with it.
    columns : tuple of str
        The input's columns the kernel reads in rank order
        (:meth:`~sklearn_rankeval._engine.RankedGroups.column`): a column a
        reader of the input door gives (``"intent_grades"``: 2-D ``y_true``
        read as grades per intent), passed to the pipeline's ``columns=``.
    sklearn_undefined : float or None
        The value scikit-learn's function of the same name gives an
        undefined group in its own layout (2-D ``y_true``, one query per
        row), where it has one: NDCG 0 (``sklearn.metrics.ndcg_score``).  In
        that layout the default ``undefined="warn"`` counts such a group with
        it, silently, so that the value is scikit-learn's.
    """

    name: str
    func_name: str
    kernel: object
    label: str
    options: tuple = ()
    has_labels: bool = True
    graded: bool = False
    weights: str = "query"
    averages: tuple = ("macro", "weighted")
    default_average: str = "macro"
    tie_rule: str = "expected"
    needs_negative: bool = False
    perfect_score: str = "one"
    always_defined: bool = False
    accepts_judged: bool = False
    judged_rule: str = "drop"
    scorer: bool = True
    n_stats: object = None
    finalize: object = None
    pools_undefined: bool = False
    pooled_undefined: str = None
    options_from_rows: object = None
    ranked: bool = True
    scores: str = "order"
    labels_kind: str = "relevance"
    kind: str = "ranking"
    response_method: str = None
    native: str = None
    empty_value: object = None
    sklearn_undefined: object = None
    columns: tuple = ()

    #: what the metric reads: grouped rows (``"lists"``: ``ListMetricSpec``)
    input = "rows"

    # -- capabilities read by callers ---------------------------------------
    @property
    def func(self):
        """The public ``*_score`` function (registered by
        :func:`metric_function` when the package is imported)."""
        return _FUNCTIONS[self.name]

    @property
    def option_names(self):
        return tuple(name for name, _, _ in self.options)

    @property
    def kernel_option_names(self):
        """The options the kernel takes (all but the relevance threshold)."""
        return tuple(name for name in self.option_names if name != "rel")

    def kernel_options(self, options):
        """The options of a parsed metric that its kernel (and the engine's
        compiled statistic) reads: ``rel`` acts on y_true before ranking (the
        pipeline), and a metric name's switches (``undefined``) after."""
        return {name: options[name] for name in self.kernel_option_names}

    @property
    def has_rel(self):
        """Whether the metric takes the relevance threshold ``rel``."""
        return "rel" in self.option_names

    @property
    def has_k(self):
        return "k" in self.option_names

    @property
    def k_default(self):
        return dict((n, d) for n, d, _ in self.options).get("k")

    @property
    def query_weighted(self):
        return self.weights == "query"

    @property
    def scorer_name(self):
        """The scorer's name (``name``, ``"neg_" + name`` for a loss), or None."""
        if self.scorer == "neg":
            return f"neg_{self.name}"
        return self.name if self.scorer else None

    @property
    def grouping_free(self):
        """Whether the default average ignores the groups (a pooled average of
        every row: log loss, NE, ECE), so that a scorer needs no ``groups``."""
        return self.default_average == "micro" and self.pools_undefined

    # -- computing ------------------------------------------------------------
    def statistics(self, **options):
        """The number of additive statistics of the pooled average (0: none)."""
        n = self.n_stats
        return int(n(options) if callable(n) else (n or 0))

    def check_options(self, **options):
        """Checked options, defaults filled in; unknown names are a TypeError."""
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise TypeError(
                f"{self.func_name}() got unexpected option(s) "
                f"{', '.join(sorted(unknown))}."
            )
        return {name: check(default if name in SWITCHES and options.get(name) is None
                            else options.get(name, default))
                for name, default, check in self.options}

    def check_average(self, average):
        return check_average(average, self.averages)

    def partials(self, rg, **options):
        """The kernel's per-group :class:`~._kernels.Partials` (cached on ``rg``).

        ``options`` must be checked and complete (:meth:`check_options`).
        Where the engine's compiled pass computed the metric's statistics
        (:attr:`native`) they are used instead of running the kernel.
        """
        if not self.ranked:  # the rows of the same groups, unranked
            rg = rg.unranked
        if self.weights == "query":
            rg.check_query_weights(self.func_name)
        options = self.kernel_options(options)
        raw = rg.native_stat(self.native_statistic(options))
        if raw is not None:
            return Partials(*raw)
        key = (self.kernel, tuple(options.items()))
        return rg.cached(key, lambda: self.kernel(rg, **options))

    def native_statistic(self, options):
        """The engine's :class:`~sklearn_rankeval._engine.Statistic` equal to
        the kernel under its ``options`` (:meth:`kernel_options`), or None."""
        compiled, k = self.native, options.get("k")
        option = getattr(compiled, "option", None)
        if isinstance(option, tuple):  # (name, choices): the choice's index
            name, choices = option
            option = (choices.index(options[name]) if options[name] in choices
                      else None)
        return None if option is None else Statistic(
            compiled.kernel, rows=not self.ranked, n_stats=self.statistics(
                **options), k=-1 if k is None else int(k), option=option,
            params=compiled.params(options) if compiled.params else (),
            discounts=compiled.discounts)

    def aggregate(self, partials, info, *, average, undefined="skip"):
        """The metric under ``average`` (:func:`._averages.aggregate`)."""
        return aggregate(partials, info, self, average=average, undefined=undefined)

    def from_ranked(self, rg, *, average="default", undefined="skip", **options):
        """The metric of an input the engine has already ranked.

        ``average`` defaults to the metric's default; None gives the per-group
        values.
        """
        options = self.check_options(**options)
        if average == "default":
            average = self.default_average
        return self.aggregate(self.partials(rg, **options), group_info(rg),
                              average=average, undefined=undefined)


def group_info(rg):
    """The :class:`~._kernels.GroupInfo` of a ranked input (cached on it)."""
    return rg.cached("group_info", lambda: GroupInfo.from_ranked(rg))


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
                   native=_Compiled("auc")),
        MetricSpec("mrr", "mean_reciprocal_rank_score", _kernels.reciprocal_rank,
                   "MRR", options=(K_OPTIONAL, REL), averages=_GMEAN,
                   empty_value=0.0,
                   native=_Compiled("rr")),
        MetricSpec("map", "mean_average_precision_score",
                   _kernels.average_precision, "MAP",
                   options=(K_OPTIONAL, ("k_denominator", "min",
                                          choice("k_denominator",
                                                  ("min", "relevant", "hits"))),
                            REL),
                   weights="item", tie_rule="sklearn", averages=_GMEAN,
                   native=_Compiled("ap", ("k_denominator",
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
                   native=_Compiled("hits", 2)),  # hits over R
        MetricSpec("precision", "precision_at_k_score", _kernels.precision_at_k,
                   "P@k", options=(K_REQUIRED, ("k_denominator", "k", choice(
                       "k_denominator", ("k", "retrieved"))), REL),
                   averages=_POOLED,
                   perfect_score="min(R,k)/k",
                   n_stats=2, empty_value=0.0,
                   native=_Compiled("hits", ("k_denominator", ("k", "retrieved")))),
        MetricSpec("recall", "recall_at_k_score", _kernels.recall_at_k, "R@k",
                   options=(K_REQUIRED, REL), averages=_POOLED,
                   perfect_score="min(R,k)/R",
                   n_stats=2,
                   native=_Compiled("hits", 2)),  # hits over R
        MetricSpec("ndcg", "ndcg_score", _kernels.ndcg, "NDCG",
                   options=(K_OPTIONAL, GAIN), has_labels=False, graded=True,
                   tie_rule="sklearn", averages=_GMEAN,
                   native=_Compiled("ndcg", ("gain", ("linear", "exponential")),
                                    discounts=True),
                   sklearn_undefined=0.0),
        MetricSpec("success", "success_at_k_score", _kernels.success_at_k,
                   "success@k", options=(K_REQUIRED, REL), empty_value=0.0,
                   native=_Compiled("success")),
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
                   native=_Compiled("log_loss")),
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
                   native=_Compiled("ne")),
        MetricSpec("pcoc", "calibration_ratio", _ctr.calibration_ratio, "PCOC",
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="calibration", scorer=False,
                   n_stats=2,
                   pooled_undefined="the rows hold no positive label (no click)",
                   native=_Compiled("pcoc")),
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
                   native=_Compiled("ece", params=_inner_edges)),
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


# ---------------------------------------------------------------------------
# metrics of top-N recommendation lists (input: lists; beyond accuracy)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ListMetricSpec:
    """What a beyond-accuracy metric of top-N lists is and what it needs.

    Its input is lists (``input = "lists"``): each user's top-K list, read
    by ``recommendation_report``, which computes each row's membership of
    its user's list; its statistics are those of
    :class:`~._beyond_kernels.BeyondPartials` (per-item sums and per-user
    sums, additive over chunks of users), and ``finalize`` turns them into
    the value.  The accuracy metrics of lists are the ranking metrics of
    :data:`METRICS` on the long layout the lists define.

    Attributes
    ----------
    name : str
        The name; always written with its cutoff, ``name@K``.
    label : str
        Short name in messages.
    finalize : callable
        ``finalize(parts, label, options, popularity) -> value``: a float (a
        value of the catalog) or the per-user
        :class:`~sklearn_rankeval._stats.Partials` (averaged over the users
        where they are defined: ``"macro"``).
    statistics : tuple of str
        The statistics it reads: fields of ``BeyondPartials`` (per-item
        vectors) or rows of its ``user_stats`` (per-user sums).
    level : {"catalog", "user"}
        A value of the whole catalog (no per-user value, no bootstrap over
        users), or the mean of per-user values.
    options : tuple of (name, default, check)
        ``k`` first (required: the list length), then the metric's own.
    needs : tuple of str
        Inputs it needs besides the lists: ``"train"`` (the training
        popularity), ``"item_features"``.
    option_needs : tuple of (option, value, need)
        A need that an option's value adds (MS Recommenders' coverage of
        the training items needs ``train``).
    catalog_options : tuple of (option, value)
        An option value that makes a per-user metric a value of the catalog
        (novelty pooled over all recommendations).
    """

    name: str
    label: str
    finalize: object
    statistics: tuple
    level: str = "user"
    options: tuple = ()
    needs: tuple = ()
    option_needs: tuple = ()
    catalog_options: tuple = ()
    input: str = "lists"
    # what the statistics contract reads of a per-user metric (as MetricSpec)
    query_weighted: bool = True
    needs_negative: bool = False
    pools_undefined: bool = False
    default_average: str = "macro"
    averages: tuple = ("macro",)
    scores: str = "order"
    has_k = True
    k_default = None

    @property
    def option_names(self):
        return tuple(name for name, _, _ in self.options)

    def check_options(self, **options):
        """Checked options, defaults filled in; unknown names are a TypeError."""
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise TypeError(f"{self.name}@K got unexpected option(s) "
                            f"{', '.join(sorted(unknown))}.")
        return {name: check(options.get(name, default))
                for name, default, check in self.options}

    def needs_of(self, options):
        """The inputs this metric needs under ``options`` (checked)."""
        extra = tuple(need for option, value, need in self.option_needs
                      if options.get(option) == value)
        return tuple(dict.fromkeys(self.needs + extra))

    def per_user(self, options):
        """Whether the value is a mean of per-user values under ``options``."""
        return self.level == "user" and not any(
            options.get(option) == value for option, value in self.catalog_options)



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
