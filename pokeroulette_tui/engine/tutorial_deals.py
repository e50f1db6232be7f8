"""The tutorials' prepared deals: a stacked deck, the rules, and the moves of each step.

A tutorial is a real game played by the real engine: its deck is shuffled by a generator
that lays the cards in a prepared order (:class:`PreparedShuffle`), and each
:class:`Beat` names the moves the table makes by itself (the dealer's steps, the bots'
scripted choices) and the one move the player is asked to make. A seed and the beats
reproduce every step, so a tutorial left half-way is resumed by replaying it.

>>> from pokeroulette_tui.engine.game import apply
>>> deal = DEALS["draw"]
>>> state = deal.new_game()
>>> for beat in deal.beats[:2]:
...     for action in beat.table:
...         _ = apply(state, action)
>>> state.phase, state.to_act == deal.human
(<Phase.CUT: 'cut'>, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Sequence

from pokeroulette_tui.engine.actions import (Action, Advance, Call, Check, Cut, Discard, Fold,
                                             PlaceBet, StartHand)
from pokeroulette_tui.engine.cards import Card, make_shoe, parse_card, parse_cards
from pokeroulette_tui.engine.game import new_game
from pokeroulette_tui.engine.rules import PRESETS, RuleSet
from pokeroulette_tui.engine.state import GameState


class PreparedShuffle(random.Random):
    """A seeded generator whose first shuffle lays the cards in a prepared order.

    ``order`` is the whole shoe, the first card dealt first; it must hold exactly the
    cards shuffled. Later shuffles (a reshuffle of the discards) are the seeded ones.

    >>> rng = PreparedShuffle(1, parse_cards("As Kd Qh"))
    >>> deck = parse_cards("Qh As Kd")
    >>> rng.shuffle(deck)
    >>> deck.pop(), deck.pop(), deck.pop()   # the engine deals from the end of the list
    (Card('As'), Card('Kd'), Card('Qh'))
    """

    def __init__(self, seed: int, order: Sequence[Card]) -> None:
        super().__init__(seed)
        self.order: list[Card] | None = list(order)

    def shuffle(self, x) -> None:  # type: ignore[override]
        if self.order is None:
            super().shuffle(x)
            return
        order, self.order = self.order, None
        if sorted(order) != sorted(x):
            raise ValueError("the prepared order is not the shoe being shuffled")
        x[:] = list(reversed(order))


@dataclass(frozen=True)
class Beat:
    """One step of a tutorial.

    ``table`` are the moves the table makes as the step begins (``StartHand``/``Advance``
    for the dealer, the bots' scripted actions); ``player`` is the move that ends the step,
    made by the player with a key (None: the player reads and goes on).
    """

    name: str
    table: tuple[Action, ...] = ()
    player: Action | None = None


@dataclass(frozen=True)
class PreparedDeal:
    """A tutorial's table: its rules and seats, the shoe in dealing order, and its beats."""

    name: str
    rules: RuleSet
    names: tuple[str, ...]
    human: int
    order: tuple[Card, ...]
    beats: tuple[Beat, ...]
    seed: int = 1
    button: int | None = None  # the button before the first hand (None: the engine's)

    def new_game(self, player: str | None = None) -> GameState:
        """The table before its first hand, with the prepared shoe waiting to be dealt;
        ``player`` names the player's seat (unless it is a bot's name).

        >>> [s.name for s in DEALS["roulette"].new_game("Bo").seats]
        ['Ada', 'Bo', 'Cy']
        """
        names = list(self.names)
        if player and player.strip().casefold() not in (n.casefold() for n in names):
            names[self.human] = player.strip()
        state = new_game(self.rules, names, seed=self.seed,
                         bots=[i != self.human for i in range(len(self.names))])
        state.rng = PreparedShuffle(self.seed, self.order)
        if self.button is not None:
            state.button = self.button
        return state

    def beat_index(self, name: str) -> int:
        """The position of the beat called ``name``."""
        return next(i for i, b in enumerate(self.beats) if b.name == name)


def _shoe_order(first: Sequence[Card], *, jokers: bool, seed: int) -> tuple[Card, ...]:
    """The whole shoe: ``first`` dealt first, in order, then the rest in a seeded order."""
    rest = make_shoe(1, jokers=jokers)
    for card in first:
        rest.remove(card)  # (a ValueError here: a card used twice in a plan)
    random.Random(seed).shuffle(rest)
    return tuple(first) + tuple(rest)


def _dealt(order: Sequence[int], cards: dict[int, str]) -> list[Card]:
    """One deal of active cards: a first card to each seat in ``order``, then a second to
    those who get two (as the engine deals them)."""
    hands = {seat: parse_cards(text) for seat, text in cards.items()}
    return [hands[s][k] for k in range(2) for s in order if len(hands[s]) > k]


# -- Poker Roulette -------------------------------------------------------------------------

YOU, BO, CY = 0, 1, 2
_ROULETTE_ORDER = (BO, CY, YOU)  # the button is yours: dealing starts at Bo, on your left

# (actives per seat, match card) round by round; the stock cards come first
_ROULETTE_STOCKS = {BO: "3h", CY: "4d", YOU: "Ks"}
_ROULETTE_ROUNDS: tuple[tuple[dict[int, str], str], ...] = (
    ({YOU: "7s 5c", BO: "2c Jd", CY: "* 8s"}, "5s"),  # suit and rank; no match; a joker kept
    ({YOU: "Qc Qd", BO: "7h", CY: "6d 2d"}, "Qh"),    # two queens claim the match card
    ({YOU: "9s 4s", BO: "Kh 4h", CY: "Jc"}, "*"),     # a joker match card: all kept
    ({YOU: "3s Jh", BO: "Tc 8d", CY: "5d 8c"}, "6s"),  # your fifth spade
    ({YOU: "2h Td", BO: "9h", CY: "As"}, "9c"),       # Bo's fifth heart
    ({YOU: "Ah", BO: "Ac 6c", CY: "Kc"}, "7d"),       # from here on nobody matches
    ({YOU: "2s", BO: "Ad", CY: "Th"}, "3c"),
    ({YOU: "6h", BO: "8h", CY: "5h"}, "Qs"),
    ({YOU: "9d", BO: "4c", CY: "7c"}, "Js"),  # 3 cards left: too few for another round
)


def _roulette_first() -> list[Card]:
    cards = [parse_card(_ROULETTE_STOCKS[s]) for s in _ROULETTE_ORDER]
    for actives, match in _ROULETTE_ROUNDS:
        cards += _dealt(_ROULETTE_ORDER, actives) + [parse_card(match)]
    return cards


def _roulette() -> PreparedDeal:
    rules = PRESETS["classic"].replace(suit_order="SHDC", betting="final_only")
    deal, turn = Advance(), Advance()  # the dealer's steps: new actives and a match card; turn
    to_the_end = (deal, turn) * 4 + (deal,)  # rounds 6 to 9, and the deck runs short
    beats = (
        Beat("welcome"),
        Beat("stock", table=(StartHand(),)),
        Beat("actives"),
        Beat("turn", table=(turn,)),
        Beat("no_match"),
        Beat("joker"),
        Beat("round2", table=(deal,)),
        Beat("claim", table=(turn,)),
        Beat("round3", table=(deal,)),
        Beat("joker_match", table=(turn,)),
        Beat("wild"),
        Beat("round4", table=(deal, turn)),
        Beat("round5", table=(deal, turn)),
        Beat("rounds_go_on"),
        Beat("end_of_dealing", table=to_the_end + (Check(seat=BO), Check(seat=CY))),
        Beat("bet", player=PlaceBet(seat=YOU, amount=2)),
        Beat("showdown", table=(Call(seat=BO), Fold(seat=CY))),
        Beat("best_five"),
        Beat("tie_break"),
        Beat("result"),
        Beat("the_end"),
    )
    return PreparedDeal("roulette", rules, ("Ada", "Bo", "Cy"), YOU,
                        _shoe_order(_roulette_first(), jokers=True, seed=5), beats)


# -- five-card draw ---------------------------------------------------------------------------

CUT = 26  # the player cuts in the middle: 26 cards go under, the 27th is dealt first
_DRAW_ORDER = (CY, YOU, BO)  # Bo deals: Cy, on his left, gets the first card; you cut
_DRAW_HANDS = {YOU: "Qs 7d Qh 4c 2s", BO: "Jc 6s Jd 6h Kc", CY: "Ah Kd 9c 5h 3d"}
_DRAW_NEW = ((CY, "8s 7c 2h"), (YOU, "Qd 8c 3h"), (BO, "As"))  # the draw, in turn
_DRAW_SWAPS = {CY: (2, 3, 4), YOU: (1, 3, 4), BO: (4,)}


def _draw_first() -> list[Card]:
    hands = {s: parse_cards(t) for s, t in _DRAW_HANDS.items()}
    dealt = [hands[s][k] for k in range(5) for s in _DRAW_ORDER]
    drawn = [c for _s, text in _DRAW_NEW for c in parse_cards(text)]
    wanted = dealt + drawn
    spare = [c for c in make_shoe(1, jokers=False) if c not in wanted]
    random.Random(3).shuffle(spare)
    return spare[:CUT] + wanted  # the top CUT cards go under at the cut


def _draw() -> PreparedDeal:
    rules = PRESETS["draw"].replace(token_name="tokens")
    beats = (
        Beat("welcome"),
        Beat("cut", table=(StartHand(),), player=Cut(seat=YOU, position=CUT)),
        Beat("dealt", table=(Discard(seat=CY, indices=_DRAW_SWAPS[CY]),)),
        Beat("exchange", player=Discard(seat=YOU, indices=_DRAW_SWAPS[YOU])),
        Beat("drawn"),
        Beat("showdown", table=(Discard(seat=BO, indices=_DRAW_SWAPS[BO]),)),
        Beat("forfeit"),
        Beat("result"),
        Beat("the_end"),
    )
    return PreparedDeal("draw", rules, ("Ada", "Bo", "Cy"), YOU,
                        _shoe_order(_draw_first(), jokers=False, seed=3), beats, button=YOU)


DEALS: dict[str, PreparedDeal] = {"roulette": _roulette(), "draw": _draw()}
"""The tutorials by name: Poker Roulette and five-card draw."""
