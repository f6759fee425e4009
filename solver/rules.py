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
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .category import CATEGORIES
from .errors import InputError

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
    exchanging k cards; ``exchange_forces_bet`` lists the counts after which the player must bet.
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
    exchange_fees: tuple[int, ...] = (1, 1, 1, 1, 1)
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

    def __post_init__(self) -> None:
        _validate(self)

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
    def exchange_counts(self) -> tuple[int, ...]:
        """Numbers of cards that may be exchanged (empty when exchanging is off)."""
        return tuple(range(self.exchange_min, self.exchange_max + 1)) if self.exchange else ()

    def to_dict(self) -> dict[str, Any]:
        """Settings as plain data (the name of the preset excluded), in a stable order."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "name":
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
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def replace(self, **changes: Any) -> Rules:
        """A copy with some settings changed (validated like a rules file)."""
        return _from_mapping(changes, base=self, where="settings")


def _validate(r: Rules) -> None:
    def fail(key: str, why: str) -> None:
        raise InputError(f"rule setting {key!r}: {why}")

    for key, allowed in _CHOICES.items():
        if getattr(r, key) not in allowed:
            fail(key, f"{getattr(r, key)!r} is not one of {', '.join(allowed)}")
    if len(r.paytable) != len(CATEGORIES) or r.paytable[0] != 0:
        fail("paytable", "needs one multiple for each category from ak to royal_flush")
    for key in ("paytable", "bonus_paytable", "exchange_fees"):
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in getattr(r, key)):
            fail(key, "every entry must be a whole number ≥ 0")
    if len(r.bonus_paytable) != len(BONUS_HANDS):
        fail("bonus_paytable", f"needs the entries {', '.join(BONUS_HANDS)}")
    if len(r.exchange_fees) != 5:
        fail("exchange_fees", "needs five fees, for exchanging 1, 2, 3, 4 and 5 cards")
    if not 1 <= r.exchange_min <= r.exchange_max <= 5:
        fail("exchange_min", "need 1 ≤ exchange_min ≤ exchange_max ≤ 5")
    if any(k not in range(1, 6) for k in r.exchange_forces_bet):
        fail("exchange_forces_bet", "counts must be 1..5")
    for key in ("sixth_card_fee", "buy_game_fee", "buy_redraws", "bonus_max"):
        v = getattr(r, key)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            fail(key, "must be a whole number ≥ 0")
    # the kernels count in 64-bit integers: dealer hands x buy draws x payout must stay below 2^63
    if r.buy_redraws > 4:
        fail("buy_redraws", "at most 4")
    if max(r.paytable) > 10_000:
        fail("paytable", "multiples of at most 10000")
    for key in ("second_combination", "exchange", "sixth_card", "insurance", "buy_game"):
        if not isinstance(getattr(r, key), bool):
            fail(key, "must be true or false")


_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def _from_mapping(data: dict[str, Any], base: Rules, where: str, name: str | None = None) -> Rules:
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _FIELDS or key == "name":  # the name is not a setting
            raise InputError(f"{where}: unknown rule setting {key!r}")
        if key in ("paytable", "bonus_paytable"):
            names = CATEGORIES[1:] if key == "paytable" else BONUS_HANDS
            current = list(getattr(base, key))
            if isinstance(value, dict):
                for entry, multiple in value.items():
                    if entry not in names:
                        raise InputError(f"{where}: {key!r} has no entry {entry!r} (entries: {', '.join(names)})")
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
        return dataclasses.replace(base, name=name, **values)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    except TypeError as exc:  # pragma: no cover - a value of a type the dataclass rejects
        raise InputError(f"{where}: {exc}") from None


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
        raise InputError(f"unknown rules preset {name!r} (presets: {', '.join(PRESETS)})") from None


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
    if not path.is_file():
        raise InputError(f"{text!r} is neither a rules preset ({', '.join(PRESETS)}) nor a rules file")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"rules file {text!r} is not valid TOML: {exc}") from None
    base = preset(str(data.pop("preset", "russian")))
    return _from_mapping(data, base=base, where=f"rules file {text!r}", name=path.stem)


def describe(rules: Rules) -> str:
    """The settings as ``key = value`` lines (TOML), headed by the name and fingerprint."""
    lines = [f"# rules {rules.name!r}, fingerprint {rules.fingerprint}"]
    tables = []
    for key, value in rules.to_dict().items():
        if isinstance(value, dict):
            tables.append(f"\n[{key}]\n" + "\n".join(f"{k} = {v}" for k, v in value.items()))
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n" + "\n".join(tables) + "\n"


DEFAULT = PRESETS["russian"]
