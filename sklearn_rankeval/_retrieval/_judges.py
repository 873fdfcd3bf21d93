"""Several judge samples per document: the metric over the labels' uncertainty.

With ``judges=[columns]``, each judged (query, document) pair has ``J``
label samples (several human assessors, or repeated draws of an LLM judge).
Its label is then a random variable, uniform over its samples and
independent across pairs; a metric of the run is a random variable too.
The report gives

* its **expected value** ``E[f(L)]``, estimated by the mean of ``f`` over
  ``n_draws`` draws of every pair's label (one engine pass per draw, on the
  one layout: the run is cleaned and joined once);
* the **judge-noise interval**: the central ``confidence`` interval of
  ``f(L)`` over the draws (percentiles), i.e. the spread of the number one
  would report from one sampled judgment per pair;
* with ``confidence`` given, beside it, the **query bootstrap** interval of
  the mean over queries of each query's expected value (percentile
  bootstrap over queries; metrics averaged per query).
"""

import warnings

import numpy as np

from .._stats import percentile_interval
from ._compute import per_query, query_subset

__all__ = ["judged_summaries", "judge_report"]


def _values(results, layout, convention):
    """Each rule's value, and its per-query values (NaN where undefined)."""
    out = {}
    for name, (part, info, spec, rule) in results.items():
        index = query_subset(rule, layout, info)
        p, sub = part.take(index), info.take(index)
        average = "macro" if convention is not None else spec.default_average
        value = float(spec.aggregate(p, sub, average=average))
        if rule.divide_by == "qrels":  # BEIR: a sum over len(qrels)
            value *= int(p.defined.sum()) / max(int(layout.judged_query.sum()), 1)
        out[name] = (value, np.where(np.asarray(p.defined),
                                     np.asarray(p.value, dtype=np.float64),
                                     np.nan), average == "macro")
    return out


def judged_summaries(rules, layout, labels, convention, *, confidence,
                     query_interval, n_resamples, n_draws, rng):
    """``{name: (value, n_queries, judge_low, judge_high[, ci_low,
    ci_high])}`` over ``n_draws`` draws of the judges' labels.

    ``labels``: ``(n_pairs, n_judges)``, the samples of each judged pair.
    """
    n_pairs, n_judges = labels.shape
    rows = np.arange(n_pairs)
    values, per_q = [], []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(n_draws):
            drawn = labels[rows, rng.integers(0, n_judges, n_pairs)]
            got = _values(per_query(rules, layout, drawn), layout, convention)
            values.append([v for v, _, _ in got.values()])
            per_q.append([q for _, q, _ in got.values()])
    if caught:  # once, not once per draw
        warnings.warn(f"In some of the {n_draws} draws of the judges' labels: "
                      f"{caught[0].message}", caught[0].category, stacklevel=3)
    values = np.asarray(values)
    names = [rule.name for rule in rules]
    low, high = percentile_interval(values, confidence)
    out = {}
    for j, rule in enumerate(rules):
        q = np.vstack([draw[j] for draw in per_q])
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            # each query's expected value, over the draws where it is defined
            expected_q = np.nanmean(q, axis=0)
        n_defined = int(np.isfinite(expected_q).sum())
        finite = values[:, j][np.isfinite(values[:, j])]  # a draw may define
        # the metric for no query: it is left out, as an undefined query is
        row = [float(finite.mean()) if len(finite) else float("nan"),
               n_defined, float(low[j]),
               float(high[j])]
        if query_interval:
            row += list(_query_bootstrap(expected_q, confidence, n_resamples,
                                         rng))
        if rule.digits is not None:
            row = [round(v, rule.digits) if i != 1 else v
                   for i, v in enumerate(row)]
        out[names[j]] = tuple(row)
    return out


def _query_bootstrap(expected_q, confidence, n_resamples, rng):
    values = expected_q[np.isfinite(expected_q)]
    if not len(values):
        return float("nan"), float("nan")
    draws = rng.integers(0, len(values), size=(n_resamples, len(values)))
    lo, hi = percentile_interval(values[draws].mean(axis=1), confidence)
    return float(lo), float(hi)


def judge_report(summaries, output, digits):
    """The judges' report as ``output`` asks (dict, tidy frame or text)."""
    import pandas as pd

    columns = ["value", "n_groups", "judge_low", "judge_high", "ci_low",
               "ci_high"]
    records = [{"metric": name, **dict(zip(columns, summ))}
               for name, summ in summaries.items()]
    if output == "dict":
        return {r["metric"]: {c: r[c] for c in columns if c in r and
                              c != "n_groups"} for r in records}
    frame = pd.DataFrame.from_records(records)
    if output == "frame":
        return frame
    shown = frame.copy()
    for c in shown.columns:
        if c not in ("metric", "n_groups"):
            shown[c] = shown[c].map(lambda v: f"{v:.{digits}f}")
    return shown.rename(columns={"n_groups": "groups"}).to_string(index=False)
