"""Metric names: ``"ndcg@10"`` -> the registry entry and its options.

The one reader of metric names, for every entry point (metric lists of the
reports, scorer names, the command line).
"""

import re

from ._registry import DEFAULT_METRICS, METRICS

__all__ = ["metric_options", "parse_metric_name", "parse_metrics", "valid_names_text"]


def parse_metric_name(name):
    """``"ndcg@10"`` -> (METRICS["ndcg"], 10); ``"map"`` -> (METRICS["map"], None).

    Returns None for a name that is not a ranking metric: a cutoff on a metric
    without ``k``, a non-positive cutoff, or a metric that needs one
    (``hit_rate``, ``precision``, ``recall``) given without.
    """
    if not isinstance(name, str):
        return None
    match = re.fullmatch(r"([a-z_]+)@([0-9]+)", name)
    if match is not None:
        spec, k = METRICS.get(match.group(1)), int(match.group(2))
        if spec is not None and spec.has_k and k >= 1:
            return spec, k
        return None
    spec = METRICS.get(name)
    if spec is not None and (not spec.has_k or spec.k_default is None):
        return spec, None
    return None


def metric_options(spec, k):
    """The options of a parsed metric name: its cutoff, if any."""
    return {"k": k if k is not None else spec.k_default} if spec.has_k else {}


def parse_metrics(metrics, argument="metrics"):
    """Metric names -> list of ``(name, spec, options)`` (options checked).

    None gives :data:`DEFAULT_METRICS`; a single string is one metric.
    Repeated names are kept once.
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
        spec_k = parse_metric_name(name)
        if spec_k is None:
            raise ValueError(
                f"{argument}: {name!r} is not a ranking metric name; valid names "
                f"are {valid_names_text()}."
            )
        if name in seen:
            continue
        seen.add(name)
        spec, k = spec_k
        parsed.append((name, spec, spec.check_options(**metric_options(spec, k))))
    if not parsed:
        raise ValueError(f"{argument} must name at least one metric.")
    return parsed


def valid_names_text(extra=(), scores=None):
    """The accepted metric names, for error messages (``extra``: more plain
    names; ``scores``: only the metrics whose ``scores`` is this)."""
    specs = {name: spec for name, spec in METRICS.items()
             if scores is None or spec.scores == scores}
    plain = [name for name, spec in specs.items()
             if not spec.has_k or spec.k_default is None]
    cut = [f"{name}@K" for name, spec in specs.items() if spec.has_k]
    return (f"{', '.join([*plain, *extra])}, and {', '.join(cut)} for any "
            f"positive integer K")
