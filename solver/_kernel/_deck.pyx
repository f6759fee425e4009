# cython: language_level=3
"""The dealer's counts for a deck (declared in ``solver/_kernel/_deck.pxd``; docs/design.md §2)."""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t
from libc.stdlib cimport abort, free, malloc
from libc.string cimport memcmp, memcpy, memset
from solver._kernel._combinatorics cimport (BINOM, DS_MASK, MS_M, MS_N, MS_PLACE, MS_R, MS_RANK, N_DISTINCT, N_MULTI, RK, SUB,
                                   SUB_START, Sub, key_of_mask, ms_index)
from solver._kernel._eval cimport EvalTables, N_STRENGTH, tables


cdef void _draws_add(Draws* d, int strength, int r) noexcept nogil:
    cdef int j = d.n
    while j > 0 and d.strength[j - 1] > strength:
        d.strength[j] = d.strength[j - 1]
        d.rank[j] = d.rank[j - 1]
        j -= 1
    d.strength[j] = strength
    d.rank[j] = r
    d.n += 1
    d.cum[0] = 0
    for j in range(d.n):
        d.cum[j + 1] = d.cum[j] | (1 << d.rank[j])


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


cdef bint deal_init(Deal* D, int up, const uint8_t* known, int n_known, int qualifier) noexcept nogil:
    # known: every card out of the deck besides the up-card (the player's, thrown away, dead);
    # True when the rank-level part is the previous deal's (pref of the dealt deck too)
    cdef int i, c, r
    cdef uint8_t seen[52]
    cdef int a0[13]
    cdef bint same, up_same
    for i in range(52):
        seen[i] = 0
    for i in range(n_known):
        seen[known[i]] = 1
    seen[up] = 1
    D.up = up
    D.sigma = up & 3
    D.n0 = 0
    for r in range(13):
        a0[r] = 0
    for i in range(4):
        D.ys0[i] = 0
    for c in range(52):
        if not seen[c]:
            D.n0 += 1
            a0[c >> 2] += 1
            D.ys0[c & 3] |= 1 << (c >> 2)
    # the up rank's part is kept from the previous deal of the same up rank (callers set
    # ranks_valid = 0 on a new Deal)
    up_same = D.ranks_valid and D.rho == (up >> 2) and D.qualifier == qualifier
    same = up_same
    for r in range(13):
        same = same and D.a0[r] == a0[r]
        D.a0[r] = a0[r]
    D.rho = up >> 2
    D.qualifier = qualifier
    D.ranks_valid = 1
    if not up_same:
        _deal_ranks(D, qualifier)
    _deal_flushes(D)
    _anchors_begin(D)
    return same


cdef Deal* RANK_CACHE[13]             # the part of _deal_ranks of each up rank (one qualifier)
for _r in range(13):
    RANK_CACHE[_r] = NULL


cdef void _deal_ranks(Deal* D, int qualifier) noexcept nogil:
    # what depends on the up rank alone: computed once per up rank and qualifier, then copied
    cdef Deal* c = RANK_CACHE[D.rho]
    cdef Deal keep
    if c == NULL:
        c = <Deal*> malloc(sizeof(Deal))
        c.qualifier = -1
        RANK_CACHE[D.rho] = c
    if c.qualifier != qualifier:
        c.rho = D.rho
        _deal_ranks_of(c, qualifier)
        c.qualifier = qualifier
    # the deal's own fields survive the copy
    keep.up, keep.sigma, keep.n0, keep.a0, keep.ys0 = D.up, D.sigma, D.n0, D.a0, D.ys0
    memcpy(D, c, sizeof(Deal))
    D.up, D.sigma, D.n0, D.a0, D.ys0 = keep.up, keep.sigma, keep.n0, keep.a0, keep.ys0
    D.ranks_valid = 1


cdef void _deal_ranks_of(Deal* D, int qualifier) noexcept nogil:
    # the part of a deal that depends on the up rank alone (and the qualifier)
    cdef const EvalTables* t = tables()
    cdef int i, j, k, r, n, s, top
    cdef uint32_t kept_key
    cdef uint16_t kept
    cdef int tmp_s[N_MULTI]
    cdef int idx[N_MULTI]
    n = 0
    for i in range(N_DISTINCT):
        if not (DS_MASK[i] >> D.rho) & 1:
            D.all_mask_by_fl[n] = DS_MASK[i]
            D.all_mask_by_nf[n] = DS_MASK[i]
            D.all_by_fl[n] = t.flush_table[DS_MASK[i] | (1 << D.rho)]
            D.all_by_nf[n] = t.rank_table[key_of_mask(DS_MASK[i]) + RK[D.rho]]
            n += 1
    D.n_flush_all = n
    _sort_pairs(D.all_by_fl, D.all_mask_by_fl, n)
    _sort_pairs(D.all_by_nf, D.all_mask_by_nf, n)
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
        for k in range(4):
            D.ms_code[j][k] = 5 * MS_R[idx[i]][k] + MS_M[idx[i]][k] if k < MS_N[idx[i]] else 65
    free(count)
    j = 0
    for s in range(N_STRENGTH + 1):
        while j < n and D.ms_strength[j] < s:
            j += 1
        D.ms_below[s] = j
    # sets of four distinct hidden ranks other than the up rank (the only non-qualifying shapes)
    n = 0
    for i in range(N_DISTINCT):
        if not (DS_MASK[i] >> D.rho) & 1:
            D.ds_mask[n] = DS_MASK[i]
            D.ds_strength[n] = t.rank_table[key_of_mask(DS_MASK[i]) + RK[D.rho]]
            top = 12
            while not (((DS_MASK[i] | (1 << D.rho)) >> top) & 1):
                top -= 1
            D.ds_top[n] = top
            j = 0
            for r in range(13):
                if (DS_MASK[i] >> r) & 1:
                    D.ds_rank[n][j] = r
                    j += 1
            kept = (DS_MASK[i] | (1 << D.rho)) & ~(1 << top)
            kept_key = key_of_mask(kept)
            D.ds_qual[n] = 0
            D.ds_plain[n].n = 0
            D.ds_flush[n].n = 0
            D.ds_plain[n].cum[0] = 0
            D.ds_flush[n].cum[0] = 0
            for r in range(13):
                s = t.rank_table[kept_key + RK[r]]
                if r != top and s >= qualifier:
                    D.ds_qual[n] |= 1 << r
                    _draws_add(&D.ds_plain[n], s, r)
                s = t.flush_table[kept | (1 << r)]
                if not (kept >> r) & 1 and s >= qualifier:
                    _draws_add(&D.ds_flush[n], s, r)
            n += 1
    D.n_ds = n
    D.n_buyable = 0
    D.any_thrown = False
    for s in range(N_STRENGTH):
        D.band[s] = 0
    for i in range(n):
        if D.ds_strength[i] < qualifier:
            D.buyable[D.n_buyable] = i
            D.n_buyable += 1
            D.any_thrown = D.any_thrown or D.ds_top[i] == D.rho
            for j in range(D.ds_plain[i].n):
                D.band[D.ds_plain[i].strength[j]] = 1
            for j in range(D.ds_flush[i].n):
                D.band[D.ds_flush[i].strength[j]] = 1
    # band: twice the number of draw strengths below, plus one on a draw strength
    j = 0
    for s in range(N_STRENGTH):
        k = D.band[s]
        D.band[s] = 2 * j + k
        j += k


cdef void _deal_flushes(Deal* D) noexcept nogil:
    # dealer flushes: four unseen cards of the up suit, from the up rank's sorted lists
    cdef int i, n = 0
    cdef uint16_t ys = D.ys0[D.sigma]
    for i in range(D.n_flush_all):
        if (D.all_mask_by_fl[i] & ys) == D.all_mask_by_fl[i]:
            D.fl_mask_by_fl[n] = D.all_mask_by_fl[i]
            D.fl_by_fl[n] = D.all_by_fl[i]
            n += 1
    n = 0
    for i in range(D.n_flush_all):
        if (D.all_mask_by_nf[i] & ys) == D.all_mask_by_nf[i]:
            D.fl_mask_by_nf[n] = D.all_mask_by_nf[i]
            D.fl_by_nf[n] = D.all_by_nf[i]
            n += 1
    D.n_flush = n


cdef inline void _ways(const int* a, uint8_t* ways) noexcept nogil:
    # C(a_r, m) at 5 r + m; the padding code 65 counts 1
    cdef int r, m
    for r in range(13):
        for m in range(5):
            ways[5 * r + m] = BINOM[a[r]][m] if m <= a[r] else 0
    ways[65] = 1


cdef inline int64_t _hands(const Deal* D, const uint8_t* ways, int i) noexcept nogil:
    # dealer hands of the i-th weakest hidden rank multiset
    cdef const uint8_t* c = D.ms_code[i]
    return (<int64_t> ways[c[0]]) * ways[c[1]] * ways[c[2]] * ways[c[3]]


cdef struct Anchors:
    # the anchors of one deal (its deck a0 and up rank): for every multiset sigma of at most
    # four ranks and every anchor k, the hands of a0 below place k * ANCHOR_STEP that hold
    # sigma, counted with sigma's cards taken out: G_sigma(k), at g[k * N_SIGMA + sigma] (an
    # anchor's row, 9.5 KB, stays in cache while the decks of a deal read it: most read the
    # anchor next to the qualifier)
    int rho                           # -1: none yet
    int a0[13]
    bint current                      # of the deal last begun (deal_init): rows of several deals interleave
    int32_t* g                        # at most C(47, 4): int32 halves what the reads bring into cache


cdef Anchors _ANCHORS
_ANCHORS.rho = -1
_ANCHORS.current = False
_ANCHORS.g = <int32_t*> malloc(N_SIGMA * N_ANCHOR * sizeof(int32_t))
if _ANCHORS.g == NULL:
    raise MemoryError("no memory for the blind prefix's anchors")


cdef void _anchors_begin(const Deal* D) noexcept nogil:
    # the anchors counted last serve the deal begun if its deck and up rank are theirs; else
    # they are counted at its first anchor read (a kernel call reads the rows of its deal alone)
    _ANCHORS.current = _ANCHORS.rho == D.rho and memcmp(_ANCHORS.a0, D.a0, sizeof(_ANCHORS.a0)) == 0


cdef void _anchors_count(const Deal* D) noexcept nogil:
    # G of the deal: each multiset m adds, to each sigma within it, C(a0_r - sigma_r, m_r - sigma_r)
    # over its ranks, from the first anchor above its place on (a sum over the anchors after)
    cdef int32_t* g = _ANCHORS.g
    cdef const Sub* sub
    cdef int j, p, t, ms, cell
    cdef int64_t v
    memset(g, 0, N_SIGMA * N_ANCHOR * sizeof(int32_t))
    for j in range(D.n_ms):
        cell = j // ANCHOR_STEP + 1
        if cell >= N_ANCHOR:
            break                     # above the last anchor
        ms = D.ms_order[j]
        for t in range(SUB_START[MS_PLACE[ms]], SUB_START[MS_PLACE[ms] + 1]):
            sub = &SUB[t]
            v = 1
            for p in range(MS_N[ms]):
                v *= BINOM[D.a0[MS_R[ms][p]] - sub.take[p]][MS_M[ms][p] - sub.take[p]] \
                    if D.a0[MS_R[ms][p]] >= sub.take[p] else 0
            g[cell * N_SIGMA + sub.sigma] += v
    for cell in range(1, N_ANCHOR):
        for j in range(N_SIGMA):
            g[cell * N_SIGMA + j] += g[(cell - 1) * N_SIGMA + j]
    memcpy(_ANCHORS.a0, D.a0, sizeof(_ANCHORS.a0))
    _ANCHORS.rho = D.rho
    _ANCHORS.current = True


cdef int64_t _anchor(const Deal* D, int64_t* pref, int k) noexcept nogil:
    # the prefix at place k * ANCHOR_STEP, counted once per row by inclusion-exclusion: the
    # deck is a0 less its new cards d, and C(a0_r - d_r, m) = sum over s of (-1)^s C(d_r, s)
    # C(a0_r - s, m - s); so the count is the sum over the sub-multisets sigma of d of
    # (-1)^|sigma| C(d, sigma) G_sigma(k)
    cdef const int32_t* row
    cdef int t, d = <int> pref[PREFIX_NEW]
    cdef int64_t v = 0
    if (pref[PREFIX_ANCHORED] >> k) & 1:
        return pref[PREFIX_ANCHOR + k]
    if not _ANCHORS.current:
        _anchors_count(D)
    row = _ANCHORS.g + k * N_SIGMA
    for t in range(SUB_START[d], SUB_START[d + 1]):
        v += (<int64_t> SUB[t].coef) * row[SUB[t].sigma]
    pref[PREFIX_ANCHOR + k] = v
    pref[PREFIX_ANCHORED] |= (<int64_t> 1) << k
    return v


cdef void prefix_start(const Deal* D, const int* a, int64_t* pref) noexcept nogil:
    # the row of the deck a: no anchor counted but the first (no hand below the weakest
    # multiset); below none of the multisets every hand of four of the deck's N cards, C(N, 4)
    # (the sum over the multisets of the products of C(a_r, m_r) is Vandermonde's; the
    # multisets left out, four of the up rank, have no hand); the deck's C(a_r, m); and the
    # place of its new cards d = a0 - a, whose sub-multisets are its anchors' terms
    cdef int r, nd = 0
    cdef int64_t total = 0
    cdef int rank[5]
    cdef int top[5]
    for r in range(13):
        total += a[r]
        if a[r] != D.a0[r]:
            if a[r] > D.a0[r] or nd == 5:
                abort()               # cannot happen: a deck is the deal's less at most five cards
            rank[nd] = r
            top[nd] = D.a0[r] - a[r]
            nd += 1
    pref[PREFIX_ANCHORED] = 1
    pref[PREFIX_ANCHOR] = 0
    pref[PREFIX_TOTAL] = total * (total - 1) * (total - 2) * (total - 3) // 24
    _ways(a, <uint8_t*> (pref + PREFIX_WAYS))
    pref[PREFIX_NEW] = ms_index(rank, top, nd)


cdef int64_t prefix_at(const Deal* D, int64_t* pref, int i) noexcept nogil:
    # the deck's hidden hands of the i weakest multisets: from the nearest anchor (or the
    # last place), adding or taking away the multisets between (at most ANCHOR_STEP / 2)
    cdef int j, lo = i // ANCHOR_STEP * ANCHOR_STEP
    cdef int hi = lo + ANCHOR_STEP if lo + ANCHOR_STEP < D.n_ms else D.n_ms
    cdef const uint8_t* ways = <const uint8_t*> (pref + PREFIX_WAYS)
    cdef int64_t total
    if i - lo <= hi - i:
        total = _anchor(D, pref, lo // ANCHOR_STEP)
        for j in range(lo, i):
            total += _hands(D, ways, j)
    else:
        total = pref[PREFIX_TOTAL] if hi == D.n_ms else _anchor(D, pref, hi // ANCHOR_STEP)
        for j in range(i, hi):
            total -= _hands(D, ways, j)
    return total


cdef void flush_filter(const Deal* D, int sigmask, Filter* f) noexcept nogil:
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
    f.fl_lo = f.by_fl[0] if n else N_STRENGTH + 1
    f.fl_hi = f.by_fl[n - 1] if n else N_STRENGTH + 1
    f.nf_lo = f.by_nf[0] if n else N_STRENGTH + 1
    f.nf_hi = f.by_nf[n - 1] if n else N_STRENGTH + 1
    f.gap_lo = f.gap_hi = N_STRENGTH + 1
    f.n_low = 0
    for i in range(1, n):
        if f.by_nf[i] - f.by_nf[i - 1] > f.gap_hi - f.gap_lo or f.gap_lo > N_STRENGTH:
            f.gap_lo = f.by_nf[i - 1]
            f.gap_hi = f.by_nf[i]
            f.n_low = i
    f.at_qualifier = flush_part(f, D.qualifier)


def blind_below(int up, const uint8_t[::1] known, strengths, new=()):
    """For the tests: the dealer hands of the deal's deck less the cards ``new`` (at most five)
    below each of ``strengths`` by ranks alone (flushes counted at their rank strength), read in
    that order from one prefix, each from its nearest anchor (prefix_at).
    ``known``: every card out of the deck but the up-card."""
    cdef Deal* D
    cdef int64_t* pref
    cdef int a[13]
    cdef int s, r
    if not 0 <= up < 52 or any(c >= 52 or c == up for c in known):
        raise ValueError("cards are codes 0 to 51, the up-card not among the known")
    if len(new) > 5 or len(set(new)) != len(new) or any(not 0 <= c < 52 or c == up or c in known for c in new):
        raise ValueError("new cards are at most five distinct cards of the deck")
    D = <Deal*> malloc(sizeof(Deal))
    pref = <int64_t*> malloc(PREFIX_ROW * sizeof(int64_t))
    if D == NULL or pref == NULL:
        free(D)
        free(pref)
        raise MemoryError("no memory for a deal")
    D.ranks_valid = 0
    try:
        # the qualifier does not change these counts (its up rank's part is made again for it)
        deal_init(D, up, &known[0] if known.shape[0] else NULL, known.shape[0], 0)
        for r in range(13):
            a[r] = D.a0[r]
        for c in new:
            a[c >> 2] -= 1
        prefix_start(D, a, pref)
        out = []
        for s in strengths:
            if not 0 <= s <= N_STRENGTH:
                raise ValueError(f"strength {s} out of range")
            out.append(prefix_at(D, pref, D.ms_below[s]))
        return out
    finally:
        free(D)
        free(pref)
