"""The one place a report takes its shape: text tables, dicts, tidy frames.

``ranking_report``, ``per_group_scores``, ``compare_rankings`` and the
accumulator compute; this module only lays their numbers out: a text table
(:func:`report_table`, :func:`comparison_table`), a dict
(:func:`dict_value`), a pandas / polars DataFrame or a dict of per-group
columns (:func:`make_frame`, :func:`frame_columns`), a tidy DataFrame
(:func:`tidy_frame`, :func:`comparison_frame`).  CSV is the tidy frame
written by pandas.
"""

import math

import numpy as np

from .._core import check_option, namespace_of, to_numpy
from .._metrics import parse_metric_name

__all__ = [
    "FRAME_OUTPUTS",
    "comparison_frame",
    "comparison_table",
    "dict_value",
    "format_report",
    "format_segments",
    "frame_columns",
    "make_frame",
    "per_group_values",
    "pooled_footer",
    "report_table",
    "tidy_frame",
    "with_intervals",
]

#: The outputs of the per-group frames.
FRAME_OUTPUTS = ("pandas", "polars", "dict")
#: The fields of a model's entry in ``compare_rankings``' dict.
COMPARISON_FIELDS = ("value", "diff", "ci_low", "ci_high", "p_value", "p_adjusted",
                     "wins", "ties", "losses")


def per_group_values(partials):
    """A metric's column: its value where defined, NaN elsewhere (no warning)."""
    xp = namespace_of(partials.value)
    return xp.where(partials.defined, partials.value,
                    xp.full_like(partials.value, math.nan))


def make_frame(columns, output, *, index="group"):
    """Columns (``index`` first) -> pandas (``index`` as the index), polars or dict."""
    check_option(output, "output", FRAME_OUTPUTS)
    if output == "dict":
        return columns
    # per-group columns of an Array API input: to the host for the frame
    columns = {name: to_numpy(col) for name, col in columns.items()}
    if output == "polars":
        try:
            import polars as pl
        except ImportError:
            raise ImportError(
                "output='polars' needs polars: pip install polars"
            ) from None
        return pl.DataFrame({name: np.asarray(col) for name, col in columns.items()})
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "output='pandas' needs pandas (pip install pandas); output='dict' "
            "needs no DataFrame library."
        ) from None
    data = dict(columns)
    if index is None:
        return pd.DataFrame(data)
    labels = data.pop(index)
    return pd.DataFrame(data, index=pd.Index(labels, name=index))


def frame_columns(info, parts):
    """The per-group columns: ids, counts, weight, then one column per metric."""
    columns = {
        "group": info.labels,
        "n_items": info.n_items,
        "n_relevant": info.n_relevant,
        "weight": info.weight,
    }
    for name, p in parts.items():
        columns[name] = per_group_values(p)
    return columns


def undefined_footer(rows, totals):
    """The groups each metric leaves out as undefined, one line per segment
    and count (the metrics that leave out the same groups share it):
    ``rows`` as :func:`report_table`'s, ``totals`` the number of groups of
    each segment (``{None: n}`` without segments).  A metric whose average
    pools every group's rows (log loss, NE, PCOC) leaves none out."""
    lines = {}
    for seg, name, _, support, *_ in rows:
        n = totals.get(seg)
        parsed = parse_metric_name(name)
        if n is None or support >= n or (
                parsed is not None and parsed[0].pools_undefined):
            continue
        reason = ("no relevant item, or a single class"
                  if parsed is not None and parsed[0].needs_negative
                  else "no relevant item")
        lines.setdefault((seg, n - support, n, reason), []).append(name)
    out = []
    for (seg, n_bad, n, reason), names in lines.items():
        where = "" if seg is None else f" (segment {seg})"
        out.append(f"{', '.join(names)}{where}: {n_bad} of {n} groups undefined "
                   f"({reason}), left out")
    return out


def report_table(rows, digits, segment_header=False, totals=None):
    """``rows``: (segment or None, name, value, support[, low, high]) -> a
    table; ``totals``: the number of groups of each segment, for the lines
    that count the groups a metric leaves out (:func:`undefined_footer`)."""
    names = [r[1] for r in rows]
    width = max(len("metric"), *(len(name) for name in names)) + 2
    value_width = max(digits + 3, len("value"))
    ci_width = max(digits + 3, len("ci_high")) + 2
    with_ci = len(rows[0]) == 6
    ci_head = f"{'ci_low':>{ci_width}s}{'ci_high':>{ci_width}s}" if with_ci else ""
    seg_width = 0
    if segment_header:
        seg_width = max(len("segment"), *(len(str(r[0])) for r in rows)) + 2
    head = (f"{'segment':<{seg_width}s}" if segment_header else "")
    lines = [f"{head}{'metric':<{width}s}{'value':>{value_width}s}{ci_head}  groups"]
    for seg, name, value, support, *ci in rows:
        lead = f"{str(seg):<{seg_width}s}" if segment_header else ""
        cis = "".join(f"{x:>{ci_width}.{digits}f}" for x in ci)
        lines.append(f"{lead}{name:<{width}s}{value:>{value_width}.{digits}f}"
                     f"{cis}  {support:>6d}")
    lines += pooled_footer(dict.fromkeys(names))
    if totals is not None:
        lines += undefined_footer(rows, totals)
    return "\n".join(lines)


def pooled_footer(names):
    """One line per metric of ``names`` whose average is pooled (micro)."""
    out = []
    for name in names:
        parsed = parse_metric_name(name)
        if parsed is not None and parsed[0].default_average == "micro":
            # the CTR metrics pool every row; HR@k pools the queries' counts
            what = "rows" if parsed[0].pools_undefined else "queries"
            out.append(f"{name}: pooled over {what} (micro average)")
    return out


def with_intervals(summaries, intervals):
    """``{name: (value, support)}`` -> ``{name: (value, support, low, high)}``."""
    if intervals is None:
        return summaries
    return {name: (v, n, *intervals[name]) for name, (v, n) in summaries.items()}


def dict_value(summary):
    """A metric's entry of the dict report: its value, or value and interval."""
    if len(summary) == 2:
        return summary[0]
    value, _, low, high = summary
    return {"value": value, "ci_low": low, "ci_high": high}


def tidy_frame(rows, first, totals=None):
    """Tidy columns of ``rows`` (first..., name, value, support[, low,
    high]); with ``totals`` (the number of groups of each segment, keyed by
    the row's first field or None), an ``n_undefined`` column: the groups
    each metric leaves out as undefined."""
    lead = len(first)
    columns = {key: np.array([r[i] for r in rows], dtype=object)
               for i, key in enumerate(first)}
    columns["metric"] = np.array([r[lead] for r in rows], dtype=object)
    columns["value"] = np.array([r[lead + 1] for r in rows], dtype=float)
    if rows and len(rows[0]) == lead + 5:
        columns["ci_low"] = np.array([r[lead + 3] for r in rows], dtype=float)
        columns["ci_high"] = np.array([r[lead + 4] for r in rows], dtype=float)
    columns["n_groups"] = np.array([r[lead + 2] for r in rows], dtype=np.int64)
    if totals is not None:
        pooled = {r[lead] for r in rows
                  if (p := parse_metric_name(r[lead])) and p[0].pools_undefined}
        columns["n_undefined"] = np.array(
            [0 if r[lead] in pooled else totals[r[0] if lead else None] - r[lead + 2]
             for r in rows], dtype=np.int64)
    return make_frame(columns, "pandas", index=None)


def format_report(summaries, output, digits, n_groups=None):
    """One report, ``{name: (value, support[, low, high])}``, as ``output``
    asks; ``n_groups``: the number of groups (the text's footer and the
    frame's ``n_undefined`` count the groups each metric leaves out)."""
    if output == "dict":
        return {name: dict_value(summ) for name, summ in summaries.items()}
    rows = [(name, *summ) for name, summ in summaries.items()]
    totals = None if n_groups is None else {None: n_groups}
    if output == "frame":
        return tidy_frame(rows, (), totals)
    return report_table([(None, *row) for row in rows], digits, totals=totals)


def format_segments(by_segment, output, digits, n_groups=None):
    """The report of each segment; ``n_groups``: ``{segment: number of its
    groups}`` (see :func:`format_report`)."""
    if output == "dict":
        return {seg: {name: dict_value(s) for name, s in summ.items()}
                for seg, summ in by_segment.items()}
    rows = [(seg, name, *s) for seg, summ in by_segment.items()
            for name, s in summ.items()]
    if output == "frame":
        return tidy_frame(rows, ("segment",), n_groups)
    return report_table(rows, digits, segment_header=True, totals=n_groups)


def _fmt(x, width, digits=4):
    return f"{'-':>{width}s}" if not np.isfinite(x) else f"{x:>{width}.{digits}f}"


def _fmt_p(p, width):
    """A p-value with 4 decimals; below 0.0001 (not 0) as ``<0.0001``."""
    return f"{'<0.0001':>{width}s}" if 0 < p < 5e-5 else _fmt(p, width)


def comparison_table(result, models, baseline, header, extra=()):
    """The baseline design's table; ``extra`` fields (the margins' tests)
    as more columns."""
    rows = [(metric, model, res) for metric, by_model in result.items()
            for model, res in by_model.items()]
    names = {model: f"{model} (baseline)" if model == baseline else str(model)
             for model in models}
    mw = max(len("metric"), *(len(r[0]) for r in rows)) + 2
    nw = max(len("model"), *(len(n) for n in names.values())) + 2
    widths = [max(9, len(f) + 2) for f in extra]
    lines = [header,
             f"{'metric':<{mw}s}{'model':<{nw}s}{'value':>8s}{'diff':>9s}"
             f"{'ci_low':>9s}{'ci_high':>9s}{'p_value':>9s}{'p_adjusted':>12s}"
             f"{'wins':>7s}{'ties':>7s}{'losses':>8s}"
             + "".join(f"{f:>{w}s}" for f, w in zip(extra, widths))]
    previous = None
    for metric, model, r in rows:
        label = metric if metric != previous else ""
        previous = metric
        if model == baseline:
            tail = f"{'-':>9s}" * 4 + f"{'-':>12s}" + f"{'-':>7s}" * 2 + f"{'-':>8s}"
            tail += "".join(f"{'-':>{w}s}" for w in widths)
        else:
            tail = (f"{_fmt(r['diff'], 9)}{_fmt(r['ci_low'], 9)}"
                    f"{_fmt(r['ci_high'], 9)}{_fmt_p(r['p_value'], 9)}"
                    f"{_fmt_p(r['p_adjusted'], 12)}{r['wins']:>7d}{r['ties']:>7d}"
                    f"{r['losses']:>8d}")
            for f, w in zip(extra, widths):
                if f == "n_runs":
                    tail += f"{r[f]:>{w}d}"
                elif f == "practical":
                    tail += f"{'yes' if r[f] else 'no':>{w}s}"
                else:
                    tail += _fmt_p(r[f], w) if f.startswith("p_") else _fmt(r[f], w)
        lines.append(f"{label:<{mw}s}{names[model]:<{nw}s}{_fmt(r['value'], 8)}"
                     f"{tail}")
    return "\n".join(lines)


def comparison_frame(result, extra=()):
    """The baseline design's tidy frame: ``metric, model``, the fields, then
    ``extra`` (the effect sizes and the margins' tests)."""
    rows = [(metric, model, res) for metric, by_model in result.items()
            for model, res in by_model.items()]
    columns = {"metric": np.array([r[0] for r in rows], dtype=object),
               "model": np.array([r[1] for r in rows], dtype=object)}
    for field in COMPARISON_FIELDS + tuple(extra):
        dtype = (np.int64 if field in ("wins", "ties", "losses", "n_runs")
                 else bool if field == "practical" else float)
        columns[field] = np.array([r[2][field] for r in rows], dtype=dtype)
    return make_frame(columns, "pandas", index=None)
