# cython: language_level=3
"""Brute-force reference for one final situation: every dealer hand and every buy draw, literally.

For a final player hand F (its strength) and the deck Y of unseen cards, enumerate the dealer's
four hidden cards from Y; for each non-qualifying dealer hand the buy of a game is played out
card by card from the stub (Y minus the dealer's cards), redraws included (RULES §5, §7), and
its draws are counted by how they end (the player wins, ties, loses; the rest: still no game).
No shortcut of any kind: this is the judge of the fast kernel ``_dealer``. What the player is
paid for each ending (the paytable, the insurance, the table's maximum payout) and whether a
game is bought are settled from these counts by ``solver.reference.deal``.
"""
from libc.stdint cimport uint8_t, int64_t
import numpy as np
from solver._kernel._eval cimport EvalTables, tables, eval5
from solver._kernel._settle cimport falling


cdef void _buy(const EvalTables* t, int qualifier, const int* kept, int thrown_rank, const uint8_t* stub,
               uint8_t* used, int stub_len, int m, int redraws, int player, int64_t* ends) noexcept nogil:
    # The draws of a buy with m stub cards unused, each weighted to count over falling(m,
    # redraws + 1): ``ends`` gains those after which the dealer qualifies and the player wins,
    # ties, loses.
    cdef int64_t weight
    cdef int i, c, s
    for i in range(stub_len):
        if used[i]:
            continue
        c = stub[i]
        s = eval5(t, kept[0], kept[1], kept[2], kept[3], c)
        weight = falling(m - 1, redraws)
        if s >= qualifier:
            ends[0 if player > s else 1 if player == s else 2] += weight
        elif (c >> 2) == thrown_rank and redraws > 0:
            # same rank as the card thrown and still no game: the new card goes, draw again
            used[i] = 1
            _buy(t, qualifier, kept, thrown_rank, stub, used, stub_len, m - 1, redraws - 1, player, ends)
            used[i] = 0


cdef void _buy_of(const EvalTables* t, int qualifier, const int* hand, const uint8_t* stub, int stub_len,
                  int redraws, int player, int64_t* ends) noexcept nogil:
    # the dealer (five cards) throws its highest card and draws from the stub
    cdef int kept[4]
    cdef uint8_t used[52]
    cdef int i, k = 0, top = 0
    for i in range(1, 5):
        if (hand[i] >> 2) > (hand[top] >> 2):
            top = i
    for i in range(5):
        if i != top:
            kept[k] = hand[i]
            k += 1
    for i in range(52):
        used[i] = 0
    ends[0] = ends[1] = ends[2] = 0
    _buy(t, qualifier, kept, hand[top] >> 2, stub, used, stub_len, stub_len, redraws, player, ends)


def outcomes(const uint8_t[::1] deck, int up, int player, bint may_buy, int qualifier, int redraws):
    """Every dealer hand against a final hand of strength ``player``, the unseen cards ``deck``:
    (n, win, tie, lose, den, draws). ``draws`` has a row for each non-qualifying dealer hand:
    its buy's draws that end in a showdown the player wins, ties, loses, each over ``den``
    draw sequences (falling(|stub|, redraws + 1)); zeros when the player may not buy."""
    cdef const EvalTables* t = tables()
    cdef int n = deck.shape[0], a, b, c, d, i, k, s, stub_len = n - 4
    cdef int hand[5]
    cdef uint8_t stub[52]
    cdef int64_t counts[4]
    cdef int64_t ends[3]
    cdef int64_t den = falling(stub_len, redraws + 1)
    cdef int64_t total = n * (n - 1) * (n - 2) * (n - 3) // 24
    cdef int64_t[:, ::1] draws = np.zeros((total, 3), np.int64)
    cdef int64_t nq = 0
    counts[0] = counts[1] = counts[2] = counts[3] = 0
    with nogil:
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    for d in range(c + 1, n):
                        counts[0] += 1
                        s = eval5(t, up, deck[a], deck[b], deck[c], deck[d])
                        if s >= qualifier:
                            counts[1 if player > s else 2 if player == s else 3] += 1
                            continue
                        if may_buy:
                            hand[0] = up
                            hand[1] = deck[a]
                            hand[2] = deck[b]
                            hand[3] = deck[c]
                            hand[4] = deck[d]
                            k = 0
                            for i in range(n):
                                if i != a and i != b and i != c and i != d:
                                    stub[k] = deck[i]
                                    k += 1
                            _buy_of(t, qualifier, hand, stub, stub_len, redraws, player, ends)
                            for i in range(3):
                                draws[nq, i] = ends[i]
                        nq += 1
    return counts[0], counts[1], counts[2], counts[3], den, np.asarray(draws)[:nq].copy()


def buy_draws(const uint8_t[::1] dealer, const uint8_t[::1] stub, int player, int qualifier, int redraws):
    """The buy of a game for one non-qualifying dealer hand (RULES §7): (win, tie, lose, den),
    its draws that end in a showdown the player of strength ``player`` wins, ties, loses, over
    den = falling(|stub|, redraws + 1) draw sequences (the rest: still no game)."""
    cdef int hand[5]
    cdef int i
    cdef int64_t ends[3]
    for i in range(5):
        hand[i] = dealer[i]
    _buy_of(tables(), qualifier, hand, &stub[0], stub.shape[0], redraws, player, ends)
    return ends[0], ends[1], ends[2], falling(stub.shape[0], redraws + 1)
