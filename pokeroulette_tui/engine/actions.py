"""Intents: what a seat (or the dealer, seat None) asks the engine to do."""

from __future__ import annotations

import dataclasses
import reprlib
from dataclasses import FrozenInstanceError, dataclass, field, fields
from types import FunctionType
from typing import Any, ClassVar

from pokeroulette_tui.engine.i18n import _


class IllegalAction(Exception):
    """An action the rules do not allow now; the message is a sentence a player can read."""


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base of every intent. ``seat`` is None for the dealer's own steps."""

    kind: ClassVar[str] = "action"
    seat: int | None = None

    def to_dict(self) -> dict[str, Any]:
        # (the fields are numbers and tuples of numbers: no deep copy is needed)
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["type"] = self.kind
        for key, value in data.items():
            if isinstance(value, tuple):
                data[key] = list(value)
        return data


# -- the kinds of action ---------------------------------------------------------------------
# Every kind is exactly what ``@dataclass(frozen=True, kw_only=True)`` would make of it (the
# same fields, keyword-only __init__, __repr__, equality, hash, frozenness), but written once
# here rather than generated and compiled for each kind at import (see ``_make_kind``).

_KIND_CLASSES: set[type] = set()


def _frozen_setattr(self, name: str, value: Any) -> None:
    if type(self) in _KIND_CLASSES or name in self.__dataclass_fields__:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self, name: str) -> None:
    if type(self) in _KIND_CLASSES or name in self.__dataclass_fields__:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


def _named(func: Any, cls: type, name: str) -> Any:
    """``func`` as ``cls``'s own method ``name`` (so that errors name ``Cut.__init__()``)."""
    qualname = f"{cls.__qualname__}.{name}"
    code = func.__code__.replace(co_name=name, co_qualname=qualname)
    method = FunctionType(code, func.__globals__, name, func.__defaults__, func.__closure__)
    method.__qualname__, method.__annotations__ = qualname, func.__annotations__
    method.__kwdefaults__ = func.__kwdefaults__
    return method


def _make_kind(cls: type, extra: tuple[str, str, Any] | None = None,
               methods: tuple[Any, Any, Any, Any] | None = None) -> type:
    """Make ``cls`` (a subclass of Action) a frozen keyword-only dataclass, with ``extra``
    (name, annotation, default) as its one field beyond ``seat``, and ``methods`` its
    __init__, __repr__, __eq__ and __hash__ for that field (without a field: Action's own,
    which are the same)."""
    base = Action.__dataclass_fields__
    fields_ = dict(base)
    kind = field(default=cls.__dict__["kind"])
    kind.name, kind.type = "kind", "ClassVar[str]"  # a ClassVar's pseudo-field: kw_only unset
    kind._field_type = base["kind"]._field_type  # type: ignore[attr-defined]
    fields_["kind"] = kind
    annotations: dict[str, str] = {"kind": "ClassVar[str]"}
    if extra is None:
        cls.__init__ = _named(Action.__init__, cls, "__init__")
    else:
        name, annotation, default = extra
        own = field(default=default) if default != () else field(default_factory=tuple)
        own.name, own.type, own.kw_only = name, annotation, True
        own._field_type = base["seat"]._field_type  # type: ignore[attr-defined]
        fields_[name] = own
        annotations[name] = annotation
        init, rep, eq, hash_ = methods  # type: ignore[misc]
        cls.__init__ = _named(init, cls, "__init__")
        cls.__repr__, cls.__eq__, cls.__hash__ = rep, eq, hash_
    cls.__dataclass_fields__ = fields_
    cls.__annotations__ = annotations
    cls.__setattr__, cls.__delattr__ = _frozen_setattr, _frozen_delattr
    cls.__match_args__ = ()
    if cls.__doc__ is None:
        tail = "" if extra is None else f", {extra[0]}: {extra[1]!r} = {_default_text(extra[2])}"
        cls.__doc__ = f"{cls.__name__}(*, seat: 'int | None' = None{tail})"
    _KIND_CLASSES.add(cls)
    return cls


def _default_text(default: Any) -> str:
    return "<factory>" if default == () else repr(default)


class StartHand(Action):
    """The dealer starts the next hand (antes, button, shuffle, deal)."""

    kind: ClassVar[str] = "start_hand"


class Advance(Action):
    """The dealer takes the next automatic step (turn actives, clean up, deal)."""

    kind: ClassVar[str] = "advance"


class Check(Action):
    kind: ClassVar[str] = "check"


class Call(Action):
    kind: ClassVar[str] = "call"


class Fold(Action):
    kind: ClassVar[str] = "fold"


class AllIn(Action):
    kind: ClassVar[str] = "all_in"


class Leave(Action):
    """The seat leaves the table, at any moment, without penalty."""

    kind: ClassVar[str] = "leave"


for _cls in (StartHand, Advance, Check, Call, Fold, AllIn, Leave):
    _make_kind(_cls)


# the kinds with a field of their own: (seat, amount), (seat, index), (seat, position), (seat, indices)

def _amount_init(self, *, seat: int | None = None, amount: int = 0):
    object.__setattr__(self, "seat", seat)
    object.__setattr__(self, "amount", amount)


@reprlib.recursive_repr()
def _amount_repr(self) -> str:
    return f"{self.__class__.__qualname__}(seat={self.seat!r}, amount={self.amount!r})"


def _amount_eq(self, other: object) -> bool:
    if other.__class__ is self.__class__:
        return (self.seat, self.amount) == (other.seat, other.amount)  # type: ignore[attr-defined]
    return NotImplemented


def _amount_hash(self) -> int:
    return hash((self.seat, self.amount))


def _index_init(self, *, seat: int | None = None, index: int | None = None):
    object.__setattr__(self, "seat", seat)
    object.__setattr__(self, "index", index)


@reprlib.recursive_repr()
def _index_repr(self) -> str:
    return f"{self.__class__.__qualname__}(seat={self.seat!r}, index={self.index!r})"


def _index_eq(self, other: object) -> bool:
    if other.__class__ is self.__class__:
        return (self.seat, self.index) == (other.seat, other.index)  # type: ignore[attr-defined]
    return NotImplemented


def _index_hash(self) -> int:
    return hash((self.seat, self.index))


def _position_init(self, *, seat: int | None = None, position: int = 26):
    object.__setattr__(self, "seat", seat)
    object.__setattr__(self, "position", position)


@reprlib.recursive_repr()
def _position_repr(self) -> str:
    return f"{self.__class__.__qualname__}(seat={self.seat!r}, position={self.position!r})"


def _position_eq(self, other: object) -> bool:
    if other.__class__ is self.__class__:
        return (self.seat, self.position) == (other.seat, other.position)  # type: ignore[attr-defined]
    return NotImplemented


def _position_hash(self) -> int:
    return hash((self.seat, self.position))


# the dataclass's marker of a default made by a factory (``field(default_factory=tuple)``)
_FACTORY: Any = getattr(dataclasses, "_HAS_DEFAULT_FACTORY", ())


def _indices_init(self, *, seat: int | None = None, indices: tuple[int, ...] = _FACTORY):
    object.__setattr__(self, "seat", seat)
    object.__setattr__(self, "indices", () if indices is _FACTORY else indices)


@reprlib.recursive_repr()
def _indices_repr(self) -> str:
    return f"{self.__class__.__qualname__}(seat={self.seat!r}, indices={self.indices!r})"


def _indices_eq(self, other: object) -> bool:
    if other.__class__ is self.__class__:
        return (self.seat, self.indices) == (other.seat, other.indices)  # type: ignore[attr-defined]
    return NotImplemented


def _indices_hash(self) -> int:
    return hash((self.seat, self.indices))


for _f in (_amount_init, _index_init, _position_init, _indices_init):
    _f.__annotations__["return"] = None
_AMOUNT = (_amount_init, _amount_repr, _amount_eq, _amount_hash)


class PlaceBet(Action):
    """Open the betting with ``amount`` chips."""

    kind: ClassVar[str] = "bet"
    amount: int = 0


class RaiseTo(Action):
    """Raise so that this seat's total bet this round is ``amount``."""

    kind: ClassVar[str] = "raise"
    amount: int = 0


class MoveStockToActive(Action):
    """Stock-to-active option: move stock card number ``index`` to be an active card,
    or ``index=None`` to keep the stock as it is."""

    kind: ClassVar[str] = "stock_to_active"
    index: int | None = None


class Cut(Action):
    """Five-card draw: the player right of the dealer cuts ``position`` cards from the top."""

    kind: ClassVar[str] = "cut"
    position: int = 26


class Discard(Action):
    """Five-card draw: exchange the cards at ``indices`` (empty = stand pat)."""

    kind: ClassVar[str] = "discard"
    indices: tuple[int, ...] = ()


_make_kind(PlaceBet, ("amount", "int", 0), _AMOUNT)
_make_kind(RaiseTo, ("amount", "int", 0), _AMOUNT)
_make_kind(MoveStockToActive, ("index", "int | None", None),
           (_index_init, _index_repr, _index_eq, _index_hash))
_make_kind(Cut, ("position", "int", 26), (_position_init, _position_repr, _position_eq, _position_hash))
_make_kind(Discard, ("indices", "tuple[int, ...]", ()),
           (_indices_init, _indices_repr, _indices_eq, _indices_hash))
del _cls, _f


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
        raise IllegalAction(_("an action must be an object"))
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise IllegalAction(_("unknown action type {type}").format(type=repr(str(data.get("type"))[:40])))
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "indices":
            if not isinstance(value, list) or len(value) > 5 or not all(
                    isinstance(i, int) and not isinstance(i, bool) for i in value):
                raise IllegalAction(_("indices must be a list of at most 5 card positions"))
            value = tuple(value)
        elif f.name in ("seat", "index"):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise IllegalAction(_("{field} must be a whole number").format(field=f.name))
        elif not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(_("{field} must be a whole number").format(field=f.name))
        kwargs[f.name] = value
    return cls(**kwargs)
