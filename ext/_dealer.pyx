# cython: language_level=3
"""Fast exact solver of one deal: every option's EV as exact integer numerators.

The dealer side is counted by ranks (RULES §5, DESIGN-NOTES §2): the dealer's four hidden cards
form one of 1,820 rank multisets m, with prod C(a_r, m_r) completions for the deck's rank counts
a. Sorted by strength once per deal, their weights give, by a prefix sum and a binary search,
how many dealer hands lie below a player's strength. Dealer flushes (all four hidden cards in the
up-card's suit) are moved from their rank strength to their flush strength from a per-deal list.
Buying a game is evaluated per non-qualifying rank set of the dealer, split into the suit
classes that matter (no flush draw; a flush draw in a given suit), from the stub's rank counts.
A draw after a buy is worth best_pay, 0 or -3 by how it compares with the player, so players of
one *band* (between two consecutive draw strengths of the deal) share a buy plan: its rank-level
part is made once per deck and band (BuyPlan) and finished per suit pattern of the new cards.
Rank sets are visited by a bound on their gain (BuyOrder, per band), stopping where no buy pays.

Exchange outcomes are enumerated by the rank multiset of the new cards (the dealer's rank counts
are shared by all its suit assignments) and, inside it, by the new cards of the up-card's suit.
"""
import numpy as np
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t, uint64_t, int32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from solver._eval cimport EvalTables, tables, eval5, eval6, payout_detail, N_STRENGTH
from solver._settle cimport Settings, settle, falling

cdef extern from *:
    ctypedef long long int128 "__int128"
    int __builtin_ctz(unsigned int) nogil

DEF N_MULTI = 1820      # multisets of four ranks
DEF N_DISTINCT = 715    # sets of four distinct ranks
DEF MAX_FLUSH = 495     # four-card subsets of the 12 unseen cards of one suit
DEF MAX_SLOTS = 2048
DEF N_ORDERS = 64       # buy orders kept per number of exchanged cards

cdef int BINOM[6][6]
cdef uint8_t MS_RANK[N_MULTI][4]      # the four ranks, ascending
cdef uint8_t MS_N[N_MULTI]            # distinct ranks
cdef uint8_t MS_R[N_MULTI][4]         # distinct ranks
cdef uint8_t MS_M[N_MULTI][4]         # their multiplicities
cdef uint16_t DS_MASK[N_DISTINCT]     # four distinct ranks as a bit set
cdef uint32_t RK[13]                  # additive rank key of each rank (as the _eval tables)
cdef uint8_t POP[8192]                # bits set in a rank bit set (portable: no popcnt needed)


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
    POP[0] = 0
    for i in range(1, 8192):
        POP[i] = POP[i >> 1] + (i & 1)
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


cdef struct Draws:
    # the qualifying draws of a dealer after a buy, by strength: which of them a player beats,
    # ties and loses to are prefixes of the list (masks from ``cum``)
    int n
    int strength[13]                  # ascending
    uint8_t rank[13]
    uint16_t cum[14]                  # cum[k]: the ranks of the k weakest draws


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


cdef inline int _draws_below(const Draws* d, int player) noexcept nogil:
    # how many draws are weaker than the player (a short list: a linear scan)
    cdef int k = 0
    while k < d.n and d.strength[k] < player:
        k += 1
    return k


cdef struct Deal:
    int up, rho, sigma, n0
    int ranks_valid                   # the rank-level part below is that of (rho, a0, qualifier)
    int qualifier
    int a0[13]
    uint16_t ys0[4]                   # unseen cards of each suit, as rank bit sets
    int n_ms
    int ms_order[N_MULTI]             # hidden multisets of this up rank, by rank strength
    int ms_strength[N_MULTI]          # their strengths, ascending
    uint8_t ms_code[N_MULTI][4]       # their (rank, multiplicity) pairs as 5 r + m, padded with 65
    int n_flush_all                   # four ranks other than the up rank: the flushes possible
    uint16_t all_mask_by_fl[MAX_FLUSH]
    int all_by_fl[MAX_FLUSH]          # by flush strength (ascending)
    uint16_t all_mask_by_nf[MAX_FLUSH]
    int all_by_nf[MAX_FLUSH]          # by the strength of the same ranks without the flush
    int n_flush                       # four-card subsets of the up suit's unseen cards
    uint16_t fl_mask_by_fl[MAX_FLUSH]
    int fl_by_fl[MAX_FLUSH]           # their flush strengths, ascending
    uint16_t fl_mask_by_nf[MAX_FLUSH]
    int fl_by_nf[MAX_FLUSH]           # their rank strengths, ascending
    int n_ds                          # four distinct hidden ranks without the up rank
    uint16_t ds_mask[N_DISTINCT]
    int ds_strength[N_DISTINCT]       # rank strength of the dealer's five distinct ranks
    uint16_t ds_qual[N_DISTINCT]      # ranks whose draw after a buy qualifies (suits aside)
    Draws ds_plain[N_DISTINCT]        # those draws by strength
    int ds_q0[N_DISTINCT]             # the deck's cards of those ranks, the hidden ones out
    int n_buyable
    int buyable[N_DISTINCT]           # the rank sets that do not qualify
    int band[N_STRENGTH]              # players of one band compare alike with every draw after a buy
    Draws ds_flush[N_DISTINCT]        # the draws of a rank not kept in the kept cards' suit
    int ds_top[N_DISTINCT]            # the rank the dealer throws when buying
    uint8_t ds_rank[N_DISTINCT][4]    # the four hidden ranks


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


cdef bint _deal_init(Deal* D, int up, const uint8_t* known, int n_known, int qualifier) noexcept nogil:
    # known: every card out of the deck besides the up-card (the player's, thrown away, dead);
    # True when the rank-level part is the previous deal's (pref of the dealt deck too)
    cdef int i, c, r
    cdef uint8_t seen[52]
    cdef int a0[13]
    cdef bint same
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
    # the rank-level part is kept from the previous deal of the same ranks (callers set
    # ranks_valid = 0 on a new Deal)
    same = D.ranks_valid and D.rho == (up >> 2) and D.qualifier == qualifier
    for r in range(13):
        same = same and D.a0[r] == a0[r]
        D.a0[r] = a0[r]
    D.rho = up >> 2
    D.qualifier = qualifier
    D.ranks_valid = 1
    if not same:
        _deal_ranks(D, qualifier)
        _deal_counts(D)
    _deal_flushes(D)
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


cdef void _deal_counts(Deal* D) noexcept nogil:
    # what depends on the deck's rank counts: the stub's qualifying draws of each rank set
    cdef int i, r
    for i in range(D.n_ds):
        D.ds_q0[i] = 0
        for r in range(13):
            if (D.ds_qual[i] >> r) & 1:
                D.ds_q0[i] += D.a0[r] - ((D.ds_mask[i] >> r) & 1)


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
            D.all_by_nf[n] = t.rank_table[_key_of_mask(DS_MASK[i]) + RK[D.rho]]
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
            j = 0
            for r in range(13):
                if (DS_MASK[i] >> r) & 1:
                    D.ds_rank[n][j] = r
                    j += 1
            kept = (DS_MASK[i] | (1 << D.rho)) & ~(1 << top)
            kept_key = _key_of_mask(kept)
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
    for s in range(N_STRENGTH):
        D.band[s] = 0
    for i in range(n):
        if D.ds_strength[i] < qualifier:
            D.buyable[D.n_buyable] = i
            D.n_buyable += 1
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


cdef inline uint32_t _key_of_mask(uint16_t mask) noexcept nogil:
    cdef uint32_t key = 0
    cdef int r
    for r in range(13):
        if (mask >> r) & 1:
            key += RK[r]
    return key


cdef void _blind_prefix(const Deal* D, const int* a, int64_t* pref) noexcept nogil:
    # pref[i]: dealer hands among the i weakest hidden rank multisets (suits ignored)
    cdef int i, r, m
    cdef int64_t ways[66]             # C(a_r, m) at 5 r + m; the padding code 65 counts 1
    cdef int64_t total = 0
    for r in range(13):
        for m in range(5):
            ways[5 * r + m] = BINOM[a[r]][m] if m <= a[r] else 0
    ways[65] = 1
    pref[0] = 0
    for i in range(D.n_ms):
        total += (ways[D.ms_code[i][0]] * ways[D.ms_code[i][1]]
                  * ways[D.ms_code[i][2]] * ways[D.ms_code[i][3]])
        pref[i + 1] = total


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


cdef int64_t _buy_class(int64_t S, int64_t c, int64_t m, int redraws) noexcept nogil:
    # numerator over falling(m, redraws + 1): S sums the non-redraw outs, c redraw cards
    if redraws == 0:
        return S
    return S * falling(m - 1, redraws) + c * _buy_class(S, c - 1, m - 1, redraws - 1)


cdef inline void _redraw_factors(int m, int redraws, int64_t* g) noexcept nogil:
    # E[buy] is linear in S, the sum over the non-redraw draws: E = S g[c], c redraw cards
    cdef int c
    for c in range(5):
        g[c] = _buy_class(1, c, m, redraws)


cdef struct Gone:
    # a deck as the deal's less a few cards: the ranks it lost, how many of each
    int n
    int rank[13]
    int count[13]


cdef inline void _gone(const Deal* D, const int* a, Gone* gone) noexcept nogil:
    cdef int r
    gone.n = 0
    for r in range(13):
        if a[r] != D.a0[r]:
            gone.rank[gone.n] = r
            gone.count[gone.n] = D.a0[r] - a[r]
            gone.n += 1


cdef inline int _qualifying_draws(const Deal* D, int i, const Gone* gone) noexcept nogil:
    # the stub's cards after which a dealer of rank set i qualifies once it buys, suits aside
    cdef int e, q = D.ds_q0[i]
    for e in range(gone.n):
        if (D.ds_qual[i] >> gone.rank[e]) & 1:
            q -= gone.count[e]
    return q


cdef struct BuyOrder:
    # The non-qualifying rank sets of the dealer for one deck, best qualifying chance first.
    int n
    int idx[N_DISTINCT]
    int64_t qmax[N_DISTINCT]      # numerator of the best chance to qualify, flush draws included


cdef inline int _draws_won(const Draws* d, const int* a, uint16_t h, int player, int* e) noexcept nogil:
    # the stub's cards (deck a less the hidden ranks h) whose draw the player beats; e: how
    # many of the draws those are
    cdef int k = 0, w = 0, r
    while k < d.n and d.strength[k] < player:
        r = d.rank[k]
        w += a[r] - ((h >> r) & 1)
        k += 1
    e[0] = k
    return w


cdef void _buy_order(const Deal* D, const Settings* st, const int* a, const uint16_t* ys, int ysize,
                     int player, BuyOrder* o) noexcept nogil:
    # The same for every deck within (a, ys) and every player of the band of ``player``.
    # The bound is g[c] (w + outs): the draws and the flush draw's outs the player beats, c <= 4
    # redraw cards, w + outs <= 47 cards: a bucket sort.
    cdef int i, j, r, w, top, tau, best_outs, n = 0, m = ysize - 4, key, best, u, e
    cdef uint16_t h, lower, fwin
    cdef int64_t g[5]
    cdef int cls_key[N_DISTINCT]
    cdef int cls_i[N_DISTINCT]
    cdef int start[5 * 48 + 1]
    cdef int64_t value[5 * 48]
    cdef int rank_of_key[5 * 48]
    cdef int by_value[5 * 48]
    _redraw_factors(m, st.redraws, g)
    for u in range(D.n_buyable):
        i = D.buyable[u]
        if not (a[D.ds_rank[i][0]] and a[D.ds_rank[i][1]] and a[D.ds_rank[i][2]] and a[D.ds_rank[i][3]]):
            continue  # a rank the deck no longer has: no dealer hand of this shape
        h = D.ds_mask[i]
        w = _draws_won(&D.ds_plain[i], a, h, player, &e)
        fwin = D.ds_flush[i].cum[_draws_below(&D.ds_flush[i], player)]
        top = D.ds_top[i]
        best_outs = 0
        if top != D.rho:
            lower = h & ~(1 << top)
            if (ys[D.sigma] & lower) == lower:
                best_outs = _popcount(ys[D.sigma] & fwin)
        else:
            for tau in range(4):
                if tau != D.sigma and (ys[tau] & h) == h:
                    best_outs = max(best_outs, _popcount(ys[tau] & fwin))
        if w + best_outs == 0:
            continue  # the buy never pays
        cls_key[n] = (a[top] - ((h >> top) & 1)) * 48 + w + best_outs
        cls_i[n] = i
        n += 1
    # order the possible keys by their bound, largest first: within one c the bound falls with
    # q + outs, so a merge of the five runs
    cdef int head[5]
    for key in range(5 * 48):
        value[key] = g[key // 48] * (key % 48)
    for r in range(5):
        head[r] = 47
    for j in range(5 * 48):
        best = -1
        for r in range(5):
            if head[r] >= 0 and (best < 0 or value[r * 48 + head[r]] > value[best * 48 + head[best]]):
                best = r
        by_value[j] = best * 48 + head[best]
        head[best] -= 1
    for j in range(5 * 48):
        rank_of_key[by_value[j]] = j
    for j in range(5 * 48 + 1):
        start[j] = 0
    for i in range(n):
        start[rank_of_key[cls_key[i]] + 1] += 1
    for j in range(5 * 48):
        start[j + 1] += start[j]
    for i in range(n):
        j = start[rank_of_key[cls_key[i]]]
        start[rank_of_key[cls_key[i]]] += 1
        o.idx[j] = cls_i[i]
        o.qmax[j] = value[cls_key[i]]
    o.n = n


cdef struct BuyPlan:
    # The buy's part of one deck (rank counts a) and one player, for every rank set of the dealer
    # that can gain from buying: what does not depend on which cards of the up suit (ys_sigma
    # at most) or of the other suits are still unseen. _plan_excess and _other_suit_delta finish
    # it for a given deck, so groups of outcomes that differ only in those cards share it.
    # A draw is worth best_pay if the player beats it, 0 on a tie or if the dealer still does
    # not qualify, -3 if it beats the player: the ranks of each kind are bit sets.
    int n
    int idx[N_DISTINCT]               # the rank set of each candidate
    int64_t S[N_DISTINCT]             # sum of the plain draw values over the stub
    int64_t v[N_DISTINCT]             # excess of one dealer hand without a flush draw
    int c[N_DISTINCT]                 # redraw cards in the stub
    bint has_gain[N_DISTINCT]         # a flush draw can beat taking the ante
    uint16_t win[N_DISTINCT]          # plain draws the player beats
    uint16_t lose[N_DISTINCT]         # plain draws that beat the player
    uint16_t fwin[N_DISTINCT]         # the same for draws in the kept cards' suit (flushes)
    uint16_t flose[N_DISTINCT]
    int64_t G[N_DISTINCT]             # what the up suit's outs (ys_sigma) add to S in a flush draw
    int n_up
    int up_pos[N_DISTINCT]            # candidates whose kept hidden cards can be of the up suit
    int n_thrown
    int thrown_pos[N_DISTINCT]        # candidates where the dealer throws the up-card
    int64_t base                      # sum of count * v
    uint16_t ys_sigma
    int64_t best_pay
    int64_t g[5]
    int64_t threshold


cdef inline int64_t _gain(const BuyPlan* b, int k, unsigned int outs) noexcept nogil:
    # what drawing the ranks ``outs`` in the kept cards' suit adds to S: a flush (or a straight
    # flush) instead of the plain draw (the thrown rank's plain draw is a redraw, worth 0)
    return (b.best_pay * (POP[outs & b.fwin[k]] - POP[outs & b.win[k]])
            + 3 * (POP[outs & b.lose[k]] - POP[outs & b.flose[k]]))


cdef void _buy_plan(const Deal* D, const Settings* st, const int* a, const uint16_t* ys, int ysize,
                    int player, int p, const BuyOrder* order, BuyPlan* b) noexcept nogil:
    """Fill ``b`` for the deck (a, ys); ``ys`` may be a superset of the unseen cards by suit.

    E[buy] is at most best_pay times the chance to qualify after the buy. ``order`` (from
    _buy_order, for this deck or a superset of it, and this player's band) lists the rank sets
    by that chance, so the loop stops at the first set where even winning every time could not
    beat taking the ante; without it (a plan used once) every rank set is looked at.
    """
    cdef int i, j, k, e, r, top, tau, sigma = D.sigma, rho = D.rho
    cdef int m = ysize - 4
    cdef int64_t threshold = (st.buy_fee + 1) * falling(m, st.redraws + 1)
    cdef int64_t best_pay = 2 * p + st.win_extra
    cdef int64_t count, S, c, v, q, gc, w, tie
    cdef uint16_t h, lower
    cdef const Draws* d
    cdef const Draws* fd
    cdef int fe
    cdef uint16_t fwin
    cdef bint plain_ok, fd_ok
    cdef Gone gone
    _gone(D, a, &gone)
    _redraw_factors(m, st.redraws, b.g)
    b.threshold = threshold
    b.best_pay = best_pay
    b.ys_sigma = ys[sigma]
    b.n = 0
    b.n_up = 0
    b.n_thrown = 0
    b.base = 0
    for j in range(order.n if order != NULL else D.n_buyable):
        if order == NULL:
            i = D.buyable[j]
        elif best_pay * order.qmax[j] <= threshold:
            break
        else:
            i = order.idx[j]
        h = D.ds_mask[i]
        top = D.ds_top[i]
        lower = h & ~(1 << top)
        q = _qualifying_draws(D, i, &gone)
        c = a[top] - ((h >> top) & 1)
        gc = b.g[c]
        # only the w stub cards whose draw qualifies below the player pay, best_pay each
        d = &D.ds_plain[i]
        w = _draws_won(d, a, h, player, &e)
        plain_ok = best_pay * w * gc > threshold
        # flush draws: the up-card kept with three hidden cards of its suit, or thrown with four
        # hidden cards of another suit; the outs that make a flush below the player bound them
        fd = &D.ds_flush[i]
        fe = _draws_below(fd, player)
        fwin = fd.cum[fe]
        fd_ok = False
        if top != rho:
            if (ys[sigma] & lower) == lower:
                fd_ok = best_pay * (w + _popcount(ys[sigma] & fwin)) * gc > threshold
        else:
            for tau in range(4):
                if tau != sigma and (ys[tau] & h) == h:
                    if best_pay * (w + _popcount(ys[tau] & fwin)) * gc > threshold:
                        fd_ok = True
        if not plain_ok and not fd_ok:
            continue
        count = (<int64_t> a[D.ds_rank[i][0]]) * a[D.ds_rank[i][1]] * a[D.ds_rank[i][2]] * a[D.ds_rank[i][3]]
        if count == 0:
            continue
        k = b.n
        b.n += 1
        b.win[k] = d.cum[e]
        tie = 0
        while e < d.n and d.strength[e] == player:
            r = d.rank[e]
            tie += a[r] - ((h >> r) & 1)
            e += 1
        b.lose[k] = D.ds_qual[i] & ~d.cum[e]
        S = best_pay * w - 3 * (q - w - tie)
        v = S * gc - threshold
        v = v if v > 0 else 0
        b.idx[k] = i
        b.S[k] = S
        b.v[k] = v
        b.c[k] = c
        b.base += count * v
        b.has_gain[k] = fd_ok
        if fd_ok:
            b.fwin[k] = fwin
            while fe < fd.n and fd.strength[fe] == player:
                fe += 1
            b.flose[k] = fd.cum[fd.n] & ~fd.cum[fe]
        if (ys[sigma] & lower) == lower:
            b.up_pos[b.n_up] = k
            b.n_up += 1
            if fd_ok and top != rho:
                b.G[k] = _gain(b, k, ys[sigma] & ~lower)
        if top == rho:
            b.thrown_pos[b.n_thrown] = k
            b.n_thrown += 1


cdef int64_t _plan_excess(const Deal* D, const BuyPlan* b, const int* a, uint16_t ys_sigma) noexcept nogil:
    """Sum over the non-qualifying dealer hands of max(0, E[buy] - fee - 1), over falling(|Z|, R+1),
    when the up suit's unseen cards are ``ys_sigma`` (within the plan's): a dealer that throws the
    up-card is counted here as having no flush draw (see _other_suit_delta)."""
    cdef int u, k, i, top
    cdef uint16_t h, lower, removed = b.ys_sigma & ~ys_sigma
    cdef int64_t total = b.base, v, fd, c, w
    for u in range(b.n_up):
        k = b.up_pos[u]
        i = b.idx[k]
        h = D.ds_mask[i]
        top = D.ds_top[i]
        lower = h & ~(1 << top)
        if (ys_sigma & lower) != lower:
            continue
        v = b.v[k]
        if (ys_sigma & h) == h:
            total -= v  # the four hidden cards of the up suit: a flush, not a buy
        if top == D.rho:
            continue
        fd = a[top] - ((ys_sigma >> top) & 1)
        if fd <= 0:
            continue
        # fd hands hold the three lower cards in the up suit and the top card in another
        total -= fd * v
        if b.has_gain[k]:
            # the outs gone from the plan's are none of the lower ranks; the thrown rank in
            # the up suit is an out, not a redraw
            c = b.c[k] - ((ys_sigma >> top) & 1)
            w = (b.S[k] + b.G[k] - _gain(b, k, removed)) * b.g[c] - b.threshold
            if w > 0:
                total += fd * w
    return total


cdef int64_t _other_suit_delta(const Deal* D, const BuyPlan* b, uint16_t ys_tau) noexcept nogil:
    """What flush draws in one suit other than the up-card's add to _plan_excess.

    ``ys_tau``: the unseen cards of that suit (within the plan's). A dealer that throws the
    up-card and holds four hidden cards of that suit draws to a flush: its excess is that of the
    flush draw, not the plain one.
    """
    cdef int u, k, top
    cdef uint16_t h, outs
    cdef int64_t total = 0, w
    for u in range(b.n_thrown):
        k = b.thrown_pos[u]
        h = D.ds_mask[b.idx[k]]
        if (ys_tau & h) != h or not b.has_gain[k]:
            continue  # without has_gain both excesses are 0
        outs = ys_tau & ~h
        top = D.ds_top[b.idx[k]]
        w = (b.S[k] + _gain(b, k, outs)) * b.g[b.c[k] - ((outs >> top) & 1)] - b.threshold
        total += (w if w > 0 else 0) - b.v[k]
    return total


cdef int64_t _buy_excess(const Deal* D, const Settings* st, const int* a, const uint16_t* ys,
                         int ysize, int player, int p, const BuyOrder* order) noexcept nogil:
    # the whole excess of one deck, flush draws in every suit included
    cdef BuyPlan* b = <BuyPlan*> malloc(sizeof(BuyPlan))
    cdef int64_t total
    cdef int tau
    _buy_plan(D, st, a, ys, ysize, player, p, order, b)
    total = _plan_excess(D, b, a, ys[D.sigma])
    for tau in range(4):
        if tau != D.sigma:
            total += _other_suit_delta(D, b, ys[tau])
    free(b)
    return total


cdef inline int _popcount(unsigned int x) noexcept nogil:
    return POP[x]


cdef inline bint _buys(const Settings* st, int player, int p) noexcept nogil:
    # buying a game can beat taking the ante only if winning pays more than the fee and the ante
    return st.buy_on and player >= st.buy_from and 2 * p + st.win_extra > st.buy_fee + 1


cdef int64_t _value(const Deal* D, const Settings* st, const int64_t* pref, const Filter* f,
                    const int* a, const uint16_t* ys, int ysize, int player, int p,
                    int64_t nq, int64_t n, int64_t den, int64_t* counts, const BuyOrder* order=NULL,
                    bint excess_given=False, int64_t given=0) noexcept nogil:
    """Numerator over n * den of betting a final hand, with the best insurance.

    With ``excess_given``, the buy's part is ``given`` (the caller's), else it is computed.
    """
    cdef int64_t win = 0, tie = 0, lose, below, upto, excess = 0, e, value
    if player >= st.qualifier:
        below = _L(D, pref, f, player)
        upto = _L(D, pref, f, player + 1)
        win = below - nq
        tie = upto - below
        lose = n - upto
    else:
        lose = n - nq
    if _buys(st, player, p):
        excess = given if excess_given else _buy_excess(D, st, a, ys, ysize, player, p, order)
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
    Filter** filter_of         # by sigmask (13 bits)
    int new[5]
    int n_new
    int n_masks
    int masks[10]              # the discard masks of k cards
    int player[10]             # each one's strength when the new cards make no flush
    int128* acc
    int64_t outcomes
    BuyOrder* orders           # the buy bounds by band of player, for the exchanges of k cards
    int order_band[N_ORDERS]
    int n_orders
    int card_by_card           # every outcome card by card (the check of the grouped sums)
    BuyPlan* plans             # of the players of one rank multiset, one per (band, payout)
    int n_plans
    int plan_band[10]
    int plan_p[10]
    bint have_delta[10]
    int64_t excess_ok[10]      # bit set of the up-suit groups (sigmask) whose excess is known
    int64_t excess[10][32]     # _plan_excess by plan and group
    int64_t delta[10][4][32]   # _other_suit_delta by plan, suit and ranks taken from that suit
    int n_unsafe               # (sigmask, discard masks) left to the card-by-card path
    int unsafe_sig[64]
    int unsafe_masks[64]


cdef Filter* _slot(Ctx* x, int sigmask) noexcept nogil:
    # the dealer flushes left when the new cards of the up suit are sigmask: they depend on
    # sigmask alone, so they are kept for the whole deal (at most 1,586 sets of <= 5 ranks)
    cdef Filter* f = x.filter_of[sigmask]
    if f == NULL:
        if x.n_slots == MAX_SLOTS:
            x.n_slots = 0
            for i in range(8192):
                x.filter_of[i] = NULL
        f = &x.slots[x.n_slots]
        x.n_slots += 1
        _filter(x.D, sigmask, f)
        x.filter_of[sigmask] = f
    return f


cdef const BuyOrder* _need_order(Ctx* x, int player) noexcept nogil:
    # the buy bounds of the exchanges of k cards for the player's band, from the deal's deck:
    # it holds every outcome's deck, so the bounds hold for all of them
    cdef int u, band = x.D.band[player]
    for u in range(min(x.n_orders, N_ORDERS)):
        if x.order_band[u] == band:
            return &x.orders[u]
    u = x.n_orders % N_ORDERS  # full: the oldest goes
    x.n_orders += 1
    x.order_band[u] = band
    _buy_order(x.D, x.st, x.D.a0, x.D.ys0, x.ysize, player, &x.orders[u])
    return &x.orders[u]


cdef int64_t _outcome_value(Ctx* x, const int* new, int n_new, int player) noexcept nogil:
    # The exact value of one exchange outcome (the new cards given card by card).
    cdef int i, sigmask = 0
    cdef uint16_t ys[4]
    for i in range(4):
        ys[i] = x.D.ys0[i]
    for i in range(n_new):
        ys[new[i] & 3] &= ~(1 << (new[i] >> 2))
        if (new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (new[i] >> 2)
    cdef Filter* f = _slot(x, sigmask)
    cdef int p = x.p5[player]
    # one order for all these players: that of the best band bounds every band's
    return _value(x.D, x.st, x.pref, f, x.a, ys, x.ysize, player, p,
                  _L(x.D, x.pref, f, x.st.qualifier), x.n, x.den, NULL,
                  _need_order(x, N_STRENGTH - 1) if _buys(x.st, player, p) else NULL)


cdef inline int64_t _floor(Ctx* x, int64_t v) noexcept nogil:
    # after the exchange the player folds (-1) rather than bet worse, unless the bet is forced
    cdef int64_t floor = -x.n * x.den
    return v if x.forced or v >= floor else floor


cdef void _final_cards(Ctx* x, int mask, const int* new, int* cards) noexcept nogil:
    # the kept cards of the hand, then the new ones
    cdef int j, k = 0
    for j in range(5):
        if not (mask >> j) & 1:
            cards[k] = x.hand[j]
            k += 1
    for j in range(x.k):
        cards[k + j] = new[j]


cdef void _fallback_leaf(Ctx* x) noexcept nogil:
    # card by card, for the (sigmask, discard mask) pairs where the fold floor may bind
    cdef const EvalTables* t = tables()
    cdef int i, j, u, sigmask = 0, player
    cdef int cards[5]
    for i in range(x.n_new):
        if (x.new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (x.new[i] >> 2)
    for u in range(x.n_unsafe):
        if x.unsafe_sig[u] != sigmask:
            continue
        for i in range(x.n_masks):
            if not (x.unsafe_masks[u] >> i) & 1:
                continue
            _final_cards(x, x.masks[i], x.new, cards)
            player = eval5(t, cards[0], cards[1], cards[2], cards[3], cards[4])
            if player != x.player[i]:
                continue  # a flush: counted with the flush outcomes
            x.acc[x.masks[i]] += _floor(x, _outcome_value(x, x.new, x.n_new, player))


cdef void _suits(Ctx* x, int r) noexcept nogil:
    # choose the suits of the new cards of rank r, r + 1, ... (card-by-card path)
    cdef int need, suits, sub, s, bits
    while r < 13 and x.mult[r] == 0:
        r += 1
    if r == 13:
        _fallback_leaf(x)
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
        _suits(x, r + 1)
        x.n_new -= need


cdef inline int64_t _ways(int avail, int need) noexcept nogil:
    return BINOM[avail][need] if 0 <= need <= avail else 0


cdef void _multiset(Ctx* x) noexcept nogil:
    """Every exchange outcome whose new cards have the rank multiset x.mult, for every discard.

    Outcomes are grouped by the ranks of their new cards of the up-card's suit (sigmask): the
    non-flush outcomes of a group share the player's strength and the dealer's counts, and
    differ only in the buy's flush draws in the other suits, which add up suit by suit (D_tau,
    by the ranks taken from that suit). Where the fold floor cannot bind, the group's sum is
    exact from these parts and the numbers of outcomes; elsewhere, and for the outcomes that
    make the player a flush, the outcomes are taken card by card.
    """
    cdef const EvalTables* t = tables()
    cdef const Deal* D = x.D
    cdef const Settings* st = x.st
    cdef int i, j, r, nr = 0, sig_ranks = 0, sigmask, tau, tmask, pi, km, player, p, n_fl, ok
    cdef int R[5]
    cdef int Mr[5]
    cdef int Sr[5]
    cdef int fl_suit[4]
    cdef int fl_sig[4]
    cdef int fl_player[4]
    cdef int cards[5]
    cdef int new[5]
    cdef uint32_t key_new = 0, key
    cdef int64_t cnt, w, A, nq, low, dmin, v, total_leaves = 1
    cdef int128 total
    cdef uint16_t ys[4]
    cdef bint buy_rel, thrown = False
    cdef int u
    cdef BuyPlan* plan
    cdef int64_t (*delta)[32]
    cdef Filter* f
    for r in range(13):
        x.a[r] = D.a0[r] - x.mult[r]
        if x.mult[r]:
            R[nr] = r
            Mr[nr] = x.mult[r]
            Sr[nr] = 0
            for j in range(4):
                if (D.ys0[j] >> r) & 1:
                    Sr[nr] |= 1 << j
            if (Sr[nr] >> D.sigma) & 1:
                sig_ranks |= 1 << nr
            total_leaves *= BINOM[_popcount(Sr[nr])][Mr[nr]]
            key_new += RK[r] * x.mult[r]
            nr += 1
    x.outcomes += total_leaves
    x.n_plans = 0
    _blind_prefix(D, x.a, x.pref)
    x.n_unsafe = 0
    for j in range(D.n_ds):
        if D.ds_top[j] == D.rho and D.ds_strength[j] < st.qualifier:
            thrown = True
            break
    for i in range(x.n_masks):
        km = x.masks[i]
        key = key_new
        for j in range(5):
            if not (km >> j) & 1:
                key += RK[x.hand[j] >> 2]
        player = t.rank_table[key]
        x.player[i] = player
        p = x.p5[player]
        buy_rel = _buys(st, player, p)
        plan = NULL
        # the outcomes where every card is of one suit: the player has a flush
        n_fl = 0
        for pi in range(4):
            ok = 1
            for j in range(5):
                if not (km >> j) & 1 and (x.hand[j] & 3) != pi:
                    ok = 0
            for j in range(nr):
                if Mr[j] != 1 or not (Sr[j] >> pi) & 1:
                    ok = 0
            if ok:
                fl_suit[n_fl] = pi
                fl_sig[n_fl] = _rank_bits(R, nr) if pi == D.sigma else 0
                n_fl += 1
        for sigmask in range(1 << nr):
            if sigmask & ~sig_ranks:
                continue
            cnt = 1
            for j in range(nr):
                cnt *= _ways(_popcount(Sr[j]) - ((sig_ranks >> j) & 1), Mr[j] - ((sigmask >> j) & 1))
            if cnt == 0:
                continue
            # the deck of this group, the up suit as it is, the other suits with every card in
            for j in range(4):
                ys[j] = D.ys0[j]
            ys[D.sigma] &= ~_rank_bits_masked(R, nr, sigmask)
            if x.card_by_card:
                x.unsafe_sig[x.n_unsafe] = sigmask
                x.unsafe_masks[x.n_unsafe] = 1 << i
                _merge_unsafe(x)
                continue
            f = _slot(x, _rank_bits_masked(R, nr, sigmask))
            nq = _L(D, x.pref, f, st.qualifier)
            if not buy_rel:
                v = _value(D, st, x.pref, f, x.a, ys, x.ysize, player, p, nq, x.n, x.den, NULL)
                for j in range(n_fl):
                    if fl_sig[j] == _rank_bits_masked(R, nr, sigmask):
                        cnt -= 1
                x.acc[km] += (<int128> cnt) * _floor(x, v)
                continue
            if plan == NULL:
                # the buy's part shared by every group of this player and by the players of
                # its band with its payout: the deck with every new card's suit still in
                # holds each group's deck
                for u in range(x.n_plans):
                    if x.plan_band[u] == D.band[player] and x.plan_p[u] == p:
                        break
                else:
                    u = x.n_plans
                    x.n_plans += 1
                    x.plan_band[u] = D.band[player]
                    x.plan_p[u] = p
                    x.have_delta[u] = False
                    x.excess_ok[u] = 0
                    _buy_plan(D, st, x.a, D.ys0, x.ysize, player, p, _need_order(x, player), &x.plans[u])
                plan = &x.plans[u]
                delta = x.delta[u]
            if not (x.excess_ok[u] >> sigmask) & 1:
                x.excess[u][sigmask] = _plan_excess(D, plan, x.a, ys[D.sigma])
                x.excess_ok[u] |= 1 << sigmask
            A = _value(D, st, x.pref, f, x.a, ys, x.ysize, player, p, nq, x.n, x.den, NULL, NULL,
                       True, x.excess[u][sigmask])
            if thrown and not x.have_delta[u]:
                # D_tau(ranks of the new cards taken from suit tau), for every other suit
                for tau in range(4):
                    if tau == D.sigma:
                        continue
                    for tmask in range(1 << nr):
                        if _taken_ok(Sr, nr, tmask, tau):
                            delta[tau][tmask] = _other_suit_delta(
                                D, plan, D.ys0[tau] & ~_rank_bits_masked(R, nr, tmask))
                x.have_delta[u] = True
            total = (<int128> cnt) * A
            low = A
            if thrown:
                for tau in range(4):
                    if tau == D.sigma:
                        continue
                    dmin = 0
                    for tmask in range(1 << nr):
                        if not _taken_ok(Sr, nr, tmask, tau):
                            continue
                        w = 1
                        for j in range(nr):
                            w *= _ways(_popcount(Sr[j]) - ((sig_ranks >> j) & 1) - ((Sr[j] >> tau) & 1),
                                       Mr[j] - ((sigmask >> j) & 1) - ((tmask >> j) & 1))
                        if w == 0:
                            continue
                        total += (<int128> w) * delta[tau][tmask]
                        if delta[tau][tmask] < dmin:
                            dmin = delta[tau][tmask]
                    low += dmin
            if not x.forced and low < -x.n * x.den:
                # the fold floor may bind for some outcomes: take this group card by card
                x.unsafe_sig[x.n_unsafe] = sigmask
                x.unsafe_masks[x.n_unsafe] = 1 << i
                _merge_unsafe(x)
                continue
            # the flush outcomes counted above as non-flush come out again
            for j in range(n_fl):
                if fl_sig[j] == _rank_bits_masked(R, nr, sigmask):
                    _flush_new(R, nr, fl_suit[j], new)
                    total -= _outcome_value(x, new, nr, player)
            x.acc[km] += total
        # the flush outcomes themselves
        for j in range(n_fl):
            _flush_new(R, nr, fl_suit[j], new)
            _final_cards(x, km, new, cards)
            player = eval5(t, cards[0], cards[1], cards[2], cards[3], cards[4])
            x.acc[km] += _floor(x, _outcome_value(x, new, nr, player))
    if x.n_unsafe:
        # sigmask stored as rank positions; the card-by-card path compares rank bits
        for j in range(x.n_unsafe):
            x.unsafe_sig[j] = _rank_bits_masked(R, nr, x.unsafe_sig[j])
        x.n_new = 0
        _suits(x, 0)


cdef void _merge_unsafe(Ctx* x) noexcept nogil:
    # one entry per sigmask: fold the entry just added into an earlier one of the same sigmask
    cdef int u, last = x.n_unsafe
    for u in range(last):
        if x.unsafe_sig[u] == x.unsafe_sig[last]:
            x.unsafe_masks[u] |= x.unsafe_masks[last]
            return
    x.n_unsafe += 1


cdef inline int _rank_bits(const int* R, int nr) noexcept nogil:
    cdef int j, out = 0
    for j in range(nr):
        out |= 1 << R[j]
    return out


cdef inline int _rank_bits_masked(const int* R, int nr, int positions) noexcept nogil:
    # rank bit set of the positions (into R) set in ``positions``
    cdef int j, out = 0
    for j in range(nr):
        if (positions >> j) & 1:
            out |= 1 << R[j]
    return out


cdef inline bint _taken_ok(const int* Sr, int nr, int tmask, int tau) noexcept nogil:
    # the new cards can include suit tau exactly at the positions of tmask
    cdef int j
    for j in range(nr):
        if (tmask >> j) & 1 and not (Sr[j] >> tau) & 1:
            return False
    return True


cdef inline void _flush_new(const int* R, int nr, int suit, int* new) noexcept nogil:
    cdef int j
    for j in range(nr):
        new[j] = 4 * R[j] + suit


cdef void _ranks(Ctx* x, int r, int left) noexcept nogil:
    # choose the rank multiset of the new cards
    cdef int m
    if left == 0:
        _multiset(x)
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
    D.ranks_valid = 0
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
        _value(D, &st, pref, &f, D.a0, D.ys0, D.n0, player, p, nq, n, den, counts)
    finally:
        free(D)
        free(pref)
    return tuple(counts[i] for i in range(7))


def solve(const uint8_t[::1] hand, int up, const uint8_t[::1] dead, dict settings,
          const int32_t[::1] p5, const int32_t[::1] paytable, bint second_on, bint new_rank,
          tuple exchange_counts, tuple forced_counts, bint sixth_on, bint card_by_card=False):
    """Exact numerators of every option of one deal.

    Returns a dict: ``bet`` the counts (n, win, tie, lose, nq, buy_excess, den) and ``bet_value``
    (numerator over n * den); ``sixth`` (numerator, denominator) of the average over sixth cards
    of max(-1, value); ``exchange`` {discard mask: (numerator, denominator)} likewise, fees
    excluded. ``card_by_card`` takes every exchange outcome one by one instead of by groups
    (slower; the tests compare the two).
    """
    cdef Settings st
    _settings(settings, &st)
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    D.ranks_valid = 0
    cdef int64_t* pref = <int64_t*> malloc((N_MULTI + 1) * sizeof(int64_t))
    cdef Filter* slots = <Filter*> malloc(MAX_SLOTS * sizeof(Filter))
    cdef Filter** filter_of = <Filter**> malloc(8192 * sizeof(Filter*))
    cdef BuyPlan* plans = <BuyPlan*> malloc(10 * sizeof(BuyPlan))
    cdef BuyOrder* orders = <BuyOrder*> malloc(N_ORDERS * sizeof(BuyOrder))
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
        v = _value(D, &st, pref, &f, a, ys, D.n0, player, p5[player], nq, n, den, counts)
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
                v = _value(D, &st, pref, &f, a, ys, D.n0 - 1, player, p, nq, n, den, NULL)
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
        x.n_slots = 0
        x.filter_of = filter_of
        for i in range(8192):
            filter_of[i] = NULL
        x.acc = acc
        x.orders = orders
        x.card_by_card = card_by_card
        x.plans = plans
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
            x.n_new = 0
            x.ysize = D.n0 - k
            x.n = falling(D.n0 - k, 4) // 24
            x.den = falling(D.n0 - k - 4, st.redraws + 1)
            x.outcomes = 0
            x.n_orders = 0
            with nogil:
                _ranks(&x, 0, k)
            for i in range(x.n_masks):
                exchanges[x.masks[i]] = (_py(acc[x.masks[i]]), x.outcomes * x.n * x.den)
        result["exchange"] = exchanges
    finally:
        free(D)
        free(pref)
        free(slots)
        free(filter_of)
        free(plans)
        free(orders)
    return result


def bet_counts(const uint8_t[:, ::1] hands, const uint8_t[::1] up_cards, dict settings,
               const int32_t[::1] p5, int64_t[:, ::1] out):
    """Counts (n, win, tie, lose, nq, buy_excess, den) of betting each dealt hand, no dead cards,
    and the value of the bet with the best insurance (numerator over n * den).

    ``out`` has one row of 8 per deal. Consecutive deals of the same ranks (hand and up-card)
    share the dealer's rank counts: sort the deals by ranks to make the most of it.
    """
    cdef Settings st
    _settings(settings, &st)
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    cdef int64_t* pref = <int64_t*> malloc((N_MULTI + 1) * sizeof(int64_t))
    cdef Filter f
    cdef int64_t counts[7]
    cdef int64_t n, den, nq
    cdef Py_ssize_t k
    cdef int player, i
    if hands.shape[1] != 5 or up_cards.shape[0] != hands.shape[0] or out.shape[0] != hands.shape[0] \
            or out.shape[1] != 8:
        raise ValueError("hands (N, 5), up_cards (N,) and out (N, 8) do not match")
    D.ranks_valid = 0
    try:
        with nogil:
            for k in range(hands.shape[0]):
                if not _deal_init(D, up_cards[k], &hands[k, 0], 5, st.qualifier):
                    _blind_prefix(D, D.a0, pref)
                _filter(D, 0, &f)
                n = falling(D.n0, 4) // 24
                den = falling(D.n0 - 4, st.redraws + 1)
                player = eval5(t, hands[k, 0], hands[k, 1], hands[k, 2], hands[k, 3], hands[k, 4])
                nq = _L(D, pref, &f, st.qualifier)
                out[k, 7] = _value(D, &st, pref, &f, D.a0, D.ys0, D.n0, player, p5[player], nq, n, den, counts)
                for i in range(7):
                    out[k, i] = counts[i]
    finally:
        free(D)
        free(pref)
