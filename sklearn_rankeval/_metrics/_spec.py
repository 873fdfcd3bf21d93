"""What a metric of the registry is: :class:`MetricSpec` (a grouped
ranking metric: its kernel, options, weights, averages, what the engine
computes for it) and :class:`ListMetricSpec` (a metric of top-N lists), with
the marker :data:`DEFAULT` of a public function's registry default.

Which metrics exist is :mod:`._registry`'s table; this module says what an
entry of it declares and how the callers read it.
"""

from dataclasses import dataclass

from .._core import check_average
from .._engine import Statistic
from .._stats import GroupInfo, Partials, aggregate
from ._conventions import SWITCHES

__all__ = ["DEFAULT", "FUNCTIONS", "ListMetricSpec", "MetricSpec", "Compiled",
           "group_info"]


@dataclass(frozen=True)
class Compiled:
    """The engine's compiled statistic equal to a metric's kernel: the name
    of its kernel code (``_engine/_group_kernels.pxd``), its one option (an
    int, or ``(name, choices)``: the index of option ``name`` in ``choices``;
    another value: not computed), ``params(options)``, and whether it reads
    the DCG discounts cut at ``k`` (``k``, ``n_stats`` and ``ranked`` are
    the entry's: :meth:`MetricSpec.native_statistic`)."""

    kernel: str
    option: object = 0
    params: object = None
    discounts: bool = False


class _Default:
    """The default of a metric function's option: the registry's (one
    declaration; :func:`metric_function` puts the value in the signature)."""

    def __repr__(self):
        return "<the registry's default>"


DEFAULT = _Default()
#: metric name -> its public function, filled by :func:`metric_function`
FUNCTIONS = {}


@dataclass(frozen=True)
class MetricSpec:
    """What a grouped ranking metric is and what it accepts.

    Attributes
    ----------
    name : str
        Scorer name (``"map"``, ``"ndcg"``, ...); with a cutoff ``name@K``.
    func_name : str
        Name of the public ``*_score`` function (see :attr:`func`).
    kernel : callable
        ``kernel(ranked_groups, **options) -> Partials`` (``_kernels.py``).
    label : str
        Short name in messages (``"GAUC"``, ``"P@k"``).
    options : tuple of (name, default, check)
        The kernel's keyword options, their defaults and their checks
        (``k`` first when the metric has a cutoff); for the binary ranking
        metrics also ``rel``, the relevance threshold of a metric name such
        as ir_measures' ``"P(rel=2)@5"``: the pipeline ranks ``y_true >=
        rel`` (as 0/1) instead of ``y_true``, which gives each binary metric
        the value it has when an item is relevant at ``y_true >= rel``
        (the kernels read relevance only as ``y_true > 0``); None keeps
        ``y_true > 0``.  The public functions do not take it.
    has_labels : bool
        Whether the function takes ``labels`` (multiclass input).
    graded : bool
        Whether graded relevance changes the value (binary metrics only look
        at ``y_true > 0``).
    weights : {"item", "query"}
        How ``sample_weight`` acts: item weights inside each group, or one
        weight per query (constant within a group).
    averages : tuple of str
        Accepted ``average`` values besides None (``"micro"`` pools the
        kernel's numerators and denominators).
    default_average : str
    tie_rule : {"sklearn", "expected", "policy"}
        Ties as scikit-learn's equivalent metric, the expected value over
        all orderings of the tied items, or (``"policy"``: expected exposure)
        the tied orders as a stochastic policy that draws each with equal
        probability: the expected exposure over them, then the measure of it.
    needs_negative : bool
        Whether a group also needs an irrelevant item to be defined (AUC).
    perfect_score : {"one", "min(R,k)/k", "min(R,k)/R", "at_most_one", \
"unbounded", "order_free", "loss", "calibration"}
        What a perfect ranking scores: 1; ``min(R, k) / k`` (P@k);
        ``min(R, k) / R`` (R@k, HR@k); at most 1 (RBP, ERR: the value is in
        [0, 1] but its maximum depends on the query); no fixed bound (DCG);
        or the same as any other order of the items, in [0, 1] (RBP's
        residual: not a quality of the ranking); a loss, 0 at best (log loss,
        NE, ECE); or a calibration ratio, 1 at best (PCOC).
    always_defined : bool
        Whether every group has a value, relevant items or not (DCG, as in
        scikit-learn's ``dcg_score``).
    accepts_judged : bool
        Whether the function takes ``judged=``.
    judged_rule : {"drop", "keep", "residual"}
        What ``judged=`` does: ``"drop"`` leaves the unjudged rows out before
        ranking (bpref); ``"keep"`` keeps them in the ranking as non-relevant
        (RBP); ``"residual"`` keeps them as non-relevant and adds the RBP
        weight of their ranks to the value (RBP's residual).
    scorer : bool or "neg"
        Whether the name is a scorer (:func:`~sklearn_rankeval.get_scorer`):
        False for a value that is neither better high nor better low (RBP's
        residual, PCOC); ``"neg"`` for a loss, whose scorer is
        ``"neg_<name>"`` (the negated value, as scikit-learn's
        ``"neg_log_loss"``).
    n_stats : int, callable or None
        How many additive statistics a group's partials carry for the pooled
        (``"micro"``) average: an int, ``n_stats(options)`` where it depends
        on the options (ECE: three per bin), or None (no pooled average).
    finalize : callable or None
        ``finalize(summed statistics) -> value`` of the pooled (``"micro"``)
        average, from the kernel's per-group statistics (see
        :mod:`._averages`); None: the ratio of the two statistics.
    ranked : bool
        Whether the kernel reads the ranking (:class:`~._engine.RankedGroups`)
        or the rows of each group as they come
        unranked (its view ``RankedGroups.unranked``: no sort, for the CTR
        metrics).
    scores : {"order", "probability"}
        Whether only the order of the scores matters (any strictly increasing
        transform leaves the value unchanged), or the scores are
        probabilities in [0, 1] whose values count.
    kind : {"ranking", "classification"}
        ``"ranking"``: a grouped metric computed by the pipeline from a
        per-group kernel (every entry of :data:`METRICS`); ``"classification"``:
        a metric of predicted labels computed by scikit-learn (the entries of
        :data:`CLASSIFICATION`: F-alpha), with no kernel and no groups.
    response_method : str or None
        What the metric's scorer asks the estimator for (``"predict"`` for
        F-alpha; None: the ranking scorers' own choice).
    labels_kind : {"relevance", "binary", "real", "intents"}
        What ``y_true`` holds: relevance grades (``> 0`` relevant), two
        classes only (0/1), any real labels compared with each other (watch
        time, for xAUC), or grades per intent (``(n_rows, n_intents)``: the
        diversity metrics, which read them as the input's
        ``intent_grades`` column).
    native : Compiled or None
        The statistic of the engine's compiled pass that equals the kernel
        (its kernel code and option encoding; its count is :attr:`n_stats`),
        computed in the grouped pass on NumPy input; None: the kernel runs.
    pooled_undefined : str or None
        Why the pooled (``"micro"``) value can be undefined although rows
        count (the warning's words): the normalized entropy of rows of one
        class, the PCOC of rows without a positive.
    options_from_rows : callable or None
        ``options_from_rows(y_score, sample_weight, options) -> dict``: options
        the metric reads off all the rows at once, before the rows are cut
        into chunks (ECE's quantile bin edges).
    pools_undefined : bool
        Whether the pooled average pools the statistics of every group, the
        groups where the metric's own value is undefined included (log loss,
        normalized entropy: the micro average is the metric of all rows), or
        only of the groups where it is defined (P@k, R@k, HR@k).
    empty_value : float or None
        The value the metric's formula gives a group without any relevant
        item, where it gives one (P@k: no hit over k, 0; MRR, success, ERR,
        RBP: 0); None where it divides by the relevant items (recall, NDCG,
        AP, ...).  The metric functions leave such a group out as undefined
        either way; ``recommendation_report(users="recommended")`` counts a
        user with a list and no held-out item with it.
    columns : tuple of str
        The input's columns the kernel reads in rank order
        (:meth:`~sklearn_rankeval._engine.RankedGroups.column`): a column a
        reader of the input door gives (``"intent_grades"``: 2-D ``y_true``
        read as grades per intent), passed to the pipeline's ``columns=``.
    sklearn_undefined : float or None
        The value scikit-learn's function of the same name gives an
        undefined group in its own layout (2-D ``y_true``, one query per
        row), where it has one: NDCG 0 (``sklearn.metrics.ndcg_score``).  In
        that layout the default ``undefined="warn"`` counts such a group with
        it, silently, so that the value is scikit-learn's.
    """

    name: str
    func_name: str
    kernel: object
    label: str
    options: tuple = ()
    has_labels: bool = True
    graded: bool = False
    weights: str = "query"
    averages: tuple = ("macro", "weighted")
    default_average: str = "macro"
    tie_rule: str = "expected"
    needs_negative: bool = False
    perfect_score: str = "one"
    always_defined: bool = False
    accepts_judged: bool = False
    judged_rule: str = "drop"
    scorer: bool = True
    n_stats: object = None
    finalize: object = None
    pools_undefined: bool = False
    pooled_undefined: str = None
    options_from_rows: object = None
    ranked: bool = True
    scores: str = "order"
    labels_kind: str = "relevance"
    kind: str = "ranking"
    response_method: str = None
    native: str = None
    empty_value: object = None
    sklearn_undefined: object = None
    columns: tuple = ()

    #: what the metric reads: grouped rows (``"lists"``: ``ListMetricSpec``)
    input = "rows"

    # -- capabilities read by callers ---------------------------------------
    @property
    def func(self):
        """The public ``*_score`` function (registered by
        :func:`metric_function` when the package is imported)."""
        return FUNCTIONS[self.name]

    @property
    def option_names(self):
        return tuple(name for name, _, _ in self.options)

    @property
    def kernel_option_names(self):
        """The options the kernel takes (all but the relevance threshold)."""
        return tuple(name for name in self.option_names if name != "rel")

    def kernel_options(self, options):
        """The options of a parsed metric that its kernel (and the engine's
        compiled statistic) reads: ``rel`` acts on y_true before ranking (the
        pipeline), and a metric name's switches (``undefined``) after."""
        return {name: options[name] for name in self.kernel_option_names}

    @property
    def has_rel(self):
        """Whether the metric takes the relevance threshold ``rel``."""
        return "rel" in self.option_names

    @property
    def has_k(self):
        return "k" in self.option_names

    @property
    def k_default(self):
        return dict((n, d) for n, d, _ in self.options).get("k")

    @property
    def query_weighted(self):
        return self.weights == "query"

    @property
    def scorer_name(self):
        """The scorer's name (``name``, ``"neg_" + name`` for a loss), or None."""
        if self.scorer == "neg":
            return f"neg_{self.name}"
        return self.name if self.scorer else None

    @property
    def grouping_free(self):
        """Whether the default average ignores the groups (a pooled average of
        every row: log loss, NE, ECE), so that a scorer needs no ``groups``."""
        return self.default_average == "micro" and self.pools_undefined

    # -- computing ------------------------------------------------------------
    def statistics(self, **options):
        """The number of additive statistics of the pooled average (0: none)."""
        n = self.n_stats
        return int(n(options) if callable(n) else (n or 0))

    def check_options(self, **options):
        """Checked options, defaults filled in; unknown names are a TypeError."""
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise TypeError(
                f"{self.func_name}() got unexpected option(s) "
                f"{', '.join(sorted(unknown))}."
            )
        return {name: check(default if name in SWITCHES and options.get(name) is None
                            else options.get(name, default))
                for name, default, check in self.options}

    def check_average(self, average):
        return check_average(average, self.averages)

    def partials(self, rg, **options):
        """The kernel's per-group :class:`~._kernels.Partials` (cached on ``rg``).

        ``options`` must be checked and complete (:meth:`check_options`).
        Where the engine's compiled pass computed the metric's statistics
        (:attr:`native`) they are used instead of running the kernel.
        """
        if not self.ranked:  # the rows of the same groups, unranked
            rg = rg.unranked
        if self.weights == "query":
            rg.check_query_weights(self.func_name)
        options = self.kernel_options(options)
        raw = rg.native_stat(self.native_statistic(options))
        if raw is not None:
            return Partials(*raw)
        key = (self.kernel, tuple(options.items()))
        return rg.cached(key, lambda: self.kernel(rg, **options))

    def native_statistic(self, options):
        """The engine's :class:`~sklearn_rankeval._engine.Statistic` equal to
        the kernel under its ``options`` (:meth:`kernel_options`), or None."""
        compiled, k = self.native, options.get("k")
        option = getattr(compiled, "option", None)
        if isinstance(option, tuple):  # (name, choices): the choice's index
            name, choices = option
            option = (choices.index(options[name]) if options[name] in choices
                      else None)
        return None if option is None else Statistic(
            compiled.kernel, rows=not self.ranked, n_stats=self.statistics(
                **options), k=-1 if k is None else int(k), option=option,
            params=compiled.params(options) if compiled.params else (),
            discounts=compiled.discounts)

    def aggregate(self, partials, info, *, average, undefined="skip"):
        """The metric under ``average`` (:func:`._averages.aggregate`)."""
        return aggregate(partials, info, self, average=average, undefined=undefined)

    def from_ranked(self, rg, *, average="default", undefined="skip", **options):
        """The metric of an input the engine has already ranked.

        ``average`` defaults to the metric's default; None gives the per-group
        values.
        """
        options = self.check_options(**options)
        if average == "default":
            average = self.default_average
        return self.aggregate(self.partials(rg, **options), group_info(rg),
                              average=average, undefined=undefined)


def group_info(rg):
    """The :class:`~._kernels.GroupInfo` of a ranked input (cached on it)."""
    return rg.cached("group_info", lambda: GroupInfo.from_ranked(rg))


# ---------------------------------------------------------------------------
# metrics of top-N recommendation lists (input: lists; beyond accuracy)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class ListMetricSpec:
    """What a beyond-accuracy metric of top-N lists is and what it needs.

    Its input is lists (``input = "lists"``): each user's top-K list, read
    by ``recommendation_report``, which computes each row's membership of
    its user's list; its statistics are those of
    :class:`~._beyond_kernels.BeyondPartials` (per-item sums and per-user
    sums, additive over chunks of users), and ``finalize`` turns them into
    the value.  The accuracy metrics of lists are the ranking metrics of
    :data:`METRICS` on the long layout the lists define.

    Attributes
    ----------
    name : str
        The name; always written with its cutoff, ``name@K``.
    label : str
        Short name in messages.
    finalize : callable
        ``finalize(parts, label, options, popularity) -> value``: a float (a
        value of the catalog) or the per-user
        :class:`~sklearn_rankeval._stats.Partials` (averaged over the users
        where they are defined: ``"macro"``).
    statistics : tuple of str
        The statistics it reads: fields of ``BeyondPartials`` (per-item
        vectors) or rows of its ``user_stats`` (per-user sums).
    level : {"catalog", "user"}
        A value of the whole catalog (no per-user value, no bootstrap over
        users), or the mean of per-user values.
    options : tuple of (name, default, check)
        ``k`` first (required: the list length), then the metric's own.
    needs : tuple of str
        Inputs it needs besides the lists: ``"train"`` (the training
        popularity), ``"item_features"``.
    option_needs : tuple of (option, value, need)
        A need that an option's value adds (MS Recommenders' coverage of
        the training items needs ``train``).
    catalog_options : tuple of (option, value)
        An option value that makes a per-user metric a value of the catalog
        (novelty pooled over all recommendations).
    """

    name: str
    label: str
    finalize: object
    statistics: tuple
    level: str = "user"
    options: tuple = ()
    needs: tuple = ()
    option_needs: tuple = ()
    catalog_options: tuple = ()
    input: str = "lists"
    # what the statistics contract reads of a per-user metric (as MetricSpec)
    query_weighted: bool = True
    needs_negative: bool = False
    pools_undefined: bool = False
    default_average: str = "macro"
    averages: tuple = ("macro",)
    scores: str = "order"
    has_k = True
    k_default = None

    @property
    def option_names(self):
        return tuple(name for name, _, _ in self.options)

    def check_options(self, **options):
        """Checked options, defaults filled in; unknown names are a TypeError."""
        unknown = set(options) - set(self.option_names)
        if unknown:
            raise TypeError(f"{self.name}@K got unexpected option(s) "
                            f"{', '.join(sorted(unknown))}.")
        return {name: check(options.get(name, default))
                for name, default, check in self.options}

    def needs_of(self, options):
        """The inputs this metric needs under ``options`` (checked)."""
        extra = tuple(need for option, value, need in self.option_needs
                      if options.get(option) == value)
        return tuple(dict.fromkeys(self.needs + extra))

    def per_user(self, options):
        """Whether the value is a mean of per-user values under ``options``."""
        return self.level == "user" and not any(
            options.get(option) == value for option, value in self.catalog_options)



