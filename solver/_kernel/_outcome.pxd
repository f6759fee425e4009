# One exchange outcome and what its value is made of (docs/design.md §4): the context of a pass
# over the outcomes of k new cards (Ctx), the dealer flushes left by the new cards of the up
# suit, the buy plans of the multiset and their suit corrections, an outcome's value or results.
#
# Glossary: ``sigma`` the up-card's suit, ``tau`` another suit; ``sigmask`` the ranks of the new
# cards of the up suit (a *group*: its non-flush outcomes share the player's strength and the
# dealer's counts); ``taken`` the positions (into Ctx.R, the multiset's distinct ranks) of the
# new ranks drawn from one suit; ``u`` a plan's place in Ctx.plans; ``n * den`` the denominator
# of a value (dealer hands, draw sequences of a buy).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t
from solver._kernel._buy cimport RankPlan
from solver._kernel._combinatorics cimport N_DISTINCT, int128
from solver._kernel._deck cimport Deal, Filter
from solver._kernel._eval cimport eval5, tables
from solver._kernel._settle cimport Settings
from solver._kernel._store cimport STORE, memo, store_pref

cdef enum:
    MS_PLANS = 20        # buy plans of one multiset: (band, payout) of 10 discards, flush or not
    RESULT_KEYS = 256    # (payout, insurance) pairs of the final hands of one option


cdef struct Results:
    # the results of one option, by the final hand's payout P and insurance: each row sums the
    # counts of bet_with_buy over the outcomes bet (win, tie, lose, nq in dealer hands; then the buy's
    # split: hands bought, draws won, tied, lost, over den); ``folded`` counts outcomes folded
    int n
    int64_t folded
    int32_t key[RESULT_KEYS]           # P << 16 | the insurance taken
    int64_t row[RESULT_KEYS][8]


cdef struct ResultsCache:
    # by plan, suit and the positions of the new ranks taken from it: the buy's excess and its
    # split (add_split) in that suit, as plan_excess (the up suit) or other_suit_delta; and
    # by plan, each entry's plain draws tied (RankPlan.plain)
    int64_t ok[MS_PLANS][4]
    int64_t part[MS_PLANS][4][32][5]
    uint8_t plain[MS_PLANS][N_DISTINCT]


cdef struct Ctx:
    const Deal* D
    const Settings* st
    const uint8_t* hand
    const int32_t* p5
    int k
    int forced
    const uint8_t* after       # a card's bet (1) or fold (0) of each final strength after a draw; NULL: the best
    int128* gains              # with every final hand bet: by strength, what betting its hands adds over folding them
    int mult[13]
    int a[13]
    int ysize
    int64_t n
    int64_t den
    int64_t* pref              # the deck's blind prefix once an outcome needs it (deck_pref), or NULL
    int new[5]
    int n_new
    int n_masks
    int masks[10]              # the discard masks of k cards
    int kept_suits[10]         # the suits a flush of each can be in (its kept cards' suit)
    int player[10]             # each one's strength when the new cards make no flush
    int128* acc
    int64_t outcomes
    int card_by_card           # every outcome card by card (the check of the grouped sums)
    Results* results               # by discard mask: the results of each outcome (card by card), or NULL
    ResultsCache* results_cache
    uint32_t wanted            # the discard masks to solve (a bit for each), the others skipped
    int plain                  # the pass of upper bounds (multiset_bound), not of values
    int fl_common              # of the multiset (multiset_begin): the suits of its flushes
    int64_t leaves             # and its outcomes
    Filter no_flush            # a dealer side without flushes (for multiset_bound)
    int ms                     # the rank multiset of the new cards (its ms_index)
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


cdef Filter* new_dealer_flushes(Ctx* x, int sigmask) noexcept nogil


cdef inline Filter* dealer_flushes(Ctx* x, int sigmask) noexcept nogil:
    # the dealer flushes left when the new cards of the up suit are sigmask: for one up rank and
    # up suit's unseen cards they depend on sigmask alone, so they are kept in the store for the
    # up-suit generation (made once: new_dealer_flushes)
    cdef Filter* f = STORE.filter_of[sigmask]
    return f if f != NULL else new_dealer_flushes(x, sigmask)


cdef int new_plan(Ctx* x, int player, int p) noexcept nogil


cdef inline int plan_of(Ctx* x, int player, int p) noexcept nogil:
    # the buy plan of a player of the multiset's deck (its place in Ctx.plans), finished for the
    # deal's suits: the deck of every outcome of the multiset is within it, so the plan serves
    # them all (made once: new_plan)
    cdef int u, band = x.D.band[player]
    for u in range(x.n_plans):
        if x.plan_band[u] == band and x.plan_p[u] == p:
            return u
    return new_plan(x, player, p)


cdef inline int64_t excess_of(Ctx* x, int u, int taken) noexcept nogil:
    # the plan's excess when the new ranks at positions ``taken`` are of the up suit
    if not (x.excess_ok[u] >> taken) & 1:
        x.excess[u][taken] = memo(x.plan_id[u], 0, &x.plans[u], x.a, x.D.ys0[x.D.sigma] & ~x.bits[taken])
        x.excess_ok[u] |= 1 << taken
    return x.excess[u][taken]


cdef inline int64_t delta_of(Ctx* x, int u, int tau, int taken) noexcept nogil:
    # the flush draws of suit tau when the new ranks at positions ``taken`` are of that suit
    if not (x.delta_ok[u][tau] >> taken) & 1:
        x.delta[u][tau][taken] = memo(x.plan_id[u], 1, &x.plans[u], x.a,
                                       x.D.ys0[tau] & ~x.bits[taken])
        x.delta_ok[u][tau] |= 1 << taken
    return x.delta[u][tau][taken]


cdef inline int taken_by_suit(Ctx* x, const int* new, int n_new, int* taken) noexcept nogil:
    # the positions of the new ranks taken from each suit; returns those of the up suit as ranks
    cdef int i, sigmask = 0
    for i in range(4):
        taken[i] = 0
    for i in range(n_new):
        taken[new[i] & 3] |= 1 << x.position[new[i] >> 2]
        if (new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (new[i] >> 2)
    return sigmask


cdef int64_t capped_outcome(Ctx* x, const int* new, int n_new, int player, int64_t* counts) noexcept nogil


cdef int64_t outcome_value(Ctx* x, const int* new, int n_new, int player) noexcept nogil


cdef void add_results(Results* d, const int64_t* counts, int64_t times, const int64_t* split, int p) noexcept nogil


cdef int64_t* results_part(Ctx* x, int u, int tau, int taken) noexcept nogil


cdef int64_t outcome_results(Ctx* x, const int* new, int n_new, int player, int mask) noexcept nogil


cdef int64_t up_suit_value(Ctx* x, int sigmask, int taken, int player) noexcept nogil


cdef int64_t other_suits(Ctx* x, int player, const int* taken) noexcept nogil


cdef int64_t flush_value(Ctx* x, int i, int suit, int* new, int* player) noexcept nogil


cdef inline bint never_folds(Ctx* x, int player) noexcept nogil:
    # the final hand of strength ``player`` is bet whatever its value: the exchange forces the
    # bet, or the card's rule after a draw bets it
    return x.forced or (x.after != NULL and x.after[player] != 0)


cdef inline bint ruled_fold(Ctx* x, int player) noexcept nogil:
    # the card's rule after a draw folds the final hand of strength ``player``, whatever its value
    return not x.forced and x.after != NULL and x.after[player] == 0


cdef inline bint folds(Ctx* x, int player, int64_t v) noexcept nogil:
    # whether the final hand of strength ``player`` and value ``v`` is folded: as the card's rule
    # says (x.after), else when betting loses more than the ante (a tie is a bet)
    if never_folds(x, player):
        return False
    return ruled_fold(x, player) or v < -x.n * x.den


cdef inline int64_t fold_floor(Ctx* x, int player, int64_t v) noexcept nogil:
    # the value of a final hand after the draw: -1 (the ante) when it is folded (``folds``)
    return -x.n * x.den if folds(x, player, v) else v


cdef inline void add_gain(Ctx* x, int player, int128 total, int64_t count) noexcept nogil:
    # ``count`` final hands of strength ``player`` bet for ``total``: what that adds over folding
    # them (Ctx.gains, when counted)
    if x.gains != NULL:
        x.gains[player] += total + (<int128> count) * x.n * x.den


cdef inline int final_strength(Ctx* x, int mask, const int* new) noexcept nogil:
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


cdef inline void flush_cards(const int* R, int nr, int suit, int* new) noexcept nogil:
    cdef int j
    for j in range(nr):
        new[j] = 4 * R[j] + suit


cdef inline int64_t* deck_pref(Ctx* x) noexcept nogil:
    # the blind prefix of the deck less the new cards (read from its anchors, prefix_at)
    if x.pref == NULL:
        x.pref = store_pref(x.D, x.a, x.ms)
    return x.pref
