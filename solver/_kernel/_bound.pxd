# Upper bounds of exchanges (docs/design.md §5): every outcome valued without flushes (a flush
# of the dealer or of a draw after a buy can only lower the value), and the player's own flushes
# at the most any dealer hand pays.
from solver._kernel._combinatorics cimport int128
from solver._kernel._outcome cimport Ctx

cdef void multiset_bound(Ctx* x) noexcept nogil


cdef int128 flush_slack(Ctx* x, int i) noexcept nogil
