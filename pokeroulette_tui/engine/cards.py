"""Cards, jokers, shoes of N decks, and card text both ways ("As Td 10h *")."""

from __future__ import annotations

import math
import random
from typing import Iterable, NamedTuple

from pokeroulette_tui.engine.i18n import _, language, pgettext

SUITS = "SHDC"
"""Suit letters: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "*": "★"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "*": "joker"}
RANK_CHARS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9",
              10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
              8: "eight", 9: "nine", 10: "ten", 11: "jack", 12: "queen",
              13: "king", 14: "ace", 0: "joker"}
RANK_PLURALS = {r: (n + "es" if n.endswith("x") else n + "s") for r, n in RANK_NAMES.items()}


def _word_tables() -> tuple[dict[int, str], dict[int, str], dict[str, str]]:
    """Rank names, rank plurals and suit names in the player's language (made once per language)."""
    found = _WORD_CACHE.get(language())
    if found is None:
        found = _WORD_CACHE[language()] = (
            {2: pgettext("rank", "two"), 3: pgettext("rank", "three"), 4: pgettext("rank", "four"),
             5: pgettext("rank", "five"), 6: pgettext("rank", "six"), 7: pgettext("rank", "seven"),
             8: pgettext("rank", "eight"), 9: pgettext("rank", "nine"), 10: pgettext("rank", "ten"),
             11: pgettext("rank", "jack"), 12: pgettext("rank", "queen"), 13: pgettext("rank", "king"),
             14: pgettext("rank", "ace"), 0: pgettext("rank", "joker")},
            {2: pgettext("ranks", "twos"), 3: pgettext("ranks", "threes"), 4: pgettext("ranks", "fours"),
             5: pgettext("ranks", "fives"), 6: pgettext("ranks", "sixes"), 7: pgettext("ranks", "sevens"),
             8: pgettext("ranks", "eights"), 9: pgettext("ranks", "nines"), 10: pgettext("ranks", "tens"),
             11: pgettext("ranks", "jacks"), 12: pgettext("ranks", "queens"),
             13: pgettext("ranks", "kings"), 14: pgettext("ranks", "aces"), 0: pgettext("ranks", "jokers")},
            {"S": pgettext("suit", "spades"), "H": pgettext("suit", "hearts"),
             "D": pgettext("suit", "diamonds"), "C": pgettext("suit", "clubs"),
             "*": pgettext("suit", "joker")})
    return found


_WORD_CACHE: dict[str, tuple[dict[int, str], dict[int, str], dict[str, str]]] = {}


def rank_words(rank: int) -> str:
    """A rank's name in the player's language (RANK_NAMES stays English: it is data).

    >>> rank_words(12), rank_plural_words(6), suit_words("C")
    ('queen', 'sixes', 'clubs')
    """
    return _word_tables()[0][rank]


def rank_plural_words(rank: int) -> str:
    """A rank's plural (``sevens``) in the player's language."""
    return _word_tables()[1][rank]


def suit_words(suit: str) -> str:
    """A suit's name (``spades``; ``joker`` for a joker) in the player's language."""
    return _word_tables()[2].get(suit, _word_tables()[2]["*"])


_RANK_PARSE = {v: k for k, v in RANK_CHARS.items()} | {"10": 10, "1": 14}
_SUIT_PARSE = {"S": "S", "H": "H", "D": "D", "C": "C",
               "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
JOKER_RANK = 0
JOKER_SUIT = "*"


class CardError(ValueError):
    """Card text that does not name a card."""


class Card(NamedTuple):
    """A playing card: rank 2..14 (ace high) and a suit letter; rank 0 is a joker.

    >>> Card(14, "S")
    Card('As')
    >>> str(Card(10, "D")), Card(10, "D").symbol
    ('Td', 'T♦')
    """

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def text(self) -> str:
        """Short text: ``As``, ``Td``, ``*`` for a joker."""
        if self.rank == JOKER_RANK:
            return "*"
        return RANK_CHARS[self.rank] + self.suit.lower()

    @property
    def symbol(self) -> str:
        """Text with the suit symbol: ``A♠``; a joker is ``★``."""
        if self.rank == JOKER_RANK:
            return "★"
        return RANK_CHARS[self.rank] + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Words: ``ace of spades``, ``joker`` (in the player's language)."""
        if self.rank == JOKER_RANK:
            return _("joker")
        return _("{rank} of {suit}").format(rank=rank_words(self.rank), suit=suit_words(self.suit))

    @property
    def index(self) -> int:
        """0..51 for natural cards (rank-major), 52 for a joker."""
        if self.rank == JOKER_RANK:
            return 52
        return (self.rank - 2) * 4 + SUITS.index(self.suit)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"


JOKER = Card(JOKER_RANK, JOKER_SUIT)
STANDARD_DECK: tuple[Card, ...] = tuple(Card(r, s) for r in range(2, 15) for s in SUITS)
BY_INDEX: tuple[Card, ...] = STANDARD_DECK + (JOKER,)


def parse_card(text: str) -> Card:
    """Parse one card: ``As``, ``td``, ``10h``, ``A♠``, ``*`` or ``Jk`` for a joker.

    >>> parse_card("10h"), parse_card("*"), parse_card("q♣")
    (Card('Th'), Card('*'), Card('Qc'))
    >>> parse_card("Zz")
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.cards.CardError: 'Zz' is not a card (try As, Td, 10h or * for a joker)
    """
    raw = text.strip()
    up = raw.upper()
    if up in ("*", "JK", "JOKER", "★"):
        return JOKER
    if len(up) >= 2:
        rank = _RANK_PARSE.get(up[:-1])
        suit = _SUIT_PARSE.get(up[-1])
        if rank is not None and suit is not None:
            return Card(rank, suit)
    raise CardError(f"{raw!r} is not a card (try As, Td, 10h or * for a joker)")


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas.

    >>> parse_cards("As Td 10h 2c *")
    [Card('As'), Card('Td'), Card('Th'), Card('2c'), Card('*')]
    >>> parse_cards("")
    []
    """
    return [parse_card(t) for t in text.replace(",", " ").split()]


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of :func:`parse_cards`.

    >>> format_cards(parse_cards("as 10h *"))
    'As Th *'
    """
    return " ".join(c.text for c in cards)


def decks_for(players: int) -> int:
    """Decks for a Poker Roulette table: one per five players, at least one.

    >>> [decks_for(n) for n in (2, 3, 5, 6, 10, 11)]
    [1, 1, 1, 2, 2, 3]
    """
    return max(1, math.ceil(players / 5))


def make_shoe(decks: int = 1, *, jokers: bool = True) -> list[Card]:
    """An unshuffled shoe: ``decks`` × (52 cards, plus 2 jokers if ``jokers``).

    >>> len(make_shoe(2)), len(make_shoe(1, jokers=False))
    (108, 52)
    """
    one = list(STANDARD_DECK) + ([JOKER, JOKER] if jokers else [])
    return one * decks


def shuffled(cards: list[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy, drawn with the given generator (seeded or a CSPRNG)."""
    out = list(cards)
    rng.shuffle(out)
    return out


def card_to_json(card: Card | None) -> str | None:
    """Card as JSON text (``None`` stays ``None`` for a hidden card)."""
    return None if card is None else card.text


def card_from_json(text: str | None) -> Card | None:
    return None if text is None else parse_card(text)
