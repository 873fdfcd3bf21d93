"""Evaluating the selected measures of a run, and printing them as trec_eval.

:func:`evaluate` computes each measure for every query and its ``all``
value (the library's ``aggregate``: the mean over the queries, the
geometric mean for ``gm_map`` and ``gm_bpref``; counts are summed);
:func:`format_lines` prints trec_eval's lines
(``measure<TAB>query|all<TAB>value``) and :func:`results_dict` returns
pytrec_eval's dict.  A judged query without a relevant document scores 0 and
counts in the ``all`` mean, as in trec_eval.
"""

from typing import NamedTuple

import numpy as np

from ..._metrics import RECALL_LEVELS, group_info
from ..._stats import AverageRule, Partials, aggregate
from ._arrays import TrecError

__all__ = ["Row", "evaluate", "format_lines", "results_dict"]


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
    if recall_levels not in RECALL_LEVELS:
        raise TrecError(f"recall_levels must be one of {RECALL_LEVELS}, "
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
        if measure.per_query is None:
            values = measure.summary(arrays, params, opts)
            rows += [Row(measure.label(p), measure.kind, None, v)
                     for p, v in zip(params, values)]
            continue
        values = measure.per_query(arrays, params, opts)
        # a geometric mean is printed on the all line only, as trec_eval
        shown = per_query and measure.average != "gmean"
        for p, v in zip(params, values):
            if measure.name == "num_rel" and arrays.complete:
                # trec_eval -c: every judgment with a value > 0, whatever -l
                total = int((arrays.rel > 0).sum())
            elif measure.kind == "count":
                total = int(v.sum())
            else:
                total = _average(arrays, v, measure)
            rows.append(Row(measure.label(p), measure.kind, v if shown else None,
                            total, measure.skips_nan))
    return rows


def _average(arrays, values, measure):
    """The ``all`` value: the library's average of the per-query values.

    NaN is a query left out where the measure skips it (``gauc``), else
    trec_eval's 0/0, which makes the average NaN as trec_eval's sum does.
    """
    defined = ~np.isnan(values) if measure.skips_nan else np.ones(len(values), bool)
    if not defined.any():
        return np.nan
    return aggregate(Partials(values, defined), group_info(arrays.ranked()),
                     AverageRule(label=measure.name), average=measure.average)


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
