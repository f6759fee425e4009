# cython: language_level=3
"""Hand evaluation kernel: dense strengths of 5-card hands, the main combination of 6 cards,
and the payout multiple P with the second combination (RULES §2, §4).

Private: ``solver.hand`` is the typed wrapper. The tables are built once at import (a few ms).
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t
from libc.string cimport memset

cnp.import_array()

# Additive rank keys: the sums of any five ranks (at most four of one rank) are all different,
# so the sum indexes a table directly (found greedily; the build below checks it again).
cdef uint32_t RANK_KEYS[13]
RANK_KEYS[:] = [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415]

cdef EvalTables _T


cdef const EvalTables* tables() noexcept nogil:
    return &_T


def _raw_strength(counts, bint suited):
    """Category << 20 | tie-break ranks, from the rank counts of five cards."""
    groups = sorted(((n, r) for r, n in enumerate(counts) if n), reverse=True)
    ranks = [r for _, r in groups]
    shape = tuple(n for n, _ in groups)
    straight_high = -1
    if shape == (1, 1, 1, 1, 1):
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:
            straight_high = 3          # the wheel A-2-3-4-5 is the lowest straight
    if suited:
        if straight_high == 12:
            cat = ROYAL_FLUSH
        elif straight_high >= 0:
            cat = STRAIGHT_FLUSH
        else:
            cat = FLUSH
    elif straight_high >= 0:
        cat = STRAIGHT
    else:
        cat = {(4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE, (3, 1, 1): THREE_OF_A_KIND,
               (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR}.get(shape, NO_GAME)
        if cat == NO_GAME and counts[12] and counts[11]:
            cat = AK
    if straight_high >= 0:
        ranks = [straight_high]
    tiebreak = 0
    for i, r in enumerate(ranks):
        tiebreak |= r << (4 * (4 - i))
    return (cat << 20) | tiebreak


def _rank_multisets():
    """Every multiset of five ranks with at most four of a rank, as a count vector."""
    out = []
    def rec(r, left, counts):
        if r == 13:
            if left == 0:
                out.append(tuple(counts))
            return
        for n in range(min(4, left) + 1):
            counts.append(n)
            rec(r + 1, left - n, counts)
            counts.pop()
    rec(0, 5, [])
    return out


cdef void _build() except *:
    cdef int r, c, i
    multisets = _rank_multisets()
    plain = [(_raw_strength(m, False), m) for m in multisets]
    suited = [(_raw_strength(m, True), m) for m in multisets if max(m) == 1]
    raws = sorted({raw for raw, _ in plain} | {raw for raw, _ in suited})
    if len(raws) != N_STRENGTH:
        raise RuntimeError(f"{len(raws)} hand classes, expected {N_STRENGTH}")
    dense = {raw: i for i, raw in enumerate(raws)}
    for i, raw in enumerate(raws):
        _T.raw[i] = raw
        _T.category[i] = raw >> 20
    memset(_T.rank_table, 0xFF, sizeof(_T.rank_table))
    memset(_T.flush_table, 0xFF, sizeof(_T.flush_table))
    seen = set()
    for raw, m in plain:
        key = sum(RANK_KEYS[r] * m[r] for r in range(13))
        if key in seen:
            raise RuntimeError("rank keys collide")
        seen.add(key)
        _T.rank_table[key] = dense[raw]
    for raw, m in suited:
        _T.flush_table[sum(1 << r for r in range(13) if m[r])] = dense[raw]
    for c in range(52):
        _T.card_key[c] = RANK_KEYS[c >> 2]
        _T.card_bit[c] = 1 << (c >> 2)


_build()


cdef inline uint64_t _rank_signature(const uint8_t* h, int n, int mask) noexcept nogil:
    # Multiset of ranks of the cards in mask: 3 bits of count per rank.
    cdef uint64_t sig = 0
    cdef int i
    for i in range(n):
        if mask >> i & 1:
            sig += (<uint64_t>1) << (3 * (h[i] >> 2))
    return sig


cdef inline int _exact_type(const EvalTables* t, const uint8_t* h, int n, int mask) noexcept nogil:
    # The combination the cards of mask form exactly (RULES §4 combination cards), or -1.
    cdef int idx[5]
    cdef int k = 0, i, cat
    for i in range(n):
        if mask >> i & 1:
            idx[k] = h[i] >> 2
            k += 1
    if k == 2:
        if idx[0] == idx[1]:
            return PAIR
        if (idx[0] == 12 and idx[1] == 11) or (idx[0] == 11 and idx[1] == 12):
            return AK
        return -1
    if k == 3:
        return THREE_OF_A_KIND if idx[0] == idx[1] == idx[2] else -1
    if k == 4:
        # sort the four ranks (tiny insertion sort), then look at the shape
        for i in range(1, 4):
            cat = idx[i]
            k = i - 1
            while k >= 0 and idx[k] > cat:
                idx[k + 1] = idx[k]
                k -= 1
            idx[k + 1] = cat
        if idx[0] == idx[3]:
            return FOUR_OF_A_KIND
        if idx[0] == idx[1] and idx[2] == idx[3] and idx[1] != idx[2]:
            return TWO_PAIR
        return -1
    if k == 5:
        k = 0
        for i in range(n):
            if mask >> i & 1:
                idx[k] = h[i]
                k += 1
        cat = t.category[eval5(t, idx[0], idx[1], idx[2], idx[3], idx[4])]
        return cat if cat >= STRAIGHT and cat != FOUR_OF_A_KIND else -1
    return -1


cdef inline int _main_cards(const EvalTables* t, const uint8_t* h, int n, int five, int cat) noexcept nogil:
    # Combination cards (RULES §4) of the 5-card hand ``five`` (a mask over h) of category cat.
    cdef int i, j, mask = 0, same
    if cat == NO_GAME:
        return 0
    if cat == AK:
        for i in range(n):
            if five >> i & 1 and (h[i] >> 2) >= 11:
                mask |= 1 << i
        return mask
    if cat >= STRAIGHT and cat != FOUR_OF_A_KIND:
        return five
    for i in range(n):
        if five >> i & 1:
            same = 0
            for j in range(n):
                if five >> j & 1 and (h[j] >> 2) == (h[i] >> 2):
                    same += 1
            if same >= 2:
                mask |= 1 << i
    return mask


cdef int payout_detail(const EvalTables* t, const uint8_t* h, int n, const int32_t* pay,
                       bint second_on, bint new_rank, int* main_mask, int* second_mask,
                       int* second_category) noexcept nogil:
    """P of a 5- or 6-card hand; the card masks of the main and second combination chosen."""
    cdef int fives[6]
    cdef int n_five = 0, i, k, mask, best = -1, s, cat, best_p = -1, p, cm, sp, sm, sc
    cdef int cand_mask[64]
    cdef int cand_pay[64]
    cdef int cand_type[64]
    cdef uint64_t cand_sig[64]
    cdef int n_cand = 0, typ
    cdef uint64_t main_sig
    cdef int full = (1 << n) - 1
    cdef int sub[5]
    # the 5-card hands with the best strength: each is a candidate main combination
    for i in range(n if n == 6 else 1):
        mask = full & ~(1 << i) if n == 6 else full
        k = 0
        for s in range(n):
            if mask >> s & 1:
                sub[k] = h[s]
                k += 1
        s = eval5(t, sub[0], sub[1], sub[2], sub[3], sub[4])
        if s > best:
            best = s
            n_five = 0
        if s == best:
            fives[n_five] = mask
            n_five += 1
    cat = t.category[best]
    main_mask[0] = _main_cards(t, h, n, fives[0], cat)
    second_mask[0] = 0
    second_category[0] = -1
    if not second_on or cat == NO_GAME:
        return pay[cat]
    for mask in range(3, full + 1):
        k = 0
        for i in range(n):
            k += mask >> i & 1
        if k < 2 or k > 5:
            continue
        typ = _exact_type(t, h, n, mask)
        if typ >= 0:
            cand_mask[n_cand] = mask
            cand_type[n_cand] = typ
            cand_pay[n_cand] = pay[typ]
            cand_sig[n_cand] = _rank_signature(h, n, mask)
            n_cand += 1
    for i in range(n_five):
        cm = _main_cards(t, h, n, fives[i], cat)
        main_sig = _rank_signature(h, n, cm)
        sp = 0
        sm = 0
        sc = -1
        for k in range(n_cand):
            if cand_mask[k] & ~cm == 0:
                continue
            if new_rank and cand_sig[k] == main_sig:
                continue
            if cand_pay[k] > sp or sc < 0:
                sp = cand_pay[k]
                sm = cand_mask[k]
                sc = cand_type[k]
        p = pay[cat] + sp
        if p > best_p:
            best_p = p
            main_mask[0] = cm
            second_mask[0] = sm
            second_category[0] = sc
    return best_p


cdef int _check_hands(const uint8_t[:, ::1] hands) except -1:
    cdef Py_ssize_t i, j, k
    cdef int n = hands.shape[1]
    if n != 5 and n != 6:
        raise ValueError(f"hands must have 5 or 6 cards, not {n}")
    for i in range(hands.shape[0]):
        for j in range(n):
            if hands[i, j] >= 52:
                raise ValueError(f"hand {i}: card code {hands[i, j]} out of range")
            for k in range(j):
                if hands[i, j] == hands[i, k]:
                    raise ValueError(f"hand {i}: card code {hands[i, j]} repeated")
    return 0


def evaluate(const uint8_t[:, ::1] hands, bint check=True):
    """Strength (dense index, higher is better) of the best 5-card hand of each row (5 or 6 cards)."""
    if check:
        _check_hands(hands)
    cdef Py_ssize_t i, m = hands.shape[0]
    out = np.empty(m, dtype=np.uint16)
    cdef uint16_t[::1] o = out
    cdef const EvalTables* t = &_T
    if hands.shape[1] == 5:
        with nogil:
            for i in range(m):
                o[i] = eval5(t, hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    else:
        with nogil:
            for i in range(m):
                o[i] = eval6(t, &hands[i, 0])
    return out


def payout(const uint8_t[:, ::1] hands, const int32_t[::1] paytable, bint second_on, bint new_rank,
           bint check=True):
    """Payout multiple P (RULES §4) of each row of 5 or 6 cards, ``paytable`` indexed by category."""
    if check:
        _check_hands(hands)
    if paytable.shape[0] != N_CATEGORY:
        raise ValueError(f"paytable must have {N_CATEGORY} entries (no game .. royal flush)")
    cdef Py_ssize_t i, m = hands.shape[0]
    cdef int n = hands.shape[1], a, b, c
    out = np.empty(m, dtype=np.int32)
    cdef int32_t[::1] o = out
    cdef const EvalTables* t = &_T
    with nogil:
        for i in range(m):
            o[i] = payout_detail(t, &hands[i, 0], n, &paytable[0], second_on, new_rank, &a, &b, &c)
    return out


def detail(const uint8_t[::1] cards, const int32_t[::1] paytable, bint second_on, bint new_rank):
    """(strength, P, main mask, second mask, second category or -1) of one 5- or 6-card hand."""
    hands = np.asarray(cards).reshape(1, -1)
    _check_hands(hands)
    cdef int a, b, c, p
    cdef const uint8_t[:, ::1] h = hands
    p = payout_detail(&_T, &h[0, 0], h.shape[1], &paytable[0], second_on, new_rank, &a, &b, &c)
    return int(evaluate(hands, False)[0]), p, a, b, c


def all_hands(int n):
    """Every n-card hand (n = 1..7) of the 52 cards, in lexicographic order of card codes."""
    from math import comb
    if not 1 <= n <= 7:
        raise ValueError("n must be 1..7")
    out = np.empty((comb(52, n), n), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    cdef int idx[7]
    cdef int i
    cdef Py_ssize_t row = 0
    for i in range(n):
        idx[i] = i
    with nogil:
        while True:
            for i in range(n):
                o[row, i] = idx[i]
            row += 1
            if not next_subset(idx, n, 52):
                break
    return out


def strength_categories():
    """Category (0 no game .. 10 royal flush) of every strength."""
    return np.asarray(<uint8_t[:N_STRENGTH]> _T.category).copy()


def strength_raw():
    """category << 20 | tie-break ranks (4 bits each, highest first) of every strength."""
    return np.asarray(<uint32_t[:N_STRENGTH]> _T.raw).copy()
