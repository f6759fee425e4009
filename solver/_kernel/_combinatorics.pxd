# The static combinatorics the counting kernel shares (docs/design.md §2): binomials, the rank
# multisets of the dealer's four hidden cards and of an option's new cards, rank bit sets. Built
# once when ``solver._kernel._combinatorics`` is imported; read-only after that.
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t, uint32_t

cdef extern from *:
    # sums of counts times values over every outcome of an option: exact beyond 64 bits
    ctypedef long long int128 "__int128"

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define rp_prefetch(p) __builtin_prefetch(p)
    #else
    #define rp_prefetch(p) ((void) (p))
    #endif
    """
    # ask for the cache line at p to be read into the cache, without waiting for it (a hint:
    # nothing where the compiler has none)
    void prefetch "rp_prefetch" (const void* p) noexcept nogil

cdef enum:
    N_MULTI = 1820      # multisets of four ranks
    N_DISTINCT = 715    # sets of four distinct ranks
    N_MS_ALL = 8568     # multisets of 0 to 5 ranks (the new cards of an option)
    N_SUB = 163723      # the sub-multisets of at most four ranks of each of them

cdef int BINOM[6][6]                  # C(i, j) for i, j < 6
cdef uint8_t MS_RANK[N_MULTI][4]      # the four ranks, ascending
cdef uint8_t MS_N[N_MULTI]            # distinct ranks
cdef uint8_t MS_R[N_MULTI][4]         # distinct ranks
cdef uint8_t MS_M[N_MULTI][4]         # their multiplicities
cdef uint16_t DS_MASK[N_DISTINCT]     # four distinct ranks as a bit set
cdef uint32_t RK[13]                  # additive rank key of each rank (as the _eval tables)
cdef uint8_t POP[8192]                # bits set in a rank bit set (portable: no popcnt needed)
cdef int MS_OFF[6]                    # index of the first multiset of each size (0 to 5 ranks)
cdef int CHOOSE[18][6]                # C(i, j) for the combinatorial number system of ms_index
cdef int MS_PLACE[N_MULTI]            # ms_index of each multiset of four ranks


cdef struct Sub:
    # a sub-multiset sigma of at most four ranks of a multiset d of 0 to 5 ranks: the terms of
    # the inclusion-exclusion over an option's new cards d (docs/design.md §2)
    uint16_t sigma                    # ms_index of sigma
    int8_t coef                       # (-1)^|sigma| C(d, sigma), C(d, sigma) = prod_r C(d_r, sigma_r)
    uint8_t take[5]                   # sigma_r of each distinct rank of d, ascending


cdef int SUB_START[N_MS_ALL + 1]      # those of the multiset of place i: SUB[SUB_START[i]:SUB_START[i + 1]]
cdef Sub SUB[N_SUB]


cdef inline int popcount(unsigned int x) noexcept nogil:
    return POP[x]


cdef inline int64_t ways(int avail, int need) noexcept nogil:
    # C(avail, need) for avail < 6, 0 when need is out of range
    return BINOM[avail][need] if 0 <= need <= avail else 0


cdef inline int ms_index(const int* rank, const int* times, int n) noexcept nogil:
    # the place of the multiset (rank[p] taken times[p] times, ranks ascending) among those of
    # 0 to 5 ranks: its sorted ranks r_0 <= r_1 <= ... are the combination r_i + i, ranked by
    # the combinatorial number system
    cdef int p, t, i = 0, idx = 0
    for p in range(n):
        for t in range(times[p]):
            idx += CHOOSE[rank[p] + i][i + 1]
            i += 1
    return MS_OFF[i] + idx


cdef inline uint32_t key_of_mask(uint16_t mask) noexcept nogil:
    # the additive rank key of a set of ranks
    cdef uint32_t key = 0
    cdef int r
    for r in range(13):
        if (mask >> r) & 1:
            key += RK[r]
    return key
