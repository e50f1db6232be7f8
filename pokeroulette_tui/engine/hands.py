"""Poker hand evaluation for Poker Roulette and five-card draw.

The best hand of at most five cards is made from a stock of any size (RULES.md
2.4): jokers are wild (or removed), five of a kind ranks above a straight
flush (or counts as four of a kind), an ace plays low in A-2-3-4-5, a stock
of four or fewer cards plays all its cards, and ties of category and ranks
can be broken by an agreed suit ranking.

Two entry points:

* :func:`evaluate` returns a :class:`HandValue`: the category, the ranks that
  define it (then kickers), the cards that make it and what each card plays
  as. It handles jokers, any stock size and the suit tie-break.
* :func:`strength` returns a plain ``int`` that orders hands exactly like
  :class:`HandValue` does (suits ignored). It is the fast path for natural
  5- to 7-card hands (complete five-card tables built on first use, a
  bit-parallel evaluation of the rank multiset or the flush suit's rank mask
  for six and seven, with a bounded memo) and falls back to :func:`evaluate`
  for anything else.

Rank encoding of :attr:`HandValue.ranks`:

==================  =================================================
category            ranks
==================  =================================================
five of a kind      ``(r,)``
straight flush      ``(top,)`` (A-2-3-4-5 has top 5)
four of a kind      ``(quad, kicker)`` (``(r, r)`` for five of a kind
                    with ``five_of_a_kind="as_four"``)
full house          ``(trips, pair)``
flush               the five ranks, high to low (duplicates possible with
                    several decks or jokers)
straight            ``(top,)``
three of a kind     ``(trips, kicker, kicker)``
two pair            ``(high pair, low pair, kicker)``
pair                ``(pair, kicker, kicker, kicker)``
high card           up to five ranks, high to low
==================  =================================================

Short stocks have fewer kickers, and a missing kicker is lower than any card,
which plain tuple comparison of ``ranks`` gives.

Order of significance of :attr:`HandValue.cards` (used by the suit
tie-break): the order of the expanded ranks above, e.g. a full house
``K K K 2 2``; a straight from its top card down (the ace of A-2-3-4-5
last); within one rank, higher suit first and a joker after every natural
card.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Sequence

from .cards import (  # noqa: F401 (format_cards, parse_cards: for the doctests)
    BY_INDEX,
    JOKER,
    STANDARD_DECK,
    SUITS,
    Card,
    format_cards,
    parse_cards,
    rank_plural_words,
    rank_words,
)
from .i18n import N_, _

__all__ = [
    "CATEGORY_NAMES",
    "Category",
    "category_words",
    "describe_ranks",
    "HandValue",
    "compare",
    "evaluate",
    "strength",
    "suit_key",
]


class Category(IntEnum):
    """Hand categories, low to high.

    >>> Category.FLUSH > Category.STRAIGHT
    True
    >>> Category(9).name
    'FIVE_OF_A_KIND'
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    FIVE_OF_A_KIND = 9


CATEGORY_NAMES: dict[Category, str] = {
    Category.HIGH_CARD: N_("high card"),
    Category.PAIR: N_("pair"),
    Category.TWO_PAIR: N_("two pair"),
    Category.THREE_OF_A_KIND: N_("three of a kind"),
    Category.STRAIGHT: N_("straight"),
    Category.FLUSH: N_("flush"),
    Category.FULL_HOUSE: N_("full house"),
    Category.FOUR_OF_A_KIND: N_("four of a kind"),
    Category.STRAIGHT_FLUSH: N_("straight flush"),
    Category.FIVE_OF_A_KIND: N_("five of a kind"),
}
"""Plain names of the categories (the royal flush is named by :meth:`HandValue.describe`);
marked for translation: show them with :func:`category_words`."""


def category_words(category: Category) -> str:
    """A category's name in the player's language.

    >>> category_words(Category.FULL_HOUSE)
    'full house'
    """
    return _(CATEGORY_NAMES[Category(category)])

_CATS = tuple(Category)
_HIGH, _PAIR, _TWO, _TRIPS, _STRAIGHT, _FLUSH, _FULL, _FOUR, _SF, _FIVE = range(10)

FIVE_OF_A_KIND_OPTIONS = ("high", "as_four")
JOKERS_OPTIONS = ("wild", "removed")


@dataclass(frozen=True, eq=False, slots=True)
class HandValue:
    """The best hand of a stock.

    Comparisons (``<``, ``==``, ``hash`` …) use ``(category, ranks)`` only;
    suits never count here (see :func:`compare` for the suit tie-break).

    Attributes:
        category: The hand category.
        ranks: Defining ranks then kickers, most significant first.
        cards: The cards that make the hand (at most five), in order of
            significance; a joker appears as ``JOKER``.
        stands_for: Same length as ``cards``: what each card plays as (a
            joker is replaced by the natural card it stands for).

    >>> a = evaluate(parse_cards("7s 7h Kd 4c 2s"))
    >>> b = evaluate(parse_cards("7d 7c Kh 4s 2d"))
    >>> a == b, a < evaluate(parse_cards("7d 7c Kh 5s 2d"))
    (True, True)
    """

    category: Category
    ranks: tuple[int, ...]
    cards: tuple[Card, ...]
    stands_for: tuple[Card, ...]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.category == other.category and self.ranks == other.ranks

    def __hash__(self) -> int:
        return hash((int(self.category), self.ranks))

    def __lt__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (self.category, self.ranks) < (other.category, other.ranks)

    def __le__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (self.category, self.ranks) <= (other.category, other.ranks)

    def __gt__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (self.category, self.ranks) > (other.category, other.ranks)

    def __ge__(self, other: HandValue) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return (self.category, self.ranks) >= (other.category, other.ranks)

    @property
    def strength(self) -> int:
        """The same ``int`` as :func:`strength` gives for these cards.

        >>> evaluate(parse_cards("As Ks")).strength == strength(parse_cards("As Ks"))
        True
        """
        return _encode(self.category, self.ranks)

    def describe(self) -> str:
        """The hand in words.

        Returns:
            E.g. ``"pair of sevens"``, ``"two pair, kings and fives"``,
            ``"ace-high straight"``, ``"royal flush"``,
            ``"full house, tens over twos"``, ``"jack high"``.

        >>> evaluate(parse_cards("Th Tc Td 2s 2h")).describe()
        'full house, tens over twos'
        >>> evaluate(parse_cards("Ah Kh Qh Jh *")).describe()
        'royal flush'
        >>> evaluate(parse_cards("Js 9h 4d 3c 2s")).describe()
        'jack high'
        """
        return describe_ranks(self.category, self.ranks)


def describe_ranks(category: int, ranks: Sequence[int]) -> str:
    """A hand in words from its category and its defining ranks (high first; only the first
    one or two are named), in the player's language: what :meth:`HandValue.describe` says.

    >>> describe_ranks(Category.TWO_PAIR, (13, 5, 9)), describe_ranks(Category.STRAIGHT, (5,))
    ('two pair, kings and fives', 'five-high straight')
    """
    cat, r = category, ranks
    if not r:
        return _("no cards")
    one = rank_words(r[0])
    many = rank_plural_words(r[0])
    if cat == _HIGH:
        return _("{rank} high").format(rank=one)
    if cat == _PAIR:
        return _("pair of {ranks}").format(ranks=many)
    if cat == _TWO:
        return _("two pair, {ranks} and {other}").format(ranks=many, other=rank_plural_words(r[1]))
    if cat == _TRIPS:
        return _("three of a kind, {ranks}").format(ranks=many)
    if cat == _STRAIGHT:
        return _("{rank}-high straight").format(rank=one)
    if cat == _FLUSH:
        return _("{rank}-high flush").format(rank=one)
    if cat == _FULL:
        return _("full house, {ranks} over {other}").format(ranks=many,
                                                             other=rank_plural_words(r[1]))
    if cat == _FOUR:
        return _("four of a kind, {ranks}").format(ranks=many)
    if cat == _SF:
        if r[0] == 14:
            return _("royal flush")
        return _("{rank}-high straight flush").format(rank=one)
    return _("five of a kind, {ranks}").format(ranks=many)


# ---------------------------------------------------------------------------
# option checks and suit scores

_SCORES: dict[str, dict[str, int]] = {}
_SORT_KEYS: dict[str, dict[Card, int]] = {}


def _check_suit_order(suit_order: str) -> str:
    if not isinstance(suit_order, str) or sorted(suit_order.upper()) != sorted(SUITS):
        raise ValueError(
            f"suit_order must be a permutation of {SUITS!r} (highest suit first), "
            f"got {suit_order!r}"
        )
    return suit_order.upper()


def _scores(suit_order: str) -> dict[str, int]:
    """Suit scores for an order: highest suit 4 … lowest 1, joker 0."""
    sc = _SCORES.get(suit_order)
    if sc is None:
        order = _check_suit_order(suit_order)
        sc = {s: 4 - i for i, s in enumerate(order)}
        sc["*"] = 0
        _SCORES[suit_order] = sc
        _SORT_KEYS[suit_order] = {c: c.rank * 8 + sc[c.suit] for c in STANDARD_DECK}
    return sc


def _sorted_naturals(cards, suit_order: str) -> list:
    """The natural cards, high to low by rank, then by suit in ``suit_order``."""
    nat = [c for c in cards if c[0]]
    try:
        nat.sort(key=_SORT_KEYS[suit_order].__getitem__, reverse=True)
    except (KeyError, TypeError):
        bad = [c for c in nat if c not in _SORT_KEYS[suit_order]]
        raise ValueError(f"not a card: {tuple(bad[0])!r}") from None
    return nat


def _check_foak(five_of_a_kind: str) -> bool:
    if five_of_a_kind == "high":
        return True
    if five_of_a_kind == "as_four":
        return False
    raise ValueError(
        f"five_of_a_kind must be one of {FIVE_OF_A_KIND_OPTIONS}, got {five_of_a_kind!r}"
    )


def _check_jokers(jokers: str) -> bool:
    if jokers == "wild":
        return True
    if jokers == "removed":
        return False
    raise ValueError(f"jokers must be one of {JOKERS_OPTIONS}, got {jokers!r}")


def _encode(category: int, ranks: Sequence[int]) -> int:
    """Pack (category, ranks) in an int with the same order (missing kicker = 0)."""
    v = int(category)
    for i in range(5):
        v = (v << 4) | (ranks[i] if i < len(ranks) else 0)
    return v


# ---------------------------------------------------------------------------
# the general evaluator

# five-rank windows of a straight by top rank; bit 1 is the ace playing low
_WINDOWS = tuple((top, 0b11111 << (top - 4)) for top in range(14, 4, -1))


# bounded by its domain: a rank mask (bits 2..14) and 0..5 jokers, at most 8,192 × 6 keys
_STRAIGHT_MEMO: dict[int, int] = {}


def _straight_top(mask: int, jokers: int) -> int:
    """Top rank of the best straight in a rank mask with ``jokers`` wild cards, or 0."""
    key = mask << 3 | (jokers if jokers < 5 else 5)
    top = _STRAIGHT_MEMO.get(key)
    if top is None:
        top = 0
        bits = mask | 2 if mask & 0x4000 else mask
        for t, window in _WINDOWS:
            if (bits & window).bit_count() + jokers >= 5:
                top = t
                break
        _STRAIGHT_MEMO[key] = top
    return top


def _joker_suit(rank: int, taken: set, order: str) -> str:
    """A suit for a joker standing for ``rank``: the highest one not yet in the hand."""
    for s in order:
        if (rank, s) not in taken:
            taken.add((rank, s))
            return s
    return order[0]


def _build(groups, nkick, by_rank, jokers, order):
    """Cards for rank groups ``[(rank, count)]`` plus the ``nkick`` best kickers.

    Naturals of the best suits are taken first (``by_rank`` lists are sorted
    by suit, best first); jokers fill what is missing. Leftover jokers play as
    aces among the kickers, after any natural ace.

    Returns:
        (cards, stands_for, kicker_ranks)
    """
    cards: list = []
    stands: list = []
    used = [0] * 15
    taken: set = set()
    jl = jokers
    for r, k in groups:
        lst = by_rank[r]
        u = used[r]
        sel = lst[u:u + k]
        used[r] = u + len(sel)
        cards += sel
        stands += sel
        for c in sel:
            taken.add((r, c[1]))
        for __ in range(k - len(sel)):
            cards.append(JOKER)
            stands.append(Card(r, _joker_suit(r, taken, order)))
            jl -= 1
    kranks: list[int] = []
    r = 14
    while nkick > 0 and r > 1:
        lst = by_rank[r]
        u = used[r]
        if u < len(lst):
            sel = lst[u:u + nkick]
            used[r] = u + len(sel)
            nkick -= len(sel)
            cards += sel
            stands += sel
            kranks += [r] * len(sel)
            for c in sel:
                taken.add((r, c[1]))
        if r == 14:
            while nkick > 0 and jl > 0:
                cards.append(JOKER)
                stands.append(Card(14, _joker_suit(14, taken, order)))
                kranks.append(14)
                jl -= 1
                nkick -= 1
        r -= 1
    return cards, stands, kranks


def _skey(cards, sc) -> tuple:
    return tuple([sc[c[1]] for c in cards])


def _best(nat: list, j: int, high: bool, order: str, sc: dict) -> HandValue:
    """Best hand of the natural cards ``nat`` plus ``j`` wild jokers.

    Categories are tried from the top down; the first one that can be made
    is the best, and within it the defining ranks and then the kickers are
    each chosen as high as possible. ``nat`` must be sorted high to low by
    (rank, suit score).
    """
    n = len(nat) + j
    if n == 0:
        return HandValue(Category.HIGH_CARD, (), (), ())
    by_rank: list[list] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
    by_suit: dict[str, list] = {"S": [], "H": [], "D": [], "C": []}
    for c in nat:
        by_rank[c[0]].append(c)
        by_suit[c[1]].append(c)
    cnt = [len(x) for x in by_rank]
    present = [r for r in range(14, 1, -1) if cnt[r]]
    top5 = n if n < 5 else 5

    def done(cat, defining, groups):
        used = 0
        for __, k in groups:
            used += k
        cards, stands, kr = _build(groups, top5 - used, by_rank, j, order)
        return HandValue(_CATS[cat], tuple(defining) + tuple(kr), tuple(cards), tuple(stands))

    flush_suits: list[str] = []
    if n >= 5:
        # five of a kind
        if high:
            if j >= 5:
                return done(_FIVE, (14,), [(14, 5)])
            for r in present:
                if cnt[r] + j >= 5:
                    return done(_FIVE, (r,), [(r, 5)])
        # straight flush (flush suits are tried in suit order)
        flush_suits = [s for s in order if len(by_suit[s]) + j >= 5]
        if flush_suits:
            best_top = 0
            cands: list[str] = []
            for s in flush_suits:
                mask = 0
                for c in by_suit[s]:
                    mask |= 1 << c[0]
                top = _straight_top(mask, j)
                if top > best_top:
                    best_top, cands = top, [s]
                elif top and top == best_top:
                    cands.append(s)
            if best_top:
                best = None
                for s in cands:
                    first: dict[int, Card] = {}
                    for c in by_suit[s]:
                        first.setdefault(c[0], c)
                    cards, stands = [], []
                    for r in range(best_top, best_top - 5, -1):
                        rr = 14 if r == 1 else r
                        c = first.get(rr)
                        cards.append(c if c is not None else JOKER)
                        stands.append(c if c is not None else Card(rr, s))
                    key = _skey(cards, sc)
                    if best is None or key > best[0]:
                        best = (key, cards, stands)
                return HandValue(Category.STRAIGHT_FLUSH, (best_top,), tuple(best[1]), tuple(best[2]))
    if n >= 4:
        # four of a kind
        if j >= 4:
            return done(_FOUR, (14,), [(14, 4)])
        for r in present:
            if cnt[r] + j >= 4:
                return done(_FOUR, (r,), [(r, 4)])
    if n >= 5:
        # full house
        for t in present:
            if cnt[t] + j < 3:
                continue
            rem = j - (3 - cnt[t] if cnt[t] < 3 else 0)
            if rem >= 2:  # not reached: trips and two jokers make four of a kind
                p = 14 if t != 14 else 13
                return done(_FULL, (t, p), [(t, 3), (p, 2)])
            for p in present:
                if p != t and cnt[p] + rem >= 2:
                    return done(_FULL, (t, p), [(t, 3), (p, 2)])
        # flush: jokers play as aces of the suit
        if flush_suits:
            k = j if j < 5 else 5
            fbest = None
            for s in flush_suits:
                lst = by_suit[s][:5 - k]
                ranks = (14,) * k + tuple([c[0] for c in lst])
                if fbest is not None and ranks < fbest[0]:
                    continue
                na = 0
                while na < len(lst) and lst[na][0] == 14:
                    na += 1
                cards = lst[:na] + [JOKER] * k + lst[na:]
                stands = lst[:na] + [Card(14, s)] * k + lst[na:]
                key = _skey(cards, sc)
                if fbest is None or ranks > fbest[0] or key > fbest[1]:
                    fbest = (ranks, key, cards, stands)
            return HandValue(Category.FLUSH, fbest[0], tuple(fbest[2]), tuple(fbest[3]))
        # straight
        mask = 0
        for r in present:
            mask |= 1 << r
        top = _straight_top(mask, j)
        if top:
            cards, stands = [], []
            taken: set = set()
            for r in range(top, top - 5, -1):
                rr = 14 if r == 1 else r
                if cnt[rr]:
                    c = by_rank[rr][0]
                    cards.append(c)
                    stands.append(c)
                else:
                    cards.append(JOKER)
                    stands.append(Card(rr, _joker_suit(rr, taken, order)))
            return HandValue(Category.STRAIGHT, (top,), tuple(cards), tuple(stands))
    if n >= 3:
        # three of a kind
        if j >= 3:
            return done(_TRIPS, (14,), [(14, 3)])
        for r in present:
            if cnt[r] + j >= 3:
                return done(_TRIPS, (r,), [(r, 3)])
    if n >= 4:
        # two pair (only without jokers: a pair and a joker make trips)
        for p1 in present:
            if cnt[p1] + j < 2:
                continue
            rem = j - (2 - cnt[p1] if cnt[p1] < 2 else 0)
            for p2 in present:
                if p2 < p1 and cnt[p2] + rem >= 2:
                    return done(_TWO, (p1, p2), [(p1, 2), (p2, 2)])
    if n >= 2:
        # pair
        if j >= 2:
            return done(_PAIR, (14,), [(14, 2)])
        for r in present:
            if cnt[r] + j >= 2:
                return done(_PAIR, (r,), [(r, 2)])
    return done(_HIGH, (), [])


def evaluate(
    cards: Sequence[Card],
    *,
    five_of_a_kind: str = "high",
    jokers: str = "wild",
    suit_order: str | None = None,
) -> HandValue:
    """The best poker hand of at most five cards from a stock.

    Args:
        cards: Any number of cards (several decks may give duplicates); a
            joker is ``Card(0, "*")``.
        five_of_a_kind: ``"high"`` (five of a kind beats a straight flush) or
            ``"as_four"`` (it counts as four of a kind, ranks ``(r, r)``).
        jokers: ``"wild"`` (each joker stands for any card) or ``"removed"``
            (jokers are dropped first).
        suit_order: A permutation of ``"SHDC"``, highest suit first. Among
            the ways to make the best (category, ranks), the cards best by
            that suit tie-break are chosen. ``None`` chooses as if
            ``"SHDC"`` (the value is the same; only the cards may differ).

    Returns:
        The :class:`HandValue`. With five or more cards the hand has five
        cards; with fewer, all cards play. No cards: high card, no ranks.

    Raises:
        ValueError: For an unknown option value.

    >>> evaluate(parse_cards("As 2d 3c 4h 5s 9c Kd")).describe()
    'five-high straight'
    >>> v = evaluate(parse_cards("Qs Qh * 7d"))
    >>> v.category.name, v.ranks, format_cards(v.stands_for)
    ('THREE_OF_A_KIND', (12, 7), 'Qs Qh Qd 7d')
    >>> evaluate(parse_cards("9s 9h 9d 9c *"), five_of_a_kind="as_four").ranks
    (9, 14)
    >>> evaluate(parse_cards("* *"), jokers="removed")
    HandValue(category=<Category.HIGH_CARD: 0>, ranks=(), cards=(), stands_for=())
    """
    high = _check_foak(five_of_a_kind)
    wild = _check_jokers(jokers)
    order = "SHDC" if suit_order is None else _check_suit_order(suit_order)
    if not isinstance(cards, (list, tuple)):
        cards = list(cards)
    sc = _scores(order)
    nat = _sorted_naturals(cards, order)
    j = len(cards) - len(nat) if wild else 0
    return _best(nat, j, high, order, sc)


def suit_key(value: HandValue, suit_order: str) -> tuple:
    """A key for the suit tie-break of two hands of equal (category, ranks).

    The cards are compared in order of significance, suit against suit:
    higher suit better, a joker below every natural suit. The key sorts the
    cards of each rank by ``suit_order`` itself, so it is right for any
    hand, but only :func:`evaluate` given the same order picks the cards
    that are best by it.

    Args:
        value: A hand.
        suit_order: A permutation of ``"SHDC"``, highest suit first.

    Returns:
        A tuple of suit scores (4 for the highest suit … 1, 0 for a joker).

    >>> v = evaluate(parse_cards("Kh Ks 2c 2d 9h"), suit_order="SHDC")
    >>> format_cards(v.cards), suit_key(v, "SHDC")
    ('Ks Kh 2d 2c 9h', (4, 3, 2, 1, 3))
    """
    sc = _scores(suit_order)
    cards, stands = value.cards, value.stands_for
    key: list[int] = []
    i, n = 0, len(cards)
    while i < n:
        r = stands[i][0]
        k = i + 1
        while k < n and stands[k][0] == r:
            k += 1
        key += sorted((sc[c[1]] for c in cards[i:k]), reverse=True)
        i = k
    return tuple(key)


def compare(a: HandValue, b: HandValue, *, suit_order: str | None = None) -> int:
    """Compare two hands: 1 if ``a`` wins, -1 if ``b`` wins, 0 for a split.

    Category and ranks decide first; with ``suit_order`` given, the suit
    tie-break (:func:`suit_key`) decides hands still equal. Evaluate both
    hands with the same ``suit_order``.

    >>> a = evaluate(parse_cards("Ah Kh 7d 5c 2s"))
    >>> b = evaluate(parse_cards("As Kd 7c 5h 2d"))
    >>> compare(a, b), compare(a, b, suit_order="HSDC"), compare(a, b, suit_order="SHDC")
    (0, 1, -1)
    """
    ka = (a.category, a.ranks)
    kb = (b.category, b.ranks)
    if ka != kb:
        return 1 if ka > kb else -1
    if suit_order is None:
        return 0
    sa, sb = suit_key(a, suit_order), suit_key(b, suit_order)
    return (sa > sb) - (sa < sb)


# ---------------------------------------------------------------------------
# fast integer strength

# Each natural card weighs: four bits of count for its suit (bits 0..15) plus
# three bits of count for its rank (bits 16..54). The sum over 5..7 cards
# (a count is at most 7) holds the suit counts and the rank multiset; adding 3
# to every suit nibble carries into its bit 3 exactly when a suit has five or
# more cards.
_RANK_SHIFT = 16
_FLUSH_BIAS = 0x3333
_FLUSH_FLAG = 0x8888
_SUIT_NIBBLE = {"S": 0, "H": 4, "D": 8, "C": 12}
_WEIGHT: dict[Card | int, int] = {
    c: (1 << (_RANK_SHIFT + 3 * (c.rank - 2))) | (1 << _SUIT_NIBBLE[c.suit])
    for c in STANDARD_DECK
}
_WEIGHT.update({c.index: _WEIGHT[c] for c in STANDARD_DECK})  # card indices work too
# A card's bit in a 16-bit rank mask of its suit (the suit at 4 × its nibble):
# summed over cards without duplicates, the sum holds one rank mask a suit.
_SUIT_BIT: dict[Card | int, int] = {
    c: 1 << (4 * _SUIT_NIBBLE[c.suit] + c.rank) for c in STANDARD_DECK
}
_SUIT_BIT.update({c.index: _SUIT_BIT[c] for c in STANDARD_DECK})

# In a rank multiset key (``weight sum >> _RANK_SHIFT``) rank r has three bits
# of count at 3 * (r - 2); _LOW_BITS has the lowest bit of each field.
_LOW_BITS = int("1" * 13, 8)
_WHEEL_SPREAD = 1 << 36 | 1 << 9 | 1 << 6 | 1 << 3 | 1   # A 5 4 3 2
_WHEEL_MASK = 1 << 14 | 0b111100                          # A 5 4 3 2 in a rank mask

# Complete tables for five natural cards with no rank five times (built on
# the first five-card call, in a few milliseconds): rank multiset key ->
# strength, for hands without a flush and for flushes (distinct ranks).
_TABLE5: dict[int, int] = {}
_FLUSH5: dict[int, int] = {}
# A bounded memo of 6- and 7-card rank multisets without a flush (the domain
# is finite, and the memo is emptied when it reaches _MEMO_LIMIT entries).
_MEMO: dict[int, int] = {}
_MEMO_LIMIT = 1 << 15
# per five_of_a_kind option; both options share the same dicts (they differ
# only with a rank five times, which never enters them)
_TABLES5 = {"high": _TABLE5, "as_four": _TABLE5}
_FLUSHES5 = {"high": _FLUSH5, "as_four": _FLUSH5}
_MEMOS = {"high": _MEMO, "as_four": _MEMO}
_DEFAULT_SC = _scores("SHDC")


def _top_ranks(spread: int, n: int) -> int:
    """The ``n`` highest ranks of a spread rank mask, packed four bits each, high first."""
    v = 0
    for __ in range(n):
        bl = spread.bit_length()
        v = v << 4 | (bl + 5) // 3
        spread ^= 1 << (bl - 1)
    return v


def _rank_key_strength(key: int) -> int:
    """Strength of 5..7 natural cards without a flush, from their rank multiset key.

    Returns -1 when a rank is there five times or more (the general evaluator
    decides, as the five_of_a_kind option matters).
    """
    b0 = key & _LOW_BITS
    b1 = key >> 1 & _LOW_BITS
    b2 = key >> 2 & _LOW_BITS
    ones = b0 | b1 | b2                    # ranks present
    if b2:                                 # a rank four times or more
        if b2 & (b0 | b1):
            return -1
        bl = b2.bit_length()
        rest = ones ^ (1 << (bl - 1))
        return _FOUR << 20 | (bl + 5) // 3 << 16 | (rest.bit_length() + 5) // 3 << 12
    trips = b0 & b1                        # ranks three times
    if trips:
        bl = trips.bit_length()
        tbit = 1 << (bl - 1)
        rest = b1 ^ tbit                   # other ranks twice or three times
        if rest:
            return _FULL << 20 | (bl + 5) // 3 << 16 | (rest.bit_length() + 5) // 3 << 12
    run = ones & ones >> 3 & ones >> 6 & ones >> 9 & ones >> 12
    if run:
        return _STRAIGHT << 20 | ((run.bit_length() + 5) // 3 + 4) << 16
    if (ones & _WHEEL_SPREAD) == _WHEEL_SPREAD:
        return _STRAIGHT << 20 | 5 << 16
    if trips:
        return _TRIPS << 20 | (bl + 5) // 3 << 16 | _top_ranks(ones ^ tbit, 2) << 8
    if b1:                                 # pairs
        bl = b1.bit_length()
        pbit = 1 << (bl - 1)
        rest = b1 ^ pbit
        if rest:
            bl2 = rest.bit_length()
            kick = ones ^ pbit ^ (1 << (bl2 - 1))
            return (_TWO << 20 | (bl + 5) // 3 << 16 | (bl2 + 5) // 3 << 12
                    | (kick.bit_length() + 5) // 3 << 8)
        return _PAIR << 20 | (bl + 5) // 3 << 16 | _top_ranks(ones ^ pbit, 3) << 4
    return _top_ranks(ones, 5)


def _flush_mask_strength(mask: int) -> int:
    """Strength of a flush from the rank mask (bit r for rank r) of its suit's cards."""
    run = mask & mask >> 1 & mask >> 2 & mask >> 3 & mask >> 4
    if run:
        return _SF << 20 | (run.bit_length() + 3) << 16
    if (mask & _WHEEL_MASK) == _WHEEL_MASK:
        return _SF << 20 | 5 << 16
    v = 0
    for __ in range(5):
        bl = mask.bit_length()
        v = v << 4 | (bl - 1)
        mask ^= 1 << (bl - 1)
    return _FLUSH << 20 | v


def _build_tables5() -> None:
    """Fill the complete five-card tables (6,175 rank multisets, 1,287 flushes).

    Built category by category, as treys builds its tables; a test checks
    every entry against the general evaluator.
    """
    from itertools import combinations

    sp = [0, 0] + [1 << 3 * (r - 2) for r in range(2, 15)]
    down = range(14, 1, -1)
    table: dict[int, int] = {}
    flushes: dict[int, int] = {}
    for a, b, c, d, e in combinations(down, 5):  # five distinct ranks
        key = sp[a] + sp[b] + sp[c] + sp[d] + sp[e]
        if a - e == 4 or (a == 14 and b == 5):
            top = b if a == 14 and b == 5 else a
            table[key] = _STRAIGHT << 20 | top << 16
            flushes[key] = _SF << 20 | top << 16
        else:
            v = a << 16 | b << 12 | c << 8 | d << 4 | e
            table[key] = v
            flushes[key] = _FLUSH << 20 | v
    for x in down:
        others = [r for r in down if r != x]
        for y in others:
            table[4 * sp[x] + sp[y]] = _FOUR << 20 | x << 16 | y << 12
            table[3 * sp[x] + 2 * sp[y]] = _FULL << 20 | x << 16 | y << 12
        for y, z in combinations(others, 2):
            table[3 * sp[x] + sp[y] + sp[z]] = _TRIPS << 20 | x << 16 | y << 12 | z << 8
        for y, z, w in combinations(others, 3):
            table[2 * sp[x] + sp[y] + sp[z] + sp[w]] = (
                _PAIR << 20 | x << 16 | y << 12 | z << 8 | w << 4)
    for x, y in combinations(down, 2):
        for z in down:
            if z != x and z != y:
                table[2 * sp[x] + 2 * sp[y] + sp[z]] = _TWO << 20 | x << 16 | y << 12 | z << 8
    _FLUSH5.update(flushes)
    _TABLE5.update(table)  # last: a non-empty _TABLE5 means both are complete


def _slow_strength(cards, high: bool) -> int:
    nat = _sorted_naturals(cards, "SHDC")
    j = len(cards) - len(nat)
    v = _best(nat, j, high, "SHDC", _DEFAULT_SC)
    return _encode(v.category, v.ranks)


def _as_cards(cards) -> list:
    """Cards, with card indices (0..51, 52 for a joker) turned into cards."""
    out = []
    for c in cards:
        if isinstance(c, int):
            if not 0 <= c < len(BY_INDEX):
                raise ValueError(f"not a card index: {c!r}")
            c = BY_INDEX[c]
        out.append(c)
    return out


def _strength_miss(cards, five_of_a_kind: str) -> int:
    """:func:`strength` for anything its table and memo lookups do not answer."""
    high = _check_foak(five_of_a_kind)
    cards = _as_cards(cards)
    n = len(cards)
    if 5 <= n <= 7 and all(c[0] for c in cards):
        k = 0
        for c in cards:
            w = _WEIGHT.get(Card(c[0], c[1]))
            if w is None:
                return _slow_strength(cards, high)  # not a card: raises ValueError
            k += w
        if n == 5 and not _TABLE5:
            _build_tables5()
            return strength(cards, five_of_a_kind=five_of_a_kind)
        if (k + _FLUSH_BIAS) & _FLUSH_FLAG:
            return _flush_strength(cards, k, five_of_a_kind)
        v = _rank_key_strength(k >> _RANK_SHIFT)
        if v < 0:  # a rank five times or more
            return _slow_strength(cards, high)
        return v
    return _slow_strength(cards, high)


def _flush_strength(cards, k: int, five_of_a_kind: str) -> int:
    """5..7 natural cards with weight sum ``k``, five or more of one suit."""
    _MEMOS[five_of_a_kind]  # noqa: B018 - an unknown option raises KeyError
    at = ((k + _FLUSH_BIAS) & _FLUSH_FLAG).bit_length() - 4  # the suit's nibble
    bits = 0
    suit_bit = _SUIT_BIT
    for c in cards:
        bits += suit_bit[c]
    mask = bits >> 4 * at & 0xFFFF
    if mask.bit_count() != (k >> at) & 0xF:
        # duplicate cards in the flush suit (several decks): the general way
        return _slow_strength(_as_cards(cards), five_of_a_kind != "as_four")
    # Distinct ranks in the flush suit and at most two other cards: no four
    # of a kind or full house is possible, so the best hand is the flush or
    # straight flush, a function of the suit's rank mask alone.
    return _flush_mask_strength(mask)


def _make_strength():
    weight = _WEIGHT
    tables5 = _TABLES5
    flushes5 = _FLUSHES5
    memos = _MEMOS
    shift = _RANK_SHIFT
    bias = _FLUSH_BIAS
    flag = _FLUSH_FLAG
    miss = _strength_miss
    flush = _flush_strength
    rank_key_strength = _rank_key_strength

    def strength(cards: Sequence[Card], *, five_of_a_kind: str = "high") -> int:
        """An ``int`` that orders hands exactly like :class:`HandValue` (suits ignored).

        Fast for natural 5- to 7-card hands: complete tables for five cards
        (built on the first call), a bit-parallel evaluation of the rank
        multiset for six and seven (with a bounded memo), and of the suit's
        rank mask for flushes. Correct for any stock, jokers wild (other sizes,
        jokers and a rank five times go through the general evaluator). The int packs the
        category and up to five ranks, four bits each:
        ``category << 20 | r1 << 16 | r2 << 12 | …`` (a missing kicker is 0).

        Args:
            cards: The stock: cards, or card indices (``Card.index``: 0..51,
                52 for a joker), which are a little faster.
            five_of_a_kind: As for :func:`evaluate`.

        Returns:
            The hand's strength; higher is better, equal means a split.

        Raises:
            ValueError: For an unknown ``five_of_a_kind``.

        >>> hex(strength(parse_cards("Qd Qc 7h 7s 3c")))
        '0x2c7300'
        >>> strength([c.index for c in parse_cards("Qd Qc 7h 7s 3c")])
        2913024
        >>> strength(parse_cards("As Ks Qs Js Ts 2c 2d")) < strength(parse_cards("Kd Kh Ks Kc *"))
        True
        >>> strength(parse_cards("9h 9d 9c 9s *"), five_of_a_kind="as_four") == evaluate(
        ...     parse_cards("9h 9d 9c 9s Ac")).strength
        True
        """
        try:
            n = len(cards)
            if n == 5:
                c0, c1, c2, c3, c4 = cards
                k = weight[c0] + weight[c1] + weight[c2] + weight[c3] + weight[c4]
                if (k + bias) & flag:
                    return flushes5[five_of_a_kind][k >> shift]
                return tables5[five_of_a_kind][k >> shift]
            if n == 7:
                c0, c1, c2, c3, c4, c5, c6 = cards
                k = (weight[c0] + weight[c1] + weight[c2] + weight[c3] + weight[c4]
                     + weight[c5] + weight[c6])
            elif n == 6:
                c0, c1, c2, c3, c4, c5 = cards
                k = weight[c0] + weight[c1] + weight[c2] + weight[c3] + weight[c4] + weight[c5]
            else:
                return miss(cards, five_of_a_kind)
            if (k + bias) & flag:
                return flush(cards, k, five_of_a_kind)
            memo = memos[five_of_a_kind]
            key = k >> shift
            v = memo.get(key)
            if v is None:
                v = rank_key_strength(key)
                if v < 0:  # a rank five times or more
                    return miss(cards, five_of_a_kind)
                if len(memo) >= _MEMO_LIMIT:
                    memo.clear()
                memo[key] = v
            return v
        except (KeyError, TypeError, ValueError):
            # a joker, an unknown option, a table not built yet or not in the memo
            return miss(cards, five_of_a_kind)

    strength.__qualname__ = "strength"
    return strength


strength = _make_strength()


if __name__ == "__main__":  # pragma: no cover
    import doctest

    doctest.testmod()
