"""The whole game state: seats, cards in every zone, betting, scores (mutable, serialisable)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from typing import Any

from pokeroulette_tui.engine.cards import Card, card_from_json, card_to_json
from pokeroulette_tui.engine.phase import Phase
from pokeroulette_tui.engine.result import HandResult
from pokeroulette_tui.engine.rules import RuleSet

PLAYING, OUT, LEFT = "playing", "out", "left"


@dataclass
class Seat:
    """One seat: who sits there, their score, and their cards this hand."""

    name: str
    chips: int = 0
    tokens: int = 0
    status: str = PLAYING
    last_life: bool = False
    sit_out_hands: int = 0
    is_bot: bool = False
    out_hand: int = 0  # the hand the seat went out in (0: still in, or out in an older save)
    out_score: int = 0  # its chips (tokens under forfeit scoring) at the start of that hand
    # this hand
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    stock: list[Card] = field(default_factory=list)
    stock_public: list[bool] = field(default_factory=list)
    actives: list[Card] = field(default_factory=list)
    actives_up: bool = False
    moved: int = 0  # stock-to-active: 0 none, 1 a public card, 2 the private card (actives[-1])
    added: list[Card] = field(default_factory=list)
    reason: str = ""
    hand: list[Card] = field(default_factory=list)
    drawn: int = -1
    bet: int = 0
    contributed: int = 0
    won: int = 0
    acted: bool = False
    can_raise: bool = True
    shown: bool = False

    @property
    def live(self) -> bool:
        """In this hand and not folded."""
        return self.in_hand and not self.folded

    @property
    def can_act(self) -> bool:
        """Live and with chips behind: may still take betting actions."""
        return self.live and not self.all_in

    def clear_hand(self) -> None:
        self.in_hand = self.folded = self.all_in = self.actives_up = self.acted = self.shown = False
        self.can_raise = True
        self.stock, self.stock_public, self.actives, self.added, self.hand = [], [], [], [], []
        self.reason = ""
        self.drawn = -1
        self.moved = 0
        self.bet = self.contributed = self.won = 0


@dataclass
class GameState:
    """Everything the engine knows. Only :func:`view.view_for` decides what a seat sees."""

    rules: RuleSet
    seats: list[Seat]
    rng: random.Random = field(default_factory=random.SystemRandom, repr=False)
    seeded: bool = False
    phase: Phase = Phase.WAITING
    hand_no: int = 0
    button: int = -1
    deck: list[Card] = field(default_factory=list)  # top of the deck is the end of the list
    discards: list[Card] = field(default_factory=list)
    discards_public: list[bool] = field(default_factory=list)
    match: Card | None = None
    match_claimed_by: int | None = None
    last_match: Card | None = None  # for display only: the match card of the round just matched
    suit_order: str | None = None
    suit_draw: list[Card] = field(default_factory=list)
    reshuffled: bool = False
    round_no: int = 0
    to_act: int | None = None
    pending: list[int] = field(default_factory=list)
    current_bet: int = 0
    min_raise: int = 0
    raises: int = 0
    betting_round: str = ""
    after_betting: str = ""  # where a betting round leads: "matched", "draw" or "showdown"
    decider: list[int] | None = None
    result: HandResult | None = None
    game_over: bool = False
    game_over_reason: str = ""
    total_chips: int = 0
    decks: int = 0
    shoe_order: list[Card] = field(default_factory=list)  # the shuffled shoe before any card was dealt (for deck commitments)
    hand_start_chips: dict[int, int] = field(default_factory=dict)
    timeouts: dict[int, int] = field(default_factory=dict)

    # -- derived -------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.seats)

    def in_hand_order(self, start: int) -> list[int]:
        """Seats in this hand, clockwise starting at ``start`` (inclusive)."""
        n = self.n
        return [(start + i) % n for i in range(n) if self.seats[(start + i) % n].in_hand]

    def live_seats(self) -> list[int]:
        return [i for i in self.in_hand_order(self.button + 1) if self.seats[i].live]

    def playing_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.status == PLAYING]

    def chips_in_play(self) -> int:
        return sum(s.chips + s.contributed for s in self.seats)

    def name(self, seat: int) -> str:
        return self.seats[seat].name

    def discard(self, cards: list[Card], public: bool) -> None:
        """Put cards on the discard pile, face up (public) or face down (mucked)."""
        self.discards.extend(cards)
        self.discards_public.extend([public] * len(cards))

    def muck(self, seat: int) -> None:
        """A folding (or leaving) seat's cards go to the discard pile; hidden ones face down."""
        s = self.seats[seat]
        for card, public in zip(s.stock, s.stock_public):
            self.discard([card], public)
        self.discard(s.actives, s.actives_up)
        self.discard(s.hand, False)
        s.stock, s.stock_public, s.actives, s.hand = [], [], [], []
        s.moved = 0

    # -- save / load -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready snapshot (includes hidden cards: never send this to a client)."""
        data: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "rng":
                continue
            data[f.name] = _to_json(getattr(self, f.name))
        data["rules"] = self.rules.to_dict()
        data["seats"] = [{f.name: _to_json(getattr(s, f.name)) for f in fields(Seat)} for s in self.seats]
        data["hand_start_chips"] = {str(k): v for k, v in self.hand_start_chips.items()}
        data["timeouts"] = {str(k): v for k, v in self.timeouts.items()}
        if self.seeded and not isinstance(self.rng, random.SystemRandom):
            version, internal, gauss = self.rng.getstate()
            data["rng_state"] = [version, list(internal), gauss]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameState":
        """Rebuild a snapshot; raises KeyError/TypeError/ValueError on a malformed one."""
        rules = RuleSet.from_dict(data["rules"])
        seats = []
        for sd in data["seats"]:
            kw = {f.name: _from_json(f.name, sd[f.name]) for f in fields(Seat) if f.name in sd}
            seats.append(Seat(**kw))
        kw = {}
        for f in fields(cls):
            if f.name in ("rules", "seats", "rng") or f.name not in data:
                continue
            kw[f.name] = _from_json(f.name, data[f.name])
        kw["hand_start_chips"] = {int(k): int(v) for k, v in data.get("hand_start_chips", {}).items()}
        kw["timeouts"] = {int(k): int(v) for k, v in data.get("timeouts", {}).items()}
        state = cls(rules=rules, seats=seats, **kw)
        if data.get("rng_state") is not None:
            version, internal, gauss = data["rng_state"]
            rng = random.Random()
            rng.setstate((version, tuple(internal), gauss))
            state.rng = rng
            state.seeded = True
        return state


_CARD_LISTS = {"shoe_order", "stock", "actives", "added", "hand", "deck", "discards", "suit_draw"}
_CARDS = {"match", "last_match"}


def _to_json(value: Any) -> Any:
    if isinstance(value, Card):
        return card_to_json(value)
    if isinstance(value, list):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, (RuleSet, HandResult)):
        return value.to_dict()
    return value


def _from_json(name: str, value: Any) -> Any:
    if name in _CARD_LISTS:
        return [card_from_json(v) for v in value]
    if name in _CARDS:
        return card_from_json(value)
    if name == "phase":
        return Phase.parse(value)
    if name == "result" and value is not None:
        return HandResult.from_dict(value)
    return value
