# cython: language_level=3
"""Every exchange outcome of k new cards (declared in ``solver/_kernel/_exchange.pxd``; docs/design.md §4)."""
from libc.stdint cimport int64_t, uint32_t
from solver._kernel._bet cimport N_COUNTS, bet
from solver._kernel._combinatorics cimport int128
from solver._kernel._deck cimport Deal, Filter
from solver._kernel._multiset cimport flush_suits, group_counts, group_deltas, group_parts, multiset_begin, other_total
from solver._kernel._outcome cimport (Ctx, add_gain, add_results, dealer_flushes, excess_of, final_strength, flush_cards, flush_value,
                              fold_floor, never_folds, other_suits, outcome_results, outcome_value, plan_of,
                              results_part, ruled_fold)
from solver._kernel._bound cimport multiset_bound
from solver._kernel._settle cimport Settings, buys, capped
from solver._kernel._store cimport STORE, MsInfo, group_vals


cdef void _one_outcome(Ctx* x) noexcept nogil:
    # card by card, for the (sigmask, discard mask) pairs where the fold floor may bind
    cdef int i, u, sigmask = 0, player
    cdef int64_t v
    for i in range(x.n_new):
        if (x.new[i] & 3) == x.D.sigma:
            sigmask |= 1 << (x.new[i] >> 2)
    for u in range(x.n_unsafe):
        if x.unsafe_sig[u] != sigmask:
            continue
        for i in range(x.n_masks):
            if not (x.unsafe_masks[u] >> i) & 1:
                continue
            player = final_strength(x, x.masks[i], x.new)
            if player != x.player[i]:
                continue  # a flush: counted with the flush outcomes
            if x.results != NULL:
                x.acc[x.masks[i]] += outcome_results(x, x.new, x.n_new, player, x.masks[i])
            else:
                v = fold_floor(x, player, outcome_value(x, x.new, x.n_new, player))
                x.acc[x.masks[i]] += v
                add_gain(x, player, v, 1)


cdef void _suits(Ctx* x, int r) noexcept nogil:
    # choose the suits of the new cards of rank r, r + 1, ... (card-by-card path)
    cdef int need, suits, sub, s, bits
    while r < 13 and x.mult[r] == 0:
        r += 1
    if r == 13:
        _one_outcome(x)
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


cdef void leave_unsafe(Ctx* x, int sigmask, int i) noexcept nogil:
    # leave the group sigmask of discard i to the card-by-card path
    x.unsafe_sig[x.n_unsafe] = sigmask
    x.unsafe_masks[x.n_unsafe] = 1 << i
    _merge_unsafe(x)


cdef void _merge_unsafe(Ctx* x) noexcept nogil:
    # one entry per sigmask: fold the entry just added into an earlier one of the same sigmask
    cdef int u, last = x.n_unsafe
    for u in range(last):
        if x.unsafe_sig[u] == x.unsafe_sig[last]:
            x.unsafe_masks[u] |= x.unsafe_masks[last]
            return
    x.n_unsafe += 1


cdef void unsafe_outcomes(Ctx* x) noexcept nogil:
    # the outcomes of the groups left to the card-by-card path (x.unsafe_sig as positions)
    cdef int j
    if x.n_unsafe:
        # the card-by-card path compares rank bits
        for j in range(x.n_unsafe):
            x.unsafe_sig[j] = x.bits[x.unsafe_sig[j]]
        x.n_new = 0
        _suits(x, 0)


cdef void multiset_results(Ctx* x) noexcept nogil:
    """The results of every outcome of the multiset x.mult for the wanted discards (Ctx.results).

    As multiset_values: the non-flush outcomes of a group (the same new cards of the up suit) share
    the player's strength, the dealer's counts, the insurance and the buy's part of the up suit,
    and add the buy's parts of the other suits (by the positions they take from each: the
    weights of group_weights), splits included. Where no outcome of a group may fold, its
    results are these sums; elsewhere they are taken card by card, as are the player's flushes.
    """
    cdef const Deal* D = x.D
    cdef MsInfo* info = multiset_begin(x)
    cdef int i, j, k, tau, sigmask, km, player, p, u = 0, n_fl, m, full
    cdef int fl_suit[4]
    cdef int fl_sig[4]
    cdef int new[5]
    cdef int64_t cnt, v, low, floor = -x.n * x.den
    cdef int64_t counts[N_COUNTS]
    cdef int64_t split[5]
    cdef int64_t* up
    cdef int64_t* part
    cdef bint buy_rel, shared
    cdef Filter* f
    group_counts(x)
    full = (1 << x.nr) - 1
    x.n_unsafe = 0
    for i in range(x.n_masks):
        km = x.masks[i]
        if not (x.wanted >> km) & 1:
            continue
        player = info.d[i].player
        x.player[i] = player          # the card-by-card path tells the flushes by it
        p = x.p5[player]
        n_fl = flush_suits(x, i, fl_suit, fl_sig)
        if ruled_fold(x, player):
            # the card folds this final hand: every outcome but the player's flushes
            x.results[km].folded += x.leaves - n_fl
            x.acc[km] += (<int128> (x.leaves - n_fl)) * floor
            for j in range(n_fl):
                flush_cards(x.R, x.nr, fl_suit[j], new)
                x.acc[km] += outcome_results(x, new, x.nr, final_strength(x, km, new), km)
            continue
        buy_rel = buys(x.st, player, p)
        if buy_rel:
            u = plan_of(x, player, p)
        # outcomes of a group differ only in the other suits' flush draws of the buy, which
        # only a dealer hand throwing the up-card has
        shared = not buy_rel or not D.any_thrown or x.plans[u].n_thrown == 0
        for sigmask in range(1 << x.nr):
            cnt = x.group_count[sigmask]
            if cnt == 0:
                continue
            if x.card_by_card or capped(x.st, player, p):   # one by one (outcome_results)
                leave_unsafe(x, sigmask, i)
                continue
            for k in range(5):
                split[k] = 0
            up = results_part(x, u, D.sigma, sigmask) if buy_rel else split
            f = dealer_flushes(x, x.bits[sigmask])
            v = bet(x.st, f, player, p, info.nq_blind + f.at_qualifier, info.d[i].blind, x.n, x.den, up[0], counts)
            low = v
            for k in range(5):
                split[k] = cnt * up[k] if buy_rel else 0
            if not shared:
                low += group_parts(x, u, sigmask, NULL, split)
                if not never_folds(x, player) and low < floor:
                    leave_unsafe(x, sigmask, i)  # some outcomes may fold
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
                            part = results_part(x, u, tau, full if tau == fl_suit[j] else 0)
                            for k in range(5):
                                split[k] -= part[k]
            if shared and not never_folds(x, player) and v < floor:
                x.results[km].folded += cnt - m
                x.acc[km] += (<int128> (cnt - m)) * floor
            else:
                add_results(&x.results[km], counts, cnt - m, split + 1, p)
                x.acc[km] += (<int128> (cnt - m)) * (v - up[0]) + split[0]
        for j in range(n_fl):
            flush_cards(x.R, x.nr, fl_suit[j], new)
            x.acc[km] += outcome_results(x, new, x.nr, final_strength(x, km, new), km)
    unsafe_outcomes(x)


cdef void multiset_values(Ctx* x) noexcept nogil:
    """Every exchange outcome whose new cards have the rank multiset x.mult, for every discard.

    Outcomes are grouped by the ranks of their new cards of the up-card's suit (sigmask): the
    non-flush outcomes of a group share the player's strength and the dealer's counts, and
    differ only in the buy's flush draws in the other suits, which add up suit by suit (D_tau,
    by the ranks taken from that suit). Where the fold floor cannot bind, the group's sum is
    exact from these parts and the numbers of outcomes; elsewhere the outcomes are taken card
    by card. The outcomes that make the player a flush are counted with their group, then
    replaced by their own value (flush_value).

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
    cdef MsInfo* info = multiset_begin(x)
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
            all_groups = (all_groups or thrown or info.d[i].unsafe != 0 or info.d[i].sgen != STORE.sgen
                          or info.d[i].forced != never_folds(x, info.d[i].player)
                          or capped(st, info.d[i].player, x.p5[info.d[i].player]))
    if all_groups:
        group_counts(x)
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
        player = info.d[i].player
        x.player[i] = player
        p = x.p5[player]
        # the outcomes of a hand whose insurance can reach the table's maximum are taken one by one
        if ruled_fold(x, player):
            # the card folds this final hand: every outcome but the player's flushes
            n_fl = flush_suits(x, i, fl_suit, fl_sig)
            x.acc[km] += (<int128> (x.leaves - n_fl)) * (-x.n * x.den)
            for j in range(n_fl):
                v = flush_value(x, i, fl_suit[j], new, &player)
                x.acc[km] += fold_floor(x, player, v)
            continue
        one_by_one = x.card_by_card or capped(st, player, p)
        fill = not one_by_one and (info.d[i].sgen != STORE.sgen or info.d[i].forced != never_folds(x, player))
        buy_rel = buys(st, player, p)
        val = group_vals(x.k, x.seq - 1, i)
        if one_by_one:
            for sigmask in range(1 << nr):
                if x.group_count[sigmask]:
                    leave_unsafe(x, sigmask, i)
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
                f = dealer_flushes(x, x.bits[sigmask])
                nq = info.nq_blind + f.at_qualifier
                if not buy_rel:
                    v = fold_floor(x, player, bet(st, f, player, p, nq, info.d[i].blind, x.n, x.den, 0, NULL))
                else:
                    if not have_plan:
                        # the buy's part shared by every group of this player and by the
                        # players of its band with its payout
                        u = plan_of(x, player, p)
                        have_plan = True
                    v = bet(st, f, player, p, nq, info.d[i].blind, x.n, x.den, excess_of(x, u, sigmask), NULL)
                    if not thrown and not never_folds(x, player) and v < -x.n * x.den:
                        # the fold floor may bind for some outcomes: card by card
                        unsafe |= 1 << sigmask
                        continue
                val[sigmask] = v
                total += (<int128> cnt) * v
            info.d[i].total = total
            info.d[i].unsafe = unsafe
            info.d[i].sgen = STORE.sgen
            info.d[i].forced = never_folds(x, player)
        # the outcomes where every card is of one suit: the player has a flush
        n_fl = flush_suits(x, i, fl_suit, fl_sig)
        for j in range(4):
            taken[j] = 0
        if one_by_one:
            pass
        elif not buy_rel:
            total = info.d[i].total
            for j in range(n_fl):
                total -= val[fl_sig[j]]  # counted as non-flush, come out again
            x.acc[km] += total
            add_gain(x, player, total, x.leaves - n_fl)
        else:
            total = info.d[i].total
            unsafe = info.d[i].unsafe
            if thrown:
                # the other suits' flush draws of the dealer's buy, and the groups where they
                # make the fold floor bind (looked at group by group only when the least they
                # add over all groups could)
                u = plan_of(x, player, p)
                if not (x.other_ok >> u) & 1:
                    other_total(x, u)
                total += x.other_sum[u]
                for sigmask in range(1 << nr if not never_folds(x, player) else 0):
                    cnt = x.group_count[sigmask]
                    if cnt == 0 or val[sigmask] + x.other_low[u] >= -x.n * x.den:
                        continue
                    if not (x.group_ok[u] >> sigmask) & 1:
                        group_deltas(x, u, sigmask)
                    if val[sigmask] + x.group_low[u][sigmask] < -x.n * x.den:
                        total -= (<int128> cnt) * val[sigmask] + x.group_sum[u][sigmask]
                        unsafe |= 1 << sigmask
            for sigmask in range(1 << nr if unsafe else 0):
                if (unsafe >> sigmask) & 1:
                    leave_unsafe(x, sigmask, i)
            # the flush outcomes counted above as non-flush come out again: their group's
            # value and their own flush draws of the other suits
            for j in range(n_fl):
                if not (unsafe >> fl_sig[j]) & 1:
                    taken[fl_suit[j]] = full
                    total -= val[fl_sig[j]] + other_suits(x, player, taken)
                    taken[fl_suit[j]] = 0
            x.acc[km] += total
            # counted with every hand bet (never_folds): no group was left to the card-by-card path
            add_gain(x, player, total, x.leaves - n_fl)
        # the flush outcomes themselves
        for j in range(n_fl):
            v = fold_floor(x, player, flush_value(x, i, fl_suit[j], new, &player))
            x.acc[km] += v
            add_gain(x, player, v, 1)
    unsafe_outcomes(x)


cdef void each_multiset(Ctx* x, int r, int left) noexcept nogil:
    # choose the rank multiset of the new cards
    cdef int m
    if left == 0:
        if x.plain:
            multiset_bound(x)
        elif x.results != NULL:
            multiset_results(x)
        else:
            multiset_values(x)
        return
    if r == 13:
        return
    for m in range(min(left, x.D.a0[r]) + 1):
        x.mult[r] = m
        each_multiset(x, r + 1, left - m)
    x.mult[r] = 0
