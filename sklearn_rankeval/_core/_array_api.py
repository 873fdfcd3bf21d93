"""Array API support: the namespace of the inputs and the few helpers the
standard lacks.

Under ``sklearn.config_context(array_api_dispatch=True)``, inputs of any
Array API namespace (torch, CuPy, array-api-strict) are ranked and evaluated
in that namespace, on the input's device.  The engine and the kernels are
written once against a namespace ``xp``: NumPy itself (``xp is np``) for
NumPy inputs or when dispatch is off, else the ``array_api_compat`` wrapper
of the input's library.  What the standard lacks -- segment reductions
(``np.add.reduceat``), ``bincount``, a segmented cumulative sum and maximum,
``lgamma`` -- goes through the helpers below: a NumPy fast path, and one
generic implementation from standard functions (gathers, sorts, cumulative
sums; no scatter).

The namespace comes from ``array_api_compat`` (the package, or the copy
scikit-learn >= 1.7 vendors), not from scikit-learn's private
``sklearn.utils._array_api``, whose functions changed signature between the
releases this package supports.
"""

import math
import warnings

import numpy as np
from sklearn import get_config

__all__ = [
    "argsort",
    "astype",
    "concat",
    "cumsum",
    "get_namespace",
    "lgamma",
    "namespace_of",
    "reject_host_options",
    "repeat_index",
    "segment_cumsum",
    "segment_plan",
    "segment_reduce",
    "segment_suffix_max",
    "sum_by_owner",
    "take",
    "to_numpy",
]


def _compat():
    try:
        import array_api_compat
    except ImportError:
        try:
            from sklearn.externals import array_api_compat
        except ImportError:  # pragma: no cover - scikit-learn < 1.7 without it
            raise ImportError(
                "Array API inputs need the array-api-compat package: "
                "pip install array-api-compat (or sklearn-rankeval[array-api])."
            ) from None
    return array_api_compat


def is_foreign_array(x):
    """An array of a namespace other than NumPy (torch, CuPy, ...)."""
    if x is None or isinstance(x, (np.ndarray, np.generic, list, tuple)):
        return False
    if hasattr(x, "__array_namespace__"):
        return True
    module = type(x).__module__.split(".")[0]
    return module in ("torch", "cupy", "jax", "jaxlib")


def get_namespace(y_score, *others):
    """``(xp, device)`` of a call's arrays; ``(np, None)`` for the NumPy path.

    The namespace and device are those of ``y_score`` (or, if it is a NumPy
    array or a list, of the first other argument from another library).
    Arrays of another namespace than that one are a ``TypeError``; NumPy
    arrays and lists are moved to it by the caller (:func:`asarray`).  Only
    under ``array_api_dispatch=True``: otherwise every input goes through
    NumPy as before.
    """
    if not get_config().get("array_api_dispatch", False):
        return np, None
    names = ("y_score", "y_true", "groups", "sample_weight")
    arrays = [(n, a) for n, a in zip(names, (y_score, *others)) if is_foreign_array(a)]
    if not arrays:
        return np, None
    compat = _compat()
    name, lead = arrays[0]
    xp = compat.array_namespace(lead)
    for other_name, a in arrays[1:]:
        if compat.array_namespace(a) is not xp:
            raise TypeError(
                f"{other_name} is an array of another namespace than {name} "
                f"({type(a).__module__} vs {type(lead).__module__}); pass "
                f"arrays of one library (NumPy arrays are moved to it)."
            )
    if compat.is_numpy_namespace(xp):
        return np, None
    device = compat.device(lead)
    try:
        # (JAX without jax_enable_x64 returns float32 here, with a warning)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            has_float64 = xp.zeros(1, dtype=xp.float64, device=device).dtype == (
                xp.float64)
    except Exception:  # noqa: BLE001 - each library raises its own type
        has_float64 = False
    if not has_float64:
        raise ValueError(
            f"y_score is on device {device!r}, where {type(lead).__module__} "
            f"gives no float64; the metrics are computed in float64 (move the "
            f"arrays to a device that supports it, e.g. the CPU; with JAX, "
            f"jax.config.update('jax_enable_x64', True))."
        )
    return xp, device


def reject_host_options(arrays, **options):
    """Options that need the rows on the host are a TypeError for Array API
    input (under dispatch): ``judged=``, ``convention=``, ``ties=``, ...

    ``arrays``: the call's array arguments (any of them from another library
    than NumPy makes the call an Array API one).
    """
    lead = next((a for a in arrays if is_foreign_array(a)), None)
    if lead is None or not get_config().get("array_api_dispatch", False):
        return
    for name, value in options.items():
        if value is not None:
            raise TypeError(
                f"{name}= is not supported for Array API input (an argument is "
                f"a {type(lead).__module__} array): it reads the rows on the "
                f"host. Pass NumPy arrays, or leave {name} out."
            )


def namespace_of(x):
    """The namespace of one array the engine made (np for NumPy arrays)."""
    if isinstance(x, np.ndarray) or not is_foreign_array(x):
        return np
    return _compat().array_namespace(x)


def device_of(x):
    return None if isinstance(x, np.ndarray) else _compat().device(x)


def to_numpy(x):
    """An Array API array as NumPy (per-group results, for host-side output);
    anything else unchanged."""
    if not is_foreign_array(x):  # NumPy, lists, pandas: unchanged
        return x
    compat = _compat()
    xp = compat.array_namespace(x)
    if compat.is_torch_namespace(xp):
        return x.detach().cpu().numpy()
    if compat.is_cupy_namespace(xp):
        return x.get()
    try:
        return np.asarray(x)
    except (TypeError, ValueError, RuntimeError):
        # e.g. array-api-strict's second device: to the default device first
        x = x.to_device(xp.__array_namespace_info__().default_device())
        try:
            return np.asarray(x)
        except TypeError:  # NumPy 1.x: no copy= for __array__
            return np.from_dlpack(x)


# ---------------------------------------------------------------------------
# standard names that NumPy 1.x spells differently
# ---------------------------------------------------------------------------
def asarray(xp, x, device, dtype=None):
    if xp is np:
        return np.asarray(x, dtype=dtype)
    if isinstance(x, np.ndarray) and not x.flags.writeable:
        x = x.copy()
    return xp.asarray(x, dtype=dtype, device=device)


def is_integral(xp, x):
    """Whether ``x`` holds integers (or booleans)."""
    if xp is np:
        return x.dtype.kind in "iub"
    return xp.isdtype(x.dtype, ("integral", "bool"))


def astype(xp, x, dtype):
    if xp is np:
        return x.astype(dtype, copy=False)
    return xp.astype(x, dtype, copy=False)


def concat(xp, arrays, axis=0):
    if xp is np:
        return np.concatenate(arrays, axis=axis)
    return xp.concat(arrays, axis=axis)


def cumsum(xp, x, dtype=None):
    if xp is np:
        return np.cumsum(x, dtype=dtype)
    return xp.cumulative_sum(x, dtype=dtype)


def arange(xp, n, device, dtype=None):
    if xp is np:
        return np.arange(n, dtype=dtype or np.int64)
    return xp.arange(n, dtype=dtype or xp.int64, device=device)


def zeros(xp, n, device, dtype=None):
    if xp is np:
        return np.zeros(n, dtype=dtype or np.float64)
    return xp.zeros(n, dtype=dtype or xp.float64, device=device)


def full(xp, n, value, device, dtype=None):
    if xp is np:
        return np.full(n, value, dtype=dtype or np.float64)
    return xp.full(n, value, dtype=dtype or xp.float64, device=device)


def take(xp, x, index):
    """``x[index]`` along the first axis (``index`` a 1-D integer array:
    integer array indexing, in the standard since its 2024.12 revision;
    NumPy's ``np.take``, the same values, is several times faster on 2-D
    ``x``)."""
    if (isinstance(x, np.ndarray) and isinstance(index, np.ndarray)
            and index.dtype.kind in "iu"):
        return np.take(x, index, axis=0)
    return x[index]


def unique_values(xp, x):
    """The sorted distinct values of ``x``."""
    return np.unique(x) if xp is np else xp.unique_values(x)


def flatnonzero(xp, mask):
    if xp is np:
        return np.flatnonzero(mask)
    return xp.nonzero(mask)[0]


def argsort(xp, x, *, descending=False, axis=-1):
    """Stable argsort (ties in input order), ascending or descending."""
    if xp is not np:
        return xp.argsort(x, axis=axis, descending=descending, stable=True)
    if not descending:
        return np.argsort(x, kind="stable", axis=axis)
    n = x.shape[axis]
    flipped = np.flip(x, axis=axis)
    return (n - 1) - np.flip(np.argsort(flipped, kind="stable", axis=axis), axis=axis)


def starts(xp, x):
    """Boolean mask of the positions where ``x`` differs from its predecessor."""
    if x.shape[0] == 0:
        return x != x
    first = xp.ones(1, dtype=xp.bool, device=device_of(x)) if xp is not np else (
        np.ones(1, dtype=bool))
    return concat(xp, [first, x[1:] != x[:-1]])


def diff_append(xp, x, end):
    """``np.diff(x, append=end)`` (segment lengths from offsets)."""
    if xp is np:
        return np.diff(x, append=end)
    tail = xp.asarray([end], dtype=x.dtype, device=device_of(x))
    return concat(xp, [x[1:], tail]) - x


def repeat_index(xp, counts):
    """``np.repeat(arange(len(counts)), counts)``: each position's segment."""
    if xp is np:
        return np.repeat(np.arange(counts.shape[0]), counts)
    return xp.repeat(arange(xp, counts.shape[0], device_of(counts)), counts)


# ---------------------------------------------------------------------------
# segment reductions: NumPy's ufunc.reduceat, else zero-padded buckets
# ---------------------------------------------------------------------------
_IDENTITY = {"sum": 0.0, "max": -math.inf, "min": math.inf}


#: Segments of at most this many distinct lengths are bucketed by exact
#: length (no padding); more, by the power of two at or above the length.
MAX_EXACT_BUCKETS = 64


class SegmentPlan:
    """Contiguous segments of ``n`` items grouped into buckets of one width.

    Segment ``i`` holds items ``first[i] .. first[i] + counts[i] - 1``
    (``counts`` may hold zeros).  Segments of few distinct lengths are
    bucketed by length; otherwise by the power of two at or above their
    length, zero-padded (at most twice the items).  A bucket is one
    ``(segments, width)`` matrix gathered from the items -- a reshape, no
    gather, when all segments have one length -- reduced or scanned along its
    rows: a loop over buckets, never over segments.  The plan is built once
    per set of segments and reused by every reduction over them; so are the
    permutations that put the buckets' results back in segment order (one
    ``argsort``, none when there is one bucket).
    """

    def __init__(self, xp, first, n, counts=None):
        self.xp, self.n = xp, n
        self.first = first
        self._given_counts = counts is not None
        self.counts = diff_append(xp, first, n) if counts is None else counts
        self.device = device_of(first)
        self._buckets = None
        self._segment_order = self._item_order = None

    @property
    def buckets(self):
        """``(segment indices, width, first items, counts, whether all
        full)`` of each bucket (built on first use)."""
        if self._buckets is None:
            self._build()
        return self._buckets

    @property
    def dense(self):
        """One length, the segments covering the items in order."""
        if self._buckets is None:
            self._build()
        return self._dense

    def _build(self):
        xp, n, first = self.xp, self.n, self.first
        self._buckets = []
        self._dense = False
        if not self.counts.shape[0]:
            return
        # the distinct lengths: a small array, copied to the host at once
        lengths = to_numpy(unique_values(xp, self.counts)).tolist()
        if len(lengths) == 1 and not self._given_counts and lengths[0] > 0:
            self._dense = lengths[0] * self.counts.shape[0] == n
        if len(lengths) <= MAX_EXACT_BUCKETS:
            key, widths = self.counts, {v: v for v in lengths}
        else:
            longest = lengths[-1]
            key = xp.zeros_like(self.counts)
            b = 0
            while (1 << b) < longest:
                key = key + astype(xp, self.counts > (1 << b), self.counts.dtype)
                b += 1
            widths = {v: 1 << v for v in
                      to_numpy(unique_values(xp, key)).tolist()}
        for value, width in widths.items():
            sel = flatnonzero(xp, key == value)
            self._buckets.append((sel, max(width, 1), take(xp, first, sel),
                                  take(xp, self.counts, sel),
                                  width == value and value > 0))

    def padded(self, x, bucket, fill):
        """One bucket's values (``fill`` past each segment's end), and the
        in-segment mask of each cell (None: every cell is in)."""
        xp = self.xp
        _, width, starts, counts, full = bucket
        if self.dense:  # one length, in order: a reshape
            return xp.reshape(x, (-1, width)), None
        idx = self._index(bucket)
        if full:  # every segment of the bucket fills its row
            return xp.reshape(take(xp, x, xp.reshape(idx, (-1,))), idx.shape), None
        mask = self._mask(bucket)
        safe = xp.reshape(xp.clip(idx, 0, max(self.n - 1, 0)), (-1,))
        vals = xp.reshape(take(xp, x, safe), idx.shape)
        return xp.where(mask, vals, xp.full_like(vals, fill)), mask

    def _col(self, width):
        return self.xp.reshape(arange(self.xp, width, self.device), (1, -1))

    def _index(self, bucket):
        return self.xp.reshape(bucket[2], (-1, 1)) + self._col(bucket[1])

    def _mask(self, bucket):
        return self._col(bucket[1]) < self.xp.reshape(bucket[3], (-1, 1))

    def by_segment(self, pieces):
        """Per-bucket results (one per segment) in segment order."""
        return self._in_order(pieces, "_segment_order",
                              lambda bucket: bucket[0])

    def by_item(self, pieces):
        """Per-bucket results (one per item, row-major) in item order."""
        return self._in_order(pieces, "_item_order", self._positions)

    def _in_order(self, pieces, cache, positions):
        """The concatenated pieces, permuted by the argsort of the positions
        (segments or items) they hold: computed once per plan."""
        xp = self.xp
        values = concat(xp, pieces) if len(pieces) > 1 else pieces[0]
        if len(self.buckets) == 1:
            return values
        if xp is np:  # NumPy scatters (the standard has no scatter)
            out = np.empty_like(values)
            out[np.concatenate([positions(b) for b in self.buckets])] = values
            return out
        if getattr(self, cache) is None:
            setattr(self, cache, xp.argsort(
                concat(xp, [positions(b) for b in self.buckets])))
        return take(xp, values, getattr(self, cache))

    def _positions(self, bucket):
        xp = self.xp
        idx = self._index(bucket)
        return xp.reshape(idx, (-1,)) if bucket[4] else idx[self._mask(bucket)]


def segment_plan(xp, first, n, counts=None):
    """The segments starting at ``first`` (its buckets built on first use:
    NumPy reduces with ``ufunc.reduceat`` and needs them for scans only)."""
    return SegmentPlan(xp, first, n, counts)


def _plan_of(xp, segments, n):
    return segments if isinstance(segments, SegmentPlan) else SegmentPlan(
        xp, segments, n)


def segment_reduce(xp, x, segments, op="sum"):
    """``op`` (``"sum"``, ``"max"``, ``"min"``) of ``x`` over each segment.

    ``segments``: the offsets of contiguous, non-empty segments, or a
    :class:`SegmentPlan` (empty segments sum to 0).  Each segment is reduced
    from its own values only.  The generic path reduces in float64 (the
    kernels' sums and maxima are of floats, or of counts far below 2**53).
    """
    if xp is np:
        ufunc = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op]
        first = segments.first if isinstance(segments, SegmentPlan) else segments
        return ufunc.reduceat(x, first)
    plan = _plan_of(xp, segments, x.shape[0])
    if op == "sum" and is_integral(xp, x):
        x = astype(xp, x, xp.int64)
        if plan._buckets is None and plan.counts.shape[0] * 8 <= plan.n:
            plan._build()  # segments of 8+ items: the plan is cheap beside them
        if plan._buckets is not None and plan.dense:  # equal lengths: a reshape
            return xp.sum(xp.reshape(x, (-1, plan.buckets[0][1])), axis=1)
        # integers: differences of one cumulative sum, exact (and local)
        cs = concat(xp, [xp.zeros(1, dtype=xp.int64, device=device_of(x)),
                         xp.cumulative_sum(x)])
        return take(xp, cs, plan.first + plan.counts) - take(xp, cs, plan.first)
    integer = not xp.isdtype(x.dtype, ("real floating", "bool"))
    values = astype(xp, x, xp.float64)
    reduce = {"sum": xp.sum, "max": xp.max, "min": xp.min}[op]
    pieces = [reduce(plan.padded(values, bucket, _IDENTITY[op])[0], axis=1)
              for bucket in plan.buckets]
    if not pieces:
        return xp.zeros(0, dtype=x.dtype, device=device_of(x))
    out = plan.by_segment(pieces)
    if op == "sum":
        out = xp.where(plan.counts > 0, out, xp.zeros_like(out))
    return astype(xp, out, x.dtype) if integer else out


def sum_by_owner(xp, values, counts):
    """Sum of ``values`` over consecutive runs of ``counts[i]`` items (``i``
    the owner), zero for an empty run: ``np.bincount`` of sorted owners."""
    if xp is np:
        owner = np.repeat(np.arange(counts.shape[0]), counts)
        # (bincount of no rows returns integers, weights or not)
        return np.bincount(owner, weights=values, minlength=counts.shape[0]).astype(
            np.float64, copy=False)
    # sums over the non-empty runs, spread back to every run by a gather
    # (run i takes the sum of the non-empty runs up to it, if it is one)
    busy = counts > 0
    ran = flatnonzero(xp, busy)
    if ran.shape[0] == 0:
        return xp.zeros(counts.shape[0], dtype=xp.float64, device=device_of(counts))
    sizes = take(xp, counts, ran)
    plan = SegmentPlan(xp, cumsum(xp, sizes) - sizes, values.shape[0])
    sums = segment_reduce(xp, values, plan, "sum")
    slot = xp.clip(cumsum(xp, astype(xp, busy, xp.int64)) - 1, 0, None)
    return xp.where(busy, take(xp, sums, slot), xp.zeros_like(sums[:1]))


def segment_cumsum(xp, x, segments):
    """Cumulative sum of ``x`` restarted at each segment (offsets or plan).

    Each segment is summed from its own first value, so a segment's result
    depends on its own values only.
    """
    cumsum_rows = (lambda v: np.cumsum(v, axis=1)) if xp is np else (
        lambda v: xp.cumulative_sum(v, axis=1))
    return _scan_segments(xp, x, segments, 0.0, cumsum_rows)


def segment_suffix_max(xp, x, segments):
    """Maximum of ``x`` over each position and the later ones of its segment.

    In each bucket, a log-step (Hillis-Steele) scan of maxima over shifted
    copies, from the right.
    """
    def suffix_max_rows(vals):
        shift, width = 1, vals.shape[1]
        while shift < width:
            pad = xp.full((vals.shape[0], shift), -math.inf, dtype=vals.dtype,
                          **({} if xp is np else {"device": device_of(vals)}))
            vals = xp.maximum(vals, concat(xp, [vals[:, shift:], pad], axis=1))
            shift *= 2
        return vals

    return _scan_segments(xp, x, segments, -math.inf, suffix_max_rows)


def _scan_segments(xp, x, segments, fill, scan_rows):
    """``scan_rows`` (a scan along the rows of a bucket, ``fill`` past each
    segment's end) of ``x`` within each segment, in item order."""
    x = astype(xp, x, xp.float64)
    if x.shape[0] == 0:
        return x
    plan = _plan_of(xp, segments, x.shape[0])
    pieces = []
    for bucket in plan.buckets:
        vals, mask = plan.padded(x, bucket, fill)
        out = scan_rows(vals)
        pieces.append(xp.reshape(out, (-1,)) if mask is None else out[mask])
    return plan.by_item(pieces)


# ---------------------------------------------------------------------------
# log-gamma
# ---------------------------------------------------------------------------
# Lanczos approximation (g = 7, 9 terms, P. Godfrey's coefficients), relative
# error about 1e-15 for x >= 0.5
_LANCZOS_G = 7.0
_LANCZOS = (
    0.99999999999980993, 676.5203681218851, -1259.1392167224028,
    771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
)


def lgamma(xp, x):
    """``log(Gamma(x))`` of float64 ``x >= 1`` (the kernels' arguments)."""
    if xp is np:
        from scipy.special import gammaln

        return gammaln(x)
    native = getattr(xp, "lgamma", None)  # torch (through array_api_compat)
    if native is not None:
        return native(x)
    z = x - 1.0
    series = xp.full(x.shape, _LANCZOS[0], dtype=x.dtype, device=device_of(x))
    for i, c in enumerate(_LANCZOS[1:], start=1):
        series = series + c / (z + float(i))
    t = z + _LANCZOS_G + 0.5
    return (0.5 * math.log(2 * math.pi) + (z + 0.5) * xp.log(t) - t
            + xp.log(series))
