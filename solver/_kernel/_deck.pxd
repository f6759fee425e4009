# The dealer's counts for a deck (docs/design.md §2): a deal's rank-level part (the up rank's
# hidden rank multisets by strength, its buyable rank sets and their draws), the blind prefix
# sums of a deck's rank counts, and the filters of the up suit's flushes. ``dealer_below`` is
# what the rest of the kernel asks: how many dealer hands are weaker than a strength.
from libc.stdint cimport int64_t, uint8_t, uint16_t
from solver._kernel._combinatorics cimport N_DISTINCT, N_MULTI
from solver._kernel._eval cimport N_STRENGTH

cdef enum:
    MAX_FLUSH = 495     # four-card subsets of the 12 unseen cards of one suit
    # anchors: every ANCHOR_STEP-th place of a deck's blind prefix, counted from the deal's
    # deck by inclusion-exclusion over the deck's new cards; any other place is counted from
    # the nearest anchor (docs/design.md §2)
    ANCHOR_STEP = 32
    N_ANCHOR = N_MULTI // ANCHOR_STEP + 1
    # a deck's blind prefix is a row of PREFIX_ROW int64: at PREFIX_ANCHORED the bits of the
    # anchors counted so far, at PREFIX_ANCHOR their counts, at PREFIX_TOTAL the count at the
    # last place (every hand), at PREFIX_WAYS the deck's C(a_r, m) as bytes (66, in 9 words),
    # at PREFIX_NEW the place (ms_index) of its new cards, whose sub-multisets (SUB) are the
    # terms of its anchors
    PREFIX_ANCHORED = 0
    PREFIX_ANCHOR = 1
    PREFIX_TOTAL = PREFIX_ANCHOR + N_ANCHOR
    PREFIX_WAYS = PREFIX_TOTAL + 1
    PREFIX_NEW = PREFIX_WAYS + 9
    PREFIX_ROW = PREFIX_NEW + 1
    N_SIGMA = 2380                    # multisets of 0 to 4 ranks (MS_OFF[5])


cdef struct Draws:
    # the qualifying draws of a dealer after a buy, by strength: which of them a player beats,
    # ties and loses to are prefixes of the list (masks from ``cum``)
    int n
    int strength[13]                  # ascending
    uint8_t rank[13]
    uint16_t cum[14]                  # cum[k]: the ranks of the k weakest draws


cdef inline int draws_below(const Draws* d, int player) noexcept nogil:
    # how many draws are weaker than the player (a short list: a linear scan)
    cdef int k = 0
    while k < d.n and d.strength[k] < player:
        k += 1
    return k


cdef struct Deal:
    int up, rho, sigma, n0
    int ranks_valid                   # the up rank's part below is that of (rho, qualifier)
    int qualifier
    int a0[13]
    uint16_t ys0[4]                   # unseen cards of each suit, as rank bit sets
    int n_ms
    int ms_order[N_MULTI]             # hidden multisets of this up rank, by rank strength
    int ms_strength[N_MULTI]          # their strengths, ascending
    int ms_below[N_STRENGTH + 1]      # how many of them are weaker than each strength
    uint8_t ms_code[N_MULTI][4]       # their (rank, multiplicity) pairs as 5 r + m, padded with 65
    int n_flush_all                   # four ranks other than the up rank: the flushes possible
    uint16_t all_mask_by_fl[MAX_FLUSH]
    int all_by_fl[MAX_FLUSH]          # by flush strength (ascending)
    uint16_t all_mask_by_nf[MAX_FLUSH]
    int all_by_nf[MAX_FLUSH]          # by the strength of the same ranks without the flush
    int n_flush                       # four-card subsets of the up suit's unseen cards
    uint16_t fl_mask_by_fl[MAX_FLUSH]
    int fl_by_fl[MAX_FLUSH]           # their flush strengths, ascending
    uint16_t fl_mask_by_nf[MAX_FLUSH]
    int fl_by_nf[MAX_FLUSH]           # their rank strengths, ascending
    int n_ds                          # four distinct hidden ranks without the up rank
    uint16_t ds_mask[N_DISTINCT]
    int ds_strength[N_DISTINCT]       # rank strength of the dealer's five distinct ranks
    uint16_t ds_qual[N_DISTINCT]      # ranks whose draw after a buy qualifies (suits aside)
    Draws ds_plain[N_DISTINCT]        # those draws by strength
    int n_buyable
    int buyable[N_DISTINCT]           # the rank sets that do not qualify
    bint any_thrown                   # one of them throws the up-card when buying
    int band[N_STRENGTH]              # players of one band compare alike with every draw after a buy
    Draws ds_flush[N_DISTINCT]        # the draws of a rank not kept in the kept cards' suit
    int ds_top[N_DISTINCT]            # the rank the dealer throws when buying
    uint8_t ds_rank[N_DISTINCT][4]    # the four hidden ranks


cdef struct Filter:
    int sigmask                       # new cards of the up suit (rank bit set); -1 = unused
    int n
    # the lists' ends and the widest gap of by_nf (n_low below it), read first: most
    # strengths fall outside a list or in that gap, and need no search
    int fl_lo, fl_hi, nf_lo, nf_hi, gap_lo, gap_hi, n_low
    int at_qualifier                  # flush_part at the qualifier
    # the lists, elsewhere (filter_lists): the small part above is read for every group of
    # outcomes, the lists seldom, so the parts of many filters stay in cache together
    int* by_fl
    int* by_nf


cdef inline void filter_lists(Filter* f, int* room) noexcept nogil:
    # room: 2 * MAX_FLUSH ints for the filter's lists
    f.by_fl = room
    f.by_nf = room + MAX_FLUSH


cdef inline int count_below(const int* v, int n, int s) noexcept nogil:
    # how many of the ascending v[0..n) are < s (a binary search without branches in its loop)
    cdef const int* base = v
    cdef int half
    if n == 0:
        return 0
    while n > 1:
        half = n >> 1
        base = base + half if base[half] < s else base
        n -= half
    return <int> (base - v) + (base[0] < s)


cdef bint deal_init(Deal* D, int up, const uint8_t* known, int n_known, int qualifier) noexcept nogil


cdef void prefix_start(const Deal* D, const int* a, int64_t* pref) noexcept nogil


cdef int64_t prefix_at(const Deal* D, int64_t* pref, int i) noexcept nogil


cdef void flush_filter(const Deal* D, int sigmask, Filter* f) noexcept nogil


cdef inline int flush_part(const Filter* f, int s) noexcept nogil:
    # the dealer flushes below s less the same hands' rank strengths below s
    cdef int fl, nf
    if s <= f.fl_lo:
        fl = 0
    elif s > f.fl_hi:
        fl = f.n
    else:
        fl = count_below(f.by_fl, f.n, s)
    if s <= f.nf_lo:
        nf = 0
    elif s > f.nf_hi:
        nf = f.n
    elif f.gap_lo < s <= f.gap_hi:
        nf = f.n_low
    else:
        nf = count_below(f.by_nf, f.n, s)
    return fl - nf


cdef inline int64_t dealer_below(const Deal* D, int64_t* pref, const Filter* f, int s) noexcept nogil:
    # dealer hands of strength < s (pref: the deck's blind prefix): by ranks, then the
    # flushes moved from their rank strengths
    return prefix_at(D, pref, D.ms_below[s]) + flush_part(f, s)
