# cython: language_level=3
"""The static combinatorics of the counting kernel (declared in ``solver/_combinatorics.pxd``),
built when the module is imported."""
from solver._eval cimport EvalTables, tables


cdef void _build() noexcept:
    cdef int i, j, r0, r1, r2, r3, n = 0, k
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


_build()
