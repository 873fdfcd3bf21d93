"""Parameter paragraphs shared by the metric docstrings.

A paragraph that several functions share is written once here and substituted
into their docstrings by :func:`fill_doc`, so that it reads the same
everywhere.
"""

import textwrap

__all__ = ["SHARED_DOCS", "fill_doc", "substitute_doc"]

SHARED_DOCS = {
    "y_true_binary": """\
y_true : array-like of shape (n_samples,) or (n_queries, n_items)
    Relevance of each item (``>= 0``); items with ``y_true > 0`` are relevant.
    1-D class labels when ``y_score`` is 2-D multiclass scores.""",
    "y_score": """\
y_score : array-like of shape (n_samples,), (n_queries, n_items) or \
(n_samples, n_classes)
    Scores, higher ranks first.  ``-inf`` marks an item that was not retrieved
    (it counts as a relevant item if it is one, but is ranked nowhere); NaN and
    ``+inf`` are errors.  2-D with 2-D ``y_true``: one query per row.  2-D with
    1-D ``y_true``: multiclass scores (``predict_proba``), each sample a query
    whose one relevant item is its true class.""",
    "groups": """\
groups : array-like of shape (n_samples,), default=None
    Id of the query (user, session) of each row for 1-D input; rows may come
    in any order and ids may be ints, strings or a pandas Categorical.  None:
    all rows form one ranking.  Must be None for 2-D ``y_score``.""",
    "k_none": """\
k : int, default=None
    Only the top ``k`` ranks count; None: all ranks.""",
    "k_10": """\
k : int, default=10
    Number of top ranks that count.""",
    "labels": """\
labels : array-like of shape (n_classes,), default=None
    Multiclass input only: the class of each column of ``y_score``, as in
    :func:`sklearn.metrics.top_k_accuracy_score`.  None: the sorted unique
    values of ``y_true``, which must then number ``n_classes``.""",
    "recall_levels": """\
recall_levels : {'exact', 'trec_eval_9', 'trec_eval_10'}, default='exact'
    When a query reaches recall level ``l``.  ``'exact'``: once its recall is
    at least ``l``, compared in integers.  ``'trec_eval_9'``: after
    ``int(l * R + 0.9)`` relevant items, as trec_eval 9 and pytrec_eval;
    ``'trec_eval_10'``: after ``lround(l * R)``, as trec_eval 10.  The trec_eval
    rules need unweighted input.""",
    "sample_weight_query": """\
sample_weight : array-like, default=None
    Query weights: one per row of the long layout, constant within each group
    (a ``ValueError`` otherwise), or one per query in the 2-D and multiclass
    layouts, as in :func:`sklearn.metrics.ndcg_score`.""",
    "average_query": """\
average : {'macro', 'weighted'} or None, default='macro'
    ``'macro'``: each query counts once (weighted by its query weight, if
    any).  ``'weighted'``: each query weighted by its total sample weight (its
    number of rows when unweighted).  None: an ndarray of one value per query,
    in the sorted order of the unique ids (row order for 2-D input);
    :func:`~sklearn_rankeval.per_group_scores` gives them keyed by id.""",
    "average_pooled": """\
average : {'micro', 'macro', 'weighted'} or None
    ``'micro'``: hits pooled over queries before dividing.  ``'macro'``: each
    query counts once (weighted by its query weight, if any).
    ``'weighted'``: each query weighted by its total sample weight (its number
    of rows when unweighted).  None: an ndarray of one value per query, in
    the sorted order of the unique ids (row order for 2-D input);
    :func:`~sklearn_rankeval.per_group_scores` gives them keyed by id.""",
    "undefined": """\
undefined : 'skip', 'raise' or float, default='skip'
    Groups where the metric is undefined (see Notes): ``'skip'`` leaves them
    out of the average (NaN with ``average=None``), ``'raise'`` raises a
    ``ValueError``, a number counts them with that value.  If every group is
    undefined the result is NaN with an ``UndefinedMetricWarning``.""",
    "returns": """\
The averaged score, or one score per group when ``average=None``.""",
}


def substitute_doc(func, paragraphs):
    """Replace each ``%(name)s`` line of ``func.__doc__`` by ``paragraphs[name]``.

    Each paragraph is re-indented to the placeholder's column.
    """
    doc = func.__doc__
    lines = []
    for line in doc.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("%(") and stripped.endswith(")s"):
            indent = line[: len(line) - len(stripped)]
            lines.append(textwrap.indent(paragraphs[stripped[2:-2]], indent))
        else:
            lines.append(line)
    func.__doc__ = "\n".join(lines) + ("\n" if doc.endswith("\n") else "")
    return func


def fill_doc(func):
    """Substitute the metric functions' shared paragraphs (:data:`SHARED_DOCS`)."""
    return substitute_doc(func, SHARED_DOCS)
