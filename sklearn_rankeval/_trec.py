"""trec_eval-compatible evaluation: the engine behind ``rankeval trec``.

Reads TREC qrels and run files, turns them into the long layout of the
metric functions, evaluates trec_eval's measures with the public metric
functions (one value per query with ``average=None``) and formats the lines
as trec_eval prints them (``measure<TAB>query|all<TAB>value``).

How a run becomes arrays, following trec_eval (``form_res_rels.c``):

* the documents of a query are sorted by score descending, ties broken by
  document id in *decreasing* ``strcmp`` order; the row of each retrieved
  document gets a distinct score from that position, so that the metric
  functions see exactly trec_eval's ranking (``-M N`` keeps the first N);
* a judged document the run did not retrieve (or that ``-M`` cut) becomes a
  row with score ``-inf`` ("not retrieved"): it counts in the number of
  relevant documents, at no rank;
* a retrieved document missing from the qrels is not relevant (gain 0);
  negative qrels values (trec_eval's "unjudged in the pool") neither;
* binary measures count relevance ``>= relevance_level`` (``-l``, default 1)
  as relevant; NDCG uses the relevance value as gain, as trec_eval does;
* the queries are those of the run that have judgments (``-c``: every
  judged query, those missing from the run retrieving nothing); a run query
  without judgments is ignored; a judged query without a relevant document
  scores 0 (``undefined=0.0``), and counts in the ``all`` mean, as in
  trec_eval.  The ``all`` line is the mean over the queries (counts: the
  sum).
"""

import math
import re
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ._engine import rank_groups
from ._io import InputFileError, iter_text_lines
from ._kernels import interpolated_precision
from ._registry import METRICS

__all__ = [
    "MEASURES",
    "TrecArrays",
    "build_arrays",
    "evaluate",
    "format_lines",
    "parse_measures",
    "read_qrels",
    "read_run",
    "results_dict",
]

#: trec_eval's default cutoffs of P, recall, ndcg_cut and map_cut.
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
#: trec_eval's default recall levels of iprec_at_recall.
LEVELS = tuple(j / 10 for j in range(11))
#: Relevance of a retrieved document absent from the qrels (trec_eval's
#: RELVALUE_NONPOOL): below every relevance level, gain 0.
_NONPOOL = -1
#: trec_eval 10 (out.test*) / trec_eval 9 (pytrec_eval) / exact levels.
RECALL_LEVEL_RULES = ("trec_eval_10", "trec_eval_9", "exact")


class TrecError(ValueError):
    """A problem with the evaluation itself (no file or line to blame)."""


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------
def _content_lines(path):
    """(line number, fields) of the non-blank, non-comment lines."""
    for lineno, text in iter_text_lines(path):
        fields = text.split()
        if fields and not fields[0].startswith("#"):
            yield lineno, fields


def read_qrels(path):
    """Read a TREC qrels file (``query iteration document relevance``).

    Parameters
    ----------
    path : str or path-like
        The file.  Blank lines and lines starting with ``#`` are skipped.

    Returns
    -------
    qrels : dict
        ``{query id: {document id: relevance (int)}}``.

    Raises
    ------
    InputFileError
        Wrong number of fields, a relevance that is not an integer, a
        document judged twice for a query, or no judgment at all.
    """
    qrels = {}
    for lineno, fields in _content_lines(path):
        if len(fields) != 4:
            raise InputFileError(
                path, f"expected 4 fields (query, iteration, document, "
                f"relevance), got {len(fields)}", line=lineno,
            )
        qid, _, docno, rel = fields
        try:
            rel = int(rel)
        except ValueError:
            raise InputFileError(
                path, f"relevance {rel!r} is not an integer", line=lineno
            ) from None
        judged = qrels.setdefault(qid, {})
        if docno in judged:
            raise InputFileError(
                path, f"document {docno!r} is judged twice for query {qid!r}",
                line=lineno,
            )
        judged[docno] = rel
    if not qrels:
        raise InputFileError(path, "empty file (no judgments)")
    return qrels


def read_run(path):
    """Read a TREC run file (``query Q0 document rank score tag``).

    Parameters
    ----------
    path : str or path-like
        The file.  The rank column is ignored (trec_eval ranks by score);
        fields after the tag are ignored; blank lines and lines starting with
        ``#`` are skipped.

    Returns
    -------
    run : dict
        ``{query id: {document id: score (float)}}``.
    run_id : str
        The tag of the last line (trec_eval's ``runid``).

    Raises
    ------
    InputFileError
        Fewer than 6 fields, a score that is not a number (or NaN), a
        document retrieved twice for a query, or no line at all.
    """
    run = {}
    run_id = None
    for lineno, fields in _content_lines(path):
        if len(fields) < 6:
            raise InputFileError(
                path, f"expected 6 fields (query, Q0, document, rank, score, "
                f"run tag), got {len(fields)}", line=lineno,
            )
        qid, docno, score = fields[0], fields[2], fields[4]
        try:
            value = float(score)
        except ValueError:
            raise InputFileError(
                path, f"score {score!r} is not a number", line=lineno
            ) from None
        if math.isnan(value):
            raise InputFileError(path, "score is NaN", line=lineno)
        docs = run.setdefault(qid, {})
        if docno in docs:
            raise InputFileError(
                path, f"document {docno!r} is retrieved twice for query {qid!r}",
                line=lineno,
            )
        docs[docno] = value
        run_id = fields[5]
    if not run:
        raise InputFileError(path, "empty file (no results)")
    return run, run_id


# ---------------------------------------------------------------------------
# arrays
# ---------------------------------------------------------------------------
@dataclass
class TrecArrays:
    """Long-layout arrays of a run, one group per query.

    Attributes
    ----------
    qids : ndarray of str
        The evaluated queries, sorted (the order of ``average=None``).
    groups : ndarray of str
        Query id of each row; rows are grouped by query, in ``qids`` order.
    y_bin : ndarray of int
        1 if the document is relevant (relevance ``>= relevance_level``).
    y_gain : ndarray of int
        NDCG gain: the relevance, 0 if negative or not judged.
    y_score : ndarray of float
        Distinct decreasing values in trec_eval's order for the retrieved
        documents, ``-inf`` for the judged documents not retrieved.
    offsets : ndarray of int, shape (n_queries + 1,)
        The rows of query ``i`` are ``offsets[i]:offsets[i + 1]``.
    num_ret, num_rel, num_rel_ret : ndarray of int, shape (n_queries,)
        Retrieved, relevant, and relevant retrieved documents per query.
    run_id : str or None
        The run's tag.
    """

    qids: np.ndarray
    groups: np.ndarray
    y_bin: np.ndarray
    y_gain: np.ndarray
    y_score: np.ndarray
    offsets: np.ndarray
    num_ret: np.ndarray
    num_rel: np.ndarray
    num_rel_ret: np.ndarray
    run_id: object = None
    _ranked: dict = field(default_factory=dict, repr=False, compare=False)

    def ranked(self, gain=False):
        """The engine's ranking of the binary (or graded) relevance, built once."""
        key = "gain" if gain else "binary"
        if key not in self._ranked:
            self._ranked[key] = rank_groups(
                self.y_gain if gain else self.y_bin, self.y_score, groups=self.groups)
        return self._ranked[key]


def trec_order(docs):
    """Document ids of ``{docno: score}`` in trec_eval's order.

    Score descending, ties by document id descending (``strcmp`` order,
    which is Python's code point order on UTF-8 text).
    """
    order = sorted(docs, reverse=True)
    order.sort(key=docs.__getitem__, reverse=True)  # stable: ties keep docno desc
    return order


def build_arrays(qrels, run, *, relevance_level=1, max_docs=None, complete=False,
                 run_id=None):
    """Long-layout arrays of a run against qrels, as trec_eval ranks it.

    Parameters
    ----------
    qrels : dict
        ``{query: {document: relevance}}`` (:func:`read_qrels`).
    run : dict
        ``{query: {document: score}}`` (:func:`read_run`).
    relevance_level : int, default=1
        Smallest relevance counted as relevant by binary measures (``-l``).
    max_docs : int, default=None
        Keep the first ``max_docs`` documents of each query (``-M``).
    complete : bool, default=False
        Evaluate every judged query, those missing from the run retrieving
        nothing (``-c``); otherwise the queries of the run that are judged.
    run_id : str, default=None
        Stored on the result.

    Returns
    -------
    arrays : TrecArrays

    Raises
    ------
    TrecError
        If no query is left to evaluate.
    """
    qids = sorted(qrels) if complete else sorted(set(qrels) & set(run))
    if not qids:
        raise TrecError("no query of the run has judgments in the qrels: "
                        "nothing to evaluate")
    rel, score, sizes = [], [], []
    num_ret = np.empty(len(qids), dtype=np.int64)
    for i, q in enumerate(qids):
        judged = qrels[q]
        ranked = trec_order(run.get(q, {}))[:max_docs]
        n = len(ranked)
        rel += [judged.get(d, _NONPOOL) for d in ranked]
        missing = sorted(judged.keys() - set(ranked))
        rel += [judged[d] for d in missing]
        score.append(np.arange(n, 0, -1, dtype=np.float64))
        score.append(np.full(len(missing), -np.inf))
        sizes.append(n + len(missing))
        num_ret[i] = n
    rel = np.asarray(rel, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    y_bin = (rel >= relevance_level).astype(np.int64)
    y_score = np.concatenate(score)
    codes = np.repeat(np.arange(len(qids)), sizes)
    retrieved = np.isfinite(y_score)
    return TrecArrays(
        qids=np.asarray(qids),
        groups=np.asarray(qids)[codes],
        y_bin=y_bin,
        y_gain=np.clip(rel, 0, None),
        y_score=y_score,
        offsets=offsets,
        num_ret=num_ret,
        num_rel=np.bincount(codes, weights=y_bin, minlength=len(qids)).astype(
            np.int64),
        num_rel_ret=np.bincount(codes, weights=y_bin * retrieved,
                                minlength=len(qids)).astype(np.int64),
        run_id=run_id,
    )


# ---------------------------------------------------------------------------
# measures: each returns one row of per-query values per parameter
# ---------------------------------------------------------------------------
def _rank(arr, metric, params, *, gain=False, **kw):
    """Per-query values of a registry metric, one row per parameter.

    Every measure is computed from the same two rankings (binary and graded
    relevance), built once per run.  Queries without a relevant document
    count 0, as in trec_eval.
    """
    from_ranked = METRICS[metric].from_ranked
    ranked = arr.ranked(gain)
    return np.array([
        from_ranked(ranked, average=None, undefined=0.0,
                    **({} if p is None else {"k": p}), **kw)
        for p in params
    ], dtype=np.float64)


def _counts(attr):
    return lambda arr, params, opts: getattr(arr, attr)[None, :].astype(np.float64)


def _map(arr, params, opts):
    return _rank(arr, "map", params)


def _map_cut(arr, params, opts):
    return _rank(arr, "map", params, k_denominator="relevant")


def _recip_rank(arr, params, opts):
    return _rank(arr, "mrr", params)


def _precision(arr, params, opts):
    return _rank(arr, "precision", params)


def _recall(arr, params, opts):
    return _rank(arr, "recall", params)


def _ndcg(arr, params, opts):
    return _rank(arr, "ndcg", params, gain=True)


def _11pt_avg(arr, params, opts):
    return _rank(arr, "interpolated_ap", params, n_points=11,
                 recall_levels=opts["recall_levels"])


def _gauc(arr, params, opts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        values = METRICS["gauc"].from_ranked(arr.ranked(), average=None)
    return values[None, :]


def _level_grid(levels):
    """(n_points, indices) of a grid 0, 1/(n-1), ..., 1 holding ``levels``."""
    for n_points in (11, 5, 101):
        idx = np.round(np.asarray(levels) * (n_points - 1)).astype(int)
        if np.allclose(idx / (n_points - 1), levels, rtol=0, atol=1e-12):
            return n_points, idx
    raise TrecError(f"recall levels must have at most 2 decimals, got {levels}")


def _iprec_per_query(arr, params, opts):
    """Interpolated precision at each level, per query, for all queries at once."""
    n_points, idx = _level_grid(params)
    iprec, defined = interpolated_precision(arr.ranked(), n_points,
                                            opts["recall_levels"])
    # queries without a relevant document: 0, as in trec_eval
    return np.where(defined[:, None], iprec, 0.0)[:, idx].T


def _iprec_all(arr, params, opts):
    """Mean over queries of the interpolated precision, from one grouped call."""
    return _iprec_per_query(arr, params, opts).mean(axis=1)


@dataclass(frozen=True)
class TrecMeasure:
    """A trec_eval measure and how it is computed.

    Attributes
    ----------
    name : str
        trec_eval's name (``"P"``, ``"map_cut"``, ...).
    kind : {"float", "count", "text"}
        Printed with ``--digits`` decimals, as an integer, or as text.
    param : {None, "cutoff", "level"}
        The kind of parameter, printed as ``name_K`` / ``name_0.10``.
    defaults : tuple
        The parameters used when none is given (trec_eval's).
    per_query : callable or None
        ``per_query(arrays, params, options) -> ndarray (n_params, n_queries)``;
        None: an ``all``-only value (``runid``, ``num_q``).
    all_only : callable or None
        ``all_only(arrays, params, options) -> sequence (n_params,)``: the
        ``all`` values without the per-query ones (the only way for an
        ``all``-only measure, a faster one for ``iprec_at_recall``).
    description : str
    """

    name: str
    kind: str
    param: object
    defaults: tuple
    per_query: object
    all_only: object = None
    description: str = ""

    def label(self, p):
        """The printed name of the measure with parameter ``p``."""
        if p is None:
            return self.name
        if self.param == "level":
            return f"{self.name}_{p:.2f}"
        return f"{self.name}_{p}"


_NONE = (None,)

#: trec_eval's measures, in trec_eval's printing order, plus ``gauc``.
MEASURES = {
    m.name: m
    for m in [
        TrecMeasure("runid", "text", None, _NONE, None,
                    all_only=lambda arr, params, opts: [arr.run_id or "unknown"],
                    description="the run's tag"),
        TrecMeasure("num_q", "count", None, _NONE, None,
                    all_only=lambda arr, params, opts: [len(arr.qids)],
                    description="number of queries evaluated"),
        TrecMeasure("num_ret", "count", None, _NONE, _counts("num_ret"),
                    description="retrieved documents"),
        TrecMeasure("num_rel", "count", None, _NONE, _counts("num_rel"),
                    description="relevant documents"),
        TrecMeasure("num_rel_ret", "count", None, _NONE, _counts("num_rel_ret"),
                    description="relevant documents retrieved"),
        TrecMeasure("map", "float", None, _NONE, _map,
                    description="mean average precision"),
        TrecMeasure("recip_rank", "float", None, _NONE, _recip_rank,
                    description="reciprocal rank of the first relevant document"),
        TrecMeasure("iprec_at_recall", "float", "level", LEVELS, _iprec_per_query,
                    all_only=_iprec_all,
                    description="interpolated precision at recall levels"),
        TrecMeasure("P", "float", "cutoff", CUTOFFS, _precision,
                    description="precision at cutoffs"),
        TrecMeasure("recall", "float", "cutoff", CUTOFFS, _recall,
                    description="recall at cutoffs"),
        TrecMeasure("11pt_avg", "float", None, _NONE, _11pt_avg,
                    description="11-point interpolated average precision"),
        TrecMeasure("ndcg", "float", None, _NONE, _ndcg,
                    description="NDCG over the whole ranking"),
        TrecMeasure("ndcg_cut", "float", "cutoff", CUTOFFS, _ndcg,
                    description="NDCG at cutoffs"),
        TrecMeasure("map_cut", "float", "cutoff", CUTOFFS, _map_cut,
                    description="average precision at cutoffs (divided by R)"),
        TrecMeasure("gauc", "float", None, _NONE, _gauc,
                    description="ROC AUC within each query (not trec_eval's); "
                                "queries with one class only are left out"),
    ]
}
_ALL_NAMES = ("all_trec", "all")
_SUFFIXED = re.compile(r"(.+?)_([0-9]*\.?[0-9]+)")


def _parse_params(measure, text, spec):
    params = []
    for item in text.split(","):
        item = item.strip()
        try:
            value = int(item) if measure.param == "cutoff" else float(item)
        except ValueError:
            value = None
        if measure.param == "cutoff" and (value is None or value < 1):
            raise TrecError(f"measure {spec!r}: cutoff {item!r} is not a "
                            f"positive integer")
        if measure.param == "level":
            if value is None or not 0.0 <= value <= 1.0:
                raise TrecError(f"measure {spec!r}: recall level {item!r} is "
                                f"not a number in [0, 1]")
            if abs(value * 100 - round(value * 100)) > 1e-9:
                raise TrecError(f"measure {spec!r}: recall level {item!r} has "
                                f"more than 2 decimals")
        params.append(value)
    return params


def parse_measures(specs):
    """Measures and parameters from ``-m`` values, in trec_eval's order.

    Parameters
    ----------
    specs : list of str or None
        trec_eval's syntax: ``"map"``, ``"P"`` (default cutoffs),
        ``"P.5,10"`` (parameters after a dot), and also the printed names
        ``"P_5"``, ``"iprec_at_recall_0.10"``; ``"all_trec"`` selects every
        measure.  None or empty: every measure.

    Returns
    -------
    selected : list of (TrecMeasure, tuple)
        Each selected measure once, with its sorted parameters.

    Raises
    ------
    TrecError
        For an unknown measure or a bad parameter.
    """
    chosen = {}
    for spec in specs or _ALL_NAMES[:1]:
        if spec in _ALL_NAMES:
            for m in MEASURES.values():
                chosen.setdefault(m.name, set()).update(m.defaults)
            continue
        name, params = spec, None
        if name not in MEASURES:
            match = _SUFFIXED.fullmatch(spec)
            if match and match.group(1) in MEASURES:
                name, params = match.group(1), match.group(2)
            else:
                name, _, params = spec.partition(".")
        measure = MEASURES.get(name)
        if measure is None:
            raise TrecError(
                f"unknown measure {spec!r}; the measures are "
                f"{', '.join(MEASURES)} (parameters as in P.5,10), or all_trec"
            )
        if params is None:
            values = measure.defaults
        elif measure.param is None:
            raise TrecError(f"measure {name!r} takes no parameter, got {spec!r}")
        else:
            values = _parse_params(measure, params, spec)
        chosen.setdefault(name, set()).update(values)
    return [
        (m, tuple(sorted(chosen[m.name], key=lambda p: -1 if p is None else p)))
        for m in MEASURES.values() if m.name in chosen
    ]


# ---------------------------------------------------------------------------
# evaluation and output
# ---------------------------------------------------------------------------
def evaluate(arrays, measures, *, per_query=False, recall_levels="trec_eval_10"):
    """Evaluate measures on a run's arrays.

    Parameters
    ----------
    arrays : TrecArrays
        From :func:`build_arrays`.
    measures : list of (TrecMeasure, tuple)
        From :func:`parse_measures`.
    per_query : bool, default=False
        Whether to return the per-query values (``-q``).
    recall_levels : {"trec_eval_10", "trec_eval_9", "exact"}, \
            default="trec_eval_10"
        When a recall level is reached, for ``iprec_at_recall`` and
        ``11pt_avg``: after ``lround(l * R)`` relevant documents as trec_eval
        10 (its test files ``out.test*``), after ``int(l * R + 0.9)`` as
        trec_eval 9 (pytrec_eval), or after ``ceil(l * R)``.

    Returns
    -------
    rows : list of (str, str, ndarray or None, object)
        ``(printed name, kind, per-query values in arrays.qids order or
        None, all value)``.  NaN marks a query (or an ``all``) without a
        value (``gauc`` of a query with one class only).
    """
    if recall_levels not in RECALL_LEVEL_RULES:
        raise TrecError(f"recall_levels must be one of {RECALL_LEVEL_RULES}, "
                        f"got {recall_levels!r}")
    opts = {"recall_levels": recall_levels}
    rows = []
    for measure, params in measures:
        if measure.per_query is None or (not per_query
                                         and measure.all_only is not None):
            values = measure.all_only(arrays, params, opts)
            rows += [(measure.label(p), measure.kind, None, v)
                     for p, v in zip(params, values)]
            continue
        values = measure.per_query(arrays, params, opts)
        for p, v in zip(params, values):
            if measure.kind == "count":
                total = int(v.sum())
            elif np.isnan(v).all():
                total = np.nan
            else:
                total = float(np.nanmean(v))
            rows.append((measure.label(p), measure.kind,
                         v if per_query else None, total))
    return rows


def results_dict(arrays, rows):
    """``{query id or "all": {measure: value}}``, as pytrec_eval returns.

    Parameters
    ----------
    arrays : TrecArrays
    rows : list
        From :func:`evaluate`.

    Returns
    -------
    results : dict
        Values that are NaN are left out.
    """
    out = {"all": {}}
    for name, _, per_query, total in rows:
        if per_query is not None:
            for q, v in zip(arrays.qids, per_query):
                if not np.isnan(v):
                    out.setdefault(str(q), {})[name] = float(v)
        if isinstance(total, str) or not np.isnan(total):
            out["all"][name] = total
    return out


def _format(kind, value, digits):
    if kind == "text":
        return str(value)
    if kind == "count":
        return str(int(value))
    return f"{value:.{digits}f}"


def format_lines(arrays, rows, *, digits=4):
    """trec_eval's output lines: per query (if computed), then ``all``.

    Parameters
    ----------
    arrays : TrecArrays
    rows : list
        From :func:`evaluate`.
    digits : int, default=4
        Decimals of the real values (trec_eval prints 4).

    Returns
    -------
    lines : list of str
        ``f"{measure:<22}\\t{query}\\t{value}"``; values that are NaN
        (``gauc`` of a query with one class only) are not printed.
    """
    lines = []
    per_query_rows = [r for r in rows if r[2] is not None]
    for i, q in enumerate(arrays.qids):
        for name, kind, per_query, _ in per_query_rows:
            if not np.isnan(per_query[i]):
                lines.append(f"{name:<22s}\t{q}\t"
                             f"{_format(kind, per_query[i], digits)}")
    for name, kind, _, total in rows:
        if isinstance(total, str) or not np.isnan(total):
            lines.append(f"{name:<22s}\tall\t{_format(kind, total, digits)}")
    return lines
