"""Every network message as a typed, frozen dataclass: the reference for their shapes.

One class per message kind and direction (docs/PROTOCOL.md §2–§4). Each has its wire name as
the class attribute ``kind``, ``to_wire()`` giving the JSON object sent today (same keys, same
order, optional fields left out as before) and ``parse(msg)`` checking a decoded object's
fields: wrong types and limits raise :class:`~pokeroulette_tui.net.protocol.ProtocolError`
with the words the host has always used. :func:`parse_client` and :func:`parse_server` pick the
class by the ``type`` field.

Fields that carry nested data the engine reads itself (a view, events, the rules, the deck
commitments) stay plain JSON values here: the engine's own ``from_dict`` checks them. The
``state`` message is built as bytes by :mod:`pokeroulette_tui.net.wire` on the host (one
public part for everyone); :class:`State` is for reading it.

Senders: the host builds its messages with these classes (``Notice(text).to_wire()``), the
client its requests; neither writes a message dict by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from pokeroulette_tui.engine.i18n import N_, _, ngettext
from pokeroulette_tui.net import protocol as P
from pokeroulette_tui.net.protocol import ProtocolError

_BIG = 2**53
"""Ids and versions: whole JSON numbers any client can hold exactly."""
MAX_SEATS = 10
"""The most seats a rule set allows (``RuleSet.max_players`` is at most this)."""


# -- field checks for what the host sends (the client's side) --------------------------------

_MISSING: Any = object()


def _int(msg: dict[str, Any], key: str, default: Any = _MISSING) -> int:
    value = msg.get(key, default)
    if type(value) is not int:  # (not a bool, not 2.0)
        raise ProtocolError(f'"{key}" must be a whole number')
    return value


def _opt_int(msg: dict[str, Any], key: str) -> int | None:
    value = msg.get(key)
    if value is not None and type(value) is not int:
        raise ProtocolError(f'"{key}" must be a whole number or null')
    return value


def _num(msg: dict[str, Any], key: str) -> float | None:
    value = msg.get(key)
    if value is None:
        return None
    if type(value) not in (int, float):
        raise ProtocolError(f'"{key}" must be a number or null')
    return value


def _bool(msg: dict[str, Any], key: str, default: bool | None = None) -> bool:
    value = msg.get(key, default)
    if type(value) is not bool:
        raise ProtocolError(f'"{key}" must be true or false')
    return value


def _str(msg: dict[str, Any], key: str, *, none: bool = False) -> Any:
    value = msg.get(key)
    if value is None and none:
        return None
    if type(value) is not str:
        raise ProtocolError(f'"{key}" must be text' + (" or null" if none else ""))
    return value


def _list(msg: dict[str, Any], key: str, item: type, default: Any = _MISSING) -> list[Any]:
    """A list whose items are all of type ``item`` (dict, list or str)."""
    value = msg.get(key, default)
    if type(value) is not list or not all(type(x) is item for x in value):
        what = {dict: "objects", list: "lists", str: "texts"}[item]
        raise ProtocolError(f'"{key}" must be a list of {what}')
    return value


def _dict(msg: dict[str, Any], key: str) -> dict[str, Any]:
    value = msg.get(key)
    if type(value) is not dict:
        raise ProtocolError(f'"{key}" must be an object')
    return value


# -- server to client -------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to a good ``hello`` (§2)."""

    kind: ClassVar[str] = "welcome"
    name: str
    seat: int | None
    token: str | None
    spectator: bool
    admin: bool
    started: bool
    password: bool
    account: str | None = None
    seeded: bool = False
    hints: bool = False  # the host lets players' clients show hints
    version: int = P.VERSION

    def to_wire(self) -> dict[str, Any]:
        return {"type": "welcome", "version": self.version, "name": self.name, "seat": self.seat,
                "token": self.token, "spectator": self.spectator, "admin": self.admin,
                "started": self.started, "password": self.password, "account": self.account,
                "seeded": self.seeded, "hints": self.hints}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Welcome:
        return cls(version=_int(msg, "version"), name=_str(msg, "name"),
                   seat=_opt_int(msg, "seat"), token=_str(msg, "token", none=True),
                   spectator=_bool(msg, "spectator"), admin=_bool(msg, "admin"),
                   started=_bool(msg, "started"), password=_bool(msg, "password"),
                   account=_str(msg, "account", none=True),
                   seeded=_bool(msg, "seeded", False), hints=_bool(msg, "hints", False))


@dataclass(frozen=True, slots=True)
class Error:
    """A refusal (§3): ``id`` answers an ``act``; ``fatal``: the connection is closed."""

    kind: ClassVar[str] = "error"
    message: str
    id: int | None = None
    fatal: bool = False

    def to_wire(self) -> dict[str, Any]:
        return P.error(self.message, ref=self.id, fatal=self.fatal)

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Error:
        return cls(message=_str(msg, "message"), id=_opt_int(msg, "id"),
                   fatal=_bool(msg, "fatal", False))


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """One seat of a ``lobby`` message."""

    seat: int
    name: str
    bot: str | None
    ready: bool
    connected: bool
    host: bool
    away: bool
    left: bool

    def to_wire(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "bot": self.bot, "ready": self.ready,
                "connected": self.connected, "host": self.host, "away": self.away,
                "left": self.left}

    @classmethod
    def parse(cls, d: dict[str, Any]) -> LobbySeat:
        return cls(seat=_int(d, "seat"), name=_str(d, "name"), bot=_str(d, "bot", none=True),
                   ready=_bool(d, "ready"), connected=_bool(d, "connected"),
                   host=_bool(d, "host"), away=_bool(d, "away"), left=_bool(d, "left"))


@dataclass(frozen=True, slots=True)
class Lobby:
    """The seats and the table agreement (§4). ``rules`` is ``RuleSet.to_dict()`` (shared
    with the host's cache: never mutate it)."""

    kind: ClassVar[str] = "lobby"
    started: bool
    you: int | None
    seats: list[LobbySeat]
    spectators: int
    rules: dict[str, Any]
    rules_text: list[str]
    min_players: int
    max_players: int
    turn_timeout: float
    headless: bool
    bot_level: str
    start_problem: str
    leader: int | None
    starts_in: float | None

    def to_wire(self) -> dict[str, Any]:
        return {"type": "lobby", "started": self.started, "you": self.you,
                "seats": [s.to_wire() for s in self.seats], "spectators": self.spectators,
                "rules": self.rules, "rules_text": self.rules_text,
                "min_players": self.min_players, "max_players": self.max_players,
                "turn_timeout": self.turn_timeout, "headless": self.headless,
                "bot_level": self.bot_level, "start_problem": self.start_problem,
                "leader": self.leader, "starts_in": self.starts_in}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Lobby:
        timeout = _num(msg, "turn_timeout")
        if timeout is None:
            raise ProtocolError('"turn_timeout" must be a number')
        return cls(started=_bool(msg, "started"), you=_opt_int(msg, "you"),
                   seats=[LobbySeat.parse(s) for s in _list(msg, "seats", dict)],
                   spectators=_int(msg, "spectators"), rules=_dict(msg, "rules"),
                   rules_text=_list(msg, "rules_text", str),
                   min_players=_int(msg, "min_players"), max_players=_int(msg, "max_players"),
                   turn_timeout=timeout, headless=_bool(msg, "headless"),
                   bot_level=_str(msg, "bot_level"), start_problem=_str(msg, "start_problem"),
                   leader=_opt_int(msg, "leader"), starts_in=_num(msg, "starts_in"))


@dataclass(frozen=True, slots=True)
class Commit:
    """Deck commitments (§11). The host's are made by
    :meth:`~pokeroulette_tui.net.commit.DeckCommitter.commit_message`; the client's
    :class:`~pokeroulette_tui.net.commit.DeckVerifier` judges them (a bad one is a warning to
    the player, not a message skipped: see ``RemoteSession._handle``)."""

    kind: ClassVar[str] = "commit"
    hand_no: int
    algorithm: str
    start: int
    commitments: list[str]
    decks: int | None = None   # the shoe's make-up: only with start 0
    jokers: int | None = None
    shoe: int | None = None

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "commit", "hand_no": self.hand_no,
                               "algorithm": self.algorithm, "start": self.start,
                               "commitments": self.commitments}
        if self.decks is not None or self.jokers is not None or self.shoe is not None:
            msg["decks"], msg["jokers"], msg["shoe"] = self.decks, self.jokers, self.shoe
        return msg

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Commit:
        return cls(hand_no=_int(msg, "hand_no"), algorithm=_str(msg, "algorithm"),
                   start=_int(msg, "start", default=0),
                   commitments=_list(msg, "commitments", str),
                   decks=_opt_int(msg, "decks"), jokers=_opt_int(msg, "jokers"),
                   shoe=_opt_int(msg, "shoe"))


@dataclass(frozen=True, slots=True)
class State:
    """The table as a seat sees it (§4). The host never builds one of these: its state lines
    are spliced as bytes by :mod:`pokeroulette_tui.net.wire` (same keys, same order).
    ``view`` and ``events`` stay JSON: ``SeatView.from_dict`` and ``Event.from_dict`` read
    them (the view with the lobby's rules added)."""

    kind: ClassVar[str] = "state"
    version: int
    view: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    reveals: list[list[Any]] = field(default_factory=list)
    deadline_in: float | None = None
    next_deal_in: float | None = None
    turn: int | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)
    serial: int | None = None
    """This line's number among the table's broadcasts (null on a catch-up line): what a
    delta's ``base`` names (:class:`StateDelta`)."""

    def to_wire(self) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "serial": self.serial,
                "view": self.view,
                "events": self.events, "reveals": self.reveals, "deadline_in": self.deadline_in,
                "next_deal_in": self.next_deal_in, "turn": self.turn, "seats": self.seats}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> State:
        return cls(version=_int(msg, "version"), serial=_opt_int(msg, "serial"),
                   view=_dict(msg, "view"),
                   events=_list(msg, "events", dict, []), reveals=_list(msg, "reveals", list, []),
                   deadline_in=_num(msg, "deadline_in"), next_deal_in=_num(msg, "next_deal_in"),
                   turn=_opt_int(msg, "turn"), seats=_list(msg, "seats", dict, []))


@dataclass(frozen=True, slots=True)
class StateDelta:
    """A ``state`` line with ``base`` (§4, "Deltas"), sent only to a client that said
    ``"deltas": true`` in its hello: ``view`` holds only the view's fields that changed since
    the line whose ``serial`` is ``base``, and ``players`` the changed players as
    ``[index, fields]`` (only the fields of that player's entry that changed). Not in
    :data:`SERVER` (its wire type is ``state``): a client reads a ``state`` line with
    ``base`` as this."""

    kind: ClassVar[str] = "state"
    version: int
    serial: int
    base: int
    view: dict[str, Any]
    players: list[list[Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    reveals: list[list[Any]] = field(default_factory=list)
    deadline_in: float | None = None
    next_deal_in: float | None = None
    turn: int | None = None
    seats: list[dict[str, Any]] = field(default_factory=list)

    def to_wire(self) -> dict[str, Any]:
        return {"type": "state", "version": self.version, "serial": self.serial,
                "base": self.base, "view": self.view, "players": self.players,
                "events": self.events, "reveals": self.reveals, "deadline_in": self.deadline_in,
                "next_deal_in": self.next_deal_in, "turn": self.turn, "seats": self.seats}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> StateDelta:
        players = _list(msg, "players", list, [])
        for p in players:
            if (len(p) != 2 or type(p[0]) is not int or p[0] < 0
                    or not isinstance(p[1], dict)):
                raise ProtocolError("a changed player must be [index, fields]")
        return cls(version=_int(msg, "version"), serial=_int(msg, "serial"),
                   base=_int(msg, "base"), view=_dict(msg, "view"), players=players,
                   events=_list(msg, "events", dict, []), reveals=_list(msg, "reveals", list, []),
                   deadline_in=_num(msg, "deadline_in"), next_deal_in=_num(msg, "next_deal_in"),
                   turn=_opt_int(msg, "turn"), seats=_list(msg, "seats", dict, []))

    def apply(self, view: dict[str, Any]) -> dict[str, Any]:
        """The whole view this delta makes of ``view`` (the one of the line ``base``): its
        fields replaced, and each changed player's entry updated with the fields given."""
        new = {**view, **self.view}
        if self.players:
            players = list(new["players"])
            for i, entry in self.players:
                players[i] = {**players[i], **entry}  # (IndexError: the caller's to handle)
            new["players"] = players
        return new


@dataclass(frozen=True, slots=True)
class History:
    """Hands of events: on joining (``page`` false) or answering a request (``page``)."""

    kind: ClassVar[str] = "history"
    hands: list[list[dict[str, Any]]]
    page: bool = False
    more: bool = False
    first: int | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"type": "history", "page": self.page, "more": self.more, "first": self.first,
                "hands": self.hands}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> History:
        hands = _list(msg, "hands", list)
        if not all(type(e) is dict for hand in hands for e in hand):
            raise ProtocolError('"hands" must be lists of events')
        return cls(hands=hands, page=_bool(msg, "page", False), more=_bool(msg, "more", False),
                   first=_opt_int(msg, "first"))


@dataclass(frozen=True, slots=True)
class ChatLine:
    """A chat line to everyone (the server's ``chat``); ``seat`` is null for a spectator."""

    kind: ClassVar[str] = "chat"
    seat: int | None
    name: str
    text: str
    spectator: bool

    def to_wire(self) -> dict[str, Any]:
        return {"type": "chat", "seat": self.seat, "name": self.name, "text": self.text,
                "spectator": self.spectator}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> ChatLine:
        return cls(seat=_opt_int(msg, "seat"), name=_str(msg, "name"),
                   text=_str(msg, "text"), spectator=_bool(msg, "spectator", False))


@dataclass(frozen=True, slots=True)
class Notice:
    """News: joins, disconnects, timeouts, the game's end."""

    kind: ClassVar[str] = "notice"
    text: str

    def to_wire(self) -> dict[str, Any]:
        return {"type": "notice", "text": self.text}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Notice:
        return cls(text=_str(msg, "text"))


@dataclass(frozen=True, slots=True)
class Ack:
    """The ``act`` with this ``id`` was played; ``version`` is the table's new version."""

    kind: ClassVar[str] = "ack"
    id: int
    version: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": "ack", "id": self.id, "version": self.version}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Ack:
        return cls(id=_int(msg, "id"), version=_int(msg, "version"))


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to a ``ping`` (with its ``id``, if it had one)."""

    kind: ClassVar[str] = "pong"
    id: int | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"type": "pong"} if self.id is None else {"type": "pong", "id": self.id}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Pong:
        return cls(id=_opt_int(msg, "id"))


@dataclass(frozen=True, slots=True)
class Bye:
    """The server closes this connection, saying why."""

    kind: ClassVar[str] = "bye"
    reason: str

    def to_wire(self) -> dict[str, Any]:
        return {"type": "bye", "reason": self.reason}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Bye:
        return cls(reason=_str(msg, "reason"))


# -- client to server ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hello:
    """The first line of a connection (§2). Parsing cleans the name; every refusal is fatal.
    ``admin`` is the hosting player's own client's secret; ``client`` is informational."""

    kind: ClassVar[str] = "hello"
    name: str
    spectate: bool = False
    password: str = ""
    token: str = ""
    admin: str = ""
    client: str = ""
    version: int = P.VERSION
    deltas: bool = False
    """The client applies state deltas (§4): sent only as ``"deltas": true``."""

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "version": self.version, "name": self.name,
                               "spectate": self.spectate}
        if self.client:
            msg["client"] = self.client
        if self.deltas:
            msg["deltas"] = True
        for key in ("password", "token", "admin"):
            if getattr(self, key):
                msg[key] = getattr(self, key)
        return msg

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Hello:
        h = P.check_hello(msg)
        client = msg.get("client")  # (never refused: only a note about the program)
        return cls(name=h["name"], spectate=h["spectate"], password=h["password"],
                   token=h["token"], admin=h["admin"],
                   client=client[:P.MAX_NAME * 4] if isinstance(client, str) else "",
                   deltas=msg.get("deltas") is True)


@dataclass(frozen=True, slots=True)
class Ready:
    """Lobby only: ready (or not) to start."""

    kind: ClassVar[str] = "ready"
    ready: bool = True

    def to_wire(self) -> dict[str, Any]:
        return {"type": "ready", "ready": self.ready}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Ready:
        return cls(ready=P.want_bool(msg, "ready", True))


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line to send. Parsing cleans the text (§8) and refuses empty or long lines."""

    kind: ClassVar[str] = "chat"
    text: str

    def to_wire(self) -> dict[str, Any]:
        return {"type": "chat", "text": self.text}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Chat:
        raw = P.want_str(msg, "text", limit=4 * P.MAX_CHAT)
        text = P.clean_text(raw, 4 * P.MAX_CHAT)
        if len(text) > P.MAX_CHAT:
            raise ProtocolError(f"chat messages are at most {P.MAX_CHAT} characters")
        if not text:
            raise ProtocolError("empty chat message")
        return cls(text=text)


@dataclass(frozen=True, slots=True)
class Act:
    """An action for your seat (§5). ``action`` stays the action object as sent (numbers
    checked against absurd amounts): the host fills in the seat and the engine reads it."""

    kind: ClassVar[str] = "act"
    id: int
    version: int
    action: dict[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {"type": "act", "version": self.version, "action": self.action, "id": self.id}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Act:
        ref = P.want_int(msg, "id", lo=0, hi=_BIG)
        version = P.want_int(msg, "version", lo=0, hi=_BIG)
        action = msg.get("action")
        if not isinstance(action, dict):
            raise ProtocolError('"action" must be an object')
        seat = action.get("seat")
        if seat is not None and type(seat) is not int:  # true is no seat number (nor 1.0)
            raise ProtocolError(_("{field} must be a whole number").format(field="seat"))
        P.check_amounts(action)
        return cls(id=ref, version=version, action=action)


@dataclass(frozen=True, slots=True)
class Start:
    """The leader: deal the first hand now."""

    kind: ClassVar[str] = "start"

    def to_wire(self) -> dict[str, Any]:
        return {"type": "start"}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Start:
        return cls()


@dataclass(frozen=True, slots=True)
class Bots:
    """The leader, lobby only: seat ``count`` bots of ``level`` (None: the table's level).
    The host checks ``count`` against its rules' seats and ``level`` against the bot levels."""

    kind: ClassVar[str] = "bots"
    count: int
    level: str | None = None

    def to_wire(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "bots", "count": self.count}
        if self.level is not None:
            msg["level"] = self.level
        return msg

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Bots:
        count = P.want_int(msg, "count", lo=0, hi=MAX_SEATS)
        level = P.want_str(msg, "level", limit=20, default="") if "level" in msg else None
        return cls(count=count, level=level)


@dataclass(frozen=True, slots=True)
class Kick:
    """The leader, lobby only: take ``seat`` back (the host checks it is a seat)."""

    kind: ClassVar[str] = "kick"
    seat: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": "kick", "seat": self.seat}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Kick:
        return cls(seat=P.want_int(msg, "seat", lo=0, hi=MAX_SEATS - 1))


@dataclass(frozen=True, slots=True)
class Back:
    """Back after timing out: full turns again."""

    kind: ClassVar[str] = "back"

    def to_wire(self) -> dict[str, Any]:
        return {"type": "back"}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Back:
        return cls()


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the table for good."""

    kind: ClassVar[str] = "leave"

    def to_wire(self) -> dict[str, Any]:
        return {"type": "leave"}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Leave:
        return cls()


@dataclass(frozen=True, slots=True)
class Quit:
    """This terminal is closing on purpose: hold the seat (the others are told so, not that
    the connection was lost). The client closes the connection after it; no answer."""

    kind: ClassVar[str] = "quit"

    def to_wire(self) -> dict[str, Any]:
        return {"type": "quit"}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Quit:
        return cls()


@dataclass(frozen=True, slots=True)
class Ping:
    """Keep-alive; answered by a ``pong`` with the same ``id``."""

    kind: ClassVar[str] = "ping"
    id: int | None = None

    def to_wire(self) -> dict[str, Any]:
        return {"type": "ping"} if self.id is None else {"type": "ping", "id": self.id}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> Ping:
        return cls(id=P.want_int(msg, "id", lo=0, hi=_BIG) if "id" in msg else None)


@dataclass(frozen=True, slots=True)
class HistoryRequest:
    """Older hands: a page of those before hand number ``before`` (the client's ``history``)."""

    kind: ClassVar[str] = "history"
    before: int

    def to_wire(self) -> dict[str, Any]:
        return {"type": "history", "before": self.before}

    @classmethod
    def parse(cls, msg: dict[str, Any]) -> HistoryRequest:
        return cls(before=P.want_int(msg, "before", lo=0, hi=2**31))


# -- by wire name ---------------------------------------------------------------------------------

ServerMessage = (Welcome | Error | Lobby | Commit | State | History | ChatLine | Notice | Ack
                 | Pong | Bye)
ClientMessage = (Hello | Ready | Chat | Act | Start | Bots | Kick | Back | Leave | Ping
                 | HistoryRequest | Quit)

SERVER: dict[str, type[ServerMessage]] = {c.kind: c for c in ServerMessage.__args__}
"""What the server sends, by wire name (in the order of ``protocol.SERVER_TYPES``)."""
CLIENT: dict[str, type[ClientMessage]] = {c.kind: c for c in ClientMessage.__args__}
"""What a client sends, by wire name (in the order of ``protocol.CLIENT_TYPES``)."""


def _parse(table: dict[str, Any], msg: Any) -> Any:
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError('a message needs a "type" text field')
    cls = table.get(msg["type"])
    if cls is None:
        raise ProtocolError(f"unknown message type {msg['type'][:32]!r}")
    return cls.parse(msg)


def parse_server(msg: dict[str, Any]) -> ServerMessage:
    """A decoded message from the server as its class; ProtocolError if the type is unknown
    or a field is wrong."""
    return _parse(SERVER, msg)


def parse_client(msg: dict[str, Any]) -> ClientMessage:
    """A decoded message from a client as its class, its fields checked as the host checks
    them; ProtocolError (the host's words) if the type is unknown or a field is wrong."""
    return _parse(CLIENT, msg)


# -- a host's sentences in the player's language ---------------------------------------------

HOST_SENTENCES: tuple[str, ...] = (
    # the casino table (engine/casino/game.py, net/casino_host.py)
    N_("bets are closed: wait for the next round"),
    N_("this table takes no poker bet on {hand} (it offers: {offered})"),
    N_("the progressive side bet is one stake of {stake} a round, and it is already placed"),
    N_("the smallest bet on a spot is {min_bet}"),
    N_("at most {max_bet} on one spot (room for {room} more here)"),
    N_("at most {max_bet} on one spot"),
    N_("not enough chips: {left} left, the bet is {amount}"),
    N_("no bet to take back"),
    N_("no bets from the last round to place again"),
    N_("last round's bets need {need} chips; {left} left"),
    N_("place a bet first"),
    N_("the round is not over"),
    N_("the cards are being dealt"),
    N_("you still have {amount:,} chips: a fresh bankroll is for a player with none left"),
    N_("A fresh bankroll of {amount:,} play chips."),
    N_("{name} left the table; their seat and bankroll are held"),
    N_("{name} starts again with {amount:,} play chips"),
    N_("Time is up: no more bets"),
    N_("Round {number}: no more bets"),
    N_("THE JACKPOT of {amount:,} is won!"),
    N_("{name} is back"),
    N_("{name} joined the table"),
    N_("a casino table has no spectators' chairs: join as a player"),
    N_("this is a casino table: join it with `pokeroulette join` from a version that knows "
       "the casino"),
    # refusals of either table (net/admission.py, net/seats.py, net/casino_host.py, protocol.py)
    N_("wrong password"),
    N_("this table has a password (join with --password, --password-file FILE or "
       "POKEROULETTE_PASSWORD)"),
    N_("{name} is seated at this table (the seat is held for them): join under another name"),
    N_("{name} is seated at this table: join under another name"),
    N_("the table is full ({n} players)"),
    N_("too many failed attempts: wait {seconds} s and try again"),
    N_("replaced by a new connection for this seat"),
    N_("the server is full"),
    N_("no hello: closing"),
    N_("too many errors"),
    N_("slow down: too many chat messages"),  # (before the next: its own words)
    N_("slow down: too many {kind} messages"),
    N_("choose a name of 1 to {n} letters"),
    N_("this server speaks protocol version {version}, not {theirs}"),
    N_("{name}… is too long: a name is at most {n} letters"),
    N_("a name cannot have {marks} in it: the table marks names with them"),
    N_("the server is full: making room for a player"),
    N_("this table's lobby closed: the game never started"),
    N_("{name} is seated at this table: watch under another name"),
    N_("too many spectators"),
    N_("{name} is a bot's name here; choose another"),
    N_("the name {name} belongs to an account of this machine"),
    N_("the name {name} is taken: join under another name (a seat of your own is taken back "
       "by joining from where you first joined)"),
    N_("the game has already started; join with --spectate to watch"),
    N_("the table is full"),
    N_("you left this table; join with --spectate to watch"),
    N_("this table admits accounts of this machine only"),
    # the card table's news and lobby (net/admission.py, net/host.py, net/lobby.py)
    N_("{name} is watching"),
    N_("{name} joined"),
    N_("{name} left the lobby"),
    N_("{name} quit; the seat is held (the turn timer plays for them)"),
    N_("{name} lost the connection; the seat is held (the turn timer plays for them)"),
    N_("the game has not started"),
    N_("the game has already started"),
    N_("spectators are always ready"),
    N_("you cannot remove yourself or the host; leave instead"),
    N_("{name} removed you from the table"),
    N_("the host removed you from the table"),
    N_("{name} was removed from the table"),
    N_("Everyone is ready: the game starts in {seconds} s"),
    N_("The game starts: {names}"),
    N_("the host closed the table"),
    N_("The host cannot save this table now: {reason}. Play goes on; a crash of the host "
       "would lose what is not saved."),
    N_("The host saves this table again."),
    # the card table's turns (net/turns.py, net/broadcast.py)
    N_("this request id was used already (replayed action ignored)"),
    N_("spectators cannot act"),
    N_("you can only act for your own seat"),
    N_("only the dealer deals"),
    N_("stale action: the table has moved on since that view, nothing was done"),
    N_("you are not away"),
    N_("you left the table"),
    N_("{name} left"),
    N_("Game over: {reason}"),
    N_("the game has ended"),
    N_("the game is over"),
    N_("no hello within {n:g} seconds"),
    N_("closed after {n:g} seconds without a word"),
    N_("Time ran out for {name}: check ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: call ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: fold ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: all in ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: bet ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: raise ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: stock to active ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: cut ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: discard ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name} ({n} of {limit} before being marked away)"),
    N_("Time ran out for {name}: stand pat ({n} of {limit} before being marked away)"),
    # why a game ended, inside "Game over: {reason}" (engine/scoring.py)
    N_("{name} wins the game"),
    N_("no players are left"),
    N_("the agreed {n} hands have been played"),
    # why a lobby cannot deal yet (net/lobby.py), alone or inside "cannot start: {reason}"
    N_("cannot start: {reason}"),
    N_("the game has started"),
    N_("nobody is seated"),
    N_("these rules seat at most {high} players"),
    N_("waiting for {names} to be ready"),
    N_("waiting for you to be ready"),
    N_("waiting for you and {names} to be ready"),
)
"""The sentences a host sends most often, as the source writes them (English). A host makes
its messages in its own language; a client that gets one of these in any language the game
speaks says it again in its player's language (:func:`heard`), and shows any other text as it
came."""

HOST_PLURALS: tuple[tuple[str, str], ...] = (
    # (net/turns.py: ``ngettext`` by ``{n}``)
    (("{name} timed out {n} time and is away: the table checks or folds for them until they "
      "are back"),
     ("{name} timed out {n} times and is away: the table checks or folds for them until they "
      "are back")),
    # (net/lobby.py: ``ngettext`` by the players still missing)
    ("these rules need at least {low} players ({seated} seated): wait for {n} more, or the "
     "table's leader adds a bot (or host with --bots {n} or --rule min_players={least})",
     "these rules need at least {low} players ({seated} seated): wait for {n} more, or the "
     "table's leader adds bots (or host with --bots {n} or --rule min_players={least})"),
)
"""Host sentences whose words follow a number ``{n}`` (singular, plural), as
:data:`HOST_SENTENCES`."""

_NESTED = ("reason",)
"""Placeholders that hold a host's sentence of their own (said again by :func:`heard` too)."""

_PATTERNS: list[tuple[Any, Any]] = []


def _patterns() -> list[tuple[Any, Any]]:
    """(template, pattern) for each sentence in each language the game speaks (a template of
    :data:`HOST_PLURALS` is its (singular, plural) pair)."""
    import gettext
    import re

    from pokeroulette_tui.engine import i18n

    if not _PATTERNS:
        catalogs = [gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, [code], fallback=True)
                    for code in i18n.LANGUAGES if code != "en"]
        templates: list[tuple[Any, list[str]]] = [
            (t, [t, *(c.gettext(t) for c in catalogs)]) for t in HOST_SENTENCES]
        templates += [(pair, [*pair, *(c.ngettext(*pair, n) for c in catalogs for n in (1, 2))])
                      for pair in HOST_PLURALS]
        for template, said in templates:
            for source in dict.fromkeys(said):
                parts, seen = [], set()
                for i, piece in enumerate(re.split(r"(\{\w+(?::[^}]*)?\})", source)):
                    if i % 2 == 0:
                        parts.append(re.escape(piece))
                        continue
                    name = piece[1:-1].split(":")[0]
                    parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
                    seen.add(name)
                _PATTERNS.append((template, re.compile("".join(parts), re.DOTALL)))
    return _PATTERNS


def heard(text: str) -> str:
    """A host's sentence in this player's language when it is one of :data:`HOST_SENTENCES`
    (in English, Finnish or Swedish: the host's language; its first letter as it came); any
    other text unchanged.

    >>> heard("Not enough chips: 5 left, the bet is 25"), heard("something else")
    ('Not enough chips: 5 left, the bet is 25', 'something else')
    """
    import re

    if not text:
        return text
    upper = text[:1].isupper()
    lowered = text[:1].lower() + text[1:]
    best: tuple[int, Any, Any] | None = None
    for template, pattern in _patterns():
        found = pattern.fullmatch(text) or pattern.fullmatch(lowered)
        if found is None:
            continue
        # the sentence that leaves the least to its placeholders is the one meant ("Bo is
        # back" is not "{name} is back" when a longer sentence ends in "is back")
        loose = sum(len(v) for v in found.groupdict().values())
        if best is None or loose < best[0]:
            best = (loose, template, found)
    if best is not None:
        __, template, found = best
        values = found.groupdict()
        if isinstance(template, tuple):
            try:
                words = ngettext(*template, int(values["n"]))
            except (KeyError, ValueError):
                return text
        else:
            words = _(template)
        for key in _NESTED:
            if key in values:
                values[key] = heard(values[key])
        words = re.sub(r"\{(\w+):[^}]*\}", r"{\1}", words)
        try:
            said = words.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
        return said[:1].upper() + said[1:] if upper else said
    return text
