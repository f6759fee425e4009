# Every exchange outcome of k new cards (docs/design.md §4): the rank multisets of the new cards
# one by one (``each_multiset``), each summed by groups of outcomes -- values (``multiset_values``)
# or results (``multiset_results``) -- and the groups where the fold floor may bind card by card.
from solver._kernel._outcome cimport Ctx


cdef void each_multiset(Ctx* x, int r, int left) noexcept nogil
