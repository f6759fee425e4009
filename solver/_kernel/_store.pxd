# The per-process store (docs/design.md §6): what the suit classes of one rank-level deal share --
# the blind prefix of every multiset of new ranks, the rank-level buy plans and the memo of their
# suit corrections, the values of groups of exchange outcomes -- kept while consecutive deals have
# the same ranks. One store per process (``STORE``); ``solve`` holds the GIL, so one deal at a time.
#
# Glossary: a *generation* (gen) is one rank-level deal met; an *up-suit generation* (sgen) one
# set of unseen cards in the up-card's suit within it; an *epoch* one filling of the plans.
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t
from libc.string cimport memset
from solver._kernel._buy cimport PlanEntry, RankPlan, plan_part
from solver._kernel._combinatorics cimport BINOM, int128, prefetch
from solver._kernel._deck cimport PREFIX_ROW, Deal, Filter, prefix_start
from solver._kernel._settle cimport Settings

cdef enum:
    MAX_SLOTS = 2048              # sets of dealer flushes kept (at most 1,586 sigmasks of <= 5 ranks)
    STORE_ENTRIES = 1 << 23       # plan entries the shared store holds (128 MB at most)
    STORE_PLANS = 1 << 16
    MEMO_REGION = 8               # the memo of plan excesses and deltas: a page of 256 slots per
                                  # plan (STORE_PLANS of them: 256 MB at most, touched as used)
    MEMO_PROBES = 8               # slots a lookup probes before it takes its key's first slot


cdef struct SharedPlan:
    int band, p, next
    RankPlan r


cdef struct DiscardInfo:
    # one discard of a multiset (by its place in Ctx.masks): the player's strength when the new
    # cards make no flush and the blind counts below it and below the next strength. Then what
    # the deals of one up-suit generation (Shared.sgen) share: the sum over the groups of new
    # cards of their outcomes' value without the player's flushes and the flush draws of the
    # other suits (groups that need the card-by-card path left out when that does not depend
    # on the other suits: ``unsafe``, by sigmask), and each group's value (group_vals). Valid
    # when its sgen and forced are the store's and the call's (a call may solve only some
    # discards: Ctx.wanted).
    int32_t player
    uint32_t sgen
    int32_t forced
    uint32_t unsafe
    int64_t blind[2]
    int128 total


cdef struct MsInfo:
    # a multiset of new ranks: the dealer hands below the qualifier by ranks, and its discards.
    # Kept in the order the multisets are met (the same for every deal of a generation), and
    # the discards of the multisets of k new cards packed in that order (C(5, k) each), so that
    # both are read in sequence, not from all over memory.
    uint32_t gen
    int32_t ms
    int64_t nq_blind
    DiscardInfo* d                    # set once (store_alloc)


cdef struct FlushValue:
    # the up-suit part of a flush outcome (flush_value) for one up-suit generation
    uint32_t sgen
    int32_t player
    int64_t value


cdef struct MemoSlot:
    uint32_t key                      # kind << 13 | ys (the page is the plan's)
    uint32_t epoch                    # the slot is empty unless this is Shared.memo_epoch
    int64_t value


cdef enum:
    SPLIT_REGION = 6              # the memo of the buys' splits (results): 64 slots per plan
    SPLIT_PROBES = 8              # slots a lookup probes before it takes its key's first slot


cdef struct SplitSlot:
    # as MemoSlot: the excess and the split of the buys (add_split), for results (Results)
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
    int64_t* pref                     # N_MS_ALL rows of PREFIX_ROW
    MsInfo* info                      # N_MS_ALL: multisets of k cards from MS_OFF[k], in the order met
    DiscardInfo* discards             # their discards (MsInfo.d)
    uint32_t* pref_gen                # the generation of each row
    int32_t* plan_head                # by multiset: its first plan (a list by band and payout)
    uint32_t* plan_epoch
    SharedPlan* plans
    int n_plans
    PlanEntry* entries
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
    int64_t* vals                     # each group's value (MsInfo; group_vals)
    int64_t vals_off[6]               # where those of the multisets of k new cards start
    int64_t discard_off[6]            # the first discard of the multisets of k new cards
    # the dealer flushes left by each sigmask met (dealer_flushes): they depend on the up rank,
    # the up suit's unseen cards and the sigmask alone, so they are kept for the up-suit generation
    Filter* slots                     # MAX_SLOTS filters
    int* slot_lists                   # MAX_SLOTS * 2 * MAX_FLUSH: their lists
    int n_slots
    Filter** filter_of                # by sigmask (13 bits), or NULL
    uint32_t filters_sgen             # the up-suit generation they are of
    FlushValue* flush                 # by discard, in the up suit or not (flush_slot)
    # by discard mask: the sum of multiset_bound over every multiset, for this generation and
    # a bet forced after the exchange or not (it depends on the ranks alone)
    int128 plain[32]
    uint32_t plain_gen[32]
    int32_t plain_forced[32]


cdef Shared STORE


cdef int store_alloc() except -1


cdef int results_memo_alloc() except -1


cdef void new_epoch() noexcept nogil


cdef void store_begin(const Deal* D, const Settings* st, const int32_t* p5, const uint8_t* hand) noexcept nogil


cdef inline int64_t* group_vals(int k, int seq, int i) noexcept nogil:
    # each group's value, by sigmask, of discard i of the multiset met seq-th among those of k
    # new cards: 2^k for each of the C(5, k) discards of each multiset, the multisets in the
    # order met, packed (a pass reads them from consecutive memory, not a page each)
    return STORE.vals + STORE.vals_off[k] + ((<int64_t> seq * BINOM[5][k] + i) << k)


cdef inline FlushValue* flush_slot(int k, int seq, int i, bint up) noexcept nogil:
    # the up-suit part of the flush outcome of discard i of that multiset, in the up suit or not
    return STORE.flush + 2 * (STORE.discard_off[k] + <int64_t> seq * BINOM[5][k] + i) + up


cdef inline void forget_filters() noexcept nogil:
    # the dealer flushes kept are dropped (another up-suit generation's, or the slots full)
    STORE.n_slots = 0
    memset(STORE.filter_of, 0, 8192 * sizeof(Filter*))


cdef inline int64_t* store_pref(const Deal* D, const int* a, int ms) noexcept nogil:
    # the blind prefix of the deck a (the deal's deck less the multiset ms): its anchors read
    # in this generation are kept (prefix_at)
    cdef int64_t* pref = STORE.pref + ms * PREFIX_ROW
    if STORE.pref_gen[ms] != STORE.gen:
        prefix_start(D, a, pref)
        STORE.pref_gen[ms] = STORE.gen
    return pref


cdef void store_room(int plans) noexcept nogil


cdef int store_plan(const Deal* D, const Settings* st, const int* a, int ysize, int player, int p,
                      int ms, RankPlan* out) noexcept nogil


cdef void memo_split(int plan, int kind, const RankPlan* R, const int* a, uint16_t ys,
                      int64_t* part) noexcept nogil


cdef inline bint nothing_to_look_up(int kind, const RankPlan* R) noexcept nogil:
    # a plan whose part does not depend on the suit's unseen cards: no dealer hand throws the
    # up-card (no flush draw in another suit) and, for the up suit, no rank set is kept
    return R.n_thrown == 0 and (kind == 1 or R.n == 0)


cdef inline uint32_t memo_home(uint32_t key, int region) noexcept nogil:
    # the slot of its plan's page (of 2^region slots) where a key is looked for first
    return (key * <uint32_t> 2654435761) >> (32 - region)


cdef inline void memo_ahead(int plan, int kind, const RankPlan* R, uint16_t ys) noexcept nogil:
    # start reading the slot where memo looks (kind, ys) up first: a multiset's lookups, each
    # in a cache line of its own, then wait for memory together, not one after another
    cdef uint32_t key = (<uint32_t> kind << 13) | ys
    if plan >= 0 and not nothing_to_look_up(kind, R):
        prefetch(STORE.memo + (<int64_t> plan << MEMO_REGION) + memo_home(key, MEMO_REGION))


cdef inline int64_t memo(int plan, int kind, const RankPlan* R, const int* a, uint16_t ys,
                          int64_t* split=NULL) noexcept nogil:
    """plan_excess (kind 0) or other_suit_delta (kind 1) of the rank plan ``R`` for the unseen
    cards ``ys`` of a suit, computed once while the plan is in the store (``plan``: its place;
    -1 for a plan of one's own, not kept). With ``split``, computed (the memo keeps no split).
    A lookup probes MEMO_PROBES slots at most and a new key then takes its first one: a page
    probed to its end on every miss cost more than the values it kept."""
    cdef uint32_t key = (<uint32_t> kind << 13) | ys
    # each plan has its own page: the lookups of one multiset's plans stay in a few cache lines
    # and pages (a hash over the whole table missed the cache and the TLB on most lookups)
    cdef MemoSlot* region = STORE.memo + (<int64_t> plan << MEMO_REGION)
    cdef uint32_t first = memo_home(key, MEMO_REGION), i = first, probes
    cdef int64_t value
    if plan < 0 or split != NULL:
        return plan_part(kind, R, a, ys, split)
    if nothing_to_look_up(kind, R):
        return 0 if kind == 1 else R.base  # no memory touched
    for probes in range(MEMO_PROBES):
        if region[i].epoch != STORE.memo_epoch:
            break
        if region[i].key == key:
            return region[i].value
        i = (i + 1) & ((1 << MEMO_REGION) - 1)
    else:
        i = first
    value = plan_part(kind, R, a, ys)
    region[i].key = key
    region[i].epoch = STORE.memo_epoch
    region[i].value = value
    return value


cdef inline int64_t deck_excess(int plan, const RankPlan* R, const int* a, const uint16_t* ys,
                                 int sigma, int64_t* split=NULL) noexcept nogil:
    # the whole excess of a deck (ys: its cards by suit), flush draws in every suit included
    cdef int64_t total = memo(plan, 0, R, a, ys[sigma], split)
    cdef int tau
    for tau in range(4):
        if tau != sigma:
            total += memo(plan, 1, R, a, ys[tau], split)
    return total
