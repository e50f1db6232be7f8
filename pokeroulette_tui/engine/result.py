"""A hand's result as the engine decided it: the hands shown, their order, the pots."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from pokeroulette_tui.engine.cards import Card, card_from_json


def positions_of(shown: Sequence[Card | None], made: Sequence[Card]) -> set[int]:
    """Positions in ``shown`` of the cards that make a hand (duplicates matched one by one).

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> sorted(positions_of(parse_cards("7s Kd 7h 2c"), parse_cards("7s 7h Kd 2c")[:2]))
    [0, 2]
    """
    left = list(made)
    out: set[int] = set()
    for i, card in enumerate(shown):
        if card is not None and card in left:
            left.remove(card)
            out.add(i)
    return out


def _cards(texts: Any) -> tuple[Card, ...]:
    cards = tuple(card_from_json(t) for t in texts)
    if any(c is None for c in cards):
        raise ValueError("a hand's card is missing")
    return cards  # type: ignore[return-value]


@dataclass(frozen=True)
class ShownHand:
    """One seat's hand at the showdown.

    Attributes:
        seat: Who showed it.
        cards: The cards that make the hand, most significant first (a joker as ★).
        name: The hand in words, e.g. ``"pair of aces"``.
        category: Its category's name, e.g. ``"PAIR"``.
        shown: Every card the seat showed, in the seat's order.
        jokers: What each joker among ``cards`` stands for, in order.
        place: 1 for the best hand; equal hands (suit tie-break included) share a place.
    """

    seat: int
    cards: tuple[Card, ...]
    name: str
    category: str
    shown: tuple[Card, ...] = ()
    jokers: tuple[Card, ...] = ()
    place: int = 0

    @property
    def made(self) -> frozenset[int]:
        """Positions in :attr:`shown` of the cards that make the hand."""
        return frozenset(positions_of(self.shown, self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {"cards": [c.text for c in self.cards], "name": self.name,
                "category": self.category, "shown": [c.text for c in self.shown],
                "jokers": [c.text for c in self.jokers], "place": self.place}

    @classmethod
    def from_dict(cls, seat: int, d: dict[str, Any]) -> "ShownHand":
        """Older results have no ``shown``, ``jokers`` or ``place``: the made cards stand in
        for the shown ones."""
        cards = _cards(d["cards"])
        return cls(seat=int(seat), cards=cards, name=str(d["name"]), category=str(d["category"]),
                   shown=_cards(d["shown"]) if "shown" in d else cards,
                   jokers=_cards(d.get("jokers", ())),
                   place=int(d.get("place", 0)))


@dataclass(frozen=True)
class PotResult:
    """One pot: its size, who could win it, who did and what each got, and why."""

    amount: int
    winners: tuple[int, ...]
    eligible: tuple[int, ...]
    shares: dict[int, int]
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "winners": list(self.winners),
                "eligible": list(self.eligible),
                "shares": {str(k): v for k, v in self.shares.items()}, "why": self.why}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "PotResult":
        return cls(amount=int(d["amount"]), winners=tuple(int(w) for w in d["winners"]),
                   eligible=tuple(int(e) for e in d["eligible"]),
                   shares={int(k): int(v) for k, v in d["shares"].items()}, why=str(d["why"]))


@dataclass(frozen=True)
class HandResult:
    """The end of one hand as the engine decided it (``GameState.result``, carried by the
    view to every seat): the screens show it, they never rank hands themselves.

    ``hands`` are in the order they were shown (from the button's left); ``winners`` won a
    pot or, without chips, had the best hand (the one left, when everyone else folded).

    >>> from pokeroulette_tui.engine.actions import StartHand
    >>> from pokeroulette_tui.engine.game import apply, legal_actions, new_game
    >>> from pokeroulette_tui.engine.rules import RuleSet
    >>> g = new_game(RuleSet(betting="none"), ["Ana", "Bo", "Cy"], seed=3)
    >>> while g.result is None:
    ...     _ = apply(g, legal_actions(g, None)[0])
    >>> [(h.seat, h.place) for h in g.result.hands], g.result.winners
    ([(1, 1), (2, 2), (0, 3)], (1,))
    >>> HandResult.from_dict(g.result.to_dict()) == g.result
    True
    """

    hand_no: int
    by_fold: bool
    hands: tuple[ShownHand, ...] = ()
    pots: tuple[PotResult, ...] = ()
    token_losers: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()

    def hand(self, seat: int) -> ShownHand | None:
        """``seat``'s shown hand (None: it showed none)."""
        return next((h for h in self.hands if h.seat == seat), None)

    @property
    def order(self) -> tuple[int, ...]:
        """The seats that showed, best hand first (equal hands in the order shown)."""
        return tuple(h.seat for h in sorted(self.hands, key=lambda h: h.place))

    def won(self, seat: int) -> int:
        """The chips ``seat`` won from the pots."""
        return sum(p.shares.get(seat, 0) for p in self.pots)

    def to_dict(self) -> dict[str, Any]:
        return {"hand_no": self.hand_no, "by_fold": self.by_fold,
                "hands": {str(h.seat): h.to_dict() for h in self.hands},
                "pots": [p.to_dict() for p in self.pots],
                "token_losers": list(self.token_losers), "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "HandResult":
        """Rebuild a result; raises KeyError/TypeError/ValueError on a malformed one."""
        return cls(hand_no=int(d["hand_no"]), by_fold=bool(d["by_fold"]),
                   hands=tuple(ShownHand.from_dict(int(k), v) for k, v in d["hands"].items()),
                   pots=tuple(PotResult.from_dict(p) for p in d["pots"]),
                   token_losers=tuple(int(i) for i in d["token_losers"]),
                   winners=tuple(int(w) for w in d["winners"]))
