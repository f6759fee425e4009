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
        # a setting that cannot matter under the others
        ("exchange = false\nexchange_forces_bet = [5]", "'exchange_forces_bet' cannot matter with exchange = false"),
        ("exchange = false\nexchange_fees = [1, 2, 3, 2, 1]", "'exchange_fees' cannot matter with exchange = false"),
        ("exchange_max = 3\nexchange_forces_bet = [5]", "5 cards cannot be exchanged with exchange_min = 1 and "
         "exchange_max = 3"),
        ('insurance = false\ninsurance_from = "flush"', "'insurance_from' cannot matter with insurance = false"),
        ("buy_game = false\nbuy_redraws = 3", "'buy_redraws' cannot matter with buy_game = false"),
        ("sixth_card = false\nsixth_card_fee = 2", "'sixth_card_fee' cannot matter with sixth_card = false"),
        ('preset = "caribbean"\nsecond_rule = "new_rank"',
         "'second_rule' cannot matter with second_combination = false"),
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


# -- one fingerprint per game ------------------------------------------------------------------

EQUIVALENT = [
    # the same game written two ways: a setting of a switch that is off, inherited from a preset
    ('preset = "oasis"\nexchange = false', 'preset = "caribbean"'),
    ('preset = "russian"\ninsurance = false', 'insurance = false\n[paytable]\nak = 1'),
    ('preset = "oasis"\nexchange_max = 4', 'preset = "caribbean"\nexchange = true\nexchange_max = 4\n'
     'exchange_fees = [1, 2, 3, 2, 1]'),
    # fees of counts that cannot be exchanged, and the order of the counts that force the bet
    ('exchange_min = 2\nexchange_fees = [7, 1, 1, 1, 1]', 'exchange_min = 2'),
    ('exchange_max = 3\nexchange_fees = [1, 1, 1, 9, 9]', 'exchange_max = 3'),
    ('exchange_forces_bet = [5, 2]', 'exchange_forces_bet = [2, 5]'),
    ('preset = "oasis"\nexchange_max = 4', 'preset = "oasis"\nexchange_max = 4\nexchange_fees = [1, 2, 3, 2, 5]'),
    ('buy_game = false', 'buy_game = false\n[bonus_paytable]\nroyal_flush = 1000'),
    ('second_combination = false', 'preset = "russian"\nsecond_combination = false'),
]


@pytest.mark.parametrize("first, second", EQUIVALENT)
def test_equal_games_have_equal_fingerprints(tmp_path, first, second):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text(first + "\n")
    b.write_text(second + "\n")
    ra, rb = rules.load(a), rules.load(b)
    assert ra.fingerprint == rb.fingerprint and ra.to_dict() == rb.to_dict()
    # what `rules show` prints loads back as the same game (the settings not read are comments)
    shown = tmp_path / "shown.toml"
    shown.write_text(rules.describe(ra))
    assert rules.load(shown).fingerprint == ra.fingerprint


def test_different_games_keep_different_fingerprints():
    r = rules.DEFAULT
    changed = [r.replace(exchange=False), r.replace(exchange_max=4), r.replace(exchange_fees=(2, 1, 1, 1, 1)),
               r.replace(exchange_forces_bet=(5,)), r.replace(insurance_from="flush"),
               r.replace(second_rule="new_rank"), r.replace(sixth_card_fee=2), r.replace(buy_redraws=0)]
    assert len({x.fingerprint for x in [r, *changed]}) == 1 + len(changed)


#: the fingerprints of the code before rules had one form per game (b6e1b6b), measured by running it
BEFORE = {"russian": "636f656a955cd822", "caribbean": "cefcd184e36d8df0", "oasis": "81047ee02505c6c5",
          "pechanga": "cc09935afdd43df4"}


def test_the_presets_keep_their_fingerprints():
    """One form per game leaves the fingerprints of the presets and the shipped rules files as they
    were: the shipped table, cards and reports are theirs."""
    import json
    from importlib.resources import files
    from pathlib import Path

    shipped = json.loads((files("solver.shipped") / "russian-compact" / "manifest.json").read_text())
    assert rules.DEFAULT.fingerprint == shipped["fingerprint"] == rules.fingerprint_of(shipped["rules"])
    folder = Path(__file__).resolve().parents[2] / "docs" / "variants"
    for name, fingerprint in BEFORE.items():
        source = name if name in rules.PRESETS else str(folder / f"{name}.toml")
        assert rules.load(source).fingerprint == fingerprint, name
    for report in folder.glob("*-vs-russian.json"):   # the variants' reports name their rules' fingerprints
        variant = rules.load(str(folder / f"{report.name.removesuffix('-vs-russian.json')}.toml"))
        assert variant.fingerprint in report.read_text()
