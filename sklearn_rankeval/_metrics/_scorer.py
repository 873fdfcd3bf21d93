"""Scorers: the metrics as ``scoring=`` of GridSearchCV and cross_validate.

Built from the metric registry.  A grouped scorer requests ``groups`` through
scikit-learn's metadata routing, so ``GridSearchCV(...).fit(X, y,
groups=groups)`` scores each fold per group with no further call; without
routing it refuses to score a fold of 1-D predictions as one query.
:func:`get_scorer` also returns scikit-learn's scorers for their names, so one
``scoring`` dict can mix both.
"""

from sklearn import config_context
from sklearn.metrics import get_scorer as _sklearn_get_scorer
from sklearn.metrics import get_scorer_names as _sklearn_get_scorer_names
from sklearn.metrics import make_scorer

from .._engine import layout_of
from ._conventions import CONVENTIONS, check_convention, preset, split_scorer_name
from ._docs import fill_doc
from ._names import did_you_mean, read_metric_name, valid_names_text
from ._pipeline import compute
from ._registry import CLASSIFICATION, CUTOFFS_LISTED, METRICS

__all__ = ["get_scorer", "get_scorer_names", "make_ranking_scorer"]

#: Response methods tried in order: probabilities (the positive column for a
#: binary classifier, the full matrix for a multiclass one), then
#: ``decision_function``, then ``predict`` (regressors: pointwise LTR scores).
RANKING_RESPONSE = ("predict_proba", "decision_function", "predict")



class _GroupedScoreFunc:
    """Wrap a grouped metric so that a fold without groups raises.

    A module-level class (not a closure) so that scorers pickle, as
    ``n_jobs > 1`` needs.  2-D predictions (multiclass ``predict_proba``) are
    rankings per sample: they need no groups, and routed groups are ignored.
    """

    def __init__(self, score_func):
        self.score_func = score_func
        self.__name__ = score_func.__name__

    def __call__(self, y_true, y_score, *, groups=None, **kwargs):
        if layout_of(y_true, y_score) != "long":  # a ranking per sample or row
            return self.score_func(y_true, y_score, **kwargs)
        if groups is None:
            raise ValueError(self._no_groups_advice())
        return self.score_func(y_true, y_score, groups=groups, **kwargs)

    def _no_groups_advice(self):
        """What to do, by the state of scikit-learn's metadata routing."""
        from sklearn import get_config

        head = (f"{self.__name__} scores each group (query, user) separately, "
                f"but the scorer received no groups. ")
        tail = ("The scorer requests groups; scoring the fold as one ranking is "
                "refused.")
        if get_config().get("enable_metadata_routing", False):
            return (head + "Metadata routing is enabled, so fit() received no "
                    "groups: pass them when fitting, e.g. GridSearchCV(...).fit("
                    "X, y, groups=groups) or cross_validate(..., params="
                    "{'groups': groups}). " + tail)
        return (head + "Enable metadata routing with sklearn.set_config("
                "enable_metadata_routing=True) and pass groups when fitting, "
                "e.g. GridSearchCV(...).fit(X, y, groups=groups) or "
                "cross_validate(..., params={'groups': groups}). " + tail)

    def __repr__(self):
        return self.__name__


class _NamedScoreFunc:
    """The score function of a metric name that sets more than a cutoff
    (ir_measures' ``"P(rel=2)@5"``: a relevance threshold and
    ``undefined=0``), some of which its public function does not take.

    A module-level class, so that the scorer pickles; the options come as
    the scorer's keyword arguments.
    """

    def __init__(self, metric):
        self.metric = metric
        self.__name__ = METRICS[metric].func_name

    def __call__(self, y_true, y_score, *, groups=None, sample_weight=None,
                 labels=None, **options):
        return compute(self.metric, y_true, y_score, groups=groups,
                       sample_weight=sample_weight, labels=labels,
                       average=METRICS[self.metric].default_average, **options)

    def __repr__(self):
        return self.__name__


def make_ranking_scorer(score_func, *, response_method=RANKING_RESPONSE,
                        requires_groups=True, convention=None,
                        greater_is_better=True, **kwargs):
    """Make a scorer from a grouped ranking metric.

    A wrapper over :func:`sklearn.metrics.make_scorer` that requests
    ``groups`` through metadata routing by default (no ``set_score_request``
    call needed) and works whether routing is enabled or not: without routing,
    a scorer that receives 1-D predictions and no groups raises a
    ``ValueError`` explaining how to enable routing, instead of scoring the
    fold as one query.

    Read more in the :ref:`User Guide <model-selection>`.

    Parameters
    ----------
    score_func : callable
        A metric with the signature ``score_func(y_true, y_score, *,
        groups=None, **kwargs)``, such as :func:`gauc_score`.
    response_method : str or tuple of str, \
            default=("predict_proba", "decision_function", "predict")
        Estimator methods tried in order, as in
        :func:`sklearn.metrics.make_scorer`: probabilities (positive column for
        a binary classifier, the full matrix for a multiclass one), then the
        decision function, then ``predict`` (regressors).
    requires_groups : bool, default=True
        Whether 1-D predictions must come with ``groups``.  With ``False`` the
        scorer requests no groups and scores each fold as one ranking.
    convention : str, default=None
        Passed to ``score_func`` as ``convention=`` (one of the metric
        functions' conventions, such as ``"lightgbm"``): the scorer computes
        the metric as that library does.  None: not passed.
    greater_is_better : bool, default=True
        False for a loss (:func:`log_loss`): the scorer returns the negated
        value, as :func:`sklearn.metrics.make_scorer` does.
    **kwargs
        Fixed keyword arguments of ``score_func`` (``k=10``, ``labels=...``).

    Returns
    -------
    scorer : callable
        A scikit-learn scorer, ``scorer(estimator, X, y, **metadata)``.

    Raises
    ------
    TypeError
        If ``score_func`` is not callable (a metric name goes to
        :func:`get_scorer`).

    See Also
    --------
    get_scorer : The scorer of a metric name such as ``"ndcg@10"``.
    sklearn.metrics.make_scorer : The function this wraps.

    Notes
    -----
    Multiclass classifiers are scored in the multiclass layout (one query per
    sample), with no groups.  When a fold may miss a class, pass
    ``labels=estimator_classes`` so that the score columns map to classes.
    ``sample_weight`` is not requested by default; call
    ``scorer.set_score_request(sample_weight=True)`` (routing enabled) to
    route it.

    References
    ----------
    .. [1] scikit-learn User Guide, "The scoring parameter: defining model
       evaluation rules",
       https://scikit-learn.org/stable/modules/model_evaluation.html.
    .. [2] scikit-learn User Guide, "Metadata Routing",
       https://scikit-learn.org/stable/metadata_routing.html.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_rankeval import gauc_score, make_ranking_scorer
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    >>> y = np.array([0, 1, 0, 1, 0, 1])
    >>> groups = np.array([1, 1, 2, 2, 3, 3])
    >>> scorer = make_ranking_scorer(gauc_score)
    >>> model = LogisticRegression().fit(X, y)
    >>> # metadata such as groups reaches a scorer only with routing enabled
    >>> import sklearn
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     print(scorer(model, X, y, groups=groups))
    1.0
    """
    if not callable(score_func):
        hint = (f"; for a metric name use get_scorer({score_func!r})"
                if isinstance(score_func, str) else "")
        raise TypeError(
            f"score_func must be a callable metric such as gauc_score, got "
            f"{score_func!r} of type {type(score_func).__name__}{hint}."
        )
    if convention is not None:
        kwargs["convention"] = check_convention(convention)
    func = _GroupedScoreFunc(score_func) if requires_groups else score_func
    scorer = make_scorer(func, response_method=response_method,
                         greater_is_better=greater_is_better, **kwargs)
    if requires_groups:
        # set_score_request is only callable while routing is enabled; the
        # request it records stays on the scorer and is used whenever routing
        # is on, and is harmless when it is off.
        with config_context(enable_metadata_routing=True):
            scorer.set_score_request(groups=True)
    return scorer


def _grouped_names():
    """(scorer name, spec) of the scorer names without a cutoff."""
    return [(spec.scorer_name, spec) for spec in METRICS.values()
            if spec.k_default is None and spec.scorer]


def _loss_spec(name):
    """The spec of a loss's scorer name ``"neg_<metric>"``, or None."""
    if name.startswith("neg_"):
        spec = METRICS.get(name[len("neg_"):])
        if spec is not None and spec.scorer == "neg":
            return spec
    return None


@fill_doc
def get_scorer_names():
    """The scorer names of this package, for :func:`get_scorer`.

    Only this package's names: :func:`get_scorer` also accepts every name of
    :func:`sklearn.metrics.get_scorer_names` (``"roc_auc"``, ``"accuracy"``
    ...), and ir_measures' names of the same metrics (``"nDCG@10"``,
    ``"P(rel=2)@5"``: :ref:`ir-measures-names`), which this list leaves out
    (they are other spellings, with any cutoff and threshold).

    Read more in the :ref:`User Guide <scorer-names>`.

    Returns
    -------
    %(scorer_names_returned)s

    See Also
    --------
    get_scorer : The scorer of one of these names.
    sklearn.metrics.get_scorer_names : The names of scikit-learn, also accepted by
        :func:`get_scorer`.

    References
    ----------
    .. [1] scikit-learn User Guide, "The scoring parameter: defining model
       evaluation rules",
       https://scikit-learn.org/stable/modules/model_evaluation.html.

    Examples
    --------
    >>> from sklearn_rankeval import get_scorer_names
    >>> "gauc" in get_scorer_names(), "ndcg@10" in get_scorer_names()
    (True, True)
    """
    names = [name for name, _ in _grouped_names()] + list(CLASSIFICATION)
    names += [f"{name}@{k}" for name, spec in METRICS.items()
              if spec.has_k and spec.scorer for k in CUTOFFS_LISTED]
    return sorted(names)


@fill_doc
def get_scorer(name, *, convention=None):
    """The scorer of a metric name, for ``scoring=`` in model selection.

    This package's names first; any other name goes to
    :func:`sklearn.metrics.get_scorer`, so that one import serves a mixed
    ``scoring={"gauc": get_scorer("gauc"), "auc": get_scorer("roc_auc")}``.

    Another library's number: ``get_scorer("ndcg@10", convention="lightgbm")``,
    or the same as one name, ``get_scorer("lightgbm:ndcg@10")`` (the
    convention, a colon, the metric name), which is what a
    ``scoring={...}`` dict or a command line can carry.

    ir_measures' names (``"nDCG@10"``, ``"AP@100"``, ``"RR@10"``,
    ``"P(rel=2)@5"``, ``"RBP(p=0.8)"`` ...) give ir_measures' numbers (its
    pytrec_eval provider's: trec_eval's), a query without a relevant item
    counting 0 (see :ref:`ir-measures-names`).

    Read more in the :ref:`User Guide <scorer-names>`.

    Parameters
    ----------
    %(scorer_name)s
    %(convention_header)s
        Compute the metric as that library does (see
        :ref:`conventions-presets`); the same as the ``"convention:"`` prefix.

    Returns
    -------
    scorer : callable
        A new scikit-learn scorer.  Ranking scorers request ``groups``
        through metadata routing (see :func:`make_ranking_scorer`);
        ``"f_alpha"`` scores ``predict`` with :func:`f_alpha_score` (F1).
        scikit-learn's names give :func:`sklearn.metrics.get_scorer`'s
        scorer, which requests no ``groups``.

    Raises
    ------
    ValueError
        For a name that neither package knows; the message suggests the
        closest valid names (``"ndgc@10"``: did you mean ``"ndcg@10"``?).
        For an ir_measures measure or parameter with no equivalent here
        (``"Judged@10"``, ``"nDCG(gains={0: 0, 1: 5})"``), saying why.
        For a convention that has no such metric (``"lightgbm:mrr"``).

    See Also
    --------
    make_ranking_scorer : Build a scorer with other options.
    get_scorer_names : The names of this package.
    sklearn.metrics.get_scorer : The scorers of scikit-learn, the fallback.

    References
    ----------
    .. [1] scikit-learn User Guide, "The scoring parameter: defining model
       evaluation rules",
       https://scikit-learn.org/stable/modules/model_evaluation.html.
    .. [2] scikit-learn User Guide, "Metadata Routing",
       https://scikit-learn.org/stable/metadata_routing.html.

    Examples
    --------
    >>> import sklearn
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV, GroupKFold
    >>> from sklearn_rankeval import get_scorer
    >>> from sklearn_rankeval.datasets import make_click_log
    >>> X, y, groups = make_click_log(n_users=60, random_state=0)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]},
    ...                           scoring=get_scorer("gauc"), cv=GroupKFold(3))
    ...     search = search.fit(X, y, groups=groups)
    >>> sorted(search.best_params_)
    ['C']
    >>> # scikit-learn's names give scikit-learn's scorers
    >>> from sklearn.metrics import get_scorer as sklearn_get_scorer
    >>> repr(get_scorer("roc_auc")) == repr(sklearn_get_scorer("roc_auc"))
    True
    >>> # LightGBM's ndcg@10 (gain 2**rel - 1, ties in row order, a query
    >>> # without relevant items counting 1), by name
    >>> lightgbm_ndcg = get_scorer("lightgbm:ndcg@10")
    >>> repr(lightgbm_ndcg) == repr(get_scorer("ndcg@10", convention="lightgbm"))
    True
    >>> # ir_measures' P@5 with grades of 2 and above relevant
    >>> precision = get_scorer("P(rel=2)@5")
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}.")
    prefix, name = split_scorer_name(name)
    if prefix is not None:
        if convention is not None and convention != prefix:
            raise ValueError(f"The name asks for convention {prefix!r} but "
                             f"convention={convention!r}.")
        convention = prefix
    convention = check_convention(convention)
    if name in CLASSIFICATION and convention is None:
        spec = CLASSIFICATION[name]
        return make_scorer(spec.func, response_method=spec.response_method)
    loss = _loss_spec(name)
    if loss is not None:
        if convention is not None:
            preset(convention, loss, {})
        # a pooled average of every row does not depend on the groups: the
        # scorer requests none (neg_log_loss is then scikit-learn's)
        return make_ranking_scorer(loss.func, convention=convention,
                                   greater_is_better=False,
                                   requires_groups=not loss.grouping_free)
    parsed = read_metric_name(name)  # a ValueError for a refused ir_measures name
    if parsed is not None:
        spec, options = parsed
        if spec.scorer == "neg":
            raise ValueError(
                f"{name!r} is a loss (lower is better): its scorer is "
                f"{spec.scorer_name!r}, the negated value.")
        if not spec.scorer:
            raise ValueError(
                f"{name!r} is not a scorer: {spec.func_name} is neither better "
                f"high nor better low (it measures what the judgments leave "
                f"unknown, or a ratio best at 1); call the function or name it "
                f"in ranking_report / per_group_scores.")
        if convention is not None:
            preset(convention, spec, options)  # a ValueError now, not per fold
        if set(options) <= {"k"}:  # this package's names
            return make_ranking_scorer(spec.func, convention=convention, **options)
        # ir_measures' names: their options (a relevance threshold) and switches
        spec.check_options(**{n: v for n, v in options.items()
                              if n in spec.option_names})
        return make_ranking_scorer(_NamedScoreFunc(spec.name),
                                   convention=convention, **options)
    if convention is not None:
        raise ValueError(
            f"convention={convention!r} applies to this package's ranking "
            f"metrics; {name!r} is not one. Valid conventions are "
            f"{', '.join(CONVENTIONS)}."
        )
    if name in _sklearn_get_scorer_names():
        return _sklearn_get_scorer(name)
    raise ValueError(
        f"{name!r} is not a scorer name of sklearn_rankeval or scikit-learn."
        f"{_did_you_mean(name)} Valid names are "
        f"{valid_names_text(extra=tuple(CLASSIFICATION))}, and those of "
        f"sklearn.metrics.get_scorer_names()."
    )


def _did_you_mean(name):
    """`` Did you mean 'ndcg@10'?`` for a near miss, or ``""``."""
    return did_you_mean(name, get_scorer_names(),
                        extra=(*CLASSIFICATION, *_sklearn_get_scorer_names()))
