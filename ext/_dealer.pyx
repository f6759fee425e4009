# cython: language_level=3
"""Fast exact solver of one deal: every option's EV as exact integer numerators.

The dealer side is counted by ranks (docs/rules.md §5, docs/design.md §2): the dealer's four hidden cards
form one of 1,820 rank multisets m, with prod C(a_r, m_r) completions for the deck's rank counts
a. Sorted by strength once per deal, their weights give, by a prefix sum and a binary search,
how many dealer hands lie below a player's strength. Dealer flushes (all four hidden cards in the
up-card's suit) are moved from their rank strength to their flush strength from a per-deal list.
Buying a game is evaluated per non-qualifying rank set of the dealer, split into the suit
classes that matter (no flush draw; a flush draw in a given suit), from the stub's rank counts.
A draw after a buy is worth best_pay, 0 or -3 by how it compares with the player, so players of
one *band* (between two consecutive draw strengths of the deal) share a buy plan (RankPlan),
made once per deck's rank counts and band; the suits enter only through each suit's unseen
cards (plan_excess for the up suit, other_suit_delta for each other suit).

What depends on ranks alone (the dealer's blind counts and the rank-level buy plans of every
multiset of new cards) is kept in a per-process store (Shared) while consecutive deals have the
same ranks, so the ~70 suit classes of a rank-level deal solved in a row compute it once
(docs/design.md §6); so are the plans' excesses for each suit's unseen cards, which the suit
classes mostly share (their hands have few patterns of suits). Suit classes with the same unseen
cards in the up suit, solved in a row (``classes.rank_order`` puts them together), also share
the value of every group of exchange outcomes (MsInfo) and the up-suit part of the player's
flush outcomes (FlushValue). ``solve`` holds the GIL throughout, so threads cannot share the
store at once.

Exchange outcomes are enumerated by the rank multiset of the new cards (the dealer's rank counts
are shared by all its suit assignments) and, inside it, by the new cards of the up-card's suit.
"""
import numpy as np
from libc.stdint cimport int8_t, uint8_t, uint16_t, uint32_t, int64_t, uint64_t, int32_t
from libc.stdlib cimport malloc, calloc, free, abort
from libc.string cimport memcpy, memmove, memcmp, memset
from solver._eval cimport EvalTables, tables, eval5, eval6, payout_detail, next_subset, N_STRENGTH
from solver._combinatorics cimport (BINOM, CHOOSE, DS_MASK, MS_M, MS_N, MS_OFF, MS_R, MS_RANK, N_DISTINCT,
                                   N_MS_ALL, N_MULTI, POP, RK, key_of_mask, ms_index, popcount, ways)
from solver._deck cimport (MAX_FLUSH, Deal, Draws, Filter, blind_prefix, count_below, deal_init, dealer_below,
                           draws_below, filter_lists, flush_filter, flush_part)
from solver._buy cimport (PlanEntry, PlanKey, RankPlan, add_split, most_draws_won, other_suit_delta, plain_counts,
                          plan_base, plan_excess, rank_plan)
from solver._settle cimport Settings, buys, buys_at, capped, falling, insured_pay, insures, win_pay

cdef extern from *:
    ctypedef long long int128 "__int128"
    int __builtin_ctz(unsigned int) nogil

cdef enum:
    MAX_SLOTS = 2048
    N_COUNTS = 13       # a bet's counts (_value): n, win, tie, lose, nq, excess, den, the buy's split,
                        # the insurance taken and the buy's excess with it
    MS_PLANS = 20       # buy plans of one multiset: (band, payout) of 10 discards, flush or not



cdef int64_t _buy_excess(const Deal* D, const Settings* st, const int* a, const uint16_t* ys,
                         int ysize, int player, int64_t pay, int64_t* split=NULL) noexcept nogil:
    # the whole excess of one deck, flush draws in every suit included (split: add_split's),
    # a won draw paying ``pay``
    cdef PlanEntry* entries = <PlanEntry*> malloc(N_DISTINCT * sizeof(PlanEntry))
    cdef PlanKey* keys = <PlanKey*> malloc(N_DISTINCT * sizeof(PlanKey))
    cdef RankPlan R
    cdef int64_t total
    R.e = entries
    R.key = keys
    rank_plan(D, st, a, ysize, player, pay, &R)
    total = _deck_excess(-1, &R, a, ys, D.sigma, split)
    free(entries)
    free(keys)
    return total


cdef inline void _showdowns(const Settings* st, const Filter* f, int player, int64_t nq, const int64_t* blind,
                            int64_t n, int64_t* wtl) noexcept nogil:
    # the qualifying dealer hands the player beats, ties, loses to
    cdef int64_t below, upto
    if player >= st.qualifier:
        below = blind[0] + flush_part(f, player)
        upto = blind[1] + flush_part(f, player + 1)
        wtl[0] = below - nq
        wtl[1] = upto - below
        wtl[2] = n - upto
    else:
        wtl[0] = wtl[1] = 0
        wtl[2] = n - nq


cdef int64_t _bet_capped(const Settings* st, int player, int p, const int64_t* wtl, int64_t nq, int64_t den,
                         int64_t excess, const int64_t* more, int64_t* chosen) noexcept nogil:
    """Numerator over n * den of betting a hand whose insurance can reach the table's maximum
    payout (_capped), with the best insurance: the value is linear in the size I up to
    M - 2P (no payout capped), then convex on [M - 2P, M - 1] and on [M - 1, M] (the buy's value
    falls slower than the ante's), and falls beyond M, so the best of the allowed sizes is one
    of I_min, I_max, M - 2P, M - 1, M, or none (docs/design.md §7; the reference tries every
    size). ``excess`` is the buy's excess uninsured, ``more`` with I_min and with I_max
    (_insured_pay); ``chosen`` gets the size and its excess. The smallest size of the best."""
    cdef int64_t lo = st.insurance_min, hi = st.insurance_max * p, m = st.max_payout
    cdef int64_t pay = win_pay(st, p), full = 2 * p + st.win_extra
    cdef int64_t sizes[5]
    cdef int64_t best, v, e, size, take, before = -1
    cdef int j, k
    best = den * (pay * wtl[0] - 3 * wtl[2] + nq) + excess
    chosen[0] = 0
    chosen[1] = excess
    sizes[0] = lo
    sizes[1] = m - full
    sizes[2] = m - 1
    sizes[3] = m
    sizes[4] = hi
    for j in range(5):   # in increasing order, each once
        k = j
        for e in range(j + 1, 5):
            if sizes[e] < sizes[k]:
                k = e
        size = sizes[k]
        sizes[k] = sizes[j]
        sizes[j] = size
        if size == before or size < lo or size > hi:
            continue
        before = size
        v = insured_pay(st, p, size)
        if v == pay:
            e = excess
        elif not buys_at(st, player, v):
            e = 0
        elif size == lo:
            e = more[0]
        elif size == hi:
            e = more[1]
        else:
            abort()  # cannot happen: between I_min and I_max only M - 2P has a pay of its own, 2P
        take = size + 1 if size + 1 < m else m
        v = den * (pay * wtl[0] - 3 * wtl[2] - size * (wtl[0] + (wtl[1] if st.tie_loses else 0)) + nq * take) + e
        if v > best:
            best = v
            chosen[0] = size
            chosen[1] = e
    return best


cdef inline int64_t _bet(const Settings* st, const Filter* f, int player, int p, int64_t nq,
                         const int64_t* blind, int64_t n, int64_t den, int64_t excess,
                         int64_t* counts, const int64_t* more=NULL) noexcept nogil:
    """Numerator over n * den of betting a final hand, with the best insurance, from the dealer
    hands below the player and below the next strength by ranks alone (``blind``, of the deck's
    blind prefix), the dealer flushes left (``f``) and the buy's excess; for a hand whose
    insurance can reach the table's maximum, ``more`` holds the excesses of _bet_capped."""
    cdef int64_t wtl[3]
    cdef int64_t chosen[2]
    cdef int64_t value
    _showdowns(st, f, player, nq, blind, n, wtl)
    if more != NULL:
        value = _bet_capped(st, player, p, wtl, nq, den, excess, more, chosen)
    else:
        value = den * (win_pay(st, p) * wtl[0] - 3 * wtl[2] + nq) + excess
        chosen[0] = st.insurance_max * p if insures(st, player, p, wtl[0], wtl[1], nq) else 0
        chosen[1] = excess
        value += den * chosen[0] * (nq - wtl[0] - (wtl[1] if st.tie_loses else 0))
    if counts != NULL:
        counts[0] = n
        counts[1] = wtl[0]
        counts[2] = wtl[1]
        counts[3] = wtl[2]
        counts[4] = nq
        counts[5] = excess
        counts[6] = den
        counts[11] = chosen[0]
        counts[12] = chosen[1]
    return value


cdef int64_t _value(const Deal* D, const Settings* st, const int64_t* pref, const Filter* f,
                    const int* a, const uint16_t* ys, int ysize, int player, int p,
                    int64_t nq, int64_t n, int64_t den, int64_t* counts,
                    bint excess_given=False, int64_t given=0) noexcept nogil:
    """_bet of a final hand against the deck ``a`` (``ys`` by suit; ``pref`` its blind prefix).

    With ``excess_given``, the buy's part is ``given`` (the caller's), else it is computed, and
    ``counts`` (if given: N_COUNTS) gets _bet's counts and, at 7 to 10, the split of the buys
    (add_split: the hands that buy, their draws the player wins, ties, loses) with the
    insurance taken. A hand whose insurance can reach the table's maximum (_capped) has its
    buy computed for each size that may be best: never given.
    """
    cdef int64_t blind[2]
    cdef int64_t excess = 0, value, pay, v
    cdef int64_t* split = NULL
    cdef int64_t more[2]
    cdef int64_t splits[3][4]
    cdef int64_t pays[3]
    cdef int j, k
    blind[0] = pref[D.ms_below[player]]
    blind[1] = pref[D.ms_below[player + 1]]
    if counts != NULL:
        memset(counts + 7, 0, 4 * sizeof(int64_t))
        split = counts + 7
    if not capped(st, player, p):
        if buys(st, player, p):
            excess = given if excess_given else _buy_excess(D, st, a, ys, ysize, player, win_pay(st, p), split)
        return _bet(st, f, player, p, nq, blind, n, den, excess, counts)
    if excess_given:
        abort()  # cannot happen: the callers leave these hands to this function
    memset(splits, 0, sizeof(splits))
    pays[0] = win_pay(st, p)
    pays[1] = insured_pay(st, p, st.insurance_min)
    pays[2] = insured_pay(st, p, st.insurance_max * p)
    for j in range(3):
        v = 0
        if buys_at(st, player, pays[j]):
            v = _buy_excess(D, st, a, ys, ysize, player, pays[j], splits[j] if split != NULL else NULL)
        if j == 0:
            excess = v
        else:
            more[j - 1] = v
    value = _bet(st, f, player, p, nq, blind, n, den, excess, counts, more)
    if split != NULL:
        # the split of the buys with the insurance taken
        pay = insured_pay(st, p, counts[11])
        for j in range(3):
            if pays[j] == pay:
                for k in range(4):
                    split[k] = splits[j][k]
                break
    return value


cdef object _py(int128 x):
    # exact conversion of a 128-bit integer
    cdef int128 lo = x & <int128> 0xFFFFFFFFFFFFFFFF
    return (int(<int64_t> (x >> 64)) << 64) + int(<uint64_t> lo)


cdef enum:
    STORE_ENTRIES = 1 << 23       # plan entries the shared store holds (256 MB at most)
    STORE_PLANS = 1 << 16
    MEMO_REGION = 8               # the memo of plan excesses and deltas: a page of 256 slots per
                                  # plan (STORE_PLANS of them: 256 MB at most, touched as used)

cdef struct SharedPlan:
    int band, p, next
    RankPlan r


cdef struct MsInfo:
    # a multiset of new ranks: the dealer hands below the qualifier by ranks, and for each
    # discard (by its place in Ctx.masks) the player's strength when the new cards make no
    # flush and the blind counts below it and below the next strength. Kept in the order the
    # multisets are met (the same for every deal of a generation), so that they are read in
    # sequence, not from all over memory.
    uint32_t gen
    int32_t ms
    int64_t nq_blind
    int32_t player[10]
    int64_t blind[10][2]
    # What the deals of one up-suit generation (Shared.sgen) share, for each discard: the sum
    # over the groups of new cards of their outcomes' value without the player's flushes and
    # the flush draws of the other suits (groups that need the card-by-card path left out when
    # that does not depend on the other suits: ``unsafe``, by sigmask), and each group's
    # value (Shared.vals). Valid for a discard when its sgen and forced are the store's and the call's.
    uint32_t sgen[10]                 # by discard: solved for only some of them (Ctx.wanted)
    int32_t forced[10]
    uint32_t unsafe[10]
    int128 total[10]


cdef struct FlushValue:
    # the up-suit part of a flush outcome (_flush_value) for one up-suit generation
    uint32_t sgen
    int32_t player
    int64_t value


cdef struct MemoSlot:
    uint32_t key                      # kind << 13 | ys (the page is the plan's)
    uint32_t epoch                    # the slot is empty unless this is Shared.memo_epoch
    int64_t value


cdef enum:
    SPLIT_REGION = 6              # the memo of the buys' splits (results): 64 slots per plan


cdef struct SplitSlot:
    # as MemoSlot: the excess and the split of the buys (add_split), for results (Dist)
    uint32_t key
    uint32_t epoch
    int64_t part[5]


cdef struct Shared:
    # What the suit classes of one rank-level deal share (docs/design.md §6): the blind prefix of
    # every multiset of new ranks and the rank-level buy plans. They depend on the deck's rank
    # counts, the up rank, the settings and the payouts only: while those stay the same, deals
    # solved one after the other (a table build in rank order) reuse them.
    uint32_t gen                      # of the key below; 0: nothing yet
    uint32_t epoch                    # of the plans (new on each generation and when full)
    int rho
    int a0[13]
    int hand[5]                       # the hand's ranks, in the order of the discard masks
    Settings st
    int32_t* p5
    int64_t* pref                     # N_MS_ALL rows of N_MULTI + 1
    MsInfo* info                      # N_MS_ALL: multisets of k cards from MS_OFF[k], in the order met
    uint32_t* pref_gen                # the generation of each row
    int32_t* plan_head                # by multiset: its first plan (a list by band and payout)
    uint32_t* plan_epoch
    SharedPlan* plans
    int n_plans
    PlanEntry* entries
    PlanKey* keys
    int64_t used
    # the excesses and deltas of the plans for each suit's unseen cards met so far: deals of
    # the same ranks differ in few of them (a few patterns of the hand's suits)
    MemoSlot* memo
    uint32_t memo_epoch               # new with each plan epoch
    SplitSlot* split_memo             # allocated when results are first asked for
    # the up suit's unseen cards and their generation: the suit classes of a rank-level deal
    # with the same cards in the up suit (solved one after the other) share the dealer's
    # flushes and the up suit's part of the buy, so every group's value (MsInfo)
    uint16_t ys_up
    uint32_t sgen
    int64_t* vals                     # N_MS_ALL * 10 * 32: each group's value (MsInfo)
    FlushValue* flush                 # N_MS_ALL * 10 * 2: by discard, in the up suit or not
    int32_t* most_won                 # by band: most_draws_won of its players, for this generation
    uint32_t* most_won_gen
    # by discard mask: the sum of _multiset_plain over every multiset, for this generation and
    # a bet forced after the exchange or not (it depends on the ranks alone)
    int128 plain[32]
    uint32_t plain_gen[32]
    int32_t plain_forced[32]


cdef Shared SH


def _shared_alloc() -> None:
    # the store, once per process (pages are touched only as they are used)
    if SH.pref != NULL:
        return
    SH.p5 = <int32_t*> calloc(N_STRENGTH, sizeof(int32_t))
    SH.pref = <int64_t*> malloc(N_MS_ALL * (N_MULTI + 1) * sizeof(int64_t))
    SH.info = <MsInfo*> calloc(N_MS_ALL, sizeof(MsInfo))
    SH.pref_gen = <uint32_t*> calloc(N_MS_ALL, sizeof(uint32_t))
    SH.plan_head = <int32_t*> calloc(N_MS_ALL, sizeof(int32_t))
    SH.plan_epoch = <uint32_t*> calloc(N_MS_ALL, sizeof(uint32_t))
    SH.plans = <SharedPlan*> malloc(STORE_PLANS * sizeof(SharedPlan))
    SH.entries = <PlanEntry*> malloc(STORE_ENTRIES * sizeof(PlanEntry))
    SH.keys = <PlanKey*> malloc(STORE_ENTRIES * sizeof(PlanKey))
    SH.memo = <MemoSlot*> calloc(STORE_PLANS << MEMO_REGION, sizeof(MemoSlot))
    SH.vals = <int64_t*> malloc(N_MS_ALL * 10 * 32 * sizeof(int64_t))
    SH.flush = <FlushValue*> calloc(N_MS_ALL * 10 * 2, sizeof(FlushValue))
    SH.most_won = <int32_t*> calloc(2 * N_STRENGTH + 2, sizeof(int32_t))
    SH.most_won_gen = <uint32_t*> calloc(2 * N_STRENGTH + 2, sizeof(uint32_t))
    SH.memo_epoch = 1
    if (SH.memo == NULL or SH.vals == NULL or SH.flush == NULL or SH.most_won == NULL or SH.most_won_gen == NULL or SH.p5 == NULL or SH.pref == NULL or SH.info == NULL or SH.pref_gen == NULL or SH.plan_head == NULL
            or SH.plan_epoch == NULL or SH.plans == NULL or SH.entries == NULL or SH.keys == NULL):
        raise MemoryError("no memory for the solver's shared store")


cdef void _new_epoch() noexcept nogil:
    # the plans start again, and so does the memo of their excesses
    SH.epoch += 1
    SH.memo_epoch += 1


def clear_shared() -> None:
    """Forget what the last rank-level deal left in the shared store (the tests compare)."""
    SH.gen += 1
    SH.sgen += 1
    _new_epoch()
    SH.rho = -1


def shared_state() -> dict:
    """The shared store: its generation (one per rank-level deal met) and the plans it holds."""
    return {"generation": SH.gen, "plans": SH.n_plans, "entries": SH.used}


cdef void _shared_begin(const Deal* D, const Settings* st, const int32_t* p5, const uint8_t* hand) noexcept nogil:
    # keep the store if the deal's rank-level key is the last one's, else start a generation
    cdef int hand_ranks[5]
    cdef int i
    for i in range(5):
        hand_ranks[i] = hand[i] >> 2
    if (SH.rho == D.rho and memcmp(SH.a0, D.a0, sizeof(SH.a0)) == 0
            and memcmp(SH.hand, hand_ranks, sizeof(SH.hand)) == 0
            and memcmp(&SH.st, st, sizeof(Settings)) == 0
            and memcmp(SH.p5, p5, N_STRENGTH * sizeof(int32_t)) == 0 and SH.gen != 0):
        if SH.ys_up != D.ys0[D.sigma]:
            SH.ys_up = D.ys0[D.sigma]
            SH.sgen += 1
        return
    SH.gen += 1
    SH.sgen += 1
    SH.ys_up = D.ys0[D.sigma]
    _new_epoch()
    SH.rho = D.rho
    memcpy(SH.a0, D.a0, sizeof(SH.a0))
    memcpy(SH.hand, hand_ranks, sizeof(SH.hand))
    memcpy(&SH.st, st, sizeof(Settings))
    memcpy(SH.p5, p5, N_STRENGTH * sizeof(int32_t))
    SH.n_plans = 0
    SH.used = 0


cdef inline int64_t* _shared_pref(const Deal* D, const int* a, int ms) noexcept nogil:
    # the blind prefix of the deck a (the deal's deck less the multiset ms)
    cdef int64_t* pref = SH.pref + ms * (N_MULTI + 1)
    if SH.pref_gen[ms] != SH.gen:
        blind_prefix(D, a, pref)
        SH.pref_gen[ms] = SH.gen
    return pref


cdef void _shared_room(int plans) noexcept nogil:
    # room for ``plans`` more plans; when full, the plans start again (none is in use between
    # two multisets, so nothing handed out is overwritten)
    if SH.n_plans + plans > STORE_PLANS or SH.used + plans * N_DISTINCT > STORE_ENTRIES:
        _new_epoch()
        SH.n_plans = 0
        SH.used = 0


cdef int _shared_plan(const Deal* D, const Settings* st, const int* a, int ysize, int player, int p,
                      int ms, RankPlan* out) noexcept nogil:
    # the rank-level buy plan of the deck a (the deal's less the multiset ms) and the player's
    # band, and its place in the store (for _memo)
    cdef int u, band = D.band[player]
    cdef SharedPlan* s
    if SH.plan_epoch[ms] == SH.epoch:
        u = SH.plan_head[ms]
        while u >= 0:
            if SH.plans[u].band == band and SH.plans[u].p == p:
                out[0] = SH.plans[u].r
                return u
            u = SH.plans[u].next
    else:
        SH.plan_epoch[ms] = SH.epoch
        SH.plan_head[ms] = -1
    s = &SH.plans[SH.n_plans]
    s.band = band
    s.p = p
    s.next = SH.plan_head[ms]
    SH.plan_head[ms] = SH.n_plans
    SH.n_plans += 1
    s.r.e = SH.entries + SH.used
    s.r.key = SH.keys + SH.used
    if SH.most_won_gen[band] != SH.gen:
        SH.most_won[band] = most_draws_won(D, player)
        SH.most_won_gen[band] = SH.gen
    rank_plan(D, st, a, ysize, player, win_pay(st, p), &s.r, SH.most_won[band])
    SH.used += s.r.n
    out[0] = s.r
    return SH.n_plans - 1


cdef inline int64_t _plan_part(int kind, const RankPlan* R, const int* a, uint16_t ys,
                               int64_t* split=NULL) noexcept nogil:
    # what _memo keeps: the plan's excess (kind 0) or other-suit delta (kind 1)
    return plan_excess(R, a, ys, split) if kind == 0 else other_suit_delta(R, a, ys, split)


cdef void _memo_split(int plan, int kind, const RankPlan* R, const int* a, uint16_t ys,
                      int64_t* part) noexcept nogil:
    """_plan_part with its split into ``part`` (5: the excess, then the split), as _memo keeps
    values: once while the plan is in the store (``plan`` < 0: not kept)."""
    cdef uint32_t key = (<uint32_t> kind << 13) | ys
    cdef SplitSlot* region = SH.split_memo + (<int64_t> plan << SPLIT_REGION)
    cdef uint32_t i = (key * <uint32_t> 2654435761) >> (32 - SPLIT_REGION), probes = 0
    if plan >= 0:
        while region[i].epoch == SH.memo_epoch:
            if region[i].key == key:
                memcpy(part, region[i].part, 5 * sizeof(int64_t))
                return
            i = (i + 1) & ((1 << SPLIT_REGION) - 1)
            probes += 1
            if probes == (1 << SPLIT_REGION):
                plan = -1  # the page is full: computed, not kept
                break
    memset(part, 0, 5 * sizeof(int64_t))
    part[0] = _plan_part(kind, R, a, ys, part + 1)
    if plan >= 0:
        region[i].key = key
        region[i].epoch = SH.memo_epoch
        memcpy(region[i].part, part, 5 * sizeof(int64_t))


cdef int64_t _memo(int plan, int kind, const RankPlan* R, const int* a, uint16_t ys,
                   int64_t* split=NULL) noexcept nogil:
    """plan_excess (kind 0) or other_suit_delta (kind 1) of the rank plan ``R`` for the unseen
    cards ``ys`` of a suit, computed once while the plan is in the store (``plan``: its place;
    -1 for a plan of one's own, not kept). With ``split``, computed (the memo keeps no split)."""
    cdef uint32_t key = (<uint32_t> kind << 13) | ys
    # each plan has its own page: the lookups of one multiset's plans stay in a few cache lines
    # and pages (a hash over the whole table missed the cache and the TLB on most lookups)
    cdef MemoSlot* region = SH.memo + (<int64_t> plan << MEMO_REGION)
    cdef uint32_t i = (key * <uint32_t> 2654435761) >> (32 - MEMO_REGION), probes = 0
    cdef MemoSlot* slot
    cdef int64_t value
    if plan < 0 or split != NULL:
        return _plan_part(kind, R, a, ys, split)
    if R.n_thrown == 0 and (kind == 1 or R.n == 0):
        return 0 if kind == 1 else R.base  # nothing to look up (no memory touched)
    while region[i].epoch == SH.memo_epoch:
        if region[i].key == key:
            return region[i].value
        i = (i + 1) & ((1 << MEMO_REGION) - 1)
        probes += 1
        if probes == (1 << MEMO_REGION):
            # the page is full: computed, not kept
            return _plan_part(kind, R, a, ys)
    value = _plan_part(kind, R, a, ys)
    slot = &region[i]
    slot.key = key
    slot.epoch = SH.memo_epoch
    slot.value = value
    return value


cdef enum:
    DIST_KEYS = 256      # (payout, insured) pairs of the final hands of one option


cdef struct Dist:
    # the results of one option, by the final hand's payout P and insurance: each row sums the
    # counts of _value over the outcomes bet (win, tie, lose, nq in dealer hands; then the buy's
    # split: hands bought, draws won, tied, lost, over den); ``folded`` counts outcomes folded
    int n
    int64_t folded
    int32_t key[DIST_KEYS]           # P << 16 | the insurance taken
    int64_t row[DIST_KEYS][8]


cdef struct DistCache:
    # by plan, suit and the positions of the new ranks taken from it: the buy's excess and its
    # split (add_split) in that suit, as plan_excess (the up suit) or other_suit_delta; and
    # by plan, each entry's plain draws won, tied, lost (RankPlan.plain)
    int64_t ok[MS_PLANS][4]
    int64_t part[MS_PLANS][4][32][5]
    uint8_t plain[MS_PLANS][N_DISTINCT * 3]


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
    int* slot_lists            # MAX_SLOTS * 2 * MAX_FLUSH: the lists of the slots
    int n_slots
    Filter** filter_of         # by sigmask (13 bits)
    int new[5]
    int n_new
    int n_masks
    int masks[10]              # the discard masks of k cards
    int kept_suits[10]         # the suits a flush of each can be in (its kept cards' suit)
    int player[10]             # each one's strength when the new cards make no flush
    int128* acc
    int64_t outcomes
    int card_by_card           # every outcome card by card (the check of the grouped sums)
    Dist* dist                 # by discard mask: the results of each outcome (card by card), or NULL
    DistCache* dist_cache
    uint32_t wanted            # the discard masks to solve (a bit for each), the others skipped
    int plain                  # the pass of upper bounds (_multiset_plain), not of values
    int fl_common              # of the multiset (_multiset_begin): the suits of its flushes
    int64_t leaves             # and its outcomes
    Filter no_flush            # a dealer side without flushes (for _multiset_plain)
    int ms                     # the rank multiset of the new cards (_ms_index)
    int seq                    # how many multisets of this k met before it
    RankPlan plans[MS_PLANS]   # of the players of one rank multiset, one per (band, payout)
    int plan_id[MS_PLANS]      # their places in the store
    int n_plans
    int plan_band[MS_PLANS]
    int plan_p[MS_PLANS]
    int nr                          # the multiset's distinct ranks, and the position of each
    int R[5]
    int position[13]
    int bits[32]                    # the rank bit set of each set of positions
    int Sr[5]                       # by position: the suits with that rank unseen
    int Mr[5]                       # and the rank's multiplicity
    int sig_ranks                   # the positions whose rank is unseen in the up suit
    int64_t group_count[32]         # by sigmask: the outcomes of the group
    # by sigmask and suit tau: the sets of positions tmask the group's outcomes can take from
    # tau, and how many outcomes take each (the same for every plan; wl_ok: the sigmasks done)
    int wl_ok
    int wl_n[32][4]
    uint8_t wl_t[32][4][32]
    int64_t wl_w[32][4][32]
    # by plan and sigmask: what the flush draws of the other suits add to a group's sum, and the
    # least they add to one outcome (the same for every discard of the plan)
    int64_t group_ok[MS_PLANS]
    int128 group_sum[MS_PLANS][32]
    int64_t group_low[MS_PLANS][32]
    # by plan, the same over every group of the multiset (other_ok: the plans done)
    int64_t other_ok
    int128 other_sum[MS_PLANS]
    int64_t other_low[MS_PLANS]
    # by plan, the excess of each set of new ranks taken from the up suit (plan_excess) and
    # the delta of each set taken from another suit (other_suit_delta), as positions into R;
    # the bit sets say which are known
    int64_t excess_ok[MS_PLANS]
    int64_t excess[MS_PLANS][32]
    int64_t delta_ok[MS_PLANS][4]
    int64_t delta[MS_PLANS][4][32]
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
        filter_lists(f, x.slot_lists + x.n_slots * 2 * MAX_FLUSH)
        x.n_slots += 1
        flush_filter(x.D, sigmask, f)
        x.filter_of[sigmask] = f
    return f


cdef int _plan_of(Ctx* x, int player, int p) noexcept nogil:
    # the buy plan of a player of the multiset's deck, finished for the deal's suits: the deck
    # of every outcome of the multiset is within it, so the plan serves them all
    cdef int u, tau
    cdef int band = x.D.band[player]
    for u in range(x.n_plans):
        if x.plan_band[u] == band and x.plan_p[u] == p:
            return u
    u = x.n_plans
    if u == MS_PLANS:
        abort()  # cannot happen: two strengths (flush or not) per discard
    x.n_plans += 1
    x.plan_band[u] = band
    x.plan_p[u] = p
    x.excess_ok[u] = 0
    x.group_ok[u] = 0
    x.other_ok &= ~(<int64_t> 1 << u)
    for tau in range(4):
        x.delta_ok[u][tau] = 0
        if x.dist_cache != NULL:
            x.dist_cache.ok[u][tau] = 0
    x.plan_id[u] = _shared_plan(x.D, x.st, x.a, x.ysize, player, p, x.ms, &x.plans[u])
    if x.dist_cache != NULL:
        plain_counts(&x.plans[u], x.dist_cache.plain[u])
    return u


cdef int64_t _excess_of(Ctx* x, int u, int taken) noexcept nogil:
    # the plan's excess when the new ranks at positions ``taken`` are of the up suit
    if not (x.excess_ok[u] >> taken) & 1:
        x.excess[u][taken] = _memo(x.plan_id[u], 0, &x.plans[u], x.a,
                                   x.D.ys0[x.D.sigma] & ~x.bits[taken])
        x.excess_ok[u] |= 1 << taken
    return x.excess[u][taken]


cdef inline int64_t _delta_of(Ctx* x, int u, int tau, int taken) noexcept nogil:
    # the flush draws of suit tau when the new ranks at positions ``taken`` are of that suit
    if not (x.delta_ok[u][tau] >> taken) & 1:
        x.delta[u][tau][taken] = _memo(x.plan_id[u], 1, &x.plans[u], x.a,
                                       x.D.ys0[tau] & ~x.bits[taken])
        x.delta_ok[u][tau] |= 1 << taken
    return x.delta[u][tau][taken]


cdef inline int64_t _deck_excess(int plan, const RankPlan* R, const int* a, const uint16_t* ys,
                                 int sigma, int64_t* split=NULL) noexcept nogil:
    # the whole excess of a deck (ys: its cards by suit), flush draws in every suit included
    cdef int64_t total = _memo(plan, 0, R, a, ys[sigma], split)
    cdef int tau
    for tau in range(4):
        if tau != sigma:
            total += _memo(plan, 1, R, a, ys[tau], split)
    return total


cdef int _taken(Ctx* x, const int* new, int n_new, int* taken) noexcept nogil:
    # the positions of the new ranks taken from each suit; returns those of the up suit as ranks
    cdef int i, sigmask = 0
    for i in range(4):
        taken[i] = 0
    for i in range(n_new):
        taken[new[i] & 3] |= 1 << x.position[new[i] >> 2]
        if (new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (new[i] >> 2)
    return sigmask


cdef int64_t _capped_outcome(Ctx* x, const int* new, int n_new, int player, int64_t* counts) noexcept nogil:
    # The exact value of one exchange outcome whose insurance can reach the table's maximum
    # (_capped): the deck less its new cards, suit by suit, and _value's buy for each size that
    # may be best (not shared with other outcomes: such hands are few, royals mostly)
    cdef int i, sigmask = 0
    cdef uint16_t ys[4]
    cdef Filter* f
    for i in range(4):
        ys[i] = x.D.ys0[i]
    for i in range(n_new):
        ys[new[i] & 3] &= ~(1 << (new[i] >> 2))
        if (new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (new[i] >> 2)
    f = _slot(x, sigmask)
    return _value(x.D, x.st, x.pref, f, x.a, ys, x.ysize, player, x.p5[player],
                  dealer_below(x.D, x.pref, f, x.st.qualifier), x.n, x.den, counts)


cdef int64_t _outcome_value(Ctx* x, const int* new, int n_new, int player) noexcept nogil:
    # The exact value of one exchange outcome (the new cards given card by card).
    cdef int taken[4]
    cdef int sigmask
    if capped(x.st, player, x.p5[player]):
        return _capped_outcome(x, new, n_new, player, NULL)
    sigmask = _taken(x, new, n_new, taken)
    return _up_suit_value(x, sigmask, taken[x.D.sigma], player) + _other_suits(x, player, taken)


cdef void _dist_rows(Dist* d, const int64_t* counts, int64_t times, const int64_t* split, int p) noexcept nogil:
    # ``times`` outcomes bet against the dealer counts ``counts`` (as _value's: the insurance
    # taken at 11), and the split of their buys (summed over them), into their option's Dist,
    # by (P, insurance): P << 16 | insurance
    cdef int j, k, key
    key = (p << 16) | <int> counts[11]
    j = 0
    while j < d.n and d.key[j] != key:
        j += 1
    if j == d.n:
        if d.n == DIST_KEYS:
            abort()  # cannot happen: far fewer payouts than that
        d.n += 1
        d.key[j] = key
        memset(d.row[j], 0, sizeof(d.row[j]))
    for k in range(4):
        d.row[j][k] += times * counts[1 + k]
        d.row[j][4 + k] += split[k]


cdef int64_t* _dist_part(Ctx* x, int u, int tau, int taken) noexcept nogil:
    # the buy's excess and split in suit tau for plan u, the new ranks at positions ``taken``
    # of that suit: plan_excess (the up suit) or other_suit_delta, once per multiset
    cdef int64_t* part = x.dist_cache.part[u][tau][taken]
    if not (x.dist_cache.ok[u][tau] >> taken) & 1:
        _memo_split(x.plan_id[u], 0 if tau == x.D.sigma else 1, &x.plans[u], x.a, x.D.ys0[tau] & ~x.bits[taken],
                    part)
        x.dist_cache.ok[u][tau] |= <int64_t> 1 << taken
    return part


cdef int64_t _outcome_dist(Ctx* x, const int* new, int n_new, int player, int mask) noexcept nogil:
    """_floor(_outcome_value) of one outcome, its results added to the Dist of its discard."""
    cdef int i, j, tau, u, p = x.p5[player]
    cdef int taken[4]
    cdef int sigmask = _taken(x, new, n_new, taken)
    cdef int64_t buy[5]
    cdef int64_t counts[N_COUNTS]
    cdef int64_t v
    cdef int64_t* part
    cdef Filter* f
    if capped(x.st, player, p):
        v = _capped_outcome(x, new, n_new, player, counts)
        if not x.forced and v < -x.n * x.den:
            x.dist[mask].folded += 1
        else:
            _dist_rows(&x.dist[mask], counts, 1, counts + 7, p)
        return _floor(x, v)
    for i in range(5):
        buy[i] = 0
    if buys(x.st, player, p):
        u = _plan_of(x, player, p)
        for tau in range(4):
            part = _dist_part(x, u, tau, taken[tau])
            for j in range(5):
                buy[j] += part[j]
    f = _slot(x, sigmask)
    v = _value(x.D, x.st, x.pref, f, x.a, x.D.ys0, x.ysize, player, p, dealer_below(x.D, x.pref, f, x.st.qualifier),
               x.n, x.den, counts, True, buy[0])
    if not x.forced and v < -x.n * x.den:
        x.dist[mask].folded += 1
    else:
        _dist_rows(&x.dist[mask], counts, 1, buy + 1, p)
    return _floor(x, v)


cdef int64_t _up_suit_value(Ctx* x, int sigmask, int taken, int player) noexcept nogil:
    # The value of an outcome but the flush draws of the dealer's buy in the suits other than
    # the up-card's: the new cards of the up suit are the ranks sigmask (positions ``taken``).
    cdef Filter* f = _slot(x, sigmask)
    cdef int p = x.p5[player]
    cdef int64_t excess = 0
    if buys(x.st, player, p):
        excess = _excess_of(x, _plan_of(x, player, p), taken)
    return _value(x.D, x.st, x.pref, f, x.a, x.D.ys0, x.ysize, player, p,
                  dealer_below(x.D, x.pref, f, x.st.qualifier), x.n, x.den, NULL, True, excess)


cdef int64_t _other_suits(Ctx* x, int player, const int* taken) noexcept nogil:
    # The rest of it: what the dealer's flush draws in the other suits add to the buy (only
    # a dealer that throws the up-card draws to them), by the positions taken from each suit.
    cdef int tau, u, p = x.p5[player]
    cdef int64_t total = 0
    if not x.D.any_thrown or not buys(x.st, player, p):
        return 0
    u = _plan_of(x, player, p)
    for tau in range(4):
        if tau != x.D.sigma:
            total += _delta_of(x, u, tau, taken[tau])
    return total


cdef int64_t _flush_value(Ctx* x, int i, int suit, int* new) noexcept nogil:
    # The value of the outcome where the kept cards of discard i and the new ranks are all of
    # ``suit``: the player has a flush. Its up-suit part is the same for the deals of one
    # up-suit generation (Shared.flush), whichever suit it is when not the up suit.
    cdef int j
    cdef int taken[4]
    cdef bint up = suit == x.D.sigma
    cdef FlushValue* c = &SH.flush[((MS_OFF[x.k] + x.seq - 1) * 10 + i) * 2 + up]
    for j in range(4):
        taken[j] = 0
    taken[suit] = (1 << x.nr) - 1
    if c.sgen != SH.sgen or x.card_by_card:
        _flush_new(x.R, x.nr, suit, new)
        c.player = _final_strength(x, x.masks[i], new)
        if capped(x.st, c.player, x.p5[c.player]):
            return _capped_outcome(x, new, x.nr, c.player, NULL)  # not kept: _capped_outcome's are its own
        c.value = _up_suit_value(x, x.bits[taken[x.D.sigma]], taken[x.D.sigma], c.player)
        c.sgen = SH.sgen
    return c.value + _other_suits(x, c.player, taken)


cdef inline int64_t _floor(Ctx* x, int64_t v) noexcept nogil:
    # after the exchange the player folds (-1) rather than bet worse, unless the bet is forced
    cdef int64_t floor = -x.n * x.den
    return v if x.forced or v >= floor else floor


cdef int _final_strength(Ctx* x, int mask, const int* new) noexcept nogil:
    # the strength of the kept cards of the hand and the new ones
    cdef int j, k = 0
    cdef int cards[5]
    for j in range(5):
        if not (mask >> j) & 1:
            cards[k] = x.hand[j]
            k += 1
    for j in range(x.k):
        cards[k + j] = new[j]
    return eval5(tables(), cards[0], cards[1], cards[2], cards[3], cards[4])


cdef void _fallback_leaf(Ctx* x) noexcept nogil:
    # card by card, for the (sigmask, discard mask) pairs where the fold floor may bind
    cdef int i, u, sigmask = 0, player
    for i in range(x.n_new):
        if (x.new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (x.new[i] >> 2)
    for u in range(x.n_unsafe):
        if x.unsafe_sig[u] != sigmask:
            continue
        for i in range(x.n_masks):
            if not (x.unsafe_masks[u] >> i) & 1:
                continue
            player = _final_strength(x, x.masks[i], x.new)
            if player != x.player[i]:
                continue  # a flush: counted with the flush outcomes
            if x.dist != NULL:
                x.acc[x.masks[i]] += _outcome_dist(x, x.new, x.n_new, player, x.masks[i])
            else:
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


cdef void _group_weights(Ctx* x, int sigmask) noexcept nogil:
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


cdef void _group_deltas(Ctx* x, int u, int sigmask) noexcept nogil:
    # the flush draws of the suits other than the up suit in the group sigmask, for plan u: the
    # outcomes taking the new ranks at positions tmask from suit tau add delta(tau, tmask) each
    cdef int e, tau, tmask
    cdef int64_t d, dmin, low = 0
    cdef int128 total = 0
    if not (x.wl_ok >> sigmask) & 1:
        _group_weights(x, sigmask)
    for tau in range(4):
        dmin = 0
        for e in range(x.wl_n[sigmask][tau]):
            tmask = x.wl_t[sigmask][tau][e]
            d = _delta_of(x, u, tau, tmask)
            total += (<int128> x.wl_w[sigmask][tau][e]) * d
            if d < dmin:
                dmin = d
        low += dmin
    x.group_sum[u][sigmask] = total
    x.group_low[u][sigmask] = low
    x.group_ok[u] |= 1 << sigmask


cdef void _other_total(Ctx* x, int u) noexcept nogil:
    # the flush draws of the suits other than the up suit over every outcome of the multiset,
    # for plan u, and the least they add to one outcome: as _group_deltas, the groups summed
    # (the outcomes taking the positions tmask from suit tau, whatever they take from the up
    # suit, are a product of one factor per position)
    cdef int j, e, tau, tmask, has, avail
    cdef int64_t w[32]
    cdef int64_t w0, w1, d, dmin, low = 0
    cdef int128 total = 0
    for tau in range(4):
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
                d = _delta_of(x, u, tau, tmask)
                total += (<int128> w[tmask]) * d
                if d < dmin:
                    dmin = d
        low += dmin
    x.other_sum[u] = total
    x.other_low[u] = low
    x.other_ok |= <int64_t> 1 << u


cdef MsInfo* _multiset_begin(Ctx* x) noexcept nogil:
    # What every pass over the multiset x.mult needs: the deck less it (x.a, x.pref), its
    # distinct ranks (x.R, x.Mr, x.Sr), its outcomes (x.leaves), the suits a flush of all its new
    # cards can be in (x.fl_common) and its MsInfo, filled once per generation.
    cdef const EvalTables* t = tables()
    cdef const Deal* D = x.D
    cdef int i, j, r, km, player, nr = 0, sig_ranks = 0
    cdef uint32_t key_new = 0, key
    cdef MsInfo* info
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
    info = &SH.info[MS_OFF[x.k] + x.seq]
    x.seq += 1
    # the multisets come in the same order for every deal of a generation (the order of
    # _ranks over the deal's rank counts): the index is the one met before
    x.ms = info.ms if info.gen == SH.gen else ms_index(x.mult)
    x.pref = _shared_pref(D, x.a, x.ms)
    _shared_room(MS_PLANS)
    if info.gen != SH.gen:
        info.ms = x.ms
        info.nq_blind = x.pref[D.ms_below[x.st.qualifier]]
        for i in range(x.n_masks):
            km = x.masks[i]
            key = key_new
            for j in range(5):
                if not (km >> j) & 1:
                    key += RK[x.hand[j] >> 2]
            player = t.rank_table[key]
            info.player[i] = player
            info.blind[i][0] = x.pref[D.ms_below[player]]
            info.blind[i][1] = x.pref[D.ms_below[player + 1]]
        info.gen = SH.gen
        for i in range(10):
            info.sgen[i] = 0
    return info


cdef void _group_counts(Ctx* x) noexcept nogil:
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


cdef int _flush_suits(Ctx* x, int i, int* fl_suit, int* fl_sig) noexcept nogil:
    # the suits where discard i's kept cards and every new card can be of one suit (the
    # player's flushes), and the group of each (its new cards of the up suit, as positions)
    cdef int pi, n_fl = 0
    for pi in range(4):
        if (x.kept_suits[i] & x.fl_common) >> pi & 1:
            fl_suit[n_fl] = pi
            fl_sig[n_fl] = (1 << x.nr) - 1 if pi == x.D.sigma else 0
            n_fl += 1
    return n_fl


cdef void _unsafe(Ctx* x, int sigmask, int i) noexcept nogil:
    # leave the group sigmask of discard i to the card-by-card path
    x.unsafe_sig[x.n_unsafe] = sigmask
    x.unsafe_masks[x.n_unsafe] = 1 << i
    _merge_unsafe(x)


cdef void _card_by_card(Ctx* x) noexcept nogil:
    # the outcomes of the groups left to the card-by-card path (x.unsafe_sig as positions)
    cdef int j
    if x.n_unsafe:
        # the card-by-card path compares rank bits
        for j in range(x.n_unsafe):
            x.unsafe_sig[j] = x.bits[x.unsafe_sig[j]]
        x.n_new = 0
        _suits(x, 0)


cdef void _multiset_dist(Ctx* x) noexcept nogil:
    """The results of every outcome of the multiset x.mult for the wanted discards (Ctx.dist).

    As _multiset: the non-flush outcomes of a group (the same new cards of the up suit) share
    the player's strength, the dealer's counts, the insurance and the buy's part of the up suit,
    and add the buy's parts of the other suits (by the positions they take from each: the
    weights of _group_weights), splits included. Where no outcome of a group may fold, its
    results are these sums; elsewhere they are taken card by card, as are the player's flushes.
    """
    cdef const Deal* D = x.D
    cdef MsInfo* info = _multiset_begin(x)
    cdef int i, j, k, e, tau, sigmask, km, player, p, u = 0, n_fl, m, full
    cdef int fl_suit[4]
    cdef int fl_sig[4]
    cdef int new[5]
    cdef int64_t cnt, v, low, dmin, floor = -x.n * x.den, w
    cdef int64_t counts[N_COUNTS]
    cdef int64_t split[5]
    cdef int64_t* up
    cdef int64_t* part
    cdef bint buy_rel, shared
    cdef Filter* f
    _group_counts(x)
    full = (1 << x.nr) - 1
    x.n_unsafe = 0
    for i in range(x.n_masks):
        km = x.masks[i]
        if not (x.wanted >> km) & 1:
            continue
        player = info.player[i]
        x.player[i] = player          # the card-by-card path tells the flushes by it
        p = x.p5[player]
        buy_rel = buys(x.st, player, p)
        if buy_rel:
            u = _plan_of(x, player, p)
        n_fl = _flush_suits(x, i, fl_suit, fl_sig)
        # outcomes of a group differ only in the other suits' flush draws of the buy
        shared = not buy_rel or not D.any_thrown
        for sigmask in range(1 << x.nr):
            cnt = x.group_count[sigmask]
            if cnt == 0:
                continue
            if x.card_by_card or capped(x.st, player, p):   # one by one (_outcome_dist)
                _unsafe(x, sigmask, i)
                continue
            for k in range(5):
                split[k] = 0
            up = _dist_part(x, u, D.sigma, sigmask) if buy_rel else split
            f = _slot(x, x.bits[sigmask])
            v = _bet(x.st, f, player, p, info.nq_blind + f.at_qualifier, info.blind[i], x.n, x.den, up[0], counts)
            low = v
            for k in range(5):
                split[k] = cnt * up[k] if buy_rel else 0
            if not shared:
                if not (x.wl_ok >> sigmask) & 1:
                    _group_weights(x, sigmask)
                for tau in range(4):
                    dmin = 0
                    for e in range(x.wl_n[sigmask][tau]):
                        part = _dist_part(x, u, tau, x.wl_t[sigmask][tau][e])
                        w = x.wl_w[sigmask][tau][e]
                        for k in range(5):
                            split[k] += w * part[k]
                        dmin = part[0] if part[0] < dmin else dmin
                    low += dmin
                if not x.forced and low < floor:
                    _unsafe(x, sigmask, i)  # some outcomes may fold
                    continue
            # the player's flushes of the group are counted by themselves (below)
            m = 0
            for j in range(n_fl):
                if fl_sig[j] != sigmask:
                    continue
                m += 1
                if buy_rel:
                    for k in range(5):
                        split[k] -= up[k]
                    for tau in range(4 if not shared else 0):
                        if tau != D.sigma:
                            part = _dist_part(x, u, tau, full if tau == fl_suit[j] else 0)
                            for k in range(5):
                                split[k] -= part[k]
            if shared and not x.forced and v < floor:
                x.dist[km].folded += cnt - m
                x.acc[km] += (<int128> (cnt - m)) * floor
            else:
                _dist_rows(&x.dist[km], counts, cnt - m, split + 1, p)
                x.acc[km] += (<int128> (cnt - m)) * (v - up[0]) + split[0]
        for j in range(n_fl):
            _flush_new(x.R, x.nr, fl_suit[j], new)
            x.acc[km] += _outcome_dist(x, new, x.nr, _final_strength(x, km, new), km)
    _card_by_card(x)


cdef void _multiset(Ctx* x) noexcept nogil:
    """Every exchange outcome whose new cards have the rank multiset x.mult, for every discard.

    Outcomes are grouped by the ranks of their new cards of the up-card's suit (sigmask): the
    non-flush outcomes of a group share the player's strength and the dealer's counts, and
    differ only in the buy's flush draws in the other suits, which add up suit by suit (D_tau,
    by the ranks taken from that suit). Where the fold floor cannot bind, the group's sum is
    exact from these parts and the numbers of outcomes; elsewhere the outcomes are taken card
    by card. The outcomes that make the player a flush are counted with their group, then
    replaced by their own value (_flush_value).

    The groups' values depend on the deal's suits only through the up suit's unseen cards: the
    first deal of a set with the same ones (Shared.sgen) computes them, the next ones read them
    and add only their own flush outcomes and the dealer's flush draws in the other suits.
    """
    cdef const Deal* D = x.D
    cdef const Settings* st = x.st
    cdef int i, j, nr, sigmask, km, player, p, n_fl
    cdef int* R = x.R
    cdef int fl_suit[4]
    cdef int fl_sig[4]
    cdef int new[5]
    cdef int64_t cnt, nq, v
    cdef int128 total
    cdef bint buy_rel, thrown
    cdef int u
    cdef bint have_plan, fill, one_by_one, all_groups = x.card_by_card
    cdef Filter* f
    cdef MsInfo* info = _multiset_begin(x)
    cdef int64_t* val
    cdef uint32_t unsafe
    cdef int full
    cdef int taken[4]
    nr = x.nr
    thrown = D.any_thrown
    # the groups' rank bits and outcomes, where they are needed (without them, and without
    # groups left to the card-by-card path, only the rank bits of no position and of all of
    # them are read: by a player's flush)
    for i in range(x.n_masks):
        if (x.wanted >> x.masks[i]) & 1:
            all_groups = (all_groups or thrown or info.unsafe[i] != 0 or info.sgen[i] != SH.sgen
                          or info.forced[i] != x.forced or capped(st, info.player[i], x.p5[info.player[i]]))
    if all_groups:
        _group_counts(x)
    else:
        x.bits[0] = 0
        x.bits[(1 << nr) - 1] = 0
        for j in range(nr):
            x.bits[(1 << nr) - 1] |= 1 << R[j]
    # the groups' values: once per up-suit generation (see MsInfo), when fill
    x.n_unsafe = 0
    full = (1 << nr) - 1
    for i in range(x.n_masks):
        km = x.masks[i]
        if not (x.wanted >> km) & 1:
            continue
        player = info.player[i]
        x.player[i] = player
        p = x.p5[player]
        # the outcomes of a hand whose insurance can reach the table's maximum are taken one by one
        one_by_one = x.card_by_card or capped(st, player, p)
        fill = not one_by_one and (info.sgen[i] != SH.sgen or info.forced[i] != x.forced)
        buy_rel = buys(st, player, p)
        val = SH.vals + ((MS_OFF[x.k] + x.seq - 1) * 10 + i) * 32
        if one_by_one:
            for sigmask in range(1 << nr):
                if x.group_count[sigmask]:
                    _unsafe(x, sigmask, i)
        elif fill:
            # without the player's flushes and the other suits' flush draws: what the deals
            # of this up-suit generation share
            have_plan = False
            total = 0
            unsafe = 0
            for sigmask in range(1 << nr):
                cnt = x.group_count[sigmask]
                if cnt == 0:
                    continue
                f = _slot(x, x.bits[sigmask])
                nq = info.nq_blind + f.at_qualifier
                if not buy_rel:
                    v = _floor(x, _bet(st, f, player, p, nq, info.blind[i], x.n, x.den, 0, NULL))
                else:
                    if not have_plan:
                        # the buy's part shared by every group of this player and by the
                        # players of its band with its payout
                        u = _plan_of(x, player, p)
                        have_plan = True
                    v = _bet(st, f, player, p, nq, info.blind[i], x.n, x.den, _excess_of(x, u, sigmask), NULL)
                    if not thrown and not x.forced and v < -x.n * x.den:
                        # the fold floor may bind for some outcomes: card by card
                        unsafe |= 1 << sigmask
                        continue
                val[sigmask] = v
                total += (<int128> cnt) * v
            info.total[i] = total
            info.unsafe[i] = unsafe
            info.sgen[i] = SH.sgen
            info.forced[i] = x.forced
        # the outcomes where every card is of one suit: the player has a flush
        n_fl = _flush_suits(x, i, fl_suit, fl_sig)
        for j in range(4):
            taken[j] = 0
        if one_by_one:
            pass
        elif not buy_rel:
            total = info.total[i]
            for j in range(n_fl):
                total -= val[fl_sig[j]]  # counted as non-flush, come out again
            x.acc[km] += total
        else:
            total = info.total[i]
            unsafe = info.unsafe[i]
            if thrown:
                # the other suits' flush draws of the dealer's buy, and the groups where they
                # make the fold floor bind (looked at group by group only when the least they
                # add over all groups could)
                u = _plan_of(x, player, p)
                if not (x.other_ok >> u) & 1:
                    _other_total(x, u)
                total += x.other_sum[u]
                for sigmask in range(1 << nr if not x.forced else 0):
                    cnt = x.group_count[sigmask]
                    if cnt == 0 or val[sigmask] + x.other_low[u] >= -x.n * x.den:
                        continue
                    if not (x.group_ok[u] >> sigmask) & 1:
                        _group_deltas(x, u, sigmask)
                    if val[sigmask] + x.group_low[u][sigmask] < -x.n * x.den:
                        total -= (<int128> cnt) * val[sigmask] + x.group_sum[u][sigmask]
                        unsafe |= 1 << sigmask
            for sigmask in range(1 << nr if unsafe else 0):
                if (unsafe >> sigmask) & 1:
                    _unsafe(x, sigmask, i)
            # the flush outcomes counted above as non-flush come out again: their group's
            # value and their own flush draws of the other suits
            for j in range(n_fl):
                if not (unsafe >> fl_sig[j]) & 1:
                    taken[fl_suit[j]] = full
                    total -= val[fl_sig[j]] + _other_suits(x, player, taken)
                    taken[fl_suit[j]] = 0
            x.acc[km] += total
        # the flush outcomes themselves
        for j in range(n_fl):
            x.acc[km] += _floor(x, _flush_value(x, i, fl_suit[j], new))
    _card_by_card(x)


cdef void _multiset_plain(Ctx* x) noexcept nogil:
    """Upper bounds of the outcomes whose new cards have the rank multiset x.mult, for every
    discard: each valued as if no card made a flush, the player's, the dealer's or a draw after
    the dealer's buy. Against a player without a flush, a flush of the dealer (or of a draw
    after a buy) beats what the same ranks without it would, so it can only lower the value,
    whatever insurance and buy are chosen; the player's own flushes are _flush_slack's."""
    cdef MsInfo* info = _multiset_begin(x)
    cdef int i, player, p
    cdef int64_t excess, v
    cdef int64_t more[2]
    for i in range(x.n_masks):
        player = info.player[i]
        p = x.p5[player]
        # a rank plan's base: its excess when no dealer hand has a flush or a flush draw
        excess = x.plans[_plan_of(x, player, p)].base if buys(x.st, player, p) else 0
        if capped(x.st, player, p):
            # and with the payouts of I_min and I_max (_bet_capped): for each size, the same bound
            more[0] = plan_base(x.D, x.st, x.a, x.ysize, player, insured_pay(x.st, p, x.st.insurance_min))
            more[1] = plan_base(x.D, x.st, x.a, x.ysize, player, insured_pay(x.st, p, x.st.insurance_max * p))
            v = _bet(x.st, &x.no_flush, player, p, info.nq_blind, info.blind[i], x.n, x.den, excess, NULL, more)
        else:
            v = _bet(x.st, &x.no_flush, player, p, info.nq_blind, info.blind[i], x.n, x.den, excess, NULL)
        x.acc[x.masks[i]] += (<int128> x.leaves) * _floor(x, v)


cdef int128 _flush_slack(Ctx* x, int i) noexcept nogil:
    """What _multiset_plain's sum for discard i lacks to bound the player's flush outcomes too
    (the kept cards and every new card of one suit): each was counted at its value without the
    flush, at least the fold floor (-1, or -3 when the bet is forced: no dealer hand takes more
    than the ante and the bet), and is worth at most I_max + 2P + win_extra + 1 with it (no
    dealer hand pays more, nor more than the table's maximum: RULES §5-§7)."""
    cdef int s, r, j, n_avail, player, p, k = x.k
    cdef int avail[13]
    cdef int pick[5]
    cdef int new[5]
    cdef int64_t most, floor = 3 if x.forced else 1
    cdef int128 total = 0
    for s in range(4):
        if not (x.kept_suits[i] >> s) & 1:
            continue
        n_avail = 0
        for r in range(13):
            if (x.D.ys0[s] >> r) & 1:
                avail[n_avail] = r
                n_avail += 1
        if n_avail < k:
            continue
        for j in range(k):
            pick[j] = j
        while True:
            for j in range(k):
                new[j] = 4 * avail[pick[j]] + s
            player = _final_strength(x, x.masks[i], new)
            p = x.p5[player]
            most = 2 * p + x.st.win_extra + 1
            if player >= x.st.insurance_from:
                most += x.st.insurance_max * p
            most = most if most < x.st.max_payout else x.st.max_payout  # no box is paid more
            total += (<int128> (most + floor)) * x.n * x.den
            if not next_subset(pick, k, n_avail):  # the next k-subset of the suit's unseen ranks
                break
    return total


cdef void _merge_unsafe(Ctx* x) noexcept nogil:
    # one entry per sigmask: fold the entry just added into an earlier one of the same sigmask
    cdef int u, last = x.n_unsafe
    for u in range(last):
        if x.unsafe_sig[u] == x.unsafe_sig[last]:
            x.unsafe_masks[u] |= x.unsafe_masks[last]
            return
    x.n_unsafe += 1


cdef inline void _flush_new(const int* R, int nr, int suit, int* new) noexcept nogil:
    cdef int j
    for j in range(nr):
        new[j] = 4 * R[j] + suit


cdef void _ranks(Ctx* x, int r, int left) noexcept nogil:
    # choose the rank multiset of the new cards
    cdef int m
    if left == 0:
        if x.plain:
            _multiset_plain(x)
        elif x.dist != NULL:
            _multiset_dist(x)
        else:
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
    st.max_payout = d["max_payout"]


def situation(const uint8_t[::1] final, int up, const uint8_t[::1] known, dict settings, int p):
    """Counts (n, win, tie, lose, nq, buy_excess, den, buys, buy_win, buy_tie, buy_lose,
    insurance, insured_excess) for betting a final hand of 5 or 6 cards: dealer hands; the buy's
    excess uninsured, over n * den; the non-qualifying hands where buying beats taking the ante,
    and their draws that end in a showdown the player wins, ties, loses (over den, as the
    brute force counts them: ``_brute.outcomes``), with the insurance taken; that insurance in
    antes, and the buy's excess with it.

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
    cdef int f_lists[2 * MAX_FLUSH]
    cdef int64_t counts[N_COUNTS]
    cdef int64_t n, den, nq
    cdef int player, i
    try:
        deal_init(D, up, _ptr(known), known.shape[0], st.qualifier)
        if final.shape[0] == 5:
            player = eval5(t, final[0], final[1], final[2], final[3], final[4])
        else:
            player = eval6(t, &final[0])
        blind_prefix(D, D.a0, pref)
        filter_lists(&f, f_lists)
        flush_filter(D, 0, &f)
        n = falling(D.n0, 4) // 24
        den = falling(D.n0 - 4, st.redraws + 1)
        nq = dealer_below(D, pref, &f, st.qualifier)
        _value(D, &st, pref, &f, D.a0, D.ys0, D.n0, player, p, nq, n, den, counts)
    finally:
        free(D)
        free(pref)
    return tuple(counts[i] for i in range(N_COUNTS))


cdef object _dist_py(const Dist* d, int64_t n, int64_t den):
    return d.folded, {d.key[j]: tuple(d.row[j][i] for i in range(8)) for j in range(d.n)}, n, den


cdef void _count_begin(Ctx* x, int k, bint forced) noexcept:
    # the discards of k cards and the counts of their outcomes, before a pass over the multisets
    cdef int i, j
    x.k = k
    x.forced = forced
    x.n_masks = 0
    for i in range(32):
        x.acc[i] = 0
        if POP[i] == k:
            x.masks[x.n_masks] = i
            x.kept_suits[x.n_masks] = 15  # no card kept: any suit
            for j in range(5):
                if not (i >> j) & 1:
                    x.kept_suits[x.n_masks] &= 1 << (x.hand[j] & 3)
            x.n_masks += 1
    for i in range(13):
        x.mult[i] = 0
    x.n_new = 0
    x.ysize = x.D.n0 - k
    x.n = falling(x.D.n0 - k, 4) // 24
    x.den = falling(x.D.n0 - k - 4, x.st.redraws + 1)
    x.outcomes = 0
    x.seq = 0


def solve(const uint8_t[::1] hand, int up, const uint8_t[::1] dead, dict settings,
          const int32_t[::1] p5, const int32_t[::1] paytable, bint second_on, bint new_rank,
          tuple exchange_counts, tuple forced_counts, bint sixth_on, bint card_by_card=False,
          tuple bound_counts=(), uint32_t wanted=0xFFFFFFFF, bint dist=False):
    """Exact numerators of every option of one deal.

    Returns a dict: ``bet`` the counts (n, win, tie, lose, nq, buy_excess, den) and ``bet_value``
    (numerator over n * den); ``sixth`` (numerator, denominator) of the average over sixth cards
    of max(-1, value); ``exchange`` {discard mask: (numerator, denominator)} likewise, fees
    excluded, for the discard masks in ``wanted`` (a bit for each). ``card_by_card`` takes every exchange outcome one by one instead of by groups
    (slower; the tests compare the two). ``exchange_bound`` {discard mask: (numerator,
    denominator)}: upper bounds of the exchanges of each count in ``bound_counts`` (values
    without flushes, _multiset_plain, and the player's flushes at their most, _flush_slack),
    far cheaper: the ranks' part is shared by the deals of a rank-level deal.

    With ``dist``, the results of the sixth card (``sixth_dist``) and of the exchanges solved
    (``exchange_dist``, by discard mask) too, outcome by outcome (card by card): each
    (outcomes folded, {P << 16 | insurance: the sums over the outcomes bet of win, tie, lose,
    nq, buys, buy_win, buy_tie, buy_lose as ``situation`` counts them}, n, den), an outcome
    being n dealer hands of den draw sequences each.
    """
    if p5.shape[0] != N_STRENGTH:
        raise ValueError(f"p5 has {p5.shape[0]} payouts, not one per strength ({N_STRENGTH})")
    _shared_alloc()
    cdef Settings st
    _settings(settings, &st)
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    D.ranks_valid = 0
    cdef int64_t* pref
    cdef Filter* slots = <Filter*> malloc(MAX_SLOTS * sizeof(Filter))
    cdef int* slot_lists = <int*> malloc(MAX_SLOTS * 2 * MAX_FLUSH * sizeof(int))
    cdef Filter** filter_of = <Filter**> malloc(8192 * sizeof(Filter*))
    cdef Dist* dists = <Dist*> calloc(33, sizeof(Dist)) if dist else NULL  # by mask; 32: the sixth card
    if dist and SH.split_memo == NULL:
        SH.split_memo = <SplitSlot*> calloc(STORE_PLANS << SPLIT_REGION, sizeof(SplitSlot))
        if SH.split_memo == NULL:
            raise MemoryError("no memory for the solver's memo of results")
    cdef DistCache* dist_cache = <DistCache*> malloc(sizeof(DistCache)) if dist else NULL
    cdef int128 acc[32]
    cdef int64_t counts[N_COUNTS]
    cdef int i, j, c, k, u, player, p, a1, a2, a3
    cdef int a[13]
    cdef uint16_t ys[4]
    cdef uint8_t six[6]
    cdef Filter f
    cdef int f_lists[2 * MAX_FLUSH]
    cdef Ctx x
    cdef int128 total
    cdef int64_t n, den, v, nq
    cdef int64_t buy[5]
    cdef int64_t part[5]
    cdef RankPlan rank_plan
    result = {}
    try:
        known = np.concatenate([np.asarray(hand), np.asarray(dead)]).astype(np.uint8)
        deal_init(D, up, _ptr(known), known.shape[0], st.qualifier)
        _shared_begin(D, &st, &p5[0], &hand[0])
        # bet the dealt hand
        for i in range(13):
            a[i] = D.a0[i]
        for i in range(4):
            ys[i] = D.ys0[i]
        pref = _shared_pref(D, a, 0)
        filter_lists(&f, f_lists)
        flush_filter(D, 0, &f)
        n = falling(D.n0, 4) // 24
        den = falling(D.n0 - 4, st.redraws + 1)
        player = eval5(t, hand[0], hand[1], hand[2], hand[3], hand[4])
        nq = dealer_below(D, pref, &f, st.qualifier)
        v = _value(D, &st, pref, &f, a, ys, D.n0, player, p5[player], nq, n, den, counts)
        result["bet"] = tuple(counts[i] for i in range(N_COUNTS))
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
                pref = _shared_pref(D, a, MS_OFF[1] + (c >> 2))
                flush_filter(D, (1 << (c >> 2)) if (c & 3) == D.sigma else 0, &f)
                player = eval6(t, six)
                p = payout_detail(t, six, 6, &paytable[0], second_on, new_rank, &a1, &a2, &a3)
                nq = dealer_below(D, pref, &f, st.qualifier)
                memset(buy, 0, sizeof(buy))
                if capped(&st, player, p):
                    # the buy for each insurance that may be best: computed here (_value)
                    v = _value(D, &st, pref, &f, a, ys, D.n0 - 1, player, p, nq, n, den, counts)
                    for k in range(4):
                        buy[1 + k] = counts[7 + k]
                elif buys(&st, player, p):
                    # the deck is that of a one-card exchange drawing this rank: its plans
                    _shared_room(1)
                    u = _shared_plan(D, &st, a, D.n0 - 1, player, p, MS_OFF[1] + (c >> 2), &rank_plan)
                    if dist:
                        for j in range(4):
                            _memo_split(u, 0 if j == D.sigma else 1, &rank_plan, a, ys[j], part)
                            for k in range(5):
                                buy[k] += part[k]
                    else:
                        buy[0] = _deck_excess(u, &rank_plan, a, ys, D.sigma)
                if not capped(&st, player, p):
                    v = _value(D, &st, pref, &f, a, ys, D.n0 - 1, player, p, nq, n, den, counts, True, buy[0])
                if dist and v < -n * den:
                    dists[32].folded += 1
                elif dist:
                    _dist_rows(&dists[32], counts, 1, buy + 1, p)
                total += v if v > -n * den else -n * den
                a[c >> 2] += 1
                ys[c & 3] |= 1 << (c >> 2)
            result["sixth"] = (_py(total), D.n0 * n * den)
            if dist:
                result["sixth_dist"] = _dist_py(&dists[32], n, den)
        # exchanges, by number of cards
        exchanges = {}
        dist_of = {}
        x.D = D
        x.st = &st
        x.hand = &hand[0]
        x.p5 = &p5[0]
        x.slots = slots
        x.slot_lists = slot_lists
        x.n_slots = 0
        x.filter_of = filter_of
        for i in range(8192):
            filter_of[i] = NULL
        x.acc = acc
        x.card_by_card = card_by_card
        x.dist = dists
        x.dist_cache = dist_cache
        x.wanted = wanted
        x.plain = False
        for k in exchange_counts:
            _count_begin(&x, k, k in forced_counts)
            # with the GIL held: the shared store (Shared) is the process's, so threads of one
            # process must solve one deal at a time (parallel builds use processes)
            _ranks(&x, 0, k)
            for i in range(x.n_masks):
                if (wanted >> x.masks[i]) & 1:
                    exchanges[x.masks[i]] = (_py(acc[x.masks[i]]), x.outcomes * x.n * x.den)
                    if dist:
                        dist_of[x.masks[i]] = _dist_py(&dists[x.masks[i]], x.n, x.den)
        bounds = {}
        for k in bound_counts:
            _count_begin(&x, k, k in forced_counts)
            if any(SH.plain_gen[x.masks[i]] != SH.gen or SH.plain_forced[x.masks[i]] != x.forced
                   for i in range(x.n_masks)):
                filter_lists(&x.no_flush, f_lists)
                x.no_flush.sigmask = -1
                x.no_flush.n = 0
                x.no_flush.fl_lo = x.no_flush.fl_hi = x.no_flush.nf_lo = x.no_flush.nf_hi = N_STRENGTH + 1
                x.no_flush.gap_lo = x.no_flush.gap_hi = N_STRENGTH + 1
                x.no_flush.n_low = 0
                x.no_flush.at_qualifier = 0
                x.plain = True
                _ranks(&x, 0, k)
                x.plain = False
                for i in range(x.n_masks):
                    SH.plain[x.masks[i]] = acc[x.masks[i]]
                    SH.plain_gen[x.masks[i]] = SH.gen
                    SH.plain_forced[x.masks[i]] = x.forced
            for i in range(x.n_masks):
                total = SH.plain[x.masks[i]] + _flush_slack(&x, i)
                bounds[x.masks[i]] = (_py(total), falling(D.n0, k) // falling(k, k) * x.n * x.den)
        result["exchange_bound"] = bounds
        result["exchange"] = exchanges
        if dist:
            result["exchange_dist"] = dist_of
    finally:
        free(dists)
        free(dist_cache)
        free(D)
        free(slots)
        free(slot_lists)
        free(filter_of)
    return result


def bet_counts(const uint8_t[:, ::1] hands, const uint8_t[::1] up_cards, dict settings,
               const int32_t[::1] p5, int64_t[:, ::1] out):
    """Counts (n, win, tie, lose, nq, buy_excess, den) of betting each dealt hand, no dead cards,
    the value of the bet with the best insurance (numerator over n * den), then the split of
    the buys, the insurance and its excess (buys, buy_win, buy_tie, buy_lose, insurance,
    insured_excess: see ``situation``).

    ``out`` has one row of 14 per deal. Consecutive deals of the same ranks (hand and up-card)
    share the dealer's rank counts: sort the deals by ranks to make the most of it.
    """
    cdef Settings st
    _settings(settings, &st)
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    cdef int64_t* pref = <int64_t*> malloc((N_MULTI + 1) * sizeof(int64_t))
    cdef Filter f
    cdef int f_lists[2 * MAX_FLUSH]
    cdef int64_t counts[N_COUNTS]
    cdef int64_t n, den, nq
    cdef Py_ssize_t k
    cdef int player, i
    if hands.shape[1] != 5 or up_cards.shape[0] != hands.shape[0] or out.shape[0] != hands.shape[0] \
            or out.shape[1] != N_COUNTS + 1:
        raise ValueError("hands (N, 5), up_cards (N,) and out (N, 14) do not match")
    D.ranks_valid = 0
    try:
        with nogil:
            for k in range(hands.shape[0]):
                if not deal_init(D, up_cards[k], &hands[k, 0], 5, st.qualifier):
                    blind_prefix(D, D.a0, pref)
                filter_lists(&f, f_lists)
                flush_filter(D, 0, &f)
                n = falling(D.n0, 4) // 24
                den = falling(D.n0 - 4, st.redraws + 1)
                player = eval5(t, hands[k, 0], hands[k, 1], hands[k, 2], hands[k, 3], hands[k, 4])
                nq = dealer_below(D, pref, &f, st.qualifier)
                out[k, 7] = _value(D, &st, pref, &f, D.a0, D.ys0, D.n0, player, p5[player], nq, n, den, counts)
                for i in range(N_COUNTS):
                    out[k, i + (i >= 7)] = counts[i]
    finally:
        free(D)
        free(pref)
