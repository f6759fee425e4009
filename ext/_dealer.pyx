# cython: language_level=3
"""Fast exact solver of one deal: every option's EV as exact integer numerators.

The dealer side is counted by ranks (RULES §5, DESIGN-NOTES §2): the dealer's four hidden cards
form one of 1,820 rank multisets m, with prod C(a_r, m_r) completions for the deck's rank counts
a. Sorted by strength once per deal, their weights give, by a prefix sum and a binary search,
how many dealer hands lie below a player's strength. Dealer flushes (all four hidden cards in the
up-card's suit) are moved from their rank strength to their flush strength from a per-deal list.
Buying a game is evaluated per non-qualifying rank set of the dealer, split into the suit
classes that matter (no flush draw; a flush draw in a given suit), from the stub's rank counts.

Exchange outcomes are enumerated by the rank multiset of the new cards (the dealer's rank counts
are shared by all its suit assignments) and, inside it, by the new cards of the up-card's suit.
"""
import numpy as np
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t, uint64_t, int32_t
from libc.stdlib cimport malloc, free
from solver._eval cimport EvalTables, tables, eval5, eval6, payout_detail, N_STRENGTH
from solver._settle cimport Settings, settle, falling

cdef extern from *:
    ctypedef long long int128 "__int128"

DEF N_MULTI = 1820      # multisets of four ranks
DEF N_DISTINCT = 715    # sets of four distinct ranks
DEF MAX_FLUSH = 495     # four-card subsets of the 12 unseen cards of one suit
DEF MAX_SLOTS = 64

cdef int BINOM[6][6]
cdef uint8_t MS_RANK[N_MULTI][4]      # the four ranks, ascending
cdef uint8_t MS_N[N_MULTI]            # distinct ranks
cdef uint8_t MS_R[N_MULTI][4]         # distinct ranks
cdef uint8_t MS_M[N_MULTI][4]         # their multiplicities
cdef uint16_t DS_MASK[N_DISTINCT]     # four distinct ranks as a bit set
cdef uint32_t RK[13]                  # additive rank key of each rank (as the _eval tables)


cdef void _build_static():
    cdef int i, j, r0, r1, r2, r3, n = 0, k
    cdef const EvalTables* t = tables()
    for i in range(6):
        for j in range(6):
            BINOM[i][j] = 0
        BINOM[i][0] = 1
        for j in range(1, i + 1):
            BINOM[i][j] = BINOM[i - 1][j - 1] + BINOM[i - 1][j]
    for i in range(13):
        RK[i] = t.card_key[4 * i]
    for r0 in range(13):
        for r1 in range(r0, 13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    MS_RANK[n][0] = r0
                    MS_RANK[n][1] = r1
                    MS_RANK[n][2] = r2
                    MS_RANK[n][3] = r3
                    k = 0
                    for j in range(4):
                        if k > 0 and MS_R[n][k - 1] == MS_RANK[n][j]:
                            MS_M[n][k - 1] += 1
                        else:
                            MS_R[n][k] = MS_RANK[n][j]
                            MS_M[n][k] = 1
                            k += 1
                    MS_N[n] = k
                    n += 1
    n = 0
    for r0 in range(13):
        for r1 in range(r0 + 1, 13):
            for r2 in range(r1 + 1, 13):
                for r3 in range(r2 + 1, 13):
                    DS_MASK[n] = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3)
                    n += 1


_build_static()


cdef struct Deal:
    int up, rho, sigma, n0
    int a0[13]
    uint16_t ys0[4]                   # unseen cards of each suit, as rank bit sets
    int n_ms
    int ms_order[N_MULTI]             # hidden multisets of this up rank, by rank strength
    int ms_strength[N_MULTI]          # their strengths, ascending
    int n_flush                       # four-card subsets of the up suit's unseen cards
    uint16_t fl_mask_by_fl[MAX_FLUSH]
    int fl_by_fl[MAX_FLUSH]           # their flush strengths, ascending
    uint16_t fl_mask_by_nf[MAX_FLUSH]
    int fl_by_nf[MAX_FLUSH]           # their rank strengths, ascending
    int n_ds                          # four distinct hidden ranks without the up rank
    uint16_t ds_mask[N_DISTINCT]
    int ds_strength[N_DISTINCT]       # rank strength of the dealer's five distinct ranks
    uint16_t ds_qual[N_DISTINCT]      # ranks whose draw after a buy qualifies (suits aside)
    int ds_smax[N_DISTINCT]           # the best such draw's strength
    int ds_top[N_DISTINCT]            # the rank the dealer throws when buying


cdef struct Filter:
    int sigmask                       # new cards of the up suit (rank bit set); -1 = unused
    int n
    int by_fl[MAX_FLUSH]
    int by_nf[MAX_FLUSH]


cdef inline int _below(const int* v, int n, int s) noexcept nogil:
    # how many of the ascending v[0..n) are < s
    cdef int lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if v[mid] < s:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef void _sort_pairs(int* key, uint16_t* val, int n) noexcept nogil:
    # insertion sort (n <= 495, once per deal)
    cdef int i, j, k
    cdef uint16_t v
    for i in range(1, n):
        k = key[i]
        v = val[i]
        j = i - 1
        while j >= 0 and key[j] > k:
            key[j + 1] = key[j]
            val[j + 1] = val[j]
            j -= 1
        key[j + 1] = k
        val[j + 1] = v


cdef void _deal_init(Deal* D, int up, const uint8_t* known, int n_known, int qualifier) noexcept nogil:
    # known: every card out of the deck besides the up-card (the player's, thrown away, dead)
    cdef const EvalTables* t = tables()
    cdef int i, j, c, r, n, s, top
    cdef uint32_t kept_key
    cdef uint8_t seen[52]
    cdef int tmp_s[N_MULTI]
    cdef int idx[N_MULTI]
    for i in range(52):
        seen[i] = 0
    for i in range(n_known):
        seen[known[i]] = 1
    seen[up] = 1
    D.up = up
    D.rho = up >> 2
    D.sigma = up & 3
    D.n0 = 0
    for r in range(13):
        D.a0[r] = 0
    for i in range(4):
        D.ys0[i] = 0
    for c in range(52):
        if not seen[c]:
            D.n0 += 1
            D.a0[c >> 2] += 1
            D.ys0[c & 3] |= 1 << (c >> 2)
    # hidden rank multisets, sorted by the dealer's rank strength (a counting sort by strength)
    n = 0
    for i in range(N_MULTI):
        s = 0
        for j in range(4):
            s += MS_RANK[i][j] == D.rho
        if s >= 4:
            continue
        tmp_s[n] = t.rank_table[RK[D.rho] + RK[MS_RANK[i][0]] + RK[MS_RANK[i][1]]
                                + RK[MS_RANK[i][2]] + RK[MS_RANK[i][3]]]
        idx[n] = i
        n += 1
    D.n_ms = n
    cdef int* count = <int*> malloc((N_STRENGTH + 1) * sizeof(int))
    for s in range(N_STRENGTH + 1):
        count[s] = 0
    for i in range(n):
        count[tmp_s[i] + 1] += 1
    for s in range(N_STRENGTH):
        count[s + 1] += count[s]
    for i in range(n):
        j = count[tmp_s[i]]
        count[tmp_s[i]] += 1
        D.ms_order[j] = idx[i]
        D.ms_strength[j] = tmp_s[i]
    free(count)
    # dealer flushes: four unseen cards of the up suit
    n = 0
    for i in range(N_DISTINCT):
        if (DS_MASK[i] & D.ys0[D.sigma]) == DS_MASK[i]:
            D.fl_mask_by_fl[n] = DS_MASK[i]
            D.fl_mask_by_nf[n] = DS_MASK[i]
            D.fl_by_fl[n] = t.flush_table[DS_MASK[i] | (1 << D.rho)]
            D.fl_by_nf[n] = t.rank_table[_key_of_mask(DS_MASK[i]) + RK[D.rho]]
            n += 1
    D.n_flush = n
    _sort_pairs(D.fl_by_fl, D.fl_mask_by_fl, n)
    _sort_pairs(D.fl_by_nf, D.fl_mask_by_nf, n)
    # sets of four distinct hidden ranks other than the up rank (the only non-qualifying shapes)
    n = 0
    for i in range(N_DISTINCT):
        if not (DS_MASK[i] >> D.rho) & 1:
            D.ds_mask[n] = DS_MASK[i]
            D.ds_strength[n] = t.rank_table[_key_of_mask(DS_MASK[i]) + RK[D.rho]]
            top = 12
            while not (((DS_MASK[i] | (1 << D.rho)) >> top) & 1):
                top -= 1
            D.ds_top[n] = top
            kept_key = _key_of_mask((DS_MASK[i] | (1 << D.rho)) & ~(1 << top))
            D.ds_qual[n] = 0
            D.ds_smax[n] = -1
            for r in range(13):
                s = t.rank_table[kept_key + RK[r]]
                if r != top and s >= qualifier:
                    D.ds_qual[n] |= 1 << r
                    if s > D.ds_smax[n]:
                        D.ds_smax[n] = s
            n += 1
    D.n_ds = n


cdef inline uint32_t _key_of_mask(uint16_t mask) noexcept nogil:
    cdef uint32_t key = 0
    cdef int r
    for r in range(13):
        if (mask >> r) & 1:
            key += RK[r]
    return key


cdef void _blind_prefix(const Deal* D, const int* a, int64_t* pref) noexcept nogil:
    # pref[i]: dealer hands among the i weakest hidden rank multisets (suits ignored)
    cdef int i, j, m
    cdef int64_t w
    pref[0] = 0
    for i in range(D.n_ms):
        m = D.ms_order[i]
        w = 1
        for j in range(MS_N[m]):
            w *= BINOM[a[MS_R[m][j]]][MS_M[m][j]]
        pref[i + 1] = pref[i] + w


cdef void _filter(const Deal* D, int sigmask, Filter* f) noexcept nogil:
    # the dealer flushes still possible when the new cards of the up suit are sigmask
    cdef int i, n = 0
    f.sigmask = sigmask
    for i in range(D.n_flush):
        if not (D.fl_mask_by_fl[i] & sigmask):
            f.by_fl[n] = D.fl_by_fl[i]
            n += 1
    n = 0
    for i in range(D.n_flush):
        if not (D.fl_mask_by_nf[i] & sigmask):
            f.by_nf[n] = D.fl_by_nf[i]
            n += 1
    f.n = n


cdef inline int64_t _L(const Deal* D, const int64_t* pref, const Filter* f, int s) noexcept nogil:
    # dealer hands of strength < s
    return (pref[_below(D.ms_strength, D.n_ms, s)] + _below(f.by_fl, f.n, s) - _below(f.by_nf, f.n, s))


cdef inline int64_t _out_value(const Settings* st, int s, int player, int p) noexcept nogil:
    return settle(st, player, s, p) if s >= st.qualifier else 0


cdef int64_t _buy_class(int64_t S, int64_t c, int64_t m, int redraws) noexcept nogil:
    # numerator over falling(m, redraws + 1): S sums the non-redraw outs, c redraw cards
    if redraws == 0:
        return S
    return S * falling(m - 1, redraws) + c * _buy_class(S, c - 1, m - 1, redraws - 1)


cdef void _buy_bounds(const Deal* D, const int* a, int* qualifying) noexcept nogil:
    # For each rank set: the stub cards whose draw after a buy qualifies, suits aside. It depends
    # on the deck, not on the player's hand, so it is computed once per rank multiset of new cards.
    cdef int i, r, q
    cdef uint16_t h
    for i in range(D.n_ds):
        h = D.ds_mask[i]
        q = 0
        for r in range(13):
            if (D.ds_qual[i] >> r) & 1:
                q += a[r] - ((h >> r) & 1)
        qualifying[i] = q


cdef int64_t _buy_excess(const Deal* D, const Settings* st, const int* a, const uint16_t* ys,
                         int ysize, int player, int p, const int* qualifying) noexcept nogil:
    """Sum over non-qualifying dealer hands of max(0, E[buy] - fee - 1), over falling(|Z|, R+1).

    E[buy] is at most best_pay times the chance to qualify after the buy: rank sets where that
    cannot beat taking the ante are skipped before any card is looked at.
    """
    cdef const EvalTables* t = tables()
    cdef int i, r, top, tau, sigma = D.sigma, rho = D.rho
    cdef int m = ysize - 4
    cdef int64_t den = falling(m, st.redraws + 1)
    cdef int64_t threshold = (st.buy_fee + 1) * den
    cdef int64_t total = 0, count, flush, fd, plain, S, c, v, q, n_outs
    cdef int64_t best_pay = 2 * p + st.win_extra
    cdef uint16_t h, kept, outs, lower
    cdef uint32_t kept_key
    cdef int z[13]
    cdef int64_t vnf[13]
    cdef int qbuf[N_DISTINCT]
    cdef bint plain_ok, fd_ok, need_values
    if qualifying == NULL:
        _buy_bounds(D, a, qbuf)
        qualifying = qbuf
    for i in range(D.n_ds):
        if D.ds_strength[i] >= st.qualifier:
            continue
        h = D.ds_mask[i]
        top = D.ds_top[i]
        q = qualifying[i]
        c = a[top] - ((h >> top) & 1)
        plain_ok = best_pay * _buy_class(q, c, m, st.redraws) > threshold
        # flush draws: the up-card kept with three hidden cards of its suit, or thrown with four
        # hidden cards of another suit; the most outs they can have bounds them too
        fd_ok = False
        if top != rho:
            lower = h & ~(1 << top)
            if (ys[sigma] & lower) == lower:
                n_outs = _popcount(ys[sigma] & ~lower)
                fd_ok = best_pay * _buy_class(q + n_outs, c, m, st.redraws) > threshold
        else:
            for tau in range(4):
                if tau != sigma and (ys[tau] & h) == h:
                    n_outs = _popcount(ys[tau] & ~h)
                    if best_pay * _buy_class(q + n_outs, c, m, st.redraws) > threshold:
                        fd_ok = True
        if not plain_ok and not fd_ok:
            continue
        count = 1
        flush = 1
        for r in range(13):
            if (h >> r) & 1:
                count *= a[r]
                flush &= (ys[sigma] >> r) & 1
        if count == 0:
            continue
        kept = (h | (1 << rho)) & ~(1 << top)
        for r in range(13):
            z[r] = a[r] - ((h >> r) & 1)
        if player > D.ds_smax[i]:
            # the player beats every draw that qualifies without a flush
            S = best_pay * q
            need_values = fd_ok
        else:
            S = -1
            need_values = True
        if need_values:
            kept_key = _key_of_mask(kept)
            v = 0
            for r in range(13):
                if r != top:
                    vnf[r] = _out_value(st, t.rank_table[kept_key + RK[r]], player, p)
                    v += z[r] * vnf[r]
            S = v
        plain = count - flush
        if top != rho:
            fd = 0
            lower = h & ~(1 << top)
            if (ys[sigma] & lower) == lower:
                fd = a[top] - ((ys[sigma] >> top) & 1)
            if fd > 0:
                plain -= fd
                if fd_ok:
                    outs = ys[sigma] & ~lower  # the thrown card is of another suit
                    total += fd * _flush_draw(st, t, kept, outs, top, S, c, vnf, m, threshold, player, p)
        else:
            for tau in range(4):
                if tau == sigma or (ys[tau] & h) != h:
                    continue
                plain -= 1
                if fd_ok:
                    outs = ys[tau] & ~h
                    total += _flush_draw(st, t, kept, outs, top, S, c, vnf, m, threshold, player, p)
        if plain > 0 and plain_ok:
            v = _buy_class(S, c, m, st.redraws) - threshold
            if v > 0:
                total += plain * v
    return total


cdef inline int _popcount(unsigned int x) noexcept nogil:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef inline int64_t _flush_draw(const Settings* st, const EvalTables* t, uint16_t kept, uint16_t outs,
                                int top, int64_t S, int64_t c, const int64_t* vnf, int m,
                                int64_t threshold, int player, int p) noexcept nogil:
    # the outs of the kept cards' suit make a flush (or straight flush) instead
    cdef int r
    cdef int64_t v
    for r in range(13):
        if (outs >> r) & 1:
            if r == top:
                c -= 1
            else:
                S -= vnf[r]
            S += _out_value(st, t.flush_table[kept | (1 << r)], player, p)
    v = _buy_class(S, c, m, st.redraws) - threshold
    return v if v > 0 else 0


cdef struct Final:
    # what a final hand's value needs besides the deck
    int strength
    int p


cdef int64_t _value(const Deal* D, const Settings* st, const int64_t* pref, const Filter* f,
                    const int* a, const uint16_t* ys, int ysize, int player, int p,
                    int64_t nq, int64_t n, int64_t den, int64_t* counts, const int* bound) noexcept nogil:
    """Numerator over n * den of betting a final hand, with the best insurance."""
    cdef int64_t win = 0, tie = 0, lose, below, upto, excess = 0, e, value
    if player >= st.qualifier:
        below = _L(D, pref, f, player)
        upto = _L(D, pref, f, player + 1)
        win = below - nq
        tie = upto - below
        lose = n - upto
    else:
        lose = n - nq
    if st.buy_on and player >= st.buy_from and 2 * p + st.win_extra > st.buy_fee + 1:
        excess = _buy_excess(D, st, a, ys, ysize, player, p, bound)
    value = den * ((2 * p + st.win_extra) * win - 3 * lose + nq) + excess
    if player >= st.insurance_from and st.insurance_max * p >= st.insurance_min:
        e = nq - win - (tie if st.tie_loses else 0)
        if e > 0:
            value += den * st.insurance_max * p * e
    if counts != NULL:
        counts[0] = n
        counts[1] = win
        counts[2] = tie
        counts[3] = lose
        counts[4] = nq
        counts[5] = excess
        counts[6] = den
    return value


cdef object _py(int128 x):
    # exact conversion of a 128-bit integer
    cdef int128 lo = x & <int128> 0xFFFFFFFFFFFFFFFF
    return (int(<int64_t> (x >> 64)) << 64) + int(<uint64_t> lo)


cdef struct Ctx:
    const Deal* D
    const Settings* st
    const uint8_t* hand
    const int32_t* p5
    int k
    int forced
    int mult[13]
    int a[13]
    int ysize
    int64_t n
    int64_t den
    int64_t* pref
    Filter* slots
    int n_slots
    int new[5]
    int n_new
    uint16_t ys[4]
    int n_masks
    int masks[10]
    int128* acc
    int64_t outcomes
    int* bound
    int bounds_ready


cdef Filter* _slot(Ctx* x, int sigmask) noexcept nogil:
    cdef int i
    for i in range(x.n_slots):
        if x.slots[i].sigmask == sigmask:
            return &x.slots[i]
    _filter(x.D, sigmask, &x.slots[x.n_slots])
    x.n_slots += 1
    return &x.slots[x.n_slots - 1]


cdef void _leaf(Ctx* x) noexcept nogil:
    cdef const EvalTables* t = tables()
    cdef int i, j, sigmask = 0, player, p, mask, k
    cdef int cards[5]
    cdef int64_t nq, v, floor
    for i in range(x.n_new):
        if (x.new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (x.new[i] >> 2)
    cdef Filter* f = _slot(x, sigmask)
    nq = _L(x.D, x.pref, f, x.st.qualifier)
    floor = -x.n * x.den
    x.outcomes += 1
    for i in range(x.n_masks):
        mask = x.masks[i]
        k = 0
        for j in range(5):
            if not (mask >> j) & 1:
                cards[k] = x.hand[j]
                k += 1
        for j in range(x.n_new):
            cards[k + j] = x.new[j]
        player = eval5(t, cards[0], cards[1], cards[2], cards[3], cards[4])
        p = x.p5[player]
        if not x.bounds_ready and x.st.buy_on:
            _buy_bounds(x.D, x.a, x.bound)
            x.bounds_ready = 1
        v = _value(x.D, x.st, x.pref, f, x.a, x.ys, x.ysize, player, p, nq, x.n, x.den, NULL, x.bound)
        if not x.forced and v < floor:
            v = floor
        x.acc[mask] += v


cdef void _suits(Ctx* x, int r) noexcept nogil:
    # choose the suits of the new cards of rank r, r + 1, ...
    cdef int need, suits, sub, s, bits, i
    while r < 13 and x.mult[r] == 0:
        r += 1
    if r == 13:
        _leaf(x)
        return
    need = x.mult[r]
    suits = 0
    for s in range(4):
        if (x.D.ys0[s] >> r) & 1:
            suits |= 1 << s
    for sub in range(1, 16):
        if (sub & suits) != sub:
            continue
        bits = (sub & 1) + ((sub >> 1) & 1) + ((sub >> 2) & 1) + ((sub >> 3) & 1)
        if bits != need:
            continue
        for s in range(4):
            if (sub >> s) & 1:
                x.new[x.n_new] = 4 * r + s
                x.n_new += 1
                x.ys[s] &= ~(1 << r)
        _suits(x, r + 1)
        for s in range(4):
            if (sub >> s) & 1:
                x.n_new -= 1
                x.ys[s] |= 1 << r


cdef void _ranks(Ctx* x, int r, int left) noexcept nogil:
    # choose the rank multiset of the new cards, then its suit assignments
    cdef int m, i
    if left == 0:
        for i in range(13):
            x.a[i] = x.D.a0[i] - x.mult[i]
        _blind_prefix(x.D, x.a, x.pref)
        x.n_slots = 0
        x.bounds_ready = 0
        _suits(x, 0)
        return
    if r == 13:
        return
    for m in range(min(left, x.D.a0[r]) + 1):
        x.mult[r] = m
        _ranks(x, r + 1, left - m)
    x.mult[r] = 0


cdef const uint8_t* _ptr(const uint8_t[::1] a):
    return &a[0] if a.shape[0] else NULL


cdef void _settings(dict d, Settings* st) except *:
    st.qualifier = d["qualifier"]
    st.win_extra = d["win_extra"]
    st.buy_on = d["buy_on"]
    st.buy_fee = d["buy_fee"]
    st.redraws = d["redraws"]
    st.buy_from = d["buy_from"]
    st.insurance_from = d["insurance_from"]
    st.insurance_max = d["insurance_max"]
    st.insurance_min = d["insurance_min"]
    st.tie_loses = d["tie_loses"]


def situation(const uint8_t[::1] final, int up, const uint8_t[::1] known, dict settings, int p):
    """Counts (n, win, tie, lose, nq, buy_excess, den) for betting a final hand of 5 or 6 cards.

    ``known`` holds every card out of the deck besides the up-card: the final hand, the cards
    thrown away, dead cards. ``p`` is the final hand's payout multiple.
    """
    cdef Settings st
    _settings(settings, &st)
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    cdef int64_t* pref = <int64_t*> malloc((N_MULTI + 1) * sizeof(int64_t))
    cdef Filter f
    cdef int64_t counts[7]
    cdef int64_t n, den, nq
    cdef int player, i
    try:
        _deal_init(D, up, _ptr(known), known.shape[0], st.qualifier)
        if final.shape[0] == 5:
            player = eval5(t, final[0], final[1], final[2], final[3], final[4])
        else:
            player = eval6(t, &final[0])
        _blind_prefix(D, D.a0, pref)
        _filter(D, 0, &f)
        n = falling(D.n0, 4) // 24
        den = falling(D.n0 - 4, st.redraws + 1)
        nq = _L(D, pref, &f, st.qualifier)
        _value(D, &st, pref, &f, D.a0, D.ys0, D.n0, player, p, nq, n, den, counts, NULL)
    finally:
        free(D)
        free(pref)
    return tuple(counts[i] for i in range(7))


def solve(const uint8_t[::1] hand, int up, const uint8_t[::1] dead, dict settings,
          const int32_t[::1] p5, const int32_t[::1] paytable, bint second_on, bint new_rank,
          tuple exchange_counts, tuple forced_counts, bint sixth_on):
    """Exact numerators of every option of one deal.

    Returns a dict: ``bet`` the counts (n, win, tie, lose, nq, buy_excess, den) and ``bet_value``
    (numerator over n * den); ``sixth`` (numerator, denominator) of the average over sixth cards
    of max(-1, value); ``exchange`` {discard mask: (numerator, denominator)} likewise, fees
    excluded.
    """
    cdef Settings st
    _settings(settings, &st)
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    cdef int64_t* pref = <int64_t*> malloc((N_MULTI + 1) * sizeof(int64_t))
    cdef Filter* slots = <Filter*> malloc(MAX_SLOTS * sizeof(Filter))
    cdef int* bound = <int*> malloc(N_DISTINCT * sizeof(int))
    cdef int128 acc[32]
    cdef int64_t counts[7]
    cdef int i, j, c, k, player, p, a1, a2, a3
    cdef int a[13]
    cdef uint16_t ys[4]
    cdef uint8_t six[6]
    cdef Filter f
    cdef Ctx x
    cdef int128 total
    cdef int64_t n, den, v, nq
    result = {}
    try:
        known = np.concatenate([np.asarray(hand), np.asarray(dead)]).astype(np.uint8)
        _deal_init(D, up, _ptr(known), known.shape[0], st.qualifier)
        # bet the dealt hand
        for i in range(13):
            a[i] = D.a0[i]
        for i in range(4):
            ys[i] = D.ys0[i]
        _blind_prefix(D, a, pref)
        _filter(D, 0, &f)
        n = falling(D.n0, 4) // 24
        den = falling(D.n0 - 4, st.redraws + 1)
        player = eval5(t, hand[0], hand[1], hand[2], hand[3], hand[4])
        nq = _L(D, pref, &f, st.qualifier)
        v = _value(D, &st, pref, &f, a, ys, D.n0, player, p5[player], nq, n, den, counts, NULL)
        result["bet"] = tuple(counts[i] for i in range(7))
        result["bet_value"] = v
        # a sixth card
        if sixth_on:
            total = 0
            n = falling(D.n0 - 1, 4) // 24
            den = falling(D.n0 - 5, st.redraws + 1)
            for i in range(5):
                six[i] = hand[i]
            for c in range(52):
                if not (D.ys0[c & 3] >> (c >> 2)) & 1:
                    continue
                six[5] = c
                a[c >> 2] -= 1
                ys[c & 3] &= ~(1 << (c >> 2))
                _blind_prefix(D, a, pref)
                _filter(D, (1 << (c >> 2)) if (c & 3) == D.sigma else 0, &f)
                player = eval6(t, six)
                p = payout_detail(t, six, 6, &paytable[0], second_on, new_rank, &a1, &a2, &a3)
                nq = _L(D, pref, &f, st.qualifier)
                v = _value(D, &st, pref, &f, a, ys, D.n0 - 1, player, p, nq, n, den, NULL, NULL)
                total += v if v > -n * den else -n * den
                a[c >> 2] += 1
                ys[c & 3] |= 1 << (c >> 2)
            result["sixth"] = (_py(total), D.n0 * n * den)
        # exchanges, by number of cards
        exchanges = {}
        x.D = D
        x.st = &st
        x.hand = &hand[0]
        x.p5 = &p5[0]
        x.pref = pref
        x.slots = slots
        x.acc = acc
        x.bound = bound
        for k in exchange_counts:
            x.k = k
            x.forced = k in forced_counts
            x.n_masks = 0
            for i in range(32):
                acc[i] = 0
                if bin(i).count("1") == k:
                    x.masks[x.n_masks] = i
                    x.n_masks += 1
            for i in range(13):
                x.mult[i] = 0
            for i in range(4):
                x.ys[i] = D.ys0[i]
            x.n_new = 0
            x.ysize = D.n0 - k
            x.n = falling(D.n0 - k, 4) // 24
            x.den = falling(D.n0 - k - 4, st.redraws + 1)
            x.outcomes = 0
            with nogil:
                _ranks(&x, 0, k)
            for i in range(x.n_masks):
                exchanges[x.masks[i]] = (_py(acc[x.masks[i]]), x.outcomes * x.n * x.den)
        result["exchange"] = exchanges
    finally:
        free(D)
        free(pref)
        free(slots)
        free(bound)
    return result
