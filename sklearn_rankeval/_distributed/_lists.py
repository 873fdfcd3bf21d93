"""Top-N lists in an engine's partitions: the recommendation report's one
pipeline over partials.

The driver makes the report's plan (``_recommend``'s, the same checks and
messages as in memory) and, with training interactions, their popularity
per training item (:class:`TrainItems`, counted by the engine).  Each
partition holds whole users (a shuffle by user) and runs the in-memory
pipeline's readers and :func:`~sklearn_rankeval._recommend.chunk_partials`
on them (:func:`partition_columns`): one row of per-user partials per
evaluated user, one row of per-item sums per recommended item.  The driver
adds the item rows of the partitions, sorts the users by id and runs the
in-memory ``finalize`` and format (:func:`reduce_columns`), so that the
values are those of ``recommendation_report`` on the collected rows.
"""

import warnings
from typing import NamedTuple

import numpy as np

from .._core import check_positive_int
from .._metrics import Popularity, short_head
from .._recommend import (
    ReportPartials,
    UserTable,
    chunk_partials,
    finalize,
    format_report,
    make_plan,
    merge,
    read_inputs,
)
from .._stats import GroupInfo, Partials
from ._partials import metric_plan

__all__ = ["TrainItems", "list_layout", "list_plan", "partition_columns",
           "reduce_columns"]

#: The GroupInfo fields of a user row, after its id.
_INFO = GroupInfo._fields[1:]


class TrainItems(NamedTuple):
    """The training popularity, per training item id (sorted): ``labels``,
    ``interactions`` (rows), ``users`` (distinct users), ``n_users`` (distinct
    training users) and ``tail`` (the long-tail mask of the whole training
    set, ``head_share`` of the report)."""

    labels: np.ndarray
    interactions: np.ndarray
    users: np.ndarray
    n_users: int
    tail: np.ndarray

    @classmethod
    def of(cls, labels, interactions, users, n_users, plan):
        labels = np.asarray(labels)
        order = np.argsort(labels, kind="stable")
        interactions = np.asarray(interactions, dtype=np.int64)[order]
        head = plan.head_share
        tail = (np.ones(labels.shape[0], dtype=bool) if head is None
                else ~short_head(interactions, head))
        return cls(labels[order], interactions,
                   np.asarray(users, dtype=np.int64)[order], int(n_users), tail)

    def lookup(self, item_labels):
        """:class:`Popularity` and tail mask over ``item_labels`` (0 for an
        item without training interactions: in the tail)."""
        n = item_labels.shape[0]
        inter, users = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        tail = np.ones(n, dtype=bool)
        if self.labels.shape[0] and n:
            pos = np.minimum(np.searchsorted(self.labels, item_labels),
                             self.labels.shape[0] - 1)
            hit = self.labels[pos] == item_labels
            inter[hit] = self.interactions[pos[hit]]
            users[hit] = self.users[pos[hit]]
            tail[hit] = self.tail[pos[hit]]
        return Popularity(inter, users, self.n_users), tail


class ListLayout(NamedTuple):
    """The flat columns of the partials: ``user`` (``info`` then, per
    per-user metric, its value, defined flag and statistics) and ``item``
    (per cutoff, ``count``, ``sure``, ``log_miss``)."""

    user_columns: list
    item_columns: list
    stats: dict

    @property
    def width(self):
        return max(len(self.user_columns), len(self.item_columns), 1)


def list_plan(metrics, *, k, users, output, train, head_share=None):
    """The report's plan (checked as in memory) and its :class:`ListLayout`.

    ``train``: whether training interactions are given.  ``ild@K`` is
    refused: it needs the item features on every worker.
    """
    plan = make_plan(metrics, k=k, users=users, output=output,
                     head_share=head_share, outputs=("text", "dict", "frame"))
    if plan.needs("item_features"):
        raise ValueError("ild@K is not computed by sklearn_rankeval.spark."
                         "recommendation_report (it needs item features on every "
                         "worker); use sklearn_rankeval.recommendation_report.")
    plan.check_needs(train=train, item_features=False)
    return plan, list_layout(plan)


def list_layout(plan):
    accuracy = [m.compute for m in plan.metrics if not m.on_lists]
    _, pooled = metric_plan(accuracy, "__user") if accuracy else ((), {})
    user_cols, stats = list(_INFO), {}
    for j, m in enumerate(m for m in plan.metrics if m.per_user):
        stats[m.label] = pooled.get(m.compute, 0) if not m.on_lists else 0
        user_cols += [f"m{j}_value", f"m{j}_defined"]
        user_cols += [f"m{j}_s{s}" for s in range(stats[m.label])]
    cutoffs = sorted({m.options["k"] for m in plan.metrics
                      if m.on_lists and not m.per_user})
    item_cols = [f"k{kk}_{f}" for kk in cutoffs for f in ("count", "sure", "log_miss")]
    return ListLayout(user_cols, item_cols, stats)


def partition_columns(plan, layout, rec, held, *, user, item, score, relevance,
                      train_items=None):
    """One partition's partials as flat columns.

    ``rec`` / ``held``: ``{column: array}`` of the partition's lists and
    held-out rows (whole users; ``score`` / ``relevance`` None without
    such a column).  Returns ``(user ids, item ids, values)``: ``values`` is
    ``(n_users + n_items, layout.width)``, user rows first.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the id-overlap warning: the driver's
        inp = read_inputs(rec, held, None, user=user, item=item, score=score,
                          relevance=relevance, n_items=None)
    popularity = tail = None
    if train_items is not None:
        popularity, tail = train_items.lookup(inp.item_labels)
    parts = chunk_partials(plan, inp, popularity, None, tail=tail)
    ((users_set, table),) = parts.tables.items()
    n_u, n_i = table.n_users, inp.item_labels.shape[0]
    out = np.full((n_u + n_i, layout.width), np.nan)
    col = 0
    for field in _INFO:
        out[:n_u, col] = getattr(table.info, field)
        col += 1
    for m in plan.metrics:
        if not m.per_user:
            continue
        p, _ = table.values[m.label]
        out[:n_u, col] = p.value
        out[:n_u, col + 1] = p.defined
        for s in range(layout.stats[m.label]):
            out[:n_u, col + 2 + s] = p.stats[s]
        col += 2 + layout.stats[m.label]
    col = 0
    for key in sorted({k for _, k in parts.items}):
        out[n_u:, col:col + 3] = parts.items[(users_set, key)][:, :n_i].T
        col += 3
    return table.labels, inp.item_labels, out


def reduce_columns(plan, layout, users, user_values, items, item_values, *,
                   n_items=None, train_items=None):
    """The report of the collected partials: ``users`` / ``user_values``
    (one row per evaluated user), ``items`` / ``item_values`` (one row per
    item, summed over the partitions).  ``n_items``: the catalog size (None:
    the items counted, with the training items)."""
    (users_set,) = plan.user_sets
    users = np.asarray(users)
    info = GroupInfo(np.arange(users.shape[0]),
                     *(user_values[:, j].astype(np.int64) if j < 2
                       else user_values[:, j] for j in range(len(_INFO))))
    values, col = {}, len(_INFO)
    for m in plan.metrics:
        if not m.per_user:
            continue
        n_stats = layout.stats[m.label]
        stats = user_values[:, col + 2:col + 2 + n_stats].T if n_stats else None
        values[m.label] = (Partials(user_values[:, col],
                                    user_values[:, col + 1] > 0, stats), m.spec)
        col += 2 + n_stats
    table = UserTable(None, users, info, values)
    labels = np.asarray(items)
    if train_items is not None:
        labels = np.concatenate([labels, train_items.labels])
    catalog = np.unique(labels) if labels.shape[0] else labels
    counted = max(catalog.shape[0], 1)
    if n_items is None:
        n_items = counted
    else:
        n_items = check_positive_int(n_items, "n_items", allow_none=False)
        if n_items < catalog.shape[0]:
            raise ValueError(f"n_items={n_items} is smaller than the "
                             f"{catalog.shape[0]} items of df_rec, df_held and "
                             "train.")
    sums = {}
    codes = np.searchsorted(catalog, np.asarray(items))
    cutoffs = sorted({m.options["k"] for m in plan.metrics
                      if m.on_lists and not m.per_user})
    for j, kk in enumerate(cutoffs):
        total = np.zeros((3, n_items))
        total[:, codes] = item_values[:, 3 * j:3 * j + 3].T
        sums[(users_set, kk)] = total
    parts = merge([ReportPartials({users_set: table}, sums, catalog)], n_items,
                  catalog)
    popularity = None
    if train_items is not None:
        popularity, _ = train_items.lookup(catalog)
        pad = n_items - catalog.shape[0]
        popularity = Popularity(np.pad(popularity.interactions, (0, pad)),
                                np.pad(popularity.users, (0, pad)),
                                popularity.n_users)
    result, n_users_of = finalize(plan, parts, popularity)
    return format_report(result, plan.output, n_items, table.n_users, n_users_of)
