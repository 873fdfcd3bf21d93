"""Validation of the arguments shared by the metric functions.

Every check raises a ``ValueError`` (or ``TypeError`` for a wrong type) whose
message starts with the name of the offending argument, so that a user never
meets a NumPy traceback from deep inside the engine.  Nothing here modifies
its inputs.
"""

import math
from numbers import Real

import numpy as np

__all__ = [
    "InvalidArgumentError",
    "column_or_2d",
    "check_binary_labels",
    "validate_binary",
    "validate_positions",
    "validate_positive",
    "validate_probabilities",
    "validate_relevance",
    "validate_scores",
    "validate_sample_weight",
]


class InvalidArgumentError(ValueError):
    """A ``ValueError`` about one argument, in parts a caller can rephrase.

    The message is ``f"{argument} {problem}"`` unless given; a caller that
    names the argument its own way (the command line names a file's column,
    or an option such as ``--train``) writes its own name before ``problem``
    instead of matching the message's text.

    Parameters
    ----------
    argument : str
        The parameter's name (``"y_true"``, ``"y_prob"``, ``"train"``).
    problem : str
        What is wrong, as a predicate of the argument (``"contains NaN."``),
        free of Python syntax.
    value : object, default=None
        The first offending value (in the input's order), as a Python
        scalar, or None.
    message : str, default=None
        The message for Python callers, where it says more than
        ``f"{argument} {problem}"`` (such as which keyword to pass).
    """

    def __init__(self, argument, problem, *, value=None, message=None):
        self.argument = argument
        self.problem = problem
        self.value = value
        super().__init__(message or f"{argument} {problem}")

    def __reduce__(self):  # picklable (Dask and Spark workers raise it)
        return _rebuild_argument_error, (self.argument, self.problem,
                                         self.value, str(self))


def _rebuild_argument_error(argument, problem, value, message):
    return InvalidArgumentError(argument, problem, value=value, message=message)


def _first(values, mask, xp=np):
    """The first of ``values`` where ``mask`` holds, as a Python scalar
    (None for an Array API array: only NumPy inputs are located)."""
    if xp is not np:
        return None
    return np.asarray(values)[np.asarray(mask)].ravel()[0].item()


def as_numeric(x, name):
    """Convert to a numeric ndarray without copying when it already is one."""
    if hasattr(x, "to_numpy") and not isinstance(x, np.ndarray):
        # pandas Series / DataFrame; nullable dtypes become float with NaN
        try:
            x = x.to_numpy(dtype=float, na_value=np.nan)
        except (TypeError, ValueError):
            x = x.to_numpy()
    try:
        arr = np.asarray(x)
    except Exception as exc:  # ragged nested lists and the like
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must contain numbers, got dtype object.") from None
    if arr.dtype.kind == "b":
        arr = arr.astype(np.float64)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must contain numbers, got dtype {arr.dtype}.")
    return arr


def as_numeric_array_api(x, name, xp):
    """An Array API array of numbers (booleans as float64), not copied."""
    if xp.isdtype(x.dtype, "bool"):
        return xp.astype(x, xp.float64)
    if not xp.isdtype(x.dtype, ("integral", "real floating")):
        raise TypeError(f"{name} must contain real numbers, got dtype {x.dtype}.")
    return x


def column_or_2d(x, name, xp=np):
    """A 1-D or 2-D numeric array, never empty."""
    arr = as_numeric(x, name) if xp is np else as_numeric_array_api(x, name, xp)
    if arr.ndim not in (1, 2):
        raise ValueError(
            f"{name} must be 1-D or 2-D, got an array of shape {arr.shape}."
        )
    if math.prod(arr.shape) == 0:
        raise ValueError(f"{name} is empty: at least one sample is required.")
    return arr


def _validate_array_api(x, name, xp, *, nan, posinf, neginf, negative):
    """The checks below for an Array API array (one reduction each); the
    problems are predicates of ``name``."""
    if xp.isdtype(x.dtype, "real floating"):
        if nan and bool(xp.any(xp.isnan(x))):
            raise InvalidArgumentError(name, nan, value=math.nan)
        if bool(xp.any(xp.isinf(x))):
            if posinf and bool(xp.any(x == math.inf)):
                raise InvalidArgumentError(name, posinf, value=math.inf)
            if neginf and bool(xp.any(x == -math.inf)):
                raise InvalidArgumentError(name, neginf, value=-math.inf)
    if negative and bool(xp.any(x < 0)):
        raise InvalidArgumentError(name, negative)
    return x


def validate_scores(y_score, xp=np, *, name="y_score"):
    """Scores may be -inf (not retrieved) but never NaN or +inf.

    ``name`` is the argument named in the errors.
    """
    y_score = column_or_2d(y_score, name, xp)
    posinf = ("contains +inf; only -inf is allowed (it marks an item that was "
              "not retrieved).")
    if xp is not np:
        return _validate_array_api(
            y_score, name, xp, nan="contains NaN.",
            posinf=posinf, neginf=None, negative=None)
    # one pass in the common all-finite case (the sum is finite iff every score
    # is, barring overflow, which the slower checks below then settle)
    if y_score.dtype.kind == "f":
        with np.errstate(all="ignore"):
            total = np.sum(y_score)
    if y_score.dtype.kind == "f" and not np.isfinite(total):
        if y_score.ndim == 2 and np.isnan(y_score).any():
            raise InvalidArgumentError(
                name, "contains NaN. Rows of different lengths padded with NaN? "
                "Pad y_score with -inf instead (an item that was not "
                "retrieved: ranked after every other) and y_true with 0.",
                value=math.nan)
        _no_nan(y_score, name)
        if np.isposinf(y_score).any():
            raise InvalidArgumentError(name, posinf, value=math.inf)
    # integer scores are kept as integers: sorting and tie detection are exact
    return y_score


def _no_nan(x, name, xp=np):
    """NaN in ``x`` is a ``ValueError``: "<name> contains NaN." (the one NaN
    rule of every array check)."""
    if xp is np:
        if x.dtype.kind == "f" and np.isnan(x).any():
            raise InvalidArgumentError(name, "contains NaN.", value=math.nan)
    elif xp.isdtype(x.dtype, "real floating") and bool(xp.any(xp.isnan(x))):
        raise InvalidArgumentError(name, "contains NaN.", value=math.nan)


def _number(value):
    """A value as the user wrote it in a message: ``2.7`` for a float32 2.7,
    ``2`` for 2.0, never ``np.float64(2.7)``."""
    if isinstance(value, (np.floating, float)) and np.isfinite(value):
        if float(value).is_integer() and abs(value) < 2**53:
            return str(int(value))
        return np.format_float_positional(value, trim="-")
    return str(value.item() if isinstance(value, np.generic) else value)


def validate_probabilities(y_prob, xp=np, *, name="y_prob"):
    """Predicted probabilities: numbers in [0, 1] (no NaN, no infinity).

    The one rule of every entry point that reads probabilities (the CTR
    metric functions, the reports and accumulator when they compute a
    probability metric, the calibration display, the command line);
    ``name`` is the caller's own name of the argument (``y_prob`` in the
    CTR functions, ``y_score`` in ``ranking_report``).
    """
    p = column_or_2d(y_prob, name, xp)
    _no_nan(p, name, xp)
    lo, hi = (p.min(), p.max()) if xp is np else (
        np.asarray(xp.min(p))[()], np.asarray(xp.max(p))[()])
    if not (lo >= 0 and hi <= 1):
        raise InvalidArgumentError(
            name, f"must hold probabilities in [0, 1]; found values in "
            f"[{_number(lo)}, {_number(hi)}].",
            value=_first(p, (p < 0) | (p > 1), xp))
    return p


def check_binary_labels(y_true, xp=np, *, name="y_true",
                        accepted="0/1, booleans or -1/1"):
    """0/1 labels, after :func:`binary_labels` has read booleans, ``{-1, 1}``
    or ``pos_label``: any other value is a ``ValueError`` listing the values
    found (the one rule of every metric of two classes)."""
    _no_nan(y_true if xp is not np else np.asarray(y_true), name, xp)
    first = None
    if xp is not np:
        ok = bool(xp.all((y_true == 0) | (y_true == 1)))
        values = None if ok else [_number(v) for v in
                                  np.asarray(xp.unique_values(y_true))[:10]]
    else:
        y = np.asarray(y_true)
        binary = np.isin(y, (0, 1))
        ok = bool(binary.all())
        values = None if ok else [_number(v) for v in np.unique(y)[:10]]
        first = None if ok else _first(y, ~binary)
    if not ok:
        raise InvalidArgumentError(
            name, f"must hold binary labels ({accepted}); got the values "
            f"[{', '.join(values)}].", value=first)
    return y_true


def validate_relevance(y_true, xp=np, *, name="y_true"):
    """Relevance grades are finite and >= 0.

    ``name`` is the argument named in the errors.
    """
    y_true = column_or_2d(y_true, name, xp)
    negative = "must be >= 0 (relevance grades); found negative values."
    if xp is not np:
        return _validate_array_api(
            y_true, name, xp, nan="contains NaN.",
            posinf="contains infinite values.",
            neginf="contains infinite values.", negative=negative)
    _no_nan(y_true, name)
    if y_true.dtype.kind == "f":
        infinite = np.isinf(y_true)
        if infinite.any():
            raise InvalidArgumentError(name, "contains infinite values.",
                                       value=_first(y_true, infinite))
    if y_true.dtype.kind in "if":
        below = y_true < 0
        if below.any():
            raise InvalidArgumentError(name, negative,
                                       value=_first(y_true, below))
    return y_true


def validate_sample_weight(sample_weight, n, what, xp=np):
    """A 1-D array of ``n`` finite, non-negative weights (or None)."""
    if sample_weight is None:
        return None
    w = (as_numeric(sample_weight, "sample_weight") if xp is np
         else as_numeric_array_api(sample_weight, "sample_weight", xp))
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(
            f"sample_weight must have shape ({n},) (one weight per {what}), "
            f"got shape {tuple(w.shape)}."
        )
    if xp is not np:
        w = xp.astype(w, xp.float64)
        return _validate_array_api(
            w, "sample_weight", xp,
            nan="contains NaN or infinite values.",
            posinf="contains NaN or infinite values.",
            neginf="contains NaN or infinite values.",
            negative="must be non-negative.")
    w = w.astype(np.float64, copy=False)
    if not np.isfinite(w).all():
        raise ValueError("sample_weight contains NaN or infinite values.")
    if (w < 0).any():
        raise ValueError("sample_weight must be non-negative.")
    return w


def binary_labels(y_true, pos_label=None, *, multiclass=False):
    """Labels -> 0/1 relevance: the one reader of labels, for every door.

    With ``pos_label``, the items equal to it are positive (at most two
    distinct labels, strings included, as scikit-learn reads ``pos_label``).
    Without, booleans are read as 0/1 and ``{-1, 1}`` (or only ``-1``) as
    ``1`` positive; other numbers are returned unchanged (relevance grades,
    which the relevance check then reads); strings need ``pos_label``.
    ``multiclass``: ``y_true`` holds class labels of 2-D scores (each
    sample's relevant item is its true class), where ``pos_label`` has no
    meaning.  Called by :func:`~sklearn_rankeval._engine.check_inputs` (every
    metric, report, accumulator, scorer and distributed partition) and by the
    displays, which plot the same relevance.
    """
    from sklearn import get_config

    from ._array_api import is_foreign_array, namespace_of

    if pos_label is not None and multiclass:
        raise InvalidArgumentError(
            "pos_label", "cannot be used with multiclass scores (2-D y_score and "
            "1-D y_true): each sample's relevant item is its true class.")
    if is_foreign_array(y_true) and get_config().get("array_api_dispatch", False):
        # an Array API array: read in its namespace, with NumPy's checks
        xp = namespace_of(y_true)
        if pos_label is not None:
            classes = xp.unique_values(y_true)
            _check_pos_label(pos_label, [float(c) for c in classes])
            return xp.astype(y_true == pos_label, xp.int64)
        if xp.isdtype(y_true.dtype, "bool"):
            return xp.astype(y_true, xp.int64)
        if multiclass:
            return y_true
        if bool(xp.any(y_true < 0)) and bool(xp.all((y_true == 1) | (y_true == -1))):
            return xp.astype(y_true == 1, xp.int64)
        return y_true
    if hasattr(y_true, "to_numpy") and not isinstance(y_true, np.ndarray):
        y_true = y_true.to_numpy()
    try:
        y = np.asarray(y_true)
    except ValueError:
        return y_true  # ragged: the usual checks report it
    if pos_label is not None:
        classes = np.unique(y)
        _check_pos_label(pos_label, classes.tolist())
        return (y == pos_label).astype(np.int64)
    if multiclass:
        return y_true
    if y.dtype.kind == "b":
        return y.astype(np.int64)
    if y.dtype.kind in "OUS" and not all(
            isinstance(v, Real) for v in y.ravel()[:1000].tolist()):
        raise InvalidArgumentError(
            "y_true", "holds class labels that are not numbers: pass "
            "pos_label= to name the class that is relevant (positive).")
    if y.dtype.kind in "if" and y.ndim == 1 and y.size and (y < 0).any():
        values = np.unique(y)
        if np.array_equal(values, [-1, 1]) or np.array_equal(values, [-1]):
            return (y == 1).astype(np.int64)
    return y_true


def _check_pos_label(pos_label, classes):
    """``pos_label`` with the distinct labels ``classes`` (a list)."""
    if len(classes) > 2:
        raise InvalidArgumentError(
            "y_true", f"has {len(classes)} distinct labels; with pos_label it "
            f"must hold at most two (the positive class and the others).")
    if len(classes) == 2 and not any(c == pos_label for c in classes):
        raise InvalidArgumentError(
            "pos_label", f"is not a label of y_true: got pos_label="
            f"{pos_label!r}, the labels are {', '.join(map(_number, classes))}.",
            message=f"pos_label={pos_label!r} is not a label of y_true "
                    f"({', '.join(map(_number, classes))}).")


def _one_dimensional(x, name):
    """A 1-D numeric array (any length but 0)."""
    arr = as_numeric(x, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}.")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: at least one sample is required.")
    return arr


def validate_binary(y, name):
    """A 1-D array of 0/1 values (booleans read as 0/1), not copied: the
    clicks of a log, checked by the one rule of two classes
    (:func:`check_binary_labels`).  The array keeps its dtype (a caller
    multiplying by it needs no float copy).
    """
    arr = _one_dimensional(y, name)
    check_binary_labels(arr, name=name, accepted="0/1 or booleans")
    return arr


def validate_positions(positions, name="positions"):
    """A 1-D array of 1-based ranks, integers >= 1, as int64.

    Integer-valued floats are accepted (``3.0`` is rank 3); ``1.5``, ``0``,
    negative or non-finite values are errors.
    """
    arr = _one_dimensional(positions, name)
    if arr.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            whole = np.isfinite(arr) & (np.floor(arr) == arr)
        if not whole.all():
            raise ValueError(f"{name} must hold integers >= 1 (1-based ranks); "
                             f"got {_number(arr[~whole][0])}.")
    if arr.min() < 1:
        # the value as written, whatever the dtype (a pandas column is read
        # as floats, an Arrow one as integers): "got 0", never "got 0.0"
        raise ValueError(f"{name} must hold integers >= 1 (1-based ranks); got "
                         f"{_number(arr[arr < 1][0])}.")
    if arr.dtype.kind == "f" and (arr >= 2.0**62).any():
        raise ValueError(f"{name} must hold integers >= 1 that fit in int64.")
    return arr.astype(np.int64, copy=False)


def validate_positive(x, name):
    """A 1-D array of finite numbers > 0, as float64 (propensities)."""
    arr = _one_dimensional(x, name).astype(np.float64, copy=False)
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(arr) & (arr > 0)
    if not ok.all():
        first = int(np.flatnonzero(~ok)[0])
        raise ValueError(f"{name} must hold finite numbers > 0; got "
                         f"{arr[first].item()!r} at index {first}.")
    return arr
