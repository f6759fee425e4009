"""Rule settings of RULES §10: an immutable object, the presets, TOML files and a fingerprint.

>>> from solver.category import ROYAL_FLUSH
>>> rules = preset("russian")
>>> rules.buy_redraws, rules.paytable[ROYAL_FLUSH]
(1, 100)
>>> preset("caribbean").exchange
False
>>> len(rules.fingerprint)
16
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import toml_text
from .category import AK, CATEGORIES
from .errors import InputError, shown

BONUS_HANDS: tuple[str, ...] = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_sevens",
    "sevens_two_pair",
)
_DEFAULT_PAYTABLE = (0, 1, 1, 2, 3, 4, 5, 7, 20, 50, 100)
_DEFAULT_BONUS = (1000, 500, 300, 100, 50, 40, 20, 5)
DEFAULT_FEE = 1
"""The fee of an exchange of any count by default, and of a count that cannot be exchanged."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "dealer_qualifier": ("ak", "pair"),
    "ante_on_win": ("push", "paid"),
    "second_rule": ("any_new_card", "new_rank"),
    "insurance_min": ("ante", "bet"),
    "insurance_max": ("payout", "half_payout"),
    "insurance_on_tie": ("lost", "returned"),
    "insurance_from": CATEGORIES[1:],
}


@dataclass(frozen=True)
class Rules:
    """Every rule setting of the game; the defaults are the preset ``russian``.

    Money is in antes. ``paytable`` is indexed by category code (``paytable[0]`` is no game, 0);
    ``bonus_paytable`` follows ``BONUS_HANDS``; ``exchange_fees[k - 1]`` is the fee for
    exchanging k cards; ``exchange_forces_bet`` lists the counts after which the player must bet;
    ``max_payout`` is the table's maximum payout of a box in one round, bet and insurance
    together (RULES §6; ``None``: no maximum).
    """

    name: str = "russian"
    paytable: tuple[int, ...] = _DEFAULT_PAYTABLE
    dealer_qualifier: str = "ak"
    ante_on_win: str = "push"
    second_combination: bool = True
    second_rule: str = "any_new_card"
    exchange: bool = True
    exchange_min: int = 1
    exchange_max: int = 5
    exchange_fees: tuple[int, ...] = (DEFAULT_FEE,) * 5
    exchange_forces_bet: tuple[int, ...] = ()
    sixth_card: bool = True
    sixth_card_fee: int = 1
    insurance: bool = True
    insurance_from: str = "three_of_a_kind"
    insurance_min: str = "ante"
    insurance_max: str = "payout"
    insurance_on_tie: str = "lost"
    buy_game: bool = True
    buy_game_fee: int = 1
    buy_redraws: int = 1
    bonus_paytable: tuple[int, ...] = _DEFAULT_BONUS
    bonus_max: int = 1
    max_payout: int | None = None

    def __post_init__(self) -> None:
        _validate(self)
        _canonical(self)

    # -- derived values used by the solver -------------------------------------------------
    @property
    def qualifier_category(self) -> int:
        """Lowest category with which the dealer qualifies."""
        return CATEGORIES.index(self.dealer_qualifier)

    @property
    def insurance_category(self) -> int:
        """Lowest main category that may insure."""
        return CATEGORIES.index(self.insurance_from)

    @property
    def draws(self) -> bool:
        """Whether the player may draw (exchange or buy a sixth card): then optimal play needs a
        strategy table; without, every class is bet or folded and counted in batches."""
        return self.exchange or self.sixth_card

    def may_insure(self, category: int) -> bool:
        """Whether a final hand of this main category may be insured (RULES §6).

        >>> from solver.category import PAIR, THREE_OF_A_KIND
        >>> DEFAULT.may_insure(THREE_OF_A_KIND), DEFAULT.may_insure(PAIR), DEFAULT.may_buy(PAIR)
        (True, False, True)
        """
        return self.insurance and category >= self.insurance_category

    def may_buy(self, category: int) -> bool:
        """Whether a final hand of this main category may buy the dealer a game (RULES §7: AK or better)."""
        return self.buy_game and category >= AK

    @property
    def exchange_counts(self) -> tuple[int, ...]:
        """Numbers of cards that may be exchanged (empty when exchanging is off)."""
        return tuple(range(self.exchange_min, self.exchange_max + 1)) if self.exchange else ()

    def to_dict(self) -> dict[str, Any]:
        """Settings as plain data (the name of the preset excluded), in a stable order; a
        setting that is absent (``max_payout`` without a maximum) is left out, so that the
        rules stored with tables and reports, and their fingerprints, are those of before it."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "name" or getattr(self, f.name) is None:
                continue
            value = getattr(self, f.name)
            if f.name == "paytable":
                value = dict(zip(CATEGORIES[1:], value[1:]))
            elif f.name == "bonus_paytable":
                value = dict(zip(BONUS_HANDS, value))
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @property
    def fingerprint(self) -> str:
        """16 hex digits of SHA-256 over the settings: equal settings, equal fingerprint."""
        return fingerprint_of(self.to_dict())

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed, validated like a rules file; a setting that cannot
        matter under the others is dropped (kept at its default), where a file is refused."""
        return _from_mapping(changes, base=self, where="settings")


def fingerprint_of(settings: dict[str, Any]) -> str:
    """The fingerprint of settings as ``Rules.to_dict`` gives them (or as a table's manifest
    stores them, with the ``name``, which is not a setting). A setting that is absent (``None``)
    is left out, so that settings added later leave the fingerprints of earlier rules as they were.

    >>> fingerprint_of(DEFAULT.to_dict()) == DEFAULT.fingerprint == fingerprint_of({**DEFAULT.to_dict(), "name": "x"})
    True
    """
    present = {k: v for k, v in settings.items() if k != "name" and v is not None}
    text = json.dumps(present, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


#: the bounds of the whole-number settings (antes, counts, multiples). The kernels count in
#: 64-bit integers: dealer hands x buy draws x payouts must stay below 2**63, which these keep.
LIMITS: dict[str, tuple[int, int]] = {
    "paytable": (0, 10_000),
    "bonus_paytable": (0, 1_000_000),
    "exchange_fees": (0, 100),
    "exchange_min": (1, 5),
    "exchange_max": (1, 5),
    "exchange_forces_bet": (1, 5),
    "sixth_card_fee": (0, 100),
    "buy_game_fee": (0, 100),
    "buy_redraws": (0, 4),
    "bonus_max": (0, 100),
    "max_payout": (1, 1_000_000),
}
_BOOLS = ("second_combination", "exchange", "sixth_card", "insurance", "buy_game")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(r: Rules) -> None:
    """Every setting of the right type and within its bounds; the first that is not is named."""
    def fail(key: str, why: str) -> None:
        raise InputError(f"rule setting {key!r}: {why}")

    if not isinstance(r.name, str) or not r.name:
        fail("name", "must be a non-empty text")
    for key in _BOOLS:
        if not isinstance(getattr(r, key), bool):
            fail(key, f"must be true or false, not {shown(getattr(r, key))}")
    for key, allowed in _CHOICES.items():
        if not isinstance(getattr(r, key), str) or getattr(r, key) not in allowed:
            fail(key, f"{shown(getattr(r, key))} is not one of {', '.join(allowed)}")
    sizes = {"paytable": len(CATEGORIES), "bonus_paytable": len(BONUS_HANDS), "exchange_fees": 5}
    for key, (lo, hi) in LIMITS.items():
        value = getattr(r, key)
        if key in sizes or key == "exchange_forces_bet":
            if not isinstance(value, tuple) or not all(_whole(v) and lo <= v <= hi for v in value):
                fail(key, f"must be a list of whole numbers from {lo} to {hi}, not {shown(value)}")
        elif value is None and key == "max_payout":
            continue  # no maximum
        elif not _whole(value) or not lo <= value <= hi:
            fail(key, f"must be a whole number from {lo} to {hi}, not {shown(value)}")
    if len(r.paytable) != len(CATEGORIES) or r.paytable[0] != 0:
        fail("paytable", "needs one multiple for each category from ak to royal_flush")
    if len(r.bonus_paytable) != len(BONUS_HANDS):
        fail("bonus_paytable", f"needs the entries {', '.join(BONUS_HANDS)}")
    if len(r.exchange_fees) != 5:
        fail("exchange_fees", "needs five fees, for exchanging 1, 2, 3, 4 and 5 cards")
    if r.exchange_min > r.exchange_max:
        fail("exchange_min", f"{r.exchange_min} is above exchange_max {r.exchange_max}")
    if len(set(r.exchange_forces_bet)) != len(r.exchange_forces_bet):
        fail("exchange_forces_bet", "lists a count twice")


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}

#: the settings read only while a switch is on (RULES §10). With the switch off they cannot
#: matter: they are kept at their defaults, so that equal games have equal fingerprints, and a
#: rules file that sets one is refused.
DEPENDS: dict[str, tuple[str, ...]] = {
    "exchange": ("exchange_min", "exchange_max", "exchange_fees", "exchange_forces_bet"),
    "sixth_card": ("sixth_card_fee",),
    "insurance": ("insurance_from", "insurance_min", "insurance_max", "insurance_on_tie"),
    "buy_game": ("buy_game_fee", "buy_redraws"),
    "second_combination": ("second_rule",),
}
_SWITCH = {key: switch for switch, keys in DEPENDS.items() for key in keys}


def _canonical(r: Rules) -> None:
    """The one form of each game (in place): the settings of a switch that is off at their
    defaults; the fees of counts that cannot be exchanged at the default fee, and the counts that
    force the bet among those that can, in order."""
    for switch, keys in DEPENDS.items():
        if not getattr(r, switch):
            for key in keys:
                object.__setattr__(r, key, _FIELDS[key].default)
    counts = range(r.exchange_min, r.exchange_max + 1)
    object.__setattr__(r, "exchange_fees", tuple(fee if k in counts else DEFAULT_FEE
                                                 for k, fee in enumerate(r.exchange_fees, 1)))
    object.__setattr__(r, "exchange_forces_bet", tuple(sorted(k for k in r.exchange_forces_bet if k in counts)))


def _unread(values: dict[str, Any], rules: Rules) -> str | None:
    """Why a setting given (``values``) cannot matter under ``rules``, the settings in force."""
    for key in values:
        switch = _SWITCH.get(key)
        if switch is not None and not getattr(rules, switch):
            return f"rule setting {key!r} cannot matter with {switch} = false: leave it out"
    forced = [k for k in values.get("exchange_forces_bet", ()) if k not in rules.exchange_counts]
    if forced:
        return (f"rule setting 'exchange_forces_bet': {forced[0]} cards cannot be exchanged with exchange_min = "
                f"{rules.exchange_min} and exchange_max = {rules.exchange_max}")
    return None


def _from_mapping(data: dict[str, Any], base: Rules, where: str, name: str | None = None,
                  strict: bool = False) -> Rules:
    """``base`` with the settings of ``data``; ``strict`` (a rules file): a setting that cannot
    matter under the others is an error (else it is dropped: ``_canonical``)."""
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _FIELDS or key == "name":  # the name is not a setting
            raise InputError(f"{where}: unknown rule setting {shown(key)}")
        if key in ("paytable", "bonus_paytable"):
            names = CATEGORIES[1:] if key == "paytable" else BONUS_HANDS
            current = list(getattr(base, key))
            if isinstance(value, dict):
                for entry, multiple in value.items():
                    if entry not in names:
                        raise InputError(f"{where}: {key!r} has no entry {shown(entry)} (entries: {', '.join(names)})")
                    current[names.index(entry) + (1 if key == "paytable" else 0)] = multiple
                value = tuple(current)
            elif isinstance(value, (list, tuple)):
                value = (0, *value) if key == "paytable" and len(value) == len(names) else tuple(value)
            else:
                raise InputError(f"{where}: {key!r} must be a table of multiples")
        elif isinstance(value, list):
            value = tuple(value)
        values[key] = value
    if name is None:
        name = base.name if not values else f"{base.name}+custom"
    try:
        rules = dataclasses.replace(base, name=name, **values)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    except TypeError as exc:  # pragma: no cover - a value of a type the dataclass rejects
        raise InputError(f"{where}: {exc}") from None
    unread = _unread(values, rules) if strict else None
    if unread is not None:
        raise InputError(f"{where}: {unread}")
    return rules


def _caribbean() -> Rules:
    return Rules(
        name="caribbean",
        exchange=False,
        sixth_card=False,
        insurance=False,
        buy_game=False,
        second_combination=False,
        ante_on_win="paid",
    )


PRESETS: dict[str, Rules] = {
    "russian": Rules(),
    "caribbean": _caribbean(),
    "oasis": dataclasses.replace(
        _caribbean(), name="oasis", exchange=True, exchange_fees=(1, 2, 3, 2, 1), exchange_forces_bet=(5,)
    ),
}


def preset(name: str) -> Rules:
    """One of the presets ``russian`` (the defaults), ``caribbean``, ``oasis``."""
    try:
        return PRESETS[name.lower()]
    except KeyError:
        raise InputError(f"unknown rules preset {shown(name)} (presets: {', '.join(PRESETS)})") from None


def load(source: str | Path | None = None) -> Rules:
    """Rules from a preset name or a TOML file; ``None`` gives the defaults.

    A file may start from a preset (``preset = "caribbean"``) and change any setting; the
    tables ``[paytable]`` and ``[bonus_paytable]`` change single entries.
    """
    if source is None:
        return PRESETS["russian"]
    text = str(source)
    if text.lower() in PRESETS:
        return PRESETS[text.lower()]
    path = Path(text)
    what = f"rules file {shown(text)}"
    try:
        found = path.is_file()
    except OSError as exc:  # a name the system refuses
        raise InputError(f"cannot read the {what}: {exc.strerror or exc}") from None
    if not found:
        raise InputError(f"{shown(text)} is neither a rules preset ({', '.join(PRESETS)}) nor a rules file")
    data = toml_text.parse(toml_text.read(path, what), what)
    base = preset(str(data.pop("preset", "russian")))
    return _from_mapping(data, base=base, where=f"rules file {text!r}", name=path.stem, strict=True)


def describe(rules: Rules) -> str:
    """The settings as ``key = value`` lines (TOML), headed by the name and fingerprint."""
    lines = [f"# rules {rules.name!r}, fingerprint {rules.fingerprint}"]
    if rules.max_payout is None:
        lines.append("# max_payout: not set (no table maximum)")
    tables = []
    for key, value in rules.to_dict().items():
        switch = _SWITCH.get(key)
        if switch is not None and not getattr(rules, switch):   # printed, but not as a setting to copy
            lines.append(f"# {key} = {json.dumps(value)}  (not read: {switch} = false)")
        elif isinstance(value, dict):
            tables.append(f"\n[{key}]\n" + "\n".join(f"{k} = {v}" for k, v in value.items()))
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n" + "\n".join(tables) + "\n"


DEFAULT = PRESETS["russian"]
