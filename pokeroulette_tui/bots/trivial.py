"""Trivial strategies: one fixed habit each, to check that the bot levels are not exploitable
by the simplest plans (benchmarks/bench_bots.py ``--trivial`` and tests/test_bots.py).

They are not player-facing levels (not in :data:`bots.LEVELS`); :func:`make_trivial` makes
one by name. Like every bot they read only their SeatView and the legal actions.

- ``always-raise``: raises (or bets) the maximum whenever it may, else calls; never folds.
- ``always-call``: checks or calls, never bets, never folds.
- ``tight``: continues (checks or calls) only with two pair or better, else checks or folds.
- ``always-stand-pat``: never exchanges a card, and bets about the pot whenever nobody has
  bet yet (it represents a made hand every time); calls bets.
- ``always-draw-three``: exchanges its three lowest cards every time; checks or calls.

The betting habits draw by the standard strategy (:func:`common.draw_discards`) and keep
their Poker Roulette stock as it is.
"""

from __future__ import annotations

import random

from pokeroulette_tui.bots.common import (bet_to, call_or_check, check_or_fold, discard,
                                          draw_discards, draw_value, hand_of, pot_for,
                                          roulette_value)
from pokeroulette_tui.engine.actions import (Action, AllIn, Cut, MoveStockToActive, PlaceBet,
                                             RaiseTo)
from pokeroulette_tui.engine.hands import Category
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.view import SeatView

__all__ = ["TRIVIAL", "TrivialBot", "make_trivial"]


class TrivialBot:
    """A fixed habit; subclasses override :meth:`bet` and :meth:`draw`."""

    level = "trivial"
    needs_view = True

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, view: SeatView | None, legal: list[Action]) -> Action:
        if view is None or view.me is None:
            return legal[0]
        seat = legal[0].seat
        if view.phase == Phase.BETTING:
            return self.bet(view, legal)
        if view.phase == Phase.DRAW:
            return discard(seat, self.draw(view))
        if view.phase == Phase.STOCK_TO_ACTIVE:
            return MoveStockToActive(seat=seat, index=None)
        if view.phase == Phase.CUT:
            return Cut(seat=seat, position=self.rng.randint(1, max(1, view.deck_count - 1)))
        return legal[0]

    def bet(self, view: SeatView, legal: list[Action]) -> Action:
        return call_or_check(view, legal)

    def draw(self, view: SeatView) -> tuple[int, ...]:
        return draw_discards(hand_of(view), view.rules.max_draw)


class AlwaysRaise(TrivialBot):
    """Raise or bet the maximum at every chance (all in under no-limit)."""

    level = "always-raise"

    def bet(self, view: SeatView, legal: list[Action]) -> Action:
        o = view.options
        seat = legal[0].seat
        if o is not None:
            if o.raise_min:
                return RaiseTo(seat=seat, amount=o.raise_max)
            if o.bet_min:
                return PlaceBet(seat=seat, amount=o.bet_max)
            if o.all_in:
                return AllIn(seat=seat)
        return call_or_check(view, legal)


class AlwaysCall(TrivialBot):
    """Check or call, whatever the cards."""

    level = "always-call"


class Tight(TrivialBot):
    """Continue only with two pair or better; else check if free, fold if not."""

    level = "tight"

    def bet(self, view: SeatView, legal: list[Action]) -> Action:
        cards = hand_of(view)
        if view.rules.variant == "roulette":
            value = roulette_value(cards, view.rules)
        else:
            value = draw_value(cards) if len(cards) == 5 else None
        if value is not None and value.category >= Category.TWO_PAIR:
            return call_or_check(view, legal)
        return check_or_fold(legal)


class AlwaysStandPat(TrivialBot):
    """Never draw; bet about the pot when nobody has bet, call when somebody has."""

    level = "always-stand-pat"

    def bet(self, view: SeatView, legal: list[Action]) -> Action:
        if view.current_bet == 0:
            return bet_to(view, legal, view.me.bet + max(1, pot_for(view)))
        return call_or_check(view, legal)

    def draw(self, view: SeatView) -> tuple[int, ...]:
        return ()


class AlwaysDrawThree(TrivialBot):
    """Exchange the three lowest cards (at most ``max_draw``); check or call."""

    level = "always-draw-three"

    def draw(self, view: SeatView) -> tuple[int, ...]:
        hand = hand_of(view)
        k = min(3, view.rules.max_draw, len(hand))
        return tuple(sorted(sorted(range(len(hand)), key=lambda i: hand[i].rank)[:k]))


TRIVIAL: dict[str, type[TrivialBot]] = {
    cls.level: cls for cls in (AlwaysRaise, AlwaysCall, Tight, AlwaysStandPat, AlwaysDrawThree)}
"""Trivial strategies by name."""


def make_trivial(name: str, rng: random.Random | None = None) -> TrivialBot:
    """A trivial strategy by name (see :data:`TRIVIAL`).

    >>> make_trivial("tight").level
    'tight'
    """
    try:
        return TRIVIAL[name](rng=rng)
    except KeyError:
        raise ValueError(f"unknown trivial strategy {name!r} (choose {', '.join(TRIVIAL)})") \
            from None
