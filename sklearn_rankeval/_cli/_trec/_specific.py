"""trec_eval's own measures (the library has no equivalent), for all queries at once.

Each is ``measure(arrays, params, options) -> ndarray (n_params,
n_queries)``, computed from the retrieved rows of every query
(``TrecArrays.retrieved``) with per-query sums and cumulative sums: no loop
over queries.  The gain-table measures (G, ndcg_rel, Rndcg, ...) are in
``_gains.py``.
"""

import numpy as np

from ..._metrics import safe_divide
from ._arrays import NONPOOL, UNJUDGED, TrecError, segment_cumsum
from ._read import atof

__all__ = ["bin_g", "count", "infap", "num_nonrel_judged_ret", "relative_p",
           "relstring", "rprec_mult", "set_measure", "set_f", "unj", "utility"]

#: trec_eval's INFAP_EPSILON.
INFAP_EPSILON = 1e-5


def count(attr):
    """The per-query count ``arrays.<attr>`` (num_ret, num_rel, num_rel_ret)."""
    return lambda arr, params, opts: getattr(arr, attr)[None, :].astype(np.float64)


def _before(code, flag):
    """Count of flagged rows ranked above each row, within its query."""
    return segment_cumsum(code, flag.astype(np.int64)) - flag


def infap(arr, params, opts):
    """Inferred AP (Yilmaz & Aslam), as trec_eval's ``infAP``."""
    code, pos, rel = arr.retrieved()
    level = arr.relevance_level
    is_rel = rel >= level
    is_non = (rel >= 0) & (rel < level)
    is_unj = rel == UNJUDGED
    rel_b, non_b, unj_b = (_before(code, f) for f in (is_rel, is_non, is_unj))
    j = pos.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (1.0 / (j + 1.0) + (j / (j + 1.0))
                * ((rel_b + non_b + unj_b) / j)
                * ((rel_b + INFAP_EPSILON) / (rel_b + non_b + 2 * INFAP_EPSILON)))
    term = np.where(pos == 0, 1.0, term)
    total = arr.per_query_sum(code, np.where(is_rel, term, 0.0))
    return safe_divide(total, arr.num_rel)[None, :]


def _hits_within(arr, cut):
    """Relevant retrieved documents ranked within ``cut[query]``."""
    code, pos, rel = arr.retrieved()
    inside = (rel >= arr.relevance_level) & (pos < np.asarray(cut)[code])
    return arr.per_query_sum(code, inside)


def rprec_mult(arr, params, opts):
    """Precision at rank ``int(x * R + 0.9)``."""
    out = []
    for mult in params:
        cut = np.floor(mult * arr.num_rel + 0.9).astype(np.int64)
        out.append(safe_divide(_hits_within(arr, cut), cut))
    return np.array(out)


def relative_p(arr, params, opts):
    """Relevant documents in the top k over ``min(k, R)``."""
    return np.array([
        safe_divide(_hits_within(arr, np.full(len(arr.qids), k)),
                np.minimum(k, arr.num_rel))
        for k in params])


def coefficients(text, n, default):
    """``n`` comma-separated numbers of a parameter, or ``default``."""
    if text is None:
        return default
    values = [float(v) for v in text.split(",")]
    if len(values) != n:
        raise TrecError(f"expected {n} comma-separated numbers, got {text!r}")
    return values


def utility(arr, params, opts):
    """``a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret``."""
    out = []
    for text in params:
        a, b, c, d = coefficients(text, 4, (1.0, -1.0, 0.0, 0.0))
        rr, ret, rel = arr.num_rel_ret, arr.num_ret, arr.num_rel
        out.append(a * rr + b * (ret - rr) + c * (rel - rr)
                   + d * (opts["num_docs"] + rr - ret - rel))  # -N, default 0
    return np.array(out, dtype=np.float64)


def bin_g(arr, params, opts):
    """trec_eval's binG: sum of 1 / log2(2 + nonrelevant so far + 1) over R."""
    code, pos, rel = arr.retrieved()
    is_rel = rel >= arr.relevance_level
    rel_so_far = segment_cumsum(code, is_rel.astype(np.int64))  # inclusive
    term = 1.0 / np.log2(3.0 + pos - rel_so_far)
    return safe_divide(arr.per_query_sum(code, np.where(is_rel, term, 0.0)),
                   arr.num_rel)[None, :]


def set_measure(fn):
    """A measure of the retrieved set: ``fn(rel_ret, ret, rel, param)``."""
    def measure(arr, params, opts):
        rr = arr.num_rel_ret.astype(np.float64)
        return np.array([fn(rr, arr.num_ret, arr.num_rel, p) for p in params])

    return measure


def set_f(rr, ret, rel, text):
    """F-measure of the retrieved set (``beta``: the parameter, default 1)."""
    (beta,) = coefficients(text, 1, (1.0,))
    precision, recall = safe_divide(rr, ret), safe_divide(rr, rel)
    return safe_divide((beta + 1.0) * precision * recall, beta * precision + recall)


def num_nonrel_judged_ret(arr, params, opts):
    code, _, rel = arr.retrieved()
    judged_non = (rel >= 0) & (rel < arr.relevance_level)
    return arr.per_query_sum(code, judged_non)[None, :]


def unj(arr, params, opts):
    """Share of unjudged documents in the top k."""
    code, pos, rel = arr.retrieved()
    unjudged = rel < 0
    return np.array([arr.per_query_sum(code, unjudged & (pos < k)) / k
                     for k in params])


def relstring(arr, params, opts):
    """The relevance values of the first N (10) ranked documents, as text.

    0-9, ``>`` above 9, ``-`` not in the qrels, ``.`` judged negative.
    """
    code, pos, rel = arr.retrieved()
    chars = np.select([rel > 9, rel >= 0, rel == NONPOOL, rel == UNJUDGED],
                      [">", rel.astype(str), "-", "."], "<")
    out = []
    for text in params:
        length = 10 if text is None else int(atof(text))
        shown = pos < length
        # one string of every query's characters, cut at the query bounds
        joined = "".join(chars[shown].tolist())
        ends = np.cumsum(np.bincount(code[shown], minlength=len(arr.qids)))
        starts = ends - np.minimum(arr.num_ret, length)
        out.append([f"'{joined[a:b]}'" for a, b in zip(starts.tolist(),
                                                       ends.tolist())])
    return np.array(out, dtype=object)
