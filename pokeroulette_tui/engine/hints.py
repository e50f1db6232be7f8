"""Hints from one seat's own view: the exact chance each active card is kept, and how often
the stock gets better by the end (RULES.md 2.3; nothing the seat may not see is read).

The cards a seat cannot see are, to that seat, equally likely to be anywhere: its face-down
actives and a match card not yet turned are drawn from them without replacement. So the
chance an active is kept is a count over those cards (:func:`keep_count`), exact as a
fraction; several decks count each card as many times as it is unseen.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

from pokeroulette_tui.engine.cards import Card, decks_for, make_shoe
from pokeroulette_tui.engine.hands import Category, strength
from pokeroulette_tui.engine.matching import resolve
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView

Flags = tuple[bool, bool, bool]  # first active kept, second active kept, match card claimed


@dataclass(frozen=True)
class KeepOdds:
    """The chance each of a seat's active cards goes to its stock at the next match card.

    ``each`` has one fraction per active (in the order dealt); ``some`` is the chance at least
    one is kept, ``claim`` the chance this seat qualifies to claim the match card (rule 5;
    another player qualifying first clockwise still takes it). ``match_known``: the match
    card is face up; ``next_round``: no active is dealt yet, these are the actives of the next
    round, if the deck has one (``count`` of them).
    """

    each: tuple[Fraction, ...]
    some: Fraction
    claim: Fraction
    match_known: bool
    next_round: bool = False

    @property
    def count(self) -> int:
        return len(self.each)


def unseen_cards(view: SeatView) -> Counter[Card]:
    """The shoe of this hand minus every card ``view`` shows: what the viewer cannot see.

    >>> from pokeroulette_tui.engine.game import new_game, apply
    >>> from pokeroulette_tui.engine.actions import StartHand
    >>> from pokeroulette_tui.engine.view import view_for
    >>> g = new_game(RuleSet(betting="none"), ["A", "B", "C"], seed=1)
    >>> _ = apply(g, StartHand())
    >>> sum(unseen_cards(view_for(g, 0)).values())  # 54 minus my stock card and the match
    52
    """
    in_hand = sum(1 for p in view.players if p.in_hand)
    shoe = Counter(make_shoe(decks_for(max(1, in_hand)), jokers=True))
    seen: list[Card] = [c for c in view.discards if c is not None]
    for p in view.players:
        seen += [c for c in p.stock + p.actives if c is not None]
    if view.match is not None:
        seen.append(view.match)
    shoe.subtract(Counter(seen))
    return +shoe


def _shape(a: Card, b: Card | None, m: Card) -> tuple:
    """What the matching rules look at: which cards are jokers, which ranks and suits agree."""
    if b is None:
        return (a.is_joker, m.is_joker, a.rank == m.rank, a.suit == m.suit)
    return (a.is_joker, b.is_joker, m.is_joker, a.rank == m.rank, a.suit == m.suit,
            b.rank == m.rank, b.suit == m.suit, a.rank == b.rank, a.suit == b.suit)


class _Matcher:
    """:func:`matching.resolve` as (kept, kept, claims) flags, asked once per shape."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.memo: dict[tuple, Flags] = {}

    def __call__(self, a: Card, b: Card | None, m: Card) -> Flags:
        key = _shape(a, b, m)
        flags = self.memo.get(key)
        if flags is None:
            actives = [a] if b is None else [a, b]
            o = resolve(actives, m, self.rules)
            flags = self.memo[key] = (a in o.added, b is not None and b in o.added, o.claims_match)
        return flags


def keep_count(pool: Counter[Card] | Iterable[Card], actives: Sequence[Card | None],
               match: Card | None, rules: RuleSet) -> KeepOdds:
    """The exact chance each of one or two ``actives`` is kept by the match card.

    ``None`` is a card not seen (an active face down, or ``match`` not turned yet): each such
    card is drawn without replacement from ``pool``, the unseen cards (a multiset).

    >>> from pokeroulette_tui.engine.cards import parse_card as c, parse_cards
    >>> odds = keep_count(parse_cards("7h 2c 9d *"), [None, None], c("7s"), RuleSet())
    >>> [str(f) for f in odds.each], str(odds.some)
    (['1/3', '1/3'], '1/2')
    """
    counts = Counter(pool)
    ids = sorted(counts)
    if not 1 <= len(actives) <= 2:
        raise ValueError(f"a player has one or two active cards, not {len(actives)}")
    slots = [i for i, c in enumerate(actives) if c is None] + ([2] if match is None else [])
    if sum(counts.values()) < len(slots):
        raise ValueError("fewer unseen cards than cards to draw")
    matcher = _Matcher(rules)
    kept = [0] * len(actives)
    some = claim = total = 0
    cards: list[Card | None] = [*actives, *([None] * (2 - len(actives))), match]

    def visit(k: int, weight: int) -> None:
        nonlocal some, claim, total
        if k == len(slots):
            a, b, m = cards
            ka, kb, cl = matcher(a, b if len(actives) == 2 else None, m)  # type: ignore[arg-type]
            total += weight
            if ka:
                kept[0] += weight
            if kb:
                kept[1] += weight
            if ka or kb:
                some += weight
            if cl:
                claim += weight
            return
        for card in ids:
            left = counts[card]
            if left:
                counts[card] = left - 1
                cards[slots[k]] = card
                visit(k + 1, weight * left)
                counts[card] = left
        cards[slots[k]] = None

    visit(0, 1)
    return KeepOdds(each=tuple(Fraction(n, total) for n in kept), some=Fraction(some, total),
                    claim=Fraction(claim, total), match_known=match is not None)


def _live(view: SeatView) -> list[int]:
    """Seats still in the hand, clockwise from the button's left (the order of matching)."""
    n = len(view.players)
    order = [(view.button + 1 + k) % n for k in range(n)]
    return [i for i in order if view.players[i].in_hand and not view.players[i].folded]


def _stage(view: SeatView) -> str:
    """Where the matching stands: ``resolve`` (actives and match dealt), ``deal_match``
    (actives dealt, the match card not yet), ``cleanup`` (this round is matched) or ``over``."""
    if view.phase == Phase.STOCK_TO_ACTIVE:
        return "deal_match"
    if view.phase == Phase.DEALT:
        return "resolve"
    if (view.betting_round == "final" or view.phase in (Phase.FINAL, Phase.HAND_OVER,
                                                        Phase.GAME_OVER, Phase.WAITING)):
        return "over"
    return "cleanup"


def keep_odds(view: SeatView) -> KeepOdds | None:
    """The viewer's keep chances now: its face-down actives against the match card (face up
    or not yet turned), or, between rounds, the new actives it would get next round. None
    when the viewer has no actives to come (five-card draw, folded, the matching is over).

    >>> from pokeroulette_tui.engine.game import new_game, apply
    >>> from pokeroulette_tui.engine.actions import StartHand
    >>> from pokeroulette_tui.engine.view import view_for
    >>> g = new_game(RuleSet(betting="none"), ["A", "B", "C"], seed=1)
    >>> _ = apply(g, StartHand())
    >>> odds = keep_odds(view_for(g, 0))
    >>> odds.count, odds.match_known, odds.each[0] == odds.each[1]
    (2, True, True)
    """
    me = view.me
    if view.rules.variant != "roulette" or me is None or not me.in_hand or me.folded:
        return None
    stage = _stage(view)
    pool = unseen_cards(view)
    if stage in ("resolve", "deal_match") and me.actives and not me.actives_up:
        match = view.match if stage == "resolve" else None
        return keep_count(pool, me.actives, match, view.rules)
    if stage != "cleanup":
        return None
    count = 2 if me.added else 1
    odds = keep_count(pool, [None] * count, None, view.rules)
    return KeepOdds(odds.each, odds.some, odds.claim, match_known=False, next_round=True)


# -- the end of the hand: a playout from the view ------------------------------------------

@dataclass(frozen=True)
class Improve:
    """How the viewer's stock ends, by playouts: ``now`` is its category today, ``better``
    the share of playouts that end in a higher one, ``ends[c]`` the share ending in ``c``."""

    now: Category
    better: float
    ends: dict[Category, float]
    samples: int


def category_of(cards: Sequence[Card], rules: RuleSet) -> Category:
    """The category of a stock's best hand under the table's joker and five-of-a-kind options.

    >>> from pokeroulette_tui.engine.cards import parse_cards as p
    >>> category_of(p("7s 7h *"), RuleSet()).name, category_of(p("7s 7h *"), RuleSet(jokers_at_end="removed")).name
    ('THREE_OF_A_KIND', 'PAIR')
    """
    if rules.jokers_at_end == "removed":
        cards = [c for c in cards if not c.is_joker]
    if not cards:
        return Category.HIGH_CARD
    return Category(strength(list(cards), five_of_a_kind=rules.five_of_a_kind) >> 20)


def improve_odds(view: SeatView, rng: random.Random, samples: int) -> Improve | None:
    """Play the rest of the hand out ``samples`` times from what the viewer sees (everyone
    keeps their stock at a stock-to-active choice) and count how the viewer's stock ends.
    None when the viewer has no stock to improve (five-card draw, folded, no hand)."""
    me = view.me
    if view.rules.variant != "roulette" or me is None or not me.in_hand or me.folded:
        return None
    if view.phase in (Phase.WAITING, Phase.HAND_OVER, Phase.GAME_OVER):
        return None
    rules = view.rules
    live = _live(view)
    mine = live.index(view.seat)
    now = category_of([c for c in me.stock if c is not None], rules)
    pool = list(unseen_cards(view).elements())
    stocks0 = [list(view.players[i].stock) for i in live]
    actives0 = [list(view.players[i].actives) for i in live]
    hidden = sum(c is None for s in stocks0 + actives0 for c in s)
    deck_n = max(0, min(view.deck_count, len(pool) - hidden))
    stage = _stage(view)
    discards = [c for c in view.discards if c is not None]
    if stage == "cleanup":  # this round's leftovers go to the pile first
        discards += [c for a in actives0 for c in a if c is not None]
        if view.match is not None:
            discards.append(view.match)
    matcher = _Matcher(rules)
    ends: Counter[Category] = Counter()
    runs = max(1, samples)
    for _ in range(runs):
        rng.shuffle(pool)
        it = iter(pool)
        stocks = [[c if c is not None else next(it) for c in s] for s in stocks0]
        actives = [[c if c is not None else next(it) for c in a] for a in actives0]
        rest = list(it)
        _play_out(stocks, actives, [bool(view.players[i].added) for i in live], rest[:deck_n],
                  discards + rest[deck_n:], view.match, stage, matcher,
                  rules.reshuffle_discards_once and not view.reshuffled, rng)
        ends[category_of(stocks[mine], rules)] += 1
    better = sum(n for c, n in ends.items() if c > now) / runs
    return Improve(now=now, better=better, ends={c: n / runs for c, n in ends.items()},
                   samples=runs)


def _play_out(stocks: list[list[Card]], actives: list[list[Card]], added: list[bool],
              deck: list[Card], discards: list[Card], match: Card | None, stage: str,
              matcher: _Matcher, reshuffle: bool, rng: random.Random) -> None:
    """The remaining matching rounds, in place on ``stocks`` (the live seats in matching
    order), as :mod:`engine.roulette` plays them; the end of ``deck`` is its top."""
    if stage == "over":
        return
    n = len(stocks)
    if stage == "deal_match":
        if not deck:
            return
        match = deck.pop()
    while True:
        if stage != "cleanup" and match is not None:
            claimed = False
            for i in range(n):
                act = actives[i]
                if not act:
                    added[i] = False
                    continue
                a, b = act[0], (act[1] if len(act) == 2 else None)
                ka, kb, claims = matcher(a, b, match)
                (stocks[i] if ka else discards).append(a)
                if b is not None:
                    (stocks[i] if kb else discards).append(b)
                added[i] = ka or kb
                if claims and not claimed:
                    stocks[i].append(match)
                    claimed = True
            if not claimed:
                discards.append(match)
        stage = ""
        wants = [2 if a else 1 for a in added]
        need = sum(wants) + 1
        if len(deck) < need and reshuffle:
            reshuffle = False
            rng.shuffle(discards)
            deck = discards + deck
            discards = []
        if len(deck) < need:
            return
        actives = [[deck.pop()] for _ in range(n)]
        for i in range(n):
            if wants[i] == 2:
                actives[i].append(deck.pop())
        match = deck.pop()
