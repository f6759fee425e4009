# cython: language_level=3
"""Brute-force reference for one final situation: every dealer hand and every buy draw, literally.

For a final player hand F (its strength and P) and the deck Y of unseen cards, enumerate the
dealer's four hidden cards from Y; for each non-qualifying dealer hand the buy of a game is
played out card by card from the stub (Y minus the dealer's cards), redraws included
(RULES §5, §7). No shortcut of any kind: this is the judge of the fast kernel ``_dealer``.
"""
from libc.stdint cimport uint8_t, int64_t
import numpy as np
from solver._eval cimport EvalTables, tables, eval5
from solver._settle cimport Settings, settle, falling


cdef int64_t _buy(const EvalTables* t, const Settings* st, const int* kept, int thrown_rank,
                  const uint8_t* stub, uint8_t* used, int stub_len, int m, int redraws,
                  int player, int p, int64_t* results) noexcept nogil:
    # Numerator, over falling(m, redraws + 1), of the buy's result with m stub cards unused;
    # ``results`` gains the draws (the same weights) after which the player wins, ties, loses.
    cdef int64_t total = 0, weight
    cdef int i, c, s
    for i in range(stub_len):
        if used[i]:
            continue
        c = stub[i]
        s = eval5(t, kept[0], kept[1], kept[2], kept[3], c)
        if s >= st.qualifier:
            weight = falling(m - 1, redraws)
            total += settle(st, player, s, p) * weight
            results[0 if player > s else 1 if player == s else 2] += weight
        elif (c >> 2) == thrown_rank and redraws > 0:
            # same rank as the card thrown and still no game: the new card goes, draw again
            used[i] = 1
            total += _buy(t, st, kept, thrown_rank, stub, used, stub_len, m - 1, redraws - 1, player, p,
                          results)
            used[i] = 0
        # otherwise the dealer still has no game: ante and bet returned, 0
    return total


def situation(const uint8_t[::1] deck, int up, int player, int p, bint may_buy,
              int qualifier, int win_extra, int buy_fee, int redraws):
    """Counts (n, win, tie, lose, nq, buy_excess, den, buys, buy_win, buy_tie, buy_lose) for a
    final hand against every dealer hand.

    ``player`` is the final hand's strength, ``p`` its payout multiple, ``deck`` the unseen cards.
    ``buy_excess`` sums max(0, E - fee - 1) over non-qualifying dealer hands, over ``den``;
    ``buys`` counts the hands where that is positive (the player buys), and ``buy_win``,
    ``buy_tie``, ``buy_lose`` their draws that end in a showdown of each result, over ``den``.
    """
    cdef Settings st
    st.qualifier = qualifier
    st.win_extra = win_extra
    st.buy_fee = buy_fee
    st.redraws = redraws
    cdef const EvalTables* t = tables()
    cdef int n = deck.shape[0], a, b, c, d, i, s, k, top, stub_len = n - 4
    cdef int hand[5]
    cdef int kept[4]
    cdef uint8_t stub[52]
    cdef uint8_t used[52]
    cdef int64_t count = 0, win = 0, tie = 0, lose = 0, nq = 0, excess = 0, value, buys = 0
    cdef int64_t results[3]
    cdef int64_t bought[3]
    cdef int64_t den = falling(stub_len, redraws + 1)
    for i in range(52):
        used[i] = 0
    for i in range(3):
        bought[i] = 0
    with nogil:
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    for d in range(c + 1, n):
                        count += 1
                        s = eval5(t, up, deck[a], deck[b], deck[c], deck[d])
                        if s >= qualifier:
                            if player > s:
                                win += 1
                            elif player == s:
                                tie += 1
                            else:
                                lose += 1
                            continue
                        nq += 1
                        if not may_buy:
                            continue
                        hand[0] = up
                        hand[1] = deck[a]
                        hand[2] = deck[b]
                        hand[3] = deck[c]
                        hand[4] = deck[d]
                        top = 0
                        for i in range(1, 5):
                            if (hand[i] >> 2) > (hand[top] >> 2):
                                top = i
                        k = 0
                        for i in range(5):
                            if i != top:
                                kept[k] = hand[i]
                                k += 1
                        k = 0
                        for i in range(n):
                            if i != a and i != b and i != c and i != d:
                                stub[k] = deck[i]
                                k += 1
                        results[0] = results[1] = results[2] = 0
                        value = _buy(t, &st, kept, hand[top] >> 2, stub, used, stub_len, stub_len,
                                     redraws, player, p, results)
                        value -= (buy_fee + 1) * den
                        if value > 0:
                            excess += value
                            buys += 1
                            for i in range(3):
                                bought[i] += results[i]
    return count, win, tie, lose, nq, excess, den, buys, bought[0], bought[1], bought[2]


def buy_game(const uint8_t[::1] dealer, const uint8_t[::1] stub, int player, int p,
             int qualifier, int win_extra, int redraws):
    """(numerator, den) of the result of buying a game for one non-qualifying dealer hand.

    The dealer throws its highest card and draws from ``stub``, redrawing as RULES §7; the
    result is over den = |stub| (|stub| - 1) ... (redraws + 1 factors). The fee is not included.
    """
    cdef Settings st
    st.qualifier = qualifier
    st.win_extra = win_extra
    st.redraws = redraws
    cdef int kept[4]
    cdef uint8_t used[52]
    cdef int i, k = 0, top = 0, n = stub.shape[0]
    cdef int64_t results[3]
    for i in range(1, 5):
        if (dealer[i] >> 2) > (dealer[top] >> 2):
            top = i
    for i in range(5):
        if i != top:
            kept[k] = dealer[i]
            k += 1
    for i in range(52):
        used[i] = 0
    results[0] = results[1] = results[2] = 0
    value = _buy(tables(), &st, kept, dealer[top] >> 2, &stub[0], used, n, n, redraws, player, p, results)
    return value, falling(n, redraws + 1)


DEF SPAN = 1024          # net results from -SPAN/2 to SPAN/2 - 1


cdef void _buy_results(const EvalTables* t, const Settings* st, const int* kept, int thrown_rank,
                       const uint8_t* stub, uint8_t* used, int stub_len, int m, int redraws,
                       int player, int p, int base, int64_t* hist) noexcept nogil:
    # as _buy, each draw's end counted at its net result: ``base`` (the insurance, less the fee)
    # plus the showdown's, or plus 0 while the dealer still has no game
    cdef int i, c, s
    for i in range(stub_len):
        if used[i]:
            continue
        c = stub[i]
        s = eval5(t, kept[0], kept[1], kept[2], kept[3], c)
        if s >= st.qualifier:
            hist[base + settle(st, player, s, p)] += falling(m - 1, redraws)
        elif (c >> 2) == thrown_rank and redraws > 0:
            used[i] = 1
            _buy_results(t, st, kept, thrown_rank, stub, used, stub_len, m - 1, redraws - 1, player, p, base, hist)
            used[i] = 0
        else:
            hist[base] += falling(m - 1, redraws)


def results(const uint8_t[::1] deck, int up, int player, int p, bint may_buy, int qualifier,
            int win_extra, int buy_fee, int redraws, int insurance, bint tie_loses):
    """Every net result of betting a final hand, literally: {net result: rounds}, out of n * den.

    Each dealer hand is den rounds (den as ``situation``'s: the buy's draw sequences). The bet
    is insured for ``insurance`` antes (0: not), and a game is bought for the dealer where its
    value beats taking the ante (RULES §5-§7); the buy's draws are played out card by card.
    """
    cdef Settings st
    st.qualifier = qualifier
    st.win_extra = win_extra
    st.redraws = redraws
    cdef const EvalTables* t = tables()
    cdef int n = deck.shape[0], a, b, c, d, i, s, k, top, r, stub_len = n - 4, half = SPAN // 2
    cdef int hand[5]
    cdef int kept[4]
    cdef uint8_t stub[52]
    cdef uint8_t used[52]
    cdef int64_t buy[3]
    cdef int64_t den = falling(stub_len, redraws + 1)
    cdef int64_t[::1] hist = np.zeros(SPAN, np.int64)
    if not -half < 3 * insurance + 2 * p + win_extra + buy_fee + 4 < half:
        raise ValueError("results out of range")
    for i in range(52):
        used[i] = 0
    with nogil:
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    for d in range(c + 1, n):
                        s = eval5(t, up, deck[a], deck[b], deck[c], deck[d])
                        if s >= qualifier:
                            r = settle(&st, player, s, p)
                            # insurance: lost on a win (and on a tie, unless returned), else returned
                            if player > s or (player == s and tie_loses):
                                r -= insurance
                            hist[half + r] += den
                            continue
                        hand[0] = up
                        hand[1] = deck[a]
                        hand[2] = deck[b]
                        hand[3] = deck[c]
                        hand[4] = deck[d]
                        top = 0
                        for i in range(1, 5):
                            if (hand[i] >> 2) > (hand[top] >> 2):
                                top = i
                        k = 0
                        for i in range(5):
                            if i != top:
                                kept[k] = hand[i]
                                k += 1
                        k = 0
                        for i in range(n):
                            if i != a and i != b and i != c and i != d:
                                stub[k] = deck[i]
                                k += 1
                        buy[0] = buy[1] = buy[2] = 0
                        if may_buy and _buy(t, &st, kept, hand[top] >> 2, stub, used, stub_len, stub_len,
                                            redraws, player, p, buy) > (buy_fee + 1) * den:
                            _buy_results(t, &st, kept, hand[top] >> 2, stub, used, stub_len, stub_len, redraws,
                                         player, p, half + insurance - buy_fee, &hist[0])
                        else:
                            hist[half + 1 + insurance] += den
    return {r - half: int(hist[r]) for r in range(SPAN) if hist[r]}
