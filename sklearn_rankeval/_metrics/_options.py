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
    check_k,
    check_option,
    declared,
)
from ._beyond_kernels import check_head_share
from ._conventions import check_gain
from ._exposure_kernels import FAIRRANKTUNE_DISTANCES

__all__ = [
    "K_LIST",
    "K_OPTIONAL",
    "K_REQUIRED",
    "GAIN",
    "REL",
    "RECALL_LEVELS",
    "check_edges",
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
    """``target``: None, or the target shares as a tuple of numbers >= 0
    with a positive sum (built by the public function from a mapping)."""
    if value is None:
        return None
    try:
        shares = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            "target", f"must map each item group to its target share, got "
            f"{value!r}.") from None
    if not shares or any(not math.isfinite(v) or v < 0 for v in shares) \
            or sum(shares) <= 0:
        raise InvalidParameterError(
            "target", "must give finite shares >= 0 with a positive sum.")
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
