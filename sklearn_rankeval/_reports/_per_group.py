"""``per_group_scores``: one row per group, one column per metric.

"""



from .._core import check_option, reject_host_options
from .._metrics import evaluate, fill_doc, parse_metrics
from ._format import FRAME_OUTPUTS, frame_columns, make_frame

__all__ = ["per_group_scores"]

OUTPUTS = FRAME_OUTPUTS
#: The id column's name when ``groups`` does not name it.
GROUP = "group"


def group_label(groups, taken):
    """The name of the id column: ``groups``' own name (a pandas or polars
    Series named by the column it was taken from) unless it is not a
    non-empty string or is the name of another column (``taken``)."""
    name = getattr(groups, "name", None)
    if isinstance(name, str) and name and name not in taken:
        return name
    return GROUP

@fill_doc
def per_group_scores(y_true, y_score, *, groups=None, metrics=None,
                     sample_weight=None, output="pandas", convention=None,
                     negative_sampling_rate=None, pos_label=None, samples=None,
                     items=None, item_groups=None, intent_weights=None):
    """Every metric of every group, as a DataFrame keyed by the group's id.

    One row per group (query, user, session) in the sorted order of the
    unique ids, with the columns ``n_items``, ``n_relevant`` (items with
    ``y_true > 0``), ``weight`` (the group's total sample weight: its number
    of rows when unweighted) and one float column per metric, NaN where the
    metric is undefined for the group.  The input is validated and ranked
    once for all the metrics.

    Read more in the :ref:`User Guide <per_group>`.

    Parameters
    ----------
    %(y_true_binary)s
    %(y_score)s
    %(groups)s
    metrics : list of str, default=None
        Metric names, as the scorer names (``"gauc"``, ``"ndcg@10"``, ...).
        None: the metrics of :func:`ranking_report`'s default.
    sample_weight : array-like, default=None
        One weight per row (long layout) or per query (2-D and multiclass),
        as in the metric functions.
    output : {'pandas', 'polars', 'dict'}, default='pandas'
        A pandas DataFrame (the ids as its index), a polars DataFrame (an id
        column first) or a dict of NumPy arrays (the ids' key first), which
        needs no DataFrame library.  The ids are named as ``groups`` is: a
        pandas or polars Series keeps its name (``groups=log["user"]``
        gives ``user``); otherwise, or when that name is one of the other
        columns', they are named ``group``.  Under
        ``array_api_dispatch``, the dict holds arrays of the input's
        namespace and device, and the DataFrames are built from the
        per-group columns copied to the host (:ref:`array_api`).
    %(convention_header)s
        Every metric as that library computes it, as in
        :func:`ranking_report` (see :ref:`conventions-presets`): each column
        then equals the metric function called with ``convention=`` and
        ``average=None`` (a group without relevant items gets the library's
        value, e.g. 0, where it counts one).  A metric the library does not
        have, or a rule that needs ``docno=`` (trec_eval's ties), is a
        ``ValueError``.  None: this library's own rules.
    %(negative_sampling_rate)s
    %(pos_label_door)s
    %(exposure_columns)s
    %(intent_weights_report)s

    Returns
    -------
    frame : pandas.DataFrame, polars.DataFrame or dict
        One row per group.  For 2-D and multiclass input the id is the row
        number of the query.

    See Also
    --------
    ranking_report : The averages of the same metrics.
    RankingAccumulator : The same frame from data seen in batches.

    Notes
    -----
    Each metric column equals ``<metric>_score(..., average=None)`` (the
    values of every group where it is defined), so its averages can be
    recomputed from the frame: e.g. GAUC's default is the mean of the
    ``gauc`` column weighted by ``weight`` over the rows where it is not NaN
    (under a convention that weights groups otherwise, ``weight`` is that
    weight: RecBole's GAUC weights a group by its relevant items).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_rankeval import per_group_scores
    >>> log = pd.DataFrame({
    ...     "user": ["ann", "ann", "ann", "bob", "bob"],
    ...     "clicked": [1, 0, 0, 0, 1],
    ...     "score": [0.9, 0.4, 0.6, 0.8, 0.8],
    ... })
    >>> # bob's click ties with his other item at the top: MRR (1 + 1/2) / 2
    >>> per_group_scores(log["clicked"], log["score"], groups=log["user"],
    ...                  metrics=["mrr", "gauc"])
          n_items  n_relevant  weight   mrr  gauc
    user
    ann         3           1     3.0  1.00   1.0
    bob         2           1     2.0  0.75   0.5
    >>> # as torchmetrics counts: tied items in input order, bob's click second
    >>> frame = per_group_scores(log["clicked"], log["score"], groups=log["user"],
    ...                          metrics=["mrr"], convention="torchmetrics")
    >>> frame["mrr"].tolist()
    [1.0, 0.5]
    """
    check_option(output, "output", OUTPUTS)
    parsed = parse_metrics(metrics)
    reject_host_options((y_score, y_true, groups, sample_weight),
                        convention=convention)
    info, parts, _ = evaluate(y_true, y_score, groups=groups,
                              sample_weight=sample_weight, metrics=parsed,
                              convention=convention, pos_label=pos_label,
                              negative_sampling_rate=negative_sampling_rate,
                              columns={"samples": samples, "items": items,
                                       "item_groups": item_groups,
                                       "intent_weights": intent_weights})
    columns = frame_columns(info, parts)
    label = group_label(groups, set(columns))
    if label != GROUP:
        columns = {label if key == GROUP else key: col
                   for key, col in columns.items()}
    return make_frame(columns, output, index=label)
