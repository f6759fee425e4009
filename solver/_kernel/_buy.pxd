# Buying the dealer a game (docs/design.md §3): a rank plan per deck and player band -- the value
# of buying for each non-qualifying rank set of the dealer, suits aside (``rank_plan``) -- and
# the suit corrections (``plan_excess`` for the up suit, ``other_suit_delta`` for each other).
from libc.stdint cimport int8_t, int64_t, uint8_t, uint16_t
from libc.string cimport memset
from solver._kernel._deck cimport Deal
from solver._kernel._settle cimport Settings


cdef struct PlanEntry:
    # One rank set of the dealer that may gain from buying, for one deck's rank counts and one
    # band of players: what finishing a plan for a deal's suits reads. 16 bytes: plans are many
    # and each is read once per deal, from memory, not cache, so what follows from these and
    # the plan's deck is not kept (_stub_sum, _redraw_cards, _plain_excess). A draw is worth
    # best_pay if the player beats it, 0 on a tie or if the dealer still does not qualify, -3 if
    # it beats the player: the ranks of each kind are bit sets.
    uint16_t h                        # the rank set's four hidden ranks
    uint16_t fwin                     # draws in the kept cards' suit (flushes) the player beats
    uint16_t win                      # plain draws the player beats
    uint16_t lose                     # plain draws that beat the player
    uint16_t flose                    # draws in the kept cards' suit that beat the player
    uint16_t tie                      # plain draws that tie (for the buy's results, add_split)
    uint8_t top                       # the rank it throws
    int8_t need                       # a flush draw can pay only with more outs in fwin than this
    uint8_t won                       # stub cards whose plain draw the player beats
    uint8_t lost                      # stub cards whose plain draw beats the player


cdef struct BandDraw:
    # A band of players against one rank set that may buy, whatever the deck (the skeleton of
    # its plans, band_draws): the ranks of the plain draws it beats, ties and loses to, those
    # of the draws in the kept cards' suit it beats and loses to, and how many of each plain
    # kind the rank set itself hides (they are not in the stub)
    uint16_t win
    uint16_t tie
    uint16_t lose
    uint16_t fwin
    uint16_t flose
    uint8_t win_h
    uint8_t tie_h
    uint8_t lose_h


cdef struct RankPlan:
    # The buy's part of one deck's rank counts and one band of players, whatever the suits: the
    # same for every suit class of a rank-level deal (see Shared). Entries [0, n_thrown) are
    # the rank sets where the dealer throws the up-card.
    int n
    int n_thrown
    int always                        # every dealer hand buys (a player's rule: Settings.buy_policy),
                                      # not only where it beats taking the ante: no excess is clipped
    int64_t base                      # sum of count * _plain_excess
    int64_t best_pay
    int64_t threshold
    int64_t g[5]
    int64_t base_split[4]             # add_split of the hands counted in base
    uint8_t* plain                    # by entry: its plain draws tied once counted (255: not
                                      # yet), or NULL: counted each time
    PlanEntry* e


cdef void add_split(const RankPlan* R, int k, const int* a, uint16_t outs, int64_t times,
                     int64_t* split) noexcept nogil


cdef inline void plain_counts(RankPlan* R, uint8_t* room) noexcept nogil:
    # room for each entry's plain draws tied, counted once for the many add_split of a plan
    # (none counted yet)
    memset(room, 255, R.n)
    R.plain = room


cdef int bands_alloc() except -1


cdef const BandDraw* band_draws(const Deal* D, int player) noexcept nogil


cdef void forget_bands() noexcept nogil


cdef void rank_plan(const Deal* D, const Settings* st, const int* a, int ysize, int player, int64_t pay,
                     RankPlan* R) noexcept nogil


cdef int64_t plan_excess(const RankPlan* R, const int* a, uint16_t ys_sigma,
                          int64_t* split=*) noexcept nogil


cdef int64_t other_suit_delta(const RankPlan* R, const int* a, uint16_t ys_tau,
                               int64_t* split=*) noexcept nogil


cdef int64_t plan_base(const Deal* D, const Settings* st, const int* a, int ysize, int player,
                        int64_t pay) noexcept nogil


cdef inline int64_t plan_part(int kind, const RankPlan* R, const int* a, uint16_t ys,
                              int64_t* split=NULL) noexcept nogil:
    # a plan's correction for one suit's unseen cards ys: its excess in the up suit (kind 0) or
    # the delta of another suit's flush draws (kind 1)
    return plan_excess(R, a, ys, split) if kind == 0 else other_suit_delta(R, a, ys, split)


cdef int64_t buy_excess(const Deal* D, const Settings* st, const int* a, const uint16_t* ys,
                        int ysize, int player, int64_t pay, int64_t* split=*) noexcept nogil
