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
from numbers import Integral, Real

import numpy as np

from .._core import check_average, check_k, check_n_points, check_option
from .._stats import GroupInfo, Partials, aggregate
from . import _ctr_kernels as _ctr
from . import _kernels
from ._calibration import STRATEGIES, check_n_bins
from ._conventions import (
    SWITCHES,
    check_gain,
)

__all__ = [
    "CUTOFFS_LISTED",
    "DEFAULT",
    "DEFAULT_METRICS",
    "METRICS",
    "RECALL_LEVELS",
    "MetricSpec",
    "group_info",
    "metric_function",
]


def _choice(name, options):
    def check(value):
        return check_option(value, name, options)

    return check


def check_log_base(value):
    if (isinstance(value, bool) or not isinstance(value, Real)
            or not np.isfinite(value) or value <= 1):
        raise ValueError(f"log_base must be a number > 1, got {value!r}.")
    return float(value) if value != 2 else 2


def check_max_grade(value):
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ValueError(f"max_grade must be an integer >= 1, got {value!r}.")
    return int(value)


def check_negative_sampling_rate(value):
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, Real)
            or not 0 < value <= 1):
        raise ValueError(f"negative_sampling_rate must be a number in (0, 1] "
                         f"(the share of negatives kept), got {value!r}.")
    return float(value)


def check_edges(value):
    """Bin edges given by the ECE function (quantile bins): a tuple."""
    return None if value is None else tuple(float(e) for e in value)


def check_persistence(value):
    if (isinstance(value, bool) or not isinstance(value, Real)
            or not 0 < value < 1):
        raise ValueError(f"p must be a number in (0, 1), got {value!r}.")
    return float(value)


_K_OPTIONAL = ("k", None, check_k)
_K_REQUIRED = ("k", 10, lambda k: check_k(k, allow_none=False))
_GAIN = ("gain", "linear", check_gain)
RECALL_LEVELS = ("exact", "trec_eval_9", "trec_eval_10")


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
    spec = METRICS[name]
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
        (``k`` first when the metric has a cutoff).
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
    finalize : callable or None
        ``finalize(summed statistics) -> value`` of the pooled (``"micro"``)
        average, from the kernel's per-group statistics (see
        :mod:`._averages`); None: the ratio of the two statistics.
    ranked : bool
        Whether the kernel reads the ranking (:class:`~._engine.RankedGroups`)
        or the rows of each group as they come
        (:class:`~._ctr.GroupedRows`: no sort, for the CTR metrics).
    scores : {"order", "probability"}
        Whether only the order of the scores matters (any strictly increasing
        transform leaves the value unchanged), or the scores are
        probabilities in [0, 1] whose values count.
    labels_kind : {"relevance", "binary", "real"}
        What ``y_true`` holds: relevance grades (``> 0`` relevant), two
        classes only (0/1), or any real labels compared with each other (watch
        time, for xAUC).
    native : str or None
        The per-group statistic of the compiled engine that equals this
        metric's kernel (``sklearn_rankeval._engine._native``), computed in
        the engine's grouped pass on NumPy input; None: the kernel runs.
    pools_undefined : bool
        Whether the pooled average pools the statistics of every group, the
        groups where the metric's own value is undefined included (log loss,
        normalized entropy: the micro average is the metric of all rows), or
        only of the groups where it is defined (P@k, R@k, HR@k).
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
    finalize: object = None
    pools_undefined: bool = False
    ranked: bool = True
    scores: str = "order"
    labels_kind: str = "relevance"
    native: str = None

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
        if self.weights == "query":
            rg.check_query_weights(self.func_name)
        raw = rg.native_stat(self.native, options) if self.native else None
        if raw is not None:
            return Partials(*raw)
        key = (self.kernel, tuple(options.items()))
        return rg.cached(key, lambda: self.kernel(rg, **options))

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
#: Metrics with a geometric mean (trec_eval's gm_map, gm_bpref): values in
#: [0, 1] where a query near 0 is a failure worth weighing.
_GMEAN = ("macro", "weighted", "gmean")

METRICS = {
    spec.name: spec
    for spec in [
        MetricSpec("gauc", "gauc_score", _kernels.gauc, "GAUC", has_labels=False,
                   weights="item", default_average="weighted", tie_rule="sklearn",
                   needs_negative=True, native="auc"),
        MetricSpec("mrr", "mean_reciprocal_rank_score", _kernels.reciprocal_rank,
                   "MRR", options=(_K_OPTIONAL,), averages=_GMEAN, native="rr"),
        MetricSpec("map", "mean_average_precision_score",
                   _kernels.average_precision, "MAP",
                   options=(_K_OPTIONAL, ("k_denominator", "min",
                                          _choice("k_denominator",
                                                  ("min", "relevant", "hits")))),
                   weights="item", tie_rule="sklearn", averages=_GMEAN,
                   native="ap"),
        MetricSpec("interpolated_ap", "interpolated_average_precision_score",
                   _kernels.interpolated_ap, "interpolated AP",
                   options=(("n_points", 11, check_n_points),
                            ("recall_levels", "exact",
                             _choice("recall_levels", RECALL_LEVELS))),
                   has_labels=False, weights="item", tie_rule="sklearn",
                   averages=_GMEAN),
        MetricSpec("hit_rate", "hit_rate_score", _kernels.hit_rate, "HR@k",
                   options=(_K_REQUIRED,), averages=_POOLED,
                   default_average="micro", perfect_score="min(R,k)/R",
                   native="recall"),
        MetricSpec("precision", "precision_at_k_score", _kernels.precision_at_k,
                   "P@k", options=(_K_REQUIRED, ("k_denominator", "k", _choice(
                       "k_denominator", ("k", "retrieved")))), averages=_POOLED,
                   perfect_score="min(R,k)/k", native="precision"),
        MetricSpec("recall", "recall_at_k_score", _kernels.recall_at_k, "R@k",
                   options=(_K_REQUIRED,), averages=_POOLED,
                   perfect_score="min(R,k)/R", native="recall"),
        MetricSpec("ndcg", "ndcg_score", _kernels.ndcg, "NDCG",
                   options=(_K_OPTIONAL, _GAIN), has_labels=False, graded=True,
                   tie_rule="sklearn", averages=_GMEAN, native="ndcg"),
        MetricSpec("success", "success_at_k_score", _kernels.success_at_k,
                   "success@k", options=(_K_REQUIRED,), native="success"),
        MetricSpec("r_precision", "r_precision_score", _kernels.r_precision,
                   "R-precision", averages=_GMEAN),
        MetricSpec("dcg", "dcg_score", _kernels.dcg, "DCG",
                   options=(_K_OPTIONAL, ("log_base", 2, check_log_base), _GAIN),
                   has_labels=False, graded=True, tie_rule="sklearn",
                   perfect_score="unbounded", always_defined=True),
        MetricSpec("err", "expected_reciprocal_rank_score",
                   _kernels.expected_reciprocal_rank, "ERR",
                   options=(_K_OPTIONAL, ("max_grade", 4, check_max_grade)),
                   has_labels=False, graded=True, perfect_score="at_most_one"),
        MetricSpec("rbp", "rank_biased_precision_score",
                   _kernels.rank_biased_precision, "RBP",
                   options=(("p", 0.8, check_persistence),),
                   perfect_score="at_most_one", accepts_judged=True,
                   judged_rule="keep"),
        MetricSpec("rbp_residual", "rank_biased_precision_residual",
                   _kernels.rbp_residual, "RBP residual",
                   options=(("p", 0.8, check_persistence),),
                   perfect_score="order_free", accepts_judged=True,
                   judged_rule="residual", scorer=False),
        MetricSpec("bpref", "bpref_score", _kernels.bpref, "bpref",
                   has_labels=False, accepts_judged=True, averages=_GMEAN),
        # CTR models: the probabilities of each group, no ranking
        MetricSpec("log_loss", "log_loss", _ctr.log_loss, "log loss",
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="loss", always_defined=True, scorer="neg",
                   native="log_loss"),
        MetricSpec("ne", "normalized_entropy", _ctr.normalized_entropy,
                   "normalized entropy",
                   options=(("negative_sampling_rate", None,
                             check_negative_sampling_rate),),
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", needs_negative=True,
                   finalize=_ctr.ne_finalize, pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="loss", scorer="neg", native="ne"),
        MetricSpec("pcoc", "calibration_ratio", _ctr.calibration_ratio, "PCOC",
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", pools_undefined=True, ranked=False,
                   scores="probability", labels_kind="binary", tie_rule="sklearn",
                   perfect_score="calibration", scorer=False, native="pcoc"),
        MetricSpec("ece", "expected_calibration_error",
                   _ctr.expected_calibration_error, "ECE",
                   options=(("n_bins", 10, check_n_bins),
                            ("strategy", "uniform",
                             _choice("strategy", STRATEGIES)),
                            ("edges", None, check_edges)),
                   has_labels=False, weights="item", averages=_POOLED,
                   default_average="micro", finalize=_ctr.ece_finalize,
                   pools_undefined=True, ranked=False, scores="probability",
                   labels_kind="binary", tie_rule="sklearn", perfect_score="loss",
                   always_defined=True, scorer="neg", native="ece"),
        MetricSpec("xauc", "xauc_score", _ctr.xauc, "xAUC", has_labels=False,
                   weights="item", default_average="weighted",
                   tie_rule="sklearn", needs_negative=True, ranked=False,
                   labels_kind="real", graded=True),
    ]
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




