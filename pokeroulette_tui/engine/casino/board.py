"""The casino board and its bets.

The board is the 52 cards in a grid of four rows (the suits ♠ ♥ ♦ ♣, top to bottom) and
thirteen columns (the ranks 2 … A, left to right), and the joker spot beside it. Two cards
*adjoin* when they are side by side in a row (same suit, neighbouring ranks) or one above
the other in a column (same rank, neighbouring suits); four adjoining cards are a 2×2 block.

Roulette bets (settled on the fifth card; a joker there loses them all but the joker spot):

============  ===========================================  ==================
kind          target (its text)                            wins when the 5th card
============  ===========================================  ==================
``card``      one card: ``As``                             is that card
``split``     two adjoining cards: ``As Ks``               is one of them
``corner``    a 2×2 block: ``Ks As Kh Ah``                 is one of them
``rank``      a rank: ``A``                                has that rank
``ranks2``    two neighbouring ranks: ``23``               has one of them
``ranks4``    four neighbouring ranks: ``2345``            has one of them
``ranks6``    six neighbouring ranks: ``234567``           has one of them
``suit``      a suit: ``S``                                has that suit
``colour``    ``red`` or ``black``                         has that colour
``parity``    ``odd`` (3 5 7 9 J K) or ``even`` (2 … Q)    has such a rank
``half``      ``low`` (2–7) or ``high`` (8–K)              has such a rank
``joker``     (none)                                       is a joker
============  ===========================================  ==================

*Decision:* the ace is the board's zero for the rank bets that split the ranks in two: it is
neither odd nor even, neither low nor high (so both halves have six ranks, 24 cards each).

The other bets: ``poker`` (target a hand class such as ``pair_6``, settled on all five
cards, jokers wild, "or better"), ``wild`` (the joker bet: first and fifth cards both
jokers) and ``progressive`` (the side bet of one fixed unit).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from pokeroulette_tui.engine.cards import (
    JOKER,
    RANK_CHARS,
    STANDARD_DECK,
    SUIT_SYMBOLS,
    Card,
    CardError,
    parse_card,
    rank_plural_words,
    rank_words,
    suit_words,
)
from pokeroulette_tui.engine.i18n import N_, _, pgettext

ROWS = "SHDC"
"""The suits, top row first."""
COLUMNS = tuple(range(2, 15))
"""The ranks, left column first (2 … A)."""
RED = frozenset("HD")
ODD = frozenset((3, 5, 7, 9, 11, 13))
EVEN = frozenset((2, 4, 6, 8, 10, 12))
LOW = frozenset(range(2, 8))
HIGH = frozenset(range(8, 14))
DECK: tuple[Card, ...] = STANDARD_DECK + (JOKER, JOKER)
"""The casino's deck: 52 cards and two jokers."""


class BetError(ValueError):
    """A bet that cannot be placed; the message says why in words."""


class Kind(StrEnum):
    """The kinds of bet, each equal to its name in saves and on the wire."""

    CARD = "card"
    SPLIT = "split"
    CORNER = "corner"
    RANK = "rank"
    RANKS2 = "ranks2"
    RANKS4 = "ranks4"
    RANKS6 = "ranks6"
    SUIT = "suit"
    COLOUR = "colour"
    PARITY = "parity"
    HALF = "half"
    JOKER = "joker"
    POKER = "poker"
    WILD = "wild"
    PROGRESSIVE = "progressive"


ROULETTE_KINDS = (Kind.CARD, Kind.SPLIT, Kind.CORNER, Kind.RANK, Kind.RANKS2, Kind.RANKS4,
                  Kind.RANKS6, Kind.SUIT, Kind.COLOUR, Kind.PARITY, Kind.HALF, Kind.JOKER)
"""The bets settled on the fifth card."""

KIND_WORDS = {
    Kind.CARD: N_("a single card"), Kind.SPLIT: N_("two adjoining cards"),
    Kind.CORNER: N_("four adjoining cards"), Kind.RANK: N_("a rank"),
    Kind.RANKS2: N_("two ranks"), Kind.RANKS4: N_("four ranks"), Kind.RANKS6: N_("six ranks"),
    Kind.SUIT: N_("a suit"), Kind.COLOUR: N_("red or black"), Kind.PARITY: N_("odd or even"),
    Kind.HALF: N_("2–7 or 8–K"), Kind.JOKER: N_("the joker spot"),
    Kind.POKER: N_("a poker hand or better"),
    Kind.WILD: N_("the joker bet (first and fifth cards jokers)"),
    Kind.PROGRESSIVE: N_("the progressive side bet"),
}
"""Each kind of bet in words (English: translate with :func:`kind_words`)."""

OUTSIDE_WORDS = {"red": N_("red"), "black": N_("black"), "odd": N_("odd"), "even": N_("even")}
"""The outside bets' targets as a player reads them (the targets themselves stay English)."""


def kind_words(kind: Kind) -> str:
    """A kind of bet in the player's language ("a single card")."""
    return _(KIND_WORDS[kind])

_RANK_PARSE = {v: k for k, v in RANK_CHARS.items()} | {"10": 10}


def cell(card: Card) -> tuple[int, int]:
    """(row, column) of a natural card on the board."""
    return ROWS.index(card.suit), COLUMNS.index(card.rank)


def at(row: int, column: int) -> Card:
    """The card at (row, column)."""
    return Card(COLUMNS[column], ROWS[row])


def adjoin(a: Card, b: Card) -> bool:
    """Side by side in a row or one above the other in a column."""
    if a.is_joker or b.is_joker:
        return False
    (ra, ca), (rb, cb) = cell(a), cell(b)
    return abs(ra - rb) + abs(ca - cb) == 1


def _cards(text: str) -> tuple[Card, ...]:
    try:
        cards = tuple(parse_card(t) for t in text.split())
    except CardError as exc:
        raise BetError(str(exc)) from None
    if any(c.is_joker for c in cards):
        raise BetError(_("the joker is its own spot, not part of a group of cards"))
    return cards


def _ranks(text: str) -> tuple[int, ...]:
    out, t = [], text.strip().upper()
    while t:
        key = "10" if t.startswith("10") else t[0]
        if key not in _RANK_PARSE:
            raise BetError(_("not a rank: {text}").format(text=repr(t[:2])))
        out.append(_RANK_PARSE[key])
        t = t[len(key):].lstrip(" ,-")
    return tuple(out)


def _rank_text(ranks: tuple[int, ...]) -> str:
    return "".join(RANK_CHARS[r] for r in ranks)


@dataclass(frozen=True, slots=True)
class Bet:
    """A bet: its kind, its target (as text; see the module) and its stake in chips."""

    kind: Kind
    target: str
    amount: int

    def to_dict(self) -> dict[str, object]:
        return {"kind": str(self.kind), "target": self.target, "amount": self.amount}

    @classmethod
    def from_dict(cls, data: object) -> Bet:
        if not isinstance(data, dict):
            raise BetError(_("a bet must be a mapping"))
        amount = data.get("amount")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BetError(_("a bet's amount must be a whole number of chips"))
        return make_bet(str(data.get("kind", "")), str(data.get("target", "")), amount)

    @property
    def spot(self) -> tuple[Kind, str]:
        """Where the chips lie: bets on the same spot are one bet."""
        return self.kind, self.target


def make_bet(kind: str, target: str, amount: int) -> Bet:
    """A bet with its target checked and written the one way (raises BetError, saying what
    is wrong). Poker targets are checked against a pay table by the round, not here."""
    try:
        k = Kind(kind)
    except ValueError:
        raise BetError(_("there is no bet called {name}").format(name=repr(kind[:20]))) from None
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise BetError(_("a bet must be at least one chip"))
    return Bet(k, canonical_target(k, target), amount)


def canonical_target(kind: Kind, target: str) -> str:
    """The one way to write ``target`` for ``kind`` (raises BetError)."""
    t = target.strip()
    if kind is Kind.CARD:
        cards = _cards(t)
        if len(cards) != 1:
            raise BetError(_("a single-card bet names one card, e.g. 'As'"))
        return cards[0].text
    if kind in (Kind.SPLIT, Kind.CORNER):
        cards = tuple(sorted(set(_cards(t)), key=cell))
        n = 2 if kind is Kind.SPLIT else 4
        if len(cards) != n:
            raise BetError(_("{kind}: name {n} different cards").format(kind=kind_words(kind),
                                                                        n=n))
        if kind is Kind.SPLIT and not adjoin(*cards):
            raise BetError(_("{first} and {second} do not adjoin on the board (same suit and "
                             "neighbouring ranks, or same rank and neighbouring suits)").format(
                first=cards[0].symbol, second=cards[1].symbol))
        if kind is Kind.CORNER:
            rows = sorted({cell(c)[0] for c in cards})
            cols = sorted({cell(c)[1] for c in cards})
            if len(rows) != 2 or len(cols) != 2 or rows[1] - rows[0] != 1 \
                    or cols[1] - cols[0] != 1:
                raise BetError(_("four adjoining cards make a 2×2 block on the board"))
        return " ".join(c.text for c in cards)
    if kind is Kind.RANK:
        ranks = _ranks(t)
        if len(ranks) != 1:
            raise BetError(_("a rank bet names one rank, e.g. 'A'"))
        return _rank_text(ranks)
    if kind in (Kind.RANKS2, Kind.RANKS4, Kind.RANKS6):
        n = {Kind.RANKS2: 2, Kind.RANKS4: 4, Kind.RANKS6: 6}[kind]
        ranks = tuple(sorted(set(_ranks(t))))
        if len(ranks) == 1 and n > 1:  # the first rank of the group is enough
            first = COLUMNS.index(ranks[0])
            if first + n > len(COLUMNS):
                raise BetError(_("{n} ranks from {rank} run off the board").format(
                    n=n, rank=rank_words(ranks[0])))
            ranks = COLUMNS[first:first + n]
        if len(ranks) != n or ranks[-1] - ranks[0] != n - 1:
            raise BetError(_("{kind}: {n} neighbouring ranks, e.g. '{example}'").format(
                kind=kind_words(kind), n=n, example=_rank_text(COLUMNS[:n])))
        return _rank_text(ranks)
    if kind is Kind.SUIT:
        suit = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D",
                "♣": "C"}.get(t.upper()[:1] if t else "")
        if suit is None or len(t) != 1:
            raise BetError(_("a suit bet names a suit: S, H, D or C"))
        return suit
    words = {Kind.COLOUR: ("red", "black"), Kind.PARITY: ("odd", "even"),
             Kind.HALF: ("low", "high")}
    if kind in words:
        if t.lower() not in words[kind]:
            raise BetError(_("{kind}: say '{first}' or '{second}'").format(
                kind=kind_words(kind), first=words[kind][0], second=words[kind][1]))
        return t.lower()
    if kind is Kind.POKER:
        if not t:
            raise BetError(_("a poker bet names a hand, e.g. 'pair_6'"))
        return t.lower()
    return ""  # joker spot, joker bet, progressive: no target


def covers(bet: Bet) -> frozenset[Card]:
    """The fifth cards a roulette bet wins on (empty for the other bets)."""
    return _covers(bet.kind, bet.target)


@lru_cache(maxsize=512)
def _covers(k: Kind, t: str) -> frozenset[Card]:
    if k is Kind.JOKER:
        return frozenset((JOKER,))
    if k in (Kind.CARD, Kind.SPLIT, Kind.CORNER):
        return frozenset(parse_card(x) for x in t.split())
    test = None
    if k in (Kind.RANK, Kind.RANKS2, Kind.RANKS4, Kind.RANKS6):
        ranks = set(_ranks(t))
        test = lambda c: c.rank in ranks
    elif k is Kind.SUIT:
        test = lambda c: c.suit == t
    elif k is Kind.COLOUR:
        test = lambda c: (c.suit in RED) == (t == "red")
    elif k is Kind.PARITY:
        test = lambda c: c.rank in (ODD if t == "odd" else EVEN)
    elif k is Kind.HALF:
        test = lambda c: c.rank in (LOW if t == "low" else HIGH)
    if test is None:
        return frozenset()
    return frozenset(c for c in STANDARD_DECK if test(c))


def describe(bet: Bet) -> str:
    """The bet's spot in words, in the player's language: "A♠ or K♠", "the aces", "red",
    "pair_6" (a poker bet: the pay table's HAND_WORDS name it)."""
    k, t = bet.kind, bet.target
    if k in (Kind.CARD, Kind.SPLIT, Kind.CORNER):
        return pgettext("list", " or ").join(parse_card(x).symbol for x in t.split())
    if k is Kind.RANK:
        return _("the {ranks}").format(ranks=rank_plural_words(_ranks(t)[0]))
    if k in (Kind.RANKS2, Kind.RANKS4, Kind.RANKS6):
        r = _ranks(t)
        return f"{RANK_CHARS[r[0]]}–{RANK_CHARS[r[-1]]}".replace("T", "10")
    if k is Kind.SUIT:
        return f"{SUIT_SYMBOLS[t]} {suit_words(t)}"
    if k is Kind.HALF:
        return "2–7" if t == "low" else "8–K"
    if k in (Kind.COLOUR, Kind.PARITY):
        return _(OUTSIDE_WORDS.get(t, t))
    if k is Kind.JOKER:
        return _("the joker spot")
    if k is Kind.POKER:
        return t  # named by the pay table (see paytable.HAND_WORDS)
    return kind_words(k)
