# Hand evaluation kernel, shared with the other kernels through this declaration file.
# A hand's strength is a dense index 0..7461 in the order of RULES §2: equal index = tie.
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int32_t

cdef enum:
    N_STRENGTH = 7462
    N_CATEGORY = 11
    RANK_KEY_SPAN = 360919

cdef enum Category:
    NO_GAME = 0
    AK = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

cdef struct EvalTables:
    uint16_t rank_table[RANK_KEY_SPAN]   # additive rank key -> strength, hands without a flush
    uint16_t flush_table[8192]           # rank bit set -> strength, five suited cards
    uint32_t card_key[52]                # additive rank key of a card
    uint16_t card_bit[52]                # 1 << rank
    uint8_t category[N_STRENGTH]         # strength -> category
    uint32_t raw[N_STRENGTH]             # strength -> category << 20 | tie-break ranks in nibbles

cdef const EvalTables* tables() noexcept nogil

cdef inline uint16_t eval5(const EvalTables* t, int a, int b, int c, int d, int e) noexcept nogil:
    # Suits equal iff OR and AND of the two suit bits agree.
    if (((a | b | c | d | e) ^ (a & b & c & d & e)) & 3) == 0:
        return t.flush_table[t.card_bit[a] | t.card_bit[b] | t.card_bit[c] | t.card_bit[d] | t.card_bit[e]]
    return t.rank_table[t.card_key[a] + t.card_key[b] + t.card_key[c] + t.card_key[d] + t.card_key[e]]

cdef inline uint16_t eval6(const EvalTables* t, const uint8_t* h) noexcept nogil:
    cdef uint16_t best = eval5(t, h[1], h[2], h[3], h[4], h[5]), s
    s = eval5(t, h[0], h[2], h[3], h[4], h[5])
    if s > best: best = s
    s = eval5(t, h[0], h[1], h[3], h[4], h[5])
    if s > best: best = s
    s = eval5(t, h[0], h[1], h[2], h[4], h[5])
    if s > best: best = s
    s = eval5(t, h[0], h[1], h[2], h[3], h[5])
    if s > best: best = s
    s = eval5(t, h[0], h[1], h[2], h[3], h[4])
    if s > best: best = s
    return best

cdef inline bint next_subset(int* idx, int k, int n) noexcept nogil:
    # idx: k increasing indexes below n; step to the next k-subset in lexicographic order
    # (False after the last one)
    cdef int i = k - 1, j
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True

cdef int payout_detail(const EvalTables* t, const uint8_t* h, int n, const int32_t* pay,
                       bint second_on, bint new_rank, int* main_mask, int* second_mask,
                       int* second_category) noexcept nogil
