"""The fast solver against the literal brute-force reference and the independent vectors.

The solver and the reference both give exact fractions: they must be equal, not just close.
"""

import json
import random
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import rules
from solver.cards import parse_card, parse_cards
from solver.deal import exchange_bounds, solve
from solver.errors import InputError
from solver.final_hand import bet_value, buy_game
from solver.reference import deal as ref
from solver.reference import hand as ref_hand

# exact EVs of six deals by an independent brute-force program (the project's shared vectors,
# copied here so that CI runs them; to 12 decimals)
VECTORS = json.loads((Path(__file__).parents[1] / "data" / "independent_deals.json").read_text())
R = rules.DEFAULT
SMALL = R.replace(exchange_max=1)  # the fast solver restricted to the options compared here


def deal(text: str, up: str):
    return parse_cards(text, count=5), parse_card(up)


def check_against_reference(hand, up, r, dead=(), throws=1):
    """Bet, sixth card and the first ``throws`` one-card exchanges: exactly the reference's."""
    fast = solve(hand, up, r.replace(exchange_max=1) if r.exchange else r, dead)
    assert fast.bet.ev == ref.bet(hand, up, r, dead)
    if r.sixth_card:
        assert fast.option("sixth_card").ev == ref.sixth_card(hand, up, r, dead)
    if r.exchange:
        for throw in combinations(hand[:throws], 1):
            assert fast.option("exchange", throw).ev == ref.exchange(hand, up, throw, r, dead), throw
    return fast


@pytest.mark.parametrize("v", VECTORS, ids=lambda v: f"{v['hand']}|{v['up']}")
def test_independent_vectors(v):
    """Exact EVs from an independent program, printed to 12 decimals (their floats carry ~1e-11)."""
    hand, up = deal(v["hand"], v["up"])
    s = solve(hand, up, SMALL)
    assert float(s.bet.ev) == pytest.approx(v["bet"], abs=1e-10)
    assert float(s.bet.p_dealer_no_game) == pytest.approx(v["p_dealer_no_game"], abs=1e-11)
    assert float(s.option("sixth_card").ev) == pytest.approx(v["sixth_card"], abs=1e-10)
    for card, ev in v["exchange"].items():
        assert float(s.option("exchange", [parse_card(card)]).ev) == pytest.approx(ev, abs=1e-10)
    assert s.bet.ev == ref.bet(hand, up, R)
    assert s.options[0].ev == max(o.ev for o in s.options)
    assert len(s.options) == 2 + 1 + 5


def random_deals(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        cards = rng.sample(range(52), 6)
        yield tuple(cards[:5]), cards[5]


@pytest.mark.parametrize("hand, up", list(random_deals(2, seed=2026)))
def test_random_deals_bet_sixth_and_one_card_exchanges(hand, up):
    check_against_reference(hand, up, R, throws=2)


@pytest.mark.slow
@pytest.mark.parametrize("hand, up", list(random_deals(10, seed=99)))
def test_more_random_deals_slow(hand, up):
    check_against_reference(hand, up, R, throws=5)


@pytest.mark.parametrize(
    "text, up, why",
    [
        ("Ah Kh Qh Jh 2c", "Th", "four to a royal, the up-card holds the royal's last card"),
        ("Ah Kh Qh Jh 2c", "3s", "four to a royal"),
        ("9c 9d 5h 5s Kc", "9s", "pair matching the up-card"),
        ("Ah Kh 9h 6h 2h", "4c", "a flush: the sixth card can make six suited cards"),
        ("7s 8s 9s Ts Js", "2s", "straight flush, up-card of its suit"),
        ("Ac Ad Ah Kc Kd", "As", "full house of aces, the fourth ace up"),
    ],
)
def test_special_deals(text, up, why):
    hand, u = deal(text, up)
    check_against_reference(hand, u, R)


def test_dead_cards():
    hand, up = deal("Qs Qh 8d 4c 3c", "Kd")
    dead = parse_cards("Ks Kh 2d Qc 9c 8c 7c 6c 5c")
    fast = check_against_reference(hand, up, R, dead)
    assert fast.bet.ev != solve(hand, up, SMALL).bet.ev  # the dead cards matter


VARIANTS = {
    "redraws_0": R.replace(buy_redraws=0),
    "redraws_3": R.replace(buy_redraws=3),
    "insurance_tie_returned": R.replace(insurance_on_tie="returned"),
    "insurance_half": R.replace(insurance_max="half_payout", insurance_min="bet"),
    "new_rank": R.replace(second_rule="new_rank"),
    "second_off": R.replace(second_combination=False),
    "ante_paid": R.replace(ante_on_win="paid"),
    "qualifier_pair": R.replace(dealer_qualifier="pair"),
    "buy_off": R.replace(buy_game=False),
    "insurance_off": R.replace(insurance=False),
    "fees": R.replace(exchange_fees=(2, 1, 1, 1, 1), sixth_card_fee=2, buy_game_fee=2),
    "paytable": R.replace(paytable=(0, 1, 1, 3, 4, 6, 8, 10, 25, 60, 250)),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rule_variants(name):
    """Each rule setting against the reference on one deal, 12 cards dead so that the reference
    is quick (the full deck: the slow test below)."""
    r = VARIANTS[name]
    hand, u = deal("Ts Td Tc 4h 4s", "Th")
    check_against_reference(hand, u, r, parse_cards("2c 3c 5c 6c 7c 8c 2d 3d 5d 6d 7d 8d"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_rule_variants_more_deals_slow(name):
    for text, up in [("Ac Kc 9c 4c 2h", "7d"), ("Ah Ad Kc 8s 9d", "Kh"), ("5h 6h 7h 8h 2c", "9h")]:
        hand, u = deal(text, up)
        check_against_reference(hand, u, VARIANTS[name], throws=5)


def test_caribbean_has_fold_and_bet_only():
    hand, up = deal("Ac Kc 9c 4c 2h", "7d")
    c = rules.preset("caribbean")
    s = solve(hand, up, c)
    assert {o.action.kind for o in s.options} == {"fold", "bet"}
    assert s.bet.ev == ref.bet(hand, up, c)


def test_oasis_fees_and_forced_bet():
    hand, up = deal("Qs Jd 8d 4c 3c", "Kd")
    o = rules.preset("oasis")
    s = solve(hand, up, o.replace(exchange_max=2))
    for throw in [hand[4:], hand[3:]]:
        assert s.option("exchange", throw).ev == ref.exchange(hand, up, throw, o)
    # switching five forces the bet: the 5-card option equals -1 plus the average bet, never floored
    forced = solve(hand, up, o.replace(exchange_min=5, exchange_max=5)).option("exchange", hand).ev
    unforced = o.replace(exchange_min=5, exchange_max=5, exchange_forces_bet=())
    free = solve(hand, up, unforced).option("exchange", hand).ev
    assert forced < free


@settings(max_examples=25, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True),
       redraws=st.sampled_from([0, 1, 3]), qualifier=st.sampled_from(["ak", "pair"]))
def test_bet_matches_reference_property(cards, redraws, qualifier):
    r = R.replace(buy_redraws=redraws, dealer_qualifier=qualifier, exchange=False, sixth_card=False)
    hand, up = tuple(cards[:5]), cards[5]
    assert solve(hand, up, r).bet.ev == ref.bet(hand, up, r)


def test_buy_split_against_brute_force():
    """Which non-qualifying dealer hands the player buys a game for, and how their draws end
    (win, tie, lose), as the kernel counts them, against every dealer hand and draw literally:
    final hands of 5 and 6 cards, many of one suit (flush draws for the dealer), dead cards."""
    import numpy as np

    from solver._kernel import _dealer
    from solver.hand import evaluate
    from solver.kernel_rules import kernel_rules

    variants = [R, R.replace(buy_redraws=0), R.replace(buy_redraws=3), R.replace(ante_on_win="paid"),
                R.replace(dealer_qualifier="pair"), R.replace(buy_game_fee=2)]
    rng = random.Random(11)
    # a dealer that throws the up-card K and keeps 9 7 5 3 of one suit ties the player's flush
    # when it draws that suit's K
    special = [(R, [*parse_cards("Ks 9s 7s 5s 3s")], parse_card("Kh"))]
    checked = bought = 0
    while checked < 50:
        r = rng.choice(variants)
        k = rng.choice([5, 5, 6])
        suit = rng.randrange(4)
        cards = (rng.sample([c for c in range(52) if c % 4 == suit], 3)
                 + rng.sample([c for c in range(52) if c % 4 != suit], k - 2))
        rng.shuffle(cards)
        final, up = cards[:k], cards[k]
        if special:
            r, final, up = special.pop()
            cards = [*final, up]
        v = evaluate(final, r)
        if v.category < 4:  # a straight or better: buying pays often
            continue
        dead = rng.sample([c for c in range(52) if c not in cards], rng.choice([0, 0, 3]))
        fast = _dealer.situation(np.asarray(final, np.uint8), up, np.asarray(final + dead, np.uint8),
                                 kernel_rules(r), v.payout)
        brute = ref.situation(final, up, ref.unseen([*final, *dead, up]), r)
        assert tuple(fast.counts) == tuple(brute), (r.name, final, up, dead)
        checked += 1
        bought += fast.counts.buys > 0
    assert bought >= 15  # the deals above exercise the split, not only its zeros


@pytest.mark.slow
def test_two_card_exchange_of_a_full_deck_slow():
    hand, up = deal("Jh Jd 8c 5s 2d", "Ks")
    s = solve(hand, up, R.replace(exchange_min=2, exchange_max=2, sixth_card=False))
    throw = parse_cards("5s 2d")
    assert s.option("exchange", throw).ev == ref.exchange(hand, up, throw, R)


@pytest.mark.slow
@pytest.mark.parametrize("hand, up", list(random_deals(2, seed=7)))
def test_two_card_exchanges_slow(hand, up):
    s = solve(hand, up, R.replace(exchange_min=2, exchange_max=2, sixth_card=False))
    for throw in combinations(hand, 2):
        assert s.option("exchange", throw).ev == ref.exchange(hand, up, throw, R)


@pytest.mark.slow
@pytest.mark.parametrize("k, text, up", [(3, "Ac Kd 9c 4c 2h", "7d"), (3, "Ts Td 8c 4h 3s", "Th"),
                                          (4, "Ks 9d 6c 4h 2s", "Kh"), (5, "Qs Jd 8d 4c 3c", "Kd")])
def test_big_exchanges_buy_off_slow(k, text, up):
    hand, u = deal(text, up)
    r = R.replace(buy_game=False, exchange_min=k, exchange_max=k, sixth_card=False)
    throw = hand[:k]
    assert solve(hand, u, r).option("exchange", throw).ev == ref.exchange(hand, u, throw, r)


def test_after_exchange_and_sixth_card():
    up = parse_card("Ks")
    thrown = parse_cards("8c 5s 2d")
    final = parse_cards("Jh Jd Jc 4h 2h")
    b = bet_value(final, up, R, thrown)
    deck = ref.unseen([*final, up, *thrown])
    expected = ref.bet_values(final, up, deck, R)
    assert b.ev == expected["ev"] and b.insurance_size == expected["size"]
    six = parse_cards("Jh Jd 8c 5s 2d Jc")
    assert bet_value(six, up, R).ev == ref.bet_values(six, up, ref.unseen([*six, up]), R)["ev"]


def test_buy_game_literal():
    final = parse_cards("Ts Td Tc 4h 4s")
    dealer = parse_cards("Js 9h 7c 5d 2d")
    d = buy_game(final, dealer, R)
    # by hand: the dealer throws the Js, keeps 9h 7c 5d 2d and draws from the 42 other cards
    stub = [c for c in range(52) if c not in (*final, *dealer)]
    player = ref_hand.best_strength(final)
    total = Fraction(0)
    for c in stub:
        hand = [*dealer[1:], c]
        s = ref_hand.strength(hand)
        if s[0] >= 1:
            total += 14 if player > s else (0 if player == s else -3)
        elif c >> 2 == dealer[0] >> 2:
            rest = [x for x in stub if x != c]
            for c2 in rest:
                s2 = ref_hand.strength([*dealer[1:], c2])
                if s2[0] >= 1:
                    total += Fraction(14 if player > s2 else (0 if player == s2 else -3), len(rest))
    assert d.buy == -1 + total / len(stub)
    assert d.should_buy
    with pytest.raises(InputError, match="dealer qualifies"):
        buy_game(final, parse_cards("Js Jh 7c 5d 2d"), R)
    with pytest.raises(InputError, match="AK or better"):
        buy_game(parse_cards("Qs 8d 6c 4h 3s"), dealer, R)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 3), st.sampled_from(["ak", "pair"]),
       st.integers(0, 30), st.booleans())
def test_a_seen_buy_equals_its_draws_one_by_one(seed, redraws, qualifier, dead, flush):
    """``buy_game``'s kernel (each stub card once, redraws by their weight) against the
    reference that plays every draw sequence out: equal counts for any dealer hand that does
    not qualify, any stub (dead cards shrink it) and any player's strength."""
    from solver._kernel import _brute, _buy
    from solver.hand import strengths
    from solver.kernel_rules import kernel_rules

    k = kernel_rules(R.replace(dealer_qualifier=qualifier))
    rnd, deck = random.Random(seed), list(range(52))
    while True:
        rnd.shuffle(deck)
        dealer = deck[:5]
        if flush:  # an ace thrown, four cards of one suit kept: the draws that make a flush
            suited = [c for c in deck if c & 3 == deck[0] & 3 and c >> 2 != 12][:4]
            dealer = [*suited, next(c for c in deck if c & 3 != deck[0] & 3 and c >> 2 == 12)]
        if int(strengths(np.asarray([dealer], np.uint8))[0]) < k.qualifier:
            break
    stub = np.asarray([c for c in deck if c not in dealer][dead:], np.uint8)
    player = int(strengths(np.asarray([rnd.sample([c for c in range(52) if c not in dealer], 5)], np.uint8))[0])
    args = (np.asarray(dealer, np.uint8), stub, player, k.qualifier, redraws)
    assert _buy.seen_buy(*args) == _brute.buy_draws(*args)


def test_bad_deals():
    with pytest.raises(InputError, match="both the hand and the up-card"):
        solve(parse_cards("As Ks Qd 7c 2h"), parse_card("As"))
    with pytest.raises(InputError, match="dead cards"):
        solve(parse_cards("As Ks Qd 7c 2h"), parse_card("9s"), R, parse_cards("Qd"))


@pytest.mark.parametrize("text, up", [("Jh Jd 8c 5s 2d", "Ks"), ("6c 6h Qs Ad 4s", "Qd")])
def test_grouped_exchanges_equal_card_by_card(text, up):
    """All 31 exchanges: the grouped sums of the kernel equal its outcome-by-outcome values."""
    import numpy as np

    from solver._kernel import _dealer
    from solver.kernel_rules import kernel_rules

    hand, u = deal(text, up)
    for r in (R, R.replace(buy_redraws=3, dealer_qualifier="pair", exchange_forces_bet=())):
        args = (np.asarray(hand, np.uint8), u, np.zeros(0, np.uint8), kernel_rules(r), r.exchange_counts)
        assert _dealer.solve(*args).exchange == _dealer.solve(*args, card_by_card=True).exchange


# deals whose dead cards (other boxes' cards) leave 21 to 24 unseen, so that literal enumeration
# of a 3- or 4-card exchange takes seconds: a flush draw kept with its suit left in the deck,
# trips matching the up-card, a pair, no pair with an ace and a king; (hand, up-card, unseen,
# a suit to leave in the deck or None)
BIG_EXCHANGES = [("Ah Kh 9h 5c 2d", "7s", 22, 2), ("Ts Td 8c 4h 3s", "Th", 24, None),
                 ("Qc Qd 9s 6h 2c", "Kc", 23, 0), ("As Kd 8c 6h 3s", "4d", 21, 3)]


@pytest.mark.parametrize("text, up, unseen, suit", BIG_EXCHANGES)
def test_two_to_four_card_exchanges_with_a_buy_against_literal_enumeration(text, up, unseen, suit):
    """2-, 3- and 4-card exchanges (47.7 % of optimal first actions) under the default rules, the
    buy of a game, its redraws and insurance included, equal literal enumeration: dead cards
    shrink the deck so that every final hand, dealer hand and buy draw is settled one by one."""
    hand, u = deal(text, up)
    rng = random.Random(text)
    others = [c for c in range(52) if c not in (*hand, u) and (suit is None or c % 4 != suit)]
    dead = rng.sample(others, 46 - unseen)
    r = R.replace(exchange_min=2, exchange_max=4, sixth_card=False)
    solved = solve(hand, u, r, dead)
    no_buy = solve(hand, u, r.replace(buy_game=False), dead)
    throws = [tuple(c for c in hand if c not in kept) for kept in (hand[:3], hand[:2], hand[:1])]
    for throw in throws:
        assert solved.option("exchange", throw).ev == ref.exchange(hand, u, throw, r, dead)
    # the buy is at stake: the same exchanges without it are worth otherwise
    assert any(solved.option("exchange", t).ev != no_buy.option("exchange", t).ev for t in throws)


@pytest.mark.slow
def test_three_card_exchange_with_buying_slow():
    hand, up = deal("Ts Td 8c 4h 3s", "Th")
    s = solve(hand, up, R.replace(exchange_min=3, exchange_max=3, sixth_card=False))
    throw = parse_cards("8c 4h 3s")
    assert s.option("exchange", throw).ev == ref.exchange(hand, up, throw, R)


def test_too_many_dead_cards():
    hand, up = deal("As Ks Qd 7c 2h", "9s")
    others = [c for c in range(52) if c not in (*hand, up)]
    few = others[:36]  # 10 unseen cards: enough for one new card, the dealer and a buy
    s = solve(hand, up, SMALL, few)
    assert s.bet.ev == ref.bet(hand, up, R, few)
    assert s.option("sixth_card").ev == ref.sixth_card(hand, up, R, few)
    assert s.option("exchange", hand[:1]).ev == ref.exchange(hand, up, hand[:1], R, few)
    with pytest.raises(InputError, match="too many dead cards"):
        solve(hand, up, R, others[:37])  # 9 unseen: not enough for five new cards, the dealer and a buy


# suit classes of one rank-level deal (A K 9 5 2 against a 7): flushes, four-flushes, the
# up-card's suit in the hand or not
SAME_RANKS = [("Ah Kh 9h 5h 2h", "7h"), ("Ah Kh 9h 5h 2c", "7h"), ("Ah Kh 9h 5h 2c", "7c"),
              ("Ah Kd 9c 5s 2h", "7h"), ("As Kh 9h 5h 2h", "7c"), ("Ac Kc 9d 5d 2d", "7s")]


def test_deals_of_the_same_ranks_share_rank_work_exactly():
    """Solved in a row, deals of the same ranks reuse the kernel's rank-level store; each result
    equals the one solved from an empty store, and a deal met in a row equals the reference."""
    from solver._kernel import _dealer

    solve(*deal("Qs Qd 8c 5s 2d", "Ks"), R)  # another rank-level deal first
    in_a_row = []
    for i, (text, up) in enumerate(SAME_RANKS):
        in_a_row.append(solve(*deal(text, up), R))
        if i == 0:
            generation = _dealer.shared_state()["generation"]
    state = _dealer.shared_state()
    assert state["generation"] == generation and state["plans"] > 0  # the store was reused
    for (text, up), warm in zip(SAME_RANKS, in_a_row):
        _dealer.clear_shared()
        assert solve(*deal(text, up), R) == warm, text
    solve(*deal(*SAME_RANKS[0]), R)
    generation = _dealer.shared_state()["generation"]
    check_against_reference(*deal(*SAME_RANKS[1]), R, throws=2)
    assert _dealer.shared_state()["generation"] == generation  # solved from the store


def _suit_classes(ranks: str, up: str) -> list[tuple[tuple[int, ...], int]]:
    """Every suit class of a rank-level deal, in the table build's order, two of each set of
    the hand's ranks in the up-card's suit (the classes that share the most), ten such sets."""
    from itertools import groupby, product

    import numpy as np

    from solver.classes import canonical, rank_order

    found = set()
    for suits in product("cdhs", repeat=6):
        cards = [f"{r}{s}" for r, s in zip([*ranks.split(), up], suits)]
        if len(set(cards)) == 6:
            c = canonical(parse_cards(" ".join(cards[:5])), parse_card(cards[5]))
            found.add((c.hand, c.up_card))
    listed = sorted(found)
    hands, ups = np.array([h for h, _ in listed], np.uint8), np.array([u for _, u in listed], np.uint8)
    ordered = [listed[k] for k in rank_order(hands, ups)]
    groups = [list(g)[:2] for _, g in groupby(ordered, key=lambda c: {x >> 2 for x in c[0] if x & 3 == c[1] & 3})]
    step = max(1, len(groups) // 10)
    return [c for g in groups[::step] for c in g]


@pytest.mark.parametrize("ranks, up", [("A A 9 5 2", "Q"), ("K J 8 6 3", "A")])
def test_suit_classes_in_a_row_share_work_exactly(ranks, up):
    """In the table build's order the suit classes of a rank-level deal share the dealer's
    flushes and the up suit's part of the buy (a dealer throwing the up-card included): each
    result equals the one solved from an empty store, for options that force the bet or not."""
    from solver._kernel import _dealer

    r = R.replace(exchange_max=3)
    forced = r.replace(exchange_forces_bet=(2,))
    classes = _suit_classes(ranks, up)
    assert len(classes) >= 12
    _dealer.clear_shared()
    in_a_row = [(solve(h, u, r), solve(h, u, forced)) for h, u in classes]
    for (h, u), (free, bound) in zip(classes, in_a_row):
        _dealer.clear_shared()
        assert solve(h, u, r) == free
        _dealer.clear_shared()
        assert solve(h, u, forced) == bound


@pytest.mark.parametrize("ranks, up, keep", [("K J 8 6 3", "A", 1), ("A A 9 5 2", "Q", 2)])
def test_suit_classes_in_a_row_play_out_exactly(ranks, up, keep):
    """The results of a rank-level deal's suit classes played out in a row (the buys' splits
    kept in the store's memo, whose pages fill and give up slots to new keys) equal each class's
    played out from an empty store: an exchange keeping the highest cards, a sixth card."""
    from solver._kernel import _dealer
    from solver.action import Action
    from solver.deal import option_returns

    classes = _suit_classes(ranks, up)

    def actions(hand: tuple[int, ...]) -> list[Action]:
        return [Action("exchange", tuple(sorted(hand, reverse=True)[keep:])), Action("sixth_card")]

    _dealer.clear_shared()
    in_a_row = [[option_returns(h, u, a, R) for a in actions(h)] for h, u in classes]
    for (h, u), played in zip(classes, in_a_row):
        _dealer.clear_shared()
        assert [option_returns(h, u, a, R) for a in actions(h)] == played, (h, u)


def test_dead_cards_in_a_row_share_the_dealer_flushes_exactly():
    """Deals of the same ranks and the same unseen cards of the up suit, with dead cards of
    other suits, solved in a row (the dealer flushes of each set of new up-suit cards kept in
    the store for all of them) equal the same deals solved from an empty store, compact or not."""
    from solver._kernel import _dealer

    hand, up = deal("Ah Kh 9c 6d 2s", "4h")
    deads = [parse_cards(d) for d in ("Qc", "Qd 7s", "Qs 7c", "Qd 7c")]
    _dealer.clear_shared()
    generation = _dealer.shared_state()["generation"]
    in_a_row = [(solve(hand, up, R, dead), solve(hand, up, R, dead, leading=2)) for dead in deads]
    assert _dealer.shared_state()["generation"] == generation + 2  # two rank-level deals met
    for dead, (full, top) in zip(deads, in_a_row):
        _dealer.clear_shared()
        assert solve(hand, up, R, dead) == full
        _dealer.clear_shared()
        assert solve(hand, up, R, dead, leading=2) == top


def test_band_skeletons_follow_the_up_rank_the_qualifier_and_the_deck():
    """The buys' band skeletons are kept by up rank and qualifier, the bound of each band by the
    deal's deck: deals that change one of them, solved in a row, equal the same solved alone
    (a deck of 20 dead cards first bounds its bands lower than the whole deck does)."""
    from solver._kernel import _dealer

    pair = VARIANTS["qualifier_pair"].replace(exchange_max=3)
    r = R.replace(exchange_max=3)
    trips, straight, small = deal("9h 9d 9c 6d 2s", "7h"), deal("Qs Jd Tc 9s 8d", "Kc"), deal("7s 8h 4h 4d 6c", "3c")
    twenty = parse_cards("8c Kc Qs 2c Ah 8s 3d As 9c Ks Jc 8d 5h Qd Jh Ad 3h 2d 4s Ac")
    row = [(trips, r, ()), (trips, pair, ()), (straight, r, ()), (trips, r, parse_cards("Kc Kh 8d")),
           (trips, r, ()), (straight, pair, ()), (trips, pair, parse_cards("Ks")), (small, r, twenty),
           (small, r, ())]
    _dealer.clear_shared()
    in_a_row = [solve(*d, rules_, dead) for d, rules_, dead in row]
    for (d, rules_, dead), warm in zip(row, in_a_row):
        _dealer.clear_shared()
        assert solve(*d, rules_, dead) == warm, (d, rules_.dealer_qualifier, dead)
    check_against_reference(*straight, R)  # after another up rank's skeletons
    # deals of other up ranks one after another: their bands' numbers can coincide
    one = R.replace(exchange_max=1)
    row = [("8d 6d 7d 2h 5c", "Kd"), ("2c 8h 2s 8c 9s", "4c"), ("8h 3c 8d 5c Qc", "3d"), ("Kc Jd 4d 4s Jh", "Kh"),
           ("6s 3c Kh 5h Ad", "4c"), ("3h As Kc 9s 9d", "2s"), ("Qh 5h 9c 4c 5c", "Ah")]
    for text, up in row:
        solve(*deal(text, up), one)
    check_against_reference(*deal("3h 3s 2s Ah 3c", "Qd"), R)


BOUND_RULES = {"russian": R, "redraws_3": VARIANTS["redraws_3"], "qualifier_pair": VARIANTS["qualifier_pair"],
               "insurance_half": VARIANTS["insurance_half"], "ante_paid": VARIANTS["ante_paid"],
               "oasis_forced_five": rules.preset("oasis")}
# flushes and straight flushes for the player, the dealer's suit in the hand or not, the up-card's
# rank in the hand, trash, dead cards
BOUND_DEALS = [("Ah Kh Qh Jh 2c", "Th", ""), ("7s 8s 9s Ts Js", "2s", ""), ("Ah Kh 9h 6h 2h", "4c", ""),
               ("2h 5h 9h Jc Kc", "4h", ""), ("9c 9d 5h 5s Kc", "9s", ""), ("2c 3d 7h 9s Js", "Ah", ""),
               ("Qs Qh 8d 4c 3c", "Kd", "Ks Kh 2d Qc 9c 8c 7c 6c 5c")]


@pytest.mark.parametrize("name", sorted(BOUND_RULES))
def test_exchange_bounds_are_upper_bounds(name):
    """The bound of every exchange (the ranks' part shared by deals of the same ranks) is at
    least its exact EV; with the default rules, throwing five is bounded within 0.06."""
    r = BOUND_RULES[name]
    for text, up, dead in BOUND_DEALS:
        hand, u = deal(text, up)
        dead = parse_cards(dead) if dead else ()
        exact = {o.action.throw: o.ev for o in solve(hand, u, r, dead).options if o.action.kind == "exchange"}
        most = exchange_bounds(hand, u, r, dead, counts=range(1, 6))
        assert most.keys() == exact.keys()
        assert [t for t in exact if most[t] < exact[t]] == [], text
        if name == "russian":
            assert most[hand] - exact[hand] < Fraction(6, 100), text


@pytest.mark.parametrize("ranks, up", [("A A 9 5 2", "Q"), ("K J 8 6 3", "A")])
def test_leading_options_in_a_row_equal_every_option(ranks, up):
    """Suit classes of a rank-level deal in the build's order, solved for their two best options
    (bounded exchanges solved only where they may lead): the two best are those of every option
    from an empty store, every option listed is exact, and some were left out."""
    from solver._kernel import _dealer

    classes = _suit_classes(ranks, up)
    _dealer.clear_shared()
    tops = [solve(h, u, R, leading=2) for h, u in classes]
    left_out = 0
    for (h, u), top in zip(classes, tops):
        _dealer.clear_shared()
        full = solve(h, u, R)
        assert top.options[:2] == full.options[:2]
        assert set(top.options) <= set(full.options)
        left_out += len(full.options) - len(top.options)
    assert left_out > 0


@settings(max_examples=15, deadline=None)
@given(cards=st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True),
       name=st.sampled_from(sorted(BOUND_RULES)))
def test_leading_options_property(cards, name):
    r = BOUND_RULES[name]
    hand, up = tuple(cards[:5]), cards[5]
    full, top = solve(hand, up, r), solve(hand, up, r, leading=2)
    assert top.options[:2] == full.options[:2]
    assert set(top.options) <= set(full.options)


def test_threads_solving_at_once_agree_with_one_at_a_time():
    """The kernel's rank-level store is the process's: threads must not corrupt one another."""
    from concurrent.futures import ThreadPoolExecutor

    deals = [deal(*SAME_RANKS[0]), deal("Qs Qd 8c 5s 2d", "Ks"), deal(*SAME_RANKS[3]), deal("Jh Jd 8c 5s 2d", "Ks")]
    alone = [solve(*d, R) for d in deals]
    with ThreadPoolExecutor(2) as pool:
        together = list(pool.map(lambda d: solve(*d, R), deals))
    assert together == alone
