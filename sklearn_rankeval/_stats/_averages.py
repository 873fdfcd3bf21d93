"""The statistics contract, and the one rule of every average over groups.

A kernel returns, for every group, its :class:`Partials`: the group's value,
whether it is defined, and the additive statistics of the metric's pooled
(``"micro"``) average, a ``(n_stats, n_groups)`` array (for P@k the hits and
``k``; for the normalized entropy ``sum w*CE``, the positive and the negative
weight; for the ECE each bin's weight, predicted and observed sums).  Each
metric declares ``finalize(summed statistics) -> value`` (by default the
ratio of its two statistics).

Every average of every metric is then one thing, :func:`average_terms`:
per-group statistics ``S`` (``(n_stats, n_groups)``, zero where a group does
not count) and a ``finalize``, with the average equal to
``finalize(S.sum(axis=1))``:

- ``"micro"``: the metric's own statistics (times the query weight) and its
  own ``finalize``;
- ``"macro"`` / ``"weighted"``: ``(w * value, w)`` and their ratio, ``w`` the
  group's weight in the average;
- ``"gmean"``: ``(w * log(max(value, 1e-5)), w)`` and ``exp`` of the ratio
  (trec_eval's ``gm_map``).

Sums of statistics of disjoint groups add up, so the same function serves the
metric functions (:func:`aggregate`), segments (the sums over a segment's
groups), the bootstrap (``finalize(S @ C.T)`` for resample counts ``C``), the
paired tests of ``compare_rankings``, the accumulator (running sums, per
update or over a window of updates) and the Spark/Dask engines (partials of
each partition).  ``finalize`` takes sums whose first axis is the statistic
and returns one value per trailing index.
"""

import math
from typing import Callable, NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import (
    astype,
    check_undefined,
    concat,
    flatnonzero,
    full,
    namespace_of,
    to_numpy,
    warn,
)

__all__ = [
    "MIN_GEO_MEAN",
    "Average",
    "AverageRule",
    "GroupInfo",
    "Partials",
    "aggregate",
    "apply_undefined",
    "undefined_reason",
    "warn_undefined",
    "average_finalize",
    "average_terms",
    "finalize_value",
    "ratio_of_sums",
]

#: Floor of the values in ``average="gmean"`` (trec_eval's MIN_GEO_MEAN).
MIN_GEO_MEAN = 1e-5


def _f(xp, x):
    return astype(xp, x, xp.float64)


def _i(xp, x):
    return astype(xp, x, xp.int64)


class Partials(NamedTuple):
    """One metric's per-group result, in the order of the groups.

    ``value`` is meaningful where ``defined``; ``stats`` (metrics with a
    ``"micro"`` average, else None) is the ``(n_stats, n_groups)`` array of
    the group's additive statistics, before the query weight.  The arrays are
    in the namespace of the ranked input (NumPy, or the input's Array API
    library).
    """

    value: np.ndarray
    defined: np.ndarray
    stats: object = None

    def take(self, index):
        """The partials of a subset (or reordering) of the groups."""
        stats = self.stats
        if stats is not None:
            xp = namespace_of(stats)
            stats = (stats[:, index] if xp is np
                     else xp.take(stats, index, axis=1))
        return Partials(self.value[index], self.defined[index], stats)

    @staticmethod
    def concatenate(parts):
        parts = list(parts)
        xp = namespace_of(parts[0].value)
        pooled = parts[0].stats is not None
        return Partials(
            concat(xp, [p.value for p in parts]),
            concat(xp, [p.defined for p in parts]),
            (xp.concat([p.stats for p in parts], axis=1) if xp is not np
             else np.concatenate([p.stats for p in parts], axis=1))
            if pooled else None,
        )

    def to_numpy(self):
        """The partials as NumPy arrays (per-group, host-side output)."""
        return Partials(*(None if a is None else to_numpy(a) for a in self))


class GroupInfo(NamedTuple):
    """What the aggregation needs to know of each group besides a metric.

    ``weight`` is the group's total sample weight (its size if unweighted),
    ``query_weight`` its query weight (the weight of its first row; ones if
    unweighted) and ``item_macro_weight`` the weight of the group in the
    ``"macro"`` average of an item-weighted metric (ones in the long layout,
    where item weights act inside the group; the query weight in the 2-D and
    multiclass layouts, where a weight is one query's).
    """

    labels: np.ndarray
    n_items: np.ndarray
    n_relevant: np.ndarray
    weight: np.ndarray
    query_weight: np.ndarray
    item_macro_weight: np.ndarray

    @classmethod
    def from_ranked(cls, rg):
        xp = rg.xp
        ones = full(xp, rg.n_groups, 1.0, rg.device)
        qw = ones if rg.query_weight is None else _f(xp, rg.query_weight)
        return cls(
            labels=rg.labels,
            n_items=_i(xp, rg.group_size),
            n_relevant=_i(xp, rg.group_n_rel),
            weight=_f(xp, rg.group_weight),
            query_weight=qw,
            item_macro_weight=qw if rg.per_query_weights else ones,
        )

    def take(self, index):
        return GroupInfo(*(a[index] for a in self))

    @staticmethod
    def concatenate(parts):
        parts = list(parts)
        return GroupInfo(*(concat(namespace_of(cols[0]), list(cols))
                           for cols in zip(*parts)))

    def to_numpy(self):
        """The group info as NumPy arrays (per-group, host-side output)."""
        return GroupInfo(*(to_numpy(a) for a in self))


# ---------------------------------------------------------------------------
# finalizers: summed statistics (first axis) -> values
# ---------------------------------------------------------------------------
def ratio_of_sums(sums):
    """``sums[0] / sums[1]``, NaN where ``sums[1] == 0``."""
    num, den = sums[0], sums[1]
    if np.ndim(num) == 0 and not hasattr(num, "__array_namespace__"):
        num, den = float(num), float(den)
        return num / den if den != 0 else math.nan
    xp = namespace_of(num)
    ok = den != 0
    return xp.where(ok, num / xp.where(ok, den, xp.ones_like(den)),
                    xp.full_like(num, math.nan))


def _exp_ratio(sums):
    """``exp(sums[0] / sums[1])``: the geometric mean of weighted logs."""
    r = ratio_of_sums(sums)
    if isinstance(r, float):
        return math.exp(r)
    return namespace_of(r).exp(r)


class AverageRule(NamedTuple):
    """What an average needs to know of a metric (a
    :class:`~sklearn_rankeval._metrics._spec.MetricSpec` has these attributes
    too): for measures outside the registry, such as trec_eval's in the
    command line."""

    label: str
    query_weighted: bool = True
    needs_negative: bool = False
    finalize: object = None
    pools_undefined: bool = False


class Average(NamedTuple):
    """One average as statistics: ``finalize(stats.sum(axis=1))`` over groups.

    ``stats`` is ``(n_stats, n_groups)`` with zero columns where a group does
    not count; ``counted`` is the mask of the groups that count (the
    undefined ones are left out, except in a pooled average of a metric whose
    statistics pool every group's rows).
    """

    stats: object
    counted: object
    finalize: Callable


def apply_undefined(partials, labels, *, undefined, label, needs_negative=False):
    """The undefined-group policy: raise, skip or warn (keep the mask: the
    warning is the average's, :func:`warn_undefined`), or a value."""
    undefined = check_undefined(undefined)
    values, defined = partials.value, partials.defined
    xp = namespace_of(values)
    if isinstance(undefined, str):
        if undefined == "raise" and not bool(xp.all(defined)):
            n_bad = int(xp.sum(_i(xp, ~defined)))
            raise ValueError(
                f"{label} is undefined for {n_bad} group(s), e.g. group "
                f"{first_label(labels, ~defined)!r} (no relevant item"
                f"{', or a single class' if needs_negative else ''}). Pass "
                f"undefined='skip' to leave them out or a number to count them "
                f"with that value."
            )
        return partials
    values = xp.where(defined, values, xp.full_like(values, float(undefined)))
    return partials._replace(value=values, defined=xp.ones_like(defined))


def undefined_reason(needs_negative=False):
    """Why a group's value is undefined, in the messages' words."""
    return ("no relevant item, or a single class" if needs_negative
            else "no relevant item")


def warn_undefined(partials, *, label, needs_negative=False):
    """The ``undefined="warn"`` warning: how many of how many groups are
    undefined and left out, and why (silent when none is, or when all are:
    the average then warns that it is NaN)."""
    defined = partials.defined
    xp = namespace_of(defined)
    n = int(defined.shape[0])
    n_bad = n - int(xp.sum(_i(xp, defined)))
    if 0 < n_bad < n:
        warn(f"{label} is undefined for {n_bad} of {n} groups "
             f"({undefined_reason(needs_negative)}); they are left out. Pass "
             f"undefined='skip' to leave them out silently, or a number to "
             f"count them with that value.", UndefinedMetricWarning)
    return n_bad


def plain_label(label):
    """A group id as the user wrote it (no ``np.str_('a')`` in messages)."""
    if not isinstance(label, (np.ndarray, np.generic)) and hasattr(label, "shape"):
        label = to_numpy(label)[()]  # a 0-d array of another namespace
    return label.item() if isinstance(label, (np.generic, np.ndarray)) else label


def first_label(labels, mask):
    """The first label where ``mask`` is True (for messages)."""
    if isinstance(labels, np.ndarray):
        return plain_label(labels[mask][0])
    return plain_label(to_numpy(labels[mask][:1])[0])


def _stack(xp, rows):
    return np.stack(rows) if xp is np else xp.stack(rows)


def average_finalize(spec, average):
    """The ``finalize`` of ``spec``'s ``average`` (see :func:`average_terms`)."""
    if average == "micro":
        return spec.finalize or ratio_of_sums
    return _exp_ratio if average == "gmean" else ratio_of_sums


def average_terms(partials, info, spec, *, average, undefined="skip"):
    """The :class:`Average` of ``spec``'s ``partials`` under ``average``.

    ``undefined`` is applied first, as the metric functions do (``"raise"``
    raises, a number makes every group defined with that value).
    """
    p = apply_undefined(partials, info.labels, undefined=undefined,
                        label=spec.label, needs_negative=spec.needs_negative)
    xp = namespace_of(p.value)
    qw = info.query_weight if spec.query_weighted else info.item_macro_weight
    if average == "micro":
        counted = (xp.ones_like(p.defined) if spec.pools_undefined
                   else p.defined)
        stats = _f(xp, p.stats)
        if xp is np and bool(np.all(qw == 1)):
            # (x * 1 is x: one copy in the product's layout, no product)
            stats = stats.copy(order="K")
        else:
            stats = stats * qw
    elif average == "gmean":
        counted = p.defined
        logs = xp.log(xp.clip(xp.where(counted, p.value, xp.ones_like(p.value)),
                              MIN_GEO_MEAN, None))
        stats = _stack(xp, [qw * logs, qw])
    else:
        counted = p.defined
        w = info.weight if average == "weighted" else qw
        stats = _stack(xp, [w * xp.where(counted, p.value,
                                         xp.zeros_like(p.value)), w])
    if not (xp is np and bool(np.all(counted))):  # (else: nothing to zero)
        stats = xp.where(counted, stats, xp.zeros_like(stats))
    return Average(stats, counted, average_finalize(spec, average))


def finalize_value(sums, n_counted, *, label, needs_negative=False, finalize,
                   reason=None, weightless=False):
    """The average from summed statistics, or NaN with a warning.

    NaN and an ``UndefinedMetricWarning`` when no group counts, or when the
    groups that count give no value: ``reason`` says why (a pooled metric's
    own words, e.g. no click for the normalized entropy), else zero total
    weight; ``weightless``: every row's sample weight is 0 (said first, as
    the cause of whatever else).
    """
    if weightless:
        warn(f"{label} is undefined: sample_weight is 0 for every row (no group "
             f"has any weight); returning NaN.", UndefinedMetricWarning)
        return float("nan")
    if n_counted == 0:
        warn(
            f"{label} is undefined for every group (no group has a relevant item"
            f"{' and an irrelevant one' if needs_negative else ''}); returning NaN.",
            UndefinedMetricWarning,
        )
        return float("nan")
    value = float(finalize(sums))
    if math.isnan(value) and not np.isnan(sums).any():  # (not a NaN value)
        warn(
            f"{label} is undefined: {reason}; returning NaN." if reason else
            f"{label}: the groups that define it have zero total weight; "
            f"returning NaN.",
            UndefinedMetricWarning,
        )
    return value


def aggregate(partials, info, spec, *, average, undefined="skip"):
    """Partials of any set of groups -> the metric under ``average``.

    None returns the per-group values with NaN where undefined (in the
    partials' namespace); any other average is ``finalize`` of the summed
    statistics of :func:`average_terms`, summed over the groups that count
    (NumPy's pairwise summation, so the error does not grow with the number
    of groups).
    """
    if undefined == "warn":
        warn_undefined(partials, label=spec.label,
                       needs_negative=spec.needs_negative)
    if average is None:
        p = apply_undefined(partials, info.labels, undefined=undefined,
                            label=spec.label, needs_negative=spec.needs_negative)
        xp = namespace_of(p.value)
        if not bool(xp.any(p.defined)):
            finalize_value(None, 0, label=spec.label,
                           needs_negative=spec.needs_negative, finalize=None)
        return xp.where(p.defined, p.value, xp.full_like(p.value, math.nan))
    avg = average_terms(partials, info, spec, average=average, undefined=undefined)
    xp = namespace_of(info.weight)
    weightless = info.weight.shape[0] > 0 and not bool(xp.any(info.weight > 0))
    return finalize_value(*summed(avg), label=spec.label,
                          needs_negative=spec.needs_negative,
                          finalize=avg.finalize,
                          reason=getattr(spec, "pooled_undefined", None)
                          if average == "micro" else None,
                          weightless=weightless)


def summed(avg):
    """``(sums of the statistics over the counted groups as a NumPy vector,
    number of groups counted)`` of an :class:`Average`."""
    xp = namespace_of(avg.stats)
    counted = avg.counted
    n = int(xp.sum(_i(xp, counted)))
    # summed along the contiguous axis over the counted groups only: the
    # pairwise sums of the per-group terms, as a 1-D sum of each would be
    if xp is np and n == counted.shape[0] and avg.stats.flags.f_contiguous:
        # every group counts: the terms as they are (the layout the mask's
        # copy has, so that the sums have its bits), no copy
        kept = avg.stats
    elif xp is np:
        kept = avg.stats[:, counted]
    else:  # the standard masks an array only along all of its axes
        kept = xp.take(avg.stats, flatnonzero(xp, counted), axis=1)
    sums = xp.sum(kept, axis=1)
    return to_numpy(sums).astype(np.float64), n
