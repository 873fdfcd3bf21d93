"""Group ids -> integer codes in the sorted order of the ids, and back.

Integer ids with a range that fits are used directly (offset by their
minimum); strings and other ids are factorized by hashing (pandas, or Arrow
for pyarrow arrays) and only the unique ids are sorted.  The factorization
of an object array is cached on the array object (keyed by its identity and
checked against its length and first and last ids), so that the metrics of
one call -- and the calls of one evaluation loop over the same ids -- hash
the ids once.
"""

import ctypes
import weakref

import numpy as np

__all__ = ["check_group_ids", "check_length", "encode_groups", "encode_rows",
           "group_ids_array"]


def _is_missing(values):
    """Elementwise missing-value test for an object array (None or NaN)."""
    with np.errstate(invalid="ignore"):
        nan = values != values  # noqa: PLR0124  (NaN is not equal to itself)
    return np.asarray(nan, dtype=bool) | np.equal(values, None)


def check_length(shape, n):
    if len(shape) != 1 or shape[0] != n:
        raise ValueError(
            f"groups must be 1-D with one id per row of y_score ({n}), "
            f"got shape {tuple(shape)}."
        )


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


def _from_codes(codes, uniques):
    """Codes into ``uniques`` (any order) -> codes in sorted id order, decoder."""
    rank, sorted_ids = _sorted_codes(uniques)
    return rank[codes], lambda c: sorted_ids[c]


def _encode_categorical(categorical, n):
    codes = np.asarray(categorical.codes)
    check_length(codes.shape, n)
    if (codes < 0).any():
        raise ValueError("groups contains missing values (NaN/None).")
    return _from_codes(codes.astype(np.int64), np.asarray(categorical.categories))


def _encode_arrow(groups, n):
    """A pyarrow Array or ChunkedArray: dictionary-encoded (hashing) in Arrow."""
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
    codes = groups.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return _from_codes(codes, groups.dictionary.to_numpy(zero_copy_only=False)), None


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
    strings): an array changed in place is factorized again.  The caller gets
    its own copy of the codes.
    """
    hit = _FACTORIZED.get(id(g))
    if hit is not None and hit[0]() is g and _same_ids(hit[1], g):
        return hit[2].astype(np.int64), hit[3]
    codes, decode = _factorize(g, n)
    if 0 < n <= _FACTORIZED_MAX_ROWS:
        try:
            ref = weakref.ref(g)
        except TypeError:  # pragma: no cover - ndarrays support weak references
            return codes, decode
        small = codes.astype(np.int32 if n < 2**31 else np.int64)
        while len(_FACTORIZED) >= _FACTORIZED_ARRAYS:
            _FACTORIZED.pop(next(iter(_FACTORIZED)))
        _FACTORIZED[id(g)] = (ref, g.copy(), small, decode)
    return codes, decode


def _factorize(g, n):
    """Non-integer ids -> sorted codes: pandas' hash factorization when present.

    Only the unique ids are sorted, so strings cost one hash pass instead of
    the full sort of ``np.unique`` (15-35x faster on object strings).
    """
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is optional
        pd = None
    if pd is not None:
        codes, uniques = pd.factorize(g, sort=False)
        if (codes < 0).any():
            raise ValueError("groups contains missing values (NaN/None).")
        return _from_codes(np.asarray(codes, dtype=np.int64), np.asarray(uniques))
    try:
        uniq, inv = np.unique(g, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"groups ids must be mutually comparable: {exc}") from None
    return inv.reshape(-1).astype(np.int64), lambda c: uniq[c]


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


def encode_groups(groups, n, shift):
    """Group ids -> (non-negative int64 codes, function mapping codes to ids).

    Codes follow the sorted order of the ids.  Integer ids with a range that
    fits in the sort key are used directly (offset by their minimum): no
    extra work.  A pandas Categorical uses its codes (categories sorted, not
    the rows).  Strings and other ids are factorized by hashing (pandas, or
    Arrow for pyarrow arrays; polars Series and Arrow-backed pandas strings
    included), and only the unique ids are sorted.
    """
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
        return _from_codes(np.asarray(codes, dtype=np.int64), np.asarray(uniques))
    if hasattr(groups, "to_numpy") and not isinstance(groups, np.ndarray):
        groups = groups.to_numpy()
    g = np.asarray(groups)
    check_length(g.shape, n)
    if g.dtype.kind == "b":
        g = g.astype(np.int64)
    if g.dtype.kind in "iu":
        lo, hi = int(g.min()), int(g.max())
        if hi - lo < (1 << (62 - shift)):
            codes = np.subtract(g, lo, dtype=np.int64)
            if g.dtype.kind == "u" or g.dtype.itemsize > 8:
                dtype = g.dtype
                return codes, lambda c: (c + lo).astype(dtype)
            return codes, lambda c: c + lo
    elif g.dtype.kind == "f":
        if np.isnan(g).any():
            raise ValueError("groups contains missing values (NaN).")
    elif g.dtype.kind == "O":
        try:
            import pandas  # noqa: F401  (factorize flags missing ids itself)
        except ImportError:  # pragma: no cover - pandas is optional
            if _is_missing(g).any():
                raise ValueError("groups contains missing values (NaN/None).") from None
        return _factorize_cached(g, n)
    elif g.dtype.kind in "US":
        return _factorize_cached(g, n)
    elif g.dtype.kind not in "Mm":
        raise TypeError(f"groups has an unsupported dtype {g.dtype}.")
    try:
        uniq, inv = np.unique(g, return_inverse=True)
    except TypeError as exc:
        raise TypeError(f"groups ids must be mutually comparable: {exc}") from None
    return inv.reshape(-1).astype(np.int64), lambda c: uniq[c]


def encode_rows(groups, n, name="groups"):
    """Each row's group index in the order of ``RankedGroups.labels``.

    Returns ``(index, labels)``; ``index`` is dense (0 .. n_groups-1).
    ``name``: the caller's argument in the messages (``"segments"`` for
    per-row segments, which are encoded as group ids are).
    """
    shift = max(int(n - 1).bit_length(), 1)
    try:
        codes, decode = encode_groups(groups, n, shift)
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

