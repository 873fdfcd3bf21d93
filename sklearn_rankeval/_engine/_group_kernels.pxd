# cython: language_level=3
"""Per-group pieces of the compiled pass (inline, cimported by _grouped.pyx).

One group at a time, on one thread's scratch:

* :func:`sort_rows` -- a group's rows by score, descending; stable;
* :func:`merged_blocks` -- the group's merged tie blocks (the form of
  ``rank(merge=True)``) from its relevant rows, sorted, and its irrelevant
  rows counted, not sorted: a relevant item's rank is 1 + the relevant items
  above it + the irrelevant items scoring above it;
* ``stat_*`` -- the per-group statistics of a metric from those blocks,
  written as the NumPy kernels (``_metrics/_kernels.py``) write them, block
  by block in rank order, so that the sums are taken in the same order;
* ``ctr_*`` -- the per-group sums of the CTR metrics from the rows.

Where a kernel's value is ``safe_divide(num, den)`` the value here is
``num / den`` where ``den > 0``, else 0, and the group is undefined exactly
where the kernel says so.
"""

from libc.math cimport INFINITY, NAN, exp, exp2, lgamma, log, fabs
from libc.stdint cimport int64_t, uint8_t


cdef struct Row:
    double s        # score
    double y        # grade
    double w        # weight (unused when unweighted)


cdef struct Block:
    int64_t start   # items of the group ranked above the block
    int64_t size
    int64_t nrel    # relevant items (y > 0)
    double wpos     # item weights of its relevant / other items, each over
    double wneg     # the group's largest weight (weighted input only)
    bint ret        # retrieved (score > -inf)


cdef struct Group:
    int64_t size    # items
    int64_t nrel    # relevant items, retrieved or not
    int64_t nblocks
    Block* blocks
    const Row* rel  # relevant rows in rank order (their grades)
    bint weighted
    double* gscratch


cdef struct Scratch:
    # one thread's buffers, sized for the largest group of a chunk
    Row* tmp        # merge sort
    Row* rows       # a group's rows (the full sort; the grades of blocks)
    double* u       # distinct scores of the relevant rows
    int64_t* r      # relevant rows of each
    double* wp      # their weight
    int64_t* bc     # irrelevant rows strictly between two relevant scores
    double* bw
    int64_t* tc     # irrelevant rows tied with a relevant score
    double* tw
    double* grades  # relevant grades, sorted (the ideal ordering)
    Block* blocks
    double* acc     # the CTR sums of a group
    Group group


# the kernel codes: a registry entry names its statistic's kernel
# (``_native.Statistic.kernel``), ``_grouped.KERNELS`` gives its code; codes
# from K_LOGLOSS on read the rows of a group, the others its tie blocks
cdef enum:
    K_AUC = 1
    K_AP = 2
    K_RR = 3
    K_HITS = 4
    K_NDCG = 5
    K_SUCCESS = 6
    K_LOGLOSS = 10
    K_NE = 11
    K_PCOC = 12
    K_ECE = 13


cdef struct Request:
    int kind
    int64_t k       # cutoff, -1 for none
    int opt         # AP: 0 min, 1 relevant, 2 hits; HITS: 0 k, 1 retrieved,
                    # 2 relevant; NDCG: 0 linear, 1 exponential
    int64_t row     # first output row: value, defined, then statistics
    const double* param   # NDCG: cumulative discounts; ECE: inner edges
    int64_t nparam
    int64_t nstats  # statistic rows after the value and defined rows


# ---------------------------------------------------------------------------
# sorting
# ---------------------------------------------------------------------------
cdef inline void _insertion(Row* a, int64_t n) noexcept nogil:
    cdef int64_t i, j
    cdef Row x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j].s < x.s:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef inline void sort_rows(Row* a, int64_t n, Row* tmp) noexcept nogil:
    """Rows by score, descending; ties keep their order (stable: runs of 16
    by insertion, then bottom-up merges through ``tmp``)."""
    cdef int64_t width, lo, mid, hi, i, j, o, run = 16
    cdef Row* src = a
    cdef Row* dst = tmp
    cdef Row* t
    lo = 0
    while lo < n:
        _insertion(a + lo, min(run, n - lo))
        lo += run
    width = run
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, o = lo, mid, lo
            while i < mid and j < hi:
                if src[j].s > src[i].s:  # strictly: the left run first on ties
                    dst[o] = src[j]
                    j += 1
                else:
                    dst[o] = src[i]
                    i += 1
                o += 1
            while i < mid:
                dst[o] = src[i]
                i += 1
                o += 1
            while j < hi:
                dst[o] = src[j]
                j += 1
                o += 1
            lo = hi
        t = src
        src = dst
        dst = t
        width *= 2
    if src != a:
        for i in range(n):
            a[i] = src[i]


cdef inline void sort_desc(double* a, int64_t n) noexcept nogil:
    """Doubles, descending (insertion: the relevant grades of one group)."""
    cdef int64_t i, j
    cdef double x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] < x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


# ---------------------------------------------------------------------------
# the merged blocks of one group, without sorting its irrelevant rows
# ---------------------------------------------------------------------------
cdef inline int64_t merged_blocks(const Row* rel, int64_t R, const double* irr_s,
                                  const double* irr_w, int64_t I, bint weighted,
                                  double wdiv, Scratch* sc) noexcept nogil:
    """The merged blocks of a group into ``sc.blocks``; returns their number.

    ``rel``: the R relevant rows, sorted; ``irr_s`` / ``irr_w``: the scores
    and weights of the I others, in any order.  Blocks: each run of equal
    relevant scores with the irrelevant rows tied with it, and between them
    the irrelevant rows as one block per gap (``from_rows(merge=True)``);
    the irrelevant ``-inf`` rows last, as an unretrieved block.  Weights are
    divided by ``wdiv`` (the group's largest, as ``RankedGroups`` scales them).
    """
    cdef int64_t i, j, lo, hi, mid, D = 0, nb = 0, start = 0, ninf = 0
    cdef double x, wsum, winf = 0.0
    cdef bint tie
    i = 0
    while i < R:
        x = rel[i].s
        wsum = 0.0
        j = i
        while j < R and rel[j].s == x:
            if weighted:
                wsum += rel[j].w / wdiv
            j += 1
        sc.u[D] = x
        sc.r[D] = j - i
        sc.wp[D] = wsum
        sc.bc[D] = 0
        sc.bw[D] = 0.0
        sc.tc[D] = 0
        sc.tw[D] = 0.0
        D += 1
        i = j
    sc.bc[D] = 0
    sc.bw[D] = 0.0
    sc.tc[D] = 0
    sc.tw[D] = 0.0
    sc.u[D] = NAN  # equal to no score: the slot after the last is never a tie
    for i in range(I):
        x = irr_s[i]
        # lo: the relevant scores above x (branch-free for a few of them:
        # whether an irrelevant row is above or below is a coin flip, which
        # a branch predictor misses half the time)
        if D <= 8:
            lo = 0
            for j in range(D):
                lo += sc.u[j] > x
        else:
            lo, hi = 0, D
            while lo < hi:
                mid = (lo + hi) >> 1
                if sc.u[mid] > x:
                    lo = mid + 1
                else:
                    hi = mid
        tie = sc.u[lo] == x
        if x == -INFINITY and not tie:  # not retrieved: the last block
            ninf += 1
            if weighted:
                winf += irr_w[i] / wdiv
            continue
        sc.tc[lo] += tie
        sc.bc[lo] += 1 - tie
        if weighted:
            x = irr_w[i] / wdiv
            sc.tw[lo] += x if tie else 0.0
            sc.bw[lo] += 0.0 if tie else x
    for j in range(D + 1):
        if sc.bc[j] > 0:
            _block(sc.blocks + nb, start, sc.bc[j], 0, 0.0, sc.bw[j], True)
            start += sc.bc[j]
            nb += 1
        if j < D:
            _block(sc.blocks + nb, start, sc.r[j] + sc.tc[j], sc.r[j], sc.wp[j],
                   sc.tw[j], sc.u[j] != -INFINITY)
            start += sc.r[j] + sc.tc[j]
            nb += 1
    if ninf > 0:
        _block(sc.blocks + nb, start, ninf, 0, 0.0, winf, False)
        nb += 1
    return nb


cdef inline void _block(Block* b, int64_t start, int64_t size, int64_t nrel,
                        double wpos, double wneg, bint ret) noexcept nogil:
    b.start = start
    b.size = size
    b.nrel = nrel
    b.wpos = wpos
    b.wneg = wneg
    b.ret = ret


# ---------------------------------------------------------------------------
# ranked statistics (the kernels of _metrics/_kernels.py, group by group)
# ---------------------------------------------------------------------------
cdef inline void _put(double* out, int64_t stride, int64_t row, int64_t g,
                      double value, bint defined) noexcept nogil:
    """A group's value and whether it is defined (``out`` is group-major:
    each group's statistics side by side, ``stride`` numbers a group)."""
    out[g * stride + row] = value
    out[g * stride + row + 1] = 1.0 if defined else 0.0


cdef inline double _frac(const Block* b, int64_t k) noexcept nogil:
    """Share of the block within the top k (the kernels' ``_cutoff_fraction``)."""
    cdef double f
    if not b.ret:
        return 0.0
    if k < 0:
        return 1.0
    f = <double>(k - b.start) / <double>b.size
    return 0.0 if f < 0.0 else (1.0 if f > 1.0 else f)


cdef inline void stat_auc(const Group* G, double* out, int64_t stride,
                          int64_t row, int64_t g) noexcept nogil:
    cdef int64_t b, P = G.nrel, N = G.size - G.nrel, tied = 0, twice_i, den_i
    cdef double pos = 0.0, neg = 0.0, cum = 0.0, twice = 0.0, den
    cdef const Block* bl
    if not G.weighted:
        for b in range(G.nblocks):
            bl = G.blocks + b
            tied += bl.nrel * (2 * bl.start + bl.size - 1)
        twice_i = 2 * P * G.size - tied - P * (P + 1)
        den_i = 2 * P * N
        _put(out, stride, row, g,
             <double>twice_i / <double>den_i if den_i > 0 else 0.0, den_i > 0)
        return
    for b in range(G.nblocks):
        pos += G.blocks[b].wpos
        neg += G.blocks[b].wneg
    for b in range(G.nblocks):
        bl = G.blocks + b
        cum += bl.wneg
        twice += bl.wpos * (2 * (neg - cum) + bl.wneg)
    den = 2 * pos * neg
    _put(out, stride, row, g, twice / den if den > 0 else 0.0, den > 0)


cdef inline void stat_ap(const Group* G, const Request* q, double* out,
                         int64_t stride, int64_t g) noexcept nogil:
    cdef int64_t b, cum_i = 0, P = G.nrel, denom
    cdef double wp, wn, cum_wp = 0.0, cum_w = 0.0, prec, contrib, frac
    cdef double total = 0.0, hits = 0.0, w_rel = 0.0, value
    cdef const Block* bl
    for b in range(G.nblocks):
        bl = G.blocks + b
        if G.weighted:
            w_rel += bl.wpos
            wp = bl.wpos if bl.ret else 0.0
            wn = bl.wneg if bl.ret else 0.0
            cum_wp += wp
            cum_w += wp + wn
            prec = cum_wp / cum_w if cum_w > 0 else 0.0
        else:
            wp = <double>bl.nrel if bl.ret else 0.0
            cum_i += bl.nrel if bl.ret else 0
            prec = (<double>cum_i / <double>(bl.start + bl.size)
                    if bl.start + bl.size > 0 else 0.0)
        contrib = wp * prec
        frac = _frac(bl, q.k)
        if q.k >= 0:
            contrib = contrib * frac
        total += contrib
        if q.opt == 2:
            hits += wp * frac if q.k >= 0 else wp
    if not G.weighted:
        w_rel = <double>P
    if q.opt == 2:
        value = total / hits if hits > 0 else 0.0
    elif q.k < 0:
        value = total / w_rel if w_rel > 0 else 0.0
    else:
        denom = (P if P < q.k else q.k) if q.opt == 0 else P
        if G.weighted:
            total = total * (<double>P / w_rel if w_rel > 0 else 0.0)
        value = total / <double>denom if denom > 0 else 0.0
    _put(out, stride, q.row, g, value, P > 0 and w_rel > 0)


cdef inline const Block* _first_relevant(const Group* G) noexcept nogil:
    cdef int64_t b
    for b in range(G.nblocks):
        if G.blocks[b].ret and G.blocks[b].nrel > 0:
            return G.blocks + b
    return NULL


cdef inline void stat_rr(const Group* G, const Request* q, double* out,
                         int64_t stride, int64_t g) noexcept nogil:
    """Expected reciprocal rank of the first relevant item (``reciprocal_rank``)."""
    cdef const Block* bl = _first_relevant(G)
    cdef int64_t j, n_terms
    cdef double s, m, r, p, total = 0.0
    if bl != NULL:
        n_terms = bl.size - bl.nrel + 1
        if q.k >= 0:
            n_terms = min(n_terms, q.k - bl.start)
            n_terms = n_terms if n_terms > 0 else 0
        s, m, r = <double>bl.start, <double>bl.size, <double>bl.nrel
        for j in range(1, n_terms + 1):
            if r == m:
                p = 1.0
            elif r == 1:
                p = 1.0 / m
            else:  # C(m - j, r - 1) / C(m, r)
                p = exp(lgamma(m - j + 1) - lgamma(r) - lgamma(m - j - r + 2)
                        - lgamma(m + 1) + lgamma(r + 1) + lgamma(m - r + 1))
            total += p / (s + <double>j)
    _put(out, stride, q.row, g, total, G.nrel > 0)


cdef inline void stat_hits(const Group* G, const Request* q, double* out,
                           int64_t stride, int64_t g) noexcept nogil:
    """Expected hits in the top k over k, the retrieved items or R (P@k, R@k)."""
    cdef int64_t b, unret = 0, n_ret
    cdef double hits = 0.0, den
    for b in range(G.nblocks):
        hits += <double>G.blocks[b].nrel * _frac(G.blocks + b, q.k)
        if not G.blocks[b].ret:
            unret += G.blocks[b].size
    if q.opt == 0:
        den = <double>q.k
    elif q.opt == 1:
        n_ret = G.size - unret
        den = <double>(n_ret if n_ret < q.k else q.k)
    else:
        den = <double>G.nrel
    _put(out, stride, q.row, g, hits / den if den > 0 else 0.0, G.nrel > 0)
    out[g * stride + q.row + 2] = hits
    out[g * stride + q.row + 3] = den


cdef inline double _gain(double y, int exponential) noexcept nogil:
    return exp2(y) - 1.0 if exponential else y


cdef inline void stat_ndcg(const Group* G, const Request* q, double* out,
                           int64_t stride, int64_t g) noexcept nogil:
    """Tie-averaged DCG over the ideal DCG (``ndcg``); ``q.param`` holds the
    cumulative discounts (``discount_cumsum``)."""
    cdef int64_t b, i, a = 0, run
    cdef double dcg = 0.0, idcg = 0.0, gain
    cdef const double* disc = q.param
    cdef const Block* bl
    for b in range(G.nblocks):
        bl = G.blocks + b
        if bl.nrel > 0:
            gain = 0.0
            for i in range(a, a + bl.nrel):
                gain += _gain(G.rel[i].y, q.opt)
            a += bl.nrel
            if bl.ret:
                dcg += gain / <double>bl.size * (disc[bl.start + bl.size]
                                                  - disc[bl.start])
    for i in range(G.nrel):  # the ideal ordering: runs of equal grade
        G.gscratch[i] = G.rel[i].y
    sort_desc(G.gscratch, G.nrel)
    i = 0
    while i < G.nrel:
        run = i
        while run < G.nrel and G.gscratch[run] == G.gscratch[i]:
            run += 1
        idcg += _gain(G.gscratch[i], q.opt) * (disc[run] - disc[i])
        i = run
    _put(out, stride, q.row, g, dcg / idcg if idcg > 0 else 0.0,
         G.nrel > 0 and idcg > 0)


cdef inline void stat_success(const Group* G, const Request* q, double* out,
                              int64_t stride, int64_t g) noexcept nogil:
    """Probability of a relevant item in the top k (``success_at_k``)."""
    cdef const Block* bl = _first_relevant(G)
    cdef int64_t t, m, r
    cdef double hit = 0.0
    if bl != NULL:
        m, r = bl.size, bl.nrel
        t = q.k - bl.start
        t = 0 if t < 0 else (m if t > m else t)
        hit = 1.0 if t >= 1 else 0.0
        if t > 0 and t < m and t <= m - r:
            hit = 1.0 - exp(lgamma(<double>(m - r + 1)) - lgamma(<double>(m - r - t + 1))
                            - lgamma(<double>(m + 1)) + lgamma(<double>(m - t + 1)))
    _put(out, stride, q.row, g, hit, G.nrel > 0)


cdef inline void ranked_stat(const Group* G, const Request* q, double* out,
                             int64_t stride, int64_t g) noexcept nogil:
    if q.kind == K_AUC:
        stat_auc(G, out, stride, q.row, g)
    elif q.kind == K_AP:
        stat_ap(G, q, out, stride, g)
    elif q.kind == K_RR:
        stat_rr(G, q, out, stride, g)
    elif q.kind == K_HITS:
        stat_hits(G, q, out, stride, g)
    elif q.kind == K_NDCG:
        stat_ndcg(G, q, out, stride, g)
    elif q.kind == K_SUCCESS:
        stat_success(G, q, out, stride, g)


# ---------------------------------------------------------------------------
# CTR statistics (the kernels of _metrics/_ctr_kernels.py), from the rows
# ---------------------------------------------------------------------------
cdef inline int64_t _below(const double* edges, int64_t n, double p) noexcept nogil:
    """The number of ``edges`` (sorted) below ``p`` (``np.searchsorted``'s
    left side), without branches on the comparisons (the bin of a
    probability is a coin flip for a branch predictor)."""
    cdef const double* base = edges
    cdef int64_t half
    if n == 0:
        return 0
    while n > 1:
        half = n >> 1
        base = base + half if base[half] < p else base
        n -= half
    return (base - edges) + (base[0] < p)


cdef inline int ctr_stats(const Request* qs, Py_ssize_t nq, const Row* rel,
                          int64_t R, const double* irr_s, const double* irr_w,
                          int64_t I, bint weighted, double eps, double* acc, int64_t n_rows, double* out,
                          int64_t stride, int64_t g) noexcept nogil:
    """The sums of every CTR statistic of ``qs`` over a group's rows, in one
    walk over them (one logarithm per row for log loss and NE), then their
    values; ``acc`` is a thread's buffer of ``n_rows`` (the output rows).
    Returns 1 if a row is not a binary label with a probability in [0, 1]
    (the kernels then say which)."""
    cdef int64_t i, j, r, lo, nb
    cdef double y, p, w, q, ce, total, base, gap, pos, neg
    cdef bint have_ce
    cdef const Request* k
    for j in range(n_rows):
        acc[j] = 0.0
    for i in range(R + I):
        if i < R:
            y, p, w = 1.0, rel[i].s, rel[i].w
            if rel[i].y != 1.0:
                return 1
        else:
            y, p = 0.0, irr_s[i - R]
            w = irr_w[i - R] if weighted else 1.0
        if not (p >= 0.0 and p <= 1.0):
            return 1
        have_ce = False
        ce = 0.0
        for j in range(nq):
            k = qs + j
            r = k.row + 2  # the first statistic's row
            if k.kind == K_LOGLOSS or k.kind == K_NE:
                if not have_ce:  # one logarithm per row
                    q = eps if p < eps else (1.0 - eps if p > 1.0 - eps else p)
                    ce = -log(q if y > 0 else 1.0 - q)
                    have_ce = True
                acc[r] += w * ce
                if k.kind == K_LOGLOSS:
                    acc[r + 1] += w
                else:
                    acc[r + 1] += w * y
                    acc[r + 2] += w * (1.0 - y)
            elif k.kind == K_PCOC:
                acc[r] += w * p
                acc[r + 1] += w * y
            elif k.kind == K_ECE:
                nb = k.nparam + 1
                lo = _below(k.param, k.nparam, p)
                acc[r + lo] += w
                acc[r + nb + lo] += w * p
                acc[r + 2 * nb + lo] += w * y
    for j in range(nq):  # the values, from the sums
        k = qs + j
        r = k.row + 2
        if k.kind == K_LOGLOSS:
            acc[k.row] = acc[r] / acc[r + 1] if acc[r + 1] > 0 else 0.0
            acc[k.row + 1] = acc[r + 1] > 0
        elif k.kind == K_NE:
            pos, neg = acc[r + 1], acc[r + 2]
            total = pos + neg
            acc[k.row + 1] = pos > 0 and neg > 0
            acc[k.row] = 0.0
            if pos > 0 and neg > 0:
                base = -(pos * log(pos / total) + neg * log(neg / total))
                acc[k.row] = acc[r] / base
        elif k.kind == K_PCOC:
            acc[k.row] = acc[r] / acc[r + 1] if acc[r + 1] > 0 else 0.0
            acc[k.row + 1] = acc[r + 1] > 0
        elif k.kind == K_ECE:
            nb = k.nparam + 1
            total = 0.0
            gap = 0.0
            for i in range(nb):
                total += acc[r + i]
                gap += fabs(acc[r + nb + i] - acc[r + 2 * nb + i])
            acc[k.row] = gap / total if total > 0 else 0.0
            acc[k.row + 1] = total > 0
        else:
            continue
    for j in range(nq):  # this group's column of the output
        k = qs + j
        if k.kind >= K_LOGLOSS:
            for i in range(k.row, k.row + 2 + k.nstats):
                out[g * stride + i] = acc[i]
    return 0
