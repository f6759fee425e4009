# cython: language_level=3
"""The static combinatorics of the counting kernel (declared in ``solver/_kernel/_combinatorics.pxd``),
built when the module is imported."""
from solver._kernel._eval cimport EvalTables, tables


cdef int _subs_of(const int* rank, const int* top, int n, int at) noexcept:
    # write the sub-multisets of at most four ranks of the multiset d (rank[p] top[p] times)
    # from SUB[at] on (none written when at < 0); how many
    cdef int p, used, coef, count = 0
    cdef int take[5]
    for p in range(n):
        take[p] = 0
    while True:
        used = 0
        coef = 1
        for p in range(n):
            used += take[p]
            coef *= BINOM[top[p]][take[p]]
        if used <= 4:
            if at >= 0:
                SUB[at + count].sigma = ms_index(rank, take, n)
                SUB[at + count].coef = -coef if used & 1 else coef
                for p in range(5):
                    SUB[at + count].take[p] = take[p] if p < n else 0
            count += 1
        # the next take <= top, digit by digit
        p = 0
        while p < n and take[p] == top[p]:
            take[p] = 0
            p += 1
        if p == n:
            return count
        take[p] += 1


cdef int _build_subs() noexcept:
    # SUB_START and SUB: every multiset d of 0 to 5 ranks (its sorted ranks stepped through as
    # an odometer), counted first, then written at its place
    cdef int k, i, j, n, fill, d
    cdef int seq[5]
    cdef int rank[5]
    cdef int top[5]
    for fill in range(2):
        for k in range(6):
            for i in range(k):
                seq[i] = 0
            while True:
                n = 0
                for i in range(k):
                    if n and rank[n - 1] == seq[i]:
                        top[n - 1] += 1
                    else:
                        rank[n] = seq[i]
                        top[n] = 1
                        n += 1
                d = ms_index(rank, top, n)
                if fill:
                    _subs_of(rank, top, n, SUB_START[d])
                else:
                    SUB_START[d + 1] = _subs_of(rank, top, n, -1)
                i = k - 1
                while i >= 0 and seq[i] == 12:
                    i -= 1
                if i < 0:
                    break
                seq[i] += 1
                for j in range(i + 1, k):
                    seq[j] = seq[i]
        if not fill:
            SUB_START[0] = 0
            for d in range(N_MS_ALL):
                SUB_START[d + 1] += SUB_START[d]
    return SUB_START[N_MS_ALL]


cdef void _build() noexcept:
    cdef int i, j, r0, r1, r2, r3, n = 0, k
    cdef int rank[4]
    cdef int top[4]
    cdef const EvalTables* t = tables()
    for i in range(6):
        for j in range(6):
            BINOM[i][j] = 0
        BINOM[i][0] = 1
        for j in range(1, i + 1):
            BINOM[i][j] = BINOM[i - 1][j - 1] + BINOM[i - 1][j]
    for i in range(13):
        RK[i] = t.card_key[4 * i]
    POP[0] = 0
    for i in range(1, 8192):
        POP[i] = POP[i >> 1] + (i & 1)
    for r0 in range(13):
        for r1 in range(r0, 13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    MS_RANK[n][0] = r0
                    MS_RANK[n][1] = r1
                    MS_RANK[n][2] = r2
                    MS_RANK[n][3] = r3
                    k = 0
                    for j in range(4):
                        if k > 0 and MS_R[n][k - 1] == MS_RANK[n][j]:
                            MS_M[n][k - 1] += 1
                        else:
                            MS_R[n][k] = MS_RANK[n][j]
                            MS_M[n][k] = 1
                            k += 1
                    MS_N[n] = k
                    n += 1
    n = 0
    for r0 in range(13):
        for r1 in range(r0 + 1, 13):
            for r2 in range(r1 + 1, 13):
                for r3 in range(r2 + 1, 13):
                    DS_MASK[n] = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3)
                    n += 1
    for i in range(18):
        for j in range(6):
            CHOOSE[i][j] = 0 if j > i else (1 if j == 0 or j == i else CHOOSE[i - 1][j - 1] + CHOOSE[i - 1][j])
    MS_OFF[0] = 0
    for j in range(1, 6):
        MS_OFF[j] = MS_OFF[j - 1] + CHOOSE[12 + j - 1][j - 1]
    for n in range(N_MULTI):
        for j in range(MS_N[n]):
            rank[j] = MS_R[n][j]
            top[j] = MS_M[n][j]
        MS_PLACE[n] = ms_index(rank, top, MS_N[n])


_build()
if _build_subs() != N_SUB:
    raise AssertionError("the sub-multisets of the multisets of 0 to 5 ranks are not N_SUB")
