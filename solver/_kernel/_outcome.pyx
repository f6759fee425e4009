# cython: language_level=3
"""One exchange outcome's value and results (declared in ``solver/_kernel/_outcome.pxd``; docs/design.md §4)."""
from libc.stdint cimport int64_t, uint16_t
from libc.stdlib cimport abort
from libc.string cimport memset
from solver._kernel._bet cimport N_COUNTS, bet_with_buy
from solver._kernel._buy cimport RankPlan, plain_counts
from solver._kernel._deck cimport MAX_FLUSH, Filter, dealer_below, filter_lists, flush_filter
from solver._kernel._eval cimport eval5, tables
from solver._kernel._settle cimport buys, capped
from solver._kernel._store cimport MAX_SLOTS, STORE, FlushValue, flush_slot, forget_filters, memo, memo_ahead, memo_split, store_plan


cdef Filter* new_dealer_flushes(Ctx* x, int sigmask) noexcept nogil:
    # the dealer flushes left for a sigmask met for the first time in the up-suit generation,
    # kept by sigmask in the store
    cdef Filter* f
    if STORE.n_slots == MAX_SLOTS:
        forget_filters()
    f = &STORE.slots[STORE.n_slots]
    filter_lists(f, STORE.slot_lists + STORE.n_slots * 2 * MAX_FLUSH)
    STORE.n_slots += 1
    flush_filter(x.D, sigmask, f)
    STORE.filter_of[sigmask] = f
    return f


cdef int new_plan(Ctx* x, int player, int p) noexcept nogil:
    # a plan of the multiset for the player's band and payout, not met yet (plan_of)
    cdef int u = x.n_plans, tau
    cdef int band = x.D.band[player]
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
        if x.results_cache != NULL:
            x.results_cache.ok[u][tau] = 0
    x.plan_id[u] = store_plan(x.D, x.st, x.a, x.ysize, player, p, x.ms, &x.plans[u])
    if x.results_cache != NULL:
        plain_counts(&x.plans[u], x.results_cache.plain[u])
    _memo_ahead(x, u)
    return u


cdef void _memo_ahead(Ctx* x, int u) noexcept nogil:
    # the memo's slots of the suit corrections the multiset asks of a new plan (excess_of of
    # each group, delta_of of each other suit and positions), read ahead together
    cdef int s, tau
    cdef const RankPlan* R = &x.plans[u]
    for s in range(1 << x.nr):
        if x.group_count[s]:
            memo_ahead(x.plan_id[u], 0, R, x.D.ys0[x.D.sigma] & ~x.bits[s])
    for tau in range(4 if R.n_thrown else 0):
        if tau != x.D.sigma:
            for s in range(1 << x.nr):
                memo_ahead(x.plan_id[u], 1, R, x.D.ys0[tau] & ~x.bits[s])


cdef int64_t capped_outcome(Ctx* x, const int* new, int n_new, int player, int64_t* counts) noexcept nogil:
    # The exact value of one exchange outcome whose insurance can reach the table's maximum
    # (_capped): the deck less its new cards, suit by suit, and bet_with_buy's buy for each size that
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
    cdef int64_t* pref = deck_pref(x)
    f = dealer_flushes(x, sigmask)
    return bet_with_buy(x.D, x.st, pref, f, x.a, ys, x.ysize, player, x.p5[player],
                  dealer_below(x.D, pref, f, x.st.qualifier), x.n, x.den, counts)


cdef int64_t outcome_value(Ctx* x, const int* new, int n_new, int player) noexcept nogil:
    # The exact value of one exchange outcome (the new cards given card by card).
    cdef int taken[4]
    cdef int sigmask
    if capped(x.st, player, x.p5[player]):
        return capped_outcome(x, new, n_new, player, NULL)
    sigmask = taken_by_suit(x, new, n_new, taken)
    return up_suit_value(x, sigmask, taken[x.D.sigma], player) + other_suits(x, player, taken)


cdef void add_results(Results* d, const int64_t* counts, int64_t times, const int64_t* split, int p) noexcept nogil:
    # ``times`` outcomes bet against the dealer counts ``counts`` (as bet_with_buy's: the insurance
    # taken at 11), and the split of their buys (summed over them), into their option's Results,
    # by (P, insurance): P << 16 | insurance
    cdef int j, k, key
    key = (p << 16) | <int> counts[11]
    j = 0
    while j < d.n and d.key[j] != key:
        j += 1
    if j == d.n:
        if d.n == RESULT_KEYS:
            abort()  # cannot happen: far fewer payouts than that
        d.n += 1
        d.key[j] = key
        memset(d.row[j], 0, sizeof(d.row[j]))
    for k in range(4):
        d.row[j][k] += times * counts[1 + k]
        d.row[j][4 + k] += split[k]


cdef int64_t* results_part(Ctx* x, int u, int tau, int taken) noexcept nogil:
    # the buy's excess and split in suit tau for plan u, the new ranks at positions ``taken``
    # of that suit: plan_excess (the up suit) or other_suit_delta, once per multiset
    cdef int64_t* part = x.results_cache.part[u][tau][taken]
    if not (x.results_cache.ok[u][tau] >> taken) & 1:
        memo_split(x.plan_id[u], 0 if tau == x.D.sigma else 1, &x.plans[u], x.a, x.D.ys0[tau] & ~x.bits[taken],
                    part)
        x.results_cache.ok[u][tau] |= <int64_t> 1 << taken
    return part


cdef int64_t outcome_results(Ctx* x, const int* new, int n_new, int player, int mask) noexcept nogil:
    """fold_floor(outcome_value) of one outcome, its results added to the Results of its discard."""
    cdef int i, j, tau, u, p = x.p5[player]
    cdef int taken[4]
    cdef int sigmask = taken_by_suit(x, new, n_new, taken)
    cdef int64_t buy[5]
    cdef int64_t counts[N_COUNTS]
    cdef int64_t v
    cdef int64_t* part
    cdef int64_t* pref
    cdef Filter* f
    if capped(x.st, player, p):
        v = capped_outcome(x, new, n_new, player, counts)
        if folds(x, player, v):
            x.results[mask].folded += 1
        else:
            add_results(&x.results[mask], counts, 1, counts + 7, p)
        return fold_floor(x, player, v)
    for i in range(5):
        buy[i] = 0
    if buys(x.st, player, p):
        u = plan_of(x, player, p)
        for tau in range(4):
            part = results_part(x, u, tau, taken[tau])
            for j in range(5):
                buy[j] += part[j]
    f = dealer_flushes(x, sigmask)
    pref = deck_pref(x)
    v = bet_with_buy(x.D, x.st, pref, f, x.a, x.D.ys0, x.ysize, player, p, dealer_below(x.D, pref, f, x.st.qualifier),
               x.n, x.den, counts, True, buy[0])
    if folds(x, player, v):
        x.results[mask].folded += 1
    else:
        add_results(&x.results[mask], counts, 1, buy + 1, p)
    return fold_floor(x, player, v)


cdef int64_t up_suit_value(Ctx* x, int sigmask, int taken, int player) noexcept nogil:
    # The value of an outcome but the flush draws of the dealer's buy in the suits other than
    # the up-card's: the new cards of the up suit are the ranks sigmask (positions ``taken``).
    cdef Filter* f = dealer_flushes(x, sigmask)
    cdef int p = x.p5[player]
    cdef int64_t excess = 0
    if buys(x.st, player, p):
        excess = excess_of(x, plan_of(x, player, p), taken)
    cdef int64_t* pref = deck_pref(x)
    return bet_with_buy(x.D, x.st, pref, f, x.a, x.D.ys0, x.ysize, player, p,
                  dealer_below(x.D, pref, f, x.st.qualifier), x.n, x.den, NULL, True, excess)


cdef int64_t other_suits(Ctx* x, int player, const int* taken) noexcept nogil:
    # The rest of it: what the dealer's flush draws in the other suits add to the buy (only
    # a dealer that throws the up-card draws to them), by the positions taken from each suit.
    cdef int tau, u, p = x.p5[player]
    cdef int64_t total = 0
    if not x.D.any_thrown or not buys(x.st, player, p):
        return 0
    u = plan_of(x, player, p)
    for tau in range(4):
        if tau != x.D.sigma:
            total += delta_of(x, u, tau, taken[tau])
    return total


cdef int64_t flush_value(Ctx* x, int i, int suit, int* new, int* player) noexcept nogil:
    # The value of the outcome where the kept cards of discard i and the new ranks are all of
    # ``suit``: the player has a flush (its strength in ``player``). Its up-suit part is the same for the deals of one
    # up-suit generation (Shared.flush), whichever suit it is when not the up suit.
    cdef int j
    cdef int taken[4]
    cdef bint up = suit == x.D.sigma
    cdef FlushValue* c = flush_slot(x.k, x.seq - 1, i, up)
    for j in range(4):
        taken[j] = 0
    taken[suit] = (1 << x.nr) - 1
    if c.sgen != STORE.sgen or x.card_by_card:
        flush_cards(x.R, x.nr, suit, new)
        c.player = final_strength(x, x.masks[i], new)
        player[0] = c.player
        if capped(x.st, c.player, x.p5[c.player]):
            return capped_outcome(x, new, x.nr, c.player, NULL)  # not kept: capped_outcome's are its own
        c.value = up_suit_value(x, x.bits[taken[x.D.sigma]], taken[x.D.sigma], c.player)
        c.sgen = STORE.sgen
    player[0] = c.player
    return c.value + other_suits(x, c.player, taken)
