"""``RankingAccumulator``: the metrics of data seen in batches.

Every metric's per-group partials (value, defined, numerator/denominator)
depend only on the group's own rows, so the partials of batches holding whole
groups concatenate, and one aggregation at the end gives exactly what one
call on all the rows gives.  Groups cut by a batch boundary are completed
first: in ``"sorted"`` mode only the open (last) group is held back, in
``"any"`` mode every row is held until the end.
"""

import collections

import numpy as np

from .._core import (
    check_negative_sampling_rate,
    check_option,
    is_foreign_array,
    reject_host_options,
)
from .._metrics import (
    check_convention,
    evaluate,
    fill_doc,
    parse_metrics,
    resolved_metrics,
)
from .._stats import (
    GroupInfo,
    Partials,
    average_terms,
    plain_label,
    summed,
)
from ._accumulator_state import (
    SeenIds,
    check_metric_table,
    check_partials,
    check_window,
    finalize_totals,
    min_max,
    table_inputs,
)
from ._batches import (
    BATCHES,
    LONG,
    QUERIES,
    batch_layout,
    batch_rows,
    concat_rows,
    on_host,
    row_columns,
    take_rows,
)
from ._format import frame_columns, make_frame
from ._report import metric_summaries

__all__ = ["RankingAccumulator"]

GROUP_ROWS = ("complete", "sorted", "any")


@fill_doc
class RankingAccumulator:
    """Ranking metrics of data that arrive in batches, with bounded memory.

    ``update`` with each batch (rows of a training loop, Parquet row groups,
    chunks of a CSV file), ``merge`` accumulators built on disjoint rows
    (workers, partitions), then ``result()`` gives what
    :func:`ranking_report` gives on all the rows (``output="dict"``) and
    ``per_group()`` what :func:`per_group_scores` gives, to 1e-12, however
    the rows were cut.

    Read more in the :ref:`User Guide <per_group>`.

    Parameters
    ----------
    metrics : list of str, default=None
        Metric names, as the scorer names; None: :func:`ranking_report`'s
        default metrics.
    group_rows : {'complete', 'sorted', 'any'}, default='complete'
        How a group's rows may be spread over batches.

        - ``'complete'``: every batch holds whole groups (a group id seen in
          two batches is a ``ValueError`` naming it).  The state is O(number
          of groups): each batch is ranked and reduced to per-group partials.
        - ``'sorted'``: rows arrive ordered by group id across batches (a file
          sorted by user): a group may span batches, and only the open group
          (the largest id so far) is held back.  An id smaller than one seen
          in an earlier batch is a ``ValueError``.  State O(number of groups).
        - ``'any'``: groups may span batches in any order; every row is held
          until ``result()`` (state O(number of rows)).

        2-D and multiclass batches hold one complete query per row in every
        mode; a query's id is its row number counted over all batches.
    keep_groups : bool, default=True
        Keep every group's partial results, for ``per_group()``.  False keeps
        only the sums of each metric's average (a few numbers per batch), for
        logs with too many groups to hold; ``result()`` then adds the batches'
        sums with exact (``math.fsum``) summation, and ``per_group()`` is not
        available.
    %(convention_header)s
        Every metric as that library computes it, as in
        :func:`ranking_report` (see :ref:`conventions-presets`).  Each group
        is evaluated with all its rows, so a rule that orders tied items as
        the input does (``ties="input"``) sees them in the order they were
        fed (batch after batch; ``self`` before ``other`` in ``merge``).  A
        metric the library does not have, or a rule that needs ``docno=``
        (trec_eval's ties), is a ``ValueError`` here.
    window : int, default=None
        Also keep the last ``window`` updates apart (torchrec's lifetime and
        window metrics): ``result(scope="window")`` is the report of their
        rows only, while ``result()`` keeps covering every row.  The window
        holds each update's per-group partial results (O(window x groups per
        update)), or only each metric's sums with ``keep_groups=False``
        (O(window x statistics)).  Needs ``group_rows='complete'``.  In
        ``merge``, ``other``'s updates count as coming after ``self``'s.
        With pooled metrics only (``log_loss``, ``ne``, ``pcoc``, ``ece``),
        batches need no ``groups``: the windowed normalized entropy of a
        training loop is ``update(y_true, y_prob)`` per batch.
    %(negative_sampling_rate)s
    %(pos_label_door)s
    metric_table : table of metric names, default=None
        The table the metric names are read from: None, the registry's (the
        names of :func:`ranking_report`); a report's own table, e.g.
        :func:`counterfactual_report`'s (its ``"precision@k"`` is the
        precision of gains), with which the Spark and Dask counterfactual
        reports accumulate its metrics.  It travels in :meth:`partials`.

    Attributes
    ----------
    n_rows_ : int
        Rows (queries, for 2-D input) seen so far.
    n_groups_ : int
        Groups (queries) seen so far.

    See Also
    --------
    ranking_report : The same values from one call.
    per_group_scores : The same frame from one call.

    Notes
    -----
    Values are exact, not approximate: per-group values are computed from the
    group's own rows (the same numbers as in one call), and the aggregation
    runs once over all groups in sorted id order, as one call does.  The
    accumulator pickles, so it can be built on workers and merged; its
    per-group state, :meth:`partials`, is a dict of NumPy arrays that
    :meth:`from_partials` turns back into an accumulator.

    Examples
    --------
    >>> from sklearn_rankeval import RankingAccumulator, ranking_report
    >>> y_true = [1, 0, 0, 1, 0, 1, 1, 0]
    >>> y_score = [0.9, 0.8, 0.3, 0.2, 0.7, 0.7, 0.6, 0.1]
    >>> groups = ["a", "a", "a", "a", "b", "b", "b", "b"]
    >>> acc = RankingAccumulator(["mrr", "ndcg@3"], group_rows="sorted")
    >>> # three batches that cut both groups
    >>> for lo, hi in [(0, 3), (3, 6), (6, 8)]:
    ...     _ = acc.update(y_true[lo:hi], y_score[lo:hi], groups=groups[lo:hi])
    >>> acc.result() == ranking_report(y_true, y_score, groups=groups,
    ...                                metrics=["mrr", "ndcg@3"], output="dict")
    True
    >>> {name: round(value, 4) for name, value in acc.result().items()}
    {'mrr': 0.875, 'ndcg@3': 0.7099}
    """

    def __init__(self, metrics=None, *, group_rows="complete", keep_groups=True,
                 convention=None, window=None, negative_sampling_rate=None,
                 metric_table=None, pos_label=None):
        check_option(group_rows, "group_rows", GROUP_ROWS)
        self.pos_label = pos_label
        self.metric_table = check_metric_table(metric_table)
        self.window = check_window(window, group_rows)
        # the last `window` updates: (info, parts) of each, or each metric's
        # sums with keep_groups=False; None for an update without rows
        self._recent = collections.deque(maxlen=self.window) if self.window else None
        if not isinstance(keep_groups, (bool, np.bool_)):
            raise TypeError(f"keep_groups must be True or False, got {keep_groups!r}.")
        self.keep_groups = bool(keep_groups)
        self.convention = check_convention(convention)
        self.negative_sampling_rate = check_negative_sampling_rate(
            negative_sampling_rate)
        # kept as names (the parsed specs hold closures, which do not pickle)
        self._names = [name for name, _, _ in self._parse(metrics)]
        # a metric the convention lacks, or a rule it cannot follow: raise now
        resolved_metrics(self._parse(self._names), self.convention)
        # keep_groups=False: per metric, the (numerator, denominator,
        # n_defined) sums of its default average, one triple per batch
        self._totals = {name: [] for name in self._names}
        self.metrics = metrics
        self.group_rows = group_rows
        self._infos, self._parts = [], []
        self._seen = SeenIds()
        self._held = []  # 'any': every batch seen, not yet evaluated
        # 'sorted': the rows of the first and of the last group seen (either
        # may continue in a neighbouring accumulator), one dict per group
        self._ends = []
        self._min_id = self._max_id = None
        self._layout = None
        self._n_closed = 0
        self.n_rows_ = 0

    # -- input ------------------------------------------------------------------
    def _parse(self, metrics):
        """Metric names read by the one name reader (over ``metric_table``)."""
        return parse_metrics(metrics, inputs=table_inputs(self.metric_table))

    @property
    def _parsed(self):
        """The metrics as the aggregation sees them (under the convention)."""
        return resolved_metrics(self._parse(self._names), self.convention)

    def _evaluate(self, y_true, y_score, *, groups, sample_weight, labels=None,
                  columns=None):
        """``(info, parts)`` of whole groups: the report's path, convention
        too; ``columns``: the batch's optional columns (``samples=``, ...)."""
        info, parts, _ = evaluate(
            y_true, y_score, groups=groups, sample_weight=sample_weight,
            labels=labels, metrics=self._parse(self._names),
            convention=self.convention, pos_label=self.pos_label,
            negative_sampling_rate=self.negative_sampling_rate, columns=columns)
        return info, parts

    @property
    def _per_intent(self):
        """Whether a metric reads grades per intent (2-D ``y_true``)."""
        return any("intent_grades" in spec.columns
                   for _, spec, _ in self._parse(self._names))

    @property
    def _pooled_only(self):
        """Whether every metric pools rows (its default average ignores the
        groups: log loss, NE, PCOC, ECE)."""
        return all(spec.grouping_free for _, spec, _ in self._parse(self._names))

    def _check_layout(self, layout):
        if self._layout not in (None, layout):
            raise ValueError(
                f"y_score: this accumulator was fed {self._layout} batches; a "
                f"{layout} batch cannot be added to it."
            )

    @property
    def n_groups_(self):
        """Groups seen so far (those held back included)."""
        ids = [rows["groups"] for rows in (*self._held, *self._ends)]
        held = len(np.unique(np.concatenate(ids))) if ids else 0
        return self._n_closed + held

    def _add(self, info, parts):
        self._n_closed += len(info.labels)
        if self.keep_groups:
            self._infos.append(info)
            self._parts.append(parts)
            if self._recent is not None:
                self._recent.append((info, parts))
            return
        sums = {name: summed(average_terms(parts[name], info, spec,
                                           average=spec.default_average))
                for name, spec, _ in self._parsed}
        for name, total in sums.items():
            self._totals[name].append(total)
        if self._recent is not None:
            self._recent.append(sums)

    def _check_new_ids(self, labels):
        try:
            repeated = self._seen.find_repeated(labels)
        except TypeError as exc:
            raise TypeError(
                f"groups: the ids of this batch cannot be compared with earlier "
                f"ones ({exc})."
            ) from None
        if repeated is not None:
            raise ValueError(
                f"groups: group {plain_label(repeated)!r} was already seen in an "
                f"earlier batch; with group_rows='complete' every batch must "
                f"hold whole groups (use group_rows='sorted' or 'any' for "
                f"groups that span batches)."
            )

    def _evaluate_rows(self, rows):
        return self._evaluate(rows["y_true"], rows["y_score"], groups=rows["groups"],
                              sample_weight=rows["sample_weight"],
                              columns=row_columns(rows))

    def update(self, y_true, y_score, *, groups=None, sample_weight=None,
               labels=None, samples=None, items=None, item_groups=None,
               intent_weights=None):
        """Add a batch of rows (any of the metric functions' layouts).

        Parameters
        ----------
        y_true, y_score, groups, sample_weight
            As for :func:`ranking_report`.  ``groups`` is required with
            ``group_rows='sorted'`` or ``'any'``.  Without ``groups``, a
            batch of an accumulator of pooled metrics only (``log_loss``,
            ``ne``, ``pcoc``, ``ece``) is a group of its own (its id in
            :meth:`per_group` is the offset of its first row), so that
            ``result()`` is the metric of all the rows and
            ``result(scope="window")`` of the last updates' rows; with other
            metrics it is one ranking (one group), as in
            :func:`ranking_report` without ``groups``.
        labels : array-like of shape (n_classes,), default=None
            Multiclass batches: the class of each column of ``y_score`` (a
            batch may miss some classes, so pass it there).
        samples, items, item_groups : array-like of shape (n_samples,), default=None
            The exposure metrics' columns, as for
            :func:`expected_exposure_score` and :func:`awrf_score` (the
            sampled ranking of each row, its item, its item group(s)).  A
            group's rows are evaluated together: a query cut between batches
            (``group_rows='sorted'`` or ``'any'``) keeps all its sampled
            rankings, and every batch gives the same columns.
        intent_weights : array-like of shape (n_intents,) or (n_samples, \
n_intents), default=None
            The diversity metrics' ``P(i | q)``, as for
            :func:`alpha_ndcg_score` (constant within a group); with 2-D
            ``y_true`` of grades per intent.

        Returns
        -------
        self : RankingAccumulator
            The accumulator, updated.  A rejected batch (an error) leaves it
            unchanged.
        """
        reject_host_options((y_score, y_true, groups, sample_weight),
                            convention=self.convention)
        columns = {name: value for name, value in (
            ("samples", samples), ("items", items), ("item_groups", item_groups),
            ("intent_weights", intent_weights)) if value is not None}
        layout = batch_layout(y_true, y_score, labels, pooled=(
            groups is None and self.group_rows == "complete" and self._pooled_only))
        if layout == QUERIES:
            self._check_layout(QUERIES)
            info, parts = on_host(self._evaluate(
                y_true, y_score, groups=groups, sample_weight=sample_weight,
                labels=labels, columns=columns))
            n_queries = len(info.labels)
            info = info._replace(labels=self.n_rows_ + np.arange(n_queries))
            self._layout = QUERIES
            self._add(info, parts)
            self.n_rows_ += n_queries
            return self
        if layout == LONG:
            self._check_layout(LONG)
        if np.shape(y_score)[:1] == (0,):
            if self._recent is not None:
                self._recent.append(None)  # an update, without rows
            return self
        if layout == BATCHES:
            # no groups, pooled metrics only: the batch is a group of its own,
            # labelled by the offset of its first row, so that the pooled
            # average of the batches is the metric of all their rows (and
            # the window's, of the last updates' rows)
            self._check_layout(BATCHES)
            info, parts = on_host(self._evaluate(
                y_true, y_score, groups=None, sample_weight=sample_weight,
                columns=columns))
            info = info._replace(labels=np.array([self.n_rows_]))
            self._layout = BATCHES
            self._add(info, parts)
            self.n_rows_ += int(np.shape(y_score)[0])
            return self
        if self.group_rows == "complete":
            info, parts = on_host(self._evaluate(
                y_true, y_score, groups=groups, sample_weight=sample_weight,
                columns=columns))
            if groups is None and self._layout == LONG:
                names = [name for name, spec, _ in self._parse(self._names)
                         if not spec.grouping_free]
                raise ValueError(
                    f"groups: without groups a batch is one ranking, and this "
                    f"accumulator has one already. Pass groups= (the query or "
                    f"user id of each row) to accumulate batches of "
                    f"{', '.join(names)}; the pooled metrics (log_loss, ne, "
                    f"pcoc, ece) alone accumulate batches without groups.")
            self._check_new_ids(info.labels)
            self._seen.add(info.labels)
            self._layout = LONG
            self._add(info, parts)
            self.n_rows_ += int(np.shape(y_score)[0])
            return self
        if is_foreign_array(y_score):
            raise TypeError(
                f"group_rows={self.group_rows!r} holds rows between batches on "
                f"the host; batches of Array API arrays (y_score is "
                f"{type(y_score).__module__}) need group_rows='complete', "
                f"whose batches are evaluated on their device."
            )
        if groups is None:
            raise ValueError(
                f"groups is required with group_rows={self.group_rows!r}: the "
                f"rows of a group are matched across batches by their id."
            )
        rows = batch_rows(y_true, y_score, groups, sample_weight,
                          pos_label=self.pos_label, columns=columns,
                          per_intent=self._per_intent)
        n = rows["y_score"].shape[0]
        if n == 0:
            return self
        if self.group_rows == "any":
            self._held.append(rows)  # concatenated once, in result()
        else:
            self._update_sorted(rows)
        self._layout = LONG
        self.n_rows_ += n
        return self

    def _update_sorted(self, rows):
        ids = rows["groups"]
        try:
            lo, hi = min_max(ids)
            if self._max_id is not None and lo < self._max_id:
                raise ValueError(
                    f"groups: with group_rows='sorted' rows must arrive ordered by "
                    f"group id, but group {plain_label(lo)!r} comes after group "
                    f"{plain_label(self._max_id)!r}."
                )
        except TypeError as exc:
            raise TypeError(
                f"groups: the ids of this batch cannot be compared with earlier "
                f"ones ({exc})."
            ) from None
        # the last group seen continues here if its id comes again
        ends = list(self._ends)
        last = ends.pop() if ends else None
        rows = concat_rows(last, rows)
        first_id = lo if self._min_id is None else self._min_id
        ids = rows["groups"]
        is_end = (ids == first_id) | (ids == hi)
        closed = take_rows(rows, ~is_end)
        evaluated = (self._evaluate_rows(closed) if closed["y_score"].shape[0]
                     else None)
        # nothing can fail below this line
        if evaluated is not None:
            self._add(*evaluated)
            self._seen.add(evaluated[0].labels)
        if first_id != hi and not ends:
            ends.append(take_rows(rows, ids == first_id))
        ends.append(take_rows(rows, ids == hi))
        self._ends = ends
        self._min_id, self._max_id = first_id, hi

    def merge(self, other):
        """Add the rows of another accumulator built on disjoint rows.

        Both must have the same metrics, ``group_rows``, ``keep_groups`` and
        ``convention``.  In ``'sorted'``
        mode a group may be cut between the two, at their ends (the last group
        of one is the first of the other, as when a sorted stream is split
        into consecutive pieces).  Returns self; a rejected merge (an error)
        leaves it unchanged.
        """
        if not isinstance(other, RankingAccumulator):
            raise TypeError(
                f"other must be a RankingAccumulator, got {type(other).__name__}."
            )
        if (other._names != self._names or other.group_rows != self.group_rows
                or other.keep_groups != self.keep_groups
                or other.convention != self.convention
                or other.window != self.window
                or other.metric_table != self.metric_table):
            raise ValueError(
                "other: accumulators can be merged only with the same metrics, "
                "group_rows, keep_groups, convention, window and metric_table."
            )
        if other._layout is None:
            return self
        self._check_layout(other._layout)
        infos = list(other._infos)
        if other._layout != LONG:  # queries and batches: ids are row offsets
            infos = [i._replace(labels=i.labels + self.n_rows_) for i in infos]
        for run in other._seen.runs:
            self._check_new_ids(run)
        ends, extra, bounds = [], [], (self._min_id, self._max_id)
        if self.group_rows == "sorted":
            ends, extra, bounds = self._merge_ends(other)
        evaluated = [self._evaluate_rows(rows) for rows in extra]
        # nothing can fail below this line
        for run in other._seen.runs:
            self._seen.add(run)
        self._infos.extend(infos)
        self._parts.extend(other._parts)
        for name, sums in other._totals.items():
            self._totals[name].extend(sums)
        for info, parts in evaluated:
            self._add(info, parts)
            self._seen.add(info.labels)
        if self._recent is not None:  # other's updates come after self's
            self._recent.extend(other._recent)
        self._held = [*self._held, *other._held]
        self._n_closed += other._n_closed
        self._ends = ends
        self._min_id, self._max_id = bounds
        self._layout = other._layout
        self.n_rows_ += other.n_rows_
        return self

    def _merge_ends(self, other):
        """The end groups after a merge, and the ones that became complete."""
        by_id = {}
        for rows in [*self._ends, *other._ends]:
            key = rows["groups"][0]
            by_id[key] = concat_rows(by_id.get(key), rows)
        lo = min(b for b in (self._min_id, other._min_id) if b is not None)
        hi = max(b for b in (self._max_id, other._max_id) if b is not None)
        for key in by_id:
            self._check_new_ids(np.array([key]))
            for run in other._seen.runs:
                if np.isin(np.array([key]), run).any():
                    raise ValueError(
                        f"groups: group {plain_label(key)!r} is complete in one "
                        f"accumulator and cut at the end of the other."
                    )
        ends = [by_id[k] for k in sorted(by_id) if k in (lo, hi)]
        extra = [by_id[k] for k in sorted(by_id) if k not in (lo, hi)]
        if extra:
            extra = [concat_rows(*extra)]
        return ends, extra, (lo, hi)

    # -- output -----------------------------------------------------------------
    def _pending(self):
        """The partials of the rows held back, or None."""
        pending = concat_rows(*self._held, *self._ends)
        if pending is not None and pending["y_score"].shape[0]:
            return self._evaluate_rows(pending)
        return None

    def _collect(self, scope="lifetime"):
        """All groups' info and partials (of the window's updates with
        ``scope="window"``), in sorted id order."""
        if scope == "window":
            kept = [entry for entry in self._recent if entry is not None]
            infos, parts = [i for i, _ in kept], [p for _, p in kept]
        else:
            infos, parts = list(self._infos), list(self._parts)
            pending = self._pending()
            if pending is not None:
                infos.append(pending[0])
                parts.append(pending[1])
        if not infos:
            raise ValueError("The accumulator has seen no rows: call update() first.")
        info = GroupInfo.concatenate(infos)
        merged = {name: Partials.concatenate([p[name] for p in parts])
                  for name in self._names}
        if len(infos) > 1:
            order = np.argsort(info.labels, kind="stable")
            if not np.array_equal(order, np.arange(len(order))):
                info = info.take(order)
                merged = {name: p.take(order) for name, p in merged.items()}
        return info, merged

    def result(self, scope="lifetime"):
        """The metrics of the rows seen: ``{metric name: value}``.

        Parameters
        ----------
        scope : {'lifetime', 'window'}, default='lifetime'
            ``'lifetime'``: every row seen, equal to ``ranking_report(all
            rows, metrics=..., output="dict")``.  ``'window'``: the rows of
            the last ``window`` updates only (``window=`` of the
            constructor), equal to the report of those rows.

        Returns
        -------
        result : dict
            ``{metric name: value}``.
        """
        check_option(scope, "scope", ("lifetime", "window"))
        if scope == "window" and self._recent is None:
            raise ValueError("scope='window' needs an accumulator made with "
                             "window=n (the number of updates kept).")
        if scope == "window" and not any(e is not None for e in self._recent):
            raise ValueError("The window holds no rows: call update() first.")
        if self.keep_groups:
            info, parts = self._collect(scope)
            return {name: value for name, (value, _) in
                    metric_summaries(info, parts, self._parsed).items()}
        if scope == "window":
            kept = [entry for entry in self._recent if entry is not None]
            return {name: finalize_totals([sums[name] for sums in kept], spec)
                    for name, spec, _ in self._parsed}
        if self._layout is None:
            raise ValueError("The accumulator has seen no rows: call update() first.")
        totals = {name: list(sums) for name, sums in self._totals.items()}
        pending = self._pending()
        out = {}
        for name, spec, _ in self._parsed:
            if pending is not None:
                totals[name].append(summed(average_terms(
                    pending[1][name], pending[0], spec,
                    average=spec.default_average)))
            out[name] = finalize_totals(totals[name], spec)
        return out

    def per_group(self, output="pandas"):
        """One row per group, as :func:`per_group_scores` on all rows seen."""
        check_option(output, "output", ("pandas", "polars", "dict"))
        if not self.keep_groups:
            raise ValueError(
                "per_group() needs the groups: this accumulator was made with "
                "keep_groups=False."
            )
        return make_frame(frame_columns(*self._collect()), output)

    def partials(self):
        """The per-group partial results that :meth:`merge` combines.

        Everything :meth:`result` and :meth:`per_group` need, as a dict of
        plain Python values and NumPy arrays (one entry per group, the
        groups in sorted id order), which pickles and can be saved, sent to
        another process and turned back into an accumulator with
        :meth:`from_partials`.  Rows held back for a group that may continue
        (``group_rows='sorted'`` or ``'any'``) are evaluated as a complete
        group here; the accumulator itself is not changed.

        Returns
        -------
        partials : dict
            With the keys:

            - ``"metrics"``: list of str, the metric names;
            - ``"convention"``: str or None;
            - ``"metric_table"``: the table the names are read from (None:
              the registry's);
            - ``"group"``: array of shape (n_groups,), the group ids, sorted
              (for 2-D batches, the row numbers of the queries);
            - ``"info"``: dict of arrays of shape (n_groups,) that weigh the
              groups in the averages: ``n_items``, ``n_relevant``,
              ``weight`` (as in :meth:`per_group`) and the query weights;
            - ``"partials"``: ``{metric name: dict of arrays of shape
              (n_groups,)}``, each metric's per-group partial results (its
              value and whether it is defined, and what a pooled average
              sums).

            The keys of ``"info"`` and of each metric's dict beyond those
            named here may change in a later version: pass them back
            unchanged.

        Raises
        ------
        ValueError
            If the accumulator has seen no rows, or was made with
            ``keep_groups=False`` (it keeps no groups).

        See Also
        --------
        from_partials : The accumulator of saved partial results.

        Examples
        --------
        >>> import pickle
        >>> from sklearn_rankeval import RankingAccumulator
        >>> acc = RankingAccumulator(["mrr"]).update(
        ...     [1, 0, 0, 1], [0.9, 0.8, 0.7, 0.7], groups=["a", "a", "b", "b"])
        >>> state = acc.partials()
        >>> # b's relevant item ties with the other one at the top: RR 3/4
        >>> state["group"].tolist(), state["partials"]["mrr"]["value"].tolist()
        (['a', 'b'], [1.0, 0.75])
        >>> # saved or sent elsewhere, then merged with another worker's groups
        >>> other = RankingAccumulator(["mrr"]).update([0, 1], [0.3, 0.1],
        ...                                            groups=["c", "c"])
        >>> merged = RankingAccumulator.from_partials(pickle.loads(pickle.dumps(state)))
        >>> merged.merge(other).result()  # (1 + 3/4 + 1/2) / 3
        {'mrr': 0.75}
        """
        if not self.keep_groups:
            raise ValueError(
                "partials() needs the groups: this accumulator was made with "
                "keep_groups=False."
            )
        info, parts = self._collect()
        return {
            "metrics": list(self._names),
            "convention": self.convention,
            "metric_table": self.metric_table,
            "group": np.array(info.labels, copy=True),
            "info": {field: np.array(getattr(info, field), copy=True)
                     for field in GroupInfo._fields[1:]},
            "partials": {name: {field: np.array(value, copy=True)
                                for field, value in p._asdict().items()
                                if value is not None}
                         for name, p in parts.items()},
        }

    @classmethod
    def from_partials(cls, partials):
        """An accumulator holding the groups of :meth:`partials`'s output.

        The accumulator (``group_rows='complete'``) has the metrics, the
        convention and the metric table of the accumulator that gave
        ``partials``; its :meth:`result` and :meth:`per_group` are that
        accumulator's, and it merges with other accumulators of disjoint
        groups (other ``from_partials`` ones included), as their rows would.

        Parameters
        ----------
        partials : dict
            The output of :meth:`partials`, unchanged (e.g. after pickling);
            its groups may come in any order.

        Returns
        -------
        accumulator : RankingAccumulator

        Raises
        ------
        ValueError
            If ``partials`` is not such a dict (a missing key, arrays of
            different lengths, a metric's partial results of another form, a
            group id twice).

        See Also
        --------
        partials : The per-group partial results of an accumulator.

        Examples
        --------
        >>> from sklearn_rankeval import RankingAccumulator
        >>> a = RankingAccumulator(["ndcg@2"]).update([1, 0, 2], [0.2, 0.9, 0.5],
        ...                                           groups=[1, 1, 2])
        >>> b = RankingAccumulator(["ndcg@2"]).update([0, 1], [0.4, 0.1],
        ...                                           groups=[3, 3])
        >>> merged = RankingAccumulator.from_partials(b.partials())
        >>> merged.merge(RankingAccumulator.from_partials(a.partials()))
        RankingAccumulator(metrics=['ndcg@2'], group_rows='complete', n_rows_=5)
        >>> # groups 1 and 3 have their relevant item second: 1 / log2(3) each
        >>> round(merged.result()["ndcg@2"], 4)
        0.754
        """
        info, parts, metrics, convention, table = check_partials(partials)
        acc = cls(metrics, convention=convention, metric_table=table)
        order = np.argsort(info.labels, kind="stable")
        info = info.take(order)
        parts = {name: p.take(order) for name, p in parts.items()}
        labels = info.labels
        if labels.shape[0] > 1 and (labels[1:] == labels[:-1]).any():
            repeated = labels[1:][labels[1:] == labels[:-1]][0]
            raise ValueError(
                f"partials: group {plain_label(repeated)!r} appears twice.")
        acc._add(info, parts)
        acc._seen.add(labels)
        acc._layout = LONG
        acc.n_rows_ = int(np.sum(info.n_items))
        return acc

    def __repr__(self):
        convention = ("" if self.convention is None
                      else f", convention={self.convention!r}")
        return (f"RankingAccumulator(metrics={self._names!r}, "
                f"group_rows={self.group_rows!r}{convention}, "
                f"n_rows_={self.n_rows_})")
