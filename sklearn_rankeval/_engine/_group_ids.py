"""Group ids -> slots: where each row's group goes, in the sorted order of the ids.

:func:`group_slots` is the one encoder.  A row's slot is ``codes[i] - lo``,
mapped through ``slot`` when the codes are not in the sorted order of the
ids themselves:

* integer ids whose range is within about the number of rows: the ids are
  the codes (no copy for int32 and int64), offset by their minimum;
* a pandas Categorical: its codes as they are, ``slot`` the rank of each
  category (no pass over the rows beyond the check for missing ids);
* strings, floats, sparse integers and other ids: factorized by hashing
  (pandas, or Arrow for pyarrow arrays), ``slot`` the rank of each distinct
  id (only the distinct ids are sorted).

The factorization of an object array is cached on the array object (keyed
by its identity and checked against its ids), so that the metrics of one
call -- and the calls of one evaluation loop over the same ids -- hash the
ids once.  :func:`encode_groups` and :func:`encode_rows` (codes or dense
indices in the sorted order of the ids) are read off the slots.
"""

import ctypes
import weakref
from typing import Callable, NamedTuple

import numpy as np

from .._core import InvalidArgumentError

__all__ = ["GroupSlots", "check_group_ids", "check_length", "encode_groups",
           "encode_rows", "group_ids_array", "group_slots"]

#: Integer ids spread over at most this many values beyond the number of
#: rows are their own codes (the counting pass keeps a few numbers per value).
SPAN_SLACK = 1 << 16


class GroupSlots(NamedTuple):
    """Where each row's group goes: slot ``slot[codes[i] - lo]`` (or
    ``codes[i] - lo`` when ``slot`` is empty), in ``0 .. n_slots - 1``, the
    sorted order of the ids (a slot may hold no row).  ``decode(slots)``
    gives the ids of slots."""

    codes: np.ndarray
    lo: int
    slot: np.ndarray
    n_slots: int
    decode: Callable


_IDENTITY = np.zeros(0, dtype=np.int64)


def _mapped(codes, uniques):
    """Codes into ``uniques`` (any order) -> :class:`GroupSlots` (the rank of
    each unique id is its slot)."""
    rank, sorted_ids = _sorted_codes(uniques)
    return GroupSlots(_as_code_array(codes), 0, rank, len(rank),
                      lambda s: sorted_ids[s])


def _as_code_array(codes):
    """Codes as int32 or int64 (the compiled pass reads those two), C-ordered."""
    codes = np.asarray(codes)
    if codes.dtype in (np.int32, np.int64):
        return np.ascontiguousarray(codes)
    if codes.dtype.kind in "iub" and codes.dtype.itemsize < 4:
        return codes.astype(np.int32)
    return codes.astype(np.int64)


def _is_missing(values):
    """Elementwise missing-value test for an object array (None or NaN)."""
    with np.errstate(invalid="ignore"):
        nan = values != values  # noqa: PLR0124  (NaN is not equal to itself)
    return np.asarray(nan, dtype=bool) | np.equal(values, None)


def check_length(shape, n, name="groups", what="id", rows="y_score"):
    """``groups`` (or the argument ``name``): 1-D, one id (``what``) per row
    of the ``n`` rows of ``rows`` -- the one rule of every door (the
    optional columns' readers too: one rank per row of ``positions``)."""
    if len(shape) != 1 or shape[0] != n:
        hint = ""
        if what == "id" and len(shape) == 2 and shape[0] == n:
            hint = (" Tuple ids (one (query, user) pair per row) are not a "
                    "group id: build one composite key per row, e.g. codes, _ "
                    "= pandas.factorize(pandas.MultiIndex.from_arrays([query, "
                    "user])), or the strings query + '|' + user.")
        raise InvalidArgumentError(
            name, f"must be 1-D with one {what} per row of {rows} ({n}), got "
            f"shape {tuple(shape)}.{hint}")


def _sorted_codes(uniques):
    """Rank of each unique id in sorted order, and the ids in that order."""
    uniques = np.asarray(uniques)
    keys = uniques
    if uniques.dtype == object and len(uniques) > 1000:
        # Python str objects sort several times faster as a fixed-width array
        from pandas.api.types import infer_dtype

        if infer_dtype(uniques, skipna=False) == "string":
            keys = uniques.astype(str)
    try:
        order = np.argsort(keys, kind="stable")
    except TypeError as exc:
        raise TypeError(f"groups ids must be mutually comparable: {exc}") from None
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank, uniques[order]


def _encode_categorical(categorical, n):
    """A pandas Categorical: its codes as they are, its categories sorted
    (no sort at all when they already are, as ``pd.Categorical(ids)`` makes
    them)."""
    codes = np.asarray(categorical.codes)
    check_length(codes.shape, n)
    if codes.shape[0] and codes.min() < 0:
        raise ValueError("groups contains missing values (NaN/None).")
    categories = categorical.categories
    if categories.is_monotonic_increasing:  # (and unique: categories are)
        ids = np.asarray(categories)
        return GroupSlots(_as_code_array(codes), 0, _IDENTITY, ids.shape[0],
                          lambda s: ids[s])
    return _mapped(codes, np.asarray(categories))


def _encode_arrow(groups, n):
    """A pyarrow Array or ChunkedArray: dictionary-encoded (hashing) in
    Arrow; numbers come back as a NumPy array (then ``(None, values)``)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(groups, pa.ChunkedArray):
        groups = groups.combine_chunks()
    check_length((len(groups),), n)
    if groups.null_count:
        raise ValueError("groups contains missing values (null).")
    if pa.types.is_integer(groups.type) or pa.types.is_floating(groups.type):
        return None, groups.to_numpy(zero_copy_only=False)
    if not pa.types.is_dictionary(groups.type):
        groups = pc.dictionary_encode(groups)
    codes = groups.indices.to_numpy(zero_copy_only=False)
    return _mapped(codes, groups.dictionary.to_numpy(zero_copy_only=False)), None


#: The factorizations of the last few arrays of ids, keyed by ``id()``:
#: ``(weak reference, copy of the ids, codes, decoder)``.
_FACTORIZED = {}
_FACTORIZED_ARRAYS = 4
#: Arrays of more rows are not kept (a copy of the ids is kept, 8 bytes a row
#: for objects, and the codes, 4).
_FACTORIZED_MAX_ROWS = 1 << 26


def _same_ids(kept, g):
    """Whether ``g`` holds the ids of ``kept`` (a copy made when cached).

    Object arrays: the same objects, compared by address in one vectorized
    pass (sound: ``kept`` holds a reference to every object, so none of them
    can be freed and its address reused); fixed-width strings: by value.
    """
    if kept.shape != g.shape or kept.dtype != g.dtype:
        return False
    if g.dtype.kind != "O":
        return bool(np.array_equal(kept, g))
    if not g.flags.c_contiguous:
        return False
    return bool(np.array_equal(_addresses(kept), _addresses(g)))


def _addresses(objects):
    """The object pointers of a C-contiguous object array, as integers
    (a read-only view of its buffer: no reference count touched)."""
    buffer = (ctypes.c_char * objects.nbytes).from_address(objects.ctypes.data)
    return np.frombuffer(buffer, dtype=np.uintp)


def _factorize_cached(g, n):
    """:func:`_factorize` of an ndarray of ids, reused while it holds them.

    The metrics of one evaluation, and the calls of a loop over the same
    ``groups`` array, hash its ids once.  A cached factorization is used only
    for the same array object (a weak reference) still holding the same ids
    (:func:`_same_ids`, one vectorized pass, many times cheaper than hashing
    strings): an array changed in place is factorized again.
    """
    hit = _FACTORIZED.get(id(g))
    if hit is not None and hit[0]() is g and _same_ids(hit[1], g):
        return hit[2]
    slots = _factorize(g, n)
    if 0 < n <= _FACTORIZED_MAX_ROWS:
        try:
            ref = weakref.ref(g)
        except TypeError:  # pragma: no cover - ndarrays support weak references
            return slots
        if slots.codes.dtype != np.int32 and n < 2**31:
            slots = slots._replace(codes=slots.codes.astype(np.int32))
        slots.codes.flags.writeable = False  # shared by the calls
        while len(_FACTORIZED) >= _FACTORIZED_ARRAYS:
            _FACTORIZED.pop(next(iter(_FACTORIZED)))
        _FACTORIZED[id(g)] = (ref, g.copy(), slots)
    return slots


def _factorize(g, n):
    """Ids -> :class:`GroupSlots` by pandas' hash factorization: only the
    distinct ids are sorted (15-35x faster than ``np.unique`` on object
    strings)."""
    import pandas as pd

    codes, uniques = pd.factorize(g, sort=False)
    codes = np.asarray(codes)
    if codes.shape[0] and codes.min() < 0:
        raise ValueError("groups contains missing values (NaN/None).")
    return _mapped(codes, np.asarray(uniques))


def group_ids_array(groups):
    """``groups`` as a NumPy array of ids (for callers that compare ids)."""
    module = type(groups).__module__.split(".")[0]
    if module == "pyarrow":
        groups = groups.to_numpy(zero_copy_only=False) if hasattr(
            groups, "null_count") else groups.to_numpy()
    elif module == "polars":
        groups = groups.to_numpy()
    elif hasattr(groups, "to_numpy") and not isinstance(groups, np.ndarray):
        groups = groups.to_numpy()
    return np.asarray(groups)


def check_group_ids(ids):
    """Missing or unsupported ids in a NumPy array of group ids are errors."""
    if ids.dtype.kind == "f" and np.isnan(ids).any():
        raise ValueError("groups contains missing values (NaN).")
    if ids.dtype.kind == "O" and _is_missing(ids).any():
        raise ValueError("groups contains missing values (NaN/None).")
    if ids.dtype.kind not in "biufOUSMm":
        raise TypeError(f"groups has an unsupported dtype {ids.dtype}.")


def group_slots(groups, n):
    """The :class:`GroupSlots` of ``n`` rows' group ids (see the module)."""
    module = type(groups).__module__.split(".")[0]
    dtype = getattr(groups, "dtype", None)
    if module == "pandas" and str(dtype) == "category":
        return _encode_categorical(groups.cat if hasattr(groups, "cat") else groups, n)
    if type(groups).__name__ == "Categorical" and module == "pandas":
        return _encode_categorical(groups, n)
    if module == "pyarrow":
        encoded, values = _encode_arrow(groups, n)
        if encoded is not None:
            return encoded
        groups = values
    elif module == "polars":
        if str(dtype) in ("Categorical", "Enum") or "Categorical" in str(dtype):
            groups = groups.cast(str)
        if groups.null_count():
            raise ValueError("groups contains missing values (null).")
        groups = groups.to_numpy()
    elif module == "pandas" and dtype is not None and dtype.kind not in "iub f":
        # pandas strings (object, string[python], string[pyarrow]): factorize
        # the Series itself (Arrow-backed strings are hashed in Arrow)
        check_length((len(groups),), n)
        if groups.isna().any():
            raise ValueError("groups contains missing values (NaN/None).")
        import pandas as pd

        codes, uniques = pd.factorize(groups, sort=False)
        return _mapped(codes, np.asarray(uniques))
    if hasattr(groups, "to_numpy") and not isinstance(groups, np.ndarray):
        groups = groups.to_numpy()
    g = np.asarray(groups)
    check_length(g.shape, n)
    if g.dtype.kind in "Mm":  # datetimes: their int64 ticks, decoded back
        slots = _integer_slots(g.view(np.int64), n)
        return slots._replace(decode=lambda s, d=slots.decode: d(s).view(g.dtype))
    if g.dtype.kind == "b":
        return _integer_slots(g.view(np.uint8), n, out_dtype=np.int64)
    if g.dtype.kind in "iu":
        return _integer_slots(g, n)
    if g.dtype.kind == "f":
        if np.isnan(g).any():
            raise ValueError("groups contains missing values (NaN).")
        return _factorize(g, n)
    if g.dtype.kind in "OUS":
        return _factorize_cached(g, n)
    raise TypeError(f"groups has an unsupported dtype {g.dtype}.")


def _integer_slots(g, n, out_dtype=None):
    """Integer ids: their own codes when their range is about the number of
    rows, else factorized by hashing."""
    if n == 0:
        return GroupSlots(np.zeros(0, dtype=np.int64), 0, _IDENTITY, 0,
                          lambda s: s.astype(out_dtype or g.dtype))
    lo, hi = int(g.min()), int(g.max())
    if hi - lo >= n + SPAN_SLACK or (g.dtype == np.uint64 and hi >= 2**63):
        return _factorize(g, n)
    dtype = out_dtype or g.dtype
    codes = g.view(np.int64) if g.dtype == np.uint64 else _as_code_array(g)
    return GroupSlots(codes, lo, _IDENTITY, hi - lo + 1,
                      lambda s: (np.asarray(s, dtype=np.int64) + lo).astype(dtype))


def encode_groups(groups, n, shift=None):
    """Group ids -> (non-negative int64 codes in the sorted order of the ids,
    function mapping codes to ids).  (``shift`` is ignored: kept for callers.)"""
    slots = group_slots(groups, n)
    codes = np.subtract(slots.codes, slots.lo, dtype=np.int64)
    if slots.slot.shape[0]:
        codes = slots.slot[codes]
    return codes, slots.decode


def encode_rows(groups, n, name="groups"):
    """Each row's group index in the order of ``RankedGroups.labels``.

    Returns ``(index, labels)``; ``index`` is dense (0 .. n_groups-1).
    ``name``: the caller's argument in the messages (``"segments"`` for
    per-row segments, which are encoded as group ids are).
    """
    try:
        codes, decode = encode_groups(groups, n)
    except InvalidArgumentError as exc:  # the rule's problem, under the caller's name
        if name == "groups":
            raise
        raise InvalidArgumentError(name, exc.problem, value=exc.value) from None
    except (TypeError, ValueError) as exc:
        if name == "groups":
            raise
        message = str(exc)
        if message.startswith("groups"):
            message = name + message[len("groups"):]
        raise type(exc)(message) from None
    codes = codes.reshape(-1)
    top = int(codes.max()) if codes.shape[0] else -1
    if top < 4 * n + 1024:
        # codes in a range near the number of rows (integer ids, factorized
        # strings): dense ranks by counting, no sort
        present = np.bincount(codes, minlength=top + 1) > 0
        rank = np.cumsum(present) - 1
        return rank[codes], decode(np.flatnonzero(present))
    uniq, index = np.unique(codes, return_inverse=True)
    return index.reshape(-1), decode(uniq)
