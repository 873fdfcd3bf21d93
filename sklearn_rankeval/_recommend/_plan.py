"""The plan of a recommendation report: each metric with its rule.

The arguments are checked and the metric names parsed once, by the
registry's one parser (ranking metrics of rows and the beyond-accuracy
metrics of lists alike); each metric then gets its rule as data
(:class:`Metric`): the users it averages, the ranking convention of its
accuracy (None: this library's), the metric computed and a scale (RecTools'
NDCG), and its checked options.  This library's rules and a peer's
(``convention=``, :mod:`._peers`) are the same kind of record; what follows
(:mod:`._evaluate`) reads only the plan.
"""

from typing import NamedTuple

from .._core import InvalidArgumentError, check_k, check_option
from .._metrics import LIST_METRICS, check_head_share, parse_metrics
from .._stats import check_confidence, check_n_resamples, check_random_state
from ._peers import check_peer, metric_rule

__all__ = ["DEFAULT", "OUTPUTS", "USERS", "Metric", "Plan", "make_plan"]

#: The default metrics; ``{k}`` is the call's ``k``.
DEFAULT = ("precision@{k}", "recall@{k}", "ndcg@{k}", "map@{k}", "coverage@{k}")
USERS = ("held_out", "recommended", "union")
OUTPUTS = ("text", "dict", "frame", "per_user")


class Metric(NamedTuple):
    """One metric of the report and its rule.

    ``label``: the name asked for (the output's key); ``spec``: its registry
    entry (``spec.input``: ``"rows"`` for an accuracy metric of the long
    layout, ``"lists"`` for a beyond-accuracy one); ``options``: checked;
    ``users``: ``"held_out"``, ``"recommended"``, ``"union"`` or ``"both"``
    (users with a list and a held-out item); ``ranking``: the ranking
    convention of an accuracy metric (None: this library's); ``compute``:
    the accuracy metric computed (``"dcg@10"`` for RecTools' NDCG);
    ``scale``: the factor on its value.
    """

    label: str
    spec: object
    options: dict
    users: str
    ranking: object = None
    compute: str = None
    scale: float = 1.0

    @property
    def on_lists(self):
        return self.spec.input == "lists"

    @property
    def per_user(self):
        """Whether the metric is a mean of per-user values."""
        return not self.on_lists or self.spec.per_user(self.options)


class Plan(NamedTuple):
    """The checked arguments of a report and its :class:`Metric` s."""

    metrics: list
    peer: object
    output: str
    confidence: object
    n_resamples: int
    random_state: object

    def needs(self, what):
        """Whether a metric needs ``what`` (``"train"``, ``"item_features"``)."""
        return any(m.on_lists and what in m.spec.needs_of(m.options)
                   for m in self.metrics)

    def check_needs(self, *, train, item_features):
        """Raise for a metric whose input (``train``, ``item_features``:
        whether given) is missing."""
        if self.needs("train") and not train:
            names = [m.label for m in self.metrics
                     if m.on_lists and "train" in m.spec.needs_of(m.options)]
            need = [f"{n}@K" for n, spec in LIST_METRICS.items()
                    if "train" in spec.needs]
            needed = f"{', '.join(need[:-1])} and {need[-1]}"
            raise InvalidArgumentError(
                "train", f"is needed by {needed} (the popularity of the items in "
                f"the training interactions); asked for: {', '.join(names)}.",
                message=f"{needed} need train= (the training interactions); "
                        f"asked for: {', '.join(names)}.")
        if self.needs("item_features") and not item_features:
            raise InvalidArgumentError("item_features", "is needed by ild@K.",
                                       message="ild@K needs item_features=.")

    @property
    def head_share(self):
        """The ``head_share`` of the report's ``long_tail@K`` (None without)."""
        return next((m.options["head_share"] for m in self.metrics
                     if "head_share" in m.options), None)

    @property
    def user_sets(self):
        return list(dict.fromkeys(m.users for m in self.metrics))


def _names(metrics, k):
    if metrics is None:
        return [m.format(k=k) for m in DEFAULT]
    if isinstance(metrics, str):
        return [metrics]
    metrics = list(metrics)
    if len(metrics) == 0:
        raise ValueError("metrics is empty: name at least one metric (or None "
                         "for the default ones).")
    for name in metrics:
        if not isinstance(name, str):
            raise TypeError(f"metrics must hold metric names, got {name!r}.")
    return metrics


def make_plan(metrics, *, k, users, convention=None, output="text",
              confidence=None, n_resamples=1000, random_state=None,
              head_share=None, outputs=OUTPUTS):
    """The :class:`Plan` of a report's arguments, all checked here."""
    k = check_k(k, allow_none=False)
    check_option(users, "users", USERS)
    check_option(output, "output", outputs)
    peer = None if convention is None else check_peer(convention)
    if peer is not None and users != "held_out":
        raise ValueError(
            f"users={users!r} with convention={convention!r}: the convention "
            f"sets the users of each metric ({peer.library}'s); leave users at "
            "its default.")
    if head_share is not None:
        check_head_share(head_share)
    parsed = parse_metrics(_names(metrics, k), inputs=("rows", "lists"),
                           scores="order")
    plan = []
    for name, spec, options in parsed:
        if spec.scores != "order":
            raise ValueError(
                f"metrics: {name!r} ({spec.label}) reads the scores as "
                "probabilities; a recommendation list gives an order only.")
        if spec.input == "lists" and head_share is not None and \
                "head_share" in options:
            options = spec.check_options(**{**options, "head_share": head_share})
        if peer is None:
            plan.append(Metric(name, spec, options, users, None, name))
        else:
            who, ranking, compute, scale, options = metric_rule(peer, name, spec,
                                                                options)
            plan.append(Metric(name, spec, options, who, ranking, compute, scale))
    if output == "per_user":
        per_user = [m for m in plan if m.per_user]
        if peer is not None and (any(m.on_lists for m in per_user)
                                 or not per_user):
            lists = [m.label for m in per_user if m.on_lists]
            raise ValueError(
                f"output='per_user' with convention={convention!r}: the per-user "
                "frame holds the accuracy metrics only (coverage, gini and "
                "entropy are catalog-level; the others follow the peer's own "
                "rules with output='dict'): "
                f"{', '.join(lists) or 'no accuracy metric'}.")
        if not per_user:
            catalog = [f"{n}@K" for n, s in LIST_METRICS.items()
                       if s.level == "catalog"]
            users_k = [f"{n}@K" for n, s in LIST_METRICS.items()
                       if s.level == "user"]
            raise ValueError(
                "output='per_user' needs a per-user metric: an accuracy metric "
                f"or one of {', '.join(users_k)} ({', '.join(catalog)} are "
                "catalog-level).")
        if confidence is not None:
            raise ValueError("confidence= gives intervals of the averages: it has "
                             "no meaning with output='per_user'.")
    if confidence is not None:
        confidence = check_confidence(confidence)
        n_resamples = check_n_resamples(n_resamples)
        random_state = check_random_state(random_state)
    return Plan(plan, peer, output, confidence, n_resamples, random_state)
