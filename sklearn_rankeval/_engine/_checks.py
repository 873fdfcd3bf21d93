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

import warnings
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
from ._group_ids import check_length, encode_rows, group_ids_array

__all__ = ["COLUMN_READERS", "RankingInput", "check_inputs", "encode_classes",
           "layout_of"]

#: What NumPy < 1.24 emits for ragged nested lists (later releases raise).
_RAGGED_WARNING = getattr(getattr(np, "exceptions", np), "VisibleDeprecationWarning",
                          DeprecationWarning)
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

    def to_long(self):
        """The input in the long layout: 2-D input (one query per row)
        becomes one row per item with its row's index as group and the
        query weight on each of its items (long input is returned as it
        is), still checked."""
        if self.layout == "long":
            return self
        if self.layout != "2d":
            raise ValueError(f"to_long() reads 2-D or long input, not "
                             f"{self.layout!r} input.")
        n_queries, n_items = tuple(self.y_score.shape)
        w = self.sample_weight
        return RankingInput(
            "long", np.reshape(self.y_true, (-1,)), np.reshape(self.y_score, (-1,)),
            np.repeat(np.arange(n_queries), n_items),
            None if w is None else np.repeat(np.asarray(w), n_items),
            MappingProxyType({
                name: np.reshape(values, (n_queries * n_items,)
                                 + tuple(np.shape(values)[2:]))
                for name, values in self.columns.items()}))

    def take(self, rows):
        """The checked input of the rows ``rows`` (an index or a boolean
        mask) of a long-layout input: each array and column cut alike, still
        checked (a row's checks do not depend on the other rows)."""
        if self.layout != "long":
            raise ValueError(f"take() cuts rows of the long layout, not "
                             f"{self.layout!r} input.")

        def cut(values):
            if values is None:
                return None
            if hasattr(values, "iloc"):  # (ids kept as given: a Series)
                return values.iloc[rows]
            return (values if hasattr(values, "shape") else np.asarray(values))[rows]

        return RankingInput(
            self.layout, cut(self.y_true), cut(self.y_score), cut(self.groups),
            cut(self.sample_weight),
            MappingProxyType({name: cut(values)
                              for name, values in self.columns.items()}))


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


def _row_codes(name, values, checked):
    """Ids of one column, one per row (the long layout), as dense int64
    codes in the sorted order of the ids (the engine's one encoding)."""
    n = checked.n_rows
    if checked.layout != "long":
        raise InvalidArgumentError(
            name, "needs the long layout (1-D y_score with groups=), one id per "
            "row.")
    shape = tuple(np.shape(values))
    if shape[:1] != (n,):
        raise InvalidArgumentError(
            name, f"must have one id per row of y_score ({n}), got shape {shape}.")
    return encode_rows(values, n, name=name)[0]


def _read_samples(samples, checked):
    """``samples``: the id of the sampled ranking (of its group) each row is in."""
    return _row_codes("samples", samples, checked)


def _read_items(items, checked):
    """``items``: the item each row shows (the same item in several sampled
    rankings of a group)."""
    return _row_codes("items", items, checked)


def _read_item_groups(item_groups, checked):
    """``item_groups``: the group of each row's item, 1-D, or 2-D
    ``(n_rows, n_dimensions)`` (one group per dimension): int64 codes of
    shape ``(n_rows, n_dimensions)``, distinct across dimensions."""
    values = item_groups
    if not hasattr(values, "shape"):
        values = np.asarray(values, dtype=object if not len(values) else None)
    if getattr(values, "ndim", 1) == 1:
        return _row_codes("item_groups", values, checked).reshape(-1, 1)
    if values.ndim != 2 or values.shape[1] == 0:
        raise InvalidArgumentError(
            "item_groups", f"must be 1-D (one group per row) or 2-D (one group "
            f"per row and dimension), got shape {tuple(values.shape)}.")
    columns = (values.iloc[:, j] if hasattr(values, "iloc") else values[:, j]
               for j in range(values.shape[1]))
    codes = [_row_codes("item_groups", column, checked) for column in columns]
    offsets = np.cumsum([0] + [int(c.max()) + 1 if c.shape[0] else 0
                               for c in codes[:-1]])
    return np.stack([c + o for c, o in zip(codes, offsets)], axis=1)


def _read_exposure(exposure, checked):
    """``exposure``: each row's expected exposure, already averaged over a
    policy's rankings (finite, >= 0; one item per row)."""
    values = np.asarray(exposure, dtype=np.float64)
    if values.shape != (checked.n_rows,) or checked.layout != "long":
        raise InvalidArgumentError(
            "exposure", f"must hold one number per row of the long layout "
            f"({checked.n_rows}), got shape {values.shape}.")
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise InvalidArgumentError("exposure", "must hold finite numbers >= 0.")
    return values


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
COLUMN_READERS = {"judged": _read_judged, "docno": _read_docno,
                  "positions": _read_positions, "samples": _read_samples,
                  "items": _read_items, "item_groups": _read_item_groups,
                  "exposure": _read_exposure}


def _read_intent_weights(weights, checked):
    """``intent_weights``: ``P(i | q)`` of each intent, non-negative and
    finite: one vector ``(n_intents,)`` for every row, or one per row
    ``(n_rows, n_intents)``; read as a float64 matrix of one row per input
    row.  (Constant within each group: the diversity kernels check it.)"""
    w = np.asarray(weights.to_numpy() if hasattr(weights, "to_numpy")
                   and not isinstance(weights, np.ndarray) else weights)
    if w.dtype.kind not in "biuf":
        raise InvalidParameterError(
            "intent_weights", f"must hold numbers, got dtype {w.dtype}.")
    w = w.astype(np.float64)
    n_rows = checked.n_rows
    grades = checked.columns.get("intent_grades")
    n_intents = None if grades is None else np.shape(grades)[1]
    if w.ndim == 1:
        w = np.broadcast_to(w, (n_rows, w.shape[0]))
    if w.ndim != 2 or w.shape[0] != n_rows or (
            n_intents is not None and w.shape[1] != n_intents):
        want = "(n_intents,) or (n_rows, n_intents)" if n_intents is None else (
            f"({n_intents},) or ({n_rows}, {n_intents})")
        raise InvalidArgumentError(
            "intent_weights", f"must have shape {want} (one weight per intent "
            f"of y_true), got {np.shape(weights)}.")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise InvalidArgumentError(
            "intent_weights", "must be finite and non-negative (the "
            "probability of each intent).")
    return w


COLUMN_READERS["intent_weights"] = _read_intent_weights


def check_inputs(y_true, y_score, *, groups=None, sample_weight=None, labels=None,
                 score_name="y_score", probabilities=False, binary=False,
                 pos_label=None, per_intent=False, true_name="y_true",
                 gains=False, **columns):
    """The checked :class:`RankingInput` of a ranking metric (see
    :func:`_check_arrays`); ``columns``: optional columns (``judged=``,
    ``docno=``; None where not given), each read by its reader of
    :data:`COLUMN_READERS`; ``true_name``: the caller's name of ``y_true``
    in the messages of the long layout (``"clicks"`` in a click log, the
    held-out relevance column of top-N lists); ``gains``: ``y_true`` holds
    gains, not labels (a held-out relevance column): read as numbers
    (booleans 0/1), ``{-1, 1}`` not read as labels.

    ``per_intent``: a metric of the call reads grades per intent (the
    diversity metrics): then 2-D ``y_true`` of shape ``(n_rows, n_intents)``
    beside 1-D ``y_score`` is read as the grades of each row for each
    intent (:func:`_read_intent_grades`): the column ``"intent_grades"``,
    and ``y_true`` each row's largest grade (what the other metrics of the
    call rank)."""
    unknown = set(columns) - set(COLUMN_READERS)
    if unknown:
        raise TypeError(f"check_inputs() got unexpected column(s) "
                        f"{', '.join(sorted(unknown))}.")
    grades = None
    if per_intent and _ndim(y_true) == 2 and _ndim(y_score) == 1:
        grades = _read_intent_grades(y_true, y_score, score_name)
        y_true = grades.max(axis=1)
    checked = _check_arrays(y_true, y_score, groups=groups,
                            sample_weight=sample_weight, labels=labels,
                            score_name=score_name, probabilities=probabilities,
                            binary=binary, pos_label=pos_label,
                            true_name=true_name, gains=gains)
    read = {name: COLUMN_READERS[name](value, checked)
            for name, value in columns.items() if value is not None}
    if grades is not None:
        read["intent_grades"] = grades
    return replace(checked, columns=MappingProxyType(read)) if read else checked


def _read_intent_grades(y_true, y_score, score_name):
    """Grades per intent: 2-D ``y_true`` ``(n_rows, n_intents)`` of finite
    grades >= 0 (NumPy), one row per row of 1-D ``y_score``; float64."""
    grades = validate_relevance(y_true)  # (numeric, never empty)
    n = np.shape(y_score)[0]
    if grades.shape[0] != n:
        raise InvalidArgumentError(
            "y_true", f"must have one row of grades per intent for each of the "
            f"{n} rows of {score_name}, got shape {tuple(grades.shape)}.")
    return np.asarray(grades, dtype=np.float64)


def _check_arrays(y_true, y_score, *, groups=None, sample_weight=None, labels=None,
                  score_name="y_score", probabilities=False, binary=False,
                  pos_label=None, true_name="y_true", gains=False):
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
    if not gains:
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
                with warnings.catch_warnings():
                    # ragged nested lists: NumPy < 1.24 warns (and makes an
                    # object array) where later releases raise
                    warnings.simplefilter("error", _RAGGED_WARNING)
                    y_true_arr = np.asarray(y_true)
            except (ValueError, _RAGGED_WARNING):
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

    y_true = _check_long_y_true(
        validate_relevance(move(y_true, true_name), xp=xp, name=true_name),
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
