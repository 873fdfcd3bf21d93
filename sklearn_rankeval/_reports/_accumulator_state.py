"""The state of a :class:`~sklearn_rankeval.RankingAccumulator`: the ids it has
seen, its window of updates, and the checks of the partials it exchanges
(:meth:`~sklearn_rankeval.RankingAccumulator.partials`, what the Spark and
Dask adapters send back)."""

import math
from numbers import Integral

import numpy as np

from .._engine import encode_groups
from .._metrics import (
    MetricTable,
    parse_metrics,
)
from .._stats import (
    GroupInfo,
    Partials,
    average_finalize,
    finalize_value,
)

__all__ = ["SeenIds", "check_metric_table", "check_partials", "check_window",
           "finalize_totals", "min_max", "table_inputs"]


def min_max(ids):
    """The smallest and the largest id (strings through hashing, no sort)."""
    if ids.dtype.kind in "biufMm":
        return ids.min(), ids.max()
    codes, decode = encode_groups(ids, ids.shape[0])
    lo, hi = decode(np.array([codes.min(), codes.max()]))
    return lo, hi


def check_metric_table(table):
    """``metric_table``: None (the registry's names) or a report's own
    :class:`~sklearn_rankeval._metrics.MetricTable`."""
    if table is not None and not isinstance(table, MetricTable):
        raise TypeError(f"metric_table must be None or a report's table of metric "
                        f"names, got {type(table).__name__}.")
    return table


def table_inputs(table):
    """The tables the one name reader reads for ``metric_table``."""
    return ("rows",) if table is None else (table,)


def check_partials(partials):
    """``(info, parts, metrics, convention, metric_table)`` of
    :meth:`RankingAccumulator.partials`'s output; a ValueError naming
    ``partials`` for anything else (a TypeError for a ``metric_table`` that
    is no table)."""
    keys = ("metrics", "convention", "group", "info", "partials")
    if not isinstance(partials, dict) or any(key not in partials for key in keys):
        got = (f"a dict with the keys {', '.join(map(str, partials))}"
               if isinstance(partials, dict) else type(partials).__name__)
        raise ValueError(
            f"partials must be the dict of RankingAccumulator.partials(), with "
            f"the keys {', '.join(keys)}; got {got}."
        )
    metrics, convention = partials["metrics"], partials["convention"]
    labels = np.asarray(partials["group"])
    n = labels.shape[0] if labels.ndim == 1 else -1

    def column(where, key, value):
        value = np.asarray(value)
        if value.shape[-1:] != (n,) or value.ndim != (2 if key == "stats" else 1):
            raise ValueError(
                f"partials: {where}[{key!r}] has shape {value.shape}; every "
                f"array must hold one entry per group ({n}).")
        return value

    info_fields = GroupInfo._fields[1:]
    if (not isinstance(partials["info"], dict)
            or set(partials["info"]) != set(info_fields)):
        raise ValueError(f"partials: 'info' must be a dict with the keys "
                         f"{', '.join(info_fields)}.")
    info = GroupInfo(labels, *(column("info", f, partials["info"][f])
                               for f in info_fields))
    # partials of an earlier version hold no table: the registry's names
    table = check_metric_table(partials.get("metric_table"))
    parsed = parse_metrics(metrics, argument="partials", inputs=table_inputs(table))
    names = [name for name, _, _ in parsed]
    given = partials["partials"]
    if not isinstance(given, dict) or set(given) != set(names):
        raise ValueError("partials: 'partials' must hold one dict per metric of "
                         "'metrics'.")
    parts = {}
    for name, spec, _ in parsed:
        fields = given[name]
        # a pooled ("micro") average sums each group's statistics
        wanted = {"value", "defined", *(("stats",) if "micro" in spec.averages
                                        else ())}
        if not isinstance(fields, dict) or set(fields) != wanted:
            raise ValueError(
                f"partials: the partial results of {name!r} are not of the form "
                f"RankingAccumulator.partials() gives (made by another version?).")
        parts[name] = Partials(**{f: column(name, f, v) for f, v in fields.items()})
    return info, parts, names, convention, table


def check_window(window, group_rows):
    if window is None:
        return None
    if isinstance(window, (bool, np.bool_)) or not isinstance(window, Integral) \
            or window < 1:
        raise ValueError(f"window must be None or a number of updates >= 1, got "
                         f"{window!r}.")
    if group_rows != "complete":
        raise ValueError(
            f"window= needs group_rows='complete' (every update holds whole "
            f"groups, so that the last updates' groups are complete); got "
            f"group_rows={group_rows!r}.")
    return int(window)


def finalize_totals(totals, spec):
    """The default average of a metric from per-batch ``(sums, n_counted)``:
    each statistic summed exactly (``math.fsum``) over the batches."""
    n_stats = totals[0][0].shape[0] if totals else 0
    sums = np.array([math.fsum(s[j] for s, _ in totals) for j in range(n_stats)])
    return finalize_value(sums, sum(n for _, n in totals), label=spec.label,
                          needs_negative=spec.needs_negative,
                          finalize=average_finalize(spec, spec.default_average),
                          reason=spec.pooled_undefined
                          if spec.default_average == "micro" else None)


class SeenIds:
    """The ids of the closed groups: sorted runs merged as they grow.

    A run is merged into the one before it while it is at least half as long,
    so there are O(log n_groups) runs and each id is copied O(log) times.
    """

    def __init__(self):
        self.runs = []

    def find_repeated(self, ids):
        """The first of the (sorted, unique) ``ids`` already seen, or None."""
        for run in self.runs:
            idx = np.minimum(np.searchsorted(run, ids), len(run) - 1)
            hit = np.flatnonzero(run[idx] == ids)
            if hit.size:
                return ids[hit[0]]
        return None

    def add(self, ids):
        self.runs.append(np.asarray(ids))
        while len(self.runs) > 1 and 2 * len(self.runs[-1]) >= len(self.runs[-2]):
            last = self.runs.pop()
            self.runs[-1] = np.sort(np.concatenate([self.runs[-1], last]))

    @property
    def empty(self):
        return not self.runs
