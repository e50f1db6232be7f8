"""Facts: immutable records of what happened (one class per kind), redacted per seat."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from pokeroulette_tui.engine.cards import Card, card_from_json, card_to_json

KINDS: dict[str, type["Event"]] = {}
"""Every kind of event by its wire name (``"fold"`` → :class:`Folded`)."""


@dataclass(frozen=True)
class Event:
    """One thing that happened, with a sentence that says it.

    Each kind of event is a subclass with its wire name in ``kind`` (``Folded(text, seat=…)``);
    ``Event(kind, text, …)`` still makes an event of any kind, untyped.
    A ``private`` event carries cards only ``seat`` may see; everyone else gets
    :meth:`redacted_for` with the cards hidden and ``public_text`` instead.

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> e = StockDealt("Ana gets 7h", seat=0, cards=tuple(parse_cards("7h")),
    ...                private=True, public_text="Ana gets a card")
    >>> e.redacted_for(1).text, e.redacted_for(1).cards, type(e.redacted_for(1)).__name__
    ('Ana gets a card', (None,), 'StockDealt')
    >>> e.redacted_for(0).text, e.kind
    ('Ana gets 7h', 'stock_dealt')
    """

    kind: str
    text: str
    seat: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: int = 0
    private: bool = False
    public_text: str = ""
    hand_no: int = 0

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        wire = getattr(cls.__dict__.get("kind"), "default", None)
        if isinstance(wire, str):
            KINDS[wire] = cls

    def redacted_for(self, viewer: int | None) -> "Event":
        """The event as ``viewer`` may see it (None = a spectator)."""
        if not self.private or (viewer is not None and viewer == self.seat):
            return self
        return replace(self, cards=tuple(None for _ in self.cards), text=self.public_text,
                       public_text="")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "seat": self.seat,
                "cards": [card_to_json(c) for c in self.cards], "amount": self.amount,
                "private": self.private, "public_text": self.public_text, "hand_no": self.hand_no}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "Event":
        """The event of the class its ``kind`` names (an unknown kind: a plain Event).

        >>> type(Event.from_dict({"kind": "fold", "text": "Bo folds", "seat": 1})).__name__
        'Folded'
        """
        kind = str(data["kind"])
        kw: dict[str, Any] = dict(
            text=str(data["text"]), seat=data.get("seat"),
            cards=tuple(card_from_json(c) for c in data.get("cards", ())),
            amount=int(data.get("amount", 0)), private=bool(data.get("private", False)),
            public_text=str(data.get("public_text", "")), hand_no=int(data.get("hand_no", 0)))
        cls = KINDS.get(kind)
        return Event(kind, **kw) if cls is None else cls(**kw)


def _wire(name: str) -> Any:
    """A subclass's ``kind``: its wire name, fixed (not an argument)."""
    return field(default=name, init=False, repr=False)


# -- a hand starts ----------------------------------------------------------------------

@dataclass(frozen=True)
class SuitOrderDrawn(Event):
    """The suit ranking was drawn (``cards``: the cards turned)."""
    kind: str = _wire("suit_order")


@dataclass(frozen=True)
class HandStarted(Event):
    """A hand (or a deciding hand) starts; ``seat`` has the button."""
    kind: str = _wire("hand_started")


@dataclass(frozen=True)
class AntesPaid(Event):
    """``amount``: the antes in the pot."""
    kind: str = _wire("ante")


@dataclass(frozen=True)
class Shuffled(Event):
    """A shoe was shuffled (``amount`` cards)."""
    kind: str = _wire("shuffle")


@dataclass(frozen=True)
class Reshuffled(Event):
    """Discards were shuffled back into the deck (``amount`` cards)."""
    kind: str = _wire("reshuffle")


# -- Poker Roulette -----------------------------------------------------------------------

@dataclass(frozen=True)
class StockDealt(Event):
    """``seat`` got its stock card face down (private)."""
    kind: str = _wire("stock_dealt")


@dataclass(frozen=True)
class ActivesDealt(Event):
    """Two active cards were dealt face down to each player."""
    kind: str = _wire("actives_dealt")


@dataclass(frozen=True)
class MatchCardTurned(Event):
    """A round's match card (``cards[0]``) was turned."""
    kind: str = _wire("match_card")


@dataclass(frozen=True)
class CardsMatched(Event):
    """``seat`` turned its actives: ``cards`` are the added ones (``amount`` of them) first,
    then the discarded ones."""
    kind: str = _wire("matched")

    @property
    def added(self) -> tuple[Card | None, ...]:
        return self.cards[:self.amount]

    @property
    def discarded(self) -> tuple[Card | None, ...]:
        return self.cards[self.amount:]


@dataclass(frozen=True)
class NewActivesDealt(Event):
    """New active cards were dealt for the next round."""
    kind: str = _wire("new_actives")


@dataclass(frozen=True)
class StockKept(Event):
    """``seat`` kept its stock as it is."""
    kind: str = _wire("stock_kept")


@dataclass(frozen=True)
class StockMovedToActive(Event):
    """``seat`` moved a stock card (``cards[0]``; private if it was face down) to active."""
    kind: str = _wire("stock_to_active")


@dataclass(frozen=True)
class MatchingEnded(Event):
    """The deck cannot supply another round (``amount`` cards left)."""
    kind: str = _wire("matching_over")


# -- five-card draw -----------------------------------------------------------------------

@dataclass(frozen=True)
class DeckCut(Event):
    """``seat`` cut ``amount`` cards."""
    kind: str = _wire("cut")


@dataclass(frozen=True)
class HandDealt(Event):
    """``seat`` was dealt five cards (private)."""
    kind: str = _wire("hand_dealt")


@dataclass(frozen=True)
class DrawStarted(Event):
    """The draw begins."""
    kind: str = _wire("draw")


@dataclass(frozen=True)
class CardsDrawn(Event):
    """``seat`` exchanged ``amount`` cards (``cards``: the new ones, private)."""
    kind: str = _wire("drew")


# -- betting ----------------------------------------------------------------------------

@dataclass(frozen=True)
class BettingStarted(Event):
    """A betting round opens."""
    kind: str = _wire("betting")


@dataclass(frozen=True)
class Checked(Event):
    kind: str = _wire("check")


@dataclass(frozen=True)
class Called(Event):
    """``seat`` called ``amount``."""
    kind: str = _wire("call")


@dataclass(frozen=True)
class BetPlaced(Event):
    """``seat`` bet ``amount``."""
    kind: str = _wire("bet")


@dataclass(frozen=True)
class Raised(Event):
    """``seat`` raised to ``amount``."""
    kind: str = _wire("raise")


@dataclass(frozen=True)
class WentAllIn(Event):
    """``seat`` is all in for ``amount``."""
    kind: str = _wire("all_in")


@dataclass(frozen=True)
class Folded(Event):
    kind: str = _wire("fold")


# -- the end of a hand and of the game ----------------------------------------------------

@dataclass(frozen=True)
class HandShown(Event):
    """``seat`` showed ``cards`` at the showdown (the engine's result names and ranks them)."""
    kind: str = _wire("show")


@dataclass(frozen=True)
class PotWon(Event):
    """A pot of ``amount`` went to ``seat`` (the first of its winners)."""
    kind: str = _wire("pot_won")


@dataclass(frozen=True)
class TokenLost(Event):
    """``seat`` lost one forfeit token."""
    kind: str = _wire("token_lost")


@dataclass(frozen=True)
class PlayerOut(Event):
    """``seat`` is out of the game."""
    kind: str = _wire("out")


@dataclass(frozen=True)
class SatOut(Event):
    """``seat`` sits out a hand, then plays on a last life."""
    kind: str = _wire("sit_out")


@dataclass(frozen=True)
class DeciderCalled(Event):
    """Tied losers play a deciding hand."""
    kind: str = _wire("decider")


@dataclass(frozen=True)
class HandOver(Event):
    kind: str = _wire("hand_over")


@dataclass(frozen=True)
class GameOver(Event):
    kind: str = _wire("game_over")


@dataclass(frozen=True)
class PlayerLeft(Event):
    """``seat`` left the table."""
    kind: str = _wire("left")


def redact_all(events: list[Event], viewer: int | None) -> list[Event]:
    """Every event as ``viewer`` may see it."""
    return [e.redacted_for(viewer) for e in events]


def add_to_history(history: list[list[Event]], events: Iterable[Event]) -> list[list[Event]]:
    """Append ``events`` to ``history``, one list per hand (a new list when an event names
    a new hand); returns the hands this finished.

    >>> h: list[list[Event]] = []
    >>> add_to_history(h, [Folded("", hand_no=1), Checked("", hand_no=1)])
    []
    >>> [[e.kind for e in hand] for hand in add_to_history(h, [Called("", hand_no=2)])]
    [['fold', 'check']]
    >>> [len(hand) for hand in h]
    [2, 1]
    """
    finished: list[list[Event]] = []
    for e in events:
        if not history or (e.hand_no and history[-1] and history[-1][-1].hand_no != e.hand_no):
            if history:
                finished.append(history[-1])
            history.append([])
        history[-1].append(e)
    return finished
