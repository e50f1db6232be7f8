"""Poker Roulette playouts: the remaining matching rounds, by the engine's matching rules.

Cards are handled as codes (:attr:`Card.index`) and each kind of matching question is
answered by :func:`engine.matching.resolve` once and remembered, so a playout of a whole
hand costs a fraction of a millisecond.
"""

from __future__ import annotations

import random
from typing import Sequence

from pokeroulette_tui.bots.common import unknown_cards
from pokeroulette_tui.bots.equity import Equity, Tally, live_order, ranker, shuffled
from pokeroulette_tui.engine.cards import BY_INDEX, Card
from pokeroulette_tui.engine.matching import resolve
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.rules import RuleSet
from pokeroulette_tui.engine.view import SeatView

_NO_CARD = 63
_JOKER = 52
Flags = tuple[bool, bool, bool]  # first active added, second active added, match claimed
_FLAGS: dict[tuple[bool, bool], dict[int, Flags]] = {}   # by card codes (bounded)
_SHAPES: dict[tuple[bool, bool], dict[int, Flags]] = {}  # by the shape of the question
_FLAGS_LIMIT = 60_000


def _shape(a: int, b: int, m: int) -> int:
    """What the matching rules look at, as bits: a lone active, which cards are jokers,
    and which ranks and suits agree (``b`` is 63 for a lone active)."""
    bits = (b == _NO_CARD) | (a == _JOKER) << 1 | (b == _JOKER) << 2 | (m == _JOKER) << 3
    if m < _JOKER:
        if a < _JOKER:
            bits |= (a >> 2 == m >> 2) << 4 | (a & 3 == m & 3) << 5
        if b < _JOKER:
            bits |= (b >> 2 == m >> 2) << 6 | (b & 3 == m & 3) << 7
    if a < _JOKER and b < _JOKER:
        bits |= (a >> 2 == b >> 2) << 8 | (a & 3 == b & 3) << 9
    return bits


def _flags(table: dict[int, Flags], rules: RuleSet, key: int) -> Flags:
    """The engine's :func:`resolve` for a key ``match << 12 | a << 6 | b`` (card codes; ``b``
    is 63 for a lone active), remembered in ``table``. The engine is asked once per shape
    of the question (:func:`_shape`), not once per combination of cards."""
    m, a, b = key >> 12, (key >> 6) & 63, key & 63
    shapes = _SHAPES.setdefault((rules.claim_match_card, rules.actives_match_each_other), {})
    shape = _shape(a, b, m)
    flags = shapes.get(shape)
    if flags is None:
        actives = [BY_INDEX[a]] if b == _NO_CARD else [BY_INDEX[a], BY_INDEX[b]]
        o = resolve(actives, BY_INDEX[m], rules)
        flags = shapes[shape] = (actives[0] in o.added, b != _NO_CARD and actives[-1] in o.added,
                                 o.claims_match)
    if len(table) >= _FLAGS_LIMIT:
        table.clear()
    table[key] = flags
    return flags


def roulette_equities(view: SeatView, rng: random.Random, samples: int,
                      moves: Sequence[int | None] = (None,)) -> list[Equity]:
    """Equity of the viewer's stock for each stock-to-active choice in ``moves`` (a stock
    index to move to active, or None to keep), from the same samples.

    The playout starts where the view is: after a round's matching (betting), before the
    match card (stock to active), or at the end (final betting: nothing more to deal).
    """
    rules = view.rules
    live = live_order(view)
    me = live.index(view.seat)

    def codes(cards: Sequence[Card | None]) -> list[int | None]:
        return [None if c is None else c.index for c in cards]

    pool = [c.index for c in unknown_cards(view)]
    stocks0 = [codes(view.players[i].stock) for i in live]
    actives0 = [codes(view.players[i].actives) for i in live]
    added0 = [bool(view.players[i].added) for i in live]
    hidden = sum(c is None for s in stocks0 + actives0 for c in s)
    deck_n = max(0, min(view.deck_count, len(pool) - hidden))
    if view.phase == Phase.STOCK_TO_ACTIVE:
        stage = "deal_match"
    elif view.phase == Phase.DEALT:
        stage = "resolve"
    elif view.betting_round == "final" or view.phase in (Phase.FINAL, Phase.HAND_OVER,
                                                        Phase.GAME_OVER):
        stage = "over"
    else:
        stage = "cleanup"
    seen_discards = [c.index for c in view.discards if c is not None]
    if stage == "cleanup":  # this round's leftovers go to the pile first
        seen_discards += [c for a in actives0 for c in a if c is not None]
        if view.match is not None:
            seen_discards.append(view.match.index)
    match = view.match.index if view.match is not None else None
    reshuffle = rules.reshuffle_discards_once and not view.reshuffled
    rank = ranker(rules, view.suit_order)
    tallies = [Tally() for _ in moves]
    for _ in range(max(1, samples)):
        it = iter(shuffled(pool, rng))
        stocks = [[c if c is not None else next(it) for c in s] for s in stocks0]
        actives = [[c if c is not None else next(it) for c in a] for a in actives0]
        rest = list(it)
        deck_base = rest[:deck_n]
        dead = rest[deck_n:]
        for move, tally in zip(moves, tallies):
            st = [s[:] for s in stocks]
            ac = [a[:] for a in actives]
            if move is not None and 0 <= move < len(st[me]):
                ac[me].append(st[me].pop(move))
            _play_out(st, ac, list(added0), deck_base[:], seen_discards + dead, match,
                      stage, rules, reshuffle, rng)
            tally.add(*rank(st, me))
    return [t.equity() for t in tallies]


def _play_out(stocks: list[list[int]], actives: list[list[int]], added: list[bool],
              deck: list[int], discards: list[int], match: int | None, stage: str,
              rules: RuleSet, reshuffle: bool, rng: random.Random) -> None:
    """Run the remaining matching rounds in place on ``stocks`` (card codes of the live
    players, in turn order); the top of ``deck`` is its end, as in the engine."""
    if stage == "over":
        return
    n = len(stocks)
    table = _FLAGS.setdefault((rules.claim_match_card, rules.actives_match_each_other), {})
    get = table.get
    if stage == "cleanup":
        actives = [[] for _ in range(n)]
    elif stage == "deal_match":
        if not deck:
            return
        match = deck.pop()
    while True:
        if stage != "cleanup":
            claimed = False
            m = match << 12
            for i in range(n):
                act = actives[i]
                if not act:
                    added[i] = False
                    continue
                a = act[0]
                b = act[1] if len(act) == 2 else _NO_CARD
                key = m | a << 6 | b
                add_a, add_b, claims = get(key) or _flags(table, rules, key)
                (stocks[i] if add_a else discards).append(a)
                if b != _NO_CARD:
                    (stocks[i] if add_b else discards).append(b)
                added[i] = add_a or add_b
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
            deck = shuffled(discards, rng) + deck
            discards = []
        if len(deck) < need:
            return
        actives = [[deck.pop()] for _ in range(n)]
        for i in range(n):
            if wants[i] == 2:
                actives[i].append(deck.pop())
        match = deck.pop()
