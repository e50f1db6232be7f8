"""Facts: immutable records of what happened, redacted per seat."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable

from pokeroulette_tui.engine.cards import Card, card_from_json, card_to_json


@dataclass(frozen=True)
class Event:
    """One thing that happened, with a sentence that says it.

    A ``private`` event carries cards only ``seat`` may see; everyone else gets
    :meth:`redacted_for` with the cards hidden and ``public_text`` instead.

    >>> from pokeroulette_tui.engine.cards import parse_cards
    >>> e = Event("dealt", "Ana gets 7h", seat=0, cards=tuple(parse_cards("7h")),
    ...           private=True, public_text="Ana gets a card")
    >>> e.redacted_for(1).text, e.redacted_for(1).cards
    ('Ana gets a card', (None,))
    >>> e.redacted_for(0).text
    'Ana gets 7h'
    """

    kind: str
    text: str
    seat: int | None = None
    cards: tuple[Card | None, ...] = ()
    amount: int = 0
    private: bool = False
    public_text: str = ""
    hand_no: int = 0

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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Event":
        return cls(kind=str(data["kind"]), text=str(data["text"]), seat=data.get("seat"),
                   cards=tuple(card_from_json(c) for c in data.get("cards", ())),
                   amount=int(data.get("amount", 0)), private=bool(data.get("private", False)),
                   public_text=str(data.get("public_text", "")), hand_no=int(data.get("hand_no", 0)))


def redact_all(events: list[Event], viewer: int | None) -> list[Event]:
    """Every event as ``viewer`` may see it."""
    return [e.redacted_for(viewer) for e in events]


def add_to_history(history: list[list[Event]], events: Iterable[Event]) -> list[list[Event]]:
    """Append ``events`` to ``history``, one list per hand (a new list when an event names
    a new hand); returns the hands this finished.

    >>> h: list[list[Event]] = []
    >>> add_to_history(h, [Event("a", "", hand_no=1), Event("b", "", hand_no=1)])
    []
    >>> [[e.kind for e in hand] for hand in add_to_history(h, [Event("c", "", hand_no=2)])]
    [['a', 'b']]
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
