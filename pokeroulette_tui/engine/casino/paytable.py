"""Pay tables: what each casino bet pays, as configuration.

Every payout is written **X to 1**: a winning bet gets its stake back and X times the stake
(the same reading for every bet on the board, the progressive side bet included; the sources
say "for 1" there, which is ambiguous, and a table from a file can say otherwise by its
numbers). The default table is the one in docs/RULES.md §6; the joker spot, which the
sources do not price, pays 25 to 1 (the two jokers are 2 cards in 54, like a split).

A user's own table is a TOML file (see :func:`load_file`); every value is checked, and a
mistake is one line that names the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.casino.board import ROULETTE_KINDS, Kind
from pokeroulette_tui.engine.hands import Category, evaluate
from pokeroulette_tui.engine.i18n import N_, _

LEVELS = ("high_card", "pair", "pair_6", "two_pair", "three_of_a_kind", "straight", "flush",
          "full_house", "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind")
"""The classes of a five-card hand (jokers wild), lowest first; a poker bet on a class wins
on that class or any above it. ``pair_6`` is a pair of sixes or better pairs."""

HAND_WORDS = {
    "high_card": N_("high card"), "pair": N_("a pair below sixes"),
    "pair_6": N_("pair of sixes or better"), "two_pair": N_("two pair or better"),
    "three_of_a_kind": N_("three of a kind or better"), "straight": N_("straight or better"),
    "flush": N_("flush or better"), "full_house": N_("full house or better"),
    "four_of_a_kind": N_("four of a kind or better"),
    "straight_flush": N_("straight flush or better"),
    "royal_flush": N_("royal flush or better"), "five_of_a_kind": N_("five of a kind"),
}
"""A poker bet on each class, in words (English: translate with :func:`hand_words`)."""

CLASS_WORDS = {
    "high_card": N_("high card"), "pair": N_("pair"), "pair_6": N_("pair of sixes or better"),
    "two_pair": N_("two pair"), "three_of_a_kind": N_("three of a kind"),
    "straight": N_("straight"), "flush": N_("flush"), "full_house": N_("full house"),
    "four_of_a_kind": N_("four of a kind"), "straight_flush": N_("straight flush"),
    "royal_flush": N_("royal flush"), "five_of_a_kind": N_("five of a kind"),
}
"""Each class itself, in words (the progressive table pays by class, not "or better";
English: translate with :func:`class_words`)."""

PROGRESSIVE_WORDS = {
    "high_card": N_("high card"), "pair": N_("a pair below sixes"),
    "pair_6": N_("pair of sixes"), "two_pair": N_("two pair"),
    "three_of_a_kind": N_("three of a kind"), "straight": N_("straight"), "flush": N_("flush"),
    "full_house": N_("full house"), "four_of_a_kind": N_("four of a kind"),
    "straight_flush": N_("straight flush"), "royal_flush": N_("royal flush"),
    "five_of_a_kind": N_("five of a kind"),
}
"""A class in the odds report's line on the side bet (HAND_WORDS without "or better")."""


def hand_words(hand: str) -> str:
    """A poker bet on ``hand`` in the player's language ("pair of sixes or better")."""
    return _(HAND_WORDS[hand]) if hand in HAND_WORDS else hand


def class_words(hand: str) -> str:
    """The class ``hand`` in the player's language ("full house")."""
    return _(CLASS_WORDS[hand]) if hand in CLASS_WORDS else hand


def table_note(table: PayTable) -> str:
    """A pay table's note in the player's language (a user's own note as written)."""
    return _(table.note) if table.note else ""

_CATEGORY_CLASS = {Category.HIGH_CARD: "high_card", Category.TWO_PAIR: "two_pair",
                   Category.THREE_OF_A_KIND: "three_of_a_kind", Category.STRAIGHT: "straight",
                   Category.FLUSH: "flush", Category.FULL_HOUSE: "full_house",
                   Category.FOUR_OF_A_KIND: "four_of_a_kind",
                   Category.FIVE_OF_A_KIND: "five_of_a_kind"}


def hand_class(cards: list[Card] | tuple[Card, ...]) -> str:
    """The class of five cards, jokers wild (five of a kind is the highest).

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> hand_class(parse_cards("6s 6h 2d 9c Kd")), hand_class(parse_cards("* Qs Js Ts As"))
    ('pair_6', 'royal_flush')
    """
    v = evaluate(cards)
    c = v.category
    if c is Category.PAIR:
        return "pair_6" if v.ranks[0] >= 6 else "pair"
    if c is Category.STRAIGHT_FLUSH:
        return "royal_flush" if v.ranks[0] == 14 else "straight_flush"
    return _CATEGORY_CLASS[c]


START_BANKROLL = 1000
"""A new player's (or a reset) bankroll, in play chips (``store.START_BANKROLL``): no stake
a table asks for may be larger, or nobody could ever place it."""


class PayTableError(ValueError):
    """A pay table that cannot be used; the message names the key."""


def _frozen(d: Mapping[Any, int]) -> Mapping[Any, int]:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class PayTable:
    """What every bet pays (X to 1) and the limits of the table.

    ``poker`` lists the poker bets the table offers (class -> X to 1); ``progressive`` pays
    by the class dealt (class -> X to 1); the whole jackpot replaces the royal flush's
    payout when the first and fifth cards are the jokers. ``jackpot_share`` percent of every
    progressive stake grows the jackpot; after a win it starts again at ``jackpot_seed``.
    """

    name: str
    roulette: Mapping[Kind, int]
    poker: Mapping[str, int]
    wild: int
    progressive: Mapping[str, int]
    progressive_stake: int = 1
    jackpot_share: int = 20
    jackpot_seed: int = 10_000
    min_bet: int = 1
    max_bet: int = 500
    note: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "roulette", _frozen(self.roulette))
        object.__setattr__(self, "poker", _frozen(self.poker))
        object.__setattr__(self, "progressive", _frozen(self.progressive))
        self.check()

    def check(self) -> None:
        """Raise PayTableError for anything a round could not settle."""
        for kind in ROULETTE_KINDS:
            _payout(self.roulette.get(kind), f"roulette.{kind}")
        extra = set(self.roulette) - set(ROULETTE_KINDS)
        if extra:
            raise PayTableError(_("roulette: no such bet {name}").format(
                name=repr(sorted(map(str, extra))[0])))
        if not self.poker:
            raise PayTableError(_("poker: the table offers no poker bet"))
        for hand, pays in self.poker.items():
            if hand not in LEVELS[2:]:
                raise PayTableError(_("poker: no such hand {name} (one of: {names})").format(
                    name=repr(hand), names=", ".join(LEVELS[2:])))
            _payout(pays, f"poker.{hand}")
        _payout(self.wild, "wild")
        for hand, pays in self.progressive.items():
            if hand not in LEVELS:
                raise PayTableError(_("progressive: no such hand {name}").format(
                    name=repr(hand)))
            _payout(pays, f"progressive.{hand}")
        for key, low in (("progressive_stake", 1), ("jackpot_seed", 0), ("min_bet", 1),
                         ("max_bet", 1)):
            _whole(getattr(self, key), key, low)
        _whole(self.jackpot_share, "jackpot_share", 0)
        if self.jackpot_share > 100:
            raise PayTableError(_("jackpot_share is a percentage of each progressive stake: "
                                  "0 to 100"))
        if self.max_bet < self.min_bet:
            raise PayTableError(_("max_bet must be at least min_bet"))
        for key in ("progressive_stake", "min_bet"):
            if getattr(self, key) > START_BANKROLL:
                raise PayTableError(_("{key} must be at most {most:,}, the bankroll a player "
                                      "starts with (got {value:,})").format(
                    key=key, most=START_BANKROLL, value=getattr(self, key)))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "roulette": {str(k): v for k, v in self.roulette.items()},
                "poker": dict(self.poker), "wild": self.wild,
                "progressive": dict(self.progressive),
                "progressive_stake": self.progressive_stake,
                "jackpot_share": self.jackpot_share, "jackpot_seed": self.jackpot_seed,
                "min_bet": self.min_bet, "max_bet": self.max_bet}

    @classmethod
    def from_dict(cls, data: Any, *, name: str | None = None) -> PayTable:
        """A table from a mapping (a file's, a save's); missing keys come from the default
        table. Raises PayTableError naming the key at fault."""
        if not isinstance(data, dict):
            raise PayTableError(_("a pay table is a mapping of keys to numbers"))
        known = {"name", "note", "roulette", "poker", "wild", "progressive",
                 "progressive_stake", "jackpot_share", "jackpot_seed", "min_bet", "max_bet"}
        for key in data:
            if key not in known:
                raise PayTableError(_("unknown key {name} (known: {names})").format(
                    name=repr(str(key)[:30]), names=", ".join(sorted(known))))
        base = DEFAULT
        roulette = dict(base.roulette)
        raw = data.get("roulette", {})
        if not isinstance(raw, dict):
            raise PayTableError(_("roulette: a table of bet kinds to payouts"))
        for k, v in raw.items():
            try:
                roulette[Kind(k)] = v
            except ValueError:
                raise PayTableError(_("roulette: no such bet {name} (one of: {names})").format(
                    name=repr(str(k)[:20]), names=", ".join(map(str, ROULETTE_KINDS)))) from None
        tables = {}
        for key in ("poker", "progressive"):
            raw = data.get(key, dict(getattr(base, key)))
            if not isinstance(raw, dict):
                raise PayTableError(_("{key}: a table of hands to payouts").format(key=key))
            tables[key] = dict(raw)
        fields = {k: data.get(k, getattr(base, k)) for k in (
            "wild", "progressive_stake", "jackpot_share", "jackpot_seed", "min_bet", "max_bet")}
        title = name or data.get("name") or "custom"
        if not isinstance(title, str) or not title.strip():
            raise PayTableError(_("name: a pay table's name is text"))
        return cls(name=title.strip()[:40], roulette=roulette, poker=tables["poker"],
                   progressive=tables["progressive"], note=str(data.get("note", ""))[:200],
                   **fields)

    def with_name(self, name: str) -> PayTable:
        return replace(self, name=name)


def _whole(value: Any, key: str, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise PayTableError(_("{key} must be a whole number of at least {low} (got {value})").format(
            key=key, low=low, value=f"{value!r:.20}"))
    return value


def _payout(value: Any, key: str) -> int:
    if value is None:
        raise PayTableError(_("{key}: missing").format(key=key))
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1_000_000:
        raise PayTableError(_("{key} must be a whole payout 'to 1' from 1 to 1000000 "
                              "(got {value})").format(key=key, value=f"{value!r:.20}"))
    return value


DEFAULT = PayTable(
    name="default",
    note=N_("the online game's published figures: pokeroulette rules --doc §6"),
    roulette={Kind.CARD: 51, Kind.SPLIT: 25, Kind.CORNER: 12, Kind.RANK: 12, Kind.RANKS2: 5,
              Kind.RANKS4: 2, Kind.RANKS6: 1, Kind.SUIT: 3, Kind.COLOUR: 1, Kind.PARITY: 1,
              Kind.HALF: 1, Kind.JOKER: 25},
    poker={"pair_6": 1, "two_pair": 6, "three_of_a_kind": 9, "straight": 45, "flush": 90,
           "full_house": 150, "four_of_a_kind": 280},
    wild=1250,
    progressive={"three_of_a_kind": 3, "straight": 5, "flush": 8, "full_house": 10,
                 "four_of_a_kind": 20, "straight_flush": 50, "royal_flush": 250,
                 "five_of_a_kind": 1000},
)

GENEROUS = PayTable(
    name="generous",
    note=N_("a house variant, not from a source: the default with richer poker, joker and "
            "side-bet payouts"),
    roulette=DEFAULT.roulette,
    poker={"pair_6": 1, "two_pair": 6, "three_of_a_kind": 9, "straight": 46, "flush": 100,
           "full_house": 160, "four_of_a_kind": 300},
    wild=1400,
    progressive={"three_of_a_kind": 4, "straight": 6, "flush": 10, "full_house": 12,
                 "four_of_a_kind": 25, "straight_flush": 75, "royal_flush": 500,
                 "five_of_a_kind": 2000},
    jackpot_share=25,
    max_bet=1000,
)

TIGHT = PayTable(
    name="tight",
    note=N_("a house variant, not from a source: the default with leaner payouts and a lower "
            "limit"),
    roulette={**DEFAULT.roulette, Kind.CARD: 49, Kind.SPLIT: 24, Kind.CORNER: 11,
              Kind.RANK: 11, Kind.JOKER: 24},
    poker={"pair_6": 1, "two_pair": 5, "three_of_a_kind": 8, "straight": 40, "flush": 80,
           "full_house": 125, "four_of_a_kind": 250},
    wild=1000,
    progressive={"three_of_a_kind": 2, "straight": 4, "flush": 6, "full_house": 8,
                 "four_of_a_kind": 15, "straight_flush": 40, "royal_flush": 200,
                 "five_of_a_kind": 800},
    jackpot_share=15,
    max_bet=250,
)

NAMED: dict[str, PayTable] = {"default": DEFAULT, "generous": GENEROUS, "tight": TIGHT}
"""The pay tables known by name (``--pay-table NAME``). Only ``default`` comes from a source
(the published figures of docs/RULES.md §6); ``generous`` and ``tight`` are house variants,
labelled so in their notes."""


def load_file(path: Path) -> PayTable:
    """A user's pay table from a TOML file, e.g.::

        name = "my table"
        wild = 1000
        [roulette]
        card = 50
        [poker]
        pair_6 = 1
        two_pair = 5

    Keys left out keep the default table's values. Raises PayTableError (one line)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PayTableError(_("cannot read {path}: {problem}").format(
            path=path, problem=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise PayTableError(_("{path} is not a text file").format(path=path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise PayTableError(_("{path} is not valid TOML: {problem}").format(
            path=path, problem=exc)) from None
    try:
        table = PayTable.from_dict(data, name=data.get("name") or path.stem)
    except PayTableError as exc:
        raise PayTableError(f"{path}: {exc}") from None
    if table.name in NAMED and table != NAMED[table.name]:  # (each table has its own jackpot)
        raise PayTableError(_("{path}: {name} is a built-in pay table's name (and its "
                              "jackpot's): give yours another, with name = \"...\" in the "
                              "file").format(path=path, name=repr(table.name)))
    return table


def find(name_or_path: str) -> PayTable:
    """A named table, or a table from a file; PayTableError saying which exist."""
    if name_or_path in NAMED:
        return NAMED[name_or_path]
    path = Path(name_or_path).expanduser()
    if path.suffix == ".toml" or path.exists():
        return load_file(path)
    raise PayTableError(_("no pay table called {name}: use one of {names} or a .toml "
                          "file").format(name=repr(name_or_path[:40]), names=", ".join(NAMED)))
