"""One registry of the ranking metrics: it drives the common tests, and later
the scorers and the API documentation.

Each :class:`MetricSpec` states what the metric supports, so that callers read
capabilities from here instead of testing names.
"""

import re
from dataclasses import dataclass

from ._metrics import (
    _gauc_from_ranked,
    _hit_rate_from_ranked,
    _iap_from_ranked,
    _map_from_ranked,
    _mrr_from_ranked,
    _ndcg_from_ranked,
    _precision_from_ranked,
    _recall_from_ranked,
    gauc_score,
    hit_rate_score,
    interpolated_average_precision_score,
    mean_average_precision_score,
    mean_reciprocal_rank_score,
    ndcg_score,
    precision_at_k_score,
    recall_at_k_score,
)

__all__ = ["METRICS", "MetricSpec", "parse_metric_name", "valid_names_text"]


@dataclass(frozen=True)
class MetricSpec:
    """What a grouped ranking metric is and what it accepts.

    Attributes
    ----------
    name : str
        Scorer name (``"map"``, ``"ndcg"``, ...); with a cutoff ``name@K``.
    func : callable
        The ``*_score`` function.
    has_k : bool
        Whether the function takes a cutoff ``k``.
    k_default : int or None
        Its default ``k``.
    has_labels : bool
        Whether the function takes ``labels`` (multiclass input).
    graded : bool
        Whether graded relevance changes the value (binary metrics only look
        at ``y_true > 0``).
    weights : {"item", "query"}
        How ``sample_weight`` acts: item weights inside each group, or one
        weight per query (constant within a group).
    averages : tuple of str
        Accepted ``average`` values besides None.
    default_average : str
    tie_rule : {"sklearn", "expected"}
        Ties as scikit-learn's equivalent metric, or the expected value over
        all orderings of the tied items.
    needs_negative : bool
        Whether a group also needs an irrelevant item to be defined (AUC).
    divides_by_k : bool
        Whether the value is divided by ``k`` (so a perfect ranking of a
        query with fewer than ``k`` relevant items scores ``R / k``).
    from_ranked : callable
        ``from_ranked(ranked_groups, *, [k,] average, undefined)``: the metric
        of an input the engine has already ranked (used to compute many
        metrics from one ranking).
    """

    name: str
    func: object
    has_k: bool
    k_default: object
    has_labels: bool
    graded: bool
    weights: str
    averages: tuple
    default_average: str
    tie_rule: str
    needs_negative: bool = False
    divides_by_k: bool = False
    from_ranked: object = None


_Q = ("macro", "weighted")
_P = ("micro", "macro", "weighted")

METRICS = {
    spec.name: spec
    for spec in [
        MetricSpec("gauc", gauc_score, False, None, False, False, "item", _Q,
                   "weighted", "sklearn", needs_negative=True,
                   from_ranked=_gauc_from_ranked),
        MetricSpec("mrr", mean_reciprocal_rank_score, True, None, True, False,
                   "query", _Q, "macro", "expected", from_ranked=_mrr_from_ranked),
        MetricSpec("map", mean_average_precision_score, True, None, True, False,
                   "item", _Q, "macro", "sklearn", from_ranked=_map_from_ranked),
        MetricSpec("interpolated_ap", interpolated_average_precision_score, False,
                   None, False, False, "item", _Q, "macro", "sklearn",
                   from_ranked=_iap_from_ranked),
        MetricSpec("hit_rate", hit_rate_score, True, 10, True, False, "query", _P,
                   "micro", "expected", from_ranked=_hit_rate_from_ranked),
        MetricSpec("precision", precision_at_k_score, True, 10, True, False,
                   "query", _P, "macro", "expected", divides_by_k=True,
                   from_ranked=_precision_from_ranked),
        MetricSpec("recall", recall_at_k_score, True, 10, True, False, "query", _P,
                   "macro", "expected", from_ranked=_recall_from_ranked),
        MetricSpec("ndcg", ndcg_score, True, None, False, True, "query", _Q,
                   "macro", "sklearn", from_ranked=_ndcg_from_ranked),
    ]
}


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
    if spec is not None and spec.k_default is None:
        return spec, None
    return None


def valid_names_text(extra=()):
    """The accepted metric names, for error messages (``extra``: more plain names)."""
    plain = [name for name, spec in METRICS.items() if spec.k_default is None]
    cut = [f"{name}@K" for name, spec in METRICS.items() if spec.has_k]
    return (f"{', '.join([*plain, *extra])}, and {', '.join(cut)} for any "
            f"positive integer K")
