"""The metrics' options, declared once: each option's constraint and default.

A registry entry (:mod:`._registry`) lists its options as ``(name, default,
check)``; the checks are declared here with the package's declared
parameters (:func:`~sklearn_rankeval._core.declared`: one constraint, one
error kind, :class:`~sklearn_rankeval._core.InvalidParameterError`), so
that an option shared by several metrics (``k``, ``rel``, ``gain``) has one
rule and one message wherever it is given.
"""

import math
from numbers import Integral, Real

import numpy as np

from .._core import (
    Interval,
    InvalidParameterError,
    Options,
    check_alpha,
    check_k,
    check_option,
    declared,
)
from ._beyond_kernels import check_head_share
from ._conventions import check_gain
from ._exposure_kernels import FAIRRANKTUNE_DISTANCES

__all__ = [
    "ALPHA",
    "CALL_K",
    "GRADES",
    "K_LIST",
    "NORMALIZATION",
    "K_OPTIONAL",
    "K_REQUIRED",
    "GAIN",
    "REL",
    "RECALL_LEVELS",
    "check_beta",
    "check_edges",
    "check_gamma",
    "check_head_share",
    "check_log_base",
    "check_max_grade",
    "AWRF_CONVENTIONS",
    "EE_MEASURES",
    "check_distance",
    "check_normalize",
    "check_persistence",
    "check_stop",
    "check_target",
    "check_rel",
    "choice",
    "intent_metric_check",
]


def choice(name, options):
    def check(value):
        return check_option(value, name, options)

    return check


#: ``log_base``: the base of a discount's logarithm, a number > 1.
_check_log_base = declared("log_base", Interval(Real, 1, math.inf, "neither"),
                           text="a number > 1")


def check_log_base(value):
    value = _check_log_base(value)
    return float(value) if value != 2 else 2


#: ``max_grade``: the highest relevance grade (ERR), an integer >= 1.
check_max_grade = declared("max_grade", Interval(Integral, 1, None), convert=int,
                           text="an integer >= 1")


def check_edges(value):
    """Bin edges given by the ECE function (quantile bins): a tuple."""
    try:
        return None if value is None else tuple(float(e) for e in value)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            "edges", f"must be a sequence of numbers (the bin edges) or None, "
            f"got {value!r}.") from None


def check_rel(value):
    """The relevance threshold ``rel`` (ir_measures' ``rel=``), or None.

    None: an item is relevant when ``y_true > 0``; a number ``r > 0``: when
    ``y_true >= r``; ``"binary"``: when ``y_true > 0``, and ``y_true`` must
    hold only 0 and 1 (for a name whose peer reads grades as gains).
    """
    value = _check_rel(value)
    if value is None or value == "binary":
        return value
    return int(value) if float(value).is_integer() else float(value)


_check_rel = declared(
    "rel", Interval(Real, 0, math.inf, "neither"), Options(("binary",)), None,
    text="a number > 0 (an item is relevant when y_true >= rel; y_true >= 0 "
         "always, so rel <= 0 would make every item relevant)")


#: ``p``: RBP's persistence, in (0, 1).
check_persistence = declared("p", Interval(Real, 0, 1, "neither"), convert=float,
                             text="a number in (0, 1)")


#: ``u``: the probability that a relevant item stops the user (gerr), in [0, 1].
check_stop = declared("u", Interval(Real, 0, 1, "both"), convert=float,
                      text="a number in [0, 1]")

def check_normalize(value):
    """``normalize``: True or False (NumPy booleans included)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidParameterError("normalize", f"must be True or False, got {value!r}.")

def check_target(value):
    """``target``: None, or the target shares of the item groups' codes as a
    tuple of numbers in [0, 1] with a sum <= 1 (built by the public function
    from a mapping, normalised over all its keys: the groups no item belongs
    to hold the rest)."""
    if value is None:
        return None
    try:
        shares = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            "target", f"must map each item group to its target share, got "
            f"{value!r}.") from None
    if any(not math.isfinite(v) or v < 0 for v in shares) or sum(shares) > 1 + 1e-9:
        raise InvalidParameterError(
            "target", "must give finite shares >= 0 that sum to at most 1.")
    return shares


#: The two quantities named AWRF (the public ``convention``, the registry's
#: ``variant``: ``convention`` is the pipeline's switch of peer conventions).
AWRF_CONVENTIONS = ("trec2022", "fairranktune")

#: The measures of expected exposure (Diaz et al. 2020).
EE_MEASURES = ("loss", "disparity", "relevance")


def check_distance(value):
    """AWRF's ``distance``: None (the convention's), ``"js"`` or one of
    FairRankTune's combinations (checked against the convention by the
    kernel)."""
    if value is None:
        return None
    return check_option(value, "distance", ("js", *FAIRRANKTUNE_DISTANCES))


K_OPTIONAL = ("k", None, check_k)
K_REQUIRED = ("k", 10, lambda k: check_k(k, allow_none=False))
GAIN = ("gain", "linear", check_gain)
#: The relevance threshold of the binary ranking metrics, declared once: the
#: pipeline ranks ``y_true >= rel`` as the relevance (binary metrics read
#: only ``y_true > 0``, so this is the same number as a kernel that compares
#: each grade with ``rel``); kernels never see it (:meth:`MetricSpec.partials`).
REL = ("rel", None, check_rel)
RECALL_LEVELS = ("exact", "trec_eval_9", "trec_eval_10")


K_LIST = ("k", None, lambda k: check_k(k, allow_none=False))


# -- diversity (grades per intent) -------------------------------------------
#: ``beta``: NRBP's patience, in (0, 1).
check_beta = declared("beta", Interval(Real, 0, 1, "neither"), convert=float,
                      text="a number in (0, 1)")
#: ``gamma``: D#-nDCG's weight of intent recall, in [0, 1].
check_gamma = declared("gamma", Interval(Real, 0, 1, "both"), convert=float,
                       text="a number in [0, 1]")
NORMALIZATIONS = ("exact", "greedy", "ideal-ideal", "none")
#: ``alpha``: the redundancy intolerance of alpha-nDCG, ERR-IA and NRBP, in
#: [0, 1] (the one check of ``alpha``, F-alpha's too).
ALPHA = ("alpha", 0.5, check_alpha)
#: The normaliser of a diversity metric (a convention switch: ndeval's is
#: "greedy").
NORMALIZATION = ("normalization", "exact", choice("normalization", NORMALIZATIONS))
#: Grades per intent as gains ("graded") or as 0/1 ("binary": ndeval's).
GRADES = ("grades", "graded", choice("grades", ("graded", "binary")))

#: The cutoff of an intent-aware base metric that is the call's ``k``.
CALL_K = "k"
#: The metrics ``intent_aware_score(metric=...)`` averages over intents.
INTENT_AWARE_BASES = ("precision", "recall", "map", "ndcg", "err", "mrr",
                      "success", "rbp")


def intent_metric_check(table):
    """The check of ``intent_aware_score``'s ``metric``: a registry name
    (``"map"``, ``"precision@10"``) of :data:`INTENT_AWARE_BASES` -> ``(name,
    kernel, options)`` (the base metric's checked kernel options, a tuple);
    ``table()`` gives the registry's metrics (read at call time: the
    registry declares this option)."""

    def check(value):
        if isinstance(value, tuple) and len(value) == 3:
            return value  # checked already
        base, at, cut = (value.partition("@") if isinstance(value, str)
                         else ("", "", ""))
        spec = table().get(base)
        if spec is None or base not in INTENT_AWARE_BASES or (at and not (
                spec.has_k and cut.isdigit() and cut == str(int(cut))
                and int(cut) > 0)):
            raise InvalidParameterError(
                "metric", f"must be the name of one of "
                f"{', '.join(INTENT_AWARE_BASES)}, with a cutoff '@K' where it "
                f"takes one (e.g. 'precision@10', 'map', 'ndcg@20'), got "
                f"{value!r}.")
        # a metric that needs a cutoff and has none in the name takes k's
        # (the kernel's); its options are checked with the cutoff 1 here
        named = {"k": int(cut)} if at else (
            {"k": 1} if spec.has_k and spec.k_default is not None else {})
        options = spec.check_options(**named)
        if not at and "k" in named:
            options["k"] = CALL_K  # the call's k
        return (value, spec.kernel, tuple(spec.kernel_options(options).items()))

    return check
