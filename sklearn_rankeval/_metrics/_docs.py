"""Parameter paragraphs shared by the metric docstrings.

A paragraph that several functions share is written once here and substituted
into their docstrings by :func:`fill_doc`, so that it reads the same
everywhere.  The paragraphs that list names (metric names, scorer names,
conventions) are generated from the metric registry and the conventions
(:func:`registry_docs`), so that no docstring lists them by hand.
"""

import textwrap

from ._conventions import CONVENTIONS

__all__ = ["SHARED_DOCS", "fill_doc", "registry_docs", "substitute_doc"]

#: The header of every ``convention`` parameter: the conventions' names.
CONVENTION_HEADER = ("convention : {"
                     + ", ".join(f"'{c}'" for c in CONVENTIONS)
                     + "}, default=None")

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
    whose one relevant item is its true class.  Under scikit-learn's
    ``array_api_dispatch``, a PyTorch, CuPy or other Array API array is
    evaluated in its library, on its device (:ref:`array_api`).""",
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
recall_levels : {'exact', 'trec_eval_9', 'trec_eval_10'}, default=None
    When a query reaches recall level ``l``.  ``'exact'``: once its recall is
    at least ``l``, compared in integers.  ``'trec_eval_9'``: after
    ``int(l * R + 0.9)`` relevant items, as trec_eval 9 and pytrec_eval;
    ``'trec_eval_10'``: after ``lround(l * R)``, as trec_eval 10.  The trec_eval
    rules need unweighted input.  None: the convention's, else ``'exact'``.""",
    "sample_weight_query": """\
sample_weight : array-like, default=None
    Query weights: one per row of the long layout, constant within each group
    (a ``ValueError`` otherwise), or one per query in the 2-D and multiclass
    layouts, as in :func:`sklearn.metrics.ndcg_score`.""",
    "average_query": """\
average : {'macro', 'weighted'} or None, default='macro'
    ``'macro'``: each query counts once (weighted by its query weight, if
    any).  ``'weighted'``: each query weighted by its total sample weight (its
    number of rows when unweighted).  ``'gmean'`` (MAP, MRR, NDCG,
    R-precision, bpref, interpolated AP): the geometric mean of the values,
    each floored at 1e-5, with the weights of ``'macro'``, as trec_eval's
    ``gm_map`` and ``gm_bpref``.  None: an ndarray of one value per query,
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
undefined : 'warn', 'skip', 'raise' or float, default=None
    Groups where the metric is undefined (see Notes): ``'warn'`` leaves them
    out of the average (NaN with ``average=None``) and says how many of how
    many groups with an ``UndefinedMetricWarning``, as scikit-learn's
    ``zero_division="warn"``; ``'skip'`` leaves them out silently;
    ``'raise'`` raises a ``ValueError``; a number counts them with that
    value.  If every group is undefined the result is NaN with an
    ``UndefinedMetricWarning``.  None: the convention's value, else
    ``'warn'`` (in scikit-learn's 2-D layout, the value of scikit-learn's
    function of the same name where it has one: ``ndcg_score`` counts a row
    without a relevant item 0).""",
    "ties": """\
ties : {'expected', 'input', 'docno'}, default=None
    How tied scores are ranked.  ``'expected'``: this library's rule, which
    does not depend on the order of the rows (see Notes).  ``'input'``: tied
    items in the order of the input rows (columns for 2-D input), as the
    stable sorts of LightGBM and XGBoost leave them.  ``'docno'``: by
    decreasing ``docno``, as trec_eval.  The last two are for reproducing
    other libraries only: the value then depends on the order of the rows or
    on the ids.  None: the convention's rule, else ``'expected'``.""",
    "docno": """\
docno : array-like of the shape of y_score, default=None
    The id of each item, for ``ties='docno'`` (trec_eval's tie order);
    compared as strings when they are strings.""",
    "convention": CONVENTION_HEADER + """
    Compute the metric as that library does: a preset of the switches
    (``ties``, ``undefined`` and, where the metric has them, ``gain``,
    ``k_denominator``, ``query_weight``, ``group_weight``,
    ``recall_levels``); a switch given explicitly overrides the preset.  A
    library without this metric, or whose rule cannot be expressed, is a
    ``ValueError``.  None: this library's own rules.  See
    :ref:`conventions-presets`.""",
    "returns": """\
The averaged score, or one score per group when ``average=None``.""",
}


#: Paragraphs shared by the diversity functions (grades per intent).
DIVERSITY_DOCS = {
    "y_true_intents": """\
y_true : array-like of shape (n_samples, n_intents)
    Grades per intent: row ``j`` holds item ``j``'s grade (``>= 0``) for each
    intent (subtopic, aspect) of its query; ``> 0`` is relevant to that
    intent.  An intent without a relevant item in a group is ignored there
    (as ndeval ignores it).""",
    "y_score_intents": """\
y_score : array-like of shape (n_samples,)
    Scores, higher ranks first (one per row of ``y_true``).  ``-inf`` marks
    an item that was not retrieved: it is ranked nowhere but counts in the
    ideal.  NaN and ``+inf`` are errors.""",
    "intent_weights": """\
intent_weights : array-like of shape (n_intents,) or (n_samples, n_intents), \
default=None
    The probability ``P(i | q)`` of each intent: one vector for every group,
    or one per row, constant within each group.  In each group the weights
    of the intents with a relevant item are renormalised to sum to 1.  None:
    equal weights (ndeval's).""",
    "normalization": """\
normalization : {'exact', 'greedy', 'ideal-ideal', 'none'}, default=None
    The ideal the value is divided by.  ``'exact'``: the best order of the
    group's items, found by an exact search (the value never exceeds 1; see
    :ref:`diversity-ideal`).  ``'greedy'``: ndeval's ideal, built one rank
    at a time (the value can exceed 1).  ``'ideal-ideal'``: ndeval's
    collection-independent normaliser (every rank relevant to every
    intent).  ``'none'``: the value itself.  None: the convention's, else
    ``'exact'``.""",
    "grades": """\
grades : {'graded', 'binary'}, default=None
    ``'graded'``: each grade is the gain of its intent; ``'binary'``: every
    grade ``> 0`` counts 1, as ndeval reads its qrels.  None: the
    convention's, else ``'graded'``.""",
}

#: Paragraphs shared by functions outside the contract's list too (``gain``:
#: ``ndcg_score`` and ``dcg_score``).
MORE_DOCS = {
    "gain": """\
gain : {'linear', 'exponential', 'binary'}, array-like or callable, \
default=None
    The gain of a grade: ``'linear'`` the grade itself; ``'exponential'``
    ``2**grade - 1`` (LightGBM, XGBoost, ranx's ``ndcg_burges``);
    ``'binary'`` 1 for a relevant item (Spark, RecBole); an array of gains
    indexed by integer grade (LightGBM's ``label_gain``); or a function
    mapping an array of grades to their gains.  The ideal ranking sorts the
    items by grade.  None: the convention's, else ``'linear'``.""",
}


#: The ``convention`` of the Spark and Dask functions.
ENGINE_DOCS = {
    "convention_engine": CONVENTION_HEADER + """
    Every metric as that library computes it, as in
    :func:`~sklearn_rankeval.ranking_report` (see
    :ref:`conventions-presets`).  Where the library orders tied items as
    they come (most do), the order is the frame's: partition by
    partition, row by row, as the collected rows.  A metric the library
    does not have, or a rule that needs ``docno=`` (trec_eval's ties), is
    a ``ValueError`` raised by this call.  None: this library's rules.""",
}

#: Paragraphs of the CTR metrics (log loss, NE, PCOC, ECE).
CTR_DOCS = {
    "y_true_ctr": """\
y_true : array-like of shape (n_samples,) or (n_queries, n_items)
    Binary labels (clicks): 0/1, booleans, or -1/1 (1 positive), as
    :func:`sklearn.metrics.roc_auc_score` reads them.""",
    "y_prob": """\
y_prob : array-like of the shape of y_true
    Predicted probabilities of the positive class, in [0, 1] (NaN or a
    value outside is a ``ValueError``).  Clipped to ``[eps, 1 - eps]``
    (``eps`` the machine epsilon of their float type) where a logarithm is
    taken, as :func:`sklearn.metrics.log_loss` does.""",
    "groups_ctr": """\
groups : array-like of shape (n_samples,), default=None
    Group (user, segment) of each row for 1-D input; None: one group.  Must
    be None for 2-D input, whose rows are the groups.""",
    "sample_weight_item": """\
sample_weight : array-like of shape (n_samples,), default=None
    Row weights (impressions), as in the scikit-learn function without
    groups; 2-D input: one weight per row (group), given to its items.""",
    "negative_sampling_rate": """\
negative_sampling_rate : float in (0, 1], default=None
    The share of negatives kept when the training data were down-sampled:
    the probabilities are first recalibrated to the full data,
    ``p' = p / (p + (1 - p) / r)``, then the metric is computed on ``p'``
    (the same rule in every function, report and accumulator that takes
    it).  None: no recalibration.""",
    "pos_label_ctr": """\
pos_label : int, float, bool or str, default=None
    The label of the positive class (then ``y_true`` may hold any two
    labels, strings included).""",
    "pos_label_door": """\
pos_label : int, float, bool or str, default=None
    The label of the positive class: the rows whose ``y_true`` equals it are
    relevant (``y_true`` may then hold any two labels, strings included).
    None: ``y_true`` holds relevance grades, or labels read as every
    function reads them (booleans as 0/1, ``{-1, 1}`` with ``1``
    relevant).""",
    "exposure_columns": """\
samples : array-like of shape (n_rows,), default=None
    The sampled ranking of its group each row is in, for the exposure
    metrics (``"expected_exposure"``, ``"awrf"``; see
    :func:`~sklearn_rankeval.expected_exposure_score`); the other metrics do
    not read it.
items : array-like of shape (n_rows,), default=None
    The item each row shows (the exposure metrics; needed with ``samples``).
item_groups : array-like of shape (n_rows,) or (n_rows, n_dimensions), \
default=None
    The group of each row's item (the exposure metrics; 2-D: one group per
    dimension).""",
    "intent_weights_report": """\
intent_weights : array-like of shape (n_intents,) or (n_rows, n_intents), \
default=None
    The probability ``P(i | q)`` of each intent, for the diversity metrics
    (2-D ``y_true`` of grades per intent; see
    :func:`~sklearn_rankeval.alpha_ndcg_score`): one vector for every group,
    or one per row, constant within each group; the other metrics do not
    read it.""",
    "average_ctr": """\
average : {'micro', 'macro', 'weighted'} or None, default='micro'
    ``'micro'``: every row pooled, the metric of all rows at once (the groups
    do not matter).  ``'macro'``: the mean over groups of each group's value.
    ``'weighted'``: the same weighted by each group's total sample weight.
    None: an ndarray of one value per group, in the sorted order of the
    unique ids; :func:`~sklearn_rankeval.per_group_scores` gives them keyed by
    id.  Without ``groups`` every average is the micro one.""",
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


def _quoted(names):
    return ", ".join(f'``"{name}"``' for name in names)


def _body(text, indent="    "):
    return textwrap.fill(text, width=76, initial_indent=indent,
                         subsequent_indent=indent, break_on_hyphens=False)


def registry_docs():
    """The paragraphs that list names, generated from the registry.

    ``metrics_report``: the ``metrics`` parameter of the report, the per-group
    frame and the accumulator (every registry metric, the defaults);
    ``scorer_name``: the ``name`` parameter of ``get_scorer``;
    ``scorer_names_returned``: what ``get_scorer_names`` returns;
    ``convention_header``: the first line of a ``convention`` parameter.
    """
    from ._registry import CLASSIFICATION, CUTOFFS_LISTED, DEFAULT_METRICS, METRICS

    def names(scorers_only):
        specs = [(s.scorer_name if scorers_only else n, s)
                 for n, s in METRICS.items() if s.scorer or not scorers_only]
        plain = [n for n, s in specs if not s.has_k or s.k_default is None]
        cut = [f"{n}@K" for n, s in specs if s.has_k]
        return plain, cut

    plain, cut = names(False)
    scorer_plain, scorer_cut = names(True)
    return {
        "metrics_report": "metrics : list of str, default=None\n" + _body(
            f"Metric names as the scorer names: {_quoted(plain)}, and "
            f"{_quoted(cut)} for any positive integer K; or ir_measures' "
            "names (``\"nDCG@10\"``, ``\"P(rel=2)@5\"``, ``\"AP@100\"`` "
            "...: :ref:`ir-measures-names`).  None: "
            f"{_quoted(DEFAULT_METRICS)}."),
        "scorer_name": "name : str\n" + _body(
            f"{_quoted([*scorer_plain, *CLASSIFICATION])}, or a cutoff name "
            f"{_quoted(scorer_cut)} for any positive integer K; or a name of "
            ":func:`sklearn.metrics.get_scorer_names` (``\"roc_auc\"``, "
            "``\"accuracy\"`` ...); or an ir_measures name (``\"nDCG@10\"``, "
            "``\"P(rel=2)@5\"`` ...: :ref:`ir-measures-names`).  A ranking "
            "metric's name may start with a "
            "convention and a colon: ``\"lightgbm:ndcg@10\"``, "
            "``\"trec_eval:map\"``."),
        "scorer_names_returned": "names : list of str\n" + _body(
            f"The metric names ({_quoted([*scorer_plain, *CLASSIFICATION])}) and the "
            f"cutoff names {_quoted(scorer_cut)} with K in "
            f"{', '.join(map(str, CUTOFFS_LISTED))} (any positive K is accepted "
            "by :func:`get_scorer`)."),
        "convention_header": CONVENTION_HEADER,
    }


def fill_doc(func):
    """Substitute the shared paragraphs (:data:`SHARED_DOCS`, :func:`registry_docs`)."""
    return substitute_doc(func, {**SHARED_DOCS, **MORE_DOCS, **CTR_DOCS, **ENGINE_DOCS,
                                 **DIVERSITY_DOCS,
                                 **registry_docs()})
