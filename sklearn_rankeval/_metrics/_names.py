"""Metric names: ``"ndcg@10"`` -> the registry entry and its options.

The one reader of metric names, for every entry point (metric lists of the
reports, scorer names, the command line).
"""

import difflib
import re

from ._registry import DEFAULT_METRICS, LIST_METRICS, METRICS

__all__ = ["TABLES", "did_you_mean", "metric_options", "parse_metric_name",
           "parse_metrics", "valid_names_text"]


#: The registry's tables by the input their metrics read: ``"rows"``
#: (grouped rows: every ranking and CTR metric) and ``"lists"`` (top-N lists:
#: the beyond-accuracy metrics, always with a cutoff).
TABLES = {"rows": METRICS, "lists": LIST_METRICS}


def _lookup(name, inputs):
    for table in inputs:
        spec = TABLES[table].get(name)
        if spec is not None:
            return spec
    return None


def parse_metric_name(name, inputs=("rows",)):
    """``"ndcg@10"`` -> (METRICS["ndcg"], 10); ``"map"`` -> (METRICS["map"], None).

    Returns None for a name that is not a metric of ``inputs`` (names of
    :data:`TABLES`): a cutoff on a metric without ``k``, a non-positive
    cutoff, or a metric that needs one (``hit_rate``, ``precision``,
    ``recall``, every metric of lists) given without.
    """
    if not isinstance(name, str):
        return None
    match = re.fullmatch(r"([a-z_]+)@([0-9]+)", name)
    if match is not None:
        spec, cut = _lookup(match.group(1), inputs), match.group(2)
        if spec is not None and spec.has_k and cut == str(int(cut)) and int(cut):
            return spec, int(cut)
        return None
    spec = _lookup(name, inputs)
    if spec is not None and spec.input == "rows" and (
            not spec.has_k or spec.k_default is None):
        return spec, None
    return None


def metric_options(spec, k):
    """The options of a parsed metric name: its cutoff, if any."""
    return {"k": k if k is not None else spec.k_default} if spec.has_k else {}


def parse_metrics(metrics, argument="metrics", inputs=("rows",), scores=None):
    """Metric names -> list of ``(name, spec, options)`` (options checked).

    None gives :data:`DEFAULT_METRICS`; a single string is one metric.
    Repeated names are kept once.  ``inputs``: the tables of
    :data:`TABLES` whose names are accepted; ``scores``: the metrics that an
    unknown name's message lists (:func:`valid_names_text`).
    """
    if metrics is None:
        metrics = DEFAULT_METRICS
    elif isinstance(metrics, str):
        metrics = [metrics]
    try:
        metrics = list(metrics)
    except TypeError:
        raise TypeError(
            f"{argument} must be a metric name or a list of names, got "
            f"{type(metrics).__name__}."
        ) from None
    parsed, seen = [], set()
    for name in metrics:
        spec_k = parse_metric_name(name, inputs)
        if spec_k is None:
            what = "ranking" if tuple(inputs) == ("rows",) else "recommendation"
            raise ValueError(
                f"{argument}: {name!r} is not a {what} metric name; valid names "
                f"are {valid_names_text(scores=scores, inputs=inputs)}."
                f"{did_you_mean(name, inputs, scores)}"
            )
        if name in seen:
            continue
        seen.add(name)
        spec, k = spec_k
        parsed.append((name, spec, spec.check_options(**metric_options(spec, k))))
    if not parsed:
        raise ValueError(f"{argument} must name at least one metric.")
    return parsed


def _specs(inputs, scores):
    return {name: spec for table in inputs for name, spec in TABLES[table].items()
            if scores is None or spec.scores == scores}


def did_you_mean(name, inputs=("rows",), scores=None):
    """`` Did you mean 'coverage@10'?`` for a misspelt name (or ``""``): the
    closest known name, with the cutoff written (or 10 where one is needed)."""
    if not isinstance(name, str):
        return ""
    base, sep, cut = name.partition("@")
    specs = _specs(inputs, scores)
    if base in specs and specs[base].has_k and sep:
        # a known metric with a bad cutoff (0, leading zeros, not a number)
        return (f" The cutoff K of '{base}@K' is a positive integer without "
                "leading zeros.")
    close = difflib.get_close_matches(base.lower(), list(specs), n=1, cutoff=0.6)
    if not close:
        return ""
    spec = specs[close[0]]
    if spec.has_k and (sep or spec.input == "lists" or spec.k_default is not None):
        cut = cut if cut.isdigit() and int(cut) >= 1 else "10"
        return f" Did you mean '{close[0]}@{int(cut)}'?"
    return f" Did you mean '{close[0]}'?"


def valid_names_text(extra=(), scores=None, inputs=("rows",)):
    """The accepted metric names, for error messages (``extra``: more plain
    names; ``scores``: only the metrics whose ``scores`` is this; ``inputs``:
    the tables of :data:`TABLES`)."""
    specs = _specs(inputs, scores)
    plain = [name for name, spec in specs.items()
             if spec.input == "rows" and (not spec.has_k or spec.k_default is None)]
    cut = [f"{name}@K" for name, spec in specs.items() if spec.has_k]
    return (f"{', '.join([*plain, *extra])}, and {', '.join(cut)} for any "
            f"positive integer K")
