# What the solver kernels share: the settings in force and the settlement of one showdown.
from libc.stdint cimport int64_t

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
