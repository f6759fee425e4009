# cython: language_level=3
"""Betting a final hand (declared in ``solver/_kernel/_bet.pxd``; docs/design.md §1, §7)."""
from libc.stdint cimport int64_t, uint16_t
from libc.stdlib cimport abort
from libc.string cimport memset
from solver._kernel._buy cimport buy_excess
from solver._kernel._deck cimport Deal, Filter, prefix_at
from solver._kernel._settle cimport Settings, buys, buys_at, capped, insured_pay, win_pay


cdef int64_t bet_capped(const Settings* st, int player, int p, const int64_t* wtl, int64_t nq, int64_t den,
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


cdef int64_t bet_with_buy(const Deal* D, const Settings* st, int64_t* pref, const Filter* f,
                    const int* a, const uint16_t* ys, int ysize, int player, int p,
                    int64_t nq, int64_t n, int64_t den, int64_t* counts,
                    bint excess_given=False, int64_t given=0) noexcept nogil:
    """bet of a final hand against the deck ``a`` (``ys`` by suit; ``pref`` its blind prefix).

    With ``excess_given``, the buy's part is ``given`` (the caller's), else it is computed, and
    ``counts`` (if given: N_COUNTS) gets bet's counts and, at 7 to 10, the split of the buys
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
    blind[0] = prefix_at(D, pref, D.ms_below[player])
    blind[1] = prefix_at(D, pref, D.ms_below[player + 1])
    if counts != NULL:
        memset(counts + 7, 0, 4 * sizeof(int64_t))
        split = counts + 7
    if not capped(st, player, p):
        if buys(st, player, p):
            excess = given if excess_given else buy_excess(D, st, a, ys, ysize, player, win_pay(st, p), split)
        return bet(st, f, player, p, nq, blind, n, den, excess, counts)
    if excess_given:
        abort()  # cannot happen: the callers leave these hands to this function
    memset(splits, 0, sizeof(splits))
    pays[0] = win_pay(st, p)
    pays[1] = insured_pay(st, p, st.insurance_min)
    pays[2] = insured_pay(st, p, st.insurance_max * p)
    for j in range(3):
        v = 0
        if buys_at(st, player, pays[j]):
            v = buy_excess(D, st, a, ys, ysize, player, pays[j], splits[j] if split != NULL else NULL)
        if j == 0:
            excess = v
        else:
            more[j - 1] = v
    value = bet(st, f, player, p, nq, blind, n, den, excess, counts, more)
    if split != NULL:
        # the split of the buys with the insurance taken
        pay = insured_pay(st, p, counts[11])
        for j in range(3):
            if pays[j] == pay:
                for k in range(4):
                    split[k] = splits[j][k]
                break
    return value
