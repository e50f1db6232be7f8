"""Intents: what a seat (or the dealer, seat None) asks the engine to do."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, ClassVar


class IllegalAction(Exception):
    """An action the rules do not allow now; the message is a sentence a player can read."""


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base of every intent. ``seat`` is None for the dealer's own steps."""

    kind: ClassVar[str] = "action"
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["type"] = self.kind
        for key, value in list(data.items()):
            if isinstance(value, tuple):
                data[key] = list(value)
        return data


@dataclass(frozen=True, kw_only=True)
class StartHand(Action):
    """The dealer starts the next hand (antes, button, shuffle, deal)."""

    kind: ClassVar[str] = "start_hand"


@dataclass(frozen=True, kw_only=True)
class Advance(Action):
    """The dealer takes the next automatic step (turn actives, clean up, deal)."""

    kind: ClassVar[str] = "advance"


@dataclass(frozen=True, kw_only=True)
class Check(Action):
    kind: ClassVar[str] = "check"


@dataclass(frozen=True, kw_only=True)
class Call(Action):
    kind: ClassVar[str] = "call"


@dataclass(frozen=True, kw_only=True)
class Fold(Action):
    kind: ClassVar[str] = "fold"


@dataclass(frozen=True, kw_only=True)
class AllIn(Action):
    kind: ClassVar[str] = "all_in"


@dataclass(frozen=True, kw_only=True)
class PlaceBet(Action):
    """Open the betting with ``amount`` chips."""

    kind: ClassVar[str] = "bet"
    amount: int = 0


@dataclass(frozen=True, kw_only=True)
class RaiseTo(Action):
    """Raise so that this seat's total bet this round is ``amount``."""

    kind: ClassVar[str] = "raise"
    amount: int = 0


@dataclass(frozen=True, kw_only=True)
class MoveStockToActive(Action):
    """Stock-to-active option: move stock card number ``index`` to be an active card,
    or ``index=None`` to keep the stock as it is."""

    kind: ClassVar[str] = "stock_to_active"
    index: int | None = None


@dataclass(frozen=True, kw_only=True)
class Cut(Action):
    """Five-card draw: the player right of the dealer cuts ``position`` cards from the top."""

    kind: ClassVar[str] = "cut"
    position: int = 26


@dataclass(frozen=True, kw_only=True)
class Discard(Action):
    """Five-card draw: exchange the cards at ``indices`` (empty = stand pat)."""

    kind: ClassVar[str] = "discard"
    indices: tuple[int, ...] = field(default_factory=tuple)


@dataclass(frozen=True, kw_only=True)
class Leave(Action):
    """The seat leaves the table, at any moment, without penalty."""

    kind: ClassVar[str] = "leave"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls for cls in (StartHand, Advance, Check, Call, Fold, AllIn, PlaceBet, RaiseTo,
                              MoveStockToActive, Cut, Discard, Leave)
}
BETTING_KINDS = ("check", "call", "fold", "all_in", "bet", "raise")


def action_from_dict(data: Any) -> Action:
    """Rebuild an action from its JSON form, refusing anything malformed.

    >>> action_from_dict({"type": "bet", "seat": 2, "amount": 10})
    PlaceBet(seat=2, amount=10)
    >>> action_from_dict({"type": "bet", "seat": 2, "amount": "lots"})
    Traceback (most recent call last):
    ...
    pokeroulette_tui.engine.actions.IllegalAction: amount must be a whole number
    """
    if not isinstance(data, dict):
        raise IllegalAction("an action must be an object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(f"unknown action type {str(data.get('type'))[:40]!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "indices":
            if not isinstance(value, list) or len(value) > 5 or not all(
                    isinstance(i, int) and not isinstance(i, bool) for i in value):
                raise IllegalAction("indices must be a list of at most 5 card positions")
            value = tuple(value)
        elif f.name in ("seat", "index"):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise IllegalAction(f"{f.name} must be a whole number")
        elif not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"{f.name} must be a whole number")
        kwargs[f.name] = value
    return cls(**kwargs)
