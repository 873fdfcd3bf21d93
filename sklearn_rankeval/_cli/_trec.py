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
from functools import cmp_to_key
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from .._engine import rank_groups
from .._kernels import interpolated_precision, recall_level_cutoffs
from .._registry import METRICS, drop_unjudged
from ._io import InputFileError, iter_text_lines

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
#: Relevance of a retrieved document judged with a negative value (trec_eval's
#: RELVALUE_UNJUDGED: in the pool, not judged).
_UNJUDGED = -2
#: trec_eval's floor of the values of a geometric mean (MIN_GEO_MEAN).
MIN_GEO_MEAN = 1e-5
#: trec_eval's INFAP_EPSILON.
INFAP_EPSILON = 1e-5
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
    rel : ndarray of int or None
        The qrels value of each row (-1: retrieved, not in the qrels; -2:
        retrieved, in the qrels with a negative value, i.e. unjudged).
    relevance_level : int
    complete : bool
        Whether every judged query is evaluated (``-c``).
    judged_only : bool
        Whether the unjudged retrieved documents were removed (``-J``).
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
    rel: object = None
    relevance_level: int = 1
    complete: bool = False
    judged_only: bool = False
    _ranked: dict = field(default_factory=dict, repr=False, compare=False)

    def ranked(self, gain=False):
        """The engine's ranking of the binary (or graded) relevance, built once."""
        key = "gain" if gain else "binary"
        if key not in self._ranked:
            self._ranked[key] = rank_groups(
                self.y_gain if gain else self.y_bin, self.y_score, groups=self.groups)
        return self._ranked[key]

    def ranked_judged(self):
        """The engine's ranking of the judged rows only (bpref)."""
        if "judged" not in self._ranked:
            y, s, g, _ = drop_unjudged(self.y_bin, self.y_score, self.groups, None,
                                       self.rel >= 0)
            self._ranked["judged"] = rank_groups(y, s, groups=g)
        return self._ranked["judged"]

    def retrieved(self):
        """(query index, 0-based rank, qrels value) of every retrieved row."""
        if "retrieved" not in self._ranked:
            codes = np.repeat(np.arange(len(self.qids)), np.diff(self.offsets))
            rows = np.flatnonzero(np.isfinite(self.y_score))
            code = codes[rows]
            self._ranked["retrieved"] = (code, rows - self.offsets[code],
                                         self.rel[rows])
        return self._ranked["retrieved"]


def trec_order(docs):
    """Document ids of ``{docno: score}`` in trec_eval's order.

    Score descending, ties by document id descending (``strcmp`` order,
    which is Python's code point order on UTF-8 text).
    """
    order = sorted(docs, reverse=True)
    order.sort(key=docs.__getitem__, reverse=True)  # stable: ties keep docno desc
    return order


def build_arrays(qrels, run, *, relevance_level=1, max_docs=None, complete=False,
                 run_id=None, judged_only=False):
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
    judged_only : bool, default=False
        Remove the retrieved documents that are not judged (absent from the
        qrels or judged with a negative value) before ranking, after
        ``max_docs`` (``-J``, as trec_eval).

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
        if judged_only:
            ranked = [d for d in ranked if judged.get(d, -1) >= 0]
        n = len(ranked)
        rel += [_UNJUDGED if judged.get(d, 0) < 0 else judged.get(d, _NONPOOL)
                for d in ranked]
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
        rel=rel,
        relevance_level=relevance_level,
        complete=complete,
        judged_only=judged_only,
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
    iprec = np.where(defined[:, None], iprec, 0.0)[:, idx]
    return np.where(_zero_over_zero(arr, n_points, opts)[:, idx], np.nan, iprec).T


def _zero_over_zero(arr, n_points, opts):
    """Where trec_eval's interpolated precision is 0/0, (n_queries, n_points).

    trec_eval (``m_iprec_at_recall.c``, ``m_11pt_avg.c``) starts from the
    precision ``num_rel_ret / num_ret`` and gives it to every level needing
    no more than ``num_rel_ret`` relevant documents: with ``-J`` a query can
    be left without any document (``form_res_rels.c``), and then the levels
    needing none (``cutoff == 0``) get 0/0, NaN, printed ``-nan``.  (Without
    ``-J`` a query missing from the run is evaluated on a one-document dummy
    ranking, ``trec_eval.c``, so it gets 0.)
    """
    empty = arr.judged_only & (arr.num_ret == 0)
    cut = recall_level_cutoffs(np, arr.num_rel, n_points, opts["recall_levels"])
    return empty[:, None] & (cut == 0)


def _iprec_all(arr, params, opts):
    """Mean over queries of the interpolated precision, from one grouped call."""
    return _iprec_per_query(arr, params, opts).mean(axis=1)


def _r_precision(arr, params, opts):
    return _rank(arr, "r_precision", params)


def _success(arr, params, opts):
    return _rank(arr, "success", params)


def _bpref(arr, params, opts):
    """bpref on the judged documents only (trec_eval skips the others)."""
    values = METRICS["bpref"].from_ranked(arr.ranked_judged(), average=None,
                                          undefined=0.0)
    return values[None, :]


def _geometric(per_query):
    """trec_eval's geometric mean: exp(mean(log(max(value, 1e-5))))."""
    def all_only(arr, params, opts):
        values = per_query(arr, params, opts)
        return np.exp(np.log(np.maximum(values, MIN_GEO_MEAN)).mean(axis=1))

    return all_only


def _per_query_sum(arr, code, weights):
    return np.bincount(code, weights=weights, minlength=len(arr.qids))


def _infap(arr, params, opts):
    """Inferred AP (Yilmaz & Aslam), as trec_eval's ``infAP``."""
    code, pos, rel = arr.retrieved()
    level = arr.relevance_level
    is_rel = rel >= level
    is_non = (rel >= 0) & (rel < level)
    is_unj = rel == _UNJUDGED

    def before(flag):  # count of flagged rows ranked above, within the query
        cum = np.cumsum(flag, dtype=np.int64)
        start = np.searchsorted(code, code, side="left")
        return cum - flag - (cum[start] - flag[start])

    rel_b, non_b, unj_b = before(is_rel), before(is_non), before(is_unj)
    j = pos.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (1.0 / (j + 1.0) + (j / (j + 1.0))
                * ((rel_b + non_b + unj_b) / j)
                * ((rel_b + INFAP_EPSILON) / (rel_b + non_b + 2 * INFAP_EPSILON)))
    term = np.where(pos == 0, 1.0, term)
    total = _per_query_sum(arr, code, np.where(is_rel, term, 0.0))
    return _safe_div(total, arr.num_rel)[None, :]


def _safe_div(num, den):
    num = np.asarray(num, dtype=np.float64)
    return np.divide(num, den, out=np.zeros_like(num), where=np.asarray(den) > 0)


def _hits_within(arr, cut):
    """Relevant retrieved documents ranked within ``cut[query]``."""
    code, pos, rel = arr.retrieved()
    inside = (rel >= arr.relevance_level) & (pos < np.asarray(cut)[code])
    return _per_query_sum(arr, code, inside)


def _rprec_mult(arr, params, opts):
    out = []
    for mult in params:
        cut = np.floor(mult * arr.num_rel + 0.9).astype(np.int64)
        out.append(_safe_div(_hits_within(arr, cut), cut))
    return np.array(out)


def _coefficients(text, n, default):
    if text is None:
        return default
    values = [float(v) for v in text.split(",")]
    if len(values) != n:
        raise TrecError(f"expected {n} comma-separated numbers, got {text!r}")
    return values


def _utility(arr, params, opts):
    out = []
    for text in params:
        a, b, c, d = _coefficients(text, 4, (1.0, -1.0, 0.0, 0.0))
        rr, ret, rel = arr.num_rel_ret, arr.num_ret, arr.num_rel
        out.append(a * rr + b * (ret - rr) + c * (rel - rr)
                   + d * (opts["num_docs"] + rr - ret - rel))  # -N, default 0
    return np.array(out, dtype=np.float64)


def _11pt_avg_levels(arr, params, opts):
    out = []
    for text in params:
        if text is None:
            values = _rank(arr, "interpolated_ap", _NONE, n_points=11,
                           recall_levels=opts["recall_levels"])[0]
            # level 0 needs no relevant document: 0/0 whenever any level is
            out.append(np.where(_zero_over_zero(arr, 11, opts).any(axis=1),
                                np.nan, values))
            continue
        levels = [float(v) for v in text.split(",")]
        out.append(_iprec_per_query(arr, levels, opts).mean(axis=0))
    return np.array(out)


def _bin_g(arr, params, opts):
    code, pos, rel = arr.retrieved()
    is_rel = rel >= arr.relevance_level
    cum = np.cumsum(is_rel, dtype=np.int64)
    start = np.searchsorted(code, code, side="left")
    rel_so_far = cum - (cum[start] - is_rel[start])  # inclusive, within query
    term = 1.0 / np.log2(3.0 + pos - rel_so_far)
    return _safe_div(_per_query_sum(arr, code, np.where(is_rel, term, 0.0)),
                     arr.num_rel)[None, :]


def _relative_p(arr, params, opts):
    return np.array([
        _safe_div(_hits_within(arr, np.full(len(arr.qids), k)),
                  np.minimum(k, arr.num_rel))
        for k in params])


def _set_measure(fn):
    def per_query(arr, params, opts):
        rr = arr.num_rel_ret.astype(np.float64)
        return np.array([fn(rr, arr.num_ret, arr.num_rel, p) for p in params])

    return per_query


def _set_f(rr, ret, rel, text):
    (beta,) = _coefficients(text, 1, (1.0,))
    precision, recall = _safe_div(rr, ret), _safe_div(rr, rel)
    return _safe_div((beta + 1.0) * precision * recall, beta * precision + recall)


def _num_nonrel_judged_ret(arr, params, opts):
    code, _, rel = arr.retrieved()
    judged_non = (rel >= 0) & (rel < arr.relevance_level)
    return _per_query_sum(arr, code, judged_non)[None, :]


def _persistence(text):
    if text is None:
        return 0.9
    name, _, value = text.partition("=")
    if name != "p":
        raise TrecError(f"rbp takes p=<persistence>, got {text!r}")
    return float(value)


def _rbp(arr, params, opts):
    """trec_eval's rbp: the gain is the qrels value (not ``-l``), divided by
    the query's largest qrels value when that exceeds 1."""
    code, pos, rel = arr.retrieved()
    top = np.maximum.reduceat(np.clip(arr.rel, 0, None), arr.offsets[:-1])
    gain = np.clip(rel, 0, None) / np.maximum(top, 1)[code]
    out = []
    for text in params:
        p = _persistence(text)
        out.append((1 - p) * _per_query_sum(arr, code, gain * p ** pos))
    return np.array(out)


def _rbp_resid(arr, params, opts):
    code, pos, rel = arr.retrieved()
    unj = rel < 0
    out = []
    for text in params:
        p = _persistence(text)
        resid = (p ** arr.num_ret
                 + (1 - p) * _per_query_sum(arr, code, np.where(unj, p ** pos, 0.0)))
        out.append(np.where(_per_query_sum(arr, code, unj) > 0, resid, 0.0))
    return np.array(out)


def _unj(arr, params, opts):
    code, pos, rel = arr.retrieved()
    unj = rel < 0
    return np.array([_per_query_sum(arr, code, unj & (pos < k)) / k for k in params])


# ---------------------------------------------------------------------------
# gain measures with trec_eval's gain table (ndcg.1=3,2=9, G, ndcg_rel, Rndcg,
# dcg, ideal_dcg) and relstring
# ---------------------------------------------------------------------------
def _gain_pairs(text):
    """trec_eval's ``rel_level=gain`` parameters: [(name, gain)] in order."""
    if text is None:
        return []
    pairs = []
    for item in text.split(","):
        name, eq, value = item.partition("=")
        if not eq or not name:
            raise TrecError(f"malformed pair parameters in {text!r} (expected "
                            f"rel_level=gain, e.g. ndcg.1=3,2=9)")
        pairs.append((name, _atof(value)))
    return pairs


def _atof(text):
    """C's ``atof``: the longest leading number, 0.0 if there is none."""
    match = re.match(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text)
    return float(match.group(0)) if match else 0.0


def _atol(text):
    """C's ``atol``: the leading integer (``"23.4"`` -> 23), 0 if none."""
    match = re.match(r"\s*[+-]?\d+", text)
    return int(match.group(0)) if match else 0


def _gain_table(pairs, level_counts):
    """trec_eval's ``setup_gains``: [level, gain, count] sorted by gain.

    The parameters come first (names that are integers only), then each
    relevance level 0..max of the judgments not given, with gain = level;
    sorted by increasing gain with trec_eval's comparison, which truncates
    the difference to an integer (gains less than 1 apart compare equal and
    keep this order).
    """
    table = []
    for name, gain in pairs:
        if re.fullmatch(r"[+-]?\d+", name):
            table.append([int(name), gain, 0])
    n_given = len(table)
    for level, count in enumerate(level_counts):
        for entry in table[:n_given]:
            if entry[0] == level:
                entry[2] = count
                break
        else:
            table.append([level, float(level), count])
    return sorted(table, key=cmp_to_key(lambda a, b: math.trunc(a[1] - b[1])))


def _ideal_steps(table):
    """Ideal gain after each step of trec_eval's walk down the gain table.

    Returns ``(top, steps)``: the gain the walk starts from and the gain at
    each rank, the last one (<= 0) ending it; every other is > 0 and is the
    gain of the ideal ranking at that rank.
    """
    cur = len(table) - 1
    gain = table[cur][1] if cur >= 0 else 0.0
    top, steps, num_at = gain, [], 0
    while gain > 0.0:
        num_at += 1
        while cur >= 0 and num_at > table[cur][2]:
            num_at = 1
            cur -= 1
            gain = table[cur][1] if cur >= 0 else 0.0
        steps.append(gain)
    return top, steps


def _gain_queries(arr, text):
    """Per query: (gains of the ranked documents, ideal steps, top gain).

    As trec_eval: the gain of a document is that of its relevance value in
    the gain table (0 if absent, e.g. not judged, unless ``-1=g`` or
    ``-2=g`` is given); the ideal ranking holds every judged document with a
    positive gain, retrieved or not.
    """
    key = ("gains", text)
    if key not in arr._ranked:
        pairs = _gain_pairs(text)
        out = []
        for i in range(len(arr.qids)):
            rel = arr.rel[arr.offsets[i]:arr.offsets[i + 1]]
            judged = rel[rel >= 0]
            counts = np.bincount(judged) if judged.size else np.zeros(0, int)
            nonzero = np.flatnonzero(counts)
            counts = counts[:nonzero[-1] + 1] if nonzero.size else counts[:0]
            table = _gain_table(pairs, counts.tolist())
            lookup = {}
            for level, gain, _ in table:
                lookup.setdefault(level, gain)
            ranked = rel[:arr.num_ret[i]].tolist()
            gains = np.array([lookup.get(r, 0.0) for r in ranked], dtype=np.float64)
            top, steps = _ideal_steps(table)
            out.append((gains, steps, top))
        arr._ranked[key] = out
    return arr._ranked[key]


def _discounted(gains):
    """Running DCG, accumulated rank by rank as trec_eval does."""
    return np.cumsum(gains / np.log2(np.arange(2, gains.size + 2)))


def _ideal_positive(steps):
    return np.array([g for g in steps if g > 0.0], dtype=np.float64)


def _gain_rows(arr, params, value):
    """One row per parameter: ``value(q, gains, steps, top)`` of each query
    ``q``, from :func:`_gain_queries` with that parameter."""
    return np.array([[value(q, gains, steps, top) for q, (gains, steps, top)
                      in enumerate(_gain_queries(arr, text))]
                     for text in params], dtype=np.float64)


def _dcg_values(arr, params, which):
    def value(q, gains, steps, top):
        dcg = _discounted(gains)
        ideal = _discounted(_ideal_positive(steps))
        dcg = dcg[-1] if dcg.size else 0.0
        ideal = ideal[-1] if ideal.size else 0.0
        if which == "dcg":
            return dcg
        if which == "ideal_dcg":
            return ideal
        return dcg / ideal if ideal > 0.0 else 0.0

    return _gain_rows(arr, params, value)


def _ndcg_gains(arr, params, opts):
    """ndcg; with ``rel_level=gain`` parameters, trec_eval's gain table."""
    if all(p is None for p in params):
        return _ndcg(arr, params, opts)
    return np.array([_ndcg(arr, _NONE, opts)[0] if p is None
                     else _dcg_values(arr, [p], "ndcg")[0] for p in params])


def _g(arr, params, opts):
    """trec_eval's G: sum of gain / log2(2 + ideal cost - gain so far)."""
    def value(q, gains, steps, top):
        ideal = _ideal_positive(steps)
        total_ideal = np.cumsum(ideal)[-1] if ideal.size else 0.0
        if total_ideal <= 0.0:
            return 0.0
        n = gains.size
        cost = np.ones(n)
        m = min(n, ideal.size)
        cost[:m] = np.maximum(ideal[:m], 1.0)
        denom = np.log2(2.0 + np.cumsum(cost) - np.cumsum(gains))
        terms = np.where(gains != 0, gains, 0.0) / np.where(gains != 0, denom,
                                                            1.0)
        return (np.cumsum(terms)[-1] if n else 0.0) / total_ideal

    return _gain_rows(arr, params, value)


def _ndcg_rel(arr, params, opts):
    """trec_eval's ndcg_rel: NDCG averaged over the documents with gain > 0."""
    def value(q, gains, steps, top):
        ideal = _ideal_positive(steps)
        n_ideal = ideal.size
        if n_ideal == 0:
            return 0.0
        dcg = _discounted(gains)
        idcg = _discounted(ideal)
        pos = np.flatnonzero(gains > 0)
        total = 0.0
        for i in pos:  # trec_eval's order of the sum
            total += dcg[i] / idcg[min(i, n_ideal - 1)]
        dcg_end = dcg[-1] if dcg.size else 0.0
        total += (n_ideal - pos.size) * dcg_end / idcg[-1]
        return total / n_ideal if total > 0.0 else 0.0

    return _gain_rows(arr, params, value)


def _rndcg(arr, params, opts):
    """trec_eval's Rndcg: NDCG averaged where the ideal gain changes."""
    def value(q, gains, steps, top):
        if arr.num_rel[q] == 0:
            return 0.0
        n = gains.size
        dcg = np.concatenate([[0.0], _discounted(gains)])  # dcg[i]: before i
        total, count, idcg, old = 0.0, 0, 0.0, top
        for i, step in enumerate(steps):
            if step != old:
                if idcg > 0.0:  # the DCG before rank i (all of it from rank n)
                    total += dcg[min(i, n)] / idcg
                    count += 1
                old = step
            if step > 0.0:
                idcg += step / math.log2(i + 2)
        if len(steps) < n and idcg > 0.0:  # ranked past the ideal's last step
            total += dcg[n] / idcg
            count += 1
        return total / count if count else 0.0

    return _gain_rows(arr, params, value)


def _relstring(arr, params, opts):
    """The relevance values of the first N ranked documents, as text."""
    out = []
    for text in params:
        length = 10 if text is None else int(_atof(text))
        row = []
        for i in range(len(arr.qids)):
            rel = arr.rel[arr.offsets[i]:arr.offsets[i] + min(length,
                                                               arr.num_ret[i])]
            row.append("'" + "".join(
                ">" if r > 9 else str(r) if r >= 0 else "-" if r == _NONPOOL
                else "." if r == _UNJUDGED else "<" for r in rel.tolist()) + "'")
        out.append(row)
    return np.array(out, dtype=object)


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
    skips_nan : bool
        Whether a NaN value means "no value" (the query is left out of the
        line and of the ``all`` mean: ``gauc``) rather than trec_eval's 0/0
        (printed ``-nan``, which makes the ``all`` mean ``-nan`` too).
    description : str
    """

    name: str
    kind: str
    param: object
    defaults: tuple
    per_query: object
    all_only: object = None
    skips_nan: bool = False
    description: str = ""

    def label(self, p):
        """The printed name of the measure with parameter ``p``."""
        if p is None:
            return self.name
        if self.param in ("level", "mult"):
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
        TrecMeasure("gm_map", "float", None, _NONE, None,
                    all_only=_geometric(_map),
                    description="geometric mean over queries of AP (floor 1e-5)"),
        TrecMeasure("Rprec", "float", None, _NONE, _r_precision,
                    description="precision at rank R (R relevant documents)"),
        TrecMeasure("bpref", "float", None, _NONE, _bpref,
                    description="binary preference (judged documents only)"),
        TrecMeasure("recip_rank", "float", None, _NONE, _recip_rank,
                    description="reciprocal rank of the first relevant document"),
        TrecMeasure("iprec_at_recall", "float", "level", LEVELS, _iprec_per_query,
                    all_only=_iprec_all,
                    description="interpolated precision at recall levels"),
        TrecMeasure("P", "float", "cutoff", CUTOFFS, _precision,
                    description="precision at cutoffs"),
        TrecMeasure("relstring", "string", "raw", _NONE, _relstring,
                    description="relevance values of the first N (10) ranked "
                                "documents (-q only): 0-9, > above 9, - not "
                                "judged, . judged negative"),
        TrecMeasure("recall", "float", "cutoff", CUTOFFS, _recall,
                    description="recall at cutoffs"),
        TrecMeasure("infAP", "float", None, _NONE, _infap,
                    description="inferred AP (Yilmaz & Aslam)"),
        TrecMeasure("gm_bpref", "float", None, _NONE, None,
                    all_only=_geometric(_bpref),
                    description="geometric mean over queries of bpref"),
        TrecMeasure("Rprec_mult", "float", "mult", tuple(j / 5 for j in range(1, 11)),
                    _rprec_mult,
                    description="precision at rank int(x * R + 0.9)"),
        TrecMeasure("utility", "float", "raw", _NONE, _utility,
                    description="a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*"
                                "nonrel_not_ret (default 1,-1,0,0)"),
        TrecMeasure("11pt_avg", "float", "raw", _NONE, _11pt_avg_levels,
                    description="11-point interpolated average precision"),
        TrecMeasure("binG", "float", None, _NONE, _bin_g,
                    description="binary G (trec_eval's experimental measure)"),
        TrecMeasure("G", "float", "raw", _NONE, _g,
                    description="normalized gain (trec_eval's experimental "
                                "measure; gains as ndcg)"),
        TrecMeasure("dcg", "float", "raw", _NONE,
                    lambda arr, params, opts: _dcg_values(arr, params, "dcg"),
                    description="DCG over the whole ranking (gains as ndcg)"),
        TrecMeasure("ideal_dcg", "float", "raw", _NONE,
                    lambda arr, params, opts: _dcg_values(arr, params,
                                                          "ideal_dcg"),
                    description="DCG of the ideal ranking (gains as ndcg)"),
        TrecMeasure("ndcg", "float", "raw", _NONE, _ndcg_gains,
                    description="NDCG over the whole ranking; gain of each "
                                "relevance level: the level, or as given "
                                "(ndcg.1=3,2=9)"),
        TrecMeasure("ndcg_rel", "float", "raw", _NONE, _ndcg_rel,
                    description="NDCG averaged over the documents with a "
                                "positive gain (gains as ndcg)"),
        TrecMeasure("Rndcg", "float", "raw", _NONE, _rndcg,
                    description="NDCG averaged at the ranks where the ideal "
                                "gain changes (gains as ndcg)"),
        TrecMeasure("ndcg_cut", "float", "cutoff", CUTOFFS, _ndcg,
                    description="NDCG at cutoffs"),
        TrecMeasure("map_cut", "float", "cutoff", CUTOFFS, _map_cut,
                    description="average precision at cutoffs (divided by R)"),
        TrecMeasure("relative_P", "float", "cutoff", CUTOFFS, _relative_p,
                    description="relevant in the top k over min(k, R)"),
        TrecMeasure("success", "float", "cutoff", (1, 5, 10), _success,
                    description="a relevant document in the top k"),
        TrecMeasure("set_P", "float", None, _NONE,
                    _set_measure(lambda rr, ret, rel, p: _safe_div(rr, ret)),
                    description="relevant retrieved over retrieved"),
        TrecMeasure("set_relative_P", "float", None, _NONE,
                    _set_measure(lambda rr, ret, rel, p: _safe_div(
                        rr, np.minimum(ret, rel))),
                    description="relevant retrieved over min(retrieved, R)"),
        TrecMeasure("set_recall", "float", None, _NONE,
                    _set_measure(lambda rr, ret, rel, p: _safe_div(rr, rel)),
                    description="relevant retrieved over R"),
        TrecMeasure("set_map", "float", None, _NONE,
                    _set_measure(lambda rr, ret, rel, p: _safe_div(rr * rr,
                                                                   ret * rel)),
                    description="set precision times set recall"),
        TrecMeasure("set_F", "float", "raw", _NONE, _set_measure(_set_f),
                    description="F-measure of the retrieved set (beta 1)"),
        TrecMeasure("num_nonrel_judged_ret", "count", None, _NONE,
                    _num_nonrel_judged_ret,
                    description="judged non-relevant documents retrieved"),
        TrecMeasure("rbp", "float", "raw", _NONE, _rbp,
                    description="rank-biased precision, p=0.9 (rbp.p=0.8)"),
        TrecMeasure("rbp_resid", "float", "raw", _NONE, _rbp_resid,
                    description="RBP's residual from unjudged and unranked "
                                "documents"),
        TrecMeasure("unj", "float", "cutoff", (5, 10, 20), _unj,
                    description="share of unjudged documents in the top k"),
        TrecMeasure("gauc", "float", None, _NONE, _gauc, skips_nan=True,
                    description="ROC AUC within each query (not trec_eval's); "
                                "queries with one class only are left out"),
    ]
}
#: trec_eval's ``all_trec`` set (measures.c, trec_names): every measure but
#: dcg, ideal_dcg (asked for by name only) and gauc (not trec_eval's).
ALL_TREC = tuple(name for name in MEASURES
                 if name not in ("dcg", "ideal_dcg", "gauc"))
#: trec_eval's ``official`` set: what it prints when no ``-m`` is given.
OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
            "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P")
_SUFFIXED = re.compile(r"(.+?)_([0-9]*\.?[0-9]+)")


def _parse_params(measure, text, spec):
    if measure.param == "raw":
        return [text]
    params = []
    for item in text.split(","):
        if measure.param == "cutoff":  # trec_eval reads a cutoff with atol
            value = _atol(item)
            value = value if value >= 1 else None
        else:
            try:
                value = float(item.strip())
            except ValueError:
                value = None
        if measure.param == "mult" and (value is None or value <= 0):
            raise TrecError(f"measure {spec!r}: {item!r} is not a positive number")
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
        ``"P_5"``, ``"iprec_at_recall_0.10"``; ``"all_trec"`` selects
        trec_eval's ``all_trec`` set (and rbp, rbp_resid, unj, as trec_eval
        10), ``"all"`` every measure (dcg, ideal_dcg and gauc too);
        ``"official"`` trec_eval's official set.  None or empty: the official
        set, as trec_eval without ``-m``.  A cutoff is read as trec_eval's
        ``atol`` does (``ndcg_cut.23.4`` is ``ndcg_cut_23``).  Parameters
        given for a measure replace its default ones, as in trec_eval
        (``-m all_trec -m relstring.20`` prints ``relstring_20`` only); the
        parameters of several ``-m`` of one measure are merged.

    Returns
    -------
    selected : list of (TrecMeasure, tuple)
        Each selected measure once, with its sorted parameters.

    Raises
    ------
    TrecError
        For an unknown measure or a bad parameter.
    """
    chosen, explicit = {}, {}
    for spec in specs or ["official"]:
        if spec in ("all", "all_trec", "official"):
            names = {"all": MEASURES, "all_trec": ALL_TREC}.get(spec, OFFICIAL)
            for name in names:
                chosen.setdefault(name, set()).update(MEASURES[name].defaults)
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
            chosen.setdefault(name, set()).update(measure.defaults)
        elif measure.param is None:
            raise TrecError(f"measure {name!r} takes no parameter, got {spec!r}")
        else:
            chosen.setdefault(name, set())
            explicit.setdefault(name, set()).update(
                _parse_params(measure, params, spec))
    chosen.update(explicit)
    return [
        (m, tuple(sorted(chosen[m.name], key=lambda p: (
            p is not None, p if isinstance(p, (int, float)) else 0, str(p)))))
        for m in MEASURES.values() if m.name in chosen
    ]


# ---------------------------------------------------------------------------
# evaluation and output
# ---------------------------------------------------------------------------
class Row(NamedTuple):
    """One printed measure: name, kind, per-query values (or None), ``all``."""

    name: str
    kind: str
    per_query: object
    total: object
    skips_nan: bool = False


def evaluate(arrays, measures, *, per_query=False, recall_levels="trec_eval_10",
             num_docs=0):
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
    num_docs : int, default=0
        Number of documents in the collection (``-N``), used by ``utility``'s
        fourth coefficient (non-relevant documents not retrieved), as
        trec_eval (whose default is 0 too).

    Returns
    -------
    rows : list of Row
        ``(printed name, kind, per-query values in arrays.qids order or
        None, all value, skips_nan)``.  NaN marks a query (or an ``all``)
        without a value where ``skips_nan`` (``gauc`` of a query with one
        class only), else trec_eval's 0/0 (``-nan``).
    """
    if recall_levels not in RECALL_LEVEL_RULES:
        raise TrecError(f"recall_levels must be one of {RECALL_LEVEL_RULES}, "
                        f"got {recall_levels!r}")
    opts = {"recall_levels": recall_levels, "num_docs": num_docs}
    rows = []
    for measure, params in measures:
        if measure.kind == "string":  # relstring: per query only
            if per_query:
                values = measure.per_query(arrays, params, opts)
                rows += [Row(measure.label(p), measure.kind, v, None)
                         for p, v in zip(params, values)]
            continue
        if measure.per_query is None or (not per_query
                                         and measure.all_only is not None):
            values = measure.all_only(arrays, params, opts)
            rows += [Row(measure.label(p), measure.kind, None, v)
                     for p, v in zip(params, values)]
            continue
        values = measure.per_query(arrays, params, opts)
        for p, v in zip(params, values):
            if measure.name == "num_rel" and arrays.complete:
                # trec_eval -c: every judgment with a value > 0, whatever -l
                total = int((arrays.rel > 0).sum())
            elif measure.kind == "count":
                total = int(v.sum())
            elif not measure.skips_nan:
                total = float(np.mean(v))
            elif np.isnan(v).all():
                total = np.nan
            else:
                total = float(np.nanmean(v))
            rows.append(Row(measure.label(p), measure.kind,
                            v if per_query else None, total, measure.skips_nan))
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
    for name, kind, per_query, total, _ in rows:
        if per_query is not None:
            for q, v in zip(arrays.qids, per_query):
                if kind == "string":
                    out.setdefault(str(q), {})[name] = v
                elif not np.isnan(v):
                    out.setdefault(str(q), {})[name] = float(v)
        if total is not None and (isinstance(total, str) or not np.isnan(total)):
            out["all"][name] = total
    return out


def _format(kind, value, digits):
    """A value as trec_eval prints it (``%6.4f`` for the reals, so its 0/0
    is ``  -nan`` on x86-64; with ``digits`` d: ``%{d+2}.{d}f``)."""
    if kind in ("text", "string"):
        return str(value)
    if kind == "count":
        return str(int(value))
    if np.isnan(value):
        return f"{'-nan':>{digits + 2}}"
    return f"{value:.{digits}f}"


def format_lines(arrays, rows, *, digits=4, summary=True):
    """trec_eval's output lines: per query (if computed), then ``all``.

    Parameters
    ----------
    arrays : TrecArrays
    rows : list
        From :func:`evaluate`.
    digits : int, default=4
        Decimals of the real values (trec_eval prints 4).
    summary : bool, default=True
        Whether to print the ``all`` lines (trec_eval ``-n``: no).

    Returns
    -------
    lines : list of str
        ``f"{measure:<22}\\t{query}\\t{value}"``; values that are NaN
        are not printed where the row skips them (``gauc`` of a query with
        one class only), else printed as trec_eval's ``-nan``.
    """
    lines = []
    per_query_rows = [r for r in rows if r[2] is not None]
    for i, q in enumerate(arrays.qids):
        for name, kind, per_query, _, skips_nan in per_query_rows:
            if kind == "string" or not (skips_nan and np.isnan(per_query[i])):
                lines.append(f"{name:<22s}\t{q}\t"
                             f"{_format(kind, per_query[i], digits)}")
    for name, kind, _, total, skips_nan in rows if summary else ():
        if total is None:
            continue
        if isinstance(total, str) or not (skips_nan and np.isnan(total)):
            lines.append(f"{name:<22s}\tall\t{_format(kind, total, digits)}")
    return lines
