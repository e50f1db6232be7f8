"""Level "strong": Monte Carlo equity from the seat's own view, bets sized by equity
against the pot odds, and the draw (or stock-to-active choice) that simulates best. In draw,
what the others' chips and pats say is discounted by their habits (:mod:`.reads`): a seat
that bets every hand or always stands pat is sampled with ordinary cards."""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from pokeroulette_tui.bots.common import (bet_to, call_or_check, check_or_fold, discard,
                                          draw_discards, hand_of, objective, pot_for, to_call)
from pokeroulette_tui.bots.draw_mc import draw_equities
from pokeroulette_tui.bots.equity import Equity
from pokeroulette_tui.bots.reads import Reads
from pokeroulette_tui.bots.roulette_mc import roulette_equities
from pokeroulette_tui.engine.actions import Action, AllIn, Cut, MoveStockToActive
from pokeroulette_tui.engine.cards import Card, decks_for
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView

ROULETTE_WORK = 16_000
"""Samples × live players × matching rounds left (× choices) one roulette decision may play
out (about 0.05 s of CPU). Small tables get ``samples`` playouts; big early hands fewer."""


class StrongBot:
    """Level 2: equity by Monte Carlo over the cards it cannot see; reads only its SeatView.

    ``samples`` bounds the playouts of one decision (fewer when a roulette hand has many
    players and rounds left, so a decision stays well under 0.2 s).
    """

    level = "strong"
    needs_view = True
    samples = 240
    value_edge = (0.25, 0.4)  # bet for value from this edge: earlier rounds, the last round
    bluff_rate = 0.2

    def __init__(self, rng: random.Random | None = None, *, samples: int | None = None) -> None:
        self.rng = rng or random.Random()
        if samples is not None:
            self.samples = samples
        self._discarded: tuple[int, tuple[Card, ...]] = (-1, ())
        self.reads = Reads()

    # -- the protocol ------------------------------------------------------------
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
            return self.bet(view, legal, self.equity(view))
        if view.phase == Phase.STOCK_TO_ACTIVE:
            return MoveStockToActive(seat=seat, index=self.stock_choice(view))
        if view.phase == Phase.CUT:
            return Cut(seat=seat, position=self.rng.randint(1, max(1, view.deck_count - 1)))
        if view.phase == Phase.DRAW:
            return discard(seat, self.draw_choice(view))
        return legal[0]

    # -- estimates -------------------------------------------------------------------
    def roulette_samples(self, view: SeatView, choices: int = 1) -> int:
        """Playouts for a roulette decision: fewer when many players and rounds remain."""
        live = sum(1 for p in view.players if p.in_hand and not p.folded)
        per_round = 1.5 * live + 1
        cards = view.deck_count
        if view.rules.reshuffle_discards_once and not view.reshuffled:
            cards += 0.6 * len(view.discards) + 0.3 * 54 * decks_for(len(view.players))
        rounds = 0 if view.betting_round == "final" else cards / per_round
        work = live * (rounds + 1) * choices
        return max(min(40, self.samples), min(self.samples, int(ROULETTE_WORK / work)))

    def equity(self, view: SeatView) -> Equity:
        """The viewer's showdown equity now (its planned draw included, before the draw)."""
        if view.rules.variant == "roulette":
            return roulette_equities(view, self.rng, self.roulette_samples(view))[0]
        return draw_equities(view, self.rng, self.samples, remembered=self._remembered(view),
                             habits=self.reads.habits(view))[0]

    def _remembered(self, view: SeatView) -> tuple[Card, ...]:
        hand_no, cards = self._discarded
        return cards if hand_no == view.hand_no else ()

    # -- betting ---------------------------------------------------------------------
    def bet(self, view: SeatView, legal: list[Action], eq: Equity) -> Action:
        """Bet for value when the equity is well above a fair share; call when it beats the
        pot odds; else check or fold."""
        if objective(view.rules) != "chips":
            # forfeit scoring: a fold loses a token for sure, so never fold
            return call_or_check(view, legal)
        me = view.me
        live = sum(1 for p in view.players if p.in_hand and not p.folded)
        fair = 1.0 / live
        edge = (eq.win - fair) / (1.0 - fair)  # 0 at a fair share, 1 at a sure win
        pot = pot_for(view)
        owe = to_call(view)
        last_round = view.betting_round in ("final", "post_draw")
        if owe == 0:
            if edge >= self.value_edge[last_round]:
                return bet_to(view, legal, me.bet + self._size(pot, edge))
            if last_round and self._bluff(eq, live):
                return bet_to(view, legal, me.bet + self._size(pot, 0.5))
            return check_or_fold(legal)
        price = min(owe, me.chips)
        odds = price / (pot + price)
        can_raise = view.options is not None and (view.options.raise_min or view.options.all_in)
        if edge >= 0.5 and can_raise and me.chips > owe:
            target = view.current_bet + max(view.min_raise, self._size(pot + owe, edge))
            if view.options.raise_min:
                return bet_to(view, legal, target)
            return AllIn(seat=legal[0].seat)
        if eq.win >= odds:
            return call_or_check(view, legal)
        return check_or_fold(legal)

    def _bluff(self, eq: Equity, live: int) -> bool:
        """Sometimes bet a hand that will rarely win (at the last betting round, nobody has
        bet, at most two others are left): a player who never bluffs is easy to read."""
        return live <= 3 and eq.win < 0.2 and self.rng.random() < self.bluff_rate

    def _size(self, pot: int, edge: float) -> int:
        """About half the pot at a small edge, up to the pot near a sure win."""
        return max(1, round(pot * (0.4 + 0.6 * edge)))

    # -- card choices ---------------------------------------------------------------
    def stock_choice(self, view: SeatView) -> int | None:
        """Keep the stock, or move the card whose move simulates clearly better."""
        moves: list[int | None] = [None] + least_useful(hand_of(view))[:3]
        if len(moves) == 1:
            return None
        eqs = roulette_equities(view, self.rng, self.roulette_samples(view, len(moves)), moves)
        return moves[_pick(eqs, objective(view.rules))]

    def draw_choice(self, view: SeatView) -> tuple[int, ...]:
        """The discard set that simulates clearly better than the standard draw, if any
        (the draw is made once a hand, so it gets more samples than a bet)."""
        hand = hand_of(view)
        options = draw_options(hand, view.rules.max_draw)
        pick = 0
        if len(options) > 1:
            eqs = draw_equities(view, self.rng, 2 * self.samples, options,
                                remembered=self._remembered(view), habits=self.reads.habits(view))
            pick = _pick(eqs, objective(view.rules))
        chosen = options[pick]
        self._discarded = (view.hand_no, tuple(hand[i] for i in chosen))
        return chosen


def _pick(eqs: Sequence[Equity], goal: str) -> int:
    """The best choice by simulation, unless it beats the first (the default: keeping the
    stock, the standard draw) by less than the sampling noise."""
    best = max(range(len(eqs)), key=lambda k: eqs[k].score(goal))
    noise = 0.5 / max(1, eqs[0].samples) ** 0.5
    return best if eqs[best].score(goal) - eqs[0].score(goal) > noise else 0


def least_useful(stock: Sequence[Card]) -> list[int]:
    """Stock indices from the least to the most useful card (jokers never move)."""
    ranks = Counter(c.rank for c in stock if not c.is_joker)
    suits = Counter(c.suit for c in stock if not c.is_joker)
    idx = [i for i, c in enumerate(stock) if not c.is_joker]
    return sorted(idx, key=lambda i: (ranks[stock[i].rank], suits[stock[i].suit], stock[i].rank))


def draw_options(hand: Sequence[Card], max_draw: int) -> list[tuple[int, ...]]:
    """Sensible discard sets: the standard draw first, standing pat, keeping every pair,
    four to a flush or to a straight (inside ones too), or the one to three highest cards.

    >>> from pokeroulette_tui.engine.cards import parse_cards as p
    >>> draw_options(p("7s 7h Kd 4c 2s"), 3)
    [(2, 3, 4), (), (3, 4)]
    """
    if len(hand) != 5 or max_draw <= 0:
        return [()]
    ranks = Counter(c.rank for c in hand)
    by_rank = sorted(range(5), key=lambda i: (ranks[hand[i].rank], hand[i].rank), reverse=True)
    keeps: list[set[int]] = [set(range(5))]
    grouped = {i for i in range(5) if ranks[hand[i].rank] >= 2}
    if grouped:
        keeps.append(grouped)
        rest = [i for i in by_rank if i not in grouped]
        if rest:
            keeps.append(grouped | {rest[0]})  # the group plus the best kicker
    suits = Counter(c.suit for c in hand)
    for suit, k in suits.items():
        if k == 4:
            keeps.append({i for i in range(5) if hand[i].suit == suit})
    for low in range(1, 11):  # four of any five-rank window: A-5 up to T-A
        window = {14 if r == 1 else r for r in range(low, low + 5)}
        inside = {}
        for i, c in enumerate(hand):
            if c.rank in window:
                inside.setdefault(c.rank, i)
        if len(inside) == 4:
            keeps.append(set(inside.values()))
    for k in (1, 2, 3):
        keeps.append(set(by_rank[:k]))
    out = [draw_discards(hand, max_draw)]
    for keep in keeps:
        d = tuple(i for i in range(5) if i not in keep)
        if len(d) <= max_draw and d not in out:
            out.append(d)
    return out
