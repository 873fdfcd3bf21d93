"""``retrieval_report``: a run against its qrels, as frames, by name.

frames (:mod:`._frames`: read and checked once) -> the convention's rules
(:mod:`._presets`) -> hygiene and the long layout (:mod:`._hygiene`) -> the
one pipeline (``_metrics.evaluate``: the input door ``check_inputs``, the
engine, the kernels) once per tie rule and relevance -> each metric's mean
over its queries, rounded as its tool rounds -> the report's shape
(``_reports.format_report``).  With ``judges=``, :mod:`._judges` adds the
expected value over the judges' labels and its interval.
"""

from numbers import Integral

import numpy as np

from .._core import Interval, InvalidArgumentError, check_option, declared
from .._metrics import fill_doc
from .._reports import format_report
from .._stats import (
    bootstrap_intervals,
    check_confidence,
    check_n_resamples,
    check_random_state,
    percentile_interval,
)
from ._compute import per_query, query_subset
from ._frames import check_columns, read_frames
from ._hygiene import build_layout
from ._judges import judge_report, judged_summaries
from ._presets import EXCLUDE_SELF, check_labels, hole_rule, plan, tie_rule

__all__ = ["retrieval_report"]

UNJUDGED = ("zero", "drop", "report")
DUPLICATES = ("first", "error")
AGGREGATES = ("max", "first", "sum")
OUTPUTS = ("dict", "frame", "text")
#: ``n_draws``: the draws of the judges' labels, an integer >= 1.
check_n_draws = declared("n_draws", Interval(Integral, 1, None), convert=int,
                         text="a positive integer")


def _report_holes(rules, convention, queries):
    """``unjudged="report"``: a ``hole@K`` beside each cutoff asked for."""
    names = {r.name for r in rules}
    more = []
    for rule in rules:
        k = rule.options.get("k")
        if rule.relevance == "labels" and k is not None and not rule.top_of_run:
            name = f"hole@{k}"
            if name not in names:
                names.add(name)
                more.append(hole_rule(name, convention, tie_rule(convention),
                                      queries))
    return rules + more


def summarize(results, layout, convention, *, confidence=None, n_resamples=1000,
              rng=None):
    """``{name: (value, n_queries[, ci_low, ci_high])}`` of each rule."""
    out = {}
    n_qrels = int(layout.judged_query.sum())
    for name, (part, info, spec, rule) in results.items():
        index = query_subset(rule, layout, info)
        part, sub = part.take(index), info.take(index)
        average = "macro" if convention is not None else spec.default_average
        value = float(spec.aggregate(part, sub, average=average))
        scale = 1.0
        if rule.divide_by == "qrels":  # BEIR: a sum over len(qrels)
            scale = int(part.defined.sum()) / max(n_qrels, 1)
        value *= scale
        row = [value, int(part.defined.sum())]
        if confidence is not None:
            if average == spec.default_average:
                low, high = bootstrap_intervals(
                    sub, {name: part}, [(name, spec, None)],
                    confidence=confidence, n_resamples=n_resamples,
                    rng=rng)[name]
            else:
                low, high = _macro_interval(part, confidence, n_resamples, rng)
            row += [low * scale, high * scale]
        if rule.digits is not None:
            row = [round(v, rule.digits) if i != 1 else v
                   for i, v in enumerate(row)]
        out[name] = tuple(row)
    return out


def _macro_interval(part, confidence, n_resamples, rng):
    values = np.asarray(part.value, dtype=np.float64)[np.asarray(part.defined)]
    if not len(values):
        return float("nan"), float("nan")
    draws = rng.integers(0, len(values), size=(n_resamples, len(values)))
    low, high = percentile_interval(values[draws].mean(axis=1), confidence)
    return float(low), float(high)


def _check_lists(convention, rules, layout, labels, repeated):
    """What a harness cannot compute is refused, with its reason."""
    if convention in ("beir", "mteb") and any(
            rule.spec.name == "mrr" for rule in rules):
        lost = np.flatnonzero(layout.run_query & ~layout.judged_query)
        if len(lost):
            tool = "BEIR's custom_metrics.mrr" if convention == "beir" else (
                "mteb's mrr")
            raise InvalidArgumentError(
                "run", f"has query {layout.queries[lost[0]]!r}, which the qrels "
                       f"do not judge, and {tool} reads qrels[query] for every "
                       f"query of the run (a KeyError): leave such queries out "
                       f"of the run.")
    if convention != "llamaindex":
        return
    if repeated:
        raise InvalidArgumentError(
            "run", "repeats a document within a query, and llama_index counts "
                   "a repeated id at each of its ranks (AP and NDCG count it "
                   "twice, precision's denominator is the set of ids): "
                   "convention='llamaindex' cannot be reproduced with "
                   "duplicates='first'. Deduplicate the run first.")
    rel = np.where(layout.judged, labels[np.maximum(layout.qrow, 0)], 0.0) > 0
    has = np.bincount(layout.groups, weights=rel, minlength=len(layout.queries))
    bad = np.flatnonzero(layout.run_query & layout.judged_query & (has == 0))
    if len(bad):
        raise InvalidArgumentError(
            "qrels", f"has no relevant document for query "
                     f"{layout.queries[bad[0]]!r}, and llama_index's metrics "
                     f"raise 'Retrieved ids and expected ids must be provided' "
                     f"for it: leave such queries out of the run or use "
                     f"another convention.")


@fill_doc
def retrieval_report(run, qrels, *, metrics, convention=None, unjudged="zero",
                     duplicates="first", exclude_self=None, aggregate=None,
                     doc_ids=None, judges=None, complete=False, columns=None,
                     output="dict", digits=4, confidence=None, n_resamples=1000,
                     n_draws=200, random_state=None):
    """Evaluate a retrieval run against its qrels, as RAG harnesses do.

    The run and the qrels are the frames that retrieval tools pass around:
    ``(query_id, doc_id, score)`` and ``(query_id, doc_id, relevance)``.  The
    run is cleaned as asked (chunks to documents, identical ids, repeated
    documents, unjudged documents), joined to the qrels, and every metric is
    computed by the one pipeline of the metric functions, from one ranking
    per tie rule.  ``convention=`` gives a harness's number instead of this
    library's: its denominators, tie rule, rounding and identical-id rule.

    Read more in the :ref:`User Guide <retrieval>`.

    Parameters
    ----------
    run : pandas.DataFrame
        One row per retrieved document: query id, document (or chunk) id
        and score (higher first).  Ids are integers or strings.  A dict of
        columns, or an iterable of named tuples (ir_datasets'
        ``scoreddocs_iter()``), is read as a frame.
    qrels : pandas.DataFrame
        One row per judgment: query id, document id and relevance (a real
        number ``>= 0``, e.g. an LLM judge's grade), or several judge
        columns (``judges=``).  A judged pair listed twice must carry one
        label.
    metrics : str or list of str
        Metric names as everywhere (``"ndcg@10"``, ``"mrr@10"``,
        ``"recall@1000"``, ir_measures' ``"nDCG@10"``), plus
        ``"judged@K"`` (the share of the top ``K`` with a judgment, over
        ``min(K, retrieved)`` as ir_measures' ``Judged@K``) and
        ``"hole@K"`` (the share without one).  Under ``"llamaindex"`` and
        ``"ragas"``, the tool's metric names (see
        :ref:`retrieval-conventions`).
    convention : {'trec_eval', 'beir', 'mteb', 'llamaindex', 'ragas'}, \
default=None
        A harness's number.  A rule the harness has that cannot be
        reproduced, or a metric it does not have, is a ``ValueError`` that
        says why.  None: this library's rules (ties: the expected value
        over the orders of tied documents; a query without a relevant
        document is left out, with a warning).
    unjudged : {'zero', 'drop', 'report'}, default='zero'
        A retrieved document without a judgment is not relevant
        (``"zero"``), is removed from the run before ranking (``"drop"``,
        as ir_measures' ``judged_only`` and trec_eval's ``-J``), or is not
        relevant and the report adds ``hole@K`` beside each cutoff
        (``"report"``).
    duplicates : {'first', 'error'}, default='first'
        A document a query's run lists twice counts once, at its best rank
        (``"first"``: nDCG stays <= 1), or is an error.
    exclude_self : bool, default=None
        Remove from the run each document whose id equals its query's id
        (BEIR's ``ignore_identical_ids``).  None: the convention's rule
        (True under ``"beir"``), else False.
    aggregate : {'max', 'first', 'sum'}, default=None
        With ``doc_ids``: a document's score from its chunks' scores: their
        maximum (MaxP), the score of its first chunk in ``doc_ids``' order
        among those retrieved (FirstP) or their sum.  None: ``"max"``.
    doc_ids : dict or pandas.Series, default=None
        The document of each chunk id of the run (chunk -> document); the
        qrels judge documents.
    judges : list of str, default=None
        Several judge columns of ``qrels`` (one label sample per judge, e.g.
        repeated LLM judgments): each metric is reported as its expected
        value over the labels' uncertainty (each judged document's label
        drawn from its samples), with a judge-noise interval at
        ``confidence`` (0.95 if not given) beside the query bootstrap.
    complete : bool, default=False
        Average over every query of the qrels, a query without results
        counting 0 (trec_eval's ``-c``); False: the queries of the run that
        have judgments.
    columns : dict, default=None
        The frames' column names, by role: ``{"query_id": ..., "doc_id":
        ..., "score": ..., "relevance": ...}``.  A role not given keeps its
        name, or, if the frame lacks it, PyTerrier's (``qid``, ``docno``,
        ``label``) or another common one (``q_id``, ``docid``, a qrels
        ``score``).
    output : {'dict', 'frame', 'text'}, default='dict'
        ``{metric: value}`` (or ``{metric: {"value", "ci_low", "ci_high",
        ...}}`` with intervals), a tidy DataFrame, or a text table.
    digits : int, default=4
        Decimals of the text table.
    confidence : float, default=None
        Level of a percentile bootstrap interval over the queries.
    n_resamples : int, default=1000
        Bootstrap resamples (with ``confidence``).
    n_draws : int, default=200
        Draws of the judges' labels (with ``judges``).
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the resamples and the draws.

    Returns
    -------
    report : dict, pandas.DataFrame or str

    See Also
    --------
    ranking_report : The same metrics on arrays.

    Notes
    -----
    The queries evaluated are those of the run that have judgments (as
    trec_eval); a run query without any judgment is ignored.  A relevant
    document the run did not retrieve counts in recall's and nDCG's ideal.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation
       of IR techniques", ACM TOIS 20(4), 2002.
    .. [2] Z. Dai and J. Callan, "Deeper text understanding for IR with
       contextual neural language modeling", SIGIR 2019 (MaxP, FirstP).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_rankeval import retrieval_report
    >>> run = pd.DataFrame({"query_id": ["q1", "q1", "q1", "q2", "q2"],
    ...                     "doc_id": ["a", "b", "c", "a", "d"],
    ...                     "score": [0.9, 0.8, 0.8, 0.7, 0.6]})
    >>> qrels = pd.DataFrame({"query_id": ["q1", "q1", "q2"],
    ...                       "doc_id": ["b", "e", "d"],
    ...                       "relevance": [1.0, 0.5, 1.0]})
    >>> # q1: "b" ties with "c" at ranks 2-3 (1/2 or 1/3: 5/12 expected),
    >>> # "e" is not retrieved; q2: "d" at rank 2
    >>> retrieval_report(run, qrels, metrics=["mrr@10", "recall@2"])
    {'mrr@10': 0.4583333333333333, 'recall@2': 0.625}
    >>> # trec_eval breaks the tie by decreasing document id: "c" before "b"
    >>> qrels_int = qrels.assign(relevance=[1, 1, 1])
    >>> retrieval_report(run, qrels_int, metrics=["mrr@10", "recall@2"],
    ...                  convention="trec_eval")
    {'mrr@10': 0.41666666666666663, 'recall@2': 0.5}
    >>> # "a" and "c" are not judged: judged@2 is 1/4 in q1 (expected), 1/2 in q2
    >>> retrieval_report(run, qrels, metrics=["judged@2", "hole@2"])
    {'judged@2': 0.375, 'hole@2': 0.625}
    """
    check_option(unjudged, "unjudged", UNJUDGED)
    check_option(duplicates, "duplicates", DUPLICATES)
    check_option(output, "output", OUTPUTS)
    if aggregate is not None:
        check_option(aggregate, "aggregate", AGGREGATES)
        if doc_ids is None:
            raise InvalidArgumentError(
                "aggregate", "needs doc_ids=, the document of each chunk.")
    if confidence is not None:
        confidence = check_confidence(confidence)
        n_resamples = check_n_resamples(n_resamples)
    rng = check_random_state(random_state)
    columns = check_columns(columns)
    frames = read_frames(run, qrels, columns, judges)
    rules = plan(metrics, convention, complete=complete)
    queries = "qrels" if complete else "judged"
    if unjudged == "report":
        rules = _report_holes(rules, convention, queries)
    check_labels(convention, frames.labels)
    if exclude_self is None:
        exclude_self = EXCLUDE_SELF.get(convention, False)
    layout, kept = build_layout(
        frames, exclude_self=bool(exclude_self), doc_ids=doc_ids,
        aggregate=aggregate or "max", duplicates=duplicates, unjudged=unjudged,
        queries={rule.queries for rule in rules})
    labels = frames.labels[kept]
    if judges is None:
        _check_lists(convention, rules, layout, labels, layout.repeated)
        results = per_query(rules, layout, labels)
        summaries = summarize(results, layout, convention,
                              confidence=confidence, n_resamples=n_resamples,
                              rng=rng)
    else:
        _check_lists(convention, rules, layout, labels.mean(axis=1),
                     layout.repeated)
        summaries = judged_summaries(
            rules, layout, labels, convention, confidence=confidence or 0.95,
            query_interval=confidence is not None, n_resamples=n_resamples,
            n_draws=check_n_draws(n_draws), rng=rng)
        return judge_report(summaries, output, digits)
    return format_report(summaries, output, digits,
                         n_groups=int(_n_queries(rules[0], layout)))


def _n_queries(rule, layout):
    return {"judged": layout.judged_query & layout.run_query,
            "qrels": layout.judged_query, "run": layout.run_query}[
        rule.queries].sum()

