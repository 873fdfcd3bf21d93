# cython: language_level=3
"""Per-group pieces of the diversity metrics (inline, cimported by _grouped.pyx).

One group at a time, its rows in rank order (score descending, tied rows
together), grades per intent ``G[r, i]``: written as the NumPy kernels of
``_metrics/_diversity_kernels.py`` were, so that the values agree to the
last bits where the order of a sum decides a tie (the greedy ideal's sums
over intents are NumPy's pairwise sums, :func:`pw_sum`):

* :func:`intent_weights` -- the group's intent weights ``w_i`` over its
  present intents (those with a relevant item), summing to 1;
* :func:`cascade` -- ``sum_{r <= k} D(r) G(r)``, the expected value over the
  orders of each tie block (exactly, without enumerating them);
* :func:`coverage` -- the probability that each intent has a relevant item
  in the top ``k`` over those orders, and :func:`largest` -- each intent's
  largest grade (ndeval's "ideal ideal");
* :func:`greedy` -- ndeval's ideal: at each rank the item of largest gain
  (ties to the larger priority, then the earlier row);
* :func:`intent_bound` and :func:`exact` -- an upper bound of the ideal
  (each intent alone at the top ranks) and the true ideal, by branch and
  bound over the group's distinct weighted grade vectors (a node budget:
  past it, the best order found).
"""

from libc.math cimport INFINITY, exp, lgamma, pow
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from ._group_kernels cimport sort_desc


cdef inline double pw_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """NumPy's pairwise sum (``np.add.reduce`` along a contiguous axis)."""
    cdef double res
    cdef Py_ssize_t i
    if n < 8:  # (the usual number of intents: a loop the compiler inlines)
        res = 0.0
        for i in range(n):
            res = res + a[i]
        return res
    return _pw_long(a, n)


cdef inline double _pw_long(const double* a, Py_ssize_t n) noexcept nogil:
    cdef double res, r0, r1, r2, r3, r4, r5, r6, r7
    cdef Py_ssize_t i, n2
    if n < 8:
        res = 0.0
        for i in range(n):
            res = res + a[i]
        return res
    if n <= 128:
        r0 = a[0]; r1 = a[1]; r2 = a[2]; r3 = a[3]
        r4 = a[4]; r5 = a[5]; r6 = a[6]; r7 = a[7]
        i = 8
        while i < n - (n % 8):
            r0 = r0 + a[i]; r1 = r1 + a[i + 1]; r2 = r2 + a[i + 2]
            r3 = r3 + a[i + 3]; r4 = r4 + a[i + 4]; r5 = r5 + a[i + 5]
            r6 = r6 + a[i + 6]; r7 = r7 + a[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res = res + a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pw_long(a, n2) + _pw_long(a + n2, n - n2)


cdef inline bint intent_weights(const double* G, Py_ssize_t n, Py_ssize_t m,
                                const double* raw, double* w,
                                uint8_t* present) noexcept nogil:
    """``w`` (m): the raw weights (1 when ``raw`` is NULL) of the present
    intents over their sum; ``present`` (m).  Returns whether any intent is
    present (the group's value is defined)."""
    cdef Py_ssize_t r, i
    cdef double total
    cdef bint any_present = False
    for i in range(m):
        present[i] = 0
    for r in range(n):
        for i in range(m):
            present[i] |= G[r * m + i] > 0
    for i in range(m):
        if present[i]:
            any_present = True
            w[i] = 1.0 if raw == NULL else raw[i]
        else:
            w[i] = 0.0
    total = pw_sum(w, m)
    for i in range(m):
        w[i] = w[i] / total if total > 0 else 0.0
    return any_present


cdef inline double cascade(const double* G, const double* s, Py_ssize_t n,
                           Py_ssize_t m, const double* w, const double* qpow,
                           const double* disc, int64_t k,
                           int64_t* c0, double* wg, double* tmp,
                           double* H, double* pmf, double* moved,
                           double* powers) noexcept nogil:
    """The expected ``sum_{r <= k} D(r) G(r)`` over the orders of the tie
    blocks (``_diversity_kernels.cascade_value``); ``qpow[c]``: ``pow(q, c)``
    (``q = 1 - alpha``).  Scratch: ``c0``, ``wg``, ``tmp``, ``H`` (m each),
    ``pmf``, ``moved``, ``powers`` (n + 1 each)."""
    cdef Py_ssize_t a = 0, e, r, i, j, x, R, kk, L
    cdef double total = 0.0, h, left, p, acc
    cdef double size_f
    for i in range(m):
        c0[i] = 0
    while a < n:
        e = a + 1
        while e < n and s[e] == s[a]:
            e += 1
        if s[a] == -INFINITY or (k >= 0 and a >= k):
            break  # not retrieved, or beyond the cutoff: nothing more adds
        if e - a == 1:
            for i in range(m):
                tmp[i] = (w[i] * G[a * m + i]) * qpow[c0[i]] * disc[a]
            total = total + pw_sum(tmp, m)
        else:
            size_f = <double>(e - a)
            L = e - a if k < 0 else min(k - a, e - a)
            for i in range(m):
                R = 0
                for r in range(a, e):
                    if G[r * m + i] > 0:
                        R += 1
                if R == 0:
                    H[i] = 0.0
                    continue
                kk = R - 1  # the other relevant items of the block
                for x in range(kk + 1):
                    pmf[x] = 0.0
                    powers[x] = qpow[x]
                pmf[0] = 1.0
                h = 0.0
                for j in range(L):
                    acc = 0.0
                    for x in range(kk + 1):
                        acc = acc + pmf[x] * powers[x]
                    h = h + disc[a + j] * acc
                    # one more draw among the (size - 1 - j) others left
                    left = size_f - 1.0 - j
                    for x in range(kk + 1):
                        if left > 0:
                            p = (kk - x) / left
                            p = 0.0 if p < 0.0 else (1.0 if p > 1.0 else p)
                        else:
                            p = 0.0
                        moved[x] = pmf[x] * p
                    for x in range(kk, -1, -1):
                        pmf[x] = pmf[x] - moved[x]
                        if x > 0:
                            pmf[x] = pmf[x] + moved[x - 1]
                H[i] = h / size_f
            for r in range(a, e):
                for i in range(m):
                    wg[i] = (w[i] * G[r * m + i]) * qpow[c0[i]]
                    tmp[i] = wg[i] * H[i]
                total = total + pw_sum(tmp, m)
        for r in range(a, e):
            for i in range(m):
                if G[r * m + i] > 0:
                    c0[i] += 1
        a = e
    return total


cdef inline void coverage(const double* G, const double* s, Py_ssize_t n,
                          Py_ssize_t m, const uint8_t* present, int64_t k,
                          double* covered) noexcept nogil:
    """``covered`` (m): the probability, over the orders of the tie blocks,
    that intent i has a relevant item in the top ``k`` (``k`` < 0: every
    retrieved row); 0 for an intent not present.  A tie block of ``size``
    rows, ``R`` relevant to i, ``t`` of its positions within the cutoff
    misses i with probability ``C(size - R, t) / C(size, t)``; the logs
    are summed block by block, as ``_diversity_kernels.coverage`` sums them."""
    cdef Py_ssize_t a = 0, e, r, i, R
    cdef int64_t t, size, mr
    for i in range(m):
        covered[i] = 0.0  # (the log of the probability of a miss)
    while a < n:
        e = a + 1
        while e < n and s[e] == s[a]:
            e += 1
        if s[a] == -INFINITY or (k >= 0 and a >= k):
            break  # no position within the cutoff: nothing more is missed
        size = e - a
        t = size if k < 0 else min(size, k - a)
        for i in range(m):
            R = 0
            for r in range(a, e):
                if G[r * m + i] > 0:
                    R += 1
            if R == 0:
                continue
            mr = size - R
            if mr >= t:
                covered[i] = covered[i] + (
                    lgamma(mr + 1.0) - lgamma(mr - t + 1.0) - lgamma(size + 1.0)
                    + lgamma(size - t + 1.0))
            else:
                covered[i] = -INFINITY
        a = e
    for i in range(m):
        covered[i] = 1.0 - exp(covered[i]) if present[i] else 0.0


cdef inline void largest(const double* G, Py_ssize_t n, Py_ssize_t m,
                         double* top) noexcept nogil:
    """``top`` (m): each intent's largest grade in the group."""
    cdef Py_ssize_t r, i
    for i in range(m):
        top[i] = G[i]
    for r in range(1, n):
        for i in range(m):
            if G[r * m + i] > top[i]:
                top[i] = G[r * m + i]


cdef inline int lex_cmp(const double* a, const double* b,
                        Py_ssize_t m) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(m):
        if a[i] < b[i]:
            return -1
        if a[i] > b[i]:
            return 1
    return 0


cdef inline Py_ssize_t useful_rows(const double* G, Py_ssize_t n, Py_ssize_t m,
                                   const double* w, int64_t* useful,
                                   double* wgt) noexcept nogil:
    """The rows with a gain (``w_i G_i > 0`` for some intent), in rank
    order, and their weighted grades ``wgt`` (rows of m)."""
    cdef Py_ssize_t r, i, nu = 0
    cdef bint ok
    for r in range(n):
        ok = False
        for i in range(m):
            wgt[nu * m + i] = w[i] * G[r * m + i]
            if wgt[nu * m + i] > 0:
                ok = True
        if ok:
            useful[nu] = r
            nu += 1
    return nu


cdef inline double greedy(const double* G, Py_ssize_t m, const int64_t* prio,
                          const int64_t* useful, const double* wgt,
                          Py_ssize_t nu, int64_t depth, double q,
                          const double* disc, double* factor, uint8_t* taken,
                          double* tmp, double* gains,
                          uint64_t* mask) noexcept nogil:
    """ndeval's greedy ideal of the useful rows (``wgt``), to ``depth``
    ranks: ties of the gain to the larger priority (``prio`` of the row, or
    the lexicographically larger grade vector when NULL), then the earlier
    row.  A row's gain is recomputed (the same sum, the same bits) only
    when an intent it is relevant to was just covered.  Scratch: ``gains``,
    ``mask`` (nu each)."""
    cdef Py_ssize_t r, j, i, best
    cdef double value = 0.0, best_gain
    cdef uint64_t hit
    cdef bint few = m <= 64
    for i in range(m):
        factor[i] = 1.0
    for j in range(nu):
        taken[j] = 0
        mask[j] = 0
        if few:
            for i in range(m):
                if G[useful[j] * m + i] > 0:
                    mask[j] |= (<uint64_t>1) << i
        for i in range(m):
            tmp[i] = wgt[j * m + i]
        gains[j] = pw_sum(tmp, m)
    for r in range(depth):
        best = -1
        best_gain = -1.0
        for j in range(nu):
            if taken[j]:
                continue
            if best < 0 or gains[j] > best_gain:
                best, best_gain = j, gains[j]
            elif gains[j] == best_gain and (
                    prio[useful[j]] > prio[useful[best]] if prio != NULL
                    else lex_cmp(G + useful[j] * m, G + useful[best] * m, m) > 0):
                best = j
        value = value + disc[r] * best_gain
        taken[best] = 1
        hit = mask[best]
        for i in range(m):
            if G[useful[best] * m + i] > 0:
                factor[i] = factor[i] * q
        for j in range(nu):
            if taken[j] or (few and not (mask[j] & hit)):
                continue
            for i in range(m):
                tmp[i] = wgt[j * m + i] * factor[i]
            gains[j] = pw_sum(tmp, m)
    return value


cdef inline double intent_bound(const double* wgt, Py_ssize_t nu, Py_ssize_t m,
                                int64_t depth, const double* qpow,
                                const double* disc,
                                double* tmp) noexcept nogil:
    """Each intent alone: its gains largest first at ranks ``0 .. depth``
    (no order does better for that intent), summed over the intents."""
    cdef Py_ssize_t i, j, u, cnt
    cdef double bound = 0.0, part
    for i in range(m):
        cnt = 0
        for j in range(nu):
            if wgt[j * m + i] > 0:
                tmp[cnt] = wgt[j * m + i]
                cnt += 1
        sort_desc(tmp, cnt)
        part = 0.0
        for u in range(min(<int64_t>cnt, depth)):
            part = part + (tmp[u] * disc[u]) * qpow[u]
        bound = bound + part
    return bound


# ---------------------------------------------------------------------------
# the exact ideal: branch and bound (``_diversity_kernels`` before, in Python)
# ---------------------------------------------------------------------------
cdef struct Search:
    Py_ssize_t T            # distinct weighted grade vectors (types)
    Py_ssize_t m
    int64_t depth
    double q
    const double* qpow      # pow(q, c), c = 0 .. depth
    const double* disc
    double* types           # (T, m), lexicographically ascending
    int64_t* counts         # (T,)
    int64_t* used           # (T,)
    int64_t* cvec           # (depth + 1, m): relevant items placed, per level
    double* cgain           # (depth + 1, T): children's gains, per level
    int64_t* cidx           # (depth + 1, T): children's types, per level
    int64_t* by_intent      # (m, T): types by their grade of intent i, largest first
    int64_t* n_by_intent    # (m,)
    int64_t nodes
    int64_t budget
    double best
    # the multisets reached (open addressing; keys: (type, count) pairs)
    int64_t* keys           # arena of keys
    int64_t keys_len
    int64_t keys_cap
    int64_t* slot_off       # (cap,) -1: empty
    int64_t* slot_len
    double* slot_val
    int64_t cap
    int64_t filled
    int64_t* key_tmp        # (T,)
    bint failed             # out of memory: stop, unproven


cdef inline uint64_t _key_hash(const int64_t* key, int64_t n) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL
    cdef int64_t i
    for i in range(n):
        h = (h ^ <uint64_t>key[i]) * 1099511628211ULL
        h ^= h >> 29
    return h


cdef inline bint _grow(Search* S) noexcept nogil:
    cdef int64_t new_cap = S.cap * 2, i, pos, off, ln
    cdef int64_t* so = <int64_t*>malloc(new_cap * sizeof(int64_t))
    cdef int64_t* sl = <int64_t*>malloc(new_cap * sizeof(int64_t))
    cdef double* sv = <double*>malloc(new_cap * sizeof(double))
    if so == NULL or sl == NULL or sv == NULL:
        free(so); free(sl); free(sv)
        return False
    for i in range(new_cap):
        so[i] = -1
    for i in range(S.cap):
        off = S.slot_off[i]
        if off < 0:
            continue
        ln = S.slot_len[i]
        pos = <int64_t>(_key_hash(S.keys + off, ln) & <uint64_t>(new_cap - 1))
        while so[pos] >= 0:
            pos = (pos + 1) & (new_cap - 1)
        so[pos], sl[pos], sv[pos] = off, ln, S.slot_val[i]
    free(S.slot_off); free(S.slot_len); free(S.slot_val)
    S.slot_off, S.slot_len, S.slot_val, S.cap = so, sl, sv, new_cap
    return True


cdef inline int _seen(Search* S, double value) noexcept nogil:
    """1 when the multiset of placed items (``used``) was reached before
    with a value at least ``value``; else records it with ``value`` (0),
    -1 when out of memory."""
    cdef int64_t n = 0, j, pos, off, i
    cdef int64_t* key = S.key_tmp
    cdef int64_t* grown
    cdef bint same
    for j in range(S.T):
        if S.used[j]:
            key[n] = (j << 32) | S.used[j]
            n += 1
    pos = <int64_t>(_key_hash(key, n) & <uint64_t>(S.cap - 1))
    while S.slot_off[pos] >= 0:
        if S.slot_len[pos] == n:
            off = S.slot_off[pos]
            same = True
            for i in range(n):
                if S.keys[off + i] != key[i]:
                    same = False
                    break
            if same:
                if S.slot_val[pos] >= value:
                    return 1
                S.slot_val[pos] = value
                return 0
        pos = (pos + 1) & (S.cap - 1)
    if S.keys_len + n > S.keys_cap:
        grown = <int64_t*>realloc(S.keys, (2 * S.keys_cap + n) * sizeof(int64_t))
        if grown == NULL:
            return -1
        S.keys = grown
        S.keys_cap = 2 * S.keys_cap + n
    for i in range(n):
        S.keys[S.keys_len + i] = key[i]
    S.slot_off[pos], S.slot_len[pos], S.slot_val[pos] = S.keys_len, n, value
    S.keys_len += n
    S.filled += 1
    if 2 * S.filled > S.cap and not _grow(S):
        return -1
    return 0


cdef inline double _bound(Search* S, const int64_t* c, int64_t t0) noexcept nogil:
    """Each intent's remaining grades, largest first, at the next ranks."""
    cdef int64_t left = S.depth - t0, u, take, rest, a
    cdef Py_ssize_t i, jj, j
    cdef double total = 0.0, ci, g
    for i in range(S.m):
        ci = S.qpow[c[i]]
        u = 0
        for jj in range(S.n_by_intent[i]):
            if u >= left:
                break
            j = S.by_intent[i * S.T + jj]
            rest = S.counts[j] - S.used[j]
            if rest <= 0:
                continue
            take = min(rest, left - u)
            g = S.types[j * S.m + i]
            for a in range(take):
                total = total + (S.disc[t0 + u] * g) * ci
                ci = ci * S.q
                u += 1
    return total


cdef inline int _search(Search* S, int64_t t0, double value) noexcept nogil:
    """1: the subtree is searched; 0: the budget (or memory) ran out."""
    cdef Py_ssize_t n_child = 0, a, b, j, i
    cdef int64_t* c = S.cvec + t0 * S.m
    cdef int64_t* c2
    cdef double* gains = S.cgain + t0 * S.T
    cdef int64_t* idx = S.cidx + t0 * S.T
    cdef double gain, target, bound_now
    cdef int64_t left, u, rep, seen
    S.nodes += 1
    if S.nodes > S.budget:
        return 0
    if value > S.best:
        S.best = value
    if t0 == S.depth:
        return 1
    seen = _seen(S, value)
    if seen < 0:
        S.failed = True
        return 0
    if seen:
        return 1
    for j in range(S.T):
        if S.used[j] < S.counts[j]:
            gain = 0.0
            for i in range(S.m):
                if S.types[j * S.m + i] > 0:
                    gain = gain + S.types[j * S.m + i] * S.qpow[c[i]]
            # insert, largest gain first, then the larger type
            a = n_child
            while a > 0 and (gains[a - 1] < gain or (
                    gains[a - 1] == gain and idx[a - 1] < j)):
                gains[a] = gains[a - 1]
                idx[a] = idx[a - 1]
                a -= 1
            gains[a] = gain
            idx[a] = j
            n_child += 1
    # no item gains more later than now: the current gains, largest first,
    # bound the ranks left
    left = S.depth - t0
    u = 0
    bound_now = 0.0
    for a in range(n_child):
        rep = min(S.counts[idx[a]] - S.used[idx[a]], left - u)
        for b in range(rep):
            bound_now = bound_now + S.disc[t0 + u] * gains[a]
            u += 1
        if u == left:
            break
    target = S.best * (1 + 1e-12)
    if value + bound_now <= target or value + _bound(S, c, t0) <= target:
        return 1
    c2 = S.cvec + (t0 + 1) * S.m
    for a in range(n_child):
        j = idx[a]
        S.used[j] += 1
        for i in range(S.m):
            c2[i] = c[i] + (1 if S.types[j * S.m + i] > 0 else 0)
        if not _search(S, t0 + 1, value + S.disc[t0] * gains[a]):
            S.used[j] -= 1
            return 0
        S.used[j] -= 1
    return 1


cdef inline int exact(const double* wgt, Py_ssize_t nu, Py_ssize_t m,
                      int64_t depth, double q, const double* qpow,
                      const double* disc,
                      double incumbent, int64_t budget,
                      double* best) noexcept nogil:
    """The largest ``sum_{r < depth} D(r) G(r)`` over the orders of the
    useful rows (``wgt``), searched from ``incumbent`` (the greedy ideal):
    ``best`` and 1 when proven, 0 when the budget ran out (``best``: the
    best order found), -1 when out of memory (``best`` as found)."""
    cdef Search S
    cdef int64_t* order
    cdef Py_ssize_t a, b, T = 0, i, j
    cdef int64_t v
    cdef int result
    memset(&S, 0, sizeof(Search))
    best[0] = incumbent
    if nu == 0:
        return 1
    order = <int64_t*>malloc(nu * sizeof(int64_t))
    S.types = <double*>malloc(nu * m * sizeof(double))
    S.counts = <int64_t*>malloc(nu * sizeof(int64_t))
    S.used = <int64_t*>malloc(nu * sizeof(int64_t))
    S.key_tmp = <int64_t*>malloc(nu * sizeof(int64_t))
    S.cvec = <int64_t*>malloc((depth + 1) * m * sizeof(int64_t))
    S.cgain = <double*>malloc((depth + 1) * nu * sizeof(double))
    S.cidx = <int64_t*>malloc((depth + 1) * nu * sizeof(int64_t))
    S.by_intent = <int64_t*>malloc(m * nu * sizeof(int64_t))
    S.n_by_intent = <int64_t*>malloc(m * sizeof(int64_t))
    S.cap = 1024
    S.keys_cap = 4096
    S.keys = <int64_t*>malloc(S.keys_cap * sizeof(int64_t))
    S.slot_off = <int64_t*>malloc(S.cap * sizeof(int64_t))
    S.slot_len = <int64_t*>malloc(S.cap * sizeof(int64_t))
    S.slot_val = <double*>malloc(S.cap * sizeof(double))
    result = -1
    if (order != NULL and S.types != NULL and S.counts != NULL and S.used != NULL
            and S.key_tmp != NULL and S.cvec != NULL and S.cgain != NULL
            and S.cidx != NULL and S.by_intent != NULL and S.n_by_intent != NULL
            and S.keys != NULL and S.slot_off != NULL and S.slot_len != NULL
            and S.slot_val != NULL):
        # the distinct vectors, lexicographically ascending, with counts
        for a in range(nu):
            order[a] = a
        for a in range(1, nu):  # (insertion sort: stable, rows of a group)
            v = order[a]
            b = a - 1
            while b >= 0 and lex_cmp(wgt + order[b] * m, wgt + v * m, m) > 0:
                order[b + 1] = order[b]
                b -= 1
            order[b + 1] = v
        for a in range(nu):
            if T and lex_cmp(S.types + (T - 1) * m, wgt + order[a] * m, m) == 0:
                S.counts[T - 1] += 1
                continue
            for i in range(m):
                S.types[T * m + i] = wgt[order[a] * m + i]
            S.counts[T] = 1
            T += 1
        S.T, S.m, S.depth, S.q, S.qpow, S.disc = T, m, depth, q, qpow, disc
        S.budget, S.best = budget, incumbent
        for j in range(T):
            S.used[j] = 0
        for i in range(m):
            S.cvec[i] = 0
            # the types relevant to intent i, by their grade, largest first
            S.n_by_intent[i] = 0
            for j in range(T):
                if S.types[j * m + i] > 0:
                    a = S.n_by_intent[i]
                    while a > 0 and S.types[S.by_intent[i * T + a - 1] * m + i] \
                            < S.types[j * m + i]:
                        S.by_intent[i * T + a] = S.by_intent[i * T + a - 1]
                        a -= 1
                    S.by_intent[i * T + a] = j
                    S.n_by_intent[i] += 1
        for a in range(S.cap):
            S.slot_off[a] = -1
        result = _search(&S, 0, 0.0)
        if S.failed:
            result = -1
        best[0] = S.best
    free(order); free(S.types); free(S.counts); free(S.used); free(S.key_tmp)
    free(S.cvec); free(S.cgain); free(S.cidx); free(S.by_intent)
    free(S.n_by_intent); free(S.keys); free(S.slot_off); free(S.slot_len)
    free(S.slot_val)
    return result
