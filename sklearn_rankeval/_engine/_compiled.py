"""The NumPy path: the compiled grouped pass (``_grouped.pyx``), driven here.

One pass for every layout of NumPy input:

1. group codes (:func:`~._group_ids.group_slots`: integer ids by offset,
   Categorical codes as they are, other ids hashed once), or groups of one
   size (2-D input, one ranking);
2. shuffled rows of many groups copied by ranges of group slots first (a
   stable radix partition, :meth:`_Input._partition`), so that the steps
   below touch one range's counters and workspace at a time (in the cache);
   then one counting pass: each group's rows and relevant rows, its first
   row, its weights' range and sum;
3. chunks of whole groups whose workspace fits ``working_memory``; for each,
   a counting sort of its rows into the workspace (reused from call to call:
   no fresh buffer, no page faults after the first call);
4. per group, on OpenMP threads: the relevant rows sorted, the others
   counted against them, the merged tie blocks, the statistics that the
   metrics of the call asked for (:mod:`._native`: those of the blocks and
   those of the rows, in the same pass) -- and the blocks themselves only
   when some metric needs them (its kernel then runs);
5. the unranked view of each chunk (:class:`~._rows.UnrankedRows`): the
   rows of its groups gathered (one pass over the row indices) or in rank
   order (:func:`_grouped.sort_pass`) when a kernel reads them.

``rank(merge=False)`` (the unmerged blocks of curves) sorts every row of
each group instead.  The per-group values depend on the group's own rows
only, written to the group's own slots: the number of threads never changes
a bit of them.
"""

import threading

import numpy as np

from .._core import get_config
from ._fresh import check_fresh
from ._generic import from_rows
from ._group_ids import GroupSlots, group_slots
from ._native import Natives, plan
from ._ranked import CountedRows, RankedGroups
from ._rows import UnrankedRows
from ._ties import block_starts

try:
    from . import _grouped
except ImportError as exc:  # pragma: no cover - a source tree never built
    raise ImportError(
        "sklearn_rankeval's compiled engine (sklearn_rankeval/_engine/_grouped) "
        "is not built: run `pip install .` (a C compiler and Cython are "
        "needed; pip fetches Cython)."
    ) from exc
check_fresh(_grouped)

__all__ = ["compiled_chunks", "index_dtype", "multiclass_counts", "n_threads",
           "natives_of_blocks", "rank_compiled"]

#: Rows below which the per-group pass runs on one thread.  Measured on the
#: 2-core machines of this project (benchmarks/README.md): the pass over W1
#: (3M and 10M rows) and W2 (2M) takes 5-40 ms on one thread, and a second
#: thread gained nothing there and lost 2-4x whenever the machine was loaded
#: (a parallel region waits for its slowest thread, and a busy machine
#: delays one).  Above this size the threads OpenMP allows run.
MIN_PARALLEL_ROWS = 16_000_000
#: The largest number of rows whose row indices are int32 (then int64).
INDEX32_MAX = 2**31 - 1
#: Workspace bytes of a relevant row (score, grade, weight), of another row's
#: score (and weight), and of a group (its counts and statistics).
REL_BYTES, IRR_BYTES, GROUP_BYTES = 24, 8, 96
#: Bytes of one merged block (when the blocks are built).
BLOCK_BYTES = 48
#: The radix partition (``_grouped.partition``): shuffled rows of more than
#: ``PARTITION_MIN_SLOTS`` groups and ``PARTITION_MIN_ROWS`` rows are first
#: copied by ranges of ``2 ** PARTITION_SLOT_BITS`` slots (about 160,000
#: rows of a click log: a range's counters and workspace, ~2 MB, fit the
#: caches), at most ``PARTITION_MAX_PARTS`` ranges (wider ones beyond: the
#: partition's streams of writes stay few).  Measured on the 2-core machines
#: of this project (benchmarks/README.md): below ~250,000 groups the
#: counters and the workspace stay in the caches without it, and the copy
#: costs more than it saves.  Tests set these small so that every input
#: crosses partition boundaries.
PARTITION_MIN_SLOTS = 1 << 18
PARTITION_MIN_ROWS = 1 << 18
PARTITION_SLOT_BITS = 14
PARTITION_MAX_PARTS = 256
#: With partitioned rows (a copy of them is held), the workspace of the
#: counting sort is cut to this share of the input's bytes (at least
#: ``PARTITION_MIN_WORKSPACE``): chunks of partitioned rows are contiguous
#: ranges of them, so that more chunks cost no extra pass; peak memory
#: stays near the copy's.
PARTITION_WORKSPACE_SHARE = 0.25
PARTITION_MIN_WORKSPACE = 4 << 20

_EMPTY_F = np.zeros(0, dtype=np.float64)
_EMPTY_I = np.zeros(0, dtype=np.int64)
_EMPTY_B = np.zeros(0, dtype=np.uint8)
_NO_CODES = np.zeros(1, dtype=np.int64)
_NO_ROWS = np.zeros(0, dtype=np.int32)
_LOCAL = threading.local()


def n_threads(n_rows):
    """Threads for a pass over ``n_rows`` rows: OpenMP's count (which follows
    ``OMP_NUM_THREADS`` and threadpoolctl's limits), one for small inputs."""
    if n_rows < MIN_PARALLEL_ROWS:
        return 1
    return max(int(_grouped.max_threads()), 1)


def index_dtype(n):
    """Row indices of ``n`` rows: int32 up to :data:`INDEX32_MAX`, else int64."""
    return np.int32 if n <= INDEX32_MAX else np.int64


def _workspace(n_rel, n_irr, weighted):
    """This thread's workspace, grown as needed and kept: ``(rel, irr_s,
    irr_w)`` views of the sizes asked for."""
    ws = getattr(_LOCAL, "ws", None)
    if ws is None:
        ws = _LOCAL.ws = {}

    def take(name, size):
        buf = ws.get(name)
        if buf is None or buf.shape[0] < size:
            buf = ws[name] = np.empty(max(size, 1024))
        return buf[:size]

    return (take("rel", 3 * n_rel), take("irr_s", n_irr),
            take("irr_w", n_irr) if weighted else _EMPTY_F)


def _grades(y):
    """``y_true`` in a dtype the pass reads (no copy for the common ones)."""
    y = np.ascontiguousarray(y)
    if y.dtype == np.bool_ or y.dtype == np.int8:
        return y.view(np.uint8)  # (grades are >= 0: checked before)
    if y.dtype in (np.uint8, np.int32, np.int64, np.float32, np.float64):
        return y
    if y.dtype.kind in "iu" and y.dtype.itemsize <= 4:
        return y.astype(np.int32 if y.dtype.itemsize < 4 else np.int64)
    return y.astype(np.float64)


def _scores(s):
    """``y_score`` as float32 or float64 (integers: exact as float64 below
    2**53, else their dense rank)."""
    s = np.ascontiguousarray(s)
    if s.dtype in (np.float32, np.float64):
        return s
    if s.dtype == np.float16:
        return s.astype(np.float32)
    if s.dtype.kind in "iu" and s.shape[0] and max(
            abs(int(s.min())), abs(int(s.max()))) >= 2**53:
        return np.unique(s, return_inverse=True)[1].reshape(-1).astype(np.float64)
    return s.astype(np.float64)


class _Input:
    """The rows of a long or 2-D input as the pass reads them, where each
    group goes, and the counting pass's per-slot totals; ``probabilities``:
    the scores the statistics of the rows read, when they are not
    ``y_score`` (recalibrated ones)."""

    def __init__(self, layout, y_true, y_score, groups, w, probabilities=None):
        self.query_weights = None
        if layout == "2d":
            n_queries, width = y_score.shape
            y_true, y_score = y_true.reshape(-1), y_score.reshape(-1)
            if probabilities is not None:
                probabilities = probabilities.reshape(-1)
            self.query_weights, w = w, None
        self.given = (y_true, y_score)  # (the unranked view's rows)
        self.p = (None if probabilities is None
                  else np.ascontiguousarray(probabilities, dtype=np.float64))
        self._order = None
        n = y_score.shape[0]
        self.n = n
        self.score_dtype = y_score.dtype
        if layout == "2d" or groups is None:
            width = width if layout == "2d" else max(n, 1)
            self.slots = GroupSlots(_NO_CODES, 0, _EMPTY_I,
                                    n // width if n else 0,
                                    lambda s: np.asarray(s, dtype=np.int64)
                                    if layout == "2d" else np.zeros(len(s), dtype=int))
            self.width = width
        else:
            self.slots = group_slots(groups, n)
            self.width = 0
        self.y = _grades(y_true)
        self.s = _scores(y_score)
        self.w = None if w is None else np.ascontiguousarray(w, dtype=np.float64)
        self.input_slots = self.slots  # (the caller's rows: the unranked view's order)
        self.source = (self.y, self.s, self.w)
        self.part_shift = self.part_start = None
        self._partition()
        self._count()

    def _partition(self):
        """Shuffled rows of many groups: the rows copied by ranges of slots
        (:data:`PARTITION_SLOT_BITS`), stable, so that the counting pass and
        the counting sort read them in order and touch the counters and
        workspace of one range at a time (in the cache).  Every later step
        reads these rows as its input: a row's slot is its code; a group is
        one slot, so no range splits it; within a group the rows keep their
        input order, so that every sum has the same bits."""
        n_slots = self.slots.n_slots
        if (self.width or self.n < PARTITION_MIN_ROWS or n_slots <= PARTITION_MIN_SLOTS
                or n_slots > INDEX32_MAX or self.p is not None):
            # (probabilities apart from the scores are read in input order)
            return
        shift = PARTITION_SLOT_BITS
        while ((n_slots - 1) >> shift) + 1 > PARTITION_MAX_PARTS:
            shift += 1
        n_parts = ((n_slots - 1) >> shift) + 1
        if n_parts < 2:
            return
        sizes = np.zeros(n_parts, dtype=np.int64)
        runs = _grouped.partition_sizes(self.slots.codes, self.slots.lo,
                                        self.slots.slot, shift, sizes)
        if runs * 4 <= self.n:  # rows of a group together: read in order
            return
        start = np.zeros(n_parts + 1, dtype=np.int64)
        np.cumsum(sizes, out=start[1:])
        code = np.empty(self.n, dtype=np.int32)
        y, s = np.empty_like(self.y), np.empty_like(self.s)
        w = None if self.w is None else np.empty_like(self.w)
        _grouped.partition(self.slots.codes, self.slots.lo, self.slots.slot, shift,
                           self.y, self.s, _or_empty(self.w), start[:-1].copy(),
                           code, y, s, _or_empty(w))
        self.slots = GroupSlots(code, 0, _EMPTY_I, n_slots, self.slots.decode)
        self.y, self.s, self.w = y, s, w
        self.part_shift, self.part_start = shift, start
        self.part_budget = max(PARTITION_WORKSPACE_SHARE * sum(
            a.nbytes for a in (code, y, s) + (() if w is None else (w,))),
            PARTITION_MIN_WORKSPACE)

    def release(self):
        """The partitioned copy dropped once the pass is done: a statistic
        asked for later (:func:`_again`) reads the rows in input order (the
        same rows of each group in the same order: the same bits)."""
        if self.part_start is not None:
            self.slots = self.input_slots
            self.y, self.s, self.w = self.source
            self.part_shift = self.part_start = self.chunk_rows = None

    def budget(self, budget):
        """The workspace budget of a call (``None``: unbounded), cut for
        partitioned rows (:data:`PARTITION_WORKSPACE_SHARE`)."""
        if self.part_start is None:
            return budget
        return self.part_budget if budget is None else min(budget, self.part_budget)

    def _count(self):
        size = self.slots.n_slots
        weighted = self.w is not None
        counts = np.zeros((size, 3 if weighted else 2), dtype=np.int64)
        wstats = np.zeros((size, 3)) if weighted else np.zeros((0, 3))
        self.runs = 0
        if self.n:
            self.runs = _grouped.count_rows(
                self.slots.codes, self.slots.lo, self.slots.slot, self.width,
                self.y, _or_empty(self.w), counts, wstats)
        # (views: a slot's numbers stay side by side, no copy of them)
        self.cnt, self.nrel = counts[:, 0], counts[:, 1]
        if weighted:
            self.first = counts[:, 2]
            self.wmin, self.wmax, self.wsum = wstats.T
        self.present = (np.arange(size) if self.width
                        or np.count_nonzero(self.cnt) == size
                        else np.flatnonzero(self.cnt))
        self.row_start = np.cumsum(self.cnt) - self.cnt

    def order(self):
        """The row indices grouped, slot by slot (input order within each
        group): one pass, on first use."""
        if self._order is None:
            out = np.empty(self.n, dtype=index_dtype(self.n))
            if self.n:  # (the caller's rows, not the partitioned copy)
                slots = self.input_slots
                _grouped.scatter_order(slots.codes, slots.lo, slots.slot,
                                       self.width, self.n, 0, slots.n_slots,
                                       self.row_start.copy(), out)
            self._order = out
        return self._order

    def sorted_rows(self, slots, end=None):
        """Every row of the groups of ``slots`` in rank order (score
        descending; tied rows: the relevant ones first, each kind in input
        order: :func:`_grouped.sort_pass`):
        ``(score, grade, weight, starts)``, the grade ``y_true`` of a relevant
        row and 0 of another, the weight None when unweighted, and the
        offset of each group."""
        rel, irr_s, irr_w, rlo, rcnt, ilo, icnt = self.fill(slots, end)
        size = rcnt + icnt
        n = int(size.sum())
        score, grade = np.empty(n), np.empty(n)
        weight = np.empty(n) if self.w is not None else _EMPTY_F
        if n:
            _grouped.sort_pass(rel, irr_s, irr_w, rlo, rcnt, ilo, icnt, score,
                               grade, weight, int(size.max()), n_threads(n))
        return score, grade, weight if self.w is not None else None, rlo + ilo

    def unranked(self, slots, size, native, end=None):
        """The :class:`~._rows.UnrankedRows` of the groups in ``slots`` (a
        run of present slots; the chunk ending at ``end``) with statistics
        ``native``."""

        def arrays():
            if slots.shape[0]:
                last = slots[-1]
                index = self.order()[self.row_start[slots[0]]:
                                     self.row_start[last] + self.cnt[last]]
            else:
                index = _NO_ROWS
            y_true, y_score = (x[index] for x in self.given)
            return (y_true, y_score,
                    y_score if self.p is None else self.p[index],
                    None if self.w is None else self.w[index])

        def in_rank_order():
            score, grade, weight, _ = self.sorted_rows(slots, end)
            return grade, score, weight

        return UnrankedRows(np, None, size, native, arrays, in_rank_order)

    def columns(self):
        """The ranked arrays by name, one entry per row of the caller's
        input (:meth:`RankedGroups.set_rank_order`)."""
        return {"y_true": self.given[0], "y_score": self.given[1],
                "sample_weight": None if self.width else self.source[2]}

    def rank_order(self, slots):
        """``order()`` of :meth:`RankedGroups.set_rank_order`: the caller's
        rows of the groups in ``slots`` in rank order (score descending as
        the pass compares them, tied rows in input order), on first use."""

        def order():
            if slots.shape[0] == 0:
                return np.zeros(0, dtype=np.int64)
            last = slots[-1]
            index = self.order()[self.row_start[slots[0]]:
                                 self.row_start[last] + self.cnt[last]].copy()
            starts = np.zeros(slots.shape[0] + 1, dtype=np.int64)
            np.cumsum(self.cnt[slots], out=starts[1:])
            # each group's rows by score descending, stably (in place)
            _grouped.rank_rows(index, starts, self.source[1],
                               n_threads(index.shape[0]))
            return index

        return order

    def bounds(self, budget, blocks):
        """Cuts of the present groups into chunks of about ``budget`` bytes of
        workspace (whole groups; one group larger than that is one chunk)."""
        g = self.present.shape[0]
        if budget is None or g <= 1:
            return [(0, g)]
        irr_bytes = IRR_BYTES * (1 + (self.w is not None))
        rel_bytes = REL_BYTES + (2 * BLOCK_BYTES if blocks else 0)
        group_bytes = GROUP_BYTES + (2 * BLOCK_BYTES if blocks else 0)
        n_rel = int(self.nrel.sum())
        if (rel_bytes * n_rel + irr_bytes * (self.n - n_rel) + group_bytes * g
                <= budget):  # (the total first: no array per group)
            return [(0, g)]
        every = g == self.cnt.shape[0]  # every slot has rows: no gather
        cost = (self.nrel if every else self.nrel[self.present]) * (
            rel_bytes - irr_bytes)
        cost += irr_bytes * (self.cnt if every else self.cnt[self.present])
        cost += group_bytes
        cum = np.cumsum(cost, out=cost)
        cuts = np.searchsorted(cum, np.arange(budget, cum[-1], budget), side="left")
        cuts = np.unique(np.concatenate([[0], cuts, [g]]))
        return list(zip(cuts[:-1].tolist(), cuts[1:].tolist()))

    def split(self, bounds):
        """With several chunks of a shuffled input, the rows ordered by chunk
        (one pass), so that each chunk's counting sort reads its own rows
        only: linear in the rows, whatever the number of chunks.  Partitioned
        rows are in slot-range order already: a chunk reads the range of
        rows of the partitions it overlaps (those of a partition it shares
        with its neighbour are skipped by the counting sort)."""
        self.chunk_rows = None
        if len(bounds) < 2 or self.width:
            return
        if self.part_start is not None:
            first = self.part_start[self.present[[a for a, _ in bounds]]
                                    >> self.part_shift]
            last = self.part_start[(self.present[[b - 1 for _, b in bounds]]
                                    >> self.part_shift) + 1]
            self.chunk_rows = {b: (int(lo), int(hi)) for (_, b), lo, hi
                               in zip(bounds, first.tolist(), last.tolist())}
            return
        chunk_of_slot = np.full(self.slots.n_slots, -1, dtype=np.int32)
        sizes = np.empty(len(bounds), dtype=np.int64)
        for c, (a, b) in enumerate(bounds):
            chunk_of_slot[self.present[a:b]] = c
            sizes[c] = self.cnt[self.present[a:b]].sum()
        starts = np.cumsum(sizes) - sizes
        order = np.empty(self.n, dtype=index_dtype(self.n))
        _grouped.chunk_order(self.slots.codes, self.slots.lo, self.slots.slot,
                             self.n, chunk_of_slot, starts.copy(), order)
        self.chunk_rows = {b: order[s:s + size] for (_, b), s, size
                           in zip(bounds, starts.tolist(), sizes.tolist())}

    def fill(self, slots, end=None, scores=None):
        """The counting sort of the rows of ``slots`` (sorted; the chunk
        ending at ``end`` of :meth:`split`) into the workspace: ``(rel,
        irr_s, irr_w, rlo, rcnt, ilo, icnt)``; ``scores``: other scores than
        ``y_score`` (the probabilities)."""
        slo, shi = int(slots[0]), int(slots[-1]) + 1
        rows = getattr(self, "chunk_rows", None)
        rows = _NO_ROWS if rows is None or end is None else rows[end]
        codes, y, s, w = self.slots.codes, self.y, self.s, _or_empty(self.w)
        if scores is not None:  # (never partitioned: see _partition)
            s = scores
        if isinstance(rows, tuple):  # partitioned: the chunk's range of rows
            a, b = rows
            codes, y, s = codes[a:b], y[a:b], s[a:b]
            w = w[a:b] if w.shape[0] else w
            rows = _NO_ROWS
        rel_n = np.ascontiguousarray(self.nrel[slo:shi])
        irr_n = self.cnt[slo:shi] - rel_n
        rstart = np.cumsum(rel_n) - rel_n
        istart = np.cumsum(irr_n) - irr_n
        weighted = self.w is not None
        rel, irr_s, irr_w = _workspace(int(rel_n.sum()), int(irr_n.sum()), weighted)
        _grouped.scatter(codes, self.slots.lo, self.slots.slot, self.width, y, s, w,
                         slo, shi, np.stack([rstart, istart], axis=1), rel, irr_s,
                         irr_w, self.runs * 4 > self.n and self.part_start is None,
                         rows)  # shuffled (and not partitioned): prefetch
        if slots.shape[0] != shi - slo:  # slots without rows left out
            idx = slots - slo
            return (rel, irr_s, irr_w, rstart[idx], rel_n[idx], istart[idx],
                    irr_n[idx])
        return rel, irr_s, irr_w, rstart, rel_n, istart, irr_n

    def totals(self, slots, a=None):
        """``(labels, size, n_rel, group_weight, query_weight, spread,
        query_weights)`` of the groups in ``slots``."""
        size, n_rel = self.cnt[slots], self.nrel[slots]
        if self.w is not None:
            group_weight = self.wsum[slots]
            query_weight = self.w[self.first[slots]]
            spread = bool((self.wmin[slots] != self.wmax[slots]).any())
        else:
            group_weight, query_weight, spread = size.astype(np.float64), None, False
        qw = None if self.query_weights is None else self.query_weights[slots]
        return (self.slots.decode(slots), size, n_rel, group_weight, query_weight,
                spread, qw)



def _eps(dtype):
    """The machine epsilon of scores of ``dtype`` (the CTR kernels' clip)."""
    return float(np.finfo(dtype if dtype.kind == "f" else np.float64).eps)


def _or_empty(w):
    return _EMPTY_F if w is None else w


def _run_pass(inp, slots, fill, the_plan, blocks, dtype=None):
    """:func:`_grouped.group_pass` over one chunk: ``(found, blocks, grades)``
    (``dtype``: of the scores filled, when not ``y_score``'s)."""
    dtype = inp.score_dtype if dtype is None else dtype
    rel, irr_s, irr_w, rlo, rcnt, ilo, icnt = fill
    n_groups = slots.shape[0]
    out = the_plan.output(n_groups)
    weighted = inp.w is not None
    wdiv = _EMPTY_F
    if weighted:
        wdiv = inp.wmax[slots]
        wdiv = np.where(wdiv == 0, 1.0, wdiv)
    arrays = (_EMPTY_I, _EMPTY_I, _EMPTY_I, _EMPTY_I, _EMPTY_I, _EMPTY_B,
              _EMPTY_F, _EMPTY_F)
    if blocks:
        ub = 2 * rcnt + 2
        bub = np.cumsum(ub) - ub
        total = int(ub.sum())
        arrays = (bub, np.zeros(n_groups, dtype=np.int64),
                  *(np.empty(total, dtype=np.int64) for _ in range(3)),
                  np.empty(total, dtype=np.uint8),
                  *((np.empty(total), np.empty(total)) if weighted
                    else (_EMPTY_F, _EMPTY_F)))
    max_rel = int(rcnt.max()) if n_groups else 0
    bad = _grouped.group_pass(rel, irr_s, irr_w, rlo, rcnt, ilo, icnt, wdiv,
                              the_plan.req, the_plan.params, out, _eps(dtype),
                              *arrays, max_rel, n_threads(int(rcnt.sum()
                                                              + icnt.sum())))
    found = the_plan.split(out)
    if bad or dtype == np.float16:  # the CTR kernels raise (or
        # compute in float16): not computed here
        found = {stat: v for stat, v in found.items() if not stat.rows}
    grades = rel[1::3].copy() if blocks else None  # sorted: rank order
    if not blocks:
        return found, None, grades
    bub, nblk, bstart, bsize, bnrel, bret, bwpos, bwneg = arrays
    n_blocks = _grouped.compact_blocks(bub, nblk, bstart, bsize, bnrel, bret,
                                       bwpos, bwneg)
    cut = slice(0, n_blocks)
    first_block = np.cumsum(nblk) - nblk
    return found, (first_block, bstart[cut], bsize[cut], bnrel[cut],
                   bret[cut].view(bool), bwpos[cut] if weighted else None,
                   bwneg[cut] if weighted else None), grades



def _stats_pass(inp, slots, native, blocks, end):
    """``(found, blocks, grades)`` of one chunk: the statistics of ``native``
    and (``blocks``) the merged blocks, in one per-group pass; with
    probabilities apart from the scores (``negative_sampling_rate``), the
    statistics of the rows in a second pass, over the probabilities."""
    max_size = int(inp.cnt[slots].max())
    on_scores = [s for s in native if s is None or inp.p is None or not s.rows]
    found, built, grades = {}, None, None
    if blocks or any(s is not None for s in on_scores):
        found, built, grades = _run_pass(
            inp, slots, inp.fill(slots, end),
            plan(on_scores, max_size, _grouped.KERNELS), blocks)
    on_rows = [s for s in native if s is not None and s.rows]
    if inp.p is not None and on_rows:
        found.update(_run_pass(inp, slots, inp.fill(slots, end, inp.p),
                               plan(on_rows, max_size, _grouped.KERNELS), False,
                               dtype=inp.p.dtype)[0])
    return found, built, grades


def _joined(pieces):
    """The statistics of consecutive chunks of groups, joined: those that
    every chunk computed (a chunk leaves out the CTR statistics where its
    rows are not binary labels with probabilities, as one pass over all
    the groups would)."""
    if len(pieces) == 1:
        return pieces[0]
    found = {}
    for key in pieces[0] if pieces else ():
        if not all(key in p for p in pieces):
            continue
        parts = [p[key] for p in pieces]
        found[key] = (np.concatenate([v for v, _, _ in parts]),
                      np.concatenate([d for _, d, _ in parts]),
                      None if parts[0][2] is None
                      else np.concatenate([s for _, _, s in parts], axis=1))
    return found


def _ranked(inp, slots, native, *, relabel, blocks, end=None):
    """The :class:`RankedGroups` of one chunk of whole groups (merged blocks),
    with its unranked view."""
    blocks = blocks or any(stat is None for stat in native)
    labels, size, n_rel, group_weight, query_weight, spread, qw = inp.totals(slots)
    if relabel is not None:
        labels = relabel(labels)
    if slots.shape[0] == 0:
        rg = _empty(labels, qw)
        rg.unranked = inp.unranked(slots, size, None)
        rg.set_rank_order(inp.rank_order(slots), inp.columns())
        return rg
    if slots is inp.present and not blocks and inp.part_start is not None:
        # partitioned rows, every statistic from the pass: in chunks of the
        # workspace budget (contiguous rows each), the values joined
        bounds = inp.bounds(inp.budget(None), blocks=False)
        inp.split(bounds)
        found = _joined([_stats_pass(inp, slots[a:b], native, False, b)[0]
                         for a, b in bounds])
        inp.chunk_rows, built, grades = None, None, None
    else:
        found, built, grades = _stats_pass(inp, slots, native, blocks, end)
    natives = Natives(found, _again(inp, slots, end))
    if built is None:  # light: every statistic computed
        rg = RankedGroups(xp=np, device=None, labels=labels, group_size=size,
                          totals=(n_rel, group_weight, query_weight, spread),
                          query_weights=qw, native=natives)
    else:
        first_block, bstart, bsize, bnrel, bret, bwpos, bwneg = built
        weights = None
        if inp.w is not None:
            weights = (bwpos, bwneg, group_weight, query_weight)
        rows = CountedRows(grades, size, n_rel, bnrel, bsize, weights, spread)
        rg = RankedGroups(xp=np, device=None, labels=labels, group_size=size,
                          group_first_block=first_block, block_start=bstart,
                          block_size=bsize, block_n_rel=bnrel,
                          block_retrieved=bret, rows=rows, query_weights=qw,
                          native=natives)
    rg.unranked = inp.unranked(slots, size, natives, end)
    rg.set_rank_order(inp.rank_order(slots), inp.columns())
    return rg


def _again(inp, slots, end=None):
    """Statistics asked of a ranking later (a metric function's
    ``from_ranked``, a curve's GAUC): the same pass over the same rows, so
    that they have the same bits as when asked for at once."""

    def compute(rg, requests):
        the_plan = plan(requests, int(inp.cnt[slots].max()), _grouped.KERNELS)
        # (ranked statistics only: Natives computes no statistic of the rows)
        return _run_pass(inp, slots, inp.fill(slots, end), the_plan, False)[0]

    return compute


def _empty(labels, qw):
    zero = np.zeros(0, dtype=np.int64)
    return RankedGroups(xp=np, device=None, labels=labels, group_size=zero,
                        group_first_block=zero, block_start=zero, block_size=zero,
                        block_n_rel=zero, block_retrieved=zero.astype(bool),
                        query_weights=qw)


def _sorted(inp, slots, *, relabel):
    """The :class:`RankedGroups` of every tie block (every row sorted)."""
    labels, size, _, group_weight, query_weight, _, qw = inp.totals(slots)
    if relabel is not None:
        labels = relabel(labels)
    if slots.shape[0] == 0:
        return _empty(labels, qw)
    score, grade, weight, gstarts = inp.sorted_rows(slots)
    n = score.shape[0]
    gbrk = np.zeros(n, dtype=bool)
    gbrk[gstarts] = True
    bstarts = np.flatnonzero(block_starts(score, gbrk))
    rg = from_rows(np, None, grade, weight, bstarts, gbrk, gstarts, labels,
                   score[bstarts] > -np.inf, query_weights=qw)
    rg.native = Natives({}, _again(inp, slots))
    rg.unranked = inp.unranked(slots, size, rg.native)
    rg.set_rank_order(inp.rank_order(slots), inp.columns())
    if inp.w is not None:  # the totals of the counting pass, as the merged form's
        rg.group_weight, rg.query_weight = group_weight, query_weight
    return rg


def rank_compiled(layout, y_true, y_score, groups, w, *, relabel=None,
                  merge=False, native=None, probabilities=None):
    """:class:`RankedGroups` of checked NumPy inputs of the long or 2-D layout,
    all groups at once (``merge``: the merged blocks; ``native``: the
    statistics to compute, :class:`~._native.Statistic` records, None for a
    metric without one: then the blocks are built, as when ``native`` is
    None; ``probabilities``: what the statistics of the rows and the
    unranked view read instead of ``y_score``)."""
    inp = _Input(layout, y_true, y_score, groups, w, probabilities)
    if not merge:
        rg = _sorted(inp, inp.present, relabel=relabel)
    else:
        rg = _ranked(inp, inp.present, list(native or ()), relabel=relabel,
                     blocks=native is None)
    inp.release()
    return rg


def compiled_chunks(layout, y_true, y_score, groups, w, *, native=None,
                    budget=None, probabilities=None):
    """The :class:`RankedGroups` (merged blocks) of each chunk of whole groups,
    in the sorted order of the ids, each with its unranked view; blocks are
    built only when a ranked metric has no statistic in ``native`` (or
    ``native`` is None), see :func:`rank_compiled`."""
    inp = _Input(layout, y_true, y_score, groups, w, probabilities)
    blocks = native is None
    native = list(native or ())
    bounds = inp.bounds(inp.budget(budget),
                        blocks=blocks or any(s is None for s in native))
    inp.split(bounds)
    for a, b in bounds:
        yield _ranked(inp, inp.present[a:b], native, relabel=None,
                      blocks=blocks, end=b)
    inp.release()


def natives_of_blocks(rg, requests):
    """The statistics of ``requests`` from the blocks of a
    :class:`RankedGroups` that keeps no rows (the multiclass layout:
    :func:`_grouped.block_stats`)."""
    the_plan = plan(requests, max(rg.max_group_size, 1) if rg.n_groups else 1,
                    _grouped.KERNELS)
    out = the_plan.output(rg.n_groups)
    if rg.n_groups:
        n_rel = np.ascontiguousarray(rg.group_n_rel, dtype=np.int64)
        weighted = rg.item_weighted
        _grouped.block_stats(
            np.ascontiguousarray(rg.group_first_block, dtype=np.int64),
            np.ascontiguousarray(rg.group_size, dtype=np.int64), n_rel,
            np.cumsum(n_rel) - n_rel,
            np.ascontiguousarray(rg.relevant_grades, dtype=np.float64),
            np.ascontiguousarray(rg.block_start, dtype=np.int64),
            np.ascontiguousarray(rg.block_size, dtype=np.int64),
            np.ascontiguousarray(rg.block_n_rel, dtype=np.int64),
            np.ascontiguousarray(rg.block_retrieved).view(np.uint8),
            np.ascontiguousarray(rg.block_w_pos, dtype=np.float64) if weighted
            else _EMPTY_F,
            np.ascontiguousarray(rg.block_w_neg, dtype=np.float64) if weighted
            else _EMPTY_F,
            the_plan.req, the_plan.params, out,
            int(rg.blocks_per_group.max()), int(n_rel.max()),
            n_threads(int(rg.block_size.shape[0])))
    return the_plan.split(out)


def multiclass_counts(y_encoded, y_score):
    """For each sample: the classes scored above its true class, and those
    tied with it (itself included)."""
    P = np.ascontiguousarray(y_score)
    if P.dtype not in (np.float32, np.float64):
        P = P.astype(np.float64)
    y = np.ascontiguousarray(y_encoded, dtype=np.int64)
    above = np.empty(P.shape[0], dtype=np.int64)
    tied = np.empty(P.shape[0], dtype=np.int64)
    if P.shape[0]:
        _grouped.multiclass_counts(P, y, above, tied)
    return above, tied


def working_budget():
    """``working_memory`` in bytes."""
    return get_config()["working_memory"] * float(1 << 20)
