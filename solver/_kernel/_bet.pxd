# Betting a final hand (docs/design.md §1, §7): the showdowns against the dealer hands left, the
# best insurance (``bet_capped`` when a payout can reach the table's maximum) and the buy's
# excess (``bet_with_buy`` computes it from the deck). Values are numerators over n * den: n
# dealer hands, den draw sequences of a buy.
from libc.stdint cimport int64_t, uint16_t
from solver._kernel._deck cimport Deal, Filter, flush_part
from solver._kernel._settle cimport Settings, insures, win_pay

cdef enum:
    N_COUNTS = 13       # a bet's counts (bet_with_buy): n, win, tie, lose, nq, excess, den, the buy's split,
                        # the insurance taken and the buy's excess with it


cdef inline void showdowns(const Settings* st, const Filter* f, int player, int64_t nq, const int64_t* blind,
                            int64_t n, int64_t* wtl) noexcept nogil:
    # the qualifying dealer hands the player beats, ties, loses to
    cdef int64_t below, upto
    if player >= st.qualifier:
        below = blind[0] + flush_part(f, player)
        upto = blind[1] + flush_part(f, player + 1)
        wtl[0] = below - nq
        wtl[1] = upto - below
        wtl[2] = n - upto
    else:
        wtl[0] = wtl[1] = 0
        wtl[2] = n - nq


cdef int64_t bet_capped(const Settings* st, int player, int p, const int64_t* wtl, int64_t nq, int64_t den,
                         int64_t excess, const int64_t* more, int64_t* chosen) noexcept nogil


cdef inline int64_t bet(const Settings* st, const Filter* f, int player, int p, int64_t nq,
                         const int64_t* blind, int64_t n, int64_t den, int64_t excess,
                         int64_t* counts, const int64_t* more=NULL) noexcept nogil:
    """Numerator over n * den of betting a final hand, with the best insurance, from the dealer
    hands below the player and below the next strength by ranks alone (``blind``, of the deck's
    blind prefix), the dealer flushes left (``f``) and the buy's excess; for a hand whose
    insurance can reach the table's maximum, ``more`` holds the excesses of bet_capped."""
    cdef int64_t wtl[3]
    cdef int64_t chosen[2]
    cdef int64_t value
    showdowns(st, f, player, nq, blind, n, wtl)
    if more != NULL:
        value = bet_capped(st, player, p, wtl, nq, den, excess, more, chosen)
    else:
        value = den * (win_pay(st, p) * wtl[0] - 3 * wtl[2] + nq) + excess
        chosen[0] = st.insurance_max * p if insures(st, player, p, wtl[0], wtl[1], nq) else 0
        chosen[1] = excess
        value += den * chosen[0] * (nq - wtl[0] - (wtl[1] if st.tie_loses else 0))
    if counts != NULL:
        counts[0] = n
        counts[1] = wtl[0]
        counts[2] = wtl[1]
        counts[3] = wtl[2]
        counts[4] = nq
        counts[5] = excess
        counts[6] = den
        counts[11] = chosen[0]
        counts[12] = chosen[1]
    return value


cdef int64_t bet_with_buy(const Deal* D, const Settings* st, int64_t* pref, const Filter* f,
                    const int* a, const uint16_t* ys, int ysize, int player, int p,
                    int64_t nq, int64_t n, int64_t den, int64_t* counts,
                    bint excess_given=*, int64_t given=*) noexcept nogil
