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
                  int player, int p, int64_t* results, int64_t* hist=NULL, int base=0) noexcept nogil:
    # Numerator, over falling(m, redraws + 1), of the buy's result with m stub cards unused;
    # ``results`` gains the draws (the same weights) after which the player wins, ties, loses,
    # and ``hist`` (if given) every draw's end at its net result: ``base`` (the insurance, less
    # the fee) plus the showdown's, or plus 0 while the dealer still has no game.
    cdef int64_t total = 0, weight
    cdef int i, c, s, r
    for i in range(stub_len):
        if used[i]:
            continue
        c = stub[i]
        s = eval5(t, kept[0], kept[1], kept[2], kept[3], c)
        weight = falling(m - 1, redraws)
        if s >= st.qualifier:
            r = settle(st, player, s, p)
            total += r * weight
            results[0 if player > s else 1 if player == s else 2] += weight
            if hist != NULL:
                hist[base + r] += weight
        elif (c >> 2) == thrown_rank and redraws > 0:
            # same rank as the card thrown and still no game: the new card goes, draw again
            used[i] = 1
            total += _buy(t, st, kept, thrown_rank, stub, used, stub_len, m - 1, redraws - 1, player, p,
                          results, hist, base)
            used[i] = 0
        elif hist != NULL:
            hist[base] += weight  # the dealer still has no game: ante and bet returned, 0
    return total


cdef Settings _settings(int qualifier, int win_extra, int buy_fee, int redraws):
    # the settings the literal enumeration reads
    cdef Settings st
    st.qualifier = qualifier
    st.win_extra = win_extra
    st.buy_fee = buy_fee
    st.redraws = redraws
    return st


DEF SPAN = 1024          # net results from -SPAN/2 to SPAN/2 - 1


cdef void _dealer_hands(const EvalTables* t, const Settings* st, const uint8_t[::1] deck, int up, int player,
                        int p, bint may_buy, int insurance, bint tie_loses, int64_t* counts,
                        int64_t* hist) noexcept nogil:
    """Every dealer hand (the up-card and four of ``deck``), every buy draw: ``counts`` as
    ``situation`` returns them; ``hist`` (if given, SPAN wide, 0 at SPAN / 2) gains every net
    result of the bet insured for ``insurance`` antes, in rounds (a dealer hand is den)."""
    cdef int n = deck.shape[0], a, b, c, d, i, s, k, top, r, stub_len = n - 4, half = SPAN // 2
    cdef int hand[5]
    cdef int kept[4]
    cdef uint8_t stub[52]
    cdef uint8_t used[52]
    cdef int64_t buy[3]
    cdef int64_t value, den = falling(stub_len, st.redraws + 1)
    for i in range(52):
        used[i] = 0
    for i in range(11):
        counts[i] = 0
    counts[6] = den
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    counts[0] += 1
                    s = eval5(t, up, deck[a], deck[b], deck[c], deck[d])
                    if s >= st.qualifier:
                        counts[1 if player > s else 2 if player == s else 3] += 1
                        if hist != NULL:
                            # insurance: lost on a win (and on a tie, unless returned), else returned
                            r = settle(st, player, s, p) - (insurance if player > s or (player == s and tie_loses)
                                                            else 0)
                            hist[half + r] += den
                        continue
                    counts[4] += 1
                    value = 0
                    if may_buy:
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
                        value = _buy(t, st, kept, hand[top] >> 2, stub, used, stub_len, stub_len, st.redraws,
                                     player, p, buy) - (st.buy_fee + 1) * den
                    if value > 0:
                        counts[5] += value
                        counts[7] += 1
                        for i in range(3):
                            counts[8 + i] += buy[i]
                        if hist != NULL:
                            _buy(t, st, kept, hand[top] >> 2, stub, used, stub_len, stub_len, st.redraws,
                                 player, p, buy, hist, half + insurance - st.buy_fee)
                    elif hist != NULL:
                        hist[half + 1 + insurance] += den


def situation(const uint8_t[::1] deck, int up, int player, int p, bint may_buy,
              int qualifier, int win_extra, int buy_fee, int redraws):
    """Counts (n, win, tie, lose, nq, buy_excess, den, buys, buy_win, buy_tie, buy_lose) for a
    final hand against every dealer hand.

    ``player`` is the final hand's strength, ``p`` its payout multiple, ``deck`` the unseen cards.
    ``buy_excess`` sums max(0, E - fee - 1) over non-qualifying dealer hands, over ``den``;
    ``buys`` counts the hands where that is positive (the player buys), and ``buy_win``,
    ``buy_tie``, ``buy_lose`` their draws that end in a showdown of each result, over ``den``.
    """
    cdef Settings st = _settings(qualifier, win_extra, buy_fee, redraws)
    cdef int64_t counts[11]
    with nogil:
        _dealer_hands(tables(), &st, deck, up, player, p, may_buy, 0, False, counts, NULL)
    return tuple(counts[i] for i in range(11))


def results(const uint8_t[::1] deck, int up, int player, int p, bint may_buy, int qualifier,
            int win_extra, int buy_fee, int redraws, int insurance, bint tie_loses):
    """Every net result of betting a final hand, literally: {net result: rounds}, out of n * den.

    Each dealer hand is den rounds (den as ``situation``'s: the buy's draw sequences). The bet
    is insured for ``insurance`` antes (0: not), and a game is bought for the dealer where its
    value beats taking the ante (RULES §5-§7); the buy's draws are played out card by card.
    """
    cdef Settings st = _settings(qualifier, win_extra, buy_fee, redraws)
    cdef int64_t counts[11]
    cdef int64_t[::1] hist = np.zeros(SPAN, np.int64)
    if not -SPAN // 2 < 3 * insurance + 2 * p + win_extra + buy_fee + 4 < SPAN // 2:
        raise ValueError("results out of range")
    with nogil:
        _dealer_hands(tables(), &st, deck, up, player, p, may_buy, insurance, tie_loses, counts, &hist[0])
    return {r - SPAN // 2: int(hist[r]) for r in range(SPAN) if hist[r]}


def buy_game(const uint8_t[::1] dealer, const uint8_t[::1] stub, int player, int p,
             int qualifier, int win_extra, int redraws):
    """(numerator, den) of the result of buying a game for one non-qualifying dealer hand.

    The dealer throws its highest card and draws from ``stub``, redrawing as RULES §7; the
    result is over den = |stub| (|stub| - 1) ... (redraws + 1 factors). The fee is not included.
    """
    cdef Settings st = _settings(qualifier, win_extra, 0, redraws)
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
