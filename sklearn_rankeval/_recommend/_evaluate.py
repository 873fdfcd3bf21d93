"""The pipeline of a recommendation report: inputs -> partials -> values.

:func:`chunk_partials` takes the encoded inputs of whole users
(:class:`~._inputs.Inputs`: every user of the call in memory, or the users
of one Spark partition) and the :class:`~._plan.Plan`, and returns
:class:`ReportPartials`:

- for each set of users a metric averages, a :class:`UserTable`: the users,
  their :class:`~sklearn_rankeval._stats.GroupInfo` and, per metric, their
  per-user :class:`~sklearn_rankeval._stats.Partials`.  The accuracy metrics
  come from the ``_metrics`` pipeline (``evaluate``) on the long layout the
  lists define: one row per recommended item (minus its rank, or its
  score) with its held-out gain (0 if absent), and one row scored ``-inf``
  per held-out item the list misses; the per-user beyond-accuracy metrics
  are their registry ``finalize`` of the lists' statistics;
- for each (set of users, K) the per-item sums of the top-K lists (the
  catalog metrics: coverage, Gini, entropy).

Users are in one chunk each, so the tables of several chunks concatenate and
their per-item sums add (:func:`merge`).  :func:`finalize` turns the merged
partials into the values: each per-user metric averaged by the statistics
contract of ``_stats`` (and bootstrapped over the users of its set, all the
metrics of a set on the same resamples), each catalog metric by its registry
``finalize``.
"""

import math
from dataclasses import replace
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._core import warn
from .._metrics import (
    BeyondPartials,
    evaluate,
    list_partials,
    parse_metrics,
)
from .._stats import (
    GroupInfo,
    Partials,
    average_terms,
    bootstrap_values,
    percentile_interval,
    summed,
)
from ._lists import list_membership, long_scores, row_rank

__all__ = ["ReportPartials", "UserTable", "chunk_partials", "finalize", "merge",
           "user_sets"]


class UserTable(NamedTuple):
    """The users of one set (sorted by id) and their per-user partials.

    ``codes``: the users' codes in their chunk (None after :func:`merge`);
    ``labels``: their ids; ``info``: their ``GroupInfo``; ``values``:
    ``{metric label: (Partials, spec)}``, the spec as the averages read it
    (a convention may change its default average).
    """

    codes: object
    labels: np.ndarray
    info: object
    values: dict

    @property
    def n_users(self):
        return self.labels.shape[0]


class ReportPartials(NamedTuple):
    """What :func:`chunk_partials` returns and :func:`merge` adds up.

    ``tables``: ``{users: UserTable}``; ``items``: ``{(users, K): (3,
    n_items) array}``, the per-item sums ``item_count``, ``item_sure`` and
    ``item_log_miss`` over the items coded by ``item_labels`` (the codes past
    its length are catalog items absent from the inputs).
    """

    tables: dict
    items: dict
    item_labels: np.ndarray


def user_sets(inp):
    """``{users: mask}``: the users each set of users holds."""
    has_list = np.bincount(inp.rec_user, minlength=inp.n_users) > 0
    has_held = np.bincount(inp.held_user, minlength=inp.n_users) > 0
    return {"held_out": has_held, "recommended": has_list,
            "union": has_list | has_held, "both": has_list & has_held}


def _ones_info(codes):
    n = codes.shape[0]
    zeros, ones = np.zeros(n, dtype=np.int64), np.ones(n)
    return GroupInfo(codes, zeros, zeros, ones, ones, ones)


def _accuracy(plan, metrics, inp, keep_r, keep_h, evaluated, y_score_r):
    """``(info, {label: (Partials, spec)})`` of the accuracy ``metrics``
    over the ``evaluated`` users: the ``_metrics`` pipeline on the long
    layout, once per ranking convention."""
    ru, hu = inp.rec_user, inp.held_user
    missed = keep_h & ~inp.in_list
    y_score = np.concatenate([_kept(y_score_r, keep_r),
                              np.full(int(missed.sum()), -np.inf)])
    if inp.checked is not None:
        # the rows of the lists' checked input (its list rows, then its
        # held-out rows no list holds) that these users keep, with the
        # ranking's scores: checked once, at the lists' door
        rows = np.concatenate([np.ones(ru.shape[0], dtype=bool)
                               if keep_r is None else keep_r,
                               missed[~inp.in_list]])
        checked = replace(inp.checked.take(rows), y_score=y_score)
        y_true = groups = None
    else:
        checked = None
        r_gain = np.zeros(ru.shape[0])
        hit = inp.held_row >= 0
        r_gain[hit] = inp.held_gain[inp.held_row[hit]]
        y_true = np.concatenate([_kept(r_gain, keep_r), inp.held_gain[missed]])
        groups = np.concatenate([_kept(ru, keep_r), hu[missed]])
    # users with a list and no held-out item: the value the metric's formula
    # gives them (P@k: 0), where it gives one (this library's rules only)
    lone = np.zeros(inp.n_users, dtype=bool)
    if plan.peer is None and any(m.spec.empty_value is not None for m in metrics):
        lone = evaluated & ~(np.bincount(hu, minlength=inp.n_users) > 0)
    info, out = None, {}
    by_ranking = {}
    for m in metrics:
        by_ranking.setdefault(m.ranking, []).append(m)
    for ranking, group in by_ranking.items():
        parsed = parse_metrics([m.compute for m in group])
        ranked_info, parts, resolved = evaluate(
            y_true, y_score, groups=groups, metrics=parsed, convention=ranking,
            checked=checked)
        if info is None:
            info = ranked_info
        specs = {name: spec for name, spec, _ in resolved}
        for m in group:
            p = parts[m.compute]
            if m.scale != 1.0:
                p = p._replace(value=p.value * m.scale,
                               stats=None if p.stats is None else p.stats * m.scale)
            empty = m.spec.empty_value
            if plan.peer is None and empty is not None and lone.any():
                at = lone[ranked_info.labels]
                p = p._replace(value=np.where(at, empty, p.value),
                               defined=p.defined | at)
            out[m.label] = (p, specs[m.compute])
    return info, out


def _shared_accuracy(plan, inp, sets, rank):
    """``(info, {label: (Partials, spec)})`` of every accuracy metric of the
    plan over the union of their user sets, in one pass: a user's value
    depends on its own rows only, so each set's table is a selection of
    these users (:func:`_of_users`), not another pass.  None without one."""
    accuracy = [m for m in plan.metrics if not m.on_lists]
    if not accuracy:
        return None
    evaluated = np.zeros(inp.n_users, dtype=bool)
    for users in {m.users for m in accuracy}:
        evaluated |= sets[users]
    if not evaluated.any():
        return None
    keep_r = evaluated[inp.rec_user]
    keep_r = None if keep_r.all() else keep_r
    return _accuracy(plan, accuracy, inp, keep_r, evaluated[inp.held_user],
                     evaluated, long_scores(inp.rec_user, inp.rec_score, rank))


def _of_users(shared, codes, metrics):
    """The users ``codes`` (sorted user codes) of :func:`_shared_accuracy`'s
    result, for ``metrics``."""
    info, values = shared
    at = np.searchsorted(info.labels, codes)
    return info.take(at), {m.label: (values[m.label][0].take(at), values[m.label][1])
                           for m in metrics}


def _kept(x, keep):
    """``x[keep]``, without a copy when every row is kept."""
    return x if keep is None else x[keep]


def chunk_partials(plan, inp, popularity=None, features=None, tail=None):
    """The :class:`ReportPartials` of the whole users of ``inp``.

    ``popularity``: the training :class:`~sklearn_rankeval._metrics.Popularity`
    over ``inp``'s item codes (the metrics that need ``train``);
    ``features``: the ``(n_items, d)`` item features (``ild@K``); ``tail``:
    the long-tail items over ``inp``'s item codes where ``popularity`` holds
    a part of the catalog only (a partition's items).
    """
    sets = user_sets(inp)
    ru, ri = inp.rec_user, inp.rec_item
    rank = inp.rec_rank
    if inp.rec_score is None and rank is None:  # columns without a score
        rank = row_rank(ru)
    tables, items = {}, {}
    shared = _shared_accuracy(plan, inp, sets, rank)
    for users in plan.user_sets:
        evaluated = sets[users]
        codes = np.flatnonzero(evaluated)
        index = np.cumsum(evaluated) - 1  # code -> place among the set's users
        metrics = [m for m in plan.metrics if m.users == users]
        keep_r = evaluated[ru]
        keep_r = None if keep_r.all() else keep_r  # (the usual case)
        info, values = None, {}
        accuracy = [m for m in metrics if not m.on_lists]
        if accuracy and codes.shape[0]:
            info, values = _of_users(shared, codes, accuracy)
        su, si = _kept(ru, keep_r), _kept(ri, keep_r)
        score = None if inp.rec_score is None else _kept(inp.rec_score, keep_r)
        srank = None if rank is None else _kept(rank, keep_r)
        for k in sorted({m.options["k"] for m in metrics if m.on_lists}):
            at_k = [m for m in metrics if m.on_lists and m.options["k"] == k]
            needs = {need for m in at_k for need in m.spec.needs_of(m.options)}
            head = next((m.options["head_share"] for m in at_k
                         if "head_share" in m.options), 0.8)
            parts = list_partials(
                su, si, list_membership(su, score, srank, k), n_items=inp.n_items,
                popularity=popularity if "train" in needs else None,
                item_features=features if "item_features" in needs else None,
                head_share=head, tail=tail)
            items[(users, k)] = np.stack([parts.item_count, parts.item_sure,
                                          parts.item_log_miss])
            for m in at_k:
                if m.per_user:
                    p = m.spec.finalize(parts, m.label, m.options, popularity)
                    value = np.full(codes.shape[0], np.nan)
                    defined = np.zeros(codes.shape[0], dtype=bool)
                    value[index[parts.user]] = p.value
                    defined[index[parts.user]] = p.defined
                    values[m.label] = (Partials(value, defined), m.spec)
        if info is None:
            info = _ones_info(codes)
        for m in metrics:  # a chunk without any user of the set
            if m.per_user and m.label not in values:
                values[m.label] = (Partials(np.zeros(0), np.zeros(0, dtype=bool)),
                                   m.spec)
        tables[users] = UserTable(codes, inp.user_labels[codes], info, values)
    return ReportPartials(tables, items, inp.item_labels)


def merge(pieces, n_items, item_labels):
    """The :class:`ReportPartials` of several chunks of users, as one.

    The users of every table are sorted by id (the order of one chunk of all
    the users); the per-item sums are added over the items of
    ``item_labels`` (sorted; every chunk's item labels are among them; the
    catalog has ``n_items`` items).
    """
    pieces = list(pieces)
    tables = {}
    for users in pieces[0].tables:
        parts = [p.tables[users] for p in pieces
                 if p.tables[users].n_users] or [pieces[0].tables[users]]
        labels = np.concatenate([t.labels for t in parts])
        order = np.argsort(labels, kind="stable")
        info = GroupInfo(*(np.concatenate(col)[order]
                           for col in zip(*(t.info for t in parts))))
        info = info._replace(labels=np.arange(labels.shape[0]))
        values = {}
        for name, (_, spec) in parts[0].values.items():
            values[name] = (Partials.concatenate(
                [t.values[name][0] for t in parts]).take(order), spec)
        tables[users] = UserTable(None, labels[order], info, values)
    items = {}
    for key in pieces[0].items:
        total = np.zeros((3, n_items))
        for p in pieces:
            sums = p.items[key]
            n = p.item_labels.shape[0]
            codes = np.searchsorted(item_labels, p.item_labels)
            np.add.at(total, (slice(None), codes), sums[:, :n])
        items[key] = total
    return ReportPartials(tables, items, item_labels)


def _mean(p, info, spec, label):
    """The average of a per-user metric, NaN with a warning where no user of
    the set defines it."""
    if spec.input == "rows":
        return spec.aggregate(p, info, average=spec.default_average)
    avg = average_terms(p, info, spec, average="macro")
    sums, n = summed(avg)
    if n == 0:
        warn(f"{label} is undefined: no evaluated user has a list it applies "
             "to; returning nan.", UndefinedMetricWarning)
        return math.nan
    return float(avg.finalize(sums))


def finalize(plan, partials, popularity=None):
    """``{label: value}`` (with ``plan.confidence``: ``{"value", "ci_low",
    "ci_high"}`` for the per-user metrics) of merged partials, and the number
    of users each metric averages ``{label: n}``."""
    values, n_users = {}, {}
    rng = plan.random_state
    for users, table in partials.tables.items():
        metrics = [m for m in plan.metrics if m.users == users]
        per_user = [m for m in metrics if m.per_user]
        for m in metrics:
            n_users[m.label] = table.n_users
        if table.n_users == 0 and plan.peer is not None:
            for m in metrics:
                if not m.on_lists:  # no user to average: the peer's value
                    values[m.label] = plan.peer.no_users
        for m in per_user:
            if m.label not in values:
                p, spec = table.values[m.label]
                values[m.label] = _mean(p, table.info, spec, m.label)
        if plan.confidence is not None and per_user and table.n_users:
            averages = [average_terms(table.values[m.label][0], table.info,
                                      table.values[m.label][1],
                                      average=table.values[m.label][1]
                                      .default_average) for m in per_user]
            dist = bootstrap_values(averages, plan.n_resamples, rng)
            low, high = percentile_interval(dist.reshape(plan.n_resamples, -1),
                                            plan.confidence)
            for m, lo, hi in zip(per_user, np.atleast_1d(low), np.atleast_1d(high)):
                values[m.label] = {"value": values[m.label], "ci_low": float(lo),
                                   "ci_high": float(hi)}
        for m in metrics:
            if m.on_lists and not m.per_user:
                count, sure, log_miss = partials.items[(users, m.options["k"])]
                parts = BeyondPartials(count, sure, log_miss,
                                       np.zeros(0, dtype=np.int64),
                                       np.zeros((5, 0)))
                values[m.label] = m.spec.finalize(parts, m.label, m.options,
                                                  popularity)
    return {m.label: values[m.label] for m in plan.metrics}, n_users
