# cython: language_level=3
"""A rank multiset of new cards (declared in ``solver/_kernel/_multiset.pxd``; docs/design.md §4)."""
from libc.stdint cimport int64_t, uint32_t
from solver._kernel._combinatorics cimport BINOM, MS_OFF, RK, int128, ms_index, popcount, ways
from solver._kernel._deck cimport Deal, prefix_at
from solver._kernel._eval cimport EvalTables, tables
from solver._kernel._outcome cimport MS_PLANS, Ctx, deck_pref, delta_of, results_part
from solver._kernel._store cimport STORE, MsInfo, store_room


cdef MsInfo* multiset_begin(Ctx* x) noexcept nogil:
    # What every pass over the multiset x.mult needs: the deck less it (x.a; deck_pref), its
    # distinct ranks (x.R, x.Mr, x.Sr), its outcomes (x.leaves), the suits a flush of all its new
    # cards can be in (x.fl_common) and its MsInfo, filled once per generation.
    cdef const EvalTables* t = tables()
    cdef const Deal* D = x.D
    cdef int i, j, r, km, nr = 0, sig_ranks = 0
    cdef uint32_t key_new = 0, key
    cdef MsInfo* info
    cdef int64_t* pref
    x.fl_common = 15                  # the suits every new rank can be drawn in, once each
    x.leaves = 1
    for r in range(13):
        x.a[r] = D.a0[r] - x.mult[r]
        if x.mult[r]:
            x.R[nr] = r
            x.Mr[nr] = x.mult[r]
            x.Sr[nr] = 0
            for j in range(4):
                if (D.ys0[j] >> r) & 1:
                    x.Sr[nr] |= 1 << j
            if (x.Sr[nr] >> D.sigma) & 1:
                sig_ranks |= 1 << nr
            x.fl_common &= x.Sr[nr] if x.Mr[nr] == 1 else 0
            x.leaves *= BINOM[popcount(x.Sr[nr])][x.Mr[nr]]
            key_new += RK[r] * x.mult[r]
            x.position[r] = nr
            nr += 1
    x.nr = nr
    x.sig_ranks = sig_ranks
    x.wl_ok = 0
    x.outcomes += x.leaves
    x.n_plans = 0
    info = &STORE.info[MS_OFF[x.k] + x.seq]
    x.seq += 1
    # the multisets come in the same order for every deal of a generation (the order of
    # each_multiset over the deal's rank counts): the index is the one met before
    x.ms = info.ms if info.gen == STORE.gen else ms_index(x.R, x.Mr, x.nr)
    x.pref = NULL                     # the whole prefix when an outcome needs it (deck_pref)
    store_room(MS_PLANS)
    if info.gen != STORE.gen:
        info.ms = x.ms
        for i in range(x.n_masks):
            km = x.masks[i]
            key = key_new
            for j in range(5):
                if not (km >> j) & 1:
                    key += RK[x.hand[j] >> 2]
            info.d[i].player = t.rank_table[key]
        # the prefix read at these places (the bounds read no more), each from its nearest
        # anchor, and elsewhere as outcomes read it
        pref = deck_pref(x)
        info.nq_blind = prefix_at(D, pref, D.ms_below[x.st.qualifier])
        for i in range(x.n_masks):
            info.d[i].blind[0] = prefix_at(D, pref, D.ms_below[info.d[i].player])
            info.d[i].blind[1] = prefix_at(D, pref, D.ms_below[info.d[i].player + 1])
        info.gen = STORE.gen
        for i in range(x.n_masks):
            info.d[i].sgen = 0
    return info


cdef void group_counts(Ctx* x) noexcept nogil:
    # by doubling over the positions: the rank bits and the outcomes of every sigmask (a
    # product of one factor per position: its rank's card of the up suit taken or not)
    cdef int j, sigmask
    cdef int64_t w0, w1
    x.bits[0] = 0
    x.group_count[0] = 1
    for j in range(x.nr):
        w0 = ways(popcount(x.Sr[j]) - ((x.sig_ranks >> j) & 1), x.Mr[j])
        w1 = ways(popcount(x.Sr[j]) - 1, x.Mr[j] - 1) if (x.sig_ranks >> j) & 1 else 0
        for sigmask in range(1 << j):
            x.bits[sigmask | (1 << j)] = x.bits[sigmask] | (1 << x.R[j])
            x.group_count[sigmask | (1 << j)] = x.group_count[sigmask] * w1
            x.group_count[sigmask] *= w0


cdef void group_weights(Ctx* x, int sigmask) noexcept nogil:
    # the outcomes of the group sigmask by the positions tmask they take from each other suit
    cdef int j, tau, tmask, n, avail, need
    cdef int64_t w[32]
    cdef int64_t w0, w1
    for tau in range(4):
        n = 0
        if tau != x.D.sigma:
            # a product over the positions of a factor for each (in the up suit, in tau): the
            # weights of every tmask by doubling
            w[0] = 1
            for j in range(x.nr):
                avail = popcount(x.Sr[j]) - ((x.sig_ranks >> j) & 1) - ((x.Sr[j] >> tau) & 1)
                need = x.Mr[j] - ((sigmask >> j) & 1)
                w0 = ways(avail, need)
                w1 = ways(avail, need - 1) if (x.Sr[j] >> tau) & 1 else 0
                for tmask in range(1 << j):
                    w[tmask | (1 << j)] = w[tmask] * w1
                    w[tmask] *= w0
            for tmask in range(1 << x.nr):
                if w[tmask]:
                    x.wl_t[sigmask][tau][n] = tmask
                    x.wl_w[sigmask][tau][n] = w[tmask]
                    n += 1
        x.wl_n[sigmask][tau] = n
    x.wl_ok |= 1 << sigmask


cdef int64_t group_parts(Ctx* x, int u, int sigmask, int128* total, int64_t* split) noexcept nogil:
    """The flush draws of the suits other than the up suit over the outcomes of the group
    sigmask, for plan u -- the outcomes taking the new ranks at positions tmask from suit tau
    add delta(tau, tmask) each (group_weights counts them) -- added to ``total``, or with
    ``split`` to the buy's excess and split (5: results_part's); returns the least they add
    to one outcome. The grouped sum of both passes, values and results."""
    cdef int e, k, tau, tmask
    cdef int64_t d, w, dmin, low = 0
    cdef int128 sum = 0
    cdef int64_t* part
    if not (x.wl_ok >> sigmask) & 1:
        group_weights(x, sigmask)
    for tau in range(4):
        dmin = 0
        for e in range(x.wl_n[sigmask][tau]):
            tmask = x.wl_t[sigmask][tau][e]
            w = x.wl_w[sigmask][tau][e]
            if split != NULL:
                part = results_part(x, u, tau, tmask)
                for k in range(5):
                    split[k] += w * part[k]
                d = part[0]
            else:
                d = delta_of(x, u, tau, tmask)
                sum += (<int128> w) * d
            if d < dmin:
                dmin = d
        low += dmin
    if total != NULL:
        total[0] += sum
    return low


cdef void group_deltas(Ctx* x, int u, int sigmask) noexcept nogil:
    # group_parts of the values pass, kept for the plan (Ctx.group_sum, group_low)
    cdef int128 total = 0
    x.group_low[u][sigmask] = group_parts(x, u, sigmask, &total, NULL)
    x.group_sum[u][sigmask] = total
    x.group_ok[u] |= 1 << sigmask


cdef void other_total(Ctx* x, int u) noexcept nogil:
    # the flush draws of the suits other than the up suit over every outcome of the multiset,
    # for plan u, and the least they add to one outcome: as group_deltas, the groups summed
    # (the outcomes taking the positions tmask from suit tau, whatever they take from the up
    # suit, are a product of one factor per position)
    cdef int j, e, tau, tmask, has, avail
    cdef int64_t w[32]
    cdef int64_t w0, w1, d, dmin, low = 0
    cdef int128 total = 0
    # only a dealer hand throwing the up-card draws to a flush in another suit
    for tau in range(4 if x.plans[u].n_thrown else 0):
        if tau == x.D.sigma:
            continue
        w[0] = 1
        for j in range(x.nr):
            has = (x.Sr[j] >> tau) & 1
            avail = popcount(x.Sr[j]) - has
            w0 = ways(avail, x.Mr[j])
            w1 = ways(avail, x.Mr[j] - 1) if has else 0
            for tmask in range(1 << j):
                w[tmask | (1 << j)] = w[tmask] * w1
                w[tmask] *= w0
        dmin = 0
        for tmask in range(1 << x.nr):
            if w[tmask]:
                d = delta_of(x, u, tau, tmask)
                total += (<int128> w[tmask]) * d
                if d < dmin:
                    dmin = d
        low += dmin
    x.other_sum[u] = total
    x.other_low[u] = low
    x.other_ok |= <int64_t> 1 << u


cdef int flush_suits(Ctx* x, int i, int* fl_suit, int* fl_sig) noexcept nogil:
    # the suits where discard i's kept cards and every new card can be of one suit (the
    # player's flushes), and the group of each (its new cards of the up suit, as positions)
    cdef int pi, n_fl = 0
    for pi in range(4):
        if (x.kept_suits[i] & x.fl_common) >> pi & 1:
            fl_suit[n_fl] = pi
            fl_sig[n_fl] = (1 << x.nr) - 1 if pi == x.D.sigma else 0
            n_fl += 1
    return n_fl
