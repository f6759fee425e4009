# cython: language_level=3
"""The per-process store of the counting kernel (declared in ``solver/_kernel/_store.pxd``; docs/design.md §6)."""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t
from libc.stdlib cimport calloc, malloc
from libc.string cimport memcmp, memcpy, memset
from solver._kernel._buy cimport PlanEntry, RankPlan, bands_alloc, forget_bands, plan_part, rank_plan
from solver._kernel._combinatorics cimport BINOM, MS_OFF, N_DISTINCT, N_MS_ALL
from solver._kernel._deck cimport MAX_FLUSH, PREFIX_ROW, Deal, Filter
from solver._kernel._eval cimport N_STRENGTH
from solver._kernel._settle cimport Settings, win_pay


cdef int store_alloc() except -1:
    # the store, once per process (pages are touched only as they are used)
    cdef int k, j
    cdef int64_t multisets, n_vals = 0, n_discards = 0
    if STORE.pref != NULL:
        return 0
    for k in range(6):
        STORE.vals_off[k] = n_vals
        STORE.discard_off[k] = n_discards
        multisets = (MS_OFF[k + 1] if k < 5 else N_MS_ALL) - MS_OFF[k]
        n_discards += multisets * BINOM[5][k]
        n_vals += (multisets * BINOM[5][k]) << k
    STORE.p5 = <int32_t*> calloc(N_STRENGTH, sizeof(int32_t))
    STORE.pref = <int64_t*> malloc(N_MS_ALL * PREFIX_ROW * sizeof(int64_t))
    STORE.info = <MsInfo*> calloc(N_MS_ALL, sizeof(MsInfo))
    STORE.discards = <DiscardInfo*> calloc(n_discards, sizeof(DiscardInfo))
    STORE.pref_gen = <uint32_t*> calloc(N_MS_ALL, sizeof(uint32_t))
    STORE.plan_head = <int32_t*> calloc(N_MS_ALL, sizeof(int32_t))
    STORE.plan_epoch = <uint32_t*> calloc(N_MS_ALL, sizeof(uint32_t))
    STORE.plans = <SharedPlan*> malloc(STORE_PLANS * sizeof(SharedPlan))
    STORE.entries = <PlanEntry*> malloc(STORE_ENTRIES * sizeof(PlanEntry))
    STORE.memo = <MemoSlot*> calloc(STORE_PLANS << MEMO_REGION, sizeof(MemoSlot))
    STORE.vals = <int64_t*> malloc(n_vals * sizeof(int64_t))
    STORE.slots = <Filter*> malloc(MAX_SLOTS * sizeof(Filter))
    STORE.slot_lists = <int*> malloc(MAX_SLOTS * 2 * MAX_FLUSH * sizeof(int))
    STORE.filter_of = <Filter**> calloc(8192, sizeof(Filter*))
    STORE.flush = <FlushValue*> calloc(2 * n_discards, sizeof(FlushValue))
    STORE.memo_epoch = 1
    if (STORE.memo == NULL or STORE.vals == NULL or STORE.flush == NULL or STORE.p5 == NULL or STORE.pref == NULL or STORE.info == NULL or STORE.discards == NULL or STORE.pref_gen == NULL or STORE.plan_head == NULL
            or STORE.plan_epoch == NULL or STORE.plans == NULL or STORE.entries == NULL
            or STORE.slots == NULL or STORE.slot_lists == NULL or STORE.filter_of == NULL):
        raise MemoryError("no memory for the solver's shared store")
    for k in range(6):
        for j in range(MS_OFF[k], MS_OFF[k + 1] if k < 5 else N_MS_ALL):
            STORE.info[j].d = STORE.discards + STORE.discard_off[k] + (j - MS_OFF[k]) * BINOM[5][k]
    bands_alloc()
    return 0


cdef int results_memo_alloc() except -1:
    # the memo of the buys' splits, once per process, when results are first asked for
    if STORE.split_memo == NULL:
        STORE.split_memo = <SplitSlot*> calloc(STORE_PLANS << SPLIT_REGION, sizeof(SplitSlot))
        if STORE.split_memo == NULL:
            raise MemoryError("no memory for the solver's memo of results")
    return 0


cdef void new_epoch() noexcept nogil:
    # the plans start again, and so does the memo of their excesses
    STORE.epoch += 1
    STORE.memo_epoch += 1


def clear_shared() -> None:
    """Forget what the last rank-level deal left in the shared store, and the buys' band
    skeletons (the tests compare)."""
    forget_bands()
    STORE.gen += 1
    STORE.sgen += 1
    new_epoch()
    STORE.rho = -1


def shared_state() -> dict:
    """The shared store: its generation (one per rank-level deal met) and the plans it holds."""
    return {"generation": STORE.gen, "plans": STORE.n_plans, "entries": STORE.used}


cdef void store_begin(const Deal* D, const Settings* st, const int32_t* p5, const uint8_t* hand) noexcept nogil:
    # keep the store if the deal's rank-level key is the last one's, else start a generation
    cdef int hand_ranks[5]
    cdef int i
    for i in range(5):
        hand_ranks[i] = hand[i] >> 2
    if (STORE.rho == D.rho and memcmp(STORE.a0, D.a0, sizeof(STORE.a0)) == 0
            and memcmp(STORE.hand, hand_ranks, sizeof(STORE.hand)) == 0
            and memcmp(&STORE.st, st, sizeof(Settings)) == 0
            and memcmp(STORE.p5, p5, N_STRENGTH * sizeof(int32_t)) == 0 and STORE.gen != 0):
        if STORE.ys_up != D.ys0[D.sigma]:
            STORE.ys_up = D.ys0[D.sigma]
            STORE.sgen += 1
    else:
        STORE.gen += 1
        STORE.sgen += 1
        STORE.ys_up = D.ys0[D.sigma]
        new_epoch()
        STORE.rho = D.rho
        memcpy(STORE.a0, D.a0, sizeof(STORE.a0))
        memcpy(STORE.hand, hand_ranks, sizeof(STORE.hand))
        memcpy(&STORE.st, st, sizeof(Settings))
        memcpy(STORE.p5, p5, N_STRENGTH * sizeof(int32_t))
        STORE.n_plans = 0
        STORE.used = 0
    if STORE.filters_sgen != STORE.sgen:
        # the dealer flushes kept are another up-suit generation's
        STORE.filters_sgen = STORE.sgen
        forget_filters()


cdef void store_room(int plans) noexcept nogil:
    # room for ``plans`` more plans; when full, the plans start again (none is in use between
    # two multisets, so nothing handed out is overwritten)
    if STORE.n_plans + plans > STORE_PLANS or STORE.used + plans * N_DISTINCT > STORE_ENTRIES:
        new_epoch()
        STORE.n_plans = 0
        STORE.used = 0


cdef int store_plan(const Deal* D, const Settings* st, const int* a, int ysize, int player, int p,
                      int ms, RankPlan* out) noexcept nogil:
    # the rank-level buy plan of the deck a (the deal's less the multiset ms) and the player's
    # band, and its place in the store (for memo)
    cdef int u, band = D.band[player]
    cdef SharedPlan* s
    if STORE.plan_epoch[ms] == STORE.epoch:
        u = STORE.plan_head[ms]
        while u >= 0:
            if STORE.plans[u].band == band and STORE.plans[u].p == p:
                out[0] = STORE.plans[u].r
                return u
            u = STORE.plans[u].next
    else:
        STORE.plan_epoch[ms] = STORE.epoch
        STORE.plan_head[ms] = -1
    s = &STORE.plans[STORE.n_plans]
    s.band = band
    s.p = p
    s.next = STORE.plan_head[ms]
    STORE.plan_head[ms] = STORE.n_plans
    STORE.n_plans += 1
    s.r.e = STORE.entries + STORE.used
    rank_plan(D, st, a, ysize, player, win_pay(st, p), &s.r)
    STORE.used += s.r.n
    out[0] = s.r
    return STORE.n_plans - 1


cdef void memo_split(int plan, int kind, const RankPlan* R, const int* a, uint16_t ys,
                      int64_t* part) noexcept nogil:
    """plan_part with its split into ``part`` (5: the excess, then the split), as memo keeps
    values: while the plan is in the store (``plan`` < 0: not kept). The classes of a
    rank-level deal meet a plan with many suits' unseen cards: a lookup probes SPLIT_PROBES slots
    at most and a new key then takes its first one (a full page probed to its end on every
    miss cost more than the split it saved); a plan with nothing to look up touches no page."""
    cdef uint32_t key = (<uint32_t> kind << 13) | ys
    cdef SplitSlot* region = STORE.split_memo + (<int64_t> plan << SPLIT_REGION)
    cdef uint32_t first = memo_home(key, SPLIT_REGION), i = first, probes
    if nothing_to_look_up(kind, R):
        plan = -1
    if plan >= 0:
        for probes in range(SPLIT_PROBES):
            if region[i].epoch != STORE.memo_epoch:
                break
            if region[i].key == key:
                memcpy(part, region[i].part, 5 * sizeof(int64_t))
                return
            i = (i + 1) & ((1 << SPLIT_REGION) - 1)
        else:
            i = first
    memset(part, 0, 5 * sizeof(int64_t))
    part[0] = plan_part(kind, R, a, ys, part + 1)
    if plan >= 0:
        region[i].key = key
        region[i].epoch = STORE.memo_epoch
        memcpy(region[i].part, part, 5 * sizeof(int64_t))
