# cython: language_level=3
"""The counting kernel's entry points: one deal's options (``solve``), betting a final hand
(``situation``) and betting many dealt hands (``bet_counts``), as exact integer numerators.

How the counting works is docs/design.md; each part is its own module: the static
combinatorics (_combinatorics), the dealer's counts for a deck (_deck), buying a game (_buy),
betting a final hand (_bet), the per-process store shared by the deals of the same ranks
(_store), one exchange outcome (_outcome), a rank multiset of new cards (_multiset), every
exchange outcome (_exchange) and the exchanges' upper bounds (_bound).
"""
import numpy as np
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset
from solver._kernel._bet cimport N_COUNTS, bet_with_buy
from solver._kernel._bound cimport flush_slack
from solver._kernel._buy cimport RankPlan, bands_alloc
from solver._kernel._combinatorics cimport MS_OFF, POP, int128
from solver._kernel._deck cimport (MAX_FLUSH, PREFIX_ROW, Deal, Filter, deal_init, dealer_below, filter_lists,
                           flush_filter, prefix_start)
from solver._kernel._eval cimport EvalTables, N_STRENGTH, eval5, eval6, payout_detail, tables
from solver._kernel._exchange cimport each_multiset
from solver._kernel._outcome cimport Ctx, Results, ResultsCache, add_results
from solver._kernel._settle cimport KernelRules, Settings, buys, capped, falling
from solver._kernel._store cimport (STORE, deck_excess, memo_split, results_memo_alloc, store_alloc, store_begin,
                            store_plan, store_pref, store_room)
from solver._kernel._store import clear_shared, shared_state

from solver import counts as records   # the named records returned (Bet, Results, Solved)


_EVERY_BET = np.ones(N_STRENGTH, np.uint8)
_EVERY_BET.flags.writeable = False
"""The ``after`` of a count of gains: made once, not for each of the millions of classes counted."""


cdef object _py(int128 x):
    # exact conversion of a 128-bit integer
    cdef int128 lo = x & <int128> 0xFFFFFFFFFFFFFFFF
    return (int(<int64_t> (x >> 64)) << 64) + int(<uint64_t> lo)


cdef const uint8_t* _ptr(const uint8_t[::1] a):
    return &a[0] if a.shape[0] else NULL


def situation(const uint8_t[::1] final, int up, const uint8_t[::1] known, KernelRules rules, int p):
    """A ``Bet``: the counts (``Situation``: n, win, tie, lose, nq, buy_excess, den, buys, buy_win,
    buy_tie, buy_lose, insurance, insured_excess) and the value of betting a final hand of 5 or 6 cards: dealer hands; the buy's
    excess uninsured, over n * den; the non-qualifying hands where buying beats taking the ante,
    and their draws that end in a showdown the player wins, ties, loses (over den, as the
    brute force counts them: ``_brute.outcomes``), with the insurance taken; that insurance in
    antes, and the buy's excess with it.

    ``known`` holds every card out of the deck besides the up-card: the final hand, the cards
    thrown away, dead cards. ``p`` is the final hand's payout multiple.
    """
    bands_alloc()  # before anything is allocated here: it may raise
    cdef const Settings* st = &rules.st
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    D.ranks_valid = 0
    cdef int64_t* pref = <int64_t*> malloc(PREFIX_ROW * sizeof(int64_t))
    cdef Filter f
    cdef int f_lists[2 * MAX_FLUSH]
    cdef int64_t counts[N_COUNTS]
    cdef int64_t n, den, nq, value
    cdef int player
    try:
        deal_init(D, up, _ptr(known), known.shape[0], st.qualifier)
        if final.shape[0] == 5:
            player = eval5(t, final[0], final[1], final[2], final[3], final[4])
        else:
            player = eval6(t, &final[0])
        prefix_start(D, D.a0, pref)
        filter_lists(&f, f_lists)
        flush_filter(D, 0, &f)
        n = falling(D.n0, 4) // 24
        den = falling(D.n0 - 4, st.redraws + 1)
        nq = dealer_below(D, pref, &f, st.qualifier)
        value = bet_with_buy(D, st, pref, &f, D.a0, D.ys0, D.n0, player, p, nq, n, den, counts)
    finally:
        free(D)
        free(pref)
    return _bet_record(counts, value)


cdef object _bet_record(const int64_t* counts, int64_t value):
    return records.Bet(records.Situation._make([counts[i] for i in range(N_COUNTS)]), value)


cdef object _results_py(const Results* d, int64_t n, int64_t den):
    return records.Results(d.folded, {d.key[j]: tuple(d.row[j][i] for i in range(8)) for j in range(d.n)}, n, den)


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


cdef object _sixth_card(Deal* D, KernelRules rules, const uint8_t* hand, Results* res, const uint8_t* after,
                        int128* gains):
    """(numerator, denominator) of the average over sixth cards of max(-1, the bet) (with
    ``after``, the card's bet or fold of each final strength), and with ``res`` the results of
    every card, outcome by outcome; with ``gains``, what betting each final strength adds over
    folding it (Ctx.gains)."""
    cdef const Settings* st = &rules.st
    cdef const EvalTables* t = tables()
    cdef int a[13]
    cdef uint16_t ys[4]
    cdef uint8_t six[6]
    cdef Filter f
    cdef int f_lists[2 * MAX_FLUSH]
    cdef int64_t counts[N_COUNTS]
    cdef int64_t buy[5]
    cdef int64_t part[5]
    cdef RankPlan rank_plan
    cdef int128 total = 0
    cdef int64_t n = falling(D.n0 - 1, 4) // 24, den = falling(D.n0 - 5, st.redraws + 1), v, nq
    cdef int64_t* pref
    cdef int i, j, k, c, u, player, p, a1, a2, a3
    cdef bint folded
    for i in range(13):
        a[i] = D.a0[i]
    for i in range(4):
        ys[i] = D.ys0[i]
    for i in range(5):
        six[i] = hand[i]
    filter_lists(&f, f_lists)
    for c in range(52):
        if not (D.ys0[c & 3] >> (c >> 2)) & 1:
            continue
        six[5] = c
        a[c >> 2] -= 1
        ys[c & 3] &= ~(1 << (c >> 2))
        pref = store_pref(D, a, MS_OFF[1] + (c >> 2))
        flush_filter(D, (1 << (c >> 2)) if (c & 3) == D.sigma else 0, &f)
        player = eval6(t, six)
        p = payout_detail(t, six, 6, &rules.paytable[0], rules.second_combination, rules.new_rank, &a1, &a2, &a3)
        nq = dealer_below(D, pref, &f, st.qualifier)
        memset(buy, 0, sizeof(buy))
        if capped(st, player, p):
            # the buy for each insurance that may be best: computed here (bet_with_buy)
            v = bet_with_buy(D, st, pref, &f, a, ys, D.n0 - 1, player, p, nq, n, den, counts)
            for k in range(4):
                buy[1 + k] = counts[7 + k]
        else:
            if buys(st, player, p):
                # the deck is that of a one-card exchange drawing this rank: its plans
                store_room(1)
                u = store_plan(D, st, a, D.n0 - 1, player, p, MS_OFF[1] + (c >> 2), &rank_plan)
                if res != NULL:
                    for j in range(4):
                        memo_split(u, 0 if j == D.sigma else 1, &rank_plan, a, ys[j], part)
                        for k in range(5):
                            buy[k] += part[k]
                else:
                    buy[0] = deck_excess(u, &rank_plan, a, ys, D.sigma)
            v = bet_with_buy(D, st, pref, &f, a, ys, D.n0 - 1, player, p, nq, n, den, counts, True, buy[0])
        folded = (after[player] == 0) if after != NULL else v < -n * den
        if res != NULL and folded:
            res.folded += 1
        elif res != NULL:
            add_results(res, counts, 1, buy + 1, p)
        total += -n * den if folded else v
        if gains != NULL:
            gains[player] += v + n * den
        a[c >> 2] += 1
        ys[c & 3] |= 1 << (c >> 2)
    return (_py(total), D.n0 * n * den), (_results_py(res, n, den) if res != NULL else None)


cdef tuple _exchanges(Ctx* x, tuple exchange_counts, tuple forced_counts):
    """{discard mask: (numerator, denominator)} of the exchanges wanted, and their results when
    x.results is set."""
    exchanges = {}
    results = {}
    for k in exchange_counts:
        _count_begin(x, k, k in forced_counts)
        each_multiset(x, 0, k)
        for i in range(x.n_masks):
            if (x.wanted >> x.masks[i]) & 1:
                exchanges[x.masks[i]] = (_py(x.acc[x.masks[i]]), x.outcomes * x.n * x.den)
                if x.results != NULL:
                    results[x.masks[i]] = _results_py(&x.results[x.masks[i]], x.n, x.den)
    return exchanges, results


cdef dict _bounds(Ctx* x, tuple bound_counts, tuple forced_counts, int* f_lists):
    """{discard mask: (numerator, denominator)}: upper bounds of the exchanges of each count.
    The ranks' part (multiset_bound) is kept in the store for the deals of the same ranks."""
    bounds = {}
    cdef int128 total
    for k in bound_counts:
        _count_begin(x, k, k in forced_counts)
        if any(STORE.plain_gen[x.masks[i]] != STORE.gen or STORE.plain_forced[x.masks[i]] != x.forced
               for i in range(x.n_masks)):
            filter_lists(&x.no_flush, f_lists)
            x.no_flush.sigmask = -1
            x.no_flush.n = 0
            x.no_flush.fl_lo = x.no_flush.fl_hi = x.no_flush.nf_lo = x.no_flush.nf_hi = N_STRENGTH + 1
            x.no_flush.gap_lo = x.no_flush.gap_hi = N_STRENGTH + 1
            x.no_flush.n_low = 0
            x.no_flush.at_qualifier = 0
            x.plain = True
            each_multiset(x, 0, k)
            x.plain = False
            for i in range(x.n_masks):
                STORE.plain[x.masks[i]] = x.acc[x.masks[i]]
                STORE.plain_gen[x.masks[i]] = STORE.gen
                STORE.plain_forced[x.masks[i]] = x.forced
        for i in range(x.n_masks):
            total = STORE.plain[x.masks[i]] + flush_slack(x, i)
            bounds[x.masks[i]] = (_py(total), falling(x.D.n0, k) // falling(k, k) * x.n * x.den)
    return bounds


def solve(const uint8_t[::1] hand, int up, const uint8_t[::1] dead, KernelRules rules,
          tuple exchange_counts=(), bint sixth_card=False, *, tuple bound_counts=(),
          uint32_t wanted=0xFFFFFFFF, bint card_by_card=False, bint results=False,
          const uint8_t[::1] after=None, bint gains=False, double[::1] gains_into=None, double gains_weight=1):
    """Exact numerators of the options of one deal (a ``Solved``): the bet of the dealt hand;
    with ``sixth_card``, a sixth card; the exchanges of each count in ``exchange_counts`` for
    the discard masks in ``wanted`` (a bit for each); upper bounds of the exchanges of each
    count in ``bound_counts`` (values without flushes and the player's flushes at their most:
    docs/design.md §5), far cheaper, the ranks' part being shared by the deals of the same ranks.

    ``card_by_card`` takes every exchange outcome one by one instead of by groups (slower; the
    tests compare the two). With ``results``, the results of the sixth card and of the
    exchanges solved, by final hand's payout and insurance (``counts.Results``).

    ``after``: a strategy card's decision after a draw, by final strength (7462 entries: 1 bet,
    0 fold; a six-card hand by its best five), for the sixth card and the exchanges that do not
    force the bet; without it the final hand is bet or folded by its value. Not with bounds.

    ``gains``: for one option (a sixth card, or the one exchange of ``wanted``), with every final
    hand bet, what betting the final hands of each strength adds over folding them, as
    {strength: numerator} over that option's denominator (``Solved.gains``): the option's value
    under any ``after`` is then that of folding every final hand plus the gains of the strengths
    it bets. No ``after``, results or bounds with it. With ``gains_into`` (N_STRENGTH floats)
    instead, ``gains_weight`` times each gain per deal (over the denominator) is added to it
    (a sum over many deals, without a Python object per strength).

    Holds the GIL throughout: the store (``_store``) is the process's, so the threads of one
    process solve one deal at a time (parallel builds use processes).
    """
    store_alloc()
    cdef const Settings* st = &rules.st
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    D.ranks_valid = 0
    cdef Results* res = <Results*> calloc(33, sizeof(Results)) if results else NULL  # by mask; 32: the sixth card
    if results:
        results_memo_alloc()
    cdef ResultsCache* res_cache = <ResultsCache*> malloc(sizeof(ResultsCache)) if results else NULL
    cdef int128 acc[32]
    cdef int64_t counts[N_COUNTS]
    cdef int i, player
    cdef Filter f
    cdef int f_lists[2 * MAX_FLUSH]
    cdef Ctx x
    cdef int64_t n, den, value, nq
    cdef int64_t* pref
    cdef double scale
    sixth = sixth_results = None
    if bound_counts and (st.insure_policy >= 0 or st.buy_policy >= 0):
        raise ValueError("bounds: of the best later decisions only (the bounds of a buy assume it gains)")
    if after is not None and (after.shape[0] != N_STRENGTH or bound_counts):
        raise ValueError("after: one entry per final strength (7462), and no bounds")
    if gains_into is not None and gains_into.shape[0] != N_STRENGTH:
        raise ValueError("gains_into: one entry per final strength (7462)")
    gains = gains or gains_into is not None
    if gains and (after is not None or results or bound_counts or len(exchange_counts) + sixth_card != 1
                  or (exchange_counts and bin(wanted).count("1") != 1)):
        raise ValueError("gains: of one option (a sixth card, or one exchange wanted), without after, results "
                         "or bounds")
    cdef int128* gain = <int128*> calloc(N_STRENGTH, sizeof(int128)) if gains else NULL
    if gains:
        after = _EVERY_BET    # every final hand bet: its gain is counted
    try:
        known = np.concatenate([np.asarray(hand), np.asarray(dead)]).astype(np.uint8)
        deal_init(D, up, _ptr(known), known.shape[0], st.qualifier)
        store_begin(D, st, &rules.p5[0], &hand[0])
        # bet the dealt hand
        pref = store_pref(D, D.a0, 0)
        filter_lists(&f, f_lists)
        flush_filter(D, 0, &f)
        n = falling(D.n0, 4) // 24
        den = falling(D.n0 - 4, st.redraws + 1)
        player = eval5(t, hand[0], hand[1], hand[2], hand[3], hand[4])
        nq = dealer_below(D, pref, &f, st.qualifier)
        value = bet_with_buy(D, st, pref, &f, D.a0, D.ys0, D.n0, player, rules.p5[player], nq, n, den, counts)
        if sixth_card:
            sixth, sixth_results = _sixth_card(D, rules, &hand[0], &res[32] if results else NULL,
                                               &after[0] if after is not None else NULL, gain)
        # exchanges, by number of cards
        x.D = D
        x.st = st
        x.pref = NULL
        x.hand = &hand[0]
        x.after = &after[0] if after is not None else NULL
        x.gains = gain
        x.p5 = &rules.p5[0]
        x.acc = acc
        x.card_by_card = card_by_card
        x.results = res
        x.results_cache = res_cache
        x.wanted = wanted
        x.plain = False
        exchanges, exchange_results = _exchanges(&x, exchange_counts, rules.forced_counts)
        bounds = _bounds(&x, bound_counts, rules.forced_counts, f_lists)
        gained = None
        if gains_into is not None:
            scale = gains_weight / float(sixth[1] if sixth_card else next(iter(exchanges.values()))[1])
            for i in range(N_STRENGTH):
                gains_into[i] += scale * <double> gain[i]
        elif gains:
            gained = {s: _py(gain[s]) for s in range(N_STRENGTH) if gain[s] != 0}
    finally:
        free(gain)
        free(res)
        free(res_cache)
        free(D)
    return records.Solved(_bet_record(counts, value), sixth, exchanges, bounds, sixth_results, exchange_results,
                          gained)


def bet_counts(const uint8_t[:, ::1] hands, const uint8_t[::1] up_cards, KernelRules rules, int64_t[:, ::1] out):
    """Counts (n, win, tie, lose, nq, buy_excess, den) of betting each dealt hand, no dead cards,
    the value of the bet with the best insurance (numerator over n * den), then the split of
    the buys, the insurance and its excess (buys, buy_win, buy_tie, buy_lose, insurance,
    insured_excess: see ``situation``): ``counts.BET_COLUMNS``.

    ``out`` has one row of 14 per deal. Consecutive deals of the same ranks (hand and up-card)
    share the dealer's rank counts: sort the deals by ranks to make the most of it.
    """
    bands_alloc()  # before anything is allocated here: it may raise
    cdef const Settings* st = &rules.st
    cdef const int32_t[::1] p5 = rules.p5
    cdef const EvalTables* t = tables()
    cdef Deal* D = <Deal*> malloc(sizeof(Deal))
    cdef int64_t* pref = <int64_t*> malloc(PREFIX_ROW * sizeof(int64_t))
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
    # the GIL is held, as in solve: the buys' band skeletons are the process's (rank_plan)
    try:
        for k in range(hands.shape[0]):
            if not deal_init(D, up_cards[k], &hands[k, 0], 5, st.qualifier):
                prefix_start(D, D.a0, pref)
            filter_lists(&f, f_lists)
            flush_filter(D, 0, &f)
            n = falling(D.n0, 4) // 24
            den = falling(D.n0 - 4, st.redraws + 1)
            player = eval5(t, hands[k, 0], hands[k, 1], hands[k, 2], hands[k, 3], hands[k, 4])
            nq = dealer_below(D, pref, &f, st.qualifier)
            out[k, 7] = bet_with_buy(D, st, pref, &f, D.a0, D.ys0, D.n0, player, p5[player], nq, n, den, counts)
            for i in range(N_COUNTS):
                out[k, i + (i >= 7)] = counts[i]
    finally:
        free(D)
        free(pref)
