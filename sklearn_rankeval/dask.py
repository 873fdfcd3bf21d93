"""Ranking metrics of a Dask DataFrame, computed where the partitions are.

The rows move once: ``shuffle(on=groups)`` puts each group in one partition;
``map_partitions`` then ranks every partition with the engine in one call
(all its groups at once) and returns one row of partial results per group.
No Python function is called per group.

dask is imported when a function is called, never when this module or
``sklearn_rankeval`` is imported.  Install it with
``pip install "sklearn-rankeval[dask]"``.  Every other import goes through
``sklearn_rankeval._distributed``.
"""

import functools

import numpy as np

from ._distributed import (
    FrameInputs,
    accumulate,
    check_column_types,
    check_frame,
    click_doc,
    click_partials,
    click_plan,
    concat_partial_columns,
    fill_doc,
    frame_doc,
    input_order_column,
    metric_plan,
    parquet_doc,
    partial_columns,
    partial_dtypes,
    reduce_clicks,
    reduce_partials,
    summarize_partials,
)

__all__ = ["counterfactual_report", "evaluate_parquet", "per_group_scores",
           "ranking_report"]

_INSTALL = 'pip install "sklearn-rankeval[dask]"'


def _dask():
    try:
        import dask.dataframe as dd
        import pandas as pd
    except ImportError as exc:
        raise ImportError(
            f"sklearn_rankeval.dask needs dask[dataframe] and pandas: {_INSTALL}"
        ) from exc
    return dd, pd


def _prepare(ddf, inputs, y_score, groups, sample_weight, metrics, convention):
    """Check the arguments on the client; the shuffled columns and the plan.

    ``inputs``: the :class:`FrameInputs` of the call.  Returns ``(shuffled,
    names, pooled, group dtype, position column or None)``.  A convention
    that orders tied items as the input does gets a position column before
    the shuffle (the partition number, then the row number in it: the
    frame's order), by which each partition is sorted after it.
    """
    dd, pd = _dask()
    roles = inputs.roles()
    check_frame(ddf, dd.DataFrame, "ddf", "dask.dataframe.DataFrame")
    for arg, name in [*(r for r in roles if r[0] == "y_true"), ("y_score", y_score),
                      ("groups", groups), ("sample_weight", sample_weight),
                      *(r for r in roles if r[0] != "y_true")]:
        if name is not None or arg != "sample_weight":
            check_frame(ddf, dd.DataFrame, "ddf", "dask.dataframe.DataFrame",
                        **{arg: name})
    wanted = []
    for arg, name in [*roles[:len(inputs.y_true)], ("y_score", y_score),
                      ("sample_weight", sample_weight), ("groups", groups),
                      *roles[len(inputs.y_true):]]:
        wanted += _wanted(pd, **{arg: name})
    check_column_types(wanted, ddf.dtypes, "dtype")
    names, pooled = metric_plan(metrics, groups, convention)
    used = list(dict.fromkeys(
        c for c in (groups, *(name for _, name in inputs.roles()), y_score,
                    sample_weight) if c is not None))
    rows = ddf[used]
    position = input_order_column(names, convention, used)
    if position is not None:
        meta = rows._meta.assign(**{position: np.array([], dtype=np.int64)})
        rows = rows.map_partitions(_with_position, position, meta=meta)
    shuffled = rows.shuffle(on=groups)
    return shuffled, names, pooled, ddf.dtypes[groups], position


def _wanted(pd, **names):
    """The dtype check of each named column (for :func:`check_column_types`):
    ``y_true`` / ``clicks`` numeric or boolean, ``groups`` ids, the others
    numeric."""
    types = pd.api.types
    numeric = lambda dt: types.is_numeric_dtype(dt) and not types.is_bool_dtype(dt)  # noqa: E731
    ids = lambda dt: (numeric(dt) or types.is_string_dtype(dt)  # noqa: E731
                      or isinstance(dt, pd.CategoricalDtype))
    kinds = {"y_true": (types.is_numeric_dtype, "numeric or boolean"),
             "clicks": (types.is_numeric_dtype, "numeric or boolean"),
             **{arg: (ids, "string, integer, float or categorical")
                for arg in ("groups", "samples", "items", "item_groups")}}
    return [(arg, name, *kinds.get(arg, (numeric, "numeric")))
            for arg, name in names.items()]


def _with_position(part, position, partition_info=None):
    """``part`` with its rows' place in the frame (partition number first)."""
    number = 0 if partition_info is None else partition_info["number"]
    return part.assign(**{position: (number << 40) + np.arange(len(part))})


def _accumulated(part, inputs, y_score, groups, sample_weight, names, convention,
                 position):
    """The accumulator of one partition's rows (whole groups, in frame order)."""
    if position is not None:
        part = part.sort_values(position, kind="stable")
    y_true, columns = inputs.read(part.__getitem__)
    return accumulate([(y_true, part[y_score], part[groups],
                        None if sample_weight is None else part[sample_weight],
                        columns)],
                      names, convention=convention)


def _frame(columns, group_name, group_dtype, dtypes):
    """A pandas DataFrame of ``columns`` (``"group"`` first) with ``dtypes``."""
    import pandas as pd

    data = {group_name: pd.Series(columns["group"], dtype=group_dtype)}
    for name, dtype in dtypes:
        data[name] = pd.Series(np.asarray(columns[name], dtype=dtype))
    return pd.DataFrame(data)


def _empty(group_name, group_dtype, dtypes):
    return _frame({"group": [], **{name: [] for name, _ in dtypes}},
                  group_name, group_dtype, dtypes)


def _frame_dtypes(names):
    return ([("n_items", np.int64), ("n_relevant", np.int64), ("weight", np.float64)]
            + [(name, np.float64) for name in names])


def _partition_partials(part, *, inputs, y_score, groups, sample_weight, names,
                        pooled, group_dtype, convention, position):
    dtypes = partial_dtypes(names, pooled)
    if len(part) == 0:
        return _empty("group", group_dtype, dtypes)
    acc = _accumulated(part, inputs, y_score, groups, sample_weight, names,
                       convention, position)
    return _frame(partial_columns(acc.partials(), names, pooled), "group",
                  group_dtype, dtypes)


def _partition_frame(part, *, inputs, y_score, groups, sample_weight, names,
                     group_dtype, convention, position):
    dtypes = _frame_dtypes(names)
    if len(part) == 0:
        return _empty(groups, group_dtype, dtypes)
    acc = _accumulated(part, inputs, y_score, groups, sample_weight, names,
                       convention, position)
    return _frame(acc.per_group(output="dict"), groups, group_dtype, dtypes)


@fill_doc
@functools.partial(frame_doc, engine="dask")
def ranking_report(ddf, *, y_true, y_score, groups, sample_weight=None, metrics=None,
                   convention=None, intent_weights=None, samples=None, items=None,
                   item_groups=None):
    """Ranking metrics of a Dask DataFrame, as in-memory ``ranking_report``.

    The rows are shuffled once by group (``ddf.shuffle(on=groups)``), each
    partition is ranked by the engine in one call (``map_partitions``), and
    only one row of partial results per group comes back to the client,
    where the groups are aggregated as in memory.  The values equal
    ``ranking_report(..., output="dict")`` on the computed rows to 1e-12.

    Read more in the :ref:`User Guide <distributed>`.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        One row per item (impression, document), in any order and any
        partitioning.
    %(y_true_frame)s
    y_score : str
        Name of the score column (numeric; higher ranks first, ``-inf``: not
        retrieved).
    groups : str
        Name of the group (query, user) id column: string, integer, float or
        categorical.  A missing id is an error.
    sample_weight : str, default=None
        Name of a weight column, as ``sample_weight`` of the metric functions
        (item weights for GAUC, MAP and interpolated AP; query weights,
        constant within a group, for the others).
    metrics : list of str, default=None
        Metric names, as the scorer names (``"gauc"``, ``"ndcg@10"``, ...);
        None: the metrics of :func:`~sklearn_rankeval.ranking_report`'s
        default.
    %(convention_engine)s
    %(frame_columns)s

    Returns
    -------
    report : dict
        ``{metric name: value}``, as ``ranking_report(..., output="dict")``.

    Raises
    ------
    ValueError
        A column that does not exist, or bad data (a NaN score, a missing
        group id, ...): the in-memory function's error, re-raised by dask on
        the client.
    TypeError
        A column name that is not a string, or a column of the wrong dtype.

    See Also
    --------
    per_group_scores : The value of every metric in every group, as a lazy
        Dask DataFrame.
    sklearn_rankeval.ranking_report : The same report in memory.
    sklearn_rankeval.spark.ranking_report : The same report of a Spark
        DataFrame.

    Notes
    -----
    It computes with the current scheduler (a ``dask.distributed.Client``
    if one is active).  Cost: one shuffle of the used columns, one engine
    call per partition; the client receives
    ``8 * (6 + 2 to 4 per metric)`` bytes per group, sorts them by id and
    sums them in the order of the in-memory report.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> from sklearn_rankeval.dask import ranking_report
    >>> log = pd.DataFrame({
    ...     "user": ["ann", "ann", "ann", "bob", "bob"],
    ...     "clicked": [1, 0, 0, 0, 1],
    ...     "score": [0.9, 0.4, 0.6, 0.8, 0.8],
    ... })
    >>> ddf = dd.from_pandas(log, npartitions=2)
    >>> # bob's click ties with his other item at the top: MRR (1 + 1/2) / 2
    >>> ranking_report(ddf, y_true="clicked", y_score="score", groups="user",
    ...                metrics=["mrr", "gauc"])
    {'mrr': 0.875, 'gauc': 0.8}
    """
    inputs = FrameInputs.of(y_true, intent_weights=intent_weights, samples=samples,
                            items=items, item_groups=item_groups)
    return reduce_partials(*_partials(ddf, inputs, y_score, groups, sample_weight,
                                      metrics, convention), convention=convention)


def _partials(ddf, inputs, y_score, groups, sample_weight, metrics, convention=None):
    """The per-group partials, computed: ``(columns, names, pooled)``;
    ``inputs``: the :class:`FrameInputs` of the call."""
    shuffled, names, pooled, group_dtype, position = _prepare(
        ddf, inputs, y_score, groups, sample_weight, metrics, convention)
    meta = _empty("group", group_dtype, partial_dtypes(names, pooled))
    partials = shuffled.map_partitions(
        _partition_partials, inputs=inputs, y_score=y_score, groups=groups,
        sample_weight=sample_weight, names=names, pooled=pooled,
        group_dtype=group_dtype, convention=convention, position=position,
        meta=meta)
    frame = partials.compute()
    return ({name: frame[name].to_numpy() for name in frame.columns}, names,
            pooled)


@parquet_doc
def evaluate_parquet(path, *, y_true, y_score, groups, metrics=None, per_group=False):
    """The metrics of a Parquet file, folder or glob, on Dask.

    What ``rankeval evaluate PATH --engine dask`` computes: the rows are
    read by Dask from ``path`` (a file, a folder of part files or a glob),
    shuffled by group once, ranked per partition, and only the per-group
    partial sums come back (the values of :func:`ranking_report` on the
    same rows).  The current scheduler computes it (a ``dask.distributed.Client`` if one
    is active, else dask's default).

    Read more in the :ref:`User Guide <distributed>`.

    %(parquet_parameters)s

    Examples
    --------
    >>> import os, tempfile
    >>> import pandas as pd
    >>> from sklearn_rankeval.dask import evaluate_parquet
    >>> log = pd.DataFrame({
    ...     "user": ["ann", "ann", "ann", "bob", "bob"],
    ...     "clicked": [1, 0, 0, 0, 1],
    ...     "score": [0.9, 0.4, 0.6, 0.8, 0.8],
    ... })
    >>> folder = tempfile.mkdtemp()
    >>> log.to_parquet(os.path.join(folder, "part-0.parquet"))
    >>> result = evaluate_parquet(folder, y_true="clicked", y_score="score",
    ...                           groups="user", metrics=["mrr", "gauc"])
    >>> result.report, result.n_rows, result.n_groups
    ({'mrr': 0.875, 'gauc': 0.8}, 5, 2)
    """
    dd, _ = _dask()
    ddf = dd.read_parquet(str(path))
    return summarize_partials(
        *_partials(ddf, FrameInputs.of(y_true), y_score, groups, None, metrics),
        per_group=per_group)


@fill_doc
@functools.partial(frame_doc, engine="dask")
def per_group_scores(ddf, *, y_true, y_score, groups, sample_weight=None,
                     metrics=None, convention=None, intent_weights=None,
                     samples=None, items=None, item_groups=None):
    """Every metric of every group of a Dask DataFrame, as a lazy Dask DataFrame.

    The same values as :func:`~sklearn_rankeval.per_group_scores` on the
    computed rows, computed like :func:`ranking_report` (one shuffle by
    group, one engine call per partition); nothing is computed until
    ``.compute()`` (or ``.to_parquet(...)``).

    Read more in the :ref:`User Guide <distributed>`.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        One row per item (impression, document).
    %(y_true_frame)s
    y_score : str
        Name of the score column (numeric).
    groups : str
        Name of the group id column (string, integer, float or categorical).
    sample_weight : str, default=None
        Name of a weight column, as in :func:`ranking_report`.
    metrics : list of str, default=None
        Metric names, as the scorer names; None: the default metrics of
        :func:`~sklearn_rankeval.ranking_report`.
    %(convention_engine)s
    %(frame_columns)s

    Returns
    -------
    frame : dask.dataframe.DataFrame
        One row per group: the group column (named and typed as in ``ddf``),
        ``n_items``, ``n_relevant``, ``weight`` and one float column per
        metric, named as the metric, NaN where the metric is undefined for
        the group.  Groups are sorted by id within each partition; the index
        is each partition's row number.

    Raises
    ------
    ValueError
        A column that does not exist (raised by this call).  Bad data (a NaN
        score, a missing group id, ...) raises the in-memory function's error
        when the frame is computed.
    TypeError
        A column name that is not a string, or a column of the wrong dtype.

    See Also
    --------
    ranking_report : The averages of the same metrics.
    sklearn_rankeval.per_group_scores : The same frame in memory.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> from sklearn_rankeval.dask import per_group_scores
    >>> log = pd.DataFrame({
    ...     "user": ["ann", "ann", "ann", "bob", "bob"],
    ...     "clicked": [1, 0, 0, 0, 1],
    ...     "score": [0.9, 0.4, 0.6, 0.8, 0.8],
    ... })
    >>> ddf = dd.from_pandas(log, npartitions=2)
    >>> scores = per_group_scores(ddf, y_true="clicked", y_score="score",
    ...                           groups="user", metrics=["mrr", "gauc"])
    >>> frame = scores.compute().sort_values("user")
    >>> frame[["user", "n_items", "mrr", "gauc"]].to_numpy().tolist()
    [['ann', 3, 1.0, 1.0], ['bob', 2, 0.75, 0.5]]
    """
    inputs = FrameInputs.of(y_true, intent_weights=intent_weights, samples=samples,
                            items=items, item_groups=item_groups)
    shuffled, names, _, group_dtype, position = _prepare(
        ddf, inputs, y_score, groups, sample_weight, metrics, convention)
    meta = _empty(groups, group_dtype, _frame_dtypes(names))
    return shuffled.map_partitions(
        _partition_frame, inputs=inputs, y_score=y_score, groups=groups,
        sample_weight=sample_weight, names=names, group_dtype=group_dtype,
        convention=convention, position=position, meta=meta)


def _click_partition(part, *, columns, plan):
    """One partition's partials (dict of columns, or None) and checks (JSON),
    as a one-row frame; no row for an empty partition."""
    import pandas as pd

    if len(part) == 0:
        return pd.DataFrame({"partials": pd.Series([], dtype=object),
                             "log": pd.Series([], dtype=object)})
    clicks, y_score, positions, groups, weight = columns
    state, checks = click_partials(
        [(part[clicks], part[y_score], part[positions], part[groups],
          None if weight is None else part[weight])], plan)
    cols = None if state is None else partial_columns(state, plan.names, plan.pooled)
    return pd.DataFrame({"partials": pd.Series([cols], dtype=object),
                         "log": pd.Series([checks.to_json()], dtype=object)})


@click_doc
def counterfactual_report(ddf, *, clicks, y_score, positions, groups, propensities,
                          metrics=None, estimator="ips",
                          clip=None, sample_weight=None, output="dict"):
    """Ranking metrics of a new ranker, estimated from a click log in Dask.

    The values of :func:`sklearn_rankeval.counterfactual_report` on the
    computed rows (to 1e-12), from the same pipeline over partials: the
    rows are shuffled once by impression (``ddf.shuffle(on=groups)``), each
    partition turns its clicks into gains and ranks and measures its
    impressions in one call (``map_partitions``), and one row of partials
    per impression comes back to the client.

    Read more in the :ref:`User Guide <counterfactual-distributed>`.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        The log: one row per displayed item, in any order and partitioning.
    %(click_columns)s
    %(click_options)s

    Returns
    -------
    %(click_returns)s

    Raises
    ------
    %(click_raises)s

    See Also
    --------
    sklearn_rankeval.counterfactual_report : The same report in memory.
    sklearn_rankeval.spark.counterfactual_report : The same report of a
        Spark DataFrame.

    Notes
    -----
    It computes with the current scheduler (a ``dask.distributed.Client``
    if one is active).

    %(click_notes)s

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> from sklearn_rankeval.dask import counterfactual_report
    >>> log = pd.DataFrame({
    ...     "impression": ["a", "a", "a", "b", "b", "b"],
    ...     "clicked": [1, 0, 1, 0, 1, 0],
    ...     "position": [1, 2, 3, 1, 2, 3],
    ...     "score": [0.2, 0.5, 0.9, 0.1, 0.8, 0.8],  # the new ranker
    ... })
    >>> # a click at position 3 weighs 1 / 0.25
    >>> ddf = dd.from_pandas(log, npartitions=2)
    >>> counterfactual_report(
    ...     ddf, clicks="clicked", y_score="score", positions="position",
    ...     groups="impression", propensities=[1.0, 0.5, 0.25],
    ...     metrics=["precision@1", "avg_rel_rank"])
    {'precision@1': 2.5, 'avg_rel_rank': 5.0}
    """
    dd, pd = _dask()
    check_frame(ddf, dd.DataFrame, "ddf", "dask.dataframe.DataFrame", clicks=clicks,
                y_score=y_score, positions=positions, groups=groups,
                sample_weight=sample_weight)
    check_column_types(_wanted(pd, clicks=clicks, y_score=y_score,
                               positions=positions, groups=groups,
                               sample_weight=sample_weight), ddf.dtypes, "dtype")
    plan = click_plan(metrics, estimator=estimator, clip=clip,
                      propensities=propensities, output=output)
    columns = (clicks, y_score, positions, groups, sample_weight)
    used = list(dict.fromkeys(c for c in columns if c is not None))
    meta = pd.DataFrame({"partials": pd.Series([], dtype=object),
                         "log": pd.Series([], dtype=object)})
    out = ddf[used].shuffle(on=groups).map_partitions(
        _click_partition, columns=columns, plan=plan, meta=meta).compute()
    collected = concat_partial_columns(p for p in out["partials"] if p is not None)
    return reduce_clicks(collected, list(out["log"]), plan)
