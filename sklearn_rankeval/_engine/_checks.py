"""The one input door: every path builds one :class:`RankingInput`.

:func:`check_inputs` (its one constructor) reads the layout from the shapes,
reads the labels once (booleans, ``{-1, 1}``, ``pos_label``: the one reader
:func:`~sklearn_rankeval._core.binary_labels`), checks the arrays, and
encodes multiclass labels (:func:`encode_classes`), without ranking
anything.  The metric functions, reports, per-group frames, the
accumulator, ``compare_rankings``, the scorers and the Spark/Dask
partitions all reach the engine through it; nothing downstream reads an
input again.  A new kind of judgment (grades per intent, item groups,
sampled rankings, judge samples) is a field of :class:`RankingInput` and a
reader here.  NumPy input may hold any ids and class labels (strings included);
under ``array_api_dispatch`` host data (NumPy, lists, pandas) is moved to
the namespace and device of ``y_score`` and must hold numbers (strings are a
host concern: factorize them there and pass the codes).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from .._core import (
    InvalidArgumentError,
    InvalidParameterError,
    astype,
    binary_labels,
    check_binary_labels,
    get_namespace,
    take,
    validate_positions,
    validate_probabilities,
    validate_relevance,
    validate_sample_weight,
    validate_scores,
    xpx,
)
from ._group_ids import check_length, group_ids_array

__all__ = ["COLUMN_READERS", "RankingInput", "check_inputs", "encode_classes",
           "layout_of"]

_HOST_ENCODE = ("encode them on the host (e.g. sklearn.preprocessing.LabelEncoder) "
                "and pass the codes")
_FACTORIZE = ("factorize other ids on the host (codes, ids = "
              "pandas.factorize(groups)) and pass the codes")


@dataclass(frozen=True)
class RankingInput:
    """The checked input of a ranking metric: immutable, built once.

    Unpacks as ``(layout, y_true, y_score, groups, sample_weight)``, the
    arrays the engine ranks (:func:`~._dispatch.rank`).  ``layout`` is
    ``"2d"``, ``"multiclass"`` or ``"long"``; ``y_true`` the relevance as
    read (0/1 for labels, grades as given, class indices in the multiclass
    layout); ``groups`` the group ids as given (encoded by the engine's one
    encoding, :mod:`._group_ids`); ``sample_weight`` the checked weights or
    None.  ``columns``: the optional columns given, each read by its reader
    in :data:`COLUMN_READERS` (``judged``: a boolean mask of the judged
    rows; ``docno``: the item ids of trec_eval's tie order; ``positions``:
    the 1-based logged ranks of a click log, whose clicks are ``y_true``,
    named ``clicks`` by ``true_name``).  A new kind of
    judgment (grades per intent, item groups, ids of sampled rankings, judge
    samples) is one more reader there, and its metric family reads it here.
    """

    layout: str
    y_true: object
    y_score: object
    groups: object
    sample_weight: object
    columns: Mapping = field(default_factory=lambda: MappingProxyType({}))

    def __iter__(self):
        return iter((self.layout, self.y_true, self.y_score, self.groups,
                     self.sample_weight))

    @property
    def n_rows(self):
        """The number of rows (items) of the input."""
        shape = tuple(self.y_score.shape)
        return shape[0] * shape[1] if self.layout == "2d" else shape[0]


def _read_judged(judged, checked):
    """``judged``: a boolean mask of the shape of ``y_score`` (the judged
    rows), on input whose ``y_true`` has that shape too."""
    mask = np.asarray(judged)
    if mask.dtype != bool:  # a wrong type: both a TypeError and a ValueError
        raise InvalidParameterError(
            "judged", f"must be an array of booleans, got dtype {mask.dtype}.")
    shape = tuple(checked.y_score.shape)
    if mask.shape != shape:
        raise InvalidArgumentError(
            "judged", f"must have the shape of y_score {shape}, got {mask.shape}.")
    if tuple(np.shape(checked.y_true)) != shape:
        raise InvalidArgumentError(
            "judged", f"needs y_true of the shape of y_score {shape} (no "
            f"multiclass input), got {tuple(np.shape(checked.y_true))}.")
    return mask


def _read_docno(docno, checked):
    """``docno``: one item id per row (the shape of ``y_score``)."""
    ids = np.asarray(docno)
    shape = tuple(checked.y_score.shape)
    if ids.shape != shape:
        raise InvalidArgumentError(
            "docno", f"must have the shape of y_score {shape}, got {ids.shape}.")
    return ids


def _read_positions(positions, checked):
    """``positions``: the 1-based logged rank of each row of a click log
    (``y_true``: its clicks), integers >= 1 as int64."""
    ranks = validate_positions(positions, "positions")
    check_length(ranks.shape, checked.n_rows, "positions", what="rank",
                 rows="clicks")
    return ranks


#: The readers of the optional columns: ``reader(value, checked) -> value``,
#: given the :class:`RankingInput` of the required arrays.  One reader per
#: kind of column, here only.
COLUMN_READERS = {"judged": _read_judged, "docno": _read_docno}
COLUMN_READERS["positions"] = _read_positions


def check_inputs(y_true, y_score, *, groups=None, sample_weight=None, labels=None,
                 score_name="y_score", probabilities=False, binary=False,
                 pos_label=None, true_name="y_true", **columns):
    """The checked :class:`RankingInput` of a ranking metric (see
    :func:`_check_arrays`); ``columns``: optional columns (``judged=``,
    ``docno=``; None where not given), each read by its reader of
    :data:`COLUMN_READERS`; ``true_name``: the caller's name of ``y_true``
    in the messages of the long layout (``"clicks"`` in a click log)."""
    unknown = set(columns) - set(COLUMN_READERS)
    if unknown:
        raise TypeError(f"check_inputs() got unexpected column(s) "
                        f"{', '.join(sorted(unknown))}.")
    checked = _check_arrays(y_true, y_score, groups=groups,
                            sample_weight=sample_weight, labels=labels,
                            score_name=score_name, probabilities=probabilities,
                            binary=binary, pos_label=pos_label,
                            true_name=true_name)
    read = {name: COLUMN_READERS[name](value, checked)
            for name, value in columns.items() if value is not None}
    return replace(checked, columns=MappingProxyType(read)) if read else checked


def _check_arrays(y_true, y_score, *, groups=None, sample_weight=None, labels=None,
                  score_name="y_score", probabilities=False, binary=False,
                  pos_label=None, true_name="y_true"):
    """The checked arrays of a ranking metric, before any ranking.

    Returns a :class:`RankingInput` ``(layout, y_true, y_score, groups, w)``:
    ``layout`` is ``"2d"``
    (2-D ``y_true`` and ``y_score``: one query per row), ``"multiclass"``
    (2-D ``y_score``, 1-D class labels: then ``y_true`` holds each sample's
    column index) or ``"long"`` (1-D ``y_score``, with ``groups`` or one
    ranking); ``w`` the checked sample weights (or None).  The arrays keep
    their dtypes (float32 scores, small integer grades), so that a caller can
    rank them piece by piece (:mod:`.._chunked`).  Arrays of another
    namespace stay in it (:func:`~.._array_api.get_namespace`).

    ``probabilities``: the scores must be probabilities in [0, 1];
    ``binary``: ``y_true`` must hold 0/1 labels (the metrics of two classes);
    ``score_name``: the caller's name of ``y_score`` in the messages
    (``"y_prob"`` in the CTR functions); ``pos_label``: the positive class
    of label input (:func:`~sklearn_rankeval._core.binary_labels`, which
    also reads booleans and ``{-1, 1}`` of 1-D ``y_true``).
    """
    xp, device = get_namespace(y_score, y_true, groups, sample_weight)
    y_true = binary_labels(
        y_true, pos_label,
        multiclass=layout_of(y_true, y_score, labels) == "multiclass")

    def move(x, name):
        """Host data (NumPy, lists, pandas) to the namespace and device."""
        if xp is np or x is None or xpx.is_foreign_array(x):
            return x
        if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
            x = x.to_numpy()
        x = np.asarray(x)
        if x.dtype.kind not in "biuf":
            raise TypeError(
                f"{name} holds values of dtype {x.dtype}; under "
                f"array_api_dispatch the arrays hold numbers (encode string "
                f"labels on the host, e.g. with sklearn.preprocessing."
                f"LabelEncoder, and pass the codes)."
            )
        return xpx.asarray(xp, x, device)

    y_score = validate_scores(move(y_score, score_name), xp=xp, name=score_name)
    if probabilities:
        validate_probabilities(y_score, xp, name=score_name)
    sample_weight = move(sample_weight, "sample_weight")
    if y_score.ndim == 2:
        if groups is not None:
            raise ValueError(
                "groups must be None when y_score is 2-D: each row of a 2-D "
                "y_score is already one query."
            )
        n_queries = y_score.shape[0]
        y_true = move(y_true, "y_true")
        y_true_arr = y_true
        if not hasattr(y_true, "ndim"):
            try:
                y_true_arr = np.asarray(y_true)
            except ValueError:
                raise ValueError("y_true could not be converted to an array.") from None
        if y_true_arr.ndim == 2:
            y_true = validate_relevance(y_true, xp=xp)
            if binary:
                check_binary_labels(y_true, xp)
            if tuple(y_true.shape) != tuple(y_score.shape):
                raise ValueError(
                    f"y_true and {score_name} must have the same shape, got "
                    f"{tuple(y_true.shape)} and {tuple(y_score.shape)}."
                )
            w = validate_sample_weight(sample_weight, n_queries, "query (row)", xp=xp)
            return RankingInput("2d", y_true, y_score, None, w)
        if y_true_arr.ndim != 1 or y_true_arr.shape[0] != n_queries:
            raise ValueError(
                f"y_true must be 2-D of shape {tuple(y_score.shape)} (one row per "
                f"query) or 1-D class labels of length {n_queries} (multiclass); "
                f"got shape {tuple(y_true_arr.shape)}."
            )
        y_encoded = encode_classes(xp, y_true_arr, y_score.shape[1], labels, device)
        w = validate_sample_weight(sample_weight, n_queries, "sample (query)", xp=xp)
        return RankingInput("multiclass", y_encoded, y_score, None, w)

    y_true = _check_long_y_true(validate_relevance(move(y_true, "y_true"), xp=xp),
                                y_score, score_name, true_name)
    if binary:
        check_binary_labels(y_true, xp)
    n = y_score.shape[0]
    if groups is not None and xp is not np:
        groups = _integer_ids(xp, device, groups, n)
    w = validate_sample_weight(sample_weight, n, "row", xp=xp)
    return RankingInput("long", y_true, y_score, groups, w)


def layout_of(y_true, y_score, labels=None):
    """The layout :func:`check_inputs` reads from the shapes: ``"2d"`` (2-D
    ``y_true`` and ``y_score``), ``"multiclass"`` (2-D ``y_score``, 1-D
    class labels, or ``labels`` given) or ``"long"``."""
    if _ndim(y_score) == 2:
        return "2d" if _ndim(y_true) == 2 and labels is None else "multiclass"
    return "long"


def _ndim(x):
    """The number of dimensions of an array or nested list (-1 if ragged)."""
    if hasattr(x, "ndim"):
        return x.ndim
    try:
        return np.ndim(x)
    except ValueError:  # ragged nested lists: the checks below report them
        return -1


def _integer_ids(xp, device, groups, n):
    """Group ids in the namespace: integers, as int64."""
    if not xpx.is_foreign_array(groups):  # host ids: integers are moved
        ids = group_ids_array(groups)
        if ids.dtype.kind not in "iub":
            raise TypeError(f"groups must hold integer ids under array_api_dispatch "
                            f"(got dtype {ids.dtype}): {_FACTORIZE}.")
        groups = xpx.asarray(xp, ids, device)
    if not xp.isdtype(groups.dtype, ("integral", "bool")):
        raise TypeError(f"groups must hold integer ids under array_api_dispatch "
                        f"(got dtype {groups.dtype}): {_FACTORIZE}.")
    unsigned = groups.dtype == xp.uint64
    check_length(tuple(groups.shape), n)
    groups = astype(xp, groups, xp.int64)
    if unsigned and bool(xp.any(groups < 0)):  # wrapped around
        raise ValueError(
            "groups holds uint64 ids of 2**63 or more, which int64 cannot "
            "hold: factorize them on the host (codes, ids = "
            "pandas.factorize(groups)) and pass the codes."
        )
    return groups


def encode_classes(xp, y, n_classes, labels, device=None):
    """Class labels -> column indices of y_score, as top_k_accuracy_score does.

    NumPy labels may be of any comparable dtype; in another namespace they
    are numbers (booleans read as 0/1).
    """
    if xp is np:
        if hasattr(y, "to_numpy") and not isinstance(y, np.ndarray):
            y = y.to_numpy()
        y = np.asarray(y)
        classes = None if labels is None else np.asarray(labels)
    else:
        if not xp.isdtype(y.dtype, ("integral", "real floating", "bool")):
            raise TypeError(f"y_true holds class labels of dtype {y.dtype}; under "
                            f"array_api_dispatch they must be numbers: "
                            f"{_HOST_ENCODE}.")
        if xp.isdtype(y.dtype, "bool"):
            y = astype(xp, y, xp.int64)
        classes = None
        if labels is not None:
            host = np.asarray(labels)
            if host.dtype.kind not in "biuf":
                raise TypeError(f"labels must be numbers under array_api_dispatch, "
                                f"got dtype {host.dtype}: encode the classes on the "
                                f"host and pass the codes.")
            as_float = host.dtype.kind == "f" or xp.isdtype(y.dtype, "real floating")
            y = astype(xp, y, xp.float64 if as_float else xp.int64)
            classes = xpx.asarray(xp, host.astype(np.float64 if as_float
                                                  else np.int64), device)
    if classes is None:
        found = xpx.unique_values(xp, y)
        if found.shape[0] != n_classes:
            raise ValueError(
                f"y_true has {found.shape[0]} distinct classes but y_score has "
                f"{n_classes} columns; pass labels= with one label per column "
                f"of y_score."
            )
        return xp.searchsorted(found, y)
    if classes.ndim != 1 or classes.shape[0] != n_classes:
        raise ValueError(
            f"labels must list one class per column of y_score ({n_classes}), "
            f"got shape {tuple(classes.shape)}."
        )
    order = xpx.argsort(xp, classes)
    sorted_classes = take(xp, classes, order)
    if bool(xp.any(sorted_classes[1:] == sorted_classes[:-1])):
        raise ValueError("labels must be unique.")
    if (xp is np and y.dtype.kind in "iu" and classes.dtype.kind in "iu"
            and np.array_equal(classes, np.arange(n_classes))):
        # labels 0..n_classes-1 in column order (estimator.classes_ of
        # integer-coded targets): the labels are the column indices
        if y.size and (y.min() < 0 or y.max() >= n_classes):
            raise ValueError("y_true contains labels that are not in labels.")
        return y
    idx = xp.clip(xp.searchsorted(sorted_classes, y), 0, n_classes - 1)
    if not bool(xp.all(take(xp, sorted_classes, idx) == y)):
        raise ValueError("y_true contains labels that are not in labels.")
    return take(xp, order, idx)


def _check_long_y_true(y_true, y_score, score_name="y_score", true_name="y_true"):
    """``y_true`` of 1-D ``y_score``: 1-D, of the same length."""
    if y_true.ndim != 1:
        raise ValueError(
            f"{true_name} must be 1-D when {score_name} is 1-D, got shape "
            f"{tuple(y_true.shape)}."
        )
    if y_true.shape[0] != y_score.shape[0]:
        raise ValueError(
            f"{true_name} and {score_name} have inconsistent lengths: "
            f"{y_true.shape[0]} and {y_score.shape[0]}."
        )
    return y_true
