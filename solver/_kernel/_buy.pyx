# cython: language_level=3
"""Buying the dealer a game (declared in ``solver/_kernel/_buy.pxd``; docs/design.md §3)."""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t
from libc.string cimport memcmp, memcpy, memmove, memset
from libc.stdlib cimport calloc, free, malloc
from solver._kernel._combinatorics cimport N_DISTINCT, POP, prefetch
from solver._kernel._deck cimport Deal, Draws, draws_below
from solver._kernel._eval cimport N_STRENGTH, EvalTables, eval5, tables
from solver._kernel._settle cimport Settings, buys_at, falling


cdef int64_t _buy_class(int64_t S, int64_t c, int64_t m, int redraws) noexcept nogil:
    # numerator over falling(m, redraws + 1): S sums the non-redraw outs, c redraw cards
    if redraws == 0:
        return S
    return S * falling(m - 1, redraws) + c * _buy_class(S, c - 1, m - 1, redraws - 1)


cdef inline void _redraw_factors(int m, int redraws, int64_t* g) noexcept nogil:
    # E[buy] is linear in S, the sum over the non-redraw draws: E = S g[c], c redraw cards
    cdef int c
    for c in range(5):
        g[c] = _buy_class(1, c, m, redraws)


cdef int _LOWEST[128]                  # the lowest set bit of each 7-bit mask
_LOWEST[0] = 0
for _m in range(1, 128):
    _LOWEST[_m] = (_m & -_m).bit_length() - 1


cdef inline void _rank_sums(const int* a, int* lo, int* hi) noexcept nogil:
    # the deck's cards of any set of ranks as two table reads: lo by the 7 lowest ranks'
    # bits, hi by the 6 highest's (each entry one more rank than an entry before it)
    cdef int m
    lo[0] = 0
    hi[0] = 0
    for m in range(1, 128):
        lo[m] = lo[m & (m - 1)] + a[_LOWEST[m]]
    for m in range(1, 64):
        hi[m] = hi[m & (m - 1)] + a[7 + _LOWEST[m]]


cdef inline int _cards_in(const int* lo, const int* hi, uint16_t ranks) noexcept nogil:
    # the deck's cards of the ranks ``ranks`` (tables of _rank_sums)
    return lo[ranks & 127] + hi[ranks >> 7]


cdef enum:
    BAND_SLOTS = 4096                  # bands kept for one up rank and qualifier


cdef struct BandCache:
    # the band skeletons of one up rank and qualifier (band_draws), and _most_won of each
    # band for one deck of the deal (a0)
    int rho, qualifier
    uint32_t epoch                     # of the skeletons: new with the up rank, or when full
    int n_slots
    BandDraw* pool                     # BAND_SLOTS * N_DISTINCT
    int32_t* slot_of                   # by band
    uint32_t* slot_epoch
    int a0[13]
    uint32_t a0_epoch                  # of most_won: new with the deck
    int32_t* most_won                  # by band
    uint32_t* most_won_epoch


cdef BandCache _CACHE
_CACHE.rho = -1
_CACHE.pool = NULL


cdef int bands_alloc() except -1:
    """The band cache, once per process (pages are touched only as bands are met): the kernel's
    entry points call it before anything that makes a plan."""
    if _CACHE.pool != NULL:
        return 0
    _CACHE.pool = <BandDraw*> malloc(BAND_SLOTS * N_DISTINCT * sizeof(BandDraw))
    _CACHE.slot_of = <int32_t*> calloc(2 * N_STRENGTH + 2, sizeof(int32_t))
    _CACHE.slot_epoch = <uint32_t*> calloc(2 * N_STRENGTH + 2, sizeof(uint32_t))
    _CACHE.most_won = <int32_t*> calloc(2 * N_STRENGTH + 2, sizeof(int32_t))
    _CACHE.most_won_epoch = <uint32_t*> calloc(2 * N_STRENGTH + 2, sizeof(uint32_t))
    if (_CACHE.pool == NULL or _CACHE.slot_of == NULL or _CACHE.slot_epoch == NULL
            or _CACHE.most_won == NULL or _CACHE.most_won_epoch == NULL):
        free(_CACHE.pool)
        _CACHE.pool = NULL
        raise MemoryError("no memory for the solver's band skeletons")
    _CACHE.epoch = 1
    _CACHE.a0_epoch = 1
    return 0


cdef inline void _bands_again() noexcept nogil:
    # every skeleton made so far is forgotten (a new up rank or qualifier, or the pool full)
    _CACHE.epoch += 1
    _CACHE.n_slots = 0


cdef void forget_bands() noexcept nogil:
    # the next plan starts from no skeleton (the tests compare with an empty store)
    _CACHE.rho = -1


cdef void _fill_band(const Deal* D, int player, BandDraw* out) noexcept nogil:
    # the skeleton of the player's band: for each buyable rank set, which of its draws the
    # player beats, ties and loses to, plain and in the kept cards' suit
    cdef int i, j, e, end, fe
    cdef uint16_t h
    cdef const Draws* d
    cdef const Draws* fd
    cdef BandDraw* b
    for j in range(D.n_buyable):
        i = D.buyable[j]
        h = D.ds_mask[i]
        b = &out[j]
        d = &D.ds_plain[i]
        e = draws_below(d, player)
        end = e
        while end < d.n and d.strength[end] == player:
            end += 1
        b.win = d.cum[e]
        b.tie = d.cum[end] & ~d.cum[e]
        b.lose = D.ds_qual[i] & ~d.cum[end]
        b.win_h = POP[b.win & h]
        b.tie_h = POP[b.tie & h]
        b.lose_h = POP[b.lose & h]
        fd = &D.ds_flush[i]
        fe = draws_below(fd, player)
        b.fwin = fd.cum[fe]
        while fe < fd.n and fd.strength[fe] == player:
            fe += 1
        b.flose = fd.cum[fd.n] & ~fd.cum[fe]


cdef const BandDraw* band_draws(const Deal* D, int player) noexcept nogil:
    """The skeleton of the player's band (for each of ``D.buyable``): it depends on the up rank,
    the qualifier and the band alone, so it is made once and kept (a cache of the process)."""
    cdef int band = D.band[player]
    if _CACHE.rho != D.rho or _CACHE.qualifier != D.qualifier:
        _CACHE.rho = D.rho
        _CACHE.qualifier = D.qualifier
        _CACHE.a0_epoch += 1          # the bands' numbers mean other draws now
        _bands_again()
    if _CACHE.slot_epoch[band] != _CACHE.epoch:
        if _CACHE.n_slots == BAND_SLOTS:
            _bands_again()            # a skeleton is read only while a plan is made
        _CACHE.slot_of[band] = _CACHE.n_slots
        _CACHE.slot_epoch[band] = _CACHE.epoch
        _CACHE.n_slots += 1
        _fill_band(D, player, _CACHE.pool + <int64_t> _CACHE.slot_of[band] * N_DISTINCT)
    return _CACHE.pool + <int64_t> _CACHE.slot_of[band] * N_DISTINCT


cdef inline bint _buys(const RankPlan* R, int64_t v) noexcept nogil:
    # whether dealer hands whose buy has the excess v buy: when it gains, or always (R.always)
    return R.always or v > 0


cdef inline int64_t _excess(const RankPlan* R, int64_t v) noexcept nogil:
    # what their buy adds to taking the ante: v where they buy, else 0
    return v if _buys(R, v) else 0


cdef inline int64_t _stub_sum(const RankPlan* R, const PlanEntry* e) noexcept nogil:
    # S: the sum of the entry's plain draw values over the stub
    return R.best_pay * e.won - 3 * e.lost


cdef inline int _redraw_cards(const int* a, uint16_t h, int top) noexcept nogil:
    # c: the stub's cards of the rank ``top`` the dealer throws (a redraw), in the plan's deck
    # a less the dealer's hidden ranks h
    return a[top] - ((h >> top) & 1)


cdef inline int64_t _plain_excess(const RankPlan* R, const int* a, const PlanEntry* e) noexcept nogil:
    # v: the excess of one dealer hand of the entry without a flush draw
    return _excess(R, _stub_sum(R, e) * R.g[_redraw_cards(a, e.h, e.top)] - R.threshold)


cdef inline int64_t _gain(const RankPlan* R, const PlanEntry* e, unsigned int outs) noexcept nogil:
    # what drawing the ranks ``outs`` in the kept cards' suit adds to S: a flush (or a straight
    # flush) instead of the plain draw (the thrown rank's plain draw is a redraw, worth 0)
    return (R.best_pay * (POP[outs & e.fwin] - POP[outs & e.win])
            + 3 * (POP[outs & e.lose] - POP[outs & e.flose]))


cdef inline int64_t _draw_excess(const RankPlan* R, const int* a, const PlanEntry* e, uint16_t outs) noexcept nogil:
    # the excess (unclipped) of one dealer hand of the entry drawing to a flush with the outs
    # ``outs`` (the thrown rank among them is an out, not a redraw)
    return ((_stub_sum(R, e) + _gain(R, e, outs)) * R.g[_redraw_cards(a, e.h, e.top) - ((outs >> e.top) & 1)]
            - R.threshold)


cdef inline int _cards_of(const int* a, uint16_t h, uint16_t ranks) noexcept nogil:
    # the stub's cards of the ranks ``ranks`` (the deck a less the dealer's hidden ranks h)
    cdef int r, n = 0
    for r in range(13):
        if (ranks >> r) & 1:
            n += a[r] - ((h >> r) & 1)
    return n


cdef void add_split(const RankPlan* R, int k, const int* a, uint16_t outs, int64_t times,
                     int64_t* split) noexcept nogil:
    """Add ``times`` dealer hands of entry k that buy: split[0] counts them, split[1:4] their
    draws that end in a showdown the player wins, ties, loses, over falling(|Z|, R + 1) as the
    excess (each draw weighted by the redraws it may follow, g). ``outs``: the kept cards'
    suit's unseen ranks, whose draws make a flush instead of the plain draw (0: none)."""
    cdef const PlanEntry* e = &R.e[k]
    cdef uint16_t ftie = outs & ~(e.fwin | e.flose)    # every out makes a flush: it qualifies
    cdef int64_t g = R.g[_redraw_cards(a, e.h, e.top) - ((outs >> e.top) & 1)]
    cdef int t
    if R.plain == NULL or R.plain[k] == 255:
        t = _cards_of(a, e.h, e.tie)
        if R.plain != NULL:
            R.plain[k] = t
    else:
        t = R.plain[k]
    split[0] += times
    split[1] += times * g * (e.won - POP[outs & e.win] + POP[outs & e.fwin])
    split[2] += times * g * (t - POP[outs & e.tie] + POP[ftie])
    split[3] += times * g * (e.lost - POP[outs & e.lose] + POP[outs & e.flose])


cdef int _most_won(const Deal* D, int player, const BandDraw* bd) noexcept nogil:
    # the most stub cards, over the dealer's rank sets that may buy, whose draw qualifies the
    # dealer below the player (flush draws included), in the deal's deck (kept by band for the
    # deck): a deck of fewer cards (the deal's less new cards) has no more
    cdef int lo[128]
    cdef int hi[64]
    cdef int j, w, most = 0
    cdef int band = D.band[player]
    if memcmp(_CACHE.a0, D.a0, sizeof(_CACHE.a0)) != 0:
        memcpy(_CACHE.a0, D.a0, sizeof(_CACHE.a0))
        _CACHE.a0_epoch += 1
    if _CACHE.most_won_epoch[band] == _CACHE.a0_epoch:
        return _CACHE.most_won[band]
    _rank_sums(D.a0, lo, hi)
    for j in range(D.n_buyable):
        w = _cards_in(lo, hi, bd[j].win) - bd[j].win_h + POP[bd[j].fwin]
        if w > most:
            most = w
    _CACHE.most_won[band] = most
    _CACHE.most_won_epoch[band] = _CACHE.a0_epoch
    return most


cdef void rank_plan(const Deal* D, const Settings* st, const int* a, int ysize, int player, int64_t pay,
                     RankPlan* R) noexcept nogil:
    """Fill ``R`` (its entries: room for D.n_buyable) for the deck's rank counts ``a``
    (the deal's deck less some cards), a draw that beats the player paying ``pay``
    (``win_pay``, or less under the table's maximum when insured: _insured_pay).

    E[buy] is at most best_pay times the chance to qualify after the buy: a rank set is kept
    when its plain draws can pay, or when a flush draw with every out of its suit still unseen
    could; when none can in the deal's whole deck (_most_won), there is no entry. What the
    player's band beats, ties and loses to is its skeleton (band_draws); the deck only counts
    the cards of those ranks.
    """
    cdef const BandDraw* bd = band_draws(D, player)
    cdef const BandDraw* b
    cdef int lo[128]
    cdef int hi[64]
    cdef int i, j, top, rho = D.rho, n_thrown = 0, n_other = 0
    cdef int m = ysize - 4
    cdef int64_t threshold = (st.buy_fee + 1) * falling(m, st.redraws + 1)
    cdef int64_t best_pay = pay
    cdef int64_t count, c, v, gc, gmax = 0, w, tie, lost
    cdef int64_t pay_of[5]             # best_pay * g[c]: a qualifying draw below the player
    cdef int64_t need_of[5]            # threshold // pay_of[c] (PlanEntry.need less the plain draws)
    cdef uint16_t h
    cdef bint plain_ok
    cdef PlanEntry* out
    _redraw_factors(m, st.redraws, R.g)
    R.always = st.buy_policy >= 0     # the callers ask for a plan only of a hand that buys (buys)
    R.threshold = threshold
    R.best_pay = best_pay
    R.base = 0
    memset(R.base_split, 0, sizeof(R.base_split))
    R.plain = NULL
    R.n = 0
    R.n_thrown = 0
    for c in range(5):
        pay_of[c] = best_pay * R.g[c]
        need_of[c] = threshold // pay_of[c] if pay_of[c] != 0 else 13
        gmax = R.g[c] if R.g[c] > gmax else gmax
    if not R.always and best_pay * _most_won(D, player, bd) * gmax <= threshold:
        return  # no rank set can pay (two pair, mostly: a pair below it is too few outs)
    _rank_sums(a, lo, hi)
    for j in range(D.n_buyable):
        i = D.buyable[j]
        b = &bd[j]
        h = D.ds_mask[i]
        top = D.ds_top[i]
        c = _redraw_cards(a, h, top)
        gc = R.g[c]
        # only the w stub cards whose draw qualifies below the player pay, best_pay each
        w = _cards_in(lo, hi, b.win) - b.win_h
        plain_ok = pay_of[c] * w > threshold
        # flush draws: the outs that make a flush below the player bound them
        if not R.always and not plain_ok and pay_of[c] * (w + POP[b.fwin]) <= threshold:
            continue
        count = (<int64_t> a[D.ds_rank[i][0]]) * a[D.ds_rank[i][1]] * a[D.ds_rank[i][2]] * a[D.ds_rank[i][3]]
        if count == 0:
            continue
        # the sets where the up-card is thrown from the front, the others from the back
        if top == rho:
            out = &R.e[n_thrown]
            n_thrown += 1
        else:
            n_other += 1
            out = &R.e[D.n_buyable - n_other]
        tie = _cards_in(lo, hi, b.tie) - b.tie_h
        lost = _cards_in(lo, hi, b.lose) - b.lose_h
        out.h = h
        out.fwin = b.fwin
        out.win = b.win
        out.lose = b.lose
        out.flose = b.flose
        out.tie = b.tie
        out.top = top
        # pay (w + outs) > threshold, pay = best_pay * gc, is outs > threshold // pay - w
        out.need = -1 if R.always else <int8_t> max(-1, min(13, need_of[c] - w))
        out.won = w
        out.lost = lost
        v = _plain_excess(R, a, out)
        R.base += count * v
        if _buys(R, v):
            R.base_split[0] += count
            R.base_split[1] += count * gc * w
            R.base_split[2] += count * gc * tie
            R.base_split[3] += count * gc * lost
    memmove(&R.e[n_thrown], &R.e[D.n_buyable - n_other], n_other * sizeof(PlanEntry))
    R.n = n_thrown + n_other
    R.n_thrown = n_thrown


cdef inline void _read_ahead(const PlanEntry* e, int n) noexcept nogil:
    # a plan is read once per call from memory, front to back: ask for all of its cache lines
    # at once, so that their reads overlap instead of following one another
    cdef int k
    for k in range(0, n, 4):          # four 16-byte entries a line
        prefetch(e + k)


cdef int64_t plan_excess(const RankPlan* R, const int* a, uint16_t ys_sigma,
                          int64_t* split=NULL) noexcept nogil:
    """Sum over the non-qualifying dealer hands of max(0, E[buy] - fee - 1) (E[buy] - fee - 1
    when R.always), over falling(|Z|, R+1),
    when the up suit's unseen cards are ``ys_sigma``: a dealer that throws the up-card is
    counted here as having no flush draw (see other_suit_delta). It depends on the rank plan
    (and its deck ``a``) and ys_sigma alone, so the deals of the same ranks share it (the store's memo).
    ``split`` (if given) gains the hands that buy and their results (add_split)."""
    cdef int k, top
    cdef uint16_t lower
    cdef const PlanEntry* e
    cdef int64_t total = R.base, v, fd, w
    _read_ahead(R.e, R.n)
    if split != NULL:
        for k in range(4):
            split[k] += R.base_split[k]
    # the four hidden cards of the up suit: a flush, not a buy
    for k in range(R.n_thrown):
        e = &R.e[k]
        if (ys_sigma & e.h) == e.h:
            v = _plain_excess(R, a, e)
            total -= v
            if split != NULL and _buys(R, v):
                add_split(R, k, a, 0, -1, split)
    for k in range(R.n_thrown, R.n):
        e = &R.e[k]
        top = e.top
        lower = e.h & ~(1 << top)
        if (ys_sigma & lower) != lower:
            continue
        v = _plain_excess(R, a, e)
        if (ys_sigma >> top) & 1:
            total -= v
            if split != NULL and _buys(R, v):
                add_split(R, k, a, 0, -1, split)
        fd = a[top] - ((ys_sigma >> top) & 1)
        if fd <= 0:
            continue
        # fd hands hold the three lower cards in the up suit and the top card in another
        total -= fd * v
        if split != NULL and _buys(R, v):
            add_split(R, k, a, 0, -fd, split)
        if POP[ys_sigma & e.fwin] > e.need:  # else the flush draw cannot pay either
            # the outs: the up suit's unseen cards but the lower ranks
            w = _draw_excess(R, a, e, ys_sigma & ~lower)
            if _buys(R, w):
                total += fd * w
                if split != NULL:
                    add_split(R, k, a, ys_sigma & ~lower, fd, split)
    return total


cdef int64_t other_suit_delta(const RankPlan* R, const int* a, uint16_t ys_tau,
                               int64_t* split=NULL) noexcept nogil:
    """What flush draws in one suit other than the up-card's add to plan_excess.

    ``ys_tau``: the unseen cards of that suit. A dealer that throws the up-card and holds four
    hidden cards of that suit draws to a flush: its excess is that of the flush draw, not the
    plain one. Like plan_excess, a function of the rank plan (and its deck ``a``) and ys_tau alone.
    """
    cdef int k
    cdef uint16_t outs
    cdef const PlanEntry* e
    cdef int64_t total = 0, w, v
    _read_ahead(R.e, R.n_thrown)
    for k in range(R.n_thrown):
        e = &R.e[k]
        # without the four cards, or with outs too few to pay, both excesses are 0
        if (ys_tau & e.h) != e.h or POP[ys_tau & e.fwin] <= e.need:
            continue
        outs = ys_tau & ~e.h
        w = _draw_excess(R, a, e, outs)
        v = _plain_excess(R, a, e)
        total += _excess(R, w) - v
        if split != NULL:
            if _buys(R, w):
                add_split(R, k, a, outs, 1, split)
            if _buys(R, v):
                add_split(R, k, a, 0, -1, split)
    return total


cdef int64_t plan_base(const Deal* D, const Settings* st, const int* a, int ysize, int player,
                        int64_t pay) noexcept nogil:
    # a rank plan's base (its excess when no dealer hand has a flush or a flush draw) for a won
    # draw paying ``pay``: 0 when buying cannot pay
    cdef PlanEntry* entries
    cdef RankPlan R
    cdef int64_t base
    if not buys_at(st, player, pay):
        return 0
    entries = <PlanEntry*> malloc(N_DISTINCT * sizeof(PlanEntry))
    R.e = entries
    rank_plan(D, st, a, ysize, player, pay, &R)
    base = R.base
    free(entries)
    return base


cdef int64_t buy_excess(const Deal* D, const Settings* st, const int* a, const uint16_t* ys,
                        int ysize, int player, int64_t pay, int64_t* split=NULL) noexcept nogil:
    # the whole excess of buying against one deck (ys: its cards by suit), flush draws in every
    # suit included (split: add_split's), a won draw paying ``pay``; a plan of its own, not kept
    cdef PlanEntry* entries = <PlanEntry*> malloc(N_DISTINCT * sizeof(PlanEntry))
    cdef RankPlan R
    cdef int64_t total
    cdef int tau
    R.e = entries
    rank_plan(D, st, a, ysize, player, pay, &R)
    total = plan_part(0, &R, a, ys[D.sigma], split)
    for tau in range(4):
        if tau != D.sigma:
            total += plan_part(1, &R, a, ys[tau], split)
    free(entries)
    return total


def seen_buy(const uint8_t[::1] dealer, const uint8_t[::1] stub, int player, int qualifier, int redraws):
    """The buy of a game for one non-qualifying dealer hand seen whole (RULES §7, ``buy_game``):
    (win, tie, lose, den), the draws that end in a showdown the player of strength ``player``
    wins, ties, loses, over den = falling(|stub|, redraws + 1) draw sequences. Each stub card is
    looked at once: a draw that pairs the thrown rank without a game is drawn again, and every
    other draw weighs the same (_redraw_factors). ``_brute.buy_draws`` counts the same draw by draw."""
    cdef const EvalTables* t = tables()
    cdef int kept[4]
    cdef int64_t ends[3]
    cdef int i, k = 0, top = 0, s, thrown_rank, again = 0, m = stub.shape[0]
    cdef int64_t weight
    for i in range(1, 5):
        if (dealer[i] >> 2) > (dealer[top] >> 2):
            top = i
    for i in range(5):
        if i != top:
            kept[k] = dealer[i]
            k += 1
    thrown_rank = dealer[top] >> 2
    ends[0] = ends[1] = ends[2] = 0
    for i in range(m):
        s = eval5(t, kept[0], kept[1], kept[2], kept[3], stub[i])
        if s >= qualifier:
            ends[0 if player > s else 1 if player == s else 2] += 1
        elif (stub[i] >> 2) == thrown_rank:
            again += 1
    weight = _buy_class(1, again, m, redraws)
    return ends[0] * weight, ends[1] * weight, ends[2] * weight, falling(m, redraws + 1)
