"""What the displays share: the lazy matplotlib import, the checks of the
plotting arguments and the response values of an estimator.

Conventions follow scikit-learn's ``_BinaryClassifierCurveDisplayMixin``: a
binary classifier is scored by ``predict_proba`` (the positive column) or
``decision_function``, and ``pos_label`` names the class that counts as
relevant.  Ranking models that are not classifiers (regressors of relevance,
learning-to-rank models) are scored by ``predict``.
"""

from collections.abc import Mapping

import numpy as np
from sklearn.base import is_classifier
from sklearn.utils.validation import check_is_fitted

from .._core import binary_labels, get_response_values_binary, to_numpy
from .._metrics import rank_for_curves, substitute_doc

__all__ = [
    "import_pyplot",
    "legend_label",
    "validate_style_kwargs",
]

#: Limits of both axes of every display: [0, 1] with room for the lines at
#: 0 and 1, as scikit-learn's displays.
AXIS_LIMITS = (-0.01, 1.01)

_ALIASES = {
    "ls": "linestyle",
    "c": "color",
    "ec": "edgecolor",
    "fc": "facecolor",
    "lw": "linewidth",
    "mec": "markeredgecolor",
    "mfcalt": "markerfacecoloralt",
    "ms": "markersize",
    "mew": "markeredgewidth",
    "mfc": "markerfacecolor",
    "aa": "antialiased",
    "ds": "drawstyle",
}


def import_pyplot(caller):
    """Import ``matplotlib.pyplot``, or say how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            f"{caller} requires matplotlib, an optional dependency of "
            f'sklearn_rankeval: install it with pip install "sklearn-rankeval[plot]" '
            f"(or pip install matplotlib)."
        ) from exc
    return plt


def validate_style_kwargs(defaults, user, name):
    """Merge the user's matplotlib keywords into the defaults.

    ``user`` must be None or a mapping (a ``TypeError`` naming the argument
    otherwise).  An alias (``c``, ``lw``, ...) replaces the default given under
    the full name; giving both an alias and its full name is an error.
    """
    if user is None:
        return dict(defaults)
    if not isinstance(user, Mapping):
        raise TypeError(
            f"{name} must be a dict of matplotlib keyword arguments or None, "
            f"got {type(user).__name__}."
        )
    out = dict(defaults)
    for key, value in user.items():
        full = _ALIASES.get(key, key)
        if full != key and full in user:
            raise TypeError(
                f"{name} got both {key!r} and {full!r}, which are aliases of one "
                f"another."
            )
        out[full] = value
    return out


def draw_diagonal(ax, label, ref_line, ref_line_kw):
    """The dashed ``y = x`` reference line (or None without ``ref_line``),
    labelled once per axes: a second display on the same axes draws it
    without a legend entry."""
    if not ref_line:
        return None
    kw = validate_style_kwargs(
        {"label": label, "color": "k", "linestyle": "--", "linewidth": 1},
        ref_line_kw, "ref_line_kw",
    )
    if any(line.get_label() == kw["label"] for line in ax.get_lines()):
        kw["label"] = f"_{kw['label']}"
    (line,) = ax.plot((0, 1), (0, 1), **kw)
    return line


def legend_label(name, metric_name, value):
    """``"name (metric = 0.1234)"``, or the parts that are known."""
    metric = None if value is None else f"{metric_name} = {value:.4f}"
    if name is not None and metric is not None:
        return f"{name} ({metric})"
    return name if name is not None else metric


def axis_label(text, pos_label):
    return text if pos_label is None else f"{text} (Positive label: {pos_label})"


def finish_axes(ax, *, xlabel, ylabel, legend_loc):
    """Labels, limits 0-1 with equal aspect, and a legend if anything is labelled."""
    ax.set(xlabel=xlabel, ylabel=ylabel, xlim=AXIS_LIMITS, ylim=AXIS_LIMITS,
           aspect="equal")
    _, labels = ax.get_legend_handles_labels()
    if labels:
        ax.legend(loc=legend_loc)


class RankingCurveDisplayMixin:
    """Plot-parameter checks and response values shared by the displays."""

    def _validate_plot_params(self, *, ax=None, name=None):
        plt = import_pyplot(f"{type(self).__name__}.plot")
        if ax is None:
            _, ax = plt.subplots()
        if name is None:
            name = self.name
        return ax, ax.figure, name

    @classmethod
    def _scores_of_estimators(cls, estimators, X, *, response_method="auto",
                              pos_label=None):
        """``({name: scores}, pos_label)`` of several fitted estimators.

        ``estimators``: a dict ``{name: estimator}`` or a list (named by
        class, which must then differ).  A regressor among classifiers reads
        ``y`` as relevance (no ``pos_label``); the classifiers must agree on
        the relevant class.
        """
        if isinstance(estimators, Mapping):
            named = dict(estimators)
        else:
            estimators = list(estimators)
            names = [type(est).__name__ for est in estimators]
            if len(set(names)) < len(names):
                raise ValueError(
                    f"estimators of the same class cannot be told apart by "
                    f"name ({', '.join(names)}): pass a dict {{name: "
                    f"estimator}}."
                )
            named = dict(zip(names, estimators))
        scores, labels = {}, set()
        for model_name, estimator in named.items():
            score, label, _ = cls._get_response_values(
                estimator, X, response_method=response_method,
                pos_label=pos_label if is_classifier(estimator) else None,
                name=model_name)
            scores[model_name] = score
            if label is not None:
                labels.add(label)
        if len(labels) > 1:
            raise ValueError(
                f"the estimators disagree on the relevant class "
                f"({sorted(map(repr, labels))}): pass pos_label=."
            )
        return scores, (labels.pop() if labels else None)

    @classmethod
    def _get_response_values(cls, estimator, X, *, response_method="auto",
                             pos_label=None, name=None):
        """Scores of ``X`` by ``estimator``, the positive label and the name.

        A classifier must be binary: its score is ``predict_proba``'s column of
        ``pos_label`` (``classes_[1]`` by default) or ``decision_function``
        (negated when ``pos_label`` is ``classes_[0]``).  Any other estimator
        is scored by ``predict`` and ``y`` is its relevance.
        """
        import_pyplot(f"{cls.__name__}.from_estimator")
        name = type(estimator).__name__ if name is None else name
        if is_classifier(estimator):
            if response_method not in ("auto", "predict_proba", "decision_function"):
                raise ValueError(
                    f"response_method must be 'auto', 'predict_proba' or "
                    f"'decision_function' for a classifier, got {response_method!r}."
                )
            y_score, pos_label = get_response_values_binary(
                estimator, X, response_method, pos_label=pos_label
            )
            return y_score, pos_label, name
        check_is_fitted(estimator)
        if response_method not in ("auto", "predict"):
            raise ValueError(
                f"response_method must be 'auto' or 'predict' for {name}, which "
                f"is not a classifier (its predictions are the scores); got "
                f"{response_method!r}."
            )
        if pos_label is not None:
            raise ValueError(
                f"pos_label is only used with a classifier; {name} is not one, so "
                f"y is used as the relevance (y > 0 is relevant). Got "
                f"pos_label={pos_label!r}."
            )
        return estimator.predict(X), None, name

    @classmethod
    def _relevance(cls, y_true, y_score, pos_label):
        """``y_true == pos_label`` as 0/1, or ``y_true`` itself when None.

        With ``pos_label=None`` the metrics' convention holds: ``y_true`` is a
        relevance grade and ``y_true > 0`` is relevant.
        """
        import_pyplot(f"{cls.__name__}.from_predictions")
        # the displays plot on the host: Array API inputs are copied there;
        # the labels are read by the input door's one reader, as the metrics
        # (gauc_score, the reports) read them
        values = to_numpy(y_true)
        if hasattr(values, "to_numpy") and not isinstance(values, np.ndarray):
            values = values.to_numpy()
        values = np.asarray(values)
        return binary_labels(values, pos_label,
                             multiclass=np.ndim(y_score) == 2 and values.ndim == 1)

    @staticmethod
    def _rank_for_curves(y_true, y_score, groups, sample_weight):
        """The ranked queries of the curves, and whether there are several.

        Several queries: ``groups`` given, or 2-D input (one query per row).
        """
        grouped = groups is not None or np.ndim(y_score) == 2
        rg = rank_for_curves(y_true, y_score, groups=groups,
                             sample_weight=sample_weight)
        return rg, grouped


# ---------------------------------------------------------------------------
# parameter paragraphs shared by the displays' docstrings
# ---------------------------------------------------------------------------
PLOT_DOCS = {
    "estimator": """\
estimator : estimator instance
    Fitted binary classifier (scored by ``predict_proba`` or
    ``decision_function``), or a fitted regressor / ranking model (scored by
    ``predict``), or a :class:`~sklearn.pipeline.Pipeline` ending in one.""",
    "X": """\
X : {array-like, sparse matrix} of shape (n_samples, n_features)
    Input values.""",
    "y": """\
y : array-like of shape (n_samples,)
    Target values: class labels of a classifier (the class ``pos_label`` is
    relevant), or relevance grades (``y > 0`` is relevant).""",
    "y_true": """\
y_true : array-like of shape (n_samples,) or (n_queries, n_items)
    Relevance of each item: ``y_true > 0`` is relevant, as in the metric
    functions.  With ``pos_label``, class labels: the class ``pos_label`` is
    relevant.""",
    "y_score": """\
y_score : array-like of shape (n_samples,) or (n_queries, n_items)
    Scores, higher ranks first (probability estimates of the relevant class,
    decision values or any ranking score).  ``-inf`` marks an item that was
    not retrieved.""",
    "groups": """\
groups : array-like of shape (n_samples,), default=None
    Id of the query (user, session) of each row.  None: all rows form one
    ranking.  With groups (or 2-D input, one query per row) the curve is the
    average over the queries.""",
    "sample_weight": """\
sample_weight : array-like of shape (n_samples,), default=None
    Item weights, as in :func:`sklearn.metrics.precision_recall_curve` and
    :func:`sklearn.metrics.roc_curve` within each query.""",
    "response_method": """\
response_method : {'auto', 'predict_proba', 'decision_function', 'predict'}, \
default='auto'
    How a classifier scores: ``'auto'`` tries ``predict_proba`` then
    ``decision_function``.  Other estimators are scored by ``predict``.""",
    "pos_label_estimator": """\
pos_label : int, float, bool or str, default=None
    The class of a classifier that is relevant; None: ``estimator.classes_[1]``.
    Must be None for other estimators.""",
    "pos_label": """\
pos_label : int, float, bool or str, default=None
    The class of ``y_true`` that is relevant (a ``ValueError`` if no row has
    it).  None: ``y_true`` is a relevance grade and ``y_true > 0`` is
    relevant.  When given, it is shown in the axis labels.""",
    "name": """\
name : str, default=None
    Name of the curve in the legend.  None: the estimator's class name in
    ``from_estimator``, no name in ``from_predictions``.""",
    "ax": """\
ax : matplotlib Axes, default=None
    Axes to draw on, e.g. one that already shows another system's curve.
    None: a new figure and axes.""",
    "curve_kwargs": """\
curve_kwargs : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the main curve.""",
    "ref_line_kw": """\
ref_line_kw : dict, default=None
    Keyword arguments of matplotlib's ``plot`` for the diagonal.""",
}


def fill_plot_doc(func):
    """Substitute ``%(name)s`` lines of a docstring with :data:`PLOT_DOCS`."""
    return substitute_doc(func, PLOT_DOCS)


def plot_doc_filler(paragraphs):
    """A :func:`fill_plot_doc` that also knows a display's own ``paragraphs``.

    For the parameters that a display's ``from_estimator`` and
    ``from_predictions`` describe alike.
    """
    merged = {**PLOT_DOCS, **paragraphs}

    def fill(func):
        return substitute_doc(func, merged)

    return fill
