import pytest

from solver.cards import check_disjoint, format_card, format_cards, parse_card, parse_cards
from solver.errors import InputError


def test_every_card_round_trips():
    for c in range(52):
        assert parse_card(format_card(c)) == c


@pytest.mark.parametrize(
    "text, expected",
    [("As", "As"), ("as", "As"), ("10h", "Th"), ("tD", "Td"), ("Q♠", "Qs"), ("2♦", "2d"), ("K♥", "Kh"), ("3♣", "3c")],
)
def test_spellings(text, expected):
    assert format_card(parse_card(text)) == expected


@pytest.mark.parametrize("bad", ["A", "1s", "11h", "Ax", "ZZ", "", "AsK"])
def test_malformed_card_names_the_token(bad):
    with pytest.raises(InputError) as err:
        parse_card(bad)
    assert repr(bad.strip()) in str(err.value) or bad == ""


def test_duplicate_and_count():
    with pytest.raises(InputError, match="'As' twice"):
        parse_cards("As Kd as", what="hand")
    with pytest.raises(InputError, match="must have 5 cards, not 4"):
        parse_cards("As Kd Qs 2c", count=5, what="hand")
    assert format_cards(parse_cards("As,Kd, Qs 2c 10c", count=5)) == "As Kd Qs 2c Tc"


def test_disjoint_groups():
    check_disjoint([("hand", parse_cards("As Kd")), ("up-card", parse_cards("2c"))])
    with pytest.raises(InputError, match="both the hand and the up-card"):
        check_disjoint([("hand", parse_cards("As Kd")), ("up-card", parse_cards("Kd"))])
