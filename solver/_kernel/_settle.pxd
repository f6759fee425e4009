# What the solver kernels share: the settings in force, the settlement of one showdown, and the
# rules of buying a game, of insurance and of the table maximum as the counting kernel applies
# them (the literal reference, _brute and solver.reference, decides them on its own).
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

cdef struct Settings:
    int qualifier          # lowest dealer strength that qualifies
    int win_extra          # 1 when the ante is paid on a win (ante_on_win = paid), else 0
    int buy_on             # buying a game is allowed at all
    int buy_fee
    int redraws            # buy_redraws
    int buy_from           # lowest player strength that may buy a game (AK)
    int insurance_from     # lowest player strength that may insure; > 7461 when insurance is off
    int insurance_max      # maximum insurance per unit of P: 2 (2P) or 1 (half of 2P)
    int insurance_min      # minimum insurance in antes
    int tie_loses          # insurance lost on a tie
    int64_t max_payout     # the most a box is paid in one round, bet and insurance (antes); no cap: 2**40
    # the player's later decisions when not the best (a strategy card's; ``deal.Play``), by the
    # final hand's payout multiple P: -1 the best; k: from P >= k on always (the most insurance;
    # a game bought for every dealer hand that does not qualify), never below
    int insure_policy
    int buy_policy
    # and, with it, the hands that insure by final strength (1 the most, 0 none; NULL: by P
    # alone), named by insure_key so that the store never takes one table for another
    const uint8_t* insure_table
    uint64_t insure_key

cdef class KernelRules:
    # the Settings and the payouts of one set of rules, built once (``kernel_rules.kernel_rules``)
    cdef Settings st
    cdef const int32_t[::1] p5            # P of a five-card hand, by strength
    cdef const int32_t[::1] paytable      # the paytable by category (for six cards)
    cdef readonly bint second_combination
    cdef readonly bint new_rank
    cdef readonly tuple forced_counts     # exchanges after which the bet is forced
    cdef object _p5
    cdef object _paytable
    cdef object _insure_table


cdef inline int64_t win_pay(const Settings* st, int p) noexcept nogil:
    # what a won showdown pays the bet of a hand of payout multiple p: 2P (+ the ante), at most
    # the table's maximum payout (RULES §6: the total payout of a box)
    cdef int64_t pay = 2 * p + st.win_extra
    return pay if pay < st.max_payout else st.max_payout

cdef inline int64_t settle(int player, int dealer, int64_t pay) noexcept nogil:
    # Net result of a showdown with a qualifying dealer: win ``pay``, tie 0, lose -3.
    if player > dealer:
        return pay
    if player == dealer:
        return 0
    return -3

cdef inline int64_t falling(int64_t m, int count) noexcept nogil:
    # m (m - 1) ... with `count` factors
    cdef int64_t out = 1
    cdef int i
    for i in range(count):
        out *= m - i
    return out


cdef inline bint buys_at(const Settings* st, int player, int64_t pay) noexcept nogil:
    # buying a game can beat taking the ante only if winning pays more than the fee and the ante
    return st.buy_on and player >= st.buy_from and pay > st.buy_fee + 1


cdef inline bint buys(const Settings* st, int player, int p) noexcept nogil:
    # whether a buy of a game is counted for the hand: one that may beat taking the ante (the
    # best), or by the player's rule (buy_policy: then for every dealer hand, _buy's RankPlan.always)
    if st.buy_policy >= 0:
        return st.buy_on and player >= st.buy_from and p >= st.buy_policy
    return buys_at(st, player, win_pay(st, p))


cdef inline bint may_insure(const Settings* st, int player, int p) noexcept nogil:
    return player >= st.insurance_from and st.insurance_max * p >= st.insurance_min


cdef inline bint capped(const Settings* st, int player, int p) noexcept nogil:
    # the most insurance and a won showdown after a buy pay more than the table's maximum: the
    # value is not linear in the insurance (_bet_capped), and the buy after an insured bet pays
    # less than ``win_pay`` (insured_pay)
    return may_insure(st, player, p) and st.insurance_max * p + 2 * p + st.win_extra > st.max_payout


cdef inline int64_t insured_pay(const Settings* st, int p, int64_t size) noexcept nogil:
    # what a showdown won after a buy adds to the insurance ``size`` already paid: 2P (+ the
    # ante), at most what is left of the table's maximum payout (RULES §6)
    cdef int64_t pay = 2 * p + st.win_extra, room = st.max_payout - size
    return 0 if room <= 0 else pay if pay < room else room


cdef inline bint insures(const Settings* st, int player, int p, int64_t win, int64_t tie,
                          int64_t nq) noexcept nogil:
    # below the table's maximum the bet takes the most insurance allowed when a unit of it
    # gains: the dealer misses a game more often than the player wins (or ties, when a tie
    # loses it); else none (RULES §6). Or as the player's rule says (insure_policy).
    if not may_insure(st, player, p):
        return False
    if st.insure_policy >= 0:
        return p >= st.insure_policy and (st.insure_table == NULL or st.insure_table[player] != 0)
    return nq - win - (tie if st.tie_loses else 0) > 0
