# cython: language_level=3
"""Upper bounds of exchanges (declared in ``solver/_kernel/_bound.pxd``; docs/design.md §5)."""
from libc.stdint cimport int64_t
from solver._kernel._bet cimport bet
from solver._kernel._buy cimport plan_base
from solver._kernel._combinatorics cimport int128
from solver._kernel._eval cimport next_subset
from solver._kernel._multiset cimport multiset_begin
from solver._kernel._outcome cimport Ctx, final_strength, fold_floor, plan_of
from solver._kernel._settle cimport buys, capped, insured_pay
from solver._kernel._store cimport MsInfo


cdef void multiset_bound(Ctx* x) noexcept nogil:
    """Upper bounds of the outcomes whose new cards have the rank multiset x.mult, for every
    discard: each valued as if no card made a flush, the player's, the dealer's or a draw after
    the dealer's buy. Against a player without a flush, a flush of the dealer (or of a draw
    after a buy) beats what the same ranks without it would, so it can only lower the value,
    whatever insurance and buy are chosen; the player's own flushes are flush_slack's."""
    cdef MsInfo* info = multiset_begin(x)
    cdef int i, player, p
    cdef int64_t excess, v
    cdef int64_t more[2]
    for i in range(x.n_masks):
        player = info.d[i].player
        p = x.p5[player]
        # a rank plan's base: its excess when no dealer hand has a flush or a flush draw
        excess = x.plans[plan_of(x, player, p)].base if buys(x.st, player, p) else 0
        if capped(x.st, player, p):
            # and with the payouts of I_min and I_max (bet_capped): for each size, the same bound
            more[0] = plan_base(x.D, x.st, x.a, x.ysize, player, insured_pay(x.st, p, x.st.insurance_min))
            more[1] = plan_base(x.D, x.st, x.a, x.ysize, player, insured_pay(x.st, p, x.st.insurance_max * p))
            v = bet(x.st, &x.no_flush, player, p, info.nq_blind, info.d[i].blind, x.n, x.den, excess, NULL, more)
        else:
            v = bet(x.st, &x.no_flush, player, p, info.nq_blind, info.d[i].blind, x.n, x.den, excess, NULL)
        x.acc[x.masks[i]] += (<int128> x.leaves) * fold_floor(x, player, v)


cdef int128 flush_slack(Ctx* x, int i) noexcept nogil:
    """What multiset_bound's sum for discard i lacks to bound the player's flush outcomes too
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
            player = final_strength(x, x.masks[i], new)
            p = x.p5[player]
            most = 2 * p + x.st.win_extra + 1
            if player >= x.st.insurance_from:
                most += x.st.insurance_max * p
            most = most if most < x.st.max_payout else x.st.max_payout  # no box is paid more
            total += (<int128> (most + floor)) * x.n * x.den
            if not next_subset(pick, k, n_avail):  # the next k-subset of the suit's unseen ranks
                break
    return total
