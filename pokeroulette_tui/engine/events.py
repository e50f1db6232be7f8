"""Facts: immutable records of what happened (one class per kind), redacted per seat."""

from __future__ import annotations

import reprlib
import types
from dataclasses import FrozenInstanceError, dataclass, field, replace
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

    def __init_subclass__(cls, wire: str | None = None, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if wire is not None:  # ``class Folded(Event, wire="fold")``: a kind of event
            _make_kind(cls, wire)
            return
        # the older spelling, a dataclass subclass with ``kind: str = _wire("fold")``
        declared = getattr(cls.__dict__.get("kind"), "default", None)
        if isinstance(declared, str):
            KINDS[declared] = cls

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
    """A dataclass subclass's ``kind``: its wire name, fixed (not an argument)."""
    return field(default=name, init=False, repr=False)


# -- the kinds of event ---------------------------------------------------------------------
# Every kind is exactly what ``@dataclass(frozen=True)`` would make of
# ``class Folded(Event): kind: str = _wire("fold")`` (the same fields, __init__, __repr__,
# equality, hash, frozenness, __match_args__), but written once here rather than generated
# and compiled for each of the 33 kinds at import (that took most of the engine's import time).

_KIND_CLASSES: set[type] = set()
_FIELD_NAMES = ("kind", "text", "seat", "cards", "amount", "private", "public_text", "hand_no")
_KIND_MATCH_ARGS = _FIELD_NAMES[1:]
_KIND_SIGNATURE = ("(text: 'str', seat: 'int | None' = None, cards: 'tuple[Card | None, ...]' = (), "
                   "amount: 'int' = 0, private: 'bool' = False, public_text: 'str' = '', "
                   "hand_no: 'int' = 0)")


def _kind_init(self, text: str, seat: int | None = None, cards: tuple[Card | None, ...] = (),
               amount: int = 0, private: bool = False, public_text: str = "",
               hand_no: int = 0):
    # like the dataclass's: ``kind`` is not set on the instance, it is the class's attribute
    _set = object.__setattr__
    _set(self, "text", text)
    _set(self, "seat", seat)
    _set(self, "cards", cards)
    _set(self, "amount", amount)
    _set(self, "private", private)
    _set(self, "public_text", public_text)
    _set(self, "hand_no", hand_no)


_kind_init.__annotations__["return"] = None


@reprlib.recursive_repr()
def _kind_repr(self) -> str:
    return (f"{self.__class__.__qualname__}(text={self.text!r}, seat={self.seat!r}, "
            f"cards={self.cards!r}, amount={self.amount!r}, private={self.private!r}, "
            f"public_text={self.public_text!r}, hand_no={self.hand_no!r})")


def _kind_setattr(self, name: str, value: Any) -> None:
    if type(self) in _KIND_CLASSES or name in _FIELD_NAMES:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _kind_delattr(self, name: str) -> None:
    if type(self) in _KIND_CLASSES or name in _FIELD_NAMES:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _named(func: Any, cls: type, name: str) -> Any:
    """``func`` as ``cls``'s own method ``name`` (so that errors name ``Folded.__init__()``)."""
    qualname = f"{cls.__qualname__}.{name}"
    code = func.__code__.replace(co_name=name, co_qualname=qualname)
    method = types.FunctionType(code, func.__globals__, name, func.__defaults__, func.__closure__)
    method.__qualname__, method.__annotations__ = qualname, func.__annotations__
    method.__kwdefaults__ = func.__kwdefaults__
    return method


def _make_kind(cls: type, wire: str) -> None:
    """Make ``cls`` the frozen dataclass of the events of kind ``wire`` (see above).

    Equality and the hash are Event's own (the same fields, compared only between events of
    one class)."""
    base = Event.__dataclass_fields__
    kind = field(default=wire, init=False, repr=False)
    kind.name, kind.type, kind.kw_only = "kind", "str", False
    kind._field_type = base["kind"]._field_type  # type: ignore[attr-defined]
    cls.__dataclass_fields__ = {**base, "kind": kind}
    cls.__annotations__ = {"kind": "str"}
    cls.kind = wire
    cls.__init__ = _named(_kind_init, cls, "__init__")
    cls.__repr__ = _kind_repr
    cls.__setattr__ = _kind_setattr
    cls.__delattr__ = _kind_delattr
    cls.__match_args__ = _KIND_MATCH_ARGS
    if cls.__doc__ is None:
        cls.__doc__ = cls.__name__ + _KIND_SIGNATURE
    _KIND_CLASSES.add(cls)
    KINDS[wire] = cls


# -- a hand starts ----------------------------------------------------------------------

class SuitOrderDrawn(Event, wire="suit_order"):
    """The suit ranking was drawn (``cards``: the cards turned)."""


class HandStarted(Event, wire="hand_started"):
    """A hand (or a deciding hand) starts; ``seat`` has the button."""


class AntesPaid(Event, wire="ante"):
    """``amount``: the antes in the pot."""


class Shuffled(Event, wire="shuffle"):
    """A shoe was shuffled (``amount`` cards)."""


class Reshuffled(Event, wire="reshuffle"):
    """Discards were shuffled back into the deck (``amount`` cards)."""


# -- Poker Roulette -----------------------------------------------------------------------

class StockDealt(Event, wire="stock_dealt"):
    """``seat`` got its stock card face down (private)."""


class ActivesDealt(Event, wire="actives_dealt"):
    """Two active cards were dealt face down to each player."""


class MatchCardTurned(Event, wire="match_card"):
    """A round's match card (``cards[0]``) was turned."""


class CardsMatched(Event, wire="matched"):
    """``seat`` turned its actives: ``cards`` are the added ones (``amount`` of them) first,
    then the discarded ones."""

    @property
    def added(self) -> tuple[Card | None, ...]:
        return self.cards[:self.amount]

    @property
    def discarded(self) -> tuple[Card | None, ...]:
        return self.cards[self.amount:]


class NewActivesDealt(Event, wire="new_actives"):
    """New active cards were dealt for the next round."""


class StockKept(Event, wire="stock_kept"):
    """``seat`` kept its stock as it is."""


class StockMovedToActive(Event, wire="stock_to_active"):
    """``seat`` moved a stock card (``cards[0]``; private if it was face down) to active."""


class MatchingEnded(Event, wire="matching_over"):
    """The deck cannot supply another round (``amount`` cards left)."""


# -- five-card draw -----------------------------------------------------------------------

class DeckCut(Event, wire="cut"):
    """``seat`` cut ``amount`` cards."""


class HandDealt(Event, wire="hand_dealt"):
    """``seat`` was dealt five cards (private)."""


class DrawStarted(Event, wire="draw"):
    """The draw begins."""


class CardsDrawn(Event, wire="drew"):
    """``seat`` exchanged ``amount`` cards (``cards``: the new ones, private)."""


# -- betting ----------------------------------------------------------------------------

class BettingStarted(Event, wire="betting"):
    """A betting round opens."""


class Checked(Event, wire="check"):
    pass


class Called(Event, wire="call"):
    """``seat`` called ``amount``."""


class BetPlaced(Event, wire="bet"):
    """``seat`` bet ``amount``."""


class Raised(Event, wire="raise"):
    """``seat`` raised to ``amount``."""


class WentAllIn(Event, wire="all_in"):
    """``seat`` is all in for ``amount``."""


class Folded(Event, wire="fold"):
    pass


# -- the end of a hand and of the game ----------------------------------------------------

class HandShown(Event, wire="show"):
    """``seat`` showed ``cards`` at the showdown (the engine's result names and ranks them)."""


class PotWon(Event, wire="pot_won"):
    """A pot of ``amount`` went to ``seat`` (the first of its winners)."""


class BetReturned(Event, wire="returned"):
    """``amount`` that nobody matched (the others all in for less) went back to ``seat``:
    no pot, nobody won it."""


class TokenLost(Event, wire="token_lost"):
    """``seat`` lost one forfeit token."""


class PlayerOut(Event, wire="out"):
    """``seat`` is out of the game."""


class SatOut(Event, wire="sit_out"):
    """``seat`` sits out a hand, then plays on a last life."""


class DeciderCalled(Event, wire="decider"):
    """Tied losers play a deciding hand."""


class HandOver(Event, wire="hand_over"):
    pass


class GameOver(Event, wire="game_over"):
    pass


class PlayerLeft(Event, wire="left"):
    """``seat`` left the table."""


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
