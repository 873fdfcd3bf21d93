# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""The compiled grouped pass (driven by ``_compiled.py``).

0. :func:`partition` -- with many groups in shuffled rows, the rows copied
   by ranges of slots small enough that their counters and their part of
   the workspace stay in the cache (a stable radix partition with
   sequential writes): the steps below then read these rows, and every
   random access they make falls within one partition's range.
1. :func:`count_rows` -- one pass over the rows: each group's rows, relevant
   rows (``y > 0``), first row, and the minimum, maximum and sum of its
   weights.  A row's group is its slot: ``codes[i] - lo`` (integer ids by
   offset), mapped through ``slot`` when given (hashed or categorical codes
   to the sorted order of the ids), or ``i // width`` (2-D input, one group).
2. :func:`scatter` -- the rows of a range of slots into the workspace, each
   group's relevant rows (score, grade, weight) apart from the scores (and
   weights) of its other rows, in input order: a counting sort.
3. :func:`group_pass` -- per group, on OpenMP threads: the relevant rows
   sorted, the others counted against them (no sort), the merged blocks,
   the requested statistics, and the blocks themselves when asked for; CTR
   sums straight from the rows.  Each group writes its own slots only, so
   any number of threads gives the same bits.

:func:`sort_pass` sorts every row of each group instead (the unmerged tie
blocks of curves), :func:`block_stats` computes the statistics from blocks
already built, :func:`multiclass_counts` ranks the true class of each sample,
:func:`intent_pass` computes the diversity metrics' values and ideals of
rows in rank order (``_intent_kernels.pxd``).

Typed memoryviews only (no NumPy C-API).
"""

from cython.parallel cimport parallel, prange, threadid
from libc.math cimport pow
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc

from ._group_kernels cimport (
    K_AP, K_AUC, K_ECE, K_HITS, K_LOGLOSS, K_NDCG, K_NE, K_PCOC, K_RR,
    K_SUCCESS, Block, Group, Request, Row, Scratch, ctr_stats, merged_blocks,
    ranked_stat, sort_rows,
)
from ._intent_kernels cimport (
    cascade, coverage, exact, greedy, intent_bound, intent_weights, largest,
    useful_rows,
)

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    #define SKRE_OPENMP 1
    #else
    #define SKRE_OPENMP 0
    static int omp_get_max_threads(void) { return 1; }
    #endif
    #ifndef SKRE_SOURCE_HASH
    #define SKRE_SOURCE_HASH ""
    #endif
    #if defined(__GNUC__) || defined(__clang__)
    #define SKRE_PREFETCH_R(p) __builtin_prefetch((p), 0, 3)
    #define SKRE_PREFETCH_W(p) __builtin_prefetch((p), 1, 3)
    #else
    #define SKRE_PREFETCH_R(p) ((void)(p))
    #define SKRE_PREFETCH_W(p) ((void)(p))
    #endif
    """
    void SKRE_PREFETCH_R(const void*) noexcept nogil
    void SKRE_PREFETCH_W(const void*) noexcept nogil
    bint SKRE_OPENMP
    int omp_get_max_threads() noexcept nogil
    const char* SKRE_SOURCE_HASH

#: SHA-256 of the Cython sources this module was built from (``_fresh.py``).
SOURCE_HASH = (<bytes>SKRE_SOURCE_HASH).decode("ascii")
#: Whether the module was built with OpenMP.
OPENMP = bool(SKRE_OPENMP)
#: The code of each kernel of ``_group_kernels.pxd`` by the name a registry
#: entry gives it (``_native.Statistic.kernel``).
KERNELS = {"auc": K_AUC, "ap": K_AP, "rr": K_RR, "hits": K_HITS,
           "ndcg": K_NDCG, "success": K_SUCCESS, "log_loss": K_LOGLOSS,
           "ne": K_NE, "pcoc": K_PCOC, "ece": K_ECE}

# Rows ahead whose per-group counters (and, in the scatter, whose place in
# the workspace) are prefetched: the rows of a group are far apart in a
# shuffled input, so each row's counters are a cache miss otherwise.
cdef enum:
    AHEAD = 32
    AHEAD_STORE = 8
    RING = 63  # (a mask: 64 slots, more than AHEAD)

ctypedef fused code_t:
    int32_t
    int64_t

ctypedef fused grade_t:
    uint8_t
    int32_t
    int64_t
    float
    double

ctypedef fused score_t:
    float
    double

ctypedef fused index_t:
    int32_t
    int64_t


def max_threads():
    """``omp_get_max_threads()``: follows ``OMP_NUM_THREADS`` and
    threadpoolctl's limits (1 without OpenMP)."""
    return omp_get_max_threads()


# ---------------------------------------------------------------------------
# 1. counting
# ---------------------------------------------------------------------------
cdef inline int64_t _slot(const code_t* codes, Py_ssize_t i, int64_t lo,
                          const int64_t* slot) noexcept nogil:
    """Row i's slot (raw pointers: no reference counting per row)."""
    cdef int64_t c = <int64_t>codes[i] - lo
    return slot[c] if slot != NULL else c


def count_rows(const code_t[::1] codes, int64_t lo, const int64_t[::1] slot,
               int64_t width, const grade_t[::1] y, const double[::1] w,
               int64_t[:, ::1] counts, double[:, ::1] wstats):
    """Per slot: ``counts[s] = (rows, relevant rows[, first row])`` and, with
    weights, ``wstats[s] = (minimum, maximum, sum)`` of its weights (the
    arrays come zeroed; one slot's numbers side by side, so that a row
    touches one cache line of them).  Returns the number of runs of rows of
    one group (as many as rows when shuffled, as groups when grouped)."""
    cdef Py_ssize_t i, n = y.shape[0]
    cdef int64_t s, cur = -1, runs = 0, c_n = 0, c_r = 0, left = 0
    cdef const code_t* cp = &codes[0]
    cdef const int64_t* sp = &slot[0] if slot.shape[0] else NULL
    cdef const grade_t* yp = &y[0] if n else NULL
    cdef const double* wp = &w[0] if w.shape[0] else NULL
    cdef int64_t* cn = &counts[0, 0] if counts.shape[0] else NULL
    cdef double* ws = &wstats[0, 0] if wstats.shape[0] else NULL
    cdef int64_t k = counts.shape[1] if counts.shape[0] else 2
    cdef double x
    with nogil:
        for i in range(n):
            if width > 0:  # (no division per row)
                if left == 0:
                    left = width
                    s = cur + 1
                left -= 1
            else:
                s = _slot(cp, i, lo, sp)
                if i + AHEAD < n and runs * 4 > i:  # shuffled so far: prefetch
                    SKRE_PREFETCH_W(cn + k * _slot(cp, i + AHEAD, lo, sp))
            if s != cur:  # a new run: the last one's counts written back
                if cur >= 0:
                    cn[k * cur] += c_n
                    cn[k * cur + 1] += c_r
                cur = s
                c_n = 0
                c_r = 0
                runs += 1
                if wp != NULL and cn[k * s] == 0:
                    cn[k * s + 2] = i
                    ws[3 * s] = wp[i]
                    ws[3 * s + 1] = wp[i]
            c_n += 1
            c_r += yp[i] > 0
            if wp != NULL:
                x = wp[i]
                if x < ws[3 * s]:
                    ws[3 * s] = x
                if x > ws[3 * s + 1]:
                    ws[3 * s + 1] = x
                ws[3 * s + 2] += x
        if cur >= 0:
            cn[k * cur] += c_n
            cn[k * cur + 1] += c_r
    return runs


# ---------------------------------------------------------------------------
# 0. the radix partition by slot range (a working set that fits the cache)
# ---------------------------------------------------------------------------
def partition_sizes(const code_t[::1] codes, int64_t lo, const int64_t[::1] slot,
                    int shift, int64_t[::1] sizes):
    """Rows per partition (``slot >> shift``) into ``sizes`` (zeroed); returns
    the number of runs of rows of one group (as :func:`count_rows`): one
    sequential pass, its counters in the cache."""
    cdef Py_ssize_t i, n = codes.shape[0]
    cdef int64_t c, cur = -1, runs = 0
    cdef const code_t* cp = &codes[0] if n else NULL
    cdef const int64_t* sp = &slot[0] if slot.shape[0] else NULL
    cdef int64_t* zp = &sizes[0]
    with nogil:
        for i in range(n):
            c = _slot(cp, i, lo, sp)
            if c != cur:
                runs += 1
                cur = c
            zp[c >> shift] += 1
    return runs


def partition(const code_t[::1] codes, int64_t lo, const int64_t[::1] slot,
              int shift, const grade_t[::1] y, const score_t[::1] s,
              const double[::1] w, int64_t[::1] fill, int32_t[::1] p_code,
              grade_t[::1] p_y, score_t[::1] p_s, double[::1] p_w):
    """The rows copied by partition (slots ``p << shift .. (p + 1) << shift -
    1``), in input order within each (a stable radix partition: each row
    read once in order, written to one of the partitions' sequential
    streams): ``p_code`` the row's slot, ``p_y``, ``p_s``, ``p_w`` its
    grade, score and weight.  ``fill[p]``: where partition p's rows start
    (advanced).  A group is one slot: it is never split by a partition."""
    cdef Py_ssize_t i, n = codes.shape[0]
    cdef int64_t c, o
    cdef const code_t* cp = &codes[0] if n else NULL
    cdef const int64_t* sp = &slot[0] if slot.shape[0] else NULL
    cdef const grade_t* yp = &y[0] if n else NULL
    cdef const score_t* scp = &s[0] if n else NULL
    cdef const double* wp = &w[0] if w.shape[0] else NULL
    cdef int64_t* fp = &fill[0]
    cdef int32_t* pc = &p_code[0] if n else NULL
    cdef grade_t* py = &p_y[0] if n else NULL
    cdef score_t* ps = &p_s[0] if n else NULL
    cdef double* pw = &p_w[0] if p_w.shape[0] else NULL
    with nogil:
        for i in range(n):
            c = _slot(cp, i, lo, sp)
            o = fp[c >> shift]
            fp[c >> shift] = o + 1
            pc[o] = <int32_t>c
            py[o] = yp[i]
            ps[o] = scp[i]
            if wp != NULL:
                pw[o] = wp[i]


# ---------------------------------------------------------------------------
# 2. the counting sort into the workspace
# ---------------------------------------------------------------------------
def scatter(const code_t[::1] codes, int64_t lo, const int64_t[::1] slot,
            int64_t width, const grade_t[::1] y, const score_t[::1] s,
            const double[::1] w, int64_t slo, int64_t shi, int64_t[:, ::1] fill,
            double[::1] rel, double[::1] irr_s, double[::1] irr_w,
            bint prefetch, const index_t[::1] rows):
    """The rows of slots ``slo .. shi - 1`` into the workspace.

    ``fill[c]`` (``c = slot - slo``) is where the next relevant row and the
    next other row of that slot go (advanced as rows are placed); ``rel``
    holds (score, grade, weight) triples, ``irr_s`` / ``irr_w`` the other
    rows' scores and weights.  ``prefetch``: the rows are shuffled (the
    counters and places of rows ahead are fetched early).  ``rows``: the
    rows to read (those of the chunk, :func:`chunk_order`), or empty: all.
    """
    cdef Py_ssize_t i, a = 0, b = y.shape[0], t
    cdef const index_t* listed = &rows[0] if rows.shape[0] else NULL
    cdef int64_t c = -1, cur = -1, rp = 0, ip = 0, span = shi - slo, left = 0
    # (cur: the slot of the run, chunk-relative; -1 before the first row)
    cdef const code_t* cp = &codes[0]
    cdef const int64_t* sp = &slot[0] if slot.shape[0] else NULL
    cdef const grade_t* yp = &y[0] if b else NULL
    cdef const score_t* scp = &s[0] if b else NULL
    cdef const double* wp = &w[0] if w.shape[0] else NULL
    cdef int64_t* fp = &fill[0, 0] if fill.shape[0] else NULL
    cdef double* relp = &rel[0] if rel.shape[0] else NULL
    cdef double* isp = &irr_s[0] if irr_s.shape[0] else NULL
    cdef double* iwp = &irr_w[0] if irr_w.shape[0] else NULL
    cdef int64_t ring[RING + 1]
    if width > 0:  # rows of one size per group: only the chunk's rows
        a, b = slo * width, min(shi * width, b)
        prefetch = False
    if listed != NULL:
        a, b = 0, rows.shape[0]
    with nogil:
        if prefetch:  # the slots of the first rows ahead
            for t in range(a, min(a + AHEAD, b)):
                ring[t & RING] = _slot(cp, listed[t] if listed else t, lo,
                                       sp) - slo
        for t in range(a, b):
            i = listed[t] if listed else t
            if width > 0:  # (no division per row)
                if left == 0:
                    left = width
                    c = cur + 1
                left -= 1
            elif prefetch:
                # each row's slot computed once, AHEAD rows early: its
                # counters fetched then, and where it goes AHEAD_STORE rows
                # early; rows of other chunks cost a comparison
                if t + AHEAD < b:
                    c = _slot(cp, listed[t + AHEAD] if listed else t + AHEAD,
                              lo, sp) - slo
                    ring[(t + AHEAD) & RING] = c
                    if c >= 0 and c < span:
                        SKRE_PREFETCH_W(fp + 2 * c)
                if t + AHEAD_STORE < b:
                    c = ring[(t + AHEAD_STORE) & RING]
                    if c >= 0 and c < span:
                        SKRE_PREFETCH_W(
                            relp + 3 * fp[2 * c]
                            if yp[listed[t + AHEAD_STORE] if listed
                                  else t + AHEAD_STORE] > 0
                            else isp + fp[2 * c + 1])
                c = ring[t & RING]
            else:
                c = _slot(cp, i, lo, sp) - slo
            if c != cur:  # a new run: the last one's places written back
                if cur >= 0 and cur < span:
                    fp[2 * cur] = rp
                    fp[2 * cur + 1] = ip
                cur = c
                if c < 0 or c >= span:  # another chunk's
                    continue
                rp = fp[2 * c]
                ip = fp[2 * c + 1]
            elif c < 0 or c >= span:
                continue
            if yp[i] > 0:
                relp[3 * rp] = scp[i]
                relp[3 * rp + 1] = yp[i]
                relp[3 * rp + 2] = wp[i] if wp != NULL else 1.0
                rp += 1
            else:
                isp[ip] = scp[i]
                if wp != NULL:
                    iwp[ip] = wp[i]
                ip += 1
        if cur >= 0 and cur < span:
            fp[2 * cur] = rp
            fp[2 * cur + 1] = ip


def chunk_order(const code_t[::1] codes, int64_t lo, const int64_t[::1] slot,
                int64_t n, const int32_t[::1] chunk_of_slot, int64_t[::1] fill,
                index_t[::1] order):
    """The rows grouped by chunk (``chunk_of_slot``: each slot's chunk),
    input order within each: one pass, so that the counting sort of each
    chunk reads its own rows only (``fill[c]``: where chunk c's rows start)."""
    cdef Py_ssize_t i
    cdef int32_t c
    cdef const code_t* cp = &codes[0]
    cdef const int64_t* sp = &slot[0] if slot.shape[0] else NULL
    with nogil:
        for i in range(n):
            c = chunk_of_slot[_slot(cp, i, lo, sp)]
            order[fill[c]] = <index_t>i
            fill[c] += 1


def scatter_order(const code_t[::1] codes, int64_t lo, const int64_t[::1] slot,
                  int64_t width, int64_t n, int64_t slo, int64_t shi,
                  int64_t[::1] fill, index_t[::1] order):
    """The row indices of slots ``slo .. shi - 1`` grouped, in input order
    within each group (``fill`` as in :func:`scatter`)."""
    cdef Py_ssize_t i, a = 0, b = n
    cdef int64_t c, span = shi - slo
    cdef const code_t* cp = &codes[0]
    cdef const int64_t* sp = &slot[0] if slot.shape[0] else NULL
    cdef int64_t* fp = &fill[0] if fill.shape[0] else NULL
    cdef index_t* op = &order[0] if order.shape[0] else NULL
    if width > 0:
        a, b = slo * width, min(shi * width, b)
    with nogil:
        for i in range(a, b):
            c = (i // width if width > 0 else _slot(cp, i, lo, sp)) - slo
            if c < 0 or c >= span:
                continue
            op[fp[c]] = <index_t>i
            fp[c] += 1


# ---------------------------------------------------------------------------
# 3. the per-group pass
# ---------------------------------------------------------------------------
cdef int _alloc(Scratch* sc, int64_t rows) noexcept nogil:
    """A thread's buffers for groups of up to ``rows`` rows; 1 if out of memory."""
    cdef int64_t m = rows + 2
    sc.tmp = <Row*>malloc(m * sizeof(Row))
    sc.rows = <Row*>malloc(m * sizeof(Row))
    sc.u = <double*>malloc(m * sizeof(double))
    sc.r = <int64_t*>malloc(m * sizeof(int64_t))
    sc.wp = <double*>malloc(m * sizeof(double))
    sc.bc = <int64_t*>malloc(m * sizeof(int64_t))
    sc.bw = <double*>malloc(m * sizeof(double))
    sc.tc = <int64_t*>malloc(m * sizeof(int64_t))
    sc.tw = <double*>malloc(m * sizeof(double))
    sc.grades = <double*>malloc(m * sizeof(double))
    sc.blocks = <Block*>malloc((2 * m + 2) * sizeof(Block))
    sc.acc = NULL
    return (sc.tmp == NULL or sc.rows == NULL or sc.u == NULL or sc.r == NULL
            or sc.wp == NULL or sc.bc == NULL or sc.bw == NULL or sc.tc == NULL
            or sc.tw == NULL or sc.grades == NULL or sc.blocks == NULL)


cdef class _Scratches:
    """One :class:`Scratch` per thread, for groups of up to ``rows`` rows
    (allocated before the parallel region, picked there by ``threadid()``)."""

    cdef Scratch* items
    cdef int n

    def __cinit__(self, int n_threads, int64_t rows, int64_t n_acc=0):
        cdef int t
        self.n = 0
        self.items = <Scratch*>malloc(n_threads * sizeof(Scratch))
        if self.items == NULL:
            raise MemoryError()
        for t in range(n_threads):
            self.n += 1
            if _alloc(self.items + t, rows):
                raise MemoryError("the compiled engine's per-thread buffers")
            self.items[t].acc = <double*>malloc((n_acc + 1) * sizeof(double))
            if self.items[t].acc == NULL:
                raise MemoryError("the compiled engine's per-thread buffers")

    def __dealloc__(self):
        cdef int t
        if self.items != NULL:
            for t in range(self.n):
                free(self.items[t].tmp)
                free(self.items[t].rows)
                free(self.items[t].u)
                free(self.items[t].r)
                free(self.items[t].wp)
                free(self.items[t].bc)
                free(self.items[t].bw)
                free(self.items[t].tc)
                free(self.items[t].tw)
                free(self.items[t].grades)
                free(self.items[t].blocks)
                free(self.items[t].acc)
            free(self.items)


cdef class _Requests:
    """The requested statistics as C structs (rows of ``req``: kernel code,
    k, option, output row, parameter offset and length, number of
    statistics: ``_native.Plan``)."""

    cdef Request* items
    cdef Py_ssize_t n
    cdef int64_t n_rows
    cdef bint ranked, ctr

    def __cinit__(self, const int64_t[:, ::1] req, const double[::1] params):
        cdef Py_ssize_t j
        self.n = req.shape[0]
        self.items = <Request*>malloc((self.n + 1) * sizeof(Request))
        if self.items == NULL:
            raise MemoryError()
        self.ranked = False
        self.ctr = False
        self.n_rows = 0
        for j in range(self.n):
            self.items[j].kind = <int>req[j, 0]
            self.items[j].k = req[j, 1]
            self.items[j].opt = <int>req[j, 2]
            self.items[j].row = req[j, 3]
            self.items[j].param = (&params[0] + req[j, 4] if params.shape[0]
                                   else NULL)
            self.items[j].nparam = req[j, 5]
            self.items[j].nstats = req[j, 6]
            if self.items[j].kind >= K_LOGLOSS:
                self.ctr = True
            else:
                self.ranked = True
            self.n_rows = max(self.n_rows, req[j, 3] + 2 + req[j, 6])

    def __dealloc__(self):
        free(self.items)


def group_pass(double[::1] rel, const double[::1] irr_s, const double[::1] irr_w,
               const int64_t[::1] rlo, const int64_t[::1] rcnt,
               const int64_t[::1] ilo, const int64_t[::1] icnt,
               const double[::1] wdiv, const int64_t[:, ::1] req,
               const double[::1] params, double[:, ::1] out, double eps,
               int64_t[::1] bub, int64_t[::1] nblk,
               int64_t[::1] bstart, int64_t[::1] bsize, int64_t[::1] bnrel,
               uint8_t[::1] bret, double[::1] bwpos, double[::1] bwneg,
               int64_t max_rel, int n_threads):
    """Each group's statistics (``out``, one row per group) and, when
    ``bub`` is not empty, its merged blocks at ``bub[g]`` (upper bounds:
    :func:`compact_blocks` closes the gaps; their number in ``nblk``).

    ``rel[3 * rlo[g]:]`` holds group g's ``rcnt[g]`` relevant rows (sorted
    here, in place: their grades are then in rank order), ``irr_s[ilo[g]:]``
    its ``icnt[g]`` other scores.  ``wdiv``: each group's largest weight
    (item weights are divided by it; 1 where it is 0), empty when
    unweighted.  Returns the number of groups where a CTR statistic met a
    row that is not a binary label with a probability (the kernels then
    raise their errors).
    """
    cdef Py_ssize_t n_groups = rlo.shape[0], g, j
    cdef bint weighted = wdiv.shape[0] > 0, blocks = bub.shape[0] > 0
    cdef _Requests Q = _Requests(req, params)
    cdef _Scratches S = _Scratches(n_threads, max_rel, Q.n_rows)
    cdef bint ranked = blocks or Q.ranked
    cdef int bad = 0
    cdef Scratch* sc
    cdef Row* rows
    cdef int64_t nb, o, i
    cdef double* outp = &out[0, 0] if out.shape[0] and out.shape[1] else NULL
    cdef int64_t n_out = out.shape[1]
    cdef const double* iw
    cdef const double* isc
    with nogil, parallel(num_threads=n_threads):
        for g in prange(n_groups, schedule="dynamic", chunksize=256):
            sc = S.items + threadid()
            rows = <Row*>&rel[0] + rlo[g] if rcnt[g] else sc.rows
            isc = &irr_s[ilo[g]] if icnt[g] else NULL
            iw = &irr_w[ilo[g]] if weighted and icnt[g] else NULL
            if Q.ctr:  # the sums of the rows as they come
                bad += ctr_stats(Q.items, Q.n, rows, rcnt[g], isc, iw, icnt[g],
                                 weighted, eps, sc.acc, Q.n_rows, outp,
                                 n_out, g)
            if ranked:
                sort_rows(rows, rcnt[g], sc.tmp)
                nb = merged_blocks(rows, rcnt[g], isc, iw, icnt[g], weighted,
                                   wdiv[g] if weighted else 1.0, sc)
                sc.group.size = rcnt[g] + icnt[g]
                sc.group.nrel = rcnt[g]
                sc.group.nblocks = nb
                sc.group.blocks = sc.blocks
                sc.group.rel = rows
                sc.group.weighted = weighted
                sc.group.gscratch = sc.grades
                for j in range(Q.n):
                    if Q.items[j].kind < K_LOGLOSS:
                        ranked_stat(&sc.group, Q.items + j, outp, n_out, g)
                if blocks:
                    nblk[g] = nb
                    o = bub[g]
                    for i in range(nb):
                        bstart[o + i] = sc.blocks[i].start
                        bsize[o + i] = sc.blocks[i].size
                        bnrel[o + i] = sc.blocks[i].nrel
                        bret[o + i] = sc.blocks[i].ret
                        if weighted:
                            bwpos[o + i] = sc.blocks[i].wpos
                            bwneg[o + i] = sc.blocks[i].wneg
    return bad


def compact_blocks(const int64_t[::1] bub, const int64_t[::1] nblk,
                   int64_t[::1] bstart, int64_t[::1] bsize, int64_t[::1] bnrel,
                   uint8_t[::1] bret, double[::1] bwpos, double[::1] bwneg):
    """Blocks written at upper-bound offsets, moved together (in place);
    returns their number."""
    cdef Py_ssize_t g, i
    cdef int64_t o = 0, a
    cdef bint weighted = bwpos.shape[0] > 0
    with nogil:
        for g in range(bub.shape[0]):
            a = bub[g]
            for i in range(nblk[g]):
                bstart[o] = bstart[a + i]
                bsize[o] = bsize[a + i]
                bnrel[o] = bnrel[a + i]
                bret[o] = bret[a + i]
                if weighted:
                    bwpos[o] = bwpos[a + i]
                    bwneg[o] = bwneg[a + i]
                o += 1
    return o


def sort_pass(const double[::1] rel, const double[::1] irr_s,
              const double[::1] irr_w, const int64_t[::1] rlo,
              const int64_t[::1] rcnt, const int64_t[::1] ilo,
              const int64_t[::1] icnt, double[::1] score, double[::1] grade,
              double[::1] weight, int64_t max_rows, int n_threads):
    """Every row of each group in rank order (score descending, stable), at
    the group's offset ``rlo[g] + ilo[g]``: the rows of the unmerged tie
    blocks."""
    cdef Py_ssize_t n_groups = rlo.shape[0], g
    cdef bint weighted = weight.shape[0] > 0
    cdef _Scratches S = _Scratches(n_threads, max_rows)
    cdef Scratch* sc
    cdef int64_t i, o, R, I
    with nogil, parallel(num_threads=n_threads):
        for g in prange(n_groups, schedule="dynamic", chunksize=256):
            sc = S.items + threadid()
            R = rcnt[g]
            I = icnt[g]
            for i in range(R):
                sc.rows[i].s = rel[3 * (rlo[g] + i)]
                sc.rows[i].y = rel[3 * (rlo[g] + i) + 1]
                sc.rows[i].w = rel[3 * (rlo[g] + i) + 2]
            for i in range(I):
                sc.rows[R + i].s = irr_s[ilo[g] + i]
                sc.rows[R + i].y = 0.0
                sc.rows[R + i].w = irr_w[ilo[g] + i] if weighted else 1.0
            sort_rows(sc.rows, R + I, sc.tmp)
            o = rlo[g] + ilo[g]
            for i in range(R + I):
                score[o + i] = sc.rows[i].s
                grade[o + i] = sc.rows[i].y
                if weighted:
                    weight[o + i] = sc.rows[i].w


def block_stats(const int64_t[::1] first_block, const int64_t[::1] group_size,
                const int64_t[::1] group_nrel, const int64_t[::1] rel_first,
                const double[::1] grades, const int64_t[::1] bstart,
                const int64_t[::1] bsize, const int64_t[::1] bnrel,
                const uint8_t[::1] bret, const double[::1] bwpos,
                const double[::1] bwneg, const int64_t[:, ::1] req,
                const double[::1] params, double[:, ::1] out,
                int64_t max_blocks, int64_t max_rel, int n_threads):
    """The ranked statistics of blocks already built (the functions of
    :func:`group_pass`, so that both give the same bits)."""
    cdef Py_ssize_t n_groups = first_block.shape[0], g, j
    cdef int64_t b, a, nb, n_blocks = bstart.shape[0]
    cdef bint weighted = bwpos.shape[0] > 0
    cdef _Requests Q = _Requests(req, params)
    cdef _Scratches S = _Scratches(n_threads, max(max_blocks, max_rel))
    cdef Scratch* sc
    cdef double* outp = &out[0, 0] if out.shape[0] and out.shape[1] else NULL
    cdef int64_t n_out = out.shape[1]
    with nogil, parallel(num_threads=n_threads):
        for g in prange(n_groups, schedule="dynamic", chunksize=256):
            sc = S.items + threadid()
            a = first_block[g]
            nb = (first_block[g + 1] if g + 1 < n_groups else n_blocks) - a
            for b in range(nb):
                sc.blocks[b].start = bstart[a + b]
                sc.blocks[b].size = bsize[a + b]
                sc.blocks[b].nrel = bnrel[a + b]
                sc.blocks[b].ret = bret[a + b]
                sc.blocks[b].wpos = bwpos[a + b] if weighted else 0.0
                sc.blocks[b].wneg = bwneg[a + b] if weighted else 0.0
            for b in range(group_nrel[g]):
                sc.rows[b].y = grades[rel_first[g] + b]
            sc.group.size = group_size[g]
            sc.group.nrel = group_nrel[g]
            sc.group.nblocks = nb
            sc.group.blocks = sc.blocks
            sc.group.rel = sc.rows
            sc.group.weighted = weighted
            sc.group.gscratch = sc.grades
            for j in range(Q.n):
                ranked_stat(&sc.group, Q.items + j, outp, n_out, g)


def multiclass_counts(const score_t[:, ::1] P, const int64_t[::1] y,
                      int64_t[::1] above, int64_t[::1] tied):
    """For each sample, the classes scored above its true class and those
    tied with it (itself included): no sort."""
    cdef Py_ssize_t i, j, n = P.shape[0], c = P.shape[1]
    cdef score_t t
    cdef int64_t a, e
    with nogil:
        for i in range(n):
            t = P[i, y[i]]
            a = 0
            e = 0
            for j in range(c):
                a += P[i, j] > t
                e += P[i, j] == t
            above[i] = a
            tied[i] = e


def intent_pass(const double[:, ::1] G, const double[::1] s,
                const int64_t[::1] starts, const double[:, ::1] raw_w,
                const int64_t[::1] prio, const double[::1] disc, double q,
                int64_t k, int ideal, int64_t budget, double[::1] value,
                double[::1] ideal_out, uint8_t[::1] proven, double[:, ::1] w_out,
                uint8_t[:, ::1] present_out, int64_t cover_k,
                double[:, ::1] covered, double[:, ::1] top, int n_threads):
    """The diversity metrics of rows in rank order, group by group
    (``_intent_kernels.pxd``): each group's intent weights and present
    intents (``w_out``, ``present_out``), its cascade value (``value``) and,
    ``ideal`` 1 or 2, its greedy or exact ideal (``ideal_out``; ``proven``:
    0 where the exact search stopped at ``budget`` nodes); when ``covered``
    has rows, each intent's probability of a relevant item in the top
    ``cover_k`` (< 0: no cutoff) over the orders of the tie blocks; when
    ``top`` has rows, each intent's largest grade.

    ``G`` (n, m): grades per intent; ``s``: scores; group g holds rows
    ``starts[g] .. starts[g + 1]``; ``raw_w`` (n_groups, m): the intent
    weights (no rows: equal); ``prio``: which row a greedy tie goes to (no
    rows: the larger grade vector); ``disc``: the discount of each 0-based
    rank, at least the largest group's size; ``k`` < 0: no cutoff.  Each
    group writes its own slots only: any number of threads gives the same
    bits.  Returns the number of groups not proven.
    """
    cdef Py_ssize_t n_groups = starts.shape[0] - 1, g, m = G.shape[1]
    cdef Py_ssize_t lo, n, nu, i
    cdef int64_t depth
    cdef bint weighted = raw_w.shape[0] > 0, given = prio.shape[0] > 0
    cdef bint cover = covered.shape[0] > 0, tops = top.shape[0] > 0
    cdef double* buf
    cdef double* wgt
    cdef int64_t* ibuf
    cdef uint8_t* taken
    cdef double greedy_value, bound
    cdef int found
    cdef int unproven = 0
    cdef double* qpow
    if n_groups <= 0:
        return 0
    # pow(q, c) for c = 0 .. the largest group's size, once
    qpow = <double*>malloc((disc.shape[0] + 1) * sizeof(double))
    if qpow == NULL:
        raise MemoryError()
    for i in range(disc.shape[0] + 1):
        qpow[i] = pow(q, <double>i)
    with nogil, parallel(num_threads=n_threads):
        for g in prange(n_groups, schedule="dynamic", chunksize=64):
            lo = starts[g]
            n = starts[g + 1] - lo
            # scratch: 6 m + 5 (n + 1) + n m doubles, m + 2 (n + 1) int64,
            # n + 1 bytes
            buf = <double*>malloc((6 * m + 5 * (n + 1) + n * m) * sizeof(double))
            ibuf = <int64_t*>malloc((m + 2 * (n + 1)) * sizeof(int64_t))
            taken = <uint8_t*>malloc((n + 1) * sizeof(uint8_t))
            if buf == NULL or ibuf == NULL or taken == NULL:
                free(buf)
                free(ibuf)
                free(taken)
                value[g] = 0.0
                ideal_out[g] = 0.0
                proven[g] = 0
                unproven += 1
                continue
            wgt = buf + 6 * m + 5 * (n + 1)
            intent_weights(&G[lo, 0], n, m, &raw_w[g, 0] if weighted else NULL,
                           &w_out[g, 0], &present_out[g, 0])
            value[g] = cascade(&G[lo, 0], &s[lo], n, m, &w_out[g, 0], qpow,
                               &disc[0], k, ibuf, buf, buf + m, buf + 2 * m,
                               buf + 6 * m, buf + 6 * m + (n + 1),
                               buf + 6 * m + 2 * (n + 1))
            proven[g] = 1
            ideal_out[g] = 0.0
            if cover:
                coverage(&G[lo, 0], &s[lo], n, m, &present_out[g, 0], cover_k,
                         &covered[g, 0])
            if tops and n > 0:
                largest(&G[lo, 0], n, m, &top[g, 0])
            if ideal > 0:
                nu = useful_rows(&G[lo, 0], n, m, &w_out[g, 0], ibuf + m, wgt)
                depth = nu if k < 0 else min(<int64_t>nu, k)
                greedy_value = greedy(&G[lo, 0], m, &prio[lo] if given else NULL,
                                      ibuf + m, wgt, nu, depth, q, &disc[0],
                                      buf + 3 * m, taken, buf + 4 * m,
                                      buf + 6 * m + 4 * (n + 1),
                                      <uint64_t*>(ibuf + m + (n + 1)))
                ideal_out[g] = greedy_value
                if ideal > 1:
                    bound = intent_bound(wgt, nu, m, depth, qpow, &disc[0],
                                         buf + 6 * m)
                    if bound > greedy_value * (1 + 1e-12) + 1e-15:
                        found = exact(wgt, nu, m, depth, q, qpow, &disc[0],
                                      greedy_value, budget, &ideal_out[g])
                        if ideal_out[g] < greedy_value:
                            ideal_out[g] = greedy_value
                        if found != 1:
                            proven[g] = 0
                            unproven += 1
            free(buf)
            free(ibuf)
            free(taken)
    free(qpow)
    return unproven


def rank_rows(index_t[::1] index, const int64_t[::1] starts,
              const score_t[::1] s, int n_threads):
    """Each group's row indices (``index``: group after group, group g at
    ``starts[g] .. starts[g + 1]``) sorted in place by score descending,
    tied rows in the order given: what ``np.lexsort((-s[index], group))``
    gives, in one pass.  Each group's scores are gathered first (one read
    each), then sorted with their indices in the cache.  Each group sorts
    its own rows: any number of threads, the same order.  The sort is the
    engine's one stable sort of a group's rows (``sort_rows``), the row
    index carried in ``Row.y`` (a double: exact below 2**53 rows)."""
    cdef Py_ssize_t n_groups = starts.shape[0] - 1, g, r
    cdef Row* buf
    cdef int64_t n, lo
    cdef int bad = 0
    if n_groups <= 0 or index.shape[0] == 0:
        return 0
    with nogil, parallel(num_threads=n_threads):
        for g in prange(n_groups, schedule="dynamic", chunksize=256):
            lo = starts[g]
            n = starts[g + 1] - lo
            if n <= 1:
                continue
            buf = <Row*>malloc(2 * n * sizeof(Row))
            if buf == NULL:
                bad += 1
                continue
            for r in range(n):
                buf[r].y = <double>index[lo + r]
                buf[r].s = s[index[lo + r]]
            sort_rows(buf, n, buf + n)
            for r in range(n):
                index[lo + r] = <index_t>buf[r].y
            free(buf)
    if bad:
        raise MemoryError("the compiled engine's per-group buffers")
    return 0
