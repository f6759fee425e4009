# A rank multiset of new cards (docs/design.md §4): the deck less it, its distinct ranks, its
# groups of outcomes (by the new cards of the up suit) and how many outcomes each holds, and the
# other suits' flush draws of the buy summed over a group or over all of them.
from libc.stdint cimport int64_t
from solver._kernel._combinatorics cimport int128
from solver._kernel._outcome cimport Ctx
from solver._kernel._store cimport MsInfo

cdef MsInfo* multiset_begin(Ctx* x) noexcept nogil


cdef void group_counts(Ctx* x) noexcept nogil


cdef void group_weights(Ctx* x, int sigmask) noexcept nogil


cdef int64_t group_parts(Ctx* x, int u, int sigmask, int128* total, int64_t* split) noexcept nogil


cdef void group_deltas(Ctx* x, int u, int sigmask) noexcept nogil


cdef void other_total(Ctx* x, int u) noexcept nogil


cdef int flush_suits(Ctx* x, int i, int* fl_suit, int* fl_sig) noexcept nogil
