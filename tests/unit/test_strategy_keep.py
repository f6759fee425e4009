"""A strategy card's draws and exchanges, resolved to the cards of each deal: against plain
definitions, and the same in every arrangement of the suits."""

import itertools
import random

import numpy as np
import pytest

from solver.cards import parse_card, parse_cards
from solver.strategy import Seen
from solver.strategy.keep import NO_HAND, Keep

# the ranks of each straight, lowest first (A-2-3-4-5)
STRAIGHTS = [{12, 0, 1, 2, 3}] + [set(range(low, low + 5)) for low in range(9)]
ROYAL = STRAIGHTS[-1]


def _straight(ranks: set[int]) -> bool:
    return any(s <= ranks for s in STRAIGHTS)


def _random_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = [rng.sample(range(52), 5) for _ in range(n)]
    # draws are rare at random: add hands built around them
    for _ in range(n // 2):
        suit, low = rng.randrange(4), rng.randrange(9)
        cards = [(r << 2) | suit for r in rng.sample(range(low, low + 5), 4)]
        cards.append(rng.choice([c for c in range(52) if c not in cards]))
        hands.append(cards)
    for _ in range(n // 4):
        # five of six ranks in a row (4 5 6 8 9, or a straight), any suits
        low = rng.randrange(-1, 8)
        hands.append([(r % 13 << 2) | rng.randrange(4) for r in rng.sample(range(low, low + 6), 5)])
    return hands


def _seen(hands: list[list[int]]) -> Seen:
    return Seen.of(np.asarray(hands, np.uint8), np.zeros(len(hands), np.uint8) + 51)


def test_draws_against_their_definitions():
    hands = _random_hands(3000, 1)
    s = _seen(hands)
    assert {0, 1, 2} <= set(s.six_outs.tolist())
    for i, hand in enumerate(hands):
        ranks = {c >> 2 for c in hand}
        by_suit = [{c >> 2 for c in hand if c & 3 == suit} for suit in range(4)]
        assert s.to_flush[i] == max(len(x) for x in by_suit)
        assert s.straight_outs[i] == sum(_straight(ranks | {r}) for r in range(13))
        assert s.to_straight_flush[i] == max(len(x & w) for x in by_suit for w in STRAIGHTS)
        assert s.to_royal[i] == max(len(x & ROYAL) for x in by_suit)
        # a sixth card of a new rank making two straights: six ranks in a row
        assert s.six_outs[i] == sum(r not in ranks and sum(_straight((ranks | {r}) - {c}) for c in ranks | {r}) >= 2
                                    for r in range(13))
        # the place from the highest of the highest card's best suited mate (no pair), else 0
        order = sorted(ranks, reverse=True)
        top = max(hand)
        mates = [c >> 2 for c in hand if c & 3 == top & 3 and c != top]
        assert s.suited_place[i] == (1 + order.index(max(mates)) if len(ranks) == 5 and mates else 0)


def _outs(ranks: set[int]) -> int:
    return sum(_straight(ranks | {r}) for r in range(13))


@pytest.mark.parametrize("words", ["pair", "two_pair", "trips", "A K", "J+", "flush", "straight", "straight_flush",
                                   "royal", "pair A", "nothing", "highest", "pair highest", "highest_suited"])
def test_a_keep_against_its_definition(words):
    hands = _random_hands(3000, 2)
    kept = Keep.parse(words).kept(_seen(hands))
    for hand, mask in zip(hands, kept.tolist()):
        ranks = [c >> 2 for c in hand]
        count = {r: ranks.count(r) for r in ranks}
        expected: set[int] | None = set()
        for word in words.split():
            if word in ("pair", "two_pair", "trips"):
                size = 3 if word == "trips" else 2
                groups = sorted((r for r in count if count[r] == size), reverse=True)
                need = 2 if word == "two_pair" else 1
                if len(groups) < need:
                    expected = None
                    break
                groups = groups if word == "two_pair" else groups[:1]
                expected |= {c for c in hand if c >> 2 in groups}
            elif word == "highest":
                singles = [c for c in hand if count[c >> 2] == 1]
                if not singles:
                    expected = None
                    break
                expected.add(max(singles))      # cards of one rank differ: the highest card is the highest rank's
            elif word == "highest_suited":
                top = max(hand)
                mates = [c for c in hand if c & 3 == top & 3 and c != top]
                if len(count) < 5 or not mates:
                    expected = None
                    break
                expected |= {top, max(mates)}
            elif word == "A":
                expected |= {c for c in hand if c >> 2 == 12}
            elif word in ("K",):
                expected |= {c for c in hand if c >> 2 == 11}
            elif word == "J+":
                expected |= {c for c in hand if c >> 2 >= 9}
            elif word == "flush":
                suit = max(range(4), key=lambda s: sum(c & 3 == s for c in hand))
                cards = {c for c in hand if c & 3 == suit}
                if len(cards) < 3:
                    expected = None
                    break
                expected |= cards
            elif word in ("straight_flush", "royal"):
                windows = STRAIGHTS if word == "straight_flush" else [ROYAL]
                # the most cards; on a tie the higher straight (then suit)
                best = max((({c for c in hand if c & 3 == s and c >> 2 in w}, i, s)
                            for s in range(4) for i, w in enumerate(windows)), key=lambda t: (len(t[0]), t[1], t[2]))[0]
                if len(best) < 3:
                    expected = None
                    break
                expected |= best
            elif word == "straight":
                # four distinct ranks of a straight: most completing ranks, then the highest
                options = [set(q) for q in itertools.combinations(set(ranks), 4)
                           if any(set(q) <= w for w in STRAIGHTS)]
                if not options:
                    expected = None
                    break
                best = max(options, key=lambda q: (_outs(q), sum(1 << r for r in q)))
                got = {c >> 2 for i, c in enumerate(hand) if mask >> i & 1}
                assert got == best and bin(mask).count("1") == 4, (hand, mask)
                expected = None if mask == NO_HAND else {c for i, c in enumerate(hand) if mask >> i & 1}
        if expected is None:
            assert mask == NO_HAND, (hand, words)
        else:
            assert {c for i, c in enumerate(hand) if mask >> i & 1} == expected, (hand, words)


@pytest.mark.parametrize("words", ["pair", "trips", "flush", "straight", "straight_flush", "royal", "Q+", "highest",
                                   "highest_suited"])
def test_a_keep_is_the_same_in_every_arrangement_of_the_suits(words):
    """Permuting the suits of a deal (the same cards' places) keeps the same places."""
    hands = _random_hands(400, 3) + [parse_cards("5c 6d 7h 8s 8h"), parse_cards("9h Th Jh 3h 3c"),
                                      parse_cards("Ah Kd Qh Jh 3h")]
    keep = Keep.parse(words)
    first = keep.kept(_seen(hands))
    for perm in itertools.permutations(range(4)):
        moved = [[(c & ~3) | perm[c & 3] for c in hand] for hand in hands]
        assert (keep.kept(_seen(moved)) == first).all(), perm


def test_keep_words():
    assert Keep.parse("pair A").text() == "keep pair and A"
    assert Keep.parse("pair highest").text() == "keep pair and the highest unpaired card"
    assert Keep.parse("highest_suited").text() == "keep the highest card and the next of its suit"
    assert Keep.parse("nothing").text() == "exchange all five"
    for bad, message in (("", "keep must name"), ("nothing A", "takes no other word"), ("pair Z", "'Z' is not a rank")):
        with pytest.raises(ValueError, match=message):
            Keep.parse(bad)
    s = Seen.of(np.asarray([parse_cards("8c 8d Ah Kh 3s")]), np.asarray([parse_card("2d")]))
    assert Keep.parse("two_pair").kept(s)[0] == NO_HAND and Keep.parse("8 K").kept(s)[0] == 0b01011
