import pytest

from solver import rules
from solver.category import FOUR_OF_A_KIND
from solver.errors import InputError


def test_presets():
    r = rules.load()
    assert r == rules.preset("russian") == rules.DEFAULT
    assert r.exchange and r.sixth_card and r.buy_game and r.insurance and r.second_combination
    c = rules.load("caribbean")
    assert not (c.exchange or c.sixth_card or c.buy_game or c.insurance or c.second_combination)
    assert c.ante_on_win == "paid" and c.paytable == r.paytable
    o = rules.load("Oasis")
    assert o.exchange and o.exchange_fees == (1, 2, 3, 2, 1) and o.exchange_forces_bet == (5,)
    assert len({r.fingerprint, c.fingerprint, o.fingerprint}) == 3


def test_fingerprint_ignores_the_name_only():
    r = rules.DEFAULT
    assert r.replace(buy_redraws=1).fingerprint == r.fingerprint
    assert r.replace(buy_redraws=3).fingerprint != r.fingerprint


def test_toml_file(tmp_path):
    f = tmp_path / "club.toml"
    f.write_text('preset = "russian"\nbuy_redraws = 3\nsecond_rule = "new_rank"\n[paytable]\nfour_of_a_kind = 25\n')
    r = rules.load(f)
    assert r.name == "club" and r.buy_redraws == 3 and r.second_rule == "new_rank"
    assert r.paytable[FOUR_OF_A_KIND] == 25
    assert "buy_redraws = 3" in rules.describe(r)


@pytest.mark.parametrize(
    "text, key",
    [
        ("buy_redraw = 3", "buy_redraw"),
        ('second_rule = "sometimes"', "second_rule"),
        ("[paytable]\nfive_aces = 3", "five_aces"),
        ("exchange_fees = [1, 2]", "exchange_fees"),
        ("buy_redraws = -1", "buy_redraws"),
        ("buy_redraws = 5", "buy_redraws"),
        ("[paytable]\nroyal_flush = 100000", "paytable"),
        ('insurance = "yes"', "insurance"),
        ('preset = "texas"', "texas"),
    ],
)
def test_bad_files_name_the_key(tmp_path, text, key):
    f = tmp_path / "bad.toml"
    f.write_text(text + "\n")
    with pytest.raises(InputError, match=key):
        rules.load(f)


def test_not_toml_and_missing(tmp_path):
    f = tmp_path / "broken.toml"
    f.write_text("buy_redraws = = 3\n")
    with pytest.raises(InputError, match="not valid TOML"):
        rules.load(f)
    with pytest.raises(InputError, match="neither a rules preset"):
        rules.load(tmp_path / "missing.toml")


def test_the_rules_files_in_docs_load():
    """Every rules file shipped in docs/variants loads; Pechanga's says what its comment says."""
    from pathlib import Path

    import solver.rules as rules_mod

    folder = Path(__file__).resolve().parents[2] / "docs" / "variants"
    loaded = {p.stem: rules_mod.load(str(p)) for p in sorted(folder.glob("*.toml"))}
    pechanga = loaded["pechanga"]
    assert pechanga.exchange_counts == (2, 3, 4, 5) and pechanga.sixth_card and pechanga.sixth_card_fee == 1
    assert pechanga.insurance_from == "three_of_a_kind" and pechanga.insurance_max == "half_payout"
    assert loaded["max-payout-200"].max_payout == 200
