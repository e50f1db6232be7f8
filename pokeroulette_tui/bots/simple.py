"""Level "simple": rules of thumb a club player would use, from the seat's view only.

Betting sorts the hand into a tier (weak, medium, strong, monster) by its poker category:
in Poker Roulette against the best hand the other players show (their public stock cards),
in five-card draw by the usual standards before and after the draw. Strong hands bet and
raise, medium hands call a fair price, weak hands check or fold; a bet from a seat seen to
put chips in nearly every hand (:mod:`.reads`) is called down much wider. The draw keeps pairs,
trips, four to a flush or an open-ended straight and exchanges the rest; a lone low stock
card goes back to active when that is allowed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from pokeroulette_tui.bots.common import (bet_to, call_or_check, check_or_fold, discard,
                                          draw_discards, draw_value, hand_of, live_opponents,
                                          objective, pot_for, roulette_value, to_call)
from pokeroulette_tui.bots.reads import Reads
from pokeroulette_tui.engine.actions import Action, Cut, MoveStockToActive
from pokeroulette_tui.engine.cards import Card
from pokeroulette_tui.engine.hands import Category
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView

WEAK, MEDIUM, STRONG, MONSTER = range(4)


class SimpleBot:
    """Level 1: hand-strength rules of thumb and pot-odds sanity; reads only its SeatView."""

    level = "simple"
    needs_view = True

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.reads = Reads()

    def observe(self, view: SeatView) -> None:
        """Remember what a view of this seat shows of the others' habits (every choice does;
        a table resumed from its action log can replay the seat's past views through this)."""
        self.reads.observe(view)

    def choose(self, view: SeatView | None, legal: list[Action]) -> Action:
        if view is None or view.me is None:
            return legal[0]
        seat = legal[0].seat
        self.observe(view)
        if view.phase == Phase.BETTING:
            return self.bet(view, legal, tier(view))
        if view.phase == Phase.STOCK_TO_ACTIVE:
            return MoveStockToActive(seat=seat, index=card_to_move(hand_of(view)))
        if view.phase == Phase.CUT:
            return Cut(seat=seat, position=self.rng.randint(1, max(1, view.deck_count - 1)))
        if view.phase == Phase.DRAW:
            return discard(seat, draw_discards(hand_of(view), view.rules.max_draw))
        return legal[0]

    def bet(self, view: SeatView, legal: list[Action], level: int) -> Action:
        """Play a hand of the given tier: value bets, pot-odds calls, folds."""
        if objective(view.rules) != "chips":
            # forfeit scoring: folding loses a token for sure, so stay in; bet the monsters
            if level == MONSTER:
                return self._aggress(view, legal, 1.0)
            return call_or_check(view, legal)
        owe = to_call(view)
        pot = pot_for(view)
        if owe == 0:
            if level == MONSTER:
                return self._aggress(view, legal, 1.0)
            if level == STRONG:
                return self._aggress(view, legal, 0.6)
            return check_or_fold(legal)
        odds = owe / (pot + owe)  # the share of the final pot this call pays for
        if level == MONSTER:
            return self._aggress(view, legal, 1.0)
        if level == STRONG:
            if odds <= 0.3 and self.rng.random() < 0.4:
                return self._aggress(view, legal, 0.7)
            return call_or_check(view, legal)
        final = view.betting_round in ("final", "post_draw")
        # a bet from a seat that puts chips in nearly every hand says little: catch it with a
        # hand ahead of what the table shows, with anything before the last round, or a pair
        if self._maniac_bet(view) and (level == MEDIUM or not final or _paired(hand_of(view))):
            return call_or_check(view, legal)
        if level == MEDIUM and odds <= 0.34:
            return call_or_check(view, legal)
        if level == WEAK and odds <= 0.2 and not final:
            return call_or_check(view, legal)
        return check_or_fold(legal)

    def _maniac_bet(self, view: SeatView) -> bool:
        """Whether the bet to call comes from a seat that bets or calls nearly every hand."""
        return any(self.reads.looseness(s) >= 0.5 for s in live_opponents(view)
                   if view.players[s].bet == view.current_bet)

    def _aggress(self, view: SeatView, legal: list[Action], fraction: float) -> Action:
        """Bet (or raise by) about ``fraction`` of the pot."""
        me = view.me
        pot = pot_for(view)
        owe = to_call(view)
        size = max(1, round(fraction * (pot + owe)))
        if view.current_bet == 0:
            return bet_to(view, legal, me.bet + size)
        return bet_to(view, legal, view.current_bet + max(view.min_raise, size))


def tier(view: SeatView) -> int:
    """How good the viewer's hand looks by rules of thumb: WEAK … MONSTER."""
    if view.rules.variant == "roulette":
        return roulette_tier(view)
    return draw_tier(view)


def roulette_tier(view: SeatView) -> int:
    """The stock against the best stock the others show (their private cards unseen)."""
    rules = view.rules
    mine = roulette_value(hand_of(view), rules)
    shown = [roulette_value([c for c in view.players[s].stock if c is not None], rules)
             for s in live_opponents(view)]
    best = max(shown) if shown else None
    c = mine.category
    d = best.category if best is not None else Category.HIGH_CARD
    if c >= Category.FOUR_OF_A_KIND or (c >= Category.FULL_HOUSE and c >= d + 2):
        return MONSTER
    if best is None or c >= d + 2 or (c >= d + 1 and c >= Category.THREE_OF_A_KIND):
        return STRONG
    if mine > best and (c >= Category.PAIR or view.betting_round != "final"):
        return MEDIUM  # ahead of what the others show (their private cards may differ)
    return WEAK


def draw_tier(view: SeatView) -> int:
    """Five-card draw standards: openers before the draw, made hands after it."""
    hand = hand_of(view)
    if len(hand) != 5:
        return WEAK
    v = draw_value(hand)
    c = v.category
    opponents = live_opponents(view)
    if view.me.drawn < 0:  # before the draw
        if c >= Category.STRAIGHT:
            return MONSTER
        if c >= Category.TWO_PAIR:
            return STRONG
        if c == Category.PAIR and (v.ranks[0] >= 11 or len(opponents) == 1):
            return MEDIUM
        if c == Category.PAIR or len(draw_discards(hand)) == 1:
            return MEDIUM if len(opponents) <= 2 else WEAK
        return WEAK
    pat = any(view.players[s].drawn == 0 for s in opponents)
    if c >= Category.FULL_HOUSE:
        t = MONSTER
    elif c >= Category.STRAIGHT:
        t = MONSTER if not pat else STRONG
    elif c == Category.THREE_OF_A_KIND:
        t = STRONG
    elif c == Category.TWO_PAIR:
        t = STRONG if len(opponents) <= 2 else MEDIUM
    elif c == Category.PAIR and (v.ranks[0] >= 12 or len(opponents) == 1 and v.ranks[0] >= 8):
        t = MEDIUM
    else:
        t = WEAK
    if pat and t < MONSTER:
        t = max(WEAK, t - 1)
    return t


def _paired(cards: Sequence[Card]) -> bool:
    ranks = Counter(c.rank for c in cards if not c.is_joker)
    return any(c.is_joker for c in cards) or any(k >= 2 for k in ranks.values())


def card_to_move(stock: Sequence[Card]) -> int | None:
    """Stock to active: the lowest lone card that helps nothing (not paired, not one of
    three of a suit, below ten) gets a second chance as an active card; else keep.

    >>> from pokeroulette_tui.engine.cards import parse_cards as p
    >>> card_to_move(p("4c")), card_to_move(p("Kc")), card_to_move(p("9s 9h 3d Qc"))
    (0, None, 2)
    """
    ranks = Counter(c.rank for c in stock if not c.is_joker)
    suits = Counter(c.suit for c in stock if not c.is_joker)
    lone = [i for i, c in enumerate(stock)
            if not c.is_joker and ranks[c.rank] == 1 and suits[c.suit] < 3 and c.rank < 10]
    if not lone:
        return None
    return min(lone, key=lambda i: stock[i].rank)
