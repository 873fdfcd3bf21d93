"""Each rule's per-query values: one engine pass per ranking a rule needs.

A pass is a tie rule (:func:`._hygiene.tie_free`), a relevance (the labels,
or whether a document is judged), a truncation of each list (the first
``K`` a list-based tool is given) and binary relevance: the rules that
share them are computed together by the one pipeline (``_metrics.evaluate``:
the input door, the engine, the kernels), on the checked long layout.
"""

from dataclasses import replace

import numpy as np

from .._metrics import evaluate
from ._hygiene import tie_free

__all__ = ["per_query", "query_subset", "relevance_of"]


def _ranks(layout, score):
    """0-based rank of each row within its query under ``score``."""
    order = np.lexsort((-score, layout.groups))
    g = layout.groups[order]
    start = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    first = np.repeat(start, np.diff(np.r_[start, len(g)]))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order)) - first
    return rank


def relevance_of(rule, layout, labels):
    """The relevance each row has for ``rule``: its label (0 if unjudged),
    1/0 for relevant (``binary``), or whether it is (un)judged."""
    if rule.relevance == "judged":
        return (layout.judged & layout.retrieved).astype(np.float64)
    if rule.relevance == "unjudged":
        return (~layout.judged & layout.retrieved).astype(np.float64)
    if rule.relevance == "unpooled":
        return (~layout.pooled & layout.retrieved).astype(np.float64)
    rows = np.flatnonzero(layout.qrow >= 0)  # (few: the judged documents)
    rel = np.zeros(len(layout.qrow))
    rel[rows] = labels[layout.qrow[rows]]
    return (rel > 0).astype(np.float64) if rule.binary else rel


def _passes(rules):
    """Rules grouped by what their ranking needs (one engine pass each)."""
    out = {}
    for rule in rules:
        out.setdefault((rule.ties, rule.relevance, rule.truncate, rule.binary),
                       []).append(rule)
    return out


def per_query(rules, layout, labels):
    """``{name: (values, defined, info, spec, options)}``: each rule's
    per-query values over every query of the layout (one engine pass per
    tie rule, relevance and truncation), ``labels`` the label of each kept
    qrels row."""
    results = {}
    for (ties, _, truncate, _), items in _passes(rules).items():
        score = tie_free(layout, ties)
        rows = layout
        if truncate is not None:
            # the tool sees the first K of each list: the others are not
            # retrieved (a relevant one still counts in R and the ideal)
            cut = layout.retrieved & (_ranks(layout, score) >= truncate)
            score = np.where(cut, -np.inf, score)
            rows = replace(layout, score=np.where(cut, -np.inf, layout.score))
        y_true = relevance_of(items[0], rows, labels)
        parsed = []
        for rule in items:
            options = rule.options
            if rule.top_of_run:  # k: the longest list (each list whole)
                n = np.bincount(rows.groups[rows.retrieved])
                k = max(int(n.max()) if len(n) else 1, 1)
                options = {**rule.spec.check_options(**{
                    **{o: v for o, v in options.items() if o != "undefined"},
                    "k": k}), "undefined": options["undefined"]}
            parsed.append((rule.name, rule.spec, options))
        info, parts, _ = evaluate(y_true, score, groups=rows.groups,
                                  metrics=parsed)
        for (name, spec, _), rule in zip(parsed, items):
            results[name] = (parts[name], info, spec, rule)
    return results


def query_subset(rule, layout, info):
    """The groups (indices into ``info``) that ``rule`` averages over."""
    mask = {"judged": layout.judged_query & layout.run_query,
            "qrels": layout.judged_query, "run": layout.run_query}[rule.queries]
    return np.flatnonzero(mask[np.asarray(info.labels)])
