"""One registry of the ranking metrics: the ONE place a metric is declared.

Each :class:`MetricSpec` names the metric's kernel (``_kernels.py``), its
options with their checks, how ``sample_weight`` acts and which averages it
accepts.  The public ``*_score`` functions, the scorers, ``ranking_report``,
``per_group_scores``, :class:`~sklearn_rankeval.RankingAccumulator`, the
command line, the API documentation and the common tests all read it, so a
new metric is one kernel plus one entry here (plus its public function in
``_metrics.py``, a docstring and one call).
"""

import importlib
import re
from dataclasses import dataclass, field

from . import _kernels
from ._engine import rank_groups
from ._kernels import GroupInfo, aggregate
from ._validation import (
    check_average,
    check_k,
    check_n_points,
    check_option,
    check_undefined,
)

__all__ = [
    "METRICS",
    "RECALL_LEVELS",
    "MetricSpec",
    "compute",
    "group_info",
    "metric_options",
    "parse_metric_name",
    "valid_names_text",
]


def _choice(name, options):
    def check(value):
        return check_option(value, name, options)

    return check


_K_OPTIONAL = ("k", None, check_k)
_K_REQUIRED = ("k", 10, lambda k: check_k(k, allow_none=False))
RECALL_LEVELS = ("exact", "trec_eval_9", "trec_eval_10")


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
    divides_by_k : bool
        Whether the value is divided by ``k`` (so a perfect ranking of a
        query with fewer than ``k`` relevant items scores ``R / k``).
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
    divides_by_k: bool = False
    _defaults: dict = field(default=None, repr=False, compare=False)

    # -- capabilities read by callers ---------------------------------------
    @property
    def func(self):
        """The public ``*_score`` function."""
        return getattr(importlib.import_module("sklearn_rankeval._metrics"),
                       self.func_name)

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

    # -- computing ------------------------------------------------------------
    def check_options(self, **options):
        """Checked options, defaults filled in; unknown names are a TypeError."""
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise TypeError(
                f"{self.func_name}() got unexpected option(s) "
                f"{', '.join(sorted(unknown))}."
            )
        return {name: check(options.get(name, default))
                for name, default, check in self.options}

    def check_average(self, average):
        return check_average(average, self.averages)

    def partials(self, rg, **options):
        """The kernel's per-group :class:`~._kernels.Partials` (cached on ``rg``).

        ``options`` must be checked and complete (:meth:`check_options`).
        """
        if self.weights == "query":
            rg.check_query_weights(self.func_name)
        key = (self.kernel, tuple(options.items()))
        return rg.cached(key, lambda: self.kernel(rg, **options))

    def aggregate(self, partials, info, *, average, undefined="skip", stacklevel=4):
        return aggregate(partials, info, average=average, undefined=undefined,
                         query_weighted=self.query_weighted, label=self.label,
                         needs_negative=self.needs_negative, stacklevel=stacklevel)

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


def compute(name, y_true, y_score, *, groups=None, sample_weight=None, labels=None,
            average, undefined="skip", **options):
    """A metric function's body: check the options, rank once, aggregate."""
    spec = METRICS[name]
    options = spec.check_options(**options)
    average = spec.check_average(average)
    undefined = check_undefined(undefined)
    rg = rank_groups(y_true, y_score, groups=groups, sample_weight=sample_weight,
                     labels=labels)
    return spec.aggregate(spec.partials(rg, **options), group_info(rg),
                          average=average, undefined=undefined, stacklevel=5)


_POOLED = ("micro", "macro", "weighted")

METRICS = {
    spec.name: spec
    for spec in [
        MetricSpec("gauc", "gauc_score", _kernels.gauc, "GAUC", has_labels=False,
                   weights="item", default_average="weighted", tie_rule="sklearn",
                   needs_negative=True),
        MetricSpec("mrr", "mean_reciprocal_rank_score", _kernels.reciprocal_rank,
                   "MRR", options=(_K_OPTIONAL,)),
        MetricSpec("map", "mean_average_precision_score",
                   _kernels.average_precision, "MAP",
                   options=(_K_OPTIONAL, ("k_denominator", "min",
                                          _choice("k_denominator",
                                                  ("min", "relevant")))),
                   weights="item", tie_rule="sklearn"),
        MetricSpec("interpolated_ap", "interpolated_average_precision_score",
                   _kernels.interpolated_ap, "interpolated AP",
                   options=(("n_points", 11, check_n_points),
                            ("recall_levels", "exact",
                             _choice("recall_levels", RECALL_LEVELS))),
                   has_labels=False, weights="item", tie_rule="sklearn"),
        MetricSpec("hit_rate", "hit_rate_score", _kernels.hit_rate, "HR@k",
                   options=(_K_REQUIRED,), averages=_POOLED,
                   default_average="micro"),
        MetricSpec("precision", "precision_at_k_score", _kernels.precision_at_k,
                   "P@k", options=(_K_REQUIRED,), averages=_POOLED,
                   divides_by_k=True),
        MetricSpec("recall", "recall_at_k_score", _kernels.recall_at_k, "R@k",
                   options=(_K_REQUIRED,), averages=_POOLED),
        MetricSpec("ndcg", "ndcg_score", _kernels.ndcg, "NDCG",
                   options=(_K_OPTIONAL,), has_labels=False, graded=True,
                   tie_rule="sklearn"),
    ]
}


def parse_metric_name(name):
    """``"ndcg@10"`` -> (METRICS["ndcg"], 10); ``"map"`` -> (METRICS["map"], None).

    Returns None for a name that is not a ranking metric: a cutoff on a metric
    without ``k``, a non-positive cutoff, or a metric that needs one
    (``hit_rate``, ``precision``, ``recall``) given without.
    """
    if not isinstance(name, str):
        return None
    match = re.fullmatch(r"([a-z_]+)@([0-9]+)", name)
    if match is not None:
        spec, k = METRICS.get(match.group(1)), int(match.group(2))
        if spec is not None and spec.has_k and k >= 1:
            return spec, k
        return None
    spec = METRICS.get(name)
    if spec is not None and (not spec.has_k or spec.k_default is None):
        return spec, None
    return None


def metric_options(spec, k):
    """The options of a parsed metric name: its cutoff, if any."""
    return {"k": k if k is not None else spec.k_default} if spec.has_k else {}


def valid_names_text(extra=()):
    """The accepted metric names, for error messages (``extra``: more plain names)."""
    plain = [name for name, spec in METRICS.items()
             if not spec.has_k or spec.k_default is None]
    cut = [f"{name}@K" for name, spec in METRICS.items() if spec.has_k]
    return (f"{', '.join([*plain, *extra])}, and {', '.join(cut)} for any "
            f"positive integer K")
